//! The home page and the shell's shared data: the common block (§3 "Home common response"),
//! banners, right-hand ads, links, the flash-sale floor, recommendations, daily specials, the
//! category menu and article categories. None of it depends on the member, so the edge may
//! cache it.

use std::collections::HashMap;

use axum::extract::{Path, State};
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::ApiContext;
use super::error::{Answer, Envelope, Error, Result, ok};
use super::extract::{Fields, FromFields, PageQuery, Query};
use crate::db::Db;
use crate::domain::catalogue::card::{Card, card_columns, cards};
use crate::domain::catalogue::viewer::Viewer;
use crate::domain::promotions::discount_name;
use crate::domain::shop::{Facts, ShopIdentity, fill};
use crate::now;

/// The nav keeps at most this many entries (§9).
pub const NAV_MAX: usize = 9;

/// Right-hand ad positions (§7 `focus/right`).
pub const RIGHT_POSITIONS: [&str; 9] = ["xrtj", "top", "ppzq", "kxzq", "zyzq", "login", "yx", "common", "postList"];

pub fn router() -> OpenApiRouter<ApiContext> {
    OpenApiRouter::new()
        .routes(routes!(common))
        .routes(routes!(focus))
        .routes(routes!(right))
        .routes(routes!(demo))
        .routes(routes!(brand_focus))
        .routes(routes!(brand_list))
        .routes(routes!(welfare))
        .routes(routes!(links))
        .routes(routes!(spike))
        .routes(routes!(recommendations))
        .routes(routes!(everyday))
        .routes(routes!(menu_category))
        .routes(routes!(article_categories))
}

/// The home page's common block.
#[derive(Serialize, ToSchema)]
pub struct HomeData {
    /// Hot search terms.
    rnss: Vec<String>,
    /// At most 9 entries.
    nav: Vec<NavEntry>,
    category: Vec<CategoryNode>,
    /// The general shop's categories.
    category_yx: Vec<CategoryNode>,
    /// The herb shop's categories.
    category_zy: Vec<CategoryNode>,
    /// The device shop's categories.
    category_qx: Vec<CategoryNode>,
    brand: Vec<BrandEntry>,
    /// The server clock, Unix seconds.
    timestamp: i64,
    /// The order amount from which shipping is free (the 包邮专区's rule).
    #[schema(example = "800.00")]
    free_shipping_from: String,
    /// The shop's identity, as the footer states it (`settings`; `origin admin settings`).
    shop: ShopIdentity,
}

/// A nav entry.
#[derive(Serialize, ToSchema, sqlx::FromRow)]
pub struct NavEntry {
    id: i64,
    name: String,
    url: String,
    image: String,
    is_open: i64,
    /// Always empty.
    #[sqlx(skip)]
    #[schema(no_recursion)]
    children: Vec<NavEntry>,
}

/// A brand of the home page.
#[derive(Serialize, ToSchema, sqlx::FromRow)]
pub struct BrandEntry {
    id: i64,
    name: String,
    logo: String,
    /// Manufacturer.
    #[sqlx(rename = "manufacturer")]
    sccj: String,
}

/// A category with its subcategories.
#[derive(Clone, Serialize, ToSchema)]
pub struct CategoryNode {
    id: i64,
    name: String,
    logo: String,
    /// The same as `logo`.
    logo1: String,
    #[schema(no_recursion)]
    children: Vec<CategoryNode>,
}

