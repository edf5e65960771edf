//! Joining and recovering accounts over HTTP, on SQLite and PostgreSQL.

use crate::common::{App, on_both};
use reqwest::{Client, StatusCode};
use serde_json::Value;

/// The code the (log) sender sent to the phone, as a test reads it: from the database.
async fn sent_code(app: &App, phone: &str, scene: &str) -> String {
    sqlx::query_scalar("SELECT code FROM sms_codes WHERE phone = $1 AND scene = $2 ORDER BY id DESC LIMIT 1")
        .bind(phone)
        .bind(scene)
        .fetch_one(&app.db.pool)
        .await
        .unwrap()
}

async fn request_code(app: &App, client: &Client, phone: &str, scene: &str) -> String {
    let (status, body) = app.post(client, "/api/user/create_code", &[("phone", phone), ("scene", scene)]).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    sent_code(app, phone, scene).await
}

#[tokio::test]
async fn a_pharmacy_registers_in_three_steps() {
    on_both(|app| async move {
        let client = app.client();
        let phone = "13911112222";
        let (status, bad) = app.post(&client, "/api/user/create_code", &[("phone", "1234"), ("scene", "register")]).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(bad["msg"], "手机号码格式不正确");
        let code = request_code(&app, &client, phone, "register").await;
        assert_eq!(code.len(), 6);
        let (status, again) = app.post(&client, "/api/user/create_code", &[("phone", phone), ("scene", "register")]).await;
        assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
        assert_eq!(again["msg"], "验证码发送过于频繁，请60秒后再试");

        let (status, wrong) = app.post(&client, "/api/user/register", &[("step", "1"), ("phone", phone), ("code", "000000x")]).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(wrong["msg"], "验证码错误或已过期");
        let (status, step1) = app.post(&client, "/api/user/register", &[("step", "1"), ("phone", phone), ("code", &code)]).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(step1["data"]["step"], 2);

        let (status, invalid) = app
            .post(
                &client,
                "/api/user/register",
                &[("step", "2"), ("phone", phone), ("code", &code), ("username", "1x"), ("password", "abc"), ("email", "bad")],
            )
            .await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        let errors = &invalid["data"]["errors"];
        assert_eq!(invalid["msg"], "用户名为4-20位字母、数字或下划线，以字母开头", "the first message");
        for field in ["username", "password", "company", "name", "email", "buyer_type"] {
            assert!(errors[field].is_array(), "{field}: {invalid}");
        }

        let form = [
            ("step", "2"),
            ("phone", phone),
            ("code", code.as_str()),
            ("username", "renxin01"),
            ("password", "yaofang8"),
            ("password_confirmation", "yaofang8"),
            ("company", "仁心大药房"),
            ("name", "赵六"),
            ("email", "caigou@renxin.cn"),
            ("buyer_type", "1"),
        ];
        let (status, step2) = app.post(&client, "/api/user/register", &form).await;
        assert_eq!(status, StatusCode::OK, "{step2}");
        assert_eq!(step2["data"]["step"], 3);
        assert_eq!(step2["data"]["is_passed"], 0);
        assert_eq!(step2["data"]["buyer_type"], 1);
        assert_eq!(step2["data"]["required"], serde_json::json!(["营业执照", "药品经营许可证"]));
        let (_, base) = app.get(&client, "/api/user/base").await;
        assert_eq!(base["data"]["username"], "renxin01", "registering logs the member in");
        let (status, step3) = app.post(&client, "/api/user/register", &[("step", "3"), ("licence", "浙AA5710001")]).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(step3["data"]["qualifications"], 1);
        let (status, replay) = app.post(&app.client(), "/api/user/register", &form).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "the code is spent and the account exists: {replay}");

        let (status, login) = app.post(&app.client(), "/api/user/login", &[("username", phone), ("password", "yaofang8")]).await;
        assert_eq!(status, StatusCode::OK, "members log in with their phone too: {login}");
        let (_, taken) = app.get(&client, &format!("/api/user/phone/{phone}")).await;
        assert_eq!(taken["data"]["free"], false);
    })
    .await;
}

