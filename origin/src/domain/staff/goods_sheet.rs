//! The catalogue in Excel: goods exported as a workbook whose columns are the goods' fields (and
//! 编号, the goods' id), and a workbook of that shape imported. An import is read whole first: a
//! dry run answers, row by row, what would be added or changed and every refusal (its row, its
//! column, its message in Chinese), and changes nothing; the commit writes every row in one
//! transaction, or none when any row is refused.
//!
//! A row with an 编号 changes that goods: its empty cells leave fields as they are. A row without
//! one adds a goods: its empty cells take the defaults, and 商品名称, 生产厂家, 规格, 单位, 分类 and
//! 价格 are required. The columns may come in any order; a heading may be a field's label or
//! its name.

use std::collections::HashSet;

use serde::Serialize;
use serde_json::json;
use sqlx::AnyConnection;
use utoipa::ToSchema;

use super::audit::{self, Actor, Entry};
use super::export::{Cell, MAX_ROWS, Sheet, too_many, workbook};
use super::goods::{self, FIELDS, Field, FieldChange, GoodsFilter, Known, Val, Values};
use super::orders::begin_write;
use crate::domain::{Error, Result};

/// The most rows an import takes.
pub const MAX_IMPORT_ROWS: usize = 20_000;

/// The id column's heading.
const ID: &str = "编号";

/// The goods `filter` finds, newest first, one row each, a column per field (money as numbers,
/// choices and flags by name); recorded in the audit trail.
pub async fn export(conn: &mut AnyConnection, actor: &Actor, filter: &GoodsFilter, now: i64) -> Result<Vec<u8>> {
    let (found, total) = goods::list(conn, filter, 1, MAX_ROWS).await?;
    if total > MAX_ROWS {
        return Err(too_many(total, "商品"));
    }
    let mut rows = Vec::with_capacity(found.len());
    for row in &found {
        let values = Values::read(conn, row.id).await?;
        let mut cells = vec![Cell::Int(row.id)];
        for field in FIELDS {
            let value = values.get(field.name).cloned().unwrap_or(Val::Int(0));
            cells.push(match (field.is_money(), &value) {
                (true, Val::Int(stored)) => Cell::Money(*stored),
                _ => Cell::Text(field.shown(&value)),
            });
        }
        rows.push(cells);
    }
    let mut columns = vec![(ID, 8.0)];
    columns.extend(FIELDS.iter().map(|field| (field.label, if field.name == "description" { 40.0 } else { 14.0 })));
    let book = workbook(&[Sheet { name: "商品", columns, rows }])?;
    let entry = Entry {
        action: "goods.export",
        target: String::new(),
        member: None,
        summary: format!("导出商品 {} 个", found.len()),
        before: serde_json::Value::Null,
        after: json!({ "goods": found.len(), "search": filter.search, "shop": filter.shop, "on_sale": filter.on_sale }),
    };
    let mut tx = begin_write(conn).await?;
    audit::record(&mut tx, actor, entry, now).await?;
    tx.commit().await?;
    Ok(book)
}

/// A refusal in an imported sheet: its row (as Excel numbers it), its column and the message.
#[derive(Debug, Serialize, ToSchema)]
pub struct SheetError {
    pub row: u32,
    /// The column's letter and heading: `F 价格`; empty for the whole row.
    pub column: String,
    pub message: String,
}

/// What an imported row does.
#[derive(Debug, Serialize, ToSchema)]
pub struct RowPlan {
    pub row: u32,
    /// The goods changed; `null` for one added.
    #[schema(required = true)]
    pub id: Option<i64>,
    /// `add`, `change` or `same`.
    pub action: &'static str,
    pub name: String,
    /// The fields a change changes.
    pub changes: Vec<FieldChange>,
}

/// An import, read (and, when committed, written).
#[derive(Debug, Serialize, ToSchema)]
pub struct ImportReport {
    /// Whether the rows were written; `false` for a dry run, and for a sheet with refusals.
    pub committed: bool,
    /// Rows read (empty rows left out).
    pub rows: usize,
    pub added: usize,
    pub changed: usize,
    pub unchanged: usize,
    /// Every refusal, in the sheet's order (at most 1000 listed; `error_count` counts all).
    pub errors: Vec<SheetError>,
    pub error_count: usize,
    /// What each row does (at most the first 500 that add or change).
    pub plans: Vec<RowPlan>,
}

