//! What operators give members, each with a reason the member's log and the audit trail keep:
//! coupons and cash vouchers from a template, red packets and points (`operations`), and balance
//! (`finance`, an offline recharge). A balance grant above [`SECOND_OPERATOR_ABOVE`] waits for a
//! second operator: it is a request until another operator approves it (then it is paid) or
//! rejects it. The console and the commands call these functions alike.

use serde::Serialize;
use serde_json::json;
use sqlx::AnyConnection;

use super::audit::{self, Actor, Entry};
use super::orders::begin_write;
use crate::domain::grants::{self, Granted, Templates};
use crate::domain::{Error, Result, messages};
use crate::money;

/// Balance grants above ¥1,000.00 (stored ten-thousandths) need a second operator.
pub const SECOND_OPERATOR_ABOVE: i64 = 1_000 * 10_000;

/// What is given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Gift {
    Coupon {
        template: i64,
        count: i64,
    },
    Voucher {
        template: i64,
        count: i64,
    },
    /// Stored money.
    RedPacket {
        amount: i64,
    },
    /// Signed: a negative count takes points away (never below zero).
    Points {
        points: i64,
    },
    /// Stored money.
    Balance {
        amount: i64,
    },
}

/// A gift given, or (a large balance grant) waiting for a second operator.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct Given {
    /// What was given, as a person reads it.
    pub summary: String,
    /// The balance request waiting for a second operator, when the grant is one.
    #[schema(required = true)]
    pub request: Option<i64>,
}

/// A positive amount of yuan with at most two decimals, as stored; a 422 on `field` otherwise.
pub fn amount(text: &str, field: &str) -> Result<i64> {
    money::parse_stored(text.trim())
        .filter(|stored| *stored > 0 && stored % 100 == 0)
        .ok_or_else(|| Error::field(field, "金额须为大于0、最多两位小数的元数"))
}

/// Gives `gift` to member `member` for `reason` (the member's log and the trail keep it).
pub async fn give(conn: &mut AnyConnection, actor: &Actor, member: i64, gift: Gift, reason: &str, now: i64) -> Result<Given> {
    let reason = reason.trim();
    if reason.is_empty() {
        return Err(Error::field("reason", "请填写赠送原因"));
    }
    if reason.chars().count() > 100 {
        return Err(Error::field("reason", "赠送原因不能超过100字"));
    }
    if let Gift::Coupon { count, .. } | Gift::Voucher { count, .. } = gift
        && !(1..=grants::COUNT_MAX).contains(&count)
    {
        return Err(Error::field("count", format!("数量须在1到{}之间", grants::COUNT_MAX)));
    }
    let mut tx = begin_write(conn).await?;
    let exists: Option<i64> = sqlx::query_scalar("SELECT id FROM members WHERE id = $1").bind(member).fetch_optional(&mut *tx).await?;
    exists.ok_or_else(|| Error::not_found("会员不存在"))?;
    let (action, summary, before, after, request) = match gift {
        Gift::Coupon { template, count } | Gift::Voucher { template, count } => {
            let kind = if matches!(gift, Gift::Coupon { .. }) { Templates::Coupons } else { Templates::Vouchers };
            let Granted { title, .. } = grants::templates(&mut tx, kind, member, template, count, now).await?;
            let (action, what) = match kind {
                Templates::Coupons => ("grant.coupon", "优惠券"),
                Templates::Vouchers => ("grant.voucher", "现金券"),
            };
            (
                action,
                format!("赠送{what}「{title}」×{count}"),
                json!(null),
                json!({ "template": template, "count": count, "title": title }),
                None,
            )
        }
        Gift::RedPacket { amount } => {
            let after = grants::red_packet(&mut tx, member, amount, reason, now).await?;
            let yuan = money::text(amount);
            let before = money::text(after - amount);
            (
                "grant.red_packet",
                format!("赠送红包¥{yuan}"),
                json!({ "red_packet": before }),
                json!({ "red_packet": money::text(after) }),
                None,
            )
        }
        Gift::Points { points } => {
            let before: i64 = sqlx::query_scalar("SELECT points FROM members WHERE id = $1").bind(member).fetch_one(&mut *tx).await?;
            let after = grants::points(&mut tx, member, points, reason, now).await?;
            ("grant.points", format!("积分{points:+}"), json!({ "points": before }), json!({ "points": after }), None)
        }
        Gift::Balance { amount } if amount > SECOND_OPERATOR_ABOVE => {
            let id: i64 = sqlx::query_scalar(
                "INSERT INTO balance_requests (member_id, amount, reason, requested_by, requested_name, created_at) \
                 VALUES ($1, $2, $3, $4, $5, $6) RETURNING id",
            )
            .bind(member)
            .bind(amount)
            .bind(reason)
            .bind(actor.operator)
            .bind(&actor.name)
            .bind(now)
            .fetch_one(&mut *tx)
            .await?;
            let summary = format!("申请赠送余额¥{}，待另一位员工审批", money::text(amount));
            ("grant.balance.request", summary, json!(null), json!({ "request": id, "amount": money::text(amount) }), Some(id))
        }
        Gift::Balance { amount } => {
            let after = grants::balance(&mut tx, member, amount, reason, now).await?;
            let summary = format!("赠送余额¥{}", money::text(amount));
            ("grant.balance", summary, json!({ "balance": money::text(after - amount) }), json!({ "balance": money::text(after) }), None)
        }
    };
    let entry = Entry {
        action,
        target: format!("member:{member}"),
        member: Some(member),
        summary: format!("{summary}（{reason}）"),
        before,
        after,
    };
    audit::record(&mut tx, actor, entry, now).await?;
    tx.commit().await?;
    Ok(Given { summary, request })
}

