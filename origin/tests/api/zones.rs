//! The zones' data on SQLite and PostgreSQL: the near-expiry zone lists exactly the goods whose
//! batch expires within 180 days, earliest first, with the date on each card; the herb and device
//! zones only their kind; the brand zone's brands with their goods counted; the free-shipping
//! threshold the 包邮专区 states.

use reqwest::StatusCode;

use crate::common::{add_to_cart, address_of, admin, on_both, post_order};

#[tokio::test]
async fn each_zone_lists_its_own_goods() {
    on_both(|app| async move {
        let client = app.client();
        let (today, within) = origin::http::goods::near_expiry_dates(origin::now());
        let expected: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM goods WHERE expires_on >= $1 AND expires_on <= $2")
            .bind(&today)
            .bind(&within)
            .fetch_one(&app.db.pool)
            .await
            .unwrap();
        assert!(expected >= 10, "the demo data has near-expiry goods: {expected}");
        // One long-dated batch stays out.
        sqlx::query("UPDATE goods SET expires_on = '2099-12-31' WHERE id = (SELECT MIN(id) FROM goods WHERE expires_on = '')")
            .execute(&app.db.pool)
            .await
            .unwrap();
        let (status, zone) = app.get(&client, "/api/goods/list?near_expiry=1&sort=expiry&order=asc&page_size=100").await;
        assert_eq!(status, StatusCode::OK, "{zone}");
        assert_eq!(zone["data"]["total"].as_i64(), Some(expected));
        let dates: Vec<String> =
            zone["data"]["list"].as_array().unwrap().iter().map(|card| card["expires_on"].as_str().unwrap().to_owned()).collect();
        assert!(dates.iter().all(|date| *date >= today && *date <= within), "{dates:?}");
        assert!(dates.windows(2).all(|pair| pair[0] <= pair[1]), "earliest first: {dates:?}");

        for (shop, kind) in [("zy", 2), ("qx", 3)] {
            let (_, zone) = app.get(&client, &format!("/api/goods/list?shop={shop}&page_size=100")).await;
            let list = zone["data"]["list"].as_array().unwrap();
            assert!(!list.is_empty() && list.iter().all(|card| card["type"] == kind), "{shop}");
        }

        let (status, brands) = app.get(&client, "/api/brand").await;
        assert_eq!(status, StatusCode::OK, "{brands}");
        let first = &brands["data"]["list"][0];
        let counted: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM goods WHERE brand_id = $1")
            .bind(first["id"].as_i64().unwrap())
            .fetch_one(&app.db.pool)
            .await
            .unwrap();
        assert_eq!(first["goods"].as_i64(), Some(counted));
        let total: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM brands").fetch_one(&app.db.pool).await.unwrap();
        assert_eq!(brands["data"]["total"].as_i64(), Some(total));
        assert!(brands["data"]["list"].as_array().unwrap().len() <= 12);

        let (_, home) = app.get(&client, "/api/index").await;
        assert_eq!(home["data"]["free_shipping_from"], "800.00");
        assert_eq!(app.get(&client, "/api/goods/list?sort=soon").await.0, StatusCode::UNPROCESSABLE_ENTITY);
    })
    .await;
}

/// A stored price (ten-thousandths of a yuan) at the store-wide discount's rate, by the engine.
fn discounted(stored: i64, rate: &str) -> String {
    let price = engine::Money::from_decimal(rust_decimal::Decimal::new(stored, 4)).unwrap();
    engine::rate_price(price, engine::Money::parse(rate).unwrap()).unwrap().to_string()
}

