//! What a return refunds: docs/pricing.md rule 20 on each line's `paid`, red-packet and points
//! shares, the points given back and the earned points and cash back taken back ("Returns" in
//! docs/pricing.md), and the refund itself, moved in the return's transaction.

use sqlx::AnyConnection;

use super::{LineFacts, OrderFacts, Refusal, ReturnRow, Wanted};
use crate::domain::settlement;
use crate::domain::settlement::stored;
use crate::money;

/// What returning some units refunds, line by line and in all (stored money; points whole).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Refund {
    pub lines: Vec<LineRefund>,
    /// To the balance: Σ rule 20 on each line's `paid`.
    pub refund: i64,
    /// Back to the red-packet account: Σ rule 20 on each line's red-packet share.
    pub red_packet: i64,
    /// The money value of the points given back: Σ rule 20 on each line's points share.
    pub points_value: i64,
    /// Points given back.
    pub points_back: i64,
    /// Earned points taken back from the member's account (rule 21).
    pub points_taken: i64,
    /// Earned points due back that the member no longer holds (rule 21).
    pub points_short: i64,
    /// Their value, taken out of `refund` (rule 21).
    pub points_deducted: i64,
    /// The order's cash back (满额返现) it no longer earns, taken out of `refund`.
    pub cashback_taken: i64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineRefund {
    pub item: i64,
    pub number: i64,
    pub refund: i64,
    pub red_packet: i64,
    pub points_value: i64,
}

/// `floor(whole × part / of)`, 0 when `of` is not above 0 (exact, in 128 bits).
fn share(whole: i64, part: i64, of: i64) -> i64 {
    if of <= 0 {
        return 0;
    }
    let value = i128::from(whole) * i128::from(part) / i128::from(of);
    i64::try_from(value).unwrap_or(i64::MAX)
}

/// Rule 20 on a stored amount, answered stored.
fn rule20(amount: i64, number: i64, before: i64, k: i64) -> anyhow::Result<i64> {
    let cents = engine::refund(money::from_stored(amount)?, number, before, k).map_err(|error| anyhow::anyhow!("rule 20: {error}"))?;
    stored(cents)
}

/// Rule 21 through the engine: of the points the order earned, what a refund of `refund` (stored)
/// takes back, the member holding `held` points once the return's spent points are back, and
/// what those no longer held are worth (stored), at `per_yuan` points a yuan.
pub fn points_take_back(order: &OrderFacts, refund: i64, held: i64, per_yuan: i64) -> anyhow::Result<(i64, i64, i64)> {
    let back = engine::points_take_back(
        order.points_earned,
        money::from_stored(order.due)?,
        money::from_stored(order.refunded)?,
        money::from_stored(refund)?,
        held.max(0),
        per_yuan,
    )
    .map_err(|error| anyhow::anyhow!("rule 21, order {}: {error}", order.id))?;
    Ok((back.taken, back.short, stored(back.deducted)?))
}

/// What returning `wanted` of the order's lines refunds now (docs/pricing.md, "Returns"), the
/// member holding `points_held` points now, a point worth `1 / per_yuan` yuan: `Ok(Err(_))`
/// names the first wrong line.
pub fn compute(
    order: &OrderFacts,
    lines: &[LineFacts],
    wanted: &[Wanted],
    points_held: i64,
    per_yuan: i64,
) -> anyhow::Result<Result<Refund, Refusal>> {
    let mut refund = Refund::default();
    for (index, want) in wanted.iter().enumerate() {
        let Some(line) = lines.iter().find(|line| line.id == want.item) else {
            return Ok(Err(Refusal::field(format!("lines[{index}]"), "订单中没有该商品")));
        };
        let left = line.number - line.returned;
        if want.number > left {
            return Ok(Err(Refusal::field(format!("lines[{index}]"), format!("{}最多可退{left}件", line.name))));
        }
        let part = LineRefund {
            item: line.id,
            number: want.number,
            refund: rule20(line.paid, line.number, line.returned, want.number)?,
            red_packet: rule20(line.red_packet, line.number, line.returned, want.number)?,
            points_value: rule20(line.points, line.number, line.returned, want.number)?,
        };
        refund.refund += part.refund;
        refund.red_packet += part.red_packet;
        refund.points_value += part.points_value;
        refund.lines.push(part);
    }
    // Points: what the order's points paid so far and now, as points of the order's own rate.
    let points_before: i64 = lines.iter().map(|line| line.points_back_value).sum();
    let points_after = points_before + refund.points_value;
    refund.points_back =
        share(order.points_used, points_after, order.points_value) - share(order.points_used, points_before, order.points_value);
    // Earned points (rule 21): in proportion to what is refunded of what the order paid (so the
    // points the shipping fee earned, which no return refunds, stay); those the member no longer
    // holds, once this return's spent points are back, come out of the refund.
    let held = points_held.max(0).saturating_add(refund.points_back);
    (refund.points_taken, refund.points_short, refund.points_deducted) = points_take_back(order, refund.refund, held, per_yuan)?;
    let refunded_after = order.refunded + refund.refund;
    // Cash back: what the order holds above the tier its goods reach once this is refunded.
    let goods_after = lines.iter().map(|line| line.paid).sum::<i64>() - refunded_after;
    refund.cashback_taken = crate::domain::cashback::taken_back(order.cashback, &order.cashback_tiers, goods_after, refund.refund)?;
    // Together they never take more than the refund: the cash back first, the points' value
    // from what is left (as the paying step does).
    refund.points_deducted = refund.points_deducted.min(refund.refund - refund.cashback_taken).max(0);
    Ok(Ok(refund))
}

