//! JavaScript bindings: converts at the boundary and nothing else.
//!
//! A cart crosses the boundary as tokens: `js/boundary.js` walks the cart object in JavaScript,
//! keeps only the fields the engine reads and passes one `Float64Array` and one string
//! (`tokens.rs` reads them with the same readers as JSON text); the quote comes back the same
//! way (`output.rs`) and is built in JavaScript. On a 1,000-line cart that is several times
//! faster than serde-wasm-bindgen or JSON text (BENCHMARKS.md has the three measured). A cart
//! JSON would write differently (a Date, a class instance somewhere) is first made plain by a
//! JSON round trip in JavaScript. Id lists are read with js-sys. Every error becomes a
//! JavaScript `Error` naming the field.
//!
//! serde-wasm-bindgen, the usual boundary, is built in only with the `boundary-comparison`
//! feature, for the benchmark that measures it against the tokens: it is several times slower
//! on carts, and its error formatting alone would add a tenth to the download.

mod fast;
mod output;
#[cfg(feature = "after-sale")]
mod returns;
mod tokens;

use serde::Deserialize;
use wasm_bindgen::prelude::*;

#[cfg(feature = "boundary-comparison")]
use crate::cart_from_json;
use crate::error::EngineError;
use crate::money::MAX_SAFE_INTEGER;
use crate::read::engine_error;
use crate::{CartInput, CartSession, Money, SettlementInput};
use output::Output;
#[cfg(feature = "after-sale")]
pub use returns::{cashback, cashback_take_back, points_take_back, refund};
use tokens::Tokens;

#[wasm_bindgen(module = "/js/boundary.js")]
extern "C" {
    #[wasm_bindgen(catch, js_name = encodeCart)]
    fn encode_cart(cart: &JsValue) -> Result<Encoded, JsValue>;
    #[wasm_bindgen(catch, js_name = encodeSettlement)]
    fn encode_settlement(settlement: &JsValue) -> Result<Encoded, JsValue>;

    type Encoded;
    #[wasm_bindgen(method, getter)]
    fn tokens(this: &Encoded) -> Vec<f64>;
    #[wasm_bindgen(method, getter)]
    fn text(this: &Encoded) -> String;

    #[wasm_bindgen(js_name = decodeQuote)]
    fn decode_quote(numbers: &[f64], text: &[u8]) -> JsValue;
    #[wasm_bindgen(js_name = decodeSummary)]
    fn decode_summary(numbers: &[f64], text: &[u8]) -> JsValue;
    #[wasm_bindgen(js_name = decodeSettlement)]
    fn decode_settlement(numbers: &[f64], text: &[u8]) -> JsValue;
}

/// The declarations of what the functions take and give: generated from `crate::contract`
/// (`scripts/engine-types`), so that the package's types, the origin's OpenAPI document and
/// the engine's own behaviour (`tests/contract.rs`) are one contract.
#[wasm_bindgen(typescript_custom_section)]
const CONTRACT: &'static str = include_str!("../../js/contract.d.ts");

/// The quote of a cart (`docs/pricing.md`); throws an `Error` naming the wrong field.
#[wasm_bindgen(js_name = quoteCart, unchecked_return_type = "CartQuote")]
pub fn quote_cart(#[wasm_bindgen(unchecked_param_type = "CartInput")] input: JsValue) -> Result<JsValue, JsError> {
    let quote = crate::quote(&read_cart(&input)?).map_err(js_error)?;
    let out = Output::quote(&quote.view());
    Ok(decode_quote(&out.numbers, &out.text))
}

/// `quoteCart` with serde-wasm-bindgen at the boundary, for the benchmark only.
#[cfg(feature = "boundary-comparison")]
#[wasm_bindgen(js_name = quoteCartSerdeWasmBindgen)]
pub fn quote_cart_serde_wasm_bindgen(input: JsValue) -> Result<JsValue, JsError> {
    let cart = CartInput::deserialize(serde_wasm_bindgen::Deserializer::from(input)).map_err(|error| js_error(engine_error(error)))?;
    let quote = crate::quote(&cart).map_err(js_error)?;
    serde::Serialize::serialize(&quote, &serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|error| JsError::new(&error.to_string()))
}

