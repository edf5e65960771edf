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
