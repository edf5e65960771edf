//! Coupon and cash-voucher templates in the console: listed, added and changed, previewed by
//! the engine on sample goods amounts, and granted to a group of members. The rules are
//! `domain::staff::coupons`'s.

use axum::extract::{Path, State};
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::{Staff, can};
use crate::domain::grants::Templates;
use crate::domain::staff::coupons::{self, Draft, Group, TemplatePreviewRow, TemplateRow};
use crate::http::ApiContext;
use crate::http::error::{Answer, Envelope, Error, Result, ok, ok_with};
use crate::http::extract::{Fields, Form, FromFields};
use crate::money;
use crate::now;

pub fn router() -> OpenApiRouter<ApiContext> {
    OpenApiRouter::new().routes(routes!(list, create)).routes(routes!(preview)).routes(routes!(change)).routes(routes!(grant))
}

/// `GET /api/admin/coupon-templates`: every coupon template, then every cash-voucher template,
/// newest first, with what each takes off and how many copies members hold and used.
#[utoipa::path(get, path = "/api/admin/coupon-templates", operation_id = "admin_coupon_templates", tag = "后台", responses((status = 200, description = "券模板", body = Envelope<Vec<TemplateRow>>)))]
async fn list(State(context): State<ApiContext>, _: Staff<can::Read>) -> Answer<Vec<TemplateRow>> {
    ok(coupons::list(&mut *context.db.pool.acquire().await?).await?)
}

/// `coupon` or `voucher`.
fn template(text: &str) -> Result<Templates> {
    match text.trim() {
        "coupon" => Ok(Templates::Coupons),
        "voucher" => Ok(Templates::Vouchers),
        _ => Err(Error::field("template", "模板类型应为 coupon 或 voucher")),
    }
}

/// Money in yuan with at most two decimals, as stored; `empty` when the field is empty.
fn money_field(fields: &Fields, name: &str, label: &str, empty: Option<i64>) -> Result<Option<i64>> {
    match fields.text(name).map(|text| text.trim().to_owned()).filter(|text| !text.is_empty()) {
        None => Ok(empty),
        Some(text) => {
            let scale_ok = engine::Money::parse(&text).is_ok_and(|money| money.decimal().scale() <= 2);
            money::parse_stored(&text)
                .filter(|_| scale_ok)
                .map(Some)
                .ok_or_else(|| Error::field(name, format!("{label}应为金额，最多两位小数")))
        }
    }
}

/// A template as the operator writes it.
#[derive(ToSchema)]
pub struct TemplateForm {
    /// `coupon` (优惠券) or `voucher` (现金券).
    template: String,
    /// 名称, at most 30 characters.
    title: String,
    /// Coupons: 1 满减券, 2 折扣券.
    #[schema(value_type = Option<i64>)]
    kind: i64,
    /// Coupons: 0 全场通用, 1 优选商品, 2 中药饮片, 3 医疗器械.
    #[schema(value_type = Option<i64>)]
    scope: i64,
    /// 面额 (满减券, 现金券).
    #[schema(value_type = Option<String>, example = "15")]
    amount: i64,
    /// 使用门槛; empty or 0 for none.
    #[schema(value_type = Option<String>, example = "300")]
    min_amount: i64,
    /// 折扣券: the share paid, above 0 and below 1 (`0.95`).
    #[schema(value_type = Option<String>, example = "0.95")]
    rate: i64,
    /// 折扣券: 最多优惠; empty for none.
    #[schema(value_type = Option<String>)]
    max_reduce: Option<i64>,
    /// 有效天数, 1 to 365, from the day a copy is given.
    days: i64,
    /// Coupons: how many the coupon centre hands out in all; 0 keeps it out of the centre.
    #[schema(value_type = Option<i64>)]
    centre_stock: i64,
    /// Coupons: the most the centre gives one member, 1 to 99.
    #[schema(value_type = Option<i64>)]
    per_member: i64,
}

