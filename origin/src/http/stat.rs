//! What the web app reports (`web/src/lib/report.ts`): a page view per route change, and
//! anomalies it noticed — above all a cart quote of the browser's engine that differs from the
//! server's, which must never happen. Visitors report too; a member's reports carry their id.

use axum::extract::State;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::ApiContext;
use super::error::{Answer, Envelope, Error, Nothing, Result, ok};
use super::extract::{ClientAddress, Fields, Form, FromFields, MaybeMember, checked, required_checked};
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

/// A page the member saw. Its texts are checked against their limits after the address's rate
/// (every call counts, whatever it holds).
#[derive(ToSchema)]
pub struct PageViewForm {
    /// 路由: the route's name.
    route: Option<String>,
    /// 页面路径 (required).
    #[schema(value_type = String)]
    path: Option<String>,
    /// 页面标题.
    title: Option<String>,
}

impl FromFields for PageViewForm {
    fn from_fields(form: &Fields) -> Result<PageViewForm> {
        Ok(PageViewForm { route: form.text("route"), path: form.text("path"), title: form.text("title") })
    }
}

/// An anomaly the app noticed; checked after the address's rate, as a page view.
#[derive(ToSchema)]
pub struct ReportForm {
    /// 类型 (required).
    #[schema(value_type = String)]
    kind: Option<String>,
    /// 页面路径.
    path: Option<String>,
    /// 详情 (lines).
    detail: Option<String>,
}

impl FromFields for ReportForm {
    fn from_fields(form: &Fields) -> Result<ReportForm> {
        Ok(ReportForm { kind: form.text("kind"), path: form.text("path"), detail: form.text("detail") })
    }
}

/// `POST /api/stat/page_view` (`route`, the route's name; `path`; `title`).
#[utoipa::path(post, path = "/api/stat/page_view", request_body(content = PageViewForm, content_type = "application/x-www-form-urlencoded"), tag = "统计", responses((status = 200, description = "已记录（data 为 null）", body = Envelope<Nothing>)))]
async fn page_view(
    State(context): State<ApiContext>,
    MaybeMember(member): MaybeMember,
    ClientAddress(address): ClientAddress,
    Form(view): Form<PageViewForm>,
) -> Answer<Nothing> {
    throttle(&context, &address).await?;
    let path = required_checked(text::PATH, view.path)?;
    let route = checked(text::ROUTE, view.route)?.unwrap_or_default();
    let title = checked(text::TITLE, view.title)?.unwrap_or_default();
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
#[utoipa::path(post, path = "/api/stat/report", request_body(content = ReportForm, content_type = "application/x-www-form-urlencoded"), tag = "统计", responses((status = 200, description = "已记录（data 为 null）", body = Envelope<Nothing>)))]
async fn report(
    State(context): State<ApiContext>,
    MaybeMember(member): MaybeMember,
    ClientAddress(address): ClientAddress,
    Form(report): Form<ReportForm>,
) -> Answer<Nothing> {
    throttle(&context, &address).await?;
    let kind = required_checked(text::KIND, report.kind)?;
    let path = checked(text::PATH, report.path)?.unwrap_or_default();
    let detail = checked(text::DETAIL, report.detail)?.unwrap_or_default();
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
