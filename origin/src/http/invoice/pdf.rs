//! The invoice as a PDF: one page (A5 landscape), written by hand, its Chinese text in
//! STSong-Light, a standard CJK font every reader carries, so that no font is embedded.

use crate::domain::invoices::InvoiceKind;
use crate::money;

/// What an issued invoice shows.
pub(super) struct Printed {
    pub(super) invoice_no: String,
    pub(super) issued_on: String,
    pub(super) kind: InvoiceKind,
    pub(super) title: String,
    pub(super) tax_no: String,
    pub(super) registered: String,
    pub(super) bank: String,
    pub(super) order_no: String,
    pub(super) lines: Vec<(String, i64, i64)>,
    pub(super) amount: i64,
    /// The seller: the shop's seller entity, its tax number (the 统一社会信用代码), address and
    /// hotline (`settings`, `crate::domain::shop`).
    pub(super) seller: String,
    pub(super) seller_tax_no: String,
    pub(super) seller_contact: String,
}

/// Text in the PDF's Chinese font (STSong-Light, one of the standard CJK fonts every reader
/// carries, UCS-2 encoded): a hex string.
fn ucs2(text: &str) -> String {
    let mut hex = String::with_capacity(text.len() * 4 + 2);
    hex.push('<');
    for unit in text.encode_utf16() {
        hex.push_str(&format!("{unit:04X}"));
    }
    hex.push('>');
    hex
}

/// The invoice as a one-page PDF (A5 landscape).
pub(super) fn render(invoice: &Printed) -> Vec<u8> {
    let mut lines: Vec<(f32, f32, f32, String)> = vec![
        (210.0, 380.0, 18.0, format!("{}（电子）", invoice.kind.name())),
        (40.0, 350.0, 10.0, format!("发票号码：{}", invoice.invoice_no)),
        (300.0, 350.0, 10.0, format!("开票日期：{}", invoice.issued_on)),
        (40.0, 325.0, 10.0, format!("购买方：{}", invoice.title)),
        (40.0, 310.0, 10.0, format!("纳税人识别号：{}", invoice.tax_no)),
    ];
    let mut y = 295.0;
    if invoice.kind == InvoiceKind::Special {
        lines.push((40.0, y, 10.0, format!("地址、电话：{}", invoice.registered)));
        lines.push((40.0, y - 15.0, 10.0, format!("开户行及账号：{}", invoice.bank)));
        y -= 30.0;
    }
    lines.push((40.0, y, 10.0, format!("订单号：{}", invoice.order_no)));
    y -= 22.0;
    lines.push((40.0, y, 10.0, "货物或应税劳务名称".into()));
    lines.push((380.0, y, 10.0, "数量".into()));
    lines.push((460.0, y, 10.0, "金额（元）".into()));
    for (name, number, paid) in invoice.lines.iter().take(12) {
        y -= 15.0;
        lines.push((40.0, y, 9.0, name.chars().take(30).collect()));
        lines.push((380.0, y, 9.0, number.to_string()));
        lines.push((460.0, y, 9.0, money::text(*paid)));
    }
    if invoice.lines.len() > 12 {
        y -= 15.0;
        lines.push((40.0, y, 9.0, format!("……共{}种商品，详见订单", invoice.lines.len())));
    }
    lines.push((40.0, 60.0, 11.0, format!("价税合计（小写）：¥{}", money::text(invoice.amount))));
    lines.push((40.0, 44.0, 10.0, format!("销售方：{}", invoice.seller)));
    lines.push((330.0, 44.0, 10.0, format!("纳税人识别号：{}", invoice.seller_tax_no)));
    lines.push((40.0, 28.0, 9.0, format!("地址、电话：{}", invoice.seller_contact)));
    let mut content = String::new();
    for (x, y, size, text) in &lines {
        content.push_str(&format!("BT /F1 {size} Tf {x} {y} Td {} Tj ET\n", ucs2(text)));
    }
    content.push_str("0.5 w 30 70 m 565 70 l S\n");
    let objects = [
        "<< /Type /Catalog /Pages 2 0 R >>".to_owned(),
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_owned(),
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 420] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>".to_owned(),
        format!("<< /Length {} >>\nstream\n{content}endstream", content.len()),
        "<< /Type /Font /Subtype /Type0 /BaseFont /STSong-Light /Encoding /UniGB-UCS2-H /DescendantFonts [6 0 R] >>".to_owned(),
        "<< /Type /Font /Subtype /CIDFontType0 /BaseFont /STSong-Light /CIDSystemInfo << /Registry (Adobe) /Ordering (GB1) /Supplement 2 >> \
         /FontDescriptor 7 0 R >>"
            .to_owned(),
        "<< /Type /FontDescriptor /FontName /STSong-Light /Flags 6 /FontBBox [-25 -254 1000 880] /ItalicAngle 0 /Ascent 880 \
         /Descent -120 /CapHeight 880 /StemV 93 >>"
            .to_owned(),
    ];
    let mut pdf = b"%PDF-1.4\n".to_vec();
    let mut offsets = Vec::with_capacity(objects.len());
    for (number, object) in objects.iter().enumerate() {
        offsets.push(pdf.len());
        pdf.extend(format!("{} 0 obj\n{object}\nendobj\n", number + 1).as_bytes());
    }
    let xref = pdf.len();
    pdf.extend(format!("xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1).as_bytes());
    for offset in offsets {
        pdf.extend(format!("{offset:010} 00000 n \n").as_bytes());
    }
    pdf.extend(format!("trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n", objects.len() + 1).as_bytes());
    pdf
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pdf_is_well_formed_with_its_text_in_the_chinese_font() {
        let printed = Printed {
            invoice_no: "2026112400000001".into(),
            issued_on: "2026年11月24日".into(),
            kind: InvoiceKind::Special,
            title: "杭州仁心大药房".into(),
            tax_no: "91330106MA2B3C4D5E".into(),
            registered: "杭州 0571".into(),
            bank: "工商银行 6222".into(),
            order_no: "2026112400000001".into(),
            lines: vec![("阿莫西林胶囊".into(), 2, 1_000_000)],
            amount: 1_000_000,
            seller: "杭州瑞禾医药有限公司".into(),
            seller_tax_no: "91330110MA2H3K7R5X".into(),
            seller_contact: "浙江省杭州市余杭区 400-816-3368".into(),
        };
        let pdf = render(&printed);
        let text = String::from_utf8_lossy(&pdf);
        assert!(text.starts_with("%PDF-1.4") && text.trim_end().ends_with("%%EOF"));
        assert!(text.contains(&ucs2("价税合计（小写）：¥100.00")));
        assert!(text.contains(&ucs2("开户行及账号：工商银行 6222")), "a 专票 carries the bank details");
        assert!(text.contains(&ucs2("销售方：杭州瑞禾医药有限公司")) && text.contains(&ucs2("纳税人识别号：91330110MA2H3K7R5X")));
        // The cross-reference table points at each object.
        let xref = text.rfind("startxref\n").map(|at| text[at + 10..].lines().next().unwrap().parse::<usize>().unwrap()).unwrap();
        assert!(text[xref..].starts_with("xref"));
        for number in 1..=7 {
            let line = text[xref..].lines().nth(2 + number).unwrap();
            let offset: usize = line[..10].parse().unwrap();
            assert!(text[offset..].starts_with(&format!("{number} 0 obj")), "object {number}");
        }
        assert_eq!(ucs2("发票"), "<53D17968>");
    }
}
