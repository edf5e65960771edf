//! 满减 activities in the console (docs/backoffice.md, "Promotions"): a title, a schedule, its
//! tiers and its goods.
//!
//! A goods takes part in one activity at a time (`goods.manjian_id`). Putting into an activity
//! goods that are in another one that has not ended is a conflict: the operator is shown which
//! goods and which activity, and saves only by confirming that they move. Buyers see an
//! activity only while it runs (`starts_at <= now < ends_at`): on cards, on the detail page and
//! in the cart's quote. The preview prices a sample cart with a draft's tiers by the engine,
//! before anything is saved.

use serde::Serialize;
use serde_json::json;
use sqlx::AnyConnection;
use utoipa::ToSchema;

use super::audit::{self, Actor, Entry};
use super::orders::begin_write;
use super::schedule::{self, Scheduled, TierWords, tiers_text};
pub use super::schedule::{TITLE_MAX, state};
use crate::domain::cart::{NORMAL, sample_input};
use crate::domain::catalogue::card::{CardRow, card, card_columns};
use crate::domain::catalogue::viewer::Viewer;
use crate::domain::{Error, Result};
use crate::money;
use engine::contract::CartQuote;

/// An activity has at most this many tiers.
pub const MAX_TIERS: usize = 5;
/// A sample cart has at most this many lines.
pub const MAX_SAMPLE: usize = 20;

/// An activity as the operator writes it.
#[derive(Clone, Debug, Default)]
pub struct Draft {
    pub title: String,
    /// Unix seconds: the activity runs from `starts_at` until before `ends_at`.
    pub starts_at: i64,
    pub ends_at: i64,
    /// `(amount, reduce)`, stored money, in the order written.
    pub tiers: Vec<(i64, i64)>,
    /// The goods taking part, by id.
    pub goods: Vec<i64>,
}

/// How 满减 tiers are written: `200:20` takes 20 off at 200.
pub const WORDS: TierWords = TierWords { amount: "减额", kind: "满减", example: "200:20" };

/// The tiers as written, `满` amount and `减` amount by colon, tiers by commas:
/// `200:20,500:60`. Each refusal names its tier.
pub fn read_tiers(text: &str) -> std::result::Result<Vec<(i64, i64)>, String> {
    schedule::read_tiers(text, WORDS)
}

/// The tiers as a buyer reads them: `满200减20、满500减60`.
pub fn tiers_title(tiers: &[(i64, i64)]) -> String {
    tiers
        .iter()
        .filter_map(|(amount, reduce)| {
            Some(engine::text::manjian_title(money::from_stored(*amount).ok()?, money::from_stored(*reduce).ok()?))
        })
        .collect::<Vec<_>>()
        .join("、")
}

/// What is wrong with `draft` on its own, field by field (`is_new`: an activity being added,
/// which must not have ended already).
pub fn check_draft(draft: &Draft, is_new: bool, now: i64) -> Vec<(String, String)> {
    let mut errors = Vec::new();
    schedule::check_schedule(&mut errors, &draft.title, draft.starts_at, draft.ends_at, is_new, now);
    if let Some(message) = schedule::check_tiers(&draft.tiers, MAX_TIERS, WORDS) {
        errors.push(("tiers".into(), message));
    }
    if draft.goods.is_empty() {
        errors.push(("goods".into(), "请选择参加活动的商品".into()));
    }
    errors
}

/// A goods already in another activity that has not ended.
#[derive(Debug, Serialize, ToSchema, sqlx::FromRow)]
pub struct Conflict {
    pub goods_id: i64,
    pub goods_name: String,
    pub activity_id: i64,
    pub activity_title: String,
}

