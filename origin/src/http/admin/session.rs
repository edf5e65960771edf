//! Operators sign in and out: `POST /api/admin/login`, `DELETE /api/admin/logout`,
//! `GET /api/admin/me`. Failed sign-ins are limited per account and per address as members'
//! are (`http::session`), wrong TOTP codes included; a disabled operator is refused.

use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use serde_json::json;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::{Staff, session_token};
use crate::domain::staff::audit::{self, Actor, Entry};
use crate::domain::staff::operators::{self, Operator, SignInRefusal};
use crate::domain::staff::{Permission, Role};
use crate::http::ApiContext;
use crate::http::cookie::is_secure;
use crate::http::error::{Answer, Envelope, Error, Nothing, Result, ok};
use crate::http::extract::{ClientAddress, Fields, Form, FromFields};
use crate::http::session::{claim_attempt, give_back, wait_message};
use crate::now;
use crate::security::{LOGIN_FREE_PER_ACCOUNT, LOGIN_FREE_PER_ADDRESS, text};

pub fn router() -> OpenApiRouter<ApiContext> {
    OpenApiRouter::new().routes(routes!(login)).routes(routes!(logout)).routes(routes!(me))
}

/// The signed-in operator: who, the role, and what the role may do (the console shows only that).
#[derive(Serialize, ToSchema)]
pub struct OperatorMe {
    operator: Operator,
    #[schema(value_type = String, example = "仓库")]
    role_name: &'static str,
    permissions: Vec<Permission>,
}

fn me_of(operator: Operator) -> OperatorMe {
    let role: Role = operator.role.0;
    OperatorMe { role_name: role.title(), permissions: role.permissions(), operator }
}

/// An operator's sign-in.
#[derive(ToSchema)]
pub struct OperatorLoginForm {
    /// 账号.
    username: String,
    /// 密码.
    password: String,
    /// 动态验证码: the authenticator app's six digits (required for a role that uses TOTP).
    code: Option<String>,
}

impl FromFields for OperatorLoginForm {
    fn from_fields(form: &Fields) -> Result<OperatorLoginForm> {
        Ok(OperatorLoginForm {
            username: form.required_bounded(text::ACCOUNT)?,
            password: form.required_bounded(text::PASSWORD)?,
            code: form.bounded(text::CODE)?,
        })
    }
}

/// `POST /api/admin/login`: opens an operator's session (cookie `osid`, path `/api/admin`).
#[utoipa::path(post, path = "/api/admin/login", operation_id = "admin_login", request_body(content = OperatorLoginForm, content_type = "application/x-www-form-urlencoded"), tag = "后台", responses((status = 200, description = "登录后的员工，并设置后台会话 Cookie", body = Envelope<OperatorMe>)))]
async fn login(
    State(context): State<ApiContext>,
    ClientAddress(address): ClientAddress,
    headers: HeaderMap,
    Form(form): Form<OperatorLoginForm>,
) -> Result<Response> {
    let db = &context.db;
    let address_key = format!("operator-address:{address}");
    if let Some(wait) = claim_attempt(db, &address_key, LOGIN_FREE_PER_ADDRESS).await? {
        return Err(Error::too_many(wait_message(wait)));
    }
    let mut conn = db.pool.acquire().await?;
    let known: Option<i64> =
        sqlx::query_scalar("SELECT id FROM operators WHERE username = $1").bind(&form.username).fetch_optional(&mut *conn).await?;
    let account_key = match known {
        Some(id) => format!("operator:{id}"),
        None => format!("operator-name:{}", form.username),
    };
    if let Some(wait) = claim_attempt(db, &account_key, LOGIN_FREE_PER_ACCOUNT).await? {
        give_back(db, &address_key).await?;
        return Err(Error::too_many(wait_message(wait)));
    }
    let time = now();
    let id = match operators::check_sign_in(&mut conn, &form.username, &form.password, form.code.as_deref(), time).await? {
        Ok(id) => id,
        Err((_, refusal)) => {
            if refusal == SignInRefusal::CodeNeeded {
                // Asking for the code is no failure: the password was right.
                give_back(db, &account_key).await?;
                give_back(db, &address_key).await?;
            }
            return Err(match refusal {
                SignInRefusal::Password => Error::field("password", "账号或密码错误"),
                SignInRefusal::CodeNeeded => Error::field("code", "请输入动态验证码"),
                SignInRefusal::Code => Error::field("code", "动态验证码错误或已使用"),
                SignInRefusal::Disabled => Error::forbidden("该账号已停用"),
            });
        }
    };
    give_back(db, &address_key).await?;
    sqlx::query("DELETE FROM login_failures WHERE key = $1").bind(&account_key).execute(&mut *conn).await?;
    if let Some(old) = session_token(&headers) {
        operators::close_session(&mut conn, &old).await?;
    }
    let token = operators::open_session(&mut conn, id, &address, time).await?;
    let operator = operators::get(&mut conn, id).await?;
    let actor = Actor { operator: Some(id), name: operator.username.clone(), address: address.clone() };
    let entry = Entry {
        action: "operator.login",
        target: format!("operator:{id}"),
        member: None,
        summary: format!("{} 登录后台", operator.username),
        before: serde_json::Value::Null,
        after: json!({ "address": address }),
    };
    audit::record(&mut conn, &actor, entry, time).await?;
    let cookie = HeaderValue::from_str(&operators::cookie(Some(&token), is_secure(&headers))).map_err(anyhow::Error::from)?;
    Ok(([(header::SET_COOKIE, cookie)], ok(me_of(operator))?).into_response())
}

/// `DELETE /api/admin/logout`: closes the operator's session and clears the cookie.
#[utoipa::path(delete, path = "/api/admin/logout", operation_id = "admin_logout", tag = "后台", responses((status = 200, description = "已退出（data 为 null）", body = Envelope<Nothing>)))]
async fn logout(State(context): State<ApiContext>, headers: HeaderMap) -> Result<Response> {
    if let Some(token) = session_token(&headers) {
        operators::close_session(&mut *context.db.pool.acquire().await?, &token).await?;
    }
    let cookie = HeaderValue::from_str(&operators::cookie(None, is_secure(&headers))).map_err(anyhow::Error::from)?;
    Ok(([(header::SET_COOKIE, cookie)], ok(Nothing)?).into_response())
}

/// `GET /api/admin/me`: the signed-in operator (401 without a session).
#[utoipa::path(get, path = "/api/admin/me", operation_id = "admin_me", tag = "后台", responses((status = 200, description = "当前员工、角色与权限", body = Envelope<OperatorMe>)))]
async fn me(staff: Staff) -> Answer<OperatorMe> {
    ok(me_of(staff.operator))
}
