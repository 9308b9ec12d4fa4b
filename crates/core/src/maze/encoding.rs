//! The two text encodings a maze is shown in, each with a renderer and a parser that
//! round-trip, and the tolerant extraction of a maze from a model's free-text reply.
//!
//! Matrix (one line per row, cells separated by single spaces):
//!
//! ```text
//! 1 0 0 P
//! 0 1 1 0
//! ```
//!
//! Coordinate list (every cell of the grid exactly once across the four lines):
//!
//! ```text
//! Walls: (0, 0), (1, 1)
//! Empty: (0, 1), (0, 2)
//! Player position: (0, 3)
//! Goal: (3, 3)
//! ```

use super::coords::{coordinates, Coord};
use super::extraction::{choose_block, Dropped, Extraction, ParseError};
use super::matrix::{matrix_lines, parse_matrix_rows, read_matrix_reply, render_matrix};
use super::symbols::Symbols;
use crate::maze::grid::{Grid, Pos, Tile};
use crate::text::UnknownName;
use crate::text::{drop_special_tokens, strip_markup};
use serde::{Deserialize, Serialize};
use std::fmt;

/// Coordinate-list key for walls.
pub const KEY_WALLS: &str = "Walls";
/// Coordinate-list key for empty cells (open cells other than P and G).
pub const KEY_EMPTY: &str = "Empty";
/// Coordinate-list key for the player.
pub const KEY_PLAYER: &str = "Player position";
/// Coordinate-list key for the goal.
pub const KEY_GOAL: &str = "Goal";

/// A text encoding of a maze.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Encoding {
    /// Rows of `1 0 P G` symbols.
    Matrix,
    /// Lists of coordinates per kind of cell.
    CoordList,
}

impl Encoding {
    /// Both encodings.
    pub const ALL: [Encoding; 2] = [Encoding::Matrix, Encoding::CoordList];

