//! The cart (§7): add, quick add, list with the engine's quote, count, edit, select, delete.
//!
//! `cart/list` answers the lines in §3's shape, each also a valid `CartItem` of `pricing.md`,
//! with `shipping_data` and `activity_data` beside them and `quote`: the engine's answer for
//! exactly those three, so the browser can feed them to its WebAssembly engine and compare.

use axum::extract::{Path, State};
use axum::response::IntoResponse;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use sqlx::AnyConnection;
use sqlx::Row;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::ApiContext;
use super::error::{Error, Result, ok};
use super::extract::{FormFields, Member};
use super::goods::{Card, CardRow, card, card_json};
use crate::db::{Db, Kind};
use crate::{money, now};

pub fn router() -> OpenApiRouter<ApiContext> {
    OpenApiRouter::new()
        .routes(routes!(add))
        .routes(routes!(quick_add))
        .routes(routes!(list))
        .routes(routes!(input))
        .routes(routes!(total))
        .routes(routes!(edit))
        .routes(routes!(batch_select))
        .routes(routes!(batch_delete))
        .routes(routes!(copy))
        .routes(routes!(next_hint))
}

/// Line types (§3): normal, 秒杀 flash sale, 组合购 combination.
pub const NORMAL: i64 = 0;
pub const FLASH_SALE: i64 = 1;
pub const COMBINATION: i64 = 3;

/// Orders from this amount ship free.
fn free_shipping_from() -> engine::Money {
    engine::Money::from_integer(800).unwrap_or(engine::Money::ZERO)
}

struct Goods {
    price: i64,
    stock: i64,
    is_buy: i64,
    manjian_id: i64,
}

async fn goods(db: &Db, id: i64) -> Result<Goods> {
    let row = sqlx::query("SELECT price, stock, is_buy, manjian_id FROM goods WHERE id = $1")
        .bind(id)
        .fetch_optional(&db.pool)
        .await?
        .ok_or_else(|| Error::field("goods_id", "商品不存在"))?;
    Ok(Goods {
        price: row.try_get("price")?,
        stock: row.try_get("stock")?,
        is_buy: row.try_get("is_buy")?,
        manjian_id: row.try_get("manjian_id")?,
    })
}

/// `POST /api/cart`: `goods_id`, `number`, optional `type` (1 flash sale, 3 combination with
/// `combination_id`), and the §3 ids (`goods_price_id`, `ladder_price_id`,
/// `goods_manjian_id`, `is_yj`). Adds to a line already in the cart for the same goods and
/// activity. Refuses goods that cannot be bought, and quantities beyond stock or limit (422).
#[utoipa::path(post, path = "/api/cart", tag = "购物车", responses((status = 200, description = "信封 { code, msg, data }")))]
async fn add(State(context): State<ApiContext>, member: Member, FormFields(form): FormFields) -> Result<impl IntoResponse> {
    let goods_id = form.int("goods_id", "商品")?.ok_or_else(|| Error::field("goods_id", "请选择商品"))?;
    let number = form.int_or("number", "数量", 1)?;
    let line_type = form.int_or("type", "类型", NORMAL)?;
    let added = add_line(
        &context.db,
        member,
        goods_id,
        number,
        line_type,
        form.int_or("combination_id", "组合", 0)?,
        [
            form.int_or("goods_price_id", "goods_price_id", 0)?,
            form.int_or("ladder_price_id", "ladder_price_id", 0)?,
            form.int_or("is_yj", "is_yj", 0)?,
        ],
    )
    .await?;
    ok(added)
}

/// `POST /api/cart/quick_add/{id}`: one more of these goods (its minimum when it has one).
#[utoipa::path(post, path = "/api/cart/quick_add/{id}", tag = "购物车", responses((status = 200, description = "信封 { code, msg, data }")))]
async fn quick_add(State(context): State<ApiContext>, member: Member, Path(goods_id): Path<i64>) -> Result<impl IntoResponse> {
    ok(add_line(&context.db, member, goods_id, 1, NORMAL, 0, [0, 0, 0]).await?)
}

