//! Money as stored (an exact integer count of ten-thousandths of a yuan, [`Stored`]) and as
//! written in answers (engine `Money`, a decimal string with at least two decimals).

use engine::Money;
use rust_decimal::Decimal;

/// An amount as stored: ten-thousandths of a yuan, read from a row and bound to a query as the
/// integer itself. Money is never negative: reading a negative one as the engine's money is a
/// fault ([`Stored::money`]), never a zero.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, sqlx::Type)]
#[sqlx(transparent)]
pub struct Stored(pub i64);

impl Stored {
    /// The engine's money: `123000` → `12.30`; an error for a negative amount.
    pub fn money(self) -> anyhow::Result<Money> {
        Money::from_decimal(Decimal::new(self.0, 4)).map_err(|error| anyhow::anyhow!("stored amount {}: {error}", self.0))
    }

    /// The integer stored.
    pub fn units(self) -> i64 {
        self.0
    }

    /// Money as stored, when it has at most four decimals and fits.
    pub fn from_money(money: Money) -> Option<Stored> {
        let value = money.decimal();
        if value.scale() > 4 {
            return None;
        }
        let units = value.mantissa().checked_mul(10i128.pow(4 - value.scale()))?;
        i64::try_from(units).ok().map(Stored)
    }

    /// Decimal text (`"12.30"`) as stored.
    pub fn parse(text: &str) -> Option<Stored> {
        Stored::from_money(Money::parse(text).ok()?)
    }
}

impl From<i64> for Stored {
    fn from(units: i64) -> Stored {
        Stored(units)
    }
}

impl From<Stored> for i64 {
    fn from(stored: Stored) -> i64 {
        stored.0
    }
}

/// A stored amount as the engine's money: `123000` → `12.30`; an error for a negative amount.
pub fn from_stored(stored: i64) -> anyhow::Result<Money> {
    Stored(stored).money()
}

/// Money as stored, when it has at most four decimals and fits.
pub fn to_stored(money: Money) -> Option<i64> {
    Stored::from_money(money).map(Stored::units)
}

/// Decimal text (`"12.30"`) as stored.
pub fn parse_stored(text: &str) -> Option<i64> {
    Stored::parse(text).map(Stored::units)
}

/// A stored amount as text with at least two decimals: `123000` → `"12.30"`. A negative amount
/// (which no column holds) is written with its sign, `-12.30`, not as zero.
pub fn text(stored: impl Into<Stored>) -> String {
    let stored: i64 = stored.into().0;
    // Four decimals of an i64 fit a Decimal and Money (28 digits) whatever the value.
    let money = Money::from_decimal(Decimal::from_i128_with_scale(i128::from(stored).abs(), 4)).unwrap_or(Money::ZERO);
    if stored < 0 { format!("-{money}") } else { money.to_string() }
}

/// A stored amount as the shop writes a round amount in a title: `3000000` → `"300"`,
/// `125000` → `"12.5"`.
pub fn yuan(stored: i64) -> String {
    Decimal::new(stored, 4).normalize().to_string()
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
        assert_eq!(Stored(123_000).money().unwrap().to_string(), "12.30");
        assert_eq!(Stored::parse("12.3"), Some(Stored(123_000)));
    }

    #[test]
    fn a_negative_amount_is_refused_or_shown_as_it_is_never_zero() {
        assert!(Stored(-1).money().is_err());
        assert!(from_stored(-123_000).is_err());
        assert_eq!(text(-123_000), "-12.30");
        assert_eq!(text(i64::MIN), "-922337203685477.5808");
        assert_eq!(text(i64::MAX), "922337203685477.5807");
    }
}
