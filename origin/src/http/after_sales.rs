//! After-sales cases (售后): a member opens one on a paid order of theirs for a quality or
//! delivery problem, with text and photos; the member and the shop (`origin admin answer`)
//! write to its thread until it is resolved. A member sees and acts on their own cases only.

use axum::extract::{DefaultBodyLimit, Path, State};
use axum::response::Response;
use serde::Serialize;
use sqlx::{AnyConnection, Connection};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::ApiContext;
use super::error::{Answer, Envelope, Error, Result, ok, ok_with};
use super::extract::{Fields, FromFields, Member, Query};
use super::upload::{self, FromUpload, Upload};
use crate::domain::after_sales::{CaseKind, CaseStatus, add_message};
use crate::domain::orders::life::OrderStatus;
use crate::now;
use crate::security::text;

pub fn router() -> OpenApiRouter<ApiContext> {
    OpenApiRouter::new()
        .routes(routes!(open))
        .routes(routes!(reply))
        .layer(DefaultBodyLimit::max(upload::BODY_LIMIT))
        .routes(routes!(list))
        .routes(routes!(case))
        .routes(routes!(resolve))
        .routes(routes!(photo))
}

/// The most photos one message carries, and the longest text.
const PHOTOS_MAX: usize = 5;

/// One of the member's after-sales cases, with its thread.
#[derive(Serialize, ToSchema)]
pub struct AfterSale {
    id: i64,
    case_no: String,
    order_id: i64,
    order_no: String,
    /// 1 质量问题, 2 配送问题, 3 其他.
    kind: i64,
    #[schema(example = "质量问题")]
    kind_name: &'static str,
    /// 0 处理中, 1 已解决.
    status: i64,
    #[schema(example = "处理中")]
    status_name: &'static str,
    created_at: i64,
    updated_at: i64,
    #[schema(required = true)]
    closed_at: Option<i64>,
    messages: Vec<AfterSaleMessage>,
}

/// A message of a case's thread.
#[derive(Serialize, ToSchema)]
pub struct AfterSaleMessage {
    id: i64,
    /// `member` or `operator` (the shop).
    author: String,
    body: String,
    /// The photos' addresses (their member only).
    photos: Vec<String>,
    created_at: i64,
}

#[derive(sqlx::FromRow)]
struct CaseRow {
    id: i64,
    case_no: String,
    order_id: i64,
    order_no: String,
    kind: CaseKind,
    status: CaseStatus,
    created_at: i64,
    updated_at: i64,
    closed_at: Option<i64>,
}

async fn load(conn: &mut AnyConnection, member: Member, id: i64) -> Result<AfterSale> {
    let row: CaseRow = sqlx::query_as(
        "SELECT a.id, a.case_no, a.order_id, o.order_no, a.kind, a.status, a.created_at, a.updated_at, a.closed_at \
         FROM after_sales a JOIN orders o ON o.id = a.order_id WHERE a.id = $1 AND a.member_id = $2",
    )
    .bind(id)
    .bind(member.id)
    .fetch_optional(&mut *conn)
    .await?
    .ok_or_else(|| Error::not_found("售后单不存在"))?;
    let messages: Vec<(i64, String, String, i64)> =
        sqlx::query_as("SELECT id, author, body, created_at FROM after_sale_messages WHERE case_id = $1 ORDER BY id")
            .bind(row.id)
            .fetch_all(&mut *conn)
            .await?;
    let photos: Vec<(i64, i64)> = sqlx::query_as(
        "SELECT p.id, p.message_id FROM after_sale_photos p JOIN after_sale_messages m ON m.id = p.message_id \
         WHERE m.case_id = $1 ORDER BY p.id",
    )
    .bind(row.id)
    .fetch_all(&mut *conn)
    .await?;
    let messages = messages
        .into_iter()
        .map(|(message, author, body, created_at)| AfterSaleMessage {
            id: message,
            author,
            body,
            photos: photos
                .iter()
                .filter(|(_, of)| *of == message)
                .map(|(photo, _)| format!("/api/after_sales/{}/photo/{photo}", row.id))
                .collect(),
            created_at,
        })
        .collect();
    Ok(AfterSale {
        id: row.id,
        case_no: row.case_no,
        order_id: row.order_id,
        order_no: row.order_no,
        kind: row.kind.code(),
        kind_name: row.kind.name(),
        status: row.status.code(),
        status_name: row.status.name(),
        created_at: row.created_at,
        updated_at: row.updated_at,
        closed_at: row.closed_at,
        messages,
    })
}

/// A message of a case (`multipart/form-data`): its text, and photos checked as JPEG or PNG by
/// their content.
#[derive(ToSchema)]
pub struct CaseMessage {
    /// 问题描述 (lines), at most 1,000 characters.
    body: String,
    /// Up to 5 JPEG or PNG photos of at most 5 MB each (`photos` or `photos[]`).
    #[schema(value_type = Vec<String>, format = Binary)]
    photos: Vec<upload::Checked>,
}