#[tokio::test]
async fn a_store_wide_discount_prices_cards_cart_and_order_alike() {
    on_both(|app| async move {
        let client = app.demo().await;
        let (_, none) = app.get(&client, "/api/activity/welfare").await;
        assert!(none["data"].is_null(), "off in the tests: {none}");
        sqlx::query("UPDATE welfare_activities SET is_on = 1").execute(&app.db.pool).await.unwrap();
        let (status, welfare) = app.get(&client, "/api/activity/welfare").await;
        assert_eq!(status, StatusCode::OK, "{welfare}");
        assert_eq!((welfare["data"]["rate"].as_str(), welfare["data"]["discount"].as_str()), (Some("0.94"), Some("9.4折")));

        // A goods with ladder steps and no flash sale: its card, steps and cart line at 94 %.
        let (goods, price): (i64, i64) = sqlx::query_as(
            "SELECT g.id, g.price FROM goods g WHERE g.is_buy = 1 AND g.stock >= 100 AND g.manjian_id = 0 \
             AND EXISTS (SELECT 1 FROM goods_ladders l WHERE l.goods_id = g.id) \
             AND NOT EXISTS (SELECT 1 FROM flash_sales f WHERE f.goods_id = g.id) ORDER BY g.id LIMIT 1",
        )
        .fetch_one(&app.db.pool)
        .await
        .unwrap();
        let (_, detail) = app.get(&client, &format!("/api/goods/list?page_size=100&keyword={}", goods_name(&app, goods).await)).await;
        let card = detail["data"]["list"].as_array().unwrap().iter().find(|card| card["id"] == goods).unwrap().clone();
        assert_eq!(card["price"].as_str().unwrap(), discounted(price, "0.94"), "{card}");
        assert!(card["tags"].as_array().unwrap().iter().any(|tag| tag["name"] == "折"));
        let steps: Vec<(i64, i64)> = sqlx::query_as("SELECT number, price FROM goods_ladders WHERE goods_id = $1 ORDER BY number")
            .bind(goods)
            .fetch_all(&app.db.pool)
            .await
            .unwrap();
        let shown: Vec<(i64, String)> = card["ladder_price"]
            .as_array()
            .unwrap()
            .iter()
            .map(|step| (step["number"].as_i64().unwrap(), step["price"].as_str().unwrap().to_owned()))
            .collect();
        assert_eq!(shown, steps.iter().map(|(number, price)| (*number, discounted(*price, "0.94"))).collect::<Vec<_>>());

        // Cart and order: the engine is handed the discounted price, and the order keeps it.
        let demo = app.demo().await;
        let number = steps[0].0.max(1);
        let line = add_to_cart(&app, &demo, goods, number, &[]).await;
        let (_, cart) = app.get(&demo, "/api/cart/list").await;
        let quoted = cart["data"]["quote"]["lines"].as_array().unwrap().iter().find(|quoted| quoted["id"] == line).unwrap().clone();
        assert_eq!(quoted["unit_price"].as_str().unwrap(), discounted(steps[0].1, "0.94"), "{quoted}");
        let address = address_of(&app, "demo").await.to_string();
        let ids = line.to_string();
        let (status, placed) = post_order(&app, &demo, "welfare-1", &[("ids", &ids), ("address_id", &address)]).await;
        assert_eq!(status, StatusCode::OK, "{placed}");
        let stored: i64 = sqlx::query_scalar("SELECT price FROM order_items WHERE goods_id = $1 ORDER BY id DESC LIMIT 1")
            .bind(goods)
            .fetch_one(&app.db.pool)
            .await
            .unwrap();
        assert_eq!(discounted(stored, "1"), discounted(steps[0].1, "0.94"));

        // Ended: the stored prices again.
        sqlx::query("UPDATE welfare_activities SET ends_at = 0").execute(&app.db.pool).await.unwrap();
        let (_, none) = app.get(&client, "/api/activity/welfare").await;
        assert!(none["data"].is_null());
        let (_, listed) = app.get(&client, &format!("/api/goods/list?page_size=100&keyword={}", goods_name(&app, goods).await)).await;
        let card = listed["data"]["list"].as_array().unwrap().iter().find(|card| card["id"] == goods).unwrap().clone();
        assert_eq!(card["price"].as_str().unwrap(), discounted(price, "1"));
    })
    .await;
}

async fn goods_name(app: &crate::common::App, goods: i64) -> String {
    let name: String = sqlx::query_scalar("SELECT name FROM goods WHERE id = $1").bind(goods).fetch_one(&app.db.pool).await.unwrap();
    crate::common::urlencode(&name)
}

