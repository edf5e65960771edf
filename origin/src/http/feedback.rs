//! Feedback (意见反馈, `/zzfw/yjfk`): a member writes a suggestion or complaint, with photos;
//! the shop replies (`origin admin reply-feedback`). A member sees their own only.

use axum::extract::{DefaultBodyLimit, Path, State};
use axum::response::Response;
use serde::Serialize;
use sqlx::Connection;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::ApiContext;
use super::error::{Answer, Envelope, Error, Result, ok, ok_with};
use super::extract::{Member, PageQuery, Query};
use super::upload::{self, FromUpload, Upload};
use crate::domain::self_service::{FeedbackKind, FeedbackStatus};
use crate::now;
use crate::security::text;

pub fn router() -> OpenApiRouter<ApiContext> {
    OpenApiRouter::new().routes(routes!(send, list)).layer(DefaultBodyLimit::max(upload::BODY_LIMIT)).routes(routes!(photo))
}

const PHOTOS_MAX: usize = 5;
const PAGE_SIZE: i64 = 10;

/// A piece of feedback with the shop's reply.
#[derive(Serialize, ToSchema)]
pub struct Feedback {
    id: i64,
    kind: i64,
    #[schema(example = "功能建议")]
    kind_name: &'static str,
    body: String,
    status: i64,
    #[schema(example = "待回复")]
    status_name: &'static str,
    reply: String,
    created_at: i64,
    #[schema(required = true)]
    replied_at: Option<i64>,
    /// The photos' addresses (their member only).
    photos: Vec<String>,
}

/// One page of the member's feedback.
#[derive(Serialize, ToSchema)]
pub struct FeedbackPage {
    list: Vec<Feedback>,
    total: i64,
    page: i64,
}

#[derive(sqlx::FromRow)]
struct FeedbackRow {
    id: i64,
    kind: FeedbackKind,
    body: String,
    status: FeedbackStatus,
    reply: String,
    created_at: i64,
    replied_at: Option<i64>,
}

async fn with_photos(context: &ApiContext, row: FeedbackRow) -> Result<Feedback> {
    let photos: Vec<i64> = sqlx::query_scalar("SELECT id FROM feedback_photos WHERE feedback_id = $1 ORDER BY id")
        .bind(row.id)
        .fetch_all(&context.db.pool)
        .await?;
    Ok(Feedback {
        kind_name: row.kind.name(),
        status_name: row.status.name(),
        photos: photos.iter().map(|photo| format!("/api/user/feedback/{}/photo/{photo}", row.id)).collect(),
        id: row.id,
        kind: row.kind.code(),
        body: row.body,
        status: row.status.code(),
        reply: row.reply,
        created_at: row.created_at,
        replied_at: row.replied_at,
    })
}

/// A piece of feedback (`multipart/form-data`; without photos, a form-encoded body does too).
#[derive(ToSchema)]
pub struct FeedbackForm {
    /// 反馈类型: 1 功能建议, 2 商品问题, 3 服务投诉, 4 其他.
    #[schema(value_type = i64)]
    kind: FeedbackKind,
    /// 反馈内容 (lines), at most 1,000 characters.
    body: String,
    /// Up to 5 JPEG or PNG photos of at most 5 MB each (`photos` or `photos[]`).
    #[schema(value_type = Vec<String>, format = Binary)]
    photos: Vec<upload::Checked>,
}

