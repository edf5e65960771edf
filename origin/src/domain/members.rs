//! Members' standing: the certificates that must be approved before a member may order, and
//! the states of an application for controlled sales (控销).

/// The certificates (of `http::qualification`'s kinds) that must be approved before a
/// pharmacy or clinic may order.
pub const REQUIRED: [&str; 2] = ["营业执照", "药品经营许可证"];

/// No application (−1), 待审核 (0), 已通过 (1), 未通过 (2).
pub const NONE: i64 = -1;
pub const PENDING: i64 = 0;
pub const APPROVED: i64 = 1;
pub const REJECTED: i64 = 2;

pub fn status_name(status: i64) -> &'static str {
    match status {
        PENDING => "待审核",
        APPROVED => "已通过",
        REJECTED => "未通过",
        _ => "未申请",
    }
}

/// The name of the store a multi-store account's orders go to, if one is chosen.
pub async fn current_store(conn: &mut sqlx::AnyConnection, member: i64) -> sqlx::Result<Option<String>> {
    sqlx::query_scalar("SELECT s.name FROM members m JOIN member_stores s ON s.id = m.store_id AND s.member_id = m.id WHERE m.id = $1")
        .bind(member)
        .fetch_optional(&mut *conn)
        .await
}
