//! 操作日志: the audit trail, filterable, read only (nothing changes it, `domain::staff::audit`).

use axum::extract::State;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::{Page, Staff, can, day, paging};
use crate::domain::staff::audit::{self, AuditRow, Filter};
use crate::http::ApiContext;
use crate::http::error::{Answer, Envelope, Result, ok};
use crate::http::extract::{Fields, FromFields, Query};

pub fn router() -> OpenApiRouter<ApiContext> {
    OpenApiRouter::new().routes(routes!(list))
}

/// Which rows.
#[derive(utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ListQuery {
    /// The operator's account (`cli` names of the commands as given).
    operator: Option<String>,
    /// An action (`order.ship`) or its start (`order.`).
    action: Option<String>,
    /// A target (`order:12`) or text of the summary (an order number).
    search: Option<String>,
    member: Option<i64>,
    /// From this day, `YYYY-MM-DD`.
    #[param(value_type = Option<String>)]
    from: Option<i64>,
    /// To this day, `YYYY-MM-DD`, inclusive.
    #[param(value_type = Option<String>)]
    to: Option<i64>,
    #[param(value_type = Option<i64>)]
    page: i64,
    #[param(value_type = Option<i64>)]
    size: i64,
}

impl FromFields for ListQuery {
    fn from_fields(fields: &Fields) -> Result<ListQuery> {
        let (page, size) = paging(fields)?;
        Ok(ListQuery {
            operator: fields.text("operator"),
            action: fields.text("action"),
            search: fields.text("search"),
            member: fields.int("member", "会员")?,
            from: day(fields, "from", "开始日期")?,
            to: day(fields, "to", "结束日期")?.map(|day| day + 86_400),
            page,
            size,
        })
    }
}

/// `GET /api/admin/audit`: the audit trail, newest first.
#[utoipa::path(get, path = "/api/admin/audit", operation_id = "admin_audit", params(ListQuery), tag = "后台", responses((status = 200, description = "操作日志", body = Envelope<Page<AuditRow>>)))]
async fn list(State(context): State<ApiContext>, _: Staff<can::ReadAudit>, Query(query): Query<ListQuery>) -> Answer<Page<AuditRow>> {
    let ListQuery { operator, action, search, member, from, to, page, size } = query;
    let filter = Filter { operator, action, search, member, from, to };
    let (list, total) = audit::list(&mut *context.db.pool.acquire().await?, &filter, page, size).await?;
    ok(Page { list, total, page, size })
}
