//! The warehouse's stock by lot, for the console and the commands alike: goods found by id, name
//! or approval number; a goods' lots; a lot received with its dates and inspection report
//! (质检报告); a report kept for a lot received before. The rules are the catalogue's
//! (`crate::domain::catalogue::lots`); each write is one transaction with its audit row.

use serde::Serialize;
use serde_json::json;
use sqlx::AnyConnection;
use utoipa::ToSchema;

use super::audit::{self, Actor, Entry};
use super::orders::begin_write;
use crate::domain::catalogue::lots::{self, Lot, NewLot};
use crate::domain::{Error, Result};

/// A goods as the warehouse looks it up.
#[derive(Debug, Serialize, sqlx::FromRow, ToSchema)]
pub struct StockGoods {
    pub id: i64,
    pub name: String,
    /// 规格.
    pub ypgg: String,
    /// 生产厂家.
    pub sccj: String,
    /// 批准文号.
    pub pzwh: String,
    /// Units that may still be sold.
    pub stock: i64,
    /// The nearest expiry among its lots on sale (`YYYY-MM-DD`), empty when none is dated.
    pub expires_on: String,
}

/// Up to 20 goods whose id is `keyword`, or whose name, manufacturer or approval number holds it.
pub async fn find_goods(conn: &mut AnyConnection, keyword: &str) -> Result<Vec<StockGoods>> {
    let keyword = keyword.trim();
    if keyword.is_empty() {
        return Ok(Vec::new());
    }
    let id = keyword.parse::<i64>().unwrap_or(0);
    let like = format!("%{}%", keyword.replace('\\', "\\\\").replace('%', "\\%").replace('_', "\\_"));
    Ok(sqlx::query_as(
        "SELECT id, name, ypgg, sccj, pzwh, stock, expires_on FROM goods \
         WHERE id = $1 OR name LIKE $2 ESCAPE '\\' OR sccj LIKE $2 ESCAPE '\\' OR pzwh LIKE $2 ESCAPE '\\' \
         ORDER BY CASE WHEN id = $1 THEN 0 ELSE 1 END, id LIMIT 20",
    )
    .bind(id)
    .bind(like)
    .fetch_all(&mut *conn)
    .await?)
}

/// Goods `goods` and its lots, earliest expiry first (the order shipments take them).
pub async fn goods_lots(conn: &mut AnyConnection, goods: i64) -> Result<(StockGoods, Vec<Lot>)> {
    let found: Option<StockGoods> = sqlx::query_as("SELECT id, name, ypgg, sccj, pzwh, stock, expires_on FROM goods WHERE id = $1")
        .bind(goods)
        .fetch_optional(&mut *conn)
        .await?;
    let found = found.ok_or_else(|| Error::not_found("商品不存在"))?;
    Ok((found, lots::of_goods(conn, goods).await?))
}

/// Receives `lot` into stock at `now`, with its inspection report when given. Answers its id.
pub async fn receive(conn: &mut AnyConnection, actor: &Actor, lot: &NewLot<'_>, report: Option<&[u8]>, now: i64) -> Result<i64> {
    let mut tx = begin_write(conn).await?;
    let stock_before: Option<i64> =
        sqlx::query_scalar("SELECT stock FROM goods WHERE id = $1").bind(lot.goods).fetch_optional(&mut *tx).await?;
    let id = lots::add(&mut tx, lot, now).await?;
    if let Some(body) = report {
        lots::set_report(&mut tx, id, body, now).await?;
    }
    let lot_no = lot.lot_no.trim();
    let entry = Entry {
        action: "lot.add",
        target: format!("goods:{}", lot.goods),
        member: None,
        summary: format!(
            "入库商品{}批号{lot_no}：{}件，生产日期{}，有效期至{}{}",
            lot.goods,
            lot.quantity,
            lot.produced_on,
            lot.expires_on,
            if report.is_some() { "，附质检报告" } else { "" }
        ),
        before: json!({ "stock": stock_before }),
        after: json!({
            "lot": id, "lot_no": lot_no, "produced_on": lot.produced_on, "expires_on": lot.expires_on,
            "quantity": lot.quantity, "stock": stock_before.map(|stock| stock + lot.quantity), "report": report.is_some(),
        }),
    };
    audit::record(&mut tx, actor, entry, now).await?;
    tx.commit().await?;
    Ok(id)
}

/// Keeps `body` as lot `lot`'s inspection report, replacing the one before.
pub async fn keep_report(conn: &mut AnyConnection, actor: &Actor, lot: i64, body: &[u8], now: i64) -> Result<()> {
    let mut tx = begin_write(conn).await?;
    let had: Option<i64> =
        sqlx::query_scalar("SELECT lot_id FROM lot_reports WHERE lot_id = $1").bind(lot).fetch_optional(&mut *tx).await?;
    lots::set_report(&mut tx, lot, body, now).await?;
    let entry = Entry {
        action: "lot.report",
        target: format!("lot:{lot}"),
        member: None,
        summary: format!("{}批号{lot}的质检报告（{}字节）", if had.is_some() { "更换" } else { "上传" }, body.len()),
        before: json!({ "report": had.is_some() }),
        after: json!({ "report": true, "bytes": body.len() }),
    };
    audit::record(&mut tx, actor, entry, now).await?;
    tx.commit().await?;
    Ok(())
}

/// Lot `lot`'s inspection report: its content type and bytes.
pub async fn report(conn: &mut AnyConnection, lot: i64) -> Result<(String, Vec<u8>)> {
    lots::report(conn, lot).await?.ok_or_else(|| Error::not_found("该批号没有质检报告"))
}
