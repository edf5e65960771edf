//! 意见反馈, 品种求购 and 积分订单 in the console: the lists; feedback replied to and wanted
//! varieties answered (customer service); points orders shipped (the warehouse).

use axum::extract::{Path, State};
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::{Staff, can};
use crate::domain::self_service::WantedStatus;
use crate::domain::staff::service::{self, FeedbackRow, PointsOrderRow, WantedRow};
use crate::http::ApiContext;
use crate::http::error::{Answer, Envelope, Error, Result, ok};
use crate::http::extract::{Fields, Form, FromFields, Query};
use crate::now;

pub fn router() -> OpenApiRouter<ApiContext> {
    OpenApiRouter::new()
        .routes(routes!(feedback))
        .routes(routes!(reply_feedback))
        .routes(routes!(wanted))
        .routes(routes!(answer_wanted))
        .routes(routes!(points_orders))
        .routes(routes!(ship_points))
}

/// Only the open ones, or all.
#[derive(utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct OpenQuery {
    /// `1`: only those waiting.
    #[param(value_type = Option<i64>)]
    open: bool,
}

impl FromFields for OpenQuery {
    fn from_fields(fields: &Fields) -> Result<OpenQuery> {
        Ok(OpenQuery { open: fields.int("open", "待处理")?.unwrap_or(0) == 1 })
    }
}

/// Done.
#[derive(Serialize, ToSchema)]
pub struct Answered {
    id: i64,
}

/// `GET /api/admin/feedback`: feedback, newest first.
#[utoipa::path(get, path = "/api/admin/feedback", operation_id = "admin_feedback", params(OpenQuery), tag = "后台", responses((status = 200, description = "意见反馈", body = Envelope<Vec<FeedbackRow>>)))]
async fn feedback(State(context): State<ApiContext>, _: Staff<can::Read>, Query(query): Query<OpenQuery>) -> Answer<Vec<FeedbackRow>> {
    ok(service::feedback(&mut *context.db.pool.acquire().await?, query.open).await?)
}

/// A reply.
#[derive(ToSchema)]
pub struct ReplyForm {
    /// 回复内容, which the member reads.
    reply: String,
    /// Wanted varieties only: `1` 已上架, `2` 暂无货源.
    #[schema(value_type = Option<i64>)]
    status: Option<i64>,
}

impl FromFields for ReplyForm {
    fn from_fields(fields: &Fields) -> Result<ReplyForm> {
        Ok(ReplyForm { reply: fields.required("reply", "回复内容")?, status: fields.int("status", "处理结果")? })
    }
}

/// `POST /api/admin/feedback/{id}/reply`: replies to feedback, once.
#[utoipa::path(post, path = "/api/admin/feedback/{id}/reply", operation_id = "admin_feedback_reply", params(("id" = i64, Path, description = "反馈 id")), request_body(content = ReplyForm, content_type = "application/x-www-form-urlencoded"), tag = "后台", responses((status = 200, description = "已回复", body = Envelope<Answered>)))]
async fn reply_feedback(
    State(context): State<ApiContext>,
    staff: Staff<can::Feedback>,
    Path(id): Path<i64>,
    Form(form): Form<ReplyForm>,
) -> Answer<Answered> {
    service::reply_feedback(&mut *context.db.pool.acquire().await?, &staff.actor, id, &form.reply, now()).await?;
    ok(Answered { id })
}

/// `GET /api/admin/wanted`: wanted varieties, newest first.
#[utoipa::path(get, path = "/api/admin/wanted", operation_id = "admin_wanted", params(OpenQuery), tag = "后台", responses((status = 200, description = "品种求购", body = Envelope<Vec<WantedRow>>)))]
async fn wanted(State(context): State<ApiContext>, _: Staff<can::Read>, Query(query): Query<OpenQuery>) -> Answer<Vec<WantedRow>> {
    ok(service::wanted(&mut *context.db.pool.acquire().await?, query.open).await?)
}

/// `POST /api/admin/wanted/{id}/answer`: answers a wanted variety (`status` 1 已上架 or 2 暂无货源).
#[utoipa::path(post, path = "/api/admin/wanted/{id}/answer", operation_id = "admin_wanted_answer", params(("id" = i64, Path, description = "求购 id")), request_body(content = ReplyForm, content_type = "application/x-www-form-urlencoded"), tag = "后台", responses((status = 200, description = "已答复", body = Envelope<Answered>)))]
async fn answer_wanted(
    State(context): State<ApiContext>,
    staff: Staff<can::Feedback>,
    Path(id): Path<i64>,
    Form(form): Form<ReplyForm>,
) -> Answer<Answered> {
    let status = form
        .status
        .and_then(WantedStatus::from_code)
        .filter(|status| *status != WantedStatus::Waiting)
        .ok_or_else(|| Error::field("status", "请选择已上架或暂无货源"))?;
    service::answer_wanted(&mut *context.db.pool.acquire().await?, &staff.actor, id, status, &form.reply, now()).await?;
    ok(Answered { id })
}

/// Only those waiting to be shipped, or all.
#[derive(utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct PendingQuery {
    /// `1`: only those waiting to be shipped.
    #[param(value_type = Option<i64>)]
    pending: bool,
}

impl FromFields for PendingQuery {
    fn from_fields(fields: &Fields) -> Result<PendingQuery> {
        Ok(PendingQuery { pending: fields.int("pending", "待发货")?.unwrap_or(0) == 1 })
    }
}

/// `GET /api/admin/points-orders`: points-mall orders, newest first.
#[utoipa::path(get, path = "/api/admin/points-orders", operation_id = "admin_points_orders", params(PendingQuery), tag = "后台", responses((status = 200, description = "积分订单", body = Envelope<Vec<PointsOrderRow>>)))]
async fn points_orders(
    State(context): State<ApiContext>,
    _: Staff<can::Read>,
    Query(query): Query<PendingQuery>,
) -> Answer<Vec<PointsOrderRow>> {
    ok(service::points_orders(&mut *context.db.pool.acquire().await?, query.pending).await?)
}

/// A points order's parcel.
#[derive(ToSchema)]
pub struct PointsShipForm {
    /// 物流公司.
    carrier: String,
    /// 运单号.
    tracking: String,
}

impl FromFields for PointsShipForm {
    fn from_fields(fields: &Fields) -> Result<PointsShipForm> {
        Ok(PointsShipForm { carrier: fields.required("carrier", "物流公司")?, tracking: fields.required("tracking", "运单号")? })
    }
}

/// `POST /api/admin/points-orders/{id}/ship`: ships a points order (the member is told).
#[utoipa::path(post, path = "/api/admin/points-orders/{id}/ship", operation_id = "admin_points_order_ship", params(("id" = i64, Path, description = "积分订单 id")), request_body(content = PointsShipForm, content_type = "application/x-www-form-urlencoded"), tag = "后台", responses((status = 200, description = "已发货", body = Envelope<Answered>)))]
async fn ship_points(
    State(context): State<ApiContext>,
    staff: Staff<can::Ship>,
    Path(id): Path<i64>,
    Form(form): Form<PointsShipForm>,
) -> Answer<Answered> {
    service::ship_points(&mut *context.db.pool.acquire().await?, &staff.actor, id, &form.carrier, &form.tracking, now()).await?;
    ok(Answered { id })
}
