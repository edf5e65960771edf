//! One shop identity, on SQLite and PostgreSQL: the footer's data, the electronic agreement, the
//! help articles, an invoice's PDF and the payment provider's cashier all state the name, seller
//! entity, licences and tax number kept in `settings`; `origin admin settings` changes them
//! everywhere at once (an invoice issued before keeps the seller it was issued with), and
//! refuses a wrong value. The help articles state what the shop does: its two ways to pay, the
//! payment deadline of `ORDER_PAY_MINUTES`, and where invoice details are kept.

use reqwest::{Client, StatusCode};
use serde_json::Value;

use crate::common::{App, add_to_cart, address_of, admin, ladder_goods, on_both_configured, post_order};

const KEY: &str = "the merchant key of the shop identity tests";

/// What the tests expect the shop to be called, licensed and taxed as.
#[derive(Clone, Copy)]
struct Identity<'a> {
    name: &'a str,
    company: &'a str,
    drug_licence: &'a str,
    internet_drug_licence: &'a str,
    credit_code: &'a str,
    hot_line: &'a str,
}

const SEEDED: Identity<'static> = Identity {
    name: "医药批发商城",
    company: "杭州瑞禾医药有限公司",
    drug_licence: "浙AA5710286",
    internet_drug_licence: "(浙)-经营性-2024-0087",
    credit_code: "91330110MA2H3K7R5X",
    hot_line: "400-816-3368",
};

const CHANGED: Identity<'static> = Identity {
    name: "瑞禾药采网",
    company: "浙江瑞禾医药集团有限公司",
    drug_licence: "浙AA5719999",
    internet_drug_licence: "(浙)-经营性-2026-0101",
    credit_code: "91330100MA27XYZ12K",
    hot_line: "0571-8888-6666",
};

/// Names and numbers the shop used to give itself in places of their own.
const OLD_NAMES: [&str; 3] = ["杭州医药批发商城有限公司", "浙AA5710238", "瑞禾医药网"];

/// Starts the offline provider on a random port; answers its address.
async fn provider() -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let router = paygate::Gateway::new(KEY, &base).router();
    tokio::spawn(async move { axum::serve(listener, router).await });
    base
}

/// Text as the invoice PDF writes it (UCS-2, hex).
/// Text as the PDF's text reads once its white space is taken out.
fn pdf_text(text: &str) -> String {
    text.split_whitespace().collect()
}

async fn article_id(app: &App, path: &str) -> i64 {
    sqlx::query_scalar("SELECT id FROM articles WHERE kind = 'help' AND path = $1").bind(path).fetch_one(&app.db.pool).await.unwrap()
}

async fn article_html(app: &App, client: &Client, path: &str) -> String {
    let id = article_id(app, path).await;
    let (status, article) = app.get(client, &format!("/api/article/{id}")).await;
    assert_eq!(status, StatusCode::OK, "{article}");
    article["data"]["html"].as_str().unwrap().to_owned()
}

/// Places and pays an order of the demo member, requests its invoice and has it issued;
/// answers the PDF's text.
async fn invoice_pdf(app: &App, demo: &Client, key: &str) -> String {
    let (goods, _) = ladder_goods(app).await;
    let ids = add_to_cart(app, demo, goods, 12, &[]).await.to_string();
    let (_, list) = app.get(demo, "/api/cart/list").await;
    let payable = list["data"]["quote"]["totals"]["payable"].as_str().unwrap().to_owned();
    let address = address_of(app, "demo").await.to_string();
    let (status, placed) = post_order(app, demo, key, &[("ids", &ids), ("address_id", &address), ("expected_payable", &payable)]).await;
    assert_eq!(status, StatusCode::OK, "{placed}");
    let order = placed["data"]["id"].as_i64().unwrap();
    let (status, paid) = app.post(demo, &format!("/api/order/{order}/pay"), &[("method", "balance")]).await;
    assert_eq!(status, StatusCode::OK, "{paid}");
    let form = [("kind", "1"), ("title", "杭州仁心大药房连锁有限公司"), ("tax_no", "91330106MA2B3C4D5E"), ("email", "caigou@renxin.cn")];
    let (status, requested) = app.post(demo, &format!("/api/order/{order}/invoice"), &form).await;
    assert_eq!(status, StatusCode::OK, "{requested}");
    let id = requested["data"]["id"].as_i64().unwrap();
    admin(app, &["issue-invoice", &id.to_string()]).await.unwrap();
    pdf_of(app, demo, id).await
}

