//! The points mall's orders (积分商城): what they hold and their states, and shipping one (the
//! operator's `origin admin ship-points`). Redeeming and receiving are `http::points_mall`'s.

use sqlx::AnyConnection;

/// Kinds: 1 goods, 2 a coupon, 3 red packets; states: 0 待发货, 1 待收货, 2 已完成.
pub const KIND_NAMES: [&str; 4] = ["", "实物商品", "优惠券", "账户红包"];
pub const STATUS_NAMES: [&str; 3] = ["待发货", "待收货", "已完成"];
pub const TO_SHIP: i64 = 0;
pub const SHIPPED: i64 = 1;
pub const DONE: i64 = 2;

/// Ships a points order of goods (the operator's `origin admin ship-points`), in the caller's
/// transaction; answers its member and number.
pub async fn ship(conn: &mut AnyConnection, id: i64, carrier: &str, tracking: &str, now: i64) -> anyhow::Result<(i64, String)> {
    let shipped: Option<(i64, String)> = sqlx::query_as(
        "UPDATE points_orders SET status = $1, carrier = $2, tracking_no = $3, shipped_at = $4 WHERE id = $5 AND status = $6 \
         RETURNING member_id, order_no",
    )
    .bind(SHIPPED)
    .bind(carrier)
    .bind(tracking)
    .bind(now)
    .bind(id)
    .bind(TO_SHIP)
    .fetch_optional(&mut *conn)
    .await?;
    shipped.ok_or_else(|| anyhow::anyhow!("points order {id} is not waiting to be shipped"))
}
