//! One of the member's orders as the member sees it (`GET /api/order/{id}`): its amounts and
//! settlement, what the member may do with it now, its timeline, logistics and lines.

use axum::extract::{Path, State};
use serde::Serialize;
use sqlx::AnyConnection;
use utoipa::ToSchema;

use crate::domain::orders::life::{self as order_life, OrderStatus};
use crate::domain::orders::shipping;
use crate::http::ApiContext;
use crate::http::error::{Answer, Envelope, Error, Result, ok};
use crate::http::extract::Member;
use crate::money;

/// One of the member's orders; `pay_minutes` gives an unpaid one its payment deadline.
pub(crate) async fn order_json(conn: &mut AnyConnection, member: Member, id: i64, pay_minutes: u64) -> Result<OrderDetail> {
    let row: OrderRow = sqlx::query_as(
        "SELECT id, order_no, status, total, discount, payable, address, remark, created_at, paid_at, cancelled_at, \
         member_coupon_id, coupon_value, member_cash_voucher_id, cash_voucher_value, red_packet, points_used, points_value, \
         shipping_fee, due, points_earned, pay_method, shipped_at, done_at, carrier, tracking_no, return_open, refunded, \
         (SELECT COUNT(*) FROM returns r WHERE r.order_id = orders.id) AS returns FROM orders WHERE id = $1 AND member_id = $2",
    )
    .bind(id)
    .bind(member.id)
    .fetch_optional(&mut *conn)
    .await?
    .ok_or_else(|| Error::not_found("订单不存在"))?;
    let items = sqlx::query_as::<_, ItemRow>(
        "SELECT id, goods_id, type, name, ypgg, sccj, bzdw, number, price, amount, goods_manjian_amount, coupon, cash_voucher, \
         red_packet, points, paid, returned, refunded, shipped FROM order_items WHERE order_id = $1 ORDER BY id",
    )
    .bind(id)
    .fetch_all(&mut *conn)
    .await?
    .into_iter()
    .map(|item| OrderItem {
        id: item.id,
        goods_id: item.goods_id,
        line_type: item.line_type,
        name: item.name,
        ypgg: item.ypgg,
        sccj: item.sccj,
        bzdw: item.bzdw,
        number: item.number,
        price: money::text(item.price),
        amount: money::text(item.amount),
        goods_manjian_amount: money::text(item.goods_manjian_amount),
        coupon: money::text(item.coupon),
        cash_voucher: money::text(item.cash_voucher),
        red_packet: money::text(item.red_packet),
        points: money::text(item.points),
        paid: money::text(item.paid),
        returned: item.returned,
        refunded: money::text(item.refunded),
        shipped: item.shipped,
    })
    .collect::<Vec<_>>();
    let unshipped = shipping::unshipped(conn, row.id).await?;
    let mut actions = order_life::member_actions(row.status);
    if unshipped > 0 {
        // Received once every part has left.
        actions.retain(|action| *action != "receive");
    }
    let all_returned = items.iter().all(|item| item.returned >= item.shipped);
    if matches!(row.status, OrderStatus::Shipped | OrderStatus::Done) && row.return_open == 0 && !all_returned {
        actions.push("return");
    }
    if row.returns > 0 {
        actions.push("return_info");
    }
    Ok(OrderDetail {
        id: row.id,
        order_no: row.order_no,
        status: row.status.code(),
        status_name: row.status.name(),
        total: money::text(row.total),
        discount: money::text(row.discount),
        payable: money::text(row.payable),
        coupon_id: row.member_coupon_id,
        coupon: money::text(row.coupon_value),
        cash_voucher_id: row.member_cash_voucher_id,
        cash_voucher: money::text(row.cash_voucher_value),
        red_packet: money::text(row.red_packet),
        points_used: row.points_used,
        points_value: money::text(row.points_value),
        shipping_fee: money::text(row.shipping_fee),
        due: money::text(row.due),
        points_earned: row.points_earned,
        address: row.address,
        remark: row.remark,
        created_at: row.created_at,
        paid_at: row.paid_at,
        pay_deadline: (row.status == OrderStatus::Unpaid)
            .then(|| row.created_at.saturating_add(i64::try_from(pay_minutes.saturating_mul(60)).unwrap_or(i64::MAX))),
        cancelled_at: row.cancelled_at,
        pay_method: row.pay_method,
        shipped_at: row.shipped_at,
        done_at: row.done_at,
        carrier: row.carrier,
        tracking_no: row.tracking_no,
        refunded: money::text(row.refunded),
        actions,
        timeline: order_life::timeline(conn, row.id).await?,
        logistics: order_life::logistics(conn, row.id).await?,
        shipments: shipping::shipments(conn, row.id).await?,
        unshipped: if matches!(row.status, OrderStatus::Paid | OrderStatus::Shipped) { unshipped } else { 0 },
        items,
    })
}

#[derive(sqlx::FromRow)]
struct OrderRow {
    id: i64,
    order_no: String,
    status: OrderStatus,
    total: i64,
    discount: i64,
    payable: i64,
    address: String,
    remark: String,
    created_at: i64,
    paid_at: Option<i64>,
    cancelled_at: Option<i64>,
    member_coupon_id: Option<i64>,
    coupon_value: i64,
    member_cash_voucher_id: Option<i64>,
    cash_voucher_value: i64,
    red_packet: i64,
    points_used: i64,
    points_value: i64,
    shipping_fee: i64,
    due: i64,
    points_earned: i64,
    pay_method: String,
    shipped_at: Option<i64>,
    done_at: Option<i64>,
    carrier: String,
    tracking_no: String,
    return_open: i64,
    refunded: i64,
    returns: i64,
}

