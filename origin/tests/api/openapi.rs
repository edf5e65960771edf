//! The OpenAPI document: every route listed and served, every call's `data` described, and the
//! same document from `origin openapi`.

use crate::common::on_both;
use reqwest::StatusCode;
use serde_json::Value;

#[tokio::test]
async fn the_openapi_document_lists_every_route() {
    on_both(|app| async move {
        let client = app.client();
        let (status, document) = app.get(&client, "/api/openapi.json").await;
        assert_eq!(status, StatusCode::OK);
        let paths = document["paths"].as_object().unwrap();
        for path in [
            "/api/cart/list",
            "/api/order",
            "/api/order/{id}/pay",
            "/api/goods/list",
            "/api/user/register",
            "/api/favorite/cancel",
            "/api/focus/right",
        ] {
            assert!(paths.contains_key(path), "{path} is documented");
        }
        let operations: usize = paths.values().map(|item| item.as_object().unwrap().len()).sum();
        assert!(operations >= 40, "{operations} operations");
        // Operation ids are unique: the web app's generated types name operations by them.
        let mut ids: Vec<&str> = paths
            .values()
            .flat_map(|item| item.as_object().unwrap().values())
            .map(|operation| operation["operationId"].as_str().unwrap())
            .collect();
        ids.sort_unstable();
        let count = ids.len();
        ids.dedup();
        assert_eq!(ids.len(), count, "two operations share an id");
        // Every documented operation is served (none falls through to "接口不存在").
        for (path, item) in paths {
            let concrete = path
                .replace("{id}", "1")
                .replace("{value}", "13800000000")
                .replace("{page}", "1")
                .replace("{file}", "1.svg")
                .replace("{position}", "focus")
                .replace("{payment_no}", "P1")
                .replace("{photo}", "1");
            for method in item.as_object().unwrap().keys() {
                let request = match method.as_str() {
                    "get" => client.get(app.url(&concrete)),
                    "post" => client.post(app.url(&concrete)).form(&[("x", "1")]),
                    "put" => client.put(app.url(&concrete)).form(&[("x", "1")]),
                    "delete" => client.delete(app.url(&concrete)),
                    other => panic!("unexpected method {other}"),
                };
                let body: Value = request.send().await.unwrap().json().await.unwrap_or(Value::Null);
                assert_ne!(body["msg"], "接口不存在", "{method} {path}");
            }
        }
    })
    .await;
}

/// The schema a `$ref` names, or the schema itself.
fn resolve<'a>(document: &'a Value, schema: &'a Value) -> &'a Value {
    match schema["$ref"].as_str() {
        Some(reference) => {
            let name = reference.strip_prefix("#/components/schemas/").unwrap_or_else(|| panic!("a schema reference: {reference}"));
            let target = &document["components"]["schemas"][name];
            assert!(target.is_object(), "{reference} is in the document");
            resolve(document, target)
        }
        None => schema,
    }
}

/// Whether a schema says what a value is (a type, a reference, or a choice or union of such),
/// with the properties of an object and the items of an array; `where` names it in messages.
fn assert_described(document: &Value, schema: &Value, at: &str) {
    let schema = resolve(document, schema);
    for union in ["oneOf", "allOf", "anyOf"] {
        if let Some(parts) = schema[union].as_array() {
            assert!(!parts.is_empty(), "{at}: an empty {union}");
            for (n, part) in parts.iter().enumerate() {
                assert_described(document, part, &format!("{at}/{union}/{n}"));
            }
            return;
        }
    }
    let kinds: Vec<&str> = match &schema["type"] {
        Value::String(kind) => vec![kind.as_str()],
        Value::Array(kinds) => kinds.iter().filter_map(Value::as_str).collect(),
        other => panic!("{at}: no type in {schema} ({other})"),
    };
    if kinds.contains(&"object") {
        let properties = schema["properties"].as_object().unwrap_or_else(|| panic!("{at}: an object without properties: {schema}"));
        assert!(!properties.is_empty(), "{at}: an object without properties");
    }
    if kinds.contains(&"array") {
        assert_described(document, &schema["items"], &format!("{at}/items"));
    }
}

/// The properties of the (resolved) object schema, its `allOf` parts' included.
fn properties(document: &Value, schema: &Value) -> Vec<String> {
    let schema = resolve(document, schema);
    let mut names: Vec<String> =
        schema["properties"].as_object().map(|properties| properties.keys().cloned().collect()).unwrap_or_default();
    for part in schema["allOf"].as_array().into_iter().flatten() {
        names.extend(properties(document, part));
    }
    names
}

