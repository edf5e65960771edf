//! What the origin takes from the edge (`docs/edge.md`, "What the origin trusts"): with
//! `EDGE_SECRET` only requests with the edge's proof, the health check aside; the forwarding
//! headers only from the edge; cross-site refusals; the session cookie's `Secure`; the body limit.

use crate::common::{EDGE_SECRET, edge_check, edge_proof, ladder_goods, on_both, on_both_without_secret};
use origin::config::Config;
use origin::startup::Application;
use reqwest::StatusCode;
use serde_json::Value;

const NOT_THROUGH_EDGE: &str = "禁止直接访问源站";

async fn json(response: reqwest::Response) -> (StatusCode, Value) {
    (response.status(), response.json().await.unwrap())
}

#[tokio::test]
async fn only_requests_the_edge_proved_are_answered() {
    on_both(|app| async move {
        let client = app.client();
        // No proof.
        let (status, body) = json(client.get(app.direct("/api/user/base")).send().await.unwrap()).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
        assert_eq!(body["code"], 403);
        assert_eq!(body["msg"], NOT_THROUGH_EDGE);
        let response = client.post(app.direct("/api/user/login")).form(&[("username", "demo"), ("password", "demo123")]).send().await;
        assert_eq!(response.unwrap().status(), StatusCode::FORBIDDEN);

        let with = |proof: String| client.get(app.direct("/api/user/base")).header(order_check::proof::HEADER, proof);
        // Forged: another secret, or garbage.
        let forged = order_check::proof::sign(b"not the secret the origin has, but long", "GET", "/api/user/base", origin::now());
        assert_eq!(with(forged).send().await.unwrap().status(), StatusCode::FORBIDDEN);
        assert_eq!(with(format!("{}.{}", origin::now(), "ab".repeat(32))).send().await.unwrap().status(), StatusCode::FORBIDDEN);
        // Stale, and from the future.
        let stale = order_check::proof::sign(EDGE_SECRET.as_bytes(), "GET", "/api/user/base", origin::now() - 120);
        assert_eq!(with(stale).send().await.unwrap().status(), StatusCode::FORBIDDEN);
        let early = order_check::proof::sign(EDGE_SECRET.as_bytes(), "GET", "/api/user/base", origin::now() + 120);
        assert_eq!(with(early).send().await.unwrap().status(), StatusCode::FORBIDDEN);
        // A proof of another request: another path, another query, another method.
        assert_eq!(with(edge_proof("GET", "/api/goods/hot")).send().await.unwrap().status(), StatusCode::FORBIDDEN);
        assert_eq!(with(edge_proof("GET", "/api/user/base?x=1")).send().await.unwrap().status(), StatusCode::FORBIDDEN);
        assert_eq!(with(edge_proof("POST", "/api/user/base")).send().await.unwrap().status(), StatusCode::FORBIDDEN);
        // The edge's own proof.
        let (status, body) = json(with(edge_proof("GET", "/api/user/base")).send().await.unwrap()).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        assert_eq!(body["data"]["login"], false);
        let proof = edge_proof("GET", "/api/goods/list?page=2&keyword=%E9%98%BF");
        let response = client.get(app.direct("/api/goods/list?page=2&keyword=%E9%98%BF")).header(order_check::proof::HEADER, proof);
        assert_eq!(response.send().await.unwrap().status(), StatusCode::OK, "the query is proved as sent");

        // The health check needs none.
        let (status, body) = json(client.get(app.direct("/healthz")).send().await.unwrap()).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(body["code"], 10000);
        // And through the relay, standing in for the edge, everything is answered as before.
        let (status, body) = app.get(&client, "/api/user/base").await;
        assert_eq!(status, StatusCode::OK, "{body}");
    })
    .await;
}

#[tokio::test]
async fn an_origin_without_the_secret_answers_anyone_but_believes_no_forwarding_header() {
    on_both_without_secret(|app| async move {
        let client = app.client();
        let (status, body) = app.get(&client, "/api/user/base").await;
        assert_eq!(status, StatusCode::OK, "{body}");
        let (status, _) = app.get(&client, "/healthz").await;
        assert_eq!(status, StatusCode::OK);

        // A claimed https does not make the cookie Secure: the origin itself serves plain http.
        let response = client
            .post(app.url("/api/user/login"))
            .header("X-Forwarded-Proto", "https")
            .form(&[("username", "demo"), ("password", "demo123")])
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::OK);
        let cookie = response.headers()["set-cookie"].to_str().unwrap().to_owned();
        assert!(!cookie.contains("Secure"), "{cookie}");

        // A claimed host does not make another site's page the shop's own.
        let response = client
            .post(app.url("/api/cart"))
            .header("Origin", "https://evil.example")
            .header("X-Forwarded-Host", "evil.example")
            .form(&[("goods_id", "1")])
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::FORBIDDEN);

        // Orders still need the edge's check, which needs the secret.
        let response = client.post(app.url("/api/order")).header("Idempotency-Key", "k").form(&[("ids", "1")]).send().await.unwrap();
        assert_eq!(response.status(), StatusCode::FORBIDDEN);
    })
    .await;
}

