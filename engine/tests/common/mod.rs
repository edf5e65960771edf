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
    ("rule08_manjian_discount.json", include_str!("../vectors/rule08_manjian_discount.json")),
    ("rule11_goods_net.json", include_str!("../vectors/rule11_goods_net.json")),
    ("rule12_coupons.json", include_str!("../vectors/rule12_coupons.json")),
    ("rule13_coupon_choice.json", include_str!("../vectors/rule13_coupon_choice.json")),
    ("rule14_cash_vouchers.json", include_str!("../vectors/rule14_cash_vouchers.json")),
    ("rule15_red_packets.json", include_str!("../vectors/rule15_red_packets.json")),
    ("rule16_points.json", include_str!("../vectors/rule16_points.json")),
    ("rule17_shipping_fee.json", include_str!("../vectors/rule17_shipping_fee.json")),
    ("rule18_due.json", include_str!("../vectors/rule18_due.json")),
    ("rule19_allocation.json", include_str!("../vectors/rule19_allocation.json")),
    ("rule20_refund.json", include_str!("../vectors/rule20_refund.json")),
    ("rule21_points_take_back.json", include_str!("../vectors/rule21_points_take_back.json")),
    ("rule22_cashback.json", include_str!("../vectors/rule22_cashback.json")),
    ("rule23_discount_label.json", include_str!("../vectors/rule23_discount_label.json")),
    ("settlement_errors.json", include_str!("../vectors/settlement_errors.json")),
];

/// The full quote of every vector, written by the native run (`BLESS=1 cargo test -p engine`)
/// and compared whole by every run: proof that native and WebAssembly answer bit for bit alike.
pub const GOLDEN: &str = include_str!("../vectors/golden/quotes.json");

/// One vector: a cart (`input`), optionally edited through a `CartSession` (`edits`), or the
/// arguments of a refund (`refund`, rule 20), of a points take-back (`take_back`, rule 21), of
/// a cash back or its take-back (`cashback`, `cashback_take_back`, rule 22) or of a discount's
/// label (`discount_label`, rule 23); and what the answer must contain.
#[derive(Debug, Deserialize)]
pub struct Vector {
    pub name: String,
    pub rule: Value,
    #[serde(default)]
    pub input: Value,
    #[serde(default)]
    pub edits: Option<Vec<Value>>,
    #[serde(default)]
    pub refund: Option<Refund>,
    #[serde(default)]
    pub take_back: Option<TakeBack>,
    #[serde(default)]
    pub cashback: Option<Cashback>,
    #[serde(default)]
    pub cashback_take_back: Option<CashbackTakeBack>,
    #[serde(default)]
    pub discount_label: Option<DiscountLabel>,
    pub expected: Value,
}

/// The arguments of `cashback(tiers, net)`: tiers as `[{ amount, back }]`, amounts as given.
#[derive(Debug, Deserialize)]
pub struct Cashback {
    pub tiers: Value,
    pub net: Value,
}

/// The arguments of `cashbackTakeBack(tiers, held, netAfter, refund)`.
#[derive(Debug, Deserialize)]
pub struct CashbackTakeBack {
    pub tiers: Value,
    pub held: Value,
    pub net_after: Value,
    pub refund: Value,
}

/// The argument of `discountLabel(rate)`.
#[derive(Debug, Deserialize)]
pub struct DiscountLabel {
    pub rate: Value,
}

/// The arguments of `pointsTakeBack(earned, due, refundedBefore, refund, held, pointsPerYuan)`.
#[derive(Debug, Deserialize)]
pub struct TakeBack {
    pub earned: i64,
    pub due: Value,
    pub refunded_before: Value,
    pub refund: Value,
    pub held: i64,
    pub points_per_yuan: i64,
}

/// The arguments of `refund(paid, number, returnedBefore, k)`.
#[derive(Debug, Deserialize)]
pub struct Refund {
    pub paid: Value,
    pub number: i64,
    pub returned_before: i64,
    pub k: i64,
}

/// One edit of a vector's `CartSession`.
pub enum Edit {
    SetNumber(i64, i64),
    Select(Vec<i64>, i64),
    Remove(Vec<i64>),
}

impl Edit {
    /// `{"set_number": [id, n]}`, `{"select": [[ids], flag]}` or `{"remove": [[ids]]}`.
    pub fn read(value: &Value) -> Edit {
        let ids = |value: &Value| value.as_array().expect("a list of ids").iter().map(|id| id.as_i64().expect("an id")).collect();
        if let Some([id, number]) = value.get("set_number").and_then(Value::as_array).map(Vec::as_slice) {
            return Edit::SetNumber(id.as_i64().unwrap(), number.as_i64().unwrap());
        }
        if let Some([list, flag]) = value.get("select").and_then(Value::as_array).map(Vec::as_slice) {
            return Edit::Select(ids(list), flag.as_i64().unwrap());
        }
        if let Some([list]) = value.get("remove").and_then(Value::as_array).map(Vec::as_slice) {
            return Edit::Remove(ids(list));
        }
        panic!("not an edit: {value}");
    }
}

/// The refund's answer as a vector's `expected` reads it.
pub fn refunded(result: Result<String, String>) -> Value {
    match result {
        Ok(refund) => serde_json::json!({ "refund": refund }),
        Err(message) => serde_json::json!({ "error": message }),
    }
}

/// A points take-back's answer as a vector's `expected` reads it: `{ taken, short, deducted }`.
pub fn taken_back(result: Result<(i64, i64, String), String>) -> Value {
    match result {
        Ok((taken, short, deducted)) => serde_json::json!({ "taken": taken, "short": short, "deducted": deducted }),
        Err(message) => serde_json::json!({ "error": message }),
    }
}

/// A money answer as a vector's `expected` reads it: `{ "<key>": "20.00" }`, or the error.
pub fn answered(key: &str, result: Result<String, String>) -> Value {
    match result {
        Ok(answer) => serde_json::json!({ key: answer }),
        Err(message) => serde_json::json!({ "error": message }),
    }
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
