//! Settlement at checkout (`docs/pricing.md`, rules 11–19): one coupon and one cash voucher
//! per order, chosen together, red packets and points up to a share of the amount, the shipping
//! fee, the amount due, and every deduction shared out to the lines in whole cents, which is what
//! a later return refunds (`returns.rs`).
//!
//! Money here is whole cents (`i128`), computed from the priced lines of [`crate::quote`] (`priced.rs`).

use serde::Serialize;

use crate::error::EngineError;
use crate::model::{CartInput, CashVoucher, Coupon, CouponKind, CouponScope, SettlementInput};
use crate::money::{Cents, Money};
use crate::priced::{LineQuote, Summary};
use crate::share::share_out;

/// What the member pays, and how each deduction lands on the lines.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Settlement {
    /// Rule 11: the goods amount, `totals.payable`.
    pub goods: Cents,
    /// Rule 12: every coupon given, in input order.
    pub coupons: Vec<CouponValue>,
    /// Rule 13: the coupon this order spends, chosen with the voucher.
    pub coupon: Option<Chosen>,
    /// Rule 14: every cash voucher given, in input order, as it stands after the chosen coupon.
    pub cash_vouchers: Vec<VoucherValue>,
    /// Rule 13: the voucher this order spends, chosen with the coupon.
    pub cash_voucher: Option<Chosen>,
    /// Rule 15.
    pub red_packet: Cents,
    /// Rule 16: the points spent and what they pay.
    pub points_used: i64,
    pub points_value: Cents,
    /// Rule 17.
    pub shipping_fee: Cents,
    /// Rule 18: what the member pays.
    pub due: Cents,
    /// Rule 19: one per buyable line, in input order.
    pub lines: Vec<LineSettlement>,
}

/// Rule 12: what a coupon would take off this cart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct CouponValue {
    pub id: i64,
    pub usable: bool,
    pub value: Cents,
    /// How much more of its lines' amount reaches its threshold.
    pub need: Cents,
}

/// Rule 14: what a cash voucher would take off this cart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct VoucherValue {
    pub id: i64,
    pub usable: bool,
    pub value: Cents,
}

/// The coupon or voucher an order spends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Chosen {
    pub id: i64,
    pub value: Cents,
}

/// Rule 19: one line's shares of each deduction, and what is left paid for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct LineSettlement {
    pub id: i64,
    pub coupon: Cents,
    pub cash_voucher: Cents,
    pub red_packet: Cents,
    pub points: Cents,
    pub paid: Cents,
}

/// Rules 11–19 for a priced cart (its lines carrying their rule 8 shares). Amounts are whole
/// cents in `i64` here (up to about 9.2 × 10^16 yuan; beyond is an out-of-range error): 64-bit
/// arithmetic is a fraction of the code 128-bit arithmetic is in WebAssembly.
#[inline(never)]
pub(crate) fn settle(cart: &CartInput, lines: &[LineQuote], summary: &Summary, input: &SettlementInput) -> Result<Settlement, EngineError> {
    settle_cents(cart, lines, summary, input).ok_or_else(|| EngineError::out_of_range("settlement"))?
}

/// Whole cents as `i64`.
fn small(cents: Cents) -> Option<i64> {
    i64::try_from(cents.0).ok()
}

/// One buyable line as settlement sees it.
struct Line {
    id: i64,
    net: i64,
    /// Bit `s` set when the line is a coupon line in scope `s` (0 all, 1 youx, 2 zy, 3 qx).
    scopes: u8,
}