    /// The name used in folders, URLs and JSON: `matrix` or `coord_list`.
    pub fn name(self) -> &'static str {
        match self {
            Encoding::Matrix => "matrix",
            Encoding::CoordList => "coord_list",
        }
    }

    /// A label for people.
    pub fn label(self) -> &'static str {
        match self {
            Encoding::Matrix => "Matrix",
            Encoding::CoordList => "Coordinate list",
        }
    }

    /// Parses an encoding name in any case (`coord-list` is accepted for `coord_list`).
    pub fn parse(s: &str) -> Result<Encoding, UnknownName> {
        let t = s.trim().to_ascii_lowercase().replace('-', "_");
        Encoding::ALL
            .into_iter()
            .find(|e| e.name() == t)
            .ok_or_else(|| UnknownName::new("encoding", s, "matrix or coord_list"))
    }

    /// Renders `grid` in this encoding with the default coordinate spacing `(0, 3)`.
    pub fn render(self, grid: &Grid) -> String {
        self.render_with(grid, CoordStyle::Spaced)
    }

    /// Renders `grid` in this encoding.
    pub fn render_with(self, grid: &Grid, style: CoordStyle) -> String {
        self.render_in(grid, style, Symbols::STANDARD)
    }

    /// Renders `grid` in this encoding, a matrix in the symbols `symbols`.
    pub fn render_in(self, grid: &Grid, style: CoordStyle, symbols: Symbols) -> String {
        match self {
            Encoding::Matrix => render_matrix(grid, symbols),
            Encoding::CoordList => render_coord_list(grid, style),
        }
    }

    /// Parses a maze written exactly in this encoding (surrounding prose is not allowed;
    /// see [`Encoding::extract`] for replies). A coordinate list has no size of its own, so
    /// `rows` x `cols` is the size it is read at.
    pub fn parse_grid(self, text: &str, rows: usize, cols: usize) -> Result<Grid, ParseError> {
        match self {
            Encoding::Matrix => {
                parse_matrix_rows(&matrix_lines(text, Symbols::STANDARD), Symbols::STANDARD)
            }
            Encoding::CoordList => parse_coord_list(text, rows, cols),
        }
    }

    /// Where the text [`Encoding::extract`] reads its maze from stands in `reply`
    /// (`[start, end)`, whole lines); `None` when it finds no maze there.
    pub fn extract_span(self, reply: &str) -> Option<[usize; 2]> {
        self.read_reply(reply, 0, 0).span
    }

    /// Finds the maze in a free-text reply (code fences, markdown and prose around it are
    /// tolerated) and parses it; [`Encoding::read_reply`] says what was read and how.
    pub fn extract(self, reply: &str, rows: usize, cols: usize) -> Result<Grid, ParseError> {
        self.read_reply(reply, rows, cols).grid
    }

    /// Reads the maze a reply offers as its answer, as a careful grader would.
    ///
    /// Matrix: a block is two or more consecutive row lines (brackets, commas, pipes,
    /// quotes, a `Row 3:` label and list markers tolerated as always). To read a row, the
    /// reader also drops special tokens (`<end_of_turn>`, `</s>`, `<|im_end|>`, `[/INST]`,
    /// ...), emphasis (`**`, `__`, a closing `*`), punctuation ending the line
    /// (`0 0 0 0 0 .`), and text after the row's cells (`0 1 1 1 0 <- changed`, `# new`, a
    /// few words) when the cells before it are as many as the block's other rows have.
    ///
    /// Coordinate list: a list starts at a `Walls:` line (else at the last `Empty:` line)
    /// and runs through the keys after it; special tokens and a closing `*` are dropped
    /// from its lines.
    ///
    /// Of several blocks the last one counts, except that a block whose label (the line of
    /// prose above it) calls it the original (`original`, `previous`, `old`, `given`,
    /// `initial`, `for reference`, `your maze`, ... in a short label, and no word such as
    /// `new` or `modified`: see `is_reference_label`) is passed over when another block is
    /// there: the last block not so labelled counts.
    /// What was dropped and passed over is in the [`Extraction`].
    pub fn read_reply(self, reply: &str, rows: usize, cols: usize) -> Extraction {
        self.read_reply_in(reply, rows, cols, Symbols::STANDARD)
    }

    /// [`Encoding::read_reply`] for a trial whose matrix is written in `symbols`: a
    /// matrix is read in those symbols only (a coordinate list has none).
    pub fn read_reply_in(
        self,
        reply: &str,
        rows: usize,
        cols: usize,
        symbols: Symbols,
    ) -> Extraction {
        match self {
            Encoding::Matrix => read_matrix_reply(reply, symbols),
            Encoding::CoordList => read_coord_list_reply(reply, rows, cols),
        }
    }
}

impl Extraction {
    /// Sentences for people saying what was dropped and passed over to read the maze, or
    /// an empty string when the maze was read as written.
    pub fn notes(&self, encoding: Encoding) -> String {
        let mut out = Vec::new();
        if !self.dropped.is_empty() {
            // Each piece of text once, with the lines it was dropped from.
            let mut pieces: Vec<(&str, Vec<usize>)> = Vec::new();
            for d in &self.dropped {
                match pieces.iter_mut().find(|(t, _)| *t == d.text) {
                    Some((_, lines)) => lines.push(d.line),
                    None => pieces.push((&d.text, vec![d.line])),
                }
            }
            let (what, one, many) = match encoding {
                Encoding::Matrix => ("rows", "row", "rows"),
                Encoding::CoordList => ("the list's lines", "line", "lines"),
            };
            let listed: Vec<String> = pieces
                .iter()
                .map(|(t, lines)| {
                    let word = if lines.len() == 1 { one } else { many };
                    format!("'{t}' ({word} {})", line_ranges(lines))
                })
                .collect();
            out.push(format!(
                "Read after dropping text around {what} (counted from 0): {}.",
                listed.join(", ")
            ));
        }
        for label in &self.passed_over {
            out.push(format!(
                "A later block labelled '{label}' was passed over as a restatement of the original."
            ));
        }
        out.join(" ")
    }
}

