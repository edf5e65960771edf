//! The catalogue: the goods list with its filters, sorting and paging, goods detail, search
//! suggestions and hot search terms.
//!
//! Search — the keyword list and the suggestions — asks the in-memory index (`crate::search`):
//! substrings of the name, manufacturer, specification, approval number and brand, and the
//! pinyin of the name and manufacturer, ranked by match quality then sales. The list then
//! applies its filters, sorting and paging in the database to the goods found. Lists without
//! a keyword walk an index in their order (`goods_default_order` and the sort columns' own),
//! deep pages included: the page's ids come from the index alone and only they are read whole;
//! their totals are counted once per catalogue version and filter, and again in the
//! background every few seconds (`CountCache`).

use axum::extract::{Path, State};
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::ApiContext;
use super::card::{Card, CardRow, FlashSale, card, card_columns, cards};
use super::error::{Answer, Envelope, Error, Result, ok};
use super::extract::{MaybeMember, QueryFields};
use crate::db::{Db, Kind};
use crate::search::{self, Hit, Scope};
use crate::{money, now};

pub fn router() -> OpenApiRouter<ApiContext> {
    OpenApiRouter::new()
        .routes(routes!(list))
        .routes(routes!(detail))
        .routes(routes!(search))
        .routes(routes!(hot))
        .routes(routes!(activities))
}

/// `$from, $from+1, …` for `count` parameters.
pub fn placeholders(count: usize, from: usize) -> String {
    (from..from + count).map(|n| format!("${n}")).collect::<Vec<_>>().join(", ")
}

const PAGE_SIZE: i64 = 20;
const PAGE_SIZE_MAX: i64 = 100;

/// A search keyword within its limit (`security::text::KEYWORD`), whichever name it came under.
fn bounded_keyword(keyword: &str) -> Result<()> {
    bounded_search(crate::security::text::KEYWORD.field, keyword)
}

/// A search text of the field `field` within the keyword's limit.
fn bounded_search(field: &str, text: &str) -> Result<()> {
    match crate::security::text::KEYWORD.refusal(text) {
        Some(why) => Err(Error::field(field, why)),
        None => Ok(()),
    }
}

/// What a search's `type` asks for: 0 (the default) goods, found by any of their fields; 1
/// manufacturers (厂家), found by the manufacturer's name or its pinyin.
fn search_type(query: &super::extract::Fields, goods: Scope) -> Result<Scope> {
    match query.int_or("type", "搜索类型", 0)? {
        0 => Ok(goods),
        1 => Ok(Scope::Manufacturer),
        _ => Err(Error::field("type", "搜索类型不正确")),
    }
}

/// The goods every search finds, each with the sum of its match qualities; `None` when there
/// is no search.
fn found_by_all(snapshot: &search::Snapshot, searches: &[(String, Scope)]) -> Option<Vec<Hit>> {
    let mut found: Option<Vec<Hit>> = None;
    for (text, scope) in searches {
        let hits = snapshot.find(text, *scope);
        found = Some(match found {
            None => hits,
            Some(so_far) => {
                let quality: std::collections::HashMap<i64, u32> = hits.iter().map(|hit| (hit.id, hit.quality)).collect();
                so_far
                    .into_iter()
                    .filter_map(|mut hit| {
                        hit.quality += quality.get(&hit.id)?;
                        Some(hit)
                    })
                    .collect()
            }
        });
    }
    found
}

