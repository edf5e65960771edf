//! 抽奖 activities in the console: listed with their prizes and each prize's chance now, added,
//! changed and ended, and a draft's chances previewed before it is saved. The rules are
//! `domain::staff::draws`'s.

use axum::extract::{Path, State};
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::{Staff, can};
use crate::domain::staff::draws::{self, Draft, DrawRow, PrizeChance};
use crate::http::ApiContext;
use crate::http::error::{Answer, Envelope, Error, Result, ok, ok_with};
use crate::http::extract::{Fields, Form, FromFields};
use crate::now;

pub fn router() -> OpenApiRouter<ApiContext> {
    OpenApiRouter::new().routes(routes!(list, create)).routes(routes!(preview)).routes(routes!(change)).routes(routes!(end))
}

/// `GET /api/admin/draws`: every lucky-draw activity, newest first, with where it stands, the
/// members who drew, and its prizes with what each has handed out and its chance now.
#[utoipa::path(get, path = "/api/admin/draws", operation_id = "admin_draws", tag = "后台", responses((status = 200, description = "抽奖活动", body = Envelope<Vec<DrawRow>>)))]
async fn list(State(context): State<ApiContext>, _: Staff<can::Read>) -> Answer<Vec<DrawRow>> {
    ok(draws::list(&mut *context.db.pool.acquire().await?, now()).await?)
}

/// A lucky-draw activity as the operator writes it.
#[derive(ToSchema)]
pub struct DrawForm {
    /// 活动名称, at most 30 characters.
    #[schema(example = "新春抽奖")]
    title: String,
    /// 活动说明, at most 200 characters.
    description: Option<String>,
    /// 开始时间, Unix seconds.
    starts_at: i64,
    /// 结束时间, Unix seconds, after the start (and after now, for a new activity).
    ends_at: i64,
    /// 奖品: a JSON array of `PrizeDraft` (2 to 12, exactly one 谢谢参与, kind 0); a saved
    /// prize keeps its `id`, one left out is taken out (not when drawn).
    #[schema(example = r#"[{"name":"谢谢参与","kind":0,"weight":50},{"name":"10积分","kind":2,"points":10,"weight":50,"stock":100}]"#)]
    prizes: String,
}

impl FromFields for DrawForm {
    fn from_fields(fields: &Fields) -> Result<DrawForm> {
        let time = |name: &str, label: &str| -> Result<i64> {
            match fields.int(name, label)? {
                Some(seconds) if seconds > 0 => Ok(seconds),
                _ => Err(Error::field(name, format!("请选择{label}"))),
            }
        };
        Ok(DrawForm {
            title: fields.text("title").unwrap_or_default(),
            description: fields.text("description"),
            starts_at: time("starts_at", "开始时间")?,
            ends_at: time("ends_at", "结束时间")?,
            prizes: fields.text("prizes").unwrap_or_default(),
        })
    }
}

impl DrawForm {
    fn draft(self) -> Result<Draft> {
        let prizes = draws::read_prizes(&self.prizes).map_err(|message| Error::field("prizes", message))?;
        Ok(Draft {
            title: self.title,
            description: self.description.unwrap_or_default(),
            starts_at: self.starts_at,
            ends_at: self.ends_at,
            prizes,
        })
    }
}

/// The activity saved or ended.
#[derive(Serialize, ToSchema)]
pub struct DrawSaved {
    id: i64,
}

/// `POST /api/admin/draws`: adds an activity; every wrong field a 422 on its field, a schedule
/// overlapping another activity a 409 naming it.
#[utoipa::path(post, path = "/api/admin/draws", operation_id = "admin_draws_add", request_body(content = DrawForm, content_type = "application/x-www-form-urlencoded"), tag = "后台", responses((status = 200, description = "新增的活动", body = Envelope<DrawSaved>)))]
async fn create(State(context): State<ApiContext>, staff: Staff<can::Promotions>, Form(form): Form<DrawForm>) -> Answer<DrawSaved> {
    let id = draws::save(&mut *context.db.pool.acquire().await?, &staff.actor, None, form.draft()?, now()).await?;
    ok_with("已新增抽奖活动", DrawSaved { id })
}

/// `PUT /api/admin/draws/{id}`: replaces an activity's title, schedule and prizes; a prize drawn
/// keeps its kind and stays, its stock not below what was handed out (422 on `prizes`).
#[utoipa::path(put, path = "/api/admin/draws/{id}", operation_id = "admin_draws_change", params(("id" = i64, Path, description = "活动 id")), request_body(content = DrawForm, content_type = "application/x-www-form-urlencoded"), tag = "后台", responses((status = 200, description = "已保存", body = Envelope<DrawSaved>)))]
async fn change(
    State(context): State<ApiContext>,
    staff: Staff<can::Promotions>,
    Path(id): Path<i64>,
    Form(form): Form<DrawForm>,
) -> Answer<DrawSaved> {
    draws::save(&mut *context.db.pool.acquire().await?, &staff.actor, Some(id), form.draft()?, now()).await?;
    ok_with("已保存抽奖活动", DrawSaved { id })
}

/// `POST /api/admin/draws/{id}/end`: ends an activity now; 409 when it has ended.
#[utoipa::path(post, path = "/api/admin/draws/{id}/end", operation_id = "admin_draws_end", params(("id" = i64, Path, description = "活动 id")), tag = "后台", responses((status = 200, description = "已结束", body = Envelope<DrawSaved>)))]
async fn end(State(context): State<ApiContext>, staff: Staff<can::Promotions>, Path(id): Path<i64>) -> Answer<DrawSaved> {
    draws::end(&mut *context.db.pool.acquire().await?, &staff.actor, id, now()).await?;
    ok_with("已结束抽奖活动", DrawSaved { id })
}

/// `POST /api/admin/draws/preview`: each prize's chance on the first draw under the draft.
/// Saves nothing.
#[utoipa::path(post, path = "/api/admin/draws/preview", operation_id = "admin_draws_preview", request_body(content = DrawForm, content_type = "application/x-www-form-urlencoded"), tag = "后台", responses((status = 200, description = "中奖概率", body = Envelope<Vec<PrizeChance>>)))]
async fn preview(_: Staff<can::Read>, Form(form): Form<DrawForm>) -> Answer<Vec<PrizeChance>> {
    ok(draws::preview(&form.draft()?, now())?)
}
