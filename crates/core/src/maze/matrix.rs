//! The matrix encoding's renderer and its reader of replies ([`super::encoding::Encoding`]'s
//! matrix half), in the symbols a trial uses ([`Symbols`]).

use super::extraction::{choose_block, Dropped, Extraction, ParseError};
use super::symbols::Symbols;
use crate::maze::grid::{Grid, Pos, Tile};
use crate::reply::Plain;
use crate::text::drop_special_tokens;

/// The tile a cell written as `sym` stands for in the set `s`.
fn tile_of(sym: &str, s: Symbols) -> Option<Tile> {
    let mut chars = sym.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => s.tile(c),
        _ => None,
    }
}

/// `grid` as rows of `s`'s symbols separated by single spaces.
pub(super) fn render_matrix(grid: &Grid, s: Symbols) -> String {
    let mut out = String::with_capacity(grid.rows() * grid.cols() * 2);
    for r in 0..grid.rows() {
        if r > 0 {
            out.push('\n');
        }
        for c in 0..grid.cols() {
            if c > 0 {
                out.push(' ');
            }
            out.push(s.of(grid.get(Pos::new(r, c)).unwrap_or(Tile::Wall)));
        }
    }
    out
}

/// A matrix-looking line without its leading label or list marker, trimmed, with the byte
/// offset in `line` where it starts. Labels: `Row 3:`, `Row C:`, `r3`, `y3:`, a list's number
/// (`3.`, `3)`), a name opening a structure (`array([`, `maze = [`); list markers `-`, `*`,
/// `>`, `•`.
fn row_body(line: &str, sym: Symbols) -> (usize, &str) {
    let mut start = line.len() - line.trim_start().len();
    let mut s = line.trim();
    if let Some(n) = row_label_len(s, sym) {
        let rest = &s[n..];
        start += s.len() - rest.len();
        s = rest;
    }
    // Each step cuts text off the start only, so `start` follows it.
    let t = s
        .trim_start_matches(|c| matches!(c, '-' | '*' | '>' | '•') && !sym.contains(c))
        .trim_start();
    start += s.len() - t.len();
    (start, t.trim_end())
}

/// The length of the label a row line opens with, the separators after it included (see
/// [`row_body`]); `None` when it opens with none. Separators the set writes cells with are
/// cells (`Row 1: . . # . .`).
fn row_label_len(s: &str, sym: Symbols) -> Option<usize> {
    let b = s.as_bytes();
    let digits_from = |i: usize| {
        b.get(i..).map_or(0, |rest| {
            rest.iter().take_while(|c| c.is_ascii_digit()).count()
        })
    };
    let label_end = if let Some(n) = cjk_row_label(s) {
        // "第1行" (Chinese), "1行目" (Japanese)
        n
    } else if b.len() >= 3 && b[..3].eq_ignore_ascii_case(b"row") {
        // "Row 3:", "Row C:"
        let i = s.len() - s[3..].trim_start().len();
        let n = digits_from(i);
        let letter = b.get(i).is_some_and(u8::is_ascii_alphabetic)
            && !b.get(i + 1).is_some_and(u8::is_ascii_alphanumeric);
        match (n, letter) {
            (0, false) => return None,
            (0, true) => i + 1,
            _ => i + n,
        }
    } else if b
        .first()
        .is_some_and(|&c| c.is_ascii_alphabetic() && !sym.contains(char::from(c)))
        && digits_from(1) > 0
    {
        // "r3 ", "R3:", "y3"
        let end = 1 + digits_from(1);
        if !matches!(b.get(end), Some(b' ' | b'\t' | b':')) {
            return None;
        }
        end
    } else if digits_from(0) > 0 {
        // A list's number: "3. ", "3) "
        let end = digits_from(0);
        let marked =
            matches!(b.get(end), Some(b'.' | b')')) && matches!(b.get(end + 1), Some(b' ' | b'\t'));
        if !marked {
            return None;
        }
        end + 1
    } else {
        // A name opening a structure: "array([", "np.array([", "maze = ["
        let name = b
            .iter()
            .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.'))
            .count();
        if name < 2 || !b[0].is_ascii_alphabetic() {
            return None;
        }
        let rest = s[name..].trim_start();
        let rest = rest.strip_prefix('=').map_or(rest, str::trim_start);
        // The bracket is decoration; a parenthesis opening the call is dropped with the name.
        let rest = match rest.strip_prefix('(') {
            Some(inner) if inner.starts_with('[') => inner,
            _ if rest.starts_with('[') => rest,
            _ => return None,
        };
        return Some(s.len() - rest.len());
    };
    let is_sep = |c: char| matches!(c, ':' | '.' | ')' | '-' | ' ' | '\t') && !sym.contains(c);
    let after = s[label_end..].trim_start_matches(is_sep);
    Some(s.len() - after.len())
}

