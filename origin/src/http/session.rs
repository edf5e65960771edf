//! Sessions: login, logout, the member's base state (§3 "User state"), phone checks.

use std::net::SocketAddr;

use axum::extract::{ConnectInfo, Path, State};
use axum::http::{HeaderMap, HeaderValue, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::ApiContext;
use super::error::{Answer, Envelope, Error, Nothing, Result, ok};
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

/// `POST /api/user/login` (`username` or phone, `password`): opens a session (cookie `sid`)
/// and answers the member's state.
#[utoipa::path(post, path = "/api/user/login", tag = "账户", responses((status = 200, description = "登录后的会员状态，并设置会话 Cookie", body = Envelope<UserState>)))]
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
    let row: Option<(i64, String)> = sqlx::query_as("SELECT id, password_hash FROM members WHERE username = $1 OR phone = $1")
        .bind(&username)
        .fetch_optional(&context.db.pool)
        .await?;
    let member = match row {
        Some((id, hash)) => {
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

/// `DELETE /api/user/logout`: closes the session and clears the cookie.
#[utoipa::path(delete, path = "/api/user/logout", tag = "账户", responses((status = 200, description = "已退出（data 为 null）", body = Envelope<Nothing>)))]
async fn logout(State(context): State<ApiContext>, headers: HeaderMap) -> Result<Response> {
    if let Some(token) = super::extract::session_token(&headers) {
        auth::close_session(&context.db, &token).await?;
    }
    let cookie = HeaderValue::from_str(&auth::cookie(None, is_secure(&headers))).map_err(anyhow::Error::from)?;
    Ok(([(header::SET_COOKIE, cookie)], ok(Nothing)?).into_response())
}

/// `GET /api/user/base`: the member's state, or a visitor's.
#[utoipa::path(get, path = "/api/user/base", tag = "账户", responses((status = 200, description = "会员状态（游客为 login: false）", body = Envelope<UserState>)))]
async fn base(State(context): State<ApiContext>, MaybeMember(member): MaybeMember) -> Answer<UserState> {
    ok(user_state(&context.db, member.map(|member| member.id)).await?)
}

/// `{ free: bool }`: whether no member uses the phone yet; 422 when it is not a mobile number.
#[utoipa::path(get, path = "/api/user/phone/{value}", tag = "账户", responses((status = 200, description = "手机号是否未被使用", body = Envelope<PhoneFree>)))]
async fn phone_free(State(context): State<ApiContext>, Path(phone): Path<String>) -> Answer<PhoneFree> {
    if !engine::is_phone(&phone, false) {
        return Err(Error::field("phone", "手机号码格式不正确"));
    }
    let used: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM members WHERE phone = $1").bind(&phone).fetch_one(&context.db.pool).await?;
    ok(PhoneFree { free: used == 0 })
}

/// Whether no member uses the phone yet.
#[derive(Serialize, ToSchema)]
pub struct PhoneFree {
    free: bool,
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

/// §3 "User state": a member's, or a visitor's.
#[derive(Serialize, ToSchema)]
#[serde(untagged)]
pub enum UserState {
    Member(Box<MemberState>),
    Visitor(VisitorState),
}

/// A visitor's state: `show: true` with the shop's contact details and no member.
#[derive(Serialize, ToSchema)]
pub struct VisitorState {
    /// Always true.
    show: bool,
    /// Always false.
    login: bool,
    /// Always empty.
    username: String,
    common_config: CommonConfig,
    quality_inspection: QualityInspection,
    #[schema(value_type = String, example = "/login")]
    login_url: &'static str,
    #[serde(rename = "is_AfterSale")]
    #[schema(value_type = String, example = "0")]
    is_after_sale: &'static str,
}

/// A logged-in member's state.
#[derive(Serialize, ToSchema)]
pub struct MemberState {
    /// Always true.
    show: bool,
    /// Always true.
    login: bool,
    username: String,
    name: String,
    phone: String,
    company: String,
    face: String,
    rank: i64,
    /// The member's account manager.
    admin: Manager,
    /// The default address, or the first.
    address: String,
    /// 1 when the qualifications were approved.
    is_passed: i64,
    points: i64,
    /// Lines in the cart.
    cart: i64,
    message_count: i64,
    wechat: String,
    common_config: CommonConfig,
    quality_inspection: QualityInspection,
    #[schema(value_type = String, example = "/login")]
    login_url: &'static str,
    is_show_youx: i64,
    is_special: i64,
    is_can_chat: i64,
    token: String,
    #[serde(rename = "is_AfterSale")]
    #[schema(value_type = String, example = "0")]
    is_after_sale: &'static str,
}

/// The member's account manager; `is_default` 1 when the shop's is shown instead.
#[derive(Serialize, ToSchema)]
pub struct Manager {
    name: String,
    phone: String,
    is_default: i64,
}

/// The shop's contact details.
#[derive(Serialize, ToSchema)]
pub struct CommonConfig {
    hot_line: String,
    qq1: String,
    qq2: String,
}

#[derive(Serialize, ToSchema)]
pub struct QualityInspection {
    quality_inspection_url: String,
    msg: String,
}

/// What the member state reads of the member.
#[derive(sqlx::FromRow)]
struct MemberRow {
    username: String,
    name: String,
    phone: String,
    company: String,
    face: String,
    rank: i64,
    is_passed: i64,
    points: i64,
    is_show_youx: i64,
    is_special: i64,
    is_can_chat: i64,
    manager_name: String,
    manager_phone: String,
}

/// §3 "User state". A visitor gets `show: true` with the shop's contact details and no member.
pub async fn user_state(db: &Db, member: Option<i64>) -> Result<UserState> {
    let settings = settings(db).await?;
    let setting = |key: &str| settings.get(key).cloned().unwrap_or_default();
    let common_config = CommonConfig { hot_line: setting("hot_line"), qq1: setting("qq1"), qq2: setting("qq2") };
    let quality_inspection =
        QualityInspection { quality_inspection_url: setting("quality_inspection_url"), msg: setting("quality_inspection_msg") };
    let Some(member) = member else {
        return Ok(UserState::Visitor(VisitorState {
            show: true,
            login: false,
            username: String::new(),
            common_config,
            quality_inspection,
            login_url: "/login",
            is_after_sale: "0",
        }));
    };
    let row: MemberRow = sqlx::query_as(
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
    let is_default = i64::from(row.manager_name.is_empty());
    Ok(UserState::Member(Box::new(MemberState {
        show: true,
        login: true,
        username: row.username,
        name: row.name,
        phone: row.phone,
        company: row.company,
        face: row.face,
        rank: row.rank,
        admin: Manager { name: row.manager_name, phone: row.manager_phone, is_default },
        address: address.unwrap_or_default(),
        is_passed: row.is_passed,
        points: row.points,
        cart,
        message_count: 0,
        wechat: String::new(),
        common_config,
        quality_inspection,
        login_url: "/login",
        is_show_youx: row.is_show_youx,
        is_special: row.is_special,
        is_can_chat: row.is_can_chat,
        token: String::new(),
        is_after_sale: "0",
    })))
}
