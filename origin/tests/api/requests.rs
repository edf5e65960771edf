//! What every request meets: cross-site refusals, the envelope on malformed requests, absurd
//! numbers refused rather than failed.

use crate::common::{ladder_goods, on_both};
use reqwest::StatusCode;
use serde_json::Value;

#[tokio::test]
async fn cross_site_requests_are_refused() {
    on_both(|app| async move {
        let client = app.client();
        let response = client
            .post(app.url("/api/user/login"))
            .header("Origin", "https://evil.example")
            .form(&[("username", "demo"), ("password", "demo123")])
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::FORBIDDEN);
        let response = client
            .post(app.url("/api/user/login"))
            .header("Sec-Fetch-Site", "cross-site")
            .form(&[("username", "demo"), ("password", "demo123")])
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::FORBIDDEN);
        let same_origin = app.base.clone();
        let response = client
            .post(app.url("/api/user/login"))
            .header("Origin", same_origin)
            .form(&[("username", "demo"), ("password", "demo123")])
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::OK);
    })
    .await;
}

#[tokio::test]
async fn malformed_requests_get_the_envelope_too() {
    on_both(|app| async move {
        let client = app.client();
        let (status, body) = app.get(&client, "/api/goods/detail/not-a-number").await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert_eq!(body["code"], 400);
        assert_eq!(body["msg"], "请求参数不正确");
        let response = client.put(app.url("/api/goods/list")).send().await.unwrap();
        assert_eq!(response.status(), StatusCode::METHOD_NOT_ALLOWED);
        let body: Value = response.json().await.unwrap();
        assert_eq!(body["msg"], "请求方法不正确");
        let (status, body) = app.get(&client, "/api/goods/list?page=abc").await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(body["msg"], "页码必须是整数");
    })
    .await;
}

#[tokio::test]
async fn absurd_numbers_are_refused_not_failed() {
    on_both(|app| async move {
        let demo = app.demo().await;
        let (goods, _) = ladder_goods(&app).await;
        let (status, body) = app.post(&demo, "/api/cart", &[("goods_id", &goods.to_string()), ("number", "9223372036854775807")]).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(body["msg"], "数量过大");
        let (status, body) = app.post(&demo, "/api/cart", &[("goods_id", &goods.to_string()), ("number", "99999999999999999999")]).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(body["msg"], "数量必须是整数");
        let (status, body) = app.get(&demo, "/api/goods/list?page=9223372036854775807").await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(body["msg"], "页码须在1到100000之间");
        let (status, _) = app.get(&demo, "/api/order?page=-5").await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        let (status, _) = app.get(&demo, "/api/index_wntj/9223372036854775807").await;
        assert_eq!(status, StatusCode::OK);
        let (status, _) = app.get(&demo, "/api/goods/detail/-1").await;
        assert_eq!(status, StatusCode::NOT_FOUND);
    })
    .await;
}
