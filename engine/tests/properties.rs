//! Properties that hold for every cart, checked on generated ones (proptest).

#![cfg(not(target_arch = "wasm32"))]

#[path = "support/mangle.rs"]
mod mangle;

use engine::{CartInput, CartSession, cart_from_json, cart_from_value, quote};
use mangle::replace_somewhere;
use proptest::prelude::*;
use serde_json::{Value, json};

fn money() -> impl Strategy<Value = Value> {
    prop_oneof![
        (0u64..1_000_000, 0u32..4).prop_map(|(units, scale)| {
            let text = format!("{}", units as f64 / 10f64.powi(scale as i32));
            json!(text)
        }),
        (0u64..100_000).prop_map(|cents| json!(format!("{}.{:02}", cents / 100, cents % 100))),
        (0u64..100_000).prop_map(|cents| json!(cents as f64 / 100.0)),
        Just(json!("0")),
    ]
}

fn goods() -> impl Strategy<Value = Value> {
    (
        (1i64..1000, 0u8..2, -5i64..200, any::<bool>(), 0i64..5),
        (any::<bool>(), 0i64..60, proptest::option::of(money())),
        proptest::collection::vec((1u32..80, money()), 0..5),
        0i64..3,
    )
        .prop_map(|((id, is_buy, stock, youx, kind), (dpby, qg, base), ladder, ladder_type)| {
            let ladder: Vec<Value> = ladder.into_iter().map(|(number, price)| json!({ "number": number, "price": price })).collect();
            json!({
                "id": id, "is_buy": is_buy, "number": stock, "is_youx": youx, "type": kind,
                "is_dpby": dpby, "qg_number": qg, "base_price": base,
                "ladder_price": ladder, "ladder_price_type": ladder_type
            })
        })
}

fn item() -> impl Strategy<Value = Value> {
    ((0i64..5, 1u32..120, money(), any::<bool>(), any::<bool>()), (0i64..3, money(), goods(), proptest::option::of(goods()))).prop_map(
        |((line_type, number, price, selected, coupon), (manjian, manjian_amount, goods, combination))| {
            let line_type = if line_type == 3 && combination.is_none() { 0 } else { line_type };
            json!({
                "type": line_type, "number": number, "price": price, "is_selected": selected,
                "with_coupon": coupon, "goods_manjian_id": manjian,
                "goods_manjian_amount": manjian_amount, "goods": goods, "combination": combination
            })
        },
    )
}

fn rate() -> impl Strategy<Value = Value> {
    prop_oneof![
        (1u32..1000).prop_map(|n| json!(format!("0.{n:03}"))),
        Just(json!("0.333")),
        Just(json!(0.95)),
        Just(json!(1)),
        Just(json!(0))
    ]
}

fn time() -> impl Strategy<Value = Option<i64>> {
    proptest::option::of(990i64..1010)
}

fn coupon() -> impl Strategy<Value = Value> {
    ((1u8..3, 0u8..4, money(), money(), rate(), proptest::option::of(money())), (time(), time())).prop_map(
        |((kind, scope, threshold, reduce, rate, max_reduce), (starts_at, ends_at))| {
            let rate = if rate == json!(0) || rate == json!(1) { json!("0.5") } else { rate };
            json!({ "kind": kind, "scope": scope, "threshold": threshold, "reduce": reduce, "rate": rate,
                    "max_reduce": max_reduce, "starts_at": starts_at, "ends_at": ends_at })
        },
    )
}

fn voucher() -> impl Strategy<Value = Value> {
    (money(), money(), time(), time())
        .prop_map(|(amount, threshold, starts_at, ends_at)| json!({ "amount": amount, "threshold": threshold, "starts_at": starts_at, "ends_at": ends_at }))
}

