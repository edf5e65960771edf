//! Reading a cart from any self-describing serde format (JSON text, a `serde_json::Value`, a
//! JavaScript value), validating as it goes, and naming the first wrong field in the error the
//! way a JavaScript programmer writes it: `items[3].goods.ladder_price[0].price`.
//!
//! Two visitors read the whole cart, whatever the format: [`Reader`] reads objects and lists
//! (told their [`Shape`]), [`ScalarReader`] reads amounts, integers, quantities and flags (told
//! the [`Slot`] to keep them in). Which fields an object has, what each is read as, and what is
//! wrong with a value are plain functions written once. serde's generic code is so instantiated
//! twice per format, not once per field type and format, which keeps the WebAssembly small; and
//! every format gets the same errors. Values are read in document order and straight into their
//! place in the cart (a cart line is never moved from reader to reader), a later field of the
//! same name replacing an earlier one; required fields are checked when their object ends.
//!
//! The path costs nothing until something is wrong: each level adds its segment to the message
//! of an error passing through it (`MARK` separates the path from the reason). No allocation
//! happens on the good path but the cart's own.

use std::fmt::{self, Display};

use serde::Deserialize;
use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Unexpected, Visitor};

use crate::error::EngineError;
use crate::model::{
    ActivityData, CartInput, CartItem, Goods, Ladder, LadderStep, MAX_QUANTITY, ManjianTier, SettlementInput, ShippingData,
};
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
fn wrong_float(value: f64, expected: &str) -> String {
    format!("invalid type: floating point{}, expected {expected}", Float(value, " `", "`"))
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

// ---- what is read ------------------------------------------------------------------------

/// What a value is read as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Shape {
    Cart,
    Shipping,
    Activity,
    Tier,
    Item,
    Goods,
    Step,
    /// Lists of cart lines, of tiers and of ladder entries.
    Items,
    Tiers,
    Ladder,
    /// The `settlement` object, read by `settlement.rs`.
    Settlement,
}

impl Shape {
    /// What the shape is called in a wrong type's error.
    fn expecting(self) -> &'static str {
        match self {
            Shape::Cart => "a cart object",
            Shape::Shipping => "shipping data",
            Shape::Activity => "activity data",
            Shape::Tier => "a full-reduction tier",
            Shape::Item => "a cart line object",
            Shape::Goods => "a goods object",
            Shape::Step => "a ladder entry { number, price }",
            Shape::Items | Shape::Tiers | Shape::Ladder => "an array",
            Shape::Settlement => "a JSON value",
        }
    }

    /// The shape of a list's elements.
    fn element(self) -> Option<Shape> {
        match self {
            Shape::Items => Some(Shape::Item),
            Shape::Tiers => Some(Shape::Tier),
            Shape::Ladder => Some(Shape::Step),
            _ => None,
        }
    }

    /// The fields an object of this shape must have, in the order their absence is an error.
    fn required(self) -> &'static [Key] {
        match self {
            Shape::Cart => &[Key::Items],
            Shape::Tier => &[Key::Amount],
            Shape::Item => &[Key::Id, Key::Number, Key::Price, Key::IsSelected, Key::Goods],
            Shape::Goods => &[Key::Id, Key::IsBuy, Key::Number],
            Shape::Step => &[Key::Number, Key::Price],
            _ => &[],
        }
    }
}

