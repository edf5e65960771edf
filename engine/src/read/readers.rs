//! The two visitors that read a whole cart whatever the format: [`Reader`] for objects, lists
//! and the settlement, [`ScalarReader`] for amounts, integers, quantities and flags; and the
//! field names read as [`Key`]s.

use std::fmt;

use serde::Deserialize;
use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Unexpected, Visitor};

use super::Key;
use super::objects::{Field, field, finish, no_goods, no_item, no_step, no_tier, pop, push, reserve};
use super::path::{MARK, Segment, within, wrong_float};
use super::settlement::{self, Node};
use super::what::{Found, Out, Read, Shape, Slot};
use crate::model::{ActivityData, CartInput, CartItem, Goods, LadderStep, ManjianTier, ShippingData};
use crate::money::Money;

/// Reads a scalar into `slot` (where `optional`, it may be null): kept where it is read, a
/// value never travels back through serde.
pub(super) struct ScalarReader<'a> {
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
pub(super) struct Expecting(&'static str);

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

/// Reads an object, a list or the settlement of `shape` (where `optional`, it may be null)
/// into `out`.
pub(super) struct Reader<'a> {
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
pub(super) fn read_settlement<'de, D: Deserializer<'de>>(deserializer: D, out: Out<'_>) -> Result<Read, D::Error> {
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
pub(super) struct KeySeed;

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
