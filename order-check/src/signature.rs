//! The edge's word to the origin that it checked an order.
//!
//! Only an order the edge has quoted and found valid reaches the origin, carrying the header
//! `X-Edge-Check: <unix seconds>.<hex HMAC-SHA256>` over what the edge checked: the
//! `Idempotency-Key`, the chosen cart line ids, the payable the buyer expected, and the
//! settlement (the coupon, voucher, red-packet and points choices and the expected amount due,
//! as `OrderForm::settlement_text` writes them). The secret is
//! shared by the edge (`EDGE_SECRET` in `.dev.vars` or the Worker's secrets) and the origin
//! (`EDGE_SECRET` in its environment). The origin refuses an order whose check is missing, wrong
//! or stale, then quotes again in its own transaction all the same.
//!
//! Cart line ids are unique across members and the origin only orders lines of the caller's own
//! cart, so a check cannot be replayed by another member; the idempotency key ties it to one
//! order, and the timestamp bounds how long it is good for.

use hmac::{Hmac, Mac};
use sha2::Sha256;

/// The request header that carries the check.
pub const HEADER: &str = crate::headers::EDGE_CHECK;

/// How long a check is good for, either way of the origin's clock, in seconds.
pub const MAX_AGE: i64 = 300;

/// What the edge checked, as the origin reads it back from the order request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checked<'a> {
    /// The `Idempotency-Key` header, trimmed.
    pub idempotency_key: &'a str,
    /// The chosen cart line ids, in any order, duplicates allowed.
    pub ids: &'a [i64],
    /// The `expected_payable` field as posted, trimmed.
    pub expected_payable: &'a str,
    /// The settlement's choices and expected due (`OrderForm::settlement_text`).
    pub settlement: &'a str,
}

impl Checked<'_> {
    fn message(&self, timestamp: i64) -> String {
        let mut ids = self.ids.to_vec();
        ids.sort_unstable();
        ids.dedup();
        let ids: Vec<String> = ids.iter().map(i64::to_string).collect();
        format!(
            "shop-edge-check/v2\n{timestamp}\n{}\n{}\n{}\n{}",
            self.idempotency_key.trim(),
            ids.join(","),
            self.expected_payable.trim(),
            self.settlement
        )
    }
}

/// Why the origin does not take a check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rejection {
    /// No header, or not `<seconds>.<hex>`.
    Missing,
    /// Older or newer than [`MAX_AGE`].
    Stale,
    /// The MAC is not the secret's over this request.
    Forged,
}

fn mac(secret: &[u8]) -> Hmac<Sha256> {
    Hmac::<Sha256>::new_from_slice(secret).expect("HMAC takes a key of any length")
}

/// The header value the edge sends for `checked` at `timestamp` (unix seconds).
pub fn sign(secret: &[u8], checked: &Checked<'_>, timestamp: i64) -> String {
    let mut mac = mac(secret);
    mac.update(checked.message(timestamp).as_bytes());
    format!("{timestamp}.{}", hex::encode(mac.finalize().into_bytes()))
}

/// Verifies `header` (the value of [`HEADER`]) for `checked` at the origin's time `now`.
/// The comparison of MACs takes constant time.
pub fn verify(secret: &[u8], header: Option<&str>, checked: &Checked<'_>, now: i64) -> Result<(), Rejection> {
    let (timestamp, signature) = header.and_then(|value| value.trim().split_once('.')).ok_or(Rejection::Missing)?;
    let timestamp: i64 = timestamp.parse().map_err(|_| Rejection::Missing)?;
    let signature = hex::decode(signature).map_err(|_| Rejection::Missing)?;
    // Checked: a timestamp near `i64::MIN` must not overflow the difference.
    if now.checked_sub(timestamp).is_none_or(|age| age.unsigned_abs() > MAX_AGE.unsigned_abs()) {
        return Err(Rejection::Stale);
    }
    let mut mac = mac(secret);
    mac.update(checked.message(timestamp).as_bytes());
    mac.verify_slice(&signature).map_err(|_| Rejection::Forged)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SECRET: &[u8] = b"shared secret";

    fn checked<'a>(ids: &'a [i64]) -> Checked<'a> {
        Checked {
            idempotency_key: "order-1",
            ids,
            expected_payable: "120.50",
            settlement: "coupon=best;voucher=best;red_packet=0;points=0;due=",
        }
    }

    #[test]
    fn a_signed_check_verifies_whatever_the_order_of_ids() {
        let header = sign(SECRET, &checked(&[3, 1, 2]), 1_000);
        assert_eq!(verify(SECRET, Some(&header), &checked(&[1, 2, 3, 3]), 1_000), Ok(()));
        assert_eq!(verify(SECRET, Some(&header), &checked(&[2, 3, 1]), 1_000 + MAX_AGE), Ok(()));
    }

    #[test]
    fn any_change_breaks_the_check() {
        let header = sign(SECRET, &checked(&[1, 2]), 1_000);
        assert_eq!(verify(SECRET, Some(&header), &checked(&[1, 2, 4]), 1_000), Err(Rejection::Forged));
        let other_payable = Checked { expected_payable: "120.49", ..checked(&[1, 2]) };
        assert_eq!(verify(SECRET, Some(&header), &other_payable, 1_000), Err(Rejection::Forged));
        let other_key = Checked { idempotency_key: "order-2", ..checked(&[1, 2]) };
        assert_eq!(verify(SECRET, Some(&header), &other_key, 1_000), Err(Rejection::Forged));
        let other_coupon = Checked { settlement: "coupon=7;voucher=best;red_packet=0;points=0;due=", ..checked(&[1, 2]) };
        assert_eq!(verify(SECRET, Some(&header), &other_coupon, 1_000), Err(Rejection::Forged));
        assert_eq!(verify(b"another secret", Some(&header), &checked(&[1, 2]), 1_000), Err(Rejection::Forged));
        let moved = header.replacen("1000.", "1001.", 1);
        assert_eq!(verify(SECRET, Some(&moved), &checked(&[1, 2]), 1_000), Err(Rejection::Forged));
    }

    #[test]
    fn missing_malformed_and_stale_checks_are_refused() {
        let header = sign(SECRET, &checked(&[1]), 1_000);
        assert_eq!(verify(SECRET, None, &checked(&[1]), 1_000), Err(Rejection::Missing));
        assert_eq!(verify(SECRET, Some("nonsense"), &checked(&[1]), 1_000), Err(Rejection::Missing));
        assert_eq!(verify(SECRET, Some("1000.zz"), &checked(&[1]), 1_000), Err(Rejection::Missing));
        assert_eq!(verify(SECRET, Some(&header), &checked(&[1]), 1_000 + MAX_AGE + 1), Err(Rejection::Stale));
        assert_eq!(verify(SECRET, Some(&header), &checked(&[1]), 1_000 - MAX_AGE - 1), Err(Rejection::Stale));
        let far = format!("{}.{}", i64::MIN, "ab".repeat(32));
        assert_eq!(verify(SECRET, Some(&far), &checked(&[1]), 1_000), Err(Rejection::Stale), "no overflow");
        let future = format!("{}.{}", i64::MAX, "ab".repeat(32));
        assert_eq!(verify(SECRET, Some(&future), &checked(&[1]), -1_000), Err(Rejection::Stale), "no overflow");
    }
}
