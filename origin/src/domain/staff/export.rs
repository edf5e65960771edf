//! The console's lists as Excel workbooks (`.xlsx`, written by rust_xlsxwriter): the orders a
//! filter finds, each with its lines on a second sheet, and the members a filter finds. Money is
//! written as numbers with two decimals, as each amount's decimal text reads (so that a sum in
//! the sheet adds what the shop shows); times in the shop's time (UTC+8). Every export is
//! recorded in the audit trail: it carries members' data out of the shop.

use rust_xlsxwriter::{Format, Workbook, Worksheet, XlsxError};
use serde_json::json;
use sqlx::AnyConnection;

use super::audit::{self, Actor, Entry};
use super::{members, orders};
use crate::domain::orders::life::OrderStatus;
use crate::domain::{Error, Result};

/// The most rows an export writes; a larger one is refused, to be narrowed by its filter.
pub const MAX_ROWS: i64 = 100_000;

/// One cell of an export.
pub(super) enum Cell {
    Text(String),
    Int(i64),
    /// Stored money (cents).
    Money(i64),
    /// Unix seconds, written as the shop's time.
    Time(i64),
}

/// `YYYY-MM-DD HH:MM` of `seconds` in the shop's time (UTC+8).
pub fn shop_time(seconds: i64) -> String {
    let (year, month, day) = crate::civil_date(seconds, 8 * 3600);
    let minute = (seconds + 8 * 3600).rem_euclid(86_400) / 60;
    format!("{year:04}-{month:02}-{day:02} {:02}:{:02}", minute / 60, minute % 60)
}

/// A sheet: its name, its columns (title, width) and its rows.
pub(super) struct Sheet {
    pub name: &'static str,
    pub columns: Vec<(&'static str, f64)>,
    pub rows: Vec<Vec<Cell>>,
}

fn write_sheet(sheet: &Sheet, worksheet: &mut Worksheet) -> std::result::Result<(), XlsxError> {
    let bold = Format::new().set_bold();
    let money = Format::new().set_num_format("0.00");
    worksheet.set_name(sheet.name)?;
    for (col, (title, width)) in sheet.columns.iter().enumerate() {
        let col = col as u16;
        worksheet.write_string_with_format(0, col, *title, &bold)?;
        worksheet.set_column_width(col, *width)?;
    }
    for (index, row) in sheet.rows.iter().enumerate() {
        let at = index as u32 + 1;
        for (col, cell) in row.iter().enumerate() {
            let col = col as u16;
            match cell {
                Cell::Text(text) => worksheet.write_string(at, col, text)?,
                Cell::Int(value) => worksheet.write_number(at, col, *value as f64)?,
                // The decimal text, read as Excel reads a typed amount: the nearest number to it.
                Cell::Money(cents) => {
                    let amount: f64 = crate::money::text(*cents).parse().unwrap_or_default();
                    worksheet.write_number_with_format(at, col, amount, &money)?
                }
                Cell::Time(seconds) => worksheet.write_string(at, col, shop_time(*seconds))?,
            };
        }
    }
    worksheet.set_freeze_panes(1, 0)?;
    worksheet.autofilter(0, 0, sheet.rows.len() as u32, sheet.columns.len() as u16 - 1)?;
    Ok(())
}

pub(super) fn workbook(sheets: &[Sheet]) -> Result<Vec<u8>> {
    let written = (|| {
        let mut book = Workbook::new();
        for sheet in sheets {
            write_sheet(sheet, book.add_worksheet())?;
        }
        book.save_to_buffer()
    })();
    written.map_err(|error| Error::Internal(anyhow::anyhow!("writing the workbook: {error}")))
}

pub(super) fn too_many(total: i64, what: &str) -> Error {
    Error::field("export", format!("共{total}条{what}，超过{MAX_ROWS}条，请缩小筛选范围后再导出"))
}

/// The orders `filter` finds, newest first (sheet 订单), and their lines (sheet 明细).
pub async fn orders(conn: &mut AnyConnection, actor: &Actor, filter: &orders::Filter, now: i64) -> Result<Vec<u8>> {
    let (found, total) = orders::list(conn, filter, 1, MAX_ROWS).await?;
    if total > MAX_ROWS {
        return Err(too_many(total, "订单"));
    }
    let ids: Vec<i64> = found.iter().map(|order| order.id).collect();
    #[derive(sqlx::FromRow)]
    struct Line {
        order_id: i64,
        goods_id: i64,
        name: String,
        ypgg: String,
        sccj: String,
        bzdw: String,
        number: i64,
        price: i64,
        amount: i64,
        paid: i64,
        shipped: i64,
        returned: i64,
    }
    let mut lines: Vec<Line> = Vec::new();
    // In chunks, so that no statement binds more values than a database takes.
    for chunk in ids.chunks(500) {
        let list = chunk.iter().map(i64::to_string).collect::<Vec<_>>().join(",");
        let mut part: Vec<Line> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
            "SELECT order_id, goods_id, name, ypgg, sccj, bzdw, number, price, amount, paid, shipped, returned \
             FROM order_items WHERE order_id IN ({list}) ORDER BY order_id DESC, id"
        )))
        .fetch_all(&mut *conn)
        .await?;
        lines.append(&mut part);
    }
    let number_of = |id: i64| found.iter().find(|order| order.id == id).map(|order| order.order_no.clone()).unwrap_or_default();
    let orders_sheet = Sheet {
        name: "订单",
        columns: vec![
            ("订单号", 22.0),
            ("下单时间", 17.0),
            ("状态", 8.0),
            ("会员ID", 8.0),
            ("账号", 14.0),
            ("单位名称", 28.0),
            ("品种数", 7.0),
            ("未发货数量", 10.0),
            ("应付金额", 12.0),
        ],
        rows: found
            .iter()
            .map(|order| {
                vec![
                    Cell::Text(order.order_no.clone()),
                    Cell::Time(order.created_at),
                    Cell::Text(OrderStatus::name(order.status).to_owned()),
                    Cell::Int(order.member_id),
                    Cell::Text(order.username.clone()),
                    Cell::Text(order.company.clone()),
                    Cell::Int(order.lines),
                    Cell::Int(order.unshipped),
                    Cell::Money(order.payable),
                ]
            })
            .collect(),
    };
    let lines_sheet = Sheet {
        name: "明细",
        columns: vec![
            ("订单号", 22.0),
            ("商品ID", 8.0),
            ("商品名称", 24.0),
            ("规格", 16.0),
            ("生产厂家", 24.0),
            ("单位", 6.0),
            ("数量", 7.0),
            ("单价", 10.0),
            ("小计", 11.0),
            ("实付", 11.0),
            ("已发货", 7.0),
            ("已退货", 7.0),
        ],
        rows: lines
            .into_iter()
            .map(|line| {
                vec![
                    Cell::Text(number_of(line.order_id)),
                    Cell::Int(line.goods_id),
                    Cell::Text(line.name),
                    Cell::Text(line.ypgg),
                    Cell::Text(line.sccj),
                    Cell::Text(line.bzdw),
                    Cell::Int(line.number),
                    Cell::Money(line.price),
                    Cell::Money(line.amount),
                    Cell::Money(line.paid),
                    Cell::Int(line.shipped),
                    Cell::Int(line.returned),
                ]
            })
            .collect(),
    };
    let book = workbook(&[orders_sheet, lines_sheet])?;
    let entry = Entry {
        action: "orders.export",
        target: String::new(),
        member: None,
        summary: format!("导出订单 {} 单", found.len()),
        before: serde_json::Value::Null,
        after: json!({
            "orders": found.len(), "status": filter.status.map(OrderStatus::code), "number": filter.number,
            "member": filter.member, "from": filter.from, "to": filter.to,
        }),
    };
    audit::record(conn, actor, entry, now).await?;
    Ok(book)
}

