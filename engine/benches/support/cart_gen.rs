//! Deterministic carts of any size for benchmarks: every kind of line the rules know
//! (ladders of both types, flash sales, combinations, herbs, devices, preferred goods,
//! full-reduction lines, single-item free shipping, unbuyable and out-of-stock goods).

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