/// `GET /api/index`: `rnss` (hot terms), `nav` (≤ 9), `category`, `category_yx`,
/// `category_zy`, `category_qx`, `brand`, `timestamp` (the server clock), `free_shipping_from`,
/// `shop` (the shop's identity, for the footer).
#[utoipa::path(get, path = "/api/index", tag = "首页", responses((status = 200, description = "首页公共数据", body = Envelope<HomeData>)))]
async fn common(State(context): State<ApiContext>) -> Answer<HomeData> {
    let db = &context.db;
    let rnss: Vec<String> = sqlx::query_scalar("SELECT term FROM hot_terms ORDER BY sort, id").fetch_all(&db.pool).await?;
    let mut nav: Vec<NavEntry> =
        sqlx::query_as("SELECT id, name, url, image, is_open FROM nav ORDER BY sort, id").fetch_all(&db.pool).await?;
    nav.truncate(NAV_MAX);
    let brand: Vec<BrandEntry> =
        sqlx::query_as("SELECT id, name, logo, manufacturer FROM brands ORDER BY sort, id").fetch_all(&db.pool).await?;
    let shop = crate::domain::shop::read(&mut *db.pool.acquire().await?).await?;
    ok(HomeData {
        rnss,
        nav,
        category: category_tree(db, None).await?,
        category_yx: category_tree(db, Some("general")).await?,
        category_zy: category_tree(db, Some("zy")).await?,
        category_qx: category_tree(db, Some("qx")).await?,
        brand,
        timestamp: now(),
        free_shipping_from: crate::domain::cart::free_shipping_from().to_string(),
        shop,
    })
}

#[derive(sqlx::FromRow)]
struct CategoryRow {
    id: i64,
    parent_id: Option<i64>,
    name: String,
    shop: String,
    logo: String,
}

/// The category trees, `{id, name, logo, logo1, children}`, of every top-level category (or of
/// those of one shop type).
pub async fn category_tree(db: &Db, shop: Option<&str>) -> Result<Vec<CategoryNode>> {
    let rows: Vec<CategoryRow> =
        sqlx::query_as("SELECT id, parent_id, name, shop, logo FROM categories ORDER BY sort, id").fetch_all(&db.pool).await?;
    let mut children: HashMap<Option<i64>, Vec<&CategoryRow>> = HashMap::new();
    for row in &rows {
        children.entry(row.parent_id).or_default().push(row);
    }
    fn build(row: &CategoryRow, children: &HashMap<Option<i64>, Vec<&CategoryRow>>) -> CategoryNode {
        let kids = children.get(&Some(row.id)).map(|list| list.iter().map(|child| build(child, children)).collect()).unwrap_or_default();
        CategoryNode { id: row.id, name: row.name.clone(), logo: row.logo.clone(), logo1: row.logo.clone(), children: kids }
    }
    Ok(children
        .get(&None)
        .map(|roots| roots.iter().filter(|root| shop.is_none_or(|shop| shop == root.shop)).map(|root| build(root, &children)).collect())
        .unwrap_or_default())
}

/// An ad: a banner or a right-hand ad.
#[derive(Serialize, ToSchema, sqlx::FromRow)]
pub struct Ad {
    id: i64,
    title: String,
    subtitle: String,
    url: String,
    image: String,
    color: String,
}

async fn ads(db: &Db, position: &str) -> Result<Vec<Ad>> {
    Ok(sqlx::query_as("SELECT id, title, subtitle, url, image, color FROM ads WHERE position = $1 ORDER BY sort, id")
        .bind(position)
        .fetch_all(&db.pool)
        .await?)
}

/// `GET /api/focus`: the home banners, `{url, image}` and more.
#[utoipa::path(get, path = "/api/focus", tag = "首页", responses((status = 200, description = "首页轮播图", body = Envelope<Vec<Ad>>)))]
async fn focus(State(context): State<ApiContext>) -> Answer<Vec<Ad>> {
    ok(ads(&context.db, "focus").await?)
}

/// `GET /api/focus/right?position=…`: the right-hand ad of one position.
#[utoipa::path(get, path = "/api/focus/right", params(RightQuery), tag = "首页", responses((status = 200, description = "右侧广告", body = Envelope<Vec<Ad>>)))]
async fn right(State(context): State<ApiContext>, Query(RightQuery { position }): Query<RightQuery>) -> Answer<Vec<Ad>> {
    ok(ads(&context.db, &position).await?)
}