/// A balance request.
#[derive(Debug, Serialize, sqlx::FromRow, utoipa::ToSchema)]
pub struct BalanceRequest {
    pub id: i64,
    pub member_id: i64,
    pub company: String,
    #[serde(serialize_with = "super::as_money")]
    #[schema(value_type = String)]
    pub amount: i64,
    pub reason: String,
    pub requested_name: String,
    /// 0 待审批, 1 已通过, 2 已驳回.
    pub status: i64,
    pub decided_name: String,
    pub created_at: i64,
}

/// Balance requests, waiting ones first, then the newest.
pub async fn requests(conn: &mut AnyConnection, pending: bool) -> Result<Vec<BalanceRequest>> {
    Ok(sqlx::query_as(
        "SELECT r.id, r.member_id, m.company, r.amount, r.reason, r.requested_name, r.status, r.decided_name, r.created_at \
         FROM balance_requests r JOIN members m ON m.id = r.member_id WHERE ($1 = 0 OR r.status = 0) \
         ORDER BY r.status = 0 DESC, r.id DESC LIMIT 200",
    )
    .bind(i64::from(pending))
    .fetch_all(&mut *conn)
    .await?)
}

/// Approves (pays) or rejects balance request `id`: only an operator other than the one who
/// asked, and only once.
pub async fn decide(conn: &mut AnyConnection, actor: &Actor, id: i64, approve: bool, now: i64) -> Result<Given> {
    let mut tx = begin_write(conn).await?;
    let row: Option<(i64, i64, String, Option<i64>, String, i64)> =
        sqlx::query_as("SELECT member_id, amount, reason, requested_by, requested_name, status FROM balance_requests WHERE id = $1")
            .bind(id)
            .fetch_optional(&mut *tx)
            .await?;
    let (member, amount, reason, by, by_name, status) = row.ok_or_else(|| Error::not_found("余额申请不存在"))?;
    if status != 0 {
        return Err(Error::conflict("该申请已处理"));
    }
    let same = match (by, actor.operator) {
        (Some(by), Some(me)) => by == me,
        _ => by_name == actor.name,
    };
    if same {
        return Err(Error::forbidden("须由另一位员工审批"));
    }
    let decided = sqlx::query(
        "UPDATE balance_requests SET status = $1, decided_by = $2, decided_name = $3, decided_at = $4 WHERE id = $5 AND status = 0",
    )
    .bind(if approve { 1 } else { 2 })
    .bind(actor.operator)
    .bind(&actor.name)
    .bind(now)
    .bind(id)
    .execute(&mut *tx)
    .await?;
    if decided.rows_affected() != 1 {
        return Err(Error::conflict("该申请已处理"));
    }
    let yuan = money::text(amount);
    let (action, summary, after) = if approve {
        let after = grants::balance(&mut tx, member, amount, &reason, now).await?;
        (
            "grant.balance.approve",
            format!("审批通过余额¥{yuan}（{by_name}申请：{reason}）"),
            json!({ "status": "已通过", "balance": money::text(after) }),
        )
    } else {
        messages::send(&mut tx, member, messages::MessageKind::Wallet, "余额充值未通过", &format!("¥{yuan}的余额充值未通过审核。")).await?;
        ("grant.balance.reject", format!("驳回余额¥{yuan}（{by_name}申请：{reason}）"), json!({ "status": "已驳回" }))
    };
    let entry = Entry {
        action,
        target: format!("balance_request:{id}"),
        member: Some(member),
        summary: summary.clone(),
        before: json!({ "status": "待审批", "amount": yuan, "requested_by": by_name }),
        after,
    };
    audit::record(&mut tx, actor, entry, now).await?;
    tx.commit().await?;
    Ok(Given { summary, request: Some(id) })
}
