//! Content and self-service: help and news articles from Markdown, members' feedback and
//! wanted varieties answered, and the store-wide discount (全场折扣) started and ended.

use sqlx::AnyConnection;

use super::shown::shown;
use super::{ArticleArgs, begin_write};
use crate::domain::self_service::{FeedbackKind, FeedbackStatus, WantedStatus};
use crate::domain::staff::{Actor, service};
use crate::now;

pub(super) async fn article(conn: &mut AnyConnection, operator: &str, args: ArticleArgs) -> anyhow::Result<String> {
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
    super::record(&mut tx, operator, "article.publish", format!("article:{id}"), None, &format!("article {id}")).await?;
    tx.commit().await?;
    Ok(format!("article {id} published\n"))
}

pub(super) async fn feedback(conn: &mut AnyConnection, open: bool) -> anyhow::Result<String> {
    let rows: Vec<(i64, i64, FeedbackKind, String, FeedbackStatus, String)> = sqlx::query_as(
        "SELECT id, member_id, kind, body, status, reply FROM feedback WHERE ($1 = 0 OR status = $2) ORDER BY created_at, id",
    )
    .bind(i64::from(open))
    .bind(FeedbackStatus::Waiting)
    .fetch_all(&mut *conn)
    .await?;
    let mut out = String::from("id\tmember\tkind\tbody\tstatus\treply\n");
    for (id, member, kind, body, status, reply) in rows {
        out += &format!("{id}\t{member}\t{}\t{}\t{}\t{}\n", kind.name(), shown(&body), status.name(), shown(&reply));
    }
    Ok(out)
}

pub(super) async fn reply_feedback(conn: &mut AnyConnection, operator: &str, id: i64, reply: &str) -> anyhow::Result<String> {
    service::reply_feedback(conn, &Actor::command_line(operator), id, reply, now()).await?;
    Ok(format!("feedback {id}: {}\n", FeedbackStatus::Replied.name()))
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
    status: WantedStatus,
    reply: String,
}

pub(super) async fn wanted(conn: &mut AnyConnection, open: bool) -> anyhow::Result<String> {
    let rows: Vec<WantedRow> = sqlx::query_as(
        "SELECT id, member_id, name, sccj, ypgg, number, remark, status, reply FROM wanted_varieties \
         WHERE ($1 = 0 OR status = $2) ORDER BY created_at, id",
    )
    .bind(i64::from(open))
    .bind(WantedStatus::Waiting)
    .fetch_all(&mut *conn)
    .await?;
    let mut out = String::from("id\tmember\tname\tsccj\tspec\tnumber\tremark\tstatus\treply\n");
    for row in rows {
        let status = row.status.name();
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

pub(super) async fn reply_wanted(conn: &mut AnyConnection, operator: &str, id: i64, status: i64, reply: &str) -> anyhow::Result<String> {
    let status = WantedStatus::from_code(status)
        .filter(|status| *status != WantedStatus::Waiting)
        .ok_or_else(|| anyhow::anyhow!("--status must be 1 (已上架) or 2 (暂无货源)"))?;
    service::answer_wanted(conn, &Actor::command_line(operator), id, status, reply, now()).await?;
    Ok(format!("wanted {id}: {}\n", status.name()))
}

pub(super) async fn welfare(conn: &mut AnyConnection, rate: Option<String>, days: i64, title: &str, off: bool) -> anyhow::Result<String> {
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
            format!("running: {id}\t{title}\t{}\tuntil {ends_at}\n", crate::domain::promotions::discount_name(&rate))
        }
        None => "no store-wide discount is running\n".to_owned(),
    })
}
