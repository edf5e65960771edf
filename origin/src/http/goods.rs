//! The catalogue: the goods list with its filters, sorting and paging, goods detail, search
//! suggestions and hot search terms.
//!
//! Search is a substring match (`LIKE '%…%'`) over one column holding the name, manufacturer,
//! specification, approval number and brand: Chinese has no spaces to split words on, so a
//! substring is what a buyer means by "contains"; it needs no tokenizer and runs the same on
//! SQLite and PostgreSQL, and over a catalogue of thousands of goods a scan takes well under a
//! millisecond. (An n-gram index — FTS5 trigram, pg_trgm — is the step for millions.)

use axum::extract::{Path, State};
use axum::response::IntoResponse;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use sqlx::any::AnyRow;
use sqlx::{FromRow, Row};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::ApiContext;
use super::error::{Error, Result, ok};
use super::extract::{MaybeMember, QueryFields};
use crate::db::{Db, Kind};
use crate::{money, now};

pub fn router() -> OpenApiRouter<ApiContext> {
    OpenApiRouter::new()
        .routes(routes!(list))
        .routes(routes!(detail))
        .routes(routes!(search))
        .routes(routes!(hot))
        .routes(routes!(activities))
}

/// The columns of a goods card (alias `g`) as (name, expression), its ladder steps and its
/// running flash sale included, so that one statement reads whole cards (every statement is a
/// hand-off to the database's thread, and a cart list is on the hot path): the steps as
/// `number:price,…` by number, the sale as `id:price:limit:ends_at` (the newest, should two
/// overlap). `now` is the number of the parameter that holds the current time.
/// `string_agg … ORDER BY` is the same in SQLite (3.44 and later; sqlx bundles its own) and
/// PostgreSQL.
fn card_fields(now: usize) -> Vec<(&'static str, String)> {
    let columns = [
        "id",
        "name",
        "sccj",
        "ypgg",
        "bzdw",
        "pzwh",
        "price",
        "base_price",
        "stock",
        "type",
        "is_youx",
        "is_buy",
        "is_dpby",
        "qg_number",
        "ladder_price_type",
        "manjian_id",
        "tags",
    ];
    let mut fields: Vec<(&'static str, String)> = columns.iter().map(|column| (*column, format!("g.{column}"))).collect();
    fields.push((
        "card_ladders",
        "(SELECT string_agg(CAST(l.number AS TEXT) || ':' || CAST(l.price AS TEXT), ',' ORDER BY l.number) \
         FROM goods_ladders l WHERE l.goods_id = g.id)"
            .into(),
    ));
    fields.push((
        "card_sale",
        format!(
            "(SELECT CAST(s.id AS TEXT) || ':' || CAST(s.price AS TEXT) || ':' || CAST(s.limit_number AS TEXT) || ':' || CAST(s.ends_at AS TEXT) \
             FROM flash_sales s WHERE s.goods_id = g.id AND s.starts_at <= ${now} AND s.ends_at > ${now} ORDER BY s.id DESC LIMIT 1)"
        ),
    ));
    fields
}

/// [`card_fields`] as a select list, one column each, read back with [`CardRow`]'s `FromRow`.
pub fn card_columns(now: usize) -> String {
    card_fields(now).iter().map(|(name, expression)| format!("{expression} AS {name}")).collect::<Vec<_>>().join(", ")
}

/// [`card_fields`] as one JSON object (the database's own function for it), read back with
/// [`CardRow`]'s `Deserialize`.
pub fn card_json(kind: Kind, now: usize) -> String {
    let pairs = card_fields(now).iter().map(|(name, expression)| format!("'{name}', {expression}")).collect::<Vec<_>>().join(", ");
    format!("{}({pairs})", kind.json_object())
}

/// What [`card_fields`] select.
#[derive(Debug, Deserialize, sqlx::FromRow)]
pub struct CardRow {
    pub id: i64,
    pub name: String,
    pub sccj: String,
    pub ypgg: String,
    pub bzdw: String,
    pub pzwh: String,
    pub price: i64,
    pub base_price: i64,
    pub stock: i64,
    #[serde(rename = "type")]
    #[sqlx(rename = "type")]
    pub goods_type: i64,
    pub is_youx: i64,
    pub is_buy: i64,
    pub is_dpby: i64,
    pub qg_number: i64,
    pub ladder_price_type: i64,
    pub manjian_id: i64,
    pub tags: String,
    pub card_ladders: Option<String>,
    pub card_sale: Option<String>,
}

/// Escapes `%`, `_` and `\` for a `LIKE … ESCAPE '\'` pattern.
pub fn like_pattern(text: &str) -> String {
    let escaped = text.replace('\\', "\\\\").replace('%', "\\%").replace('_', "\\_");
    format!("%{escaped}%")
}

/// 有货 / 库存紧张 / 缺货.
fn stock_state(stock: i64, is_buy: i64) -> &'static str {
    match (is_buy, stock) {
        (0, _) | (_, 0) => "缺货",
        (_, 1..=20) => "库存紧张",
        _ => "有货",
    }
}

