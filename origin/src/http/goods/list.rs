//! `GET /api/goods/list`: the goods list with its filters, sorting and paging, the keyword
//! list from the search index, and the totals kept per counted version and filter
//! (`CountCache`).

use axum::extract::State;
use serde::Serialize;
use utoipa::ToSchema;

use super::query::{GoodsQuery, Shop, Sort};
use super::{near_expiry_dates, placeholders};
use crate::db::{Db, Kind};
use crate::domain::catalogue::card::{Card, card_columns, cards};
use crate::domain::catalogue::viewer::Viewer;
use crate::http::ApiContext;
use crate::http::error::{Answer, Envelope, Error, Result, ok};
use crate::http::extract::Query;
use crate::search::{Hit, Scope};
use crate::{now, search};

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
#[utoipa::path(get, path = "/api/goods/list", params(GoodsQuery), operation_id = "goods_list", tag = "商品", responses((status = 200, description = "一页商品", body = Envelope<GoodsPage>)))]
pub(super) async fn list(State(context): State<ApiContext>, viewer: Viewer, Query(query): Query<GoodsQuery>) -> Answer<GoodsPage> {
    let (page, page_size) = (query.page, query.page_size);
    let mut filter = Filter::default();
    let searches: Vec<(String, Scope)> =
        [query.keyword.map(|keyword| (keyword, query.scope)), query.sccj.map(|sccj| (sccj, Scope::Manufacturer))]
            .into_iter()
            .flatten()
            .collect();
    let hits = if searches.is_empty() { None } else { found_by_all(&*context.search_snapshot().await?, &searches) };
    if let Some(category) = query.category {
        let subtree = category_subtree(&context.db, category).await?;
        if subtree.is_empty() {
            return Err(Error::field("category", "分类不存在"));
        }
        let ids = subtree.iter().map(|id| id.to_string()).collect::<Vec<_>>().join(", ");
        filter.condition(format!("g.category_id IN ({ids})"));
    }
    if let Some(brand) = query.brand {
        filter.add(|n| format!("g.brand_id = ${n}"), Param::Int(brand));
    }
    match query.shop {
        Shop::All => {}
        Shop::General => filter.condition("g.type NOT IN (2, 3)".into()),
        Shop::Youx => filter.condition("g.is_youx = 1".into()),
        Shop::Zy => filter.condition("g.type = 2".into()),
        Shop::Qx => filter.condition("g.type = 3".into()),
    }
    if query.is_dpby {
        filter.condition("g.is_dpby = 1".into());
    }
    if query.manjian {
        filter.add(
            |n| format!("g.manjian_id IN (SELECT m.id FROM manjian_activities m WHERE m.starts_at <= ${n} AND m.ends_at > ${n})"),
            Param::Int(now()),
        );
    }
    if query.everyday {
        filter.condition("g.id IN (SELECT goods_id FROM everyday_specials)".into());
    }
    if query.kx {
        filter.condition("g.is_kx = 1".into());
    }
    if query.near_expiry {
        let (today, within) = near_expiry_dates(now());
        filter.add(|n| format!("g.expires_on >= ${n}"), Param::Text(today));
        filter.add(|n| format!("g.expires_on <= ${n}"), Param::Text(within));
    }
    if query.flash {
        filter.add(|n| format!("g.id IN (SELECT goods_id FROM flash_sales WHERE starts_at <= ${n} AND ends_at > ${n})"), Param::Int(now()));
    }
    let direction = |default_descending: bool| if query.descending.unwrap_or(default_descending) { "DESC" } else { "ASC" };
    let order = match query.sort {
        Sort::Default => "g.is_buy DESC, g.stock > 0 DESC, g.id ASC".to_owned(),
        Sort::Sales => format!("g.sales {}, g.id ASC", direction(true)),
        Sort::Price => format!("g.price {}, g.id ASC", direction(false)),
        Sort::New => format!("g.created_at {}, g.id DESC", direction(true)),
        Sort::Expiry => format!("g.expires_on {}, g.id ASC", direction(false)),
    };
    let by_relevance = hits.is_some() && query.sort == Sort::Default;
    // The goods found, as a condition for the database — unless the list is ranked by the index
    // alone (no other filter), when the database is asked only for the page's cards.
    if let Some(found) = &hits
        && !(by_relevance && filter.conditions.is_empty())
        && !found.is_empty()
    {
        filter.add(
            |n| crate::db::id_set(context.db.kind, "g.id", n),
            Param::Text(crate::db::id_list(context.db.kind, found.iter().map(|hit| hit.id))),
        );
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
        let mut cards = cards(&rows, &viewer)?;
        let position: std::collections::HashMap<i64, usize> = ids.iter().enumerate().map(|(index, id)| (*id, index)).collect();
        cards.sort_by_key(|card| position.get(&card.id).copied().unwrap_or(usize::MAX));
        cards
    };
    ok(GoodsPage { list, total, page, page_size, last_page: ((total + page_size - 1) / page_size).max(1) })
}

/// How long a list's total is fresh at one counted version: the clock may change it without a
/// new version (a 满减 activity or a flash sale starting or ending, a batch coming within 180
/// days). An older one is still answered while it is counted again in the background, once.
const COUNT_TTL: std::time::Duration = std::time::Duration::from_secs(10);

