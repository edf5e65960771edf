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
/// A session lasts 30 days from login.
pub const SESSION_SECONDS: i64 = 30 * 86_400;

pub fn hash_password(password: &str) -> anyhow::Result<String> {
    let salt = SaltString::generate(&mut OsRng);
    Ok(Argon2::default().hash_password(password.as_bytes(), &salt).map_err(|error| anyhow!("{error}"))?.to_string())
}

pub fn verify_password(password: &str, hash: &str) -> bool {
    PasswordHash::new(hash).map(|parsed| Argon2::default().verify_password(password.as_bytes(), &parsed).is_ok()).unwrap_or(false)
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
    sqlx::query("INSERT INTO sessions (token_hash, member_id, created_at, expires_at) VALUES ($1, $2, $3, $4)")
        .bind(token_hash(&token))
        .bind(member_id)
        .bind(created)
        .bind(created + SESSION_SECONDS)
        .execute(&db.pool)
        .await?;
    Ok(token)
}

/// The member a session token belongs to, while it has not expired.
pub async fn session_member(db: &Db, token: &str) -> Result<Option<i64>, sqlx::Error> {
    sqlx::query_scalar("SELECT member_id FROM sessions WHERE token_hash = $1 AND expires_at > $2")
        .bind(token_hash(token))
        .bind(now())
        .fetch_optional(&db.pool)
        .await
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
