//! Checkout, orders and payment (`docs/api.md`, "Orders and `Idempotency-Key`" and "Routes": Cart, Orders).
//!
//! The order is made in one transaction that re-reads the cart, quotes it with the engine
//! (`engine::checkout::check`), takes the stock with guarded updates (`stock >= n`, so it
//! never goes below zero however many orders race), records the order and empties those
//! lines. Payment by balance takes the money with the same kind of guard.
//!
//! Checkout and orders are settled by the engine too (`docs/pricing.md`, rules 11–20): the
//! member's coupons, cash vouchers, red packets and points (`crate::settlement`) go into the
//! engine's input with the member's choices; the order spends what the engine settled, in its
//! transaction, with guarded updates, and keeps each line's shares. Payment takes the amount
//! due and credits the points it earns; a cancel gives everything back once.
//!
//! Only members who signed the electronic agreement and whose qualifications were approved
//! may check out or order. An unpaid order holds its stock until it is paid, or cancelled by
//! its member or by the auto-cancel task (`crate::orders_due`); payment and cancellation are
//! each one guarded update of the order's status (`WHERE status = 0`), so only one of them wins.

use std::collections::{BTreeMap, HashMap};

use axum::Json;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use engine::checkout::{self, Expected, Refusal};
use order_check::form::OrderForm;
use order_check::{headers, signature};
use serde::Serialize;
use serde_json::Value;
use sqlx::{Acquire, AnyConnection};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::ApiContext;
use super::cart_read::{CartLine, FLASH_SALE, cart_input, limit_message, ordered_in_sale};
use super::coupon;
use super::engine_schema::{CartQuote, EngineCartInput, EngineSettlementInput, Settlement};
use super::error::{Answer, Envelope, Error, Result, ok};
use super::extract::{Fields, FormFields, Member};
use crate::db::Kind;
use crate::idempotency::{self, Claim};
use crate::order_life::{self, Action, Actor};
use crate::security::text;
use crate::{money, now, orders_due, settlement};

pub fn router() -> OpenApiRouter<ApiContext> {
    OpenApiRouter::new()
        .routes(routes!(preview))
        .routes(routes!(place))
        .routes(routes!(answer))
        .routes(routes!(detail))
        .routes(routes!(pay))
        .routes(routes!(cancel))
}

use crate::order_life::{STATUS_NAMES, UNPAID};

/// What a member whose qualifications are not (yet) approved is told at checkout (403).
const NOT_APPROVED: &str = "资质审核通过后方可下单";

/// Whether the member may check out and order: the electronic agreement signed (else 459, and
/// the web app opens /dzht to sign it), then the qualifications approved (else 403).
async fn may_order(conn: &mut AnyConnection, member: Member) -> Result<()> {
    let standing: Option<(i64, i64)> =
        sqlx::query_as("SELECT agreement_signed, is_passed FROM members WHERE id = $1").bind(member.id).fetch_optional(&mut *conn).await?;
    match standing {
        None => Err(Error::Unauthorized),
        Some((signed, _)) if signed != 1 => Err(Error::Agreement),
        Some((_, passed)) if passed != 1 => Err(Error::forbidden(NOT_APPROVED)),
        Some(_) => Ok(()),
    }
}

fn refusal(refusal: Refusal) -> Error {
    if let Refusal::Invalid(error) = &refusal {
        return Error::Internal(anyhow::anyhow!("cart is not engine input: {error}"));
    }
    Error::field(refusal.field(), refusal.message())
}

/// What [`check`] found: the engine's quote of the chosen lines settled with the member's
/// choices, the chosen lines (list-shaped), the engine input of the chosen lines (without the
/// settlement), and the member's settlement input (without the choices).
struct Checked {
    quote: engine::CartQuote,
    lines: Vec<CartLine>,
    input: engine::CartInput,
    accounts: engine::SettlementInput,
}

/// Checks the order the member asks for against their cart and accounts, as read on `conn`
/// at `now`.
async fn check(conn: &mut AnyConnection, kind: Kind, member: Member, form: &OrderForm, expected: Expected, now: i64) -> Result<Checked> {
    let cart = cart_input(conn, kind, member).await?;
    let accounts = settlement::accounts(conn, member.id, now).await?;
    let mut input = cart.engine_input();
    let mut chosen = accounts.clone();
    form.choices.apply(&mut chosen);
    input.settlement = Some(chosen);
    let quote = checkout::check(&input, &form.ids, expected).map_err(refusal)?;
    let lines = cart.data.into_iter().filter(|line| form.ids.contains(&line.id)).collect();
    let mut input = checkout::chosen(&input, &form.ids);
    input.settlement = None;
    Ok(Checked { quote, lines, input, accounts })
}