/// A right-hand ad position.
#[derive(utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct RightQuery {
    /// `xrtj`, `top`, `ppzq`, `kxzq`, `zyzq`, `login`, `yx`, `common` (absent) or `postList`;
    /// `key` is read when it is absent.
    #[param(value_type = Option<String>)]
    position: String,
}

impl FromFields for RightQuery {
    fn from_fields(query: &Fields) -> Result<RightQuery> {
        let position = query.text("position").or_else(|| query.text("key")).unwrap_or_else(|| "common".into());
        if !RIGHT_POSITIONS.contains(&position.as_str()) {
            return Err(Error::field("position", "广告位置不正确"));
        }
        Ok(RightQuery { position })
    }
}

/// `GET /api/focus/demo?position=…`: the ads of one position as the shop shows them, for a
/// page (an activity or zone template) to show them as its sample: `position` `focus` (the
/// home banners, the default), a right-hand position (`xrtj`, `top`, `ppzq`, `kxzq`, `zyzq`,
/// `login`, `yx`, `common`, `postList`) or `brand:{id}` (a brand's banners); `key` is read when
/// `position` is absent. Any other position answers 422 `广告位置不正确`.
#[utoipa::path(get, path = "/api/focus/demo", params(DemoQuery), operation_id = "focus_demo", tag = "首页", responses((status = 200, description = "广告位的示例广告", body = Envelope<Vec<Ad>>)))]
async fn demo(State(context): State<ApiContext>, Query(DemoQuery { position }): Query<DemoQuery>) -> Answer<Vec<Ad>> {
    ok(ads(&context.db, &position).await?)
}

/// Any ad position.
#[derive(utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct DemoQuery {
    /// `focus` (absent), a right-hand position or `brand:{id}`; `key` is read when it is absent.
    #[param(value_type = Option<String>)]
    position: String,
}

impl FromFields for DemoQuery {
    fn from_fields(query: &Fields) -> Result<DemoQuery> {
        let position = query.text("position").or_else(|| query.text("key")).unwrap_or_else(|| "focus".into());
        let known = position == "focus"
            || RIGHT_POSITIONS.contains(&position.as_str())
            || position.strip_prefix("brand:").is_some_and(|id| !id.is_empty() && id.len() <= 18 && id.bytes().all(|b| b.is_ascii_digit()));
        if !known {
            return Err(Error::field("position", "广告位置不正确"));
        }
        Ok(DemoQuery { position })
    }
}

/// A brand and its best-selling goods.
#[derive(Serialize, ToSchema)]
pub struct BrandZone {
    id: i64,
    name: String,
    /// Manufacturer.
    sccj: String,
    logo: String,
    /// Up to 20 goods, best sellers first.
    goods: Vec<Card>,
}

#[derive(sqlx::FromRow)]
struct BrandRow {
    name: String,
    manufacturer: String,
    logo: String,
}

/// `GET /api/focus/brand/{id}`: a brand and its goods, for the brand zone.
#[utoipa::path(get, path = "/api/focus/brand/{id}", tag = "首页", responses((status = 200, description = "品牌与商品", body = Envelope<BrandZone>)))]
async fn brand_focus(State(context): State<ApiContext>, viewer: Viewer, Path(id): Path<i64>) -> Answer<BrandZone> {
    let brand: BrandRow = sqlx::query_as("SELECT id, name, manufacturer, logo FROM brands WHERE id = $1")
        .bind(id)
        .fetch_optional(&context.db.pool)
        .await?
        .ok_or_else(|| Error::not_found("品牌不存在"))?;
    let goods = sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT {} FROM goods g WHERE g.brand_id = $1 ORDER BY g.sales DESC, g.id LIMIT 20",
        card_columns(2)
    )))
    .bind(id)
    .bind(now())
    .fetch_all(&context.db.pool)
    .await?;
    ok(BrandZone { id, name: brand.name, sccj: brand.manufacturer, logo: brand.logo, goods: cards(&goods, &viewer)? })
}

