//! Members' uploads within bounds: a daily quota of files and bytes per member on every upload
//! path, a refusal while the uploads' disk is low, a replaced certificate scan deleted from the
//! disk, and files served with their disposition and never sniffed.

use std::path::{Path, PathBuf};

use crate::common::{App, PNG, multipart, on_both, on_both_configured};
use reqwest::{Client, StatusCode};
use serde_json::Value;

/// The data folder of a test's origin (each test its own, emptied when its app starts).
fn data_dir(test: &str) -> PathBuf {
    std::env::temp_dir().join(format!("origin-uploads-{}-{test}", std::process::id()))
}

async fn member_id(app: &App, username: &str) -> i64 {
    sqlx::query_scalar("SELECT id FROM members WHERE username = $1").bind(username).fetch_one(&app.db.pool).await.unwrap()
}

/// The files in the member's upload folder.
fn files_of(dir: &Path, member: i64) -> usize {
    std::fs::read_dir(dir.join("uploads").join(member.to_string())).map_or(0, |files| files.count())
}

/// A PNG of `size` bytes (the content is told by its first bytes).
fn png(size: usize) -> Vec<u8> {
    let mut bytes = PNG.to_vec();
    bytes.resize(size, 0);
    bytes
}

async fn send(app: &App, client: &Client, path: &str, form: (String, Vec<u8>)) -> (StatusCode, Value) {
    let response = client.post(app.url(path)).header("content-type", form.0).body(form.1).send().await.unwrap();
    (response.status(), response.json().await.unwrap())
}

async fn feedback(app: &App, client: &Client, photos: &[(&str, &[u8])]) -> (StatusCode, Value) {
    send(app, client, "/api/user/feedback", multipart(&[("kind", "1"), ("body", "照片见附件")], photos)).await
}

/// A certificate's multipart form with its scan under `file`.
fn certificate(kind: &str, scan: &[u8]) -> (String, Vec<u8>) {
    let boundary = "----upload-test-boundary";
    let mut body = Vec::new();
    for (name, value) in [("kind", kind), ("number", "91330100"), ("expires_on", "")] {
        body.extend(format!("--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n{value}\r\n").as_bytes());
    }
    body.extend(
        format!("--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"scan.png\"\r\nContent-Type: image/png\r\n\r\n")
            .as_bytes(),
    );
    body.extend(scan);
    body.extend(format!("\r\n--{boundary}--\r\n").as_bytes());
    (format!("multipart/form-data; boundary={boundary}"), body)
}

const OVER_QUOTA: &str = "今日上传已达上限（每天最多3个文件、共1000字节），请明天再试";

