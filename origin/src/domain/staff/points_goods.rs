//! 积分商城 items in the console (docs/backoffice.md, "Promotions"): what members redeem their
//! points for — goods shipped to them (a catalogue goods: its picture), a coupon of a template
//! put in their wallet, or red packets credited at once — at so many points, and money from the
//! balance beside them (积分+现金), with a stock, a limit per member and a place in the mall.
//!
//! Redeeming is `http::points_mall`'s, one guarded update on the stock; the operator sets the
//! stock left. An item once redeemed keeps its kind (its orders are of that kind); taking it off
//! sale (`is_on` 0) hides it from the mall and refuses new redemptions, its orders stay.

use serde::Serialize;
use serde_json::json;
use sqlx::AnyConnection;
use utoipa::ToSchema;

use super::audit::{self, Actor, Entry};
use super::orders::begin_write;
use crate::domain::points_mall::PointsKind;
use crate::domain::{Error, Result};
use crate::money;

/// The longest name kept, in characters.
pub const NAME_MAX: usize = 30;
/// The longest description kept, in characters.
pub const DESCRIPTION_MAX: usize = 200;
/// The most points one item costs.
pub const POINTS_MAX: i64 = 10_000_000;
/// The most stock an item holds.
pub const STOCK_MAX: i64 = 1_000_000;

/// An item as the operator writes it.
#[derive(Clone, Debug)]
pub struct Draft {
    pub name: String,
    pub description: String,
    pub kind: PointsKind,
    /// Kind 1: the catalogue goods shipped.
    pub goods_id: Option<i64>,
    /// Kind 2: the coupon template given.
    pub coupon_id: Option<i64>,
    /// Kind 3: the red packets one credits, stored money.
    pub red_packet: i64,
    pub points: i64,
    /// Money beside the points, stored; 0 for points only.
    pub price: i64,
    /// What is left to redeem.
    pub stock: i64,
    /// The most one member redeems in all; 0 for no limit.
    pub per_member: i64,
    /// Its place in the mall, smallest first.
    pub sort: i64,
    pub is_on: bool,
}

/// What is wrong with `draft` on its own, field by field.
pub fn check_draft(draft: &Draft) -> Vec<(String, String)> {
    let mut errors = Vec::new();
    let mut refuse = |field: &str, message: String| errors.push((field.to_owned(), message));
    let name = draft.name.trim();
    if name.is_empty() {
        refuse("name", "请填写商品名称".into());
    } else if name.chars().count() > NAME_MAX {
        refuse("name", format!("商品名称不能超过{NAME_MAX}个字"));
    }
    if draft.description.trim().chars().count() > DESCRIPTION_MAX {
        refuse("description", format!("商品说明不能超过{DESCRIPTION_MAX}个字"));
    }
    match draft.kind {
        PointsKind::Goods if draft.goods_id.is_none() => refuse("goods_id", "请选择兑换的商品".into()),
        PointsKind::Coupon if draft.coupon_id.is_none() => refuse("coupon_id", "请选择兑换的优惠券".into()),
        PointsKind::RedPacket if draft.red_packet <= 0 => refuse("red_packet", "红包金额须大于0".into()),
        _ => {}
    }
    if !(1..=POINTS_MAX).contains(&draft.points) {
        refuse("points", format!("兑换积分应在1到{POINTS_MAX}之间"));
    }
    if draft.price < 0 {
        refuse("price", "加价金额不能为负".into());
    }
    if !(0..=STOCK_MAX).contains(&draft.stock) {
        refuse("stock", format!("库存应在0到{STOCK_MAX}之间"));
    }
    if !(0..=9999).contains(&draft.per_member) {
        refuse("per_member", "每人限兑应在0到9999之间（0为不限）".into());
    }
    if !(0..=9999).contains(&draft.sort) {
        refuse("sort", "排序应在0到9999之间".into());
    }
    errors
}

