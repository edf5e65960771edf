//! Checkout, orders and payment (`docs/api.md`, "Orders and `Idempotency-Key`" and "Routes": Cart, Orders).
//!
//! The order is made in one transaction that re-reads the cart, quotes it with the engine
//! (`engine::checkout::check`), takes the stock with guarded updates (`stock >= n`, so it
//! never goes below zero however many orders race), records the order and empties those
//! lines. Payment by balance takes the money with the same kind of guard.
//!
//! Checkout and orders are settled by the engine too (`docs/pricing.md`, rules 11–20): the
//! member's coupons, cash vouchers, red packets and points (`crate::domain::settlement`) go into the
//! engine's input with the member's choices; the order spends what the engine settled, in its
//! transaction, with guarded updates, and keeps each line's shares. Payment takes the amount
//! due and credits the points it earns; a cancel gives everything back once.
//!
//! Only members who signed the electronic agreement and whose qualifications were approved
//! may check out or order. An unpaid order holds its stock until it is paid, or cancelled by
//! its member or by the auto-cancel task (`crate::domain::orders::due`); payment and cancellation are
//! each one guarded update of the order's status (`WHERE status = 0`), so only one of them wins.

mod create;
pub(crate) mod detail;
pub mod form;
pub(crate) mod note;

pub(crate) use self::detail::{OrderDetail, order_json};

use axum::Json;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use order_check::form::OrderForm;
use order_check::{headers, signature};
use serde::Serialize;
use serde_json::Value;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use self::create::{PlacedOrder, create_order};
use self::form::{CheckoutForm, OrderRequest, PayForm, PayMethod};
use super::address::Address;
use super::error::{Answer, Envelope, Error, Result, ok};
use super::extract::{Form, Member};
use super::idempotency::Claim;
use super::{ApiContext, coupon, idempotency};
use crate::domain::cart::CartLine;
use crate::domain::orders;
use crate::domain::orders::checkout::{Checked, check, may_order};
use crate::{money, now};
use engine::contract::{CartInput, CartQuote, SettlementInput};

pub fn router() -> OpenApiRouter<ApiContext> {
    OpenApiRouter::new()
        .routes(routes!(preview))
        .routes(routes!(place))
        .routes(routes!(answer))
        .routes(routes!(detail::detail))
        .routes(routes!(note::delivery_note))
        .routes(routes!(pay))
        .routes(routes!(cancel))
}

/// `POST /api/cart/checkout` (`ids`, `new=1`, `expected_payable`, and the settlement's
/// choices `coupon_id`, `cash_voucher_id`, `use_red_packet`, `use_points`): cart step 2's
/// preview — the chosen lines, their quote settled with those choices (absent: the coupon and
/// voucher that together take the most off, no red packets, no points), the member's addresses,
/// the coupons and vouchers it was settled with, and the member's settlement input for the
/// browser's engine.
#[utoipa::path(post, path = "/api/cart/checkout", request_body(content = CheckoutForm, content_type = "application/x-www-form-urlencoded"), tag = "订单", responses((status = 200, description = "结算预览", body = Envelope<CheckoutPreview>)))]
async fn preview(
    State(context): State<ApiContext>,
    member: Member,
    Form(CheckoutForm { order }): Form<CheckoutForm>,
) -> Answer<CheckoutPreview> {
    let mut conn = context.db.pool.acquire().await?;
    may_order(&mut conn, member.id).await?;
    let expected = order.expectations()?;
    let Checked { quote, lines, input, accounts } = check(&mut conn, context.db.kind, member.id, &order, expected, now()).await?;
    let addresses = super::address::member_addresses(&mut conn, member).await?;
    let store = crate::domain::members::current_store(&mut conn, member.id).await?;
    let coupons = coupon::member_coupons(&mut conn, member, accounts.coupons.iter().map(|coupon| coupon.id)).await?;
    let cash_vouchers = coupon::member_vouchers(&mut conn, member, accounts.cash_vouchers.iter().map(|voucher| voucher.id)).await?;
    ok(CheckoutPreview { lines, quote, input, addresses, store, coupons, cash_vouchers, settlement_input: accounts })
}

