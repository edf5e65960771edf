//! The lucky draw on SQLite and PostgreSQL: the popup's check, a draw landing its prize in the
//! member's accounts, one draw per member per activity even when ten race, the activity's
//! dates, and 100 members racing for a prize of stock 10: exactly 10 win it.

use reqwest::{Client, StatusCode};
use serde_json::Value;

use crate::common::{App, approved_buyer, joined, on_both};

async fn demo_scalar(app: &App, column: &str) -> i64 {
    sqlx::query_scalar(sqlx::AssertSqlSafe(format!("SELECT {column} FROM members WHERE username = 'demo'")))
        .fetch_one(&app.db.pool)
        .await
        .unwrap()
}

#[tokio::test]
async fn a_member_draws_once_and_the_prize_lands_in_their_accounts() {
    on_both(|app| async move {
        let visitor = app.client();
        let (status, check) = app.get(&visitor, "/api/draw/simple").await;
        assert_eq!(status, StatusCode::OK, "{check}");
        assert_eq!((check["data"]["id"].clone(), check["data"]["is_join"].as_i64()), (Value::Null, Some(1)), "no popup for a visitor");

        let demo = app.demo().await;
        let (_, check) = app.get(&demo, "/api/draw/simple").await;
        assert_eq!(check["data"]["is_join"], 0, "{check}");
        let id = check["data"]["id"].as_i64().unwrap();
        let (status, activity) = app.get(&demo, &format!("/api/draw?id={id}")).await;
        assert_eq!(status, StatusCode::OK, "{activity}");
        assert_eq!(activity["data"]["prizes"].as_array().unwrap().len(), 4);
        assert_eq!(app.get(&demo, &format!("/api/draw/{id}/activity")).await.1["data"]["title"], activity["data"]["title"]);

        assert_eq!(app.post(&visitor, "/api/draw", &[("id", &id.to_string())]).await.0, StatusCode::UNAUTHORIZED);
        let (points, red, coupons) = (
            demo_scalar(&app, "points").await,
            demo_scalar(&app, "red_packet").await,
            app.get(&demo, "/api/user/couponNum").await.1["data"]["unused"].as_i64().unwrap(),
        );
        let (status, drawn) = app.post(&demo, "/api/draw", &[("id", &id.to_string())]).await;
        assert_eq!(status, StatusCode::OK, "{drawn}");
        let prize = drawn["data"].clone();
        let moved = (
            demo_scalar(&app, "points").await - points,
            demo_scalar(&app, "red_packet").await - red,
            app.get(&demo, "/api/user/couponNum").await.1["data"]["unused"].as_i64().unwrap() - coupons,
        );
        let expected = match prize["kind"].as_i64().unwrap() {
            0 => (0, 0, 0),
            1 => (0, 0, 1),
            2 => (200, 0, 0),
            3 => (0, 100_000, 0),
            other => panic!("kind {other}"),
        };
        assert_eq!(moved, expected, "{prize}");
        assert_eq!(app.get(&demo, "/api/draw/simple").await.1["data"]["is_join"], 1);
        let (status, refused) = app.post(&demo, "/api/draw", &[("id", &id.to_string())]).await;
        assert_eq!((status, refused["msg"].as_str()), (StatusCode::CONFLICT, Some("您已参与过本次抽奖")));
        let (_, records) = app.get(&demo, "/api/draw/record").await;
        assert_eq!(records["data"]["list"].as_array().unwrap().len(), 1);
        assert_eq!(records["data"]["list"][0]["name"], prize["name"]);
        let (_, winners) = app.get(&visitor, &format!("/api/draw/new_record?id={id}")).await;
        let listed = winners["data"]["list"].as_array().unwrap();
        if prize["kind"] != 0 {
            assert_eq!(listed[0]["company"], "杭州****公司");
        } else {
            assert!(listed.is_empty(), "谢谢参与 is no win");
        }

        // Outside its dates, or no such activity.
        sqlx::query("UPDATE draw_activities SET ends_at = 1 WHERE id = $1").bind(id).execute(&app.db.pool).await.unwrap();
        let other = app.other_member().await;
        let (status, refused) = app.post(&other, "/api/draw", &[("id", &id.to_string())]).await;
        assert_eq!((status, refused["msg"].as_str()), (StatusCode::CONFLICT, Some("抽奖活动未开始或已结束")));
        assert_eq!(app.get(&other, "/api/draw/simple").await.1["data"]["id"], Value::Null);
        assert_eq!(app.post(&other, "/api/draw", &[("id", "999999")]).await.0, StatusCode::NOT_FOUND);
    })
    .await;
}

