//! Online payment on SQLite and PostgreSQL, against the offline provider running on its own
//! port and notifying the shop through the relay, as a real gateway notifies through the edge:
//! a recharge is credited once, when the provider confirms it; a notify with a bad signature, a
//! wrong amount or an unknown payment changes nothing; the same notify twice, or twenty at once,
//! credits once; an order paid online becomes paid and earns its points; a payment confirmed
//! after its order was cancelled goes to the balance; a member sees only their own payments.

use std::time::Duration;

use reqwest::{Client, StatusCode};
use serde_json::Value;

use crate::common::{App, add_to_cart, address_of, joined, ladder_goods, on_both_configured, post_order};

const KEY: &str = "the merchant key of the payment tests";

/// Starts the offline provider on a random port; answers its address.
async fn provider() -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let router = paygate::Gateway::new(KEY, &base).router();
    tokio::spawn(async move { axum::serve(listener, router).await });
    base
}

async fn on_both_with_provider<F, Fut>(test: F)
where
    F: Fn(App) -> Fut,
    Fut: Future<Output = ()>,
{
    let base = provider().await;
    on_both_configured(
        |config| {
            config.payment.provider_url = base.clone();
            config.payment.key = KEY.into();
        },
        test,
    )
    .await;
}

async fn balance(app: &App, username: &str) -> i64 {
    sqlx::query_scalar("SELECT balance FROM members WHERE username = $1").bind(username).fetch_one(&app.db.pool).await.unwrap()
}

async fn payment_status(app: &App, payment_no: &str) -> i64 {
    sqlx::query_scalar("SELECT status FROM payments WHERE payment_no = $1").bind(payment_no).fetch_one(&app.db.pool).await.unwrap()
}