/// `quoteCart` with JSON text at the boundary (`JSON.stringify`, serde_json, `JSON.parse`), for
/// the benchmark only.
#[cfg(feature = "boundary-comparison")]
#[wasm_bindgen(js_name = quoteCartJson)]
pub fn quote_cart_json(input: JsValue) -> Result<JsValue, JsError> {
    let text = js_sys::JSON::stringify(&input)
        .ok()
        .and_then(|text| text.as_string())
        .ok_or_else(|| JsError::new("input: not serializable as JSON"))?;
    let quote = crate::quote(&cart_from_json(&text).map_err(js_error)?).map_err(js_error)?;
    let text = serde_json::to_string(&quote).map_err(|error| JsError::new(&error.to_string()))?;
    js_sys::JSON::parse(&text).map_err(|_| JsError::new("quote: not valid JSON"))
}

/// A cart held in WebAssembly memory for repeated edits: an edit re-prices only its line.
#[wasm_bindgen(js_name = CartSession)]
pub struct JsCartSession {
    inner: CartSession,
}

#[wasm_bindgen(js_class = CartSession)]
impl JsCartSession {
    #[wasm_bindgen(constructor)]
    pub fn new(#[wasm_bindgen(unchecked_param_type = "CartInput")] input: JsValue) -> Result<JsCartSession, JsError> {
        let inner = CartSession::new(read_cart(&input)?).map_err(js_error)?;
        Ok(JsCartSession { inner })
    }

    /// Sets the quantity of the line with this id.
    #[wasm_bindgen(js_name = setNumber)]
    pub fn set_number(&mut self, id: f64, number: f64) -> Result<(), JsError> {
        let id = integer("id", id)?;
        let number = integer("number", number)?;
        self.inner.set_number(id, number).map_err(js_error)
    }

    /// Selects (`flag` 1 or true) or unselects the lines with these ids.
    pub fn select(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "number[]")] ids: JsValue,
        #[wasm_bindgen(unchecked_param_type = "Flag")] flag: JsValue,
    ) -> Result<(), JsError> {
        let ids = read_ids(ids)?;
        let selected = match (flag.as_bool(), flag.as_f64()) {
            (Some(flag), _) => flag,
            (None, Some(flag)) if flag == 0.0 || flag == 1.0 => flag == 1.0,
            _ => return Err(JsError::new("flag: must be 0, 1, true or false")),
        };
        self.inner.select(&ids, selected).map_err(js_error)
    }

    /// Removes the lines with these ids.
    pub fn remove(&mut self, #[wasm_bindgen(unchecked_param_type = "number[]")] ids: JsValue) -> Result<(), JsError> {
        let ids = read_ids(ids)?;
        self.inner.remove(&ids).map_err(js_error)
    }

    /// The whole quote of the cart as edited: equal to `quoteCart` of the edited cart.
    #[wasm_bindgen(unchecked_return_type = "CartQuote")]
    pub fn quote(&mut self) -> Result<JsValue, JsError> {
        let summary = self.inner.summary().map_err(js_error)?;
        self.inner.share_discount(&summary).map_err(js_error)?;
        let settlement = self.inner.settlement(&summary).map_err(js_error)?;
        let out = Output::quote(&self.inner.view(&summary, settlement.as_ref()));
        Ok(decode_quote(&out.numbers, &out.text))
    }

    /// Settles the cart as edited with `settlement` (rules 11–19), which replaces the one the
    /// cart held: equal to the `settlement` of `quoteCart` of the edited cart with it.
    #[wasm_bindgen(unchecked_return_type = "Settlement")]
    pub fn settle(&mut self, #[wasm_bindgen(unchecked_param_type = "SettlementInput")] settlement: JsValue) -> Result<JsValue, JsError> {
        let input = read_settlement(&settlement)?;
        let settled = self.inner.settle(input).map_err(js_error)?;
        let out = Output::settlement_only(&settled);
        Ok(decode_settlement(&out.numbers, &out.text))
    }

    /// Totals, counts, tiers and shipping: the quote without its lines.
    #[wasm_bindgen(unchecked_return_type = "CartSummary")]
    pub fn totals(&self) -> Result<JsValue, JsError> {
        let out = Output::summary_only(&self.inner.summary().map_err(js_error)?);
        Ok(decode_summary(&out.numbers, &out.text))
    }
}