/// The length of a Chinese or Japanese row label a line opens with: `第1行` ("row 1") or
/// `1行目` ("the first row").
fn cjk_row_label(s: &str) -> Option<usize> {
    let digits = |t: &str| t.bytes().take_while(u8::is_ascii_digit).count();
    if let Some(rest) = s.strip_prefix('\u{7b2c}') {
        let n = digits(rest);
        let after = rest[n..].strip_prefix('\u{884c}')?;
        return (n > 0).then(|| s.len() - after.len());
    }
    let n = digits(s);
    let after = s[n..].strip_prefix("\u{884c}\u{76ee}")?;
    (n > 0).then(|| s.len() - after.len())
}

/// Characters that decorate a matrix row and separate its cells: `[ ] , ; | `` `, quotes and
/// box drawing's upright lines (`│ ┃ ║`).
fn is_row_decoration(ch: char) -> bool {
    matches!(
        ch,
        '[' | ']' | ',' | ';' | '|' | '`' | '"' | '\'' | '│' | '┃' | '║'
    )
}

/// The cells of a matrix-looking line, with decoration ([`is_row_decoration`], a leading
/// label or list marker, [`row_body`]) removed; `None` when the line does not look like a row.
fn matrix_cells(line: &str, s: Symbols) -> Option<Vec<String>> {
    // LaTeX's cell separator and row end (`P & 0 & 1 \\`) separate cells too, unless the set
    // writes cells with them.
    let cleaned: String = row_body(line, s)
        .1
        .chars()
        .map(|ch| {
            if is_row_decoration(ch) || (matches!(ch, '&' | '\\') && !s.contains(ch)) {
                ' '
            } else {
                ch
            }
        })
        .collect();
    let tokens: Vec<String> = cleaned.split_whitespace().map(str::to_string).collect();
    if tokens.len() < 2 || tokens.iter().any(|t| t.chars().count() != 1) {
        return None;
    }
    let symbols = tokens.iter().filter(|t| tile_of(t, s).is_some()).count();
    (symbols * 2 >= tokens.len()).then_some(tokens)
}

/// The maze cells a line starts with (two or more of `1 0 P G`, decoration tolerated as in
/// [`matrix_cells`]) when other text follows them, with the byte offset in `line` where
/// that text begins: `0 1 1 1 0 <- changed`.
fn leading_cells(line: &str, s: Symbols) -> Option<(Vec<String>, usize)> {
    let (base, body) = row_body(line, s);
    let b = body.as_bytes();
    let mut cells = Vec::new();
    let mut i = 0;
    loop {
        while i < b.len() && (b[i] == b' ' || b[i] == b'\t' || is_row_decoration(char::from(b[i])))
        {
            i += 1;
        }
        let Some(&c) = b.get(i) else { break };
        let alone = !b.get(i + 1).is_some_and(u8::is_ascii_alphanumeric);
        if !(alone && s.contains(char::from(c))) {
            break;
        }
        cells.push(char::from(c).to_string());
        i += 1;
    }
    (cells.len() >= 2 && i < b.len()).then_some((cells, base + i))
}

/// One line of a reply read as a matrix row.
struct RowLine {
    cells: Vec<String>,
    /// Written without spaces between its cells (`0111P`).
    unspaced: bool,
    /// Read only by dropping text after its leading cells ([`leading_cells`]): such a row
    /// belongs to a block only when it has as many cells as the block's other rows.
    loose: bool,
    /// The text dropped to read it.
    dropped: Vec<String>,
}