/// The members `filter` finds, newest first.
pub async fn members(conn: &mut AnyConnection, actor: &Actor, filter: &members::Filter, now: i64) -> Result<Vec<u8>> {
    let (found, total) = members::list(conn, filter, 1, MAX_ROWS).await?;
    if total > MAX_ROWS {
        return Err(too_many(total, "会员"));
    }
    let kind = |code: i64| match code {
        1 => "单体药店",
        2 => "连锁药店",
        3 => "诊所",
        4 => "医院/卫生院",
        5 => "批发企业",
        _ => "",
    };
    let sheet = Sheet {
        name: "会员",
        columns: vec![
            ("会员ID", 8.0),
            ("账号", 14.0),
            ("单位名称", 28.0),
            ("联系人", 10.0),
            ("手机", 13.0),
            ("类型", 11.0),
            ("资质", 8.0),
            ("余额", 12.0),
            ("积分", 8.0),
            ("待审证件", 8.0),
            ("注册时间", 17.0),
        ],
        rows: found
            .iter()
            .map(|member| {
                vec![
                    Cell::Int(member.id),
                    Cell::Text(member.username.clone()),
                    Cell::Text(member.company.clone()),
                    Cell::Text(member.name.clone()),
                    Cell::Text(member.phone.clone()),
                    Cell::Text(kind(member.buyer_type).to_owned()),
                    Cell::Text(if member.is_passed == 1 { "已认证" } else { "未认证" }.to_owned()),
                    Cell::Money(member.balance),
                    Cell::Int(member.points),
                    Cell::Int(member.pending),
                    Cell::Time(member.created_at),
                ]
            })
            .collect(),
    };
    let book = workbook(&[sheet])?;
    let entry = Entry {
        action: "members.export",
        target: String::new(),
        member: None,
        summary: format!("导出会员 {} 个", found.len()),
        before: serde_json::Value::Null,
        after: json!({ "members": found.len(), "search": filter.search, "approved": filter.approved, "pending": filter.pending }),
    };
    audit::record(conn, actor, entry, now).await?;
    Ok(book)
}
