//! The verifiers: each reads a reply the way a careful grader would and returns a
//! [`Verdict`] carrying what it extracted, a stable [`Reason`] and a sentence for people,
//! so a score can be audited without running anything again. Verdicts serialize to the JSON
//! of `shapemaze verify` (docs/cli.md) and read back from it.
//!
//! One file per phase, everything re-exported here (`verify::verify_move` and so on):
//! - `reader.rs` and `conclusion.rs`: the move a free-text reply names ([`read_move`]);
//! - `moves.rs`: judging it ([`check_step`], [`verify_move`]) and the single-shot path
//!   ([`verify_path`]);
//! - `recognition.rs`: the shape a reply names ([`mentions`], [`recognize`],
//!   [`verify_recognition`]);
//! - `generation.rs`: a generated maze ([`verify_generation`]).
//!
//! This file holds the verdict types and the word helpers the move and recognition readers
//! share: markup stripping, answer labels, and negation bounded by its clause. The rules for
//! reading replies are stated in full in each file's documentation; the README's "How
//! replies are read" says the same for users. May import [`crate::maze`] and
//! [`crate::text`] only.

mod answer;
mod conclusion;
mod generation;
mod move_answer;
mod moves;
mod reader;
mod reading;
mod recognition;
#[cfg(test)]
mod structure_tests;

pub use answer::Rule;
pub use generation::{verify_generation, verify_generation_in};
pub use moves::{check_step, verify_move, verify_path};
pub use reader::{read_move, read_move_at};
pub use reading::{maze_reading, move_reading, shape_reading, Reading};
pub use recognition::{
    mentions, mentions_in, recognize, recognize_at, recognize_in, verify_recognition, Mention,
};

use crate::maze::encoding::{Encoding, ParseError};
use crate::maze::grid::{Grid, Pos};
use crate::maze::shape::Shape;
use crate::reply::Plain;
use crate::text::{find_words, is_word_char};
use serde::de::{self, Deserializer, SeqAccess, Visitor};
use serde::ser::{SerializeSeq, Serializer};
use serde::{Deserialize, Serialize};
use std::fmt;

/// Whether a verdict passed, failed, or could not be reached because the endpoint failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// Passed.
    Success,
    /// Failed.
    Fail,
    /// The endpoint failed (an API error), so there was no reply to judge: not a model
    /// failure, and never counted as one.
    Error,
}

impl Outcome {
    /// Every outcome.
    pub const ALL: [Outcome; 3] = [Outcome::Success, Outcome::Fail, Outcome::Error];

    /// `SUCCESS`, `FAIL` or `ERROR`, as in transcripts' closing lines.
    pub fn closing(self) -> &'static str {
        match self {
            Outcome::Success => "SUCCESS",
            Outcome::Fail => "FAIL",
            Outcome::Error => "ERROR",
        }
    }

    /// The outcome a closing line's word names ([`Outcome::closing`] read back).
    pub fn from_closing(word: &str) -> Option<Outcome> {
        Outcome::ALL.into_iter().find(|o| o.closing() == word)
    }

    /// `success`, `fail` or `error`, as in `data-outcome` and JSON.
    pub fn name(self) -> &'static str {
        match self {
            Outcome::Success => "success",
            Outcome::Fail => "fail",
            Outcome::Error => "error",
        }
    }

    fn of(ok: bool) -> Outcome {
        if ok {
            Outcome::Success
        } else {
            Outcome::Fail
        }
    }
}

