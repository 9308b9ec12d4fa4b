//! The HTML writer: a [`Document`] as the results page and the report file show it. Every
//! piece of text is escaped; tables carry `data-testid="table-{id}"`, verdicts
//! `data-testid="hypothesis-{key}"` and `data-verdict`, and rows of the analysis's groups
//! `data-action="drill"` with `data-group`.

use super::{rate_parts, two_decimals, Block, Cell, Document, Table, Verdict};
use crate::view::html::escape;
use std::fmt::Write as _;

/// The whole document as HTML: one `<h2>` per titled section.
pub fn write(doc: &Document) -> String {
    let mut s = String::with_capacity(64 * 1024);
    for section in &doc.sections {
        match (section.title.is_empty(), section.anchor.is_empty()) {
            (true, _) => {}
            (false, true) => {
                let _ = write!(s, "<h2>{}</h2>", escape(&section.title));
            }
            (false, false) => {
                let _ = write!(
                    s,
                    "<h2 id=\"{}\">{}</h2>",
                    escape(&section.anchor),
                    escape(&section.title)
                );
            }
        }
        for block in &section.blocks {
            match block {
                Block::Paragraph(p) => {
                    let _ = write!(s, "<p>{}</p>", escape(p));
                }
                Block::Table(t) => table(&mut s, t),
                Block::Verdicts(v) => verdicts(&mut s, v),
                Block::Charts(charts) => {
                    for c in charts {
                        let _ = write!(s, "<figure>{}</figure>", c.svg);
                    }
                }
            }
        }
    }
    s
}

/// A cell as a `<td>` (or a `<th>` for a row's heading).
fn cell(s: &mut String, c: &Cell) {
    let tag = if matches!(c, Cell::Heading(_)) {
        "th"
    } else {
        "td"
    };
    let _ = write!(s, "<{tag}>");
    content(s, c);
    let _ = write!(s, "</{tag}>");
}

/// What a cell shows, without its element.
fn content(s: &mut String, c: &Cell) {
    let _ = match c {
        Cell::Heading(t) | Cell::Text(t) => write!(s, "{}", escape(t)),
        Cell::Count(n) => write!(s, "{n}"),
        Cell::Number(x) => write!(s, "{}", two_decimals(*x)),
        Cell::Rate(p) => match rate_parts(p) {
            None => write!(s, "n/a"),
            Some((k, r, ci)) => write!(s, "{} <b>{r}</b> <small>{ci}</small>", escape(&k)),
        },
        Cell::Noted(main, note) => {
            content(s, main);
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
pub fn table(s: &mut String, t: &Table) {
    let _ = write!(s, "<table data-testid=\"table-{}\">", escape(&t.id));
    match (t.caption.is_empty(), t.interval_note()) {
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
    for r in &t.rows {
        match r.group {
            Some(i) => {
                let _ = write!(s, "<tr data-action=\"drill\" data-group=\"{i}\">");
            }
            None => s.push_str("<tr>"),
        }
        for c in &r.cells {
            cell(s, c);
        }
        s.push_str("</tr>");
    }
    s.push_str("</tbody></table>");
}

fn verdicts(s: &mut String, list: &[Verdict]) {
    s.push_str("<ul data-testid=\"table-hypotheses\">");
    for v in list {
        let _ = write!(
            s,
            "<li data-testid=\"hypothesis-{k}\" data-verdict=\"{c}\"><b>{k}</b> {} <span class=\"verdict {c}\">{}</span><br/>{}.<br/>{}{}</li>",
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