/// Waits (at most 10 s) until the payment leaves pending: the provider's notify arrived.
async fn notified(app: &App, payment_no: &str) -> i64 {
    for _ in 0..100 {
        let status = payment_status(app, payment_no).await;
        if status != 0 {
            return status;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("no notify confirmed {payment_no}");
}

/// The buyer confirms on the provider's cashier page; answers where it sends them back.
async fn pay_at_provider(pay_url: &str) -> String {
    let plain = Client::builder().redirect(reqwest::redirect::Policy::none()).build().unwrap();
    let page = plain.get(pay_url).send().await.unwrap().text().await.unwrap();
    assert!(page.contains("确认支付"), "{page}");
    let answer = plain.post(format!("{pay_url}/confirm")).send().await.unwrap();
    assert_eq!(answer.status(), StatusCode::SEE_OTHER);
    answer.headers()["location"].to_str().unwrap().to_owned()
}

async fn recharge(app: &App, client: &Client, form: &[(&str, &str)]) -> Value {
    let (status, started) = app.post(client, "/api/cash_coupon/userRecharge", form).await;
    assert_eq!(status, StatusCode::OK, "{started}");
    started["data"].clone()
}

/// A notify as the provider sends it, signed with `key`.
fn notify_form(key: &str, payment_no: &str, amount: &str) -> Vec<(String, String)> {
    paygate::signature::signed(
        key.as_bytes(),
        vec![
            ("out_trade_no".into(), payment_no.into()),
            ("trade_no".into(), format!("T-{payment_no}")),
            ("amount".into(), amount.into()),
            ("trade_status".into(), "TRADE_SUCCESS".into()),
            ("paid_at".into(), origin::now().to_string()),
            ("notify_id".into(), "n1".into()),
        ],
    )
}

async fn send_notify(app: &App, form: &[(String, String)]) -> (StatusCode, String) {
    let response = Client::new().post(app.url("/api/payment/notify")).form(form).send().await.unwrap();
    (response.status(), response.text().await.unwrap())
}

#[tokio::test]
async fn a_recharge_is_credited_once_when_the_provider_confirms_it() {
    on_both_with_provider(|app| async move {
        let demo = app.demo().await;
        let (_, config) = app.get(&demo, "/api/moneys/moneyConfig").await;
        let tier = config["data"]["tiers"][0].clone();
        assert_eq!((tier["amount"].as_str(), tier["bonus"].as_str()), (Some("1000.00"), Some("20.00")));
        for (amount, message) in
            [("0.50", "充值金额须在1.00到100000.00元之间"), ("1.001", "充值金额最多两位小数"), ("abc", "充值金额最多两位小数")]
        {
            let (status, refused) = app.post(&demo, "/api/cash_coupon/userRecharge", &[("amount", amount)]).await;
            assert_eq!((status, refused["msg"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some(message)), "{amount}");
        }
        let (status, _) = app.post(&demo, "/api/cash_coupon/userRecharge", &[("money_config_id", "999")]).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);

        let before = balance(&app, "demo").await;
        let started = recharge(&app, &demo, &[("money_config_id", &tier["id"].to_string())]).await;
        let payment_no = started["payment_no"].as_str().unwrap().to_owned();
        assert_eq!((started["amount"].as_str(), started["bonus"].as_str()), (Some("1000.00"), Some("20.00")));
        let (_, state) = app.get(&demo, &format!("/api/payment/{payment_no}")).await;
        assert_eq!(state["data"]["status_name"], "待支付");
        assert_eq!(balance(&app, "demo").await, before, "nothing is credited before the payment");

        let back = pay_at_provider(started["pay_url"].as_str().unwrap()).await;
        assert!(back.ends_with(&format!("/wdqb/yegl?payment={payment_no}")), "{back}");
        assert_eq!(notified(&app, &payment_no).await, 1);
        assert_eq!(balance(&app, "demo").await, before + 10_200_000);
        let (_, state) = app.get(&demo, &format!("/api/payment/{payment_no}")).await;
        assert_eq!(state["data"]["status_name"], "已支付");
        let (_, log) = app.get(&demo, "/api/user/user_money_log?use_type=1").await;
        let notes: Vec<(&str, &str)> = log["data"]["list"]
            .as_array()
            .unwrap()
            .iter()
            .take(2)
            .map(|entry| (entry["note"].as_str().unwrap(), entry["amount"].as_str().unwrap()))
            .collect();
        assert_eq!(notes, vec![("充值赠送", "+20.00"), ("在线充值", "+1000.00")]);

        // The provider's notify again, as its retries would: nothing more.
        let (status, body) = send_notify(&app, &notify_form(KEY, &payment_no, "1000.00")).await;
        assert_eq!((status, body.as_str()), (StatusCode::OK, "success"));
        assert_eq!(balance(&app, "demo").await, before + 10_200_000);

        // Another member cannot read it.
        let other = app.other_member().await;
        let (status, _) = app.get(&other, &format!("/api/payment/{payment_no}")).await;
        assert_eq!(status, StatusCode::NOT_FOUND);
    })
    .await;
}

#[tokio::test]
async fn notifies_are_verified_and_credit_once_however_many_arrive() {
    on_both_with_provider(|app| async move {
        let demo = app.demo().await;
        let before = balance(&app, "demo").await;
        let started = recharge(&app, &demo, &[("amount", "100.00")]).await;
        let payment_no = started["payment_no"].as_str().unwrap().to_owned();

        let (status, _) = send_notify(&app, &notify_form("another key", &payment_no, "100.00")).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "a bad signature");
        let (status, _) = send_notify(&app, &notify_form(KEY, &payment_no, "1.00")).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "a wrong amount");
        let (status, _) = send_notify(&app, &notify_form(KEY, "P-no-such-payment", "100.00")).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "an unknown payment");
        let mut unsigned = notify_form(KEY, &payment_no, "100.00");
        unsigned.retain(|(name, _)| name != "sign");
        let (status, _) = send_notify(&app, &unsigned).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "no signature");
        assert_eq!(payment_status(&app, &payment_no).await, 0);
        assert_eq!(balance(&app, "demo").await, before, "nothing refused changed anything");

        // Twenty at once: one credit.
        let form = notify_form(KEY, &payment_no, "100.00");
        let tasks = (0..20)
            .map(|_| {
                let (app, form) = (app.clone(), form.clone());
                tokio::spawn(async move { send_notify(&app, &form).await })
            })
            .collect();
        for (status, body) in joined(tasks).await {
            assert_eq!((status, body.as_str()), (StatusCode::OK, "success"));
        }
        assert_eq!(balance(&app, "demo").await, before + 1_000_000);
        let credits: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM balance_logs b JOIN members m ON m.id = b.member_id WHERE m.username = 'demo' AND b.note = '在线充值'",
        )
        .fetch_one(&app.db.pool)
        .await
        .unwrap();
        assert_eq!(credits, 1);
    })
    .await;
}

/// Places an order of the demo member's; answers its id and amount due.
async fn place_order(app: &App, client: &Client, key: &str) -> (i64, String) {
    let (goods, _) = ladder_goods(app).await;
    let ids = add_to_cart(app, client, goods, 12, &[]).await.to_string();
    let (_, list) = app.get(client, "/api/cart/list").await;
    let payable = list["data"]["quote"]["totals"]["payable"].as_str().unwrap().to_owned();
    let address = address_of(app, "demo").await.to_string();
    let form = [("ids", ids.as_str()), ("address_id", address.as_str()), ("expected_payable", payable.as_str())];
    let (status, placed) = post_order(app, client, key, &form).await;
    assert_eq!(status, StatusCode::OK, "{placed}");
    (placed["data"]["id"].as_i64().unwrap(), placed["data"]["due"].as_str().unwrap().to_owned())
}

