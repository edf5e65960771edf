//! What happens to money once an order is paid (`docs/pricing.md`, rules 20–22): what a return
//! refunds of a line (rule 20), what it takes back of the points the order earned (rule 21),
//! and the cash back (满额返现) an order earns when it completes and what a return takes back of
//! it (rule 22).

use serde::Serialize;

use crate::error::EngineError;
use crate::money::{Cents, Money};

/// Rule 20: what returning `k` more units of an order line refunds, the line having had
/// `number` units and `paid` (rule 19), `returned_before` units returned already. Returning
/// every unit, in any split, refunds exactly `paid`.
pub fn refund(paid: Money, number: i64, returned_before: i64, k: i64) -> Result<Cents, EngineError> {
    if paid.decimal().scale() > 2 {
        return Err(EngineError::input("paid", "more than two decimals"));
    }
    if number < 1 {
        return Err(EngineError::input("number", format_args!("must be at least 1, got {number}")));
    }
    if returned_before < 0 {
        return Err(EngineError::input("returned_before", format_args!("must not be negative, got {returned_before}")));
    }
    if k < 1 {
        return Err(EngineError::input("k", format_args!("must be at least 1, got {k}")));
    }
    if returned_before.checked_add(k).is_none_or(|returned| returned > number) {
        return Err(EngineError::input(
            "k",
            format_args!("returned_before + k must not exceed number ({returned_before} + {k} > {number})"),
        ));
    }
    let paid = paid.floor_cents().ok_or_else(|| EngineError::out_of_range("paid"))?.0;
    let part = |units: i64| paid.checked_mul(i128::from(units)).map(|cents| cents / i128::from(number));
    let refund = part(returned_before + k).zip(part(returned_before)).map(|(to, from)| to - from);
    refund.map(Cents).ok_or_else(|| EngineError::out_of_range("paid"))
}

/// What a return takes back of the points its order earned (`docs/pricing.md`, "Rule 21"):
/// the points taken from the member's account, the points the member no longer holds, and
/// what those are worth, deducted from the return's refund.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct PointsTakeBack {
    /// Points taken from the member's account: the share due, as far as the account holds it.
    pub taken: i64,
    /// Points of the share due that the account no longer holds (spent since).
    pub short: i64,
    /// `short` at the points' value, deducted from the refund (never more than the refund).
    pub deducted: Cents,
}

/// Rule 21: a return refunding `refund` of an order that earned `earned` points for `due`
/// paid, `refunded_before` refunded by its earlier returns, takes back
/// `floor(earned × (R + q) / due) − floor(earned × R / due)` points; of them, what the member's
/// account (`held`, after this return's points given back) no longer holds is deducted from
/// the refund at `points_per_yuan` points a yuan, rounded up to the cent and at most the refund.
pub fn points_take_back(
    earned: i64,
    due: Money,
    refunded_before: Money,
    refund: Money,
    held: i64,
    points_per_yuan: i64,
) -> Result<PointsTakeBack, EngineError> {
    if earned < 0 {
        return Err(EngineError::input("earned", format_args!("must not be negative, got {earned}")));
    }
    let due = whole_cents("due", due)?;
    let before = whole_cents("refunded_before", refunded_before)?;
    let now = whole_cents("refund", refund)?;
    if held < 0 {
        return Err(EngineError::input("held", format_args!("must not be negative, got {held}")));
    }
    if points_per_yuan < 1 {
        return Err(EngineError::input("points_per_yuan", format_args!("must be at least 1, got {points_per_yuan}")));
    }
    let after = before.checked_add(now).ok_or_else(|| EngineError::out_of_range("refund"))?;
    if after > due {
        return Err(EngineError::input(
            "refund",
            format_args!("refunded_before + refund must not exceed due ({refunded_before} + {refund} > {due})", due = Cents(due)),
        ));
    }
    if due == 0 {
        return Ok(PointsTakeBack::default());
    }
    let earned = i128::from(earned);
    let share = |refunded: i128| earned.checked_mul(refunded).map(|product| product / due);
    let take = share(after).zip(share(before)).map(|(to, from)| to - from).ok_or_else(|| EngineError::out_of_range("earned"))?;
    let take = i64::try_from(take).map_err(|_| EngineError::out_of_range("earned"))?;
    let taken = take.min(held);
    let short = take - taken;
    // Cents, rounded up: `short` points at `points_per_yuan` a yuan are worth short × 100 / rate.
    let per_yuan = i128::from(points_per_yuan);
    let worth = (i128::from(short) * 100 + per_yuan - 1) / per_yuan;
    Ok(PointsTakeBack { taken, short, deducted: Cents(worth.min(now)) })
}

