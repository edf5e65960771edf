//! Sessions over HTTP: login, logout, the member state, login limits.

use crate::common::on_both;
use reqwest::StatusCode;
use serde_json::Value;

#[tokio::test]
async fn login_logout_and_the_member_state() {
    on_both(|app| async move {
        let client = app.client();
        let (status, wrong) = app.post(&client, "/api/user/login", &[("username", "demo"), ("password", "nope")]).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(wrong["msg"], "账号或密码错误");
        let (status, missing) = app.post(&client, "/api/user/login", &[("username", "demo")]).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(missing["msg"], "请填写密码");

        let response = client.post(app.url("/api/user/login")).form(&[("username", "demo"), ("password", "demo123")]).send().await.unwrap();
        let cookie = response.headers()["set-cookie"].to_str().unwrap().to_owned();
        assert!(cookie.starts_with("sid=") && cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax"), "{cookie}");
        let body: Value = response.json().await.unwrap();
        assert_eq!(body["data"]["username"], "demo");
        let (_, base) = app.get(&client, "/api/user/base").await;
        assert_eq!(base["data"]["login"], true);
        assert!(!base["data"]["company"].as_str().unwrap().is_empty());
        assert!(!base["data"]["admin"]["name"].as_str().unwrap().is_empty());
        assert_eq!(base["data"]["is_AfterSale"], "0");

        let response = client.delete(app.url("/api/user/logout")).send().await.unwrap();
        assert_eq!(response.status(), StatusCode::OK);
        let (_, base) = app.get(&client, "/api/user/base").await;
        assert_eq!(base["data"]["login"], false);
        let (status, cart) = app.get(&client, "/api/cart/list").await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);
        assert_eq!(cart["code"], 10001);

        let (status, _) = app.get(&client, "/api/user/phone/13800000000").await;
        assert_eq!(status, StatusCode::OK);
        let (status, bad) = app.get(&client, "/api/user/phone/12345").await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(bad["msg"], "手机号码格式不正确");
    })
    .await;
}

#[tokio::test]
async fn logins_are_rate_limited_per_account() {
    on_both(|app| async move {
        let client = app.client();
        for _ in 0..5 {
            let (status, _) = app.post(&client, "/api/user/login", &[("username", "demo"), ("password", "wrong")]).await;
            assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        }
        let (status, body) = app.post(&client, "/api/user/login", &[("username", "demo"), ("password", "demo123")]).await;
        assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
        assert_eq!(body["code"], 429);
        assert_eq!(body["msg"], "登录失败次数过多，请15分钟后再试");
    })
    .await;
}
