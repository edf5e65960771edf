//! The shared test vectors run as WebAssembly through the JavaScript API (`quoteCart` with a
//! JavaScript object in, a JavaScript object out): `wasm-pack test --node engine` and, with
//! `WASM_BINDGEN_USE_BROWSER=1`, `wasm-pack test --headless --chrome engine`.

#![cfg(target_arch = "wasm32")]

mod common;

use std::collections::BTreeMap;

use common::{GOLDEN, mismatch, outcome, vectors};
use serde_json::Value;
use wasm_bindgen::JsValue;
use wasm_bindgen_test::*;

fn to_js(value: &Value) -> JsValue {
    js_sys::JSON::parse(&value.to_string()).unwrap()
}

fn from_js(value: &JsValue) -> Value {
    serde_json::from_str(&String::from(js_sys::JSON::stringify(value).unwrap())).unwrap()
}

fn wasm(input: &Value) -> Value {
    outcome(
        engine::wasm::quote_cart(to_js(input))
            .map(|quote| from_js(&quote))
            .map_err(|error| error_message(error.into())),
    )
}

fn error_message(error: JsValue) -> String {
    let error: js_sys::Error = error.into();
    String::from(error.message())
}

#[wasm_bindgen_test]
fn vectors_hold_in_webassembly() {
    let golden: BTreeMap<String, Value> = serde_json::from_str(GOLDEN).unwrap();
    let all = vectors();
    let mut failures = Vec::new();
    for (name, vector) in &all {
        let actual = wasm(&vector.input);
        if let Some(problem) = mismatch(&vector.expected, &actual, "") {
            failures.push(format!("{name}: {problem}"));
        }
        if golden.get(name) != Some(&actual) {
            failures.push(format!("{name}: differs from the native answer"));
        }
    }
    assert!(failures.is_empty(), "{} of {} vectors fail:\n{}", failures.len(), all.len(), failures.join("\n"));
    assert!(all.len() >= 80);
    console_log!("{} vectors hold in WebAssembly, identical to native", all.len());
}