/// A brand of the brand zone's list.
#[derive(Serialize, ToSchema, sqlx::FromRow)]
pub struct BrandCard {
    id: i64,
    name: String,
    /// Manufacturer.
    sccj: String,
    logo: String,
    /// Its goods in the catalogue.
    goods: i64,
}

/// One page of brands.
#[derive(Serialize, ToSchema)]
pub struct BrandPage {
    list: Vec<BrandCard>,
    total: i64,
    page: i64,
}

/// `GET /api/brand` (`page`): the brands of the brand zone (`/ppzq`), in the shop's order, 12 a
/// page, each with its number of goods.
#[utoipa::path(get, path = "/api/brand", params(PageQuery), operation_id = "brand_list", tag = "首页", responses((status = 200, description = "一页品牌", body = Envelope<BrandPage>)))]
async fn brand_list(State(context): State<ApiContext>, Query(PageQuery { page }): Query<PageQuery>) -> Answer<BrandPage> {
    let total: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM brands").fetch_one(&context.db.pool).await?;
    let list: Vec<BrandCard> = sqlx::query_as(
        "SELECT b.id, b.name, b.manufacturer AS sccj, b.logo, (SELECT COUNT(*) FROM goods g WHERE g.brand_id = b.id) AS goods \
         FROM brands b ORDER BY b.sort, b.id LIMIT 12 OFFSET $1",
    )
    .bind((page - 1) * 12)
    .fetch_all(&context.db.pool)
    .await?;
    ok(BrandPage { list, total, page })
}

/// A footer link.
#[derive(Serialize, ToSchema, sqlx::FromRow)]
pub struct Link {
    name: String,
    url: String,
}

/// `GET /api/global/links`: the footer's links.
#[utoipa::path(get, path = "/api/global/links", tag = "首页", responses((status = 200, description = "友情链接", body = Envelope<Vec<Link>>)))]
async fn links(State(context): State<ApiContext>) -> Answer<Vec<Link>> {
    ok(sqlx::query_as("SELECT name, url FROM links ORDER BY sort, id").fetch_all(&context.db.pool).await?)
}

/// The flash sales running now, with the server clock for the countdown.
#[derive(Serialize, ToSchema)]
pub struct SpikeFloor {
    /// The server clock, Unix seconds.
    timestamp: i64,
    list: Vec<Card>,
}

/// `GET /api/index/spike`: the flash sales running now, soonest ending first, with the server
/// clock for the countdown.
#[utoipa::path(get, path = "/api/index/spike", tag = "首页", responses((status = 200, description = "秒杀楼层", body = Envelope<SpikeFloor>)))]
async fn spike(State(context): State<ApiContext>, viewer: Viewer) -> Answer<SpikeFloor> {
    let time = now();
    let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT {} FROM goods g JOIN flash_sales f ON f.goods_id = g.id \
         WHERE f.starts_at <= $1 AND f.ends_at > $1 ORDER BY f.ends_at, f.id LIMIT 12",
        card_columns(1)
    )))
    .bind(time)
    .fetch_all(&context.db.pool)
    .await?;
    ok(SpikeFloor { timestamp: time, list: cards(&rows, &viewer)? })
}

/// One page of recommendations.
#[derive(Serialize, ToSchema)]
pub struct Recommendations {
    page: i64,
    list: Vec<Card>,
}

/// `GET /api/index_wntj/{page}`: 为您推荐, the best sellers that can be bought, 12 a page.
#[utoipa::path(get, path = "/api/index_wntj/{page}", tag = "首页", responses((status = 200, description = "为您推荐", body = Envelope<Recommendations>)))]
async fn recommendations(State(context): State<ApiContext>, viewer: Viewer, Path(page): Path<i64>) -> Answer<Recommendations> {
    let page = page.clamp(1, super::extract::PAGE_MAX);
    let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT {} FROM goods g WHERE g.is_buy = 1 AND g.stock > 0 ORDER BY g.sales DESC, g.id LIMIT 12 OFFSET $1",
        card_columns(2)
    )))
    .bind((page - 1) * 12)
    .bind(now())
    .fetch_all(&context.db.pool)
    .await?;
    ok(Recommendations { page, list: cards(&rows, &viewer)? })
}

