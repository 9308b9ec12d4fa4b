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

use super::grid::{Grid, Pos, Tile};
use super::text::{coordinates, strip_markup};
use serde::{Deserialize, Serialize};
use std::fmt;

/// Matrix symbol for a wall.
pub const WALL: &str = "1";
/// Matrix symbol for an empty corridor cell.
pub const EMPTY: &str = "0";
/// Matrix symbol for the player.
pub const PLAYER: &str = "P";
/// Matrix symbol for the goal.
pub const GOAL: &str = "G";
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
    pub fn parse(s: &str) -> Result<Encoding, String> {
        let t = s.trim().to_ascii_lowercase().replace('-', "_");
        Encoding::ALL
            .into_iter()
            .find(|e| e.name() == t)
            .ok_or_else(|| {
                format!(
                    "unknown encoding '{}': choose matrix or coord_list",
                    s.trim()
                )
            })
    }

    /// Renders `grid` in this encoding with the default coordinate spacing `(0, 3)`.
    pub fn render(self, grid: &Grid) -> String {
        self.render_with(grid, CoordStyle::Spaced)
    }

    /// Renders `grid` in this encoding.
    pub fn render_with(self, grid: &Grid, style: CoordStyle) -> String {
        match self {
            Encoding::Matrix => render_matrix(grid),
            Encoding::CoordList => render_coord_list(grid, style),
        }
    }

    /// Parses a maze written exactly in this encoding (surrounding prose is not allowed;
    /// see [`Encoding::extract`] for replies). A coordinate list has no size of its own, so
    /// `rows` x `cols` is the size it is read at.
    pub fn parse_grid(self, text: &str, rows: usize, cols: usize) -> Result<Grid, ParseError> {
        match self {
            Encoding::Matrix => parse_matrix_rows(&matrix_lines(text)),
            Encoding::CoordList => parse_coord_list(text, rows, cols),
        }
    }

    /// Where the text [`Encoding::extract`] reads its maze from stands in `reply`
    /// (`[start, end)`); `None` when it finds no maze there.
    pub fn extract_span(self, reply: &str) -> Option<[usize; 2]> {
        match self {
            Encoding::Matrix => last_matrix_block_at(reply).map(|(_, span)| span),
            Encoding::CoordList => {
                let start = coord_list_start(reply)?;
                let (_, end) = parse_coord_list_at(&reply[start..], 0, 0);
                Some([start, start + end])
            }
        }
    }

    /// Finds the maze in a free-text reply (code fences, markdown and prose around it are
    /// tolerated) and parses it. For the matrix, the last block of two or more matrix-like
    /// lines counts; for the coordinate list, the last `Walls:` line and the keys after it.
    pub fn extract(self, reply: &str, rows: usize, cols: usize) -> Result<Grid, ParseError> {
        match self {
            Encoding::Matrix => {
                let block = last_matrix_block(reply).ok_or(ParseError::NoMazeFound)?;
                parse_matrix_rows(&block)
            }
            Encoding::CoordList => {
                let start = coord_list_start(reply).ok_or(ParseError::NoMazeFound)?;
                parse_coord_list(&reply[start..], rows, cols)
            }
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
    /// Writes one coordinate in this style.
    pub fn write(self, p: Pos) -> String {
        match self {
            CoordStyle::Spaced => format!("({}, {})", p.row, p.col),
            CoordStyle::Compact => format!("({},{})", p.row, p.col),
        }
    }
}

/// Why a text is not a well-formed maze. Each variant has a stable snake_case reason.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "reason", rename_all = "snake_case")]
pub enum ParseError {
    /// Nothing in the text looks like a maze in the expected encoding.
    NoMazeFound,
    /// A cell holds something other than `1`, `0`, `P` or `G`.
    InvalidSymbol {
        /// The symbol found.
        symbol: String,
        /// Its row (0-based).
        row: usize,
    },
    /// Rows of different lengths.
    NotRectangular {
        /// The first row whose length differs from row 0's.
        row: usize,
        /// Its length.
        len: usize,
        /// Row 0's length.
        expected: usize,
    },
    /// A coordinate outside the grid.
    OutOfBounds {
        /// The coordinate.
        cell: Pos,
    },
    /// A cell listed twice (coordinate list).
    DuplicateCell {
        /// The cell.
        cell: Pos,
    },
    /// A cell listed nowhere (coordinate list).
    MissingCell {
        /// The cell.
        cell: Pos,
    },
}

impl ParseError {
    /// The stable snake_case reason.
    pub fn reason(&self) -> &'static str {
        match self {
            ParseError::NoMazeFound => "no_maze_found",
            ParseError::InvalidSymbol { .. } => "invalid_symbol",
            ParseError::NotRectangular { .. } => "not_rectangular",
            ParseError::OutOfBounds { .. } => "out_of_bounds",
            ParseError::DuplicateCell { .. } => "duplicate_cell",
            ParseError::MissingCell { .. } => "missing_cell",
        }
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::NoMazeFound => write!(f, "no maze was found in the text"),
            ParseError::InvalidSymbol { symbol, row } => write!(
                f,
                "row {row} holds '{symbol}', which is not a maze symbol (use 1 wall, 0 empty, P player, G goal)"
            ),
            ParseError::NotRectangular { row, len, expected } => write!(
                f,
                "the rows are not all the same length: row {row} has {len} cells, row 0 has {expected}"
            ),
            ParseError::OutOfBounds { cell } => write!(f, "{cell} lies outside the grid"),
            ParseError::DuplicateCell { cell } => write!(f, "{cell} is listed more than once"),
            ParseError::MissingCell { cell } => write!(f, "{cell} is listed nowhere"),
        }
    }
}

