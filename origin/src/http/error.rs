//! The one error type every handler answers with, and the envelope every answer wears:
//! `{ "code": int, "msg": string, "data": any }` (`shared/design/api.md`).

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::{Map, Value, json};

/// What the server says when it is at fault; the cause goes to the log only.
pub const BUSY: &str = "系统繁忙，请稍候再试";

#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Not logged in, or the session expired: code 10001, HTTP 401.
    #[error("login required")]
    Unauthorized,
    /// Field errors, in the order found: code 422, `msg` the first message.
    #[error("validation failed: {0:?}")]
    Validation(Vec<(String, String)>),
    /// The member must sign the agreement first: code 459.
    #[error("agreement required")]
    Agreement,
    /// A refusal with its HTTP status (403, 404, 409, 429) and a Chinese message.
    #[error("refused {0}: {1}")]
    Refused(StatusCode, String),
    /// A fault: HTTP 500, "系统繁忙，请稍候再试".
    #[error(transparent)]
    Internal(#[from] anyhow::Error),
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    /// One field error.
    pub fn field(field: &str, message: impl Into<String>) -> Error {
        Error::Validation(vec![(field.to_owned(), message.into())])
    }

    pub fn not_found(message: impl Into<String>) -> Error {
        Error::Refused(StatusCode::NOT_FOUND, message.into())
    }

    pub fn forbidden(message: impl Into<String>) -> Error {
        Error::Refused(StatusCode::FORBIDDEN, message.into())
    }

    pub fn conflict(message: impl Into<String>) -> Error {
        Error::Refused(StatusCode::CONFLICT, message.into())
    }

    pub fn too_many(message: impl Into<String>) -> Error {
        Error::Refused(StatusCode::TOO_MANY_REQUESTS, message.into())
    }
}

impl From<sqlx::Error> for Error {
    fn from(error: sqlx::Error) -> Error {
        Error::Internal(error.into())
    }
}

/// The success envelope around any serializable answer, written straight to the body.
#[derive(serde::Serialize)]
pub struct Envelope<T> {
    code: i64,
    msg: &'static str,
    data: T,
}

pub fn ok<T: serde::Serialize>(data: T) -> Result<Json<Envelope<T>>> {
    Ok(Json(Envelope { code: 10000, msg: "ok", data }))
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
            Error::Refused(status, message) => (status, i64::from(status.as_u16()), message, Value::Null),
            Error::Internal(error) => {
                tracing::error!(error = format!("{error:#}"), "request failed");
                (StatusCode::INTERNAL_SERVER_ERROR, 500, BUSY.to_owned(), Value::Null)
            }
        };
        (status, Json(json!({ "code": code, "msg": msg, "data": data }))).into_response()
    }
}
