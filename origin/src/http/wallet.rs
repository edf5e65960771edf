//! The member's wallet (§7 `user_money`, `user_money_log`): balance and points, and the
//! movements of the balance. A member sees only their own.

use axum::extract::State;
use axum::response::IntoResponse;
use serde_json::{Value, json};
use sqlx::Row;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::ApiContext;
use super::error::{Error, Result, ok};
use super::extract::{Member, QueryFields};
use crate::money;

pub fn router() -> OpenApiRouter<ApiContext> {
    OpenApiRouter::new().routes(routes!(user_money)).routes(routes!(user_money_log))
}

/// `GET /api/user/user_money`: `{ balance, points }`.
#[utoipa::path(get, path = "/api/user/user_money", tag = "钱包", responses((status = 200, description = "信封 { code, msg, data }")))]
async fn user_money(State(context): State<ApiContext>, member: Member) -> Result<impl IntoResponse> {
    let row = sqlx::query("SELECT balance, points FROM members WHERE id = $1").bind(member.id).fetch_one(&context.db.pool).await?;
    ok(json!({ "balance": money::text(row.try_get("balance")?), "points": row.try_get::<i64, _>("points")? }))
}

/// `GET /api/user/user_money_log` (`page`, `use_type`, `start_time`, `end_time` as Unix
/// seconds): the balance's movements, newest first, 20 a page. `use_type` 1 is money in, 2
/// money out.
#[utoipa::path(get, path = "/api/user/user_money_log", tag = "钱包", responses((status = 200, description = "信封 { code, msg, data }")))]
async fn user_money_log(State(context): State<ApiContext>, member: Member, QueryFields(query): QueryFields) -> Result<impl IntoResponse> {
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
    let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
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
    let list: Vec<Value> = rows
        .iter()
        .map(|row| -> Result<Value> {
            let amount: i64 = row.try_get("amount")?;
            let sign = if amount < 0 { "-" } else { "+" };
            Ok(json!({
                "id": row.try_get::<i64, _>("id")?,
                "amount": format!("{sign}{}", money::text(amount.abs())),
                "balance": money::text(row.try_get("balance_after")?),
                "use_type": row.try_get::<i64, _>("use_type")?,
                "order_id": row.try_get::<Option<i64>, _>("order_id")?,
                "note": row.try_get::<String, _>("note")?,
                "created_at": row.try_get::<i64, _>("created_at")?,
            }))
        })
        .collect::<Result<_>>()?;
    ok(json!({ "list": list, "total": total, "page": page }))
}
