//! Invoices in the console: requests waiting and invoices issued (red-letter ones with the
//! blue one they reverse), and issuing a request.

use axum::extract::{Path, State};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::{Page, Staff, can, paging};
use crate::domain::staff::invoices::{self, InvoiceIssued, InvoiceRow};
use crate::http::ApiContext;
use crate::http::error::{Answer, Envelope, Result, ok};
use crate::http::extract::{Fields, FromFields, Query};
use crate::now;

pub fn router() -> OpenApiRouter<ApiContext> {
    OpenApiRouter::new().routes(routes!(list)).routes(routes!(issue))
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
