//! The points mall's orders (积分商城): what they hold and their states, and shipping one (the
//! operator's `origin admin ship-points`). Redeeming and receiving are `http::points_mall`'s.

use sqlx::AnyConnection;

crate::domain::stored::stored_enum! {
    /// What an item of the mall is, as stored in `points_goods.kind` and `points_orders.kind`.
    pub enum PointsKind {
        /// Goods, shipped to an address.
        Goods = 1 => "实物商品",
        /// A coupon, put in the member's wallet at once.
        Coupon = 2 => "优惠券",
        /// Red packets, credited at once.
        RedPacket = 3 => "账户红包",
    }
}

crate::domain::stored::stored_enum! {
    /// A points order's state, as stored in `points_orders.status`: goods wait to be shipped
    /// and received, a coupon or red packets are done at once.
    pub enum PointsOrderStatus {
        ToShip = 0 => "待发货",
        Shipped = 1 => "待收货",
        Done = 2 => "已完成",
    }
}

/// Ships a points order of goods (the operator's `origin admin ship-points`), in the caller's
/// transaction; answers its member and number.
pub async fn ship(conn: &mut AnyConnection, id: i64, carrier: &str, tracking: &str, now: i64) -> anyhow::Result<(i64, String)> {
    let shipped: Option<(i64, String)> = sqlx::query_as(
        "UPDATE points_orders SET status = $1, carrier = $2, tracking_no = $3, shipped_at = $4 WHERE id = $5 AND status = $6 \
         RETURNING member_id, order_no",
    )
    .bind(PointsOrderStatus::Shipped)
    .bind(carrier)
    .bind(tracking)
    .bind(now)
    .bind(id)
    .bind(PointsOrderStatus::ToShip)
    .fetch_optional(&mut *conn)
    .await?;
    shipped.ok_or_else(|| anyhow::anyhow!("points order {id} is not waiting to be shipped"))
}
