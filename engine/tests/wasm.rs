//! The shared test vectors run as WebAssembly through the JavaScript API (`quoteCart` with a
//! JavaScript object in, a JavaScript object out): `wasm-pack test --node engine --features
//! after-sale` and, with `WASM_BINDGEN_USE_BROWSER=1`, `wasm-pack test --headless --chrome engine
//! --features after-sale` (rules 20–22 are exported only with that feature).

#![cfg(all(target_arch = "wasm32", feature = "after-sale"))]

mod common;

use std::collections::BTreeMap;

use common::{Edit, GOLDEN, Vector, answered, mismatch, outcome, refunded, taken_back, vectors};
use serde_json::Value;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::*;

fn to_js(value: &Value) -> JsValue {
    js_sys::JSON::parse(&value.to_string()).unwrap()
}

fn from_js(value: &JsValue) -> Value {
    serde_json::from_str(&String::from(js_sys::JSON::stringify(value).unwrap())).unwrap()
}

fn wasm(input: &Value) -> Value {
    outcome(engine::wasm::quote_cart(to_js(input)).map(|quote| from_js(&quote)).map_err(|error| error_message(error.into())))
}

/// The WebAssembly answer to a vector, as `tests/vectors.rs` takes the native one.
fn answer(vector: &Vector) -> Value {
    if let Some(refund) = &vector.refund {
        let paid = to_js(&refund.paid);
        let result = engine::wasm::refund(paid, refund.number as f64, refund.returned_before as f64, refund.k as f64);
        return refunded(result.map_err(|error| error_message(error.into())));
    }
    if let Some(back) = &vector.take_back {
        let result = engine::wasm::points_take_back(
            back.earned as f64,
            to_js(&back.due),
            to_js(&back.refunded_before),
            to_js(&back.refund),
            back.held as f64,
            back.points_per_yuan as f64,
        );
        let read = |answer: JsValue| {
            let answer = from_js(&answer);
            (answer["taken"].as_i64().unwrap(), answer["short"].as_i64().unwrap(), answer["deducted"].as_str().unwrap().to_owned())
        };
        return taken_back(result.map(read).map_err(|error| error_message(error.into())));
    }
    if let Some(cashback) = &vector.cashback {
        let result = engine::wasm::cashback(to_js(&cashback.tiers), to_js(&cashback.net));
        return answered("back", result.map_err(|error| error_message(error.into())));
    }
    if let Some(back) = &vector.cashback_take_back {
        let result = engine::wasm::cashback_take_back(to_js(&back.tiers), to_js(&back.held), to_js(&back.net_after), to_js(&back.refund));
        return answered("taken", result.map_err(|error| error_message(error.into())));
    }
    if let Some(label) = &vector.discount_label {
        let result = engine::wasm::discount_label(to_js(&label.rate));
        return answered("label", result.map_err(|error| error_message(error.into())));
    }
    let Some(edits) = &vector.edits else { return wasm(&vector.input) };
    let edited = (|| {
        let mut session = engine::wasm::JsCartSession::new(to_js(&vector.input))?;
        for edit in edits {
            match Edit::read(edit) {
                Edit::SetNumber(id, number) => session.set_number(id as f64, number as f64)?,
                Edit::Select(ids, flag) => session.select(to_js(&serde_json::json!(ids)), JsValue::from(flag as f64))?,
                Edit::Remove(ids) => session.remove(to_js(&serde_json::json!(ids)))?,
            }
        }
        session.quote()
    })();
    outcome(edited.map(|quote| from_js(&quote)).map_err(|error| error_message(error.into())))
}

/// `CartSession.settle` of a vector's settlement on its cart, when it has one and the cart reads.
fn settled_by_session(vector: &Vector) -> Option<Result<Value, String>> {
    let settlement = vector.input.get("settlement").filter(|settlement| !settlement.is_null())?.clone();
    let mut cart = vector.input.clone();
    cart.as_object_mut()?.remove("settlement");
    let mut session = engine::wasm::JsCartSession::new(to_js(&cart)).ok()?;
    Some(session.settle(to_js(&settlement)).map(|settled| from_js(&settled)).map_err(|error| error_message(error.into())))
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
        let actual = answer(vector);
        if let Some(problem) = mismatch(&vector.expected, &actual, "") {
            failures.push(format!("{name}: {problem}"));
        }
        if vector.edits.is_none()
            && let Some(settled) = settled_by_session(vector)
        {
            let quoted = actual.get("settlement").cloned().ok_or_else(|| actual["error"].as_str().unwrap_or_default().to_owned());
            if settled != quoted {
                failures.push(format!("{name}: CartSession.settle gives {settled:?}, the quote {quoted:?}"));
            }
        }
        if golden.get(name) != Some(&actual) {
            failures.push(format!("{name}: differs from the native answer"));
        }
    }
    assert!(failures.is_empty(), "{} of {} vectors fail:\n{}", failures.len(), all.len(), failures.join("\n"));
    assert!(all.len() >= 80);
    console_log!("{} vectors hold in WebAssembly, identical to native", all.len());
}

