//! Shipping an order and following it (docs/compliance.md, "Lots, shipments and the delivery
//! note"): the operator ships a paid order in one or more parts, each with its carrier and
//! tracking number; each part takes its units from the lots earliest expiry first (FEFO) and
//! records lot and units per line (a line may span lots, a set's line takes the goods inside
//! it); logistics events follow a part. The first part moves the order to 待收货; it can be
//! received once every unit has left. The member is told when each part leaves.

use std::collections::BTreeMap;

use sqlx::AnyConnection;

use super::life::{self, Action, Actor, OrderStatus};
use crate::domain::catalogue::lots;
use crate::domain::{Error, Result, cart, messages};

/// An order's member, state and number.
pub struct OrderOf {
    pub member: i64,
    pub status: OrderStatus,
    pub order_no: String,
}

/// Order `id`'s member, state and number; not found when there is no such order.
pub async fn order_of(conn: &mut AnyConnection, id: i64) -> Result<OrderOf> {
    let row: Option<(i64, OrderStatus, String)> =
        sqlx::query_as("SELECT member_id, status, order_no FROM orders WHERE id = $1").bind(id).fetch_optional(&mut *conn).await?;
    let (member, status, order_no) = row.ok_or_else(|| Error::not_found("订单不存在"))?;
    Ok(OrderOf { member, status, order_no })
}

/// Units of one order line to ship.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Part {
    pub item: i64,
    pub number: i64,
}

/// Reads `12:3,13:1` (order line id, units) as the lines of a part shipment.
pub fn parse_parts(text: &str) -> Result<Vec<Part>> {
    let bad = || Error::field("lines", "发货商品格式不正确");
    let mut parts: Vec<Part> = Vec::new();
    for piece in text.split(',').map(str::trim).filter(|piece| !piece.is_empty()) {
        let (item, number) = piece.split_once(':').ok_or_else(bad)?;
        let item: i64 = item.trim().parse().map_err(|_| bad())?;
        let number: i64 = number.trim().parse().map_err(|_| bad())?;
        if number < 1 {
            return Err(Error::field("lines", "发货数量至少为1"));
        }
        if parts.iter().any(|part| part.item == item) {
            return Err(Error::field("lines", "同一商品只能填写一次"));
        }
        parts.push(Part { item, number });
    }
    if parts.is_empty() {
        return Err(Error::field("lines", "请选择要发货的商品"));
    }
    Ok(parts)
}

/// A part shipped.
pub struct Shipped {
    pub order: OrderOf,
    /// The part's id and its number within the order (1, 2, …).
    pub shipment: i64,
    pub seq: i64,
    /// Units of the order still to ship after it.
    pub left: i64,
}

/// An order line as shipping reads it.
#[derive(sqlx::FromRow)]
struct ItemToShip {
    id: i64,
    goods_id: i64,
    #[sqlx(rename = "type")]
    line_type: i64,
    activity_id: i64,
    name: String,
    number: i64,
    shipped: i64,
}

