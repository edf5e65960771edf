//! The accounts behind settlement (`docs/pricing.md`, rules 11–20): the member's coupons and
//! cash vouchers, the red-packet account and the points account, and the shop's settlement
//! settings. The engine decides what an order takes from each; this module reads the accounts
//! as the engine's input and moves them, each movement one guarded statement (never below
//! zero, a coupon spent by one order only) with a log row, inside the caller's transaction.

use engine::{Cents, EngineError, Money, SettlementInput};
use serde_json::{Value, json};
use sqlx::AnyConnection;

use crate::domain::promotions::CouponStatus;

/// The shop's settlement settings (table `settings`), with the defaults migration 0009 writes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// 运费: charged when the order does not ship free (rule 17).
    pub shipping_fee: Money,
    /// The share of the amount red packets may pay (rule 15).
    pub red_packet_max_rate: Money,
    /// The share of the amount points may pay (rule 16).
    pub points_max_rate: Money,
    /// Points worth one yuan (rule 16).
    pub points_per_yuan: i64,
    /// Points a paid order earns per whole yuan of its amount due.
    pub points_earned_per_yuan: i64,
}

impl Default for Settings {
    fn default() -> Settings {
        let money = |text: &str| Money::parse(text).expect("a default amount");
        Settings {
            shipping_fee: money("10.00"),
            red_packet_max_rate: money("0.1"),
            points_max_rate: money("0.1"),
            points_per_yuan: engine::DEFAULT_POINTS_PER_YUAN,
            points_earned_per_yuan: 1,
        }
    }
}

/// The settings as stored; a missing or unreadable one keeps its default (and is logged).
pub async fn settings(conn: &mut AnyConnection) -> sqlx::Result<Settings> {
    let rows: Vec<(String, String)> = sqlx::query_as(
        "SELECT key, value FROM settings WHERE key IN \
         ('shipping_fee', 'red_packet_max_rate', 'points_max_rate', 'points_per_yuan', 'points_earned_per_yuan')",
    )
    .fetch_all(&mut *conn)
    .await?;
    let mut settings = Settings::default();
    for (key, value) in rows {
        let value = value.trim();
        let amount = Money::parse(value).ok();
        let count = value.parse::<i64>().ok();
        let read = match key.as_str() {
            "shipping_fee" => amount.map(|amount| settings.shipping_fee = amount),
            "red_packet_max_rate" => amount.filter(|rate| *rate <= Money::ONE).map(|rate| settings.red_packet_max_rate = rate),
            "points_max_rate" => amount.filter(|rate| *rate <= Money::ONE).map(|rate| settings.points_max_rate = rate),
            "points_per_yuan" => count.filter(|count| *count >= 1).map(|count| settings.points_per_yuan = count),
            "points_earned_per_yuan" => count.filter(|count| *count >= 0).map(|count| settings.points_earned_per_yuan = count),
            _ => Some(()),
        };
        if read.is_none() {
            tracing::warn!(key, value, "a settlement setting cannot be read; its default applies");
        }
    }
    Ok(settings)
}

#[derive(sqlx::FromRow)]
struct CouponRow {
    id: i64,
    kind: i64,
    scope: i64,
    amount: i64,
    min_amount: i64,
    rate: i64,
    max_reduce: Option<i64>,
    starts_at: i64,
    expires_at: i64,
}

#[derive(sqlx::FromRow)]
struct VoucherRow {
    id: i64,
    amount: i64,
    min_amount: i64,
    starts_at: i64,
    expires_at: i64,
}

/// Stored ten-thousandths of computed cents.
pub fn stored(cents: Cents) -> anyhow::Result<i64> {
    cents.0.checked_mul(100).and_then(|value| i64::try_from(value).ok()).ok_or_else(|| anyhow::anyhow!("amount out of range: {cents}"))
}

/// A stored amount (ten-thousandths of a yuan) as decimal text for the engine's reader, sign
/// and all: the reader sees the value as stored, and refuses a negative one.
fn decimal(stored: i64) -> String {
    rust_decimal::Decimal::new(stored, 4).to_string()
}

/// A stored amount or rate as an operator writes it: `9500` → `0.95`, `0` → `0`.
fn plain(stored: i64) -> String {
    rust_decimal::Decimal::new(stored, 4).normalize().to_string()
}

