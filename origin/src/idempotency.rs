//! `Idempotency-Key`: the first request with a key is carried out and its answer kept; the
//! same key with the same body answers that first answer again, with another body 422.
//! Requests that race with one key: the first to claim the key runs, the others wait for its
//! answer.

use std::time::Duration;

use axum::http::StatusCode;
use sha2::{Digest, Sha256};

use crate::db::Db;
use crate::http::error::{Error, Result};
use crate::now;

/// How long a request waits for a concurrent one with its key to answer.
const WAIT: Duration = Duration::from_secs(20);
/// Seconds after which an unanswered claim counts as abandoned.
const ABANDONED: i64 = 60;

/// What claiming a key found.
pub enum Claim {
    /// The key is new: carry out the request, then `save` its answer.
    Fresh,
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
    let inserted = sqlx::query(
        "INSERT INTO idempotency (member_id, key, request_hash, created_at) VALUES ($1, $2, $3, $4) \
         ON CONFLICT (member_id, key) DO NOTHING",
    )
    .bind(member)
    .bind(key)
    .bind(fingerprint)
    .bind(now())
    .execute(&db.pool)
    .await?
    .rows_affected();
    if inserted == 1 {
        return Ok(Claim::Fresh);
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
        // A claim nobody answered within a minute was abandoned (a dropped request): take it over.
        if created < now() - ABANDONED {
            let taken = sqlx::query(
                "UPDATE idempotency SET created_at = $1 WHERE member_id = $2 AND key = $3 AND response_status IS NULL AND created_at = $4",
            )
            .bind(now())
            .bind(member)
            .bind(key)
            .bind(created)
            .execute(&db.pool)
            .await?;
            if taken.rows_affected() == 1 {
                return Ok(Claim::Fresh);
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

/// Keeps the answer of a claimed key (on the connection or transaction that made it).
pub async fn save(conn: &mut sqlx::AnyConnection, member: i64, key: &str, status: StatusCode, body: &str) -> Result<()> {
    sqlx::query("UPDATE idempotency SET response_status = $1, response_body = $2 WHERE member_id = $3 AND key = $4")
        .bind(i64::from(status.as_u16()))
        .bind(body)
        .bind(member)
        .bind(key)
        .execute(&mut *conn)
        .await?;
    Ok(())
}

/// Gives up a claimed key after a fault, so that a retry runs again.
pub async fn release(db: &Db, member: i64, key: &str) -> Result<()> {
    sqlx::query("DELETE FROM idempotency WHERE member_id = $1 AND key = $2 AND response_status IS NULL")
        .bind(member)
        .bind(key)
        .execute(&db.pool)
        .await?;
    Ok(())
}
