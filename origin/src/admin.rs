//! `origin admin …`: the operator's commands, for what the shop's specification has no back
//! office for — reviewing qualification certificates, granting coupons, cash vouchers, red
//! packets, points and balance (an offline recharge), shipping orders and adding their
//! logistics, and looking members up. Every change is
//! one transaction that also writes the member's own log row (as their own movements do), a
//! message to the member, and an `admin_logs` row naming the operator.

use clap::{Args, Parser, Subcommand};
use sqlx::{AnyConnection, Connection};

use crate::db::Db;
use crate::http::member::{MESSAGE_ORDER, MESSAGE_QUALIFICATION, MESSAGE_WALLET, send_message};
use crate::http::qualification::REQUIRED;
use crate::order_life::{self, Action, Actor};
use crate::returns::{self, Step};
use crate::settlement::{self, UNUSED};
use crate::{money, now};

/// The operator's commands on the shop's database (`DATABASE_URL`).
#[derive(Debug, Parser)]
#[command(name = "origin admin", about = "Operator commands: review qualifications, grant coupons and money, list members")]
pub struct Admin {
    /// Who is acting, for the log (default: $USER).
    #[arg(long, global = true)]
    operator: Option<String>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Lists members (id, account, company, approval, balance, red packets, points).
    Members {
        /// Only members whose account, company or phone contains this.
        #[arg(long)]
        search: Option<String>,
        /// Only members with certificates waiting for review.
        #[arg(long)]
        pending: bool,
    },
    /// Lists qualification certificates.
    Qualifications {
        #[arg(long)]
        member: Option<i64>,
        /// Only those waiting for review.
        #[arg(long)]
        pending: bool,
    },
    /// Approves a certificate; the member may order once the required ones are approved.
    Approve {
        /// The certificate's id.
        id: i64,
        /// The business scope approved with it, one item per comma (经营范围).
        #[arg(long)]
        scope: Option<String>,
    },
    /// Rejects a certificate with a reason the member sees.
    Reject {
        id: i64,
        #[arg(long)]
        reason: String,
    },
    /// Lists the coupon and cash-voucher templates that can be granted.
    Templates,
    /// Grants something to a member.
    #[command(subcommand)]
    Grant(Grant),
    /// Ships a paid order (待发货 → 待收货) with its carrier and tracking number.
    Ship {
        /// The order's id.
        order: i64,
        #[arg(long)]
        carrier: String,
        #[arg(long)]
        tracking: String,
    },
    /// Lists after-sales cases.
    AfterSales {
        /// Only those still open.
        #[arg(long)]
        open: bool,
    },
    /// Answers an after-sales case (the member is told); `--resolve` closes it.
    Answer {
        /// The case's id.
        case: i64,
        #[arg(long)]
        body: String,
        #[arg(long)]
        resolve: bool,
    },
    /// Lists invoice requests.
    Invoices {
        /// Only those waiting to be issued.
        #[arg(long)]
        pending: bool,
    },
    /// Issues a requested invoice: its number, today's date, the amount paid for the order's lines.
    IssueInvoice {
        /// The request's id.
        id: i64,
    },
    /// Lists returns (退货).
    Returns {
        /// Only those waiting for review or for the goods.
        #[arg(long)]
        open: bool,
    },
    /// Approves a requested return: the member sends the goods back (`--note`: where to).
    ApproveReturn {
        /// The return's id.
        id: i64,
        #[arg(long, default_value = "")]
        note: String,
    },
    /// Rejects a requested or approved return with a reason the member sees.
    RejectReturn {
        id: i64,
        #[arg(long)]
        reason: String,
    },
    /// The goods of an approved return are back: refunds it to the balance, gives back its red
    /// packets and points, and takes back the points the order earned for it.
    ReceiveReturn { id: i64 },
    /// Lists points-mall orders (积分订单).
    PointsOrders {
        /// Only goods waiting to be shipped.
        #[arg(long)]
        pending: bool,
    },
    /// Ships a points-mall order of goods with its carrier and tracking number.
    ShipPoints {
        /// The points order's id.
        order: i64,
        #[arg(long)]
        carrier: String,
        #[arg(long)]
        tracking: String,
    },
    /// Publishes a help or news article from a Markdown file, or with `--id` replaces an
    /// article's body (and any field given).
    Article(ArticleArgs),
    /// Lists feedback (意见反馈).
    Feedback {
        /// Only those not yet replied to.
        #[arg(long)]
        open: bool,
    },
    /// Replies to a piece of feedback, once; the member reads it beside their feedback.
    ReplyFeedback {
        id: i64,
        #[arg(long)]
        reply: String,
    },
    /// Lists wanted varieties (品种求购).
    Wanted {
        /// Only those not yet answered.
        #[arg(long)]
        open: bool,
    },
    /// Answers a wanted variety: `--status 1` sourced (已上架) or `2` cannot be sourced (暂无货源),
    /// with the reply the member reads.
    ReplyWanted {
        id: i64,
        #[arg(long)]
        status: i64,
        #[arg(long)]
        reply: String,
    },
    /// Lists applications for the controlled-sales zone (控销专区).
    KxMembers {
        /// Only those waiting for review.
        #[arg(long)]
        pending: bool,
    },
    /// Approves a member's application for the controlled-sales zone: they may buy its goods.
    ApproveKx {
        /// The member's id.
        member: i64,
    },
    /// Rejects (or withdraws) a member's controlled-sales approval with a reason they see.
    RejectKx {
        member: i64,
        #[arg(long)]
        reason: String,
    },
    /// Starts a store-wide discount (全场折扣, `/welfare`) now for `--days`, or with `--off` ends
    /// every running one; with neither, shows the running one.
    Welfare {
        /// The rate goods are priced at: 0.94 is 94折.
        #[arg(long)]
        rate: Option<String>,
        #[arg(long, default_value_t = 7)]
        days: i64,
        #[arg(long, default_value = "全场94折")]
        title: String,
        #[arg(long)]
        off: bool,
    },
    /// Writes a backup of the shop's database to `--to` (SQLite: an online copy; PostgreSQL:
    /// `pg_dump`), while the shop keeps serving.
    Backup {
        #[arg(long)]
        to: std::path::PathBuf,
    },
    /// Restores a backup (`backup --to`) into the new or empty database `DATABASE_URL` names.
    Restore {
        #[arg(long)]
        from: std::path::PathBuf,
    },
    /// Makes every origin rebuild its search index from the database. They do by themselves
    /// when the catalogue changes (its triggers bump the version); this is for goods written
    /// by another tool with the triggers off, as a bulk load might.
    Reindex,
    /// Adds `--goods N` generated goods to the catalogue, made from the shop's own (the same
    /// medicines from other manufacturers, packs and prices): a wholesaler's range for
    /// benchmarks and tests. The same `--seed` writes the same goods.
    Seed {
        #[arg(long)]
        goods: usize,
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Shows the shop's identity (name, seller entity, licences, tax number, address, hotline),
    /// or changes the fields given, at once everywhere it is shown: the footer, the agreement,
    /// help articles, invoices and the cashier. Prints what changed.
    Settings(SettingsArgs),
    /// Adds a carrier's event to a shipped order's logistics.
    Logistics {
        order: i64,
        #[arg(long)]
        description: String,
        #[arg(long, default_value = "")]
        place: String,
    },
}

/// An article's fields; the body is the Markdown file.
#[derive(Debug, Args)]
struct ArticleArgs {
    /// The Markdown file of the body.
    #[arg(long)]
    file: std::path::PathBuf,
    /// The article to edit; without it a new one is published.
    #[arg(long)]
    id: Option<i64>,
    /// `help` or `news` (a new article).
    #[arg(long)]
    kind: Option<String>,
    #[arg(long)]
    title: Option<String>,
    /// A help article's group (新手指南, 服务保障, 支付与配送, 联系我们).
    #[arg(long)]
    group: Option<String>,
    /// A help article's page, `/help/…`.
    #[arg(long)]
    path: Option<String>,
    /// A news item's category: `hy` or `company`.
    #[arg(long)]
    category: Option<String>,
    #[arg(long)]
    summary: Option<String>,
    /// A news item's day, `YYYY-MM-DD` (default: today).
    #[arg(long)]
    date: Option<String>,
}

/// The fields of the shop's identity to change (`crate::shop::FIELDS`); those not given stay.
#[derive(Debug, Args)]
struct SettingsArgs {
    /// The shop's name (店铺名称).
    #[arg(long)]
    name: Option<String>,
    /// The seller entity (公司名称): the agreement's seller, the invoice's 销售方, the payee.
    #[arg(long)]
    company: Option<String>,
    /// The 药品经营许可证 number.
    #[arg(long)]
    drug_licence: Option<String>,
    /// The 互联网药品信息服务资格证书 number.
    #[arg(long)]
    internet_drug_licence: Option<String>,
    /// The 医疗器械经营许可证 number ("" for none).
    #[arg(long)]
    device_licence: Option<String>,
    /// The 统一社会信用代码, also the seller's 纳税人识别号 (15 to 20 letters and digits).
    #[arg(long)]
    credit_code: Option<String>,
    #[arg(long)]
    address: Option<String>,
    /// The service hotline, also the complaints line.
    #[arg(long)]
    hotline: Option<String>,
    /// Service QQ numbers ("" for none).
    #[arg(long)]
    qq1: Option<String>,
    #[arg(long)]
    qq2: Option<String>,
    /// The ICP filing number ("" for none).
    #[arg(long)]
    icp: Option<String>,
}

impl SettingsArgs {
    /// The values given, by field name.
    fn given(self) -> Vec<(&'static str, String)> {
        let all = [
            ("name", self.name),
            ("company", self.company),
            ("drug_licence", self.drug_licence),
            ("internet_drug_licence", self.internet_drug_licence),
            ("device_licence", self.device_licence),
            ("credit_code", self.credit_code),
            ("address", self.address),
            ("hot_line", self.hotline),
            ("qq1", self.qq1),
            ("qq2", self.qq2),
            ("icp", self.icp),
        ];
        all.into_iter().filter_map(|(name, value)| value.map(|value| (name, value))).collect()
    }
}

#[derive(Debug, Subcommand)]
enum Grant {
    /// A coupon of a template (`templates` lists them), valid for the template's days.
    Coupon(GrantTemplate),
    /// A cash voucher of a template.
    Voucher(GrantTemplate),
    /// Red packets (an amount in yuan).
    RedPacket(GrantMoney),
    /// Points (a whole number; negative takes them away, never below zero).
    Points {
        #[arg(long)]
        member: i64,
        #[arg(long, allow_hyphen_values = true)]
        points: i64,
        #[arg(long, default_value = "平台赠送")]
        note: String,
    },
    /// Balance (an offline recharge, e.g. a bank transfer received).
    Balance(GrantMoney),
}

#[derive(Debug, Clone, Copy, Args)]
struct GrantTemplate {
    #[arg(long)]
    member: i64,
    /// The template's id.
    #[arg(long)]
    template: i64,
    #[arg(long, default_value_t = 1)]
    count: i64,
}

#[derive(Debug, Args)]
struct GrantMoney {
    #[arg(long)]
    member: i64,
    /// Yuan, at most two decimals: `50.00`.
    #[arg(long)]
    amount: String,
    #[arg(long, default_value = "平台赠送")]
    note: String,
}

impl Admin {
    /// The backup to restore, when the command is `restore`: it runs before the database is
    /// opened (and migrated), on `DATABASE_URL` alone.
    pub fn restore_from(&self) -> Option<&std::path::Path> {
        match &self.command {
            Command::Restore { from } => Some(from),
            _ => None,
        }
    }

