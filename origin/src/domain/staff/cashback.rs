//! 满额返现 activities in the console (docs/backoffice.md, "Promotions"): a title, a schedule and
//! tiers `threshold:back`. The crediting itself is `crate::domain::cashback`, when an order
//! completes; this is how the operator sets the activity up.
//!
//! - One activity runs at a time: a schedule that overlaps another activity that has not ended
//!   is refused with a conflict naming it (the buyer's page and every order would otherwise take
//!   only the newer one).
//! - An order placed while an activity runs is paid back by that activity's tiers when it
//!   completes, so once an activity has started its tiers and its start are fixed: the order a
//!   buyer placed at `满1000返20` is not paid by tiers written afterwards. Its title and its end
//!   still change, and it can be ended at once.
//! - The preview answers, by the engine (rule 22), what orders of sample goods amounts get back.

use serde::Serialize;
use serde_json::json;
use sqlx::AnyConnection;
use utoipa::ToSchema;

use super::audit::{self, Actor, Entry};
use super::orders::begin_write;
use super::schedule::{self, Scheduled, TierWords, state, tiers_text};
use crate::domain::cashback::back_for;
use crate::domain::{Error, Result};
use crate::money;

/// An activity has at most this many tiers.
pub const MAX_TIERS: usize = 5;
/// A preview answers at most this many sample amounts.
pub const MAX_SAMPLE: usize = 20;
/// How 返现 tiers are written: `1000:20` gives 20 back on orders of 1000.
pub const WORDS: TierWords = TierWords { amount: "返现", kind: "返现", example: "1000:20" };

/// An activity as the operator writes it.
#[derive(Clone, Debug, Default)]
pub struct Draft {
    pub title: String,
    /// Unix seconds: the activity runs from `starts_at` until before `ends_at`.
    pub starts_at: i64,
    pub ends_at: i64,
    /// `(threshold, back)`, stored money, smallest first.
    pub tiers: Vec<(i64, i64)>,
}

/// The tiers as written: `1000:20,3000:80`.
pub fn read_tiers(text: &str) -> std::result::Result<Vec<(i64, i64)>, String> {
    schedule::read_tiers(text, WORDS)
}

/// The tiers as a buyer reads them: `满1000返20、满3000返80`.
pub fn tiers_title(tiers: &[(i64, i64)]) -> String {
    tiers.iter().map(|(threshold, back)| format!("满{}返{}", money::yuan(*threshold), money::yuan(*back))).collect::<Vec<_>>().join("、")
}

/// What is wrong with `draft` on its own, field by field.
pub fn check_draft(draft: &Draft, is_new: bool, now: i64) -> Vec<(String, String)> {
    let mut errors = Vec::new();
    schedule::check_schedule(&mut errors, &draft.title, draft.starts_at, draft.ends_at, is_new, now);
    if let Some(message) = schedule::check_tiers(&draft.tiers, MAX_TIERS, WORDS) {
        errors.push(("tiers".into(), message));
    }
    errors
}

/// Another activity, not ended, whose time overlaps `draft`'s: `(id, title)`.
async fn overlapping(conn: &mut AnyConnection, own: Option<i64>, draft: &Draft, now: i64) -> Result<Option<(i64, String)>> {
    Ok(sqlx::query_as(
        "SELECT id, title FROM cashback_activities \
         WHERE is_on = 1 AND id <> $1 AND ends_at > $2 AND starts_at < $3 AND ends_at > $4 ORDER BY starts_at, id LIMIT 1",
    )
    .bind(own.unwrap_or(0))
    .bind(now)
    .bind(draft.ends_at)
    .bind(draft.starts_at)
    .fetch_optional(&mut *conn)
    .await?)
}

async fn read_draft(conn: &mut AnyConnection, id: i64) -> Result<Draft> {
    let head: Option<(String, i64, i64)> =
        sqlx::query_as("SELECT title, starts_at, ends_at FROM cashback_activities WHERE id = $1 AND is_on = 1")
            .bind(id)
            .fetch_optional(&mut *conn)
            .await?;
    let (title, starts_at, ends_at) = head.ok_or_else(|| Error::not_found("返现活动不存在"))?;
    let tiers = crate::domain::cashback::tiers(conn, id).await?;
    Ok(Draft { title, starts_at, ends_at, tiers })
}