#[tokio::test]
async fn every_call_documents_its_data() {
    on_both(|app| async move {
        let client = app.client();
        let (status, document) = app.get(&client, "/api/openapi.json").await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(document, serde_json::to_value(origin::http::openapi_document()).unwrap(), "the served document is the library's");
        let mut described = 0;
        for (path, item) in document["paths"].as_object().unwrap() {
            for (method, operation) in item.as_object().unwrap() {
                let at = format!("{method} {path}");
                let ok = &operation["responses"]["200"];
                let content = ok["content"].as_object().unwrap_or_else(|| panic!("{at}: its 200 answer has no content"));
                if path.starts_with("/api/images/pictures/") {
                    assert_eq!(content["image/jpeg"]["schema"]["type"], "string", "{at}: an uploaded picture, as JPEG");
                    continue;
                }
                if path.starts_with("/api/images/") {
                    assert_eq!(content["image/svg+xml"]["schema"]["type"], "string", "{at}");
                    continue;
                }
                // A certificate's scan as uploaded, and the payment provider's plain `success`.
                if path == "/api/user/zizhi/{id}/scan"
                    || path == "/api/admin/certificates/{id}/scan"
                    || (path == "/api/admin/lots/{id}/report" && method == "get")
                {
                    assert!(["image/jpeg", "image/png", "application/pdf"].iter().all(|kind| content.contains_key(*kind)), "{at}");
                    continue;
                }
                if path == "/api/invoices/{id}/pdf"
                    || path == "/api/lot/{id}/report"
                    || path == "/api/order/{id}/shipment/{shipment}/note.pdf"
                    || path == "/api/admin/orders/{order}/shipments/{shipment}/note.pdf"
                {
                    assert_eq!(content["application/pdf"]["schema"]["type"], "string", "{at}");
                    continue;
                }
                if path == "/api/after_sales/{id}/photo/{photo}"
                    || path == "/api/return/{id}/photo/{photo}"
                    || path == "/api/user/feedback/{id}/photo/{photo}"
                {
                    assert!(["image/jpeg", "image/png"].iter().all(|kind| content.contains_key(*kind)), "{at}");
                    continue;
                }
                if path == "/api/admin/orders/export" || path == "/api/admin/members/export" || path == "/api/admin/goods/export" {
                    let xlsx = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
                    assert_eq!(content[xlsx]["schema"]["type"], "string", "{at}");
                    continue;
                }
                if path == "/api/payment/notify" {
                    assert_eq!(content["text/plain"]["schema"]["type"], "string", "{at}");
                    continue;
                }
                let envelope = resolve(&document, &content["application/json"]["schema"]);
                for field in ["code", "msg", "data"] {
                    assert!(envelope["properties"][field].is_object(), "{at}: the envelope has {field}");
                }
                assert_described(&document, &envelope["properties"]["data"], &format!("{at} data"));
                for range in ["4XX", "5XX"] {
                    assert_eq!(operation["responses"][range]["$ref"], "#/components/responses/Error", "{at} {range}");
                }
                described += 1;
            }
        }
        assert!(described >= 40, "{described} calls describe their data");
        let error = resolve(&document, &document["components"]["responses"]["Error"]["content"]["application/json"]["schema"]);
        assert_eq!(properties(&document, error), ["code", "data", "msg"]);

        let data = |path: &str, method: &str| -> Value {
            let envelope = &document["paths"][path][method]["responses"]["200"]["content"]["application/json"]["schema"];
            resolve(&document, &resolve(&document, envelope)["properties"]["data"]).clone()
        };
        let home = data("/api/index", "get");
        let fields = properties(&document, &home);
        for field in ["rnss", "nav", "category", "category_yx", "category_zy", "category_qx", "brand", "timestamp"] {
            assert!(fields.iter().any(|name| name == field), "home data has {field}: {fields:?}");
        }
        assert_eq!(home["properties"]["timestamp"]["type"], "integer");
        assert_eq!(resolve(&document, &home["properties"]["nav"]["items"])["properties"]["url"]["type"], "string");
        // Money is written as strings: goods cards (null while prices are hidden from the
        // viewer), the cart and the engine's quote.
        let card = &document["components"]["schemas"]["Card"];
        assert_eq!(card["properties"]["price"]["type"], serde_json::json!(["string", "null"]));
        let cart = data("/api/cart/list", "get");
        assert!(properties(&document, &cart).iter().any(|name| name == "quote"));
        let quote = resolve(&document, &cart["properties"]["quote"]);
        let payable = &resolve(&document, &quote["properties"]["totals"])["properties"]["payable"];
        assert_eq!(resolve(&document, payable)["type"], "string");
        let line = resolve(&document, &resolve(&document, &cart["properties"]["data"])["items"]);
        assert_eq!(line["properties"]["price"]["type"], "string");
        let detail = data("/api/goods/detail/{id}", "get");
        let fields = properties(&document, &detail);
        for field in ["price", "ladder_price", "category_path", "manjian", "is_favorite"] {
            assert!(fields.iter().any(|name| name == field), "goods detail has {field}: {fields:?}");
        }
        let logout = data("/api/user/logout", "delete");
        assert_eq!(logout["type"], "null");
    })
    .await;
}

