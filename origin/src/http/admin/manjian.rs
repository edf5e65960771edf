//! 满减 activities in the console: listed, added and changed with their schedule, tiers and
//! goods, ended, and previewed on a sample cart by the engine before they are saved. The rules
//! are `domain::staff::manjian`'s.

use axum::extract::{Path, State};
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::{Staff, can};
use crate::domain::staff::manjian::{self, ActivityRecord, ActivityRow, Draft, ManjianPreview};
use crate::http::ApiContext;
use crate::http::error::{Answer, Envelope, Error, Result, ok, ok_with};
use crate::http::extract::{Fields, Form, FromFields};
use crate::now;

pub fn router() -> OpenApiRouter<ApiContext> {
    OpenApiRouter::new().routes(routes!(list, create)).routes(routes!(preview)).routes(routes!(detail, change)).routes(routes!(end))
}

/// `GET /api/admin/manjian`: every 满减 activity, newest first, with where it stands.
#[utoipa::path(get, path = "/api/admin/manjian", operation_id = "admin_manjian", tag = "后台", responses((status = 200, description = "满减活动", body = Envelope<Vec<ActivityRow>>)))]
async fn list(State(context): State<ApiContext>, _: Staff<can::Read>) -> Answer<Vec<ActivityRow>> {
    ok(manjian::list(&mut *context.db.pool.acquire().await?, now()).await?)
}

/// A 满减 activity as the operator writes it.
#[derive(ToSchema)]
pub struct ManjianForm {
    /// 活动名称, at most 30 characters.
    #[schema(example = "感冒用药满200减20")]
    title: String,
    /// 开始时间, Unix seconds.
    #[schema(example = 1_790_000_000)]
    starts_at: i64,
    /// 结束时间, Unix seconds, after the start (and after now, for a new activity).
    #[schema(example = 1_792_000_000)]
    ends_at: i64,
    /// 满减档位, `满额:减额` by commas, thresholds and reductions rising: `200:20,500:60`
    /// (at most 5).
    #[schema(example = "200:20,500:60")]
    tiers: String,
    /// The goods taking part, ids by commas (at most 500).
    #[schema(value_type = String, example = "12,15,20")]
    goods: Vec<i64>,
    /// `1`: goods in another activity that has not ended move into this one; without it they
    /// are refused with a 409 naming them.
    #[schema(value_type = Option<i64>)]
    move_goods: bool,
}

impl FromFields for ManjianForm {
    fn from_fields(fields: &Fields) -> Result<ManjianForm> {
        let time = |name: &str, label: &str| -> Result<i64> {
            match fields.int(name, label)? {
                Some(seconds) if seconds > 0 => Ok(seconds),
                _ => Err(Error::field(name, format!("请选择{label}"))),
            }
        };
        Ok(ManjianForm {
            title: fields.text("title").unwrap_or_default(),
            starts_at: time("starts_at", "开始时间")?,
            ends_at: time("ends_at", "结束时间")?,
            tiers: fields.text("tiers").unwrap_or_default(),
            goods: fields.ids("goods")?,
            move_goods: matches!(fields.text("move_goods").as_deref().map(str::trim), Some("1")),
        })
    }
}

impl ManjianForm {
    fn draft(&self) -> Result<Draft> {
        let tiers = manjian::read_tiers(&self.tiers).map_err(|message| Error::field("tiers", message))?;
        Ok(Draft { title: self.title.clone(), starts_at: self.starts_at, ends_at: self.ends_at, tiers, goods: self.goods.clone() })
    }
}

/// `POST /api/admin/manjian`: adds a 满减 activity; its goods join it (buyers see it from its
/// start). Every wrong field a 422 on its field; goods in another running or coming activity a
/// 409 unless `move_goods=1`.
#[utoipa::path(post, path = "/api/admin/manjian", operation_id = "admin_manjian_add", request_body(content = ManjianForm, content_type = "application/x-www-form-urlencoded"), tag = "后台", responses((status = 200, description = "新增的活动", body = Envelope<ActivityRecord>)))]
async fn create(State(context): State<ApiContext>, staff: Staff<can::Promotions>, Form(form): Form<ManjianForm>) -> Answer<ActivityRecord> {
    let draft = form.draft()?;
    let mut conn = context.db.pool.acquire().await?;
    let id = manjian::save(&mut conn, &staff.actor, None, draft, form.move_goods, now()).await?;
    ok_with("已新增满减活动", manjian::detail(&mut conn, id, now()).await?)
}

/// `GET /api/admin/manjian/{id}`: an activity with its tiers and goods.
#[utoipa::path(get, path = "/api/admin/manjian/{id}", operation_id = "admin_manjian_detail", params(("id" = i64, Path, description = "活动 id")), tag = "后台", responses((status = 200, description = "满减活动", body = Envelope<ActivityRecord>)))]
async fn detail(State(context): State<ApiContext>, _: Staff<can::Read>, Path(id): Path<i64>) -> Answer<ActivityRecord> {
    ok(manjian::detail(&mut *context.db.pool.acquire().await?, id, now()).await?)
}