/// `GET /api/goods/list`: `category` (with its subcategories), `keyword` with `type` (0, the
/// default: goods holding it in any searched field; 1: goods whose manufacturer holds it, in
/// characters or pinyin — the header's 厂家 search), `sccj` (the manufacturer holds it, as
/// `type` 1), `brand`, `shop` (`general`, `youx`, `zy`, `qx`), zone flags `is_dpby`,
/// `manjian`, `flash`, `everyday`, `near_expiry` (a batch expiring within 180 days), `kx` (controlled goods); `sort`
/// (`default`, `sales`, `price`, `new`, `expiry`) and `order` (`asc`, `desc`); `page`,
/// `page_size` (at most 100). With a keyword, `default` is by relevance (match quality, then
/// sales).
#[utoipa::path(get, path = "/api/goods/list", operation_id = "goods_list", tag = "商品", responses((status = 200, description = "一页商品", body = Envelope<GoodsPage>)))]
async fn list(State(context): State<ApiContext>, QueryFields(query): QueryFields) -> Answer<GoodsPage> {
    let page = query.page()?;
    let page_size = query.int_or("page_size", "每页数量", PAGE_SIZE)?.clamp(1, PAGE_SIZE_MAX);
    let mut filter = Filter::default();
    let mut searches: Vec<(String, Scope)> = Vec::new();
    let scope = search_type(&query, Scope::All)?;
    if let Some(keyword) = query.text("keyword").or_else(|| query.text("keywords")) {
        bounded_keyword(&keyword)?;
        searches.push((keyword, scope));
    }
    if let Some(sccj) = query.text("sccj") {
        bounded_search("sccj", &sccj)?;
        searches.push((sccj, Scope::Manufacturer));
    }
    let hits = if searches.is_empty() { None } else { found_by_all(&*context.search_snapshot().await?, &searches) };
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
    if query.int("kx", "控销")? == Some(1) {
        filter.condition("g.is_kx = 1".into());
    }
    if query.int("near_expiry", "近效期")? == Some(1) {
        let (today, within) = near_expiry_dates(now());
        filter.add(|n| format!("g.expires_on >= ${n}"), Param::Text(today));
        filter.add(|n| format!("g.expires_on <= ${n}"), Param::Text(within));
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
    let sort = query.text("sort");
    let order = match sort.as_deref() {
        None | Some("default") => "g.is_buy DESC, g.stock > 0 DESC, g.id ASC".to_owned(),
        Some("sales") => format!("g.sales {}, g.id ASC", direction(true)),
        Some("price") => format!("g.price {}, g.id ASC", direction(false)),
        Some("new") => format!("g.created_at {}, g.id DESC", direction(true)),
        Some("expiry") => format!("g.expires_on {}, g.id ASC", direction(false)),
        Some(_) => return Err(Error::field("sort", "排序方式不正确")),
    };
    let by_relevance = hits.is_some() && matches!(sort.as_deref(), None | Some("default"));
    // The goods found, as a condition for the database — unless the list is ranked by the index
    // alone (no other filter), when the database is asked only for the page's cards.
    if let Some(found) = &hits
        && !(by_relevance && filter.conditions.is_empty())
        && !found.is_empty()
    {
        filter.add(|n| id_set(context.db.kind, n), Param::Text(id_list(context.db.kind, found.iter().map(|hit| hit.id))));
    }
    let offset = (page - 1) * page_size;
    let condition = filter.sql();
    let (ids, total) = match hits {
        Some(hits) if hits.is_empty() => (Vec::new(), 0),
        // By relevance: the goods found that pass the other filters (asked in one row: the
        // ids as a JSON array), ranked by the index.
        Some(hits) if by_relevance => {
            let mut ranked = hits;
            if !filter.conditions.is_empty() {
                let sql = match context.db.kind {
                    Kind::Sqlite => format!("SELECT COALESCE(json_group_array(g.id), '[]') FROM goods g {condition}"),
                    Kind::Postgres => format!("SELECT COALESCE(CAST(json_agg(g.id) AS TEXT), '[]') FROM goods g {condition}"),
                };
                let passing: String = filter.bind_scalar(sqlx::query_scalar(sqlx::AssertSqlSafe(sql))).fetch_one(&context.db.pool).await?;
                let passing: std::collections::HashSet<i64> = serde_json::from_str(&passing).map_err(anyhow::Error::from)?;
                ranked.retain(|hit| passing.contains(&hit.id));
            }
            search::rank_top(&mut ranked, (offset + page_size) as usize);
            let total = ranked.len() as i64;
            (ranked.into_iter().skip(offset as usize).take(page_size as usize).map(|hit| hit.id).collect(), total)
        }
        // In a column's order: the page's ids from the index alone, then only they are read.
        _ => {
            let ids: Vec<i64> = filter
                .bind_scalar(sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
                    "SELECT g.id FROM goods g {condition} ORDER BY {order} LIMIT {page_size} OFFSET {offset}"
                ))))
                .fetch_all(&context.db.pool)
                .await?;
            let total = count(&context, &condition, &filter).await?;
            (ids, total)
        }
    };
    let list = if ids.is_empty() {
        Vec::new()
    } else {
        let columns = card_columns(1);
        let sql =
            format!("SELECT {columns} FROM goods g WHERE g.id IN ({})", ids.iter().map(i64::to_string).collect::<Vec<_>>().join(", "));
        let rows = sqlx::query(sqlx::AssertSqlSafe(sql)).bind(now()).fetch_all(&context.db.pool).await?;
        let mut cards = cards(&rows)?;
        let position: std::collections::HashMap<i64, usize> = ids.iter().enumerate().map(|(index, id)| (*id, index)).collect();
        cards.sort_by_key(|card| position.get(&card.id).copied().unwrap_or(usize::MAX));
        cards
    };
    ok(GoodsPage { list, total, page, page_size, last_page: ((total + page_size - 1) / page_size).max(1) })
}

