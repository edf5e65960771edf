//! What rules 1–10 answer (`docs/pricing.md`): each priced line, the totals, the counts, the
//! full-reduction tiers and the shipping. `quote.rs` computes them and the settlement
//! (`settle.rs`, rules 11–19) reads them; they live here so that neither of the two imports
//! the other.

use serde::Serialize;

use crate::money::{Cents, Money};

/// Everything of a quote but its lines: what the page needs after each keystroke.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Summary {
    pub totals: Totals,
    pub counts: Counts,
    pub manjian_tiers: Vec<TierStatus>,
    pub shipping: Shipping,
}

/// One line of the quote.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LineQuote {
    pub id: i64,
    /// Rule 2: 0 whatever came in when the goods cannot be bought or have no stock.
    pub is_selected: bool,
    /// The effective goods can be bought and has stock, whatever the selection: the line's
    /// tick box is offered.
    pub sellable: bool,
    /// Rule 1: sellable and selected; counts toward the totals.
    pub buyable: bool,
    /// Rule 10: quantity above stock.
    pub over_stock: bool,
    /// Rule 3: the price each unit is charged.
    pub unit_price: Money,
    /// Rule 3: where that price comes from.
    pub price_kind: PriceKind,
    /// Rule 5: `floor2(unit_price × number)`.
    pub amount: Cents,
    /// Rule 5: `floor2((base_price − unit_price) × number)` when the list price is higher.
    pub savings: Cents,
    /// Rule 8: this line's share of the full-reduction discount (0 but for the activity's
    /// buyable lines). Filled in once the whole cart is priced (`quote::share_discount`).
    pub goods_manjian_amount: Cents,
    pub(crate) ladder: LadderSpan,
    /// Rule 9: the single-item free-shipping minimum, for goods that have one.
    pub free_shipping_hint: Option<FreeShippingHint>,
}

/// Rule 3: why a line costs what it costs — the price it was added at, a ladder entry, the
/// flash sale's price or the combination's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PriceKind {
    /// The line's own `price` (no ladder entry reached).
    Regular = 0,
    /// The ladder entry the quantity reached, at a price other than the line's own (an entry
    /// at the line's own price explains nothing to the buyer: that is `Regular`).
    Ladder = 1,
    /// A flash-sale line (type 1): its `price`.
    FlashSale = 2,
    /// A combination line (type 3): its `price`.
    Combination = 3,
}

#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct LadderSpan {
    pub(crate) start: u32,
    pub(crate) len: u32,
}

/// Rule 4: one row of the ladder display.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct LadderRow {
    pub number: u32,
    /// Bands only (`ladder_price_type` 1): the band's last quantity, `null` for the last band.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max: Option<Option<u32>>,
    pub price: Money,
    pub reached: bool,
    /// Units still to add to reach this row.
    pub need: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct FreeShippingHint {
    pub qg_number: i64,
    pub reached: bool,
}

/// Rule 6: sums of line amounts over buyable lines.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Totals {
    pub total: Cents,
    pub coupon: Cents,
    pub non_coupon: Cents,
    pub youx: Cents,
    pub zy: Cents,
    pub qx: Cents,
    pub manjian: Cents,
    pub discount: Cents,
    pub payable: Cents,
}

/// Rule 7.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Counts {
    pub items: u32,
    pub selected: u32,
    pub units: u64,
    pub badge: u32,
}

/// Rule 8: one full-reduction tier and how far the cart is from it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct TierStatus {
    pub amount: Money,
    pub reduce: Money,
    pub status: u8,
    pub need: Cents,
}

/// Rule 9.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Shipping {
    pub free_shipping: bool,
    pub need: Option<Cents>,
}
