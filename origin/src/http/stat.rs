//! What the web app reports (`web/src/lib/report.ts`): a page view per route change, and
//! anomalies it noticed — above all a cart quote of the browser's engine that differs from the
//! server's, which must never happen. Visitors report too; a member's reports carry their id.

use axum::extract::State;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::ApiContext;
use super::error::{Answer, Envelope, Error, Nothing, ok};
use super::extract::{FormFields, MaybeMember};
use crate::now;

pub fn router() -> OpenApiRouter<ApiContext> {
    OpenApiRouter::new().routes(routes!(page_view)).routes(routes!(report))
}

/// Longest text kept from a report field, in characters.
const MAX_TEXT: usize = 2000;

fn clipped(text: Option<String>) -> String {
    text.unwrap_or_default().chars().take(MAX_TEXT).collect()
}

/// `POST /api/stat/page_view` (`route`, the route's name; `path`; `title`).
#[utoipa::path(post, path = "/api/stat/page_view", tag = "统计", responses((status = 200, description = "已记录（data 为 null）", body = Envelope<Nothing>)))]
async fn page_view(State(context): State<ApiContext>, MaybeMember(member): MaybeMember, FormFields(form): FormFields) -> Answer<Nothing> {
    let path = form.required("path", "页面路径")?;
    sqlx::query("INSERT INTO page_views (member_id, route, path, detail, created_at) VALUES ($1, $2, $3, $4, $5)")
        .bind(member.map(|member| member.id))
        .bind(clipped(form.text("route")))
        .bind(clipped(Some(path)))
        .bind(clipped(form.text("title")))
        .bind(now())
        .execute(&context.db.pool)
        .await?;
    ok(Nothing)
}

/// `POST /api/stat/report` (`kind`, `path`, `detail`): an anomaly the app noticed.
#[utoipa::path(post, path = "/api/stat/report", tag = "统计", responses((status = 200, description = "已记录（data 为 null）", body = Envelope<Nothing>)))]
async fn report(State(context): State<ApiContext>, MaybeMember(member): MaybeMember, FormFields(form): FormFields) -> Answer<Nothing> {
    let kind = form.required("kind", "类型")?;
    if kind.len() > 40 {
        return Err(Error::field("kind", "类型不正确"));
    }
    tracing::warn!(kind, path = form.text("path"), "the web app reported an anomaly");
    sqlx::query("INSERT INTO client_reports (member_id, kind, path, detail, created_at) VALUES ($1, $2, $3, $4, $5)")
        .bind(member.map(|member| member.id))
        .bind(kind)
        .bind(clipped(form.text("path")))
        .bind(clipped(form.text("detail")))
        .bind(now())
        .execute(&context.db.pool)
        .await?;
    ok(Nothing)
}
