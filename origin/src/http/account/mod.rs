//! Joining and recovering an account: SMS codes, registration (standard and multi-store, three
//! steps each), forgotten passwords (two steps after the code), and the member's own changes
//! to their name, phone and password.
//!
//! There is no SMS gateway here: a code is kept in the database (tests read it there) and, in
//! development only (`SMS_LOG_CODES=1`), written to the log.

use axum::extract::State;
use axum::http::{HeaderMap, header};
use axum::response::{IntoResponse, Response};
use rand::Rng;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

pub mod form;

use self::form::{CodeForm, ForgetForm, PasswordForm, RegisterForm, UserInfoForm};
use super::ApiContext;
use super::error::{Answer, Envelope, Error, Result, ok};
use super::extract::{ClientAddress, Form, MaybeMember, Member, checked, int, required, required_checked};
use crate::db::Db;
use crate::domain::members::BuyerType;
use crate::security::{
    CODE_ATTEMPTS, CODES_PER_ADDRESS, CODES_PER_PHONE, LOOKUPS_PER_ADDRESS, LOOKUPS_PER_ADDRESS_DAY, PASSWORD_CHECKS, PHONE_CHANGE_HOLD,
    STORES_MAX, Text, text,
};
use crate::{auth, now};

pub fn router() -> OpenApiRouter<ApiContext> {
    OpenApiRouter::new()
        .routes(routes!(create_code))
        .routes(routes!(register))
        .routes(routes!(forget))
        .routes(routes!(update_user_info))
        .routes(routes!(reset_password))
}

/// A code stays valid five minutes; a phone gets one a minute per scene (and at most
/// `security::CODES_PER_PHONE` a day).
const CODE_SECONDS: i64 = 5 * 60;
const CODE_INTERVAL: i64 = 60;
/// `register` (a free phone), `forget` and `login` (a registered one), `change_phone` (a free
/// phone, for a logged-in member moving to it).
const SCENES: [&str; 4] = ["register", "forget", "login", "change_phone"];

/// A 手机号码 field: required, a mobile number.
pub(super) fn phone(value: Option<String>) -> Result<String> {
    let phone = required("phone", "手机号码", value)?;
    if !engine::is_phone(&phone, false) {
        return Err(Error::field("phone", "手机号码格式不正确"));
    }
    Ok(phone)
}

async fn phone_taken(db: &Db, phone: &str) -> Result<bool> {
    let count: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM members WHERE phone = $1").bind(phone).fetch_one(&db.pool).await?;
    Ok(count > 0)
}

/// Refuses a password reset through a phone the account moved to less than a day ago: a
/// stolen session that changed the phone (with the password it knew) must not also take the
/// password, while the old phone, told of the change, can still reach the shop.
async fn phone_change_hold(db: &Db, phone: &str) -> Result<()> {
    let changed: Option<Option<i64>> =
        sqlx::query_scalar("SELECT phone_changed_at FROM members WHERE phone = $1").bind(phone).fetch_optional(&db.pool).await?;
    if changed.flatten().is_some_and(|changed| changed > now() - PHONE_CHANGE_HOLD) {
        return Err(Error::field("phone", "手机号更换未满24小时，暂不能通过该手机号找回密码"));
    }
    Ok(())
}

/// `13812345678` as `138****5678`, for a message that names a phone.
fn masked(phone: &str) -> String {
    match (phone.get(..3), phone.get(phone.len().saturating_sub(4)..)) {
        (Some(head), Some(tail)) if phone.len() >= 7 => format!("{head}****{tail}"),
        _ => "****".into(),
    }
}

