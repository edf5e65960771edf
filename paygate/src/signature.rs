//! How the provider and its merchants sign what they send each other (the scheme of WeChat Pay
//! v2 and Alipay's key mode): the parameters sorted by name, `sign` and empty values left out,
//! joined as `name=value&name=value`, then HMAC-SHA256 with the merchant key, in lowercase hex.

use hmac::{Hmac, Mac};
use sha2::Sha256;

/// The name of the signature parameter.
pub const SIGN: &str = "sign";

/// The text that is signed: the parameters but `sign` and the empty ones, sorted by name.
pub fn canonical<'a>(params: impl IntoIterator<Item = (&'a str, &'a str)>) -> String {
    let mut pairs: Vec<(&str, &str)> = params.into_iter().filter(|(name, value)| *name != SIGN && !value.is_empty()).collect();
    pairs.sort_unstable();
    pairs.iter().map(|(name, value)| format!("{name}={value}")).collect::<Vec<_>>().join("&")
}

fn mac(key: &[u8]) -> Hmac<Sha256> {
    Hmac::<Sha256>::new_from_slice(key).expect("HMAC takes a key of any length")
}

/// The signature of `params` under `key`.
pub fn sign<'a>(key: &[u8], params: impl IntoIterator<Item = (&'a str, &'a str)>) -> String {
    let mut mac = mac(key);
    mac.update(canonical(params).as_bytes());
    hex::encode(mac.finalize().into_bytes())
}

/// Whether `params` carry a valid `sign` under `key` (compared in constant time).
pub fn verify<'a>(key: &[u8], params: impl IntoIterator<Item = (&'a str, &'a str)> + Clone) -> bool {
    let Some(given) = params.clone().into_iter().find(|(name, _)| *name == SIGN).map(|(_, value)| value) else { return false };
    let Ok(given) = hex::decode(given) else { return false };
    let mut mac = mac(key);
    mac.update(canonical(params).as_bytes());
    mac.verify_slice(&given).is_ok()
}

/// `params` with their `sign` added.
pub fn signed(key: &[u8], mut params: Vec<(String, String)>) -> Vec<(String, String)> {
    params.retain(|(name, _)| name != SIGN);
    let signature = sign(key, params.iter().map(|(name, value)| (name.as_str(), value.as_str())));
    params.push((SIGN.to_owned(), signature));
    params
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signs_the_sorted_non_empty_parameters() {
        let params = [("b", "2"), ("a", "1"), ("empty", ""), ("sign", "ignored")];
        assert_eq!(canonical(params), "a=1&b=2");
        let signature = sign(b"key", params);
        assert_eq!(signature.len(), 64);
        assert_eq!(signature, sign(b"key", [("a", "1"), ("b", "2")]), "order and empty values do not matter");
        assert_ne!(signature, sign(b"other key", params));
    }

    #[test]
    fn verifies_only_the_right_signature() {
        let params = signed(b"key", vec![("amount".into(), "10.00".into()), ("out_trade_no".into(), "R1".into())]);
        let view = || params.iter().map(|(name, value)| (name.as_str(), value.as_str()));
        assert!(verify(b"key", view()));
        assert!(!verify(b"wrong key", view()));
        let tampered: Vec<(&str, &str)> =
            view().map(|(name, value)| if name == "amount" { (name, "1.00") } else { (name, value) }).collect();
        assert!(!verify(b"key", tampered.iter().copied()));
        assert!(!verify(b"key", [("amount", "10.00")]), "no signature");
        assert!(!verify(b"key", [("amount", "10.00"), ("sign", "zz")]), "not hex");
    }
}
