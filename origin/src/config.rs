//! Configuration from the environment, with defaults that run on a laptop.

use std::net::SocketAddr;

use anyhow::Context;

#[derive(Clone, Debug)]
pub struct Config {
    /// `ORIGIN_ADDR`, default `127.0.0.1:3000`.
    pub addr: SocketAddr,
    /// `DATABASE_URL`, default `sqlite://data/shop.db` (created on first start);
    /// `postgres://…` for PostgreSQL.
    pub database_url: String,
    /// `EDGE_SECRET`: the secret the edge signs the orders it checked with
    /// (`order_check::signature`). Without it every order is refused: none can be shown to be checked.
    pub edge_secret: Option<String>,
    /// `ORDER_PAY_MINUTES`, default 30: how long an order may stay unpaid before it is
    /// cancelled and its stock given back (`crate::orders_due`).
    pub order_pay_minutes: u64,
    /// `SMS_LOG_CODES`, `SESSION_IDLE_SECONDS`, `RETENTION_DAYS` (`crate::security`).
    pub security: crate::security::Security,
}

impl Config {
    pub fn from_env() -> anyhow::Result<Config> {
        let addr = std::env::var("ORIGIN_ADDR").unwrap_or_else(|_| "127.0.0.1:3000".into());
        let database_url = std::env::var("DATABASE_URL").unwrap_or_else(|_| "sqlite://data/shop.db".into());
        Ok(Config {
            addr: addr.parse().with_context(|| format!("ORIGIN_ADDR is not an address: {addr}"))?,
            database_url,
            edge_secret: std::env::var("EDGE_SECRET").ok().filter(|secret| !secret.trim().is_empty()),
            order_pay_minutes: match std::env::var("ORDER_PAY_MINUTES") {
                Ok(text) => text
                    .trim()
                    .parse::<u64>()
                    .ok()
                    .filter(|minutes| *minutes > 0)
                    .context("ORDER_PAY_MINUTES must be a positive integer")?,
                Err(_) => crate::orders_due::DEFAULT_PAY_MINUTES,
            },
            security: crate::security::Security::from_env()?,
        })
    }
}
