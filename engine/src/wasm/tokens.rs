//! Reads the token stream `js/boundary.js` writes (a cart walked in JavaScript) as a serde
//! `Deserializer`, so the very same readers as for JSON text run on it, with the same errors.
//! Numbers are handed to the readers as serde_json would hand them the text JSON.stringify
//! writes for them: integers below 1e21 as integers, anything else as a float, NaN as null.

use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, IntoDeserializer, MapAccess, SeqAccess, Visitor};
use serde::forward_to_deserialize_any;

use crate::read::Key;

pub const NULL: f64 = 0.0;
pub const FALSE: f64 = 1.0;
pub const TRUE: f64 = 2.0;
pub const NUM: f64 = 3.0;
pub const STR: f64 = 4.0;
pub const ARR: f64 = 5.0;
pub const MAP: f64 = 6.0;

#[derive(Debug)]
pub struct TokenError(String);

impl fmt::Display for TokenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for TokenError {}

impl de::Error for TokenError {
    fn custom<T: fmt::Display>(message: T) -> Self {
        TokenError(message.to_string())
    }

    /// Worded as serde_json words it (a JavaScript `null` is "null", not "unit value").
    fn invalid_type(unexpected: de::Unexpected<'_>, expected: &dyn de::Expected) -> Self {
        TokenError::custom(format_args!("invalid type: {}, expected {expected}", Found(unexpected)))
    }

    fn invalid_value(unexpected: de::Unexpected<'_>, expected: &dyn de::Expected) -> Self {
        TokenError::custom(format_args!("invalid value: {}, expected {expected}", Found(unexpected)))
    }
}

/// What was found instead, worded as serde words it, except that floats (which the engine's
/// readers word themselves) are not formatted: float formatting would weigh more than the
/// rest of the engine's WebAssembly.
struct Found<'a>(de::Unexpected<'a>);

impl fmt::Display for Found<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use de::Unexpected;
        match self.0 {
            Unexpected::Bool(value) => write!(f, "boolean `{value}`"),
            Unexpected::Unsigned(value) => write!(f, "integer `{value}`"),
            Unexpected::Signed(value) => write!(f, "integer `{value}`"),
            Unexpected::Float(_) => f.write_str("floating point"),
            Unexpected::Char(value) => write!(f, "character `{value}`"),
            Unexpected::Str(value) => write!(f, "string {value:?}"),
            Unexpected::Bytes(_) => f.write_str("byte array"),
            Unexpected::Unit => f.write_str("null"),
            Unexpected::Option => f.write_str("Option value"),
            Unexpected::NewtypeStruct => f.write_str("newtype struct"),
            Unexpected::Seq => f.write_str("sequence"),
            Unexpected::Map => f.write_str("map"),
            Unexpected::Enum => f.write_str("enum"),
            Unexpected::UnitVariant => f.write_str("unit variant"),
            Unexpected::NewtypeVariant => f.write_str("newtype variant"),
            Unexpected::TupleVariant => f.write_str("tuple variant"),
            Unexpected::StructVariant => f.write_str("struct variant"),
            Unexpected::Other(other) => f.write_str(other),
        }
    }
}

fn broken() -> TokenError {
    TokenError("input: malformed token stream".into())
}

pub struct Tokens<'de> {
    tokens: &'de [f64],
    at: usize,
    /// The strings still to read, one after the other.
    text: &'de str,
}

/// Takes the next string off `text`, the strings' concatenation: `units` is its length in
/// UTF-16 code units, as JavaScript counts (a lone surrogate arrives as U+FFFD, one unit too).
pub fn take_string<'a>(text: &mut &'a str, units: usize) -> Option<&'a str> {
    let rest = *text;
    let bytes = rest.as_bytes();
    let end = if bytes.len() >= units && bytes[..units].is_ascii() {
        units
    } else {
        let mut counted = 0;
        let mut end = 0;
        for ch in rest.chars() {
            if counted >= units {
                break;
            }
            counted += ch.len_utf16();
            end += ch.len_utf8();
        }
        if counted != units {
            return None;
        }
        end
    };
    *text = &rest[end..];
    Some(&rest[..end])
}

