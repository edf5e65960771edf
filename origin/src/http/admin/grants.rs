//! Gifts to members in the console: the templates that can be given; coupons, vouchers, red
//! packets and points (`operations`); balance (`finance`), which above ¥1,000.00 waits for a
//! second operator's approval (`domain::staff::grants`).

use axum::extract::{Path, State};
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::{Staff, can};
use crate::domain::staff::grants::{self, BalanceRequest, Gift, Given, amount};
use crate::http::ApiContext;
use crate::http::error::{Answer, Envelope, Error, Result, ok};
use crate::http::extract::{Fields, Form, FromFields, Query};
use crate::now;

pub fn router() -> OpenApiRouter<ApiContext> {
    OpenApiRouter::new()
        .routes(routes!(templates))
        .routes(routes!(benefits))
        .routes(routes!(balance))
        .routes(routes!(requests))
        .routes(routes!(decide))
}

/// A template that can be given.
#[derive(Serialize, ToSchema, sqlx::FromRow)]
pub struct GrantTemplate {
    id: i64,
    title: String,
    /// Days a copy is valid.
    days: i64,
}

/// The coupon and cash-voucher templates.
#[derive(Serialize, ToSchema)]
pub struct GrantTemplates {
    coupons: Vec<GrantTemplate>,
    vouchers: Vec<GrantTemplate>,
    /// Balance grants above this amount wait for a second operator.
    #[schema(example = "1000.00")]
    second_operator_above: String,
}

/// `GET /api/admin/grant-templates`: what can be given.
#[utoipa::path(get, path = "/api/admin/grant-templates", operation_id = "admin_grant_templates", tag = "后台", responses((status = 200, description = "可赠送的券", body = Envelope<GrantTemplates>)))]
async fn templates(State(context): State<ApiContext>, _: Staff<can::Read>) -> Answer<GrantTemplates> {
    let mut conn = context.db.pool.acquire().await?;
    let coupons = sqlx::query_as("SELECT id, title, days FROM coupons ORDER BY id").fetch_all(&mut *conn).await?;
    let vouchers = sqlx::query_as("SELECT id, title, days FROM cash_vouchers ORDER BY id").fetch_all(&mut *conn).await?;
    ok(GrantTemplates { coupons, vouchers, second_operator_above: crate::money::text(grants::SECOND_OPERATOR_ABOVE) })
}

/// A coupon, voucher, red packets or points given: the fields as the document shows them, read
/// into `gift`, which is what the call uses.
#[derive(ToSchema)]
#[allow(dead_code)]
pub struct BenefitForm {
    /// `coupon`, `voucher`, `red_packet` or `points`.
    kind: String,
    /// The template (coupon, voucher).
    template: Option<i64>,
    /// Copies (coupon, voucher; 1 when absent).
    count: Option<i64>,
    /// Yuan (red packets).
    amount: Option<String>,
    /// Points, signed (points).
    points: Option<i64>,
    /// 赠送原因, kept in the member's log and the audit trail.
    reason: String,
    #[schema(ignore)]
    gift: Option<Gift>,
}

impl FromFields for BenefitForm {
    fn from_fields(fields: &Fields) -> Result<BenefitForm> {
        let kind = fields.required("kind", "赠送类型")?;
        let template = fields.int("template", "券模板")?;
        let count = fields.int("count", "数量")?;
        let points = fields.int("points", "积分")?;
        let amount_text = fields.text("amount");
        let gift = match kind.as_str() {
            "coupon" | "voucher" => {
                let template = template.ok_or_else(|| Error::field("template", "请选择券模板"))?;
                let count = count.unwrap_or(1);
                if kind == "coupon" { Gift::Coupon { template, count } } else { Gift::Voucher { template, count } }
            }
            "red_packet" => Gift::RedPacket {
                amount: amount(&amount_text.clone().ok_or_else(|| Error::field("amount", "请填写金额"))?, "amount")?,
            },
            "points" => match points {
                Some(points) if points != 0 => Gift::Points { points },
                _ => return Err(Error::field("points", "请填写积分")),
            },
            _ => return Err(Error::field("kind", "赠送类型不正确")),
        };
        let reason = fields.required("reason", "赠送原因")?;
        Ok(BenefitForm { kind, template, count, amount: amount_text, points, reason, gift: Some(gift) })
    }
}