fn settle_cents(
    cart: &CartInput,
    lines: &[LineQuote],
    summary: &Summary,
    input: &SettlementInput,
) -> Option<Result<Settlement, EngineError>> {
    // Rule 11.
    let goods = small(summary.totals.payable)?;
    let mut buyable = Vec::new();
    let mut bases = [0i64; 4];
    for (line, item) in lines.iter().zip(&cart.items) {
        if !line.buyable {
            continue;
        }
        let net = small(line.amount)?.checked_sub(small(line.goods_manjian_amount)?)?;
        let mut scopes = 0u8;
        if item.with_coupon {
            for scope in [CouponScope::All, CouponScope::Youx, CouponScope::Zy, CouponScope::Qx] {
                if scope.covers(item.effective_goods()) {
                    scopes |= 1 << scope as u8;
                    bases[scope as usize] = bases[scope as usize].checked_add(net)?;
                }
            }
        }
        buyable.push(Line { id: line.id, net, scopes });
    }

    // Rule 12.
    let mut coupons = Vec::with_capacity(input.coupons.len());
    for coupon in &input.coupons {
        coupons.push(coupon_value(coupon, bases[coupon.scope as usize], goods, input.now)?);
    }

    // Rules 13 and 14: the coupon and the voucher, chosen together; then every voucher as it
    // stands after the chosen coupon.
    let (coupon, cash_voucher) = match choose_pair(input, &coupons, goods)? {
        Ok(pair) => pair,
        Err(error) => return Some(Err(error)),
    };
    let after_coupon = goods - coupon.map_or(0, |(_, value)| value);
    let mut cash_vouchers = Vec::with_capacity(input.cash_vouchers.len());
    for voucher in &input.cash_vouchers {
        let (usable, value) = voucher_value(voucher, after_coupon, input.now)?;
        cash_vouchers.push(VoucherValue { id: voucher.id, usable, value: Cents(value.into()) });
    }
    let after_voucher = after_coupon - cash_voucher.map_or(0, |(_, value)| value);

    // Rule 15.
    let red_packet =
        if input.use_red_packet { share_of(after_voucher, input.red_packet_max_rate)?.min(small(input.red_packet_balance)?) } else { 0 };
    let after_red = after_voucher - red_packet;

    // Rule 16: the points the cap is worth, at most the balance, and what they pay.
    let (points_used, points_value) = if input.use_points {
        let per_yuan = input.points_per_yuan;
        let cap = share_of(after_red, input.points_max_rate)?;
        let points = (cap.checked_mul(per_yuan)? / 100).min(input.points_balance);
        let value = points.checked_mul(100)? / per_yuan;
        ((value.checked_mul(per_yuan)? + 99) / 100, value)
    } else {
        (0, 0)
    };

    // Rules 17 and 18.
    let shipping = &summary.shipping;
    let shipping_fee = if shipping.free_shipping || shipping.need.is_none() { 0 } else { small(input.shipping_fee)? };
    let due = after_red - points_value + shipping_fee;

    // Rule 19: each deduction over what is still unpaid on each line.
    let coupon_scope =
        coupon.and_then(|(id, _)| input.coupons.iter().find(|coupon| coupon.id == id)).map_or(0, |coupon| 1u8 << coupon.scope as u8);
    let mut unpaid: Vec<i64> = buyable.iter().map(|line| if line.scopes & coupon_scope != 0 { line.net } else { 0 }).collect();
    let coupon_shares = share_out(coupon.map_or(0, |(_, value)| value), &unpaid)?;
    for ((left, line), share) in unpaid.iter_mut().zip(&buyable).zip(&coupon_shares) {
        *left = line.net - share;
    }
    let voucher_shares = take(&mut unpaid, cash_voucher.map_or(0, |(_, value)| value))?;
    let red_shares = take(&mut unpaid, red_packet)?;
    let points_shares = take(&mut unpaid, points_value)?;
    let cents = |value: &i64| Cents((*value).into());
    let settled = buyable
        .iter()
        .zip(&coupon_shares)
        .zip(&voucher_shares)
        .zip(&red_shares)
        .zip(&points_shares)
        .zip(&unpaid)
        .map(|(((((line, coupon), voucher), red), points), paid)| LineSettlement {
            id: line.id,
            coupon: cents(coupon),
            cash_voucher: cents(voucher),
            red_packet: cents(red),
            points: cents(points),
            paid: cents(paid),
        })
        .collect();
    let chosen = |chosen: Option<(i64, i64)>| chosen.map(|(id, value)| Chosen { id, value: Cents(value.into()) });
    Some(Ok(Settlement {
        goods: Cents(goods.into()),
        coupons,
        coupon: chosen(coupon),
        cash_vouchers,
        cash_voucher: chosen(cash_voucher),
        red_packet: Cents(red_packet.into()),
        points_used,
        points_value: Cents(points_value.into()),
        shipping_fee: Cents(shipping_fee.into()),
        due: Cents(due.into()),
        lines: settled,
    }))
}

