//! Sessions over HTTP: login, logout, the member state, the waits after failed passwords.

use crate::common::{App, on_both};
use reqwest::StatusCode;
use serde_json::Value;

#[tokio::test]
async fn login_logout_and_the_member_state() {
    on_both(|app| async move {
        let client = app.client();
        let (status, wrong) = app.post(&client, "/api/user/login", &[("username", "demo"), ("password", "nope")]).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(wrong["msg"], "账号或密码错误");
        let (status, missing) = app.post(&client, "/api/user/login", &[("username", "demo")]).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(missing["msg"], "请填写密码");

        let response = client.post(app.url("/api/user/login")).form(&[("username", "demo"), ("password", "demo123")]).send().await.unwrap();
        let cookie = response.headers()["set-cookie"].to_str().unwrap().to_owned();
        assert!(cookie.starts_with("sid=") && cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax"), "{cookie}");
        let body: Value = response.json().await.unwrap();
        assert_eq!(body["data"]["username"], "demo");
        let (_, base) = app.get(&client, "/api/user/base").await;
        assert_eq!(base["data"]["login"], true);
        assert!(!base["data"]["company"].as_str().unwrap().is_empty());
        assert!(!base["data"]["admin"]["name"].as_str().unwrap().is_empty());
        assert_eq!(base["data"]["is_AfterSale"], "0");

        let response = client.delete(app.url("/api/user/logout")).send().await.unwrap();
        assert_eq!(response.status(), StatusCode::OK);
        let (_, base) = app.get(&client, "/api/user/base").await;
        assert_eq!(base["data"]["login"], false);
        let (status, cart) = app.get(&client, "/api/cart/list").await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);
        assert_eq!(cart["code"], 10001);

        let (status, _) = app.get(&client, "/api/user/phone/13800000000").await;
        assert_eq!(status, StatusCode::OK);
        let (status, bad) = app.get(&client, "/api/user/phone/12345").await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(bad["msg"], "手机号码格式不正确");
    })
    .await;
}

/// A login as coming from `address` (which the edge would append to `X-Forwarded-For`).
async fn login_from(app: &App, address: &str, form: &[(&str, &str)]) -> (StatusCode, Value) {
    let response = app.client().post(app.url("/api/user/login")).header("X-Forwarded-For", address).form(form).send().await.unwrap();
    (response.status(), response.json().await.unwrap())
}

/// As if `seconds` had passed since the last password attempts counted under keys like `pattern`.
async fn wait_out(app: &App, pattern: &str, seconds: i64) {
    sqlx::query("UPDATE login_failures SET window_start = window_start - $1 WHERE key LIKE $2")
        .bind(seconds)
        .bind(pattern)
        .execute(&app.db.pool)
        .await
        .unwrap();
}

/// Asserts a 429 asking to wait `seconds`, less what the attempts took since `since` (the first
/// attempt of the failures counted; a loaded machine takes seconds to check passwords).
fn assert_wait(status: StatusCode, body: &Value, seconds: i64, since: std::time::Instant) {
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{body}");
    assert_eq!(body["code"], 429);
    let message = body["msg"].as_str().unwrap();
    let waited = message
        .strip_prefix("登录失败次数过多，请在")
        .and_then(|rest| rest.strip_suffix("秒后重试"))
        .and_then(|number| number.parse::<i64>().ok())
        .unwrap_or_else(|| panic!("{message}"));
    let slack = i64::try_from(since.elapsed().as_secs()).unwrap_or(i64::MAX).saturating_add(1);
    assert!((seconds - slack..=seconds).contains(&waited), "{message}: {seconds} s less at most {slack} s");
}

