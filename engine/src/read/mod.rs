//! Reading a cart from any self-describing serde format (JSON text, a `serde_json::Value`, a
//! JavaScript value), validating as it goes, and naming the first wrong field in the error the
//! way a JavaScript programmer writes it: `items[3].goods.ladder_price[0].price`.
//!
//! The readers are written by hand rather than derived so that the path costs nothing until
//! something is wrong: each level adds its segment to the message of an error passing through
//! it (`MARK` separates the path from the reason). No allocation happens on the good path.

use std::fmt::{self, Display};
use std::marker::PhantomData;

use serde::Deserialize;
use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

use crate::error::EngineError;
use crate::model::{ActivityData, CartInput, CartItem, Goods, Ladder, LadderStep, MAX_QUANTITY, ManjianTier, SettlementInput, ShippingData};
use crate::money::{MAX_SAFE_INTEGER, Money};

mod keys;
mod settlement;

pub(crate) use keys::Key;
use settlement::Node;

/// Separates the path from the reason inside an error message on its way up.
const MARK: char = '\u{1}';

/// Reads a cart from JSON text.
pub fn cart_from_json(text: &str) -> Result<CartInput, EngineError> {
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let cart = CartInput::deserialize(&mut deserializer).map_err(engine_error)?;
    deserializer.end().map_err(engine_error)?;
    Ok(cart)
}

/// Reads a cart from a parsed JSON value.
pub fn cart_from_value(value: &serde_json::Value) -> Result<CartInput, EngineError> {
    CartInput::deserialize(value).map_err(engine_error)
}

/// Turns an error that came up through the readers into the engine's error.
pub(crate) fn engine_error(error: impl Display) -> EngineError {
    let message = error.to_string();
    let message = without_position(&message);
    match message.split_once(MARK) {
        Some((path, reason)) => EngineError::input(path, reason),
        None => EngineError::input("", message),
    }
}

/// serde_json ends its messages with " at line L column C": no help to a caller with an object.
fn without_position(message: &str) -> &str {
    const AT_LINE: &[u8] = b" at line ";
    let bytes = message.as_bytes();
    match bytes.windows(AT_LINE.len()).rposition(|window| window == AT_LINE) {
        Some(at) if bytes[at..].windows(8).any(|window| window == b" column ") => &message[..at],
        _ => message,
    }
}

enum Segment<'a> {
    Key(&'a str),
    Index(usize),
}

/// Puts `segment` in front of the path an error carries (or starts its path).
#[inline(never)]
fn within<E: de::Error>(segment: Segment<'_>, error: E) -> E {
    let message = error.to_string();
    let message = without_position(&message);
    let (path, reason) = message.split_once(MARK).unwrap_or(("", message));
    let joint = if path.is_empty() || path.starts_with('[') { "" } else { "." };
    match segment {
        Segment::Key(key) => E::custom(format_args!("{key}{joint}{path}{MARK}{reason}")),
        Segment::Index(index) => E::custom(format_args!("[{index}]{joint}{path}{MARK}{reason}")),
    }
}

/// A float where an object or a list belongs, worded the same by every format.
fn wrong_float<E: de::Error>(value: f64, expected: &dyn de::Expected) -> E {
    E::custom(format_args!("invalid type: floating point{}, expected {expected}", Float(value, " `", "`")))
}

/// A float in an error message when it has a short decimal form (`1.5`, `0.25`), written with
/// integer arithmetic only: float formatting would double the engine's WebAssembly size, and
/// these messages must read the same natively and as WebAssembly. Other floats are left out.
struct Float(f64, &'static str, &'static str);

impl Display for Float {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Float(value, before, after) = *self;
        let mut scale = 1.0;
        for decimals in 0..=6u32 {
            let scaled = value * scale;
            if scaled.trunc() == scaled && scaled.abs() < MAX_SAFE_INTEGER as f64 {
                let scaled = scaled as i64;
                let unit = 10i64.pow(decimals);
                let sign = if scaled < 0 { "-" } else { "" };
                let (units, fraction) = (scaled.unsigned_abs() / unit as u64, scaled.unsigned_abs() % unit as u64);
                return match decimals {
                    0 => write!(f, "{before}{sign}{units}{after}"),
                    _ => write!(f, "{before}{sign}{units}.{fraction:0width$}{after}", width = decimals as usize),
                };
            }
            scale *= 10.0;
        }
        Ok(())
    }
}

