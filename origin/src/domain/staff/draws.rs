//! 抽奖 activities in the console (docs/backoffice.md, "Promotions"): a title, a description, a
//! schedule and its prizes with their odds.
//!
//! - A prize is 谢谢参与 (nothing), a coupon of a template, points or red packets, with a weight
//!   and (but 谢谢参与) a stock. A draw picks among the prizes with stock left by weight, so a
//!   prize's chance is its weight over the weights of those left; once every prize is handed
//!   out, every draw is 谢谢参与. An activity has exactly one 谢谢参与, the answer when nothing
//!   is left.
//! - One activity runs at a time (the draw popup shows one): an overlapping schedule is refused
//!   naming the other.
//! - Members' draws hold their prizes: a prize already drawn keeps its kind and cannot be taken
//!   out, and its stock never goes below what was handed out. Weights and stock may change while
//!   the activity runs; the next draw uses them.
//! - The preview answers each prize's chance now, before anything is saved.

use serde::{Deserialize, Serialize};
use serde_json::json;
use sqlx::AnyConnection;
use utoipa::ToSchema;

use super::audit::{self, Actor, Entry};
use super::orders::begin_write;
use super::schedule::{self, Scheduled, state};
use crate::domain::promotions::PrizeKind;
use crate::domain::{Error, Result};
use crate::money;

/// An activity has 2 to this many prizes.
pub const MAX_PRIZES: usize = 12;
/// The longest prize name kept, in characters.
pub const PRIZE_NAME_MAX: usize = 20;

/// A prize as the operator writes it: `id` for one already saved.
#[derive(Clone, Debug, Deserialize, Serialize, ToSchema, PartialEq)]
pub struct PrizeDraft {
    #[serde(default)]
    pub id: Option<i64>,
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub remarks: String,
    /// 0 谢谢参与, 1 a coupon, 2 points, 3 red packets.
    pub kind: i64,
    /// Kind 1: the coupon template.
    #[serde(default)]
    pub coupon_id: Option<i64>,
    /// Kind 2: the points given.
    #[serde(default)]
    pub points: i64,
    /// Kind 3: the red packets given, `5.00`.
    #[serde(default)]
    #[schema(example = "5.00")]
    pub red_packet: String,
    /// The prize's relative chance among those with stock left.
    pub weight: i64,
    /// How many may be handed out in all (谢谢参与: 0).
    #[serde(default)]
    pub stock: i64,
}

/// An activity as the operator writes it.
#[derive(Clone, Debug, Default)]
pub struct Draft {
    pub title: String,
    pub description: String,
    pub starts_at: i64,
    pub ends_at: i64,
    pub prizes: Vec<PrizeDraft>,
}

/// A prize checked, with its money stored.
#[derive(Clone, Debug)]
struct Prize {
    id: Option<i64>,
    name: String,
    remarks: String,
    kind: PrizeKind,
    coupon_id: Option<i64>,
    points: i64,
    red_packet: i64,
    weight: i64,
    stock: i64,
}

/// The prizes as the form sends them, a JSON array.
pub fn read_prizes(text: &str) -> std::result::Result<Vec<PrizeDraft>, String> {
    serde_json::from_str(text).map_err(|_| "奖品格式不正确".to_owned())
}

