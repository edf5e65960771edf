//! JavaScript bindings of what happens once an order is paid (`docs/pricing.md`, rules 20–22):
//! refunds, earned points taken back, cash back. Conversion only.

use wasm_bindgen::prelude::*;

use super::{integer, js_error, read_money};
use crate::CashbackTier;

/// Rule 20: what returning `k` more units of an order line refunds (a money string), the line
/// having had `number` units and `paid`, `returnedBefore` units returned already.
#[wasm_bindgen]
pub fn refund(
    #[wasm_bindgen(unchecked_param_type = "MoneyInput")] paid: JsValue,
    number: f64,
    #[wasm_bindgen(js_name = returnedBefore)] returned_before: f64,
    k: f64,
) -> Result<String, JsError> {
    let paid = read_money("paid", &paid)?;
    let refunded = crate::refund(paid, integer("number", number)?, integer("returned_before", returned_before)?, integer("k", k)?);
    Ok(refunded.map_err(js_error)?.to_string())
}

/// Rule 21: what a return takes back of the points its order earned (`{ taken, short,
/// deducted }`, `deducted` a money string), the order having earned `earned` points for `due`,
/// `refundedBefore` refunded before, `refund` refunded now, the member holding `held` points
/// after this return's points given back, `pointsPerYuan` points worth one yuan.
#[wasm_bindgen(js_name = pointsTakeBack, unchecked_return_type = "PointsTakeBack")]
pub fn points_take_back(
    earned: f64,
    #[wasm_bindgen(unchecked_param_type = "MoneyInput")] due: JsValue,
    #[wasm_bindgen(js_name = refundedBefore, unchecked_param_type = "MoneyInput")] refunded_before: JsValue,
    #[wasm_bindgen(unchecked_param_type = "MoneyInput")] refund: JsValue,
    held: f64,
    #[wasm_bindgen(js_name = pointsPerYuan)] points_per_yuan: f64,
) -> Result<JsValue, JsError> {
    let earned = integer("earned", earned)?;
    let due = read_money("due", &due)?;
    let refunded_before = read_money("refunded_before", &refunded_before)?;
    let refund = read_money("refund", &refund)?;
    let held = integer("held", held)?;
    let points_per_yuan = integer("points_per_yuan", points_per_yuan)?;
    let back = crate::points_take_back(earned, due, refunded_before, refund, held, points_per_yuan).map_err(js_error)?;
    let answer = js_sys::Object::new();
    let set = |key: &str, value: JsValue| js_sys::Reflect::set(&answer, &JsValue::from_str(key), &value);
    set("taken", JsValue::from(back.taken as f64)).map_err(|_| JsError::new("pointsTakeBack: answer"))?;
    set("short", JsValue::from(back.short as f64)).map_err(|_| JsError::new("pointsTakeBack: answer"))?;
    set("deducted", JsValue::from_str(&back.deducted.to_string())).map_err(|_| JsError::new("pointsTakeBack: answer"))?;
    Ok(answer.into())
}

/// Rule 22: the cash back of an order whose goods come to `net` (a money string).
#[wasm_bindgen]
pub fn cashback(
    #[wasm_bindgen(unchecked_param_type = "CashbackTierInput[]")] tiers: JsValue,
    #[wasm_bindgen(unchecked_param_type = "MoneyInput")] net: JsValue,
) -> Result<String, JsError> {
    let tiers = read_tiers(&tiers)?;
    Ok(crate::cashback(&tiers, read_money("net", &net)?).map_err(js_error)?.to_string())
}

/// Rule 22: what a return refunding `refund` takes back of the cash back `held`, the order's
/// goods coming to `netAfter` once it is refunded (a money string).
#[wasm_bindgen(js_name = cashbackTakeBack)]
pub fn cashback_take_back(
    #[wasm_bindgen(unchecked_param_type = "CashbackTierInput[]")] tiers: JsValue,
    #[wasm_bindgen(unchecked_param_type = "MoneyInput")] held: JsValue,
    #[wasm_bindgen(js_name = netAfter, unchecked_param_type = "MoneyInput")] net_after: JsValue,
    #[wasm_bindgen(unchecked_param_type = "MoneyInput")] refund: JsValue,
) -> Result<String, JsError> {
    let tiers = read_tiers(&tiers)?;
    let (held, net_after, refund) = (read_money("held", &held)?, read_money("net_after", &net_after)?, read_money("refund", &refund)?);
    Ok(crate::cashback_take_back(&tiers, held, net_after, refund).map_err(js_error)?.to_string())
}

/// A list of `{ amount, back }`.
fn read_tiers(tiers: &JsValue) -> Result<Vec<CashbackTier>, JsError> {
    if !js_sys::Array::is_array(tiers) {
        return Err(JsError::new("tiers: expected an array of tiers"));
    }
    let field = |tier: &JsValue, key: &str| js_sys::Reflect::get(tier, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED);
    js_sys::Array::from(tiers)
        .iter()
        .enumerate()
        .map(|(index, tier)| {
            if !tier.is_object() {
                return Err(JsError::new(&format!("tiers[{index}]: expected a tier object")));
            }
            let amount = read_money(&format!("tiers[{index}].amount"), &field(&tier, "amount"))?;
            let back = read_money(&format!("tiers[{index}].back"), &field(&tier, "back"))?;
            Ok(CashbackTier { amount, back })
        })
        .collect()
}
