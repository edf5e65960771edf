//! Which lot each returned line comes back from (docs/compliance.md, "Lots, shipments and the
//! delivery note"): only units shipped can come back, and from a lot that shipped them. The
//! member names the lot when the line left in several; a line that left in one lot comes back
//! from it; a set's line, or a line shipped before lots were kept, records none.

use sqlx::AnyConnection;

use super::{LineFacts, Refusal, ReturnStatus, Wanted};

/// Units of an order line shipped from one lot, and returned to it so far (refunded or in an
/// open return).
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow, serde::Serialize, utoipa::ToSchema)]
pub struct LineLot {
    /// The order line.
    pub item: i64,
    pub lot_id: i64,
    pub lot_no: String,
    pub expires_on: String,
    pub shipped: i64,
    pub returned: i64,
}

/// Order `order`'s plain lines' lots, by line then expiry.
pub async fn line_lots(conn: &mut AnyConnection, order: i64) -> sqlx::Result<Vec<LineLot>> {
    sqlx::query_as(
        "SELECT si.order_item_id AS item, sl.lot_id, l.lot_no, l.expires_on, CAST(SUM(sl.number) AS BIGINT) AS shipped, \
         CAST(COALESCE((SELECT SUM(rl.number) FROM return_lines rl JOIN returns r ON r.id = rl.return_id \
                        WHERE rl.order_item_id = si.order_item_id AND rl.lot_id = sl.lot_id AND r.status IN ($2, $3, $4)), 0) AS BIGINT) \
         AS returned \
         FROM shipment_lots sl JOIN shipment_items si ON si.id = sl.shipment_item_id JOIN shipments s ON s.id = si.shipment_id \
         JOIN goods_lots l ON l.id = sl.lot_id JOIN order_items i ON i.id = si.order_item_id \
         WHERE s.order_id = $1 AND i.type <> $5 \
         GROUP BY si.order_item_id, sl.lot_id, l.lot_no, l.expires_on ORDER BY si.order_item_id, l.expires_on, sl.lot_id",
    )
    .bind(order)
    .bind(ReturnStatus::Requested)
    .bind(ReturnStatus::Approved)
    .bind(ReturnStatus::Refunded)
    .bind(crate::domain::cart::COMBINATION)
    .fetch_all(&mut *conn)
    .await
}

/// The lot each wanted line comes back from, in order: refused when a line asks back more
/// than was shipped and not yet returned, names a lot that did not ship it or holds too few of
/// it, or names none when it shipped from several.
pub fn resolve(lines: &[LineFacts], lots: &[LineLot], wanted: &[Wanted]) -> Result<Vec<Option<i64>>, Refusal> {
    let mut chosen = Vec::with_capacity(wanted.len());
    for want in wanted {
        let Some(line) = lines.iter().find(|line| line.id == want.item) else {
            return Err(Refusal::field("lines", "退货商品不属于该订单"));
        };
        let left = line.shipped - line.returned;
        if want.number > left {
            return Err(Refusal::field("lines", format!("{}已发货未退的只有{}件", line.name, left.max(0))));
        }
        let mine: Vec<&LineLot> = lots.iter().filter(|lot| lot.item == line.id && lot.shipped > lot.returned).collect();
        let lot = match (want.lot, mine.as_slice()) {
            (Some(id), _) => {
                let Some(lot) = mine.iter().find(|lot| lot.lot_id == id) else {
                    return Err(Refusal::field("lines", format!("{}没有从该批号发货", line.name)));
                };
                if want.number > lot.shipped - lot.returned {
                    return Err(Refusal::field(
                        "lines",
                        format!("{}批号{}只发出{}件未退", line.name, lot.lot_no, lot.shipped - lot.returned),
                    ));
                }
                Some(id)
            }
            (None, []) => None,
            (None, [only]) => Some(only.lot_id),
            (None, _) => return Err(Refusal::field("lines", format!("{}从多个批号发货，请选择退回的批号", line.name))),
        };
        chosen.push(lot);
    }
    Ok(chosen)
}
