//! The harness every HTTP test shares: the real application on a random port, against
//! a fresh SQLite file and a fresh PostgreSQL database.
//!
//! The origin runs with `EDGE_SECRET`, so it answers only requests that carry the edge's proof
//! (`order_check::proof`). The tests talk to it through a small relay standing in for the edge
//! (`App::base`, `App::url`): it adds a fresh proof to every request, and `X-Forwarded-Host`,
//! `X-Forwarded-Proto` and `X-Forwarded-For` as the edge does. `App::origin` is the origin
//! itself, for the tests of what it answers to anyone else.
//!
//! PostgreSQL: `TEST_DATABASE_ADMIN_URL` (default `postgres://postgres@127.0.0.1:5432/postgres`)
//! must reach a server where a database can be created; `scripts/test` makes sure one does.

#![allow(dead_code)]

use std::future::Future;
use std::net::SocketAddr;

use origin::config::Config;
use origin::startup::Application;
use reqwest::{Client, StatusCode};
use serde_json::Value;
use sqlx::{Connection, Executor};

#[derive(Clone)]
pub struct App {
    /// Where the tests send their requests: the relay standing in for the edge, or the origin
    /// itself when it has no secret.
    pub base: String,
    /// The origin's own address.
    pub origin: String,
    pub database: &'static str,
    pub db: origin::db::Db,
    /// The database's address, for another origin on it ([`App::another_origin`]).
    pub database_url: String,
}

