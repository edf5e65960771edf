//! The database: one pool over SQLite (default) or PostgreSQL, chosen by `DATABASE_URL`,
//! through sqlx's `Any` driver so that every query is written once. Queries use `$1`-style
//! parameters, which both engines accept; the schemas differ only in identity columns.

pub mod generate;

use std::path::Path;
use std::str::FromStr;
use std::time::Duration;

use anyhow::Context;
use sqlx::any::{AnyConnectOptions, AnyPoolOptions};
use sqlx::{AnyPool, ConnectOptions, Executor};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Sqlite,
    Postgres,
}

impl Kind {
    /// The function that builds a JSON object from key, value, key, value, ….
    pub fn json_object(self) -> &'static str {
        match self {
            Kind::Sqlite => "json_object",
            Kind::Postgres => "json_build_object",
        }
    }

    /// The aggregate that gathers JSON values into an array (`… ORDER BY …` allowed inside).
    pub fn json_array_agg(self) -> &'static str {
        match self {
            Kind::Sqlite => "json_group_array",
            Kind::Postgres => "json_agg",
        }
    }
}

#[derive(Clone, Debug)]
pub struct Db {
    pub pool: AnyPool,
    pub kind: Kind,
    /// `DATABASE_URL` as given (for `pg_dump`).
    pub url: String,
}

impl Db {
    /// Connects, creating the SQLite file (and its folder) when missing.
    pub async fn connect(url: &str) -> anyhow::Result<Db> {
        let given = url.to_owned();
        sqlx::any::install_default_drivers();
        let kind = if url.starts_with("postgres:") || url.starts_with("postgresql:") {
            Kind::Postgres
        } else if url.starts_with("sqlite:") {
            Kind::Sqlite
        } else {
            anyhow::bail!("DATABASE_URL must start with sqlite:// or postgres://, got {url}");
        };
        let synchronous = sqlite_synchronous()?;
        let url = match kind {
            Kind::Sqlite => sqlite_url(url)?,
            Kind::Postgres => url.to_owned(),
        };
        let options = AnyConnectOptions::from_str(&url)
            .with_context(|| format!("bad DATABASE_URL {url}"))?
            .log_statements(tracing::log::LevelFilter::Trace);
        let pool = AnyPoolOptions::new()
            .max_connections(match kind {
                Kind::Sqlite => 8,
                Kind::Postgres => 16,
            })
            .acquire_timeout(Duration::from_secs(10))
            .after_connect(move |connection, _| {
                Box::pin(async move {
                    if kind == Kind::Sqlite {
                        let pragmas = format!(
                            "PRAGMA foreign_keys = ON; PRAGMA journal_mode = WAL; PRAGMA busy_timeout = 10000; PRAGMA synchronous = {synchronous};"
                        );
                        connection.execute(sqlx::AssertSqlSafe(pragmas)).await?;
                    }
                    Ok(())
                })
            })
            .connect_with(options)
            .await
            .with_context(|| format!("cannot connect to {url}"))?;
        Ok(Db { pool, kind, url: given })
    }

    /// Brings the schema up to date (migrations are compiled into the binary).
    pub async fn migrate(&self) -> anyhow::Result<()> {
        match self.kind {
            Kind::Sqlite => sqlx::migrate!("./migrations/sqlite").run(&self.pool).await?,
            Kind::Postgres => sqlx::migrate!("./migrations/postgres").run(&self.pool).await?,
        }
        Ok(())
    }
}

/// A condition keeping the rows whose `column` is in the list of ids bound as parameter `n`
/// (`id_list`): one parameter however many ids.
pub fn id_set(kind: Kind, column: &str, n: usize) -> String {
    match kind {
        Kind::Sqlite => format!("{column} IN (SELECT value FROM json_each(${n}))"),
        Kind::Postgres => format!("{column} = ANY(CAST(${n} AS BIGINT[]))"),
    }
}

/// Ids as one parameter: a JSON array for SQLite's `json_each`, an array literal for
/// PostgreSQL.
pub fn id_list(kind: Kind, ids: impl Iterator<Item = i64>) -> String {
    let joined = ids.map(|id| id.to_string()).collect::<Vec<_>>().join(",");
    match kind {
        Kind::Sqlite => format!("[{joined}]"),
        Kind::Postgres => format!("{{{joined}}}"),
    }
}

/// `count` numbered parameters from `$first` on, for an `IN (…)` list: `params(3, 2)` is
/// `$3, $4`. A list of ids is then one statement, each id bound, not one statement per id.
pub fn params(first: usize, count: usize) -> String {
    (first..first + count).map(|number| format!("${number}")).collect::<Vec<_>>().join(", ")
}

/// `SQLITE_SYNCHRONOUS`: `FULL` (the default) syncs the write-ahead log at every commit, so an
/// order, payment or cancel that was answered survives a power loss; `NORMAL` syncs it only at
/// checkpoints (what each costs and risks: BENCHMARKS.md, "SQLite durability").
fn sqlite_synchronous() -> anyhow::Result<&'static str> {
    match std::env::var("SQLITE_SYNCHRONOUS").map(|value| value.trim().to_ascii_uppercase()).as_deref() {
        Err(_) | Ok("" | "FULL") => Ok("FULL"),
        Ok("NORMAL") => Ok("NORMAL"),
        Ok(other) => anyhow::bail!("SQLITE_SYNCHRONOUS must be FULL or NORMAL, got {other}"),
    }
}

/// The file of a `sqlite:` URL (`None` for other databases and for `:memory:`).
pub fn sqlite_file(url: &str) -> Option<String> {
    let path = url.strip_prefix("sqlite://").or_else(|| url.strip_prefix("sqlite:"))?;
    let file = path.split_once('?').map_or(path, |(file, _)| file);
    (file != ":memory:").then(|| file.to_owned())
}

/// `sqlite://data/shop.db` → the same with `mode=rwc`, after creating `data/`.
fn sqlite_url(url: &str) -> anyhow::Result<String> {
    let path = url.trim_start_matches("sqlite://").trim_start_matches("sqlite:");
    let (file, query) = path.split_once('?').unwrap_or((path, ""));
    if file != ":memory:"
        && let Some(folder) = Path::new(file).parent().filter(|folder| !folder.as_os_str().is_empty())
    {
        std::fs::create_dir_all(folder).with_context(|| format!("cannot create {}", folder.display()))?;
    }
    let query = if query.contains("mode=") {
        query.to_owned()
    } else if query.is_empty() {
        "mode=rwc".into()
    } else {
        format!("{query}&mode=rwc")
    };
    Ok(format!("sqlite://{file}?{query}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every SQLite connection of the pool syncs at each commit unless told otherwise.
    #[tokio::test]
    async fn sqlite_commits_are_synced() {
        let folder = std::env::temp_dir().join(format!("origin-sync-{}", std::process::id()));
        let db = Db::connect(&format!("sqlite://{}/shop.db", folder.display())).await.unwrap();
        let mut answers = Vec::new();
        for _ in 0..3 {
            let mut connection = db.pool.acquire().await.unwrap();
            let level: i64 = sqlx::query_scalar("PRAGMA synchronous").fetch_one(&mut *connection).await.unwrap();
            answers.push(level);
        }
        // 2 is FULL (1 would be NORMAL); the test environment sets no SQLITE_SYNCHRONOUS.
        assert_eq!(answers, [2, 2, 2]);
        db.pool.close().await;
        std::fs::remove_dir_all(folder).unwrap();
    }
}