/// `POST /api/user/create_code` (`phone`, `scene`): sends a 6-digit code.
#[utoipa::path(post, path = "/api/user/create_code", request_body(content = CodeForm, content_type = "application/x-www-form-urlencoded"), tag = "账户", responses((status = 200, description = "验证码已发送", body = Envelope<CodeSent>)))]
async fn create_code(
    State(context): State<ApiContext>,
    MaybeMember(member): MaybeMember,
    ClientAddress(address): ClientAddress,
    Form(CodeForm { phone, scene }): Form<CodeForm>,
) -> Answer<CodeSent> {
    if scene == "change_phone" && member.is_none() {
        return Err(Error::Unauthorized);
    }
    let taken = phone_taken(&context.db, &phone).await?;
    let refusal = match scene.as_str() {
        "register" if taken => Some("该手机号已注册"),
        "change_phone" if taken => Some("该手机号已被其他账号使用"),
        "forget" | "login" if !taken => Some("该手机号未注册"),
        _ => None,
    };
    if let Some(message) = refusal {
        lookups(&context.db, &address).await?;
        return Err(Error::field("phone", message));
    }
    if scene == "forget" {
        phone_change_hold(&context.db, &phone).await?;
    }
    let time = now();
    let recent: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM sms_codes WHERE phone = $1 AND scene = $2 AND sent_at > $3")
        .bind(&phone)
        .bind(&scene)
        .bind(time - CODE_INTERVAL)
        .fetch_one(&context.db.pool)
        .await?;
    if recent > 0 {
        return Err(Error::too_many("验证码发送过于频繁，请60秒后再试"));
    }
    // The day's caps, counted only for codes that would be sent: the address first, so that an
    // address over its cap spends no phone's.
    if CODES_PER_ADDRESS.over(&context.db, &address).await? {
        return Err(Error::too_many("今日获取验证码次数过多，请明天再试"));
    }
    if CODES_PER_PHONE.over(&context.db, &phone).await? {
        return Err(Error::too_many("该手机号今日获取验证码次数已达上限，请明天再试"));
    }
    let code = format!("{:06}", rand::thread_rng().gen_range(0..1_000_000));
    sqlx::query("INSERT INTO sms_codes (phone, scene, code, sent_at, expires_at) VALUES ($1, $2, $3, $4, $5)")
        .bind(&phone)
        .bind(&scene)
        .bind(&code)
        .bind(time)
        .bind(time + CODE_SECONDS)
        .execute(&context.db.pool)
        .await?;
    if context.security.sms_log_codes {
        tracing::info!(%phone, %scene, %code, "verification code (SMS_LOG_CODES=1: the log is the sender)");
    } else {
        tracing::info!(%phone, %scene, "verification code sent");
    }
    ok(CodeSent { phone, expires_in: CODE_SECONDS, interval: CODE_INTERVAL })
}

/// A code sent: to which phone, how long it stays valid and how long until the next one may
/// be sent (seconds).
#[derive(Serialize, ToSchema)]
pub struct CodeSent {
    phone: String,
    #[schema(example = 300)]
    expires_in: i64,
    #[schema(example = 60)]
    interval: i64,
}

/// Checks a code against the newest live code of the phone and scene; `spend` spends it (once:
/// two requests racing with one code cannot both spend it).
///
/// Checking and counting are one guarded statement: a wrong guess adds an attempt to the code
/// guessed at, and a code with `CODE_ATTEMPTS` wrong guesses is no longer compared at all, so
/// that however many guesses arrive at once, at most five are ever compared with a code.
/// Guesses count per code, not per phone: whoever guesses at a phone's codes kills them, but
/// the owner's next code (within the sending caps) works.
pub(super) async fn check_code(db: &Db, phone: &str, scene: &str, code: Option<String>, spend: bool) -> Result<()> {
    let code = required_checked(text::CODE, code)?;
    let right: Option<i64> = sqlx::query_scalar(
        "UPDATE sms_codes SET \
           attempts = attempts + CASE WHEN code = $4 THEN 0 ELSE 1 END, \
           used = CASE WHEN code = $4 AND $5 = 1 THEN 1 ELSE used END \
         WHERE id = (SELECT id FROM sms_codes WHERE phone = $1 AND scene = $2 AND used = 0 AND expires_at > $3 ORDER BY id DESC LIMIT 1) \
           AND used = 0 AND attempts < $6 \
         RETURNING CASE WHEN code = $4 THEN 1 ELSE 0 END",
    )
    .bind(phone)
    .bind(scene)
    .bind(now())
    .bind(&code)
    .bind(i64::from(spend))
    .bind(CODE_ATTEMPTS)
    .fetch_optional(&db.pool)
    .await?;
    if right != Some(1) {
        return Err(Error::field("code", "验证码错误或已过期"));
    }
    Ok(())
}

