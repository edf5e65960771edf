//! What the shop gives a member: coupons and cash vouchers from a template, red packets,
//! points and balance (an offline recharge) — each moved on the member's account with its log
//! row (`crate::domain::settlement`) and told to the member in a message. The operator's
//! commands grant through here; so will the console.

use sqlx::AnyConnection;

use crate::domain::promotions::CouponStatus;
use crate::domain::settlement;
use crate::domain::{Error, Result, messages};
use crate::money;

/// How many of a template one grant may give.
pub const COUNT_MAX: i64 = 100;

/// A kind of template a member holds copies of: coupons or cash vouchers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Templates {
    Coupons,
    Vouchers,
}

impl Templates {
    /// The templates' table, the member's table and its column naming the template.
    fn tables(self) -> (&'static str, &'static str, &'static str) {
        match self {
            Templates::Coupons => ("coupons", "member_coupons", "coupon_id"),
            Templates::Vouchers => ("cash_vouchers", "member_cash_vouchers", "voucher_id"),
        }
    }

    /// The message's title.
    fn title(self) -> &'static str {
        match self {
            Templates::Coupons => "获得优惠券",
            Templates::Vouchers => "获得现金券",
        }
    }
}

/// Not found unless member `member` exists.
async fn member_exists(conn: &mut AnyConnection, member: i64) -> Result<()> {
    let found: Option<i64> = sqlx::query_scalar("SELECT id FROM members WHERE id = $1").bind(member).fetch_optional(&mut *conn).await?;
    found.map(|_| ()).ok_or_else(|| Error::not_found("会员不存在"))
}

/// A field error unless `amount` (stored) is above zero.
fn positive(amount: i64) -> Result<()> {
    if amount <= 0 {
        return Err(Error::field("amount", "金额须大于0"));
    }
    Ok(())
}

/// A template granted: its title and how many days a copy is valid.
pub struct Granted {
    pub title: String,
    pub days: i64,
}

/// Gives member `member` `count` copies of template `template`, valid from `now` for the
/// template's days, in the caller's transaction. A coupon template the pricing engine cannot
/// use (one stored before the database refused such values) is refused: a coupon of it would
/// never reach a settlement.
pub async fn templates(conn: &mut AnyConnection, kind: Templates, member: i64, template: i64, count: i64, now: i64) -> Result<Granted> {
    if !(1..=COUNT_MAX).contains(&count) {
        return Err(Error::field("count", format!("赠送数量须为1至{COUNT_MAX}")));
    }
    member_exists(conn, member).await?;
    let (templates, held, column) = kind.tables();
    let (title, days): (String, i64) = sqlx::query_as(sqlx::AssertSqlSafe(format!("SELECT title, days FROM {templates} WHERE id = $1")))
        .bind(template)
        .fetch_optional(&mut *conn)
        .await?
        .ok_or_else(|| Error::not_found("模板不存在"))?;
    if kind == Templates::Coupons {
        let (coupon_kind, amount, min_amount, rate, max_reduce): (i64, i64, i64, i64, Option<i64>) =
            sqlx::query_as("SELECT kind, amount, min_amount, rate, max_reduce FROM coupons WHERE id = $1")
                .bind(template)
                .fetch_one(&mut *conn)
                .await?;
        if let Some(why) = settlement::coupon_template_refusal(coupon_kind, amount, min_amount, rate, max_reduce) {
            // The operator reads why, in the terms of the template's fields.
            return Err(Error::conflict(format!("coupon template {template} ({title}) cannot be granted: {why}")));
        }
    }
    for _ in 0..count {
        sqlx::query(sqlx::AssertSqlSafe(format!(
            "INSERT INTO {held} (member_id, {column}, status, starts_at, expires_at, created_at) VALUES ($1, $2, $3, $4, $5, $4)"
        )))
        .bind(member)
        .bind(template)
        .bind(CouponStatus::Unused)
        .bind(now)
        .bind(now + days * 86_400)
        .execute(&mut *conn)
        .await?;
    }
    messages::send(conn, member, messages::MessageKind::Wallet, kind.title(), &format!("平台赠送您{count}张{title}，有效期{days}天。"))
        .await?;
    Ok(Granted { title, days })
}

/// Credits `amount` (stored, positive) of red packets to member `member` for `note`, in the
/// caller's transaction. Answers the account after.
pub async fn red_packet(conn: &mut AnyConnection, member: i64, amount: i64, note: &str, now: i64) -> Result<i64> {
    positive(amount)?;
    member_exists(conn, member).await?;
    let after =
        settlement::move_red_packet(conn, member, None, amount, note, now).await?.ok_or_else(|| Error::conflict("红包账户余额不能为负"))?;
    let yuan = money::text(amount);
    messages::send(conn, member, messages::MessageKind::Wallet, "获得红包", &format!("{note}：账户红包+¥{yuan}。")).await?;
    Ok(after)
}

/// Moves member `member`'s points by `points` (more or, negative, fewer; never below zero)
/// for `note`, in the caller's transaction. Answers the points after.
pub async fn points(conn: &mut AnyConnection, member: i64, points: i64, note: &str, now: i64) -> Result<i64> {
    if points == 0 {
        return Err(Error::field("points", "积分变动不能为0"));
    }
    member_exists(conn, member).await?;
    let after = settlement::move_points(conn, member, None, points, note, now).await?.ok_or_else(|| Error::conflict("会员积分不足"))?;
    messages::send(conn, member, messages::MessageKind::Wallet, "积分变动", &format!("{note}：积分{points:+}。")).await?;
    Ok(after)
}

/// Credits `amount` (stored, positive) to member `member`'s balance for `note` (an offline
/// recharge), in the caller's transaction. Answers the balance after.
pub async fn balance(conn: &mut AnyConnection, member: i64, amount: i64, note: &str, now: i64) -> Result<i64> {
    positive(amount)?;
    member_exists(conn, member).await?;
    let after = settlement::credit_balance(conn, member, None, amount, note, now).await?;
    let yuan = money::text(amount);
    messages::send(conn, member, messages::MessageKind::Wallet, "余额到账", &format!("{note}：余额+¥{yuan}。")).await?;
    Ok(after)
}
