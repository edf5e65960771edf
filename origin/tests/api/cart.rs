//! The cart over HTTP: lines quoted by the engine and kept to their member, goods that cannot
//! be bought, flash sales, combinations, full-reduction tiers and ladders as stored.

use crate::common::{ladder_goods, on_both};
use reqwest::StatusCode;
use serde_json::json;

#[tokio::test]
async fn the_cart_is_quoted_by_the_engine_and_kept_to_its_member() {
    on_both(|app| async move {
        let demo = app.demo().await;
        let (goods, stock) = ladder_goods(&app).await;
        let goods_text = goods.to_string();
        let (status, added) = app.post(&demo, "/api/cart", &[("goods_id", &goods_text), ("number", "5")]).await;
        assert_eq!(status, StatusCode::OK, "{added}");
        let line = added["data"]["id"].as_i64().unwrap();
        let (_, added) = app.post(&demo, "/api/cart", &[("goods_id", &goods_text), ("number", "7")]).await;
        assert_eq!(added["data"]["number"], 12, "adding again merges the line");
        assert_eq!(added["data"]["id"], line);

        let (_, list) = app.get(&demo, "/api/cart/list").await;
        let data = &list["data"];
        let item = &data["data"][0];
        assert_eq!(item["number"], 12);
        assert_eq!(item["goods"]["id"], goods);
        // The lines, shipping and activity data are engine input as they are, and `quote` is
        // the engine's answer for exactly them.
        let input = json!({ "items": data["data"], "shipping_data": data["shipping_data"], "activity_data": data["activity_data"] });
        let quote = engine::quote(&engine::cart_from_value(&input).unwrap()).unwrap();
        assert_eq!(serde_json::to_value(&quote).unwrap(), data["quote"]);
        // `cart/input` is the same cart as the engine's input, with the member's accounts as
        // its settlement input (no choices), and nothing else.
        let (status, lean) = app.get(&demo, "/api/cart/input").await;
        assert_eq!(status, StatusCode::OK);
        let mut read = engine::cart_from_value(&lean["data"]).unwrap();
        let settlement = read.settlement.take().expect("the member's settlement input");
        assert_eq!(read, engine::cart_from_value(&input).unwrap());
        assert!(!settlement.coupons.is_empty() && settlement.coupon_id.is_none() && !settlement.use_points);
        assert_eq!(settlement.points_balance, 3000, "the demo member's points");
        assert!(lean["data"]["items"][0]["goods"].get("name").is_none(), "no display fields");
        let (status, _) = app.get(&app.client(), "/api/cart/input").await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);
        let ladder = item["goods"]["ladder_price"].as_array().unwrap();
        let reached = ladder.iter().rfind(|step| step["number"].as_i64().unwrap() <= 12);
        let expected_unit = reached.map_or(item["price"].clone(), |step| step["price"].clone());
        assert_eq!(data["quote"]["lines"][0]["unit_price"], expected_unit);

        let (_, total) = app.get(&demo, "/api/cart/total").await;
        assert_eq!(total["data"]["total"], 1);

        let too_many = (stock + 1).to_string();
        let (status, refused) = app.post(&demo, &format!("/api/cart/{line}/edit"), &[("number", &too_many)]).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        // In the goods' own unit.
        let unit = item["goods"]["bzdw"].as_str().unwrap();
        assert_eq!(refused["msg"], format!("库存不足，最多可购买{stock}{unit}"));
        let (status, _) = app.post(&demo, &format!("/api/cart/{line}/edit"), &[("number", "0")]).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        let (status, _) = app.post(&demo, &format!("/api/cart/{line}/edit"), &[("number", "3")]).await;
        assert_eq!(status, StatusCode::OK);

        let other = app.other_member().await;
        let (status, _) = app.post(&other, &format!("/api/cart/{line}/edit"), &[("number", "1")]).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "another member's line is not there for them");
        let (_, theirs) = app.get(&other, "/api/cart/list").await;
        assert_eq!(theirs["data"]["data"], json!([]));
        let (_, deleted) = app.post(&other, "/api/cart/batch_delete", &[("ids", &line.to_string())]).await;
        assert_eq!(deleted["data"]["deleted"], 0);

        let (_, _) = app.post(&demo, "/api/cart/batch_select", &[("ids[]", &line.to_string()), ("is_selected", "0")]).await;
        let (_, list) = app.get(&demo, "/api/cart/list").await;
        assert_eq!(list["data"]["data"][0]["is_selected"], 0);
        assert_eq!(list["data"]["quote"]["totals"]["total"], "0.00");
        let (status, bad) = app.post(&demo, "/api/cart/batch_select", &[("ids", &line.to_string()), ("is_selected", "2")]).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(bad["msg"], "选择状态必须是0或1");

        let (_, deleted) = app.post(&demo, "/api/cart/batch_delete", &[("ids", &format!("{line},999999"))]).await;
        assert_eq!(deleted["data"]["deleted"], 1);
        assert_eq!(deleted["data"]["cart"], 0);
    })
    .await;
}

