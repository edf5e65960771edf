//! The shop's small content blocks as operations keeps them, for the console: banners and ads
//! (`ads`: the home carousel `focus`, the right-hand positions, a brand zone's `brand:{id}`),
//! the nav (`nav`, at most nine shown), the hot search terms (`hot_terms`) and the footer's
//! links (`links`). Each is listed, added, changed and deleted; each write is one transaction
//! with its audit row, the values before and after in it.

use serde::Serialize;
use serde_json::{Value, json};
use sqlx::AnyConnection;
use utoipa::ToSchema;

use super::audit::{self, Actor, Entry};
use super::orders::begin_write;
use crate::domain::{Error, Result};

/// An ad position, and how the console names it.
#[derive(Debug, Serialize, ToSchema)]
pub struct Position {
    pub key: String,
    pub label: String,
}

/// The right-hand positions (§7 `focus/right`) and their places in the shop.
const RIGHT: [(&str, &str); 9] = [
    ("xrtj", "新人推荐"),
    ("top", "首页顶部"),
    ("ppzq", "品牌专区"),
    ("kxzq", "控销专区"),
    ("zyzq", "中药专区"),
    ("login", "登录页"),
    ("yx", "优选专区"),
    ("common", "通用"),
    ("postList", "资讯列表"),
];

/// Every position an ad may take: the home carousel, the right-hand ones and each brand's zone.
pub async fn positions(conn: &mut AnyConnection) -> Result<Vec<Position>> {
    let mut all = vec![Position { key: "focus".into(), label: "首页轮播".into() }];
    all.extend(RIGHT.iter().map(|(key, label)| Position { key: (*key).into(), label: format!("右侧广告·{label}") }));
    let brands: Vec<(i64, String)> = sqlx::query_as("SELECT id, name FROM brands ORDER BY sort, id").fetch_all(&mut *conn).await?;
    all.extend(brands.into_iter().map(|(id, name)| Position { key: format!("brand:{id}"), label: format!("品牌专区·{name}") }));
    Ok(all)
}

/// A banner or ad.
#[derive(Debug, Serialize, sqlx::FromRow, ToSchema)]
pub struct AdRow {
    pub id: i64,
    pub position: String,
    pub title: String,
    pub subtitle: String,
    /// Where it leads: a page of the shop (`/zyyp`) or an `https://` address.
    pub url: String,
    /// Its picture (the shop draws the card from the title, subtitle and colour).
    pub image: String,
    /// `#RRGGBB`, the card's colour.
    pub color: String,
    /// Its place in the position, smallest first.
    pub sort: i64,
}

/// A nav entry.
#[derive(Debug, Serialize, sqlx::FromRow, ToSchema)]
pub struct NavRow {
    pub id: i64,
    pub name: String,
    pub url: String,
    /// 1: opens in a new window.
    pub is_open: i64,
    pub sort: i64,
}

/// A hot search term (热门搜索).
#[derive(Debug, Serialize, sqlx::FromRow, ToSchema)]
pub struct TermRow {
    pub id: i64,
    pub term: String,
    pub sort: i64,
}

/// A footer link (友情链接).
#[derive(Debug, Serialize, sqlx::FromRow, ToSchema)]
pub struct LinkRow {
    pub id: i64,
    pub name: String,
    pub url: String,
    pub sort: i64,
}

/// Every block, as the console's 内容 screen shows them.
#[derive(Debug, Serialize, ToSchema)]
pub struct Blocks {
    pub positions: Vec<Position>,
    /// By position, then place.
    pub ads: Vec<AdRow>,
    pub nav: Vec<NavRow>,
    pub hot_terms: Vec<TermRow>,
    pub links: Vec<LinkRow>,
}

pub async fn blocks(conn: &mut AnyConnection) -> Result<Blocks> {
    Ok(Blocks {
        positions: positions(conn).await?,
        ads: sqlx::query_as("SELECT id, position, title, subtitle, url, image, color, sort FROM ads ORDER BY position, sort, id")
            .fetch_all(&mut *conn)
            .await?,
        nav: sqlx::query_as("SELECT id, name, url, is_open, sort FROM nav ORDER BY sort, id").fetch_all(&mut *conn).await?,
        hot_terms: sqlx::query_as("SELECT id, term, sort FROM hot_terms ORDER BY sort, id").fetch_all(&mut *conn).await?,
        links: sqlx::query_as("SELECT id, name, url, sort FROM links ORDER BY sort, id").fetch_all(&mut *conn).await?,
    })
}