/// Checks each prize on its own; the first refusal names the prize.
fn checked_prizes(prizes: &[PrizeDraft]) -> std::result::Result<Vec<Prize>, String> {
    if prizes.len() < 2 {
        return Err("至少设置2个奖品（含谢谢参与）".into());
    }
    if prizes.len() > MAX_PRIZES {
        return Err(format!("奖品最多{MAX_PRIZES}个"));
    }
    let mut checked = Vec::with_capacity(prizes.len());
    for (n, prize) in prizes.iter().enumerate() {
        let n = n + 1;
        let kind = PrizeKind::from_code(prize.kind).ok_or_else(|| format!("第{n}个奖品的类型不正确"))?;
        let name = prize.name.trim();
        if name.is_empty() {
            return Err(format!("请填写第{n}个奖品的名称"));
        }
        if name.chars().count() > PRIZE_NAME_MAX {
            return Err(format!("第{n}个奖品的名称不能超过{PRIZE_NAME_MAX}个字"));
        }
        if !(1..=1_000_000).contains(&prize.weight) {
            return Err(format!("第{n}个奖品的权重应在1到1000000之间"));
        }
        let mut red_packet = 0;
        match kind {
            PrizeKind::Nothing => {}
            PrizeKind::Coupon if prize.coupon_id.is_none() => return Err(format!("请选择第{n}个奖品的优惠券")),
            PrizeKind::Coupon => {}
            PrizeKind::Points if !(1..=1_000_000).contains(&prize.points) => {
                return Err(format!("第{n}个奖品的积分应在1到1000000之间"));
            }
            PrizeKind::Points => {}
            PrizeKind::RedPacket => {
                let text = prize.red_packet.trim();
                let scale_ok = engine::Money::parse(text).is_ok_and(|money| money.decimal().scale() <= 2);
                red_packet = money::parse_stored(text)
                    .filter(|stored| scale_ok && *stored > 0)
                    .ok_or_else(|| format!("第{n}个奖品的红包金额应为大于0的金额"))?;
            }
        }
        if kind != PrizeKind::Nothing && !(0..=1_000_000).contains(&prize.stock) {
            return Err(format!("第{n}个奖品的数量应在0到1000000之间"));
        }
        checked.push(Prize {
            id: prize.id,
            name: name.to_owned(),
            remarks: prize.remarks.trim().chars().take(60).collect(),
            kind,
            coupon_id: if kind == PrizeKind::Coupon { prize.coupon_id } else { None },
            points: if kind == PrizeKind::Points { prize.points } else { 0 },
            red_packet,
            weight: prize.weight,
            stock: if kind == PrizeKind::Nothing { 0 } else { prize.stock },
        });
    }
    if checked.iter().filter(|prize| prize.kind == PrizeKind::Nothing).count() != 1 {
        return Err("须有且只有一个“谢谢参与”".into());
    }
    Ok(checked)
}

/// What is wrong with `draft` on its own, field by field.
pub fn check_draft(draft: &Draft, is_new: bool, now: i64) -> Vec<(String, String)> {
    let mut errors = Vec::new();
    schedule::check_schedule(&mut errors, &draft.title, draft.starts_at, draft.ends_at, is_new, now);
    if draft.description.trim().chars().count() > 200 {
        errors.push(("description".into(), "活动说明不能超过200个字".into()));
    }
    if let Err(message) = checked_prizes(&draft.prizes) {
        errors.push(("prizes".into(), message));
    }
    errors
}

/// Each prize's chance of a draw now, as a percentage with two decimals (`12.50`): its weight
/// over the weights of the prizes with stock left (`left[i]`); 谢谢参与 takes every draw once
/// nothing else is left.
pub fn odds(weights: &[(i64, bool, bool)]) -> Vec<String> {
    // (weight, is 谢谢参与, has stock left)
    let total: i64 = weights.iter().filter(|(_, nothing, left)| *nothing || *left).map(|(weight, ..)| weight).sum();
    weights
        .iter()
        .map(|&(weight, nothing, left)| {
            let share = if !(nothing || left) || total == 0 {
                rust_decimal::Decimal::ZERO
            } else {
                rust_decimal::Decimal::from(weight * 100) / rust_decimal::Decimal::from(total)
            };
            format!("{:.2}", share.round_dp(2))
        })
        .collect()
}

/// Another activity, not ended, whose time overlaps `draft`'s: `(id, title)`.
async fn overlapping(conn: &mut AnyConnection, own: Option<i64>, draft: &Draft, now: i64) -> Result<Option<(i64, String)>> {
    Ok(sqlx::query_as(
        "SELECT id, title FROM draw_activities \
         WHERE is_on = 1 AND id <> $1 AND ends_at > $2 AND starts_at < $3 AND ends_at > $4 ORDER BY starts_at, id LIMIT 1",
    )
    .bind(own.unwrap_or(0))
    .bind(now)
    .bind(draft.ends_at)
    .bind(draft.starts_at)
    .fetch_optional(&mut *conn)
    .await?)
}

/// A saved prize as the trail and the checks read it: with what was handed out and drawn.
#[derive(sqlx::FromRow)]
struct SavedPrize {
    id: i64,
    name: String,
    kind: PrizeKind,
    weight: i64,
    stock: i64,
    handed: i64,
    drawn: i64,
}

async fn saved_prizes(conn: &mut AnyConnection, activity: i64) -> Result<Vec<SavedPrize>> {
    Ok(sqlx::query_as(
        "SELECT p.id, p.name, p.kind, p.weight, p.stock, p.handed, \
                CAST((SELECT COUNT(*) FROM draw_records r WHERE r.prize_id = p.id) AS BIGINT) AS drawn \
         FROM draw_prizes p WHERE p.activity_id = $1 ORDER BY p.sort, p.id",
    )
    .bind(activity)
    .fetch_all(&mut *conn)
    .await?)
}