    /// Reads the command line after `origin admin`.
    pub fn from_args(args: impl IntoIterator<Item = String>) -> Result<Admin, clap::Error> {
        Admin::try_parse_from(std::iter::once("origin admin".to_owned()).chain(args))
    }
}

/// Runs one command; answers what it prints, its own line breaks and tabs kept and every other
/// control character shown escaped ([`printable`]).
pub async fn run(db: &Db, admin: Admin) -> anyhow::Result<String> {
    Ok(printable(&command(db, admin).await?))
}

/// What members typed, as the operator's terminal shows it: every control character (line
/// breaks and tabs too, which would break a listing's rows and columns) escaped as Rust writes it
/// (`\u{1b}`, `\n`), everything else, Chinese included, as it is. Text stored before the API
/// refused control characters (`security::Text::refusal`) could otherwise colour the terminal,
/// move its cursor or write its clipboard (OSC 52).
pub fn shown(text: &str) -> Shown<'_> {
    Shown { text, keep: &[] }
}

/// A command's whole output: control characters escaped as [`shown`] does, but for the line
/// breaks and tabs of its own layout.
pub fn printable(text: &str) -> String {
    Shown { text, keep: &['\n', '\t'] }.to_string()
}

/// Text with its control characters escaped when displayed ([`shown`]).
pub struct Shown<'a> {
    text: &'a str,
    keep: &'static [char],
}

impl std::fmt::Display for Shown<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use std::fmt::Write;
        for c in self.text.chars() {
            if c.is_control() && !self.keep.contains(&c) {
                write!(f, "{}", c.escape_default())?;
            } else {
                f.write_char(c)?;
            }
        }
        Ok(())
    }
}

async fn command(db: &Db, admin: Admin) -> anyhow::Result<String> {
    let operator = admin.operator.or_else(|| std::env::var("USER").ok()).unwrap_or_else(|| "operator".into());
    let mut conn = db.pool.acquire().await?;
    match admin.command {
        Command::Members { search, pending } => members(&mut conn, search, pending).await,
        Command::Qualifications { member, pending } => qualifications(&mut conn, member, pending).await,
        Command::Approve { id, scope } => approve(&mut conn, &operator, id, scope).await,
        Command::Reject { id, reason } => reject(&mut conn, &operator, id, &reason).await,
        Command::Templates => templates(&mut conn).await,
        Command::Grant(grant) => self::grant(&mut conn, &operator, grant).await,
        Command::AfterSales { open } => after_sales(&mut conn, open).await,
        Command::Invoices { pending } => invoices(&mut conn, pending).await,
        Command::IssueInvoice { id } => issue_invoice(&mut conn, &operator, id).await,
        Command::Answer { case, body, resolve } => answer(&mut conn, &operator, case, &body, resolve).await,
        Command::Ship { order, carrier, tracking } => ship(&mut conn, &operator, order, &carrier, &tracking).await,
        Command::Returns { open } => list_returns(&mut conn, open).await,
        Command::ApproveReturn { id, note } => return_step(&mut conn, &operator, id, Step::Approve, &note).await,
        Command::RejectReturn { id, reason } => return_step(&mut conn, &operator, id, Step::Reject, &reason).await,
        Command::ReceiveReturn { id } => return_step(&mut conn, &operator, id, Step::Receive, "").await,
        Command::PointsOrders { pending } => points_orders(&mut conn, pending).await,
        Command::ShipPoints { order, carrier, tracking } => ship_points(&mut conn, &operator, order, &carrier, &tracking).await,
        Command::Feedback { open } => feedback(&mut conn, open).await,
        Command::ReplyFeedback { id, reply } => reply_feedback(&mut conn, &operator, id, &reply).await,
        Command::Wanted { open } => wanted(&mut conn, open).await,
        Command::ReplyWanted { id, status, reply } => reply_wanted(&mut conn, &operator, id, status, &reply).await,
        Command::Article(args) => article(&mut conn, &operator, args).await,
        Command::KxMembers { pending } => kx_members(&mut conn, pending).await,
        Command::ApproveKx { member } => kx_review(&mut conn, &operator, member, None).await,
        Command::RejectKx { member, reason } => kx_review(&mut conn, &operator, member, Some(&reason)).await,
        Command::Welfare { rate, days, title, off } => welfare(&mut conn, rate, days, &title, off).await,
        Command::Reindex => {
            sqlx::query("UPDATE catalogue_version SET version = version + 1 WHERE id = 1").execute(&mut *conn).await?;
            let version = crate::search::catalogue_version(db).await?;
            Ok(format!("catalogue version {version}: every origin rebuilds its search index at its next search\n"))
        }
        Command::Backup { to } => crate::backup::backup(db, &to).await,
        Command::Restore { .. } => anyhow::bail!("restore runs before the database is opened (`origin admin restore`)"),
        Command::Seed { goods, seed } => {
            crate::db::seed::seed_if_empty(db).await?;
            crate::db::generate::generate(&mut conn, db.kind, goods, seed).await
        }
        Command::Logistics { order, description, place } => logistics(&mut conn, &operator, order, &place, &description).await,
        Command::Settings(args) => settings(&mut conn, &operator, args).await,
    }
}