impl FromFields for TemplateForm {
    fn from_fields(fields: &Fields) -> Result<TemplateForm> {
        let rate = match fields.text("rate").map(|text| text.trim().to_owned()).filter(|text| !text.is_empty()) {
            None => 0,
            Some(text) => money::parse_stored(&text).ok_or_else(|| Error::field("rate", "折扣应大于0且小于1，如 0.95"))?,
        };
        Ok(TemplateForm {
            template: fields.text("template").unwrap_or_default(),
            title: fields.text("title").unwrap_or_default(),
            kind: fields.int("kind", "券类型")?.unwrap_or(1),
            scope: fields.int("scope", "适用范围")?.unwrap_or(0),
            amount: money_field(fields, "amount", "面额", Some(0))?.unwrap_or(0),
            min_amount: money_field(fields, "min_amount", "使用门槛", Some(0))?.unwrap_or(0),
            rate,
            max_reduce: money_field(fields, "max_reduce", "最多优惠", None)?,
            days: fields.int("days", "有效天数")?.unwrap_or(0),
            centre_stock: fields.int("centre_stock", "领券中心发放总量")?.unwrap_or(0),
            per_member: fields.int("per_member", "每人限领")?.unwrap_or(1),
        })
    }
}

impl TemplateForm {
    fn draft(&self) -> Result<(Templates, Draft)> {
        let draft = Draft {
            title: self.title.clone(),
            kind: self.kind,
            scope: self.scope,
            amount: self.amount,
            min_amount: self.min_amount,
            rate: self.rate,
            max_reduce: self.max_reduce,
            days: self.days,
            centre_stock: self.centre_stock,
            per_member: self.per_member,
        };
        Ok((template(&self.template)?, draft))
    }
}

/// The template saved.
#[derive(Serialize, ToSchema)]
pub struct TemplateSaved {
    id: i64,
}

/// `POST /api/admin/coupon-templates`: adds a coupon or cash-voucher template; every wrong field a
/// 422 on its field.
#[utoipa::path(post, path = "/api/admin/coupon-templates", operation_id = "admin_coupon_templates_add", request_body(content = TemplateForm, content_type = "application/x-www-form-urlencoded"), tag = "后台", responses((status = 200, description = "新增的模板", body = Envelope<TemplateSaved>)))]
async fn create(State(context): State<ApiContext>, staff: Staff<can::Promotions>, Form(form): Form<TemplateForm>) -> Answer<TemplateSaved> {
    let (kind, draft) = form.draft()?;
    let id = coupons::save(&mut *context.db.pool.acquire().await?, &staff.actor, kind, None, draft, now()).await?;
    ok_with("已新增", TemplateSaved { id })
}

/// `PUT /api/admin/coupon-templates/{template}/{id}`: changes a template; one whose copies members
/// hold keeps its value (409).
#[utoipa::path(put, path = "/api/admin/coupon-templates/{template}/{id}", operation_id = "admin_coupon_templates_change", params(("template" = String, Path, description = "coupon 或 voucher"), ("id" = i64, Path, description = "模板 id")), request_body(content = TemplateForm, content_type = "application/x-www-form-urlencoded"), tag = "后台", responses((status = 200, description = "已保存", body = Envelope<TemplateSaved>)))]
async fn change(
    State(context): State<ApiContext>,
    staff: Staff<can::Promotions>,
    Path((kind, id)): Path<(String, i64)>,
    Form(form): Form<TemplateForm>,
) -> Answer<TemplateSaved> {
    let kind = template(&kind)?;
    let (_, draft) = form.draft()?;
    coupons::save(&mut *context.db.pool.acquire().await?, &staff.actor, kind, Some(id), draft, now()).await?;
    ok_with("已保存", TemplateSaved { id })
}

/// A template and the goods amounts to settle it on.
#[derive(ToSchema)]
pub struct TemplatePreviewForm {
    /// `coupon` or `voucher`; the other fields as `TemplateForm`'s.
    template: String,
    title: String,
    #[schema(value_type = Option<i64>)]
    kind: i64,
    #[schema(value_type = Option<i64>)]
    scope: i64,
    #[schema(value_type = Option<String>)]
    amount: i64,
    #[schema(value_type = Option<String>)]
    min_amount: i64,
    #[schema(value_type = Option<String>)]
    rate: i64,
    #[schema(value_type = Option<String>)]
    max_reduce: Option<i64>,
    days: i64,
    /// 试算金额: goods amounts by commas (at most 10); absent: below, at and twice the threshold.
    #[schema(example = "299.99,300,600")]
    amounts: Option<String>,
}

impl FromFields for TemplatePreviewForm {
    fn from_fields(fields: &Fields) -> Result<TemplatePreviewForm> {
        let form = TemplateForm::from_fields(fields)?;
        Ok(TemplatePreviewForm {
            template: form.template,
            title: form.title,
            kind: form.kind,
            scope: form.scope,
            amount: form.amount,
            min_amount: form.min_amount,
            rate: form.rate,
            max_reduce: form.max_reduce,
            days: form.days,
            amounts: fields.text("amounts"),
        })
    }
}

