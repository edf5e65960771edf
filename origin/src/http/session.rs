//! Sessions: login, logout, the member's base state (§3 "User state"), phone checks.

use std::net::SocketAddr;

use axum::extract::{ConnectInfo, Path, State};
use axum::http::{HeaderMap, HeaderValue, header};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};
use sqlx::Row;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::ApiContext;
use super::error::{Error, Result, ok};
use super::extract::{FormFields, MaybeMember};
use crate::db::Db;
use crate::{auth, now};

pub fn router() -> OpenApiRouter<ApiContext> {
    OpenApiRouter::new().routes(routes!(login)).routes(routes!(logout)).routes(routes!(base)).routes(routes!(phone_free))
}

/// Failed logins allowed per account, and per client address, in one window.
const FAILURES_PER_ACCOUNT: i64 = 5;
const FAILURES_PER_ADDRESS: i64 = 20;
const FAILURE_WINDOW: i64 = 15 * 60;

/// The client's address: the last `X-Forwarded-For` entry (the one the edge in front of us
/// appended; earlier ones are the client's say) when present, else the peer.
fn client_address(headers: &HeaderMap, peer: SocketAddr) -> String {
    headers
        .get("x-forwarded-for")
        .and_then(|value| value.to_str().ok())
        .and_then(|list| list.split(',').next_back())
        .map(|first| first.trim().to_owned())
        .unwrap_or_else(|| peer.ip().to_string())
}

fn is_secure(headers: &HeaderMap) -> bool {
    headers.get("x-forwarded-proto").and_then(|value| value.to_str().ok()) == Some("https")
}

#[utoipa::path(post, path = "/api/user/login", tag = "账户", responses((status = 200, description = "信封 { code, msg, data }")))]
async fn login(
    State(context): State<ApiContext>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    FormFields(form): FormFields,
) -> Result<Response> {
    let username = form.required("username", "账号")?;
    let password = form.required("password", "密码")?;
    let account_key = format!("account:{username}");
    let address_key = format!("address:{}", client_address(&headers, peer));
    // Every attempt counts before the password is checked, atomically, so that parallel
    // guesses cannot all slip under the limit; a successful login gives its count back.
    for (key, limit) in [(&account_key, FAILURES_PER_ACCOUNT), (&address_key, FAILURES_PER_ADDRESS)] {
        if record_attempt(&context.db, key).await? > limit {
            return Err(Error::too_many("登录失败次数过多，请15分钟后再试"));
        }
    }
    let row = sqlx::query("SELECT id, password_hash FROM members WHERE username = $1 OR phone = $1")
        .bind(&username)
        .fetch_optional(&context.db.pool)
        .await?;
    let member = match row {
        Some(row) => {
            let hash: String = row.try_get("password_hash")?;
            let id: i64 = row.try_get("id")?;
            let password = password.clone();
            let matches =
                tokio::task::spawn_blocking(move || auth::verify_password(&password, &hash)).await.map_err(anyhow::Error::from)?;
            matches.then_some(id)
        }
        None => None,
    };
    let Some(member) = member else {
        return Err(Error::field("password", "账号或密码错误"));
    };
    sqlx::query("DELETE FROM login_failures WHERE key = $1").bind(&account_key).execute(&context.db.pool).await?;
    sqlx::query("UPDATE login_failures SET failures = failures - 1 WHERE key = $1 AND failures > 0")
        .bind(&address_key)
        .execute(&context.db.pool)
        .await?;
    let token = auth::open_session(&context.db, member).await?;
    let cookie = HeaderValue::from_str(&auth::cookie(Some(&token), is_secure(&headers))).map_err(anyhow::Error::from)?;
    let body = ok(user_state(&context.db, Some(member)).await?)?;
    Ok(([(header::SET_COOKIE, cookie)], body).into_response())
}

/// Counts one login attempt under `key` (the window restarting after 15 minutes); answers the
/// count in the current window, this attempt included.
async fn record_attempt(db: &Db, key: &str) -> Result<i64> {
    let time = now();
    let count: i64 = sqlx::query_scalar(
        "INSERT INTO login_failures (key, window_start, failures) VALUES ($1, $2, 1) \
         ON CONFLICT (key) DO UPDATE SET \
           failures = CASE WHEN login_failures.window_start > $3 THEN login_failures.failures + 1 ELSE 1 END, \
           window_start = CASE WHEN login_failures.window_start > $3 THEN login_failures.window_start ELSE $2 END \
         RETURNING failures",
    )
    .bind(key)
    .bind(time)
    .bind(time - FAILURE_WINDOW)
    .fetch_one(&db.pool)
    .await?;
    Ok(count)
}