#[tokio::test]
async fn a_chain_registers_its_stores() {
    on_both(|app| async move {
        let client = app.client();
        let phone = "13922223333";
        let code = request_code(&app, &client, phone, "register").await;
        let base = [
            ("step", "2"),
            ("dd", "1"),
            ("phone", phone),
            ("code", code.as_str()),
            ("username", "liansuo"),
            ("password", "chain888"),
            ("password_confirmation", "chain888"),
            ("company", "康民连锁"),
            ("name", "钱七"),
        ];
        let (status, none) = app.post(&client, "/api/user/register", &base).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(none["msg"], "请至少填写一家门店");
        let mut form = base.to_vec();
        form.extend([("stores[]", "康民西湖店"), ("stores[]", "康民滨江店")]);
        let (status, body) = app.post(&client, "/api/user/register", &form).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        assert_eq!(body["data"]["dd"], 1);
        let stores: i64 =
            sqlx::query_scalar("SELECT COUNT(*) FROM member_stores s JOIN members m ON m.id = s.member_id WHERE m.username = 'liansuo'")
                .fetch_one(&app.db.pool)
                .await
                .unwrap();
        assert_eq!(stores, 2);
    })
    .await;
}

#[tokio::test]
async fn a_forgotten_password_is_reset_with_a_code() {
    on_both(|app| async move {
        let client = app.client();
        let demo_phone: String =
            sqlx::query_scalar("SELECT phone FROM members WHERE username = 'demo'").fetch_one(&app.db.pool).await.unwrap();
        let logged_in = app.demo().await;
        let (status, unknown) = app.post(&client, "/api/user/create_code", &[("phone", "13000000001"), ("scene", "forget")]).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(unknown["msg"], "该手机号未注册");
        let code = request_code(&app, &client, &demo_phone, "forget").await;
        let (status, step1) = app.post(&client, "/api/user/forget", &[("step", "1"), ("phone", &demo_phone), ("code", &code)]).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(step1["data"]["step"], 2);
        let (status, mismatch) = app
            .post(
                &client,
                "/api/user/forget",
                &[("step", "2"), ("phone", &demo_phone), ("code", &code), ("password", "newpass1"), ("password_confirmation", "newpass2")],
            )
            .await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(mismatch["msg"], "两次输入的密码不一致");
        let (status, _) = app
            .post(
                &client,
                "/api/user/forget",
                &[("step", "2"), ("phone", &demo_phone), ("code", &code), ("password", "newpass1"), ("password_confirmation", "newpass1")],
            )
            .await;
        assert_eq!(status, StatusCode::OK);
        let (_, base) = app.get(&logged_in, "/api/user/base").await;
        assert_eq!(base["data"]["login"], false, "a reset closes the old sessions");
        let (status, _) = app.post(&client, "/api/user/login", &[("username", "demo"), ("password", "demo123")]).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        let (status, _) = app.post(&client, "/api/user/login", &[("username", "demo"), ("password", "newpass1")]).await;
        assert_eq!(status, StatusCode::OK);

        let (status, _) = app.post(&client, "/api/user/updateUserInfo", &[("name", "新联系人"), ("phone", &demo_phone)]).await;
        assert_eq!(status, StatusCode::OK, "the same phone needs no code");
        let (_, base) = app.get(&client, "/api/user/base").await;
        assert_eq!(base["data"]["name"], "新联系人");
        let (status, weak) = app
            .post(
                &client,
                "/api/user/resetPassword",
                &[("old_password", "newpass1"), ("password", "short"), ("password_confirmation", "short")],
            )
            .await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(weak["msg"], "密码长度为6-20位");
        let (status, _) = app
            .post(
                &client,
                "/api/user/resetPassword",
                &[("old_password", "newpass1"), ("password", "another9"), ("password_confirmation", "another9")],
            )
            .await;
        assert_eq!(status, StatusCode::OK);
        let (status, _) = app
            .post(
                &app.client(),
                "/api/user/resetPassword",
                &[("old_password", "another9"), ("password", "another9"), ("password_confirmation", "another9")],
            )
            .await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);
    })
    .await;
}

