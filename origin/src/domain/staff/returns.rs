//! The operator's work on returns (退货) and after-sales cases (售后), for the console and the
//! commands alike: the lists, a return approved or rejected (customer service) and its goods
//! received, which refunds it (the warehouse), and a case answered or closed. Each write is one
//! transaction with the member's message and the audit row.

use serde::Serialize;
use serde_json::json;
use sqlx::AnyConnection;

use super::audit::{self, Actor, Entry};
use super::orders::begin_write;
use crate::domain::after_sales::{self, CaseKind, CaseStatus};
use crate::domain::orders::life;
use crate::domain::returns::{self, Refusal, ReturnReason, ReturnStatus, Step};
use crate::domain::{Error, Result, messages};
use crate::money;

/// A return in the console's list.
#[derive(Debug, Serialize, sqlx::FromRow, utoipa::ToSchema)]
pub struct ReturnListRow {
    pub id: i64,
    pub return_no: String,
    pub order_id: i64,
    pub order_no: String,
    pub member_id: i64,
    pub company: String,
    /// 1 质量问题, 2 发错货, 3 商品破损, 4 效期问题, 5 不想要了, 6 其他.
    #[schema(value_type = i64)]
    pub reason: ReturnReason,
    pub description: String,
    /// 0 待审核, 1 待退货, 2 已拒绝, 3 已退款, 4 已撤销.
    #[schema(value_type = i64)]
    pub status: ReturnStatus,
    /// What receiving it refunds to the balance (the engine's rule 20, computed at the request).
    #[serde(serialize_with = "super::as_money")]
    #[schema(value_type = String, example = "22.10")]
    pub refund: i64,
    pub operator_note: String,
    /// The units: `阿莫西林胶囊 ×2（批号 A2301）`, one per line returned.
    #[sqlx(skip)]
    pub units: Vec<String>,
    pub created_at: i64,
}

/// A page of returns (`page` from 1), newest first: `status` only, `search` in the return's or
/// the order's number or the company.
pub async fn list(
    conn: &mut AnyConnection,
    status: Option<ReturnStatus>,
    search: Option<&str>,
    page: i64,
    size: i64,
) -> Result<(Vec<ReturnListRow>, i64)> {
    let search = search.map(|text| format!("%{}%", text.replace(['%', '_', '\\'], ""))).unwrap_or_default();
    let status = status.map_or(-1, ReturnStatus::code);
    const MATCHING: &str = "FROM returns r JOIN orders o ON o.id = r.order_id JOIN members m ON m.id = r.member_id \
         WHERE ($1 < 0 OR r.status = $1) AND ($2 = '' OR r.return_no LIKE $2 OR o.order_no LIKE $2 OR m.company LIKE $2)";
    let mut rows: Vec<ReturnListRow> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT r.id, r.return_no, r.order_id, o.order_no, r.member_id, m.company, r.reason, r.description, r.status, r.refund, \
                r.operator_note, r.created_at {MATCHING} ORDER BY r.id DESC LIMIT $3 OFFSET $4"
    )))
    .bind(status)
    .bind(&search)
    .bind(size)
    .bind((page - 1) * size)
    .fetch_all(&mut *conn)
    .await?;
    for row in &mut rows {
        let units: Vec<(String, i64, Option<String>)> = sqlx::query_as(
            "SELECT i.name, l.number, g.lot_no FROM return_lines l JOIN order_items i ON i.id = l.order_item_id \
             LEFT JOIN goods_lots g ON g.id = l.lot_id WHERE l.return_id = $1 ORDER BY l.id",
        )
        .bind(row.id)
        .fetch_all(&mut *conn)
        .await?;
        row.units = units
            .into_iter()
            .map(|(name, number, lot)| match lot {
                Some(lot) => format!("{name} ×{number}（批号 {lot}）"),
                None => format!("{name} ×{number}"),
            })
            .collect();
    }
    let total: i64 = sqlx::query_scalar(sqlx::AssertSqlSafe(format!("SELECT CAST(COUNT(*) AS BIGINT) {MATCHING}")))
        .bind(status)
        .bind(&search)
        .fetch_one(&mut *conn)
        .await?;
    Ok((rows, total))
}

