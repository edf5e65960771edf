//! `origin admin …`: the operator's commands, for what the shop's specification has no back
//! office for — reviewing qualification certificates, granting coupons, cash vouchers, red
//! packets, points and balance (an offline recharge), shipping orders and adding their
//! logistics, and looking members up. Every change is
//! one transaction that also writes the member's own log row (as their own movements do), a
//! message to the member, and a row of the audit trail (`domain::staff::audit`) naming the operator.
//!
//! This module reads the command line and dispatches; one module per area does the work,
//! calling down into `crate::domain` for the states and transactions the API shares:
//! `members` (members, certificates, controlled sales), `grants` (coupons, vouchers, money),
//! `orders` (shipping, after-sales, invoices, returns, points orders), `content` (articles,
//! feedback, wanted varieties, the store-wide discount), `settings` (the shop's identity);
//! `shown` escapes what members typed for the terminal.

mod content;
mod grants;
mod lots;
mod members;
mod orders;
mod promotions;
mod settings;
mod shown;

use clap::{Args, Parser, Subcommand};
use sqlx::AnyConnection;

use self::content::{article, feedback, reply_feedback, reply_wanted, wanted, welfare};
use self::grants::{grant, templates};
use self::members::{approve, kx_members, kx_review, members, qualifications, reject};
use self::orders::{
    after_sales, answer, invoices, issue_invoice, list_returns, logistics, points_orders, return_step, reverse_invoice, ship, ship_points,
};
use self::promotions::{end_flash_sale, end_manjian, flash_sales, manjian};
use self::settings::{prices, settings};
use self::shown::printable;
use crate::db::Db;
use crate::domain::returns::Step;
use crate::domain::staff::{Actor, Role, operators};
use crate::now;

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
        /// The member's business scope (经营范围) approved with it, replacing the one before:
        /// classes of goods by name, comma-separated (中成药,化学药制剂,抗生素制剂,中药饮片,
        /// 生化药品,生物制品,第二类医疗器械,第三类医疗器械,保健食品,食品; 第一类医疗器械,
        /// 消毒产品 and 日用品 need none).
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
    /// Lists balance gifts waiting for a second operator (above ¥1,000.00), or all of them.
    BalanceRequests {
        #[arg(long)]
        pending: bool,
    },
    /// Approves (pays) or rejects a balance request; the operator (`--operator`) must not be the
    /// one who asked.
    DecideBalance {
        /// The request's id.
        id: i64,
        #[arg(long, conflicts_with = "reject", required_unless_present = "reject")]
        approve: bool,
        #[arg(long)]
        reject: bool,
    },
    /// Ships a paid order, or the next part of one (待发货 → 待收货 on the first), with its carrier
    /// and tracking number; units come from the lots, earliest expiry first.
    Ship {
        /// The order's number (as printed) or id.
        order: String,
        #[arg(long)]
        carrier: String,
        #[arg(long)]
        tracking: String,
        /// A part: order line id and units, `12:3,13:1`; every unit not yet shipped when left out.
        #[arg(long)]
        lines: Option<String>,
    },
    /// Operators of the back office (`/admin`): add one, list them, change one's role or state.
    #[command(subcommand)]
    Operator(OperatorCommand),
    /// Lots (批号): receive one into stock, list a goods' lots, keep a lot's inspection report.
    #[command(subcommand)]
    Lot(LotCommand),
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
    /// Lists invoice requests and invoices (red-letter ones, and blue ones reversed).
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
    /// Reverses an issued invoice whole with a red-letter one (红冲); the member may request again.
    ReverseInvoice {
        /// The invoice's id.
        id: i64,
        /// Why (the member is told).
        #[arg(long)]
        reason: String,
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
    /// Lists the 满减 activities: state, schedule, tiers, goods.
    Manjian,
    /// Ends a 满减 activity now (its goods' cart lines lose its tiers).
    EndManjian {
        /// The activity's id.
        id: i64,
    },
    /// Lists the 秒杀 sessions: state, goods, price, limit, time, units ordered.
    FlashSales,
    /// Ends a 秒杀 session now (its cart lines can no longer be bought).
    EndFlashSale {
        /// The session's id.
        id: i64,
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
    /// Shows who sees prices, or sets it: `all` (everyone) or `approved` (only members whose
    /// qualifications are approved, the default; visitors see 登录可见, others 认证后可见).
    Prices { to: Option<String> },
    /// Adds a carrier's event to a shipped order's logistics.
    Logistics {
        /// The order's number (as printed) or id.
        order: String,
        #[arg(long)]
        description: String,
        #[arg(long, default_value = "")]
        place: String,
        /// The part (shipment id) it follows; the latest when left out.
        #[arg(long)]
        shipment: Option<i64>,
    },
}

#[derive(Debug, Subcommand)]
enum OperatorCommand {
    /// Adds an operator with a role (super, operations, warehouse, service, finance, readonly),
    /// the password read from standard input; a `super` gets a TOTP secret to enter into an
    /// authenticator app, printed once.
    Add {
        #[arg(long)]
        username: String,
        #[arg(long)]
        role: String,
        /// The operator's name as the console shows it.
        #[arg(long, default_value = "")]
        name: String,
        /// Reads the password from the first line of standard input (required: a password is
        /// never an argument, which the process list and the shell's history would keep).
        #[arg(long, required = true)]
        password_stdin: bool,
    },
    /// Lists operators.
    List,
    /// Changes an operator's role, or disables or enables one (disabling ends their sessions).
    Set {
        #[arg(long)]
        username: String,
        #[arg(long)]
        role: Option<String>,
        #[arg(long, conflicts_with = "enable")]
        disable: bool,
        #[arg(long)]
        enable: bool,
    },
}

#[derive(Debug, Subcommand)]
enum LotCommand {
    /// Receives a lot into stock: its units become sellable, its expiry counts for the goods'.
    Add {
        /// The goods' id.
        goods: i64,
        #[arg(long)]
        lot: String,
        /// YYYY-MM-DD.
        #[arg(long)]
        produced: String,
        /// YYYY-MM-DD: the last day of use.
        #[arg(long)]
        expires: String,
        #[arg(long)]
        quantity: i64,
        /// The inspection report (质检报告): a PDF, JPEG or PNG file.
        #[arg(long)]
        report: Option<std::path::PathBuf>,
    },
    /// Lists a goods' lots, earliest expiry first.
    List {
        /// The goods' id.
        goods: i64,
    },
    /// Keeps (or replaces) a lot's inspection report: a PDF, JPEG or PNG file.
    Report {
        /// The lot's id.
        lot: i64,
        file: std::path::PathBuf,
    },
}

/// An article's fields; the body is the Markdown file.
#[derive(Debug, Args)]
struct ArticleArgs {
    /// The Markdown file of the body.
    #[arg(long)]
    file: std::path::PathBuf,
    /// The article to edit (a help article keeps its page and group); without it a new news
    /// item is published.
    #[arg(long)]
    id: Option<i64>,
    /// `news` (a new article; the help centre's pages are fixed, their articles edited by `--id`).
    #[arg(long)]
    kind: Option<String>,
    #[arg(long)]
    title: Option<String>,
    /// A news item's category: `hy` or `company`.
    #[arg(long)]
    category: Option<String>,
    #[arg(long)]
    summary: Option<String>,
    /// A news item's day, `YYYY-MM-DD` (default: today).
    #[arg(long)]
    date: Option<String>,
}

/// The fields of the shop's identity to change (`crate::domain::shop::FIELDS`); those not given stay.
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

/// What a failed command tells the operator: a refusal's own (Chinese) message (each wrong
/// field's, for a validation error), else the error's chain of causes.
pub fn message(error: &anyhow::Error) -> String {
    use crate::domain::Error;
    match error.downcast_ref::<Error>() {
        Some(Error::Refused(_, message)) => message.clone(),
        Some(Error::Validation(fields)) => fields.iter().map(|(_, message)| message.as_str()).collect::<Vec<_>>().join("；"),
        Some(Error::Unauthorized) => "login required".to_owned(),
        _ => format!("{error:#}"),
    }
}

/// Runs one command; answers what it prints, its own line breaks and tabs kept and every other
/// control character shown escaped ([`printable`]).
pub async fn run(db: &Db, admin: Admin) -> anyhow::Result<String> {
    Ok(printable(&command(db, admin).await?))
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
        Command::ReverseInvoice { id, reason } => reverse_invoice(&mut conn, &operator, id, &reason).await,
        Command::Answer { case, body, resolve } => answer(&mut conn, &operator, case, &body, resolve).await,
        Command::Ship { order, carrier, tracking, lines } => {
            ship(&mut conn, &operator, &order, &carrier, &tracking, lines.as_deref()).await
        }
        Command::Operator(command) => operator_command(&mut conn, &operator, command).await,
        Command::BalanceRequests { pending } => balance_requests(&mut conn, pending).await,
        Command::DecideBalance { id, approve, .. } => {
            let decided = crate::domain::staff::grants::decide(&mut conn, &Actor::command_line(&operator), id, approve, now()).await?;
            Ok(format!("balance request {id}: {}\n", decided.summary))
        }
        Command::Lot(command) => lots::run(&mut conn, &operator, command).await,
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
        Command::Manjian => manjian(&mut conn).await,
        Command::EndManjian { id } => end_manjian(&mut conn, &operator, id).await,
        Command::FlashSales => flash_sales(&mut conn).await,
        Command::EndFlashSale { id } => end_flash_sale(&mut conn, &operator, id).await,
        Command::Welfare { rate, days, title, off } => welfare(&mut conn, &operator, rate, days, &title, off).await,
        Command::Reindex => {
            // Goods 0: every goods (migration 0044).
            sqlx::query("UPDATE catalogue_version SET version = version + 1 WHERE id = 1").execute(&mut *conn).await?;
            sqlx::query("UPDATE catalogue_version SET counted_version = version WHERE id = 1").execute(&mut *conn).await?;
            sqlx::query("INSERT INTO catalogue_changes (version, goods_id) SELECT version, 0 FROM catalogue_version WHERE id = 1")
                .execute(&mut *conn)
                .await?;
            let version = crate::search::catalogue_version(db).await?;
            Ok(format!("catalogue version {version}: every origin rebuilds its search index at its next search\n"))
        }
        Command::Backup { to } => crate::backup::backup(db, &to).await,
        Command::Restore { .. } => anyhow::bail!("restore runs before the database is opened (`origin admin restore`)"),
        Command::Seed { goods, seed } => {
            crate::seed::seed_if_empty(db).await?;
            crate::db::generate::generate(&mut conn, db.kind, goods, seed).await
        }
        Command::Logistics { order, description, place, shipment } => {
            logistics(&mut conn, &operator, &order, shipment, &place, &description).await
        }
        Command::Settings(args) => settings(&mut conn, &operator, args).await,
        Command::Prices { to } => prices(&mut conn, &operator, to).await,
    }
}