/// The §5 phone rule: a mobile number, or with `allowLandline` also a landline (`0571-1234567`).
#[wasm_bindgen(js_name = isPhone)]
pub fn is_phone(
    #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
    #[wasm_bindgen(js_name = allowLandline)] allow_landline: Option<bool>,
) -> bool {
    text.as_string().is_some_and(|text| crate::is_phone(&text, allow_landline.unwrap_or(false)))
}

/// The §5 email rule.
#[wasm_bindgen(js_name = isEmail)]
pub fn is_email(#[wasm_bindgen(unchecked_param_type = "string")] text: JsValue) -> bool {
    text.as_string().is_some_and(|text| crate::is_email(&text))
}

/// Line types of `CartItem.type`: `LineType.FlashSale` (1, 秒杀) and `LineType.Combination`
/// (3, 组合购); anything else is a normal line.
#[wasm_bindgen]
pub enum LineType {
    Normal = 0,
    FlashSale = 1,
    Combination = 3,
}

/// The username rule: `undefined` when `text` is a valid username, else why not (Chinese).
#[wasm_bindgen(js_name = checkUsername)]
pub fn check_username(#[wasm_bindgen(unchecked_param_type = "string")] text: JsValue) -> Option<String> {
    crate::check_username(&text.as_string().unwrap_or_default()).err().map(str::to_owned)
}

/// The password rule: `undefined` when `text` is a valid password, else why not (Chinese).
#[wasm_bindgen(js_name = checkPassword)]
pub fn check_password(#[wasm_bindgen(unchecked_param_type = "string")] text: JsValue) -> Option<String> {
    crate::check_password(&text.as_string().unwrap_or_default()).err().map(str::to_owned)
}

/// Compares two amounts exactly: -1, 0 or 1. Throws on an unreadable or negative amount.
#[wasm_bindgen(js_name = compareMoney)]
pub fn compare_money(
    #[wasm_bindgen(unchecked_param_type = "MoneyInput")] a: JsValue,
    #[wasm_bindgen(unchecked_param_type = "MoneyInput")] b: JsValue,
) -> Result<i32, JsError> {
    Ok(match read_money("a", &a)?.cmp(&read_money("b", &b)?) {
        std::cmp::Ordering::Less => -1,
        std::cmp::Ordering::Equal => 0,
        std::cmp::Ordering::Greater => 1,
    })
}

/// The title of a full-reduction tier: `满500减50`.
#[wasm_bindgen(js_name = manjianTitle)]
pub fn manjian_title(
    #[wasm_bindgen(unchecked_param_type = "MoneyInput")] amount: JsValue,
    #[wasm_bindgen(unchecked_param_type = "MoneyInput")] reduce: JsValue,
) -> Result<String, JsError> {
    Ok(crate::text::manjian_title(read_money("amount", &amount)?, read_money("reduce", &reduce)?))
}

/// `再买 3 盒 享 ¥11.50`: how many more units reach a ladder price.
#[wasm_bindgen(js_name = ladderHint)]
pub fn ladder_hint(
    need: f64,
    unit: String,
    #[wasm_bindgen(unchecked_param_type = "MoneyInput")] price: JsValue,
) -> Result<String, JsError> {
    let need = u32::try_from(integer("need", need)?).map_err(|_| JsError::new("need: out of range"))?;
    Ok(crate::text::ladder_hint(need, &unit, read_money("price", &price)?))
}

