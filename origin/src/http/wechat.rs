//! The member's WeChat binding (`crate::wechat`): its state, the authorize page to go to, the
//! binding when the provider sends the member back, and `DELETE /api/user/unbind_wechat`.

use axum::extract::State;
use serde::Serialize;
use sha2::{Digest, Sha256};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::ApiContext;
use super::error::{Answer, Envelope, Error, Result, ok, ok_with};
use super::extract::{Fields, Form, FromFields, Member, required};
use crate::now;
use crate::wechat::{self, STATE_SECONDS, WechatConfig};

pub fn router() -> OpenApiRouter<ApiContext> {
    OpenApiRouter::new().routes(routes!(state)).routes(routes!(authorize)).routes(routes!(bind)).routes(routes!(unbind))
}

const NOT_OFFERED: &str = "暂未开通微信登录";

/// The member's WeChat binding.
#[derive(Serialize, ToSchema)]
pub struct WechatState {
    /// Whether the shop offers WeChat at all (a provider is configured).
    enabled: bool,
    bound: bool,
    /// The bound account's nickname; empty when none is bound.
    name: String,
}

async fn wechat_state(context: &ApiContext, member: Member) -> Result<WechatState> {
    let (subject, name): (Option<String>, String) =
        sqlx::query_as("SELECT wechat_subject, wechat_name FROM members WHERE id = $1").bind(member.id).fetch_one(&context.db.pool).await?;
    Ok(WechatState { enabled: context.wechat.is_some(), bound: subject.is_some(), name })
}

fn config(context: &ApiContext) -> Result<&WechatConfig> {
    context.wechat.as_deref().ok_or_else(|| Error::forbidden(NOT_OFFERED))
}

fn state_hash(state: &str) -> String {
    hex::encode(Sha256::digest(state.as_bytes()))
}

/// `GET /api/user/wechat`: whether WeChat is offered, and the member's binding.
#[utoipa::path(get, path = "/api/user/wechat", operation_id = "wechat_state", tag = "账户", responses((status = 200, description = "微信绑定状态", body = Envelope<WechatState>)))]
async fn state(State(context): State<ApiContext>, member: Member) -> Answer<WechatState> {
    ok(wechat_state(&context, member).await?)
}

/// Where the browser goes to authorize.
#[derive(Serialize, ToSchema)]
pub struct Authorize {
    /// The provider's authorize page, with a one-time state valid for ten minutes.
    url: String,
}

/// `POST /api/user/wechat/authorize`: starts a binding; answers the provider's page to open.
/// 403 `暂未开通微信登录` when no provider is configured.
#[utoipa::path(post, path = "/api/user/wechat/authorize", tag = "账户", responses((status = 200, description = "授权页地址", body = Envelope<Authorize>)))]
async fn authorize(State(context): State<ApiContext>, member: Member) -> Answer<Authorize> {
    let config = config(&context)?;
    let state = hex::encode(rand::random::<[u8; 16]>());
    sqlx::query("INSERT INTO oauth_states (state_hash, member_id, expires_at) VALUES ($1, $2, $3)")
        .bind(state_hash(&state))
        .bind(member.id)
        .bind(now() + STATE_SECONDS)
        .execute(&context.db.pool)
        .await?;
    ok(Authorize { url: config.authorize(&state) })
}

/// What the provider sent back to the shop's page; both required (checked once the shop is
/// known to offer WeChat).
#[derive(ToSchema)]
pub struct BindForm {
    /// 授权码.
    code: Option<String>,
    /// 授权状态: the one-time state of the authorize call.
    state: Option<String>,
}

impl FromFields for BindForm {
    fn from_fields(form: &Fields) -> Result<BindForm> {
        Ok(BindForm { code: form.text("code"), state: form.text("state") })
    }
}

/// `POST /api/user/wechat/bind` (`code`, `state` as the provider sent them back): binds the
/// account the provider vouches for. The state is the member's own, unexpired, and used once;
/// an account bound to another member is refused (409).
#[utoipa::path(post, path = "/api/user/wechat/bind", request_body(content = BindForm, content_type = "application/x-www-form-urlencoded"), tag = "账户", responses((status = 200, description = "微信绑定状态", body = Envelope<WechatState>)))]
async fn bind(State(context): State<ApiContext>, member: Member, Form(form): Form<BindForm>) -> Answer<WechatState> {
    let config = config(&context)?;
    let code = required("code", "授权码", form.code)?;
    let state = required("state", "授权状态", form.state)?;
    // Used once, whatever comes of it.
    let found: Option<i64> =
        sqlx::query_scalar("DELETE FROM oauth_states WHERE state_hash = $1 AND member_id = $2 AND expires_at > $3 RETURNING member_id")
            .bind(state_hash(&state))
            .bind(member.id)
            .bind(now())
            .fetch_optional(&context.db.pool)
            .await?;
    if found.is_none() {
        return Err(Error::field("state", "授权已失效，请重新绑定"));
    }
    let account = match wechat::account(config, &context.http, &code).await {
        Ok(account) => account,
        Err(error) => {
            tracing::warn!(error = format!("{error:#}"), "WeChat authorization failed");
            return Err(Error::field("code", "微信授权失败，请重新绑定"));
        }
    };
    let taken: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM members WHERE wechat_subject = $1 AND id <> $2")
        .bind(&account.subject)
        .bind(member.id)
        .fetch_one(&context.db.pool)
        .await?;
    if taken > 0 {
        return Err(Error::conflict("该微信已绑定其他账号"));
    }
    sqlx::query("UPDATE members SET wechat_subject = $1, wechat_name = $2 WHERE id = $3")
        .bind(&account.subject)
        .bind(&account.nickname)
        .bind(member.id)
        .execute(&context.db.pool)
        .await
        .map_err(|error| match error.as_database_error().is_some_and(|error| error.is_unique_violation()) {
            true => Error::conflict("该微信已绑定其他账号"),
            false => error.into(),
        })?;
    ok_with("绑定成功", wechat_state(&context, member).await?)
}

/// `DELETE /api/user/unbind_wechat`: removes the member's binding.
#[utoipa::path(delete, path = "/api/user/unbind_wechat", tag = "账户", responses((status = 200, description = "微信绑定状态", body = Envelope<WechatState>)))]
async fn unbind(State(context): State<ApiContext>, member: Member) -> Answer<WechatState> {
    sqlx::query("UPDATE members SET wechat_subject = NULL, wechat_name = '' WHERE id = $1")
        .bind(member.id)
        .execute(&context.db.pool)
        .await?;
    ok_with("已解除绑定", wechat_state(&context, member).await?)
}
