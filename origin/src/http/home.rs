//! The home page and the shell's shared data: the common block (§3 "Home common response"),
//! banners, right-hand ads, links, the flash-sale floor, recommendations, daily specials, the
//! category menu and article categories. None of it depends on the member, so the edge may
//! cache it.

use std::collections::HashMap;

use axum::extract::{Path, State};
use axum::response::IntoResponse;
use serde_json::{Value, json};
use sqlx::Row;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::ApiContext;
use super::card::{card_columns, cards};
use super::error::{Error, Result, ok};
use super::extract::QueryFields;
use crate::db::Db;
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
        .routes(routes!(brand_focus))
        .routes(routes!(links))
        .routes(routes!(spike))
        .routes(routes!(recommendations))
        .routes(routes!(everyday))
        .routes(routes!(menu_category))
        .routes(routes!(article_categories))
}

/// `GET /api/index`: `rnss` (hot terms), `nav` (≤ 9), `category`, `category_yx`,
/// `category_zy`, `category_qx`, `brand`, `timestamp` (the server clock).
#[utoipa::path(get, path = "/api/index", tag = "首页", responses((status = 200, description = "信封 { code, msg, data }")))]
async fn common(State(context): State<ApiContext>) -> Result<impl IntoResponse> {
    let db = &context.db;
    let rnss: Vec<String> = sqlx::query_scalar("SELECT term FROM hot_terms ORDER BY sort, id").fetch_all(&db.pool).await?;
    let nav: Vec<Value> = sqlx::query("SELECT id, name, url, image, is_open FROM nav ORDER BY sort, id")
        .fetch_all(&db.pool)
        .await?
        .iter()
        .take(NAV_MAX)
        .map(|row| -> Result<Value> {
            Ok(json!({
                "id": row.try_get::<i64, _>("id")?, "name": row.try_get::<String, _>("name")?,
                "url": row.try_get::<String, _>("url")?, "image": row.try_get::<String, _>("image")?,
                "is_open": row.try_get::<i64, _>("is_open")?, "children": [],
            }))
        })
        .collect::<Result<_>>()?;
    let brand: Vec<Value> = sqlx::query("SELECT id, name, logo, manufacturer FROM brands ORDER BY sort, id")
        .fetch_all(&db.pool)
        .await?
        .iter()
        .map(|row| -> Result<Value> {
            Ok(json!({
                "id": row.try_get::<i64, _>("id")?, "name": row.try_get::<String, _>("name")?,
                "logo": row.try_get::<String, _>("logo")?, "sccj": row.try_get::<String, _>("manufacturer")?,
            }))
        })
        .collect::<Result<_>>()?;
    ok(json!({
        "rnss": rnss,
        "nav": nav,
        "category": category_tree(db, None).await?,
        "category_yx": category_tree(db, Some("general")).await?,
        "category_zy": category_tree(db, Some("zy")).await?,
        "category_qx": category_tree(db, Some("qx")).await?,
        "brand": brand,
        "timestamp": now(),
    }))
}

/// The category trees, `{id, name, logo, logo1, children}`, of every top-level category (or of
/// those of one shop type).
pub async fn category_tree(db: &Db, shop: Option<&str>) -> Result<Vec<Value>> {
    let rows = sqlx::query("SELECT id, parent_id, name, shop, logo FROM categories ORDER BY sort, id").fetch_all(&db.pool).await?;
    let mut children: HashMap<Option<i64>, Vec<(i64, String, String, String)>> = HashMap::new();
    for row in &rows {
        children.entry(row.try_get("parent_id")?).or_default().push((
            row.try_get("id")?,
            row.try_get("name")?,
            row.try_get("shop")?,
            row.try_get("logo")?,
        ));
    }
    fn build(id: i64, name: &str, logo: &str, children: &HashMap<Option<i64>, Vec<(i64, String, String, String)>>) -> Value {
        let kids: Vec<Value> = children
            .get(&Some(id))
            .map(|list| list.iter().map(|(id, name, _, logo)| build(*id, name, logo, children)).collect())
            .unwrap_or_default();
        json!({ "id": id, "name": name, "logo": logo, "logo1": logo, "children": kids })
    }
    Ok(children
        .get(&None)
        .map(|roots| {
            roots
                .iter()
                .filter(|(_, _, root_shop, _)| shop.is_none_or(|shop| shop == root_shop))
                .map(|(id, name, _, logo)| build(*id, name, logo, &children))
                .collect()
        })
        .unwrap_or_default())
}

