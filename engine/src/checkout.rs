//! What checkout refuses (`docs/api.md`, "Orders and Idempotency-Key"): the edge asks this
//! before an order exists, the origin again inside the order transaction. Pure, like the rest
//! of the engine: the cart and the chosen lines in, the quote of those lines or a refusal out.

use std::fmt;

use crate::EngineError;
use crate::model::CartInput;
use crate::money::Money;
use crate::quote::{CartQuote, quote};

/// Why an order cannot be placed as asked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// No line was chosen.
    NothingSelected,
    /// A chosen id is not a line of this cart.
    NotInCart { id: i64 },
    /// A chosen line's goods cannot be bought now (off sale or no stock).
    NotBuyable { id: i64 },
    /// A chosen line asks for more than the stock.
    OverStock { id: i64 },
    /// The payable the buyer saw is not the payable now.
    PriceChanged { expected: Money, payable: String },
    /// The chosen coupon cannot be used on these lines (rules 12–13).
    CouponNotUsable { id: i64 },
    /// The chosen cash voucher cannot be used on these lines (rule 14).
    VoucherNotUsable { id: i64 },
    /// The amount due the buyer saw is not the amount due now (rule 18).
    DueChanged { expected: Money, due: String },
    /// The cart itself is not valid engine input.
    Invalid(EngineError),
}

impl Refusal {
    /// The message the buyer reads (Chinese, as the shop speaks).
    pub fn message(&self) -> &'static str {
        match self {
            Refusal::NothingSelected => "请选择要结算的商品",
            Refusal::NotInCart { .. } => "购物车中没有该商品，请刷新购物车后重试",
            Refusal::NotBuyable { .. } => "部分商品暂不可购买，请刷新购物车后重试",
            Refusal::OverStock { .. } => "部分商品库存不足，请修改数量后重试",
            Refusal::PriceChanged { .. } => "商品价格已变动，请刷新购物车后重试",
            Refusal::CouponNotUsable { .. } => "所选优惠券不可用，请重新选择",
            Refusal::VoucherNotUsable { .. } => "所选现金券不可用，请重新选择",
            Refusal::DueChanged { .. } => "应付金额已变动，请确认后重新提交",
            Refusal::Invalid(_) => "购物车数据有误，请刷新后重试",
        }
    }

    /// The request field the refusal is about.
    pub fn field(&self) -> &'static str {
        match self {
            Refusal::PriceChanged { .. } => "expected_payable",
            Refusal::CouponNotUsable { .. } => "coupon_id",
            Refusal::VoucherNotUsable { .. } => "cash_voucher_id",
            Refusal::DueChanged { .. } => "expected_due",
            Refusal::Invalid(_) => "cart",
            _ => "ids",
        }
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::NothingSelected => f.write_str("no line chosen"),
            Refusal::NotInCart { id } => write!(f, "line {id} is not in the cart"),
            Refusal::NotBuyable { id } => write!(f, "line {id} cannot be bought"),
            Refusal::OverStock { id } => write!(f, "line {id} exceeds the stock"),
            Refusal::PriceChanged { expected, payable } => write!(f, "expected payable {expected}, now {payable}"),
            Refusal::CouponNotUsable { id } => write!(f, "coupon {id} is not usable"),
            Refusal::VoucherNotUsable { id } => write!(f, "cash voucher {id} is not usable"),
            Refusal::DueChanged { expected, due } => write!(f, "expected due {expected}, now {due}"),
            Refusal::Invalid(error) => write!(f, "invalid cart: {error}"),
        }
    }
}

impl std::error::Error for Refusal {}

/// What the buyer saw before ordering: the order is refused when the cart now says otherwise.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Expected {
    /// The goods' payable (rule 6).
    pub payable: Option<Money>,
    /// The amount due after the settlement (rule 18); checked only when the cart is settled.
    pub due: Option<Money>,
}

/// The cart an order of the lines `ids` is: those lines alone (in the cart's order, each once),
/// all selected, with the cart's shipping threshold, tiers and settlement.
pub fn chosen(cart: &CartInput, ids: &[i64]) -> CartInput {
    let mut chosen = CartInput {
        items: cart.items.iter().filter(|item| ids.contains(&item.id)).cloned().collect(),
        shipping_data: cart.shipping_data.clone(),
        activity_data: cart.activity_data.clone(),
        settlement: cart.settlement.clone(),
    };
    for item in &mut chosen.items {
        item.is_selected = true;
    }
    chosen
}

