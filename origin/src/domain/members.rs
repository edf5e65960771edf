//! Members' standing: the certificates that must be approved before a member may order, and
//! the states of an application for controlled sales (控销).

/// The certificates (of `http::qualification`'s kinds) that must be approved before a
/// pharmacy or clinic may order.
pub const REQUIRED: [&str; 2] = ["营业执照", "药品经营许可证"];

crate::domain::stored::stored_enum! {
    /// Where the shop's review of something a member handed in stands: a certificate
    /// (`qualifications.status`) or an application for controlled sales (`kx_members.status`).
    pub enum ReviewStatus {
        Pending = 0 => "待审核",
        Approved = 1 => "已通过",
        Rejected = 2 => "未通过",
    }
}

/// The name of the store a multi-store account's orders go to, if one is chosen.
pub async fn current_store(conn: &mut sqlx::AnyConnection, member: i64) -> sqlx::Result<Option<String>> {
    sqlx::query_scalar("SELECT s.name FROM members m JOIN member_stores s ON s.id = m.store_id AND s.member_id = m.id WHERE m.id = $1")
        .bind(member)
        .fetch_optional(&mut *conn)
        .await
}

/// An application's state as the answers write it, `None` for no application: −1.
pub fn application_code(status: Option<ReviewStatus>) -> i64 {
    status.map_or(-1, ReviewStatus::code)
}

/// An application's state as the pages name it, `None` for no application: 未申请.
pub fn application_name(status: Option<ReviewStatus>) -> &'static str {
    status.map_or("未申请", ReviewStatus::name)
}