async fn add_line(
    db: &Db,
    member: Member,
    goods_id: i64,
    number: i64,
    line_type: i64,
    combination: i64,
    [goods_price_id, ladder_price_id, is_yj]: [i64; 3],
) -> Result<Value> {
    if number < 1 {
        return Err(Error::field("number", "数量至少为1"));
    }
    if number > i64::from(engine::MAX_QUANTITY) {
        return Err(Error::field("number", "数量过大"));
    }
    let goods = goods(db, goods_id).await?;
    if goods.is_buy == 0 {
        return Err(Error::field("goods_id", "该商品暂不可购买"));
    }
    let (price, activity, limit, stock) = match line_type {
        NORMAL => (goods.price, 0, i64::MAX, goods.stock),
        FLASH_SALE => {
            let row =
                sqlx::query("SELECT id, price, limit_number FROM flash_sales WHERE goods_id = $1 AND starts_at <= $2 AND ends_at > $2")
                    .bind(goods_id)
                    .bind(now())
                    .fetch_optional(&db.pool)
                    .await?
                    .ok_or_else(|| Error::field("type", "秒杀活动已结束"))?;
            (row.try_get("price")?, row.try_get("id")?, row.try_get("limit_number")?, goods.stock)
        }
        COMBINATION => {
            let row = sqlx::query(
                "SELECT c.id, c.price, c.stock FROM combinations c JOIN combination_items i ON i.combination_id = c.id \
                 WHERE c.id = $1 AND i.goods_id = $2",
            )
            .bind(combination)
            .bind(goods_id)
            .fetch_optional(&db.pool)
            .await?
            .ok_or_else(|| Error::field("combination_id", "组合不存在"))?;
            (row.try_get("price")?, row.try_get("id")?, i64::MAX, row.try_get("stock")?)
        }
        _ => return Err(Error::field("type", "商品类型不正确")),
    };
    if stock <= 0 {
        return Err(Error::field("number", "库存不足"));
    }
    let manjian = goods.manjian_id;
    let existing: i64 = sqlx::query_scalar(
        "SELECT COALESCE(MAX(number), 0) FROM cart_items WHERE member_id = $1 AND goods_id = $2 AND type = $3 AND activity_id = $4",
    )
    .bind(member.id)
    .bind(goods_id)
    .bind(line_type)
    .bind(activity)
    .fetch_one(&db.pool)
    .await?;
    let wanted = existing.saturating_add(number);
    if wanted > stock {
        return Err(Error::field("number", format!("库存不足，最多可购买{stock}件")));
    }
    if wanted > limit {
        return Err(Error::field("number", format!("秒杀商品每人限购{limit}件")));
    }
    let with_coupon = i64::from(line_type == NORMAL);
    let id: i64 = sqlx::query_scalar(
        "INSERT INTO cart_items (member_id, goods_id, type, activity_id, number, price, is_selected, with_coupon, \
         goods_price_id, ladder_price_id, goods_manjian_id, is_yj, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6, 1, $7, $8, $9, $10, $11, $12) \
         ON CONFLICT (member_id, goods_id, type, activity_id) DO UPDATE SET number = cart_items.number + $5, price = $6 \
         RETURNING id",
    )
    .bind(member.id)
    .bind(goods_id)
    .bind(line_type)
    .bind(activity)
    .bind(number)
    .bind(price)
    .bind(with_coupon)
    .bind(goods_price_id)
    .bind(ladder_price_id)
    .bind(if line_type == NORMAL { manjian } else { 0 })
    .bind(is_yj)
    .bind(now())
    .fetch_one(&db.pool)
    .await?;
    Ok(json!({ "id": id, "number": wanted, "cart": count(db, member).await? }))
}

async fn count(db: &Db, member: Member) -> Result<i64> {
    Ok(sqlx::query_scalar("SELECT COUNT(*) FROM cart_items WHERE member_id = $1").bind(member.id).fetch_one(&db.pool).await?)
}

/// `GET /api/cart/total`: `{ total }`, the number of lines.
#[utoipa::path(get, path = "/api/cart/total", tag = "购物车", responses((status = 200, description = "信封 { code, msg, data }")))]
async fn total(State(context): State<ApiContext>, member: Member) -> Result<impl IntoResponse> {
    ok(json!({ "total": count(&context.db, member).await? }))
}

