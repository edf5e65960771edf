//! The engine's input: one cart, as `docs/pricing.md` §Input describes it. Reading it validates it:
//! every value that reaches the rules is one the rules can use (quantities of at least 1,
//! non-negative exact money, ladders sorted and free of duplicates).
//!
//! Field names are English; the wire keeps the specification's names through serde renames.
//! Reading (with validation and error paths) lives in `read.rs`.

use serde::Serialize;

use crate::money::Money;

/// The largest quantity a line may hold; keeps `price × quantity` inside exact arithmetic.
pub const MAX_QUANTITY: u32 = i32::MAX as u32;

/// One cart: its lines, the shipping threshold and the full-reduction tiers.
#[derive(Clone, Debug, Default, Serialize, PartialEq)]
pub struct CartInput {
    pub items: Vec<CartItem>,
    pub shipping_data: ShippingData,
    pub activity_data: ActivityData,
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

/// 满减 — one tier: spend `amount` on coupon-eligible goods, get `reduce` off.
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
    #[serde(serialize_with = "write_flag")]
    pub with_coupon: bool,
    /// The full-reduction activity this line takes part in; 0 for none.
    pub goods_manjian_id: i64,
    /// Full-reduction discount the server allotted to this line.
    pub goods_manjian_amount: Money,
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
    pub fn new(mut steps: Vec<LadderStep>) -> Ladder {
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
        Ladder(steps)
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
