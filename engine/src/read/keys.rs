//! The field names the engine reads, in one table: the readers match on [`Key`], and a
//! JavaScript caller's cart crosses the WebAssembly boundary with each key as its index in
//! [`Key::ALL`] (`wasm/tokens.rs`). The table is `js/boundary.js`'s `KEYS`, which `build.rs`
//! turns into [`Key`]: one list for both halves.

/// Declares [`Key`], its [`Key::ALL`] table, and the two ways between a key and its name.
macro_rules! keys {
    ($($key:ident = $name:literal,)*) => {
        /// Every field name the engine reads, in any object.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub(crate) enum Key {
            $($key,)*
        }

        impl Key {
            /// Every key, in the order of their indexes.
            pub const ALL: [Key; [$($name,)*].len()] = [$(Key::$key,)*];

            pub fn name(self) -> &'static str {
                match self {
                    $(Key::$key => $name,)*
                }
            }

            pub fn parse(name: &str) -> Option<Key> {
                match name {
                    $($name => Some(Key::$key),)*
                    _ => None,
                }
            }
        }
    };
}

// `Key` from the list in `js/boundary.js`, the one list both halves of the boundary read
// (written by `build.rs`).
include!(concat!(env!("OUT_DIR"), "/keys.rs"));

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_reads_back_from_its_name_and_index() {
        for (index, key) in Key::ALL.iter().enumerate() {
            assert_eq!(Key::parse(key.name()), Some(*key));
            assert_eq!(Key::ALL[index], *key);
        }
        assert_eq!(Key::parse("title"), None);
    }
}
