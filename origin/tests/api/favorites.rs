//! Favourites, and the helpers around goods: pictures, promotions, the next-tier hint, quick
//! add, copying cart lines to the other store accounts of the same company (by its id, never
//! its name).

use crate::common::{App, add_to_cart, every_class, ladder_goods, on_both};
use reqwest::{Client, StatusCode};
use serde_json::Value;

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
    })
    .await;
}

/// A multi-store account registered through the API (`dd=1`), with `company_code` when given;
/// answers its logged-in client, or the refusal.
async fn register_store(app: &App, phone: &str, username: &str, company: &str, code: Option<&str>) -> (Client, StatusCode, Value) {
    let client = app.client();
    let (status, body) = app.post(&client, "/api/user/create_code", &[("phone", phone), ("scene", "register")]).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let sms: String = sqlx::query_scalar("SELECT code FROM sms_codes WHERE phone = $1 ORDER BY id DESC LIMIT 1")
        .bind(phone)
        .fetch_one(&app.db.pool)
        .await
        .unwrap();
    let mut form = vec![
        ("step", "2"),
        ("dd", "1"),
        ("phone", phone),
        ("code", sms.as_str()),
        ("username", username),
        ("password", "store888"),
        ("password_confirmation", "store888"),
        ("company", company),
        ("name", "店长"),
        ("stores[]", "一号店"),
    ];
    if let Some(code) = code {
        form.push(("company_code", code));
    }
    let (status, body) = app.post(&client, "/api/user/register", &form).await;
    (client, status, body)
}

async fn approve(app: &App, username: &str, passed: i64) {
    sqlx::query("UPDATE members SET is_passed = $1 WHERE username = $2").bind(passed).bind(username).execute(&app.db.pool).await.unwrap();
    let member = member_id(app, username).await;
    every_class(app, member).await;
}

async fn member_id(app: &App, username: &str) -> i64 {
    sqlx::query_scalar("SELECT id FROM members WHERE username = $1").bind(username).fetch_one(&app.db.pool).await.unwrap()
}