fn missing<E: de::Error>(key: &str) -> E {
    E::custom(format_args!("{key}{MARK}missing"))
}

/// A field whose value was read but cannot be used: `reason` says why.
fn invalid<E: de::Error>(path: impl Display, reason: impl Display) -> E {
    E::custom(format_args!("{path}{MARK}{reason}"))
}

// ---- objects -------------------------------------------------------------------------------

/// A JSON object read field by field into `Self::Fields`, then checked into `Self`.
trait Record: Sized {
    const EXPECTING: &'static str;
    type Fields: Default;
    /// Reads the value of `key` when the record has such a field; `Ok(false)` otherwise.
    fn read<'de, A: MapAccess<'de>>(fields: &mut Self::Fields, key: Key, map: &mut A) -> Result<bool, A::Error>;
    fn finish<E: de::Error>(fields: Self::Fields) -> Result<Self, E>;
}

/// The value of the field `key`, with its name put in front of any error. Never inlined: one
/// copy per value type rather than one per field keeps the WebAssembly small.
#[inline(never)]
fn field<'de, A: MapAccess<'de>, T: Deserialize<'de>>(map: &mut A, key: Key) -> Result<T, A::Error> {
    map.next_value().map_err(|error| within(Segment::Key(key.name()), error))
}

fn required<E: de::Error, T>(value: Option<T>, key: Key) -> Result<T, E> {
    value.ok_or_else(|| missing(key.name()))
}

struct RecordVisitor<T>(PhantomData<T>);

impl<'de, T: Record> Visitor<'de> for RecordVisitor<T> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(T::EXPECTING)
    }

    fn visit_f64<E: de::Error>(self, value: f64) -> Result<T, E> {
        Err(wrong_float(value, &self))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<T, A::Error> {
        let mut fields = T::Fields::default();
        while let Some(key) = map.next_key_seed(KeySeed)? {
            let read = match key {
                Some(key) => T::read(&mut fields, key, &mut map)?,
                None => false,
            };
            if !read {
                map.next_value::<IgnoredAny>()?;
            }
        }
        T::finish(fields)
    }
}

/// Reads a field name as a [`Key`] (`None` for names the engine does not read): from text, or
/// as the key's index when the format carries indexes (the WebAssembly boundary).
struct KeySeed;

impl<'de> DeserializeSeed<'de> for KeySeed {
    type Value = Option<Key>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Option<Key>, D::Error> {
        deserializer.deserialize_identifier(self)
    }
}

impl<'de> Visitor<'de> for KeySeed {
    type Value = Option<Key>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a field name")
    }

    fn visit_str<E: de::Error>(self, name: &str) -> Result<Option<Key>, E> {
        Ok(Key::parse(name))
    }

    fn visit_u64<E: de::Error>(self, index: u64) -> Result<Option<Key>, E> {
        Ok(Key::ALL.get(index as usize).copied())
    }
}

macro_rules! deserialize_record {
    ($($record:ty),*) => {$(
        impl<'de> Deserialize<'de> for $record {
            fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                // `deserialize_any`, so that a wrong type reaches the visitor, which words the
                // error the same whatever the format (serde_json words floats its own way).
                deserializer.deserialize_any(RecordVisitor::<$record>(PhantomData))
            }
        }
    )*};
}

deserialize_record!(CartInput, ShippingData, ActivityData, ManjianTier, CartItem, Goods, LadderStep);

#[derive(Default)]
pub struct CartInputFields {
    items: Option<Vec<CartItem>>,
    shipping_data: Option<ShippingData>,
    activity_data: Option<ActivityData>,
    settlement: Option<SettlementInput>,
}

impl Record for CartInput {
    const EXPECTING: &'static str = "a cart object";
    type Fields = CartInputFields;

