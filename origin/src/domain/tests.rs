//! The stored states and kinds (`stored.rs`) against what the pages showed before they were
//! types. Kept beside the modules, not in `stored.rs`, which every one of them imports.

use crate::domain::after_sales::{CaseKind, CaseStatus};
use crate::domain::invoices::{InvoiceKind, InvoiceStatus};
use crate::domain::members::{ReviewStatus, application_code, application_name};
use crate::domain::messages::MessageKind;
use crate::domain::payments::PaymentStatus;
use crate::domain::points_mall::{PointsKind, PointsOrderStatus};
use crate::domain::promotions::{CouponKind, CouponScope, CouponStatus, PrizeKind};
use crate::domain::returns::ReturnReason;
use crate::domain::self_service::{FeedbackKind, FeedbackStatus, WantedStatus};

/// Each type's codes and names, in code order, are the numbers and names the pages showed
/// when they were integer constants and name arrays; every code reads back as its value,
/// the codes around them as none, and an answer writes the code.
macro_rules! same_as_before {
    ($name:ident, [$($code:literal),*], [$($label:literal),*]) => {
        assert_eq!($name::ALL.map($name::code), [$($code),*], stringify!($name));
        assert_eq!($name::ALL.map($name::name), [$($label),*], stringify!($name));
        for value in $name::ALL {
            assert_eq!($name::from_code(value.code()), Some(value));
            assert_eq!(serde_json::to_value(value).unwrap(), serde_json::json!(value.code()));
        }
        assert_eq!($name::from_code($name::ALL[0].code() - 1), None, stringify!($name));
        assert_eq!($name::from_code($name::ALL[$name::ALL.len() - 1].code() + 1), None, stringify!($name));
    };
}

#[test]
fn states_and_kinds_keep_their_numbers_and_names() {
    same_as_before!(CaseKind, [1, 2, 3], ["质量问题", "配送问题", "其他"]);
    same_as_before!(CaseStatus, [0, 1], ["处理中", "已解决"]);
    same_as_before!(InvoiceKind, [1, 2], ["增值税普通发票", "增值税专用发票"]);
    same_as_before!(InvoiceStatus, [0, 1], ["待开票", "已开票"]);
    same_as_before!(PointsKind, [1, 2, 3], ["实物商品", "优惠券", "账户红包"]);
    same_as_before!(PointsOrderStatus, [0, 1, 2], ["待发货", "待收货", "已完成"]);
    same_as_before!(ReviewStatus, [0, 1, 2], ["待审核", "已通过", "未通过"]);
    same_as_before!(PaymentStatus, [0, 1, 2, 3], ["待支付", "已支付", "已关闭", "已退回余额"]);
    same_as_before!(CouponKind, [1, 2], ["满减券", "折扣券"]);
    same_as_before!(CouponScope, [0, 1, 2, 3], ["全场通用", "优选商品", "中药饮片", "医疗器械"]);
    same_as_before!(CouponStatus, [0, 1, 2], ["未使用", "已使用", "已过期"]);
    same_as_before!(PrizeKind, [0, 1, 2, 3], ["谢谢参与", "优惠券", "积分", "账户红包"]);
    same_as_before!(MessageKind, [1, 2, 3, 4], ["系统消息", "订单消息", "资产消息", "资质消息"]);
    same_as_before!(FeedbackKind, [1, 2, 3, 4], ["功能建议", "商品问题", "服务投诉", "其他"]);
    same_as_before!(FeedbackStatus, [0, 1], ["待回复", "已回复"]);
    same_as_before!(WantedStatus, [0, 1, 2], ["待处理", "已上架", "暂无货源"]);
    same_as_before!(ReturnReason, [1, 2, 3, 4, 5, 6], ["质量问题", "发错货", "商品破损", "效期问题", "不想要了", "其他"]);
}

#[tokio::test]
async fn a_stored_integer_no_variant_has_is_a_decode_error() {
    use sqlx::Connection;
    sqlx::any::install_default_drivers();
    let mut conn = sqlx::AnyConnection::connect("sqlite::memory:").await.unwrap();
    let read = sqlx::query_scalar::<_, CaseStatus>("SELECT CAST(1 AS BIGINT)").fetch_one(&mut conn).await.unwrap();
    assert_eq!(read, CaseStatus::Resolved);
    let unknown = sqlx::query_scalar::<_, CaseStatus>("SELECT CAST(7 AS BIGINT)").fetch_one(&mut conn).await;
    assert!(matches!(unknown, Err(sqlx::Error::ColumnDecode { .. })), "{unknown:?}");
    let bound: i64 = sqlx::query_scalar("SELECT $1").bind(PrizeKind::RedPacket).fetch_one(&mut conn).await.unwrap();
    assert_eq!(bound, 3);
}

#[test]
fn no_application_is_minus_one_and_named_as_before() {
    assert_eq!((application_code(None), application_name(None)), (-1, "未申请"));
    assert_eq!((application_code(Some(ReviewStatus::Rejected)), application_name(Some(ReviewStatus::Rejected))), (2, "未通过"));
}

#[test]
fn an_unused_coupon_past_its_date_is_shown_expired() {
    assert_eq!(CouponStatus::Unused.shown(100, 100), CouponStatus::Expired);
    assert_eq!(CouponStatus::Unused.shown(101, 100), CouponStatus::Unused);
    assert_eq!(CouponStatus::Used.shown(100, 200), CouponStatus::Used);
}
