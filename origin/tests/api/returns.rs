//! Returns on SQLite and PostgreSQL (`docs/pricing.md`, rule 20 and "Returns"): three units
//! returned one by one refund exactly what their line paid, give back exactly its red packets
//! and the points spent, and take back the points earned — each to the cent, each with its log
//! row, and the quote shown before each request is what is refunded; every refused request and
//! step (409 with the state named, 422 on the field); one open return per order under racing
//! requests; another member kept out of all of it.

use reqwest::{Client, StatusCode};
use serde_json::Value;

use crate::common::{App, PNG, add_to_cart, address_of, admin, joined, multipart, on_both, post_order};

async fn request(app: &App, client: &Client, order: i64, fields: &[(&str, &str)], photos: &[(&str, &[u8])]) -> (StatusCode, Value) {
    let (content_type, body) = multipart(fields, photos);
    let response =
        client.post(app.url(&format!("/api/order/{order}/return"))).header("content-type", content_type).body(body).send().await.unwrap();
    (response.status(), response.json().await.unwrap())
}

async fn member_scalar(app: &App, column: &str) -> i64 {
    sqlx::query_scalar(sqlx::AssertSqlSafe(format!("SELECT {column} FROM members WHERE username = 'demo'")))
        .fetch_one(&app.db.pool)
        .await
        .unwrap()
}

/// Money text as stored ten-thousandths.
fn stored(text: &Value) -> i64 {
    origin::money::parse_stored(text.as_str().unwrap_or_else(|| panic!("{text} is not money"))).unwrap()
}

/// The demo member's order of 3 units of one goods and 5 of another, settled with red packets
/// and points, paid from the balance and shipped; answers its id and its lines of 3 and of 5.
async fn shipped_order(app: &App, client: &Client, key: &str) -> (i64, i64, i64) {
    shipped_order_paying_points(app, client, key, "1").await
}

/// `shipped_order`, paying with points or not (`use_points` "1" or "0").
async fn shipped_order_paying_points(app: &App, client: &Client, key: &str, use_points: &str) -> (i64, i64, i64) {
    let goods: Vec<i64> = sqlx::query_scalar(
        "SELECT id FROM goods WHERE is_buy = 1 AND stock >= 50 AND id NOT IN (SELECT goods_id FROM flash_sales) ORDER BY id LIMIT 2",
    )
    .fetch_all(&app.db.pool)
    .await
    .unwrap();
    let lines = [add_to_cart(app, client, goods[0], 3, &[]).await, add_to_cart(app, client, goods[1], 5, &[]).await];
    let ids = format!("{},{}", lines[0], lines[1]);
    let form = [("ids", ids.as_str()), ("use_red_packet", "1"), ("use_points", use_points)];
    let (_, preview) = app.post(client, "/api/cart/checkout", &form).await;
    let payable = preview["data"]["quote"]["totals"]["payable"].as_str().unwrap().to_owned();
    let address = address_of(app, "demo").await.to_string();
    let mut order = form.to_vec();
    order.extend([("address_id", address.as_str()), ("expected_payable", payable.as_str())]);
    let (status, placed) = post_order(app, client, key, &order).await;
    assert_eq!(status, StatusCode::OK, "{placed}");
    let id = placed["data"]["id"].as_i64().unwrap();
    let (status, paid) = app.post(client, &format!("/api/order/{id}/pay"), &[("method", "balance")]).await;
    assert_eq!(status, StatusCode::OK, "{paid}");
    admin(app, &["ship", &id.to_string(), "--carrier", "顺丰速运", "--tracking", "SF100"]).await.unwrap();
    let (_, detail) = app.get(client, &format!("/api/order/{id}")).await;
    let items = detail["data"]["items"].as_array().unwrap();
    let line_of = |units: i64| items.iter().find(|item| item["number"] == units).unwrap()["id"].as_i64().unwrap();
    (id, line_of(3), line_of(5))
}

