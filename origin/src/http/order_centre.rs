//! The order centre (订单中心, `/order`): the member's orders by state with counts, searched by
//! order number or goods name within dates; confirming receipt; buying an order's goods again.
//! The changes go through `crate::domain::orders::life`, which decides what each state allows.

use axum::extract::{Path, State};
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::ApiContext;
use super::error::{Answer, Envelope, Error, Result, ok, ok_with};
use super::extract::{Fields, FromFields, Member, Query};
use super::order::{OrderDetail, order_json};
use crate::domain::cart::{COMBINATION, FLASH_SALE, NORMAL};
use crate::domain::orders::life::OrderStatus;
use crate::now;
use crate::security::text;

pub fn router() -> OpenApiRouter<ApiContext> {
    OpenApiRouter::new().routes(routes!(list)).routes(routes!(receive)).routes(routes!(buy_again))
}

const PAGE_SIZE: i64 = 10;

/// How many of the member's orders are in one state (the tabs).
#[derive(Serialize, ToSchema)]
pub struct StateCount {
    status: i64,
    #[schema(example = "待付款")]
    status_name: &'static str,
    count: i64,
}

/// One page of the member's orders, and the count in every state (whatever the filters).
#[derive(Serialize, ToSchema)]
pub struct OrderPage {
    list: Vec<OrderDetail>,
    total: i64,
    page: i64,
    counts: Vec<StateCount>,
}

/// Which orders: a page, of a state, matching a keyword, placed between two times.
#[derive(utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct OrderQuery {
    /// 页码: from 1 (absent: 1), at most 100000.
    #[param(value_type = Option<i64>, minimum = 1, maximum = 100000)]
    page: i64,
    /// 订单状态 0–4; absent: all.
    #[param(value_type = Option<i64>)]
    status: i64,
    /// 关键词: an order number or a goods name.
    #[param(value_type = Option<String>)]
    keyword: String,
    /// Placed at or after (Unix seconds).
    #[param(value_type = Option<i64>)]
    start_time: i64,
    /// Placed at or before (Unix seconds).
    #[param(value_type = Option<i64>)]
    end_time: i64,
}

impl FromFields for OrderQuery {
    fn from_fields(query: &Fields) -> Result<OrderQuery> {
        let page = query.page()?;
        let status = query.int_or("status", "订单状态", -1)?;
        if status != -1 && OrderStatus::from_code(status).is_none() {
            return Err(Error::field("status", "订单状态不正确"));
        }
        let keyword = query.bounded(text::KEYWORD)?.unwrap_or_default();
        let start = query.int_or("start_time", "开始时间", 0)?;
        let end = query.int_or("end_time", "结束时间", i64::MAX)?;
        if start > end {
            return Err(Error::field("start_time", "开始时间不能晚于结束时间"));
        }
        Ok(OrderQuery { page, status, keyword, start_time: start, end_time: end })
    }
}

/// `GET /api/order` (`page`, `status` 0–4, `keyword` an order number or a goods name,
/// `start_time` and `end_time` Unix seconds of placing): the member's own orders, newest first,
/// 10 a page, each with its lines, settlement, timeline and the actions its state allows.
#[utoipa::path(get, path = "/api/order", params(OrderQuery), operation_id = "order_list", tag = "订单", responses((status = 200, description = "一页订单", body = Envelope<OrderPage>)))]
async fn list(State(context): State<ApiContext>, member: Member, Query(query): Query<OrderQuery>) -> Answer<OrderPage> {
    let OrderQuery { page, status, keyword, start_time: start, end_time: end } = query;
    let pattern = format!("%{}%", keyword.replace('\\', "\\\\").replace('%', "\\%").replace('_', "\\_"));
    let filter = "o.member_id = $1 AND ($2 < 0 OR o.status = $2) AND o.created_at >= $3 AND o.created_at <= $4 \
                  AND ($5 = '%%' OR o.order_no LIKE $5 ESCAPE '\\' \
                       OR EXISTS (SELECT 1 FROM order_items i WHERE i.order_id = o.id AND i.name LIKE $5 ESCAPE '\\'))";
    let mut conn = context.db.pool.acquire().await?;
    let total: i64 = sqlx::query_scalar(sqlx::AssertSqlSafe(format!("SELECT COUNT(*) FROM orders o WHERE {filter}")))
        .bind(member.id)
        .bind(status)
        .bind(start)
        .bind(end)
        .bind(&pattern)
        .fetch_one(&mut *conn)
        .await?;
    let ids: Vec<i64> = sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
        "SELECT o.id FROM orders o WHERE {filter} ORDER BY o.created_at DESC, o.id DESC LIMIT {PAGE_SIZE} OFFSET $6"
    )))
    .bind(member.id)
    .bind(status)
    .bind(start)
    .bind(end)
    .bind(&pattern)
    .bind((page - 1) * PAGE_SIZE)
    .fetch_all(&mut *conn)
    .await?;
    let mut list = Vec::with_capacity(ids.len());
    for id in ids {
        list.push(order_json(&mut conn, member, id, context.pay_minutes).await?);
    }
    let counted: Vec<(i64, i64)> = sqlx::query_as("SELECT status, COUNT(*) FROM orders WHERE member_id = $1 GROUP BY status")
        .bind(member.id)
        .fetch_all(&mut *conn)
        .await?;
    let counts = OrderStatus::ALL
        .iter()
        .map(|status| StateCount {
            status: status.code(),
            status_name: status.name(),
            count: counted.iter().find(|(found, _)| *found == status.code()).map_or(0, |(_, count)| *count),
        })
        .collect();
    ok(OrderPage { list, total, page, counts })
}

