//! The shared test vectors, run natively. `tests/wasm.rs` runs the same files as WebAssembly.

#![cfg(not(target_arch = "wasm32"))]

mod common;

use std::collections::BTreeMap;

use common::{
    Cashback, CashbackTakeBack, Edit, GOLDEN, Refund, TakeBack, VECTOR_FILES, Vector, answered, mismatch, outcome, refunded, taken_back,
    vectors,
};
use engine::{CartSession, CashbackTier, EngineError, Money};
use serde_json::Value;

/// The native answer to a vector: the quote (of the edited cart when it has edits), the refund,
/// or the error.
fn native(vector: &Vector) -> Value {
    if let Some(refund) = &vector.refund {
        return refunded(native_refund(refund));
    }
    if let Some(take_back) = &vector.take_back {
        return taken_back(native_take_back(take_back));
    }
    if let Some(cashback) = &vector.cashback {
        return answered("back", native_cashback(cashback));
    }
    if let Some(take_back) = &vector.cashback_take_back {
        return answered("taken", native_cashback_take_back(take_back));
    }
    if let Some(label) = &vector.discount_label {
        let label = money("rate", &label.rate).and_then(|rate| engine::text::discount_label(rate).map_err(|error| error.to_string()));
        return answered("label", label);
    }
    let answer = engine::cart_from_value(&vector.input).and_then(|cart| match &vector.edits {
        None => engine::quote(&cart),
        Some(edits) => {
            let mut session = CartSession::new(cart)?;
            for edit in edits {
                match Edit::read(edit) {
                    Edit::SetNumber(id, number) => session.set_number(id, number)?,
                    Edit::Select(ids, flag) => session.select(&ids, flag == 1)?,
                    Edit::Remove(ids) => session.remove(&ids)?,
                }
            }
            session.quote()
        }
    });
    outcome(answer.map(|quote| serde_json::to_value(&quote).unwrap()).map_err(|error| error.to_string()))
}

/// A vector's amount, a string or a number, as the JavaScript API reads it.
fn money(field: &str, value: &Value) -> Result<Money, String> {
    match value {
        Value::String(text) => Money::parse(text),
        other => Money::from_f64(other.as_f64().expect("an amount: a string or a number")),
    }
    .map_err(|error| format!("{field}: {error}"))
}

fn native_refund(refund: &Refund) -> Result<String, String> {
    let paid = money("paid", &refund.paid)?;
    engine::refund(paid, refund.number, refund.returned_before, refund.k).map(|cents| cents.to_string()).map_err(|error| error.to_string())
}

fn native_take_back(take_back: &TakeBack) -> Result<(i64, i64, String), String> {
    let due = money("due", &take_back.due)?;
    let refunded_before = money("refunded_before", &take_back.refunded_before)?;
    let refund = money("refund", &take_back.refund)?;
    engine::points_take_back(take_back.earned, due, refunded_before, refund, take_back.held, take_back.points_per_yuan)
        .map(|back| (back.taken, back.short, back.deducted.to_string()))
        .map_err(|error| error.to_string())
}

/// A vector's cash-back tiers, read as the JavaScript API reads them.
fn tiers(tiers: &Value) -> Result<Vec<CashbackTier>, String> {
    let tiers = tiers.as_array().ok_or("tiers: expected an array of tiers")?;
    let field = |tier: &Value, index: usize, key: &str| match tier.get(key) {
        Some(value @ (Value::String(_) | Value::Number(_))) => money(&format!("tiers[{index}].{key}"), value),
        _ => Err(format!("tiers[{index}].{key}: expected a decimal string or a number")),
    };
    let tier = |(index, tier): (usize, &Value)| {
        if !tier.is_object() {
            return Err(format!("tiers[{index}]: expected a tier object"));
        }
        Ok(CashbackTier { amount: field(tier, index, "amount")?, back: field(tier, index, "back")? })
    };
    tiers.iter().enumerate().map(tier).collect()
}

