//! What the console's scheduled promotions share: a title, a time they run (`starts_at <= now <
//! ends_at`), and tiers of money written `threshold:amount` by commas — 满减 (`200:20`, take 20
//! off at 200) and 满额返现 (`1000:20`, 20 back at 1000) alike.

use serde_json::json;
use sqlx::AnyConnection;

use super::audit::{self, Actor, Entry};
use crate::domain::{Error, Result};
use crate::money::{self, Stored};

/// The longest title kept, in characters.
pub const TITLE_MAX: usize = 30;

/// Where a scheduled promotion stands at `now`: 未开始, 进行中 or 已结束.
pub fn state(starts_at: i64, ends_at: i64, now: i64) -> &'static str {
    if ends_at <= now {
        "已结束"
    } else if starts_at > now {
        "未开始"
    } else {
        "进行中"
    }
}

/// What is wrong with a title and a schedule (`is_new`: one being added, which must not have
/// ended already), pushed to `errors` by field.
pub fn check_schedule(errors: &mut Vec<(String, String)>, title: &str, starts_at: i64, ends_at: i64, is_new: bool, now: i64) {
    let mut refuse = |field: &str, message: String| errors.push((field.to_owned(), message));
    let title = title.trim();
    if title.is_empty() {
        refuse("title", "请填写活动名称".into());
    } else if title.chars().count() > TITLE_MAX {
        refuse("title", format!("活动名称不能超过{TITLE_MAX}个字"));
    }
    if starts_at <= 0 {
        refuse("starts_at", "请选择开始时间".into());
    }
    if ends_at <= starts_at {
        refuse("ends_at", "结束时间须晚于开始时间".into());
    } else if is_new && ends_at <= now {
        refuse("ends_at", "结束时间须晚于现在".into());
    }
}

/// A kind of scheduled promotion: its table (with `starts_at` and `ends_at`), how the trail names
/// it (`flash:12`, `flash.end`) and how the operator does (`秒杀`).
#[derive(Clone, Copy, Debug)]
pub struct Scheduled {
    pub table: &'static str,
    pub target: &'static str,
    pub noun: &'static str,
}

/// Ends promotion `id` of `kind` now, in the caller's transaction, given its title and schedule
/// as read there: buyers no longer see it. One not yet started ends before it begins (its start
/// moves to now as well). A 409 when it has ended.
pub async fn end(
    tx: &mut AnyConnection,
    actor: &Actor,
    kind: Scheduled,
    id: i64,
    title: &str,
    (starts_at, ends_at): (i64, i64),
    now: i64,
) -> Result<()> {
    if ends_at <= now {
        return Err(Error::conflict(format!("{}已结束", kind.noun)));
    }
    let started = starts_at.min(now);
    let sql = format!("UPDATE {} SET starts_at = $1, ends_at = $2 WHERE id = $3", kind.table);
    sqlx::query(sqlx::AssertSqlSafe(sql)).bind(started).bind(now).bind(id).execute(&mut *tx).await?;
    let action = format!("{}.end", kind.target);
    let entry = Entry {
        action: &action,
        target: format!("{}:{id}", kind.target),
        member: None,
        summary: format!("结束{} {id} {title}", kind.noun).trim_end().to_owned(),
        before: json!({ "starts_at": starts_at, "ends_at": ends_at }),
        after: json!({ "starts_at": started, "ends_at": now }),
    };
    audit::record(tx, actor, entry, now).await?;
    Ok(())
}

/// How a kind of tier names its second amount: 满减's `减额`, 返现's `返现`.
#[derive(Clone, Copy, Debug)]
pub struct TierWords {
    /// The second amount: `减额`.
    pub amount: &'static str,
    /// The kind, in "at most N tiers of it" and "set at least one": `满减`.
    pub kind: &'static str,
    /// An example tier: `200:20`.
    pub example: &'static str,
}

