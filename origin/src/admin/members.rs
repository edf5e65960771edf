//! Members and their standing: listing members, reviewing their certificates (approving one
//! may approve the member), and their applications for controlled sales (控销).

use sqlx::AnyConnection;

use super::shown::shown;
use super::{begin_write, log};
use crate::domain::members::REQUIRED;
use crate::domain::messages;
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
    status: i64,
    reason: String,
    file_name: String,
}

pub(super) async fn members(conn: &mut AnyConnection, search: Option<String>, pending: bool) -> anyhow::Result<String> {
    let pattern = format!("%{}%", search.unwrap_or_default());
    let rows: Vec<MemberRow> = sqlx::query_as(
        "SELECT m.id, m.username, m.company, m.phone, m.is_passed, m.balance, m.red_packet, m.points, \
                (SELECT COUNT(*) FROM qualifications q WHERE q.member_id = m.id AND q.status = 0) AS pending \
         FROM members m WHERE (m.username LIKE $1 OR m.company LIKE $1 OR m.phone LIKE $1) ORDER BY m.id",
    )
    .bind(pattern)
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
         WHERE ($1 = 0 OR member_id = $1) AND ($2 = 0 OR status = 0) ORDER BY member_id, id",
    )
    .bind(member.unwrap_or(0))
    .bind(i64::from(pending))
    .fetch_all(&mut *conn)
    .await?;
    let mut out = String::from("id\tmember\tkind\tnumber\texpires\tstatus\tscan\treason\n");
    for row in rows {
        let status = ["pending", "approved", "rejected"].get(row.status as usize).copied().unwrap_or("?");
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

/// Marks a certificate reviewed: answers its member and kind.
async fn review(conn: &mut AnyConnection, id: i64, status: i64, reason: &str) -> anyhow::Result<(i64, String)> {
    sqlx::query_as("UPDATE qualifications SET status = $1, reason = $2, reviewed_at = $3 WHERE id = $4 RETURNING member_id, kind")
        .bind(status)
        .bind(reason)
        .bind(now())
        .bind(id)
        .fetch_optional(&mut *conn)
        .await?
        .ok_or_else(|| anyhow::anyhow!("no qualification certificate {id}"))
}

pub(super) async fn approve(conn: &mut AnyConnection, operator: &str, id: i64, scope: Option<String>) -> anyhow::Result<String> {
    let mut tx = begin_write(conn).await?;
    let (member, kind) = review(&mut tx, id, 1, "").await?;
    if let Some(scope) = &scope {
        let lines: Vec<&str> = scope.split([',', '，', '\n']).map(str::trim).filter(|item| !item.is_empty()).collect();
        sqlx::query("UPDATE members SET business_scope = $1 WHERE id = $2").bind(lines.join("\n")).bind(member).execute(&mut *tx).await?;
    }
    // Approved once every required kind has an approved certificate.
    let approved: Vec<String> = sqlx::query_scalar("SELECT DISTINCT kind FROM qualifications WHERE member_id = $1 AND status = 1")
        .bind(member)
        .fetch_all(&mut *tx)
        .await?;
    let passed = REQUIRED.iter().all(|required| approved.iter().any(|kind| kind == required));
    if passed {
        sqlx::query("UPDATE members SET is_passed = 1 WHERE id = $1").bind(member).execute(&mut *tx).await?;
    }
    // One message when the member can order: the first approval completing the required kinds,
    // or a certificate of an approved member renewed. A certificate approved while others are
    // still missing shows its state on the certificates page, without a message of its own.
    if passed {
        let body = format!("您的{kind}已审核通过，资质审核完成，现在可以下单了。");
        messages::send(&mut tx, member, messages::QUALIFICATION, "资质审核通过", &body).await?;
    }
    log(
        &mut tx,
        operator,
        "qualification.approve",
        member,
        &format!("certificate {id} ({kind}){}", scope.map(|s| format!(" scope: {s}")).unwrap_or_default()),
    )
    .await?;
    tx.commit().await?;
    Ok(format!("approved certificate {id} ({kind}) of member {member}{}\n", if passed { "; the member is approved" } else { "" }))
}

pub(super) async fn reject(conn: &mut AnyConnection, operator: &str, id: i64, reason: &str) -> anyhow::Result<String> {
    let reason = reason.trim();
    anyhow::ensure!(!reason.is_empty(), "a rejection needs a reason");
    let mut tx = begin_write(conn).await?;
    let (member, kind) = review(&mut tx, id, 2, reason).await?;
    messages::send(&mut tx, member, messages::QUALIFICATION, "资质审核未通过", &format!("您的{kind}未通过审核：{reason}。请重新上传。"))
        .await?;
    log(&mut tx, operator, "qualification.reject", member, &format!("certificate {id} ({kind}): {reason}")).await?;
    tx.commit().await?;
    Ok(format!("rejected certificate {id} ({kind}) of member {member}\n"))
}

pub(super) async fn kx_members(conn: &mut AnyConnection, pending: bool) -> anyhow::Result<String> {
    let rows: Vec<(i64, String, String, i64, String, i64)> = sqlx::query_as(
        "SELECT k.member_id, m.username, m.company, k.status, k.reason, k.created_at FROM kx_members k \
         JOIN members m ON m.id = k.member_id WHERE ($1 = 0 OR k.status = 0) ORDER BY k.created_at, k.member_id",
    )
    .bind(i64::from(pending))
    .fetch_all(&mut *conn)
    .await?;
    let mut out = String::from("member\tusername\tcompany\tstatus\treason\tapplied\n");
    for (member, username, company, status, reason, created_at) in rows {
        out += &format!(
            "{member}\t{}\t{}\t{}\t{}\t{created_at}\n",
            shown(&username),
            shown(&company),
            crate::domain::members::status_name(status),
            shown(&reason)
        );
    }
    Ok(out)
}

/// Approves (no reason) or rejects a controlled-sales application, telling the member.
pub(super) async fn kx_review(conn: &mut AnyConnection, operator: &str, member: i64, reason: Option<&str>) -> anyhow::Result<String> {
    let reason = reason.map(str::trim);
    anyhow::ensure!(reason != Some(""), "a rejection needs its --reason");
    let mut tx = begin_write(conn).await?;
    let (status, from) = match reason {
        None => (crate::domain::members::APPROVED, "status = 0 OR status = 2"),
        Some(_) => (crate::domain::members::REJECTED, "status = 0 OR status = 1"),
    };
    let moved = sqlx::query(sqlx::AssertSqlSafe(format!(
        "UPDATE kx_members SET status = $1, reason = $2, reviewed_at = $3 WHERE member_id = $4 AND ({from})"
    )))
    .bind(status)
    .bind(reason.unwrap_or(""))
    .bind(now())
    .bind(member)
    .execute(&mut *tx)
    .await?;
    anyhow::ensure!(
        moved.rows_affected() == 1,
        "member {member} has no application that can be {}",
        if reason.is_none() { "approved" } else { "rejected" }
    );
    let (title, body) = match reason {
        None => ("控销资格审核通过", "您的控销专区采购资格已审核通过，现在可以采购控销品种。".to_owned()),
        Some(reason) => ("控销资格审核未通过", format!("您的控销专区采购资格未通过审核：{reason}")),
    };
    messages::send(&mut tx, member, messages::QUALIFICATION, title, &body).await?;
    let action = if reason.is_none() { "kx.approve" } else { "kx.reject" };
    log(&mut tx, operator, action, member, reason.unwrap_or("")).await?;
    tx.commit().await?;
    Ok(format!("member {member}: {}\n", crate::domain::members::status_name(status)))
}
