//! 批号入库 in the console: goods looked up, a goods' lots, a lot received with its dates and
//! its inspection report (质检报告), a report kept for a lot received before (the warehouse).

use axum::extract::{DefaultBodyLimit, Path, State};
use axum::response::Response;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::{Staff, can};
use crate::domain::catalogue::lots::{Lot, NewLot};
use crate::domain::staff::stock::{self, StockGoods};
use crate::http::ApiContext;
use crate::http::error::{Answer, Envelope, Error, Result, ok};
use crate::http::extract::{Fields, FromFields, Query};
use crate::http::upload::{self, FromUpload, Upload};
use crate::now;

pub fn router() -> OpenApiRouter<ApiContext> {
    // A lot's report is a file of up to 5 MB: these calls take an upload's body.
    OpenApiRouter::new()
        .routes(routes!(goods_lots, receive))
        .routes(routes!(report, keep_report))
        .layer(DefaultBodyLimit::max(upload::BODY_LIMIT))
        .routes(routes!(find_goods))
}

/// What to look up.
#[derive(utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct FindQuery {
    /// The goods' id, or part of its name, manufacturer or approval number.
    keyword: Option<String>,
}

impl FromFields for FindQuery {
    fn from_fields(fields: &Fields) -> Result<FindQuery> {
        Ok(FindQuery { keyword: fields.text("keyword") })
    }
}

/// `GET /api/admin/stock/goods`: up to 20 goods matching the keyword.
#[utoipa::path(get, path = "/api/admin/stock/goods", operation_id = "admin_stock_goods", params(FindQuery), tag = "后台", responses((status = 200, description = "商品", body = Envelope<Vec<StockGoods>>)))]
async fn find_goods(State(context): State<ApiContext>, _: Staff<can::Read>, Query(query): Query<FindQuery>) -> Answer<Vec<StockGoods>> {
    ok(stock::find_goods(&mut *context.db.pool.acquire().await?, query.keyword.as_deref().unwrap_or_default()).await?)
}

/// A goods and its lots.
#[derive(Serialize, ToSchema)]
pub struct GoodsLots {
    goods: StockGoods,
    /// Earliest expiry first, the order shipments take them.
    lots: Vec<Lot>,
}

/// `GET /api/admin/goods/{id}/lots`: a goods and its lots.
#[utoipa::path(get, path = "/api/admin/goods/{id}/lots", operation_id = "admin_goods_lots", params(("id" = i64, Path, description = "商品 id")), tag = "后台", responses((status = 200, description = "批号", body = Envelope<GoodsLots>)))]
async fn goods_lots(State(context): State<ApiContext>, _: Staff<can::Read>, Path(id): Path<i64>) -> Answer<GoodsLots> {
    let (goods, lots) = stock::goods_lots(&mut *context.db.pool.acquire().await?, id).await?;
    ok(GoodsLots { goods, lots })
}

/// A lot received (`multipart/form-data`, or form-encoded without a report).
#[derive(ToSchema)]
pub struct LotForm {
    /// 批号, at most 40 characters.
    lot_no: String,
    /// 生产日期 `YYYY-MM-DD`.
    #[schema(example = "2026-03-01")]
    produced_on: String,
    /// 有效期至 `YYYY-MM-DD`, after the production date and not past.
    #[schema(example = "2028-02-28")]
    expires_on: String,
    /// 入库数量, at least 1.
    quantity: i64,
    /// 质检报告: a PDF, JPEG or PNG of at most 5 MB; optional.
    #[schema(value_type = Option<String>, format = Binary)]
    report: Option<upload::Checked>,
}

/// The report of a form, checked: a PDF, JPEG or PNG.
fn report_of(form: upload::Form) -> Result<Option<upload::Checked>> {
    let allowed = [upload::Kind::Pdf, upload::Kind::Jpeg, upload::Kind::Png];
    form.files.into_iter().next().map(|(name, bytes)| upload::check("report", &name, bytes, &allowed, "PDF、JPG或PNG")).transpose()
}

