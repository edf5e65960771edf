//! The member's wallet (§7 `user_money`, `user_money_log`): balance and points, and the
//! movements of the balance. A member sees only their own.

use axum::extract::State;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::ApiContext;
use super::error::{Answer, Envelope, Error, ok};
use super::extract::{Member, QueryFields};
use crate::money;

pub fn router() -> OpenApiRouter<ApiContext> {
    OpenApiRouter::new().routes(routes!(user_money)).routes(routes!(user_money_log))
}

/// `GET /api/user/user_money`: `{ balance, points }`.
#[utoipa::path(get, path = "/api/user/user_money", tag = "钱包", responses((status = 200, description = "余额与积分", body = Envelope<Wallet>)))]
async fn user_money(State(context): State<ApiContext>, member: Member) -> Answer<Wallet> {
    let (balance, points): (i64, i64) =
        sqlx::query_as("SELECT balance, points FROM members WHERE id = $1").bind(member.id).fetch_one(&context.db.pool).await?;
    ok(Wallet { balance: money::text(balance), points })
}

/// The member's balance and points.
#[derive(Serialize, ToSchema)]
pub struct Wallet {
    #[schema(example = "1000.00")]
    balance: String,
    points: i64,
}

/// `GET /api/user/user_money_log` (`page`, `use_type`, `start_time`, `end_time` as Unix
/// seconds): the balance's movements, newest first, 20 a page. `use_type` 1 is money in, 2
/// money out.
#[utoipa::path(get, path = "/api/user/user_money_log", tag = "钱包", responses((status = 200, description = "一页余额变动", body = Envelope<BalanceLogPage>)))]
async fn user_money_log(State(context): State<ApiContext>, member: Member, QueryFields(query): QueryFields) -> Answer<BalanceLogPage> {
    let page = query.page()?;
    let use_type = query.int_or("use_type", "类型", 0)?;
    if !(0..=2).contains(&use_type) {
        return Err(Error::field("use_type", "类型不正确"));
    }
    let start = query.int_or("start_time", "开始时间", 0)?;
    let end = query.int_or("end_time", "结束时间", i64::MAX)?;
    let filter = "member_id = $1 AND ($2 = 0 OR use_type = $2) AND created_at >= $3 AND created_at <= $4";
    let total: i64 = sqlx::query_scalar(sqlx::AssertSqlSafe(format!("SELECT COUNT(*) FROM balance_logs WHERE {filter}")))
        .bind(member.id)
        .bind(use_type)
        .bind(start)
        .bind(end)
        .fetch_one(&context.db.pool)
        .await?;
    let rows: Vec<LogRow> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT id, amount, balance_after, use_type, order_id, note, created_at FROM balance_logs WHERE {filter} \
         ORDER BY created_at DESC, id DESC LIMIT 20 OFFSET $5"
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
            BalanceLog {
                id: row.id,
                amount: format!("{sign}{}", money::text(row.amount.abs())),
                balance: money::text(row.balance_after),
                use_type: row.use_type,
                order_id: row.order_id,
                note: row.note,
                created_at: row.created_at,
            }
        })
        .collect();
    ok(BalanceLogPage { list, total, page })
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

/// One page of the balance's movements, newest first.
#[derive(Serialize, ToSchema)]
pub struct BalanceLogPage {
    list: Vec<BalanceLog>,
    total: i64,
    page: i64,
}

/// One movement of the balance.
#[derive(Serialize, ToSchema)]
pub struct BalanceLog {
    id: i64,
    /// Signed: `+100.00` in, `-25.50` out.
    #[schema(example = "-25.50")]
    amount: String,
    /// The balance after it.
    #[schema(example = "974.50")]
    balance: String,
    /// 1 money in, 2 money out.
    use_type: i64,
    #[schema(required = true)]
    order_id: Option<i64>,
    note: String,
    created_at: i64,
}
