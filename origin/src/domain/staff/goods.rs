//! The catalogue as operators keep it, for the console, the commands and the Excel import alike:
//! a goods' every field read; a goods added; a goods changed field by field (a partial update:
//! the fields given change, the others stay); its prices kept in a history; goods put on sale
//! or taken off, re-zoned or repriced in bulk. Fields arrive as text (a form's field, a
//! spreadsheet's cell) and are checked here, each refusal a Chinese message on its field. Each
//! write is one transaction with its audit row, the values before and after in it.
//!
//! Stock is not a field: it comes in by lot (`stock::receive`), so that every unit sold has a
//! lot to be shipped from.

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::{Map, Value, json};
use sqlx::AnyConnection;
use utoipa::ToSchema;

use super::audit::{self, Actor, Entry};
use super::orders::begin_write;
use crate::domain::catalogue::scope::{Dispensing, ScopeClass};
use crate::domain::{Error, Result};
use crate::money::{self, Stored};

/// How a field's text is read.
#[derive(Clone, Copy, Debug)]
enum Kind {
    /// Text of at most `max` characters, required or not.
    Text { max: usize, required: bool },
    /// A whole number in `min..=max`.
    Int { min: i64, max: i64 },
    /// An id of a row of `table` (0 for none when `optional`).
    Id { table: &'static str, optional: bool },
    /// One of the choices, by code or by name.
    Choice(fn() -> Vec<(i64, &'static str)>),
    /// 是 or 否 (1, 0).
    Flag,
    /// Money of at most two decimals; above zero when `positive`.
    Money { positive: bool },
    /// A ladder: `number:price` steps, by commas.
    Ladder,
}

/// One field of a goods as the console and the import know it.
#[derive(Clone, Copy, Debug)]
pub struct Field {
    /// The column, and the form's field name.
    pub name: &'static str,
    /// Its label: the form's, the spreadsheet's column heading.
    pub label: &'static str,
    kind: Kind,
}

const SHOPS: &[(i64, &str)] = &[(1, "自营"), (2, "中药饮片"), (3, "器械")];

fn shops() -> Vec<(i64, &'static str)> {
    SHOPS.to_vec()
}

fn ladder_types() -> Vec<(i64, &'static str)> {
    vec![(1, "区间价"), (2, "起订量价")]
}

fn vat_rates() -> Vec<(i64, &'static str)> {
    vec![(13, "13%"), (9, "9%"), (6, "6%"), (3, "3%"), (1, "1%"), (0, "0%")]
}

fn scopes() -> Vec<(i64, &'static str)> {
    ScopeClass::ALL.iter().map(|class| (class.code(), class.name())).collect()
}

fn dispensing() -> Vec<(i64, &'static str)> {
    Dispensing::ALL.iter().map(|kind| (kind.code(), if *kind == Dispensing::None { "非药品" } else { kind.name() })).collect()
}
const UNITS: i64 = 1_000_000;

/// Every field, in the form's and the spreadsheet's order.
pub const FIELDS: &[Field] = &[
    Field { name: "name", label: "商品名称", kind: Kind::Text { max: 100, required: true } },
    Field { name: "common_name", label: "通用名", kind: Kind::Text { max: 100, required: false } },
    Field { name: "sccj", label: "生产厂家", kind: Kind::Text { max: 100, required: true } },
    Field { name: "ypgg", label: "规格", kind: Kind::Text { max: 60, required: true } },
    Field { name: "bzdw", label: "单位", kind: Kind::Text { max: 10, required: true } },
    Field { name: "zbz", label: "中包装", kind: Kind::Int { min: 1, max: 10_000 } },
    Field { name: "jzl", label: "件装量", kind: Kind::Int { min: 0, max: UNITS } },
    Field { name: "pzwh", label: "批准文号", kind: Kind::Text { max: 60, required: false } },
    Field { name: "origin", label: "产地", kind: Kind::Text { max: 60, required: false } },
    Field { name: "category_id", label: "分类", kind: Kind::Id { table: "categories", optional: false } },
    Field { name: "brand_id", label: "品牌", kind: Kind::Id { table: "brands", optional: true } },
    Field { name: "type", label: "店铺", kind: Kind::Choice(shops) },
    Field { name: "is_youx", label: "优选", kind: Kind::Flag },
    Field { name: "scope_class", label: "经营范围", kind: Kind::Choice(scopes) },
    Field { name: "dispensing", label: "处方类别", kind: Kind::Choice(dispensing) },
    Field { name: "vat_rate", label: "税率", kind: Kind::Choice(vat_rates) },
    Field { name: "price", label: "价格", kind: Kind::Money { positive: true } },
    Field { name: "base_price", label: "原价", kind: Kind::Money { positive: false } },
    Field { name: "ladder_price_type", label: "阶梯类型", kind: Kind::Choice(ladder_types) },
    Field { name: "ladder", label: "阶梯价", kind: Kind::Ladder },
    Field { name: "is_buy", label: "上架", kind: Kind::Flag },
    Field { name: "is_dpby", label: "单品包邮", kind: Kind::Flag },
    Field { name: "qg_number", label: "包邮起订量", kind: Kind::Int { min: 0, max: UNITS } },
    Field { name: "control_per_order", label: "每单限购", kind: Kind::Int { min: 0, max: UNITS } },
    Field { name: "control_per_month", label: "每月限购", kind: Kind::Int { min: 0, max: UNITS } },
    Field { name: "tags", label: "标签", kind: Kind::Text { max: 60, required: false } },
    Field { name: "description", label: "商品说明", kind: Kind::Text { max: 20_000, required: false } },
];

/// The field named `name` (its column's name or its label).
pub fn field(name: &str) -> Option<&'static Field> {
    FIELDS.iter().find(|field| field.name == name || field.label == name)
}

/// A field's value, as read and as kept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Val {
    Text(String),
    /// A number, a choice's code, a flag, an id (0: none), or money as stored.
    Int(i64),
    /// `(number, price as stored)` steps, by number.
    Ladder(Vec<(i64, i64)>),
}

impl Val {
    fn int(&self) -> i64 {
        match self {
            Val::Int(value) => *value,
            _ => 0,
        }
    }
}

fn choice_name(choices: &[(i64, &str)], code: i64) -> String {
    choices.iter().find(|(value, _)| *value == code).map_or_else(|| code.to_string(), |(_, name)| (*name).to_owned())
}

/// A ladder as text: `10:9.50,50:9.00`.
pub fn ladder_text(steps: &[(i64, i64)]) -> String {
    steps.iter().map(|(number, price)| format!("{number}:{}", money::text(*price))).collect::<Vec<_>>().join(",")
}

impl Field {
    pub fn is_money(&self) -> bool {
        matches!(self.kind, Kind::Money { .. })
    }