/// `POST /api/admin/members/{id}/grants/benefits`: gives coupons, vouchers, red packets or points.
#[utoipa::path(post, path = "/api/admin/members/{id}/grants/benefits", operation_id = "admin_grant_benefits", params(("id" = i64, Path, description = "会员 id")), request_body(content = BenefitForm, content_type = "application/x-www-form-urlencoded"), tag = "后台", responses((status = 200, description = "已赠送", body = Envelope<Given>)))]
async fn benefits(
    State(context): State<ApiContext>,
    staff: Staff<can::GrantBenefits>,
    Path(id): Path<i64>,
    Form(form): Form<BenefitForm>,
) -> Answer<Given> {
    let gift = form.gift.ok_or_else(|| Error::field("kind", "赠送类型不正确"))?;
    ok(grants::give(&mut *context.db.pool.acquire().await?, &staff.actor, id, gift, &form.reason, now()).await?)
}

/// Balance given (an offline recharge received, say).
#[derive(ToSchema)]
pub struct BalanceForm {
    /// Yuan, at most two decimals.
    amount: String,
    /// 赠送原因.
    reason: String,
}

impl FromFields for BalanceForm {
    fn from_fields(fields: &Fields) -> Result<BalanceForm> {
        Ok(BalanceForm { amount: fields.required("amount", "金额")?, reason: fields.required("reason", "赠送原因")? })
    }
}

/// `POST /api/admin/members/{id}/grants/balance`: gives balance; above ¥1,000.00 it waits for a
/// second operator (`request` in the answer).
#[utoipa::path(post, path = "/api/admin/members/{id}/grants/balance", operation_id = "admin_grant_balance", params(("id" = i64, Path, description = "会员 id")), request_body(content = BalanceForm, content_type = "application/x-www-form-urlencoded"), tag = "后台", responses((status = 200, description = "已赠送或待审批", body = Envelope<Given>)))]
async fn balance(
    State(context): State<ApiContext>,
    staff: Staff<can::GrantBalance>,
    Path(id): Path<i64>,
    Form(form): Form<BalanceForm>,
) -> Answer<Given> {
    let gift = Gift::Balance { amount: amount(&form.amount, "amount")? };
    ok(grants::give(&mut *context.db.pool.acquire().await?, &staff.actor, id, gift, &form.reason, now()).await?)
}

/// Which requests.
#[derive(utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct RequestsQuery {
    /// `1`: only those waiting.
    #[param(value_type = Option<i64>)]
    pending: bool,
}

impl FromFields for RequestsQuery {
    fn from_fields(fields: &Fields) -> Result<RequestsQuery> {
        Ok(RequestsQuery { pending: fields.int("pending", "待审批")?.unwrap_or(0) == 1 })
    }
}

/// `GET /api/admin/balance-requests`: balance grants waiting for (or decided by) a second operator.
#[utoipa::path(get, path = "/api/admin/balance-requests", operation_id = "admin_balance_requests", params(RequestsQuery), tag = "后台", responses((status = 200, description = "余额审批", body = Envelope<Vec<BalanceRequest>>)))]
async fn requests(
    State(context): State<ApiContext>,
    _: Staff<can::Read>,
    Query(query): Query<RequestsQuery>,
) -> Answer<Vec<BalanceRequest>> {
    ok(grants::requests(&mut *context.db.pool.acquire().await?, query.pending).await?)
}

/// A decision on a request.
#[derive(ToSchema)]
pub struct DecideForm {
    /// `1` approves (the balance is paid), `0` rejects.
    #[schema(value_type = i64)]
    approve: bool,
}

impl FromFields for DecideForm {
    fn from_fields(fields: &Fields) -> Result<DecideForm> {
        match fields.int("approve", "审批结果")? {
            Some(1) => Ok(DecideForm { approve: true }),
            Some(0) => Ok(DecideForm { approve: false }),
            _ => Err(Error::field("approve", "请选择通过或驳回")),
        }
    }
}

/// `POST /api/admin/balance-requests/{id}/decide`: a second operator approves or rejects it
/// (403 for the one who asked).
#[utoipa::path(post, path = "/api/admin/balance-requests/{id}/decide", operation_id = "admin_balance_request_decide", params(("id" = i64, Path, description = "申请 id")), request_body(content = DecideForm, content_type = "application/x-www-form-urlencoded"), tag = "后台", responses((status = 200, description = "已审批", body = Envelope<Given>)))]
async fn decide(
    State(context): State<ApiContext>,
    staff: Staff<can::GrantBalance>,
    Path(id): Path<i64>,
    Form(form): Form<DecideForm>,
) -> Answer<Given> {
    ok(grants::decide(&mut *context.db.pool.acquire().await?, &staff.actor, id, form.approve, now()).await?)
}
