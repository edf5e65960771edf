//! Orders after payment, on the operator's side: shipping and logistics, after-sales cases,
//! e-invoices, returns, and the points mall's orders. The states and transactions are the
//! domain's (`crate::domain`: `orders::shipping`, `after_sales`, `returns`, `invoices`, `points_mall`).

use sqlx::AnyConnection;

use super::shown::shown;
use crate::domain::after_sales::{CaseKind, CaseStatus};
use crate::domain::invoices::{InvoiceKind, InvoiceStatus};
use crate::domain::orders::shipping;
use crate::domain::points_mall::PointsOrderStatus;
use crate::domain::returns;
use crate::domain::returns::Step;
use crate::domain::staff::{self, Actor as Operator};
use crate::{money, now};

pub(super) async fn ship(
    conn: &mut AnyConnection,
    operator: &str,
    order: &str,
    carrier: &str,
    tracking: &str,
    lines: Option<&str>,
) -> anyhow::Result<String> {
    let order = staff::orders::resolve(conn, order).await?;
    let parts = lines.map(shipping::parse_parts).transpose()?;
    let shipped = staff::orders::ship(conn, &Operator::command_line(operator), order, carrier, tracking, parts.as_deref(), now()).await?;
    let staff::orders::ShipOutcome { order_id, order_no, shipment, seq, left } = shipped;
    let left = match left {
        0 => "nothing left to ship".to_owned(),
        left => format!("{left} units left to ship"),
    };
    Ok(format!(
        "shipped order {order_id} ({order_no}) part {seq} (shipment {shipment}) by {}, {}; {left}\n",
        carrier.trim(),
        tracking.trim()
    ))
}

pub(super) async fn logistics(
    conn: &mut AnyConnection,
    operator: &str,
    order: &str,
    shipment: Option<i64>,
    place: &str,
    description: &str,
) -> anyhow::Result<String> {
    let order = staff::orders::resolve(conn, order).await?;
    let order_no =
        staff::orders::add_logistics(conn, &Operator::command_line(operator), order, shipment, place, description, now()).await?;
    Ok(format!("logistics event added to order {order} ({order_no})\n"))
}

pub(super) async fn after_sales(conn: &mut AnyConnection, open_only: bool) -> anyhow::Result<String> {
    let rows: Vec<(i64, String, i64, CaseKind, CaseStatus, String)> = sqlx::query_as(
        "SELECT a.id, a.case_no, a.member_id, a.kind, a.status, \
                COALESCE((SELECT m.body FROM after_sale_messages m WHERE m.case_id = a.id ORDER BY m.id DESC LIMIT 1), '') \
         FROM after_sales a WHERE ($1 = 0 OR a.status = $2) ORDER BY a.id",
    )
    .bind(i64::from(open_only))
    .bind(CaseStatus::Open)
    .fetch_all(&mut *conn)
    .await?;
    let mut out = String::from("id\tcase\tmember\tkind\tstatus\tlast message\n");
    for (id, case_no, member, kind, status, last) in rows {
        let status = match status {
            CaseStatus::Open => "open",
            CaseStatus::Resolved => "resolved",
        };
        out += &format!("{id}\t{case_no}\t{member}\t{}\t{status}\t{}\n", kind.name(), shown(&last));
    }
    Ok(out)
}

pub(super) async fn answer(conn: &mut AnyConnection, operator: &str, case: i64, body: &str, resolve: bool) -> anyhow::Result<String> {
    let case_no = staff::returns::answer(conn, &Operator::command_line(operator), case, body, resolve, now()).await?;
    Ok(format!("answered after-sales case {case} ({case_no}){}\n", if resolve { " and resolved it" } else { "" }))
}

/// The invoices, oldest first (`pending`: only requests waiting), as the console lists them.
pub(super) async fn invoices(conn: &mut AnyConnection, pending: bool) -> anyhow::Result<String> {
    let (mut rows, _) = staff::invoices::list(conn, pending, None, 1, i64::MAX / 2).await?;
    rows.reverse();
    let mut out = String::from("id\torder\tmember\tkind\ttitle\ttax number\tstatus\tinvoice\tamount\n");
    for row in rows {
        let kind = match row.kind {
            InvoiceKind::Ordinary => "普票",
            InvoiceKind::Special => "专票",
        };
        let status = match (row.status, &row.red_of_no, row.reversed_at) {
            (InvoiceStatus::Requested, _, _) => "requested".to_owned(),
            (_, Some(blue), _) => format!("red-letter of {blue}"),
            (_, None, Some(_)) => format!("reversed: {}", shown(&row.reversal_reason)),
            (_, None, None) => "issued".to_owned(),
        };
        out += &format!(
            "{}\t{}\t{}\t{kind}\t{}\t{}\t{status}\t{}\t{}\n",
            row.id,
            row.order_no,
            row.member_id,
            shown(&row.title),
            shown(&row.tax_no),
            row.invoice_no.unwrap_or_default(),
            row.amount.map(money::text).unwrap_or_default()
        );
    }
    Ok(out)
}