/// A return moved.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct ReturnMoved {
    pub id: i64,
    pub return_no: String,
    /// Its state now: 待退货, 已拒绝 or 已退款.
    pub status: String,
    /// What was refunded (receiving only), to the balance, and the red packets given back.
    #[serde(serialize_with = "super::as_money")]
    #[schema(value_type = String)]
    pub refund: i64,
    #[serde(serialize_with = "super::as_money")]
    #[schema(value_type = String)]
    pub red_packet: i64,
    pub points_back: i64,
    /// Earned points taken back, and what of them had been spent, taken from the refund.
    pub points_taken: i64,
    #[serde(serialize_with = "super::as_money")]
    #[schema(value_type = String)]
    pub points_deducted: i64,
}

/// Approves (with where to send the goods), rejects (with the reason the member reads) or
/// receives (and refunds) return `id`; the member is told; one transaction with the audit row.
pub async fn step(conn: &mut AnyConnection, actor: &Actor, id: i64, step: Step, note: &str, now: i64) -> Result<ReturnMoved> {
    let note = note.trim();
    if step == Step::Reject && note.is_empty() {
        return Err(Error::field("reason", "请填写拒绝原因"));
    }
    if note.chars().count() > 200 {
        return Err(Error::field("note", "说明不能超过200字"));
    }
    if step == Step::Withdraw {
        return Err(Error::conflict("只有会员可以撤销退货申请"));
    }
    let mut tx = begin_write(conn).await?;
    let before = returns::return_row(&mut tx, id, None).await?.ok_or_else(|| Error::not_found("退货单不存在"))?;
    let (moved, paid) = match returns::step(&mut tx, id, None, step, life::Actor::Operator, note, now).await? {
        Ok(moved) => moved,
        Err(Refusal::State(message)) => return Err(Error::conflict(message)),
        Err(Refusal::Field(field, message)) => return Err(Error::field(&field, message)),
    };
    let number = &moved.return_no;
    let (title, body, action, status) = match step {
        Step::Approve => {
            ("退货申请已通过", format!("您的退货申请 {number} 已通过，请将商品寄回。{note}"), "return.approve", ReturnStatus::Approved)
        }
        Step::Reject => ("退货申请未通过", format!("您的退货申请 {number} 未通过：{note}"), "return.reject", ReturnStatus::Rejected),
        _ => (
            "退款已到账",
            format!(
                "退货 {number} 的商品已收到，¥{} 已退回您的余额{}{}{}。",
                money::text(paid.refund),
                if paid.red_packet > 0 { format!("，红包¥{}已退回", money::text(paid.red_packet)) } else { String::new() },
                if paid.points_back > 0 { format!("，积分{}已退回", paid.points_back) } else { String::new() },
                if paid.points_deducted > 0 {
                    format!("，已使用的赠送积分折合¥{}已从退款中扣除", money::text(paid.points_deducted))
                } else {
                    String::new()
                }
            ),
            "return.receive",
            ReturnStatus::Refunded,
        ),
    };
    messages::send(&mut tx, moved.member_id, messages::MessageKind::Order, title, body.trim_end()).await?;
    let after = match step {
        Step::Receive => json!({
            "status": status.name(), "refund": money::text(paid.refund), "red_packet": money::text(paid.red_packet),
            "points_back": paid.points_back, "points_taken": paid.points_taken, "points_deducted": money::text(paid.points_deducted),
        }),
        _ => json!({ "status": status.name(), "note": note }),
    };
    let entry = Entry {
        action,
        target: format!("return:{id}"),
        member: Some(moved.member_id),
        summary: format!("退货单 {number}（订单 {}）：{}", order_no(&mut tx, moved.order_id).await?, status.name()),
        before: json!({ "status": before.status.name() }),
        after,
    };
    audit::record(&mut tx, actor, entry, now).await?;
    tx.commit().await?;
    let refunded = step == Step::Receive;
    Ok(ReturnMoved {
        id,
        return_no: moved.return_no.clone(),
        status: status.name().to_owned(),
        refund: if refunded { paid.refund } else { 0 },
        red_packet: if refunded { paid.red_packet } else { 0 },
        points_back: if refunded { paid.points_back } else { 0 },
        points_taken: if refunded { paid.points_taken } else { 0 },
        points_deducted: if refunded { paid.points_deducted } else { 0 },
    })
}

async fn order_no(conn: &mut AnyConnection, order: i64) -> Result<String> {
    Ok(sqlx::query_scalar("SELECT order_no FROM orders WHERE id = $1").bind(order).fetch_one(&mut *conn).await?)
}

