//! 组合购 sets in the console (docs/backoffice.md, "Promotions"): a name, goods × quantities, a
//! set price below what its goods cost bought one by one, and the sets in stock. The preview
//! prices one set against its goods bought apart by the engine, before anything is saved. A set
//! stops selling when its stock is set to 0: its cart lines can no longer be bought.

use serde::Serialize;
use serde_json::json;
use sqlx::AnyConnection;
use utoipa::ToSchema;

use super::audit::{self, Actor, Entry};
use super::orders::begin_write;
use crate::domain::cart::{COMBINATION, NORMAL, sample_input};
use crate::domain::catalogue::card::{CardRow, card, card_columns};
use crate::domain::catalogue::viewer::Viewer;
use crate::domain::orders::life::OrderStatus;
use crate::domain::{Error, Result};
use crate::money;
use engine::contract::CartQuote;

/// A set holds 2 to this many goods.
pub const MAX_ITEMS: usize = 10;
/// The longest name kept, in characters.
pub const NAME_MAX: usize = 30;

/// A set as the operator writes it.
#[derive(Clone, Debug, Default)]
pub struct Draft {
    pub name: String,
    /// Stored money: one set's price.
    pub price: i64,
    pub stock: i64,
    /// `(goods, quantity)` in the order written.
    pub items: Vec<(i64, i64)>,
}

/// `goods:quantity,…` as pairs; each refusal names its item.
pub fn read_items(text: &str) -> std::result::Result<Vec<(i64, i64)>, String> {
    text.split([',', '，'])
        .map(str::trim)
        .filter(|part| !part.is_empty())
        .enumerate()
        .map(|(n, part)| {
            let n = n + 1;
            let (goods, quantity) = part.split_once([':', '：']).unwrap_or((part, "1"));
            let goods = goods.trim().parse().map_err(|_| format!("第{n}个商品应写作 商品编号:数量"))?;
            let quantity = quantity.trim().parse().map_err(|_| format!("第{n}个商品的数量应为整数"))?;
            Ok((goods, quantity))
        })
        .collect()
}

/// What is wrong with `draft` on its own, field by field.
pub fn check_draft(draft: &Draft) -> Vec<(String, String)> {
    let mut errors = Vec::new();
    let mut refuse = |field: &str, message: String| errors.push((field.to_owned(), message));
    let name = draft.name.trim();
    if name.is_empty() {
        refuse("name", "请填写组合名称".into());
    } else if name.chars().count() > NAME_MAX {
        refuse("name", format!("组合名称不能超过{NAME_MAX}个字"));
    }
    if draft.price <= 0 {
        refuse("price", "组合价须大于0".into());
    }
    if !(0..=1_000_000).contains(&draft.stock) {
        refuse("stock", "组合库存应在0到1000000之间".into());
    }
    if draft.items.len() < 2 {
        refuse("items", "组合至少包含2个商品".into());
    } else if draft.items.len() > MAX_ITEMS {
        refuse("items", format!("组合最多包含{MAX_ITEMS}个商品"));
    } else if let Some((goods, _)) = draft.items.iter().find(|(_, quantity)| !(1..=999).contains(quantity)) {
        refuse("items", format!("商品{goods}的数量应在1到999之间"));
    } else if let Some((goods, _)) =
        draft.items.iter().enumerate().find_map(|(at, item)| draft.items[..at].iter().find(|other| other.0 == item.0))
    {
        refuse("items", format!("商品{goods}重复"));
    }
    errors
}

/// The goods' own prices, in `items`' order; a refusal on `items` for goods that do not exist.
async fn own_prices(conn: &mut AnyConnection, items: &[(i64, i64)]) -> Result<Vec<(i64, String, i64)>> {
    let mut found = Vec::with_capacity(items.len());
    for (goods, _) in items {
        let row: Option<(String, i64)> =
            sqlx::query_as("SELECT name, price FROM goods WHERE id = $1").bind(goods).fetch_optional(&mut *conn).await?;
        let (name, price) = row.ok_or_else(|| Error::field("items", format!("商品不存在：{goods}")))?;
        found.push((*goods, name, price));
    }
    Ok(found)
}

/// Checks `draft` whole: its fields, its goods, and a price below its goods bought apart.
async fn check(conn: &mut AnyConnection, draft: &Draft) -> Result<()> {
    let errors = check_draft(draft);
    if !errors.is_empty() {
        return Err(Error::Validation(errors));
    }
    let prices = own_prices(conn, &draft.items).await?;
    let apart: i64 = prices.iter().zip(&draft.items).map(|((_, _, price), (_, quantity))| price * quantity).sum();
    if draft.price >= apart {
        return Err(Error::field("price", format!("组合价须低于单买合计¥{}", money::text(apart))));
    }
    Ok(())
}

