//! The shop's settings as an operator keeps them, for the console and the commands alike: its
//! identity (`crate::domain::shop`: name, seller, licences, tax number, address, hotline), who sees
//! prices (`crate::domain::catalogue::viewer`), and the store-wide discount (全场折扣, `/welfare`)
//! started and ended. Each write is one transaction with its audit row, the values before and
//! after in it.

use serde::Serialize;
use serde_json::{Map, Value, json};
use sqlx::AnyConnection;
use utoipa::ToSchema;

use super::audit::{self, Actor, Entry};
use super::orders::begin_write;
use crate::domain::catalogue::viewer;
use crate::domain::shop::{self, FIELDS, ShopIdentity};
use crate::domain::{Error, Result, promotions};

/// One field of the shop's identity, with its label and its value now.
#[derive(Debug, Serialize, ToSchema)]
pub struct SettingField {
    /// The field's name (`name`, `company`, `hot_line`, …): the key to change it by.
    pub name: &'static str,
    /// Its label, as the console shows it: 店铺名称, 公司名称, …
    pub label: &'static str,
    pub value: String,
    /// The longest value kept, in characters.
    pub max: usize,
    /// Whether it may be left empty.
    pub optional: bool,
}

/// The shop's settings.
#[derive(Debug, Serialize, ToSchema)]
pub struct Settings {
    /// The identity's fields, in the footer's order.
    pub fields: Vec<SettingField>,
    /// `true`: everyone sees prices; `false`: only members whose qualifications are approved.
    pub prices_public: bool,
}

/// The settings as they are now.
pub async fn settings(conn: &mut AnyConnection) -> Result<Settings> {
    let identity = shop::read(conn).await?;
    let fields = FIELDS
        .iter()
        .map(|field| SettingField {
            name: field.name,
            label: field.label,
            value: identity.get(field.name).unwrap_or_default().to_owned(),
            max: field.max,
            optional: matches!(field.rule, shop::Rule::Optional | shop::Rule::Digits),
        })
        .collect();
    Ok(Settings { fields, prices_public: viewer::prices_public(conn).await? })
}

/// A field of the identity that changed.
#[derive(Debug, Serialize, ToSchema)]
pub struct Changed {
    pub name: &'static str,
    pub label: &'static str,
    pub before: String,
    pub after: String,
}

/// Changes the identity's fields `given` (name, value), all or none: every value is checked
/// first (`shop::check`), and each refusal is reported on its field. Answers the fields that
/// changed; the same value again changes nothing and records nothing.
pub async fn change_identity(conn: &mut AnyConnection, actor: &Actor, given: &[(String, String)], now: i64) -> Result<Vec<Changed>> {
    let mut kept = Vec::new();
    let mut errors = Vec::new();
    for (name, value) in given {
        let Some(field) = FIELDS.iter().find(|field| field.name == name) else {
            errors.push((name.clone(), format!("没有{name}这一项设置")));
            continue;
        };
        match shop::check(field, value) {
            Ok(value) => kept.push((field, value)),
            Err(why) => errors.push((name.clone(), why)),
        }
    }
    if !errors.is_empty() {
        return Err(Error::Validation(errors));
    }
    let mut tx = begin_write(conn).await?;
    let before: ShopIdentity = shop::read(&mut tx).await?;
    let (mut old, mut new, mut changed) = (Map::new(), Map::new(), Vec::new());
    for (field, value) in kept {
        let was = before.get(field.name).unwrap_or_default();
        if was == value {
            continue;
        }
        sqlx::query("INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value")
            .bind(field.key)
            .bind(&value)
            .execute(&mut *tx)
            .await?;
        old.insert(field.name.to_owned(), Value::from(was));
        new.insert(field.name.to_owned(), Value::from(value.as_str()));
        changed.push(Changed { name: field.name, label: field.label, before: was.to_owned(), after: value });
    }
    if !changed.is_empty() {
        let lines: Vec<String> = changed.iter().map(|change| format!("{}：{} → {}", change.label, change.before, change.after)).collect();
        let entry = Entry {
            action: "settings.change",
            target: String::new(),
            member: None,
            summary: format!("修改店铺信息：{}", lines.join("；")),
            before: Value::Object(old),
            after: Value::Object(new),
        };
        audit::record(&mut tx, actor, entry, now).await?;
    }
    tx.commit().await?;
    Ok(changed)
}

/// Who sees prices: everyone (`public`) or only approved members. Answers whether it changed.
pub async fn set_prices_public(conn: &mut AnyConnection, actor: &Actor, public: bool, now: i64) -> Result<bool> {
    let said = |public: bool| if public { "所有人可见" } else { "认证后可见" };
    let mut tx = begin_write(conn).await?;
    let before = viewer::prices_public(&mut tx).await?;
    if before == public {
        return Ok(false);
    }
    viewer::set_prices_public(&mut tx, public).await?;
    let entry = Entry {
        action: "settings.prices",
        target: String::new(),
        member: None,
        summary: format!("价格显示：{} → {}", said(before), said(public)),
        before: json!({ "prices_public": before }),
        after: json!({ "prices_public": public }),
    };
    audit::record(&mut tx, actor, entry, now).await?;
    tx.commit().await?;
    Ok(true)
}

