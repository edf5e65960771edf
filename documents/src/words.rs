//! An amount in words (大写金额), as Chinese invoices and delivery notes print it beside the
//! figures: 壹仟零伍元叁角整, 伍角陆分, 负壹佰元整 for a red-letter one.

const DIGITS: [char; 10] = ['零', '壹', '贰', '叁', '肆', '伍', '陆', '柒', '捌', '玖'];
const PLACES: [&str; 4] = ["", "拾", "佰", "仟"];
const GROUPS: [&str; 4] = ["", "万", "亿", "万亿"];

/// `amount` (yuan with two decimals, `1234.56`, a leading `-` for a negative one) in words;
/// `None` when it is not such a number.
pub fn capitalised(amount: &str) -> Option<String> {
    let (negative, digits) = match amount.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, amount),
    };
    let (yuan, cents) = digits.split_once('.')?;
    if yuan.is_empty() || cents.len() != 2 || !yuan.bytes().chain(cents.bytes()).all(|b| b.is_ascii_digit()) {
        return None;
    }
    let yuan: u64 = yuan.parse().ok()?;
    let (jiao, fen) = (usize::from(cents.as_bytes()[0] - b'0'), usize::from(cents.as_bytes()[1] - b'0'));
    let mut out = String::new();
    if negative && (yuan, jiao, fen) != (0, 0, 0) {
        out.push('负');
    }
    if yuan > 0 {
        out.push_str(&integer(yuan)?);
        out.push('元');
    }
    match (jiao, fen) {
        (0, 0) if yuan == 0 => out.push_str("零元整"),
        (0, 0) => out.push('整'),
        _ => {
            if jiao > 0 {
                out.push(DIGITS[jiao]);
                out.push('角');
            } else if yuan > 0 {
                out.push('零');
            }
            if fen > 0 {
                out.push(DIGITS[fen]);
                out.push('分');
            } else {
                out.push('整');
            }
        }
    }
    Some(out)
}

/// A whole number of yuan in words, four digits to a group (万, 亿), a 零 wherever zeros are
/// skipped between digits.
fn integer(number: u64) -> Option<String> {
    let mut groups = Vec::new();
    let mut rest = number;
    while rest > 0 {
        groups.push((rest % 10_000) as usize);
        rest /= 10_000;
    }
    if groups.len() > GROUPS.len() {
        return None;
    }
    let mut out = String::new();
    let mut skipped = false;
    for (index, &group) in groups.iter().enumerate().rev() {
        if group == 0 {
            skipped = !out.is_empty();
            continue;
        }
        if !out.is_empty() && (skipped || group < 1000) {
            out.push('零');
        }
        skipped = false;
        let digits = [group / 1000, group / 100 % 10, group / 10 % 10, group % 10];
        let (mut started, mut zero) = (false, false);
        for (place, &digit) in digits.iter().enumerate() {
            if digit == 0 {
                zero = started;
                continue;
            }
            if zero {
                out.push('零');
                zero = false;
            }
            out.push(DIGITS[digit]);
            out.push_str(PLACES[3 - place]);
            started = true;
        }
        out.push_str(GROUPS[index]);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::capitalised;

    #[test]
    fn amounts_read_as_a_cashier_writes_them() {
        let cases = [
            ("0.00", "零元整"),
            ("0.05", "伍分"),
            ("0.50", "伍角整"),
            ("1.00", "壹元整"),
            ("10.00", "壹拾元整"),
            ("10.05", "壹拾元零伍分"),
            ("100.30", "壹佰元叁角整"),
            ("1005.30", "壹仟零伍元叁角整"),
            ("1234.56", "壹仟贰佰叁拾肆元伍角陆分"),
            ("100000.00", "壹拾万元整"),
            ("100005.00", "壹拾万零伍元整"),
            ("10000500.00", "壹仟万零伍佰元整"),
            ("10100000.00", "壹仟零壹拾万元整"),
            ("120000000.01", "壹亿贰仟万元零壹分"),
            ("-100.00", "负壹佰元整"),
            ("-0.00", "零元整"),
        ];
        for (figures, words) in cases {
            assert_eq!(capitalised(figures).as_deref(), Some(words), "{figures}");
        }
        for bad in ["", "1", "1.5", "1.005", "a.00", "1,000.00", "--1.00", ".50"] {
            assert_eq!(capitalised(bad), None, "{bad}");
        }
    }
}