fn items_text(items: &[(i64, i64)]) -> String {
    items.iter().map(|(goods, quantity)| format!("{goods}:{quantity}")).collect::<Vec<_>>().join(",")
}

fn audit_value(draft: &Draft) -> serde_json::Value {
    json!({ "name": draft.name.trim(), "price": money::text(draft.price), "stock": draft.stock, "items": items_text(&draft.items) })
}

async fn read_draft(conn: &mut AnyConnection, id: i64) -> Result<Draft> {
    let head: Option<(String, i64, i64)> =
        sqlx::query_as("SELECT name, price, stock FROM combinations WHERE id = $1").bind(id).fetch_optional(&mut *conn).await?;
    let (name, price, stock) = head.ok_or_else(|| Error::not_found("组合不存在"))?;
    let items: Vec<(i64, i64)> = sqlx::query_as("SELECT goods_id, number FROM combination_items WHERE combination_id = $1 ORDER BY id")
        .bind(id)
        .fetch_all(&mut *conn)
        .await?;
    Ok(Draft { name, price, stock, items })
}

/// Adds a set (`id` `None`) or replaces set `id`'s name, price, stock and goods, with its audit
/// row. Answers its id.
pub async fn save(conn: &mut AnyConnection, actor: &Actor, id: Option<i64>, draft: Draft, now: i64) -> Result<i64> {
    let mut tx = begin_write(conn).await?;
    let before = match id {
        Some(id) => Some(read_draft(&mut tx, id).await?),
        None => None,
    };
    check(&mut tx, &draft).await?;
    let name = draft.name.trim();
    let id = match id {
        Some(id) => {
            sqlx::query("UPDATE combinations SET name = $1, price = $2, stock = $3 WHERE id = $4")
                .bind(name)
                .bind(draft.price)
                .bind(draft.stock)
                .bind(id)
                .execute(&mut *tx)
                .await?;
            sqlx::query("DELETE FROM combination_items WHERE combination_id = $1").bind(id).execute(&mut *tx).await?;
            id
        }
        None => {
            sqlx::query_scalar("INSERT INTO combinations (name, price, stock) VALUES ($1, $2, $3) RETURNING id")
                .bind(name)
                .bind(draft.price)
                .bind(draft.stock)
                .fetch_one(&mut *tx)
                .await?
        }
    };
    for (goods, quantity) in &draft.items {
        sqlx::query("INSERT INTO combination_items (combination_id, goods_id, number) VALUES ($1, $2, $3)")
            .bind(id)
            .bind(goods)
            .bind(quantity)
            .execute(&mut *tx)
            .await?;
    }
    let (action, verb) = if before.is_some() { ("combination.change", "修改") } else { ("combination.add", "新增") };
    let entry = Entry {
        action,
        target: format!("combination:{id}"),
        member: None,
        summary: format!("{verb}组合 {id} {name}：¥{}，库存{}，{}个商品", money::text(draft.price), draft.stock, draft.items.len()),
        before: before.as_ref().map(audit_value).unwrap_or_else(|| json!({})),
        after: audit_value(&draft),
    };
    audit::record(&mut tx, actor, entry, now).await?;
    tx.commit().await?;
    Ok(id)
}

/// A goods of a set.
#[derive(Debug, Serialize, ToSchema)]
pub struct SetItem {
    pub goods_id: i64,
    pub name: String,
    pub quantity: i64,
    /// The goods' own price.
    #[schema(example = "12.50")]
    pub price: String,
}

/// A set in the console's list.
#[derive(Debug, Serialize, ToSchema)]
pub struct SetRow {
    pub id: i64,
    pub name: String,
    #[schema(example = "99.00")]
    pub price: String,
    /// Its goods bought apart at their own prices.
    #[schema(example = "118.00")]
    pub apart: String,
    pub stock: i64,
    /// Sets ordered (cancelled orders not counted).
    pub sold: i64,
    pub items: Vec<SetItem>,
}

