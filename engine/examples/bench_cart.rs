//! Prints a deterministic benchmark cart of N lines as JSON: `cargo run -p engine --example bench_cart -- 1000`.

#[path = "../benches/support/cart_gen.rs"]
mod cart_gen;

fn main() {
    let lines = std::env::args().nth(1).and_then(|n| n.parse().ok()).unwrap_or(1000);
    println!("{}", cart_gen::bench_cart(lines));
}
