//! Bounded input and tidy tables: id lists capped, statistics throttled per address, list
//! operations in one statement, and the hourly purge.

use crate::common::{ladder_goods, on_both};
use origin::security::Security;
use reqwest::StatusCode;

fn id_list(count: i64) -> String {
    (1..=count).map(|id| id.to_string()).collect::<Vec<_>>().join(",")
}

#[tokio::test]
async fn id_lists_are_capped_at_500() {
    on_both(|app| async move {
        let demo = app.demo().await;
        let (status, body) = app.post(&demo, "/api/cart/batch_delete", &[("ids", &id_list(501))]).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(body["msg"], "一次最多选择500项");
        let (status, body) = app.post(&demo, "/api/cart/batch_delete", &[("ids", &id_list(500))]).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        let (status, body) = app.post(&demo, "/api/cart/batch_select", &[("ids", &id_list(500)), ("is_selected", "1")]).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        let (status, body) = app.post(&demo, "/api/favorite/cancel", &[("goods_ids", &id_list(501))]).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(body["data"]["errors"]["goods_ids"][0], "一次最多选择500项");
    })
    .await;
}

#[tokio::test]
async fn favourites_are_added_all_or_none() {
    on_both(|app| async move {
        let demo = app.demo().await;
        let goods: Vec<i64> = sqlx::query_scalar("SELECT id FROM goods ORDER BY id LIMIT 3").fetch_all(&app.db.pool).await.unwrap();
        let favourites = || async { sqlx::query_scalar::<_, i64>("SELECT COUNT(*) FROM favorites").fetch_one(&app.db.pool).await.unwrap() };
        let (status, body) = app.post(&demo, "/api/favorite", &[("goods_ids", &format!("{},{},999999", goods[0], goods[1]))]).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(body["msg"], "商品不存在");
        assert_eq!(favourites().await, 0, "one missing goods adds none");
        let list = format!("{},{},{},{}", goods[0], goods[1], goods[2], goods[0]);
        let (status, body) = app.post(&demo, "/api/favorite", &[("goods_ids", &list)]).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        assert_eq!(favourites().await, 3);
        let (status, _) = app.post(&demo, "/api/favorite/cancel", &[("goods_ids", &format!("{},{}", goods[0], goods[2]))]).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(favourites().await, 1);

        let (goods, _) = ladder_goods(&app).await;
        let (status, added) = app.post(&demo, "/api/cart", &[("goods_id", &goods.to_string()), ("number", "5")]).await;
        assert_eq!(status, StatusCode::OK, "{added}");
        let line = added["data"]["id"].as_i64().unwrap();
        let selected = || async {
            sqlx::query_scalar::<_, i64>("SELECT is_selected FROM cart_items WHERE id = $1")
                .bind(line)
                .fetch_one(&app.db.pool)
                .await
                .unwrap()
        };
        for flag in ["0", "1", "0"] {
            let (status, body) =
                app.post(&demo, "/api/cart/batch_select", &[("ids", &format!("{line},999999")), ("is_selected", flag)]).await;
            assert_eq!(status, StatusCode::OK, "{body}");
            assert_eq!(selected().await.to_string(), flag);
        }
    })
    .await;
}

#[tokio::test]
async fn statistics_are_throttled_per_address_and_bounded() {
    on_both(|app| async move {
        let client = app.client();
        let (status, body) = app.post(&client, "/api/stat/page_view", &[("path", &"p".repeat(501))]).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(body["msg"], "页面路径不能超过500字");
        let (status, body) = app.post(&client, "/api/stat/report", &[("kind", "quote-mismatch"), ("detail", &"d".repeat(8001))]).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(body["msg"], "详情不能超过8000字");
        // Two calls so far; 118 more pass, the next is refused.
        let calls = (0..118).map(|n| {
            let (client, url) = (client.clone(), app.url("/api/stat/page_view"));
            tokio::spawn(async move { client.post(url).form(&[("path", format!("/page/{n}"))]).send().await.unwrap().status() })
        });
        for call in calls.collect::<Vec<_>>() {
            assert_eq!(call.await.unwrap(), StatusCode::OK);
        }
        let (status, body) = app.post(&client, "/api/stat/report", &[("kind", "quote-mismatch")]).await;
        assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
        assert_eq!(body["msg"], "操作过于频繁，请稍后再试");
        let elsewhere = client
            .post(app.url("/api/stat/page_view"))
            .header("X-Forwarded-For", "203.0.113.7")
            .form(&[("path", "/")])
            .send()
            .await
            .unwrap();
        assert_eq!(elsewhere.status(), StatusCode::OK, "another address has its own count");
        let views: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM page_views").fetch_one(&app.db.pool).await.unwrap();
        assert_eq!(views, 119);
    })
    .await;
}

