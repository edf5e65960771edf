//! Compliance (`docs/compliance.md`): a member buys only within its approved business scope —
//! the cards say so, adding is refused, a line already in the cart cannot be checked out or
//! ordered — and an expired licence stops ordering until its renewal is approved, with the
//! member reminded 30 and 7 days before and once expired (the clock moved).

use crate::common::{App, add_to_cart, approved_buyer, on_both, post_order};
use origin::domain::catalogue::scope::{Scope, ScopeClass};
use origin::domain::certificates;
use reqwest::{Client, StatusCode};
use serde_json::Value;

/// A clinic approved for 中成药 alone, logged in: (client, member id, address id).
async fn clinic(app: &App) -> (Client, i64, i64) {
    let hash = origin::auth::hash_password("secret9").unwrap();
    let (member, address) = approved_buyer(app, &hash, "clinic", "1370000", 1).await;
    sqlx::query("UPDATE members SET buyer_type = 3 WHERE id = $1").bind(member).execute(&app.db.pool).await.unwrap();
    let mut conn = app.db.pool.acquire().await.unwrap();
    Scope::of([ScopeClass::PatentChinese]).store(&mut conn, member).await.unwrap();
    let client = app.client();
    let (status, body) = app.post(&client, "/api/user/login", &[("username", "clinic1"), ("password", "secret9")]).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    (client, member, address)
}

/// A buyable goods of `class` with stock: (id, name).
async fn goods_of(app: &App, class: ScopeClass) -> (i64, String) {
    sqlx::query_as("SELECT id, name FROM goods WHERE scope_class = $1 AND is_buy = 1 AND stock >= 10 AND is_kx = 0 ORDER BY id LIMIT 1")
        .bind(class)
        .fetch_one(&app.db.pool)
        .await
        .unwrap()
}

/// The combination called `name` and one of its goods.
async fn combination(app: &App, name: &str) -> (i64, i64) {
    sqlx::query_as(
        "SELECT c.id, MIN(i.goods_id) FROM combinations c JOIN combination_items i ON i.combination_id = c.id WHERE c.name = $1 GROUP BY c.id",
    )
    .bind(name)
    .fetch_one(&app.db.pool)
    .await
    .unwrap()
}

fn line_of(cart: &Value, id: i64) -> Value {
    cart["data"]["data"].as_array().unwrap().iter().find(|line| line["id"] == id).cloned().unwrap_or_else(|| panic!("line {id}: {cart}"))
}

