//! The invoice as a PDF, laid out by the `documents` crate (typst, with an embedded subset of
//! Noto Sans CJK SC): its own number and date, buyer and seller with their tax numbers, per
//! line the specification, unit, units, unit price and amount before tax, rate and tax, and the
//! totals in figures and in words; a red-letter one names the blue invoice it reverses.

use serde::Serialize;

use crate::domain::invoices::{InvoiceKind, InvoiceLine};
use crate::money;

/// What an issued invoice shows, as the template reads it.
#[derive(Serialize)]
pub(super) struct Printed {
    title: String,
    red: bool,
    invoice_no: String,
    original_no: String,
    issued_on: String,
    order_no: String,
    issuer: &'static str,
    buyer: Party,
    seller: Party,
    lines: Vec<PrintedLine>,
    net: String,
    tax: String,
    total: String,
    total_words: String,
}

#[derive(Serialize)]
pub(super) struct Party {
    pub(super) name: String,
    pub(super) tax_no: String,
    /// Address, phone, bank and account, as far as known.
    pub(super) extra: String,
}

#[derive(Serialize)]
struct PrintedLine {
    name: String,
    ypgg: String,
    bzdw: String,
    number: String,
    price: String,
    amount: String,
    rate: String,
    tax: String,
}

/// The facts of an issued invoice, blue or red.
pub(super) struct Issued {
    pub(super) kind: InvoiceKind,
    pub(super) invoice_no: String,
    /// The blue invoice's number, for a red-letter one.
    pub(super) original_no: Option<String>,
    pub(super) issued_at: i64,
    pub(super) order_no: String,
    pub(super) buyer: Party,
    pub(super) seller: Party,
}

/// The template's data for `invoice` with `lines`.
pub(super) fn printed(invoice: Issued, lines: &[InvoiceLine]) -> Printed {
    let (year, month, day) = crate::civil_date(invoice.issued_at, 8 * 3600);
    let net: i64 = lines.iter().map(|line| line.net).sum();
    let tax: i64 = lines.iter().map(|line| line.tax).sum();
    let total = money::text(net + tax);
    Printed {
        title: format!("电子发票（{}）", if invoice.kind == InvoiceKind::Special { "增值税专用发票" } else { "普通发票" }),
        red: invoice.original_no.is_some(),
        invoice_no: invoice.invoice_no,
        original_no: invoice.original_no.unwrap_or_default(),
        issued_on: format!("{year:04}年{month:02}月{day:02}日"),
        order_no: invoice.order_no,
        issuer: "财务",
        buyer: invoice.buyer,
        seller: invoice.seller,
        lines: lines
            .iter()
            .map(|line| PrintedLine {
                name: line.name.clone(),
                ypgg: line.ypgg.clone(),
                bzdw: line.bzdw.clone(),
                number: line.number.to_string(),
                price: unit_price(line.price),
                amount: money::text(line.net),
                rate: format!("{}%", line.rate),
                tax: money::text(line.tax),
            })
            .collect(),
        net: money::text(net),
        tax: money::text(tax),
        total_words: documents::capitalised(&total).unwrap_or_default(),
        total,
    }
}

/// A unit price before tax, to the ten-thousandth, its trailing zeros beyond the cent dropped.
fn unit_price(stored: i64) -> String {
    let whole = format!("{}.{:04}", stored / 10_000, stored % 10_000);
    whole.strip_suffix("00").map_or_else(|| whole.clone(), str::to_owned)
}

#[cfg(test)]
mod tests {
    #[test]
    fn unit_prices_keep_their_ten_thousandths() {
        assert_eq!(super::unit_price(75_225), "7.5225");
        assert_eq!(super::unit_price(75_200), "7.52");
        assert_eq!(super::unit_price(333_333), "33.3333");
        assert_eq!(super::unit_price(0), "0.00");
    }
}
