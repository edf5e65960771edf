//! The operator's work on invoices: the list (requests waiting, issued, red-letter), issuing a
//! requested one — its number, lines and seller frozen — and reversing an issued one whole with a
//! red-letter invoice; each with the member told and the audit row, one transaction.

use serde::Serialize;
use serde_json::json;
use sqlx::AnyConnection;

use super::audit::{self, Actor, Entry};
use super::orders::begin_write;
use crate::domain::invoices::{InvoiceKind, InvoiceStatus};
use crate::domain::{Error, Result, messages};
use crate::money;

/// An invoice in the console's list.
#[derive(Debug, Serialize, sqlx::FromRow, utoipa::ToSchema)]
pub struct InvoiceRow {
    pub id: i64,
    pub order_id: i64,
    pub order_no: String,
    pub member_id: i64,
    pub company: String,
    /// 1 普票, 2 专票.
    #[schema(value_type = i64)]
    pub kind: InvoiceKind,
    pub title: String,
    pub tax_no: String,
    /// 0 待开票, 1 已开票.
    #[schema(value_type = i64)]
    pub status: InvoiceStatus,
    #[schema(required = true)]
    pub invoice_no: Option<String>,
    /// Tax included; negative on a red-letter invoice; `null` before it is issued.
    #[serde(serialize_with = "super::as_money_or_null")]
    #[schema(value_type = Option<String>, example = "120.00")]
    #[schema(required = true)]
    pub amount: Option<i64>,
    /// The blue invoice a red-letter one reverses.
    #[schema(required = true)]
    pub red_of_no: Option<String>,
    /// When finance reversed this blue invoice whole (红冲); `null` while it stands.
    #[schema(required = true)]
    pub reversed_at: Option<i64>,
    /// Why it was reversed; empty while it stands.
    pub reversal_reason: String,
    pub created_at: i64,
    #[schema(required = true)]
    pub issued_at: Option<i64>,
}

/// A page of invoices (`page` from 1): requests first when `pending`, else newest first.
pub async fn list(conn: &mut AnyConnection, pending: bool, search: Option<&str>, page: i64, size: i64) -> Result<(Vec<InvoiceRow>, i64)> {
    let search = search.map(|text| format!("%{}%", text.replace(['%', '_', '\\'], ""))).unwrap_or_default();
    const MATCHING: &str = "FROM invoices v JOIN orders o ON o.id = v.order_id JOIN members m ON m.id = v.member_id \
         WHERE ($1 = 0 OR v.status = $2) AND ($3 = '' OR o.order_no LIKE $3 OR v.invoice_no LIKE $3 OR v.title LIKE $3 OR m.company LIKE $3)";
    let rows: Vec<InvoiceRow> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT v.id, v.order_id, o.order_no, v.member_id, m.company, v.kind, v.title, v.tax_no, v.status, v.invoice_no, v.amount, \
                (SELECT b.invoice_no FROM invoices b WHERE b.id = v.red_of) AS red_of_no, v.reversed_at, v.reversal_reason, \
                v.created_at, v.issued_at \
         {MATCHING} ORDER BY v.id DESC LIMIT $4 OFFSET $5"
    )))
    .bind(i64::from(pending))
    .bind(InvoiceStatus::Requested)
    .bind(&search)
    .bind(size)
    .bind((page - 1) * size)
    .fetch_all(&mut *conn)
    .await?;
    let total: i64 = sqlx::query_scalar(sqlx::AssertSqlSafe(format!("SELECT CAST(COUNT(*) AS BIGINT) {MATCHING}")))
        .bind(i64::from(pending))
        .bind(InvoiceStatus::Requested)
        .bind(&search)
        .fetch_one(&mut *conn)
        .await?;
    Ok((rows, total))
}

/// An invoice issued.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct InvoiceIssued {
    pub id: i64,
    pub member_id: i64,
    pub invoice_no: String,
    /// Tax included.
    #[serde(serialize_with = "super::as_money")]
    #[schema(value_type = String, example = "120.00")]
    pub amount: i64,
}

