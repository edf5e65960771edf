//! E-invoices (电子发票, `/zzfw/dzfp`): a member requests one for a paid order of theirs (普票 or
//! 专票 with the company's bank details); the operator issues it (`origin admin issue-invoice`)
//! with its number, date and amount — what was paid for the order's lines (rule 19's `paid`)
//! less what returns refunded — and its seller, the shop's identity as it stands then;
//! the member downloads it as a PDF the origin renders. A member sees their own only.

use axum::extract::{Path, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use sqlx::AnyConnection;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::ApiContext;
use super::error::{Answer, Envelope, Error, Result, ok, ok_with};
use super::extract::{FormFields, Member, QueryFields};
use crate::order_life::{CANCELLED, UNPAID};
use crate::security::{Text, text};
use crate::{money, now};

pub fn router() -> OpenApiRouter<ApiContext> {
    OpenApiRouter::new().routes(routes!(request)).routes(routes!(list)).routes(routes!(pdf))
}

const KIND_NAMES: [&str; 3] = ["", "增值税普通发票", "增值税专用发票"];
const STATUS_NAMES: [&str; 2] = ["待开票", "已开票"];
pub const REQUESTED: i64 = 0;
pub const ISSUED: i64 = 1;

/// One of the member's invoice requests, and the invoice once issued.
#[derive(Serialize, ToSchema, sqlx::FromRow)]
pub struct Invoice {
    id: i64,
    order_id: i64,
    order_no: String,
    /// 1 普票, 2 专票.
    kind: i64,
    #[sqlx(skip)]
    #[schema(value_type = String, example = "增值税普通发票")]
    kind_name: &'static str,
    title: String,
    tax_no: String,
    email: String,
    /// 0 待开票, 1 已开票.
    status: i64,
    #[sqlx(skip)]
    #[schema(value_type = String, example = "待开票")]
    status_name: &'static str,
    #[schema(required = true)]
    invoice_no: Option<String>,
    /// What was paid for the order's lines; `null` until issued.
    #[sqlx(skip)]
    #[schema(required = true, example = "98.00")]
    amount: Option<String>,
    #[serde(skip)]
    amount_stored: Option<i64>,
    #[schema(required = true)]
    issued_at: Option<i64>,
    /// The PDF's address once issued.
    #[sqlx(skip)]
    #[schema(required = true)]
    pdf: Option<String>,
    created_at: i64,
}

const INVOICE_COLUMNS: &str = "i.id, i.order_id, o.order_no, i.kind, i.title, i.tax_no, i.email, i.status, i.invoice_no, \
                               i.amount AS amount_stored, i.issued_at, i.created_at FROM invoices i JOIN orders o ON o.id = i.order_id";

fn finish(mut invoice: Invoice) -> Invoice {
    invoice.kind_name = KIND_NAMES.get(invoice.kind as usize).copied().unwrap_or_default();
    invoice.status_name = STATUS_NAMES.get(invoice.status as usize).copied().unwrap_or_default();
    invoice.amount = invoice.amount_stored.map(money::text);
    invoice.pdf = (invoice.status == ISSUED).then(|| format!("/api/invoices/{}/pdf", invoice.id));
    invoice
}

/// `POST /api/order/{id}/invoice` (`kind` 1 普票 or 2 专票, `title`, `tax_no` 15–20 letters and
/// digits, `email`; for 专票 also `registered_address`, `registered_phone`, `bank`,
/// `bank_account`): requests an invoice of one of the member's paid orders; one request per
/// order (409 for a second, or for an unpaid or cancelled order).
#[utoipa::path(post, path = "/api/order/{id}/invoice", operation_id = "invoice_request", tag = "发票", responses((status = 200, description = "发票申请", body = Envelope<Invoice>)))]
async fn request(
    State(context): State<ApiContext>,
    member: Member,
    Path(order): Path<i64>,
    FormFields(form): FormFields,
) -> Answer<Invoice> {
    let kind = form.int("kind", "发票类型")?.ok_or_else(|| Error::field("kind", "请选择发票类型"))?;
    if !(1..=2).contains(&kind) {
        return Err(Error::field("kind", "发票类型不正确"));
    }
    let mut errors = Vec::new();
    let mut field = |spec: Text, required: bool| match form.text(spec.field) {
        Some(value) => match spec.refusal(&value) {
            Some(why) => {
                errors.push((spec.field.to_owned(), why));
                String::new()
            }
            None => value,
        },
        None => {
            if required {
                errors.push((spec.field.to_owned(), format!("请填写{}", spec.label)));
            }
            String::new()
        }
    };
    let special = kind == 2;
    let title = field(text::INVOICE_TITLE, true);
    let tax_no = field(text::TAX_NO, true);
    let email = field(text::INVOICE_EMAIL, true);
    let address = field(text::REGISTERED_ADDRESS, special);
    let phone = field(text::REGISTERED_PHONE, special);
    let bank = field(text::BANK, special);
    let account = field(text::BANK_ACCOUNT, special);
    if !tax_no.is_empty() && (!(15..=20).contains(&tax_no.len()) || !tax_no.chars().all(|c| c.is_ascii_alphanumeric())) {
        errors.push(("tax_no".into(), "纳税人识别号应为15到20位字母或数字".into()));
    }
    if !email.is_empty() && !engine::is_email(&email) {
        errors.push(("email".into(), "邮箱格式不正确".into()));
    }
    if !errors.is_empty() {
        return Err(Error::Validation(errors));
    }
    let mut conn = context.db.pool.acquire().await?;
    let status: Option<i64> = sqlx::query_scalar("SELECT status FROM orders WHERE id = $1 AND member_id = $2")
        .bind(order)
        .bind(member.id)
        .fetch_optional(&mut *conn)
        .await?;
    match status {
        None => return Err(Error::not_found("订单不存在")),
        Some(UNPAID | CANCELLED) => return Err(Error::conflict("未支付或已取消的订单不能开票")),
        Some(_) => {}
    }
    // One request per order: the insert names it only when none is there (a second, even a
    // racing one, inserts nothing).
    let id: Option<i64> = sqlx::query_scalar(
        "INSERT INTO invoices (order_id, member_id, kind, title, tax_no, email, registered_address, registered_phone, bank, \
         bank_account, status, created_at) \
         SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12 WHERE NOT EXISTS (SELECT 1 FROM invoices WHERE order_id = $1) \
         RETURNING id",
    )
    .bind(order)
    .bind(member.id)
    .bind(kind)
    .bind(&title)
    .bind(tax_no.to_ascii_uppercase())
    .bind(&email)
    .bind(&address)
    .bind(&phone)
    .bind(&bank)
    .bind(&account)
    .bind(REQUESTED)
    .bind(now())
    .fetch_optional(&mut *conn)
    .await?;
    let id = id.ok_or_else(|| Error::conflict("该订单已申请过发票"))?;
    ok_with("已提交开票申请", one(&mut conn, member, id).await?)
}

async fn one(conn: &mut AnyConnection, member: Member, id: i64) -> Result<Invoice> {
    let invoice: Option<Invoice> =
        sqlx::query_as(sqlx::AssertSqlSafe(format!("SELECT {INVOICE_COLUMNS} WHERE i.id = $1 AND i.member_id = $2")))
            .bind(id)
            .bind(member.id)
            .fetch_optional(&mut *conn)
            .await?;
    invoice.map(finish).ok_or_else(|| Error::not_found("发票不存在"))
}

/// One page of the member's invoice requests.
#[derive(Serialize, ToSchema)]
pub struct InvoicePage {
    list: Vec<Invoice>,
    total: i64,
    page: i64,
}

/// `GET /api/invoices` (`page`, `status` 0 待开票 or 1 已开票, `order_id`): the member's invoice
/// requests and invoices, newest first, 20 a page.
#[utoipa::path(get, path = "/api/invoices", operation_id = "invoice_list", tag = "发票", responses((status = 200, description = "一页发票", body = Envelope<InvoicePage>)))]
async fn list(State(context): State<ApiContext>, member: Member, QueryFields(query): QueryFields) -> Answer<InvoicePage> {
    let page = query.page()?;
    let status = query.int_or("status", "发票状态", -1)?;
    if !(-1..=1).contains(&status) {
        return Err(Error::field("status", "发票状态不正确"));
    }
    let order = query.int_or("order_id", "订单", 0)?;
    let filter = "i.member_id = $1 AND ($2 < 0 OR i.status = $2) AND ($3 = 0 OR i.order_id = $3)";
    let mut conn = context.db.pool.acquire().await?;
    let total: i64 = sqlx::query_scalar(sqlx::AssertSqlSafe(format!("SELECT COUNT(*) FROM invoices i WHERE {filter}")))
        .bind(member.id)
        .bind(status)
        .bind(order)
        .fetch_one(&mut *conn)
        .await?;
    let list: Vec<Invoice> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {INVOICE_COLUMNS} WHERE {filter} ORDER BY i.created_at DESC, i.id DESC LIMIT 20 OFFSET $4"
    )))
    .bind(member.id)
    .bind(status)
    .bind(order)
    .bind((page - 1) * 20)
    .fetch_all(&mut *conn)
    .await?;
    ok(InvoicePage { list: list.into_iter().map(finish).collect(), total, page })
}

