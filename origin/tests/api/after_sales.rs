//! After-sales cases on SQLite and PostgreSQL: opened on a paid order with text and photos
//! (checked by content), answered by the shop, replied to and resolved by the member; refused on
//! unpaid orders, with a photo that is not one, or by another member; `is_AfterSale` follows
//! the open cases.

use reqwest::{Client, StatusCode};
use serde_json::Value;

use crate::common::{App, PNG, add_to_cart, address_of, admin, ladder_goods, multipart, on_both, post_order};

async fn send(app: &App, client: &Client, path: &str, form: (String, Vec<u8>)) -> (StatusCode, Value) {
    let response = client.post(app.url(path)).header("content-type", form.0).body(form.1).send().await.unwrap();
    (response.status(), response.json().await.unwrap())
}

/// The demo member's order of 12 ladder goods, paid when `pay`.
async fn order(app: &App, client: &Client, key: &str, pay: bool) -> i64 {
    let (goods, _) = ladder_goods(app).await;
    let ids = add_to_cart(app, client, goods, 12, &[]).await.to_string();
    let (_, list) = app.get(client, "/api/cart/list").await;
    let payable = list["data"]["quote"]["totals"]["payable"].as_str().unwrap().to_owned();
    let address = address_of(app, "demo").await.to_string();
    let (_, placed) = post_order(app, client, key, &[("ids", &ids), ("address_id", &address), ("expected_payable", &payable)]).await;
    let id = placed["data"]["id"].as_i64().unwrap();
    if pay {
        let (status, _) = app.post(client, &format!("/api/order/{id}/pay"), &[("method", "balance")]).await;
        assert_eq!(status, StatusCode::OK);
    }
    id
}

#[tokio::test]
async fn an_after_sales_case_is_opened_answered_and_resolved_by_its_member_only() {
    on_both(|app| async move {
        let demo = app.demo().await;
        let unpaid = order(&app, &demo, "as-1", false).await;
        let paid = order(&app, &demo, "as-2", true).await;
        let problem = [("kind", "1"), ("body", "收到的药品外包装破损")];
        let (status, refused) = send(&app, &demo, &format!("/api/order/{unpaid}/after_sales"), multipart(&problem, &[])).await;
        assert_eq!((status, refused["msg"].as_str()), (StatusCode::CONFLICT, Some("未支付或已取消的订单不能申请售后")));
        let path = format!("/api/order/{paid}/after_sales");
        let (status, refused) = send(&app, &demo, &path, multipart(&problem, &[("fake.png", b"<svg/>")])).await;
        assert_eq!((status, refused["msg"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("只能上传JPG或PNG文件")));
        let (status, refused) = send(&app, &demo, &path, multipart(&[("kind", "9"), ("body", "x")], &[])).await;
        assert_eq!((status, refused["msg"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("问题类型不正确")));
        let (status, refused) = send(&app, &demo, &path, multipart(&[("kind", "1")], &[])).await;
        assert_eq!((status, refused["msg"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("请描述遇到的问题")));
        let other = app.other_member().await;
        let (status, _) = send(&app, &other, &path, multipart(&problem, &[])).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "not another member's order");

        let (status, opened) = send(&app, &demo, &path, multipart(&problem, &[("box.png", PNG)])).await;
        assert_eq!(status, StatusCode::OK, "{opened}");
        let case = opened["data"]["id"].as_i64().unwrap();
        assert_eq!((opened["data"]["kind_name"].as_str(), opened["data"]["status_name"].as_str()), (Some("质量问题"), Some("处理中")));
        let photo = opened["data"]["messages"][0]["photos"][0].as_str().unwrap().to_owned();
        let served = demo.get(app.url(&photo)).send().await.unwrap();
        assert_eq!(served.headers()["content-type"], "image/png");
        assert_eq!(served.bytes().await.unwrap().as_ref(), PNG);
        assert_eq!(other.get(app.url(&photo)).send().await.unwrap().status(), StatusCode::NOT_FOUND);
        let (status, _) = app.get(&other, &format!("/api/after_sales/{case}")).await;
        assert_eq!(status, StatusCode::NOT_FOUND);
        let (_, base) = app.get(&demo, "/api/user/base").await;
        assert_eq!(base["data"]["is_AfterSale"], "1");

        // The shop answers; the member replies, then resolves it.
        admin(&app, &["answer", &case.to_string(), "--body", "已为您补发一盒，请注意查收"]).await.unwrap();
        let (_, thread) = app.get(&demo, &format!("/api/after_sales/{case}")).await;
        assert_eq!(thread["data"]["messages"][1]["author"], "operator");
        let (status, replied) =
            send(&app, &demo, &format!("/api/after_sales/{case}/reply"), multipart(&[("body", "已收到，谢谢")], &[])).await;
        assert_eq!(status, StatusCode::OK, "{replied}");
        assert_eq!(replied["data"]["messages"].as_array().unwrap().len(), 3);
        let (status, _) = app.post(&other, &format!("/api/after_sales/{case}/resolve"), &[]).await;
        assert_eq!(status, StatusCode::NOT_FOUND);
        let (status, resolved) = app.post(&demo, &format!("/api/after_sales/{case}/resolve"), &[]).await;
        assert_eq!((status, resolved["data"]["status_name"].as_str()), (StatusCode::OK, Some("已解决")));
        let (status, _) = send(&app, &demo, &format!("/api/after_sales/{case}/reply"), multipart(&[("body", "再问一句")], &[])).await;
        assert_eq!(status, StatusCode::CONFLICT);
        assert!(admin(&app, &["answer", &case.to_string(), "--body", "x"]).await.is_err(), "resolved");
        let (_, base) = app.get(&demo, "/api/user/base").await;
        assert_eq!(base["data"]["is_AfterSale"], "0");
        let (_, list) = app.get(&demo, &format!("/api/after_sales?order_id={paid}")).await;
        assert_eq!(list["data"]["total"], 1);
        let (_, theirs) = app.get(&other, "/api/after_sales").await;
        assert_eq!(theirs["data"]["total"], 0);
    })
    .await;
}
