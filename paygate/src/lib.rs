//! `paygate`: an offline payment provider for development and tests that behaves like the real
//! ones — a merchant creates a payment by a signed call and sends the buyer to the provider's
//! cashier page; when the buyer confirms, the provider notifies the merchant asynchronously
//! (signed, retried until the merchant answers `success`) and answers status queries. Payments
//! are kept in memory: a restart forgets them, as a sandbox may.
//!
//! Merchant calls (form in, JSON out, both signed with the merchant key, `signature`):
//! - `POST /v1/payments` (`out_trade_no`, `amount` yuan with two decimals, `subject`,
//!   `merchant` — the payee's name, which the cashier shows —, `notify_url`, `return_url`):
//!   answers `{ payment_id, out_trade_no, amount, pay_url }`; the same `out_trade_no` again
//!   answers the same payment, with another amount 409.
//! - `GET /v1/payments/{out_trade_no}`: `{ out_trade_no, trade_no, amount, trade_status,
//!   paid_at }`; `trade_status` is `WAIT_BUYER_PAY`, `TRADE_SUCCESS` or `TRADE_CLOSED`.
//!
//! The buyer's pages: `GET /pay/{payment_id}` (收银台), `POST /pay/{payment_id}/confirm`
//! (pays, then 303 to `return_url`), `POST /pay/{payment_id}/close` (closes an unpaid one).
//! The notify is a form POST to `notify_url`: `out_trade_no`, `trade_no`, `amount`,
//! `trade_status`, `paid_at`, `notify_id`, `sign`.

pub mod signature;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::{Form, Path, Query, State};
use axum::http::StatusCode;
use axum::response::{Html, IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde_json::{Value, json};

/// A key anyone can read here, so it proves nothing: accepted only where the development switch
/// ([`DEVELOPMENT_SWITCH`]) is on, as the key the provider and the shop share when neither was
/// given one (`PAYGATE_KEY`, `PAY_KEY`). `scripts/run` and the tests give them a random key.
pub const DEVELOPMENT_KEY: &str = "paygate-development-key-not-for-production";

/// The environment variable that, set to `1`, lets the provider and the shop run with
/// [`DEVELOPMENT_KEY`] (development only: whoever reads the source can sign payments with it).
pub const DEVELOPMENT_SWITCH: &str = "PAY_DEVELOPMENT_KEY";

/// The shortest merchant key accepted, in bytes.
pub const MIN_KEY_BYTES: usize = 16;

/// The merchant key to run with, from the variable `name`'s value `given`: the key itself when
/// it is long enough and not the published one; [`DEVELOPMENT_KEY`] when none is given and
/// `development` (the switch) is on; otherwise why the process must not start.
pub fn merchant_key(name: &str, given: Option<&str>, development: bool) -> Result<String, String> {
    let given = given.map(str::trim).filter(|key| !key.is_empty());
    match given {
        Some(key) if key == DEVELOPMENT_KEY && !development => Err(format!(
            "{name} is the published development key, which anyone can sign payments with: give it a random key of its own \
             (`openssl rand -hex 32`), or set {DEVELOPMENT_SWITCH}=1 in development"
        )),
        Some(key) if key.len() < MIN_KEY_BYTES => {
            Err(format!("{name} is {} bytes long; it must have at least {MIN_KEY_BYTES} (`openssl rand -hex 32`)", key.len()))
        }
        Some(key) => Ok(key.to_owned()),
        None if development => Ok(DEVELOPMENT_KEY.to_owned()),
        None => Err(format!(
            "{name} is not set: the payment provider and the shop need a merchant key of their own (`openssl rand -hex 32`); \
             {DEVELOPMENT_SWITCH}=1 runs with the published development key, in development only"
        )),
    }
}

/// Whether the development switch is on in the environment: `PAY_DEVELOPMENT_KEY=1`.
pub fn development_switch() -> bool {
    std::env::var(DEVELOPMENT_SWITCH).is_ok_and(|value| value.trim() == "1")
}

/// When a notify is sent again after a failure: at once, then after these many seconds.
pub const NOTIFY_RETRIES: [u64; 6] = [1, 2, 4, 8, 16, 32];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Status {
    Waiting,
    Paid,
    Closed,
}

impl Status {
    fn name(self) -> &'static str {
        match self {
            Status::Waiting => "WAIT_BUYER_PAY",
            Status::Paid => "TRADE_SUCCESS",
            Status::Closed => "TRADE_CLOSED",
        }
    }
}