async fn pdf_of(app: &App, demo: &Client, invoice: i64) -> String {
    let response = demo.get(app.url(&format!("/api/invoices/{invoice}/pdf"))).send().await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let document = lopdf::Document::load_mem(&response.bytes().await.unwrap()).unwrap();
    let pages: Vec<u32> = document.get_pages().keys().copied().collect();
    pdf_text(&document.extract_text(&pages).unwrap())
}

/// Starts a recharge and answers the provider's cashier page for it.
async fn cashier(app: &App, demo: &Client) -> String {
    let (status, started) = app.post(demo, "/api/cash_coupon/userRecharge", &[("amount", "100.00")]).await;
    assert_eq!(status, StatusCode::OK, "{started}");
    Client::new().get(started["data"]["pay_url"].as_str().unwrap()).send().await.unwrap().text().await.unwrap()
}

/// Every place states `identity`, and none an old name.
async fn stated_everywhere(app: &App, demo: &Client, identity: Identity<'_>) {
    // The footer's data.
    let (_, home) = app.get(demo, "/api/index").await;
    let shop = &home["data"]["shop"];
    assert_eq!(
        [&shop["name"], &shop["company"], &shop["drug_licence"], &shop["internet_drug_licence"], &shop["credit_code"], &shop["hot_line"]],
        [identity.name, identity.company, identity.drug_licence, identity.internet_drug_licence, identity.credit_code, identity.hot_line]
    );
    let (_, user) = app.get(demo, "/api/user/base").await;
    assert_eq!(user["data"]["common_config"]["hot_line"], identity.hot_line);

    // The agreement: the seller, its licence and tax number, and the shop's name in its clauses.
    let (_, agreement) = app.get(demo, "/api/user/agreement").await;
    let agreement = &agreement["data"];
    assert_eq!(agreement["seller"], identity.company);
    assert_eq!(
        (&agreement["shop"]["drug_licence"], &agreement["shop"]["credit_code"]),
        (&Value::from(identity.drug_licence), &Value::from(identity.credit_code))
    );
    let clauses = agreement["clauses"].to_string();
    assert!(clauses.contains(identity.name) && clauses.contains("30分钟内"), "{clauses}");

    // The help articles, every one rendered with no placeholder left and no old name.
    let qualifications = article_html(app, demo, "/help/fwbz/wzzz").await;
    for text in [identity.name, identity.company, identity.drug_licence, identity.internet_drug_licence, identity.credit_code] {
        assert!(qualifications.contains(text), "网站资质 states {text}: {qualifications}");
    }
    let contact = article_html(app, demo, "/help/us/link").await;
    assert!(contact.contains(identity.company) && contact.contains(identity.hot_line), "{contact}");
    let ids: Vec<i64> = sqlx::query_scalar("SELECT id FROM articles ORDER BY id").fetch_all(&app.db.pool).await.unwrap();
    for id in ids {
        let (_, article) = app.get(demo, &format!("/api/article/{id}")).await;
        let text = format!("{} {} {}", article["data"]["title"], article["data"]["summary"], article["data"]["html"]);
        assert!(!text.contains("{{"), "article {id} keeps a placeholder: {text}");
        for old in OLD_NAMES.iter().filter(|old| !identity.name.contains(**old) && !identity.company.contains(**old)) {
            assert!(!text.contains(old), "article {id} names {old}: {text}");
        }
    }
    let (_, news) = app.get(demo, "/api/article/category?category_id=company").await;
    assert!(news["data"].as_array().unwrap().iter().any(|item| item["title"].as_str().unwrap().starts_with(identity.name)), "{news}");

    // The cashier: the payee and the payment's subject.
    let page = cashier(app, demo).await;
    assert!(page.contains(&format!("收款方：{}", identity.company)), "{page}");
    assert!(page.contains(&format!("{} 账户余额充值", identity.name)), "{page}");
}