/// Cart step 2's preview.
#[derive(Serialize, ToSchema)]
pub struct CheckoutPreview {
    /// The chosen lines, in the cart list's shape.
    lines: Vec<CartLine>,
    /// The engine's quote of the chosen lines, with its `settlement`.
    #[schema(value_type = CartQuote)]
    quote: engine::CartQuote,
    /// The chosen lines as the engine's input (all selected; no settlement): the browser holds
    /// it in a `CartSession` and settles it as the member chooses.
    #[schema(value_type = CartInput)]
    input: engine::CartInput,
    /// The member's addresses, the default first.
    addresses: Vec<Address>,
    /// The store the order goes to (a multi-store account's current store), or `null`.
    #[schema(required = true)]
    store: Option<String>,
    /// The member's unused, unexpired coupons (those not yet valid too), in the settlement's order.
    coupons: Vec<coupon::MemberCoupon>,
    /// The member's unused, unexpired cash vouchers, in the settlement's order.
    cash_vouchers: Vec<coupon::MemberVoucher>,
    /// The member's accounts as the engine's settlement input (no choices): the browser adds
    /// the member's choices and settles with `CartSession.settle`.
    #[schema(value_type = SettlementInput)]
    settlement_input: engine::SettlementInput,
}

/// `POST /api/order` (`ids`, `address_id`, `remark`, `expected_payable`, the settlement's
/// choices `coupon_id`, `cash_voucher_id`, `use_red_packet`, `use_points`, and `expected_due`;
/// header `Idempotency-Key`).
#[utoipa::path(post, path = "/api/order", request_body(content = OrderRequest, content_type = "application/x-www-form-urlencoded"), tag = "订单", responses((status = 200, description = "已下单（同一幂等键再次提交时答以首次的应答）", body = Envelope<PlacedOrder>)))]
async fn place(State(context): State<ApiContext>, member: Member, headers: HeaderMap, Form(form): Form<OrderRequest>) -> Result<Response> {
    let key = idempotency_key(&headers);
    let fingerprint = order_fingerprint(&form);
    checked_by_edge(&context, &headers, &key, &form.lines, &form.order)?;
    // Before the key is claimed: this refusal is not kept under it, so the same key may order
    // once the member is approved.
    may_order(&mut *context.db.pool.acquire().await?, member.id).await?;
    let token = match idempotency::claim(&context.db, member.id, &key, &fingerprint).await? {
        Claim::Answered(status, body) => {
            let body: Value = serde_json::from_str(&body).map_err(anyhow::Error::from)?;
            return Ok((status, Json(body)).into_response());
        }
        Claim::Fresh(token) => token,
    };
    let outcome = create_order(&context, member, &key, &token, &form).await;
    let (status, body) = match outcome {
        // Its answer was kept with the order, in the same transaction.
        Ok(answer) => return Ok((StatusCode::OK, Json(answer)).into_response()),
        Err(Error::Internal(error)) => {
            idempotency::release(&context.db, member.id, &key, &token).await?;
            return Err(Error::Internal(error));
        }
        Err(error) => {
            let response = error.into_response();
            let status = response.status();
            let bytes = axum::body::to_bytes(response.into_body(), 1 << 20).await.map_err(anyhow::Error::from)?;
            (status, serde_json::from_slice::<Value>(&bytes).map_err(anyhow::Error::from)?)
        }
    };
    idempotency::save(&mut *context.db.pool.acquire().await?, member.id, &key, &token, status, &body.to_string()).await?;
    Ok((status, Json(body)).into_response())
}

fn idempotency_key(headers: &HeaderMap) -> String {
    headers.get(headers::IDEMPOTENCY_KEY).and_then(|value| value.to_str().ok()).map(str::trim).unwrap_or_default().to_owned()
}

/// The fingerprint of an order's form, which tells a replay of an order from another order
/// under the same key.
fn order_fingerprint(form: &OrderRequest) -> String {
    idempotency::fingerprint(&[
        ("ids", format!("{:?}", form.lines)),
        ("address_id", form.address_id.clone().unwrap_or_default()),
        ("remark", form.remark.clone().unwrap_or_default()),
        ("expected_payable", form.order.expected_payable.clone().unwrap_or_default()),
        ("settlement", form.order.settlement_text()),
    ])
}