/// The client's cart lines as (goods id, type, number).
async fn cart_lines(app: &App, client: &Client) -> Vec<(i64, i64, i64)> {
    let (_, list) = app.get(client, "/api/cart/list").await;
    list["data"]["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|line| (line["goods"]["id"].as_i64().unwrap(), line["type"].as_i64().unwrap(), line["number"].as_i64().unwrap()))
        .collect()
}

#[tokio::test]
async fn cart_lines_are_copied_to_the_stores_of_the_same_company_only() {
    on_both(|app| async move {
        let demo = app.demo().await;
        // The demo member's company, made when first asked for, with its code.
        let (status, company) = app.get(&demo, "/api/user/company").await;
        assert_eq!(status, StatusCode::OK, "{company}");
        let code = company["data"]["code"].as_str().unwrap().to_owned();
        assert_eq!(code.len(), 10);
        assert_eq!(company["data"]["accounts"].as_array().unwrap().len(), 1);
        assert_eq!(company["data"]["accounts"][0]["is_self"], 1);
        let (_, again) = app.get(&demo, "/api/user/company").await;
        assert_eq!(again["data"]["code"], code.as_str(), "asked again, the same company");
        let demo_company: String =
            sqlx::query_scalar("SELECT company FROM members WHERE username = 'demo'").fetch_one(&app.db.pool).await.unwrap();

        // A store of the chain joins by the code (typed in small letters, with a dash); an
        // unknown code is refused; a pharmacy that typed the same company name without the code
        // is a company of its own.
        let (_, status, unknown) = register_store(&app, "13600000011", "wrongcode", "别的连锁", Some("NOSUCHCODE")).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{unknown}");
        assert_eq!(unknown["msg"], "企业编码不存在");
        let typed = format!("{}-{}", &code[..5].to_lowercase(), &code[5..]);
        let (store, status, body) = register_store(&app, "13600000012", "xihu01", "仁心西湖店", Some(&typed)).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        let (namesake, status, body) = register_store(&app, "13600000013", "namesake", &demo_company, None).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        let (_, theirs) = app.get(&namesake, "/api/user/company").await;
        assert_ne!(theirs["data"]["code"], code.as_str(), "the same name is not the same company");
        let (store_id, namesake_id) = (member_id(&app, "xihu01").await, member_id(&app, "namesake").await);
        let (_, company) = app.get(&demo, "/api/user/company").await;
        let accounts: Vec<i64> = company["data"]["accounts"].as_array().unwrap().iter().map(|a| a["id"].as_i64().unwrap()).collect();
        assert_eq!(accounts, vec![member_id(&app, "demo").await, store_id]);
        assert_eq!(company["data"]["accounts"][1]["is_passed"], 0);

        let goods: (i64, i64) =
            sqlx::query_as("SELECT id, stock FROM goods WHERE is_buy = 1 AND stock > 20 AND id NOT IN (SELECT goods_id FROM flash_sales) ORDER BY id LIMIT 1")
                .fetch_one(&app.db.pool)
                .await
                .unwrap();
        let line = add_to_cart(&app, &demo, goods.0, 3, &[]).await.to_string();
        let copy = |targets: String| {
            let (app, demo, line) = (app.clone(), demo.clone(), line.clone());
            async move { app.post(&demo, "/api/cart/copy", &[("ids", &line), ("other_user_ids", &targets)]).await }
        };
        // Only approved store accounts receive copies.
        let (status, refused) = copy(store_id.to_string()).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{refused}");
        assert_eq!(refused["msg"], "门店账号xihu01的资质尚未通过审核，暂不能复制");
        approve(&app, "xihu01", 1).await;
        approve(&app, "namesake", 1).await;
        let (status, copied) = copy(store_id.to_string()).await;
        assert_eq!(status, StatusCode::OK, "{copied}");
        assert_eq!(copied["data"]["copied"], 1);
        assert_eq!(copied["data"]["skipped"], serde_json::json!([]));
        assert_eq!(cart_lines(&app, &store).await, vec![(goods.0, 0, 3)]);
        // The namesake (same company name, another company) and a stranger are refused, and
        // nothing of the request is copied.
        let (status, refused) = copy(namesake_id.to_string()).await;
        assert_eq!(status, StatusCode::FORBIDDEN);
        assert_eq!(refused["msg"], "只能复制到本企业的其他门店账号");
        let (status, _) = copy(format!("{store_id},{namesake_id}")).await;
        assert_eq!(status, StatusCode::FORBIDDEN);
        assert!(cart_lines(&app, &namesake).await.is_empty());
        assert_eq!(cart_lines(&app, &store).await, vec![(goods.0, 0, 3)]);
        let (status, own) = copy(member_id(&app, "demo").await.to_string()).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(own["msg"], "请选择本账号以外的门店账号");
        // The namesake cannot copy into the chain's stores either.
        let theirs = add_to_cart(&app, &namesake, goods.0, 1, &[]).await.to_string();
        let (status, _) = app.post(&namesake, "/api/cart/copy", &[("ids", &theirs), ("other_user_ids", &store_id.to_string())]).await;
        assert_eq!(status, StatusCode::FORBIDDEN);

        // A copy an add would refuse is skipped with its reason: the store's line already holds
        // 3 and the stock is now 5.
        sqlx::query("UPDATE goods SET stock = 5 WHERE id = $1").bind(goods.0).execute(&app.db.pool).await.unwrap();
        let (status, copied) = copy(store_id.to_string()).await;
        assert_eq!(status, StatusCode::OK, "{copied}");
        assert_eq!(copied["data"]["copied"], 0);
        assert_eq!(copied["data"]["skipped"][0]["username"], "xihu01");
        assert_eq!(copied["data"]["skipped"][0]["id"], line.parse::<i64>().unwrap());
        let unit: String = sqlx::query_scalar("SELECT bzdw FROM goods WHERE id = $1").bind(goods.0).fetch_one(&app.db.pool).await.unwrap();
        assert_eq!(copied["data"]["skipped"][0]["reason"], format!("库存不足，最多可购买5{unit}"));
        sqlx::query("UPDATE goods SET stock = $1 WHERE id = $2").bind(goods.1).bind(goods.0).execute(&app.db.pool).await.unwrap();

        // Lines × stores is capped; a line that is not the member's is not copied, nor is
        // anything else of the request; a member not approved copies nothing.
        let many = (0..300).map(|n| (line.parse::<i64>().unwrap() + n).to_string()).collect::<Vec<_>>().join(",");
        let (status, refused) =
            app.post(&demo, "/api/cart/copy", &[("ids", &many), ("other_user_ids", &format!("{store_id},{namesake_id}"))]).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{refused}");
        assert_eq!(refused["msg"], "一次最多复制500行（商品行数×门店数）");
        let (status, _) =
            app.post(&demo, "/api/cart/copy", &[("ids", &format!("{line},999999")), ("other_user_ids", &store_id.to_string())]).await;
        assert_eq!(status, StatusCode::NOT_FOUND);
        assert_eq!(cart_lines(&app, &store).await, vec![(goods.0, 0, 3)]);
        approve(&app, "demo", 0).await;
        let (status, refused) = copy(store_id.to_string()).await;
        assert_eq!(status, StatusCode::FORBIDDEN);
        assert_eq!(refused["msg"], "资质审核通过后方可复制到其他门店");
        approve(&app, "demo", 1).await;
        let (status, _) = app.get(&app.client(), "/api/user/company").await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);
    })
    .await;
}

