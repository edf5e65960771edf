//! 退货 and 售后 in the console: the lists; a return approved or rejected (customer service) and
//! received, which refunds it (the warehouse); an after-sales case read and answered or closed.

use axum::extract::{Path, State};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::{Page, Staff, can, paging};
use crate::domain::returns::{ReturnStatus, Step};
use crate::domain::staff::returns::{self, CaseRow, CaseThread, ReturnListRow, ReturnMoved};
use crate::http::ApiContext;
use crate::http::error::{Answer, Envelope, Error, Result, ok};
use crate::http::extract::{Fields, Form, FromFields, Query};
use crate::now;

pub fn router() -> OpenApiRouter<ApiContext> {
    OpenApiRouter::new()
        .routes(routes!(list))
        .routes(routes!(approve))
        .routes(routes!(reject))
        .routes(routes!(receive))
        .routes(routes!(cases))
        .routes(routes!(case))
        .routes(routes!(answer))
}

/// Which returns.
#[derive(utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ListQuery {
    /// 0 待审核, 1 待退货, 2 已拒绝, 3 已退款, 4 已撤销; absent: all.
    #[param(value_type = Option<i64>)]
    status: Option<ReturnStatus>,
    /// A return's or order's number, or a company, or part of one.
    search: Option<String>,
    #[param(value_type = Option<i64>)]
    page: i64,
    #[param(value_type = Option<i64>)]
    size: i64,
}

impl FromFields for ListQuery {
    fn from_fields(fields: &Fields) -> Result<ListQuery> {
        let status = match fields.int("status", "退货状态")? {
            None => None,
            Some(code) => Some(ReturnStatus::from_code(code).ok_or_else(|| Error::field("status", "退货状态不正确"))?),
        };
        let (page, size) = paging(fields)?;
        Ok(ListQuery { status, search: fields.text("search"), page, size })
    }
}

/// `GET /api/admin/returns`: returns, newest first.
#[utoipa::path(get, path = "/api/admin/returns", operation_id = "admin_returns", params(ListQuery), tag = "后台", responses((status = 200, description = "退货列表", body = Envelope<Page<ReturnListRow>>)))]
async fn list(State(context): State<ApiContext>, _: Staff<can::Read>, Query(query): Query<ListQuery>) -> Answer<Page<ReturnListRow>> {
    let ListQuery { status, search, page, size } = query;
    let (list, total) = returns::list(&mut *context.db.pool.acquire().await?, status, search.as_deref(), page, size).await?;
    ok(Page { list, total, page, size })
}

/// A note to the member: where to send the goods (approving) or why not (rejecting).
#[derive(ToSchema)]
pub struct NoteForm {
    /// 说明 (approving: where to send the goods back) or 拒绝原因 (rejecting, required).
    note: Option<String>,
}

impl FromFields for NoteForm {
    fn from_fields(fields: &Fields) -> Result<NoteForm> {
        Ok(NoteForm { note: fields.text("note").or_else(|| fields.text("reason")) })
    }
}

/// `POST /api/admin/returns/{id}/approve`: the member may send the goods back (`note`: where).
#[utoipa::path(post, path = "/api/admin/returns/{id}/approve", operation_id = "admin_return_approve", params(("id" = i64, Path, description = "退货单 id")), request_body(content = NoteForm, content_type = "application/x-www-form-urlencoded"), tag = "后台", responses((status = 200, description = "已同意", body = Envelope<ReturnMoved>)))]
async fn approve(
    State(context): State<ApiContext>,
    staff: Staff<can::ReviewReturns>,
    Path(id): Path<i64>,
    Form(form): Form<NoteForm>,
) -> Answer<ReturnMoved> {
    let note = form.note.unwrap_or_default();
    ok(returns::step(&mut *context.db.pool.acquire().await?, &staff.actor, id, Step::Approve, &note, now()).await?)
}

/// `POST /api/admin/returns/{id}/reject`: refuses a requested or approved return (`reason` required).
#[utoipa::path(post, path = "/api/admin/returns/{id}/reject", operation_id = "admin_return_reject", params(("id" = i64, Path, description = "退货单 id")), request_body(content = NoteForm, content_type = "application/x-www-form-urlencoded"), tag = "后台", responses((status = 200, description = "已拒绝", body = Envelope<ReturnMoved>)))]
async fn reject(
    State(context): State<ApiContext>,
    staff: Staff<can::ReviewReturns>,
    Path(id): Path<i64>,
    Form(form): Form<NoteForm>,
) -> Answer<ReturnMoved> {
    let note = form.note.unwrap_or_default();
    ok(returns::step(&mut *context.db.pool.acquire().await?, &staff.actor, id, Step::Reject, &note, now()).await?)
}