/// The newest return of the order (its id and state) as the member sees it.
async fn newest_return(app: &App, client: &Client, order: i64) -> (i64, String) {
    let (_, info) = app.get(client, &format!("/api/order/{order}/returns")).await;
    let newest = &info["data"]["returns"][0];
    (newest["id"].as_i64().unwrap(), newest["status_name"].as_str().unwrap().to_owned())
}

#[tokio::test]
async fn three_units_returned_one_by_one_refund_exactly_what_the_line_paid() {
    on_both(|app| async move {
        let demo = app.demo().await;
        let (order, first, second) = shipped_order(&app, &demo, "return-1").await;
        let (_, detail) = app.get(&demo, &format!("/api/order/{order}")).await;
        let detail = detail["data"].clone();
        assert!(detail["actions"].as_array().unwrap().contains(&Value::from("return")), "{detail}");
        let line = detail["items"].as_array().unwrap().iter().find(|item| item["id"] == first).unwrap();
        let (paid, red_share, points_share) = (stored(&line["paid"]), stored(&line["red_packet"]), stored(&line["points"]));
        assert!(red_share > 0 && points_share > 0, "the line carries red packets and points: {line}");
        let (points_used, points_value, earned) =
            (detail["points_used"].as_i64().unwrap(), stored(&detail["points_value"]), detail["points_earned"].as_i64().unwrap());
        let lines_paid: i64 = detail["items"].as_array().unwrap().iter().map(|item| stored(&item["paid"])).sum();
        let (balance, red, points) =
            (member_scalar(&app, "balance").await, member_scalar(&app, "red_packet").await, member_scalar(&app, "points").await);

        let mut refunded = 0;
        for unit in 0..3 {
            let path = format!("/api/order/{order}/return_quote?lines={first}:1");
            let (status, quote) = app.get(&demo, &path).await;
            assert_eq!(status, StatusCode::OK, "{quote}");
            let refund = quote["data"]["refund"].as_str().unwrap().to_owned();
            let lines = format!("{first}:1");
            let photos: &[(&str, &[u8])] = if unit == 0 { &[("box.png", PNG)] } else { &[] };
            let fields = [("lines", lines.as_str()), ("reason", "1"), ("description", "外包装破损"), ("refund", refund.as_str())];
            let (status, requested) = request(&app, &demo, order, &fields, photos).await;
            assert_eq!(status, StatusCode::OK, "{requested}");
            assert_eq!(requested["msg"], "已提交退货申请");
            let newest = &requested["data"]["returns"][0];
            assert_eq!((newest["status_name"].as_str(), newest["refund"].as_str()), (Some("待审核"), Some(refund.as_str())));
            assert_eq!(requested["data"]["can_return"], false);
            if unit == 0 {
                let photo = newest["photos"][0].as_str().unwrap().to_owned();
                let response = demo.get(app.url(&photo)).send().await.unwrap();
                assert_eq!(response.status(), StatusCode::OK);
                let other = app.other_member().await;
                assert_eq!(other.get(app.url(&photo)).send().await.unwrap().status(), StatusCode::NOT_FOUND);
            }
            // One return open at a time.
            let (status, refused) = request(&app, &demo, order, &[("lines", &format!("{second}:1")), ("reason", "5")], &[]).await;
            assert_eq!((status, refused["msg"].as_str()), (StatusCode::CONFLICT, Some("该订单有退货申请正在处理中")));

            let id = newest["id"].as_i64().unwrap().to_string();
            let early = admin(&app, &["receive-return", &id]).await.unwrap_err().to_string();
            assert!(early.contains("退货单状态为待审核，不能确认收货退款"), "{early}");
            admin(&app, &["approve-return", &id, "--note", "寄回：杭州市余杭区仓库"]).await.unwrap();
            let out = admin(&app, &["receive-return", &id]).await.unwrap();
            assert!(out.contains("received and refunded"), "{out}");
            assert!(admin(&app, &["receive-return", &id]).await.is_err(), "a return is refunded once");
            assert_eq!(newest_return(&app, &demo, order).await.1, "已退款");
            refunded += stored(&Value::from(refund));
            assert_eq!(member_scalar(&app, "balance").await - balance, refunded, "unit {unit}: the balance moved by the quote");
        }
        assert_eq!(refunded, paid, "1 + 1 + 1 refunds exactly what the line paid");
        assert_eq!(member_scalar(&app, "red_packet").await - red, red_share, "and gives back exactly its red packets");
        let points_back = points_used * points_share / points_value;
        let due = stored(&detail["due"]);
        let points_taken = earned * paid / due;
        assert_eq!(member_scalar(&app, "points").await - points, points_back - points_taken);
        let logged: (i64, i64) = sqlx::query_as(
            "SELECT CAST(COUNT(*) AS BIGINT), CAST(COALESCE(SUM(amount), 0) AS BIGINT) FROM balance_logs WHERE order_id = $1 AND amount > 0",
        )
        .bind(order)
        .fetch_one(&app.db.pool)
        .await
        .unwrap();
        assert_eq!(logged, (3, paid), "three refunds in the wallet's log");

        let (status, refused) = app.get(&demo, &format!("/api/order/{order}/return_quote?lines={first}:1")).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        assert!(refused["msg"].as_str().unwrap().ends_with("已发货未退的只有0件"), "{refused}");

        // An invoice now is for what is left paid.
        let ordinary = [("kind", "1"), ("title", "杭州仁心大药房连锁有限公司"), ("tax_no", "91330106ma2b3c4d5e"), ("email", "a@b.cn")];
        let (status, invoice) = app.post(&demo, &format!("/api/order/{order}/invoice"), &ordinary).await;
        assert_eq!(status, StatusCode::OK, "{invoice}");
        let out = admin(&app, &["issue-invoice", &invoice["data"]["id"].as_i64().unwrap().to_string()]).await.unwrap();
        assert!(out.ends_with(&format!("{}\n", origin::money::text(lines_paid - paid))), "{out}");

        // The rest at once: every point spent comes back and every point earned is taken back.
        let (_, quote) = app.get(&demo, &format!("/api/order/{order}/return_quote?lines={second}:5")).await;
        assert_eq!(stored(&quote["data"]["refund"]), lines_paid - paid);
        let (status, requested) = request(&app, &demo, order, &[("lines", &format!("{second}:5")), ("reason", "5")], &[]).await;
        assert_eq!(status, StatusCode::OK, "{requested}");
        let id = requested["data"]["returns"][0]["id"].as_i64().unwrap().to_string();
        admin(&app, &["approve-return", &id]).await.unwrap();
        admin(&app, &["receive-return", &id]).await.unwrap();
        assert_eq!(member_scalar(&app, "balance").await - balance, lines_paid);
        assert_eq!(member_scalar(&app, "red_packet").await - red, stored(&detail["red_packet"]));
        assert_eq!(member_scalar(&app, "points").await - points, points_used - earned * lines_paid / due, "the shipping fee's points stay");
        let (_, info) = app.get(&demo, &format!("/api/order/{order}/returns")).await;
        assert_eq!((info["data"]["can_return"].as_bool(), info["data"]["refusal"].as_str()), (Some(false), Some("订单商品已全部退货")));
        assert_eq!(stored(&info["data"]["refunded"]), lines_paid);
        let (_, detail) = app.get(&demo, &format!("/api/order/{order}")).await;
        let actions = detail["data"]["actions"].as_array().unwrap();
        assert!(!actions.contains(&Value::from("return")) && actions.contains(&Value::from("return_info")), "{actions:?}");
        let steps: Vec<&str> = detail["data"]["timeline"].as_array().unwrap().iter().filter_map(|event| event["action"].as_str()).collect();
        assert_eq!(steps.iter().filter(|step| **step == "return_receive").count(), 4, "{steps:?}");

        // The invoice issued before that return is reversed by a red-letter one, for exactly what
        // the return refunded, with a number of its own, listed beside it.
        let (_, invoices) = app.get(&demo, &format!("/api/invoices?order_id={order}")).await;
        let list = invoices["data"]["list"].as_array().unwrap();
        assert_eq!(list.len(), 2, "{list:?}");
        let blue = list.iter().find(|invoice| invoice["red_of_no"].is_null()).unwrap();
        let red = list.iter().find(|invoice| !invoice["red_of_no"].is_null()).unwrap();
        assert_eq!(red["red_of_no"], blue["invoice_no"]);
        assert_ne!(red["invoice_no"], blue["invoice_no"]);
        assert_eq!(blue["amount"], Value::from(origin::money::text(lines_paid - paid)));
        assert_eq!(red["amount"], Value::from(format!("-{}", origin::money::text(lines_paid - paid))));
        let red_id = red["id"].as_i64().unwrap();
        let lines: Vec<(i64, i64, i64, i64)> =
            sqlx::query_as("SELECT number, net, tax, rate FROM invoice_lines WHERE invoice_id = $1").bind(red_id).fetch_all(&app.db.pool).await.unwrap();
        assert_eq!(lines.len(), 1);
        let (number, net, tax, rate) = lines[0];
        assert_eq!((number, net + tax), (-5, -(lines_paid - paid)));
        let split = engine::vat_included(engine::Cents(i128::from(-(lines_paid - paid) / 100)), u32::try_from(rate).unwrap()).unwrap();
        assert_eq!((i128::from(net), i128::from(tax)), (split.net.0 * 100, split.tax.0 * 100), "the engine's split");
        let pdf = demo.get(app.url(&format!("/api/invoices/{red_id}/pdf"))).send().await.unwrap().bytes().await.unwrap();
        let document = lopdf::Document::load_mem(&pdf).unwrap();
        let pages: Vec<u32> = document.get_pages().keys().copied().collect();
        let text: String = document.extract_text(&pages).unwrap().split_whitespace().collect();
        let words = documents::capitalised(&format!("-{}", origin::money::text(lines_paid - paid))).unwrap();
        for expected in ["红字发票", blue["invoice_no"].as_str().unwrap(), red["invoice_no"].as_str().unwrap(), "-5", &words] {
            assert!(text.contains(expected), "{expected} in {text}");
        }
        // What the returns took back is not reversed twice: the blue invoice stands for nothing now.
        let blue_id = blue["id"].as_i64().unwrap().to_string();
        let refused = format!("{:#}", admin(&app, &["reverse-invoice", &blue_id, "--reason", "抬头有误"]).await.unwrap_err());
        assert!(refused.contains("该发票已因退货全部红冲"), "{refused}");
    })
    .await;
}