#[tokio::test]
async fn a_clinic_licensed_for_chinese_patent_medicine_only_cannot_buy_an_antibiotic() {
    on_both(|app| async move {
        let (clinic, member, address) = clinic(&app).await;
        let (antibiotic, antibiotic_name) = goods_of(&app, ScopeClass::Antibiotic).await;
        let (patent, _) = goods_of(&app, ScopeClass::PatentChinese).await;
        let (daily, _) = goods_of(&app, ScopeClass::Daily).await;

        // The cards: the antibiotic is outside the scope and cannot be bought; the 中成药 and
        // the daily goods (no licence needed) can. A visitor and the demo member see no mark.
        let (_, detail) = app.get(&clinic, &format!("/api/goods/detail/{antibiotic}")).await;
        assert_eq!(detail["data"]["out_of_scope"], 1, "{detail}");
        assert_eq!(detail["data"]["is_buy"], 0);
        assert_eq!(detail["data"]["refusal"], "超出经营范围");
        assert_eq!(detail["data"]["scope_class_name"], "抗生素制剂");
        assert_eq!(detail["data"]["dispensing"], "处方药");
        assert_eq!(detail["data"]["rx"], 1);
        assert_eq!(detail["data"]["stock_state"], "有货", "out of scope is not out of stock");
        for goods in [patent, daily] {
            let (_, detail) = app.get(&clinic, &format!("/api/goods/detail/{goods}")).await;
            assert_eq!((detail["data"]["out_of_scope"].as_i64(), detail["data"]["is_buy"].as_i64()), (Some(0), Some(1)), "{detail}");
        }
        let (_, seen) = app.get(&app.client(), &format!("/api/goods/detail/{antibiotic}")).await;
        assert_eq!((seen["data"]["out_of_scope"].as_i64(), seen["data"]["is_buy"].as_i64()), (Some(0), Some(1)), "a visitor: {seen}");
        let demo = app.demo().await;
        let (_, seen) = app.get(&demo, &format!("/api/goods/detail/{antibiotic}")).await;
        assert_eq!(seen["data"]["out_of_scope"], 0, "the demo member may buy every class");
        let (_, list) = app.get(&clinic, "/api/goods/list?page_size=100").await;
        let cards = list["data"]["list"].as_array().unwrap();
        assert!(cards.iter().any(|card| card["out_of_scope"] == 1), "the list marks goods outside the scope");
        for card in cards {
            let outside = !["中成药", "第一类医疗器械", "消毒产品", "日用品"].contains(&card["scope_class_name"].as_str().unwrap());
            assert_eq!(card["out_of_scope"] == 1, outside, "{card}");
            if outside {
                assert_eq!(card["is_buy"], 0, "{card}");
            }
        }

        // Adding it is refused with the reason; a combination holding such goods too.
        let (status, refused) = app.post(&clinic, "/api/cart", &[("goods_id", &antibiotic.to_string()), ("number", "1")]).await;
        assert_eq!((status, refused["msg"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("超出经营范围")), "{refused}");
        let (set, part) = combination(&app, "肠胃调理组合").await;
        let form = [("goods_id", part.to_string()), ("number", "1".into()), ("type", "3".into()), ("combination_id", set.to_string())];
        let form: Vec<(&str, &str)> = form.iter().map(|(key, value)| (*key, value.as_str())).collect();
        let (status, refused) = app.post(&clinic, "/api/cart", &form).await;
        assert_eq!((status, refused["msg"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("超出经营范围")), "{refused}");
        let (set, part) = combination(&app, "感冒组合装").await;
        add_to_cart(&app, &clinic, part, 1, &[("type", "3".into()), ("combination_id", set.to_string())]).await;
        let patent_line = add_to_cart(&app, &clinic, patent, 2, &[]).await;

        // A line put in the cart before the scope narrowed: shown greyed with the reason,
        // unticked, and refused at checkout and in the order, by name.
        let stale: i64 = sqlx::query_scalar(
            "INSERT INTO cart_items (member_id, goods_id, type, activity_id, number, price, is_selected, with_coupon, \
             goods_price_id, ladder_price_id, goods_manjian_id, is_yj, created_at) \
             SELECT $1, id, 0, 0, 1, price, 1, 1, 0, 0, 0, 0, 0 FROM goods WHERE id = $2 RETURNING id",
        )
        .bind(member)
        .bind(antibiotic)
        .fetch_one(&app.db.pool)
        .await
        .unwrap();
        let (_, cart) = app.get(&clinic, "/api/cart/list").await;
        let line = line_of(&cart, stale);
        assert_eq!(line["is_selected"], 0, "{line}");
        assert_eq!((line["goods"]["is_buy"].as_i64(), line["goods"]["refusal"].as_str()), (Some(0), Some("超出经营范围")));
        let sellable: Vec<bool> = cart["data"]["quote"]["lines"].as_array().unwrap().iter().map(|line| line["sellable"] == true).collect();
        assert_eq!(sellable.iter().filter(|sellable| !**sellable).count(), 1, "the engine sees it unsellable: {cart}");
        let both = format!("{stale},{patent_line}");
        let (status, refused) = app.post(&clinic, "/api/cart/checkout", &[("ids", &both)]).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(refused["msg"], format!("{antibiotic_name}：超出经营范围"));
        let address = address.to_string();
        let (status, refused) = post_order(&app, &clinic, "scope-1", &[("ids", &both), ("address_id", &address)]).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{refused}");
        assert_eq!(refused["msg"], format!("{antibiotic_name}：超出经营范围"));
        let orders: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM orders").fetch_one(&app.db.pool).await.unwrap();
        assert_eq!(orders, 0);

        // The 中成药 alone orders; the antibiotic stays in the cart.
        let only = patent_line.to_string();
        let (status, placed) = post_order(&app, &clinic, "scope-2", &[("ids", &only), ("address_id", &address)]).await;
        assert_eq!(status, StatusCode::OK, "{placed}");

        // Once its scope holds antibiotics, the member may buy them.
        let mut conn = app.db.pool.acquire().await.unwrap();
        Scope::of([ScopeClass::PatentChinese, ScopeClass::Antibiotic]).store(&mut conn, member).await.unwrap();
        let (status, added) = app.post(&clinic, "/api/cart", &[("goods_id", &antibiotic.to_string()), ("number", "1")]).await;
        assert_eq!(status, StatusCode::OK, "{added}");
        let (_, scope) = app.get(&clinic, "/api/user/jyfw").await;
        assert_eq!(scope["data"]["list"], serde_json::json!(["抗生素制剂", "中成药"]));
        let classes = scope["data"]["classes"].as_array().unwrap();
        assert_eq!(classes.len(), 13);
        let allowed: Vec<&str> =
            classes.iter().filter(|class| class["allowed"] == 1).map(|class| class["name"].as_str().unwrap()).collect();
        assert_eq!(allowed, ["抗生素制剂", "中成药", "第一类医疗器械", "消毒产品", "日用品"]);
    })
    .await;
}

/// A certificate's multipart form: `kind`, `number`, `expires_on`, a PNG scan.
fn certificate(kind: &str, number: &str, expires_on: &str) -> (String, Vec<u8>) {
    let boundary = "----compliance-boundary";
    let mut body = Vec::new();
    for (name, value) in [("kind", kind), ("number", number), ("expires_on", expires_on), ("valid_from", "2024-01-01")] {
        body.extend(format!("--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n{value}\r\n").as_bytes());
    }
    body.extend(
        format!("--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"scan.png\"\r\nContent-Type: image/png\r\n\r\n")
            .as_bytes(),
    );
    body.extend(crate::common::PNG);
    body.extend(format!("\r\n--{boundary}--\r\n").as_bytes());
    (format!("multipart/form-data; boundary={boundary}"), body)
}

const DAY: i64 = 86_400;

#[tokio::test]
async fn an_expired_licence_stops_ordering_until_its_renewal_is_approved() {
    on_both(|app| async move {
        let (clinic, member, address) = clinic(&app).await;
        let now = origin::now();
        let expired_on = certificates::day(now - 2 * DAY);
        let licence: i64 = sqlx::query_scalar(
            "INSERT INTO qualifications (member_id, kind, number, expires_on, status, created_at, reviewed_at) \
             VALUES ($1, '医疗机构执业许可证', 'PDY00001', $2, 1, 0, 0) RETURNING id",
        )
        .bind(member)
        .bind(&expired_on)
        .fetch_one(&app.db.pool)
        .await
        .unwrap();
        let (patent, _) = goods_of(&app, ScopeClass::PatentChinese).await;
        let line = add_to_cart(&app, &clinic, patent, 1, &[]).await.to_string();
        let address = address.to_string();
        let why = format!("您的医疗机构执业许可证已于{expired_on}过期，请在“资质证件”上传新证，审核通过后方可下单");

        let (status, refused) = app.post(&clinic, "/api/cart/checkout", &[("ids", &line)]).await;
        assert_eq!((status, refused["msg"].as_str()), (StatusCode::FORBIDDEN, Some(why.as_str())), "{refused}");
        let (status, refused) = post_order(&app, &clinic, "lapsed-1", &[("ids", &line), ("address_id", &address)]).await;
        assert_eq!((status, refused["msg"].as_str()), (StatusCode::FORBIDDEN, Some(why.as_str())), "{refused}");
        let (_, held) = app.get(&clinic, "/api/user/zizhi").await;
        assert_eq!(held["data"]["buyer_type_name"], "诊所");
        assert_eq!(held["data"]["required"], serde_json::json!(["医疗机构执业许可证"]));
        assert_eq!(held["data"]["missing"], serde_json::json!([]));
        assert_eq!(held["data"]["expiring"][0]["kind"], "医疗机构执业许可证");
        assert_eq!(held["data"]["expiring"][0]["days_left"], -2);

        // The renewal waits beside it; until it is approved ordering stays stopped.
        let renewed_until = certificates::day(now + 5 * 365 * DAY);
        let form = certificate("医疗机构执业许可证", "PDY00002", &renewed_until);
        let response = clinic.post(app.url("/api/user/zizhi")).header("content-type", form.0).body(form.1).send().await.unwrap();
        assert_eq!(response.status(), StatusCode::OK);
        let rows: Vec<(i64, i64)> =
            sqlx::query_as("SELECT id, status FROM qualifications WHERE member_id = $1 AND kind = '医疗机构执业许可证' ORDER BY id")
                .bind(member)
                .fetch_all(&app.db.pool)
                .await
                .unwrap();
        assert_eq!(rows.len(), 2, "the approved one is kept beside its renewal: {rows:?}");
        assert_eq!((rows[0].0, rows[0].1, rows[1].1), (licence, 1, 0));
        let (status, _) = app.post(&clinic, "/api/cart/checkout", &[("ids", &line)]).await;
        assert_eq!(status, StatusCode::FORBIDDEN);

        let renewal = rows[1].0.to_string();
        let said = crate::common::admin(&app, &["approve", &renewal]).await.unwrap();
        assert!(said.contains("business scope: 中成药"), "{said}");
        let (status, preview) = app.post(&clinic, "/api/cart/checkout", &[("ids", &line)]).await;
        assert_eq!(status, StatusCode::OK, "{preview}");
        let (status, placed) = post_order(&app, &clinic, "lapsed-2", &[("ids", &line), ("address_id", &address)]).await;
        assert_eq!(status, StatusCode::OK, "{placed}");
        let (_, held) = app.get(&clinic, "/api/user/zizhi").await;
        assert_eq!(held["data"]["expiring"], serde_json::json!([]), "{held}");
    })
    .await;
}

#[tokio::test]
async fn members_are_reminded_30_and_7_days_before_a_licence_expires_and_once_it_has() {
    on_both(|app| async move {
        let (_, member, _) = clinic(&app).await;
        let now = origin::now();
        let expires_on = certificates::day(now + 40 * DAY);
        sqlx::query(
            "INSERT INTO qualifications (member_id, kind, number, expires_on, status, created_at, reviewed_at) \
             VALUES ($1, '医疗机构执业许可证', 'PDY00001', $2, 1, 0, 0)",
        )
        .bind(member)
        .bind(&expires_on)
        .execute(&app.db.pool)
        .await
        .unwrap();
        let mut conn = app.db.pool.acquire().await.unwrap();
        let titles = |app: &App| {
            let pool = app.db.pool.clone();
            async move {
                sqlx::query_scalar::<_, String>("SELECT title FROM messages WHERE member_id = $1 AND kind = 4 ORDER BY id")
                    .bind(member)
                    .fetch_all(&pool)
                    .await
                    .unwrap()
            }
        };
        // The demo member's licences run for years: only the clinic's is ever due here.
        assert_eq!(certificates::remind(&mut conn, now).await.unwrap(), 0, "40 days before: nothing yet");
        assert_eq!(certificates::remind(&mut conn, now + 11 * DAY).await.unwrap(), 1, "29 days before");
        assert_eq!(certificates::remind(&mut conn, now + 12 * DAY).await.unwrap(), 0, "once");
        assert_eq!(certificates::remind(&mut conn, now + 34 * DAY).await.unwrap(), 1, "6 days before");
        assert_eq!(certificates::remind(&mut conn, now + 35 * DAY).await.unwrap(), 0, "once");
        assert!(certificates::lapsed(&mut conn, member, now + 40 * DAY).await.unwrap().is_none(), "its last day still orders");
        assert_eq!(certificates::remind(&mut conn, now + 41 * DAY).await.unwrap(), 1, "expired");
        assert_eq!(certificates::remind(&mut conn, now + 60 * DAY).await.unwrap(), 0, "once");
        assert_eq!(titles(&app).await, ["资质证件29天后到期", "资质证件6天后到期", "资质证件已过期"]);
        let why = certificates::lapsed(&mut conn, member, now + 41 * DAY).await.unwrap();
        assert_eq!(why.unwrap(), format!("您的医疗机构执业许可证已于{expires_on}过期，请在“资质证件”上传新证，审核通过后方可下单"));
    })
    .await;
}

#[tokio::test]
async fn registration_asks_the_kind_of_business_and_a_clinic_needs_its_practice_licence() {
    on_both(|app| async move {
        let client = app.client();
        let phone = "13955556666";
        let (status, _) = app.post(&client, "/api/user/create_code", &[("phone", phone), ("scene", "register")]).await;
        assert_eq!(status, StatusCode::OK);
        let code: String = sqlx::query_scalar("SELECT code FROM sms_codes WHERE phone = $1 ORDER BY id DESC LIMIT 1")
            .bind(phone)
            .fetch_one(&app.db.pool)
            .await
            .unwrap();
        let mut form = vec![
            ("step", "2"),
            ("phone", phone),
            ("code", code.as_str()),
            ("username", "kangning01"),
            ("password", "zhensuo8"),
            ("password_confirmation", "zhensuo8"),
            ("company", "康宁诊所"),
            ("name", "孙医生"),
        ];
        let (status, refused) = app.post(&client, "/api/user/register", &form).await;
        assert_eq!((status, refused["msg"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("请选择企业类型")), "{refused}");
        form.push(("buyer_type", "诊所"));
        let (status, registered) = app.post(&client, "/api/user/register", &form).await;
        assert_eq!(status, StatusCode::OK, "{registered}");
        assert_eq!(registered["data"]["buyer_type"], 3);
        assert_eq!(registered["data"]["required"], serde_json::json!(["医疗机构执业许可证"]));
        let (status, step3) = app.post(&client, "/api/user/register", &[("step", "3"), ("practice", "PDY12345633010219D2192")]).await;
        assert_eq!((status, step3["data"]["qualifications"].as_i64()), (StatusCode::OK, Some(1)), "{step3}");
        let (_, held) = app.get(&client, "/api/user/zizhi").await;
        assert_eq!(held["data"]["missing"], serde_json::json!(["医疗机构执业许可证"]), "recorded, not yet approved: {held}");
        let id = held["data"]["list"][0]["id"].as_i64().unwrap().to_string();
        let said = crate::common::admin(&app, &["approve", &id, "--scope", "中成药,中药饮片"]).await.unwrap();
        assert!(said.contains("the member is approved"), "{said}");
        let (_, base) = app.get(&client, "/api/user/base").await;
        assert_eq!(base["data"]["is_passed"], 1);
        let (_, scope) = app.get(&client, "/api/user/jyfw").await;
        assert_eq!(scope["data"]["list"], serde_json::json!(["中成药", "中药饮片"]));
        let refused = crate::common::admin(&app, &["approve", &id, "--scope", "中成药,西药"]).await.unwrap_err();
        assert_eq!(origin::admin::message(&refused), "经营范围中没有“西药”这一类");
    })
    .await;
}

/// Every `price` and `base_price` in `value`, at any depth, with where it was.
fn prices(value: &Value, path: &str, found: &mut Vec<(String, Value)>) {
    match value {
        Value::Object(object) => {
            for (key, inner) in object {
                let here = format!("{path}.{key}");
                if key == "price" || key == "base_price" {
                    found.push((here.clone(), inner.clone()));
                }
                prices(inner, &here, found);
            }
        }
        Value::Array(items) => items.iter().enumerate().for_each(|(index, inner)| prices(inner, &format!("{path}[{index}]"), found)),
        _ => {}
    }
}

/// The answers that show goods to anyone: lists, search, detail, its activities, floors,
/// zones, sets, a brand's goods, controlled goods, activity pages.
async fn goods_answers(app: &App, client: &Client) -> Vec<(String, Value)> {
    let on_sale: i64 = sqlx::query_scalar("SELECT goods_id FROM flash_sales ORDER BY id LIMIT 1").fetch_one(&app.db.pool).await.unwrap();
    let in_set: i64 =
        sqlx::query_scalar("SELECT goods_id FROM combination_items ORDER BY id LIMIT 1").fetch_one(&app.db.pool).await.unwrap();
    let laddered: i64 = sqlx::query_scalar("SELECT goods_id FROM goods_ladders ORDER BY id LIMIT 1").fetch_one(&app.db.pool).await.unwrap();
    let brand: i64 = sqlx::query_scalar("SELECT MIN(brand_id) FROM goods").fetch_one(&app.db.pool).await.unwrap();
    let programme: String = sqlx::query_scalar("SELECT url FROM kx_programmes ORDER BY id LIMIT 1").fetch_one(&app.db.pool).await.unwrap();
    let activity: String =
        sqlx::query_scalar("SELECT url FROM activities WHERE url IS NOT NULL ORDER BY id LIMIT 1").fetch_one(&app.db.pool).await.unwrap();
    let paths = [
        "/api/goods/list?page_size=60".to_owned(),
        format!("/api/goods/list?keyword={}", crate::common::urlencode("阿莫西林")),
        format!("/api/goods/detail/{on_sale}"),
        format!("/api/goods/detail/{laddered}"),
        format!("/api/goods/activities?goods_id={on_sale}"),
        format!("/api/goods/activities?goods_id={in_set}"),
        "/api/index/spike".into(),
        "/api/activity/everyday_price".into(),
        "/api/index_wntj/1".into(),
        "/api/combination".into(),
        format!("/api/focus/brand/{brand}"),
        format!("/api/kxzq/goods/{programme}"),
        "/api/focus/new_kxzq".into(),
        format!("/api/activities/{activity}"),
    ];
    let mut answers = Vec::new();
    for path in paths {
        let (status, body) = app.get(client, &path).await;
        assert_eq!(status, StatusCode::OK, "{path}: {body}");
        answers.push((path, body));
    }
    answers
}

/// Asserts that every price in the answers is hidden, and that the goods say why.
fn all_hidden(answers: &[(String, Value)], why: &str) {
    let mut cards = 0;
    for (path, body) in answers {
        let mut found = Vec::new();
        prices(body, path, &mut found);
        assert!(!found.is_empty(), "{path} shows goods: {body}");
        for (place, price) in found {
            assert!(price.is_null(), "{place} is shown: {price}");
        }
        let text = body.to_string();
        cards += text.matches(&format!("\"price_text\":\"{why}\"")).count();
        assert!(!text.contains("\"price_text\":\"\""), "{path}: a card with its prices shown");
    }
    assert!(cards > 100, "the goods say {why}: {cards}");
}

#[tokio::test]
async fn prices_are_hidden_from_visitors_and_members_not_approved_in_every_answer() {
    on_both(|app| async move {
        // A visitor: 登录可见.
        let visitor = app.client();
        all_hidden(&goods_answers(&app, &visitor).await, "登录可见");
        // A member not approved: 认证后可见, and it cannot put goods in the cart.
        let other = app.other_member().await;
        all_hidden(&goods_answers(&app, &other).await, "认证后可见");
        let (goods, _) = goods_of(&app, ScopeClass::PatentChinese).await;
        let (status, refused) = app.post(&other, "/api/cart", &[("goods_id", &goods.to_string()), ("number", "1")]).await;
        assert_eq!((status, refused["msg"].as_str()), (StatusCode::FORBIDDEN, Some("资质认证通过后方可采购")), "{refused}");
        let (status, _) = app.post(&other, &format!("/api/cart/quick_add/{goods}"), &[]).await;
        assert_eq!(status, StatusCode::FORBIDDEN);

        // The demo member sees every price; so does everyone once the shop opens them.
        let demo = app.demo().await;
        for (path, body) in goods_answers(&app, &demo).await {
            let mut found = Vec::new();
            prices(&body, &path, &mut found);
            assert!(found.iter().all(|(_, price)| price.is_string()), "{path}: {found:?}");
        }
        let said = crate::common::admin(&app, &["prices", "all"]).await.unwrap();
        assert_eq!(said, "prices: approved: only approved members see prices → all: everyone sees prices\n");
        for client in [&visitor, &other] {
            let (_, list) = app.get(client, "/api/goods/list").await;
            assert!(list["data"]["list"][0]["price"].is_string(), "{list}");
            assert_eq!(list["data"]["list"][0]["price_text"], "");
        }
        crate::common::admin(&app, &["prices", "approved"]).await.unwrap();
        let (_, list) = app.get(&visitor, "/api/goods/list").await;
        assert!(list["data"]["list"][0]["price"].is_null());
        assert!(crate::common::admin(&app, &["prices", "some"]).await.is_err());
    })
    .await;
}

#[tokio::test]
async fn goods_under_special_control_are_limited_per_order_and_per_month() {
    on_both(|app| async move {
        let (clinic, member, address) = clinic(&app).await;
        let mut conn = app.db.pool.acquire().await.unwrap();
        Scope::all().store(&mut conn, member).await.unwrap();
        let (goods, name, per_order, per_month): (i64, String, i64, i64) = sqlx::query_as(
            "SELECT id, name, control_per_order, control_per_month FROM goods WHERE control_per_order > 0 ORDER BY id LIMIT 1",
        )
        .fetch_one(&app.db.pool)
        .await
        .unwrap();
        assert_eq!((name.as_str(), per_order, per_month), ("复方盐酸伪麻黄碱缓释胶囊", 50, 200));
        sqlx::query("UPDATE goods SET stock = 10000, is_buy = 1 WHERE id = $1").bind(goods).execute(&app.db.pool).await.unwrap();
        let (_, detail) = app.get(&clinic, &format!("/api/goods/detail/{goods}")).await;
        assert_eq!((detail["data"]["control_per_order"].as_i64(), detail["data"]["control_per_month"].as_i64()), (Some(50), Some(200)));

        // Per order: adding past it is refused, and so is raising the line past it.
        let per_order_message = format!("{name}为特殊管理药品，每单限购50盒");
        let (status, refused) = app.post(&clinic, "/api/cart", &[("goods_id", &goods.to_string()), ("number", "51")]).await;
        assert_eq!((status, refused["msg"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some(per_order_message.as_str())));
        let line = add_to_cart(&app, &clinic, goods, 50, &[]).await;
        let (status, refused) = app.post(&clinic, &format!("/api/cart/{line}/edit"), &[("number", "51")]).await;
        assert_eq!((status, refused["msg"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some(per_order_message.as_str())));
        // A line raised past it behind the cart's back is refused in the order.
        sqlx::query("UPDATE cart_items SET number = 60 WHERE id = $1").bind(line).execute(&app.db.pool).await.unwrap();
        let (line_id, address) = (line.to_string(), address.to_string());
        let (status, refused) = post_order(&app, &clinic, "control-0", &[("ids", &line_id), ("address_id", &address)]).await;
        assert_eq!((status, refused["msg"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some(per_order_message.as_str())));

        // Per month: four orders of 50 pass, the fifth is refused with the month's count; a
        // cancelled order does not count.
        for n in 1..=4 {
            sqlx::query("UPDATE cart_items SET number = 50 WHERE member_id = $1").bind(member).execute(&app.db.pool).await.unwrap();
            let line = if n == 1 { line } else { add_to_cart(&app, &clinic, goods, 50, &[]).await };
            let (status, placed) =
                post_order(&app, &clinic, &format!("control-{n}"), &[("ids", &line.to_string()), ("address_id", &address)]).await;
            assert_eq!(status, StatusCode::OK, "order {n}: {placed}");
            if n == 4 {
                let id = placed["data"]["id"].as_i64().unwrap();
                let (status, cancelled) = app.post(&clinic, &format!("/api/order/{id}/cancel"), &[]).await;
                assert_eq!(status, StatusCode::OK, "{cancelled}");
            }
        }
        let line = add_to_cart(&app, &clinic, goods, 50, &[]).await.to_string();
        let (status, placed) = post_order(&app, &clinic, "control-5", &[("ids", &line), ("address_id", &address)]).await;
        assert_eq!(status, StatusCode::OK, "the cancelled order gave its 50 back: {placed}");
        let line = add_to_cart(&app, &clinic, goods, 1, &[]).await.to_string();
        let (status, refused) = post_order(&app, &clinic, "control-6", &[("ids", &line), ("address_id", &address)]).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(refused["msg"], format!("{name}为特殊管理药品，每月限购200盒，本月已购200盒"));
    })
    .await;
}
