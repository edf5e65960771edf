//! Reading a cart from any self-describing serde format (JSON text, a `serde_json::Value`, a
//! JavaScript value), validating as it goes, and naming the first wrong field in the error the
//! way a JavaScript programmer writes it: `items[3].goods.ladder_price[0].price`.
//!
//! The readers are written by hand rather than derived so that the path costs nothing until
//! something is wrong: each level adds its segment to the message of an error passing through
//! it (`MARK` separates the path from the reason). No allocation happens on the good path.

use std::fmt::{self, Display};
use std::marker::PhantomData;

use serde::de::{
    self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor,
};
use serde::Deserialize;

use crate::error::EngineError;
use crate::model::{
    ActivityData, CartInput, CartItem, Goods, Ladder, LadderStep, MAX_QUANTITY, ManjianTier,
    ShippingData,
};
use crate::money::{MAX_SAFE_INTEGER, Money};

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
    match message.rfind(" at line ") {
        Some(at) if message[at..].contains(" column ") => &message[..at],
        _ => message,
    }
}

enum Segment<'a> {
    Key(&'a str),
    Index(usize),
}

/// Puts `segment` in front of the path an error carries (or starts its path).
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

fn missing<E: de::Error>(key: &str) -> E {
    E::custom(format_args!("{key}{MARK}missing"))
}

// ---- objects -------------------------------------------------------------------------------

/// A JSON object read field by field into `Self::Fields`, then checked into `Self`.
trait Record: Sized {
    const EXPECTING: &'static str;
    /// The wire names of the fields the engine reads; all others are ignored.
    const KEYS: &'static [&'static str];
    type Fields: Default;
    fn read<'de, A: MapAccess<'de>>(fields: &mut Self::Fields, key: usize, map: &mut A) -> Result<(), A::Error>;
    fn finish<E: de::Error>(fields: Self::Fields) -> Result<Self, E>;
}

/// The value of the field `keys[key]`, with the key put in front of any error.
fn field<'de, A: MapAccess<'de>, T: Deserialize<'de>>(map: &mut A, key: &str) -> Result<T, A::Error> {
    map.next_value().map_err(|error| within(Segment::Key(key), error))
}

fn required<E: de::Error, T>(value: Option<T>, key: &str) -> Result<T, E> {
    value.ok_or_else(|| missing(key))
}

struct RecordVisitor<T>(PhantomData<T>);

impl<'de, T: Record> Visitor<'de> for RecordVisitor<T> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(T::EXPECTING)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<T, A::Error> {
        let mut fields = T::Fields::default();
        while let Some(key) = map.next_key_seed(KeyIndex(T::KEYS))? {
            match key {
                Some(key) => T::read(&mut fields, key, &mut map)?,
                None => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        T::finish(fields)
    }
}

/// Finds a key among a record's keys without allocating.
struct KeyIndex(&'static [&'static str]);

impl<'de> DeserializeSeed<'de> for KeyIndex {
    type Value = Option<usize>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Option<usize>, D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for KeyIndex {
    type Value = Option<usize>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a field name")
    }

    fn visit_str<E: de::Error>(self, key: &str) -> Result<Option<usize>, E> {
        Ok(self.0.iter().position(|known| *known == key))
    }
}