/// Reads one line of a reply as a matrix row, dropping special tokens, emphasis,
/// punctuation ending the line and, as a loose row, text after its leading cells.
fn read_row_line(line: &str, sym: Symbols) -> Option<RowLine> {
    let (mut s, mut dropped) = drop_special_tokens(line);
    // Emphasis and punctuation ending a line, unless the set writes cells with them.
    let mark_char = |c: char| !sym.contains(c);
    for mark in ["**", "__"] {
        if mark_char(mark.as_bytes()[0].into()) && s.contains(mark) {
            s = s.replace(mark, "");
            dropped.push(mark.to_string());
        }
    }
    let t = s.trim_end();
    let unwrapped = t.trim_end_matches(|c| matches!(c, '*' | '_') && mark_char(c));
    if unwrapped.len() < t.len() {
        dropped.push(t[unwrapped.len()..].to_string());
    }
    let body = unwrapped.trim_end_matches(|c: char| {
        (matches!(c, '.' | '!' | '?' | ';' | ':' | '\u{2026}') && mark_char(c)) || c.is_whitespace()
    });
    if let Some(cells) = matrix_cells(body, sym) {
        let tail = unwrapped[body.len()..].trim();
        if !tail.is_empty() {
            dropped.push(tail.to_string());
        }
        return Some(RowLine {
            cells,
            unspaced: false,
            loose: false,
            dropped,
        });
    }
    if let Some(cells) = unspaced_cells(body, sym) {
        return Some(RowLine {
            cells,
            unspaced: true,
            loose: false,
            dropped,
        });
    }
    let (cells, at) = leading_cells(unwrapped, sym)?;
    dropped.push(unwrapped[at..].trim().to_string());
    Some(RowLine {
        cells,
        unspaced: false,
        loose: true,
        dropped,
    })
}

/// Whether `line` reads as a row of a maze in the standard symbols (`1 0 P G`), three cells
/// or more, spaced, unspaced or decorated: how an outline marks a row of maze symbols.
pub(crate) fn is_maze_row(line: &str) -> bool {
    read_row_line(line, Symbols::STANDARD).is_some_and(|r| !r.loose && r.cells.len() >= 3)
}

/// The cells of a row written without spaces between them (`0111P`, `[0111P]`): one word
/// of three or more of `0 1 P G` and nothing else on the line (decoration aside).
fn unspaced_cells(line: &str, s: Symbols) -> Option<Vec<String>> {
    let cleaned: String = row_body(line, s)
        .1
        .chars()
        .filter(|&ch| !is_row_decoration(ch))
        .collect();
    let word = cleaned.trim();
    (word.len() >= 3 && word.chars().all(|c| s.contains(c)))
        .then(|| word.chars().map(String::from).collect())
}

pub(super) fn matrix_lines(text: &str, s: Symbols) -> Vec<Vec<String>> {
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            matrix_cells(l, s).unwrap_or_else(|| l.split_whitespace().map(str::to_string).collect())
        })
        .collect()
}

/// A block of matrix rows found in a reply.
struct MatrixBlock {
    rows: Vec<Vec<String>>,
    /// Some of its rows were written without spaces.
    unspaced: bool,
    /// Whole lines, `[start, end)` in the reply.
    span: [usize; 2],
    dropped: Vec<Dropped>,
    /// The line of prose above the block, if any.
    label: Option<String>,
    /// Written as JSON.
    json: bool,
}

/// Whether a line is a markdown table's rule (`|---|:--:|`, `--- | ---`): it stands
/// between a table's header row and its body, which are one block.
fn table_rule(line: &str) -> bool {
    let t = line.trim();
    t.contains("---") && t.chars().all(|c| matches!(c, '|' | '-' | ':' | ' ' | '+'))
}

/// The rows of a maze written on one line, its rows separated by `/`, `;` or commas
/// between groups of spaced cells (`P 0 0 0 0 / 0 1 1 1 0 / ...`): two or more groups,
/// each a row of two or more cells, all of one width.
fn rows_on_one_line(line: &str, s: Symbols) -> Option<Vec<Vec<String>>> {
    // JSON is the JSON reader's (json_blocks); nested brackets that are not JSON are rows
    // in brackets (`[[P,0,0],[1,0,1]]`).
    if line.contains("[[") || line.contains("[\"") {
        return bracketed_rows(line, s);
    }
    // A label before the rows (`Maze: ...`, `M = [...]`) is no part of them.
    let labelled = |sep: char| match line.split_once(sep) {
        Some((label, rest)) if !s.contains(sep) && !label.contains(['/', ';', ',', '[']) => {
            Some(rest)
        }
        _ => None,
    };
    let line = labelled(':').or_else(|| labelled('=')).unwrap_or(line);
    for sep in ['/', ';', ','] {
        if s.contains(sep) || !line.contains(sep) {
            continue;
        }
        // (A separator ending the line, `...];`, leaves no row after it.)
        let parts: Vec<&str> = line
            .split(sep)
            .map(str::trim)
            .filter(|p| !p.trim_matches(is_row_decoration).trim().is_empty())
            .collect();
        if parts.len() < 2 || parts.iter().any(|p| !p.contains(' ')) {
            continue;
        }
        let rows: Option<Vec<Vec<String>>> = parts.iter().map(|p| matrix_cells(p, s)).collect();
        if let Some(rows) = rows.filter(|r| r.iter().all(|row| row.len() == r[0].len())) {
            return Some(rows);
        }
    }
    None
}

