//! The engine's input: one cart, as `pricing.md` §Input describes it. Reading it validates it:
//! every value that reaches the rules is one the rules can use (quantities of at least 1,
//! non-negative exact money, ladders sorted and free of duplicates).
//!
//! Field names are English; the wire keeps the specification's names through serde renames.

use std::fmt;

use serde::de::{self, Deserializer, Visitor};
use serde::{Deserialize, Serialize};

use crate::money::{MAX_SAFE_INTEGER, Money};

/// The largest quantity a line may hold; keeps `price × quantity` inside exact arithmetic.
pub const MAX_QUANTITY: u32 = i32::MAX as u32;

/// One cart: its lines, the shipping threshold and the full-reduction tiers.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
pub struct CartInput {
    pub items: Vec<CartItem>,
    #[serde(default, deserialize_with = "null_as_default")]
    pub shipping_data: ShippingData,
    #[serde(default, deserialize_with = "null_as_default")]
    pub activity_data: ActivityData,
}

/// The free-shipping threshold of the member's cart.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
pub struct ShippingData {
    /// 包邮金额 — order amount from which shipping is free.
    #[serde(default)]
    pub shipping_amount: Money,
    /// 不计运费金额 — amount already counted toward the threshold by other orders.
    #[serde(default)]
    pub no_trans_order_amount: Money,
}

/// The full-reduction (满减) activity the cart takes part in.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
pub struct ActivityData {
    #[serde(default, deserialize_with = "null_as_default")]
    pub manjians: Vec<ManjianTier>,
}

/// 满减 — one tier: spend `amount` on coupon-eligible goods, get `reduce` off.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
pub struct ManjianTier {
    pub amount: Money,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reduce: Option<Money>,
}