#[tokio::test]
async fn goods_that_cannot_be_bought_are_refused_and_stored_unselected() {
    on_both(|app| async move {
        let demo = app.demo().await;
        let (goods, _) = ladder_goods(&app).await;
        let (status, _) = app.post(&demo, "/api/cart", &[("goods_id", &goods.to_string()), ("number", "2")]).await;
        assert_eq!(status, StatusCode::OK);
        // The goods goes out of sale after it was added.
        sqlx::query("UPDATE goods SET is_buy = 0 WHERE id = $1").bind(goods).execute(&app.db.pool).await.unwrap();
        let (_, list) = app.get(&demo, "/api/cart/list").await;
        assert_eq!(list["data"]["data"][0]["is_selected"], 0);
        assert_eq!(list["data"]["quote"]["lines"][0]["buyable"], false);
        let stored: i64 =
            sqlx::query_scalar("SELECT is_selected FROM cart_items WHERE goods_id = $1").bind(goods).fetch_one(&app.db.pool).await.unwrap();
        assert_eq!(stored, 0);
        let (status, refused) = app.post(&demo, "/api/cart", &[("goods_id", &goods.to_string()), ("number", "1")]).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(refused["msg"], "该商品暂不可购买");
        let (status, refused) = app.post(&demo, "/api/cart", &[("goods_id", "999999"), ("number", "1")]).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(refused["msg"], "商品不存在");
    })
    .await;
}

#[tokio::test]
async fn flash_sales_keep_their_limit_and_end() {
    on_both(|app| async move {
        let demo = app.demo().await;
        let (goods, limit, unit): (i64, i64, String) = sqlx::query_as(
            "SELECT f.goods_id, f.limit_number, g.bzdw FROM flash_sales f JOIN goods g ON g.id = f.goods_id ORDER BY f.id LIMIT 1",
        )
        .fetch_one(&app.db.pool)
        .await
        .unwrap();
        let (status, added) = app.post(&demo, "/api/cart", &[("goods_id", &goods.to_string()), ("number", "1"), ("type", "1")]).await;
        assert_eq!(status, StatusCode::OK, "{added}");
        let line = added["data"]["id"].as_i64().unwrap();
        let (status, refused) = app.post(&demo, &format!("/api/cart/{line}/edit"), &[("number", &(limit + 1).to_string())]).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(refused["msg"], format!("秒杀商品每人限购{limit}{unit}"));
        let (_, list) = app.get(&demo, "/api/cart/list").await;
        let sale_price: i64 =
            sqlx::query_scalar("SELECT price FROM flash_sales WHERE goods_id = $1").bind(goods).fetch_one(&app.db.pool).await.unwrap();
        assert_eq!(list["data"]["data"][0]["price"], origin::money::text(sale_price));
        // The sale ends: the line can no longer be bought at its price.
        sqlx::query("UPDATE flash_sales SET ends_at = 0 WHERE goods_id = $1").bind(goods).execute(&app.db.pool).await.unwrap();
        let (_, list) = app.get(&demo, "/api/cart/list").await;
        assert_eq!(list["data"]["quote"]["lines"][0]["buyable"], false);
        assert_eq!(list["data"]["data"][0]["is_selected"], 0);
    })
    .await;
}