macro_rules! reasons {
    ($($(#[$doc:meta])* $v:ident = $s:literal,)*) => {
        /// Why a verdict came out as it did: a closed list of stable snake_case names that
        /// analysis scripts group by (README lists them with their meaning).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
        pub enum Reason { $($(#[$doc])* #[serde(rename = $s)] $v,)* }
        impl Reason {
            /// Every reason.
            pub const ALL: &'static [Reason] = &[$(Reason::$v,)*];
            /// The stable snake_case names, in the order of [`Reason::ALL`].
            pub const NAMES: &'static [&'static str] = &[$($s,)*];
            /// The stable snake_case name.
            pub fn as_str(self) -> &'static str { match self { $(Reason::$v => $s,)* } }
            /// The reason with this snake_case name, if any.
            pub fn from_name(name: &str) -> Option<Reason> {
                match name { $($s => Some(Reason::$v),)* _ => None }
            }
        }
    };
}

reasons! {
    /// Move: a valid step to an open neighbouring cell.
    ValidMove = "valid_move",
    /// Move / solve: the step reached the goal.
    ReachedGoal = "reached_goal",
    /// Move / path: no coordinate could be read from the reply.
    NoCoordinate = "no_coordinate",
    /// Move: the cell lies outside the grid.
    OutOfBounds = "out_of_bounds",
    /// Move: the cell is a wall.
    Wall = "wall",
    /// Move: the cell is not a neighbour of the player's cell.
    NotAdjacent = "not_adjacent",
    /// Move: a diagonal step in a 4-direction maze.
    DiagonalNotAllowed = "diagonal_not_allowed",
    /// Move: the reply named the player's own cell.
    SameCell = "same_cell",
    /// Solve: the move limit was used up before the goal was reached.
    MoveLimit = "move_limit",
    /// Path: the trace reached the player.
    ReachedPlayer = "reached_player",
    /// Path: the goal's cell is never mentioned.
    GoalNotMentioned = "goal_not_mentioned",
    /// Path: two consecutive cells of the trace are not a valid move apart.
    InvalidStep = "invalid_step",
    /// Path: the coordinates ran out before the trace reached the player.
    DidNotReachPlayer = "did_not_reach_player",
    /// Recognition: the right shape was named.
    CorrectShape = "correct_shape",
    /// Recognition: another shape was named.
    WrongShape = "wrong_shape",
    /// Recognition: no shape was named (or only negated ones).
    NoShapeNamed = "no_shape_named",
    /// Generation: a valid, new maze of the same shape and size with a path.
    ValidNewMaze = "valid_new_maze",
    /// Generation: no maze in the expected encoding was found.
    NoMazeFound = "no_maze_found",
    /// Generation: a symbol other than 1, 0, P, G.
    InvalidSymbol = "invalid_symbol",
    /// Generation: rows of different lengths.
    NotRectangular = "not_rectangular",
    /// Generation: a matrix whose rows are written without spaces between their cells
    /// (`0111P`); its size, shape, novelty and path are still measured.
    CellsNotSeparated = "cells_not_separated",
    /// Generation: a coordinate outside the grid (coordinate list).
    CellOutOfBounds = "cell_out_of_bounds",
    /// Generation: a cell listed twice (coordinate list).
    DuplicateCell = "duplicate_cell",
    /// Generation: a cell listed nowhere (coordinate list).
    MissingCell = "missing_cell",
    /// Generation: not exactly one player P.
    PlayerCount = "player_count",
    /// Generation: not exactly one goal G.
    GoalCount = "goal_count",
    /// Generation: a size other than the original's.
    WrongSize = "wrong_size",
    /// Generation: identical to the original maze.
    IdenticalToOriginal = "identical_to_original",
    /// Any phase: the endpoint failed (an API error); not a model failure.
    ApiError = "api_error",
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl From<&ParseError> for Reason {
    fn from(e: &ParseError) -> Reason {
        match e {
            ParseError::NoMazeFound => Reason::NoMazeFound,
            ParseError::InvalidSymbol { .. } => Reason::InvalidSymbol,
            ParseError::NotRectangular { .. } => Reason::NotRectangular,
            ParseError::OutOfBounds { .. } => Reason::CellOutOfBounds,
            ParseError::DuplicateCell { .. } => Reason::DuplicateCell,
            ParseError::MissingCell { .. } => Reason::MissingCell,
        }
    }
}

/// What a verifier read from the reply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Extracted {
    /// Nothing could be read.
    Nothing,
    /// A cell (move).
    Cell(Pos),
    /// A sequence of cells (path), from the player towards the goal.
    Cells(Vec<Pos>),
    /// A shape (recognition).
    Shape(Shape),
    /// A grid (generation), as it was parsed.
    Grid(Grid),
}

fn pair(p: Pos) -> [usize; 2] {
    [p.row, p.col]
}

impl Serialize for Extracted {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Extracted::Nothing => s.serialize_none(),
            Extracted::Cell(p) => pair(*p).serialize(s),
            Extracted::Cells(ps) => {
                let mut seq = s.serialize_seq(Some(ps.len()))?;
                for p in ps {
                    seq.serialize_element(&pair(*p))?;
                }
                seq.end()
            }
            Extracted::Shape(sh) => s.serialize_str(sh.name()),
            Extracted::Grid(g) => {
                let text = Encoding::Matrix.render(g);
                let mut seq = s.serialize_seq(Some(g.rows()))?;
                for line in text.lines() {
                    seq.serialize_element(line)?;
                }
                seq.end()
            }
        }
    }
}

/// One element of a JSON list in [`Extracted`]: a number (of a `[row, col]` pair), a
/// `[row, col]` pair (of a path) or a matrix row (of a grid).
enum Item {
    Number(usize),
    Pair([usize; 2]),
    Row(String),
}

impl<'de> Deserialize<'de> for Item {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Item;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a coordinate, a [row, col] pair or a matrix row")
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Item, E> {
                usize::try_from(v)
                    .map(Item::Number)
                    .map_err(|_| E::custom(format!("coordinate {v} is too large")))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Item, E> {
                usize::try_from(v)
                    .map(Item::Number)
                    .map_err(|_| E::custom(format!("coordinate {v} is negative")))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Item, E> {
                Ok(Item::Row(v.to_string()))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Item, A::Error> {
                let wrong = || de::Error::custom("a cell must be a [row, col] pair of two numbers");
                let row: usize = seq.next_element()?.ok_or_else(wrong)?;
                let col: usize = seq.next_element()?.ok_or_else(wrong)?;
                if seq.next_element::<de::IgnoredAny>()?.is_some() {
                    return Err(wrong());
                }
                Ok(Item::Pair([row, col]))
            }
        }
        d.deserialize_any(V)
    }
}

/// Reads what [`Extracted`]'s `Serialize` writes: `null`, `[r, c]`, `[[r, c], ...]`, a
/// shape's name, or matrix rows. Anything else is an error saying what was expected.
impl<'de> Deserialize<'de> for Extracted {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Extracted;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(
                    "null, a [row, col] pair, a list of pairs, a shape's name or a list of matrix rows",
                )
            }
            fn visit_unit<E: de::Error>(self) -> Result<Extracted, E> {
                Ok(Extracted::Nothing)
            }
            fn visit_none<E: de::Error>(self) -> Result<Extracted, E> {
                Ok(Extracted::Nothing)
            }
            fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Extracted, D::Error> {
                Extracted::deserialize(d)
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Extracted, E> {
                Shape::parse(v).map(Extracted::Shape).map_err(E::custom)
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Extracted, A::Error> {
                let mut items = Vec::new();
                while let Some(item) = seq.next_element::<Item>()? {
                    items.push(item);
                }
                extracted_from_items(items).map_err(de::Error::custom)
            }
        }
        d.deserialize_any(V)
    }
}

/// Why a JSON list is no [`Extracted`].
#[derive(Clone, Debug, PartialEq, Eq)]
enum ExtractedError {
    /// Matrix rows that are not a grid (why).
    NotAGrid(ParseError),
    /// Neither one pair, nor pairs, nor rows.
    Mixed,
}

impl fmt::Display for ExtractedError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExtractedError::NotAGrid(e) => {
                write!(f, "the extracted matrix rows are not a grid: {e}")
            }
            ExtractedError::Mixed => f.write_str(
                "an extracted list must be one [row, col] pair, a list of pairs or a list of matrix rows",
            ),
        }
    }
}

