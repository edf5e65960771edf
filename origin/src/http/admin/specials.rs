//! 天天特价 in the console: the daily specials listed in the buyers' order, and written whole
//! (goods added, taken out, moved). The rules are `domain::staff::specials`'s.

use axum::extract::State;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::{Staff, can};
use crate::domain::staff::specials::{self, SpecialRow};
use crate::http::ApiContext;
use crate::http::error::{Answer, Envelope, Result, ok, ok_with};
use crate::http::extract::{Fields, Form, FromFields};
use crate::now;

pub fn router() -> OpenApiRouter<ApiContext> {
    OpenApiRouter::new().routes(routes!(list, change))
}

/// `GET /api/admin/specials`: the goods of 天天特价, in the order buyers see them.
#[utoipa::path(get, path = "/api/admin/specials", operation_id = "admin_specials", tag = "后台", responses((status = 200, description = "天天特价", body = Envelope<Vec<SpecialRow>>)))]
async fn list(State(context): State<ApiContext>, _: Staff<can::Read>) -> Answer<Vec<SpecialRow>> {
    ok(specials::list(&mut *context.db.pool.acquire().await?).await?)
}

/// The daily specials as the operator writes them.
#[derive(ToSchema)]
pub struct SpecialsForm {
    /// The goods, ids by commas in the order buyers see them (at most 100; empty for none).
    #[schema(value_type = String, example = "12,15,20")]
    goods: Vec<i64>,
}

impl FromFields for SpecialsForm {
    fn from_fields(fields: &Fields) -> Result<SpecialsForm> {
        Ok(SpecialsForm { goods: fields.ids("goods")? })
    }
}

/// How many goods 天天特价 holds now.
#[derive(Serialize, ToSchema)]
pub struct SpecialsSaved {
    count: usize,
}

/// `PUT /api/admin/specials`: makes the goods given 天天特价, in that order; a goods twice or
/// that does not exist is a 422 on `goods`.
#[utoipa::path(put, path = "/api/admin/specials", operation_id = "admin_specials_change", request_body(content = SpecialsForm, content_type = "application/x-www-form-urlencoded"), tag = "后台", responses((status = 200, description = "已保存", body = Envelope<SpecialsSaved>)))]
async fn change(State(context): State<ApiContext>, staff: Staff<can::Promotions>, Form(form): Form<SpecialsForm>) -> Answer<SpecialsSaved> {
    let count = specials::save(&mut *context.db.pool.acquire().await?, &staff.actor, &form.goods, now()).await?;
    ok_with("已保存天天特价", SpecialsSaved { count })
}
