//! Self-service on SQLite and PostgreSQL: quick purchase lists the goods of the member's paid
//! orders once each with the last price, most recent or most often first, never another
//! member's or a cancelled order's; wanted varieties are asked for, listed, answered by the
//! operator and kept from other members.

use reqwest::StatusCode;

use crate::common::{App, PNG, add_to_cart, address_of, admin, multipart, on_both, post_order};

#[tokio::test]
async fn quick_purchase_lists_what_the_member_bought_before() {
    on_both(|app| async move {
        let demo = app.demo().await;
        let goods: Vec<i64> = sqlx::query_scalar(
            "SELECT id FROM goods WHERE is_buy = 1 AND stock > 100 AND id NOT IN (SELECT goods_id FROM flash_sales) ORDER BY id LIMIT 3",
        )
        .fetch_all(&app.db.pool)
        .await
        .unwrap();
        let address = address_of(&app, "demo").await.to_string();
        let order = |key: &'static str, lines: Vec<(i64, i64)>| {
            let (app, demo, address) = (&app, &demo, address.clone());
            async move {
                let mut ids = Vec::new();
                for (goods, number) in lines {
                    ids.push(add_to_cart(app, demo, goods, number, &[]).await.to_string());
                }
                let ids = ids.join(",");
                let (status, placed) = post_order(app, demo, key, &[("ids", &ids), ("address_id", &address)]).await;
                assert_eq!(status, StatusCode::OK, "{placed}");
                placed["data"]["id"].as_i64().unwrap()
            }
        };
        let first = order("fast-1", vec![(goods[0], 2), (goods[1], 1)]).await;
        let second = order("fast-2", vec![(goods[0], 3)]).await;
        let cancelled = order("fast-3", vec![(goods[2], 1)]).await;
        for id in [first, second] {
            let (status, paid) = app.post(&demo, &format!("/api/order/{id}/pay"), &[("method", "balance")]).await;
            assert_eq!(status, StatusCode::OK, "{paid}");
        }
        assert_eq!(app.post(&demo, &format!("/api/order/{cancelled}/cancel"), &[]).await.0, StatusCode::OK);
        // Orders keep their order by time: the second is the newer.
        sqlx::query("UPDATE orders SET created_at = created_at - 100 WHERE id = $1").bind(first).execute(&app.db.pool).await.unwrap();

        let (status, often) = app.get(&demo, "/api/user/fast_buy?order=often").await;
        assert_eq!(status, StatusCode::OK, "{often}");
        let list = often["data"]["list"].as_array().unwrap();
        let seen: Vec<i64> = list.iter().map(|item| item["goods"]["id"].as_i64().unwrap()).collect();
        assert_eq!(seen, [goods[0], goods[1]], "once each, the cancelled order's left out, most often first");
        assert_eq!((list[0]["times"].as_i64(), list[0]["units"].as_i64()), (Some(2), Some(5)));
        let stored: i64 = sqlx::query_scalar("SELECT price FROM order_items WHERE order_id = $1 AND goods_id = $2")
            .bind(second)
            .bind(goods[0])
            .fetch_one(&app.db.pool)
            .await
            .unwrap();
        assert_eq!(list[0]["last_price"].as_str().unwrap(), origin::money::text(stored));
        assert_eq!(often["data"]["total"].as_i64(), Some(2));
        let (_, recent) = app.get(&demo, "/api/user/fast_buy").await;
        assert_eq!(recent["data"]["list"][0]["goods"]["id"].as_i64(), Some(goods[0]));
        assert_eq!(app.get(&demo, "/api/user/fast_buy?order=cheap").await.0, StatusCode::UNPROCESSABLE_ENTITY);

        let other = app.other_member().await;
        let (_, none) = app.get(&other, "/api/user/fast_buy").await;
        assert_eq!(none["data"]["total"].as_i64(), Some(0));
    })
    .await;
}

