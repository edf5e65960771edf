//! `GET /api/order/{id}/shipment/{shipment}/note.pdf`: the delivery note (随货同行单) of one
//! parcel of the member's order, laid out by the `documents` crate (docs/compliance.md,
//! "Printed documents"): seller and buyer, the date, and per lot shipped the goods' name,
//! specification, maker, approval number, dosage form, unit, lot, production and expiry dates,
//! units, unit price and amount; the total in figures and words; quality status and signatures.

use axum::extract::{Path, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use sqlx::AnyConnection;

use crate::domain::cart;
use crate::domain::catalogue::lots;
use crate::domain::catalogue::scope::ScopeClass;
use crate::http::ApiContext;
use crate::http::error::{Error, Result};
use crate::http::extract::Member;
use crate::money;

#[derive(Serialize)]
struct Note {
    seller: Seller,
    buyer: Buyer,
    note_no: String,
    order_no: String,
    shipped_on: String,
    carrier: String,
    tracking_no: String,
    quality: &'static str,
    shipper: &'static str,
    lines: Vec<NoteLine>,
    units: String,
    total: String,
    total_words: String,
}

#[derive(Serialize)]
struct Seller {
    company: String,
    address: String,
    phone: String,
    drug_licence: String,
}

#[derive(Serialize)]
struct Buyer {
    company: String,
    address: String,
}

#[derive(Serialize)]
struct NoteLine {
    name: String,
    ypgg: String,
    sccj: String,
    pzwh: String,
    dosage_form: &'static str,
    bzdw: String,
    lot_no: String,
    produced_on: String,
    expires_on: String,
    number: i64,
    price: String,
    amount: String,
}

/// One lot a parcel shipped, with its order line and goods.
#[derive(sqlx::FromRow)]
struct LotRow {
    item: i64,
    line_type: i64,
    line_name: String,
    line_number: i64,
    price: i64,
    name: String,
    ypgg: String,
    sccj: String,
    pzwh: String,
    bzdw: String,
    scope_class: ScopeClass,
    lot_no: String,
    produced_on: String,
    expires_on: String,
    number: i64,
}

async fn note(conn: &mut AnyConnection, member: Member, order: i64, shipment: i64) -> Result<Note> {
    let found: Option<(String, String, String, i64, String, String, i64)> = sqlx::query_as(
        "SELECT o.order_no, o.address, m.company, s.seq, s.carrier, s.tracking_no, s.shipped_at FROM shipments s \
         JOIN orders o ON o.id = s.order_id JOIN members m ON m.id = o.member_id \
         WHERE s.id = $1 AND o.id = $2 AND o.member_id = $3",
    )
    .bind(shipment)
    .bind(order)
    .bind(member.id)
    .fetch_optional(&mut *conn)
    .await?;
    let Some((order_no, address, company, seq, carrier, tracking_no, shipped_at)) = found else {
        return Err(Error::not_found("包裹不存在"));
    };
    let rows: Vec<LotRow> = sqlx::query_as(
        "SELECT si.order_item_id AS item, i.type AS line_type, i.name AS line_name, si.number AS line_number, i.price, \
         g.name, g.ypgg, g.sccj, g.pzwh, g.bzdw, g.scope_class, l.lot_no, l.produced_on, l.expires_on, sl.number \
         FROM shipment_lots sl JOIN shipment_items si ON si.id = sl.shipment_item_id JOIN order_items i ON i.id = si.order_item_id \
         JOIN goods g ON g.id = sl.goods_id JOIN goods_lots l ON l.id = sl.lot_id WHERE si.shipment_id = $1 ORDER BY si.id, sl.id",
    )
    .bind(shipment)
    .fetch_all(&mut *conn)
    .await?;
    let amount_of = |price: i64, number: i64| price.checked_mul(number).ok_or_else(|| Error::from(anyhow::anyhow!("amount overflows")));
    let mut lines = Vec::new();
    let (mut total, mut units) = (0_i64, 0_i64);
    let mut set_shown = Vec::new();
    for row in rows {
        let line = |name: String, price: String, amount: String| NoteLine {
            name,
            ypgg: row.ypgg.clone(),
            sccj: row.sccj.clone(),
            pzwh: row.pzwh.clone(),
            dosage_form: row.scope_class.dosage_form(&row.name, &row.ypgg),
            bzdw: row.bzdw.clone(),
            lot_no: row.lot_no.clone(),
            produced_on: row.produced_on.clone(),
            expires_on: row.expires_on.clone(),
            number: row.number,
            price,
            amount,
        };
        if row.line_type == cart::COMBINATION {
            // A set is priced as a set: its sets' amount once, on its first goods' row.
            let (price, amount) = if set_shown.contains(&row.item) {
                (String::new(), String::new())
            } else {
                set_shown.push(row.item);
                let amount = amount_of(row.price, row.line_number)?;
                total += amount;
                units += row.line_number;
                (format!("{}/套", money::text(row.price)), money::text(amount))
            };
            lines.push(line(format!("{}（{}×{}套）", row.name, row.line_name, row.line_number), price, amount));
        } else {
            let amount = amount_of(row.price, row.number)?;
            total += amount;
            units += row.number;
            lines.push(line(row.name.clone(), money::text(row.price), money::text(amount)));
        }
    }
    let shop = crate::domain::shop::read(conn).await?;
    let total_text = money::text(total);
    Ok(Note {
        seller: Seller { company: shop.company, address: shop.address, phone: shop.hot_line, drug_licence: shop.drug_licence },
        buyer: Buyer { company, address },
        note_no: format!("{order_no}-{seq}"),
        order_no,
        shipped_on: lots::day(shipped_at),
        carrier,
        tracking_no,
        quality: "合格",
        shipper: "仓库",
        lines,
        units: units.to_string(),
        total_words: documents::capitalised(&total_text).unwrap_or_default(),
        total: total_text,
    })
}

/// `GET /api/order/{id}/shipment/{shipment}/note.pdf`: the delivery note of one parcel of the
/// member's order (404 for anyone else's).
#[utoipa::path(get, path = "/api/order/{id}/shipment/{shipment}/note.pdf", operation_id = "delivery_note", tag = "订单", responses((status = 200, description = "随货同行单 PDF", content_type = "application/pdf", body = String)))]
pub(super) async fn delivery_note(
    State(context): State<ApiContext>,
    member: Member,
    Path((order, shipment)): Path<(i64, i64)>,
) -> Result<Response> {
    pdf(&mut *context.db.pool.acquire().await?, member, order, shipment).await
}

/// The delivery note of parcel `shipment` of `member`'s order `order`, as a PDF answer (the
/// member's own call, and the console's).
pub(crate) async fn pdf(conn: &mut AnyConnection, member: Member, order: i64, shipment: i64) -> Result<Response> {
    let note = note(conn, member, order, shipment).await?;
    let file_name = format!("delivery-note-{}.pdf", note.note_no);
    let pdf = tokio::task::spawn_blocking(move || {
        let printer = documents::Printer::shared()?;
        printer.render(documents::Template::DeliveryNote, &note)
    })
    .await
    .map_err(anyhow::Error::from)?
    .map_err(|error| anyhow::anyhow!("delivery note: {error}"))?;
    Ok((
        [
            (header::CONTENT_TYPE, "application/pdf".to_owned()),
            (header::CACHE_CONTROL, "private, no-store".to_owned()),
            (header::CONTENT_DISPOSITION, format!("inline; filename=\"{file_name}\"")),
        ],
        pdf,
    )
        .into_response())
}
