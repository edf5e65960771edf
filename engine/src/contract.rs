//! The engine's contract with its callers, written once: what it reads and what it writes, as
//! JSON (`docs/pricing.md`, "Input" and "Output"). The origin's OpenAPI document takes these
//! schemas as they are, and the declarations of the JavaScript package (`js/contract.d.ts`, in
//! the `.d.ts` wasm-pack writes) are generated from the same schemas (`scripts/engine-types`).
//! A test reads every vector's input and every golden quote with these types (outputs refusing
//! any field they do not name), so the contract cannot drift from what the engine does.
//!
//! Only with the `schema` feature (native builds: the origin, the tests); the WebAssembly
//! package never carries it.

use std::collections::BTreeMap;

use serde::Deserialize;
use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{ObjectBuilder, OneOfBuilder, Schema, Type};
use utoipa::{OpenApi, PartialSchema, ToSchema};

/// Money as the engine reads it: a decimal string (`"12.30"`) or a JavaScript number (read
/// through `String(x)`).
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(untagged)]
pub enum MoneyInput {
    Text(String),
    Number(f64),
}

/// Money as the engine writes it: a decimal string, two decimals when computed (`"1234.50"`).
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[schema(example = "12.30")]
pub struct Money(pub String);

/// A yes/no the engine reads: 0 or 1, or a boolean.
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(untagged)]
pub enum Flag {
    Number(Bit),
    Bool(bool),
}

impl PartialSchema for Flag {
    fn schema() -> RefOr<Schema> {
        OneOfBuilder::new()
            .item(Bit::schema())
            .item(ObjectBuilder::new().schema_type(Type::Boolean))
            .description(Some("A yes/no: 0 or 1, or a boolean."))
            .into()
    }
}

impl ToSchema for Flag {}

/// 0 or 1, as the engine writes a yes/no where the shop's pages expect a number.
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(try_from = "u8")]
pub struct Bit(pub u8);

impl TryFrom<u8> for Bit {
    type Error = &'static str;

    fn try_from(value: u8) -> Result<Bit, &'static str> {
        if value <= 1 { Ok(Bit(value)) } else { Err("expected 0 or 1") }
    }
}

impl PartialSchema for Bit {
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new().schema_type(Type::Integer).enum_values(Some([0, 1])).description(Some("0 or 1.")).into()
    }
}

impl ToSchema for Bit {}

/// Fields a caller may send beside those the engine reads; the engine ignores them.
type Extra = BTreeMap<String, serde_json::Value>;

// ----- What the engine reads -----

/// One cart as the engine reads it (`docs/pricing.md`, "Input").
#[derive(Clone, Debug, Deserialize, ToSchema)]
pub struct CartInput {
    pub items: Vec<CartItemInput>,
    #[schema(required = false)]
    pub shipping_data: Option<ShippingDataInput>,
    #[schema(required = false)]
    pub activity_data: Option<ActivityDataInput>,
    /// What the member may pay part of the order with (rules 11–20); absent: no settlement.
    #[schema(required = false)]
    pub settlement: Option<SettlementInput>,
}

/// The shop's free-shipping thresholds (rule 9).
#[derive(Clone, Debug, Deserialize, ToSchema)]
pub struct ShippingDataInput {
    /// The order amount from which shipping is free.
    #[schema(required = false, example = "800.00")]
    pub shipping_amount: Option<MoneyInput>,
    /// The order amount below which no order is taken.
    #[schema(required = false, example = "0.00")]
    pub no_trans_order_amount: Option<MoneyInput>,
}

/// The cart's full-reduction (满减) activity (rule 8).
#[derive(Clone, Debug, Deserialize, ToSchema)]
pub struct ActivityDataInput {
    #[schema(required = false)]
    pub manjians: Option<Vec<ManjianTierInput>>,
}

/// One full-reduction tier: the activity's goods coming to `amount` take `reduce` off.
#[derive(Clone, Debug, Deserialize, ToSchema)]
pub struct ManjianTierInput {
    #[schema(example = "500.00")]
    pub amount: MoneyInput,
    #[schema(required = false, example = "50.00")]
    pub reduce: Option<MoneyInput>,
    #[schema(required = false)]
    pub title: Option<String>,
}

