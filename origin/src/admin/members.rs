//! Members and their standing: listing members, reviewing their certificates (approving one
//! may approve the member), and their applications for controlled sales (控销).

use sqlx::AnyConnection;

use super::shown::shown;
use crate::domain::members::ReviewStatus;
use crate::domain::staff::Actor;
use crate::domain::staff::members::{self, CertificateReviewed};
use crate::{money, now};

#[derive(sqlx::FromRow)]
struct MemberRow {
    id: i64,
    username: String,
    company: String,
    phone: String,
    is_passed: i64,
    balance: i64,
    red_packet: i64,
    points: i64,
    pending: i64,
}

#[derive(sqlx::FromRow)]
struct CertificateRow {
    id: i64,
    member_id: i64,
    kind: String,
    number: String,
    expires_on: String,
    status: ReviewStatus,
    reason: String,
    file_name: String,
}

pub(super) async fn members(conn: &mut AnyConnection, search: Option<String>, pending: bool) -> anyhow::Result<String> {
    let pattern = format!("%{}%", search.unwrap_or_default());
    let rows: Vec<MemberRow> = sqlx::query_as(
        "SELECT m.id, m.username, m.company, m.phone, m.is_passed, m.balance, m.red_packet, m.points, \
                (SELECT COUNT(*) FROM qualifications q WHERE q.member_id = m.id AND q.status = $2) AS pending \
         FROM members m WHERE (m.username LIKE $1 OR m.company LIKE $1 OR m.phone LIKE $1) ORDER BY m.id",
    )
    .bind(pattern)
    .bind(ReviewStatus::Pending)
    .fetch_all(&mut *conn)
    .await?;
    let mut out = String::from("id\taccount\tcompany\tphone\tapproved\tbalance\tred_packet\tpoints\tpending\n");
    for row in rows.into_iter().filter(|row| !pending || row.pending > 0) {
        out += &format!(
            "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\n",
            row.id,
            shown(&row.username),
            shown(&row.company),
            shown(&row.phone),
            if row.is_passed == 1 { "yes" } else { "no" },
            money::text(row.balance),
            money::text(row.red_packet),
            row.points,
            row.pending
        );
    }
    Ok(out)
}

pub(super) async fn qualifications(conn: &mut AnyConnection, member: Option<i64>, pending: bool) -> anyhow::Result<String> {
    let rows: Vec<CertificateRow> = sqlx::query_as(
        "SELECT id, member_id, kind, number, expires_on, status, reason, file_name FROM qualifications \
         WHERE ($1 = 0 OR member_id = $1) AND ($2 = 0 OR status = $3) ORDER BY member_id, id",
    )
    .bind(member.unwrap_or(0))
    .bind(i64::from(pending))
    .bind(ReviewStatus::Pending)
    .fetch_all(&mut *conn)
    .await?;
    let mut out = String::from("id\tmember\tkind\tnumber\texpires\tstatus\tscan\treason\n");
    for row in rows {
        let status = match row.status {
            ReviewStatus::Pending => "pending",
            ReviewStatus::Approved => "approved",
            ReviewStatus::Rejected => "rejected",
        };
        let scan = if row.file_name.is_empty() { "-".to_owned() } else { format!("uploads/{}/{}", row.member_id, row.file_name) };
        out += &format!(
            "{}\t{}\t{}\t{}\t{}\t{status}\t{scan}\t{}\n",
            row.id,
            row.member_id,
            shown(&row.kind),
            shown(&row.number),
            shown(&row.expires_on),
            shown(&row.reason)
        );
    }
    Ok(out)
}

pub(super) async fn approve(conn: &mut AnyConnection, operator: &str, id: i64, scope: Option<String>) -> anyhow::Result<String> {
    let reviewed = members::approve_certificate(conn, &Actor::command_line(operator), id, scope.as_deref(), now()).await?;
    let CertificateReviewed { member_id: member, kind, member_approved, scope, .. } = reviewed;
    let approved = if member_approved { "; the member is approved" } else { "" };
    let scope = if scope.is_empty() {
        "; its business scope is empty: it may buy no medicine, device or food until one is set (--scope)".to_owned()
    } else {
        format!("; business scope: {}", scope.join("、"))
    };
    Ok(format!("approved certificate {id} ({kind}) of member {member}{approved}{scope}\n"))
}

pub(super) async fn reject(conn: &mut AnyConnection, operator: &str, id: i64, reason: &str) -> anyhow::Result<String> {
    let reviewed = members::reject_certificate(conn, &Actor::command_line(operator), id, reason, now()).await?;
    Ok(format!("rejected certificate {id} ({}) of member {}\n", reviewed.kind, reviewed.member_id))
}

pub(super) async fn kx_members(conn: &mut AnyConnection, pending: bool) -> anyhow::Result<String> {
    let rows: Vec<(i64, String, String, ReviewStatus, String, i64)> = sqlx::query_as(
        "SELECT k.member_id, m.username, m.company, k.status, k.reason, k.created_at FROM kx_members k \
         JOIN members m ON m.id = k.member_id WHERE ($1 = 0 OR k.status = $2) ORDER BY k.created_at, k.member_id",
    )
    .bind(i64::from(pending))
    .bind(ReviewStatus::Pending)
    .fetch_all(&mut *conn)
    .await?;
    let mut out = String::from("member\tusername\tcompany\tstatus\treason\tapplied\n");
    for (member, username, company, status, reason, created_at) in rows {
        out += &format!("{member}\t{}\t{}\t{}\t{}\t{created_at}\n", shown(&username), shown(&company), status.name(), shown(&reason));
    }
    Ok(out)
}

/// Approves (no reason) or rejects a controlled-sales application, telling the member.
pub(super) async fn kx_review(conn: &mut AnyConnection, operator: &str, member: i64, reason: Option<&str>) -> anyhow::Result<String> {
    let status = members::review_controlled_sales(conn, &Actor::command_line(operator), member, reason, now()).await?;
    Ok(format!("member {member}: {}\n", status.name()))
}
