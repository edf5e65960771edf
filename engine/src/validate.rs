//! The form rules, shared by the browser's forms and the origin's checks (`docs/pricing.md`,
//! "Validators"): phone and email (the specification's §5), and the account's username and
//! password. A rule that answers a message answers it in Chinese, as the buyer reads it.

/// A mobile number: `1`, a digit 3–9, then 9 digits (11 in all). With `allow_landline`, also a
/// landline: an area code of 3–4 digits starting with 0, a dash, then 7–8 digits.
pub fn is_phone(text: &str, allow_landline: bool) -> bool {
    is_mobile(text) || (allow_landline && is_landline(text))
}

fn is_mobile(text: &str) -> bool {
    let bytes = text.as_bytes();
    bytes.len() == 11 && bytes[0] == b'1' && (b'3'..=b'9').contains(&bytes[1]) && bytes.iter().all(u8::is_ascii_digit)
}

fn is_landline(text: &str) -> bool {
    let Some((area, number)) = text.split_once('-') else { return false };
    let all_digits = |part: &str| part.bytes().all(|b| b.is_ascii_digit());
    (3..=4).contains(&area.len()) && area.starts_with('0') && all_digits(area) && (7..=8).contains(&number.len()) && all_digits(number)
}

/// One or more letters, digits, `_` or `-`; an `@`; then labels of the same characters joined
/// by dots, at least one dot.
pub fn is_email(text: &str) -> bool {
    let Some((local, domain)) = text.split_once('@') else { return false };
    let is_word = |part: &str| !part.is_empty() && part.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    is_word(local) && domain.contains('.') && domain.split('.').all(is_word)
}

/// Usernames: 4–20 ASCII letters, digits or `_`, starting with a letter.
pub fn check_username(text: &str) -> Result<(), &'static str> {
    let bytes = text.as_bytes();
    if bytes.is_empty() {
        return Err("请填写用户名");
    }
    let valid =
        (4..=20).contains(&bytes.len()) && bytes[0].is_ascii_alphabetic() && bytes.iter().all(|b| b.is_ascii_alphanumeric() || *b == b'_');
    if valid { Ok(()) } else { Err("用户名为4-20位字母、数字或下划线，以字母开头") }
}

/// Passwords: 6–20 characters with at least one ASCII letter and one digit.
pub fn check_password(text: &str) -> Result<(), &'static str> {
    if text.is_empty() {
        return Err("请填写密码");
    }
    if !(6..=20).contains(&text.chars().count()) {
        return Err("密码长度为6-20位");
    }
    if !text.bytes().any(|b| b.is_ascii_digit()) || !text.bytes().any(|b| b.is_ascii_alphabetic()) {
        return Err("密码须同时包含字母和数字");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usernames() {
        for good in ["abcd", "a_1b", "Zhang_San_2024", "a2345678901234567890"] {
            assert_eq!(check_username(good), Ok(()), "{good}");
        }
        assert_eq!(check_username(""), Err("请填写用户名"));
        for bad in ["abc", "1abc", "_abc", "ab cd", "张三丰丰", "a23456789012345678901", "abc-d"] {
            assert_eq!(check_username(bad), Err("用户名为4-20位字母、数字或下划线，以字母开头"), "{bad}");
        }
    }

    #[test]
    fn passwords() {
        for good in ["abc123", "A1b2C3d4", "密码abc123", "a1!@#$", "a2345678901234567890"] {
            assert_eq!(check_password(good), Ok(()), "{good}");
        }
        assert_eq!(check_password(""), Err("请填写密码"));
        assert_eq!(check_password("ab1"), Err("密码长度为6-20位"));
        assert_eq!(check_password("a23456789012345678901"), Err("密码长度为6-20位"));
        assert_eq!(check_password("aaaaaa"), Err("密码须同时包含字母和数字"));
        assert_eq!(check_password("123456"), Err("密码须同时包含字母和数字"));
        assert_eq!(check_password("密码密码密码"), Err("密码须同时包含字母和数字"));
    }

    #[test]
    fn mobile_numbers() {
        for good in ["13800138000", "19912345678", "15000000000"] {
            assert!(is_phone(good, false), "{good}");
        }
        for bad in [
            "",
            "1380013800",
            "138001380000",
            "12800138000",
            "23800138000",
            "1380013800a",
            "+8613800138000",
            "138 0013 800",
            "１３８００１３８０００",
        ] {
            assert!(!is_phone(bad, false), "{bad}");
            assert!(!is_phone(bad, true), "{bad}");
        }
    }

    #[test]
    fn landlines_only_when_allowed() {
        for good in ["010-12345678", "0571-1234567", "021-1234567", "0755-12345678"] {
            assert!(is_phone(good, true), "{good}");
            assert!(!is_phone(good, false), "{good}");
        }
        for bad in [
            "10-12345678",
            "110-12345678",
            "01-1234567",
            "01234-1234567",
            "010-123456",
            "010-123456789",
            "010--1234567",
            "010-1234567-",
            "0a0-1234567",
            "-1234567",
        ] {
            assert!(!is_phone(bad, true), "{bad}");
        }
    }

    #[test]
    fn emails() {
        for good in ["a@b.cn", "zhang_san-01@yaofang.com.cn", "A1@X-Y.Z", "x@a.b.c"] {
            assert!(is_email(good), "{good}");
        }
        for bad in ["", "a@b", "@b.cn", "a@.cn", "a@b.", "a@b..cn", "a.b@c.cn", "a@b@c.cn", "张三@b.cn", "a b@c.cn", "a@b c.cn", "a+1@b.cn"]
        {
            assert!(!is_email(bad), "{bad}");
        }
    }
}