/// `POST /api/cart/checkout` (`ids`, `new=1`, `expected_payable`, and the settlement's
/// choices `coupon_id`, `cash_voucher_id`, `use_red_packet`, `use_points`): cart step 2's
/// preview — the chosen lines, their quote settled with those choices (absent: the coupon and
/// voucher that together take the most off, no red packets, no points), the member's addresses,
/// the coupons and vouchers it was settled with, and the member's settlement input for the
/// browser's engine.
#[utoipa::path(post, path = "/api/cart/checkout", tag = "订单", responses((status = 200, description = "结算预览", body = Envelope<CheckoutPreview>)))]
async fn preview(State(context): State<ApiContext>, member: Member, FormFields(form): FormFields) -> Answer<CheckoutPreview> {
    let mut conn = context.db.pool.acquire().await?;
    may_order(&mut conn, member).await?;
    let order = form.order_form()?;
    let expected = Expected { payable: order.expected()?, due: order.expected_due()? };
    let Checked { quote, lines, input, accounts } = check(&mut conn, context.db.kind, member, &order, expected, now()).await?;
    let addresses = super::address::member_addresses(&mut conn, member).await?;
    let store = super::address::current_store(&mut conn, member).await?;
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
    #[schema(value_type = EngineCartInput)]
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
    #[schema(value_type = EngineSettlementInput)]
    settlement_input: engine::SettlementInput,
}

/// A delivery address of the member's.
#[derive(Serialize, ToSchema, sqlx::FromRow)]
pub struct Address {
    id: i64,
    contact: String,
    phone: String,
    province: String,
    city: String,
    district: String,
    detail: String,
    is_default: i64,
}

/// An order just placed.
#[derive(Serialize, ToSchema)]
pub struct PlacedOrder {
    id: i64,
    order_no: String,
    /// 0: 待付款.
    status: i64,
    #[schema(value_type = String, example = "待付款")]
    status_name: &'static str,
    #[schema(value_type = String, example = "120.00")]
    total: engine::Cents,
    #[schema(value_type = String, example = "10.00")]
    discount: engine::Cents,
    #[schema(value_type = String, example = "110.00")]
    payable: engine::Cents,
    /// What the order settled: coupon, voucher, red packets, points, shipping fee and the
    /// amount due, with each line's shares.
    #[schema(value_type = Settlement)]
    settlement: engine::Settlement,
    /// What the member pays.
    #[schema(value_type = String, example = "98.00")]
    due: engine::Cents,
}

