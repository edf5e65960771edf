//! Deleting what has outlived its use, once an hour while the origin runs (`docs/api.md`,
//! "Sessions"): expired and idle sessions, verification codes and SMS notices sent more than a
//! day ago, login counts and rate counters whose window has passed, idempotency keys older than
//! a day, and page views and client reports older than `RETENTION_DAYS`, WeChat bindings never
//! finished. The same hourly task reminds members of certificates that expire
//! (`domain::certificates::remind`), and reads again the expiry of goods whose nearest lot has
//! just expired (`domain::catalogue::lots::refresh_lapsed`), and deletes the catalogue's changes
//! beyond the last `search::CHANGES_KEPT` (`search::prune_changes`).

use std::time::Duration;

use crate::db::Db;
use crate::security::{CODE_KEEP_SECONDS, IDEMPOTENCY_SECONDS, LOGIN_WINDOW, Security};

/// The first purge runs a minute after start, then one every hour.
const FIRST: Duration = Duration::from_secs(60);
const EVERY: Duration = Duration::from_secs(3600);

/// The hourly purge, running until this is dropped (when the server stops).
pub struct Purge(tokio::task::JoinHandle<()>);

impl Purge {
    pub fn start(db: Db, security: Security) -> Purge {
        Purge(tokio::spawn(async move {
            let mut ticks = tokio::time::interval_at(tokio::time::Instant::now() + FIRST, EVERY);
            loop {
                ticks.tick().await;
                match purge(&db, &security, crate::now()).await {
                    Ok(purged) => tracing::info!(?purged, "purged old rows"),
                    Err(error) => tracing::warn!(error = format!("{error:#}"), "the purge failed; it runs again in an hour"),
                }
                match remind(&db, crate::now()).await {
                    Ok(sent) => tracing::info!(sent, "reminded members of certificates that expire"),
                    Err(error) => {
                        tracing::warn!(error = format!("{error:#}"), "the certificate reminders failed; they run again in an hour")
                    }
                }
                match crate::search::prune_changes(&db, crate::search::CHANGES_KEPT).await {
                    Ok(rows) => tracing::info!(rows, "pruned the catalogue's old changes"),
                    Err(error) => tracing::warn!(%error, "the catalogue's old changes were not pruned; in an hour"),
                }
                match refresh_expiries(&db, crate::now()).await {
                    Ok(goods) => tracing::info!(goods, "read again the expiry of goods whose lot expired"),
                    Err(error) => tracing::warn!(error = format!("{error:#}"), "the goods' expiries were not read again; in an hour"),
                }
            }
        }))
    }
}

impl Drop for Purge {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// Reads again the shown expiry of goods whose nearest lot expired (`docs/compliance.md`).
async fn refresh_expiries(db: &Db, now: i64) -> anyhow::Result<usize> {
    let mut conn = db.pool.acquire().await?;
    let today = crate::domain::catalogue::lots::day(now);
    Ok(crate::domain::catalogue::lots::refresh_lapsed(&mut conn, &today).await?)
}

/// Reminds members of certificates that expire soon or have expired (`docs/compliance.md`).
async fn remind(db: &Db, now: i64) -> anyhow::Result<usize> {
    let mut conn = db.pool.acquire().await?;
    Ok(crate::domain::certificates::remind(&mut conn, now).await?)
}

/// How many rows each table lost.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Purged {
    pub sessions: u64,
    pub sms_codes: u64,
    pub sms_notices: u64,
    pub login_failures: u64,
    pub rate_limits: u64,
    pub idempotency: u64,
    pub page_views: u64,
    pub client_reports: u64,
    pub oauth_states: u64,
}

/// Deletes, as of `now` (Unix seconds), every row that can no longer matter.
pub async fn purge(db: &Db, security: &Security, now: i64) -> Result<Purged, sqlx::Error> {
    let delete = |sql: &'static str, before: i64| async move {
        Ok::<u64, sqlx::Error>(sqlx::query(sql).bind(before).execute(&db.pool).await?.rows_affected())
    };
    let sessions = sqlx::query("DELETE FROM sessions WHERE expires_at <= $1 OR last_seen <= $2")
        .bind(now)
        .bind(now - security.session_idle_seconds)
        .execute(&db.pool)
        .await?
        .rows_affected();
    let retention = now - security.retention_days * 86_400;
    Ok(Purged {
        sessions,
        sms_codes: delete("DELETE FROM sms_codes WHERE sent_at <= $1", now - CODE_KEEP_SECONDS).await?,
        sms_notices: delete("DELETE FROM sms_notices WHERE sent_at <= $1", now - CODE_KEEP_SECONDS).await?,
        login_failures: delete("DELETE FROM login_failures WHERE window_start <= $1", now - LOGIN_WINDOW).await?,
        rate_limits: delete("DELETE FROM rate_limits WHERE window_end <= $1", now).await?,
        idempotency: delete("DELETE FROM idempotency WHERE created_at <= $1", now - IDEMPOTENCY_SECONDS).await?,
        page_views: delete("DELETE FROM page_views WHERE created_at <= $1", retention).await?,
        client_reports: delete("DELETE FROM client_reports WHERE created_at <= $1", retention).await?,
        oauth_states: delete("DELETE FROM oauth_states WHERE expires_at <= $1", now).await?,
    })
}
