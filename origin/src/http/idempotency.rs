//! `Idempotency-Key`: the first request with a key is carried out and its answer kept; the
//! same key with the same body answers that first answer again, with another body 422.
//! Requests that race with one key: the first to claim the key runs, the others wait for its
//! answer.
//!
//! A claim whose request died with its origin (killed mid-order, on any of several origins) is
//! taken over by a retry after `ABANDONED` seconds, sooner than the retry's own wait, so the
//! retry is answered. Each claim holds a token, and an answer is kept only under the token that
//! claimed it (`save`): a request that was slow, not dead, and lost its claim cannot keep its
//! answer — the order's transaction that would keep it rolls back — so a key never orders twice.

use std::time::Duration;

use axum::http::StatusCode;
use sha2::{Digest, Sha256};

use super::error::{Error, Result};
use crate::db::Db;
use crate::now;

/// How long a request waits for a concurrent one with its key to answer.
const WAIT: Duration = Duration::from_secs(20);
/// Seconds after which an unanswered claim counts as abandoned (less than `WAIT`).
const ABANDONED: i64 = 8;

/// What claiming a key found.
pub enum Claim {
    /// The key is new (or its claim was abandoned): carry out the request, then `save` its
    /// answer under this token.
    Fresh(String),
    /// The key answered before: this is that answer.
    Answered(StatusCode, String),
}

/// The fingerprint of a request's body, to tell a replay from a different request.
pub fn fingerprint(parts: &[(&str, String)]) -> String {
    let mut hasher = Sha256::new();
    for (name, value) in parts {
        hasher.update(name.as_bytes());
        hasher.update([0]);
        hasher.update(value.as_bytes());
        hasher.update([0]);
    }
    hex::encode(hasher.finalize())
}

pub async fn claim(db: &Db, member: i64, key: &str, fingerprint: &str) -> Result<Claim> {
    if key.is_empty() || key.len() > 100 {
        return Err(Error::field("Idempotency-Key", "缺少有效的幂等键"));
    }
    let token = new_token();
    let inserted = sqlx::query(
        "INSERT INTO idempotency (member_id, key, request_hash, created_at, claim_token) VALUES ($1, $2, $3, $4, $5) \
         ON CONFLICT (member_id, key) DO NOTHING",
    )
    .bind(member)
    .bind(key)
    .bind(fingerprint)
    .bind(now())
    .bind(&token)
    .execute(&db.pool)
    .await?
    .rows_affected();
    if inserted == 1 {
        return Ok(Claim::Fresh(token));
    }
    let deadline = tokio::time::Instant::now() + WAIT;
    loop {
        let row: Option<(String, Option<i64>, Option<String>, i64)> = sqlx::query_as(
            "SELECT request_hash, response_status, response_body, created_at FROM idempotency WHERE member_id = $1 AND key = $2",
        )
        .bind(member)
        .bind(key)
        .fetch_optional(&db.pool)
        .await?;
        // Released after a fault: claim it afresh.
        let Some((hash, status, body, created)) = row else { return Box::pin(claim(db, member, key, fingerprint)).await };
        if hash != fingerprint {
            return Err(Error::field("Idempotency-Key", "该幂等键已用于其他请求"));
        }
        if let (Some(status), Some(body)) = (status, body) {
            let status = StatusCode::from_u16(status as u16).map_err(anyhow::Error::from)?;
            return Ok(Claim::Answered(status, body));
        }
        // A claim nobody answered in time was abandoned (its origin died): take it over.
        if created < now() - ABANDONED {
            let token = new_token();
            let taken = sqlx::query(
                "UPDATE idempotency SET created_at = $1, claim_token = $5 \
                 WHERE member_id = $2 AND key = $3 AND response_status IS NULL AND created_at = $4",
            )
            .bind(now())
            .bind(member)
            .bind(key)
            .bind(created)
            .bind(&token)
            .execute(&db.pool)
            .await?;
            if taken.rows_affected() == 1 {
                return Ok(Claim::Fresh(token));
            }
        }
        if tokio::time::Instant::now() >= deadline {
            return Err(Error::conflict("请求正在处理中，请稍候"));
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The answer a key already has, without claiming it: `None` when the key was never used (or
/// its request is still running past the wait, or was given up); 422 when it was used for
/// another request.
pub async fn answered(db: &Db, member: i64, key: &str, fingerprint: &str) -> Result<Option<(StatusCode, String)>> {
    let deadline = tokio::time::Instant::now() + WAIT;
    loop {
        let row: Option<(String, Option<i64>, Option<String>)> =
            sqlx::query_as("SELECT request_hash, response_status, response_body FROM idempotency WHERE member_id = $1 AND key = $2")
                .bind(member)
                .bind(key)
                .fetch_optional(&db.pool)
                .await?;
        let Some((hash, status, body)) = row else { return Ok(None) };
        if hash != fingerprint {
            return Err(Error::field("Idempotency-Key", "该幂等键已用于其他请求"));
        }
        if let (Some(status), Some(body)) = (status, body) {
            let status = StatusCode::from_u16(status as u16).map_err(anyhow::Error::from)?;
            return Ok(Some((status, body)));
        }
        if tokio::time::Instant::now() >= deadline {
            return Ok(None);
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// A claim's token: 128 random bits.
fn new_token() -> String {
    hex::encode(rand::random::<[u8; 16]>())
}

/// Keeps the answer of a key claimed under `token` (on the connection or transaction that
/// carried the request out). When the claim was taken over meanwhile, keeps nothing and
/// answers 409: inside a transaction, that rolls the request's work back.
pub async fn save(conn: &mut sqlx::AnyConnection, member: i64, key: &str, token: &str, status: StatusCode, body: &str) -> Result<()> {
    let kept = sqlx::query(
        "UPDATE idempotency SET response_status = $1, response_body = $2 \
         WHERE member_id = $3 AND key = $4 AND claim_token = $5 AND response_status IS NULL",
    )
    .bind(i64::from(status.as_u16()))
    .bind(body)
    .bind(member)
    .bind(key)
    .bind(token)
    .execute(&mut *conn)
    .await?
    .rows_affected();
    if kept == 0 {
        return Err(Error::conflict("请求正在处理中，请稍候"));
    }
    Ok(())
}

/// Gives up a key claimed under `token` after a fault, so that a retry runs again.
pub async fn release(db: &Db, member: i64, key: &str, token: &str) -> Result<()> {
    sqlx::query("DELETE FROM idempotency WHERE member_id = $1 AND key = $2 AND response_status IS NULL AND claim_token = $3")
        .bind(member)
        .bind(key)
        .bind(token)
        .execute(&db.pool)
        .await?;
    Ok(())
}
