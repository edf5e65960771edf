//! Sessions: login, logout, the member's base state (§3 "User state"), phone checks.

use std::net::SocketAddr;

use axum::extract::{Path, State};
use axum::http::{HeaderMap, HeaderValue, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::ApiContext;
use super::error::{Answer, Envelope, Error, Nothing, Result, ok};
use super::extract::{ClientAddress, Fields, FormFields, MaybeMember, session_token};
use crate::db::Db;
use crate::security::{FAILURES_PER_ACCOUNT, LOCK_ADDRESSES, LOGIN_WINDOW, LOGINS_PER_ADDRESS, text};
use crate::{auth, now};

pub fn router() -> OpenApiRouter<ApiContext> {
    OpenApiRouter::new().routes(routes!(login)).routes(routes!(logout)).routes(routes!(base)).routes(routes!(phone_free))
}

const TOO_MANY: &str = "登录失败次数过多，请15分钟后再试";

/// The client's address: the last `X-Forwarded-For` entry (the one the edge in front of us
/// appended; earlier ones are the client's say) when present, else the peer.
pub fn client_address(headers: &HeaderMap, peer: Option<SocketAddr>) -> String {
    headers
        .get("x-forwarded-for")
        .and_then(|value| value.to_str().ok())
        .and_then(|list| list.split(',').next_back())
        .map(|first| first.trim().to_owned())
        .unwrap_or_else(|| peer.map(|peer| peer.ip().to_string()).unwrap_or_default())
}

fn is_secure(headers: &HeaderMap) -> bool {
    headers.get("x-forwarded-proto").and_then(|value| value.to_str().ok()) == Some("https")
}

/// Signs the member in: a new session, whose cookie the answer sets, and the end of the one
/// the request's cookie held, if any, so that a session id never outlives a login.
pub(super) async fn sign_in(db: &Db, headers: &HeaderMap, member: i64) -> Result<HeaderValue> {
    if let Some(old) = session_token(headers) {
        auth::close_session(db, &old).await?;
    }
    let token = auth::open_session(db, member).await?;
    let cookie = HeaderValue::from_str(&auth::cookie(Some(&token), is_secure(headers))).map_err(anyhow::Error::from)?;
    Ok(cookie)
}

/// `POST /api/user/login`: `username` (or the phone) and `password`, or `phone` and `code` (a
/// code of scene `login`, which signs in an account locked by failed passwords); opens a new
/// session (cookie `sid`) and answers the member's state.
#[utoipa::path(post, path = "/api/user/login", tag = "账户", responses((status = 200, description = "登录后的会员状态，并设置会话 Cookie", body = Envelope<UserState>)))]
async fn login(
    State(context): State<ApiContext>,
    ClientAddress(address): ClientAddress,
    headers: HeaderMap,
    FormFields(form): FormFields,
) -> Result<Response> {
    let by_code = form.text("password").is_none() && form.text("code").is_some();
    // Every attempt from the address counts first, atomically, so that parallel guesses
    // cannot all slip under the limit; a successful login gives its count back.
    let address_key = format!("address:{address}");
    let member = if by_code {
        let phone = super::account::phone(&form)?;
        if record_attempt(&context.db, &address_key).await? > LOGINS_PER_ADDRESS {
            return Err(Error::too_many(TOO_MANY));
        }
        super::account::check_code(&context.db, &phone, "login", &form, true).await?;
        let member: Option<i64> =
            sqlx::query_scalar("SELECT id FROM members WHERE phone = $1").bind(&phone).fetch_optional(&context.db.pool).await?;
        member.ok_or_else(|| Error::field("code", "验证码错误或已过期"))?
    } else {
        password_login(&context.db, &form, &address, &address_key).await?
    };
    sqlx::query("DELETE FROM login_account_failures WHERE account = $1")
        .bind(account_key(Some(member), ""))
        .execute(&context.db.pool)
        .await?;
    sqlx::query("UPDATE login_failures SET failures = failures - 1 WHERE key = $1 AND failures > 0")
        .bind(&address_key)
        .execute(&context.db.pool)
        .await?;
    let cookie = sign_in(&context.db, &headers, member).await?;
    let body = ok(user_state(&context.db, Some(member)).await?)?;
    Ok(([(header::SET_COOKIE, cookie)], body).into_response())
}

/// What failures on an account count under: the member, whichever name they typed; or the
/// name, for an account that does not exist.
fn account_key(member: Option<i64>, name: &str) -> String {
    match member {
        Some(id) => format!("member:{id}"),
        None => format!("name:{name}"),
    }
}

/// A login by name (or phone) and password: the member, or the refusal. The password is
/// checked against a hash even when the account does not exist, so that both cost the same.
async fn password_login(db: &Db, form: &Fields, address: &str, address_key: &str) -> Result<i64> {
    let username = form.required_bounded(text::ACCOUNT)?;
    let password = form.required_bounded(text::PASSWORD)?;
    if record_attempt(db, address_key).await? > LOGINS_PER_ADDRESS {
        return Err(Error::too_many(TOO_MANY));
    }
    let row: Option<(i64, String)> = sqlx::query_as("SELECT id, password_hash FROM members WHERE username = $1 OR phone = $1")
        .bind(&username)
        .fetch_optional(&db.pool)
        .await?;
    let account = account_key(row.as_ref().map(|(id, _)| *id), &username);
    if account_locked(db, &account, address).await? {
        return Err(Error::too_many(TOO_MANY));
    }
    let member = tokio::task::spawn_blocking(move || match row {
        Some((id, hash)) => auth::verify_password(&password, &hash).then_some(id),
        None => {
            auth::verify_nothing(&password);
            None
        }
    })
    .await
    .map_err(anyhow::Error::from)?;
    member.ok_or_else(|| Error::field("password", "账号或密码错误"))
}

/// Counts one attempt on the account from the address (before the password is checked; a
/// success clears the account's counts), and answers whether the account is locked: more than
/// five attempts in the window, from at least two addresses. One address alone never locks an
/// account — it is held by its own limit — so that no one can lock the owner out from one
/// machine; and a locked owner can still sign in with a code.
async fn account_locked(db: &Db, account: &str, address: &str) -> Result<bool> {
    let time = now();
    sqlx::query(
        "INSERT INTO login_account_failures (account, address, window_start, failures) VALUES ($1, $2, $3, 1) \
         ON CONFLICT (account, address) DO UPDATE SET \
           failures = CASE WHEN login_account_failures.window_start > $4 THEN login_account_failures.failures + 1 ELSE 1 END, \
           window_start = CASE WHEN login_account_failures.window_start > $4 THEN login_account_failures.window_start ELSE $3 END",
    )
    .bind(account)
    .bind(address)
    .bind(time)
    .bind(time - LOGIN_WINDOW)
    .execute(&db.pool)
    .await?;
    let (failures, addresses): (i64, i64) = sqlx::query_as(
        "SELECT CAST(COALESCE(SUM(failures), 0) AS BIGINT), COUNT(*) FROM login_account_failures \
         WHERE account = $1 AND window_start > $2",
    )
    .bind(account)
    .bind(time - LOGIN_WINDOW)
    .fetch_one(&db.pool)
    .await?;
    Ok(failures > FAILURES_PER_ACCOUNT && addresses >= LOCK_ADDRESSES)
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
    .bind(time - LOGIN_WINDOW)
    .fetch_one(&db.pool)
    .await?;
    Ok(count)
}

/// `DELETE /api/user/logout`: closes the session and clears the cookie.
#[utoipa::path(delete, path = "/api/user/logout", tag = "账户", responses((status = 200, description = "已退出（data 为 null）", body = Envelope<Nothing>)))]
async fn logout(State(context): State<ApiContext>, headers: HeaderMap) -> Result<Response> {
    if let Some(token) = session_token(&headers) {
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
    /// Unread messages.
    message_count: i64,
    /// The bound WeChat account's nickname; empty when none is bound.
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
    wechat_name: String,
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
         is_can_chat, manager_name, manager_phone, wechat_name FROM members WHERE id = $1",
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
    let mut conn = db.pool.acquire().await?;
    let message_count = super::member::unread_messages(&mut conn, member).await?;
    let is_after_sale = if super::after_sales::has_open(&mut conn, member).await? { "1" } else { "0" };
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
        message_count,
        wechat: row.wechat_name,
        common_config,
        quality_inspection,
        login_url: "/login",
        is_show_youx: row.is_show_youx,
        is_special: row.is_special,
        is_can_chat: row.is_can_chat,
        token: String::new(),
        is_after_sale,
    })))
}
