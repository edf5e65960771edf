//! Exact money: reading amounts from JSON strings and numbers, arithmetic that is exact or
//! fails (never rounds silently), `floor2` to whole cents, and writing amounts back as text.
//!
//! Two types carry money:
//! - [`Money`]: an amount as it came in (unit prices, ladder prices, tier amounts), normalised so
//!   that `12.30`, `"12.3"` and `"12.300"` are the same value, written back with at least two
//!   decimals (`"12.30"`, `"11.609"`);
//! - [`Cents`]: a computed amount, already cut to two decimals by `floor2`, written `"1234.50"`.
//!
//! Computation goes through [`Exact`], an `i128` mantissa with a decimal scale, with checked
//! operations: the engine answers an exact result or an error, never a rounded one.

use std::fmt::{self, Write};
use std::str::FromStr;

use rust_decimal::Decimal;
use serde::{Serialize, Serializer};

/// Largest integer a JavaScript number holds exactly (2^53 - 1).
pub const MAX_SAFE_INTEGER: i64 = 9_007_199_254_740_991;

const POW10: [i128; 39] = {
    let mut table = [1i128; 39];
    let mut i = 1;
    while i < 39 {
        table[i] = table[i - 1] * 10;
        i += 1;
    }
    table
};

/// Why a money value was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoneyError {
    /// Not decimal text, e.g. `"abc"`, `"1e5"` as a string, `""`.
    NotADecimal(String),
    /// Below zero.
    Negative,
    /// `NaN` or an infinity.
    NotFinite,
    /// More significant digits, or a larger value, than a 96-bit decimal holds.
    OutOfRange,
}

impl fmt::Display for MoneyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoneyError::NotADecimal(text) => write!(f, "not a decimal: {}", Quoted(text)),
            MoneyError::Negative => f.write_str("must not be negative"),
            MoneyError::NotFinite => f.write_str("not a finite number"),
            MoneyError::OutOfRange => f.write_str("more than 28 significant digits or too large"),
        }
    }
}

/// Text in double quotes, with quotes, backslashes and control characters escaped.
pub(crate) struct Quoted<'a>(pub &'a str);

impl fmt::Display for Quoted<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_char('"')?;
        for ch in self.0.chars() {
            match ch {
                '"' => f.write_str("\\\"")?,
                '\\' => f.write_str("\\\\")?,
                '\n' => f.write_str("\\n")?,
                '\t' => f.write_str("\\t")?,
                '\r' => f.write_str("\\r")?,
                ch if (ch as u32) < 0x20 || (0x7f..=0x9f).contains(&(ch as u32)) => write!(f, "\\u{{{:x}}}", ch as u32)?,
                ch => f.write_char(ch)?,
            }
        }
        f.write_char('"')
    }
}

/// A non-negative amount as given in the input, normalised (no trailing zeros).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Money(Decimal);

impl Money {
    pub const ZERO: Money = Money(Decimal::ZERO);
    pub const ONE: Money = Money(Decimal::ONE);

    /// Reads decimal text: digits with at most one decimal point, nothing else.
    pub fn parse(text: &str) -> Result<Money, MoneyError> {
        let not_decimal = || MoneyError::NotADecimal(text.to_owned());
        let bytes = text.as_bytes();
        let (negative, digits) = match bytes.split_first() {
            Some((b'-', rest)) => (true, rest),
            _ => (false, bytes),
        };
        let mut point = None;
        for (at, byte) in digits.iter().enumerate() {
            match byte {
                b'0'..=b'9' => {}
                b'.' if point.is_none() => point = Some(at),
                _ => return Err(not_decimal()),
            }
        }
        let (units, fraction) = match point {
            Some(at) => (&digits[..at], &digits[at + 1..]),
            None => (digits, &digits[digits.len()..]),
        };
        if units.is_empty() || (point.is_some() && fraction.is_empty()) {
            return Err(not_decimal());
        }
        let zeros = fraction.iter().rev().take_while(|byte| **byte == b'0').count();
        let fraction = &fraction[..fraction.len() - zeros];
        if fraction.len() > 28 {
            return Err(MoneyError::OutOfRange);
        }
        let mantissa = digits_value(units, fraction).ok_or(MoneyError::OutOfRange)?;
        if negative && mantissa != 0 {
            return Err(MoneyError::Negative);
        }
        Money::from_decimal(Decimal::from_i128_with_scale(mantissa as i128, fraction.len() as u32))
    }

