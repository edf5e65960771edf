//! Reviewing a member's qualification certificates (资质): the operator approves or rejects
//! each; once every required kind (`crate::domain::members::REQUIRED`) has an approved
//! certificate the member is approved and may order, and is told so once.

use sqlx::AnyConnection;

use crate::domain::members::{REQUIRED, ReviewStatus};
use crate::domain::{Error, Result, messages};

/// A certificate reviewed: its member and kind, and whether the member is now approved.
pub struct Reviewed {
    pub member: i64,
    pub kind: String,
    pub member_approved: bool,
}

/// Marks certificate `id` reviewed with `status` (approved or rejected): answers its member
/// and kind; not found when there is no such certificate.
async fn review(conn: &mut AnyConnection, id: i64, status: ReviewStatus, reason: &str, now: i64) -> Result<(i64, String)> {
    sqlx::query_as("UPDATE qualifications SET status = $1, reason = $2, reviewed_at = $3 WHERE id = $4 RETURNING member_id, kind")
        .bind(status)
        .bind(reason)
        .bind(now)
        .bind(id)
        .fetch_optional(&mut *conn)
        .await?
        .ok_or_else(|| Error::not_found("资质证件不存在"))
}

/// Approves certificate `id` at `now`, in the caller's transaction, with the member's business
/// scope when given (its items one a line). The member is approved once every required kind
/// has an approved certificate, and then told, once: when this approval completes the kinds,
/// or renews a certificate of an approved member. A certificate approved while others are still
/// missing shows its state on the certificates page, without a message of its own.
pub async fn approve(conn: &mut AnyConnection, id: i64, scope: Option<&[&str]>, now: i64) -> Result<Reviewed> {
    let (member, kind) = review(conn, id, ReviewStatus::Approved, "", now).await?;
    if let Some(scope) = scope {
        sqlx::query("UPDATE members SET business_scope = $1 WHERE id = $2").bind(scope.join("\n")).bind(member).execute(&mut *conn).await?;
    }
    let approved: Vec<String> = sqlx::query_scalar("SELECT DISTINCT kind FROM qualifications WHERE member_id = $1 AND status = $2")
        .bind(member)
        .bind(ReviewStatus::Approved)
        .fetch_all(&mut *conn)
        .await?;
    let member_approved = REQUIRED.iter().all(|required| approved.iter().any(|kind| kind == required));
    if member_approved {
        sqlx::query("UPDATE members SET is_passed = 1 WHERE id = $1").bind(member).execute(&mut *conn).await?;
        let body = format!("您的{kind}已审核通过，资质审核完成，现在可以下单了。");
        messages::send(conn, member, messages::MessageKind::Qualification, "资质审核通过", &body).await?;
    }
    Ok(Reviewed { member, kind, member_approved })
}

/// Rejects certificate `id` for `reason` at `now`, in the caller's transaction, and tells its
/// member to upload it again.
pub async fn reject(conn: &mut AnyConnection, id: i64, reason: &str, now: i64) -> Result<Reviewed> {
    let (member, kind) = review(conn, id, ReviewStatus::Rejected, reason, now).await?;
    let body = format!("您的{kind}未通过审核：{reason}。请重新上传。");
    messages::send(conn, member, messages::MessageKind::Qualification, "资质审核未通过", &body).await?;
    Ok(Reviewed { member, kind, member_approved: false })
}