/// How long a list's total is fresh at one catalogue version: the flags of other tables (天天特价)
/// may change it without a new version. An older one is still answered while it is counted
/// again in the background, once.
const COUNT_TTL: std::time::Duration = std::time::Duration::from_secs(10);
/// At most this many totals are kept; past it the cache starts again empty.
const COUNT_ENTRIES: usize = 4096;

/// A total: the catalogue version and time it was counted at, and whether it is being
/// counted again.
struct Counted {
    version: i64,
    at: std::time::Instant,
    total: i64,
    recounting: bool,
}

/// Goods lists' totals by filter, at a catalogue version: counting every goods of a filter is a
/// scan of its index (tens of milliseconds at 500,000 goods), so a total is counted once per
/// version, and again in the background once it is `COUNT_TTL` old — one request counts, the
/// others answer the total they have meanwhile.
#[derive(Default)]
pub struct CountCache {
    entries: std::sync::Mutex<std::collections::HashMap<String, Counted>>,
}

/// What the cache holds for a filter at a version.
enum Cached {
    Fresh(i64),
    /// Old: answer it, and count again (this caller, the only one told so).
    Stale(i64),
    /// Old, and already being counted again.
    Recounting(i64),
    Missing,
}

impl CountCache {
    fn get(&self, key: &str, version: i64) -> Cached {
        let mut entries = self.entries.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        match entries.get_mut(key) {
            Some(counted) if counted.version == version => {
                if counted.at.elapsed() < COUNT_TTL {
                    Cached::Fresh(counted.total)
                } else if counted.recounting {
                    Cached::Recounting(counted.total)
                } else {
                    counted.recounting = true;
                    Cached::Stale(counted.total)
                }
            }
            _ => Cached::Missing,
        }
    }

    fn put(&self, key: String, version: i64, total: i64) {
        let mut entries = self.entries.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if entries.len() >= COUNT_ENTRIES {
            entries.clear();
        }
        entries.insert(key, Counted { version, at: std::time::Instant::now(), total, recounting: false });
    }

    /// A recount failed: the next caller tries again.
    fn release(&self, key: &str) {
        let mut entries = self.entries.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some(counted) = entries.get_mut(key) {
            counted.recounting = false;
        }
    }
}

/// The number of goods passing `condition`: counted when the cache has none at this version;
/// else the cached one, counted again in the background when it is old.
async fn count(context: &ApiContext, condition: &str, filter: &Filter) -> Result<i64> {
    let version = search::catalogue_version(&context.db).await?;
    let key = format!("{condition}\u{1}{}", filter.key());
    let counting = |context: ApiContext, condition: String, filter: Filter| async move {
        filter
            .bind_scalar(sqlx::query_scalar(sqlx::AssertSqlSafe(format!("SELECT COUNT(*) FROM goods g {condition}"))))
            .fetch_one(&context.db.pool)
            .await
    };
    match context.counts.get(&key, version) {
        Cached::Fresh(total) | Cached::Recounting(total) => Ok(total),
        Cached::Stale(total) => {
            let (context, condition, filter) = (context.clone(), condition.to_owned(), filter.clone());
            tokio::spawn(async move {
                match counting(context.clone(), condition, filter).await {
                    Ok(total) => context.counts.put(key, version, total),
                    Err(error) => {
                        tracing::warn!(%error, "a list's total could not be counted again");
                        context.counts.release(&key);
                    }
                }
            });
            Ok(total)
        }
        Cached::Missing => {
            let total: i64 = counting(context.clone(), condition.to_owned(), filter.clone()).await?;
            context.counts.put(key, version, total);
            Ok(total)
        }
    }
}