    /// Reads a JSON/JavaScript number through its shortest round-trip text, the text
    /// JavaScript's `String(x)` gives (written out without an exponent), so that `0.1` is
    /// exactly one tenth.
    pub fn from_f64(value: f64) -> Result<Money, MoneyError> {
        if !value.is_finite() {
            return Err(MoneyError::NotFinite);
        }
        if value < 0.0 {
            return Err(MoneyError::Negative);
        }
        Money::from_number_text(&js_number_text(value))
    }

    /// Reads the text JavaScript writes for a number: decimal, or with an exponent (`1e-7`,
    /// `1.5e+21`).
    fn from_number_text(text: &str) -> Result<Money, MoneyError> {
        let (digits, exponent) = match text.split_once('e') {
            Some((digits, exponent)) => {
                let exponent: i32 = exponent.trim_start_matches('+').parse().map_err(|_| MoneyError::OutOfRange)?;
                (digits, exponent)
            }
            None => (text, 0),
        };
        let value = Money::parse(digits).map_err(|_| MoneyError::OutOfRange)?.0;
        let (mantissa, scale) = (value.mantissa(), value.scale() as i32 - exponent);
        let (mantissa, scale) = if scale < 0 {
            let factor = POW10.get(scale.unsigned_abs() as usize).ok_or(MoneyError::OutOfRange)?;
            (mantissa.checked_mul(*factor).ok_or(MoneyError::OutOfRange)?, 0)
        } else {
            (mantissa, scale as u32)
        };
        if scale > 28 || mantissa >= POW10[28] {
            return Err(MoneyError::OutOfRange);
        }
        Money::from_decimal(Decimal::from_i128_with_scale(mantissa, scale))
    }

    /// Reads an integer JSON number. Above 2^53 it goes through `f64`, as JavaScript would.
    pub fn from_integer(value: i128) -> Result<Money, MoneyError> {
        if value < 0 {
            return Err(MoneyError::Negative);
        }
        if value > MAX_SAFE_INTEGER as i128 {
            return Money::from_f64(value as f64);
        }
        Money::from_decimal(Decimal::from_i128_with_scale(value, 0))
    }

    pub fn from_decimal(value: Decimal) -> Result<Money, MoneyError> {
        if value.is_sign_negative() && !value.is_zero() {
            return Err(MoneyError::Negative);
        }
        let mut value = value.normalize();
        if value.mantissa().unsigned_abs() >= POW10[28] as u128 {
            return Err(MoneyError::OutOfRange);
        }
        value.set_sign_positive(true);
        Ok(Money(value))
    }

    pub fn decimal(self) -> Decimal {
        self.0
    }

    pub fn is_zero(self) -> bool {
        self.0.is_zero()
    }

    /// `floor2` of the amount (`None` only beyond exact arithmetic).
    pub fn floor_cents(self) -> Option<Cents> {
        self.exact().floor_cents()
    }

    pub(crate) fn exact(self) -> Exact {
        Exact { mantissa: self.0.mantissa(), scale: self.0.scale() }
    }

    /// `floor2(self × quantity)` in cents: the line-amount rule.
    pub(crate) fn times_floor_cents(self, quantity: u32) -> Option<Cents> {
        let scale = self.0.scale() as usize;
        // In 64 bits when it fits (nearly always): a price below 2^63 / 2^31 minor units.
        if let Ok(mantissa) = u64::try_from(self.0.mantissa())
            && let Some(product) = mantissa.checked_mul(u64::from(quantity))
        {
            let cents = if scale <= 2 {
                product.checked_mul(POW10[2 - scale] as u64)
            } else {
                u64::try_from(POW10[scale - 2]).ok().map(|unit| product / unit)
            };
            if let Some(cents) = cents {
                return Some(Cents(cents as i128));
            }
        }
        let product = self.0.mantissa().checked_mul(quantity as i128)?;
        Exact { mantissa: product, scale: self.0.scale() }.floor_cents()
    }
}

/// `String(value)` as JavaScript writes it — in WebAssembly, by asking JavaScript, which keeps
/// float formatting out of the engine's download.
#[cfg(all(feature = "wasm", target_arch = "wasm32"))]
fn js_number_text(value: f64) -> String {
    String::from(js_sys::Number::from(value).to_string_with_radix(10).unwrap_or_else(|_| "NaN".into()))
}

