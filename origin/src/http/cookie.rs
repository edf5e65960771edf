//! The session cookie (`sid`): set when a member signs in — by login or at registration —,
//! cleared at logout; `Secure` when the edge says the browser came over HTTPS.

use axum::http::{HeaderMap, HeaderValue};

use super::error::Result;
use super::extract::session_token;
use crate::auth;
use crate::db::Db;

/// Whether the browser came over HTTPS (the edge's `X-Forwarded-Proto`).
pub fn is_secure(headers: &HeaderMap) -> bool {
    headers.get("x-forwarded-proto").and_then(|value| value.to_str().ok()) == Some("https")
}

/// Signs the member in: a new session, whose cookie the answer sets, and the end of the one
/// the request's cookie held, if any, so that a session id never outlives a login.
pub async fn sign_in(db: &Db, headers: &HeaderMap, member: i64) -> Result<HeaderValue> {
    if let Some(old) = session_token(headers) {
        auth::close_session(db, &old).await?;
    }
    let token = auth::open_session(db, member).await?;
    let cookie = HeaderValue::from_str(&auth::cookie(Some(&token), is_secure(headers))).map_err(anyhow::Error::from)?;
    Ok(cookie)
}