#[tokio::test]
async fn an_order_paid_online_is_paid_and_one_cancelled_meanwhile_is_refunded() {
    on_both_with_provider(|app| async move {
        let demo = app.demo().await;
        let before = balance(&app, "demo").await;
        let (id, due) = place_order(&app, &demo, "online-1").await;
        let (status, started) = app.post(&demo, &format!("/api/order/{id}/pay_online"), &[]).await;
        assert_eq!(status, StatusCode::OK, "{started}");
        assert_eq!(started["data"]["amount"], due.as_str());
        let (_, again) = app.post(&demo, &format!("/api/order/{id}/pay_online"), &[]).await;
        assert_eq!(again["data"]["payment_no"], started["data"]["payment_no"], "the pending payment again");
        let other = app.other_member().await;
        let (status, _) = app.post(&other, &format!("/api/order/{id}/pay_online"), &[]).await;
        assert_eq!(status, StatusCode::NOT_FOUND);

        let payment_no = started["data"]["payment_no"].as_str().unwrap().to_owned();
        let back = pay_at_provider(started["data"]["pay_url"].as_str().unwrap()).await;
        assert!(back.contains(&format!("/cart/step3/{id}")), "{back}");
        assert_eq!(notified(&app, &payment_no).await, 1);
        let (_, order) = app.get(&demo, &format!("/api/order/{id}")).await;
        assert_eq!(order["data"]["status_name"], "待发货");
        assert!(order["data"]["points_earned"].as_i64().unwrap() > 0, "{order}");
        assert_eq!(balance(&app, "demo").await, before, "paid online, not from the balance");
        let (status, _) = app.post(&demo, &format!("/api/order/{id}/pay_online"), &[]).await;
        assert_eq!(status, StatusCode::CONFLICT);

        // Cancelled while the buyer was paying: the money goes to the balance.
        let (id, due) = place_order(&app, &demo, "online-2").await;
        let (_, started) = app.post(&demo, &format!("/api/order/{id}/pay_online"), &[]).await;
        let payment_no = started["data"]["payment_no"].as_str().unwrap().to_owned();
        let (status, _) = app.post(&demo, &format!("/api/order/{id}/cancel"), &[]).await;
        assert_eq!(status, StatusCode::OK);
        pay_at_provider(started["data"]["pay_url"].as_str().unwrap()).await;
        assert_eq!(notified(&app, &payment_no).await, 3);
        let (_, order) = app.get(&demo, &format!("/api/order/{id}")).await;
        assert_eq!(order["data"]["status_name"], "已取消");
        let due_units = origin::money::parse_stored(&due).unwrap();
        assert_eq!(balance(&app, "demo").await, before + due_units);
        let (_, log) = app.get(&demo, "/api/user/user_money_log?use_type=1").await;
        assert_eq!(log["data"]["list"][0]["note"], "订单已取消，在线支付退回余额");
        let (_, state) = app.get(&demo, &format!("/api/payment/{payment_no}")).await;
        assert_eq!(state["data"]["status_name"], "已退回余额");
    })
    .await;
}

/// The origin serves only with a merchant key of its own: not without one, not with a short one,
/// and not with the published development key unless the development switch is on.
#[tokio::test]
async fn the_origin_serves_only_with_a_merchant_key_of_its_own() {
    let mut config = origin::config::Config::from_env().unwrap();
    config.edge_secret = Some(crate::common::EDGE_SECRET.into());
    config.database_url = "sqlite:///nonexistent/never-opened.db".into();
    for (key, development, refusal) in [
        ("", false, "PAY_KEY is not set"),
        (paygate::DEVELOPMENT_KEY, false, "published development key"),
        ("fifteen bytes!!", false, "at least 16"),
    ] {
        config.payment.key = key.into();
        config.payment.development_key = development;
        let error = origin::startup::Application::build(&config).await.err().expect("the origin refuses to start");
        assert!(error.to_string().contains(refusal), "{key:?}: {error}");
    }
    config.payment.key = crate::common::random_key();
    config.payment.development_key = false;
    assert!(config.check().is_ok());
    config.payment.key = paygate::DEVELOPMENT_KEY.into();
    config.payment.development_key = true;
    assert!(config.check().is_ok(), "PAY_DEVELOPMENT_KEY=1 accepts it");
}

/// The binary as `scripts/run` would start it with no key: it stops at once, saying why.
#[test]
fn the_binary_does_not_start_without_a_key() {
    let run = |key: Option<&str>| {
        let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_origin"));
        command
            .env_remove("PAY_KEY")
            .env_remove(paygate::DEVELOPMENT_SWITCH)
            .env("ORIGIN_ADDR", "127.0.0.1:0")
            .env("DATABASE_URL", "sqlite:///nonexistent/never-opened.db")
            .env("EDGE_SECRET", crate::common::EDGE_SECRET);
        if let Some(key) = key {
            command.env("PAY_KEY", key);
        }
        let output = command.output().unwrap();
        assert!(!output.status.success());
        String::from_utf8_lossy(&output.stderr).into_owned()
    };
    let error = run(None);
    assert!(error.contains("PAY_KEY is not set") && error.contains("PAY_DEVELOPMENT_KEY=1"), "{error}");
    let error = run(Some(paygate::DEVELOPMENT_KEY));
    assert!(error.contains("published development key"), "{error}");
}
