//! 满额返现 activities in the console: listed, added, changed and ended, and previewed by the
//! engine on sample order amounts before they are saved. The rules are
//! `domain::staff::cashback`'s.

use axum::extract::{Path, State};
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::{Staff, can};
use crate::domain::staff::cashback::{self, CashbackRow, CashbackSample, Draft};
use crate::http::ApiContext;
use crate::http::error::{Answer, Envelope, Error, Result, ok, ok_with};
use crate::http::extract::{Fields, Form, FromFields};
use crate::money;
use crate::now;

pub fn router() -> OpenApiRouter<ApiContext> {
    OpenApiRouter::new().routes(routes!(list, create)).routes(routes!(preview)).routes(routes!(change)).routes(routes!(end))
}

/// `GET /api/admin/cashback`: every cash-back activity, newest first, with its tiers, where it
/// stands, the orders placed under it and what they hold back.
#[utoipa::path(get, path = "/api/admin/cashback", operation_id = "admin_cashback", tag = "后台", responses((status = 200, description = "满额返现", body = Envelope<Vec<CashbackRow>>)))]
async fn list(State(context): State<ApiContext>, _: Staff<can::Read>) -> Answer<Vec<CashbackRow>> {
    ok(cashback::list(&mut *context.db.pool.acquire().await?, now()).await?)
}

/// A cash-back activity as the operator writes it.
#[derive(ToSchema)]
pub struct CashbackForm {
    /// 活动名称, at most 30 characters.
    #[schema(example = "月末满额返现")]
    title: String,
    /// 开始时间, Unix seconds (fixed once it has started).
    #[schema(example = 1_790_000_000)]
    starts_at: i64,
    /// 结束时间, Unix seconds, after the start (and after now, for a new activity).
    #[schema(example = 1_792_000_000)]
    ends_at: i64,
    /// 返现档位, `满额:返现` by commas, both rising, at most 5: `1000:20,3000:80` (fixed once it
    /// has started).
    #[schema(example = "1000:20,3000:80")]
    tiers: String,
}

impl FromFields for CashbackForm {
    fn from_fields(fields: &Fields) -> Result<CashbackForm> {
        let time = |name: &str, label: &str| -> Result<i64> {
            match fields.int(name, label)? {
                Some(seconds) if seconds > 0 => Ok(seconds),
                _ => Err(Error::field(name, format!("请选择{label}"))),
            }
        };
        Ok(CashbackForm {
            title: fields.text("title").unwrap_or_default(),
            starts_at: time("starts_at", "开始时间")?,
            ends_at: time("ends_at", "结束时间")?,
            tiers: fields.text("tiers").unwrap_or_default(),
        })
    }
}

impl CashbackForm {
    fn draft(&self) -> Result<Draft> {
        let tiers = cashback::read_tiers(&self.tiers).map_err(|message| Error::field("tiers", message))?;
        Ok(Draft { title: self.title.clone(), starts_at: self.starts_at, ends_at: self.ends_at, tiers })
    }
}

/// The activity saved or ended.
#[derive(Serialize, ToSchema)]
pub struct CashbackSaved {
    id: i64,
}

/// `POST /api/admin/cashback`: adds an activity; every wrong field a 422 on its field, a
/// schedule overlapping another activity a 409 naming it.
#[utoipa::path(post, path = "/api/admin/cashback", operation_id = "admin_cashback_add", request_body(content = CashbackForm, content_type = "application/x-www-form-urlencoded"), tag = "后台", responses((status = 200, description = "新增的活动", body = Envelope<CashbackSaved>)))]
async fn create(State(context): State<ApiContext>, staff: Staff<can::Promotions>, Form(form): Form<CashbackForm>) -> Answer<CashbackSaved> {
    let draft = form.draft()?;
    let id = cashback::save(&mut *context.db.pool.acquire().await?, &staff.actor, None, draft, now()).await?;
    ok_with("已新增返现活动", CashbackSaved { id })
}

