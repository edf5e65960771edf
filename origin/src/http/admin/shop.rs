//! 店铺设置 and 全场折扣 in the console: the shop's identity and who sees prices (super), the
//! store-wide discount started and ended (operations).

use axum::extract::State;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::{Staff, can};
use crate::domain::shop::FIELDS;
use crate::domain::staff::shop::{self, Changed, Settings, WelfareRow};
use crate::http::ApiContext;
use crate::http::error::{Answer, Envelope, Error, Result, ok};
use crate::http::extract::{Fields, Form, FromFields};
use crate::now;

pub fn router() -> OpenApiRouter<ApiContext> {
    OpenApiRouter::new()
        .routes(routes!(settings, change_settings))
        .routes(routes!(set_prices))
        .routes(routes!(welfare, start_welfare))
        .routes(routes!(end_welfare))
}

/// `GET /api/admin/settings`: the shop's identity, field by field, and who sees prices.
#[utoipa::path(get, path = "/api/admin/settings", operation_id = "admin_settings", tag = "后台", responses((status = 200, description = "店铺设置", body = Envelope<Settings>)))]
async fn settings(State(context): State<ApiContext>, _: Staff<can::Read>) -> Answer<Settings> {
    ok(shop::settings(&mut *context.db.pool.acquire().await?).await?)
}

/// The identity's fields to change; those not sent stay, and an optional one sent empty is cleared.
#[derive(ToSchema)]
pub struct SettingsForm {
    name: Option<String>,
    company: Option<String>,
    drug_licence: Option<String>,
    internet_drug_licence: Option<String>,
    device_licence: Option<String>,
    credit_code: Option<String>,
    address: Option<String>,
    hot_line: Option<String>,
    qq1: Option<String>,
    qq2: Option<String>,
    icp: Option<String>,
}

impl SettingsForm {
    /// The fields sent, `(name, value)`.
    fn given(self) -> Vec<(String, String)> {
        let all = [
            ("name", self.name),
            ("company", self.company),
            ("drug_licence", self.drug_licence),
            ("internet_drug_licence", self.internet_drug_licence),
            ("device_licence", self.device_licence),
            ("credit_code", self.credit_code),
            ("address", self.address),
            ("hot_line", self.hot_line),
            ("qq1", self.qq1),
            ("qq2", self.qq2),
            ("icp", self.icp),
        ];
        all.into_iter().filter_map(|(name, value)| value.map(|value| (name.to_owned(), value))).collect()
    }
}

impl FromFields for SettingsForm {
    fn from_fields(fields: &Fields) -> Result<SettingsForm> {
        // Sent (even empty) is `Some`: an empty optional field is cleared.
        let sent = |name: &str| fields.pairs().iter().any(|(key, _)| key == name).then(|| fields.text(name).unwrap_or_default());
        let form = SettingsForm {
            name: sent("name"),
            company: sent("company"),
            drug_licence: sent("drug_licence"),
            internet_drug_licence: sent("internet_drug_licence"),
            device_licence: sent("device_licence"),
            credit_code: sent("credit_code"),
            address: sent("address"),
            hot_line: sent("hot_line"),
            qq1: sent("qq1"),
            qq2: sent("qq2"),
            icp: sent("icp"),
        };
        if FIELDS.iter().all(|field| sent(field.name).is_none()) {
            return Err(Error::field("name", "请填写要修改的店铺信息"));
        }
        Ok(form)
    }
}

/// `PUT /api/admin/settings`: changes the fields sent, all or none (each wrong one a 422 on its
/// field); answers the fields that changed. Shown at once wherever the shop states them.
#[utoipa::path(put, path = "/api/admin/settings", operation_id = "admin_settings_change", request_body(content = SettingsForm, content_type = "application/x-www-form-urlencoded"), tag = "后台", responses((status = 200, description = "改动的字段", body = Envelope<Vec<Changed>>)))]
async fn change_settings(
    State(context): State<ApiContext>,
    staff: Staff<can::Settings>,
    Form(form): Form<SettingsForm>,
) -> Answer<Vec<Changed>> {
    ok(shop::change_identity(&mut *context.db.pool.acquire().await?, &staff.actor, &form.given(), now()).await?)
}

