//! The shop's states, rules and transactions, below the API: `http/` (the member's calls) and
//! `admin/` (the operator's commands) read their input, call down here, and write the answer.
//! Nothing here knows a request or an answer's envelope; refusals are [`Error`]s, which `http/`
//! turns into the envelope (`docs/api.md`, "The envelope") and `admin/` into a line of text.
//! See `docs/architecture.md`, "The origin's layers".

pub mod after_sales;
pub mod cart;
pub mod cashback;
pub mod catalogue;
pub mod certificates;
pub mod error;
pub mod grants;
pub mod invoices;
pub mod members;
pub mod messages;
pub mod orders;
pub mod payments;
pub mod points_mall;
pub mod promotions;
pub mod returns;
pub mod self_service;
pub mod settlement;
pub mod shop;
pub mod staff;
pub mod stored;

pub use error::{Error, Result};

#[cfg(test)]
mod tests;
