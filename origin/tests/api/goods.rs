//! The catalogue over HTTP: the home data, the goods list with its filters and sorting, search
//! suggestions, goods detail.

use crate::common::{on_both, urlencode};
use reqwest::StatusCode;
use serde_json::json;

#[tokio::test]
async fn visitors_browse_the_catalogue() {
    on_both(|app| async move {
        let client = app.client();
        let (status, base) = app.get(&client, "/api/user/base").await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(base["code"], 10000);
        assert_eq!(base["data"]["show"], true);
        assert_eq!(base["data"]["login"], false, "{}", app.database);

        let (_, home) = app.get(&client, "/api/index").await;
        let home = &home["data"];
        assert!(home["nav"].as_array().unwrap().len() <= 9);
        assert!(!home["category"].as_array().unwrap().is_empty());
        assert!(home["timestamp"].as_i64().unwrap() > 1_700_000_000);
        assert!(home["category_zy"].as_array().unwrap().iter().all(|c| c["children"].is_array()));

        let (_, page) = app.get(&client, "/api/goods/list?page_size=1&page=2").await;
        let total = page["data"]["total"].as_i64().unwrap();
        assert!(total >= 2);
        assert_eq!(page["data"]["list"].as_array().unwrap().len(), 1);
        assert_eq!(page["data"]["last_page"], total);

        // A visitor sees 登录可见 in place of prices (docs/compliance.md); the order by price is
        // the one an approved member sees priced.
        assert!(page["data"]["list"][0]["price"].is_null());
        assert_eq!(page["data"]["list"][0]["price_text"], "登录可见");
        let (_, by_price) = app.get(&app.demo().await, "/api/goods/list?sort=price&order=asc&page_size=100").await;
        let prices: Vec<f64> =
            by_price["data"]["list"].as_array().unwrap().iter().map(|goods| goods["price"].as_str().unwrap().parse().unwrap()).collect();
        assert!(prices.windows(2).all(|pair| pair[0] <= pair[1]), "{prices:?}");

        let (_, herbs) = app.get(&client, "/api/goods/list?shop=zy&page_size=100").await;
        assert!(herbs["data"]["list"].as_array().unwrap().iter().all(|goods| goods["type"] == 2));

        let first = &page["data"]["list"][0];
        let name = first["name"].as_str().unwrap();
        let keyword: String = name.chars().take(2).collect();
        let (_, found) = app.get(&client, &format!("/api/goods/list?keyword={}&page_size=100", urlencode(&keyword))).await;
        let found = found["data"]["list"].as_array().unwrap();
        assert!(found.iter().any(|goods| goods["id"] == first["id"]), "the goods the keyword came from is found");
        let (_, none) = app.get(&client, "/api/goods/list?keyword=%E6%B2%A1%E6%9C%89%E8%BF%99%E7%A7%8D%E8%8D%AF").await;
        assert_eq!(none["data"]["total"], 0);

        let (_, suggestions) = app.get(&client, &format!("/api/goods/search?keywords=%20{}%20&type=0", urlencode(&keyword))).await;
        let suggestions = suggestions["data"].as_array().unwrap();
        assert!(!suggestions.is_empty() && suggestions.iter().all(|s| s.as_str().unwrap().contains(&keyword)));
        let (_, empty) = app.get(&client, "/api/goods/search?keywords=%20&type=0").await;
        assert_eq!(empty["data"], json!([]));
        let maker = first["sccj"].as_str().unwrap();
        let (_, makers) =
            app.get(&client, &format!("/api/goods/search?keywords={}&type=1", urlencode(&maker.chars().take(2).collect::<String>()))).await;
        assert!(makers["data"].as_array().unwrap().iter().any(|s| s == maker));

        let id = first["id"].as_i64().unwrap();
        let (status, detail) = app.get(&client, &format!("/api/goods/detail/{id}?goods_price_id=7")).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(detail["data"]["id"], id);
        assert_eq!(detail["data"]["query"]["goods_price_id"], 7);
        assert!(!detail["data"]["category_path"].as_array().unwrap().is_empty());
        let (status, missing) = app.get(&client, "/api/goods/detail/999999").await;
        assert_eq!(status, StatusCode::NOT_FOUND);
        assert_eq!(missing["code"], 404);
        assert_eq!(missing["msg"], "商品不存在");

        let (status, bad) = app.get(&client, "/api/goods/list?sort=sideways").await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(bad["code"], 422);
        assert_eq!(bad["msg"], "排序方式不正确");
        assert_eq!(bad["data"]["errors"]["sort"][0], "排序方式不正确");

        let (status, unknown) = app.get(&client, "/api/nothing/here").await;
        assert_eq!(status, StatusCode::NOT_FOUND);
        assert_eq!(unknown["code"], 404);
    })
    .await;
}
