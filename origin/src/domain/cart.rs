//! The cart as read: one statement for the member's lines with their goods cards, flash
//! sales, combinations and full-reduction tiers, in §3's list shape; the engine's input made
//! from exactly those values, and its quote. The cart list, the checkout and the order
//! transaction all read the cart here.

use serde::{Deserialize, Serialize};
use sqlx::AnyConnection;
use utoipa::ToSchema;

use super::catalogue::card::{Card, CardRow, card, card_json};
use super::catalogue::controlled;
use super::catalogue::scope::{OUT_OF_SCOPE, ScopeClass};
use super::catalogue::viewer::Viewer;
use super::{Error, Result};
use crate::db::Kind;
use crate::{money, now};
use engine::contract::CartQuote;

/// Line types (§3): normal, 秒杀 flash sale, 组合购 combination — the engine's, named once.
pub use engine::{LINE_TYPE_COMBINATION as COMBINATION, LINE_TYPE_FLASH_SALE as FLASH_SALE, LINE_TYPE_NORMAL as NORMAL};

/// Orders from this amount ship free.
pub fn free_shipping_from() -> engine::Money {
    engine::Money::from_integer(800).unwrap_or(engine::Money::ZERO)
}

/// A cart of `items` as the shop would quote it (its free-shipping threshold), with the
/// full-reduction tiers `manjians` and an optional settlement: the console's previews price
/// their sample carts through this, as buyers' carts are.
pub fn sample_input(
    items: Vec<engine::CartItem>,
    manjians: Vec<engine::ManjianTier>,
    settlement: Option<engine::SettlementInput>,
) -> engine::CartInput {
    engine::CartInput {
        items,
        shipping_data: engine::ShippingData { shipping_amount: free_shipping_from(), no_trans_order_amount: engine::Money::ZERO },
        activity_data: engine::ActivityData { manjians },
        settlement,
    }
}

/// One cart line in §3's list shape, which is also a `CartItem` of `pricing.md`.
#[derive(Debug, Serialize, ToSchema)]
pub struct CartLine {
    pub id: i64,
    /// 0 normal, 1 秒杀 flash sale, 3 组合购 combination.
    #[serde(rename = "type")]
    pub line_type: i64,
    pub goods_type: i64,
    pub number: i64,
    /// The unit price as things stand now.
    #[schema(value_type = String, example = "12.30")]
    pub price: engine::Money,
    /// The goods' own price.
    #[schema(value_type = String, example = "12.30")]
    pub raw_price: engine::Money,
    pub is_selected: i64,
    pub with_coupon: i64,
    pub goods_price_id: i64,
    pub ladder_price_id: i64,
    pub goods_manjian_id: i64,
    #[schema(value_type = String, example = "0.00")]
    pub goods_manjian_amount: engine::Money,
    pub is_yj: i64,
    pub gift_data: Gift,
    /// A combination line's combination, `null` on other lines.
    #[schema(required = true)]
    pub combination: Option<Combination>,
    pub goods: Card,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Gift {
    total: i64,
    #[serde(rename = "type")]
    kind: i64,
}

/// A combination as the engine's goods: its own stock, buyable while all its goods are.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = CartCombination)]
pub struct Combination {
    pub id: i64,
    pub name: String,
    #[schema(value_type = String, example = "组")]
    pub bzdw: &'static str,
    pub is_buy: i64,
    /// Stock.
    pub number: i64,
    #[serde(rename = "type")]
    pub goods_type: i64,
    pub is_youx: i64,
    pub is_dpby: i64,
    /// Always empty: a combination has no ladder.
    #[schema(value_type = Vec<i64>, max_items = 0)]
    pub ladder_price: [i64; 0],
    /// The set's picture.
    #[schema(example = "/api/images/combination/2.svg")]
    pub image: String,
    /// What one set holds, in the set's order.
    pub items: Vec<CombinationPart>,
    /// The same as one line of text (`阿莫西林胶囊 ×2、布洛芬缓释胶囊 ×1`): what the cart, the
    /// order and the invoice show as the set's specification.
    #[schema(example = "阿莫西林胶囊 0.25g×24粒 ×2、布洛芬缓释胶囊 0.3g×20粒 ×1")]
    pub contents: String,
}

/// One goods of a set and how many of it one set holds.
#[derive(Debug, Clone, Serialize, ToSchema, sqlx::FromRow)]
pub struct CombinationPart {
    #[serde(skip)]
    pub combination_id: i64,
    pub goods_id: i64,
    pub name: String,
    pub ypgg: String,
    pub bzdw: String,
    pub number: i64,
}

impl CombinationPart {
    /// `name spec ×n`, as a set's contents list it.
    fn text(&self) -> String {
        if self.ypgg.is_empty() {
            format!("{} ×{}", self.name, self.number)
        } else {
            format!("{} {} ×{}", self.name, self.ypgg, self.number)
        }
    }
}

/// The picture of combination `id`.
pub fn combination_image(id: i64) -> String {
    format!("/api/images/combination/{id}.svg")
}

/// The goods of the combinations `ids`, each set's in its order.
pub async fn combination_parts(conn: &mut AnyConnection, ids: &[i64]) -> Result<Vec<CombinationPart>> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let marks: Vec<String> = (1..=ids.len()).map(|n| format!("${n}")).collect();
    let sql = format!(
        "SELECT i.combination_id, g.id AS goods_id, g.name, g.ypgg, g.bzdw, i.number \
         FROM combination_items i JOIN goods g ON g.id = i.goods_id WHERE i.combination_id IN ({}) ORDER BY i.combination_id, i.id",
        marks.join(", ")
    );
    let mut query = sqlx::query_as::<_, CombinationPart>(sqlx::AssertSqlSafe(sql));
    for id in ids {
        query = query.bind(*id);
    }
    Ok(query.fetch_all(&mut *conn).await?)
}

