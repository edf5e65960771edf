//! Binding WeChat on SQLite and PostgreSQL against a local OAuth2 provider (authorize, token,
//! user info, as a real one answers them): a binding needs the member's own unexpired state,
//! used once, and a code the provider issued; one WeChat account binds one member; without a
//! provider WeChat is not offered.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use axum::extract::{Form, Query, State};
use axum::http::{HeaderMap, StatusCode as AxumStatus, header};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use reqwest::{Client, StatusCode};
use serde_json::{Value, json};

use crate::common::{App, on_both, on_both_configured};

const CLIENT_ID: &str = "shop-client";
const CLIENT_SECRET: &str = "shop-client-secret";

/// The provider's memory: codes issued (code → account), tokens issued (token → account).
#[derive(Clone, Default)]
struct Provider {
    codes: Arc<Mutex<HashMap<String, String>>>,
    tokens: Arc<Mutex<HashMap<String, String>>>,
}

/// The authorize page, as if the buyer signed in as `login_as` and agreed: back to the
/// redirect address with a fresh code and the state as it came.
async fn authorize(State(provider): State<Provider>, Query(query): Query<HashMap<String, String>>) -> Response {
    if query.get("client_id").map(String::as_str) != Some(CLIENT_ID) || query.get("response_type").map(String::as_str) != Some("code") {
        return (AxumStatus::BAD_REQUEST, "bad client").into_response();
    }
    let code = format!("code-{}", provider.codes.lock().unwrap().len());
    provider.codes.lock().unwrap().insert(code.clone(), query["login_as"].clone());
    let back = format!("{}?code={code}&state={}", query["redirect_uri"], query["state"]);
    Redirect::to(&back).into_response()
}

async fn token(State(provider): State<Provider>, Form(form): Form<HashMap<String, String>>) -> Response {
    if form.get("client_secret").map(String::as_str) != Some(CLIENT_SECRET) {
        return (AxumStatus::UNAUTHORIZED, "bad secret").into_response();
    }
    // A code is good once.
    let Some(account) = provider.codes.lock().unwrap().remove(&form["code"]) else {
        return (AxumStatus::BAD_REQUEST, axum::Json(json!({ "error": "invalid_grant" }))).into_response();
    };
    let token = format!("token-{account}");
    provider.tokens.lock().unwrap().insert(token.clone(), account);
    axum::Json(json!({ "access_token": token, "token_type": "bearer" })).into_response()
}

async fn userinfo(State(provider): State<Provider>, headers: HeaderMap) -> Response {
    let token = headers.get(header::AUTHORIZATION).and_then(|value| value.to_str().ok()).and_then(|value| value.strip_prefix("Bearer "));
    match token.and_then(|token| provider.tokens.lock().unwrap().get(token).cloned()) {
        Some(account) => {
            axum::Json(json!({ "openid": format!("openid-{account}"), "nickname": format!("微信用户{account}") })).into_response()
        }
        None => AxumStatus::UNAUTHORIZED.into_response(),
    }
}

/// Starts the provider on a random port; answers its base URL.
async fn provider() -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let router = axum::Router::new()
        .route("/authorize", get(authorize))
        .route("/token", post(token))
        .route("/userinfo", get(userinfo))
        .with_state(Provider::default());
    tokio::spawn(async move { axum::serve(listener, router).await });
    base
}

/// Starts a binding and goes through the provider's page as `account`: answers the code and
/// state the provider sends back.
async fn authorize_as(app: &App, client: &Client, account: &str) -> (String, String) {
    let (status, started) = app.post(client, "/api/user/wechat/authorize", &[]).await;
    assert_eq!(status, StatusCode::OK, "{started}");
    let url = format!("{}&login_as={account}", started["data"]["url"].as_str().unwrap());
    let plain = Client::builder().redirect(reqwest::redirect::Policy::none()).build().unwrap();
    let answer = plain.get(url).send().await.unwrap();
    assert_eq!(answer.status(), StatusCode::SEE_OTHER);
    let back = reqwest::Url::parse(answer.headers()["location"].to_str().unwrap()).unwrap();
    assert_eq!(back.path(), "/register/wechat", "back to the shop's binding page");
    let field = |name: &str| back.query_pairs().find(|(key, _)| key == name).unwrap().1.into_owned();
    (field("code"), field("state"))
}

