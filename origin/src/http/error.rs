//! The one error type every handler answers with, and the envelope every answer wears:
//! `{ "code": int, "msg": string, "data": any }` (`docs/api.md`, "The envelope").

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::{Map, Value, json};
use utoipa::ToSchema;
use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{ObjectBuilder, Schema, Type};

/// What the server says when it is at fault; the cause goes to the log only.
pub const BUSY: &str = "系统繁忙，请稍候再试";

/// The domain's error is the API's: every refusal a handler or a rule makes is answered here.
pub use crate::domain::error::{Error, Refusal, Result};

/// The HTTP status of a refusal.
fn status(refusal: Refusal) -> StatusCode {
    match refusal {
        Refusal::Forbidden => StatusCode::FORBIDDEN,
        Refusal::NotFound => StatusCode::NOT_FOUND,
        Refusal::Conflict => StatusCode::CONFLICT,
        Refusal::TooLarge => StatusCode::PAYLOAD_TOO_LARGE,
        Refusal::TooMany => StatusCode::TOO_MANY_REQUESTS,
        Refusal::Unavailable => StatusCode::SERVICE_UNAVAILABLE,
        Refusal::NoSpace => StatusCode::INSUFFICIENT_STORAGE,
    }
}

/// A refusal's envelope with the HTTP status as its `code`, for what is refused before any
/// handler runs (a route that does not exist, a body over the limit, a scrape without its
/// token).
pub fn refused(status: StatusCode, message: &str) -> Response {
    envelope(status, i64::from(status.as_u16()), message.to_owned(), Value::Null)
}

fn envelope(status: StatusCode, code: i64, msg: String, data: Value) -> Response {
    (status, Json(json!({ "code": code, "msg": msg, "data": data }))).into_response()
}

// The success envelope around an answer, written straight to the body. Each handler's
// `#[utoipa::path]` names it with its answer, `Envelope<Answer>`, so that the OpenAPI document
// describes every call's `data` as a named schema (the web app's types are generated from
// them); the doc line below is the schema's description.
/// A success: `code` 10000, `msg` "ok" (or the call's own message), `data` the call's answer.
#[derive(serde::Serialize, ToSchema)]
pub struct Envelope<T> {
    /// 10000: success.
    #[schema(example = 10000)]
    code: i64,
    #[schema(value_type = String, example = "ok")]
    msg: &'static str,
    data: T,
}

/// What a handler answers: its envelope, or the error's.
pub type Answer<T> = Result<Json<Envelope<T>>>;

pub fn ok<T: serde::Serialize>(data: T) -> Answer<T> {
    ok_with("ok", data)
}

/// A success with the call's own message (`收藏成功`).
pub fn ok_with<T: serde::Serialize>(msg: &'static str, data: T) -> Answer<T> {
    Ok(Json(Envelope { code: 10000, msg, data }))
}

impl<T> Envelope<T> {
    /// The success envelope around `data`, for an answer kept before it is sent.
    pub fn success(data: T) -> Envelope<T> {
        Envelope { code: 10000, msg: "ok", data }
    }
}

/// `data` of a call that answers nothing: `null`.
#[derive(Clone, Copy, Debug, serde::Serialize)]
pub struct Nothing;

impl utoipa::PartialSchema for Nothing {
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new().schema_type(Type::Null).into()
    }
}

impl ToSchema for Nothing {}

// The refusals' envelope for the OpenAPI document only: the answers are made by
// `Error::into_response` below.
/// A refusal or fault: `code` 10001 with HTTP 401 (login required), 422 (`msg` the first
/// message, `data.errors` every field's), 459 (agreement required, HTTP 200), other 4xx
/// refusals with a Chinese `msg`, 500 "系统繁忙，请稍候再试"; `data` is `null` but for 422.
#[derive(ToSchema)]
#[allow(dead_code)]
pub struct ErrorEnvelope {
    #[schema(example = 422)]
    code: i64,
    #[schema(example = "请填写手机号码")]
    msg: String,
    #[schema(required = true)]
    data: Option<FieldErrors>,
}

/// A 422's `data`: the messages of each wrong field, in the order found.
#[derive(ToSchema)]
#[allow(dead_code)]
pub struct FieldErrors {
    errors: std::collections::BTreeMap<String, Vec<String>>,
}

impl IntoResponse for Error {
    fn into_response(self) -> Response {
        let (status, code, msg, data) = match self {
            Error::Unauthorized => (StatusCode::UNAUTHORIZED, 10001, "请先登录".to_owned(), Value::Null),
            Error::Validation(errors) => {
                let first = errors.first().map(|(_, message)| message.clone()).unwrap_or_default();
                let mut fields = Map::new();
                for (field, message) in errors {
                    let list = fields.entry(field).or_insert_with(|| Value::Array(Vec::new()));
                    if let Value::Array(list) = list {
                        list.push(Value::String(message));
                    }
                }
                (StatusCode::UNPROCESSABLE_ENTITY, 422, first, json!({ "errors": fields }))
            }
            Error::Agreement => (StatusCode::OK, 459, "请先签署电子合同".to_owned(), Value::Null),
            Error::Refused(refusal, message) => {
                let status = status(refusal);
                (status, i64::from(status.as_u16()), message, Value::Null)
            }
            Error::Internal(error) => {
                tracing::error!(error = format!("{error:#}"), "request failed");
                (StatusCode::INTERNAL_SERVER_ERROR, 500, BUSY.to_owned(), Value::Null)
            }
        };
        envelope(status, code, msg, data)
    }
}
