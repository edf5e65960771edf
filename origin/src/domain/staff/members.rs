//! The operator's work on members, for the console and the commands alike: the list (search,
//! approval, certificates waiting), a member's page (standing, scope, certificates, orders,
//! balance movements, controlled-sales application), certificates approved with the business
//! scope or rejected with a reason, and controlled-sales applications reviewed. Each write is
//! one transaction with the member's message (the domain's) and the audit row.

use serde::Serialize;
use serde_json::json;
use sqlx::AnyConnection;

use super::audit::{self, Actor, Entry};
use super::orders::begin_write;
use crate::domain::catalogue::controlled;
use crate::domain::catalogue::scope::{Scope, ScopeClass, parse_scope};
use crate::domain::certificates::{self, Reviewed};
use crate::domain::members::ReviewStatus;
use crate::domain::orders::life::OrderStatus;
use crate::domain::{Error, Result};

/// A member in the console's list.
#[derive(Debug, Serialize, sqlx::FromRow, utoipa::ToSchema)]
pub struct MemberRow {
    pub id: i64,
    pub username: String,
    pub company: String,
    pub name: String,
    pub phone: String,
    /// 1 单体药店, 2 连锁药店, 3 诊所, 4 医院/卫生院, 5 批发企业.
    pub buyer_type: i64,
    /// 1 when its required certificates are approved: it may order.
    pub is_passed: i64,
    #[serde(serialize_with = "super::as_money")]
    #[schema(value_type = String)]
    pub balance: i64,
    pub points: i64,
    /// Certificates waiting for review.
    pub pending: i64,
    pub created_at: i64,
}

/// What a member list keeps to.
#[derive(Debug, Default)]
pub struct Filter {
    /// Part of the account, company, contact or phone, or the member's id.
    pub search: Option<String>,
    /// `true`: approved only; `false`: not yet approved only.
    pub approved: Option<bool>,
    /// Only members with certificates waiting for review.
    pub pending: bool,
}

macro_rules! matching {
    () => {
        "FROM members m WHERE ($1 = '' OR m.username LIKE $1 OR m.company LIKE $1 OR m.name LIKE $1 OR m.phone LIKE $1 \
             OR CAST(m.id AS TEXT) = $2) \
         AND ($3 < 0 OR m.is_passed = $3) \
         AND ($4 = 0 OR EXISTS (SELECT 1 FROM qualifications q WHERE q.member_id = m.id AND q.status = $5))"
    };
}

/// A page of members (`page` from 1), those waiting longest for a review first when `pending`,
/// else the newest first.
pub async fn list(conn: &mut AnyConnection, filter: &Filter, page: i64, size: i64) -> Result<(Vec<MemberRow>, i64)> {
    let search = filter.search.as_deref().map(|text| format!("%{}%", text.replace(['%', '_', '\\'], ""))).unwrap_or_default();
    let approved = filter.approved.map_or(-1, i64::from);
    let rows: Vec<MemberRow> = sqlx::query_as(concat!(
        "SELECT m.id, m.username, m.company, m.name, m.phone, m.buyer_type, m.is_passed, m.balance, m.points, \
                (SELECT CAST(COUNT(*) AS BIGINT) FROM qualifications q WHERE q.member_id = m.id AND q.status = $5) AS pending, m.created_at ",
        matching!(),
        " ORDER BY m.id DESC LIMIT $6 OFFSET $7"
    ))
    .bind(&search)
    .bind(filter.search.clone().unwrap_or_default())
    .bind(approved)
    .bind(i64::from(filter.pending))
    .bind(ReviewStatus::Pending)
    .bind(size)
    .bind((page - 1) * size)
    .fetch_all(&mut *conn)
    .await?;
    let total: i64 = sqlx::query_scalar(concat!("SELECT CAST(COUNT(*) AS BIGINT) ", matching!()))
        .bind(&search)
        .bind(filter.search.clone().unwrap_or_default())
        .bind(approved)
        .bind(i64::from(filter.pending))
        .bind(ReviewStatus::Pending)
        .fetch_one(&mut *conn)
        .await?;
    Ok((rows, total))
}

/// A certificate as the reviewer sees it.
#[derive(Debug, Serialize, sqlx::FromRow, utoipa::ToSchema)]
pub struct CertificateRow {
    pub id: i64,
    pub kind: String,
    pub number: String,
    pub valid_from: String,
    /// Its last valid day; empty when it does not expire.
    pub expires_on: String,
    /// The scope printed on it, as the member typed it.
    pub scope: String,
    /// 0 待审核, 1 已通过, 2 未通过.
    #[schema(value_type = i64)]
    pub status: ReviewStatus,
    pub reason: String,
    /// The scan's type (`image/jpeg`, `image/png`, `application/pdf`); empty without one.
    pub file_type: String,
    pub created_at: i64,
}