/// Issues requested invoice `id`: one transaction with the member's message and the audit row.
pub async fn issue(conn: &mut AnyConnection, actor: &Actor, id: i64, now: i64) -> Result<InvoiceIssued> {
    let mut tx = begin_write(conn).await?;
    let (member, invoice_no, amount) = crate::domain::invoices::issue(&mut tx, id, now).await?;
    let yuan = money::text(amount);
    messages::send(
        &mut tx,
        member,
        messages::MessageKind::Order,
        "发票已开具",
        &format!("您申请的电子发票已开具，发票号码 {invoice_no}，金额¥{yuan}，可在电子发票页下载。"),
    )
    .await?;
    let order_no: String = sqlx::query_scalar("SELECT o.order_no FROM invoices v JOIN orders o ON o.id = v.order_id WHERE v.id = $1")
        .bind(id)
        .fetch_one(&mut *tx)
        .await?;
    let entry = Entry {
        action: "invoice.issue",
        target: format!("invoice:{id}"),
        member: Some(member),
        summary: format!("订单 {order_no} 开具发票 {invoice_no}，¥{yuan}"),
        before: json!({ "status": "待开票" }),
        after: json!({ "status": "已开票", "invoice_no": invoice_no, "amount": yuan }),
    };
    audit::record(&mut tx, actor, entry, now).await?;
    tx.commit().await?;
    Ok(InvoiceIssued { id, member_id: member, invoice_no, amount })
}

/// A blue invoice reversed whole, and the red-letter invoice that did it.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct InvoiceReversed {
    pub id: i64,
    pub member_id: i64,
    pub invoice_no: String,
    pub red_invoice_no: String,
    /// The red-letter invoice's amount, tax included: negative.
    #[serde(serialize_with = "super::as_money")]
    #[schema(value_type = String, example = "-120.00")]
    pub amount: i64,
}

/// Reverses issued invoice `id` whole for `reason` (红冲): the red-letter invoice, the member told
/// they may request the order's invoice again, the audit row; one transaction.
pub async fn reverse(conn: &mut AnyConnection, actor: &Actor, id: i64, reason: &str, now: i64) -> Result<InvoiceReversed> {
    let reason = reason.trim();
    if reason.is_empty() {
        return Err(Error::field("reason", "请填写红冲原因"));
    }
    if reason.chars().count() > 100 {
        return Err(Error::field("reason", "红冲原因不能超过100字"));
    }
    let mut tx = begin_write(conn).await?;
    let reversed = crate::domain::invoices::reverse(&mut tx, id, reason, now).await?;
    let order_no: String = sqlx::query_scalar("SELECT o.order_no FROM invoices v JOIN orders o ON o.id = v.order_id WHERE v.id = $1")
        .bind(id)
        .fetch_one(&mut *tx)
        .await?;
    let yuan = money::text(reversed.amount);
    messages::send(
        &mut tx,
        reversed.member,
        messages::MessageKind::Order,
        "发票已红冲",
        &format!(
            "订单 {order_no} 的发票 {} 已红冲（{reason}），红字发票号码 {}。如需发票，请在电子发票页重新申请。",
            reversed.blue_no, reversed.red_no
        ),
    )
    .await?;
    let entry = Entry {
        action: "invoice.reverse",
        target: format!("invoice:{id}"),
        member: Some(reversed.member),
        summary: format!("订单 {order_no} 发票 {} 红冲，红字发票 {}，¥{yuan}：{reason}", reversed.blue_no, reversed.red_no),
        before: json!({ "status": "已开票", "invoice_no": reversed.blue_no }),
        after: json!({ "status": "已红冲", "red_invoice_no": reversed.red_no, "amount": yuan, "reason": reason }),
    };
    audit::record(&mut tx, actor, entry, now).await?;
    tx.commit().await?;
    Ok(InvoiceReversed {
        id,
        member_id: reversed.member,
        invoice_no: reversed.blue_no,
        red_invoice_no: reversed.red_no,
        amount: reversed.amount,
    })
}
