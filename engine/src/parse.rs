//! Reading a cart from JSON text or from any serde data format, with the path of the first
//! wrong field in the error (`items[3].price`).

use serde::Deserializer;
use serde::de::DeserializeOwned;
use serde_path_to_error::{Path, Segment};

use crate::error::EngineError;
use crate::model::CartInput;

/// Reads a cart from JSON text.
pub fn cart_from_json(text: &str) -> Result<CartInput, EngineError> {
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let cart = read(&mut deserializer)?;
    deserializer.end().map_err(|error| EngineError::input("", error))?;
    Ok(cart)
}

/// Reads a cart from a parsed JSON value.
pub fn cart_from_value(value: &serde_json::Value) -> Result<CartInput, EngineError> {
    read(value)
}

/// Reads any value the engine takes from any self-describing deserializer.
pub fn read<'de, T, D>(deserializer: D) -> Result<T, EngineError>
where
    T: DeserializeOwned,
    D: Deserializer<'de>,
    D::Error: std::fmt::Display,
{
    serde_path_to_error::deserialize(deserializer).map_err(|error| {
        let path = path_text(error.path());
        let reason = strip_position(&error.inner().to_string());
        match missing_field(&reason) {
            Some(field) if path.is_empty() => EngineError::input(field, "missing"),
            Some(field) => EngineError::input(format!("{path}.{field}"), "missing"),
            None => EngineError::input(path, reason),
        }
    })
}

/// `items[3].goods.ladder_price[0].price`, as a JavaScript programmer writes it.
fn path_text(path: &Path) -> String {
    let mut text = String::new();
    for segment in path.iter() {
        match segment {
            Segment::Seq { index } => text.push_str(&format!("[{index}]")),
            Segment::Map { key } | Segment::Enum { variant: key } => {
                if !text.is_empty() {
                    text.push('.');
                }
                text.push_str(key);
            }
            Segment::Unknown => text.push_str(".?"),
        }
    }
    text
}

/// serde_json appends " at line L column C", which says nothing to a caller holding an object.
fn strip_position(message: &str) -> String {
    match message.rfind(" at line ") {
        Some(at) if message[at..].contains(" column ") => message[..at].to_owned(),
        _ => message.to_owned(),
    }
}

fn missing_field(reason: &str) -> Option<&str> {
    reason.strip_prefix("missing field `")?.strip_suffix('`')
}