#[tokio::test]
async fn a_member_uploads_at_most_the_days_count_of_files() {
    let dir = data_dir("count");
    on_both_configured(
        |config| {
            config.data_dir = data_dir("count");
            config.security.uploads_per_day = 3;
            config.security.upload_bytes_per_day = 1000;
        },
        |app| {
            let dir = dir.clone();
            async move {
                let demo = app.demo().await;
                let id = member_id(&app, "demo").await;
                let _ = std::fs::remove_dir_all(dir.join("uploads"));
                let (status, sent) = feedback(&app, &demo, &[("a.png", PNG), ("b.png", PNG)]).await;
                assert_eq!(status, StatusCode::OK, "{sent}");
                let (status, sent) = feedback(&app, &demo, &[("c.png", PNG)]).await;
                assert_eq!(status, StatusCode::OK, "{sent}");
                // The fourth file of the day, by feedback or by any other upload path.
                let (status, refused) = feedback(&app, &demo, &[("d.png", PNG)]).await;
                assert_eq!((status, refused["msg"].as_str()), (StatusCode::TOO_MANY_REQUESTS, Some(OVER_QUOTA)), "{refused}");
                assert_eq!(refused["code"], 429);
                let (status, refused) = send(&app, &demo, "/api/user/zizhi", certificate("营业执照", PNG)).await;
                assert_eq!((status, refused["msg"].as_str()), (StatusCode::TOO_MANY_REQUESTS, Some(OVER_QUOTA)));
                assert_eq!(files_of(&dir, id), 3, "nothing refused was written");
                let (_, mine) = app.get(&demo, "/api/user/feedback").await;
                assert_eq!(mine["data"]["total"], 2, "a refused upload records nothing");
                // Feedback without photos uploads nothing, and another member has a quota of their own.
                let (status, sent) = feedback(&app, &demo, &[]).await;
                assert_eq!(status, StatusCode::OK, "{sent}");
                let other = app.other_member().await;
                let (status, sent) = feedback(&app, &other, &[("e.png", PNG), ("f.png", PNG), ("g.png", PNG)]).await;
                assert_eq!(status, StatusCode::OK, "{sent}");
                // The counter is the day's: once its window ends, the member uploads again.
                sqlx::query("UPDATE rate_limits SET window_end = $1 WHERE key LIKE 'upload-%'")
                    .bind(origin::now() - 1)
                    .execute(&app.db.pool)
                    .await
                    .unwrap();
                let (status, sent) = feedback(&app, &demo, &[("h.png", PNG)]).await;
                assert_eq!(status, StatusCode::OK, "a new day: {sent}");
            }
        },
    )
    .await;
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn a_member_uploads_at_most_the_days_bytes() {
    let dir = data_dir("bytes");
    on_both_configured(
        |config| {
            config.data_dir = data_dir("bytes");
            config.security.uploads_per_day = 50;
            config.security.upload_bytes_per_day = 1000;
        },
        |app| {
            let dir = dir.clone();
            async move {
                let demo = app.demo().await;
                let id = member_id(&app, "demo").await;
                let _ = std::fs::remove_dir_all(dir.join("uploads"));
                let (status, sent) = feedback(&app, &demo, &[("a.png", &png(400)), ("b.png", &png(400))]).await;
                assert_eq!(status, StatusCode::OK, "{sent}");
                let (status, refused) = feedback(&app, &demo, &[("c.png", &png(201))]).await;
                assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{refused}");
                assert_eq!(refused["msg"], "今日上传已达上限（每天最多50个文件、共1000字节），请明天再试");
                // A refusal takes nothing: what still fits is taken.
                let (status, sent) = send(&app, &demo, "/api/user/zizhi", certificate("营业执照", &png(200))).await;
                assert_eq!(status, StatusCode::OK, "{sent}");
                let (status, _) = feedback(&app, &demo, &[("d.png", PNG)]).await;
                assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
                assert_eq!(files_of(&dir, id), 3);
            }
        },
    )
    .await;
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn uploads_are_refused_while_the_disk_is_low() {
    on_both_configured(
        |config| config.security.upload_min_free_bytes = i64::MAX,
        |app| async move {
            let demo = app.demo().await;
            let (status, refused) = feedback(&app, &demo, &[("a.png", PNG)]).await;
            assert_eq!(status, StatusCode::INSUFFICIENT_STORAGE, "{refused}");
            assert_eq!(
                (refused["code"].as_i64(), refused["msg"].as_str()),
                (Some(507), Some("服务器存储空间不足，暂时无法上传，请稍后再试"))
            );
            let (status, refused) = send(&app, &demo, "/api/user/zizhi", certificate("营业执照", PNG)).await;
            assert_eq!(status, StatusCode::INSUFFICIENT_STORAGE, "{refused}");
            let (_, mine) = app.get(&demo, "/api/user/feedback").await;
            assert_eq!(mine["data"]["total"], 0, "nothing was recorded");
            let (status, sent) = feedback(&app, &demo, &[]).await;
            assert_eq!(status, StatusCode::OK, "what writes no file still works: {sent}");
        },
    )
    .await;
}

#[tokio::test]
async fn a_replaced_scan_leaves_the_disk() {
    let dir = data_dir("replaced");
    on_both_configured(
        |config| config.data_dir = data_dir("replaced"),
        |app| {
            let dir = dir.clone();
            async move {
                let demo = app.demo().await;
                let id = member_id(&app, "demo").await;
                let _ = std::fs::remove_dir_all(dir.join("uploads"));
                let scan_of = |kind: &'static str| {
                    let app = app.clone();
                    async move {
                        sqlx::query_scalar::<_, String>(
                            "SELECT file_name FROM qualifications WHERE member_id = $1 AND kind = $2 ORDER BY id DESC LIMIT 1",
                        )
                        .bind(id)
                        .bind(kind)
                        .fetch_one(&app.db.pool)
                        .await
                        .unwrap()
                    }
                };
                let folder = dir.join("uploads").join(id.to_string());
                let (status, sent) = send(&app, &demo, "/api/user/zizhi", certificate("GSP证书", PNG)).await;
                assert_eq!(status, StatusCode::OK, "{sent}");
                let first = scan_of("GSP证书").await;
                assert!(folder.join(&first).exists());
                let (status, sent) = send(&app, &demo, "/api/user/zizhi", certificate("GSP证书", b"%PDF-1.4\nnew scan")).await;
                assert_eq!(status, StatusCode::OK, "{sent}");
                let second = scan_of("GSP证书").await;
                assert_ne!(first, second);
                assert!(!folder.join(&first).exists(), "the replaced scan is deleted");
                assert_eq!(std::fs::read(folder.join(&second)).unwrap(), b"%PDF-1.4\nnew scan");
                // Another kind's scan stays.
                let (status, _) = send(&app, &demo, "/api/user/zizhi", certificate("采购委托书", PNG)).await;
                assert_eq!(status, StatusCode::OK);
                let (status, _) = send(&app, &demo, "/api/user/zizhi", certificate("GSP证书", PNG)).await;
                assert_eq!(status, StatusCode::OK);
                assert!(folder.join(scan_of("采购委托书").await).exists());
                assert!(!folder.join(&second).exists());
                assert_eq!(files_of(&dir, id), 2, "one file per certificate");
            }
        },
    )
    .await;
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn files_are_served_inline_under_a_name_and_never_sniffed() {
    on_both(|app| async move {
        let demo = app.demo().await;
        let (status, sent) = feedback(&app, &demo, &[("a.png", PNG)]).await;
        assert_eq!(status, StatusCode::OK, "{sent}");
        let photo = sent["data"]["photos"][0].as_str().unwrap().to_owned();
        let (status, sent) = send(&app, &demo, "/api/user/zizhi", certificate("营业执照", b"%PDF-1.4\nscan")).await;
        assert_eq!(status, StatusCode::OK, "{sent}");
        // The demo member's approved 营业执照 stays in force beside its renewal, the one scanned.
        let renewal = sent["data"]["list"].as_array().unwrap().iter().rfind(|certificate| certificate["kind"] == "营业执照").unwrap();
        assert_eq!(renewal["status_name"], "待审核");
        let scan = renewal["scan"].as_str().unwrap().to_owned();
        let goods: i64 = sqlx::query_scalar("SELECT MIN(id) FROM goods").fetch_one(&app.db.pool).await.unwrap();
        for (path, content_type, name) in [
            (photo, "image/png", ".png"),
            (scan, "application/pdf", ".pdf"),
            (format!("/api/images/goods/{goods}.svg"), "image/svg+xml", ".svg"),
        ] {
            let response = demo.get(app.url(&path)).send().await.unwrap();
            assert_eq!(response.status(), StatusCode::OK, "{path}");
            let headers = response.headers();
            assert_eq!(headers["content-type"], content_type, "{path}");
            assert_eq!(headers["x-content-type-options"], "nosniff", "{path}");
            let disposition = headers["content-disposition"].to_str().unwrap();
            assert!(disposition.starts_with("inline; filename=\"") && disposition.ends_with(&format!("{name}\"")), "{path}: {disposition}");
        }
    })
    .await;
}
