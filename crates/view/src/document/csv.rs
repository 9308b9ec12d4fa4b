//! The CSV writer: one table of a [`super::Document`] as CSV with a header of the columns'
//! keys, every field quoted by [`csv_field`] (the one quoting rule, which also defuses
//! spreadsheet formulas). A rate's column becomes six: successes, n, rate and the 95%
//! interval's ends, the fractions with six decimals, and the distinct mazes it counts
//! (empty unless its interval is clustered by maze).

use super::{Cell, Table};
use shapemaze_core::text::csv_field;
use shapemaze_core::text::Fixed;
use std::fmt::Write as _;

/// `table` as CSV, a header line first.
pub fn write(table: &Table) -> String {
    let rates: Vec<bool> = (0..table.columns.len())
        .map(|i| {
            table.columns[i].rate
                || table
                    .rows
                    .iter()
                    .any(|r| r.cells.get(i).is_some_and(is_rate))
        })
        .collect();
    let mut header = Vec::new();
    for (c, &rate) in table.columns.iter().zip(&rates) {
        if rate {
            for part in ["successes", "n", "rate", "ci_low", "ci_high", "mazes"] {
                header.push(csv_field(&format!("{}_{part}", c.key)));
            }
        } else {
            header.push(csv_field(&c.key));
        }
    }
    let mut out = header.join(",");
    out.push('\n');
    for r in &table.rows {
        let fields: Vec<String> = r.cells.iter().map(field).collect();
        out.push_str(&fields.join(","));
        out.push('\n');
    }
    out
}

/// Whether a cell holds a rate (a noted one too): its column becomes six.
fn is_rate(c: &Cell) -> bool {
    match c {
        Cell::Rate(_) => true,
        Cell::Noted(main, _) => is_rate(main),
        _ => false,
    }
}

fn field(c: &Cell) -> String {
    match c {
        Cell::Text(s) | Cell::Heading(s) | Cell::Link { text: s, .. } => csv_field(s),
        Cell::Count(n) => n.to_string(),
        Cell::Number(x) => x.map_or(String::new(), |x| format!("{x:.6}", x = Fixed(x))),
        Cell::Rate(p) => {
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
        // A rate keeps its six fields; its note has no column of its own.
        Cell::Noted(main, note) if note.is_empty() || is_rate(main) => field(main),
        Cell::Noted(main, note) => {
            csv_field(&format!("{} ({note})", super::text::cell(main, false)))
        }
    }
}
