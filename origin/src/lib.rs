//! The shop's origin: every `/api` route the edge forwards, and all persistence.
//!
//! `config` reads the environment, `db` connects (SQLite or PostgreSQL), migrates and seeds,
//! `http` answers the API (one module per area of the specification's §7), `auth` holds the
//! sessions and password hashing, `money` converts between stored and written amounts.

pub mod admin;
pub mod auth;
pub mod config;
pub mod db;
pub mod http;
pub mod idempotency;
pub mod money;
pub mod orders_due;
pub mod payment;
pub mod purge;
pub mod security;
pub mod settlement;
pub mod startup;
pub mod telemetry;
pub mod wechat;

/// Seconds since the Unix epoch: the shop's one clock.
pub fn now() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|elapsed| elapsed.as_secs() as i64).unwrap_or(0)
}