#[tokio::test]
async fn failed_passwords_slow_the_account_with_a_growing_wait_and_a_code_still_signs_in() {
    on_both(|app| async move {
        let wrong = [("username", "demo"), ("password", "wrong1")];
        let right = [("username", "demo"), ("password", "demo123")];
        // Five failures, from two addresses as from one, are free.
        let since = std::time::Instant::now();
        for address in ["198.51.100.1", "198.51.100.2", "198.51.100.2", "198.51.100.3", "198.51.100.3"] {
            let (status, body) = login_from(&app, address, &wrong).await;
            assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
        }
        let (status, body) = login_from(&app, "198.51.100.4", &right).await;
        assert_wait(status, &body, 5, since);

        // A wait waited out lets one attempt through; each further failure doubles it.
        for (waited, next) in [(5, 10), (10, 20), (20, 40)] {
            wait_out(&app, "account:%", waited).await;
            let since = std::time::Instant::now();
            let (status, body) = login_from(&app, "198.51.100.5", &wrong).await;
            assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "after {waited} s: {body}");
            let (status, body) = login_from(&app, "198.51.100.5", &wrong).await;
            assert_wait(status, &body, next, since);
        }
        // A refused attempt adds nothing: 40 s later the owner's password works, and clears the
        // account's count.
        wait_out(&app, "account:%", 40).await;
        let (status, body) = login_from(&app, "198.51.100.6", &right).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        let (status, _) = login_from(&app, "198.51.100.6", &wrong).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "the count starts again");

        // The wait stops growing at 15 minutes.
        sqlx::query("UPDATE login_failures SET failures = 40 WHERE key LIKE 'account:%'").execute(&app.db.pool).await.unwrap();
        let (status, body) = login_from(&app, "198.51.100.7", &right).await;
        assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
        assert_eq!(body["msg"], "登录失败次数过多，请在15分钟后重试");

        // The owner signs in with a code sent to the phone at any time, which clears the count.
        let phone: String = sqlx::query_scalar("SELECT phone FROM members WHERE username = 'demo'").fetch_one(&app.db.pool).await.unwrap();
        let client = app.client();
        let (status, body) = app.post(&client, "/api/user/create_code", &[("phone", &phone), ("scene", "login")]).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        let code: String = sqlx::query_scalar("SELECT code FROM sms_codes WHERE phone = $1 AND scene = 'login' ORDER BY id DESC LIMIT 1")
            .bind(&phone)
            .fetch_one(&app.db.pool)
            .await
            .unwrap();
        let wrong_code = if code == "000000" { "111111" } else { "000000" };
        let (status, body) = app.post(&client, "/api/user/login", &[("phone", &phone), ("code", wrong_code)]).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(body["msg"], "验证码错误或已过期");
        let (status, body) = app.post(&client, "/api/user/login", &[("phone", &phone), ("code", &code)]).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        assert_eq!(body["data"]["username"], "demo");
        let (_, base) = app.get(&client, "/api/user/base").await;
        assert_eq!(base["data"]["login"], true);
        let (status, _) = app.post(&app.client(), "/api/user/login", &[("phone", &phone), ("code", &code)]).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "a code signs in once");
        let (status, _) = login_from(&app, "198.51.100.7", &right).await;
        assert_eq!(status, StatusCode::OK, "a sign-in by code clears the account's count");
    })
    .await;
}

#[tokio::test]
async fn failed_passwords_slow_the_address_and_not_the_owner_elsewhere() {
    on_both(|app| async move {
        // One address failing on ten accounts waits; the owner of one of them, elsewhere, does not.
        let since = std::time::Instant::now();
        for n in 0..10 {
            let (status, body) = login_from(&app, "198.51.100.9", &[("username", &format!("nobody{n}")), ("password", "wrong1")]).await;
            assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
        }
        let (status, body) = login_from(&app, "198.51.100.9", &[("username", "demo"), ("password", "demo123")]).await;
        assert_wait(status, &body, 5, since);
        let (status, body) = login_from(&app, "198.51.100.10", &[("username", "demo"), ("password", "demo123")]).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        // A success elsewhere does not free the failing address.
        let (status, _) = login_from(&app, "198.51.100.9", &[("username", "nobody0"), ("password", "wrong1")]).await;
        assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
    })
    .await;
}

#[tokio::test]
async fn twenty_parallel_wrong_passwords_check_at_most_five() {
    on_both(|app| async move {
        let attempts = (0..20).map(|n| {
            let (client, url) = (app.client(), app.url("/api/user/login"));
            tokio::spawn(async move {
                let response = client
                    .post(url)
                    .header("X-Forwarded-For", format!("198.51.100.{}", 100 + n))
                    .form(&[("username", "demo"), ("password", "wrong1")])
                    .send()
                    .await
                    .unwrap();
                response.status()
            })
        });
        let mut checked = 0;
        for attempt in attempts.collect::<Vec<_>>() {
            match attempt.await.unwrap() {
                StatusCode::UNPROCESSABLE_ENTITY => checked += 1,
                StatusCode::TOO_MANY_REQUESTS => {}
                other => panic!("{other}"),
            }
        }
        assert_eq!(checked, 5, "the account's five free attempts, however many arrive at once");
    })
    .await;
}