fn audit_value(draft: &Draft) -> serde_json::Value {
    json!({ "title": draft.title.trim(), "starts_at": draft.starts_at, "ends_at": draft.ends_at, "tiers": tiers_text(&draft.tiers) })
}

/// Adds an activity (`id` `None`) or changes activity `id`, with its audit row. Answers its id.
pub async fn save(conn: &mut AnyConnection, actor: &Actor, id: Option<i64>, draft: Draft, now: i64) -> Result<i64> {
    let mut tx = begin_write(conn).await?;
    let before = match id {
        Some(id) => Some(read_draft(&mut tx, id).await?),
        None => None,
    };
    if let Some(before) = &before {
        if before.ends_at <= now {
            return Err(Error::conflict("活动已结束，不能修改"));
        }
        if before.starts_at <= now {
            if before.tiers != draft.tiers {
                return Err(Error::field("tiers", "活动已开始，返现档位不能修改"));
            }
            if before.starts_at != draft.starts_at {
                return Err(Error::field("starts_at", "活动已开始，开始时间不能修改"));
            }
        }
    }
    let errors = check_draft(&draft, id.is_none(), now);
    if !errors.is_empty() {
        return Err(Error::Validation(errors));
    }
    if let Some((other, title)) = overlapping(&mut tx, id, &draft, now).await? {
        return Err(Error::conflict(format!("与返现活动{other}「{title}」时间重叠：同一时间只能有一个返现活动")));
    }
    let title = draft.title.trim();
    let id = match id {
        Some(id) => {
            sqlx::query("UPDATE cashback_activities SET title = $1, starts_at = $2, ends_at = $3 WHERE id = $4")
                .bind(title)
                .bind(draft.starts_at)
                .bind(draft.ends_at)
                .bind(id)
                .execute(&mut *tx)
                .await?;
            sqlx::query("DELETE FROM cashback_tiers WHERE activity_id = $1").bind(id).execute(&mut *tx).await?;
            id
        }
        None => {
            sqlx::query_scalar("INSERT INTO cashback_activities (title, starts_at, ends_at) VALUES ($1, $2, $3) RETURNING id")
                .bind(title)
                .bind(draft.starts_at)
                .bind(draft.ends_at)
                .fetch_one(&mut *tx)
                .await?
        }
    };
    for (threshold, back) in &draft.tiers {
        sqlx::query("INSERT INTO cashback_tiers (activity_id, amount, back) VALUES ($1, $2, $3)")
            .bind(id)
            .bind(threshold)
            .bind(back)
            .execute(&mut *tx)
            .await?;
    }
    let (action, verb) = if before.is_some() { ("cashback.change", "修改") } else { ("cashback.add", "新增") };
    let entry = Entry {
        action,
        target: format!("cashback:{id}"),
        member: None,
        summary: format!("{verb}返现活动 {id} {title}：{}", tiers_title(&draft.tiers)),
        before: before.as_ref().map(audit_value).unwrap_or_else(|| json!({})),
        after: audit_value(&draft),
    };
    audit::record(&mut tx, actor, entry, now).await?;
    tx.commit().await?;
    Ok(id)
}

/// 满额返现 activities, as a scheduled promotion.
const SCHEDULED: Scheduled = Scheduled { table: "cashback_activities", target: "cashback", noun: "返现活动" };

/// Ends activity `id` now: orders placed from now on earn nothing; those placed under it are
/// still paid back when they complete.
pub async fn end(conn: &mut AnyConnection, actor: &Actor, id: i64, now: i64) -> Result<()> {
    let mut tx = begin_write(conn).await?;
    let draft = read_draft(&mut tx, id).await?;
    schedule::end(&mut tx, actor, SCHEDULED, id, &draft.title, (draft.starts_at, draft.ends_at), now).await?;
    tx.commit().await?;
    Ok(())
}

/// One tier, as the form and the buyer read it.
#[derive(Debug, Serialize, ToSchema)]
pub struct CashbackTierText {
    #[schema(example = "1000.00")]
    pub amount: String,
    #[schema(example = "20.00")]
    pub back: String,
    #[schema(example = "满1000返20")]
    pub title: String,
}

