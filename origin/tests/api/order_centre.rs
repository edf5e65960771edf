//! The order centre on SQLite and PostgreSQL: an order through its life (placed, paid, shipped
//! by the operator, received) with its timeline and logistics; every refused change (409, the
//! state named); shipped orders completed by the task when due; the list by state, order
//! number, goods name and dates with its counts; buying again; and another member kept out of
//! all of it.

use reqwest::{Client, StatusCode};
use serde_json::Value;

use crate::common::{App, add_to_cart, address_of, admin, ladder_goods, on_both, post_order};

/// Places an order of `number` of the ladder goods for the demo member and pays it from the
/// balance; answers its id.
async fn paid_order(app: &App, client: &Client, key: &str, number: i64) -> i64 {
    let (goods, _) = ladder_goods(app).await;
    let ids = add_to_cart(app, client, goods, number, &[]).await.to_string();
    let (_, list) = app.get(client, "/api/cart/list").await;
    let payable = list["data"]["quote"]["totals"]["payable"].as_str().unwrap().to_owned();
    let address = address_of(app, "demo").await.to_string();
    let form = [("ids", ids.as_str()), ("address_id", address.as_str()), ("expected_payable", payable.as_str())];
    let (status, placed) = post_order(app, client, key, &form).await;
    assert_eq!(status, StatusCode::OK, "{placed}");
    let id = placed["data"]["id"].as_i64().unwrap();
    let (status, paid) = app.post(client, &format!("/api/order/{id}/pay"), &[("method", "balance")]).await;
    assert_eq!(status, StatusCode::OK, "{paid}");
    id
}

fn timeline(order: &Value) -> Vec<(String, String)> {
    order["timeline"]
        .as_array()
        .unwrap()
        .iter()
        .map(|event| (event["action"].as_str().unwrap().to_owned(), event["actor"].as_str().unwrap().to_owned()))
        .collect()
}

#[tokio::test]
async fn an_order_is_shipped_received_and_followed_and_nothing_else_is_allowed() {
    on_both(|app| async move {
        let demo = app.demo().await;
        let id = paid_order(&app, &demo, "life-1", 12).await;
        let (status, refused) = app.post(&demo, &format!("/api/order/{id}/receive"), &[]).await;
        assert_eq!((status, refused["msg"].as_str()), (StatusCode::CONFLICT, Some("当前订单状态为待发货，不能确认收货")));
        let (_, order) = app.get(&demo, &format!("/api/order/{id}")).await;
        assert_eq!(order["data"]["actions"], serde_json::json!(["invoice", "after_sales", "buy_again"]));
        assert_eq!(order["data"]["pay_method"], "balance");

        assert!(admin(&app, &["ship", &id.to_string(), "--carrier", " ", "--tracking", "1"]).await.is_err(), "a carrier is needed");
        admin(&app, &["--operator", "仓库", "ship", &id.to_string(), "--carrier", "顺丰速运", "--tracking", "SF1234567890"]).await.unwrap();
        let twice = admin(&app, &["ship", &id.to_string(), "--carrier", "顺丰速运", "--tracking", "SF1"]).await;
        assert!(twice.unwrap_err().to_string().contains("订单已全部发货"));
        admin(&app, &["logistics", &id.to_string(), "--place", "杭州转运中心", "--description", "快件已到达杭州转运中心"]).await.unwrap();
        let (_, order) = app.get(&demo, &format!("/api/order/{id}")).await;
        let order = &order["data"];
        assert_eq!(
            (order["status_name"].as_str(), order["carrier"].as_str(), order["tracking_no"].as_str()),
            (Some("待收货"), Some("顺丰速运"), Some("SF1234567890"))
        );
        assert_eq!(order["logistics"].as_array().unwrap().len(), 2);
        assert_eq!(order["logistics"][1]["place"], "杭州转运中心");
        assert!(order["actions"].as_array().unwrap().contains(&Value::from("receive")));
        let (status, _) = app.post(&demo, &format!("/api/order/{id}/cancel"), &[]).await;
        assert_eq!(status, StatusCode::CONFLICT, "a shipped order cannot be cancelled");

        // Another member: nothing to see, nothing to do.
        let other = app.other_member().await;
        for path in [format!("/api/order/{id}/receive"), format!("/api/order/{id}/buy_again"), format!("/api/order/{id}/cancel")] {
            let (status, _) = app.post(&other, &path, &[]).await;
            assert_eq!(status, StatusCode::NOT_FOUND, "{path}");
        }
        let (status, _) = app.get(&other, &format!("/api/order/{id}")).await;
        assert_eq!(status, StatusCode::NOT_FOUND);
        let (_, theirs) = app.get(&other, "/api/order").await;
        assert_eq!(theirs["data"]["total"], 0);

        let (status, received) = app.post(&demo, &format!("/api/order/{id}/receive"), &[]).await;
        assert_eq!(status, StatusCode::OK, "{received}");
        assert_eq!(received["data"]["status_name"], "已完成");
        assert!(received["data"]["done_at"].is_i64());
        let pairs: Vec<(String, String)> = ["place:member", "pay:member", "ship:operator", "receive:member"]
            .iter()
            .map(|pair| pair.split_once(':').map(|(a, b)| (a.to_owned(), b.to_owned())).unwrap())
            .collect();
        assert_eq!(timeline(&received["data"]), pairs);
        let (status, refused) = app.post(&demo, &format!("/api/order/{id}/receive"), &[]).await;
        assert_eq!((status, refused["msg"].as_str()), (StatusCode::CONFLICT, Some("当前订单状态为已完成，不能确认收货")));
        let messages: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM messages m JOIN members u ON u.id = m.member_id WHERE u.username = 'demo' AND m.title = '订单已发货'",
        )
        .fetch_one(&app.db.pool)
        .await
        .unwrap();
        assert_eq!(messages, 1);
    })
    .await;
}