impl FromUpload for CaseMessage {
    const FILES: (&'static str, usize) = ("photos", PHOTOS_MAX);

    fn from_upload(mut form: upload::Form) -> Result<CaseMessage> {
        let body = form.bounded(text::CASE_MESSAGE)?.ok_or_else(|| Error::field("body", "请描述遇到的问题"))?;
        Ok(CaseMessage { body, photos: upload::photos(std::mem::take(&mut form.files))? })
    }
}

/// A new case: what kind of problem, and its first message.
#[derive(ToSchema)]
pub struct CaseForm {
    /// 问题类型: 1 质量问题, 2 配送问题, 3 其他.
    #[schema(value_type = i64)]
    kind: CaseKind,
    #[serde(flatten)]
    message: CaseMessage,
}

impl FromUpload for CaseForm {
    const FILES: (&'static str, usize) = CaseMessage::FILES;

    fn from_upload(form: upload::Form) -> Result<CaseForm> {
        let kind = form.text("kind");
        let message = CaseMessage::from_upload(form)?;
        let kind: i64 = kind.and_then(|kind| kind.parse().ok()).ok_or_else(|| Error::field("kind", "请选择问题类型"))?;
        let kind = CaseKind::from_code(kind).ok_or_else(|| Error::field("kind", "问题类型不正确"))?;
        Ok(CaseForm { kind, message })
    }
}

async fn store_all(context: &ApiContext, member: Member, photos: &[upload::Checked]) -> Result<Vec<(String, &'static str, i64)>> {
    let names = upload::store(context, member, photos).await?;
    Ok(names.into_iter().zip(photos).map(|(name, photo)| (name, photo.kind.content_type(), photo.bytes.len() as i64)).collect())
}

/// `POST /api/order/{id}/after_sales` (multipart: `kind` 1 质量问题, 2 配送问题, 3 其他;
/// `body` the problem, at most 1,000 characters; `photos` up to 5 JPEG or PNG of at most 5 MB):
/// opens a case on one of the member's paid orders (409 for an unpaid or cancelled one).
#[utoipa::path(post, path = "/api/order/{id}/after_sales", request_body(content = CaseForm, content_type = "multipart/form-data"), tag = "售后", responses((status = 200, description = "新的售后单", body = Envelope<AfterSale>)))]
async fn open(
    State(context): State<ApiContext>,
    member: Member,
    Path(order): Path<i64>,
    Upload(form): Upload<CaseForm>,
) -> Answer<AfterSale> {
    let CaseForm { kind, message: CaseMessage { body, photos } } = form;
    let status: Option<OrderStatus> = sqlx::query_scalar("SELECT status FROM orders WHERE id = $1 AND member_id = $2")
        .bind(order)
        .bind(member.id)
        .fetch_optional(&context.db.pool)
        .await?;
    match status {
        None => return Err(Error::not_found("订单不存在")),
        Some(OrderStatus::Unpaid | OrderStatus::Cancelled) => return Err(Error::conflict("未支付或已取消的订单不能申请售后")),
        Some(_) => {}
    }
    let stored = store_all(&context, member, &photos).await?;
    let now = now();
    let mut conn = context.db.pool.acquire().await?;
    let mut tx = conn.begin().await?;
    let case: i64 = sqlx::query_scalar(
        "INSERT INTO after_sales (case_no, order_id, member_id, kind, status, created_at, updated_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $6) RETURNING id",
    )
    .bind(format!("S{now}{}", hex::encode(rand::random::<[u8; 3]>())))
    .bind(order)
    .bind(member.id)
    .bind(kind)
    .bind(CaseStatus::Open)
    .bind(now)
    .fetch_one(&mut *tx)
    .await?;
    add_message(&mut tx, case, "member", &body, &stored, now).await?;
    tx.commit().await?;
    ok_with("已提交售后申请", load(&mut conn, member, case).await?)
}

/// `POST /api/after_sales/{id}/reply` (multipart `body`, `photos`): the member writes to one of
/// their open cases (409 once resolved).
#[utoipa::path(post, path = "/api/after_sales/{id}/reply", request_body(content = CaseMessage, content_type = "multipart/form-data"), tag = "售后", responses((status = 200, description = "售后单", body = Envelope<AfterSale>)))]
async fn reply(
    State(context): State<ApiContext>,
    member: Member,
    Path(id): Path<i64>,
    Upload(message): Upload<CaseMessage>,
) -> Answer<AfterSale> {
    let CaseMessage { body, photos } = message;
    let mut conn = context.db.pool.acquire().await?;
    let current = load(&mut conn, member, id).await?;
    if current.status != CaseStatus::Open.code() {
        return Err(Error::conflict("售后单已解决，不能再回复"));
    }
    let stored = store_all(&context, member, &photos).await?;
    let mut tx = conn.begin().await?;
    add_message(&mut tx, id, "member", &body, &stored, now()).await?;
    tx.commit().await?;
    ok(load(&mut conn, member, id).await?)
}

/// `POST /api/after_sales/{id}/resolve`: the member closes one of their cases as resolved.
#[utoipa::path(post, path = "/api/after_sales/{id}/resolve", tag = "售后", responses((status = 200, description = "售后单", body = Envelope<AfterSale>)))]
async fn resolve(State(context): State<ApiContext>, member: Member, Path(id): Path<i64>) -> Answer<AfterSale> {
    let mut conn = context.db.pool.acquire().await?;
    let changed =
        sqlx::query("UPDATE after_sales SET status = $1, closed_at = $2, updated_at = $2 WHERE id = $3 AND member_id = $4 AND status = $5")
            .bind(CaseStatus::Resolved)
            .bind(now())
            .bind(id)
            .bind(member.id)
            .bind(CaseStatus::Open)
            .execute(&mut *conn)
            .await?;
    let case = load(&mut conn, member, id).await?;
    if changed.rows_affected() == 0 {
        return Err(Error::conflict("售后单已解决"));
    }
    ok_with("售后单已解决", case)
}

/// One page of the member's cases.
#[derive(Serialize, ToSchema)]
pub struct AfterSalePage {
    list: Vec<AfterSale>,
    total: i64,
    page: i64,
}

/// Which cases: a page, of an order.
#[derive(utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct CaseQuery {
    /// 页码: from 1 (absent: 1), at most 100000.
    #[param(value_type = Option<i64>, minimum = 1, maximum = 100000)]
    page: i64,
    /// One order's only.
    #[param(value_type = Option<i64>)]
    order_id: i64,
}

impl FromFields for CaseQuery {
    fn from_fields(query: &Fields) -> Result<CaseQuery> {
        let page = query.page()?;
        let order = query.int_or("order_id", "订单", 0)?;
        Ok(CaseQuery { page, order_id: order })
    }
}

/// `GET /api/after_sales` (`page`, `order_id` one order's only): the member's cases, newest
/// first, 10 a page.
#[utoipa::path(get, path = "/api/after_sales", params(CaseQuery), operation_id = "after_sale_list", tag = "售后", responses((status = 200, description = "一页售后单", body = Envelope<AfterSalePage>)))]
async fn list(State(context): State<ApiContext>, member: Member, Query(query): Query<CaseQuery>) -> Answer<AfterSalePage> {
    let CaseQuery { page, order_id: order } = query;
    let mut conn = context.db.pool.acquire().await?;
    let filter = "member_id = $1 AND ($2 = 0 OR order_id = $2)";
    let total: i64 = sqlx::query_scalar(sqlx::AssertSqlSafe(format!("SELECT COUNT(*) FROM after_sales WHERE {filter}")))
        .bind(member.id)
        .bind(order)
        .fetch_one(&mut *conn)
        .await?;
    let ids: Vec<i64> = sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
        "SELECT id FROM after_sales WHERE {filter} ORDER BY created_at DESC, id DESC LIMIT 10 OFFSET $3"
    )))
    .bind(member.id)
    .bind(order)
    .bind((page - 1) * 10)
    .fetch_all(&mut *conn)
    .await?;
    let mut list = Vec::with_capacity(ids.len());
    for id in ids {
        list.push(load(&mut conn, member, id).await?);
    }
    ok(AfterSalePage { list, total, page })
}

