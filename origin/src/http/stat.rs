//! What the web app reports (`web/src/lib/report.ts`): a page view per route change, and
//! anomalies it noticed — above all a cart quote of the browser's engine that differs from the
//! server's, which must never happen. Visitors report too; a member's reports carry their id.

use axum::extract::State;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::ApiContext;
use super::error::{Answer, Envelope, Error, Nothing, Result, ok};
use super::extract::{ClientAddress, FormFields, MaybeMember};
use crate::now;
use crate::security::{STATS_PER_ADDRESS, text};

pub fn router() -> OpenApiRouter<ApiContext> {
    OpenApiRouter::new().routes(routes!(page_view)).routes(routes!(report))
}

/// Page views and reports together: at most `security::STATS_PER_ADDRESS` a minute from one
/// address, so that no one fills the tables.
async fn throttle(context: &ApiContext, address: &str) -> Result<()> {
    if STATS_PER_ADDRESS.over(&context.db, address).await? {
        return Err(Error::too_many("操作过于频繁，请稍后再试"));
    }
    Ok(())
}

/// `POST /api/stat/page_view` (`route`, the route's name; `path`; `title`).
#[utoipa::path(post, path = "/api/stat/page_view", tag = "统计", responses((status = 200, description = "已记录（data 为 null）", body = Envelope<Nothing>)))]
async fn page_view(
    State(context): State<ApiContext>,
    MaybeMember(member): MaybeMember,
    ClientAddress(address): ClientAddress,
    FormFields(form): FormFields,
) -> Answer<Nothing> {
    throttle(&context, &address).await?;
    let path = form.required_bounded(text::PATH)?;
    let route = form.bounded(text::ROUTE)?.unwrap_or_default();
    let title = form.bounded(text::TITLE)?.unwrap_or_default();
    sqlx::query("INSERT INTO page_views (member_id, route, path, detail, created_at) VALUES ($1, $2, $3, $4, $5)")
        .bind(member.map(|member| member.id))
        .bind(route)
        .bind(path)
        .bind(title)
        .bind(now())
        .execute(&context.db.pool)
        .await?;
    ok(Nothing)
}

/// `POST /api/stat/report` (`kind`, `path`, `detail`): an anomaly the app noticed.
#[utoipa::path(post, path = "/api/stat/report", tag = "统计", responses((status = 200, description = "已记录（data 为 null）", body = Envelope<Nothing>)))]
async fn report(
    State(context): State<ApiContext>,
    MaybeMember(member): MaybeMember,
    ClientAddress(address): ClientAddress,
    FormFields(form): FormFields,
) -> Answer<Nothing> {
    throttle(&context, &address).await?;
    let kind = form.required_bounded(text::KIND)?;
    let path = form.bounded(text::PATH)?.unwrap_or_default();
    let detail = form.bounded(text::DETAIL)?.unwrap_or_default();
    tracing::warn!(kind, path, "the web app reported an anomaly");
    sqlx::query("INSERT INTO client_reports (member_id, kind, path, detail, created_at) VALUES ($1, $2, $3, $4, $5)")
        .bind(member.map(|member| member.id))
        .bind(kind)
        .bind(path)
        .bind(detail)
        .bind(now())
        .execute(&context.db.pool)
        .await?;
    ok(Nothing)
}
