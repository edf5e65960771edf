//! Self-service (自助服务): what feedback and wanted varieties are called in each state. The
//! member writes them (`http::feedback`, `http::self_service`); the operator answers them.

/// Feedback kinds: 1 功能建议, 2 商品问题, 3 服务投诉, 4 其他.
pub const FEEDBACK_KIND_NAMES: [&str; 5] = ["", "功能建议", "商品问题", "服务投诉", "其他"];
/// Feedback states: 0 待回复, 1 已回复.
pub const FEEDBACK_STATUS_NAMES: [&str; 2] = ["待回复", "已回复"];
/// Wanted-variety states: 0 待处理, 1 已上架, 2 暂无货源.
pub const WANTED_STATUS_NAMES: [&str; 3] = ["待处理", "已上架", "暂无货源"];
