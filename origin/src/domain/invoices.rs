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

/// An invoice's next number, its own (not the order's): 20 digits, the year's two, the
/// province's (33, 浙江), and the year's running count, from a counter claimed with one
/// guarded update so that two issues never share one.
async fn next_number(conn: &mut AnyConnection, now: i64) -> anyhow::Result<String> {
    let (year, _, _) = crate::civil_date(now, 8 * 3600);
    sqlx::query("INSERT INTO invoice_counters (year, last) VALUES ($1, 0) ON CONFLICT (year) DO NOTHING")
        .bind(year)
        .execute(&mut *conn)
        .await?;
    let last: i64 = sqlx::query_scalar("UPDATE invoice_counters SET last = last + 1 WHERE year = $1 RETURNING last")
        .bind(year)
        .fetch_one(&mut *conn)
        .await?;
    Ok(format!("{:02}33{last:016}", year % 100))
}

/// A line of an invoice as issued.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct InvoiceLine {
    pub order_item_id: i64,
    pub name: String,
    pub ypgg: String,
    pub bzdw: String,
    /// Negative on a red-letter invoice.
    pub number: i64,
    /// Before tax, stored (ten-thousandths).
    pub price: i64,
    pub net: i64,
    pub rate: i64,
    pub tax: i64,
}

/// A line to invoice: its order line, goods facts, units and amount (tax included, stored).
struct Draft {
    item: i64,
    name: String,
    ypgg: String,
    bzdw: String,
    number: i64,
    amount: i64,
    rate: i64,
}

/// The invoice lines of `drafts`: each amount split into its amount before tax and its tax by
/// the engine (`engine::vat_included`), and the unit price before tax.
fn lines_of(drafts: Vec<Draft>) -> anyhow::Result<Vec<InvoiceLine>> {
    drafts
        .into_iter()
        .map(|draft| {
            anyhow::ensure!(draft.amount % 100 == 0, "line {}: {} is not whole cents", draft.item, draft.amount);
            let rate = u32::try_from(draft.rate)?;
            let split = engine::vat_included(engine::Cents(i128::from(draft.amount / 100)), rate)
                .ok_or_else(|| anyhow::anyhow!("line {}: no tax at {rate}%", draft.item))?;
            let price = engine::unit_price_before_tax(split.net, i128::from(draft.number))
                .ok_or_else(|| anyhow::anyhow!("line {}: no units", draft.item))?;
            Ok(InvoiceLine {
                order_item_id: draft.item,
                name: draft.name,
                ypgg: draft.ypgg,
                bzdw: draft.bzdw,
                number: draft.number,
                price: i64::try_from(price)?,
                net: i64::try_from(split.net.0 * 100)?,
                rate: draft.rate,
                tax: i64::try_from(split.tax.0 * 100)?,
            })
        })
        .collect()
}

/// Keeps `lines` as invoice `id`'s, with its totals.
async fn freeze(conn: &mut AnyConnection, id: i64, lines: &[InvoiceLine]) -> anyhow::Result<(i64, i64)> {
    for line in lines {
        sqlx::query(
            "INSERT INTO invoice_lines (invoice_id, order_item_id, name, ypgg, bzdw, number, price, net, rate, tax) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
        )
        .bind(id)
        .bind(line.order_item_id)
        .bind(&line.name)
        .bind(&line.ypgg)
        .bind(&line.bzdw)
        .bind(line.number)
        .bind(line.price)
        .bind(line.net)
        .bind(line.rate)
        .bind(line.tax)
        .execute(&mut *conn)
        .await?;
    }
    Ok((lines.iter().map(|line| line.net).sum(), lines.iter().map(|line| line.tax).sum()))
}

/// The lines order `order` would be invoiced for now: every line with units not returned, for
/// what is left paid for it, at its goods' VAT rate.
pub async fn lines_now(conn: &mut AnyConnection, order: i64) -> anyhow::Result<Vec<InvoiceLine>> {
    let rows: Vec<(i64, String, String, String, i64, i64, i64)> = sqlx::query_as(
        "SELECT i.id, i.name, i.ypgg, i.bzdw, i.number - i.returned, i.paid - i.refunded, g.vat_rate FROM order_items i \
         JOIN goods g ON g.id = i.goods_id WHERE i.order_id = $1 AND i.returned < i.number ORDER BY i.id",
    )
    .bind(order)
    .fetch_all(&mut *conn)
    .await?;
    lines_of(
        rows.into_iter()
            .map(|(item, name, ypgg, bzdw, number, amount, rate)| Draft { item, name, ypgg, bzdw, number, amount, rate })
            .collect(),
    )
}

