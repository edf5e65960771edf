//! The origin's API over HTTP: browsing, accounts and the cart, on SQLite and PostgreSQL.

mod common;

use common::{ladder_goods, on_both, urlencode};
use reqwest::StatusCode;
use serde_json::{Value, json};

#[tokio::test]
async fn visitors_browse_the_catalogue() {
    on_both(|app| async move {
        let client = app.client();
        let (status, base) = app.get(&client, "/api/user/base").await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(base["code"], 10000);
        assert_eq!(base["data"]["show"], true);
        assert_eq!(base["data"]["login"], false, "{}", app.database);

        let (_, home) = app.get(&client, "/api/index").await;
        let home = &home["data"];
        assert!(home["nav"].as_array().unwrap().len() <= 9);
        assert!(!home["category"].as_array().unwrap().is_empty());
        assert!(home["timestamp"].as_i64().unwrap() > 1_700_000_000);
        assert!(home["category_zy"].as_array().unwrap().iter().all(|c| c["children"].is_array()));

        let (_, page) = app.get(&client, "/api/goods/list?page_size=1&page=2").await;
        let total = page["data"]["total"].as_i64().unwrap();
        assert!(total >= 2);
        assert_eq!(page["data"]["list"].as_array().unwrap().len(), 1);
        assert_eq!(page["data"]["last_page"], total);

        let (_, by_price) = app.get(&client, "/api/goods/list?sort=price&order=asc&page_size=100").await;
        let prices: Vec<f64> =
            by_price["data"]["list"].as_array().unwrap().iter().map(|goods| goods["price"].as_str().unwrap().parse().unwrap()).collect();
        assert!(prices.windows(2).all(|pair| pair[0] <= pair[1]), "{prices:?}");

        let (_, herbs) = app.get(&client, "/api/goods/list?shop=zy&page_size=100").await;
        assert!(herbs["data"]["list"].as_array().unwrap().iter().all(|goods| goods["type"] == 2));

        let first = &page["data"]["list"][0];
        let name = first["name"].as_str().unwrap();
        let keyword: String = name.chars().take(2).collect();
        let (_, found) = app.get(&client, &format!("/api/goods/list?keyword={}&page_size=100", urlencode(&keyword))).await;
        let found = found["data"]["list"].as_array().unwrap();
        assert!(found.iter().any(|goods| goods["id"] == first["id"]), "the goods the keyword came from is found");
        let (_, none) = app.get(&client, "/api/goods/list?keyword=%E6%B2%A1%E6%9C%89%E8%BF%99%E7%A7%8D%E8%8D%AF").await;
        assert_eq!(none["data"]["total"], 0);

        let (_, suggestions) = app.get(&client, &format!("/api/goods/search?keywords=%20{}%20&type=0", urlencode(&keyword))).await;
        let suggestions = suggestions["data"].as_array().unwrap();
        assert!(!suggestions.is_empty() && suggestions.iter().all(|s| s.as_str().unwrap().contains(&keyword)));
        let (_, empty) = app.get(&client, "/api/goods/search?keywords=%20&type=0").await;
        assert_eq!(empty["data"], json!([]));
        let maker = first["sccj"].as_str().unwrap();
        let (_, makers) =
            app.get(&client, &format!("/api/goods/search?keywords={}&type=1", urlencode(&maker.chars().take(2).collect::<String>()))).await;
        assert!(makers["data"].as_array().unwrap().iter().any(|s| s == maker));

        let id = first["id"].as_i64().unwrap();
        let (status, detail) = app.get(&client, &format!("/api/goods/detail/{id}?goods_price_id=7")).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(detail["data"]["id"], id);
        assert_eq!(detail["data"]["query"]["goods_price_id"], 7);
        assert!(!detail["data"]["category_path"].as_array().unwrap().is_empty());
        let (status, missing) = app.get(&client, "/api/goods/detail/999999").await;
        assert_eq!(status, StatusCode::NOT_FOUND);
        assert_eq!(missing["code"], 404);
        assert_eq!(missing["msg"], "商品不存在");

        let (status, bad) = app.get(&client, "/api/goods/list?sort=sideways").await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(bad["code"], 422);
        assert_eq!(bad["msg"], "排序方式不正确");
        assert_eq!(bad["data"]["errors"]["sort"][0], "排序方式不正确");

        let (status, unknown) = app.get(&client, "/api/nothing/here").await;
        assert_eq!(status, StatusCode::NOT_FOUND);
        assert_eq!(unknown["code"], 404);
    })
    .await;
}

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
async fn the_cart_is_quoted_by_the_engine_and_kept_to_its_member() {
    on_both(|app| async move {
        let demo = app.demo().await;
        let (goods, stock) = ladder_goods(&app).await;
        let goods_text = goods.to_string();
        let (status, added) = app.post(&demo, "/api/cart", &[("goods_id", &goods_text), ("number", "5")]).await;
        assert_eq!(status, StatusCode::OK, "{added}");
        let line = added["data"]["id"].as_i64().unwrap();
        let (_, added) = app.post(&demo, "/api/cart", &[("goods_id", &goods_text), ("number", "7")]).await;
        assert_eq!(added["data"]["number"], 12, "adding again merges the line");
        assert_eq!(added["data"]["id"], line);

        let (_, list) = app.get(&demo, "/api/cart/list").await;
        let data = &list["data"];
        let item = &data["data"][0];
        assert_eq!(item["number"], 12);
        assert_eq!(item["goods"]["id"], goods);
        // The lines, shipping and activity data are engine input as they are, and `quote` is
        // the engine's answer for exactly them.
        let input = json!({ "items": data["data"], "shipping_data": data["shipping_data"], "activity_data": data["activity_data"] });
        let quote = engine::quote(&engine::cart_from_value(&input).unwrap()).unwrap();
        assert_eq!(serde_json::to_value(&quote).unwrap(), data["quote"]);
        // `cart/input` is the same cart as the engine's input and nothing else.
        let (status, lean) = app.get(&demo, "/api/cart/input").await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(engine::cart_from_value(&lean["data"]).unwrap(), engine::cart_from_value(&input).unwrap());
        assert!(lean["data"]["items"][0]["goods"].get("name").is_none(), "no display fields");
        let (status, _) = app.get(&app.client(), "/api/cart/input").await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);
        let ladder = item["goods"]["ladder_price"].as_array().unwrap();
        let reached = ladder.iter().filter(|step| step["number"].as_i64().unwrap() <= 12).last();
        let expected_unit = reached.map_or(item["price"].clone(), |step| step["price"].clone());
        assert_eq!(data["quote"]["lines"][0]["unit_price"], expected_unit);

        let (_, total) = app.get(&demo, "/api/cart/total").await;
        assert_eq!(total["data"]["total"], 1);

        let too_many = (stock + 1).to_string();
        let (status, refused) = app.post(&demo, &format!("/api/cart/{line}/edit"), &[("number", &too_many)]).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(refused["msg"], format!("库存不足，最多可购买{stock}件"));
        let (status, _) = app.post(&demo, &format!("/api/cart/{line}/edit"), &[("number", "0")]).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        let (status, _) = app.post(&demo, &format!("/api/cart/{line}/edit"), &[("number", "3")]).await;
        assert_eq!(status, StatusCode::OK);

        let other = app.other_member().await;
        let (status, _) = app.post(&other, &format!("/api/cart/{line}/edit"), &[("number", "1")]).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "another member's line is not there for them");
        let (_, theirs) = app.get(&other, "/api/cart/list").await;
        assert_eq!(theirs["data"]["data"], json!([]));
        let (_, deleted) = app.post(&other, "/api/cart/batch_delete", &[("ids", &line.to_string())]).await;
        assert_eq!(deleted["data"]["deleted"], 0);

        let (_, _) = app.post(&demo, "/api/cart/batch_select", &[("ids[]", &line.to_string()), ("is_selected", "0")]).await;
        let (_, list) = app.get(&demo, "/api/cart/list").await;
        assert_eq!(list["data"]["data"][0]["is_selected"], 0);
        assert_eq!(list["data"]["quote"]["totals"]["total"], "0.00");
        let (status, bad) = app.post(&demo, "/api/cart/batch_select", &[("ids", &line.to_string()), ("is_selected", "2")]).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(bad["msg"], "选择状态必须是0或1");

        let (_, deleted) = app.post(&demo, "/api/cart/batch_delete", &[("ids", &format!("{line},999999"))]).await;
        assert_eq!(deleted["data"]["deleted"], 1);
        assert_eq!(deleted["data"]["cart"], 0);
    })
    .await;
}

