//! 活动页 in the console (docs/backoffice.md, "Promotions"): the themed pages made from data —
//! a banner (title, subtitle, colour, the template that shows it) and sections of goods — that
//! buyers reach by `/activity/{url}`, the activity zone (`/yjh`) and the activity centre.
//!
//! - An activity without an address has no page yet: its links say 活动暂未开始. One not yet
//!   started shows its note, or 活动未开始. Ended, it is not found.
//! - The sections are written whole with the activity: each a title and its goods in order.
//! - An activity's goods are shown at their own prices, priced by the engine as anywhere: a page
//!   has no price of its own, so there is nothing for a preview to compute; the console links
//!   to the page itself.

use serde::Serialize;
use serde_json::json;
use sqlx::AnyConnection;
use utoipa::ToSchema;

use super::audit::{self, Actor, Entry};
use super::orders::begin_write;
use super::schedule::{self, Scheduled, state};
use crate::db;
use crate::domain::{Error, Result};

/// An activity has at most this many sections.
pub const MAX_SECTIONS: usize = 10;
/// A section holds at most this many goods.
pub const MAX_SECTION_GOODS: usize = 100;

/// An activity as the operator writes it.
#[derive(Clone, Debug, Default)]
pub struct Draft {
    /// The address, `/activity/{url}`; empty while the activity has no page.
    pub url: String,
    pub title: String,
    pub subtitle: String,
    /// `hdmb` (activity template) or `zqmb` (zone template).
    pub template: String,
    /// The banner's colour, `#RRGGBB`.
    pub color: String,
    /// What its links say before it starts.
    pub note: String,
    pub starts_at: i64,
    pub ends_at: i64,
    /// Its place in the activity zone, smallest first.
    pub sort: i64,
    /// `(title, goods)` in order.
    pub sections: Vec<(String, Vec<i64>)>,
}

/// Sections as the form sends them, one per line: `title:goods,goods,…`.
pub fn read_sections(text: &str) -> std::result::Result<Vec<(String, Vec<i64>)>, String> {
    text.lines()
        .map(str::trim)
        .filter(|line| !line.is_empty())
        .enumerate()
        .map(|(n, line)| {
            let n = n + 1;
            let (title, goods) = line.rsplit_once([':', '：']).ok_or_else(|| format!("第{n}个栏目应写作 栏目名称:商品编号,商品编号"))?;
            let goods = goods
                .split([',', '，'])
                .map(str::trim)
                .filter(|id| !id.is_empty())
                .map(|id| id.parse::<i64>().map_err(|_| format!("第{n}个栏目的商品编号不正确：{id}")))
                .collect::<std::result::Result<Vec<_>, _>>()?;
            Ok((title.trim().to_owned(), goods))
        })
        .collect()
}

fn is_colour(text: &str) -> bool {
    text.len() == 7 && text.starts_with('#') && text[1..].chars().all(|char| char.is_ascii_hexdigit())
}

fn is_address(text: &str) -> bool {
    (1..=40).contains(&text.len()) && text.chars().all(|char| char.is_ascii_alphanumeric() || char == '-' || char == '_')
}

/// What is wrong with `draft` on its own, field by field.
pub fn check_draft(draft: &Draft, is_new: bool, now: i64) -> Vec<(String, String)> {
    let mut errors = Vec::new();
    schedule::check_schedule(&mut errors, &draft.title, draft.starts_at, draft.ends_at, is_new, now);
    let mut refuse = |field: &str, message: String| errors.push((field.to_owned(), message));
    let url = draft.url.trim();
    if !url.is_empty() && !is_address(url) {
        refuse("url", "页面地址只能由字母、数字、-和_组成，最多40个字符".into());
    }
    if draft.subtitle.trim().chars().count() > 60 {
        refuse("subtitle", "副标题不能超过60个字".into());
    }
    if draft.note.trim().chars().count() > 100 {
        refuse("note", "未开始提示不能超过100个字".into());
    }
    if !matches!(draft.template.as_str(), "hdmb" | "zqmb") {
        refuse("template", "请选择页面模板".into());
    }
    if !is_colour(draft.color.trim()) {
        refuse("color", "颜色应写作 #RRGGBB".into());
    }
    if !(0..=9999).contains(&draft.sort) {
        refuse("sort", "排序应在0到9999之间".into());
    }
    if let Some(message) = check_sections(&draft.sections) {
        refuse("sections", message);
    }
    errors
}