/// Ships `parts` of order `id` (every unit not yet shipped, when `None`) by `carrier` under
/// `tracking` at `now`, in the caller's transaction: the part and what it ships, the units taken
/// from the lots (FEFO), the order's state (paid → shipped on the first part), the first
/// logistics event of the part, and a message to the member. A conflict when the order is
/// neither paid nor shipped with units left, or when the lots on sale hold too few.
pub async fn ship(
    conn: &mut AnyConnection,
    id: i64,
    carrier: &str,
    tracking: &str,
    parts: Option<&[Part]>,
    actor: Actor,
    now: i64,
) -> Result<Shipped> {
    let order = order_of(conn, id).await?;
    let items: Vec<ItemToShip> =
        sqlx::query_as("SELECT id, goods_id, type, activity_id, name, number, shipped FROM order_items WHERE order_id = $1 ORDER BY id")
            .bind(id)
            .fetch_all(&mut *conn)
            .await?;
    let left_before: i64 = items.iter().map(|item| item.number - item.shipped).sum();
    match order.status {
        OrderStatus::Paid => {}
        OrderStatus::Shipped if left_before > 0 => {}
        OrderStatus::Shipped => return Err(Error::conflict("订单已全部发货")),
        status => return Err(Error::conflict(Action::Ship.refusal(status))),
    }
    let wanted: Vec<Part> = match parts {
        Some(parts) => parts.to_vec(),
        None => items
            .iter()
            .filter(|item| item.number > item.shipped)
            .map(|item| Part { item: item.id, number: item.number - item.shipped })
            .collect(),
    };
    let today = lots::day(now);
    let seq: i64 =
        sqlx::query_scalar("SELECT CAST(COUNT(*) AS BIGINT) + 1 FROM shipments WHERE order_id = $1").bind(id).fetch_one(&mut *conn).await?;
    let shipment: i64 = sqlx::query_scalar(
        "INSERT INTO shipments (order_id, seq, carrier, tracking_no, shipped_at) VALUES ($1, $2, $3, $4, $5) RETURNING id",
    )
    .bind(id)
    .bind(seq)
    .bind(carrier)
    .bind(tracking)
    .bind(now)
    .fetch_one(&mut *conn)
    .await?;
    let mut units = 0;
    for part in &wanted {
        let Some(item) = items.iter().find(|item| item.id == part.item) else {
            return Err(Error::field("lines", format!("订单中没有商品{}", part.item)));
        };
        if part.number > item.number - item.shipped {
            return Err(Error::field("lines", format!("{}最多还能发{}", item.name, item.number - item.shipped)));
        }
        // Guarded: two racing shipments never ship one unit twice.
        let counted = sqlx::query("UPDATE order_items SET shipped = shipped + $1 WHERE id = $2 AND shipped + $1 <= number")
            .bind(part.number)
            .bind(item.id)
            .execute(&mut *conn)
            .await?;
        if counted.rows_affected() != 1 {
            return Err(Error::conflict(format!("{}已发货，请刷新后重试", item.name)));
        }
        let shipment_item: i64 =
            sqlx::query_scalar("INSERT INTO shipment_items (shipment_id, order_item_id, number) VALUES ($1, $2, $3) RETURNING id")
                .bind(shipment)
                .bind(item.id)
                .bind(part.number)
                .fetch_one(&mut *conn)
                .await?;
        for (goods, number) in goods_of(conn, item, part.number).await? {
            let taken = match lots::allocate(conn, goods, number, &today).await? {
                Ok(taken) => taken,
                Err(short) => {
                    let name: String = sqlx::query_scalar("SELECT name FROM goods WHERE id = $1").bind(goods).fetch_one(&mut *conn).await?;
                    return Err(Error::conflict(format!("{name}可发货的批号库存不足，还差{short}")));
                }
            };
            for lots::Taken { lot, number } in taken {
                sqlx::query("INSERT INTO shipment_lots (shipment_item_id, goods_id, lot_id, number) VALUES ($1, $2, $3, $4)")
                    .bind(shipment_item)
                    .bind(goods)
                    .bind(lot)
                    .bind(number)
                    .execute(&mut *conn)
                    .await?;
            }
        }
        units += part.number;
    }
    let left = left_before - units;
    let note = format!("{carrier} {tracking}");
    if order.status == OrderStatus::Paid {
        if !life::change(conn, id, None, Action::Ship, actor, &note, now).await? {
            return Err(Error::conflict(Action::Ship.refusal(order.status)));
        }
        sqlx::query("UPDATE orders SET carrier = $1, tracking_no = $2 WHERE id = $3")
            .bind(carrier)
            .bind(tracking)
            .bind(id)
            .execute(&mut *conn)
            .await?;
    } else {
        life::record_step(conn, id, order.status, "ship_part", actor, &note, now).await?;
    }
    life::add_logistics(conn, id, Some(shipment), "", &format!("商家已发货（第{seq}个包裹），{carrier}运单号 {tracking}"), now).await?;
    let body = if left > 0 {
        format!("订单 {} 的第{seq}个包裹已由{carrier}发出，运单号 {tracking}；还有{left}件待发货。", order.order_no)
    } else if seq > 1 {
        format!("订单 {} 的第{seq}个包裹已由{carrier}发出，运单号 {tracking}；订单已全部发货。", order.order_no)
    } else {
        format!("订单 {} 已由{carrier}发出，运单号 {tracking}。", order.order_no)
    };
    messages::send(conn, order.member, messages::MessageKind::Order, "订单已发货", &body).await?;
    Ok(Shipped { order: OrderOf { status: OrderStatus::Shipped, ..order }, shipment, seq, left })
}