#[tokio::test]
async fn a_direct_client_cannot_escape_the_login_limit_with_x_forwarded_for() {
    on_both_without_secret(|app| async move {
        let client = app.client();
        let mut limited = false;
        // A new account and a new claimed address each time: only the peer stays the same.
        for n in 0..30 {
            let response = client
                .post(app.url("/api/user/login"))
                .header("X-Forwarded-For", format!("198.51.100.{n}"))
                .form(&[("username", format!("nobody{n}").as_str()), ("password", "wrong1")])
                .send()
                .await
                .unwrap();
            limited |= response.status() == StatusCode::TOO_MANY_REQUESTS;
        }
        assert!(limited, "30 logins from one peer were never limited");
        // The peer is limited, whatever address it claims.
        let response = client
            .post(app.url("/api/user/login"))
            .header("X-Forwarded-For", "203.0.113.77")
            .form(&[("username", "demo"), ("password", "demo123")])
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::TOO_MANY_REQUESTS);
    })
    .await;
}

#[tokio::test]
async fn the_cookie_is_secure_when_the_edge_proves_https() {
    on_both(|app| async move {
        let client = app.client();
        let login = |proto: &'static str| {
            client
                .post(app.direct("/api/user/login"))
                .header(order_check::proof::HEADER, edge_proof("POST", "/api/user/login"))
                .header("X-Forwarded-Proto", proto)
                .form(&[("username", "demo"), ("password", "demo123")])
                .send()
        };
        let response = login("https").await.unwrap();
        assert_eq!(response.status(), StatusCode::OK);
        let cookie = response.headers()["set-cookie"].to_str().unwrap().to_owned();
        assert!(cookie.contains("; Secure"), "{cookie}");
        let response = login("http").await.unwrap();
        let cookie = response.headers()["set-cookie"].to_str().unwrap().to_owned();
        assert!(!cookie.contains("Secure"), "{cookie}");
        // Through the relay (like the edge, it says what the browser used: http here), a
        // client's own claim does not count.
        let response = client
            .post(app.url("/api/user/login"))
            .header("X-Forwarded-Proto", "https")
            .form(&[("username", "demo"), ("password", "demo123")])
            .send()
            .await
            .unwrap();
        let cookie = response.headers()["set-cookie"].to_str().unwrap().to_owned();
        assert!(!cookie.contains("Secure"), "{cookie}");
    })
    .await;
}

