//! The console's 工作台: today's orders, sales and payments; what waits for an operator; goods
//! running low; lots and members' licences about to expire; sales by day.

use serde::Serialize;
use sqlx::AnyConnection;

use crate::domain::Result;
use crate::domain::after_sales::CaseStatus;
use crate::domain::catalogue::lots;
use crate::domain::invoices::InvoiceStatus;
use crate::domain::members::ReviewStatus;
use crate::domain::orders::life::OrderStatus;
use crate::domain::returns::ReturnStatus;

/// Goods with fewer units than this on sale are low.
pub const LOW_STOCK: i64 = 20;
/// Lots expiring within this many days are listed.
pub const LOT_DAYS: i64 = 90;
/// Members' licences expiring within this many days are listed.
pub const LICENCE_DAYS: i64 = 30;
/// Days of sales in the chart.
pub const SALES_DAYS: i64 = 14;

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct Dashboard {
    /// Orders placed today (the shop's day, UTC+8).
    pub orders_today: i64,
    /// Orders paid today, and what they came to (cents).
    pub paid_today: i64,
    #[serde(serialize_with = "super::as_money")]
    #[schema(value_type = String, example = "120.00")]
    pub sales_today: i64,
    /// Online payments and recharges received today.
    #[serde(serialize_with = "super::as_money")]
    #[schema(value_type = String, example = "120.00")]
    pub payments_today: i64,
    pub waiting: Waiting,
    pub low_stock: Vec<LowStock>,
    pub expiring_lots: Vec<ExpiringLot>,
    pub expiring_licences: Vec<ExpiringLicence>,
    /// The last [`SALES_DAYS`] days, oldest first.
    pub sales_by_day: Vec<DaySales>,
    /// What was paid for goods over the same days, by top-level category, most first.
    pub sales_by_category: Vec<CategorySales>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct CategorySales {
    pub category_id: i64,
    pub name: String,
    /// Units sold.
    pub units: i64,
    /// What the lines were paid, after every discount.
    #[serde(serialize_with = "super::as_money")]
    #[schema(value_type = String, example = "120.00")]
    pub sales: i64,
}

/// What waits for an operator.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct Waiting {
    pub to_ship: i64,
    pub certificates: i64,
    pub controlled_sales: i64,
    pub returns: i64,
    pub after_sales: i64,
    pub invoices: i64,
    pub feedback: i64,
    pub wanted: i64,
    /// Balance grants waiting for a second operator.
    pub balance_requests: i64,
}

#[derive(Debug, Serialize, sqlx::FromRow, utoipa::ToSchema)]
pub struct LowStock {
    pub id: i64,
    pub name: String,
    pub ypgg: String,
    pub sccj: String,
    pub stock: i64,
}

#[derive(Debug, Serialize, sqlx::FromRow, utoipa::ToSchema)]
pub struct ExpiringLot {
    pub id: i64,
    pub goods_id: i64,
    pub name: String,
    pub lot_no: String,
    pub expires_on: String,
    pub quantity: i64,
}

