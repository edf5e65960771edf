//! Goods under special control (含麻黄碱类复方制剂 …, `docs/compliance.md`): the most one member
//! may buy of each in one order and in one calendar month of the shop's (UTC+8), counted in
//! the goods' unit over every order not cancelled, a set's contents included.

use sqlx::AnyConnection;

use super::life::OrderStatus;
use crate::domain::{Error, Result};

/// The shop's month is Beijing time's.
const SHOP_OFFSET: i64 = 8 * 3600;

/// What a member is told when one order would take more than `per_order` of the goods.
pub fn per_order_message(name: &str, per_order: i64, unit: &str) -> String {
    format!("{name}为特殊管理药品，每单限购{per_order}{unit}")
}

/// The units of goods `goods` member `member` ordered since the shop's month began at `now`,
/// in orders not cancelled.
pub async fn ordered_this_month(conn: &mut AnyConnection, member: i64, goods: i64, now: i64) -> sqlx::Result<i64> {
    sqlx::query_scalar(
        "SELECT CAST(COALESCE(SUM(s.number), 0) AS BIGINT) FROM order_stock s JOIN orders o ON o.id = s.order_id \
         WHERE o.member_id = $1 AND s.goods_id = $2 AND o.created_at >= $3 AND o.status <> $4",
    )
    .bind(member)
    .bind(goods)
    .bind(crate::month_start(now, SHOP_OFFSET))
    .bind(OrderStatus::Cancelled)
    .fetch_one(&mut *conn)
    .await
}

/// Checks what an order takes of each goods (`(goods, units)`) against the goods' limits, at
/// `now`, in the order's transaction (which holds the member's row, so two orders cannot pass
/// a month's limit together): refused by name with the limit, and this month's count.
pub async fn check_order(conn: &mut AnyConnection, member: i64, takes: &[(i64, i64)], now: i64) -> Result<()> {
    for &(goods, units) in takes {
        let limits: Option<(String, String, i64, i64)> =
            sqlx::query_as("SELECT name, bzdw, control_per_order, control_per_month FROM goods WHERE id = $1 AND (control_per_order > 0 OR control_per_month > 0)")
                .bind(goods)
                .fetch_optional(&mut *conn)
                .await?;
        let Some((name, unit, per_order, per_month)) = limits else { continue };
        if per_order > 0 && units > per_order {
            return Err(Error::field("ids", per_order_message(&name, per_order, &unit)));
        }
        if per_month > 0 {
            let ordered = ordered_this_month(conn, member, goods, now).await?;
            if ordered.saturating_add(units) > per_month {
                return Err(Error::field("ids", format!("{name}为特殊管理药品，每月限购{per_month}{unit}，本月已购{ordered}{unit}")));
            }
        }
    }
    Ok(())
}
