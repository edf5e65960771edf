//! Orders in the console: lists by state, date, member and number; one order (found by its
//! number, as printed, or its id); shipping in parts, logistics events, cancelling an unpaid
//! order, and each parcel's delivery note.

use axum::extract::{Path, State};
use axum::response::Response;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::{Page, Staff, can, day, paging};
use crate::domain::orders::life::OrderStatus;
use crate::domain::orders::shipping;
use crate::domain::staff::orders::{self, Filter, OrderRow, ShipOutcome};
use crate::http::ApiContext;
use crate::http::error::{Answer, Envelope, Error, Result, ok};
use crate::http::extract::{Fields, Form, FromFields, Member, Query};
use crate::http::order::detail::{OrderDetail, order_json};
use crate::now;

pub fn router() -> OpenApiRouter<ApiContext> {
    OpenApiRouter::new()
        .routes(routes!(list))
        .routes(routes!(export))
        .routes(routes!(detail))
        .routes(routes!(ship))
        .routes(routes!(logistics))
        .routes(routes!(cancel))
        .routes(routes!(note))
}

/// Which orders.
#[derive(utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ListQuery {
    /// 0 待付款, 1 待发货, 2 待收货, 3 已完成, 4 已取消; absent: all.
    #[param(value_type = Option<i64>)]
    status: Option<OrderStatus>,
    /// 订单号, or its start.
    number: Option<String>,
    /// The member's id, or part of their account, company or phone.
    member: Option<String>,
    /// Placed on or after this day, `YYYY-MM-DD` (China's time).
    #[param(value_type = Option<String>)]
    from: Option<i64>,
    /// Placed on or before this day, `YYYY-MM-DD`.
    #[param(value_type = Option<String>)]
    to: Option<i64>,
    /// 页码: from 1.
    #[param(value_type = Option<i64>)]
    page: i64,
    /// 每页条数: 1–100, 20 when absent.
    #[param(value_type = Option<i64>)]
    size: i64,
}

impl FromFields for ListQuery {
    fn from_fields(fields: &Fields) -> Result<ListQuery> {
        let status = match fields.int("status", "订单状态")? {
            None => None,
            Some(code) => Some(OrderStatus::from_code(code).ok_or_else(|| Error::field("status", "订单状态不正确"))?),
        };
        let (page, size) = paging(fields)?;
        Ok(ListQuery {
            status,
            number: fields.text("number"),
            member: fields.text("member"),
            from: day(fields, "from", "开始日期")?,
            to: day(fields, "to", "结束日期")?.map(|day| day + 86_400),
            page,
            size,
        })
    }
}

/// `GET /api/admin/orders`: orders, newest first.
#[utoipa::path(get, path = "/api/admin/orders", operation_id = "admin_orders", params(ListQuery), tag = "后台", responses((status = 200, description = "订单列表", body = Envelope<Page<OrderRow>>)))]
async fn list(State(context): State<ApiContext>, _: Staff<can::Read>, Query(query): Query<ListQuery>) -> Answer<Page<OrderRow>> {
    let ListQuery { status, number, member, from, to, page, size } = query;
    let filter = Filter { status, number, member, from, to };
    let (list, total) = orders::list(&mut *context.db.pool.acquire().await?, &filter, page, size).await?;
    ok(Page { list, total, page, size })
}

/// `GET /api/admin/orders/export`: the orders the list's filters find (the page aside), as an
/// Excel workbook: sheet 订单, and sheet 明细 with every line. Recorded in the audit trail.
#[utoipa::path(get, path = "/api/admin/orders/export", operation_id = "admin_orders_export", params(ListQuery), tag = "后台", responses(
    (status = 200, description = "订单（Excel）", content_type = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", body = String)
))]
async fn export(State(context): State<ApiContext>, staff: Staff<can::Read>, Query(query): Query<ListQuery>) -> Result<Response> {
    let ListQuery { status, number, member, from, to, .. } = query;
    let filter = Filter { status, number, member, from, to };
    let book = crate::domain::staff::export::orders(&mut *context.db.pool.acquire().await?, &staff.actor, &filter, now()).await?;
    Ok(super::xlsx("orders", book))
}

/// The member an order is for.
#[derive(Serialize, ToSchema, sqlx::FromRow)]
pub struct Buyer {
    id: i64,
    username: String,
    company: String,
    phone: String,
}

/// One order as the console shows it: its member, and the order as the member sees it.
#[derive(Serialize, ToSchema)]
pub struct AdminOrder {
    member: Buyer,
    order: OrderDetail,
}

async fn order_of(context: &ApiContext, reference: &str) -> Result<(i64, Buyer)> {
    let mut conn = context.db.pool.acquire().await?;
    let id = orders::resolve(&mut conn, reference).await?;
    let buyer: Buyer =
        sqlx::query_as("SELECT m.id, m.username, m.company, m.phone FROM orders o JOIN members m ON m.id = o.member_id WHERE o.id = $1")
            .bind(id)
            .fetch_one(&mut *conn)
            .await?;
    Ok((id, buyer))
}

/// `GET /api/admin/orders/{order}`: one order, by its number or id.
#[utoipa::path(get, path = "/api/admin/orders/{order}", operation_id = "admin_order", params(("order" = String, Path, description = "订单号或订单 id")), tag = "后台", responses((status = 200, description = "订单详情", body = Envelope<AdminOrder>)))]
async fn detail(State(context): State<ApiContext>, _: Staff<can::Read>, Path(reference): Path<String>) -> Answer<AdminOrder> {
    let (id, member) = order_of(&context, &reference).await?;
    let order = order_json(&mut *context.db.pool.acquire().await?, Member { id: member.id }, id, context.pay_minutes).await?;
    ok(AdminOrder { member, order })
}

