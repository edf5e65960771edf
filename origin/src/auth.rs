//! Who is asking: password hashes (Argon2id) and cookie sessions kept in the database.
//! The cookie holds a random 256-bit token; the database keeps only its SHA-256, so a leaked
//! table opens no session.

use anyhow::anyhow;
use argon2::Argon2;
use argon2::password_hash::rand_core::OsRng;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use rand::RngCore;
use sha2::{Digest, Sha256};

use crate::db::Db;
use crate::now;

/// The session cookie's name.
pub const COOKIE: &str = "sid";
/// A session lasts at most this long from login (`security::SESSION_SECONDS`); it ends sooner
/// when left unused for the idle limit (a setting).
pub const SESSION_SECONDS: i64 = crate::security::SESSION_SECONDS;

pub fn hash_password(password: &str) -> anyhow::Result<String> {
    let salt = SaltString::generate(&mut OsRng);
    Ok(Argon2::default().hash_password(password.as_bytes(), &salt).map_err(|error| anyhow!("{error}"))?.to_string())
}

pub fn verify_password(password: &str, hash: &str) -> bool {
    PasswordHash::new(hash).map(|parsed| Argon2::default().verify_password(password.as_bytes(), &parsed).is_ok()).unwrap_or(false)
}

/// Checks the password against a hash no account has, and answers false: a login for an
/// unknown account spends the time a known one does, so that timing tells no one which
/// accounts exist. Blocking, like `verify_password`.
pub fn verify_nothing(password: &str) {
    static DUMMY: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    let hash = DUMMY.get_or_init(|| hash_password("no account has this password 0").unwrap_or_default());
    let _ = verify_password(password, hash);
}

/// What the database keeps of a session token.
pub fn token_hash(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

/// Opens a session for the member; answers the cookie's token.
pub async fn open_session(db: &Db, member_id: i64) -> Result<String, sqlx::Error> {
    let mut bytes = [0u8; 32];
    rand::thread_rng().fill_bytes(&mut bytes);
    let token = hex::encode(bytes);
    let created = now();
    sqlx::query("INSERT INTO sessions (token_hash, member_id, created_at, expires_at, last_seen) VALUES ($1, $2, $3, $4, $3)")
        .bind(token_hash(&token))
        .bind(member_id)
        .bind(created)
        .bind(created + SESSION_SECONDS)
        .execute(&db.pool)
        .await?;
    Ok(token)
}

/// The member a session token belongs to, while it has not expired and was used within the
/// last `idle_seconds`. Using it moves `last_seen` on, at most once a minute, so that a busy
/// member costs a write a minute, not one a request.
pub async fn session_member(db: &Db, token: &str, idle_seconds: i64) -> Result<Option<i64>, sqlx::Error> {
    let time = now();
    let hash = token_hash(token);
    let row: Option<(i64, i64)> =
        sqlx::query_as("SELECT member_id, last_seen FROM sessions WHERE token_hash = $1 AND expires_at > $2 AND last_seen > $3")
            .bind(&hash)
            .bind(time)
            .bind(time - idle_seconds)
            .fetch_optional(&db.pool)
            .await?;
    let Some((member, last_seen)) = row else { return Ok(None) };
    if last_seen <= time - crate::security::SESSION_TOUCH_SECONDS {
        sqlx::query("UPDATE sessions SET last_seen = $1 WHERE token_hash = $2 AND last_seen < $1")
            .bind(time)
            .bind(&hash)
            .execute(&db.pool)
            .await?;
    }
    Ok(Some(member))
}

pub async fn close_session(db: &Db, token: &str) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM sessions WHERE token_hash = $1").bind(token_hash(token)).execute(&db.pool).await?;
    Ok(())
}

/// The `Set-Cookie` value that opens (`Some(token)`) or clears (`None`) the session.
pub fn cookie(token: Option<&str>, secure: bool) -> String {
    let secure = if secure { "; Secure" } else { "" };
    match token {
        Some(token) => format!("{COOKIE}={token}; Path=/; HttpOnly; SameSite=Lax; Max-Age={SESSION_SECONDS}{secure}"),
        None => format!("{COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0{secure}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_verify_only_themselves() {
        let hash = hash_password("demo123").unwrap();
        assert!(hash.starts_with("$argon2id$"));
        assert!(verify_password("demo123", &hash));
        assert!(!verify_password("demo124", &hash));
        assert!(!verify_password("demo123", "not a hash"));
    }
}
