//! The answers the edge makes itself, in the shop's envelope `{ code, msg, data }`
//! (`docs/api.md`): a 422 with the field errors, a 413 for a body too large, or the fault every
//! layer answers.

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

/// The message of a body larger than its call allows.
pub const TOO_LARGE: &str = "请求内容过大";

/// HTTP 413: the request's body is larger than its call allows (`order_check::limits`), as the
/// origin answers it.
pub fn too_large() -> Answer {
    Answer { status: 413, body: json!({ "code": 413, "msg": TOO_LARGE, "data": null }).to_string() }
}

/// HTTP 400: the client stopped sending its body before the end, as the origin answers a body
/// it cannot read.
pub fn unreadable() -> Answer {
    Answer { status: 400, body: json!({ "code": 400, "msg": "请求参数不正确", "data": null }).to_string() }
}