impl FromUpload for LotForm {
    const FILES: (&'static str, usize) = ("report", 1);
    const FORM_ENCODED_TOO: bool = true;

    fn from_upload(form: upload::Form) -> Result<LotForm> {
        let text = |name: &str| form.text(name).unwrap_or_default();
        let quantity = match form.text("quantity") {
            None => 0,
            Some(quantity) => quantity.parse().map_err(|_| Error::field("quantity", "入库数量须为整数"))?,
        };
        let (lot_no, produced_on, expires_on) = (text("lot_no"), text("produced_on"), text("expires_on"));
        Ok(LotForm { lot_no, produced_on, expires_on, quantity, report: report_of(form)? })
    }
}

/// The lot received.
#[derive(Serialize, ToSchema)]
pub struct LotReceived {
    id: i64,
}

/// `POST /api/admin/goods/{id}/lots`: receives a lot into stock: its units become sellable, its
/// expiry counts for the goods'.
#[utoipa::path(post, path = "/api/admin/goods/{id}/lots", operation_id = "admin_lot_receive", params(("id" = i64, Path, description = "商品 id")), request_body(content = LotForm, content_type = "multipart/form-data"), tag = "后台", responses((status = 200, description = "已入库", body = Envelope<LotReceived>)))]
async fn receive(
    State(context): State<ApiContext>,
    staff: Staff<can::Stock>,
    Path(goods): Path<i64>,
    Upload(form): Upload<LotForm>,
) -> Answer<LotReceived> {
    let lot = NewLot { goods, lot_no: &form.lot_no, produced_on: &form.produced_on, expires_on: &form.expires_on, quantity: form.quantity };
    let report = form.report.as_ref().map(|report| report.bytes.as_ref());
    let id = stock::receive(&mut *context.db.pool.acquire().await?, &staff.actor, &lot, report, now()).await?;
    ok(LotReceived { id })
}

/// A lot's inspection report (`multipart/form-data`).
#[derive(ToSchema)]
pub struct LotReportForm {
    /// 质检报告: a PDF, JPEG or PNG of at most 5 MB.
    #[schema(value_type = String, format = Binary)]
    report: upload::Checked,
}

impl FromUpload for LotReportForm {
    const FILES: (&'static str, usize) = ("report", 1);

    fn from_upload(form: upload::Form) -> Result<LotReportForm> {
        Ok(LotReportForm { report: report_of(form)?.ok_or_else(|| Error::field("report", "请上传质检报告"))? })
    }
}

/// `POST /api/admin/lots/{id}/report`: keeps a lot's inspection report, replacing the one before.
#[utoipa::path(post, path = "/api/admin/lots/{id}/report", operation_id = "admin_lot_report_keep", params(("id" = i64, Path, description = "批号 id")), request_body(content = LotReportForm, content_type = "multipart/form-data"), tag = "后台", responses((status = 200, description = "已保存", body = Envelope<LotReceived>)))]
async fn keep_report(
    State(context): State<ApiContext>,
    staff: Staff<can::Stock>,
    Path(id): Path<i64>,
    Upload(form): Upload<LotReportForm>,
) -> Answer<LotReceived> {
    stock::keep_report(&mut *context.db.pool.acquire().await?, &staff.actor, id, &form.report.bytes, now()).await?;
    ok(LotReceived { id })
}

/// `GET /api/admin/lots/{id}/report`: a lot's inspection report as kept.
#[utoipa::path(get, path = "/api/admin/lots/{id}/report", operation_id = "admin_lot_report", params(("id" = i64, Path, description = "批号 id")), tag = "后台", responses(
    (status = 200, description = "质检报告", content(("application/pdf"), ("image/jpeg"), ("image/png")))
))]
async fn report(State(context): State<ApiContext>, _: Staff<can::Read>, Path(id): Path<i64>) -> Result<Response> {
    let (content_type, body) = stock::report(&mut *context.db.pool.acquire().await?, id).await?;
    Ok(crate::http::lot::served(id, content_type, body))
}