/// An order in a member's page.
#[derive(Debug, Serialize, sqlx::FromRow, utoipa::ToSchema)]
pub struct MemberOrder {
    pub id: i64,
    pub order_no: String,
    #[schema(value_type = i64)]
    pub status: OrderStatus,
    #[serde(serialize_with = "super::as_money")]
    #[schema(value_type = String)]
    pub payable: i64,
    pub created_at: i64,
}

/// A movement of a member's balance.
#[derive(Debug, Serialize, sqlx::FromRow, utoipa::ToSchema)]
pub struct BalanceMove {
    pub id: i64,
    /// Signed: negative when money left the wallet.
    #[serde(serialize_with = "super::as_money")]
    #[schema(value_type = String)]
    pub amount: i64,
    #[serde(serialize_with = "super::as_money")]
    #[schema(value_type = String)]
    pub balance_after: i64,
    pub note: String,
    pub created_at: i64,
}

/// A class of the business scope, and whether the member's approved scope holds it.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct ScopeEntry {
    pub id: i64,
    pub name: &'static str,
    /// Whether selling goods of the class needs it in the member's scope.
    pub needs_licence: bool,
    pub held: bool,
}

/// A member's page.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct MemberPage {
    pub member: MemberRow,
    pub red_packet_balance: String,
    pub scope: Vec<ScopeEntry>,
    pub certificates: Vec<CertificateRow>,
    /// The controlled-sales (控销) application: 0 待审核, 1 已通过, 2 未通过; `null` when none.
    #[schema(required = true)]
    pub controlled_sales: Option<i64>,
    pub controlled_sales_reason: String,
    /// The latest 10 orders and balance movements.
    pub orders: Vec<MemberOrder>,
    pub balance_moves: Vec<BalanceMove>,
}

pub async fn page(conn: &mut AnyConnection, id: i64) -> Result<MemberPage> {
    let member: MemberRow = sqlx::query_as(
        "SELECT m.id, m.username, m.company, m.name, m.phone, m.buyer_type, m.is_passed, m.balance, m.points, \
                (SELECT CAST(COUNT(*) AS BIGINT) FROM qualifications q WHERE q.member_id = m.id AND q.status = $2) AS pending, m.created_at \
         FROM members m WHERE m.id = $1",
    )
    .bind(id)
    .bind(ReviewStatus::Pending)
    .fetch_optional(&mut *conn)
    .await?
    .ok_or_else(|| Error::not_found("会员不存在"))?;
    let red_packet: i64 = sqlx::query_scalar("SELECT red_packet FROM members WHERE id = $1").bind(id).fetch_one(&mut *conn).await?;
    let held = Scope::of_member(conn, id).await?;
    let scope = ScopeClass::ALL
        .into_iter()
        .map(|class| ScopeEntry {
            id: class.code(),
            name: class.name(),
            needs_licence: class.needs_licence(),
            held: held.classes().any(|had| had == class),
        })
        .collect();
    let certificates = sqlx::query_as(
        "SELECT id, kind, number, valid_from, expires_on, scope, status, reason, file_type, created_at FROM qualifications \
         WHERE member_id = $1 ORDER BY status = 0 DESC, id DESC",
    )
    .bind(id)
    .fetch_all(&mut *conn)
    .await?;
    let application: Option<(ReviewStatus, String)> =
        sqlx::query_as("SELECT status, reason FROM kx_members WHERE member_id = $1").bind(id).fetch_optional(&mut *conn).await?;
    let orders =
        sqlx::query_as("SELECT id, order_no, status, payable, created_at FROM orders WHERE member_id = $1 ORDER BY id DESC LIMIT 10")
            .bind(id)
            .fetch_all(&mut *conn)
            .await?;
    let balance_moves = sqlx::query_as(
        "SELECT id, amount, balance_after, note, created_at FROM balance_logs WHERE member_id = $1 ORDER BY id DESC LIMIT 10",
    )
    .bind(id)
    .fetch_all(&mut *conn)
    .await?;
    Ok(MemberPage {
        member,
        red_packet_balance: crate::money::text(red_packet),
        scope,
        certificates,
        controlled_sales: application.as_ref().map(|(status, _)| status.code()),
        controlled_sales_reason: application.map(|(_, reason)| reason).unwrap_or_default(),
        orders,
        balance_moves,
    })
}

/// The scan of certificate `id`: its member, stored file name and type; not found without one.
pub async fn scan(conn: &mut AnyConnection, id: i64) -> Result<(i64, String, String)> {
    let row: Option<(i64, String, String)> =
        sqlx::query_as("SELECT member_id, file_name, file_type FROM qualifications WHERE id = $1 AND file_name <> ''")
            .bind(id)
            .fetch_optional(&mut *conn)
            .await?;
    row.ok_or_else(|| Error::not_found("证件扫描件不存在"))
}

/// A certificate reviewed: whether the member is now approved, and their business scope.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct CertificateReviewed {
    pub id: i64,
    pub member_id: i64,
    pub kind: String,
    pub member_approved: bool,
    /// The member's approved scope after it, by name.
    pub scope: Vec<&'static str>,
}

