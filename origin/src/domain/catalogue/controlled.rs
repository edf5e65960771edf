//! Controlled goods (控销): goods a manufacturer sells only through buyers the shop approved
//! for them. A member applies in the controlled-sales zone and the operator approves or
//! rejects; only an approved member may put controlled goods in the cart, and a cart line of
//! one is not sellable for anyone else (`crate::domain::cart`).

use sqlx::AnyConnection;

use crate::domain::members::{APPROVED, NONE};

/// The member's application status and the reason of a rejection.
pub async fn status(conn: &mut AnyConnection, member: i64) -> sqlx::Result<(i64, String)> {
    let row: Option<(i64, String)> =
        sqlx::query_as("SELECT status, reason FROM kx_members WHERE member_id = $1").bind(member).fetch_optional(&mut *conn).await?;
    Ok(row.unwrap_or((NONE, String::new())))
}

/// Whether the member may buy controlled goods.
pub async fn approved(conn: &mut AnyConnection, member: i64) -> sqlx::Result<bool> {
    Ok(status(conn, member).await?.0 == APPROVED)
}

/// Approves (`reason` `None`) or rejects (for `reason`) member `member`'s application at `now`,
/// in the caller's transaction, and tells the member. An application can be approved while
/// pending or rejected, rejected while pending or approved; otherwise a conflict. Answers the
/// new status.
pub async fn review(conn: &mut AnyConnection, member: i64, reason: Option<&str>, now: i64) -> crate::domain::Result<i64> {
    use crate::domain::members::REJECTED;
    use crate::domain::{Error, messages};
    let (status, from) = match reason {
        None => (APPROVED, "status = 0 OR status = 2"),
        Some(_) => (REJECTED, "status = 0 OR status = 1"),
    };
    let moved = sqlx::query(sqlx::AssertSqlSafe(format!(
        "UPDATE kx_members SET status = $1, reason = $2, reviewed_at = $3 WHERE member_id = $4 AND ({from})"
    )))
    .bind(status)
    .bind(reason.unwrap_or(""))
    .bind(now)
    .bind(member)
    .execute(&mut *conn)
    .await?;
    if moved.rows_affected() != 1 {
        return Err(Error::conflict(if reason.is_none() { "没有可通过的控销申请" } else { "没有可驳回的控销申请" }));
    }
    let (title, body) = match reason {
        None => ("控销资格审核通过", "您的控销专区采购资格已审核通过，现在可以采购控销品种。".to_owned()),
        Some(reason) => ("控销资格审核未通过", format!("您的控销专区采购资格未通过审核：{reason}")),
    };
    messages::send(conn, member, messages::QUALIFICATION, title, &body).await?;
    Ok(status)
}