#[tokio::test]
async fn returns_are_refused_where_they_do_not_belong_and_kept_from_other_members() {
    on_both(|app| async move {
        let demo = app.demo().await;
        let (order, first, _) = shipped_order(&app, &demo, "return-2").await;
        let lines = format!("{first}:1");

        for (fields, field) in [
            (vec![("lines", ""), ("reason", "1")], "lines"),
            (vec![("lines", "x:1"), ("reason", "1")], "lines"),
            (vec![("lines", "999999:1"), ("reason", "1")], "lines[0]"),
            (vec![("lines", lines.as_str()), ("reason", "9")], "reason"),
            (vec![("lines", lines.as_str()), ("reason", "6")], "description"),
            (vec![("lines", lines.as_str()), ("reason", "1"), ("refund", "abc")], "refund"),
        ] {
            let (status, refused) = request(&app, &demo, order, &fields, &[]).await;
            assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{fields:?}: {refused}");
            assert!(refused["data"]["errors"].get(field).is_some(), "{fields:?}: {refused}");
        }
        let (status, refused) = request(&app, &demo, order, &[("lines", &format!("{first}:4")), ("reason", "1")], &[]).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        assert!(refused["msg"].as_str().unwrap().ends_with("最多可退3件"), "{refused}");
        let (status, refused) = request(&app, &demo, order, &[("lines", &lines), ("reason", "1"), ("refund", "0.01")], &[]).await;
        assert_eq!(status, StatusCode::CONFLICT);
        assert!(refused["msg"].as_str().unwrap().starts_with("退款金额已变为"), "{refused}");

        // Another member: nothing to see, nothing to do.
        let (status, first_return) = request(&app, &demo, order, &[("lines", &lines), ("reason", "2")], &[]).await;
        assert_eq!(status, StatusCode::OK, "{first_return}");
        let id = first_return["data"]["returns"][0]["id"].as_i64().unwrap();
        let other = app.other_member().await;
        for path in [format!("/api/order/{order}/returns"), format!("/api/order/{order}/return_quote?lines={lines}")] {
            assert_eq!(app.get(&other, &path).await.0, StatusCode::NOT_FOUND, "{path}");
        }
        assert_eq!(request(&app, &other, order, &[("lines", &lines), ("reason", "2")], &[]).await.0, StatusCode::NOT_FOUND);
        assert_eq!(app.post(&other, &format!("/api/return/{id}/withdraw"), &[]).await.0, StatusCode::NOT_FOUND);

        // Withdrawn by the member, rejected by the shop: either way the order takes another.
        let (status, withdrawn) = app.post(&demo, &format!("/api/return/{id}/withdraw"), &[]).await;
        assert_eq!(status, StatusCode::OK, "{withdrawn}");
        assert_eq!(withdrawn["data"]["returns"][0]["status_name"], "已撤销");
        let (status, refused) = app.post(&demo, &format!("/api/return/{id}/withdraw"), &[]).await;
        assert_eq!((status, refused["msg"].as_str()), (StatusCode::CONFLICT, Some("退货单状态为已撤销，不能撤销")));
        let (status, second) = request(&app, &demo, order, &[("lines", &lines), ("reason", "2")], &[]).await;
        assert_eq!(status, StatusCode::OK, "{second}");
        let id = second["data"]["returns"][0]["id"].as_i64().unwrap().to_string();
        assert!(admin(&app, &["reject-return", &id, "--reason", " "]).await.is_err(), "a rejection needs a reason");
        admin(&app, &["reject-return", &id, "--reason", "商品已拆封，不支持退货"]).await.unwrap();
        let (_, info) = app.get(&demo, &format!("/api/order/{order}/returns")).await;
        let rejected = &info["data"]["returns"][0];
        assert_eq!(
            (rejected["status_name"].as_str(), rejected["operator_note"].as_str()),
            (Some("已拒绝"), Some("商品已拆封，不支持退货"))
        );
        assert_eq!(info["data"]["can_return"], true);
        assert!(admin(&app, &["approve-return", &id]).await.is_err(), "a rejected return stays rejected");
        let (_, messages) = app.get(&demo, "/api/user/message").await;
        assert!(messages.to_string().contains("商品已拆封，不支持退货"), "the member is told why");

        // Orders not shipped take none.
        let (goods,): (i64,) = sqlx::query_as("SELECT id FROM goods WHERE is_buy = 1 AND stock >= 50 ORDER BY id LIMIT 1")
            .fetch_one(&app.db.pool)
            .await
            .unwrap();
        let line = add_to_cart(&app, &demo, goods, 2, &[]).await.to_string();
        let (_, preview) = app.post(&demo, "/api/cart/checkout", &[("ids", line.as_str())]).await;
        let payable = preview["data"]["quote"]["totals"]["payable"].as_str().unwrap().to_owned();
        let address = address_of(&app, "demo").await.to_string();
        let (_, placed) =
            post_order(&app, &demo, "return-unpaid", &[("ids", &line), ("address_id", &address), ("expected_payable", &payable)]).await;
        let unpaid = placed["data"]["id"].as_i64().unwrap();
        let (status, refused) = request(&app, &demo, unpaid, &[("lines", "1:1"), ("reason", "1")], &[]).await;
        assert_eq!((status, refused["msg"].as_str()), (StatusCode::CONFLICT, Some("当前订单状态为待付款，不能退货")));
        app.post(&demo, &format!("/api/order/{unpaid}/pay"), &[("method", "balance")]).await;
        let (status, refused) = request(&app, &demo, unpaid, &[("lines", "1:1"), ("reason", "1")], &[]).await;
        assert_eq!((status, refused["msg"].as_str()), (StatusCode::CONFLICT, Some("当前订单状态为待发货，不能退货")));
    })
    .await;
}

