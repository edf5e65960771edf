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
    /// Every tier of the cart's full-reduction activity and how far the activity's lines are
    /// from it.
    manjian_tiers: Vec<TierStatus>,
    shipping: QuoteShipping,
    /// What the member pays (rules 11–19): present when the cart was settled (checkout).
    #[schema(required = false)]
    settlement: Option<Settlement>,
}

/// The settlement of an order (`docs/pricing.md`, rules 11–19), money in yuan with two decimals.
#[derive(ToSchema)]
pub struct Settlement {
    /// The goods amount (the quote's payable).
    #[schema(example = "520.00")]
    goods: String,
    /// Every coupon of the member's, in the order given.
    coupons: Vec<CouponValue>,
    /// The coupon this order spends, if any, chosen with the cash voucher: the pair that takes
    /// the most off.
    #[schema(required = true)]
    coupon: Option<Chosen>,
    /// Every cash voucher of the member's, in the order given, as it stands after the chosen
    /// coupon.
    cash_vouchers: Vec<VoucherValue>,
    /// The cash voucher this order spends, if any, chosen with the coupon.
    #[schema(required = true)]
    cash_voucher: Option<Chosen>,
    #[schema(example = "5.00")]
    red_packet: String,
    /// Points spent.
    points_used: i64,
    /// What the points pay.
    #[schema(example = "3.00")]
    points_value: String,
    #[schema(example = "0.00")]
    shipping_fee: String,
    /// What the member pays.
    #[schema(example = "492.00")]
    due: String,
    /// One per buyable line: its share of every deduction and what is left paid for it.
    lines: Vec<LineSettlement>,
}

/// What a coupon would take off this order.
#[derive(ToSchema)]
pub struct CouponValue {
    id: i64,
    usable: bool,
    #[schema(example = "20.00")]
    value: String,
    /// How much more of its lines' amount reaches its threshold.
    #[schema(example = "0.00")]
    need: String,
}

/// What a cash voucher would take off this order.
#[derive(ToSchema)]
pub struct VoucherValue {
    id: i64,
    usable: bool,
    #[schema(example = "10.00")]
    value: String,
}

/// The coupon or cash voucher an order spends.
#[derive(ToSchema)]
pub struct Chosen {
    id: i64,
    #[schema(example = "20.00")]
    value: String,
}

/// One line's shares of each deduction, and what is left paid for it (what a return refunds).
#[derive(ToSchema)]
pub struct LineSettlement {
    id: i64,
    coupon: String,
    cash_voucher: String,
    red_packet: String,
    points: String,
    #[schema(example = "98.40")]
    paid: String,
}

/// One line of the quote.
#[derive(ToSchema)]
pub struct LineQuote {
    id: i64,
    /// 0 whatever came in when the goods cannot be bought or have no stock.
    #[schema(minimum = 0, maximum = 1)]
    is_selected: u8,
    /// The goods can be bought and has stock, whatever the selection: the line's tick box is
    /// offered (unsellable lines are greyed, 暂不可购买).
    sellable: bool,
    /// Sellable and selected: counts toward the totals.
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
    /// This line's share of the full-reduction discount ("0.00" outside the activity).
    #[schema(example = "0.00")]
    goods_manjian_amount: String,
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
    /// The full-reduction activity's lines (`goods_manjian_id` above 0): what its tiers are
    /// measured on.
    manjian: String,
    /// The full reduction: the greatest reduce among the reached tiers, at most `manjian`,
    /// shared over the activity's lines.
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

/// One full-reduction tier and how far the activity's lines (`manjian`) are from it.
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
    /// The member's coupons, vouchers, balances and the shop's settlement settings; absent
    /// where nothing is settled.
    #[schema(required = false)]
    settlement: Option<EngineSettlementInput>,
}

/// `engine::SettlementInput`: what the member holds, as the engine reads it (`pricing.md`,
/// rules 11–20). The choices (`coupon_id`, `cash_voucher_id`) are absent: the caller adds them.
#[derive(ToSchema)]
pub struct EngineSettlementInput {
    /// Unix seconds the validity of coupons and vouchers is judged at.
    #[schema(required = false)]
    now: Option<i64>,
    coupons: Vec<EngineCoupon>,
    #[schema(required = false)]
    coupon_id: Option<i64>,
    cash_vouchers: Vec<EngineCashVoucher>,
    #[schema(required = false)]
    cash_voucher_id: Option<i64>,
    #[schema(example = "50.00")]
    red_packet_balance: String,
    #[schema(minimum = 0, maximum = 1)]
    use_red_packet: u8,
    points_balance: i64,
    #[schema(minimum = 0, maximum = 1)]
    use_points: u8,
    #[schema(example = "10.00")]
    shipping_fee: String,
    #[schema(example = "0.10")]
    red_packet_max_rate: String,
    points_per_yuan: i64,
    #[schema(example = "0.10")]
    points_max_rate: String,
}

/// A coupon as the engine reads it: kind 1 (满减) has `reduce`, kind 2 (折扣) `rate` and maybe
/// `max_reduce`.
#[derive(ToSchema)]
pub struct EngineCoupon {
    id: i64,
    kind: u8,
    /// 0 every coupon line, 1 preferred goods, 2 Chinese herbs, 3 medical devices.
    scope: u8,
    #[schema(example = "300.00")]
    threshold: String,
    #[schema(required = false, example = "15.00")]
    reduce: Option<String>,
    #[schema(required = false, example = "0.95")]
    rate: Option<String>,
    #[schema(required = false)]
    max_reduce: Option<String>,
    #[schema(required = false)]
    starts_at: Option<i64>,
    #[schema(required = false)]
    ends_at: Option<i64>,
}

/// A cash voucher as the engine reads it.
#[derive(ToSchema)]
pub struct EngineCashVoucher {
    id: i64,
    #[schema(example = "10.00")]
    amount: String,
    #[schema(example = "100.00")]
    threshold: String,
    #[schema(required = false)]
    starts_at: Option<i64>,
    #[schema(required = false)]
    ends_at: Option<i64>,
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
