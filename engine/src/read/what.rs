//! What a value is read as: the [`Shape`] of an object or a list and where it goes ([`Out`]),
//! the [`Slot`] a scalar goes to, and the checks of amounts, integers, quantities and flags.

use serde::de::Unexpected;

use super::Key;
use super::path::Float;
use crate::model::{ActivityData, CartInput, CartItem, Goods, LadderStep, MAX_QUANTITY, ManjianTier, SettlementInput, ShippingData};
use crate::money::{MAX_SAFE_INTEGER, Money};

/// What a reader read: the value, or null.
pub(super) enum Read {
    Null,
    Built,
}

/// What a value is read as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Shape {
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
    pub(super) fn expecting(self) -> &'static str {
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
    pub(super) fn element(self) -> Option<Shape> {
        match self {
            Shape::Items => Some(Shape::Item),
            Shape::Tiers => Some(Shape::Tier),
            Shape::Ladder => Some(Shape::Step),
            _ => None,
        }
    }

    /// The fields an object of this shape must have, in the order their absence is an error.
    pub(super) fn required(self) -> &'static [Key] {
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
pub(super) enum Out<'a> {
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
pub(super) enum Slot<'a> {
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
    pub(super) fn expecting(&self) -> &'static str {
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
    pub(super) fn put(self, found: Found<'_>) -> Result<(), Option<String>> {
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
    pub(super) fn clear(self) {
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
pub(super) enum Found<'a> {
    Null,
    Bool(bool),
    Int(i64),
    UInt(u64),
    Float(f64),
    Text(&'a str),
    Option,
}

impl Found<'_> {
    pub(super) fn unexpected(&self) -> Unexpected<'_> {
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

pub(super) fn money(found: Found<'_>) -> Result<Money, Option<String>> {
    let read = match found {
        Found::Text(text) => Money::parse(text),
        Found::UInt(value) => Money::from_integer(value as i128),
        Found::Int(value) => Money::from_integer(value as i128),
        Found::Float(value) => Money::from_f64(value),
        _ => return Err(None),
    };
    read.map_err(|error| Some(error.to_string()))
}

pub(super) fn integer(found: Found<'_>) -> Result<i64, Option<String>> {
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

pub(super) fn flag(found: Found<'_>) -> Result<bool, Option<String>> {
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
