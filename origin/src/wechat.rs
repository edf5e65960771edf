//! Binding a WeChat account (绑定微信, `/register/wechat`) by the OAuth2 authorization-code flow
//! against a configurable provider: the origin sends the member to the provider's authorize
//! page with a one-time `state`, the provider sends them back to the web page with a `code`,
//! and the origin exchanges the code for a token and the token for the account (its subject
//! and nickname), server to server. Without configuration WeChat is not offered.

use anyhow::Context;
use serde::Deserialize;

/// `WECHAT_AUTHORIZE_URL`, `WECHAT_TOKEN_URL`, `WECHAT_USERINFO_URL`, `WECHAT_CLIENT_ID`,
/// `WECHAT_CLIENT_SECRET` (all five, or none: WeChat is not offered), and
/// `WECHAT_REDIRECT_URL`, where the provider sends the member back (default the shop's
/// `http://127.0.0.1:8787/register/wechat`).
#[derive(Clone, Debug)]
pub struct WechatConfig {
    pub authorize_url: String,
    pub token_url: String,
    pub userinfo_url: String,
    pub client_id: String,
    pub client_secret: String,
    pub redirect_url: String,
}

/// How long a binding may take between the authorize page and the answer, in seconds.
pub const STATE_SECONDS: i64 = 600;

impl WechatConfig {
    pub fn from_env() -> anyhow::Result<Option<WechatConfig>> {
        let var = |name: &str| std::env::var(name).ok().map(|value| value.trim().to_owned()).filter(|value| !value.is_empty());
        let names = ["WECHAT_AUTHORIZE_URL", "WECHAT_TOKEN_URL", "WECHAT_USERINFO_URL", "WECHAT_CLIENT_ID", "WECHAT_CLIENT_SECRET"];
        let values: Vec<Option<String>> = names.iter().map(|name| var(name)).collect();
        if values.iter().all(Option::is_none) {
            return Ok(None);
        }
        let missing: Vec<&str> = names.iter().zip(&values).filter(|(_, value)| value.is_none()).map(|(name, _)| *name).collect();
        anyhow::ensure!(missing.is_empty(), "WeChat sign-in needs {} too", missing.join(", "));
        let mut values = values.into_iter().flatten();
        let mut next = || values.next().unwrap_or_default();
        Ok(Some(WechatConfig {
            authorize_url: next(),
            token_url: next(),
            userinfo_url: next(),
            client_id: next(),
            client_secret: next(),
            redirect_url: var("WECHAT_REDIRECT_URL").unwrap_or_else(|| "http://127.0.0.1:8787/register/wechat".into()),
        }))
    }

    /// The provider's authorize page for a binding with this `state`.
    pub fn authorize(&self, state: &str) -> String {
        let query = serde_urlencoded::to_string([
            ("response_type", "code"),
            ("client_id", self.client_id.as_str()),
            ("redirect_uri", self.redirect_url.as_str()),
            ("scope", "snsapi_login"),
            ("state", state),
        ])
        .unwrap_or_default();
        let separator = if self.authorize_url.contains('?') { '&' } else { '?' };
        format!("{}{separator}{query}", self.authorize_url)
    }
}

/// The account the provider vouches for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Account {
    /// The provider's stable id of the account (`sub`, or WeChat's `unionid` / `openid`).
    pub subject: String,
    pub nickname: String,
}

#[derive(Deserialize)]
struct Token {
    access_token: String,
}

#[derive(Deserialize)]
struct UserInfo {
    sub: Option<String>,
    unionid: Option<String>,
    openid: Option<String>,
    nickname: Option<String>,
    name: Option<String>,
}

/// Exchanges the `code` for a token, and the token for the account.
pub async fn account(config: &WechatConfig, client: &reqwest::Client, code: &str) -> anyhow::Result<Account> {
    let token: Token = client
        .post(&config.token_url)
        .form(&[
            ("grant_type", "authorization_code"),
            ("code", code),
            ("redirect_uri", config.redirect_url.as_str()),
            ("client_id", config.client_id.as_str()),
            ("client_secret", config.client_secret.as_str()),
        ])
        .send()
        .await
        .context("the token call")?
        .error_for_status()
        .context("the token call")?
        .json()
        .await
        .context("the token answer")?;
    let info: UserInfo = client
        .get(&config.userinfo_url)
        .bearer_auth(&token.access_token)
        .send()
        .await
        .context("the user-info call")?
        .error_for_status()
        .context("the user-info call")?
        .json()
        .await
        .context("the user-info answer")?;
    let subject = info.sub.or(info.unionid).or(info.openid).filter(|subject| !subject.is_empty()).context("no account id in the answer")?;
    let nickname = info.nickname.or(info.name).unwrap_or_default().chars().take(50).collect();
    Ok(Account { subject, nickname })
}