#[derive(Clone, Debug)]
struct Payment {
    id: String,
    out_trade_no: String,
    amount: String,
    subject: String,
    merchant: String,
    notify_url: String,
    return_url: String,
    status: Status,
    trade_no: String,
    paid_at: Option<u64>,
}

/// The provider: its merchant key, the address its pages are reached at, and its payments.
#[derive(Clone)]
pub struct Gateway {
    key: Arc<[u8]>,
    public_url: String,
    payments: Arc<Mutex<HashMap<String, Payment>>>,
    client: reqwest::Client,
}

impl Gateway {
    pub fn new(key: &str, public_url: &str) -> Gateway {
        Gateway {
            key: Arc::from(key.as_bytes()),
            public_url: public_url.trim_end_matches('/').to_owned(),
            payments: Arc::default(),
            client: reqwest::Client::builder().timeout(Duration::from_secs(10)).build().expect("an HTTP client"),
        }
    }

    pub fn router(self) -> Router {
        Router::new()
            .route("/v1/payments", post(create))
            .route("/v1/payments/{out_trade_no}", get(query))
            .route("/pay/{id}", get(cashier))
            .route("/pay/{id}/confirm", post(confirm))
            .route("/pay/{id}/close", post(close))
            .with_state(self)
    }

    fn signed(&self, fields: Vec<(&str, String)>) -> Value {
        let fields = signature::signed(&self.key, fields.into_iter().map(|(name, value)| (name.to_owned(), value)).collect());
        Value::Object(fields.into_iter().map(|(name, value)| (name, Value::String(value))).collect())
    }

    fn find(&self, id: &str) -> Option<Payment> {
        self.payments.lock().unwrap().get(id).cloned()
    }
}

fn now() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |elapsed| elapsed.as_secs())
}

fn refused(status: StatusCode, message: &str) -> Response {
    (status, Json(json!({ "error": message }))).into_response()
}

/// An amount as the provider takes it: yuan with exactly two decimals, above zero.
fn is_amount(text: &str) -> bool {
    let Some((yuan, fen)) = text.split_once('.') else { return false };
    !yuan.is_empty()
        && yuan.len() <= 12
        && fen.len() == 2
        && yuan.bytes().chain(fen.bytes()).all(|byte| byte.is_ascii_digit())
        && (yuan.bytes().any(|byte| byte != b'0') || fen != "00")
        && !(yuan.len() > 1 && yuan.starts_with('0'))
}

fn params(form: &HashMap<String, String>) -> impl Iterator<Item = (&str, &str)> + Clone {
    form.iter().map(|(name, value)| (name.as_str(), value.as_str()))
}

