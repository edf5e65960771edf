//! Returns (退货, `/order/returnInfo/{id}`): an order's lines with what can still be returned,
//! the refund of a choice before it is requested (the engine's rule 20, to the cent), requesting
//! a return with a reason and photos, withdrawing it while not reviewed, and the order's returns
//! with their states. The states and the refund are `crate::domain::returns`'s; the shop reviews and
//! receives returns with `origin admin approve-return | reject-return | receive-return`.

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
use crate::domain::orders::life::Actor;
use crate::domain::returns::{self, Refusal, ReturnReason, ReturnStatus, Step};
use crate::security::text;
use crate::{money, now};

pub fn router() -> OpenApiRouter<ApiContext> {
    OpenApiRouter::new()
        .routes(routes!(request))
        .layer(DefaultBodyLimit::max(upload::BODY_LIMIT))
        .routes(routes!(info))
        .routes(routes!(quote))
        .routes(routes!(withdraw))
        .routes(routes!(photo))
}

const PHOTOS_MAX: usize = 5;

impl From<Refusal> for Error {
    fn from(refusal: Refusal) -> Error {
        match refusal {
            Refusal::Field(field, message) => Error::field(&field, message),
            Refusal::State(message) if message.ends_with("不存在") => Error::not_found(message),
            Refusal::State(message) => Error::conflict(message),
        }
    }
}

/// An order's returns page.
#[derive(Serialize, ToSchema)]
pub struct ReturnInfo {
    order_id: i64,
    order_no: String,
    /// The order's state (0–4).
    status: i64,
    #[schema(value_type = String, example = "已完成")]
    status_name: &'static str,
    /// Whether a return can be requested now; if not, `refusal` says why.
    can_return: bool,
    refusal: String,
    /// Refunded to the balance for this order so far.
    #[schema(example = "3.33")]
    refunded: String,
    lines: Vec<ReturnableLine>,
    /// The order's returns, newest first.
    returns: Vec<ReturnRecord>,
    /// The reasons a return may give.
    reasons: Vec<Reason>,
}

/// An order line, with its units returned and still returnable.
#[derive(Serialize, ToSchema, sqlx::FromRow)]
pub struct ReturnableLine {
    /// The order line's id (what a return names).
    id: i64,
    goods_id: i64,
    /// 0 normal, 1 秒杀 flash sale, 3 组合购 combination (whose `ypgg` holds the set's contents).
    #[serde(rename = "type")]
    #[sqlx(rename = "type")]
    line_type: i64,
    name: String,
    ypgg: String,
    sccj: String,
    bzdw: String,
    number: i64,
    #[sqlx(skip)]
    #[schema(example = "10.00")]
    price: String,
    /// What the line paid (rule 19): returning all of it refunds this.
    #[sqlx(skip)]
    #[schema(example = "30.00")]
    paid: String,
    /// Units refunded already.
    returned: i64,
    /// Units that can still be returned: shipped and not returned (none while a return is open).
    #[sqlx(skip)]
    returnable: i64,
    /// Units shipped so far.
    shipped: i64,
    /// The lots it shipped from with units not yet returned (lot id, number, expiry, units
    /// shipped and returned): a return of a line shipped from several names one.
    #[sqlx(skip)]
    lots: Vec<returns::lots::LineLot>,
    /// Refunded for the line so far.
    #[sqlx(skip)]
    #[schema(example = "10.00")]
    refunded: String,
    #[serde(skip)]
    #[schema(ignore)]
    price_stored: i64,
    #[serde(skip)]
    #[schema(ignore)]
    paid_stored: i64,
    #[serde(skip)]
    #[schema(ignore)]
    refunded_stored: i64,
}

#[derive(Serialize, ToSchema)]
pub struct Reason {
    id: i64,
    #[schema(example = "质量问题")]
    name: &'static str,
}