#[tokio::test]
async fn a_code_dies_after_five_wrong_guesses() {
    on_both(|app| async move {
        let client = app.client();
        let demo_phone: String =
            sqlx::query_scalar("SELECT phone FROM members WHERE username = 'demo'").fetch_one(&app.db.pool).await.unwrap();
        let code = request_code(&app, &client, &demo_phone, "forget").await;
        let wrong = if code == "000000" { "111111" } else { "000000" };
        for _ in 0..5 {
            let (status, _) = app.post(&client, "/api/user/forget", &[("step", "1"), ("phone", &demo_phone), ("code", wrong)]).await;
            assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        }
        let (status, body) = app.post(&client, "/api/user/forget", &[("step", "1"), ("phone", &demo_phone), ("code", &code)]).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "the right code no longer works: {body}");
        assert_eq!(body["msg"], "验证码错误或已过期");
    })
    .await;
}

/// The demo member's phone.
async fn demo_phone(app: &App) -> String {
    sqlx::query_scalar("SELECT phone FROM members WHERE username = 'demo'").fetch_one(&app.db.pool).await.unwrap()
}

/// A code other than `code`.
fn wrong(code: &str) -> &'static str {
    if code == "000000" { "111111" } else { "000000" }
}

/// As if the minute between two codes of a phone had passed.
async fn a_minute_later(app: &App) {
    sqlx::query("UPDATE sms_codes SET sent_at = sent_at - 120").execute(&app.db.pool).await.unwrap();
}

#[tokio::test]
async fn fifty_parallel_guesses_compare_at_most_five() {
    on_both(|app| async move {
        let phone = demo_phone(&app).await;
        let code = request_code(&app, &app.client(), &phone, "forget").await;
        let wrong = wrong(&code);
        let guesses = (0..50).map(|_| {
            let (client, url, phone) = (app.client(), app.url("/api/user/forget"), phone.clone());
            tokio::spawn(async move {
                let response = client.post(url).form(&[("step", "1"), ("phone", phone.as_str()), ("code", wrong)]).send().await.unwrap();
                (response.status(), response.json::<Value>().await.unwrap())
            })
        });
        for guess in guesses.collect::<Vec<_>>() {
            let (status, body) = guess.await.unwrap();
            assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
            assert_eq!(body["msg"], "验证码错误或已过期");
        }
        let attempts: i64 = sqlx::query_scalar("SELECT attempts FROM sms_codes WHERE phone = $1 ORDER BY id DESC LIMIT 1")
            .bind(&phone)
            .fetch_one(&app.db.pool)
            .await
            .unwrap();
        assert_eq!(attempts, 5, "of the 50 guesses, only 5 were compared with the code");
        let (status, body) = app.post(&app.client(), "/api/user/forget", &[("step", "1"), ("phone", &phone), ("code", &code)]).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "the right code after 50 wrong ones: {body}");
        assert_eq!(body["msg"], "验证码错误或已过期");

        // The owner asks for a fresh code, which works.
        a_minute_later(&app).await;
        let fresh = request_code(&app, &app.client(), &phone, "forget").await;
        let (status, body) = app.post(&app.client(), "/api/user/forget", &[("step", "1"), ("phone", &phone), ("code", &fresh)]).await;
        assert_eq!(status, StatusCode::OK, "{body}");
    })
    .await;
}