/// A store-wide discount.
#[derive(Debug, Serialize, sqlx::FromRow, ToSchema)]
pub struct WelfareRow {
    pub id: i64,
    pub title: String,
    /// The rate goods are priced at, `0.94` for 94折.
    pub rate: String,
    /// How the shop names it: 94折.
    #[sqlx(skip)]
    pub name: String,
    pub starts_at: i64,
    pub ends_at: i64,
    /// Whether it is running at the time asked.
    #[sqlx(skip)]
    pub running: bool,
}

/// The store-wide discounts, newest first (the newest running one is the one that prices).
pub async fn welfare(conn: &mut AnyConnection, now: i64) -> Result<Vec<WelfareRow>> {
    let mut rows: Vec<WelfareRow> =
        sqlx::query_as("SELECT id, title, rate, starts_at, ends_at FROM welfare_activities ORDER BY id DESC LIMIT 50")
            .fetch_all(&mut *conn)
            .await?;
    let on: Vec<i64> = sqlx::query_scalar("SELECT id FROM welfare_activities WHERE is_on = 1 AND starts_at <= $1 AND ends_at > $1")
        .bind(now)
        .fetch_all(&mut *conn)
        .await?;
    for row in &mut rows {
        row.name = promotions::discount_name(&row.rate);
        row.running = on.contains(&row.id);
    }
    Ok(rows)
}

/// Starts a store-wide discount now, for `days` days: goods priced at `rate` (0 < rate ≤ 1, as the
/// engine's `rate_price` takes it). Answers its id.
pub async fn start_welfare(conn: &mut AnyConnection, actor: &Actor, title: &str, rate: &str, days: i64, now: i64) -> Result<i64> {
    let mut errors = Vec::new();
    let title = title.trim();
    if title.is_empty() || title.chars().count() > 30 {
        errors.push(("title".to_owned(), "请填写活动名称（不超过30字）".to_owned()));
    }
    // The engine is the judge of a rate: it refuses one outside 0 < rate ≤ 1.
    let parsed = engine::Money::parse(rate.trim())
        .ok()
        .filter(|parsed| engine::rate_price(engine::Money::ONE, *parsed).is_ok() && *parsed < engine::Money::ONE);
    if parsed.is_none() {
        errors.push(("rate".to_owned(), "折扣须大于0且小于1，如0.94即94折".to_owned()));
    }
    if !(1..=366).contains(&days) {
        errors.push(("days".to_owned(), "活动天数须为1到366天".to_owned()));
    }
    let Some(parsed) = parsed.filter(|_| errors.is_empty()) else {
        return Err(Error::Validation(errors));
    };
    let rate = parsed.to_string();
    let mut tx = begin_write(conn).await?;
    let id: i64 =
        sqlx::query_scalar("INSERT INTO welfare_activities (title, rate, starts_at, ends_at) VALUES ($1, $2, $3, $4) RETURNING id")
            .bind(title)
            .bind(&rate)
            .bind(now)
            .bind(now + days * 86_400)
            .fetch_one(&mut *tx)
            .await?;
    let entry = Entry {
        action: "welfare.start",
        target: format!("welfare:{id}"),
        member: None,
        summary: format!("开始全场折扣「{title}」{}，{days}天", promotions::discount_name(&rate)),
        before: Value::Null,
        after: json!({ "title": title, "rate": rate, "starts_at": now, "ends_at": now + days * 86_400 }),
    };
    audit::record(&mut tx, actor, entry, now).await?;
    tx.commit().await?;
    Ok(id)
}

/// Ends every running store-wide discount now. Answers how many ended.
pub async fn end_welfare(conn: &mut AnyConnection, actor: &Actor, now: i64) -> Result<u64> {
    let mut tx = begin_write(conn).await?;
    let running: Vec<i64> = sqlx::query_scalar("SELECT id FROM welfare_activities WHERE is_on = 1 AND ends_at > $1 ORDER BY id")
        .bind(now)
        .fetch_all(&mut *tx)
        .await?;
    if running.is_empty() {
        return Ok(0);
    }
    sqlx::query("UPDATE welfare_activities SET is_on = 0 WHERE is_on = 1 AND ends_at > $1").bind(now).execute(&mut *tx).await?;
    let entry = Entry {
        action: "welfare.end",
        target: String::new(),
        member: None,
        summary: format!("结束全场折扣（{}个）", running.len()),
        before: json!({ "running": running }),
        after: json!({ "running": [] }),
    };
    audit::record(&mut tx, actor, entry, now).await?;
    tx.commit().await?;
    Ok(running.len() as u64)
}