#[tokio::test]
async fn a_combination_goes_into_the_cart_as_one_line_at_its_price() {
    on_both(|app| async move {
        let (status, sets) = app.get(&app.demo().await, "/api/combination").await;
        assert_eq!(status, StatusCode::OK, "{sets}");
        let sets = sets["data"].as_array().unwrap().clone();
        let stored: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM combinations").fetch_one(&app.db.pool).await.unwrap();
        assert_eq!(sets.len() as i64, stored);
        for set in &sets {
            let id = set["id"].as_i64().unwrap();
            let numbers: Vec<i64> = sqlx::query_scalar("SELECT number FROM combination_items WHERE combination_id = $1 ORDER BY id")
                .bind(id)
                .fetch_all(&app.db.pool)
                .await
                .unwrap();
            let shown: Vec<i64> = set["items"].as_array().unwrap().iter().map(|item| item["number"].as_i64().unwrap()).collect();
            assert_eq!(shown, numbers, "{set}");
        }
        let set = sets.iter().find(|set| set["is_buy"] == 1).expect("a set that can be bought");
        let demo = app.demo().await;
        let goods = set["items"][0]["goods"]["id"].as_i64().unwrap();
        let extra = [("type", "3".to_owned()), ("combination_id", set["id"].to_string())];
        let line = add_to_cart(&app, &demo, goods, 2, &extra).await;
        let (_, cart) = app.get(&demo, "/api/cart/list").await;
        let quoted = cart["data"]["quote"]["lines"].as_array().unwrap().iter().find(|quoted| quoted["id"] == line).unwrap().clone();
        assert_eq!(
            (quoted["unit_price"].as_str(), quoted["price_kind"].as_str()),
            (set["price"].as_str(), Some("combination")),
            "{quoted}"
        );
    })
    .await;
}

#[tokio::test]
async fn activities_open_while_they_run_and_say_why_not_otherwise() {
    on_both(|app| async move {
        let client = app.client();
        let (status, all) = app.get(&client, "/api/activities").await;
        assert_eq!(status, StatusCode::OK, "{all}");
        let all = all["data"].as_array().unwrap().clone();
        let states: Vec<&str> = all.iter().map(|activity| activity["state"].as_str().unwrap()).collect();
        assert!(states.windows(2).all(|pair| pair[0] <= pair[1]), "running first: {states:?}");
        let upcoming = all.iter().find(|activity| activity["url"] == "newyear").unwrap();
        assert_eq!((upcoming["state"].as_str(), upcoming["note"].as_str()), (Some("upcoming"), Some("年货采购节将于10天后开启，敬请期待")));
        assert!(all.iter().any(|activity| activity["url"] == "" && activity["state"] == "upcoming"), "one without a page yet");

        // A running one by its url and by its id: its sections with the goods as seeded.
        let (status, winter) = app.get(&client, "/api/activities/winter").await;
        assert_eq!(status, StatusCode::OK, "{winter}");
        let sections = winter["data"]["sections"].as_array().unwrap();
        let seeded: Vec<String> = sqlx::query_scalar(
            "SELECT g.name FROM activity_goods a JOIN goods g ON g.id = a.goods_id JOIN activity_sections s ON s.id = a.section_id \
             JOIN activities t ON t.id = s.activity_id WHERE t.url = 'winter' ORDER BY s.sort, s.id, a.sort, g.id",
        )
        .fetch_all(&app.db.pool)
        .await
        .unwrap();
        let shown: Vec<String> = sections
            .iter()
            .flat_map(|section| section["goods"].as_array().unwrap().iter().map(|card| card["name"].as_str().unwrap().to_owned()))
            .collect();
        assert_eq!((winter["data"]["template"].as_str(), shown), (Some("hdmb"), seeded));
        let id = winter["data"]["id"].as_i64().unwrap();
        let (_, by_id) = app.get(&client, &format!("/api/activities/{id}")).await;
        assert_eq!(by_id["data"]["url"], "winter");

        // Upcoming: no goods yet. Unknown or over: 404.
        let (_, soon) = app.get(&client, "/api/activities/newyear").await;
        assert_eq!((soon["data"]["state"].as_str(), soon["data"]["sections"].as_array().map(Vec::len)), (Some("upcoming"), Some(0)));
        let (status, missing) = app.get(&client, "/api/activities/nowhere").await;
        assert_eq!((status, missing["msg"].as_str()), (StatusCode::NOT_FOUND, Some("活动不存在")));
        sqlx::query("UPDATE activities SET ends_at = 0 WHERE url = 'herbs'").execute(&app.db.pool).await.unwrap();
        assert_eq!(app.get(&client, "/api/activities/herbs").await.0, StatusCode::NOT_FOUND);

        // The activity centre's list keeps the order asked for and leaves out what is over.
        let herbs: i64 = sqlx::query_scalar("SELECT id FROM activities WHERE url = 'herbs'").fetch_one(&app.db.pool).await.unwrap();
        let yyh: i64 = sqlx::query_scalar("SELECT id FROM activities WHERE url = 'yyh'").fetch_one(&app.db.pool).await.unwrap();
        let (_, named) = app.get(&client, &format!("/api/activities?ids={yyh},{herbs},{id}")).await;
        let ids: Vec<i64> = named["data"].as_array().unwrap().iter().map(|activity| activity["id"].as_i64().unwrap()).collect();
        assert_eq!(ids, [yyh, id]);
        let many = (1..=21).map(|n| n.to_string()).collect::<Vec<_>>().join(",");
        assert_eq!(app.get(&client, &format!("/api/activities?ids={many}")).await.0, StatusCode::UNPROCESSABLE_ENTITY);
    })
    .await;
}

