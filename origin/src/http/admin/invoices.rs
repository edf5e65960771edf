//! Invoices in the console: requests waiting and invoices issued (red-letter ones with the
//! blue one they reverse), issuing a request, and reversing an issued invoice whole (红冲).

use axum::extract::{Path, State};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::{Page, Staff, can, paging};
use crate::domain::staff::invoices::{self, InvoiceIssued, InvoiceReversed, InvoiceRow};
use crate::http::ApiContext;
use crate::http::error::{Answer, Envelope, Result, ok};
use crate::http::extract::{Fields, Form, FromFields, Query};
use crate::now;

pub fn router() -> OpenApiRouter<ApiContext> {
    OpenApiRouter::new().routes(routes!(list)).routes(routes!(issue)).routes(routes!(reverse))
}

/// Which invoices.
#[derive(utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ListQuery {
    /// `1`: only requests waiting to be issued.
    #[param(value_type = Option<i64>)]
    pending: bool,
    /// An order number, invoice number, title or company, or part of one.
    search: Option<String>,
    #[param(value_type = Option<i64>)]
    page: i64,
    #[param(value_type = Option<i64>)]
    size: i64,
}

impl FromFields for ListQuery {
    fn from_fields(fields: &Fields) -> Result<ListQuery> {
        let (page, size) = paging(fields)?;
        Ok(ListQuery { pending: fields.int("pending", "待开票")?.unwrap_or(0) == 1, search: fields.text("search"), page, size })
    }
}

/// `GET /api/admin/invoices`: invoices and requests, newest first.
#[utoipa::path(get, path = "/api/admin/invoices", operation_id = "admin_invoices", params(ListQuery), tag = "后台", responses((status = 200, description = "发票列表", body = Envelope<Page<InvoiceRow>>)))]
async fn list(State(context): State<ApiContext>, _: Staff<can::Read>, Query(query): Query<ListQuery>) -> Answer<Page<InvoiceRow>> {
    let ListQuery { pending, search, page, size } = query;
    let (list, total) = invoices::list(&mut *context.db.pool.acquire().await?, pending, search.as_deref(), page, size).await?;
    ok(Page { list, total, page, size })
}

/// `POST /api/admin/invoices/{id}/issue`: issues a requested invoice (the member is told).
#[utoipa::path(post, path = "/api/admin/invoices/{id}/issue", operation_id = "admin_invoice_issue", params(("id" = i64, Path, description = "发票申请 id")), tag = "后台", responses((status = 200, description = "已开具的发票", body = Envelope<InvoiceIssued>)))]
async fn issue(State(context): State<ApiContext>, staff: Staff<can::Invoices>, Path(id): Path<i64>) -> Answer<InvoiceIssued> {
    ok(invoices::issue(&mut *context.db.pool.acquire().await?, &staff.actor, id, now()).await?)
}

/// Why an invoice is reversed.
#[derive(utoipa::ToSchema)]
pub struct ReverseForm {
    /// 红冲原因: at most 100 characters.
    reason: String,
}

impl FromFields for ReverseForm {
    fn from_fields(fields: &Fields) -> Result<ReverseForm> {
        Ok(ReverseForm { reason: fields.text("reason").unwrap_or_default() })
    }
}

/// `POST /api/admin/invoices/{id}/reverse` (`reason`): reverses an issued blue invoice whole with
/// a red-letter one (409 for a request, a red-letter invoice, or one already reversed); the
/// member is told and may request the order's invoice again.
#[utoipa::path(post, path = "/api/admin/invoices/{id}/reverse", operation_id = "admin_invoice_reverse", params(("id" = i64, Path, description = "发票 id")), request_body(content = ReverseForm, content_type = "application/x-www-form-urlencoded"), tag = "后台", responses((status = 200, description = "红冲结果", body = Envelope<InvoiceReversed>)))]
async fn reverse(
    State(context): State<ApiContext>,
    staff: Staff<can::Invoices>,
    Path(id): Path<i64>,
    Form(form): Form<ReverseForm>,
) -> Answer<InvoiceReversed> {
    ok(invoices::reverse(&mut *context.db.pool.acquire().await?, &staff.actor, id, &form.reason, now()).await?)
}