/// A parcel to ship.
#[derive(ToSchema)]
pub struct ShipForm {
    /// 物流公司.
    carrier: String,
    /// 运单号.
    tracking: String,
    /// The part: order line id and units, `12:3,13:1`; every unit not yet shipped when absent.
    lines: Option<String>,
    #[schema(ignore)]
    parts: Option<Vec<shipping::Part>>,
}

impl FromFields for ShipForm {
    fn from_fields(fields: &Fields) -> Result<ShipForm> {
        let carrier = fields.required("carrier", "物流公司")?;
        let tracking = fields.required("tracking", "运单号")?;
        let lines = fields.text("lines");
        let parts = lines.as_deref().map(shipping::parse_parts).transpose()?;
        Ok(ShipForm { carrier, tracking, lines, parts })
    }
}

/// `POST /api/admin/orders/{order}/ship`: ships a paid order, or its next part; the lots are
/// taken earliest expiry first.
#[utoipa::path(post, path = "/api/admin/orders/{order}/ship", operation_id = "admin_order_ship", params(("order" = String, Path, description = "订单号或订单 id")), request_body(content = ShipForm, content_type = "application/x-www-form-urlencoded"), tag = "后台", responses((status = 200, description = "已发货的包裹", body = Envelope<ShipOutcome>)))]
async fn ship(
    State(context): State<ApiContext>,
    staff: Staff<can::Ship>,
    Path(reference): Path<String>,
    Form(form): Form<ShipForm>,
) -> Answer<ShipOutcome> {
    let (id, _) = order_of(&context, &reference).await?;
    let _ = &form.lines;
    let mut conn = context.db.pool.acquire().await?;
    ok(orders::ship(&mut conn, &staff.actor, id, &form.carrier, &form.tracking, form.parts.as_deref(), now()).await?)
}

/// A carrier's event.
#[derive(ToSchema)]
pub struct LogisticsForm {
    /// The parcel (shipment id) it follows; the latest when absent.
    shipment: Option<i64>,
    /// 地点.
    place: Option<String>,
    /// 物流信息.
    description: String,
}

impl FromFields for LogisticsForm {
    fn from_fields(fields: &Fields) -> Result<LogisticsForm> {
        Ok(LogisticsForm {
            shipment: fields.int("shipment", "包裹")?,
            place: fields.text("place"),
            description: fields.required("description", "物流信息")?,
        })
    }
}

/// OrderDone, and the order's number.
#[derive(Serialize, ToSchema)]
pub struct OrderDone {
    order_no: String,
}

/// `POST /api/admin/orders/{order}/logistics`: adds a carrier's event to a shipped order.
#[utoipa::path(post, path = "/api/admin/orders/{order}/logistics", operation_id = "admin_order_logistics", params(("order" = String, Path, description = "订单号或订单 id")), request_body(content = LogisticsForm, content_type = "application/x-www-form-urlencoded"), tag = "后台", responses((status = 200, description = "已添加", body = Envelope<OrderDone>)))]
async fn logistics(
    State(context): State<ApiContext>,
    staff: Staff<can::Ship>,
    Path(reference): Path<String>,
    Form(form): Form<LogisticsForm>,
) -> Answer<OrderDone> {
    let (id, _) = order_of(&context, &reference).await?;
    let mut conn = context.db.pool.acquire().await?;
    let place = form.place.unwrap_or_default();
    let order_no = orders::add_logistics(&mut conn, &staff.actor, id, form.shipment, &place, &form.description, now()).await?;
    ok(OrderDone { order_no })
}

/// Why an order is cancelled.
#[derive(ToSchema)]
pub struct CancelForm {
    /// 取消原因, which the member reads.
    reason: String,
}

impl FromFields for CancelForm {
    fn from_fields(fields: &Fields) -> Result<CancelForm> {
        Ok(CancelForm { reason: fields.required("reason", "取消原因")? })
    }
}

/// `POST /api/admin/orders/{order}/cancel`: cancels an unpaid order (409 otherwise).
#[utoipa::path(post, path = "/api/admin/orders/{order}/cancel", operation_id = "admin_order_cancel", params(("order" = String, Path, description = "订单号或订单 id")), request_body(content = CancelForm, content_type = "application/x-www-form-urlencoded"), tag = "后台", responses((status = 200, description = "已取消", body = Envelope<OrderDone>)))]
async fn cancel(
    State(context): State<ApiContext>,
    staff: Staff<can::CancelOrders>,
    Path(reference): Path<String>,
    Form(form): Form<CancelForm>,
) -> Answer<OrderDone> {
    let (id, _) = order_of(&context, &reference).await?;
    let mut conn = context.db.pool.acquire().await?;
    let order_no = orders::cancel(&mut conn, &staff.actor, id, &form.reason, now()).await?;
    ok(OrderDone { order_no })
}

/// `GET /api/admin/orders/{order}/shipments/{shipment}/note.pdf`: a parcel's delivery note.
#[utoipa::path(get, path = "/api/admin/orders/{order}/shipments/{shipment}/note.pdf", operation_id = "admin_delivery_note", params(("order" = String, Path, description = "订单号或订单 id"), ("shipment" = i64, Path, description = "包裹 id")), tag = "后台", responses((status = 200, description = "随货同行单 PDF", content_type = "application/pdf", body = String)))]
async fn note(
    State(context): State<ApiContext>,
    _: Staff<can::Read>,
    Path((reference, shipment)): Path<(String, i64)>,
) -> Result<Response> {
    let (id, member) = order_of(&context, &reference).await?;
    crate::http::order::note::pdf(&mut *context.db.pool.acquire().await?, Member { id: member.id }, id, shipment).await
}
