//! The shop's origin: every `/api` route the edge forwards, and all persistence.
//!
//! `config` reads the environment, `db` connects (SQLite or PostgreSQL), migrates and seeds,
//! `http` answers the API (one module per area of the specification's §7), `auth` holds the
//! sessions and password hashing, `money` converts between stored and written amounts.

pub mod admin;
pub mod auth;
pub mod backup;
pub mod config;
pub mod db;
pub mod domain;
pub mod http;
pub mod money;
pub mod purge;
pub mod search;
pub mod security;
pub mod seed;
pub mod startup;
pub mod telemetry;
pub mod wechat;

/// Seconds since the Unix epoch: the shop's one clock.
pub fn now() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|elapsed| elapsed.as_secs() as i64).unwrap_or(0)
}

/// Days from 1970-01-01 to the civil date (year, month, day), by Howard Hinnant's
/// days-from-civil algorithm (the inverse of [`civil_date`]).
pub fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let year = if month <= 2 { year - 1 } else { year };
    let era = year.div_euclid(400);
    let yoe = year - era * 400;
    let doy = (153 * (if month > 2 { month - 3 } else { month + 9 }) + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The Unix time the month of `seconds` began, both seen `offset_seconds` east of UTC (8 hours
/// for the shop's month).
pub fn month_start(seconds: i64, offset_seconds: i64) -> i64 {
    let (year, month, _) = civil_date(seconds, offset_seconds);
    days_from_civil(year, month, 1) * 86_400 - offset_seconds
}

/// The civil date (year, month, day) of a Unix time shifted by `offset_seconds` (0 for UTC,
/// 8 hours for the shop's day), by Howard Hinnant's days-to-civil algorithm.
pub fn civil_date(seconds: i64, offset_seconds: i64) -> (i64, i64, i64) {
    let z = (seconds + offset_seconds).div_euclid(86_400) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(month <= 2), month, day)
}
