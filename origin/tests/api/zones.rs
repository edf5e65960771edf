//! The zones' data on SQLite and PostgreSQL: the near-expiry zone lists exactly the goods whose
//! batch expires within 180 days, earliest first, with the date on each card; the herb and device
//! zones only their kind; the brand zone's brands with their goods counted; the free-shipping
//! threshold the 包邮专区 states.

use reqwest::StatusCode;

use crate::common::{add_to_cart, address_of, on_both, post_order};

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
        let client = app.client();
        let (_, none) = app.get(&client, "/api/activity/welfare").await;
        assert!(none["data"].is_null(), "off in the tests: {none}");
        sqlx::query("UPDATE welfare_activities SET is_on = 1").execute(&app.db.pool).await.unwrap();
        let (status, welfare) = app.get(&client, "/api/activity/welfare").await;
        assert_eq!(status, StatusCode::OK, "{welfare}");
        assert_eq!((welfare["data"]["rate"].as_str(), welfare["data"]["discount"].as_str()), (Some("0.94"), Some("94折")));

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