/// `GET /api/activity/everyday_price`: 天天特价.
#[utoipa::path(get, path = "/api/activity/everyday_price", tag = "首页", responses((status = 200, description = "天天特价", body = Envelope<Vec<Card>>)))]
async fn everyday(State(context): State<ApiContext>, viewer: Viewer) -> Answer<Vec<Card>> {
    let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT {} FROM goods g JOIN everyday_specials e ON e.goods_id = g.id ORDER BY e.sort, g.id",
        card_columns(1)
    )))
    .bind(now())
    .fetch_all(&context.db.pool)
    .await?;
    ok(cards(&rows, &viewer)?)
}

/// The running store-wide discount (全场折扣).
#[derive(Serialize, ToSchema)]
pub struct Welfare {
    id: i64,
    title: String,
    /// The rate every goods is priced at (`0.94`).
    #[schema(example = "0.94")]
    rate: String,
    /// The rate as the shop says it (docs/pricing.md rule 23): `9.4折`.
    #[schema(example = "9.4折")]
    discount: String,
    starts_at: i64,
    ends_at: i64,
}

/// `GET /api/activity/welfare`: the store-wide discount running now (`/welfare`, 全场94折), or
/// `null`. While it runs every goods card carries the discounted price, and so does the cart.
#[utoipa::path(get, path = "/api/activity/welfare", operation_id = "welfare", tag = "首页", responses((status = 200, description = "全场折扣", body = Envelope<Option<Welfare>>)))]
async fn welfare(State(context): State<ApiContext>) -> Answer<Option<Welfare>> {
    let row: Option<(i64, String, String, i64, i64)> = sqlx::query_as(
        "SELECT id, title, rate, starts_at, ends_at FROM welfare_activities \
         WHERE is_on = 1 AND starts_at <= $1 AND ends_at > $1 ORDER BY id DESC LIMIT 1",
    )
    .bind(now())
    .fetch_optional(&context.db.pool)
    .await?;
    ok(row.map(|(id, title, rate, starts_at, ends_at)| Welfare { discount: discount_name(&rate), id, title, rate, starts_at, ends_at }))
}

/// The menu: every tree of a shop, or the one category asked for.
#[derive(Serialize, ToSchema)]
#[serde(untagged)]
pub enum Menu {
    Trees(Vec<CategoryNode>),
    One(CategoryNode),
}

/// Which menu: a shop's, or one category of it.
#[derive(utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct MenuQuery {
    /// 2: the device shop's menu.
    qx: Option<i64>,
    /// 2: the herb shop's menu (not read when `qx` is 2).
    zy: Option<i64>,
    /// 分类: that category alone.
    select: Option<i64>,
}

impl FromFields for MenuQuery {
    fn from_fields(query: &Fields) -> Result<MenuQuery> {
        let qx = query.int("qx", "器械")?;
        let zy = if qx == Some(2) { None } else { query.int("zy", "中药")? };
        Ok(MenuQuery { qx, zy, select: query.int("select", "分类")? })
    }
}