/// `GET /api/cart/list`: the lines, `shipping_data`, `activity_data` and the engine's `quote`.
#[utoipa::path(get, path = "/api/cart/list", tag = "购物车", responses((status = 200, description = "信封 { code, msg, data }")))]
async fn list(State(context): State<ApiContext>, member: Member) -> Result<impl IntoResponse> {
    ok(cart_input(&mut *context.db.pool.acquire().await?, context.db.kind, member).await?.with_quote()?)
}

/// `GET /api/cart/input`: the member's cart as the pricing engine's input and nothing else
/// (`items`, `shipping_data`, `activity_data` of `pricing.md`): the same values `cart/list`
/// quotes, without the goods cards' display fields and without a quote. The edge reads it
/// to check a checkout or an order with its own engine before the origin sees it.
#[utoipa::path(get, path = "/api/cart/input", tag = "购物车", responses((status = 200, description = "信封 { code, msg, data }")))]
async fn input(State(context): State<ApiContext>, member: Member) -> Result<impl IntoResponse> {
    ok(cart_input(&mut *context.db.pool.acquire().await?, context.db.kind, member).await?.engine_input())
}

/// One cart line in §3's list shape, which is also a `CartItem` of `pricing.md`.
#[derive(Debug, Serialize)]
pub struct CartLine {
    pub id: i64,
    #[serde(rename = "type")]
    pub line_type: i64,
    pub goods_type: i64,
    pub number: i64,
    pub price: engine::Money,
    pub raw_price: engine::Money,
    pub is_selected: i64,
    pub with_coupon: i64,
    pub goods_price_id: i64,
    pub ladder_price_id: i64,
    pub goods_manjian_id: i64,
    pub goods_manjian_amount: engine::Money,
    pub is_yj: i64,
    pub gift_data: Gift,
    pub combination: Option<Combination>,
    pub goods: Card,
}

#[derive(Debug, Serialize)]
pub struct Gift {
    total: i64,
    #[serde(rename = "type")]
    kind: i64,
}

/// A combination as the engine's goods: its own stock, buyable while all its goods are.
#[derive(Debug, Serialize)]
pub struct Combination {
    pub id: i64,
    pub name: String,
    pub bzdw: &'static str,
    pub is_buy: i64,
    pub number: i64,
    #[serde(rename = "type")]
    pub goods_type: i64,
    pub is_youx: i64,
    pub is_dpby: i64,
    pub ladder_price: [i64; 0],
}

#[derive(Debug, Serialize)]
pub struct Shipping {
    shipping_amount: engine::Money,
    no_trans_order_amount: engine::Money,
}

#[derive(Debug, Serialize)]
pub struct Activity {
    manjians: Vec<Tier>,
}

#[derive(Debug, Serialize)]
pub struct Tier {
    amount: engine::Money,
    reduce: engine::Money,
    title: String,
}

/// The member's cart, in §3's list shape.
pub struct CartData {
    pub data: Vec<CartLine>,
    pub shipping_data: Shipping,
    pub activity_data: Activity,
}

/// `cart/list`'s answer: the engine input as it is, and the engine's quote of it.
#[derive(Serialize)]
pub struct CartList {
    data: Vec<CartLine>,
    shipping_data: Shipping,
    activity_data: Activity,
    quote: engine::CartQuote,
}

impl CartData {
    /// The engine's input: exactly the values the answer carries (a test reads the answer's
    /// JSON with the engine and finds the same quote).
    pub fn engine_input(&self) -> engine::CartInput {
        engine::CartInput {
            items: self
                .data
                .iter()
                .map(|line| engine::CartItem {
                    id: line.id,
                    line_type: Some(line.line_type),
                    quantity: line.number.clamp(1, i64::from(engine::MAX_QUANTITY)) as u32,
                    price: line.price,
                    is_selected: line.is_selected == 1,
                    with_coupon: line.with_coupon == 1,
                    goods_manjian_id: line.goods_manjian_id,
                    goods_manjian_amount: line.goods_manjian_amount,
                    goods: line.goods.engine_goods(),
                    combination: line.combination.as_ref().map(|combination| engine::Goods {
                        id: combination.id,
                        is_buy: combination.is_buy == 1,
                        stock: combination.number,
                        is_youx: false,
                        goods_type: Some(combination.goods_type),
                        is_dpby: false,
                        qg_number: 0,
                        base_price: None,
                        ladder: engine::Ladder::default(),
                        ladder_price_type: None,
                    }),
                })
                .collect(),
            shipping_data: engine::ShippingData {
                shipping_amount: self.shipping_data.shipping_amount,
                no_trans_order_amount: self.shipping_data.no_trans_order_amount,
            },
            activity_data: engine::ActivityData {
                manjians: self
                    .activity_data
                    .manjians
                    .iter()
                    .map(|tier| engine::ManjianTier { amount: tier.amount, reduce: Some(tier.reduce) })
                    .collect(),
            },
        }
    }

