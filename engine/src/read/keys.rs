//! The field names the engine reads, in one table: the readers match on [`Key`], and a
//! JavaScript caller's cart crosses the WebAssembly boundary with each key as its index in
//! [`Key::ALL`] (`wasm/tokens.rs`; `js/boundary.js` keeps the same list, and a test checks it).

/// Declares [`Key`], its [`Key::ALL`] table, and the two ways between a key and its name.
macro_rules! keys {
    ($($key:ident = $name:literal,)*) => {
        /// Every field name the engine reads, in any object.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub(crate) enum Key {
            $($key,)*
        }

        impl Key {
            /// Every key, in the order of their indexes.
            pub const ALL: [Key; [$($name,)*].len()] = [$(Key::$key,)*];

            pub fn name(self) -> &'static str {
                match self {
                    $(Key::$key => $name,)*
                }
            }

            pub fn parse(name: &str) -> Option<Key> {
                match name {
                    $($name => Some(Key::$key),)*
                    _ => None,
                }
            }
        }
    };
}

keys! {
    Items = "items",
    ShippingData = "shipping_data",
    ActivityData = "activity_data",
    ShippingAmount = "shipping_amount",
    NoTransOrderAmount = "no_trans_order_amount",
    Manjians = "manjians",
    Amount = "amount",
    Reduce = "reduce",
    Id = "id",
    Type = "type",
    Number = "number",
    Price = "price",
    IsSelected = "is_selected",
    WithCoupon = "with_coupon",
    GoodsManjianId = "goods_manjian_id",
    Goods = "goods",
    Combination = "combination",
    IsBuy = "is_buy",
    IsYoux = "is_youx",
    IsDpby = "is_dpby",
    QgNumber = "qg_number",
    BasePrice = "base_price",
    LadderPrice = "ladder_price",
    LadderPriceType = "ladder_price_type",
    Settlement = "settlement",
    Now = "now",
    Coupons = "coupons",
    CouponId = "coupon_id",
    CashVouchers = "cash_vouchers",
    CashVoucherId = "cash_voucher_id",
    RedPacketBalance = "red_packet_balance",
    UseRedPacket = "use_red_packet",
    PointsBalance = "points_balance",
    UsePoints = "use_points",
    ShippingFee = "shipping_fee",
    RedPacketMaxRate = "red_packet_max_rate",
    PointsPerYuan = "points_per_yuan",
    PointsMaxRate = "points_max_rate",
    Kind = "kind",
    Scope = "scope",
    Threshold = "threshold",
    Rate = "rate",
    MaxReduce = "max_reduce",
    StartsAt = "starts_at",
    EndsAt = "ends_at",
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_reads_back_from_its_name_and_index() {
        for (index, key) in Key::ALL.iter().enumerate() {
            assert_eq!(Key::parse(key.name()), Some(*key));
            assert_eq!(Key::ALL[index], *key);
        }
        assert_eq!(Key::parse("title"), None);
    }

    #[test]
    fn the_javascript_boundary_has_the_same_table() {
        let boundary = include_str!("../../js/boundary.js");
        let start = boundary.find("const KEYS = [").expect("boundary.js declares KEYS");
        let table = &boundary[start..start + boundary[start..].find("];").expect("KEYS ends")];
        let names: Vec<&str> = table.split('\'').skip(1).step_by(2).collect();
        let ours: Vec<&str> = Key::ALL.iter().map(|key| key.name()).collect();
        assert_eq!(names, ours);
    }
}