fn native_cashback(cashback: &Cashback) -> Result<String, String> {
    let tiers = tiers(&cashback.tiers)?;
    let net = money("net", &cashback.net)?;
    engine::cashback(&tiers, net).map(|back| back.to_string()).map_err(|error| error.to_string())
}

fn native_cashback_take_back(take_back: &CashbackTakeBack) -> Result<String, String> {
    let tiers = tiers(&take_back.tiers)?;
    let held = money("held", &take_back.held)?;
    let net_after = money("net_after", &take_back.net_after)?;
    let refund = money("refund", &take_back.refund)?;
    engine::cashback_take_back(&tiers, held, net_after, refund).map(|taken| taken.to_string()).map_err(|error| error.to_string())
}

/// `CartSession::settle` of a vector's settlement on its cart, when it has one.
fn settled_by_session(vector: &Vector) -> Option<Result<Value, EngineError>> {
    let mut cart = engine::cart_from_value(&vector.input).ok()?;
    let settlement = cart.settlement.take()?;
    Some(CartSession::new(cart).and_then(|mut session| session.settle(settlement)).map(|settled| serde_json::to_value(settled).unwrap()))
}

#[test]
fn every_vector_file_is_listed() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors");
    let mut on_disk: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().into_string().unwrap())
        .filter(|name| name.ends_with(".json"))
        .collect();
    on_disk.sort();
    let mut listed: Vec<String> = VECTOR_FILES.iter().map(|(name, _)| name.to_string()).collect();
    listed.sort();
    assert_eq!(on_disk, listed, "tests/common/mod.rs must list every vector file");
}

#[test]
fn vectors_hold_natively() {
    let all = vectors();
    let mut failures = Vec::new();
    let mut names = std::collections::HashSet::new();
    for (name, vector) in &all {
        assert!(names.insert(name.clone()), "two vectors are named {name}");
        let actual = native(vector);
        if let Some(problem) = mismatch(&vector.expected, &actual, "") {
            failures.push(format!("{name}: {problem}"));
        }
        if vector.edits.is_none()
            && let Some(settled) = settled_by_session(vector)
        {
            let settled = settled.map_err(|error| error.to_string());
            let quoted = actual.get("settlement").cloned().ok_or_else(|| actual["error"].as_str().unwrap_or_default().to_owned());
            if settled != quoted {
                failures.push(format!("{name}: CartSession.settle gives {settled:?}, the quote {quoted:?}"));
            }
        }
    }
    assert!(failures.is_empty(), "{} of {} vectors fail:\n{}", failures.len(), all.len(), failures.join("\n"));
    assert!(all.len() >= 80, "only {} vectors", all.len());
    println!("{} vectors hold natively", all.len());
}

/// Every rule of docs/pricing.md and the input errors have vectors.
#[test]
fn every_rule_has_vectors() {
    let rules: std::collections::BTreeSet<String> = vectors().iter().map(|(_, vector)| vector.rule.to_string()).collect();
    for rule in 1..=23 {
        assert!(rules.contains(&rule.to_string()), "no vector for rule {rule}");
    }
    assert!(rules.contains("\"input\""), "no vector for input errors");
}

/// The golden file holds the whole native answer of every vector; the WebAssembly runs compare
/// theirs with it. `BLESS=1` rewrites it after a deliberate change.
#[test]
fn golden_quotes_are_current() {
    let answers: BTreeMap<String, Value> = vectors().iter().map(|(name, vector)| (name.clone(), native(vector))).collect();
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/golden/quotes.json");
    if std::env::var_os("BLESS").is_some() {
        let text = serde_json::to_string_pretty(&answers).unwrap() + "\n";
        std::fs::write(path, text).unwrap();
        return;
    }
    let golden: BTreeMap<String, Value> = serde_json::from_str(GOLDEN).unwrap();
    assert_eq!(golden.len(), answers.len(), "golden file is stale: run BLESS=1 cargo test -p engine");
    for (name, answer) in &answers {
        assert_eq!(golden.get(name), Some(answer), "golden answer of {name} is stale (BLESS=1)");
    }
}