/// The goods of `goods` that take part in an activity other than `own` that has not ended.
pub async fn conflicts(conn: &mut AnyConnection, own: Option<i64>, goods: &[i64], now: i64) -> Result<Vec<Conflict>> {
    if goods.is_empty() {
        return Ok(Vec::new());
    }
    let ids = id_list(goods);
    Ok(sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT g.id AS goods_id, g.name AS goods_name, m.id AS activity_id, m.title AS activity_title \
         FROM goods g JOIN manjian_activities m ON m.id = g.manjian_id \
         WHERE g.id IN ({ids}) AND m.ends_at > $1 AND m.id <> $2 ORDER BY g.id"
    )))
    .bind(now)
    .bind(own.unwrap_or(0))
    .fetch_all(&mut *conn)
    .await?)
}

/// Ids as SQL text: integers only, so no quoting is needed.
fn id_list(ids: &[i64]) -> String {
    ids.iter().map(i64::to_string).collect::<Vec<_>>().join(", ")
}

/// The refusal of goods in other activities, naming the first few.
fn conflict_refusal(found: &[Conflict]) -> Error {
    let named: Vec<String> =
        found.iter().take(3).map(|conflict| format!("{}（{}）", conflict.goods_name, conflict.activity_title)).collect();
    let more = if found.len() > 3 { "等" } else { "" };
    Error::conflict(format!("{}个商品已在其他满减活动中：{}{more}；确认移入本活动后再保存", found.len(), named.join("、")))
}

/// Checks `draft` whole: its fields, that its goods exist, and (unless `move_goods`) that none
/// is in another activity that has not ended.
async fn check(conn: &mut AnyConnection, own: Option<i64>, draft: &Draft, move_goods: bool, now: i64) -> Result<()> {
    let mut errors = check_draft(draft, own.is_none(), now);
    if !draft.goods.is_empty() {
        let found: Vec<i64> =
            sqlx::query_scalar(sqlx::AssertSqlSafe(format!("SELECT id FROM goods WHERE id IN ({})", id_list(&draft.goods))))
                .fetch_all(&mut *conn)
                .await?;
        let unknown: Vec<String> = draft.goods.iter().filter(|id| !found.contains(id)).map(i64::to_string).collect();
        if !unknown.is_empty() {
            errors.push(("goods".into(), format!("商品不存在：{}", unknown.join("、"))));
        }
    }
    if !errors.is_empty() {
        return Err(Error::Validation(errors));
    }
    let found = conflicts(conn, own, &draft.goods, now).await?;
    if !found.is_empty() && !move_goods {
        return Err(conflict_refusal(&found));
    }
    Ok(())
}

/// What the trail keeps of an activity.
fn audit_value(draft: &Draft) -> serde_json::Value {
    json!({
        "title": draft.title.trim(),
        "starts_at": draft.starts_at,
        "ends_at": draft.ends_at,
        "tiers": tiers_text(&draft.tiers),
        "goods": draft.goods,
    })
}

