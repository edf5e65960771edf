//! 满额返现 (`/hb`): cash back to the balance on completed orders over a threshold.
//!
//! An order placed while a cash-back activity runs remembers it. When the order completes (the
//! member confirms receipt, or it completes by itself), its goods' net amount — what its lines
//! paid (rule 19) less what returns refunded — picks the highest tier it reaches, and that tier's
//! back is credited to the balance once, with its log row and a message. A return after that
//! which leaves the order below the tier takes the difference back out of its own refund, never
//! more than the refund. Amounts are stored money (ten-thousandths of a yuan); the arithmetic is
//! the engine's (docs/pricing.md rule 22): `engine::cashback` and `engine::cashback_take_back`.

use sqlx::AnyConnection;

use crate::domain::messages;
use crate::domain::settlement;
use crate::money;

/// A running activity: id, title, start, end.
pub type Activity = (i64, String, i64, i64);

/// The cash-back activity running at `at`, if any (the newest, should two overlap).
pub async fn running(conn: &mut AnyConnection, at: i64) -> sqlx::Result<Option<Activity>> {
    sqlx::query_as(
        "SELECT id, title, starts_at, ends_at FROM cashback_activities WHERE is_on = 1 AND starts_at <= $1 AND ends_at > $1 \
         ORDER BY id DESC LIMIT 1",
    )
    .bind(at)
    .fetch_optional(&mut *conn)
    .await
}

/// An activity's tiers as (amount, back), smallest amount first.
pub async fn tiers(conn: &mut AnyConnection, activity: i64) -> sqlx::Result<Vec<(i64, i64)>> {
    sqlx::query_as("SELECT amount, back FROM cashback_tiers WHERE activity_id = $1 ORDER BY amount, id")
        .bind(activity)
        .fetch_all(&mut *conn)
        .await
}

/// Rule 22: the cash back of an order whose goods come to `net` (stored): the greatest back
/// among the tiers it reaches; 0 below the first.
pub fn back_for(tiers: &[(i64, i64)], net: i64) -> sqlx::Result<i64> {
    stored(engine::cashback(&engine_tiers(tiers)?, money_of(net)?))
}

/// A stored amount as the engine's money; a negative one is a decoding error.
fn money_of(stored: i64) -> sqlx::Result<engine::Money> {
    money::from_stored(stored).map_err(|error| sqlx::Error::Decode(error.into()))
}

/// Stored tiers as the engine reads them.
fn engine_tiers(tiers: &[(i64, i64)]) -> sqlx::Result<Vec<engine::CashbackTier>> {
    tiers.iter().map(|&(amount, back)| Ok(engine::CashbackTier { amount: money_of(amount)?, back: money_of(back)? })).collect()
}

/// The engine's answer, stored; stored amounts the engine refuses are a decoding error.
fn stored(answer: Result<engine::Cents, engine::EngineError>) -> sqlx::Result<i64> {
    let cents = answer.map_err(|error| sqlx::Error::Decode(Box::new(error)))?;
    let units = cents.0.checked_mul(100).and_then(|units| i64::try_from(units).ok());
    units.ok_or_else(|| sqlx::Error::Decode(format!("cash back out of range: {cents}").into()))
}

/// At placement, in the order's transaction: the order remembers the activity running now.
pub async fn remember(conn: &mut AnyConnection, order: i64, now: i64) -> sqlx::Result<()> {
    if let Some((activity, ..)) = running(conn, now).await? {
        sqlx::query("UPDATE orders SET cashback_activity_id = $1 WHERE id = $2").bind(activity).bind(order).execute(&mut *conn).await?;
    }
    Ok(())
}

/// The order's goods net of refunds: Σ lines' `paid` − Σ lines' `refunded`.
async fn goods_net(conn: &mut AnyConnection, order: i64) -> sqlx::Result<i64> {
    let (paid, refunded): (i64, i64) = sqlx::query_as(
        "SELECT CAST(COALESCE(SUM(paid), 0) AS BIGINT), CAST(COALESCE(SUM(refunded), 0) AS BIGINT) FROM order_items WHERE order_id = $1",
    )
    .bind(order)
    .fetch_one(&mut *conn)
    .await?;
    Ok(paid - refunded)
}