async fn ads(db: &Db, position: &str) -> Result<Vec<Value>> {
    sqlx::query("SELECT id, title, subtitle, url, image, color FROM ads WHERE position = $1 ORDER BY sort, id")
        .bind(position)
        .fetch_all(&db.pool)
        .await?
        .iter()
        .map(|row| -> Result<Value> {
            Ok(json!({
                "id": row.try_get::<i64, _>("id")?, "title": row.try_get::<String, _>("title")?,
                "subtitle": row.try_get::<String, _>("subtitle")?, "url": row.try_get::<String, _>("url")?,
                "image": row.try_get::<String, _>("image")?, "color": row.try_get::<String, _>("color")?,
            }))
        })
        .collect()
}

/// `GET /api/focus`: the home banners, `{url, image}` and more.
#[utoipa::path(get, path = "/api/focus", tag = "首页", responses((status = 200, description = "信封 { code, msg, data }")))]
async fn focus(State(context): State<ApiContext>) -> Result<impl IntoResponse> {
    ok(ads(&context.db, "focus").await?)
}

/// `GET /api/focus/right?position=…`: the right-hand ad of one position.
#[utoipa::path(get, path = "/api/focus/right", tag = "首页", responses((status = 200, description = "信封 { code, msg, data }")))]
async fn right(State(context): State<ApiContext>, QueryFields(query): QueryFields) -> Result<impl IntoResponse> {
    let position = query.text("position").or_else(|| query.text("key")).unwrap_or_else(|| "common".into());
    if !RIGHT_POSITIONS.contains(&position.as_str()) {
        return Err(Error::field("position", "广告位置不正确"));
    }
    ok(ads(&context.db, &position).await?)
}

/// `GET /api/focus/brand/{id}`: a brand and its goods, for the brand zone.
#[utoipa::path(get, path = "/api/focus/brand/{id}", tag = "首页", responses((status = 200, description = "信封 { code, msg, data }")))]
async fn brand_focus(State(context): State<ApiContext>, Path(id): Path<i64>) -> Result<impl IntoResponse> {
    let row = sqlx::query("SELECT id, name, manufacturer, logo FROM brands WHERE id = $1")
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
    ok(json!({
        "id": id,
        "name": row.try_get::<String, _>("name")?,
        "sccj": row.try_get::<String, _>("manufacturer")?,
        "logo": row.try_get::<String, _>("logo")?,
        "goods": cards(&goods)?,
    }))
}

/// `GET /api/global/links`: the footer's links.
#[utoipa::path(get, path = "/api/global/links", tag = "首页", responses((status = 200, description = "信封 { code, msg, data }")))]
async fn links(State(context): State<ApiContext>) -> Result<impl IntoResponse> {
    let links: Vec<Value> = sqlx::query("SELECT name, url FROM links ORDER BY sort, id")
        .fetch_all(&context.db.pool)
        .await?
        .iter()
        .map(|row| -> Result<Value> { Ok(json!({ "name": row.try_get::<String, _>("name")?, "url": row.try_get::<String, _>("url")? })) })
        .collect::<Result<_>>()?;
    ok(links)
}

/// `GET /api/index/spike`: the flash sales running now, soonest ending first, with the server
/// clock for the countdown.
#[utoipa::path(get, path = "/api/index/spike", tag = "首页", responses((status = 200, description = "信封 { code, msg, data }")))]
async fn spike(State(context): State<ApiContext>) -> Result<impl IntoResponse> {
    let time = now();
    let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT {} FROM goods g JOIN flash_sales f ON f.goods_id = g.id \
         WHERE f.starts_at <= $1 AND f.ends_at > $1 ORDER BY f.ends_at, f.id LIMIT 12",
        card_columns(1)
    )))
    .bind(time)
    .fetch_all(&context.db.pool)
    .await?;
    ok(json!({ "timestamp": time, "list": cards(&rows)? }))
}