fn settlement() -> impl Strategy<Value = Value> {
    (
        (
            proptest::collection::vec(coupon(), 0..6),
            proptest::collection::vec(voucher(), 0..4),
            proptest::option::of(0i64..8),
            proptest::option::of(0i64..6),
        ),
        (money(), any::<bool>(), 0i64..100_000, any::<bool>(), money()),
        (rate(), 1i64..200, rate(), proptest::option::of(990i64..1010)),
    )
        .prop_map(
            |(
                (coupons, vouchers, coupon_id, voucher_id),
                (red, use_red, points, use_points, fee),
                (red_rate, per_yuan, points_rate, now),
            )| {
                let number = |list: Vec<Value>| -> Vec<Value> {
                    list.into_iter()
                        .enumerate()
                        .map(|(i, mut entry)| {
                            entry["id"] = json!(i + 1);
                            entry
                        })
                        .collect()
                };
                json!({
                    "now": now, "coupons": number(coupons), "coupon_id": coupon_id, "cash_vouchers": number(vouchers),
                    "cash_voucher_id": voucher_id, "red_packet_balance": red, "use_red_packet": use_red,
                    "points_balance": points, "use_points": use_points, "shipping_fee": fee,
                    "red_packet_max_rate": red_rate, "points_per_yuan": per_yuan, "points_max_rate": points_rate
                })
            },
        )
}

fn cart() -> impl Strategy<Value = CartInput> {
    (
        proptest::collection::vec(item(), 0..40),
        money(),
        money(),
        proptest::collection::vec((money(), proptest::option::of(money())), 0..5),
        proptest::option::of(settlement()),
    )
        .prop_map(|(items, shipping, no_trans, tiers, settlement)| {
            let items: Vec<Value> = items
                .into_iter()
                .enumerate()
                .map(|(i, mut item)| {
                    // Ids repeat now and then: an edit applies to every line with its id.
                    item["id"] = json!(i % 32 + 1);
                    item
                })
                .collect();
            let tiers: Vec<Value> = tiers.into_iter().map(|(amount, reduce)| json!({ "amount": amount, "reduce": reduce })).collect();
            let input = json!({
                "items": items,
                "shipping_data": { "shipping_amount": shipping, "no_trans_order_amount": no_trans },
                "activity_data": { "manjians": tiers },
                "settlement": settlement
            });
            cart_from_value(&input).expect("generated carts are valid")
        })
}

#[derive(Clone, Debug)]
enum Edit {
    SetNumber(usize, i64),
    Select(Vec<usize>, bool),
    Remove(Vec<usize>),
}

fn edits() -> impl Strategy<Value = Vec<Edit>> {
    let edit = prop_oneof![
        (0usize..50, 1i64..150).prop_map(|(line, n)| Edit::SetNumber(line, n)),
        (proptest::collection::vec(0usize..50, 0..4), any::<bool>()).prop_map(|(l, f)| Edit::Select(l, f)),
        proptest::collection::vec(0usize..50, 0..3).prop_map(Edit::Remove),
    ];
    proptest::collection::vec(edit, 0..25)
}

/// The cart without its settlement (whose chosen coupon may be one that cannot be used).
fn unsettled(cart: &CartInput) -> CartInput {
    CartInput { settlement: None, ..cart.clone() }
}