impl<'de> Tokens<'de> {
    pub fn new(tokens: &'de [f64], text: &'de str) -> Tokens<'de> {
        Tokens { tokens, at: 0, text }
    }

    fn next(&mut self) -> Result<f64, TokenError> {
        let token = *self.tokens.get(self.at).ok_or_else(broken)?;
        self.at += 1;
        Ok(token)
    }

    /// The next token as a length of at most `most`: an array's or a map's entries each take a
    /// token at least, so they are at most the tokens; a string's UTF-16 code units are at most
    /// its UTF-8 bytes, so they are at most the text left.
    fn next_len(&mut self, most: usize) -> Result<usize, TokenError> {
        let len = self.next()?;
        if len >= 0.0 && len <= most as f64 && len == (len as usize) as f64 { Ok(len as usize) } else { Err(broken()) }
    }

    fn next_str(&mut self) -> Result<&'de str, TokenError> {
        let units = self.next_len(self.text.len())?;
        take_string(&mut self.text, units).ok_or_else(broken)
    }

    pub fn is_done(&self) -> bool {
        self.at == self.tokens.len() && self.text.is_empty()
    }
}

fn number<'de, V: Visitor<'de>>(value: f64, visitor: V) -> Result<V::Value, TokenError> {
    if !value.is_finite() {
        return visitor.visit_unit();
    }
    // JSON.stringify writes integers below 1e21 without exponent; serde_json reads those that
    // fit 64 bits as integers (2^64 and beyond as floats; `as` saturates, so values below
    // -2^63 fail the comparison).
    if (0.0..18_446_744_073_709_551_616.0).contains(&value) && (value as u64) as f64 == value {
        return visitor.visit_u64(value as u64);
    }
    if value < 0.0 && (value as i64) as f64 == value {
        return visitor.visit_i64(value as i64);
    }
    visitor.visit_f64(value)
}

impl<'de> Deserializer<'de> for &mut Tokens<'de> {
    type Error = TokenError;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, TokenError> {
        let tag = self.next()?;
        if tag == NULL {
            visitor.visit_unit()
        } else if tag == FALSE || tag == TRUE {
            visitor.visit_bool(tag == TRUE)
        } else if tag == NUM {
            let value = self.next()?;
            number(value, visitor)
        } else if tag == STR {
            let text = self.next_str()?;
            visitor.visit_borrowed_str(text)
        } else if tag == ARR {
            let left = self.next_len(self.tokens.len())?;
            visitor.visit_seq(Elements { tokens: self, left })
        } else if tag == MAP {
            let left = self.next_len(self.tokens.len())?;
            visitor.visit_map(Entries { tokens: self, left })
        } else {
            Err(broken())
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, TokenError> {
        let tag = self.tokens.get(self.at).copied();
        let value = self.tokens.get(self.at + 1).copied();
        if tag == Some(NULL) {
            self.at += 1;
            visitor.visit_none()
        } else if tag == Some(NUM) && value.is_some_and(|value| !value.is_finite()) {
            // JSON writes NaN and the infinities as null.
            self.at += 2;
            visitor.visit_none()
        } else {
            visitor.visit_some(self)
        }
    }

    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        unit unit_struct newtype_struct seq tuple tuple_struct map struct enum identifier
        ignored_any
    }
}

struct Elements<'a, 'de> {
    tokens: &'a mut Tokens<'de>,
    left: usize,
}

impl<'de> SeqAccess<'de> for Elements<'_, 'de> {
    type Error = TokenError;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>, TokenError> {
        if self.left == 0 {
            return Ok(None);
        }
        self.left -= 1;
        seed.deserialize(&mut *self.tokens).map(Some)
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.left)
    }
}

struct Entries<'a, 'de> {
    tokens: &'a mut Tokens<'de>,
    left: usize,
}

impl<'de> MapAccess<'de> for Entries<'_, 'de> {
    type Error = TokenError;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, TokenError> {
        if self.left == 0 {
            return Ok(None);
        }
        self.left -= 1;
        // A key travels as its index in `read::Key::ALL`; the readers take it as such.
        let index = self.tokens.next()?;
        if !(0.0..Key::ALL.len() as f64).contains(&index) {
            return Err(broken());
        }
        seed.deserialize((index as u64).into_deserializer()).map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, TokenError> {
        seed.deserialize(&mut *self.tokens)
    }
}