    /// Reads `text` as this field's value, or says why not (in Chinese).
    pub fn read(&self, text: &str) -> std::result::Result<Val, String> {
        let text = text.trim();
        let label = self.label;
        match self.kind {
            Kind::Text { max, required } => {
                let text = if self.name == "tags" {
                    text.replace('，', ",").split(',').map(str::trim).filter(|tag| !tag.is_empty()).collect::<Vec<_>>().join(",")
                } else {
                    text.to_owned()
                };
                if required && text.is_empty() {
                    return Err(format!("请填写{label}"));
                }
                if text.chars().count() > max {
                    return Err(format!("{label}不能超过{max}个字"));
                }
                if text.chars().any(|c| c.is_control() && c != '\n' && c != '\r' && c != '\t') {
                    return Err(format!("{label}含有不可见字符"));
                }
                Ok(Val::Text(text))
            }
            Kind::Int { min, max } => match text.parse::<i64>() {
                Ok(value) if (min..=max).contains(&value) => Ok(Val::Int(value)),
                Ok(_) => Err(format!("{label}应在{min}到{max}之间")),
                Err(_) => Err(format!("{label}应为整数")),
            },
            Kind::Id { optional, .. } => match text.parse::<i64>() {
                Ok(0) if optional => Ok(Val::Int(0)),
                _ if text.is_empty() && optional => Ok(Val::Int(0)),
                Ok(id) if id > 0 => Ok(Val::Int(id)),
                _ if text.is_empty() => Err(format!("请选择{label}")),
                _ => Err(format!("{label}不存在")),
            },
            Kind::Choice(choices) => {
                let code = text.trim_end_matches('%').parse::<i64>().ok();
                choices()
                    .into_iter()
                    .find(|(value, name)| Some(*value) == code || *name == text)
                    .map(|(value, _)| Val::Int(value))
                    .ok_or_else(|| if text.is_empty() { format!("请选择{label}") } else { format!("{label}不正确") })
            }
            Kind::Flag => match text {
                "1" | "是" | "true" => Ok(Val::Int(1)),
                "0" | "否" | "false" => Ok(Val::Int(0)),
                _ => Err(format!("{label}应为是或否")),
            },
            Kind::Money { positive } => {
                let stored = read_money(text).ok_or_else(|| format!("{label}应为金额，最多两位小数"))?;
                if positive && stored == 0 {
                    return Err(format!("{label}应大于0"));
                }
                Ok(Val::Int(stored))
            }
            Kind::Ladder => read_ladder(text).map(Val::Ladder),
        }
    }

