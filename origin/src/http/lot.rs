//! A lot's inspection report (质检报告), linked from the lots an order shipped
//! (docs/compliance.md, "Lots, shipments and the delivery note").

use axum::extract::{Path, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::ApiContext;
use super::error::{Error, Result};
use super::extract::Member;
use crate::domain::catalogue::lots;

pub fn router() -> OpenApiRouter<ApiContext> {
    OpenApiRouter::new().routes(routes!(report))
}

/// `GET /api/lot/{id}/report`: a lot's inspection report as kept (PDF, JPEG or PNG), for a
/// signed-in member; 404 when the lot has none.
#[utoipa::path(get, path = "/api/lot/{id}/report", operation_id = "lot_report", tag = "订单", responses((status = 200, description = "质检报告（PDF或图片）", content_type = "application/pdf", body = String)))]
async fn report(State(context): State<ApiContext>, _member: Member, Path(id): Path<i64>) -> Result<Response> {
    let mut conn = context.db.pool.acquire().await?;
    let Some((content_type, body)) = lots::report(&mut conn, id).await? else {
        return Err(Error::not_found("该批号暂无质检报告"));
    };
    Ok(served(id, content_type, body))
}

/// Lot `id`'s inspection report as a response: shown in the browser, kept private.
pub(crate) fn served(id: i64, content_type: String, body: Vec<u8>) -> Response {
    let extension = match content_type.as_str() {
        "application/pdf" => "pdf",
        "image/png" => "png",
        _ => "jpg",
    };
    (
        [
            (header::CONTENT_TYPE, content_type),
            (header::CACHE_CONTROL, "private, max-age=3600".to_owned()),
            (header::X_CONTENT_TYPE_OPTIONS, "nosniff".to_owned()),
            (header::CONTENT_DISPOSITION, format!("inline; filename=\"report-{id}.{extension}\"")),
        ],
        body,
    )
        .into_response()
}
