//! E-invoices (电子发票, `/zzfw/dzfp`): a member requests one for a paid order of theirs (普票 or
//! 专票 with the company's bank details); the operator issues it (`origin admin issue-invoice`)
//! with its number, date and amount — what was paid for the order's lines (rule 19's `paid`)
//! less what returns refunded — and its seller, the shop's identity as it stands then;
//! the member downloads it as a PDF the origin renders. A member sees their own only.

mod pdf;

use axum::extract::{Path, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use sqlx::AnyConnection;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use self::pdf::{Issued, Party, printed};
use super::ApiContext;
use super::error::{Answer, Envelope, Error, Result, ok, ok_with};
use super::extract::{Fields, Form, FromFields, Member, Query};
use crate::domain::invoices::{self, InvoiceKind, InvoiceStatus, contact};
use crate::domain::orders::life::OrderStatus;
use crate::security::{Text, text};
use crate::{money, now};

pub fn router() -> OpenApiRouter<ApiContext> {
    OpenApiRouter::new().routes(routes!(request)).routes(routes!(list)).routes(routes!(pdf))
}

/// One of the member's invoice requests, and the invoice once issued.
#[derive(Serialize, ToSchema, sqlx::FromRow)]
pub struct Invoice {
    id: i64,
    order_id: i64,
    order_no: String,
    /// 1 普票, 2 专票.
    #[schema(value_type = i64)]
    kind: InvoiceKind,
    #[sqlx(skip)]
    #[schema(value_type = String, example = "增值税普通发票")]
    kind_name: &'static str,
    title: String,
    tax_no: String,
    email: String,
    /// 0 待开票, 1 已开票.
    #[schema(value_type = i64)]
    status: InvoiceStatus,
    #[sqlx(skip)]
    #[schema(value_type = String, example = "待开票")]
    status_name: &'static str,
    #[schema(required = true)]
    invoice_no: Option<String>,
    /// The blue invoice's number when this is a red-letter (红字) one, issued for what a return
    /// refunded after it; `null` for a blue one.
    #[schema(required = true)]
    red_of_no: Option<String>,
    /// When finance reversed this blue invoice whole (红冲) — the order may be invoiced again;
    /// `null` while it stands.
    #[schema(required = true)]
    reversed_at: Option<i64>,
    /// What was paid for the order's lines (negative on a red-letter one: what was refunded);
    /// `null` until issued.
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
                               (SELECT b.invoice_no FROM invoices b WHERE b.id = i.red_of) AS red_of_no, i.reversed_at, \
                               i.amount AS amount_stored, i.issued_at, i.created_at FROM invoices i JOIN orders o ON o.id = i.order_id";

fn finish(mut invoice: Invoice) -> Invoice {
    invoice.kind_name = invoice.kind.name();
    invoice.status_name = if invoice.reversed_at.is_some() { "已红冲" } else { invoice.status.name() };
    invoice.amount = invoice.amount_stored.map(money::text);
    invoice.pdf = (invoice.status == InvoiceStatus::Issued).then(|| format!("/api/invoices/{}/pdf", invoice.id));
    invoice
}

/// An invoice request: the kind, and the buyer's particulars (the registered ones for 专票).
#[derive(ToSchema)]
pub struct InvoiceForm {
    /// 发票类型: 1 普票, 2 专票.
    #[schema(value_type = i64)]
    kind: InvoiceKind,
    /// 发票抬头.
    title: String,
    /// 纳税人识别号: 15–20 letters and digits.
    tax_no: String,
    /// 接收邮箱.
    email: String,
    /// 注册地址 (专票).
    #[schema(value_type = Option<String>)]
    registered_address: String,
    /// 注册电话 (专票).
    #[schema(value_type = Option<String>)]
    registered_phone: String,
    /// 开户银行 (专票).
    #[schema(value_type = Option<String>)]
    bank: String,
    /// 银行账号 (专票).
    #[schema(value_type = Option<String>)]
    bank_account: String,
}

impl FromFields for InvoiceForm {
    fn from_fields(form: &Fields) -> Result<InvoiceForm> {
        let kind = form.int("kind", "发票类型")?.ok_or_else(|| Error::field("kind", "请选择发票类型"))?;
        let kind = InvoiceKind::from_code(kind).ok_or_else(|| Error::field("kind", "发票类型不正确"))?;
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
        let special = kind == InvoiceKind::Special;
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
        Ok(InvoiceForm { kind, title, tax_no, email, registered_address: address, registered_phone: phone, bank, bank_account: account })
    }
}

/// `POST /api/order/{id}/invoice` (`kind` 1 普票 or 2 专票, `title`, `tax_no` 15–20 letters and
/// digits, `email`; for 专票 also `registered_address`, `registered_phone`, `bank`,
/// `bank_account`): requests an invoice of one of the member's paid orders; one request per
/// order (409 for a second, or for an unpaid or cancelled order) unless finance reversed the
/// order's invoice whole.
#[utoipa::path(post, path = "/api/order/{id}/invoice", request_body(content = InvoiceForm, content_type = "application/x-www-form-urlencoded"), operation_id = "invoice_request", tag = "发票", responses((status = 200, description = "发票申请", body = Envelope<Invoice>)))]
async fn request(
    State(context): State<ApiContext>,
    member: Member,
    Path(order): Path<i64>,
    Form(form): Form<InvoiceForm>,
) -> Answer<Invoice> {
    let InvoiceForm { kind, title, tax_no, email, registered_address: address, registered_phone: phone, bank, bank_account: account } =
        form;
    let mut conn = context.db.pool.acquire().await?;
    let status: Option<OrderStatus> = sqlx::query_scalar("SELECT status FROM orders WHERE id = $1 AND member_id = $2")
        .bind(order)
        .bind(member.id)
        .fetch_optional(&mut *conn)
        .await?;
    match status {
        None => return Err(Error::not_found("订单不存在")),
        Some(OrderStatus::Unpaid | OrderStatus::Cancelled) => return Err(Error::conflict("未支付或已取消的订单不能开票")),
        Some(_) => {}
    }
    // One request per order: the insert names it only when none is there (a second, even a
    // racing one, inserts nothing) — or only one reversed whole by finance (红冲).
    let id: Option<i64> = sqlx::query_scalar(
        "INSERT INTO invoices (order_id, member_id, kind, title, tax_no, email, registered_address, registered_phone, bank, \
         bank_account, status, created_at) \
         SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12 WHERE NOT EXISTS \
         (SELECT 1 FROM invoices WHERE order_id = $1 AND red_of IS NULL AND reversed_at IS NULL) \
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
    .bind(InvoiceStatus::Requested)
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

/// Which invoices: a page, of a status, of an order.
#[derive(utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct InvoiceQuery {
    /// 页码: from 1 (absent: 1), at most 100000.
    #[param(value_type = Option<i64>, minimum = 1, maximum = 100000)]
    page: i64,
    /// 发票状态: 0 待开票, 1 已开票; absent: all.
    #[param(value_type = Option<i64>)]
    status: i64,
    /// One order's only.
    #[param(value_type = Option<i64>)]
    order_id: i64,
}

impl FromFields for InvoiceQuery {
    fn from_fields(query: &Fields) -> Result<InvoiceQuery> {
        let page = query.page()?;
        let status = query.int_or("status", "发票状态", -1)?;
        if status != -1 && InvoiceStatus::from_code(status).is_none() {
            return Err(Error::field("status", "发票状态不正确"));
        }
        let order = query.int_or("order_id", "订单", 0)?;
        Ok(InvoiceQuery { page, status, order_id: order })
    }
}

/// `GET /api/invoices` (`page`, `status` 0 待开票 or 1 已开票, `order_id`): the member's invoice
/// requests and invoices, newest first, 20 a page.
#[utoipa::path(get, path = "/api/invoices", params(InvoiceQuery), operation_id = "invoice_list", tag = "发票", responses((status = 200, description = "一页发票", body = Envelope<InvoicePage>)))]
async fn list(State(context): State<ApiContext>, member: Member, Query(query): Query<InvoiceQuery>) -> Answer<InvoicePage> {
    let InvoiceQuery { page, status, order_id: order } = query;
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

/// `GET /api/invoices/{id}/pdf`: one of the member's issued invoices as a PDF.
#[utoipa::path(get, path = "/api/invoices/{id}/pdf", operation_id = "invoice_pdf", tag = "发票", responses((status = 200, description = "发票 PDF", content_type = "application/pdf", body = String)))]
async fn pdf(State(context): State<ApiContext>, member: Member, Path(id): Path<i64>) -> Result<Response> {
    let mut conn = context.db.pool.acquire().await?;
    let invoice = one(&mut conn, member, id).await?;
    let (Some(invoice_no), Some(issued_at)) = (invoice.invoice_no.clone(), invoice.issued_at) else {
        return Err(Error::conflict("发票尚未开具"));
    };
    let (address, phone, bank, account, seller, seller_tax_no, seller_contact, red_of): Parties = sqlx::query_as(
        "SELECT registered_address, registered_phone, bank, bank_account, seller, seller_tax_no, seller_contact, \
         (SELECT b.invoice_no FROM invoices b WHERE b.id = invoices.red_of) FROM invoices WHERE id = $1",
    )
    .bind(id)
    .fetch_one(&mut *conn)
    .await?;
    // The lines as issued; an invoice issued before lines were kept shows the order's now.
    let mut lines = invoices::lines(&mut conn, id).await?;
    if lines.is_empty() {
        lines = invoices::lines_now(&mut conn, invoice.order_id).await?;
    }
    // The seller as issued; an invoice issued before sellers were kept shows the shop's now.
    let (seller, seller_tax_no, seller_contact) = if seller.is_empty() {
        let shop = crate::domain::shop::read(&mut conn).await?;
        (shop.company.clone(), shop.credit_code.clone(), contact(&shop))
    } else {
        (seller, seller_tax_no, seller_contact)
    };
    let issued = Issued {
        kind: invoice.kind,
        invoice_no: invoice_no.clone(),
        original_no: red_of,
        issued_at,
        order_no: invoice.order_no,
        buyer: Party {
            name: invoice.title,
            tax_no: invoice.tax_no,
            extra: format!("{address} {phone} {bank} {account}").trim().to_owned(),
        },
        seller: Party { name: seller, tax_no: seller_tax_no, extra: seller_contact },
    };
    let data = printed(issued, &lines);
    let pdf = tokio::task::spawn_blocking(move || documents::Printer::shared()?.render(documents::Template::Invoice, &data))
        .await
        .map_err(anyhow::Error::from)?
        .map_err(|error| anyhow::anyhow!("invoice {id}: {error}"))?;
    Ok((
        [
            (header::CONTENT_TYPE, "application/pdf".to_owned()),
            (header::CACHE_CONTROL, "private, no-store".to_owned()),
            (header::CONTENT_DISPOSITION, format!("inline; filename=\"invoice-{invoice_no}.pdf\"")),
            (header::X_CONTENT_TYPE_OPTIONS, "nosniff".to_owned()),
        ],
        pdf,
    )
        .into_response())
}

/// An invoice's buyer particulars, its seller as issued, and the blue invoice a red one reverses.
type Parties = (String, String, String, String, String, String, String, Option<String>);
