//! The shop's pricing engine: cart totals, full-reduction (满减) tiers and discount, ladder
//! prices, free-shipping hints, and the settlement of an order (coupons, cash vouchers, red
//! packets, points, shipping fee, amount due, shares per line, refunds), exact to the cent,
//! with the rules of `docs/pricing.md`.
//!
//! Pure: no I/O, no global state. The browser calls it as WebAssembly (the `wasm` feature,
//! on by default, built by `wasm-pack build engine`); the edge and the origin depend on it with
//! `default-features = false` and call [`quote`] directly.

pub mod checkout;
#[cfg(feature = "schema")]
pub mod contract;
mod error;
mod model;
mod money;
mod priced;
mod quote;
mod read;
mod returns;
mod session;
mod settle;
mod share;
mod tax;
pub mod text;
mod validate;

#[cfg(feature = "wasm")]
pub mod wasm;

pub use error::EngineError;
pub use model::{
    ActivityData, CartInput, CartItem, CashVoucher, Coupon, CouponKind, CouponScope, DEFAULT_POINTS_PER_YUAN, Goods, LINE_TYPE_COMBINATION,
    LINE_TYPE_FLASH_SALE, LINE_TYPE_NORMAL, Ladder, LadderStep, MAX_QUANTITY, ManjianTier, SettlementInput, ShippingData,
};
pub use money::{Cents, Money, MoneyError};
pub use priced::{Counts, FreeShippingHint, LadderRow, LineQuote, PriceKind, Shipping, Summary, TierStatus, Totals};
pub use quote::{BADGE_MAX, CartQuote, quote};
pub use read::{cart_from_json, cart_from_value};
pub use returns::{CashbackTier, PointsTakeBack, cashback, cashback_take_back, points_take_back, refund};
pub use session::CartSession;
pub use settle::{Chosen, CouponValue, LineSettlement, Settlement, VoucherValue, rate_price};
pub use tax::{VatSplit, unit_price_before_tax, vat_included};
pub use validate::{check_password, check_username, is_email, is_phone};

/// Quotes a cart given as JSON text and answers the quote as JSON text.
pub fn quote_json(text: &str) -> Result<String, EngineError> {
    let quote = quote(&cart_from_json(text)?)?;
    Ok(serde_json::to_string(&quote).expect("a quote always serializes"))
}
