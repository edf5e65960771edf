//! Orders do not wait for ever: an unpaid one is cancelled, a shipped one completed.
//!
//! Unpaid orders do not hold stock for ever. Cancelling one — by its member
//! (`POST /api/order/{id}/cancel`), or by this module's task once it has stayed unpaid for
//! `ORDER_PAY_MINUTES` — gives back exactly the stock it took (`order_stock`), and the coupon,
//! cash voucher, red packets and points it spent (`crate::domain::settlement::give_back`), once.
//!
//! The state change is one guarded update (`… WHERE status = 0`), the same guard payment
//! takes, so that of a cancel and a payment racing only one wins, and of two cancels only one
//! gives the stock back. The task finds what is due in the database, so that an order placed
//! before a restart is still cancelled after it (docs/api.md, "Orders"). Likewise an order shipped
//! `ORDER_RECEIVE_DAYS` ago that its member never confirmed is completed (已完成).

use std::time::Duration;

use sqlx::{Acquire, AnyConnection};
use tokio::sync::watch;

use crate::db::Db;
use crate::domain::orders::life::{self as order_life, Action, Actor, OrderStatus};

/// Minutes an order may stay unpaid, when `ORDER_PAY_MINUTES` does not say.
pub const DEFAULT_PAY_MINUTES: u64 = 30;
/// Days a shipped order waits for its member to confirm receipt, when `ORDER_RECEIVE_DAYS`
/// does not say.
pub const DEFAULT_RECEIVE_DAYS: u64 = 10;
/// Due orders read at a time.
const BATCH: i64 = 100;

/// Cancels the member's order `id` if it is unpaid, on `conn` (the caller's transaction), and
/// gives back what it took from stock. `false` when it is not an unpaid order of that member:
/// paid, already cancelled (a racing payment or cancel won), or not there; then nothing changed.
pub async fn cancel(conn: &mut AnyConnection, member: i64, id: i64, now: i64, actor: Actor) -> sqlx::Result<bool> {
    let note = if actor == Actor::System { "超时未支付，系统自动取消" } else { "" };
    if !order_life::change(conn, id, Some(member), Action::Cancel, actor, note, now).await? {
        return Ok(false);
    }
    let mut taken: Vec<(Option<i64>, Option<i64>, i64)> =
        sqlx::query_as("SELECT goods_id, combination_id, number FROM order_stock WHERE order_id = $1")
            .bind(id)
            .fetch_all(&mut *conn)
            .await?;
    // Combinations, then goods, each by id: the order placing an order takes them in, so that
    // two transactions on PostgreSQL never wait for each other's rows.
    taken.sort_unstable_by_key(|(goods, combination, _)| (goods.is_some(), combination.unwrap_or(0), goods.unwrap_or(0)));
    for (goods, combination, number) in taken {
        let query = match (goods, combination) {
            (Some(goods), _) => sqlx::query("UPDATE goods SET stock = stock + $1, sales = sales - $1, sold_at = $3 WHERE id = $2")
                .bind(number)
                .bind(goods)
                .bind(now),
            (None, Some(combination)) => {
                sqlx::query("UPDATE combinations SET stock = stock + $1 WHERE id = $2").bind(number).bind(combination)
            }
            (None, None) => continue,
        };
        query.execute(&mut *conn).await?;
    }
    crate::domain::settlement::give_back(conn, member, id, now).await?;
    Ok(true)
}