/// Adds an activity (`id` `None`) or replaces activity `id`'s title, schedule, tiers and goods,
/// in one transaction with its audit row; goods in other activities move only with
/// `move_goods`. Answers the activity's id.
pub async fn save(conn: &mut AnyConnection, actor: &Actor, id: Option<i64>, draft: Draft, move_goods: bool, now: i64) -> Result<i64> {
    let mut draft = draft;
    draft.goods.sort_unstable();
    draft.goods.dedup();
    let mut tx = begin_write(conn).await?;
    let before = match id {
        Some(id) => {
            let record = read_draft(&mut tx, id).await?;
            if record.ends_at <= now {
                return Err(Error::conflict("活动已结束，不能修改"));
            }
            Some(record)
        }
        None => None,
    };
    check(&mut tx, id, &draft, move_goods, now).await?;
    let title = draft.title.trim();
    let id = match id {
        Some(id) => {
            sqlx::query("UPDATE manjian_activities SET title = $1, starts_at = $2, ends_at = $3 WHERE id = $4")
                .bind(title)
                .bind(draft.starts_at)
                .bind(draft.ends_at)
                .bind(id)
                .execute(&mut *tx)
                .await?;
            sqlx::query("DELETE FROM manjian_tiers WHERE activity_id = $1").bind(id).execute(&mut *tx).await?;
            id
        }
        None => {
            sqlx::query_scalar(
                "INSERT INTO manjian_activities (title, starts_at, ends_at, created_at) VALUES ($1, $2, $3, $4) RETURNING id",
            )
            .bind(title)
            .bind(draft.starts_at)
            .bind(draft.ends_at)
            .bind(now)
            .fetch_one(&mut *tx)
            .await?
        }
    };
    for (sort, (amount, reduce)) in draft.tiers.iter().enumerate() {
        sqlx::query("INSERT INTO manjian_tiers (activity_id, amount, reduce, sort) VALUES ($1, $2, $3, $4)")
            .bind(id)
            .bind(amount)
            .bind(reduce)
            .bind(sort as i64)
            .execute(&mut *tx)
            .await?;
    }
    let ids = id_list(&draft.goods);
    // Goods left out leave the activity; the chosen ones join it (moving out of any other).
    sqlx::query(sqlx::AssertSqlSafe(format!("UPDATE goods SET manjian_id = 0 WHERE manjian_id = $1 AND id NOT IN ({ids})")))
        .bind(id)
        .execute(&mut *tx)
        .await?;
    sqlx::query(sqlx::AssertSqlSafe(format!("UPDATE goods SET manjian_id = $1 WHERE id IN ({ids}) AND manjian_id <> $1")))
        .bind(id)
        .execute(&mut *tx)
        .await?;
    let (action, what) = if before.is_some() { ("manjian.change", "修改") } else { ("manjian.add", "新增") };
    let entry = Entry {
        action,
        target: format!("manjian:{id}"),
        member: None,
        summary: format!("{what}满减活动 {id} {title}：{}，{}个商品", tiers_title(&draft.tiers), draft.goods.len()),
        before: before.as_ref().map(audit_value).unwrap_or_else(|| json!({})),
        after: audit_value(&draft),
    };
    audit::record(&mut tx, actor, entry, now).await?;
    tx.commit().await?;
    Ok(id)
}

/// 满减 activities, as a scheduled promotion.
const SCHEDULED: Scheduled = Scheduled { table: "manjian_activities", target: "manjian", noun: "满减活动" };

/// Ends activity `id` now: buyers no longer see it; its goods are free for another.
pub async fn end(conn: &mut AnyConnection, actor: &Actor, id: i64, now: i64) -> Result<()> {
    let mut tx = begin_write(conn).await?;
    let draft = read_draft(&mut tx, id).await?;
    schedule::end(&mut tx, actor, SCHEDULED, id, &draft.title, (draft.starts_at, draft.ends_at), now).await?;
    tx.commit().await?;
    Ok(())
}

/// Activity `id` as a draft.
async fn read_draft(conn: &mut AnyConnection, id: i64) -> Result<Draft> {
    let head: Option<(String, i64, i64)> = sqlx::query_as("SELECT title, starts_at, ends_at FROM manjian_activities WHERE id = $1")
        .bind(id)
        .fetch_optional(&mut *conn)
        .await?;
    let (title, starts_at, ends_at) = head.ok_or_else(|| Error::not_found("满减活动不存在"))?;
    let tiers: Vec<(i64, i64)> = sqlx::query_as("SELECT amount, reduce FROM manjian_tiers WHERE activity_id = $1 ORDER BY sort, id")
        .bind(id)
        .fetch_all(&mut *conn)
        .await?;
    let goods: Vec<i64> =
        sqlx::query_scalar("SELECT id FROM goods WHERE manjian_id = $1 ORDER BY id").bind(id).fetch_all(&mut *conn).await?;
    Ok(Draft { title, starts_at, ends_at, tiers, goods })
}

