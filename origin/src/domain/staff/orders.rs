//! The operator's work on orders, for the console and the commands alike: finding an order by
//! its number (the one printed on the paper) or its id, lists by state, date, member and
//! number, shipping (in parts, the lots FEFO), logistics events, and cancelling an unpaid order.
//! Each write is one transaction with its audit row; the member is told as the shop's rules say.

use serde::Serialize;
use serde_json::json;
use sqlx::{AnyConnection, Connection};

use super::audit::{self, Actor, Entry};
use crate::domain::orders::due;
use crate::domain::orders::life::{self, OrderStatus};
use crate::domain::orders::shipping::{self, Part};
use crate::domain::{Error, Result, messages};

/// Order `reference`: its number (16 digits, as printed) or its id. Not found when neither.
pub async fn resolve(conn: &mut AnyConnection, reference: &str) -> Result<i64> {
    let reference = reference.trim();
    let by_number: Option<i64> =
        sqlx::query_scalar("SELECT id FROM orders WHERE order_no = $1").bind(reference).fetch_optional(&mut *conn).await?;
    if let Some(id) = by_number {
        return Ok(id);
    }
    let not_found = || Error::not_found(format!("订单 {reference} 不存在"));
    let id: i64 = reference.parse().map_err(|_| not_found())?;
    let exists: Option<i64> = sqlx::query_scalar("SELECT id FROM orders WHERE id = $1").bind(id).fetch_optional(&mut *conn).await?;
    exists.ok_or_else(not_found)
}

/// A transaction that holds SQLite's write lock from its first statement, so that what it reads
/// cannot change before it writes (PostgreSQL locks rows as it goes; the statement does nothing).
pub async fn begin_write(conn: &mut AnyConnection) -> Result<sqlx::Transaction<'_, sqlx::Any>> {
    let mut tx = conn.begin().await?;
    sqlx::query("UPDATE operators SET id = id WHERE id = 0").execute(&mut *tx).await?;
    Ok(tx)
}

/// What an order list keeps to.
#[derive(Debug, Default)]
pub struct Filter {
    pub status: Option<OrderStatus>,
    /// An order number, or the start of one.
    pub number: Option<String>,
    /// A member's id, or text of their account, company or phone.
    pub member: Option<String>,
    /// Placed from (inclusive) and before (exclusive), Unix seconds.
    pub from: Option<i64>,
    pub to: Option<i64>,
}

/// An order in the console's list.
#[derive(Debug, Serialize, sqlx::FromRow, utoipa::ToSchema)]
pub struct OrderRow {
    pub id: i64,
    pub order_no: String,
    pub member_id: i64,
    pub username: String,
    pub company: String,
    /// 0 待付款, 1 待发货, 2 待收货, 3 已完成, 4 已取消.
    #[schema(value_type = i64)]
    pub status: OrderStatus,
    /// What the member pays.
    #[serde(serialize_with = "super::as_money")]
    #[schema(value_type = String, example = "120.00")]
    pub payable: i64,
    pub created_at: i64,
    /// Lines, and units not yet shipped.
    pub lines: i64,
    pub unshipped: i64,
}

macro_rules! matching {
    () => {
        "FROM orders o JOIN members m ON m.id = o.member_id \
         WHERE ($1 < 0 OR o.status = $1) AND ($2 = '' OR o.order_no LIKE $2) \
         AND ($3 = '' OR CAST(m.id AS TEXT) = $4 OR m.username LIKE $3 OR m.company LIKE $3 OR m.phone LIKE $3) \
         AND o.created_at >= $5 AND o.created_at < $6"
    };
}

/// A page of orders (`page` from 1), newest first, and how many match.
pub async fn list(conn: &mut AnyConnection, filter: &Filter, page: i64, size: i64) -> Result<(Vec<OrderRow>, i64)> {
    let like = |text: &Option<String>, start: &str| {
        text.as_deref().map(|text| format!("{start}{}%", text.replace(['\\', '%', '_'], ""))).unwrap_or_default()
    };
    let number = like(&filter.number, "");
    let member = like(&filter.member, "%");
    let status = filter.status.map_or(-1, OrderStatus::code);
    let (from, to) = (filter.from.unwrap_or(0), filter.to.unwrap_or(i64::MAX));
    let rows: Vec<OrderRow> = sqlx::query_as(concat!(
        "SELECT o.id, o.order_no, o.member_id, m.username, m.company, o.status, o.payable, o.created_at, \
                (SELECT CAST(COUNT(*) AS BIGINT) FROM order_items i WHERE i.order_id = o.id) AS lines, \
                (SELECT CAST(COALESCE(SUM(i.number - i.shipped), 0) AS BIGINT) FROM order_items i WHERE i.order_id = o.id) AS unshipped ",
        matching!(),
        " ORDER BY o.id DESC LIMIT $7 OFFSET $8"
    ))
    .bind(status)
    .bind(&number)
    .bind(&member)
    .bind(filter.member.clone().unwrap_or_default())
    .bind(from)
    .bind(to)
    .bind(size)
    .bind((page - 1) * size)
    .fetch_all(&mut *conn)
    .await?;
    let total: i64 = sqlx::query_scalar(concat!("SELECT CAST(COUNT(*) AS BIGINT) ", matching!()))
        .bind(status)
        .bind(&number)
        .bind(&member)
        .bind(filter.member.clone().unwrap_or_default())
        .bind(from)
        .bind(to)
        .fetch_one(&mut *conn)
        .await?;
    Ok((rows, total))
}

