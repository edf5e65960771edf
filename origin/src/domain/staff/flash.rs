//! 秒杀 in the console (docs/backoffice.md, "Promotions"): a session of a goods at a lower price,
//! from a start until before an end, with a per-member limit.
//!
//! A goods has at most one session at any moment: one whose time overlaps another of the same
//! goods is refused, naming it. Buyers see a session only while it runs (cards, the flash-sale
//! floor, the cart; `domain::catalogue::card`); the limit counts what each member ordered in
//! it (`domain::orders::ordered_in_sale`). The preview prices the limit's quantity at the sale's
//! price by the engine, beside the goods' own price, before anything is saved.

use serde::Serialize;
use serde_json::json;
use sqlx::AnyConnection;
use utoipa::ToSchema;

use super::audit::{self, Actor, Entry};
use super::orders::begin_write;
use super::schedule::{self, Scheduled, state};
use crate::domain::cart::{FLASH_SALE, NORMAL, sample_input};
use crate::domain::catalogue::card::{CardRow, card, card_columns};
use crate::domain::catalogue::viewer::Viewer;
use crate::domain::orders::life::OrderStatus;
use crate::domain::{Error, Result};
use crate::money;
use engine::contract::CartQuote;

/// The largest per-member limit.
pub const LIMIT_MAX: i64 = 9999;

/// A session as the operator writes it.
#[derive(Clone, Debug, Default)]
pub struct Draft {
    pub goods_id: i64,
    /// Stored money.
    pub price: i64,
    pub limit_number: i64,
    pub starts_at: i64,
    pub ends_at: i64,
}

/// What is wrong with `draft` on its own (`is_new`: a session being added, which must not have
/// ended already).
pub fn check_draft(draft: &Draft, is_new: bool, now: i64) -> Vec<(String, String)> {
    let mut errors = Vec::new();
    let mut refuse = |field: &str, message: String| errors.push((field.to_owned(), message));
    if draft.goods_id <= 0 {
        refuse("goods_id", "请选择秒杀商品".into());
    }
    if draft.price <= 0 {
        refuse("price", "秒杀价须大于0".into());
    }
    if !(1..=LIMIT_MAX).contains(&draft.limit_number) {
        refuse("limit_number", format!("每人限购应在1到{LIMIT_MAX}之间"));
    }
    if draft.ends_at <= draft.starts_at {
        refuse("ends_at", "结束时间须晚于开始时间".into());
    } else if is_new && draft.ends_at <= now {
        refuse("ends_at", "结束时间须晚于现在".into());
    }
    errors
}

/// The goods' name and own price, or a refusal on `goods_id`.
async fn goods_of(conn: &mut AnyConnection, goods: i64) -> Result<(String, i64)> {
    sqlx::query_as("SELECT name, price FROM goods WHERE id = $1")
        .bind(goods)
        .fetch_optional(&mut *conn)
        .await?
        .ok_or_else(|| Error::field("goods_id", "商品不存在"))
}

/// Checks `draft` whole: its fields, its goods, a price below the goods' own, and no other
/// session of the goods overlapping it.
async fn check(conn: &mut AnyConnection, own: Option<i64>, draft: &Draft, now: i64) -> Result<()> {
    let mut errors = check_draft(draft, own.is_none(), now);
    if draft.goods_id > 0 {
        match goods_of(conn, draft.goods_id).await {
            Ok((_, price)) if draft.price > 0 && draft.price >= price => {
                errors.push(("price".into(), format!("秒杀价须低于商品价格¥{}", money::text(price))));
            }
            Ok(_) => {}
            Err(Error::Validation(found)) => errors.extend(found),
            Err(error) => return Err(error),
        }
    }
    if !errors.is_empty() {
        return Err(Error::Validation(errors));
    }
    let overlapping: Option<(i64, i64, i64)> = sqlx::query_as(
        "SELECT id, starts_at, ends_at FROM flash_sales WHERE goods_id = $1 AND id <> $2 AND starts_at < $3 AND ends_at > $4 ORDER BY id LIMIT 1",
    )
    .bind(draft.goods_id)
    .bind(own.unwrap_or(0))
    .bind(draft.ends_at)
    .bind(draft.starts_at)
    .fetch_optional(&mut *conn)
    .await?;
    if let Some((id, starts_at, ends_at)) = overlapping {
        return Err(Error::conflict(format!(
            "该商品在此时段已有秒杀场次{id}（{} 至 {}）",
            super::export::shop_time(starts_at),
            super::export::shop_time(ends_at)
        )));
    }
    Ok(())
}