/// A coupon as the engine's input reads it (`docs/pricing.md`, rule 13): a 满减 (kind 1) takes
/// `amount` off, a 折扣 (kind 2) pays `rate`, at most `max_reduce` off.
fn coupon_input(row: &CouponRow) -> Value {
    let mut coupon = json!({
        "id": row.id,
        "kind": row.kind,
        "scope": row.scope,
        "threshold": decimal(row.min_amount),
        "starts_at": row.starts_at,
        "ends_at": row.expires_at,
    });
    match row.kind {
        1 => coupon["reduce"] = decimal(row.amount).into(),
        _ => {
            coupon["rate"] = decimal(row.rate).into();
            if let Some(max_reduce) = row.max_reduce {
                coupon["max_reduce"] = decimal(max_reduce).into();
            }
        }
    }
    coupon
}

fn voucher_input(row: &VoucherRow) -> Value {
    json!({
        "id": row.id,
        "amount": decimal(row.amount),
        "threshold": decimal(row.min_amount),
        "starts_at": row.starts_at,
        "ends_at": row.expires_at,
    })
}

/// A coupon of a template, as the engine's input reads it (a sample for the console's preview):
/// `kind`, `scope` and the stored `amount`, `min_amount`, `rate` and `max_reduce` as the template
/// keeps them, valid from `starts_at` until before `expires_at`.
#[allow(clippy::too_many_arguments)]
pub fn template_coupon(
    id: i64,
    kind: i64,
    scope: i64,
    amount: i64,
    min_amount: i64,
    rate: i64,
    max_reduce: Option<i64>,
    starts_at: i64,
    expires_at: i64,
) -> Value {
    coupon_input(&CouponRow { id, kind, scope, amount, min_amount, rate, max_reduce, starts_at, expires_at })
}

/// A cash voucher of a template, as the engine's input reads it.
pub fn template_voucher(id: i64, amount: i64, min_amount: i64, starts_at: i64, expires_at: i64) -> Value {
    voucher_input(&VoucherRow { id, amount, min_amount, starts_at, expires_at })
}

/// The settlement input of an account holding only `coupons` and `vouchers` (and no red packets
/// or points), with the shop's settings, read by the engine's reader.
pub async fn sample_accounts(
    conn: &mut AnyConnection,
    coupons: Vec<Value>,
    vouchers: Vec<Value>,
    now: i64,
) -> anyhow::Result<SettlementInput> {
    let settings = settings(conn).await?;
    let settlement = json!({
        "now": now,
        "coupons": coupons,
        "cash_vouchers": vouchers,
        "red_packet_balance": "0",
        "points_balance": 0,
        "shipping_fee": settings.shipping_fee.to_string(),
        "red_packet_max_rate": settings.red_packet_max_rate.to_string(),
        "points_per_yuan": settings.points_per_yuan,
        "points_max_rate": settings.points_max_rate.to_string(),
    });
    read_input(settlement).map_err(|error| anyhow::anyhow!("a sample account is not the engine's input: {error}"))
}

/// The settlement input read by the engine's own reader, so that every value reaching its
/// rules passed its checks (a 折扣 coupon's rate above 0 and below 1, amounts not negative, …).
pub fn read_input(settlement: Value) -> Result<SettlementInput, EngineError> {
    let cart = engine::cart_from_value(&json!({ "items": [], "settlement": settlement }))?;
    Ok(cart.settlement.unwrap_or_default())
}

/// Why a coupon template cannot be granted (`None`: it can), from its stored `kind`, `amount`,
/// `min_amount`, `rate` and `max_reduce`: a 满减 (kind 1) must take an amount off, and the rest
/// is what the engine's reader refuses of a coupon granted of it (a 折扣's rate at 0 would take
/// everything off). The database refuses such a template too (migration 0029); the seed and
/// `origin admin` say why before it does.
pub fn coupon_template_refusal(kind: i64, amount: i64, min_amount: i64, rate: i64, max_reduce: Option<i64>) -> Option<String> {
    if kind == 1 && amount <= 0 {
        return Some(format!("a 满减 coupon (kind 1) must take an amount off: the amount must be above 0, got {}", plain(amount)));
    }
    let row = CouponRow { id: 1, kind, scope: 0, amount, min_amount, rate, max_reduce, starts_at: 0, expires_at: 1 };
    let error = read_input(json!({ "coupons": [coupon_input(&row)] })).err()?;
    let path = error.path().unwrap_or_default().to_owned();
    let field = path.rsplit('.').next().unwrap_or_default();
    let message = error.to_string();
    let reason = message.strip_prefix(&format!("{path}: ")).unwrap_or(&message);
    Some(match field {
        "rate" => format!("a 折扣 coupon (kind 2) pays a share of the price: the rate must be above 0 and below 1, got {}", plain(rate)),
        "kind" => format!("the kind must be 1 (满减) or 2 (折扣), got {kind}"),
        "reduce" => format!("the amount: {reason}"),
        "threshold" => format!("min_amount: {reason}"),
        field => format!("{field}: {reason}"),
    })
}

