//! The sentences the shop writes about prices, written once so that the cart page, the goods
//! page and the origin's answers say the same thing (`docs/pricing.md`, "Words"): the
//! full-reduction title ("满500减50"), the hints that tell a buyer how far they are from a
//! ladder price, a tier or free shipping, and a discount's label ("9.4折", rule 23).
//!
//! Amounts shown to the buyer are written as the shop shows money: `¥` and two decimals, cut
//! by `floor2` (a unit price of 11.609 shows as ¥11.60). Titles keep the amounts as given,
//! without trailing zeros (`满500减50`, `满99.5减10`).

use rust_decimal::Decimal;

use crate::error::EngineError;
use crate::money::{Cents, Money};

/// An amount that can be shown to the buyer.
pub trait Amount: Copy {
    /// The amount cut to whole cents by `floor2`.
    fn floor2(self) -> Cents;
}

impl Amount for Money {
    fn floor2(self) -> Cents {
        // A `Money` is at most 28 significant digits, which whole cents always hold.
        self.exact().floor_cents().unwrap_or(Cents::ZERO)
    }
}

impl Amount for Cents {
    fn floor2(self) -> Cents {
        self
    }
}

/// `¥12.30`: the amount with two decimals, cut by `floor2`.
pub fn yuan(amount: impl Amount) -> String {
    let mut out = Vec::with_capacity(16);
    out.extend_from_slice("¥".as_bytes());
    amount.floor2().write_to(&mut out);
    String::from_utf8(out).unwrap_or_default()
}

/// A given amount without trailing zeros: `500`, `99.5`, `0.01`.
fn plain(money: Money) -> String {
    let mut out = Vec::with_capacity(16);
    money.write_plain(&mut out);
    String::from_utf8(out).unwrap_or_default()
}

/// The title of a full-reduction tier: `满500减50`.
pub fn manjian_title(amount: Money, reduce: Money) -> String {
    format!("满{}减{}", plain(amount), plain(reduce))
}

/// How many more units reach a ladder price: `再买 3 盒 享 ¥11.50`.
pub fn ladder_hint(need: u32, unit: &str, price: impl Amount) -> String {
    format!("再买 {need} {unit} 享 {}", yuan(price))
}

/// How much more reaches a full-reduction tier: `再买 ¥80.00 可减 ¥20.00`.
pub fn tier_hint(need: impl Amount, reduce: impl Amount) -> String {
    format!("再买 {} 可减 {}", yuan(need), yuan(reduce))
}

/// How much more ships free: `还差 ¥120.00 免运费`.
pub fn shipping_hint(need: impl Amount) -> String {
    format!("还差 {} 免运费", yuan(need))
}

/// Rule 23: a rate as a Chinese buyer reads it, in tenths of the price (折): `0.94` is `9.4折`,
/// `0.9` is `9折`, `0.85` is `8.5折`; a rate of 1 takes nothing off and is `不打折`. A rate of
/// 0, or above 1, is an error.
pub fn discount_label(rate: Money) -> Result<String, EngineError> {
    if rate.is_zero() || rate.decimal() > Decimal::ONE {
        return Err(EngineError::input("rate", format_args!("must be above 0 and at most 1, got {rate}")));
    }
    if rate.decimal() == Decimal::ONE {
        return Ok("不打折".to_owned());
    }
    // Tenths of the price: the decimal point one place to the right. Moving it, rather than
    // multiplying by ten, keeps the Decimal multiplication (several KB) out of the WebAssembly.
    let (mantissa, scale) = (rate.decimal().mantissa(), rate.decimal().scale());
    let tenths = match scale {
        0 => mantissa.checked_mul(10).and_then(|mantissa| Decimal::try_from_i128_with_scale(mantissa, 0).ok()),
        _ => Decimal::try_from_i128_with_scale(mantissa, scale - 1).ok(),
    };
    let tenths = tenths.and_then(|tenths| Money::from_decimal(tenths).ok()).ok_or_else(|| EngineError::out_of_range("rate"))?;
    Ok(format!("{}折", plain(tenths)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn money(text: &str) -> Money {
        Money::parse(text).unwrap()
    }

    #[test]
    fn titles_keep_the_amounts_as_given() {
        assert_eq!(manjian_title(money("500.00"), money("50")), "满500减50");
        assert_eq!(manjian_title(money("99.50"), money("0.5")), "满99.5减0.5");
        assert_eq!(manjian_title(money("1000"), money("0")), "满1000减0");
    }

    #[test]
    fn hints_show_money_as_the_shop_does() {
        assert_eq!(ladder_hint(3, "盒", money("11.609")), "再买 3 盒 享 ¥11.60");
        assert_eq!(ladder_hint(10, "瓶", money("8")), "再买 10 瓶 享 ¥8.00");
        assert_eq!(tier_hint(Cents(8_000), money("20")), "再买 ¥80.00 可减 ¥20.00");
        assert_eq!(shipping_hint(Cents(12_005)), "还差 ¥120.05 免运费");
        assert_eq!(yuan(Cents(0)), "¥0.00");
        assert_eq!(yuan(money("0.009")), "¥0.00");
    }

    #[test]
    fn a_discount_reads_in_tenths_of_the_price() {
        let label = |rate: &str| discount_label(money(rate)).map_err(|error| error.to_string());
        assert_eq!(label("0.94").unwrap(), "9.4折");
        assert_eq!(label("0.9").unwrap(), "9折");
        assert_eq!(label("0.90").unwrap(), "9折");
        assert_eq!(label("0.85").unwrap(), "8.5折");
        assert_eq!(label("0.945").unwrap(), "9.45折");
        assert_eq!(label("0.05").unwrap(), "0.5折");
        assert_eq!(label("1").unwrap(), "不打折");
        assert_eq!(label("0").unwrap_err(), "rate: must be above 0 and at most 1, got 0.00");
        assert_eq!(label("1.5").unwrap_err(), "rate: must be above 0 and at most 1, got 1.50");
    }
}
