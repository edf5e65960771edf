//! The member's wallet (§7 `user_money`, `user_money_log`): balance, red packets and points,
//! and the movements of each. A member sees only their own.

use axum::extract::State;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::ApiContext;
use super::error::{Answer, Envelope, Error, Result, ok};
use super::extract::{Fields, FromFields, Member, Query};
use crate::money;

pub fn router() -> OpenApiRouter<ApiContext> {
    OpenApiRouter::new()
        .routes(routes!(user_money))
        .routes(routes!(user_money_log))
        .routes(routes!(red_packet_log))
        .routes(routes!(points_log))
}

/// `GET /api/user/user_money`: `{ balance, red_packet, points }`.
#[utoipa::path(get, path = "/api/user/user_money", tag = "钱包", responses((status = 200, description = "余额、红包与积分", body = Envelope<Wallet>)))]
async fn user_money(State(context): State<ApiContext>, member: Member) -> Answer<Wallet> {
    let (balance, red_packet, points): (i64, i64, i64) =
        sqlx::query_as("SELECT balance, red_packet, points FROM members WHERE id = $1").bind(member.id).fetch_one(&context.db.pool).await?;
    ok(Wallet { balance: money::text(balance), red_packet: money::text(red_packet), points })
}

/// The member's balance, red packets and points.
#[derive(Serialize, ToSchema)]
pub struct Wallet {
    #[schema(example = "1000.00")]
    balance: String,
    /// 账户红包.
    #[schema(example = "88.00")]
    red_packet: String,
    points: i64,
}

/// An account of the wallet and the table of its movements.
#[derive(Clone, Copy)]
enum Account {
    Balance,
    RedPacket,
    Points,
}

impl Account {
    /// The log's table and its signed amount column.
    fn table(self) -> (&'static str, &'static str) {
        match self {
            Account::Balance => ("balance_logs", "amount"),
            Account::RedPacket => ("red_packet_logs", "amount"),
            Account::Points => ("points_logs", "points"),
        }
    }

    /// A stored amount as the answer writes it: money with two decimals, points as a count.
    fn text(self, stored: i64) -> String {
        match self {
            Account::Points => stored.to_string(),
            _ => money::text(stored),
        }
    }
}

/// The shop's day: China's time, UTC+8.
const CHINA: i64 = 8 * 3600;

/// The first second of the day `YYYY-MM-DD` (a real date of the years 1970–9999) in China's
/// time, by Howard Hinnant's days-from-civil algorithm; `None` for any other text.
pub(crate) fn day_start(date: &str) -> Option<i64> {
    let bytes = date.as_bytes();
    if bytes.len() != 10 || !date.is_ascii() || bytes[4] != b'-' || bytes[7] != b'-' {
        return None;
    }
    let number = |from: usize, to: usize| -> Option<i64> {
        let digits = &date[from..to];
        if digits.bytes().all(|byte| byte.is_ascii_digit()) { digits.parse().ok() } else { None }
    };
    let (year, month, day) = (number(0, 4)?, number(5, 7)?, number(8, 10)?);
    let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    let days_in_month = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return None,
    };
    if year < 1970 || !(1..=days_in_month).contains(&day) {
        return None;
    }
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * ((month + 9) % 12) + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    Some((era * 146_097 + doe - 719_468) * 86_400 - CHINA)
}

/// A log filter's time bound `name`: a date `YYYY-MM-DD` in China's time, the day included (its
/// first second for `start_time`, its last for `end_time`), or Unix seconds; `None` when absent.
fn time_bound(query: &Fields, name: &str, label: &str, end: bool) -> Result<Option<i64>> {
    let Some(text) = query.text(name) else { return Ok(None) };
    if let Ok(seconds) = text.parse::<i64>() {
        return Ok(Some(seconds));
    }
    match day_start(&text) {
        Some(start) => Ok(Some(if end { start + 86_399 } else { start })),
        None => Err(Error::field(name, format!("{label}格式应为YYYY-MM-DD"))),
    }
}

/// Which movements of an account: a page, a direction, between two days.
#[derive(utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct LogQuery {
    /// 页码: from 1 (absent: 1), at most 100000.
    #[param(value_type = Option<i64>, minimum = 1, maximum = 100000)]
    page: i64,
    /// 0 (absent) every one, 1 in, 2 out.
    #[param(value_type = Option<i64>)]
    use_type: i64,
    /// From this day (`YYYY-MM-DD` in China's time, the day included) or Unix seconds.
    #[param(value_type = Option<String>)]
    start_time: i64,
    /// To this day (`YYYY-MM-DD` in China's time, the day included) or Unix seconds.
    #[param(value_type = Option<String>)]
    end_time: i64,
}

impl FromFields for LogQuery {
    fn from_fields(query: &Fields) -> Result<LogQuery> {
        let page = query.page()?;
        let use_type = query.int_or("use_type", "类型", 0)?;
        if !(0..=2).contains(&use_type) {
            return Err(Error::field("use_type", "类型不正确"));
        }
        let start = time_bound(query, "start_time", "开始时间", false)?.unwrap_or(0);
        let end = time_bound(query, "end_time", "结束时间", true)?.unwrap_or(i64::MAX);
        if start > end {
            return Err(Error::field("start_time", "开始时间不能晚于结束时间"));
        }
        Ok(LogQuery { page, use_type, start_time: start, end_time: end })
    }
}

