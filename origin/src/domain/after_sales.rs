//! After-sales cases (售后): their kinds and states, and a message added to a case — by its
//! member (`http::after_sales`) or by the operator (`origin admin answer-case`).

use sqlx::AnyConnection;

crate::domain::stored::stored_enum! {
    /// What a case is about, as stored in `after_sales.kind`.
    pub enum CaseKind {
        Quality = 1 => "质量问题",
        Delivery = 2 => "配送问题",
        Other = 3 => "其他",
    }
}

crate::domain::stored::stored_enum! {
    /// A case's state, as stored in `after_sales.status`.
    pub enum CaseStatus {
        /// Open: the member and the shop write to its thread.
        Open = 0 => "处理中",
        /// Closed by the member or the operator.
        Resolved = 1 => "已解决",
    }
}

/// Adds a message with its photos (already stored under `stored`) to the case.
pub async fn add_message(
    conn: &mut AnyConnection,
    case: i64,
    author: &str,
    body: &str,
    photos: &[(String, &'static str, i64)],
    now: i64,
) -> sqlx::Result<()> {
    let message: i64 =
        sqlx::query_scalar("INSERT INTO after_sale_messages (case_id, author, body, created_at) VALUES ($1, $2, $3, $4) RETURNING id")
            .bind(case)
            .bind(author)
            .bind(body)
            .bind(now)
            .fetch_one(&mut *conn)
            .await?;
    for (file_name, file_type, size) in photos {
        sqlx::query("INSERT INTO after_sale_photos (message_id, file_name, file_type, file_size) VALUES ($1, $2, $3, $4)")
            .bind(message)
            .bind(file_name)
            .bind(*file_type)
            .bind(*size)
            .execute(&mut *conn)
            .await?;
    }
    sqlx::query("UPDATE after_sales SET updated_at = $1 WHERE id = $2").bind(now).bind(case).execute(&mut *conn).await?;
    Ok(())
}

/// A case as the operator answers it: its member and number.
pub struct Case {
    pub member: i64,
    pub case_no: String,
}

/// The operator's answer to open case `id` at `now`, in the caller's transaction: the message,
/// the case resolved when `resolve`, and the member told. Not found when there is no such case,
/// a conflict when it is resolved already.
pub async fn answer(conn: &mut AnyConnection, id: i64, body: &str, resolve: bool, now: i64) -> crate::domain::Result<Case> {
    use crate::domain::{Error, messages};
    let (member, case_no, status): (i64, String, CaseStatus) =
        sqlx::query_as("SELECT member_id, case_no, status FROM after_sales WHERE id = $1")
            .bind(id)
            .fetch_optional(&mut *conn)
            .await?
            .ok_or_else(|| Error::not_found("售后单不存在"))?;
    if status != CaseStatus::Open {
        return Err(Error::conflict("售后单已解决"));
    }
    add_message(conn, id, "operator", body, &[], now).await?;
    if resolve {
        sqlx::query("UPDATE after_sales SET status = $1, closed_at = $2 WHERE id = $3")
            .bind(CaseStatus::Resolved)
            .bind(now)
            .bind(id)
            .execute(&mut *conn)
            .await?;
    }
    messages::send(conn, member, messages::MessageKind::Order, "售后单有新回复", &format!("您的售后单 {case_no} 有新回复：{body}")).await?;
    Ok(Case { member, case_no })
}
