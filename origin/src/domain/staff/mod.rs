//! The back office (`docs/backoffice.md`): operators apart from members, their roles and what
//! each role may do, their sessions, the audit trail, and the operator's tasks that both the
//! console (`http::admin`) and the commands (`crate::admin`) call.
//!
//! - `roles`: the roles and the permissions each holds; the server checks one on every call.
//! - `operators`: accounts (Argon2 hashes, TOTP), sign-in and sessions.
//! - `audit`: every operator write, with the values before and after, in the write's transaction.
//! - `orders`, `invoices`, `returns`, `dashboard`: the operator's work on orders (ship, logistics,
//!   cancel), invoices, returns and after-sales cases, and the console's 工作台.
//! - `shop`, `stock`, `content`: the shop's identity, who sees prices and the store-wide discount;
//!   lots received with their inspection reports; help and news articles.

pub mod activities;
pub mod audit;
pub mod blocks;
pub mod cashback;
pub mod combinations;
pub mod content;
pub mod coupons;
pub mod dashboard;
pub mod draws;
pub mod export;
pub mod flash;
pub mod goods;
pub mod goods_sheet;
pub mod grants;
pub mod invoices;
pub mod manjian;
pub mod members;
pub mod operators;
pub mod orders;
pub mod pictures;
pub mod points_goods;
pub mod returns;
pub mod roles;
pub mod schedule;
pub mod service;
pub mod shop;
pub mod specials;
pub mod stock;

pub use audit::Actor;
pub use roles::{Permission, Role};

/// Serializes stored money (cents) as the API's text, `12.30`.
pub fn as_money<S: serde::Serializer>(stored: &i64, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(&crate::money::text(*stored))
}

/// [`as_money`] for money that may not be there yet (`null`).
pub fn as_money_or_null<S: serde::Serializer>(stored: &Option<i64>, serializer: S) -> Result<S::Ok, S::Error> {
    match stored {
        Some(stored) => as_money(stored, serializer),
        None => serializer.serialize_none(),
    }
}