#[tokio::test]
async fn goods_that_cannot_be_bought_are_refused_and_stored_unselected() {
    on_both(|app| async move {
        let demo = app.demo().await;
        let (goods, _) = ladder_goods(&app).await;
        let (status, _) = app.post(&demo, "/api/cart", &[("goods_id", &goods.to_string()), ("number", "2")]).await;
        assert_eq!(status, StatusCode::OK);
        // The goods goes out of sale after it was added.
        sqlx::query("UPDATE goods SET is_buy = 0 WHERE id = $1").bind(goods).execute(&app.db.pool).await.unwrap();
        let (_, list) = app.get(&demo, "/api/cart/list").await;
        assert_eq!(list["data"]["data"][0]["is_selected"], 0);
        assert_eq!(list["data"]["quote"]["lines"][0]["buyable"], false);
        let stored: i64 =
            sqlx::query_scalar("SELECT is_selected FROM cart_items WHERE goods_id = $1").bind(goods).fetch_one(&app.db.pool).await.unwrap();
        assert_eq!(stored, 0);
        let (status, refused) = app.post(&demo, "/api/cart", &[("goods_id", &goods.to_string()), ("number", "1")]).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(refused["msg"], "该商品暂不可购买");
        let (status, refused) = app.post(&demo, "/api/cart", &[("goods_id", "999999"), ("number", "1")]).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(refused["msg"], "商品不存在");
    })
    .await;
}

