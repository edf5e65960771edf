//! Value-added tax on an invoice line (docs/compliance.md, "Invoices"). The shop's prices
//! include VAT: a line's tax is its amount × rate / (100 + rate), rounded half away from zero
//! to the cent, and its amount before tax is the rest — so the two always add up to the amount,
//! and a red-letter (negative) line is exactly the negative of the blue one.

use crate::Cents;

/// A line's amount split into its amount before tax and its tax.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VatSplit {
    pub net: Cents,
    pub tax: Cents,
}

/// `amount` (tax included) at `rate_percent` (0–100), split; `None` for a rate beyond 100 or
/// an amount too large.
pub fn vat_included(amount: Cents, rate_percent: u32) -> Option<VatSplit> {
    if rate_percent > 100 {
        return None;
    }
    let rate = i128::from(rate_percent);
    let numerator = amount.0.checked_mul(rate)?.checked_mul(2)?;
    let denominator = (100 + rate) * 2;
    // Half away from zero: (2n ± d) / 2d, truncated toward zero.
    let tax = if numerator >= 0 { (numerator + denominator / 2) / denominator } else { (numerator - denominator / 2) / denominator };
    Some(VatSplit { net: Cents(amount.0 - tax), tax: Cents(tax) })
}

/// The unit price before tax an invoice line prints: `net` over `units`, in ten-thousandths
/// of a yuan, rounded half away from zero; `None` for no units.
pub fn unit_price_before_tax(net: Cents, units: i128) -> Option<i128> {
    if units == 0 {
        return None;
    }
    let numerator = net.0.checked_mul(100)?.checked_mul(2)?;
    let denominator = units.checked_mul(2)?;
    let (numerator, denominator) = if denominator < 0 { (-numerator, -denominator) } else { (numerator, denominator) };
    Some(if numerator >= 0 { (numerator + denominator / 2) / denominator } else { (numerator - denominator / 2) / denominator })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tax_is_taken_out_of_the_amount_to_the_cent() {
        let split = |cents: i128, rate: u32| vat_included(Cents(cents), rate).map(|split| (split.net.0, split.tax.0));
        // 102.00 at 13 %: 11.7345… → 11.73 of tax.
        assert_eq!(split(10_200, 13), Some((9_027, 1_173)));
        // 100.00 at 9 % (中药饮片): 8.2568… → 8.26.
        assert_eq!(split(10_000, 9), Some((9_174, 826)));
        // Exactly half a cent rounds away from zero: 1.13 at 13 % is 0.13 of tax.
        assert_eq!(split(113, 13), Some((100, 13)));
        assert_eq!(split(-10_200, 13), Some((-9_027, -1_173)), "a red-letter line mirrors the blue one");
        assert_eq!(split(0, 13), Some((0, 0)));
        assert_eq!(split(5_000, 0), Some((5_000, 0)));
        assert_eq!(split(5_000, 101), None);
        assert_eq!(split(i128::MAX, 13), None);
    }

    #[test]
    fn the_unit_price_is_the_amount_before_tax_over_the_units() {
        // 90.27 over 12 is 7.5225 a unit.
        assert_eq!(unit_price_before_tax(Cents(9_027), 12), Some(75_225));
        // 100.00 over 3 is 33.3333….
        assert_eq!(unit_price_before_tax(Cents(10_000), 3), Some(333_333));
        assert_eq!(unit_price_before_tax(Cents(-1_504), -2), Some(75_200), "a red-letter line's price is positive");
        assert_eq!(unit_price_before_tax(Cents(1), 0), None);
    }
}
