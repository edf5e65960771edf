//! States and kinds as types: each is an enum over the integer its column stores, read and
//! written by sqlx as that integer, with the Chinese name the pages show. One definition each;
//! the answers keep the integer (`status`) beside the name (`status_name`).
//!
//! A value is written in answers as its integer too (`Serialize`), so that an answer that is
//! also a row can hold the type itself (with `#[schema(value_type = i64)]`).

/// Declares a stored enum: `#[repr(i64)]` and `sqlx::Type` (a code no variant has is a decode
/// error, never a panic), with `ALL` (in code order), `code`, `from_code` and `name`; it is
/// serialized as its code. `from_text` reads a name or a code.
macro_rules! stored_enum {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident {
            $($(#[$variant_meta:meta])* $variant:ident = $code:literal => $label:literal,)*
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, sqlx::Type)]
        #[repr(i64)]
        $vis enum $name {
            $($(#[$variant_meta])* $variant = $code,)*
        }

        impl $name {
            /// Every value, in the order of their codes.
            pub const ALL: [$name; [$($code,)*].len()] = [$($name::$variant,)*];

            /// The integer stored.
            pub fn code(self) -> i64 {
                self as i64
            }

            /// The value a stored integer stands for.
            pub fn from_code(code: i64) -> Option<$name> {
                match code {
                    $($code => Some($name::$variant),)*
                    _ => None,
                }
            }

            /// The Chinese name the pages show.
            pub fn name(self) -> &'static str {
                match self {
                    $($name::$variant => $label,)*
                }
            }

            /// The value a form or an operator names, by its Chinese name or its code
            /// (surrounding spaces ignored).
            pub fn from_text(text: &str) -> Option<$name> {
                let text = text.trim();
                $name::ALL.into_iter().find(|value| value.name() == text).or_else(|| text.parse().ok().and_then($name::from_code))
            }
        }

        impl From<$name> for i64 {
            fn from(value: $name) -> i64 {
                value.code()
            }
        }

        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_i64(self.code())
            }
        }
    };
}

pub(crate) use stored_enum;