/// Shows the shop's identity, or changes the fields given in one transaction (each value checked
/// as `crate::shop::check` says, all refused when one is wrong); prints each change, `old → new`.
async fn settings(conn: &mut AnyConnection, operator: &str, args: SettingsArgs) -> anyhow::Result<String> {
    let given = args.given();
    let mut changes = Vec::new();
    for (name, value) in &given {
        let field = crate::shop::FIELDS.iter().find(|field| field.name == *name).expect("every flag is a field");
        let kept = crate::shop::check(field, value).map_err(|why| anyhow::anyhow!("--{}: {why}", flag(name)))?;
        changes.push((field, kept));
    }
    let mut tx = begin_write(conn).await?;
    let before = crate::shop::read(&mut tx).await?;
    let mut out = String::new();
    for (field, value) in changes {
        let old = before.get(field.name).unwrap_or_default();
        if old == value {
            continue;
        }
        sqlx::query("INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value")
            .bind(field.key)
            .bind(&value)
            .execute(&mut *tx)
            .await?;
        let line = format!("{} ({}): {old} → {value}", field.name, field.label);
        sqlx::query(
            "INSERT INTO admin_logs (operator, action, member_id, detail, created_at) VALUES ($1, 'settings.change', NULL, $2, $3)",
        )
        .bind(operator)
        .bind(&line)
        .bind(now())
        .execute(&mut *tx)
        .await?;
        out.push_str(&line);
        out.push('\n');
    }
    tx.commit().await?;
    if given.is_empty() {
        for field in &crate::shop::FIELDS {
            out.push_str(&format!("{}\t{}\t{}\n", field.name, field.label, before.get(field.name).unwrap_or_default()));
        }
    } else if out.is_empty() {
        out.push_str("nothing changed\n");
    }
    Ok(out)
}

/// A field's command-line flag (`hot_line` is `--hotline`, the others their names with dashes).
fn flag(name: &str) -> String {
    if name == "hot_line" { "hotline".into() } else { name.replace('_', "-") }
}

/// A transaction that holds SQLite's write lock from its first statement (a write that changes
/// nothing), so that what it reads cannot change before it writes, and it never has to upgrade
/// a read to a write (which SQLite refuses at once when another write came in between).
/// PostgreSQL locks rows as it goes; the statement does nothing there.
async fn begin_write(conn: &mut AnyConnection) -> sqlx::Result<sqlx::Transaction<'_, sqlx::Any>> {
    let mut tx = conn.begin().await?;
    sqlx::query("UPDATE admin_logs SET id = id WHERE id = 0").execute(&mut *tx).await?;
    Ok(tx)
}

async fn log(conn: &mut AnyConnection, operator: &str, action: &str, member: i64, detail: &str) -> anyhow::Result<()> {
    sqlx::query("INSERT INTO admin_logs (operator, action, member_id, detail, created_at) VALUES ($1, $2, $3, $4, $5)")
        .bind(operator)
        .bind(action)
        .bind(member)
        .bind(detail)
        .bind(now())
        .execute(&mut *conn)
        .await?;
    Ok(())
}

#[derive(sqlx::FromRow)]
struct MemberRow {
    id: i64,
    username: String,
    company: String,
    phone: String,
    is_passed: i64,
    balance: i64,
    red_packet: i64,
    points: i64,
    pending: i64,
}

#[derive(sqlx::FromRow)]
struct CertificateRow {
    id: i64,
    member_id: i64,
    kind: String,
    number: String,
    expires_on: String,
    status: i64,
    reason: String,
    file_name: String,
}

async fn members(conn: &mut AnyConnection, search: Option<String>, pending: bool) -> anyhow::Result<String> {
    let pattern = format!("%{}%", search.unwrap_or_default());
    let rows: Vec<MemberRow> = sqlx::query_as(
        "SELECT m.id, m.username, m.company, m.phone, m.is_passed, m.balance, m.red_packet, m.points, \
                (SELECT COUNT(*) FROM qualifications q WHERE q.member_id = m.id AND q.status = 0) AS pending \
         FROM members m WHERE (m.username LIKE $1 OR m.company LIKE $1 OR m.phone LIKE $1) ORDER BY m.id",
    )
    .bind(pattern)
    .fetch_all(&mut *conn)
    .await?;
    let mut out = String::from("id\taccount\tcompany\tphone\tapproved\tbalance\tred_packet\tpoints\tpending\n");
    for row in rows.into_iter().filter(|row| !pending || row.pending > 0) {
        out += &format!(
            "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\n",
            row.id,
            shown(&row.username),
            shown(&row.company),
            shown(&row.phone),
            if row.is_passed == 1 { "yes" } else { "no" },
            money::text(row.balance),
            money::text(row.red_packet),
            row.points,
            row.pending
        );
    }
    Ok(out)
}

async fn qualifications(conn: &mut AnyConnection, member: Option<i64>, pending: bool) -> anyhow::Result<String> {
    let rows: Vec<CertificateRow> = sqlx::query_as(
        "SELECT id, member_id, kind, number, expires_on, status, reason, file_name FROM qualifications \
         WHERE ($1 = 0 OR member_id = $1) AND ($2 = 0 OR status = 0) ORDER BY member_id, id",
    )
    .bind(member.unwrap_or(0))
    .bind(i64::from(pending))
    .fetch_all(&mut *conn)
    .await?;
    let mut out = String::from("id\tmember\tkind\tnumber\texpires\tstatus\tscan\treason\n");
    for row in rows {
        let status = ["pending", "approved", "rejected"].get(row.status as usize).copied().unwrap_or("?");
        let scan = if row.file_name.is_empty() { "-".to_owned() } else { format!("uploads/{}/{}", row.member_id, row.file_name) };
        out += &format!(
            "{}\t{}\t{}\t{}\t{}\t{status}\t{scan}\t{}\n",
            row.id,
            row.member_id,
            shown(&row.kind),
            shown(&row.number),
            shown(&row.expires_on),
            shown(&row.reason)
        );
    }
    Ok(out)
}