/// Which [`Extracted`] a JSON list is: one pair of numbers, a list of pairs (possibly
/// empty), or matrix rows forming a grid.
fn extracted_from_items(items: Vec<Item>) -> Result<Extracted, ExtractedError> {
    if let [Item::Number(row), Item::Number(col)] = items[..] {
        return Ok(Extracted::Cell(Pos::new(row, col)));
    }
    let pairs: Option<Vec<Pos>> = items
        .iter()
        .map(|i| match i {
            Item::Pair([r, c]) => Some(Pos::new(*r, *c)),
            _ => None,
        })
        .collect();
    if let Some(cells) = pairs {
        return Ok(Extracted::Cells(cells));
    }
    let rows: Option<Vec<&str>> = items
        .iter()
        .map(|i| match i {
            Item::Row(r) => Some(r.as_str()),
            _ => None,
        })
        .collect();
    match rows {
        Some(rows) => Encoding::Matrix
            .parse_grid(&rows.join("\n"), rows.len(), 0)
            .map(Extracted::Grid)
            .map_err(ExtractedError::NotAGrid),
        None => Err(ExtractedError::Mixed),
    }
}

/// The separate checks of a generated maze. A check that cannot be made counts as failed:
/// with no readable maze every check is `false` (so an unreadable reply is neither valid
/// nor novel), and a maze of another size fails `same_shape`. A maze that passes
/// `same_shape` always has `path_exists` (every template connects all its cells); the
/// check is still measured on its own, so a maze of the wrong shape says whether P reaches G.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct GenerationChecks {
    /// Properly encoded: a readable grid with exactly one P and one G.
    pub valid_encoding: bool,
    /// The original's size.
    pub same_size: bool,
    /// The corridor is one of the shape's templates for that size.
    pub same_shape: bool,
    /// Not identical to the original maze as first shown.
    pub novel: bool,
    /// P reaches G under the shape's movement rule.
    pub path_exists: bool,
}

