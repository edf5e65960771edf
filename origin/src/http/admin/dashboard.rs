//! `GET /api/admin/dashboard`: the console's 工作台.

use axum::extract::State;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::{Staff, can};
use crate::domain::staff::dashboard::{self, Dashboard};
use crate::http::ApiContext;
use crate::http::error::{Answer, Envelope, ok};
use crate::now;

pub fn router() -> OpenApiRouter<ApiContext> {
    OpenApiRouter::new().routes(routes!(read))
}

/// `GET /api/admin/dashboard`: today's orders, sales and payments, what waits, low stock,
/// expiring lots and licences, sales by day.
#[utoipa::path(get, path = "/api/admin/dashboard", operation_id = "admin_dashboard", tag = "后台", responses((status = 200, description = "工作台", body = Envelope<Dashboard>)))]
async fn read(State(context): State<ApiContext>, _: Staff<can::Read>) -> Answer<Dashboard> {
    ok(dashboard::read(&mut *context.db.pool.acquire().await?, now()).await?)
}
