//! Every type the OpenAPI document describes (`#[derive(ToSchema)]`) has a name of its own:
//! utoipa files the components by the type's name alone, so two types of one name anywhere in
//! the origin would leave one of them described as the other, and the web app's generated types
//! wrong without an error.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

fn rust_files(folder: &Path, found: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(folder).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, found);
        } else if path.extension().is_some_and(|extension| extension == "rs") {
            found.push(path);
        }
    }
}

/// The names of the schema types a file declares: a `derive` naming `ToSchema`, then (past
/// attributes and comments) the `struct` or `enum` it is on; one renamed by `#[schema(as = …)]`
/// under its new name.
fn schema_types(text: &str) -> Vec<String> {
    let lines: Vec<&str> = text.lines().map(str::trim).collect();
    let mut names = Vec::new();
    for (index, line) in lines.iter().enumerate() {
        if !(line.starts_with("#[derive(") && line.contains("ToSchema")) {
            continue;
        }
        let mut renamed = None;
        for next in &lines[index + 1..] {
            if let Some(rest) = next.strip_prefix("#[schema(as = ") {
                renamed = rest.split([')', ',']).next().map(|name| name.trim().rsplit("::").next().unwrap_or("").to_owned());
            }
            if next.starts_with("#[") || next.starts_with("//") || next.is_empty() {
                continue;
            }
            let declared = next.trim_start_matches("pub(crate) ").trim_start_matches("pub(super) ").trim_start_matches("pub ");
            if let Some(rest) = declared.strip_prefix("struct ").or_else(|| declared.strip_prefix("enum ")) {
                let name: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
                names.push(renamed.unwrap_or(name));
            }
            break;
        }
    }
    names
}

#[test]
fn schema_types_have_names_of_their_own() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    rust_files(&root.join("src"), &mut files);
    rust_files(&root.join("../engine/src"), &mut files);
    let mut seen: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for file in files {
        let text = fs::read_to_string(&file).unwrap();
        for name in schema_types(&text) {
            seen.entry(name).or_default().push(file.strip_prefix(root).unwrap_or(&file).display().to_string());
        }
    }
    assert!(seen.len() > 100, "the schema types are found: {}", seen.len());
    let twice: Vec<_> = seen.iter().filter(|(_, files)| files.len() > 1).collect();
    assert!(twice.is_empty(), "schema types of one name: {twice:?}");
}