/// `String(value)` as JavaScript writes it: the shortest digits that read back as `value`,
/// with an exponent below 1e-6 and from 1e21.
#[cfg(not(all(feature = "wasm", target_arch = "wasm32")))]
fn js_number_text(value: f64) -> String {
    if value != 0.0 && !(1e-6..1e21).contains(&value.abs()) {
        let text = format!("{value:e}");
        match text.split_once('e') {
            Some((digits, exponent)) if !exponent.starts_with('-') => format!("{digits}e+{exponent}"),
            _ => text,
        }
    } else {
        format!("{value}")
    }
}

impl FromStr for Money {
    type Err = MoneyError;
    fn from_str(text: &str) -> Result<Money, MoneyError> {
        Money::parse(text)
    }
}

impl Money {
    /// Appends the amount with at least two decimals (`12.30`, `0.00`, `11.609`) to `out`,
    /// without the formatting machinery (the quote of a large cart writes thousands).
    pub fn write_to(self, out: &mut Vec<u8>) {
        let scale = self.0.scale();
        let mantissa = self.0.mantissa().unsigned_abs();
        if scale < 2 {
            let factor = if scale == 0 { 100 } else { 10 };
            let cents =
                u64::try_from(mantissa).ok().and_then(|small| small.checked_mul(factor)).map_or(mantissa * u128::from(factor), u128::from);
            write_fixed(out, cents, 2);
        } else {
            write_fixed(out, mantissa, scale as usize);
        }
    }
}

impl Money {
    /// Appends the amount as given, without trailing zeros (`500`, `99.5`): how a title such
    /// as 满500减50 writes it.
    pub(crate) fn write_plain(self, out: &mut Vec<u8>) {
        let scale = self.0.scale() as usize;
        let mantissa = self.0.mantissa().unsigned_abs();
        if scale == 0 {
            push_digits(out, mantissa, 1);
        } else {
            write_fixed(out, mantissa, scale);
        }
    }
}

/// At least two decimals: `12.30`, `0.00`, `11.609`.
impl fmt::Display for Money {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut text = Vec::with_capacity(32);
        self.write_to(&mut text);
        f.write_str(std::str::from_utf8(&text).map_err(|_| fmt::Error)?)
    }
}

/// The number the digits of `units` then `fraction` spell, if below 10^28 (28 significant
/// digits). 64-bit arithmetic for the usual short amounts.
fn digits_value(units: &[u8], fraction: &[u8]) -> Option<u128> {
    let mut digits = units.iter().chain(fraction).map(|byte| u64::from(byte - b'0'));
    let mut small: u64 = 0;
    for digit in digits.by_ref() {
        small = small * 10 + digit;
        if small >= 1 << 59 {
            break;
        }
    }
    let mut value = u128::from(small);
    for digit in digits {
        value = value * 10 + u128::from(digit);
        if value >= POW10[28] as u128 {
            return None;
        }
    }
    (value < POW10[28] as u128).then_some(value)
}

/// Appends `mantissa / 10^scale` with exactly `scale` decimals.
fn write_fixed(out: &mut Vec<u8>, mantissa: u128, scale: usize) {
    // 64-bit division where it fits: 128-bit division is a slow library call (and in
    // WebAssembly, which has no 128-bit integers, slower still).
    let (units, fraction) = match (u64::try_from(mantissa), u64::try_from(POW10[scale])) {
        (Ok(mantissa), Ok(unit)) => ((mantissa / unit) as u128, (mantissa % unit) as u128),
        _ => {
            let unit = POW10[scale] as u128;
            (mantissa / unit, mantissa % unit)
        }
    };
    push_digits(out, units, 1);
    out.push(b'.');
    push_digits(out, fraction, scale);
}

/// Appends `value` in decimal, left-padded with zeros to `width` digits.
fn push_digits(out: &mut Vec<u8>, value: u128, width: usize) {
    let mut digits = [b'0'; 40];
    let mut at = digits.len();
    if let Ok(mut small) = u64::try_from(value) {
        while small > 0 {
            at -= 1;
            digits[at] = b'0' + (small % 10) as u8;
            small /= 10;
        }
    } else {
        let mut big = value;
        while big > 0 {
            at -= 1;
            digits[at] = b'0' + (big % 10) as u8;
            big /= 10;
        }
    }
    at = at.min(digits.len() - width);
    out.extend_from_slice(&digits[at..]);
}

impl Serialize for Money {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// A computed amount in whole cents (already cut by `floor2`), written with two decimals.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Cents(pub i128);

impl Cents {
    pub const ZERO: Cents = Cents(0);