/// The rows of a maze written in nested brackets that are not JSON, its cells bare
/// (`[[P,0,0,0,G],[1,0,1,0,1],...]`, as Python or a model writes them without quotes): the
/// text from the first `[[` to the last `]]`, one row in each inner pair of brackets, all of
/// one width; text after the brackets (a comment) is no part of them.
fn bracketed_rows(line: &str, s: Symbols) -> Option<Vec<Vec<String>>> {
    let from = line.find("[[")?;
    let to = line.rfind("]]")? + 2;
    // At least "[[" and "]]", in that order ("]] [[" holds no rows).
    let inner = line.get(from..to).filter(|i| i.len() >= 4)?;
    if serde_json::from_str::<serde_json::Value>(inner).is_ok() {
        return None;
    }
    let rows: Vec<Vec<String>> = inner[1..inner.len() - 1]
        .split(']')
        .map(|r| r.trim_start_matches([',', ' ', '\t']))
        .filter(|r| !r.trim().is_empty())
        .map(|r| matrix_cells(r, s))
        .collect::<Option<_>>()?;
    (rows.len() >= 2 && rows.iter().all(|r| r.len() == rows[0].len())).then_some(rows)
}

/// The rows of a maze written as JSON: an array of row strings (`["P 0 0 0 0", ...]`) or
/// an array of arrays of cells (`[["P", 0, 0, 0, 0], ...]`), two or more rows.
fn json_rows(value: &serde_json::Value, s: Symbols) -> Option<Vec<Vec<String>>> {
    // An object holding the maze as one string of rows (`{"maze": "P 0 0\n0 1 0\n..."}`).
    if let Some(object) = value.as_object() {
        return object.values().find_map(|v| {
            let rows: Vec<serde_json::Value> = v
                .as_str()?
                .lines()
                .filter(|l| !l.trim().is_empty())
                .map(|l| serde_json::Value::String(l.to_string()))
                .collect();
            json_rows(&serde_json::Value::Array(rows), s)
        });
    }
    let rows = value.as_array()?;
    if rows.len() < 2 {
        return None;
    }
    rows.iter()
        .map(|row| match row {
            serde_json::Value::String(t) => matrix_cells(t, s).or_else(|| unspaced_cells(t, s)),
            serde_json::Value::Array(cells) => cells
                .iter()
                .map(|c| match c {
                    serde_json::Value::String(t) => Some(t.trim().to_string()),
                    serde_json::Value::Number(n) => Some(n.to_string()),
                    _ => None,
                })
                .collect(),
            _ => None,
        })
        .collect::<Option<Vec<Vec<String>>>>()
        .filter(|rows| {
            // Cells of one character, most of them maze symbols (as a row line's).
            let cells = rows.iter().flatten();
            let total = cells.clone().count();
            let symbols = cells.clone().filter(|c| tile_of(c, s).is_some()).count();
            cells.clone().all(|c| c.chars().count() == 1) && symbols * 2 >= total
        })
}

/// Blocks written as JSON arrays on lines no block of row lines covers (a JSON array
/// written one row a line is read as row lines already).
fn json_blocks(text: &str, s: Symbols, lines: &[MatrixBlock]) -> Vec<MatrixBlock> {
    if !text.contains("[[")
        && !text.contains("[\"")
        && !text.contains("[ ")
        && !text.contains("[\n")
        && !text.contains('{')
    {
        return Vec::new();
    }
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if matches!(bytes[i], b'[' | b'{') {
            let mut stream =
                serde_json::Deserializer::from_str(&text[i..]).into_iter::<serde_json::Value>();
            if let Some(Ok(value)) = stream.next() {
                let end = i + stream.byte_offset();
                let covered = lines.iter().any(|b| b.span[0] < end && i < b.span[1]);
                let rows = json_rows(&value, s);
                // An object that holds no maze string may hold a maze array: read on inside.
                if value.is_object() && rows.is_none() {
                    i += 1;
                    continue;
                }
                if let Some(rows) = rows.filter(|_| !covered) {
                    let line_start = text[..i].rfind('\n').map_or(0, |k| k + 1);
                    let line_end = text[end..].find('\n').map_or(text.len(), |k| end + k);
                    out.push(MatrixBlock {
                        rows,
                        unspaced: false,
                        span: [line_start, line_end],
                        dropped: Vec::new(),
                        label: label_above(text, line_start),
                        json: true,
                    });
                }
                i = end.max(i + 1);
                continue;
            }
        }
        i += 1;
    }
    out
}

