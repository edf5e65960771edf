//! Prints a deterministic benchmark cart of N lines as JSON: `cargo run -p engine --example bench_cart -- 1000`.
//! With `settled` after the size, the cart carries the bench settlement (20 coupons, 5 cash
//! vouchers, red packets and points): `cargo run -p engine --example bench_cart -- 1000 settled`.

#[path = "../benches/support/cart_gen.rs"]
mod cart_gen;

fn main() {
    let mut args = std::env::args().skip(1);
    let lines = args.next().and_then(|n| n.parse().ok()).unwrap_or(1000);
    match args.next().as_deref() {
        None => println!("{}", cart_gen::bench_cart(lines)),
        Some("settled") => println!("{}", cart_gen::bench_settled_cart(lines)),
        Some(other) => {
            eprintln!("bench_cart: unknown option {other:?} (expected `settled`)");
            std::process::exit(2);
        }
    }
}
