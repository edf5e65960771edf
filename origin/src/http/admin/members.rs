//! 会员 in the console: the list (search, approval, certificates waiting), a member's page,
//! a certificate's scan, certificates approved with the business scope or rejected with a
//! reason, and controlled-sales applications reviewed.

use axum::extract::{Path, State};
use axum::response::Response;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::{Page, Staff, can, paging};
use crate::domain::staff::members::{self, CertificateReviewed, Filter, MemberPage, MemberRow};
use crate::http::ApiContext;
use crate::http::error::{Answer, Envelope, Error, Result, ok};
use crate::http::extract::{Fields, Form, FromFields, Member, Query};
use crate::now;

pub fn router() -> OpenApiRouter<ApiContext> {
    OpenApiRouter::new()
        .routes(routes!(list))
        .routes(routes!(export))
        .routes(routes!(page))
        .routes(routes!(scan))
        .routes(routes!(approve))
        .routes(routes!(reject))
        .routes(routes!(controlled_sales))
}

/// Which members.
#[derive(utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ListQuery {
    /// Part of the account, company, contact or phone, or the member's id.
    search: Option<String>,
    /// `1` approved only, `0` not yet approved only; absent: all.
    #[param(value_type = Option<i64>)]
    approved: Option<bool>,
    /// `1`: only members with certificates waiting for review.
    #[param(value_type = Option<i64>)]
    pending: bool,
    #[param(value_type = Option<i64>)]
    page: i64,
    #[param(value_type = Option<i64>)]
    size: i64,
}

impl FromFields for ListQuery {
    fn from_fields(fields: &Fields) -> Result<ListQuery> {
        let approved = match fields.int("approved", "审核状态")? {
            None => None,
            Some(0) => Some(false),
            Some(1) => Some(true),
            Some(_) => return Err(Error::field("approved", "审核状态只能是0或1")),
        };
        let (page, size) = paging(fields)?;
        Ok(ListQuery {
            search: fields.text("search"), approved, pending: fields.int("pending", "待审资质")?.unwrap_or(0) == 1, page, size
        })
    }
}

/// `GET /api/admin/members`: members, newest first.
#[utoipa::path(get, path = "/api/admin/members", operation_id = "admin_members", params(ListQuery), tag = "后台", responses((status = 200, description = "会员列表", body = Envelope<Page<MemberRow>>)))]
async fn list(State(context): State<ApiContext>, _: Staff<can::Read>, Query(query): Query<ListQuery>) -> Answer<Page<MemberRow>> {
    let ListQuery { search, approved, pending, page, size } = query;
    let filter = Filter { search, approved, pending };
    let (list, total) = members::list(&mut *context.db.pool.acquire().await?, &filter, page, size).await?;
    ok(Page { list, total, page, size })
}

/// `GET /api/admin/members/export`: the members the list's filters find (the page aside), as an
/// Excel workbook. Recorded in the audit trail.
#[utoipa::path(get, path = "/api/admin/members/export", operation_id = "admin_members_export", params(ListQuery), tag = "后台", responses(
    (status = 200, description = "会员（Excel）", content_type = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", body = String)
))]
async fn export(State(context): State<ApiContext>, staff: Staff<can::Read>, Query(query): Query<ListQuery>) -> Result<Response> {
    let ListQuery { search, approved, pending, .. } = query;
    let filter = Filter { search, approved, pending };
    let book = crate::domain::staff::export::members(&mut *context.db.pool.acquire().await?, &staff.actor, &filter, now()).await?;
    Ok(super::xlsx("members", book))
}

/// `GET /api/admin/members/{id}`: a member's page.
#[utoipa::path(get, path = "/api/admin/members/{id}", operation_id = "admin_member", params(("id" = i64, Path, description = "会员 id")), tag = "后台", responses((status = 200, description = "会员详情", body = Envelope<MemberPage>)))]
async fn page(State(context): State<ApiContext>, _: Staff<can::Read>, Path(id): Path<i64>) -> Answer<MemberPage> {
    ok(members::page(&mut *context.db.pool.acquire().await?, id).await?)
}

/// `GET /api/admin/certificates/{id}/scan`: a certificate's scan, as uploaded.
#[utoipa::path(get, path = "/api/admin/certificates/{id}/scan", operation_id = "admin_certificate_scan", params(("id" = i64, Path, description = "证件 id")), tag = "后台", responses(
    (status = 200, description = "证件扫描件", content(("image/jpeg"), ("image/png"), ("application/pdf")))
))]
async fn scan(State(context): State<ApiContext>, _: Staff<can::Read>, Path(id): Path<i64>) -> Result<Response> {
    let (member, file_name, file_type) = members::scan(&mut *context.db.pool.acquire().await?, id).await?;
    crate::http::upload::serve(&context, Member { id: member }, &file_name, &file_type).await
}

