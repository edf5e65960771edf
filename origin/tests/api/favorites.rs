//! Favourites, and the helpers around goods: pictures, promotions, the next-tier hint, copying
//! cart lines to a store of the same company.

use crate::common::{ladder_goods, on_both};
use reqwest::StatusCode;

#[tokio::test]
async fn favourites_pictures_promotions_and_cart_helpers() {
    on_both(|app| async move {
        let demo = app.demo().await;
        let (goods, _) = ladder_goods(&app).await;
        let id = goods.to_string();
        let (status, added) = app.post(&demo, "/api/favorite", &[("goods_ids", &id)]).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(added["msg"], "收藏成功");
        let (_, again) = app.post(&demo, "/api/favorite", &[("goods_ids", &id)]).await;
        assert_eq!(again["code"], 10000, "adding twice is harmless");
        let (_, list) = app.get(&demo, "/api/favorite?page=1").await;
        assert_eq!(list["data"]["total"], 1);
        assert_eq!(list["data"]["list"][0]["id"], goods);
        let (_, detail) = app.get(&demo, &format!("/api/goods/detail/{goods}")).await;
        assert_eq!(detail["data"]["is_favorite"], 1);
        let (status, missing) = app.post(&demo, "/api/favorite", &[("goods_ids", "999999")]).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(missing["msg"], "商品不存在");
        let other = app.other_member().await;
        let (_, theirs) = app.get(&other, "/api/favorite").await;
        assert_eq!(theirs["data"]["total"], 0);
        let (_, cancelled) = app.post(&demo, "/api/favorite/cancel", &[("goods_ids", &id)]).await;
        assert_eq!(cancelled["msg"], "取消收藏成功");
        let (_, list) = app.get(&demo, "/api/favorite").await;
        assert_eq!(list["data"]["total"], 0);

        let picture = demo.get(app.url(&format!("/api/images/goods/{goods}.svg"))).send().await.unwrap();
        assert_eq!(picture.headers()["content-type"], "image/svg+xml");
        let name: String = sqlx::query_scalar("SELECT name FROM goods WHERE id = $1").bind(goods).fetch_one(&app.db.pool).await.unwrap();
        let svg = picture.text().await.unwrap();
        assert!(svg.starts_with("<svg") && svg.contains(&name.chars().take(4).collect::<String>()), "{svg}");
        let (_, banners) = app.get(&demo, "/api/focus").await;
        let banner = banners["data"][0]["image"].as_str().unwrap().to_owned();
        let banner = demo.get(app.url(&banner)).send().await.unwrap();
        assert_eq!(banner.status(), StatusCode::OK);

        let (_, activities) = app.get(&demo, &format!("/api/goods/activities?goods_id={goods}")).await;
        assert!(activities["data"]["combinations"].is_array());
        let on_sale: i64 =
            sqlx::query_scalar("SELECT goods_id FROM flash_sales ORDER BY id LIMIT 1").fetch_one(&app.db.pool).await.unwrap();
        let (_, sale) = app.get(&demo, &format!("/api/goods/activities?goods_id={on_sale}")).await;
        assert!(sale["data"]["flash_sale"]["price"].is_string());
        let (_, spike) = app.get(&demo, "/api/index/spike").await;
        assert!(spike["data"]["list"].as_array().unwrap().iter().any(|goods| goods["id"] == on_sale));

        // The next full-reduction tier and free shipping, from the engine's quote.
        let in_activity: i64 =
            sqlx::query_scalar("SELECT id FROM goods WHERE manjian_id > 0 AND is_buy = 1 AND stock > 5 ORDER BY id LIMIT 1")
                .fetch_one(&app.db.pool)
                .await
                .unwrap();
        let (status, _) = app.post(&demo, "/api/cart", &[("goods_id", &in_activity.to_string()), ("number", "1")]).await;
        assert_eq!(status, StatusCode::OK);
        let (_, hint) = app.post(&demo, "/api/cart/next_hint", &[]).await;
        let (_, list) = app.get(&demo, "/api/cart/list").await;
        let first_unreached = list["data"]["quote"]["manjian_tiers"].as_array().unwrap().iter().find(|tier| tier["status"] == 0).cloned();
        assert_eq!(hint["data"]["manjian"]["need"], first_unreached.unwrap()["need"]);
        assert_eq!(hint["data"]["shipping"]["need"], list["data"]["quote"]["shipping"]["need"]);

        // Copying a line into a store account of the same company; never into another's.
        let line = list["data"]["data"][0]["id"].as_i64().unwrap().to_string();
        let store: i64 = sqlx::query_scalar(
            "INSERT INTO members (username, phone, password_hash, company, name, is_passed, created_at) \
             SELECT 'store2', '13600000002', password_hash, company, '店长', 1, 0 FROM members WHERE username = 'demo' RETURNING id",
        )
        .fetch_one(&app.db.pool)
        .await
        .unwrap();
        let (status, copied) = app.post(&demo, "/api/cart/copy", &[("ids", &line), ("other_user_ids", &store.to_string())]).await;
        assert_eq!(status, StatusCode::OK, "{copied}");
        let in_store: i64 =
            sqlx::query_scalar("SELECT COUNT(*) FROM cart_items WHERE member_id = $1").bind(store).fetch_one(&app.db.pool).await.unwrap();
        assert_eq!(in_store, 1);
        let stranger: i64 = sqlx::query_scalar("SELECT id FROM members WHERE username = 'other'").fetch_one(&app.db.pool).await.unwrap();
        let (status, refused) = app.post(&demo, "/api/cart/copy", &[("ids", &line), ("other_user_ids", &stranger.to_string())]).await;
        assert_eq!(status, StatusCode::FORBIDDEN);
        assert_eq!(refused["msg"], "只能复制到本企业的其他门店账号");
        // Lines × stores is capped: 300 lines into 2 stores is 600 adds, refused before any.
        let many = (0..300).map(|n| (line.parse::<i64>().unwrap() + n).to_string()).collect::<Vec<_>>().join(",");
        let (status, refused) =
            app.post(&demo, "/api/cart/copy", &[("ids", &many), ("other_user_ids", &format!("{store},{stranger}"))]).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{refused}");
        assert_eq!(refused["msg"], "一次最多复制500行（商品行数×门店数）");
        // A line that is not the member's is not copied, nor is anything else of the request.
        let (status, _) =
            app.post(&demo, "/api/cart/copy", &[("ids", &format!("{line},999999")), ("other_user_ids", &store.to_string())]).await;
        assert_eq!(status, StatusCode::NOT_FOUND);
        let in_store: i64 =
            sqlx::query_scalar("SELECT COUNT(*) FROM cart_items WHERE member_id = $1").bind(store).fetch_one(&app.db.pool).await.unwrap();
        assert_eq!(in_store, 1);
    })
    .await;
}
