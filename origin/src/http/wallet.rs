//! The member's wallet (§7 `user_money`, `user_money_log`): balance, red packets and points,
//! and the movements of each. A member sees only their own.

use axum::extract::State;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::ApiContext;
use super::error::{Answer, Envelope, Error, Result, ok};
use super::extract::{Fields, Member, QueryFields};
use crate::money;

pub fn router() -> OpenApiRouter<ApiContext> {
    OpenApiRouter::new()
        .routes(routes!(user_money))
        .routes(routes!(user_money_log))
        .routes(routes!(red_packet_log))
        .routes(routes!(points_log))
}

/// `GET /api/user/user_money`: `{ balance, red_packet, points }`.
#[utoipa::path(get, path = "/api/user/user_money", tag = "钱包", responses((status = 200, description = "余额、红包与积分", body = Envelope<Wallet>)))]
async fn user_money(State(context): State<ApiContext>, member: Member) -> Answer<Wallet> {
    let (balance, red_packet, points): (i64, i64, i64) =
        sqlx::query_as("SELECT balance, red_packet, points FROM members WHERE id = $1").bind(member.id).fetch_one(&context.db.pool).await?;
    ok(Wallet { balance: money::text(balance), red_packet: money::text(red_packet), points })
}

/// The member's balance, red packets and points.
#[derive(Serialize, ToSchema)]
pub struct Wallet {
    #[schema(example = "1000.00")]
    balance: String,
    /// 账户红包.
    #[schema(example = "88.00")]
    red_packet: String,
    points: i64,
}

/// An account of the wallet and the table of its movements.
#[derive(Clone, Copy)]
enum Account {
    Balance,
    RedPacket,
    Points,
}

impl Account {
    /// The log's table and its signed amount column.
    fn table(self) -> (&'static str, &'static str) {
        match self {
            Account::Balance => ("balance_logs", "amount"),
            Account::RedPacket => ("red_packet_logs", "amount"),
            Account::Points => ("points_logs", "points"),
        }
    }

    /// A stored amount as the answer writes it: money with two decimals, points as a count.
    fn text(self, stored: i64) -> String {
        match self {
            Account::Points => stored.to_string(),
            _ => money::text(stored),
        }
    }
}

/// One page of an account's movements: `page`, `use_type` (0 every one, 1 in, 2 out),
/// `start_time` and `end_time` (Unix seconds, inclusive), newest first, 20 a page.
async fn log_page(context: &ApiContext, member: Member, query: &Fields, account: Account) -> Result<LogPage> {
    let page = query.page()?;
    let use_type = query.int_or("use_type", "类型", 0)?;
    if !(0..=2).contains(&use_type) {
        return Err(Error::field("use_type", "类型不正确"));
    }
    let start = query.int_or("start_time", "开始时间", 0)?;
    let end = query.int_or("end_time", "结束时间", i64::MAX)?;
    if start > end {
        return Err(Error::field("start_time", "开始时间不能晚于结束时间"));
    }
    let (table, amount) = account.table();
    // The balance's rows say their direction; the others' is the amount's sign.
    let direction = match account {
        Account::Balance => "use_type".to_owned(),
        _ => format!("CASE WHEN {amount} < 0 THEN 2 ELSE 1 END"),
    };
    let filter = format!("member_id = $1 AND ($2 = 0 OR {direction} = $2) AND created_at >= $3 AND created_at <= $4");
    let total: i64 = sqlx::query_scalar(sqlx::AssertSqlSafe(format!("SELECT COUNT(*) FROM {table} WHERE {filter}")))
        .bind(member.id)
        .bind(use_type)
        .bind(start)
        .bind(end)
        .fetch_one(&context.db.pool)
        .await?;
    let rows: Vec<LogRow> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT id, {amount} AS amount, balance_after, {direction} AS use_type, order_id, note, created_at FROM {table} \
         WHERE {filter} ORDER BY created_at DESC, id DESC LIMIT 20 OFFSET $5"
    )))
    .bind(member.id)
    .bind(use_type)
    .bind(start)
    .bind(end)
    .bind((page - 1) * 20)
    .fetch_all(&context.db.pool)
    .await?;
    let list = rows
        .into_iter()
        .map(|row| {
            let sign = if row.amount < 0 { "-" } else { "+" };
            LogEntry {
                id: row.id,
                amount: format!("{sign}{}", account.text(row.amount.abs())),
                balance: account.text(row.balance_after),
                use_type: row.use_type,
                order_id: row.order_id,
                note: row.note,
                created_at: row.created_at,
            }
        })
        .collect();
    Ok(LogPage { list, total, page })
}

/// `GET /api/user/user_money_log` (`page`, `use_type`, `start_time`, `end_time` as Unix
/// seconds): the balance's movements, newest first, 20 a page. `use_type` 1 is money in, 2
/// money out.
#[utoipa::path(get, path = "/api/user/user_money_log", tag = "钱包", responses((status = 200, description = "一页余额变动", body = Envelope<LogPage>)))]
async fn user_money_log(State(context): State<ApiContext>, member: Member, QueryFields(query): QueryFields) -> Answer<LogPage> {
    ok(log_page(&context, member, &query, Account::Balance).await?)
}

/// `GET /api/user/red_packet_log` (`page`, `use_type`, `start_time`, `end_time`): the red
/// packets' movements (granted, spent on an order, given back by a cancel), newest first.
#[utoipa::path(get, path = "/api/user/red_packet_log", tag = "钱包", responses((status = 200, description = "一页红包变动", body = Envelope<LogPage>)))]
async fn red_packet_log(State(context): State<ApiContext>, member: Member, QueryFields(query): QueryFields) -> Answer<LogPage> {
    ok(log_page(&context, member, &query, Account::RedPacket).await?)
}

/// `GET /api/user/points_log` (`page`, `use_type`, `start_time`, `end_time`): the points'
/// movements (earned by payments, spent on orders, granted), newest first; amounts are counts.
#[utoipa::path(get, path = "/api/user/points_log", tag = "钱包", responses((status = 200, description = "一页积分变动", body = Envelope<LogPage>)))]
async fn points_log(State(context): State<ApiContext>, member: Member, QueryFields(query): QueryFields) -> Answer<LogPage> {
    ok(log_page(&context, member, &query, Account::Points).await?)
}

#[derive(sqlx::FromRow)]
struct LogRow {
    id: i64,
    amount: i64,
    balance_after: i64,
    use_type: i64,
    order_id: Option<i64>,
    note: String,
    created_at: i64,
}

/// One page of an account's movements, newest first.
#[derive(Serialize, ToSchema)]
pub struct LogPage {
    list: Vec<LogEntry>,
    total: i64,
    page: i64,
}

/// One movement of an account: the balance, the red packets or the points.
#[derive(Serialize, ToSchema)]
pub struct LogEntry {
    id: i64,
    /// Signed: `+100.00` in, `-25.50` out (points: `+120`, `-500`).
    #[schema(example = "-25.50")]
    amount: String,
    /// What the account holds after it.
    #[schema(example = "974.50")]
    balance: String,
    /// 1 in, 2 out.
    use_type: i64,
    #[schema(required = true)]
    order_id: Option<i64>,
    note: String,
    created_at: i64,
}
