//! The back office on SQLite and PostgreSQL (`docs/backoffice.md`): operators sign in apart
//! from members (their own cookie, idle limit, login limits, TOTP for `super`); every
//! `/api/admin/*` call is checked against every role (allowed or 403), a member's session and
//! none (401); the warehouse ships an order named by its number and the buyer sees it; finance
//! issues an invoice the buyer downloads; every write leaves an audit row nobody can change.

use std::collections::BTreeSet;

use reqwest::{Client, Method, StatusCode};
use serde_json::Value;

use crate::common::{App, PNG, add_to_cart, address_of, admin, ladder_goods, multipart, multipart_files, on_both, post_order};
use origin::domain::staff::operators::{self, NewOperator};
use origin::domain::staff::{Actor, Permission, Role};

const PASSWORD: &str = "Backoffice-2026";

/// Adds an operator of `role` named `username` (through the domain, as `origin admin operator
/// add` does); answers its TOTP secret when the role has one.
async fn add_operator(app: &App, username: &str, role: Role) -> Option<String> {
    let mut conn = app.db.pool.acquire().await.unwrap();
    let new = NewOperator { username, name: "测试员工", role, password: PASSWORD };
    let added = operators::add(&mut conn, &Actor::command_line("tester"), new, origin::now()).await.unwrap();
    added.totp_secret
}

/// A signed-in client of a new operator of `role`.
async fn operator(app: &App, role: Role) -> Client {
    let username = format!("op-{}", role.key());
    let secret = add_operator(app, &username, role).await;
    let client = app.client();
    let code = secret.map(|secret| operators::totp_code(&secret, origin::now()).unwrap()).unwrap_or_default();
    let (status, body) = app.post(&client, "/api/admin/login", &[("username", &username), ("password", PASSWORD), ("code", &code)]).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["data"]["operator"]["role"], role.key());
    client
}

/// The permission each `/api/admin/*` call needs (`None`: any operator), written out here apart
/// from the code, so that a call whose check moves is caught.
fn needs() -> Vec<(Method, &'static str, Option<Permission>)> {
    use Permission::*;
    vec![
        (Method::GET, "/api/admin/me", None),
        (Method::GET, "/api/admin/dashboard", Some(Read)),
        (Method::GET, "/api/admin/orders", Some(Read)),
        (Method::GET, "/api/admin/orders/export", Some(Read)),
        (Method::GET, "/api/admin/members/export", Some(Read)),
        (Method::GET, "/api/admin/orders/{order}", Some(Read)),
        (Method::POST, "/api/admin/orders/{order}/ship", Some(Ship)),
        (Method::POST, "/api/admin/orders/{order}/logistics", Some(Ship)),
        (Method::POST, "/api/admin/orders/{order}/cancel", Some(CancelOrders)),
        (Method::GET, "/api/admin/orders/{order}/shipments/{shipment}/note.pdf", Some(Read)),
        (Method::GET, "/api/admin/invoices", Some(Read)),
        (Method::POST, "/api/admin/invoices/{id}/issue", Some(Invoices)),
        (Method::POST, "/api/admin/invoices/{id}/reverse", Some(Invoices)),
        (Method::GET, "/api/admin/members", Some(Read)),
        (Method::GET, "/api/admin/members/{id}", Some(Read)),
        (Method::POST, "/api/admin/members/{id}/controlled-sales", Some(ReviewMembers)),
        (Method::GET, "/api/admin/certificates/{id}/scan", Some(Read)),
        (Method::POST, "/api/admin/certificates/{id}/approve", Some(ReviewMembers)),
        (Method::POST, "/api/admin/certificates/{id}/reject", Some(ReviewMembers)),
        (Method::GET, "/api/admin/grant-templates", Some(Read)),
        (Method::POST, "/api/admin/members/{id}/grants/benefits", Some(GrantBenefits)),
        (Method::POST, "/api/admin/members/{id}/grants/balance", Some(GrantBalance)),
        (Method::GET, "/api/admin/balance-requests", Some(Read)),
        (Method::POST, "/api/admin/balance-requests/{id}/decide", Some(GrantBalance)),
        (Method::GET, "/api/admin/returns", Some(Read)),
        (Method::POST, "/api/admin/returns/{id}/approve", Some(ReviewReturns)),
        (Method::POST, "/api/admin/returns/{id}/reject", Some(ReviewReturns)),
        (Method::POST, "/api/admin/returns/{id}/receive", Some(ReceiveReturns)),
        (Method::GET, "/api/admin/after-sales", Some(Read)),
        (Method::GET, "/api/admin/after-sales/{id}", Some(Read)),
        (Method::POST, "/api/admin/after-sales/{id}/answer", Some(AfterSales)),
        (Method::GET, "/api/admin/feedback", Some(Read)),
        (Method::POST, "/api/admin/feedback/{id}/reply", Some(Feedback)),
        (Method::GET, "/api/admin/wanted", Some(Read)),
        (Method::POST, "/api/admin/wanted/{id}/answer", Some(Feedback)),
        (Method::GET, "/api/admin/points-orders", Some(Read)),
        (Method::POST, "/api/admin/points-orders/{id}/ship", Some(Ship)),
        (Method::GET, "/api/admin/operators", Some(Operators)),
        (Method::POST, "/api/admin/operators", Some(Operators)),
        (Method::PUT, "/api/admin/operators/{id}", Some(Operators)),
        (Method::GET, "/api/admin/audit", Some(ReadAudit)),
        (Method::GET, "/api/admin/settings", Some(Read)),
        (Method::PUT, "/api/admin/settings", Some(Settings)),
        (Method::PUT, "/api/admin/settings/prices", Some(Settings)),
        (Method::GET, "/api/admin/welfare", Some(Read)),
        (Method::POST, "/api/admin/welfare", Some(Promotions)),
        (Method::POST, "/api/admin/welfare/end", Some(Promotions)),
        (Method::GET, "/api/admin/stock/goods", Some(Read)),
        (Method::GET, "/api/admin/goods/{id}/lots", Some(Read)),
        (Method::POST, "/api/admin/goods/{id}/lots", Some(Stock)),
        (Method::GET, "/api/admin/goods", Some(Read)),
        (Method::POST, "/api/admin/goods", Some(Catalogue)),
        (Method::GET, "/api/admin/goods/fields", Some(Read)),
        (Method::GET, "/api/admin/goods/{id}", Some(Read)),
        (Method::PUT, "/api/admin/goods/{id}", Some(Catalogue)),
        (Method::POST, "/api/admin/goods/bulk", Some(Catalogue)),
        (Method::GET, "/api/admin/goods/export", Some(Read)),
        (Method::POST, "/api/admin/goods/import", Some(Catalogue)),
        (Method::GET, "/api/admin/lots/{id}/report", Some(Read)),
        (Method::POST, "/api/admin/lots/{id}/report", Some(Stock)),
        (Method::GET, "/api/admin/articles", Some(Read)),
        (Method::POST, "/api/admin/articles", Some(Content)),
        (Method::GET, "/api/admin/articles/{id}", Some(Read)),
        (Method::PUT, "/api/admin/articles/{id}", Some(Content)),
        (Method::POST, "/api/admin/articles/preview", Some(Content)),
        (Method::GET, "/api/admin/blocks", Some(Read)),
        (Method::POST, "/api/admin/blocks/{kind}", Some(Content)),
        (Method::PUT, "/api/admin/blocks/{kind}/{id}", Some(Content)),
        (Method::DELETE, "/api/admin/blocks/{kind}/{id}", Some(Content)),
        (Method::GET, "/api/admin/manjian", Some(Read)),
        (Method::GET, "/api/admin/flash-sales", Some(Read)),
        (Method::GET, "/api/admin/coupon-templates", Some(Read)),
        (Method::GET, "/api/admin/combinations", Some(Read)),
        (Method::POST, "/api/admin/combinations", Some(Promotions)),
        (Method::POST, "/api/admin/combinations/preview", Some(Read)),
        (Method::PUT, "/api/admin/combinations/{id}", Some(Promotions)),
        (Method::POST, "/api/admin/coupon-templates", Some(Promotions)),
        (Method::POST, "/api/admin/coupon-templates/preview", Some(Read)),
        (Method::PUT, "/api/admin/coupon-templates/{template}/{id}", Some(Promotions)),
        (Method::POST, "/api/admin/coupon-templates/{template}/{id}/grant", Some(GrantBenefits)),
        (Method::POST, "/api/admin/flash-sales", Some(Promotions)),
        (Method::POST, "/api/admin/flash-sales/preview", Some(Read)),
        (Method::PUT, "/api/admin/flash-sales/{id}", Some(Promotions)),
        (Method::POST, "/api/admin/flash-sales/{id}/end", Some(Promotions)),
        (Method::POST, "/api/admin/manjian", Some(Promotions)),
        (Method::POST, "/api/admin/manjian/preview", Some(Read)),
        (Method::GET, "/api/admin/manjian/{id}", Some(Read)),
        (Method::PUT, "/api/admin/manjian/{id}", Some(Promotions)),
        (Method::POST, "/api/admin/manjian/{id}/end", Some(Promotions)),
        (Method::GET, "/api/admin/cashback", Some(Read)),
        (Method::POST, "/api/admin/cashback", Some(Promotions)),
        (Method::POST, "/api/admin/cashback/preview", Some(Read)),
        (Method::PUT, "/api/admin/cashback/{id}", Some(Promotions)),
        (Method::POST, "/api/admin/cashback/{id}/end", Some(Promotions)),
        (Method::GET, "/api/admin/specials", Some(Read)),
        (Method::PUT, "/api/admin/specials", Some(Promotions)),
        (Method::GET, "/api/admin/points-goods", Some(Read)),
        (Method::POST, "/api/admin/points-goods", Some(Promotions)),
        (Method::PUT, "/api/admin/points-goods/{id}", Some(Promotions)),
        (Method::GET, "/api/admin/draws", Some(Read)),
        (Method::POST, "/api/admin/draws", Some(Promotions)),
        (Method::POST, "/api/admin/draws/preview", Some(Read)),
        (Method::PUT, "/api/admin/draws/{id}", Some(Promotions)),
        (Method::POST, "/api/admin/draws/{id}/end", Some(Promotions)),
        (Method::GET, "/api/admin/goods/{id}/pictures", Some(Read)),
        (Method::POST, "/api/admin/goods/{id}/pictures", Some(Catalogue)),
        (Method::PUT, "/api/admin/goods/{id}/pictures", Some(Catalogue)),
        (Method::DELETE, "/api/admin/goods/{id}/pictures/{picture}", Some(Catalogue)),
        (Method::GET, "/api/admin/activities", Some(Read)),
        (Method::POST, "/api/admin/activities", Some(Promotions)),
        (Method::PUT, "/api/admin/activities/{id}", Some(Promotions)),
        (Method::POST, "/api/admin/activities/{id}/end", Some(Promotions)),
    ]
}

/// Every call the OpenAPI document lists under `/api/admin/`, but signing in and out.
fn documented() -> BTreeSet<(String, String)> {
    let document = serde_json::to_value(origin::http::openapi_document()).unwrap();
    let mut calls = BTreeSet::new();
    for (path, item) in document["paths"].as_object().unwrap() {
        if !path.starts_with("/api/admin/") || path == "/api/admin/login" || path == "/api/admin/logout" {
            continue;
        }
        for method in item.as_object().unwrap().keys() {
            calls.insert((method.to_uppercase(), path.clone()));
        }
    }
    calls
}

/// Sends `method path` (no such order, invoice or operator: nothing changes when allowed).
async fn call(app: &App, client: &Client, method: &Method, path: &str) -> (StatusCode, Value) {
    let path = path
        .replace("{order}", "999999")
        .replace("{shipment}", "999999")
        .replace("{id}", "999999")
        .replace("{picture}", "999999")
        .replace("{kind}", "nav");
    let request = client.request(method.clone(), app.url(&path));
    let request = if *method == Method::GET { request } else { request.form(&[("x", "1")]) };
    let response = request.send().await.unwrap();
    let status = response.status();
    (status, response.json().await.unwrap_or(Value::Null))
}

#[tokio::test]
async fn every_admin_call_checks_its_permission_for_every_role() {
    on_both(|app| async move {
        let table: BTreeSet<(String, String)> =
            needs().iter().map(|(method, path, _)| (method.as_str().to_owned(), (*path).to_owned())).collect();
        assert_eq!(table, documented(), "every documented /api/admin call is in the matrix, and only those");

        let nobody = app.client();
        let member = app.demo().await;
        for (method, path, _) in needs() {
            for client in [&nobody, &member] {
                let (status, body) = call(&app, client, &method, path).await;
                assert_eq!((status, body["code"].as_i64()), (StatusCode::UNAUTHORIZED, Some(10001)), "{method} {path}: {body}");
            }
        }
        for role in Role::ALL {
            let client = operator(&app, role).await;
            for (method, path, need) in needs() {
                let (status, body) = call(&app, &client, &method, path).await;
                let allowed = need.is_none_or(|need| role.allows(need));
                if allowed {
                    assert!(
                        ![StatusCode::UNAUTHORIZED, StatusCode::FORBIDDEN].contains(&status),
                        "{role:?} {method} {path}: {status} {body}"
                    );
                } else {
                    assert_eq!(status, StatusCode::FORBIDDEN, "{role:?} {method} {path}: {body}");
                    assert_eq!(body["msg"], "您的角色没有此操作的权限");
                }
            }
        }
    })
    .await;
}

/// The value of cookie `name` a response sets.
fn set_cookie(response: &reqwest::Response, name: &str) -> Option<String> {
    response
        .headers()
        .get_all("set-cookie")
        .iter()
        .filter_map(|value| value.to_str().ok())
        .find(|value| value.starts_with(&format!("{name}=")))
        .map(str::to_owned)
}