/// Every set, newest first.
pub async fn list(conn: &mut AnyConnection) -> Result<Vec<SetRow>> {
    let sets: Vec<(i64, String, i64, i64, i64)> = sqlx::query_as(
        "SELECT c.id, c.name, c.price, c.stock, \
                CAST(COALESCE((SELECT SUM(i.number) FROM order_items i JOIN orders o ON o.id = i.order_id \
                               WHERE i.type = $1 AND i.activity_id = c.id AND o.status <> $2), 0) AS BIGINT) \
         FROM combinations c ORDER BY c.id DESC",
    )
    .bind(COMBINATION)
    .bind(OrderStatus::Cancelled)
    .fetch_all(&mut *conn)
    .await?;
    let items: Vec<(i64, i64, String, i64, i64)> = sqlx::query_as(
        "SELECT i.combination_id, i.goods_id, g.name, i.number, g.price FROM combination_items i JOIN goods g ON g.id = i.goods_id ORDER BY i.id",
    )
    .fetch_all(&mut *conn)
    .await?;
    Ok(sets
        .into_iter()
        .map(|(id, name, price, stock, sold)| {
            let own: Vec<&(i64, i64, String, i64, i64)> = items.iter().filter(|item| item.0 == id).collect();
            let apart: i64 = own.iter().map(|item| item.4 * item.3).sum();
            SetRow {
                id,
                name,
                price: money::text(price),
                apart: money::text(apart),
                stock,
                sold,
                items: own
                    .into_iter()
                    .map(|(_, goods_id, name, quantity, price)| SetItem {
                        goods_id: *goods_id,
                        name: name.clone(),
                        quantity: *quantity,
                        price: money::text(*price),
                    })
                    .collect(),
            }
        })
        .collect())
}

/// One set against its goods bought apart, as the engine prices them now.
#[derive(Serialize, ToSchema)]
pub struct SetPreview {
    /// Line 1 the set; the others its goods bought apart, in its order.
    #[schema(value_type = CartQuote)]
    pub quote: engine::CartQuote,
    /// The set's amount.
    #[schema(example = "99.00")]
    pub set: String,
    /// The goods bought apart, each at what the engine charges for that quantity (ladders apply).
    #[schema(example = "118.00")]
    pub apart: String,
}

/// The engine's quote of one set of `draft` and of its goods bought apart, as a buyer would be
/// priced now with everything on sale and in stock. Changes nothing.
pub async fn preview(conn: &mut AnyConnection, draft: &Draft, now: i64) -> Result<SetPreview> {
    let errors = check_draft(draft);
    if !errors.is_empty() {
        return Err(Error::Validation(errors));
    }
    let viewer = Viewer::visitor(true);
    let mut lines = vec![];
    let mut first_type = 1;
    for (n, (goods_id, quantity)) in draft.items.iter().enumerate() {
        let row: CardRow = sqlx::query_as(sqlx::AssertSqlSafe(format!("SELECT {} FROM goods g WHERE g.id = $2", card_columns(1))))
            .bind(now)
            .bind(goods_id)
            .fetch_optional(&mut *conn)
            .await?
            .ok_or_else(|| Error::field("items", format!("商品不存在：{goods_id}")))?;
        let shown = card(&row, &viewer)?;
        if n == 0 {
            first_type = shown.goods_type;
        }
        let price = shown.price.ok_or_else(|| anyhow::anyhow!("goods {goods_id} without its price"))?;
        let mut goods = shown.engine_goods();
        goods.is_buy = true;
        goods.stock = goods.stock.max(*quantity);
        lines.push(engine::CartItem {
            id: n as i64 + 2,
            line_type: Some(NORMAL),
            quantity: *quantity as u32,
            price,
            is_selected: true,
            with_coupon: true,
            goods_manjian_id: 0,
            goods,
            combination: None,
        });
    }
    let set_goods = engine::Goods {
        id: 0,
        is_buy: true,
        stock: 1,
        is_youx: false,
        goods_type: Some(first_type),
        is_dpby: false,
        qg_number: 0,
        base_price: None,
        ladder: engine::Ladder::default(),
        ladder_price_type: None,
    };
    let mut items = vec![engine::CartItem {
        id: 1,
        line_type: Some(COMBINATION),
        quantity: 1,
        price: money::from_stored(draft.price)?,
        is_selected: true,
        with_coupon: true,
        goods_manjian_id: 0,
        goods: set_goods.clone(),
        combination: Some(set_goods),
    }];
    items.extend(lines);
    let input = sample_input(items, Vec::new(), None);
    let quote = engine::quote(&input).map_err(|error| Error::Internal(anyhow::anyhow!("{error}")))?;
    let amount = |line: &engine::LineQuote| line.amount.to_decimal().unwrap_or_default();
    let set = quote.lines.first().map(amount).unwrap_or_default();
    let apart: rust_decimal::Decimal = quote.lines.iter().skip(1).map(amount).sum();
    Ok(SetPreview { set: format!("{set:.2}"), apart: format!("{apart:.2}"), quote })
}