    /// The engine's quote of exactly this cart.
    pub fn quote(&self) -> Result<engine::CartQuote> {
        engine::quote(&self.engine_input()).map_err(|error| Error::Internal(anyhow::anyhow!("{error}")))
    }

    fn with_quote(self) -> Result<CartList> {
        let quote = self.quote()?;
        Ok(CartList { data: self.data, shipping_data: self.shipping_data, activity_data: self.activity_data, quote })
    }
}

/// A cart line as [`cart_input`] reads it.
#[derive(Deserialize)]
struct LineRow {
    /// The goods card.
    g: CardRow,
    line_id: i64,
    line_type: i64,
    activity_id: i64,
    line_number: i64,
    line_price: i64,
    is_selected: i64,
    with_coupon: i64,
    goods_price_id: i64,
    ladder_price_id: i64,
    goods_manjian_id: i64,
    is_yj: i64,
    /// The line's flash sale's price while it runs.
    sale_price: Option<i64>,
    combination_id: Option<i64>,
    combination_name: Option<String>,
    combination_price: Option<i64>,
    combination_stock: Option<i64>,
    combination_is_buy: Option<i64>,
    /// The tiers of the line's full-reduction activity, `amount:reduce,…` in order.
    line_tiers: Option<String>,
}

/// Reads the cart, first storing as unselected the lines whose goods cannot be bought now.
///
/// One statement reads everything the list shows, as one JSON array in one row: the lines,
/// their goods cards (ladders and running flash sales included), the line's flash sale while
/// it runs, its combination, and the tiers of each line's full-reduction activity. One row,
/// not a row per line, because sqlx hands every row of SQLite's from its database thread to
/// the request's, and on a 50-line cart those hand-offs cost more than the query.
pub async fn cart_input(conn: &mut AnyConnection, kind: Kind, member: Member) -> Result<CartData> {
    let object = kind.json_object();
    let lines: Option<String> = sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
        "SELECT CAST({array}({object}('g', {card}, 'line_id', c.id, 'line_type', c.type, 'activity_id', c.activity_id, \
         'line_number', c.number, 'line_price', c.price, 'is_selected', c.is_selected, 'with_coupon', c.with_coupon, \
         'goods_price_id', c.goods_price_id, 'ladder_price_id', c.ladder_price_id, 'goods_manjian_id', c.goods_manjian_id, \
         'is_yj', c.is_yj, 'sale_price', f.price, 'combination_id', k.id, 'combination_name', k.name, \
         'combination_price', k.price, 'combination_stock', k.stock, \
         'combination_is_buy', (SELECT MIN(x.is_buy) FROM combination_items i JOIN goods x ON x.id = i.goods_id WHERE i.combination_id = k.id), \
         'line_tiers', (SELECT string_agg(CAST(t.amount AS TEXT) || ':' || CAST(t.reduce AS TEXT), ',' ORDER BY t.sort, t.id) \
                        FROM manjian_tiers t WHERE t.activity_id = c.goods_manjian_id)) \
         ORDER BY c.id DESC) AS TEXT) \
         FROM cart_items c JOIN goods g ON g.id = c.goods_id \
         LEFT JOIN flash_sales f ON c.type = {FLASH_SALE} AND f.id = c.activity_id AND f.starts_at <= $2 AND f.ends_at > $2 \
         LEFT JOIN combinations k ON c.type = {COMBINATION} AND k.id = c.activity_id \
         WHERE c.member_id = $1",
        array = kind.json_array_agg(),
        card = card_json(kind, 2),
    )))
    .bind(member.id)
    .bind(now())
    .fetch_one(&mut *conn)
    .await?;
    // No lines: SQLite's aggregate answers `[]`, PostgreSQL's NULL.
    let lines: Vec<LineRow> = match lines {
        Some(json) => serde_json::from_str(&json).map_err(anyhow::Error::from)?,
        None => Vec::new(),
    };
    // Selected lines whose goods cannot be bought now are stored unselected; written only when
    // there are some, since a write takes SQLite's one write lock.
    let unsellable: Vec<i64> = lines
        .iter()
        .filter(|line| {
            let sale_over = line.line_type == FLASH_SALE && line.sale_price.is_none();
            line.is_selected == 1 && (line.g.is_buy == 0 || line.g.stock <= 0 || sale_over)
        })
        .map(|line| line.line_id)
        .collect();
    for id in &unsellable {
        sqlx::query("UPDATE cart_items SET is_selected = 0 WHERE id = $1 AND member_id = $2")
            .bind(id)
            .bind(member.id)
            .execute(&mut *conn)
            .await?;
    }
    let mut data = Vec::with_capacity(lines.len());
    // Each selected line's full-reduction activity, and the tiers of each.
    let mut activities: Vec<i64> = Vec::new();
    let mut tiers: Vec<(i64, Option<&str>)> = Vec::new();
    for line in &lines {
        let mut goods = card(&line.g)?;
        let manjian = line.goods_manjian_id;
        let is_selected = if unsellable.contains(&line.line_id) { 0 } else { line.is_selected };
        if manjian > 0 && is_selected == 1 {
            activities.push(manjian);
            if !tiers.iter().any(|(activity, _)| *activity == manjian) {
                tiers.push((manjian, line.line_tiers.as_deref()));
            }
        }
        // Lines are priced as things stand now: the goods' price, the flash sale's while it
        // runs (after it the line cannot be bought), the combination's.
        let price = match line.line_type {
            FLASH_SALE => match line.sale_price {
                Some(price) => money::from_stored(price),
                None => {
                    goods.is_buy = 0;
                    money::from_stored(line.line_price)
                }
            },
            COMBINATION => money::from_stored(line.combination_price.unwrap_or(line.line_price)),
            _ => goods.price,
        };
        let combination = match line.line_type {
            COMBINATION => Some(combination(line, goods.goods_type)),
            _ => None,
        };
        data.push(CartLine {
            id: line.line_id,
            line_type: line.line_type,
            goods_type: line.line_type,
            number: line.line_number,
            price,
            raw_price: goods.price,
            is_selected,
            with_coupon: line.with_coupon,
            goods_price_id: line.goods_price_id,
            ladder_price_id: line.ladder_price_id,
            goods_manjian_id: manjian,
            goods_manjian_amount: engine::Money::ZERO,
            is_yj: line.is_yj,
            gift_data: Gift { total: 0, kind: 0 },
            combination,
            goods,
        });
    }
    let manjians = match most_common(&activities) {
        Some(activity) => manjian_tiers(tiers.into_iter().find(|(id, _)| *id == activity).and_then(|(_, tiers)| tiers))?,
        None => Vec::new(),
    };
    Ok(CartData {
        data,
        shipping_data: Shipping { shipping_amount: free_shipping_from(), no_trans_order_amount: engine::Money::ZERO },
        activity_data: Activity { manjians },
    })
}