/// The first thing wrong with the sections.
fn check_sections(sections: &[(String, Vec<i64>)]) -> Option<String> {
    if sections.len() > MAX_SECTIONS {
        return Some(format!("栏目最多{MAX_SECTIONS}个"));
    }
    for (n, (title, goods)) in sections.iter().enumerate() {
        let n = n + 1;
        if title.is_empty() {
            return Some(format!("请填写第{n}个栏目的名称"));
        }
        if title.chars().count() > 20 {
            return Some(format!("第{n}个栏目的名称不能超过20个字"));
        }
        if goods.is_empty() {
            return Some(format!("第{n}个栏目至少选择1个商品"));
        }
        if goods.len() > MAX_SECTION_GOODS {
            return Some(format!("第{n}个栏目最多{MAX_SECTION_GOODS}个商品"));
        }
        if let Some(id) = goods.iter().enumerate().find(|(at, id)| goods[..*at].contains(id)).map(|(_, id)| id) {
            return Some(format!("第{n}个栏目中商品{id}重复"));
        }
    }
    None
}

/// Checks `draft` whole: its fields, an address no other activity has, and goods that exist.
async fn check(conn: &mut AnyConnection, own: Option<i64>, draft: &Draft, now: i64) -> Result<()> {
    let mut errors = check_draft(draft, own.is_none(), now);
    let url = draft.url.trim();
    if !url.is_empty() {
        let taken: Option<i64> = sqlx::query_scalar("SELECT id FROM activities WHERE url = $1 AND id <> $2")
            .bind(url)
            .bind(own.unwrap_or(0))
            .fetch_optional(&mut *conn)
            .await?;
        if let Some(other) = taken {
            errors.push(("url".into(), format!("页面地址已被活动{other}使用")));
        }
    }
    let mut goods: Vec<i64> = draft.sections.iter().flat_map(|(_, goods)| goods.iter().copied()).collect();
    goods.sort_unstable();
    goods.dedup();
    if errors.is_empty() && !goods.is_empty() {
        let sql = format!("SELECT id FROM goods WHERE id IN ({})", db::params(1, goods.len()));
        let mut query = sqlx::query_scalar(sqlx::AssertSqlSafe(sql));
        for id in &goods {
            query = query.bind(*id);
        }
        let found: Vec<i64> = query.fetch_all(&mut *conn).await?;
        let unknown: Vec<String> = goods.iter().filter(|id| !found.contains(id)).map(i64::to_string).collect();
        if !unknown.is_empty() {
            errors.push(("sections".into(), format!("商品不存在：{}", unknown.join("、"))));
        }
    }
    if errors.is_empty() { Ok(()) } else { Err(Error::Validation(errors)) }
}

/// The sections as the form writes them, one per line.
pub fn sections_text(sections: &[(String, Vec<i64>)]) -> String {
    sections
        .iter()
        .map(|(title, goods)| format!("{title}:{}", goods.iter().map(i64::to_string).collect::<Vec<_>>().join(",")))
        .collect::<Vec<_>>()
        .join("\n")
}

fn audit_value(draft: &Draft) -> serde_json::Value {
    json!({
        "url": draft.url.trim(),
        "title": draft.title.trim(),
        "template": draft.template,
        "starts_at": draft.starts_at,
        "ends_at": draft.ends_at,
        "sections": sections_text(&draft.sections),
    })
}

async fn read_draft(conn: &mut AnyConnection, id: i64) -> Result<Draft> {
    type Head = (Option<String>, String, String, String, String, String, i64, i64, i64);
    let head: Option<Head> = sqlx::query_as(
        "SELECT url, title, subtitle, template, color, note, starts_at, ends_at, sort FROM activities WHERE id = $1 AND is_on = 1",
    )
    .bind(id)
    .fetch_optional(&mut *conn)
    .await?;
    let (url, title, subtitle, template, color, note, starts_at, ends_at, sort) = head.ok_or_else(|| Error::not_found("活动不存在"))?;
    let rows: Vec<(i64, String, Option<i64>)> = sqlx::query_as(
        "SELECT s.id, s.title, a.goods_id FROM activity_sections s LEFT JOIN activity_goods a ON a.section_id = s.id \
         WHERE s.activity_id = $1 ORDER BY s.sort, s.id, a.sort, a.goods_id",
    )
    .bind(id)
    .fetch_all(&mut *conn)
    .await?;
    let mut sections: Vec<(i64, String, Vec<i64>)> = Vec::new();
    for (section, title, goods) in rows {
        if sections.last().is_none_or(|last| last.0 != section) {
            sections.push((section, title, Vec::new()));
        }
        if let (Some(goods), Some(last)) = (goods, sections.last_mut()) {
            last.2.push(goods);
        }
    }
    Ok(Draft {
        url: url.unwrap_or_default(),
        title,
        subtitle,
        template,
        color,
        note,
        starts_at,
        ends_at,
        sort,
        sections: sections.into_iter().map(|(_, title, goods)| (title, goods)).collect(),
    })
}

