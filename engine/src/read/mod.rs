//! Reading a cart from any self-describing serde format (JSON text, a `serde_json::Value`, a
//! JavaScript value), validating as it goes, and naming the first wrong field in the error the
//! way a JavaScript programmer writes it: `items[3].goods.ladder_price[0].price`.
//!
//! Two visitors read the whole cart, whatever the format: `Reader` reads objects and lists
//! (told their `Shape`), `ScalarReader` reads amounts, integers, quantities and flags (told
//! the `Slot` to keep them in). Which fields an object has, what each is read as, and what is
//! wrong with a value are plain functions written once. serde's generic code is so instantiated
//! twice per format, not once per field type and format, which keeps the WebAssembly small; and
//! every format gets the same errors. Values are read in document order and straight into their
//! place in the cart (a cart line is never moved from reader to reader), a later field of the
//! same name replacing an earlier one; required fields are checked when their object ends.
//!
//! The path costs nothing until something is wrong: each level adds its segment to the message
//! of an error passing through it (`MARK` separates the path from the reason). No allocation
//! happens on the good path but the cart's own.
//!
//! Here: the entry points. `readers.rs` holds the two visitors and the field names' reader,
//! `what.rs` what a value is read as (shapes, slots, the checks of scalars), `objects.rs` which
//! field of which object goes where, `path.rs` the path of a wrong field, `keys.rs` the one
//! table of field names, and `settlement.rs` the settlement object.

use std::fmt::Display;

use serde::Deserialize;
#[cfg(feature = "wasm")]
use serde::de::{self, Deserializer};

use crate::error::EngineError;
use crate::model::CartInput;
#[cfg(feature = "wasm")]
use crate::model::SettlementInput;

mod keys;
mod objects;
mod path;
mod readers;
mod settlement;
mod what;

pub(crate) use keys::Key;
use path::{Float, MARK, without_position};
#[cfg(feature = "wasm")]
use path::{Segment, within};
use readers::KeySeed;
#[cfg(feature = "wasm")]
use settlement::Node;

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
    use crate::model::ShippingData;

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