/// A verifier's judgement of one reply.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Verdict {
    /// Passed or failed.
    pub outcome: Outcome,
    /// Why, as a stable name.
    pub reason: Reason,
    /// What was read from the reply.
    pub extracted: Extracted,
    /// Why, as a sentence for people.
    pub explanation: String,
    /// For generation: each check on its own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub checks: Option<GenerationChecks>,
    /// The rule that read the reply ([`Rule`]); `None` in verdicts written before
    /// verifier 5 and where no reader ran (an endpoint failure, a path).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rule: Option<Rule>,
    /// Whether that rule reads a plainly stated answer ([`Rule::sure`]); `false` for a
    /// fall-back, which a person may want to review.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sure: Option<bool>,
}

impl Verdict {
    fn new(ok: bool, reason: Reason, extracted: Extracted, explanation: String) -> Self {
        Self {
            outcome: Outcome::of(ok),
            reason,
            extracted,
            explanation,
            checks: None,
            rule: None,
            sure: None,
        }
    }

    /// The failure of a reply cut off inside its reasoning (a `<think>` block never
    /// closed): no `what` (move, shape, maze) was given, for `reason`.
    fn cut_in_reasoning(reason: Reason, what: &str) -> Self {
        Verdict::new(
            false,
            reason,
            Extracted::Nothing,
            format!("No {what} could be read: the reply was cut off inside its reasoning (a <think> block never closed), before it gave an answer."),
        )
        .read_by(Rule::CutInReasoning)
    }

    /// The verdict with the rule that read its reply (and so whether the reading is sure).
    pub fn read_by(self, rule: Rule) -> Self {
        Self {
            rule: Some(rule),
            sure: Some(rule.sure()),
            ..self
        }
    }

    /// The verdict of a phase whose reply never came because the endpoint failed:
    /// outcome [`Outcome::Error`], reason [`Reason::ApiError`], nothing extracted, and
    /// `explanation` saying what went wrong.
    pub fn api_error(explanation: impl Into<String>) -> Self {
        Self {
            outcome: Outcome::Error,
            reason: Reason::ApiError,
            extracted: Extracted::Nothing,
            explanation: explanation.into(),
            checks: None,
            rule: None,
            sure: None,
        }
    }

