//! E-invoices on SQLite and PostgreSQL: requested for a paid order (普票, or 专票 with bank
//! details), once per order; issued by the operator for what was paid for the order's lines;
//! downloaded as a PDF by its member only.

use reqwest::StatusCode;

use crate::common::{add_to_cart, address_of, admin, ladder_goods, on_both, post_order};

#[tokio::test]
async fn an_invoice_is_requested_once_issued_for_what_was_paid_and_downloaded() {
    on_both(|app| async move {
        let demo = app.demo().await;
        let (goods, _) = ladder_goods(&app).await;
        let ids = add_to_cart(&app, &demo, goods, 12, &[]).await.to_string();
        let (_, list) = app.get(&demo, "/api/cart/list").await;
        let payable = list["data"]["quote"]["totals"]["payable"].as_str().unwrap().to_owned();
        let address = address_of(&app, "demo").await.to_string();
        let (_, placed) =
            post_order(&app, &demo, "invoice-1", &[("ids", &ids), ("address_id", &address), ("expected_payable", &payable)]).await;
        let order = placed["data"]["id"].as_i64().unwrap();
        let path = format!("/api/order/{order}/invoice");
        let ordinary =
            [("kind", "1"), ("title", "杭州仁心大药房连锁有限公司"), ("tax_no", "91330106ma2b3c4d5e"), ("email", "caigou@renxin.cn")];

        let (status, refused) = app.post(&demo, &path, &ordinary).await;
        assert_eq!((status, refused["msg"].as_str()), (StatusCode::CONFLICT, Some("未支付或已取消的订单不能开票")));
        let (status, _) = app.post(&demo, &format!("/api/order/{order}/pay"), &[("method", "balance")]).await;
        assert_eq!(status, StatusCode::OK);
        let (status, refused) = app.post(&demo, &path, &[("kind", "2"), ("title", "某药房"), ("tax_no", "123"), ("email", "x")]).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        let errors = refused["data"]["errors"].as_object().unwrap();
        for field in ["tax_no", "email", "bank", "bank_account", "registered_address"] {
            assert!(errors.contains_key(field), "{field}: {refused}");
        }
        let other = app.other_member().await;
        let (status, _) = app.post(&other, &path, &ordinary).await;
        assert_eq!(status, StatusCode::NOT_FOUND);

        let (status, requested) = app.post(&demo, &path, &ordinary).await;
        assert_eq!(status, StatusCode::OK, "{requested}");
        assert_eq!(
            (requested["data"]["status_name"].as_str(), requested["data"]["tax_no"].as_str()),
            (Some("待开票"), Some("91330106MA2B3C4D5E"))
        );
        assert_eq!(requested["data"]["pdf"], serde_json::Value::Null);
        let (status, _) = app.post(&demo, &path, &ordinary).await;
        assert_eq!(status, StatusCode::CONFLICT, "one request per order");
        let id = requested["data"]["id"].as_i64().unwrap();
        let response = demo.get(app.url(&format!("/api/invoices/{id}/pdf"))).send().await.unwrap();
        assert_eq!(response.status(), StatusCode::CONFLICT, "not issued yet");

        let out = admin(&app, &["issue-invoice", &id.to_string()]).await.unwrap();
        assert!(out.contains("issued invoice"), "{out}");
        assert!(admin(&app, &["issue-invoice", &id.to_string()]).await.is_err(), "once");
        let listed = admin(&app, &["invoices"]).await.unwrap();
        assert!(listed.lines().any(|line| line.starts_with(&format!("{id}\t")) && line.contains("issued")), "{listed}");
        assert!(!admin(&app, &["invoices", "--pending"]).await.unwrap().lines().any(|line| line.starts_with(&format!("{id}\t"))));
        let paid: i64 = sqlx::query_scalar("SELECT CAST(SUM(paid) AS BIGINT) FROM order_items WHERE order_id = $1")
            .bind(order)
            .fetch_one(&app.db.pool)
            .await
            .unwrap();
        let (_, invoices) = app.get(&demo, "/api/invoices?status=1").await;
        let issued = &invoices["data"]["list"][0];
        assert_eq!(issued["amount"], origin::money::text(paid).as_str(), "the amount paid for the order's lines");
        assert_eq!(issued["status_name"], "已开票");
        let pdf = issued["pdf"].as_str().unwrap().to_owned();
        let response = demo.get(app.url(&pdf)).send().await.unwrap();
        assert_eq!(response.status(), StatusCode::OK);
        assert_eq!(response.headers()["content-type"], "application/pdf");
        let invoice_no = issued["invoice_no"].as_str().unwrap();
        assert_eq!(response.headers()["content-disposition"], format!("inline; filename=\"invoice-{invoice_no}.pdf\"").as_str());
        assert_eq!(response.headers()["x-content-type-options"], "nosniff");
        let bytes = response.bytes().await.unwrap();
        assert!(bytes.starts_with(b"%PDF-"));
        // Its own number: 20 digits, the year's two and the province's, not the order's.
        let number = issued["invoice_no"].as_str().unwrap();
        let year = origin::civil_date(origin::now(), 8 * 3600).0 % 100;
        assert!(
            number.len() == 20 && number.starts_with(&format!("{year:02}33")) && number.bytes().all(|b| b.is_ascii_digit()),
            "{number}"
        );
        assert!(!number.contains(issued["order_no"].as_str().unwrap()));
        // Its lines as issued, each split by the engine at its goods' rate, adding up to the amount.
        let lines: Vec<(i64, i64, i64, i64, i64)> = sqlx::query_as(
            "SELECT l.number, l.net, l.tax, l.rate, g.vat_rate FROM invoice_lines l JOIN order_items i ON i.id = l.order_item_id \
             JOIN goods g ON g.id = i.goods_id WHERE l.invoice_id = $1",
        )
        .bind(id)
        .fetch_all(&app.db.pool)
        .await
        .unwrap();
        assert!(!lines.is_empty());
        assert_eq!(lines.iter().map(|line| line.1 + line.2).sum::<i64>(), paid);
        assert!(lines.iter().all(|line| line.3 == line.4 && line.0 > 0));
        let document = lopdf::Document::load_mem(&bytes).unwrap();
        let pages: Vec<u32> = document.get_pages().keys().copied().collect();
        let text: String = document.extract_text(&pages).unwrap().split_whitespace().collect();
        let words = documents::capitalised(&origin::money::text(paid)).unwrap();
        for expected in [number, "91330106MA2B3C4D5E", "价税合计", &words, &format!("{}%", lines[0].3)] {
            assert!(text.contains(expected), "{expected} in {text}");
        }
        // Issued is frozen: the goods' rate changing later changes nothing printed.
        sqlx::query("UPDATE goods SET vat_rate = 0 WHERE id IN (SELECT goods_id FROM order_items WHERE order_id = $1)")
            .bind(order)
            .execute(&app.db.pool)
            .await
            .unwrap();
        let again = demo.get(app.url(&pdf)).send().await.unwrap().bytes().await.unwrap();
        let document = lopdf::Document::load_mem(&again).unwrap();
        let text_again: String = document.extract_text(&pages).unwrap().split_whitespace().collect();
        assert_eq!(text_again, text);
        assert_eq!(other.get(app.url(&pdf)).send().await.unwrap().status(), StatusCode::NOT_FOUND);
        let (_, theirs) = app.get(&other, "/api/invoices").await;
        assert_eq!(theirs["data"]["total"], 0);
    })
    .await;
}
