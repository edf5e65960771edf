//! Every request described in the OpenAPI document: each write that reads a body names its
//! typed form as the operation's `requestBody`, and each list that reads a query names its
//! parameters, so that the web app's request types can be generated with its answer types.

use serde_json::Value;

/// The writes that read no body: the path names all they act on (an id), or they act on the
/// member alone.
const BODYLESS: [(&str, &str); 31] = [
    ("delete", "/api/admin/blocks/{kind}/{id}"),
    ("delete", "/api/admin/goods/{id}/pictures/{picture}"),
    ("delete", "/api/admin/logout"),
    ("post", "/api/admin/flash-sales/{id}/end"),
    ("post", "/api/admin/invoices/{id}/issue"),
    ("post", "/api/admin/manjian/{id}/end"),
    ("post", "/api/admin/cashback/{id}/end"),
    ("post", "/api/admin/draws/{id}/end"),
    ("post", "/api/admin/activities/{id}/end"),
    ("post", "/api/admin/returns/{id}/receive"),
    ("post", "/api/admin/welfare/end"),
    ("post", "/api/after_sales/{id}/resolve"),
    ("post", "/api/cart/next_hint"),
    ("post", "/api/cart/quick_add/{id}"),
    ("post", "/api/coupon/{id}/claim"),
    ("post", "/api/kxzq/apply"),
    ("post", "/api/order/{id}/buy_again"),
    ("post", "/api/order/{id}/cancel"),
    ("post", "/api/order/{id}/pay_online"),
    ("post", "/api/order/{id}/receive"),
    ("post", "/api/points_orders/{id}/receive"),
    ("post", "/api/return/{id}/withdraw"),
    ("delete", "/api/user/address/{id}"),
    ("post", "/api/user/address/{id}/default"),
    ("delete", "/api/user/logout"),
    ("post", "/api/user/message/read_all"),
    ("post", "/api/user/message/{id}/read"),
    ("delete", "/api/user/stores/{id}"),
    ("post", "/api/user/stores/{id}/switch"),
    ("delete", "/api/user/unbind_wechat"),
    ("post", "/api/user/wechat/authorize"),
];

/// The wire formats of request bodies: forms (§7), and the uploads' multipart forms.
const FORMATS: [&str; 2] = ["application/x-www-form-urlencoded", "multipart/form-data"];

fn document() -> Value {
    serde_json::to_value(origin::http::openapi_document()).unwrap()
}

/// Every write of the document, as `(method, path, operation)`.
fn writes(document: &Value) -> Vec<(String, String, Value)> {
    let mut writes = Vec::new();
    for (path, item) in document["paths"].as_object().unwrap() {
        for (method, operation) in item.as_object().unwrap() {
            if ["post", "put", "patch", "delete"].contains(&method.as_str()) {
                writes.push((method.clone(), path.clone(), operation.clone()));
            }
        }
    }
    writes
}

#[test]
fn every_write_that_reads_a_body_describes_it() {
    let document = document();
    let writes = writes(&document);
    let schemas = document["components"]["schemas"].as_object().unwrap();
    let mut missing = Vec::new();
    for (method, path, operation) in &writes {
        let bodyless = BODYLESS.contains(&(method.as_str(), path.as_str()));
        let body = &operation["requestBody"];
        match (bodyless, body.is_null()) {
            (true, true) => {}
            (true, false) => panic!("{method} {path} is listed as reading no body, but describes one"),
            (false, true) => missing.push(format!("{method} {path}")),
            (false, false) => {
                let content = body["content"].as_object().unwrap();
                assert!(
                    !content.is_empty() && content.keys().all(|format| FORMATS.contains(&format.as_str())),
                    "{method} {path}: {content:?}"
                );
                for media in content.values() {
                    let reference = media["schema"]["$ref"].as_str().unwrap_or_else(|| panic!("{method} {path}: a named schema"));
                    let name = reference.trim_start_matches("#/components/schemas/");
                    assert!(schemas.contains_key(name), "{method} {path}: {name} is in the document");
                }
            }
        }
    }
    assert!(missing.is_empty(), "writes that read a body without describing it: {missing:?}");
    for (method, path) in BODYLESS {
        assert!(writes.iter().any(|(m, p, _)| m == method && p == path), "{method} {path} is a write of the document");
    }
    let described = writes.iter().filter(|(_, _, operation)| !operation["requestBody"].is_null()).count();
    assert!(described * 100 >= writes.len() * 60, "{described} of {} writes describe their body", writes.len());
}

#[test]
fn forms_keep_their_wire_names() {
    let document = document();
    let schema = |name: &str| document["components"]["schemas"][name].clone();
    let properties = |name: &str| {
        let schema = schema(name);
        let mut names: Vec<String> =
            schema["properties"].as_object().map(|properties| properties.keys().cloned().collect()).unwrap_or_default();
        names.sort();
        names
    };
    assert_eq!(properties("CartAddForm"), ["combination_id", "goods_id", "goods_price_id", "is_yj", "ladder_price_id", "number", "type"]);
    assert_eq!(properties("SelectForm"), ["ids", "is_selected"]);
    assert_eq!(schema("SelectForm")["properties"]["ids"]["type"], "array");
    assert_eq!(
        properties("OrderFormFields"),
        ["cash_voucher_id", "coupon_id", "expected_due", "expected_payable", "ids", "use_points", "use_red_packet"]
    );
    // A login is by password or by code.
    assert_eq!(schema("LoginForm")["oneOf"].as_array().map(Vec::len), Some(2));
}

#[test]
fn lists_describe_their_query() {
    let document = document();
    let parameters = |path: &str| -> Vec<String> {
        document["paths"][path]["get"]["parameters"]
            .as_array()
            .map(|parameters| {
                parameters
                    .iter()
                    .filter(|parameter| parameter["in"] == "query")
                    .map(|parameter| parameter["name"].as_str().unwrap().to_owned())
                    .collect()
            })
            .unwrap_or_default()
    };
    assert_eq!(parameters("/api/favorite"), ["page"]);
    assert_eq!(parameters("/api/draw"), ["id"]);
}