    pub fn checked_add(self, other: Cents) -> Option<Cents> {
        self.0.checked_add(other.0).map(Cents)
    }

    pub fn checked_sub(self, other: Cents) -> Option<Cents> {
        self.0.checked_sub(other.0).map(Cents)
    }

    /// The amount as a decimal with two decimals (`None` beyond a 96-bit mantissa).
    pub fn to_decimal(self) -> Option<Decimal> {
        Decimal::try_from_i128_with_scale(self.0, 2).ok()
    }

    pub(crate) fn exact(self) -> Exact {
        Exact { mantissa: self.0, scale: 2 }
    }

    /// Whether this computed amount is exactly the given one (`20.00` equals `20`).
    pub fn exact_eq(self, money: Money) -> bool {
        self.exact().checked_sub(money.exact()).is_some_and(|difference| difference.is_zero())
    }
}

impl Cents {
    /// Appends the amount with two decimals (`1234.50`) to `out`.
    pub fn write_to(self, out: &mut Vec<u8>) {
        if self.0 < 0 {
            out.push(b'-');
        }
        write_fixed(out, self.0.unsigned_abs(), 2);
    }
}

impl fmt::Display for Cents {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut text = Vec::with_capacity(44);
        self.write_to(&mut text);
        f.write_str(std::str::from_utf8(&text).map_err(|_| fmt::Error)?)
    }
}

impl Serialize for Cents {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// An exact decimal `mantissa / 10^scale` with checked arithmetic, for sums and differences of
/// input amounts whose scales differ (where `Decimal` would round to 28 digits instead).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Exact {
    mantissa: i128,
    scale: u32,
}

impl Exact {
    fn rescaled(self, scale: u32) -> Option<i128> {
        let factor = *POW10.get((scale - self.scale) as usize)?;
        self.mantissa.checked_mul(factor)
    }

    fn aligned(self, other: Exact) -> Option<(i128, i128, u32)> {
        let scale = self.scale.max(other.scale);
        Some((self.rescaled(scale)?, other.rescaled(scale)?, scale))
    }

    #[cfg(test)]
    pub fn checked_add(self, other: Exact) -> Option<Exact> {
        let (a, b, scale) = self.aligned(other)?;
        Some(Exact { mantissa: a.checked_add(b)?, scale })
    }

    // In WebAssembly, which has no 128-bit integers, one copy of each of these three: inlined,
    // their arithmetic would be copied into every rule that uses them.
    #[cfg_attr(target_arch = "wasm32", inline(never))]
    pub fn checked_sub(self, other: Exact) -> Option<Exact> {
        let (a, b, scale) = self.aligned(other)?;
        Some(Exact { mantissa: a.checked_sub(b)?, scale })
    }

    #[cfg_attr(target_arch = "wasm32", inline(never))]
    pub fn checked_mul(self, other: Exact) -> Option<Exact> {
        let scale = self.scale + other.scale;
        (scale < POW10.len() as u32).then_some(())?;
        Some(Exact { mantissa: self.mantissa.checked_mul(other.mantissa)?, scale })
    }

    pub fn checked_mul_int(self, factor: u32) -> Option<Exact> {
        Some(Exact { mantissa: self.mantissa.checked_mul(factor as i128)?, scale: self.scale })
    }

    pub fn is_positive(self) -> bool {
        self.mantissa > 0
    }

    pub fn is_zero(self) -> bool {
        self.mantissa == 0
    }

