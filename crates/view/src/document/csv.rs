//! The CSV writer: one table of a [`super::Document`] as CSV with a header of the columns'
//! keys, every field quoted by [`csv_field`] (the one quoting rule, which also defuses
//! spreadsheet formulas, so only on text). One column per number: a rate's column becomes
//! six (successes, n, rate and the 95% interval's ends, the fractions with six decimals, and
//! the distinct mazes it counts, empty unless its interval is clustered by maze; a rate
//! with its reading bounds three more: `_unsure`, `_if_unsure_wrong`, `_if_unsure_right`); an
//! estimate with its interval three (`KEY`, `KEY_low`, `KEY_high`, fractions); a test three
//! (`KEY_test`, the statistic's name; `KEY_statistic`; `KEY_p`); a p-value one number.

use super::{Cell, Table};
use shapemaze_core::text::csv_field;
use shapemaze_core::text::Fixed;
use std::fmt::Write as _;

/// The columns a table column becomes in CSV, by the kind of its cells: a rate six, an
/// estimate with its interval three, a test three, anything else one (its key).
fn parts(table: &Table, i: usize) -> &'static [&'static str] {
    let column = &table.columns[i];
    if column.bounds {
        return Kind::Bounded.parts();
    }
    if column.rate {
        return Kind::Rate.parts();
    }
    if column.interval {
        return Kind::Interval.parts();
    }
    if column.test {
        return Kind::Test.parts();
    }
    table
        .rows
        .iter()
        .filter_map(|r| r.cells.get(i).map(kind))
        .find(|k| !matches!(k, Kind::One))
        .unwrap_or(Kind::One)
        .parts()
}

enum Kind {
    Rate,
    Bounded,
    Interval,
    Test,
    One,
}

impl Kind {
    /// The suffixes of the columns a cell of this kind fills.
    fn parts(&self) -> &'static [&'static str] {
        match self {
            Kind::Rate => &["_successes", "_n", "_rate", "_ci_low", "_ci_high", "_mazes"],
            Kind::Bounded => &[
                "_successes",
                "_n",
                "_rate",
                "_ci_low",
                "_ci_high",
                "_mazes",
                "_unsure",
                "_if_unsure_wrong",
                "_if_unsure_right",
            ],
            Kind::Interval => &["", "_low", "_high"],
            Kind::Test => &["_test", "_statistic", "_p"],
            Kind::One => &[""],
        }
    }
}

/// What kind of CSV columns a cell (a noted one by its main cell) asks for.
fn kind(c: &Cell) -> Kind {
    match c {
        Cell::Rate(_) => Kind::Rate,
        Cell::Bounded(..) => Kind::Bounded,
        Cell::Interval { .. } => Kind::Interval,
        Cell::Test(_) => Kind::Test,
        Cell::Noted(main, _) => kind(main),
        _ => Kind::One,
    }
}

/// `table` as CSV, a header line first: one column per number, every number a plain
/// decimal a spreadsheet, pandas or R reads as a number (the formula guard only on text).
pub fn write(table: &Table) -> String {
    let widths: Vec<&[&str]> = (0..table.columns.len()).map(|i| parts(table, i)).collect();
    let mut header = Vec::new();
    for (c, parts) in table.columns.iter().zip(&widths) {
        for part in *parts {
            header.push(csv_field(&format!("{}{part}", c.key)));
        }
    }
    let mut out = header.join(",");
    out.push('\n');
    for r in &table.rows {
        let fields: Vec<String> = r
            .cells
            .iter()
            .zip(&widths)
            .map(|(c, parts)| fields(c, parts.len()))
            .collect();
        out.push_str(&fields.join(","));
        out.push('\n');
    }
    out
}

/// A cell's fields, `width` of them (a cell of another kind than its column's fills the
/// rest with empty fields).
fn fields(c: &Cell, width: usize) -> String {
    let mut f = field(c);
    for _ in kind(c).parts().len()..width {
        f.push(',');
    }
    f
}

/// A p-value as a number: six decimals, or in scientific notation below 0.0001, kept
/// within 0 and 1 (an exact test's sum can pass 1 by a rounding error).
pub fn p_number(p: f64) -> String {
    let p = p.clamp(0.0, 1.0);
    if p == 0.0 || p >= 1e-4 {
        format!("{:.6}", Fixed(p))
    } else {
        format!("{p:.4e}")
    }
}

fn is_rate(c: &Cell) -> bool {
    matches!(kind(c), Kind::Rate | Kind::Bounded)
}

fn number(x: Option<f64>) -> String {
    x.map_or(String::new(), |x| format!("{:.6}", Fixed(x)))
}

/// A rate's six fields: successes, n, rate, the interval's ends, and the mazes (empty
/// unless its interval is clustered by maze).
fn rate_fields(p: &shapemaze_core::analysis::stats::Proportion) -> String {
    let mut s = format!("{},{}", p.successes, p.n);
    let _ = write!(
        s,
        ",{:.6},{:.6},{:.6},",
        Fixed(p.rate),
        Fixed(p.ci_low),
        Fixed(p.ci_high)
    );
    if let Some(m) = p.mazes {
        let _ = write!(s, "{m}");
    }
    s
}

fn field(c: &Cell) -> String {
    match c {
        Cell::Text(s) | Cell::Heading(s) | Cell::Link { text: s, .. } => csv_field(s),
        Cell::Count(n) => n.to_string(),
        Cell::Number(x) => number(*x),
        Cell::Interval {
            value, low, high, ..
        } => {
            format!(
                "{},{},{}",
                number(Some(*value)),
                number(*low),
                number(*high)
            )
        }
        Cell::Test(t) => format!(
            "{},{},{}",
            csv_field(&t.statistic_name),
            number(t.statistic),
            p_number(t.p)
        ),
        Cell::P(p) => p_number(*p),
        Cell::Rate(p) => rate_fields(p),
        Cell::Bounded(p, b) => format!(
            "{},{},{:.6},{:.6}",
            rate_fields(p),
            b.unsure,
            Fixed(b.if_unsure_wrong),
            Fixed(b.if_unsure_right)
        ),
        // A number keeps its fields; a note has no column of its own (the text and HTML
        // reports show it).
        Cell::Noted(main, note) if note.is_empty() || main.is_numeric() || is_rate(main) => {
            field(main)
        }
        Cell::Noted(main, note) => {
            csv_field(&format!("{} ({note})", super::text::cell(main, false)))
        }
    }
}
