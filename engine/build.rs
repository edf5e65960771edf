//! The field names the engine reads are listed once, in `js/boundary.js` (`const KEYS = [...]`):
//! the JavaScript half sends each key as its index in that list, and this script writes the
//! Rust half's [`Key`] enum from the same list (`src/read/keys.rs` includes it).

use std::{env, fs, path::Path};

fn main() {
    let boundary = Path::new(&env::var("CARGO_MANIFEST_DIR").unwrap()).join("js/boundary.js");
    println!("cargo::rerun-if-changed={}", boundary.display());
    let text = fs::read_to_string(&boundary).expect("js/boundary.js is readable");
    let start = text.find("const KEYS = [").expect("js/boundary.js declares `const KEYS = [`");
    let table = &text[start..start + text[start..].find("];").expect("the KEYS list ends with `];`")];
    let mut entries = String::new();
    for name in table.split('\'').skip(1).step_by(2) {
        assert!(name.bytes().all(|byte| byte.is_ascii_lowercase() || byte == b'_'), "a key is snake_case: {name}");
        let variant: String = name
            .split('_')
            .map(|word| {
                let mut chars = word.chars();
                chars.next().map(|first| first.to_ascii_uppercase().to_string() + chars.as_str()).unwrap_or_default()
            })
            .collect();
        entries.push_str(&format!("    {variant} = \"{name}\",\n"));
    }
    let out = Path::new(&env::var("OUT_DIR").unwrap()).join("keys.rs");
    fs::write(out, format!("keys! {{\n{entries}}}\n")).expect("OUT_DIR is writable");
}
