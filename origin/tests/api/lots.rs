//! Lots and shipments on SQLite and PostgreSQL (docs/compliance.md, "Lots, shipments and the
//! delivery note"): the expiry every answer shows is the nearest of the lots on sale; an order
//! ships in parts, each taking its units earliest expiry first (FEFO) and never from an expired
//! lot; it can be received once every unit has left; a return names the lot that comes back;
//! a lot's inspection report is read from the order.

use reqwest::{Client, StatusCode};
use serde_json::Value;

use crate::common::{App, add_to_cart, address_of, admin, multipart, on_both, post_order};

/// A plain goods the demo member may buy (no flash sale, no control, no set), its stock emptied
/// of the seeded lots so that the test's own lots are all it holds.
async fn bare_goods(app: &App, skip: i64) -> i64 {
    let goods: i64 = sqlx::query_scalar(
        "SELECT id FROM goods WHERE is_buy = 1 AND stock >= 50 AND control_per_order = 0 AND is_kx = 0 \
         AND id NOT IN (SELECT goods_id FROM flash_sales) ORDER BY id LIMIT 1 OFFSET $1",
    )
    .bind(skip)
    .fetch_one(&app.db.pool)
    .await
    .unwrap();
    sqlx::query("UPDATE goods_lots SET quantity = 0 WHERE goods_id = $1").bind(goods).execute(&app.db.pool).await.unwrap();
    sqlx::query("UPDATE goods SET stock = 0, expires_on = '' WHERE id = $1").bind(goods).execute(&app.db.pool).await.unwrap();
    goods
}

/// `YYYY-MM-DD`, `days` from today (the shop's day).
fn day(days: i64) -> String {
    origin::domain::catalogue::lots::day(origin::now() + days * 86_400)
}

async fn add_lot(app: &App, goods: i64, lot: &str, expires: &str, quantity: i64) -> i64 {
    let said = admin(
        app,
        &[
            "lot",
            "add",
            &goods.to_string(),
            "--lot",
            lot,
            "--produced",
            &day(-400),
            "--expires",
            expires,
            "--quantity",
            &quantity.to_string(),
        ],
    )
    .await
    .unwrap();
    sqlx::query_scalar("SELECT id FROM goods_lots WHERE goods_id = $1 AND lot_no = $2")
        .bind(goods)
        .bind(lot)
        .fetch_one(&app.db.pool)
        .await
        .unwrap_or_else(|error| panic!("{said}: {error}"))
}

async fn lot_quantity(app: &App, lot: i64) -> i64 {
    sqlx::query_scalar("SELECT quantity FROM goods_lots WHERE id = $1").bind(lot).fetch_one(&app.db.pool).await.unwrap()
}

/// The demo member orders `lines` (goods, units) and pays from the balance; answers the order.
async fn paid_order(app: &App, client: &Client, key: &str, lines: &[(i64, i64)]) -> i64 {
    let mut ids = Vec::new();
    for &(goods, units) in lines {
        ids.push(add_to_cart(app, client, goods, units, &[]).await.to_string());
    }
    let ids = ids.join(",");
    let form = [("ids", ids.as_str())];
    let (_, preview) = app.post(client, "/api/cart/checkout", &form).await;
    let payable = preview["data"]["quote"]["totals"]["payable"].as_str().unwrap_or_else(|| panic!("{preview}")).to_owned();
    let address = address_of(app, "demo").await.to_string();
    let order = [("ids", ids.as_str()), ("address_id", address.as_str()), ("expected_payable", payable.as_str())];
    let (status, placed) = post_order(app, client, key, &order).await;
    assert_eq!(status, StatusCode::OK, "{placed}");
    let id = placed["data"]["id"].as_i64().unwrap();
    let (status, paid) = app.post(client, &format!("/api/order/{id}/pay"), &[("method", "balance")]).await;
    assert_eq!(status, StatusCode::OK, "{paid}");
    id
}

fn item_of(detail: &Value, goods: i64) -> i64 {
    detail["data"]["items"].as_array().unwrap().iter().find(|item| item["goods_id"] == goods).unwrap()["id"].as_i64().unwrap()
}

/// (lot id, units) of a parcel, in the order shipped.
fn parcel_lots(detail: &Value, seq: usize) -> Vec<(i64, i64)> {
    detail["data"]["shipments"][seq]["items"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|item| {
            item["lots"].as_array().unwrap().iter().map(|lot| (lot["lot_id"].as_i64().unwrap(), lot["number"].as_i64().unwrap()))
        })
        .collect()
}