/// Which block a write is on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Ad,
    Nav,
    HotTerm,
    Link,
}

impl Kind {
    fn table(self) -> &'static str {
        match self {
            Kind::Ad => "ads",
            Kind::Nav => "nav",
            Kind::HotTerm => "hot_terms",
            Kind::Link => "links",
        }
    }

    fn key(self) -> &'static str {
        match self {
            Kind::Ad => "ad",
            Kind::Nav => "nav",
            Kind::HotTerm => "hot_term",
            Kind::Link => "link",
        }
    }

    fn label(self) -> &'static str {
        match self {
            Kind::Ad => "广告",
            Kind::Nav => "导航",
            Kind::HotTerm => "热门搜索词",
            Kind::Link => "友情链接",
        }
    }

    /// The columns a write sets, in [`Fields::values`]' order.
    fn columns(self) -> &'static [&'static str] {
        match self {
            Kind::Ad => &["position", "title", "subtitle", "url", "color", "sort"],
            Kind::Nav => &["name", "url", "is_open", "sort"],
            Kind::HotTerm => &["term", "sort"],
            Kind::Link => &["name", "url", "sort"],
        }
    }
}

/// A block as written: for a change, the fields left `None` stay.
#[derive(Debug, Default)]
pub struct Fields {
    pub position: Option<String>,
    /// An ad's title, a nav entry's or link's name, a hot term.
    pub title: Option<String>,
    pub subtitle: Option<String>,
    pub url: Option<String>,
    pub color: Option<String>,
    pub is_open: Option<bool>,
    /// Absent on a new block: after the last.
    pub sort: Option<i64>,
}

/// Whether `url` may be a block's target: a page of the shop (`/…`, not `//…`) or an `http(s)://`
/// address, without spaces or control characters.
pub fn is_target(url: &str) -> bool {
    let page = url.starts_with('/') && !url.starts_with("//");
    let web = url.starts_with("https://") || url.starts_with("http://");
    (page || web) && url.len() <= 300 && !url.chars().any(|c| c.is_whitespace() || c.is_control())
}

fn is_color(color: &str) -> bool {
    color.len() == 7 && color.starts_with('#') && color[1..].bytes().all(|b| b.is_ascii_hexdigit())
}

/// One stored value of a block.
#[derive(Clone, Debug, PartialEq)]
enum Stored {
    Text(String),
    Int(i64),
}

impl Stored {
    fn json(&self) -> Value {
        match self {
            Stored::Text(text) => Value::from(text.as_str()),
            Stored::Int(number) => Value::from(*number),
        }
    }
}

/// A block's values now, in its columns' order; `None` when it does not exist.
async fn current(conn: &mut AnyConnection, kind: Kind, id: i64) -> Result<Option<Vec<Stored>>> {
    let row: Option<(String, String, String, String, String, i64)> = match kind {
        Kind::Ad => sqlx::query_as("SELECT position, title, subtitle, url, color, sort FROM ads WHERE id = $1"),
        Kind::Nav => sqlx::query_as("SELECT name, url, '', '', CAST(is_open AS TEXT), sort FROM nav WHERE id = $1"),
        Kind::HotTerm => sqlx::query_as("SELECT term, '', '', '', '', sort FROM hot_terms WHERE id = $1"),
        Kind::Link => sqlx::query_as("SELECT name, url, '', '', '', sort FROM links WHERE id = $1"),
    }
    .bind(id)
    .fetch_optional(&mut *conn)
    .await?;
    Ok(row.map(|(a, b, c, d, e, sort)| match kind {
        Kind::Ad => vec![Stored::Text(a), Stored::Text(b), Stored::Text(c), Stored::Text(d), Stored::Text(e), Stored::Int(sort)],
        Kind::Nav => vec![Stored::Text(a), Stored::Text(b), Stored::Int(e.parse().unwrap_or(0)), Stored::Int(sort)],
        Kind::HotTerm => vec![Stored::Text(a), Stored::Int(sort)],
        Kind::Link => vec![Stored::Text(a), Stored::Text(b), Stored::Int(sort)],
    }))
}