/// A unique-constraint violation (a race with another sign-up) as the 422 it stands for.
fn unique_violation(error: sqlx::Error, field: &str, message: &str) -> Error {
    match error.as_database_error() {
        Some(database) if database.is_unique_violation() => Error::field(field, message),
        _ => Error::from(error),
    }
}

/// The new password and its confirmation: the engine's password rule, which the web forms
/// use too (`docs/pricing.md`, "Validators").
fn new_password(password: Option<String>, confirmation: Option<String>) -> Result<String> {
    let password = password.unwrap_or_default();
    engine::check_password(&password).map_err(|message| Error::field("password", message))?;
    if confirmation.as_deref() != Some(password.as_str()) {
        return Err(Error::field("password_confirmation", "两次输入的密码不一致"));
    }
    Ok(password)
}

/// `POST /api/user/register`: `step` 1 (`phone`, `code`) checks the code; 2 (the same, with
/// `username`, `password`, `password_confirmation`, `company`, `name`, `email?`, and for the
/// multi-store flow `dd=1` with `stores[]` and `company_code?`: the 企业编码 of the chain the
/// account joins, 422 `企业编码不存在` for an unknown one; without it the account makes its
/// company) creates the member and logs them in; 3 records the
/// qualification documents (`licence`, `gsp`, optional) of the logged-in member.
#[utoipa::path(post, path = "/api/user/register", request_body(content = RegisterForm, content_type = "application/x-www-form-urlencoded"), tag = "账户", responses((status = 200, description = "第 1 步：验证码正确；第 2 步：已注册并登录（设置会话 Cookie）；第 3 步：资质已记录", body = Envelope<RegisterStep>)))]
async fn register(
    State(context): State<ApiContext>,
    headers: HeaderMap,
    member: MaybeMember,
    ClientAddress(address): ClientAddress,
    Form(form): Form<RegisterForm>,
) -> Result<Response> {
    match form.step {
        1 => {
            let phone = phone(form.phone)?;
            if phone_taken(&context.db, &phone).await? {
                lookups(&context.db, &address).await?;
                return Err(Error::field("phone", "该手机号已注册"));
            }
            check_code(&context.db, &phone, "register", form.code, false).await?;
            Ok(ok(RegisterStep::CodeChecked(CodeChecked { step: 2, phone }))?.into_response())
        }
        2 => {
            let phone = phone(form.phone)?;
            let mut errors = Vec::new();
            let username = form.username.unwrap_or_default();
            if let Err(message) = engine::check_username(&username) {
                errors.push(("username".into(), message.into()));
            }
            let password = match new_password(form.password, form.password_confirmation) {
                Ok(password) => Some(password),
                Err(Error::Validation(mut field)) => {
                    errors.append(&mut field);
                    None
                }
                Err(other) => return Err(other),
            };
            let mut bounded = |spec: Text, value: Option<String>, required: bool| match checked(spec, value) {
                Ok(None) if required => {
                    errors.push((spec.field.into(), format!("请填写{}", spec.label)));
                    None
                }
                Ok(value) => value,
                Err(Error::Validation(mut field)) => {
                    errors.append(&mut field);
                    None
                }
                Err(_) => None,
            };
            let company = bounded(text::COMPANY, form.company, true);
            let name = bounded(text::NAME, form.name, true);
            let email = bounded(text::EMAIL, form.email, false);
            if email.as_deref().is_some_and(|email| !engine::is_email(email)) {
                errors.push(("email".into(), "邮箱格式不正确".into()));
            }
            let dd = int("dd", "多店", form.dd)?.unwrap_or(0) == 1;
            let buyer_type = match form.buyer_type.as_deref() {
                Some(text) => BuyerType::from_text(text),
                None if dd => Some(BuyerType::Chain),
                None => None,
            };
            if buyer_type.is_none() {
                errors.push(("buyer_type".into(), "请选择企业类型".into()));
            }
            let stores = form.stores;
            if dd && stores.is_empty() {
                errors.push(("stores".into(), "请至少填写一家门店".into()));
            }
            if stores.len() > STORES_MAX {
                errors.push(("stores".into(), format!("门店最多{STORES_MAX}家")));
            }
            if let Some(why) = stores.iter().find_map(|store| text::STORE.refusal(store)) {
                errors.push(("stores".into(), why));
            }
            // A store of a chain already registered joins its company by the code (企业编码);
            // the first store of a chain makes the company.
            let joins = match form.company_code {
                Some(code) if dd => match super::company::by_code(&mut *context.db.pool.acquire().await?, &code).await {
                    Ok(company) => Some(company),
                    Err(Error::Validation(mut field)) => {
                        errors.append(&mut field);
                        None
                    }
                    Err(other) => return Err(other),
                },
                _ => None,
            };
            if !errors.is_empty() {
                return Err(Error::Validation(errors));
            }
            let (password, company, name) = (password.unwrap_or_default(), company.unwrap_or_default(), name.unwrap_or_default());
            let taken: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM members WHERE username = $1 OR phone = $2")
                .bind(&username)
                .bind(&phone)
                .fetch_one(&context.db.pool)
                .await?;
            if taken > 0 {
                lookups(&context.db, &address).await?;
                return Err(Error::field("username", "用户名或手机号已被注册"));
            }
            check_code(&context.db, &phone, "register", form.code, true).await?;
            let hash = tokio::task::spawn_blocking(move || auth::hash_password(&password)).await.map_err(anyhow::Error::from)??;
            let id: i64 = sqlx::query_scalar(
                "INSERT INTO members (username, phone, email, password_hash, company, name, is_dd, created_at, buyer_type) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id",
            )
            .bind(&username)
            .bind(&phone)
            .bind(&email)
            .bind(hash)
            .bind(&company)
            .bind(&name)
            .bind(i64::from(dd))
            .bind(now())
            .bind(buyer_type.unwrap_or(BuyerType::Pharmacy))
            .fetch_one(&context.db.pool)
            .await
            .map_err(|error| unique_violation(error, "username", "用户名或手机号已被注册"))?;
            for store in &stores {
                sqlx::query("INSERT INTO member_stores (member_id, name) VALUES ($1, $2)")
                    .bind(id)
                    .bind(store)
                    .execute(&context.db.pool)
                    .await?;
            }
            if dd {
                let mut conn = context.db.pool.acquire().await?;
                let company_id = match joins {
                    Some(company_id) => company_id,
                    None => super::company::create(&mut conn, &company).await?,
                };
                sqlx::query("UPDATE members SET company_id = $1 WHERE id = $2").bind(company_id).bind(id).execute(&mut *conn).await?;
            }
            let cookie = super::cookie::sign_in(&context.db, &headers, id).await?;
            let kind = buyer_type.unwrap_or(BuyerType::Pharmacy);
            let body = ok(RegisterStep::Registered(Registered {
                step: 3,
                id,
                username,
                is_passed: 0,
                dd: i64::from(dd),
                buyer_type: kind.code(),
                required: kind.required().to_vec(),
            }))?;
            Ok(([(header::SET_COOKIE, cookie)], body).into_response())
        }
        3 => {
            let member = member.0.ok_or(Error::Unauthorized)?;
            let documents = [
                (text::LICENCE, form.licence, "药品经营许可证"),
                (text::BUSINESS, form.business, "营业执照"),
                (text::GSP, form.gsp, "GSP证书"),
                (text::PRACTICE, form.practice, "医疗机构执业许可证"),
            ];
            let mut numbers = Vec::new();
            for (spec, value, label) in documents {
                numbers.push((label, checked(spec, value)?));
            }
            let mut recorded = 0;
            for (label, number) in numbers {
                if let Some(number) = number {
                    sqlx::query("INSERT INTO qualifications (member_id, kind, number, created_at) VALUES ($1, $2, $3, $4)")
                        .bind(member.id)
                        .bind(label)
                        .bind(number)
                        .bind(now())
                        .execute(&context.db.pool)
                        .await?;
                    recorded += 1;
                }
            }
            Ok(ok(RegisterStep::Qualified(Qualified { step: 3, done: true, qualifications: recorded, is_passed: 0 }))?.into_response())
        }
        _ => Err(Error::field("step", "步骤不正确")),
    }
}