pub(super) async fn issue_invoice(conn: &mut AnyConnection, operator: &str, id: i64) -> anyhow::Result<String> {
    let issued = staff::invoices::issue(conn, &Operator::command_line(operator), id, now()).await?;
    Ok(format!("issued invoice {} for request {id}: {}\n", issued.invoice_no, money::text(issued.amount)))
}

#[derive(sqlx::FromRow)]
struct ReturnListRow {
    id: i64,
    return_no: String,
    order_id: i64,
    member_id: i64,
    reason: returns::ReturnReason,
    status: returns::ReturnStatus,
    refund: i64,
    description: String,
}

pub(super) async fn list_returns(conn: &mut AnyConnection, open_only: bool) -> anyhow::Result<String> {
    let rows: Vec<ReturnListRow> = sqlx::query_as(
        "SELECT id, return_no, order_id, member_id, reason, status, refund, description FROM returns \
         WHERE ($1 = 0 OR status IN ($2, $3)) ORDER BY id",
    )
    .bind(i64::from(open_only))
    .bind(returns::ReturnStatus::Requested)
    .bind(returns::ReturnStatus::Approved)
    .fetch_all(&mut *conn)
    .await?;
    let mut out = String::from("id\treturn\torder\tmember\treason\tstatus\trefund\tunits\tdescription\n");
    for row in rows {
        let units: Vec<(String, i64)> = sqlx::query_as(
            "SELECT i.name, l.number FROM return_lines l JOIN order_items i ON i.id = l.order_item_id WHERE l.return_id = $1 ORDER BY l.id",
        )
        .bind(row.id)
        .fetch_all(&mut *conn)
        .await?;
        let units: Vec<String> = units.into_iter().map(|(name, number)| format!("{name} ×{number}")).collect();
        out += &format!(
            "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\n",
            row.id,
            row.return_no,
            row.order_id,
            row.member_id,
            row.reason.name(),
            row.status.name(),
            money::text(row.refund),
            shown(&units.join(", ")),
            shown(&row.description)
        );
    }
    Ok(out)
}

/// Approves, rejects or receives (and refunds) a return; the member is told.
pub(super) async fn return_step(conn: &mut AnyConnection, operator: &str, id: i64, step: Step, note: &str) -> anyhow::Result<String> {
    let moved = staff::returns::step(conn, &Operator::command_line(operator), id, step, note, now()).await?;
    let done = match step {
        Step::Receive => format!(
            "received and refunded {} to the balance, red packets {}, points back {}, earned points taken back {}, \
             used earned points deducted {}",
            money::text(moved.refund),
            money::text(moved.red_packet),
            moved.points_back,
            moved.points_taken,
            money::text(moved.points_deducted)
        ),
        Step::Approve => "approved".to_owned(),
        _ => "rejected".to_owned(),
    };
    Ok(format!("return {id} ({}): {done}\n", moved.return_no))
}

#[derive(sqlx::FromRow)]
struct PointsOrderRow {
    id: i64,
    order_no: String,
    member_id: i64,
    name: String,
    number: i64,
    points: i64,
    price: i64,
    status: PointsOrderStatus,
    address: String,
}

pub(super) async fn points_orders(conn: &mut AnyConnection, pending: bool) -> anyhow::Result<String> {
    let rows: Vec<PointsOrderRow> = sqlx::query_as(
        "SELECT id, order_no, member_id, name, number, points, price, status, address FROM points_orders \
         WHERE ($1 = 0 OR status = $2) ORDER BY id",
    )
    .bind(i64::from(pending))
    .bind(PointsOrderStatus::ToShip)
    .fetch_all(&mut *conn)
    .await?;
    let mut out = String::from("id\torder\tmember\tgoods\tnumber\tpoints\tmoney\tstatus\taddress\n");
    for row in rows {
        out += &format!(
            "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\n",
            row.id,
            row.order_no,
            row.member_id,
            shown(&row.name),
            row.number,
            row.points,
            money::text(row.price),
            row.status.name(),
            shown(&row.address)
        );
    }
    Ok(out)
}

pub(super) async fn ship_points(
    conn: &mut AnyConnection,
    operator: &str,
    order: i64,
    carrier: &str,
    tracking: &str,
) -> anyhow::Result<String> {
    let order_no = staff::service::ship_points(conn, &Operator::command_line(operator), order, carrier, tracking, now()).await?;
    Ok(format!("shipped points order {order} ({order_no}) by {}, {}\n", carrier.trim(), tracking.trim()))
}

pub(super) async fn reverse_invoice(conn: &mut AnyConnection, operator: &str, id: i64, reason: &str) -> anyhow::Result<String> {
    let reversed = staff::invoices::reverse(conn, &Operator::command_line(operator), id, reason, now()).await?;
    Ok(format!(
        "reversed invoice {} with red-letter invoice {}: {}\n",
        reversed.invoice_no,
        reversed.red_invoice_no,
        money::text(reversed.amount)
    ))
}