/// `GET /api/after_sales/{id}`: one of the member's cases with its thread.
#[utoipa::path(get, path = "/api/after_sales/{id}", operation_id = "after_sale_detail", tag = "售后", responses((status = 200, description = "售后单", body = Envelope<AfterSale>)))]
async fn case(State(context): State<ApiContext>, member: Member, Path(id): Path<i64>) -> Answer<AfterSale> {
    let mut conn = context.db.pool.acquire().await?;
    ok(load(&mut conn, member, id).await?)
}

/// `GET /api/after_sales/{id}/photo/{photo}`: a photo of one of the member's cases.
#[utoipa::path(get, path = "/api/after_sales/{id}/photo/{photo}", tag = "售后", responses(
    (status = 200, description = "照片", content(("image/jpeg"), ("image/png")))
))]
async fn photo(State(context): State<ApiContext>, member: Member, Path((id, photo)): Path<(i64, i64)>) -> Result<Response> {
    let found: Option<(String, String)> = sqlx::query_as(
        "SELECT p.file_name, p.file_type FROM after_sale_photos p JOIN after_sale_messages m ON m.id = p.message_id \
         JOIN after_sales a ON a.id = m.case_id WHERE p.id = $1 AND a.id = $2 AND a.member_id = $3",
    )
    .bind(photo)
    .bind(id)
    .bind(member.id)
    .fetch_optional(&context.db.pool)
    .await?;
    let Some((file_name, file_type)) = found else { return Err(Error::not_found("照片不存在")) };
    upload::serve(&context, member, &file_name, &file_type).await
}

/// Whether the member has a case still open (`is_AfterSale` in the user state).
pub async fn has_open(conn: &mut AnyConnection, member: i64) -> sqlx::Result<bool> {
    let open: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM after_sales WHERE member_id = $1 AND status = $2")
        .bind(member)
        .bind(CaseStatus::Open)
        .fetch_one(&mut *conn)
        .await?;
    Ok(open > 0)
}