async fn bind(app: &App, client: &Client, code: &str, state: &str) -> (StatusCode, Value) {
    app.post(client, "/api/user/wechat/bind", &[("code", code), ("state", state)]).await
}

#[tokio::test]
async fn a_member_binds_and_unbinds_wechat() {
    let base = provider().await;
    on_both_configured(
        |config| {
            config.wechat = Some(origin::wechat::WechatConfig {
                authorize_url: format!("{base}/authorize"),
                token_url: format!("{base}/token"),
                userinfo_url: format!("{base}/userinfo"),
                client_id: CLIENT_ID.into(),
                client_secret: CLIENT_SECRET.into(),
                redirect_url: "http://shop.test/register/wechat".into(),
            })
        },
        |app| async move {
            let demo = app.demo().await;
            let other = app.other_member().await;
            let (_, state) = app.get(&demo, "/api/user/wechat").await;
            assert_eq!(state["data"], json!({ "enabled": true, "bound": false, "name": "" }));

            // Another member's state, a state used twice, an unknown code: refused.
            let (code, demo_state) = authorize_as(&app, &demo, "alice").await;
            let (status, refused) = bind(&app, &other, &code, &demo_state).await;
            assert_eq!((status, refused["msg"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("授权已失效，请重新绑定")));
            let (_, state) = app.get(&demo, "/api/user/wechat").await;
            assert_eq!(state["data"]["bound"], false);
            let (code, demo_state) = authorize_as(&app, &demo, "alice").await;
            let (status, refused) = bind(&app, &demo, "no-such-code", &demo_state).await;
            assert_eq!((status, refused["msg"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("微信授权失败，请重新绑定")));
            let (status, _) = bind(&app, &demo, &code, &demo_state).await;
            assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "a state is used once");

            // Bound, and shown in the user state.
            let (code, demo_state) = authorize_as(&app, &demo, "alice").await;
            let (status, bound) = bind(&app, &demo, &code, &demo_state).await;
            assert_eq!(status, StatusCode::OK, "{bound}");
            assert_eq!(bound["data"], json!({ "enabled": true, "bound": true, "name": "微信用户alice" }));
            let (_, base) = app.get(&demo, "/api/user/base").await;
            assert_eq!(base["data"]["wechat"], "微信用户alice");

            // The same WeChat account cannot bind another member.
            let (code, other_state) = authorize_as(&app, &other, "alice").await;
            let (status, refused) = bind(&app, &other, &code, &other_state).await;
            assert_eq!((status, refused["msg"].as_str()), (StatusCode::CONFLICT, Some("该微信已绑定其他账号")));

            let response = demo.delete(app.url("/api/user/unbind_wechat")).send().await.unwrap();
            assert_eq!(response.status(), StatusCode::OK);
            let (_, state) = app.get(&demo, "/api/user/wechat").await;
            assert_eq!(state["data"]["bound"], false);
            // Now free for the other member.
            let (code, other_state) = authorize_as(&app, &other, "alice").await;
            let (status, _) = bind(&app, &other, &code, &other_state).await;
            assert_eq!(status, StatusCode::OK);
        },
    )
    .await;
}

#[tokio::test]
async fn without_a_provider_wechat_is_not_offered() {
    on_both(|app| async move {
        let demo = app.demo().await;
        let (_, state) = app.get(&demo, "/api/user/wechat").await;
        assert_eq!(state["data"]["enabled"], false);
        let (status, refused) = app.post(&demo, "/api/user/wechat/authorize", &[]).await;
        assert_eq!((status, refused["msg"].as_str()), (StatusCode::FORBIDDEN, Some("暂未开通微信登录")));
        let (status, _) = app.get(&app.client(), "/api/user/wechat").await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);
    })
    .await;
}
