//! 文章 in the console: help and news articles listed, read with their Markdown, written or
//! changed, and previewed as the shop will show them (operations).

use axum::extract::{Path, State};
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::{Staff, can};
use crate::domain::shop::{Facts, fill};
use crate::domain::staff::content::{self, ArticleRow, Draft, EditedArticle};
use crate::http::ApiContext;
use crate::http::article::render;
use crate::http::error::{Answer, Envelope, Error, Result, ok};
use crate::http::extract::{Fields, Form, FromFields, Query};
use crate::now;

pub fn router() -> OpenApiRouter<ApiContext> {
    OpenApiRouter::new().routes(routes!(list, create)).routes(routes!(article, change)).routes(routes!(preview))
}

/// Which articles.
#[derive(utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct KindQuery {
    /// `help` or `news`; every kind when absent.
    kind: Option<String>,
}

impl FromFields for KindQuery {
    fn from_fields(fields: &Fields) -> Result<KindQuery> {
        Ok(KindQuery { kind: fields.text("kind") })
    }
}

/// `GET /api/admin/articles`: the articles, in the shop's order.
#[utoipa::path(get, path = "/api/admin/articles", operation_id = "admin_articles", params(KindQuery), tag = "后台", responses((status = 200, description = "文章", body = Envelope<Vec<ArticleRow>>)))]
async fn list(State(context): State<ApiContext>, _: Staff<can::Read>, Query(query): Query<KindQuery>) -> Answer<Vec<ArticleRow>> {
    ok(content::articles(&mut *context.db.pool.acquire().await?, query.kind.as_deref().unwrap_or_default()).await?)
}

/// `GET /api/admin/articles/{id}`: an article with its Markdown body.
#[utoipa::path(get, path = "/api/admin/articles/{id}", operation_id = "admin_article", params(("id" = i64, Path, description = "文章 id")), tag = "后台", responses((status = 200, description = "文章", body = Envelope<EditedArticle>)))]
async fn article(State(context): State<ApiContext>, _: Staff<can::Read>, Path(id): Path<i64>) -> Answer<EditedArticle> {
    ok(content::article(&mut *context.db.pool.acquire().await?, id).await?)
}

/// An article written or changed; for a change, the fields not sent stay.
#[derive(ToSchema)]
pub struct ArticleForm {
    /// `news` (资讯) for a new article: the help centre's pages are fixed, their articles changed only.
    kind: Option<String>,
    /// 标题, at most 60 characters.
    title: Option<String>,
    /// A news article's category: `hy` (行业资讯) or `company` (公司新闻).
    category: Option<String>,
    /// 摘要, at most 200 characters.
    summary: Option<String>,
    /// 发布日期 `YYYY-MM-DD` (a new one: today).
    published_on: Option<String>,
    /// 正文, Markdown; `{{shop.name}}` and the other placeholders are filled when served.
    body: Option<String>,
}

impl FromFields for ArticleForm {
    fn from_fields(fields: &Fields) -> Result<ArticleForm> {
        // A field sent empty is `Some("")` (the summary may be cleared); one not sent is `None`.
        let sent = |name: &str| fields.pairs().iter().any(|(key, _)| key == name).then(|| fields.text(name).unwrap_or_default());
        // The body keeps its own spacing (Markdown): only its ends are trimmed.
        Ok(ArticleForm {
            kind: sent("kind"),
            title: sent("title"),
            category: sent("category"),
            summary: sent("summary"),
            published_on: sent("published_on"),
            body: sent("body"),
        })
    }
}

impl ArticleForm {
    fn draft(self) -> Draft {
        Draft {
            kind: self.kind,
            title: self.title,
            category: self.category,
            summary: self.summary,
            published_on: self.published_on,
            body: self.body,
        }
    }
}

/// The article written.
#[derive(Serialize, ToSchema)]
pub struct ArticleSaved {
    id: i64,
}

/// `POST /api/admin/articles`: publishes a news article.
#[utoipa::path(post, path = "/api/admin/articles", operation_id = "admin_article_create", request_body(content = ArticleForm, content_type = "application/x-www-form-urlencoded"), tag = "后台", responses((status = 200, description = "已发布", body = Envelope<ArticleSaved>)))]
async fn create(State(context): State<ApiContext>, staff: Staff<can::Content>, Form(form): Form<ArticleForm>) -> Answer<ArticleSaved> {
    let id = content::save(&mut *context.db.pool.acquire().await?, &staff.actor, None, form.draft(), now()).await?;
    ok(ArticleSaved { id })
}

/// `PUT /api/admin/articles/{id}`: changes an article (its kind stays; a help article its page and group).
#[utoipa::path(put, path = "/api/admin/articles/{id}", operation_id = "admin_article_change", params(("id" = i64, Path, description = "文章 id")), request_body(content = ArticleForm, content_type = "application/x-www-form-urlencoded"), tag = "后台", responses((status = 200, description = "已保存", body = Envelope<ArticleSaved>)))]
async fn change(
    State(context): State<ApiContext>,
    staff: Staff<can::Content>,
    Path(id): Path<i64>,
    Form(form): Form<ArticleForm>,
) -> Answer<ArticleSaved> {
    let id = content::save(&mut *context.db.pool.acquire().await?, &staff.actor, Some(id), form.draft(), now()).await?;
    ok(ArticleSaved { id })
}

/// A body to preview.
#[derive(ToSchema)]
pub struct PreviewForm {
    /// Markdown, at most 200,000 bytes.
    body: String,
}

impl FromFields for PreviewForm {
    fn from_fields(fields: &Fields) -> Result<PreviewForm> {
        let body = fields.text("body").unwrap_or_default();
        if body.len() > 200_000 {
            return Err(Error::field("body", "正文不能超过20万字节"));
        }
        Ok(PreviewForm { body })
    }
}

/// The body as the shop will show it.
#[derive(Serialize, ToSchema)]
pub struct Preview {
    /// HTML, placeholders filled; raw HTML in the Markdown escaped, unsafe links dropped.
    html: String,
}

/// `POST /api/admin/articles/preview`: renders a body exactly as the article's page will.
#[utoipa::path(post, path = "/api/admin/articles/preview", operation_id = "admin_article_preview", request_body(content = PreviewForm, content_type = "application/x-www-form-urlencoded"), tag = "后台", responses((status = 200, description = "预览", body = Envelope<Preview>)))]
async fn preview(State(context): State<ApiContext>, _: Staff<can::Content>, Form(form): Form<PreviewForm>) -> Answer<Preview> {
    let shop = crate::domain::shop::read(&mut *context.db.pool.acquire().await?).await?;
    ok(Preview { html: render(&fill(&form.body, &shop, Facts { pay_minutes: context.pay_minutes })) })
}