/// A return with its lines, refund and photos.
#[derive(Serialize, ToSchema)]
pub struct ReturnRecord {
    id: i64,
    return_no: String,
    /// 1 质量问题, 2 发错货, 3 商品破损, 4 效期问题, 5 不想要了, 6 其他.
    reason: i64,
    #[schema(value_type = String, example = "质量问题")]
    reason_name: &'static str,
    description: String,
    /// 0 待审核, 1 待退货, 2 已拒绝, 3 已退款, 4 已撤销.
    status: i64,
    #[schema(value_type = String, example = "待审核")]
    status_name: &'static str,
    /// To the balance.
    #[schema(example = "3.33")]
    refund: String,
    /// Back to the red-packet account.
    #[schema(example = "0.17")]
    red_packet: String,
    points_back: i64,
    /// Earned points taken back from the member's account (rule 21; before the refund, as the
    /// points held when it was requested).
    points_taken: i64,
    /// Earned points due back that the member no longer held (spent since).
    points_short: i64,
    /// Their value, taken out of the refund (rule 21).
    #[schema(example = "0.00")]
    points_deducted: String,
    /// The order's cash back (满额返现) taken back out of the refund.
    #[schema(example = "0.00")]
    cashback_taken: String,
    /// The shop's note (why rejected, where to send the goods).
    operator_note: String,
    created_at: i64,
    #[schema(required = true)]
    reviewed_at: Option<i64>,
    #[schema(required = true)]
    refunded_at: Option<i64>,
    lines: Vec<ReturnRecordLine>,
    /// The photos' addresses (their member only).
    photos: Vec<String>,
    /// `withdraw` while it is not reviewed.
    #[schema(value_type = Vec<String>)]
    actions: Vec<&'static str>,
}

#[derive(Serialize, ToSchema)]
pub struct ReturnRecordLine {
    order_item_id: i64,
    name: String,
    number: i64,
    /// The lot it came back from; empty for a set, or a line shipped before lots were kept.
    lot_no: String,
    #[schema(example = "3.33")]
    refund: String,
    #[schema(example = "0.17")]
    red_packet: String,
}

#[derive(sqlx::FromRow)]
struct RecordRow {
    id: i64,
    return_no: String,
    reason: ReturnReason,
    description: String,
    status: ReturnStatus,
    refund: i64,
    red_packet: i64,
    points_back: i64,
    points_taken: i64,
    points_short: i64,
    points_deducted: i64,
    cashback_taken: i64,
    operator_note: String,
    created_at: i64,
    reviewed_at: Option<i64>,
    refunded_at: Option<i64>,
}

