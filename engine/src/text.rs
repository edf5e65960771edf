//! The sentences the shop writes about prices, written once so that the cart page, the goods
//! page and the origin's answers say the same thing (`docs/pricing.md`, "Words"): the
//! full-reduction title ("满500减50") and the hints that tell a buyer how far they are from a
//! ladder price, a tier or free shipping.
//!
//! Amounts shown to the buyer are written as the shop shows money: `¥` and two decimals, cut
//! by `floor2` (a unit price of 11.609 shows as ¥11.60). Titles keep the amounts as given,
//! without trailing zeros (`满500减50`, `满99.5减10`).

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
}