/// The tiers of a full-reduction activity from `amount:reduce,…`.
fn manjian_tiers(text: Option<&str>) -> Result<Vec<Tier>> {
    let Some(text) = text else { return Ok(Vec::new()) };
    text.split(',')
        .map(|tier| -> Result<Tier> {
            let (amount, reduce) = tier.split_once(':').ok_or_else(|| anyhow::anyhow!("bad tier {tier:?}"))?;
            let amount = money::from_stored(amount.parse().map_err(anyhow::Error::from)?);
            let reduce = money::from_stored(reduce.parse().map_err(anyhow::Error::from)?);
            Ok(Tier { amount, reduce, title: format!("满{}减{}", money::short(amount), money::short(reduce)) })
        })
        .collect()
}

/// The activity most of the selected lines take part in (the smallest id on a tie).
fn most_common(values: &[i64]) -> Option<i64> {
    let mut counted: Vec<(i64, usize)> = Vec::new();
    for value in values {
        match counted.iter_mut().find(|(seen, _)| seen == value) {
            Some((_, count)) => *count += 1,
            None => counted.push((*value, 1)),
        }
    }
    counted.into_iter().max_by_key(|(value, count)| (*count, -value)).map(|(value, _)| value)
}

/// A combination line's combination as the engine's goods: its own stock, buyable while all
/// its goods are (a combination gone from the catalogue cannot be bought).
fn combination(line: &LineRow, goods_type: i64) -> Combination {
    Combination {
        id: line.combination_id.unwrap_or(line.activity_id),
        name: line.combination_name.clone().unwrap_or_default(),
        bzdw: "组",
        is_buy: line.combination_is_buy.filter(|_| line.combination_id.is_some()).unwrap_or(0),
        number: line.combination_stock.unwrap_or(0),
        goods_type,
        is_youx: 0,
        is_dpby: 0,
        ladder_price: [],
    }
}