async fn load(conn: &mut AnyConnection, member: Member, order: i64) -> Result<ReturnInfo> {
    let facts = returns::order_facts(conn, order, Some(member.id)).await?.ok_or_else(|| Error::not_found("订单不存在"))?;
    let mut lines: Vec<ReturnableLine> = sqlx::query_as(
        "SELECT id, goods_id, type, name, ypgg, sccj, bzdw, number, price AS price_stored, paid AS paid_stored, returned, \
         refunded AS refunded_stored, shipped FROM order_items WHERE order_id = $1 ORDER BY id",
    )
    .bind(order)
    .fetch_all(&mut *conn)
    .await?;
    let refusal = returns::returnable(&facts).err();
    let lots = returns::lots::line_lots(conn, order).await?;
    for line in &mut lines {
        line.price = money::text(line.price_stored);
        line.paid = money::text(line.paid_stored);
        line.refunded = money::text(line.refunded_stored);
        line.returnable = if refusal.is_some() { 0 } else { (line.shipped - line.returned).max(0) };
        line.lots = lots.iter().filter(|lot| lot.item == line.id && lot.shipped > lot.returned).cloned().collect();
    }
    let rows: Vec<RecordRow> = sqlx::query_as(
        "SELECT id, return_no, reason, description, status, refund, red_packet, points_back, points_taken, points_short, points_deducted, \
         cashback_taken, operator_note, \
         created_at, reviewed_at, refunded_at FROM returns WHERE order_id = $1 AND member_id = $2 ORDER BY created_at DESC, id DESC",
    )
    .bind(order)
    .bind(member.id)
    .fetch_all(&mut *conn)
    .await?;
    let mut records = Vec::with_capacity(rows.len());
    for row in rows {
        let record_lines: Vec<(i64, String, i64, i64, i64, Option<String>)> = sqlx::query_as(
            "SELECT l.order_item_id, i.name, l.number, l.refund, l.red_packet, g.lot_no FROM return_lines l \
             JOIN order_items i ON i.id = l.order_item_id LEFT JOIN goods_lots g ON g.id = l.lot_id WHERE l.return_id = $1 ORDER BY l.id",
        )
        .bind(row.id)
        .fetch_all(&mut *conn)
        .await?;
        let photos: Vec<i64> =
            sqlx::query_scalar("SELECT id FROM return_photos WHERE return_id = $1 ORDER BY id").bind(row.id).fetch_all(&mut *conn).await?;
        records.push(ReturnRecord {
            id: row.id,
            return_no: row.return_no,
            reason: row.reason.code(),
            reason_name: row.reason.name(),
            description: row.description,
            status: row.status.code(),
            status_name: row.status.name(),
            refund: money::text(row.refund),
            red_packet: money::text(row.red_packet),
            points_back: row.points_back,
            points_taken: row.points_taken,
            points_short: row.points_short,
            points_deducted: money::text(row.points_deducted),
            cashback_taken: money::text(row.cashback_taken),
            operator_note: row.operator_note,
            created_at: row.created_at,
            reviewed_at: row.reviewed_at,
            refunded_at: row.refunded_at,
            lines: record_lines
                .into_iter()
                .map(|(order_item_id, name, number, refund, red_packet, lot_no)| ReturnRecordLine {
                    order_item_id,
                    name,
                    number,
                    lot_no: lot_no.unwrap_or_default(),
                    refund: money::text(refund),
                    red_packet: money::text(red_packet),
                })
                .collect(),
            photos: photos.into_iter().map(|photo| format!("/api/return/{}/photo/{photo}", row.id)).collect(),
            actions: if row.status == ReturnStatus::Requested { vec!["withdraw"] } else { Vec::new() },
        });
    }
    Ok(ReturnInfo {
        order_id: facts.id,
        order_no: facts.order_no,
        status: facts.status.code(),
        status_name: facts.status.name(),
        can_return: refusal.is_none() && lines.iter().any(|line| line.returnable > 0),
        refusal: match refusal {
            Some(Refusal::State(message) | Refusal::Field(_, message)) => message,
            None if lines.iter().all(|line| line.returned == line.number) => "订单商品已全部退货".into(),
            None if lines.iter().all(|line| line.returnable == 0) => "已发货的商品已全部退货".into(),
            None => String::new(),
        },
        refunded: money::text(facts.refunded),
        lines,
        returns: records,
        reasons: ReturnReason::ALL.iter().map(|reason| Reason { id: reason.code(), name: reason.name() }).collect(),
    })
}

/// `GET /api/order/{id}/returns`: one of the member's orders as its returns page — its lines
/// with the units returned and returnable, whether a return can be requested (or why not), and
/// its returns.
#[utoipa::path(get, path = "/api/order/{id}/returns", operation_id = "return_info", tag = "退货", responses((status = 200, description = "订单的退货", body = Envelope<ReturnInfo>)))]
async fn info(State(context): State<ApiContext>, member: Member, Path(order): Path<i64>) -> Answer<ReturnInfo> {
    let mut conn = context.db.pool.acquire().await?;
    ok(load(&mut conn, member, order).await?)
}

/// What returning the chosen units refunds.
#[derive(Serialize, ToSchema)]
pub struct ReturnQuote {
    lines: Vec<ReturnQuoteLine>,
    /// To the balance (rule 20 on each line's `paid`).
    #[schema(example = "3.33")]
    refund: String,
    /// Back to the red-packet account.
    #[schema(example = "0.17")]
    red_packet: String,
    /// The money value of the points given back.
    #[schema(example = "0.10")]
    points_value: String,
    points_back: i64,
    /// Earned points taken back from the member's account (rule 21).
    points_taken: i64,
    /// Earned points due back that the member no longer holds (spent since).
    points_short: i64,
    /// Their value, taken out of `refund` (rule 21).
    #[schema(example = "0.00")]
    points_deducted: String,
    /// The order's cash back (满额返现) it no longer earns, taken out of `refund`.
    #[schema(example = "0.00")]
    cashback_taken: String,
}

#[derive(Serialize, ToSchema)]
pub struct ReturnQuoteLine {
    id: i64,
    number: i64,
    #[schema(example = "3.33")]
    refund: String,
    #[schema(example = "0.17")]
    red_packet: String,
    #[schema(example = "0.10")]
    points_value: String,
}