/// Adds an activity (`id` `None`) or replaces activity `id` with its sections, with its audit
/// row. Answers its id.
pub async fn save(conn: &mut AnyConnection, actor: &Actor, id: Option<i64>, draft: Draft, now: i64) -> Result<i64> {
    let mut tx = begin_write(conn).await?;
    let before = match id {
        Some(id) => {
            let before = read_draft(&mut tx, id).await?;
            if before.ends_at <= now {
                return Err(Error::conflict("活动已结束，不能修改"));
            }
            Some(before)
        }
        None => None,
    };
    check(&mut tx, id, &draft, now).await?;
    let url = Some(draft.url.trim()).filter(|url| !url.is_empty());
    let (title, subtitle, note, color) = (draft.title.trim(), draft.subtitle.trim(), draft.note.trim(), draft.color.trim());
    let id = match id {
        Some(id) => {
            sqlx::query(
                "UPDATE activities SET url = $1, title = $2, subtitle = $3, template = $4, color = $5, note = $6, starts_at = $7, \
                 ends_at = $8, sort = $9 WHERE id = $10",
            )
            .bind(url)
            .bind(title)
            .bind(subtitle)
            .bind(&draft.template)
            .bind(color)
            .bind(note)
            .bind(draft.starts_at)
            .bind(draft.ends_at)
            .bind(draft.sort)
            .bind(id)
            .execute(&mut *tx)
            .await?;
            sqlx::query("DELETE FROM activity_goods WHERE section_id IN (SELECT id FROM activity_sections WHERE activity_id = $1)")
                .bind(id)
                .execute(&mut *tx)
                .await?;
            sqlx::query("DELETE FROM activity_sections WHERE activity_id = $1").bind(id).execute(&mut *tx).await?;
            id
        }
        None => {
            sqlx::query_scalar(
                "INSERT INTO activities (url, title, subtitle, template, color, note, starts_at, ends_at, sort) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id",
            )
            .bind(url)
            .bind(title)
            .bind(subtitle)
            .bind(&draft.template)
            .bind(color)
            .bind(note)
            .bind(draft.starts_at)
            .bind(draft.ends_at)
            .bind(draft.sort)
            .fetch_one(&mut *tx)
            .await?
        }
    };
    for (sort, (section_title, goods)) in draft.sections.iter().enumerate() {
        let section: i64 = sqlx::query_scalar("INSERT INTO activity_sections (activity_id, title, sort) VALUES ($1, $2, $3) RETURNING id")
            .bind(id)
            .bind(section_title.trim())
            .bind(sort as i64)
            .fetch_one(&mut *tx)
            .await?;
        for (place, goods) in goods.iter().enumerate() {
            sqlx::query("INSERT INTO activity_goods (section_id, goods_id, sort) VALUES ($1, $2, $3)")
                .bind(section)
                .bind(goods)
                .bind(place as i64)
                .execute(&mut *tx)
                .await?;
        }
    }
    let (action, verb) = if before.is_some() { ("activity.change", "修改") } else { ("activity.add", "新增") };
    let goods: usize = draft.sections.iter().map(|(_, goods)| goods.len()).sum();
    let entry = Entry {
        action,
        target: format!("activity:{id}"),
        member: None,
        summary: format!("{verb}活动页 {id} {title}：{}个栏目，{goods}个商品", draft.sections.len()),
        before: before.as_ref().map(audit_value).unwrap_or_else(|| json!({})),
        after: audit_value(&draft),
    };
    audit::record(&mut tx, actor, entry, now).await?;
    tx.commit().await?;
    Ok(id)
}

