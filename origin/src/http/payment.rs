//! Online payment's calls (`crate::domain::payments`): the recharge tiers and a recharge, paying an order
//! online, the provider's notify, and a payment's state for the page that waits for it.

use axum::extract::{Path, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::ApiContext;
use super::error::{Answer, Envelope, Error, Result, ok};
use super::extract::{Fields, Form, FromFields, Member};
use crate::domain::orders::life::{Action, OrderStatus};
use crate::domain::payments::{self as payment, Confirmed, PaymentStatus, Refused};
use crate::{money, now};

pub fn router() -> OpenApiRouter<ApiContext> {
    OpenApiRouter::new()
        .routes(routes!(money_config))
        .routes(routes!(recharge))
        .routes(routes!(pay_online))
        .routes(routes!(notify))
        .routes(routes!(state))
}

/// A recharge of the member's own amount: from this …
const CUSTOM_MIN: i64 = 10_000;
/// … to this, in stored units (1.00 to 100,000.00 yuan).
const CUSTOM_MAX: i64 = 1_000_000_000;
const PROVIDER_DOWN: &str = "支付服务暂不可用，请稍后再试";

/// A recharge tier: pay `amount`, get `bonus` on top.
#[derive(Serialize, ToSchema)]
pub struct RechargeTier {
    id: i64,
    #[schema(example = "1000.00")]
    amount: String,
    #[schema(example = "20.00")]
    bonus: String,
}

/// The recharge tiers, and the range of an amount of the member's own.
#[derive(Serialize, ToSchema)]
pub struct MoneyConfig {
    tiers: Vec<RechargeTier>,
    #[schema(example = "1.00")]
    min_amount: String,
    #[schema(example = "100000.00")]
    max_amount: String,
}

/// `GET /api/moneys/moneyConfig`: the recharge tiers (充1000送20 …).
#[utoipa::path(get, path = "/api/moneys/moneyConfig", tag = "支付", responses((status = 200, description = "充值档位", body = Envelope<MoneyConfig>)))]
async fn money_config(State(context): State<ApiContext>) -> Answer<MoneyConfig> {
    let rows: Vec<(i64, i64, i64)> =
        sqlx::query_as("SELECT id, amount, bonus FROM recharge_tiers ORDER BY sort, id").fetch_all(&context.db.pool).await?;
    let tiers =
        rows.into_iter().map(|(id, amount, bonus)| RechargeTier { id, amount: money::text(amount), bonus: money::text(bonus) }).collect();
    ok(MoneyConfig { tiers, min_amount: money::text(CUSTOM_MIN), max_amount: money::text(CUSTOM_MAX) })
}

/// A payment started: the page the buyer pays on, and the number to follow it by.
#[derive(Serialize, ToSchema)]
pub struct PaymentStarted {
    payment_no: String,
    /// `recharge` or `order`.
    kind: String,
    #[schema(example = "1000.00")]
    amount: String,
    /// What a recharge adds on top (`0.00` for an order).
    #[schema(example = "20.00")]
    bonus: String,
    /// The provider's cashier page (open it, or show it as a QR code).
    pay_url: String,
}

fn provider_down(error: anyhow::Error) -> Error {
    tracing::warn!(error = format!("{error:#}"), "the payment provider failed");
    Error::Refused(super::error::Refusal::Unavailable, PROVIDER_DOWN.into())
}

/// A recharge: a tier, or an amount of the member's own.
#[derive(ToSchema)]
pub struct RechargeForm {
    /// 充值档位 (`GET /api/moneys/moneyConfig`); when given, `amount` is not read.
    money_config_id: Option<i64>,
    /// 充值金额 in yuan, at most two decimals, 1.00 to 100,000.00 (without a tier); held in
    /// ten-thousandths of a yuan.
    #[schema(value_type = Option<String>, example = "500.00")]
    amount: i64,
}

impl FromFields for RechargeForm {
    fn from_fields(form: &Fields) -> Result<RechargeForm> {
        let money_config_id = form.int("money_config_id", "充值档位")?;
        if money_config_id.is_some() {
            return Ok(RechargeForm { money_config_id, amount: 0 });
        }
        let text = form.required("amount", "充值金额")?;
        let amount =
            money::parse_stored(&text).filter(|amount| amount % 100 == 0).ok_or_else(|| Error::field("amount", "充值金额最多两位小数"))?;
        if !(CUSTOM_MIN..=CUSTOM_MAX).contains(&amount) {
            let range = format!("充值金额须在{}到{}元之间", money::text(CUSTOM_MIN), money::text(CUSTOM_MAX));
            return Err(Error::field("amount", range));
        }
        Ok(RechargeForm { money_config_id, amount })
    }
}

/// `POST /api/cash_coupon/userRecharge` (`money_config_id` a tier, or `amount` yuan with at
/// most two decimals, 1.00 to 100,000.00): starts an online recharge. Nothing is credited
/// until the provider confirms the payment.
#[utoipa::path(post, path = "/api/cash_coupon/userRecharge", request_body(content = RechargeForm, content_type = "application/x-www-form-urlencoded"), tag = "支付", responses((status = 200, description = "待支付的充值", body = Envelope<PaymentStarted>)))]
async fn recharge(State(context): State<ApiContext>, member: Member, Form(form): Form<RechargeForm>) -> Answer<PaymentStarted> {
    let (amount, bonus) = match form.money_config_id {
        Some(tier) => sqlx::query_as::<_, (i64, i64)>("SELECT amount, bonus FROM recharge_tiers WHERE id = $1")
            .bind(tier)
            .fetch_optional(&context.db.pool)
            .await?
            .ok_or_else(|| Error::field("money_config_id", "充值档位不存在"))?,
        None => (form.amount, 0),
    };
    let mut conn = context.db.pool.acquire().await?;
    let subject = format!("账户余额充值 ¥{}", money::text(amount));
    let (payment_no, pay_url) =
        payment::start(&mut conn, context.payments.as_ref(), &context.payment, member.id, "recharge", None, amount, bonus, &subject, now())
            .await
            .map_err(provider_down)?;
    ok(PaymentStarted { payment_no, kind: "recharge".into(), amount: money::text(amount), bonus: money::text(bonus), pay_url })
}

/// `POST /api/order/{id}/pay_online`: starts paying one of the member's unpaid orders online,
/// for its amount due (the same pending payment again when there is one); the order is paid
/// when the provider confirms it.
#[utoipa::path(post, path = "/api/order/{id}/pay_online", tag = "支付", responses((status = 200, description = "待支付的订单付款", body = Envelope<PaymentStarted>)))]
async fn pay_online(State(context): State<ApiContext>, member: Member, Path(id): Path<i64>) -> Answer<PaymentStarted> {
    let mut conn = context.db.pool.acquire().await?;
    let order: Option<(String, OrderStatus, i64)> =
        sqlx::query_as("SELECT order_no, status, due FROM orders WHERE id = $1 AND member_id = $2")
            .bind(id)
            .bind(member.id)
            .fetch_optional(&mut *conn)
            .await?;
    let Some((order_no, status, due)) = order else { return Err(Error::not_found("订单不存在")) };
    if status != OrderStatus::Unpaid {
        return Err(Error::conflict(Action::Pay.refusal(status)));
    }
    if due <= 0 {
        return Err(Error::conflict("该订单无需在线支付"));
    }
    let pending: Option<(String, String)> = sqlx::query_as(
        "SELECT payment_no, pay_url FROM payments WHERE order_id = $1 AND member_id = $2 AND status = $3 AND pay_url <> '' \
         ORDER BY id DESC LIMIT 1",
    )
    .bind(id)
    .bind(member.id)
    .bind(PaymentStatus::Pending)
    .fetch_optional(&mut *conn)
    .await?;
    let (payment_no, pay_url) = match pending {
        Some(pending) => pending,
        None => payment::start(
            &mut conn,
            context.payments.as_ref(),
            &context.payment,
            member.id,
            "order",
            Some(id),
            due,
            0,
            &format!("订单 {order_no}"),
            now(),
        )
        .await
        .map_err(provider_down)?,
    };
    ok(PaymentStarted { payment_no, kind: "order".into(), amount: money::text(due), bonus: money::text(0), pay_url })
}

/// The provider's notify: the fields the shop reads (each as sent, empty when absent), and every
/// field as sent, which the signature covers (with `paid_at`, `notify_id` and `sign`).
#[derive(ToSchema)]
pub struct NotifyForm {
    /// The shop's payment number.
    out_trade_no: String,
    /// The provider's trade number.
    trade_no: String,
    /// The amount paid, in yuan.
    amount: String,
    /// `TRADE_SUCCESS` when paid.
    trade_status: String,
    /// Every field as sent (`paid_at`, `notify_id` and the provider's `sign` too): what the
    /// signature is checked over.
    #[schema(ignore)]
    signed: Vec<(String, String)>,
}

impl FromFields for NotifyForm {
    fn from_fields(form: &Fields) -> Result<NotifyForm> {
        let signed = form.pairs();
        let field = |name: &str| signed.iter().find(|(key, _)| key == name).map(|(_, value)| value.clone()).unwrap_or_default();
        Ok(NotifyForm {
            out_trade_no: field("out_trade_no"),
            trade_no: field("trade_no"),
            amount: field("amount"),
            trade_status: field("trade_status"),
            signed,
        })
    }
}

/// `POST /api/payment/notify`: the provider's asynchronous notify (form `out_trade_no`,
/// `trade_no`, `amount`, `trade_status`, `paid_at`, `notify_id`, `sign`), with no session.
/// The signature must be the provider's and the amount the payment's; the same notify again
/// does nothing again. Answers the body `success` when the payment is (or was already)
/// confirmed; a refusal otherwise, and the provider sends it again later.
#[utoipa::path(post, path = "/api/payment/notify", request_body(content = NotifyForm, content_type = "application/x-www-form-urlencoded"), tag = "支付", responses((status = 200, description = "success", content_type = "text/plain", body = String)))]
async fn notify(State(context): State<ApiContext>, Form(notice): Form<NotifyForm>) -> Result<Response> {
    if !context.payments.verify(&notice.signed) {
        tracing::warn!("a payment notify with a bad signature");
        return Err(Error::forbidden("签名错误"));
    }
    if notice.trade_status != "TRADE_SUCCESS" {
        return Err(Error::field("trade_status", "交易未成功"));
    }
    confirm(&context, &notice.out_trade_no, &notice.amount, &notice.trade_no).await?;
    Ok(([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], "success").into_response())
}

async fn confirm(context: &ApiContext, payment_no: &str, amount: &str, trade_no: &str) -> Result<Confirmed> {
    match payment::confirm(&context.db, payment_no, amount, trade_no, now()).await {
        Ok(confirmed) => Ok(confirmed),
        Err(Refused::Unknown) => Err(Error::not_found("支付单不存在")),
        Err(refused @ Refused::WrongAmount { .. }) => {
            tracing::warn!(payment = payment_no, %refused, "a payment confirmation with a wrong amount");
            Err(Error::field("amount", "支付金额不符"))
        }
        Err(Refused::Database(error)) => Err(error.into()),
    }
}

/// A payment's state.
#[derive(Serialize, ToSchema)]
pub struct PaymentState {
    payment_no: String,
    /// `recharge` or `order`.
    kind: String,
    /// 0 待支付, 1 已支付, 2 已关闭, 3 已退回余额 (paid after its order was cancelled).
    status: i64,
    #[schema(example = "已支付")]
    status_name: &'static str,
    amount: String,
    bonus: String,
    #[schema(required = true)]
    order_id: Option<i64>,
}

/// `GET /api/payment/{payment_no}`: one of the member's payments; while it is pending the
/// provider is asked, so that a payment whose notify was lost is confirmed all the same.
#[utoipa::path(get, path = "/api/payment/{payment_no}", operation_id = "payment_state", tag = "支付", responses((status = 200, description = "支付状态", body = Envelope<PaymentState>)))]
async fn state(State(context): State<ApiContext>, member: Member, Path(payment_no): Path<String>) -> Answer<PaymentState> {
    let read = || async {
        sqlx::query_as::<_, (String, PaymentStatus, i64, i64, Option<i64>)>(
            "SELECT kind, status, amount, bonus, order_id FROM payments WHERE payment_no = $1 AND member_id = $2",
        )
        .bind(&payment_no)
        .bind(member.id)
        .fetch_optional(&context.db.pool)
        .await
    };
    let Some(mut row) = read().await? else { return Err(Error::not_found("支付单不存在")) };
    if row.1 == PaymentStatus::Pending {
        match context.payments.query(&payment_no).await {
            Ok(status) if status.paid => {
                confirm(&context, &payment_no, &status.amount, &status.trade_no).await?;
                row = read().await?.ok_or_else(|| Error::not_found("支付单不存在"))?;
            }
            Ok(_) => {}
            // The provider's silence is not an answer: the state is the shop's own.
            Err(error) => tracing::warn!(error = format!("{error:#}"), payment = payment_no, "the payment query failed"),
        }
    }
    let (kind, status, amount, bonus, order_id) = row;
    ok(PaymentState {
        payment_no,
        kind,
        status: status.code(),
        status_name: status.name(),
        amount: money::text(amount),
        bonus: money::text(bonus),
        order_id,
    })
}