/// Where an object, a list or the settlement is read: in place, so that a cart line is never
/// moved whole from reader to reader.
enum Out<'a> {
    Cart(&'a mut CartInput),
    Shipping(&'a mut ShippingData),
    Activity(&'a mut ActivityData),
    Tier(&'a mut ManjianTier),
    Item(&'a mut CartItem),
    Goods(&'a mut Goods),
    Step(&'a mut LadderStep),
    Items(&'a mut Vec<CartItem>),
    Tiers(&'a mut Vec<ManjianTier>),
    Ladder(&'a mut Vec<LadderStep>),
    Settlement(&'a mut Option<SettlementInput>),
}

/// Where a scalar is read, which says what it is read as. Null, where a field may be null,
/// puts back the zero of the slot (0, false, no value), which is every such field's default.
enum Slot<'a> {
    Money(&'a mut Money),
    OptionalMoney(&'a mut Option<Money>),
    /// An integer from a JSON number, within JavaScript's safe range; `3.0` counts
    /// (JavaScript cannot tell it from `3`).
    Integer(&'a mut i64),
    OptionalInteger(&'a mut Option<i64>),
    /// An integer from 1 to [`MAX_QUANTITY`].
    Quantity(&'a mut u32),
    /// A 0|1 flag; `true`/`false` are read too.
    Flag(&'a mut bool),
}

impl Slot<'_> {
    /// What the slot takes, in a wrong type's error.
    fn expecting(&self) -> &'static str {
        match self {
            Slot::Money(_) | Slot::OptionalMoney(_) => "a decimal amount as a string or a number",
            Slot::Integer(_) | Slot::OptionalInteger(_) | Slot::Quantity(_) => "an integer",
            Slot::Flag(_) => "0 or 1",
        }
    }

    /// Keeps `found`: `Err(None)` when it is of the wrong type (the format words that error),
    /// `Err(Some(reason))` when its value is wrong.
    // Natively inlined into each `visit_*`, where it folds to the cases that type can take; in
    // WebAssembly, one copy.
    #[cfg_attr(target_arch = "wasm32", inline(never))]
    #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
    fn put(self, found: Found<'_>) -> Result<(), Option<String>> {
        match self {
            Slot::Money(slot) => *slot = money(found)?,
            Slot::OptionalMoney(slot) => *slot = Some(money(found)?),
            Slot::Integer(slot) => *slot = integer(found)?,
            Slot::OptionalInteger(slot) => *slot = Some(integer(found)?),
            Slot::Quantity(slot) => {
                let value = integer(found)?;
                if value < 1 {
                    return Err(Some(format!("must be at least 1, got {value}")));
                }
                if value > i64::from(MAX_QUANTITY) {
                    return Err(Some(format!("must be at most {MAX_QUANTITY}, got {value}")));
                }
                *slot = value as u32;
            }
            Slot::Flag(slot) => *slot = flag(found)?,
        }
        Ok(())
    }

    /// Null, where the field may be null.
    fn clear(self) {
        match self {
            Slot::Money(slot) => *slot = Money::ZERO,
            Slot::OptionalMoney(slot) => *slot = None,
            Slot::Integer(slot) => *slot = 0,
            Slot::OptionalInteger(slot) => *slot = None,
            Slot::Quantity(slot) => *slot = 0,
            Slot::Flag(slot) => *slot = false,
        }
    }
}

/// A scalar (or the kind of a compound value) as the format hands it to the reader.
#[derive(Clone, Copy)]
enum Found<'a> {
    Null,
    Bool(bool),
    Int(i64),
    UInt(u64),
    Float(f64),
    Text(&'a str),
    Option,
}

impl Found<'_> {
    fn unexpected(&self) -> Unexpected<'_> {
        match *self {
            Found::Null => Unexpected::Unit,
            Found::Bool(value) => Unexpected::Bool(value),
            Found::Int(value) => Unexpected::Signed(value),
            Found::UInt(value) => Unexpected::Unsigned(value),
            Found::Float(value) => Unexpected::Float(value),
            Found::Text(text) => Unexpected::Str(text),
            Found::Option => Unexpected::Option,
        }
    }
}

fn money(found: Found<'_>) -> Result<Money, Option<String>> {
    let read = match found {
        Found::Text(text) => Money::parse(text),
        Found::UInt(value) => Money::from_integer(value as i128),
        Found::Int(value) => Money::from_integer(value as i128),
        Found::Float(value) => Money::from_f64(value),
        _ => return Err(None),
    };
    read.map_err(|error| Some(error.to_string()))
}

fn integer(found: Found<'_>) -> Result<i64, Option<String>> {
    // No value in the message: JavaScript cannot hold such integers, and would print another
    // one than native code.
    let beyond = || Some("beyond a safe integer".to_owned());
    match found {
        Found::Int(value) if value.unsigned_abs() > MAX_SAFE_INTEGER as u64 => Err(beyond()),
        Found::Int(value) => Ok(value),
        Found::UInt(value) if value > MAX_SAFE_INTEGER as u64 => Err(beyond()),
        Found::UInt(value) => Ok(value as i64),
        Found::Float(value) if value.trunc() != value => Err(Some(format!("not an integer{}", Float(value, ": ", "")))),
        Found::Float(value) if value.abs() > MAX_SAFE_INTEGER as f64 => Err(beyond()),
        Found::Float(value) => Ok(value as i64),
        _ => Err(None),
    }
}

fn flag(found: Found<'_>) -> Result<bool, Option<String>> {
    let value = match found {
        Found::Bool(value) => return Ok(value),
        Found::Int(value) => value,
        Found::UInt(value) => i64::try_from(value).unwrap_or(i64::MAX),
        Found::Float(value) if value == 0.0 || value == 1.0 => return Ok(value == 1.0),
        Found::Float(value) => return Err(Some(format!("must be 0 or 1{}", Float(value, ", got ", "")))),
        _ => return Err(None),
    };
    match value {
        0 => Ok(false),
        1 => Ok(true),
        _ => Err(Some(format!("must be 0 or 1, got {value}"))),
    }
}

// ---- objects -------------------------------------------------------------------------------

// An object's reader keeps a bit for every key it read.
const _: () = assert!(Key::ALL.len() <= 64);

/// Goods before their fields are read.
fn no_goods() -> Goods {
    Goods {
        id: 0,
        is_buy: false,
        stock: 0,
        is_youx: false,
        goods_type: None,
        is_dpby: false,
        qg_number: 0,
        base_price: None,
        ladder: Ladder::default(),
        ladder_price_type: None,
    }
}

/// A cart line before its fields are read.
fn no_item() -> CartItem {
    CartItem {
        id: 0,
        line_type: None,
        quantity: 0,
        price: Money::ZERO,
        is_selected: false,
        with_coupon: false,
        goods_manjian_id: 0,
        goods: no_goods(),
        combination: None,
    }
}

fn no_tier() -> ManjianTier {
    ManjianTier { amount: Money::ZERO, reduce: None }
}

fn no_step() -> LadderStep {
    LadderStep { number: 0, price: Money::ZERO }
}

/// Where field `key` of an object is read, and whether it may be null.
enum Field<'a> {
    /// A field the engine does not read in this object.
    Ignored,
    Scalar(Slot<'a>, bool),
    /// An object, a list or the settlement, emptied first: a later field of the same name
    /// replaces an earlier one.
    Compound(Shape, bool, Out<'a>),
}

/// Where field `key` of `record` is read.
fn field<'a>(record: &'a mut Out<'_>, key: Key) -> Field<'a> {
    let (slot, optional) = match (record, key) {
        (Out::Cart(cart), Key::Items) => {
            cart.items.clear();
            return Field::Compound(Shape::Items, false, Out::Items(&mut cart.items));
        }
        (Out::Cart(cart), Key::ShippingData) => {
            cart.shipping_data = ShippingData::default();
            return Field::Compound(Shape::Shipping, true, Out::Shipping(&mut cart.shipping_data));
        }
        (Out::Cart(cart), Key::ActivityData) => {
            cart.activity_data = ActivityData::default();
            return Field::Compound(Shape::Activity, true, Out::Activity(&mut cart.activity_data));
        }
        (Out::Cart(cart), Key::Settlement) => return Field::Compound(Shape::Settlement, false, Out::Settlement(&mut cart.settlement)),
        (Out::Shipping(data), Key::ShippingAmount) => (Slot::Money(&mut data.shipping_amount), true),
        (Out::Shipping(data), Key::NoTransOrderAmount) => (Slot::Money(&mut data.no_trans_order_amount), true),
        (Out::Activity(data), Key::Manjians) => {
            data.manjians.clear();
            return Field::Compound(Shape::Tiers, true, Out::Tiers(&mut data.manjians));
        }
        (Out::Tier(tier), Key::Amount) => (Slot::Money(&mut tier.amount), false),
        (Out::Tier(tier), Key::Reduce) => (Slot::OptionalMoney(&mut tier.reduce), true),
        (Out::Item(item), Key::Id) => (Slot::Integer(&mut item.id), false),
        (Out::Item(item), Key::Type) => (Slot::OptionalInteger(&mut item.line_type), true),
        (Out::Item(item), Key::Number) => (Slot::Quantity(&mut item.quantity), false),
        (Out::Item(item), Key::Price) => (Slot::Money(&mut item.price), false),
        (Out::Item(item), Key::IsSelected) => (Slot::Flag(&mut item.is_selected), false),
        (Out::Item(item), Key::WithCoupon) => (Slot::Flag(&mut item.with_coupon), true),
        (Out::Item(item), Key::GoodsManjianId) => (Slot::Integer(&mut item.goods_manjian_id), true),
        (Out::Item(item), Key::Goods) => {
            item.goods = no_goods();
            return Field::Compound(Shape::Goods, false, Out::Goods(&mut item.goods));
        }
        (Out::Item(item), Key::Combination) => return Field::Compound(Shape::Goods, true, Out::Goods(item.combination.insert(no_goods()))),
        (Out::Goods(goods), Key::Id) => (Slot::Integer(&mut goods.id), false),
        (Out::Goods(goods), Key::IsBuy) => (Slot::Flag(&mut goods.is_buy), false),
        (Out::Goods(goods), Key::Number) => (Slot::Integer(&mut goods.stock), false),
        (Out::Goods(goods), Key::IsYoux) => (Slot::Flag(&mut goods.is_youx), true),
        (Out::Goods(goods), Key::Type) => (Slot::OptionalInteger(&mut goods.goods_type), true),
        (Out::Goods(goods), Key::IsDpby) => (Slot::Flag(&mut goods.is_dpby), true),
        (Out::Goods(goods), Key::QgNumber) => (Slot::Integer(&mut goods.qg_number), true),
        (Out::Goods(goods), Key::BasePrice) => (Slot::OptionalMoney(&mut goods.base_price), true),
        (Out::Goods(goods), Key::LadderPrice) => {
            goods.ladder = Ladder::default();
            return Field::Compound(Shape::Ladder, true, Out::Ladder(goods.ladder.entries()));
        }
        (Out::Goods(goods), Key::LadderPriceType) => (Slot::OptionalInteger(&mut goods.ladder_price_type), true),
        (Out::Step(step), Key::Number) => (Slot::Quantity(&mut step.number), false),
        (Out::Step(step), Key::Price) => (Slot::Money(&mut step.price), false),
        _ => return Field::Ignored,
    };
    Field::Scalar(slot, optional)
}

/// After an object or a list of `record` was read as field `key` (`Null`: it was null).
fn finish(record: &mut Out<'_>, key: Key, read: Read) {
    match (record, key, read) {
        (Out::Cart(cart), Key::Settlement, Read::Null) => cart.settlement = None,
        (Out::Item(item), Key::Combination, Read::Null) => item.combination = None,
        (Out::Goods(goods), Key::LadderPrice, Read::Built) => goods.ladder.normalize(),
        // Null shipping or activity data, or ladder: emptied by `field` already.
        _ => {}
    }
}

// ---- lists ---------------------------------------------------------------------------------

/// Room for `more` elements in a list.
fn reserve(list: &mut Out<'_>, more: usize) {
    match list {
        Out::Items(items) => items.reserve(more),
        Out::Tiers(tiers) => tiers.reserve(more),
        Out::Ladder(steps) => steps.reserve(more),
        _ => {}
    }
}

/// Appends an element to read to a list: its position, and where it is read.
fn push<'a>(list: &'a mut Out<'_>) -> (usize, Option<Out<'a>>) {
    match list {
        Out::Items(items) => {
            items.push(no_item());
            (items.len() - 1, items.last_mut().map(Out::Item))
        }
        Out::Tiers(tiers) => {
            tiers.push(no_tier());
            (tiers.len() - 1, tiers.last_mut().map(Out::Tier))
        }
        Out::Ladder(steps) => {
            steps.push(no_step());
            (steps.len() - 1, steps.last_mut().map(Out::Step))
        }
        _ => (0, None),
    }
}

/// Takes back the element [`push`] appended, when the list had no more.
fn pop(list: &mut Out<'_>) {
    match list {
        Out::Items(items) => drop(items.pop()),
        Out::Tiers(tiers) => drop(tiers.pop()),
        Out::Ladder(steps) => drop(steps.pop()),
        _ => {}
    }
}

// ---- the readers ---------------------------------------------------------------------------

/// Reads a scalar into `slot` (where `optional`, it may be null): kept where it is read, a
/// value never travels back through serde.
struct ScalarReader<'a> {
    slot: Slot<'a>,
    optional: bool,
}

impl ScalarReader<'_> {
    // Natively inlined into each `visit_*`; in WebAssembly, one copy.
    #[cfg_attr(target_arch = "wasm32", inline(never))]
    #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
    fn found<E: de::Error>(self, found: Found<'_>) -> Result<(), E> {
        let expecting = Expecting(self.slot.expecting());
        self.slot.put(found).map_err(|problem| match problem {
            Some(reason) => E::custom(reason),
            None => E::invalid_type(found.unexpected(), &expecting),
        })
    }
}

/// What a reader expected, in a wrong type's error.
struct Expecting(&'static str);

impl de::Expected for Expecting {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

impl<'de> DeserializeSeed<'de> for ScalarReader<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        if self.optional {
            deserializer.deserialize_option(self)
        } else {
            // `deserialize_any`, so that a wrong type reaches the visitor, which words the
            // error the same whatever the format (serde_json words floats its own way).
            deserializer.deserialize_any(self)
        }
    }
}

/// Lists and objects where a scalar belongs are refused by serde's own `visit_seq` and
/// `visit_map`, worded as a wrong scalar is.
impl<'de> Visitor<'de> for ScalarReader<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.slot.expecting())
    }

    fn visit_bool<E: de::Error>(self, value: bool) -> Result<(), E> {
        self.found(Found::Bool(value))
    }

    fn visit_i64<E: de::Error>(self, value: i64) -> Result<(), E> {
        self.found(Found::Int(value))
    }

    fn visit_u64<E: de::Error>(self, value: u64) -> Result<(), E> {
        self.found(Found::UInt(value))
    }

    fn visit_f64<E: de::Error>(self, value: f64) -> Result<(), E> {
        self.found(Found::Float(value))
    }

    fn visit_str<E: de::Error>(self, text: &str) -> Result<(), E> {
        self.found(Found::Text(text))
    }

    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        if self.optional {
            self.slot.clear();
            Ok(())
        } else {
            self.found(Found::Null)
        }
    }

    fn visit_none<E: de::Error>(self) -> Result<(), E> {
        if self.optional {
            self.slot.clear();
            Ok(())
        } else {
            self.found(Found::Option)
        }
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        if self.optional { ScalarReader { optional: false, ..self }.deserialize(deserializer) } else { self.found(Found::Option) }
    }
}

/// What a [`Reader`] read: the value, or null.
enum Read {
    Null,
    Built,
}

/// Reads an object, a list or the settlement of `shape` (where `optional`, it may be null)
/// into `out`.
struct Reader<'a> {
    shape: Shape,
    optional: bool,
    out: Out<'a>,
}

impl<'de> DeserializeSeed<'de> for Reader<'_> {
    type Value = Read;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Read, D::Error> {
        match (self.shape, self.optional) {
            (Shape::Settlement, _) => read_settlement(deserializer, self.out),
            (_, true) => deserializer.deserialize_option(self),
            (_, false) => deserializer.deserialize_any(self),
        }
    }
}

/// Booleans, integers and strings where an object or a list belongs are refused by serde's own
/// `visit_bool`, `visit_i64`... (`invalid type: string "3", expected a goods object`); floats
/// are worded here, the same by every format.
impl<'de> Visitor<'de> for Reader<'_> {
    type Value = Read;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.shape.expecting())
    }

    fn visit_f64<E: de::Error>(self, value: f64) -> Result<Read, E> {
        Err(E::custom(wrong_float(value, self.shape.expecting())))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Read, E> {
        if self.optional { Ok(Read::Null) } else { Err(E::invalid_type(Unexpected::Unit, &self)) }
    }

    fn visit_none<E: de::Error>(self) -> Result<Read, E> {
        if self.optional { Ok(Read::Null) } else { Err(E::invalid_type(Unexpected::Option, &self)) }
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Read, D::Error> {
        if self.optional {
            Reader { optional: false, ..self }.deserialize(deserializer)
        } else {
            Err(de::Error::invalid_type(Unexpected::Option, &self))
        }
    }

    fn visit_seq<S: SeqAccess<'de>>(self, mut seq: S) -> Result<Read, S::Error> {
        let Some(element) = self.shape.element() else { return Err(de::Error::invalid_type(Unexpected::Seq, &self)) };
        let mut list = self.out;
        reserve(&mut list, seq.size_hint().unwrap_or(0).min(4096));
        loop {
            let (index, out) = push(&mut list);
            let Some(out) = out else { return Ok(Read::Built) };
            match seq.next_element_seed(Reader { shape: element, optional: false, out }) {
                Ok(Some(_)) => {}
                Ok(None) => {
                    pop(&mut list);
                    return Ok(Read::Built);
                }
                // The element's position in front of its errors.
                Err(error) => return Err(within(Segment::Index(index), error)),
            }
        }
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Read, A::Error> {
        let shape = self.shape;
        if shape.element().is_some() || shape == Shape::Settlement {
            return Err(de::Error::invalid_type(Unexpected::Map, &self));
        }
        let mut record = self.out;
        let mut seen = 0u64;
        while let Some(key) = map.next_key_seed(KeySeed)? {
            let Some(key) = key else {
                map.next_value::<IgnoredAny>()?;
                continue;
            };
            // The field's name in front of its errors.
            let within_key = |error| within(Segment::Key(key.name()), error);
            match field(&mut record, key) {
                Field::Ignored => {
                    map.next_value::<IgnoredAny>()?;
                    continue;
                }
                Field::Scalar(slot, optional) => map.next_value_seed(ScalarReader { slot, optional }).map_err(within_key)?,
                Field::Compound(shape, optional, out) => {
                    let read = map.next_value_seed(Reader { shape, optional, out }).map_err(within_key)?;
                    finish(&mut record, key, read);
                }
            }
            seen |= 1 << key as u32;
        }
        match shape.required().iter().find(|key| seen & 1 << **key as u32 == 0) {
            Some(key) => Err(de::Error::custom(format_args!("{}{MARK}missing", key.name()))),
            None => Ok(Read::Built),
        }
    }
}

/// The `settlement` field: read as a tree, then checked (`settlement.rs`). Out of line: the
/// reader of every other value stays small.
#[inline(never)]
fn read_settlement<'de, D: Deserializer<'de>>(deserializer: D, out: Out<'_>) -> Result<Read, D::Error> {
    match Node::deserialize(deserializer)? {
        Node::Null => Ok(Read::Null),
        node => {
            let input =
                settlement::settlement(&node).map_err(|wrong| de::Error::custom(format_args!("{}{MARK}{}", wrong.path, wrong.reason)))?;
            if let Out::Settlement(settlement) = out {
                *settlement = Some(input);
            }
            Ok(Read::Built)
        }
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

macro_rules! deserialize_in_place {
    ($($type:ty => $shape:ident, $empty:expr;)*) => {$(
        impl<'de> Deserialize<'de> for $type {
            fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                let mut value = $empty;
                Reader { shape: Shape::$shape, optional: false, out: Out::$shape(&mut value) }.deserialize(deserializer)?;
                Ok(value)
            }
        }
    )*};
}

deserialize_in_place! {
    CartInput => Cart, CartInput::default();
    ShippingData => Shipping, ShippingData::default();
    ActivityData => Activity, ActivityData::default();
    ManjianTier => Tier, no_tier();
    CartItem => Item, no_item();
    Goods => Goods, no_goods();
    LadderStep => Step, no_step();
}

impl<'de> Deserialize<'de> for Money {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Money, D::Error> {
        let mut money = Money::ZERO;
        ScalarReader { slot: Slot::Money(&mut money), optional: false }.deserialize(deserializer)?;
        Ok(money)
    }
}

/// Reads the `settlement` object alone (`CartSession.settle`), its errors under `settlement.`.
#[cfg(feature = "wasm")]
pub(crate) fn settlement<'de, D: Deserializer<'de>>(deserializer: D) -> Result<SettlementInput, EngineError> {
    let prefix = |error: D::Error| engine_error(within(Segment::Key(Key::Settlement.name()), error));
    let node = Node::deserialize(deserializer).map_err(prefix)?;
    settlement::settlement(&node).map_err(|wrong| prefix(de::Error::custom(format_args!("{}{MARK}{}", wrong.path, wrong.reason))))
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOODS: &str = r#"{"id":7,"is_buy":1,"number":5,"type":2,"is_youx":1,"qg_number":3,"base_price":"9","ladder_price":[{"number":5,"price":"1"},{"number":2,"price":"2"}],"ladder_price_type":1}"#;

    fn line(fields: &str) -> String {
        format!(r#"{{"items":[{{"id":1,"number":2,"price":"3.5","is_selected":1,{fields}}}]}}"#)
    }

    #[test]
    fn a_later_field_of_the_same_name_replaces_an_earlier_one() {
        // Objects are read afresh, not merged into the earlier one.
        let cart = cart_from_json(&line(&format!(r#""goods":{GOODS},"goods":{{"id":8,"is_buy":0,"number":1}}"#))).unwrap();
        let goods = &cart.items[0].goods;
        assert_eq!((goods.id, goods.goods_type, goods.qg_number, goods.ladder.is_empty()), (8, None, 0, true));
        // Null puts back the default.
        let text = line(&format!(r#""type":3,"type":null,"goods":{GOODS},"combination":{GOODS},"combination":null"#));
        let item = &cart_from_json(&text).unwrap().items[0];
        assert_eq!((item.line_type, &item.combination), (None, &None));
        let goods = r#"{"id":7,"is_buy":1,"number":5,"ladder_price":[{"number":1,"price":"1"}],"ladder_price":null}"#;
        assert!(cart_from_json(&line(&format!(r#""goods":{goods}"#))).unwrap().items[0].goods.ladder.is_empty());
        let text =
            r#"{"items":[],"shipping_data":{"shipping_amount":"9"},"shipping_data":null,"settlement":{"use_points":1},"settlement":null}"#;
        let cart = cart_from_json(text).unwrap();
        assert_eq!((cart.shipping_data, cart.settlement), (ShippingData::default(), None));
        // The ladder is sorted once read.
        let cart = cart_from_json(&line(&format!(r#""goods":{GOODS}"#))).unwrap();
        let numbers: Vec<u32> = cart.items[0].goods.ladder.steps().iter().map(|step| step.number).collect();
        assert_eq!(numbers, [2, 5]);
    }

    #[test]
    fn errors_name_the_field_whatever_its_depth() {
        let error = |text: &str| cart_from_json(text).unwrap_err().to_string();
        assert_eq!(error(&line(r#""goods":{"id":1,"is_buy":1}"#)), "items[0].goods.number: missing");
        assert_eq!(
            error(&line(r#""goods":{"id":1,"is_buy":1,"number":1,"ladder_price":[{"number":0,"price":"1"}]}"#)),
            "items[0].goods.ladder_price[0].number: must be at least 1, got 0"
        );
        assert_eq!(error(&line(r#""goods":[]"#)), "items[0].goods: invalid type: sequence, expected a goods object");
        assert_eq!(error(&line(r#""goods":1.5"#)), "items[0].goods: invalid type: floating point `1.5`, expected a goods object");
        assert_eq!(error(r#"{"items":[{"id":"3"}]}"#), r#"items[0].id: invalid type: string "3", expected an integer"#);
        assert_eq!(error(r#"{"items":{}}"#), "items: invalid type: map, expected an array");
        assert_eq!(error(r#"{"items":[],"settlement":{"coupons":[{"id":1}]}}"#), "settlement.coupons[0].kind: missing");
    }
}