/// A column of the sheet: the goods' id or a field.
#[derive(Clone, Copy)]
enum Column {
    Id,
    Field(&'static Field),
}

/// `A`, `B`, …, `Z`, `AA`, … of column `index` (from 0).
fn letter(index: usize) -> String {
    let mut index = index + 1;
    let mut out = Vec::new();
    while index > 0 {
        let rest = (index - 1) % 26;
        out.push(b'A' + rest as u8);
        index = (index - 1) / 26;
    }
    out.reverse();
    String::from_utf8(out).unwrap_or_default()
}

/// A cell as text: numbers as they read (`25`, `23.5`), text trimmed.
fn cell_text(cell: &calamine::Data) -> std::result::Result<String, String> {
    use calamine::Data;
    match cell {
        Data::Empty => Ok(String::new()),
        Data::String(text) => Ok(text.trim().to_owned()),
        Data::Int(number) => Ok(number.to_string()),
        Data::Float(number) if number.fract() == 0.0 && number.abs() < 1e15 => Ok(format!("{}", *number as i64)),
        Data::Float(number) => Ok(number.to_string()),
        Data::Bool(flag) => Ok(if *flag { "1" } else { "0" }.to_owned()),
        Data::DateTime(_) | Data::DateTimeIso(_) | Data::DurationIso(_) => Err("应为文字或数字，不能是日期".to_owned()),
        Data::Error(_) => Err("单元格有公式错误".to_owned()),
    }
}

/// A sheet's rows once read: what each does, and every refusal.
struct Read {
    rows: usize,
    adds: Vec<(u32, Values)>,
    changes: Vec<(u32, i64, Values, Values, Vec<FieldChange>)>,
    unchanged: usize,
    errors: Vec<SheetError>,
}

fn refusal(errors: &mut Vec<SheetError>, row: u32, column: String, message: impl Into<String>) {
    errors.push(SheetError { row, column, message: message.into() });
}

/// Reads workbook `bytes`' first sheet against the catalogue as it is.
async fn read(conn: &mut AnyConnection, bytes: &[u8]) -> Result<Read> {
    use calamine::Reader;
    let unreadable = || Error::field("file", "无法读取该文件，请上传 .xlsx 格式的表格");
    let mut book = calamine::open_workbook_auto_from_rs(std::io::Cursor::new(bytes.to_vec())).map_err(|_| unreadable())?;
    let range = book.worksheet_range_at(0).ok_or_else(unreadable)?.map_err(|_| unreadable())?;
    let mut rows = range.rows();
    let first_row = range.start().map_or(0, |(row, _)| row) + 1;
    let headings = rows.next().ok_or_else(|| Error::field("file", "表格是空的"))?;
    let mut read = Read { rows: 0, adds: Vec::new(), changes: Vec::new(), unchanged: 0, errors: Vec::new() };
    let mut columns: Vec<Option<Column>> = Vec::new();
    let first_column = range.start().map_or(0, |(_, column)| column as usize);
    for (at, heading) in headings.iter().enumerate() {
        let text = cell_text(heading).unwrap_or_default();
        let column = if text.is_empty() {
            None
        } else if text == ID || text == "id" {
            Some(Column::Id)
        } else if let Some(field) = goods::field(&text) {
            Some(Column::Field(field))
        } else {
            refusal(&mut read.errors, first_row, format!("{} {text}", letter(first_column + at)), format!("没有“{text}”这一列"));
            None
        };
        columns.push(column);
    }
    let named: Vec<&str> = columns
        .iter()
        .filter_map(|column| match column {
            Some(Column::Field(field)) => Some(field.name),
            _ => None,
        })
        .collect();
    if let Some(twice) = named.iter().find(|name| named.iter().filter(|other| other == name).count() > 1) {
        let label = goods::field(twice).map_or(*twice, |field| field.label);
        refusal(&mut read.errors, first_row, String::new(), format!("“{label}”这一列出现了两次"));
    }
    if !read.errors.is_empty() {
        return Ok(read);
    }
    let known = Known::read(conn).await?;
    let mut seen = HashSet::new();
    let mut count = 0;
    for (offset, cells) in rows.enumerate() {
        let row = first_row + 1 + offset as u32;
        let mut id = None;
        let mut given = Vec::new();
        let mut bad = false;
        let mut texts = Vec::new();
        for (at, cell) in cells.iter().enumerate() {
            let Some(Some(column)) = columns.get(at) else { continue };
            let heading = |column: &Column| match column {
                Column::Id => ID,
                Column::Field(field) => field.label,
            };
            let place = format!("{} {}", letter(first_column + at), heading(column));
            match cell_text(cell) {
                Err(why) => {
                    refusal(&mut read.errors, row, place, why);
                    bad = true;
                }
                Ok(text) if text.is_empty() => {}
                Ok(text) => texts.push((*column, place, text)),
            }
        }
        if texts.is_empty() && !bad {
            continue;
        }
        count += 1;
        read.rows = count;
        if count > MAX_IMPORT_ROWS {
            return Err(Error::field("file", format!("一次最多导入{MAX_IMPORT_ROWS}行")));
        }
        for (column, place, text) in texts {
            match column {
                Column::Id => match text.parse::<i64>() {
                    Ok(number) if number > 0 => id = Some((number, place)),
                    _ => {
                        refusal(&mut read.errors, row, place, "编号应为商品的编号");
                        bad = true;
                    }
                },
                Column::Field(field) => match field.read(&text) {
                    Ok(value) => given.push((field, value, place)),
                    Err(why) => {
                        refusal(&mut read.errors, row, place, why);
                        bad = true;
                    }
                },
            }
        }
        if bad {
            continue;
        }
        let place_of = |name: &str, given: &[(&'static Field, Val, String)]| {
            given
                .iter()
                .find(|(field, _, _)| field.name == name)
                .map_or_else(|| goods::field(name).map_or_else(String::new, |field| field.label.to_owned()), |(_, _, place)| place.clone())
        };
        let fields: goods::Given = given.iter().map(|(field, value, _)| (*field, value.clone())).collect();
        match id {
            Some((id, place)) => {
                if !seen.insert(id) {
                    refusal(&mut read.errors, row, place, format!("编号{id}在表中出现了两次"));
                    continue;
                }
                let before = match Values::read(conn, id).await {
                    Ok(values) => values,
                    Err(Error::Refused(..)) => {
                        refusal(&mut read.errors, row, place, format!("编号{id}的商品不存在"));
                        continue;
                    }
                    Err(other) => return Err(other),
                };
                let after = before.with(fields);
                let changed = goods::changes(&before, &after);
                if changed.is_empty() {
                    read.unchanged += 1;
                    continue;
                }
                let errors = goods::check_values(&after, &known);
                if errors.is_empty() {
                    read.changes.push((row, id, before, after, changed));
                }
                for (name, message) in errors {
                    refusal(&mut read.errors, row, place_of(&name, &given), message);
                }
            }
            None => {
                let values = goods::new_values(fields);
                let mut errors = goods::missing(&values);
                if errors.is_empty() {
                    errors = goods::check_values(&values, &known);
                }
                if errors.is_empty() {
                    read.adds.push((row, values));
                }
                for (name, message) in errors {
                    refusal(&mut read.errors, row, place_of(&name, &given), message);
                }
            }
        }
    }
    Ok(read)
}

/// Imports workbook `bytes`: a dry run unless `commit`, and then all rows or none.
pub async fn import(conn: &mut AnyConnection, actor: &Actor, bytes: &[u8], commit: bool, now: i64) -> Result<ImportReport> {
    let read = read(conn, bytes).await?;
    let name = |values: &Values| match values.get("name") {
        Some(Val::Text(name)) => name.clone(),
        _ => String::new(),
    };
    let mut plans: Vec<RowPlan> = Vec::new();
    for (row, values) in &read.adds {
        plans.push(RowPlan { row: *row, id: None, action: "add", name: name(values), changes: Vec::new() });
    }
    for (row, id, _, after, changed) in &read.changes {
        let changes =
            changed.iter().map(|change| FieldChange { before: change.before.clone(), after: change.after.clone(), ..*change }).collect();
        plans.push(RowPlan { row: *row, id: Some(*id), action: "change", name: name(after), changes });
    }
    plans.sort_by_key(|plan| plan.row);
    plans.truncate(500);
    let error_count = read.errors.len();
    let mut report = ImportReport {
        committed: false,
        rows: read.rows,
        added: read.adds.len(),
        changed: read.changes.len(),
        unchanged: read.unchanged,
        errors: read.errors.into_iter().take(1000).collect(),
        error_count,
        plans,
    };
    if !commit || error_count > 0 || report.added + report.changed == 0 {
        return Ok(report);
    }
    let mut tx = begin_write(conn).await?;
    for (_, values) in &read.adds {
        goods::insert(&mut tx, actor, values, now).await?;
    }
    for (_, id, before, after, changed) in &read.changes {
        goods::apply(&mut tx, actor, *id, before, after, changed, "导入修改商品", now).await?;
    }
    let entry = Entry {
        action: "goods.import",
        target: String::new(),
        member: None,
        summary: format!("导入商品表：新增{}个，修改{}个", report.added, report.changed),
        before: serde_json::Value::Null,
        after: json!({ "added": report.added, "changed": report.changed, "unchanged": report.unchanged }),
    };
    audit::record(&mut tx, actor, entry, now).await?;
    tx.commit().await?;
    report.committed = true;
    Ok(report)
}
