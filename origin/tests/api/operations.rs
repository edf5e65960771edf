//! What the operator runs the shop with: the health and readiness checks, Prometheus metrics,
//! and a backup restored into a new database that then serves the shop as it was.

use crate::common::{admin, ladder_goods, on_both, unique_name};
use reqwest::StatusCode;

#[tokio::test]
async fn the_origin_reports_its_health_and_metrics() {
    on_both(|app| async move {
        let direct = reqwest::Client::new();
        // Answered on the origin's own address without the edge's proof.
        let mut ready = StatusCode::SERVICE_UNAVAILABLE;
        for _ in 0..300 {
            ready = direct.get(format!("{}/readyz", app.origin)).send().await.unwrap().status();
            if ready == StatusCode::OK {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
        assert_eq!(ready, StatusCode::OK, "ready once the search index is built");
        assert_eq!(direct.get(format!("{}/healthz", app.origin)).send().await.unwrap().status(), StatusCode::OK);
        // Any other route of the origin still needs the proof.
        assert_eq!(direct.get(format!("{}/api/goods/hot", app.origin)).send().await.unwrap().status(), StatusCode::FORBIDDEN);

        let client = app.client();
        let (status, _) = app.get(&client, "/api/goods/search?keywords=amxl&type=0").await;
        assert_eq!(status, StatusCode::OK);
        let (status, _) = app.get(&client, "/api/goods/detail/999999").await;
        assert_eq!(status, StatusCode::NOT_FOUND);
        let response = direct.get(format!("{}/metrics", app.origin)).send().await.unwrap();
        assert_eq!(response.status(), StatusCode::OK);
        assert!(response.headers()["content-type"].to_str().unwrap().starts_with("text/plain"));
        let text = response.text().await.unwrap();
        // By the route's pattern, not its path; with the status.
        assert!(text.contains(r#"http_requests_total{method="GET",route="/api/goods/search",status="200"}"#), "{text}");
        assert!(text.contains(r#"route="/api/goods/detail/{id}",status="404""#), "{text}");
        assert!(text.contains(r#"http_request_duration_seconds_bucket{method="GET",route="/api/goods/search",status="200",le="0.005"}"#));
        let goods: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM goods").fetch_one(&app.db.pool).await.unwrap();
        assert!(text.contains("search_index_ready 1"));
        assert!(text.lines().any(|line| line == format!("search_index_goods {goods}")), "{text}");
        assert!(text.contains("db_pool_connections "));
    })
    .await;
}

#[tokio::test]
async fn a_backup_restores_the_shop_as_it_was() {
    on_both(|app| async move {
        admin(&app, &["seed", "--goods", "30"]).await.unwrap();
        let demo = app.demo().await;
        let (goods, _) = ladder_goods(&app).await;
        let (status, body) = app.post(&demo, "/api/cart", &[("goods_id", &goods.to_string()), ("number", "3")]).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        let count = |db: origin::db::Db| async move {
            let goods: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM goods").fetch_one(&db.pool).await.unwrap();
            let lines: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM cart_items").fetch_one(&db.pool).await.unwrap();
            (goods, lines)
        };
        let at_backup = count(app.db.clone()).await;

        let file = std::env::temp_dir().join(format!("{}.backup", unique_name()));
        let said = admin(&app, &["backup", "--to", file.to_str().unwrap()]).await.unwrap();
        assert!(said.starts_with("backed up to"), "{said}");
        assert!(admin(&app, &["backup", "--to", file.to_str().unwrap()]).await.is_err(), "a backup never overwrites");
        // Changes after the backup are not in it.
        admin(&app, &["seed", "--goods", "7"]).await.unwrap();
        assert_eq!(count(app.db.clone()).await.0, at_backup.0 + 7);

        let target = app.fresh_database().await;
        let said = origin::backup::restore(&target, &file).await.unwrap();
        assert!(said.starts_with("restored"), "{said}");
        assert!(origin::backup::restore(&target, &file).await.is_err(), "a restore never overwrites");
        let (restored, _stop) = app.origin_on(target).await;
        assert_eq!(count(restored.db.clone()).await, at_backup);
        // The restored shop serves the demo member's cart as it was.
        let demo = restored.demo().await;
        let (status, cart) = restored.get(&demo, "/api/cart/list").await;
        assert_eq!(status, StatusCode::OK);
        let lines = cart["data"]["data"].as_array().unwrap();
        assert!(lines.iter().any(|line| line["goods"]["id"] == goods && line["number"] == 3), "{cart}");
        let _ = std::fs::remove_file(&file);
    })
    .await;
}