/// `0-4, 6` for lines 0, 1, 2, 3, 4 and 6.
fn line_ranges(lines: &[usize]) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let mut j = i;
        while j + 1 < lines.len() && lines[j + 1] == lines[j] + 1 {
            j += 1;
        }
        out.push(if j > i {
            format!("{}-{}", lines[i], lines[j])
        } else {
            lines[i].to_string()
        });
        i = j + 1;
    }
    out.join(", ")
}

/// Which symbols an encoding uses (here, beside [`Encoding`], so that the symbols need not
/// know the encodings).
impl Symbols {
    /// The symbols a trial in `encoding` uses: these for the matrix; the standard set
    /// for a coordinate list, which has no symbols (its records keep none).
    pub fn for_encoding(self, encoding: Encoding) -> Symbols {
        match encoding {
            Encoding::Matrix => self,
            Encoding::CoordList => Symbols::STANDARD,
        }
    }
}

impl fmt::Display for Encoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How the coordinate-list renderer spaces a coordinate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum CoordStyle {
    /// `(0, 3)`: the form of the design's original runs (the default).
    #[default]
    Spaced,
    /// `(0,3)`: the form of the design document's examples.
    Compact,
}

impl CoordStyle {
    /// What stands between a coordinate's row and column: `, ` or `,`.
    pub fn separator(self) -> &'static str {
        match self {
            CoordStyle::Spaced => ", ",
            CoordStyle::Compact => ",",
        }
    }
}

fn render_coord_list(grid: &Grid, style: CoordStyle) -> String {
    use std::fmt::Write as _;
    // Written into one string (a trial renders the maze for every prompt it sends, so the
    // audit of the recorded runs renders hundreds of thousands of these).
    let sep = style.separator();
    let mut out = String::with_capacity(16 + 8 * grid.rows() * grid.cols());
    for (i, (key, tile)) in [
        (KEY_WALLS, Tile::Wall),
        (KEY_EMPTY, Tile::Empty),
        (KEY_PLAYER, Tile::Player),
        (KEY_GOAL, Tile::Goal),
    ]
    .into_iter()
    .enumerate()
    {
        if i > 0 {
            out.push('\n');
        }
        out.push_str(key);
        out.push(':');
        for (k, p) in grid.find(tile).into_iter().enumerate() {
            out.push_str(if k == 0 { " " } else { ", " });
            let _ = write!(out, "({}{sep}{})", p.row, p.col);
        }
        if out.ends_with(':') {
            out.push(' ');
        }
    }
    out
}

/// A line of a coordinate list with special tokens (`<end_of_turn>`, `</s>`, ...) and
/// markdown ([`strip_markup`], a closing `*` or `_`) removed, and the text dropped other
/// than markdown.
fn clean_list_line(line: &str) -> (String, Vec<String>) {
    let (kept, dropped) = drop_special_tokens(line);
    let plain = strip_markup(&kept);
    (
        plain.trim_end_matches(['*', '_']).trim_end().to_string(),
        dropped,
    )
}

/// Where a reply's coordinate list begins: the `Walls:` line of the list it offers as its
/// answer (see [`Encoding::read_reply`]) with the labels of later lists passed over, else
/// its last `Empty:` line.
fn coord_list_start(reply: &str) -> Option<(usize, Vec<String>)> {
    let walls = find_key_lines(reply, Tile::Wall);
    let labels: Vec<Option<String>> = walls.iter().map(|&at| list_label(reply, at)).collect();
    if let Some((chosen, passed)) = choose_block(&labels) {
        return Some((walls[chosen], passed));
    }
    find_key_lines(reply, Tile::Empty)
        .last()
        .map(|&at| (at, Vec::new()))
}