    /// `value` as a person reads it (the audit trail, the dry run, the spreadsheet).
    pub fn shown(&self, value: &Val) -> String {
        match (self.kind, value) {
            (_, Val::Text(text)) => text.clone(),
            (_, Val::Ladder(steps)) => ladder_text(steps),
            (Kind::Money { .. }, Val::Int(stored)) => money::text(*stored),
            (Kind::Choice(choices), Val::Int(code)) => choice_name(&choices(), *code),
            (Kind::Flag, Val::Int(flag)) => if *flag == 1 { "是" } else { "否" }.to_owned(),
            (_, Val::Int(value)) => value.to_string(),
        }
    }
}

/// Money text as stored: at most two decimals, not negative, below a million yuan.
fn read_money(text: &str) -> Option<i64> {
    let stored = Stored::parse(text)?.units();
    (stored >= 0 && stored % 100 == 0 && stored < 1_000_000 * 10_000).then_some(stored)
}

/// A ladder's text: `number:price` steps by commas (or `，`, `；`, new lines); empty for none.
fn read_ladder(text: &str) -> std::result::Result<Vec<(i64, i64)>, String> {
    let mut steps = Vec::new();
    for step in text.split([',', '，', ';', '；', '\n']).map(str::trim).filter(|step| !step.is_empty()) {
        let (number, price) = step.split_once([':', '：']).ok_or_else(|| format!("阶梯价“{step}”应写作 数量:单价"))?;
        let number = number.trim().parse::<i64>().ok().filter(|number| (2..=UNITS).contains(number));
        let number = number.ok_or_else(|| format!("阶梯价“{step}”的数量应为2到{UNITS}的整数"))?;
        let price = read_money(price.trim()).filter(|price| *price > 0);
        let price = price.ok_or_else(|| format!("阶梯价“{step}”的单价应为大于0的金额，最多两位小数"))?;
        steps.push((number, price));
    }
    if steps.len() > 10 {
        return Err("阶梯价最多10档".into());
    }
    steps.sort_unstable();
    if steps.windows(2).any(|pair| pair[0].0 == pair[1].0) {
        return Err("阶梯价的数量不能重复".into());
    }
    if steps.windows(2).any(|pair| pair[1].1 > pair[0].1) {
        return Err("买得越多单价应越低：阶梯价的单价不能随数量升高".into());
    }
    Ok(steps)
}

/// Fields given, each with its value.
pub type Given = Vec<(&'static Field, Val)>;

/// Fields read from text: `(field, value)` for each given, or every refusal `(field, message)`.
pub fn read_fields<'a>(given: impl IntoIterator<Item = (&'a str, &'a str)>) -> std::result::Result<Given, Vec<(String, String)>> {
    let (mut read, mut errors) = (Vec::new(), Vec::new());
    for (name, text) in given {
        match field(name) {
            None => errors.push((name.to_owned(), format!("没有“{name}”这一项"))),
            Some(field) => match field.read(text) {
                Ok(value) => read.push((field, value)),
                Err(why) => errors.push((field.name.to_owned(), why)),
            },
        }
    }
    if errors.is_empty() { Ok(read) } else { Err(errors) }
}

/// A goods' fields, by name.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Values(BTreeMap<&'static str, Val>);

impl Values {
    /// A new goods' values before its fields are given: on sale, general shop, 13 %.
    fn new_goods() -> Values {
        let mut values = Values::default();
        for field in FIELDS {
            let value = match field.kind {
                Kind::Text { .. } => Val::Text(String::new()),
                Kind::Ladder => Val::Ladder(Vec::new()),
                _ => Val::Int(match field.name {
                    "zbz" | "is_buy" | "type" | "scope_class" => 1,
                    "vat_rate" => 13,
                    "ladder_price_type" => 2,
                    _ => 0,
                }),
            };
            values.0.insert(field.name, value);
        }
        values
    }

    pub fn get(&self, name: &str) -> Option<&Val> {
        self.0.get(name)
    }

    fn int(&self, name: &str) -> i64 {
        self.0.get(name).map_or(0, Val::int)
    }

    fn text(&self, name: &str) -> &str {
        match self.0.get(name) {
            Some(Val::Text(text)) => text,
            _ => "",
        }
    }

    /// These values with `given` fields put in.
    pub fn with(&self, given: Given) -> Values {
        let mut values = self.clone();
        for (field, value) in given {
            values.0.insert(field.name, value);
        }
        values
    }

    fn ladder(&self) -> &[(i64, i64)] {
        match self.0.get("ladder") {
            Some(Val::Ladder(steps)) => steps,
            _ => &[],
        }
    }

