//! The layers, measured from the code's own imports (`docs/architecture.md`, "The origin's
//! layers"): nothing outside the origin's `http/` imports it but the files that assemble the
//! server, and no module of any crate of the workspace imports another that imports it back,
//! directly or around a circle — a folder module and its own submodules aside. Circles are
//! looked for between files, between top-level modules and between their children.
//!
//! An import is a `use crate::…`, `use super::…` or `use self::…` (groups expanded), or a path
//! `crate::…` or `super::…` written in the code; it points at the longest module its path
//! names.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

type Module = Vec<String>;

/// The crates of the workspace, by their source folder.
const CRATES: [&str; 5] = ["engine", "order-check", "edge", "origin", "paygate"];

/// The origin's files that may import `http/`: they assemble the server.
const ASSEMBLERS: [&str; 3] = ["", "startup", "main"];

struct Crate {
    /// Each module and the text of its file, comments removed.
    files: BTreeMap<Module, (bool, String)>,
}

fn rust_files(folder: &Path, found: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(folder).unwrap_or_else(|error| panic!("{}: {error}", folder.display())) {
        let path = entry.expect("a folder entry").path();
        if path.is_dir() {
            rust_files(&path, found);
        } else if path.extension().is_some_and(|extension| extension == "rs") {
            found.push(path);
        }
    }
}