/// Which units a return quote is for.
#[derive(utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ReturnQuoteQuery {
    /// The order's lines and units: `12:1,13:2` (line id:units).
    #[param(value_type = String, example = "12:1,13:2")]
    lines: Vec<returns::Wanted>,
}

impl FromFields for ReturnQuoteQuery {
    fn from_fields(query: &Fields) -> Result<ReturnQuoteQuery> {
        Ok(ReturnQuoteQuery { lines: returns::parse_lines(&query.text("lines").unwrap_or_default())? })
    }
}

/// `GET /api/order/{id}/return_quote` (`lines`: `12:1,13:2`, order line id and units): what
/// returning those units of one of the member's orders would refund now, to the cent.
#[utoipa::path(get, path = "/api/order/{id}/return_quote", params(ReturnQuoteQuery), operation_id = "return_quote", tag = "退货", responses((status = 200, description = "退款金额", body = Envelope<ReturnQuote>)))]
async fn quote(
    State(context): State<ApiContext>,
    member: Member,
    Path(order): Path<i64>,
    Query(ReturnQuoteQuery { lines: wanted }): Query<ReturnQuoteQuery>,
) -> Answer<ReturnQuote> {
    let mut conn = context.db.pool.acquire().await?;
    let facts = returns::order_facts(&mut conn, order, Some(member.id)).await?.ok_or_else(|| Error::not_found("订单不存在"))?;
    returns::returnable(&facts)?;
    let lines = returns::line_facts(&mut conn, order).await?;
    let held: i64 = sqlx::query_scalar("SELECT points FROM members WHERE id = $1").bind(member.id).fetch_one(&mut *conn).await?;
    let per_yuan = crate::domain::settlement::settings(&mut conn).await?.points_per_yuan;
    returns::lots::resolve(&lines, &returns::lots::line_lots(&mut conn, order).await?, &wanted)?;
    let refund = returns::compute(&facts, &lines, &wanted, held, per_yuan)??;
    ok(ReturnQuote {
        lines: refund
            .lines
            .iter()
            .map(|line| ReturnQuoteLine {
                id: line.item,
                number: line.number,
                refund: money::text(line.refund),
                red_packet: money::text(line.red_packet),
                points_value: money::text(line.points_value),
            })
            .collect(),
        refund: money::text(refund.refund),
        red_packet: money::text(refund.red_packet),
        points_value: money::text(refund.points_value),
        points_back: refund.points_back,
        points_taken: refund.points_taken,
        points_short: refund.points_short,
        points_deducted: money::text(refund.points_deducted),
        cashback_taken: money::text(refund.cashback_taken),
    })
}

/// A return asked for (`multipart/form-data`).
#[derive(ToSchema)]
pub struct ReturnForm {
    /// The order's lines and units to return: `12:1,13:2:345` (line id:units, and the lot's id
    /// when the line shipped from several).
    #[schema(value_type = String, example = "12:1,13:2")]
    lines: Vec<returns::Wanted>,
    /// 退货原因, 1–6.
    #[schema(value_type = i64)]
    reason: ReturnReason,
    /// 问题描述 (lines), at most 500 characters; required for 其他.
    #[schema(value_type = Option<String>)]
    description: String,
    /// The refund the member was shown, in yuan: a different one now is refused (409).
    #[schema(value_type = Option<String>)]
    refund: Option<i64>,
    /// Up to 5 JPEG or PNG photos of at most 5 MB each (`photos` or `photos[]`).
    #[schema(value_type = Vec<String>, format = Binary)]
    photos: Vec<upload::Checked>,
}