/// `再买 ¥80.00 可减 ¥20.00`: how much more reaches a full-reduction tier.
#[wasm_bindgen(js_name = tierHint)]
pub fn tier_hint(
    #[wasm_bindgen(unchecked_param_type = "MoneyInput")] need: JsValue,
    #[wasm_bindgen(unchecked_param_type = "MoneyInput")] reduce: JsValue,
) -> Result<String, JsError> {
    Ok(crate::text::tier_hint(read_money("need", &need)?, read_money("reduce", &reduce)?))
}

/// Rule 23: a rate as a buyer reads it, in tenths of the price: `0.94` is `9.4折`.
#[wasm_bindgen(js_name = discountLabel)]
pub fn discount_label(#[wasm_bindgen(unchecked_param_type = "MoneyInput")] rate: JsValue) -> Result<String, JsError> {
    crate::text::discount_label(read_money("rate", &rate)?).map_err(js_error)
}

/// `还差 ¥120.00 免运费`: how much more ships free.
#[wasm_bindgen(js_name = shippingHint)]
pub fn shipping_hint(#[wasm_bindgen(unchecked_param_type = "MoneyInput")] need: JsValue) -> Result<String, JsError> {
    Ok(crate::text::shipping_hint(read_money("need", &need)?))
}

/// An amount given as a decimal string or a JavaScript number.
fn read_money(field: &str, value: &JsValue) -> Result<Money, JsError> {
    let read = match (value.as_string(), value.as_f64()) {
        (Some(text), _) => Money::parse(text.trim()),
        (None, Some(number)) => Money::from_f64(number),
        (None, None) => return Err(JsError::new(&format!("{field}: expected a decimal string or a number"))),
    };
    read.map_err(|error| JsError::new(&format!("{field}: {error}")))
}

fn read_cart(input: &JsValue) -> Result<CartInput, JsError> {
    if !input.is_object() {
        return Err(JsError::new("input: expected a cart object"));
    }
    let encoded = encode_cart(input).map_err(|_| JsError::new("input: not serializable as JSON (a cycle or a BigInt)"))?;
    let (numbers, text) = (encoded.tokens(), encoded.text());
    let mut cart = match fast::cart(&numbers, &text) {
        Some(cart) => cart,
        None => {
            let mut tokens = Tokens::new(&numbers, &text);
            let cart = CartInput::deserialize(&mut tokens).map_err(|error| js_error(engine_error(error)))?;
            if !tokens.is_done() {
                return Err(JsError::new("input: malformed token stream"));
            }
            cart
        }
    };
    // The settlement crosses on its own (`encodeCart` leaves it out).
    let settlement = js_sys::Reflect::get(input, &JsValue::from_str("settlement")).unwrap_or(JsValue::UNDEFINED);
    if !settlement.is_undefined() && !settlement.is_null() {
        cart.settlement = Some(read_settlement(&settlement)?);
    }
    Ok(cart)
}

fn read_settlement(settlement: &JsValue) -> Result<SettlementInput, JsError> {
    let encoded = encode_settlement(settlement).map_err(|_| JsError::new("settlement: not serializable as JSON (a cycle or a BigInt)"))?;
    let (numbers, text) = (encoded.tokens(), encoded.text());
    let mut tokens = Tokens::new(&numbers, &text);
    let settlement = crate::read::settlement(&mut tokens).map_err(js_error)?;
    if !tokens.is_done() {
        return Err(JsError::new("settlement: malformed token stream"));
    }
    Ok(settlement)
}

fn read_ids(ids: JsValue) -> Result<Vec<i64>, JsError> {
    if !js_sys::Array::is_array(&ids) {
        return Err(JsError::new("ids: expected an array of line ids"));
    }
    js_sys::Array::from(&ids)
        .iter()
        .map(|id| id.as_f64().ok_or_else(|| JsError::new("ids[]: not a number")).and_then(|id| integer("ids[]", id)))
        .collect()
}

fn integer(field: &str, value: f64) -> Result<i64, JsError> {
    if value.fract() == 0.0 && value.abs() <= MAX_SAFE_INTEGER as f64 {
        Ok(value as i64)
    } else {
        Err(JsError::new(&format!("{field}: not an integer")))
    }
}

fn js_error(error: EngineError) -> JsError {
    JsError::new(&error.to_string())
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests;