/// Marks a certificate reviewed: answers its member and kind.
async fn review(conn: &mut AnyConnection, id: i64, status: i64, reason: &str) -> anyhow::Result<(i64, String)> {
    sqlx::query_as("UPDATE qualifications SET status = $1, reason = $2, reviewed_at = $3 WHERE id = $4 RETURNING member_id, kind")
        .bind(status)
        .bind(reason)
        .bind(now())
        .bind(id)
        .fetch_optional(&mut *conn)
        .await?
        .ok_or_else(|| anyhow::anyhow!("no qualification certificate {id}"))
}

async fn approve(conn: &mut AnyConnection, operator: &str, id: i64, scope: Option<String>) -> anyhow::Result<String> {
    let mut tx = begin_write(conn).await?;
    let (member, kind) = review(&mut tx, id, 1, "").await?;
    if let Some(scope) = &scope {
        let lines: Vec<&str> = scope.split([',', '，', '\n']).map(str::trim).filter(|item| !item.is_empty()).collect();
        sqlx::query("UPDATE members SET business_scope = $1 WHERE id = $2").bind(lines.join("\n")).bind(member).execute(&mut *tx).await?;
    }
    // Approved once every required kind has an approved certificate.
    let approved: Vec<String> = sqlx::query_scalar("SELECT DISTINCT kind FROM qualifications WHERE member_id = $1 AND status = 1")
        .bind(member)
        .fetch_all(&mut *tx)
        .await?;
    let passed = REQUIRED.iter().all(|required| approved.iter().any(|kind| kind == required));
    if passed {
        sqlx::query("UPDATE members SET is_passed = 1 WHERE id = $1").bind(member).execute(&mut *tx).await?;
    }
    // One message when the member can order: the first approval completing the required kinds,
    // or a certificate of an approved member renewed. A certificate approved while others are
    // still missing shows its state on the certificates page, without a message of its own.
    if passed {
        let body = format!("您的{kind}已审核通过，资质审核完成，现在可以下单了。");
        send_message(&mut tx, member, MESSAGE_QUALIFICATION, "资质审核通过", &body).await?;
    }
    log(
        &mut tx,
        operator,
        "qualification.approve",
        member,
        &format!("certificate {id} ({kind}){}", scope.map(|s| format!(" scope: {s}")).unwrap_or_default()),
    )
    .await?;
    tx.commit().await?;
    Ok(format!("approved certificate {id} ({kind}) of member {member}{}\n", if passed { "; the member is approved" } else { "" }))
}

async fn reject(conn: &mut AnyConnection, operator: &str, id: i64, reason: &str) -> anyhow::Result<String> {
    let reason = reason.trim();
    anyhow::ensure!(!reason.is_empty(), "a rejection needs a reason");
    let mut tx = begin_write(conn).await?;
    let (member, kind) = review(&mut tx, id, 2, reason).await?;
    send_message(&mut tx, member, MESSAGE_QUALIFICATION, "资质审核未通过", &format!("您的{kind}未通过审核：{reason}。请重新上传。"))
        .await?;
    log(&mut tx, operator, "qualification.reject", member, &format!("certificate {id} ({kind}): {reason}")).await?;
    tx.commit().await?;
    Ok(format!("rejected certificate {id} ({kind}) of member {member}\n"))
}

async fn templates(conn: &mut AnyConnection) -> anyhow::Result<String> {
    let coupons: Vec<(i64, String, i64, i64)> =
        sqlx::query_as("SELECT id, title, kind, days FROM coupons ORDER BY id").fetch_all(&mut *conn).await?;
    let vouchers: Vec<(i64, String, i64, i64)> =
        sqlx::query_as("SELECT id, title, amount, days FROM cash_vouchers ORDER BY id").fetch_all(&mut *conn).await?;
    let mut out = String::from("coupons (grant coupon --template ID)\nid\ttitle\tkind\tdays\n");
    for (id, title, kind, days) in coupons {
        out += &format!("{id}\t{title}\t{}\t{days}\n", if kind == 2 { "折扣" } else { "满减" });
    }
    out += "cash vouchers (grant voucher --template ID)\nid\ttitle\tamount\tdays\n";
    for (id, title, amount, days) in vouchers {
        out += &format!("{id}\t{title}\t{}\t{days}\n", money::text(amount));
    }
    Ok(out)
}

async fn member_exists(conn: &mut AnyConnection, member: i64) -> anyhow::Result<()> {
    let found: Option<i64> = sqlx::query_scalar("SELECT id FROM members WHERE id = $1").bind(member).fetch_optional(&mut *conn).await?;
    found.map(|_| ()).ok_or_else(|| anyhow::anyhow!("no member {member}"))
}

/// A positive amount of yuan with at most two decimals, as stored.
fn amount(text: &str) -> anyhow::Result<i64> {
    let stored = money::parse_stored(text.trim()).filter(|stored| *stored > 0 && stored % 100 == 0);
    stored.ok_or_else(|| anyhow::anyhow!("the amount must be a positive number of yuan with at most two decimals, got {text}"))
}

/// What the member holds of a kind of template: coupons or cash vouchers.
struct Templates {
    /// The templates' table, the member's table and its column naming the template.
    templates: &'static str,
    held: &'static str,
    template_column: &'static str,
    /// The log's action and the message's title and name of the thing.
    action: &'static str,
    title: &'static str,
}

const COUPONS: Templates =
    Templates {
        templates: "coupons", held: "member_coupons", template_column: "coupon_id", action: "grant.coupon", title: "获得优惠券"
    };

const VOUCHERS: Templates = Templates {
    templates: "cash_vouchers",
    held: "member_cash_vouchers",
    template_column: "voucher_id",
    action: "grant.voucher",
    title: "获得现金券",
};

/// Gives the member `count` of a template, valid from now for the template's days.
async fn grant_templates(
    conn: &mut AnyConnection,
    operator: &str,
    grant: &GrantTemplate,
    kind: &Templates,
    now: i64,
) -> anyhow::Result<String> {
    let GrantTemplate { member, template, count } = *grant;
    member_exists(conn, member).await?;
    let (title, days): (String, i64) =
        sqlx::query_as(sqlx::AssertSqlSafe(format!("SELECT title, days FROM {} WHERE id = $1", kind.templates)))
            .bind(template)
            .fetch_optional(&mut *conn)
            .await?
            .ok_or_else(|| anyhow::anyhow!("no {} template {template}", kind.templates))?;
    if kind.templates == COUPONS.templates {
        coupon_template_usable(conn, template, &title).await?;
    }
    for _ in 0..count {
        sqlx::query(sqlx::AssertSqlSafe(format!(
            "INSERT INTO {} (member_id, {}, status, starts_at, expires_at, created_at) VALUES ($1, $2, $3, $4, $5, $4)",
            kind.held, kind.template_column
        )))
        .bind(member)
        .bind(template)
        .bind(UNUSED)
        .bind(now)
        .bind(now + days * 86_400)
        .execute(&mut *conn)
        .await?;
    }
    send_message(conn, member, MESSAGE_WALLET, kind.title, &format!("平台赠送您{count}张{title}，有效期{days}天。")).await?;
    log(conn, operator, kind.action, member, &format!("{count} × {} template {template} ({title})", kind.templates)).await?;
    Ok(format!("granted {count} × {title} to member {member}\n"))
}