fn cents(text: &str) -> i128 {
    let (units, fraction) = text.split_once('.').unwrap();
    assert_eq!(fraction.len(), 2, "{text} has two decimals");
    units.parse::<i128>().unwrap() * 100 + fraction.parse::<i128>().unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn totals_add_up(cart in cart()) {
        let quote = serde_json::to_value(quote(&unsettled(&cart)).unwrap()).unwrap();
        let totals = &quote["totals"];
        let total = cents(totals["total"].as_str().unwrap());
        prop_assert_eq!(cents(totals["coupon"].as_str().unwrap()) + cents(totals["non_coupon"].as_str().unwrap()), total);
        let payable = cents(totals["payable"].as_str().unwrap());
        prop_assert!(payable <= total && payable >= 0);
        let line_sum: i128 = quote["lines"].as_array().unwrap().iter()
            .filter(|line| line["buyable"] == true)
            .map(|line| cents(line["amount"].as_str().unwrap()))
            .sum();
        prop_assert_eq!(line_sum, total);
        for kind in ["youx", "zy", "qx", "manjian"] {
            prop_assert!(cents(totals[kind].as_str().unwrap()) <= total);
        }
    }

    /// Rule 8: the discount is at most the activity's total and shared out exactly, never above a
    /// line's amount, only to the activity's buyable lines.
    #[test]
    fn discount_shares_add_up(cart in cart()) {
        let Ok(quote) = quote(&cart) else { return Ok(()) };
        let shares: i128 = quote.lines.iter().map(|line| line.goods_manjian_amount.0).sum();
        prop_assert_eq!(shares, quote.summary.totals.discount.0);
        prop_assert!(quote.summary.totals.discount <= quote.summary.totals.manjian);
        for (item, line) in cart.items.iter().zip(&quote.lines) {
            prop_assert!(line.goods_manjian_amount.0 >= 0 && line.goods_manjian_amount.0 <= line.amount.0);
            if !(line.buyable && item.goods_manjian_id > 0) {
                prop_assert_eq!(line.goods_manjian_amount.0, 0);
            }
        }
    }

    /// Rules 11–19: every deduction shared out exactly, nothing paid below zero, the due as rule 18 says.
    #[test]
    fn settlement_adds_up(cart in cart()) {
        let Some(input) = &cart.settlement else { return Ok(()) };
        let quote = match quote(&cart) {
            Ok(quote) => quote,
            Err(error) => {
                let path = error.path().unwrap_or_default().to_owned();
                prop_assert!(path == "settlement.coupon_id" || path == "settlement.cash_voucher_id", "{error}");
                return Ok(());
            }
        };
        let settled = quote.settlement.as_ref().unwrap();
        prop_assert_eq!(settled.goods, quote.summary.totals.payable);
        let coupon = settled.coupon.map_or(0, |chosen| chosen.value.0);
        let voucher = settled.cash_voucher.map_or(0, |chosen| chosen.value.0);
        let sum = |pick: fn(&engine::LineSettlement) -> i128| settled.lines.iter().map(pick).sum::<i128>();
        prop_assert_eq!(sum(|line| line.coupon.0), coupon);
        prop_assert_eq!(sum(|line| line.cash_voucher.0), voucher);
        prop_assert_eq!(sum(|line| line.red_packet.0), settled.red_packet.0);
        prop_assert_eq!(sum(|line| line.points.0), settled.points_value.0);
        prop_assert!(settled.lines.iter().all(|line| line.paid.0 >= 0));
        prop_assert!(settled.red_packet <= input.red_packet_balance);
        prop_assert!(settled.points_used <= input.points_balance && settled.points_used >= 0);
        prop_assert_eq!(
            settled.due.0,
            settled.goods.0 - coupon - voucher - settled.red_packet.0 - settled.points_value.0 + settled.shipping_fee.0
        );
        prop_assert_eq!(sum(|line| line.paid.0) + settled.shipping_fee.0, settled.due.0);
        prop_assert_eq!(settled.lines.len(), quote.lines.iter().filter(|line| line.buyable).count());
    }

    /// Rule 13: the coupon and the voucher chosen together take at least as much off as any
    /// pair named outright, and the chosen pair, named outright, settles the same.
    #[test]
    fn the_chosen_pair_takes_the_most_off(cart in cart()) {
        let Some(input) = &cart.settlement else { return Ok(()) };
        let mut open = cart.clone();
        let choices = open.settlement.as_mut().unwrap();
        (choices.coupon_id, choices.cash_voucher_id) = (None, None);
        let settled = quote(&open).unwrap().settlement.unwrap();
        let off = |settled: &engine::Settlement| {
            settled.coupon.map_or(0, |chosen| chosen.value.0) + settled.cash_voucher.map_or(0, |chosen| chosen.value.0)
        };
        let coupon_ids = std::iter::once(0).chain(input.coupons.iter().map(|coupon| coupon.id));
        for coupon_id in coupon_ids {
            for voucher_id in std::iter::once(0).chain(input.cash_vouchers.iter().map(|voucher| voucher.id)) {
                let mut named = open.clone();
                let choices = named.settlement.as_mut().unwrap();
                (choices.coupon_id, choices.cash_voucher_id) = (Some(coupon_id), Some(voucher_id));
                if let Ok(quote) = quote(&named) {
                    prop_assert!(off(quote.settlement.as_ref().unwrap()) <= off(&settled));
                }
            }
        }
        let mut named = open.clone();
        let choices = named.settlement.as_mut().unwrap();
        choices.coupon_id = Some(settled.coupon.map_or(0, |chosen| chosen.id));
        choices.cash_voucher_id = Some(settled.cash_voucher.map_or(0, |chosen| chosen.id));
        prop_assert_eq!(quote(&named).unwrap().settlement.unwrap(), settled);
    }

    /// Rule 20: returning a line's units in any split refunds exactly what was paid for it.
    #[test]
    fn refunds_of_any_split_add_up(paid in 0i64..10_000_000, parts in proptest::collection::vec(1i64..5, 1..8)) {
        let number: i64 = parts.iter().sum();
        let paid = engine::Money::parse(&format!("{}.{:02}", paid / 100, paid % 100)).unwrap();
        let mut before = 0;
        let mut refunded = 0i128;
        for k in parts {
            refunded += engine::refund(paid, number, before, k).unwrap().0;
            before += k;
        }
        prop_assert_eq!(engine::Cents(refunded), paid.floor_cents().unwrap());
    }

    /// Rule 21: the points taken back over returns in any split add up to the share of what
    /// was refunded in all, and whatever the member held, taken + short is that share and the
    /// deduction is the short points' value (rounded up), never more than the refund.
    #[test]
    fn points_taken_back_in_any_split_add_up(
        earned in 0i64..1_000_000,
        due in 1i64..10_000_000,
        cuts in proptest::collection::vec(0i64..10_000_000, 1..6),
        held in proptest::collection::vec(0i64..1_000_000, 6),
        per_yuan in 1i64..1_000,
    ) {
        let cents = |value: i64| engine::Money::parse(&format!("{}.{:02}", value / 100, value % 100)).unwrap();
        let mut cuts: Vec<i64> = cuts.into_iter().map(|cut| cut % (due + 1)).collect();
        cuts.sort_unstable();
        let mut before = 0;
        let mut total = 0;
        for (cut, held) in cuts.into_iter().zip(held) {
            let back = engine::points_take_back(earned, cents(due), cents(before), cents(cut - before), held, per_yuan).unwrap();
            prop_assert_eq!(back.taken, (back.taken + back.short).min(held));
            let worth = (i128::from(back.short) * 100 + i128::from(per_yuan) - 1) / i128::from(per_yuan);
            prop_assert_eq!(back.deducted.0, worth.min(i128::from(cut - before)));
            total += back.taken + back.short;
            before = cut;
        }
        prop_assert_eq!(i128::from(total), i128::from(earned) * i128::from(before) / i128::from(due));
    }

    /// What one layer writes of a settled cart, the next reads back the same.
    #[test]
    fn settled_carts_read_back_as_written(cart in cart()) {
        let text = serde_json::to_string(&cart).unwrap();
        prop_assert_eq!(cart_from_json(&text).unwrap(), cart);
    }

    #[test]
    fn reached_tiers_come_first(cart in cart()) {
        let quote = quote(&unsettled(&cart)).unwrap();
        let statuses: Vec<u8> = quote.summary.manjian_tiers.iter().map(|tier| tier.status).collect();
        prop_assert!(statuses.windows(2).all(|pair| pair[0] >= pair[1]), "{statuses:?}");
    }

    /// Rules 1 and 2: a line is sellable by its goods alone, buyable when also selected, and
    /// comes out selected only when buyable.
    #[test]
    fn unbuyable_lines_are_unselected(cart in cart()) {
        let quote = quote(&unsettled(&cart)).unwrap();
        for (item, line) in cart.items.iter().zip(&quote.lines) {
            let goods = item.effective_goods();
            prop_assert_eq!(line.sellable, goods.is_buy && goods.stock > 0);
            prop_assert_eq!(line.buyable, line.sellable && item.is_selected);
            prop_assert_eq!(line.is_selected, line.buyable);
        }
    }

    #[test]
    fn a_session_after_edits_quotes_like_quote_of_the_edited_cart(cart in cart(), edits in edits()) {
        let mut session = CartSession::new(cart.clone()).unwrap();
        let mut edited = cart.clone();
        for edit in edits {
            let ids: Vec<i64> = edited.items.iter().map(|item| item.id).collect();
            let pick = |line: usize| ids.get(line).copied();
            match edit {
                Edit::SetNumber(line, n) => if let Some(id) = pick(line) {
                    session.set_number(id, n).unwrap();
                    edited.items.iter_mut().filter(|item| item.id == id).for_each(|item| item.quantity = n as u32);
                },
                Edit::Select(lines, flag) => {
                    let chosen: Vec<i64> = lines.into_iter().filter_map(pick).collect();
                    session.select(&chosen, flag).unwrap();
                    edited.items.iter_mut().filter(|item| chosen.contains(&item.id)).for_each(|item| item.is_selected = flag);
                }
                Edit::Remove(lines) => {
                    let chosen: Vec<i64> = lines.into_iter().filter_map(pick).collect();
                    session.remove(&chosen).unwrap();
                    edited.items.retain(|item| !chosen.contains(&item.id));
                }
            }
        }
        prop_assert_eq!(session.cart(), &edited);
        let expected = quote(&edited);
        prop_assert_eq!(&session.quote(), &expected);
        let Ok(expected) = expected else { return Ok(()) };
        prop_assert_eq!(session.summary().unwrap(), expected.summary.clone());
        // CartSession::settle equals the quote's settlement.
        if let Some(input) = edited.settlement.clone() {
            prop_assert_eq!(session.settle(input).ok(), expected.settlement);
        }
    }

    /// Whatever JSON comes in, the engine answers a quote or an error: it never panics.
    #[test]
    fn arbitrary_json_never_panics(value in arbitrary_json()) {
        let _ = cart_from_value(&value).and_then(|cart| quote(&cart));
        let _ = engine::quote_json(&value.to_string());
    }

    /// A valid cart with one value replaced by anything: an error naming a field, or a quote.
    #[test]
    fn mutated_carts_never_panic(cart in cart(), path in proptest::collection::vec(any::<prop::sample::Index>(), 1..5), replacement in arbitrary_json()) {
        let mut value = serde_json::to_value(&cart).unwrap();
        replace_somewhere(&mut value, &path, replacement);
        let text = value.to_string();
        match cart_from_json(&text).and_then(|cart| quote(&cart)) {
            Ok(_) => {}
            Err(error) => prop_assert!(!error.to_string().is_empty()),
        }
    }

    #[test]
    fn arbitrary_text_never_panics(text in ".{0,200}") {
        let _ = engine::quote_json(&text);
    }
}

fn arbitrary_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>().prop_filter("JSON has no NaN", |x| x.is_finite()).prop_map(Value::from),
        "[0-9.e+-]{0,12}".prop_map(Value::from),
        ".{0,10}".prop_map(Value::from),
    ];
    leaf.prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..6).prop_map(Value::from),
            proptest::collection::btree_map(
                prop_oneof![
                    Just("items".to_string()),
                    Just("goods".to_string()),
                    Just("number".to_string()),
                    Just("price".to_string()),
                    Just("id".to_string()),
                    Just("is_selected".to_string()),
                    Just("ladder_price".to_string()),
                    Just("type".to_string()),
                    Just("combination".to_string()),
                    "[a-z_]{1,8}",
                ],
                inner,
                0..6,
            )
            .prop_map(|map| Value::Object(map.into_iter().collect())),
        ]
    })
}