/// At most this many totals are kept; past it the cache starts again empty.
const COUNT_ENTRIES: usize = 4096;

/// A total: the counted version and time it was counted at, and whether it is being counted
/// again.
struct Counted {
    version: i64,
    at: std::time::Instant,
    total: i64,
    recounting: bool,
}

/// Goods lists' totals by filter, at a counted version (`counted_version`: the catalogue
/// version of the last change that can move a count, migration 0047 — a rename or a new
/// specification makes none): counting every goods of a filter is a scan of its index (tens of
/// milliseconds at 500,000 goods), so a total is counted once per counted version, and again in
/// the background once it is `COUNT_TTL` old — one request counts, the others answer the total
/// they have meanwhile. A new counted version (an operator adding goods, moving them to another
/// category, …) is counted by the first request that asks, and the requests that come while it
/// counts wait for its answer instead of counting too: each version costs one count per filter,
/// not one per request.
#[derive(Default)]
pub struct CountCache {
    entries: std::sync::Mutex<std::collections::HashMap<String, Counted>>,
    /// The counts under way, by filter: the version each counts at, and its answer to come.
    flights: std::sync::Mutex<std::collections::HashMap<String, (i64, Flight)>>,
}

/// A total being counted: its answer, once the one request counting it has it.
type Flight = std::sync::Arc<tokio::sync::OnceCell<i64>>;

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

    /// The count of `key` at `version` under way, or a new one this caller makes.
    fn flight(&self, key: &str, version: i64) -> Flight {
        let mut flights = self.flights.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        match flights.get(key) {
            Some((counting, cell)) if *counting == version => cell.clone(),
            _ => {
                let cell = std::sync::Arc::new(tokio::sync::OnceCell::new());
                flights.insert(key.to_owned(), (version, cell.clone()));
                cell
            }
        }
    }

    /// The count of `key` at `version` answered `total`: kept, and its flight over.
    fn land(&self, key: String, version: i64, total: i64) {
        {
            let mut flights = self.flights.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
            if flights.get(&key).is_some_and(|(counting, _)| *counting == version) {
                flights.remove(&key);
            }
        }
        self.put(key, version, total);
    }

    /// A recount failed: the next caller tries again.
    fn release(&self, key: &str) {
        let mut entries = self.entries.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some(counted) = entries.get_mut(key) {
            counted.recounting = false;
        }
    }
}

/// The catalogue version of the last change that can move a list's total (migration 0047).
pub async fn counted_version(db: &Db) -> sqlx::Result<i64> {
    sqlx::query_scalar("SELECT counted_version FROM catalogue_version WHERE id = 1").fetch_one(&db.pool).await
}

/// The number of goods passing `condition`: counted when the cache has none at this version;
/// else the cached one, counted again in the background when it is old.
async fn count(context: &ApiContext, condition: &str, filter: &Filter) -> Result<i64> {
    let version = counted_version(&context.db).await?;
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
            // One request counts; the others asking meanwhile wait for its answer. Should it
            // fail, the next waiter counts.
            let flight = context.counts.flight(&key, version);
            let total = *flight.get_or_try_init(|| counting(context.clone(), condition.to_owned(), filter.clone())).await?;
            context.counts.land(key, version, total);
            Ok(total)
        }
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

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};

    use super::{Cached, CountCache};

    /// Requests asking for a total at a new version while it is counted wait for that one count.
    #[tokio::test]
    async fn a_new_version_is_counted_once_however_many_ask_at_once() {
        let cache = Arc::new(CountCache::default());
        let counts = Arc::new(AtomicUsize::new(0));
        let ask = |version: i64| {
            let (cache, counts) = (cache.clone(), counts.clone());
            tokio::spawn(async move {
                let flight = cache.flight("list", version);
                let total = *flight
                    .get_or_try_init(|| async {
                        counts.fetch_add(1, Ordering::SeqCst);
                        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
                        Ok::<i64, ()>(version * 10)
                    })
                    .await
                    .unwrap();
                cache.land("list".to_owned(), version, total);
                total
            })
        };
        let asking: Vec<_> = (0..8).map(|_| ask(1)).collect();
        for answer in asking {
            assert_eq!(answer.await.unwrap(), 10);
        }
        assert_eq!(counts.load(Ordering::SeqCst), 1);
        assert!(matches!(cache.get("list", 1), Cached::Fresh(10)));
        // The next version is counted again, once, and replaces the total.
        let asking: Vec<_> = (0..4).map(|_| ask(2)).collect();
        for answer in asking {
            assert_eq!(answer.await.unwrap(), 20);
        }
        assert_eq!(counts.load(Ordering::SeqCst), 2);
        assert!(matches!(cache.get("list", 1), Cached::Missing));
        assert!(cache.flights.lock().unwrap().is_empty());
    }

    /// A count that fails leaves the next caller to count.
    #[tokio::test]
    async fn a_failed_count_is_tried_again() {
        let cache = CountCache::default();
        let flight = cache.flight("list", 3);
        assert_eq!(flight.get_or_try_init(|| async { Err::<i64, &str>("down") }).await, Err("down"));
        let total = *cache.flight("list", 3).get_or_try_init(|| async { Ok::<i64, &str>(7) }).await.unwrap();
        assert_eq!(total, 7);
    }
}