/// `$from, $from+1, …` for `count` parameters.
pub fn placeholders(count: usize, from: usize) -> String {
    (from..from + count).map(|n| format!("${n}")).collect::<Vec<_>>().join(", ")
}

/// The integers of an item of one of [`card_columns`]' aggregated columns (`a:b:…`).
fn integers<const N: usize>(item: &str) -> Result<[i64; N]> {
    let mut parts = item.split(':');
    let mut values = [0; N];
    for value in &mut values {
        *value = parts.next().and_then(|part| part.parse().ok()).ok_or_else(|| anyhow::anyhow!("bad card column item {item:?}"))?;
    }
    Ok(values)
}

/// A goods card: the list views' and the cart's shape of a goods (§3 "Cart goods").
#[derive(Clone, Debug, Serialize)]
pub struct Card {
    pub id: i64,
    pub name: String,
    pub sccj: String,
    pub ypgg: String,
    pub bzdw: String,
    pub pzwh: String,
    pub price: engine::Money,
    pub base_price: engine::Money,
    /// Stock.
    pub number: i64,
    pub stock_state: &'static str,
    pub is_buy: i64,
    pub is_youx: i64,
    #[serde(rename = "type")]
    pub goods_type: i64,
    pub is_dpby: i64,
    pub qg_number: i64,
    pub ladder_price: Vec<Step>,
    pub ladder_price_type: i64,
    pub goods_manjian_id: i64,
    pub tags: Vec<Tag>,
    pub flash_sale: Option<FlashSale>,
    pub goods_image: [String; 1],
    pub ck_id: i64,
}

#[derive(Clone, Debug, Serialize)]
pub struct Step {
    pub number: i64,
    pub price: engine::Money,
}

#[derive(Clone, Debug, Serialize)]
pub struct Tag {
    pub name: String,
    pub describe: &'static str,
    pub is_show: i64,
    #[serde(rename = "isLadder")]
    pub is_ladder: i64,
}

#[derive(Clone, Debug, Serialize)]
pub struct FlashSale {
    pub id: i64,
    pub price: engine::Money,
    pub limit: i64,
    pub ends_at: i64,
}

impl Card {
    /// The goods as the engine reads them: the same values the card shows.
    pub fn engine_goods(&self) -> engine::Goods {
        let steps = self
            .ladder_price
            .iter()
            .map(|step| engine::LadderStep { number: step.number.clamp(1, i64::from(engine::MAX_QUANTITY)) as u32, price: step.price })
            .collect();
        engine::Goods {
            id: self.id,
            is_buy: self.is_buy == 1,
            stock: self.number,
            is_youx: self.is_youx == 1,
            goods_type: Some(self.goods_type),
            is_dpby: self.is_dpby == 1,
            qg_number: self.qg_number,
            base_price: Some(self.base_price),
            ladder: engine::Ladder::new(steps),
            ladder_price_type: Some(self.ladder_price_type),
        }
    }
}

fn tag(name: &str, is_ladder: i64) -> Tag {
    let describe = if is_ladder == 1 { "多买更优惠" } else { tag_description(name) };
    Tag { name: name.to_owned(), describe, is_show: 1, is_ladder }
}

/// Goods cards for rows selected with [`card_columns`].
pub fn cards(rows: &[AnyRow]) -> Result<Vec<Card>> {
    rows.iter().map(|row| card(&CardRow::from_row(row)?)).collect()
}