/// `POST /api/admin/coupon-templates/preview`: what one copy of the template takes off an order
/// of each goods amount, settled by the engine. Saves nothing.
#[utoipa::path(post, path = "/api/admin/coupon-templates/preview", operation_id = "admin_coupon_templates_preview", request_body(content = TemplatePreviewForm, content_type = "application/x-www-form-urlencoded"), tag = "后台", responses((status = 200, description = "试算", body = Envelope<Vec<TemplatePreviewRow>>)))]
async fn preview(
    State(context): State<ApiContext>,
    _: Staff<can::Read>,
    Form(form): Form<TemplatePreviewForm>,
) -> Answer<Vec<TemplatePreviewRow>> {
    let kind = template(&form.template)?;
    let draft = Draft {
        title: form.title,
        kind: form.kind,
        scope: form.scope,
        amount: form.amount,
        min_amount: form.min_amount,
        rate: form.rate,
        max_reduce: form.max_reduce,
        days: form.days,
        centre_stock: 0,
        per_member: 1,
    };
    let amounts = match form.amounts.as_deref().map(str::trim).filter(|text| !text.is_empty()) {
        None => coupons::default_amounts(&draft),
        Some(text) => {
            let amounts: Vec<i64> = text
                .split(',')
                .map(|part| money::parse_stored(part.trim()).filter(|stored| *stored > 0))
                .collect::<Option<_>>()
                .ok_or_else(|| Error::field("amounts", "试算金额应为大于0的金额，以逗号分隔"))?;
            if amounts.len() > 10 {
                return Err(Error::field("amounts", "试算金额最多10个"));
            }
            amounts
        }
    };
    ok(coupons::preview(&mut *context.db.pool.acquire().await?, kind, &draft, &amounts, now()).await?)
}

/// Who gets copies.
#[derive(ToSchema)]
pub struct GroupGrantForm {
    /// `approved`: every approved member; `buyer_type`: approved members of `buyer_type`.
    group: String,
    /// 1 单体药店, 2 连锁药店, 3 诊所, 4 医院/卫生院, 5 批发企业.
    #[schema(value_type = Option<i64>)]
    buyer_type: i64,
    /// Copies per member, 1 to 100.
    count: i64,
    /// 发放原因, at most 100 characters.
    reason: String,
}

impl FromFields for GroupGrantForm {
    fn from_fields(fields: &Fields) -> Result<GroupGrantForm> {
        Ok(GroupGrantForm {
            group: fields.text("group").unwrap_or_default(),
            buyer_type: fields.int("buyer_type", "客户类型")?.unwrap_or(0),
            count: fields.int("count", "数量")?.unwrap_or(1),
            reason: fields.text("reason").unwrap_or_default(),
        })
    }
}

/// How many members got copies.
#[derive(Serialize, ToSchema)]
pub struct GroupGranted {
    members: i64,
}

/// `POST /api/admin/coupon-templates/{template}/{id}/grant`: gives copies to every member of a
/// group, each told in a message; one audit row.
#[utoipa::path(post, path = "/api/admin/coupon-templates/{template}/{id}/grant", operation_id = "admin_coupon_templates_grant", params(("template" = String, Path, description = "coupon 或 voucher"), ("id" = i64, Path, description = "模板 id")), request_body(content = GroupGrantForm, content_type = "application/x-www-form-urlencoded"), tag = "后台", responses((status = 200, description = "已发放", body = Envelope<GroupGranted>)))]
async fn grant(
    State(context): State<ApiContext>,
    staff: Staff<can::GrantBenefits>,
    Path((kind, id)): Path<(String, i64)>,
    Form(form): Form<GroupGrantForm>,
) -> Answer<GroupGranted> {
    let kind = template(&kind)?;
    let group = match form.group.as_str() {
        "approved" => Group::Approved,
        "buyer_type" => Group::BuyerType(form.buyer_type),
        _ => return Err(Error::field("group", "请选择发放对象")),
    };
    let members =
        coupons::grant_group(&mut *context.db.pool.acquire().await?, &staff.actor, kind, id, group, form.count, &form.reason, now())
            .await?;
    ok_with("已发放", GroupGranted { members })
}
