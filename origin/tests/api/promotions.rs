//! The coupon centre and the points mall on SQLite and PostgreSQL: claiming into the wallet
//! within each member's limit, redeeming coupons, red packets and goods (points and money, each
//! account moved once with its log row), shipping and receipt of points orders, every refusal
//! leaving everything as it was; and the races — 100 members for 10 coupons, 100 members for 10
//! mall items: exactly 10 each, never more.

use reqwest::{Client, StatusCode};
use serde_json::Value;

use crate::common::{App, admin, approved_buyer, joined, on_both};

async fn demo_scalar(app: &App, column: &str) -> i64 {
    sqlx::query_scalar(sqlx::AssertSqlSafe(format!("SELECT {column} FROM members WHERE username = 'demo'")))
        .fetch_one(&app.db.pool)
        .await
        .unwrap()
}

async fn template(app: &App, title: &str) -> i64 {
    sqlx::query_scalar("SELECT id FROM coupons WHERE title = $1").bind(title).fetch_one(&app.db.pool).await.unwrap()
}

async fn mall_item(app: &App, name: &str) -> i64 {
    sqlx::query_scalar("SELECT id FROM points_goods WHERE name = $1").bind(name).fetch_one(&app.db.pool).await.unwrap()
}

/// `n` members with sessions, each with `points` points; answers their session tokens.
async fn members(app: &App, prefix: &str, phone: &str, n: usize, points: i64) -> Vec<String> {
    let hash = origin::auth::hash_password("buyer123").unwrap();
    let mut tokens = Vec::with_capacity(n);
    for index in 0..n {
        let (member, _) = approved_buyer(app, &hash, prefix, phone, index).await;
        sqlx::query("UPDATE members SET points = $1 WHERE id = $2").bind(points).bind(member).execute(&app.db.pool).await.unwrap();
        tokens.push(origin::auth::open_session(&app.db, member).await.unwrap());
    }
    tokens
}

/// Each token posts to `path` at once; answers the statuses.
async fn race(app: &App, tokens: Vec<String>, path: &str) -> Vec<StatusCode> {
    let client = Client::new();
    let tasks = tokens
        .into_iter()
        .map(|token| {
            let (client, url) = (client.clone(), app.url(path));
            tokio::spawn(async move { client.post(url).header("Cookie", format!("sid={token}")).send().await.unwrap().status() })
        })
        .collect();
    joined(tasks).await
}