/// One cart line as the engine reads it.
#[derive(Clone, Debug, Deserialize, ToSchema)]
pub struct CartItemInput {
    pub id: i64,
    /// 1 flash sale (秒杀), 3 combination (组合购), anything else a normal line.
    #[serde(rename = "type")]
    #[schema(required = false, rename = "type")]
    pub line_type: Option<i64>,
    pub number: u32,
    #[schema(example = "12.30")]
    pub price: MoneyInput,
    pub is_selected: Flag,
    /// Coupon-eligible: may take coupons (rule 12).
    #[schema(required = false)]
    pub with_coupon: Option<Flag>,
    /// The full-reduction (满减) activity the line takes part in; 0 or absent: none (rule 8).
    #[schema(required = false)]
    pub goods_manjian_id: Option<i64>,
    /// Ignored: the engine computes each line's share of the full reduction (rule 8).
    #[schema(required = false)]
    pub goods_manjian_amount: Option<serde_json::Value>,
    pub goods: GoodsInput,
    /// The set a combination line (type 3) prices instead of `goods`.
    #[schema(required = false)]
    pub combination: Option<GoodsInput>,
    #[serde(flatten)]
    #[schema(value_type = BTreeMap<String, Value>)]
    pub extra: Extra,
}

/// What the engine needs to know of the goods on a line.
#[derive(Clone, Debug, Deserialize, ToSchema)]
pub struct GoodsInput {
    pub id: i64,
    #[schema(required = false)]
    pub name: Option<String>,
    /// The unit (包装单位).
    #[schema(required = false)]
    pub bzdw: Option<String>,
    pub is_buy: Flag,
    /// Stock.
    pub number: i64,
    /// Preferred goods (优选).
    #[schema(required = false)]
    pub is_youx: Option<Flag>,
    /// 2 Chinese herbs (中药饮片), 3 medical devices (器械).
    #[serde(rename = "type")]
    #[schema(required = false, rename = "type")]
    pub goods_type: Option<i64>,
    /// Has a single-item free-shipping minimum (单品包邮, rule 9).
    #[schema(required = false)]
    pub is_dpby: Option<Flag>,
    /// The single-item free-shipping minimum.
    #[schema(required = false)]
    pub qg_number: Option<i64>,
    /// The list price; absent when unknown.
    #[schema(required = false, example = "15.00")]
    pub base_price: Option<MoneyInput>,
    #[schema(required = false)]
    pub ladder_price: Option<Vec<LadderStepInput>>,
    /// 1 quantity bands, anything else minimum quantities to reach (rule 4).
    #[schema(required = false)]
    pub ladder_price_type: Option<i64>,
    #[serde(flatten)]
    #[schema(value_type = BTreeMap<String, Value>)]
    pub extra: Extra,
}

/// One ladder entry: from `number` units, `price` each.
#[derive(Clone, Debug, Deserialize, ToSchema)]
pub struct LadderStepInput {
    pub number: u32,
    #[schema(example = "11.80")]
    pub price: MoneyInput,
}

/// What the member may pay part of an order with, and the shop's settings for it (rules 11–20).
#[derive(Clone, Debug, Deserialize, ToSchema)]
pub struct SettlementInput {
    /// Unix seconds the validity of coupons and vouchers is judged at; absent: no date is checked.
    #[schema(required = false)]
    pub now: Option<i64>,
    #[schema(required = false)]
    pub coupons: Option<Vec<CouponInput>>,
    /// Absent: chosen with the voucher, the pair that takes the most off (rule 13); 0: none.
    #[schema(required = false)]
    pub coupon_id: Option<i64>,
    #[schema(required = false)]
    pub cash_vouchers: Option<Vec<CashVoucherInput>>,
    /// Absent: chosen with the coupon (rule 13); 0: none.
    #[schema(required = false)]
    pub cash_voucher_id: Option<i64>,
    #[schema(required = false, example = "50.00")]
    pub red_packet_balance: Option<MoneyInput>,
    #[schema(required = false)]
    pub use_red_packet: Option<Flag>,
    #[schema(required = false)]
    pub points_balance: Option<i64>,
    #[schema(required = false)]
    pub use_points: Option<Flag>,
    #[schema(required = false, example = "10.00")]
    pub shipping_fee: Option<MoneyInput>,
    /// A rate, read like money: 0.10 means 10 %.
    #[schema(required = false, example = "0.10")]
    pub red_packet_max_rate: Option<MoneyInput>,
    #[schema(required = false)]
    pub points_per_yuan: Option<i64>,
    #[schema(required = false, example = "0.10")]
    pub points_max_rate: Option<MoneyInput>,
}

