//! The import graph of the workspace's `use` lines has no circle: inside a folder (files
//! that import each other, or a `mod.rs` that re-exports a file which imports the `mod.rs`
//! back) nor between folders. A type two files share lives in a module of its own, which
//! both import (ARCHITECTURE.md, "Invariants").
//!
//! A module is a file (`core/maze/grid.rs` is `core::maze::grid`; a `mod.rs` or `lib.rs` is
//! its folder's module). A `use` line outside a `#[cfg(test)]` module that names
//! `crate::`, `super::`, `self::`, a child module, or another workspace crate
//! (`shapemaze_core::...`) is an edge to the longest module its path names. Paths written
//! inline without `use` are not edges: the graph is the one a reader follows from the top
//! of each file.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// A module: its crate then its path (`["core", "maze", "grid"]`).
type Module = Vec<String>;

/// Each workspace crate's folder, the name its modules go by, and its crate name in paths.
const CRATES: &[(&str, &str, &str)] = &[
    ("crates/core", "core", "shapemaze_core"),
    ("crates/view", "view", "shapemaze_view"),
    ("crates/web", "web", "shapemaze_web"),
    ("crates/cli", "cli", "shapemaze_cli"),
];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).expect("src is readable") {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Every module of the workspace's crates (binaries under `src/bin` left out) with its text.
fn modules() -> BTreeMap<Module, String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out = BTreeMap::new();
    for (dir, name, _) in CRATES {
        let src = root.join(dir).join("src");
        let mut files = Vec::new();
        rust_files(&src, &mut files);
        for file in files {
            let rel = file.strip_prefix(&src).expect("under src");
            let mut path: Vec<String> = rel
                .with_extension("")
                .iter()
                .map(|p| p.to_string_lossy().into_owned())
                .collect();
            if path.first().is_some_and(|p| p == "bin") {
                continue;
            }
            if path
                .last()
                .is_some_and(|l| l == "mod" || l == "lib" || l == "main")
            {
                path.pop();
            }
            path.insert(0, (*name).to_string());
            out.insert(path, fs::read_to_string(&file).expect("readable"));
        }
    }
    out
}

/// The paths of the `use` lines of `text` before its test module, braces expanded:
/// `use a::{b, c::d as e};` gives `a::b` and `a::c::d`.
fn use_paths(text: &str) -> Vec<Vec<String>> {
    let code = text
        .split("#[cfg(test)]\nmod tests {")
        .next()
        .unwrap_or(text);
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(at) = find_use(rest) {
        let after = &rest[at..];
        let Some(end) = after.find(';') else { break };
        expand(&mut out, Vec::new(), after["use ".len()..end].trim());
        rest = &after[end..];
    }
    out
}

/// Where the next `use ` that starts a statement (a line's first word, after `pub` or
/// `pub(crate)`) stands.
fn find_use(text: &str) -> Option<usize> {
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim_start();
        let lead = line.len() - trimmed.len();
        let word = trimmed
            .strip_prefix("pub(crate) ")
            .or_else(|| trimmed.strip_prefix("pub(super) "))
            .or_else(|| trimmed.strip_prefix("pub "))
            .unwrap_or(trimmed);
        if word.starts_with("use ") {
            return Some(offset + lead + (trimmed.len() - word.len()));
        }
        offset += line.len();
    }
    None
}