/// When the order completes, in the transaction that completes it: credits its cash back, at
/// most once (a guarded update on `cashback_at`). Answers what was credited.
pub async fn on_done(conn: &mut AnyConnection, order: i64, now: i64) -> sqlx::Result<i64> {
    let row: Option<(i64, String, i64, i64)> =
        sqlx::query_as("SELECT member_id, order_no, cashback_activity_id, cashback_at FROM orders WHERE id = $1")
            .bind(order)
            .fetch_optional(&mut *conn)
            .await?;
    let Some((member, order_no, activity, granted_at)) = row else { return Ok(0) };
    if activity == 0 || granted_at != 0 {
        return Ok(0);
    }
    let back = back_for(&tiers(conn, activity).await?, goods_net(conn, order).await?)?;
    if back == 0 {
        return Ok(0);
    }
    let granted = sqlx::query("UPDATE orders SET cashback = $1, cashback_at = $2 WHERE id = $3 AND cashback_at = 0")
        .bind(back)
        .bind(now)
        .bind(order)
        .execute(&mut *conn)
        .await?;
    if granted.rows_affected() != 1 {
        return Ok(0);
    }
    settlement::credit_balance(conn, member, Some(order), back, &format!("订单{order_no}满额返现"), now).await?;
    let body = format!("订单{order_no}已完成，满额返现{}元已存入账户余额。", money::text(back));
    messages::send(conn, member, messages::MessageKind::Wallet, "满额返现到账", &body).await?;
    Ok(back)
}

/// Rule 22: what a return refunding `refund` more takes back of the order's cash back `held`:
/// what the order holds above the tier its goods reach after the refund, never more than
/// `refund` (all stored).
pub fn taken_back(held: i64, tiers: &[(i64, i64)], net_after: i64, refund: i64) -> sqlx::Result<i64> {
    let (held, net_after, refund) = (money_of(held)?, money_of(net_after)?, money_of(refund)?);
    stored(engine::cashback_take_back(&engine_tiers(tiers)?, held, net_after, refund))
}

/// At a return's refund, in its transaction, once its lines count as refunded: takes back the
/// cash back the order no longer earns out of the refund (a guarded update on the order).
/// Answers what was taken.
pub async fn take_back(conn: &mut AnyConnection, order: i64, refund: i64) -> sqlx::Result<i64> {
    let (held, activity): (i64, i64) =
        sqlx::query_as("SELECT cashback, cashback_activity_id FROM orders WHERE id = $1").bind(order).fetch_one(&mut *conn).await?;
    if held == 0 {
        return Ok(0);
    }
    let taken = taken_back(held, &tiers(conn, activity).await?, goods_net(conn, order).await?, refund)?;
    if taken == 0 {
        return Ok(0);
    }
    let moved = sqlx::query("UPDATE orders SET cashback = cashback - $1 WHERE id = $2 AND cashback >= $1")
        .bind(taken)
        .bind(order)
        .execute(&mut *conn)
        .await?;
    Ok(if moved.rows_affected() == 1 { taken } else { 0 })
}

#[cfg(test)]
mod tests {
    use super::*;

    const TIERS: [(i64, i64); 3] = [(10_000_000, 200_000), (30_000_000, 800_000), (50_000_000, 1_500_000)];

    #[test]
    fn the_highest_tier_reached_gives_its_back() {
        assert_eq!(back_for(&TIERS, 9_999_999).unwrap(), 0);
        assert_eq!(back_for(&TIERS, 10_000_000).unwrap(), 200_000);
        assert_eq!(back_for(&TIERS, 49_999_999).unwrap(), 800_000);
        assert_eq!(back_for(&TIERS, 80_000_000).unwrap(), 1_500_000);
        assert_eq!(back_for(&[], 80_000_000).unwrap(), 0);
    }

    #[test]
    fn a_return_takes_back_what_the_order_no_longer_earns_and_never_more_than_its_refund() {
        // Held 80 for 3000+; after the return 2500 is left: the 1000 tier's 20 stays, 60 goes.
        assert_eq!(taken_back(800_000, &TIERS, 25_000_000, 5_000_000).unwrap(), 600_000);
        // Still above 3000: nothing.
        assert_eq!(taken_back(800_000, &TIERS, 30_000_000, 1_000_000).unwrap(), 0);
        // A small refund cannot pay back more than itself.
        assert_eq!(taken_back(800_000, &TIERS, 25_000_000, 100_000).unwrap(), 100_000);
        // Below every tier: all of it, within the refund.
        assert_eq!(taken_back(200_000, &TIERS, 0, 10_000_000).unwrap(), 200_000);
    }
}
