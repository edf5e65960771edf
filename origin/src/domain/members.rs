//! Members' standing: their kind of business and the certificates each kind must hold
//! (`docs/compliance.md`), and the states of a review.

/// The certificates a member may hand in (资质证件), each once (a renewal waits beside the one
/// it renews until approved).
pub const KINDS: [&str; 9] = [
    "营业执照",
    "药品经营许可证",
    "医疗机构执业许可证",
    "第二类医疗器械经营备案凭证",
    "医疗器械经营许可证",
    "食品经营许可证",
    "采购委托书",
    "GSP证书",
    "其他",
];

/// The kind that never expires in the shop's eyes and never stops an order: whatever else the
/// member chose to show.
pub const OTHER: &str = "其他";

crate::domain::stored::stored_enum! {
    /// A member's kind of business (`members.buyer_type`): what it may be licensed for and which
    /// certificates it must hold.
    pub enum BuyerType {
        Pharmacy = 1 => "单体药店",
        Chain = 2 => "连锁药店",
        Clinic = 3 => "诊所",
        Hospital = 4 => "医院/卫生院",
        Wholesaler = 5 => "批发企业",
    }
}

impl BuyerType {
    /// The certificates that must be approved (and in date) before the member may order: a
    /// pharmacy or a wholesaler sells medicines under its 药品经营许可证, a clinic or hospital
    /// uses them under its 医疗机构执业许可证.
    pub fn required(self) -> &'static [&'static str] {
        match self {
            BuyerType::Pharmacy | BuyerType::Chain | BuyerType::Wholesaler => &["营业执照", "药品经营许可证"],
            BuyerType::Clinic | BuyerType::Hospital => &["医疗机构执业许可证"],
        }
    }
}

/// The member's kind of business.
pub async fn buyer_type(conn: &mut sqlx::AnyConnection, member: i64) -> sqlx::Result<BuyerType> {
    sqlx::query_scalar("SELECT buyer_type FROM members WHERE id = $1").bind(member).fetch_one(&mut *conn).await
}

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