/// `POST /api/user/forget`: `step` 1 (`phone`, `code`) checks the code; 2 (the same, with
/// `password`, `password_confirmation`) sets the new password and closes every session. Not
/// through a phone the account moved to less than 24 hours ago.
#[utoipa::path(post, path = "/api/user/forget", request_body(content = ForgetForm, content_type = "application/x-www-form-urlencoded"), tag = "账户", responses((status = 200, description = "第 1 步：验证码正确；第 2 步：新密码已设置", body = Envelope<ForgetStep>)))]
async fn forget(
    State(context): State<ApiContext>,
    ClientAddress(address): ClientAddress,
    Form(form): Form<ForgetForm>,
) -> Answer<ForgetStep> {
    let phone = form.phone;
    if !phone_taken(&context.db, &phone).await? {
        lookups(&context.db, &address).await?;
        return Err(Error::field("phone", "该手机号未注册"));
    }
    phone_change_hold(&context.db, &phone).await?;
    match form.step {
        1 => {
            check_code(&context.db, &phone, "forget", form.code, false).await?;
            ok(ForgetStep::CodeChecked(CodeChecked { step: 2, phone }))
        }
        2 => {
            let password = new_password(form.password, form.password_confirmation)?;
            check_code(&context.db, &phone, "forget", form.code, true).await?;
            let hash = tokio::task::spawn_blocking(move || auth::hash_password(&password)).await.map_err(anyhow::Error::from)??;
            sqlx::query("UPDATE members SET password_hash = $1 WHERE phone = $2").bind(hash).bind(&phone).execute(&context.db.pool).await?;
            sqlx::query("DELETE FROM sessions WHERE member_id IN (SELECT id FROM members WHERE phone = $1)")
                .bind(&phone)
                .execute(&context.db.pool)
                .await?;
            ok(ForgetStep::Done(PasswordSet { step: 3, done: true }))
        }
        _ => Err(Error::field("step", "步骤不正确")),
    }
}

