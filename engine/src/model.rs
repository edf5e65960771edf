//! The engine's input: one cart, as `docs/pricing.md` §Input describes it. Reading it validates it:
//! every value that reaches the rules is one the rules can use (quantities of at least 1,
//! non-negative exact money, ladders sorted and free of duplicates).
//!
//! Field names are English; the wire keeps the specification's names through serde renames.
//! Reading (with validation and error paths) lives in `read.rs`.

use serde::Serialize;

use crate::money::{Cents, Money};

/// The largest quantity a line may hold; keeps `price × quantity` inside exact arithmetic.
pub const MAX_QUANTITY: u32 = i32::MAX as u32;

/// One cart: its lines, the shipping threshold and the full-reduction tiers, and what the
/// member may pay part of it with (rules 11–20), when the cart is being settled.
#[derive(Clone, Debug, Default, Serialize, PartialEq)]
pub struct CartInput {
    pub items: Vec<CartItem>,
    pub shipping_data: ShippingData,
    pub activity_data: ActivityData,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub settlement: Option<SettlementInput>,
}

/// What the member holds and chose at checkout (`docs/pricing.md`, rules 11–20). Deductions
/// are whole cents: `red_packet_balance` and `shipping_fee` are cut by `floor2` when read.
/// Serialized in the input's own shape, so that what one layer writes the next reads.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct SettlementInput {
    /// Unix seconds for validity; `None`: no date is checked.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub now: Option<i64>,
    pub coupons: Vec<Coupon>,
    /// `None`: chosen with the voucher, as the pair that takes the most off (rule 13);
    /// `Some(0)`: none; else that coupon, which must be usable.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub coupon_id: Option<i64>,
    pub cash_vouchers: Vec<CashVoucher>,
    /// `None`: chosen with the coupon (rule 13); `Some(0)`: none; else that voucher, which must
    /// be usable after some coupon the choice may take.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cash_voucher_id: Option<i64>,
    pub red_packet_balance: Cents,
    #[serde(serialize_with = "write_flag")]
    pub use_red_packet: bool,
    pub points_balance: i64,
    #[serde(serialize_with = "write_flag")]
    pub use_points: bool,
    pub shipping_fee: Cents,
    /// The share of the amount red packets may pay, 0..=1.
    pub red_packet_max_rate: Money,
    /// Points worth one yuan, at least 1.
    pub points_per_yuan: i64,
    /// The share of the amount points may pay, 0..=1.
    pub points_max_rate: Money,
}

impl Default for SettlementInput {
    fn default() -> SettlementInput {
        SettlementInput {
            now: None,
            coupons: Vec::new(),
            coupon_id: None,
            cash_vouchers: Vec::new(),
            cash_voucher_id: None,
            red_packet_balance: Cents::ZERO,
            use_red_packet: false,
            points_balance: 0,
            use_points: false,
            shipping_fee: Cents::ZERO,
            red_packet_max_rate: Money::ZERO,
            points_per_yuan: DEFAULT_POINTS_PER_YUAN,
            points_max_rate: Money::ZERO,
        }
    }
}

/// Points worth one yuan when the settlement does not say.
pub const DEFAULT_POINTS_PER_YUAN: i64 = 100;

/// 优惠券 — a coupon: a fixed reduction (kind 1, 满减) or a rate (kind 2, 折扣) on the coupon
/// lines of its scope.
#[derive(Clone, Debug, PartialEq)]
pub struct Coupon {
    pub id: i64,
    pub kind: CouponKind,
    pub scope: CouponScope,
    pub threshold: Money,
    pub starts_at: Option<i64>,
    pub ends_at: Option<i64>,
}

