//! The house by domain, held where the compiler cannot see it. The layers are crates
//! (crates/core, view, web, cli), and each Cargo.toml says which layers below it a crate may
//! use, so the compiler holds those; this test holds what lives inside the core (which of
//! its domains may import which, no circles, every domain folder saying what lives there),
//! that the core's manifest stays free of I/O, and that no file grows big without an
//! argument. Reads the sources; runs natively.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// Each domain and the domains it builds on directly, from the bottom up (the README's
/// "Layout"); a domain may import those and everything they may import.
const LAYERS: &[(&str, &[&str])] = &[
    ("core/text", &[]),
    ("core/site", &[]),
    ("core/sort", &[]),
    ("core/json", &[]),
    ("core/reply", &[]),
    ("core/maze", &["core/text", "core/sort", "core/reply"]),
    ("core/verify", &["core/maze"]),
    ("core/model", &["core/text", "core/reply"]),
    ("core/play", &["core/verify", "core/model"]),
    ("core/results", &["core/play", "core/json"]),
    ("core/batch", &["core/results"]),
    ("core/analysis", &["core/results"]),
    ("core/study", &["core/results"]),
    ("core/original", &["core/analysis", "core/batch"]),
    ("core/exchange", &["core/analysis", "core/batch"]),
];

/// The domains `domain` may import: the transitive closure of [`LAYERS`].
fn allowed(domain: &str) -> BTreeSet<&'static str> {
    let mut out = BTreeSet::new();
    let mut todo: Vec<&str> = vec![domain];
    while let Some(d) = todo.pop() {
        let below = LAYERS
            .iter()
            .find(|(name, _)| *name == d)
            .unwrap_or_else(|| panic!("domain {d} is not in LAYERS"))
            .1;
        for b in below {
            if out.insert(*b) {
                todo.push(b);
            }
        }
    }
    out
}

/// Files allowed above [`BIG`] lines, each with why it is still one concept (none now:
/// the scheduler, the last, is split into lanes, progress and its state machine).
const BIG_FILES: &[(&str, &str)] = &[];

/// A file longer than this holds more than one concept unless [`BIG_FILES`] argues it
/// (lowered to what the code meets: the longest file, `view/experiment.rs`, is about
/// 1,090 lines).
const BIG: usize = 1100;

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

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Each layer's crate folder and the name its files go by here.
const CRATES: &[(&str, &str)] = &[
    ("crates/core", "core"),
    ("crates/view", "view"),
    ("crates/web", "app"),
    ("crates/cli", "cli"),
];

/// Every crate's sources as `core/maze/grid.rs`, `view/chart.rs`, `app/play.rs`,
/// `cli/run.rs` and so on (the root package's own as `bin/shapemaze.rs` and `lib.rs`), with
/// their text.
fn sources() -> Vec<(String, String)> {
    let mut roots: Vec<(PathBuf, String)> = CRATES
        .iter()
        .map(|(dir, name)| (root().join(dir).join("src"), format!("{name}/")))
        .collect();
    roots.push((root().join("src"), String::new()));
    let mut out = Vec::new();
    for (src, prefix) in roots {
        let mut files = Vec::new();
        rust_files(&src, &mut files);
        files.sort();
        for p in files {
            let rel = p
                .strip_prefix(&src)
                .expect("under src")
                .to_string_lossy()
                .replace('\\', "/");
            let text = fs::read_to_string(&p).expect("readable");
            out.push((format!("{prefix}{rel}"), text));
        }
    }
    out
}

/// The domain a file belongs to: `core/maze` for `core/maze/grid.rs`, `core/text` for
/// `core/text.rs`, `view`, `cli`, `app`, or `lib` for the root package's files.
fn domain(rel: &str) -> String {
    let parts: Vec<&str> = rel.split('/').collect();
    match parts.as_slice() {
        ["core", "lib.rs"] => "core".into(),
        ["core", file] => format!("core/{}", file.trim_end_matches(".rs")),
        ["core", folder, ..] => format!("core/{folder}"),
        [top, _, ..] => (*top).to_string(),
        [file] => file.trim_end_matches(".rs").to_string(),
        [] => String::new(),
    }
}