/// `POST /api/user/updateUserInfo` (`name`, `phone`; when the phone changes, `password`, the
/// current one, and `code`, sent to the new phone with scene `change_phone`): a session alone
/// cannot move the account to another phone, and with it the password reset. A change tells the
/// old phone (an SMS) and the member's messages, ends every other session of the member, and
/// holds password resets through the new phone for 24 hours.
#[utoipa::path(post, path = "/api/user/updateUserInfo", request_body(content = UserInfoForm, content_type = "application/x-www-form-urlencoded"), tag = "账户", responses((status = 200, description = "新的联系人与手机号", body = Envelope<UserInfo>)))]
async fn update_user_info(
    State(context): State<ApiContext>,
    member: Member,
    headers: HeaderMap,
    Form(form): Form<UserInfoForm>,
) -> Answer<UserInfo> {
    let UserInfoForm { name, phone, password, code } = form;
    let current: String = sqlx::query_scalar("SELECT phone FROM members WHERE id = $1").bind(member.id).fetch_one(&context.db.pool).await?;
    if phone == current {
        sqlx::query("UPDATE members SET name = $1 WHERE id = $2").bind(&name).bind(member.id).execute(&context.db.pool).await?;
        return ok(UserInfo { name, phone });
    }
    let password = required_checked(text::PASSWORD, password)?;
    let code = Some(required_checked(text::CODE, code)?);
    let taken: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM members WHERE phone = $1 AND id <> $2")
        .bind(&phone)
        .bind(member.id)
        .fetch_one(&context.db.pool)
        .await?;
    if taken > 0 {
        return Err(Error::field("phone", "该手机号已被其他账号使用"));
    }
    // The password first, so that a wrong one spends no guess of the code.
    check_current_password(&context.db, member.id, password, "password", "登录密码不正确").await?;
    check_code(&context.db, &phone, "change_phone", code, true).await?;
    let time = now();
    let mut tx = context.db.pool.begin().await?;
    sqlx::query("UPDATE members SET name = $1, phone = $2, phone_changed_at = $3 WHERE id = $4")
        .bind(&name)
        .bind(&phone)
        .bind(time)
        .bind(member.id)
        .execute(&mut *tx)
        .await
        .map_err(|error| unique_violation(error, "phone", "该手机号已被其他账号使用"))?;
    let shop = crate::domain::shop::read(&mut tx).await?;
    let notice = format!(
        "【{}】您的账户手机号已更换为{}，本号码不再用于登录和找回密码。如非本人操作，请立即致电客服{}。",
        shop.name,
        masked(&phone),
        shop.hot_line
    );
    sqlx::query("INSERT INTO sms_notices (phone, body, sent_at) VALUES ($1, $2, $3)")
        .bind(&current)
        .bind(&notice)
        .bind(time)
        .execute(&mut *tx)
        .await?;
    let message = format!(
        "您的账户手机号已由{}更换为{}，其他设备上的登录已退出；24小时内不能通过新手机号找回密码。如非本人操作，请立即致电客服{}。",
        masked(&current),
        masked(&phone),
        shop.hot_line
    );
    crate::domain::messages::send(&mut tx, member.id, crate::domain::messages::MessageKind::System, "手机号已更换", &message).await?;
    end_other_sessions(&mut tx, member.id, &headers).await?;
    tx.commit().await?;
    tracing::info!(member = member.id, old = %masked(&current), "phone changed; the old phone was told");
    ok(UserInfo { name, phone })
}