#[tokio::test]
async fn guesses_at_every_scene_never_refuse_the_owners_fresh_code() {
    on_both(|app| async move {
        let phone = demo_phone(&app).await;
        let attacker = app.client();
        // Thirty wrong guesses, five at each of six codes over the login and reset scenes.
        for scene in ["login", "forget", "login", "forget", "login", "forget"] {
            let code = request_code(&app, &attacker, &phone, scene).await;
            for _ in 0..5 {
                let (status, body) = if scene == "login" {
                    app.post(&attacker, "/api/user/login", &[("phone", &phone), ("code", wrong(&code))]).await
                } else {
                    app.post(&attacker, "/api/user/forget", &[("step", "1"), ("phone", &phone), ("code", wrong(&code))]).await
                };
                assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{scene}: {body}");
                assert_eq!(body["msg"], "验证码错误或已过期");
            }
            a_minute_later(&app).await;
        }

        let owner = app.client();
        let code = request_code(&app, &owner, &phone, "login").await;
        let (status, body) = app.post(&owner, "/api/user/login", &[("phone", &phone), ("code", &code)]).await;
        assert_eq!(status, StatusCode::OK, "the owner's fresh login code: {body}");
        assert_eq!(body["data"]["username"], "demo");
        let code = request_code(&app, &owner, &phone, "forget").await;
        let (status, body) = app.post(&owner, "/api/user/forget", &[("step", "1"), ("phone", &phone), ("code", &code)]).await;
        assert_eq!(status, StatusCode::OK, "the owner's fresh reset code: {body}");
    })
    .await;
}

#[tokio::test]
async fn codes_are_capped_per_phone_and_per_address_each_day() {
    on_both(|app| async move {
        let phone = demo_phone(&app).await;
        let client = app.client();
        for _ in 0..10 {
            request_code(&app, &client, &phone, "forget").await;
            // As if the minute between two codes had passed.
            sqlx::query("UPDATE sms_codes SET sent_at = sent_at - 120").execute(&app.db.pool).await.unwrap();
        }
        let (status, body) = app.post(&client, "/api/user/create_code", &[("phone", &phone), ("scene", "forget")]).await;
        assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{body}");
        assert_eq!(body["msg"], "该手机号今日获取验证码次数已达上限，请明天再试");

        // Eleven asks came from this address (the refused one counts: it got past the address);
        // nine more to other phones, then the address is refused.
        for n in 0..9 {
            request_code(&app, &client, &format!("1370000{n:04}"), "register").await;
        }
        let (status, body) = app.post(&client, "/api/user/create_code", &[("phone", "13700009999"), ("scene", "register")]).await;
        assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{body}");
        assert_eq!(body["msg"], "今日获取验证码次数过多，请明天再试");
        let elsewhere = client
            .post(app.url("/api/user/create_code"))
            .header("X-Forwarded-For", "203.0.113.9")
            .form(&[("phone", "13700009999"), ("scene", "register")])
            .send()
            .await
            .unwrap();
        assert_eq!(elsewhere.status(), StatusCode::OK, "another address has its own count");
    })
    .await;
}

/// `updateUserInfo`'s form moving the phone.
fn change_phone_form<'a>(phone: &'a str, password: &'a str, code: &'a str) -> [(&'static str, &'a str); 4] {
    [("name", "新联系人"), ("phone", phone), ("password", password), ("code", code)]
}

/// Whether the client's session is still open.
async fn signed_in(app: &App, client: &Client) -> bool {
    app.get(client, "/api/user/base").await.1["data"]["login"] == true
}