#[tokio::test]
async fn favourites_pictures_promotions_and_cart_helpers() {
    on_both(|app| async move {
        let demo = app.demo().await;
        let (goods, _) = ladder_goods(&app).await;
        let id = goods.to_string();
        let (status, added) = app.post(&demo, "/api/favorite", &[("goods_ids", &id)]).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(added["msg"], "收藏成功");
        let (_, again) = app.post(&demo, "/api/favorite", &[("goods_ids", &id)]).await;
        assert_eq!(again["code"], 10000, "adding twice is harmless");
        let (_, list) = app.get(&demo, "/api/favorite?page=1").await;
        assert_eq!(list["data"]["total"], 1);
        assert_eq!(list["data"]["list"][0]["id"], goods);
        let (_, detail) = app.get(&demo, &format!("/api/goods/detail/{goods}")).await;
        assert_eq!(detail["data"]["is_favorite"], 1);
        let (status, missing) = app.post(&demo, "/api/favorite", &[("goods_ids", "999999")]).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(missing["msg"], "商品不存在");
        let other = app.other_member().await;
        let (_, theirs) = app.get(&other, "/api/favorite").await;
        assert_eq!(theirs["data"]["total"], 0);
        let (_, cancelled) = app.post(&demo, "/api/favorite/cancel", &[("goods_ids", &id)]).await;
        assert_eq!(cancelled["msg"], "取消收藏成功");
        let (_, list) = app.get(&demo, "/api/favorite").await;
        assert_eq!(list["data"]["total"], 0);

        let picture = demo.get(app.url(&format!("/api/images/goods/{goods}.svg"))).send().await.unwrap();
        assert_eq!(picture.headers()["content-type"], "image/svg+xml");
        let name: String = sqlx::query_scalar("SELECT name FROM goods WHERE id = $1").bind(goods).fetch_one(&app.db.pool).await.unwrap();
        let svg = picture.text().await.unwrap();
        assert!(svg.starts_with("<svg") && svg.contains(&name.chars().take(4).collect::<String>()), "{svg}");
        let (_, banners) = app.get(&demo, "/api/focus").await;
        let banner = banners["data"][0]["image"].as_str().unwrap().to_owned();
        let banner = demo.get(app.url(&banner)).send().await.unwrap();
        assert_eq!(banner.status(), StatusCode::OK);

        let (_, activities) = app.get(&demo, &format!("/api/goods/activities?goods_id={goods}")).await;
        assert!(activities["data"]["combinations"].is_array());
        let on_sale: i64 =
            sqlx::query_scalar("SELECT goods_id FROM flash_sales ORDER BY id LIMIT 1").fetch_one(&app.db.pool).await.unwrap();
        let (_, sale) = app.get(&demo, &format!("/api/goods/activities?goods_id={on_sale}")).await;
        assert!(sale["data"]["flash_sale"]["price"].is_string());
        let (_, spike) = app.get(&demo, "/api/index/spike").await;
        assert!(spike["data"]["list"].as_array().unwrap().iter().any(|goods| goods["id"] == on_sale));

        // The next full-reduction tier and free shipping, from the engine's quote.
        let in_activity: i64 =
            sqlx::query_scalar("SELECT id FROM goods WHERE manjian_id > 0 AND is_buy = 1 AND stock > 5 ORDER BY id LIMIT 1")
                .fetch_one(&app.db.pool)
                .await
                .unwrap();
        let (status, _) = app.post(&demo, "/api/cart", &[("goods_id", &in_activity.to_string()), ("number", "1")]).await;
        assert_eq!(status, StatusCode::OK);
        let (_, hint) = app.post(&demo, "/api/cart/next_hint", &[]).await;
        let (_, list) = app.get(&demo, "/api/cart/list").await;
        let first_unreached = list["data"]["quote"]["manjian_tiers"].as_array().unwrap().iter().find(|tier| tier["status"] == 0).cloned();
        assert_eq!(hint["data"]["manjian"]["need"], first_unreached.unwrap()["need"]);
        assert_eq!(hint["data"]["shipping"]["need"], list["data"]["quote"]["shipping"]["need"]);

        // Copying a line into a store account of the same company; never into another's.
        let line = list["data"]["data"][0]["id"].as_i64().unwrap().to_string();
        let store: i64 = sqlx::query_scalar(
            "INSERT INTO members (username, phone, password_hash, company, name, is_passed, created_at) \
             SELECT 'store2', '13600000002', password_hash, company, '店长', 1, 0 FROM members WHERE username = 'demo' RETURNING id",
        )
        .fetch_one(&app.db.pool)
        .await
        .unwrap();
        let (status, copied) = app.post(&demo, "/api/cart/copy", &[("ids", &line), ("other_user_ids", &store.to_string())]).await;
        assert_eq!(status, StatusCode::OK, "{copied}");
        let in_store: i64 =
            sqlx::query_scalar("SELECT COUNT(*) FROM cart_items WHERE member_id = $1").bind(store).fetch_one(&app.db.pool).await.unwrap();
        assert_eq!(in_store, 1);
        let stranger: i64 = sqlx::query_scalar("SELECT id FROM members WHERE username = 'other'").fetch_one(&app.db.pool).await.unwrap();
        let (status, refused) = app.post(&demo, "/api/cart/copy", &[("ids", &line), ("other_user_ids", &stranger.to_string())]).await;
        assert_eq!(status, StatusCode::FORBIDDEN);
        assert_eq!(refused["msg"], "只能复制到本企业的其他门店账号");
    })
    .await;
}

