//! What members typed, shown safely on the operator's terminal: control characters escaped.

/// What members typed, as the operator's terminal shows it: every control character (line
/// breaks and tabs too, which would break a listing's rows and columns) escaped as Rust writes it
/// (`\u{1b}`, `\n`), everything else, Chinese included, as it is. Text stored before the API
/// refused control characters (`security::Text::refusal`) could otherwise colour the terminal,
/// move its cursor or write its clipboard (OSC 52).
pub fn shown(text: &str) -> Shown<'_> {
    Shown { text, keep: &[] }
}

/// A command's whole output: control characters escaped as [`shown`] does, but for the line
/// breaks and tabs of its own layout.
pub fn printable(text: &str) -> String {
    Shown { text, keep: &['\n', '\t'] }.to_string()
}

/// Text with its control characters escaped when displayed ([`shown`]).
pub struct Shown<'a> {
    text: &'a str,
    keep: &'static [char],
}

impl std::fmt::Display for Shown<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use std::fmt::Write;
        for c in self.text.chars() {
            if c.is_control() && !self.keep.contains(&c) {
                write!(f, "{}", c.escape_default())?;
            } else {
                f.write_char(c)?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn members_text_is_shown_escaped() {
        let typed = "张三\u{1b}[31m红\u{1b}]52;c;ZWNobyBoaQ==\u{7}\u{9b}2J\r\n\t药房\u{7f}";
        assert_eq!(shown(typed).to_string(), "张三\\u{1b}[31m红\\u{1b}]52;c;ZWNobyBoaQ==\\u{7}\\u{9b}2J\\r\\n\\t药房\\u{7f}");
        assert_eq!(printable(&format!("1\t{typed}\n")), "1\t张三\\u{1b}[31m红\\u{1b}]52;c;ZWNobyBoaQ==\\u{7}\\u{9b}2J\\r\n\t药房\\u{7f}\n");
        assert_eq!(shown("仁心大药房 (杭州) 「旗舰店」").to_string(), "仁心大药房 (杭州) 「旗舰店」");
    }
}