/// Refuses a coupon template the pricing engine cannot use (one stored before the database
/// refused such values): a coupon of it would never reach a settlement.
async fn coupon_template_usable(conn: &mut AnyConnection, template: i64, title: &str) -> anyhow::Result<()> {
    let (kind, amount, min_amount, rate, max_reduce): (i64, i64, i64, i64, Option<i64>) =
        sqlx::query_as("SELECT kind, amount, min_amount, rate, max_reduce FROM coupons WHERE id = $1")
            .bind(template)
            .fetch_one(&mut *conn)
            .await?;
    match settlement::coupon_template_refusal(kind, amount, min_amount, rate, max_reduce) {
        Some(why) => anyhow::bail!("coupon template {template} ({title}) cannot be granted: {why}"),
        None => Ok(()),
    }
}

async fn grant(conn: &mut AnyConnection, operator: &str, grant: Grant) -> anyhow::Result<String> {
    let now = now();
    let mut tx = begin_write(conn).await?;
    let out = match grant {
        Grant::Coupon(GrantTemplate { member, template, count }) | Grant::Voucher(GrantTemplate { member, template, count })
            if !(1..=100).contains(&count) =>
        {
            anyhow::bail!("member {member}, template {template}: the count must be from 1 to 100, got {count}")
        }
        Grant::Coupon(grant) => grant_templates(&mut tx, operator, &grant, &COUPONS, now).await?,
        Grant::Voucher(grant) => grant_templates(&mut tx, operator, &grant, &VOUCHERS, now).await?,
        Grant::RedPacket(GrantMoney { member, amount: text, note }) => {
            member_exists(&mut tx, member).await?;
            let stored = amount(&text)?;
            let after = settlement::move_red_packet(&mut tx, member, None, stored, &note, now)
                .await?
                .ok_or_else(|| anyhow::anyhow!("the red-packet account cannot go below zero"))?;
            let yuan = money::text(stored);
            send_message(&mut tx, member, MESSAGE_WALLET, "获得红包", &format!("{note}：账户红包+¥{yuan}。")).await?;
            log(&mut tx, operator, "grant.red_packet", member, &format!("+{yuan} ({note})")).await?;
            format!("granted red packets {yuan} to member {member}; now {}\n", money::text(after))
        }
        Grant::Points { member, points, note } => {
            member_exists(&mut tx, member).await?;
            anyhow::ensure!(points != 0, "points must not be 0");
            let after = settlement::move_points(&mut tx, member, None, points, &note, now)
                .await?
                .ok_or_else(|| anyhow::anyhow!("member {member} has fewer than {} points", -points))?;
            send_message(&mut tx, member, MESSAGE_WALLET, "积分变动", &format!("{note}：积分{points:+}。")).await?;
            log(&mut tx, operator, "grant.points", member, &format!("{points:+} ({note})")).await?;
            format!("points {points:+} for member {member}; now {after}\n")
        }
        Grant::Balance(GrantMoney { member, amount: text, note }) => {
            member_exists(&mut tx, member).await?;
            let stored = amount(&text)?;
            let after = settlement::credit_balance(&mut tx, member, None, stored, &note, now).await?;
            let yuan = money::text(stored);
            send_message(&mut tx, member, MESSAGE_WALLET, "余额到账", &format!("{note}：余额+¥{yuan}。")).await?;
            log(&mut tx, operator, "grant.balance", member, &format!("+{yuan} ({note})")).await?;
            format!("balance +{yuan} for member {member}; now {}\n", money::text(after))
        }
    };
    tx.commit().await?;
    Ok(out)
}

/// The member of an order and its state.
async fn order_of(conn: &mut AnyConnection, order: i64) -> anyhow::Result<(i64, i64, String)> {
    sqlx::query_as("SELECT member_id, status, order_no FROM orders WHERE id = $1")
        .bind(order)
        .fetch_optional(&mut *conn)
        .await?
        .ok_or_else(|| anyhow::anyhow!("no order {order}"))
}

async fn ship(conn: &mut AnyConnection, operator: &str, order: i64, carrier: &str, tracking: &str) -> anyhow::Result<String> {
    let (carrier, tracking) = (carrier.trim(), tracking.trim());
    anyhow::ensure!(!carrier.is_empty() && !tracking.is_empty(), "a shipment needs its carrier and tracking number");
    let now = now();
    let mut tx = begin_write(conn).await?;
    let (member, status, order_no) = order_of(&mut tx, order).await?;
    let note = format!("{carrier} {tracking}");
    if !order_life::change(&mut tx, order, None, Action::Ship, Actor::Operator, &note, now).await? {
        anyhow::bail!("order {order} cannot be shipped: {}", Action::Ship.refusal(status));
    }
    sqlx::query("UPDATE orders SET carrier = $1, tracking_no = $2 WHERE id = $3")
        .bind(carrier)
        .bind(tracking)
        .bind(order)
        .execute(&mut *tx)
        .await?;
    order_life::add_logistics(&mut tx, order, "", &format!("商家已发货，{carrier}运单号 {tracking}"), now).await?;
    send_message(&mut tx, member, MESSAGE_ORDER, "订单已发货", &format!("订单 {order_no} 已由{carrier}发出，运单号 {tracking}。")).await?;
    log(&mut tx, operator, "order.ship", member, &format!("order {order} ({order_no}): {note}")).await?;
    tx.commit().await?;
    Ok(format!("shipped order {order} ({order_no}) by {carrier}, {tracking}\n"))
}

async fn logistics(conn: &mut AnyConnection, operator: &str, order: i64, place: &str, description: &str) -> anyhow::Result<String> {
    let description = description.trim();
    anyhow::ensure!(!description.is_empty(), "a logistics event needs its description");
    let mut tx = begin_write(conn).await?;
    let (member, status, order_no) = order_of(&mut tx, order).await?;
    anyhow::ensure!(
        status == order_life::SHIPPED || status == order_life::DONE,
        "order {order} is not shipped: {}",
        order_life::STATUS_NAMES.get(status as usize).copied().unwrap_or("?")
    );
    order_life::add_logistics(&mut tx, order, place.trim(), description, now()).await?;
    log(&mut tx, operator, "order.logistics", member, &format!("order {order} ({order_no}): {place} {description}")).await?;
    tx.commit().await?;
    Ok(format!("logistics event added to order {order} ({order_no})\n"))
}

async fn after_sales(conn: &mut AnyConnection, open_only: bool) -> anyhow::Result<String> {
    let rows: Vec<(i64, String, i64, i64, i64, String)> = sqlx::query_as(
        "SELECT a.id, a.case_no, a.member_id, a.kind, a.status, \
                COALESCE((SELECT m.body FROM after_sale_messages m WHERE m.case_id = a.id ORDER BY m.id DESC LIMIT 1), '') \
         FROM after_sales a WHERE ($1 = 0 OR a.status = 0) ORDER BY a.id",
    )
    .bind(i64::from(open_only))
    .fetch_all(&mut *conn)
    .await?;
    let mut out = String::from("id\tcase\tmember\tkind\tstatus\tlast message\n");
    for (id, case_no, member, kind, status, last) in rows {
        let kind = crate::http::after_sales::KIND_NAMES.get(kind as usize).copied().unwrap_or("?");
        let status = if status == 0 { "open" } else { "resolved" };
        out += &format!("{id}\t{case_no}\t{member}\t{kind}\t{status}\t{}\n", shown(&last));
    }
    Ok(out)
}