/// A condition keeping the goods whose ids are in the list bound as parameter `n` (`id_list`).
fn id_set(kind: Kind, n: usize) -> String {
    match kind {
        Kind::Sqlite => format!("g.id IN (SELECT value FROM json_each(${n}))"),
        Kind::Postgres => format!("g.id = ANY(CAST(${n} AS BIGINT[]))"),
    }
}

/// Ids as one parameter: a JSON array for SQLite's `json_each`, an array literal for
/// PostgreSQL.
fn id_list(kind: Kind, ids: impl Iterator<Item = i64>) -> String {
    let joined = ids.map(|id| id.to_string()).collect::<Vec<_>>().join(",");
    match kind {
        Kind::Sqlite => format!("[{joined}]"),
        Kind::Postgres => format!("{{{joined}}}"),
    }
}

/// One page of goods cards.
#[derive(Serialize, ToSchema)]
pub struct GoodsPage {
    list: Vec<Card>,
    /// Goods matching, over all pages.
    total: i64,
    page: i64,
    page_size: i64,
    last_page: i64,
}

#[derive(Clone)]
enum Param {
    Text(String),
    Int(i64),
}

/// A `WHERE` clause built condition by condition, with its parameters numbered in order.
#[derive(Clone, Default)]
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

    fn bind_scalar<'q, O>(
        &self,
        query: sqlx::query::QueryScalar<'q, sqlx::Any, O, sqlx::any::AnyArguments>,
    ) -> sqlx::query::QueryScalar<'q, sqlx::Any, O, sqlx::any::AnyArguments> {
        self.params.iter().fold(query, |query, param| match param {
            Param::Text(text) => query.bind(text.clone()),
            Param::Int(number) => query.bind(*number),
        })
    }

    /// The parameters as text, for a cache key.
    fn key(&self) -> String {
        self.params
            .iter()
            .map(|param| match param {
                Param::Text(text) => text.clone(),
                Param::Int(number) => number.to_string(),
            })
            .collect::<Vec<_>>()
            .join("\u{1}")
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
#[utoipa::path(get, path = "/api/goods/detail/{id}", operation_id = "goods_detail", tag = "商品", responses((status = 200, description = "商品详情", body = Envelope<GoodsDetail>)))]
async fn detail(
    State(context): State<ApiContext>,
    MaybeMember(member): MaybeMember,
    Path(id): Path<i64>,
    QueryFields(query): QueryFields,
) -> Answer<GoodsDetail> {
    let row: DetailRow = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {}, g.category_id, g.brand_id, g.validity, g.origin, g.rx, g.description FROM goods g WHERE g.id = $1",
        card_columns(2)
    )))
    .bind(id)
    .bind(now())
    .fetch_optional(&context.db.pool)
    .await?
    .ok_or_else(|| Error::not_found("商品不存在"))?;
    let manjian = row.card.manjian_id;
    let brand = match row.brand_id {
        Some(brand) => {
            let name: String = sqlx::query_scalar("SELECT name FROM brands WHERE id = $1").bind(brand).fetch_one(&context.db.pool).await?;
            Some(BrandRef { id: brand, name })
        }
        None => None,
    };
    let echo = DetailQuery {
        goods_price_id: query.int_or("goods_price_id", "goods_price_id", 0)?,
        ladder_price_id: query.int_or("ladder_price_id", "ladder_price_id", 0)?,
        goods_manjian_id: query.int_or("goods_manjian_id", "goods_manjian_id", 0)?,
        is_yj: query.int_or("is_yj", "is_yj", 0)?,
        is_jxq: query.int_or("is_jxq", "is_jxq", 0)?,
    };
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
    ok(GoodsDetail {
        card: card(&row.card)?,
        validity: row.validity,
        origin: row.origin,
        rx: row.rx,
        description: row.description,
        category_path: category_path(&context.db, row.category_id).await?,
        brand,
        manjian: manjian_activity(&context.db, manjian).await?,
        query: echo,
        is_favorite: favorite,
    })
}