#[tokio::test]
async fn only_members_approved_for_the_controlled_zone_buy_its_goods() {
    on_both(|app| async move {
        let client = app.client();
        let (_, listed) = app.get(&client, "/api/goods/list?kx=1&page_size=100").await;
        let controlled: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM goods WHERE is_kx = 1").fetch_one(&app.db.pool).await.unwrap();
        assert!(controlled >= 5);
        assert_eq!(listed["data"]["total"].as_i64(), Some(controlled));
        let cards = listed["data"]["list"].as_array().unwrap();
        assert!(cards.iter().all(|card| card["is_kx"] == 1 && card["tags"].as_array().unwrap().iter().any(|tag| tag["name"] == "控")));
        let goods = cards[0]["id"].as_i64().unwrap();

        // The zone: a visitor has not applied; the programmes and their goods; new goods; ads.
        let (_, zone) = app.get(&client, "/api/kxzq").await;
        assert_eq!((zone["data"]["status"].as_i64(), zone["data"]["status_name"].as_str()), (Some(-1), Some("未申请")));
        let programme = zone["data"]["programmes"][0].clone();
        let (status, page) = app.get(&client, &format!("/api/kxzq/goods/{}", programme["url"].as_str().unwrap())).await;
        assert_eq!(status, StatusCode::OK, "{page}");
        assert_eq!(page["data"]["goods"].as_array().unwrap().len() as i64, programme["goods"].as_i64().unwrap());
        assert_eq!(app.get(&client, "/api/kxzq/goods/nowhere").await.0, StatusCode::NOT_FOUND);
        let (_, fresh) = app.get(&client, "/api/focus/new_kxzq").await;
        let recent: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM goods WHERE is_kx = 1 AND kx_listed_at > $1")
            .bind(origin::now() - 30 * 86_400)
            .fetch_one(&app.db.pool)
            .await
            .unwrap();
        assert_eq!(fresh["data"].as_array().unwrap().len() as i64, recent);
        assert_eq!(zone["data"]["new_goods"].as_i64(), Some(recent));
        let (_, ads) = app.get(&client, "/api/focus/kxzq_ad?ids=3,1").await;
        let ids: Vec<i64> = ads["data"].as_array().unwrap().iter().map(|ad| ad["id"].as_i64().unwrap()).collect();
        assert_eq!(ids, [3, 1]);

        // The demo pharmacy chain is approved; another member is not until the operator says so.
        let demo = app.demo().await;
        add_to_cart(&app, &demo, goods, 1, &[]).await;
        let other = app.other_member().await;
        let member: i64 = sqlx::query_scalar("SELECT id FROM members WHERE username = 'other'").fetch_one(&app.db.pool).await.unwrap();
        // Its qualifications approved, with every class in its business scope.
        sqlx::query("UPDATE members SET is_passed = 1 WHERE id = $1").bind(member).execute(&app.db.pool).await.unwrap();
        crate::common::every_class(&app, member).await;
        let form = [("goods_id", goods.to_string()), ("number", "1".to_owned())];
        let form: Vec<(&str, &str)> = form.iter().map(|(key, value)| (*key, value.as_str())).collect();
        let (status, refused) = app.post(&other, "/api/cart", &form).await;
        assert_eq!((status, refused["msg"].as_str()), (StatusCode::FORBIDDEN, Some("控销品种仅限审核通过的会员采购，请先在控销专区申请")));
        let (status, applied) = app.post(&other, "/api/kxzq/apply", &[]).await;
        assert_eq!((status, applied["data"]["status_name"].as_str()), (StatusCode::OK, Some("待审核")), "{applied}");
        let (status, again) = app.post(&other, "/api/kxzq/apply", &[]).await;
        assert_eq!((status, again["msg"].as_str()), (StatusCode::CONFLICT, Some("您的控销资格申请正在审核中")));
        admin(&app, &["reject-kx", &member.to_string(), "--reason", "经营范围不含处方药"]).await.unwrap();
        let (_, zone) = app.get(&other, "/api/kxzq").await;
        assert_eq!((zone["data"]["status"].as_i64(), zone["data"]["reason"].as_str()), (Some(2), Some("经营范围不含处方药")));
        assert_eq!(app.post(&other, "/api/kxzq/apply", &[]).await.0, StatusCode::OK, "a rejected member applies again");
        admin(&app, &["approve-kx", &member.to_string()]).await.unwrap();
        assert!(admin(&app, &["approve-kx", &member.to_string()]).await.is_err(), "approved once");
        let line = add_to_cart(&app, &other, goods, 1, &[]).await;
        let (status, applied) = app.post(&other, "/api/kxzq/apply", &[]).await;
        assert_eq!((status, applied["msg"].as_str()), (StatusCode::CONFLICT, Some("您已获得控销品种采购资格")));

        // Approval withdrawn: the line stays in the cart but cannot be bought, for the engine too.
        admin(&app, &["reject-kx", &member.to_string(), "--reason", "资质过期"]).await.unwrap();
        let (_, cart) = app.get(&other, "/api/cart/list").await;
        let quoted = cart["data"]["quote"]["lines"].as_array().unwrap().iter().find(|quoted| quoted["id"] == line).unwrap().clone();
        assert_eq!((quoted["buyable"].as_bool(), quoted["is_selected"].as_i64()), (Some(false), Some(0)), "{quoted}");
        let messages: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM messages WHERE member_id = $1 AND title LIKE '控销资格%'")
            .bind(member)
            .fetch_one(&app.db.pool)
            .await
            .unwrap();
        assert_eq!(messages, 3);
    })
    .await;
}