/// The goods `number` units of order line `item` are, and how many of each: its goods, or for
/// a set every goods inside it.
async fn goods_of(conn: &mut AnyConnection, item: &ItemToShip, number: i64) -> Result<Vec<(i64, i64)>> {
    if item.line_type != cart::COMBINATION {
        return Ok(vec![(item.goods_id, number)]);
    }
    let inside: Vec<(i64, i64)> =
        sqlx::query_as("SELECT goods_id, number FROM combination_items WHERE combination_id = $1 ORDER BY goods_id")
            .bind(item.activity_id)
            .fetch_all(&mut *conn)
            .await?;
    let mut goods: BTreeMap<i64, i64> = BTreeMap::new();
    for (id, per_set) in inside {
        *goods.entry(id).or_default() += per_set.saturating_mul(number);
    }
    Ok(goods.into_iter().collect())
}

/// Units of order `id` not yet shipped.
pub async fn unshipped(conn: &mut AnyConnection, id: i64) -> Result<i64> {
    Ok(sqlx::query_scalar("SELECT CAST(COALESCE(SUM(number - shipped), 0) AS BIGINT) FROM order_items WHERE order_id = $1")
        .bind(id)
        .fetch_one(&mut *conn)
        .await?)
}

/// Adds a logistics event (where, and what happened) to shipped (or received) order `id`, to
/// its part `shipment` when given (else its latest). Answers the order; a conflict when it has
/// not been shipped, not found when the part is not the order's.
pub async fn add_logistics(
    conn: &mut AnyConnection,
    id: i64,
    shipment: Option<i64>,
    place: &str,
    description: &str,
    now: i64,
) -> Result<OrderOf> {
    let order = order_of(conn, id).await?;
    if !matches!(order.status, OrderStatus::Shipped | OrderStatus::Done) {
        return Err(Error::conflict(format!("订单{}，不能添加物流信息", order.status.name())));
    }
    let part: Option<i64> =
        sqlx::query_scalar("SELECT id FROM shipments WHERE order_id = $1 AND ($2 = 0 OR id = $2) ORDER BY seq DESC LIMIT 1")
            .bind(id)
            .bind(shipment.unwrap_or(0))
            .fetch_optional(&mut *conn)
            .await?;
    if shipment.is_some() && part.is_none() {
        return Err(Error::not_found("包裹不存在"));
    }
    life::add_logistics(conn, id, part, place, description, now).await?;
    Ok(order)
}

/// A lot one part shipped of a goods.
#[derive(Clone, Debug, serde::Serialize, utoipa::ToSchema, sqlx::FromRow)]
pub struct ShippedLot {
    /// The line of the shipment it belongs to (`shipment_items.id`).
    #[serde(skip)]
    pub shipment_item: i64,
    pub goods_id: i64,
    /// The goods' own name (a set's line ships the goods inside it).
    pub goods_name: String,
    pub lot_id: i64,
    pub lot_no: String,
    pub produced_on: String,
    pub expires_on: String,
    pub number: i64,
    /// Whether its inspection report can be read (`GET /api/lot/{lot_id}/report`).
    #[sqlx(skip)]
    pub has_report: bool,
}