#[tokio::test]
async fn an_order_ships_in_parts_earliest_expiry_first_and_comes_back_by_lot() {
    on_both(|app| async move {
        let goods = bare_goods(&app, 0).await;
        let other = bare_goods(&app, 1).await;
        let (early, middle, late) = (day(200), day(300), day(500));
        let a = add_lot(&app, goods, "A2501", &early, 4).await;
        let c = add_lot(&app, goods, "C2503", &late, 10).await;
        let b = add_lot(&app, goods, "B2502", &middle, 5).await;
        let single = add_lot(&app, other, "H2601", &late, 20).await;
        // A lot past its last day stays in the warehouse but never ships; it cannot be received.
        let refused = admin(
            &app,
            &["lot", "add", &goods.to_string(), "--lot", "X", "--produced", &day(-900), "--expires", &day(-1), "--quantity", "3"],
        )
        .await;
        assert!(refused.unwrap_err().to_string().contains("已过有效期"));
        let expired: i64 = sqlx::query_scalar(
            "INSERT INTO goods_lots (goods_id, lot_no, produced_on, expires_on, received, quantity, created_at) \
             VALUES ($1, 'E2401', $2, $3, 3, 3, 0) RETURNING id",
        )
        .bind(goods)
        .bind(day(-900))
        .bind(day(-1))
        .fetch_one(&app.db.pool)
        .await
        .unwrap();
        assert!(
            admin(
                &app,
                &["lot", "add", &goods.to_string(), "--lot", "A2501", "--produced", &day(-9), "--expires", &late, "--quantity", "1"]
            )
            .await
            .is_err(),
            "a lot number is received once"
        );

        // Received lots are sellable, and the nearest expiry is what every answer shows.
        let visitor = app.client();
        let (_, detail) = app.get(&visitor, &format!("/api/goods/detail/{goods}")).await;
        assert_eq!(detail["data"]["number"].as_i64(), Some(19), "{detail}");
        assert_eq!(detail["data"]["expires_on"], Value::from(early.clone()));
        let shown: Vec<&str> = detail["data"]["lots"].as_array().unwrap().iter().map(|lot| lot["lot_no"].as_str().unwrap()).collect();
        assert_eq!(shown, ["A2501", "B2502", "C2503"], "expired lots are not on sale");

        let demo = app.demo().await;
        let order = paid_order(&app, &demo, "lots-1", &[(goods, 12), (other, 2)]).await;
        let (_, detail) = app.get(&demo, &format!("/api/order/{order}")).await;
        let (line, other_line) = (item_of(&detail, goods), item_of(&detail, other));

        // Part one: 6 of the 12, from A (4, the earliest) then B (2).
        let said =
            admin(&app, &["ship", &order.to_string(), "--carrier", "顺丰速运", "--tracking", "SF1", "--lines", &format!("{line}:6")])
                .await
                .unwrap();
        assert!(said.contains("8 units left"), "{said}");
        let (_, detail) = app.get(&demo, &format!("/api/order/{order}")).await;
        assert_eq!(detail["data"]["status_name"], "待收货");
        assert_eq!(detail["data"]["unshipped"], 8);
        assert_eq!(parcel_lots(&detail, 0), [(a, 4), (b, 2)]);
        assert!(!detail["data"]["actions"].as_array().unwrap().contains(&Value::from("receive")), "{}", detail["data"]["actions"]);
        assert_eq!((lot_quantity(&app, a).await, lot_quantity(&app, b).await, lot_quantity(&app, expired).await), (0, 3, 3));
        let (_, shown) = app.get(&visitor, &format!("/api/goods/detail/{goods}")).await;
        assert_eq!(shown["data"]["expires_on"], Value::from(middle.clone()), "A left the warehouse: B is the nearest");
        let (status, body) = app.post(&demo, &format!("/api/order/{order}/receive"), &[]).await;
        assert_eq!(status, StatusCode::CONFLICT, "{body}");
        assert!(body["msg"].as_str().unwrap().contains("未发货"), "{body}");
        // More than is left of a line is refused, and shipping changes nothing then.
        assert!(
            admin(&app, &["ship", &order.to_string(), "--carrier", "顺丰速运", "--tracking", "SF2", "--lines", &format!("{line}:7")])
                .await
                .is_err()
        );
        assert_eq!(lot_quantity(&app, b).await, 3);

        // Part two: the rest — 6 more (B 3, then C 3; never the expired lot) and the other line.
        let said = admin(&app, &["ship", &order.to_string(), "--carrier", "中通快递", "--tracking", "ZT2"]).await.unwrap();
        assert!(said.contains("part 2") && said.contains("nothing left"), "{said}");
        let (_, detail) = app.get(&demo, &format!("/api/order/{order}")).await;
        assert_eq!(detail["data"]["unshipped"], 0);
        let mut second = parcel_lots(&detail, 1);
        second.sort_by_key(|&(lot, _)| [b, c, single].iter().position(|&known| known == lot));
        assert_eq!(second, [(b, 3), (c, 3), (single, 2)]);
        assert_eq!(detail["data"]["shipments"][1]["carrier"], "中通快递");
        assert!(detail["data"]["actions"].as_array().unwrap().contains(&Value::from("receive")));
        assert_eq!((lot_quantity(&app, b).await, lot_quantity(&app, c).await, lot_quantity(&app, expired).await), (0, 7, 3));
        assert!(admin(&app, &["ship", &order.to_string(), "--carrier", "中通快递", "--tracking", "ZT3"]).await.is_err(), "all shipped");
        // Each part's logistics follow it.
        admin(
            &app,
            &[
                "logistics",
                &order.to_string(),
                "--description",
                "已到达杭州转运中心",
                "--shipment",
                &detail["data"]["shipments"][0]["id"].to_string(),
            ],
        )
        .await
        .unwrap();
        let (_, detail) = app.get(&demo, &format!("/api/order/{order}")).await;
        let events = |seq: usize| detail["data"]["shipments"][seq]["logistics"].as_array().unwrap().len();
        assert_eq!((events(0), events(1)), (2, 1));

        // Each parcel's delivery note: its lots with their dates, units, price and amount.
        let first = detail["data"]["shipments"][0]["id"].as_i64().unwrap();
        let response = demo.get(app.url(&format!("/api/order/{order}/shipment/{first}/note.pdf"))).send().await.unwrap();
        assert_eq!(response.status(), StatusCode::OK);
        assert_eq!(response.headers()["content-type"], "application/pdf");
        let pdf = response.bytes().await.unwrap();
        let document = lopdf::Document::load_mem(&pdf).unwrap();
        let pages: Vec<u32> = document.get_pages().keys().copied().collect();
        let text: String = document.extract_text(&pages).unwrap().split_whitespace().collect();
        let price = detail["data"]["items"].as_array().unwrap().iter().find(|item| item["id"] == line).unwrap()["price"]
            .as_str()
            .unwrap()
            .to_owned();
        let stored = origin::money::parse_stored(&price).unwrap();
        for expected in [
            "随货同行单",
            "A2501",
            "B2502",
            early.as_str(),
            middle.as_str(),
            "质量状况：合格",
            "收货人签字",
            &origin::money::text(stored * 4),
            &origin::money::text(stored * 6),
        ] {
            assert!(text.contains(expected), "{expected} in {text}");
        }
        assert!(!text.contains("C2503"), "the second parcel's lot is on its own note");
        let words = documents::capitalised(&origin::money::text(stored * 6)).unwrap();
        assert!(text.contains(&words), "{words} in {text}");
        let stranger = app.client();
        assert_eq!(
            stranger.get(app.url(&format!("/api/order/{order}/shipment/{first}/note.pdf"))).send().await.unwrap().status(),
            StatusCode::UNAUTHORIZED
        );
        let wrong = detail["data"]["shipments"][1]["id"].as_i64().unwrap() + 1000;
        assert_eq!(
            demo.get(app.url(&format!("/api/order/{order}/shipment/{wrong}/note.pdf"))).send().await.unwrap().status(),
            StatusCode::NOT_FOUND
        );

        // The lot's inspection report, read from the order.
        let file = std::env::temp_dir().join(format!("report-{}.pdf", crate::common::unique_name()));
        std::fs::write(&file, b"%PDF-1.4\n% inspection report\n").unwrap();
        admin(&app, &["lot", "report", &a.to_string(), file.to_str().unwrap()]).await.unwrap();
        std::fs::write(&file, b"not a report").unwrap();
        assert!(admin(&app, &["lot", "report", &b.to_string(), file.to_str().unwrap()]).await.is_err(), "PDF, JPEG or PNG only");
        let _ = std::fs::remove_file(&file);
        let (_, detail) = app.get(&demo, &format!("/api/order/{order}")).await;
        let reported: Vec<bool> = detail["data"]["shipments"][0]["items"][0]["lots"]
            .as_array()
            .unwrap()
            .iter()
            .map(|lot| lot["has_report"].as_bool().unwrap())
            .collect();
        assert_eq!(reported, [true, false]);
        let response = demo.get(app.url(&format!("/api/lot/{a}/report"))).send().await.unwrap();
        assert_eq!(response.status(), StatusCode::OK);
        assert_eq!(response.headers()["content-type"], "application/pdf");
        assert!(response.bytes().await.unwrap().starts_with(b"%PDF"));
        assert_eq!(demo.get(app.url(&format!("/api/lot/{b}/report"))).send().await.unwrap().status(), StatusCode::NOT_FOUND);
        assert_eq!(visitor.get(app.url(&format!("/api/lot/{a}/report"))).send().await.unwrap().status(), StatusCode::UNAUTHORIZED);

        // A return names the lot that comes back when the line left in several.
        let (_, info) = app.get(&demo, &format!("/api/order/{order}/returns")).await;
        let mine = info["data"]["lines"].as_array().unwrap().iter().find(|item| item["id"] == line).unwrap().clone();
        let offered: Vec<(i64, i64)> = mine["lots"]
            .as_array()
            .unwrap()
            .iter()
            .map(|lot| (lot["lot_id"].as_i64().unwrap(), lot["shipped"].as_i64().unwrap()))
            .collect();
        assert_eq!(offered, [(a, 4), (b, 5), (c, 3)]);
        let ask = |lines: String| {
            let (content_type, body) = multipart(&[("lines", lines.as_str()), ("reason", "1")], &[]);
            let request = demo.post(app.url(&format!("/api/order/{order}/return"))).header("content-type", content_type).body(body);
            async move {
                let response = request.send().await.unwrap();
                (response.status(), response.json::<Value>().await.unwrap())
            }
        };
        let (status, body) = ask(format!("{line}:1")).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
        assert!(body["msg"].as_str().unwrap().contains("请选择退回的批号"), "{body}");
        let (status, body) = ask(format!("{line}:1:{expired}")).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
        let (status, body) = ask(format!("{line}:5:{c}")).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
        let (status, body) = ask(format!("{line}:2:{b},{other_line}:1")).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        let record = &body["data"]["returns"][0]["lines"];
        assert_eq!(record[0]["lot_no"], "B2502", "{record}");
        assert_eq!(record[1]["lot_no"], "H2601", "a line shipped from one lot comes back from it");
        let recorded: Vec<Option<i64>> =
            sqlx::query_scalar("SELECT lot_id FROM return_lines ORDER BY id").fetch_all(&app.db.pool).await.unwrap();
        assert_eq!(recorded, [Some(b), Some(single)]);
    })
    .await;
}