/// An after-sales case in the console's list.
#[derive(Debug, Serialize, sqlx::FromRow, utoipa::ToSchema)]
pub struct CaseRow {
    pub id: i64,
    pub case_no: String,
    pub order_id: i64,
    pub order_no: String,
    pub member_id: i64,
    pub company: String,
    /// 1 质量问题, 2 配送问题, 3 其他.
    #[schema(value_type = i64)]
    pub kind: CaseKind,
    /// 0 处理中, 1 已解决.
    #[schema(value_type = i64)]
    pub status: CaseStatus,
    /// The thread's last message and who wrote it (`member` or `operator`).
    pub last: String,
    pub last_author: String,
    pub updated_at: i64,
}

/// A page of cases, the most recently written to first; open ones only when `open`.
pub async fn cases(conn: &mut AnyConnection, open: bool, page: i64, size: i64) -> Result<(Vec<CaseRow>, i64)> {
    let rows: Vec<CaseRow> = sqlx::query_as(
        "SELECT a.id, a.case_no, a.order_id, o.order_no, a.member_id, m.company, a.kind, a.status, \
                COALESCE((SELECT x.body FROM after_sale_messages x WHERE x.case_id = a.id ORDER BY x.id DESC LIMIT 1), '') AS last, \
                COALESCE((SELECT x.author FROM after_sale_messages x WHERE x.case_id = a.id ORDER BY x.id DESC LIMIT 1), '') AS last_author, \
                a.updated_at \
         FROM after_sales a JOIN orders o ON o.id = a.order_id JOIN members m ON m.id = a.member_id \
         WHERE ($1 = 0 OR a.status = $2) ORDER BY a.updated_at DESC, a.id DESC LIMIT $3 OFFSET $4",
    )
    .bind(i64::from(open))
    .bind(CaseStatus::Open)
    .bind(size)
    .bind((page - 1) * size)
    .fetch_all(&mut *conn)
    .await?;
    let total: i64 = sqlx::query_scalar("SELECT CAST(COUNT(*) AS BIGINT) FROM after_sales WHERE ($1 = 0 OR status = $2)")
        .bind(i64::from(open))
        .bind(CaseStatus::Open)
        .fetch_one(&mut *conn)
        .await?;
    Ok((rows, total))
}

/// A message of a case's thread.
#[derive(Debug, Serialize, sqlx::FromRow, utoipa::ToSchema)]
pub struct ThreadMessage {
    pub id: i64,
    /// `member` or `operator`.
    pub author: String,
    pub body: String,
    pub created_at: i64,
}

/// A case with its whole thread, oldest first.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct CaseThread {
    pub case: CaseRow,
    pub messages: Vec<ThreadMessage>,
}

pub async fn case(conn: &mut AnyConnection, id: i64) -> Result<CaseThread> {
    let case: CaseRow = sqlx::query_as(
        "SELECT a.id, a.case_no, a.order_id, o.order_no, a.member_id, m.company, a.kind, a.status, '' AS last, '' AS last_author, a.updated_at \
         FROM after_sales a JOIN orders o ON o.id = a.order_id JOIN members m ON m.id = a.member_id WHERE a.id = $1",
    )
    .bind(id)
    .fetch_optional(&mut *conn)
    .await?
    .ok_or_else(|| Error::not_found("售后单不存在"))?;
    let messages = sqlx::query_as("SELECT id, author, body, created_at FROM after_sale_messages WHERE case_id = $1 ORDER BY id")
        .bind(id)
        .fetch_all(&mut *conn)
        .await?;
    Ok(CaseThread { case, messages })
}

/// Answers open case `id` (the member is told), closing it when `resolve`.
pub async fn answer(conn: &mut AnyConnection, actor: &Actor, id: i64, body: &str, resolve: bool, now: i64) -> Result<String> {
    let body = body.trim();
    if body.is_empty() {
        return Err(Error::field("body", "请填写回复内容"));
    }
    if body.chars().count() > 1000 {
        return Err(Error::field("body", "回复内容不能超过1000字"));
    }
    let mut tx = begin_write(conn).await?;
    let after_sales::Case { member, case_no } = after_sales::answer(&mut tx, id, body, resolve, now).await?;
    let entry = Entry {
        action: "after_sales.answer",
        target: format!("after_sales:{id}"),
        member: Some(member),
        summary: format!("售后单 {case_no} 回复{}：{body}", if resolve { "并解决" } else { "" }),
        before: json!({ "status": CaseStatus::Open.name() }),
        after: json!({ "status": if resolve { CaseStatus::Resolved.name() } else { CaseStatus::Open.name() }, "answer": body }),
    };
    audit::record(&mut tx, actor, entry, now).await?;
    tx.commit().await?;
    Ok(case_no)
}
