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
    /// `EDGE_SECRET`: the secret the edge proves each request it forwards with
    /// (`order_check::proof`) and signs the orders it checked with (`order_check::signature`);
    /// at least 32 bytes. With it the origin answers only the edge (and its health check);
    /// without it the origin answers anyone but believes no forwarding header, and refuses every
    /// order: none can be shown to be checked.
    pub edge_secret: Option<String>,
    /// `ORDER_PAY_MINUTES`, default 30: how long an order may stay unpaid before it is
    /// cancelled and its stock given back (`crate::domain::orders::due`).
    pub order_pay_minutes: u64,
    /// `ORDER_RECEIVE_DAYS`, default 10: how long a shipped order waits for its member to
    /// confirm receipt before it completes by itself (`crate::domain::orders::due`).
    pub order_receive_days: u64,
    /// `SMS_LOG_CODES`, `SESSION_IDLE_SECONDS`, `RETENTION_DAYS` (`crate::security`).
    pub security: crate::security::Security,
    /// `DATA_DIR`, default `data`: where files live outside the database (the members'
    /// certificate scans, under `uploads/`).
    pub data_dir: std::path::PathBuf,
    /// The WeChat OAuth2 provider (`crate::wechat::WechatConfig`), or `None`: not offered.
    pub wechat: Option<crate::wechat::WechatConfig>,
    /// `PAY_PROVIDER_URL`, `PAY_KEY`, `SHOP_PUBLIC_URL` (`crate::domain::payments::PaymentConfig`).
    pub payment: crate::domain::payments::PaymentConfig,
    /// `METRICS_TOKEN`: what a scrape of `GET /metrics` must send as `Authorization: Bearer …`;
    /// unset, only the origin's own machine (loopback) may read it (`http::ops::may_scrape`).
    pub metrics_token: Option<String>,
}

impl Config {
    pub fn from_env() -> anyhow::Result<Config> {
        let addr = std::env::var("ORIGIN_ADDR").unwrap_or_else(|_| "127.0.0.1:3000".into());
        let database_url = std::env::var("DATABASE_URL").unwrap_or_else(|_| "sqlite://data/shop.db".into());
        let config = Config {
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
                Err(_) => crate::domain::orders::due::DEFAULT_PAY_MINUTES,
            },
            order_receive_days: match std::env::var("ORDER_RECEIVE_DAYS") {
                Ok(text) => {
                    text.trim().parse::<u64>().ok().filter(|days| *days > 0).context("ORDER_RECEIVE_DAYS must be a positive integer")?
                }
                Err(_) => crate::domain::orders::due::DEFAULT_RECEIVE_DAYS,
            },
            security: crate::security::Security::from_env()?,
            wechat: crate::wechat::WechatConfig::from_env()?,
            payment: crate::domain::payments::PaymentConfig::from_env(),
            metrics_token: std::env::var("METRICS_TOKEN").ok().map(|token| token.trim().to_owned()).filter(|token| !token.is_empty()),
            data_dir: std::env::var_os("DATA_DIR").filter(|dir| !dir.is_empty()).map_or_else(|| "data".into(), Into::into),
        };
        Ok(config)
    }

    /// Refuses a configuration the origin must not serve with (`Application::build` asks; the
    /// operator's commands, which move no payment, do not): an `EDGE_SECRET` shorter than
    /// `order_check::proof::MIN_SECRET_BYTES`, or no merchant key of the shop's own
    /// (`PaymentConfig::check`).
    pub fn check(&self) -> anyhow::Result<()> {
        if let Some(secret) = &self.edge_secret {
            order_check::proof::check_secret(secret).map_err(anyhow::Error::msg)?;
        }
        self.payment.check()
    }
}