/// A line of the member's (404 for another member's: it is not theirs to see).
/// (goods id, line type, activity id) of one of the member's lines.
async fn own_line(db: &Db, member: Member, id: i64) -> Result<(i64, i64, i64)> {
    let row = sqlx::query("SELECT goods_id, type, activity_id FROM cart_items WHERE id = $1 AND member_id = $2")
        .bind(id)
        .bind(member.id)
        .fetch_optional(&db.pool)
        .await?
        .ok_or_else(|| Error::not_found("购物车中没有该商品"))?;
    Ok((row.try_get("goods_id")?, row.try_get("type")?, row.try_get("activity_id")?))
}

/// `POST /api/cart/{id}/edit`: `number`; refused beyond stock.
#[utoipa::path(post, path = "/api/cart/{id}/edit", tag = "购物车", responses((status = 200, description = "信封 { code, msg, data }")))]
async fn edit(
    State(context): State<ApiContext>,
    member: Member,
    Path(id): Path<i64>,
    FormFields(form): FormFields,
) -> Result<impl IntoResponse> {
    let number = form.int("number", "数量")?.ok_or_else(|| Error::field("number", "请填写数量"))?;
    if number < 1 {
        return Err(Error::field("number", "数量至少为1"));
    }
    let (goods_id, line_type, activity) = own_line(&context.db, member, id).await?;
    let goods = goods(&context.db, goods_id).await?;
    let stock = match line_type {
        COMBINATION => {
            sqlx::query_scalar("SELECT stock FROM combinations WHERE id = $1").bind(activity).fetch_one(&context.db.pool).await?
        }
        _ => goods.stock,
    };
    if number > stock {
        return Err(Error::field("number", format!("库存不足，最多可购买{stock}件")));
    }
    if line_type == FLASH_SALE {
        let limit: Option<i64> = sqlx::query_scalar("SELECT limit_number FROM flash_sales WHERE id = $1")
            .bind(activity)
            .fetch_optional(&context.db.pool)
            .await?;
        if let Some(limit) = limit.filter(|limit| number > *limit) {
            return Err(Error::field("number", format!("秒杀商品每人限购{limit}件")));
        }
    }
    sqlx::query("UPDATE cart_items SET number = $1 WHERE id = $2 AND member_id = $3")
        .bind(number)
        .bind(id)
        .bind(member.id)
        .execute(&context.db.pool)
        .await?;
    ok(json!({ "id": id, "number": number }))
}

/// `POST /api/cart/batch_select`: `ids`, `is_selected` (0 or 1). Lines whose goods cannot be
/// bought stay unselected.
#[utoipa::path(post, path = "/api/cart/batch_select", tag = "购物车", responses((status = 200, description = "信封 { code, msg, data }")))]
async fn batch_select(State(context): State<ApiContext>, member: Member, FormFields(form): FormFields) -> Result<impl IntoResponse> {
    let ids = form.ids("ids")?;
    let selected = match form.int("is_selected", "选择状态")? {
        Some(flag @ (0 | 1)) => flag,
        _ => return Err(Error::field("is_selected", "选择状态必须是0或1")),
    };
    for id in &ids {
        sqlx::query(
            "UPDATE cart_items SET is_selected = $1 WHERE id = $2 AND member_id = $3 \
             AND ($1 = 0 OR goods_id IN (SELECT id FROM goods WHERE is_buy = 1 AND stock > 0))",
        )
        .bind(selected)
        .bind(id)
        .bind(member.id)
        .execute(&context.db.pool)
        .await?;
    }
    ok(json!({ "ids": ids, "is_selected": selected }))
}