/// `POST /api/order/answer` (the order's form and `Idempotency-Key`): the answer an order
/// placed with this key and form already has, exactly as it was answered; 404 when there is
/// none. The edge asks before it refuses an order, so that a buyer's retry of a placed order
/// (whose lines have left the cart) gets the order, not a refusal.
#[utoipa::path(post, path = "/api/order/answer", request_body(content = OrderRequest, content_type = "application/x-www-form-urlencoded"), tag = "订单", responses((status = 200, description = "该幂等键的订单应答，与首次应答完全相同（状态码亦同）；没有时 404", body = Envelope<PlacedOrder>)))]
async fn answer(State(context): State<ApiContext>, member: Member, headers: HeaderMap, Form(form): Form<OrderRequest>) -> Result<Response> {
    let key = idempotency_key(&headers);
    let fingerprint = order_fingerprint(&form);
    match idempotency::answered(&context.db, member.id, &key, &fingerprint).await? {
        Some((status, body)) => {
            let body: Value = serde_json::from_str(&body).map_err(anyhow::Error::from)?;
            Ok((status, Json(body)).into_response())
        }
        None => Err(Error::not_found("没有该幂等键的订单")),
    }
}

/// Only an order the edge has checked is taken: it carries the edge's signed check over its
/// key, lines and expected payable (`order_check::signature`). The quote is made again below, in the
/// order's transaction, all the same.
fn checked_by_edge(context: &ApiContext, headers: &HeaderMap, key: &str, ids: &[i64], order: &OrderForm) -> Result<()> {
    let expected_payable = order.expected_payable.clone().unwrap_or_default();
    let settlement = order.settlement_text();
    let checked = signature::Checked { idempotency_key: key, ids, expected_payable: &expected_payable, settlement: &settlement };
    let header = headers.get(signature::HEADER).and_then(|value| value.to_str().ok());
    let verdict = match &context.edge_secret {
        Some(secret) => signature::verify(secret, header, &checked, now()),
        None => Err(signature::Rejection::Missing),
    };
    verdict.map_err(|rejection| {
        tracing::warn!(?rejection, "an order without a valid check of the edge was refused");
        Error::forbidden("订单未经校验，请刷新购物车后重新提交")
    })
}

/// An order just paid, with the balance left.
#[derive(Serialize, ToSchema)]
pub struct PaidOrder {
    #[serde(flatten)]
    order: OrderDetail,
    #[schema(example = "890.00")]
    balance: String,
}

/// `POST /api/order/{id}/pay` (`method`: `balance`): pays an unpaid order's amount due from
/// the wallet; the balance never goes below zero, each movement is logged, and the points the
/// order earns are credited.
#[utoipa::path(post, path = "/api/order/{id}/pay", request_body(content = PayForm, content_type = "application/x-www-form-urlencoded"), tag = "订单", responses((status = 200, description = "已支付的订单与余额", body = Envelope<PaidOrder>)))]
async fn pay(
    State(context): State<ApiContext>,
    member: Member,
    Path(id): Path<i64>,
    Form(PayForm { method: PayMethod::Balance }): Form<PayForm>,
) -> Answer<PaidOrder> {
    let mut conn = context.db.pool.acquire().await?;
    let balance = orders::pay_by_balance(&mut conn, member.id, id, now()).await?;
    let order = order_json(&mut conn, member, id, context.pay_minutes).await?;
    ok(PaidOrder { order, balance: money::text(balance) })
}

/// `POST /api/order/{id}/cancel`: cancels one of the member's unpaid orders and gives back the
/// stock it took; 409 for a paid or already cancelled order, 404 for anyone else's.
#[utoipa::path(post, path = "/api/order/{id}/cancel", operation_id = "order_cancel", tag = "订单", responses((status = 200, description = "已取消的订单", body = Envelope<OrderDetail>)))]
async fn cancel(State(context): State<ApiContext>, member: Member, Path(id): Path<i64>) -> Answer<OrderDetail> {
    let mut conn = context.db.pool.acquire().await?;
    orders::cancel(&mut conn, member.id, id, now()).await?;
    ok(order_json(&mut conn, member, id, context.pay_minutes).await?)
}