#[tokio::test]
async fn wanted_varieties_are_asked_for_answered_and_kept_apart() {
    on_both(|app| async move {
        let demo = app.demo().await;
        let (status, refused) = app.post(&demo, "/api/user/buy", &[("number", "10")]).await;
        assert_eq!((status, refused["msg"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("请填写品种名称")));
        let (status, refused) = app.post(&demo, "/api/user/buy", &[("name", "银杏叶片"), ("number", "0")]).await;
        assert_eq!((status, refused["msg"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("求购数量须在1到1000000之间")));
        let form = [("name", "银杏叶片"), ("sccj", "扬子江药业"), ("ypgg", "19.2mg*24片"), ("number", "50"), ("remark", "近效期勿发")];
        let (status, added) = app.post(&demo, "/api/user/buy", &form).await;
        assert_eq!(status, StatusCode::OK, "{added}");
        let id = added["data"]["id"].as_i64().unwrap();
        assert_eq!(added["data"]["status_name"], "待处理");
        let (_, list) = app.get(&demo, "/api/user/buy").await;
        assert_eq!((list["data"]["total"].as_i64(), list["data"]["list"][0]["name"].as_str()), (Some(1), Some("银杏叶片")));

        let other = app.other_member().await;
        assert_eq!(app.get(&other, &format!("/api/user/buy/{id}")).await.0, StatusCode::NOT_FOUND);
        let (_, theirs) = app.get(&other, "/api/user/buy").await;
        assert_eq!(theirs["data"]["total"].as_i64(), Some(0));

        admin(&app, &["reply-wanted", &id.to_string(), "--status", "1", "--reply", "已上架，可在搜索中采购"]).await.unwrap();
        assert!(admin(&app, &["reply-wanted", &id.to_string(), "--status", "2", "--reply", "x"]).await.is_err(), "answered once");
        let (_, one) = app.get(&demo, &format!("/api/user/buy/{id}")).await;
        assert_eq!((one["data"]["status_name"].as_str(), one["data"]["reply"].as_str()), (Some("已上架"), Some("已上架，可在搜索中采购")));
        let told: i64 =
            sqlx::query_scalar("SELECT COUNT(*) FROM messages WHERE title = '求购品种已上架'").fetch_one(&app.db.pool).await.unwrap();
        assert_eq!(told, 1);
    })
    .await;
}

async fn send_feedback(
    app: &App,
    client: &reqwest::Client,
    fields: &[(&str, &str)],
    photos: &[(&str, &[u8])],
) -> (StatusCode, serde_json::Value) {
    let (content_type, body) = multipart(fields, photos);
    let response = client.post(app.url("/api/user/feedback")).header("content-type", content_type).body(body).send().await.unwrap();
    (response.status(), response.json().await.unwrap())
}

#[tokio::test]
async fn feedback_is_sent_with_photos_replied_to_once_and_kept_apart() {
    on_both(|app| async move {
        let demo = app.demo().await;
        let (status, refused) = send_feedback(&app, &demo, &[("kind", "1")], &[]).await;
        assert_eq!((status, refused["msg"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("请填写反馈内容")));
        let (status, refused) = send_feedback(&app, &demo, &[("kind", "9"), ("body", "x")], &[]).await;
        assert_eq!((status, refused["msg"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("反馈类型不正确")));
        let (status, refused) = send_feedback(&app, &demo, &[("kind", "1"), ("body", "x")], &[("a.png", b"not an image")]).await;
        assert_eq!((status, refused["msg"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("只能上传JPG或PNG文件")));
        let (status, sent) = send_feedback(&app, &demo, &[("kind", "2"), ("body", "希望增加更多中药饮片规格")], &[("shot.png", PNG)]).await;
        assert_eq!(status, StatusCode::OK, "{sent}");
        let id = sent["data"]["id"].as_i64().unwrap();
        assert_eq!((sent["data"]["kind_name"].as_str(), sent["data"]["status_name"].as_str()), (Some("商品问题"), Some("待回复")));
        let photo = sent["data"]["photos"][0].as_str().unwrap().to_owned();
        assert_eq!(demo.get(app.url(&photo)).send().await.unwrap().status(), StatusCode::OK);

        let other = app.other_member().await;
        assert_eq!(other.get(app.url(&photo)).send().await.unwrap().status(), StatusCode::NOT_FOUND);
        let (_, theirs) = app.get(&other, "/api/user/feedback").await;
        assert_eq!(theirs["data"]["total"].as_i64(), Some(0));

        admin(&app, &["reply-feedback", &id.to_string(), "--reply", "已安排采购部门补充规格"]).await.unwrap();
        assert!(admin(&app, &["reply-feedback", &id.to_string(), "--reply", "again"]).await.is_err(), "replied once");
        let (_, mine) = app.get(&demo, "/api/user/feedback").await;
        let first = &mine["data"]["list"][0];
        assert_eq!((first["status_name"].as_str(), first["reply"].as_str()), (Some("已回复"), Some("已安排采购部门补充规格")));
    })
    .await;
}

#[tokio::test]
async fn feedback_without_photos_may_be_form_encoded() {
    on_both(|app| async move {
        let demo = app.demo().await;
        // A form-encoded body, as every other call sends its fields (§7): no photos.
        let (status, sent) = app.post(&demo, "/api/user/feedback", &[("kind", "1"), ("body", " 希望支持座机号码 ")]).await;
        assert_eq!(status, StatusCode::OK, "{sent}");
        assert_eq!(sent["msg"], "感谢您的反馈，我们会尽快处理");
        assert_eq!((sent["data"]["kind_name"].as_str(), sent["data"]["body"].as_str()), (Some("功能建议"), Some("希望支持座机号码")));
        assert_eq!(sent["data"]["photos"], serde_json::json!([]));
        // The same refusals as a multipart one.
        let (status, refused) = app.post(&demo, "/api/user/feedback", &[("kind", "1"), ("body", " ")]).await;
        assert_eq!((status, refused["msg"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("请填写反馈内容")));
        let (status, refused) = app.post(&demo, "/api/user/feedback", &[("kind", "x"), ("body", "内容")]).await;
        assert_eq!((status, refused["msg"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("请选择反馈类型")));
        let long = "字".repeat(1001);
        let (status, refused) = app.post(&demo, "/api/user/feedback", &[("kind", "4"), ("body", &long)]).await;
        assert_eq!((status, refused["msg"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("反馈内容不能超过1000字")));
        // A body with no Content-Type at all is read as a form too.
        let response = demo.post(app.url("/api/user/feedback")).body("kind=3&body=%E9%85%8D%E9%80%81%E6%85%A2").send().await.unwrap();
        assert_eq!(response.status(), StatusCode::OK);
        let (_, mine) = app.get(&demo, "/api/user/feedback").await;
        assert_eq!(mine["data"]["total"], 2);
        assert_eq!(mine["data"]["list"][0]["body"], "配送慢");
    })
    .await;
}