/// One page of an account's movements: `page`, `use_type` (0 every one, 1 in, 2 out),
/// `start_time` and `end_time` (dates `YYYY-MM-DD` in China's time, or Unix seconds; both
/// inclusive), newest first, 20 a page.
async fn log_page(context: &ApiContext, member: Member, query: LogQuery, account: Account) -> Result<LogPage> {
    let LogQuery { page, use_type, start_time: start, end_time: end } = query;
    let (table, amount) = account.table();
    // The balance's rows say their direction; the others' is the amount's sign.
    let direction = match account {
        Account::Balance => "use_type".to_owned(),
        _ => format!("CASE WHEN {amount} < 0 THEN 2 ELSE 1 END"),
    };
    let filter = format!("member_id = $1 AND ($2 = 0 OR {direction} = $2) AND created_at >= $3 AND created_at <= $4");
    let total: i64 = sqlx::query_scalar(sqlx::AssertSqlSafe(format!("SELECT COUNT(*) FROM {table} WHERE {filter}")))
        .bind(member.id)
        .bind(use_type)
        .bind(start)
        .bind(end)
        .fetch_one(&context.db.pool)
        .await?;
    let rows: Vec<LogRow> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT id, {amount} AS amount, balance_after, {direction} AS use_type, order_id, note, created_at FROM {table} \
         WHERE {filter} ORDER BY created_at DESC, id DESC LIMIT 20 OFFSET $5"
    )))
    .bind(member.id)
    .bind(use_type)
    .bind(start)
    .bind(end)
    .bind((page - 1) * 20)
    .fetch_all(&context.db.pool)
    .await?;
    let list = rows
        .into_iter()
        .map(|row| {
            let sign = if row.amount < 0 { "-" } else { "+" };
            LogEntry {
                id: row.id,
                amount: format!("{sign}{}", account.text(row.amount.abs())),
                balance: account.text(row.balance_after),
                use_type: row.use_type,
                order_id: row.order_id,
                note: row.note,
                created_at: row.created_at,
            }
        })
        .collect();
    Ok(LogPage { list, total, page })
}

/// `GET /api/user/user_money_log` (`page`, `use_type`, `start_time`, `end_time`: dates
/// `YYYY-MM-DD` in China's time, both days included, or Unix seconds): the balance's
/// movements, newest first, 20 a page. `use_type` 1 is money in, 2 money out.
#[utoipa::path(get, path = "/api/user/user_money_log", params(LogQuery), tag = "钱包", responses((status = 200, description = "一页余额变动", body = Envelope<LogPage>)))]
async fn user_money_log(State(context): State<ApiContext>, member: Member, Query(query): Query<LogQuery>) -> Answer<LogPage> {
    ok(log_page(&context, member, query, Account::Balance).await?)
}

/// `GET /api/user/red_packet_log` (`page`, `use_type`, `start_time`, `end_time`): the red
/// packets' movements (granted, spent on an order, given back by a cancel), newest first.
#[utoipa::path(get, path = "/api/user/red_packet_log", params(LogQuery), tag = "钱包", responses((status = 200, description = "一页红包变动", body = Envelope<LogPage>)))]
async fn red_packet_log(State(context): State<ApiContext>, member: Member, Query(query): Query<LogQuery>) -> Answer<LogPage> {
    ok(log_page(&context, member, query, Account::RedPacket).await?)
}

/// `GET /api/user/points_log` (`page`, `use_type`, `start_time`, `end_time`): the points'
/// movements (earned by payments, spent on orders, granted), newest first; amounts are counts.
#[utoipa::path(get, path = "/api/user/points_log", params(LogQuery), tag = "钱包", responses((status = 200, description = "一页积分变动", body = Envelope<LogPage>)))]
async fn points_log(State(context): State<ApiContext>, member: Member, Query(query): Query<LogQuery>) -> Answer<LogPage> {
    ok(log_page(&context, member, query, Account::Points).await?)
}

#[derive(sqlx::FromRow)]
struct LogRow {
    id: i64,
    amount: i64,
    balance_after: i64,
    use_type: i64,
    order_id: Option<i64>,
    note: String,
    created_at: i64,
}

/// One page of an account's movements, newest first.
#[derive(Serialize, ToSchema)]
pub struct LogPage {
    list: Vec<LogEntry>,
    total: i64,
    page: i64,
}

/// One movement of an account: the balance, the red packets or the points.
#[derive(Serialize, ToSchema)]
pub struct LogEntry {
    id: i64,
    /// Signed: `+100.00` in, `-25.50` out (points: `+120`, `-500`).
    #[schema(example = "-25.50")]
    amount: String,
    /// What the account holds after it.
    #[schema(example = "974.50")]
    balance: String,
    /// 1 in, 2 out.
    use_type: i64,
    #[schema(required = true)]
    order_id: Option<i64>,
    note: String,
    created_at: i64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_day_starts_at_midnight_in_china() {
        assert_eq!(day_start("1970-01-01"), Some(-CHINA));
        assert_eq!(day_start("2024-02-29"), Some(1_709_164_800 - CHINA));
        // Every day from 1970 to 2100 is the day civil_date gives back for its first second.
        let mut at = day_start("1970-01-01").unwrap();
        while at < day_start("2100-12-31").unwrap() {
            let (year, month, day) = crate::civil_date(at, CHINA);
            assert_eq!(day_start(&format!("{year:04}-{month:02}-{day:02}")), Some(at));
            assert_eq!(crate::civil_date(at - 1, CHINA), crate::civil_date(at - 86_400, CHINA));
            at += 86_400;
        }
        for wrong in ["2023-02-29", "2024-13-01", "2024-00-10", "2024-04-31", "1969-12-31", "2024-1-01", "２０２４-01-01", "2024/01/01", ""]
        {
            assert_eq!(day_start(wrong), None, "{wrong}");
        }
    }
}