/// `POST /api/order` (`ids`, `address_id`, `remark`, `expected_payable`, the settlement's
/// choices `coupon_id`, `cash_voucher_id`, `use_red_packet`, `use_points`, and `expected_due`;
/// header `Idempotency-Key`).
#[utoipa::path(post, path = "/api/order", tag = "订单", responses((status = 200, description = "已下单（同一幂等键再次提交时答以首次的应答）", body = Envelope<PlacedOrder>)))]
async fn place(State(context): State<ApiContext>, member: Member, headers: HeaderMap, FormFields(form): FormFields) -> Result<Response> {
    let key = idempotency_key(&headers);
    let (ids, fingerprint) = order_fingerprint(&form)?;
    checked_by_edge(&context, &headers, &key, &ids, &form)?;
    // Before the key is claimed: this refusal is not kept under it, so the same key may order
    // once the member is approved.
    may_order(&mut *context.db.pool.acquire().await?, member).await?;
    let token = match idempotency::claim(&context.db, member.id, &key, &fingerprint).await? {
        Claim::Answered(status, body) => {
            let body: Value = serde_json::from_str(&body).map_err(anyhow::Error::from)?;
            return Ok((status, Json(body)).into_response());
        }
        Claim::Fresh(token) => token,
    };
    let outcome = create_order(&context, member, &key, &token, &ids, &form).await;
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

/// The order's lines (sorted, once each) and the fingerprint of its form, which tells a
/// replay of an order from another order under the same key.
fn order_fingerprint(form: &Fields) -> Result<(Vec<i64>, String)> {
    let mut ids = form.ids("ids")?;
    ids.sort_unstable();
    ids.dedup();
    let fingerprint = idempotency::fingerprint(&[
        ("ids", format!("{ids:?}")),
        ("address_id", form.text("address_id").unwrap_or_default()),
        ("remark", form.text("remark").unwrap_or_default()),
        ("expected_payable", form.text("expected_payable").unwrap_or_default()),
        ("settlement", form.order_form()?.settlement_text()),
    ]);
    Ok((ids, fingerprint))
}

/// `POST /api/order/answer` (the order's form and `Idempotency-Key`): the answer an order
/// placed with this key and form already has, exactly as it was answered; 404 when there is
/// none. The edge asks before it refuses an order, so that a buyer's retry of a placed order
/// (whose lines have left the cart) gets the order, not a refusal.
#[utoipa::path(post, path = "/api/order/answer", tag = "订单", responses((status = 200, description = "该幂等键的订单应答，与首次应答完全相同（状态码亦同）；没有时 404", body = Envelope<PlacedOrder>)))]
async fn answer(State(context): State<ApiContext>, member: Member, headers: HeaderMap, FormFields(form): FormFields) -> Result<Response> {
    let key = idempotency_key(&headers);
    let (_, fingerprint) = order_fingerprint(&form)?;
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
fn checked_by_edge(context: &ApiContext, headers: &HeaderMap, key: &str, ids: &[i64], form: &Fields) -> Result<()> {
    let order = form.order_form()?;
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

/// Makes the order and answers the success envelope, kept under the idempotency key in the
/// order's own transaction: an order never exists without its answer.
async fn create_order(context: &ApiContext, member: Member, key: &str, token: &str, ids: &[i64], form: &Fields) -> Result<Value> {
    let address_id = form.int("address_id", "收货地址")?.ok_or_else(|| Error::field("address_id", "请选择收货地址"))?;
    let remark = form.bounded(text::REMARK)?.unwrap_or_default();
    let order = form.order_form()?;
    let expected = Expected { payable: order.expected()?, due: order.expected_due()? };
    let created = now();
    let mut conn = context.db.pool.acquire().await?;
    let mut tx = conn.begin().await?;
    // A write first: SQLite then holds the write lock for the whole transaction, so that what
    // it reads below cannot change before it writes (PostgreSQL locks rows as it goes).
    sqlx::query("UPDATE members SET points = points WHERE id = $1").bind(member.id).execute(&mut *tx).await?;
    may_order(&mut tx, member).await?;
    let address: Option<String> = sqlx::query_scalar(
        "SELECT contact || ' ' || phone || ' ' || province || city || district || detail FROM addresses WHERE id = $1 AND member_id = $2",
    )
    .bind(address_id)
    .bind(member.id)
    .fetch_optional(&mut *tx)
    .await?;
    let address = address.ok_or_else(|| Error::field("address_id", "收货地址不存在"))?;
    // A multi-store account's order goes to its current store, named first.
    let address = match super::address::current_store(&mut tx, member).await? {
        Some(store) => format!("【{store}】{address}"),
        None => address,
    };
    let order = OrderForm { ids: ids.to_vec(), ..order };
    let Checked { quote, lines, .. } = check(&mut tx, context.db.kind, member, &order, expected, created).await?;
    let settled = quote.settlement.clone().ok_or_else(|| anyhow::anyhow!("an order's quote is always settled"))?;
    // A flash sale's limit holds across orders: what the member ordered in it before (the
    // member's row lock above keeps a concurrent order or add out) and this line.
    let mut sales: HashMap<i64, i64> = HashMap::new();
    for line in lines.iter().filter(|line| line.line_type == FLASH_SALE) {
        let (sale, limit): (i64, Option<i64>) = sqlx::query_as(
            "SELECT c.activity_id, f.limit_number FROM cart_items c LEFT JOIN flash_sales f ON f.id = c.activity_id \
             WHERE c.id = $1 AND c.member_id = $2",
        )
        .bind(line.id)
        .bind(member.id)
        .fetch_one(&mut *tx)
        .await?;
        if let Some(limit) = limit
            && ordered_in_sale(&mut tx, member, sale).await?.saturating_add(line.number) > limit
        {
            return Err(Error::field("ids", limit_message(limit, &line.goods.bzdw)));
        }
        sales.insert(line.id, sale);
    }
    let takes = stock_takes(&mut tx, &lines).await?;
    for (&(target, id), &(number, line)) in &takes {
        let taken = match target {
            Target::Combination => {
                sqlx::query("UPDATE combinations SET stock = stock - $1 WHERE id = $2 AND stock >= $1").bind(number).bind(id)
            }
            // `sold_at`: the search index reads again the sales of goods sold lately.
            Target::Goods => {
                sqlx::query("UPDATE goods SET stock = stock - $1, sales = sales + $1, sold_at = $3 WHERE id = $2 AND stock >= $1")
                    .bind(number)
                    .bind(id)
                    .bind(now())
            }
        }
        .execute(&mut *tx)
        .await?;
        if taken.rows_affected() != 1 {
            return Err(refusal(Refusal::OverStock { id: line }));
        }
    }
    let totals = &quote.summary.totals;
    let stored = |cents: engine::Cents| -> Result<i64> { Ok(settlement::stored(cents)?) };
    let order_id: i64 = sqlx::query_scalar(
        "INSERT INTO orders (member_id, order_no, status, total, discount, payable, address, remark, created_at, \
         member_coupon_id, coupon_value, member_cash_voucher_id, cash_voucher_value, red_packet, points_used, points_value, \
         shipping_fee, due) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18) RETURNING id",
    )
    .bind(member.id)
    // A placeholder until the id gives the order its number.
    .bind(format!("pending-{}", hex::encode(rand::random::<[u8; 16]>())))
    .bind(UNPAID)
    .bind(stored(totals.total)?)
    .bind(stored(totals.discount)?)
    .bind(stored(totals.payable)?)
    .bind(&address)
    .bind(&remark)
    .bind(created)
    .bind(settled.coupon.map(|chosen| chosen.id))
    .bind(stored(settled.coupon.map_or(engine::Cents::ZERO, |chosen| chosen.value))?)
    .bind(settled.cash_voucher.map(|chosen| chosen.id))
    .bind(stored(settled.cash_voucher.map_or(engine::Cents::ZERO, |chosen| chosen.value))?)
    .bind(stored(settled.red_packet)?)
    .bind(settled.points_used)
    .bind(stored(settled.points_value)?)
    .bind(stored(settled.shipping_fee)?)
    .bind(stored(settled.due)?)
    .fetch_one(&mut *tx)
    .await?;
    crate::cashback::remember(&mut tx, order_id, created).await?;
    sqlx::query(
        "INSERT INTO order_events (order_id, action, status_from, status_to, actor, note, created_at) \
         VALUES ($1, 'place', NULL, $2, 'member', '', $3)",
    )
    .bind(order_id)
    .bind(UNPAID)
    .bind(created)
    .execute(&mut *tx)
    .await?;
    // The coupon and voucher become this order's, red packets and points are debited: each a
    // guarded update, so that of two orders spending one coupon only one can.
    if let Err(shortfall) = settlement::spend(&mut tx, member.id, order_id, &settled, created).await? {
        return Err(Error::field(shortfall.field(), shortfall.message()));
    }
    let order_no = format!("{}{:08}", chrono_day(created), order_id);
    sqlx::query("UPDATE orders SET order_no = $1 WHERE id = $2").bind(&order_no).bind(order_id).execute(&mut *tx).await?;
    // What the order took, so that cancelling it gives back exactly that.
    for (&(target, id), &(number, _)) in &takes {
        sqlx::query("INSERT INTO order_stock (order_id, goods_id, combination_id, number) VALUES ($1, $2, $3, $4)")
            .bind(order_id)
            .bind((target == Target::Goods).then_some(id))
            .bind((target == Target::Combination).then_some(id))
            .bind(number)
            .execute(&mut *tx)
            .await?;
    }
    for (line, priced) in lines.iter().zip(&quote.lines) {
        // Every chosen line is buyable (the check refused the order otherwise): each has its shares.
        let shares =
            settled.lines.iter().find(|shares| shares.id == line.id).ok_or_else(|| anyhow::anyhow!("line {} unsettled", line.id))?;
        // A set is recorded as the set: its name, its contents as the specification, no maker.
        let (name, ypgg, sccj, bzdw, activity) = match &line.combination {
            Some(combination) => (combination.name.as_str(), combination.contents.as_str(), "", combination.bzdw, combination.id),
            None => (
                line.goods.name.as_str(),
                line.goods.ypgg.as_str(),
                line.goods.sccj.as_str(),
                line.goods.bzdw.as_str(),
                sales.get(&line.id).copied().unwrap_or(0),
            ),
        };
        sqlx::query(
            "INSERT INTO order_items (order_id, goods_id, type, activity_id, name, ypgg, sccj, bzdw, number, price, amount, \
             goods_manjian_amount, coupon, cash_voucher, red_packet, points, paid) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)",
        )
        .bind(order_id)
        .bind(line.goods.id)
        .bind(line.line_type)
        .bind(activity)
        .bind(name)
        .bind(ypgg)
        .bind(sccj)
        .bind(bzdw)
        .bind(line.number)
        .bind(money::to_stored(priced.unit_price).ok_or_else(|| anyhow::anyhow!("unit price out of range"))?)
        .bind(stored(priced.amount)?)
        .bind(stored(priced.goods_manjian_amount)?)
        .bind(stored(shares.coupon)?)
        .bind(stored(shares.cash_voucher)?)
        .bind(stored(shares.red_packet)?)
        .bind(stored(shares.points)?)
        .bind(stored(shares.paid)?)
        .execute(&mut *tx)
        .await?;
        sqlx::query("DELETE FROM cart_items WHERE id = $1 AND member_id = $2").bind(line.id).bind(member.id).execute(&mut *tx).await?;
    }
    let answer = serde_json::to_value(Envelope::success(PlacedOrder {
        id: order_id,
        order_no,
        status: UNPAID,
        status_name: STATUS_NAMES[UNPAID as usize],
        total: totals.total,
        discount: totals.discount,
        payable: totals.payable,
        due: settled.due,
        settlement: settled,
    }))
    .map_err(anyhow::Error::from)?;
    idempotency::save(&mut tx, member.id, key, token, StatusCode::OK, &answer.to_string()).await?;
    tx.commit().await?;
    Ok(answer)
}

/// Where stock is taken from. Combinations sort before goods: with the ids, the one order
/// every transaction takes and gives back stock in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Target {
    Combination,
    Goods,
}

/// What the chosen lines take from stock, per combination and goods (two lines may take from
/// one goods), with the first line taking each: a combination line takes the combination's own
/// stock and, for each set, every goods inside it (`combination_items.number` of each); any
/// other line takes its goods.
async fn stock_takes(conn: &mut AnyConnection, lines: &[CartLine]) -> Result<BTreeMap<(Target, i64), (i64, i64)>> {
    let mut takes: BTreeMap<(Target, i64), (i64, i64)> = BTreeMap::new();
    let mut take = |key: (Target, i64), number: i64, line: i64| {
        let entry = takes.entry(key).or_insert((0, line));
        entry.0 = entry.0.saturating_add(number);
    };
    for line in lines {
        match &line.combination {
            Some(combination) => {
                take((Target::Combination, combination.id), line.number, line.id);
                let parts: Vec<(i64, i64)> = sqlx::query_as("SELECT goods_id, number FROM combination_items WHERE combination_id = $1")
                    .bind(combination.id)
                    .fetch_all(&mut *conn)
                    .await?;
                for (goods, per_set) in parts {
                    take((Target::Goods, goods), line.number.saturating_mul(per_set), line.id);
                }
            }
            None => take((Target::Goods, line.goods.id), line.number, line.id),
        }
    }
    Ok(takes)
}

/// `20261122` for a Unix time (UTC), the date part of order numbers.
fn chrono_day(seconds: i64) -> String {
    let (year, month, day) = crate::civil_date(seconds, 0);
    format!("{year:04}{month:02}{day:02}")
}

/// One of the member's orders; `pay_minutes` gives an unpaid one its payment deadline.
pub(crate) async fn order_json(conn: &mut AnyConnection, member: Member, id: i64, pay_minutes: u64) -> Result<OrderDetail> {
    let row: OrderRow = sqlx::query_as(
        "SELECT id, order_no, status, total, discount, payable, address, remark, created_at, paid_at, cancelled_at, \
         member_coupon_id, coupon_value, member_cash_voucher_id, cash_voucher_value, red_packet, points_used, points_value, \
         shipping_fee, due, points_earned, pay_method, shipped_at, done_at, carrier, tracking_no, return_open, refunded, \
         (SELECT COUNT(*) FROM returns r WHERE r.order_id = orders.id) AS returns FROM orders WHERE id = $1 AND member_id = $2",
    )
    .bind(id)
    .bind(member.id)
    .fetch_optional(&mut *conn)
    .await?
    .ok_or_else(|| Error::not_found("订单不存在"))?;
    let items = sqlx::query_as::<_, ItemRow>(
        "SELECT id, goods_id, type, name, ypgg, sccj, bzdw, number, price, amount, goods_manjian_amount, coupon, cash_voucher, \
         red_packet, points, paid, returned, refunded FROM order_items WHERE order_id = $1 ORDER BY id",
    )
    .bind(id)
    .fetch_all(&mut *conn)
    .await?
    .into_iter()
    .map(|item| OrderItem {
        id: item.id,
        goods_id: item.goods_id,
        line_type: item.line_type,
        name: item.name,
        ypgg: item.ypgg,
        sccj: item.sccj,
        bzdw: item.bzdw,
        number: item.number,
        price: money::text(item.price),
        amount: money::text(item.amount),
        goods_manjian_amount: money::text(item.goods_manjian_amount),
        coupon: money::text(item.coupon),
        cash_voucher: money::text(item.cash_voucher),
        red_packet: money::text(item.red_packet),
        points: money::text(item.points),
        paid: money::text(item.paid),
        returned: item.returned,
        refunded: money::text(item.refunded),
    })
    .collect::<Vec<_>>();
    let mut actions = order_life::member_actions(row.status);
    let all_returned = items.iter().all(|item| item.returned == item.number);
    if (row.status == order_life::SHIPPED || row.status == order_life::DONE) && row.return_open == 0 && !all_returned {
        actions.push("return");
    }
    if row.returns > 0 {
        actions.push("return_info");
    }
    Ok(OrderDetail {
        id: row.id,
        order_no: row.order_no,
        status: row.status,
        status_name: STATUS_NAMES.get(row.status as usize).copied().unwrap_or_default(),
        total: money::text(row.total),
        discount: money::text(row.discount),
        payable: money::text(row.payable),
        coupon_id: row.member_coupon_id,
        coupon: money::text(row.coupon_value),
        cash_voucher_id: row.member_cash_voucher_id,
        cash_voucher: money::text(row.cash_voucher_value),
        red_packet: money::text(row.red_packet),
        points_used: row.points_used,
        points_value: money::text(row.points_value),
        shipping_fee: money::text(row.shipping_fee),
        due: money::text(row.due),
        points_earned: row.points_earned,
        address: row.address,
        remark: row.remark,
        created_at: row.created_at,
        paid_at: row.paid_at,
        pay_deadline: (row.status == order_life::UNPAID)
            .then(|| row.created_at.saturating_add(i64::try_from(pay_minutes.saturating_mul(60)).unwrap_or(i64::MAX))),
        cancelled_at: row.cancelled_at,
        pay_method: row.pay_method,
        shipped_at: row.shipped_at,
        done_at: row.done_at,
        carrier: row.carrier,
        tracking_no: row.tracking_no,
        refunded: money::text(row.refunded),
        actions,
        timeline: order_life::timeline(conn, row.id).await?,
        logistics: order_life::logistics(conn, row.id).await?,
        items,
    })
}

#[derive(sqlx::FromRow)]
struct OrderRow {
    id: i64,
    order_no: String,
    status: i64,
    total: i64,
    discount: i64,
    payable: i64,
    address: String,
    remark: String,
    created_at: i64,
    paid_at: Option<i64>,
    cancelled_at: Option<i64>,
    member_coupon_id: Option<i64>,
    coupon_value: i64,
    member_cash_voucher_id: Option<i64>,
    cash_voucher_value: i64,
    red_packet: i64,
    points_used: i64,
    points_value: i64,
    shipping_fee: i64,
    due: i64,
    points_earned: i64,
    pay_method: String,
    shipped_at: Option<i64>,
    done_at: Option<i64>,
    carrier: String,
    tracking_no: String,
    return_open: i64,
    refunded: i64,
    returns: i64,
}

#[derive(sqlx::FromRow)]
struct ItemRow {
    id: i64,
    goods_id: i64,
    #[sqlx(rename = "type")]
    line_type: i64,
    name: String,
    ypgg: String,
    sccj: String,
    bzdw: String,
    number: i64,
    price: i64,
    amount: i64,
    goods_manjian_amount: i64,
    coupon: i64,
    cash_voucher: i64,
    red_packet: i64,
    points: i64,
    paid: i64,
    returned: i64,
    refunded: i64,
}

/// One of the member's orders.
#[derive(Serialize, ToSchema)]
pub struct OrderDetail {
    id: i64,
    order_no: String,
    /// 0 待付款, 1 待发货, 2 待收货, 3 已完成, 4 已取消.
    status: i64,
    #[schema(value_type = String, example = "待付款")]
    status_name: &'static str,
    #[schema(example = "120.00")]
    total: String,
    #[schema(example = "10.00")]
    discount: String,
    #[schema(example = "110.00")]
    payable: String,
    /// The member's coupon the order spent, if any, and what it took off.
    #[schema(required = true)]
    coupon_id: Option<i64>,
    #[schema(example = "20.00")]
    coupon: String,
    /// The member's cash voucher the order spent, if any, and what it took off.
    #[schema(required = true)]
    cash_voucher_id: Option<i64>,
    #[schema(example = "10.00")]
    cash_voucher: String,
    #[schema(example = "5.00")]
    red_packet: String,
    points_used: i64,
    #[schema(example = "3.00")]
    points_value: String,
    #[schema(example = "0.00")]
    shipping_fee: String,
    /// What the member pays (rule 18).
    #[schema(example = "72.00")]
    due: String,
    /// Points the payment earned (0 until paid).
    points_earned: i64,
    address: String,
    remark: String,
    created_at: i64,
    /// `null` until paid.
    #[schema(required = true)]
    paid_at: Option<i64>,
    /// While unpaid: when the order is cancelled unless paid (`ORDER_PAY_MINUTES` after it was
    /// placed); `null` otherwise.
    #[schema(required = true)]
    pay_deadline: Option<i64>,
    /// `null` unless cancelled.
    #[schema(required = true)]
    cancelled_at: Option<i64>,
    /// `balance` or `online`; empty until paid.
    pay_method: String,
    #[schema(required = true)]
    shipped_at: Option<i64>,
    /// When it was completed (received).
    #[schema(required = true)]
    done_at: Option<i64>,
    /// The carrier and tracking number it was shipped with; empty until shipped.
    carrier: String,
    tracking_no: String,
    /// Refunded to the balance by its returns so far.
    #[schema(example = "0.00")]
    refunded: String,
    /// What the member may do with it now: `pay`, `cancel`, `receive`, `invoice`, `after_sales`,
    /// `buy_again`, `return` (request one), `return_info` (see its returns).
    #[schema(value_type = Vec<String>)]
    actions: Vec<&'static str>,
    /// Every change, oldest first, with who made it.
    timeline: Vec<order_life::OrderEvent>,
    /// The carrier's events, oldest first.
    logistics: Vec<order_life::LogisticsEvent>,
    items: Vec<OrderItem>,
}

/// A line of an order, as it was bought.
#[derive(Serialize, ToSchema)]
pub struct OrderItem {
    /// The order line's id (what a return names).
    id: i64,
    goods_id: i64,
    #[serde(rename = "type")]
    line_type: i64,
    name: String,
    ypgg: String,
    sccj: String,
    bzdw: String,
    number: i64,
    #[schema(example = "12.30")]
    price: String,
    #[schema(example = "24.60")]
    amount: String,
    /// The line's share of the full reduction (rule 8) and of each deduction (rule 19).
    goods_manjian_amount: String,
    coupon: String,
    cash_voucher: String,
    red_packet: String,
    points: String,
    /// What is left paid for the line: what returning all of it refunds (rule 20).
    #[schema(example = "22.10")]
    paid: String,
    /// Units returned and refunded so far, and what they refunded.
    returned: i64,
    #[schema(example = "0.00")]
    refunded: String,
}

/// An order just paid, with the balance left.
#[derive(Serialize, ToSchema)]
pub struct PaidOrder {
    #[serde(flatten)]
    order: OrderDetail,
    #[schema(example = "890.00")]
    balance: String,
}

/// `GET /api/order/{id}`: one of the member's orders (404 for anyone else's).
#[utoipa::path(get, path = "/api/order/{id}", operation_id = "order_detail", tag = "订单", responses((status = 200, description = "订单", body = Envelope<OrderDetail>)))]
async fn detail(State(context): State<ApiContext>, member: Member, Path(id): Path<i64>) -> Answer<OrderDetail> {
    ok(order_json(&mut *context.db.pool.acquire().await?, member, id, context.pay_minutes).await?)
}

/// `POST /api/order/{id}/pay` (`method`: `balance`): pays an unpaid order's amount due from
/// the wallet; the balance never goes below zero, each movement is logged, and the points the
/// order earns are credited.
#[utoipa::path(post, path = "/api/order/{id}/pay", tag = "订单", responses((status = 200, description = "已支付的订单与余额", body = Envelope<PaidOrder>)))]
async fn pay(State(context): State<ApiContext>, member: Member, Path(id): Path<i64>, FormFields(form): FormFields) -> Answer<PaidOrder> {
    match form.text("method").as_deref() {
        Some("balance") => {}
        Some(_) => return Err(Error::field("method", "暂不支持该支付方式")),
        None => return Err(Error::field("method", "请选择支付方式")),
    }
    let mut conn = context.db.pool.acquire().await?;
    let mut tx = conn.begin().await?;
    let paid_at = now();
    let Some(due) = mark_paid(&mut tx, member.id, id, paid_at, "balance", Actor::Member).await? else {
        return Err(refused(&mut tx, member, id, Action::Pay).await?);
    };
    let taken = sqlx::query("UPDATE members SET balance = balance - $1 WHERE id = $2 AND balance >= $1")
        .bind(due)
        .bind(member.id)
        .execute(&mut *tx)
        .await?;
    if taken.rows_affected() != 1 {
        return Err(Error::field("method", "账户余额不足"));
    }
    let balance: i64 = sqlx::query_scalar("SELECT balance FROM members WHERE id = $1").bind(member.id).fetch_one(&mut *tx).await?;
    sqlx::query(
        "INSERT INTO balance_logs (member_id, amount, balance_after, use_type, order_id, note, created_at) \
         VALUES ($1, $2, $3, 2, $4, '订单支付', $5)",
    )
    .bind(member.id)
    .bind(-due)
    .bind(balance)
    .bind(id)
    .bind(paid_at)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    let order = order_json(&mut conn, member, id, context.pay_minutes).await?;
    ok(PaidOrder { order, balance: money::text(balance) })
}

/// Moves one of the member's unpaid orders to paid (by `method`, `balance` or `online`) and
/// credits the points it earns, in the caller's transaction; answers its amount due, or `None`
/// when it is not unpaid (paid or cancelled already, or not the member's). The state change
/// comes first: it takes SQLite's write lock at once, and of two payments (or a payment and a
/// cancel) racing, only one finds the order unpaid.
pub(crate) async fn mark_paid(
    conn: &mut AnyConnection,
    member: i64,
    id: i64,
    paid_at: i64,
    method: &str,
    actor: Actor,
) -> sqlx::Result<Option<i64>> {
    let note = if method == "online" { "在线支付" } else { "余额支付" };
    if !order_life::change(conn, id, Some(member), Action::Pay, actor, note, paid_at).await? {
        return Ok(None);
    }
    let due: i64 = sqlx::query_scalar("UPDATE orders SET pay_method = $1 WHERE id = $2 RETURNING due")
        .bind(method)
        .bind(id)
        .fetch_one(&mut *conn)
        .await?;
    settlement::earn(conn, member, id, due, paid_at).await?;
    Ok(Some(due))
}

/// Why an order could not take `action`: it is the member's but in a state the action does not
/// leave from (409, saying which), or it is not the member's at all (404).
pub(crate) async fn refused(conn: &mut AnyConnection, member: Member, id: i64, action: Action) -> Result<Error> {
    let status: Option<i64> = sqlx::query_scalar("SELECT status FROM orders WHERE id = $1 AND member_id = $2")
        .bind(id)
        .bind(member.id)
        .fetch_optional(conn)
        .await?;
    Ok(match status {
        Some(status) => Error::conflict(action.refusal(status)),
        None => Error::not_found("订单不存在"),
    })
}

/// `POST /api/order/{id}/cancel`: cancels one of the member's unpaid orders and gives back the
/// stock it took; 409 for a paid or already cancelled order, 404 for anyone else's.
#[utoipa::path(post, path = "/api/order/{id}/cancel", operation_id = "order_cancel", tag = "订单", responses((status = 200, description = "已取消的订单", body = Envelope<OrderDetail>)))]
async fn cancel(State(context): State<ApiContext>, member: Member, Path(id): Path<i64>) -> Answer<OrderDetail> {
    let mut conn = context.db.pool.acquire().await?;
    let mut tx = conn.begin().await?;
    if !orders_due::cancel(&mut tx, member.id, id, now(), Actor::Member).await? {
        return Err(refused(&mut tx, member, id, Action::Cancel).await?);
    }
    tx.commit().await?;
    ok(order_json(&mut conn, member, id, context.pay_minutes).await?)
}