/// The last line of prose above byte `at` (a block's label), if any.
fn label_above(text: &str, at: usize) -> Option<String> {
    text[..at]
        .lines()
        .rev()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with("```") && !l.starts_with("~~~"))
        .map(str::to_string)
}

/// Every block of two or more matrix rows in `reply`, in order, each with its label: runs of
/// row lines (a table's rule between rows keeps them one block), rows on one line, and JSON
/// arrays of rows.
fn matrix_blocks(reply: &str, s: Symbols) -> Vec<MatrixBlock> {
    let mut blocks = line_blocks(reply, s);
    let json = json_blocks(reply, s, &blocks);
    blocks.extend(json);
    crate::sort::sort_by_key(&mut blocks, |b| b.span[0]);
    blocks
}

/// The blocks of [`matrix_blocks`] written one row a line, and one line of several rows.
fn line_blocks(reply: &str, s: Symbols) -> Vec<MatrixBlock> {
    let mut blocks = Vec::new();
    let mut run: Vec<(RowLine, [usize; 2])> = Vec::new();
    let mut label: Option<String> = None;
    let mut offset = 0;
    // Rows each under a label of its own (`Apex:` / `1 1 0 1 1` / `Base:` / ...): while
    // every row of the run came right after a label line, the next label line keeps the
    // run going (a label above a run of rows written together still ends it).
    let mut labelled_rows = true;
    let mut after_label = false;
    for raw in reply.split_inclusive('\n') {
        let line = raw.trim_end_matches('\n').trim_end_matches('\r');
        let was_after_label = std::mem::replace(&mut after_label, false);
        if !run.is_empty() && table_rule(line) {
            offset += raw.len();
            continue;
        }
        if let Some(rows) = rows_on_one_line(line, s) {
            if !run.is_empty() {
                close_run(std::mem::take(&mut run), label.take(), &mut blocks);
            }
            blocks.push(MatrixBlock {
                rows,
                unspaced: false,
                span: [offset, offset + line.len()],
                dropped: Vec::new(),
                label: label.take(),
                json: false,
            });
            offset += raw.len();
            continue;
        }
        match read_row_line(line, s) {
            Some(row) => {
                labelled_rows = if run.is_empty() {
                    was_after_label
                } else {
                    labelled_rows && was_after_label
                };
                run.push((row, [offset, offset + line.len()]));
            }
            None if !run.is_empty() && labelled_rows && row_label(line) => {
                after_label = true;
            }
            None => {
                if !run.is_empty() {
                    close_run(std::mem::take(&mut run), label.take(), &mut blocks);
                }
                let t = line.trim();
                if !t.is_empty() && !t.starts_with("```") && !t.starts_with("~~~") {
                    label = Some(t.to_string());
                    after_label = row_label(t);
                }
            }
        }
        offset += raw.len();
    }
    if !run.is_empty() {
        close_run(run, label, &mut blocks);
    }
    blocks
}