    /// Whether the verdict passed.
    pub fn passed(&self) -> bool {
        self.outcome == Outcome::Success
    }
}

/// The text the readers read of a reply ([`crate::reply::Plain`]): its answer without the
/// reasoning before it, markdown emphasis and code ticks removed (labels like `**Move:**`
/// read as `Move:`), full-width punctuation read as ASCII.
fn plain(reply: &str) -> String {
    Plain::text_of(reply)
}

/// Where a byte range of [`plain`]'s text stands in the reply it came from: `[start, end)`
/// in the reply.
pub fn span_in_reply(reply: &str, start: usize, end: usize) -> [usize; 2] {
    Plain::of(reply).span(start, end)
}

/// The byte offset just past the last occurrence (as whole words, any case) of any label.
fn end_of_last_label(text: &str, labels: &[&str]) -> Option<usize> {
    labels
        .iter()
        .flat_map(|l| {
            find_words(text, l, true)
                .into_iter()
                .map(move |i| i + l.len())
        })
        .max()
}

/// Words (apostrophes removed) that negate a shape named within three words after them.
const NEGATORS: [&str; 17] = [
    "not", "no", "never", "neither", "nor", "without", "unlike", "cannot", "isnt", "arent",
    "doesnt", "dont", "wasnt", "wont", "aint", "cant", "hardly",
];
const NEGATING_PAIRS: [(&str, &str); 3] =
    [("rather", "than"), ("instead", "of"), ("other", "than")];

struct Span<'a> {
    text: &'a str,
    end: usize,
}

impl Span<'_> {
    fn start(&self) -> usize {
        self.end - self.text.len()
    }
}

fn word_spans(text: &str) -> Vec<Span<'_>> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, ch) in text.char_indices() {
        let w = is_word_char(ch) || ch == '\'' || ch == '\u{2019}';
        match (w, start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                out.push(Span {
                    text: &text[s..i],
                    end: i,
                });
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push(Span {
            text: &text[s..],
            end: text.len(),
        });
    }
    out
}

/// Characters that end a clause, so a negation before them does not reach past them
/// (dashes included: "Is it a square? No — it's a spiral.").
const CLAUSE_ENDS: [char; 9] = ['.', '!', '?', ';', ',', '\n', ':', '\u{2014}', '\u{2013}'];

/// The up-to-`n` words before byte `at`, stopping at a clause boundary (one of
/// [`CLAUSE_ENDS`], or a hyphen standing alone as a dash: " - ").
fn words_before(text: &str, at: usize, n: usize) -> Vec<String> {
    let head = &text[..at];
    let after_char = head
        .rfind(CLAUSE_ENDS)
        .map(|i| i + head[i..].chars().next().map_or(1, char::len_utf8));
    // A dash only matters after the last clause end (and looking no further back keeps
    // this cheap when it is called for every coordinate of a long reply).
    let from = after_char.unwrap_or(0);
    let after_dash = head[from..].rfind(" - ").map(|i| from + i + 3);
    let clause_start = after_char.max(after_dash).unwrap_or(0);
    let clause = &head[clause_start..];
    let words: Vec<String> = word_spans(clause)
        .iter()
        .map(|w| normal_word(w.text))
        .collect();
    words[words.len().saturating_sub(n)..].to_vec()
}

/// A word in lower case with apostrophes removed (`I'm` -> `im`), as the readers compare
/// words.
fn normal_word(w: &str) -> String {
    w.to_ascii_lowercase().replace(['\'', '\u{2019}'], "")
}

fn is_negated(text: &str, at: usize) -> bool {
    let before = words_before(text, at, 3);
    before.iter().any(|w| NEGATORS.contains(&w.as_str()))
        || before
            .windows(2)
            .any(|p| NEGATING_PAIRS.contains(&(p[0].as_str(), p[1].as_str())))
}

/// Mazes the verifiers' tests share.
#[cfg(test)]
mod fixtures {
    use crate::maze::grid::{Mask, Maze, Pos};