/// What the member holds, as the engine's settlement input at `now` (the choices left to the
/// caller): the coupons and vouchers unused and not expired (a coupon not yet valid is listed,
/// and the engine reports it unusable), the red-packet and points balances, and the settings.
/// The input is read by the engine's reader; a coupon or voucher it refuses (a template stored
/// before the database refused such values) is left out, and logged.
pub async fn accounts(conn: &mut AnyConnection, member: i64, now: i64) -> anyhow::Result<SettlementInput> {
    let coupons: Vec<CouponRow> = sqlx::query_as(
        "SELECT m.id, c.kind, c.scope, c.amount, c.min_amount, c.rate, c.max_reduce, m.starts_at, m.expires_at \
         FROM member_coupons m JOIN coupons c ON c.id = m.coupon_id \
         WHERE m.member_id = $1 AND m.status = $2 AND m.expires_at > $3 ORDER BY m.expires_at, m.id",
    )
    .bind(member)
    .bind(CouponStatus::Unused)
    .bind(now)
    .fetch_all(&mut *conn)
    .await?;
    let vouchers: Vec<VoucherRow> = sqlx::query_as(
        "SELECT m.id, v.amount, v.min_amount, m.starts_at, m.expires_at FROM member_cash_vouchers m \
         JOIN cash_vouchers v ON v.id = m.voucher_id \
         WHERE m.member_id = $1 AND m.status = $2 AND m.expires_at > $3 ORDER BY m.expires_at, m.id",
    )
    .bind(member)
    .bind(CouponStatus::Unused)
    .bind(now)
    .fetch_all(&mut *conn)
    .await?;
    let (red_packet, points): (i64, i64) =
        sqlx::query_as("SELECT red_packet, points FROM members WHERE id = $1").bind(member).fetch_one(&mut *conn).await?;
    let settings = settings(conn).await?;
    let mut coupons: Vec<Value> = coupons.iter().map(coupon_input).collect();
    let mut vouchers: Vec<Value> = vouchers.iter().map(voucher_input).collect();
    loop {
        let settlement = json!({
            "now": now,
            "coupons": coupons,
            "cash_vouchers": vouchers,
            "red_packet_balance": decimal(red_packet),
            "points_balance": points,
            "shipping_fee": settings.shipping_fee.to_string(),
            "red_packet_max_rate": settings.red_packet_max_rate.to_string(),
            "points_per_yuan": settings.points_per_yuan,
            "points_max_rate": settings.points_max_rate.to_string(),
        });
        let error = match read_input(settlement) {
            Ok(input) => return Ok(input),
            Err(error) => error,
        };
        // A coupon or voucher the engine refuses is left out, and the rest read again; anything
        // else refused is a fault.
        let refused = error.path().and_then(|path| refused_entry(path));
        let list = match refused {
            Some(("coupons", index)) if index < coupons.len() => &mut coupons,
            Some(("cash_vouchers", index)) if index < vouchers.len() => &mut vouchers,
            _ => anyhow::bail!("member {member}'s accounts are not the engine's input: {error}"),
        };
        let index = refused.map_or(0, |(_, index)| index);
        let left_out = list.remove(index);
        tracing::warn!(member, id = %left_out["id"], %error, "a coupon or cash voucher the engine refuses is left out of the settlement");
    }
}

/// The list and position of a settlement error's path: `settlement.coupons[2].rate` is
/// `("coupons", 2)`.
fn refused_entry(path: &str) -> Option<(&str, usize)> {
    let rest = path.strip_prefix("settlement.")?;
    let (list, rest) = rest.split_once('[')?;
    let (index, _) = rest.split_once(']')?;
    Some((list, index.parse().ok()?))
}

/// Why an order cannot take what its settlement asks for (the buyer's 422).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shortfall {
    Coupon,
    Voucher,
    RedPacket,
    Points,
}