/// `POST /api/cart/batch_delete`: `ids`.
#[utoipa::path(post, path = "/api/cart/batch_delete", tag = "购物车", responses((status = 200, description = "信封 { code, msg, data }")))]
async fn batch_delete(State(context): State<ApiContext>, member: Member, FormFields(form): FormFields) -> Result<impl IntoResponse> {
    let ids = form.ids("ids")?;
    if ids.is_empty() {
        return Err(Error::field("ids", "请选择要删除的商品"));
    }
    let mut deleted = 0;
    for id in &ids {
        deleted += sqlx::query("DELETE FROM cart_items WHERE id = $1 AND member_id = $2")
            .bind(id)
            .bind(member.id)
            .execute(&context.db.pool)
            .await?
            .rows_affected();
    }
    ok(json!({ "deleted": deleted, "cart": count(&context.db, member).await? }))
}

/// `POST /api/cart/copy` (`ids`, `other_user_ids`): copies the lines into the carts of other
/// accounts of the same company (a chain's stores), merging with what is there, within stock.
#[utoipa::path(post, path = "/api/cart/copy", tag = "购物车", responses((status = 200, description = "信封 { code, msg, data }")))]
async fn copy(State(context): State<ApiContext>, member: Member, FormFields(form): FormFields) -> Result<impl IntoResponse> {
    let ids = form.ids("ids")?;
    let targets = form.ids("other_user_ids")?;
    if ids.is_empty() {
        return Err(Error::field("ids", "请选择要复制的商品"));
    }
    if targets.is_empty() {
        return Err(Error::field("other_user_ids", "请选择要复制到的门店账号"));
    }
    // The stores of one company: accounts whose qualifications were approved (so the company
    // name was checked) under the same company name.
    let company: Option<String> = sqlx::query_scalar("SELECT company FROM members WHERE id = $1 AND is_passed = 1")
        .bind(member.id)
        .fetch_optional(&context.db.pool)
        .await?;
    for target in &targets {
        let same: Option<String> = sqlx::query_scalar("SELECT company FROM members WHERE id = $1 AND is_passed = 1")
            .bind(target)
            .fetch_optional(&context.db.pool)
            .await?;
        if company.is_none() || same != company || *target == member.id {
            return Err(Error::forbidden("只能复制到本企业的其他门店账号"));
        }
    }
    let mut copied = 0;
    for id in &ids {
        let row = sqlx::query("SELECT goods_id, type, activity_id, number FROM cart_items WHERE id = $1 AND member_id = $2")
            .bind(id)
            .bind(member.id)
            .fetch_optional(&context.db.pool)
            .await?
            .ok_or_else(|| Error::not_found("购物车中没有该商品"))?;
        let (goods_id, line_type, activity, number): (i64, i64, i64, i64) =
            (row.try_get("goods_id")?, row.try_get("type")?, row.try_get("activity_id")?, row.try_get("number")?);
        for target in &targets {
            let combination = if line_type == COMBINATION { activity } else { 0 };
            add_line(&context.db, Member { id: *target }, goods_id, number, line_type, combination, [0, 0, 0]).await?;
            copied += 1;
        }
    }
    ok(json!({ "copied": copied }))
}

/// `POST /api/cart/next_hint`: what the selected lines still need for the next
/// full-reduction tier and for free shipping, from the engine's quote.
#[utoipa::path(post, path = "/api/cart/next_hint", tag = "购物车", responses((status = 200, description = "信封 { code, msg, data }")))]
async fn next_hint(State(context): State<ApiContext>, member: Member) -> Result<impl IntoResponse> {
    let cart = cart_input(&mut *context.db.pool.acquire().await?, context.db.kind, member).await?;
    let quote = cart.quote()?;
    let summary = &quote.summary;
    let tier = summary.manjian_tiers.iter().find(|tier| tier.status == 0).map(|tier| {
        json!({ "amount": tier.amount, "reduce": tier.reduce, "need": tier.need, "text": format!("再买¥{}可减¥{}", tier.need, tier.reduce) })
    });
    let shipping = summary.shipping.need.map(|need| json!({ "need": need, "text": format!("还差¥{need}免运费") }));
    ok(json!({ "manjian": tier, "shipping": shipping, "free_shipping": summary.shipping.free_shipping }))
}
