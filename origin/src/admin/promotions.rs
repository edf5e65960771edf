//! Promotions from the command line, through the console's own functions
//! (`domain::staff::manjian`, `domain::staff::flash`): the 满减 activities and 秒杀 sessions
//! listed, and one ended.

use sqlx::AnyConnection;

use crate::domain::staff::{self, Actor as Operator};
use crate::now;

/// Every 满减 activity: id, state, schedule, tiers, goods.
pub(super) async fn manjian(conn: &mut AnyConnection) -> anyhow::Result<String> {
    let rows = staff::manjian::list(conn, now()).await?;
    let mut out = String::new();
    for row in rows {
        out.push_str(&format!(
            "{}\t{}\t{} to {}\t{}\t{} goods\t{}\n",
            row.id,
            row.state,
            staff::export::shop_time(row.starts_at),
            staff::export::shop_time(row.ends_at),
            row.tiers,
            row.goods,
            row.title
        ));
    }
    Ok(if out.is_empty() { "no 满减 activities\n".into() } else { out })
}

/// Ends 满减 activity `id` now.
pub(super) async fn end_manjian(conn: &mut AnyConnection, operator: &str, id: i64) -> anyhow::Result<String> {
    staff::manjian::end(conn, &Operator::command_line(operator), id, now()).await?;
    Ok(format!("ended 满减 activity {id}\n"))
}

/// Every 秒杀 session: id, state, goods, price, limit, time, units ordered.
pub(super) async fn flash_sales(conn: &mut AnyConnection) -> anyhow::Result<String> {
    let rows = staff::flash::list(conn, None, now()).await?;
    let mut out = String::new();
    for row in rows {
        out.push_str(&format!(
            "{}\t{}\tgoods {} {}\t¥{} (own ¥{})\tlimit {}\t{} to {}\tsold {}\n",
            row.id,
            row.state,
            row.goods_id,
            row.goods_name,
            crate::money::text(row.price),
            crate::money::text(row.goods_price),
            row.limit_number,
            staff::export::shop_time(row.starts_at),
            staff::export::shop_time(row.ends_at),
            row.sold
        ));
    }
    Ok(if out.is_empty() { "no 秒杀 sessions\n".into() } else { out })
}

/// Ends 秒杀 session `id` now.
pub(super) async fn end_flash_sale(conn: &mut AnyConnection, operator: &str, id: i64) -> anyhow::Result<String> {
    staff::flash::end(conn, &Operator::command_line(operator), id, now()).await?;
    Ok(format!("ended 秒杀 session {id}\n"))
}
