//! A maze read from a reply: what was read ([`Extraction`]), what was dropped to read it
//! ([`Dropped`]), why a text is not a maze ([`ParseError`]), and which of several blocks a
//! reply offers as its answer ([`choose_block`]). Both encodings' readers share these.

use crate::maze::grid::{Grid, Pos};
use crate::text::find_words;
use serde::{Deserialize, Serialize};
use std::fmt;

/// A maze read from a free-text reply ([`Encoding::read_reply`]): the grid or why the text
/// is not one, where that text stands, and what was set aside to read it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Extraction {
    /// The maze, or why none could be read.
    pub grid: Result<Grid, ParseError>,
    /// Where the text read stands in the reply (`[start, end)`, whole lines); `None` when
    /// no maze was found.
    pub span: Option<[usize; 2]>,
    /// Text dropped from around the maze's lines to read them.
    pub dropped: Vec<Dropped>,
    /// The labels of blocks after the one read that were passed over as restatements of
    /// the original (`Original maze:`).
    pub passed_over: Vec<String>,
    /// Whether some rows of the matrix were written without spaces between their cells
    /// (`0111P`): read cell by cell so the maze is still measured, but not properly
    /// encoded.
    pub unspaced: bool,
    /// How many blocks that could be the maze the reply holds (the one read included).
    pub blocks: usize,
    /// Whether the maze read was written as JSON (an array of rows).
    pub json: bool,
}

/// Text dropped from around one line of a maze to read it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dropped {
    /// The line, counted from 0: the row (matrix) or the line of the list counted from its
    /// first key line (coordinate list).
    pub line: usize,
    /// The text dropped, as written (`.`, `<end_of_turn>`, `**`, `<- changed`).
    pub text: String,
}

impl Extraction {
    pub(crate) fn none() -> Extraction {
        Extraction {
            grid: Err(ParseError::NoMazeFound),
            span: None,
            dropped: Vec::new(),
            passed_over: Vec::new(),
            unspaced: false,
            blocks: 0,
            json: false,
        }
    }
}

/// Words that make a block's label call it the original maze rather than the answer.
const REFERENCE_WORDS: [&str; 14] = [
    "original",
    "originally",
    "previous",
    "old",
    "given",
    "initial",
    "input",
    "provided",
    "before",
    "reference",
    "earlier",
    "existing",
    "your",
    "prompt",
];

/// Words that make a label name a new maze even when it mentions the original ("my new
/// maze, the original rotated").
const NEW_WORDS: [&str; 25] = [
    "new",
    "generated",
    "modified",
    "changed",
    "change",
    "changes",
    "updated",
    "created",
    "answer",
    "result",
    "final",
    "after",
    "swapped",
    "moved",
    "rotated",
    "mirrored",
    "flipped",
    "shifted",
    "variant",
    "version",
    "alternative",
    "different",
    "differs",
    "unlike",
    "instead",
];

/// Whether a block's label calls it the original (`Original maze:`, `For reference, the
/// given maze:`) and not a new one: a reference word and no word of a new maze, in a label
/// of at most six words or one that says "for reference" or "for comparison" (a longer
/// sentence that mentions the original, "Unlike the original, P starts at the top right:",
/// is about the maze below it, not a label of the original).
pub(crate) fn is_reference_label(label: &str) -> bool {
    let has = |words: &[&str]| words.iter().any(|w| !find_words(label, w, true).is_empty());
    let short = label.split_whitespace().count() <= 6
        || ["for reference", "for comparison"]
            .iter()
            .any(|p| !find_words(label, p, true).is_empty());
    short && has(&REFERENCE_WORDS) && !has(&NEW_WORDS)
}

/// Of blocks with their labels, the index of the one a reply offers as its answer (the
/// last not labelled as the original, else the last), and the labels passed over.
pub(crate) fn choose_block(labels: &[Option<String>]) -> Option<(usize, Vec<String>)> {
    let last = labels.len().checked_sub(1)?;
    let chosen = labels
        .iter()
        .rposition(|l| !l.as_deref().is_some_and(is_reference_label))
        .unwrap_or(last);
    let passed = labels[chosen + 1..].iter().flatten().cloned().collect();
    Some((chosen, passed))
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
