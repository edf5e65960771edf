//! Checkout, orders and payment over HTTP, on SQLite and PostgreSQL: the whole flow, every
//! refusal, members kept apart, idempotency, and stock under 200 concurrent orders.

use crate::common::{self, App, add_to_cart, address_of, approved_buyer, edge_check, joined, ladder_goods, on_both, post_order};
use reqwest::{Client, StatusCode};
use serde_json::Value;

async fn stock(app: &App, goods: i64) -> i64 {
    sqlx::query_scalar("SELECT stock FROM goods WHERE id = $1").bind(goods).fetch_one(&app.db.pool).await.unwrap()
}

#[tokio::test]
async fn checkout_order_and_pay() {
    on_both(|app| async move {
        let demo = app.demo().await;
        let (goods, stock_before) = ladder_goods(&app).await;
        let line = add_to_cart(&app, &demo, goods, 12, &[]).await;
        let ids = line.to_string();
        let (_, list) = app.get(&demo, "/api/cart/list").await;
        let payable = list["data"]["quote"]["totals"]["payable"].as_str().unwrap().to_owned();

        let (status, preview) = app.post(&demo, "/api/cart/checkout", &[("ids", &ids), ("new", "1"), ("expected_payable", &payable)]).await;
        assert_eq!(status, StatusCode::OK, "{preview}");
        assert_eq!(preview["data"]["quote"]["totals"]["payable"], payable.as_str());
        assert!(!preview["data"]["addresses"].as_array().unwrap().is_empty());
        assert!(!preview["data"]["coupons"].as_array().unwrap().is_empty(), "the demo member's usable coupons are listed");

        let (status, tampered) = app.post(&demo, "/api/cart/checkout", &[("ids", &ids), ("expected_payable", "0.01")]).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(tampered["msg"], "商品价格已变动，请刷新购物车后重试");
        let (status, none) = app.post(&demo, "/api/cart/checkout", &[("ids", "")]).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(none["msg"], "请选择要结算的商品");
        let (status, foreign) = app.post(&demo, "/api/cart/checkout", &[("ids", "99999")]).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(foreign["msg"], "购物车中没有该商品，请刷新购物车后重试");

        let address = address_of(&app, "demo").await.to_string();
        let form =
            [("ids", ids.as_str()), ("address_id", address.as_str()), ("remark", "周一上午送货"), ("expected_payable", payable.as_str())];
        let (status, tampered) =
            post_order(&app, &demo, "key-tampered", &[("ids", &ids), ("address_id", &address), ("expected_payable", "1.00")]).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(tampered["msg"], "商品价格已变动，请刷新购物车后重试");
        let (status, missing_key) = post_order(&app, &demo, "", &form).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(missing_key["msg"], "缺少有效的幂等键");

        // Straight to the origin, without the edge's check or with a wrong one: refused.
        let (status, unchecked) = app.post(&demo, "/api/order", &form).await;
        assert_eq!(status, StatusCode::FORBIDDEN);
        assert_eq!(unchecked["msg"], "订单未经校验，请刷新购物车后重新提交");
        let settlement = order_check::form::OrderForm::read(form.iter().copied()).unwrap().settlement_text();
        let forged = [
            format!("{}.{}", origin::now(), "00".repeat(32)),
            edge_check("another-key", &form),
            edge_check("key-1", &[("ids", ids.as_str()), ("expected_payable", "0.01")]),
            order_check::signature::sign(
                b"a guessed secret",
                &order_check::signature::Checked {
                    idempotency_key: "key-1",
                    ids: &[line],
                    expected_payable: &payable,
                    settlement: &settlement,
                },
                origin::now(),
            ),
            order_check::signature::sign(
                common::EDGE_SECRET.as_bytes(),
                &order_check::signature::Checked {
                    idempotency_key: "key-1",
                    ids: &[line],
                    expected_payable: &payable,
                    settlement: &settlement,
                },
                origin::now() - 3600,
            ),
        ];
        for check in forged {
            let response = demo
                .post(app.url("/api/order"))
                .header("Idempotency-Key", "key-1")
                .header(order_check::signature::HEADER, check)
                .form(&form)
                .send()
                .await
                .unwrap();
            assert_eq!(response.status(), StatusCode::FORBIDDEN);
        }
        let orders: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM orders").fetch_one(&app.db.pool).await.unwrap();
        assert_eq!(orders, 0, "no unchecked order was made");

        let (status, placed) = post_order(&app, &demo, "key-1", &form).await;
        assert_eq!(status, StatusCode::OK, "{placed}");
        let order_id = placed["data"]["id"].as_i64().unwrap();
        assert_eq!(placed["data"]["payable"], payable.as_str());
        assert_eq!(placed["data"]["status_name"], "待付款");
        assert_eq!(stock(&app, goods).await, stock_before - 12);
        let (_, cart) = app.get(&demo, "/api/cart/list").await;
        assert_eq!(cart["data"]["data"].as_array().unwrap().len(), 0, "ordered lines leave the cart");

        // The same key and body: the first answer again, no second order.
        let (status, again) = post_order(&app, &demo, "key-1", &form).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(again, placed);
        let (status, other_body) = post_order(&app, &demo, "key-1", &[("ids", &ids), ("address_id", &address)]).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(other_body["msg"], "该幂等键已用于其他请求");

        // What the edge asks before it refuses a retry: the kept answer, 404 for a new key,
        // 422 for another body; and only for the member who placed it.
        let answer = |client: &Client, key: &str, form: Vec<(&str, &str)>| {
            let request = client.post(app.url("/api/order/answer")).header("Idempotency-Key", key).form(&form);
            async move {
                let response = request.send().await.unwrap();
                (response.status(), response.json::<Value>().await.unwrap())
            }
        };
        assert_eq!(answer(&demo, "key-1", form.to_vec()).await, (StatusCode::OK, placed.clone()));
        assert_eq!(answer(&demo, "key-never-used", form.to_vec()).await.0, StatusCode::NOT_FOUND);
        assert_eq!(answer(&demo, "key-1", vec![("ids", &ids), ("address_id", &address)]).await.0, StatusCode::UNPROCESSABLE_ENTITY);
        let other = app.other_member().await;
        assert_eq!(answer(&other, "key-1", form.to_vec()).await.0, StatusCode::NOT_FOUND);

        let (_, orders) = app.get(&demo, "/api/order?status=0").await;
        assert_eq!(orders["data"]["total"], 1);
        let (_, detail) = app.get(&demo, &format!("/api/order/{order_id}")).await;
        assert_eq!(detail["data"]["items"][0]["number"], 12);
        assert_eq!(detail["data"]["remark"], "周一上午送货");

        let (status, _) = app.get(&other, &format!("/api/order/{order_id}")).await;
        assert_eq!(status, StatusCode::NOT_FOUND);
        let (status, _) = app.post(&other, &format!("/api/order/{order_id}/pay"), &[("method", "balance")]).await;
        assert_eq!(status, StatusCode::NOT_FOUND);
        let (_, theirs) = app.get(&other, "/api/order").await;
        assert_eq!(theirs["data"]["total"], 0);

        let balance_before: i64 =
            sqlx::query_scalar("SELECT balance FROM members WHERE username = 'demo'").fetch_one(&app.db.pool).await.unwrap();
        let (status, paid) = app.post(&demo, &format!("/api/order/{order_id}/pay"), &[("method", "balance")]).await;
        assert_eq!(status, StatusCode::OK, "{paid}");
        assert_eq!(paid["data"]["status_name"], "待发货");
        let balance_after: i64 =
            sqlx::query_scalar("SELECT balance FROM members WHERE username = 'demo'").fetch_one(&app.db.pool).await.unwrap();
        // Payment takes the amount due: the payable less what the settlement took off.
        let due = placed["data"]["due"].as_str().unwrap().to_owned();
        let due_stored = origin::money::parse_stored(&due).unwrap();
        assert_eq!(balance_before - balance_after, due_stored);
        let logged: i64 =
            sqlx::query_scalar("SELECT amount FROM balance_logs WHERE order_id = $1").bind(order_id).fetch_one(&app.db.pool).await.unwrap();
        assert_eq!(logged, -due_stored);
        let (_, wallet) = app.get(&demo, "/api/user/user_money").await;
        assert_eq!(wallet["data"]["balance"], origin::money::text(balance_after));
        let (_, log) = app.get(&demo, "/api/user/user_money_log?use_type=2").await;
        assert_eq!(log["data"]["list"][0]["amount"], format!("-{due}"));
        assert_eq!(log["data"]["list"][0]["order_id"], order_id);
        let (_, their_log) = app.get(&other, "/api/user/user_money_log").await;
        assert_eq!(their_log["data"]["total"], 0, "another member sees none of it");
        let (_, their_wallet) = app.get(&other, "/api/user/user_money").await;
        assert_eq!(their_wallet["data"]["balance"], "0.00");
        // Another member's address cannot receive this member's order.
        let their_address: i64 =
            sqlx::query_scalar("SELECT a.id FROM addresses a JOIN members m ON m.id = a.member_id WHERE m.username = 'other'")
                .fetch_one(&app.db.pool)
                .await
                .unwrap();
        let line = add_to_cart(&app, &demo, goods, 1, &[]).await.to_string();
        let (status, refused) = post_order(&app, &demo, "key-2", &[("ids", &line), ("address_id", &their_address.to_string())]).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(refused["msg"], "收货地址不存在");
        let (status, twice) = app.post(&demo, &format!("/api/order/{order_id}/pay"), &[("method", "balance")]).await;
        assert_eq!(status, StatusCode::CONFLICT);
        assert_eq!(twice["msg"], "当前订单状态为待发货，不能支付");
    })
    .await;
}

