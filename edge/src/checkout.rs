//! What the edge decides about `POST /api/cart/checkout` and `POST /api/order`
//! (`docs/api.md`, "Orders and Idempotency-Key"), as plain functions of bytes in and an answer
//! out: the Worker only fetches and sends.
//!
//! The edge reads the member's cart from the origin (`GET /api/cart/input`, the member's own
//! cookie, with the member's coupons, vouchers, balances and the shop's settlement settings),
//! quotes and settles the chosen lines with the member's choices (`engine::checkout::check`,
//! the same function the origin runs in its order transaction) and either refuses with the
//! shop's 422 envelope or lets the request through with its signed check.

use engine::CartQuote;
use engine::checkout::{self, Expected, Refusal};
use serde::Deserialize;
use serde_json::value::RawValue;

use order_check::form::{Choices, FieldError, OrderForm};

use crate::envelope::{self, Answer};

/// The fields of a checkout or order form the edge checks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Form {
    /// The chosen cart line ids, as the origin reads them (`order_check::form`).
    pub ids: Vec<i64>,
    /// `expected_payable` as posted, trimmed: what the buyer was shown.
    pub expected_payable: String,
    /// The settlement's choices and expected due as signed (`OrderForm::settlement_text`).
    pub settlement: String,
    choices: Choices,
    expected: Expected,
}

/// Reads a form-encoded body. Without ids, with a bad id, without a valid `expected_payable`,
/// with a bad choice or a bad `expected_due`, the answer is the 422 the buyer sees.
pub fn read_form(body: &[u8]) -> Result<Form, Answer> {
    let refuse = |error: FieldError| envelope::invalid(error.field, error.message);
    let form = OrderForm::read(form_urlencoded::parse(body)).map_err(refuse)?;
    let payable = form.required().map_err(refuse)?;
    let due = form.expected_due().map_err(refuse)?;
    Ok(Form {
        settlement: form.settlement_text(),
        choices: form.choices,
        expected: Expected { payable: Some(payable), due },
        ids: form.ids,
        expected_payable: form.expected_payable.unwrap_or_default(),
    })
}

/// What the edge does with a checked request.
#[derive(Debug)]
pub enum Verdict {
    /// Valid: forward it to the origin, signed; this is the edge's quote of the chosen lines.
    Pass(Box<CartQuote>),
    /// Answer this instead; the origin never sees the request.
    Refuse(Answer),
    /// The origin refused to show the cart (not logged in, …): answer what it answered.
    Relay,
}

/// The origin's envelope as the edge reads it: the code, and `data` as it came, read only once
/// the code says it is what was asked for.
#[derive(Deserialize)]
struct Envelope<'a> {
    code: i64,
    #[serde(borrow)]
    data: Option<&'a RawValue>,
}

/// Decides on `form` given the origin's answer to `GET /api/cart/input` for the same member:
/// the cart as the engine's input, the same values `cart/list` shows and quotes.
pub fn decide(form: &Form, cart_status: u16, cart_body: &[u8]) -> Verdict {
    let Ok(answer) = serde_json::from_slice::<Envelope>(cart_body) else {
        return if cart_status == 200 { Verdict::Refuse(envelope::busy()) } else { Verdict::Relay };
    };
    if cart_status != 200 || answer.code != 10000 {
        return Verdict::Relay;
    }
    let Some(Ok(mut cart)) = answer.data.map(|data| engine::cart_from_json(data.get())) else {
        return Verdict::Refuse(envelope::busy());
    };
    // The member's accounts as the origin holds them, with the member's choices.
    if let Some(settlement) = &mut cart.settlement {
        form.choices.apply(settlement);
    }
    match checkout::check(&cart, &form.ids, form.expected) {
        Ok(quote) => Verdict::Pass(Box::new(quote)),
        Err(Refusal::Invalid(_)) => Verdict::Refuse(envelope::busy()),
        Err(refusal) => Verdict::Refuse(envelope::invalid(refusal.field(), refusal.message())),
    }
}