/// What the detail reads: the card's columns and the detail's own.
#[derive(sqlx::FromRow)]
struct DetailRow {
    #[sqlx(flatten)]
    card: CardRow,
    category_id: i64,
    brand_id: Option<i64>,
    validity: String,
    origin: String,
    rx: i64,
    description: String,
}

/// A goods' detail: its card and more.
#[derive(Serialize, ToSchema)]
pub struct GoodsDetail {
    #[serde(flatten)]
    card: Card,
    /// Shelf life.
    validity: String,
    origin: String,
    /// 1 for prescription medicines.
    rx: i64,
    description: String,
    /// The category's path from the top.
    category_path: Vec<CategoryRef>,
    #[schema(required = true)]
    brand: Option<BrandRef>,
    /// The goods' full-reduction activity.
    #[schema(required = true)]
    manjian: Option<ManjianActivity>,
    /// The §2 query ids, echoed (0 when absent).
    query: DetailQuery,
    /// 1 when the member keeps it among their favourites.
    is_favorite: i64,
}

#[derive(Serialize, ToSchema)]
pub struct CategoryRef {
    id: i64,
    name: String,
}

#[derive(Serialize, ToSchema)]
pub struct BrandRef {
    id: i64,
    name: String,
}

#[derive(Serialize, ToSchema)]
pub struct DetailQuery {
    goods_price_id: i64,
    ladder_price_id: i64,
    goods_manjian_id: i64,
    is_yj: i64,
    is_jxq: i64,
}

/// The category's path from the top: `[{id, name}, …]`.
async fn category_path(db: &Db, category: i64) -> Result<Vec<CategoryRef>> {
    let mut path = Vec::new();
    let mut next = Some(category);
    while let Some(id) = next {
        let row: CategoryLink =
            sqlx::query_as("SELECT id, name, parent_id FROM categories WHERE id = $1").bind(id).fetch_one(&db.pool).await?;
        path.push(CategoryRef { id, name: row.name });
        next = row.parent_id;
    }
    path.reverse();
    Ok(path)
}

#[derive(sqlx::FromRow)]
struct CategoryLink {
    name: String,
    parent_id: Option<i64>,
}

/// A full-reduction activity and its tiers.
#[derive(Serialize, ToSchema)]
pub struct ManjianActivity {
    id: i64,
    title: String,
    tiers: Vec<ManjianTierText>,
}

/// One tier of a full-reduction activity, as the detail shows it.
#[derive(Serialize, ToSchema)]
pub struct ManjianTierText {
    #[schema(example = "500.00")]
    amount: String,
    #[schema(example = "50.00")]
    reduce: String,
    #[schema(example = "满500减50")]
    title: String,
}

#[derive(sqlx::FromRow)]
struct TierRow {
    amount: i64,
    reduce: i64,
}

/// A full-reduction activity and its tiers (`None`, written `null`, for 0).
pub async fn manjian_activity(db: &Db, id: i64) -> Result<Option<ManjianActivity>> {
    if id == 0 {
        return Ok(None);
    }
    let title: Option<String> =
        sqlx::query_scalar("SELECT title FROM manjian_activities WHERE id = $1").bind(id).fetch_optional(&db.pool).await?;
    let Some(title) = title else { return Ok(None) };
    let tiers = sqlx::query_as::<_, TierRow>("SELECT amount, reduce FROM manjian_tiers WHERE activity_id = $1 ORDER BY sort, id")
        .bind(id)
        .fetch_all(&db.pool)
        .await?
        .into_iter()
        .map(|TierRow { amount, reduce }| ManjianTierText {
            amount: money::text(amount),
            reduce: money::text(reduce),
            title: engine::text::manjian_title(money::from_stored(amount), money::from_stored(reduce)),
        })
        .collect();
    Ok(Some(ManjianActivity { id, title, tiers }))
}

/// `GET /api/goods/search?keywords=…&type=0|1`: up to 10 suggestions, goods names (type 0) or
/// manufacturers (type 1) holding the keyword (characters or pinyin), best match first; an
/// empty keyword gives none.
#[utoipa::path(get, path = "/api/goods/search", tag = "商品", responses((status = 200, description = "搜索建议", body = Envelope<Vec<String>>)))]
async fn search(State(context): State<ApiContext>, QueryFields(query): QueryFields) -> Answer<Vec<String>> {
    let Some(keyword) = query.text("keywords").or_else(|| query.text("keyword")) else { return ok(Vec::<String>::new()) };
    bounded_keyword(&keyword)?;
    let scope = search_type(&query, Scope::Name)?;
    ok(context.search_snapshot().await?.suggest(&keyword, scope, 10))
}