/// The line of prose above the line starting at `at` (blank lines and code fences skipped),
/// if the nearest such line is prose rather than part of another list.
fn list_label(reply: &str, at: usize) -> Option<String> {
    let line = reply[..at]
        .lines()
        .rev()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with("```") && !l.starts_with("~~~"))?;
    let plain = clean_list_line(line).0;
    let is_key = plain
        .split_once(':')
        .is_some_and(|(k, _)| list_key(k).is_some());
    (!is_key && coordinates(&plain).is_empty()).then(|| line.to_string())
}

/// Byte offsets of the lines that start with the key of `tile` and a colon (any case,
/// after markdown and special tokens): `Walls:`, `**Empty:**`.
fn find_key_lines(reply: &str, tile: Tile) -> Vec<usize> {
    let mut out = Vec::new();
    let mut offset = 0;
    for line in reply.split_inclusive('\n') {
        let plain = clean_list_line(line).0;
        if key_of_line(&plain).is_some_and(|(t, _)| t == tile) {
            out.push(offset);
        }
        offset += line.len();
    }
    out
}

/// The cells a coordinate-list key introduces.
const LIST_KEYS: [(&str, Tile); 6] = [
    (KEY_WALLS, Tile::Wall),
    (KEY_EMPTY, Tile::Empty),
    (KEY_PLAYER, Tile::Player),
    ("Player", Tile::Player),
    (KEY_GOAL, Tile::Goal),
    ("Goal position", Tile::Goal),
];

/// The tile a coordinate-list key (the text before its colon) introduces.
fn list_key(key: &str) -> Option<Tile> {
    LIST_KEYS
        .iter()
        .find(|(k, _)| key.trim().eq_ignore_ascii_case(k))
        .map(|&(_, t)| t)
}

/// Whether `line` holds nothing but the coordinates `found` in it and separators.
fn only_coordinates(line: &str, found: &[Coord]) -> bool {
    let mut rest = String::with_capacity(line.len());
    let mut from = 0;
    for c in found {
        rest.push_str(&line[from..c.start]);
        from = c.end;
    }
    rest.push_str(&line[from..]);
    rest.replace("and", "")
        .chars()
        .all(|ch| ch.is_whitespace() || matches!(ch, ',' | ';' | '.'))
}

fn parse_coord_list(text: &str, rows: usize, cols: usize) -> Result<Grid, ParseError> {
    parse_coord_list_at(text, rows, cols).grid
}

/// [`read_reply`](Encoding::read_reply) for the coordinate list.
fn read_coord_list_reply(reply: &str, rows: usize, cols: usize) -> Extraction {
    let Some((start, passed_over)) = coord_list_start(reply) else {
        return Extraction::none();
    };
    let read = parse_coord_list_at(&reply[start..], rows, cols);
    Extraction {
        grid: read.grid,
        span: Some([start, start + read.end]),
        dropped: read.dropped,
        blocks: 1 + passed_over.len(),
        passed_over,
        unspaced: false,
        json: false,
    }
}

/// A coordinate list parsed from the start of a text.
struct ListRead {
    grid: Result<Grid, ParseError>,
    /// Where the last line read ends in the text.
    end: usize,
    dropped: Vec<Dropped>,
}

/// The key a line of a coordinate list starts with (`Walls:`, ...) and the text after its
/// colon.
fn key_of_line(plain: &str) -> Option<(Tile, &str)> {
    let (key, body) = plain.split_once(':')?;
    list_key(key).map(|t| (t, body))
}

/// Parses the coordinate list at the start of `text`, with where the last line it read
/// ends and the text dropped from its lines.
fn parse_coord_list_at(text: &str, rows: usize, cols: usize) -> ListRead {
    let mut read = ListRead {
        grid: Err(ParseError::NoMazeFound),
        end: 0,
        dropped: Vec::new(),
    };
    read.grid = coord_list_lines(text, rows, cols, &mut read);
    read
}