/// Shares `value` over what is unpaid on each line and takes the shares off it.
fn take(unpaid: &mut [i64], value: i64) -> Option<Vec<i64>> {
    let shares = share_out(value, unpaid)?;
    for (left, share) in unpaid.iter_mut().zip(&shares) {
        *left -= share;
    }
    Some(shares)
}

/// Rule 12's validity: no `now`, or `starts_at <= now < ends_at` (each bound when given).
fn valid(now: Option<i64>, starts_at: Option<i64>, ends_at: Option<i64>) -> bool {
    now.is_none_or(|now| starts_at.is_none_or(|start| start <= now) && ends_at.is_none_or(|end| now < end))
}

/// `amount >= threshold`, exactly; `None` beyond exact arithmetic.
fn reaches(amount: i64, threshold: Money) -> Option<bool> {
    Some(!threshold.exact().checked_sub(Cents(amount.into()).exact())?.is_positive())
}

/// Rule 12 for one coupon whose lines amount to `base`.
fn coupon_value(coupon: &Coupon, base: i64, goods: i64, now: Option<i64>) -> Option<CouponValue> {
    let need = small(coupon.threshold.exact().checked_sub(Cents(base.into()).exact())?.floor_cents()?)?.max(0);
    let usable = valid(now, coupon.starts_at, coupon.ends_at) && base > 0 && reaches(base, coupon.threshold)?;
    let value = if usable {
        let value = match coupon.kind {
            CouponKind::Reduce { reduce } => small(reduce)?.min(base),
            CouponKind::Rate { rate, max_reduce } => {
                let off = small(Money::ONE.exact().checked_sub(rate.exact())?.checked_mul(Cents(base.into()).exact())?.floor_cents()?)?;
                match max_reduce {
                    Some(max) => off.min(small(max)?),
                    None => off,
                }
            }
        };
        value.min(goods)
    } else {
        0
    };
    Some(CouponValue { id: coupon.id, usable, value: Cents(value.into()), need: Cents(need.into()) })
}

/// Rule 14 for one voucher when `after_coupon` is left: whether it is usable, and its value.
fn voucher_value(voucher: &CashVoucher, after_coupon: i64, now: Option<i64>) -> Option<(bool, i64)> {
    let usable = valid(now, voucher.starts_at, voucher.ends_at) && after_coupon > 0 && reaches(after_coupon, voucher.threshold)?;
    Some((usable, if usable { small(voucher.amount)?.min(after_coupon) } else { 0 }))
}

/// A coupon or voucher that may be spent, as `(id, value, ends_at)`; `None` is "none".
type Candidate = Option<(i64, i64, Option<i64>)>;

/// A candidate's place in rule 13's order, the greatest first: its value, then the earliest
/// `ends_at` (absent: the latest), then any before none, then the smaller id.
type Rank = (i64, i64, bool, i64);

fn rank(candidate: Candidate) -> Rank {
    match candidate {
        Some((id, value, ends_at)) => (value, -ends_at.unwrap_or(i64::MAX), true, -id),
        None => (0, -i64::MAX, false, 0),
    }
}

/// The coupon and the cash voucher to spend, each as `(id, value)`.
type Pair = (Option<(i64, i64)>, Option<(i64, i64)>);