/// The tiers as written, the threshold and the second amount by colon, tiers by commas:
/// `200:20,500:60`, as stored money. Each refusal names its tier.
pub fn read_tiers(text: &str, words: TierWords) -> Result<Vec<(i64, i64)>, String> {
    let parts: Vec<&str> = text.split([',', '，']).map(str::trim).filter(|part| !part.is_empty()).collect();
    let mut tiers = Vec::with_capacity(parts.len());
    for (n, part) in parts.iter().enumerate() {
        let n = n + 1;
        let (threshold, amount) =
            part.split_once([':', '：']).ok_or_else(|| format!("第{n}档应写作 满额:{}，如 {}", words.amount, words.example))?;
        let read = |text: &str, what: &str| -> Result<i64, String> {
            let money = engine::Money::parse(text.trim()).map_err(|_| format!("第{n}档{what}应为金额"))?;
            if money.decimal().scale() > 2 {
                return Err(format!("第{n}档{what}最多两位小数"));
            }
            Stored::from_money(money).map(Stored::units).ok_or_else(|| format!("第{n}档{what}过大"))
        };
        tiers.push((read(threshold, "门槛")?, read(amount, words.amount)?));
    }
    Ok(tiers)
}

/// The tiers as the form writes them: `200.00:20.00,500.00:60.00`.
pub fn tiers_text(tiers: &[(i64, i64)]) -> String {
    tiers.iter().map(|(threshold, amount)| format!("{}:{}", money::text(*threshold), money::text(*amount))).collect::<Vec<_>>().join(",")
}

/// The first thing wrong with `tiers`: none or more than `max`, an amount not above 0 or not
/// below its threshold, thresholds or amounts not rising (a higher threshold giving no more
/// would never be the tier applied).
pub fn check_tiers(tiers: &[(i64, i64)], max: usize, words: TierWords) -> Option<String> {
    let what = words.amount;
    if tiers.is_empty() {
        return Some(format!("请至少设置一档{}", words.kind));
    }
    if tiers.len() > max {
        return Some(format!("{}最多{max}档", words.kind));
    }
    let mut before: Option<(i64, i64)> = None;
    for (n, &(threshold, amount)) in tiers.iter().enumerate() {
        let n = n + 1;
        let message = if threshold <= 0 {
            Some(format!("第{n}档门槛须大于0"))
        } else if amount <= 0 {
            Some(format!("第{n}档{what}须大于0"))
        } else if amount >= threshold {
            Some(format!("第{n}档{what}须小于门槛"))
        } else {
            match before {
                Some((last, _)) if threshold <= last => Some(format!("第{n}档门槛须高于第{}档", n - 1)),
                Some((_, last)) if amount <= last => Some(format!("第{n}档{what}须大于第{}档", n - 1)),
                _ => None,
            }
        };
        if message.is_some() {
            return message;
        }
        before = Some((threshold, amount));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    const BACK: TierWords = TierWords { amount: "返现", kind: "返现", example: "1000:20" };

    #[test]
    fn tiers_read_as_written_and_each_refusal_names_its_tier() {
        assert_eq!(read_tiers("1000:20，3000：80", BACK), Ok(vec![(10_000_000, 200_000), (30_000_000, 800_000)]));
        assert_eq!(read_tiers("1000-20", BACK), Err("第1档应写作 满额:返现，如 1000:20".into()));
        assert_eq!(read_tiers("1000:20,3000:8.005", BACK), Err("第2档返现最多两位小数".into()));
        assert_eq!(tiers_text(&[(10_000_000, 200_000)]), "1000.00:20.00");
    }

    #[test]
    fn tiers_must_rise_and_give_less_than_their_threshold() {
        assert_eq!(check_tiers(&[], 5, BACK).as_deref(), Some("请至少设置一档返现"));
        assert_eq!(check_tiers(&[(100, 100)], 5, BACK).as_deref(), Some("第1档返现须小于门槛"));
        assert_eq!(check_tiers(&[(100, 10), (100, 20)], 5, BACK).as_deref(), Some("第2档门槛须高于第1档"));
        assert_eq!(check_tiers(&[(100, 10), (200, 10)], 5, BACK).as_deref(), Some("第2档返现须大于第1档"));
        assert_eq!(check_tiers(&[(100, 10); 6], 5, BACK).as_deref(), Some("返现最多5档"));
        assert_eq!(check_tiers(&[(100, 10), (200, 20)], 5, BACK), None);
    }
}