#[tokio::test]
async fn the_cart_list_reads_combinations_tiers_ladders_and_sales_as_stored() {
    on_both(|app| async move {
        let demo = app.demo().await;
        // A combination line: the engine's goods is the combination, with its own stock.
        let (combination, goods, name, stock): (i64, i64, String, i64) = sqlx::query_as(
            "SELECT c.id, MIN(i.goods_id), c.name, c.stock FROM combinations c JOIN combination_items i ON i.combination_id = c.id \
             JOIN goods g ON g.id = i.goods_id WHERE c.stock > 0 GROUP BY c.id, c.name, c.stock HAVING MIN(g.is_buy) = 1 ORDER BY c.id LIMIT 1",
        )
        .fetch_one(&app.db.pool)
        .await
        .unwrap();
        let form = [("goods_id", goods.to_string()), ("type", "3".into()), ("combination_id", combination.to_string())];
        let form: Vec<(&str, &str)> = form.iter().map(|(key, value)| (*key, value.as_str())).collect();
        let (status, added) = app.post(&demo, "/api/cart", &form).await;
        assert_eq!(status, StatusCode::OK, "{added}");
        // Goods in a full-reduction activity, on two lines' worth of activity.
        let (manjian_goods, activity): (i64, i64) = sqlx::query_as(
            "SELECT g.id, g.manjian_id FROM goods g WHERE g.manjian_id > 0 AND g.is_buy = 1 AND g.stock > 10 ORDER BY g.id LIMIT 1",
        )
        .fetch_one(&app.db.pool)
        .await
        .unwrap();
        let (status, added) = app.post(&demo, "/api/cart", &[("goods_id", &manjian_goods.to_string()), ("number", "2")]).await;
        assert_eq!(status, StatusCode::OK, "{added}");

        let (_, list) = app.get(&demo, "/api/cart/list").await;
        let lines = list["data"]["data"].as_array().unwrap();
        let combined = lines.iter().find(|line| line["type"] == 3).expect("the combination line");
        assert_eq!(combined["combination"]["id"], combination);
        assert_eq!(combined["combination"]["name"], name);
        assert_eq!(combined["combination"]["number"], stock);
        assert_eq!(combined["combination"]["is_buy"], 1);
        // The set shows as the set: its picture, and what one set holds, in its order.
        assert_eq!(combined["combination"]["image"], format!("/api/images/combination/{combination}.svg"));
        let parts: Vec<(String, String, i64)> = sqlx::query_as(
            "SELECT g.name, g.ypgg, i.number FROM combination_items i JOIN goods g ON g.id = i.goods_id WHERE i.combination_id = $1 ORDER BY i.id",
        )
        .bind(combination)
        .fetch_all(&app.db.pool)
        .await
        .unwrap();
        let listed: Vec<(String, String, i64)> = combined["combination"]["items"]
            .as_array()
            .unwrap()
            .iter()
            .map(|part| (part["name"].as_str().unwrap().into(), part["ypgg"].as_str().unwrap().into(), part["number"].as_i64().unwrap()))
            .collect();
        assert_eq!(listed, parts);
        let contents = parts.iter().map(|(name, ypgg, number)| format!("{name} {ypgg} ×{number}")).collect::<Vec<_>>().join("、");
        assert_eq!(combined["combination"]["contents"], contents.as_str());
        let picture = app.client().get(app.url(&format!("/api/images/combination/{combination}.svg"))).send().await.unwrap();
        assert_eq!(picture.status(), StatusCode::OK);
        assert!(picture.text().await.unwrap().contains(&parts[0].0.chars().take(10).collect::<String>()));
        let tiers: Vec<(i64, i64)> = sqlx::query_as("SELECT amount, reduce FROM manjian_tiers WHERE activity_id = $1 ORDER BY sort, id")
            .bind(activity)
            .fetch_all(&app.db.pool)
            .await
            .unwrap();
        assert!(!tiers.is_empty());
        let listed: Vec<(String, String)> = list["data"]["activity_data"]["manjians"]
            .as_array()
            .unwrap()
            .iter()
            .map(|tier| (tier["amount"].as_str().unwrap().to_owned(), tier["reduce"].as_str().unwrap().to_owned()))
            .collect();
        let stored: Vec<(String, String)> = tiers.iter().map(|(amount, reduce)| (origin::money::text(*amount), origin::money::text(*reduce))).collect();
        assert_eq!(listed, stored, "the tiers of the selected lines' activity, in order");
        // The quote is still the engine's answer for exactly the lines as listed.
        let data = &list["data"];
        let input = json!({ "items": data["data"], "shipping_data": data["shipping_data"], "activity_data": data["activity_data"] });
        let quote = engine::quote(&engine::cart_from_value(&input).unwrap()).unwrap();
        assert_eq!(serde_json::to_value(&quote).unwrap(), data["quote"]);

        // Goods cards carry every ladder step, in order, and the running flash sale.
        let (_, page) = app.get(&demo, "/api/goods/list?page_size=100").await;
        let (mut with_ladders, mut on_sale) = (0, 0);
        for card in page["data"]["list"].as_array().unwrap() {
            let id = card["id"].as_i64().unwrap();
            let steps: Vec<(i64, i64)> = sqlx::query_as("SELECT number, price FROM goods_ladders WHERE goods_id = $1 ORDER BY number")
                .bind(id)
                .fetch_all(&app.db.pool)
                .await
                .unwrap();
            let carried: Vec<(i64, String)> = card["ladder_price"]
                .as_array()
                .unwrap()
                .iter()
                .map(|step| (step["number"].as_i64().unwrap(), step["price"].as_str().unwrap().to_owned()))
                .collect();
            let stored: Vec<(i64, String)> = steps.iter().map(|(number, price)| (*number, origin::money::text(*price))).collect();
            assert_eq!(carried, stored, "ladder of goods {id}");
            let sale: Option<i64> = sqlx::query_scalar("SELECT price FROM flash_sales WHERE goods_id = $1 AND starts_at <= $2 AND ends_at > $2")
                .bind(id)
                .bind(origin::now())
                .fetch_optional(&app.db.pool)
                .await
                .unwrap();
            assert_eq!(card["flash_sale"]["price"].as_str().map(str::to_owned), sale.map(origin::money::text), "sale of goods {id}");
            with_ladders += usize::from(!steps.is_empty());
            on_sale += usize::from(sale.is_some());
        }
        assert!(with_ladders > 0 && on_sale > 0, "the page has goods of both kinds ({with_ladders}, {on_sale})");
    })
    .await;
}