/// Approves certificate `id`, with the member's business scope when given (class names, `、`
/// or `,` between them; it replaces the one approved before).
pub async fn approve_certificate(
    conn: &mut AnyConnection,
    actor: &Actor,
    id: i64,
    scope: Option<&str>,
    now: i64,
) -> Result<CertificateReviewed> {
    let classes = scope.map(parse_scope).transpose().map_err(|message| Error::field("scope", message))?;
    let mut tx = begin_write(conn).await?;
    let before: Vec<&'static str> = match scan_member(&mut tx, id).await? {
        Some(member) => Scope::of_member(&mut tx, member).await?.classes().map(ScopeClass::name).collect(),
        None => return Err(Error::not_found("资质证件不存在")),
    };
    let Reviewed { member, kind, member_approved } = certificates::approve(&mut tx, id, classes.as_ref(), now).await?;
    let after: Vec<&'static str> = Scope::of_member(&mut tx, member).await?.classes().map(ScopeClass::name).collect();
    let entry = Entry {
        action: "qualification.approve",
        target: format!("certificate:{id}"),
        member: Some(member),
        summary: format!(
            "通过会员 {member} 的{kind}{}",
            if scope.is_some() { format!("，经营范围：{}", after.join("、")) } else { String::new() }
        ),
        before: json!({ "status": ReviewStatus::Pending.name(), "scope": before }),
        after: json!({ "status": ReviewStatus::Approved.name(), "scope": after, "member_approved": member_approved }),
    };
    audit::record(&mut tx, actor, entry, now).await?;
    tx.commit().await?;
    Ok(CertificateReviewed { id, member_id: member, kind, member_approved, scope: after })
}

async fn scan_member(conn: &mut AnyConnection, id: i64) -> Result<Option<i64>> {
    Ok(sqlx::query_scalar("SELECT member_id FROM qualifications WHERE id = $1").bind(id).fetch_optional(&mut *conn).await?)
}

/// Rejects certificate `id` with the reason the member reads.
pub async fn reject_certificate(conn: &mut AnyConnection, actor: &Actor, id: i64, reason: &str, now: i64) -> Result<CertificateReviewed> {
    let reason = reason.trim();
    if reason.is_empty() {
        return Err(Error::field("reason", "请填写驳回原因"));
    }
    if reason.chars().count() > 200 {
        return Err(Error::field("reason", "驳回原因不能超过200字"));
    }
    let mut tx = begin_write(conn).await?;
    let status: Option<ReviewStatus> =
        sqlx::query_scalar("SELECT status FROM qualifications WHERE id = $1").bind(id).fetch_optional(&mut *tx).await?;
    let status = status.ok_or_else(|| Error::not_found("资质证件不存在"))?;
    let Reviewed { member, kind, .. } = certificates::reject(&mut tx, id, reason, now).await?;
    let entry = Entry {
        action: "qualification.reject",
        target: format!("certificate:{id}"),
        member: Some(member),
        summary: format!("驳回会员 {member} 的{kind}：{reason}"),
        before: json!({ "status": status.name() }),
        after: json!({ "status": ReviewStatus::Rejected.name(), "reason": reason }),
    };
    audit::record(&mut tx, actor, entry, now).await?;
    tx.commit().await?;
    let scope = Scope::of_member(conn, member).await?.classes().map(ScopeClass::name).collect();
    Ok(CertificateReviewed { id, member_id: member, kind, member_approved: false, scope })
}

/// Approves (no reason) or rejects member `member`'s controlled-sales application; the member
/// is told. Answers its state now.
pub async fn review_controlled_sales(
    conn: &mut AnyConnection,
    actor: &Actor,
    member: i64,
    reason: Option<&str>,
    now: i64,
) -> Result<ReviewStatus> {
    let reason = reason.map(str::trim);
    if reason == Some("") {
        return Err(Error::field("reason", "请填写驳回原因"));
    }
    let mut tx = begin_write(conn).await?;
    let before: Option<ReviewStatus> =
        sqlx::query_scalar("SELECT status FROM kx_members WHERE member_id = $1").bind(member).fetch_optional(&mut *tx).await?;
    let status = controlled::review(&mut tx, member, reason, now).await?;
    let entry = Entry {
        action: if reason.is_none() { "kx.approve" } else { "kx.reject" },
        target: format!("member:{member}"),
        member: Some(member),
        summary: match reason {
            None => format!("通过会员 {member} 的控销申请"),
            Some(reason) => format!("驳回会员 {member} 的控销申请：{reason}"),
        },
        before: json!({ "status": before.map(ReviewStatus::name) }),
        after: json!({ "status": status.name(), "reason": reason }),
    };
    audit::record(&mut tx, actor, entry, now).await?;
    tx.commit().await?;
    Ok(status)
}
