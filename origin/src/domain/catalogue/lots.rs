//! Lots (批号): the stock in the warehouse, by lot, with production and expiry dates and the
//! lot's inspection report (质检报告) (docs/compliance.md, "Lots, shipments and the delivery
//! note").
//!
//! `goods.stock` is what may still be sold; a lot's `quantity` is what is physically there, and
//! shipments take it earliest expiry first (FEFO, `allocate`). The expiry every page shows is
//! the nearest among the lots on sale — in the warehouse and not expired — kept in
//! `goods.expires_on` by `refresh_expiry`, which also puts the goods in the near-expiry zone.

use sqlx::AnyConnection;

use crate::domain::{Error, Result};

/// Whether `text` is a calendar day written `YYYY-MM-DD`.
pub fn is_day(text: &str) -> bool {
    let bytes = text.as_bytes();
    if bytes.len() != 10 || bytes[4] != b'-' || bytes[7] != b'-' {
        return false;
    }
    let number =
        |range: std::ops::Range<usize>| text.get(range).filter(|part| part.bytes().all(|b| b.is_ascii_digit()))?.parse::<i64>().ok();
    let (Some(year), Some(month), Some(day)) = (number(0..4), number(5..7), number(8..10)) else {
        return false;
    };
    if !(1..=12).contains(&month) || day < 1 {
        return false;
    }
    // The day exists when it reads back as itself.
    let days = crate::days_from_civil(year, month, day);
    crate::civil_date(days * 86_400, 0) == (year, month, day)
}

/// `YYYY-MM-DD` of the shop's day (UTC+8) at `now`.
pub fn day(now: i64) -> String {
    let (year, month, day) = crate::civil_date(now, 8 * 3600);
    format!("{year:04}-{month:02}-{day:02}")
}

/// A lot as received into the warehouse.
#[derive(Clone, Debug)]
pub struct NewLot<'a> {
    pub goods: i64,
    pub lot_no: &'a str,
    /// `YYYY-MM-DD`.
    pub produced_on: &'a str,
    /// `YYYY-MM-DD`: its last day of use.
    pub expires_on: &'a str,
    pub quantity: i64,
}

/// An inspection report's content type, from its first bytes: PDF, JPEG or PNG.
pub fn report_type(body: &[u8]) -> Option<&'static str> {
    match body {
        [b'%', b'P', b'D', b'F', ..] => Some("application/pdf"),
        [0xFF, 0xD8, 0xFF, ..] => Some("image/jpeg"),
        [0x89, b'P', b'N', b'G', ..] => Some("image/png"),
        _ => None,
    }
}

/// The largest inspection report kept.
pub const REPORT_MAX_BYTES: usize = 10 * 1024 * 1024;

/// Receives lot `lot` at `now`, in the caller's transaction: the lot, its units added to what
/// may be sold, and the goods' expiry read again. Answers the lot's id.
pub async fn add(conn: &mut AnyConnection, lot: &NewLot<'_>, now: i64) -> Result<i64> {
    let lot_no = lot.lot_no.trim();
    if lot_no.is_empty() || lot_no.chars().count() > 40 {
        return Err(Error::field("lot_no", "请填写批号（不超过40个字符）"));
    }
    if !is_day(lot.produced_on) {
        return Err(Error::field("produced_on", "生产日期格式应为YYYY-MM-DD"));
    }
    if !is_day(lot.expires_on) {
        return Err(Error::field("expires_on", "有效期至格式应为YYYY-MM-DD"));
    }
    if lot.expires_on <= lot.produced_on {
        return Err(Error::field("expires_on", "有效期至应晚于生产日期"));
    }
    if lot.expires_on < day(now).as_str() {
        return Err(Error::field("expires_on", "该批号已过有效期，不能入库"));
    }
    if lot.quantity < 1 {
        return Err(Error::field("quantity", "入库数量至少为1"));
    }
    let known: Option<i64> = sqlx::query_scalar("SELECT id FROM goods WHERE id = $1").bind(lot.goods).fetch_optional(&mut *conn).await?;
    if known.is_none() {
        return Err(Error::not_found("商品不存在"));
    }
    let taken: Option<i64> = sqlx::query_scalar("SELECT id FROM goods_lots WHERE goods_id = $1 AND lot_no = $2")
        .bind(lot.goods)
        .bind(lot_no)
        .fetch_optional(&mut *conn)
        .await?;
    if taken.is_some() {
        return Err(Error::conflict(format!("批号{lot_no}已入库")));
    }
    let id: i64 = sqlx::query_scalar(
        "INSERT INTO goods_lots (goods_id, lot_no, produced_on, expires_on, received, quantity, created_at) \
         VALUES ($1, $2, $3, $4, $5, $5, $6) RETURNING id",
    )
    .bind(lot.goods)
    .bind(lot_no)
    .bind(lot.produced_on)
    .bind(lot.expires_on)
    .bind(lot.quantity)
    .bind(now)
    .fetch_one(&mut *conn)
    .await?;
    sqlx::query("UPDATE goods SET stock = stock + $1 WHERE id = $2").bind(lot.quantity).bind(lot.goods).execute(&mut *conn).await?;
    refresh_expiry(conn, lot.goods, &day(now)).await?;
    Ok(id)
}