/// An activity in the console's list.
#[derive(Debug, Serialize, ToSchema)]
pub struct ActivityRow {
    pub id: i64,
    pub title: String,
    pub starts_at: i64,
    pub ends_at: i64,
    /// 未开始, 进行中 or 已结束.
    pub state: &'static str,
    /// `满200减20、满500减60`.
    pub tiers: String,
    /// How many goods take part.
    pub goods: i64,
}

/// Every activity, newest first.
pub async fn list(conn: &mut AnyConnection, now: i64) -> Result<Vec<ActivityRow>> {
    let rows: Vec<(i64, String, i64, i64, Option<String>, i64)> = sqlx::query_as(
        "SELECT m.id, m.title, m.starts_at, m.ends_at, \
                (SELECT string_agg(CAST(t.amount AS TEXT) || ':' || CAST(t.reduce AS TEXT), ',' ORDER BY t.sort, t.id) FROM manjian_tiers t WHERE t.activity_id = m.id), \
                (SELECT COUNT(*) FROM goods g WHERE g.manjian_id = m.id) \
         FROM manjian_activities m ORDER BY m.id DESC",
    )
    .fetch_all(&mut *conn)
    .await?;
    Ok(rows
        .into_iter()
        .map(|(id, title, starts_at, ends_at, tiers, goods)| {
            let tiers: Vec<(i64, i64)> = tiers
                .unwrap_or_default()
                .split(',')
                .filter_map(|tier| tier.split_once(':'))
                .filter_map(|(amount, reduce)| Some((amount.parse().ok()?, reduce.parse().ok()?)))
                .collect();
            ActivityRow { id, title, starts_at, ends_at, state: state(starts_at, ends_at, now), tiers: tiers_title(&tiers), goods }
        })
        .collect())
}

/// A goods of an activity.
#[derive(Debug, Serialize, ToSchema, sqlx::FromRow)]
pub struct ActivityGoods {
    pub id: i64,
    pub name: String,
    pub ypgg: String,
    pub sccj: String,
    #[serde(serialize_with = "super::as_money")]
    #[schema(value_type = String, example = "23.50")]
    pub price: i64,
    pub is_buy: i64,
}

/// One tier, as the form and the buyer read it.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = AdminManjianTier)]
pub struct TierText {
    #[schema(example = "200.00")]
    pub amount: String,
    #[schema(example = "20.00")]
    pub reduce: String,
    #[schema(example = "满200减20")]
    pub title: String,
}

/// An activity whole.
#[derive(Debug, Serialize, ToSchema)]
pub struct ActivityRecord {
    pub id: i64,
    pub title: String,
    pub starts_at: i64,
    pub ends_at: i64,
    pub state: &'static str,
    pub tiers: Vec<TierText>,
    pub goods: Vec<ActivityGoods>,
}

/// Activity `id` whole.
pub async fn detail(conn: &mut AnyConnection, id: i64, now: i64) -> Result<ActivityRecord> {
    let draft = read_draft(conn, id).await?;
    let goods: Vec<ActivityGoods> =
        sqlx::query_as("SELECT id, name, ypgg, sccj, price, is_buy FROM goods WHERE manjian_id = $1 ORDER BY id")
            .bind(id)
            .fetch_all(&mut *conn)
            .await?;
    let tiers = draft
        .tiers
        .iter()
        .map(|(amount, reduce)| TierText {
            amount: money::text(*amount),
            reduce: money::text(*reduce),
            title: tiers_title(&[(*amount, *reduce)]),
        })
        .collect();
    Ok(ActivityRecord {
        id,
        state: state(draft.starts_at, draft.ends_at, now),
        title: draft.title,
        starts_at: draft.starts_at,
        ends_at: draft.ends_at,
        tiers,
        goods,
    })
}

/// A line of the sample cart.
#[derive(Debug, Serialize, ToSchema)]
pub struct SampleLine {
    pub goods_id: i64,
    pub name: String,
    pub ypgg: String,
    pub quantity: u32,
    /// The goods is among the draft's: it counts toward the tiers and shares the reduction.
    pub in_activity: bool,
}