    /// Goods `id`'s values as stored, a column per field (but the ladder, from its own table).
    pub async fn read(conn: &mut AnyConnection, id: i64) -> Result<Values> {
        use sqlx::Row;
        let columns: Vec<String> = FIELDS
            .iter()
            .filter(|field| !matches!(field.kind, Kind::Ladder))
            .map(|field| if field.name == "brand_id" { "COALESCE(brand_id, 0) AS brand_id".to_owned() } else { field.name.to_owned() })
            .collect();
        let row = sqlx::query(sqlx::AssertSqlSafe(format!("SELECT {} FROM goods WHERE id = $1", columns.join(", "))))
            .bind(id)
            .fetch_optional(&mut *conn)
            .await?
            .ok_or_else(|| Error::not_found("商品不存在"))?;
        let mut values = Values::default();
        for field in FIELDS {
            let value = match field.kind {
                Kind::Ladder => continue,
                Kind::Text { .. } => Val::Text(row.try_get(field.name)?),
                // A goods without a ladder keeps type 0; its form shows the default, 起订量价.
                _ if field.name == "ladder_price_type" => Val::Int(if row.try_get::<i64, _>(field.name)? == 1 { 1 } else { 2 }),
                _ => Val::Int(row.try_get(field.name)?),
            };
            values.0.insert(field.name, value);
        }
        let ladder: Vec<(i64, i64)> = sqlx::query_as("SELECT number, price FROM goods_ladders WHERE goods_id = $1 ORDER BY number")
            .bind(id)
            .fetch_all(&mut *conn)
            .await?;
        values.0.insert("ladder", Val::Ladder(ladder));
        Ok(values)
    }
}

/// The categories and brands there are, for the checks across fields.
pub struct Known {
    categories: std::collections::HashSet<i64>,
    brands: std::collections::HashSet<i64>,
}

impl Known {
    pub async fn read(conn: &mut AnyConnection) -> Result<Known> {
        let categories: Vec<i64> = sqlx::query_scalar("SELECT id FROM categories").fetch_all(&mut *conn).await?;
        let brands: Vec<i64> = sqlx::query_scalar("SELECT id FROM brands").fetch_all(&mut *conn).await?;
        Ok(Known { categories: categories.into_iter().collect(), brands: brands.into_iter().collect() })
    }
}

/// The checks across fields, once the given ones are applied: the ladder below the price, a
/// free-shipping goods with its quantity, the category and brand there. Answers each refusal
/// `(field, message)`.
pub fn check_values(values: &Values, known: &Known) -> Vec<(String, String)> {
    let mut errors = Vec::new();
    let price = values.int("price");
    if let Some((number, step)) = values.ladder().first()
        && *step >= price
    {
        errors.push(("ladder".to_owned(), format!("阶梯价 {number} 件起的单价应低于价格 {}", money::text(price))));
    }
    if values.int("is_dpby") == 1 && values.int("qg_number") < 1 {
        errors.push(("qg_number".to_owned(), "单品包邮须填写包邮起订量".to_owned()));
    }
    for field in FIELDS {
        let Kind::Id { table, optional } = field.kind else { continue };
        let id = values.int(field.name);
        if id == 0 && optional {
            continue;
        }
        let ids = if table == "brands" { &known.brands } else { &known.categories };
        if !ids.contains(&id) {
            let label = field.label;
            errors.push((field.name.to_owned(), if id == 0 { format!("请选择{label}") } else { format!("{label}不存在") }));
        }
    }
    errors
}

async fn check(conn: &mut AnyConnection, values: &Values) -> Result<()> {
    let errors = check_values(values, &Known::read(conn).await?);
    if errors.is_empty() { Ok(()) } else { Err(Error::Validation(errors)) }
}

/// The search text kept with a goods (name, common name, manufacturer, specification, approval
/// number, brand), lower-cased as the seed writes it.
async fn search_text(conn: &mut AnyConnection, values: &Values) -> Result<String> {
    let brand: Option<String> = match values.int("brand_id") {
        0 => None,
        id => sqlx::query_scalar("SELECT name FROM brands WHERE id = $1").bind(id).fetch_optional(&mut *conn).await?,
    };
    let text = |name: &str| match values.get(name) {
        Some(Val::Text(text)) => text.clone(),
        _ => String::new(),
    };
    let parts = [text("name"), text("common_name"), text("sccj"), text("ypgg"), text("pzwh"), brand.unwrap_or_default()];
    Ok(parts.iter().filter(|part| !part.is_empty()).cloned().collect::<Vec<_>>().join(" ").to_ascii_lowercase())
}

/// Keeps `values`' prices as goods `id`'s from `now`, set by `actor`.
async fn keep_prices(conn: &mut AnyConnection, id: i64, values: &Values, actor: &Actor, now: i64) -> Result<()> {
    let steps = values.ladder();
    sqlx::query(
        "INSERT INTO goods_price_history (goods_id, price, base_price, ladder_price_type, ladder, operator, changed_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7)",
    )
    .bind(id)
    .bind(values.int("price"))
    .bind(values.int("base_price"))
    .bind(if steps.is_empty() { 0 } else { values.int("ladder_price_type") })
    .bind(steps.iter().map(|(number, price)| format!("{number}:{price}")).collect::<Vec<_>>().join(","))
    .bind(&actor.name)
    .bind(now)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// Replaces goods `id`'s ladder with `steps`.
async fn write_ladder(conn: &mut AnyConnection, id: i64, steps: &[(i64, i64)]) -> Result<()> {
    sqlx::query("DELETE FROM goods_ladders WHERE goods_id = $1").bind(id).execute(&mut *conn).await?;
    add_ladder(conn, id, steps).await
}

/// Adds `steps` to goods `id`'s ladder.
async fn add_ladder(conn: &mut AnyConnection, id: i64, steps: &[(i64, i64)]) -> Result<()> {
    for (number, price) in steps {
        sqlx::query("INSERT INTO goods_ladders (goods_id, number, price) VALUES ($1, $2, $3)")
            .bind(id)
            .bind(number)
            .bind(price)
            .execute(&mut *conn)
            .await?;
    }
    Ok(())
}

fn bind_val<'q>(
    query: sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments>,
    name: &str,
    value: &Val,
) -> sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments> {
    match value {
        Val::Text(text) => query.bind(text.clone()),
        Val::Int(0) if name == "brand_id" => query.bind(None::<i64>),
        Val::Int(value) => query.bind(*value),
        Val::Ladder(_) => query,
    }
}

/// What a write changed: each field's label and its value before and after, as shown.
#[derive(Debug, Serialize, ToSchema)]
pub struct FieldChange {
    pub name: &'static str,
    pub label: &'static str,
    pub before: String,
    pub after: String,
}

/// The fields that differ from `before` to `after`.
pub fn changes(before: &Values, after: &Values) -> Vec<FieldChange> {
    FIELDS
        .iter()
        .filter_map(|field| {
            let (old, new) = (before.get(field.name)?, after.get(field.name)?);
            (old != new).then(|| FieldChange { name: field.name, label: field.label, before: field.shown(old), after: field.shown(new) })
        })
        .collect()
}

fn audit_maps(changed: &[FieldChange]) -> (Value, Value) {
    let (mut old, mut new) = (Map::new(), Map::new());
    for change in changed {
        old.insert(change.name.to_owned(), Value::from(change.before.as_str()));
        new.insert(change.name.to_owned(), Value::from(change.after.as_str()));
    }
    (Value::Object(old), Value::Object(new))
}

fn prices_changed(changed: &[FieldChange]) -> bool {
    changed.iter().any(|change| matches!(change.name, "price" | "base_price" | "ladder" | "ladder_price_type"))
}

/// A new goods' values: the defaults, then the fields `given` (the base price is the price when
/// not given).
pub fn new_values(given: Given) -> Values {
    let mut values = Values::new_goods();
    let base_given = given.iter().any(|(field, _)| field.name == "base_price");
    for (field, value) in given {
        values.0.insert(field.name, value);
    }
    if !base_given {
        values.0.insert("base_price", Val::Int(values.int("price")));
    }
    values
}

/// The fields a new goods must have and lacks, `(field, message)`.
pub fn missing(values: &Values) -> Vec<(String, String)> {
    FIELDS
        .iter()
        .filter(|field| match field.kind {
            Kind::Text { required: true, .. } => matches!(values.get(field.name), Some(Val::Text(text)) if text.is_empty()),
            Kind::Money { positive: true } => values.int(field.name) == 0,
            _ => false,
        })
        .map(|field| (field.name.to_owned(), format!("请填写{}", field.label)))
        .collect()
}

/// Adds a goods of `given` fields (name, manufacturer, specification, unit, category and price
/// are required; the others take their defaults), in one transaction with its first prices and
/// its audit row. Answers its id. It has no stock until a lot is received.
pub async fn create(conn: &mut AnyConnection, actor: &Actor, given: Given, now: i64) -> Result<i64> {
    let values = new_values(given);
    let missing = missing(&values);
    if !missing.is_empty() {
        return Err(Error::Validation(missing));
    }
    check(conn, &values).await?;
    let mut tx = begin_write(conn).await?;
    let id = insert(&mut tx, actor, &values, now).await?;
    tx.commit().await?;
    Ok(id)
}

/// Inserts a goods of checked `values` in the caller's transaction, with its ladder, its first
/// prices and its audit row. Answers its id.
pub async fn insert(conn: &mut AnyConnection, actor: &Actor, values: &Values, now: i64) -> Result<i64> {
    let names: Vec<&str> = FIELDS.iter().filter(|field| !matches!(field.kind, Kind::Ladder)).map(|field| field.name).collect();
    let marks: Vec<String> = (1..=names.len() + 3).map(|n| format!("${n}")).collect();
    let sql =
        format!("INSERT INTO goods ({}, stock, search_text, created_at) VALUES ({}) RETURNING id", names.join(", "), marks.join(", "));
    let mut query = sqlx::query(sqlx::AssertSqlSafe(sql));
    for name in &names {
        let value = values.get(name).cloned().unwrap_or(Val::Int(0));
        let value = if *name == "ladder_price_type" && values.ladder().is_empty() { Val::Int(0) } else { value };
        query = bind_val(query, name, &value);
    }
    let text = search_text(&mut *conn, values).await?;
    let row = query.bind(0_i64).bind(text).bind(now).fetch_one(&mut *conn).await?;
    let id: i64 = sqlx::Row::try_get(&row, 0)?;
    add_ladder(conn, id, values.ladder()).await?;
    keep_prices(conn, id, values, actor, now).await?;
    let changed = changes(&Values::default(), values);
    let (_, after) = audit_maps(&changed);
    let entry = Entry {
        action: "goods.add",
        target: format!("goods:{id}"),
        member: None,
        summary: format!("新增商品 {id} {}，价格¥{}", values.text("name"), money::text(values.int("price"))),
        before: json!({}),
        after,
    };
    audit::record(conn, actor, entry, now).await?;
    Ok(id)
}

/// Changes goods `id`'s `given` fields, all or none; the others stay. A price, base price or
/// ladder changed is kept in the price history. Answers what changed; the same values again
/// change nothing and record nothing.
pub async fn update(
    conn: &mut AnyConnection,
    actor: &Actor,
    id: i64,
    given: Vec<(&'static Field, Val)>,
    now: i64,
) -> Result<Vec<FieldChange>> {
    let mut tx = begin_write(conn).await?;
    let before = Values::read(&mut tx, id).await?;
    let mut after = before.clone();
    for (field, value) in given {
        after.0.insert(field.name, value);
    }
    let changed = changes(&before, &after);
    if changed.is_empty() {
        return Ok(changed);
    }
    check(&mut tx, &after).await?;
    apply(&mut tx, actor, id, &before, &after, &changed, "修改商品", now).await?;
    tx.commit().await?;
    Ok(changed)
}

/// Writes checked change `changed` (from `before` to `after`) of goods `id` in the caller's
/// transaction: the columns, the price history when priced, the audit row (`what` begins its
/// summary).
#[allow(clippy::too_many_arguments)]
pub async fn apply(
    conn: &mut AnyConnection,
    actor: &Actor,
    id: i64,
    before: &Values,
    after: &Values,
    changed: &[FieldChange],
    what: &str,
    now: i64,
) -> Result<()> {
    write(conn, id, before, after, changed).await?;
    if prices_changed(changed) {
        keep_prices(conn, id, after, actor, now).await?;
    }
    let (old, new) = audit_maps(changed);
    let lines: Vec<String> =
        changed.iter().map(|change| format!("{}：{} → {}", change.label, short(&change.before), short(&change.after))).collect();
    let entry = Entry {
        action: "goods.change",
        target: format!("goods:{id}"),
        member: None,
        summary: format!("{what} {id}：{}", lines.join("；")),
        before: old,
        after: new,
    };
    audit::record(conn, actor, entry, now).await
}

/// At most 40 characters of `text`, for a summary line.
fn short(text: &str) -> String {
    if text.chars().count() <= 40 { text.to_owned() } else { format!("{}…", text.chars().take(40).collect::<String>()) }
}

/// Writes the columns that changed (so that a price change does not bump the search index's
/// version), the ladder when it changed, and the search text when a searched field did.
async fn write(conn: &mut AnyConnection, id: i64, before: &Values, after: &Values, changed: &[FieldChange]) -> Result<()> {
    let mut columns: Vec<&str> = changed.iter().map(|change| change.name).filter(|name| *name != "ladder").collect();
    let ladder_changed = changed.iter().any(|change| change.name == "ladder");
    if ladder_changed && !columns.contains(&"ladder_price_type") && before.ladder().is_empty() != after.ladder().is_empty() {
        columns.push("ladder_price_type");
    }
    if !columns.is_empty() {
        let sets: Vec<String> = columns.iter().enumerate().map(|(at, name)| format!("{name} = ${}", at + 1)).collect();
        let sql = format!("UPDATE goods SET {} WHERE id = ${}", sets.join(", "), columns.len() + 1);
        let mut query = sqlx::query(sqlx::AssertSqlSafe(sql));
        for name in &columns {
            let value = after.get(name).cloned().unwrap_or(Val::Int(0));
            let value = if *name == "ladder_price_type" && after.ladder().is_empty() { Val::Int(0) } else { value };
            query = bind_val(query, name, &value);
        }
        query.bind(id).execute(&mut *conn).await?;
    }
    if ladder_changed {
        write_ladder(conn, id, after.ladder()).await?;
    }
    if changed.iter().any(|change| matches!(change.name, "name" | "common_name" | "sccj" | "ypgg" | "pzwh" | "brand_id")) {
        let text = search_text(conn, after).await?;
        sqlx::query("UPDATE goods SET search_text = $1 WHERE id = $2").bind(text).bind(id).execute(&mut *conn).await?;
    }
    Ok(())
}

/// A goods as the console's form shows it: every field as text (money as `12.50`, a ladder as
/// `10:9.50,50:9.00`, a flag as `1`/`0`, a choice by its code), and what the form does not change.
#[derive(Debug, Serialize, ToSchema)]
pub struct GoodsRecord {
    pub id: i64,
    /// Each field's value as the form sends it back, by field name.
    pub fields: BTreeMap<String, String>,
    /// Units that may be sold (received by lot).
    pub stock: i64,
    pub sales: i64,
    /// The nearest expiry among its lots on sale.
    pub expires_on: String,
    /// Its 满减 activity's id; 0 for none.
    pub manjian_id: i64,
    pub created_at: i64,
    /// Its prices over time, newest first.
    pub prices: Vec<PriceChange>,
}

/// A goods' prices from a moment on.
#[derive(Debug, Serialize, sqlx::FromRow, ToSchema)]
pub struct PriceChange {
    #[serde(serialize_with = "super::as_money")]
    #[schema(value_type = String, example = "12.50")]
    pub price: i64,
    #[serde(serialize_with = "super::as_money")]
    #[schema(value_type = String, example = "15.00")]
    pub base_price: i64,
    /// `number:price,…`; empty for none.
    #[sqlx(rename = "ladder")]
    pub ladder: String,
    /// Who set them; empty for the prices the goods had when history began.
    pub operator: String,
    pub changed_at: i64,
}

/// A field's value as the form sends it.
fn form_text(field: &Field, value: &Val) -> String {
    match value {
        Val::Text(text) => text.clone(),
        Val::Ladder(steps) => ladder_text(steps),
        Val::Int(stored) if matches!(field.kind, Kind::Money { .. }) => money::text(*stored),
        Val::Int(value) => value.to_string(),
    }
}

/// Goods `id`, every field of it, and its price history.
pub async fn detail(conn: &mut AnyConnection, id: i64) -> Result<GoodsRecord> {
    let values = Values::read(conn, id).await?;
    let fields = FIELDS.iter().filter_map(|field| Some((field.name.to_owned(), form_text(field, values.get(field.name)?)))).collect();
    let (stock, sales, expires_on, manjian_id, created_at): (i64, i64, String, i64, i64) =
        sqlx::query_as("SELECT stock, sales, expires_on, manjian_id, created_at FROM goods WHERE id = $1")
            .bind(id)
            .fetch_one(&mut *conn)
            .await?;
    let mut prices: Vec<PriceChange> = sqlx::query_as(
        "SELECT price, base_price, ladder, operator, changed_at FROM goods_price_history WHERE goods_id = $1 ORDER BY id DESC LIMIT 50",
    )
    .bind(id)
    .fetch_all(&mut *conn)
    .await?;
    for change in &mut prices {
        let steps: Vec<(i64, i64)> = change
            .ladder
            .split(',')
            .filter_map(|step| step.split_once(':'))
            .filter_map(|(number, price)| Some((number.parse().ok()?, price.parse().ok()?)))
            .collect();
        change.ladder = ladder_text(&steps);
    }
    Ok(GoodsRecord { id, fields, stock, sales, expires_on, manjian_id, created_at, prices })
}

/// A field's choices, for the form's selects: `(code, name)`.
#[derive(Debug, Serialize, ToSchema)]
pub struct FieldChoice {
    pub value: i64,
    pub label: &'static str,
}

/// A field as the form lays it out.
#[derive(Debug, Serialize, ToSchema)]
pub struct FieldSpec {
    pub name: &'static str,
    pub label: &'static str,
    /// `text`, `int`, `id`, `choice`, `flag`, `money` or `ladder`.
    pub kind: &'static str,
    pub required: bool,
    /// The longest text kept, in characters; 0 when not text.
    pub max: usize,
    /// The choices of a `choice`.
    pub choices: Vec<FieldChoice>,
}

/// Every field as the form lays it out.
pub fn field_specs() -> Vec<FieldSpec> {
    FIELDS
        .iter()
        .map(|field| {
            let (kind, required, max, choices): (&str, bool, usize, Vec<(i64, &'static str)>) = match field.kind {
                Kind::Text { max, required } => ("text", required, max, Vec::new()),
                Kind::Int { .. } => ("int", false, 0, Vec::new()),
                Kind::Id { optional, .. } => ("id", !optional, 0, Vec::new()),
                Kind::Choice(choices) => ("choice", false, 0, choices()),
                Kind::Flag => ("flag", false, 0, Vec::new()),
                Kind::Money { positive } => ("money", positive, 0, Vec::new()),
                Kind::Ladder => ("ladder", false, 0, Vec::new()),
            };
            FieldSpec {
                name: field.name,
                label: field.label,
                kind,
                required,
                max,
                choices: choices.into_iter().map(|(value, label)| FieldChoice { value, label }).collect(),
            }
        })
        .collect()
}

/// A goods in the console's list.
#[derive(Debug, Serialize, sqlx::FromRow, ToSchema)]
pub struct GoodsRow {
    pub id: i64,
    pub name: String,
    pub common_name: String,
    pub ypgg: String,
    pub sccj: String,
    pub bzdw: String,
    pub category: String,
    /// 1 自营, 2 中药饮片, 3 器械.
    #[sqlx(rename = "type")]
    #[serde(rename = "type")]
    pub shop: i64,
    pub is_youx: i64,
    /// 1 on sale (上架), 0 taken off.
    pub is_buy: i64,
    #[serde(serialize_with = "super::as_money")]
    #[schema(value_type = String, example = "12.50")]
    pub price: i64,
    pub stock: i64,
    pub sales: i64,
    pub expires_on: String,
}

/// What the goods list keeps to.
#[derive(Debug, Default)]
pub struct GoodsFilter {
    /// An id, or part of a name, common name, manufacturer or approval number.
    pub search: Option<String>,
    /// A top-level or leaf category.
    pub category: Option<i64>,
    /// 1 自营, 2 中药饮片, 3 器械.
    pub shop: Option<i64>,
    /// On sale (`true`) or taken off.
    pub on_sale: Option<bool>,
    /// At or below this many units.
    pub stock_below: Option<i64>,
}

/// A page of goods (`page` from 1), newest first (the goods whose id was searched for first).
pub async fn list(conn: &mut AnyConnection, filter: &GoodsFilter, page: i64, size: i64) -> Result<(Vec<GoodsRow>, i64)> {
    let search = filter.search.as_deref().map(str::trim).unwrap_or_default();
    let id = search.parse::<i64>().unwrap_or(-1);
    let like = if search.is_empty() {
        String::new()
    } else {
        format!("%{}%", search.replace('\\', "\\\\").replace('%', "\\%").replace('_', "\\_"))
    };
    const MATCHING: &str = "FROM goods g JOIN categories c ON c.id = g.category_id \
         WHERE ($1 = '' OR g.id = $2 OR g.name LIKE $1 ESCAPE '\\' OR g.common_name LIKE $1 ESCAPE '\\' OR g.sccj LIKE $1 ESCAPE '\\' \
                OR g.pzwh LIKE $1 ESCAPE '\\') \
           AND ($3 = 0 OR g.category_id = $3 OR c.parent_id = $3 OR c.parent_id IN (SELECT id FROM categories WHERE parent_id = $3)) \
           AND ($4 = 0 OR g.type = $4) AND ($5 < 0 OR g.is_buy = $5) AND ($6 < 0 OR g.stock <= $6)";
    let binds = |sql: String| {
        sqlx::query_as::<_, GoodsRow>(sqlx::AssertSqlSafe(sql))
            .bind(like.clone())
            .bind(id)
            .bind(filter.category.unwrap_or(0))
            .bind(filter.shop.unwrap_or(0))
            .bind(filter.on_sale.map_or(-1, i64::from))
            .bind(filter.stock_below.unwrap_or(-1))
    };
    let rows = binds(format!(
        "SELECT g.id, g.name, g.common_name, g.ypgg, g.sccj, g.bzdw, c.name AS category, g.type, g.is_youx, g.is_buy, g.price, g.stock, \
         g.sales, g.expires_on {MATCHING} ORDER BY CASE WHEN g.id = $2 THEN 0 ELSE 1 END, g.id DESC LIMIT $7 OFFSET $8"
    ))
    .bind(size)
    .bind((page - 1) * size)
    .fetch_all(&mut *conn)
    .await?;
    let total: i64 = sqlx::query_scalar(sqlx::AssertSqlSafe(format!("SELECT CAST(COUNT(*) AS BIGINT) {MATCHING}")))
        .bind(like.clone())
        .bind(id)
        .bind(filter.category.unwrap_or(0))
        .bind(filter.shop.unwrap_or(0))
        .bind(filter.on_sale.map_or(-1, i64::from))
        .bind(filter.stock_below.unwrap_or(-1))
        .fetch_one(&mut *conn)
        .await?;
    Ok((rows, total))
}

/// A change made to many goods at once.
#[derive(Clone, Debug)]
pub enum Bulk {
    /// 上架 (`true`) or 下架.
    OnSale(bool),
    /// Into a shop: 1 自营, 2 中药饮片, 3 器械.
    Shop(i64),
    /// 优选 or not.
    Preferred(bool),
    /// Every price (and ladder step) set to this rate of itself (`0.95`: 5 % off), priced by
    /// the engine's rate rule (`engine::rate_price`: rounded down to the cent).
    Reprice(engine::Money),
}

/// Applies `change` to goods `ids` (at most 500), each as [`update`] would — its checks, its
/// price history, its audit row — all or none. Answers how many changed.
pub async fn bulk(conn: &mut AnyConnection, actor: &Actor, ids: &[i64], change: Bulk, now: i64) -> Result<usize> {
    if ids.is_empty() {
        return Err(Error::field("ids", "请选择商品"));
    }
    if ids.len() > 500 {
        return Err(Error::field("ids", "一次最多修改500个商品"));
    }
    let mut tx = begin_write(conn).await?;
    let mut count = 0;
    for id in ids {
        let before = Values::read(&mut tx, *id).await?;
        let mut after = before.clone();
        match &change {
            Bulk::OnSale(on) => {
                after.0.insert("is_buy", Val::Int(i64::from(*on)));
            }
            Bulk::Shop(shop) => {
                if !SHOPS.iter().any(|(code, _)| code == shop) {
                    return Err(Error::field("shop", "店铺不正确"));
                }
                after.0.insert("type", Val::Int(*shop));
            }
            Bulk::Preferred(on) => {
                after.0.insert("is_youx", Val::Int(i64::from(*on)));
            }
            Bulk::Reprice(rate) => {
                let repriced = |stored: i64| -> Result<i64> {
                    let money = Stored(stored).money()?;
                    let priced = engine::rate_price(money, *rate).map_err(|_| Error::field("rate", "调价比例应大于0且不超过1"))?;
                    Stored::from_money(priced).map(Stored::units).ok_or_else(|| Error::field("rate", "调价后的价格超出范围"))
                };
                after.0.insert("price", Val::Int(repriced(before.int("price"))?));
                let steps = before.ladder().iter().map(|(number, price)| Ok((*number, repriced(*price)?))).collect::<Result<Vec<_>>>()?;
                after.0.insert("ladder", Val::Ladder(steps));
            }
        }
        let changed = changes(&before, &after);
        if changed.is_empty() {
            continue;
        }
        check(&mut tx, &after).await.map_err(|error| match error {
            Error::Validation(errors) => {
                Error::Validation(errors.into_iter().map(|(field, message)| (field, format!("商品 {id}：{message}"))).collect())
            }
            other => other,
        })?;
        apply(&mut tx, actor, *id, &before, &after, &changed, "批量修改商品", now).await?;
        count += 1;
    }
    tx.commit().await?;
    Ok(count)
}
