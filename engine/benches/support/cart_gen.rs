//! Deterministic carts of any size for benchmarks: every kind of line the rules know
//! (ladders of both types, flash sales, combinations, herbs, devices, preferred goods,
//! full-reduction lines, single-item free shipping, unbuyable and out-of-stock goods), and a
//! settlement for them (rules 11–19: coupons of both kinds and every scope, cash vouchers, red
//! packets and points).

use serde_json::{Value, json};

/// General goods three times in five, then Chinese herbs (2) and medical devices (3).
const GOODS_TYPES: [u64; 5] = [1, 1, 1, 2, 3];

/// A small linear congruential generator: the same cart on every machine.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, below: u64) -> u64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (self.0 >> 33) % below
    }
}

pub fn bench_cart(lines: usize) -> Value {
    let mut rng = Lcg(lines as u64);
    let items: Vec<Value> = (0..lines).map(|i| line(&mut rng, i)).collect();
    json!({
        "items": items,
        "shipping_data": { "shipping_amount": "800.00", "no_trans_order_amount": "35.5" },
        "activity_data": { "manjians": [
            { "amount": "2000", "reduce": "120", "title": "满2000减120" },
            { "amount": "500", "reduce": "20", "title": "满500减20" },
            { "amount": "1000", "reduce": "50", "title": "满1000减50" },
            { "amount": "99999999", "reduce": "9999", "title": "满99999999减9999" }
        ] }
    })
}

// The settlement below is not used by every file that includes this one (`src/wasm/tests.rs`
// uses `bench_cart` alone), hence the `allow(dead_code)`s.

/// The bench settlement's coupons and cash vouchers: the 1,000-line cart with 20
/// coupons and 5 cash vouchers.
#[allow(dead_code)]
pub const BENCH_COUPONS: usize = 20;
#[allow(dead_code)]
pub const BENCH_VOUCHERS: usize = 5;

/// The moment the bench settlement's coupons and vouchers are checked against (`now`).
#[allow(dead_code)]
pub const BENCH_NOW: i64 = 1_750_000_000;
#[allow(dead_code)]
const HOUR: i64 = 3_600;
#[allow(dead_code)]
const DAY: i64 = 86_400;