#[tokio::test]
async fn the_tiers_count_only_the_lines_of_their_activity() {
    on_both(|app| async move {
        let demo = app.demo().await;
        // Two goods of one full-reduction activity and one of another.
        let goods: Vec<(i64, i64)> = sqlx::query_as(
            "SELECT id, manjian_id FROM goods WHERE manjian_id > 0 AND is_buy = 1 AND stock > 10 AND id NOT IN (SELECT goods_id FROM flash_sales) \
             ORDER BY manjian_id, id",
        )
        .fetch_all(&app.db.pool)
        .await
        .unwrap();
        let first = goods[0].1;
        let ours: Vec<i64> = goods.iter().filter(|(_, activity)| *activity == first).map(|(id, _)| *id).take(2).collect();
        let (theirs, other) = *goods.iter().find(|(_, activity)| *activity != first).expect("goods of a second activity");
        assert_eq!(ours.len(), 2);
        let mut lines = Vec::new();
        for goods in ours.iter().chain([&theirs]) {
            let (status, added) = app.post(&demo, "/api/cart", &[("goods_id", &goods.to_string()), ("number", "2")]).await;
            assert_eq!(status, StatusCode::OK, "{added}");
            lines.push(added["data"]["id"].as_i64().unwrap());
        }
        sqlx::query("UPDATE cart_items SET is_selected = 0 WHERE id NOT IN ($1, $2, $3)")
            .bind(lines[0])
            .bind(lines[1])
            .bind(lines[2])
            .execute(&app.db.pool)
            .await
            .unwrap();

        let (_, list) = app.get(&demo, "/api/cart/list").await;
        let data = &list["data"];
        let line = |id: i64| data["data"].as_array().unwrap().iter().find(|line| line["id"] == id).unwrap().clone();
        // The activity most selected lines take part in is the cart's; a line of another one is
        // listed outside it, so that it neither counts toward the tiers nor takes a share.
        assert_eq!((line(lines[0])["goods_manjian_id"].as_i64(), line(lines[1])["goods_manjian_id"].as_i64()), (Some(first), Some(first)));
        assert_eq!(line(lines[2])["goods_manjian_id"], 0, "a line of activity {other}");
        let quoted = |id: i64| data["quote"]["lines"].as_array().unwrap().iter().find(|line| line["id"] == id).unwrap().clone();
        let cents = |text: &serde_json::Value| text.as_str().unwrap().replace('.', "").parse::<i64>().unwrap();
        assert_eq!(cents(&data["quote"]["totals"]["manjian"]), cents(&quoted(lines[0])["amount"]) + cents(&quoted(lines[1])["amount"]));
        assert_eq!(quoted(lines[2])["goods_manjian_amount"], "0.00");
        let input = json!({ "items": data["data"], "shipping_data": data["shipping_data"], "activity_data": data["activity_data"] });
        let quote = engine::quote(&engine::cart_from_value(&input).unwrap()).unwrap();
        assert_eq!(serde_json::to_value(&quote).unwrap(), data["quote"]);
    })
    .await;
}