/// Checks an order of the lines `ids` of `cart` and answers their quote: the chosen lines,
/// all selected, priced alone, and settled with the cart's settlement when it has one (a
/// chosen coupon or voucher must be usable on these lines). Each expected amount given must
/// equal the quote's.
pub fn check(cart: &CartInput, ids: &[i64], expected: Expected) -> Result<CartQuote, Refusal> {
    if ids.is_empty() {
        return Err(Refusal::NothingSelected);
    }
    if let Some(&id) = ids.iter().find(|id| !cart.items.iter().any(|item| item.id == **id)) {
        return Err(Refusal::NotInCart { id });
    }
    let chosen = chosen(cart, ids);
    let quote = quote(&chosen).map_err(|error| match (error.path(), &chosen.settlement) {
        (Some("settlement.coupon_id"), Some(settlement)) => Refusal::CouponNotUsable { id: settlement.coupon_id.unwrap_or(0) },
        (Some("settlement.cash_voucher_id"), Some(settlement)) => Refusal::VoucherNotUsable { id: settlement.cash_voucher_id.unwrap_or(0) },
        _ => Refusal::Invalid(error),
    })?;
    if let Some(line) = quote.lines.iter().find(|line| !line.buyable) {
        return Err(Refusal::NotBuyable { id: line.id });
    }
    if let Some(line) = quote.lines.iter().find(|line| line.over_stock) {
        return Err(Refusal::OverStock { id: line.id });
    }
    if let Some(expected) = expected.payable {
        let payable = quote.summary.totals.payable;
        if !payable.exact_eq(expected) {
            return Err(Refusal::PriceChanged { expected, payable: payable.to_string() });
        }
    }
    if let (Some(expected), Some(settlement)) = (expected.due, &quote.settlement)
        && !settlement.due.exact_eq(expected)
    {
        return Err(Refusal::DueChanged { expected, due: settlement.due.to_string() });
    }
    Ok(quote)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cart_from_json;

    fn cart() -> CartInput {
        cart_from_json(
            r#"{ "items": [
                { "id": 1, "number": 2, "price": "10.00", "is_selected": 1, "goods": { "id": 1, "is_buy": 1, "number": 5 } },
                { "id": 2, "number": 9, "price": "1.50", "is_selected": 0, "goods": { "id": 2, "is_buy": 1, "number": 5 } },
                { "id": 3, "number": 1, "price": "3.00", "is_selected": 1, "goods": { "id": 3, "is_buy": 0, "number": 5 } }
            ] }"#,
        )
        .unwrap()
    }

    fn money(text: &str) -> Money {
        Money::parse(text).unwrap()
    }

    fn payable(text: &str) -> Expected {
        Expected { payable: Some(money(text)), due: None }
    }

    #[test]
    fn quotes_the_chosen_lines_alone() {
        let quote = check(&cart(), &[1], payable("20")).unwrap();
        assert_eq!(quote.lines.len(), 1);
        assert_eq!(quote.summary.totals.payable.to_string(), "20.00");
        assert!(check(&cart(), &[1], Expected::default()).is_ok());
    }

    #[test]
    fn refuses_what_cannot_be_ordered() {
        assert_eq!(check(&cart(), &[], Expected::default()), Err(Refusal::NothingSelected));
        assert_eq!(check(&cart(), &[1, 7], Expected::default()), Err(Refusal::NotInCart { id: 7 }));
        assert_eq!(check(&cart(), &[3], Expected::default()), Err(Refusal::NotBuyable { id: 3 }));
        assert_eq!(check(&cart(), &[1, 2], Expected::default()), Err(Refusal::OverStock { id: 2 }));
        let changed = check(&cart(), &[1], payable("19.99")).unwrap_err();
        assert_eq!(changed.message(), "商品价格已变动，请刷新购物车后重试");
        assert_eq!(changed.field(), "expected_payable");
    }
}