/// A part shipped, as the console and the commands report it.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct ShipOutcome {
    pub order_id: i64,
    pub order_no: String,
    pub shipment: i64,
    /// The part's number within the order (1, 2, …).
    pub seq: i64,
    /// Units still to ship after it.
    pub left: i64,
}

/// Ships `parts` of order `id` (every unit left, when `None`) by `carrier` under `tracking`:
/// one transaction with the lots taken (FEFO), the member's message and the audit row.
pub async fn ship(
    conn: &mut AnyConnection,
    actor: &Actor,
    id: i64,
    carrier: &str,
    tracking: &str,
    parts: Option<&[Part]>,
    now: i64,
) -> Result<ShipOutcome> {
    let (carrier, tracking) = (carrier.trim(), tracking.trim());
    if carrier.is_empty() {
        return Err(Error::field("carrier", "请填写物流公司"));
    }
    if tracking.is_empty() {
        return Err(Error::field("tracking", "请填写运单号"));
    }
    if carrier.chars().count() > 30 || tracking.chars().count() > 40 {
        return Err(Error::field("tracking", "物流公司不能超过30字，运单号不能超过40字"));
    }
    let mut tx = begin_write(conn).await?;
    let before_status = shipping::order_of(&mut tx, id).await?.status;
    let left_before = shipping::unshipped(&mut tx, id).await?;
    let shipped = shipping::ship(&mut tx, id, carrier, tracking, parts, life::Actor::Operator, now).await?;
    let (order_no, seq) = (shipped.order.order_no.clone(), shipped.seq);
    let units: Vec<serde_json::Value> =
        parts.unwrap_or_default().iter().map(|part| json!({ "item": part.item, "units": part.number })).collect();
    let entry = Entry {
        action: "order.ship",
        target: format!("order:{id}"),
        member: Some(shipped.order.member),
        summary: format!("订单 {order_no} 第{seq}个包裹发货：{carrier} {tracking}"),
        before: json!({ "status": before_status.name(), "unshipped": left_before }),
        after: json!({
            "status": OrderStatus::Shipped.name(), "unshipped": shipped.left, "shipment": shipped.shipment, "seq": seq,
            "carrier": carrier, "tracking": tracking, "lines": if parts.is_some() { json!(units) } else { json!("all") },
        }),
    };
    audit::record(&mut tx, actor, entry, now).await?;
    tx.commit().await?;
    Ok(ShipOutcome { order_id: id, order_no, shipment: shipped.shipment, seq, left: shipped.left })
}

/// Adds a carrier's event to shipped order `id` (its part `shipment`, else the latest).
pub async fn add_logistics(
    conn: &mut AnyConnection,
    actor: &Actor,
    id: i64,
    shipment: Option<i64>,
    place: &str,
    description: &str,
    now: i64,
) -> Result<String> {
    let (place, description) = (place.trim(), description.trim());
    if description.is_empty() {
        return Err(Error::field("description", "请填写物流信息"));
    }
    if description.chars().count() > 200 || place.chars().count() > 50 {
        return Err(Error::field("description", "物流信息不能超过200字，地点不能超过50字"));
    }
    let mut tx = begin_write(conn).await?;
    let order = shipping::add_logistics(&mut tx, id, shipment, place, description, now).await?;
    let entry = Entry {
        action: "order.logistics",
        target: format!("order:{id}"),
        member: Some(order.member),
        summary: format!("订单 {} 物流：{place} {description}", order.order_no),
        before: serde_json::Value::Null,
        after: json!({ "shipment": shipment, "place": place, "description": description }),
    };
    audit::record(&mut tx, actor, entry, now).await?;
    tx.commit().await?;
    Ok(order.order_no)
}

/// Cancels unpaid order `id` for the reason given: its stock and the member's coupons, vouchers,
/// red packets and points go back; the member is told why.
pub async fn cancel(conn: &mut AnyConnection, actor: &Actor, id: i64, reason: &str, now: i64) -> Result<String> {
    let reason = reason.trim();
    if reason.is_empty() {
        return Err(Error::field("reason", "请填写取消原因"));
    }
    if reason.chars().count() > 200 {
        return Err(Error::field("reason", "取消原因不能超过200字"));
    }
    let mut tx = begin_write(conn).await?;
    let order = shipping::order_of(&mut tx, id).await?;
    if order.status != OrderStatus::Unpaid {
        return Err(Error::conflict(format!("订单{}，只能取消待付款的订单", order.status.name())));
    }
    if !due::cancel(&mut tx, order.member, id, now, life::Actor::Operator).await? {
        return Err(Error::conflict("订单状态已变化，请刷新后重试"));
    }
    messages::send(
        &mut tx,
        order.member,
        messages::MessageKind::Order,
        "订单已取消",
        &format!("您的订单 {} 已由商城取消：{reason}。已使用的优惠券、红包和积分已退回。", order.order_no),
    )
    .await?;
    let entry = Entry {
        action: "order.cancel",
        target: format!("order:{id}"),
        member: Some(order.member),
        summary: format!("取消订单 {}：{reason}", order.order_no),
        before: json!({ "status": OrderStatus::Unpaid.name() }),
        after: json!({ "status": OrderStatus::Cancelled.name(), "reason": reason }),
    };
    audit::record(&mut tx, actor, entry, now).await?;
    tx.commit().await?;
    Ok(order.order_no)
}