#[tokio::test]
async fn a_stolen_session_cannot_change_the_password_or_the_phone() {
    on_both(|app| async move {
        let demo = app.demo().await;
        let elsewhere = app.demo().await;
        let form = |old: &'static str| [("old_password", old), ("password", "another9"), ("password_confirmation", "another9")];
        let (status, missing) =
            app.post(&demo, "/api/user/resetPassword", &[("password", "another9"), ("password_confirmation", "another9")]).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(missing["msg"], "请填写原密码");
        let (status, wrong_old) = app.post(&demo, "/api/user/resetPassword", &form("guess123")).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(wrong_old["msg"], "原密码不正确");
        assert!(wrong_old["data"]["errors"]["old_password"].is_array(), "{wrong_old}");
        let (status, _) = app.post(&demo, "/api/user/resetPassword", &form("demo123")).await;
        assert_eq!(status, StatusCode::OK);
        assert!(signed_in(&app, &demo).await, "the session that changed the password stays");
        assert!(!signed_in(&app, &elsewhere).await, "every other session ends with the old password");

        let old_phone = demo_phone(&app).await;
        let new_phone = "13955556666";
        let (status, visitor) = app.post(&app.client(), "/api/user/create_code", &[("phone", new_phone), ("scene", "change_phone")]).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "only a member may ask for a change_phone code: {visitor}");
        let other = app.other_member().await;
        let (status, taken) = app.post(&other, "/api/user/create_code", &[("phone", &old_phone), ("scene", "change_phone")]).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{taken}");
        let code = request_code(&app, &demo, new_phone, "change_phone").await;

        // The new phone's code alone does not move the account: the current password is needed.
        let change = |password, code| change_phone_form(new_phone, password, code);
        let (status, needs) =
            app.post(&demo, "/api/user/updateUserInfo", &[("name", "新联系人"), ("phone", new_phone), ("code", &code)]).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(needs["msg"], "请填写密码");
        let (status, wrong_password) = app.post(&demo, "/api/user/updateUserInfo", &change("demo123", &code)).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(wrong_password["msg"], "登录密码不正确");
        assert!(wrong_password["data"]["errors"]["password"].is_array(), "{wrong_password}");
        let (status, _) = app.post(&demo, "/api/user/updateUserInfo", &change("another9", wrong(&code))).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(demo_phone(&app).await, old_phone);

        let elsewhere = app.client();
        let (status, _) = app.post(&elsewhere, "/api/user/login", &[("username", "demo"), ("password", "another9")]).await;
        assert_eq!(status, StatusCode::OK);
        let (status, body) = app.post(&demo, "/api/user/updateUserInfo", &change("another9", &code)).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        let (_, base) = app.get(&demo, "/api/user/base").await;
        assert_eq!(base["data"]["phone"], new_phone, "the session that changed the phone stays");
        assert!(!signed_in(&app, &elsewhere).await, "every other session ends with the old phone");

        // The old phone and the member's messages are told.
        let notices: Vec<String> =
            sqlx::query_scalar("SELECT body FROM sms_notices WHERE phone = $1").bind(&old_phone).fetch_all(&app.db.pool).await.unwrap();
        assert_eq!(notices.len(), 1, "{notices:?}");
        assert!(notices[0].contains("139****6666"), "{}", notices[0]);
        let (_, messages) = app.get(&demo, "/api/user/message").await;
        let told = messages["data"]["list"].as_array().unwrap().iter().find(|message| message["title"] == "手机号已更换");
        assert!(told.is_some_and(|message| message["body"].as_str().unwrap().contains("139****6666")), "{messages}");

        // For a day, the new phone does not reset the password.
        let hold = "手机号更换未满24小时，暂不能通过该手机号找回密码";
        let (status, body) = app.post(&app.client(), "/api/user/create_code", &[("phone", new_phone), ("scene", "forget")]).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
        assert_eq!(body["msg"], hold);
        let now = origin::now();
        sqlx::query("INSERT INTO sms_codes (phone, scene, code, sent_at, expires_at) VALUES ($1, 'forget', '123456', $2, $3)")
            .bind(new_phone)
            .bind(now)
            .bind(now + 300)
            .execute(&app.db.pool)
            .await
            .unwrap();
        let reset =
            [("step", "2"), ("phone", new_phone), ("code", "123456"), ("password", "stolen99"), ("password_confirmation", "stolen99")];
        let (status, body) = app.post(&app.client(), "/api/user/forget", &reset).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
        assert_eq!(body["msg"], hold);
        sqlx::query("UPDATE members SET phone_changed_at = phone_changed_at - 86400 WHERE phone = $1")
            .bind(new_phone)
            .execute(&app.db.pool)
            .await
            .unwrap();
        let (status, body) = app.post(&app.client(), "/api/user/forget", &reset).await;
        assert_eq!(status, StatusCode::OK, "a day later: {body}");

        let (status, _) = app
            .post(
                &demo,
                "/api/user/updateUserInfo",
                &[("name", "再改"), ("phone", "13955557777"), ("password", "stolen99"), ("code", &code)],
            )
            .await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "the reset ended every session");
    })
    .await;
}