/// `POST /api/order/{id}/receive`: the member confirms receipt of a shipped order (待收货 →
/// 已完成); 409 in any other state, 404 for anyone else's order.
#[utoipa::path(post, path = "/api/order/{id}/receive", tag = "订单", responses((status = 200, description = "已完成的订单", body = Envelope<OrderDetail>)))]
async fn receive(State(context): State<ApiContext>, member: Member, Path(id): Path<i64>) -> Answer<OrderDetail> {
    let mut conn = context.db.pool.acquire().await?;
    crate::domain::orders::receive(&mut conn, member.id, id, now()).await?;
    ok_with("已确认收货", order_json(&mut conn, member, id, context.pay_minutes).await?)
}

/// A line that could not go back into the cart, and why.
#[derive(Serialize, ToSchema)]
pub struct Skipped {
    name: String,
    reason: String,
}

/// What buying an order again put in the cart.
#[derive(Serialize, ToSchema)]
pub struct BoughtAgain {
    /// Lines added (or added to).
    added: i64,
    skipped: Vec<Skipped>,
    /// Lines added at another price than the order's, and why (a flash sale's goods come back
    /// at today's price).
    notes: Vec<Skipped>,
    /// Lines in the cart now.
    cart: i64,
}

/// What buying again says of a flash sale's goods.
const FLASH_SALE_AGAIN: &str = "秒杀价仅限活动期间，已按当前价格加入购物车";

/// `POST /api/order/{id}/buy_again`: puts the order's goods back into the cart, each through
/// the cart's own add (today's prices, stock, limits); a flash-sale line comes back as a
/// normal one. Lines that cannot be bought now are listed with the cart's reason.
#[utoipa::path(post, path = "/api/order/{id}/buy_again", tag = "订单", responses((status = 200, description = "加入购物车的结果", body = Envelope<BoughtAgain>)))]
async fn buy_again(State(context): State<ApiContext>, member: Member, Path(id): Path<i64>) -> Answer<BoughtAgain> {
    let lines: Vec<(i64, i64, i64, String, i64)> = sqlx::query_as(
        "SELECT i.goods_id, i.type, i.activity_id, i.name, i.number FROM order_items i JOIN orders o ON o.id = i.order_id \
         WHERE o.id = $1 AND o.member_id = $2 ORDER BY i.id",
    )
    .bind(id)
    .bind(member.id)
    .fetch_all(&context.db.pool)
    .await?;
    if lines.is_empty() {
        return Err(Error::not_found("订单不存在"));
    }
    let (mut added, mut skipped, mut notes, mut cart) = (0, Vec::new(), Vec::new(), 0);
    for (goods, bought_type, activity, name, number) in lines {
        let (line_type, combination) = match bought_type {
            COMBINATION => (COMBINATION, activity),
            _ => (NORMAL, 0),
        };
        match super::cart::add_line(&context.db, member, goods, number, line_type, combination, [0, 0, 0]).await {
            Ok(line) => {
                added += 1;
                cart = line.cart();
                if bought_type == FLASH_SALE {
                    notes.push(Skipped { name, reason: FLASH_SALE_AGAIN.to_owned() });
                }
            }
            Err(Error::Validation(errors)) => {
                skipped.push(Skipped { name, reason: errors.into_iter().next().map(|(_, message)| message).unwrap_or_default() })
            }
            Err(Error::Refused(_, reason)) => skipped.push(Skipped { name, reason }),
            Err(other) => return Err(other),
        }
    }
    if added == 0 {
        cart =
            sqlx::query_scalar("SELECT COUNT(*) FROM cart_items WHERE member_id = $1").bind(member.id).fetch_one(&context.db.pool).await?;
    }
    ok(BoughtAgain { added, skipped, notes, cart })
}