fn audit_value(title: &str, starts_at: i64, ends_at: i64, prizes: &[(String, &'static str, i64, i64)]) -> serde_json::Value {
    let prizes: Vec<serde_json::Value> =
        prizes.iter().map(|(name, kind, weight, stock)| json!({ "name": name, "kind": kind, "weight": weight, "stock": stock })).collect();
    json!({ "title": title, "starts_at": starts_at, "ends_at": ends_at, "prizes": prizes })
}

/// Adds an activity (`id` `None`) or replaces activity `id`'s title, schedule and prizes, with
/// its audit row. Answers its id.
pub async fn save(conn: &mut AnyConnection, actor: &Actor, id: Option<i64>, draft: Draft, now: i64) -> Result<i64> {
    let errors = check_draft(&draft, id.is_none(), now);
    if !errors.is_empty() {
        return Err(Error::Validation(errors));
    }
    let prizes = checked_prizes(&draft.prizes).map_err(|message| Error::field("prizes", message))?;
    let mut tx = begin_write(conn).await?;
    let before = match id {
        Some(id) => {
            let head: Option<(String, i64, i64)> =
                sqlx::query_as("SELECT title, starts_at, ends_at FROM draw_activities WHERE id = $1 AND is_on = 1")
                    .bind(id)
                    .fetch_optional(&mut *tx)
                    .await?;
            let (title, starts_at, ends_at) = head.ok_or_else(|| Error::not_found("抽奖活动不存在"))?;
            if ends_at <= now {
                return Err(Error::conflict("活动已结束，不能修改"));
            }
            Some((title, starts_at, ends_at, saved_prizes(&mut tx, id).await?))
        }
        None => None,
    };
    let saved: &[SavedPrize] = before.as_ref().map(|(.., prizes)| prizes.as_slice()).unwrap_or_default();
    for (n, prize) in prizes.iter().enumerate() {
        let n = n + 1;
        let Some(prize_id) = prize.id else { continue };
        let old = saved.iter().find(|old| old.id == prize_id).ok_or_else(|| Error::field("prizes", format!("第{n}个奖品不属于本活动")))?;
        if old.drawn > 0 && old.kind != prize.kind {
            return Err(Error::field("prizes", format!("第{n}个奖品已有人抽中，不能修改类型")));
        }
        if prize.kind != PrizeKind::Nothing && prize.stock < old.handed {
            return Err(Error::field("prizes", format!("第{n}个奖品的数量不能少于已发出的{}个", old.handed)));
        }
    }
    if let Some(gone) = saved.iter().find(|old| old.drawn > 0 && !prizes.iter().any(|prize| prize.id == Some(old.id))) {
        return Err(Error::field("prizes", format!("奖品“{}”已有人抽中，不能删除", gone.name)));
    }
    for (n, prize) in prizes.iter().enumerate().filter(|(_, prize)| prize.kind == PrizeKind::Coupon) {
        let found: Option<i64> =
            sqlx::query_scalar("SELECT id FROM coupons WHERE id = $1").bind(prize.coupon_id).fetch_optional(&mut *tx).await?;
        if found.is_none() {
            return Err(Error::field("prizes", format!("第{}个奖品的优惠券不存在", n + 1)));
        }
    }
    if let Some((other, title)) = overlapping(&mut tx, id, &draft, now).await? {
        return Err(Error::conflict(format!("与抽奖活动{other}「{title}」时间重叠：同一时间只能有一个抽奖活动")));
    }
    let title = draft.title.trim();
    let description = draft.description.trim();
    let id = match id {
        Some(id) => {
            sqlx::query("UPDATE draw_activities SET title = $1, description = $2, starts_at = $3, ends_at = $4 WHERE id = $5")
                .bind(title)
                .bind(description)
                .bind(draft.starts_at)
                .bind(draft.ends_at)
                .bind(id)
                .execute(&mut *tx)
                .await?;
            id
        }
        None => {
            sqlx::query_scalar("INSERT INTO draw_activities (title, description, starts_at, ends_at) VALUES ($1, $2, $3, $4) RETURNING id")
                .bind(title)
                .bind(description)
                .bind(draft.starts_at)
                .bind(draft.ends_at)
                .fetch_one(&mut *tx)
                .await?
        }
    };
    for old in saved.iter().filter(|old| !prizes.iter().any(|prize| prize.id == Some(old.id))) {
        sqlx::query("DELETE FROM draw_prizes WHERE id = $1").bind(old.id).execute(&mut *tx).await?;
    }
    for (sort, prize) in prizes.iter().enumerate() {
        let sql = match prize.id {
            Some(_) => {
                "UPDATE draw_prizes SET name = $1, remarks = $2, kind = $3, coupon_id = $4, points = $5, red_packet = $6, weight = $7, \
                 stock = $8, sort = $9 WHERE activity_id = $10 AND id = $11"
            }
            None => {
                "INSERT INTO draw_prizes (name, remarks, kind, coupon_id, points, red_packet, weight, stock, sort, activity_id) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)"
            }
        };
        let query = sqlx::query(sql)
            .bind(&prize.name)
            .bind(&prize.remarks)
            .bind(prize.kind)
            .bind(prize.coupon_id)
            .bind(prize.points)
            .bind(prize.red_packet)
            .bind(prize.weight)
            .bind(prize.stock)
            .bind(sort as i64)
            .bind(id);
        match prize.id {
            Some(prize_id) => query.bind(prize_id).execute(&mut *tx).await?,
            None => query.execute(&mut *tx).await?,
        };
    }
    let written: Vec<(String, &'static str, i64, i64)> =
        prizes.iter().map(|prize| (prize.name.clone(), prize.kind.name(), prize.weight, prize.stock)).collect();
    let (action, verb) = if before.is_some() { ("draw.change", "修改") } else { ("draw.add", "新增") };
    let entry = Entry {
        action,
        target: format!("draw:{id}"),
        member: None,
        summary: format!("{verb}抽奖活动 {id} {title}：{}个奖品", prizes.len()),
        before: before
            .as_ref()
            .map(|(title, starts_at, ends_at, saved)| {
                let prizes: Vec<(String, &'static str, i64, i64)> =
                    saved.iter().map(|prize| (prize.name.clone(), prize.kind.name(), prize.weight, prize.stock)).collect();
                audit_value(title, *starts_at, *ends_at, &prizes)
            })
            .unwrap_or_else(|| json!({})),
        after: audit_value(title, draft.starts_at, draft.ends_at, &written),
    };
    audit::record(&mut tx, actor, entry, now).await?;
    tx.commit().await?;
    Ok(id)
}

/// Lucky-draw activities, as a scheduled promotion.
const SCHEDULED: Scheduled = Scheduled { table: "draw_activities", target: "draw", noun: "抽奖活动" };

/// Ends activity `id` now: no member draws in it any more; what was drawn stays.
pub async fn end(conn: &mut AnyConnection, actor: &Actor, id: i64, now: i64) -> Result<()> {
    let mut tx = begin_write(conn).await?;
    let head: Option<(String, i64, i64)> =
        sqlx::query_as("SELECT title, starts_at, ends_at FROM draw_activities WHERE id = $1 AND is_on = 1")
            .bind(id)
            .fetch_optional(&mut *tx)
            .await?;
    let (title, starts_at, ends_at) = head.ok_or_else(|| Error::not_found("抽奖活动不存在"))?;
    schedule::end(&mut tx, actor, SCHEDULED, id, &title, (starts_at, ends_at), now).await?;
    tx.commit().await?;
    Ok(())
}

/// A prize in the console, with its chance now.
#[derive(Debug, Serialize, ToSchema)]
pub struct PrizeRow {
    pub id: i64,
    pub name: String,
    pub remarks: String,
    pub kind: i64,
    #[schema(value_type = String, example = "优惠券")]
    pub kind_name: &'static str,
    pub coupon_id: Option<i64>,
    pub points: i64,
    #[schema(example = "5.00")]
    pub red_packet: String,
    pub weight: i64,
    pub stock: i64,
    /// Handed out so far.
    pub handed: i64,
    /// Its chance of a draw now, percent: `12.50`.
    #[schema(example = "12.50")]
    pub chance: String,
}

/// An activity in the console's list.
#[derive(Debug, Serialize, ToSchema)]
pub struct DrawRow {
    pub id: i64,
    pub title: String,
    pub description: String,
    pub starts_at: i64,
    pub ends_at: i64,
    /// 未开始, 进行中 or 已结束.
    pub state: &'static str,
    /// Members who drew.
    pub draws: i64,
    pub prizes: Vec<PrizeRow>,
}

#[derive(sqlx::FromRow)]
struct PrizeData {
    id: i64,
    activity_id: i64,
    name: String,
    remarks: String,
    kind: PrizeKind,
    coupon_id: Option<i64>,
    points: i64,
    red_packet: i64,
    weight: i64,
    stock: i64,
    handed: i64,
}

/// Every activity, newest first, with its prizes and their chances now.
pub async fn list(conn: &mut AnyConnection, now: i64) -> Result<Vec<DrawRow>> {
    let heads: Vec<(i64, String, String, i64, i64, i64)> = sqlx::query_as(
        "SELECT a.id, a.title, a.description, a.starts_at, a.ends_at, \
                CAST((SELECT COUNT(*) FROM draw_records r WHERE r.activity_id = a.id) AS BIGINT) \
         FROM draw_activities a WHERE a.is_on = 1 ORDER BY a.id DESC",
    )
    .fetch_all(&mut *conn)
    .await?;
    let prizes: Vec<PrizeData> = sqlx::query_as(
        "SELECT id, activity_id, name, remarks, kind, coupon_id, points, red_packet, weight, stock, handed FROM draw_prizes ORDER BY sort, id",
    )
    .fetch_all(&mut *conn)
    .await?;
    Ok(heads
        .into_iter()
        .map(|(id, title, description, starts_at, ends_at, draws)| {
            let own: Vec<&PrizeData> = prizes.iter().filter(|prize| prize.activity_id == id).collect();
            let weights: Vec<(i64, bool, bool)> =
                own.iter().map(|prize| (prize.weight, prize.kind == PrizeKind::Nothing, prize.handed < prize.stock)).collect();
            let chances = odds(&weights);
            DrawRow {
                id,
                title,
                description,
                starts_at,
                ends_at,
                state: state(starts_at, ends_at, now),
                draws,
                prizes: own
                    .into_iter()
                    .zip(chances)
                    .map(|(prize, chance)| PrizeRow {
                        id: prize.id,
                        name: prize.name.clone(),
                        remarks: prize.remarks.clone(),
                        kind: prize.kind.code(),
                        kind_name: prize.kind.name(),
                        coupon_id: prize.coupon_id,
                        points: prize.points,
                        red_packet: money::text(prize.red_packet),
                        weight: prize.weight,
                        stock: prize.stock,
                        handed: prize.handed,
                        chance,
                    })
                    .collect(),
            }
        })
        .collect())
}

/// A prize's chance under a draft, as if nothing had been handed out.
#[derive(Debug, Serialize, ToSchema)]
pub struct PrizeChance {
    pub name: String,
    /// Percent, `12.50`.
    #[schema(example = "12.50")]
    pub chance: String,
}

/// The chance of each of `draft`'s prizes on the first draw (a prize of no stock never comes).
pub fn preview(draft: &Draft, now: i64) -> Result<Vec<PrizeChance>> {
    let errors = check_draft(draft, false, now);
    if !errors.is_empty() {
        return Err(Error::Validation(errors));
    }
    let prizes = checked_prizes(&draft.prizes).map_err(|message| Error::field("prizes", message))?;
    let weights: Vec<(i64, bool, bool)> =
        prizes.iter().map(|prize| (prize.weight, prize.kind == PrizeKind::Nothing, prize.stock > 0)).collect();
    Ok(prizes.into_iter().zip(odds(&weights)).map(|(prize, chance)| PrizeChance { name: prize.name, chance }).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_prize_s_chance_is_its_weight_over_those_left() {
        assert_eq!(odds(&[(1, true, false), (1, false, true), (2, false, true)]), ["25.00", "25.00", "50.00"]);
        // Handed out: it no longer counts, and nothing takes its share.
        assert_eq!(odds(&[(1, true, false), (1, false, true), (2, false, false)]), ["50.00", "50.00", "0.00"]);
        assert_eq!(odds(&[(1, true, false), (2, false, true)]), ["33.33", "66.67"]);
    }

    #[test]
    fn an_activity_has_exactly_one_thanks_for_taking_part() {
        let prize = |kind: i64, stock: i64| PrizeDraft {
            id: None,
            name: "奖".into(),
            remarks: String::new(),
            kind,
            coupon_id: None,
            points: 10,
            red_packet: String::new(),
            weight: 1,
            stock,
        };
        assert_eq!(checked_prizes(&[prize(2, 5), prize(2, 5)]).unwrap_err(), "须有且只有一个“谢谢参与”");
        assert_eq!(checked_prizes(&[prize(0, 0), prize(3, 5)]).unwrap_err(), "第2个奖品的红包金额应为大于0的金额");
        assert_eq!(checked_prizes(&[prize(0, 0), prize(2, 5)]).unwrap().len(), 2);
    }
}