/// A set's contents as one line of text.
pub fn contents_text(parts: &[CombinationPart]) -> String {
    parts.iter().map(CombinationPart::text).collect::<Vec<_>>().join("、")
}

/// The free-shipping threshold.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = ShippingData)]
pub struct Shipping {
    #[schema(value_type = String, example = "800.00")]
    shipping_amount: engine::Money,
    #[schema(value_type = String, example = "0.00")]
    no_trans_order_amount: engine::Money,
}

/// The full-reduction activity most selected lines take part in.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = ActivityData)]
pub struct Activity {
    manjians: Vec<Tier>,
}

/// One full-reduction tier.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = ManjianTier)]
pub struct Tier {
    #[schema(value_type = String, example = "500.00")]
    amount: engine::Money,
    #[schema(value_type = String, example = "50.00")]
    reduce: engine::Money,
    #[schema(example = "满500减50")]
    title: String,
}

/// The member's cart, in §3's list shape.
pub struct CartData {
    pub data: Vec<CartLine>,
    pub shipping_data: Shipping,
    pub activity_data: Activity,
}

/// `cart/list`'s answer: the engine input as it is, and the engine's quote of it.
#[derive(Serialize, ToSchema)]
pub struct CartList {
    data: Vec<CartLine>,
    shipping_data: Shipping,
    activity_data: Activity,
    /// The engine's quote of exactly `data`, `shipping_data` and `activity_data`.
    #[schema(value_type = CartQuote)]
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
            settlement: None,
        }
    }

    /// The engine's quote of exactly this cart.
    pub fn quote(&self) -> Result<engine::CartQuote> {
        engine::quote(&self.engine_input()).map_err(|error| Error::Internal(anyhow::anyhow!("{error}")))
    }

    /// The list with the engine's quote; each line's `goods_manjian_amount` is its share of the
    /// full reduction in that quote (rule 8).
    pub fn with_quote(mut self) -> Result<CartList> {
        let quote = self.quote()?;
        for (line, priced) in self.data.iter_mut().zip(&quote.lines) {
            line.goods_manjian_amount = priced
                .goods_manjian_amount
                .to_decimal()
                .and_then(|share| engine::Money::from_decimal(share).ok())
                .unwrap_or(engine::Money::ZERO);
        }
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
    is_yj: i64,
    /// The line's flash sale's price while it runs.
    sale_price: Option<i64>,
    combination_id: Option<i64>,
    combination_name: Option<String>,
    combination_price: Option<i64>,
    combination_stock: Option<i64>,
    combination_is_buy: Option<i64>,
    /// The scope classes of the combination's goods, `class,…`.
    #[serde(default)]
    combination_classes: Option<String>,
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
pub async fn cart_input(conn: &mut AnyConnection, kind: Kind, member: i64) -> Result<CartData> {
    let object = kind.json_object();
    let lines: Option<String> = sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
        "SELECT CAST({array}({object}('g', {card}, 'line_id', c.id, 'line_type', c.type, 'activity_id', c.activity_id, \
         'line_number', c.number, 'line_price', c.price, 'is_selected', c.is_selected, 'with_coupon', c.with_coupon, \
         'goods_price_id', c.goods_price_id, 'ladder_price_id', c.ladder_price_id, \
         'is_yj', c.is_yj, 'sale_price', f.price, 'combination_id', k.id, 'combination_name', k.name, \
         'combination_price', k.price, 'combination_stock', k.stock, \
         'combination_is_buy', (SELECT MIN(x.is_buy) FROM combination_items i JOIN goods x ON x.id = i.goods_id WHERE i.combination_id = k.id), \
         'combination_classes', (SELECT string_agg(CAST(x.scope_class AS TEXT), ',') FROM combination_items i JOIN goods x ON x.id = i.goods_id WHERE i.combination_id = k.id), \
         'line_tiers', (SELECT string_agg(CAST(t.amount AS TEXT) || ':' || CAST(t.reduce AS TEXT), ',' ORDER BY t.sort, t.id) \
                        FROM manjian_tiers t WHERE t.activity_id = g.manjian_id)) \
         ORDER BY c.id DESC) AS TEXT) \
         FROM cart_items c JOIN goods g ON g.id = c.goods_id \
         LEFT JOIN flash_sales f ON c.type = {FLASH_SALE} AND f.id = c.activity_id AND f.starts_at <= $2 AND f.ends_at > $2 \
         LEFT JOIN combinations k ON c.type = {COMBINATION} AND k.id = c.activity_id \
         WHERE c.member_id = $1",
        array = kind.json_array_agg(),
        card = card_json(kind, 2),
    )))
    .bind(member)
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
    // Controlled goods (控销) are buyable only by members approved for them: asked only when the
    // cart holds some.
    let kx_allowed = !lines.iter().any(|line| line.g.is_kx == 1) || controlled::approved(conn, member).await?;
    let kx_refused = |line: &LineRow| line.g.is_kx == 1 && !kx_allowed;
    // Goods outside the member's business scope cannot be bought (their cards say so); a
    // combination cannot when any of its goods is outside it.
    let viewer = Viewer::buyer(conn, member).await?;
    let out_of_scope = |line: &LineRow| {
        let Some(scope) = &viewer.scope else { return false };
        let mut classes = vec![line.g.scope_class];
        if line.line_type == COMBINATION {
            classes
                .extend(line.combination_classes.as_deref().unwrap_or_default().split(',').filter_map(|class| class.parse::<i64>().ok()));
        }
        classes.into_iter().filter_map(ScopeClass::from_code).any(|class| !scope.allows(class))
    };
    let unsellable: Vec<i64> = lines
        .iter()
        .filter(|line| {
            let sale_over = line.line_type == FLASH_SALE && line.sale_price.is_none();
            let refused = kx_refused(line) || out_of_scope(line);
            line.is_selected == 1 && (line.g.is_buy == 0 || line.g.stock <= 0 || sale_over || refused)
        })
        .map(|line| line.line_id)
        .collect();
    for id in &unsellable {
        sqlx::query("UPDATE cart_items SET is_selected = 0 WHERE id = $1 AND member_id = $2")
            .bind(id)
            .bind(member)
            .execute(&mut *conn)
            .await?;
    }
    let mut data = Vec::with_capacity(lines.len());
    // Each selected line's full-reduction activity, and the tiers of each.
    let mut activities: Vec<i64> = Vec::new();
    let mut tiers: Vec<(i64, Option<&str>)> = Vec::new();
    for line in &lines {
        let mut goods = card(&line.g, &viewer)?;
        if kx_refused(line) {
            goods.is_buy = 0;
            goods.refusal = controlled::NOT_APPROVED;
        }
        if out_of_scope(line) {
            goods.is_buy = 0;
            goods.out_of_scope = 1;
            goods.refusal = OUT_OF_SCOPE;
        }
        // A normal line takes part in its goods' full-reduction activity while that runs (the
        // card's `manjian_id`), whatever it was when the line was added.
        let manjian = if line.line_type == NORMAL { line.g.manjian_id } else { 0 };
        let is_selected = if unsellable.contains(&line.line_id) { 0 } else { line.is_selected };
        if manjian > 0 && is_selected == 1 {
            activities.push(manjian);
            if !tiers.iter().any(|(activity, _)| *activity == manjian) {
                tiers.push((manjian, line.line_tiers.as_deref()));
            }
        }
        // Lines are priced as things stand now: the goods' price, the flash sale's while it
        // runs (after it the line cannot be bought), the combination's. The buyer's own cards
        // show their prices.
        let own_price = goods.price.ok_or_else(|| anyhow::anyhow!("goods {} without its price in the cart", goods.id))?;
        let price = match line.line_type {
            FLASH_SALE => match line.sale_price {
                Some(price) => money::from_stored(price)?,
                None => {
                    goods.is_buy = 0;
                    money::from_stored(line.line_price)?
                }
            },
            COMBINATION => money::from_stored(line.combination_price.unwrap_or(line.line_price))?,
            _ => own_price,
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
            raw_price: own_price,
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
    // The contents of the sets in the cart: read only when it holds some.
    let sets: Vec<i64> = data.iter().filter_map(|line| line.combination.as_ref().map(|set| set.id)).collect();
    if !sets.is_empty() {
        let parts = combination_parts(conn, &sets).await?;
        for set in data.iter_mut().filter_map(|line| line.combination.as_mut()) {
            set.items = parts.iter().filter(|part| part.combination_id == set.id).cloned().collect();
            set.contents = contents_text(&set.items);
        }
    }
    let activity = most_common(&activities);
    let manjians = match activity {
        Some(activity) => manjian_tiers(tiers.into_iter().find(|(id, _)| *id == activity).and_then(|(_, tiers)| tiers))?,
        None => Vec::new(),
    };
    // The engine counts every line with an activity toward the tiers it is given (rule 8): a
    // line of another activity is listed outside it.
    for line in &mut data {
        if Some(line.goods_manjian_id) != activity {
            line.goods_manjian_id = 0;
        }
    }
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
            let amount = money::from_stored(amount.parse().map_err(anyhow::Error::from)?)?;
            let reduce = money::from_stored(reduce.parse().map_err(anyhow::Error::from)?)?;
            Ok(Tier { amount, reduce, title: engine::text::manjian_title(amount, reduce) })
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
        image: combination_image(line.combination_id.unwrap_or(line.activity_id)),
        items: Vec::new(),
        contents: String::new(),
    }
}