/// A certificate approved, with the member's business scope.
#[derive(ToSchema)]
pub struct ApproveForm {
    /// 经营范围: class names separated by `、` or `,` (化学药制剂、中成药、中药饮片…); replaces the
    /// member's approved scope. Absent: the scope stays.
    scope: Option<String>,
}

impl FromFields for ApproveForm {
    fn from_fields(fields: &Fields) -> Result<ApproveForm> {
        // Present but empty means "no class": a scope is given, and it holds nothing.
        let given = fields.pairs().iter().any(|(key, _)| key == "scope");
        Ok(ApproveForm { scope: if given { Some(fields.text("scope").unwrap_or_default()) } else { None } })
    }
}

/// `POST /api/admin/certificates/{id}/approve`: approves a certificate (the member is approved
/// once the kinds its type requires are).
#[utoipa::path(post, path = "/api/admin/certificates/{id}/approve", operation_id = "admin_certificate_approve", params(("id" = i64, Path, description = "证件 id")), request_body(content = ApproveForm, content_type = "application/x-www-form-urlencoded"), tag = "后台", responses((status = 200, description = "已通过", body = Envelope<CertificateReviewed>)))]
async fn approve(
    State(context): State<ApiContext>,
    staff: Staff<can::ReviewMembers>,
    Path(id): Path<i64>,
    Form(form): Form<ApproveForm>,
) -> Answer<CertificateReviewed> {
    ok(members::approve_certificate(&mut *context.db.pool.acquire().await?, &staff.actor, id, form.scope.as_deref(), now()).await?)
}

/// A rejection's reason.
#[derive(ToSchema)]
pub struct ReasonForm {
    /// 驳回原因, which the member reads.
    reason: String,
}

impl FromFields for ReasonForm {
    fn from_fields(fields: &Fields) -> Result<ReasonForm> {
        Ok(ReasonForm { reason: fields.required("reason", "驳回原因")? })
    }
}

/// `POST /api/admin/certificates/{id}/reject`: rejects a certificate; the member uploads it again.
#[utoipa::path(post, path = "/api/admin/certificates/{id}/reject", operation_id = "admin_certificate_reject", params(("id" = i64, Path, description = "证件 id")), request_body(content = ReasonForm, content_type = "application/x-www-form-urlencoded"), tag = "后台", responses((status = 200, description = "已驳回", body = Envelope<CertificateReviewed>)))]
async fn reject(
    State(context): State<ApiContext>,
    staff: Staff<can::ReviewMembers>,
    Path(id): Path<i64>,
    Form(form): Form<ReasonForm>,
) -> Answer<CertificateReviewed> {
    ok(members::reject_certificate(&mut *context.db.pool.acquire().await?, &staff.actor, id, &form.reason, now()).await?)
}

/// A controlled-sales decision.
#[derive(ToSchema)]
pub struct ControlledSalesForm {
    /// `1` approves, `0` rejects.
    #[schema(value_type = i64)]
    approve: bool,
    /// 驳回原因 (required to reject).
    reason: Option<String>,
}

impl FromFields for ControlledSalesForm {
    fn from_fields(fields: &Fields) -> Result<ControlledSalesForm> {
        let approve = match fields.int("approve", "审核结果")? {
            Some(1) => true,
            Some(0) => false,
            _ => return Err(Error::field("approve", "请选择通过或驳回")),
        };
        Ok(ControlledSalesForm { approve, reason: fields.text("reason") })
    }
}

/// The application's state now.
#[derive(serde::Serialize, ToSchema)]
pub struct ControlledSalesReviewed {
    /// 0 待审核, 1 已通过, 2 未通过.
    status: i64,
}

/// `POST /api/admin/members/{id}/controlled-sales`: approves or rejects the member's
/// controlled-sales (控销) application.
#[utoipa::path(post, path = "/api/admin/members/{id}/controlled-sales", operation_id = "admin_member_controlled_sales", params(("id" = i64, Path, description = "会员 id")), request_body(content = ControlledSalesForm, content_type = "application/x-www-form-urlencoded"), tag = "后台", responses((status = 200, description = "审核结果", body = Envelope<ControlledSalesReviewed>)))]
async fn controlled_sales(
    State(context): State<ApiContext>,
    staff: Staff<can::ReviewMembers>,
    Path(id): Path<i64>,
    Form(form): Form<ControlledSalesForm>,
) -> Answer<ControlledSalesReviewed> {
    let reason = if form.approve { None } else { Some(form.reason.unwrap_or_default()) };
    let status =
        members::review_controlled_sales(&mut *context.db.pool.acquire().await?, &staff.actor, id, reason.as_deref(), now()).await?;
    ok(ControlledSalesReviewed { status: status.code() })
}
