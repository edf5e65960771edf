//! Help and news articles as operations writes them, for the console and the commands alike: the
//! list, one article with its Markdown, and an article written or changed (its body Markdown,
//! which the shop renders as it serves it, placeholders such as `{{shop.name}}` filled). Each
//! write is one transaction with its audit row.

use serde::Serialize;
use serde_json::json;
use sqlx::AnyConnection;
use utoipa::ToSchema;

use super::audit::{self, Actor, Entry};
use super::orders::begin_write;
use crate::domain::{Error, Result};

/// An article in the list.
#[derive(Debug, Serialize, sqlx::FromRow, ToSchema)]
pub struct ArticleRow {
    pub id: i64,
    /// `help` (帮助中心) or `news` (资讯).
    pub kind: String,
    /// A help article's group (新手指南, 配送方式, …).
    pub group_name: String,
    /// A news article's category: `hy` (行业资讯) or `company` (公司新闻).
    pub category: String,
    /// A help article's page, `/help/…`.
    pub path: String,
    pub title: String,
    pub published_on: String,
}

/// An article with its Markdown body.
#[derive(Debug, Serialize, sqlx::FromRow, ToSchema)]
pub struct EditedArticle {
    #[sqlx(flatten)]
    #[serde(flatten)]
    pub row: ArticleRow,
    pub summary: String,
    /// Markdown.
    pub body: String,
}

/// The articles of `kind` (`help`, `news`, or every kind when empty), in the shop's order.
pub async fn articles(conn: &mut AnyConnection, kind: &str) -> Result<Vec<ArticleRow>> {
    Ok(sqlx::query_as(
        "SELECT id, kind, group_name, category, path, title, published_on FROM articles \
         WHERE ($1 = '' OR kind = $1) ORDER BY kind, group_name, sort, id",
    )
    .bind(kind)
    .fetch_all(&mut *conn)
    .await?)
}

/// EditedArticle `id` with its body.
pub async fn article(conn: &mut AnyConnection, id: i64) -> Result<EditedArticle> {
    let found: Option<EditedArticle> =
        sqlx::query_as("SELECT id, kind, group_name, category, path, title, published_on, summary, body FROM articles WHERE id = $1")
            .bind(id)
            .fetch_optional(&mut *conn)
            .await?;
    found.ok_or_else(|| Error::not_found("文章不存在"))
}

/// An article as written in the console or on the command line: for a change, the fields left
/// `None` stay as they are. A help article keeps its page and group (the help centre's pages are
/// the shop's routes); news articles are added.
#[derive(Debug, Default)]
pub struct Draft {
    /// `help` or `news`: a new article's; an article keeps its kind.
    pub kind: Option<String>,
    pub title: Option<String>,
    pub category: Option<String>,
    pub summary: Option<String>,
    pub published_on: Option<String>,
    pub body: Option<String>,
}