#[tokio::test]
async fn an_unknown_account_takes_as_long_as_a_known_one() {
    on_both(|app| async move {
        let client = app.client();
        let mut known = Vec::new();
        let mut unknown = Vec::new();
        for _ in 0..3 {
            for (username, times) in [("demo", &mut known), ("nobody_here", &mut unknown)] {
                let started = std::time::Instant::now();
                let (status, body) = app.post(&client, "/api/user/login", &[("username", username), ("password", "wrong1")]).await;
                times.push(started.elapsed());
                assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
                assert_eq!(body["msg"], "账号或密码错误");
            }
        }
        let (known, unknown) = (known.into_iter().min().unwrap(), unknown.into_iter().min().unwrap());
        assert!(unknown * 2 >= known, "an unknown account answered in {unknown:?}, a known one in {known:?}");
    })
    .await;
}

/// Sets a column of every session (the tests have one at a time).
async fn set(app: &App, column: &str, value: i64) {
    sqlx::query(sqlx::AssertSqlSafe(format!("UPDATE sessions SET {column} = $1"))).bind(value).execute(&app.db.pool).await.unwrap();
}

async fn last_seen(app: &App) -> i64 {
    sqlx::query_scalar("SELECT last_seen FROM sessions").fetch_one(&app.db.pool).await.unwrap()
}

#[tokio::test]
async fn sessions_end_when_idle_and_are_touched_at_most_once_a_minute() {
    on_both(|app| async move {
        let demo = app.demo().await;
        let idle = origin::security::Security::default().session_idle_seconds;
        let now = origin::now();
        set(&app, "last_seen", now - 90).await;
        let (_, base) = app.get(&demo, "/api/user/base").await;
        assert_eq!(base["data"]["login"], true);
        assert!(last_seen(&app).await >= now, "used after more than a minute: last_seen moves on");
        set(&app, "last_seen", now - 30).await;
        let (_, base) = app.get(&demo, "/api/user/base").await;
        assert_eq!(base["data"]["login"], true);
        assert_eq!(last_seen(&app).await, now - 30, "used again within the minute: nothing is written");
        set(&app, "last_seen", now - idle - 1).await;
        let (_, base) = app.get(&demo, "/api/user/base").await;
        assert_eq!(base["data"]["login"], false, "idle too long");
        let (status, _) = app.get(&demo, "/api/cart/list").await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);

        let demo = app.demo().await;
        sqlx::query("DELETE FROM sessions WHERE last_seen < $1").bind(now - idle).execute(&app.db.pool).await.unwrap();
        set(&app, "expires_at", origin::now()).await;
        let (_, base) = app.get(&demo, "/api/user/base").await;
        assert_eq!(base["data"]["login"], false, "past its lifetime, however busy");
    })
    .await;
}

#[tokio::test]
async fn every_login_opens_a_new_session_and_ends_the_one_before() {
    on_both(|app| async move {
        let client = app.client();
        let token = |response: &reqwest::Response| -> String {
            let cookie = response.headers()["set-cookie"].to_str().unwrap();
            cookie.trim_start_matches("sid=").split(';').next().unwrap().to_owned()
        };
        let form = [("username", "demo"), ("password", "demo123")];
        let first = client.post(app.url("/api/user/login")).form(&form).send().await.unwrap();
        let first = token(&first);
        let second = client.post(app.url("/api/user/login")).form(&form).send().await.unwrap();
        let second = token(&second);
        assert_ne!(first, second);
        let with = |token: String| {
            let url = app.url("/api/user/base");
            async move {
                let response = reqwest::Client::new().get(url).header("Cookie", format!("sid={token}")).send().await.unwrap();
                response.json::<Value>().await.unwrap()
            }
        };
        assert_eq!(with(first).await["data"]["login"], false, "the session the login replaced is over");
        assert_eq!(with(second).await["data"]["login"], true);
        let sessions: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM sessions").fetch_one(&app.db.pool).await.unwrap();
        assert_eq!(sessions, 1);
    })
    .await;
}