#[tokio::test]
async fn cross_site_state_changes_are_refused() {
    on_both(|app| async move {
        let demo = app.demo().await;
        let (goods, _) = ladder_goods(&app).await;
        let goods = goods.to_string();
        let (status, added) = app.post(&demo, "/api/cart", &[("goods_id", &goods), ("number", "10")]).await;
        assert_eq!(status, StatusCode::OK, "{added}");
        let line = added["data"]["id"].as_i64().unwrap().to_string();
        let (_, list) = app.get(&demo, "/api/cart/list").await;
        let payable = list["data"]["quote"]["totals"]["payable"].as_str().unwrap().to_owned();
        let address: i64 = sqlx::query_scalar(
            "SELECT a.id FROM addresses a JOIN members m ON m.id = a.member_id WHERE m.username = 'demo' ORDER BY a.id LIMIT 1",
        )
        .fetch_one(&app.db.pool)
        .await
        .unwrap();
        let address = address.to_string();
        let order_form = [("ids", line.as_str()), ("address_id", address.as_str()), ("expected_payable", payable.as_str())];

        // Each call as another site's page would send it: with the edge's check on the order, so
        // that only the cross-site rule can refuse it.
        let send = |method: &str, headers: &[(&'static str, String)]| {
            let request = match method {
                "logout" => demo.delete(app.url("/api/user/logout")),
                "cart" => demo.post(app.url("/api/cart")).form(&[("goods_id", goods.as_str()), ("number", "10")]),
                _ => demo
                    .post(app.url("/api/order"))
                    .header("Idempotency-Key", "csrf")
                    .header(order_check::signature::HEADER, edge_check("csrf", &order_form))
                    .form(&order_form),
            };
            headers.iter().fold(request, |request, (name, value)| request.header(*name, value)).send()
        };
        let cross_site: Vec<Vec<(&'static str, String)>> = vec![
            vec![("Origin", "https://evil.example".into())],
            vec![("Origin", "null".into())],
            vec![("Sec-Fetch-Site", "cross-site".into())],
            vec![("Origin", app.base.clone()), ("Sec-Fetch-Site", "cross-site".into())],
        ];
        for call in ["logout", "cart", "order"] {
            for headers in &cross_site {
                let (status, body) = json(send(call, headers.as_slice()).await.unwrap()).await;
                assert_eq!(status, StatusCode::FORBIDDEN, "{call} {headers:?}: {body}");
                assert_eq!(body["msg"], "禁止跨站请求", "{call} {headers:?}");
            }
        }
        let (_, base) = app.get(&demo, "/api/user/base").await;
        assert_eq!(base["data"]["login"], true, "the refused logouts did nothing");

        // The shop's own page: the order first, while the cart is as its check says.
        let same_origin = [("Origin", app.base.clone()), ("Sec-Fetch-Site", "same-origin".into())];
        for call in ["order", "cart", "logout"] {
            let (status, body) = json(send(call, same_origin.as_slice()).await.unwrap()).await;
            assert_ne!(status, StatusCode::FORBIDDEN, "{call}: {body}");
        }
        let (_, base) = app.get(&demo, "/api/user/base").await;
        assert_eq!(base["data"]["login"], false, "the same-origin logout went through");
    })
    .await;
}

#[tokio::test]
async fn bodies_over_the_limit_are_refused_with_413() {
    on_both(|app| async move {
        let client = app.client();
        let long = "a".repeat(70 * 1024);
        let (status, body) = app.post(&client, "/api/stat/page_view", &[("path", &long)]).await;
        assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE, "{body}");
        assert_eq!(body["code"], 413);
        assert_eq!(body["msg"], "请求内容过大");
        let (status, body) = app.post(&client, "/api/stat/page_view", &[("path", "/cart_step1")]).await;
        assert_eq!(status, StatusCode::OK, "{body}");

        // A body of no announced length (chunked) is cut off at the limit all the same.
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let address = app.origin.trim_start_matches("http://").to_owned();
        let mut stream = tokio::net::TcpStream::connect(address.as_str()).await.unwrap();
        let mut request = format!(
            "POST /api/stat/page_view HTTP/1.1\r\nHost: {address}\r\n{}: {}\r\nContent-Type: application/x-www-form-urlencoded\r\n\
             Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n",
            order_check::proof::HEADER,
            edge_proof("POST", "/api/stat/page_view")
        )
        .into_bytes();
        let chunk = format!("path={long}");
        request.extend_from_slice(format!("{:x}\r\n{chunk}\r\n0\r\n\r\n", chunk.len()).as_bytes());
        stream.write_all(&request).await.unwrap();
        let mut answer = Vec::new();
        let mut buffer = [0u8; 4096];
        // Until the origin closes; a reset after its answer ends the reading too.
        while let Ok(read) = stream.read(&mut buffer).await {
            if read == 0 {
                break;
            }
            answer.extend_from_slice(&buffer[..read]);
        }
        let answer = String::from_utf8_lossy(&answer);
        assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
        assert!(answer.contains("请求内容过大"), "{answer}");
    })
    .await;
}

#[tokio::test]
async fn a_short_secret_stops_the_origin() {
    let mut config = Config::from_env().unwrap();
    config.payment = crate::common::payment_config();
    config.edge_secret = Some("thirty-one bytes is not enough.".into());
    let error = Application::build(&config).await.err().expect("the origin refuses to start");
    assert!(error.to_string().contains("at least 32"), "{error}");
    config.edge_secret = Some(EDGE_SECRET.into());
    assert!(config.check().is_ok());
}

