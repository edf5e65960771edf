//! `cargo bench -p engine`: the native quote (parsing excluded and included), one
//! `CartSession` edit, and the settlement (rules 11–19: 20 coupons, 5 cash vouchers, red
//! packets and points), on carts of 10, 200, 1,000 and 10,000 lines.

#[path = "support/cart_gen.rs"]
mod cart_gen;

use std::hint::black_box;

use criterion::{BatchSize, BenchmarkId, Criterion, criterion_group, criterion_main};
use engine::{CartSession, cart_from_json, quote};

const SIZES: [usize; 4] = [10, 200, 1_000, 10_000];

fn benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("quote");
    for lines in SIZES {
        let text = cart_gen::bench_cart(lines).to_string();
        let cart = cart_from_json(&text).unwrap();
        group.bench_with_input(BenchmarkId::new("quote", lines), &cart, |b, cart| b.iter(|| quote(black_box(cart)).unwrap()));
        group.bench_with_input(BenchmarkId::new("parse+quote+json", lines), &text, |b, text| {
            b.iter(|| engine::quote_json(black_box(text)).unwrap())
        });
        let mut session = CartSession::new(cart.clone()).unwrap();
        let ids: Vec<i64> = cart.items.iter().map(|item| item.id).collect();
        let mut step = 0usize;
        group.bench_function(BenchmarkId::new("session_set_number+summary", lines), |b| {
            b.iter(|| {
                step = step.wrapping_add(7919);
                let id = ids[step % ids.len()];
                session.set_number(id, 1 + (step % 97) as i64).unwrap();
                black_box(session.summary().unwrap())
            })
        });
    }
    group.finish();
}

/// The settlement: `quote` of the settled cart (rules 1–19, the whole quote), and
/// `CartSession::settle` on a session of the cart (rules 8's shares and 11–19 alone: what the
/// browser does when the member picks a coupon or ticks points). The settlement input is
/// cloned outside the timed part (`settle` takes it by value).
fn settle_benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("settle");
    for lines in SIZES {
        let cart = cart_from_json(&cart_gen::bench_settled_cart(lines).to_string()).unwrap();
        let input = cart.settlement.clone().unwrap();
        let expected = quote(&cart).unwrap().settlement.unwrap();
        group.bench_with_input(BenchmarkId::new("quote", lines), &cart, |b, cart| b.iter(|| quote(black_box(cart)).unwrap()));
        let mut session = CartSession::new(cart.clone()).unwrap();
        assert_eq!(session.settle(input.clone()).unwrap(), expected, "the session settles as the quote does");
        group.bench_function(BenchmarkId::new("session_settle", lines), |b| {
            b.iter_batched(|| input.clone(), |input| session.settle(black_box(input)).unwrap(), BatchSize::SmallInput)
        });
    }
    group.finish();
}

criterion_group!(engine_benches, benches, settle_benches);
criterion_main!(engine_benches);
