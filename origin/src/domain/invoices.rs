//! E-invoices (电子发票): their kinds and states, the seller they print, and issuing a
//! requested one (the operator's `origin admin issue-invoice`). Requests and the PDF are
//! `http::invoice`'s.

use sqlx::AnyConnection;

crate::domain::stored::stored_enum! {
    /// An invoice's kind, as stored in `invoices.kind`.
    pub enum InvoiceKind {
        /// 普票.
        Ordinary = 1 => "增值税普通发票",
        /// 专票: it prints the buyer's registered address, phone and bank too.
        Special = 2 => "增值税专用发票",
    }
}

crate::domain::stored::stored_enum! {
    /// An invoice's state, as stored in `invoices.status`.
    pub enum InvoiceStatus {
        Requested = 0 => "待开票",
        Issued = 1 => "已开票",
    }
}

/// The seller's address and phone as an invoice prints them.
pub fn contact(shop: &crate::domain::shop::ShopIdentity) -> String {
    format!("{} {}", shop.address, shop.hot_line).trim().to_owned()
}

/// Issues a requested invoice: its number, today's date, the amount paid for the order's lines
/// less what their returns refunded, and the seller — the shop's identity now, kept with the
/// invoice as issued; answers `(member, invoice_no, amount)`.
pub async fn issue(conn: &mut AnyConnection, id: i64, now: i64) -> anyhow::Result<(i64, String, i64)> {
    let (member, order, status): (i64, i64, InvoiceStatus) =
        sqlx::query_as("SELECT member_id, order_id, status FROM invoices WHERE id = $1")
            .bind(id)
            .fetch_optional(&mut *conn)
            .await?
            .ok_or_else(|| anyhow::anyhow!("no invoice request {id}"))?;
    anyhow::ensure!(status == InvoiceStatus::Requested, "invoice {id} is issued already");
    let amount: i64 = sqlx::query_scalar("SELECT CAST(COALESCE(SUM(paid - refunded), 0) AS BIGINT) FROM order_items WHERE order_id = $1")
        .bind(order)
        .fetch_one(&mut *conn)
        .await?;
    anyhow::ensure!(amount > 0, "order {order} has nothing left to invoice: every line is refunded");
    let (year, month, day) = crate::civil_date(now, 8 * 3600);
    let invoice_no = format!("{year:04}{month:02}{day:02}{id:08}");
    let shop = crate::domain::shop::read(&mut *conn).await?;
    let issued = sqlx::query(
        "UPDATE invoices SET status = $1, invoice_no = $2, amount = $3, issued_at = $4, seller = $5, seller_tax_no = $6, \
         seller_contact = $7 WHERE id = $8 AND status = $9",
    )
    .bind(InvoiceStatus::Issued)
    .bind(&invoice_no)
    .bind(amount)
    .bind(now)
    .bind(&shop.company)
    .bind(&shop.credit_code)
    .bind(contact(&shop))
    .bind(id)
    .bind(InvoiceStatus::Requested)
    .execute(&mut *conn)
    .await?;
    anyhow::ensure!(issued.rows_affected() == 1, "invoice {id} is issued already");
    Ok((member, invoice_no, amount))
}