    fn read<'de, A: MapAccess<'de>>(f: &mut Self::Fields, key: Key, map: &mut A) -> Result<bool, A::Error> {
        match key {
            Key::Items => f.items = Some(field::<_, List<CartItem>>(map, key)?.0),
            Key::ShippingData => f.shipping_data = field(map, key)?,
            Key::ActivityData => f.activity_data = field(map, key)?,
            Key::Settlement => {
                f.settlement = match field::<_, Node>(map, key)? {
                    Node::Null => None,
                    node => Some(
                        settlement::settlement(&node)
                            .map_err(|wrong| within(Segment::Key(key.name()), invalid::<A::Error>(wrong.path, wrong.reason)))?,
                    ),
                }
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    fn finish<E: de::Error>(f: Self::Fields) -> Result<Self, E> {
        Ok(CartInput {
            items: required(f.items, Key::Items)?,
            shipping_data: f.shipping_data.unwrap_or_default(),
            activity_data: f.activity_data.unwrap_or_default(),
            settlement: f.settlement,
        })
    }
}

/// Reads the `settlement` object alone (`CartSession.settle`), its errors under `settlement.`.
#[cfg(feature = "wasm")]
pub(crate) fn settlement<'de, D: Deserializer<'de>>(deserializer: D) -> Result<SettlementInput, EngineError> {
    let prefix = |error: D::Error| engine_error(within(Segment::Key(Key::Settlement.name()), error));
    let node = Node::deserialize(deserializer).map_err(prefix)?;
    settlement::settlement(&node).map_err(|wrong| prefix(invalid(wrong.path, wrong.reason)))
}

#[derive(Default)]
pub struct ShippingFields {
    shipping_amount: Option<Money>,
    no_trans_order_amount: Option<Money>,
}

impl Record for ShippingData {
    const EXPECTING: &'static str = "shipping data";
    type Fields = ShippingFields;

    fn read<'de, A: MapAccess<'de>>(f: &mut Self::Fields, key: Key, map: &mut A) -> Result<bool, A::Error> {
        match key {
            Key::ShippingAmount => f.shipping_amount = field(map, key)?,
            Key::NoTransOrderAmount => f.no_trans_order_amount = field(map, key)?,
            _ => return Ok(false),
        }
        Ok(true)
    }

    fn finish<E: de::Error>(f: Self::Fields) -> Result<Self, E> {
        Ok(ShippingData {
            shipping_amount: f.shipping_amount.unwrap_or_default(),
            no_trans_order_amount: f.no_trans_order_amount.unwrap_or_default(),
        })
    }
}

#[derive(Default)]
pub struct ActivityFields {
    manjians: Option<Vec<ManjianTier>>,
}

impl Record for ActivityData {
    const EXPECTING: &'static str = "activity data";
    type Fields = ActivityFields;

    fn read<'de, A: MapAccess<'de>>(f: &mut Self::Fields, key: Key, map: &mut A) -> Result<bool, A::Error> {
        match key {
            Key::Manjians => f.manjians = field::<_, Option<List<ManjianTier>>>(map, key)?.map(|list| list.0),
            _ => return Ok(false),
        }
        Ok(true)
    }

    fn finish<E: de::Error>(f: Self::Fields) -> Result<Self, E> {
        Ok(ActivityData { manjians: f.manjians.unwrap_or_default() })
    }
}

#[derive(Default)]
pub struct TierFields {
    amount: Option<Money>,
    reduce: Option<Money>,
}

impl Record for ManjianTier {
    const EXPECTING: &'static str = "a full-reduction tier";
    type Fields = TierFields;

    fn read<'de, A: MapAccess<'de>>(f: &mut Self::Fields, key: Key, map: &mut A) -> Result<bool, A::Error> {
        match key {
            Key::Amount => f.amount = Some(field(map, key)?),
            Key::Reduce => f.reduce = field(map, key)?,
            _ => return Ok(false),
        }
        Ok(true)
    }

    fn finish<E: de::Error>(f: Self::Fields) -> Result<Self, E> {
        Ok(ManjianTier { amount: required(f.amount, Key::Amount)?, reduce: f.reduce })
    }
}

#[derive(Default)]
pub struct ItemFields {
    id: Option<i64>,
    line_type: Option<i64>,
    quantity: Option<u32>,
    price: Option<Money>,
    is_selected: Option<bool>,
    with_coupon: Option<bool>,
    goods_manjian_id: Option<i64>,
    goods: Option<Goods>,
    combination: Option<Goods>,
}

impl Record for CartItem {
    const EXPECTING: &'static str = "a cart line object";
    type Fields = ItemFields;

    fn read<'de, A: MapAccess<'de>>(f: &mut Self::Fields, key: Key, map: &mut A) -> Result<bool, A::Error> {
        match key {
            Key::Id => f.id = Some(field::<_, Integer>(map, key)?.0),
            Key::Type => f.line_type = field::<_, Option<Integer>>(map, key)?.map(|n| n.0),
            Key::Number => f.quantity = Some(field::<_, Quantity>(map, key)?.0),
            Key::Price => f.price = Some(field(map, key)?),
            Key::IsSelected => f.is_selected = Some(field::<_, Flag>(map, key)?.0),
            Key::WithCoupon => f.with_coupon = field::<_, Option<Flag>>(map, key)?.map(|flag| flag.0),
            Key::GoodsManjianId => f.goods_manjian_id = field::<_, Option<Integer>>(map, key)?.map(|n| n.0),
            Key::Goods => f.goods = Some(field(map, key)?),
            Key::Combination => f.combination = field(map, key)?,
            _ => return Ok(false),
        }
        Ok(true)
    }

    fn finish<E: de::Error>(f: Self::Fields) -> Result<Self, E> {
        Ok(CartItem {
            id: required(f.id, Key::Id)?,
            line_type: f.line_type,
            quantity: required(f.quantity, Key::Number)?,
            price: required(f.price, Key::Price)?,
            is_selected: required(f.is_selected, Key::IsSelected)?,
            with_coupon: f.with_coupon.unwrap_or(false),
            goods_manjian_id: f.goods_manjian_id.unwrap_or(0),
            goods: required(f.goods, Key::Goods)?,
            combination: f.combination,
        })
    }
}

#[derive(Default)]
pub struct GoodsFields {
    id: Option<i64>,
    is_buy: Option<bool>,
    stock: Option<i64>,
    is_youx: Option<bool>,
    goods_type: Option<i64>,
    is_dpby: Option<bool>,
    qg_number: Option<i64>,
    base_price: Option<Money>,
    ladder: Option<Ladder>,
    ladder_price_type: Option<i64>,
}

impl Record for Goods {
    const EXPECTING: &'static str = "a goods object";
    type Fields = GoodsFields;

    fn read<'de, A: MapAccess<'de>>(f: &mut Self::Fields, key: Key, map: &mut A) -> Result<bool, A::Error> {
        match key {
            Key::Id => f.id = Some(field::<_, Integer>(map, key)?.0),
            Key::IsBuy => f.is_buy = Some(field::<_, Flag>(map, key)?.0),
            Key::Number => f.stock = Some(field::<_, Integer>(map, key)?.0),
            Key::IsYoux => f.is_youx = field::<_, Option<Flag>>(map, key)?.map(|flag| flag.0),
            Key::Type => f.goods_type = field::<_, Option<Integer>>(map, key)?.map(|n| n.0),
            Key::IsDpby => f.is_dpby = field::<_, Option<Flag>>(map, key)?.map(|flag| flag.0),
            Key::QgNumber => f.qg_number = field::<_, Option<Integer>>(map, key)?.map(|n| n.0),
            Key::BasePrice => f.base_price = field(map, key)?,
            Key::LadderPrice => f.ladder = field::<_, Option<List<LadderStep>>>(map, key)?.map(|list| Ladder::new(list.0)),
            Key::LadderPriceType => f.ladder_price_type = field::<_, Option<Integer>>(map, key)?.map(|n| n.0),
            _ => return Ok(false),
        }
        Ok(true)
    }

    fn finish<E: de::Error>(f: Self::Fields) -> Result<Self, E> {
        Ok(Goods {
            id: required(f.id, Key::Id)?,
            is_buy: required(f.is_buy, Key::IsBuy)?,
            stock: required(f.stock, Key::Number)?,
            is_youx: f.is_youx.unwrap_or(false),
            goods_type: f.goods_type,
            is_dpby: f.is_dpby.unwrap_or(false),
            qg_number: f.qg_number.unwrap_or(0),
            base_price: f.base_price,
            ladder: f.ladder.unwrap_or_default(),
            ladder_price_type: f.ladder_price_type,
        })
    }
}

#[derive(Default)]
pub struct StepFields {
    number: Option<u32>,
    price: Option<Money>,
}

impl Record for LadderStep {
    const EXPECTING: &'static str = "a ladder entry { number, price }";
    type Fields = StepFields;

    fn read<'de, A: MapAccess<'de>>(f: &mut Self::Fields, key: Key, map: &mut A) -> Result<bool, A::Error> {
        match key {
            Key::Number => f.number = Some(field::<_, Quantity>(map, key)?.0),
            Key::Price => f.price = Some(field(map, key)?),
            _ => return Ok(false),
        }
        Ok(true)
    }

    fn finish<E: de::Error>(f: Self::Fields) -> Result<Self, E> {
        Ok(LadderStep { number: required(f.number, Key::Number)?, price: required(f.price, Key::Price)? })
    }
}

// ---- lists ---------------------------------------------------------------------------------

/// A JSON array whose elements' errors carry their index.
struct List<T>(Vec<T>);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for List<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(ListVisitor(PhantomData))
    }
}

struct ListVisitor<T>(PhantomData<T>);

impl<'de, T: Deserialize<'de>> Visitor<'de> for ListVisitor<T> {
    type Value = List<T>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an array")
    }

    fn visit_f64<E: de::Error>(self, value: f64) -> Result<List<T>, E> {
        Err(wrong_float(value, &self))
    }

    fn visit_seq<S: SeqAccess<'de>>(self, mut seq: S) -> Result<List<T>, S::Error> {
        let mut list = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
        loop {
            let index = list.len();
            match seq.next_element() {
                Ok(Some(element)) => list.push(element),
                Ok(None) => return Ok(List(list)),
                Err(error) => return Err(within(Segment::Index(index), error)),
            }
        }
    }
}