/// What a receive paid: the refund and the accounts' movements.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Paid {
    pub refund: i64,
    pub red_packet: i64,
    pub points_back: i64,
    pub points_taken: i64,
    /// The value of the earned points the member no longer held, taken out of the refund.
    pub points_deducted: i64,
    pub cashback_taken: i64,
}

/// Pays a received return: counts its units on their lines, credits the balance and the
/// red-packet account, gives back points and takes back earned ones (those the member no longer
/// holds out of the refund, rule 21), and frees the order for another return.
pub(super) async fn refund(conn: &mut AnyConnection, order: &OrderFacts, current: &ReturnRow, now: i64) -> anyhow::Result<Paid> {
    let lines: Vec<(i64, i64, i64, i64, i64)> =
        sqlx::query_as("SELECT order_item_id, number, refund, red_packet, points_value FROM return_lines WHERE return_id = $1 ORDER BY id")
            .bind(current.id)
            .fetch_all(&mut *conn)
            .await?;
    for (item, number, refund, red_packet, points_value) in lines {
        let counted = sqlx::query(
            "UPDATE order_items SET returned = returned + $1, refunded = refunded + $2, red_packet_back = red_packet_back + $3, \
             points_back_value = points_back_value + $4 WHERE id = $5 AND order_id = $6 AND returned + $1 <= number",
        )
        .bind(number)
        .bind(refund)
        .bind(red_packet)
        .bind(points_value)
        .bind(item)
        .bind(order.id)
        .execute(&mut *conn)
        .await?;
        anyhow::ensure!(counted.rows_affected() == 1, "return {}: line {item} would pass the units bought", current.id);
    }
    sqlx::query("UPDATE orders SET refunded = refunded + $1, return_open = 0 WHERE id = $2")
        .bind(current.refund)
        .bind(order.id)
        .execute(&mut *conn)
        .await?;
    let member = current.member_id;
    let note = format!("订单{}退货{}", order.order_no, current.return_no);
    if current.refund > 0 {
        settlement::credit_balance(conn, member, Some(order.id), current.refund, &format!("{note}退款"), now).await?;
    }
    if current.red_packet > 0 {
        settlement::move_red_packet(conn, member, Some(order.id), current.red_packet, &format!("{note}退回红包"), now).await?;
    }
    if current.points_back > 0 {
        settlement::move_points(conn, member, Some(order.id), current.points_back, &format!("{note}退回积分"), now).await?;
    }
    // Cash back the order no longer earns comes out of this refund (the refund was credited
    // whole just above, so the balance covers it).
    let cashback_taken = crate::domain::cashback::take_back(conn, order.id, current.refund).await?;
    if cashback_taken > 0 {
        let debited = settlement::debit_balance(conn, member, cashback_taken, &format!("{note}扣回满额返现"), now).await?;
        anyhow::ensure!(debited.is_some(), "return {}: the balance does not cover the cash back taken back", current.id);
    }
    // Earned points (rule 21): taken from what the member holds now (this return's spent points
    // back included); those spent since come out of the refund, within what is left of it.
    let held: i64 = sqlx::query_scalar("SELECT points FROM members WHERE id = $1").bind(member).fetch_one(&mut *conn).await?;
    let per_yuan = settlement::settings(conn).await?.points_per_yuan;
    let (taken, short, deducted) = points_take_back(order, current.refund, held, per_yuan)?;
    if taken > 0 {
        settlement::move_points(conn, member, Some(order.id), -taken, &format!("{note}扣回赠送积分"), now).await?;
    }
    let deducted = deducted.min(current.refund - cashback_taken).max(0);
    if deducted > 0 {
        let debited = settlement::debit_balance(conn, member, deducted, &format!("{note}扣回已使用的赠送积分{short}"), now).await?;
        anyhow::ensure!(debited.is_some(), "return {}: the balance does not cover the used points taken back", current.id);
    }
    sqlx::query("UPDATE returns SET points_taken = $1, points_short = $2, points_deducted = $3, cashback_taken = $4 WHERE id = $5")
        .bind(taken)
        .bind(short)
        .bind(deducted)
        .bind(cashback_taken)
        .bind(current.id)
        .execute(&mut *conn)
        .await?;
    Ok(Paid {
        refund: current.refund,
        red_packet: current.red_packet,
        points_back: current.points_back,
        points_taken: taken,
        points_deducted: deducted,
        cashback_taken,
    })
}