/// Keeps `body` as lot `lot`'s inspection report (replacing one before), in the caller's
/// transaction; refused unless it is a PDF, JPEG or PNG of at most `REPORT_MAX_BYTES`.
pub async fn set_report(conn: &mut AnyConnection, lot: i64, body: &[u8], now: i64) -> Result<()> {
    let Some(content_type) = report_type(body) else {
        return Err(Error::field("report", "质检报告须为PDF、JPG或PNG文件"));
    };
    if body.len() > REPORT_MAX_BYTES {
        return Err(Error::field("report", "质检报告不能超过10MB"));
    }
    let known: Option<i64> = sqlx::query_scalar("SELECT id FROM goods_lots WHERE id = $1").bind(lot).fetch_optional(&mut *conn).await?;
    if known.is_none() {
        return Err(Error::not_found("批号不存在"));
    }
    sqlx::query("DELETE FROM lot_reports WHERE lot_id = $1").bind(lot).execute(&mut *conn).await?;
    sqlx::query("INSERT INTO lot_reports (lot_id, content_type, body, created_at) VALUES ($1, $2, $3, $4)")
        .bind(lot)
        .bind(content_type)
        .bind(body)
        .bind(now)
        .execute(&mut *conn)
        .await?;
    Ok(())
}

/// Lot `lot`'s inspection report: its content type and bytes; `None` when it has none.
pub async fn report(conn: &mut AnyConnection, lot: i64) -> Result<Option<(String, Vec<u8>)>> {
    Ok(sqlx::query_as("SELECT content_type, body FROM lot_reports WHERE lot_id = $1").bind(lot).fetch_optional(&mut *conn).await?)
}

/// A lot, as the warehouse holds it.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow, serde::Serialize, utoipa::ToSchema)]
pub struct Lot {
    pub id: i64,
    pub goods_id: i64,
    pub lot_no: String,
    /// `YYYY-MM-DD`; empty for an opening lot nobody dated.
    pub produced_on: String,
    pub expires_on: String,
    /// Units received, and units still in the warehouse.
    pub received: i64,
    pub quantity: i64,
    /// Whether its inspection report is kept (`GET /api/lot/{id}/report`).
    #[sqlx(skip)]
    pub has_report: bool,
}

/// Goods `goods`' lots, in the order shipments take them (earliest expiry first).
pub async fn of_goods(conn: &mut AnyConnection, goods: i64) -> Result<Vec<Lot>> {
    #[derive(sqlx::FromRow)]
    struct Row {
        #[sqlx(flatten)]
        lot: Lot,
        report: i64,
    }
    let rows: Vec<Row> = sqlx::query_as(
        "SELECT l.id, l.goods_id, l.lot_no, l.produced_on, l.expires_on, l.received, l.quantity, \
         CASE WHEN EXISTS (SELECT 1 FROM lot_reports r WHERE r.lot_id = l.id) THEN 1 ELSE 0 END AS report \
         FROM goods_lots l WHERE l.goods_id = $1 ORDER BY CASE WHEN l.expires_on = '' THEN 1 ELSE 0 END, l.expires_on, l.id",
    )
    .bind(goods)
    .fetch_all(&mut *conn)
    .await?;
    Ok(rows.into_iter().map(|row| Lot { has_report: row.report != 0, ..row.lot }).collect())
}