async fn answer(conn: &mut AnyConnection, operator: &str, case: i64, body: &str, resolve: bool) -> anyhow::Result<String> {
    let body = body.trim();
    anyhow::ensure!(!body.is_empty(), "an answer needs its text");
    let now = now();
    let mut tx = begin_write(conn).await?;
    let (member, case_no, status): (i64, String, i64) = sqlx::query_as("SELECT member_id, case_no, status FROM after_sales WHERE id = $1")
        .bind(case)
        .fetch_optional(&mut *tx)
        .await?
        .ok_or_else(|| anyhow::anyhow!("no after-sales case {case}"))?;
    anyhow::ensure!(status == 0, "after-sales case {case} is resolved already");
    crate::http::after_sales::add_message(&mut tx, case, "operator", body, &[], now).await?;
    if resolve {
        sqlx::query("UPDATE after_sales SET status = 1, closed_at = $1 WHERE id = $2").bind(now).bind(case).execute(&mut *tx).await?;
    }
    send_message(&mut tx, member, MESSAGE_ORDER, "售后单有新回复", &format!("您的售后单 {case_no} 有新回复：{body}")).await?;
    log(
        &mut tx,
        operator,
        "after_sales.answer",
        member,
        &format!("case {case} ({case_no}){}: {body}", if resolve { ", resolved" } else { "" }),
    )
    .await?;
    tx.commit().await?;
    Ok(format!("answered after-sales case {case} ({case_no}){}\n", if resolve { " and resolved it" } else { "" }))
}

#[derive(sqlx::FromRow)]
struct InvoiceRow {
    id: i64,
    order_id: i64,
    member_id: i64,
    kind: i64,
    title: String,
    tax_no: String,
    status: i64,
    invoice_no: Option<String>,
}

async fn invoices(conn: &mut AnyConnection, pending: bool) -> anyhow::Result<String> {
    let rows: Vec<InvoiceRow> = sqlx::query_as(
        "SELECT id, order_id, member_id, kind, title, tax_no, status, invoice_no FROM invoices WHERE ($1 = 0 OR status = 0) ORDER BY id",
    )
    .bind(i64::from(pending))
    .fetch_all(&mut *conn)
    .await?;
    let mut out = String::from("id\torder\tmember\tkind\ttitle\ttax number\tstatus\tinvoice\n");
    for row in rows {
        let kind = if row.kind == 2 { "专票" } else { "普票" };
        let status = if row.status == 0 { "requested" } else { "issued" };
        out += &format!(
            "{}\t{}\t{}\t{kind}\t{}\t{}\t{status}\t{}\n",
            row.id,
            row.order_id,
            row.member_id,
            shown(&row.title),
            shown(&row.tax_no),
            row.invoice_no.unwrap_or_default()
        );
    }
    Ok(out)
}

async fn issue_invoice(conn: &mut AnyConnection, operator: &str, id: i64) -> anyhow::Result<String> {
    let mut tx = begin_write(conn).await?;
    let (member, invoice_no, amount) = crate::http::invoice::issue(&mut tx, id, now()).await?;
    let yuan = money::text(amount);
    send_message(
        &mut tx,
        member,
        MESSAGE_ORDER,
        "发票已开具",
        &format!("您申请的电子发票已开具，发票号码 {invoice_no}，金额¥{yuan}，可在电子发票页下载。"),
    )
    .await?;
    log(&mut tx, operator, "invoice.issue", member, &format!("invoice request {id}: {invoice_no}, {yuan}")).await?;
    tx.commit().await?;
    Ok(format!("issued invoice {invoice_no} for request {id}: {yuan}\n"))
}

#[derive(sqlx::FromRow)]
struct ReturnListRow {
    id: i64,
    return_no: String,
    order_id: i64,
    member_id: i64,
    reason: i64,
    status: i64,
    refund: i64,
    description: String,
}

async fn list_returns(conn: &mut AnyConnection, open_only: bool) -> anyhow::Result<String> {
    let rows: Vec<ReturnListRow> = sqlx::query_as(
        "SELECT id, return_no, order_id, member_id, reason, status, refund, description FROM returns \
         WHERE ($1 = 0 OR status IN ($2, $3)) ORDER BY id",
    )
    .bind(i64::from(open_only))
    .bind(returns::REQUESTED)
    .bind(returns::APPROVED)
    .fetch_all(&mut *conn)
    .await?;
    let mut out = String::from("id\treturn\torder\tmember\treason\tstatus\trefund\tunits\tdescription\n");
    for row in rows {
        let units: Vec<(String, i64)> = sqlx::query_as(
            "SELECT i.name, l.number FROM return_lines l JOIN order_items i ON i.id = l.order_item_id WHERE l.return_id = $1 ORDER BY l.id",
        )
        .bind(row.id)
        .fetch_all(&mut *conn)
        .await?;
        let units: Vec<String> = units.into_iter().map(|(name, number)| format!("{name} ×{number}")).collect();
        out += &format!(
            "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\n",
            row.id,
            row.return_no,
            row.order_id,
            row.member_id,
            returns::REASON_NAMES.get(row.reason as usize).copied().unwrap_or("?"),
            returns::STATUS_NAMES.get(row.status as usize).copied().unwrap_or("?"),
            money::text(row.refund),
            shown(&units.join(", ")),
            shown(&row.description)
        );
    }
    Ok(out)
}

/// Approves, rejects or receives (and refunds) a return; the member is told.
async fn return_step(conn: &mut AnyConnection, operator: &str, id: i64, step: Step, note: &str) -> anyhow::Result<String> {
    let note = note.trim();
    anyhow::ensure!(step != Step::Reject || !note.is_empty(), "a rejection needs a reason");
    let mut tx = begin_write(conn).await?;
    let (moved, paid) = match returns::step(&mut tx, id, None, step, Actor::Operator, note, now()).await? {
        Ok(moved) => moved,
        Err(returns::Refusal::State(message) | returns::Refusal::Field(_, message)) => anyhow::bail!("return {id}: {message}"),
    };
    let number = &moved.return_no;
    let (title, body, action, done) = match step {
        Step::Approve => {
            ("退货申请已通过", format!("您的退货申请 {number} 已通过，请将商品寄回。{note}"), "return.approve", "approved".to_owned())
        }
        Step::Reject => ("退货申请未通过", format!("您的退货申请 {number} 未通过：{note}"), "return.reject", "rejected".to_owned()),
        Step::Receive => (
            "退款已到账",
            format!(
                "退货 {number} 的商品已收到，¥{} 已退回您的余额{}{}{}。",
                money::text(paid.refund),
                if paid.red_packet > 0 { format!("，红包¥{}已退回", money::text(paid.red_packet)) } else { String::new() },
                if paid.points_back > 0 { format!("，积分{}已退回", paid.points_back) } else { String::new() },
                if paid.points_deducted > 0 {
                    format!("，已使用的赠送积分折合¥{}已从退款中扣除", money::text(paid.points_deducted))
                } else {
                    String::new()
                }
            ),
            "return.receive",
            format!(
                "received and refunded {} to the balance, red packets {}, points back {}, earned points taken back {}, \
                 used earned points deducted {}",
                money::text(paid.refund),
                money::text(paid.red_packet),
                paid.points_back,
                paid.points_taken,
                money::text(paid.points_deducted)
            ),
        ),
        Step::Withdraw => anyhow::bail!("only the member withdraws a return"),
    };
    send_message(&mut tx, moved.member_id, MESSAGE_ORDER, title, body.trim_end()).await?;
    log(&mut tx, operator, action, moved.member_id, &format!("return {id} ({number}) of order {}: {done}", moved.order_id)).await?;
    tx.commit().await?;
    Ok(format!("return {id} ({number}): {done}\n"))
}

#[derive(sqlx::FromRow)]
struct PointsOrderRow {
    id: i64,
    order_no: String,
    member_id: i64,
    name: String,
    number: i64,
    points: i64,
    price: i64,
    status: i64,
    address: String,
}