#[tokio::test]
async fn of_racing_requests_one_return_is_open() {
    on_both(|app| async move {
        let demo = app.demo().await;
        let (order, first, second) = shipped_order(&app, &demo, "return-3").await;
        let tasks = (0..10)
            .map(|n| {
                let (app, demo) = (app.clone(), demo.clone());
                let lines = format!("{}:1", if n % 2 == 0 { first } else { second });
                tokio::spawn(async move { request(&app, &demo, order, &[("lines", &lines), ("reason", "5")], &[]).await.0 })
            })
            .collect();
        let statuses = joined(tasks).await;
        assert_eq!(statuses.iter().filter(|status| **status == StatusCode::OK).count(), 1, "{statuses:?}");
        assert!(statuses.iter().all(|status| *status == StatusCode::OK || *status == StatusCode::CONFLICT), "{statuses:?}");
        let open: i64 = sqlx::query_scalar("SELECT CAST(COUNT(*) AS BIGINT) FROM returns WHERE order_id = $1")
            .bind(order)
            .fetch_one(&app.db.pool)
            .await
            .unwrap();
        assert_eq!(open, 1);
        let (id, status) = newest_return(&app, &demo, order).await;
        assert_eq!(status, "待审核");
        let (order_open,): (i64,) =
            sqlx::query_as("SELECT return_open FROM orders WHERE id = $1").bind(order).fetch_one(&app.db.pool).await.unwrap();
        assert_eq!(order_open, id);
    })
    .await;
}