#[test]
fn origin_openapi_prints_the_document() {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_origin"))
        .arg("openapi")
        // No database is needed: one that cannot be reached shows it is not asked.
        .env("DATABASE_URL", "postgres://nobody@127.0.0.1:1/none")
        .output()
        .expect("the origin binary runs");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let printed: Value = serde_json::from_slice(&output.stdout).expect("standard output is the JSON document and nothing else");
    assert_eq!(printed, serde_json::to_value(origin::http::openapi_document()).unwrap());
    assert!(printed["paths"]["/api/cart/list"].is_object());
}

/// The engine's schemas in the document are its contract's (`engine::contract`, which the
/// engine's own tests hold to what it reads and writes), unchanged; and what the origin writes
/// as the engine's input (`cart/input`, the checkout's settlement input) reads as that contract,
/// every field it writes named there.
#[test]
fn the_engine_schemas_are_the_engines_contract() {
    let document = serde_json::to_value(origin::http::openapi_document()).unwrap();
    let contract: Value = serde_json::from_str(&engine::contract::document()).unwrap();
    let schemas = &document["components"]["schemas"];
    for name in ["CartQuote", "LineQuote", "Settlement", "CartInput", "CartItemInput", "GoodsInput", "SettlementInput", "CouponInput"] {
        assert!(schemas.get(name).is_some(), "{name} is not in the document");
    }
    for (name, schema) in contract["components"]["schemas"].as_object().unwrap() {
        if let Some(ours) = schemas.get(name) {
            assert_eq!(ours, schema, "{name} differs from the engine's contract");
        }
    }
    let cart = engine::cart_from_json(
        r#"{"items": [{"id": 1, "number": 3, "price": "10", "is_selected": 1, "with_coupon": 1,
            "goods": {"id": 9, "is_buy": 1, "number": 99, "is_dpby": 1, "qg_number": 2, "ladder_price_type": 1,
                      "ladder_price": [{"number": 2, "price": "9"}, {"number": 5, "price": "8"}]}}],
            "activity_data": {"manjians": [{"amount": "100", "reduce": "10"}]},
            "shipping_data": {"shipping_amount": "800", "no_trans_order_amount": "0"},
            "settlement": {"now": 100, "coupons": [{"id": 1, "kind": 2, "rate": "0.9", "max_reduce": "5", "starts_at": 1, "ends_at": 999}],
                           "cash_vouchers": [{"id": 2, "amount": "1", "starts_at": 1, "ends_at": 999}], "cash_voucher_id": 2,
                           "coupon_id": 1, "red_packet_balance": "1", "use_red_packet": 1, "points_balance": 10, "use_points": 1,
                           "shipping_fee": "10", "red_packet_max_rate": "0.1", "points_per_yuan": 100, "points_max_rate": "0.1"}}"#,
    )
    .unwrap();
    let input = serde_json::to_value(&cart).unwrap();
    let _: engine::contract::CartInput = serde_json::from_value(input.clone()).expect("the written input reads as the contract");
    let named = |value: &Value, name: &str| {
        let properties = properties(&document, &schemas[name]);
        for key in value.as_object().unwrap().keys() {
            assert!(properties.contains(key), "{name}: `{key}` is written but not in the schema");
        }
    };
    named(&input, "CartInput");
    named(&input["items"][0], "CartItemInput");
    named(&input["items"][0]["goods"], "GoodsInput");
    named(&input["settlement"], "SettlementInput");
    named(&input["settlement"]["coupons"][0], "CouponInput");
    named(&input["settlement"]["cash_vouchers"][0], "CashVoucherInput");
}
