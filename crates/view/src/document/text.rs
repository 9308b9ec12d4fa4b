//! The text writer: a [`Document`] for a terminal. Headings stand on their own line after
//! a blank one, tables are laid out in columns as wide as their widest cell (numbers set
//! right), verdicts are indented under their hypothesis, and charts are left out. Each
//! part of a document divided into parts opens with its title, underlined.

use super::{rate_parts, two_decimals, Block, Cell, Chip, Document, Table, Verdict};
use crate::text_table::{TextColumn, TextTable};
use std::fmt::Write as _;

/// The whole document as text.
pub fn write(doc: &Document) -> String {
    let mut out = String::new();
    let mut part = None;
    for section in &doc.sections {
        if section.part.is_some() && section.part != part {
            part = section.part;
            let title = part.map_or("", |p| p.title());
            if !out.is_empty() {
                out.push('\n');
            }
            let _ = writeln!(out, "{title}\n{}", "=".repeat(title.chars().count()));
        }
        if !section.title.is_empty() {
            if !out.is_empty() {
                out.push('\n');
            }
            let _ = writeln!(out, "{}", section.title);
        }
        for (i, block) in section.blocks.iter().enumerate() {
            // Blocks after the first stand apart by a blank line.
            if i > 0 && !matches!(block, Block::Charts(_)) {
                out.push('\n');
            }
            match block {
                Block::Paragraph(p) => {
                    let _ = writeln!(out, "{p}");
                }
                Block::Table(t) => out.push_str(&table(t)),
                Block::Verdicts(v) => out.push_str(&verdicts(v)),
                Block::Charts(_) => {}
                Block::Overview(_, list) => out.push_str(&chips(list)),
            }
        }
    }
    out
}

/// The verdicts in one line: `Verdicts: H1 supported, H2 not supported, ...`.
fn chips(list: &[Chip]) -> String {
    let words: Vec<String> = list
        .iter()
        .map(|c| format!("{} {}", c.key, c.verdict.replace('_', " ")))
        .collect();
    format!("Verdicts: {}.\n", words.join(", "))
}

/// A cell as text; in a dense table a rate is its successes/n only.
pub fn cell(c: &Cell, dense: bool) -> String {
    match c {
        Cell::Text(s) | Cell::Heading(s) | Cell::Link { text: s, .. } => s.clone(),
        Cell::Count(n) => n.to_string(),
        Cell::Number(x) => two_decimals(*x),
        Cell::Rate(p) => match rate_parts(p, dense) {
            None => "n/a".into(),
            Some((k, _, _)) if dense => k,
            Some((k, r, ci)) => format!("{k} {r} {ci}"),
        },
        Cell::Bounded(p, b) => match super::bounds_text(b) {
            Some(t) if p.n > 0 && !dense => format!("{} ({t})", cell(&Cell::Rate(*p), dense)),
            _ => cell(&Cell::Rate(*p), dense),
        },
        Cell::Interval {
            value,
            low,
            high,
            points,
        } => interval_text(*value, *low, *high, *points),
        Cell::Test(t) => test_text(t),
        Cell::P(p) => shapemaze_core::analysis::hypotheses::fmt_p(*p),
        Cell::Noted(main, note) if note.is_empty() => cell(main, dense),
        Cell::Noted(main, note) => format!("{} ({note})", cell(main, dense)),
    }
}

/// An estimate with its interval: a difference of rates in signed percentage points
/// (`+25.0 [-7.7, +57.7]`), or a coefficient with two decimals (`0.45 [-0.06, 0.77]`).
pub fn interval_text(value: f64, low: Option<f64>, high: Option<f64>, points: bool) -> String {
    use shapemaze_core::text::Fixed;
    let show = |x: f64| {
        if points {
            format!("{:+.1}", Fixed(100.0 * x))
        } else {
            format!("{:.2}", Fixed(x))
        }
    };
    match (low, high) {
        (Some(l), Some(h)) => format!("{} [{}, {}]", show(value), show(l), show(h)),
        _ => show(value),
    }
}

/// A test as a person reads it: `chi2(5) = 12.30, p = 0.010` (`p < 0.001` below that).
pub fn test_text(t: &super::TestResult) -> String {
    let p = shapemaze_core::analysis::hypotheses::fmt_p(t.p);
    match t.statistic {
        Some(s) => format!(
            "{} = {:.2}, p {p}",
            t.statistic_name,
            shapemaze_core::text::Fixed(s)
        ),
        None if t.statistic_name.is_empty() => format!("p {p}"),
        None => format!("{}, p {p}", t.statistic_name),
    }
}

/// One table: its caption on a line, then its heading row and rows (or what stands in
/// for them).
pub fn table(t: &Table) -> String {
    let t = &*t.for_people();
    let mut out = String::new();
    if !t.caption.is_empty() {
        let _ = writeln!(out, "{}", t.caption);
    }
    if let Some(note) = t.notes() {
        let _ = writeln!(out, "{note}");
    }
    if t.rows.is_empty() {
        if let Some(empty) = &t.empty {
            let _ = writeln!(out, "  {empty}");
            return out;
        }
    }
    let numeric: Vec<bool> = (0..t.columns.len())
        .map(|i| {
            !t.rows.is_empty()
                && t.rows
                    .iter()
                    .all(|r| r.cells.get(i).is_none_or(Cell::is_numeric))
        })
        .collect();
    // Numbers are set right; a column after one keeps two spaces from it.
    let columns: Vec<TextColumn> = numeric
        .iter()
        .enumerate()
        .map(|(i, &right)| {
            let column = if right {
                TextColumn::right(0)
            } else {
                TextColumn::left(0)
            };
            if i > 0 && numeric[i - 1] {
                column.before("  ")
            } else {
                column
            }
        })
        .collect();
    let mut table = TextTable::new(&columns);
    if !t.spans.is_empty() {
        let mut over = Vec::with_capacity(t.columns.len());
        for (label, span) in &t.spans {
            over.push(label.clone());
            over.extend(std::iter::repeat_n(String::new(), span.saturating_sub(1)));
        }
        table.row(over);
    }
    table.row(t.columns.iter().map(|c| c.label.clone()));
    for r in &t.rows {
        table.row(r.cells.iter().map(|c| cell(c, t.dense)));
    }
    out.push_str(&table.render());
    out
}

fn verdicts(list: &[Verdict]) -> String {
    let mut out = String::new();
    for v in list {
        let _ = writeln!(out, "  {} {}: {}", v.key, v.statement, v.verdict);
        let _ = writeln!(out, "     {}", v.test);
        let _ = writeln!(out, "     {}", v.note);
        if let Some(w) = &v.warning {
            let _ = writeln!(out, "     Warning: {w}");
        }
    }
    out
}