// ---- scalars -------------------------------------------------------------------------------

impl<'de> Deserialize<'de> for Money {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Money, D::Error> {
        deserializer.deserialize_any(MoneyVisitor)
    }
}

struct MoneyVisitor;

impl<'de> Visitor<'de> for MoneyVisitor {
    type Value = Money;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a decimal amount as a string or a number")
    }

    fn visit_str<E: de::Error>(self, text: &str) -> Result<Money, E> {
        Money::parse(text).map_err(E::custom)
    }

    fn visit_u64<E: de::Error>(self, value: u64) -> Result<Money, E> {
        Money::from_integer(value as i128).map_err(E::custom)
    }

    fn visit_i64<E: de::Error>(self, value: i64) -> Result<Money, E> {
        Money::from_integer(value as i128).map_err(E::custom)
    }

    fn visit_f64<E: de::Error>(self, value: f64) -> Result<Money, E> {
        Money::from_f64(value).map_err(E::custom)
    }
}

/// An integer from a JSON number, within JavaScript's safe range; `3.0` counts (JavaScript
/// cannot tell it from `3`).
struct Integer(i64);

impl<'de> Deserialize<'de> for Integer {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(IntegerVisitor).map(Integer)
    }
}

struct IntegerVisitor;

impl<'de> Visitor<'de> for IntegerVisitor {
    type Value = i64;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an integer")
    }

    fn visit_i64<E: de::Error>(self, value: i64) -> Result<i64, E> {
        // No value in the message: JavaScript cannot hold such integers, and would print
        // another one than native code.
        if value.unsigned_abs() > MAX_SAFE_INTEGER as u64 {
            return Err(E::custom("beyond a safe integer"));
        }
        Ok(value)
    }

    fn visit_u64<E: de::Error>(self, value: u64) -> Result<i64, E> {
        match i64::try_from(value) {
            Ok(value) => self.visit_i64(value),
            Err(_) => Err(E::custom("beyond a safe integer")),
        }
    }

    fn visit_f64<E: de::Error>(self, value: f64) -> Result<i64, E> {
        if value.trunc() != value {
            return Err(E::custom(format_args!("not an integer{}", Float(value, ": ", ""))));
        }
        if value.abs() > MAX_SAFE_INTEGER as f64 {
            return Err(E::custom("beyond a safe integer"));
        }
        Ok(value as i64)
    }
}

/// A quantity: an integer from 1 to [`MAX_QUANTITY`].
struct Quantity(u32);

impl<'de> Deserialize<'de> for Quantity {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = Integer::deserialize(deserializer)?.0;
        if value < 1 {
            return Err(de::Error::custom(format_args!("must be at least 1, got {value}")));
        }
        if value > i64::from(MAX_QUANTITY) {
            return Err(de::Error::custom(format_args!("must be at most {MAX_QUANTITY}, got {value}")));
        }
        Ok(Quantity(value as u32))
    }
}

/// A 0|1 flag; `true`/`false` are read too.
struct Flag(bool);

impl<'de> Deserialize<'de> for Flag {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(FlagVisitor).map(Flag)
    }
}

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
        if value == 0.0 || value == 1.0 {
            Ok(value == 1.0)
        } else {
            Err(E::custom(format_args!("must be 0 or 1{}", Float(value, ", got ", ""))))
        }
    }
}