macro_rules! deserialize_record {
    ($($record:ty),*) => {$(
        impl<'de> Deserialize<'de> for $record {
            fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                deserializer.deserialize_map(RecordVisitor::<$record>(PhantomData))
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
}

impl Record for CartInput {
    const EXPECTING: &'static str = "a cart object";
    const KEYS: &'static [&'static str] = &["items", "shipping_data", "activity_data"];
    type Fields = CartInputFields;

    fn read<'de, A: MapAccess<'de>>(f: &mut Self::Fields, key: usize, map: &mut A) -> Result<(), A::Error> {
        match key {
            0 => f.items = Some(field::<_, Items>(map, "items")?.0),
            1 => f.shipping_data = field(map, "shipping_data")?,
            _ => f.activity_data = field(map, "activity_data")?,
        }
        Ok(())
    }

    fn finish<E: de::Error>(f: Self::Fields) -> Result<Self, E> {
        Ok(CartInput {
            items: required(f.items, "items")?,
            shipping_data: f.shipping_data.unwrap_or_default(),
            activity_data: f.activity_data.unwrap_or_default(),
        })
    }
}

#[derive(Default)]
pub struct ShippingFields {
    shipping_amount: Option<Money>,
    no_trans_order_amount: Option<Money>,
}

impl Record for ShippingData {
    const EXPECTING: &'static str = "shipping data";
    const KEYS: &'static [&'static str] = &["shipping_amount", "no_trans_order_amount"];
    type Fields = ShippingFields;

    fn read<'de, A: MapAccess<'de>>(f: &mut Self::Fields, key: usize, map: &mut A) -> Result<(), A::Error> {
        match key {
            0 => f.shipping_amount = field(map, "shipping_amount")?,
            _ => f.no_trans_order_amount = field(map, "no_trans_order_amount")?,
        }
        Ok(())
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
    const KEYS: &'static [&'static str] = &["manjians"];
    type Fields = ActivityFields;

    fn read<'de, A: MapAccess<'de>>(f: &mut Self::Fields, _: usize, map: &mut A) -> Result<(), A::Error> {
        f.manjians = field::<_, Option<List<ManjianTier>>>(map, "manjians")?.map(|list| list.0);
        Ok(())
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
    const KEYS: &'static [&'static str] = &["amount", "reduce"];
    type Fields = TierFields;

    fn read<'de, A: MapAccess<'de>>(f: &mut Self::Fields, key: usize, map: &mut A) -> Result<(), A::Error> {
        match key {
            0 => f.amount = Some(field(map, "amount")?),
            _ => f.reduce = field(map, "reduce")?,
        }
        Ok(())
    }

    fn finish<E: de::Error>(f: Self::Fields) -> Result<Self, E> {
        Ok(ManjianTier { amount: required(f.amount, "amount")?, reduce: f.reduce })
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
    goods_manjian_amount: Option<Money>,
    goods: Option<Goods>,
    combination: Option<Goods>,
}

impl Record for CartItem {
    const EXPECTING: &'static str = "a cart line object";
    const KEYS: &'static [&'static str] = &[
        "id", "type", "number", "price", "is_selected", "with_coupon", "goods_manjian_id",
        "goods_manjian_amount", "goods", "combination",
    ];
    type Fields = ItemFields;

    fn read<'de, A: MapAccess<'de>>(f: &mut Self::Fields, key: usize, map: &mut A) -> Result<(), A::Error> {
        let name = Self::KEYS[key];
        match key {
            0 => f.id = Some(field::<_, Integer>(map, name)?.0),
            1 => f.line_type = field::<_, Option<Integer>>(map, name)?.map(|n| n.0),
            2 => f.quantity = Some(field::<_, Quantity>(map, name)?.0),
            3 => f.price = Some(field(map, name)?),
            4 => f.is_selected = Some(field::<_, Flag>(map, name)?.0),
            5 => f.with_coupon = field::<_, Option<Flag>>(map, name)?.map(|flag| flag.0),
            6 => f.goods_manjian_id = field::<_, Option<Integer>>(map, name)?.map(|n| n.0),
            7 => f.goods_manjian_amount = field(map, name)?,
            8 => f.goods = Some(field(map, name)?),
            _ => f.combination = field(map, name)?,
        }
        Ok(())
    }

    fn finish<E: de::Error>(f: Self::Fields) -> Result<Self, E> {
        Ok(CartItem {
            id: required(f.id, "id")?,
            line_type: f.line_type,
            quantity: required(f.quantity, "number")?,
            price: required(f.price, "price")?,
            is_selected: required(f.is_selected, "is_selected")?,
            with_coupon: f.with_coupon.unwrap_or(false),
            goods_manjian_id: f.goods_manjian_id.unwrap_or(0),
            goods_manjian_amount: f.goods_manjian_amount.unwrap_or_default(),
            goods: required(f.goods, "goods")?,
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
    const KEYS: &'static [&'static str] = &[
        "id", "is_buy", "number", "is_youx", "type", "is_dpby", "qg_number", "base_price",
        "ladder_price", "ladder_price_type",
    ];
    type Fields = GoodsFields;

    fn read<'de, A: MapAccess<'de>>(f: &mut Self::Fields, key: usize, map: &mut A) -> Result<(), A::Error> {
        let name = Self::KEYS[key];
        match key {
            0 => f.id = Some(field::<_, Integer>(map, name)?.0),
            1 => f.is_buy = Some(field::<_, Flag>(map, name)?.0),
            2 => f.stock = Some(field::<_, Integer>(map, name)?.0),
            3 => f.is_youx = field::<_, Option<Flag>>(map, name)?.map(|flag| flag.0),
            4 => f.goods_type = field::<_, Option<Integer>>(map, name)?.map(|n| n.0),
            5 => f.is_dpby = field::<_, Option<Flag>>(map, name)?.map(|flag| flag.0),
            6 => f.qg_number = field::<_, Option<Integer>>(map, name)?.map(|n| n.0),
            7 => f.base_price = field(map, name)?,
            8 => f.ladder = field::<_, Option<List<LadderStep>>>(map, name)?.map(|list| Ladder::new(list.0)),
            _ => f.ladder_price_type = field::<_, Option<Integer>>(map, name)?.map(|n| n.0),
        }
        Ok(())
    }

    fn finish<E: de::Error>(f: Self::Fields) -> Result<Self, E> {
        Ok(Goods {
            id: required(f.id, "id")?,
            is_buy: required(f.is_buy, "is_buy")?,
            stock: required(f.stock, "number")?,
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
    const KEYS: &'static [&'static str] = &["number", "price"];
    type Fields = StepFields;

    fn read<'de, A: MapAccess<'de>>(f: &mut Self::Fields, key: usize, map: &mut A) -> Result<(), A::Error> {
        match key {
            0 => f.number = Some(field::<_, Quantity>(map, "number")?.0),
            _ => f.price = Some(field(map, "price")?),
        }
        Ok(())
    }

    fn finish<E: de::Error>(f: Self::Fields) -> Result<Self, E> {
        Ok(LadderStep { number: required(f.number, "number")?, price: required(f.price, "price")? })
    }
}

// ---- lists ---------------------------------------------------------------------------------

/// A JSON array whose elements' errors carry their index.
struct List<T>(Vec<T>);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for List<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_seq(ListVisitor(PhantomData))
    }
}

struct ListVisitor<T>(PhantomData<T>);

impl<'de, T: Deserialize<'de>> Visitor<'de> for ListVisitor<T> {
    type Value = List<T>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an array")
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

/// The cart's lines: a list that may not be null.
struct Items(Vec<CartItem>);

impl<'de> Deserialize<'de> for Items {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        List::deserialize(deserializer).map(|list| Items(list.0))
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
        if value.unsigned_abs() > MAX_SAFE_INTEGER as u64 {
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
        if !value.is_finite() || value.fract() != 0.0 {
            return Err(E::custom(format_args!("not an integer: {value}")));
        }
        if value.abs() > MAX_SAFE_INTEGER as f64 {
            return Err(E::custom(format_args!("{value} is beyond a safe integer")));
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
            Err(E::custom(format_args!("must be 0 or 1, got {value}")))
        }
    }
}
