//! `origin admin settings` and `origin admin prices`: the shop's identity and who sees prices,
//! shown or changed through the same domain functions as the console's (`crate::domain::staff::shop`).

use sqlx::AnyConnection;

use super::SettingsArgs;
use crate::domain::staff::{Actor, shop};
use crate::now;

/// Shows the shop's identity, or changes the fields given in one transaction (each value checked
/// as `crate::domain::shop::check` says, all refused when one is wrong); prints each change, `old → new`.
pub(super) async fn settings(conn: &mut AnyConnection, operator: &str, args: SettingsArgs) -> anyhow::Result<String> {
    let given: Vec<(String, String)> = args.given().into_iter().map(|(name, value)| (name.to_owned(), value)).collect();
    if given.is_empty() {
        let mut out = String::new();
        for field in shop::settings(conn).await?.fields {
            out.push_str(&format!("{}\t{}\t{}\n", field.name, field.label, field.value));
        }
        return Ok(out);
    }
    let changed = shop::change_identity(conn, &Actor::command_line(operator), &given, now()).await.map_err(|error| match error {
        // Name the flag beside the message, as the command line spells it.
        crate::domain::Error::Validation(fields) => {
            anyhow::anyhow!("{}", fields.iter().map(|(name, why)| format!("--{}: {why}", flag(name))).collect::<Vec<_>>().join("; "))
        }
        other => other.into(),
    })?;
    if changed.is_empty() {
        return Ok("nothing changed\n".to_owned());
    }
    Ok(changed.iter().map(|change| format!("{} ({}): {} → {}\n", change.name, change.label, change.before, change.after)).collect())
}

/// A field's command-line flag (`hot_line` is `--hotline`, the others their names with dashes).
fn flag(name: &str) -> String {
    if name == "hot_line" { "hotline".into() } else { name.replace('_', "-") }
}

/// `origin admin prices [all|approved]`: shows who sees prices, or opens them to everyone
/// (`all`) or keeps them for approved members (`approved`, the default; docs/compliance.md).
pub(super) async fn prices(conn: &mut AnyConnection, operator: &str, to: Option<String>) -> anyhow::Result<String> {
    let said = |public: bool| if public { "all: everyone sees prices" } else { "approved: only approved members see prices" };
    let before = shop::settings(conn).await?.prices_public;
    let Some(to) = to else { return Ok(format!("{}\n", said(before))) };
    let public = match to.as_str() {
        "all" => true,
        "approved" => false,
        other => anyhow::bail!("prices are shown to `all` or to `approved` members, not {other:?}"),
    };
    if !shop::set_prices_public(conn, &Actor::command_line(operator), public, now()).await? {
        return Ok(format!("{}: unchanged\n", said(public)));
    }
    Ok(format!("prices: {} → {}\n", said(before), said(public)))
}