fn cart(lines: usize) -> JsValue {
    let items: Vec<Value> = (0..lines)
        .map(|i| {
            serde_json::json!({
                "id": 10 + i, "number": 1 + i % 7, "price": format!("{}.{:02}", 3 + i, i % 100),
                "is_selected": 1, "with_coupon": i % 2,
                "goods": { "id": 500 + i, "is_buy": 1, "number": 50, "is_youx": i % 3 == 0,
                    "base_price": 99, "ladder_price": [{ "number": 5, "price": 2.5 }],
                    "ladder_price_type": 1 }
            })
        })
        .collect();
    to_js(&serde_json::json!({
        "items": items,
        "shipping_data": { "shipping_amount": "100", "no_trans_order_amount": 0 },
        "activity_data": { "manjians": [{ "amount": 30, "reduce": 3 }, { "amount": 10, "reduce": 1 }] }
    }))
}

fn get(value: &JsValue, key: &str) -> JsValue {
    js_sys::Reflect::get(value, &JsValue::from_str(key)).unwrap()
}

#[wasm_bindgen_test]
fn session_edits_quote_like_quote_cart_of_the_edited_cart() {
    let input = cart(12);
    let mut session = engine::wasm::JsCartSession::new(input.clone()).unwrap();
    session.set_number(13.0, 9.0).unwrap();
    session.select(to_js(&serde_json::json!([10, 11])), JsValue::from(0)).unwrap();
    session.remove(to_js(&serde_json::json!([20]))).unwrap();

    let mut edited: Value = from_js(&input);
    let items = edited["items"].as_array_mut().unwrap();
    items[3]["number"] = 9.into();
    items[0]["is_selected"] = 0.into();
    items[1]["is_selected"] = 0.into();
    items.remove(10);
    let expected = from_js(&engine::wasm::quote_cart(to_js(&edited)).unwrap());

    assert_eq!(from_js(&session.quote().unwrap()), expected);
    let mut summary = expected.clone();
    summary.as_object_mut().unwrap().remove("lines");
    assert_eq!(from_js(&session.totals().unwrap()), summary);
}

#[wasm_bindgen_test]
fn ids_and_quantities_are_plain_numbers() {
    let quote = engine::wasm::quote_cart(cart(3)).unwrap();
    let line = js_sys::Array::from(&get(&quote, "lines")).get(1);
    assert_eq!(get(&line, "id").js_typeof(), "number");
    assert_eq!(get(&line, "id").as_f64(), Some(11.0));
    let counts = get(&quote, "counts");
    assert_eq!(get(&counts, "units").js_typeof(), "number");
    assert_eq!(get(&get(&quote, "totals"), "total").js_typeof(), "string");
}

#[wasm_bindgen_test]
fn bad_input_throws_an_error_naming_the_field() {
    let mut bad: Value = from_js(&cart(5));
    bad["items"][3]["price"] = "abc".into();
    let error = engine::wasm::quote_cart(to_js(&bad)).unwrap_err();
    assert_eq!(error_message(error.into()), "items[3].price: not a decimal: \"abc\"");

    for not_a_cart in [JsValue::UNDEFINED, JsValue::NULL, JsValue::from(5), JsValue::from_str("{}")] {
        let error = engine::wasm::quote_cart(not_a_cart).unwrap_err();
        let error: JsValue = error.into();
        assert!(error.is_instance_of::<js_sys::Error>());
    }

    let mut session = engine::wasm::JsCartSession::new(cart(2)).unwrap();
    let error = session.set_number(10.0, 0.0).unwrap_err();
    assert_eq!(error_message(error.into()), "number: must be between 1 and 2147483647, got 0");
    let error = session.set_number(999.0, 1.0).unwrap_err();
    assert_eq!(error_message(error.into()), "no cart line with id 999");
    let error = session.set_number(10.5, 1.0).unwrap_err();
    assert_eq!(error_message(error.into()), "id: not an integer");
    assert!(session.select(JsValue::from_str("10"), JsValue::from(1)).is_err());
    assert!(session.select(to_js(&serde_json::json!([10])), JsValue::from(2)).is_err());
    // A refused edit leaves the session as it was.
    assert_eq!(from_js(&session.quote().unwrap()), from_js(&engine::wasm::quote_cart(cart(2)).unwrap()));
}

#[wasm_bindgen_test]
fn validators() {
    use engine::wasm::{is_email, is_phone};
    assert!(is_phone(JsValue::from_str("13800138000"), None));
    assert!(!is_phone(JsValue::from_str("0571-1234567"), None));
    assert!(is_phone(JsValue::from_str("0571-1234567"), Some(true)));
    assert!(!is_phone(JsValue::from(13_800_138_000_f64), None));
    assert!(is_email(JsValue::from_str("caigou@yaofang.com.cn")));
    assert!(!is_email(JsValue::from_str("caigou@yaofang")));
}
