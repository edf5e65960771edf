//! Prints the engine's contract as an OpenAPI document (no paths, only schemas), which
//! `scripts/engine-types` turns into the package's TypeScript declarations.

fn main() {
    println!("{}", engine::contract::document());
}