#[tokio::test]
async fn the_near_expiry_zone_and_every_list_read_the_lots() {
    on_both(|app| async move {
        let goods = bare_goods(&app, 2).await;
        let visitor = app.client();
        let in_zone = |app: &App, visitor: &Client| {
            let request = visitor.get(app.url("/api/goods/list?near_expiry=1&page_size=100"));
            async move {
                let zone: Value = request.send().await.unwrap().json().await.unwrap();
                zone["data"]["list"].as_array().unwrap().iter().any(|card| card["id"] == goods)
            }
        };
        assert!(!in_zone(&app, &visitor).await);
        add_lot(&app, goods, "L1", &day(400), 10).await;
        assert!(!in_zone(&app, &visitor).await, "a long-dated lot");
        add_lot(&app, goods, "L2", &day(60), 5).await;
        assert!(in_zone(&app, &visitor).await, "a lot expiring in 60 days puts it in the zone");
        // Once that lot has expired (as if 61 days passed: the lot and the expiry shown from it
        // are yesterday's), the hourly task reads the lots again and the goods leaves the zone.
        sqlx::query("UPDATE goods_lots SET expires_on = $1 WHERE goods_id = $2 AND lot_no = 'L2'")
            .bind(day(-1))
            .bind(goods)
            .execute(&app.db.pool)
            .await
            .unwrap();
        sqlx::query("UPDATE goods SET expires_on = $1 WHERE id = $2").bind(day(-1)).bind(goods).execute(&app.db.pool).await.unwrap();
        let mut conn = app.db.pool.acquire().await.unwrap();
        let read = origin::domain::catalogue::lots::refresh_lapsed(&mut conn, &day(0)).await.unwrap();
        assert!(read >= 1);
        drop(conn);
        assert!(!in_zone(&app, &visitor).await);
        let (_, detail) = app.get(&visitor, &format!("/api/goods/detail/{goods}")).await;
        assert_eq!(detail["data"]["expires_on"], Value::from(day(400)));
        let listed = admin(&app, &["lot", "list", &goods.to_string()]).await.unwrap();
        assert!(listed.contains("L1") && listed.contains("L2"), "{listed}");
    })
    .await;
}