/// `PUT /api/admin/cashback/{id}`: changes an activity; once started only its title and end
/// change (422 on `tiers` or `starts_at` otherwise); 409 when it has ended.
#[utoipa::path(put, path = "/api/admin/cashback/{id}", operation_id = "admin_cashback_change", params(("id" = i64, Path, description = "活动 id")), request_body(content = CashbackForm, content_type = "application/x-www-form-urlencoded"), tag = "后台", responses((status = 200, description = "已保存", body = Envelope<CashbackSaved>)))]
async fn change(
    State(context): State<ApiContext>,
    staff: Staff<can::Promotions>,
    Path(id): Path<i64>,
    Form(form): Form<CashbackForm>,
) -> Answer<CashbackSaved> {
    let draft = form.draft()?;
    cashback::save(&mut *context.db.pool.acquire().await?, &staff.actor, Some(id), draft, now()).await?;
    ok_with("已保存返现活动", CashbackSaved { id })
}

/// `POST /api/admin/cashback/{id}/end`: ends an activity now (orders placed under it are still
/// paid back when they complete); 409 when it has ended.
#[utoipa::path(post, path = "/api/admin/cashback/{id}/end", operation_id = "admin_cashback_end", params(("id" = i64, Path, description = "活动 id")), tag = "后台", responses((status = 200, description = "已结束", body = Envelope<CashbackSaved>)))]
async fn end(State(context): State<ApiContext>, staff: Staff<can::Promotions>, Path(id): Path<i64>) -> Answer<CashbackSaved> {
    cashback::end(&mut *context.db.pool.acquire().await?, &staff.actor, id, now()).await?;
    ok_with("已结束返现活动", CashbackSaved { id })
}

/// A draft and the order amounts to try it on.
#[derive(ToSchema)]
pub struct CashbackPreviewForm {
    /// As [`CashbackForm`]'s.
    title: String,
    starts_at: i64,
    ends_at: i64,
    #[schema(example = "1000:20,3000:80")]
    tiers: String,
    /// 试算金额: orders' goods amounts by commas, at most 20; absent, each tier's threshold and
    /// a cent below it.
    #[schema(example = "800,1500,3200")]
    sample: Option<String>,
}

impl FromFields for CashbackPreviewForm {
    fn from_fields(fields: &Fields) -> Result<CashbackPreviewForm> {
        let CashbackForm { title, starts_at, ends_at, tiers } = CashbackForm::from_fields(fields)?;
        Ok(CashbackPreviewForm { title, starts_at, ends_at, tiers, sample: fields.text("sample") })
    }
}

/// Order amounts written by commas, as stored money.
fn read_sample(text: &str) -> Result<Vec<i64>> {
    let parts = text.split([',', '，']).map(str::trim).filter(|part| !part.is_empty());
    parts
        .enumerate()
        .map(|(n, part)| {
            let scale_ok = engine::Money::parse(part).is_ok_and(|money| money.decimal().scale() <= 2);
            money::parse_stored(part)
                .filter(|_| scale_ok)
                .ok_or_else(|| Error::field("sample", format!("第{}个试算金额应为金额，最多两位小数", n + 1)))
        })
        .collect()
}

/// `POST /api/admin/cashback/preview`: what orders of the sample amounts get back under the
/// draft, by the engine (rule 22). Saves nothing.
#[utoipa::path(post, path = "/api/admin/cashback/preview", operation_id = "admin_cashback_preview", request_body(content = CashbackPreviewForm, content_type = "application/x-www-form-urlencoded"), tag = "后台", responses((status = 200, description = "试算", body = Envelope<Vec<CashbackSample>>)))]
async fn preview(_: Staff<can::Read>, Form(form): Form<CashbackPreviewForm>) -> Answer<Vec<CashbackSample>> {
    let CashbackPreviewForm { title, starts_at, ends_at, tiers, sample } = form;
    let draft = CashbackForm { title, starts_at, ends_at, tiers }.draft()?;
    let sample = read_sample(sample.as_deref().unwrap_or_default())?;
    ok(cashback::preview(&draft, &sample, now())?)
}
