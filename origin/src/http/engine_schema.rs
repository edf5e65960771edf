//! The engine's values as the OpenAPI document describes them: the cart's quote and the cart
//! as the engine's input. The engine has no utoipa, so these mirrors exist for the schema only
//! (`#[schema(value_type = …)]` on the field holding the engine's value); answers serialize the
//! engine's own values. Money is a decimal string (`"12.30"`), flags are 0 or 1 where the
//! engine writes them so. Kept in step with `engine/src/quote.rs` and `engine/src/model.rs`.

#![allow(dead_code)]

use utoipa::ToSchema;

/// `engine::CartQuote`: the engine's answer for one cart (`docs/pricing.md`).
#[derive(ToSchema)]
pub struct CartQuote {
    /// One per input line, in input order.
    lines: Vec<LineQuote>,
    totals: Totals,
    counts: Counts,
    /// Every tier of the cart's full-reduction activity and how far the cart is from it.
    manjian_tiers: Vec<TierStatus>,
    shipping: QuoteShipping,
}

/// One line of the quote.
#[derive(ToSchema)]
pub struct LineQuote {
    id: i64,
    /// 0 whatever came in when the goods cannot be bought or have no stock.
    #[schema(minimum = 0, maximum = 1)]
    is_selected: u8,
    /// Counts toward the totals.
    buyable: bool,
    /// Quantity above stock.
    over_stock: bool,
    /// The price each unit is charged.
    #[schema(example = "12.30")]
    unit_price: String,
    /// Where the unit price comes from.
    price_kind: PriceKind,
    #[schema(example = "24.60")]
    amount: String,
    #[schema(example = "0.00")]
    savings: String,
    /// The ladder display.
    ladder: Vec<LadderRow>,
    /// The single-item free-shipping minimum, for goods that have one.
    #[schema(required = true)]
    free_shipping_hint: Option<FreeShippingHint>,
}

/// Why a line costs what it costs: its own price, a ladder entry, a flash sale, a combination.
#[derive(ToSchema)]
#[schema(rename_all = "snake_case")]
pub enum PriceKind {
    Regular,
    Ladder,
    FlashSale,
    Combination,
}

/// One row of a line's ladder display.
#[derive(ToSchema)]
pub struct LadderRow {
    number: u32,
    /// Bands only (`ladder_price_type` 1): the band's last quantity, `null` for the last band;
    /// absent for minimum-quantity ladders.
    #[schema(required = false)]
    max: Option<u32>,
    #[schema(example = "11.80")]
    price: String,
    reached: bool,
    /// Units still to add to reach this row.
    need: u32,
}

#[derive(ToSchema)]
pub struct FreeShippingHint {
    qg_number: i64,
    reached: bool,
}

/// Sums of line amounts over buyable lines, in yuan with two decimals.
#[derive(ToSchema)]
pub struct Totals {
    #[schema(example = "120.00")]
    total: String,
    coupon: String,
    non_coupon: String,
    youx: String,
    zy: String,
    qx: String,
    manjian: String,
    discount: String,
    #[schema(example = "110.00")]
    payable: String,
}

#[derive(ToSchema)]
pub struct Counts {
    items: u32,
    selected: u32,
    units: u64,
    /// The cart badge's count (the header shows `99+` above 99).
    badge: u32,
}

/// One full-reduction tier and how far the cart is from it.
#[derive(ToSchema)]
pub struct TierStatus {
    #[schema(example = "500.00")]
    amount: String,
    #[schema(example = "50.00")]
    reduce: String,
    /// 1 reached, 0 not yet.
    status: u8,
    #[schema(example = "80.00")]
    need: String,
}

/// Free shipping: reached, or what is still needed.
#[derive(ToSchema)]
pub struct QuoteShipping {
    free_shipping: bool,
    #[schema(required = true)]
    need: Option<String>,
}

/// `engine::CartInput`: one cart as the engine reads it (`pricing.md` §Input).
#[derive(ToSchema)]
pub struct EngineCartInput {
    items: Vec<EngineCartItem>,
    shipping_data: EngineShippingData,
    activity_data: EngineActivityData,
}

/// One cart line as the engine reads it.
#[derive(ToSchema)]
pub struct EngineCartItem {
    id: i64,
    /// 1 秒杀 flash sale, 3 组合购 combination, anything else normal.
    #[schema(required = true, rename = "type")]
    line_type: Option<i64>,
    number: u32,
    #[schema(example = "12.30")]
    price: String,
    #[schema(minimum = 0, maximum = 1)]
    is_selected: u8,
    #[schema(minimum = 0, maximum = 1)]
    with_coupon: u8,
    goods_manjian_id: i64,
    #[schema(example = "0.00")]
    goods_manjian_amount: String,
    goods: EngineGoods,
    /// The combination, priced instead of `goods` on a combination line; absent otherwise.
    #[schema(required = false)]
    combination: Option<EngineGoods>,
}

/// What the engine needs to know of the goods on a line.
#[derive(ToSchema)]
pub struct EngineGoods {
    id: i64,
    #[schema(minimum = 0, maximum = 1)]
    is_buy: u8,
    /// Stock.
    number: i64,
    #[schema(minimum = 0, maximum = 1)]
    is_youx: u8,
    #[schema(required = true, rename = "type")]
    goods_type: Option<i64>,
    #[schema(minimum = 0, maximum = 1)]
    is_dpby: u8,
    qg_number: i64,
    /// List price; absent when unknown.
    #[schema(required = false)]
    base_price: Option<String>,
    ladder_price: Vec<EngineLadderStep>,
    #[schema(required = true)]
    ladder_price_type: Option<i64>,
}

/// One ladder entry: from `number` units, `price` each.
#[derive(ToSchema)]
pub struct EngineLadderStep {
    number: u32,
    #[schema(example = "11.80")]
    price: String,
}

#[derive(ToSchema)]
pub struct EngineShippingData {
    #[schema(example = "800.00")]
    shipping_amount: String,
    #[schema(example = "0.00")]
    no_trans_order_amount: String,
}

#[derive(ToSchema)]
pub struct EngineActivityData {
    manjians: Vec<EngineManjianTier>,
}

#[derive(ToSchema)]
pub struct EngineManjianTier {
    #[schema(example = "500.00")]
    amount: String,
    #[schema(required = false)]
    reduce: Option<String>,
}