/// Rules 13 and 14: the coupon and the voucher chosen together, as the pair that takes the
/// most off (ties by [`rank`], the coupon's first). `coupon_id` (`cash_voucher_id`) absent:
/// every usable coupon (voucher usable after that coupon) above 0.00, and none; 0: none; else
/// that one alone. A given coupon must be usable, a given voucher usable after some candidate
/// coupon. `None` beyond 64-bit arithmetic.
fn choose_pair(input: &SettlementInput, coupons: &[CouponValue], goods: i64) -> Option<Result<Pair, EngineError>> {
    let not_usable = |field: &str, id: i64| Some(Err(EngineError::input(format!("settlement.{field}"), format_args!("not usable: {id}"))));
    let mut coupon_candidates: Vec<Candidate> = Vec::with_capacity(coupons.len() + 1);
    for (value, coupon) in coupons.iter().zip(&input.coupons) {
        let wanted = match input.coupon_id {
            Some(id) => id == coupon.id,
            None => value.usable && value.value.0 > 0,
        };
        if wanted {
            if !value.usable {
                return not_usable("coupon_id", coupon.id);
            }
            coupon_candidates.push(Some((coupon.id, small(value.value)?, coupon.ends_at)));
        }
    }
    match input.coupon_id {
        None | Some(0) => coupon_candidates.push(None),
        Some(id) if coupon_candidates.is_empty() => return not_usable("coupon_id", id),
        Some(_) => {}
    }

    // (coupon value + voucher value, the coupon's rank, the voucher's rank), greatest wins.
    let mut best: Option<((i64, Rank, Rank), Pair)> = None;
    for &coupon in &coupon_candidates {
        let coupon_value = coupon.map_or(0, |(_, value, _)| value);
        let after_coupon = goods - coupon_value;
        let mut voucher_candidates: Vec<Candidate> = Vec::new();
        for voucher in &input.cash_vouchers {
            let (usable, value) = voucher_value(voucher, after_coupon, input.now)?;
            let wanted = match input.cash_voucher_id {
                Some(id) => id == voucher.id && usable,
                None => usable && value > 0,
            };
            if wanted {
                voucher_candidates.push(Some((voucher.id, value, voucher.ends_at)));
            }
        }
        if matches!(input.cash_voucher_id, None | Some(0)) {
            voucher_candidates.push(None);
        }
        for voucher in voucher_candidates {
            let key = (coupon_value.checked_add(voucher.map_or(0, |(_, value, _)| value))?, rank(coupon), rank(voucher));
            if best.as_ref().is_none_or(|(best_key, _)| key > *best_key) {
                let spent = |candidate: Candidate| candidate.map(|(id, value, _)| (id, value));
                best = Some((key, (spent(coupon), spent(voucher))));
            }
        }
    }
    match best {
        Some((_, pair)) => Some(Ok(pair)),
        None => not_usable("cash_voucher_id", input.cash_voucher_id.unwrap_or(0)),
    }
}

/// `floor2(amount × rate)` in cents.
fn share_of(amount: i64, rate: Money) -> Option<i64> {
    small(Cents(amount.into()).exact().checked_mul(rate.exact())?.floor_cents()?)
}

/// A store-wide discount's price (全场折扣, such as the 94折 of `/welfare`): `floor2(price ×
/// rate)` for `0 < rate ≤ 1`, so the buyer never pays more than the rate says. The origin
/// hands the engine this as the line's `price` (and each ladder step's), so every runtime
/// quotes the same discounted cart.
pub fn rate_price(price: Money, rate: Money) -> Result<Money, EngineError> {
    let exact = rate.exact();
    if exact.is_zero() || rate.decimal() > rust_decimal::Decimal::ONE {
        return Err(EngineError::input("rate", format_args!("must be above 0 and at most 1, got {rate}")));
    }
    let cents =
        price.exact().checked_mul(exact).and_then(|amount| amount.floor_cents()).ok_or_else(|| EngineError::out_of_range("price"))?;
    let decimal = cents.to_decimal().ok_or_else(|| EngineError::out_of_range("price"))?;
    Money::from_decimal(decimal).map_err(|_| EngineError::out_of_range("price"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rate_price_is_floored_to_the_cent_and_refuses_rates_outside_zero_to_one() {
        let money = |text: &str| Money::parse(text).unwrap();
        assert_eq!(rate_price(money("12.50"), money("0.94")).unwrap().to_string(), "11.75");
        // 9.99 × 0.94 = 9.3906: the buyer pays 9.39.
        assert_eq!(rate_price(money("9.99"), money("0.94")).unwrap().to_string(), "9.39");
        assert_eq!(rate_price(money("0.01"), money("0.94")).unwrap().to_string(), "0.00");
        assert_eq!(rate_price(money("3.1415"), money("1")).unwrap().to_string(), "3.14");
        for rate in ["0", "1.01"] {
            let error = rate_price(money("10"), money(rate)).unwrap_err();
            assert!(error.to_string().contains("rate"), "{error}");
        }
    }
}
