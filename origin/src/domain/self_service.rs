//! Self-service (自助服务): what feedback and wanted varieties are called in each state. The
//! member writes them (`http::feedback`, `http::self_service`); the operator answers them.

crate::domain::stored::stored_enum! {
    /// What a piece of feedback is about (`feedback.kind`).
    pub enum FeedbackKind {
        Suggestion = 1 => "功能建议",
        Goods = 2 => "商品问题",
        Complaint = 3 => "服务投诉",
        Other = 4 => "其他",
    }
}

crate::domain::stored::stored_enum! {
    /// A piece of feedback's state (`feedback.status`).
    pub enum FeedbackStatus {
        Waiting = 0 => "待回复",
        Replied = 1 => "已回复",
    }
}

crate::domain::stored::stored_enum! {
    /// A wanted variety's state (`wanted_varieties.status`): the shop's answer once given.
    pub enum WantedStatus {
        Waiting = 0 => "待处理",
        /// The variety is now sold.
        Listed = 1 => "已上架",
        /// The shop cannot get it.
        Unavailable = 2 => "暂无货源",
    }
}

/// The shop's reply to feedback `id` waiting for one, at `now`, in the caller's transaction: the
/// feedback replied and the member told. Answers the member; a conflict when it is not waiting
/// (replied already, or no such feedback).
pub async fn reply_feedback(conn: &mut sqlx::AnyConnection, id: i64, reply: &str, now: i64) -> crate::domain::Result<i64> {
    use crate::domain::{Error, messages};
    let member: Option<i64> = sqlx::query_scalar(
        "UPDATE feedback SET status = $1, reply = $2, replied_at = $3 WHERE id = $4 AND status = $5 RETURNING member_id",
    )
    .bind(FeedbackStatus::Replied)
    .bind(reply)
    .bind(now)
    .bind(id)
    .bind(FeedbackStatus::Waiting)
    .fetch_optional(&mut *conn)
    .await?;
    let member = member.ok_or_else(|| Error::conflict("该反馈不在待回复状态"))?;
    messages::send(conn, member, messages::MessageKind::System, "意见反馈已回复", reply).await?;
    Ok(member)
}

/// The shop's answer to wanted variety `id` waiting for one (`status` listed or unavailable), at
/// `now`, in the caller's transaction: the variety answered and the member told. Answers the
/// member; a conflict when it is not waiting (answered already, or no such variety).
pub async fn answer_wanted(
    conn: &mut sqlx::AnyConnection,
    id: i64,
    status: WantedStatus,
    reply: &str,
    now: i64,
) -> crate::domain::Result<i64> {
    use crate::domain::{Error, messages};
    if status == WantedStatus::Waiting {
        return Err(Error::field("status", "请选择已上架或暂无货源"));
    }
    let member: Option<(i64, String)> = sqlx::query_as(
        "UPDATE wanted_varieties SET status = $1, reply = $2, replied_at = $3 WHERE id = $4 AND status = $5 RETURNING member_id, name",
    )
    .bind(status)
    .bind(reply)
    .bind(now)
    .bind(id)
    .bind(WantedStatus::Waiting)
    .fetch_optional(&mut *conn)
    .await?;
    let (member, name) = member.ok_or_else(|| Error::conflict("该求购不在待处理状态"))?;
    let title = if status == WantedStatus::Listed { "求购品种已上架" } else { "求购品种暂无货源" };
    messages::send(conn, member, messages::MessageKind::System, title, &format!("您求购的“{name}”：{reply}")).await?;
    Ok(member)
}