#[tokio::test]
async fn the_demo_data_loads_again_over_orders_and_returns() {
    on_both(|app| async move {
        let demo = app.demo().await;
        let goods: i64 =
            sqlx::query_scalar("SELECT MIN(id) FROM goods WHERE is_buy = 1 AND stock > 10").fetch_one(&app.db.pool).await.unwrap();
        let line = add_to_cart(&app, &demo, goods, 1, &[]).await.to_string();
        let address = address_of(&app, "demo").await.to_string();
        let (status, placed) = post_order(&app, &demo, "reseed-1", &[("ids", &line), ("address_id", &address)]).await;
        assert_eq!(status, StatusCode::OK, "{placed}");
        let count = |table: &'static str| {
            let pool = app.db.pool.clone();
            async move {
                sqlx::query_scalar::<_, i64>(sqlx::AssertSqlSafe(format!("SELECT COUNT(*) FROM {table}"))).fetch_one(&pool).await.unwrap()
            }
        };
        let before = (count("goods").await, count("activities").await, count("kx_programmes").await, count("cashback_tiers").await);
        if let Err(error) = origin::seed::seed(&app.db).await {
            panic!("{error:#}")
        }
        assert_eq!((count("goods").await, count("activities").await, count("kx_programmes").await, count("cashback_tiers").await), before);
        assert_eq!(count("orders").await, 0);
    })
    .await;
}