    /// The 5x5 square ring with P at (0,0) and G at (4,4).
    pub(crate) fn ring() -> Maze {
        let mut m = Mask::empty(5, 5);
        for i in 0..5 {
            for p in [(0, i), (4, i), (i, 0), (i, 4)] {
                m.insert(Pos::new(p.0, p.1));
            }
        }
        Maze::from_mask(&m, Pos::new(0, 0), Pos::new(4, 4))
    }

    /// The 5x5 X (cross) with P at (0,0) and G at (4,4).
    pub(crate) fn x5() -> Maze {
        let mut m = Mask::empty(5, 5);
        for i in 0..5 {
            m.insert(Pos::new(i, i));
            m.insert(Pos::new(i, 4 - i));
        }
        Maze::from_mask(&m, Pos::new(0, 0), Pos::new(4, 4))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_reason_has_a_distinct_snake_case_name() {
        let mut names: Vec<&str> = Reason::ALL.iter().map(|r| r.as_str()).collect();
        assert!(names
            .iter()
            .all(|n| n.chars().all(|c| c.is_ascii_lowercase() || c == '_')));
        names.sort_unstable();
        let before = names.len();
        names.dedup();
        assert_eq!(before, names.len());
    }

    #[test]
    fn a_range_of_the_plain_text_is_found_again_in_the_reply() {
        // (reply, the text a range of its plain text covers)
        let cases = [
            ("Move: **(1, 2)**", "(1, 2)"),
            ("Move: `(1, 2)` now", "(1, 2)"),
            ("_**_(1, 2)", "(1, 2)"),
            ("é **Answer:** spirale é", "spirale"),
            ("plain (0, 0)", "(0, 0)"),
        ];
        for (reply, wanted) in cases {
            let text = plain(reply);
            let at = text.find(wanted).expect("in the plain text");
            let [s, e] = span_in_reply(reply, at, at + wanted.len());
            assert_eq!(&reply[s..e], wanted, "{reply}");
        }
        // An empty range stays empty, past the end stays at the end.
        let [s, e] = span_in_reply("**ab**", 1, 1);
        assert_eq!((s, e), (3, 3));
        assert_eq!(span_in_reply("ab", 5, 9), [2, 2]);
    }
}

/// serde_json is a native-only dependency.
#[cfg(all(test, not(target_arch = "wasm32")))]
mod serde_tests {
    use super::fixtures::ring;
    use super::*;
    use crate::maze::grid::Movement;
    use crate::maze::templates::TemplateLibrary;

    fn round_trip<T>(value: &T) -> T
    where
        T: Serialize + for<'de> Deserialize<'de> + fmt::Debug + PartialEq,
    {
        let json = serde_json::to_string(value).expect("serializes");
        let back: T = serde_json::from_str(&json)
            .unwrap_or_else(|e| panic!("{json} does not read back: {e}"));
        assert_eq!(&back, value, "{json}");
        assert_eq!(
            serde_json::to_string(&back).expect("serializes"),
            json,
            "the same JSON again"
        );
        back
    }

    #[test]
    fn every_reason_reads_back_from_its_snake_case_name() {
        for &r in Reason::ALL {
            let json = serde_json::to_string(&r).expect("serializes");
            assert_eq!(json, format!("\"{}\"", r.as_str()));
            round_trip(&r);
            assert_eq!(Reason::from_name(r.as_str()), Some(r));
        }
        assert_eq!(Reason::NAMES.len(), Reason::ALL.len());
    }

    #[test]
    fn an_unknown_reason_is_an_error_that_names_it_and_the_known_ones() {
        let err = serde_json::from_str::<Reason>("\"no_such_reason\"").expect_err("unknown");
        let msg = err.to_string();
        assert!(
            msg.contains("no_such_reason") && msg.contains("valid_move"),
            "{msg}"
        );
        assert!(serde_json::from_str::<Reason>("3").is_err(), "not a string");
    }

    #[test]
    fn every_outcome_reads_back_from_its_name_and_its_closing_word() {
        for o in Outcome::ALL {
            let json = serde_json::to_string(&o).expect("serializes");
            assert_eq!(json, format!("\"{}\"", o.name()));
            round_trip(&o);
            assert_eq!(Outcome::from_closing(o.closing()), Some(o));
        }
        assert_eq!(
            Outcome::from_closing("error"),
            None,
            "closing words are capitals"
        );
    }

