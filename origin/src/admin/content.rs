//! Content and self-service: help and news articles from Markdown, members' feedback and
//! wanted varieties answered, and the store-wide discount (全场折扣) started and ended.

use sqlx::AnyConnection;

use super::ArticleArgs;
use super::shown::shown;
use crate::domain::self_service::{FeedbackKind, FeedbackStatus, WantedStatus};
use crate::domain::staff::{Actor, content, service, shop};
use crate::now;

pub(super) async fn article(conn: &mut AnyConnection, operator: &str, args: ArticleArgs) -> anyhow::Result<String> {
    let body = std::fs::read_to_string(&args.file).map_err(|error| anyhow::anyhow!("{}: {error}", args.file.display()))?;
    anyhow::ensure!(!body.trim().is_empty(), "{} is empty", args.file.display());
    let draft = content::Draft {
        kind: args.kind,
        title: args.title,
        category: args.category,
        summary: args.summary,
        published_on: args.date,
        body: Some(body),
    };
    let id = content::save(conn, &Actor::command_line(operator), args.id, draft, now()).await?;
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

pub(super) async fn welfare(
    conn: &mut AnyConnection,
    operator: &str,
    rate: Option<String>,
    days: i64,
    title: &str,
    off: bool,
) -> anyhow::Result<String> {
    let actor = Actor::command_line(operator);
    if off {
        let ended = shop::end_welfare(conn, &actor, now()).await?;
        return Ok(format!("ended {ended} store-wide discount(s)\n"));
    }
    if let Some(rate) = rate {
        shop::start_welfare(conn, &actor, title, &rate, days, now()).await?;
    }
    let all = shop::welfare(conn, now()).await?;
    Ok(match all.iter().find(|welfare| welfare.running) {
        Some(running) => format!("running: {}\t{}\t{}\tuntil {}\n", running.id, running.title, running.name, running.ends_at),
        None => "no store-wide discount is running\n".to_owned(),
    })
}