/// The goods card of what [`card_fields`] selected.
pub fn card(row: &CardRow) -> Result<Card> {
    let CardRow { id, stock, is_buy, manjian_id: manjian, .. } = *row;
    let tag_text = &row.tags;
    let mut tags: Vec<Tag> = tag_text.split(',').filter(|name| !name.is_empty()).map(|name| tag(name, 0)).collect();
    let ladder: Vec<Step> = match &row.card_ladders {
        Some(steps) => steps
            .split(',')
            .map(|step| integers::<2>(step).map(|[number, price]| Step { number, price: money::from_stored(price) }))
            .collect::<Result<_>>()?,
        None => Vec::new(),
    };
    if !ladder.is_empty() {
        tags.push(tag("阶梯价", 1));
    }
    if manjian > 0 && !tag_text.contains('满') {
        tags.push(tag("满", 0));
    }
    let flash_sale = match &row.card_sale {
        Some(sale) => {
            let [sale, price, limit, ends_at] = integers::<4>(sale)?;
            Some(FlashSale { id: sale, price: money::from_stored(price), limit, ends_at })
        }
        None => None,
    };
    if flash_sale.is_some() && !tag_text.contains('秒') {
        tags.push(tag("秒", 0));
    }
    Ok(Card {
        id,
        name: row.name.clone(),
        sccj: row.sccj.clone(),
        ypgg: row.ypgg.clone(),
        bzdw: row.bzdw.clone(),
        pzwh: row.pzwh.clone(),
        price: money::from_stored(row.price),
        base_price: money::from_stored(row.base_price),
        number: stock,
        stock_state: stock_state(stock, is_buy),
        is_buy,
        is_youx: row.is_youx,
        goods_type: row.goods_type,
        is_dpby: row.is_dpby,
        qg_number: row.qg_number,
        ladder_price: ladder,
        ladder_price_type: row.ladder_price_type,
        goods_manjian_id: manjian,
        tags,
        flash_sale,
        goods_image: [format!("/api/images/goods/{id}.svg")],
        ck_id: 0,
    })
}

fn tag_description(tag: &str) -> &'static str {
    match tag {
        "优" => "优选商品",
        "秒" => "限时秒杀",
        "满" => "参与满减活动",
        "换购" => "满额可换购",
        "赠" => "购买有赠品",
        "特" => "特价商品",
        "新" => "新品上架",
        _ => "",
    }
}

const PAGE_SIZE: i64 = 20;
const PAGE_SIZE_MAX: i64 = 100;