#[derive(Debug, Serialize, sqlx::FromRow, utoipa::ToSchema)]
pub struct ExpiringLicence {
    pub id: i64,
    pub member_id: i64,
    pub company: String,
    pub kind: String,
    pub expires_on: String,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct DaySales {
    /// YYYY-MM-DD.
    pub day: String,
    pub orders: i64,
    #[serde(serialize_with = "super::as_money")]
    #[schema(value_type = String, example = "120.00")]
    pub sales: i64,
}

/// The start of the shop's day (UTC+8) that `now` falls in, in Unix seconds.
pub fn day_start(now: i64) -> i64 {
    const OFFSET: i64 = 8 * 3600;
    now - (now + OFFSET).rem_euclid(86_400)
}

async fn count(conn: &mut AnyConnection, query: &'static str, value: i64) -> Result<i64> {
    Ok(sqlx::query_scalar(query).bind(value).fetch_one(&mut *conn).await?)
}

pub async fn read(conn: &mut AnyConnection, now: i64) -> Result<Dashboard> {
    let start = day_start(now);
    let orders_today = count(conn, "SELECT CAST(COUNT(*) AS BIGINT) FROM orders WHERE created_at >= $1", start).await?;
    let (paid_today, sales_today): (i64, i64) = sqlx::query_as(
        "SELECT CAST(COUNT(*) AS BIGINT), CAST(COALESCE(SUM(payable), 0) AS BIGINT) FROM orders WHERE paid_at >= $1 AND status <> $2",
    )
    .bind(start)
    .bind(OrderStatus::Cancelled)
    .fetch_one(&mut *conn)
    .await?;
    let payments_today = count(conn, "SELECT CAST(COALESCE(SUM(amount), 0) AS BIGINT) FROM payments WHERE paid_at >= $1", start).await?;
    let waiting = Waiting {
        to_ship: count(conn, "SELECT CAST(COUNT(*) AS BIGINT) FROM orders WHERE status = $1", OrderStatus::Paid.code()).await?
            + sqlx::query_scalar::<_, i64>(
                "SELECT CAST(COUNT(DISTINCT o.id) AS BIGINT) FROM orders o JOIN order_items i ON i.order_id = o.id \
                 WHERE o.status = $1 AND i.shipped < i.number",
            )
            .bind(OrderStatus::Shipped)
            .fetch_one(&mut *conn)
            .await?,
        certificates: count(conn, "SELECT CAST(COUNT(*) AS BIGINT) FROM qualifications WHERE status = $1", ReviewStatus::Pending.code())
            .await?,
        controlled_sales: count(conn, "SELECT CAST(COUNT(*) AS BIGINT) FROM kx_members WHERE status = $1", ReviewStatus::Pending.code())
            .await?,
        returns: sqlx::query_scalar("SELECT CAST(COUNT(*) AS BIGINT) FROM returns WHERE status IN ($1, $2)")
            .bind(ReturnStatus::Requested)
            .bind(ReturnStatus::Approved)
            .fetch_one(&mut *conn)
            .await?,
        after_sales: sqlx::query_scalar("SELECT CAST(COUNT(*) AS BIGINT) FROM after_sales WHERE status = $1")
            .bind(CaseStatus::Open)
            .fetch_one(&mut *conn)
            .await?,
        invoices: sqlx::query_scalar("SELECT CAST(COUNT(*) AS BIGINT) FROM invoices WHERE status = $1")
            .bind(InvoiceStatus::Requested)
            .fetch_one(&mut *conn)
            .await?,
        feedback: count(conn, "SELECT CAST(COUNT(*) AS BIGINT) FROM feedback WHERE status = $1", 0).await?,
        wanted: count(conn, "SELECT CAST(COUNT(*) AS BIGINT) FROM wanted_varieties WHERE status = $1", 0).await?,
        balance_requests: count(conn, "SELECT CAST(COUNT(*) AS BIGINT) FROM balance_requests WHERE status = $1", 0).await?,
    };
    let low_stock: Vec<LowStock> =
        sqlx::query_as("SELECT id, name, ypgg, sccj, stock FROM goods WHERE is_buy = 1 AND stock < $1 ORDER BY stock, id LIMIT 10")
            .bind(LOW_STOCK)
            .fetch_all(&mut *conn)
            .await?;
    let today = lots::day(now);
    let lot_limit = lots::day(now + LOT_DAYS * 86_400);
    let expiring_lots: Vec<ExpiringLot> = sqlx::query_as(
        "SELECT l.id, l.goods_id, g.name, l.lot_no, l.expires_on, l.quantity FROM goods_lots l JOIN goods g ON g.id = l.goods_id \
         WHERE l.quantity > 0 AND l.expires_on <> '' AND l.expires_on >= $1 AND l.expires_on <= $2 ORDER BY l.expires_on, l.id LIMIT 10",
    )
    .bind(&today)
    .bind(lot_limit)
    .fetch_all(&mut *conn)
    .await?;
    let licence_limit = lots::day(now + LICENCE_DAYS * 86_400);
    let expiring_licences: Vec<ExpiringLicence> = sqlx::query_as(
        "SELECT q.id, q.member_id, m.company, q.kind, q.expires_on FROM qualifications q JOIN members m ON m.id = q.member_id \
         WHERE q.status = $1 AND q.expires_on <> '' AND q.expires_on <= $2 ORDER BY q.expires_on, q.id LIMIT 10",
    )
    .bind(ReviewStatus::Approved)
    .bind(licence_limit)
    .fetch_all(&mut *conn)
    .await?;
    let first = start - (SALES_DAYS - 1) * 86_400;
    let paid: Vec<(i64, i64)> = sqlx::query_as("SELECT paid_at, payable FROM orders WHERE paid_at >= $1 AND status <> $2")
        .bind(first)
        .bind(OrderStatus::Cancelled)
        .fetch_all(&mut *conn)
        .await?;
    let sales_by_day = (0..SALES_DAYS)
        .map(|index| {
            let from = first + index * 86_400;
            let of_day = paid.iter().filter(|(at, _)| (from..from + 86_400).contains(at));
            let (orders, sales) = of_day.fold((0, 0), |(orders, sales), (_, payable)| (orders + 1, sales + payable));
            DaySales { day: lots::day(from), orders, sales }
        })
        .collect();
    let sales_by_category = by_category(conn, first).await?;
    Ok(Dashboard {
        orders_today,
        paid_today,
        sales_today,
        payments_today,
        waiting,
        low_stock,
        expiring_lots,
        expiring_licences,
        sales_by_day,
        sales_by_category,
    })
}

/// What the lines of orders paid since `from` (not cancelled) were paid, by their goods'
/// top-level category, most first.
async fn by_category(conn: &mut AnyConnection, from: i64) -> Result<Vec<CategorySales>> {
    let categories: Vec<(i64, Option<i64>, String)> =
        sqlx::query_as("SELECT id, parent_id, name FROM categories").fetch_all(&mut *conn).await?;
    let lines: Vec<(i64, i64, i64)> = sqlx::query_as(
        "SELECT g.category_id, CAST(SUM(i.number) AS BIGINT), CAST(SUM(i.paid) AS BIGINT) FROM order_items i \
         JOIN orders o ON o.id = i.order_id JOIN goods g ON g.id = i.goods_id \
         WHERE o.paid_at >= $1 AND o.status <> $2 GROUP BY g.category_id",
    )
    .bind(from)
    .bind(OrderStatus::Cancelled)
    .fetch_all(&mut *conn)
    .await?;
    // Each category's top-level ancestor (a cycle, which the data never holds, stops the climb).
    let top = |mut id: i64| {
        for _ in 0..categories.len() {
            match categories.iter().find(|(known, _, _)| *known == id) {
                Some((_, Some(parent), _)) => id = *parent,
                _ => break,
            }
        }
        id
    };
    let mut totals: Vec<CategorySales> = Vec::new();
    for (category, units, paid) in lines {
        let root = top(category);
        match totals.iter_mut().find(|total| total.category_id == root) {
            Some(total) => {
                total.units += units;
                total.sales += paid;
            }
            None => {
                let name = categories.iter().find(|(id, _, _)| *id == root).map(|(_, _, name)| name.clone()).unwrap_or_default();
                totals.push(CategorySales { category_id: root, name, units, sales: paid });
            }
        }
    }
    totals.sort_by(|a, b| b.sales.cmp(&a.sales).then(a.category_id.cmp(&b.category_id)));
    Ok(totals)
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_shops_day_starts_at_midnight_in_china() {
        // 2026-11-29 00:30 in China is 2026-11-28 16:30 UTC.
        let half_past = 1_795_969_800;
        assert_eq!(super::day_start(half_past), half_past - 1800);
        assert_eq!(super::day_start(half_past - 1800), half_past - 1800);
    }
}
