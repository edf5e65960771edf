//! Money as stored (an exact integer count of ten-thousandths of a yuan) and as written in
//! answers (engine `Money`, a decimal string with at least two decimals).

use engine::Money;
use rust_decimal::Decimal;

/// A stored amount as the engine's money: `123000` → `12.30`.
pub fn from_stored(stored: i64) -> Money {
    Money::from_decimal(Decimal::new(stored.max(0), 4)).unwrap_or(Money::ZERO)
}

/// Money as stored, when it has at most four decimals and fits.
pub fn to_stored(money: Money) -> Option<i64> {
    let value = money.decimal();
    if value.scale() > 4 {
        return None;
    }
    let units = value.mantissa().checked_mul(10i128.pow(4 - value.scale()))?;
    i64::try_from(units).ok()
}

/// Decimal text (`"12.30"`) as stored.
pub fn parse_stored(text: &str) -> Option<i64> {
    to_stored(Money::parse(text).ok()?)
}

/// A stored amount as text with at least two decimals: `123000` → `"12.30"`.
pub fn text(stored: i64) -> String {
    from_stored(stored).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips() {
        assert_eq!(parse_stored("12.30"), Some(123_000));
        assert_eq!(parse_stored("11.609"), Some(116_090));
        assert_eq!(parse_stored("0.00001"), None);
        assert_eq!(text(123_000), "12.30");
        assert_eq!(text(116_090), "11.609");
        assert_eq!(text(0), "0.00");
    }
}