/// `GET /api/goods/list`: `category` (with its subcategories), `keyword`, `sccj`
/// (manufacturer), `brand`, `shop` (`general`, `youx`, `zy`, `qx`), zone flags `is_dpby`,
/// `manjian`, `flash`, `everyday`; `sort` (`default`, `sales`, `price`, `new`) and `order`
/// (`asc`, `desc`); `page`, `page_size` (at most 100).
#[utoipa::path(get, path = "/api/goods/list", tag = "商品", responses((status = 200, description = "信封 { code, msg, data }")))]
async fn list(State(context): State<ApiContext>, QueryFields(query): QueryFields) -> Result<impl IntoResponse> {
    let page = query.page()?;
    let page_size = query.int_or("page_size", "每页数量", PAGE_SIZE)?.clamp(1, PAGE_SIZE_MAX);
    let mut filter = Filter::default();
    if let Some(keyword) = query.text("keyword").or_else(|| query.text("keywords")) {
        filter.add(|n| format!("g.search_text LIKE ${n} ESCAPE '\\'"), Param::Text(like_pattern(&keyword.to_ascii_lowercase())));
    }
    if let Some(sccj) = query.text("sccj") {
        filter.add(|n| format!("g.sccj = ${n}"), Param::Text(sccj));
    }
    if let Some(category) = query.int("category", "分类")? {
        let subtree = category_subtree(&context.db, category).await?;
        if subtree.is_empty() {
            return Err(Error::field("category", "分类不存在"));
        }
        let ids = subtree.iter().map(|id| id.to_string()).collect::<Vec<_>>().join(", ");
        filter.condition(format!("g.category_id IN ({ids})"));
    }
    if let Some(brand) = query.int("brand", "品牌")? {
        filter.add(|n| format!("g.brand_id = ${n}"), Param::Int(brand));
    }
    match query.text("shop").as_deref() {
        None | Some("all") => {}
        Some("general") => filter.condition("g.type NOT IN (2, 3)".into()),
        Some("youx") => filter.condition("g.is_youx = 1".into()),
        Some("zy") => filter.condition("g.type = 2".into()),
        Some("qx") => filter.condition("g.type = 3".into()),
        Some(_) => return Err(Error::field("shop", "店铺类型不正确")),
    }
    if query.int("is_dpby", "包邮")? == Some(1) {
        filter.condition("g.is_dpby = 1".into());
    }
    if query.int("manjian", "满减")? == Some(1) {
        filter.condition("g.manjian_id > 0".into());
    }
    if query.int("everyday", "天天特价")? == Some(1) {
        filter.condition("g.id IN (SELECT goods_id FROM everyday_specials)".into());
    }
    if query.int("flash", "秒杀")? == Some(1) {
        filter.add(|n| format!("g.id IN (SELECT goods_id FROM flash_sales WHERE starts_at <= ${n} AND ends_at > ${n})"), Param::Int(now()));
    }
    let descending = match query.text("order").as_deref() {
        None => None,
        Some("asc") => Some(false),
        Some("desc") => Some(true),
        Some(_) => return Err(Error::field("order", "排序方向不正确")),
    };
    let direction = |default_descending: bool| if descending.unwrap_or(default_descending) { "DESC" } else { "ASC" };
    let order = match query.text("sort").as_deref() {
        None | Some("default") => "g.is_buy DESC, g.stock > 0 DESC, g.id ASC".to_owned(),
        Some("sales") => format!("g.sales {}, g.id ASC", direction(true)),
        Some("price") => format!("g.price {}, g.id ASC", direction(false)),
        Some("new") => format!("g.created_at {}, g.id DESC", direction(true)),
        Some(_) => return Err(Error::field("sort", "排序方式不正确")),
    };
    let condition = filter.sql();
    let total: i64 = filter
        .bind_scalar(sqlx::query_scalar(sqlx::AssertSqlSafe(format!("SELECT COUNT(*) FROM goods g {condition}"))))
        .fetch_one(&context.db.pool)
        .await?;
    let offset = (page - 1) * page_size;
    // The clock for the cards' flash sales is the parameter after the filter's.
    let columns = card_columns(filter.params.len() + 1);
    let sql = format!("SELECT {columns} FROM goods g {condition} ORDER BY {order} LIMIT {page_size} OFFSET {offset}");
    let rows = filter.bind(sqlx::query(sqlx::AssertSqlSafe(sql))).bind(now()).fetch_all(&context.db.pool).await?;
    ok(json!({
        "list": cards(&rows)?,
        "total": total,
        "page": page,
        "page_size": page_size,
        "last_page": ((total + page_size - 1) / page_size).max(1),
    }))
}

enum Param {
    Text(String),
    Int(i64),
}

/// A `WHERE` clause built condition by condition, with its parameters numbered in order.
#[derive(Default)]
struct Filter {
    conditions: Vec<String>,
    params: Vec<Param>,
}

impl Filter {
    fn condition(&mut self, sql: String) {
        self.conditions.push(sql);
    }

    /// A condition with one parameter; `sql` gets the parameter's number.
    fn add(&mut self, sql: impl FnOnce(usize) -> String, param: Param) {
        self.params.push(param);
        self.conditions.push(sql(self.params.len()));
    }

    fn sql(&self) -> String {
        if self.conditions.is_empty() { String::new() } else { format!("WHERE {}", self.conditions.join(" AND ")) }
    }

    fn bind<'q>(
        &self,
        query: sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments>,
    ) -> sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments> {
        self.params.iter().fold(query, |query, param| match param {
            Param::Text(text) => query.bind(text.clone()),
            Param::Int(number) => query.bind(*number),
        })
    }

    fn bind_scalar<'q>(
        &self,
        query: sqlx::query::QueryScalar<'q, sqlx::Any, i64, sqlx::any::AnyArguments>,
    ) -> sqlx::query::QueryScalar<'q, sqlx::Any, i64, sqlx::any::AnyArguments> {
        self.params.iter().fold(query, |query, param| match param {
            Param::Text(text) => query.bind(text.clone()),
            Param::Int(number) => query.bind(*number),
        })
    }
}