/// The values `fields` give on top of `old` (a new block: none), checked; every refusal on its field.
async fn checked(conn: &mut AnyConnection, kind: Kind, fields: &Fields, old: Option<&[Stored]>) -> Result<Vec<Stored>> {
    let text = |at: usize, given: &Option<String>| -> String {
        given.as_deref().map(str::trim).map(str::to_owned).unwrap_or_else(|| match old.map(|old| &old[at]) {
            Some(Stored::Text(text)) => text.clone(),
            _ => String::new(),
        })
    };
    let int = |at: usize, given: Option<i64>| -> Option<i64> {
        given.or(match old.map(|old| &old[at]) {
            Some(Stored::Int(number)) => Some(*number),
            _ => None,
        })
    };
    let mut errors: Vec<(String, String)> = Vec::new();
    let words = |field: &str, value: &str, label: &str, max: usize, required: bool| {
        let wrong = (required && value.is_empty()) || value.chars().count() > max || value.chars().any(char::is_control);
        wrong.then(|| (field.to_owned(), format!("请填写{label}（不超过{max}字）")))
    };
    let values = match kind {
        Kind::Ad => {
            let position = text(0, &fields.position);
            let title = text(1, &fields.title);
            let subtitle = text(2, &fields.subtitle);
            let url = text(3, &fields.url);
            let color = text(4, &fields.color);
            errors.extend(words("title", &title, "标题", 20, true));
            errors.extend(words("subtitle", &subtitle, "副标题", 30, false));
            if !positions(conn).await?.iter().any(|known| known.key == position) {
                errors.push(("position".into(), "请选择广告位置".into()));
            }
            if !is_target(&url) {
                errors.push(("url".into(), "链接须为本站页面（/开头）或http(s)://网址".into()));
            }
            if !color.is_empty() && !is_color(&color) {
                errors.push(("color".into(), "颜色格式应为#RRGGBB".into()));
            }
            vec![Stored::Text(position), Stored::Text(title), Stored::Text(subtitle), Stored::Text(url), Stored::Text(color)]
        }
        Kind::Nav => {
            let name = text(0, &fields.title);
            let url = text(1, &fields.url);
            errors.extend(words("title", &name, "导航名称", 8, true));
            if !is_target(&url) {
                errors.push(("url".into(), "链接须为本站页面（/开头）或http(s)://网址".into()));
            }
            let open = fields.is_open.map(i64::from).or_else(|| int(2, None)).unwrap_or(0);
            vec![Stored::Text(name), Stored::Text(url), Stored::Int(open)]
        }
        Kind::HotTerm => {
            let term = text(0, &fields.title);
            errors.extend(words("title", &term, "搜索词", 10, true));
            vec![Stored::Text(term)]
        }
        Kind::Link => {
            let name = text(0, &fields.title);
            let url = text(1, &fields.url);
            errors.extend(words("title", &name, "链接名称", 20, true));
            if !(url.starts_with("https://") || url.starts_with("http://")) || !is_target(&url) {
                errors.push(("url".into(), "友情链接须为http(s)://网址".into()));
            }
            vec![Stored::Text(name), Stored::Text(url)]
        }
    };
    let sort_at = kind.columns().len() - 1;
    let sort = int(sort_at, fields.sort);
    if sort.is_some_and(|sort| !(0..=9999).contains(&sort)) {
        errors.push(("sort".into(), "排序须为0到9999".into()));
    }
    if !errors.is_empty() {
        return Err(Error::Validation(errors));
    }
    let mut values = values;
    // A new block without a place goes after the last (of its position, for an ad).
    let sort = match sort {
        Some(sort) => sort,
        None if kind == Kind::Ad => {
            let Stored::Text(position) = &values[0] else { unreachable!("an ad's first value is its position") };
            sqlx::query_scalar("SELECT COALESCE(MAX(sort), -1) + 1 FROM ads WHERE position = $1")
                .bind(position)
                .fetch_one(&mut *conn)
                .await?
        }
        None => {
            sqlx::query_scalar(sqlx::AssertSqlSafe(format!("SELECT COALESCE(MAX(sort), -1) + 1 FROM {}", kind.table())))
                .fetch_one(&mut *conn)
                .await?
        }
    };
    values.push(Stored::Int(sort));
    Ok(values)
}

fn as_json(kind: Kind, values: &[Stored]) -> Value {
    Value::Object(kind.columns().iter().zip(values).map(|(column, value)| ((*column).to_owned(), value.json())).collect())
}

/// The name a person reads in the trail: an ad's or nav entry's title, the term, the link's name.
fn named(values: &[Stored]) -> String {
    values
        .iter()
        .find_map(|value| match value {
            Stored::Text(text) if !text.is_empty() && !text.starts_with('/') => Some(text.clone()),
            _ => None,
        })
        .unwrap_or_default()
}

