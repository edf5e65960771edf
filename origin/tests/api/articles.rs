//! Help and news articles on SQLite and PostgreSQL: the footer's article 66 is 会员注册, an
//! article carries its neighbours in its list, bodies are Markdown rendered with any HTML in them
//! made inert, and the operator publishes and edits articles from Markdown files.

use reqwest::StatusCode;

use crate::common::{admin, on_both};

#[tokio::test]
async fn articles_render_safely_with_their_neighbours_and_operators_publish_them() {
    on_both(|app| async move {
        let client = app.client();
        let (status, first) = app.get(&client, "/api/article/66").await;
        assert_eq!(status, StatusCode::OK, "{first}");
        let first = &first["data"];
        assert_eq!(
            (first["title"].as_str(), first["path"].as_str(), first["kind"].as_str()),
            (Some("会员注册"), Some("/help/xrzn/hyzc"), Some("help"))
        );
        assert!(first["prev"].is_null());
        assert_eq!(first["next"]["title"], "购物指南");
        assert!(first["html"].as_str().unwrap().starts_with("<p>"), "{first}");
        assert_eq!(app.get(&client, "/api/article/999999").await.0, StatusCode::NOT_FOUND);

        // News: neighbours within the category, newest first.
        let (_, listed) = app.get(&client, "/api/article/category?category_id=hy").await;
        let ids: Vec<i64> = listed["data"].as_array().unwrap().iter().map(|item| item["id"].as_i64().unwrap()).collect();
        assert!(ids.len() >= 3);
        let (_, middle) = app.get(&client, &format!("/api/article/{}", ids[1])).await;
        assert_eq!((middle["data"]["prev"]["id"].as_i64(), middle["data"]["next"]["id"].as_i64()), (Some(ids[0]), Some(ids[2])));

        // The operator publishes a news item from Markdown holding a script: it is text on the page.
        let file = std::env::temp_dir().join(format!("article-{}-{}.md", std::process::id(), app.database));
        std::fs::write(&file, "## 通知\n\n仓库搬迁期间**暂停自提**。\n\n<script>alert('x')</script>\n\n[详情](javascript:alert(1))")
            .unwrap();
        let path = file.to_str().unwrap();
        let out = admin(
            &app,
            &["article", "--file", path, "--kind", "news", "--category", "company", "--title", "仓库搬迁通知", "--date", "2099-01-01"],
        )
        .await
        .unwrap();
        let id: i64 = out.split_whitespace().nth(1).unwrap().parse().unwrap();
        let (_, published) = app.get(&client, &format!("/api/article/{id}")).await;
        let html = published["data"]["html"].as_str().unwrap();
        assert!(html.contains("<h2>通知</h2>") && html.contains("<strong>暂停自提</strong>"), "{html}");
        assert!(!html.contains("<script") && html.contains("&lt;script&gt;"), "{html}");
        assert!(!html.contains("javascript:"), "{html}");
        let (_, company) = app.get(&client, "/api/article/category?category_id=company").await;
        assert_eq!(company["data"][0]["id"].as_i64(), Some(id), "the newest first");

        // Edited in place: the body and the title given.
        std::fs::write(&file, "恢复自提。").unwrap();
        admin(&app, &["article", "--file", path, "--id", &id.to_string(), "--title", "仓库搬迁完成"]).await.unwrap();
        let (_, edited) = app.get(&client, &format!("/api/article/{id}")).await;
        assert_eq!(
            (edited["data"]["title"].as_str(), edited["data"]["html"].as_str()),
            (Some("仓库搬迁完成"), Some("<p>恢复自提。</p>\n"))
        );
        assert!(admin(&app, &["article", "--file", path, "--kind", "news", "--category", "misc", "--title", "x"]).await.is_err());
        std::fs::remove_file(&file).ok();
    })
    .await;
}