/// The ids of a category and all its descendants (empty when it does not exist).
pub async fn category_subtree(db: &Db, category: i64) -> Result<Vec<i64>> {
    let mut subtree: Vec<i64> = sqlx::query_scalar("SELECT id FROM categories WHERE id = $1").bind(category).fetch_all(&db.pool).await?;
    let mut frontier = subtree.clone();
    while !frontier.is_empty() {
        let sql = format!("SELECT id FROM categories WHERE parent_id IN ({})", placeholders(frontier.len(), 1));
        let mut query = sqlx::query_scalar::<_, i64>(sqlx::AssertSqlSafe(sql.clone()));
        for id in &frontier {
            query = query.bind(*id);
        }
        frontier = query.fetch_all(&db.pool).await?;
        subtree.extend(&frontier);
    }
    Ok(subtree)
}

/// `GET /api/goods/detail/{id}`, with the §2 query ids echoed (`goods_price_id`,
/// `ladder_price_id`, `goods_manjian_id`, `is_yj`, `is_jxq`).
#[utoipa::path(get, path = "/api/goods/detail/{id}", tag = "商品", responses((status = 200, description = "信封 { code, msg, data }")))]
async fn detail(
    State(context): State<ApiContext>,
    MaybeMember(member): MaybeMember,
    Path(id): Path<i64>,
    QueryFields(query): QueryFields,
) -> Result<impl IntoResponse> {
    let row = sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT {}, g.category_id, g.brand_id, g.validity, g.jzl, g.origin, g.rx, g.description FROM goods g WHERE g.id = $1",
        card_columns(2)
    )))
    .bind(id)
    .bind(now())
    .fetch_optional(&context.db.pool)
    .await?
    .ok_or_else(|| Error::not_found("商品不存在"))?;
    let card = card(&CardRow::from_row(&row)?)?;
    let mut goods = serde_json::to_value(card).map_err(anyhow::Error::from)?;
    let category: i64 = row.try_get("category_id")?;
    let brand: Option<i64> = row.try_get("brand_id")?;
    let manjian: i64 = row.try_get("manjian_id")?;
    goods["validity"] = json!(row.try_get::<String, _>("validity")?);
    goods["jzl"] = json!(row.try_get::<i64, _>("jzl")?);
    goods["origin"] = json!(row.try_get::<String, _>("origin")?);
    goods["rx"] = json!(row.try_get::<i64, _>("rx")?);
    goods["description"] = json!(row.try_get::<String, _>("description")?);
    goods["category_path"] = json!(category_path(&context.db, category).await?);
    goods["brand"] = match brand {
        Some(brand) => {
            let name: String = sqlx::query_scalar("SELECT name FROM brands WHERE id = $1").bind(brand).fetch_one(&context.db.pool).await?;
            json!({ "id": brand, "name": name })
        }
        None => Value::Null,
    };
    goods["manjian"] = manjian_activity(&context.db, manjian).await?;
    let mut ids = json!({});
    for key in ["goods_price_id", "ladder_price_id", "goods_manjian_id", "is_yj", "is_jxq"] {
        ids[key] = json!(query.int_or(key, key, 0)?);
    }
    goods["query"] = ids;
    let favorite = match member {
        Some(member) => {
            sqlx::query_scalar::<_, i64>("SELECT COUNT(*) FROM favorites WHERE member_id = $1 AND goods_id = $2")
                .bind(member.id)
                .bind(id)
                .fetch_one(&context.db.pool)
                .await?
        }
        None => 0,
    };
    goods["is_favorite"] = json!(favorite);
    ok(goods)
}

/// The category's path from the top: `[{id, name}, …]`.
async fn category_path(db: &Db, category: i64) -> Result<Vec<Value>> {
    let mut path = Vec::new();
    let mut next = Some(category);
    while let Some(id) = next {
        let row = sqlx::query("SELECT id, name, parent_id FROM categories WHERE id = $1").bind(id).fetch_one(&db.pool).await?;
        path.push(json!({ "id": id, "name": row.try_get::<String, _>("name")? }));
        next = row.try_get("parent_id")?;
    }
    path.reverse();
    Ok(path)
}