/// A coupon: kind 1 (满减) takes `reduce` off, kind 2 (折扣) charges `rate` of its lines, at
/// most `max_reduce` off.
#[derive(Clone, Debug, Deserialize, ToSchema)]
pub struct CouponInput {
    pub id: i64,
    /// 1 满减 (a fixed reduction), 2 折扣 (a rate).
    pub kind: u8,
    /// 0 every coupon line, 1 preferred goods, 2 Chinese herbs, 3 medical devices.
    #[schema(required = false)]
    pub scope: Option<u8>,
    #[schema(required = false, example = "300.00")]
    pub threshold: Option<MoneyInput>,
    #[schema(required = false, example = "15.00")]
    pub reduce: Option<MoneyInput>,
    /// Read like money: 0.95 means 95 %.
    #[schema(required = false, example = "0.95")]
    pub rate: Option<MoneyInput>,
    #[schema(required = false)]
    pub max_reduce: Option<MoneyInput>,
    #[schema(required = false)]
    pub starts_at: Option<i64>,
    #[schema(required = false)]
    pub ends_at: Option<i64>,
    #[schema(required = false)]
    pub name: Option<String>,
    #[serde(flatten)]
    #[schema(value_type = BTreeMap<String, Value>)]
    pub extra: Extra,
}

/// A cash voucher (现金券): `amount` off an order of at least `threshold`.
#[derive(Clone, Debug, Deserialize, ToSchema)]
pub struct CashVoucherInput {
    pub id: i64,
    #[schema(example = "10.00")]
    pub amount: MoneyInput,
    #[schema(required = false, example = "100.00")]
    pub threshold: Option<MoneyInput>,
    #[schema(required = false)]
    pub starts_at: Option<i64>,
    #[schema(required = false)]
    pub ends_at: Option<i64>,
    #[schema(required = false)]
    pub name: Option<String>,
    #[serde(flatten)]
    #[schema(value_type = BTreeMap<String, Value>)]
    pub extra: Extra,
}

/// Rule 22: a cash-back tier (满额返现): goods coming to `amount` earn `back`.
#[derive(Clone, Debug, Deserialize, ToSchema)]
pub struct CashbackTierInput {
    pub amount: MoneyInput,
    pub back: MoneyInput,
}

// ----- What the engine writes -----

/// Everything of a quote but its lines: what the page needs after each keystroke.
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CartSummary {
    pub totals: Totals,
    pub counts: Counts,
    /// Every tier of the cart's full-reduction activity and how far the activity's lines are
    /// from it.
    pub manjian_tiers: Vec<TierStatus>,
    pub shipping: Shipping,
}

/// The engine's answer for one cart (`docs/pricing.md`, "Output").
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CartQuote {
    /// One per input line, in input order.
    pub lines: Vec<LineQuote>,
    pub totals: Totals,
    pub counts: Counts,
    /// Every tier of the cart's full-reduction activity and how far the activity's lines are
    /// from it.
    pub manjian_tiers: Vec<TierStatus>,
    pub shipping: Shipping,
    /// What the member pays (rules 11–19): present when the input carried a settlement.
    #[schema(required = false, nullable = false)]
    pub settlement: Option<Settlement>,
}

/// One line of the quote.
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct LineQuote {
    pub id: i64,
    /// 0 whatever came in when the goods cannot be bought or have no stock (rule 2).
    pub is_selected: Bit,
    /// The goods can be bought and has stock, whatever the selection: the line's tick box is
    /// offered (unsellable lines are greyed, 暂不可购买).
    pub sellable: bool,
    /// Sellable and selected: counts toward the totals (rule 1).
    pub buyable: bool,
    /// Quantity above stock (rule 10).
    pub over_stock: bool,
    /// The price each unit is charged (rule 3).
    pub unit_price: Money,
    /// Where the unit price comes from (rule 3).
    pub price_kind: PriceKind,
    pub amount: Money,
    pub savings: Money,
    /// This line's share of the full-reduction discount ("0.00" outside the activity, rule 8).
    pub goods_manjian_amount: Money,
    /// The ladder display (rule 4).
    pub ladder: Vec<LadderRow>,
    /// The single-item free-shipping minimum, for goods that have one (rule 9).
    #[schema(required = true)]
    pub free_shipping_hint: Option<FreeShippingHint>,
}

/// Why a line costs what it costs: its own price, a ladder entry, a flash sale, a combination.
#[derive(Clone, Copy, Debug, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum PriceKind {
    Regular,
    Ladder,
    FlashSale,
    Combination,
}

/// One row of a line's ladder display.
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct LadderRow {
    pub number: u32,
    /// Bands only (`ladder_price_type` 1): the band's last quantity, `null` for the last band;
    /// absent for minimum-quantity ladders.
    #[schema(required = false)]
    pub max: Option<u32>,
    pub price: Money,
    pub reached: bool,
    /// Units still to add to reach this row.
    pub need: u32,
}

