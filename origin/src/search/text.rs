//! What the index reads and a query asks: text normalised (letters lower-cased, full-width
//! ASCII folded), the pinyin and initials of Chinese text, a query's terms, and the grams
//! (characters and pairs of characters) that the index keys its bitmaps by.

use pinyin::ToPinyin;

use super::MAX_TERMS;

/// Lower-cases letters and folds full-width ASCII (and the ideographic space) to half-width.
pub fn normalize(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        let c = match c {
            '\u{3000}' => ' ',
            '\u{FF01}'..='\u{FF5E}' => char::from_u32(c as u32 - 0xFEE0).unwrap_or(c),
            _ => c,
        };
        out.extend(c.to_lowercase());
    }
    out
}

/// The full pinyin (`amoxilinjiaonang`) and the initials (`amxljn`) of a text: each Chinese
/// character by its most common reading (ü written `v`, as pinyin keyboards take it); letters
/// and digits kept; anything else left out. Both normalised.
pub fn pinyin(text: &str) -> (String, String) {
    let mut full = String::new();
    let mut initials = String::new();
    for (c, reading) in text.chars().zip(text.to_pinyin()) {
        match reading {
            Some(reading) => {
                full.push_str(&reading.plain().replace('ü', "v"));
                initials.push_str(&reading.first_letter().replace('ü', "v"));
            }
            None if c.is_alphanumeric() => {
                let c = normalize(&c.to_string());
                full.push_str(&c);
                initials.push_str(&c);
            }
            None => {}
        }
    }
    (full, initials)
}

/// The terms of a query: normalised, split on white space, without repeats; at most `MAX_TERMS`.
pub fn terms(query: &str) -> Vec<String> {
    let normalized = normalize(query);
    let mut terms: Vec<String> = Vec::new();
    for term in normalized.split_whitespace() {
        if !terms.iter().any(|seen| seen == term) && terms.len() < MAX_TERMS {
            terms.push(term.to_owned());
        }
    }
    terms
}

pub(super) fn unigram(c: char) -> u64 {
    (1 << 42) | c as u64
}

pub(super) fn bigram(a: char, b: char) -> u64 {
    ((a as u64) << 21) | b as u64
}
