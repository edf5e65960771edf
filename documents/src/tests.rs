//! The documents laid out for real (the fonts of `fonts-noto-cjk`), read back with lopdf.

use serde_json::{Value, json};

use super::{Printer, Template};

fn note(lines: usize) -> Value {
    let line = |index: usize| {
        json!({
            "name": format!("阿莫西林胶囊{index}"), "ypgg": "0.25g*24粒", "sccj": "华北制药股份有限公司",
            "pzwh": "国药准字H13023964", "dosage_form": "胶囊剂", "bzdw": "盒", "lot_no": format!("2503{index:02}"),
            "produced_on": "2025-03-01", "expires_on": "2027-02-28", "number": 12, "price": "8.50", "amount": "102.00",
        })
    };
    json!({
        "seller": { "company": "杭州瑞禾医药有限公司", "address": "杭州市余杭区文一西路1号", "phone": "400-816-3368", "drug_licence": "浙AA5710286" },
        "buyer": { "company": "仁心大药房", "address": "浙江省杭州市西湖区文三路90号 张三 13800000000" },
        "note_no": "20261128000000421", "order_no": "2026112800000042", "shipped_on": "2026-11-28",
        "carrier": "顺丰速运", "tracking_no": "SF1234567890", "quality": "合格", "shipper": "仓库",
        "lines": (0..lines).map(line).collect::<Vec<_>>(),
        "units": (lines * 12).to_string(), "total": "4080.00", "total_words": "肆仟零捌拾元整",
    })
}

fn printer() -> &'static Printer {
    Printer::shared().expect("the Noto Sans CJK fonts (fonts-noto-cjk) are installed")
}

/// The number of pages, and the text of every page as a reader extracts it, without the white
/// space a reader puts between runs (and between the letters of spaced-out titles).
fn text_of(pdf: &[u8]) -> (usize, String) {
    let document = lopdf::Document::load_mem(pdf).expect("a PDF lopdf reads");
    let pages: Vec<u32> = document.get_pages().keys().copied().collect();
    let text = document.extract_text(&pages).expect("its text");
    (pages.len(), text.split_whitespace().collect())
}

#[test]
fn the_delivery_note_embeds_a_subset_of_its_cjk_font_and_repeats_its_header_on_every_page() {
    let pdf = printer().render(Template::DeliveryNote, &note(40)).unwrap();
    assert!(pdf.starts_with(b"%PDF-"));
    let raw = String::from_utf8_lossy(&pdf);
    // The font is embedded (a CFF program of the used glyphs only, under a subset tag).
    assert!(raw.contains("/FontFile3"), "the font program is embedded");
    assert!(raw.contains("NotoSansCJKsc") || raw.contains("NotoSansCJKSC"), "the SC face");
    assert!(raw.contains("+NotoSansCJK"), "a subset tag (ABCDEF+) before its name");
    assert!(pdf.len() < 400_000, "a subset, not the whole 16 MB face: {} bytes", pdf.len());
    let (pages, text) = text_of(&pdf);
    assert!(pages >= 2, "40 lines take more than a page: {pages}");
    assert_eq!(text.matches("有效期至").count(), pages, "the table's header on every page");
    for expected in [
        "随货同行单",
        "仁心大药房",
        "国药准字H13023964",
        "阿莫西林胶囊39",
        "250339",
        "2027-02-28",
        "102.00",
        "肆仟零捌拾元整",
        "收货人签字",
        "质量状况：合格",
    ] {
        assert!(text.contains(expected), "{expected} in the text");
    }
    // Digits are the font's own Latin figures, not full-width forms.
    assert!(!text.contains('１') && !text.contains('０'));
}

#[test]
fn text_from_the_data_is_set_as_text_never_read_as_markup() {
    let mut data = note(1);
    data["buyer"]["company"] = Value::from("#panic(\"x\") *粗* _斜_ $x$ <a> @b");
    let pdf = printer().render(Template::DeliveryNote, &data).unwrap();
    let (_, text) = text_of(&pdf);
    assert!(text.contains("#panic(\"x\")*粗*_斜_$x$<a>@b"), "{text}");
}

#[test]
fn an_invoice_red_or_blue_prints_its_lines_and_totals() {
    let invoice = |red: bool| {
        json!({
            "title": "电子发票（普通发票）", "red": red, "invoice_no": "26330000000000000042", "original_no": if red { "26330000000000000041" } else { "" },
            "issued_on": "2026年11月28日", "order_no": "2026112800000042", "issuer": "财务",
            "buyer": { "name": "仁心大药房", "tax_no": "91330106MA27B8C9D0", "extra": "" },
            "seller": { "name": "杭州瑞禾医药有限公司", "tax_no": "91330110MA2H3K7R5X", "extra": "杭州市余杭区文一西路1号 400-816-3368" },
            "lines": [
                { "name": "*化学药品制剂*阿莫西林胶囊", "ypgg": "0.25g*24粒", "bzdw": "盒", "number": if red { "-2" } else { "12" }, "price": "7.52", "amount": if red { "-15.04" } else { "90.27" }, "rate": "13%", "tax": if red { "-1.96" } else { "11.73" } },
            ],
            "net": if red { "-15.04" } else { "90.27" }, "tax": if red { "-1.96" } else { "11.73" }, "total": if red { "-17.00" } else { "102.00" },
            "total_words": if red { "负壹拾柒元整" } else { "壹佰零贰元整" },
        })
    };
    for red in [false, true] {
        let pdf = printer().render(Template::Invoice, &invoice(red)).unwrap();
        let (pages, text) = text_of(&pdf);
        assert_eq!(pages, 1);
        for expected in ["26330000000000000042", "91330110MA2H3K7R5X", "阿莫西林胶囊", "13%", "价税合计"] {
            assert!(text.contains(expected), "{expected} in {text}");
        }
        assert_eq!(text.contains("红字发票"), red);
        assert!(text.contains(if red { "负壹拾柒元整" } else { "壹佰零贰元整" }));
    }
}