/// `GET /api/category?select={id}` with `qx=2` or `zy=2`: the menu entries (`{id, name,
/// logo1, children}`) of the device or herb shop, or of the category `select`.
#[utoipa::path(get, path = "/api/category", params(MenuQuery), tag = "首页", responses((status = 200, description = "分类菜单：全部分类树，或 select 所指的一个分类", body = Envelope<Menu>)))]
async fn menu_category(State(context): State<ApiContext>, Query(MenuQuery { qx, zy, select }): Query<MenuQuery>) -> Answer<Menu> {
    let shop = if qx == Some(2) {
        Some("qx")
    } else if zy == Some(2) {
        Some("zy")
    } else {
        None
    };
    let trees = category_tree(&context.db, shop).await?;
    let Some(select) = select else { return ok(Menu::Trees(trees)) };
    fn find(trees: &[CategoryNode], id: i64) -> Option<&CategoryNode> {
        trees.iter().find_map(|tree| if tree.id == id { Some(tree) } else { find(&tree.children, id) })
    }
    ok(Menu::One(find(&trees, select).cloned().ok_or_else(|| Error::not_found("分类不存在"))?))
}

/// Help groups with their articles, or the news of one category.
#[derive(Serialize, ToSchema)]
#[serde(untagged)]
pub enum Articles {
    Help(Vec<HelpGroup>),
    News(Vec<NewsItem>),
}

/// A group of help articles.
#[derive(Serialize, ToSchema)]
pub struct HelpGroup {
    name: String,
    list: Vec<HelpArticle>,
}

#[derive(Serialize, ToSchema, sqlx::FromRow)]
pub struct HelpArticle {
    id: i64,
    title: String,
    path: String,
}

#[derive(sqlx::FromRow)]
struct HelpRow {
    group_name: String,
    #[sqlx(flatten)]
    article: HelpArticle,
}

/// A news item.
#[derive(Serialize, ToSchema, sqlx::FromRow)]
pub struct NewsItem {
    id: i64,
    title: String,
    summary: String,
    /// The day it was published.
    #[sqlx(rename = "published_on")]
    date: String,
}

/// Which articles: help (`3`, absent) or news (`hy`, `company`).
#[derive(utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ArticleQuery {
    #[param(value_type = Option<String>, example = "3")]
    category_id: String,
}

impl FromFields for ArticleQuery {
    fn from_fields(query: &Fields) -> Result<ArticleQuery> {
        Ok(ArticleQuery { category_id: query.text("category_id").unwrap_or_else(|| "3".into()) })
    }
}

/// `GET /api/article/category`: help groups with their articles (`category_id=3`, the
/// default), or the news (`category_id=hy|company`).
#[utoipa::path(get, path = "/api/article/category", params(ArticleQuery), tag = "首页", responses((status = 200, description = "帮助分组（category_id=3）或新闻", body = Envelope<Articles>)))]
async fn article_categories(
    State(context): State<ApiContext>,
    Query(ArticleQuery { category_id: category }): Query<ArticleQuery>,
) -> Answer<Articles> {
    // Titles and summaries may hold the shop's placeholders, filled as the article's page fills them.
    let shop = crate::domain::shop::read(&mut *context.db.pool.acquire().await?).await?;
    let facts = Facts { pay_minutes: context.pay_minutes };
    if category == "3" {
        let rows: Vec<HelpRow> = sqlx::query_as("SELECT id, group_name, path, title FROM articles WHERE kind = 'help' ORDER BY sort, id")
            .fetch_all(&context.db.pool)
            .await?;
        let mut groups: Vec<HelpGroup> = Vec::new();
        for HelpRow { group_name, mut article } in rows {
            article.title = fill(&article.title, &shop, facts);
            match groups.last_mut() {
                Some(group) if group.name == group_name => group.list.push(article),
                _ => groups.push(HelpGroup { name: group_name, list: vec![article] }),
            }
        }
        return ok(Articles::Help(groups));
    }
    let news: Vec<NewsItem> = sqlx::query_as(
        "SELECT id, title, summary, published_on FROM articles WHERE kind = 'news' AND category = $1 ORDER BY published_on DESC, id",
    )
    .bind(&category)
    .fetch_all(&context.db.pool)
    .await?;
    let news = news
        .into_iter()
        .map(|item| NewsItem { title: fill(&item.title, &shop, facts), summary: fill(&item.summary, &shop, facts), ..item })
        .collect();
    ok(Articles::News(news))
}