fn symbol(tile: Tile) -> &'static str {
    match tile {
        Tile::Wall => WALL,
        Tile::Empty => EMPTY,
        Tile::Player => PLAYER,
        Tile::Goal => GOAL,
    }
}

fn tile_of(sym: &str) -> Option<Tile> {
    Tile::ALL.into_iter().find(|&t| symbol(t) == sym)
}

fn render_matrix(grid: &Grid) -> String {
    (0..grid.rows())
        .map(|r| {
            (0..grid.cols())
                .map(|c| symbol(grid.get(Pos::new(r, c)).unwrap_or(Tile::Wall)))
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn render_coord_list(grid: &Grid, style: CoordStyle) -> String {
    let list = |t: Tile| {
        grid.find(t)
            .into_iter()
            .map(|p| style.write(p))
            .collect::<Vec<_>>()
            .join(", ")
    };
    format!(
        "{KEY_WALLS}: {}\n{KEY_EMPTY}: {}\n{KEY_PLAYER}: {}\n{KEY_GOAL}: {}",
        list(Tile::Wall),
        list(Tile::Empty),
        list(Tile::Player),
        list(Tile::Goal)
    )
}

/// The cells of a matrix-looking line, with decoration (`[ ] , | `` and quotes, a leading
/// `Row 3:` label or list marker) removed; `None` when the line does not look like a row.
fn matrix_cells(line: &str) -> Option<Vec<String>> {
    let mut s = line.trim();
    let lower = s.to_ascii_lowercase();
    if lower.starts_with("row") {
        // "Row 3: 1 0 0 P" — drop the label up to its separator.
        let rest = s[3..].trim_start();
        let digits = rest.chars().take_while(char::is_ascii_digit).count();
        if digits > 0 {
            s = rest[digits..].trim_start_matches([':', '.', ')', '-', ' ']);
        }
    }
    let s = s.trim_start_matches(['-', '*', '>']).trim();
    let cleaned: String = s
        .chars()
        .map(|ch| match ch {
            '[' | ']' | ',' | '|' | '`' | '"' | '\'' => ' ',
            _ => ch,
        })
        .collect();
    let tokens: Vec<String> = cleaned.split_whitespace().map(str::to_string).collect();
    if tokens.len() < 2 || tokens.iter().any(|t| t.chars().count() != 1) {
        return None;
    }
    let symbols = tokens.iter().filter(|t| tile_of(t).is_some()).count();
    (symbols * 2 >= tokens.len()).then_some(tokens)
}

fn matrix_lines(text: &str) -> Vec<Vec<String>> {
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            matrix_cells(l).unwrap_or_else(|| l.split_whitespace().map(str::to_string).collect())
        })
        .collect()
}

fn last_matrix_block(reply: &str) -> Option<Vec<Vec<String>>> {
    last_matrix_block_at(reply).map(|(rows, _)| rows)
}

/// [`last_matrix_block`] with the block's byte range in `reply`.
fn last_matrix_block_at(reply: &str) -> Option<(Vec<Vec<String>>, [usize; 2])> {
    let mut last = None;
    let mut current: Vec<Vec<String>> = Vec::new();
    let mut span = [0, 0];
    let mut offset = 0;
    for raw in reply.split_inclusive('\n') {
        let line = raw.trim_end_matches('\n').trim_end_matches('\r');
        match matrix_cells(line) {
            Some(cells) => {
                if current.is_empty() {
                    span[0] = offset;
                }
                span[1] = offset + line.len();
                current.push(cells);
            }
            None => {
                if current.len() >= 2 {
                    last = Some((std::mem::take(&mut current), span));
                }
                current.clear();
            }
        }
        offset += raw.len();
    }
    if current.len() >= 2 {
        last = Some((current, span));
    }
    last
}

fn parse_matrix_rows(rows: &[Vec<String>]) -> Result<Grid, ParseError> {
    let expected = rows.first().ok_or(ParseError::NoMazeFound)?.len();
    let mut tiles = Vec::with_capacity(rows.len());
    for (r, row) in rows.iter().enumerate() {
        let mut out = Vec::with_capacity(row.len());
        for sym in row {
            out.push(tile_of(sym).ok_or_else(|| ParseError::InvalidSymbol {
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

/// Where a reply's coordinate list begins: its last `Walls:` line, else its last
/// `Empty:` line.
fn coord_list_start(reply: &str) -> Option<usize> {
    let lower = reply.to_ascii_lowercase();
    find_key_lines(&lower, &KEY_WALLS.to_ascii_lowercase())
        .last()
        .copied()
        .or_else(|| {
            find_key_lines(&lower, &KEY_EMPTY.to_ascii_lowercase())
                .last()
                .copied()
        })
}

/// Byte offsets (in `lower`) of the lines that start with `key:` (after markdown).
fn find_key_lines(lower: &str, key: &str) -> Vec<usize> {
    let mut out = Vec::new();
    let mut offset = 0;
    for line in lower.split_inclusive('\n') {
        if strip_markup(line).starts_with(key) {
            out.push(offset);
        }
        offset += line.len();
    }
    out
}

/// Whether `line` holds nothing but the coordinates `found` in it and separators.
fn only_coordinates(line: &str, found: &[crate::core::text::Coord]) -> bool {
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
    parse_coord_list_at(text, rows, cols).0
}

/// [`parse_coord_list`], with where the last line it read ends in `text`.
fn parse_coord_list_at(text: &str, rows: usize, cols: usize) -> (Result<Grid, ParseError>, usize) {
    let mut read_end = 0;
    let grid = coord_list_lines(text, rows, cols, &mut read_end);
    (grid, read_end)
}

fn coord_list_lines(
    text: &str,
    rows: usize,
    cols: usize,
    read_end: &mut usize,
) -> Result<Grid, ParseError> {
    let keys = [
        (KEY_WALLS, Tile::Wall),
        (KEY_EMPTY, Tile::Empty),
        (KEY_PLAYER, Tile::Player),
        ("Player", Tile::Player),
        (KEY_GOAL, Tile::Goal),
        ("Goal position", Tile::Goal),
    ];
    let mut current: Option<Tile> = None;
    let mut seen_key = [false; 4];
    let mut listed: Vec<(Pos, Tile)> = Vec::new();
    let mut offset = 0;
    for raw in text.split_inclusive('\n') {
        let line = raw.trim_end_matches('\n').trim_end_matches('\r');
        let line_end = offset + line.len();
        offset += raw.len();
        let plain = strip_markup(line);
        let lower = plain.to_ascii_lowercase();
        let key = keys.iter().find(|(k, _)| {
            let k = k.to_ascii_lowercase();
            lower.starts_with(&k) && lower[k.len()..].trim_start().starts_with(':')
        });
        let body = match key {
            Some(&(_, tile)) => {
                let idx = Tile::ALL.iter().position(|&t| t == tile).unwrap_or(0);
                if seen_key[idx] {
                    // A second block begins: the first one was complete.
                    break;
                }
                seen_key[idx] = true;
                current = Some(tile);
                plain.split_once(':').map_or("", |(_, b)| b).to_string()
            }
            None if plain.trim().is_empty() => {
                current = None;
                continue;
            }
            None => plain.to_string(),
        };
        let Some(tile) = current else { continue };
        let mut found = coordinates(&body);
        let single = matches!(tile, Tile::Player | Tile::Goal);
        if key.is_none() && (single || found.is_empty() || !only_coordinates(&body, &found)) {
            // Prose after the list ("The goal (0, 4) is reachable") ends it.
            current = None;
            continue;
        }
        if single && !only_coordinates(&body, &found) {
            // "Goal: (0, 4), reached via (1, 4)": prose after the cell is not a second goal.
            found.truncate(1);
        }
        if key.is_some() || !found.is_empty() {
            *read_end = line_end;
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
    use crate::core::grid::Maze;

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
