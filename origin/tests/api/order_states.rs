//! What guards an order, over HTTP on SQLite and PostgreSQL: cancelling gives the stock back
//! once (by the member, or when the order stays unpaid too long, also by an origin started
//! after the order fell due), payment and cancellation
//! never both win, only approved members who signed the agreement order, flash-sale limits
//! hold across orders and under concurrency, a combination takes the stock of the goods inside
//! it, and the balance pays each order once and never two it cannot cover.

use crate::common::{App, add_to_cart, address_of, approved_buyer, edge_check, every_class, joined, ladder_goods, on_both, post_order};
use reqwest::{Client, StatusCode};
use serde_json::Value;

/// Posts an order of `lines` as the edge forwards one it checked.
async fn order(app: &App, client: &Client, key: &str, lines: &[i64], address: i64) -> (StatusCode, Value) {
    let ids = lines.iter().map(i64::to_string).collect::<Vec<_>>().join(",");
    let address = address.to_string();
    post_order(app, client, key, &[("ids", ids.as_str()), ("address_id", address.as_str())]).await
}

/// Places an order of `lines` and answers its id.
async fn placed(app: &App, client: &Client, key: &str, lines: &[i64], address: i64) -> i64 {
    let (status, body) = order(app, client, key, lines, address).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    body["data"]["id"].as_i64().unwrap()
}

/// Every goods' stock and sales, and every combination's stock.
async fn stocks(app: &App) -> (Vec<(i64, i64, i64)>, Vec<(i64, i64)>) {
    let goods = sqlx::query_as("SELECT id, stock, sales FROM goods ORDER BY id").fetch_all(&app.db.pool).await.unwrap();
    let combinations = sqlx::query_as("SELECT id, stock FROM combinations ORDER BY id").fetch_all(&app.db.pool).await.unwrap();
    (goods, combinations)
}

async fn scalar(app: &App, sql: &str, id: i64) -> i64 {
    sqlx::query_scalar(sqlx::AssertSqlSafe(sql.to_owned())).bind(id).fetch_one(&app.db.pool).await.unwrap()
}

async fn balance(app: &App) -> i64 {
    sqlx::query_scalar("SELECT balance FROM members WHERE username = 'demo'").fetch_one(&app.db.pool).await.unwrap()
}

/// A combination that can be bought, one goods of it and its parts (goods, units per set).
async fn combination(app: &App) -> (i64, i64, Vec<(i64, i64)>) {
    let (id, goods): (i64, i64) = sqlx::query_as(
        "SELECT c.id, MIN(i.goods_id) FROM combinations c JOIN combination_items i ON i.combination_id = c.id \
         JOIN goods g ON g.id = i.goods_id WHERE c.stock > 0 GROUP BY c.id HAVING MIN(g.is_buy) = 1 AND COUNT(*) >= 2 ORDER BY c.id LIMIT 1",
    )
    .fetch_one(&app.db.pool)
    .await
    .unwrap();
    let parts = sqlx::query_as("SELECT goods_id, number FROM combination_items WHERE combination_id = $1 ORDER BY goods_id")
        .bind(id)
        .fetch_all(&app.db.pool)
        .await
        .unwrap();
    (id, goods, parts)
}