/// Invoice `id`'s lines as issued.
pub async fn lines(conn: &mut AnyConnection, id: i64) -> sqlx::Result<Vec<InvoiceLine>> {
    sqlx::query_as(
        "SELECT order_item_id, name, ypgg, bzdw, number, price, net, rate, tax FROM invoice_lines WHERE invoice_id = $1 ORDER BY id",
    )
    .bind(id)
    .fetch_all(&mut *conn)
    .await
}

/// Issues a requested invoice: its own number, today's date, its lines as they stand (what is
/// left paid for each, its rate and tax), frozen with it, and the seller — the shop's identity
/// now, kept with the invoice as issued; answers `(member, invoice_no, amount)`.
pub async fn issue(conn: &mut AnyConnection, id: i64, now: i64) -> crate::domain::Result<(i64, String, i64)> {
    use crate::domain::Error;
    let (member, order, status): (i64, i64, InvoiceStatus) =
        sqlx::query_as("SELECT member_id, order_id, status FROM invoices WHERE id = $1")
            .bind(id)
            .fetch_optional(&mut *conn)
            .await?
            .ok_or_else(|| Error::not_found("发票申请不存在"))?;
    if status != InvoiceStatus::Requested {
        return Err(Error::conflict("该发票已开具"));
    }
    let lines = lines_now(conn, order).await?;
    let amount: i64 = lines.iter().map(|line| line.net + line.tax).sum();
    if amount <= 0 {
        return Err(Error::conflict("订单商品已全部退款，没有可开票的金额"));
    }
    let invoice_no = next_number(conn, now).await?;
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
    if issued.rows_affected() != 1 {
        return Err(Error::conflict("该发票已开具"));
    }
    let (net, tax) = freeze(conn, id, &lines).await?;
    sqlx::query("UPDATE invoices SET net = $1, tax = $2 WHERE id = $3").bind(net).bind(tax).bind(id).execute(&mut *conn).await?;
    Ok((member, invoice_no, amount))
}

/// After return `return_id` of order `order` is refunded, in its transaction: when the order's
/// invoice was issued, a red-letter (红字) invoice for what the return refunded — each returned
/// line's units and refund, negative, at its rate — with a number of its own, the blue one's
/// buyer and seller, naming the blue one. Answers its number; `None` when no invoice was issued.
pub async fn red_letter(conn: &mut AnyConnection, order: i64, return_id: i64, now: i64) -> anyhow::Result<Option<String>> {
    let blue: Option<i64> = sqlx::query_scalar(
        "SELECT id FROM invoices WHERE order_id = $1 AND status = $2 AND red_of IS NULL AND reversed_at IS NULL ORDER BY id DESC LIMIT 1",
    )
    .bind(order)
    .bind(InvoiceStatus::Issued)
    .fetch_optional(&mut *conn)
    .await?;
    let Some(blue) = blue else { return Ok(None) };
    let rows: Vec<(i64, String, String, String, i64, i64, i64)> = sqlx::query_as(
        "SELECT i.id, i.name, i.ypgg, i.bzdw, r.number, r.refund, g.vat_rate FROM return_lines r \
         JOIN order_items i ON i.id = r.order_item_id JOIN goods g ON g.id = i.goods_id WHERE r.return_id = $1 ORDER BY r.id",
    )
    .bind(return_id)
    .fetch_all(&mut *conn)
    .await?;
    let lines = lines_of(
        rows.into_iter()
            .filter(|row| row.5 > 0)
            .map(|(item, name, ypgg, bzdw, number, refund, rate)| Draft { item, name, ypgg, bzdw, number: -number, amount: -refund, rate })
            .collect(),
    )?;
    if lines.is_empty() {
        return Ok(None);
    }
    let (invoice_no, _) = red_invoice(conn, blue, Some(return_id), &lines, now).await?;
    Ok(Some(invoice_no))
}

/// Issues red-letter invoice of `lines` reversing blue invoice `blue` (for return `return_id`,
/// or whole when `None`): a number of its own, the blue one's buyer and seller. Answers its
/// number and amount.
async fn red_invoice(
    conn: &mut AnyConnection,
    blue: i64,
    return_id: Option<i64>,
    lines: &[InvoiceLine],
    now: i64,
) -> anyhow::Result<(String, i64)> {
    let invoice_no = next_number(conn, now).await?;
    let id: i64 = sqlx::query_scalar(
        "INSERT INTO invoices (order_id, member_id, kind, title, tax_no, email, registered_address, registered_phone, bank, \
         bank_account, status, invoice_no, amount, issued_at, created_at, seller, seller_tax_no, seller_contact, red_of, return_id) \
         SELECT order_id, member_id, kind, title, tax_no, email, registered_address, registered_phone, bank, bank_account, status, \
         $1, 0, $2, $2, seller, seller_tax_no, seller_contact, id, $3 FROM invoices WHERE id = $4 RETURNING id",
    )
    .bind(&invoice_no)
    .bind(now)
    .bind(return_id)
    .bind(blue)
    .fetch_one(&mut *conn)
    .await?;
    let (net, tax) = freeze(conn, id, lines).await?;
    sqlx::query("UPDATE invoices SET net = $1, tax = $2, amount = $3 WHERE id = $4")
        .bind(net)
        .bind(tax)
        .bind(net + tax)
        .bind(id)
        .execute(&mut *conn)
        .await?;
    Ok((invoice_no, net + tax))
}