fn tier_texts(tiers: &[(i64, i64)]) -> Vec<CashbackTierText> {
    tiers
        .iter()
        .map(|&(threshold, back)| CashbackTierText {
            amount: money::text(threshold),
            back: money::text(back),
            title: tiers_title(&[(threshold, back)]),
        })
        .collect()
}

/// An activity in the console's list.
#[derive(Debug, Serialize, ToSchema)]
pub struct CashbackRow {
    pub id: i64,
    pub title: String,
    pub starts_at: i64,
    pub ends_at: i64,
    /// 未开始, 进行中 or 已结束.
    pub state: &'static str,
    pub tiers: Vec<CashbackTierText>,
    /// Orders placed under it (cancelled ones not counted).
    pub orders: i64,
    /// Cash back its orders hold now (credited, less what returns took back).
    #[schema(example = "120.00")]
    pub paid_back: String,
}

/// Every activity, newest first.
pub async fn list(conn: &mut AnyConnection, now: i64) -> Result<Vec<CashbackRow>> {
    let heads: Vec<(i64, String, i64, i64, i64, i64)> = sqlx::query_as(
        "SELECT a.id, a.title, a.starts_at, a.ends_at, \
                CAST((SELECT COUNT(*) FROM orders o WHERE o.cashback_activity_id = a.id AND o.status <> $1) AS BIGINT), \
                CAST(COALESCE((SELECT SUM(o.cashback) FROM orders o WHERE o.cashback_activity_id = a.id), 0) AS BIGINT) \
         FROM cashback_activities a WHERE a.is_on = 1 ORDER BY a.id DESC",
    )
    .bind(crate::domain::orders::life::OrderStatus::Cancelled)
    .fetch_all(&mut *conn)
    .await?;
    let mut rows = Vec::with_capacity(heads.len());
    for (id, title, starts_at, ends_at, orders, paid_back) in heads {
        let tiers = crate::domain::cashback::tiers(conn, id).await?;
        rows.push(CashbackRow {
            id,
            title,
            starts_at,
            ends_at,
            state: state(starts_at, ends_at, now),
            tiers: tier_texts(&tiers),
            orders,
            paid_back: money::text(paid_back),
        });
    }
    Ok(rows)
}

/// What an order of a sample goods amount gets back.
#[derive(Debug, Serialize, ToSchema)]
pub struct CashbackSample {
    /// The order's goods, as paid (rule 19).
    #[schema(example = "1000.00")]
    pub amount: String,
    /// The engine's answer: the greatest back among the tiers it reaches.
    #[schema(example = "20.00")]
    pub back: String,
    /// The tier reached, `满1000返20`; empty below the first.
    pub tier: String,
}

/// The samples when none are given: each tier's threshold and a cent below it.
pub fn default_sample(tiers: &[(i64, i64)]) -> Vec<i64> {
    tiers.iter().flat_map(|(threshold, _)| [threshold - 100, *threshold]).filter(|amount| *amount > 0).collect()
}

/// The engine's answer for orders whose goods come to each of `sample` (stored) under `draft`'s
/// tiers. Changes nothing.
pub fn preview(draft: &Draft, sample: &[i64], now: i64) -> Result<Vec<CashbackSample>> {
    let mut errors = check_draft(draft, false, now);
    if sample.len() > MAX_SAMPLE {
        errors.push(("sample".into(), format!("试算金额最多{MAX_SAMPLE}个")));
    }
    if !errors.is_empty() {
        return Err(Error::Validation(errors));
    }
    let sample = if sample.is_empty() { default_sample(&draft.tiers) } else { sample.to_vec() };
    sample
        .into_iter()
        .map(|amount| {
            let back = back_for(&draft.tiers, amount)?;
            let tier = draft.tiers.iter().rev().find(|(threshold, _)| *threshold <= amount).map(|tier| tiers_title(&[*tier]));
            Ok(CashbackSample { amount: money::text(amount), back: money::text(back), tier: tier.unwrap_or_default() })
        })
        .collect()
}
