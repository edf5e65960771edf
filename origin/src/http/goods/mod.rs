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

mod detail;
mod list;
pub mod query;

pub use self::list::CountCache;

use axum::extract::State;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use self::query::SuggestQuery;
use super::ApiContext;
use super::error::{Answer, Envelope, Error, Result, ok};
use super::extract::{Fields, Query};
use crate::search::Scope;

pub fn router() -> OpenApiRouter<ApiContext> {
    OpenApiRouter::new()
        .routes(routes!(list::list))
        .routes(routes!(detail::detail))
        .routes(routes!(search))
        .routes(routes!(hot))
        .routes(routes!(detail::activities))
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
fn search_type(query: &Fields, goods: Scope) -> Result<Scope> {
    match query.int_or("type", "搜索类型", 0)? {
        0 => Ok(goods),
        1 => Ok(Scope::Manufacturer),
        _ => Err(Error::field("type", "搜索类型不正确")),
    }
}

/// `GET /api/goods/search?keywords=…&type=0|1`: up to 10 suggestions, goods names (type 0) or
/// manufacturers (type 1) holding the keyword (characters or pinyin), best match first; an
/// empty keyword gives none.
#[utoipa::path(get, path = "/api/goods/search", params(SuggestQuery), tag = "商品", responses((status = 200, description = "搜索建议", body = Envelope<Vec<String>>)))]
async fn search(State(context): State<ApiContext>, Query(query): Query<SuggestQuery>) -> Answer<Vec<String>> {
    let SuggestQuery { keyword, scope } = query;
    let Some(keyword) = keyword else { return ok(Vec::<String>::new()) };
    ok(context.search_snapshot().await?.suggest(&keyword, scope, 10))
}

/// `GET /api/goods/hot`: the hot search terms.
#[utoipa::path(get, path = "/api/goods/hot", tag = "商品", responses((status = 200, description = "热门搜索词", body = Envelope<Vec<String>>)))]
async fn hot(State(context): State<ApiContext>) -> Answer<Vec<String>> {
    let terms: Vec<String> = sqlx::query_scalar("SELECT term FROM hot_terms ORDER BY sort, id").fetch_all(&context.db.pool).await?;
    ok(terms)
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
