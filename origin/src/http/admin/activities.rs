//! 活动页 in the console: the activity pages listed with their sections, added, changed and
//! ended. The rules are `domain::staff::activities`'s.

use axum::extract::{Path, State};
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::{Staff, can};
use crate::domain::staff::activities::{self, ActivityPageRow, Draft};
use crate::http::ApiContext;
use crate::http::error::{Answer, Envelope, Error, Result, ok, ok_with};
use crate::http::extract::{Fields, Form, FromFields};
use crate::now;

pub fn router() -> OpenApiRouter<ApiContext> {
    OpenApiRouter::new().routes(routes!(list, create)).routes(routes!(change)).routes(routes!(end))
}

/// `GET /api/admin/activities`: every activity page, running and coming first in the activity
/// zone's order, with its sections and their goods.
#[utoipa::path(get, path = "/api/admin/activities", operation_id = "admin_activities", tag = "后台", responses((status = 200, description = "活动页", body = Envelope<Vec<ActivityPageRow>>)))]
async fn list(State(context): State<ApiContext>, _: Staff<can::Read>) -> Answer<Vec<ActivityPageRow>> {
    ok(activities::list(&mut *context.db.pool.acquire().await?, now()).await?)
}

/// An activity page as the operator writes it (a change sends every field).
#[derive(ToSchema)]
pub struct ActivityForm {
    /// 页面地址: `/activity/{url}`, letters, digits, `-` and `_`; absent while it has no page.
    #[schema(example = "winter")]
    url: Option<String>,
    /// 活动名称, at most 30 characters.
    title: String,
    /// 副标题, at most 60 characters.
    subtitle: Option<String>,
    /// 页面模板: `hdmb` (活动模板) or `zqmb` (专区模板).
    #[schema(example = "hdmb")]
    template: String,
    /// 横幅颜色 `#RRGGBB`.
    #[schema(example = "#1f8a5b")]
    color: String,
    /// 未开始提示: what its links say before it starts.
    note: Option<String>,
    /// 开始时间, Unix seconds.
    starts_at: i64,
    /// 结束时间, Unix seconds.
    ends_at: i64,
    /// 排序 in the activity zone, smallest first.
    sort: Option<i64>,
    /// 栏目: one per line, `栏目名称:商品编号,商品编号` (at most 10, each 1–100 goods).
    #[schema(example = "感冒用药:12,15\n儿童用药:20")]
    sections: Option<String>,
}

impl FromFields for ActivityForm {
    fn from_fields(fields: &Fields) -> Result<ActivityForm> {
        let time = |name: &str, label: &str| -> Result<i64> {
            match fields.int(name, label)? {
                Some(seconds) if seconds > 0 => Ok(seconds),
                _ => Err(Error::field(name, format!("请选择{label}"))),
            }
        };
        Ok(ActivityForm {
            url: fields.text("url"),
            title: fields.text("title").unwrap_or_default(),
            subtitle: fields.text("subtitle"),
            template: fields.text("template").unwrap_or_default(),
            color: fields.text("color").unwrap_or_default(),
            note: fields.text("note"),
            starts_at: time("starts_at", "开始时间")?,
            ends_at: time("ends_at", "结束时间")?,
            sort: fields.int("sort", "排序")?,
            sections: fields.text("sections"),
        })
    }
}

impl ActivityForm {
    fn draft(self) -> Result<Draft> {
        let sections =
            activities::read_sections(self.sections.as_deref().unwrap_or_default()).map_err(|message| Error::field("sections", message))?;
        Ok(Draft {
            url: self.url.unwrap_or_default(),
            title: self.title,
            subtitle: self.subtitle.unwrap_or_default(),
            template: self.template,
            color: self.color,
            note: self.note.unwrap_or_default(),
            starts_at: self.starts_at,
            ends_at: self.ends_at,
            sort: self.sort.unwrap_or(0),
            sections,
        })
    }
}

/// The activity saved or ended.
#[derive(Serialize, ToSchema)]
pub struct ActivitySaved {
    id: i64,
}

/// `POST /api/admin/activities`: adds an activity page; every wrong field a 422 on its field.
#[utoipa::path(post, path = "/api/admin/activities", operation_id = "admin_activities_add", request_body(content = ActivityForm, content_type = "application/x-www-form-urlencoded"), tag = "后台", responses((status = 200, description = "新增的活动", body = Envelope<ActivitySaved>)))]
async fn create(State(context): State<ApiContext>, staff: Staff<can::Promotions>, Form(form): Form<ActivityForm>) -> Answer<ActivitySaved> {
    let id = activities::save(&mut *context.db.pool.acquire().await?, &staff.actor, None, form.draft()?, now()).await?;
    ok_with("已新增活动", ActivitySaved { id })
}

/// `PUT /api/admin/activities/{id}`: replaces an activity page and its sections; 409 when it
/// has ended. Buyers see it on their next read.
#[utoipa::path(put, path = "/api/admin/activities/{id}", operation_id = "admin_activities_change", params(("id" = i64, Path, description = "活动 id")), request_body(content = ActivityForm, content_type = "application/x-www-form-urlencoded"), tag = "后台", responses((status = 200, description = "已保存", body = Envelope<ActivitySaved>)))]
async fn change(
    State(context): State<ApiContext>,
    staff: Staff<can::Promotions>,
    Path(id): Path<i64>,
    Form(form): Form<ActivityForm>,
) -> Answer<ActivitySaved> {
    activities::save(&mut *context.db.pool.acquire().await?, &staff.actor, Some(id), form.draft()?, now()).await?;
    ok_with("已保存活动", ActivitySaved { id })
}

/// `POST /api/admin/activities/{id}/end`: ends an activity now: its page and links are gone;
/// 409 when it has ended.
#[utoipa::path(post, path = "/api/admin/activities/{id}/end", operation_id = "admin_activities_end", params(("id" = i64, Path, description = "活动 id")), tag = "后台", responses((status = 200, description = "已结束", body = Envelope<ActivitySaved>)))]
async fn end(State(context): State<ApiContext>, staff: Staff<can::Promotions>, Path(id): Path<i64>) -> Answer<ActivitySaved> {
    activities::end(&mut *context.db.pool.acquire().await?, &staff.actor, id, now()).await?;
    ok_with("已结束活动", ActivitySaved { id })
}
