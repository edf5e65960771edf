//! The path of a wrong field, added to an error on its way up through the readers, and how
//! values are worded in errors alike by every format.

use std::fmt::{self, Display};

use serde::de;

use crate::money::MAX_SAFE_INTEGER;

/// Separates the path from the reason inside an error message on its way up.
pub(super) const MARK: char = '\u{1}';

/// serde_json ends its messages with " at line L column C": no help to a caller with an object.
pub(super) fn without_position(message: &str) -> &str {
    const AT_LINE: &[u8] = b" at line ";
    let bytes = message.as_bytes();
    match bytes.windows(AT_LINE.len()).rposition(|window| window == AT_LINE) {
        Some(at) if bytes[at..].windows(8).any(|window| window == b" column ") => &message[..at],
        _ => message,
    }
}

pub(super) enum Segment<'a> {
    Key(&'a str),
    Index(usize),
}

/// Puts `segment` in front of the path an error carries (or starts its path).
#[inline(never)]
pub(super) fn within<E: de::Error>(segment: Segment<'_>, error: E) -> E {
    let message = error.to_string();
    let message = without_position(&message);
    let (path, reason) = message.split_once(MARK).unwrap_or(("", message));
    let joint = if path.is_empty() || path.starts_with('[') { "" } else { "." };
    match segment {
        Segment::Key(key) => E::custom(format_args!("{key}{joint}{path}{MARK}{reason}")),
        Segment::Index(index) => E::custom(format_args!("[{index}]{joint}{path}{MARK}{reason}")),
    }
}

/// A float where an object or a list belongs, worded the same by every format.
pub(super) fn wrong_float(value: f64, expected: &str) -> String {
    format!("invalid type: floating point{}, expected {expected}", Float(value, " `", "`"))
}

/// A float in an error message when it has a short decimal form (`1.5`, `0.25`), written with
/// integer arithmetic only: float formatting would double the engine's WebAssembly size, and
/// these messages must read the same natively and as WebAssembly. Other floats are left out.
pub(super) struct Float(pub(super) f64, pub(super) &'static str, pub(super) &'static str);

impl Display for Float {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Float(value, before, after) = *self;
        let mut scale = 1.0;
        for decimals in 0..=6u32 {
            let scaled = value * scale;
            if scaled.trunc() == scaled && scaled.abs() < MAX_SAFE_INTEGER as f64 {
                let scaled = scaled as i64;
                let unit = 10i64.pow(decimals);
                let sign = if scaled < 0 { "-" } else { "" };
                let (units, fraction) = (scaled.unsigned_abs() / unit as u64, scaled.unsigned_abs() % unit as u64);
                return match decimals {
                    0 => write!(f, "{before}{sign}{units}{after}"),
                    _ => write!(f, "{before}{sign}{units}.{fraction:0width$}{after}", width = decimals as usize),
                };
            }
            scale *= 10.0;
        }
        Ok(())
    }
}