/// One cart line.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
pub struct CartItem {
    #[serde(deserialize_with = "id")]
    pub id: i64,
    /// 1 秒杀 flash sale, 3 组合购 combination, anything else normal.
    #[serde(rename = "type", default, deserialize_with = "optional_integer")]
    pub line_type: Option<i64>,
    /// Quantity in the cart.
    #[serde(rename = "number", deserialize_with = "quantity")]
    pub quantity: u32,
    /// Unit price the line was added at.
    pub price: Money,
    #[serde(deserialize_with = "flag", serialize_with = "write_flag")]
    pub is_selected: bool,
    #[serde(default, deserialize_with = "optional_flag", serialize_with = "write_flag")]
    pub with_coupon: bool,
    /// The full-reduction activity this line takes part in; 0 for none.
    #[serde(default, deserialize_with = "integer_or_zero")]
    pub goods_manjian_id: i64,
    /// Full-reduction discount the server allotted to this line.
    #[serde(default, deserialize_with = "null_as_default")]
    pub goods_manjian_amount: Money,
    pub goods: Goods,
    /// 组合 — the combination, priced instead of `goods` when the line is type 3.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub combination: Option<Goods>,
}

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
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
pub struct Goods {
    #[serde(deserialize_with = "id")]
    pub id: i64,
    /// 可购买 — whether the goods may be bought at all.
    #[serde(deserialize_with = "flag", serialize_with = "write_flag")]
    pub is_buy: bool,
    /// 库存 — stock.
    #[serde(rename = "number", deserialize_with = "integer")]
    pub stock: i64,
    /// 优选 — preferred goods.
    #[serde(default, deserialize_with = "optional_flag", serialize_with = "write_flag")]
    pub is_youx: bool,
    /// 2 中药饮片 Chinese herbs (zy), 3 医疗器械 medical devices (qx), other general.
    #[serde(rename = "type", default, deserialize_with = "optional_integer")]
    pub goods_type: Option<i64>,
    /// 单品包邮 — free shipping when one line holds at least `qg_number` units.
    #[serde(default, deserialize_with = "optional_flag", serialize_with = "write_flag")]
    pub is_dpby: bool,
    /// 起购数量 — the minimum quantity for single-item free shipping.
    #[serde(default, deserialize_with = "integer_or_zero")]
    pub qg_number: i64,
    /// 原价 — list price, to show savings.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base_price: Option<Money>,
    /// 阶梯价 — quantity-dependent prices.
    #[serde(rename = "ladder_price", default, deserialize_with = "null_as_default")]
    pub ladder: Ladder,
    /// 1 = quantity bands, other = minimum quantity to reach.
    #[serde(default, deserialize_with = "optional_integer")]
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
#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq)]
pub struct LadderStep {
    #[serde(deserialize_with = "quantity")]
    pub number: u32,
    pub price: Money,
}

/// 阶梯价 — a ladder sorted by `number`, one entry per `number` (the lowest price of duplicates).
#[derive(Clone, Debug, Default, Serialize, PartialEq)]
#[serde(transparent)]
pub struct Ladder(Vec<LadderStep>);

impl Ladder {
    pub fn new(mut steps: Vec<LadderStep>) -> Ladder {
        steps.sort_by(|a, b| a.number.cmp(&b.number).then(a.price.cmp(&b.price)));
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

impl<'de> Deserialize<'de> for Ladder {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Ladder, D::Error> {
        Vec::<LadderStep>::deserialize(deserializer).map(Ladder::new)
    }
}

// ---- field readers -------------------------------------------------------------------------

fn null_as_default<'de, D, T>(deserializer: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de> + Default,
{
    Ok(Option::<T>::deserialize(deserializer)?.unwrap_or_default())
}

/// An integer from a JSON number; `3.0` counts (JavaScript cannot tell it from `3`).
struct IntegerVisitor;

impl<'de> Visitor<'de> for IntegerVisitor {
    type Value = i64;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an integer")
    }

    fn visit_i64<E: de::Error>(self, value: i64) -> Result<i64, E> {
        if value.abs() > MAX_SAFE_INTEGER {
            return Err(E::custom(format_args!("{value} is beyond a safe integer")));
        }
        Ok(value)
    }

    fn visit_u64<E: de::Error>(self, value: u64) -> Result<i64, E> {
        match i64::try_from(value) {
            Ok(value) => self.visit_i64(value),
            Err(_) => Err(E::custom(format_args!("{value} is beyond a safe integer"))),
        }
    }

    fn visit_f64<E: de::Error>(self, value: f64) -> Result<i64, E> {
        if value.fract() != 0.0 || !value.is_finite() {
            return Err(E::custom(format_args!("not an integer: {value}")));
        }
        if value.abs() > MAX_SAFE_INTEGER as f64 {
            return Err(E::custom(format_args!("{value} is beyond a safe integer")));
        }
        Ok(value as i64)
    }
}

fn integer<'de, D: Deserializer<'de>>(deserializer: D) -> Result<i64, D::Error> {
    deserializer.deserialize_any(IntegerVisitor)
}

fn optional_integer<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<i64>, D::Error> {
    struct Wrapped(i64);
    impl<'de> Deserialize<'de> for Wrapped {
        fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Wrapped, D::Error> {
            integer(deserializer).map(Wrapped)
        }
    }
    Ok(Option::<Wrapped>::deserialize(deserializer)?.map(|wrapped| wrapped.0))
}

fn integer_or_zero<'de, D: Deserializer<'de>>(deserializer: D) -> Result<i64, D::Error> {
    Ok(optional_integer(deserializer)?.unwrap_or(0))
}

fn id<'de, D: Deserializer<'de>>(deserializer: D) -> Result<i64, D::Error> {
    integer(deserializer)
}

fn quantity<'de, D: Deserializer<'de>>(deserializer: D) -> Result<u32, D::Error> {
    let value = integer(deserializer)?;
    if value < 1 {
        return Err(de::Error::custom(format_args!("must be at least 1, got {value}")));
    }
    u32::try_from(value)
        .ok()
        .filter(|quantity| *quantity <= MAX_QUANTITY)
        .ok_or_else(|| de::Error::custom(format_args!("must be at most {MAX_QUANTITY}, got {value}")))
}

/// A 0|1 flag; `true`/`false` are read too.
struct FlagVisitor;

impl<'de> Visitor<'de> for FlagVisitor {
    type Value = bool;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("0 or 1")
    }

    fn visit_bool<E: de::Error>(self, value: bool) -> Result<bool, E> {
        Ok(value)
    }

    fn visit_i64<E: de::Error>(self, value: i64) -> Result<bool, E> {
        match value {
            0 => Ok(false),
            1 => Ok(true),
            _ => Err(E::custom(format_args!("must be 0 or 1, got {value}"))),
        }
    }

    fn visit_u64<E: de::Error>(self, value: u64) -> Result<bool, E> {
        self.visit_i64(i64::try_from(value).unwrap_or(i64::MAX))
    }

    fn visit_f64<E: de::Error>(self, value: f64) -> Result<bool, E> {
        if value == 0.0 {
            Ok(false)
        } else if value == 1.0 {
            Ok(true)
        } else {
            Err(E::custom(format_args!("must be 0 or 1, got {value}")))
        }
    }
}

fn flag<'de, D: Deserializer<'de>>(deserializer: D) -> Result<bool, D::Error> {
    deserializer.deserialize_any(FlagVisitor)
}

fn optional_flag<'de, D: Deserializer<'de>>(deserializer: D) -> Result<bool, D::Error> {
    struct Wrapped(bool);
    impl<'de> Deserialize<'de> for Wrapped {
        fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Wrapped, D::Error> {
            flag(deserializer).map(Wrapped)
        }
    }
    Ok(Option::<Wrapped>::deserialize(deserializer)?.is_some_and(|wrapped| wrapped.0))
}

pub(crate) fn write_flag<S: serde::Serializer>(value: &bool, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_u8(u8::from(*value))
}