/// What an issued invoice shows.
struct Printed {
    invoice_no: String,
    issued_on: String,
    kind: i64,
    title: String,
    tax_no: String,
    registered: String,
    bank: String,
    order_no: String,
    lines: Vec<(String, i64, i64)>,
    amount: i64,
    /// The seller: the shop's seller entity, its tax number (the 统一社会信用代码), address and
    /// hotline (`settings`, `crate::shop`).
    seller: String,
    seller_tax_no: String,
    seller_contact: String,
}

/// `GET /api/invoices/{id}/pdf`: one of the member's issued invoices as a PDF.
#[utoipa::path(get, path = "/api/invoices/{id}/pdf", operation_id = "invoice_pdf", tag = "发票", responses((status = 200, description = "发票 PDF", content_type = "application/pdf", body = String)))]
async fn pdf(State(context): State<ApiContext>, member: Member, Path(id): Path<i64>) -> Result<Response> {
    let mut conn = context.db.pool.acquire().await?;
    let invoice = one(&mut conn, member, id).await?;
    let (Some(invoice_no), Some(amount), Some(issued_at)) = (invoice.invoice_no.clone(), invoice.amount_stored, invoice.issued_at) else {
        return Err(Error::conflict("发票尚未开具"));
    };
    let (address, phone, bank, account, seller, seller_tax_no, seller_contact): (String, String, String, String, String, String, String) =
        sqlx::query_as(
            "SELECT registered_address, registered_phone, bank, bank_account, seller, seller_tax_no, seller_contact FROM invoices WHERE id = $1",
        )
        .bind(id)
        .fetch_one(&mut *conn)
        .await?;
    let lines: Vec<(String, i64, i64)> = sqlx::query_as(
        "SELECT name, number - returned, paid - refunded FROM order_items WHERE order_id = $1 AND returned < number ORDER BY id",
    )
    .bind(invoice.order_id)
    .fetch_all(&mut *conn)
    .await?;
    // The seller as issued; an invoice issued before sellers were kept shows the shop's now.
    let (seller, seller_tax_no, seller_contact) = if seller.is_empty() {
        let shop = crate::shop::read(&mut conn).await?;
        (shop.company.clone(), shop.credit_code.clone(), contact(&shop))
    } else {
        (seller, seller_tax_no, seller_contact)
    };
    let (year, month, day) = crate::civil_date(issued_at, 8 * 3600);
    let printed = Printed {
        invoice_no: invoice_no.clone(),
        issued_on: format!("{year:04}年{month:02}月{day:02}日"),
        kind: invoice.kind,
        title: invoice.title,
        tax_no: invoice.tax_no,
        registered: format!("{address} {phone}").trim().to_owned(),
        bank: format!("{bank} {account}").trim().to_owned(),
        order_no: invoice.order_no,
        lines,
        amount,
        seller,
        seller_tax_no,
        seller_contact,
    };
    Ok((
        [
            (header::CONTENT_TYPE, "application/pdf".to_owned()),
            (header::CACHE_CONTROL, "private, no-store".to_owned()),
            (header::CONTENT_DISPOSITION, format!("inline; filename=\"invoice-{invoice_no}.pdf\"")),
            (header::X_CONTENT_TYPE_OPTIONS, "nosniff".to_owned()),
        ],
        render(&printed),
    )
        .into_response())
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
fn render(invoice: &Printed) -> Vec<u8> {
    let mut lines: Vec<(f32, f32, f32, String)> = vec![
        (210.0, 380.0, 18.0, format!("{}（电子）", KIND_NAMES.get(invoice.kind as usize).copied().unwrap_or_default())),
        (40.0, 350.0, 10.0, format!("发票号码：{}", invoice.invoice_no)),
        (300.0, 350.0, 10.0, format!("开票日期：{}", invoice.issued_on)),
        (40.0, 325.0, 10.0, format!("购买方：{}", invoice.title)),
        (40.0, 310.0, 10.0, format!("纳税人识别号：{}", invoice.tax_no)),
    ];
    let mut y = 295.0;
    if invoice.kind == 2 {
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

/// The seller's address and phone as an invoice prints them.
fn contact(shop: &crate::shop::ShopIdentity) -> String {
    format!("{} {}", shop.address, shop.hot_line).trim().to_owned()
}

/// Issues a requested invoice: its number, today's date, the amount paid for the order's lines
/// less what their returns refunded, and the seller — the shop's identity now, kept with the
/// invoice as issued; answers `(member, invoice_no, amount)`.
pub async fn issue(conn: &mut AnyConnection, id: i64, now: i64) -> anyhow::Result<(i64, String, i64)> {
    let (member, order, status): (i64, i64, i64) = sqlx::query_as("SELECT member_id, order_id, status FROM invoices WHERE id = $1")
        .bind(id)
        .fetch_optional(&mut *conn)
        .await?
        .ok_or_else(|| anyhow::anyhow!("no invoice request {id}"))?;
    anyhow::ensure!(status == REQUESTED, "invoice {id} is issued already");
    let amount: i64 = sqlx::query_scalar("SELECT CAST(COALESCE(SUM(paid - refunded), 0) AS BIGINT) FROM order_items WHERE order_id = $1")
        .bind(order)
        .fetch_one(&mut *conn)
        .await?;
    anyhow::ensure!(amount > 0, "order {order} has nothing left to invoice: every line is refunded");
    let (year, month, day) = crate::civil_date(now, 8 * 3600);
    let invoice_no = format!("{year:04}{month:02}{day:02}{id:08}");
    let shop = crate::shop::read(&mut *conn).await?;
    let issued = sqlx::query(
        "UPDATE invoices SET status = $1, invoice_no = $2, amount = $3, issued_at = $4, seller = $5, seller_tax_no = $6, \
         seller_contact = $7 WHERE id = $8 AND status = $9",
    )
    .bind(ISSUED)
    .bind(&invoice_no)
    .bind(amount)
    .bind(now)
    .bind(&shop.company)
    .bind(&shop.credit_code)
    .bind(contact(&shop))
    .bind(id)
    .bind(REQUESTED)
    .execute(&mut *conn)
    .await?;
    anyhow::ensure!(issued.rows_affected() == 1, "invoice {id} is issued already");
    Ok((member, invoice_no, amount))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pdf_is_well_formed_with_its_text_in_the_chinese_font() {
        let printed = Printed {
            invoice_no: "2026112400000001".into(),
            issued_on: "2026年11月24日".into(),
            kind: 2,
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
