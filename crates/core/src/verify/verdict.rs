//! The verdict types: whether a reply passed ([`Outcome`]), why ([`Reason`]), what was read
//! ([`Extracted`], with its JSON form), a generated maze's checks ([`GenerationChecks`]) and
//! the whole [`Verdict`]. Every verifier returns one; `shapemaze verify` prints it.

use super::answer::Rule;
use crate::maze::encoding::Encoding;
use crate::maze::extraction::ParseError;
use crate::maze::grid::{Grid, Pos};
use crate::maze::shape::Shape;
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

/// Why a reading is not sure (docs/DECISIONS.md, sixth round: a reading marked sure is a
/// claim a reviewer should never have to check), as a stable snake_case name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DoubtKind {
    /// A fall-back rule chose one of several candidates.
    FallBack,
    /// Read by a rule below the first rank (a ticked candidate, a label in running text, the
    /// only cell a reply names), not by JSON, an answer line or a conclusion.
    NotFirstRank,
    /// A JSON answer elsewhere in the reply gives another value.
    RivalJson,
    /// Another answer line gives another value.
    RivalAnswerLine,
    /// Another concluding sentence gives another value.
    RivalConclusion,
    /// Another value follows the one read in the same statement ("(0, 1) or (1, 0)").
    FollowedInStatement,
    /// The reply goes on after its answer and puts another value forward.
    NamedAfter,
    /// The reply declares another way of writing cells (counted from 1, column first).
    OtherConvention,
    /// No answer was read, yet the reply holds a value or a trace of one (a number, a
    /// word that describes a shape, rows of maze symbols).
    Unread,
    /// The reply takes the value back after it ("scrap that").
    TakenBack,
    /// The rows read are not a whole maze (not exactly one player and one goal).
    Incomplete,
    /// The rows read are not the size asked.
    OtherSize,
    /// The reply holds rows that could not be read as a maze.
    Unreadable,
    /// The value is named as part of what the reply describes ("three sides of a
    /// square"), not as its answer.
    Qualified,
    /// The reply ends on an answer label with nothing after it: cut off, it may never have
    /// given the answer it was about to.
    CutOff,
    /// Two readers read the reply otherwise: under the answer mode `transcribed`, the
    /// transcription gives one value and our readers another (or none).
    ReadersDiffer,
}

impl DoubtKind {
    /// Every kind.
    pub const ALL: [DoubtKind; 16] = [
        DoubtKind::FallBack,
        DoubtKind::NotFirstRank,
        DoubtKind::RivalJson,
        DoubtKind::RivalAnswerLine,
        DoubtKind::RivalConclusion,
        DoubtKind::FollowedInStatement,
        DoubtKind::NamedAfter,
        DoubtKind::OtherConvention,
        DoubtKind::Unread,
        DoubtKind::TakenBack,
        DoubtKind::Incomplete,
        DoubtKind::OtherSize,
        DoubtKind::Unreadable,
        DoubtKind::Qualified,
        DoubtKind::CutOff,
        DoubtKind::ReadersDiffer,
    ];

    /// The stable snake_case name (as in JSON).
    pub fn name(self) -> &'static str {
        match self {
            DoubtKind::FallBack => "fall_back",
            DoubtKind::NotFirstRank => "not_first_rank",
            DoubtKind::RivalJson => "rival_json",
            DoubtKind::RivalAnswerLine => "rival_answer_line",
            DoubtKind::RivalConclusion => "rival_conclusion",
            DoubtKind::FollowedInStatement => "followed_in_statement",
            DoubtKind::NamedAfter => "named_after",
            DoubtKind::OtherConvention => "other_convention",
            DoubtKind::Unread => "unread",
            DoubtKind::TakenBack => "taken_back",
            DoubtKind::Incomplete => "incomplete",
            DoubtKind::OtherSize => "other_size",
            DoubtKind::Unreadable => "unreadable",
            DoubtKind::Qualified => "qualified",
            DoubtKind::CutOff => "cut_off",
            DoubtKind::ReadersDiffer => "readers_differ",
        }
    }

    /// The role that gives the competing value, in a few words for people.
    pub fn role(self) -> &'static str {
        match self {
            DoubtKind::FallBack => "a fall-back",
            DoubtKind::NotFirstRank => "a rule below the first rank",
            DoubtKind::RivalJson => "a JSON answer",
            DoubtKind::RivalAnswerLine => "another answer line",
            DoubtKind::RivalConclusion => "another concluding sentence",
            DoubtKind::FollowedInStatement => "the same statement",
            DoubtKind::NamedAfter => "the text after the answer",
            DoubtKind::OtherConvention => "the reply's own way of writing cells",
            DoubtKind::Unread => "the reply's text",
            DoubtKind::TakenBack => "a taking back",
            DoubtKind::Incomplete | DoubtKind::OtherSize | DoubtKind::Unreadable => {
                "the rows themselves"
            }
            DoubtKind::Qualified => "the words around the answer",
            DoubtKind::CutOff => "the reply's end",
            DoubtKind::ReadersDiffer => "our readers",
        }
    }
}

/// Why a verdict's reading is not sure: the kind, the competing value (or nothing), where
/// it (or the trace of one) stands in the reply, and a sentence a person can check.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Doubt {
    /// The kind of doubt.
    pub kind: DoubtKind,
    /// The competing value (`null` when none was read: a trace, a convention, a taking
    /// back).
    #[serde(default = "nothing")]
    pub rival: Extracted,
    /// Where the competing value or the trace stands in the reply (`[start, end)` bytes).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub span: Option<[usize; 2]>,
    /// Why, as a sentence for people ("another concluding sentence gives (1, 0)").
    pub why: String,
}