/// A full-reduction activity and its tiers (`null` for 0).
pub async fn manjian_activity(db: &Db, id: i64) -> Result<Value> {
    if id == 0 {
        return Ok(Value::Null);
    }
    let title: Option<String> =
        sqlx::query_scalar("SELECT title FROM manjian_activities WHERE id = $1").bind(id).fetch_optional(&db.pool).await?;
    let Some(title) = title else { return Ok(Value::Null) };
    let tiers = sqlx::query("SELECT amount, reduce FROM manjian_tiers WHERE activity_id = $1 ORDER BY sort, id")
        .bind(id)
        .fetch_all(&db.pool)
        .await?
        .iter()
        .map(|row| -> Result<Value> {
            let amount: i64 = row.try_get("amount")?;
            let reduce: i64 = row.try_get("reduce")?;
            Ok(json!({ "amount": money::text(amount), "reduce": money::text(reduce), "title": format!("满{}减{}", money::text(amount), money::text(reduce)) }))
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(json!({ "id": id, "title": title, "tiers": tiers }))
}

/// `GET /api/goods/search?keywords=…&type=0|1`: up to 10 suggestions, goods names (type 0) or
/// manufacturers (type 1) containing the trimmed keyword; an empty keyword gives none.
#[utoipa::path(get, path = "/api/goods/search", tag = "商品", responses((status = 200, description = "信封 { code, msg, data }")))]
async fn search(State(context): State<ApiContext>, QueryFields(query): QueryFields) -> Result<impl IntoResponse> {
    let Some(keyword) = query.text("keywords").or_else(|| query.text("keyword")) else { return ok(Vec::<String>::new()) };
    let column = match query.int_or("type", "搜索类型", 0)? {
        0 => "name",
        1 => "sccj",
        _ => return Err(Error::field("type", "搜索类型不正确")),
    };
    let suggestions: Vec<String> = sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
        "SELECT {column} FROM goods WHERE LOWER({column}) LIKE $1 ESCAPE '\\' GROUP BY {column} ORDER BY MAX(sales) DESC, MIN(id) LIMIT 10"
    )))
    .bind(like_pattern(&keyword.to_ascii_lowercase()))
    .fetch_all(&context.db.pool)
    .await?;
    ok(suggestions)
}

/// `GET /api/goods/hot`: the hot search terms.
#[utoipa::path(get, path = "/api/goods/hot", tag = "商品", responses((status = 200, description = "信封 { code, msg, data }")))]
async fn hot(State(context): State<ApiContext>) -> Result<impl IntoResponse> {
    let terms: Vec<String> = sqlx::query_scalar("SELECT term FROM hot_terms ORDER BY sort, id").fetch_all(&context.db.pool).await?;
    ok(terms)
}

/// `GET /api/goods/activities?goods_id=`: the promotions a goods takes part in — its
/// full-reduction activity, a running flash sale, the combinations it is sold in.
#[utoipa::path(get, path = "/api/goods/activities", tag = "商品", responses((status = 200, description = "信封 { code, msg, data }")))]
async fn activities(State(context): State<ApiContext>, QueryFields(query): QueryFields) -> Result<impl IntoResponse> {
    let id = query.int("goods_id", "商品")?.ok_or_else(|| Error::field("goods_id", "请选择商品"))?;
    let manjian: Option<i64> =
        sqlx::query_scalar("SELECT manjian_id FROM goods WHERE id = $1").bind(id).fetch_optional(&context.db.pool).await?;
    let manjian = manjian.ok_or_else(|| Error::not_found("商品不存在"))?;
    let flash_sale = sqlx::query(
        "SELECT id, price, limit_number, ends_at FROM flash_sales WHERE goods_id = $1 AND starts_at <= $2 AND ends_at > $2 ORDER BY id DESC LIMIT 1",
    )
    .bind(id)
    .bind(now())
    .fetch_optional(&context.db.pool)
    .await?
    .map(|row| -> Result<Value> {
        Ok(json!({
            "id": row.try_get::<i64, _>("id")?,
            "price": money::text(row.try_get("price")?),
            "limit": row.try_get::<i64, _>("limit_number")?,
            "ends_at": row.try_get::<i64, _>("ends_at")?,
        }))
    })
    .transpose()?;
    let combinations: Vec<Value> = sqlx::query(
        "SELECT c.id, c.name, c.price FROM combinations c JOIN combination_items i ON i.combination_id = c.id WHERE i.goods_id = $1 ORDER BY c.id",
    )
    .bind(id)
    .fetch_all(&context.db.pool)
    .await?
    .iter()
    .map(|row| -> Result<Value> {
        Ok(json!({ "id": row.try_get::<i64, _>("id")?, "name": row.try_get::<String, _>("name")?, "price": money::text(row.try_get("price")?) }))
    })
    .collect::<Result<_>>()?;
    ok(json!({ "manjian": manjian_activity(&context.db, manjian).await?, "flash_sale": flash_sale, "combinations": combinations }))
}