/// Activity pages, as a scheduled promotion.
const SCHEDULED: Scheduled = Scheduled { table: "activities", target: "activity", noun: "活动" };

/// Ends activity `id` now: its page and links are gone.
pub async fn end(conn: &mut AnyConnection, actor: &Actor, id: i64, now: i64) -> Result<()> {
    let mut tx = begin_write(conn).await?;
    let draft = read_draft(&mut tx, id).await?;
    schedule::end(&mut tx, actor, SCHEDULED, id, &draft.title, (draft.starts_at, draft.ends_at), now).await?;
    tx.commit().await?;
    Ok(())
}

/// A section of an activity, as the form reads it.
#[derive(Debug, Serialize, ToSchema)]
pub struct SectionRecord {
    pub title: String,
    pub goods: Vec<SectionGoods>,
}

/// A goods of a section.
#[derive(Debug, Serialize, ToSchema, sqlx::FromRow)]
pub struct SectionGoods {
    pub id: i64,
    pub name: String,
    pub ypgg: String,
}

/// An activity in the console.
#[derive(Debug, Serialize, ToSchema)]
pub struct ActivityPageRow {
    pub id: i64,
    /// Empty while it has no page.
    pub url: String,
    pub title: String,
    pub subtitle: String,
    pub template: String,
    pub color: String,
    pub note: String,
    pub starts_at: i64,
    pub ends_at: i64,
    pub sort: i64,
    /// 未开始, 进行中 or 已结束.
    pub state: &'static str,
    pub sections: Vec<SectionRecord>,
}

/// Every activity, in the activity zone's order (ended ones last), with its sections.
pub async fn list(conn: &mut AnyConnection, now: i64) -> Result<Vec<ActivityPageRow>> {
    let ids: Vec<i64> = sqlx::query_scalar(
        "SELECT id FROM activities WHERE is_on = 1 ORDER BY CASE WHEN ends_at > $1 THEN 0 ELSE 1 END, sort, starts_at, id",
    )
    .bind(now)
    .fetch_all(&mut *conn)
    .await?;
    let names: Vec<SectionGoods> = sqlx::query_as(
        "SELECT DISTINCT g.id, g.name, g.ypgg FROM activity_goods a JOIN goods g ON g.id = a.goods_id \
         JOIN activity_sections s ON s.id = a.section_id JOIN activities t ON t.id = s.activity_id WHERE t.is_on = 1",
    )
    .fetch_all(&mut *conn)
    .await?;
    let mut rows = Vec::with_capacity(ids.len());
    for id in ids {
        let draft = read_draft(conn, id).await?;
        let sections = draft
            .sections
            .into_iter()
            .map(|(title, goods)| SectionRecord {
                title,
                goods: goods
                    .iter()
                    .filter_map(|id| names.iter().find(|named| named.id == *id))
                    .map(|named| SectionGoods { id: named.id, name: named.name.clone(), ypgg: named.ypgg.clone() })
                    .collect(),
            })
            .collect();
        rows.push(ActivityPageRow {
            id,
            state: state(draft.starts_at, draft.ends_at, now),
            url: draft.url,
            title: draft.title,
            subtitle: draft.subtitle,
            template: draft.template,
            color: draft.color,
            note: draft.note,
            starts_at: draft.starts_at,
            ends_at: draft.ends_at,
            sort: draft.sort,
            sections,
        });
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sections_read_one_per_line_and_each_refusal_names_its_section() {
        assert_eq!(
            read_sections("感冒用药:12,15\n\n儿童用药：20"),
            Ok(vec![("感冒用药".into(), vec![12, 15]), ("儿童用药".into(), vec![20])])
        );
        assert_eq!(read_sections("感冒用药 12,15"), Err("第1个栏目应写作 栏目名称:商品编号,商品编号".into()));
        assert_eq!(read_sections("甲:1\n乙:x"), Err("第2个栏目的商品编号不正确：x".into()));
        assert_eq!(check_sections(&[("甲".into(), vec![1, 2, 1])]).as_deref(), Some("第1个栏目中商品1重复"));
        assert_eq!(check_sections(&[("甲".into(), vec![])]).as_deref(), Some("第1个栏目至少选择1个商品"));
        assert_eq!(sections_text(&[("甲".into(), vec![1, 2]), ("乙".into(), vec![3])]), "甲:1,2\n乙:3");
    }
}