    /// `floor2`: rounds toward negative infinity at two decimals.
    #[cfg_attr(target_arch = "wasm32", inline(never))]
    pub fn floor_cents(self) -> Option<Cents> {
        if self.scale <= 2 {
            self.mantissa.checked_mul(POW10[(2 - self.scale) as usize]).map(Cents)
        } else {
            let divisor = *POW10.get((self.scale - 2) as usize)?;
            Some(Cents(self.mantissa.div_euclid(divisor)))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn money(text: &str) -> Money {
        Money::parse(text).unwrap()
    }

    #[test]
    fn parses_and_normalises_text() {
        assert_eq!(money("12.30"), money("12.3"));
        assert_eq!(money("12.300").to_string(), "12.30");
        assert_eq!(money("11.609").to_string(), "11.609");
        assert_eq!(money("0").to_string(), "0.00");
        assert_eq!(money("-0").to_string(), "0.00");
        assert_eq!(money("007.5").to_string(), "7.50");
    }

    #[test]
    fn refuses_bad_text() {
        for text in ["", "abc", "1e5", "1.2.3", ".5", "5.", " 1", "1_000", "+1", "NaN"] {
            assert_eq!(Money::parse(text), Err(MoneyError::NotADecimal(text.into())), "{text}");
        }
        let quoted = MoneyError::NotADecimal("a\"b\\c\n\u{0}¥".into()).to_string();
        assert_eq!(quoted, r#"not a decimal: "a\"b\\c\n\u{0}¥""#);
        assert_eq!(Money::parse("-0.01"), Err(MoneyError::Negative));
        assert_eq!(Money::parse("1.00000000000000000000000000001"), Err(MoneyError::OutOfRange));
        assert_eq!(Money::parse("99999999999999999999999999999999"), Err(MoneyError::OutOfRange));
        assert_eq!(Money::parse("1.234567890123456789012345678"), Ok(money("1.234567890123456789012345678")));
        assert_eq!(Money::parse("1.2345678901234567890123456789"), Err(MoneyError::OutOfRange), "29 digits");
        assert_eq!(Money::parse("12345678901234567890123456789"), Err(MoneyError::OutOfRange), "29 digits");
    }

    #[test]
    fn reads_numbers_through_their_shortest_text() {
        assert_eq!(Money::from_f64(0.1).unwrap(), money("0.1"));
        assert_eq!(Money::from_f64(1e-7).unwrap(), money("0.0000001"));
        assert_eq!(Money::from_f64(12.30).unwrap(), money("12.3"));
        assert_eq!(Money::from_f64(1e21).unwrap(), money("1000000000000000000000"));
        assert_eq!(Money::from_f64(-0.0).unwrap(), Money::ZERO);
        assert_eq!(Money::from_f64(f64::NAN), Err(MoneyError::NotFinite));
        assert_eq!(Money::from_f64(-1.5), Err(MoneyError::Negative));
        assert_eq!(Money::from_f64(1e300), Err(MoneyError::OutOfRange));
        assert_eq!(Money::from_f64(5e-324), Err(MoneyError::OutOfRange));
        assert_eq!(js_number_text(1e-7), "1e-7");
        assert_eq!(js_number_text(0.000001), "0.000001");
        assert_eq!(js_number_text(1.5e21), "1.5e+21");
        assert_eq!(js_number_text(123.456), "123.456");
        assert_eq!(Money::from_f64(1.5e-7).unwrap(), money("0.00000015"));
        assert_eq!(Money::from_f64(1.5e21).unwrap(), money("1500000000000000000000"));
        // 2^53 + 1 is not a JavaScript number: it reads as JavaScript would print it.
        assert_eq!(Money::from_integer(12345678901234567890).unwrap(), money("12345678901234567000"));
    }

    #[test]
    fn floor2_rounds_toward_negative_infinity() {
        assert_eq!(money("0.07").times_floor_cents(3), Some(Cents(21)));
        assert_eq!(money("19.999").times_floor_cents(7), Some(Cents(13999)));
        assert_eq!(money("1.005").times_floor_cents(1), Some(Cents(100)));
        let negative = Exact { mantissa: -1005, scale: 3 };
        assert_eq!(negative.floor_cents(), Some(Cents(-101)));
    }

    #[test]
    fn exact_arithmetic_does_not_round() {
        let big = money("100000000000000000000").exact();
        let tiny = money("0.0000000000000000000000000001").exact();
        assert!(big.checked_sub(tiny).is_none(), "needs 48 digits: refused, not rounded");
        let a = money("0.005").exact();
        assert_eq!(a.checked_add(a).unwrap().floor_cents(), Some(Cents(1)));
        assert_eq!(Cents(123450).to_string(), "1234.50");
        assert_eq!(Cents(-5).to_string(), "-0.05");
        assert_eq!(Cents(7).to_string(), "0.07");
        assert_eq!(Cents(i128::MAX).to_string(), "1701411834604692317316873037158841057.27");
        assert_eq!(money("0.0000001").to_string(), "0.0000001");
        assert_eq!(money("1234567890123456789012345.678").to_string(), "1234567890123456789012345.678");
        assert_eq!(money("100").to_string(), "100.00");
        assert_eq!(money("9999999999999999999999999999").to_string(), "9999999999999999999999999999.00");
        assert_eq!(money("999999999999999999.9").to_string(), "999999999999999999.90");
    }
}
