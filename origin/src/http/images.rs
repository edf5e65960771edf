//! Pictures for the demo catalogue, drawn as SVG: a goods picture shows the package with the
//! goods' name and specification in the colour of its kind; a combination set its name over its
//! goods; brands and ads get a titled card. And the pictures operators upload for goods
//! (`domain::staff::pictures`), served from the database as the shop encoded them.

use axum::extract::{Path, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::ApiContext;
use super::error::{Error, Result};
use crate::domain::staff::pictures::{self, Size};

pub fn router() -> OpenApiRouter<ApiContext> {
    OpenApiRouter::new()
        .routes(routes!(goods))
        .routes(routes!(picture))
        .routes(routes!(combination))
        .routes(routes!(brand))
        .routes(routes!(ad))
}

fn svg_id(file: &str) -> Result<i64> {
    file.strip_suffix(".svg").and_then(|id| id.parse().ok()).ok_or_else(|| Error::not_found("图片不存在"))
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// A picture named `file` (one [`svg_id`] took: digits and `.svg`), shown in the page, its type
/// never sniffed.
fn svg(file: &str, body: String) -> Result<Response> {
    Ok((
        [
            (header::CONTENT_TYPE, "image/svg+xml".to_owned()),
            (header::CACHE_CONTROL, "public, max-age=86400".to_owned()),
            (header::CONTENT_DISPOSITION, format!("inline; filename=\"{file}\"")),
            (header::X_CONTENT_TYPE_OPTIONS, "nosniff".to_owned()),
        ],
        body,
    )
        .into_response())
}

/// Up to `width` characters of `text` per line, two lines at most.
fn lines(text: &str, width: usize) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    chars.chunks(width).take(2).map(|chunk| chunk.iter().collect()).collect()
}

/// What a goods picture shows.
#[derive(sqlx::FromRow)]
struct Pictured {
    name: String,
    ypgg: String,
    sccj: String,
    #[sqlx(rename = "type")]
    kind: i64,
}

/// `GET /api/images/goods/{id}.svg`: the goods' package.
#[utoipa::path(get, path = "/api/images/goods/{file}", tag = "图片", responses((status = 200, description = "SVG 图片", content_type = "image/svg+xml", body = String)))]
async fn goods(State(context): State<ApiContext>, Path(file): Path<String>) -> Result<Response> {
    let id = svg_id(&file)?;
    let Pictured { name, ypgg, sccj, kind } = sqlx::query_as("SELECT name, ypgg, sccj, type FROM goods WHERE id = $1")
        .bind(id)
        .fetch_optional(&context.db.pool)
        .await?
        .ok_or_else(|| Error::not_found("图片不存在"))?;
    let (color, label) = match kind {
        2 => ("#8a5a2b", "中药饮片"),
        3 => ("#1d6fa5", "医疗器械"),
        _ => ("#1f7a4d", "药品"),
    };
    let mut text = String::new();
    for (n, line) in lines(&name, 8).iter().enumerate() {
        text.push_str(&format!(
            r##"<text x="120" y="{}" font-size="22" font-weight="bold" text-anchor="middle" fill="#fff">{}</text>"##,
            112 + n as i64 * 28,
            escape(line)
        ));
    }
    svg(
        &file,
        format!(
            r##"<svg xmlns="http://www.w3.org/2000/svg" width="240" height="240" viewBox="0 0 240 240"><rect width="240" height="240" fill="#f5f7f6"/><rect x="30" y="40" width="180" height="160" rx="10" fill="{color}"/><rect x="30" y="40" width="180" height="34" rx="10" fill="#ffffff" fill-opacity="0.18"/><text x="120" y="64" font-size="14" text-anchor="middle" fill="#fff">{label}</text>{text}<text x="120" y="180" font-size="14" text-anchor="middle" fill="#fff" fill-opacity="0.9">{}</text><text x="120" y="224" font-size="12" text-anchor="middle" fill="#666">{}</text></svg>"##,
            escape(&ypgg),
            escape(&sccj)
        ),
    )
}

/// `GET /api/images/pictures/{id}/large.jpg` (or `thumb.jpg`): a goods' picture as uploaded in
/// the console, encoded again by the shop. A picture's id never names another picture, so a
/// browser keeps it a year without asking again.
#[utoipa::path(get, path = "/api/images/pictures/{id}/{file}", tag = "图片", params(("id" = i64, Path, description = "图片 id"), ("file" = String, Path, description = "large.jpg 或 thumb.jpg")), responses((status = 200, description = "JPEG 图片", content_type = "image/jpeg", body = String)))]
async fn picture(State(context): State<ApiContext>, Path((id, file)): Path<(String, String)>) -> Result<Response> {
    let missing = || Error::not_found("图片不存在");
    let id: i64 = id.parse().map_err(|_| missing())?;
    let size = Size::of_file(&file).ok_or_else(missing)?;
    let bytes = pictures::file(&mut *context.db.pool.acquire().await?, id, size).await?.ok_or_else(missing)?;
    Ok((
        [
            (header::CONTENT_TYPE, "image/jpeg".to_owned()),
            (header::CACHE_CONTROL, "public, max-age=31536000, immutable".to_owned()),
            (header::CONTENT_DISPOSITION, format!("inline; filename=\"{id}-{file}\"")),
            (header::X_CONTENT_TYPE_OPTIONS, "nosniff".to_owned()),
        ],
        bytes,
    )
        .into_response())
}

/// `GET /api/images/combination/{id}.svg`: a combination set: its name over the goods it holds.
#[utoipa::path(get, path = "/api/images/combination/{file}", tag = "图片", responses((status = 200, description = "SVG 图片", content_type = "image/svg+xml", body = String)))]
async fn combination(State(context): State<ApiContext>, Path(file): Path<String>) -> Result<Response> {
    let id = svg_id(&file)?;
    let name: String = sqlx::query_scalar("SELECT name FROM combinations WHERE id = $1")
        .bind(id)
        .fetch_optional(&context.db.pool)
        .await?
        .ok_or_else(|| Error::not_found("图片不存在"))?;
    let parts: Vec<(String, i64)> = sqlx::query_as(
        "SELECT g.name, i.number FROM combination_items i JOIN goods g ON g.id = i.goods_id WHERE i.combination_id = $1 ORDER BY i.id",
    )
    .bind(id)
    .fetch_all(&context.db.pool)
    .await?;
    let mut text = String::new();
    for (n, line) in lines(&name, 9).iter().enumerate() {
        text.push_str(&format!(
            r##"<text x="120" y="{}" font-size="20" font-weight="bold" text-anchor="middle" fill="#fff">{}</text>"##,
            96 + n as i64 * 26,
            escape(line)
        ));
    }
    for (n, (goods, number)) in parts.iter().take(3).enumerate() {
        let goods: String = goods.chars().take(10).collect();
        text.push_str(&format!(
            r##"<text x="120" y="{}" font-size="13" text-anchor="middle" fill="#fff" fill-opacity="0.9">{} ×{number}</text>"##,
            158 + n as i64 * 18,
            escape(&goods)
        ));
    }
    svg(
        &file,
        format!(
            r##"<svg xmlns="http://www.w3.org/2000/svg" width="240" height="240" viewBox="0 0 240 240"><rect width="240" height="240" fill="#f5f7f6"/><rect x="24" y="30" width="192" height="190" rx="10" fill="#6b3fa0"/><rect x="24" y="30" width="192" height="34" rx="10" fill="#ffffff" fill-opacity="0.18"/><text x="120" y="54" font-size="14" text-anchor="middle" fill="#fff">组合购</text>{text}</svg>"##
        ),
    )
}

/// `GET /api/images/brand/{sort}.svg`: a brand's card.
#[utoipa::path(get, path = "/api/images/brand/{file}", tag = "图片", responses((status = 200, description = "SVG 图片", content_type = "image/svg+xml", body = String)))]
async fn brand(State(context): State<ApiContext>, Path(file): Path<String>) -> Result<Response> {
    let sort = svg_id(&file)?;
    let name: String = sqlx::query_scalar("SELECT name FROM brands WHERE sort = $1")
        .bind(sort)
        .fetch_optional(&context.db.pool)
        .await?
        .ok_or_else(|| Error::not_found("图片不存在"))?;
    svg(
        &file,
        format!(
            r##"<svg xmlns="http://www.w3.org/2000/svg" width="180" height="80" viewBox="0 0 180 80"><rect width="180" height="80" rx="6" fill="#fff" stroke="#d9e2dd"/><text x="90" y="50" font-size="24" font-weight="bold" text-anchor="middle" fill="#1f7a4d">{}</text></svg>"##,
            escape(&name)
        ),
    )
}

/// `GET /api/images/ad/{position}/{sort}.svg`: an ad's card.
#[utoipa::path(get, path = "/api/images/ad/{position}/{file}", tag = "图片", responses((status = 200, description = "SVG 图片", content_type = "image/svg+xml", body = String)))]
async fn ad(State(context): State<ApiContext>, Path((position, file)): Path<(String, String)>) -> Result<Response> {
    let sort = svg_id(&file)?;
    let (title, subtitle, color): (String, String, String) =
        sqlx::query_as("SELECT title, subtitle, color FROM ads WHERE position = $1 AND sort = $2")
            .bind(&position)
            .bind(sort)
            .fetch_optional(&context.db.pool)
            .await?
            .ok_or_else(|| Error::not_found("图片不存在"))?;
    let color = if color.is_empty() { "#1f7a4d".to_owned() } else { color };
    let (width, height) = if position == "focus" { (800, 340) } else { (240, 300) };
    svg(
        &file,
        format!(
            r##"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}"><rect width="{width}" height="{height}" fill="{}"/><text x="{}" y="{}" font-size="{}" font-weight="bold" text-anchor="middle" fill="#fff">{}</text><text x="{}" y="{}" font-size="{}" text-anchor="middle" fill="#fff" fill-opacity="0.85">{}</text></svg>"##,
            escape(&color),
            width / 2,
            height / 2 - 6,
            if width > 300 { 40 } else { 22 },
            escape(&title),
            width / 2,
            height / 2 + 36,
            if width > 300 { 20 } else { 14 },
            escape(&subtitle),
        ),
    )
}