fn audit_value(draft: &Draft) -> serde_json::Value {
    json!({
        "goods_id": draft.goods_id,
        "price": money::text(draft.price),
        "limit_number": draft.limit_number,
        "starts_at": draft.starts_at,
        "ends_at": draft.ends_at,
    })
}

async fn read_draft(conn: &mut AnyConnection, id: i64) -> Result<Draft> {
    let row: Option<(i64, i64, i64, i64, i64)> =
        sqlx::query_as("SELECT goods_id, price, limit_number, starts_at, ends_at FROM flash_sales WHERE id = $1")
            .bind(id)
            .fetch_optional(&mut *conn)
            .await?;
    let (goods_id, price, limit_number, starts_at, ends_at) = row.ok_or_else(|| Error::not_found("秒杀场次不存在"))?;
    Ok(Draft { goods_id, price, limit_number, starts_at, ends_at })
}

/// Adds a session (`id` `None`) or changes session `id`, with its audit row; a session that has
/// ended cannot change. Answers its id.
pub async fn save(conn: &mut AnyConnection, actor: &Actor, id: Option<i64>, draft: Draft, now: i64) -> Result<i64> {
    let mut tx = begin_write(conn).await?;
    let before = match id {
        Some(id) => {
            let before = read_draft(&mut tx, id).await?;
            if before.ends_at <= now {
                return Err(Error::conflict("秒杀已结束，不能修改"));
            }
            Some(before)
        }
        None => None,
    };
    check(&mut tx, id, &draft, now).await?;
    let id = match id {
        Some(id) => {
            sqlx::query("UPDATE flash_sales SET goods_id = $1, price = $2, limit_number = $3, starts_at = $4, ends_at = $5 WHERE id = $6")
                .bind(draft.goods_id)
                .bind(draft.price)
                .bind(draft.limit_number)
                .bind(draft.starts_at)
                .bind(draft.ends_at)
                .bind(id)
                .execute(&mut *tx)
                .await?;
            id
        }
        None => {
            sqlx::query_scalar(
                "INSERT INTO flash_sales (goods_id, price, limit_number, starts_at, ends_at) VALUES ($1, $2, $3, $4, $5) RETURNING id",
            )
            .bind(draft.goods_id)
            .bind(draft.price)
            .bind(draft.limit_number)
            .bind(draft.starts_at)
            .bind(draft.ends_at)
            .fetch_one(&mut *tx)
            .await?
        }
    };
    let (name, _) = goods_of(&mut tx, draft.goods_id).await?;
    let (action, what) = if before.is_some() { ("flash.change", "修改") } else { ("flash.add", "新增") };
    let entry = Entry {
        action,
        target: format!("flash:{id}"),
        member: None,
        summary: format!("{what}秒杀 {id}：{name} ¥{}，每人限购{}", money::text(draft.price), draft.limit_number),
        before: before.as_ref().map(audit_value).unwrap_or_else(|| json!({})),
        after: audit_value(&draft),
    };
    audit::record(&mut tx, actor, entry, now).await?;
    tx.commit().await?;
    Ok(id)
}

/// Flash-sale sessions, as a scheduled promotion.
const SCHEDULED: Scheduled = Scheduled { table: "flash_sales", target: "flash", noun: "秒杀" };

/// Ends session `id` now: buyers' flash-sale lines can no longer be bought.
pub async fn end(conn: &mut AnyConnection, actor: &Actor, id: i64, now: i64) -> Result<()> {
    let mut tx = begin_write(conn).await?;
    let draft = read_draft(&mut tx, id).await?;
    schedule::end(&mut tx, actor, SCHEDULED, id, "", (draft.starts_at, draft.ends_at), now).await?;
    tx.commit().await?;
    Ok(())
}