/// Checks the signed-in member's current password, typed in `field` (a 422 saying `wrong` on it
/// when it is not the password), at most `security::PASSWORD_CHECKS` times in 15 minutes.
async fn check_current_password(db: &Db, member: i64, password: String, field: &str, wrong: &str) -> Result<()> {
    if PASSWORD_CHECKS.over(db, &member.to_string()).await? {
        return Err(Error::too_many("原密码错误次数过多，请15分钟后再试"));
    }
    let hash: String = sqlx::query_scalar("SELECT password_hash FROM members WHERE id = $1").bind(member).fetch_one(&db.pool).await?;
    let right = tokio::task::spawn_blocking(move || auth::verify_password(&password, &hash)).await.map_err(anyhow::Error::from)?;
    if !right {
        return Err(Error::field(field, wrong));
    }
    Ok(())
}

/// Ends every session of the member but the request's own.
async fn end_other_sessions(conn: &mut sqlx::AnyConnection, member: i64, headers: &HeaderMap) -> Result<()> {
    let current = super::extract::session_token(headers).map(|token| auth::token_hash(&token)).unwrap_or_default();
    sqlx::query("DELETE FROM sessions WHERE member_id = $1 AND token_hash <> $2").bind(member).bind(current).execute(&mut *conn).await?;
    Ok(())
}