#[tokio::test]
async fn ten_draws_of_one_member_at_once_make_one() {
    on_both(|app| async move {
        let demo = app.demo().await;
        let id = app.get(&demo, "/api/draw/simple").await.1["data"]["id"].as_i64().unwrap().to_string();
        let tasks = (0..10)
            .map(|_| {
                let (app, demo, id) = (app.clone(), demo.clone(), id.clone());
                tokio::spawn(async move { app.post(&demo, "/api/draw", &[("id", &id)]).await.0 })
            })
            .collect();
        let statuses = joined(tasks).await;
        assert_eq!(statuses.iter().filter(|status| **status == StatusCode::OK).count(), 1, "{statuses:?}");
        let records: i64 = sqlx::query_scalar("SELECT CAST(COUNT(*) AS BIGINT) FROM draw_records").fetch_one(&app.db.pool).await.unwrap();
        assert_eq!(records, 1);
    })
    .await;
}

#[tokio::test]
async fn a_hundred_members_racing_for_a_prize_of_ten_get_ten() {
    on_both(|app| async move {
        let now = origin::now();
        let activity: i64 = sqlx::query_scalar(
            "INSERT INTO draw_activities (title, description, starts_at, ends_at) VALUES ('限量抽奖', '', $1, $2) RETURNING id",
        )
        .bind(now - 60)
        .bind(now + 3600)
        .fetch_one(&app.db.pool)
        .await
        .unwrap();
        sqlx::query(
            "INSERT INTO draw_prizes (activity_id, name, remarks, kind, points, weight, stock) VALUES ($1, '500积分', '积分已到账', 2, 500, 1, 10)",
        )
        .bind(activity)
        .execute(&app.db.pool)
        .await
        .unwrap();
        let hash = origin::auth::hash_password("buyer123").unwrap();
        let mut tokens = Vec::new();
        for n in 0..100 {
            let (member, _) = approved_buyer(&app, &hash, "drawer", "133", n).await;
            tokens.push(origin::auth::open_session(&app.db, member).await.unwrap());
        }
        let client = Client::new();
        let tasks = tokens
            .into_iter()
            .map(|token| {
                let (client, url) = (client.clone(), app.url("/api/draw"));
                tokio::spawn(async move {
                    let response = client.post(url).header("Cookie", format!("sid={token}")).form(&[("id", activity)]).send().await.unwrap();
                    let status = response.status();
                    (status, response.json::<Value>().await.unwrap()["msg"].as_str().unwrap_or_default().to_owned())
                })
            })
            .collect();
        let answers = joined(tasks).await;
        assert_eq!(answers.iter().filter(|(status, _)| *status == StatusCode::OK).count(), 10, "{answers:?}");
        assert!(answers.iter().all(|(status, msg)| *status == StatusCode::OK || msg == "奖品已抽完"), "{answers:?}");
        let (handed, points): (i64, i64) = sqlx::query_as(
            "SELECT (SELECT handed FROM draw_prizes WHERE activity_id = $1), \
                    CAST((SELECT COALESCE(SUM(points), 0) FROM members WHERE username LIKE 'drawer%') AS BIGINT)",
        )
        .bind(activity)
        .fetch_one(&app.db.pool)
        .await
        .unwrap();
        assert_eq!((handed, points), (10, 10 * 500));
    })
    .await;
}