/// Runs the tasks at once and answers their results in order.
async fn post_form(client: Client, url: String, form: Vec<(&'static str, String)>) -> (StatusCode, Value) {
    let response = client.post(url).form(&form).send().await.unwrap();
    (response.status(), response.json::<Value>().await.unwrap())
}

#[tokio::test]
async fn cancelling_gives_the_stock_back_once() {
    on_both(|app| async move {
        let demo = app.demo().await;
        let address = address_of(&app, "demo").await;
        let (goods, _) = ladder_goods(&app).await;
        let (combination, part, parts) = combination(&app).await;
        let before = stocks(&app).await;
        let plain = add_to_cart(&app, &demo, goods, 12, &[]).await;
        let set = add_to_cart(&app, &demo, part, 2, &[("type", "3".into()), ("combination_id", combination.to_string())]).await;
        let id = placed(&app, &demo, "cancel-1", &[plain, set], address).await;

        // The order took the goods line's stock, the combination's, and each goods inside it.
        let combination_stock = scalar(&app, "SELECT stock FROM combinations WHERE id = $1", combination).await;
        assert_eq!(combination_stock, before.1.iter().find(|(id, _)| *id == combination).unwrap().1 - 2);
        for (part, per_set) in &parts {
            let was = before.0.iter().find(|(id, _, _)| id == part).unwrap().1;
            let taken = 2 * per_set + if *part == goods { 12 } else { 0 };
            assert_eq!(scalar(&app, "SELECT stock FROM goods WHERE id = $1", *part).await, was - taken, "goods {part} of the combination");
        }
        assert_ne!(stocks(&app).await, before);

        let other = app.other_member().await;
        let (status, _) = app.post(&other, &format!("/api/order/{id}/cancel"), &[]).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "another member's order is not theirs to cancel");

        let (status, cancelled) = app.post(&demo, &format!("/api/order/{id}/cancel"), &[]).await;
        assert_eq!(status, StatusCode::OK, "{cancelled}");
        assert_eq!(cancelled["data"]["status"], 4);
        assert_eq!(cancelled["data"]["status_name"], "已取消");
        assert!(cancelled["data"]["cancelled_at"].is_i64());
        assert_eq!(stocks(&app).await, before, "every unit went back: goods, sales, combinations");

        let (status, twice) = app.post(&demo, &format!("/api/order/{id}/cancel"), &[]).await;
        assert_eq!(status, StatusCode::CONFLICT);
        assert_eq!(twice["msg"], "当前订单状态为已取消，不能取消");
        assert_eq!(stocks(&app).await, before, "a second cancel gives nothing back");
        let (status, _) = app.post(&demo, &format!("/api/order/{id}/pay"), &[("method", "balance")]).await;
        assert_eq!(status, StatusCode::CONFLICT, "a cancelled order cannot be paid");

        // A paid order cannot be cancelled: its stock stays taken.
        let plain = add_to_cart(&app, &demo, goods, 3, &[]).await;
        let id = placed(&app, &demo, "cancel-2", &[plain], address).await;
        let (status, paid) = app.post(&demo, &format!("/api/order/{id}/pay"), &[("method", "balance")]).await;
        assert_eq!(status, StatusCode::OK, "{paid}");
        let taken = stocks(&app).await;
        let (status, refused) = app.post(&demo, &format!("/api/order/{id}/cancel"), &[]).await;
        assert_eq!(status, StatusCode::CONFLICT);
        assert_eq!(refused["msg"], "当前订单状态为待发货，不能取消");
        assert_eq!(stocks(&app).await, taken);
        let (_, detail) = app.get(&demo, &format!("/api/order/{id}")).await;
        assert_eq!(detail["data"]["status"], 1);
    })
    .await;
}

