//! Controlled goods (控销): goods a manufacturer sells only through buyers the shop approved
//! for them. A member applies in the controlled-sales zone and the operator approves or
//! rejects; only an approved member may put controlled goods in the cart, and a cart line of
//! one is not sellable for anyone else (`crate::domain::cart`).

use sqlx::AnyConnection;

use crate::domain::members::ReviewStatus;

/// What a member not approved is told when putting controlled goods in the cart, and why a
/// cart line of them cannot be bought.
pub const NOT_APPROVED: &str = "控销品种仅限审核通过的会员采购，请先在控销专区申请";

/// The member's application status (`None`: no application) and the reason of a rejection.
pub async fn status(conn: &mut AnyConnection, member: i64) -> sqlx::Result<(Option<ReviewStatus>, String)> {
    let row: Option<(ReviewStatus, String)> =
        sqlx::query_as("SELECT status, reason FROM kx_members WHERE member_id = $1").bind(member).fetch_optional(&mut *conn).await?;
    Ok(row.map_or((None, String::new()), |(status, reason)| (Some(status), reason)))
}

/// Whether the member may buy controlled goods.
pub async fn approved(conn: &mut AnyConnection, member: i64) -> sqlx::Result<bool> {
    Ok(status(conn, member).await?.0 == Some(ReviewStatus::Approved))
}

/// Approves (`reason` `None`) or rejects (for `reason`) member `member`'s application at `now`,
/// in the caller's transaction, and tells the member. An application can be approved while
/// pending or rejected, rejected while pending or approved; otherwise a conflict. Answers the
/// new status.
pub async fn review(conn: &mut AnyConnection, member: i64, reason: Option<&str>, now: i64) -> crate::domain::Result<ReviewStatus> {
    use crate::domain::{Error, messages};
    // Approving or rejecting takes a pending application, or turns the other decision.
    let (status, other) = match reason {
        None => (ReviewStatus::Approved, ReviewStatus::Rejected),
        Some(_) => (ReviewStatus::Rejected, ReviewStatus::Approved),
    };
    let moved = sqlx::query("UPDATE kx_members SET status = $1, reason = $2, reviewed_at = $3 WHERE member_id = $4 AND status IN ($5, $6)")
        .bind(status)
        .bind(reason.unwrap_or(""))
        .bind(now)
        .bind(member)
        .bind(ReviewStatus::Pending)
        .bind(other)
        .execute(&mut *conn)
        .await?;
    if moved.rows_affected() != 1 {
        return Err(Error::conflict(if reason.is_none() { "没有可通过的控销申请" } else { "没有可驳回的控销申请" }));
    }
    let (title, body) = match reason {
        None => ("控销资格审核通过", "您的控销专区采购资格已审核通过，现在可以采购控销品种。".to_owned()),
        Some(reason) => ("控销资格审核未通过", format!("您的控销专区采购资格未通过审核：{reason}")),
    };
    messages::send(conn, member, messages::MessageKind::Qualification, title, &body).await?;
    Ok(status)
}