#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct FreeShippingHint {
    pub qg_number: i64,
    pub reached: bool,
}

/// Sums of line amounts over buyable lines (rules 6–8).
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Totals {
    pub total: Money,
    /// Coupon-eligible lines (`with_coupon`).
    pub coupon: Money,
    pub non_coupon: Money,
    /// Preferred goods.
    pub youx: Money,
    /// Chinese herbs.
    pub zy: Money,
    /// Medical devices.
    pub qx: Money,
    /// The full-reduction activity's lines (`goods_manjian_id` above 0): what its tiers are
    /// measured on.
    pub manjian: Money,
    /// The full reduction: the greatest reduce among the reached tiers, at most `manjian`,
    /// shared over the activity's lines.
    pub discount: Money,
    pub payable: Money,
}

#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Counts {
    pub items: u32,
    pub selected: u32,
    pub units: u64,
    /// The cart badge's count (the header shows `99+` above 99).
    pub badge: u32,
}

/// One full-reduction tier and how far the activity's lines (`manjian`) are from it.
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TierStatus {
    pub amount: Money,
    pub reduce: Money,
    /// 1 reached, 0 not yet.
    pub status: Bit,
    pub need: Money,
}

/// Free shipping: reached, or what is still needed.
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Shipping {
    pub free_shipping: bool,
    #[schema(required = true)]
    pub need: Option<Money>,
}

/// The settlement of an order (rules 11–19).
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Settlement {
    /// The goods amount (the quote's payable).
    pub goods: Money,
    /// Every coupon of the member's, in the order given.
    pub coupons: Vec<CouponValue>,
    /// The coupon this order spends, if any, chosen with the cash voucher: the pair that takes
    /// the most off (rule 13).
    #[schema(required = true)]
    pub coupon: Option<Chosen>,
    /// Every cash voucher of the member's, in the order given, as it stands after the chosen
    /// coupon (rule 14).
    pub cash_vouchers: Vec<VoucherValue>,
    /// The cash voucher this order spends, if any, chosen with the coupon.
    #[schema(required = true)]
    pub cash_voucher: Option<Chosen>,
    pub red_packet: Money,
    /// Points spent.
    pub points_used: i64,
    /// What the points pay.
    pub points_value: Money,
    pub shipping_fee: Money,
    /// What the member pays.
    pub due: Money,
    /// One per buyable line: its share of every deduction and what is left paid for it.
    pub lines: Vec<LineSettlement>,
}

/// What a coupon would take off this order.
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CouponValue {
    pub id: i64,
    pub usable: bool,
    pub value: Money,
    /// How much more of its lines' amount reaches its threshold.
    pub need: Money,
}

/// What a cash voucher would take off this order.
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct VoucherValue {
    pub id: i64,
    pub usable: bool,
    pub value: Money,
}

/// The coupon or cash voucher an order spends.
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Chosen {
    pub id: i64,
    pub value: Money,
}

/// One line's shares of each deduction, and what is left paid for it (what a return refunds).
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct LineSettlement {
    pub id: i64,
    pub coupon: Money,
    pub cash_voucher: Money,
    pub red_packet: Money,
    pub points: Money,
    pub paid: Money,
}

/// Rule 21: what a return takes back of the points its order earned.
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PointsTakeBack {
    /// Points taken from the member's account.
    pub taken: i64,
    /// Points due back that the account no longer holds.
    pub short: i64,
    /// `short` at the points' value, deducted from the refund.
    pub deducted: Money,
}

/// Every schema of the contract, as an OpenAPI document with no paths: what
/// `scripts/engine-types` turns into TypeScript.
#[derive(OpenApi)]
#[openapi(
    info(title = "The pricing engine's contract", description = "What the engine reads and writes (docs/pricing.md)."),
    components(schemas(
        MoneyInput,
        Money,
        Flag,
        Bit,
        CartInput,
        ShippingDataInput,
        ActivityDataInput,
        ManjianTierInput,
        CartItemInput,
        GoodsInput,
        LadderStepInput,
        SettlementInput,
        CouponInput,
        CashVoucherInput,
        CashbackTierInput,
        CartSummary,
        CartQuote,
        LineQuote,
        PriceKind,
        LadderRow,
        FreeShippingHint,
        Totals,
        Counts,
        TierStatus,
        Shipping,
        Settlement,
        CouponValue,
        VoucherValue,
        Chosen,
        LineSettlement,
        PointsTakeBack,
    ))
)]
pub struct Contract;

/// The contract's document, as JSON text.
pub fn document() -> String {
    Contract::openapi().to_pretty_json().expect("the contract's document is JSON")
}