/// One cash-back tier (满额返现): an order whose goods come to `amount` earns `back`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CashbackTier {
    /// What the order's goods must come to, compared exactly.
    pub amount: Money,
    /// What the tier credits to the balance, cut by `floor2`.
    pub back: Money,
}

/// Rule 22: the cash back of an order whose goods come to `net` (what its lines paid, less what
/// returns refunded): the greatest `back` among the tiers `net` reaches (`amount <= net`), cut
/// by `floor2`; 0.00 below every tier.
pub fn cashback(tiers: &[CashbackTier], net: Money) -> Result<Cents, EngineError> {
    let mut best = Cents::ZERO;
    for (index, tier) in tiers.iter().enumerate() {
        if tier.amount.decimal() <= net.decimal() {
            let back = tier.back.floor_cents().ok_or_else(|| EngineError::out_of_range(format!("tiers[{index}].back")))?;
            best = best.max(back);
        }
    }
    Ok(best)
}

/// Rule 22: what a return refunding `refund` takes back of the cash back `held` that the order
/// was credited, its goods coming to `net_after` once the return is refunded: what `held` is
/// above the cash back of `net_after`, never below 0.00 and never more than `refund`.
pub fn cashback_take_back(tiers: &[CashbackTier], held: Money, net_after: Money, refund: Money) -> Result<Cents, EngineError> {
    let held = whole_cents("held", held)?;
    let refund = whole_cents("refund", refund)?;
    let still = cashback(tiers, net_after)?.0;
    Ok(Cents((held - still).clamp(0, refund)))
}

/// An amount that must be whole cents (a refund, what an order paid or was credited), in cents.
fn whole_cents(field: &str, amount: Money) -> Result<i128, EngineError> {
    if amount.decimal().scale() > 2 {
        return Err(EngineError::input(field, "more than two decimals"));
    }
    Ok(amount.floor_cents().ok_or_else(|| EngineError::out_of_range(field))?.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn money(text: &str) -> Money {
        Money::parse(text).unwrap()
    }

    #[test]
    fn refunds_add_up_to_what_was_paid() {
        let paid = Money::parse("10.00").unwrap();
        let parts: Vec<i128> = (0..3).map(|before| refund(paid, 3, before, 1).unwrap().0).collect();
        assert_eq!(parts, [333, 333, 334]);
        assert_eq!(refund(paid, 3, 0, 3).unwrap(), Cents(1000));
        assert_eq!(refund(Money::parse("1.005").unwrap(), 3, 0, 1).unwrap_err().to_string(), "paid: more than two decimals");
        assert_eq!(refund(paid, 3, 2, 2).unwrap_err().to_string(), "k: returned_before + k must not exceed number (2 + 2 > 3)");
    }

    fn tiers() -> Vec<CashbackTier> {
        [("1000", "20"), ("3000", "80"), ("5000", "150")]
            .map(|(amount, back)| CashbackTier { amount: money(amount), back: money(back) })
            .to_vec()
    }

    #[test]
    fn the_greatest_back_among_the_tiers_reached_is_earned() {
        assert_eq!(cashback(&tiers(), money("999.99")).unwrap(), Cents::ZERO);
        assert_eq!(cashback(&tiers(), money("1000")).unwrap(), Cents(2_000));
        assert_eq!(cashback(&tiers(), money("4999.99")).unwrap(), Cents(8_000));
        assert_eq!(cashback(&tiers(), money("8000")).unwrap(), Cents(15_000));
        assert_eq!(cashback(&[], money("8000")).unwrap(), Cents::ZERO);
        let odd = [CashbackTier { amount: money("10"), back: money("1.999") }];
        assert_eq!(cashback(&odd, money("10")).unwrap(), Cents(199));
    }

    #[test]
    fn a_return_takes_back_what_the_order_no_longer_earns_and_never_more_than_its_refund() {
        let take = |held, after, refund| cashback_take_back(&tiers(), money(held), money(after), money(refund)).unwrap();
        assert_eq!(take("80", "2500", "500"), Cents(6_000));
        assert_eq!(take("80", "3000", "100"), Cents::ZERO);
        assert_eq!(take("80", "2500", "10"), Cents(1_000));
        assert_eq!(take("20", "0", "1000"), Cents(2_000));
        let error = cashback_take_back(&tiers(), money("0.001"), money("0"), money("1")).unwrap_err();
        assert_eq!(error.to_string(), "held: more than two decimals");
    }
}
