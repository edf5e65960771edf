//! Orders: their states (`life`), the tasks that cancel and complete them when due (`due`), the
//! limits on goods under special control (`control`), and
//! an order's transactions after it is placed: pay by balance, mark paid (the online payment's
//! confirmation calls it too), cancel, receive. Each is one transaction whose state change is
//! decided by `crate::domain::orders::life` (`docs/api.md`, "Order states"); payment and cancellation
//! are each one guarded update of the order's status, so of two racing only one wins.

pub mod checkout;
pub mod control;
pub mod due;
pub mod life;
pub mod place;
pub mod shipping;

use sqlx::{Acquire, AnyConnection};

use self::life::{Action, Actor};
use super::{Error, Result, cashback, settlement};

/// Pays one of the member's unpaid orders' amount due from the balance at `now`: the balance
/// never goes below zero, the movement is logged, and the points the order earns are credited.
/// Answers the balance left.
pub async fn pay_by_balance(conn: &mut AnyConnection, member: i64, id: i64, now: i64) -> Result<i64> {
    let mut tx = conn.begin().await?;
    let Some(due) = mark_paid(&mut tx, member, id, now, "balance", Actor::Member).await? else {
        return Err(refused(&mut tx, member, id, Action::Pay).await?);
    };
    let taken = sqlx::query("UPDATE members SET balance = balance - $1 WHERE id = $2 AND balance >= $1")
        .bind(due)
        .bind(member)
        .execute(&mut *tx)
        .await?;
    if taken.rows_affected() != 1 {
        return Err(Error::field("method", "账户余额不足"));
    }
    let balance: i64 = sqlx::query_scalar("SELECT balance FROM members WHERE id = $1").bind(member).fetch_one(&mut *tx).await?;
    sqlx::query(
        "INSERT INTO balance_logs (member_id, amount, balance_after, use_type, order_id, note, created_at) \
         VALUES ($1, $2, $3, 2, $4, '订单支付', $5)",
    )
    .bind(member)
    .bind(-due)
    .bind(balance)
    .bind(id)
    .bind(now)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(balance)
}

/// Moves one of the member's unpaid orders to paid (by `method`, `balance` or `online`) and
/// credits the points it earns, in the caller's transaction; answers its amount due, or `None`
/// when it is not unpaid (paid or cancelled already, or not the member's). The state change
/// comes first: it takes SQLite's write lock at once, and of two payments (or a payment and a
/// cancel) racing, only one finds the order unpaid.
pub async fn mark_paid(
    conn: &mut AnyConnection,
    member: i64,
    id: i64,
    paid_at: i64,
    method: &str,
    actor: Actor,
) -> sqlx::Result<Option<i64>> {
    let note = if method == "online" { "在线支付" } else { "余额支付" };
    if !life::change(conn, id, Some(member), Action::Pay, actor, note, paid_at).await? {
        return Ok(None);
    }
    let due: i64 = sqlx::query_scalar("UPDATE orders SET pay_method = $1 WHERE id = $2 RETURNING due")
        .bind(method)
        .bind(id)
        .fetch_one(&mut *conn)
        .await?;
    settlement::earn(conn, member, id, due, paid_at).await?;
    Ok(Some(due))
}

/// The member cancels one of their unpaid orders at `now`; its stock and accounts go back.
pub async fn cancel(conn: &mut AnyConnection, member: i64, id: i64, now: i64) -> Result<()> {
    let mut tx = conn.begin().await?;
    if !due::cancel(&mut tx, member, id, now, Actor::Member).await? {
        return Err(refused(&mut tx, member, id, Action::Cancel).await?);
    }
    tx.commit().await?;
    Ok(())
}

/// The member confirms receipt of a shipped order at `now` (待收货 → 已完成), once every part
/// has left; its cash back is credited.
pub async fn receive(conn: &mut AnyConnection, member: i64, id: i64, now: i64) -> Result<()> {
    let mut tx = conn.begin().await?;
    let status: Option<life::OrderStatus> = sqlx::query_scalar("SELECT status FROM orders WHERE id = $1 AND member_id = $2")
        .bind(id)
        .bind(member)
        .fetch_optional(&mut *tx)
        .await?;
    if status == Some(life::OrderStatus::Shipped) && shipping::unshipped(&mut tx, id).await? > 0 {
        return Err(Error::conflict("订单还有商品未发货，全部发出后才能确认收货"));
    }
    if !life::change(&mut tx, id, Some(member), Action::Receive, Actor::Member, "", now).await? {
        return Err(refused(&mut tx, member, id, Action::Receive).await?);
    }
    cashback::on_done(&mut tx, id, now).await?;
    tx.commit().await?;
    Ok(())
}

/// Why an order could not take `action`: it is the member's but in a state the action does not
/// leave from (409, saying which), or it is not the member's at all (404).
pub async fn refused(conn: &mut AnyConnection, member: i64, id: i64, action: Action) -> Result<Error> {
    let status: Option<life::OrderStatus> =
        sqlx::query_scalar("SELECT status FROM orders WHERE id = $1 AND member_id = $2").bind(id).bind(member).fetch_optional(conn).await?;
    Ok(match status {
        Some(status) => Error::conflict(action.refusal(status)),
        None => Error::not_found("订单不存在"),
    })
}

/// How many units the member has ordered in flash sale `sale` (cancelled orders do not count).
/// With the cart line, this is what the sale's limit holds to: at add (under the member's
/// row lock) and again in the order's transaction.
pub async fn ordered_in_sale(conn: &mut AnyConnection, member: i64, sale: i64) -> Result<i64> {
    Ok(sqlx::query_scalar(
        "SELECT CAST(COALESCE(SUM(i.number), 0) AS BIGINT) FROM order_items i JOIN orders o ON o.id = i.order_id \
         WHERE o.member_id = $1 AND o.status <> $2 AND i.type = $3 AND i.activity_id = $4",
    )
    .bind(member)
    .bind(life::OrderStatus::Cancelled)
    .bind(crate::domain::cart::FLASH_SALE)
    .bind(sale)
    .fetch_one(&mut *conn)
    .await?)
}
