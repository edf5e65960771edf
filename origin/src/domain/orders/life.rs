//! An order's life (`docs/api.md`, "Order states"): 待付款 → 待发货 (paid) → 待收货 (shipped) →
//! 已完成, and 已取消 from 待付款. This module is the one place that decides which change an
//! order may take from which state; every change is one guarded update (`… WHERE status =
//! <from>`), so of two racing changes only one happens, and every change is recorded in
//! `order_events` with its time and who made it — the order's timeline.

use sqlx::AnyConnection;

crate::domain::stored::stored_enum! {
    /// An order's state, as stored in `orders.status`.
    pub enum OrderStatus {
        Unpaid = 0 => "待付款",
        /// Paid, waiting to be shipped.
        Paid = 1 => "待发货",
        /// Shipped, waiting to be received.
        Shipped = 2 => "待收货",
        Done = 3 => "已完成",
        Cancelled = 4 => "已取消",
    }
}

/// Who changed an order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Actor {
    Member,
    Operator,
    /// The origin itself: an unpaid order cancelled when due, a shipped one completed when due,
    /// a payment confirmed by the provider.
    System,
}

impl Actor {
    pub fn name(self) -> &'static str {
        match self {
            Actor::Member => "member",
            Actor::Operator => "operator",
            Actor::System => "system",
        }
    }
}

/// What can happen to an order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    Pay,
    Cancel,
    Ship,
    Receive,
}

impl Action {
    /// The state it leaves from and the one it leads to.
    pub fn transition(self) -> (OrderStatus, OrderStatus) {
        match self {
            Action::Pay => (OrderStatus::Unpaid, OrderStatus::Paid),
            Action::Cancel => (OrderStatus::Unpaid, OrderStatus::Cancelled),
            Action::Ship => (OrderStatus::Paid, OrderStatus::Shipped),
            Action::Receive => (OrderStatus::Shipped, OrderStatus::Done),
        }
    }

    pub fn key(self) -> &'static str {
        match self {
            Action::Pay => "pay",
            Action::Cancel => "cancel",
            Action::Ship => "ship",
            Action::Receive => "receive",
        }
    }

    /// The timeline's words for it.
    pub fn title(self) -> &'static str {
        match self {
            Action::Pay => "订单已支付",
            Action::Cancel => "订单已取消",
            Action::Ship => "商家已发货",
            Action::Receive => "已确认收货",
        }
    }

    /// What the member is told when the order is not in the state this leaves from (409).
    pub fn refusal(self, status: OrderStatus) -> String {
        let verb = match self {
            Action::Pay => "支付",
            Action::Cancel => "取消",
            Action::Ship => "发货",
            Action::Receive => "确认收货",
        };
        format!("当前订单状态为{}，不能{verb}", status.name())
    }
}

/// Which actions an order in `status` allows its member (the list's buttons).
pub fn member_actions(status: OrderStatus) -> Vec<&'static str> {
    match status {
        OrderStatus::Unpaid => vec!["pay", "cancel"],
        OrderStatus::Paid => vec!["invoice", "after_sales", "buy_again"],
        OrderStatus::Shipped => vec!["receive", "invoice", "after_sales", "buy_again"],
        OrderStatus::Done => vec!["invoice", "after_sales", "buy_again"],
        OrderStatus::Cancelled => vec!["buy_again"],
    }
}

/// Records a change of the order in its timeline (in the caller's transaction).
pub async fn record(conn: &mut AnyConnection, order: i64, action: Action, actor: Actor, note: &str, now: i64) -> sqlx::Result<()> {
    let (from, to) = action.transition();
    sqlx::query(
        "INSERT INTO order_events (order_id, action, status_from, status_to, actor, note, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)",
    )
    .bind(order)
    .bind(action.key())
    .bind(from)
    .bind(to)
    .bind(actor.name())
    .bind(note)
    .bind(now)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// Records a step that does not change the order's state (a return's, `crate::domain::returns`) in its
/// timeline, in the caller's transaction.
pub async fn record_step(
    conn: &mut AnyConnection,
    order: i64,
    status: OrderStatus,
    key: &str,
    actor: Actor,
    note: &str,
    now: i64,
) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO order_events (order_id, action, status_from, status_to, actor, note, created_at) VALUES ($1, $2, $3, $3, $4, $5, $6)",
    )
    .bind(order)
    .bind(key)
    .bind(status)
    .bind(actor.name())
    .bind(note)
    .bind(now)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// Moves the order `id` (of `member`, when given) by `action`, stamping when, and records it in