#[tokio::test]
async fn quick_add_adds_the_middle_pack_each_time() {
    on_both(|app| async move {
        let demo = app.demo().await;
        let (goods, unit): (i64, String) = sqlx::query_as(
            "SELECT id, bzdw FROM goods WHERE is_buy = 1 AND stock > 100 AND id NOT IN (SELECT goods_id FROM flash_sales) ORDER BY id LIMIT 1",
        )
        .fetch_one(&app.db.pool)
        .await
        .unwrap();
        sqlx::query("UPDATE goods SET zbz = 10 WHERE id = $1").bind(goods).execute(&app.db.pool).await.unwrap();
        let (status, first) = app.post(&demo, &format!("/api/cart/quick_add/{goods}"), &[]).await;
        assert_eq!(status, StatusCode::OK, "{first}");
        assert_eq!((first["data"]["added"].as_i64(), first["data"]["number"].as_i64()), (Some(10), Some(10)));
        assert_eq!(first["data"]["unit"], unit.as_str());
        let (_, second) = app.post(&demo, &format!("/api/cart/quick_add/{goods}"), &[]).await;
        assert_eq!(second["data"]["number"], 20);
        assert_eq!(second["data"]["id"], first["data"]["id"], "the same line");
        assert_eq!(cart_lines(&app, &demo).await, vec![(goods, 0, 20)]);
        assert_eq!(second["data"]["cart"], 1);

        // While a flash sale runs, a flash-sale line, no more than its limit.
        let (on_sale, limit): (i64, i64) =
            sqlx::query_as("SELECT goods_id, limit_number FROM flash_sales WHERE starts_at <= $1 AND ends_at > $1 ORDER BY id LIMIT 1")
                .bind(origin::now())
                .fetch_one(&app.db.pool)
                .await
                .unwrap();
        sqlx::query("UPDATE goods SET zbz = $1 WHERE id = $2").bind(limit + 5).bind(on_sale).execute(&app.db.pool).await.unwrap();
        let (status, sale) = app.post(&demo, &format!("/api/cart/quick_add/{on_sale}"), &[]).await;
        assert_eq!(status, StatusCode::OK, "{sale}");
        assert_eq!((sale["data"]["type"].as_i64(), sale["data"]["added"].as_i64()), (Some(1), Some(limit)));
        let (status, over) = app.post(&demo, &format!("/api/cart/quick_add/{on_sale}"), &[]).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{over}");

        let (status, missing) = app.post(&demo, "/api/cart/quick_add/999999", &[]).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(missing["msg"], "商品不存在");
        sqlx::query("UPDATE goods SET is_buy = 0 WHERE id = $1").bind(goods).execute(&app.db.pool).await.unwrap();
        let (status, refused) = app.post(&demo, &format!("/api/cart/quick_add/{goods}"), &[]).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(refused["msg"], "该商品暂不可购买");
        let (status, _) = app.post(&app.client(), &format!("/api/cart/quick_add/{goods}"), &[]).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);
    })
    .await;
}