/// Writes a new article (`id` `None`) or changes article `id`; answers its id. Every field is
/// checked first, each refusal on its field.
pub async fn save(conn: &mut AnyConnection, actor: &Actor, id: Option<i64>, draft: Draft, now: i64) -> Result<i64> {
    let mut tx = begin_write(conn).await?;
    let before = match id {
        Some(id) => Some(article(&mut tx, id).await?),
        None => None,
    };
    let text = |value: &Option<String>| value.as_deref().map(str::trim).map(str::to_owned);
    let kept = |value: &Option<String>, old: Option<&String>| text(value).or_else(|| old.cloned()).unwrap_or_default();
    let old = before.as_ref();
    let kind = match old {
        Some(old) => old.row.kind.clone(),
        None => text(&draft.kind).unwrap_or_default(),
    };
    let title = kept(&draft.title, old.map(|a| &a.row.title));
    let group_name = old.map(|a| a.row.group_name.clone()).unwrap_or_default();
    let path = old.map(|a| a.row.path.clone()).unwrap_or_default();
    let category = kept(&draft.category, old.map(|a| &a.row.category));
    let summary = kept(&draft.summary, old.map(|a| &a.summary));
    let published_on = text(&draft.published_on)
        .filter(|day| !day.is_empty())
        .or_else(|| old.map(|a| a.row.published_on.clone()))
        .unwrap_or_else(|| crate::domain::catalogue::lots::day(now));
    let body = draft.body.clone().or_else(|| old.map(|a| a.body.clone())).unwrap_or_default();

    let mut errors: Vec<(String, String)> = Vec::new();
    let mut refuse = |field: &str, message: &str| errors.push((field.to_owned(), message.to_owned()));
    match kind.as_str() {
        // The help centre's pages are the shop's own routes: their articles are changed, never
        // added, and keep their page and group.
        "help" if before.is_none() => refuse("kind", "帮助中心的页面是固定的，只能修改已有的帮助文章"),
        "help" => {}
        "news" => {
            if category != "hy" && category != "company" {
                refuse("category", "请选择资讯分类：行业资讯或公司新闻");
            }
        }
        _ => refuse("kind", "请选择文章类型：帮助或资讯"),
    }
    if title.is_empty() || title.chars().count() > 60 {
        refuse("title", "请填写标题（不超过60字）");
    }
    if summary.chars().count() > 200 {
        refuse("summary", "摘要不能超过200字");
    }
    // Help articles carry no date; news items do.
    let undated_help = kind == "help" && published_on.is_empty();
    if !undated_help && !crate::domain::catalogue::lots::is_day(&published_on) {
        refuse("published_on", "发布日期格式应为YYYY-MM-DD");
    }
    if body.trim().is_empty() {
        refuse("body", "请填写正文");
    } else if body.len() > 200_000 {
        refuse("body", "正文不能超过20万字节");
    }
    if !errors.is_empty() {
        return Err(Error::Validation(errors));
    }
    let (group_name, path, category) =
        if kind == "help" { (group_name, path, String::new()) } else { (String::new(), String::new(), category) };
    let id = match id {
        Some(id) => {
            sqlx::query(
                "UPDATE articles SET title = $1, group_name = $2, path = $3, category = $4, summary = $5, published_on = $6, body = $7 \
                 WHERE id = $8",
            )
            .bind(&title)
            .bind(&group_name)
            .bind(&path)
            .bind(&category)
            .bind(&summary)
            .bind(&published_on)
            .bind(&body)
            .bind(id)
            .execute(&mut *tx)
            .await?;
            id
        }
        None => {
            let sort: i64 = sqlx::query_scalar("SELECT COALESCE(MAX(sort), 0) + 1 FROM articles").fetch_one(&mut *tx).await?;
            sqlx::query_scalar(
                "INSERT INTO articles (kind, group_name, category, path, title, summary, body, published_on, sort) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id",
            )
            .bind(&kind)
            .bind(&group_name)
            .bind(&category)
            .bind(&path)
            .bind(&title)
            .bind(&summary)
            .bind(&body)
            .bind(&published_on)
            .bind(sort)
            .fetch_one(&mut *tx)
            .await?
        }
    };
    let shape = |title: &str, group: &str, path: &str, category: &str, summary: &str, day: &str, body: &str| json!({ "title": title, "group_name": group, "path": path, "category": category, "summary": summary, "published_on": day, "body": body });
    let entry = Entry {
        action: if before.is_some() { "article.change" } else { "article.publish" },
        target: format!("article:{id}"),
        member: None,
        summary: format!("{}文章 {id}「{title}」", if before.is_some() { "修改" } else { "发布" }),
        before: before.as_ref().map_or(serde_json::Value::Null, |a| {
            shape(&a.row.title, &a.row.group_name, &a.row.path, &a.row.category, &a.summary, &a.row.published_on, &a.body)
        }),
        after: shape(&title, &group_name, &path, &category, &summary, &published_on, &body),
    };
    audit::record(&mut tx, actor, entry, now).await?;
    tx.commit().await?;
    Ok(id)
}