#[tokio::test]
async fn coupons_are_claimed_into_the_wallet_within_each_members_limit() {
    on_both(|app| async move {
        let visitor = app.client();
        let (status, centre) = app.get(&visitor, "/api/coupon/centre").await;
        assert_eq!(status, StatusCode::OK, "{centre}");
        let list = centre["data"]["list"].as_array().unwrap().clone();
        assert!(list.len() >= 4, "{centre}");
        let card = |list: &[Value], title: &str| list.iter().find(|card| card["title"] == title).unwrap().clone();
        let only = card(&list, "领券中心专享满800减40");
        assert_eq!((only["state"].as_str(), only["mine"].as_i64(), only["reduce"].as_str()), (Some("claim"), Some(0), Some("40.00")));
        let only_id = only["id"].as_i64().unwrap();
        let (status, _) = app.post(&visitor, &format!("/api/coupon/{only_id}/claim"), &[]).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);

        let demo = app.demo().await;
        let (_, before) = app.get(&demo, "/api/user/couponNum").await;
        let (status, claimed) = app.post(&demo, &format!("/api/coupon/{only_id}/claim"), &[]).await;
        assert_eq!(status, StatusCode::OK, "{claimed}");
        assert_eq!(claimed["msg"], "领取成功");
        assert_eq!(
            (claimed["data"]["coupon"]["state"].as_str(), claimed["data"]["coupon"]["claimed"].as_i64()),
            (Some("claimed"), Some(1))
        );
        let (_, after) = app.get(&demo, "/api/user/couponNum").await;
        assert_eq!(after["data"]["unused"].as_i64().unwrap(), before["data"]["unused"].as_i64().unwrap() + 1, "in the wallet");
        let (_, available) = app.get(&demo, "/api/user/availableCoupon").await;
        let mine = claimed["data"]["member_coupon_id"].as_i64().unwrap();
        assert!(available["data"]["list"].as_array().unwrap().iter().any(|coupon| coupon["id"] == mine), "usable at checkout");
        let (status, refused) = app.post(&demo, &format!("/api/coupon/{only_id}/claim"), &[]).await;
        assert_eq!((status, refused["msg"].as_str()), (StatusCode::CONFLICT, Some("您已领取过该优惠券")));

        // Two per member.
        let herbs = template(&app, "中药饮片满300享95折").await;
        for _ in 0..2 {
            assert_eq!(app.post(&demo, &format!("/api/coupon/{herbs}/claim"), &[]).await.0, StatusCode::OK);
        }
        let (status, refused) = app.post(&demo, &format!("/api/coupon/{herbs}/claim"), &[]).await;
        assert_eq!((status, refused["msg"].as_str()), (StatusCode::CONFLICT, Some("该优惠券每人限领2张")));
        let (_, centre) = app.get(&demo, "/api/coupon/centre").await;
        let herbs_card = card(centre["data"]["list"].as_array().unwrap(), "中药饮片满300享95折");
        assert_eq!((herbs_card["mine"].as_i64(), herbs_card["rate"].as_str()), (Some(2), Some("0.95")));

        // Not in the centre, or no such template.
        let not_in_centre = template(&app, "满2000减150").await;
        assert_eq!(app.post(&demo, &format!("/api/coupon/{not_in_centre}/claim"), &[]).await.0, StatusCode::NOT_FOUND);
        assert_eq!(app.post(&demo, "/api/coupon/999999/claim", &[]).await.0, StatusCode::NOT_FOUND);
    })
    .await;
}

#[tokio::test]
async fn a_hundred_members_racing_for_ten_coupons_get_ten() {
    on_both(|app| async move {
        let id = template(&app, "器械专区满1500减80").await;
        let stock: i64 =
            sqlx::query_scalar("SELECT centre_stock FROM coupons WHERE id = $1").bind(id).fetch_one(&app.db.pool).await.unwrap();
        assert_eq!(stock, 10);
        let tokens = members(&app, "claimer", "135", 100, 0).await;
        let statuses = race(&app, tokens, &format!("/api/coupon/{id}/claim")).await;
        assert_eq!(statuses.iter().filter(|status| **status == StatusCode::OK).count(), 10, "{statuses:?}");
        assert!(statuses.iter().all(|status| *status == StatusCode::OK || *status == StatusCode::CONFLICT), "{statuses:?}");
        let (claimed, held): (i64, i64) = sqlx::query_as(
            "SELECT c.centre_claimed, (SELECT COUNT(*) FROM member_coupons m WHERE m.coupon_id = c.id AND m.source = 'centre') \
             FROM coupons c WHERE c.id = $1",
        )
        .bind(id)
        .fetch_one(&app.db.pool)
        .await
        .unwrap();
        assert_eq!((claimed, held), (10, 10));
        let (_, centre) = app.get(&app.client(), "/api/coupon/centre").await;
        let card = centre["data"]["list"].as_array().unwrap().iter().find(|card| card["id"] == id).unwrap().clone();
        assert_eq!((card["left"].as_i64(), card["state"].as_str()), (Some(0), Some("gone")));
    })
    .await;
}