impl Shortfall {
    pub fn field(self) -> &'static str {
        match self {
            Shortfall::Coupon => "coupon_id",
            Shortfall::Voucher => "cash_voucher_id",
            Shortfall::RedPacket => "use_red_packet",
            Shortfall::Points => "use_points",
        }
    }

    pub fn message(self) -> &'static str {
        match self {
            Shortfall::Coupon => "所选优惠券不可用，请重新选择",
            Shortfall::Voucher => "所选现金券不可用，请重新选择",
            Shortfall::RedPacket => "红包余额不足，请刷新后重试",
            Shortfall::Points => "积分不足，请刷新后重试",
        }
    }
}

/// Takes what order `order` settled from the member's accounts: the coupon and the voucher
/// become used by it, red packets and points are debited and logged. `Ok(Err(_))` when an
/// account no longer holds what the settlement took (the caller rolls back).
pub async fn spend(
    conn: &mut AnyConnection,
    member: i64,
    order: i64,
    settled: &engine::Settlement,
    now: i64,
) -> anyhow::Result<Result<(), Shortfall>> {
    let use_one = |table: &'static str| {
        format!("UPDATE {table} SET status = $1, order_id = $2, used_at = $3 WHERE id = $4 AND member_id = $5 AND status = $6")
    };
    for (chosen, table, shortfall) in
        [(settled.coupon, "member_coupons", Shortfall::Coupon), (settled.cash_voucher, "member_cash_vouchers", Shortfall::Voucher)]
    {
        let Some(chosen) = chosen else { continue };
        let used = sqlx::query(sqlx::AssertSqlSafe(use_one(table)))
            .bind(CouponStatus::Used)
            .bind(order)
            .bind(now)
            .bind(chosen.id)
            .bind(member)
            .bind(CouponStatus::Unused)
            .execute(&mut *conn)
            .await?;
        if used.rows_affected() != 1 {
            return Ok(Err(shortfall));
        }
    }
    if settled.red_packet.0 > 0
        && move_red_packet(conn, member, Some(order), -stored(settled.red_packet)?, "订单抵扣", now).await?.is_none()
    {
        return Ok(Err(Shortfall::RedPacket));
    }
    if settled.points_used > 0 && move_points(conn, member, Some(order), -settled.points_used, "订单抵扣", now).await?.is_none() {
        return Ok(Err(Shortfall::Points));
    }
    Ok(Ok(()))
}

/// Gives back what a cancelled order took from the member's accounts: its coupon and voucher
/// are unused again, its red packets and points credited and logged. Called once, by the
/// transaction whose guarded update cancelled the order.
pub async fn give_back(conn: &mut AnyConnection, member: i64, order: i64, now: i64) -> sqlx::Result<()> {
    let (coupon, voucher, red_packet, points): (Option<i64>, Option<i64>, i64, i64) = sqlx::query_as(
        "SELECT member_coupon_id, member_cash_voucher_id, red_packet, points_used FROM orders WHERE id = $1 AND member_id = $2",
    )
    .bind(order)
    .bind(member)
    .fetch_one(&mut *conn)
    .await?;
    for (id, table) in [(coupon, "member_coupons"), (voucher, "member_cash_vouchers")] {
        let Some(id) = id else { continue };
        sqlx::query(sqlx::AssertSqlSafe(format!(
            "UPDATE {table} SET status = $1, order_id = NULL, used_at = NULL WHERE id = $2 AND order_id = $3 AND status = $4"
        )))
        .bind(CouponStatus::Unused)
        .bind(id)
        .bind(order)
        .bind(CouponStatus::Used)
        .execute(&mut *conn)
        .await?;
    }
    if red_packet > 0 {
        move_red_packet(conn, member, Some(order), red_packet, "订单取消退回", now).await?;
    }
    if points > 0 {
        move_points(conn, member, Some(order), points, "订单取消退回", now).await?;
    }
    Ok(())
}

/// Credits the points a paid order earns (`points_earned_per_yuan` per whole yuan of `due`,
/// stored ten-thousandths) and records them on the order; answers them.
pub async fn earn(conn: &mut AnyConnection, member: i64, order: i64, due: i64, now: i64) -> sqlx::Result<i64> {
    let per_yuan = settings(conn).await?.points_earned_per_yuan;
    let earned = (due.max(0) / 10_000).saturating_mul(per_yuan);
    if earned > 0 {
        move_points(conn, member, Some(order), earned, "订单支付获得", now).await?;
        sqlx::query("UPDATE orders SET points_earned = $1 WHERE id = $2").bind(earned).bind(order).execute(&mut *conn).await?;
    }
    Ok(earned)
}

