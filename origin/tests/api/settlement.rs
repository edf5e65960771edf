//! Settlement over HTTP on SQLite and PostgreSQL (`docs/pricing.md`, rules 11–20): the member's
//! coupons reach their own lists only; checkout settles with the member's real accounts; an
//! order spends exactly what the engine settled, once (two orders cannot spend one coupon, fifty
//! cannot overdraw red packets or points), keeps each line's shares, and a cancel gives it all
//! back once; payment takes the amount due and credits the points it earns.

use crate::common::{App, add_to_cart, address_of, admin, joined, on_both, post_order};
use reqwest::{Client, StatusCode};
use serde_json::Value;
use sqlx::Row;

/// Buyable goods with stock, `count` of them, normal lines only.
async fn goods(app: &App, count: i64) -> Vec<i64> {
    sqlx::query_scalar(
        "SELECT id FROM goods WHERE is_buy = 1 AND stock >= 50 AND id NOT IN (SELECT goods_id FROM flash_sales) ORDER BY id LIMIT $1",
    )
    .bind(count)
    .fetch_all(&app.db.pool)
    .await
    .unwrap()
}

async fn member_scalar(app: &App, column: &str) -> i64 {
    sqlx::query_scalar(sqlx::AssertSqlSafe(format!("SELECT {column} FROM members WHERE username = 'demo'")))
        .fetch_one(&app.db.pool)
        .await
        .unwrap()
}

fn cents(text: &Value) -> i64 {
    let text = text.as_str().unwrap_or_else(|| panic!("{text} is not money"));
    let (units, fraction) = text.split_once('.').unwrap();
    units.parse::<i64>().unwrap() * 100 + fraction.parse::<i64>().unwrap()
}

async fn checkout(app: &App, client: &Client, form: &[(&str, &str)]) -> (StatusCode, Value) {
    app.post(client, "/api/cart/checkout", form).await
}

#[tokio::test]
async fn coupons_reach_their_member_only() {
    on_both(|app| async move {
        let demo = app.demo().await;
        // The templates in the demo member's wallet (those only the coupon centre gives are not).
        let templates: i64 = sqlx::query_scalar(
            "SELECT COUNT(DISTINCT m.coupon_id) FROM member_coupons m JOIN members u ON u.id = m.member_id WHERE u.username = 'demo'",
        )
        .fetch_one(&app.db.pool)
        .await
        .unwrap();
        let (status, count) = app.get(&demo, "/api/user/couponNum").await;
        assert_eq!(status, StatusCode::OK, "{count}");
        // Every template once, plus one not yet valid (unused, not usable); one expired.
        assert_eq!(count["data"], serde_json::json!({ "usable": templates, "unused": templates + 1, "used": 0, "expired": 1 }));
        let (_, available) = app.get(&demo, "/api/user/availableCoupon").await;
        assert_eq!(available["data"]["total"], templates, "the one not yet valid is not available");
        let (_, rate) = app.get(&demo, "/api/user/availableCoupon?type=2").await;
        let rate = rate["data"]["list"].as_array().unwrap();
        assert!(!rate.is_empty() && rate.iter().all(|coupon| coupon["kind"] == 2 && coupon["kind_name"] == "折扣券"), "{rate:?}");
        assert!(
            rate.iter().any(|coupon| coupon["rate"] == "0.95" && coupon["max_reduce"] == "50.00" && coupon["scope_name"] == "优选商品")
        );
        let (_, expired) = app.get(&demo, "/api/user/coupon?status=2").await;
        assert_eq!(expired["data"]["list"][0]["status_name"], "已过期");
        let (status, bad) = app.get(&demo, "/api/user/coupon?status=7").await;
        assert_eq!((status, bad["msg"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("优惠券状态不正确")));

        let other = app.other_member().await;
        let (_, theirs) = app.get(&other, "/api/user/couponNum").await;
        assert_eq!(theirs["data"], serde_json::json!({ "usable": 0, "unused": 0, "used": 0, "expired": 0 }));
        let (_, theirs) = app.get(&other, "/api/user/coupon").await;
        assert_eq!(theirs["data"]["total"], 0);
        let (status, _) = app.get(&app.client(), "/api/user/coupon").await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);
    })
    .await;
}

