//! Shipping an order and following it: the operator ships a paid order with its carrier and
//! tracking number, and adds logistics events to a shipped one; the member is told when it
//! leaves (`docs/api.md`, "Order states").

use sqlx::AnyConnection;

use super::life::{self, Action, Actor, OrderStatus};
use crate::domain::{Error, Result, messages};

/// An order's member, state and number.
pub struct OrderOf {
    pub member: i64,
    pub status: OrderStatus,
    pub order_no: String,
}

/// Order `id`'s member, state and number; not found when there is no such order.
pub async fn order_of(conn: &mut AnyConnection, id: i64) -> Result<OrderOf> {
    let row: Option<(i64, OrderStatus, String)> =
        sqlx::query_as("SELECT member_id, status, order_no FROM orders WHERE id = $1").bind(id).fetch_optional(&mut *conn).await?;
    let (member, status, order_no) = row.ok_or_else(|| Error::not_found("订单不存在"))?;
    Ok(OrderOf { member, status, order_no })
}

/// Ships paid order `id` by `carrier` under `tracking` at `now`, in the caller's transaction:
/// its state and timeline, its carrier and tracking number, the first logistics event, and a
/// message to its member. Answers the order; a conflict when it is not paid.
pub async fn ship(conn: &mut AnyConnection, id: i64, carrier: &str, tracking: &str, actor: Actor, now: i64) -> Result<OrderOf> {
    let order = order_of(conn, id).await?;
    let note = format!("{carrier} {tracking}");
    if !life::change(conn, id, None, Action::Ship, actor, &note, now).await? {
        return Err(Error::conflict(Action::Ship.refusal(order.status)));
    }
    sqlx::query("UPDATE orders SET carrier = $1, tracking_no = $2 WHERE id = $3")
        .bind(carrier)
        .bind(tracking)
        .bind(id)
        .execute(&mut *conn)
        .await?;
    life::add_logistics(conn, id, "", &format!("商家已发货，{carrier}运单号 {tracking}"), now).await?;
    let body = format!("订单 {} 已由{carrier}发出，运单号 {tracking}。", order.order_no);
    messages::send(conn, order.member, messages::MessageKind::Order, "订单已发货", &body).await?;
    Ok(OrderOf { status: OrderStatus::Shipped, ..order })
}

/// Adds a logistics event (where, and what happened) to shipped (or received) order `id`.
/// Answers the order; a conflict when it has not been shipped.
pub async fn add_logistics(conn: &mut AnyConnection, id: i64, place: &str, description: &str, now: i64) -> Result<OrderOf> {
    let order = order_of(conn, id).await?;
    if !matches!(order.status, OrderStatus::Shipped | OrderStatus::Done) {
        return Err(Error::conflict(format!("订单{}，不能添加物流信息", order.status.name())));
    }
    life::add_logistics(conn, id, place, description, now).await?;
    Ok(order)
}