/// Who sees prices.
#[derive(ToSchema)]
pub struct PricesForm {
    /// `1`: everyone; `0`: only members whose qualifications are approved.
    #[schema(value_type = i64)]
    public: bool,
}

impl FromFields for PricesForm {
    fn from_fields(fields: &Fields) -> Result<PricesForm> {
        match fields.int("public", "价格显示")? {
            Some(0) => Ok(PricesForm { public: false }),
            Some(1) => Ok(PricesForm { public: true }),
            _ => Err(Error::field("public", "请选择价格显示方式")),
        }
    }
}

/// Who sees prices now, and whether the call changed it.
#[derive(Serialize, ToSchema)]
pub struct PricesShown {
    prices_public: bool,
    changed: bool,
}

/// `PUT /api/admin/settings/prices`: who sees prices.
#[utoipa::path(put, path = "/api/admin/settings/prices", operation_id = "admin_settings_prices", request_body(content = PricesForm, content_type = "application/x-www-form-urlencoded"), tag = "后台", responses((status = 200, description = "价格显示", body = Envelope<PricesShown>)))]
async fn set_prices(State(context): State<ApiContext>, staff: Staff<can::Settings>, Form(form): Form<PricesForm>) -> Answer<PricesShown> {
    let changed = shop::set_prices_public(&mut *context.db.pool.acquire().await?, &staff.actor, form.public, now()).await?;
    ok(PricesShown { prices_public: form.public, changed })
}

/// `GET /api/admin/welfare`: the store-wide discounts, newest first, the running one marked.
#[utoipa::path(get, path = "/api/admin/welfare", operation_id = "admin_welfare", tag = "后台", responses((status = 200, description = "全场折扣", body = Envelope<Vec<WelfareRow>>)))]
async fn welfare(State(context): State<ApiContext>, _: Staff<can::Read>) -> Answer<Vec<WelfareRow>> {
    ok(shop::welfare(&mut *context.db.pool.acquire().await?, now()).await?)
}

/// A store-wide discount to start now.
#[derive(ToSchema)]
pub struct WelfareForm {
    /// 活动名称, at most 30 characters.
    #[schema(example = "全场94折")]
    title: String,
    /// The rate goods are priced at, 0 < rate < 1: `0.94` is 94折.
    #[schema(example = "0.94")]
    rate: String,
    /// 活动天数, 1 to 366.
    #[schema(example = 7)]
    days: i64,
}

impl FromFields for WelfareForm {
    fn from_fields(fields: &Fields) -> Result<WelfareForm> {
        Ok(WelfareForm {
            title: fields.text("title").unwrap_or_default(),
            rate: fields.text("rate").unwrap_or_default(),
            days: fields.int("days", "活动天数")?.unwrap_or(0),
        })
    }
}

/// The discount started.
#[derive(Serialize, ToSchema)]
pub struct WelfareStarted {
    id: i64,
}

/// `POST /api/admin/welfare`: starts a store-wide discount now; the newest running one prices
/// every goods card and cart.
#[utoipa::path(post, path = "/api/admin/welfare", operation_id = "admin_welfare_start", request_body(content = WelfareForm, content_type = "application/x-www-form-urlencoded"), tag = "后台", responses((status = 200, description = "已开始", body = Envelope<WelfareStarted>)))]
async fn start_welfare(
    State(context): State<ApiContext>,
    staff: Staff<can::Promotions>,
    Form(form): Form<WelfareForm>,
) -> Answer<WelfareStarted> {
    let id = shop::start_welfare(&mut *context.db.pool.acquire().await?, &staff.actor, &form.title, &form.rate, form.days, now()).await?;
    ok(WelfareStarted { id })
}

/// How many discounts ended.
#[derive(Serialize, ToSchema)]
pub struct WelfareEnded {
    ended: u64,
}

/// `POST /api/admin/welfare/end`: ends every running store-wide discount now.
#[utoipa::path(post, path = "/api/admin/welfare/end", operation_id = "admin_welfare_end", tag = "后台", responses((status = 200, description = "已结束", body = Envelope<WelfareEnded>)))]
async fn end_welfare(State(context): State<ApiContext>, staff: Staff<can::Promotions>) -> Answer<WelfareEnded> {
    ok(WelfareEnded { ended: shop::end_welfare(&mut *context.db.pool.acquire().await?, &staff.actor, now()).await? })
}