#[tokio::test]
async fn checkout_settles_with_the_members_accounts() {
    on_both(|app| async move {
        let demo = app.demo().await;
        let goods = goods(&app, 1).await[0];
        // Enough for every 满减 coupon of the demo data but the largest.
        let price: i64 = sqlx::query_scalar("SELECT price FROM goods WHERE id = $1").bind(goods).fetch_one(&app.db.pool).await.unwrap();
        let units = (1_200 * 10_000 + price - 1) / price;
        sqlx::query("UPDATE goods SET stock = 100000 WHERE id = $1").bind(goods).execute(&app.db.pool).await.unwrap();
        let line = add_to_cart(&app, &demo, goods, units, &[]).await.to_string();

        let (status, preview) = checkout(&app, &demo, &[("ids", &line)]).await;
        assert_eq!(status, StatusCode::OK, "{preview}");
        let settled = &preview["data"]["quote"]["settlement"];
        let input = &preview["data"]["settlement_input"];
        assert_eq!(input["coupons"].as_array().unwrap().len(), preview["data"]["coupons"].as_array().unwrap().len());
        assert_eq!(settled["coupons"].as_array().unwrap().len(), input["coupons"].as_array().unwrap().len());
        // The default: the coupon and the voucher that together take the most off (rule 13), so at
        // least the usable coupon worth most; no red packets, no points.
        let best = settled["coupons"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|coupon| coupon["usable"] == true)
            .map(|coupon| cents(&coupon["value"]))
            .max()
            .unwrap();
        let value = |chosen: &Value| if chosen.is_null() { 0 } else { cents(&chosen["value"]) };
        assert!(settled["cash_voucher"].is_object(), "{settled}");
        assert!(value(&settled["coupon"]) + value(&settled["cash_voucher"]) >= best, "{settled}");
        assert_eq!((settled["red_packet"].as_str(), settled["points_used"].as_i64()), (Some("0.00"), Some(0)));
        // The coupon valid only from three days on is listed, not usable.
        let later = preview["data"]["coupons"]
            .as_array()
            .unwrap()
            .iter()
            .position(|coupon| coupon["starts_at"].as_i64().unwrap() > origin::now())
            .unwrap();
        assert_eq!(settled["coupons"][later]["usable"], false);
        // What the preview answers is the engine's own answer for the settlement input it gives the browser.
        let mut cart = preview["data"]["input"].clone();
        assert!(cart.get("settlement").is_none());
        cart["settlement"] = input.clone();
        let engine_view = engine::quote(&engine::cart_from_value(&cart).unwrap()).unwrap();
        assert_eq!(serde_json::to_value(engine_view.settlement.unwrap()).unwrap(), *settled);

        // Other choices: a named coupon, no voucher, red packets and points.
        let usable = settled["coupons"].as_array().unwrap().iter().position(|coupon| coupon["usable"] == true).unwrap();
        let chosen = input["coupons"][usable]["id"].as_i64().unwrap().to_string();
        let (status, choice) = checkout(
            &app,
            &demo,
            &[("ids", &line), ("coupon_id", &chosen), ("cash_voucher_id", "0"), ("use_red_packet", "1"), ("use_points", "1")],
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{choice}");
        let settled = &choice["data"]["quote"]["settlement"];
        assert_eq!(settled["coupon"]["id"].as_i64().unwrap().to_string(), chosen);
        assert!(settled["cash_voucher"].is_null());
        assert!(cents(&settled["red_packet"]) > 0 && settled["points_used"].as_i64().unwrap() > 0, "{settled}");
        let due =
            cents(&settled["goods"]) - cents(&settled["coupon"]["value"]) - cents(&settled["red_packet"]) - cents(&settled["points_value"])
                + cents(&settled["shipping_fee"]);
        assert_eq!(cents(&settled["due"]), due);

        // A coupon that cannot be used, another member's, or none of the member's: refused.
        let other = app.other_member().await;
        let theirs: i64 = sqlx::query_scalar(
            "INSERT INTO member_coupons (member_id, coupon_id, status, starts_at, expires_at) \
             SELECT m.id, (SELECT MIN(id) FROM coupons), 0, 0, 4000000000 FROM members m WHERE m.username = 'other' RETURNING id",
        )
        .fetch_one(&app.db.pool)
        .await
        .unwrap();
        drop(other);
        let not_yet = input["coupons"][later]["id"].as_i64().unwrap().to_string();
        for coupon in [not_yet, theirs.to_string(), "99999".to_owned()] {
            let (status, refused) = checkout(&app, &demo, &[("ids", &line), ("coupon_id", &coupon)]).await;
            assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{refused}");
            assert_eq!(refused["msg"], "所选优惠券不可用，请重新选择");
            assert_eq!(refused["data"]["errors"]["coupon_id"][0], "所选优惠券不可用，请重新选择");
        }
        let (status, refused) = checkout(&app, &demo, &[("ids", &line), ("use_points", "2")]).await;
        assert_eq!((status, refused["msg"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("积分选项只能是0或1")));
    })
    .await;
}

/// Every red-packet and points movement of the demo member, summed: what the logs say the
/// balance is.
async fn logged(app: &App) -> (i64, i64) {
    let red: i64 = sqlx::query_scalar(
        "SELECT CAST(COALESCE(SUM(l.amount), 0) AS BIGINT) FROM red_packet_logs l JOIN members m ON m.id = l.member_id WHERE m.username = 'demo'",
    )
    .fetch_one(&app.db.pool)
    .await
    .unwrap();
    let points: i64 = sqlx::query_scalar(
        "SELECT CAST(COALESCE(SUM(l.points), 0) AS BIGINT) FROM points_logs l JOIN members m ON m.id = l.member_id WHERE m.username = 'demo'",
    )
    .fetch_one(&app.db.pool)
    .await
    .unwrap();
    (red, points)
}

#[tokio::test]
async fn an_order_spends_what_it_settled_and_a_cancel_gives_it_back_once() {
    on_both(|app| async move {
        let demo = app.demo().await;
        let address = address_of(&app, "demo").await.to_string();
        let [first, second] = goods(&app, 2).await[..] else { panic!("two goods") };
        let lines = [add_to_cart(&app, &demo, first, 40, &[]).await, add_to_cart(&app, &demo, second, 25, &[]).await];
        let ids = format!("{},{}", lines[0], lines[1]);
        let choices = [("use_red_packet", "1"), ("use_points", "1")];
        let mut form = vec![("ids", ids.as_str())];
        form.extend(choices);
        let (_, preview) = checkout(&app, &demo, &form).await;
        let settled = preview["data"]["quote"]["settlement"].clone();
        let payable = preview["data"]["quote"]["totals"]["payable"].as_str().unwrap().to_owned();
        let due = settled["due"].as_str().unwrap().to_owned();
        let (red_before, points_before) = (member_scalar(&app, "red_packet").await, member_scalar(&app, "points").await);

        // The amount due the buyer saw must be the amount due now.
        let mut order = form.clone();
        order.extend([("address_id", address.as_str()), ("expected_payable", payable.as_str()), ("expected_due", "0.01")]);
        let (status, refused) = post_order(&app, &demo, "settle-wrong-due", &order).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(refused["msg"], "应付金额已变动，请确认后重新提交");
        order.pop();
        order.push(("expected_due", due.as_str()));
        let (status, placed) = post_order(&app, &demo, "settle-1", &order).await;
        assert_eq!(status, StatusCode::OK, "{placed}");
        assert_eq!(placed["data"]["due"], due.as_str());
        assert_eq!(placed["data"]["settlement"], settled, "the order settled as the preview did");
        let id = placed["data"]["id"].as_i64().unwrap();

        // The accounts moved by exactly what was settled, each movement logged.
        let coupon = settled["coupon"]["id"].as_i64().unwrap();
        let state: (i64, Option<i64>) =
            sqlx::query_as("SELECT status, order_id FROM member_coupons WHERE id = $1").bind(coupon).fetch_one(&app.db.pool).await.unwrap();
        assert_eq!(state, (1, Some(id)));
        let voucher = settled["cash_voucher"]["id"].as_i64().unwrap();
        let state: (i64, Option<i64>) = sqlx::query_as("SELECT status, order_id FROM member_cash_vouchers WHERE id = $1")
            .bind(voucher)
            .fetch_one(&app.db.pool)
            .await
            .unwrap();
        assert_eq!(state, (1, Some(id)));
        assert_eq!(red_before - member_scalar(&app, "red_packet").await, cents(&settled["red_packet"]) * 100);
        assert_eq!(points_before - member_scalar(&app, "points").await, settled["points_used"].as_i64().unwrap());
        assert_eq!(logged(&app).await, (member_scalar(&app, "red_packet").await, member_scalar(&app, "points").await));

        // Each line keeps its shares; a return of every unit refunds what the line paid.
        let (_, detail) = app.get(&demo, &format!("/api/order/{id}")).await;
        let detail = &detail["data"];
        assert_eq!(detail["due"], due.as_str());
        let items = detail["items"].as_array().unwrap();
        for (item, shares) in items.iter().zip(settled["lines"].as_array().unwrap()) {
            for key in ["coupon", "cash_voucher", "red_packet", "points", "paid"] {
                assert_eq!(item[key], shares[key], "{key}");
            }
        }
        let paid: i64 = items.iter().map(|item| cents(&item["paid"])).sum();
        assert_eq!(paid + cents(&detail["shipping_fee"]), cents(&detail["due"]));

        // Cancelling gives everything back, once.
        let (status, _) = app.post(&demo, &format!("/api/order/{id}/cancel"), &[]).await;
        assert_eq!(status, StatusCode::OK);
        let (status, _) = app.post(&demo, &format!("/api/order/{id}/cancel"), &[]).await;
        assert_eq!(status, StatusCode::CONFLICT);
        assert_eq!((member_scalar(&app, "red_packet").await, member_scalar(&app, "points").await), (red_before, points_before));
        let state: (i64, Option<i64>) =
            sqlx::query_as("SELECT status, order_id FROM member_coupons WHERE id = $1").bind(coupon).fetch_one(&app.db.pool).await.unwrap();
        assert_eq!(state, (0, None));
        let state: i64 = sqlx::query_scalar("SELECT status FROM member_cash_vouchers WHERE id = $1")
            .bind(voucher)
            .fetch_one(&app.db.pool)
            .await
            .unwrap();
        assert_eq!(state, 0);
        assert_eq!(logged(&app).await, (red_before, points_before));

        // Paying an order takes its amount due and credits a point per whole yuan of it.
        let lines = [add_to_cart(&app, &demo, first, 40, &[]).await, add_to_cart(&app, &demo, second, 25, &[]).await];
        let ids = format!("{},{}", lines[0], lines[1]);
        let (status, placed) = post_order(&app, &demo, "settle-2", &[("ids", &ids), ("address_id", &address)]).await;
        assert_eq!(status, StatusCode::OK, "{placed}");
        let id = placed["data"]["id"].as_i64().unwrap();
        let (balance, points) = (member_scalar(&app, "balance").await, member_scalar(&app, "points").await);
        let (status, paid) = app.post(&demo, &format!("/api/order/{id}/pay"), &[("method", "balance")]).await;
        assert_eq!(status, StatusCode::OK, "{paid}");
        let due = cents(&placed["data"]["due"]);
        assert_eq!(balance - member_scalar(&app, "balance").await, due * 100);
        assert_eq!(member_scalar(&app, "points").await - points, due / 100);
        assert_eq!(paid["data"]["points_earned"], due / 100);
        assert_eq!(logged(&app).await.1, member_scalar(&app, "points").await);
    })
    .await;
}

#[tokio::test]
async fn two_orders_with_one_coupon_make_one_order() {
    on_both(|app| async move {
        let demo = app.demo().await;
        let address = address_of(&app, "demo").await.to_string();
        let [first, second] = goods(&app, 2).await[..] else { panic!("two goods") };
        let lines = [add_to_cart(&app, &demo, first, 30, &[]).await, add_to_cart(&app, &demo, second, 30, &[]).await];
        let (_, preview) = checkout(&app, &demo, &[("ids", &lines[0].to_string())]).await;
        let coupon = preview["data"]["quote"]["settlement"]["coupon"]["id"].as_i64().expect("a usable coupon").to_string();
        let mut tasks = Vec::new();
        for (n, line) in lines.iter().enumerate() {
            let (app, demo, line, coupon, address) = (app.clone(), demo.clone(), line.to_string(), coupon.clone(), address.clone());
            tasks.push(tokio::spawn(async move {
                post_order(&app, &demo, &format!("one-coupon-{n}"), &[("ids", &line), ("address_id", &address), ("coupon_id", &coupon)])
                    .await
            }));
        }
        let answers = joined(tasks).await;
        let won: Vec<&(StatusCode, Value)> = answers.iter().filter(|(status, _)| *status == StatusCode::OK).collect();
        assert_eq!(won.len(), 1, "{}: {answers:?}", app.database);
        let lost = answers.iter().find(|(status, _)| *status != StatusCode::OK).unwrap();
        assert_eq!(lost.0, StatusCode::UNPROCESSABLE_ENTITY, "{lost:?}");
        assert_eq!(lost.1["msg"], "所选优惠券不可用，请重新选择");
        let users: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM orders WHERE member_coupon_id = $1")
            .bind(coupon.parse::<i64>().unwrap())
            .fetch_one(&app.db.pool)
            .await
            .unwrap();
        assert_eq!(users, 1);
    })
    .await;
}

#[tokio::test]
async fn fifty_orders_spending_red_packets_and_points_never_overdraw() {
    on_both(|app| async move {
        let demo = app.demo().await;
        let address = address_of(&app, "demo").await.to_string();
        let goods = goods(&app, 50).await;
        assert_eq!(goods.len(), 50);
        let mut lines = Vec::new();
        for goods in &goods {
            lines.push(add_to_cart(&app, &demo, *goods, 20, &[]).await);
        }
        let (red_before, points_before) = (member_scalar(&app, "red_packet").await, member_scalar(&app, "points").await);
        let tasks = lines
            .iter()
            .enumerate()
            .map(|(n, line)| {
                let (app, demo, line, address) = (app.clone(), demo.clone(), line.to_string(), address.clone());
                tokio::spawn(async move {
                    let form = [("ids", line.as_str()), ("address_id", address.as_str()), ("use_red_packet", "1"), ("use_points", "1")];
                    post_order(&app, &demo, &format!("drain-{n}"), &form).await
                })
            })
            .collect();
        let answers = joined(tasks).await;
        assert!(answers.iter().all(|(status, _)| *status == StatusCode::OK), "{}: {answers:?}", app.database);
        let (red_after, points_after) = (member_scalar(&app, "red_packet").await, member_scalar(&app, "points").await);
        assert!(red_after >= 0 && points_after >= 0);
        let (spent_red, spent_points): (i64, i64) = sqlx::query_as(
            "SELECT CAST(COALESCE(SUM(red_packet), 0) AS BIGINT), CAST(COALESCE(SUM(points_used), 0) AS BIGINT) FROM orders",
        )
        .fetch_one(&app.db.pool)
        .await
        .unwrap();
        assert_eq!((red_before - red_after, points_before - points_after), (spent_red, spent_points));
        assert!(spent_red > 0 && spent_points > 0);
        assert_eq!(logged(&app).await, (red_after, points_after), "every movement is logged");
        let unlogged: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM orders o WHERE o.red_packet > 0 AND NOT EXISTS \
             (SELECT 1 FROM red_packet_logs l WHERE l.order_id = o.id AND l.amount = -o.red_packet)",
        )
        .fetch_one(&app.db.pool)
        .await
        .unwrap();
        assert_eq!(unlogged, 0);
    })
    .await;
}

#[tokio::test]
async fn a_coupon_the_engine_would_refuse_never_reaches_it() {
    on_both(|app| async move {
        let insert = |kind: i64, amount: i64, rate: i64| {
            sqlx::query(
                "INSERT INTO coupons (title, amount, min_amount, days, kind, scope, rate) VALUES ('坏券', $1, 0, 30, $2, 0, $3) RETURNING id",
            )
            .bind(amount)
            .bind(kind)
            .bind(rate)
        };
        // The database refuses a 折扣 (kind 2) whose rate is not above 0 and below 1 (a rate of
        // 0 would take everything off) and a 满减 (kind 1) taking nothing off, new or changed.
        for (kind, amount, rate) in [(2, 0, 0), (2, 0, 10_000), (2, 0, 12_000), (2, 0, -1), (1, 0, 0), (1, -100_000, 0)] {
            let refused = insert(kind, amount, rate).fetch_one(&app.db.pool).await;
            assert!(refused.is_err(), "{} kind {kind}, amount {amount}, rate {rate}: stored", app.database);
        }
        let good: i64 = insert(2, 0, 9_000).fetch_one(&app.db.pool).await.unwrap().get(0);
        let changed = sqlx::query("UPDATE coupons SET rate = 0 WHERE id = $1").bind(good).execute(&app.db.pool).await;
        assert!(changed.is_err(), "{}: a template changed to rate 0", app.database);
        let reduce: i64 = insert(1, 50_000, 0).fetch_one(&app.db.pool).await.unwrap().get(0);
        assert!(sqlx::query("UPDATE coupons SET amount = 0 WHERE id = $1").bind(reduce).execute(&app.db.pool).await.is_err());

        // A template written before the check (as an old database may hold): a coupon of it is
        // left out of the member's settlement, which the engine reads; it cannot be chosen.
        if app.database == "sqlite" {
            sqlx::query("DROP TRIGGER coupons_values_insert").execute(&app.db.pool).await.unwrap();
        } else {
            sqlx::query("ALTER TABLE coupons DROP CONSTRAINT coupons_values").execute(&app.db.pool).await.unwrap();
        }
        let legacy: i64 = insert(2, 0, 0).fetch_one(&app.db.pool).await.unwrap().get(0);
        let demo_id: i64 = sqlx::query_scalar("SELECT id FROM members WHERE username = 'demo'").fetch_one(&app.db.pool).await.unwrap();
        let held: i64 = sqlx::query_scalar(
            "INSERT INTO member_coupons (member_id, coupon_id, status, starts_at, expires_at) VALUES ($1, $2, 0, 0, 4000000000) RETURNING id",
        )
        .bind(demo_id)
        .bind(legacy)
        .fetch_one(&app.db.pool)
        .await
        .unwrap();
        let demo = app.demo().await;
        let line = add_to_cart(&app, &demo, goods(&app, 1).await[0], 1, &[]).await.to_string();
        let (status, input) = app.get(&demo, "/api/cart/input").await;
        assert_eq!(status, StatusCode::OK, "{input}");
        let coupons = input["data"]["settlement"]["coupons"].as_array().unwrap();
        assert!(!coupons.is_empty() && coupons.iter().all(|coupon| coupon["id"] != held), "{coupons:?}");
        // What the edge reads with the engine's reader.
        engine::cart_from_value(&input["data"]).unwrap();
        let (status, preview) = checkout(&app, &demo, &[("ids", &line)]).await;
        assert_eq!(status, StatusCode::OK, "{preview}");
        assert!(preview["data"]["coupons"].as_array().unwrap().iter().all(|coupon| coupon["id"] != held));
        let (status, refused) = checkout(&app, &demo, &[("ids", &line), ("coupon_id", &held.to_string())]).await;
        assert_eq!((status, refused["msg"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("所选优惠券不可用，请重新选择")));

        // The operator cannot grant one of it, and is told why.
        let said = admin(&app, &["grant", "coupon", "--member", &demo_id.to_string(), "--template", &legacy.to_string()])
            .await
            .unwrap_err()
            .to_string();
        assert!(said.contains(&format!("coupon template {legacy} (坏券) cannot be granted")), "{said}");
        assert!(said.contains("the rate must be above 0 and below 1, got 0"), "{said}");
        admin(&app, &["grant", "coupon", "--member", &demo_id.to_string(), "--template", &good.to_string()]).await.unwrap();
    })
    .await;
}
