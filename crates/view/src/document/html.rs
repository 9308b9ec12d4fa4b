//! The HTML writer: a [`Document`] as the results page and the report file show it. Every
//! piece of text is escaped; tables carry `data-testid="table-{id}"`, verdicts
//! `data-testid="hypothesis-{key}"` and `data-verdict`, and rows of the analysis's groups
//! `data-action="drill"` with `data-group`.

use super::{rate_parts, two_decimals, Block, Cell, Chip, Document, Section, Table, Verdict};
use crate::contents::{Part, Parts};
use crate::html::escape;
use std::fmt::Write as _;

/// A table longer than this shows its first [`SHOWN`] rows, the rest behind "show all".
pub const LONG: usize = 15;

/// The rows a long table shows before "show all".
pub const SHOWN: usize = 10;

/// The whole document as HTML: one `<h2>` per titled section.
pub fn write(doc: &Document) -> String {
    let mut s = String::with_capacity(64 * 1024);
    for section in &doc.sections {
        write_section(&mut s, section, "h2", "");
    }
    s
}

/// The document divided into its parts ([`Section::part`]), each section's title an
/// `<h3>` under its part's heading; links within the results go to `{page}#{id}`
/// (`page` is the page's own address, or empty in the report file).
pub fn write_parts(doc: &Document, page: &str) -> Parts {
    let mut parts = Parts::new();
    let mut part = Part::Overview;
    let mut s = String::new();
    for section in &doc.sections {
        let next = section.part.unwrap_or(part);
        if next != part {
            parts.add(part, &s);
            s.clear();
            part = next;
        }
        write_section(&mut s, section, "h3", page);
    }
    parts.add(part, &s);
    parts
}

fn write_section(s: &mut String, section: &Section, heading: &str, page: &str) {
    if !section.title.is_empty() {
        let _ = write!(s, "<{heading}>{}</{heading}>", escape(&section.title));
    }
    for block in &section.blocks {
        match block {
            Block::Paragraph(p) => {
                let _ = write!(s, "<p>{}</p>", escape(p));
            }
            Block::Table(t) => table(s, t),
            Block::Verdicts(v) => verdicts(s, v),
            Block::Charts(charts) => {
                for c in charts {
                    let _ = write!(s, "<figure>{}</figure>", c.svg);
                }
            }
            Block::Overview(chart, list) => {
                let _ = write!(s, "<div class=\"overview\"><figure>{}</figure>", chart.svg);
                chips(s, list, page);
                s.push_str("</div>");
            }
        }
    }
}

/// The verdicts as chips: each says its hypothesis, what it is about and its verdict in
/// words (not by colour alone), and links to the hypothesis.
fn chips(s: &mut String, list: &[Chip], page: &str) {
    s.push_str("<ul class=\"chips\" aria-label=\"The hypotheses' verdicts\">");
    for c in list {
        let _ = write!(
            s,
            "<li><a class=\"{v}\" href=\"{}#{}\" data-action=\"contents\" data-testid=\"chip-{k}\" data-verdict=\"{v}\" title=\"{}\"><b>{k}</b> {}: <b>{}</b></a></li>",
            escape(page),
            escape(&c.target),
            escape(&c.statement),
            escape(&c.label),
            c.verdict.replace('_', " "),
            k = escape(&c.key),
            v = escape(&c.verdict),
        );
    }
    s.push_str("</ul>");
}

/// A cell as a `<td>` (or a `<th>` for a row's heading).
fn cell(s: &mut String, c: &Cell, dense: bool) {
    let tag = if matches!(c, Cell::Heading(_)) {
        "th"
    } else {
        "td"
    };
    let _ = write!(s, "<{tag}>");
    content(s, c, dense);
    let _ = write!(s, "</{tag}>");
}

