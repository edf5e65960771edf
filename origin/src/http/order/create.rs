//! `POST /api/order`'s transaction: the order placed (`crate::domain::orders::place`) and its
//! answer kept under the idempotency key, in one transaction — an order never exists without
//! its answer.

use axum::http::StatusCode;
use serde::Serialize;
use serde_json::Value;
use sqlx::Acquire;
use utoipa::ToSchema;

use super::form::OrderRequest;
use crate::domain::orders::life::OrderStatus;
use crate::domain::orders::place::{NewOrder, Placed, place};
use crate::http::error::{Envelope, Error, Result};
use crate::http::extract::{Member, checked, int};
use crate::http::{ApiContext, idempotency};
use crate::now;
use crate::security::text;
use engine::contract::Settlement;

/// An order just placed.
#[derive(Serialize, ToSchema)]
pub struct PlacedOrder {
    id: i64,
    order_no: String,
    /// 0: 待付款.
    status: i64,
    #[schema(value_type = String, example = "待付款")]
    status_name: &'static str,
    #[schema(value_type = String, example = "120.00")]
    total: engine::Cents,
    #[schema(value_type = String, example = "10.00")]
    discount: engine::Cents,
    #[schema(value_type = String, example = "110.00")]
    payable: engine::Cents,
    /// What the order settled: coupon, voucher, red packets, points, shipping fee and the
    /// amount due, with each line's shares.
    #[schema(value_type = Settlement)]
    settlement: engine::Settlement,
    /// What the member pays.
    #[schema(value_type = String, example = "98.00")]
    due: engine::Cents,
}

/// Places the order and answers the success envelope, kept under the idempotency key in the
/// order's own transaction.
pub(super) async fn create_order(context: &ApiContext, member: Member, key: &str, token: &str, form: &OrderRequest) -> Result<Value> {
    let address_id = int("address_id", "收货地址", form.address_id.clone())?.ok_or_else(|| Error::field("address_id", "请选择收货地址"))?;
    let remark = checked(text::REMARK, form.remark.clone())?.unwrap_or_default();
    let expected = form.order.expectations()?;
    let order = order_check::form::OrderForm { ids: form.lines.to_vec(), ..form.order.clone() };
    let mut conn = context.db.pool.acquire().await?;
    let mut tx = conn.begin().await?;
    let new = NewOrder { order: &order, expected, address_id, remark: &remark };
    let Placed { id, order_no, total, discount, payable, settlement } = place(&mut tx, context.db.kind, member.id, new, now()).await?;
    let answer = serde_json::to_value(Envelope::success(PlacedOrder {
        id,
        order_no,
        status: OrderStatus::Unpaid.code(),
        status_name: OrderStatus::Unpaid.name(),
        total,
        discount,
        payable,
        due: settlement.due,
        settlement,
    }))
    .map_err(anyhow::Error::from)?;
    idempotency::save(&mut tx, member.id, key, token, StatusCode::OK, &answer.to_string()).await?;
    tx.commit().await?;
    Ok(answer)
}