async fn create(State(gateway): State<Gateway>, Form(form): Form<HashMap<String, String>>) -> Response {
    if !signature::verify(&gateway.key, params(&form)) {
        return refused(StatusCode::UNAUTHORIZED, "bad signature");
    }
    let field = |name: &str| form.get(name).map(|value| value.trim().to_owned()).filter(|value| !value.is_empty());
    let (Some(out_trade_no), Some(amount), Some(notify_url), Some(return_url)) =
        (field("out_trade_no"), field("amount"), field("notify_url"), field("return_url"))
    else {
        return refused(StatusCode::BAD_REQUEST, "out_trade_no, amount, notify_url and return_url are required");
    };
    if !is_amount(&amount) {
        return refused(StatusCode::BAD_REQUEST, "amount must be yuan with two decimals, above zero");
    }
    let payment = {
        let mut payments = gateway.payments.lock().unwrap();
        match payments.values().find(|payment| payment.out_trade_no == out_trade_no) {
            Some(existing) if existing.amount != amount => return refused(StatusCode::CONFLICT, "out_trade_no exists with another amount"),
            Some(existing) => existing.clone(),
            None => {
                let payment = Payment {
                    id: hex::encode(rand::random::<[u8; 12]>()),
                    out_trade_no,
                    amount,
                    subject: field("subject").unwrap_or_default(),
                    merchant: field("merchant").unwrap_or_default(),
                    notify_url,
                    return_url,
                    status: Status::Waiting,
                    trade_no: String::new(),
                    paid_at: None,
                };
                payments.insert(payment.id.clone(), payment.clone());
                payment
            }
        }
    };
    Json(gateway.signed(vec![
        ("payment_id", payment.id.clone()),
        ("out_trade_no", payment.out_trade_no),
        ("amount", payment.amount),
        ("pay_url", format!("{}/pay/{}", gateway.public_url, payment.id)),
    ]))
    .into_response()
}

async fn query(State(gateway): State<Gateway>, Path(out_trade_no): Path<String>, Query(query): Query<HashMap<String, String>>) -> Response {
    let mut signed = query.clone();
    signed.insert("out_trade_no".into(), out_trade_no.clone());
    if !signature::verify(&gateway.key, params(&signed)) {
        return refused(StatusCode::UNAUTHORIZED, "bad signature");
    }
    let found = gateway.payments.lock().unwrap().values().find(|payment| payment.out_trade_no == out_trade_no).cloned();
    let Some(payment) = found else { return refused(StatusCode::NOT_FOUND, "no such payment") };
    Json(gateway.signed(vec![
        ("out_trade_no", payment.out_trade_no),
        ("trade_no", payment.trade_no),
        ("amount", payment.amount),
        ("trade_status", payment.status.name().to_owned()),
        ("paid_at", payment.paid_at.map(|at| at.to_string()).unwrap_or_default()),
    ]))
    .into_response()
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;").replace('\'', "&#39;")
}

async fn cashier(State(gateway): State<Gateway>, Path(id): Path<String>) -> Response {
    let Some(payment) = gateway.find(&id) else {
        return (StatusCode::NOT_FOUND, Html("<!doctype html><meta charset=utf-8><p>支付单不存在</p>")).into_response();
    };
    let action = match payment.status {
        Status::Waiting => format!(
            "<form method=post action=\"/pay/{id}/confirm\"><button type=submit>确认支付</button></form>\
             <form method=post action=\"/pay/{id}/close\"><button type=submit class=secondary>取消</button></form>",
            id = escape(&payment.id)
        ),
        Status::Paid => format!("<p class=done>已支付</p><a href=\"{}\">返回商户</a>", escape(&payment.return_url)),
        Status::Closed => format!("<p>已关闭</p><a href=\"{}\">返回商户</a>", escape(&payment.return_url)),
    };
    Html(format!(
        "<!doctype html><html lang=zh-CN><head><meta charset=utf-8><title>收银台</title>\
         <style>body{{font-family:sans-serif;max-width:420px;margin:60px auto;text-align:center}}\
         .amount{{font-size:32px;color:#fa541c;margin:16px 0}}button{{font-size:16px;padding:8px 32px;margin:6px;background:#1677ff;color:#fff;border:0;border-radius:4px;cursor:pointer}}\
         button.secondary{{background:#fff;color:#555;border:1px solid #ccc}}</style></head><body>\
         <h1>收银台</h1>{merchant}<p>{subject}</p><p class=amount>¥{amount}</p><p>订单号 {out}</p>{action}</body></html>",
        merchant = if payment.merchant.is_empty() { String::new() } else { format!("<p class=merchant>收款方：{}</p>", escape(&payment.merchant)) },
        subject = escape(&payment.subject),
        amount = escape(&payment.amount),
        out = escape(&payment.out_trade_no),
    ))
    .into_response()
}