impl Serialize for Coupon {
    /// The input's shape: `{ id, kind, scope, threshold, reduce | rate, max_reduce, starts_at, ends_at }`.
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("id", &self.id)?;
        match self.kind {
            CouponKind::Reduce { reduce } => {
                map.serialize_entry("kind", &1)?;
                map.serialize_entry("reduce", &reduce)?;
            }
            CouponKind::Rate { rate, max_reduce } => {
                map.serialize_entry("kind", &2)?;
                map.serialize_entry("rate", &rate)?;
                if let Some(max) = max_reduce {
                    map.serialize_entry("max_reduce", &max)?;
                }
            }
        }
        map.serialize_entry("scope", &(self.scope as u8))?;
        map.serialize_entry("threshold", &self.threshold)?;
        if let Some(starts_at) = self.starts_at {
            map.serialize_entry("starts_at", &starts_at)?;
        }
        if let Some(ends_at) = self.ends_at {
            map.serialize_entry("ends_at", &ends_at)?;
        }
        map.end()
    }
}

/// What a coupon takes off.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum CouponKind {
    /// 满减: `reduce` (whole cents) off.
    Reduce { reduce: Cents },
    /// 折扣: pay `rate` of the amount (0 < rate < 1), at most `max_reduce` off when given.
    Rate { rate: Money, max_reduce: Option<Cents> },
}

/// Which coupon lines a coupon applies to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CouponScope {
    /// 0: every coupon line.
    All = 0,
    /// 1: preferred goods (`is_youx`).
    Youx = 1,
    /// 2: Chinese herbs (goods type 2).
    Zy = 2,
    /// 3: medical devices (goods type 3).
    Qx = 3,
}

impl CouponScope {
    pub fn from_code(code: i64) -> Option<CouponScope> {
        Some(match code {
            0 => CouponScope::All,
            1 => CouponScope::Youx,
            2 => CouponScope::Zy,
            3 => CouponScope::Qx,
            _ => return None,
        })
    }

    /// Whether a line of these goods is in the scope.
    pub fn covers(self, goods: &Goods) -> bool {
        match self {
            CouponScope::All => true,
            CouponScope::Youx => goods.is_youx,
            CouponScope::Zy => goods.is_zy(),
            CouponScope::Qx => goods.is_qx(),
        }
    }
}

/// 现金券 — a cash voucher: `amount` (whole cents) off an order from `threshold`.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct CashVoucher {
    pub id: i64,
    pub amount: Cents,
    pub threshold: Money,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub starts_at: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ends_at: Option<i64>,
}

/// The free-shipping threshold of the member's cart.
#[derive(Clone, Debug, Default, Serialize, PartialEq)]
pub struct ShippingData {
    /// 包邮金额 — order amount from which shipping is free.
    pub shipping_amount: Money,
    /// 不计运费金额 — amount already counted toward the threshold by other orders.
    pub no_trans_order_amount: Money,
}

/// The full-reduction (满减) activity the cart takes part in.
#[derive(Clone, Debug, Default, Serialize, PartialEq)]
pub struct ActivityData {
    pub manjians: Vec<ManjianTier>,
}

/// 满减 — one tier: spend `amount` on the activity's goods (lines with a `goods_manjian_id`), get
/// `reduce` off.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct ManjianTier {
    pub amount: Money,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reduce: Option<Money>,
}

/// One cart line.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct CartItem {
    pub id: i64,
    /// 1 秒杀 flash sale, 3 组合购 combination, anything else normal.
    #[serde(rename = "type")]
    pub line_type: Option<i64>,
    /// Quantity in the cart.
    #[serde(rename = "number")]
    pub quantity: u32,
    /// Unit price the line was added at.
    pub price: Money,
    #[serde(serialize_with = "write_flag")]
    pub is_selected: bool,
    /// Coupon-eligible: may take coupons (rule 12).
    #[serde(serialize_with = "write_flag")]
    pub with_coupon: bool,
    /// The full-reduction activity this line takes part in; 0 for none. The activity's lines
    /// make the total its tiers are measured on and share its discount (rule 8).
    pub goods_manjian_id: i64,
    pub goods: Goods,
    /// 组合 — the combination, priced instead of `goods` when the line is type 3.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub combination: Option<Goods>,
}

/// Line types (`CartItem.type`): a normal line, 秒杀 a flash sale, 组合购 a combination.
pub const LINE_TYPE_NORMAL: i64 = 0;
pub const LINE_TYPE_FLASH_SALE: i64 = 1;
pub const LINE_TYPE_COMBINATION: i64 = 3;