/// Writes a new block (`id` `None`) or changes block `id`; answers its id.
pub async fn save(conn: &mut AnyConnection, actor: &Actor, kind: Kind, id: Option<i64>, fields: &Fields, now: i64) -> Result<i64> {
    let mut tx = begin_write(conn).await?;
    let old = match id {
        Some(id) => Some(current(&mut tx, kind, id).await?.ok_or_else(|| Error::not_found(format!("{}不存在", kind.label())))?),
        None => None,
    };
    let values = checked(&mut tx, kind, fields, old.as_deref()).await?;
    if kind == Kind::Ad {
        // An ad's picture is drawn for its position and place: two ads never share one.
        let (Stored::Text(position), Some(Stored::Int(sort))) = (&values[0], values.last()) else {
            unreachable!("an ad's values are its position first and its place last")
        };
        let taken: Option<i64> = sqlx::query_scalar("SELECT id FROM ads WHERE position = $1 AND sort = $2 AND id <> $3")
            .bind(position)
            .bind(sort)
            .bind(id.unwrap_or(0))
            .fetch_optional(&mut *tx)
            .await?;
        if taken.is_some() {
            return Err(Error::field("sort", format!("该位置已有排序为{sort}的广告")));
        }
    }
    let columns = kind.columns();
    let id = match id {
        Some(id) => {
            let sets: Vec<String> = columns.iter().enumerate().map(|(at, column)| format!("{column} = ${}", at + 1)).collect();
            let statement = format!("UPDATE {} SET {} WHERE id = ${}", kind.table(), sets.join(", "), columns.len() + 1);
            bind_all(sqlx::query(sqlx::AssertSqlSafe(statement)), &values).bind(id).execute(&mut *tx).await?;
            id
        }
        None => {
            let places: Vec<String> = (1..=columns.len()).map(|at| format!("${at}")).collect();
            let statement = format!("INSERT INTO {} ({}) VALUES ({}) RETURNING id", kind.table(), columns.join(", "), places.join(", "));
            let row = bind_all(sqlx::query(sqlx::AssertSqlSafe(statement)), &values).fetch_one(&mut *tx).await?;
            sqlx::Row::try_get::<i64, _>(&row, 0)?
        }
    };
    if kind == Kind::Ad {
        // The picture's address names the position and place, and changes with every write so
        // that no cache keeps the card as it was.
        let (Stored::Text(position), Some(Stored::Int(sort))) = (&values[0], values.last()) else { unreachable!() };
        sqlx::query("UPDATE ads SET image = $1 WHERE id = $2")
            .bind(format!("/api/images/ad/{position}/{sort}.svg?v={now}"))
            .bind(id)
            .execute(&mut *tx)
            .await?;
    }
    let entry = Entry {
        action: match old {
            Some(_) => "block.change",
            None => "block.add",
        },
        target: format!("{}:{id}", kind.key()),
        member: None,
        summary: format!("{}{}「{}」", if old.is_some() { "修改" } else { "添加" }, kind.label(), named(&values)),
        before: old.as_deref().map_or(Value::Null, |old| as_json(kind, old)),
        after: as_json(kind, &values),
    };
    audit::record(&mut tx, actor, entry, now).await?;
    tx.commit().await?;
    Ok(id)
}

fn bind_all<'q>(
    mut query: sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments>,
    values: &'q [Stored],
) -> sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments> {
    for value in values {
        query = match value {
            Stored::Text(text) => query.bind(text.as_str()),
            Stored::Int(number) => query.bind(*number),
        };
    }
    query
}

/// Deletes block `id`.
pub async fn delete(conn: &mut AnyConnection, actor: &Actor, kind: Kind, id: i64, now: i64) -> Result<()> {
    let mut tx = begin_write(conn).await?;
    let old = current(&mut tx, kind, id).await?.ok_or_else(|| Error::not_found(format!("{}不存在", kind.label())))?;
    sqlx::query(sqlx::AssertSqlSafe(format!("DELETE FROM {} WHERE id = $1", kind.table()))).bind(id).execute(&mut *tx).await?;
    let entry = Entry {
        action: "block.delete",
        target: format!("{}:{id}", kind.key()),
        member: None,
        summary: format!("删除{}「{}」", kind.label(), named(&old)),
        before: as_json(kind, &old),
        after: json!(null),
    };
    audit::record(&mut tx, actor, entry, now).await?;
    tx.commit().await?;
    Ok(())
}
