//! The shop's edge: a Worker in workerd (`wrangler dev`) or on Cloudflare, in front of the
//! origin (`docs/architecture.md`).
//!
//! - `POST /api/cart/checkout` and `POST /api/order` are checked with the pricing engine
//!   against the member's cart before the origin sees them ([`checkout`]); orders that pass
//!   carry the edge's signed check (`order_check::signature`, shared with the origin).
//! - Public GETs are kept in the edge's cache for a short time; every other `/api` call goes to
//!   the origin unchanged ([`route`]).
//! - Everything else is the built web app (Workers static assets).
//!
//! The decisions are plain functions, tested natively; the Worker entry (`worker.rs`, built for
//! `wasm32` only) does the I/O.

pub mod balance;
pub mod checkout;
pub mod envelope;
pub mod route;

#[cfg(target_arch = "wasm32")]
mod worker;