#[derive(sqlx::FromRow)]
struct ItemRow {
    id: i64,
    goods_id: i64,
    #[sqlx(rename = "type")]
    line_type: i64,
    name: String,
    ypgg: String,
    sccj: String,
    bzdw: String,
    number: i64,
    price: i64,
    amount: i64,
    goods_manjian_amount: i64,
    coupon: i64,
    cash_voucher: i64,
    red_packet: i64,
    points: i64,
    paid: i64,
    returned: i64,
    refunded: i64,
    shipped: i64,
}

/// One of the member's orders.
#[derive(Serialize, ToSchema)]
pub struct OrderDetail {
    id: i64,
    order_no: String,
    /// 0 待付款, 1 待发货, 2 待收货, 3 已完成, 4 已取消.
    status: i64,
    #[schema(value_type = String, example = "待付款")]
    status_name: &'static str,
    #[schema(example = "120.00")]
    total: String,
    #[schema(example = "10.00")]
    discount: String,
    #[schema(example = "110.00")]
    payable: String,
    /// The member's coupon the order spent, if any, and what it took off.
    #[schema(required = true)]
    coupon_id: Option<i64>,
    #[schema(example = "20.00")]
    coupon: String,
    /// The member's cash voucher the order spent, if any, and what it took off.
    #[schema(required = true)]
    cash_voucher_id: Option<i64>,
    #[schema(example = "10.00")]
    cash_voucher: String,
    #[schema(example = "5.00")]
    red_packet: String,
    points_used: i64,
    #[schema(example = "3.00")]
    points_value: String,
    #[schema(example = "0.00")]
    shipping_fee: String,
    /// What the member pays (rule 18).
    #[schema(example = "72.00")]
    due: String,
    /// Points the payment earned (0 until paid).
    points_earned: i64,
    address: String,
    remark: String,
    created_at: i64,
    /// `null` until paid.
    #[schema(required = true)]
    paid_at: Option<i64>,
    /// While unpaid: when the order is cancelled unless paid (`ORDER_PAY_MINUTES` after it was
    /// placed); `null` otherwise.
    #[schema(required = true)]
    pay_deadline: Option<i64>,
    /// `null` unless cancelled.
    #[schema(required = true)]
    cancelled_at: Option<i64>,
    /// `balance` or `online`; empty until paid.
    pay_method: String,
    #[schema(required = true)]
    shipped_at: Option<i64>,
    /// When it was completed (received).
    #[schema(required = true)]
    done_at: Option<i64>,
    /// The carrier and tracking number it was shipped with; empty until shipped.
    carrier: String,
    tracking_no: String,
    /// Refunded to the balance by its returns so far.
    #[schema(example = "0.00")]
    refunded: String,
    /// What the member may do with it now: `pay`, `cancel`, `receive`, `invoice`, `after_sales`,
    /// `buy_again`, `return` (request one), `return_info` (see its returns).
    #[schema(value_type = Vec<String>)]
    actions: Vec<&'static str>,
    /// Every change, oldest first, with who made it.
    timeline: Vec<order_life::OrderEvent>,
    /// The carrier's events of every part, oldest first.
    logistics: Vec<order_life::LogisticsEvent>,
    /// Its parts as shipped, first first: carrier, tracking number, and per line the lots
    /// (lot number, production and expiry dates, units, inspection report) with their events.
    shipments: Vec<shipping::Shipment>,
    /// Units paid for and not yet shipped (0 once all left, or when cancelled).
    unshipped: i64,
    items: Vec<OrderItem>,
}

/// A line of an order, as it was bought.
#[derive(Serialize, ToSchema)]
pub struct OrderItem {
    /// The order line's id (what a return names).
    id: i64,
    goods_id: i64,
    #[serde(rename = "type")]
    line_type: i64,
    name: String,
    ypgg: String,
    sccj: String,
    bzdw: String,
    number: i64,
    #[schema(example = "12.30")]
    price: String,
    #[schema(example = "24.60")]
    amount: String,
    /// The line's share of the full reduction (rule 8) and of each deduction (rule 19).
    goods_manjian_amount: String,
    coupon: String,
    cash_voucher: String,
    red_packet: String,
    points: String,
    /// What is left paid for the line: what returning all of it refunds (rule 20).
    #[schema(example = "22.10")]
    paid: String,
    /// Units returned and refunded so far, and what they refunded.
    returned: i64,
    #[schema(example = "0.00")]
    refunded: String,
    /// Units shipped so far.
    shipped: i64,
}

/// `GET /api/order/{id}`: one of the member's orders (404 for anyone else's).
#[utoipa::path(get, path = "/api/order/{id}", operation_id = "order_detail", tag = "订单", responses((status = 200, description = "订单", body = Envelope<OrderDetail>)))]
pub(super) async fn detail(State(context): State<ApiContext>, member: Member, Path(id): Path<i64>) -> Answer<OrderDetail> {
    ok(order_json(&mut *context.db.pool.acquire().await?, member, id, context.pay_minutes).await?)
}