impl App {
    pub fn client(&self) -> Client {
        Client::builder().cookie_store(true).build().unwrap()
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    /// `path` on the origin itself, past the relay: a request sent there carries no proof but
    /// the one the test adds ([`edge_proof`]).
    pub fn direct(&self, path: &str) -> String {
        format!("{}{path}", self.origin)
    }

    pub async fn get(&self, client: &Client, path: &str) -> (StatusCode, Value) {
        let response = client.get(self.url(path)).send().await.unwrap();
        (response.status(), response.json().await.unwrap())
    }

    pub async fn post(&self, client: &Client, path: &str, form: &[(&str, &str)]) -> (StatusCode, Value) {
        let response = client.post(self.url(path)).form(form).send().await.unwrap();
        (response.status(), response.json().await.unwrap())
    }

    /// Another origin on the same database, started now (as after a restart), with the edge's
    /// secret; it stops when the answered sender is sent to or dropped.
    pub async fn another_origin(&self) -> (App, tokio::sync::oneshot::Sender<()>) {
        start(self.database_url.clone(), self.database, Some(EDGE_SECRET), &|_| {}).await
    }

    /// A new, empty database of the same kind (a SQLite file not yet made, or a PostgreSQL
    /// database with no tables): its URL. It is left behind for the temporary folder's or the
    /// test server's clean-up.
    pub async fn fresh_database(&self) -> String {
        let name = unique_name();
        if self.database == "sqlite" {
            return format!("sqlite://{}/shop.db", std::env::temp_dir().join(name).display());
        }
        let admin_url = std::env::var("TEST_DATABASE_ADMIN_URL").unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/postgres".into());
        let mut admin = sqlx::PgConnection::connect(&admin_url).await.unwrap();
        admin.execute(sqlx::AssertSqlSafe(format!("CREATE DATABASE {name}"))).await.unwrap();
        let base = admin_url.rsplit_once('/').map_or(admin_url.as_str(), |(base, _)| base);
        format!("{base}/{name}")
    }

    /// An origin on another database (`database_url`), with the edge's secret; it stops when
    /// the answered sender is sent to or dropped.
    pub async fn origin_on(&self, database_url: String) -> (App, tokio::sync::oneshot::Sender<()>) {
        start(database_url, self.database, Some(EDGE_SECRET), &|_| {}).await
    }

    /// A client logged in as the demo member.
    pub async fn demo(&self) -> Client {
        let client = self.client();
        let (status, body) = self.post(&client, "/api/user/login", &[("username", "demo"), ("password", "demo123")]).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        client
    }

    /// Another member, with a session.
    pub async fn other_member(&self) -> Client {
        let hash = origin::auth::hash_password("secret9").unwrap();
        sqlx::query(
            "INSERT INTO members (username, phone, password_hash, company, name, created_at) \
             VALUES ('other', '13900001111', $1, '别家药房', '王五', 0)",
        )
        .bind(hash)
        .execute(&self.db.pool)
        .await
        .unwrap();
        sqlx::query(
            "INSERT INTO addresses (member_id, contact, phone, province, city, district, detail, is_default) \
             SELECT id, '王五', '13900001111', '江苏省', '南京市', '鼓楼区', '中山路1号', 1 FROM members WHERE username = 'other'",
        )
        .execute(&self.db.pool)
        .await
        .unwrap();
        let client = self.client();
        let (status, _) = self.post(&client, "/api/user/login", &[("username", "other"), ("password", "secret9")]).await;
        assert_eq!(status, StatusCode::OK);
        client
    }
}

/// A fresh data directory for one application: its uploads go there.
fn data_dir() -> std::path::PathBuf {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let number = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    std::env::temp_dir().join(format!("origin-test-{}-{number}", std::process::id()))
}

async fn start(
    database_url: String,
    database: &'static str,
    edge_secret: Option<&str>,
    configure: &dyn Fn(&mut Config),
) -> (App, tokio::sync::oneshot::Sender<()>) {
    // The relay's address first: it is the shop's public address, where a payment provider
    // sends its notifies.
    let relay_listener = match edge_secret {
        Some(_) => Some(tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap()),
        None => None,
    };
    let mut config = Config {
        addr: "127.0.0.1:0".parse().unwrap(),
        database_url: database_url.clone(),
        edge_secret: edge_secret.map(str::to_owned),
        order_pay_minutes: origin::domain::orders::due::DEFAULT_PAY_MINUTES,
        order_receive_days: origin::domain::orders::due::DEFAULT_RECEIVE_DAYS,
        security: origin::security::Security::default(),
        data_dir: data_dir(),
        wechat: None,
        payment: payment_config(),
        metrics_token: None,
    };
    if let Some(listener) = &relay_listener {
        config.payment.shop_url = format!("http://{}", listener.local_addr().unwrap());
    }
    configure(&mut config);
    let app = Application::build(&config).await.expect("the application starts");
    let origin = format!("http://{}", app.address());
    let db = app.db.clone();
    // The demo's store-wide discount would reprice every goods the tests price from the stored
    // prices; it is off but for the tests of it, which turn it on.
    sqlx::query("UPDATE welfare_activities SET is_on = 0").execute(&db.pool).await.unwrap();
    // Likewise the cash back completed orders would add to the balances tests count.
    sqlx::query("UPDATE cashback_activities SET is_on = 0").execute(&db.pool).await.unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    tokio::spawn(app.run_until(async {
        let _ = stopped.await;
    }));
    let base = match (edge_secret, relay_listener) {
        (Some(secret), Some(listener)) => relay(listener, origin.clone(), secret.as_bytes().into()),
        _ => origin.clone(),
    };
    (App { base, origin, database, db, database_url }, stop)
}

/// The payment settings of a test origin: the offline provider's default address and a random
/// merchant key of its own (the origin serves with no other; the payment tests give the key of
/// the provider they start).
pub fn payment_config() -> origin::domain::payments::PaymentConfig {
    origin::domain::payments::PaymentConfig {
        provider_url: "http://127.0.0.1:3100".into(),
        key: random_key(),
        shop_url: "http://127.0.0.1:8787".into(),
        development_key: false,
    }
}

/// 32 random bytes in hex.
pub fn random_key() -> String {
    (0..4).map(|_| format!("{:016x}", rand::random::<u64>())).collect()
}

/// The secret the test origin shares with its edge (here the relay): at least 32 bytes, as the
/// origin insists.
pub const EDGE_SECRET: &str = "the edge and the origin share this secret, 64 bytes long at least";

/// The `X-Edge-Proof` the edge would send with a `method` request to `path_and_query`, made now.
pub fn edge_proof(method: &str, path_and_query: &str) -> String {
    order_check::proof::sign(EDGE_SECRET.as_bytes(), method, path_and_query, origin::now())
}

/// The relay standing in for the edge.
#[derive(Clone)]
struct Relay {
    origin: String,
    secret: std::sync::Arc<[u8]>,
    client: Client,
}

/// Starts a relay to `origin` on `listener`; answers its base URL. It lives as long as the
/// test's runtime.
fn relay(listener: tokio::net::TcpListener, origin: String, secret: std::sync::Arc<[u8]>) -> String {
    let base = format!("http://{}", listener.local_addr().unwrap());
    let client = Client::builder().redirect(reqwest::redirect::Policy::none()).build().unwrap();
    let router = axum::Router::new().fallback(forward).with_state(Relay { origin, secret, client });
    tokio::spawn(async move { axum::serve(listener, router.into_make_service_with_connect_info::<SocketAddr>()).await });
    base
}

/// Forwards one request as the edge does (`edge/src/route.rs`): the message's own headers, the
/// edge's forwarding headers (the client's `X-Forwarded-For` as it came, else the peer: the
/// tests may say which address a request comes from), and a fresh proof; the answer comes back
/// as the origin sent it.
async fn forward(
    axum::extract::State(relay): axum::extract::State<Relay>,
    axum::extract::ConnectInfo(peer): axum::extract::ConnectInfo<SocketAddr>,
    request: axum::extract::Request,
) -> axum::response::Response {
    use axum::http::HeaderValue;
    let (parts, body) = request.into_parts();
    let body = axum::body::to_bytes(body, usize::MAX).await.unwrap();
    let target = parts.uri.path_and_query().map_or("/", |target| target.as_str()).to_owned();
    let mut headers = parts.headers.clone();
    for hop in ["host", "connection", "content-length", "transfer-encoding", "x-forwarded-host", "x-forwarded-proto", "x-edge-proof"] {
        headers.remove(hop);
    }
    let host = parts.headers.get("host").cloned().unwrap_or(HeaderValue::from_static(""));
    if !headers.contains_key("x-forwarded-for") {
        headers.insert("x-forwarded-for", HeaderValue::from_str(&peer.ip().to_string()).unwrap());
    }
    headers.insert("x-forwarded-host", host);
    headers.insert("x-forwarded-proto", HeaderValue::from_static("http"));
    let proof = order_check::proof::sign(&relay.secret, parts.method.as_str(), &target, origin::now());
    headers.insert(order_check::proof::HEADER, HeaderValue::from_str(&proof).unwrap());
    let url = format!("{}{target}", relay.origin);
    let answer = relay.client.request(parts.method, url).headers(headers).body(body).send().await.unwrap();
    let status = answer.status();
    let mut headers = answer.headers().clone();
    for hop in ["connection", "content-length", "transfer-encoding"] {
        headers.remove(hop);
    }
    let mut response = axum::response::Response::new(axum::body::Body::from(answer.bytes().await.unwrap()));
    *response.status_mut() = status;
    *response.headers_mut() = headers;
    response
}

/// The `X-Edge-Check` the edge would send with an order form it checked, signed now.
pub fn edge_check(key: &str, form: &[(&str, &str)]) -> String {
    let field = |name: &str| form.iter().rev().find(|(field, _)| *field == name).map_or("", |(_, value)| value.trim());
    let ids: Vec<i64> = field("ids").split(',').filter(|id| !id.trim().is_empty()).map(|id| id.trim().parse().unwrap()).collect();
    let settlement = order_check::form::OrderForm::read(form.iter().copied()).unwrap().settlement_text();
    let checked = order_check::signature::Checked {
        idempotency_key: key.trim(),
        ids: &ids,
        expected_payable: field("expected_payable"),
        settlement: &settlement,
    };
    order_check::signature::sign(EDGE_SECRET.as_bytes(), &checked, origin::now())
}

pub fn unique_name() -> String {
    use std::sync::atomic::{AtomicU32, Ordering};
    static NEXT: AtomicU32 = AtomicU32::new(0);
    format!("shop_test_{}_{}_{}", std::process::id(), origin::now(), NEXT.fetch_add(1, Ordering::Relaxed))
}

/// Runs `test` against a fresh SQLite database, then a fresh PostgreSQL one, with an origin
/// that has the edge's secret, through the relay.
pub async fn on_both<F, Fut>(test: F)
where
    F: Fn(App) -> Fut,
    Fut: Future<Output = ()>,
{
    on_both_with(Some(EDGE_SECRET), test).await;
}

/// [`on_both`] with an origin without `EDGE_SECRET` (development), talked to directly.
pub async fn on_both_without_secret<F, Fut>(test: F)
where
    F: Fn(App) -> Fut,
    Fut: Future<Output = ()>,
{
    on_both_with(None, test).await;
}

/// [`on_both`] with the configuration changed by `configure` (an outside provider's address).
pub async fn on_both_configured<C, F, Fut>(configure: C, test: F)
where
    C: Fn(&mut Config),
    F: Fn(App) -> Fut,
    Fut: Future<Output = ()>,
{
    on_both_with_config(Some(EDGE_SECRET), &configure, test).await;
}

async fn on_both_with<F, Fut>(edge_secret: Option<&str>, test: F)
where
    F: Fn(App) -> Fut,
    Fut: Future<Output = ()>,
{
    on_both_with_config(edge_secret, &|_| {}, test).await;
}

async fn on_both_with_config<F, Fut>(edge_secret: Option<&str>, configure: &dyn Fn(&mut Config), test: F)
where
    F: Fn(App) -> Fut,
    Fut: Future<Output = ()>,
{
    let dir = std::env::temp_dir().join(unique_name());
    let (app, stop) = start(format!("sqlite://{}/shop.db", dir.display()), "sqlite", edge_secret, configure).await;
    test(app).await;
    let _ = stop.send(());
    let _ = std::fs::remove_dir_all(&dir);

    let admin_url = std::env::var("TEST_DATABASE_ADMIN_URL").unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/postgres".into());
    let name = unique_name();
    let mut admin = sqlx::PgConnection::connect(&admin_url)
        .await
        .unwrap_or_else(|error| panic!("PostgreSQL at {admin_url} ({error}); run scripts/test, which starts one"));
    admin.execute(sqlx::AssertSqlSafe(format!("CREATE DATABASE {name}"))).await.unwrap();
    let base = admin_url.rsplit_once('/').map_or(admin_url.as_str(), |(base, _)| base);
    let (app, stop) = start(format!("{base}/{name}"), "postgres", edge_secret, configure).await;
    test(app).await;
    let _ = stop.send(());
    tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    let _ = admin.execute(sqlx::AssertSqlSafe(format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"))).await;
}

/// A goods that can be bought, has stock and a minimum-quantity ladder.
pub async fn ladder_goods(app: &App) -> (i64, i64) {
    let row: (i64, i64) = sqlx::query_as(
        "SELECT g.id, g.stock FROM goods g WHERE g.is_buy = 1 AND g.stock >= 60 AND g.ladder_price_type = 2 \
         AND EXISTS (SELECT 1 FROM goods_ladders l WHERE l.goods_id = g.id) ORDER BY g.id LIMIT 1",
    )
    .fetch_one(&app.db.pool)
    .await
    .unwrap();
    row
}

/// Puts `number` of `goods` in the client's cart, with `extra` fields beside them (a flash
/// sale's `type`, a combination's id); answers the line id.
pub async fn add_to_cart(app: &App, client: &Client, goods: i64, number: i64, extra: &[(&str, String)]) -> i64 {
    let mut form = vec![("goods_id", goods.to_string()), ("number", number.to_string())];
    form.extend(extra.iter().cloned());
    let form: Vec<(&str, &str)> = form.iter().map(|(key, value)| (*key, value.as_str())).collect();
    let (status, body) = app.post(client, "/api/cart", &form).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    body["data"]["id"].as_i64().unwrap()
}

/// The first delivery address of the member `username`.
pub async fn address_of(app: &App, username: &str) -> i64 {
    sqlx::query_scalar("SELECT a.id FROM addresses a JOIN members m ON m.id = a.member_id WHERE m.username = $1 ORDER BY a.id LIMIT 1")
        .bind(username)
        .fetch_one(&app.db.pool)
        .await
        .unwrap()
}

/// Posts an order as the edge forwards one it checked: with its signed check.
pub async fn post_order(app: &App, client: &Client, key: &str, form: &[(&str, &str)]) -> (StatusCode, Value) {
    let response = client
        .post(app.url("/api/order"))
        .header("Idempotency-Key", key)
        .header(order_check::signature::HEADER, edge_check(key, form))
        .form(form)
        .send()
        .await
        .unwrap();
    (response.status(), response.json().await.unwrap())
}

/// The answers of spawned tasks, in their order.
pub async fn joined<T: Send + 'static>(tasks: Vec<tokio::task::JoinHandle<T>>) -> Vec<T> {
    let mut results = Vec::new();
    for task in tasks {
        results.push(task.await.unwrap());
    }
    results
}

/// A buyer who may order: an approved member who signed the agreement, named `{prefix}{n}`
/// with the phone `{phone_prefix}` and `n` in eight digits, and a default delivery address.
/// Answers (member id, address id).
pub async fn approved_buyer(app: &App, hash: &str, prefix: &str, phone_prefix: &str, n: usize) -> (i64, i64) {
    let member: i64 = sqlx::query_scalar(
        "INSERT INTO members (username, phone, password_hash, company, name, is_passed, agreement_signed, created_at) \
         VALUES ($1, $2, $3, '药房', '采购', 1, 1, 0) RETURNING id",
    )
    .bind(format!("{prefix}{n}"))
    .bind(format!("{phone_prefix}{n:08}"))
    .bind(hash)
    .fetch_one(&app.db.pool)
    .await
    .unwrap();
    every_class(app, member).await;
    let address: i64 = sqlx::query_scalar(
        "INSERT INTO addresses (member_id, contact, phone, province, city, district, detail, is_default) \
         VALUES ($1, '采购', $2, '浙江省', '杭州市', '西湖区', '文三路', 1) RETURNING id",
    )
    .bind(member)
    .bind(format!("{phone_prefix}00000000"))
    .fetch_one(&app.db.pool)
    .await
    .unwrap();
    (member, address)
}

/// Gives member `member` a business scope of every class, as the demo member has.
pub async fn every_class(app: &App, member: i64) {
    let mut conn = app.db.pool.acquire().await.unwrap();
    origin::domain::catalogue::scope::Scope::all().store(&mut conn, member).await.unwrap();
}

pub fn urlencode(text: &str) -> String {
    text.bytes().map(|byte| format!("%{byte:02X}")).collect()
}

/// Runs an operator's command (`origin admin …`) on the application's database.
pub async fn admin(app: &App, args: &[&str]) -> anyhow::Result<String> {
    let command = origin::admin::Admin::from_args(args.iter().map(|arg| (*arg).to_owned()))?;
    origin::admin::run(&app.db, command).await
}

/// A 1×1 PNG, as uploaded photos.
pub const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01\x08\x06\0\0\0\x1f\x15\xc4\x89";

/// A multipart body of text fields and PNG `photos`: its content type and bytes.
pub fn multipart(fields: &[(&str, &str)], photos: &[(&str, &[u8])]) -> (String, Vec<u8>) {
    multipart_files(fields, "photos", photos)
}

/// A multipart body of text fields and files under `file_field` (sent as PNG, whatever they
/// hold: the server tells by the content): its content type and bytes.
pub fn multipart_files(fields: &[(&str, &str)], file_field: &str, photos: &[(&str, &[u8])]) -> (String, Vec<u8>) {
    let boundary = "----test-boundary";
    let mut body = Vec::new();
    for (name, value) in fields {
        body.extend(format!("--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n{value}\r\n").as_bytes());
    }
    for (file_name, bytes) in photos {
        body.extend(
            format!("--{boundary}\r\nContent-Disposition: form-data; name=\"{file_field}\"; filename=\"{file_name}\"\r\nContent-Type: image/png\r\n\r\n")
                .as_bytes(),
        );
        body.extend(*bytes);
        body.extend(b"\r\n");
    }
    body.extend(format!("--{boundary}--\r\n").as_bytes());
    (format!("multipart/form-data; boundary={boundary}"), body)
}