#[tokio::test]
async fn operators_sign_in_apart_from_members_with_totp_limits_and_an_idle_end() {
    on_both(|app| async move {
        let secret = add_operator(&app, "boss", Role::Super).await.expect("a super has a TOTP secret");
        add_operator(&app, "packer", Role::Warehouse).await;
        let login = |form: Vec<(&'static str, String)>| {
            let app = app.clone();
            async move { app.client().post(app.url("/api/admin/login")).form(&form).send().await.unwrap() }
        };

        // The password alone is not enough for a super; the code is taken once.
        let response = login(vec![("username", "boss".into()), ("password", PASSWORD.into())]).await;
        let body: Value = response.json().await.unwrap();
        assert_eq!(body["msg"], "请输入动态验证码", "{body}");
        let code = operators::totp_code(&secret, origin::now()).unwrap();
        let response = login(vec![("username", "boss".into()), ("password", PASSWORD.into()), ("code", code.clone())]).await;
        assert_eq!(response.status(), StatusCode::OK);
        let cookie = set_cookie(&response, "osid").expect("an operator's cookie");
        assert!(cookie.contains("Path=/api/admin") && cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"), "{cookie}");
        assert!(set_cookie(&response, "sid").is_none(), "no member session");
        let token = cookie.trim_start_matches("osid=").split(';').next().unwrap().to_owned();
        let response = login(vec![("username", "boss".into()), ("password", PASSWORD.into()), ("code", code)]).await;
        let body: Value = response.json().await.unwrap();
        assert_eq!(body["msg"], "动态验证码错误或已使用");

        // An operator's token opens no member session, and a member's no operator's.
        let plain = app.client();
        let base: Value =
            plain.get(app.url("/api/user/base")).header("cookie", format!("sid={token}")).send().await.unwrap().json().await.unwrap();
        assert_eq!(base["data"]["login"], false);
        let me = plain.get(app.url("/api/admin/me")).header("cookie", format!("osid={token}")).send().await.unwrap();
        assert_eq!(me.status(), StatusCode::OK);
        let demo =
            app.client().post(app.url("/api/user/login")).form(&[("username", "demo"), ("password", "demo123")]).send().await.unwrap();
        let member_token = set_cookie(&demo, "sid").unwrap().trim_start_matches("sid=").split(';').next().unwrap().to_owned();
        let me = plain.get(app.url("/api/admin/me")).header("cookie", format!("osid={member_token}")).send().await.unwrap();
        assert_eq!(me.status(), StatusCode::UNAUTHORIZED);

        // Idle for the limit: the session is over.
        let idle = origin::now() - operators::IDLE_SECONDS - 1;
        sqlx::query("UPDATE operator_sessions SET last_seen = $1").bind(idle).execute(&app.db.pool).await.unwrap();
        let me = plain.get(app.url("/api/admin/me")).header("cookie", format!("osid={token}")).send().await.unwrap();
        assert_eq!(me.status(), StatusCode::UNAUTHORIZED);

        // Wrong passwords: one message, then a wait.
        for _ in 0..5 {
            let response = login(vec![("username", "packer".into()), ("password", "wrong-password-1".into())]).await;
            let body: Value = response.json().await.unwrap();
            assert_eq!(body["msg"], "账号或密码错误");
        }
        let response = login(vec![("username", "packer".into()), ("password", PASSWORD.into())]).await;
        assert_eq!(response.status(), StatusCode::TOO_MANY_REQUESTS);
        sqlx::query("DELETE FROM login_failures").execute(&app.db.pool).await.unwrap();

        // A disabled operator cannot sign in, and their sessions end.
        let packer = login(vec![("username", "packer".into()), ("password", PASSWORD.into())]).await;
        let packer_token = set_cookie(&packer, "osid").unwrap().trim_start_matches("osid=").split(';').next().unwrap().to_owned();
        let out = admin(&app, &["operator", "set", "--username", "packer", "--disable"]).await.unwrap();
        assert!(out.contains("disabled"), "{out}");
        let me = plain.get(app.url("/api/admin/me")).header("cookie", format!("osid={packer_token}")).send().await.unwrap();
        assert_eq!(me.status(), StatusCode::UNAUTHORIZED);
        let response = login(vec![("username", "packer".into()), ("password", PASSWORD.into())]).await;
        assert_eq!(response.status(), StatusCode::FORBIDDEN);
        let listed = admin(&app, &["operator", "list"]).await.unwrap();
        assert!(listed.lines().any(|line| line.contains("\tpacker\t") && line.ends_with("disabled")), "{listed}");
    })
    .await;
}

/// The demo member orders and pays; answers the order's id and number.
async fn paid_order(app: &App, key: &str) -> (i64, String) {
    let demo = app.demo().await;
    let (goods, _) = ladder_goods(app).await;
    let ids = add_to_cart(app, &demo, goods, 12, &[]).await.to_string();
    let (_, list) = app.get(&demo, "/api/cart/list").await;
    let payable = list["data"]["quote"]["totals"]["payable"].as_str().unwrap().to_owned();
    let address = address_of(app, "demo").await.to_string();
    let (_, placed) = post_order(app, &demo, key, &[("ids", &ids), ("address_id", &address), ("expected_payable", &payable)]).await;
    let order = placed["data"]["id"].as_i64().unwrap();
    let (status, _) = app.post(&demo, &format!("/api/order/{order}/pay"), &[("method", "balance")]).await;
    assert_eq!(status, StatusCode::OK);
    (order, placed["data"]["order_no"].as_str().unwrap().to_owned())
}

#[tokio::test]
async fn the_warehouse_ships_by_the_order_number_finance_invoices_and_the_trail_keeps_every_write() {
    on_both(|app| async move {
        let (order, order_no) = paid_order(&app, "backoffice-1").await;
        let warehouse = operator(&app, Role::Warehouse).await;
        let finance = operator(&app, Role::Finance).await;

        // Found by the number printed on the paper, in the list and alone.
        let (status, listed) = app.get(&warehouse, &format!("/api/admin/orders?number={order_no}&status=1")).await;
        assert_eq!(status, StatusCode::OK, "{listed}");
        assert_eq!(listed["data"]["total"], 1);
        assert_eq!(listed["data"]["list"][0]["id"], order);
        let (_, detail) = app.get(&warehouse, &format!("/api/admin/orders/{order_no}")).await;
        assert_eq!(detail["data"]["order"]["id"], order);
        assert_eq!(detail["data"]["member"]["username"], "demo");
        let item = detail["data"]["order"]["items"][0]["id"].as_i64().unwrap();
        let (status, missing) = app.get(&warehouse, "/api/admin/orders/2099010199999999").await;
        assert_eq!((status, missing["msg"].as_str()), (StatusCode::NOT_FOUND, Some("订单 2099010199999999 不存在")));

        // Finance may not ship; the warehouse ships five units, then the rest.
        let ship = format!("/api/admin/orders/{order_no}/ship");
        let (status, _) = app.post(&finance, &ship, &[("carrier", "顺丰速运"), ("tracking", "SF1")]).await;
        assert_eq!(status, StatusCode::FORBIDDEN);
        let (status, refused) = app.post(&warehouse, &ship, &[("carrier", "顺丰速运")]).await;
        assert_eq!((status, refused["msg"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("请填写运单号")));
        let lines = format!("{item}:5");
        let (status, first) = app.post(&warehouse, &ship, &[("carrier", "顺丰速运"), ("tracking", "SF100"), ("lines", &lines)]).await;
        assert_eq!(status, StatusCode::OK, "{first}");
        assert_eq!((first["data"]["seq"].as_i64(), first["data"]["left"].as_i64()), (Some(1), Some(7)));
        let (status, second) = app.post(&warehouse, &ship, &[("carrier", "顺丰速运"), ("tracking", "SF101")]).await;
        assert_eq!(status, StatusCode::OK, "{second}");
        assert_eq!(second["data"]["left"], 0);
        let demo = app.demo().await;
        let (_, seen) = app.get(&demo, &format!("/api/order/{order}")).await;
        assert_eq!((seen["data"]["status_name"].as_str(), seen["data"]["unshipped"].as_i64()), (Some("待收货"), Some(0)));
        assert_eq!(seen["data"]["shipments"].as_array().unwrap().len(), 2);
        let shipment = first["data"]["shipment"].as_i64().unwrap();
        let note = warehouse.get(app.url(&format!("/api/admin/orders/{order_no}/shipments/{shipment}/note.pdf"))).send().await.unwrap();
        assert_eq!(note.status(), StatusCode::OK);
        assert!(note.bytes().await.unwrap().starts_with(b"%PDF-"));

        // The buyer asks for an invoice; finance issues it; the buyer downloads it.
        let (status, requested) = app
            .post(
                &demo,
                &format!("/api/order/{order}/invoice"),
                &[("kind", "1"), ("title", "杭州仁心大药房连锁有限公司"), ("tax_no", "91330106MA2B3C4D5E"), ("email", "caigou@renxin.cn")],
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{requested}");
        let invoice = requested["data"]["id"].as_i64().unwrap();
        let (_, waiting) = app.get(&finance, &format!("/api/admin/invoices?pending=1&search={order_no}")).await;
        assert_eq!(waiting["data"]["list"][0]["id"], invoice);
        let (status, _) = app.post(&warehouse, &format!("/api/admin/invoices/{invoice}/issue"), &[]).await;
        assert_eq!(status, StatusCode::FORBIDDEN);
        let (status, issued) = app.post(&finance, &format!("/api/admin/invoices/{invoice}/issue"), &[]).await;
        assert_eq!(status, StatusCode::OK, "{issued}");
        let (status, again) = app.post(&finance, &format!("/api/admin/invoices/{invoice}/issue"), &[]).await;
        assert_eq!((status, again["msg"].as_str()), (StatusCode::CONFLICT, Some("该发票已开具")));
        let (_, mine) = app.get(&demo, "/api/invoices?status=1").await;
        let pdf = mine["data"]["list"][0]["pdf"].as_str().unwrap().to_owned();
        let response = demo.get(app.url(&pdf)).send().await.unwrap();
        assert_eq!(response.status(), StatusCode::OK);
        assert!(response.bytes().await.unwrap().starts_with(b"%PDF-"));

        // Every write is in the trail, with who, from where, and the values before and after.
        let rows: Vec<(Option<i64>, String, String, String, String, String)> = sqlx::query_as(
            "SELECT operator_id, operator, action, target, before, after FROM audit_log WHERE action IN ('order.ship', 'invoice.issue') ORDER BY id",
        )
        .fetch_all(&app.db.pool)
        .await
        .unwrap();
        assert_eq!(rows.len(), 3, "{rows:?}");
        let (operator_id, name, action, target, before, after) = &rows[0];
        assert!(operator_id.is_some());
        assert_eq!((name.as_str(), action.as_str(), target.as_str()), ("op-warehouse", "order.ship", format!("order:{order}").as_str()));
        let (before, after): (Value, Value) = (serde_json::from_str(before).unwrap(), serde_json::from_str(after).unwrap());
        assert_eq!((before["status"].as_str(), before["unshipped"].as_i64()), (Some("待发货"), Some(12)));
        assert_eq!((after["status"].as_str(), after["unshipped"].as_i64(), after["tracking"].as_str()), (Some("待收货"), Some(7), Some("SF100")));
        assert_eq!(rows[2].2, "invoice.issue");
        assert!(rows[2].5.contains(issued["data"]["invoice_no"].as_str().unwrap()));

        // The super reads the trail by the order's number; finance may not.
        let admin_client = operator(&app, Role::Super).await;
        let (status, trail) = app.get(&admin_client, &format!("/api/admin/audit?search={order_no}")).await;
        assert_eq!(status, StatusCode::OK, "{trail}");
        assert_eq!(trail["data"]["total"], 3);
        assert_eq!(trail["data"]["list"][0]["action"], "invoice.issue");
        let (_, by_action) = app.get(&admin_client, "/api/admin/audit?action=order.&operator=op-warehouse").await;
        assert_eq!(by_action["data"]["total"], 2);
        let (status, _) = app.get(&finance, "/api/admin/audit").await;
        assert_eq!(status, StatusCode::FORBIDDEN);

        // Nobody edits the trail, not even with the database's keys.
        assert!(sqlx::query("UPDATE audit_log SET summary = 'x'").execute(&app.db.pool).await.is_err());
        assert!(sqlx::query("DELETE FROM audit_log").execute(&app.db.pool).await.is_err());
        let kept: i64 = sqlx::query_scalar("SELECT CAST(COUNT(*) AS BIGINT) FROM audit_log").fetch_one(&app.db.pool).await.unwrap();
        assert!(kept >= 3);
    })
    .await;
}

#[tokio::test]
async fn finance_reverses_a_wrong_invoice_whole_and_the_buyer_requests_it_again() {
    on_both(|app| async move {
        let (order, order_no) = paid_order(&app, "backoffice-reverse").await;
        let finance = operator(&app, Role::Finance).await;
        let service = operator(&app, Role::Service).await;
        let demo = app.demo().await;
        let ask = |title: &'static str| {
            let (app, demo) = (&app, &demo);
            async move {
                let form = [("kind", "1"), ("title", title), ("tax_no", "91330106MA2B3C4D5E"), ("email", "caigou@renxin.cn")];
                let (status, requested) = app.post(demo, &format!("/api/order/{order}/invoice"), &form).await;
                (status, requested["data"]["id"].as_i64().unwrap_or_default())
            }
        };
        let (status, blue) = ask("杭州仁心大药房").await;
        assert_eq!(status, StatusCode::OK);
        let reverse = format!("/api/admin/invoices/{blue}/reverse");
        let (status, refused) = app.post(&finance, &reverse, &[("reason", "抬头有误")]).await;
        assert_eq!((status, refused["msg"].as_str()), (StatusCode::CONFLICT, Some("发票尚未开具，不能红冲")));
        let (status, issued) = app.post(&finance, &format!("/api/admin/invoices/{blue}/issue"), &[]).await;
        assert_eq!(status, StatusCode::OK, "{issued}");
        let blue_no = issued["data"]["invoice_no"].as_str().unwrap().to_owned();
        let (status, _) = ask("杭州仁心大药房连锁有限公司").await;
        assert_eq!(status, StatusCode::CONFLICT, "one invoice in force per order");

        // Only finance reverses, and only with a reason.
        let (status, _) = app.post(&service, &reverse, &[("reason", "抬头有误")]).await;
        assert_eq!(status, StatusCode::FORBIDDEN);
        let (status, refused) = app.post(&finance, &reverse, &[("reason", "  ")]).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(refused["data"]["errors"]["reason"][0], "请填写红冲原因");
        let (status, reversed) = app.post(&finance, &reverse, &[("reason", "抬头有误，客户要求全称")]).await;
        assert_eq!(status, StatusCode::OK, "{reversed}");
        assert_eq!(reversed["data"]["invoice_no"], blue_no.as_str());
        assert_eq!(reversed["data"]["amount"], Value::from(format!("-{}", issued["data"]["amount"].as_str().unwrap())));
        let (status, again) = app.post(&finance, &reverse, &[("reason", "抬头有误")]).await;
        assert_eq!((status, again["msg"].as_str()), (StatusCode::CONFLICT, Some("该发票已红冲")));

        // The red-letter invoice takes back every line exactly: units, before tax and tax.
        let red: i64 = sqlx::query_scalar("SELECT id FROM invoices WHERE red_of = $1").bind(blue).fetch_one(&app.db.pool).await.unwrap();
        let (status, refused) = app.post(&finance, &format!("/api/admin/invoices/{red}/reverse"), &[("reason", "x")]).await;
        assert_eq!((status, refused["msg"].as_str()), (StatusCode::CONFLICT, Some("红字发票不能再红冲")));
        let sums: Vec<(i64, i64, i64, i64)> = sqlx::query_as(
            "SELECT order_item_id, CAST(SUM(number) AS BIGINT), CAST(SUM(net) AS BIGINT), CAST(SUM(tax) AS BIGINT) FROM invoice_lines \
             WHERE invoice_id IN ($1, $2) GROUP BY order_item_id",
        )
        .bind(blue)
        .bind(red)
        .fetch_all(&app.db.pool)
        .await
        .unwrap();
        assert!(!sums.is_empty() && sums.iter().all(|(_, number, net, tax)| (*number, *net, *tax) == (0, 0, 0)), "{sums:?}");

        // The buyer sees both, is told, and asks again with the right title; finance issues it.
        let (_, mine) = app.get(&demo, &format!("/api/invoices?order_id={order}")).await;
        let list = mine["data"]["list"].as_array().unwrap();
        let shown = |id: i64| list.iter().find(|invoice| invoice["id"] == id).unwrap();
        assert_eq!(shown(blue)["status_name"], "已红冲");
        assert!(shown(blue)["reversed_at"].is_i64());
        assert_eq!(shown(red)["red_of_no"], blue_no.as_str());
        let (_, messages) = app.get(&demo, "/api/user/message").await;
        assert!(messages.to_string().contains("发票已红冲"), "{messages}");
        let (status, second) = ask("杭州仁心大药房连锁有限公司").await;
        assert_eq!(status, StatusCode::OK);
        let (status, issued_again) = app.post(&finance, &format!("/api/admin/invoices/{second}/issue"), &[]).await;
        assert_eq!(status, StatusCode::OK, "{issued_again}");
        assert_eq!(issued_again["data"]["amount"], issued["data"]["amount"], "the order's amount once more");
        assert_ne!(issued_again["data"]["invoice_no"], blue_no.as_str());

        // The console lists it reversed, with the reason; the trail keeps it; the command line
        // lists it the same way and reverses with the same function.
        let (_, listed) = app.get(&finance, &format!("/api/admin/invoices?search={order_no}")).await;
        let row = listed["data"]["list"].as_array().unwrap().iter().find(|row| row["id"] == blue).cloned().unwrap();
        assert_eq!(row["reversal_reason"], "抬头有误，客户要求全称");
        let (after,): (String,) = sqlx::query_as("SELECT after FROM audit_log WHERE action = 'invoice.reverse' AND target = $1")
            .bind(format!("invoice:{blue}"))
            .fetch_one(&app.db.pool)
            .await
            .unwrap();
        assert!(after.contains("抬头有误，客户要求全称"), "{after}");
        let printed = admin(&app, &["invoices"]).await.unwrap();
        assert!(printed.lines().any(|line| line.starts_with(&format!("{blue}\t")) && line.contains("reversed: 抬头有误")), "{printed}");
        assert!(printed.lines().any(|line| line.starts_with(&format!("{red}\t")) && line.contains(&format!("red-letter of {blue_no}"))));
        let out = admin(&app, &["reverse-invoice", &second.to_string(), "--reason", "客户取消开票"]).await.unwrap();
        assert!(out.starts_with("reversed invoice"), "{out}");
        assert!(admin(&app, &["reverse-invoice", &second.to_string(), "--reason", "x"]).await.is_err());
    })
    .await;
}

#[tokio::test]
async fn an_unpaid_order_is_cancelled_with_a_reason_and_the_commands_take_order_numbers() {
    on_both(|app| async move {
        let demo = app.demo().await;
        let (goods, _) = ladder_goods(&app).await;
        let ids = add_to_cart(&app, &demo, goods, 2, &[]).await.to_string();
        let (_, list) = app.get(&demo, "/api/cart/list").await;
        let payable = list["data"]["quote"]["totals"]["payable"].as_str().unwrap().to_owned();
        let address = address_of(&app, "demo").await.to_string();
        let (_, placed) =
            post_order(&app, &demo, "backoffice-2", &[("ids", &ids), ("address_id", &address), ("expected_payable", &payable)]).await;
        let (order, order_no) = (placed["data"]["id"].as_i64().unwrap(), placed["data"]["order_no"].as_str().unwrap().to_owned());

        let service = operator(&app, Role::Service).await;
        let cancel = format!("/api/admin/orders/{order}/cancel");
        let (status, refused) = app.post(&service, &cancel, &[]).await;
        assert_eq!((status, refused["msg"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("请填写取消原因")));
        let (status, done) = app.post(&service, &cancel, &[("reason", "客户电话要求取消")]).await;
        assert_eq!((status, done["data"]["order_no"].as_str()), (StatusCode::OK, Some(order_no.as_str())));
        let (_, seen) = app.get(&demo, &format!("/api/order/{order}")).await;
        assert_eq!(seen["data"]["status_name"], "已取消");
        let (status, _) = app.post(&service, &cancel, &[("reason", "再次")]).await;
        assert_eq!(status, StatusCode::CONFLICT);
        let told: i64 = sqlx::query_scalar("SELECT CAST(COUNT(*) AS BIGINT) FROM messages WHERE body LIKE $1")
            .bind(format!("%{order_no}%客户电话要求取消%"))
            .fetch_one(&app.db.pool)
            .await
            .unwrap();
        assert_eq!(told, 1);

        // The commands name orders by their number too, and a wrong one is a message, not a panic.
        let (paid, paid_no) = paid_order(&app, "backoffice-3").await;
        let out = admin(&app, &["ship", &paid_no, "--carrier", "中通快递", "--tracking", "ZT1"]).await.unwrap();
        assert!(out.contains(&format!("shipped order {paid} ({paid_no})")), "{out}");
        let error = admin(&app, &["ship", "2099010199999999", "--carrier", "中通快递", "--tracking", "ZT2"]).await.unwrap_err();
        assert_eq!(origin::admin::message(&error), "订单 2099010199999999 不存在");
        let error = admin(&app, &["logistics", "abc", "--description", "到达杭州"]).await.unwrap_err();
        assert_eq!(origin::admin::message(&error), "订单 abc 不存在");
        let trail: i64 = sqlx::query_scalar(
            "SELECT CAST(COUNT(*) AS BIGINT) FROM audit_log WHERE operator_id IS NULL AND action = 'order.ship' AND target = $1",
        )
        .bind(format!("order:{paid}"))
        .fetch_one(&app.db.pool)
        .await
        .unwrap();
        assert_eq!(trail, 1, "the command's write is in the trail too");
    })
    .await;
}

async fn send_multipart(app: &App, client: &Client, path: &str, fields: &[(&str, &str)]) -> (StatusCode, Value) {
    let (content_type, body) = multipart(fields, &[]);
    let response = client.post(app.url(path)).header("content-type", content_type).body(body).send().await.unwrap();
    (response.status(), response.json().await.unwrap())
}

async fn balance(app: &App) -> i64 {
    sqlx::query_scalar("SELECT balance FROM members WHERE username = 'demo'").fetch_one(&app.db.pool).await.unwrap()
}

#[tokio::test]
async fn customer_service_reviews_a_return_the_warehouse_refunds_it_and_cases_are_answered() {
    on_both(|app| async move {
        let (order, order_no) = paid_order(&app, "backoffice-4").await;
        let demo = app.demo().await;
        let warehouse = operator(&app, Role::Warehouse).await;
        let service = operator(&app, Role::Service).await;
        let (status, _) =
            app.post(&warehouse, &format!("/api/admin/orders/{order_no}/ship"), &[("carrier", "顺丰速运"), ("tracking", "SF9")]).await;
        assert_eq!(status, StatusCode::OK);
        let (status, _) = app.post(&demo, &format!("/api/order/{order}/receive"), &[]).await;
        assert_eq!(status, StatusCode::OK);
        let (_, detail) = app.get(&demo, &format!("/api/order/{order}")).await;
        let item = detail["data"]["items"][0]["id"].as_i64().unwrap();
        let (status, requested) =
            send_multipart(&app, &demo, &format!("/api/order/{order}/return"), &[("lines", &format!("{item}:2")), ("reason", "5")]).await;
        assert_eq!(status, StatusCode::OK, "{requested}");

        // Found by the order's number; customer service reviews, the warehouse receives.
        let (_, listed) = app.get(&service, &format!("/api/admin/returns?status=0&search={order_no}")).await;
        assert_eq!(listed["data"]["total"], 1, "{listed}");
        let row = &listed["data"]["list"][0];
        let id = row["id"].as_i64().unwrap();
        assert!(row["units"][0].as_str().unwrap().contains("×2（批号 "), "{row}");
        let refund = row["refund"].as_str().unwrap().to_owned();
        let (status, _) = app.post(&warehouse, &format!("/api/admin/returns/{id}/approve"), &[]).await;
        assert_eq!(status, StatusCode::FORBIDDEN);
        let (status, early) = app.post(&warehouse, &format!("/api/admin/returns/{id}/receive"), &[]).await;
        assert_eq!((status, early["msg"].as_str()), (StatusCode::CONFLICT, Some("退货单状态为待审核，不能确认收货退款")));
        let (status, refused) = app.post(&service, &format!("/api/admin/returns/{id}/reject"), &[]).await;
        assert_eq!((status, refused["msg"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("请填写拒绝原因")));
        let (status, approved) = app.post(&service, &format!("/api/admin/returns/{id}/approve"), &[("note", "寄回：杭州仓")]).await;
        assert_eq!((status, approved["data"]["status"].as_str()), (StatusCode::OK, Some("待退货")), "{approved}");
        let (status, _) = app.post(&service, &format!("/api/admin/returns/{id}/receive"), &[]).await;
        assert_eq!(status, StatusCode::FORBIDDEN);
        let before = balance(&app).await;
        let (status, received) = app.post(&warehouse, &format!("/api/admin/returns/{id}/receive"), &[]).await;
        assert_eq!(status, StatusCode::OK, "{received}");
        assert_eq!(received["data"]["refund"].as_str(), Some(refund.as_str()), "the refund quoted at the request is what is paid");
        assert_eq!(balance(&app).await - before, origin::money::parse_stored(&refund).unwrap());
        let (_, mine) = app.get(&demo, &format!("/api/order/{order}/returns")).await;
        assert_eq!(mine["data"]["returns"][0]["status_name"], "已退款", "{mine}");
        let actions: Vec<String> = sqlx::query_scalar("SELECT action FROM audit_log WHERE target = $1 ORDER BY id")
            .bind(format!("return:{id}"))
            .fetch_all(&app.db.pool)
            .await
            .unwrap();
        assert_eq!(actions, ["return.approve", "return.receive"]);

        // An after-sales case: listed while open, its thread read, answered and closed.
        let (status, opened) =
            send_multipart(&app, &demo, &format!("/api/order/{order}/after_sales"), &[("kind", "2"), ("body", "外箱压坏了")]).await;
        assert_eq!(status, StatusCode::OK, "{opened}");
        let (_, open) = app.get(&service, "/api/admin/after-sales?open=1").await;
        let case = open["data"]["list"][0]["id"].as_i64().unwrap();
        assert_eq!(
            (open["data"]["list"][0]["last"].as_str(), open["data"]["list"][0]["last_author"].as_str()),
            (Some("外箱压坏了"), Some("member"))
        );
        let (status, _) = app.post(&warehouse, &format!("/api/admin/after-sales/{case}/answer"), &[("body", "好的")]).await;
        assert_eq!(status, StatusCode::FORBIDDEN);
        let (status, answered) =
            app.post(&service, &format!("/api/admin/after-sales/{case}/answer"), &[("body", "已为您补发外箱"), ("resolve", "1")]).await;
        assert_eq!(status, StatusCode::OK, "{answered}");
        let (_, thread) = app.get(&service, &format!("/api/admin/after-sales/{case}")).await;
        assert_eq!(thread["data"]["case"]["status"], 1);
        assert_eq!(thread["data"]["messages"][1]["body"], "已为您补发外箱");
        let (_, seen) = app.get(&demo, &format!("/api/after_sales/{case}")).await;
        assert_eq!(seen["data"]["status_name"], "已解决", "{seen}");
        let (status, again) = app.post(&service, &format!("/api/admin/after-sales/{case}/answer"), &[("body", "再补一句")]).await;
        assert_eq!((status, again["msg"].as_str()), (StatusCode::CONFLICT, Some("售后单已解决")));
    })
    .await;
}

#[tokio::test]
async fn operations_reviews_a_certificate_beside_its_scan_and_sets_the_business_scope() {
    on_both(|app| async move {
        // A clinic registers and uploads its licence with a scan.
        let clinic = app.other_member().await;
        sqlx::query("UPDATE members SET buyer_type = 3, is_passed = 0 WHERE username = 'other'").execute(&app.db.pool).await.unwrap();
        let (content_type, mut body) =
            multipart(&[("kind", "医疗机构执业许可证"), ("number", "PDY00012"), ("expires_on", "2099-12-31"), ("scope", "全科诊疗")], &[]);
        // The scan goes under `file`, as the certificates page sends it.
        body.truncate(body.len() - "------test-boundary--\r\n".len());
        body.extend(b"------test-boundary\r\nContent-Disposition: form-data; name=\"file\"; filename=\"licence.png\"\r\nContent-Type: image/png\r\n\r\n");
        body.extend(crate::common::PNG);
        body.extend(b"\r\n------test-boundary--\r\n");
        let response = clinic.post(app.url("/api/user/zizhi")).header("content-type", content_type).body(body).send().await.unwrap();
        assert_eq!(response.status(), StatusCode::OK);
        let member: i64 = sqlx::query_scalar("SELECT id FROM members WHERE username = 'other'").fetch_one(&app.db.pool).await.unwrap();

        let operations = operator(&app, Role::Operations).await;
        let finance = operator(&app, Role::Finance).await;
        let (_, waiting) = app.get(&operations, "/api/admin/members?pending=1&search=别家").await;
        assert_eq!(waiting["data"]["total"], 1, "{waiting}");
        assert_eq!((waiting["data"]["list"][0]["id"].as_i64(), waiting["data"]["list"][0]["pending"].as_i64()), (Some(member), Some(1)));
        let (_, page) = app.get(&operations, &format!("/api/admin/members/{member}")).await;
        let certificate = &page["data"]["certificates"][0];
        assert_eq!((certificate["kind"].as_str(), certificate["status"].as_i64()), (Some("医疗机构执业许可证"), Some(0)), "{page}");
        let id = certificate["id"].as_i64().unwrap();
        let scan = operations.get(app.url(&format!("/api/admin/certificates/{id}/scan"))).send().await.unwrap();
        assert_eq!((scan.status(), scan.headers()["content-type"].to_str().unwrap().to_owned()), (StatusCode::OK, "image/png".to_owned()));
        assert_eq!(&scan.bytes().await.unwrap()[..], crate::common::PNG);

        // Finance may read it but not decide; a scope with a class that does not exist is refused.
        let (status, _) = app.post(&finance, &format!("/api/admin/certificates/{id}/approve"), &[("scope", "中成药")]).await;
        assert_eq!(status, StatusCode::FORBIDDEN);
        let (status, refused) = app.post(&operations, &format!("/api/admin/certificates/{id}/approve"), &[("scope", "中成药、西药")]).await;
        assert_eq!((status, refused["msg"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("经营范围中没有“西药”这一类")));
        let (status, refused) = app.post(&operations, &format!("/api/admin/certificates/{id}/reject"), &[]).await;
        assert_eq!((status, refused["msg"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("请填写驳回原因")));
        let (status, approved) =
            app.post(&operations, &format!("/api/admin/certificates/{id}/approve"), &[("scope", "化学药制剂、中成药")]).await;
        assert_eq!(status, StatusCode::OK, "{approved}");
        assert_eq!(approved["data"]["member_approved"], true);
        assert_eq!(approved["data"]["scope"], serde_json::json!(["化学药制剂", "中成药"]));
        let (_, base) = app.get(&clinic, "/api/user/base").await;
        assert_eq!(base["data"]["is_passed"], 1);
        let (_, page) = app.get(&operations, &format!("/api/admin/members/{member}")).await;
        let held: Vec<&str> = page["data"]["scope"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|entry| entry["held"] == true)
            .map(|entry| entry["name"].as_str().unwrap())
            .collect();
        assert_eq!(held, ["化学药制剂", "中成药"]);
        let (after,): (String,) = sqlx::query_as("SELECT after FROM audit_log WHERE action = 'qualification.approve' AND target = $1")
            .bind(format!("certificate:{id}"))
            .fetch_one(&app.db.pool)
            .await
            .unwrap();
        let after: Value = serde_json::from_str(&after).unwrap();
        assert_eq!(
            (after["scope"].clone(), after["member_approved"].clone()),
            (serde_json::json!(["化学药制剂", "中成药"]), Value::Bool(true))
        );

        // A controlled-sales application: rejected with a reason, then approved.
        let (status, _) = app.post(&clinic, "/api/kxzq/apply", &[]).await;
        assert_eq!(status, StatusCode::OK);
        let path = format!("/api/admin/members/{member}/controlled-sales");
        let (status, refused) = app.post(&operations, &path, &[("approve", "0")]).await;
        assert_eq!((status, refused["msg"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("请填写驳回原因")));
        let (_, rejected) = app.post(&operations, &path, &[("approve", "0"), ("reason", "经营范围不含处方药")]).await;
        assert_eq!(rejected["data"]["status"], 2);
        let (_, approved) = app.post(&operations, &path, &[("approve", "1")]).await;
        assert_eq!(approved["data"]["status"], 1);
        let (_, page) = app.get(&operations, &format!("/api/admin/members/{member}")).await;
        assert_eq!(page["data"]["controlled_sales"], 1);
    })
    .await;
}

#[tokio::test]
async fn gifts_carry_a_reason_and_a_large_balance_grant_waits_for_a_second_operator() {
    on_both(|app| async move {
        let member: i64 = sqlx::query_scalar("SELECT id FROM members WHERE username = 'demo'").fetch_one(&app.db.pool).await.unwrap();
        let operations = operator(&app, Role::Operations).await;
        let finance = operator(&app, Role::Finance).await;
        let benefits = format!("/api/admin/members/{member}/grants/benefits");
        let balance_path = format!("/api/admin/members/{member}/grants/balance");
        let (_, templates) = app.get(&operations, "/api/admin/grant-templates").await;
        let coupon = templates["data"]["coupons"][0]["id"].as_i64().unwrap().to_string();
        assert_eq!(templates["data"]["second_operator_above"], "1000.00");

        let (status, refused) = app.post(&operations, &benefits, &[("kind", "red_packet"), ("amount", "20")]).await;
        assert_eq!((status, refused["msg"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("请填写赠送原因")));
        let (status, _) = app.post(&finance, &benefits, &[("kind", "red_packet"), ("amount", "20"), ("reason", "x")]).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "finance gives balance, not benefits");
        let (status, _) = app.post(&operations, &balance_path, &[("amount", "20"), ("reason", "x")]).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "operations gives benefits, not balance");
        let (status, given) =
            app.post(&operations, &benefits, &[("kind", "coupon"), ("template", &coupon), ("count", "2"), ("reason", "新店开业")]).await;
        assert_eq!(status, StatusCode::OK, "{given}");
        let (_, given) = app.post(&operations, &benefits, &[("kind", "red_packet"), ("amount", "20.50"), ("reason", "老客户回馈")]).await;
        assert_eq!(given["data"]["summary"], "赠送红包¥20.50");
        let (_, given) = app.post(&operations, &benefits, &[("kind", "points"), ("points", "300"), ("reason", "活动奖励")]).await;
        assert_eq!(given["data"]["summary"], "积分+300");

        // Balance: ¥300 is paid at once; ¥5,000 waits for a second operator.
        let before = balance(&app).await;
        let (_, small) = app.post(&finance, &balance_path, &[("amount", "300"), ("reason", "银行转账充值")]).await;
        assert_eq!(small["data"]["request"], Value::Null, "{small}");
        assert_eq!(balance(&app).await - before, 300 * 10_000);
        let (_, large) = app.post(&finance, &balance_path, &[("amount", "5000"), ("reason", "银行转账充值 大额")]).await;
        let request = large["data"]["request"].as_i64().unwrap();
        assert_eq!(balance(&app).await - before, 300 * 10_000, "not paid yet");
        let (_, waiting) = app.get(&finance, "/api/admin/balance-requests?pending=1").await;
        assert_eq!((waiting["data"][0]["id"].as_i64(), waiting["data"][0]["amount"].as_str()), (Some(request), Some("5000.00")));
        let decide = format!("/api/admin/balance-requests/{request}/decide");
        let (status, same) = app.post(&finance, &decide, &[("approve", "1")]).await;
        assert_eq!((status, same["msg"].as_str()), (StatusCode::FORBIDDEN, Some("须由另一位员工审批")));
        let (status, _) = app.post(&operations, &decide, &[("approve", "1")]).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "operations holds no balance permission");
        let second = operator(&app, Role::Super).await;
        let (status, approved) = app.post(&second, &decide, &[("approve", "1")]).await;
        assert_eq!(status, StatusCode::OK, "{approved}");
        assert_eq!(balance(&app).await - before, 5300 * 10_000);
        let (status, _) = app.post(&second, &decide, &[("approve", "0")]).await;
        assert_eq!(status, StatusCode::CONFLICT, "decided once");

        let actions: Vec<(String, String)> =
            sqlx::query_as("SELECT action, summary FROM audit_log WHERE member_id = $1 AND action LIKE 'grant.%' ORDER BY id")
                .bind(member)
                .fetch_all(&app.db.pool)
                .await
                .unwrap();
        let names: Vec<&str> = actions.iter().map(|(action, _)| action.as_str()).collect();
        assert_eq!(
            names,
            ["grant.coupon", "grant.red_packet", "grant.points", "grant.balance", "grant.balance.request", "grant.balance.approve"]
        );
        assert!(actions[1].1.contains("老客户回馈"), "the reason is kept: {actions:?}");
        let (_, log) = app.get(&app.demo().await, "/api/user/red_packet_log").await;
        assert_eq!(log["data"]["list"][0]["note"], "老客户回馈");
    })
    .await;
}

#[tokio::test]
async fn customer_service_answers_feedback_and_wanted_varieties_and_the_warehouse_ships_points_orders() {
    on_both(|app| async move {
        let demo = app.demo().await;
        let member: i64 = sqlx::query_scalar("SELECT id FROM members WHERE username = 'demo'").fetch_one(&app.db.pool).await.unwrap();
        let (status, sent) = app.post(&demo, "/api/user/feedback", &[("kind", "1"), ("body", "希望支持按批号筛选")]).await;
        assert_eq!(status, StatusCode::OK, "{sent}");
        sqlx::query("INSERT INTO wanted_varieties (member_id, name, number, created_at) VALUES ($1, '布洛芬缓释胶囊', 20, 0)")
            .bind(member)
            .execute(&app.db.pool)
            .await
            .unwrap();
        let goods: i64 = sqlx::query_scalar("SELECT MIN(id) FROM points_goods").fetch_one(&app.db.pool).await.unwrap();
        sqlx::query(
            "INSERT INTO points_orders (order_no, member_id, points_goods_id, name, kind, number, points, price, status, address, created_at) \
             VALUES ('P20261129001', $1, $2, '保温杯', 1, 1, 500, 0, 0, '浙江省杭州市', 0)",
        )
        .bind(member)
        .bind(goods)
        .execute(&app.db.pool)
        .await
        .unwrap();
        let service = operator(&app, Role::Service).await;
        let warehouse = operator(&app, Role::Warehouse).await;

        let (_, open) = app.get(&service, "/api/admin/feedback?open=1").await;
        let feedback = open["data"].as_array().unwrap().iter().find(|row| row["body"] == "希望支持按批号筛选").unwrap()["id"].as_i64().unwrap();
        let (status, _) = app.post(&warehouse, &format!("/api/admin/feedback/{feedback}/reply"), &[("reply", "好")]).await;
        assert_eq!(status, StatusCode::FORBIDDEN);
        let (status, _) = app.post(&service, &format!("/api/admin/feedback/{feedback}/reply"), &[("reply", "已排期，下月上线")]).await;
        assert_eq!(status, StatusCode::OK);
        let (_, mine) = app.get(&demo, "/api/user/feedback").await;
        assert_eq!(mine["data"]["list"][0]["reply"], "已排期，下月上线", "{mine}");
        let (status, _) = app.post(&service, &format!("/api/admin/feedback/{feedback}/reply"), &[("reply", "再回一次")]).await;
        assert!(status.is_client_error(), "replied once");

        let (_, wanted) = app.get(&service, "/api/admin/wanted?open=1").await;
        let id = wanted["data"][0]["id"].as_i64().unwrap();
        let (status, refused) = app.post(&service, &format!("/api/admin/wanted/{id}/answer"), &[("reply", "已上架")]).await;
        assert_eq!((status, refused["msg"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("请选择已上架或暂无货源")));
        let (status, _) = app.post(&service, &format!("/api/admin/wanted/{id}/answer"), &[("status", "1"), ("reply", "已上架，请搜索布洛芬")]).await;
        assert_eq!(status, StatusCode::OK);
        let (_, left) = app.get(&service, "/api/admin/wanted?open=1").await;
        assert!(left["data"].as_array().unwrap().iter().all(|row| row["id"] != id));

        let (_, orders) = app.get(&warehouse, "/api/admin/points-orders?pending=1").await;
        let order = orders["data"].as_array().unwrap().iter().find(|row| row["order_no"] == "P20261129001").unwrap()["id"].as_i64().unwrap();
        let path = format!("/api/admin/points-orders/{order}/ship");
        let (status, _) = app.post(&service, &path, &[("carrier", "中通快递"), ("tracking", "ZT9")]).await;
        assert_eq!(status, StatusCode::FORBIDDEN);
        let (status, _) = app.post(&warehouse, &path, &[("carrier", "中通快递"), ("tracking", "ZT9")]).await;
        assert_eq!(status, StatusCode::OK);
        let (status, again) = app.post(&warehouse, &path, &[("carrier", "中通快递"), ("tracking", "ZT9")]).await;
        assert_eq!((status, again["msg"].as_str()), (StatusCode::CONFLICT, Some("积分订单待收货，不能发货")));
        let actions: Vec<String> = sqlx::query_scalar(
            "SELECT action FROM audit_log WHERE action IN ('feedback.reply', 'wanted.reply', 'points_order.ship') ORDER BY id",
        )
        .fetch_all(&app.db.pool)
        .await
        .unwrap();
        assert_eq!(actions, ["feedback.reply", "wanted.reply", "points_order.ship"]);
    })
    .await;
}

/// `method path` with a form body, from `client`.
async fn send_form(app: &App, client: &Client, method: Method, path: &str, form: &[(&str, &str)]) -> (StatusCode, Value) {
    let response = client.request(method, app.url(path)).form(form).send().await.unwrap();
    (response.status(), response.json().await.unwrap())
}

#[tokio::test]
async fn settings_the_store_wide_discount_lots_and_articles_are_run_from_the_console() {
    on_both(|app| async move {
        let boss = operator(&app, Role::Super).await;
        let operations = operator(&app, Role::Operations).await;
        let warehouse = operator(&app, Role::Warehouse).await;
        let visitor = app.client();

        // 店铺设置: only a super changes the identity, every field checked first, all or none;
        // the footer states the change at once.
        let (status, _) = send_form(&app, &operations, Method::PUT, "/api/admin/settings", &[("name", "新店名")]).await;
        assert_eq!(status, StatusCode::FORBIDDEN);
        let (status, refused) =
            send_form(&app, &boss, Method::PUT, "/api/admin/settings", &[("name", "瑞禾医药采购平台"), ("credit_code", "123")]).await;
        assert_eq!((status, refused["msg"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("统一社会信用代码应为15到20位字母或数字")));
        let (_, home) = app.get(&visitor, "/api/index").await;
        assert_ne!(home["data"]["shop"]["name"], "瑞禾医药采购平台", "nothing changed");
        let (status, changed) =
            send_form(&app, &boss, Method::PUT, "/api/admin/settings", &[("name", "瑞禾医药采购平台"), ("icp", "")]).await;
        assert_eq!(status, StatusCode::OK, "{changed}");
        assert_eq!(changed["data"][0]["name"], "name");
        assert_eq!(changed["data"][0]["after"], "瑞禾医药采购平台");
        let (_, home) = app.get(&visitor, "/api/index").await;
        assert_eq!(home["data"]["shop"]["name"], "瑞禾医药采购平台");
        let (_, again) = send_form(&app, &boss, Method::PUT, "/api/admin/settings", &[("name", "瑞禾医药采购平台")]).await;
        assert_eq!(again["data"], serde_json::json!([]), "the same value changes nothing");

        // Who sees prices: a visitor sees them once the super opens them.
        let (_, list) = app.get(&visitor, "/api/goods/list").await;
        assert!(list["data"]["list"][0]["price"].is_null(), "{}", list["data"]["list"][0]);
        let (status, shown) = send_form(&app, &boss, Method::PUT, "/api/admin/settings/prices", &[("public", "1")]).await;
        assert_eq!((status, shown["data"]["changed"].as_bool()), (StatusCode::OK, Some(true)), "{shown}");
        let (_, list) = app.get(&visitor, "/api/goods/list").await;
        assert!(list["data"]["list"][0]["price"].is_string(), "{}", list["data"]["list"][0]);

        // 全场折扣: operations starts one, the engine judges the rate, the cards are priced at it.
        let (goods, price): (i64, i64) = sqlx::query_as(
            "SELECT id, price FROM goods WHERE is_buy = 1 AND price > 0 AND id NOT IN (SELECT goods_id FROM flash_sales) ORDER BY id LIMIT 1",
        )
        .fetch_one(&app.db.pool)
        .await
        .unwrap();
        for (rate, message) in [("1", "折扣须大于0且小于1，如0.94即94折"), ("0", "折扣须大于0且小于1，如0.94即94折"), ("九折", "折扣须大于0且小于1，如0.94即94折")] {
            let (status, refused) =
                app.post(&operations, "/api/admin/welfare", &[("title", "双十二"), ("rate", rate), ("days", "3")]).await;
            assert_eq!((status, refused["msg"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some(message)), "{rate}");
        }
        let (status, _) = app.post(&warehouse, "/api/admin/welfare", &[("title", "双十二"), ("rate", "0.9"), ("days", "3")]).await;
        assert_eq!(status, StatusCode::FORBIDDEN);
        let (status, started) = app.post(&operations, "/api/admin/welfare", &[("title", "双十二"), ("rate", "0.9"), ("days", "3")]).await;
        assert_eq!(status, StatusCode::OK, "{started}");
        let shown = |detail: &Value| engine::Money::parse(detail["data"]["price"].as_str().unwrap()).unwrap().decimal();
        let listed = engine::Money::parse(&origin::money::text(price)).unwrap();
        let (_, detail) = app.get(&visitor, &format!("/api/goods/detail/{goods}")).await;
        let expected = engine::rate_price(listed, engine::Money::parse("0.9").unwrap()).unwrap();
        assert_eq!(shown(&detail), expected.decimal(), "{}", detail["data"]);
        let (_, running) = app.get(&operations, "/api/admin/welfare").await;
        assert_eq!((running["data"][0]["name"].as_str(), running["data"][0]["running"].as_bool()), (Some("9折"), Some(true)), "{running}");
        let (_, ended) = app.post(&operations, "/api/admin/welfare/end", &[]).await;
        assert_eq!(ended["data"]["ended"], 1);
        let (_, detail) = app.get(&visitor, &format!("/api/goods/detail/{goods}")).await;
        assert_eq!(shown(&detail), listed.decimal());

        // 批号入库: the warehouse finds the goods, receives a lot with its report; stock and the
        // shown expiry follow; a wrong date is refused on its field.
        let (_, found) = app.get(&warehouse, &format!("/api/admin/stock/goods?keyword={goods}")).await;
        assert_eq!(found["data"][0]["id"], goods, "{found}");
        let (_, before) = app.get(&warehouse, &format!("/api/admin/goods/{goods}/lots")).await;
        let stock = before["data"]["goods"]["stock"].as_i64().unwrap();
        let path = format!("/api/admin/goods/{goods}/lots");
        let fields = [("lot_no", "B20261201"), ("produced_on", "2026-10-01"), ("expires_on", "2026-13-01"), ("quantity", "120")];
        let (content_type, body) = multipart_files(&fields, "report", &[("report.png", PNG)]);
        let response = warehouse.post(app.url(&path)).header("content-type", &content_type).body(body).send().await.unwrap();
        let refused: Value = response.json().await.unwrap();
        assert_eq!(refused["msg"], "有效期至格式应为YYYY-MM-DD", "{refused}");
        let fields = [("lot_no", "B20261201"), ("produced_on", "2026-10-01"), ("expires_on", "2099-09-30"), ("quantity", "120")];
        let (content_type, body) = multipart_files(&fields, "report", &[("report.png", PNG)]);
        let response = operations.post(app.url(&path)).header("content-type", &content_type).body(body.clone()).send().await.unwrap();
        assert_eq!(response.status(), StatusCode::FORBIDDEN, "operations does not receive stock");
        let response = warehouse.post(app.url(&path)).header("content-type", &content_type).body(body).send().await.unwrap();
        let received: Value = response.json().await.unwrap();
        let lot = received["data"]["id"].as_i64().unwrap_or_else(|| panic!("{received}"));
        let (_, after) = app.get(&warehouse, &path).await;
        assert_eq!(after["data"]["goods"]["stock"].as_i64(), Some(stock + 120));
        let row = after["data"]["lots"].as_array().unwrap().iter().find(|row| row["id"] == lot).unwrap().clone();
        assert_eq!((row["lot_no"].as_str(), row["has_report"].as_bool()), (Some("B20261201"), Some(true)), "{row}");
        let report = warehouse.get(app.url(&format!("/api/admin/lots/{lot}/report"))).send().await.unwrap();
        assert_eq!(report.headers()["content-type"], "image/png");
        assert_eq!(report.bytes().await.unwrap().as_ref(), PNG);

        // 文章: operations previews a body as the shop will show it, changes a help article
        // (its page stays) and publishes a news item; the buyer's pages show them.
        let (_, preview) = app.post(&operations, "/api/admin/articles/preview", &[("body", "## 配送\n\n{{shop.name}}当日发货<script>")]).await;
        let html = preview["data"]["html"].as_str().unwrap();
        assert!(html.contains("<h2>配送</h2>") && html.contains("瑞禾医药采购平台当日发货&lt;script&gt;"), "{html}");
        let (_, help) = app.get(&operations, "/api/admin/articles?kind=help").await;
        let help = help["data"].as_array().unwrap().iter().find(|row| row["path"] == "/help/zfps/hwps").unwrap().clone();
        let id = help["id"].as_i64().unwrap();
        let (_, before) = app.get(&operations, &format!("/api/admin/articles/{id}")).await;
        assert!(before["data"]["body"].as_str().is_some_and(|body| !body.is_empty()), "{before}");
        let change = [("body", "下午**五点**前付款当日发货。"), ("path", "/help/elsewhere")];
        let (status, _) = send_form(&app, &warehouse, Method::PUT, &format!("/api/admin/articles/{id}"), &change).await;
        assert_eq!(status, StatusCode::FORBIDDEN);
        let (status, saved) = send_form(&app, &operations, Method::PUT, &format!("/api/admin/articles/{id}"), &change).await;
        assert_eq!(status, StatusCode::OK, "{saved}");
        let (_, shown) = app.get(&visitor, &format!("/api/article/{id}")).await;
        assert!(shown["data"]["html"].as_str().unwrap().contains("下午<strong>五点</strong>前付款"), "{shown}");
        let (_, after) = app.get(&operations, &format!("/api/admin/articles/{id}")).await;
        assert_eq!(after["data"]["path"], "/help/zfps/hwps", "a help article keeps its page");
        let news = [("kind", "news"), ("category", "company"), ("title", "春节发货安排"), ("body", "除夕至初五**暂停发货**。")];
        let (status, refused) = app.post(&operations, "/api/admin/articles", &[("kind", "help"), ("title", "新页面"), ("body", "x")]).await;
        assert_eq!((status, refused["msg"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("帮助中心的页面是固定的，只能修改已有的帮助文章")));
        let (status, refused) = app.post(&operations, "/api/admin/articles", &[("kind", "news"), ("title", "春节发货安排"), ("body", "x")]).await;
        assert_eq!((status, refused["msg"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("请选择资讯分类：行业资讯或公司新闻")));
        let (status, saved) = app.post(&operations, "/api/admin/articles", &news).await;
        assert_eq!(status, StatusCode::OK, "{saved}");
        let news_id = saved["data"]["id"].as_i64().unwrap();
        let (_, company) = app.get(&visitor, "/api/article/category?category_id=company").await;
        assert!(company["data"].as_array().unwrap().iter().any(|row| row["id"] == news_id), "{company}");

        // Every write above is in the trail, with the values before and after.
        let actions: Vec<String> = sqlx::query_scalar(
            "SELECT action FROM audit_log WHERE action IN ('settings.change', 'settings.prices', 'welfare.start', 'welfare.end', 'lot.add', \
             'article.change', 'article.publish') ORDER BY id",
        )
        .fetch_all(&app.db.pool)
        .await
        .unwrap();
        assert_eq!(actions, ["settings.change", "settings.prices", "welfare.start", "welfare.end", "lot.add", "article.change", "article.publish"]);
        let (before, after): (String, String) =
            sqlx::query_as("SELECT before, after FROM audit_log WHERE action = 'article.change'").fetch_one(&app.db.pool).await.unwrap();
        assert!(!before.contains("五点") && after.contains("五点"), "{before} {after}");
    })
    .await;
}

/// The rows of sheet `name` of an `.xlsx` workbook, each cell as text (numbers as Excel holds them).
fn sheet_rows(book: &[u8], name: &str) -> Vec<Vec<String>> {
    use calamine::{Data, Reader, Xlsx, open_workbook_from_rs};
    let mut workbook: Xlsx<_> = open_workbook_from_rs(std::io::Cursor::new(book.to_vec())).unwrap();
    let range = workbook.worksheet_range(name).unwrap();
    range
        .rows()
        .map(|row| {
            row.iter()
                .map(|cell| match cell {
                    Data::String(text) => text.clone(),
                    Data::Float(number) => number.to_string(),
                    Data::Int(number) => number.to_string(),
                    Data::Empty => String::new(),
                    other => other.to_string(),
                })
                .collect()
        })
        .collect()
}

#[tokio::test]
async fn orders_and_members_export_to_excel_as_the_lists_find_them_and_the_trail_records_it() {
    on_both(|app| async move {
        let (_, order_no) = paid_order(&app, "export-1").await;
        let readonly = operator(&app, Role::Readonly).await;
        let (_, listed) = app.get(&readonly, &format!("/api/admin/orders?number={order_no}")).await;
        let row = &listed["data"]["list"][0];

        let response = readonly.get(app.url(&format!("/api/admin/orders/export?number={order_no}&page=3"))).send().await.unwrap();
        assert_eq!(response.status(), StatusCode::OK);
        assert_eq!(response.headers()["content-type"], "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet");
        let disposition = response.headers()["content-disposition"].to_str().unwrap().to_owned();
        assert!(disposition.starts_with("attachment; filename=\"orders-") && disposition.ends_with(".xlsx\""), "{disposition}");
        let book = response.bytes().await.unwrap();
        let orders = sheet_rows(&book, "订单");
        assert_eq!(orders[0][..3], ["订单号", "下单时间", "状态"]);
        assert_eq!(orders.len(), 2, "the filter's one order, whatever the page asked: {orders:?}");
        assert_eq!((orders[1][0].as_str(), orders[1][2].as_str()), (order_no.as_str(), "待发货"));
        let payable: f64 = row["payable"].as_str().unwrap().parse().unwrap();
        assert_eq!(orders[1][8], payable.to_string(), "the amount the list shows");
        let lines = sheet_rows(&book, "明细");
        assert_eq!(lines.len() as i64 - 1, row["lines"].as_i64().unwrap(), "{lines:?}");
        assert!(lines[1..].iter().all(|line| line[0] == order_no));
        let stored: Vec<(i64, i64)> = sqlx::query_as(
            "SELECT i.number, i.amount FROM order_items i JOIN orders o ON o.id = i.order_id WHERE o.order_no = $1 ORDER BY i.id",
        )
        .bind(&order_no)
        .fetch_all(&app.db.pool)
        .await
        .unwrap();
        for (line, (number, amount)) in lines[1..].iter().zip(&stored) {
            assert_eq!(line[6], number.to_string());
            assert_eq!(line[8], origin::money::text(*amount).parse::<f64>().unwrap().to_string());
        }

        let response = readonly.get(app.url("/api/admin/members/export?search=demo")).send().await.unwrap();
        let members = sheet_rows(&response.bytes().await.unwrap(), "会员");
        let demo = members.iter().find(|row| row[1] == "demo").expect("the demo member");
        let balance: i64 = sqlx::query_scalar("SELECT balance FROM members WHERE username = 'demo'").fetch_one(&app.db.pool).await.unwrap();
        assert_eq!(demo[7], origin::money::text(balance).parse::<f64>().unwrap().to_string());
        assert_eq!(demo[6], "已认证");

        // The dashboard's sales by category count the order's lines under their top-level category.
        let (category, paid): (i64, i64) = sqlx::query_as(
            "SELECT g.category_id, CAST(SUM(i.paid) AS BIGINT) FROM order_items i JOIN orders o ON o.id = i.order_id \
             JOIN goods g ON g.id = i.goods_id WHERE o.order_no = $1 GROUP BY g.category_id",
        )
        .bind(&order_no)
        .fetch_one(&app.db.pool)
        .await
        .unwrap();
        let mut top = category;
        while let Some(parent) = sqlx::query_scalar::<_, Option<i64>>("SELECT parent_id FROM categories WHERE id = $1")
            .bind(top)
            .fetch_one(&app.db.pool)
            .await
            .unwrap()
        {
            top = parent;
        }
        let (_, dashboard) = app.get(&readonly, "/api/admin/dashboard").await;
        let by_category = dashboard["data"]["sales_by_category"].as_array().unwrap();
        let found = by_category.iter().find(|row| row["category_id"] == top).unwrap_or_else(|| panic!("{by_category:?}"));
        let sales = engine::Money::parse(found["sales"].as_str().unwrap()).unwrap().decimal();
        assert!(sales >= engine::Money::parse(&origin::money::text(paid)).unwrap().decimal(), "{found}");
        let amounts: Vec<_> =
            by_category.iter().map(|row| engine::Money::parse(row["sales"].as_str().unwrap()).unwrap().decimal()).collect();
        assert!(amounts.windows(2).all(|pair| pair[0] >= pair[1]), "most first: {amounts:?}");

        let member = app.demo().await;
        assert_eq!(member.get(app.url("/api/admin/members/export")).send().await.unwrap().status(), StatusCode::UNAUTHORIZED);
        let actions: Vec<String> = sqlx::query_scalar("SELECT action FROM audit_log WHERE action LIKE '%.export' ORDER BY id")
            .fetch_all(&app.db.pool)
            .await
            .unwrap();
        assert_eq!(actions, ["orders.export", "members.export"]);
    })
    .await;
}

#[tokio::test]
async fn banners_nav_hot_terms_and_links_are_kept_in_the_console_and_the_shop_shows_them_at_once() {
    on_both(|app| async move {
        let operations = operator(&app, Role::Operations).await;
        let service = operator(&app, Role::Service).await;
        let visitor = app.client();
        let (_, blocks) = app.get(&operations, "/api/admin/blocks").await;
        assert!(blocks["data"]["positions"].as_array().unwrap().iter().any(|position| position["key"] == "focus"), "{blocks}");

        // A banner: checked field by field, then shown in the carousel with its own card.
        let banner = [("position", "focus"), ("title", "冬季备货节"), ("subtitle", "满3000减200"), ("url", "/zyyp"), ("color", "#c0392b")];
        let (status, _) = app.post(&service, "/api/admin/blocks/ad", &banner).await;
        assert_eq!(status, StatusCode::FORBIDDEN);
        for (field, value, message) in [
            ("url", "javascript:alert(1)", "链接须为本站页面（/开头）或http(s)://网址"),
            ("color", "red", "颜色格式应为#RRGGBB"),
            ("position", "sidebar", "请选择广告位置"),
        ] {
            let form: Vec<(&str, &str)> = banner.iter().map(|(name, old)| (*name, if *name == field { value } else { old })).collect();
            let (status, refused) = app.post(&operations, "/api/admin/blocks/ad", &form).await;
            assert_eq!((status, refused["msg"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some(message)), "{field}");
        }
        let (status, saved) = app.post(&operations, "/api/admin/blocks/ad", &banner).await;
        assert_eq!(status, StatusCode::OK, "{saved}");
        let ad = saved["data"]["id"].as_i64().unwrap();
        let (_, focus) = app.get(&visitor, "/api/focus").await;
        let shown = focus["data"].as_array().unwrap().iter().find(|row| row["id"] == ad).unwrap_or_else(|| panic!("{focus}")).clone();
        assert_eq!((shown["title"].as_str(), shown["url"].as_str()), (Some("冬季备货节"), Some("/zyyp")));
        let card = visitor.get(app.url(shown["image"].as_str().unwrap())).send().await.unwrap().text().await.unwrap();
        assert!(card.contains("冬季备货节") && card.contains("#c0392b"), "{card}");
        let (status, changed) =
            send_form(&app, &operations, Method::PUT, &format!("/api/admin/blocks/ad/{ad}"), &[("title", "年货节")]).await;
        assert_eq!(status, StatusCode::OK, "{changed}");
        let (_, focus) = app.get(&visitor, "/api/focus").await;
        let again = focus["data"].as_array().unwrap().iter().find(|row| row["id"] == ad).unwrap().clone();
        assert_eq!(
            (again["title"].as_str(), again["subtitle"].as_str()),
            (Some("年货节"), Some("满3000减200")),
            "the fields not sent stay"
        );
        let card = visitor.get(app.url(again["image"].as_str().unwrap())).send().await.unwrap().text().await.unwrap();
        assert!(card.contains("年货节"), "{card}");
        let taken = shown["image"].as_str().unwrap().split('/').next_back().unwrap().split('.').next().unwrap().to_owned();
        let other = [("position", "focus"), ("title", "另一张"), ("url", "/"), ("sort", taken.as_str())];
        let (status, refused) = app.post(&operations, "/api/admin/blocks/ad", &other).await;
        assert_eq!(
            (status, refused["msg"].as_str()),
            (StatusCode::UNPROCESSABLE_ENTITY, Some(format!("该位置已有排序为{taken}的广告").as_str()))
        );

        // The nav, a hot term and a link: added, seen by the shop, deleted.
        let (status, nav) =
            app.post(&operations, "/api/admin/blocks/nav", &[("title", "冬季专场"), ("url", "/yjh/1"), ("sort", "0")]).await;
        assert_eq!(status, StatusCode::OK, "{nav}");
        let nav = nav["data"]["id"].as_i64().unwrap();
        let (_, home) = app.get(&visitor, "/api/index").await;
        let named = |home: &Value, name: &str| home["data"]["nav"].as_array().unwrap().iter().any(|entry| entry["name"] == name);
        assert!(named(&home, "冬季专场"), "{}", home["data"]["nav"]);
        let (_, term) = app.post(&operations, "/api/admin/blocks/hot_term", &[("title", "连花清瘟"), ("sort", "0")]).await;
        let (_, home) = app.get(&visitor, "/api/index").await;
        assert!(home["data"]["rnss"].as_array().unwrap().iter().any(|term| term == "连花清瘟"), "{}", home["data"]["rnss"]);
        let (status, refused) = app.post(&operations, "/api/admin/blocks/link", &[("title", "药监局"), ("url", "/news/hy")]).await;
        assert_eq!((status, refused["msg"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("友情链接须为http(s)://网址")));
        let (status, _) =
            app.post(&operations, "/api/admin/blocks/link", &[("title", "药监局"), ("url", "https://www.nmpa.gov.cn/")]).await;
        assert_eq!(status, StatusCode::OK);
        let (_, links) = app.get(&visitor, "/api/global/links").await;
        assert!(links["data"].as_array().unwrap().iter().any(|link| link["name"] == "药监局"), "{links}");
        let response = operations.delete(app.url(&format!("/api/admin/blocks/nav/{nav}"))).send().await.unwrap();
        assert_eq!(response.status(), StatusCode::OK);
        let (_, home) = app.get(&visitor, "/api/index").await;
        assert!(!named(&home, "冬季专场"));
        let response = operations.delete(app.url(&format!("/api/admin/blocks/nav/{nav}"))).send().await.unwrap();
        assert_eq!(response.status(), StatusCode::NOT_FOUND, "deleted once");
        let response = operations.delete(app.url("/api/admin/blocks/banner/1")).send().await.unwrap();
        assert_eq!(response.status(), StatusCode::NOT_FOUND);
        assert!(term["data"]["id"].is_i64());

        let trail: Vec<(String, String, String)> =
            sqlx::query_as("SELECT action, before, after FROM audit_log WHERE action LIKE 'block.%' ORDER BY id")
                .fetch_all(&app.db.pool)
                .await
                .unwrap();
        let actions: Vec<&str> = trail.iter().map(|(action, _, _)| action.as_str()).collect();
        assert_eq!(actions, ["block.add", "block.change", "block.add", "block.add", "block.add", "block.delete"]);
        assert!(trail[1].1.contains("冬季备货节") && trail[1].2.contains("年货节"), "{:?}", trail[1]);
    })
    .await;
}

/// The ids the buyer's keyword list finds for `keyword`.
async fn found_ids(app: &App, client: &Client, keyword: &str) -> Vec<i64> {
    let (_, body) = app.get(client, &format!("/api/goods/list?keyword={}&page_size=100", crate::common::urlencode(keyword))).await;
    body["data"]["list"].as_array().unwrap_or_else(|| panic!("{body}")).iter().filter_map(|card| card["id"].as_i64()).collect()
}

/// The demo member's cart quote line for goods `goods`.
async fn quoted_line(app: &App, client: &Client, goods: i64) -> Value {
    let (_, list) = app.get(client, "/api/cart/list").await;
    let items = list["data"]["data"].as_array().cloned().unwrap_or_default();
    let line = items.iter().find(|item| item["goods"]["id"] == goods).unwrap_or_else(|| panic!("{list}"))["id"].clone();
    list["data"]["quote"]["lines"].as_array().unwrap().iter().find(|quoted| quoted["id"] == line).cloned().unwrap()
}

#[tokio::test]
async fn operations_adds_a_goods_with_a_ladder_reprices_it_and_the_buyer_sees_each_change_at_once() {
    on_both(|app| async move {
        let operations = operator(&app, Role::Operations).await;
        let warehouse = operator(&app, Role::Warehouse).await;
        let (status, spec) = app.get(&operations, "/api/admin/goods/fields").await;
        assert_eq!(status, StatusCode::OK, "{spec}");
        let category = spec["data"]["categories"][0]["id"].as_i64().unwrap().to_string();
        assert!(spec["data"]["fields"].as_array().unwrap().iter().any(|field| field["name"] == "ladder" && field["label"] == "阶梯价"));

        // Every wrong field is refused on its own, in Chinese; the warehouse may not add goods.
        let (status, refused) = app
            .post(&operations, "/api/admin/goods", &[("name", " "), ("price", "abc"), ("zbz", "0"), ("ladder", "10"), ("vat_rate", "8")])
            .await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{refused}");
        let errors = &refused["data"]["errors"];
        assert_eq!(errors["name"][0], "请填写商品名称");
        assert_eq!(errors["price"][0], "价格应为金额，最多两位小数");
        assert_eq!(errors["zbz"][0], "中包装应在1到10000之间");
        assert_eq!(errors["ladder"][0], "阶梯价“10”应写作 数量:单价");
        assert_eq!(errors["vat_rate"][0], "税率不正确");
        let form = [
            ("name", "紫苏梗颗粒"),
            ("common_name", "紫苏梗颗粒"),
            ("sccj", "测试制药有限公司"),
            ("ypgg", "10g*6袋"),
            ("bzdw", "盒"),
            ("category_id", category.as_str()),
            ("price", "25.00"),
            ("base_price", "30.00"),
            ("ladder_price_type", "2"),
            ("ladder", "10:23.50，50:22"),
            ("scope_class", "3"),
            ("dispensing", "2"),
            ("pzwh", "国药准字Z20260001"),
        ];
        let (status, _) = app.post(&warehouse, "/api/admin/goods", &form).await;
        assert_eq!(status, StatusCode::FORBIDDEN);
        let mut above = form.to_vec();
        above.retain(|(name, _)| *name != "ladder");
        above.push(("ladder", "10:26"));
        let (_, refused) = app.post(&operations, "/api/admin/goods", &above).await;
        assert_eq!(refused["data"]["errors"]["ladder"][0], "阶梯价 10 件起的单价应低于价格 25.00", "{refused}");
        let (status, added) = app.post(&operations, "/api/admin/goods", &form).await;
        assert_eq!(status, StatusCode::OK, "{added}");
        let goods = added["data"]["id"].as_i64().unwrap();
        let fields = &added["data"]["fields"];
        assert_eq!((fields["price"].as_str(), fields["ladder"].as_str()), (Some("25.00"), Some("10:23.50,50:22.00")));
        assert_eq!((fields["is_buy"].as_str(), fields["vat_rate"].as_str(), fields["zbz"].as_str()), (Some("1"), Some("13"), Some("1")));
        assert_eq!(added["data"]["stock"], 0, "stock comes by lot");
        assert_eq!(added["data"]["prices"][0]["operator"], "op-operations");

        // The warehouse receives a lot; the buyer finds it by pinyin and sees the ladder priced.
        let (status, _) = send_multipart(
            &app,
            &warehouse,
            &format!("/api/admin/goods/{goods}/lots"),
            &[("lot_no", "ZS1"), ("produced_on", "2026-10-01"), ("expires_on", "2099-09-30"), ("quantity", "500")],
        )
        .await;
        assert_eq!(status, StatusCode::OK);
        let demo = app.demo().await;
        assert!(found_ids(&app, &demo, "zsgkl").await.contains(&goods), "found by the initials of its pinyin");
        add_to_cart(&app, &demo, goods, 10, &[]).await;
        assert_eq!(quoted_line(&app, &demo, goods).await["unit_price"], "23.50");

        // A partial change: the price and the ladder only; the next quote has them, the history
        // keeps both prices, and the same values again change nothing.
        let path = format!("/api/admin/goods/{goods}");
        let (status, changed) = send_form(&app, &operations, Method::PUT, &path, &[("price", "24.00"), ("ladder", "10:22.80")]).await;
        assert_eq!(status, StatusCode::OK, "{changed}");
        let names: Vec<&str> = changed["data"]["changed"].as_array().unwrap().iter().filter_map(|change| change["name"].as_str()).collect();
        assert_eq!(names, ["price", "ladder"]);
        assert_eq!(changed["data"]["goods"]["fields"]["name"], "紫苏梗颗粒", "the fields not sent stay");
        assert_eq!(changed["data"]["goods"]["prices"].as_array().unwrap().len(), 2);
        assert_eq!(quoted_line(&app, &demo, goods).await["unit_price"], "22.80");
        let (_, again) = send_form(&app, &operations, Method::PUT, &path, &[("price", "24"), ("ladder", "10:22.8")]).await;
        assert_eq!(again["data"]["changed"], Value::Array(Vec::new()));
        let trail: Vec<(String, String)> = sqlx::query_as("SELECT action, after FROM audit_log WHERE target = $1 ORDER BY id")
            .bind(format!("goods:{goods}"))
            .fetch_all(&app.db.pool)
            .await
            .unwrap();
        assert_eq!(trail.iter().map(|(action, _)| action.as_str()).collect::<Vec<_>>(), ["goods.add", "lot.add", "goods.change"]);
        assert!(trail[2].1.contains("10:22.80"), "{}", trail[2].1);

        // Renamed: the search finds the new name at once.
        let (_, _) = send_form(&app, &operations, Method::PUT, &path, &[("name", "紫苏叶颗粒")]).await;
        assert!(found_ids(&app, &demo, "zsykl").await.contains(&goods));
        assert!(!found_ids(&app, &demo, "zsgkl").await.contains(&goods) || found_ids(&app, &demo, "紫苏梗").await.contains(&goods));

        // 下架 in bulk: the cart line can no longer be bought; 上架 again, then 9折 by the engine.
        let ids = goods.to_string();
        let (status, done) = app.post(&operations, "/api/admin/goods/bulk", &[("ids", &ids), ("action", "off_sale")]).await;
        assert_eq!((status, done["data"]["changed"].as_i64()), (StatusCode::OK, Some(1)), "{done}");
        assert_eq!(quoted_line(&app, &demo, goods).await["sellable"], false);
        let (_, listed) = app.get(&operations, "/api/admin/goods?on_sale=0&search=紫苏叶").await;
        assert_eq!(listed["data"]["list"][0]["id"], goods, "{listed}");
        app.post(&operations, "/api/admin/goods/bulk", &[("ids", &ids), ("action", "on_sale")]).await;
        let (status, refused) =
            app.post(&operations, "/api/admin/goods/bulk", &[("ids", &ids), ("action", "reprice"), ("value", "1.2")]).await;
        assert_eq!(
            (status, refused["data"]["errors"]["rate"][0].as_str()),
            (StatusCode::UNPROCESSABLE_ENTITY, Some("调价比例应大于0且不超过1"))
        );
        app.post(&operations, "/api/admin/goods/bulk", &[("ids", &ids), ("action", "reprice"), ("value", "0.9")]).await;
        let (_, now) = app.get(&operations, &path).await;
        assert_eq!((now["data"]["fields"]["price"].as_str(), now["data"]["fields"]["ladder"].as_str()), (Some("21.60"), Some("10:20.52")));
        let line = quoted_line(&app, &demo, goods).await;
        assert_eq!((line["sellable"].as_bool(), line["unit_price"].as_str()), (Some(true), Some("20.52")), "the buyer may tick it again");
        assert_eq!(now["data"]["prices"].as_array().unwrap().len(), 3);
    })
    .await;
}

/// A goods added by operations at `price` with 500 units received by the warehouse.
async fn stocked_goods(app: &App, operations: &Client, warehouse: &Client, name: &str, price: &str) -> i64 {
    let (_, spec) = app.get(operations, "/api/admin/goods/fields").await;
    let category = spec["data"]["categories"][0]["id"].as_i64().unwrap().to_string();
    let form =
        [("name", name), ("sccj", "测试制药有限公司"), ("ypgg", "10g*6袋"), ("bzdw", "盒"), ("category_id", &category), ("price", price)];
    let (status, added) = app.post(operations, "/api/admin/goods", &form).await;
    assert_eq!(status, StatusCode::OK, "{added}");
    let goods = added["data"]["id"].as_i64().unwrap();
    let lot = [("lot_no", "MJ1"), ("produced_on", "2026-10-01"), ("expires_on", "2099-09-30"), ("quantity", "500")];
    let (status, _) = send_multipart(app, warehouse, &format!("/api/admin/goods/{goods}/lots"), &lot).await;
    assert_eq!(status, StatusCode::OK);
    goods
}

#[tokio::test]
async fn a_manjian_activity_runs_on_its_schedule_its_preview_is_the_carts_quote_and_conflicts_are_confirmed() {
    on_both(|app| async move {
        let operations = operator(&app, Role::Operations).await;
        let warehouse = operator(&app, Role::Warehouse).await;
        let inside = stocked_goods(&app, &operations, &warehouse, "满减测试颗粒", "25.00").await;
        let outside = stocked_goods(&app, &operations, &warehouse, "满减外测试片", "30.00").await;
        let now = origin::now();
        let (later, much_later) = ((now + 3600).to_string(), (now + 86_400).to_string());
        let inside_text = inside.to_string();

        // Each wrong field on its own, in Chinese; the warehouse may not add one.
        let (status, refused) = app
            .post(
                &operations,
                "/api/admin/manjian",
                &[("title", " "), ("starts_at", &much_later), ("ends_at", &later), ("tiers", "200:20,150:30"), ("goods", "")],
            )
            .await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{refused}");
        let errors = &refused["data"]["errors"];
        assert_eq!(errors["title"][0], "请填写活动名称");
        assert_eq!(errors["ends_at"][0], "结束时间须晚于开始时间");
        assert_eq!(errors["tiers"][0], "第2档门槛须高于第1档");
        assert_eq!(errors["goods"][0], "请选择参加活动的商品");
        let (_, refused) = app
            .post(
                &operations,
                "/api/admin/manjian",
                &[("title", "x"), ("starts_at", &later), ("ends_at", &much_later), ("tiers", "200:20,500:10"), ("goods", &inside_text)],
            )
            .await;
        assert_eq!(refused["data"]["errors"]["tiers"][0], "第2档减额须大于第1档", "{refused}");
        let (_, refused) = app
            .post(
                &operations,
                "/api/admin/manjian",
                &[("title", "x"), ("starts_at", &later), ("ends_at", &much_later), ("tiers", "200:20.001"), ("goods", "99999999")],
            )
            .await;
        assert_eq!(refused["data"]["errors"]["tiers"][0], "第1档减额最多两位小数", "{refused}");
        let draft = [
            ("title", "颗粒满200减20"),
            ("starts_at", later.as_str()),
            ("ends_at", much_later.as_str()),
            ("tiers", "200:20,500:60"),
            ("goods", inside_text.as_str()),
        ];
        let (status, _) = app.post(&warehouse, "/api/admin/manjian", &draft).await;
        assert_eq!(status, StatusCode::FORBIDDEN);

        // The preview: ten of the activity's goods reach 满200减20; the other goods neither
        // counts nor takes a share (rule 8). Nothing is saved.
        let sample = format!("{inside}:10,{outside}:4");
        let mut previewed = draft.to_vec();
        previewed.push(("sample", &sample));
        let (status, preview) = app.post(&operations, "/api/admin/manjian/preview", &previewed).await;
        assert_eq!(status, StatusCode::OK, "{preview}");
        let quote = &preview["data"]["quote"];
        assert_eq!((quote["totals"]["manjian"].as_str(), quote["totals"]["discount"].as_str()), (Some("250.00"), Some("20.00")), "{quote}");
        assert_eq!(quote["totals"]["payable"], "350.00");
        assert_eq!(
            (quote["lines"][0]["goods_manjian_amount"].as_str(), quote["lines"][1]["goods_manjian_amount"].as_str()),
            (Some("20.00"), Some("0.00"))
        );
        assert_eq!(
            (preview["data"]["lines"][0]["in_activity"].as_bool(), preview["data"]["lines"][1]["in_activity"].as_bool()),
            (Some(true), Some(false))
        );
        assert_eq!(quote["manjian_tiers"][1]["need"], "250.00", "500 needs 250 more");
        let count: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM manjian_activities").fetch_one(&app.db.pool).await.unwrap();

        // Added to start in an hour: the buyer sees nothing of it yet.
        let (status, added) = app.post(&operations, "/api/admin/manjian", &draft).await;
        assert_eq!(status, StatusCode::OK, "{added}");
        let activity = added["data"]["id"].as_i64().unwrap();
        assert_eq!((added["data"]["state"].as_str(), added["data"]["goods"][0]["id"].as_i64()), (Some("未开始"), Some(inside)));
        let after: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM manjian_activities").fetch_one(&app.db.pool).await.unwrap();
        assert_eq!(after, count + 1, "the preview saved nothing");
        let demo = app.demo().await;
        sqlx::query("DELETE FROM cart_items WHERE member_id = (SELECT id FROM members WHERE username = 'demo')")
            .execute(&app.db.pool)
            .await
            .unwrap();
        add_to_cart(&app, &demo, inside, 10, &[]).await;
        add_to_cart(&app, &demo, outside, 4, &[]).await;
        let (_, list) = app.get(&demo, "/api/cart/list").await;
        assert_eq!(list["data"]["quote"]["totals"]["discount"], "0.00", "{list}");
        let (_, page) = app.get(&demo, &format!("/api/goods/activities?goods_id={inside}")).await;
        assert_eq!(page["data"]["manjian"], Value::Null, "{page}");

        // Started now: the cart already holding the goods reaches the tier, as the preview said.
        let started = (now - 60).to_string();
        let mut running = draft.to_vec();
        running[1] = ("starts_at", &started);
        let path = format!("/api/admin/manjian/{activity}");
        let (status, changed) = send_form(&app, &operations, Method::PUT, &path, &running).await;
        assert_eq!((status, changed["data"]["state"].as_str()), (StatusCode::OK, Some("进行中")), "{changed}");
        let (_, list) = app.get(&demo, "/api/cart/list").await;
        let cart = &list["data"]["quote"];
        for total in ["manjian", "discount", "payable"] {
            assert_eq!(cart["totals"][total], quote["totals"][total], "{total}: {list}");
        }
        assert_eq!(list["data"]["activity_data"]["manjians"][0]["title"], "满200减20");
        let (_, page) = app.get(&demo, &format!("/api/goods/activities?goods_id={inside}")).await;
        assert_eq!(page["data"]["manjian"]["id"], activity, "{page}");
        let filtered = |keyword: &'static str| {
            let (app, demo) = (&app, &demo);
            async move {
                let path = format!("/api/goods/list?manjian=1&keyword={}", crate::common::urlencode(keyword));
                let (_, listed) = app.get(demo, &path).await;
                listed["data"]["list"].as_array().unwrap().iter().filter_map(|card| card["id"].as_i64()).collect::<Vec<i64>>()
            }
        };
        assert_eq!(filtered("满减测试颗粒").await, [inside], "the 满减 filter finds the running activity's goods");
        assert_eq!(filtered("满减外测试片").await, Vec::<i64>::new());

        // The order keeps the engine's share of the reduction on the activity's line.
        let ids: Vec<String> = list["data"]["data"].as_array().unwrap().iter().map(|line| line["id"].to_string()).collect();
        let address = address_of(&app, "demo").await.to_string();
        let payable = cart["totals"]["payable"].as_str().unwrap().to_owned();
        let (status, placed) =
            post_order(&app, &demo, "manjian-order", &[("ids", &ids.join(",")), ("address_id", &address), ("expected_payable", &payable)])
                .await;
        assert_eq!(status, StatusCode::OK, "{placed}");
        let shares: Vec<(i64, i64)> =
            sqlx::query_as("SELECT goods_id, goods_manjian_amount FROM order_items WHERE order_id = $1 ORDER BY goods_id")
                .bind(placed["data"]["id"].as_i64().unwrap())
                .fetch_all(&app.db.pool)
                .await
                .unwrap();
        assert_eq!(shares, [(inside, 200_000), (outside, 0)]);

        // A second activity wanting the same goods: refused until the move is confirmed.
        let second = [
            ("title", "颗粒满300减40"),
            ("starts_at", started.as_str()),
            ("ends_at", much_later.as_str()),
            ("tiers", "300:40"),
            ("goods", inside_text.as_str()),
        ];
        let (status, refused) = app.post(&operations, "/api/admin/manjian", &second).await;
        assert_eq!(status, StatusCode::CONFLICT);
        assert_eq!(refused["msg"], "1个商品已在其他满减活动中：满减测试颗粒（颗粒满200减20）；确认移入本活动后再保存", "{refused}");
        let (_, preview) = app.post(&operations, "/api/admin/manjian/preview", &second).await;
        assert_eq!(preview["data"]["conflicts"][0]["activity_id"], activity, "{preview}");
        let mut confirmed = second.to_vec();
        confirmed.push(("move_goods", "1"));
        let (status, moved) = app.post(&operations, "/api/admin/manjian", &confirmed).await;
        assert_eq!(status, StatusCode::OK, "{moved}");
        let second_id = moved["data"]["id"].as_i64().unwrap();
        let (_, first) = app.get(&operations, &path).await;
        assert_eq!(first["data"]["goods"], Value::Array(Vec::new()), "the goods left the first");

        // Ended: the buyer's next quote has no reduction; it cannot end or change again.
        add_to_cart(&app, &demo, inside, 20, &[]).await;
        let (_, list) = app.get(&demo, "/api/cart/list").await;
        assert_eq!(list["data"]["quote"]["totals"]["discount"], "40.00", "{list}");
        let end = format!("/api/admin/manjian/{second_id}/end");
        let (status, _) = app.post(&operations, &end, &[]).await;
        assert_eq!(status, StatusCode::OK);
        let (_, list) = app.get(&demo, "/api/cart/list").await;
        assert_eq!(list["data"]["quote"]["totals"]["discount"], "0.00", "{list}");
        assert_eq!(app.post(&operations, &end, &[]).await.0, StatusCode::CONFLICT);
        let (status, _) = send_form(&app, &operations, Method::PUT, &format!("/api/admin/manjian/{second_id}"), &confirmed).await;
        assert_eq!(status, StatusCode::CONFLICT);
        let (_, all) = app.get(&operations, "/api/admin/manjian").await;
        let row = all["data"].as_array().unwrap().iter().find(|row| row["id"] == second_id).cloned().unwrap();
        assert_eq!((row["state"].as_str(), row["tiers"].as_str(), row["goods"].as_i64()), (Some("已结束"), Some("满300减40"), Some(1)));
        // The command line lists them through the same function, and ends one the same way.
        let printed = admin(&app, &["manjian"]).await.unwrap();
        assert!(
            printed.lines().any(|line| line.starts_with(&format!("{second_id}\t已结束\t")) && line.ends_with("颗粒满300减40")),
            "{printed}"
        );
        assert!(admin(&app, &["end-manjian", &second_id.to_string()]).await.is_err(), "an ended activity cannot end again");

        let trail: Vec<String> = sqlx::query_scalar("SELECT action FROM audit_log WHERE target LIKE 'manjian:%' ORDER BY id")
            .fetch_all(&app.db.pool)
            .await
            .unwrap();
        assert_eq!(trail, ["manjian.add", "manjian.change", "manjian.add", "manjian.end"]);
    })
    .await;
}

#[tokio::test]
async fn a_flash_sale_session_is_priced_by_the_engine_limited_per_member_and_never_overlaps() {
    on_both(|app| async move {
        let operations = operator(&app, Role::Operations).await;
        let warehouse = operator(&app, Role::Warehouse).await;
        let goods = stocked_goods(&app, &operations, &warehouse, "秒杀测试胶囊", "25.00").await;
        let now = origin::now();
        let (started, later, much_later) = ((now - 60).to_string(), (now + 3600).to_string(), (now + 7200).to_string());
        let goods_text = goods.to_string();
        let form = |price: &'static str, limit: &'static str, starts: &str, ends: &str| -> Vec<(String, String)> {
            [("goods_id", goods_text.as_str()), ("price", price), ("limit_number", limit), ("starts_at", starts), ("ends_at", ends)]
                .iter()
                .map(|(key, value)| (key.to_string(), value.to_string()))
                .collect()
        };
        let post = |path: String, form: Vec<(String, String)>| {
            let (app, operations) = (&app, &operations);
            async move {
                let pairs: Vec<(&str, &str)> = form.iter().map(|(key, value)| (key.as_str(), value.as_str())).collect();
                app.post(operations, &path, &pairs).await
            }
        };

        // Each wrong field in Chinese; a price not below the goods' own is refused.
        let (status, refused) = post("/api/admin/flash-sales".into(), form("25.00", "0", &later, &started)).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{refused}");
        assert_eq!(refused["data"]["errors"]["limit_number"][0], "每人限购应在1到9999之间");
        assert_eq!(refused["data"]["errors"]["ends_at"][0], "结束时间须晚于开始时间");
        let (_, refused) = post("/api/admin/flash-sales".into(), form("25.00", "3", &started, &later)).await;
        assert_eq!(refused["data"]["errors"]["price"][0], "秒杀价须低于商品价格¥25.00", "{refused}");
        let (_, refused) = post("/api/admin/flash-sales".into(), form("19.999", "3", &started, &later)).await;
        assert_eq!(refused["data"]["errors"]["price"][0], "秒杀价应为金额，最多两位小数", "{refused}");

        // The preview: three at 19.90 against three at 25.00, by the engine.
        let (status, preview) = post("/api/admin/flash-sales/preview".into(), form("19.90", "3", &started, &later)).await;
        assert_eq!(status, StatusCode::OK, "{preview}");
        let lines = &preview["data"]["quote"]["lines"];
        assert_eq!((lines[0]["unit_price"].as_str(), lines[0]["amount"].as_str()), (Some("19.90"), Some("59.70")), "{preview}");
        assert_eq!((lines[0]["price_kind"].as_str(), lines[1]["amount"].as_str()), (Some("flash_sale"), Some("75.00")));

        // Running now: the buyer's goods page offers it, the cart prices it, the limit holds.
        let (status, added) = post("/api/admin/flash-sales".into(), form("19.90", "3", &started, &later)).await;
        assert_eq!(status, StatusCode::OK, "{added}");
        let sale = added["data"]["id"].as_i64().unwrap();
        let demo = app.demo().await;
        let (_, offered) = app.get(&demo, &format!("/api/goods/activities?goods_id={goods}")).await;
        assert_eq!(
            (offered["data"]["flash_sale"]["id"].as_i64(), offered["data"]["flash_sale"]["price"].as_str()),
            (Some(sale), Some("19.90"))
        );
        sqlx::query("DELETE FROM cart_items WHERE member_id = (SELECT id FROM members WHERE username = 'demo')")
            .execute(&app.db.pool)
            .await
            .unwrap();
        add_to_cart(&app, &demo, goods, 3, &[("type", "1".into())]).await;
        assert_eq!(quoted_line(&app, &demo, goods).await["unit_price"], "19.90");
        let (status, refused) = app.post(&demo, "/api/cart", &[("goods_id", goods_text.as_str()), ("number", "1"), ("type", "1")]).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{refused}");
        assert!(refused["msg"].as_str().unwrap().contains("秒杀商品每人限购3盒"), "{refused}");

        // A second session of the goods may not overlap the first; one after it may.
        let (status, refused) = post("/api/admin/flash-sales".into(), form("18.00", "2", &later, &much_later)).await;
        assert_eq!(status, StatusCode::OK, "touching, not overlapping: {refused}");
        let (status, refused) = post("/api/admin/flash-sales".into(), form("18.00", "2", &started, &much_later)).await;
        assert_eq!(status, StatusCode::CONFLICT);
        assert!(refused["msg"].as_str().unwrap().starts_with(&format!("该商品在此时段已有秒杀场次{sale}（")), "{refused}");

        // Repriced while running: the cart has the new price at once. Ended: the line cannot be
        // bought, and the session cannot end or change again.
        let path = format!("/api/admin/flash-sales/{sale}");
        let pairs = form("18.80", "3", &started, &later);
        let pairs: Vec<(&str, &str)> = pairs.iter().map(|(key, value)| (key.as_str(), value.as_str())).collect();
        let (status, _) = send_form(&app, &operations, Method::PUT, &path, &pairs).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(quoted_line(&app, &demo, goods).await["unit_price"], "18.80");
        let (status, _) = app.post(&operations, &format!("{path}/end"), &[]).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(quoted_line(&app, &demo, goods).await["sellable"], false);
        assert_eq!(app.post(&operations, &format!("{path}/end"), &[]).await.0, StatusCode::CONFLICT);
        assert_eq!(send_form(&app, &operations, Method::PUT, &path, &pairs).await.0, StatusCode::CONFLICT);
        let (_, listed) = app.get(&operations, &format!("/api/admin/flash-sales?goods={goods}")).await;
        let states: Vec<(i64, &str, &str)> = listed["data"]
            .as_array()
            .unwrap()
            .iter()
            .map(|row| (row["id"].as_i64().unwrap(), row["state"].as_str().unwrap(), row["price"].as_str().unwrap()))
            .collect();
        assert_eq!(states, [(sale + 1, "未开始", "18.00"), (sale, "已结束", "18.80")], "{listed}");
        // The command line lists the sessions and ends the coming one, as the console would.
        let printed = admin(&app, &["flash-sales"]).await.unwrap();
        assert!(printed.contains(&format!("{sale}\t已结束\tgoods {goods} 秒杀测试胶囊\t¥18.80 (own ¥25.00)\tlimit 3")), "{printed}");
        let ended = admin(&app, &["end-flash-sale", &(sale + 1).to_string()]).await.unwrap();
        assert_eq!(ended, format!("ended 秒杀 session {}\n", sale + 1));
        let trail: Vec<String> = sqlx::query_scalar("SELECT action FROM audit_log WHERE target LIKE 'flash:%' ORDER BY id")
            .fetch_all(&app.db.pool)
            .await
            .unwrap();
        assert_eq!(trail, ["flash.add", "flash.add", "flash.change", "flash.end", "flash.end"]);
    })
    .await;
}

#[tokio::test]
async fn orders_placed_while_operations_reprices_each_hold_one_price_and_a_buyer_whose_price_changed_is_told() {
    on_both(|app| async move {
        let operations = operator(&app, Role::Operations).await;
        let warehouse = operator(&app, Role::Warehouse).await;
        let goods = stocked_goods(&app, &operations, &warehouse, "调价并发测试片", "20.00").await;
        let demo = app.demo().await;
        let address = address_of(&app, "demo").await.to_string();
        let path = format!("/api/admin/goods/{goods}");
        let demo_id = "(SELECT id FROM members WHERE username = 'demo')";
        let empty_cart = || async { sqlx::query(sqlx::AssertSqlSafe(format!("DELETE FROM cart_items WHERE member_id = {demo_id}"))).execute(&app.db.pool).await.unwrap() };

        // The buyer's cart says 40.00; the price changes before the order: refused, and told.
        empty_cart().await;
        let line = add_to_cart(&app, &demo, goods, 2, &[]).await.to_string();
        let (_, list) = app.get(&demo, "/api/cart/list").await;
        let seen = list["data"]["quote"]["totals"]["payable"].as_str().unwrap().to_owned();
        assert_eq!(seen, "40.00");
        send_form(&app, &operations, Method::PUT, &path, &[("price", "21.00")]).await;
        let (status, refused) = post_order(&app, &demo, "reprice-told", &[("ids", &line), ("address_id", &address), ("expected_payable", &seen)]).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{refused}");
        assert_eq!(refused["data"]["errors"]["expected_payable"][0], "商品价格已变动，请刷新购物车后重试", "{refused}");
        let orders: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM order_items WHERE goods_id = $1").bind(goods).fetch_one(&app.db.pool).await.unwrap();
        assert_eq!(orders, 0, "nothing was ordered at a price the buyer did not see");

        // Orders and price changes at once: each order is placed at the price the buyer saw, in
        // one price for its line, or refused as above; never charged otherwise.
        let prices = ["20.00", "21.00", "22.00", "23.00"];
        let reprice = async {
            for round in 0..24 {
                let (status, _) = send_form(&app, &operations, Method::PUT, &path, &[("price", prices[round % prices.len()])]).await;
                assert_eq!(status, StatusCode::OK);
            }
        };
        let order = async {
            let mut outcomes = Vec::new();
            for round in 0..12 {
                empty_cart().await;
                let line = add_to_cart(&app, &demo, goods, 2, &[]).await.to_string();
                let (_, list) = app.get(&demo, "/api/cart/list").await;
                let seen = list["data"]["quote"]["totals"]["payable"].as_str().unwrap().to_owned();
                let key = format!("reprice-{round}");
                let (status, placed) =
                    post_order(&app, &demo, &key, &[("ids", &line), ("address_id", &address), ("expected_payable", &seen)]).await;
                outcomes.push((status, placed, seen));
            }
            outcomes
        };
        let ((), outcomes) = tokio::join!(reprice, order);
        let mut placed = 0;
        for (status, body, seen) in outcomes {
            match status {
                StatusCode::OK => {
                    placed += 1;
                    let order = body["data"]["id"].as_i64().unwrap();
                    let (payable, price, number, amount): (i64, i64, i64, i64) = sqlx::query_as(
                        "SELECT o.payable, i.price, i.number, i.amount FROM orders o JOIN order_items i ON i.order_id = o.id WHERE o.id = $1",
                    )
                    .bind(order)
                    .fetch_one(&app.db.pool)
                    .await
                    .unwrap();
                    assert_eq!(origin::money::text(payable), seen, "the order charges what the buyer saw");
                    assert!([200_000, 210_000, 220_000, 230_000].contains(&price), "one of the prices set: {price}");
                    assert_eq!((number, amount), (2, price * 2), "one price for the whole line");
                }
                StatusCode::UNPROCESSABLE_ENTITY => {
                    assert_eq!(body["data"]["errors"]["expected_payable"][0], "商品价格已变动，请刷新购物车后重试", "{body}");
                }
                other => panic!("{other}: {body}"),
            }
        }
        assert!(placed > 0, "some orders were placed between the changes");
    })
    .await;
}

#[tokio::test]
async fn coupon_templates_are_kept_previewed_by_the_engine_granted_to_a_group_and_keep_their_value_once_held() {
    on_both(|app| async move {
        let operations = operator(&app, Role::Operations).await;
        let warehouse = operator(&app, Role::Warehouse).await;
        let path = "/api/admin/coupon-templates";

        // Each wrong field on its own, in Chinese.
        let (status, refused) = app
            .post(&operations, path, &[("template", "coupon"), ("title", "满300减300"), ("kind", "1"), ("amount", "300"), ("min_amount", "300"), ("days", "0")])
            .await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{refused}");
        assert_eq!(refused["data"]["errors"]["amount"][0], "面额须小于使用门槛");
        assert_eq!(refused["data"]["errors"]["days"][0], "有效天数应在1到365之间");
        let (_, refused) = app.post(&operations, path, &[("template", "coupon"), ("title", "折扣"), ("kind", "2"), ("rate", "1.2"), ("days", "30")]).await;
        assert_eq!(refused["data"]["errors"]["rate"][0], "折扣应大于0且小于1，如 0.95", "{refused}");
        let reduce = [("template", "coupon"), ("title", "满300减15"), ("kind", "1"), ("scope", "0"), ("amount", "15"), ("min_amount", "300"), ("days", "30"), ("centre_stock", "100"), ("per_member", "1")];
        assert_eq!(app.post(&warehouse, path, &reduce).await.0, StatusCode::FORBIDDEN);

        // The preview: just below the threshold it is not usable, at it and above it takes 15 off.
        let (status, preview) = app.post(&operations, &format!("{path}/preview"), &reduce).await;
        assert_eq!(status, StatusCode::OK, "{preview}");
        let rows = preview["data"].as_array().unwrap();
        let seen: Vec<(&str, bool, &str, &str)> = rows
            .iter()
            .map(|row| (row["goods"].as_str().unwrap(), row["usable"].as_bool().unwrap(), row["value"].as_str().unwrap(), row["need"].as_str().unwrap()))
            .collect();
        assert_eq!(seen, [("299.99", false, "0.00", "0.01"), ("300.00", true, "15.00", "0.00"), ("600.00", true, "15.00", "0.00")]);
        let due = |row: &Value| row["due"].as_str().unwrap().parse::<f64>().unwrap();
        assert!((due(&rows[2]) - due(&rows[1]) - 300.0).abs() < 1e-9, "{preview}");
        let discount = [("template", "coupon"), ("title", "饮片9.5折"), ("kind", "2"), ("scope", "2"), ("rate", "0.95"), ("max_reduce", "50"), ("days", "30"), ("amounts", "600,2000")];
        let (_, preview) = app.post(&operations, &format!("{path}/preview"), &discount).await;
        assert_eq!((preview["data"][0]["value"].as_str(), preview["data"][1]["value"].as_str()), (Some("30.00"), Some("50.00")), "{preview}");

        // Saved, listed as a buyer reads it, and granted to the demo member's buyer type.
        let (status, added) = app.post(&operations, path, &reduce).await;
        assert_eq!(status, StatusCode::OK, "{added}");
        let coupon = added["data"]["id"].as_i64().unwrap();
        let (status, _) = app.post(&operations, path, &discount[..7]).await;
        assert_eq!(status, StatusCode::OK);
        let (_, listed) = app.get(&operations, path).await;
        let rules: Vec<(&str, &str, &str)> = listed["data"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|row| row["title"] == "满300减15" || row["title"] == "饮片9.5折")
            .map(|row| (row["kind_name"].as_str().unwrap(), row["scope_name"].as_str().unwrap(), row["rule"].as_str().unwrap()))
            .collect();
        assert_eq!(rules, [("折扣券", "中药饮片", "无门槛9.5折，最多减50"), ("满减券", "全场通用", "满300减15")]);
        let buyer_type: i64 = sqlx::query_scalar("SELECT buyer_type FROM members WHERE username = 'demo'").fetch_one(&app.db.pool).await.unwrap();
        let group = [("group", "buyer_type"), ("buyer_type", &buyer_type.to_string()), ("count", "2"), ("reason", "老客户回馈")];
        let grant = format!("{path}/coupon/{coupon}/grant");
        let (status, _) = app.post(&warehouse, &grant, &group).await;
        assert_eq!(status, StatusCode::FORBIDDEN);
        let (_, refused) = app.post(&operations, &grant, &[("group", "approved"), ("count", "1"), ("reason", " ")]).await;
        assert_eq!(refused["data"]["errors"]["reason"][0], "请填写发放原因");
        let (status, granted) = app.post(&operations, &grant, &group).await;
        assert_eq!(status, StatusCode::OK, "{granted}");
        let members: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM members WHERE is_passed = 1 AND buyer_type = $1")
            .bind(buyer_type)
            .fetch_one(&app.db.pool)
            .await
            .unwrap();
        assert_eq!(granted["data"]["members"], members);
        let held: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM member_coupons m JOIN members u ON u.id = m.member_id WHERE u.username = 'demo' AND m.coupon_id = $1",
        )
        .bind(coupon)
        .fetch_one(&app.db.pool)
        .await
        .unwrap();
        assert_eq!(held, 2);

        // Held, it keeps its value; its title and days may change.
        let change = format!("{path}/coupon/{coupon}");
        let mut more = reduce.to_vec();
        more[4] = ("amount", "20");
        let (status, refused) = send_form(&app, &operations, Method::PUT, &change, &more).await;
        assert_eq!(status, StatusCode::CONFLICT);
        assert_eq!(refused["msg"], format!("已发放{}张，不能修改面额、门槛和适用范围；请新建优惠券", members * 2));
        let mut renamed = reduce.to_vec();
        renamed[1] = ("title", "满300减15（老客户）");
        renamed[6] = ("days", "60");
        let (status, _) = send_form(&app, &operations, Method::PUT, &change, &renamed).await;
        assert_eq!(status, StatusCode::OK);

        // A cash voucher: 无门槛减10 takes 10 off 50.
        let voucher = [("template", "voucher"), ("title", "无门槛10元"), ("amount", "10"), ("days", "15"), ("amounts", "50")];
        let (_, preview) = app.post(&operations, &format!("{path}/preview"), &voucher).await;
        assert_eq!((preview["data"][0]["usable"].as_bool(), preview["data"][0]["value"].as_str()), (Some(true), Some("10.00")), "{preview}");
        let (status, _) = app.post(&operations, path, &voucher[..4]).await;
        assert_eq!(status, StatusCode::OK);

        let trail: Vec<String> = sqlx::query_scalar(
            "SELECT action FROM audit_log WHERE action LIKE 'coupon.%' OR action LIKE 'voucher.%' OR action = 'grant.coupon_group' ORDER BY id",
        )
        .fetch_all(&app.db.pool)
        .await
        .unwrap();
        assert_eq!(trail, ["coupon.add", "coupon.add", "grant.coupon_group", "coupon.change", "voucher.add"]);
    })
    .await;
}

#[tokio::test]
async fn a_combination_set_is_priced_below_its_goods_previewed_by_the_engine_and_its_cart_lines_follow_it() {
    on_both(|app| async move {
        let operations = operator(&app, Role::Operations).await;
        let warehouse = operator(&app, Role::Warehouse).await;
        let first = stocked_goods(&app, &operations, &warehouse, "组合测试甲", "12.00").await;
        let second = stocked_goods(&app, &operations, &warehouse, "组合测试乙", "30.00").await;
        let path = "/api/admin/combinations";
        let items = format!("{first}:2,{second}:1");

        let (status, refused) =
            app.post(&operations, path, &[("name", " "), ("price", "10"), ("stock", "5"), ("items", &format!("{first}:1"))]).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{refused}");
        assert_eq!(refused["data"]["errors"]["name"][0], "请填写组合名称");
        assert_eq!(refused["data"]["errors"]["items"][0], "组合至少包含2个商品");
        let (_, refused) = app
            .post(&operations, path, &[("name", "组合"), ("price", "10"), ("stock", "5"), ("items", &format!("{first}:1,{first}:2"))])
            .await;
        assert_eq!(refused["data"]["errors"]["items"][0], format!("商品{first}重复"), "{refused}");
        let (_, refused) = app.post(&operations, path, &[("name", "组合"), ("price", "54"), ("stock", "5"), ("items", &items)]).await;
        assert_eq!(refused["data"]["errors"]["price"][0], "组合价须低于单买合计¥54.00", "{refused}");
        let set = [("name", "甲乙组合装"), ("price", "49.90"), ("stock", "5"), ("items", items.as_str())];
        assert_eq!(app.post(&warehouse, path, &set).await.0, StatusCode::FORBIDDEN);

        let (status, preview) = app.post(&operations, &format!("{path}/preview"), &set).await;
        assert_eq!(status, StatusCode::OK, "{preview}");
        assert_eq!((preview["data"]["set"].as_str(), preview["data"]["apart"].as_str()), (Some("49.90"), Some("54.00")), "{preview}");
        assert_eq!(preview["data"]["quote"]["lines"][0]["price_kind"], "combination");

        // Saved: the buyer puts the set in the cart at its price; a new price and then no stock
        // reach the cart at once.
        let (status, added) = app.post(&operations, path, &set).await;
        assert_eq!(status, StatusCode::OK, "{added}");
        let id = added["data"]["id"].as_i64().unwrap();
        let demo = app.demo().await;
        sqlx::query("DELETE FROM cart_items WHERE member_id = (SELECT id FROM members WHERE username = 'demo')")
            .execute(&app.db.pool)
            .await
            .unwrap();
        add_to_cart(&app, &demo, first, 1, &[("type", "3".into()), ("combination_id", id.to_string())]).await;
        let line = quoted_line(&app, &demo, first).await;
        assert_eq!((line["unit_price"].as_str(), line["sellable"].as_bool()), (Some("49.90"), Some(true)), "{line}");
        let change = format!("{path}/{id}");
        let mut cheaper = set.to_vec();
        cheaper[1] = ("price", "45");
        assert_eq!(send_form(&app, &operations, Method::PUT, &change, &cheaper).await.0, StatusCode::OK);
        assert_eq!(quoted_line(&app, &demo, first).await["unit_price"], "45.00");
        cheaper[2] = ("stock", "0");
        assert_eq!(send_form(&app, &operations, Method::PUT, &change, &cheaper).await.0, StatusCode::OK);
        assert_eq!(quoted_line(&app, &demo, first).await["sellable"], false, "a set out of stock cannot be bought");

        let (_, listed) = app.get(&operations, path).await;
        let row = listed["data"].as_array().unwrap().iter().find(|row| row["id"] == id).cloned().unwrap();
        assert_eq!((row["price"].as_str(), row["apart"].as_str(), row["stock"].as_i64()), (Some("45.00"), Some("54.00"), Some(0)), "{row}");
        assert_eq!((row["items"][0]["goods_id"].as_i64(), row["items"][0]["quantity"].as_i64()), (Some(first), Some(2)));
        let trail: Vec<String> = sqlx::query_scalar("SELECT action FROM audit_log WHERE target = $1 ORDER BY id")
            .bind(format!("combination:{id}"))
            .fetch_all(&app.db.pool)
            .await
            .unwrap();
        assert_eq!(trail, ["combination.add", "combination.change", "combination.change"]);
    })
    .await;
}

#[tokio::test]
async fn a_cash_back_activity_is_set_up_in_the_console_previewed_by_the_engine_and_pays_the_orders_placed_under_it() {
    on_both(|app| async move {
        let operations = operator(&app, Role::Operations).await;
        let warehouse = operator(&app, Role::Warehouse).await;
        let demo = app.demo().await;
        let path = "/api/admin/cashback";
        let now = origin::now();
        let (start, end) = ((now - 60).to_string(), (now + 7 * 86_400).to_string());
        let form = |title: &'static str, tiers: &'static str| {
            vec![("title", title.to_owned()), ("starts_at", start.clone()), ("ends_at", end.clone()), ("tiers", tiers.to_owned())]
        };

        let refused_form = form(" ", "1000:20,800:30");
        let (status, refused) = app.post(&operations, path, &as_pairs(&refused_form)).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{refused}");
        assert_eq!(refused["data"]["errors"]["title"][0], "请填写活动名称");
        assert_eq!(refused["data"]["errors"]["tiers"][0], "第2档门槛须高于第1档");
        let (_, refused) = app.post(&operations, path, &as_pairs(&form("返现", "1000-20"))).await;
        assert_eq!(refused["data"]["errors"]["tiers"][0], "第1档应写作 满额:返现，如 1000:20", "{refused}");

        // The preview: what orders of these goods amounts get back, by the engine.
        let mut trial = form("月末满额返现", "1000:20,3000:80");
        trial.push(("sample", "999.99,1000,2999.99,3200".into()));
        let (status, preview) = app.post(&operations, &format!("{path}/preview"), &as_pairs(&trial)).await;
        assert_eq!(status, StatusCode::OK, "{preview}");
        let backs: Vec<(&str, &str)> =
            preview["data"].as_array().unwrap().iter().map(|row| (row["back"].as_str().unwrap(), row["tier"].as_str().unwrap())).collect();
        assert_eq!(backs, [("0.00", ""), ("20.00", "满1000返20"), ("20.00", "满1000返20"), ("80.00", "满3000返80")]);
        let (_, preview) = app.post(&operations, &format!("{path}/preview"), &as_pairs(&form("月末", "1000:20"))).await;
        let amounts: Vec<&str> = preview["data"].as_array().unwrap().iter().map(|row| row["amount"].as_str().unwrap()).collect();
        assert_eq!(amounts, ["999.99", "1000.00"], "each threshold and a cent below it");

        let activity = form("月末满额返现", "1:0.5,3000:80");
        assert_eq!(app.post(&warehouse, path, &as_pairs(&activity)).await.0, StatusCode::FORBIDDEN);
        let (status, added) = app.post(&operations, path, &as_pairs(&activity)).await;
        assert_eq!(status, StatusCode::OK, "{added}");
        let id = added["data"]["id"].as_i64().unwrap();
        let (_, page) = app.get(&demo, "/api/activity/cashback").await;
        assert_eq!(page["data"]["activity"]["id"].as_i64(), Some(id), "{page}");
        assert_eq!(page["data"]["activity"]["tiers"][0]["back"], "0.50");

        // One activity at a time; a started one keeps its tiers and start.
        let (status, overlap) = app.post(&operations, path, &as_pairs(&form("另一个返现", "500:5"))).await;
        assert_eq!(status, StatusCode::CONFLICT, "{overlap}");
        assert_eq!(overlap["msg"], format!("与返现活动{id}「月末满额返现」时间重叠：同一时间只能有一个返现活动"));
        let change = format!("{path}/{id}");
        let (status, refused) = send_form(&app, &operations, Method::PUT, &change, &as_pairs(&form("月末满额返现", "1:1.5,3000:80"))).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{refused}");
        assert_eq!(refused["data"]["errors"]["tiers"][0], "活动已开始，返现档位不能修改");
        let (status, _) = send_form(&app, &operations, Method::PUT, &change, &as_pairs(&form("月底满额返现", "1:0.5,3000:80"))).await;
        assert_eq!(status, StatusCode::OK);

        // An order placed under it is paid its tier when it completes.
        let (order, order_no) = paid_order(&app, "cashback-console").await;
        let (status, _) =
            app.post(&warehouse, &format!("/api/admin/orders/{order_no}/ship"), &[("carrier", "顺丰速运"), ("tracking", "SF7")]).await;
        assert_eq!(status, StatusCode::OK);
        let before = balance(&app).await;
        assert_eq!(app.post(&demo, &format!("/api/order/{order}/receive"), &[]).await.0, StatusCode::OK);
        assert_eq!(balance(&app).await - before, 5_000, "满1返0.5 credited on completion");

        let (_, listed) = app.get(&operations, path).await;
        let row = listed["data"].as_array().unwrap().iter().find(|row| row["id"] == id).cloned().unwrap();
        assert_eq!(
            (row["title"].as_str(), row["state"].as_str(), row["orders"].as_i64()),
            (Some("月底满额返现"), Some("进行中"), Some(1)),
            "{row}"
        );
        assert_eq!((row["paid_back"].as_str(), row["tiers"][1]["title"].as_str()), (Some("0.50"), Some("满3000返80")));

        // Ended: the buyer's page has no activity, and it can no longer change.
        let (status, _) = app.post(&operations, &format!("{change}/end"), &[]).await;
        assert_eq!(status, StatusCode::OK);
        let (_, page) = app.get(&demo, "/api/activity/cashback").await;
        assert!(page["data"]["activity"].is_null(), "{page}");
        assert_eq!(app.post(&operations, &format!("{change}/end"), &[]).await.0, StatusCode::CONFLICT);
        let trail: Vec<String> = sqlx::query_scalar("SELECT action FROM audit_log WHERE target = $1 ORDER BY id")
            .bind(format!("cashback:{id}"))
            .fetch_all(&app.db.pool)
            .await
            .unwrap();
        assert_eq!(trail, ["cashback.add", "cashback.change", "cashback.end"]);
    })
    .await;
}

#[tokio::test]
async fn the_daily_specials_are_written_whole_in_the_console_and_buyers_see_the_new_list_and_its_total_at_once() {
    on_both(|app| async move {
        let operations = operator(&app, Role::Operations).await;
        let warehouse = operator(&app, Role::Warehouse).await;
        let path = "/api/admin/specials";
        let ids =
            |value: &Value, key: &str| -> Vec<i64> { value.as_array().unwrap().iter().map(|row| row[key].as_i64().unwrap()).collect() };
        let (_, listed) = app.get(&operations, path).await;
        let before = ids(&listed["data"], "goods_id");
        assert!(before.len() >= 2, "the seed has daily specials: {listed}");
        let total = |app: &App| {
            let app = app.clone();
            async move {
                let (_, page) = app.get(&app.client(), "/api/goods/list?everyday=1&page=1").await;
                page["data"]["total"].as_i64().unwrap()
            }
        };
        assert_eq!(total(&app).await, before.len() as i64);

        let joining: i64 = sqlx::query_scalar(
            "SELECT id FROM goods WHERE is_buy = 1 AND id NOT IN (SELECT goods_id FROM everyday_specials) ORDER BY id DESC LIMIT 1",
        )
        .fetch_one(&app.db.pool)
        .await
        .unwrap();
        let twice = format!("{joining},{}", before[0]);
        let (status, refused) = send_form(&app, &operations, Method::PUT, path, &[("goods", &format!("{twice},{joining}"))]).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{refused}");
        assert_eq!(refused["data"]["errors"]["goods"][0], format!("商品{joining}重复"));
        let (_, refused) = send_form(&app, &operations, Method::PUT, path, &[("goods", "999999999")]).await;
        assert_eq!(refused["data"]["errors"]["goods"][0], "商品不存在：999999999", "{refused}");

        // The new goods first, the old ones after it in reverse, the last one out.
        let mut wanted = vec![joining];
        wanted.extend(before.iter().rev().skip(1));
        let text = wanted.iter().map(i64::to_string).collect::<Vec<_>>().join(",");
        assert_eq!(send_form(&app, &warehouse, Method::PUT, path, &[("goods", &text)]).await.0, StatusCode::FORBIDDEN);
        let (status, saved) = send_form(&app, &operations, Method::PUT, path, &[("goods", &text)]).await;
        assert_eq!(status, StatusCode::OK, "{saved}");
        assert_eq!(saved["data"]["count"].as_u64(), Some(wanted.len() as u64));
        let (_, listed) = app.get(&operations, path).await;
        assert_eq!(ids(&listed["data"], "goods_id"), wanted);
        let (_, shown) = app.get(&app.client(), "/api/activity/everyday_price").await;
        assert_eq!(ids(&shown["data"], "id"), wanted, "buyers see the new order at once");
        assert_eq!(total(&app).await, wanted.len() as i64, "and the list's total");

        // Emptied, and the trail holds each list before and after.
        let (status, _) = send_form(&app, &operations, Method::PUT, path, &[("goods", "")]).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(total(&app).await, 0);
        let trail: Vec<String> = sqlx::query_scalar("SELECT after FROM audit_log WHERE action = 'specials.change' ORDER BY id")
            .fetch_all(&app.db.pool)
            .await
            .unwrap();
        let lists: Vec<Value> = trail.iter().map(|after| serde_json::from_str::<Value>(after).unwrap()["goods"].clone()).collect();
        assert_eq!(lists, [serde_json::json!(wanted), serde_json::json!([])]);
    })
    .await;
}

#[tokio::test]
async fn points_mall_items_are_kept_in_the_console_and_members_redeem_them_as_written() {
    on_both(|app| async move {
        let operations = operator(&app, Role::Operations).await;
        let warehouse = operator(&app, Role::Warehouse).await;
        let demo = app.demo().await;
        let path = "/api/admin/points-goods";
        let name = "测试红包5元";

        let (status, refused) = app.post(&operations, path, &[("name", name), ("kind", "3"), ("points", "0"), ("stock", "5")]).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{refused}");
        assert_eq!(refused["data"]["errors"]["red_packet"][0], "红包金额须大于0");
        assert_eq!(refused["data"]["errors"]["points"][0], "兑换积分应在1到10000000之间");
        let (_, refused) = app
            .post(&operations, path, &[("name", "实物"), ("kind", "1"), ("goods_id", "999999999"), ("points", "10"), ("stock", "5")])
            .await;
        assert_eq!(refused["data"]["errors"]["goods_id"][0], "商品不存在", "{refused}");
        let (_, refused) =
            app.post(&operations, path, &[("name", name), ("kind", "3"), ("red_packet", "5.001"), ("points", "10"), ("stock", "5")]).await;
        assert_eq!(refused["data"]["errors"]["red_packet"][0], "红包金额应为金额，最多两位小数", "{refused}");

        let item =
            [("name", name), ("kind", "3"), ("red_packet", "5"), ("points", "100"), ("stock", "3"), ("per_member", "2"), ("sort", "0")];
        assert_eq!(app.post(&warehouse, path, &item).await.0, StatusCode::FORBIDDEN);
        let (status, added) = app.post(&operations, path, &item).await;
        assert_eq!(status, StatusCode::OK, "{added}");
        let id = added["data"]["id"].as_i64().unwrap();
        let (_, mall) = app.get(&demo, "/api/points_mall?kind=3").await;
        let shown = mall["data"]["list"].as_array().unwrap().iter().find(|row| row["id"] == id).cloned().unwrap_or_default();
        assert_eq!(
            (shown["points"].as_i64(), shown["red_packet"].as_str(), shown["per_member"].as_i64()),
            (Some(100), Some("5.00"), Some(2)),
            "{mall}"
        );

        // Redeemed as written: 100 points, 5.00 of red packets, one of the stock.
        let (status, redeemed) = app.post(&demo, &format!("/api/points_mall/{id}/redeem"), &[]).await;
        assert_eq!(status, StatusCode::OK, "{redeemed}");
        assert_eq!(redeemed["data"]["points"].as_i64(), Some(100));
        let (_, listed) = app.get(&operations, path).await;
        let row = listed["data"].as_array().unwrap().iter().find(|row| row["id"] == id).cloned().unwrap();
        assert_eq!(
            (row["stock"].as_i64(), row["redeemed"].as_i64(), row["red_packet"].as_str()),
            (Some(2), Some(1), Some("5.00")),
            "{row}"
        );

        // Once redeemed it keeps its kind; more points and off sale, members no longer see it.
        let change = format!("{path}/{id}");
        let mut changed = item.to_vec();
        changed[1] = ("kind", "2");
        let (status, refused) = send_form(&app, &operations, Method::PUT, &change, &changed).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{refused}");
        assert_eq!(refused["data"]["errors"]["kind"][0], "已有兑换记录，不能修改商品类型");
        let mut changed = item.to_vec();
        changed[3] = ("points", "150");
        assert_eq!(send_form(&app, &operations, Method::PUT, &change, &changed).await.0, StatusCode::OK);
        let (_, mall) = app.get(&demo, &format!("/api/points_mall/{id}")).await;
        assert_eq!(mall["data"]["points"].as_i64(), Some(150), "{mall}");
        changed.push(("is_on", "0"));
        assert_eq!(send_form(&app, &operations, Method::PUT, &change, &changed).await.0, StatusCode::OK);
        let (_, mall) = app.get(&demo, "/api/points_mall?kind=3").await;
        assert!(mall["data"]["list"].as_array().unwrap().iter().all(|row| row["id"] != id), "{mall}");
        assert_eq!(app.post(&demo, &format!("/api/points_mall/{id}/redeem"), &[]).await.0, StatusCode::NOT_FOUND);

        let trail: Vec<String> = sqlx::query_scalar("SELECT action FROM audit_log WHERE target = $1 ORDER BY id")
            .bind(format!("points_goods:{id}"))
            .fetch_all(&app.db.pool)
            .await
            .unwrap();
        assert_eq!(trail, ["points_goods.add", "points_goods.change", "points_goods.change"]);
    })
    .await;
}

#[tokio::test]
async fn a_lucky_draw_is_set_up_with_its_prizes_and_odds_one_at_a_time_and_drawn_prizes_are_kept() {
    on_both(|app| async move {
        let operations = operator(&app, Role::Operations).await;
        let demo = app.demo().await;
        let path = "/api/admin/draws";
        let now = origin::now();
        let (start, end) = ((now - 60).to_string(), (now + 86_400).to_string());
        let form = |prizes: &str| {
            vec![
                ("title", "测试抽奖".to_owned()),
                ("starts_at", start.clone()),
                ("ends_at", end.clone()),
                ("prizes", prizes.to_owned()),
            ]
        };
        let (_, listed) = app.get(&operations, path).await;
        let seeded = listed["data"].as_array().unwrap().iter().find(|row| row["state"] == "进行中").cloned().unwrap();
        let chances: f64 = seeded["prizes"].as_array().unwrap().iter().map(|prize| prize["chance"].as_str().unwrap().parse::<f64>().unwrap()).sum();
        assert!((chances - 100.0).abs() < 0.05, "the chances of the prizes left come to 100%: {seeded}");

        let (status, refused) = app.post(&operations, path, &as_pairs(&form(r#"[{"name":"10积分","kind":2,"points":10,"weight":1,"stock":5},{"name":"20积分","kind":2,"points":20,"weight":1,"stock":5}]"#))).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{refused}");
        assert_eq!(refused["data"]["errors"]["prizes"][0], "须有且只有一个“谢谢参与”");
        let (_, refused) = app.post(&operations, path, &as_pairs(&form("[{"))).await;
        assert_eq!(refused["data"]["errors"]["prizes"][0], "奖品格式不正确", "{refused}");

        // The preview: a prize of no stock never comes; the others share by weight.
        let trial = r#"[{"name":"谢谢参与","kind":0,"weight":1},{"name":"10积分","kind":2,"points":10,"weight":1,"stock":5},{"name":"5元红包","kind":3,"red_packet":"5","weight":2,"stock":0}]"#;
        let (status, preview) = app.post(&operations, &format!("{path}/preview"), &as_pairs(&form(trial))).await;
        assert_eq!(status, StatusCode::OK, "{preview}");
        let shown: Vec<&str> = preview["data"].as_array().unwrap().iter().map(|prize| prize["chance"].as_str().unwrap()).collect();
        assert_eq!(shown, ["50.00", "50.00", "0.00"]);

        // One at a time: the seeded activity is in the way until it is ended.
        let prizes = r#"[{"name":"谢谢参与","kind":0,"weight":1},{"name":"88积分","kind":2,"points":88,"weight":1000000,"stock":1}]"#;
        let (status, overlap) = app.post(&operations, path, &as_pairs(&form(prizes))).await;
        assert_eq!(status, StatusCode::CONFLICT, "{overlap}");
        assert_eq!(overlap["msg"], format!("与抽奖活动{}「{}」时间重叠：同一时间只能有一个抽奖活动", seeded["id"], seeded["title"].as_str().unwrap()));
        assert_eq!(app.post(&operations, &format!("{path}/{}/end", seeded["id"]), &[]).await.0, StatusCode::OK);
        let (status, added) = app.post(&operations, path, &as_pairs(&form(prizes))).await;
        assert_eq!(status, StatusCode::OK, "{added}");
        let id = added["data"]["id"].as_i64().unwrap();

        // The member draws in it: 88 points, the one there was (a chance of 999,999 in 1,000,000).
        let (_, check) = app.get(&demo, "/api/draw/simple").await;
        assert_eq!(check["data"]["id"].as_i64(), Some(id), "{check}");
        let (status, drawn) = app.post(&demo, "/api/draw", &[("id", &id.to_string())]).await;
        assert_eq!(status, StatusCode::OK, "{drawn}");
        assert_eq!(drawn["data"]["name"], "88积分");
        let (_, listed) = app.get(&operations, path).await;
        let row = listed["data"].as_array().unwrap().iter().find(|row| row["id"] == id).cloned().unwrap();
        assert_eq!(row["draws"].as_i64(), Some(1));
        let prize = &row["prizes"][1];
        assert_eq!((prize["handed"].as_i64(), prize["chance"].as_str(), row["prizes"][0]["chance"].as_str()), (Some(1), Some("0.00"), Some("100.00")), "{row}");

        // What was drawn stays what it was.
        let prize_id = prize["id"].as_i64().unwrap();
        let nothing_id = row["prizes"][0]["id"].as_i64().unwrap();
        let change = format!("{path}/{id}");
        let nothing = format!(r#"{{"id":{nothing_id},"name":"谢谢参与","kind":0,"weight":1}}"#);
        let written = |drawn_prize: &str| form(&format!("[{nothing},{drawn_prize}]"));
        let (status, refused) = send_form(&app, &operations, Method::PUT, &change, &as_pairs(&written(r#"{"name":"1元红包","kind":3,"red_packet":"1","weight":1,"stock":5}"#))).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{refused}");
        assert_eq!(refused["data"]["errors"]["prizes"][0], "奖品“88积分”已有人抽中，不能删除");
        let (_, refused) = send_form(&app, &operations, Method::PUT, &change, &as_pairs(&written(&format!(r#"{{"id":{prize_id},"name":"88积分","kind":2,"points":88,"weight":1,"stock":0}}"#)))).await;
        assert_eq!(refused["data"]["errors"]["prizes"][0], "第2个奖品的数量不能少于已发出的1个", "{refused}");
        let (_, refused) = send_form(&app, &operations, Method::PUT, &change, &as_pairs(&written(&format!(r#"{{"id":{prize_id},"name":"88积分","kind":3,"red_packet":"1","weight":1,"stock":5}}"#)))).await;
        assert_eq!(refused["data"]["errors"]["prizes"][0], "第2个奖品已有人抽中，不能修改类型", "{refused}");
        let more = written(&format!(r#"{{"id":{prize_id},"name":"88积分","kind":2,"points":88,"weight":3,"stock":5}}"#));
        let (status, saved) = send_form(&app, &operations, Method::PUT, &change, &as_pairs(&more)).await;
        assert_eq!(status, StatusCode::OK, "{saved}");
        let (_, listed) = app.get(&operations, path).await;
        let row = listed["data"].as_array().unwrap().iter().find(|row| row["id"] == id).cloned().unwrap();
        assert_eq!((row["prizes"][1]["id"].as_i64(), row["prizes"][1]["chance"].as_str()), (Some(prize_id), Some("75.00")), "{row}");

        assert_eq!(app.post(&operations, &format!("{change}/end"), &[]).await.0, StatusCode::OK);
        let (_, check) = app.get(&demo, "/api/draw/simple").await;
        assert!(check["data"]["id"].is_null(), "{check}");
        let trail: Vec<String> = sqlx::query_scalar("SELECT action FROM audit_log WHERE target = $1 ORDER BY id")
            .bind(format!("draw:{id}"))
            .fetch_all(&app.db.pool)
            .await
            .unwrap();
        assert_eq!(trail, ["draw.add", "draw.change", "draw.end"]);
    })
    .await;
}

#[tokio::test]
async fn activity_pages_are_made_in_the_console_with_their_sections_and_buyers_see_each_change() {
    on_both(|app| async move {
        let operations = operator(&app, Role::Operations).await;
        let path = "/api/admin/activities";
        let now = origin::now();
        let goods: Vec<i64> =
            sqlx::query_scalar("SELECT id FROM goods WHERE is_buy = 1 ORDER BY id LIMIT 3").fetch_all(&app.db.pool).await.unwrap();
        let (start, end) = ((now - 60).to_string(), (now + 86_400).to_string());
        let form = |url: &str, template: &str, color: &str, sections: &str| {
            vec![
                ("url", url.to_owned()),
                ("title", "测试活动页".to_owned()),
                ("subtitle", "副标题".to_owned()),
                ("template", template.to_owned()),
                ("color", color.to_owned()),
                ("starts_at", start.clone()),
                ("ends_at", end.clone()),
                ("sections", sections.to_owned()),
            ]
        };
        let twice = format!("感冒用药:{0},{0}", goods[0]);
        let (status, refused) = app.post(&operations, path, &as_pairs(&form("冬季!", "x", "green", &twice))).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{refused}");
        let errors = &refused["data"]["errors"];
        assert_eq!(errors["url"][0], "页面地址只能由字母、数字、-和_组成，最多40个字符");
        assert_eq!(errors["template"][0], "请选择页面模板");
        assert_eq!(errors["color"][0], "颜色应写作 #RRGGBB");
        assert_eq!(errors["sections"][0], format!("第1个栏目中商品{}重复", goods[0]));
        let winter: i64 = sqlx::query_scalar("SELECT id FROM activities WHERE url = 'winter'").fetch_one(&app.db.pool).await.unwrap();
        let sections = format!("感冒用药:{},{}\n儿童用药:{}", goods[0], goods[1], goods[2]);
        let (_, refused) = app.post(&operations, path, &as_pairs(&form("winter", "zqmb", "#c0392b", &sections))).await;
        assert_eq!(refused["data"]["errors"]["url"][0], format!("页面地址已被活动{winter}使用"), "{refused}");

        let (status, added) = app.post(&operations, path, &as_pairs(&form("test-page", "zqmb", "#c0392b", &sections))).await;
        assert_eq!(status, StatusCode::OK, "{added}");
        let id = added["data"]["id"].as_i64().unwrap();
        let shown = |app: &App| {
            let app = app.clone();
            async move {
                let (status, page) = app.get(&app.client(), "/api/activities/test-page").await;
                let sections: Vec<(String, Vec<i64>)> = page["data"]["sections"]
                    .as_array()
                    .map(|sections| {
                        sections
                            .iter()
                            .map(|section| {
                                let goods = section["goods"].as_array().unwrap().iter().map(|card| card["id"].as_i64().unwrap()).collect();
                                (section["title"].as_str().unwrap().to_owned(), goods)
                            })
                            .collect()
                    })
                    .unwrap_or_default();
                (status, page["data"]["template"].as_str().unwrap_or_default().to_owned(), sections)
            }
        };
        assert_eq!(
            shown(&app).await,
            (
                StatusCode::OK,
                "zqmb".to_owned(),
                vec![("感冒用药".to_owned(), vec![goods[0], goods[1]]), ("儿童用药".to_owned(), vec![goods[2]])]
            )
        );

        // Changed: one goods out, a section renamed and moved first; buyers see it on their next read.
        let change = format!("{path}/{id}");
        let sections = format!("儿童专区:{}\n感冒用药:{}", goods[2], goods[1]);
        let (status, saved) =
            send_form(&app, &operations, Method::PUT, &change, &as_pairs(&form("test-page", "hdmb", "#c0392b", &sections))).await;
        assert_eq!(status, StatusCode::OK, "{saved}");
        assert_eq!(
            shown(&app).await,
            (StatusCode::OK, "hdmb".to_owned(), vec![("儿童专区".to_owned(), vec![goods[2]]), ("感冒用药".to_owned(), vec![goods[1]])])
        );
        let (_, listed) = app.get(&operations, path).await;
        let row = listed["data"].as_array().unwrap().iter().find(|row| row["id"] == id).cloned().unwrap();
        assert_eq!((row["state"].as_str(), row["sections"][0]["goods"][0]["id"].as_i64()), (Some("进行中"), Some(goods[2])), "{row}");

        // Ended: the page is gone.
        assert_eq!(app.post(&operations, &format!("{change}/end"), &[]).await.0, StatusCode::OK);
        assert_eq!(shown(&app).await.0, StatusCode::NOT_FOUND);
        let trail: Vec<String> = sqlx::query_scalar("SELECT action FROM audit_log WHERE target = $1 ORDER BY id")
            .bind(format!("activity:{id}"))
            .fetch_all(&app.db.pool)
            .await
            .unwrap();
        assert_eq!(trail, ["activity.add", "activity.change", "activity.end"]);
    })
    .await;
}

/// A form of owned values as the pairs the calls send.
fn as_pairs<'a>(form: &'a [(&'static str, String)]) -> Vec<(&'static str, &'a str)> {
    form.iter().map(|(key, value)| (*key, value.as_str())).collect()
}

/// A workbook of one sheet: `headings`, then `rows`, every cell text.
fn workbook_of(headings: &[&str], rows: &[Vec<String>]) -> Vec<u8> {
    let mut book = rust_xlsxwriter::Workbook::new();
    let sheet = book.add_worksheet();
    for (col, heading) in headings.iter().enumerate() {
        sheet.write_string(0, col as u16, *heading).unwrap();
    }
    for (at, row) in rows.iter().enumerate() {
        for (col, cell) in row.iter().enumerate() {
            if !cell.is_empty() {
                sheet.write_string(at as u32 + 1, col as u16, cell).unwrap();
            }
        }
    }
    book.save_to_buffer().unwrap()
}

/// Posts workbook `book` to the import, a dry run unless `commit`.
async fn import(app: &App, client: &Client, book: &[u8], commit: bool) -> (StatusCode, Value) {
    let (content_type, body) = multipart_files(&[("commit", if commit { "1" } else { "0" })], "file", &[("goods.xlsx", book)]);
    let response = client.post(app.url("/api/admin/goods/import")).header("content-type", content_type).body(body).send().await.unwrap();
    let status = response.status();
    let text = response.text().await.unwrap();
    let body = serde_json::from_str(&text).unwrap_or_else(|_| panic!("the import answered {status} with no envelope: {text:?}"));
    (status, body)
}

#[tokio::test]
async fn ten_thousand_goods_import_all_or_none_with_every_refusal_by_row_and_column_and_export_round_trips() {
    on_both(|app| async move {
        let operations = operator(&app, Role::Operations).await;
        let (_, spec) = app.get(&operations, "/api/admin/goods/fields").await;
        let category = spec["data"]["categories"][0]["id"].as_i64().unwrap().to_string();
        let headings = ["商品名称", "生产厂家", "规格", "单位", "分类", "价格", "阶梯价", "经营范围"];
        let row = |at: usize, price: &str| {
            let cells =
                [&format!("导入测试品{at}"), "导入制药有限公司", &format!("{at}mg*10片"), "盒", &category, price, "10:12.00", "中成药"];
            cells.iter().map(|cell| (*cell).to_owned()).collect::<Vec<String>>()
        };
        let bad = |at: usize| at % 200 == 7;
        let rows: Vec<Vec<String>> = (0..10_000).map(|at| row(at, if bad(at) { "12.5.0" } else { "12.50" })).collect();
        let imported = || async {
            let count: i64 = sqlx::query_scalar("SELECT CAST(COUNT(*) AS BIGINT) FROM goods WHERE sccj = '导入制药有限公司'")
                .fetch_one(&app.db.pool)
                .await
                .unwrap();
            count
        };

        // Fifty bad rows: the commit writes nothing and names each by its row and column.
        let (status, refused) = import(&app, &operations, &workbook_of(&headings, &rows), true).await;
        assert_eq!(status, StatusCode::OK, "{refused}");
        let report = &refused["data"];
        assert_eq!(
            (report["committed"].as_bool(), report["error_count"].as_i64(), report["rows"].as_i64()),
            (Some(false), Some(50), Some(10_000))
        );
        let first = &report["errors"][0];
        assert_eq!(
            (first["row"].as_i64(), first["column"].as_str(), first["message"].as_str()),
            (Some(9), Some("F 价格"), Some("价格应为金额，最多两位小数"))
        );
        let rows_refused: Vec<i64> = report["errors"].as_array().unwrap().iter().filter_map(|error| error["row"].as_i64()).collect();
        assert_eq!(rows_refused, (0..10_000).filter(|at| bad(*at)).map(|at| at as i64 + 2).collect::<Vec<_>>());
        assert_eq!(imported().await, 0, "all or none");

        // Fixed: the dry run says what it will do and changes nothing; the commit adds them all.
        let fixed: Vec<Vec<String>> = (0..10_000).map(|at| row(at, "12.50")).collect();
        let book = workbook_of(&headings, &fixed);
        let (_, dry) = import(&app, &operations, &book, false).await;
        assert_eq!(
            (dry["data"]["committed"].as_bool(), dry["data"]["added"].as_i64(), dry["data"]["error_count"].as_i64()),
            (Some(false), Some(10_000), Some(0))
        );
        assert_eq!(imported().await, 0, "a dry run writes nothing");
        let (status, done) = import(&app, &operations, &book, true).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(
            (done["data"]["committed"].as_bool(), done["data"]["added"].as_i64()),
            (Some(true), Some(10_000)),
            "{}",
            done["data"]["errors"]
        );
        assert_eq!(imported().await, 10_000);
        let (id, scope, price): (i64, i64, i64) =
            sqlx::query_as("SELECT id, scope_class, price FROM goods WHERE name = '导入测试品9999'").fetch_one(&app.db.pool).await.unwrap();
        assert_eq!((scope, price), (3, 125_000), "the choice by its name, the price as stored");
        let steps: Vec<(i64, i64)> =
            sqlx::query_as("SELECT number, price FROM goods_ladders WHERE goods_id = $1").bind(id).fetch_all(&app.db.pool).await.unwrap();
        assert_eq!(steps, [(10, 120_000)]);
        let demo = app.demo().await;
        // The search index takes ten thousand new goods by rebuilding (in the background, a
        // search meanwhile answering from the index before), so this waits for it.
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
        while !found_ids(&app, &demo, "导入测试品9999").await.contains(&id) {
            assert!(std::time::Instant::now() < deadline, "the imported goods are found once the index is rebuilt");
            tokio::time::sleep(std::time::Duration::from_millis(200)).await;
        }

        // Out and in again: the export's sheet, one price changed, is a change of that goods only.
        let response = operations.get(app.url(&format!("/api/admin/goods/export?search={id}"))).send().await.unwrap();
        assert_eq!(response.status(), StatusCode::OK);
        let exported = sheet_rows(&response.bytes().await.unwrap(), "商品");
        assert_eq!((exported[0][0].as_str(), exported[0][1].as_str()), ("编号", "商品名称"));
        let mine = exported.iter().find(|cells| cells[0] == id.to_string()).unwrap().clone();
        let price_column = exported[0].iter().position(|heading| heading == "价格").unwrap();
        let mut changed = mine.clone();
        changed[price_column] = "13.00".to_owned();
        let headings: Vec<&str> = exported[0].iter().map(String::as_str).collect();
        let (_, dry) = import(&app, &operations, &workbook_of(&headings, &[changed.clone()]), false).await;
        let plan = &dry["data"]["plans"][0];
        assert_eq!((plan["action"].as_str(), plan["id"].as_i64()), (Some("change"), Some(id)), "{dry}");
        assert_eq!(plan["changes"].as_array().unwrap().len(), 1, "only the price: {plan}");
        assert_eq!((plan["changes"][0]["before"].as_str(), plan["changes"][0]["after"].as_str()), (Some("12.50"), Some("13.00")));
        let (_, same) = import(&app, &operations, &workbook_of(&headings, &[mine]), true).await;
        assert_eq!((same["data"]["unchanged"].as_i64(), same["data"]["committed"].as_bool()), (Some(1), Some(false)), "nothing to write");
        let (_, done) = import(&app, &operations, &workbook_of(&headings, &[changed]), true).await;
        assert_eq!(done["data"]["changed"], 1);
        let history: i64 = sqlx::query_scalar("SELECT CAST(COUNT(*) AS BIGINT) FROM goods_price_history WHERE goods_id = $1")
            .bind(id)
            .fetch_one(&app.db.pool)
            .await
            .unwrap();
        assert_eq!(history, 2);

        // A sheet of another shape is refused on its heading; the warehouse may not import.
        let (_, odd) = import(&app, &operations, &workbook_of(&["商品名称", "库存"], &[vec!["x".into(), "5".into()]]), false).await;
        assert_eq!(
            (odd["data"]["errors"][0]["column"].as_str(), odd["data"]["errors"][0]["message"].as_str()),
            (Some("B 库存"), Some("没有“库存”这一列"))
        );
        let warehouse = operator(&app, Role::Warehouse).await;
        let (status, _) = import(&app, &warehouse, &book, false).await;
        assert_eq!(status, StatusCode::FORBIDDEN);
        let imports: i64 = sqlx::query_scalar("SELECT CAST(COUNT(*) AS BIGINT) FROM audit_log WHERE action = 'goods.import'")
            .fetch_one(&app.db.pool)
            .await
            .unwrap();
        assert_eq!(imports, 2);
    })
    .await;
}

/// A PNG of `width`×`height` pixels, its colour from `seed`, opaque or not.
fn png_of(width: u32, height: u32, seed: u8, alpha: u8) -> Vec<u8> {
    use image::ImageEncoder;
    let picture = image::RgbaImage::from_fn(width, height, |x, y| image::Rgba([seed, (x % 200) as u8, (y % 200) as u8, alpha]));
    let mut out = Vec::new();
    image::codecs::png::PngEncoder::new(&mut out).write_image(&picture, width, height, image::ExtendedColorType::Rgba8).unwrap();
    out
}

async fn upload_pictures(app: &App, client: &Client, goods: i64, files: &[(&str, &[u8])]) -> (StatusCode, Value) {
    let (content_type, body) = multipart_files(&[], "pictures", files);
    let response = client
        .post(app.url(&format!("/api/admin/goods/{goods}/pictures")))
        .header("content-type", content_type)
        .body(body)
        .send()
        .await
        .unwrap();
    (response.status(), response.json().await.unwrap())
}

/// The ids of pictures an answer lists, in order.
fn picture_ids(answer: &Value) -> Vec<i64> {
    answer["data"].as_array().unwrap_or_else(|| panic!("{answer}")).iter().map(|picture| picture["id"].as_i64().unwrap()).collect()
}

/// The picture cards and the detail page show for goods `goods`, as the buyer reads them.
async fn shown_pictures(app: &App, buyer: &Client, goods: i64) -> (String, Vec<String>) {
    let (_, detail) = app.get(buyer, &format!("/api/goods/detail/{goods}")).await;
    let large =
        detail["data"]["pictures"].as_array().unwrap().iter().map(|picture| picture["large"].as_str().unwrap().to_owned()).collect();
    (detail["data"]["goods_image"][0].as_str().unwrap().to_owned(), large)
}

#[tokio::test]
async fn goods_pictures_are_decoded_scaled_kept_in_order_and_every_buyer_page_shows_the_main_one() {
    on_both(|app| async move {
        let operations = operator(&app, Role::Operations).await;
        let warehouse = operator(&app, Role::Warehouse).await;
        let goods = stocked_goods(&app, &operations, &warehouse, "图片测试胶囊", "18.00").await;
        let demo = app.demo().await;
        assert_eq!(
            shown_pictures(&app, &demo, goods).await,
            (format!("/api/images/goods/{goods}.svg"), vec![]),
            "none yet: the drawn package"
        );

        // Two pictures at once, a wide one and a small transparent one: kept in the order sent,
        // the large one scaled to 800 px, never blown up, each with a thumbnail.
        let wide = png_of(1600, 900, 10, 255);
        let small = png_of(300, 300, 90, 0);
        let (status, added) = upload_pictures(&app, &operations, goods, &[("wide.png", &wide), ("small.png", &small)]).await;
        assert_eq!(status, StatusCode::OK, "{added}");
        let [first, second] = picture_ids(&added)[..] else { panic!("{added}") };
        assert_eq!((added["data"][0]["width"].as_i64(), added["data"][0]["height"].as_i64()), (Some(800), Some(450)));
        assert_eq!((added["data"][1]["width"].as_i64(), added["data"][1]["height"].as_i64()), (Some(300), Some(300)));
        assert_eq!(added["data"][0]["file_name"], "wide.png");

        // Served from the database as JPEG, a year in the browser's cache, to anybody.
        let response = app.client().get(app.url(&format!("/api/images/pictures/{first}/thumb.jpg"))).send().await.unwrap();
        assert_eq!(response.status(), StatusCode::OK);
        assert_eq!(response.headers()["content-type"], "image/jpeg");
        assert_eq!(response.headers()["cache-control"], "public, max-age=31536000, immutable");
        let thumb = image::load_from_memory(&response.bytes().await.unwrap()).unwrap();
        assert_eq!((thumb.width(), thumb.height()), (360, 203));
        let response = app.client().get(app.url(&format!("/api/images/pictures/{second}/large.jpg"))).send().await.unwrap();
        let large = image::load_from_memory(&response.bytes().await.unwrap()).unwrap().to_rgb8();
        assert!(large.get_pixel(150, 150).0.iter().all(|channel| *channel > 245), "transparency is laid on white");
        for path in [
            format!("/api/images/pictures/{first}/other.jpg"),
            "/api/images/pictures/x/large.jpg".into(),
            "/api/images/pictures/999999/large.jpg".into(),
        ] {
            let (status, body) = app.get(&app.client(), &path).await;
            assert_eq!((status, body["msg"].as_str()), (StatusCode::NOT_FOUND, Some("图片不存在")), "{path}");
        }

        // The buyer's card (search, lists, the cart) shows the main thumbnail, the detail page both.
        let main = format!("/api/images/pictures/{first}/thumb.jpg");
        let larges = vec![format!("/api/images/pictures/{first}/large.jpg"), format!("/api/images/pictures/{second}/large.jpg")];
        assert_eq!(shown_pictures(&app, &demo, goods).await, (main.clone(), larges.clone()));
        let (_, found) = app.get(&demo, "/api/goods/list?keyword=图片测试胶囊").await;
        assert_eq!(found["data"]["list"][0]["goods_image"][0], main.as_str(), "{found}");
        add_to_cart(&app, &demo, goods, 1, &[]).await;
        let (_, cart) = app.get(&demo, "/api/cart/list").await;
        let item = cart["data"]["data"].as_array().unwrap().iter().find(|item| item["goods"]["id"] == goods).cloned().unwrap();
        assert_eq!(item["goods"]["goods_image"][0], main.as_str());

        // Refused, and nothing kept, all or none: a file that is not a picture whatever its name,
        // a cut-off one beside a good one, one too small, one already there, the eleventh.
        let (status, refused) = upload_pictures(&app, &operations, goods, &[("notes.png", b"just some text")]).await;
        assert_eq!(
            (status, refused["msg"].as_str()),
            (StatusCode::UNPROCESSABLE_ENTITY, Some("notes.png：只能上传JPG或PNG文件")),
            "{refused}"
        );
        let fresh = png_of(400, 400, 200, 255);
        let cut = &wide[..wide.len() / 3];
        let (status, refused) = upload_pictures(&app, &operations, goods, &[("fresh.png", &fresh), ("cut.png", cut)]).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(refused["data"]["errors"]["pictures"][0], "cut.png：图片无法读取，请上传完整的JPG或PNG图片", "{refused}");
        let (_, tiny) = upload_pictures(&app, &operations, goods, &[("tiny.png", &png_of(120, 400, 1, 255))]).await;
        assert_eq!(tiny["msg"], "tiny.png：图片至少200×200像素，这张为120×400", "{tiny}");
        let (_, again) = upload_pictures(&app, &operations, goods, &[("again.png", &wide)]).await;
        assert_eq!(again["msg"], "again.png：这张图片已上传过", "{again}");
        let many: Vec<Vec<u8>> = (0..9).map(|seed| png_of(200, 200, seed * 20 + 5, 255)).collect();
        let named: Vec<(String, &[u8])> = many.iter().enumerate().map(|(at, bytes)| (format!("m{at}.png"), bytes.as_slice())).collect();
        let files: Vec<(&str, &[u8])> = named.iter().map(|(name, bytes)| (name.as_str(), *bytes)).collect();
        let (_, full) = upload_pictures(&app, &operations, goods, &files).await;
        assert_eq!(full["msg"], "每个商品最多10张图片，还可上传8张", "{full}");
        let (_, now) = app.get(&operations, &format!("/api/admin/goods/{goods}/pictures")).await;
        assert_eq!(picture_ids(&now), [first, second], "nothing of a refused upload is kept");
        let (status, _) = upload_pictures(&app, &warehouse, goods, &[("fresh.png", &fresh)]).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "the warehouse keeps no pictures");
        let (status, _) = upload_pictures(&app, &operations, 999_999, &[("fresh.png", &fresh)]).await;
        assert_eq!(status, StatusCode::NOT_FOUND);

        // Reordered: the second becomes the main one everywhere; the same order again records
        // nothing; an order that leaves one out or names another goods' picture is refused.
        let path = format!("/api/admin/goods/{goods}/pictures");
        let reversed = format!("{second},{first}");
        let (status, arranged) = send_form(&app, &operations, Method::PUT, &path, &[("order", &reversed)]).await;
        assert_eq!((status, picture_ids(&arranged)), (StatusCode::OK, vec![second, first]));
        send_form(&app, &operations, Method::PUT, &path, &[("order", &reversed)]).await;
        assert_eq!(shown_pictures(&app, &demo, goods).await.0, format!("/api/images/pictures/{second}/thumb.jpg"));
        for order in [second.to_string(), format!("{second},{first},{first}"), format!("{second},{first},999999")] {
            let (status, refused) = send_form(&app, &operations, Method::PUT, &path, &[("order", &order)]).await;
            assert_eq!(
                (status, refused["msg"].as_str()),
                (StatusCode::UNPROCESSABLE_ENTITY, Some("图片顺序须包含该商品的每张图片各一次")),
                "{order}"
            );
        }

        // Deleted one by one: the next is the main one, then the drawn package again.
        let (status, left) = send_form(&app, &operations, Method::DELETE, &format!("{path}/{second}"), &[]).await;
        assert_eq!((status, picture_ids(&left)), (StatusCode::OK, vec![first]));
        assert_eq!(shown_pictures(&app, &demo, goods).await, (main, larges[..1].to_vec()));
        let (status, _) = send_form(&app, &operations, Method::DELETE, &format!("{path}/{second}"), &[]).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "gone already");
        send_form(&app, &operations, Method::DELETE, &format!("{path}/{first}"), &[]).await;
        assert_eq!(shown_pictures(&app, &demo, goods).await, (format!("/api/images/goods/{goods}.svg"), vec![]));
        let (status, _) = app.get(&app.client(), &format!("/api/images/pictures/{first}/large.jpg")).await;
        assert_eq!(status, StatusCode::NOT_FOUND);

        // The trail has each write once: the upload, the new order, the two deletions.
        let trail: Vec<String> =
            sqlx::query_scalar("SELECT summary FROM audit_log WHERE action = 'goods.pictures' AND target = $1 ORDER BY id")
                .bind(format!("goods:{goods}"))
                .fetch_all(&app.db.pool)
                .await
                .unwrap();
        assert_eq!(trail.len(), 4, "{trail:?}");
        assert_eq!(trail[0], format!("上传商品图片 {goods} 图片测试胶囊：2张（wide.png、small.png）"));
        assert_eq!(trail[3], format!("删除商品图片 {goods} 图片测试胶囊：wide.png"));
    })
    .await;
}