/// Turns a run of consecutive row lines into blocks. Rows read as written always belong
/// (rows of different lengths are then reported as such); a loose row belongs only when
/// it has as many cells as most rows read as written, and otherwise ends the block. A run
/// with no row read as written makes no block.
fn close_run(run: Vec<(RowLine, [usize; 2])>, label: Option<String>, out: &mut Vec<MatrixBlock>) {
    let widths: Vec<usize> = run
        .iter()
        .filter(|(r, _)| !r.loose)
        .map(|(r, _)| r.cells.len())
        .collect();
    // The most common length, the first seen on a tie.
    let mut width: Option<(usize, usize)> = None;
    for &w in &widths {
        let n = widths.iter().filter(|&&v| v == w).count();
        if width.is_none_or(|(_, best)| n > best) {
            width = Some((w, n));
        }
    }
    // A run whose every row carries a note after its cells (`P 0 0 0 0   # top bar`): the
    // rows are read when they all hold one number of cells, three or more.
    let all_noted = widths.is_empty()
        && run.len() >= 2
        && run[0].0.cells.len() >= 3
        && run
            .iter()
            .all(|(r, _)| r.cells.len() == run[0].0.cells.len());
    let width = width.or_else(|| all_noted.then(|| (run[0].0.cells.len(), run.len())));
    let Some((width, _)) = width else {
        return;
    };
    let mut label = label;
    let mut current: Vec<(RowLine, [usize; 2])> = Vec::new();
    let mut emit = |rows: Vec<(RowLine, [usize; 2])>, label: &mut Option<String>| {
        if rows.len() < 2 {
            return;
        }
        let span = [rows[0].1[0], rows[rows.len() - 1].1[1]];
        let mut dropped = Vec::new();
        let mut cells = Vec::with_capacity(rows.len());
        let unspaced = rows.iter().any(|(r, _)| r.unspaced);
        for (i, (row, _)) in rows.into_iter().enumerate() {
            dropped.extend(
                row.dropped
                    .into_iter()
                    .map(|text| Dropped { line: i, text }),
            );
            cells.push(row.cells);
        }
        drop_index_column(&mut cells, &mut dropped);
        out.push(MatrixBlock {
            rows: cells,
            unspaced,
            span,
            dropped,
            label: label.take(),
            json: false,
        });
    };
    for (row, span) in run {
        if row.loose && row.cells.len() != width {
            emit(std::mem::take(&mut current), &mut label);
            continue;
        }
        current.push((row, span));
    }
    emit(current, &mut label);
}

/// Drops a column of row numbers that opens every row (a table's index: `| 2 | 1 | 0 |`):
/// three or more rows whose first cells read 0, 1, 2, ... or 1, 2, 3, ... in order, each
/// row holding more cells besides.
fn drop_index_column(rows: &mut [Vec<String>], dropped: &mut Vec<Dropped>) {
    let counts_from = |first: usize| {
        rows.iter()
            .enumerate()
            .all(|(i, r)| r.len() > 2 && r[0] == (first + i).to_string())
    };
    if rows.len() < 3 || !(counts_from(0) || counts_from(1)) {
        return;
    }
    for (i, row) in rows.iter_mut().enumerate() {
        dropped.push(Dropped {
            line: i,
            text: row.remove(0),
        });
    }
}

/// Whether a line that is no row labels the row below it (`Apex:`): short prose ending in
/// a colon.
fn row_label(line: &str) -> bool {
    let t = line.trim();
    t.ends_with(':') && t.split_whitespace().count() <= 8
}

/// [`Encoding::read_reply`] for the matrix: read in the reply's answer, full-width forms
/// read as ASCII ([`Plain::answer_of`]), the span carried back to the reply.
pub(super) fn read_matrix_reply(reply: &str, s: Symbols) -> Extraction {
    let plain = Plain::answer_of(reply);
    let mut read = read_matrix_text(&plain.text, s);
    read.span = read.span.map(|[a, b]| plain.span(a, b));
    read
}

fn read_matrix_text(reply: &str, s: Symbols) -> Extraction {
    let mut blocks = matrix_blocks(reply, s);
    let labels: Vec<Option<String>> = blocks.iter().map(|b| b.label.clone()).collect();
    let Some((chosen, passed_over)) = choose_block(&labels) else {
        return Extraction::none();
    };
    let count = blocks.len();
    let block = blocks.swap_remove(chosen);
    Extraction {
        blocks: count,
        json: block.json,
        grid: parse_matrix_rows(&block.rows, s),
        span: Some(block.span),
        dropped: block.dropped,
        passed_over,
        unspaced: block.unspaced,
    }
}

pub(super) fn parse_matrix_rows(rows: &[Vec<String>], s: Symbols) -> Result<Grid, ParseError> {
    let expected = rows.first().ok_or(ParseError::NoMazeFound)?.len();
    let mut tiles = Vec::with_capacity(rows.len());
    for (r, row) in rows.iter().enumerate() {
        let mut out = Vec::with_capacity(row.len());
        for sym in row {
            out.push(tile_of(sym, s).ok_or_else(|| ParseError::InvalidSymbol {
                symbol: sym.clone(),
                row: r,
            })?);
        }
        if out.len() != expected {
            return Err(ParseError::NotRectangular {
                row: r,
                len: out.len(),
                expected,
            });
        }
        tiles.push(out);
    }
    Grid::from_rows(&tiles).ok_or(ParseError::NoMazeFound)
}