impl FromUpload for FeedbackForm {
    const FILES: (&'static str, usize) = ("photos", PHOTOS_MAX);
    const FORM_ENCODED_TOO: bool = true;

    fn from_upload(mut form: upload::Form) -> Result<FeedbackForm> {
        let kind: i64 = form.text("kind").and_then(|kind| kind.parse().ok()).ok_or_else(|| Error::field("kind", "请选择反馈类型"))?;
        let kind = FeedbackKind::from_code(kind).ok_or_else(|| Error::field("kind", "反馈类型不正确"))?;
        let body = form.bounded(text::FEEDBACK)?.ok_or_else(|| Error::field("body", "请填写反馈内容"))?;
        Ok(FeedbackForm { kind, body, photos: upload::photos(std::mem::take(&mut form.files))? })
    }
}

/// `POST /api/user/feedback` (`kind` 1 功能建议, 2 商品问题, 3 服务投诉, 4 其他; `body` at most
/// 1,000 characters; `photos` up to 5 JPEG or PNG of at most 5 MB): sends the shop a piece of
/// feedback. With photos the body is multipart; without, a form-encoded body does as well.
#[utoipa::path(post, path = "/api/user/feedback", request_body(content = FeedbackForm, content_type = "multipart/form-data"), operation_id = "feedback_send", tag = "自助服务", responses((status = 200, description = "新的反馈", body = Envelope<Feedback>)))]
async fn send(State(context): State<ApiContext>, member: Member, Upload(form): Upload<FeedbackForm>) -> Answer<Feedback> {
    let FeedbackForm { kind, body, photos } = form;
    let names = upload::store(&context, member, &photos).await?;
    let stored: Vec<_> =
        names.into_iter().zip(&photos).map(|(name, photo)| (name, photo.kind.content_type(), photo.bytes.len() as i64)).collect();
    let mut conn = context.db.pool.acquire().await?;
    let mut tx = conn.begin().await?;
    let row: FeedbackRow = sqlx::query_as(
        "INSERT INTO feedback (member_id, kind, body, created_at) VALUES ($1, $2, $3, $4) \
         RETURNING id, kind, body, status, reply, created_at, replied_at",
    )
    .bind(member.id)
    .bind(kind)
    .bind(&body)
    .bind(now())
    .fetch_one(&mut *tx)
    .await?;
    for (file_name, file_type, size) in &stored {
        sqlx::query("INSERT INTO feedback_photos (feedback_id, file_name, file_type, file_size) VALUES ($1, $2, $3, $4)")
            .bind(row.id)
            .bind(file_name)
            .bind(*file_type)
            .bind(*size)
            .execute(&mut *tx)
            .await?;
    }
    tx.commit().await?;
    ok_with("感谢您的反馈，我们会尽快处理", with_photos(&context, row).await?)
}

/// `GET /api/user/feedback` (`page`): the member's feedback with the shop's replies, newest
/// first, 10 a page.
#[utoipa::path(get, path = "/api/user/feedback", params(PageQuery), operation_id = "feedback_list", tag = "自助服务", responses((status = 200, description = "我的反馈", body = Envelope<FeedbackPage>)))]
async fn list(State(context): State<ApiContext>, member: Member, Query(PageQuery { page }): Query<PageQuery>) -> Answer<FeedbackPage> {
    let total: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM feedback WHERE member_id = $1").bind(member.id).fetch_one(&context.db.pool).await?;
    let rows: Vec<FeedbackRow> = sqlx::query_as(
        "SELECT id, kind, body, status, reply, created_at, replied_at FROM feedback WHERE member_id = $1 \
         ORDER BY created_at DESC, id DESC LIMIT $2 OFFSET $3",
    )
    .bind(member.id)
    .bind(PAGE_SIZE)
    .bind((page - 1) * PAGE_SIZE)
    .fetch_all(&context.db.pool)
    .await?;
    let mut list = Vec::with_capacity(rows.len());
    for row in rows {
        list.push(with_photos(&context, row).await?);
    }
    ok(FeedbackPage { list, total, page })
}

/// `GET /api/user/feedback/{id}/photo/{photo}`: a photo of the member's feedback.
#[utoipa::path(get, path = "/api/user/feedback/{id}/photo/{photo}", operation_id = "feedback_photo", tag = "自助服务", responses(
    (status = 200, description = "照片", content(("image/jpeg"), ("image/png")))
))]
async fn photo(State(context): State<ApiContext>, member: Member, Path((id, photo)): Path<(i64, i64)>) -> Result<Response> {
    let found: Option<(String, String)> = sqlx::query_as(
        "SELECT p.file_name, p.file_type FROM feedback_photos p JOIN feedback f ON f.id = p.feedback_id \
         WHERE p.id = $1 AND f.id = $2 AND f.member_id = $3",
    )
    .bind(photo)
    .bind(id)
    .bind(member.id)
    .fetch_optional(&context.db.pool)
    .await?;
    let Some((file_name, file_type)) = found else { return Err(Error::not_found("照片不存在")) };
    upload::serve(&context, member, &file_name, &file_type).await
}
