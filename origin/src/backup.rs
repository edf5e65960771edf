//! `origin admin backup --to FILE` and `origin admin restore --from FILE`.
//!
//! SQLite: `VACUUM INTO`, SQLite's online backup — a consistent copy of the database as of one
//! transaction, taken while the shop keeps serving (readers and writers go on; the copy is
//! compact, without the write-ahead log). Restoring puts the copy where `DATABASE_URL` points.
//! PostgreSQL: `pg_dump` in its custom format (one consistent snapshot, taken while the shop
//! keeps serving), restored with `pg_restore` into the empty database `DATABASE_URL` names.
//! A restore never overwrites: its target must be new (SQLite) or empty (PostgreSQL).

use std::path::Path;
use std::process::Command;

use anyhow::{Context, bail, ensure};
use sqlx::Connection;

use crate::db::{Db, Kind, sqlite_file};

/// Writes a backup of `db` to `to` (which must not exist); answers what it did.
pub async fn backup(db: &Db, to: &Path) -> anyhow::Result<String> {
    ensure!(!to.exists(), "{} exists: a backup never overwrites", to.display());
    let started = std::time::Instant::now();
    match db.kind {
        Kind::Sqlite => {
            let target = to.to_str().context("the backup's path is not UTF-8")?;
            sqlx::query("VACUUM INTO $1").bind(target).execute(&db.pool).await.context("VACUUM INTO")?;
        }
        Kind::Postgres => {
            let status = Command::new("pg_dump")
                .args(["--format=custom", "--no-owner", "--file"])
                .arg(to)
                .arg(&db.url)
                .status()
                .context("running pg_dump (PostgreSQL's client tools)")?;
            ensure!(status.success(), "pg_dump failed: {status}");
        }
    }
    let bytes = std::fs::metadata(to)?.len();
    Ok(format!("backed up to {} ({bytes} bytes) in {:.2} s\n", to.display(), started.elapsed().as_secs_f64()))
}

/// Restores the backup `from` into the database `database_url` names, which must be new
/// (SQLite: no file yet) or empty (PostgreSQL: no tables); answers what it did.
pub async fn restore(database_url: &str, from: &Path) -> anyhow::Result<String> {
    ensure!(from.is_file(), "no backup at {}", from.display());
    if let Some(file) = sqlite_file(database_url) {
        let target = Path::new(&file);
        if target.metadata().is_ok_and(|meta| meta.len() > 0) {
            bail!("{} exists: restore into a new database (stop the origin, move the old file away)", target.display());
        }
        if let Some(folder) = target.parent().filter(|folder| !folder.as_os_str().is_empty()) {
            std::fs::create_dir_all(folder)?;
        }
        std::fs::copy(from, target).with_context(|| format!("copying to {}", target.display()))?;
        // A log left from the database that was there would be replayed over the copy.
        for suffix in ["-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{file}{suffix}"));
        }
        return Ok(format!("restored {} to {}\n", from.display(), target.display()));
    }
    let mut conn = sqlx::PgConnection::connect(database_url).await.with_context(|| format!("connecting to {database_url}"))?;
    let tables: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = 'public'").fetch_one(&mut conn).await?;
    ensure!(tables == 0, "the database holds {tables} tables: restore into an empty database");
    conn.close().await?;
    let status = Command::new("pg_restore")
        .args(["--no-owner", "--exit-on-error", "--single-transaction", "--dbname"])
        .arg(database_url)
        .arg(from)
        .status()
        .context("running pg_restore (PostgreSQL's client tools)")?;
    ensure!(status.success(), "pg_restore failed: {status}");
    Ok(format!("restored {} to {database_url}\n", from.display()))
}