/// The cash back the demo member's balance log shows for `order`.
async fn cashback_logged(app: &App, order: i64) -> Vec<i64> {
    sqlx::query_scalar("SELECT amount FROM balance_logs WHERE order_id = $1 AND note LIKE '%满额返现' ORDER BY id")
        .bind(order)
        .fetch_all(&app.db.pool)
        .await
        .unwrap()
}

#[tokio::test]
async fn cash_back_is_credited_once_when_an_order_completes_and_a_return_below_the_tier_takes_it_back() {
    on_both(|app| async move {
        let demo = app.demo().await;
        // An order placed while no activity runs gets none.
        let (before, ..) = shipped_order(&app, &demo, "cashback-0").await;
        sqlx::query("UPDATE cashback_activities SET is_on = 1").execute(&app.db.pool).await.unwrap();
        let (_, page) = app.get(&demo, "/api/activity/cashback").await;
        let tiers = page["data"]["activity"]["tiers"].as_array().unwrap();
        assert_eq!((tiers.len(), tiers[0]["amount"].as_str(), tiers[0]["back"].as_str()), (3, Some("1000.00"), Some("20.00")), "{page}");

        let (order, first, _) = shipped_order(&app, &demo, "cashback-1").await;
        let (late, ..) = shipped_order(&app, &demo, "cashback-2").await;
        // One tier exactly at what the order's goods paid, so that returning a unit drops below.
        let net: i64 = sqlx::query_scalar("SELECT CAST(SUM(paid) AS BIGINT) FROM order_items WHERE order_id = $1")
            .bind(order)
            .fetch_one(&app.db.pool)
            .await
            .unwrap();
        sqlx::query("DELETE FROM cashback_tiers").execute(&app.db.pool).await.unwrap();
        sqlx::query("INSERT INTO cashback_tiers (activity_id, amount, back) SELECT id, $1, 200000 FROM cashback_activities")
            .bind(net)
            .execute(&app.db.pool)
            .await
            .unwrap();

        for id in [before, order] {
            let balance = member_scalar(&app, "balance").await;
            let (status, received) = app.post(&demo, &format!("/api/order/{id}/receive"), &[]).await;
            assert_eq!(status, StatusCode::OK, "{received}");
            let expected = if id == order { 200_000 } else { 0 };
            assert_eq!(member_scalar(&app, "balance").await - balance, expected);
            assert_eq!(cashback_logged(&app, id).await, if id == order { vec![200_000] } else { vec![] });
        }
        // Completing by itself credits too, and once.
        let day = 86_400;
        assert_eq!(origin::domain::orders::due::complete_due(&app.db, origin::now() + 11 * day, 10 * day).await.unwrap(), 1);
        assert_eq!(origin::domain::orders::due::complete_due(&app.db, origin::now() + 12 * day, 10 * day).await.unwrap(), 0);
        let late_net: i64 = sqlx::query_scalar("SELECT CAST(SUM(paid) AS BIGINT) FROM order_items WHERE order_id = $1")
            .bind(late)
            .fetch_one(&app.db.pool)
            .await
            .unwrap();
        assert_eq!(cashback_logged(&app, late).await, if late_net >= net { vec![200_000] } else { vec![] });
        let (_, page) = app.get(&demo, "/api/activity/cashback").await;
        let listed: Vec<i64> = page["data"]["orders"].as_array().unwrap().iter().map(|row| row["id"].as_i64().unwrap()).collect();
        assert!(listed.contains(&order) && !listed.contains(&before), "{page}");
        let (status, again) = app.post(&demo, &format!("/api/order/{order}/receive"), &[]).await;
        assert_eq!(status, StatusCode::CONFLICT, "{again}");
        assert_eq!(cashback_logged(&app, order).await, vec![200_000]);

        // A unit returned leaves the order below its tier: the quote shows the cash back taken
        // out of the refund, and the refund credits the rest.
        let (_, quote) = app.get(&demo, &format!("/api/order/{order}/return_quote?lines={first}:1")).await;
        let refund = stored(&quote["data"]["refund"]);
        let taken = refund.min(200_000);
        assert_eq!(stored(&quote["data"]["cashback_taken"]), taken, "{quote}");
        let lines = format!("{first}:1");
        let (status, requested) = request(&app, &demo, order, &[("lines", lines.as_str()), ("reason", "5")], &[]).await;
        assert_eq!(status, StatusCode::OK, "{requested}");
        let id = requested["data"]["returns"][0]["id"].as_i64().unwrap().to_string();
        admin(&app, &["approve-return", &id]).await.unwrap();
        let balance = member_scalar(&app, "balance").await;
        admin(&app, &["receive-return", &id]).await.unwrap();
        assert_eq!(member_scalar(&app, "balance").await - balance, refund - taken);
        let held: i64 = sqlx::query_scalar("SELECT cashback FROM orders WHERE id = $1").bind(order).fetch_one(&app.db.pool).await.unwrap();
        assert_eq!(held, 200_000 - taken);
        let (_, info) = app.get(&demo, &format!("/api/order/{order}/returns")).await;
        assert_eq!(stored(&info["data"]["returns"][0]["cashback_taken"]), taken);
        let logged: i64 = sqlx::query_scalar("SELECT amount FROM balance_logs WHERE note LIKE '%扣回满额返现' ORDER BY id DESC LIMIT 1")
            .fetch_one(&app.db.pool)
            .await
            .unwrap();
        assert_eq!(logged, -taken);
    })
    .await;
}