/// The edge's quote as the preview's `X-Edge-Quote`: its summary (totals, counts, tiers,
/// shipping) as JSON, the same members `cart/list`'s `quote` has beside its lines, and the
/// amount due it settled (`due`, when settled), so that the buyer's page and the tests can see
/// both agree. A header, so that the preview itself passes through the edge as the origin sent
/// it, compressed or not, without being read. ASCII only: money is digits and points.
pub fn quote_header(quote: &CartQuote) -> Option<String> {
    let mut summary = serde_json::to_value(&quote.summary).ok()?;
    if let (Some(settlement), Some(object)) = (&quote.settlement, summary.as_object_mut()) {
        object.insert("due".into(), serde_json::Value::String(settlement.due.to_string()));
    }
    serde_json::to_string(&summary).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    fn line(id: i64, number: i64, price: &str, is_buy: i64, stock: i64) -> Value {
        json!({ "id": id, "number": number, "price": price, "is_selected": 1, "goods": { "id": id * 10, "is_buy": is_buy, "number": stock } })
    }

    fn cart_list(lines: Vec<Value>) -> Vec<u8> {
        json!({ "code": 10000, "msg": "ok", "data": {
            "items": lines,
            "shipping_data": { "shipping_amount": "800.00", "no_trans_order_amount": "0" },
            "activity_data": { "manjians": [] }
        } })
        .to_string()
        .into_bytes()
    }

    fn standard_cart() -> Vec<u8> {
        cart_list(vec![line(1, 2, "10.00", 1, 5), line(2, 3, "1.50", 1, 9), line(3, 1, "3.00", 0, 5), line(4, 7, "2.00", 1, 6)])
    }

    fn form(body: &str) -> Form {
        read_form(body.as_bytes()).expect("a valid form")
    }

    fn refused(verdict: Verdict) -> (u16, Value) {
        match verdict {
            Verdict::Refuse(answer) => (answer.status, serde_json::from_str(&answer.body).unwrap()),
            other => panic!("expected a refusal, got {other:?}"),
        }
    }

    #[test]
    fn ids_come_comma_separated_or_repeated() {
        assert_eq!(form("ids=1,2&ids[]=3&ids=4&expected_payable=+24.50+").ids, [1, 2, 3, 4]);
        assert_eq!(form("ids=1&expected_payable=+24.50+").expected_payable, "24.50");
        assert_eq!(form("ids%5B%5D=7&expected_payable=1").ids, [7]);
    }

    #[test]
    fn bad_forms_answer_422_in_chinese() {
        for (body, field, message) in [
            ("expected_payable=1", "ids", "请选择要结算的商品"),
            ("ids=&expected_payable=1", "ids", "请选择要结算的商品"),
            ("ids=1,x&expected_payable=1", "ids", "编号格式不正确"),
            ("ids=1", "expected_payable", "缺少应付金额，请刷新购物车后重试"),
            ("ids=1&expected_payable=", "expected_payable", "缺少应付金额，请刷新购物车后重试"),
            ("ids=1&expected_payable=12元", "expected_payable", "应付金额格式不正确"),
        ] {
            let answer = read_form(body.as_bytes()).expect_err(body);
            assert_eq!(answer.status, 422, "{body}");
            let envelope: Value = serde_json::from_str(&answer.body).unwrap();
            assert_eq!(envelope["code"], 422);
            assert_eq!(envelope["msg"], message, "{body}");
            assert_eq!(envelope["data"]["errors"][field][0], message, "{body}");
        }
    }

    #[test]
    fn a_valid_order_passes_with_the_engines_quote_of_the_chosen_lines() {
        // 2 × 10.00 + 3 × 1.50 = 24.50, under the free-shipping threshold.
        let Verdict::Pass(quote) = decide(&form("ids=2,1&expected_payable=24.5"), 200, &standard_cart()) else { panic!("should pass") };
        assert_eq!(quote.summary.totals.payable.to_string(), "24.50");
        assert_eq!(quote.lines.len(), 2);
    }

    #[test]
    fn each_kind_of_bad_order_is_refused() {
        let cart = standard_cart();
        for (body, field, message) in [
            ("ids=1,99&expected_payable=20", "ids", "购物车中没有该商品，请刷新购物车后重试"),
            ("ids=3&expected_payable=3", "ids", "部分商品暂不可购买，请刷新购物车后重试"),
            ("ids=4&expected_payable=14", "ids", "部分商品库存不足，请修改数量后重试"),
            ("ids=1&expected_payable=19.99", "expected_payable", "商品价格已变动，请刷新购物车后重试"),
        ] {
            let (status, envelope) = refused(decide(&form(body), 200, &cart));
            assert_eq!(status, 422, "{body}");
            assert_eq!(envelope["msg"], message, "{body}");
            assert_eq!(envelope["data"]["errors"][field][0], message, "{body}");
        }
    }

    /// The standard cart with the member's accounts: one 满减 coupon (id 7) for 20.00 of
    /// coupon lines, one voucher, red packets and points.
    fn settled_cart() -> Vec<u8> {
        let mut cart: Value = serde_json::from_slice(&standard_cart()).unwrap();
        for item in cart["data"]["items"].as_array_mut().unwrap() {
            item["with_coupon"] = json!(1);
        }
        cart["data"]["settlement"] = json!({
            "now": 1000,
            "coupons": [{ "id": 7, "kind": 1, "reduce": "2", "threshold": "20" }, { "id": 8, "kind": 1, "reduce": "5", "threshold": "100" }],
            "cash_vouchers": [{ "id": 9, "amount": "1", "ends_at": 2000 }],
            "red_packet_balance": "3", "red_packet_max_rate": "0.1", "points_balance": 50, "points_per_yuan": 100, "points_max_rate": "0.1"
        });
        cart.to_string().into_bytes()
    }

    #[test]
    fn orders_are_settled_with_the_members_choices() {
        let cart = settled_cart();
        // Lines 1 and 2: 24.50; the best coupon (7, 2.00 off) and the voucher (1.00): due 21.50.
        let Verdict::Pass(quote) = decide(&form("ids=1,2&expected_payable=24.50&expected_due=21.50"), 200, &cart) else { panic!() };
        assert_eq!(quote.settlement.as_ref().unwrap().due.to_string(), "21.50");
        let header: Value = serde_json::from_str(&quote_header(&quote).unwrap()).unwrap();
        assert_eq!(header["due"], "21.50");
        // No voucher, red packets: 10 % of 22.50 is 2.25, the balance 3.00 allows it.
        let body = "ids=1,2&expected_payable=24.50&cash_voucher_id=0&use_red_packet=1&expected_due=20.25";
        assert!(matches!(decide(&form(body), 200, &cart), Verdict::Pass(_)));
        for (body, field, message) in [
            ("ids=1,2&expected_payable=24.50&expected_due=24.50", "expected_due", "应付金额已变动，请确认后重新提交"),
            ("ids=1,2&expected_payable=24.50&coupon_id=8", "coupon_id", "所选优惠券不可用，请重新选择"),
            ("ids=1,2&expected_payable=24.50&coupon_id=99", "coupon_id", "所选优惠券不可用，请重新选择"),
            ("ids=1,2&expected_payable=24.50&cash_voucher_id=3", "cash_voucher_id", "所选现金券不可用，请重新选择"),
        ] {
            let (status, envelope) = refused(decide(&form(body), 200, &cart));
            assert_eq!(status, 422, "{body}");
            assert_eq!(envelope["data"]["errors"][field][0], message, "{body}");
        }
        let answer = read_form(b"ids=1&expected_payable=1&expected_due=abc").expect_err("a bad due");
        assert_eq!(answer.status, 422);
        assert!(answer.body.contains("实付金额格式不正确"));
        assert_eq!(
            form("ids=1&expected_payable=1&coupon_id=7&use_points=1").settlement,
            "coupon=7;voucher=best;red_packet=0;points=1;due="
        );
    }

    #[test]
    fn the_origins_refusal_to_show_the_cart_is_relayed() {
        let login = r#"{"code":10001,"msg":"请先登录","data":null}"#.as_bytes();
        assert!(matches!(decide(&form("ids=1&expected_payable=1"), 401, login), Verdict::Relay));
        assert!(matches!(decide(&form("ids=1&expected_payable=1"), 502, b"<html>bad gateway</html>"), Verdict::Relay));
    }

    #[test]
    fn a_cart_the_edge_cannot_read_is_a_fault_not_a_pass() {
        for body in [&b"not json"[..], br#"{"code":10000,"data":{"items":[{"id":1}]}}"#] {
            let (status, envelope) = refused(decide(&form("ids=1&expected_payable=1"), 200, body));
            assert_eq!(status, 502);
            assert_eq!(envelope["msg"], "系统繁忙，请稍候再试");
        }
    }

    #[test]
    fn the_preview_carries_the_edges_quote_summary_in_a_header() {
        let Verdict::Pass(quote) = decide(&form("ids=1&expected_payable=20"), 200, &standard_cart()) else { panic!() };
        let header = quote_header(&quote).unwrap();
        assert!(header.is_ascii(), "a valid header value");
        let summary: Value = serde_json::from_str(&header).unwrap();
        assert_eq!(summary["totals"]["payable"], "20.00");
        assert_eq!(summary["counts"]["selected"], 1);
        assert!(summary.get("lines").is_none(), "the summary, not the lines");
    }
}