fn coord_list_lines(
    text: &str,
    rows: usize,
    cols: usize,
    read: &mut ListRead,
) -> Result<Grid, ParseError> {
    let mut current: Option<Tile> = None;
    let mut seen_key = [false; 4];
    let mut listed: Vec<(Pos, Tile)> = Vec::new();
    let mut offset = 0;
    for (index, raw) in text.split_inclusive('\n').enumerate() {
        let line = raw.trim_end_matches('\n').trim_end_matches('\r');
        let line_end = offset + line.len();
        offset += raw.len();
        let (plain, dropped) = clean_list_line(line);
        let key = key_of_line(&plain);
        let body = match key {
            Some((tile, body)) => {
                let idx = Tile::ALL.iter().position(|&t| t == tile).unwrap_or(0);
                if seen_key[idx] {
                    // A second block begins: the first one was complete.
                    break;
                }
                seen_key[idx] = true;
                current = Some(tile);
                body
            }
            None if plain.trim().is_empty() => {
                current = None;
                continue;
            }
            None => plain.as_str(),
        };
        let Some(tile) = current else { continue };
        let mut found = coordinates(body);
        let single = matches!(tile, Tile::Player | Tile::Goal);
        if key.is_none() && (single || found.is_empty() || !only_coordinates(body, &found)) {
            // Prose after the list ("The goal (0, 4) is reachable") ends it.
            current = None;
            continue;
        }
        if single && !only_coordinates(body, &found) {
            // "Goal: (0, 4), reached via (1, 4)": prose after the cell is not a second goal.
            found.truncate(1);
        }
        if key.is_some() || !found.is_empty() {
            read.end = line_end;
            read.dropped.extend(
                dropped
                    .into_iter()
                    .map(|text| Dropped { line: index, text }),
            );
        }
        listed.extend(found.into_iter().map(|c| (c.pos, tile)));
    }
    if listed.is_empty() && !seen_key.iter().any(|&s| s) {
        return Err(ParseError::NoMazeFound);
    }
    let mut cells: Vec<Option<Tile>> = vec![None; rows * cols];
    for (p, tile) in listed {
        if p.row >= rows || p.col >= cols {
            return Err(ParseError::OutOfBounds { cell: p });
        }
        let slot = &mut cells[p.row * cols + p.col];
        if slot.is_some() {
            return Err(ParseError::DuplicateCell { cell: p });
        }
        *slot = Some(tile);
    }
    let mut grid = Grid::walls(rows, cols);
    for (i, t) in cells.into_iter().enumerate() {
        let p = Pos::new(i / cols, i % cols);
        grid.set(p, t.ok_or(ParseError::MissingCell { cell: p })?);
    }
    Ok(grid)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::maze::extraction::is_reference_label;
    use crate::maze::grid::Maze;

    fn sample() -> Grid {
        let text = "1 0 0 P\n0 1 1 0\n0 0 0 0\n1 1 0 G";
        Encoding::Matrix
            .parse_grid(text, 4, 4)
            .expect("valid matrix")
    }

    #[test]
    fn both_encodings_round_trip_in_both_spacings() {
        let g = sample();
        for e in Encoding::ALL {
            for style in [CoordStyle::Spaced, CoordStyle::Compact] {
                let text = e.render_with(&g, style);
                assert_eq!(
                    e.parse_grid(&text, 4, 4),
                    Ok(g.clone()),
                    "{e} {style:?}:\n{text}"
                );
                assert_eq!(e.extract(&text, 4, 4), Ok(g.clone()), "{e} extract");
            }
        }
    }

    #[test]
    fn coord_list_renders_the_design_form_with_spaced_default() {
        let text = Encoding::CoordList.render(&sample());
        assert_eq!(
            text,
            "Walls: (0, 0), (1, 1), (1, 2), (3, 0), (3, 1)\nEmpty: (0, 1), (0, 2), (1, 0), (1, 3), (2, 0), (2, 1), (2, 2), (2, 3), (3, 2)\nPlayer position: (0, 3)\nGoal: (3, 3)"
        );
        assert_eq!(
            Encoding::Matrix.render(&sample()),
            "1 0 0 P\n0 1 1 0\n0 0 0 0\n1 1 0 G"
        );
    }

    #[test]
    fn the_design_documents_example_is_missing_a_cell() {
        let doc = "Walls: (0,0), (1,1), (1,2), (3,0), (3,1)\nEmpty: (0,1), (0,2), (1,0), (2,0), (2,1), (2,2), (2,3), (3,2)\nPlayer position: (0,3)\nGoal: (3,3)";
        assert_eq!(
            Encoding::CoordList.parse_grid(doc, 4, 4),
            Err(ParseError::MissingCell {
                cell: Pos::new(1, 3)
            })
        );
    }

    #[test]
    fn coord_list_rejects_duplicates_and_out_of_bounds_cells() {
        let dup = "Walls: (0,0), (0,0)\nEmpty:\nPlayer position: (0,1)\nGoal: (1,1)";
        assert_eq!(
            Encoding::CoordList.parse_grid(dup, 2, 2),
            Err(ParseError::DuplicateCell {
                cell: Pos::new(0, 0)
            })
        );
        let oob = "Walls: (0,0), (1,0), (2,0)\nEmpty:\nPlayer position: (0,1)\nGoal: (1,1)";
        assert_eq!(
            Encoding::CoordList.parse_grid(oob, 2, 2),
            Err(ParseError::OutOfBounds {
                cell: Pos::new(2, 0)
            })
        );
    }

    #[test]
    fn matrix_extraction_tolerates_fences_prose_and_brackets() {
        let reply = "Here is my new maze:\n\n```\n[1, 0, 0, P]\n[0, 1, 1, 0]\n[0, 0, 0, 0]\n[1, 1, 0, G]\n```\nThe path goes down.";
        assert_eq!(Encoding::Matrix.extract(reply, 4, 4), Ok(sample()));
        let rows = "Row 0: 1 0 0 P\nRow 1: 0 1 1 0\nRow 2: 0 0 0 0\nRow 3: 1 1 0 G";
        assert_eq!(Encoding::Matrix.extract(rows, 4, 4), Ok(sample()));
    }

    #[test]
    fn matrix_extraction_takes_the_last_block() {
        let reply = "Original:\n1 1\nP G\n\nNew:\n1 0 0 P\n0 1 1 0\n0 0 0 0\n1 1 0 G\n";
        assert_eq!(Encoding::Matrix.extract(reply, 4, 4), Ok(sample()));
    }

    #[test]
    fn matrix_reports_bad_symbols_and_ragged_rows() {
        let bad = "1 0 X P\n0 1 1 0";
        assert_eq!(
            Encoding::Matrix.extract(bad, 2, 4),
            Err(ParseError::InvalidSymbol {
                symbol: "X".into(),
                row: 0
            })
        );
        let ragged = "1 0 0 P\n0 1 1\n0 0 G 0";
        assert_eq!(
            Encoding::Matrix.extract(ragged, 3, 4),
            Err(ParseError::NotRectangular {
                row: 1,
                len: 3,
                expected: 4
            })
        );
        assert_eq!(
            Encoding::Matrix.extract("no maze here", 4, 4),
            Err(ParseError::NoMazeFound)
        );
    }

    #[test]
    fn coord_list_extraction_tolerates_markdown_and_takes_the_last_block() {
        let g = sample();
        let reply = format!(
            "The original was:\n{}\n\nMy new maze:\n\n**Walls:** (0,0), (1,1), (1,2), (3,0), (3,1)\n**Empty:** (0,1), (0,2), (1,0),\n(1,3), (2,0), (2,1), (2,2), (2,3), (3,2)\n- Player position: (0,3)\n- Goal: (3,3)\nDone.",
            Encoding::CoordList.render(&Grid::walls(4, 4))
        );
        assert_eq!(Encoding::CoordList.extract(&reply, 4, 4), Ok(g));
    }

    #[test]
    fn prose_after_a_coordinate_list_is_not_part_of_it() {
        let g = sample();
        let reply = format!(
            "{}\nThe goal (3, 3) is reachable from (0, 3) in a few moves.\n(1, 1) is a wall.",
            Encoding::CoordList.render(&g)
        );
        assert_eq!(Encoding::CoordList.extract(&reply, 4, 4), Ok(g.clone()));
        let annotated = Encoding::CoordList
            .render(&g)
            .replace("Goal: (3, 3)", "Goal: (3, 3), reached via (2, 3)");
        assert_eq!(Encoding::CoordList.extract(&annotated, 4, 4), Ok(g));
    }

    #[test]
    fn labels_that_call_a_block_the_original_are_told_from_those_of_a_new_maze() {
        for l in [
            "Original maze:",
            "For reference, the original:",
            "**Previous maze**",
            "The given maze was:",
            "Old:",
            "Your maze:",
            "Before:",
            "The initial input:",
            "For reference, here is the original maze I was given:",
        ] {
            assert!(is_reference_label(l), "{l}");
        }
        for l in [
            "New maze:",
            "Here is my maze:",
            "The original with P and G swapped:",
            "My new maze (unlike the original):",
            "After:",
            "Originality is key:",
            "Compared with the original one, P starts at the top right:",
        ] {
            assert!(!is_reference_label(l), "{l}");
        }
    }

    #[test]
    fn what_was_dropped_is_said_once_per_text_with_its_rows() {
        let read = Encoding::Matrix.read_reply(
            "**P 0 0 0**\n**0 1 1 0** <- here\n**0 0 0 0**\n**1 1 0 G**.</s>",
            4,
            4,
        );
        assert!(read.grid.is_ok(), "{read:?}");
        assert_eq!(
            read.notes(Encoding::Matrix),
            "Read after dropping text around rows (counted from 0): '**' (rows 0-3), '<- here' (row 1), '</s>' (row 3), '.' (row 3)."
        );
        assert_eq!(line_ranges(&[0, 1, 2, 4, 6, 7]), "0-2, 4, 6-7");
        let read = Encoding::Matrix.read_reply("1 0 0 P\n0 1 1 0\n0 0 0 0\n1 1 0 G", 4, 4);
        assert_eq!(read.notes(Encoding::Matrix), "", "nothing dropped");
        assert_eq!(read.span, Some([0, 31]));
        assert_eq!(
            Encoding::CoordList.read_reply("no list", 4, 4),
            Extraction::none()
        );
    }

    #[test]
    fn a_loose_row_joins_a_block_only_at_the_blocks_width() {
        let reply = "1 0 0 P\n0 1 1 0 <- changed\n0 0 0 0\n1 1 0 G\nP G are the player and goal";
        assert_eq!(Encoding::Matrix.extract(reply, 4, 4), Ok(sample()));
        let span = Encoding::Matrix.extract_span(reply).expect("a block");
        assert_eq!(
            &reply[span[0]..span[1]],
            "1 0 0 P\n0 1 1 0 <- changed\n0 0 0 0\n1 1 0 G"
        );
        // Lines that only start with cells make no block on their own.
        assert_eq!(
            Encoding::Matrix.extract("1 0 means wall\n0 1 likewise", 2, 2),
            Err(ParseError::NoMazeFound)
        );
    }

    #[test]
    fn encodings_parse_by_name_in_any_case() {
        for e in Encoding::ALL {
            assert_eq!(Encoding::parse(&e.name().to_uppercase()), Ok(e));
        }
        assert_eq!(Encoding::parse("coord-list"), Ok(Encoding::CoordList));
        assert!(Encoding::parse("json").is_err());
    }

    #[test]
    fn parsed_grids_with_one_p_and_g_become_mazes() {
        let m = Maze::from_grid(sample()).expect("one P and one G");
        assert_eq!(m.player(), Pos::new(0, 3));
    }
}