impl CartItem {
    /// The goods the rules look at: the combination for type 3, else the goods.
    pub fn effective_goods(&self) -> &Goods {
        match (&self.combination, self.line_type) {
            (Some(combination), Some(LINE_TYPE_COMBINATION)) => combination,
            _ => &self.goods,
        }
    }

    /// Flash-sale and combination lines keep their price whatever the quantity.
    pub fn follows_ladder(&self) -> bool {
        !matches!(self.line_type, Some(LINE_TYPE_FLASH_SALE | LINE_TYPE_COMBINATION))
    }
}

/// What the rules need to know of the goods on a line.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Goods {
    pub id: i64,
    /// 可购买 — whether the goods may be bought at all.
    #[serde(serialize_with = "write_flag")]
    pub is_buy: bool,
    /// 库存 — stock.
    #[serde(rename = "number")]
    pub stock: i64,
    /// 优选 — preferred goods.
    #[serde(serialize_with = "write_flag")]
    pub is_youx: bool,
    /// 2 中药饮片 Chinese herbs (zy), 3 医疗器械 medical devices (qx), other general.
    #[serde(rename = "type")]
    pub goods_type: Option<i64>,
    /// 单品包邮 — free shipping when one line holds at least `qg_number` units.
    #[serde(serialize_with = "write_flag")]
    pub is_dpby: bool,
    /// 起购数量 — the minimum quantity for single-item free shipping.
    pub qg_number: i64,
    /// 原价 — list price, to show savings.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub base_price: Option<Money>,
    /// 阶梯价 — quantity-dependent prices.
    #[serde(rename = "ladder_price")]
    pub ladder: Ladder,
    /// 1 = quantity bands, other = minimum quantity to reach.
    pub ladder_price_type: Option<i64>,
}

pub const GOODS_TYPE_ZY: i64 = 2;
pub const GOODS_TYPE_QX: i64 = 3;
pub const LADDER_TYPE_BANDS: i64 = 1;

impl Goods {
    pub fn is_zy(&self) -> bool {
        self.goods_type == Some(GOODS_TYPE_ZY)
    }

    pub fn is_qx(&self) -> bool {
        self.goods_type == Some(GOODS_TYPE_QX)
    }

    pub fn ladder_is_bands(&self) -> bool {
        self.ladder_price_type == Some(LADDER_TYPE_BANDS)
    }
}

/// One ladder entry: from `number` units, `price` each.
#[derive(Clone, Copy, Debug, Serialize, PartialEq)]
pub struct LadderStep {
    pub number: u32,
    pub price: Money,
}

/// 阶梯价 — a ladder sorted by `number`, one entry per `number` (the lowest price of duplicates).
#[derive(Clone, Debug, Default, Serialize, PartialEq)]
#[serde(transparent)]
pub struct Ladder(Vec<LadderStep>);

impl Ladder {
    pub fn new(steps: Vec<LadderStep>) -> Ladder {
        let mut ladder = Ladder(steps);
        ladder.normalize();
        ladder
    }

    /// The entries as they are being read, before [`Ladder::normalize`].
    pub(crate) fn entries(&mut self) -> &mut Vec<LadderStep> {
        &mut self.0
    }

    /// Sorts the entries by `number` and keeps one per `number`, the lowest price.
    pub(crate) fn normalize(&mut self) {
        let steps = &mut self.0;
        // Insertion sort: ladders have a handful of entries, and this keeps the general sort
        // out of the WebAssembly build.
        for i in 1..steps.len() {
            let mut j = i;
            while j > 0 && (steps[j].number, steps[j].price) < (steps[j - 1].number, steps[j - 1].price) {
                steps.swap(j, j - 1);
                j -= 1;
            }
        }
        steps.dedup_by_key(|step| step.number);
    }

    pub fn steps(&self) -> &[LadderStep] {
        &self.0
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The entry with the greatest `number` not above `quantity`.
    pub fn step_for(&self, quantity: u32) -> Option<&LadderStep> {
        let reached = self.0.partition_point(|step| step.number <= quantity);
        reached.checked_sub(1).map(|index| &self.0[index])
    }
}

pub(crate) fn write_flag<S: serde::Serializer>(value: &bool, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_u8(u8::from(*value))
}
