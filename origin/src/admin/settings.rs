//! `origin admin settings`: the shop's identity, shown or changed (`crate::domain::shop`).

use sqlx::AnyConnection;

use super::{SettingsArgs, begin_write};

/// Shows the shop's identity, or changes the fields given in one transaction (each value checked
/// as `crate::domain::shop::check` says, all refused when one is wrong); prints each change, `old → new`.
pub(super) async fn settings(conn: &mut AnyConnection, operator: &str, args: SettingsArgs) -> anyhow::Result<String> {
    let given = args.given();
    let mut changes = Vec::new();
    for (name, value) in &given {
        let field = crate::domain::shop::FIELDS.iter().find(|field| field.name == *name).expect("every flag is a field");
        let kept = crate::domain::shop::check(field, value).map_err(|why| anyhow::anyhow!("--{}: {why}", flag(name)))?;
        changes.push((field, kept));
    }
    let mut tx = begin_write(conn).await?;
    let before = crate::domain::shop::read(&mut tx).await?;
    let mut out = String::new();
    for (field, value) in changes {
        let old = before.get(field.name).unwrap_or_default();
        if old == value {
            continue;
        }
        sqlx::query("INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value")
            .bind(field.key)
            .bind(&value)
            .execute(&mut *tx)
            .await?;
        let line = format!("{} ({}): {old} → {value}", field.name, field.label);
        super::record(&mut tx, operator, "settings.change", String::new(), None, &line).await?;
        out.push_str(&line);
        out.push('\n');
    }
    tx.commit().await?;
    if given.is_empty() {
        for field in &crate::domain::shop::FIELDS {
            out.push_str(&format!("{}\t{}\t{}\n", field.name, field.label, before.get(field.name).unwrap_or_default()));
        }
    } else if out.is_empty() {
        out.push_str("nothing changed\n");
    }
    Ok(out)
}

/// A field's command-line flag (`hot_line` is `--hotline`, the others their names with dashes).
fn flag(name: &str) -> String {
    if name == "hot_line" { "hotline".into() } else { name.replace('_', "-") }
}

/// `origin admin prices [all|approved]`: shows who sees prices, or opens them to everyone
/// (`all`) or keeps them for approved members (`approved`, the default; docs/compliance.md).
pub(super) async fn prices(conn: &mut AnyConnection, operator: &str, to: Option<String>) -> anyhow::Result<String> {
    use crate::domain::catalogue::viewer::{prices_public, set_prices_public};
    let said = |public: bool| if public { "all: everyone sees prices" } else { "approved: only approved members see prices" };
    let Some(to) = to else { return Ok(format!("{}\n", said(prices_public(conn).await?))) };
    let public = match to.as_str() {
        "all" => true,
        "approved" => false,
        other => anyhow::bail!("prices are shown to `all` or to `approved` members, not {other:?}"),
    };
    let mut tx = begin_write(conn).await?;
    let before = prices_public(&mut tx).await?;
    set_prices_public(&mut tx, public).await?;
    let line = format!("prices: {} → {}", said(before), said(public));
    super::record(&mut tx, operator, "settings.prices", String::new(), None, &line).await?;
    tx.commit().await?;
    Ok(format!("{line}\n"))
}