/// An order line in a part.
#[derive(Clone, Debug, serde::Serialize, utoipa::ToSchema)]
pub struct ShippedItem {
    pub order_item_id: i64,
    pub name: String,
    pub number: i64,
    pub lots: Vec<ShippedLot>,
}

/// One part of an order's shipping.
#[derive(Clone, Debug, serde::Serialize, utoipa::ToSchema)]
pub struct Shipment {
    pub id: i64,
    /// 1, 2, … within the order.
    pub seq: i64,
    pub carrier: String,
    pub tracking_no: String,
    pub shipped_at: i64,
    pub items: Vec<ShippedItem>,
    /// The carrier's events for it, oldest first.
    pub logistics: Vec<life::LogisticsEvent>,
}

/// Order `id`'s parts, first shipped first, with their lines, lots and logistics.
pub async fn shipments(conn: &mut AnyConnection, id: i64) -> Result<Vec<Shipment>> {
    let parts: Vec<(i64, i64, String, String, i64)> =
        sqlx::query_as("SELECT id, seq, carrier, tracking_no, shipped_at FROM shipments WHERE order_id = $1 ORDER BY seq")
            .bind(id)
            .fetch_all(&mut *conn)
            .await?;
    let lines: Vec<(i64, i64, i64, String, i64)> = sqlx::query_as(
        "SELECT si.id, si.shipment_id, si.order_item_id, i.name, si.number FROM shipment_items si \
         JOIN order_items i ON i.id = si.order_item_id JOIN shipments s ON s.id = si.shipment_id \
         WHERE s.order_id = $1 ORDER BY si.id",
    )
    .bind(id)
    .fetch_all(&mut *conn)
    .await?;
    let mut lots: Vec<ShippedLot> = sqlx::query_as(
        "SELECT sl.shipment_item_id AS shipment_item, sl.goods_id, g.name AS goods_name, sl.lot_id, l.lot_no, l.produced_on, \
         l.expires_on, sl.number FROM shipment_lots sl JOIN goods_lots l ON l.id = sl.lot_id JOIN goods g ON g.id = sl.goods_id \
         JOIN shipment_items si ON si.id = sl.shipment_item_id JOIN shipments s ON s.id = si.shipment_id \
         WHERE s.order_id = $1 ORDER BY sl.id",
    )
    .bind(id)
    .fetch_all(&mut *conn)
    .await?;
    let reported: Vec<i64> = sqlx::query_scalar(
        "SELECT r.lot_id FROM lot_reports r WHERE r.lot_id IN (SELECT sl.lot_id FROM shipment_lots sl \
         JOIN shipment_items si ON si.id = sl.shipment_item_id JOIN shipments s ON s.id = si.shipment_id WHERE s.order_id = $1)",
    )
    .bind(id)
    .fetch_all(&mut *conn)
    .await?;
    for lot in &mut lots {
        lot.has_report = reported.contains(&lot.lot_id);
    }
    let events: Vec<(Option<i64>, String, String, i64)> = sqlx::query_as(
        "SELECT shipment_id, place, description, created_at FROM order_logistics WHERE order_id = $1 ORDER BY created_at, id",
    )
    .bind(id)
    .fetch_all(&mut *conn)
    .await?;
    Ok(parts
        .into_iter()
        .map(|(shipment, seq, carrier, tracking_no, shipped_at)| Shipment {
            id: shipment,
            seq,
            carrier,
            tracking_no,
            shipped_at,
            items: lines
                .iter()
                .filter(|line| line.1 == shipment)
                .map(|(line, _, item, name, number)| ShippedItem {
                    order_item_id: *item,
                    name: name.clone(),
                    number: *number,
                    lots: lots.iter().filter(|lot| lot.shipment_item == *line).cloned().collect(),
                })
                .collect(),
            logistics: events
                .iter()
                .filter(|event| event.0 == Some(shipment))
                .map(|(_, place, description, created_at)| life::LogisticsEvent {
                    place: place.clone(),
                    description: description.clone(),
                    created_at: *created_at,
                })
                .collect(),
        })
        .collect())
}