async fn balance_requests(conn: &mut AnyConnection, pending: bool) -> anyhow::Result<String> {
    let mut out = String::from("id\tmember\tcompany\tamount\treason\trequested by\tstatus\tdecided by\n");
    for row in crate::domain::staff::grants::requests(conn, pending).await? {
        let status = ["pending", "approved", "rejected"].get(row.status as usize).copied().unwrap_or("?");
        out += &format!(
            "{}\t{}\t{}\t{}\t{}\t{}\t{status}\t{}\n",
            row.id,
            row.member_id,
            shown::shown(&row.company),
            crate::money::text(row.amount),
            shown::shown(&row.reason),
            shown::shown(&row.requested_name),
            shown::shown(&row.decided_name)
        );
    }
    Ok(out)
}

async fn operator_command(conn: &mut AnyConnection, operator: &str, command: OperatorCommand) -> anyhow::Result<String> {
    let actor = Actor::command_line(operator);
    let role = |key: &str| {
        Role::parse(key)
            .ok_or_else(|| anyhow::anyhow!("unknown role {key}: use super, operations, warehouse, service, finance or readonly"))
    };
    match command {
        OperatorCommand::Add { username, role: key, name, password_stdin: _ } => {
            let role = role(&key)?;
            let mut password = String::new();
            std::io::stdin().read_line(&mut password)?;
            let password = password.trim_end_matches(['\r', '\n']);
            let mut tx = begin_write(conn).await?;
            let new = operators::NewOperator { username: &username, name: &name, role, password };
            let added = operators::add(&mut tx, &actor, new, now()).await?;
            tx.commit().await?;
            let mut out = format!("added operator {} ({}) as {}\n", added.operator.id, added.operator.username, role.key());
            if let (Some(secret), Some(uri)) = (added.totp_secret, added.totp_uri) {
                out += &format!("TOTP secret (enter it into an authenticator app; it is not shown again): {secret}\n{uri}\n");
            }
            Ok(out)
        }
        OperatorCommand::List => {
            let mut out = String::from("id\tusername\tname\trole\ttotp\tstate\n");
            for operator in operators::list(conn).await? {
                out += &format!(
                    "{}\t{}\t{}\t{}\t{}\t{}\n",
                    operator.id,
                    operator.username,
                    shown::shown(&operator.name),
                    operator.role.0.key(),
                    if operator.totp.0 { "yes" } else { "no" },
                    if operator.disabled.0 { "disabled" } else { "active" }
                );
            }
            Ok(out)
        }
        OperatorCommand::Set { username, role: key, disable, enable } => {
            let id: i64 = sqlx::query_scalar("SELECT id FROM operators WHERE username = $1")
                .bind(&username)
                .fetch_optional(&mut *conn)
                .await?
                .ok_or_else(|| anyhow::anyhow!("no operator {username}"))?;
            let change = operators::Change {
                role: key.as_deref().map(role).transpose()?,
                disabled: if disable {
                    Some(true)
                } else if enable {
                    Some(false)
                } else {
                    None
                },
                ..operators::Change::default()
            };
            let mut tx = begin_write(conn).await?;
            let changed = operators::change(&mut tx, &actor, id, change, now()).await?;
            tx.commit().await?;
            let mut out = format!(
                "operator {} ({}): {}, {}\n",
                changed.operator.id,
                changed.operator.username,
                changed.operator.role.0.key(),
                if changed.operator.disabled.0 { "disabled" } else { "active" }
            );
            if let (Some(secret), Some(uri)) = (changed.totp_secret, changed.totp_uri) {
                out += &format!("TOTP secret (enter it into an authenticator app; it is not shown again): {secret}\n{uri}\n");
            }
            Ok(out)
        }
    }
}

/// A transaction that holds SQLite's write lock from its first statement (a write that changes
/// nothing), so that what it reads cannot change before it writes, and it never has to upgrade
/// a read to a write (which SQLite refuses at once when another write came in between).
/// PostgreSQL locks rows as it goes; the statement does nothing there.
async fn begin_write(conn: &mut AnyConnection) -> anyhow::Result<sqlx::Transaction<'_, sqlx::Any>> {
    Ok(crate::domain::staff::orders::begin_write(conn).await?)
}