/// What a draft does to a sample cart, and the goods it would take from other activities.
#[derive(Serialize, ToSchema)]
pub struct ManjianPreview {
    pub lines: Vec<SampleLine>,
    /// The engine's quote of the sample cart under the draft's tiers.
    #[schema(value_type = CartQuote)]
    pub quote: engine::CartQuote,
    pub conflicts: Vec<Conflict>,
}

/// The sample cart when none is given: the draft's first three goods, ten of each.
pub fn default_sample(draft: &Draft) -> Vec<(i64, u32)> {
    draft.goods.iter().take(3).map(|id| (*id, 10)).collect()
}

/// The engine's quote of `sample` (`(goods, quantity)`) under `draft`'s tiers, as a buyer would
/// be priced now with the goods on sale and in stock (a draft's goods may not be yet): the
/// draft's goods count toward its tiers, the others do not (rule 8). Changes nothing.
pub async fn preview(conn: &mut AnyConnection, own: Option<i64>, draft: &Draft, sample: &[(i64, u32)], now: i64) -> Result<ManjianPreview> {
    let mut errors = check_draft(draft, false, now);
    if sample.len() > MAX_SAMPLE {
        errors.push(("sample".into(), format!("试算购物车最多{MAX_SAMPLE}行")));
    }
    if let Some((goods, _)) = sample.iter().find(|(_, quantity)| *quantity == 0 || *quantity > engine::MAX_QUANTITY) {
        errors.push(("sample".into(), format!("商品{goods}的数量应为1到{}", engine::MAX_QUANTITY)));
    }
    if !errors.is_empty() {
        return Err(Error::Validation(errors));
    }
    let ids: Vec<i64> = sample.iter().map(|(id, _)| *id).collect();
    let rows: Vec<CardRow> = if ids.is_empty() {
        Vec::new()
    } else {
        sqlx::query_as(sqlx::AssertSqlSafe(format!("SELECT {} FROM goods g WHERE g.id IN ({})", card_columns(1), id_list(&ids))))
            .bind(now)
            .fetch_all(&mut *conn)
            .await?
    };
    // The draft's id in the engine's input: any number above 0 names "in the activity".
    const ACTIVITY: i64 = 1;
    let viewer = Viewer::visitor(true);
    let mut lines = Vec::with_capacity(sample.len());
    let mut items = Vec::with_capacity(sample.len());
    for (n, &(goods_id, quantity)) in sample.iter().enumerate() {
        let row = rows.iter().find(|row| row.id == goods_id).ok_or_else(|| Error::field("sample", format!("商品不存在：{goods_id}")))?;
        let shown = card(row, &viewer)?;
        let price = shown.price.ok_or_else(|| anyhow::anyhow!("goods {goods_id} without its price"))?;
        let in_activity = draft.goods.contains(&goods_id);
        let mut goods = shown.engine_goods();
        goods.is_buy = true;
        goods.stock = goods.stock.max(i64::from(quantity));
        items.push(engine::CartItem {
            id: n as i64 + 1,
            line_type: Some(NORMAL),
            quantity,
            price,
            is_selected: true,
            with_coupon: true,
            goods_manjian_id: if in_activity { ACTIVITY } else { 0 },
            goods,
            combination: None,
        });
        lines.push(SampleLine { goods_id, name: row.name.clone(), ypgg: row.ypgg.clone(), quantity, in_activity });
    }
    let manjians = draft
        .tiers
        .iter()
        .map(|(amount, reduce)| {
            Ok(engine::ManjianTier { amount: money::from_stored(*amount)?, reduce: Some(money::from_stored(*reduce)?) })
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    let input = sample_input(items, manjians, None);
    let quote = engine::quote(&input).map_err(|error| Error::Internal(anyhow::anyhow!("{error}")))?;
    let conflicts = conflicts(conn, own, &draft.goods, now).await?;
    Ok(ManjianPreview { lines, quote, conflicts })
}