/// `POST /api/admin/returns/{id}/receive`: the goods are back; refunds the return (the engine's
/// rule 20) to the balance, with its red packets and points.
#[utoipa::path(post, path = "/api/admin/returns/{id}/receive", operation_id = "admin_return_receive", params(("id" = i64, Path, description = "退货单 id")), tag = "后台", responses((status = 200, description = "已收货并退款", body = Envelope<ReturnMoved>)))]
async fn receive(State(context): State<ApiContext>, staff: Staff<can::ReceiveReturns>, Path(id): Path<i64>) -> Answer<ReturnMoved> {
    ok(returns::step(&mut *context.db.pool.acquire().await?, &staff.actor, id, Step::Receive, "", now()).await?)
}

/// Which cases.
#[derive(utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct CasesQuery {
    /// `1`: only open ones.
    #[param(value_type = Option<i64>)]
    open: bool,
    #[param(value_type = Option<i64>)]
    page: i64,
    #[param(value_type = Option<i64>)]
    size: i64,
}

impl FromFields for CasesQuery {
    fn from_fields(fields: &Fields) -> Result<CasesQuery> {
        let (page, size) = paging(fields)?;
        Ok(CasesQuery { open: fields.int("open", "处理中")?.unwrap_or(0) == 1, page, size })
    }
}

/// `GET /api/admin/after-sales`: cases, the most recently written to first.
#[utoipa::path(get, path = "/api/admin/after-sales", operation_id = "admin_after_sales", params(CasesQuery), tag = "后台", responses((status = 200, description = "售后列表", body = Envelope<Page<CaseRow>>)))]
async fn cases(State(context): State<ApiContext>, _: Staff<can::Read>, Query(query): Query<CasesQuery>) -> Answer<Page<CaseRow>> {
    let CasesQuery { open, page, size } = query;
    let (list, total) = returns::cases(&mut *context.db.pool.acquire().await?, open, page, size).await?;
    ok(Page { list, total, page, size })
}

/// `GET /api/admin/after-sales/{id}`: a case and its thread.
#[utoipa::path(get, path = "/api/admin/after-sales/{id}", operation_id = "admin_after_sale", params(("id" = i64, Path, description = "售后单 id")), tag = "后台", responses((status = 200, description = "售后单与沟通记录", body = Envelope<CaseThread>)))]
async fn case(State(context): State<ApiContext>, _: Staff<can::Read>, Path(id): Path<i64>) -> Answer<CaseThread> {
    ok(returns::case(&mut *context.db.pool.acquire().await?, id).await?)
}

/// An answer to a case.
#[derive(ToSchema)]
pub struct AnswerForm {
    /// 回复内容, which the member reads.
    body: String,
    /// `1` closes the case (已解决).
    #[schema(value_type = Option<i64>)]
    resolve: bool,
}

impl FromFields for AnswerForm {
    fn from_fields(fields: &Fields) -> Result<AnswerForm> {
        Ok(AnswerForm { body: fields.required("body", "回复内容")?, resolve: fields.int("resolve", "解决")?.unwrap_or(0) == 1 })
    }
}

/// The case answered.
#[derive(serde::Serialize, ToSchema)]
pub struct CaseAnswered {
    case_no: String,
}

/// `POST /api/admin/after-sales/{id}/answer`: answers an open case (the member is told).
#[utoipa::path(post, path = "/api/admin/after-sales/{id}/answer", operation_id = "admin_after_sale_answer", params(("id" = i64, Path, description = "售后单 id")), request_body(content = AnswerForm, content_type = "application/x-www-form-urlencoded"), tag = "后台", responses((status = 200, description = "已回复", body = Envelope<CaseAnswered>)))]
async fn answer(
    State(context): State<ApiContext>,
    staff: Staff<can::AfterSales>,
    Path(id): Path<i64>,
    Form(form): Form<AnswerForm>,
) -> Answer<CaseAnswered> {
    let case_no = returns::answer(&mut *context.db.pool.acquire().await?, &staff.actor, id, &form.body, form.resolve, now()).await?;
    ok(CaseAnswered { case_no })
}