async fn article(conn: &mut AnyConnection, operator: &str, args: ArticleArgs) -> anyhow::Result<String> {
    let body = std::fs::read_to_string(&args.file).map_err(|error| anyhow::anyhow!("{}: {error}", args.file.display()))?;
    anyhow::ensure!(!body.trim().is_empty(), "{} is empty", args.file.display());
    let text = |value: &Option<String>| value.as_deref().map(str::trim).filter(|value| !value.is_empty()).map(str::to_owned);
    let mut tx = begin_write(conn).await?;
    let id = match args.id {
        Some(id) => {
            let found: Option<String> =
                sqlx::query_scalar("SELECT kind FROM articles WHERE id = $1").bind(id).fetch_optional(&mut *tx).await?;
            anyhow::ensure!(found.is_some(), "no article {id}");
            sqlx::query(
                "UPDATE articles SET body = $1, title = COALESCE($2, title), group_name = COALESCE($3, group_name), \
                 path = COALESCE($4, path), category = COALESCE($5, category), summary = COALESCE($6, summary), \
                 published_on = COALESCE($7, published_on) WHERE id = $8",
            )
            .bind(&body)
            .bind(text(&args.title))
            .bind(text(&args.group))
            .bind(text(&args.path))
            .bind(text(&args.category))
            .bind(text(&args.summary))
            .bind(text(&args.date))
            .bind(id)
            .execute(&mut *tx)
            .await?;
            id
        }
        None => {
            let kind = text(&args.kind).unwrap_or_default();
            let title = text(&args.title).ok_or_else(|| anyhow::anyhow!("a new article needs its --title"))?;
            let (group, path, category) = match kind.as_str() {
                "help" => {
                    let path = text(&args.path).ok_or_else(|| anyhow::anyhow!("a help article needs its --path"))?;
                    anyhow::ensure!(path.starts_with("/help/"), "--path must be a /help/… page");
                    (text(&args.group).ok_or_else(|| anyhow::anyhow!("a help article needs its --group"))?, path, String::new())
                }
                "news" => {
                    let category = text(&args.category).unwrap_or_default();
                    anyhow::ensure!(category == "hy" || category == "company", "--category must be hy or company");
                    (String::new(), String::new(), category)
                }
                _ => anyhow::bail!("--kind must be help or news"),
            };
            let date = text(&args.date).unwrap_or_else(|| {
                let (year, month, day) = crate::civil_date(now(), 8 * 3600);
                format!("{year:04}-{month:02}-{day:02}")
            });
            let sort: i64 = sqlx::query_scalar("SELECT COALESCE(MAX(sort), 0) + 1 FROM articles").fetch_one(&mut *tx).await?;
            sqlx::query_scalar(
                "INSERT INTO articles (kind, group_name, category, path, title, summary, body, published_on, sort) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id",
            )
            .bind(&kind)
            .bind(&group)
            .bind(&category)
            .bind(&path)
            .bind(&title)
            .bind(text(&args.summary).unwrap_or_default())
            .bind(&body)
            .bind(&date)
            .bind(sort)
            .fetch_one(&mut *tx)
            .await?
        }
    };
    sqlx::query("INSERT INTO admin_logs (operator, action, member_id, detail, created_at) VALUES ($1, 'article.publish', NULL, $2, $3)")
        .bind(operator)
        .bind(format!("article {id}"))
        .bind(now())
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(format!("article {id} published\n"))
}

async fn feedback(conn: &mut AnyConnection, open: bool) -> anyhow::Result<String> {
    let rows: Vec<(i64, i64, i64, String, i64, String)> = sqlx::query_as(
        "SELECT id, member_id, kind, body, status, reply FROM feedback WHERE ($1 = 0 OR status = 0) ORDER BY created_at, id",
    )
    .bind(i64::from(open))
    .fetch_all(&mut *conn)
    .await?;
    let mut out = String::from("id\tmember\tkind\tbody\tstatus\treply\n");
    for (id, member, kind, body, status, reply) in rows {
        let kind = crate::http::feedback::KIND_NAMES.get(kind as usize).copied().unwrap_or("?");
        let status = crate::http::feedback::STATUS_NAMES.get(status as usize).copied().unwrap_or("?");
        out += &format!("{id}\t{member}\t{kind}\t{}\t{status}\t{}\n", shown(&body), shown(&reply));
    }
    Ok(out)
}

async fn reply_feedback(conn: &mut AnyConnection, operator: &str, id: i64, reply: &str) -> anyhow::Result<String> {
    let reply = reply.trim();
    anyhow::ensure!(!reply.is_empty(), "a reply needs its text");
    let mut tx = begin_write(conn).await?;
    let member: Option<i64> =
        sqlx::query_scalar("UPDATE feedback SET status = 1, reply = $1, replied_at = $2 WHERE id = $3 AND status = 0 RETURNING member_id")
            .bind(reply)
            .bind(now())
            .bind(id)
            .fetch_optional(&mut *tx)
            .await?;
    let member = member.ok_or_else(|| anyhow::anyhow!("feedback {id} is not waiting for a reply"))?;
    send_message(&mut tx, member, crate::http::member::MESSAGE_SYSTEM, "意见反馈已回复", reply).await?;
    log(&mut tx, operator, "feedback.reply", member, &format!("feedback {id}")).await?;
    tx.commit().await?;
    Ok(format!("feedback {id}: 已回复\n"))
}

/// A wanted variety as the operator lists it.
#[derive(sqlx::FromRow)]
struct WantedRow {
    id: i64,
    member_id: i64,
    name: String,
    sccj: String,
    ypgg: String,
    number: i64,
    remark: String,
    status: i64,
    reply: String,
}

async fn wanted(conn: &mut AnyConnection, open: bool) -> anyhow::Result<String> {
    let rows: Vec<WantedRow> = sqlx::query_as(
        "SELECT id, member_id, name, sccj, ypgg, number, remark, status, reply FROM wanted_varieties \
         WHERE ($1 = 0 OR status = 0) ORDER BY created_at, id",
    )
    .bind(i64::from(open))
    .fetch_all(&mut *conn)
    .await?;
    let mut out = String::from("id\tmember\tname\tsccj\tspec\tnumber\tremark\tstatus\treply\n");
    for row in rows {
        let status = crate::http::self_service::WANTED_STATUS_NAMES.get(row.status as usize).copied().unwrap_or("?");
        out += &format!(
            "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{status}\t{}\n",
            row.id,
            row.member_id,
            shown(&row.name),
            shown(&row.sccj),
            shown(&row.ypgg),
            row.number,
            shown(&row.remark),
            shown(&row.reply)
        );
    }
    Ok(out)
}

async fn reply_wanted(conn: &mut AnyConnection, operator: &str, id: i64, status: i64, reply: &str) -> anyhow::Result<String> {
    anyhow::ensure!(status == 1 || status == 2, "--status must be 1 (已上架) or 2 (暂无货源)");
    let reply = reply.trim();
    anyhow::ensure!(!reply.is_empty(), "a reply needs its text");
    let mut tx = begin_write(conn).await?;
    let member: Option<(i64, String)> = sqlx::query_as(
        "UPDATE wanted_varieties SET status = $1, reply = $2, replied_at = $3 WHERE id = $4 AND status = 0 RETURNING member_id, name",
    )
    .bind(status)
    .bind(reply)
    .bind(now())
    .bind(id)
    .fetch_optional(&mut *tx)
    .await?;
    let (member, name) = member.ok_or_else(|| anyhow::anyhow!("wanted variety {id} is not waiting for an answer"))?;
    let title = if status == 1 { "求购品种已上架" } else { "求购品种暂无货源" };
    send_message(&mut tx, member, crate::http::member::MESSAGE_SYSTEM, title, &format!("您求购的“{name}”：{reply}")).await?;
    log(&mut tx, operator, "wanted.reply", member, &format!("wanted {id}: {reply}")).await?;
    tx.commit().await?;
    Ok(format!("wanted {id}: {}\n", crate::http::self_service::WANTED_STATUS_NAMES[status as usize]))
}