fn expand(out: &mut Vec<Vec<String>>, prefix: Vec<String>, tree: &str) {
    let tree = tree.trim();
    if tree.is_empty() {
        return;
    }
    let Some(open) = tree.find('{') else {
        let head = tree.split(" as ").next().unwrap_or(tree);
        let mut path = prefix;
        path.extend(
            head.split("::")
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(String::from),
        );
        out.push(path);
        return;
    };
    let mut head = prefix;
    head.extend(
        tree[..open]
            .split("::")
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(String::from),
    );
    let inner = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
    let (mut depth, mut start) = (0, 0);
    for (i, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                expand(out, head.clone(), &inner[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    expand(out, head, &inner[start..]);
}

/// The modules each module imports, by its `use` lines.
fn graph(modules: &BTreeMap<Module, String>) -> BTreeMap<Module, BTreeSet<Module>> {
    let mut out: BTreeMap<Module, BTreeSet<Module>> = BTreeMap::new();
    for (m, text) in modules {
        for path in use_paths(text) {
            let Some(first) = path.first() else { continue };
            let base: Vec<String> = if first == "crate" {
                std::iter::once(m[0].clone())
                    .chain(path[1..].iter().cloned())
                    .collect()
            } else if first == "super" || first == "self" {
                let mut cur = m.clone();
                let mut rest = &path[..];
                while let Some(("super", tail)) = rest.split_first().map(|(h, t)| (h.as_str(), t)) {
                    cur.pop();
                    rest = tail;
                }
                if let Some(("self", tail)) = rest.split_first().map(|(h, t)| (h.as_str(), t)) {
                    rest = tail;
                }
                cur.into_iter().chain(rest.iter().cloned()).collect()
            } else if let Some((_, name, _)) = CRATES.iter().find(|(_, _, c)| c == first) {
                std::iter::once((*name).to_string())
                    .chain(path[1..].iter().cloned())
                    .collect()
            } else {
                let child: Module = m.iter().chain(std::iter::once(first)).cloned().collect();
                if !modules.contains_key(&child) {
                    continue;
                }
                m.iter().chain(path.iter()).cloned().collect()
            };
            let target = (1..=base.len())
                .rev()
                .map(|n| base[..n].to_vec())
                .find(|p| modules.contains_key(p));
            if let Some(t) = target.filter(|t| t != m) {
                out.entry(m.clone()).or_default().insert(t);
            }
        }
    }
    out
}

/// The strongly connected components of more than one node of `edges` restricted to
/// `nodes` (Tarjan's algorithm), each sorted.
fn circles(
    nodes: &BTreeSet<Module>,
    edges: &BTreeMap<Module, BTreeSet<Module>>,
) -> Vec<Vec<Module>> {
    struct Walk<'a> {
        nodes: &'a BTreeSet<Module>,
        edges: &'a BTreeMap<Module, BTreeSet<Module>>,
        index: BTreeMap<Module, usize>,
        low: BTreeMap<Module, usize>,
        stack: Vec<Module>,
        on: BTreeSet<Module>,
        out: Vec<Vec<Module>>,
    }
    fn strong(w: &mut Walk<'_>, v: &Module) {
        let i = w.index.len();
        w.index.insert(v.clone(), i);
        w.low.insert(v.clone(), i);
        w.stack.push(v.clone());
        w.on.insert(v.clone());
        for t in w.edges.get(v).into_iter().flatten() {
            if !w.nodes.contains(t) {
                continue;
            }
            if !w.index.contains_key(t) {
                strong(w, t);
                let l = w.low[v].min(w.low[t]);
                w.low.insert(v.clone(), l);
            } else if w.on.contains(t) {
                let l = w.low[v].min(w.index[t]);
                w.low.insert(v.clone(), l);
            }
        }
        if w.low[v] == w.index[v] {
            let mut comp = Vec::new();
            while let Some(t) = w.stack.pop() {
                w.on.remove(&t);
                let done = &t == v;
                comp.push(t);
                if done {
                    break;
                }
            }
            if comp.len() > 1 {
                comp.sort();
                w.out.push(comp);
            }
        }
    }
    let mut w = Walk {
        nodes,
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on: BTreeSet::new(),
        out: Vec::new(),
    };
    for v in nodes {
        if !w.index.contains_key(v) {
            strong(&mut w, v);
        }
    }
    w.out
}

/// Every circle inside a folder (its files and its own module), and between folders (each
/// module counted as its folder: its own when it has children, else its parent's; edges
/// along the tree, parent to child folder, left out), in words.
fn all_circles(modules: &BTreeMap<Module, String>) -> Vec<String> {
    let edges = graph(modules);
    let mut folders: BTreeMap<Module, BTreeSet<Module>> = BTreeMap::new();
    for m in modules.keys().filter(|m| m.len() >= 2) {
        let folder = m[..m.len() - 1].to_vec();
        let set = folders.entry(folder.clone()).or_default();
        set.insert(m.clone());
        if modules.contains_key(&folder) {
            set.insert(folder);
        }
    }
    let name = |m: &Module| m.join("/");
    let mut out = Vec::new();
    for (folder, members) in &folders {
        for c in circles(members, &edges) {
            out.push(format!(
                "inside {}: {}",
                name(folder),
                c.iter().map(name).collect::<Vec<_>>().join(", ")
            ));
        }
    }
    let folder_of = |m: &Module| {
        if folders.contains_key(m) {
            m.clone()
        } else {
            m[..m.len().saturating_sub(1)].to_vec()
        }
    };
    let mut between: BTreeMap<Module, BTreeSet<Module>> = BTreeMap::new();
    for (a, targets) in &edges {
        for b in targets {
            let (fa, fb) = (folder_of(a), folder_of(b));
            if fa != fb && !fa.starts_with(&fb) && !fb.starts_with(&fa) {
                between.entry(fa).or_default().insert(fb);
            }
        }
    }
    let nodes: BTreeSet<Module> = between
        .iter()
        .flat_map(|(a, bs)| std::iter::once(a.clone()).chain(bs.iter().cloned()))
        .collect();
    for c in circles(&nodes, &between) {
        out.push(format!(
            "between folders: {}",
            c.iter().map(name).collect::<Vec<_>>().join(", ")
        ));
    }
    out
}

#[test]
fn the_import_graph_has_no_circle() {
    let found = all_circles(&modules());
    assert!(
        found.is_empty(),
        "import circles (move the type both sides share into a module of its own):\n{}",
        found.join("\n")
    );
}

#[test]
fn a_circle_is_found_inside_a_folder_through_a_mod_rs_and_between_folders() {
    let m = |path: &str, text: &str| {
        (
            path.split('/').map(String::from).collect::<Module>(),
            text.to_string(),
        )
    };
    let tree: BTreeMap<Module, String> = [
        m("core", "pub mod a;\npub mod b;\n"),
        m(
            "core/a",
            "pub use child::Thing;\nmod child;\npub struct Shared;\n",
        ),
        m("core/a/child", "use super::Shared;\npub struct Thing;\n"),
        m("core/b", "use crate::a::{child::Thing, Shared as S};\n"),
        m(
            "core/c",
            "pub(crate) use crate::d::X;\n#[cfg(test)]\nmod tests {\n    use crate::b::Y;\n}\n",
        ),
        m("core/d", "use super::c::Z;\n"),
    ]
    .into_iter()
    .collect();
    assert_eq!(
        all_circles(&tree),
        vec![
            "inside core: core/c, core/d".to_string(),
            "inside core/a: core/a, core/a/child".to_string(),
        ]
    );
    let mut two = BTreeMap::new();
    two.extend([
        m("core/x/one", "use crate::y::two::T;\n"),
        m("core/x", "pub mod one;\n"),
        m("core/y/two", "use crate::x::one::U;\n"),
        m("core/y", "pub mod two;\n"),
    ]);
    assert_eq!(
        all_circles(&two),
        vec!["between folders: core/x, core/y".to_string()]
    );
}