/// A coupon of the bench settlement: (kind, scope, threshold, reduce or rate, max_reduce,
/// starts_at, ends_at), the dates relative to `BENCH_NOW`.
#[allow(dead_code)]
type CouponRow = (u8, u8, &'static str, &'static str, Option<&'static str>, Option<i64>, Option<i64>);

/// A cash voucher of the bench settlement: (amount, threshold, starts_at, ends_at).
#[allow(dead_code)]
type VoucherRow = (&'static str, &'static str, Option<i64>, Option<i64>);

/// `bench_cart(lines)` with `bench_settlement(BENCH_COUPONS, BENCH_VOUCHERS)` as its settlement.
#[allow(dead_code)]
pub fn bench_settled_cart(lines: usize) -> Value {
    let mut cart = bench_cart(lines);
    cart["settlement"] = bench_settlement(BENCH_COUPONS, BENCH_VOUCHERS);
    cart
}

/// What the member holds at checkout, the same for every cart size: `coupons` coupons (both
/// kinds, all four scopes; some expired, one expiring exactly at `now`, some not yet valid, one
/// valid from exactly `now`; thresholds from 0 to 99,999,999, so that on every bench cart some
/// are reached and some not; equal values broken by `ends_at`, then by id), `vouchers` cash
/// vouchers (one sharing its id with a coupon, two of equal amount), red packets and points
/// (7 points a yuan) both used, their balances binding on the large carts and their rates on
/// the small; a shipping fee, which these carts never charge (their totals pass the cart's
/// free-shipping threshold). No `coupon_id` or `cash_voucher_id`: the best are picked (rules 13
/// and 14; on 1,000 lines three coupons tie at 3,000.00 and `ends_at`, then the id, decide).
/// Beyond 20 coupons or 5 vouchers the lists repeat with new ids.
#[allow(dead_code)]
pub fn bench_settlement(coupons: usize, vouchers: usize) -> Value {
    #[rustfmt::skip]
    const COUPONS: [CouponRow; 20] = [
        (1, 0, "100", "10", None, None, Some(30 * DAY)),
        (2, 0, "0", "0.98", Some("600"), None, Some(10 * DAY)),
        (1, 1, "5000", "600", None, None, Some(5 * DAY)),
        (2, 1, "20000", "0.95", Some("2500"), None, None),
        (1, 2, "1000", "12.345", None, None, None),
        (2, 2, "100000", "0.9", None, Some(HOUR), None),
        (1, 3, "500", "2500", None, None, Some(0)),
        (2, 3, "700000", "0.88", Some("2500"), Some(0), Some(20 * DAY)),
        (1, 0, "2000000", "2500", None, None, Some(5 * DAY)),
        (2, 0, "10000000", "0.985", None, None, None),
        (1, 1, "0", "88.888", None, None, Some(-DAY)),
        (2, 1, "500000", "0.8", Some("3000.005"), Some(-10 * DAY), Some(DAY)),
        (1, 2, "50000000", "50000", None, None, None),
        (2, 2, "300", "0.97", Some("1500"), None, None),
        (1, 3, "8000", "300", None, Some(DAY), None),
        (2, 3, "0", "0.99", Some("3000"), None, None),
        (1, 0, "50000", "3000", None, None, Some(DAY)),
        (2, 0, "1000000", "0.95", Some("4000"), None, Some(-HOUR)),
        (1, 1, "150", "150", None, None, None),
        (2, 3, "99999999", "0.5", None, None, None),
    ];
    const VOUCHERS: [VoucherRow; 5] = [
        ("50", "0", None, Some(7 * DAY)),
        ("500", "100000", None, Some(7 * DAY)),
        ("500", "20000", None, Some(3 * DAY)),
        ("2000.999", "40000000", Some(-DAY), None),
        ("5000", "1000", None, Some(-1)),
    ];
    let dated = |mut value: Value, starts_at: Option<i64>, ends_at: Option<i64>| {
        if let Some(starts_at) = starts_at {
            value["starts_at"] = json!(BENCH_NOW + starts_at);
        }
        if let Some(ends_at) = ends_at {
            value["ends_at"] = json!(BENCH_NOW + ends_at);
        }
        value
    };
    let coupons: Vec<Value> = (0..coupons)
        .map(|i| {
            let (kind, scope, threshold, off, max_reduce, starts_at, ends_at) = COUPONS[i % COUPONS.len()];
            let id = 501 + (i % COUPONS.len()) + 100 * (i / COUPONS.len());
            let mut coupon = json!({ "id": id, "kind": kind, "scope": scope, "threshold": threshold, "name": format!("优惠券 {id}") });
            if kind == 1 {
                coupon["reduce"] = json!(off);
            } else {
                coupon["rate"] = json!(off);
            }
            if let Some(max_reduce) = max_reduce {
                coupon["max_reduce"] = json!(max_reduce);
            }
            dated(coupon, starts_at, ends_at)
        })
        .collect();
    let vouchers: Vec<Value> = (0..vouchers)
        .map(|i| {
            let (amount, threshold, starts_at, ends_at) = VOUCHERS[i % VOUCHERS.len()];
            // The first shares its id with the 20th coupon: allowed (docs/pricing.md).
            let id = 520 + (i % VOUCHERS.len()) + 100 * (i / VOUCHERS.len());
            dated(json!({ "id": id, "amount": amount, "threshold": threshold, "name": format!("现金券 {id}") }), starts_at, ends_at)
        })
        .collect();
    json!({
        "now": BENCH_NOW,
        "coupons": coupons,
        "cash_vouchers": vouchers,
        "red_packet_balance": "8888.888",
        "use_red_packet": 1,
        "red_packet_max_rate": "0.03",
        "points_balance": 1_234_567,
        "use_points": 1,
        "points_per_yuan": 7,
        "points_max_rate": "0.05",
        "shipping_fee": "12.5",
    })
}

fn line(rng: &mut Lcg, i: usize) -> Value {
    let cents = 50 + rng.next(50_000);
    let price = format!("{}.{:02}", cents / 100, cents % 100);
    let kind = rng.next(20);
    let quantity = 1 + rng.next(60);
    let mut goods = json!({
        "id": 100_000 + i,
        "name": format!("阿莫西林胶囊 {i}"),
        "bzdw": "盒",
        "sccj": "华北制药股份有限公司",
        "ypgg": "0.25g*24粒",
        "is_buy": if kind == 7 { 0 } else { 1 },
        "number": if kind == 8 { 0 } else { 10 + rng.next(500) },
        "is_youx": u64::from(kind.is_multiple_of(5)),
        "type": GOODS_TYPES[rng.next(5) as usize],
        "is_dpby": u64::from(kind == 9),
        "qg_number": 30,
        "base_price": format!("{}.{:02}", (cents + 300) / 100, (cents + 300) % 100),
    });
    if kind < 10 {
        let step = cents / 20;
        goods["ladder_price"] = json!([
            { "number": 50, "price": format!("{}.{:03}", (cents - 3 * step) / 100, (cents - 3 * step) % 100 * 10 + 5) },
            { "number": 10, "price": format!("{}.{:02}", (cents - step) / 100, (cents - step) % 100) },
            { "number": 20, "price": ((cents - 2 * step) as f64) / 100.0 },
        ]);
        goods["ladder_price_type"] = json!(if kind.is_multiple_of(2) { 1 } else { 2 });
    }
    let mut item = json!({
        "id": 1 + i,
        "type": match kind { 10 | 11 => 1, 12 => 3, _ => 0 },
        "number": quantity,
        "price": price,
        "is_selected": u64::from(rng.next(10) != 0),
        "with_coupon": u64::from(!kind.is_multiple_of(3)),
        "goods_manjian_id": if kind.is_multiple_of(4) { 7 } else { 0 },
        "goods_manjian_amount": if kind.is_multiple_of(4) { "1.25" } else { "0" },
        "goods_price_id": 0,
        "ladder_price_id": 0,
        "is_yj": 0,
        "goods": goods.clone(),
    });
    if kind == 12 {
        goods["name"] = json!("感冒组合装");
        item["combination"] = goods;
    }
    item
}