#[tokio::test]
async fn a_brands_goods_are_paged_by_the_page_asked() {
    on_both(|app| async move {
        let (brand, count): (i64, i64) = sqlx::query_as(
            "SELECT brand_id, COUNT(*) FROM goods WHERE brand_id IS NOT NULL GROUP BY brand_id ORDER BY COUNT(*) DESC, brand_id LIMIT 1",
        )
        .fetch_one(&app.db.pool)
        .await
        .unwrap();
        assert!(count > 10, "{count}");
        let client = app.client();
        // /ppzq/info/{id}/{page}: the brand's goods, the page the address names, five a page here.
        let last = (count + 4) / 5;
        let mut listed: Vec<i64> = Vec::new();
        for page in 1..=last {
            let (status, body) = app.get(&client, &format!("/api/goods/list?brand={brand}&page={page}&page_size=5")).await;
            assert_eq!(status, StatusCode::OK, "{body}");
            let data = &body["data"];
            assert_eq!((data["page"].as_i64(), data["total"].as_i64(), data["last_page"].as_i64()), (Some(page), Some(count), Some(last)));
            let ids: Vec<i64> = data["list"].as_array().unwrap().iter().map(|goods| goods["id"].as_i64().unwrap()).collect();
            assert_eq!(ids.len() as i64, if page < last { 5 } else { count - 5 * (last - 1) }, "page {page}");
            listed.extend(ids);
        }
        let mut expected: Vec<i64> =
            sqlx::query_scalar("SELECT id FROM goods WHERE brand_id = $1").bind(brand).fetch_all(&app.db.pool).await.unwrap();
        let mut unique = listed.clone();
        unique.sort_unstable();
        unique.dedup();
        expected.sort_unstable();
        assert_eq!(unique.len(), listed.len(), "no goods on two pages");
        assert_eq!(unique, expected, "every goods of the brand on some page");
        let (_, beyond) = app.get(&client, &format!("/api/goods/list?brand={brand}&page={}&page_size=5", last + 1)).await;
        assert_eq!((beyond["data"]["list"].as_array().unwrap().len(), beyond["data"]["total"].as_i64()), (0, Some(count)));
        let (status, refused) = app.get(&client, &format!("/api/goods/list?brand={brand}&page=0")).await;
        assert_eq!((status, refused["msg"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("页码须在1到100000之间")));
    })
    .await;
}

#[tokio::test]
async fn focus_demo_answers_the_ads_of_a_position() {
    on_both(|app| async move {
        let client = app.client();
        // Without a position: the home banners.
        let (status, demo) = app.get(&client, "/api/focus/demo").await;
        assert_eq!(status, StatusCode::OK, "{demo}");
        let (_, banners) = app.get(&client, "/api/focus").await;
        assert!(!demo["data"].as_array().unwrap().is_empty());
        assert_eq!(demo["data"], banners["data"]);
        // A right-hand position, by `position` or `key`: the ads /api/focus/right shows there.
        for (query, position) in [("position=ppzq", "ppzq"), ("key=yx", "yx"), ("position=postList", "postList")] {
            let (status, demo) = app.get(&client, &format!("/api/focus/demo?{query}")).await;
            assert_eq!(status, StatusCode::OK, "{demo}");
            let (_, right) = app.get(&client, &format!("/api/focus/right?position={position}")).await;
            assert!(!demo["data"].as_array().unwrap().is_empty(), "{query}");
            assert_eq!(demo["data"], right["data"], "{query}");
        }
        // A brand's banners.
        let brand: i64 = sqlx::query_scalar("SELECT MIN(id) FROM brands").fetch_one(&app.db.pool).await.unwrap();
        let (_, none) = app.get(&client, &format!("/api/focus/demo?position=brand:{brand}")).await;
        assert_eq!(none["data"], serde_json::json!([]));
        sqlx::query("INSERT INTO ads (position, title, url, sort) VALUES ($1, '品牌日', '/ppzq', 0)")
            .bind(format!("brand:{brand}"))
            .execute(&app.db.pool)
            .await
            .unwrap();
        let (_, one) = app.get(&client, &format!("/api/focus/demo?position=brand:{brand}")).await;
        assert_eq!((one["data"][0]["title"].as_str(), one["data"][0]["url"].as_str()), (Some("品牌日"), Some("/ppzq")));
        for wrong in ["nowhere", "brand:", "brand:x", "brand:1;2"] {
            let (status, refused) = app.get(&client, &format!("/api/focus/demo?position={wrong}")).await;
            assert_eq!((status, refused["msg"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("广告位置不正确")), "{wrong}");
        }
    })
    .await;
}
