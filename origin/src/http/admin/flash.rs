//! 秒杀 sessions in the console: listed, added and changed (goods, price, per-member limit,
//! time), ended, and previewed by the engine before they are saved. The rules are
//! `domain::staff::flash`'s.

use axum::extract::{Path, State};
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::{Staff, can};
use crate::domain::staff::flash::{self, Draft, FlashPreview, FlashRow};
use crate::http::ApiContext;
use crate::http::error::{Answer, Envelope, Error, Result, ok, ok_with};
use crate::http::extract::{Fields, Form, FromFields, Query};
use crate::money;
use crate::now;

pub fn router() -> OpenApiRouter<ApiContext> {
    OpenApiRouter::new().routes(routes!(list, create)).routes(routes!(preview)).routes(routes!(change)).routes(routes!(end))
}

/// Which sessions.
#[derive(utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct FlashQuery {
    /// Only this goods' sessions.
    #[param(value_type = Option<i64>)]
    goods: Option<i64>,
}

impl FromFields for FlashQuery {
    fn from_fields(fields: &Fields) -> Result<FlashQuery> {
        Ok(FlashQuery { goods: fields.int("goods", "商品")? })
    }
}

/// `GET /api/admin/flash-sales`: the sessions, the latest start first (at most 500), each with
/// where it stands and the units ordered in it.
#[utoipa::path(get, path = "/api/admin/flash-sales", operation_id = "admin_flash_sales", params(FlashQuery), tag = "后台", responses((status = 200, description = "秒杀场次", body = Envelope<Vec<FlashRow>>)))]
async fn list(State(context): State<ApiContext>, _: Staff<can::Read>, Query(query): Query<FlashQuery>) -> Answer<Vec<FlashRow>> {
    ok(flash::list(&mut *context.db.pool.acquire().await?, query.goods, now()).await?)
}

/// A session as the operator writes it.
#[derive(ToSchema)]
pub struct FlashForm {
    /// 秒杀商品.
    goods_id: i64,
    /// 秒杀价, below the goods' own price.
    #[schema(example = "19.90")]
    price: String,
    /// 每人限购, 1 to 9999, in the goods' unit.
    limit_number: i64,
    /// 开始时间, Unix seconds.
    starts_at: i64,
    /// 结束时间, Unix seconds, after the start (and after now, for a new session).
    ends_at: i64,
}

impl FromFields for FlashForm {
    fn from_fields(fields: &Fields) -> Result<FlashForm> {
        let time = |name: &str, label: &str| -> Result<i64> {
            match fields.int(name, label)? {
                Some(seconds) if seconds > 0 => Ok(seconds),
                _ => Err(Error::field(name, format!("请选择{label}"))),
            }
        };
        Ok(FlashForm {
            goods_id: fields.int("goods_id", "秒杀商品")?.unwrap_or(0),
            price: fields.text("price").unwrap_or_default(),
            limit_number: fields.int("limit_number", "每人限购")?.unwrap_or(0),
            starts_at: time("starts_at", "开始时间")?,
            ends_at: time("ends_at", "结束时间")?,
        })
    }
}

impl FlashForm {
    fn draft(&self) -> Result<Draft> {
        let price = money::parse_stored(self.price.trim())
            .filter(|_| engine::Money::parse(self.price.trim()).is_ok_and(|money| money.decimal().scale() <= 2))
            .ok_or_else(|| Error::field("price", "秒杀价应为金额，最多两位小数"))?;
        Ok(Draft { goods_id: self.goods_id, price, limit_number: self.limit_number, starts_at: self.starts_at, ends_at: self.ends_at })
    }
}

/// The session saved.
#[derive(Serialize, ToSchema)]
pub struct FlashSaved {
    id: i64,
}

/// `POST /api/admin/flash-sales`: adds a session; every wrong field a 422 on its field, a
/// session of the goods overlapping it a 409 naming it.
#[utoipa::path(post, path = "/api/admin/flash-sales", operation_id = "admin_flash_sales_add", request_body(content = FlashForm, content_type = "application/x-www-form-urlencoded"), tag = "后台", responses((status = 200, description = "新增的场次", body = Envelope<FlashSaved>)))]
async fn create(State(context): State<ApiContext>, staff: Staff<can::Promotions>, Form(form): Form<FlashForm>) -> Answer<FlashSaved> {
    let draft = form.draft()?;
    let id = flash::save(&mut *context.db.pool.acquire().await?, &staff.actor, None, draft, now()).await?;
    ok_with("已新增秒杀", FlashSaved { id })
}

/// `PUT /api/admin/flash-sales/{id}`: changes a session that has not ended.
#[utoipa::path(put, path = "/api/admin/flash-sales/{id}", operation_id = "admin_flash_sales_change", params(("id" = i64, Path, description = "场次 id")), request_body(content = FlashForm, content_type = "application/x-www-form-urlencoded"), tag = "后台", responses((status = 200, description = "已保存", body = Envelope<FlashSaved>)))]
async fn change(
    State(context): State<ApiContext>,
    staff: Staff<can::Promotions>,
    Path(id): Path<i64>,
    Form(form): Form<FlashForm>,
) -> Answer<FlashSaved> {
    let draft = form.draft()?;
    flash::save(&mut *context.db.pool.acquire().await?, &staff.actor, Some(id), draft, now()).await?;
    ok_with("已保存秒杀", FlashSaved { id })
}

/// `POST /api/admin/flash-sales/{id}/end`: ends a session now; 409 when it has ended.
#[utoipa::path(post, path = "/api/admin/flash-sales/{id}/end", operation_id = "admin_flash_sales_end", params(("id" = i64, Path, description = "场次 id")), tag = "后台", responses((status = 200, description = "已结束", body = Envelope<FlashSaved>)))]
async fn end(State(context): State<ApiContext>, staff: Staff<can::Promotions>, Path(id): Path<i64>) -> Answer<FlashSaved> {
    flash::end(&mut *context.db.pool.acquire().await?, &staff.actor, id, now()).await?;
    ok_with("秒杀已结束", FlashSaved { id })
}

/// `POST /api/admin/flash-sales/preview`: the engine's quote of the limit's quantity at the
/// session's price and at the goods' own. Saves nothing.
#[utoipa::path(post, path = "/api/admin/flash-sales/preview", operation_id = "admin_flash_sales_preview", request_body(content = FlashForm, content_type = "application/x-www-form-urlencoded"), tag = "后台", responses((status = 200, description = "试算", body = Envelope<FlashPreview>)))]
async fn preview(State(context): State<ApiContext>, _: Staff<can::Read>, Form(form): Form<FlashForm>) -> Answer<FlashPreview> {
    let draft = form.draft()?;
    ok(flash::preview(&mut *context.db.pool.acquire().await?, &draft, now()).await?)
}