    #[test]
    fn an_api_error_verdict_is_neither_a_pass_nor_a_failure() {
        let v = Verdict::api_error("HTTP 503 from the endpoint");
        assert_eq!((v.outcome, v.reason), (Outcome::Error, Reason::ApiError));
        assert!(!v.passed());
        let json = serde_json::to_string(&v).expect("serializes");
        assert_eq!(
            json,
            r#"{"outcome":"error","reason":"api_error","extracted":null,"explanation":"HTTP 503 from the endpoint"}"#
        );
        round_trip(&v);
    }

    #[test]
    fn verdicts_of_every_phase_and_reason_read_back_exactly() {
        let m = ring();
        let lib = TemplateLibrary::new(5);
        let new_maze = "P 0 0 0 0\n0 1 1 1 0\n0 1 1 1 0\n0 1 1 1 0\n0 0 0 G 0";
        let verdicts = [
            verify_move(&m, Movement::Four, "Move: (0, 1)"),
            verify_move(&m, Movement::Four, "no idea"),
            verify_path(
                &m,
                Movement::Four,
                "(0,0) (1,0) (2,0) (3,0) (4,0) (4,1) (4,2) (4,3) (4,4)",
            ),
            verify_recognition(
                Shape::Square,
                "a spiral",
                crate::maze::shape::ShapeSet::STANDARD,
            ),
            verify_generation(&m, Shape::Square, Encoding::Matrix, &lib, new_maze),
            verify_generation(&m, Shape::Square, Encoding::Matrix, &lib, "nothing"),
        ];
        let kinds: Vec<&Extracted> = verdicts.iter().map(|v| &v.extracted).collect();
        assert!(
            matches!(
                kinds[..],
                [
                    Extracted::Cell(_),
                    Extracted::Nothing,
                    Extracted::Cells(_),
                    Extracted::Shape(_),
                    Extracted::Grid(_),
                    Extracted::Nothing
                ]
            ),
            "every kind of extracted value is covered: {kinds:?}"
        );
        for v in &verdicts {
            round_trip(v);
        }
        for &reason in Reason::ALL {
            for extracted in kinds.iter().map(|e| (*e).clone()) {
                round_trip(&Verdict::new(false, reason, extracted, "why".into()));
            }
        }
        round_trip(&Extracted::Cells(Vec::new()));
    }

    #[test]
    fn the_documented_verdict_json_reads_back() {
        let json = r#"{"outcome":"success","reason":"valid_move","extracted":[1,2],"explanation":"Moved from (1, 1) to (1, 2)."}"#;
        let v: Verdict = serde_json::from_str(json).expect("reads");
        assert_eq!(v.reason, Reason::ValidMove);
        assert_eq!(v.extracted, Extracted::Cell(Pos::new(1, 2)));
        assert_eq!(v.checks, None);
        assert_eq!(serde_json::to_string(&v).expect("serializes"), json);
    }

    #[test]
    fn malformed_extracted_values_are_errors_with_a_message_not_panics() {
        for bad in [
            "[1]",
            "[1, 2, 3]",
            "[-1, 2]",
            "[[1, 2], 3]",
            "[[1, 2, 3]]",
            "[[1]]",
            "[\"1 0\", [1, 2]]",
            "[\"1 0\", \"1\"]",
            "[\"1 X\"]",
            "\"hexagon\"",
            "{}",
            "true",
            "1.5",
        ] {
            let err = serde_json::from_str::<Extracted>(bad).expect_err(bad);
            assert!(!err.to_string().is_empty(), "{bad}: an empty message");
        }
        let err = serde_json::from_str::<Verdict>(
            r#"{"outcome":"fail","reason":"wall","extracted":[1],"explanation":""}"#,
        )
        .expect_err("a one-number cell");
        assert!(err.to_string().contains("pair"), "{err}");
    }
}