/// A session in the console's list.
#[derive(Debug, Serialize, ToSchema, sqlx::FromRow)]
pub struct FlashRow {
    pub id: i64,
    pub goods_id: i64,
    pub goods_name: String,
    pub ypgg: String,
    /// The goods' own price.
    #[serde(serialize_with = "super::as_money")]
    #[schema(value_type = String, example = "25.00")]
    pub goods_price: i64,
    #[serde(serialize_with = "super::as_money")]
    #[schema(value_type = String, example = "19.90")]
    pub price: i64,
    pub limit_number: i64,
    pub starts_at: i64,
    pub ends_at: i64,
    /// 未开始, 进行中 or 已结束.
    #[sqlx(skip)]
    pub state: &'static str,
    /// Units ordered in it (cancelled orders not counted).
    pub sold: i64,
}

/// Every session, the latest start first; `goods` only that goods'.
pub async fn list(conn: &mut AnyConnection, goods: Option<i64>, now: i64) -> Result<Vec<FlashRow>> {
    let mut rows: Vec<FlashRow> = sqlx::query_as(
        "SELECT f.id, f.goods_id, g.name AS goods_name, g.ypgg, g.price AS goods_price, f.price, f.limit_number, f.starts_at, f.ends_at, \
                CAST(COALESCE((SELECT SUM(i.number) FROM order_items i JOIN orders o ON o.id = i.order_id \
                               WHERE i.type = $1 AND i.activity_id = f.id AND o.status <> $2), 0) AS BIGINT) AS sold \
         FROM flash_sales f JOIN goods g ON g.id = f.goods_id WHERE ($3 = 0 OR f.goods_id = $3) \
         ORDER BY f.starts_at DESC, f.id DESC LIMIT 500",
    )
    .bind(FLASH_SALE)
    .bind(OrderStatus::Cancelled)
    .bind(goods.unwrap_or(0))
    .fetch_all(&mut *conn)
    .await?;
    for row in &mut rows {
        row.state = state(row.starts_at, row.ends_at, now);
    }
    Ok(rows)
}

/// What a session does to a cart holding its limit: the engine's quote of that many at the
/// sale's price (a flash-sale line) and at the goods' own (a normal line, its ladder applied).
#[derive(Serialize, ToSchema)]
pub struct FlashPreview {
    pub goods_name: String,
    pub quantity: i64,
    /// Line 1 the sale's, line 2 the goods' own.
    #[schema(value_type = CartQuote)]
    pub quote: engine::CartQuote,
}

/// The engine's quote of the limit's quantity of the draft's goods at its price and at the goods'
/// own, as a buyer would be priced now with the goods on sale and in stock. Changes nothing.
pub async fn preview(conn: &mut AnyConnection, draft: &Draft, now: i64) -> Result<FlashPreview> {
    let errors = check_draft(draft, false, now);
    if !errors.is_empty() {
        return Err(Error::Validation(errors));
    }
    let row: CardRow = sqlx::query_as(sqlx::AssertSqlSafe(format!("SELECT {} FROM goods g WHERE g.id = $2", card_columns(1))))
        .bind(now)
        .bind(draft.goods_id)
        .fetch_optional(&mut *conn)
        .await?
        .ok_or_else(|| Error::field("goods_id", "商品不存在"))?;
    let shown = card(&row, &Viewer::visitor(true))?;
    let own = shown.price.ok_or_else(|| anyhow::anyhow!("goods {} without its price", draft.goods_id))?;
    let quantity = draft.limit_number.clamp(1, i64::from(engine::MAX_QUANTITY));
    let mut goods = shown.engine_goods();
    goods.is_buy = true;
    goods.stock = goods.stock.max(quantity);
    let line = |id: i64, line_type: i64, price: engine::Money| engine::CartItem {
        id,
        line_type: Some(line_type),
        quantity: quantity as u32,
        price,
        is_selected: true,
        with_coupon: true,
        goods_manjian_id: 0,
        goods: goods.clone(),
        combination: None,
    };
    let input = sample_input(vec![line(1, FLASH_SALE, money::from_stored(draft.price)?), line(2, NORMAL, own)], Vec::new(), None);
    let quote = engine::quote(&input).map_err(|error| Error::Internal(anyhow::anyhow!("{error}")))?;
    Ok(FlashPreview { goods_name: row.name.clone(), quantity, quote })
}
