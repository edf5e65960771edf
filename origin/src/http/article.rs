//! Help and news articles (帮助中心 `/help/…`, 新闻 `/news/…`): one article with its body
//! rendered from Markdown, and its neighbours. The lists are `GET /api/article/category`
//! (`home.rs`).
//!
//! Bodies are Markdown. Rendering escapes any raw HTML in them (a `<script>` shows as text) and
//! keeps only `http:`, `https:`, `mailto:`, `tel:` and relative link targets, so what the web
//! app puts in the page is inert whatever an article holds.
//!
//! Titles, summaries and bodies may name the shop's identity and rules by placeholder —
//! `{{shop.name}}`, `{{shop.company}}`, `{{shop.hot_line}}`, `{{order.pay_minutes}}`, …
//! (`crate::domain::shop::fill`) — filled from `settings` and the configuration each time an article is
//! served, so that an article never states another name, licence or deadline than the shop's.

use axum::extract::{Path, State};
use pulldown_cmark::{CowStr, Event, Options, Parser, Tag};
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::ApiContext;
use super::error::{Answer, Envelope, Error, ok};
use crate::domain::shop::{Facts, fill};

pub fn router() -> OpenApiRouter<ApiContext> {
    OpenApiRouter::new().routes(routes!(article))
}

/// Whether a link target may stay: web and mail addresses, phone numbers, and the shop's own
/// paths; never `javascript:`, `data:` or any other scheme.
fn safe_target(target: &str) -> bool {
    let lower = target.trim().to_ascii_lowercase();
    match lower.find(':') {
        None => true,
        Some(colon) if lower[..colon].contains(['/', '?', '#']) => true,
        Some(_) => ["http:", "https:", "mailto:", "tel:"].iter().any(|scheme| lower.starts_with(scheme)),
    }
}

/// An article body, Markdown, as HTML: raw HTML escaped, unsafe link and image targets dropped.
pub fn render(markdown: &str) -> String {
    let events = Parser::new_ext(markdown, Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH).map(|event| match event {
        Event::Html(raw) | Event::InlineHtml(raw) => Event::Text(raw),
        Event::Start(Tag::Link { link_type, dest_url, title, id }) if !safe_target(&dest_url) => {
            Event::Start(Tag::Link { link_type, dest_url: CowStr::Borrowed("#"), title, id })
        }
        Event::Start(Tag::Image { link_type, dest_url, title, id }) if !safe_target(&dest_url) => {
            Event::Start(Tag::Image { link_type, dest_url: CowStr::Borrowed(""), title, id })
        }
        other => other,
    });
    let mut html = String::with_capacity(markdown.len() * 3 / 2);
    pulldown_cmark::html::push_html(&mut html, events);
    html
}

/// A neighbouring article.
#[derive(Serialize, ToSchema, sqlx::FromRow, Clone)]
pub struct ArticleLink {
    id: i64,
    title: String,
}

/// An article as its page shows it.
#[derive(Serialize, ToSchema)]
pub struct Article {
    id: i64,
    /// `help` or `news`.
    kind: String,
    /// A help article's group (新手指南, …).
    group_name: String,
    /// A news item's category: `hy` (行业新闻) or `company` (公司新闻).
    category: String,
    /// A help article's page (`/help/xrzn/hyzc`).
    path: String,
    title: String,
    summary: String,
    /// The day a news item was published.
    date: String,
    /// The body as HTML, rendered from Markdown: raw HTML escaped, unsafe targets dropped.
    html: String,
    /// The article before it in its list (newer news; the help article above), or `null`.
    #[schema(required = true)]
    prev: Option<ArticleLink>,
    #[schema(required = true)]
    next: Option<ArticleLink>,
}

#[derive(sqlx::FromRow)]
struct ArticleRow {
    id: i64,
    kind: String,
    group_name: String,
    category: String,
    path: String,
    title: String,
    summary: String,
    body: String,
    published_on: String,
}

/// `GET /api/article/{id}`: a help or news article with its placeholders filled and its body as
/// safe HTML, and the articles before and after it in its list (help: the help centre's order;
/// news: its category, newest first); 404 `文章不存在`.
#[utoipa::path(get, path = "/api/article/{id}", operation_id = "article", tag = "首页", responses((status = 200, description = "文章", body = Envelope<Article>)))]
async fn article(State(context): State<ApiContext>, Path(id): Path<i64>) -> Answer<Article> {
    let row: ArticleRow =
        sqlx::query_as("SELECT id, kind, group_name, category, path, title, summary, body, published_on FROM articles WHERE id = $1")
            .bind(id)
            .fetch_optional(&context.db.pool)
            .await?
            .ok_or_else(|| Error::not_found("文章不存在"))?;
    let list: Vec<ArticleLink> = if row.kind == "news" {
        sqlx::query_as("SELECT id, title FROM articles WHERE kind = 'news' AND category = $1 ORDER BY published_on DESC, id")
            .bind(&row.category)
            .fetch_all(&context.db.pool)
            .await?
    } else {
        sqlx::query_as("SELECT id, title FROM articles WHERE kind = $1 ORDER BY sort, id")
            .bind(&row.kind)
            .fetch_all(&context.db.pool)
            .await?
    };
    let shop = crate::domain::shop::read(&mut *context.db.pool.acquire().await?).await?;
    let facts = Facts { pay_minutes: context.pay_minutes };
    let filled = |link: &ArticleLink| ArticleLink { id: link.id, title: fill(&link.title, &shop, facts) };
    let at = list.iter().position(|entry| entry.id == row.id);
    let prev = at.and_then(|at| at.checked_sub(1)).and_then(|at| list.get(at)).map(filled);
    let next = at.and_then(|at| list.get(at + 1)).map(filled);
    ok(Article {
        html: render(&fill(&row.body, &shop, facts)),
        id: row.id,
        kind: row.kind,
        group_name: row.group_name,
        category: row.category,
        path: row.path,
        title: fill(&row.title, &shop, facts),
        summary: fill(&row.summary, &shop, facts),
        date: row.published_on,
        prev,
        next,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markdown_renders_and_html_in_it_stays_text() {
        let html = render("第一段\n\n**加粗** 与 [官网](https://example.com)\n\n<script>alert(1)</script>\n\n<img src=x onerror=alert(1)>");
        assert!(html.contains("<p>第一段</p>"), "{html}");
        assert!(html.contains("<strong>加粗</strong>") && html.contains("<a href=\"https://example.com\">官网</a>"), "{html}");
        assert!(!html.contains("<script") && html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"), "{html}");
        assert!(!html.contains("<img") && html.contains("&lt;img src=x onerror=alert(1)&gt;"), "{html}");
    }

    #[test]
    fn only_safe_link_targets_stay() {
        let html = render(
            "[a](javascript:alert(1)) [b](JaVaScRiPt:alert(1)) [c](data:text/html,x) [d](/help/pay) [e](tel:400-816-3368) ![f](javascript:x)",
        );
        assert!(!html.to_ascii_lowercase().contains("javascript:") && !html.contains("data:"), "{html}");
        assert!(html.contains("href=\"/help/pay\"") && html.contains("href=\"tel:400-816-3368\""), "{html}");
    }
}