impl FromUpload for ReturnForm {
    const FILES: (&'static str, usize) = ("photos", PHOTOS_MAX);

    fn from_upload(mut form: upload::Form) -> Result<ReturnForm> {
        let lines = returns::parse_lines(&form.text("lines").unwrap_or_default())?;
        let reason: i64 =
            form.text("reason").and_then(|reason| reason.parse().ok()).ok_or_else(|| Error::field("reason", "请选择退货原因"))?;
        let reason = ReturnReason::from_code(reason).ok_or_else(|| Error::field("reason", "退货原因不正确"))?;
        let description = form.bounded(text::RETURN_DESCRIPTION)?.unwrap_or_default();
        if description.is_empty() && reason == ReturnReason::Other {
            return Err(Error::field("description", "请描述退货原因"));
        }
        let refund = match form.text("refund") {
            None => None,
            Some(text) => Some(money::parse_stored(&text).ok_or_else(|| Error::field("refund", "退款金额格式不正确"))?),
        };
        Ok(ReturnForm { lines, reason, description, refund, photos: upload::photos(std::mem::take(&mut form.files))? })
    }
}

/// `POST /api/order/{id}/return` (multipart: `lines` `12:1,13:2:345`, the lot's id after the
/// units of a line shipped from several; `reason` 1–6; `description`
/// at most 500 characters, required for 其他; `refund` the refund shown, optional: a different
/// one now is refused with 409; `photos` up to 5 JPEG or PNG of at most 5 MB): requests a
/// return of a shipped or completed order of the member's. One return of an order is open at a
/// time (409 while another is).
#[utoipa::path(post, path = "/api/order/{id}/return", request_body(content = ReturnForm, content_type = "multipart/form-data"), operation_id = "return_request", tag = "退货", responses((status = 200, description = "订单的退货", body = Envelope<ReturnInfo>)))]
async fn request(
    State(context): State<ApiContext>,
    member: Member,
    Path(order): Path<i64>,
    Upload(form): Upload<ReturnForm>,
) -> Answer<ReturnInfo> {
    let ReturnForm { lines: wanted, reason, description, refund: expected_refund, photos } = form;
    // Refused early, before any photo is stored, when the order cannot take a return.
    let mut conn = context.db.pool.acquire().await?;
    let facts = returns::order_facts(&mut conn, order, Some(member.id)).await?.ok_or_else(|| Error::not_found("订单不存在"))?;
    returns::returnable(&facts)?;
    let names = upload::store(&context, member, &photos).await?;
    let stored: Vec<_> =
        names.into_iter().zip(&photos).map(|(name, photo)| (name, photo.kind.content_type(), photo.bytes.len() as i64)).collect();
    let request =
        returns::Request { order, member: member.id, wanted: &wanted, reason, description: &description, expected_refund, photos: &stored };
    let mut tx = conn.begin().await?;
    returns::request(&mut tx, &request, now()).await??;
    tx.commit().await?;
    ok_with("已提交退货申请", load(&mut conn, member, order).await?)
}

/// `POST /api/return/{id}/withdraw`: the member withdraws one of their returns not yet reviewed
/// (409 once reviewed); the order may take another.
#[utoipa::path(post, path = "/api/return/{id}/withdraw", operation_id = "return_withdraw", tag = "退货", responses((status = 200, description = "订单的退货", body = Envelope<ReturnInfo>)))]
async fn withdraw(State(context): State<ApiContext>, member: Member, Path(id): Path<i64>) -> Answer<ReturnInfo> {
    let mut conn = context.db.pool.acquire().await?;
    let mut tx = conn.begin().await?;
    let (moved, _) = returns::step(&mut tx, id, Some(member.id), Step::Withdraw, Actor::Member, "", now()).await??;
    tx.commit().await?;
    ok_with("已撤销退货申请", load(&mut conn, member, moved.order_id).await?)
}

/// `GET /api/return/{id}/photo/{photo}`: a photo of one of the member's returns.
#[utoipa::path(get, path = "/api/return/{id}/photo/{photo}", operation_id = "return_photo", tag = "退货", responses(
    (status = 200, description = "照片", content(("image/jpeg"), ("image/png")))
))]
async fn photo(State(context): State<ApiContext>, member: Member, Path((id, photo)): Path<(i64, i64)>) -> Result<Response> {
    let found: Option<(String, String)> = sqlx::query_as(
        "SELECT p.file_name, p.file_type FROM return_photos p JOIN returns r ON r.id = p.return_id \
         WHERE p.id = $1 AND r.id = $2 AND r.member_id = $3",
    )
    .bind(photo)
    .bind(id)
    .bind(member.id)
    .fetch_optional(&context.db.pool)
    .await?;
    let Some((file_name, file_type)) = found else { return Err(Error::not_found("照片不存在")) };
    upload::serve(&context, member, &file_name, &file_type).await
}
