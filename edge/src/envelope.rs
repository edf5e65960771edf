//! The answers the edge makes itself, in the shop's envelope `{ code, msg, data }`
//! (`docs/api.md`): a 422 with the field errors, or the fault every layer answers.

use serde_json::json;

/// An answer of the edge's own: HTTP status and JSON body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    pub status: u16,
    pub body: String,
}

/// HTTP 422, code 422: `field` is wrong, `message` says why (Chinese, shown to the buyer).
pub fn invalid(field: &str, message: &str) -> Answer {
    Answer { status: 422, body: json!({ "code": 422, "msg": message, "data": { "errors": { field: [message] } } }).to_string() }
}

/// HTTP 502: the origin could not be reached or answered what the edge cannot read.
pub fn busy() -> Answer {
    Answer { status: 502, body: json!({ "code": 500, "msg": "系统繁忙，请稍候再试", "data": null }).to_string() }
}
