//! The contract (`engine::contract`) against what the engine does: every vector's cart reads as
//! a `CartInput`, every golden answer as the contract's output types, which refuse a field they
//! do not name. A field the engine starts writing, or stops, fails here until the contract (and
//! with it the OpenAPI document and the package's declarations) says so.

#![cfg(all(feature = "schema", not(target_arch = "wasm32")))]

mod common;

use engine::contract::{CartInput, CartQuote, CartSummary, PointsTakeBack};
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

fn read<T: DeserializeOwned>(name: &str, value: &Value) -> T {
    serde_json::from_value(value.clone()).unwrap_or_else(|error| panic!("{name}: {error}\n{value}"))
}

#[test]
fn every_cart_the_engine_prices_reads_as_the_contract_says() {
    let mut carts = 0;
    for (file, text) in common::VECTOR_FILES {
        let vectors: Vec<common::Vector> = serde_json::from_str(text).expect("a vector file");
        for vector in vectors.iter().filter(|vector| vector.input.is_object() && vector.expected.get("error").is_none()) {
            let _: CartInput = read(&format!("{file} / {}", vector.name), &vector.input);
            carts += 1;
        }
    }
    assert!(carts > 300, "only {carts} carts read");
}

#[test]
fn every_answer_the_engine_writes_is_what_the_contract_says() {
    let golden: Map<String, Value> = serde_json::from_str(common::GOLDEN).expect("the golden file");
    let (mut quotes, mut settled, mut take_backs) = (0, 0, 0);
    for (name, answer) in &golden {
        if answer.get("lines").is_some() {
            let quote: CartQuote = read(name, answer);
            settled += usize::from(quote.settlement.is_some());
            quotes += 1;
            // The session's summary: the quote without its lines and settlement.
            let mut summary = answer.as_object().expect("a quote").clone();
            summary.remove("lines");
            summary.remove("settlement");
            let _: CartSummary = read(name, &Value::Object(summary));
        } else if answer.get("short").is_some() {
            let _: PointsTakeBack = read(name, answer);
            take_backs += 1;
        }
    }
    assert!(quotes > 300 && settled > 50 && take_backs > 5, "{quotes} quotes, {settled} settled, {take_backs} take-backs");
}

/// The document `scripts/engine-types` turns into the package's declarations names every type
/// the JavaScript functions take or give.
#[test]
fn the_document_names_every_type_of_the_bindings() {
    let document: Value = serde_json::from_str(&engine::contract::document()).expect("JSON");
    let schemas = document["components"]["schemas"].as_object().expect("schemas");
    for name in [
        "CartInput",
        "SettlementInput",
        "CartQuote",
        "CartSummary",
        "Settlement",
        "MoneyInput",
        "Flag",
        "PointsTakeBack",
        "CashbackTierInput",
    ] {
        assert!(schemas.contains_key(name), "{name} missing");
    }
}