#[tokio::test]
async fn the_openapi_document_lists_every_route() {
    on_both(|app| async move {
        let client = app.client();
        let (status, document) = app.get(&client, "/api/openapi.json").await;
        assert_eq!(status, StatusCode::OK);
        let paths = document["paths"].as_object().unwrap();
        for path in [
            "/api/cart/list",
            "/api/order",
            "/api/order/{id}/pay",
            "/api/goods/list",
            "/api/user/register",
            "/api/favorite/cancel",
            "/api/focus/right",
        ] {
            assert!(paths.contains_key(path), "{path} is documented");
        }
        let operations: usize = paths.values().map(|item| item.as_object().unwrap().len()).sum();
        assert!(operations >= 40, "{operations} operations");
        // Every documented operation is served (none falls through to "接口不存在").
        for (path, item) in paths {
            let concrete = path
                .replace("{id}", "1")
                .replace("{value}", "13800000000")
                .replace("{page}", "1")
                .replace("{file}", "1.svg")
                .replace("{position}", "focus");
            for method in item.as_object().unwrap().keys() {
                let request = match method.as_str() {
                    "get" => client.get(app.url(&concrete)),
                    "post" => client.post(app.url(&concrete)).form(&[("x", "1")]),
                    "delete" => client.delete(app.url(&concrete)),
                    other => panic!("unexpected method {other}"),
                };
                let body: Value = request.send().await.unwrap().json().await.unwrap_or(Value::Null);
                assert_ne!(body["msg"], "接口不存在", "{method} {path}");
            }
        }
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

#[tokio::test]
async fn flash_sales_keep_their_limit_and_end() {
    on_both(|app| async move {
        let demo = app.demo().await;
        let (goods, limit): (i64, i64) =
            sqlx::query_as("SELECT goods_id, limit_number FROM flash_sales ORDER BY id LIMIT 1").fetch_one(&app.db.pool).await.unwrap();
        let (status, added) = app.post(&demo, "/api/cart", &[("goods_id", &goods.to_string()), ("number", "1"), ("type", "1")]).await;
        assert_eq!(status, StatusCode::OK, "{added}");
        let line = added["data"]["id"].as_i64().unwrap();
        let (status, refused) = app.post(&demo, &format!("/api/cart/{line}/edit"), &[("number", &(limit + 1).to_string())]).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(refused["msg"], format!("秒杀商品每人限购{limit}件"));
        let (_, list) = app.get(&demo, "/api/cart/list").await;
        let sale_price: i64 =
            sqlx::query_scalar("SELECT price FROM flash_sales WHERE goods_id = $1").bind(goods).fetch_one(&app.db.pool).await.unwrap();
        assert_eq!(list["data"]["data"][0]["price"], origin::money::text(sale_price));
        // The sale ends: the line can no longer be bought at its price.
        sqlx::query("UPDATE flash_sales SET ends_at = 0 WHERE goods_id = $1").bind(goods).execute(&app.db.pool).await.unwrap();
        let (_, list) = app.get(&demo, "/api/cart/list").await;
        assert_eq!(list["data"]["quote"]["lines"][0]["buyable"], false);
        assert_eq!(list["data"]["data"][0]["is_selected"], 0);
    })
    .await;
}

#[tokio::test]
async fn the_cart_list_reads_combinations_tiers_ladders_and_sales_as_stored() {
    on_both(|app| async move {
        let demo = app.demo().await;
        // A combination line: the engine's goods is the combination, with its own stock.
        let (combination, goods, name, stock): (i64, i64, String, i64) = sqlx::query_as(
            "SELECT c.id, MIN(i.goods_id), c.name, c.stock FROM combinations c JOIN combination_items i ON i.combination_id = c.id \
             JOIN goods g ON g.id = i.goods_id WHERE c.stock > 0 GROUP BY c.id, c.name, c.stock HAVING MIN(g.is_buy) = 1 ORDER BY c.id LIMIT 1",
        )
        .fetch_one(&app.db.pool)
        .await
        .unwrap();
        let form = [("goods_id", goods.to_string()), ("type", "3".into()), ("combination_id", combination.to_string())];
        let form: Vec<(&str, &str)> = form.iter().map(|(key, value)| (*key, value.as_str())).collect();
        let (status, added) = app.post(&demo, "/api/cart", &form).await;
        assert_eq!(status, StatusCode::OK, "{added}");
        // Goods in a full-reduction activity, on two lines' worth of activity.
        let (manjian_goods, activity): (i64, i64) = sqlx::query_as(
            "SELECT g.id, g.manjian_id FROM goods g WHERE g.manjian_id > 0 AND g.is_buy = 1 AND g.stock > 10 ORDER BY g.id LIMIT 1",
        )
        .fetch_one(&app.db.pool)
        .await
        .unwrap();
        let (status, added) = app.post(&demo, "/api/cart", &[("goods_id", &manjian_goods.to_string()), ("number", "2")]).await;
        assert_eq!(status, StatusCode::OK, "{added}");

        let (_, list) = app.get(&demo, "/api/cart/list").await;
        let lines = list["data"]["data"].as_array().unwrap();
        let combined = lines.iter().find(|line| line["type"] == 3).expect("the combination line");
        assert_eq!(combined["combination"]["id"], combination);
        assert_eq!(combined["combination"]["name"], name);
        assert_eq!(combined["combination"]["number"], stock);
        assert_eq!(combined["combination"]["is_buy"], 1);
        let tiers: Vec<(i64, i64)> = sqlx::query_as("SELECT amount, reduce FROM manjian_tiers WHERE activity_id = $1 ORDER BY sort, id")
            .bind(activity)
            .fetch_all(&app.db.pool)
            .await
            .unwrap();
        assert!(!tiers.is_empty());
        let listed: Vec<(String, String)> = list["data"]["activity_data"]["manjians"]
            .as_array()
            .unwrap()
            .iter()
            .map(|tier| (tier["amount"].as_str().unwrap().to_owned(), tier["reduce"].as_str().unwrap().to_owned()))
            .collect();
        let stored: Vec<(String, String)> = tiers.iter().map(|(amount, reduce)| (origin::money::text(*amount), origin::money::text(*reduce))).collect();
        assert_eq!(listed, stored, "the tiers of the selected lines' activity, in order");
        // The quote is still the engine's answer for exactly the lines as listed.
        let data = &list["data"];
        let input = json!({ "items": data["data"], "shipping_data": data["shipping_data"], "activity_data": data["activity_data"] });
        let quote = engine::quote(&engine::cart_from_value(&input).unwrap()).unwrap();
        assert_eq!(serde_json::to_value(&quote).unwrap(), data["quote"]);

        // Goods cards carry every ladder step, in order, and the running flash sale.
        let (_, page) = app.get(&demo, "/api/goods/list?page_size=100").await;
        let (mut with_ladders, mut on_sale) = (0, 0);
        for card in page["data"]["list"].as_array().unwrap() {
            let id = card["id"].as_i64().unwrap();
            let steps: Vec<(i64, i64)> = sqlx::query_as("SELECT number, price FROM goods_ladders WHERE goods_id = $1 ORDER BY number")
                .bind(id)
                .fetch_all(&app.db.pool)
                .await
                .unwrap();
            let carried: Vec<(i64, String)> = card["ladder_price"]
                .as_array()
                .unwrap()
                .iter()
                .map(|step| (step["number"].as_i64().unwrap(), step["price"].as_str().unwrap().to_owned()))
                .collect();
            let stored: Vec<(i64, String)> = steps.iter().map(|(number, price)| (*number, origin::money::text(*price))).collect();
            assert_eq!(carried, stored, "ladder of goods {id}");
            let sale: Option<i64> = sqlx::query_scalar("SELECT price FROM flash_sales WHERE goods_id = $1 AND starts_at <= $2 AND ends_at > $2")
                .bind(id)
                .bind(origin::now())
                .fetch_optional(&app.db.pool)
                .await
                .unwrap();
            assert_eq!(card["flash_sale"]["price"].as_str().map(str::to_owned), sale.map(origin::money::text), "sale of goods {id}");
            with_ladders += usize::from(!steps.is_empty());
            on_sale += usize::from(sale.is_some());
        }
        assert!(with_ladders > 0 && on_sale > 0, "the page has goods of both kinds ({with_ladders}, {on_sale})");
    })
    .await;
}