/// A blue invoice reversed whole.
#[derive(Debug)]
pub struct Reversed {
    pub member: i64,
    pub blue_no: String,
    pub red_no: String,
    /// The red-letter invoice's amount, tax included: negative.
    pub amount: i64,
}

/// Reverses issued blue invoice `id` whole (finance's 红冲, for a wrong title or tax number, say):
/// a red-letter invoice for what it still stands for — each of its lines less what red-letter
/// invoices for returns already took back, negated exactly, so that the blue one and its red ones
/// add up to nothing — and the blue one marked reversed, with `reason`. The member may then
/// request the order's invoice again. An invoice issued before lines were kept is reversed by
/// what is left paid for the order's lines now.
pub async fn reverse(conn: &mut AnyConnection, id: i64, reason: &str, now: i64) -> crate::domain::Result<Reversed> {
    use crate::domain::Error;
    let (member, order, status, red_of, reversed_at, blue_no): (i64, i64, InvoiceStatus, Option<i64>, Option<i64>, Option<String>) =
        sqlx::query_as("SELECT member_id, order_id, status, red_of, reversed_at, invoice_no FROM invoices WHERE id = $1")
            .bind(id)
            .fetch_optional(&mut *conn)
            .await?
            .ok_or_else(|| Error::not_found("发票不存在"))?;
    if status != InvoiceStatus::Issued {
        return Err(Error::conflict("发票尚未开具，不能红冲"));
    }
    if red_of.is_some() {
        return Err(Error::conflict("红字发票不能再红冲"));
    }
    if reversed_at.is_some() {
        return Err(Error::conflict("该发票已红冲"));
    }
    let marked = sqlx::query("UPDATE invoices SET reversed_at = $1, reversal_reason = $2 WHERE id = $3 AND reversed_at IS NULL")
        .bind(now)
        .bind(reason)
        .bind(id)
        .execute(&mut *conn)
        .await?;
    if marked.rows_affected() != 1 {
        return Err(Error::conflict("该发票已红冲"));
    }
    let standing = standing(conn, id, order).await?;
    if standing.iter().all(|line| line.net + line.tax == 0) {
        return Err(Error::conflict("该发票已因退货全部红冲"));
    }
    let lines = standing
        .into_iter()
        .filter(|line| line.number != 0 || line.net + line.tax != 0)
        .map(|line| {
            let number = -line.number;
            let price = if number == 0 {
                0
            } else {
                let price = engine::unit_price_before_tax(engine::Cents(i128::from(-line.net / 100)), i128::from(number))
                    .ok_or_else(|| anyhow::anyhow!("line {}: no units", line.order_item_id))?;
                i64::try_from(price)?
            };
            Ok(InvoiceLine { number, price, net: -line.net, tax: -line.tax, ..line })
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    let (red_no, amount) = red_invoice(conn, id, None, &lines, now).await?;
    Ok(Reversed { member, blue_no: blue_no.unwrap_or_default(), red_no, amount })
}

/// What blue invoice `id` (of order `order`) still stands for, line by line: its lines plus
/// those of the red-letter invoices naming it.
async fn standing(conn: &mut AnyConnection, id: i64, order: i64) -> anyhow::Result<Vec<InvoiceLine>> {
    let issued = lines(conn, id).await?;
    if issued.is_empty() {
        return lines_now(conn, order).await;
    }
    let reds: Vec<InvoiceLine> = sqlx::query_as(
        "SELECT l.order_item_id, l.name, l.ypgg, l.bzdw, l.number, l.price, l.net, l.rate, l.tax FROM invoice_lines l \
         JOIN invoices v ON v.id = l.invoice_id WHERE v.red_of = $1 ORDER BY l.id",
    )
    .bind(id)
    .fetch_all(&mut *conn)
    .await?;
    Ok(issued
        .into_iter()
        .map(|mut line| {
            for red in reds.iter().filter(|red| red.order_item_id == line.order_item_id && red.rate == line.rate) {
                line.number += red.number;
                line.net += red.net;
                line.tax += red.tax;
            }
            line
        })
        .collect())
}