async fn kx_members(conn: &mut AnyConnection, pending: bool) -> anyhow::Result<String> {
    let rows: Vec<(i64, String, String, i64, String, i64)> = sqlx::query_as(
        "SELECT k.member_id, m.username, m.company, k.status, k.reason, k.created_at FROM kx_members k \
         JOIN members m ON m.id = k.member_id WHERE ($1 = 0 OR k.status = 0) ORDER BY k.created_at, k.member_id",
    )
    .bind(i64::from(pending))
    .fetch_all(&mut *conn)
    .await?;
    let mut out = String::from("member\tusername\tcompany\tstatus\treason\tapplied\n");
    for (member, username, company, status, reason, created_at) in rows {
        out += &format!(
            "{member}\t{}\t{}\t{}\t{}\t{created_at}\n",
            shown(&username),
            shown(&company),
            crate::http::kxzq::status_name(status),
            shown(&reason)
        );
    }
    Ok(out)
}

/// Approves (no reason) or rejects a controlled-sales application, telling the member.
async fn kx_review(conn: &mut AnyConnection, operator: &str, member: i64, reason: Option<&str>) -> anyhow::Result<String> {
    let reason = reason.map(str::trim);
    anyhow::ensure!(reason != Some(""), "a rejection needs its --reason");
    let mut tx = begin_write(conn).await?;
    let (status, from) = match reason {
        None => (crate::http::kxzq::APPROVED, "status = 0 OR status = 2"),
        Some(_) => (crate::http::kxzq::REJECTED, "status = 0 OR status = 1"),
    };
    let moved = sqlx::query(sqlx::AssertSqlSafe(format!(
        "UPDATE kx_members SET status = $1, reason = $2, reviewed_at = $3 WHERE member_id = $4 AND ({from})"
    )))
    .bind(status)
    .bind(reason.unwrap_or(""))
    .bind(now())
    .bind(member)
    .execute(&mut *tx)
    .await?;
    anyhow::ensure!(
        moved.rows_affected() == 1,
        "member {member} has no application that can be {}",
        if reason.is_none() { "approved" } else { "rejected" }
    );
    let (title, body) = match reason {
        None => ("控销资格审核通过", "您的控销专区采购资格已审核通过，现在可以采购控销品种。".to_owned()),
        Some(reason) => ("控销资格审核未通过", format!("您的控销专区采购资格未通过审核：{reason}")),
    };
    send_message(&mut tx, member, MESSAGE_QUALIFICATION, title, &body).await?;
    let action = if reason.is_none() { "kx.approve" } else { "kx.reject" };
    log(&mut tx, operator, action, member, reason.unwrap_or("")).await?;
    tx.commit().await?;
    Ok(format!("member {member}: {}\n", crate::http::kxzq::status_name(status)))
}

async fn welfare(conn: &mut AnyConnection, rate: Option<String>, days: i64, title: &str, off: bool) -> anyhow::Result<String> {
    let now = now();
    if off {
        let ended =
            sqlx::query("UPDATE welfare_activities SET is_on = 0 WHERE is_on = 1 AND ends_at > $1").bind(now).execute(&mut *conn).await?;
        return Ok(format!("ended {} store-wide discount(s)\n", ended.rows_affected()));
    }
    if let Some(rate) = rate {
        let parsed = engine::Money::parse(rate.trim()).map_err(|error| anyhow::anyhow!("rate: {error}"))?;
        // The engine refuses a rate outside 0 < rate ≤ 1; ask it before storing one.
        engine::rate_price(engine::Money::ONE, parsed).map_err(|error| anyhow::anyhow!("{error}"))?;
        anyhow::ensure!((1..=366).contains(&days), "--days must be 1 to 366");
        anyhow::ensure!(!title.trim().is_empty(), "--title must not be empty");
        sqlx::query("INSERT INTO welfare_activities (title, rate, starts_at, ends_at) VALUES ($1, $2, $3, $4)")
            .bind(title.trim())
            .bind(parsed.to_string())
            .bind(now)
            .bind(now + days * 86_400)
            .execute(&mut *conn)
            .await?;
    }
    let running: Option<(i64, String, String, i64)> = sqlx::query_as(
        "SELECT id, title, rate, ends_at FROM welfare_activities WHERE is_on = 1 AND starts_at <= $1 AND ends_at > $1 ORDER BY id DESC LIMIT 1",
    )
    .bind(now)
    .fetch_optional(&mut *conn)
    .await?;
    Ok(match running {
        Some((id, title, rate, ends_at)) => {
            format!("running: {id}\t{title}\t{}\tuntil {ends_at}\n", crate::http::home::discount_name(&rate))
        }
        None => "no store-wide discount is running\n".to_owned(),
    })
}

async fn points_orders(conn: &mut AnyConnection, pending: bool) -> anyhow::Result<String> {
    let rows: Vec<PointsOrderRow> = sqlx::query_as(
        "SELECT id, order_no, member_id, name, number, points, price, status, address FROM points_orders \
         WHERE ($1 = 0 OR status = 0) ORDER BY id",
    )
    .bind(i64::from(pending))
    .fetch_all(&mut *conn)
    .await?;
    let mut out = String::from("id\torder\tmember\tgoods\tnumber\tpoints\tmoney\tstatus\taddress\n");
    for row in rows {
        out += &format!(
            "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\n",
            row.id,
            row.order_no,
            row.member_id,
            shown(&row.name),
            row.number,
            row.points,
            money::text(row.price),
            crate::http::points_mall::STATUS_NAMES.get(row.status as usize).copied().unwrap_or("?"),
            shown(&row.address)
        );
    }
    Ok(out)
}

async fn ship_points(conn: &mut AnyConnection, operator: &str, order: i64, carrier: &str, tracking: &str) -> anyhow::Result<String> {
    let (carrier, tracking) = (carrier.trim(), tracking.trim());
    anyhow::ensure!(!carrier.is_empty() && !tracking.is_empty(), "a shipment needs its carrier and tracking number");
    let mut tx = begin_write(conn).await?;
    let (member, order_no) = crate::http::points_mall::ship(&mut tx, order, carrier, tracking, now()).await?;
    send_message(&mut tx, member, MESSAGE_ORDER, "积分订单已发货", &format!("积分订单 {order_no} 已由{carrier}发出，运单号 {tracking}。"))
        .await?;
    log(&mut tx, operator, "points_order.ship", member, &format!("points order {order} ({order_no}): {carrier} {tracking}")).await?;
    tx.commit().await?;
    Ok(format!("shipped points order {order} ({order_no}) by {carrier}, {tracking}\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn members_text_is_shown_escaped() {
        let typed = "张三\u{1b}[31m红\u{1b}]52;c;ZWNobyBoaQ==\u{7}\u{9b}2J\r\n\t药房\u{7f}";
        assert_eq!(shown(typed).to_string(), "张三\\u{1b}[31m红\\u{1b}]52;c;ZWNobyBoaQ==\\u{7}\\u{9b}2J\\r\\n\\t药房\\u{7f}");
        assert_eq!(printable(&format!("1\t{typed}\n")), "1\t张三\\u{1b}[31m红\\u{1b}]52;c;ZWNobyBoaQ==\\u{7}\\u{9b}2J\\r\n\t药房\\u{7f}\n");
        assert_eq!(shown("仁心大药房 (杭州) 「旗舰店」").to_string(), "仁心大药房 (杭州) 「旗舰店」");
    }
}