/// Credits the wallet's balance with `amount` (stored, above zero) and logs it as money in
/// (`use_type` 1), with the order it is for, if any; answers the balance after it.
pub async fn credit_balance(
    conn: &mut AnyConnection,
    member: i64,
    order: Option<i64>,
    amount: i64,
    note: &str,
    now: i64,
) -> sqlx::Result<i64> {
    let after: i64 = sqlx::query_scalar("UPDATE members SET balance = balance + $1 WHERE id = $2 RETURNING balance")
        .bind(amount)
        .bind(member)
        .fetch_one(&mut *conn)
        .await?;
    sqlx::query(
        "INSERT INTO balance_logs (member_id, amount, balance_after, use_type, order_id, note, created_at) VALUES ($1, $2, $3, 1, $4, $5, $6)",
    )
    .bind(member)
    .bind(amount)
    .bind(after)
    .bind(order)
    .bind(note)
    .bind(now)
    .execute(&mut *conn)
    .await?;
    Ok(after)
}

/// Takes `amount` (stored, above zero) from the wallet's balance, never below zero, and logs it
/// as money out (`use_type` 2) with `note`; answers the balance after it, `None` when short.
pub async fn debit_balance(conn: &mut AnyConnection, member: i64, amount: i64, note: &str, now: i64) -> sqlx::Result<Option<i64>> {
    let after: Option<i64> =
        sqlx::query_scalar("UPDATE members SET balance = balance - $1 WHERE id = $2 AND balance >= $1 RETURNING balance")
            .bind(amount)
            .bind(member)
            .fetch_optional(&mut *conn)
            .await?;
    let Some(after) = after else { return Ok(None) };
    sqlx::query("INSERT INTO balance_logs (member_id, amount, balance_after, use_type, note, created_at) VALUES ($1, $2, $3, 2, $4, $5)")
        .bind(member)
        .bind(-amount)
        .bind(after)
        .bind(note)
        .bind(now)
        .execute(&mut *conn)
        .await?;
    Ok(Some(after))
}

/// Moves the red-packet balance by `amount` (stored; negative to spend), never below zero, and
/// logs it (with the order it is for, if any); `None` when the balance is short.
pub async fn move_red_packet(
    conn: &mut AnyConnection,
    member: i64,
    order: Option<i64>,
    amount: i64,
    note: &str,
    now: i64,
) -> sqlx::Result<Option<i64>> {
    move_account(conn, ("red_packet", "red_packet_logs", "amount"), member, order, amount, note, now).await
}

/// Moves the points balance by `points` (negative to spend), never below zero, and logs it
/// (with the order it is for, if any); `None` when the balance is short.
pub async fn move_points(
    conn: &mut AnyConnection,
    member: i64,
    order: Option<i64>,
    points: i64,
    note: &str,
    now: i64,
) -> sqlx::Result<Option<i64>> {
    move_account(conn, ("points", "points_logs", "points"), member, order, points, note, now).await
}

/// Moves a member's account (`column` of `members`) by `change`, never below zero, with a row of
/// its log (`log`, the change in `log_column`); `None` when the account is short.
async fn move_account(
    conn: &mut AnyConnection,
    (column, log, log_column): (&str, &str, &str),
    member: i64,
    order: Option<i64>,
    change: i64,
    note: &str,
    now: i64,
) -> sqlx::Result<Option<i64>> {
    let after: Option<i64> = sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
        "UPDATE members SET {column} = {column} + $1 WHERE id = $2 AND {column} + $1 >= 0 RETURNING {column}"
    )))
    .bind(change)
    .bind(member)
    .fetch_optional(&mut *conn)
    .await?;
    let Some(after) = after else { return Ok(None) };
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "INSERT INTO {log} (member_id, {log_column}, balance_after, order_id, note, created_at) VALUES ($1, $2, $3, $4, $5, $6)"
    )))
    .bind(member)
    .bind(change)
    .bind(after)
    .bind(order)
    .bind(note)
    .bind(now)
    .execute(&mut *conn)
    .await?;
    Ok(Some(after))
}