async fn confirm(State(gateway): State<Gateway>, Path(id): Path<String>) -> Response {
    let paid = {
        let mut payments = gateway.payments.lock().unwrap();
        let Some(payment) = payments.get_mut(&id) else { return refused(StatusCode::NOT_FOUND, "no such payment") };
        if payment.status == Status::Closed {
            return refused(StatusCode::CONFLICT, "the payment is closed");
        }
        if payment.status == Status::Waiting {
            payment.status = Status::Paid;
            payment.trade_no = format!("PG{}{}", now(), hex::encode(rand::random::<[u8; 4]>()));
            payment.paid_at = Some(now());
        }
        payment.clone()
    };
    tokio::spawn(notify(gateway.clone(), paid.clone()));
    Redirect::to(&paid.return_url).into_response()
}

async fn close(State(gateway): State<Gateway>, Path(id): Path<String>) -> Response {
    let mut payments = gateway.payments.lock().unwrap();
    let Some(payment) = payments.get_mut(&id) else { return refused(StatusCode::NOT_FOUND, "no such payment") };
    if payment.status == Status::Waiting {
        payment.status = Status::Closed;
    }
    Redirect::to(&payment.return_url).into_response()
}

/// Tells the merchant a payment succeeded, until it answers `success` or the retries run out.
async fn notify(gateway: Gateway, payment: Payment) {
    let form = signature::signed(
        &gateway.key,
        vec![
            ("out_trade_no".into(), payment.out_trade_no.clone()),
            ("trade_no".into(), payment.trade_no.clone()),
            ("amount".into(), payment.amount.clone()),
            ("trade_status".into(), Status::Paid.name().into()),
            ("paid_at".into(), payment.paid_at.unwrap_or_default().to_string()),
            ("notify_id".into(), hex::encode(rand::random::<[u8; 8]>())),
        ],
    );
    let body = serde_urlencoded::to_string(&form).unwrap_or_default();
    for delay in std::iter::once(0).chain(NOTIFY_RETRIES) {
        tokio::time::sleep(Duration::from_secs(delay)).await;
        let answer = gateway
            .client
            .post(&payment.notify_url)
            .header("content-type", "application/x-www-form-urlencoded")
            .body(body.clone())
            .send()
            .await;
        match answer {
            Ok(response) => match response.text().await {
                Ok(text) if text.trim() == "success" => return,
                Ok(text) => tracing::warn!(payment = payment.out_trade_no, answer = text, "the merchant did not take the notify"),
                Err(error) => tracing::warn!(payment = payment.out_trade_no, %error, "the notify's answer was lost"),
            },
            Err(error) => tracing::warn!(payment = payment.out_trade_no, %error, "the notify did not arrive"),
        }
    }
    tracing::error!(payment = payment.out_trade_no, "the notify was given up; the merchant must query");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn amounts_are_yuan_with_two_decimals() {
        for good in ["0.01", "10.00", "1000.50"] {
            assert!(is_amount(good), "{good}");
        }
        for bad in ["0.00", "10", "10.0", "10.001", "-1.00", "01.00", "1e3.00", ".50", "abc.de"] {
            assert!(!is_amount(bad), "{bad}");
        }
    }

    #[test]
    fn no_published_key_without_the_development_switch() {
        let key = |given: Option<&str>, development| merchant_key("PAYGATE_KEY", given, development);
        let missing = key(None, false).unwrap_err();
        assert!(missing.contains("PAYGATE_KEY is not set") && missing.contains("PAY_DEVELOPMENT_KEY=1"), "{missing}");
        assert_eq!(key(Some("  "), false), Err(missing));
        let published = key(Some(DEVELOPMENT_KEY), false).unwrap_err();
        assert!(published.contains("published development key"), "{published}");
        assert!(key(Some("short key"), false).unwrap_err().contains("at least 16"));
        assert_eq!(key(Some(" 0123456789abcdef0123 "), false).as_deref(), Ok("0123456789abcdef0123"));
        // The switch: the development key stands in for a missing one, and is accepted as given.
        assert_eq!(key(None, true).as_deref(), Ok(DEVELOPMENT_KEY));
        assert_eq!(key(Some(DEVELOPMENT_KEY), true).as_deref(), Ok(DEVELOPMENT_KEY));
    }

    async fn started() -> (String, Gateway) {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let gateway = Gateway::new("test-key", &base);
        let router = gateway.clone().router();
        tokio::spawn(async move { axum::serve(listener, router).await });
        (base, gateway)
    }

    fn form(key: &[u8], fields: &[(&str, &str)]) -> Vec<(String, String)> {
        signature::signed(key, fields.iter().map(|(name, value)| ((*name).to_owned(), (*value).to_owned())).collect())
    }

    #[tokio::test]
    async fn a_payment_is_created_once_paid_and_queried() {
        let (base, _) = started().await;
        let client = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().unwrap();
        let fields = [
            ("out_trade_no", "R100"),
            ("amount", "20.00"),
            ("subject", "充值"),
            ("merchant", "杭州瑞禾医药有限公司"),
            ("notify_url", "http://127.0.0.1:9/notify"),
            ("return_url", "http://shop.test/back"),
        ];
        let unsigned = client.post(format!("{base}/v1/payments")).form(&fields).send().await.unwrap();
        assert_eq!(unsigned.status(), 401);
        let created: Value =
            client.post(format!("{base}/v1/payments")).form(&form(b"test-key", &fields)).send().await.unwrap().json().await.unwrap();
        let again: Value =
            client.post(format!("{base}/v1/payments")).form(&form(b"test-key", &fields)).send().await.unwrap().json().await.unwrap();
        assert_eq!(created["payment_id"], again["payment_id"], "the same out_trade_no is the same payment");
        let mut other = fields;
        other[1] = ("amount", "21.00");
        let conflict = client.post(format!("{base}/v1/payments")).form(&form(b"test-key", &other)).send().await.unwrap();
        assert_eq!(conflict.status(), 409);
        let answer: Vec<(String, String)> =
            created.as_object().unwrap().iter().map(|(name, value)| (name.clone(), value.as_str().unwrap().to_owned())).collect();
        assert!(signature::verify(b"test-key", answer.iter().map(|(name, value)| (name.as_str(), value.as_str()))));

        let status = |signed: Vec<(String, String)>| {
            let client = client.clone();
            let base = base.clone();
            async move {
                let sign = signed.iter().find(|(name, _)| name == "sign").unwrap().1.clone();
                let answer: Value = client.get(format!("{base}/v1/payments/R100?sign={sign}")).send().await.unwrap().json().await.unwrap();
                answer
            }
        };
        let waiting = status(form(b"test-key", &[("out_trade_no", "R100")])).await;
        assert_eq!(waiting["trade_status"], "WAIT_BUYER_PAY");

        let pay_url = created["pay_url"].as_str().unwrap();
        let page = client.get(pay_url).send().await.unwrap().text().await.unwrap();
        assert!(page.contains("¥20.00") && page.contains("确认支付"));
        assert!(page.contains("收款方：杭州瑞禾医药有限公司"), "the cashier names the payee");
        let confirmed = client.post(format!("{pay_url}/confirm")).send().await.unwrap();
        assert_eq!(confirmed.status(), 303);
        assert_eq!(confirmed.headers()["location"], "http://shop.test/back");
        let paid = status(form(b"test-key", &[("out_trade_no", "R100")])).await;
        assert_eq!(paid["trade_status"], "TRADE_SUCCESS");
        assert!(paid["trade_no"].as_str().unwrap().starts_with("PG"));
        let closed = client.post(format!("{pay_url}/close")).send().await.unwrap();
        assert_eq!(closed.status(), 303);
        let still = status(form(b"test-key", &[("out_trade_no", "R100")])).await;
        assert_eq!(still["trade_status"], "TRADE_SUCCESS", "a paid payment is not closed");
    }
}
