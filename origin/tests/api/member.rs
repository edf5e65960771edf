//! The member's own area on SQLite and PostgreSQL: addresses, stores, messages, certificates,
//! the wallet's logs and the member centre, each kept to its member (another member's id
//! answers 404 and changes nothing), and the operator's `origin admin` commands, whose every
//! change reaches the member's logs and messages.

use crate::common::{App, PNG, add_to_cart, address_of, admin, ladder_goods, on_both, post_order};
use reqwest::{Client, StatusCode};
use serde_json::Value;

async fn member_id(app: &App, username: &str) -> i64 {
    sqlx::query_scalar("SELECT id FROM members WHERE username = $1").bind(username).fetch_one(&app.db.pool).await.unwrap()
}

async fn send(app: &App, client: &Client, method: reqwest::Method, path: &str, form: &[(&str, &str)]) -> (StatusCode, Value) {
    let response = client.request(method, app.url(path)).form(form).send().await.unwrap();
    (response.status(), response.json().await.unwrap())
}

const ADDRESS: [(&str, &str); 6] = [
    ("contact", "李四"),
    ("phone", "13812345678"),
    ("province", "浙江省"),
    ("city", "杭州市"),
    ("district", "西湖区"),
    ("detail", "文三路99号"),
];

#[tokio::test]
async fn addresses_are_kept_to_their_member() {
    on_both(|app| async move {
        let demo = app.demo().await;
        let other = app.other_member().await;
        let (_, before) = app.get(&demo, "/api/user/address").await;
        let before = before["data"]["list"].as_array().unwrap().len();

        let (status, refused) = app.post(&demo, "/api/user/address", &[("contact", "李四"), ("phone", "123")]).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        let errors = refused["data"]["errors"].as_object().unwrap();
        assert!(errors.contains_key("province") && errors.contains_key("detail") && errors.contains_key("phone"), "{refused}");
        let long = "路".repeat(121);
        let mut too_long = ADDRESS.to_vec();
        too_long[5].1 = &long;
        let (status, refused) = app.post(&demo, "/api/user/address", &too_long).await;
        assert_eq!((status, refused["msg"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("详细地址不能超过120字")));

        let mut form = ADDRESS.to_vec();
        form.push(("is_default", "1"));
        let (status, added) = app.post(&demo, "/api/user/address", &form).await;
        assert_eq!(status, StatusCode::OK, "{added}");
        let list = added["data"]["list"].as_array().unwrap().clone();
        assert_eq!(list.len(), before + 1);
        assert_eq!((list[0]["detail"].as_str(), list[0]["is_default"].as_i64()), (Some("文三路99号"), Some(1)));
        assert_eq!(list.iter().filter(|address| address["is_default"] == 1).count(), 1, "one default");
        let mine = list[0]["id"].as_i64().unwrap();

        // The other member can neither see nor change it.
        let (_, theirs) = app.get(&other, "/api/user/address").await;
        assert!(theirs["data"]["list"].as_array().unwrap().iter().all(|address| address["id"] != mine));
        let path = format!("/api/user/address/{mine}");
        let (status, _) = send(&app, &other, reqwest::Method::PUT, &path, &ADDRESS).await;
        assert_eq!(status, StatusCode::NOT_FOUND);
        let (status, _) = send(&app, &other, reqwest::Method::DELETE, &path, &[]).await;
        assert_eq!(status, StatusCode::NOT_FOUND);
        let (status, _) = app.post(&other, &format!("{path}/default"), &[]).await;
        assert_eq!(status, StatusCode::NOT_FOUND);
        let (_, still) = app.get(&demo, "/api/user/address").await;
        assert_eq!(still["data"]["list"][0]["id"], mine);
        assert_eq!(still["data"]["list"][0]["is_default"], 1);

        // The checkout lists it first; edits and a delete move the default to the oldest left.
        let mut edit = ADDRESS.to_vec();
        edit[5].1 = "文三路100号";
        let (status, edited) = send(&app, &demo, reqwest::Method::PUT, &path, &edit).await;
        assert_eq!(status, StatusCode::OK, "{edited}");
        assert_eq!(edited["data"]["list"][0]["detail"], "文三路100号");
        let (status, left) = send(&app, &demo, reqwest::Method::DELETE, &path, &[]).await;
        assert_eq!(status, StatusCode::OK);
        let left = left["data"]["list"].as_array().unwrap();
        assert_eq!(left.len(), before);
        if before > 0 {
            assert_eq!(left.iter().filter(|address| address["is_default"] == 1).count(), 1, "a default is left");
        }
    })
    .await;
}

#[tokio::test]
async fn addresses_and_stores_take_a_landline() {
    on_both(|app| async move {
        let demo = app.demo().await;
        // A 电话 is a mobile number or a landline: area code (3–4 digits from 0), dash, 7–8 digits.
        for landline in ["0571-88886666", "010-1234567"] {
            let mut form = ADDRESS.to_vec();
            form[1].1 = landline;
            let (status, added) = app.post(&demo, "/api/user/address", &form).await;
            assert_eq!(status, StatusCode::OK, "{added}");
            assert!(added["data"]["list"].as_array().unwrap().iter().any(|address| address["phone"] == landline), "{added}");
        }
        for wrong in ["0571-123456", "571-88886666", "0571 88886666", "05711-8888666", "0571-123456789", "12812345678", "123"] {
            let mut form = ADDRESS.to_vec();
            form[1].1 = wrong;
            let (status, refused) = app.post(&demo, "/api/user/address", &form).await;
            assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{wrong}: {refused}");
            assert_eq!(
                (refused["msg"].as_str(), refused["data"]["errors"]["phone"][0].as_str()),
                (Some("联系电话格式不正确"), Some("联系电话格式不正确"))
            );
        }
        let (status, refused) = app.post(&demo, "/api/user/address", &ADDRESS[2..]).await;
        assert_eq!((status, refused["data"]["errors"]["phone"][0].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("请填写联系电话")));

        let (status, added) = app.post(&demo, "/api/user/stores", &[("name", "滨江分店"), ("phone", "0571-87654321")]).await;
        assert_eq!(status, StatusCode::OK, "{added}");
        let store = added["data"]["list"].as_array().unwrap().iter().find(|store| store["name"] == "滨江分店").unwrap().clone();
        assert_eq!(store["phone"], "0571-87654321");
        let path = format!("/api/user/stores/{}", store["id"]);
        let (status, refused) = send(&app, &demo, reqwest::Method::PUT, &path, &[("name", "滨江分店"), ("phone", "0571-8765")]).await;
        assert_eq!((status, refused["msg"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("联系电话格式不正确")));
        let (status, edited) = send(&app, &demo, reqwest::Method::PUT, &path, &[("name", "滨江分店"), ("phone", "13900002222")]).await;
        assert_eq!(status, StatusCode::OK, "{edited}");
    })
    .await;
}

#[tokio::test]
async fn the_balance_log_is_filtered_by_days_in_china_time() {
    on_both(|app| async move {
        let demo = app.demo().await;
        let id = member_id(&app, "demo").await;
        // 2001-03-01 in China (UTC+8) runs from 983376000 to 983462399.
        for (at, note) in [(983_375_999, "二月末"), (983_376_000, "三月一日零点"), (983_462_399, "三月一日末"), (983_462_400, "三月二日零点")] {
            sqlx::query(
                "INSERT INTO balance_logs (member_id, amount, balance_after, use_type, note, created_at) VALUES ($1, 10000, 10000, 1, $2, $3)",
            )
            .bind(id)
            .bind(note)
            .bind(at)
            .execute(&app.db.pool)
            .await
            .unwrap();
        }
        let notes = |body: &Value| -> Vec<String> {
            body["data"]["list"].as_array().unwrap().iter().map(|entry| entry["note"].as_str().unwrap().to_owned()).collect()
        };
        for (query, expected) in [
            ("start_time=2001-03-01&end_time=2001-03-01", &["三月一日末", "三月一日零点"][..]),
            ("start_time=2001-03-01&end_time=2001-03-02", &["三月二日零点", "三月一日末", "三月一日零点"]),
            ("end_time=2001-02-28", &["二月末"]),
            ("start_time=2001-02-28&end_time=2001-03-01&use_type=1", &["三月一日末", "三月一日零点", "二月末"]),
            ("start_time=2001-02-28&end_time=2001-03-01&use_type=2", &[]),
            // Unix seconds still do.
            ("start_time=983376000&end_time=983462399", &["三月一日末", "三月一日零点"]),
        ] {
            let (status, log) = app.get(&demo, &format!("/api/user/user_money_log?{query}")).await;
            assert_eq!(status, StatusCode::OK, "{query}: {log}");
            assert_eq!(notes(&log), expected, "{} {query}", app.database);
            assert_eq!(log["data"]["total"].as_u64(), Some(expected.len() as u64), "{query}");
        }
        let (_, from) = app.get(&demo, "/api/user/user_money_log?start_time=2001-03-02").await;
        assert!(notes(&from).contains(&"三月二日零点".to_owned()) && !notes(&from).contains(&"三月一日末".to_owned()));
        for (query, field, message) in [
            ("start_time=2001-02-30", "start_time", "开始时间格式应为YYYY-MM-DD"),
            ("end_time=2001/03/01", "end_time", "结束时间格式应为YYYY-MM-DD"),
            ("start_time=2001-03-02&end_time=2001-03-01", "start_time", "开始时间不能晚于结束时间"),
        ] {
            let (status, refused) = app.get(&demo, &format!("/api/user/user_money_log?{query}")).await;
            assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{query}");
            assert_eq!((refused["msg"].as_str(), refused["data"]["errors"][field][0].as_str()), (Some(message), Some(message)), "{query}");
        }
    })
    .await;
}

#[tokio::test]
async fn stores_are_kept_to_their_member() {
    on_both(|app| async move {
        let demo = app.demo().await;
        let other = app.other_member().await;
        let (status, refused) = app.post(&demo, "/api/user/stores", &[("name", "")]).await;
        assert_eq!((status, refused["msg"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("请填写门店名称")));
        let (status, added) = app
            .post(&demo, "/api/user/stores", &[("name", "西湖分店"), ("contact", "赵六"), ("phone", "13811112222"), ("address", "杭州")])
            .await;
        assert_eq!(status, StatusCode::OK, "{added}");
        assert_eq!(added["data"]["is_dd"], 1);
        let store =
            added["data"]["list"].as_array().unwrap().iter().find(|store| store["name"] == "西湖分店").unwrap()["id"].as_i64().unwrap();

        let (status, _) = app.post(&other, &format!("/api/user/stores/{store}/switch"), &[]).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "no switching to another member's store");
        let (status, _) = send(&app, &other, reqwest::Method::DELETE, &format!("/api/user/stores/{store}"), &[]).await;
        assert_eq!(status, StatusCode::NOT_FOUND);

        let (status, switched) = app.post(&demo, &format!("/api/user/stores/{store}/switch"), &[]).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(switched["data"]["current"], store);
        let (_, centre) = app.get(&demo, "/api/user/center").await;
        assert_eq!(centre["data"]["store"], "西湖分店");
        let (_, theirs) = app.get(&other, "/api/user/center").await;
        assert_eq!(theirs["data"]["store"], Value::Null);

        // Its orders go to the store: the preview says so and the order's address names it.
        let (goods, _) = ladder_goods(&app).await;
        let ids = add_to_cart(&app, &demo, goods, 12, &[]).await.to_string();
        let (_, list) = app.get(&demo, "/api/cart/list").await;
        let payable = list["data"]["quote"]["totals"]["payable"].as_str().unwrap().to_owned();
        let (_, preview) = app.post(&demo, "/api/cart/checkout", &[("ids", &ids), ("new", "1"), ("expected_payable", &payable)]).await;
        assert_eq!(preview["data"]["store"], "西湖分店");
        let address = address_of(&app, "demo").await.to_string();
        let form = [("ids", ids.as_str()), ("address_id", address.as_str()), ("expected_payable", payable.as_str())];
        let (status, placed) = post_order(&app, &demo, "store-order", &form).await;
        assert_eq!(status, StatusCode::OK, "{placed}");
        let (_, order) = app.get(&demo, &format!("/api/order/{}", placed["data"]["id"])).await;
        assert!(order["data"]["address"].as_str().unwrap().starts_with("【西湖分店】"), "{order}");

        let (status, left) = send(&app, &demo, reqwest::Method::DELETE, &format!("/api/user/stores/{store}"), &[]).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(left["data"]["current"], Value::Null, "the current store deleted: none chosen");
    })
    .await;
}

#[tokio::test]
async fn grants_reach_the_wallet_logs_and_messages() {
    on_both(|app| async move {
        let demo = app.demo().await;
        let other = app.other_member().await;
        let id = member_id(&app, "demo").await;
        let (_, wallet) = app.get(&demo, "/api/user/user_money").await;
        let red_packet_before = wallet["data"]["red_packet"].as_str().unwrap().to_owned();
        let (_, base) = app.get(&demo, "/api/user/base").await;
        let unread_before = base["data"]["message_count"].as_i64().unwrap();

        let out = admin(
            &app,
            &["--operator", "tester", "grant", "red-packet", "--member", &id.to_string(), "--amount", "50.00", "--note", "开业红包"],
        )
        .await
        .unwrap();
        assert!(out.contains("赠送红包¥50.00"), "{out}");
        assert!(admin(&app, &["grant", "red-packet", "--member", &id.to_string(), "--amount", "0.001"]).await.is_err());
        assert!(admin(&app, &["grant", "red-packet", "--member", "999999", "--amount", "5"]).await.is_err());
        admin(&app, &["grant", "points", "--member", &id.to_string(), "--points", "200"]).await.unwrap();
        let too_many = admin(&app, &["grant", "points", "--member", &id.to_string(), "--points", "-100000000"]).await;
        assert!(too_many.is_err(), "points never go below zero");
        admin(&app, &["grant", "balance", "--member", &id.to_string(), "--amount", "300", "--note", "银行转账充值"]).await.unwrap();

        let (_, wallet) = app.get(&demo, "/api/user/user_money").await;
        let cents = |text: &str| {
            let (yuan, fen) = text.split_once('.').unwrap();
            yuan.parse::<i64>().unwrap() * 100 + fen.parse::<i64>().unwrap()
        };
        assert_eq!(cents(wallet["data"]["red_packet"].as_str().unwrap()), cents(&red_packet_before) + 5000);
        let (_, log) = app.get(&demo, "/api/user/red_packet_log").await;
        assert_eq!(
            (log["data"]["list"][0]["amount"].as_str(), log["data"]["list"][0]["note"].as_str()),
            (Some("+50.00"), Some("开业红包"))
        );
        assert_eq!(log["data"]["list"][0]["balance"], wallet["data"]["red_packet"]);
        let (_, points) = app.get(&demo, "/api/user/points_log?use_type=1").await;
        assert_eq!(points["data"]["list"][0]["amount"], "+200");
        assert!(points["data"]["list"].as_array().unwrap().iter().all(|entry| entry["use_type"] == 1));
        let (_, money) = app.get(&demo, "/api/user/user_money_log?use_type=1").await;
        assert_eq!(
            (money["data"]["list"][0]["amount"].as_str(), money["data"]["list"][0]["note"].as_str()),
            (Some("+300.00"), Some("银行转账充值"))
        );
        let (_, future) = app.get(&demo, &format!("/api/user/red_packet_log?start_time={}", origin::now() + 3600)).await;
        assert_eq!(future["data"]["total"], 0, "the date filter applies");
        let (status, refused) = app.get(&demo, "/api/user/points_log?start_time=10&end_time=5").await;
        assert_eq!((status, refused["msg"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("开始时间不能晚于结束时间")));

        // Three messages, unread, the demo member's only; the operator's log names who.
        let (_, base) = app.get(&demo, "/api/user/base").await;
        assert_eq!(base["data"]["message_count"].as_i64().unwrap(), unread_before + 3);
        let (_, messages) = app.get(&demo, "/api/user/message?unread=1").await;
        let newest = messages["data"]["list"][0].clone();
        assert_eq!((newest["title"].as_str(), newest["kind_name"].as_str()), (Some("余额到账"), Some("资产消息")));
        let (_, theirs) = app.get(&other, "/api/user/message").await;
        assert_eq!(theirs["data"]["total"], 0);
        let message = newest["id"].as_i64().unwrap();
        let (status, _) = app.post(&other, &format!("/api/user/message/{message}/read"), &[]).await;
        assert_eq!(status, StatusCode::NOT_FOUND);
        let (_, read) = app.post(&demo, &format!("/api/user/message/{message}/read"), &[]).await;
        assert_eq!(read["data"]["unread"].as_i64().unwrap(), unread_before + 2);
        let (_, read) = app.post(&demo, "/api/user/message/read_all", &[]).await;
        assert_eq!(read["data"]["unread"], 0);
        let logged: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM audit_log WHERE member_id = $1 AND operator = 'tester'")
            .bind(id)
            .fetch_one(&app.db.pool)
            .await
            .unwrap();
        assert_eq!(logged, 1);
        let listed = admin(&app, &["members", "--search", "demo"]).await.unwrap();
        let row = listed.lines().find(|line| line.starts_with(&format!("{id}\t"))).unwrap_or_else(|| panic!("{listed}"));
        assert!(row.contains(wallet["data"]["red_packet"].as_str().unwrap()), "{row}");
        assert!(!admin(&app, &["members", "--search", "no-such-member"]).await.unwrap().contains("demo"));

        // The member centre adds it up.
        let (status, centre) = app.get(&demo, "/api/user/center").await;
        assert_eq!(status, StatusCode::OK, "{centre}");
        assert_eq!(centre["data"]["red_packet"], wallet["data"]["red_packet"]);
        assert_eq!(centre["data"]["orders"].as_array().unwrap().len(), 5);
        assert_eq!(centre["data"]["unread_messages"], 0);
        let (status, _) = app.get(&app.client(), "/api/user/center").await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);
    })
    .await;
}

#[tokio::test]
async fn coupons_and_vouchers_granted_are_listed() {
    on_both(|app| async move {
        let other = app.other_member().await;
        let id = member_id(&app, "other").await;
        let template: i64 = sqlx::query_scalar("SELECT MIN(id) FROM cash_vouchers").fetch_one(&app.db.pool).await.unwrap();
        admin(&app, &["grant", "voucher", "--member", &id.to_string(), "--template", &template.to_string(), "--count", "2"]).await.unwrap();
        let coupon: i64 = sqlx::query_scalar("SELECT MIN(id) FROM coupons").fetch_one(&app.db.pool).await.unwrap();
        admin(&app, &["grant", "coupon", "--member", &id.to_string(), "--template", &coupon.to_string()]).await.unwrap();
        assert!(admin(&app, &["grant", "coupon", "--member", &id.to_string(), "--template", "999999"]).await.is_err());
        let (status, vouchers) = app.get(&other, "/api/user/cash_voucher").await;
        assert_eq!(status, StatusCode::OK, "{vouchers}");
        assert_eq!(vouchers["data"]["total"], 2);
        assert_eq!(vouchers["data"]["count"]["unused"], 2);
        assert_eq!(vouchers["data"]["list"][0]["status_name"], "未使用");
        let (_, used) = app.get(&other, "/api/user/cash_voucher?status=1").await;
        assert_eq!(used["data"]["total"], 0);
        let (_, count) = app.get(&other, "/api/user/couponNum").await;
        assert_eq!(count["data"]["unused"], 1);
        let (_, centre) = app.get(&other, "/api/user/center").await;
        assert_eq!((centre["data"]["coupons"].as_i64(), centre["data"]["cash_vouchers"].as_i64()), (Some(1), Some(2)));
        // A coupon not valid yet is unused but not usable: the wallet and the centre count alike.
        sqlx::query("UPDATE member_coupons SET starts_at = $1 WHERE member_id = $2").bind(origin::now() + 86_400).bind(id).execute(&app.db.pool).await.unwrap();
        let (_, count) = app.get(&other, "/api/user/couponNum").await;
        let (_, centre) = app.get(&other, "/api/user/center").await;
        assert_eq!((count["data"]["unused"].as_i64(), count["data"]["usable"].as_i64(), centre["data"]["coupons"].as_i64()), (Some(1), Some(0), Some(0)));
        let (_, vouchers) = app.get(&other, "/api/user/cash_voucher").await;
        assert_eq!(vouchers["data"]["count"]["usable"], centre["data"]["cash_vouchers"]);
        let demo = app.demo().await;
        let (_, theirs) = app.get(&demo, "/api/user/cash_voucher").await;
        assert!(theirs["data"]["list"].as_array().unwrap().iter().all(|voucher| voucher["id"].as_i64().unwrap() > 0));
        let demo_vouchers: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM member_cash_vouchers m JOIN members u ON u.id = m.member_id WHERE u.username = 'demo' AND m.status = 0 AND m.expires_at > $1")
            .bind(origin::now())
            .fetch_one(&app.db.pool)
            .await
            .unwrap();
        assert_eq!(theirs["data"]["total"].as_i64().unwrap(), demo_vouchers, "the demo member sees their own only");
    })
    .await;
}

/// A multipart body with the certificate's fields and a file.
fn certificate_form(kind: &str, number: &str, expires_on: &str, file_name: &str, bytes: &[u8]) -> (String, Vec<u8>) {
    let boundary = "----shop-test-boundary";
    let mut body = Vec::new();
    for (name, value) in [("kind", kind), ("number", number), ("expires_on", expires_on)] {
        body.extend(format!("--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n{value}\r\n").as_bytes());
    }
    body.extend(
        format!(
            "--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"{file_name}\"\r\nContent-Type: image/png\r\n\r\n"
        )
        .as_bytes(),
    );
    body.extend(bytes);
    body.extend(format!("\r\n--{boundary}--\r\n").as_bytes());
    (format!("multipart/form-data; boundary={boundary}"), body)
}

async fn upload(app: &App, client: &Client, form: (String, Vec<u8>)) -> (StatusCode, Value) {
    let response = client.post(app.url("/api/user/zizhi")).header("content-type", form.0).body(form.1).send().await.unwrap();
    (response.status(), response.json().await.unwrap())
}

#[tokio::test]
async fn certificates_are_checked_kept_apart_and_reviewed() {
    on_both(|app| async move {
        let other = app.other_member().await;
        let demo = app.demo().await;
        let id = member_id(&app, "other").await;

        // Refused: a type that lies, too large, a path in the name, an unknown kind, a past date.
        let (status, refused) =
            upload(&app, &other, certificate_form("营业执照", "91330100", "", "licence.png", b"<html>not a png</html>")).await;
        assert_eq!((status, refused["msg"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("只能上传JPG、PNG或PDF文件")));
        let mut large = PNG.to_vec();
        large.resize(5 * 1024 * 1024 + 1, 0);
        let (status, refused) = upload(&app, &other, certificate_form("营业执照", "91330100", "", "big.png", &large)).await;
        assert_eq!((status, refused["msg"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("文件不能超过5MB")));
        let (status, refused) = upload(&app, &other, certificate_form("营业执照", "91330100", "", "../../shop.db", PNG)).await;
        assert_eq!((status, refused["msg"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("文件名不正确")));
        let (status, _) = upload(&app, &other, certificate_form("护照", "1", "", "a.png", PNG)).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        let (status, refused) = upload(&app, &other, certificate_form("营业执照", "1", "2001-01-01", "a.png", PNG)).await;
        assert_eq!((status, refused["msg"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("证件已过期，请上传有效证件")));
        let (_, none) = app.get(&other, "/api/user/zizhi").await;
        assert_eq!(none["data"]["list"].as_array().unwrap().len(), 0, "nothing refused was recorded");

        // Accepted: pending, its scan served to its member only.
        let (status, uploaded) = upload(&app, &other, certificate_form("营业执照", "91330100", "2099-12-31", "营业执照.png", PNG)).await;
        assert_eq!(status, StatusCode::OK, "{uploaded}");
        let certificate = uploaded["data"]["list"][0].clone();
        assert_eq!((certificate["status_name"].as_str(), certificate["scan_type"].as_str()), (Some("待审核"), Some("image/png")));
        let scan = certificate["scan"].as_str().unwrap().to_owned();
        let response = other.get(app.url(&scan)).send().await.unwrap();
        assert_eq!(response.status(), StatusCode::OK);
        assert_eq!(response.headers()["content-type"], "image/png");
        assert_eq!(response.headers()["cache-control"], "private, no-store");
        assert_eq!(response.bytes().await.unwrap().as_ref(), PNG);
        assert_eq!(demo.get(app.url(&scan)).send().await.unwrap().status(), StatusCode::NOT_FOUND, "not another member's");
        assert_eq!(app.client().get(app.url(&scan)).send().await.unwrap().status(), StatusCode::UNAUTHORIZED);

        // Reviewed: rejected with a reason, then a new scan and both required kinds approved.
        let first = certificate["id"].as_i64().unwrap();
        assert!(admin(&app, &["reject", &first.to_string(), "--reason", " "]).await.is_err(), "a rejection needs a reason");
        admin(&app, &["reject", &first.to_string(), "--reason", "扫描件不清晰"]).await.unwrap();
        let (_, rejected) = app.get(&other, "/api/user/zizhi").await;
        assert_eq!(
            (rejected["data"]["list"][0]["status"].as_i64(), rejected["data"]["list"][0]["reason"].as_str()),
            (Some(2), Some("扫描件不清晰"))
        );
        let (_, replaced) = upload(&app, &other, certificate_form("营业执照", "91330100", "", "licence.png", PNG)).await;
        assert_eq!(replaced["data"]["list"].as_array().unwrap().len(), 1, "a new scan replaces the kind's certificate");
        assert_eq!(replaced["data"]["list"][0]["status"], 0);
        let (_, second) =
            upload(&app, &other, certificate_form("药品经营许可证", "浙AA571", "2099-01-01", "drug.pdf", b"%PDF-1.4\n...")).await;
        let second =
            second["data"]["list"].as_array().unwrap().iter().find(|c| c["kind"] == "药品经营许可证").unwrap()["id"].as_i64().unwrap();
        admin(&app, &["approve", &first.to_string()]).await.unwrap();
        let (_, base) = app.get(&other, "/api/user/base").await;
        assert_eq!(base["data"]["is_passed"], 0, "one required kind is not enough");
        let out = admin(&app, &["approve", &second.to_string(), "--scope", "中成药,化学药制剂,中药饮片"]).await.unwrap();
        assert!(out.contains("the member is approved"), "{out}");
        let (_, base) = app.get(&other, "/api/user/base").await;
        assert_eq!(base["data"]["is_passed"], 1);
        let (_, scope) = app.get(&other, "/api/user/jyfw").await;
        assert_eq!(scope["data"]["list"], serde_json::json!(["化学药制剂", "中成药", "中药饮片"]), "classes in their order");
        // Approval is told once: two certificates approved, one message.
        let told: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM messages WHERE member_id = $1 AND title = '资质审核通过'")
            .bind(id)
            .fetch_one(&app.db.pool)
            .await
            .unwrap();
        assert_eq!(told, 1);
        let listed = admin(&app, &["qualifications", "--member", &id.to_string()]).await.unwrap();
        assert_eq!(listed.lines().filter(|line| line.contains("approved")).count(), 2, "{listed}");
    })
    .await;
}