/// Sets goods `goods`' shown expiry to the nearest among its lots on sale on `today` (in the
/// warehouse and not past their last day); empty when none is dated. Written only when it
/// changes, so that the search index is not bumped for nothing.
pub async fn refresh_expiry(conn: &mut AnyConnection, goods: i64, today: &str) -> Result<()> {
    let nearest: Option<String> = sqlx::query_scalar(
        "SELECT MIN(expires_on) FROM goods_lots WHERE goods_id = $1 AND quantity > 0 AND expires_on <> '' AND expires_on >= $2",
    )
    .bind(goods)
    .bind(today)
    .fetch_one(&mut *conn)
    .await?;
    sqlx::query("UPDATE goods SET expires_on = $1 WHERE id = $2 AND expires_on <> $1")
        .bind(nearest.unwrap_or_default())
        .bind(goods)
        .execute(&mut *conn)
        .await?;
    Ok(())
}

/// Reads again the expiry of every goods whose shown lot has expired by `today` (the hourly
/// task). Answers how many goods it read.
pub async fn refresh_lapsed(conn: &mut AnyConnection, today: &str) -> Result<usize> {
    let lapsed: Vec<i64> =
        sqlx::query_scalar("SELECT id FROM goods WHERE expires_on <> '' AND expires_on < $1").bind(today).fetch_all(&mut *conn).await?;
    for &goods in &lapsed {
        refresh_expiry(conn, goods, today).await?;
    }
    Ok(lapsed.len())
}

/// Units taken from one lot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Taken {
    pub lot: i64,
    pub number: i64,
}

/// Takes `number` units of goods `goods` from its lots, earliest expiry first (FEFO), in the
/// caller's transaction: never from a lot past its last day on `today`; an undated opening lot
/// last. Each take is a guarded update, so two shipments never take one unit twice. `Err` with
/// the units missing when the lots on sale hold fewer (then the caller's transaction must be
/// dropped: some lots may have been taken from).
pub async fn allocate(conn: &mut AnyConnection, goods: i64, number: i64, today: &str) -> Result<std::result::Result<Vec<Taken>, i64>> {
    let lots: Vec<(i64, i64)> = sqlx::query_as(
        "SELECT id, quantity FROM goods_lots WHERE goods_id = $1 AND quantity > 0 AND (expires_on = '' OR expires_on >= $2) \
         ORDER BY CASE WHEN expires_on = '' THEN 1 ELSE 0 END, expires_on, id",
    )
    .bind(goods)
    .bind(today)
    .fetch_all(&mut *conn)
    .await?;
    let mut left = number;
    let mut taken = Vec::new();
    for (lot, quantity) in lots {
        if left == 0 {
            break;
        }
        let take = left.min(quantity);
        let done = sqlx::query("UPDATE goods_lots SET quantity = quantity - $1 WHERE id = $2 AND quantity >= $1")
            .bind(take)
            .bind(lot)
            .execute(&mut *conn)
            .await?;
        if done.rows_affected() == 1 {
            taken.push(Taken { lot, number: take });
            left -= take;
        }
    }
    if left > 0 {
        return Ok(Err(left));
    }
    refresh_expiry(conn, goods, today).await?;
    Ok(Ok(taken))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_are_checked_for_existence() {
        assert!(is_day("2028-02-29"));
        assert!(!is_day("2027-02-29"));
        assert!(!is_day("2027-13-01"));
        assert!(!is_day("2027-1-01"));
        assert!(!is_day("２０２７-01-01"));
        assert!(!is_day("2027-04-31"));
        assert!(is_day("2027-12-31"));
    }

    #[test]
    fn reports_are_known_by_their_first_bytes() {
        assert_eq!(report_type(b"%PDF-1.7\n"), Some("application/pdf"));
        assert_eq!(report_type(&[0xFF, 0xD8, 0xFF, 0xE0]), Some("image/jpeg"));
        assert_eq!(report_type(b"\x89PNG\r\n"), Some("image/png"));
        assert_eq!(report_type(b"GIF89a"), None);
        assert_eq!(report_type(b""), None);
    }
}