/// A body the edge lets through reaches an answer, even from a handler that never reads it
/// (not logged in): the origin reads it whole first, so that the connection is not cut on
/// unread bytes, which lost the edge the answer (502) for bodies of 8 KB and more.
#[tokio::test]
async fn bodies_a_handler_does_not_read_still_get_their_answer() {
    on_both(|app| async move {
        let client = app.client();
        for size in [8 * 1024, 9000, 32 * 1024, 60 * 1024, order_check::limits::FORM_BODY] {
            for path in ["/api/cart", "/api/user/address", "/api/favorite"] {
                for _ in 0..3 {
                    let answer = client
                        .post(app.direct(path))
                        .header(order_check::proof::HEADER, edge_proof("POST", path))
                        .header("content-type", "application/x-www-form-urlencoded")
                        .body(vec![b'a'; size])
                        .send()
                        .await
                        .unwrap_or_else(|error| panic!("{size} bytes to {path}: {error}"));
                    assert_eq!(answer.status(), StatusCode::UNAUTHORIZED, "{size} bytes to {path}");
                }
            }
        }
        // An upload may be larger than a form (up to its own limit); anything else may not.
        for (path, size, status) in [
            ("/api/user/feedback", 1024 * 1024, StatusCode::UNAUTHORIZED),
            ("/api/admin/goods/import", 1024 * 1024, StatusCode::UNAUTHORIZED),
            ("/api/admin/lots/7/report", 1024 * 1024, StatusCode::UNAUTHORIZED),
            ("/api/user/login", order_check::limits::FORM_BODY + 1, StatusCode::PAYLOAD_TOO_LARGE),
        ] {
            let answer = client
                .post(app.direct(path))
                .header(order_check::proof::HEADER, edge_proof("POST", path))
                .header("content-type", "multipart/form-data; boundary=x")
                .body(vec![b'a'; size])
                .send()
                .await
                .unwrap();
            assert_eq!(answer.status(), status, "{size} bytes to {path}");
        }
    })
    .await;
}

/// The edge and the origin hold the same body limits: the uploads' routes exist, as POSTs, and
/// the origin's own limits are the shared ones.
#[test]
fn the_body_limits_are_the_edges() {
    assert_eq!(origin::http::edge::BODY_LIMIT, order_check::limits::FORM_BODY);
    assert_eq!(origin::http::upload::BODY_LIMIT, order_check::limits::UPLOAD_BODY);
    let document = serde_json::to_value(origin::http::openapi_document()).unwrap();
    for path in order_check::limits::UPLOADS {
        assert!(document["paths"][path]["post"].is_object(), "POST {path} is a route");
    }
}

/// A caller's `X-Request-Id` is kept only when it is a plain token; any other is replaced, so
/// that what a client writes never reaches the log. Every answer says nosniff.
#[tokio::test]
async fn only_plain_request_ids_are_kept_and_every_answer_says_nosniff() {
    on_both(|app| async move {
        let client = app.client();
        let id = |answer: &reqwest::Response| answer.headers()["x-request-id"].to_str().unwrap().to_owned();
        let answer = client.get(app.url("/api/user/base")).header("x-request-id", "Plain-Token-0123").send().await.unwrap();
        assert_eq!(id(&answer), "Plain-Token-0123");
        for bad in ["has_underscore", "has space", &"x".repeat(65), "ansi%1B[31m", "semi;colon"] {
            let answer = client.get(app.direct("/healthz")).header("x-request-id", bad).send().await.unwrap();
            let fresh = id(&answer);
            assert_ne!(fresh, bad);
            assert!(order_check::limits::is_plain_request_id(fresh.as_bytes()), "{bad:?} became {fresh}");
        }
        for answer in [
            client.get(app.url("/api/user/base")).send().await.unwrap(),
            client.get(app.url("/api/no/such/call")).send().await.unwrap(),
            client.get(app.direct("/api/user/base")).send().await.unwrap(),
            client.get(app.direct("/healthz")).send().await.unwrap(),
            client.get(app.direct("/metrics")).send().await.unwrap(),
        ] {
            assert_eq!(answer.headers()["x-content-type-options"], "nosniff", "{}", answer.url());
        }
    })
    .await;
}

/// With `METRICS_TOKEN`, `/metrics` answers only a scrape that sends it (from anywhere); without
/// one, only the origin's own machine (the tests' loopback, see `ops::may_scrape`).
#[tokio::test]
async fn metrics_need_the_token_where_one_is_set() {
    const TOKEN: &str = "the operator's scrape token";
    crate::common::on_both_configured(
        |config| config.metrics_token = Some(TOKEN.into()),
        |app| async move {
            let client = app.client();
            let answer = client.get(app.direct("/metrics")).send().await.unwrap();
            assert_eq!(answer.status(), StatusCode::UNAUTHORIZED);
            assert_eq!(answer.headers()["www-authenticate"], "Bearer");
            let wrong = client.get(app.direct("/metrics")).bearer_auth("not the token").send().await.unwrap();
            assert_eq!(wrong.status(), StatusCode::UNAUTHORIZED);
            let answer = client.get(app.direct("/metrics")).bearer_auth(TOKEN).send().await.unwrap();
            assert_eq!(answer.status(), StatusCode::OK);
            assert!(answer.text().await.unwrap().contains("http_requests_total"));
        },
    )
    .await;
}
