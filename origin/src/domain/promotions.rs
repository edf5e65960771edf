//! Promotions' rules that more than one caller states: the store-wide discount's name,
//! what a flash sale's per-member limit refuses (`crate::domain::orders::ordered_in_sale`
//! counts what the member ordered in the sale), and coupons' and lucky-draw prizes' kinds,
//! scopes and states.

crate::domain::stored::stored_enum! {
    /// What a coupon takes off (`coupons.kind`, docs/pricing.md rule 13).
    pub enum CouponKind {
        /// 满减: an amount off from a threshold.
        Reduce = 1 => "满减券",
        /// 折扣: a share of the price paid, at most a cap off.
        Discount = 2 => "折扣券",
    }
}

crate::domain::stored::stored_enum! {
    /// Which lines a coupon applies to (`coupons.scope`).
    pub enum CouponScope {
        All = 0 => "全场通用",
        Preferred = 1 => "优选商品",
        Herbs = 2 => "中药饮片",
        Devices = 3 => "医疗器械",
    }
}

crate::domain::stored::stored_enum! {
    /// A member's coupon or cash voucher: stored as unused or used (`member_coupons.status`,
    /// `member_cash_vouchers.status`); the lists show an unused one past its date as expired,
    /// which is never stored.
    pub enum CouponStatus {
        Unused = 0 => "未使用",
        Used = 1 => "已使用",
        Expired = 2 => "已过期",
    }
}

impl CouponStatus {
    /// The state the lists show at `now`: an unused one past `expires_at` is expired.
    pub fn shown(self, expires_at: i64, now: i64) -> CouponStatus {
        if self == CouponStatus::Unused && expires_at <= now { CouponStatus::Expired } else { self }
    }
}

/// A stored rate as the shop writes it, the engine's label (docs/pricing.md rule 23): `0.94`
/// is `9.4折`, `0.9` is `9折`. A rate the engine refuses is shown as stored.
pub fn discount_name(rate: &str) -> String {
    engine::Money::parse(rate).ok().and_then(|money| engine::text::discount_label(money).ok()).unwrap_or_else(|| rate.to_owned())
}

/// What a flash sale's per-member limit refuses (422), in the goods' own unit (`盒`, `瓶` …).
pub fn limit_message(limit: i64, unit: &str) -> String {
    format!("秒杀商品每人限购{limit}{unit}")
}

crate::domain::stored::stored_enum! {
    /// A lucky draw's prize (`draw_prizes.kind`, and `draw_records.kind` of what was drawn).
    pub enum PrizeKind {
        /// 谢谢参与: no prize, and no stock to run out of.
        Nothing = 0 => "谢谢参与",
        Coupon = 1 => "优惠券",
        Points = 2 => "积分",
        RedPacket = 3 => "账户红包",
    }
}