#[tokio::test]
async fn shipped_orders_complete_by_themselves_when_due() {
    on_both(|app| async move {
        let demo = app.demo().await;
        let id = paid_order(&app, &demo, "due-receive", 12).await;
        admin(&app, &["ship", &id.to_string(), "--carrier", "中通快递", "--tracking", "ZT9"]).await.unwrap();
        let day = 86_400;
        assert_eq!(origin::domain::orders::due::complete_due(&app.db, origin::now() + 9 * day, 10 * day).await.unwrap(), 0);
        assert_eq!(origin::domain::orders::due::complete_due(&app.db, origin::now() + 11 * day, 10 * day).await.unwrap(), 1);
        assert_eq!(origin::domain::orders::due::complete_due(&app.db, origin::now() + 12 * day, 10 * day).await.unwrap(), 0, "once");
        let (_, order) = app.get(&demo, &format!("/api/order/{id}")).await;
        assert_eq!(order["data"]["status_name"], "已完成");
        assert_eq!(timeline(&order["data"]).last().unwrap(), &("receive".to_owned(), "system".to_owned()));
    })
    .await;
}

#[tokio::test]
async fn the_list_is_searched_and_counted_and_an_order_is_bought_again() {
    on_both(|app| async move {
        let demo = app.demo().await;
        let first = paid_order(&app, &demo, "list-1", 12).await;
        // A second, unpaid order of other goods.
        let other_goods: (i64, String) = sqlx::query_as(
            "SELECT id, name FROM goods WHERE is_buy = 1 AND stock > 100 AND id NOT IN (SELECT goods_id FROM flash_sales) \
             AND id NOT IN (SELECT goods_id FROM goods_ladders) ORDER BY id DESC LIMIT 1",
        )
        .fetch_one(&app.db.pool)
        .await
        .unwrap();
        let ids = add_to_cart(&app, &demo, other_goods.0, 2, &[]).await.to_string();
        let (_, list) = app.get(&demo, "/api/cart/list").await;
        let payable = list["data"]["quote"]["totals"]["payable"].as_str().unwrap().to_owned();
        let address = address_of(&app, "demo").await.to_string();
        let (_, placed) =
            post_order(&app, &demo, "list-2", &[("ids", &ids), ("address_id", &address), ("expected_payable", &payable)]).await;
        let second = placed["data"]["id"].as_i64().unwrap();
        let second_no = placed["data"]["order_no"].as_str().unwrap().to_owned();

        let (status, all) = app.get(&demo, "/api/order").await;
        assert_eq!(status, StatusCode::OK, "{all}");
        assert_eq!(all["data"]["total"], 2);
        assert_eq!(all["data"]["list"][0]["id"], second, "newest first");
        let counts: Vec<i64> = all["data"]["counts"].as_array().unwrap().iter().map(|state| state["count"].as_i64().unwrap()).collect();
        assert_eq!(counts, vec![1, 1, 0, 0, 0]);
        let (_, unpaid) = app.get(&demo, "/api/order?status=0").await;
        assert_eq!((unpaid["data"]["total"].as_i64(), unpaid["data"]["list"][0]["id"].as_i64()), (Some(1), Some(second)));
        let (_, by_no) = app.get(&demo, &format!("/api/order?keyword={second_no}")).await;
        assert_eq!(by_no["data"]["total"], 1);
        let name: String = other_goods.1.chars().take(4).collect();
        let (_, by_name) = app.get(&demo, &format!("/api/order?keyword={}", crate::common::urlencode(&name))).await;
        assert!(by_name["data"]["list"].as_array().unwrap().iter().any(|order| order["id"] == second), "{by_name}");
        let (_, none) = app.get(&demo, "/api/order?keyword=%25").await;
        assert_eq!(none["data"]["total"], 0, "a % is a character, not a wildcard");
        let (_, later) = app.get(&demo, &format!("/api/order?start_time={}", origin::now() + 3600)).await;
        assert_eq!(later["data"]["total"], 0);
        for bad in ["status=9", "start_time=10&end_time=5"] {
            let (status, _) = app.get(&demo, &format!("/api/order?{bad}")).await;
            assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{bad}");
        }

        // Buying the first again: its goods back in the cart, through the cart's own checks.
        let (_, cart) = app.get(&demo, "/api/cart/list").await;
        assert_eq!(cart["data"]["data"].as_array().unwrap().len(), 0);
        let (status, again) = app.post(&demo, &format!("/api/order/{first}/buy_again"), &[]).await;
        assert_eq!(status, StatusCode::OK, "{again}");
        assert_eq!((again["data"]["added"].as_i64(), again["data"]["cart"].as_i64()), (Some(1), Some(1)));
        // Goods no longer for sale are named with the cart's reason.
        sqlx::query("UPDATE goods SET is_buy = 0 WHERE id = $1").bind(other_goods.0).execute(&app.db.pool).await.unwrap();
        let (_, again) = app.post(&demo, &format!("/api/order/{second}/buy_again"), &[]).await;
        assert_eq!(again["data"]["added"], 0);
        assert_eq!(again["data"]["skipped"].as_array().unwrap().len(), 1);
        assert_eq!(again["data"]["skipped"][0]["name"], other_goods.1.as_str());
    })
    .await;
}