/// `GET /api/goods/hot`: the hot search terms.
#[utoipa::path(get, path = "/api/goods/hot", tag = "商品", responses((status = 200, description = "热门搜索词", body = Envelope<Vec<String>>)))]
async fn hot(State(context): State<ApiContext>) -> Answer<Vec<String>> {
    let terms: Vec<String> = sqlx::query_scalar("SELECT term FROM hot_terms ORDER BY sort, id").fetch_all(&context.db.pool).await?;
    ok(terms)
}

/// `GET /api/goods/activities?goods_id=`: the promotions a goods takes part in — its
/// full-reduction activity, a running flash sale, the combinations it is sold in.
#[utoipa::path(get, path = "/api/goods/activities", tag = "商品", responses((status = 200, description = "商品参与的活动", body = Envelope<GoodsActivities>)))]
async fn activities(State(context): State<ApiContext>, QueryFields(query): QueryFields) -> Answer<GoodsActivities> {
    let id = query.int("goods_id", "商品")?.ok_or_else(|| Error::field("goods_id", "请选择商品"))?;
    let manjian: Option<i64> =
        sqlx::query_scalar("SELECT manjian_id FROM goods WHERE id = $1").bind(id).fetch_optional(&context.db.pool).await?;
    let manjian = manjian.ok_or_else(|| Error::not_found("商品不存在"))?;
    let flash_sale = sqlx::query_as::<_, SaleRow>(
        "SELECT id, price, limit_number, ends_at FROM flash_sales WHERE goods_id = $1 AND starts_at <= $2 AND ends_at > $2 ORDER BY id DESC LIMIT 1",
    )
    .bind(id)
    .bind(now())
    .fetch_optional(&context.db.pool)
    .await?
    .map(|sale| FlashSale { id: sale.id, price: money::from_stored(sale.price), limit: sale.limit_number, ends_at: sale.ends_at });
    let combinations = sqlx::query_as::<_, OfferRow>(
        "SELECT c.id, c.name, c.price FROM combinations c JOIN combination_items i ON i.combination_id = c.id WHERE i.goods_id = $1 ORDER BY c.id",
    )
    .bind(id)
    .fetch_all(&context.db.pool)
    .await?
    .into_iter()
    .map(|offer| CombinationOffer { id: offer.id, name: offer.name, price: money::text(offer.price) })
    .collect();
    ok(GoodsActivities { manjian: manjian_activity(&context.db, manjian).await?, flash_sale, combinations })
}

/// The promotions a goods takes part in.
#[derive(Serialize, ToSchema)]
pub struct GoodsActivities {
    #[schema(required = true)]
    manjian: Option<ManjianActivity>,
    /// The running flash sale, `null` when none runs.
    #[schema(required = true)]
    flash_sale: Option<FlashSale>,
    combinations: Vec<CombinationOffer>,
}

/// A combination the goods is sold in, at the combination's price.
#[derive(Serialize, ToSchema)]
pub struct CombinationOffer {
    id: i64,
    name: String,
    #[schema(example = "99.00")]
    price: String,
}

#[derive(sqlx::FromRow)]
struct SaleRow {
    id: i64,
    price: i64,
    limit_number: i64,
    ends_at: i64,
}

#[derive(sqlx::FromRow)]
struct OfferRow {
    id: i64,
    name: String,
    price: i64,
}

/// How far ahead a batch's expiry makes goods near-expiry (近效期).
pub const NEAR_EXPIRY_DAYS: i64 = 180;

/// Today and the last day of the near-expiry window, as `YYYY-MM-DD` in China's time.
pub fn near_expiry_dates(now: i64) -> (String, String) {
    let date = |at: i64| {
        let (year, month, day) = crate::civil_date(at, 8 * 3600);
        format!("{year:04}-{month:02}-{day:02}")
    };
    (date(now), date(now + NEAR_EXPIRY_DAYS * 86_400))
}