/// Cancels every order still unpaid `pay_seconds` after it was placed, as of `now`, each in a
/// transaction of its own; answers how many it cancelled.
pub async fn cancel_due(db: &Db, now: i64, pay_seconds: i64) -> anyhow::Result<u64> {
    let mut cancelled = 0;
    loop {
        let due: Vec<(i64, i64)> =
            sqlx::query_as("SELECT id, member_id FROM orders WHERE status = $1 AND created_at <= $2 ORDER BY created_at, id LIMIT $3")
                .bind(OrderStatus::Unpaid)
                .bind(now.saturating_sub(pay_seconds))
                .bind(BATCH)
                .fetch_all(&db.pool)
                .await?;
        let found = due.len();
        for (id, member) in due {
            let mut conn = db.pool.acquire().await?;
            let mut tx = conn.begin().await?;
            if cancel(&mut tx, member, id, now, Actor::System).await? {
                cancelled += 1;
            }
            tx.commit().await?;
        }
        // Each order read was cancelled or had left the unpaid state: none is read twice.
        if (found as i64) < BATCH {
            return Ok(cancelled);
        }
    }
}

/// Completes every order whose last part was shipped `receive_seconds` ago or more, with
/// nothing left to ship, and not yet received, as of
/// `now` (the member never confirmed receipt), each in a transaction of its own; answers how
/// many it completed.
pub async fn complete_due(db: &Db, now: i64, receive_seconds: i64) -> anyhow::Result<u64> {
    let mut completed = 0;
    loop {
        let due: Vec<i64> =
            // Its last part shipped long enough ago, and nothing left to ship.
            sqlx::query_scalar(
                "SELECT id FROM orders WHERE status = $1 AND shipped_at <= $2 \
                 AND NOT EXISTS (SELECT 1 FROM order_items i WHERE i.order_id = orders.id AND i.shipped < i.number) \
                 AND NOT EXISTS (SELECT 1 FROM shipments s WHERE s.order_id = orders.id AND s.shipped_at > $2) \
                 ORDER BY shipped_at, id LIMIT $3",
            )
            .bind(OrderStatus::Shipped)
                .bind(now.saturating_sub(receive_seconds))
                .bind(BATCH)
                .fetch_all(&db.pool)
                .await?;
        let found = due.len();
        for id in due {
            let mut conn = db.pool.acquire().await?;
            let mut tx = conn.begin().await?;
            if order_life::change(&mut tx, id, None, Action::Receive, Actor::System, "超时未确认，系统自动确认收货", now).await?
            {
                crate::domain::cashback::on_done(&mut tx, id, now).await?;
                completed += 1;
            }
            tx.commit().await?;
        }
        if (found as i64) < BATCH {
            return Ok(completed);
        }
    }
}

/// The running auto-cancel and auto-complete task; dropping it stops the task (after the pass
/// under way).
pub struct Task {
    _stop: watch::Sender<()>,
}

/// Starts the task: a pass at once, then one a minute (or every `pay_minutes` when shorter):
/// unpaid orders cancelled after `pay_minutes`, shipped ones completed after `receive_days`.
pub fn spawn(db: Db, pay_minutes: u64, receive_days: u64) -> Task {
    let (stop, mut stopped) = watch::channel(());
    let pay_seconds = pay_minutes.saturating_mul(60);
    let every = Duration::from_secs(pay_seconds.clamp(1, 60));
    let pay_seconds = i64::try_from(pay_seconds).unwrap_or(i64::MAX);
    let receive_seconds = i64::try_from(receive_days.saturating_mul(86_400)).unwrap_or(i64::MAX);
    tokio::spawn(async move {
        loop {
            match cancel_due(&db, crate::now(), pay_seconds).await {
                Ok(0) => {}
                Ok(count) => tracing::info!(count, "unpaid orders cancelled, their stock given back"),
                Err(error) => tracing::warn!(error = format!("{error:#}"), "cancelling unpaid orders failed; the next pass tries again"),
            }
            match complete_due(&db, crate::now(), receive_seconds).await {
                Ok(0) => {}
                Ok(count) => tracing::info!(count, "shipped orders completed"),
                Err(error) => tracing::warn!(error = format!("{error:#}"), "completing shipped orders failed; the next pass tries again"),
            }
            tokio::select! {
                () = tokio::time::sleep(every) => {}
                _ = stopped.changed() => break,
            }
        }
    });
    Task { _stop: stop }
}
