//! Shared by the native and the WebAssembly test runs: the vector files and how a quote is
//! compared with a vector's `expected`.

#![allow(dead_code)]

use serde::Deserialize;
use serde_json::Value;

/// Every vector file, compiled in (a WebAssembly test cannot read the disk). The native run
/// checks that this list names exactly the files in `tests/vectors/`.
pub const VECTOR_FILES: &[(&str, &str)] = &[
    ("rule01_buyable.json", include_str!("../vectors/rule01_buyable.json")),
    ("rule02_forced_unselect.json", include_str!("../vectors/rule02_forced_unselect.json")),
    ("rule03_unit_price.json", include_str!("../vectors/rule03_unit_price.json")),
    ("rule04_ladder_display.json", include_str!("../vectors/rule04_ladder_display.json")),
    ("rule05_line_amount.json", include_str!("../vectors/rule05_line_amount.json")),
    ("rule06_totals.json", include_str!("../vectors/rule06_totals.json")),
    ("rule07_counts.json", include_str!("../vectors/rule07_counts.json")),
    ("rule08_manjian_tiers.json", include_str!("../vectors/rule08_manjian_tiers.json")),
    ("rule09_free_shipping.json", include_str!("../vectors/rule09_free_shipping.json")),
    ("rule10_stock.json", include_str!("../vectors/rule10_stock.json")),
    ("money.json", include_str!("../vectors/money.json")),
    ("input_errors.json", include_str!("../vectors/input_errors.json")),
    ("whole_quotes.json", include_str!("../vectors/whole_quotes.json")),
];

/// The full quote of every vector, written by the native run (`BLESS=1 cargo test -p engine`)
/// and compared whole by every run: proof that native and WebAssembly answer bit for bit alike.
pub const GOLDEN: &str = include_str!("../vectors/golden/quotes.json");

#[derive(Debug, Deserialize)]
pub struct Vector {
    pub name: String,
    pub rule: Value,
    pub input: Value,
    pub expected: Value,
}

pub fn vectors() -> Vec<(String, Vector)> {
    let mut all = Vec::new();
    for (file, text) in VECTOR_FILES {
        let list: Vec<Vector> = serde_json::from_str(text).unwrap_or_else(|error| panic!("{file}: not a list of vectors: {error}"));
        for vector in list {
            all.push((format!("{file} / {}", vector.name), vector));
        }
    }
    all
}

/// What one run answered for a vector: the quote, or the error message.
pub fn outcome(result: Result<Value, String>) -> Value {
    match result {
        Ok(quote) => quote,
        Err(message) => serde_json::json!({ "error": message }),
    }
}

/// `expected` is a partial picture of the answer: every key it names must be there with an
/// equal value (recursively); arrays must have the same length, element by element.
pub fn mismatch(expected: &Value, actual: &Value, path: &str) -> Option<String> {
    match (expected, actual) {
        (Value::Object(want), Value::Object(have)) => want.iter().find_map(|(key, want)| {
            let path = format!("{path}.{key}");
            match have.get(key) {
                Some(have) => mismatch(want, have, &path),
                None => Some(format!("{path}: missing, expected {want}")),
            }
        }),
        (Value::Array(want), Value::Array(have)) => {
            if want.len() != have.len() {
                return Some(format!("{path}: {} elements, expected {}", have.len(), want.len()));
            }
            want.iter().zip(have).enumerate().find_map(|(i, (want, have))| mismatch(want, have, &format!("{path}[{i}]")))
        }
        _ if expected == actual => None,
        _ => Some(format!("{path}: got {actual}, expected {expected}")),
    }
}