fn nothing() -> Extracted {
    Extracted::Nothing
}

impl Doubt {
    /// The kind's stable snake_case name (as in JSON).
    pub fn kind_name(&self) -> &'static str {
        self.kind.name()
    }

    /// The doubt of `kind` about a `what` (move, shape, maze) read by `rule`, with the
    /// competing value `rival` and the words of the reply it quotes (`quote`, may be empty).
    pub fn new(
        kind: DoubtKind,
        rule: Rule,
        what: &str,
        rival: Extracted,
        span: Option<[usize; 2]>,
        quote: &str,
    ) -> Doubt {
        let named = match &rival {
            Extracted::Nothing => None,
            Extracted::Cell(p) => Some(p.to_string()),
            Extracted::Cells(_) => Some("a list of cells".to_string()),
            Extracted::Shape(s) => Some(format!("the {}", s.name())),
            Extracted::Grid(_) => Some("another block of rows".to_string()),
        };
        let also = named.as_ref().map_or(String::new(), |n| {
            format!(", and the reply also puts {n} forward")
        });
        let quoted = quote.trim();
        let why = match kind {
            DoubtKind::FallBack => format!(
                "Unsure: no JSON, answer line or conclusion gives the {what}; {}{also}.",
                rule.describe()
            ),
            DoubtKind::NotFirstRank => format!(
                "Unsure: {}, not JSON, an answer line or a conclusion{also}.",
                rule.describe()
            ),
            DoubtKind::RivalJson
            | DoubtKind::RivalAnswerLine
            | DoubtKind::RivalConclusion
            | DoubtKind::FollowedInStatement
            | DoubtKind::NamedAfter => {
                let rival = named.unwrap_or_else(|| "another value".to_string());
                match kind {
                    DoubtKind::FollowedInStatement => format!(
                        "Unsure: {rival} follows the {what} read in the same statement."
                    ),
                    DoubtKind::NamedAfter => format!(
                        "Unsure: the reply goes on after its answer and puts {rival} forward."
                    ),
                    _ => format!("Unsure: {} gives {rival}.", kind.role()),
                }
            }
            DoubtKind::OtherConvention => format!(
                "Unsure: the reply says it writes cells another way (\"{quoted}\"), so the {what} read may mean another cell."
            ),
            DoubtKind::Unread => match named {
                Some(n) => format!("Unsure: no {what} was read, yet the reply names {n}."),
                None => format!(
                    "Unsure: no {what} was read, yet the reply holds \"{quoted}\", which may give one."
                ),
            },
            DoubtKind::TakenBack => format!(
                "Unsure: the reply takes its {what} back after giving it (\"{quoted}\")."
            ),
            DoubtKind::Incomplete => format!(
                "Unsure: the rows read are not a whole maze ({quoted})."
            ),
            DoubtKind::OtherSize => format!(
                "Unsure: the rows read are not a maze of the size asked ({quoted})."
            ),
            DoubtKind::Unreadable => format!(
                "Unsure: the reply holds rows that could not be read as a maze ({quoted})."
            ),
            DoubtKind::Qualified => format!(
                "Unsure: the reply names the {what} as part of what it describes (\"{quoted}\"), not as its answer."
            ),
            DoubtKind::CutOff => format!(
                "Unsure: the reply ends on a label with nothing after it (\"{quoted}\"): it may have been cut off before it answered."
            ),
            DoubtKind::ReadersDiffer => match named {
                Some(n) => format!("Unsure: our readers read {n} as the reply's {what}."),
                None => format!("Unsure: our readers read no {what} in the reply."),
            },
        };
        Doubt {
            kind,
            rival,
            span,
            why,
        }
    }
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
    /// Whether the reading is sure: a claim a reviewer should never have to check
    /// (verify/decide.rs says when); `false` for a fall-back and wherever something in the
    /// reply competes with the reading ([`Verdict::doubt`] says what).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sure: Option<bool>,
    /// Why the reading is not sure (verdicts from verifier 9 on; `None` when it is sure).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub doubt: Option<Doubt>,
}

impl Verdict {
    pub(crate) fn new(ok: bool, reason: Reason, extracted: Extracted, explanation: String) -> Self {
        Self {
            outcome: Outcome::of(ok),
            reason,
            extracted,
            explanation,
            checks: None,
            rule: None,
            sure: None,
            doubt: None,
        }
    }

    /// The failure of a reply cut off inside its reasoning (a `<think>` block never
    /// closed): no `what` (move, shape, maze) was given, for `reason`.
    pub(crate) fn cut_in_reasoning(reason: Reason, what: &str) -> Self {
        Verdict::new(
            false,
            reason,
            Extracted::Nothing,
            format!("No {what} could be read: the reply was cut off inside its reasoning (a <think> block never closed), before it gave an answer."),
        )
        .read_by(Rule::CutInReasoning)
    }

    /// The verdict with the rule that read its reply and nothing competing with the
    /// reading: sure unless the rule is a fall-back.
    pub fn read_by(self, rule: Rule) -> Self {
        let doubt = rule.is_fall_back().then(|| {
            Doubt::new(
                DoubtKind::FallBack,
                rule,
                "answer",
                Extracted::Nothing,
                None,
                "",
            )
        });
        self.read_with(rule, doubt)
    }

    /// The verdict with the rule that read its reply and why the reading is not sure
    /// (`None`: it is sure).
    pub fn read_with(self, rule: Rule, doubt: Option<Doubt>) -> Self {
        Self {
            rule: Some(rule),
            sure: Some(doubt.is_none()),
            doubt,
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
            doubt: None,
        }
    }

    /// Whether the verdict passed.
    pub fn passed(&self) -> bool {
        self.outcome == Outcome::Success
    }
}