/// The member's contact name and phone.
#[derive(Serialize, ToSchema)]
pub struct UserInfo {
    name: String,
    phone: String,
}

/// `POST /api/user/resetPassword` (`old_password`, `password`, `password_confirmation`): a new
/// password for the logged-in member, who must know the old one (a stolen session is not the
/// account).
#[utoipa::path(post, path = "/api/user/resetPassword", request_body(content = PasswordForm, content_type = "application/x-www-form-urlencoded"), tag = "账户", responses((status = 200, description = "新密码已设置", body = Envelope<Done>)))]
async fn reset_password(
    State(context): State<ApiContext>,
    member: Member,
    headers: HeaderMap,
    Form(form): Form<PasswordForm>,
) -> Answer<Done> {
    let old_password = form.old_password;
    let password = new_password(form.password, form.password_confirmation)?;
    check_current_password(&context.db, member.id, old_password, "old_password", "原密码不正确").await?;
    let hash = tokio::task::spawn_blocking(move || auth::hash_password(&password)).await.map_err(anyhow::Error::from)??;
    let mut conn = context.db.pool.acquire().await?;
    sqlx::query("UPDATE members SET password_hash = $1 WHERE id = $2").bind(hash).bind(member.id).execute(&mut *conn).await?;
    // Every other session of the member ends with the old password.
    end_other_sessions(&mut conn, member.id, &headers).await?;
    ok(Done { done: true })
}

/// A change made.
#[derive(Serialize, ToSchema)]
pub struct Done {
    /// Always true.
    done: bool,
}

/// A step of registration: the code checked (step 1), the member created and logged in (step
/// 2), the qualifications recorded (step 3). `step` is the next step.
#[derive(Serialize, ToSchema)]
#[serde(untagged)]
pub enum RegisterStep {
    CodeChecked(CodeChecked),
    Registered(Registered),
    Qualified(Qualified),
}

/// A step of a forgotten password: the code checked (step 1), the new password set (step 2).
#[derive(Serialize, ToSchema)]
#[serde(untagged)]
pub enum ForgetStep {
    CodeChecked(CodeChecked),
    Done(PasswordSet),
}

/// The code is right: go on to step 2.
#[derive(Serialize, ToSchema)]
pub struct CodeChecked {
    #[schema(example = 2)]
    step: i64,
    phone: String,
}

/// The member, created and logged in.
#[derive(Serialize, ToSchema)]
pub struct Registered {
    #[schema(example = 3)]
    step: i64,
    id: i64,
    username: String,
    /// 0: the qualifications are not yet approved.
    is_passed: i64,
    /// 1 for a multi-store account.
    dd: i64,
    /// 企业类型, as chosen.
    buyer_type: i64,
    /// The certificates it must have approved before it may order.
    required: Vec<&'static str>,
}

/// The qualification documents recorded.
#[derive(Serialize, ToSchema)]
pub struct Qualified {
    #[schema(example = 3)]
    step: i64,
    done: bool,
    /// How many documents were recorded.
    qualifications: i64,
    is_passed: i64,
}

/// The new password is set.
#[derive(Serialize, ToSchema)]
pub struct PasswordSet {
    #[schema(example = 3)]
    step: i64,
    done: bool,
}

pub const LOOKUPS_REFUSED: &str = "查询过于频繁，请稍后再试";

/// Counts one answer that tells whether a phone is registered, for the client address: 429
/// over 10 a minute or 100 a day (`security::LOOKUPS_PER_ADDRESS`).
pub(super) async fn lookups(db: &Db, address: &str) -> Result<()> {
    if LOOKUPS_PER_ADDRESS.over(db, address).await? || LOOKUPS_PER_ADDRESS_DAY.over(db, address).await? {
        return Err(Error::too_many(LOOKUPS_REFUSED));
    }
    Ok(())
}