/// The text without line comments (doc comments included): paths in prose are not imports.
fn without_comments(text: &str) -> String {
    text.lines()
        .map(|line| match line.find("//") {
            // `"http://…"` in a string is cut too: what is left of the line still holds its paths.
            Some(at) => &line[..at],
            None => line,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn read_crate(name: &str) -> Crate {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(name).join("src");
    let mut paths = Vec::new();
    rust_files(&root, &mut paths);
    let mut files = BTreeMap::new();
    for path in paths {
        let relative = path.strip_prefix(&root).expect("under the source folder").with_extension("");
        let mut module: Module = relative.components().map(|part| part.as_os_str().to_string_lossy().into_owned()).collect();
        let folder = matches!(module.last().map(String::as_str), Some("mod" | "lib" | "main"));
        if folder {
            module.pop();
        }
        let text = fs::read_to_string(&path).unwrap_or_else(|error| panic!("{}: {error}", path.display()));
        files.insert(module, (folder, without_comments(&text)));
    }
    Crate { files }
}

fn is_word(character: char) -> bool {
    character.is_alphanumeric() || character == '_'
}

/// The paths a `use` tree names, its groups expanded: `a::{b, c::{d, e}}` is `a::b`, `a::c::d`
/// and `a::c::e`.
fn expand(prefix: &[String], tree: &str, out: &mut Vec<Module>) {
    let tree = tree.trim();
    if let Some(inner) = tree.strip_prefix('{').and_then(|rest| rest.strip_suffix('}')) {
        let (mut depth, mut start) = (0, 0);
        for (at, character) in inner.char_indices() {
            match character {
                '{' => depth += 1,
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    expand(prefix, &inner[start..at], out);
                    start = at + 1;
                }
                _ => {}
            }
        }
        expand(prefix, &inner[start..], out);
        return;
    }
    if tree.is_empty() {
        return;
    }
    let mut path = prefix.to_vec();
    let mut rest = tree;
    loop {
        if rest.starts_with('{') {
            return expand(&path, rest, out);
        }
        let end = rest.find("::").unwrap_or(rest.len());
        let segment = rest[..end].split_whitespace().next().unwrap_or_default();
        if !segment.is_empty() && segment != "*" {
            path.push(segment.to_owned());
        }
        if end == rest.len() {
            break;
        }
        rest = &rest[end + 2..];
    }
    out.push(path);
}

/// Every path a file's imports and code name that starts at `crate`, `super` or `self`.
fn paths(text: &str) -> Vec<Module> {
    let mut out = Vec::new();
    // `use` statements, up to their `;`.
    let mut from = 0;
    while let Some(found) = text[from..].find("use ") {
        let at = from + found;
        from = at + 4;
        if text[..at].chars().next_back().is_some_and(is_word) {
            continue;
        }
        let rest = text[from..].trim_start();
        if !["crate::", "super::", "self::"].iter().any(|start| rest.starts_with(start)) {
            continue;
        }
        let Some(end) = rest.find(';') else { continue };
        expand(&[], &rest[..end], &mut out);
    }
    // Paths in the code: `crate::a::b`, `super::super::c`.
    for start in ["crate::", "super::"] {
        let mut from = 0;
        while let Some(found) = text[from..].find(start) {
            let at = from + found;
            from = at + start.len();
            if text[..at].chars().next_back().is_some_and(|before| is_word(before) || before == ':') {
                continue;
            }
            let length = text[at..].find(|character: char| !(is_word(character) || character == ':')).unwrap_or(text.len() - at);
            out.push(text[at..at + length].split("::").filter(|part| !part.is_empty()).map(str::to_owned).collect());
        }
    }
    out
}

/// The module a path from `module` points at: the longest module of the crate it names.
fn target(modules: &BTreeSet<Module>, module: &Module, path: &[String]) -> Option<Module> {
    let mut full: Module = Vec::new();
    let mut rest = path;
    match rest.first().map(String::as_str) {
        Some("crate") => rest = &rest[1..],
        Some("super" | "self") => {
            full = module.clone();
            while let Some(first) = rest.first() {
                match first.as_str() {
                    "super" => {
                        full.pop();
                    }
                    "self" => {}
                    _ => break,
                }
                rest = &rest[1..];
            }
        }
        _ => return None,
    }
    full.extend(rest.iter().cloned());
    (0..=full.len()).rev().map(|length| full[..length].to_vec()).find(|candidate| modules.contains(candidate))
}

/// One crate's imports between modules cut to `depth` segments, a module and its own
/// submodules aside.
fn edges(source: &Crate, depth: usize) -> BTreeMap<Module, BTreeSet<Module>> {
    let modules: BTreeSet<Module> = source.files.keys().cloned().collect();
    let mut edges: BTreeMap<Module, BTreeSet<Module>> = BTreeMap::new();
    for (module, (_, text)) in &source.files {
        for path in paths(text) {
            let Some(target) = target(&modules, module, &path) else { continue };
            let from: Module = module.iter().take(depth).cloned().collect();
            let to: Module = target.iter().take(depth).cloned().collect();
            if from.starts_with(&to) || to.starts_with(&from) {
                continue;
            }
            edges.entry(from).or_default().insert(to);
        }
    }
    edges
}

/// The circles among `edges`: the strongly connected sets of more than one module (Tarjan).
fn circles(edges: &BTreeMap<Module, BTreeSet<Module>>) -> Vec<Vec<String>> {
    struct Walk<'a> {
        edges: &'a BTreeMap<Module, BTreeSet<Module>>,
        index: BTreeMap<&'a Module, usize>,
        low: BTreeMap<&'a Module, usize>,
        stack: Vec<&'a Module>,
        next: usize,
        found: Vec<Vec<String>>,
    }
    impl<'a> Walk<'a> {
        fn visit(&mut self, module: &'a Module) {
            self.index.insert(module, self.next);
            self.low.insert(module, self.next);
            self.next += 1;
            self.stack.push(module);
            for next in self.edges.get(module).into_iter().flatten() {
                if !self.index.contains_key(next) {
                    self.visit(next);
                    let low = self.low[module].min(self.low[next]);
                    self.low.insert(module, low);
                } else if self.stack.contains(&next) {
                    let low = self.low[module].min(self.index[next]);
                    self.low.insert(module, low);
                }
            }
            if self.low[module] == self.index[module] {
                let mut set = Vec::new();
                while let Some(member) = self.stack.pop() {
                    set.push(member.join("::"));
                    if member == module {
                        break;
                    }
                }
                if set.len() > 1 {
                    set.sort();
                    self.found.push(set);
                }
            }
        }
    }
    let mut walk = Walk { edges, index: BTreeMap::new(), low: BTreeMap::new(), stack: Vec::new(), next: 0, found: Vec::new() };
    for module in edges.keys() {
        if !walk.index.contains_key(module) {
            walk.visit(module);
        }
    }
    walk.found
}

#[test]
fn nothing_imports_the_api_but_what_assembles_it() {
    let origin = read_crate("origin");
    let up: Vec<String> = edges(&origin, usize::MAX)
        .into_iter()
        .filter(|(from, _)| from.first().map(String::as_str) != Some("http"))
        .filter(|(from, _)| !ASSEMBLERS.contains(&from.join("::").as_str()))
        .flat_map(|(from, to)| {
            to.into_iter()
                .filter(|to| to.first().map(String::as_str) == Some("http"))
                .map(move |to| format!("{} → {}", from.join("::"), to.join("::")))
        })
        .collect();
    assert!(up.is_empty(), "imports up into http/: {up:?}");
}

#[test]
fn no_module_imports_another_that_imports_it_back() {
    let mut found = Vec::new();
    for name in CRATES {
        let source = read_crate(name);
        assert!(source.files.len() > 1 || name == "paygate", "{name}: no source files found");
        for depth in [1, 2, usize::MAX] {
            for circle in circles(&edges(&source, depth)) {
                found.push(format!("{name}: {}", circle.join(" ↔ ")));
            }
        }
    }
    found.dedup();
    assert!(found.is_empty(), "circles: {found:#?}");
}

/// The measure itself: a circle and an import up are found where there is one.
#[test]
fn the_measure_finds_a_circle_and_an_import_up() {
    let mut files = BTreeMap::new();
    let module = |path: &str| -> Module { path.split("::").map(str::to_owned).collect() };
    files.insert(Vec::new(), (true, "pub mod a; pub mod b; pub mod http;".to_owned()));
    files.insert(module("a"), (false, "use crate::b::{Thing, other::{X}};\nfn f() { super::http::g(); }".to_owned()));
    files.insert(module("b"), (true, "use super::a::Y;".to_owned()));
    files.insert(module("b::other"), (false, "use self::Z;".to_owned()));
    files.insert(module("http"), (false, String::new()));
    let source = Crate { files };
    assert_eq!(circles(&edges(&source, usize::MAX)), vec![vec!["a".to_owned(), "b".to_owned()]]);
    assert!(edges(&source, usize::MAX)[&module("a")].contains(&module("http")));
    // `b::other` is `b`'s own: no circle between a folder module and its submodules.
    assert_eq!(circles(&edges(&source, 1)), vec![vec!["a".to_owned(), "b".to_owned()]]);
}
