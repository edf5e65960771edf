//! 组合购 sets in the console: listed, added and changed (name, goods × quantities, price, stock),
//! and previewed by the engine against their goods bought apart. The rules are
//! `domain::staff::combinations`'s.

use axum::extract::{Path, State};
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::{Staff, can};
use crate::domain::staff::combinations::{self, Draft, SetPreview, SetRow};
use crate::http::ApiContext;
use crate::http::error::{Answer, Envelope, Error, Result, ok, ok_with};
use crate::http::extract::{Fields, Form, FromFields};
use crate::money;
use crate::now;

pub fn router() -> OpenApiRouter<ApiContext> {
    OpenApiRouter::new().routes(routes!(list, create)).routes(routes!(preview)).routes(routes!(change))
}

/// `GET /api/admin/combinations`: every set, newest first, with its goods, its price against
/// them bought apart, its stock and the sets ordered.
#[utoipa::path(get, path = "/api/admin/combinations", operation_id = "admin_combinations", tag = "后台", responses((status = 200, description = "组合购", body = Envelope<Vec<SetRow>>)))]
async fn list(State(context): State<ApiContext>, _: Staff<can::Read>) -> Answer<Vec<SetRow>> {
    ok(combinations::list(&mut *context.db.pool.acquire().await?).await?)
}

/// A set as the operator writes it.
#[derive(ToSchema)]
pub struct SetForm {
    /// 组合名称, at most 30 characters.
    #[schema(example = "感冒组合装")]
    name: String,
    /// 组合价, below its goods bought apart.
    #[schema(example = "99.00")]
    price: String,
    /// 组合库存: sets for sale; 0 stops selling it.
    stock: i64,
    /// 商品: `goods:quantity` by commas, 2 to 10 goods.
    #[schema(example = "12:2,15:1")]
    items: String,
}

impl FromFields for SetForm {
    fn from_fields(fields: &Fields) -> Result<SetForm> {
        Ok(SetForm {
            name: fields.text("name").unwrap_or_default(),
            price: fields.text("price").unwrap_or_default(),
            stock: fields.int("stock", "组合库存")?.unwrap_or(0),
            items: fields.text("items").unwrap_or_default(),
        })
    }
}

impl SetForm {
    fn draft(&self) -> Result<Draft> {
        let text = self.price.trim();
        let scale_ok = engine::Money::parse(text).is_ok_and(|money| money.decimal().scale() <= 2);
        let price = money::parse_stored(text).filter(|_| scale_ok).ok_or_else(|| Error::field("price", "组合价应为金额，最多两位小数"))?;
        let items = combinations::read_items(&self.items).map_err(|message| Error::field("items", message))?;
        Ok(Draft { name: self.name.clone(), price, stock: self.stock, items })
    }
}

/// The set saved.
#[derive(Serialize, ToSchema)]
pub struct SetSaved {
    id: i64,
}

/// `POST /api/admin/combinations`: adds a set; every wrong field a 422 on its field.
#[utoipa::path(post, path = "/api/admin/combinations", operation_id = "admin_combinations_add", request_body(content = SetForm, content_type = "application/x-www-form-urlencoded"), tag = "后台", responses((status = 200, description = "新增的组合", body = Envelope<SetSaved>)))]
async fn create(State(context): State<ApiContext>, staff: Staff<can::Promotions>, Form(form): Form<SetForm>) -> Answer<SetSaved> {
    let draft = form.draft()?;
    let id = combinations::save(&mut *context.db.pool.acquire().await?, &staff.actor, None, draft, now()).await?;
    ok_with("已新增组合", SetSaved { id })
}

/// `PUT /api/admin/combinations/{id}`: replaces a set's name, price, stock and goods; buyers'
/// cart lines of it are priced at the new price on their next quote.
#[utoipa::path(put, path = "/api/admin/combinations/{id}", operation_id = "admin_combinations_change", params(("id" = i64, Path, description = "组合 id")), request_body(content = SetForm, content_type = "application/x-www-form-urlencoded"), tag = "后台", responses((status = 200, description = "已保存", body = Envelope<SetSaved>)))]
async fn change(
    State(context): State<ApiContext>,
    staff: Staff<can::Promotions>,
    Path(id): Path<i64>,
    Form(form): Form<SetForm>,
) -> Answer<SetSaved> {
    let draft = form.draft()?;
    combinations::save(&mut *context.db.pool.acquire().await?, &staff.actor, Some(id), draft, now()).await?;
    ok_with("已保存组合", SetSaved { id })
}

/// `POST /api/admin/combinations/preview`: one set against its goods bought apart, priced by
/// the engine. Saves nothing.
#[utoipa::path(post, path = "/api/admin/combinations/preview", operation_id = "admin_combinations_preview", request_body(content = SetForm, content_type = "application/x-www-form-urlencoded"), tag = "后台", responses((status = 200, description = "试算", body = Envelope<SetPreview>)))]
async fn preview(State(context): State<ApiContext>, _: Staff<can::Read>, Form(form): Form<SetForm>) -> Answer<SetPreview> {
    let draft = form.draft()?;
    ok(combinations::preview(&mut *context.db.pool.acquire().await?, &draft, now()).await?)
}