#[tokio::test]
async fn unpaid_orders_are_cancelled_when_due() {
    on_both(|app| async move {
        let demo = app.demo().await;
        let address = address_of(&app, "demo").await;
        let (goods, _) = ladder_goods(&app).await;
        let before = stocks(&app).await;
        let line = add_to_cart(&app, &demo, goods, 5, &[]).await;
        let unpaid = placed(&app, &demo, "due-1", &[line], address).await;
        let line = add_to_cart(&app, &demo, goods, 4, &[]).await;
        let paid = placed(&app, &demo, "due-2", &[line], address).await;
        let (status, _) = app.post(&demo, &format!("/api/order/{paid}/pay"), &[("method", "balance")]).await;
        assert_eq!(status, StatusCode::OK);
        let placed_stock = scalar(&app, "SELECT stock FROM goods WHERE id = $1", goods).await;
        let pay_seconds = 30 * 60;

        // The task's pass with its clock 29 minutes on: nothing is due yet.
        let cancelled = origin::domain::orders::due::cancel_due(&app.db, origin::now() + 29 * 60, pay_seconds).await.unwrap();
        assert_eq!(cancelled, 0);
        assert_eq!(scalar(&app, "SELECT stock FROM goods WHERE id = $1", goods).await, placed_stock);
        // 31 minutes on: the unpaid order is cancelled and its stock given back; the paid one stays.
        let cancelled = origin::domain::orders::due::cancel_due(&app.db, origin::now() + 31 * 60, pay_seconds).await.unwrap();
        assert_eq!(cancelled, 1);
        assert_eq!(scalar(&app, "SELECT stock FROM goods WHERE id = $1", goods).await, placed_stock + 5);
        let (_, detail) = app.get(&demo, &format!("/api/order/{unpaid}")).await;
        assert_eq!(detail["data"]["status_name"], "已取消");
        let (_, detail) = app.get(&demo, &format!("/api/order/{paid}")).await;
        assert_eq!(detail["data"]["status_name"], "待发货");
        // A second pass finds nothing more, and gives nothing back again.
        let cancelled = origin::domain::orders::due::cancel_due(&app.db, origin::now() + 60 * 60, pay_seconds).await.unwrap();
        assert_eq!(cancelled, 0);
        let goods_before = before.0.iter().find(|(id, _, _)| *id == goods).unwrap().1;
        assert_eq!(
            scalar(&app, "SELECT stock FROM goods WHERE id = $1", goods).await,
            goods_before - 4,
            "only the paid order's units are gone"
        );
        let (status, _) = app.post(&demo, &format!("/api/order/{unpaid}/pay"), &[("method", "balance")]).await;
        assert_eq!(status, StatusCode::CONFLICT, "an order cancelled when due cannot be paid");
    })
    .await;
}

