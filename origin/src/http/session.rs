//! Sessions: login, logout, the member's base state (§3 "User state"), phone checks.

use axum::extract::{Path, State};
use axum::http::{HeaderMap, HeaderValue, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::ApiContext;
use super::account::LOOKUPS_REFUSED;
use super::cookie;
use super::error::{Answer, Envelope, Error, Nothing, Result, ok};
use super::extract::{ClientAddress, Fields, Form, FromFields, MaybeMember, session_token};
use crate::db::Db;
use crate::security::{
    LOGIN_FREE_PER_ACCOUNT, LOGIN_FREE_PER_ADDRESS, LOGIN_WAIT_FIRST, LOGIN_WINDOW, LOOKUPS_PER_MEMBER, login_wait, text,
};
use crate::{auth, now};

pub fn router() -> OpenApiRouter<ApiContext> {
    OpenApiRouter::new().routes(routes!(login)).routes(routes!(logout)).routes(routes!(base)).routes(routes!(phone_free))
}

/// `POST /api/user/login`: `username` (or the phone) and `password`, or `phone` and `code` (a
/// code of scene `login`, which failed passwords never hold up); opens a new session (cookie
/// `sid`) and answers the member's state.
#[utoipa::path(post, path = "/api/user/login", request_body(content = LoginForm, content_type = "application/x-www-form-urlencoded"), tag = "账户", responses((status = 200, description = "登录后的会员状态，并设置会话 Cookie", body = Envelope<UserState>)))]
async fn login(
    State(context): State<ApiContext>,
    ClientAddress(address): ClientAddress,
    headers: HeaderMap,
    Form(form): Form<LoginForm>,
) -> Result<Response> {
    let member = match form {
        LoginForm::Code { phone, code } => {
            // A code is guessed at most five times (`account::check_code`); the waits of failed
            // passwords do not apply, so that whoever fails them cannot keep the owner out.
            super::account::check_code(&context.db, &phone, "login", Some(code), true).await?;
            let member: Option<i64> =
                sqlx::query_scalar("SELECT id FROM members WHERE phone = $1").bind(&phone).fetch_optional(&context.db.pool).await?;
            member.ok_or_else(|| Error::field("code", "验证码错误或已过期"))?
        }
        LoginForm::Password { username, password } => password_login(&context.db, username, password, &address).await?,
    };
    sqlx::query("DELETE FROM login_failures WHERE key = $1").bind(account_key(Some(member), "")).execute(&context.db.pool).await?;
    let cookie = cookie::sign_in(&context.db, &headers, member).await?;
    let body = ok(user_state(&context.db, Some(member)).await?)?;
    Ok(([(header::SET_COOKIE, cookie)], body).into_response())
}

/// A login: by account (or phone) and password, or by phone and a code of scene `login` (sent
/// without a password).
#[derive(ToSchema)]
#[serde(untagged)]
pub enum LoginForm {
    Password {
        /// 账号: the username or the phone.
        username: String,
        /// 密码.
        password: String,
    },
    Code {
        /// 手机号码.
        phone: String,
        /// 验证码.
        code: String,
    },
}

impl FromFields for LoginForm {
    fn from_fields(form: &Fields) -> Result<LoginForm> {
        if form.text("password").is_none() && form.text("code").is_some() {
            let phone = super::account::phone(form.text("phone"))?;
            let code = form.required_bounded(text::CODE)?;
            return Ok(LoginForm::Code { phone, code });
        }
        let username = form.required_bounded(text::ACCOUNT)?;
        let password = form.required_bounded(text::PASSWORD)?;
        Ok(LoginForm::Password { username, password })
    }
}

/// What failures on an account count under: the member, whichever name they typed; or the
/// name, for an account that does not exist.
fn account_key(member: Option<i64>, name: &str) -> String {
    match member {
        Some(id) => format!("account:member:{id}"),
        None => format!("account:name:{name}"),
    }
}

/// A login by name (or phone) and password: the member, or the refusal. The address and the
/// account each claim the attempt first (a 429 while either must still wait); a success gives
/// the address its claim back and clears the account's. The password is checked against a
/// hash even when the account does not exist, so that both cost the same.
async fn password_login(db: &Db, username: String, password: String, address: &str) -> Result<i64> {
    let address_key = format!("address:{address}");
    if let Some(wait) = claim_attempt(db, &address_key, LOGIN_FREE_PER_ADDRESS).await? {
        return Err(Error::too_many(wait_message(wait)));
    }
    let row: Option<(i64, String)> = sqlx::query_as("SELECT id, password_hash FROM members WHERE username = $1 OR phone = $1")
        .bind(&username)
        .fetch_optional(&db.pool)
        .await?;
    let account = account_key(row.as_ref().map(|(id, _)| *id), &username);
    if let Some(wait) = claim_attempt(db, &account, LOGIN_FREE_PER_ACCOUNT).await? {
        give_back(db, &address_key).await?;
        return Err(Error::too_many(wait_message(wait)));
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
    let member = member.ok_or_else(|| Error::field("password", "账号或密码错误"))?;
    give_back(db, &address_key).await?;
    Ok(member)
}

/// The 429's message for a wait of `seconds`: `登录失败次数过多，请在5秒后重试`, in minutes from a
/// minute on.
pub(super) fn wait_message(seconds: i64) -> String {
    if seconds < 60 {
        format!("登录失败次数过多，请在{seconds}秒后重试")
    } else {
        format!("登录失败次数过多，请在{}分钟后重试", (seconds + 59) / 60)
    }
}

/// Claims one password attempt under `key` (an account or an address), counted as a failure
/// until a success gives it back: `None` when it may go ahead, or the seconds it must still
/// wait (`security::login_wait` after the failures counted, from the last claimed attempt;
/// counts are forgotten `LOGIN_WINDOW` after it). A refused attempt counts nothing, so that
/// waiting is all it takes.
///
/// The claim is a compare-and-set on the row read, so that parallel attempts cannot all pass
/// one free moment: of those that read the same row, one claims it, and the others read again.
pub(super) async fn claim_attempt(db: &Db, key: &str, free: i64) -> Result<Option<i64>> {
    for _ in 0..16 {
        let time = now();
        let row: Option<(i64, i64)> =
            sqlx::query_as("SELECT window_start, failures FROM login_failures WHERE key = $1").bind(key).fetch_optional(&db.pool).await?;
        let claimed = match row {
            Some((last, failures)) if last > time - LOGIN_WINDOW => {
                let next = last + login_wait(failures, free);
                if time < next {
                    return Ok(Some(next - time));
                }
                sqlx::query(
                    "UPDATE login_failures SET failures = failures + 1, window_start = $2 \
                     WHERE key = $1 AND window_start = $3 AND failures = $4",
                )
                .bind(key)
                .bind(time)
                .bind(last)
                .bind(failures)
                .execute(&db.pool)
                .await?
            }
            _ => {
                sqlx::query(
                    "INSERT INTO login_failures (key, window_start, failures) VALUES ($1, $2, 1) \
                     ON CONFLICT (key) DO UPDATE SET window_start = $2, failures = 1 WHERE login_failures.window_start <= $3",
                )
                .bind(key)
                .bind(time)
                .bind(time - LOGIN_WINDOW)
                .execute(&db.pool)
                .await?
            }
        };
        if claimed.rows_affected() == 1 {
            return Ok(None);
        }
    }
    // Sixteen other attempts claimed the key under this one: it waits like them.
    Ok(Some(LOGIN_WAIT_FIRST))
}

/// Gives a claimed attempt back: it succeeded, or it was refused by the account's wait.
pub(super) async fn give_back(db: &Db, key: &str) -> Result<()> {
    sqlx::query("UPDATE login_failures SET failures = failures - 1 WHERE key = $1 AND failures > 0").bind(key).execute(&db.pool).await?;
    Ok(())
}

/// `DELETE /api/user/logout`: closes the session and clears the cookie.
#[utoipa::path(delete, path = "/api/user/logout", tag = "账户", responses((status = 200, description = "已退出（data 为 null）", body = Envelope<Nothing>)))]
async fn logout(State(context): State<ApiContext>, headers: HeaderMap) -> Result<Response> {
    if let Some(token) = session_token(&headers) {
        auth::close_session(&context.db, &token).await?;
    }
    let cookie = HeaderValue::from_str(&auth::cookie(None, cookie::is_secure(&headers))).map_err(anyhow::Error::from)?;
    Ok(([(header::SET_COOKIE, cookie)], ok(Nothing)?).into_response())
}

/// `GET /api/user/base`: the member's state, or a visitor's.
#[utoipa::path(get, path = "/api/user/base", tag = "账户", responses((status = 200, description = "会员状态（游客为 login: false）", body = Envelope<UserState>)))]
async fn base(State(context): State<ApiContext>, MaybeMember(member): MaybeMember) -> Answer<UserState> {
    ok(user_state(&context.db, member.map(|member| member.id)).await?)
}

/// `{ free: bool }`: whether no member uses the phone yet; 422 when it is not a mobile number.
/// Lookups are counted per client address and per signed-in member (429 over 10 a minute), so
/// that no one learns which phones are members by asking for all of them.
#[utoipa::path(get, path = "/api/user/phone/{value}", tag = "账户", responses((status = 200, description = "手机号是否未被使用", body = Envelope<PhoneFree>)))]
async fn phone_free(
    State(context): State<ApiContext>,
    MaybeMember(member): MaybeMember,
    ClientAddress(address): ClientAddress,
    Path(phone): Path<String>,
) -> Answer<PhoneFree> {
    if !engine::is_phone(&phone, false) {
        return Err(Error::field("phone", "手机号码格式不正确"));
    }
    if let Some(member) = member
        && LOOKUPS_PER_MEMBER.over(&context.db, &member.id.to_string()).await?
    {
        return Err(Error::too_many(LOOKUPS_REFUSED));
    }
    super::account::lookups(&context.db, &address).await?;
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
    let message_count = crate::domain::messages::unread(&mut conn, member).await?;
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
