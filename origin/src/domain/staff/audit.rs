//! The audit trail: every operator write records who, when, from where, what, on which thing
//! and member, and the values before and after, in the write's own transaction (so that a
//! write without its row cannot be committed, nor a row without its write). The table only
//! takes new rows: its triggers refuse every change (migration 0039).

use serde::Serialize;
use serde_json::Value;
use sqlx::AnyConnection;

use crate::domain::Result;

/// Who is acting: a signed-in operator (the console), or the command line under a name.
#[derive(Clone, Debug)]
pub struct Actor {
    /// `None` on the command line.
    pub operator: Option<i64>,
    pub name: String,
    /// The client's address, or `cli`.
    pub address: String,
}

impl Actor {
    /// The command line, acting as `name`.
    pub fn command_line(name: &str) -> Actor {
        Actor { operator: None, name: name.to_owned(), address: "cli".to_owned() }
    }
}

/// One write, as the trail keeps it.
pub struct Entry<'a> {
    /// What was done: `order.ship`, `invoice.issue`, `operator.add`, …
    pub action: &'a str,
    /// What it was done to: `order:12`, `invoice:3`, `operator:2`, … (empty: the shop).
    pub target: String,
    pub member: Option<i64>,
    /// One line a person reads.
    pub summary: String,
    pub before: Value,
    pub after: Value,
}

/// Adds `entry` to the trail, on `conn` (the write's transaction), at `now`.
pub async fn record(conn: &mut AnyConnection, actor: &Actor, entry: Entry<'_>, now: i64) -> Result<()> {
    sqlx::query(
        "INSERT INTO audit_log (operator_id, operator, address, action, target, member_id, summary, before, after, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
    )
    .bind(actor.operator)
    .bind(&actor.name)
    .bind(&actor.address)
    .bind(entry.action)
    .bind(entry.target)
    .bind(entry.member)
    .bind(entry.summary)
    .bind(entry.before.to_string())
    .bind(entry.after.to_string())
    .bind(now)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// What a read of the trail keeps to.
#[derive(Debug, Default)]
pub struct Filter {
    pub operator: Option<String>,
    /// An action, or the start of one (`order.` for every order action).
    pub action: Option<String>,
    /// A target (`order:12`), or text the summary holds (an order number).
    pub search: Option<String>,
    pub member: Option<i64>,
    /// Unix seconds, from (inclusive) and to (exclusive).
    pub from: Option<i64>,
    pub to: Option<i64>,
}

/// A row of the trail.
#[derive(Debug, Serialize, sqlx::FromRow, utoipa::ToSchema)]
pub struct AuditRow {
    pub id: i64,
    #[schema(required = true)]
    pub operator_id: Option<i64>,
    pub operator: String,
    pub address: String,
    pub action: String,
    pub target: String,
    #[schema(required = true)]
    pub member_id: Option<i64>,
    pub summary: String,
    /// The values before and after, JSON (`null` when none).
    pub before: String,
    pub after: String,
    pub created_at: i64,
}

/// The rows a filter keeps ($1–$7, bound by [`bound`]).
macro_rules! matching {
    () => {
        "FROM audit_log WHERE ($1 = '' OR operator = $1) AND ($2 = '' OR action LIKE $2 ESCAPE '\\') \
         AND ($3 = '' OR target = $4 OR summary LIKE $3 ESCAPE '\\') AND ($5 = 0 OR member_id = $5) \
         AND created_at >= $6 AND created_at < $7"
    };
}

/// `LIKE` takes `text` as it is.
fn escaped(text: &str) -> String {
    text.replace('\\', "\\\\").replace('%', "\\%").replace('_', "\\_")
}

fn bound<'q, O>(
    query: sqlx::query::QueryAs<'q, sqlx::Any, O, sqlx::any::AnyArguments>,
    filter: &Filter,
) -> sqlx::query::QueryAs<'q, sqlx::Any, O, sqlx::any::AnyArguments> {
    query
        .bind(filter.operator.clone().unwrap_or_default())
        .bind(filter.action.as_deref().map(|action| format!("{}%", escaped(action))).unwrap_or_default())
        .bind(filter.search.as_deref().map(|search| format!("%{}%", escaped(search))).unwrap_or_default())
        .bind(filter.search.clone().unwrap_or_default())
        .bind(filter.member.unwrap_or(0))
        .bind(filter.from.unwrap_or(0))
        .bind(filter.to.unwrap_or(i64::MAX))
}

/// A page of the trail (`page` from 1), newest first, and how many rows match.
pub async fn list(conn: &mut AnyConnection, filter: &Filter, page: i64, size: i64) -> Result<(Vec<AuditRow>, i64)> {
    let rows = bound(
        sqlx::query_as(concat!(
            "SELECT id, operator_id, operator, address, action, target, member_id, summary, before, after, created_at ",
            matching!(),
            " ORDER BY id DESC LIMIT $8 OFFSET $9"
        )),
        filter,
    )
    .bind(size)
    .bind((page - 1) * size)
    .fetch_all(&mut *conn)
    .await?;
    let (total,): (i64,) = bound(sqlx::query_as(concat!("SELECT COUNT(*) ", matching!())), filter).fetch_one(&mut *conn).await?;
    Ok((rows, total))
}