/// The core domains a core file's code (comments left out) names through `crate::`.
fn imports(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for line in text.lines() {
        let code = line.trim_start();
        if code.starts_with("//") {
            continue;
        }
        let mut rest = code;
        while let Some(i) = rest.find("crate::") {
            rest = &rest[i + "crate::".len()..];
            let path: Vec<&str> = rest
                .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
                .next()
                .unwrap_or("")
                .split("::")
                .collect();
            if let [d, ..] = path.as_slice() {
                if !d.is_empty() {
                    out.insert(format!("core/{d}"));
                }
            }
        }
    }
    out
}

#[test]
fn each_core_domain_imports_only_the_domains_below_it() {
    let mut wrong = Vec::new();
    for (rel, text) in sources() {
        let from = domain(&rel);
        if !from.starts_with("core/") {
            continue;
        }
        for to in imports(&text) {
            if to != from && !allowed(&from).contains(to.as_str()) {
                wrong.push(format!("{rel} ({from}) imports {to}"));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "imports against the layering (tests/layout.rs LAYERS):\n{}",
        wrong.join("\n")
    );
}

#[test]
fn the_layers_have_no_circle() {
    // Each domain's allowed imports must come earlier in LAYERS: then no circle can form.
    let mut seen: BTreeSet<&str> = BTreeSet::new();
    for (d, below) in LAYERS {
        for b in *below {
            assert!(
                seen.contains(b),
                "{d} may import {b}, which is not below it"
            );
        }
        seen.insert(d);
    }
}

#[test]
fn every_domain_folder_says_what_lives_there_and_what_it_may_import() {
    let core = root().join("crates/core/src");
    let mut folders = 0;
    for entry in fs::read_dir(&core).expect("core") {
        let path = entry.expect("entry").path();
        if !path.is_dir() {
            continue;
        }
        folders += 1;
        let name = path
            .file_name()
            .expect("a name")
            .to_string_lossy()
            .into_owned();
        let text = fs::read_to_string(path.join("mod.rs")).expect("a mod.rs");
        let doc: String = text
            .lines()
            .take_while(|l| l.starts_with("//!"))
            .collect::<Vec<_>>()
            .join("\n");
        assert!(doc.len() > 80, "core/{name}/mod.rs says what lives there");
        assert!(
            doc.contains("import"),
            "core/{name}/mod.rs says what it may import"
        );
        assert!(
            LAYERS.iter().any(|(d, _)| *d == format!("core/{name}")),
            "core/{name} is in LAYERS"
        );
    }
    assert!(folders >= 8, "the core is grouped into its domains");
    let loose: Vec<String> = fs::read_dir(&core)
        .expect("core")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|n| {
            n.ends_with(".rs")
                && ![
                    "lib.rs", "text.rs", "site.rs", "sort.rs", "json.rs", "reply.rs",
                ]
                .contains(&n.as_str())
        })
        .collect();
    assert!(loose.is_empty(), "files outside a domain folder: {loose:?}");
}

#[test]
fn no_big_file_without_an_argument() {
    let mut big = Vec::new();
    for (rel, text) in sources() {
        let lines = text.lines().count();
        if lines > BIG && !BIG_FILES.iter().any(|(f, _)| *f == rel) {
            big.push(format!("{rel}: {lines} lines"));
        }
    }
    assert!(
        big.is_empty(),
        "files above {BIG} lines (split them, or argue them in BIG_FILES):\n{}",
        big.join("\n")
    );
}

#[test]
fn no_re_exports_for_older_callers() {
    // A domain's own facade may re-export its files (verify's `verify::verify_move`);
    // nothing re-exports another domain's items under a second name.
    let mut found = Vec::new();
    for (rel, text) in sources() {
        for line in text.lines() {
            let t = line.trim_start();
            if t.starts_with("pub use crate::") || t.starts_with("pub use super::super") {
                found.push(format!("{rel}: {t}"));
            }
        }
    }
    assert!(found.is_empty(), "re-exports:\n{}", found.join("\n"));
}

#[test]
fn the_browser_build_sorts_through_one_sort() {
    // The standard library's sorts are generic: each call site's type brought its own copy
    // of driftsort into the wasm (30 copies, 20 KB gzipped; docs/size.md). Code the
    // browser build can reach (the core, the view, the app; tests aside) calls
    // `core::sort` instead. `collect` into a `BTreeMap` or `BTreeSet` sorts too; those are
    // filled with `insert`, which this scan cannot see, so `twiggy` is the final word.
    let calls = [
        ".sort(",
        ".sort_by(",
        ".sort_by_key(",
        ".sort_by_cached_key(",
        ".sort_unstable",
    ];
    let mut found = Vec::new();
    for (rel, text) in sources() {
        if rel.starts_with("cli/") || rel.starts_with("bin/") || rel.ends_with("tests.rs") {
            continue;
        }
        for (n, line) in text.lines().enumerate() {
            if line.trim_start().starts_with("#[cfg(test)]") {
                break;
            }
            if calls.iter().any(|c| line.contains(c)) && !line.trim_start().starts_with("//") {
                found.push(format!("{rel}:{}: {}", n + 1, line.trim()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "sorts outside core::sort:\n{}",
        found.join("\n")
    );
}

#[test]
fn a_domain_may_import_what_its_foundations_may() {
    let original = allowed("core/original");
    for d in [
        "core/batch",
        "core/results",
        "core/play",
        "core/maze",
        "core/text",
    ] {
        assert!(original.contains(d), "{d}");
    }
    assert!(!original.contains("core/study"));
    assert!(allowed("core/model")
        .iter()
        .eq(["core/reply", "core/text"].iter()));
    assert!(allowed("core/text").is_empty());
}

#[test]
fn the_domain_of_a_file_is_read_from_its_path() {
    assert_eq!(domain("core/maze/grid.rs"), "core/maze");
    assert_eq!(domain("core/text.rs"), "core/text");
    assert_eq!(domain("core/lib.rs"), "core");
    assert_eq!(domain("view/chart.rs"), "view");
    assert_eq!(domain("cli/serve/mod.rs"), "cli");
    assert_eq!(domain("lib.rs"), "lib");
    let found =
        imports("use crate::maze::grid::Pos;\n// crate::study::x\nlet a = crate::text::escape(s);");
    assert_eq!(
        found.into_iter().collect::<Vec<_>>(),
        vec!["core/maze".to_string(), "core/text".to_string()]
    );
}

/// The `[dependencies]` tables (every target's) of a crate's manifest: the crate names.
fn dependencies(manifest: &str) -> Vec<String> {
    let text = fs::read_to_string(root().join(manifest)).expect("a manifest");
    let mut out = Vec::new();
    let mut inside = false;
    for line in text.lines() {
        let t = line.trim();
        if t.starts_with('[') {
            inside = t.ends_with("dependencies]") && !t.contains("dev-dependencies");
            continue;
        }
        if inside && !t.is_empty() && !t.starts_with('#') {
            let name = t.split(['=', '.', ' ']).next().unwrap_or("").trim();
            out.push(name.to_string());
        }
    }
    out
}

#[test]
fn the_core_does_no_io_and_each_layer_uses_only_those_below_it() {
    // `cargo tree -p shapemaze-core` must show none of these (issue 32): the core's tests
    // compile without a runtime, a server, a database, an HTTP client or the browser's API.
    let core = dependencies("crates/core/Cargo.toml");
    for banned in [
        "tokio",
        "axum",
        "rusqlite",
        "reqwest",
        "leptos",
        "web-sys",
        "js-sys",
        "wasm-bindgen",
    ] {
        assert!(
            !core.iter().any(|d| d == banned),
            "the core depends on {banned}"
        );
    }
    let layers = |manifest: &str| -> Vec<String> {
        dependencies(manifest)
            .into_iter()
            .filter(|d| d.starts_with("shapemaze"))
            .collect()
    };
    assert!(layers("crates/core/Cargo.toml").is_empty());
    assert_eq!(layers("crates/view/Cargo.toml"), ["shapemaze-core"]);
    assert_eq!(
        layers("crates/web/Cargo.toml"),
        ["shapemaze-core", "shapemaze-view"]
    );
    assert_eq!(
        layers("crates/cli/Cargo.toml"),
        ["shapemaze-core", "shapemaze-view"]
    );
    assert!(dependencies("crates/core/Cargo.toml").contains(&"serde".to_string()));
}

#[test]
fn no_function_over_150_lines_is_a_lint_the_workspace_denies() {
    // `make lint` runs clippy with -D warnings; the workspace turns too_many_lines on and
    // clippy.toml sets its threshold (issue 32: no function over 150 lines).
    let manifest = fs::read_to_string(root().join("Cargo.toml")).expect("the manifest");
    let lints = &manifest[manifest
        .find("[workspace.lints.clippy]")
        .expect("clippy lints")..];
    assert!(lints.contains("too_many_lines = \"warn\""), "{lints}");
    let clippy = fs::read_to_string(root().join("clippy.toml")).expect("clippy.toml");
    assert!(clippy
        .lines()
        .any(|l| l.trim() == "too-many-lines-threshold = 150"));
    for (dir, _) in CRATES {
        let m = fs::read_to_string(root().join(dir).join("Cargo.toml")).expect("a manifest");
        assert!(
            m.contains("[lints]\nworkspace = true"),
            "{dir} takes the workspace's lints"
        );
    }
}

/// The lines of code of each function marked `#[component]` (clippy's count: blank lines
/// and comment lines left out), by file and name. Clippy's `too_many_lines` does not see
/// inside them (their bodies come out of a macro), so this test counts them itself.
fn component_lengths(text: &str) -> Vec<(String, usize)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if lines[i].trim() != "#[component]" {
            i += 1;
            continue;
        }
        // The signature: the first line from here with `fn NAME`.
        let Some(start) = (i..lines.len()).find(|&j| lines[j].contains("fn ")) else {
            break;
        };
        let name = lines[start]
            .split("fn ")
            .nth(1)
            .and_then(|rest| rest.split(['(', '<']).next())
            .unwrap_or("?")
            .to_string();
        let (end, code) = body_extent(&lines, start);
        out.push((name, code));
        i = end + 1;
    }
    out
}

/// From the line where a function starts: the line of its closing brace and its lines of
/// code. Braces in strings, character literals and comments do not count.
fn body_extent(lines: &[&str], start: usize) -> (usize, usize) {
    let mut depth = 0i64;
    let mut opened = false;
    let mut in_block_comment = false;
    let mut code = 0;
    for (j, line) in lines.iter().enumerate().skip(start) {
        let t = line.trim();
        let is_code =
            !t.is_empty() && !t.starts_with("//") && !t.starts_with("/*") && !in_block_comment;
        let chars: Vec<char> = line.chars().collect();
        let mut k = 0;
        let mut in_str = false;
        while k < chars.len() {
            let c = chars[k];
            if in_block_comment {
                if c == '*' && chars.get(k + 1) == Some(&'/') {
                    in_block_comment = false;
                    k += 1;
                }
            } else if in_str {
                if c == '\\' {
                    k += 1;
                } else if c == '"' {
                    in_str = false;
                }
            } else if c == '/' && chars.get(k + 1) == Some(&'/') {
                break;
            } else if c == '/' && chars.get(k + 1) == Some(&'*') {
                in_block_comment = true;
                k += 1;
            } else if c == '"' {
                in_str = true;
            } else if c == '\'' && chars.get(k + 2) == Some(&'\'') {
                k += 2;
            } else if c == '\'' && chars.get(k + 1) == Some(&'\\') {
                while k + 1 < chars.len() && chars[k + 1] != '\'' {
                    k += 1;
                }
                k += 1;
            } else if c == '{' {
                depth += 1;
                opened = true;
            } else if c == '}' {
                depth -= 1;
            }
            k += 1;
        }
        if is_code {
            code += 1;
        }
        if opened && depth == 0 {
            return (j, code);
        }
    }
    (lines.len(), code)
}

#[test]
fn no_component_over_150_lines() {
    // Issue 41: the same rule as clippy's too_many_lines (clippy.toml), for the bodies clippy
    // cannot see.
    let mut long = Vec::new();
    let mut counted = 0;
    for (file, text) in sources() {
        for (name, lines) in component_lengths(&text) {
            counted += 1;
            if lines > 150 {
                long.push(format!("{file}: {name} has {lines} lines of code"));
            }
        }
    }
    assert!(counted > 20, "the components were found ({counted})");
    assert!(
        long.is_empty(),
        "split these components:\n{}",
        long.join("\n")
    );
}

/// Every function of `text` (components, methods and nested functions too) with its whole
/// length in lines, from its `fn` line to its closing brace: comments and blank lines
/// counted, as a reader scrolls them.
fn function_spans(text: &str) -> Vec<(String, usize)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (start, line) in lines.iter().enumerate() {
        let t = line.trim_start();
        let Some(at) = t.find("fn ") else { continue };
        let head = &t[..at];
        let is_fn_line = head
            .split_whitespace()
            .all(|w| matches!(w, "pub" | "async" | "const" | "unsafe") || w.starts_with("pub("));
        // A declaration (a trait's method without a body, its signature on one line or
        // several) ends at a `;` before any `{` (one outside brackets: `-> [u8; 3] {` has a
        // body).
        let mut depth = 0i32;
        let declared = lines[start..]
            .iter()
            .flat_map(|l| l.split("//").next().unwrap_or("").chars())
            .find(|&c| {
                match c {
                    '(' | '[' => depth += 1,
                    ')' | ']' => depth -= 1,
                    _ => {}
                }
                c == '{' || (c == ';' && depth == 0)
            })
            == Some(';');
        if !is_fn_line || t.starts_with("//") || declared {
            continue;
        }
        let name = t[at + 3..]
            .split(['(', '<'])
            .next()
            .unwrap_or("?")
            .to_string();
        let (end, _) = body_extent(&lines, start);
        out.push((name, end.min(lines.len() - 1) - start + 1));
    }
    out
}

#[test]
fn no_function_over_150_lines_by_any_count() {
    // Issue 54: clippy's too_many_lines counts lines of code only, so a function with its
    // comments could run to 155 lines and pass; the rule's intent is what a reader scrolls.
    let mut long = Vec::new();
    let mut counted = 0;
    for (file, text) in sources() {
        for (name, lines) in function_spans(&text) {
            counted += 1;
            if lines > 150 {
                long.push(format!("{file}: {name} is {lines} lines long"));
            }
        }
    }
    assert!(counted > 1000, "the functions were found ({counted})");
    assert!(
        long.is_empty(),
        "split these functions:\n{}",
        long.join("\n")
    );
}

#[test]
fn a_function_is_measured_by_every_line_it_spans() {
    let comments = "    // why\n".repeat(150);
    let text = format!(
        "pub(crate) fn long() {{\n{comments}    let x = 1;\n}}\n\nasync fn short() -> u8 {{\n    0\n}}\nfn declared();\nfn over_lines(\n    a: u8,\n) -> u8;\nfn after() -> [u8; 1] {{ [0] }}\n"
    );
    assert_eq!(
        function_spans(&text),
        [
            ("long".to_string(), 153),
            ("short".to_string(), 3),
            ("after".to_string(), 1)
        ],
        "comments count toward a function's length; a declaration, on one line or several, is no function"
    );
}

#[test]
fn the_readme_is_at_most_200_lines_and_names_both_builds() {
    let readme = fs::read_to_string(root().join("README.md")).expect("README.md");
    let lines = readme.lines().count();
    assert!(lines <= 200, "README.md is {lines} lines: the rule is 200");
    assert!(
        readme.contains("the people's pages") && readme.contains("the lab"),
        "the README says which build each page is in"
    );
    assert!(
        !readme.contains("one build that"),
        "the README no longer says every page is in one build"
    );
}

#[test]
fn a_component_is_measured_as_clippy_measures_a_function() {
    let text = "#[component]\npub fn Page(x: u32) -> impl IntoView {\n    // a comment\n\n    let open = '{';\n    view! { <p>\"}}}\"</p> }\n}\n\n#[component]\nfn Other() -> impl IntoView {\n    /* { */\n    ()\n}\n";
    assert_eq!(
        component_lengths(text),
        [("Page".to_string(), 4), ("Other".to_string(), 3)]
    );
}

// ---------------------------------------------------------------------------------------
// The import graph: no circle.
//
// The import graph of the workspace's `use` lines has no circle: inside a folder (files
// that import each other, or a `mod.rs` that re-exports a file which imports the `mod.rs`
// back) nor between folders. A type two files share lives in a module of its own, which
// both import (ARCHITECTURE.md, "Invariants").
//
// A module is a file (`core/maze/grid.rs` is `core::maze::grid`; a `mod.rs` or `lib.rs` is
// its folder's module). A `use` line outside a `#[cfg(test)]` module that names
// `crate::`, `super::`, `self::`, a child module, or another workspace crate
// (`shapemaze_core::...`) is an edge to the longest module its path names, and so is a
// path written inline in the code (`crate::results::Source`, `super::runner::lanes_for(..)`,
// a child module's `child::f()`), outside comments, strings and test modules: a file that
// names another by path depends on it as much as one that imports it.

/// A module: its crate then its path (`["core", "maze", "grid"]`).
type Module = Vec<String>;

/// Each workspace crate's folder, the name its modules go by, and its crate name in paths.
const CRATE_PATHS: &[(&str, &str, &str)] = &[
    ("crates/core", "core", "shapemaze_core"),
    ("crates/view", "view", "shapemaze_view"),
    ("crates/web", "web", "shapemaze_web"),
    ("crates/cli", "cli", "shapemaze_cli"),
];

/// Every module of the workspace's crates (binaries under `src/bin` left out) with its text.
fn modules() -> BTreeMap<Module, String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out = BTreeMap::new();
    for (dir, name, _) in CRATE_PATHS {
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

/// `text` with its comments, string and character literals blanked out (each byte a
/// space, line breaks kept), so only code is searched for paths.
fn code_only(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = b.to_vec();
    let mut i = 0;
    let blank = |out: &mut Vec<u8>, from: usize, to: usize| {
        for c in &mut out[from..to.min(b.len())] {
            if *c != b'\n' {
                *c = b' ';
            }
        }
    };
    while i < b.len() {
        let rest = &b[i..];
        if rest.starts_with(b"//") {
            let end = rest
                .iter()
                .position(|&c| c == b'\n')
                .map_or(b.len(), |e| i + e);
            blank(&mut out, i, end);
            i = end;
        } else if rest.starts_with(b"/*") {
            let (mut depth, mut j) = (0usize, i);
            while j < b.len() {
                if b[j..].starts_with(b"/*") {
                    depth += 1;
                    j += 2;
                } else if b[j..].starts_with(b"*/") {
                    depth -= 1;
                    j += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    j += 1;
                }
            }
            blank(&mut out, i, j);
            i = j;
        } else if rest.starts_with(b"r#\"") || rest.starts_with(b"r\"") {
            let hashes = rest[1..].iter().take_while(|&&c| c == b'#').count();
            let close: Vec<u8> = std::iter::once(b'"')
                .chain(std::iter::repeat_n(b'#', hashes))
                .collect();
            let from = i + 2 + hashes;
            let end = b[from..]
                .windows(close.len())
                .position(|w| w == close.as_slice())
                .map_or(b.len(), |e| from + e + close.len());
            blank(&mut out, i, end);
            i = end;
        } else if b[i] == b'"' {
            let mut j = i + 1;
            while j < b.len() && b[j] != b'"' {
                j += if b[j] == b'\\' { 2 } else { 1 };
            }
            blank(&mut out, i, j + 1);
            i = j + 1;
        } else if b[i] == b'\'' && (rest.get(2) == Some(&b'\'') || rest.get(1) == Some(&b'\\')) {
            // A character literal (`'x'`, `'\n'`), not a lifetime.
            let end = rest[1..]
                .iter()
                .skip(1)
                .position(|&c| c == b'\'')
                .map_or(b.len(), |e| i + e + 3);
            blank(&mut out, i, end);
            i = end;
        } else {
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The paths written inline in the code of `text` (before its test module): every run of
/// `name::name::...` that starts a path (not after another `::` or a letter).
fn inline_paths(text: &str) -> Vec<Vec<String>> {
    let code = code_only(
        text.split("#[cfg(test)]\nmod tests {")
            .next()
            .unwrap_or(text),
    );
    let b = code.as_bytes();
    let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if !word(b[i]) || (i > 0 && (word(b[i - 1]) || b[i - 1] == b':')) {
            i += 1;
            continue;
        }
        let mut segments = Vec::new();
        let mut j = i;
        loop {
            let start = j;
            while j < b.len() && word(b[j]) {
                j += 1;
            }
            segments.push(code[start..j].to_string());
            if b[j..].starts_with(b"::") && b.get(j + 2).is_some_and(|&c| word(c)) {
                j += 2;
            } else {
                break;
            }
        }
        if segments.len() > 1 {
            out.push(segments);
        }
        i = j.max(i + 1);
    }
    out
}

/// The modules each module imports, by its `use` lines and the paths written in its code.
fn graph(modules: &BTreeMap<Module, String>) -> BTreeMap<Module, BTreeSet<Module>> {
    let mut out: BTreeMap<Module, BTreeSet<Module>> = BTreeMap::new();
    for (m, text) in modules {
        let test_file = m.last().is_some_and(|l| l.ends_with("tests"));
        let inline = if test_file {
            Vec::new()
        } else {
            inline_paths(text)
        };
        for path in use_paths(text).into_iter().chain(inline) {
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
            } else if let Some((_, name, _)) = CRATE_PATHS.iter().find(|(_, _, c)| c == first) {
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
        // Inside a folder, a module deeper down counts as the member that holds it
        // (`web/experiment/files` as `web/experiment`), so a circle through a subfolder's
        // file is a circle of the members.
        let member = |m: &Module| {
            let rep: Module = if m.len() > folder.len() && m.starts_with(folder) {
                m[..=folder.len()].to_vec()
            } else {
                m.clone()
            };
            members.contains(&rep).then_some(rep)
        };
        let mut inside: BTreeMap<Module, BTreeSet<Module>> = BTreeMap::new();
        for (a, targets) in &edges {
            let Some(ra) = member(a) else { continue };
            for rb in targets.iter().filter_map(member).filter(|rb| *rb != ra) {
                inside.entry(ra.clone()).or_default().insert(rb);
            }
        }
        for c in circles(members, &inside) {
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
        vec![
            "inside core: core/x, core/y".to_string(),
            "between folders: core/x, core/y".to_string()
        ]
    );
}

#[test]
fn a_path_written_in_the_code_is_an_edge_and_one_in_a_comment_or_string_is_not() {
    let m = |path: &str, text: &str| {
        (
            path.split('/').map(String::from).collect::<Module>(),
            text.to_string(),
        )
    };
    // A function called through its module, a type named by its whole path.
    let inline: BTreeMap<Module, String> = [
        m("core/p", "pub struct T;\nfn f() { crate::q::g(); }\n"),
        m("core/q", "pub fn g() -> crate::p::T { todo!() }\n"),
    ]
    .into_iter()
    .collect();
    assert_eq!(
        all_circles(&inline),
        vec!["inside core: core/p, core/q".to_string()]
    );
    // A file of a subfolder that names a module beside its folder by path.
    let nested: BTreeMap<Module, String> = [
        m("web/review", "use super::experiment::notice;\n"),
        m("web/experiment", "mod files;\npub fn notice() {}\n"),
        m(
            "web/experiment/files",
            "fn f() { crate::review::take(); }\n",
        ),
    ]
    .into_iter()
    .collect();
    assert_eq!(
        all_circles(&nested),
        vec!["inside web: web/experiment, web/review".to_string()]
    );
    // Comments, doc links, strings and test modules name nothing.
    let quiet: BTreeMap<Module, String> = [
        m(
            "core/p",
            "/// See [`crate::q::g`].\nfn f() { let s = \"crate::q::g\"; /* crate::q */ }\n// crate::q::g\n#[cfg(test)]\nmod tests {\n    fn t() { crate::q::g(); }\n}\n",
        ),
        m("core/q", "pub fn g() { crate::p::f(); }\n"),
    ]
    .into_iter()
    .collect();
    assert!(all_circles(&quiet).is_empty(), "{:?}", all_circles(&quiet));
}