/// Points an order earned, spent since, cannot be kept by returning the order (rule 21): the
/// member spends every point after the order is paid (as in the points mall); returning the
/// whole order takes back what the account holds (nothing) and deducts the rest from the
/// refund at the points' value — the quote shown before the request says so, and the balance,
/// the points and the wallet's log follow.
#[tokio::test]
async fn earned_points_spent_before_a_return_come_out_of_its_refund() {
    on_both(|app| async move {
        let demo = app.demo().await;
        let (order, first, second) = shipped_order_paying_points(&app, &demo, "return-spent", "0").await;
        let (_, detail) = app.get(&demo, &format!("/api/order/{order}")).await;
        let detail = detail["data"].clone();
        let (points_used, earned, due) =
            (detail["points_used"].as_i64().unwrap(), detail["points_earned"].as_i64().unwrap(), stored(&detail["due"]));
        assert!(earned > 0, "the order earned points: {detail}");
        let lines_paid: i64 = detail["items"].as_array().unwrap().iter().map(|item| stored(&item["paid"])).sum();
        // Every point spent, as in the points mall.
        sqlx::query("UPDATE members SET points = 0 WHERE username = 'demo'").execute(&app.db.pool).await.unwrap();
        let balance = member_scalar(&app, "balance").await;

        // What rule 21 takes: the order's earned share of the whole refund, none of it held, at
        // 100 points a yuan (the shop's setting), in stored ten-thousandths (a point is 0.01).
        assert_eq!(points_used, 0, "the order spent no points");
        let take = earned * lines_paid / due;
        let short = take;
        assert!(short > 0, "the return takes back earned points: {take}");
        let deducted = short * 100;

        let lines = format!("{first}:3,{second}:5");
        let (status, quote) = app.get(&demo, &format!("/api/order/{order}/return_quote?lines={lines}")).await;
        assert_eq!(status, StatusCode::OK, "{quote}");
        assert_eq!(stored(&quote["data"]["refund"]), lines_paid);
        assert_eq!(quote["data"]["points_taken"].as_i64(), Some(take - short));
        assert_eq!(quote["data"]["points_short"].as_i64(), Some(short));
        assert_eq!(stored(&quote["data"]["points_deducted"]), deducted, "{quote}");

        let (status, requested) = request(&app, &demo, order, &[("lines", lines.as_str()), ("reason", "5")], &[]).await;
        assert_eq!(status, StatusCode::OK, "{requested}");
        let id = requested["data"]["returns"][0]["id"].as_i64().unwrap().to_string();
        admin(&app, &["approve-return", &id]).await.unwrap();
        let out = admin(&app, &["receive-return", &id]).await.unwrap();
        assert!(out.contains(&format!("used earned points deducted {}", origin::money::text(deducted))), "{out}");

        assert_eq!(member_scalar(&app, "balance").await - balance, lines_paid - deducted, "the refund less the points spent");
        assert_eq!(member_scalar(&app, "points").await, 0, "the points given back were taken back, never below zero");
        let (_, info) = app.get(&demo, &format!("/api/order/{order}/returns")).await;
        let record = &info["data"]["returns"][0];
        assert_eq!((record["points_short"].as_i64(), stored(&record["points_deducted"])), (Some(short), deducted), "{record}");
        let debit: i64 = sqlx::query_scalar(
            "SELECT CAST(-amount AS BIGINT) FROM balance_logs WHERE amount < 0 AND note LIKE '%扣回已使用的赠送积分%' \
             AND member_id = (SELECT id FROM members WHERE username = 'demo')",
        )
        .fetch_one(&app.db.pool)
        .await
        .unwrap();
        assert_eq!(debit, deducted, "its own row in the wallet's log");
    })
    .await;
}