#[tokio::test]
async fn the_purge_deletes_what_has_expired_and_nothing_else() {
    on_both(|app| async move {
        let db = &app.db;
        let now = origin::now();
        let security = Security::default();
        let member: i64 = sqlx::query_scalar("SELECT id FROM members WHERE username = 'demo'").fetch_one(&db.pool).await.unwrap();
        let day = 86_400;
        let run = |sql: &'static str, values: Vec<i64>| async move {
            let mut query = sqlx::query(sql);
            for value in values {
                query = query.bind(value);
            }
            query.execute(&db.pool).await.unwrap();
        };
        let session = "INSERT INTO sessions (token_hash, member_id, created_at, expires_at, last_seen) VALUES ($1, $2, $3, $4, $5)";
        for (token, created, expires, seen) in [
            ("expired", now - 8 * day, now - day, now - 2 * day),
            ("idle", now - 3 * 3600, now + day, now - 3 * 3600),
            ("live", now - 3600, now + day, now - 60),
        ] {
            sqlx::query(session).bind(token).bind(member).bind(created).bind(expires).bind(seen).execute(&db.pool).await.unwrap();
        }
        let code = "INSERT INTO sms_codes (phone, scene, code, sent_at, expires_at, used) VALUES ('13800000000', 'login', '123456', $1, $2, $3)";
        run(code, vec![now - 2 * day, now - 2 * day + 300, 0]).await;
        run(code, vec![now - 600, now - 300, 1]).await;
        for (key, start) in [("address:old", now - 3600), ("address:new", now - 60)] {
            sqlx::query("INSERT INTO login_failures (key, window_start, failures) VALUES ($1, $2, 3)")
                .bind(key)
                .bind(start)
                .execute(&db.pool)
                .await
                .unwrap();
        }
        for sent in [now - 2 * day, now - 600] {
            run("INSERT INTO sms_notices (phone, body, sent_at) VALUES ('13800000000', '手机号已更换', $1)", vec![sent]).await;
        }
        for (state, expires) in [("old", now - 1), ("new", now + 600)] {
            sqlx::query("INSERT INTO oauth_states (state_hash, member_id, expires_at) VALUES ($1, $2, $3)")
                .bind(state)
                .bind(member)
                .bind(expires)
                .execute(&db.pool)
                .await
                .unwrap();
        }
        for (key, end) in [("stat-address:old", now - 1), ("stat-address:new", now + 30)] {
            sqlx::query("INSERT INTO rate_limits (key, window_end, hits) VALUES ($1, $2, 5)").bind(key).bind(end).execute(&db.pool).await.unwrap();
        }
        for (key, created) in [("old", now - 2 * day), ("new", now - 3600)] {
            sqlx::query("INSERT INTO idempotency (member_id, key, request_hash, response_status, response_body, created_at) VALUES ($1, $2, 'h', 200, '{}', $3)")
                .bind(member)
                .bind(key)
                .bind(created)
                .execute(&db.pool)
                .await
                .unwrap();
        }
        for created in [now - 91 * day, now - 89 * day] {
            run("INSERT INTO page_views (member_id, route, path, detail, created_at) VALUES (NULL, 'home', '/', '', $1)", vec![created]).await;
            run("INSERT INTO client_reports (member_id, kind, path, detail, created_at) VALUES (NULL, 'k', '/', '', $1)", vec![created]).await;
        }
        let before: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM sessions").fetch_one(&db.pool).await.unwrap();

        let purged = origin::purge::purge(db, &security, now).await.unwrap();
        assert_eq!(
            purged,
            origin::purge::Purged {
                sessions: 2,
                sms_codes: 1,
                sms_notices: 1,
                login_failures: 1,
                rate_limits: 1,
                idempotency: 1,
                page_views: 1,
                client_reports: 1,
                oauth_states: 1
            }
        );
        let count = |table: &'static str| async move {
            sqlx::query_scalar::<_, i64>(sqlx::AssertSqlSafe(format!("SELECT COUNT(*) FROM {table}"))).fetch_one(&db.pool).await.unwrap()
        };
        assert_eq!(count("sessions").await, before - 2);
        let live: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM sessions WHERE token_hash = 'live'").fetch_one(&db.pool).await.unwrap();
        assert_eq!(live, 1);
        for table in ["sms_codes", "sms_notices", "login_failures", "rate_limits", "idempotency", "page_views", "client_reports", "oauth_states"] {
            assert_eq!(count(table).await, 1, "{table} keeps its fresh row");
        }
        assert_eq!(origin::purge::purge(db, &security, now).await.unwrap(), origin::purge::Purged::default(), "a second purge finds nothing");
    })
    .await;
}