#[tokio::test]
async fn one_identity_everywhere_changed_by_the_operator_at_once() {
    let base = provider().await;
    on_both_configured(
        |config| {
            config.payment.provider_url = base.clone();
            config.payment.key = KEY.into();
        },
        |app| async move {
            let demo = app.demo().await;
            stated_everywhere(&app, &demo, SEEDED).await;
            let first = invoice_pdf(&app, &demo, "shop-invoice-1").await;
            assert!(first.contains(&pdf_text(&format!("销售方名称：{}", SEEDED.company))), "the invoice's seller");
            assert!(first.contains(&pdf_text(&format!("纳税人识别号：{}", SEEDED.credit_code))), "the seller's tax number");
            let first_invoice: i64 = sqlx::query_scalar("SELECT MAX(id) FROM invoices").fetch_one(&app.db.pool).await.unwrap();

            // The operator reads and changes it.
            let shown = admin(&app, &["settings"]).await.unwrap();
            assert!(shown.contains(&format!("credit_code\t统一社会信用代码\t{}", SEEDED.credit_code)), "{shown}");
            let out = admin(
                &app,
                &[
                    "settings",
                    "--name",
                    CHANGED.name,
                    "--company",
                    CHANGED.company,
                    "--drug-licence",
                    CHANGED.drug_licence,
                    "--internet-drug-licence",
                    CHANGED.internet_drug_licence,
                    "--credit-code",
                    &CHANGED.credit_code.to_lowercase(),
                    "--hotline",
                    CHANGED.hot_line,
                    "--qq1",
                    "800183265",
                ],
            )
            .await
            .unwrap();
            assert!(out.contains(&format!("name (店铺名称): {} → {}", SEEDED.name, CHANGED.name)), "{out}");
            assert!(out.contains(&format!("credit_code (统一社会信用代码): {} → {}", SEEDED.credit_code, CHANGED.credit_code)), "{out}");
            assert!(!out.contains("qq1"), "an unchanged value is not listed: {out}");
            assert_eq!(admin(&app, &["settings", "--qq1", "800183265"]).await.unwrap(), "nothing changed\n");
            stated_everywhere(&app, &demo, CHANGED).await;
            let second = invoice_pdf(&app, &demo, "shop-invoice-2").await;
            assert!(second.contains(&pdf_text(&format!("销售方名称：{}", CHANGED.company))));
            assert!(second.contains(&pdf_text(&format!("纳税人识别号：{}", CHANGED.credit_code))));
            let again = pdf_of(&app, &demo, first_invoice).await;
            assert!(again.contains(&pdf_text(&format!("销售方名称：{}", SEEDED.company))), "an issued invoice keeps its seller");

            // A wrong value changes nothing.
            for args in [
                ["settings", "--name", CHANGED.name, "--credit-code", "123"],
                ["settings", "--company", "某公司", "--name", ""],
                ["settings", "--company", "某公司", "--hotline", "客服"],
            ] {
                assert!(admin(&app, &args).await.is_err(), "{args:?}");
            }
            let (_, home) = app.get(&demo, "/api/index").await;
            assert_eq!(home["data"]["shop"]["company"], CHANGED.company);
            let logged: Vec<String> =
                sqlx::query_scalar("SELECT after FROM audit_log WHERE action = 'settings.change'").fetch_all(&app.db.pool).await.unwrap();
            assert_eq!(logged.len(), 1, "one trail row for the change, none for the refused or unchanged ones");
            let after: Value = serde_json::from_str(&logged[0]).unwrap();
            assert_eq!(after.as_object().unwrap().len(), 6, "each changed field with its new value: {after}");
            assert_eq!(after["name"], CHANGED.name);
        },
    )
    .await;
}

#[tokio::test]
async fn the_help_articles_state_how_to_pay_the_deadline_and_where_invoices_are() {
    on_both_configured(
        |config| config.order_pay_minutes = 45,
        |app| async move {
            let client = app.client();
            let html = article_html(&app, &client, "/help/zfps/ddzf").await;
            for text in ["余额支付", "在线支付", "45分钟内完成支付", "申请发票", "电子发票", "纳税人识别号"] {
                assert!(html.contains(text), "订单支付 states {text}: {html}");
            }
            assert!(!html.contains("24小时") && !html.contains("30分钟"), "{html}");
            for gone in ["企业网银", "支付宝", "月结账期", "基础信息"] {
                assert!(!html.contains(gone), "订单支付 no longer offers {gone}: {html}");
            }
            let guide = article_html(&app, &client, "/help/xrzn/gwzn").await;
            assert!(guide.contains("45分钟内"), "{guide}");
            let delivery = article_html(&app, &client, "/help/zfps/hwps").await;
            assert!(delivery.contains("满800.00元免运费"), "{delivery}");
        },
    )
    .await;
}