#[tokio::test]
async fn phone_lookups_are_limited_per_address_and_per_member() {
    on_both(|app| async move {
        let client = app.client();
        let lookup = |address: &'static str, client: Client, phone: String| {
            let url = app.url(&format!("/api/user/phone/{phone}"));
            async move {
                let response = client.get(url).header("X-Forwarded-For", address).send().await.unwrap();
                (response.status(), response.json::<Value>().await.unwrap())
            }
        };
        for n in 0..10 {
            let (status, body) = lookup("198.51.100.20", client.clone(), format!("1390000{n:04}")).await;
            assert_eq!(status, StatusCode::OK, "{body}");
        }
        let (status, body) = lookup("198.51.100.20", client.clone(), "13900009999".into()).await;
        assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "the 11th lookup of the minute: {body}");
        assert_eq!(body["msg"], "查询过于频繁，请稍后再试");
        // The other answers that tell whether a phone is registered count with the lookups.
        let response = client
            .post(app.url("/api/user/create_code"))
            .header("X-Forwarded-For", "198.51.100.20")
            .form(&[("phone", demo_phone(&app).await.as_str()), ("scene", "register")])
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::TOO_MANY_REQUESTS);
        let (status, _) = lookup("198.51.100.21", client.clone(), "13900009999".into()).await;
        assert_eq!(status, StatusCode::OK, "another address has its own count");

        // A member is counted whatever address it claims.
        let demo = app.demo().await;
        for n in 0..10 {
            let (status, body) = lookup(["198.51.100.30", "198.51.100.31"][n % 2], demo.clone(), format!("1390001{n:04}")).await;
            assert_eq!(status, StatusCode::OK, "{body}");
        }
        let (status, body) = lookup("198.51.100.32", demo.clone(), "13900019999".into()).await;
        assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{body}");
        assert_eq!(body["msg"], "查询过于频繁，请稍后再试");
    })
    .await;
}

#[tokio::test]
async fn free_text_is_bounded_with_a_chinese_message() {
    on_both(|app| async move {
        let client = app.client();
        let phone = "13911113333";
        let code = request_code(&app, &client, phone, "register").await;
        let company = "仁".repeat(101);
        let store = "店".repeat(101);
        let form = [
            ("step", "2"),
            ("phone", phone),
            ("code", code.as_str()),
            ("username", "renxin02"),
            ("password", "yaofang8"),
            ("password_confirmation", "yaofang8"),
            ("company", company.as_str()),
            ("name", "赵六"),
            ("dd", "1"),
            ("stores[]", store.as_str()),
        ];
        let (status, body) = app.post(&client, "/api/user/register", &form).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(body["msg"], "企业名称不能超过100字");
        assert_eq!(body["data"]["errors"]["stores"][0], "门店名称不能超过100字");
        let demo = app.demo().await;
        let name = "名".repeat(31);
        let (status, body) = app.post(&demo, "/api/user/updateUserInfo", &[("name", &name), ("phone", &demo_phone(&app).await)]).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(body["msg"], "联系人不能超过30字");
        let (status, body) = app.post(&demo, "/api/user/register", &[("step", "3"), ("licence", &"9".repeat(51))]).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(body["msg"], "药品经营许可证编号不能超过50字");
        let (status, body) = app.get(&demo, &format!("/api/goods/list?keyword={}", "a".repeat(101))).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(body["msg"], "关键词不能超过100字");
    })
    .await;
}