/// the timeline; `false` when the order was not in the state the action leaves from (then
/// nothing changed). What else the change does (stock, payment, carrier) is the caller's, in
/// the same transaction.
pub async fn change(
    conn: &mut AnyConnection,
    id: i64,
    member: Option<i64>,
    action: Action,
    actor: Actor,
    note: &str,
    now: i64,
) -> sqlx::Result<bool> {
    let (from, to) = action.transition();
    let stamp = match action {
        Action::Pay => "paid_at",
        Action::Cancel => "cancelled_at",
        Action::Ship => "shipped_at",
        Action::Receive => "done_at",
    };
    let changed = sqlx::query(sqlx::AssertSqlSafe(format!(
        "UPDATE orders SET status = $1, {stamp} = $2 WHERE id = $3 AND status = $4 AND ($5 = 0 OR member_id = $5)"
    )))
    .bind(to)
    .bind(now)
    .bind(id)
    .bind(from)
    .bind(member.unwrap_or(0))
    .execute(&mut *conn)
    .await?;
    if changed.rows_affected() != 1 {
        return Ok(false);
    }
    record(conn, id, action, actor, note, now).await?;
    Ok(true)
}

/// One entry of an order's timeline.
#[derive(Clone, Debug, serde::Serialize, utoipa::ToSchema, sqlx::FromRow)]
pub struct OrderEvent {
    /// `place`, `pay`, `cancel`, `ship` (its first part), `ship_part` (each part after), `receive`, or a return's step: `return_request`,
    /// `return_withdraw`, `return_approve`, `return_reject`, `return_receive`.
    pub action: String,
    #[sqlx(skip)]
    #[schema(value_type = String, example = "订单已支付")]
    pub title: String,
    /// `member`, `operator` or `system`.
    pub actor: String,
    pub note: String,
    pub created_at: i64,
}

/// The order's timeline, oldest first.
pub async fn timeline(conn: &mut AnyConnection, order: i64) -> sqlx::Result<Vec<OrderEvent>> {
    let mut events: Vec<OrderEvent> =
        sqlx::query_as("SELECT action, actor, note, created_at FROM order_events WHERE order_id = $1 ORDER BY created_at, id")
            .bind(order)
            .fetch_all(&mut *conn)
            .await?;
    for event in &mut events {
        event.title = match event.action.as_str() {
            "place" => "订单已提交",
            "pay" => Action::Pay.title(),
            "cancel" => Action::Cancel.title(),
            "ship" => Action::Ship.title(),
            "receive" => Action::Receive.title(),
            "ship_part" => "商家已发出又一个包裹",
            "return_request" => "申请退货",
            "return_withdraw" => "撤销退货申请",
            "return_approve" => "退货申请已通过",
            "return_reject" => "退货申请未通过",
            "return_receive" => "商家已收到退货，退款已到账",
            _ => "订单更新",
        }
        .to_owned();
    }
    Ok(events)
}

/// One of the carrier's events.
#[derive(Clone, Debug, serde::Serialize, utoipa::ToSchema, sqlx::FromRow)]
pub struct LogisticsEvent {
    pub place: String,
    pub description: String,
    pub created_at: i64,
}

/// The order's logistics events, oldest first.
pub async fn logistics(conn: &mut AnyConnection, order: i64) -> sqlx::Result<Vec<LogisticsEvent>> {
    sqlx::query_as("SELECT place, description, created_at FROM order_logistics WHERE order_id = $1 ORDER BY created_at, id")
        .bind(order)
        .fetch_all(&mut *conn)
        .await
}

/// Adds a logistics event to the order, following its part `shipment` when given.
pub async fn add_logistics(
    conn: &mut AnyConnection,
    order: i64,
    shipment: Option<i64>,
    place: &str,
    description: &str,
    now: i64,
) -> sqlx::Result<()> {
    sqlx::query("INSERT INTO order_logistics (order_id, shipment_id, place, description, created_at) VALUES ($1, $2, $3, $4, $5)")
        .bind(order)
        .bind(shipment)
        .bind(place)
        .bind(description)
        .bind(now)
        .execute(&mut *conn)
        .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_action_leaves_one_state_for_another() {
        use OrderStatus::*;
        assert_eq!(Action::Pay.transition(), (Unpaid, Paid));
        assert_eq!(Action::Cancel.transition(), (Unpaid, Cancelled));
        assert_eq!(Action::Ship.transition(), (Paid, Shipped));
        assert_eq!(Action::Receive.transition(), (Shipped, Done));
        assert_eq!(Action::Receive.refusal(Paid), "当前订单状态为待发货，不能确认收货");
        assert_eq!(Action::Cancel.refusal(Shipped), "当前订单状态为待收货，不能取消");
        assert_eq!(member_actions(Unpaid), vec!["pay", "cancel"]);
        assert!(member_actions(Shipped).contains(&"receive"));
        assert_eq!(OrderStatus::ALL.map(OrderStatus::code), [0, 1, 2, 3, 4]);
        assert_eq!(OrderStatus::from_code(4), Some(Cancelled));
        assert_eq!(OrderStatus::from_code(5), None);
    }
}
