//! 内容 in the console: banners and ads, the nav, hot search terms and footer links, listed,
//! added, changed and deleted (operations).

use axum::extract::{Path, State};
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::{Staff, can};
use crate::domain::staff::blocks::{self, Blocks, Fields as BlockFields, Kind};
use crate::http::ApiContext;
use crate::http::error::{Answer, Envelope, Error, Result, ok};
use crate::http::extract::{Fields, Form, FromFields};
use crate::now;

pub fn router() -> OpenApiRouter<ApiContext> {
    OpenApiRouter::new().routes(routes!(list)).routes(routes!(add)).routes(routes!(change, delete))
}

/// `GET /api/admin/blocks`: every ad (with the positions), nav entry, hot term and footer link.
#[utoipa::path(get, path = "/api/admin/blocks", operation_id = "admin_blocks", tag = "后台", responses((status = 200, description = "内容", body = Envelope<Blocks>)))]
async fn list(State(context): State<ApiContext>, _: Staff<can::Read>) -> Answer<Blocks> {
    ok(blocks::blocks(&mut *context.db.pool.acquire().await?).await?)
}

/// The block named in the path: `ad`, `nav`, `hot_term` or `link`.
fn kind(name: &str) -> Result<Kind> {
    match name {
        "ad" => Ok(Kind::Ad),
        "nav" => Ok(Kind::Nav),
        "hot_term" => Ok(Kind::HotTerm),
        "link" => Ok(Kind::Link),
        _ => Err(Error::not_found("没有这种内容")),
    }
}

/// A block's fields; for a change, those not sent stay.
#[derive(ToSchema)]
pub struct BlockForm {
    /// An ad's position: `focus` (首页轮播), a right-hand one (`xrtj`, `top`, …) or `brand:{id}`.
    position: Option<String>,
    /// An ad's title, a nav entry's or link's name, or the hot term.
    title: Option<String>,
    /// An ad's subtitle.
    subtitle: Option<String>,
    /// Where it leads: a page of the shop (`/zyyp`) or an `http(s)://` address (a link: only that).
    url: Option<String>,
    /// An ad's colour, `#RRGGBB`.
    color: Option<String>,
    /// A nav entry: `1` opens in a new window.
    #[schema(value_type = Option<i64>)]
    is_open: Option<bool>,
    /// Its place, smallest first (0–9999); a new one without it goes last.
    sort: Option<i64>,
}

impl FromFields for BlockForm {
    fn from_fields(fields: &Fields) -> Result<BlockForm> {
        let sent = |name: &str| fields.pairs().iter().any(|(key, _)| key == name).then(|| fields.text(name).unwrap_or_default());
        let is_open = match fields.int("is_open", "新窗口打开")? {
            None => None,
            Some(0) => Some(false),
            Some(1) => Some(true),
            Some(_) => return Err(Error::field("is_open", "新窗口打开只能是0或1")),
        };
        Ok(BlockForm {
            position: sent("position"),
            title: sent("title"),
            subtitle: sent("subtitle"),
            url: sent("url"),
            color: sent("color"),
            is_open,
            sort: fields.int("sort", "排序")?,
        })
    }
}

impl BlockForm {
    fn fields(self) -> BlockFields {
        BlockFields {
            position: self.position,
            title: self.title,
            subtitle: self.subtitle,
            url: self.url,
            color: self.color,
            is_open: self.is_open,
            sort: self.sort,
        }
    }
}

/// The block written.
#[derive(Serialize, ToSchema)]
pub struct BlockSaved {
    id: i64,
}

/// `POST /api/admin/blocks/{kind}`: adds an ad, nav entry, hot term or link.
#[utoipa::path(post, path = "/api/admin/blocks/{kind}", operation_id = "admin_block_add", params(("kind" = String, Path, description = "ad, nav, hot_term or link")), request_body(content = BlockForm, content_type = "application/x-www-form-urlencoded"), tag = "后台", responses((status = 200, description = "已添加", body = Envelope<BlockSaved>)))]
async fn add(
    State(context): State<ApiContext>,
    staff: Staff<can::Content>,
    Path(name): Path<String>,
    Form(form): Form<BlockForm>,
) -> Answer<BlockSaved> {
    let id = blocks::save(&mut *context.db.pool.acquire().await?, &staff.actor, kind(&name)?, None, &form.fields(), now()).await?;
    ok(BlockSaved { id })
}

/// `PUT /api/admin/blocks/{kind}/{id}`: changes a block (the fields sent).
#[utoipa::path(put, path = "/api/admin/blocks/{kind}/{id}", operation_id = "admin_block_change", params(("kind" = String, Path, description = "ad, nav, hot_term or link"), ("id" = i64, Path, description = "id")), request_body(content = BlockForm, content_type = "application/x-www-form-urlencoded"), tag = "后台", responses((status = 200, description = "已保存", body = Envelope<BlockSaved>)))]
async fn change(
    State(context): State<ApiContext>,
    staff: Staff<can::Content>,
    Path((name, id)): Path<(String, i64)>,
    Form(form): Form<BlockForm>,
) -> Answer<BlockSaved> {
    let id = blocks::save(&mut *context.db.pool.acquire().await?, &staff.actor, kind(&name)?, Some(id), &form.fields(), now()).await?;
    ok(BlockSaved { id })
}

/// `DELETE /api/admin/blocks/{kind}/{id}`: deletes a block.
#[utoipa::path(delete, path = "/api/admin/blocks/{kind}/{id}", operation_id = "admin_block_delete", params(("kind" = String, Path, description = "ad, nav, hot_term or link"), ("id" = i64, Path, description = "id")), tag = "后台", responses((status = 200, description = "已删除", body = Envelope<BlockSaved>)))]
async fn delete(
    State(context): State<ApiContext>,
    staff: Staff<can::Content>,
    Path((name, id)): Path<(String, i64)>,
) -> Answer<BlockSaved> {
    blocks::delete(&mut *context.db.pool.acquire().await?, &staff.actor, kind(&name)?, id, now()).await?;
    ok(BlockSaved { id })
}