/// What a cell shows, without its element (`dense`: see [`Table::dense`]).
fn content(s: &mut String, c: &Cell, dense: bool) {
    let _ = match c {
        Cell::Heading(t) | Cell::Text(t) => write!(s, "{}", escape(t)),
        Cell::Count(n) => write!(s, "{n}"),
        Cell::Interval {
            value,
            low,
            high,
            points,
        } => write!(
            s,
            "{}",
            super::text::interval_text(*value, *low, *high, *points)
        ),
        Cell::Test(t) => write!(s, "{}", escape(&super::text::test_text(t))),
        Cell::P(p) => write!(
            s,
            "{}",
            escape(&shapemaze_core::analysis::hypotheses::fmt_p(*p))
        ),
        Cell::Number(x) => write!(s, "{}", two_decimals(*x)),
        Cell::Rate(p) => match rate_parts(p, dense) {
            None => write!(s, "n/a"),
            Some((k, r, ci)) => write!(s, "{} <b>{r}</b> <small>{ci}</small>", escape(&k)),
        },
        Cell::Bounded(p, b) => {
            content(s, &Cell::Rate(*p), dense);
            match super::bounds_text(b) {
                Some(t) if p.n > 0 => write!(s, " <small class=\"bounds\">{t}</small>"),
                _ => Ok(()),
            }
        }
        Cell::Noted(main, note) => {
            content(s, main, dense);
            if note.is_empty() {
                Ok(())
            } else {
                write!(s, " <small>{}</small>", escape(note))
            }
        }
        Cell::Link { text, target, data } => {
            let _ = write!(s, "<a href=\"#{}\"", escape(target));
            for (name, value) in data {
                let _ = write!(s, " data-{name}=\"{}\"", escape(value));
            }
            write!(s, ">{}</a>", escape(text))
        }
    };
}

/// One table, with its caption, its headings (spans over them first) and its rows.
/// Each table stands in a box that scrolls sideways when the table is wider than the
/// screen. A table longer than [`LONG`] rows shows its first [`SHOWN`]; a checkbox after
/// it ("show all", no script needed) shows the others, and printing shows every row.
pub fn table(s: &mut String, t: &Table) {
    let t = &*t.for_people();
    let long = t.rows.len() > LONG;
    s.push_str(if long {
        "<div class=\"table-wrap long-table\">"
    } else {
        "<div class=\"table-wrap\">"
    });
    let _ = write!(s, "<table data-testid=\"table-{}\">", escape(&t.id));
    match (t.caption.is_empty(), t.notes()) {
        (true, None) => {}
        (false, None) => {
            let _ = write!(s, "<caption>{}</caption>", escape(&t.caption));
        }
        (_, Some(note)) => {
            let _ = write!(
                s,
                "<caption>{} <small class=\"clustered\">{note}</small></caption>",
                escape(&t.caption)
            );
        }
    }
    s.push_str("<thead>");
    if !t.spans.is_empty() {
        s.push_str("<tr>");
        for (label, span) in &t.spans {
            match span {
                1 => {
                    let _ = write!(s, "<th>{}</th>", escape(label));
                }
                n => {
                    let _ = write!(s, "<th colspan=\"{n}\">{}</th>", escape(label));
                }
            }
        }
        s.push_str("</tr>");
    }
    s.push_str("<tr>");
    for c in &t.columns {
        let _ = write!(s, "<th>{}</th>", escape(&c.label));
    }
    s.push_str("</tr></thead><tbody>");
    if t.rows.is_empty() {
        if let Some(empty) = &t.empty {
            let _ = write!(
                s,
                "<tr><td colspan=\"{}\">{}</td></tr>",
                t.columns.len(),
                escape(empty)
            );
        }
    }
    for (i, r) in t.rows.iter().enumerate() {
        let more = if long && i >= SHOWN {
            " class=\"more\""
        } else {
            ""
        };
        match r.group {
            Some(g) => {
                let _ = write!(
                    s,
                    "<tr{more} data-action=\"{}\" data-group=\"{g}\">",
                    crate::actions::ResultsAction::Drill.name()
                );
            }
            None => {
                let _ = write!(s, "<tr{more}>");
            }
        }
        for c in &r.cells {
            cell(s, c, t.dense);
        }
        s.push_str("</tr>");
    }
    s.push_str("</tbody></table>");
    if long {
        let _ = write!(
            s,
            "<label class=\"show-all\"><input type=\"checkbox\"/> Show all {} rows (the first {SHOWN} are shown)</label>",
            t.rows.len()
        );
    }
    s.push_str("</div>");
}

fn verdicts(s: &mut String, list: &[Verdict]) {
    s.push_str("<ul data-testid=\"table-hypotheses\">");
    for v in list {
        let _ = write!(
            s,
            "<li id=\"hypothesis-{k}\" data-testid=\"hypothesis-{k}\" data-verdict=\"{c}\"><b>{k}</b> {} <span class=\"verdict {c}\">{}</span><br/>{}.<br/>{}{}</li>",
            escape(&v.statement),
            v.verdict.replace('_', " "),
            escape(&v.test),
            escape(&v.note),
            v.warning.as_ref().map_or(String::new(), |w| format!(
                " <span class=\"warning\">Warning: {}</span>",
                escape(w)
            )),
            k = escape(&v.key),
            c = escape(&v.verdict),
        );
    }
    s.push_str("</ul>");
}