#[tokio::test]
async fn the_balance_never_goes_below_zero() {
    on_both(|app| async move {
        let demo = app.demo().await;
        let (goods, _) = ladder_goods(&app).await;
        let line = add_to_cart(&app, &demo, goods, 2, &[]).await;
        let address = address_of(&app, "demo").await.to_string();
        let (_, placed) = post_order(&app, &demo, "poor", &[("ids", &line.to_string()), ("address_id", &address)]).await;
        let order_id = placed["data"]["id"].as_i64().unwrap();
        sqlx::query("UPDATE members SET balance = 1 WHERE username = 'demo'").execute(&app.db.pool).await.unwrap();
        let (status, refused) = app.post(&demo, &format!("/api/order/{order_id}/pay"), &[("method", "balance")]).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(refused["msg"], "账户余额不足");
        let balance: i64 = sqlx::query_scalar("SELECT balance FROM members WHERE username = 'demo'").fetch_one(&app.db.pool).await.unwrap();
        assert_eq!(balance, 1);
        let (_, detail) = app.get(&demo, &format!("/api/order/{order_id}")).await;
        assert_eq!(detail["data"]["status"], 0, "a refused payment leaves the order unpaid");
    })
    .await;
}

#[tokio::test]
async fn one_key_sent_twenty_times_at_once_makes_one_order() {
    on_both(|app| async move {
        let demo = app.demo().await;
        let (goods, _) = ladder_goods(&app).await;
        let line = add_to_cart(&app, &demo, goods, 3, &[]).await.to_string();
        let address = address_of(&app, "demo").await.to_string();
        let requests = (0..20).map(|_| {
            let (demo, url, line, address) = (demo.clone(), app.url("/api/order"), line.clone(), address.clone());
            tokio::spawn(async move {
                let form = [("ids", line.as_str()), ("address_id", address.as_str())];
                let check = edge_check("same-key", &form);
                let response = demo
                    .post(url)
                    .header("Idempotency-Key", "same-key")
                    .header(order_check::signature::HEADER, check)
                    .form(&form)
                    .send()
                    .await
                    .unwrap();
                (response.status(), response.json::<Value>().await.unwrap())
            })
        });
        let answers: Vec<(StatusCode, Value)> = joined(requests.collect()).await;
        let orders: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM orders").fetch_one(&app.db.pool).await.unwrap();
        assert_eq!(orders, 1, "{}", app.database);
        let first = &answers[0];
        assert!(answers.iter().all(|answer| answer == first), "every request answers the one order");
        assert_eq!(first.0, StatusCode::OK);
    })
    .await;
}