#[tokio::test]
async fn the_points_mall_redeems_coupons_red_packets_and_goods_once_each() {
    on_both(|app| async move {
        let demo = app.demo().await;
        sqlx::query("UPDATE members SET points = 10000 WHERE username = 'demo'").execute(&app.db.pool).await.unwrap();
        let (status, page) = app.get(&demo, "/api/points_mall").await;
        assert_eq!(status, StatusCode::OK, "{page}");
        assert_eq!(page["data"]["points"].as_i64().unwrap(), demo_scalar(&app, "points").await);
        let (_, cheapest) = app.get(&demo, "/api/points_mall?sort=points_asc").await;
        let points: Vec<i64> = cheapest["data"]["list"].as_array().unwrap().iter().map(|item| item["points"].as_i64().unwrap()).collect();
        assert!(points.windows(2).all(|pair| pair[0] <= pair[1]), "{points:?}");
        assert_eq!(app.get(&demo, "/api/points_mall?sort=x").await.0, StatusCode::UNPROCESSABLE_ENTITY);

        let (points, balance, red) =
            (demo_scalar(&app, "points").await, demo_scalar(&app, "balance").await, demo_scalar(&app, "red_packet").await);
        let (_, coupons_before) = app.get(&demo, "/api/user/couponNum").await;
        let coupon = mall_item(&app, "满500减20优惠券").await;
        let (status, order) = app.post(&demo, &format!("/api/points_mall/{coupon}/redeem"), &[("number", "2")]).await;
        assert_eq!(status, StatusCode::OK, "{order}");
        assert_eq!((order["data"]["status_name"].as_str(), order["data"]["points"].as_i64()), (Some("已完成"), Some(1000)));
        let (_, coupons_after) = app.get(&demo, "/api/user/couponNum").await;
        assert_eq!(coupons_after["data"]["unused"].as_i64().unwrap() - coupons_before["data"]["unused"].as_i64().unwrap(), 2);

        let packet = mall_item(&app, "5元账户红包").await;
        assert_eq!(app.post(&demo, &format!("/api/points_mall/{packet}/redeem"), &[]).await.0, StatusCode::OK);
        assert_eq!(demo_scalar(&app, "red_packet").await - red, 50_000, "5.00 of red packets");

        let meter = mall_item(&app, "电子血压计YE660D（积分+现金）").await;
        let (status, shipped) = app.post(&demo, &format!("/api/points_mall/{meter}/redeem"), &[]).await;
        assert_eq!(status, StatusCode::OK, "{shipped}");
        assert_eq!((shipped["data"]["status_name"].as_str(), shipped["data"]["price"].as_str()), (Some("待发货"), Some("99.00")));
        assert!(shipped["data"]["address"].as_str().unwrap().contains("莫干山路"), "{shipped}");
        assert_eq!(demo_scalar(&app, "points").await, points - 1000 - 600 - 2000);
        assert_eq!(balance - demo_scalar(&app, "balance").await, 990_000);
        let logged: i64 = sqlx::query_scalar(
            "SELECT CAST(COUNT(*) AS BIGINT) FROM points_logs l JOIN members m ON m.id = l.member_id \
             WHERE m.username = 'demo' AND l.note LIKE '积分商城兑换%'",
        )
        .fetch_one(&app.db.pool)
        .await
        .unwrap();
        assert_eq!(logged, 3, "each redemption logged once");

        // Refusals change nothing.
        let (status, refused) = app.post(&demo, &format!("/api/points_mall/{meter}/redeem"), &[]).await;
        assert_eq!((status, refused["msg"].as_str()), (StatusCode::CONFLICT, Some("该商品每人限兑1件，您已兑换1件")));
        let gone = mall_item(&app, "安稳+Air血糖仪（积分+现金）").await;
        assert_eq!(app.post(&demo, &format!("/api/points_mall/{gone}/redeem"), &[]).await.1["msg"], "库存不足");
        let goji = mall_item(&app, "枸杞子 500g/袋").await;
        let stock: i64 =
            sqlx::query_scalar("SELECT stock FROM points_goods WHERE id = $1").bind(goji).fetch_one(&app.db.pool).await.unwrap();
        sqlx::query("UPDATE members SET points = 100 WHERE username = 'demo'").execute(&app.db.pool).await.unwrap();
        let (status, refused) = app.post(&demo, &format!("/api/points_mall/{goji}/redeem"), &[]).await;
        assert_eq!((status, refused["msg"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("积分不足")));
        let after: i64 =
            sqlx::query_scalar("SELECT stock FROM points_goods WHERE id = $1").bind(goji).fetch_one(&app.db.pool).await.unwrap();
        assert_eq!(after, stock, "the stock is given back with the refusal");
        assert_eq!(
            app.post(&demo, &format!("/api/points_mall/{goji}/redeem"), &[("number", "0")]).await.0,
            StatusCode::UNPROCESSABLE_ENTITY
        );

        // The goods are shipped by the shop and received by the member, who alone sees them.
        let order = shipped["data"]["id"].as_i64().unwrap();
        let (status, refused) = app.post(&demo, &format!("/api/points_orders/{order}/receive"), &[]).await;
        assert_eq!((status, refused["msg"].as_str()), (StatusCode::CONFLICT, Some("当前订单状态为待发货，不能确认收货")));
        let listed = admin(&app, &["points-orders", "--pending"]).await.unwrap();
        assert!(listed.contains("电子血压计YE660D"), "{listed}");
        admin(&app, &["ship-points", &order.to_string(), "--carrier", "顺丰速运", "--tracking", "SF300"]).await.unwrap();
        assert!(admin(&app, &["ship-points", &order.to_string(), "--carrier", "顺丰速运", "--tracking", "SF300"]).await.is_err());
        let other = app.other_member().await;
        assert_eq!(app.post(&other, &format!("/api/points_orders/{order}/receive"), &[]).await.0, StatusCode::NOT_FOUND);
        assert_eq!(app.get(&other, "/api/points_orders").await.1["data"]["total"], 0);
        let (status, received) = app.post(&demo, &format!("/api/points_orders/{order}/receive"), &[]).await;
        assert_eq!(status, StatusCode::OK, "{received}");
        assert_eq!(received["data"]["status_name"], "已完成");
        let (_, mine) = app.get(&demo, "/api/points_orders").await;
        assert_eq!(mine["data"]["total"], 3);
        let (_, done) = app.get(&demo, "/api/points_orders?status=2").await;
        assert_eq!(done["data"]["total"], 3);
    })
    .await;
}

#[tokio::test]
async fn a_hundred_members_racing_for_ten_mall_items_get_ten() {
    on_both(|app| async move {
        let item = mall_item(&app, "枸杞子 500g/袋").await;
        sqlx::query("UPDATE points_goods SET stock = 10 WHERE id = $1").bind(item).execute(&app.db.pool).await.unwrap();
        let tokens = members(&app, "redeemer", "134", 100, 5_000).await;
        let statuses = race(&app, tokens, &format!("/api/points_mall/{item}/redeem")).await;
        assert_eq!(statuses.iter().filter(|status| **status == StatusCode::OK).count(), 10, "{statuses:?}");
        let (stock, redeemed): (i64, i64) =
            sqlx::query_as("SELECT stock, redeemed FROM points_goods WHERE id = $1").bind(item).fetch_one(&app.db.pool).await.unwrap();
        assert_eq!((stock, redeemed), (0, 10));
        let spent: i64 =
            sqlx::query_scalar("SELECT CAST(COALESCE(SUM(5000 - points), 0) AS BIGINT) FROM members WHERE username LIKE 'redeemer%'")
                .fetch_one(&app.db.pool)
                .await
                .unwrap();
        assert_eq!(spent, 10 * 1200, "points taken for the ten only");
        let orders: i64 = sqlx::query_scalar("SELECT CAST(COUNT(*) AS BIGINT) FROM points_orders WHERE points_goods_id = $1")
            .bind(item)
            .fetch_one(&app.db.pool)
            .await
            .unwrap();
        assert_eq!(orders, 10);
    })
    .await;
}
