//! The edge's proof, on every request it forwards, that the request came through it
//! (`docs/edge.md`, "What the origin trusts").
//!
//! The edge adds `X-Edge-Proof: <unix seconds>.<hex HMAC-SHA256>` to each request it sends the
//! origin, keyed with the shared `EDGE_SECRET`, over this message:
//!
//! ```text
//! shop-edge-proof/v1
//! <unix seconds>
//! <METHOD>
//! <path?query, exactly as sent>
//! ```
//!
//! The origin, when it has the secret, refuses (403) every request without a valid proof but its
//! health check, and believes `X-Forwarded-For`, `X-Forwarded-Host` and `X-Forwarded-Proto` only
//! on a proven request. A proof binds one method and target for [`MAX_AGE`] seconds either way
//! of the origin's clock: copied onto another path or method it fails, and kept longer it goes
//! stale.

use hmac::{Hmac, Mac};
use sha2::Sha256;

pub use crate::signature::Rejection;

/// The request header that carries the proof.
pub const HEADER: &str = crate::headers::EDGE_PROOF;

/// How long a proof is good for, either way of the origin's clock, in seconds. A request is
/// signed the moment the edge sends it, so the window only has to cover the clocks' drift and
/// the time on the wire.
pub const MAX_AGE: i64 = 60;

/// The shortest `EDGE_SECRET` the origin starts with, in bytes: the secret is the only thing
/// between the open internet and the origin's trust, so it must not be guessable.
pub const MIN_SECRET_BYTES: usize = 32;

/// Whether `secret` is long enough to be the edge's secret: `Err` says why not, in English, for
/// the origin's error at start.
pub fn check_secret(secret: &str) -> Result<(), String> {
    if secret.len() < MIN_SECRET_BYTES {
        return Err(format!(
            "EDGE_SECRET is {} bytes long; it must have at least {MIN_SECRET_BYTES} (for example 64 hex characters: `openssl rand -hex 32`)",
            secret.len()
        ));
    }
    Ok(())
}

fn message(method: &str, path_and_query: &str, timestamp: i64) -> String {
    format!("shop-edge-proof/v1\n{timestamp}\n{}\n{path_and_query}", method.to_ascii_uppercase())
}

fn mac(secret: &[u8], method: &str, path_and_query: &str, timestamp: i64) -> Hmac<Sha256> {
    let mut mac = Hmac::<Sha256>::new_from_slice(secret).expect("HMAC takes a key of any length");
    mac.update(message(method, path_and_query, timestamp).as_bytes());
    mac
}

/// The header value the edge sends with a `method` request to `path_and_query` (the path and,
/// when there is one, `?` and the query, as the origin will receive them) at `timestamp`.
pub fn sign(secret: &[u8], method: &str, path_and_query: &str, timestamp: i64) -> String {
    format!("{timestamp}.{}", hex::encode(mac(secret, method, path_and_query, timestamp).finalize().into_bytes()))
}

/// Verifies `header` (the value of [`HEADER`]) for a `method` request to `path_and_query` at
/// the origin's time `now`. The comparison of MACs takes constant time.
pub fn verify(secret: &[u8], header: Option<&str>, method: &str, path_and_query: &str, now: i64) -> Result<(), Rejection> {
    let (timestamp, proof) = header.and_then(|value| value.trim().split_once('.')).ok_or(Rejection::Missing)?;
    let timestamp: i64 = timestamp.parse().map_err(|_| Rejection::Missing)?;
    let proof = hex::decode(proof).map_err(|_| Rejection::Missing)?;
    // Checked: a timestamp near `i64::MIN` must not overflow the difference.
    if now.checked_sub(timestamp).is_none_or(|age| age.unsigned_abs() > MAX_AGE.unsigned_abs()) {
        return Err(Rejection::Stale);
    }
    mac(secret, method, path_and_query, timestamp).verify_slice(&proof).map_err(|_| Rejection::Forged)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SECRET: &[u8] = b"0123456789abcdef0123456789abcdef";

    #[test]
    fn a_proof_verifies_for_its_request_within_the_window() {
        let header = sign(SECRET, "GET", "/api/user/base?x=1", 1_000);
        assert_eq!(verify(SECRET, Some(&header), "GET", "/api/user/base?x=1", 1_000), Ok(()));
        assert_eq!(verify(SECRET, Some(&header), "get", "/api/user/base?x=1", 1_000 + MAX_AGE), Ok(()));
        assert_eq!(verify(SECRET, Some(&header), "GET", "/api/user/base?x=1", 1_000 - MAX_AGE), Ok(()));
    }

    #[test]
    fn another_request_or_secret_breaks_it() {
        let header = sign(SECRET, "POST", "/api/cart", 1_000);
        assert_eq!(verify(SECRET, Some(&header), "DELETE", "/api/cart", 1_000), Err(Rejection::Forged));
        assert_eq!(verify(SECRET, Some(&header), "POST", "/api/cart/copy", 1_000), Err(Rejection::Forged));
        assert_eq!(verify(SECRET, Some(&header), "POST", "/api/cart?x=1", 1_000), Err(Rejection::Forged));
        assert_eq!(verify(b"another secret of thirty-two b..", Some(&header), "POST", "/api/cart", 1_000), Err(Rejection::Forged));
        let moved = header.replacen("1000.", "1001.", 1);
        assert_eq!(verify(SECRET, Some(&moved), "POST", "/api/cart", 1_000), Err(Rejection::Forged));
        // Not the order check's MAC either: the messages differ in their first line.
        assert_ne!(
            header,
            crate::signature::sign(
                SECRET,
                &crate::signature::Checked { idempotency_key: "", ids: &[], expected_payable: "", settlement: "" },
                1_000
            )
        );
    }

    #[test]
    fn missing_malformed_and_stale_proofs_are_refused() {
        let header = sign(SECRET, "GET", "/api/index", 1_000);
        assert_eq!(verify(SECRET, None, "GET", "/api/index", 1_000), Err(Rejection::Missing));
        assert_eq!(verify(SECRET, Some(""), "GET", "/api/index", 1_000), Err(Rejection::Missing));
        assert_eq!(verify(SECRET, Some("1000.xyz"), "GET", "/api/index", 1_000), Err(Rejection::Missing));
        assert_eq!(verify(SECRET, Some(&header), "GET", "/api/index", 1_000 + MAX_AGE + 1), Err(Rejection::Stale));
        assert_eq!(verify(SECRET, Some(&header), "GET", "/api/index", 1_000 - MAX_AGE - 1), Err(Rejection::Stale));
        let far = format!("{}.{}", i64::MIN, "ab".repeat(32));
        assert_eq!(verify(SECRET, Some(&far), "GET", "/api/index", 1_000), Err(Rejection::Stale), "no overflow");
    }

    #[test]
    fn short_secrets_are_refused() {
        assert!(check_secret("the edge and the origin share this").is_ok());
        assert!(check_secret(&"a".repeat(64)).is_ok());
        let error = check_secret("short").unwrap_err();
        assert!(error.contains("5 bytes") && error.contains("at least 32"), "{error}");
    }
}