/// Checks `draft` whole: its fields, and that what it gives exists.
async fn check(conn: &mut AnyConnection, draft: &Draft) -> Result<()> {
    let mut errors = check_draft(draft);
    if errors.is_empty() {
        match draft.kind {
            PointsKind::Goods => {
                let found: Option<i64> =
                    sqlx::query_scalar("SELECT id FROM goods WHERE id = $1").bind(draft.goods_id).fetch_optional(&mut *conn).await?;
                if found.is_none() {
                    errors.push(("goods_id".into(), "商品不存在".into()));
                }
            }
            PointsKind::Coupon => {
                let found: Option<i64> =
                    sqlx::query_scalar("SELECT id FROM coupons WHERE id = $1").bind(draft.coupon_id).fetch_optional(&mut *conn).await?;
                if found.is_none() {
                    errors.push(("coupon_id".into(), "优惠券不存在".into()));
                }
            }
            PointsKind::RedPacket => {}
        }
    }
    if errors.is_empty() { Ok(()) } else { Err(Error::Validation(errors)) }
}

/// What the trail keeps of an item.
fn audit_value(draft: &Draft) -> serde_json::Value {
    json!({
        "name": draft.name.trim(),
        "kind": draft.kind.name(),
        "goods_id": draft.goods_id,
        "coupon_id": draft.coupon_id,
        "red_packet": money::text(draft.red_packet),
        "points": draft.points,
        "price": money::text(draft.price),
        "stock": draft.stock,
        "per_member": draft.per_member,
        "sort": draft.sort,
        "is_on": draft.is_on,
    })
}

type DraftRow = (String, String, PointsKind, Option<i64>, Option<i64>, i64, i64, i64, i64, i64, i64, i64);

async fn read_draft(conn: &mut AnyConnection, id: i64) -> Result<(Draft, i64)> {
    let row: Option<DraftRow> = sqlx::query_as(
        "SELECT name, description, kind, goods_id, coupon_id, red_packet, points, price, stock, per_member, sort, is_on \
         FROM points_goods WHERE id = $1",
    )
    .bind(id)
    .fetch_optional(&mut *conn)
    .await?;
    let (name, description, kind, goods_id, coupon_id, red_packet, points, price, stock, per_member, sort, is_on) =
        row.ok_or_else(|| Error::not_found("积分商品不存在"))?;
    let orders: i64 = sqlx::query_scalar("SELECT CAST(COUNT(*) AS BIGINT) FROM points_orders WHERE points_goods_id = $1")
        .bind(id)
        .fetch_one(&mut *conn)
        .await?;
    let draft =
        Draft { name, description, kind, goods_id, coupon_id, red_packet, points, price, stock, per_member, sort, is_on: is_on == 1 };
    Ok((draft, orders))
}

/// Adds an item (`id` `None`) or replaces item `id`, with its audit row. Answers its id.
pub async fn save(conn: &mut AnyConnection, actor: &Actor, id: Option<i64>, draft: Draft, now: i64) -> Result<i64> {
    // Only the kind's own thing is kept: a red-packet item names no goods.
    let mut draft = draft;
    if draft.kind != PointsKind::Goods {
        draft.goods_id = None;
    }
    if draft.kind != PointsKind::Coupon {
        draft.coupon_id = None;
    }
    if draft.kind != PointsKind::RedPacket {
        draft.red_packet = 0;
    }
    let mut tx = begin_write(conn).await?;
    let before = match id {
        Some(id) => {
            let (before, orders) = read_draft(&mut tx, id).await?;
            if orders > 0 && before.kind != draft.kind {
                return Err(Error::field("kind", "已有兑换记录，不能修改商品类型"));
            }
            Some(before)
        }
        None => None,
    };
    check(&mut tx, &draft).await?;
    let name = draft.name.trim();
    let description = draft.description.trim();
    let id = match id {
        Some(id) => {
            sqlx::query(
                "UPDATE points_goods SET name = $1, description = $2, kind = $3, goods_id = $4, coupon_id = $5, red_packet = $6, \
                 points = $7, price = $8, stock = $9, per_member = $10, sort = $11, is_on = $12 WHERE id = $13",
            )
            .bind(name)
            .bind(description)
            .bind(draft.kind)
            .bind(draft.goods_id)
            .bind(draft.coupon_id)
            .bind(draft.red_packet)
            .bind(draft.points)
            .bind(draft.price)
            .bind(draft.stock)
            .bind(draft.per_member)
            .bind(draft.sort)
            .bind(i64::from(draft.is_on))
            .bind(id)
            .execute(&mut *tx)
            .await?;
            id
        }
        None => {
            sqlx::query_scalar(
                "INSERT INTO points_goods (name, description, kind, goods_id, coupon_id, red_packet, points, price, stock, per_member, sort, is_on) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING id",
            )
            .bind(name)
            .bind(description)
            .bind(draft.kind)
            .bind(draft.goods_id)
            .bind(draft.coupon_id)
            .bind(draft.red_packet)
            .bind(draft.points)
            .bind(draft.price)
            .bind(draft.stock)
            .bind(draft.per_member)
            .bind(draft.sort)
            .bind(i64::from(draft.is_on))
            .fetch_one(&mut *tx)
            .await?
        }
    };
    let (action, verb) = if before.is_some() { ("points_goods.change", "修改") } else { ("points_goods.add", "新增") };
    let price = if draft.price > 0 { format!("+¥{}", money::text(draft.price)) } else { String::new() };
    let entry = Entry {
        action,
        target: format!("points_goods:{id}"),
        member: None,
        summary: format!(
            "{verb}积分商品 {id} {name}（{}）：{}积分{price}，库存{}{}",
            draft.kind.name(),
            draft.points,
            draft.stock,
            if draft.is_on { "" } else { "，已下架" }
        ),
        before: before.as_ref().map(audit_value).unwrap_or_else(|| json!({})),
        after: audit_value(&draft),
    };
    audit::record(&mut tx, actor, entry, now).await?;
    tx.commit().await?;
    Ok(id)
}