/// `GET /api/index_wntj/{page}`: 为您推荐, the best sellers that can be bought, 12 a page.
#[utoipa::path(get, path = "/api/index_wntj/{page}", tag = "首页", responses((status = 200, description = "信封 { code, msg, data }")))]
async fn recommendations(State(context): State<ApiContext>, Path(page): Path<i64>) -> Result<impl IntoResponse> {
    let page = page.clamp(1, super::extract::PAGE_MAX);
    let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT {} FROM goods g WHERE g.is_buy = 1 AND g.stock > 0 ORDER BY g.sales DESC, g.id LIMIT 12 OFFSET $1",
        card_columns(2)
    )))
    .bind((page - 1) * 12)
    .bind(now())
    .fetch_all(&context.db.pool)
    .await?;
    ok(json!({ "page": page, "list": cards(&rows)? }))
}

/// `GET /api/activity/everyday_price`: 天天特价.
#[utoipa::path(get, path = "/api/activity/everyday_price", tag = "首页", responses((status = 200, description = "信封 { code, msg, data }")))]
async fn everyday(State(context): State<ApiContext>) -> Result<impl IntoResponse> {
    let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT {} FROM goods g JOIN everyday_specials e ON e.goods_id = g.id ORDER BY e.sort, g.id",
        card_columns(1)
    )))
    .bind(now())
    .fetch_all(&context.db.pool)
    .await?;
    ok(cards(&rows)?)
}

/// `GET /api/category?select={id}` with `qx=2` or `zy=2`: the menu entries (`{id, name,
/// logo1, children}`) of the device or herb shop, or of the category `select`.
#[utoipa::path(get, path = "/api/category", tag = "首页", responses((status = 200, description = "信封 { code, msg, data }")))]
async fn menu_category(State(context): State<ApiContext>, QueryFields(query): QueryFields) -> Result<impl IntoResponse> {
    let shop = if query.int("qx", "器械")? == Some(2) {
        Some("qx")
    } else if query.int("zy", "中药")? == Some(2) {
        Some("zy")
    } else {
        None
    };
    let trees = category_tree(&context.db, shop).await?;
    let Some(select) = query.int("select", "分类")? else { return ok(Value::Array(trees)) };
    fn find(trees: &[Value], id: i64) -> Option<Value> {
        trees.iter().find_map(|tree| if tree["id"] == id { Some(tree.clone()) } else { find(tree["children"].as_array()?, id) })
    }
    ok(find(&trees, select).ok_or_else(|| Error::not_found("分类不存在"))?)
}

/// `GET /api/article/category`: help groups with their articles (`category_id=3`, the
/// default), or the news (`category_id=hy|company`).
#[utoipa::path(get, path = "/api/article/category", tag = "首页", responses((status = 200, description = "信封 { code, msg, data }")))]
async fn article_categories(State(context): State<ApiContext>, QueryFields(query): QueryFields) -> Result<impl IntoResponse> {
    let category = query.text("category_id").unwrap_or_else(|| "3".into());
    if category == "3" {
        let rows = sqlx::query("SELECT id, group_name, path, title FROM articles WHERE kind = 'help' ORDER BY sort, id")
            .fetch_all(&context.db.pool)
            .await?;
        let mut groups: Vec<(String, Vec<Value>)> = Vec::new();
        for row in &rows {
            let group: String = row.try_get("group_name")?;
            let item = json!({ "id": row.try_get::<i64, _>("id")?, "title": row.try_get::<String, _>("title")?, "path": row.try_get::<String, _>("path")? });
            match groups.last_mut() {
                Some((name, items)) if *name == group => items.push(item),
                _ => groups.push((group, vec![item])),
            }
        }
        return ok(groups.into_iter().map(|(name, items)| json!({ "name": name, "list": items })).collect::<Vec<_>>());
    }
    let rows = sqlx::query(
        "SELECT id, title, summary, published_on FROM articles WHERE kind = 'news' AND category = $1 ORDER BY published_on DESC, id",
    )
    .bind(&category)
    .fetch_all(&context.db.pool)
    .await?;
    let news: Vec<Value> = rows
        .iter()
        .map(|row| -> Result<Value> {
            Ok(json!({
                "id": row.try_get::<i64, _>("id")?, "title": row.try_get::<String, _>("title")?,
                "summary": row.try_get::<String, _>("summary")?, "date": row.try_get::<String, _>("published_on")?,
            }))
        })
        .collect::<Result<_>>()?;
    ok(news)
}
