//! The forms of checkout, ordering and paying: the order form as the edge read and signed it
//! (`order_check::form`, the one reader both sides share), and what an order adds to it.

use order_check::form::OrderForm;
use utoipa::ToSchema;

use crate::http::error::{Error, Result};
use crate::http::extract::{Fields, FromFields};

/// The fields of a checkout or order form that the edge reads, checks and signs.
#[derive(ToSchema)]
pub struct OrderFormFields {
    /// The chosen cart lines (`ids=1,2`, `ids[]=1&ids[]=2`).
    pub ids: Vec<i64>,
    /// 应付金额 the buyer was shown (`"123.40"`); the edge refuses an order without it.
    pub expected_payable: Option<String>,
    /// 实付金额 the buyer was shown, after the settlement.
    pub expected_due: Option<String>,
    /// The coupon to use: absent the engine's best, 0 none.
    pub coupon_id: Option<i64>,
    /// The cash voucher to use: absent the engine's best, 0 none.
    pub cash_voucher_id: Option<i64>,
    /// 1 spends the red-packet balance.
    pub use_red_packet: Option<i64>,
    /// 1 spends points.
    pub use_points: Option<i64>,
}

/// A checkout's form: the order form alone. Its amounts are judged after the member is known
/// to be allowed to order.
#[derive(ToSchema)]
pub struct CheckoutForm {
    #[serde(flatten)]
    #[schema(value_type = OrderFormFields)]
    pub order: OrderForm,
}

impl FromFields for CheckoutForm {
    fn from_fields(fields: &Fields) -> Result<CheckoutForm> {
        Ok(CheckoutForm { order: fields.order_form()? })
    }
}

/// An order's form (and an order's answer's, which names the same order): the order form, the
/// address and the remark. The address and the remark are checked inside the order's
/// idempotent attempt, so that their refusal is kept under the key like any other.
#[derive(ToSchema)]
pub struct OrderRequest {
    /// The lines, sorted and once each (at most 500 given).
    #[schema(ignore)]
    pub lines: Vec<i64>,
    #[serde(flatten)]
    #[schema(value_type = OrderFormFields)]
    pub order: OrderForm,
    /// 收货地址: one of the member's addresses (required).
    #[schema(value_type = i64)]
    pub address_id: Option<String>,
    /// 备注 (lines).
    pub remark: Option<String>,
}

impl FromFields for OrderRequest {
    fn from_fields(fields: &Fields) -> Result<OrderRequest> {
        let mut lines = fields.ids("ids")?;
        lines.sort_unstable();
        lines.dedup();
        let order = fields.order_form()?;
        Ok(OrderRequest { lines, order, address_id: fields.text("address_id"), remark: fields.text("remark") })
    }
}

/// How an order is paid.
#[derive(ToSchema)]
pub struct PayForm {
    pub method: PayMethod,
}

/// A way to pay an order here; online payment is `POST /api/order/{id}/pay_online`.
#[derive(ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum PayMethod {
    /// From the wallet's balance.
    Balance,
}

impl FromFields for PayForm {
    fn from_fields(fields: &Fields) -> Result<PayForm> {
        match fields.text("method").as_deref() {
            Some("balance") => Ok(PayForm { method: PayMethod::Balance }),
            Some(_) => Err(Error::field("method", "暂不支持该支付方式")),
            None => Err(Error::field("method", "请选择支付方式")),
        }
    }
}