/// `PUT /api/admin/manjian/{id}`: replaces an activity's title, schedule, tiers and goods (goods
/// left out leave it); 409 for an activity that has ended.
#[utoipa::path(put, path = "/api/admin/manjian/{id}", operation_id = "admin_manjian_change", params(("id" = i64, Path, description = "活动 id")), request_body(content = ManjianForm, content_type = "application/x-www-form-urlencoded"), tag = "后台", responses((status = 200, description = "满减活动", body = Envelope<ActivityRecord>)))]
async fn change(
    State(context): State<ApiContext>,
    staff: Staff<can::Promotions>,
    Path(id): Path<i64>,
    Form(form): Form<ManjianForm>,
) -> Answer<ActivityRecord> {
    let draft = form.draft()?;
    let mut conn = context.db.pool.acquire().await?;
    manjian::save(&mut conn, &staff.actor, Some(id), draft, form.move_goods, now()).await?;
    ok_with("已保存满减活动", manjian::detail(&mut conn, id, now()).await?)
}

/// The activity ended.
#[derive(Serialize, ToSchema)]
pub struct ManjianEnded {
    id: i64,
}

/// `POST /api/admin/manjian/{id}/end`: ends an activity now; 409 when it has ended.
#[utoipa::path(post, path = "/api/admin/manjian/{id}/end", operation_id = "admin_manjian_end", params(("id" = i64, Path, description = "活动 id")), tag = "后台", responses((status = 200, description = "已结束", body = Envelope<ManjianEnded>)))]
async fn end(State(context): State<ApiContext>, staff: Staff<can::Promotions>, Path(id): Path<i64>) -> Answer<ManjianEnded> {
    manjian::end(&mut *context.db.pool.acquire().await?, &staff.actor, id, now()).await?;
    ok_with("活动已结束", ManjianEnded { id })
}

/// A draft and the sample cart to price it on.
#[derive(ToSchema)]
pub struct ManjianPreviewForm {
    /// The activity being changed, if any (its own goods are no conflict).
    #[schema(value_type = Option<i64>)]
    id: Option<i64>,
    /// As [`ManjianForm`]'s.
    title: String,
    starts_at: i64,
    ends_at: i64,
    #[schema(example = "200:20,500:60")]
    tiers: String,
    #[schema(value_type = String, example = "12,15,20")]
    goods: Vec<i64>,
    /// 试算购物车: `goods:quantity` by commas (at most 20 lines); absent: the draft's first
    /// three goods, ten of each.
    #[schema(example = "12:10,15:4")]
    sample: Option<String>,
}

impl FromFields for ManjianPreviewForm {
    fn from_fields(fields: &Fields) -> Result<ManjianPreviewForm> {
        let ManjianForm { title, starts_at, ends_at, tiers, goods, .. } = ManjianForm::from_fields(fields)?;
        Ok(ManjianPreviewForm { id: fields.int("id", "活动")?, title, starts_at, ends_at, tiers, goods, sample: fields.text("sample") })
    }
}

/// `goods:quantity,…` as pairs.
fn read_sample(text: &str) -> Result<Vec<(i64, u32)>> {
    text.split(',')
        .map(str::trim)
        .filter(|part| !part.is_empty())
        .map(|part| {
            let (goods, quantity) = part.split_once(':').ok_or_else(|| Error::field("sample", "试算购物车应写作 商品:数量"))?;
            let goods = goods.trim().parse().map_err(|_| Error::field("sample", "试算购物车的商品编号不正确"))?;
            let quantity = quantity.trim().parse().map_err(|_| Error::field("sample", "试算购物车的数量不正确"))?;
            Ok((goods, quantity))
        })
        .collect()
}

/// `POST /api/admin/manjian/preview`: what a draft does to a sample cart, priced by the engine
/// as a buyer would be now (the draft's goods reach its tiers and share the reduction, the
/// others do not), and the goods it would take from other activities. Saves nothing.
#[utoipa::path(post, path = "/api/admin/manjian/preview", operation_id = "admin_manjian_preview", request_body(content = ManjianPreviewForm, content_type = "application/x-www-form-urlencoded"), tag = "后台", responses((status = 200, description = "试算", body = Envelope<ManjianPreview>)))]
async fn preview(State(context): State<ApiContext>, _: Staff<can::Read>, Form(form): Form<ManjianPreviewForm>) -> Answer<ManjianPreview> {
    let ManjianPreviewForm { id, title, starts_at, ends_at, tiers, goods, sample } = form;
    let draft = ManjianForm { title, starts_at, ends_at, tiers, goods, move_goods: false }.draft()?;
    let sample = match sample.as_deref() {
        Some(text) => read_sample(text)?,
        None => manjian::default_sample(&draft),
    };
    ok(manjian::preview(&mut *context.db.pool.acquire().await?, id, &draft, &sample, now()).await?)
}