/// An item in the console's list.
#[derive(Debug, Serialize, ToSchema, sqlx::FromRow)]
pub struct PointsGoodsRow {
    pub id: i64,
    pub name: String,
    pub description: String,
    /// 1 goods shipped, 2 a coupon, 3 red packets.
    pub kind: i64,
    pub goods_id: Option<i64>,
    /// Kind 1: the goods' name.
    pub goods_name: Option<String>,
    pub coupon_id: Option<i64>,
    /// Kind 2: the coupon template's title.
    pub coupon_title: Option<String>,
    #[serde(serialize_with = "super::as_money")]
    #[schema(value_type = String, example = "5.00")]
    pub red_packet: i64,
    pub points: i64,
    #[serde(serialize_with = "super::as_money")]
    #[schema(value_type = String, example = "0.00")]
    pub price: i64,
    pub stock: i64,
    /// Units redeemed so far.
    pub redeemed: i64,
    pub per_member: i64,
    pub sort: i64,
    /// 1 on sale in the mall, 0 off.
    pub is_on: i64,
}

/// Every item, in the mall's order (those off sale too).
pub async fn list(conn: &mut AnyConnection) -> Result<Vec<PointsGoodsRow>> {
    Ok(sqlx::query_as(
        "SELECT p.id, p.name, p.description, p.kind, p.goods_id, g.name AS goods_name, p.coupon_id, c.title AS coupon_title, \
                p.red_packet, p.points, p.price, p.stock, p.redeemed, p.per_member, p.sort, p.is_on \
         FROM points_goods p LEFT JOIN goods g ON g.id = p.goods_id LEFT JOIN coupons c ON c.id = p.coupon_id \
         ORDER BY p.sort, p.id",
    )
    .fetch_all(&mut *conn)
    .await?)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn draft(kind: PointsKind) -> Draft {
        Draft {
            name: "保温杯".into(),
            description: String::new(),
            kind,
            goods_id: None,
            coupon_id: None,
            red_packet: 0,
            points: 500,
            price: 0,
            stock: 10,
            per_member: 1,
            sort: 0,
            is_on: true,
        }
    }

    #[test]
    fn each_kind_names_what_it_gives() {
        let fields = |draft: &Draft| check_draft(draft).into_iter().map(|(field, _)| field).collect::<Vec<_>>();
        assert_eq!(fields(&draft(PointsKind::Goods)), ["goods_id"]);
        assert_eq!(fields(&draft(PointsKind::Coupon)), ["coupon_id"]);
        assert_eq!(fields(&draft(PointsKind::RedPacket)), ["red_packet"]);
        let packets = Draft { red_packet: 50_000, ..draft(PointsKind::RedPacket) };
        assert!(check_draft(&packets).is_empty());
        let free = Draft { points: 0, stock: -1, ..packets };
        assert_eq!(fields(&free), ["points", "stock"]);
    }
}
