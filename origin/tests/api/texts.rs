//! Member text without control characters: every free-text field refuses C0 and C1 controls
//! (a field of several lines takes line breaks and tabs), and `origin admin` shows escaped
//! whatever older data still holds.

use crate::common::{App, admin, on_both};
use reqwest::{Client, StatusCode};

/// An ANSI colour, an OSC 52 clipboard write, the one-character C1 CSI; a line break.
const ESCAPES: [&str; 3] = ["\u{1b}[31m", "\u{1b}]52;c;ZWNobyBwd25lZA==\u{7}", "\u{9b}2J"];

async fn sent_code(app: &App, client: &Client, phone: &str) -> String {
    let (status, body) = app.post(client, "/api/user/create_code", &[("phone", phone), ("scene", "register")]).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    sqlx::query_scalar("SELECT code FROM sms_codes WHERE phone = $1 AND scene = 'register' ORDER BY id DESC LIMIT 1")
        .bind(phone)
        .fetch_one(&app.db.pool)
        .await
        .unwrap()
}

#[tokio::test]
async fn free_text_refuses_control_characters() {
    on_both(|app| async move {
        let demo = app.demo().await;
        let address = |contact: String| {
            [
                ("contact", contact),
                ("phone", "13812345678".to_owned()),
                ("province", "浙江省".to_owned()),
                ("city", "杭州市".to_owned()),
                ("district", "西湖区".to_owned()),
                ("detail", "文三路99号".to_owned()),
            ]
        };
        let post = |path: &'static str, form: Vec<(&'static str, String)>| {
            let (app, demo) = (app.clone(), demo.clone());
            async move {
                let form: Vec<(&str, &str)> = form.iter().map(|(key, value)| (*key, value.as_str())).collect();
                app.post(&demo, path, &form).await
            }
        };
        for escape in ESCAPES {
            let (status, refused) = post("/api/user/feedback", vec![("kind", "1".into()), ("body", format!("配送{escape}太慢"))]).await;
            assert_eq!(
                (status, refused["msg"].as_str()),
                (StatusCode::UNPROCESSABLE_ENTITY, Some("反馈内容不能包含控制字符")),
                "{escape:?}"
            );
            assert_eq!(refused["data"]["errors"]["body"][0], "反馈内容不能包含控制字符");
            let (status, refused) = post("/api/user/address", address(format!("李{escape}四")).to_vec()).await;
            assert_eq!((status, refused["msg"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("收货人不能包含控制字符")), "{escape:?}");
        }
        // A one-line field takes no line break; a field of several lines takes line breaks and tabs.
        let (status, refused) = post("/api/user/address", address("李\n四".into()).to_vec()).await;
        assert_eq!((status, refused["msg"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("收货人不能包含控制字符")));
        let (status, sent) = post("/api/user/feedback", vec![("kind", "1".into()), ("body", "第一行\r\n第二行\t完".into())]).await;
        assert_eq!(status, StatusCode::OK, "{sent}");
        assert_eq!(sent["data"]["body"], "第一行\r\n第二行\t完");
        let (_, mine) = app.get(&demo, "/api/user/feedback").await;
        assert_eq!(mine["data"]["total"], 1, "nothing refused was recorded");
        let addresses: i64 =
            sqlx::query_scalar("SELECT COUNT(*) FROM addresses WHERE contact LIKE '李%四'").fetch_one(&app.db.pool).await.unwrap();
        assert_eq!(addresses, 0);

        // Registration: the contact's name.
        let client = app.client();
        let phone = "13922223333";
        let code = sent_code(&app, &client, phone).await;
        for escape in ESCAPES {
            let name = format!("赵{escape}六");
            let form = [
                ("step", "2"),
                ("phone", phone),
                ("code", code.as_str()),
                ("username", "renxin02"),
                ("password", "yaofang8"),
                ("password_confirmation", "yaofang8"),
                ("company", "仁心大药房"),
                ("name", name.as_str()),
            ];
            let (status, refused) = app.post(&client, "/api/user/register", &form).await;
            assert_eq!((status, refused["msg"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("联系人不能包含控制字符")), "{refused}");
        }
        let registered: i64 =
            sqlx::query_scalar("SELECT COUNT(*) FROM members WHERE username = 'renxin02'").fetch_one(&app.db.pool).await.unwrap();
        assert_eq!(registered, 0);
    })
    .await;
}

#[tokio::test]
async fn the_operator_sees_old_control_characters_escaped() {
    on_both(|app| async move {
        // Written before the API refused them: straight into the database.
        let member: i64 = sqlx::query_scalar("SELECT id FROM members WHERE username = 'demo'").fetch_one(&app.db.pool).await.unwrap();
        sqlx::query("UPDATE members SET company = $1 WHERE id = $2")
            .bind("仁心\u{1b}]52;c;cm0gLXJmIH4=\u{7}大药房")
            .bind(member)
            .execute(&app.db.pool)
            .await
            .unwrap();
        sqlx::query("INSERT INTO feedback (member_id, kind, body, created_at) VALUES ($1, 1, $2, 0)")
            .bind(member)
            .bind("\u{1b}[2J\u{1b}[31m请退款\u{9b}0m\r\n\tfake")
            .execute(&app.db.pool)
            .await
            .unwrap();
        let members = admin(&app, &["members", "--search", "demo"]).await.unwrap();
        assert!(members.contains("仁心\\u{1b}]52;c;cm0gLXJmIH4=\\u{7}大药房"), "{members}");
        let feedback = admin(&app, &["feedback"]).await.unwrap();
        assert!(feedback.contains("\\u{1b}[2J\\u{1b}[31m请退款\\u{9b}0m\\r\\n\\tfake"), "{feedback}");
        for out in [&members, &feedback] {
            assert!(!out.chars().any(|c| c.is_control() && c != '\n' && c != '\t'), "{out:?}");
            assert_eq!(out.lines().count(), 2, "a header and one row: {out}");
        }
    })
    .await;
}