#[tokio::test]
async fn two_hundred_orders_for_the_last_ten_units() {
    on_both(|app| async move {
        let (goods, _) = ladder_goods(&app).await;
        sqlx::query("UPDATE goods SET stock = 10 WHERE id = $1").bind(goods).execute(&app.db.pool).await.unwrap();
        // 200 approved members who signed the agreement, each with one unit in the cart and a session.
        let hash = origin::auth::hash_password("buyer123").unwrap();
        let mut buyers = Vec::new();
        for n in 0..200 {
            let (member, address) = approved_buyer(&app, &hash, "buyer", "137", n).await;
            let line: i64 = sqlx::query_scalar(
                "INSERT INTO cart_items (member_id, goods_id, number, price, created_at) \
                 SELECT $1, id, 1, price, 0 FROM goods WHERE id = $2 RETURNING id",
            )
            .bind(member)
            .bind(goods)
            .fetch_one(&app.db.pool)
            .await
            .unwrap();
            let token = origin::auth::open_session(&app.db, member).await.unwrap();
            buyers.push((token, line, address));
        }
        let client = Client::new();
        let requests = buyers.into_iter().enumerate().map(|(n, (token, line, address))| {
            let (client, url) = (client.clone(), app.url("/api/order"));
            tokio::spawn(async move {
                let response = client
                    .post(url)
                    .header("Cookie", format!("sid={token}"))
                    .header("Idempotency-Key", format!("race-{n}"))
                    .header(order_check::signature::HEADER, edge_check(&format!("race-{n}"), &[("ids", line.to_string().as_str())]))
                    .form(&[("ids", line.to_string()), ("address_id", address.to_string())])
                    .send()
                    .await
                    .unwrap();
                (response.status(), response.json::<Value>().await.unwrap())
            })
        });
        let answers = joined(requests.collect()).await;
        let placed = answers.iter().filter(|(status, _)| *status == StatusCode::OK).count();
        // Refused as over stock (a race lost in the transaction) or as not buyable (the stock
        // was already gone when the cart was read).
        let refused = answers
            .iter()
            .filter(|(status, body)| {
                *status == StatusCode::UNPROCESSABLE_ENTITY
                    && (body["msg"] == "部分商品库存不足，请修改数量后重试" || body["msg"] == "部分商品暂不可购买，请刷新购物车后重试")
            })
            .count();
        assert_eq!(
            placed,
            10,
            "{}: {:?}",
            app.database,
            answers.iter().find(|(status, _)| *status != StatusCode::OK && *status != StatusCode::UNPROCESSABLE_ENTITY)
        );
        assert_eq!(refused, 190);
        assert_eq!(stock(&app, goods).await, 0);
        let orders: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM orders").fetch_one(&app.db.pool).await.unwrap();
        assert_eq!(orders, 10);
    })
    .await;
}