#[utoipa::path(delete, path = "/api/user/logout", tag = "账户", responses((status = 200, description = "信封 { code, msg, data }")))]
async fn logout(State(context): State<ApiContext>, headers: HeaderMap) -> Result<Response> {
    if let Some(token) = super::extract::session_token(&headers) {
        auth::close_session(&context.db, &token).await?;
    }
    let cookie = HeaderValue::from_str(&auth::cookie(None, is_secure(&headers))).map_err(anyhow::Error::from)?;
    Ok(([(header::SET_COOKIE, cookie)], ok(Value::Null)?).into_response())
}

#[utoipa::path(get, path = "/api/user/base", tag = "账户", responses((status = 200, description = "信封 { code, msg, data }")))]
async fn base(State(context): State<ApiContext>, MaybeMember(member): MaybeMember) -> Result<impl IntoResponse> {
    ok(user_state(&context.db, member.map(|member| member.id)).await?)
}

/// `{ free: bool }`: whether no member uses the phone yet; 422 when it is not a mobile number.
#[utoipa::path(get, path = "/api/user/phone/{value}", tag = "账户", responses((status = 200, description = "信封 { code, msg, data }")))]
async fn phone_free(State(context): State<ApiContext>, Path(phone): Path<String>) -> Result<impl IntoResponse> {
    if !engine::is_phone(&phone, false) {
        return Err(Error::field("phone", "手机号码格式不正确"));
    }
    let used: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM members WHERE phone = $1").bind(&phone).fetch_one(&context.db.pool).await?;
    ok(json!({ "free": used == 0 }))
}

/// The shop's contact settings, in one query.
async fn settings(db: &Db) -> Result<std::collections::HashMap<String, String>> {
    let rows: Vec<(String, String)> = sqlx::query_as(
        "SELECT key, value FROM settings WHERE key IN ('hot_line', 'qq1', 'qq2', 'quality_inspection_url', 'quality_inspection_msg')",
    )
    .fetch_all(&db.pool)
    .await?;
    Ok(rows.into_iter().collect())
}

/// §3 "User state". A visitor gets `show: true` with the shop's contact details and no member.
pub async fn user_state(db: &Db, member: Option<i64>) -> Result<Value> {
    let settings = settings(db).await?;
    let setting = |key: &str| settings.get(key).cloned().unwrap_or_default();
    let common_config = json!({ "hot_line": setting("hot_line"), "qq1": setting("qq1"), "qq2": setting("qq2") });
    let quality_inspection = json!({
        "quality_inspection_url": setting("quality_inspection_url"),
        "msg": setting("quality_inspection_msg"),
    });
    let Some(member) = member else {
        return Ok(json!({
            "show": true, "login": false, "username": "", "common_config": common_config,
            "quality_inspection": quality_inspection, "login_url": "/login", "is_AfterSale": "0",
        }));
    };
    let row = sqlx::query(
        "SELECT username, name, phone, company, face, rank, is_passed, points, is_show_youx, is_special, \
         is_can_chat, manager_name, manager_phone FROM members WHERE id = $1",
    )
    .bind(member)
    .fetch_one(&db.pool)
    .await?;
    let address: Option<String> = sqlx::query_scalar(
        "SELECT province || city || district || detail FROM addresses WHERE member_id = $1 \
         ORDER BY is_default DESC, id LIMIT 1",
    )
    .bind(member)
    .fetch_optional(&db.pool)
    .await?;
    let cart: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM cart_items WHERE member_id = $1").bind(member).fetch_one(&db.pool).await?;
    let manager_name: String = row.try_get("manager_name")?;
    Ok(json!({
        "show": true,
        "login": true,
        "username": row.try_get::<String, _>("username")?,
        "name": row.try_get::<String, _>("name")?,
        "phone": row.try_get::<String, _>("phone")?,
        "company": row.try_get::<String, _>("company")?,
        "face": row.try_get::<String, _>("face")?,
        "rank": row.try_get::<i64, _>("rank")?,
        "admin": {
            "name": manager_name,
            "phone": row.try_get::<String, _>("manager_phone")?,
            "is_default": i64::from(manager_name.is_empty()),
        },
        "address": address.unwrap_or_default(),
        "is_passed": row.try_get::<i64, _>("is_passed")?,
        "points": row.try_get::<i64, _>("points")?,
        "cart": cart,
        "message_count": 0,
        "wechat": "",
        "common_config": common_config,
        "quality_inspection": quality_inspection,
        "login_url": "/login",
        "is_show_youx": row.try_get::<i64, _>("is_show_youx")?,
        "is_special": row.try_get::<i64, _>("is_special")?,
        "is_can_chat": row.try_get::<i64, _>("is_can_chat")?,
        "token": "",
        "is_AfterSale": "0",
    }))
}