/// The task finds what is due from the database, not from memory: an order that fell due while
/// no origin ran (its placing time moved back 31 minutes) is cancelled by an origin started
/// afterwards, once, its stock given back once.
#[tokio::test]
async fn an_origin_started_after_an_order_fell_due_cancels_it() {
    on_both(|app| async move {
        let demo = app.demo().await;
        let address = address_of(&app, "demo").await;
        let (goods, _) = ladder_goods(&app).await;
        let line = add_to_cart(&app, &demo, goods, 6, &[]).await;
        let unpaid = placed(&app, &demo, "restart-1", &[line], address).await;
        let placed_stock = scalar(&app, "SELECT stock FROM goods WHERE id = $1", goods).await;
        sqlx::query("UPDATE orders SET created_at = created_at - 31 * 60 WHERE id = $1").bind(unpaid).execute(&app.db.pool).await.unwrap();

        let (restarted, stop) = app.another_origin().await;
        let mut status = 0;
        for _ in 0..100 {
            status = scalar(&restarted, "SELECT status FROM orders WHERE id = $1", unpaid).await;
            if status == origin::domain::orders::life::OrderStatus::Cancelled.code() {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
        assert_eq!(status, origin::domain::orders::life::OrderStatus::Cancelled.code(), "the restarted origin's first pass cancels it");
        let (third, stop_third) = app.another_origin().await;
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
        assert_eq!(scalar(&third, "SELECT stock FROM goods WHERE id = $1", goods).await, placed_stock + 6, "given back once");
        let cancels =
            scalar(&app, "SELECT COUNT(*) FROM order_events WHERE order_id = $1 AND action = 'cancel' AND actor = 'system'", unpaid).await;
        assert_eq!(cancels, 1);
        drop((stop, stop_third));
    })
    .await;
}

#[tokio::test]
async fn cancel_racing_payment_one_wins() {
    on_both(|app| async move {
        let demo = app.demo().await;
        let address = address_of(&app, "demo").await;
        let (goods, _) = ladder_goods(&app).await;
        let stock_before = scalar(&app, "SELECT stock FROM goods WHERE id = $1", goods).await;
        let balance_before = balance(&app).await;
        let mut orders = Vec::new();
        for n in 0..8 {
            let line = add_to_cart(&app, &demo, goods, 2, &[]).await;
            orders.push(placed(&app, &demo, &format!("race-{n}"), &[line], address).await);
        }
        let mut tasks = Vec::new();
        for id in &orders {
            for path in [format!("/api/order/{id}/pay"), format!("/api/order/{id}/cancel")] {
                tasks.push(tokio::spawn(post_form(demo.clone(), app.url(&path), vec![("method", "balance".to_owned())])));
            }
        }
        let answers = joined(tasks).await;
        let mut paid = 0;
        for (n, pair) in answers.chunks(2).enumerate() {
            let won: Vec<bool> = pair.iter().map(|(status, _)| *status == StatusCode::OK).collect();
            assert_eq!(won.iter().filter(|won| **won).count(), 1, "{}: order {n}: {pair:?}", app.database);
            let loser = pair.iter().find(|(status, _)| *status != StatusCode::OK).unwrap();
            assert_eq!(loser.0, StatusCode::CONFLICT, "{loser:?}");
            paid += usize::from(won[0]);
        }
        // Each order settled with the best coupon left when it was placed: their dues differ.
        let paid_due: i64 = sqlx::query_scalar("SELECT CAST(COALESCE(SUM(due), 0) AS BIGINT) FROM orders WHERE status = 1")
            .fetch_one(&app.db.pool)
            .await
            .unwrap();
        let paid_orders: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM orders WHERE status = 1").fetch_one(&app.db.pool).await.unwrap();
        let cancelled: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM orders WHERE status = 4").fetch_one(&app.db.pool).await.unwrap();
        assert_eq!((paid_orders as usize, cancelled as usize), (paid, orders.len() - paid));
        assert_eq!(balance(&app).await, balance_before - paid_due, "only the paid orders were debited");
        assert_eq!(
            scalar(&app, "SELECT stock FROM goods WHERE id = $1", goods).await,
            stock_before - 2 * paid as i64,
            "only the paid orders hold stock"
        );
        let debits: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM balance_logs WHERE use_type = 2").fetch_one(&app.db.pool).await.unwrap();
        assert_eq!(debits as usize, paid);
    })
    .await;
}

#[tokio::test]
async fn concurrent_payments_of_one_order_debit_once() {
    on_both(|app| async move {
        let demo = app.demo().await;
        let address = address_of(&app, "demo").await;
        let (goods, _) = ladder_goods(&app).await;
        let line = add_to_cart(&app, &demo, goods, 3, &[]).await;
        let id = placed(&app, &demo, "pay-once", &[line], address).await;
        let due = scalar(&app, "SELECT due FROM orders WHERE id = $1", id).await;
        let before = balance(&app).await;
        let tasks = (0..20)
            .map(|_| {
                tokio::spawn(post_form(demo.clone(), app.url(&format!("/api/order/{id}/pay")), vec![("method", "balance".to_owned())]))
            })
            .collect();
        let answers = joined(tasks).await;
        assert_eq!(answers.iter().filter(|(status, _)| *status == StatusCode::OK).count(), 1, "{}: {answers:?}", app.database);
        assert!(answers.iter().all(|(status, _)| *status == StatusCode::OK || *status == StatusCode::CONFLICT), "{answers:?}");
        assert_eq!(balance(&app).await, before - due);
        let debits = scalar(&app, "SELECT COUNT(*) FROM balance_logs WHERE order_id = $1", id).await;
        assert_eq!(debits, 1);
    })
    .await;
}

#[tokio::test]
async fn two_orders_beyond_the_balance_cannot_both_be_paid() {
    on_both(|app| async move {
        let demo = app.demo().await;
        let address = address_of(&app, "demo").await;
        let (goods, _) = ladder_goods(&app).await;
        let line = add_to_cart(&app, &demo, goods, 2, &[]).await;
        let first = placed(&app, &demo, "poor-1", &[line], address).await;
        let line = add_to_cart(&app, &demo, goods, 3, &[]).await;
        let second = placed(&app, &demo, "poor-2", &[line], address).await;
        let payables = [
            scalar(&app, "SELECT due FROM orders WHERE id = $1", first).await,
            scalar(&app, "SELECT due FROM orders WHERE id = $1", second).await,
        ];
        // Enough for either order, not for both.
        let balance_before = payables[0] + payables[1] - 1;
        sqlx::query("UPDATE members SET balance = $1 WHERE username = 'demo'").bind(balance_before).execute(&app.db.pool).await.unwrap();
        let tasks = [first, second]
            .iter()
            .map(|id| {
                tokio::spawn(post_form(demo.clone(), app.url(&format!("/api/order/{id}/pay")), vec![("method", "balance".to_owned())]))
            })
            .collect();
        let answers = joined(tasks).await;
        let won: Vec<usize> = (0..2).filter(|n| answers[*n].0 == StatusCode::OK).collect();
        assert_eq!(won.len(), 1, "{}: {answers:?}", app.database);
        let lost = 1 - won[0];
        assert_eq!(answers[lost].0, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(answers[lost].1["msg"], "账户余额不足");
        assert_eq!(balance(&app).await, balance_before - payables[won[0]]);
        let unpaid = scalar(&app, "SELECT status FROM orders WHERE id = $1", [first, second][lost]).await;
        assert_eq!(unpaid, 0, "the order the balance could not cover stays unpaid");
    })
    .await;
}

#[tokio::test]
async fn only_approved_members_who_signed_the_agreement_order() {
    on_both(|app| async move {
        let other = app.other_member().await;
        let address = address_of(&app, "other").await;
        // A member is created neither signed nor approved; the demo member is both.
        let standing: Vec<(String, i64, i64)> =
            sqlx::query_as("SELECT username, agreement_signed, is_passed FROM members ORDER BY username")
                .fetch_all(&app.db.pool)
                .await
                .unwrap();
        assert_eq!(standing, [("demo".to_owned(), 1, 1), ("other".to_owned(), 0, 0)]);
        let (goods, _) = ladder_goods(&app).await;
        // A member not approved sees no prices and cannot fill a cart (docs/compliance.md); a
        // line it kept from before (an approval withdrawn) is checked out in this order.
        let (status, refused) = app.post(&other, "/api/cart", &[("goods_id", &goods.to_string()), ("number", "2")]).await;
        assert_eq!((status, refused["msg"].as_str()), (StatusCode::FORBIDDEN, Some("资质认证通过后方可采购")));
        let line: i64 = sqlx::query_scalar(
            "INSERT INTO cart_items (member_id, goods_id, type, activity_id, number, price, is_selected, with_coupon, \
             goods_price_id, ladder_price_id, goods_manjian_id, is_yj, created_at) \
             SELECT m.id, g.id, 0, 0, 2, g.price, 1, 1, 0, 0, 0, 0, 0 FROM members m, goods g WHERE m.username = 'other' AND g.id = $1 \
             RETURNING id",
        )
        .bind(goods)
        .fetch_one(&app.db.pool)
        .await
        .unwrap();
        let ids = line.to_string();

        // Not signed: 459 (HTTP 200), so the web app opens /dzht; checked before the approval.
        let (status, refused) = app.post(&other, "/api/cart/checkout", &[("ids", &ids)]).await;
        assert_eq!((status, refused["code"].as_i64()), (StatusCode::OK, Some(459)), "{refused}");
        assert_eq!(refused["msg"], "请先签署电子合同");
        let (status, refused) = order(&app, &other, "approval-1", &[line], address).await;
        assert_eq!((status, refused["code"].as_i64()), (StatusCode::OK, Some(459)), "{refused}");

        // The member reads the agreement at /dzht and signs it: agreeing is required, and the
        // signer's name; signing twice changes nothing.
        let (status, agreement) = app.get(&other, "/api/user/agreement").await;
        assert_eq!(status, StatusCode::OK, "{agreement}");
        assert_eq!((agreement["data"]["signed"].as_i64(), agreement["data"]["buyer"].as_str()), (Some(0), Some("别家药房")));
        assert!(agreement["data"]["clauses"].as_array().unwrap().len() >= 5);
        let (status, refused) = app.post(&other, "/api/user/agreement/sign", &[("signer", "王五")]).await;
        assert_eq!((status, refused["msg"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("请阅读并同意电子合同")));
        let (status, refused) = app.post(&other, "/api/user/agreement/sign", &[("agree", "1"), ("signer", " ")]).await;
        assert_eq!((status, refused["msg"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("请填写签署人")));
        let (status, signed) = app.post(&other, "/api/user/agreement/sign", &[("agree", "1"), ("signer", "王五")]).await;
        assert_eq!(status, StatusCode::OK, "{signed}");
        assert_eq!((signed["data"]["signed"].as_i64(), signed["data"]["signer"].as_str()), (Some(1), Some("王五")));
        let signed_at = signed["data"]["signed_at"].as_i64().unwrap();
        assert!(signed_at > 0);
        let (_, again) = app.post(&other, "/api/user/agreement/sign", &[("agree", "1"), ("signer", "赵六")]).await;
        assert_eq!((again["data"]["signer"].as_str(), again["data"]["signed_at"].as_i64()), (Some("王五"), Some(signed_at)));
        let messages: i64 =
            sqlx::query_scalar("SELECT COUNT(*) FROM messages WHERE title = '电子合同已签署'").fetch_one(&app.db.pool).await.unwrap();
        assert_eq!(messages, 1);
        assert_eq!(app.get(&app.client(), "/api/user/agreement").await.0, StatusCode::UNAUTHORIZED);

        // Signed, not approved: 403.
        let (status, refused) = app.post(&other, "/api/cart/checkout", &[("ids", &ids)]).await;
        assert_eq!(status, StatusCode::FORBIDDEN);
        assert_eq!(refused["msg"], "资质审核通过后方可下单");
        let (status, refused) = order(&app, &other, "approval-1", &[line], address).await;
        assert_eq!(status, StatusCode::FORBIDDEN);
        assert_eq!(refused["msg"], "资质审核通过后方可下单");
        let orders: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM orders").fetch_one(&app.db.pool).await.unwrap();
        assert_eq!(orders, 0);

        // Approved: the same key orders (the refusal was not kept under it).
        sqlx::query("UPDATE members SET is_passed = 1 WHERE username = 'other'").execute(&app.db.pool).await.unwrap();
        let other_id: i64 = sqlx::query_scalar("SELECT id FROM members WHERE username = 'other'").fetch_one(&app.db.pool).await.unwrap();
        every_class(&app, other_id).await;
        let (status, preview) = app.post(&other, "/api/cart/checkout", &[("ids", &ids)]).await;
        assert_eq!(status, StatusCode::OK, "{preview}");
        let (status, placed) = order(&app, &other, "approval-1", &[line], address).await;
        assert_eq!(status, StatusCode::OK, "{placed}");
    })
    .await;
}

/// A running flash sale limited to `limit` per member, its goods in stock, and the goods' unit.
async fn flash_sale(app: &App, limit: i64) -> (i64, i64, String) {
    let (sale, goods, unit): (i64, i64, String) = sqlx::query_as(
        "SELECT f.id, f.goods_id, g.bzdw FROM flash_sales f JOIN goods g ON g.id = f.goods_id \
         WHERE g.is_buy = 1 AND f.starts_at <= $1 AND f.ends_at > $1 ORDER BY f.id LIMIT 1",
    )
    .bind(origin::now())
    .fetch_one(&app.db.pool)
    .await
    .unwrap();
    sqlx::query("UPDATE flash_sales SET limit_number = $1 WHERE id = $2").bind(limit).bind(sale).execute(&app.db.pool).await.unwrap();
    sqlx::query("UPDATE goods SET stock = 1000 WHERE id = $1").bind(goods).execute(&app.db.pool).await.unwrap();
    (sale, goods, unit)
}

#[tokio::test]
async fn a_flash_sale_limit_counts_what_was_ordered() {
    on_both(|app| async move {
        let demo = app.demo().await;
        let address = address_of(&app, "demo").await;
        let (sale, goods, unit) = flash_sale(&app, 3).await;
        let flash = [("type", "1".to_owned())];
        let line = add_to_cart(&app, &demo, goods, 3, &flash).await;
        let id = placed(&app, &demo, "sale-1", &[line], address).await;
        let recorded: (i64, i64) =
            sqlx::query_as("SELECT type, activity_id FROM order_items WHERE order_id = $1").bind(id).fetch_one(&app.db.pool).await.unwrap();
        assert_eq!(recorded, (1, sale), "the item records its flash sale");
        // Unpaid, it shows when it will be cancelled: ORDER_PAY_MINUTES after it was placed.
        let (_, detail) = app.get(&demo, &format!("/api/order/{id}")).await;
        let placed_at = detail["data"]["created_at"].as_i64().unwrap();
        assert_eq!(detail["data"]["pay_deadline"].as_i64(), Some(placed_at + 60 * origin::domain::orders::due::DEFAULT_PAY_MINUTES as i64));
        // Bought again, its goods comes back at today's price, and the answer says why.
        let (status, again) = app.post(&demo, &format!("/api/order/{id}/buy_again"), &[]).await;
        assert_eq!(status, StatusCode::OK, "{again}");
        assert_eq!(again["data"]["notes"].as_array().unwrap().len(), 1, "{again}");
        assert_eq!(again["data"]["notes"][0]["reason"], "秒杀价仅限活动期间，已按当前价格加入购物车");
        let back: i64 = scalar(&app, "SELECT COUNT(*) FROM cart_items WHERE goods_id = $1 AND type = 0", goods).await;
        assert_eq!(back, 1, "as a normal line");
        sqlx::query("DELETE FROM cart_items WHERE goods_id = $1 AND type = 0").bind(goods).execute(&app.db.pool).await.unwrap();

        // The limit is spent by the order: adding again is refused.
        let (status, refused) = app.post(&demo, "/api/cart", &[("goods_id", &goods.to_string()), ("number", "1"), ("type", "1")]).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(refused["msg"], format!("秒杀商品每人限购3{unit}"));
        // A line already in the cart cannot be ordered past it either.
        sqlx::query(
            "INSERT INTO cart_items (member_id, goods_id, type, activity_id, number, price, created_at) \
             SELECT m.id, f.goods_id, 1, f.id, 1, f.price, 0 FROM members m, flash_sales f WHERE m.username = 'demo' AND f.id = $1",
        )
        .bind(sale)
        .execute(&app.db.pool)
        .await
        .unwrap();
        let line: i64 = scalar(&app, "SELECT id FROM cart_items WHERE activity_id = $1 AND type = 1", sale).await;
        let (status, refused) = order(&app, &demo, "sale-2", &[line], address).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(refused["msg"], format!("秒杀商品每人限购3{unit}"));
        let (status, refused) = app.post(&demo, &format!("/api/cart/{line}/edit"), &[("number", "1")]).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{refused}");

        // A cancelled order no longer counts, and has no deadline.
        let (status, cancelled) = app.post(&demo, &format!("/api/order/{id}/cancel"), &[]).await;
        assert_eq!(status, StatusCode::OK);
        assert!(cancelled["data"]["pay_deadline"].is_null(), "{cancelled}");
        let (status, added) = app.post(&demo, "/api/cart", &[("goods_id", &goods.to_string()), ("number", "2"), ("type", "1")]).await;
        assert_eq!(status, StatusCode::OK, "{added}");
        assert_eq!(added["data"]["number"], 3);
    })
    .await;
}

#[tokio::test]
async fn ten_parallel_adds_stay_within_a_flash_sale_limit() {
    on_both(|app| async move {
        let demo = app.demo().await;
        let (_, goods, unit) = flash_sale(&app, 4).await;
        let message = format!("秒杀商品每人限购4{unit}");
        let tasks = (0..10)
            .map(|_| {
                let form = vec![("goods_id", goods.to_string()), ("number", "1".to_owned()), ("type", "1".to_owned())];
                tokio::spawn(post_form(demo.clone(), app.url("/api/cart"), form))
            })
            .collect();
        let answers = joined(tasks).await;
        let added = answers.iter().filter(|(status, _)| *status == StatusCode::OK).count();
        let refused =
            answers.iter().filter(|(status, body)| *status == StatusCode::UNPROCESSABLE_ENTITY && body["msg"] == message.as_str()).count();
        assert_eq!((added, refused), (4, 6), "{}: {answers:?}", app.database);
        let number: i64 = scalar(&app, "SELECT number FROM cart_items WHERE goods_id = $1 AND type = 1", goods).await;
        assert_eq!(number, 4);
    })
    .await;
}

#[tokio::test]
async fn two_hundred_orders_for_the_last_combination_sets() {
    on_both(|app| async move {
        let (combination, line_goods, parts) = combination(&app).await;
        // Ten sets in stock, but the scarcest goods inside has units for only seven.
        let scarce = parts.iter().map(|(goods, _)| *goods).find(|goods| *goods != line_goods).unwrap();
        let per_set = parts.iter().find(|(goods, _)| *goods == scarce).unwrap().1;
        sqlx::query("UPDATE combinations SET stock = 10 WHERE id = $1").bind(combination).execute(&app.db.pool).await.unwrap();
        sqlx::query("UPDATE goods SET stock = 1000 WHERE id IN (SELECT goods_id FROM combination_items WHERE combination_id = $1)")
            .bind(combination)
            .execute(&app.db.pool)
            .await
            .unwrap();
        sqlx::query("UPDATE goods SET stock = $1 WHERE id = $2").bind(7 * per_set).bind(scarce).execute(&app.db.pool).await.unwrap();
        let hash = origin::auth::hash_password("buyer123").unwrap();
        let mut buyers = Vec::new();
        for n in 0..200 {
            let (member, address) = approved_buyer(&app, &hash, "set_buyer", "136", n).await;
            let line: i64 = sqlx::query_scalar(
                "INSERT INTO cart_items (member_id, goods_id, type, activity_id, number, price, with_coupon, created_at) \
                 SELECT $1, $2, 3, id, 1, price, 0, 0 FROM combinations WHERE id = $3 RETURNING id",
            )
            .bind(member)
            .bind(line_goods)
            .bind(combination)
            .fetch_one(&app.db.pool)
            .await
            .unwrap();
            let token = origin::auth::open_session(&app.db, member).await.unwrap();
            buyers.push((token, line, address));
        }
        // No cookie store: each request carries its buyer's session only.
        let client = Client::new();
        let tasks = buyers
            .into_iter()
            .enumerate()
            .map(|(n, (token, line, address))| {
                let (client, url) = (client.clone(), app.url("/api/order"));
                tokio::spawn(async move {
                    let key = format!("set-{n}");
                    let response = client
                        .post(url)
                        .header("Cookie", format!("sid={token}"))
                        .header("Idempotency-Key", &key)
                        .header(order_check::signature::HEADER, edge_check(&key, &[("ids", line.to_string().as_str())]))
                        .form(&[("ids", line.to_string()), ("address_id", address.to_string())])
                        .send()
                        .await
                        .unwrap();
                    (response.status(), response.json::<Value>().await.unwrap())
                })
            })
            .collect();
        let answers = joined(tasks).await;
        let placed = answers.iter().filter(|(status, _)| *status == StatusCode::OK).count();
        let refused = answers
            .iter()
            .filter(|(status, body)| {
                *status == StatusCode::UNPROCESSABLE_ENTITY
                    && (body["msg"] == "部分商品库存不足，请修改数量后重试" || body["msg"] == "部分商品暂不可购买，请刷新购物车后重试")
            })
            .count();
        let odd = answers.iter().find(|(status, _)| *status != StatusCode::OK && *status != StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!((placed, refused), (7, 193), "{}: {odd:?}", app.database);
        assert_eq!(scalar(&app, "SELECT stock FROM combinations WHERE id = $1", combination).await, 3);
        for (goods, per_set) in &parts {
            let expected = if *goods == scarce { 0 } else { 1000 - 7 * per_set };
            assert_eq!(scalar(&app, "SELECT stock FROM goods WHERE id = $1", *goods).await, expected, "goods {goods}");
        }
        let negative: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM goods WHERE stock < 0").fetch_one(&app.db.pool).await.unwrap();
        assert_eq!(negative, 0);
    })
    .await;
}
