//! The design's original runs, read as they really are and scored three ways
//! (ORIGINAL_DATA.md): **recorded** (the verdict lines as the original code wrote them),
//! **strict** (every reply through today's verifiers, the solve phase replayed move by
//! move with the core [`Trial`]) and **original** (the original checks, with the original
//! shape families of `original_templates.json`). Every difference between the strict and
//! the original verdict of a phase gets a named [`Cause`].
//!
//! An original transcript has no message markers: the conversation is split by the
//! original's fixed prompt sentences ([`NEXT_MOVE`], [`UPDATE_INTRO`], [`COMBINED_START`]),
//! a reply may be glued to the end of the prompt's last sentence, and `SOLVE: …` stands
//! right after the solve phase. Pure: no files, no clock.
//!
//! ```
//! use shapemaze::core::original::{audit, AuditCache, Mark};
//! use shapemaze::core::rescore::Hints;
//!
//! let failed = "Query did not run: mazes/5x5_C_1.npy\nError: timeout\n\nSOLVE: FAIL\n\nRECOGNIZE: FAIL\n\nGENERATE: FAIL\n";
//! let a = audit(failed, &Hints::default(), &mut AuditCache::new());
//! assert!(a.api_error);
//! assert_eq!(a.original.solve, Some(Mark::Fail));
//! assert_eq!(a.strict.solve, None);
//! ```

use super::encoding::{CoordStyle, Encoding};
use super::grid::{Grid, Maze, Movement, Pos, Tile, MAX_SIZE};
use super::rescore::{Hints, Libraries};
use super::shape::Shape;
use super::trial::{Phase, Protocol, Trial, TrialSetup};
use super::verify::{
    read_move_at, recognize_at, verify_generation, verify_recognition, Extracted, Outcome,
};
use serde::{Deserialize, Serialize};
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

/// The first prompt's opening sentence.
pub const FIRST_PROMPT_START: &str = "You are tasked with solving a maze.";
/// The line before the maze in the first prompt.
pub const MAZE_INTRO: &str = "Here is the maze you should solve:";
/// The sentence every solve prompt ends with; the reply follows it.
pub const NEXT_MOVE: &str = "Please provide the coordinates of your next move.";
/// The line before the maze in every later solve prompt.
pub const UPDATE_INTRO: &str = "Here is the current state of the maze after your latest move:";
/// The combined recognition and generation prompt's first line.
pub const COMBINED_START: &str = "For the maze you were tasked to solve, please provide:";
/// The combined prompt's last line (the braces stand there literally).
pub const COMBINED_LAST: &str =
    "* The general shape formed by its empty spaces (corridors) is recognizable as \"{shape}\".";
/// How an API-failure file begins.
pub const QUERY_FAILED: &str = "Query did not run:";
/// The line an API-failure file carries the error message on.
pub const ERROR_LINE: &str = "Error:";
/// How vision prompts begin.
pub const VISION_START: &str = "# Maze Navigation Task";
/// The original's move limit.
pub const ORIGINAL_MOVE_LIMIT: usize = 16;

/// The original shape families (ORIGINAL_DATA.md), as data.
const ORIGINAL_TEMPLATES: &str = include_str!("original_templates.json");

/// The original recognition word lists.
pub fn original_words(shape: Shape) -> &'static [&'static str] {
    match shape {
        Shape::Square => &[
            "square",
            "box",
            "cube",
            "symmetrical rectangle",
            "right-angled quadrilateral",
            "symmetric quadrilateral",
            "four-sided polygon",
        ],
        Shape::Triangle => &[
            "triangle",
            "pyramid",
            "trilateral",
            "three-sided polygon",
            "isosceles",
        ],
        Shape::Spiral => &["spiral", "helix", "coil", "whorl", "swirl", "vortex"],
        Shape::Cross => &[
            "cross",
            "times",
            "multiplication",
            "X",
            "X-shape",
            "crossed lines",
            "crossing",
        ],
        Shape::C => &[
            "C",
            "crescent",
            "half-circle",
            "curved line",
            "semi-circle",
            "semi circle",
            "open curve",
        ],
        Shape::Z => &["Z", "zigzag", "lightning bolt"],
    }
}

/// A phase's verdict in the audit: passed, failed, or (strict solve only) diverged from
/// the path the original conversation took.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mark {
    /// Passed.
    Success,
    /// Failed.
    Fail,
    /// The strict reading of a reply took another move than the original did, so the rest
    /// of the conversation followed the other reading and cannot be judged.
    Diverged,
}

impl Mark {
    /// `success`, `fail` or `diverged`.
    pub fn name(self) -> &'static str {
        match self {
            Mark::Success => "success",
            Mark::Fail => "fail",
            Mark::Diverged => "diverged",
        }
    }

    fn of(ok: bool) -> Mark {
        if ok {
            Mark::Success
        } else {
            Mark::Fail
        }
    }

    /// The mark of a verdict's outcome (`None` for an API error).
    pub fn from_outcome(o: Outcome) -> Option<Mark> {
        match o {
            Outcome::Success => Some(Mark::Success),
            Outcome::Fail => Some(Mark::Fail),
            Outcome::Error => None,
        }
    }
}

/// The three phases' marks; `None` where not available.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Marks {
    /// The solve phase.
    pub solve: Option<Mark>,
    /// Recognition.
    pub recognize: Option<Mark>,
    /// Generation.
    pub generate: Option<Mark>,
}

impl Marks {
    /// Solve, recognize, generate.
    pub fn as_array(&self) -> [Option<Mark>; 3] {
        [self.solve, self.recognize, self.generate]
    }

    fn from_array(a: [Option<Mark>; 3]) -> Marks {
        Marks {
            solve: a[0],
            recognize: a[1],
            generate: a[2],
        }
    }
}

/// Why a strict and an original verdict differ.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Cause {
    /// The endpoint failed; the original recorded a failure, strict counts an API error.
    ApiErrorCountedAsFailure,
    /// The original accepted a diagonal move on a 4-direction shape.
    DiagonalOnFourDirectionShape,
    /// Strict read another coordinate as the move than the original's last one.
    DifferentCoordinateRead,
    /// The original accepted an `X` standing between two numbers (`5 x 5`) as the cross.
    LetterInsideGridSize,
    /// The original accepted a single letter (`(c)`, `z`) anywhere as the shape's name.
    SingleLetterMention,
    /// The original accepted a shape word that the reply negates, hedges or does not give
    /// as its answer.
    NegatedOrHedgedMention,
    /// Strict accepted a name of the shape that is not in the original's word list.
    WordOutsideOriginalList,
    /// The reply quotes the maze as first shown, and the original counted it as a
    /// generation.
    OriginalQuotedBack,
    /// The original judged novelty against the maze after the solve phase, so a reply
    /// repeating it failed although it is new against the maze as first shown.
    NoveltyAfterSolving,
    /// A correct maze written with other spacing or decoration than the original renderer.
    OtherSpacing,
    /// A maze written verbatim whose corridor is one of today's templates of the shape but
    /// not one of the original families (or the reverse).
    TemplateOutsideOriginalFamilies,
    /// Any other difference.
    Other,
}

impl Cause {
    /// Every cause.
    pub const ALL: [Cause; 12] = [
        Cause::ApiErrorCountedAsFailure,
        Cause::DiagonalOnFourDirectionShape,
        Cause::DifferentCoordinateRead,
        Cause::LetterInsideGridSize,
        Cause::SingleLetterMention,
        Cause::NegatedOrHedgedMention,
        Cause::WordOutsideOriginalList,
        Cause::OriginalQuotedBack,
        Cause::NoveltyAfterSolving,
        Cause::OtherSpacing,
        Cause::TemplateOutsideOriginalFamilies,
        Cause::Other,
    ];

    /// The cause of a snake_case name ([`Cause::name`]).
    pub fn from_name(name: &str) -> Option<Cause> {
        Cause::ALL.into_iter().find(|c| c.name() == name)
    }

    /// What it means, in a sentence for people.
    pub fn describe(self) -> &'static str {
        match self {
            Cause::ApiErrorCountedAsFailure => "The endpoint failed: the original recorded a model failure, strict counts an API error.",
            Cause::DiagonalOnFourDirectionShape => "The original accepted a diagonal move on a 4-direction shape.",
            Cause::DifferentCoordinateRead => "Strict read another coordinate as the move than the original's last one.",
            Cause::LetterInsideGridSize => "The original took the x of \"5 x 5\" as naming the cross.",
            Cause::SingleLetterMention => "The original took a single letter such as \"(c)\" anywhere as the shape's name.",
            Cause::NegatedOrHedgedMention => "The original counted a name of the shape that the reply negates, hedges or does not give as its answer.",
            Cause::WordOutsideOriginalList => "Strict accepted a name of the shape that is not in the original's word list.",
            Cause::OriginalQuotedBack => "The reply quotes the maze as first shown, and the original counted it as a new maze.",
            Cause::NoveltyAfterSolving => "The original judged novelty against the maze after solving, so a maze new against the one first shown failed.",
            Cause::OtherSpacing => "A correct maze written with other spacing than the original renderer's, which the original's verbatim search misses.",
            Cause::TemplateOutsideOriginalFamilies => "A corridor among today's templates of the shape but not the original families (or the reverse).",
            Cause::Other => "Any other difference.",
        }
    }

    /// The snake_case name, as in JSON.
    pub fn name(self) -> &'static str {
        match self {
            Cause::ApiErrorCountedAsFailure => "api_error_counted_as_failure",
            Cause::DiagonalOnFourDirectionShape => "diagonal_on_four_direction_shape",
            Cause::DifferentCoordinateRead => "different_coordinate_read",
            Cause::LetterInsideGridSize => "letter_inside_grid_size",
            Cause::SingleLetterMention => "single_letter_mention",
            Cause::NegatedOrHedgedMention => "negated_or_hedged_mention",
            Cause::WordOutsideOriginalList => "word_outside_original_list",
            Cause::OriginalQuotedBack => "original_quoted_back",
            Cause::NoveltyAfterSolving => "novelty_after_solving",
            Cause::OtherSpacing => "other_spacing",
            Cause::TemplateOutsideOriginalFamilies => "template_outside_original_families",
            Cause::Other => "other",
        }
    }
}

/// One difference between the strict and the original verdict of a phase.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Difference {
    /// `solve`, `recognize` or `generate`.
    pub phase: Phase,
    /// Why they differ.
    pub cause: Cause,
    /// What each scorer read in the reply behind it (none for an API error).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub read: Option<Reading>,
}

impl Difference {
    fn new(phase: Phase, cause: Cause, read: Option<Reading>) -> Self {
        Difference { phase, cause, read }
    }
}

/// What each scorer read in the reply behind a difference: the reply, and where in it
/// each found its answer, as `[start, end)` byte ranges.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reading {
    /// The solve step (0-based) the difference came from; none for the other phases.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub step: Option<usize>,
    /// The reply (for a human result file: its moves, or its chosen shape).
    pub reply: String,
    /// Where today's verifier read its answer.
    pub strict: Vec<[usize; 2]>,
    /// Where the original checks read theirs.
    pub original: Vec<[usize; 2]>,
}

impl Reading {
    fn of(
        step: Option<usize>,
        reply: &str,
        strict: Option<[usize; 2]>,
        original: Vec<[usize; 2]>,
    ) -> Self {
        Reading {
            step,
            reply: reply.to_string(),
            strict: strict.into_iter().collect(),
            original,
        }
    }
}

/// Where the original move check read a reply's move: its last `(r, c)`.
fn original_move_span(reply: &str) -> Option<[usize; 2]> {
    let (at, _) = original_coordinates(reply).pop()?;
    let end = reply[at..].find(')').map_or(reply.len(), |i| at + i + 1);
    Some([at, end])
}

/// One solve step of an original transcript: the maze its prompt showed and the reply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// The maze in the prompt (`None` when it could not be read).
    pub maze: Option<Grid>,
    /// The reply to the prompt.
    pub reply: String,
}

/// An original transcript read.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OriginalTranscript {
    /// The verdict lines, wherever they stand (`None` where missing).
    pub closing: [Option<Outcome>; 3],
    /// Whether the file records an API failure (`Query did not run:` / `Error:`).
    pub api_error: bool,
    /// Whether the prompts are the vision ones (the maze was an image).
    pub vision: bool,
    /// The encoding the mazes are written in (from the first maze).
    pub encoding: Option<Encoding>,
    /// The movement rule the first prompt states.
    pub movement: Option<Movement>,
    /// The solve steps, in order.
    pub steps: Vec<Step>,
    /// The reply to the combined recognition and generation prompt.
    pub combined_reply: Option<String>,
    /// The reply to a separate recognition prompt (Shapemaze's stepwise runs).
    pub recognize_reply: Option<String>,
    /// The reply to a separate generation prompt (Shapemaze's stepwise runs).
    pub generate_reply: Option<String>,
}

fn verdict_line(line: &str) -> Option<(usize, Outcome)> {
    let (key, value) = line.trim().split_once(':')?;
    let idx = ["SOLVE", "RECOGNIZE", "GENERATE"]
        .iter()
        .position(|k| *k == key.trim())?;
    Some((idx, Outcome::from_closing(value.trim())?))
}

/// Byte offset of the start of each line of `text`, with the line.
fn lines_at(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut at = 0;
    for line in text.split('\n') {
        out.push((at, line));
        at += line.len() + 1;
    }
    out
}

/// The first block of non-blank lines after the line holding `intro` (blank lines before
/// it skipped), up to a line holding `stop`.
fn maze_block(prompt: &str, intro: &str) -> Option<String> {
    let start = prompt.find(intro)? + intro.len();
    let mut block = Vec::new();
    for line in prompt[start..].split('\n').skip(1) {
        if line.contains(NEXT_MOVE) {
            break;
        }
        if line.trim().is_empty() {
            if block.is_empty() {
                continue;
            }
            break;
        }
        block.push(line.trim_end());
    }
    (!block.is_empty()).then(|| block.join("\n"))
}

/// Every `(r, c)` in `text` the original way: integers, spaces allowed, a minus sign
/// allowed. Returned with the byte offset of the `(`.
pub fn original_coordinates(text: &str) -> Vec<(usize, (i64, i64))> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'(' {
            if let Some((pair, end)) = pair_at(b, i + 1) {
                out.push((i, pair));
                i = end;
                continue;
            }
        }
        i += 1;
    }
    out
}

fn pair_at(b: &[u8], mut i: usize) -> Option<((i64, i64), usize)> {
    let skip = |i: &mut usize| {
        while *i < b.len() && b[*i] == b' ' {
            *i += 1;
        }
    };
    let int = |i: &mut usize| -> Option<i64> {
        let neg = *i < b.len() && b[*i] == b'-';
        if neg {
            *i += 1;
        }
        let start = *i;
        let mut v: i64 = 0;
        while *i < b.len() && b[*i].is_ascii_digit() && *i - start < 9 {
            v = v * 10 + i64::from(b[*i] - b'0');
            *i += 1;
        }
        if *i == start || (*i < b.len() && b[*i].is_ascii_digit()) {
            return None;
        }
        Some(if neg { -v } else { v })
    };
    skip(&mut i);
    let r = int(&mut i)?;
    skip(&mut i);
    (i < b.len() && b[i] == b',').then_some(())?;
    i += 1;
    skip(&mut i);
    let c = int(&mut i)?;
    skip(&mut i);
    (i < b.len() && b[i] == b')').then_some(())?;
    Some(((r, c), i + 1))
}

/// Reads a maze as the original renderer writes it (matrix or coordinate list).
pub fn read_maze(block: &str) -> Option<(Encoding, Grid)> {
    let first = block.trim_start();
    if first.starts_with("Walls:") || first.starts_with("Empty:") {
        let coords = original_coordinates(block);
        let rows = coords.iter().map(|(_, (r, _))| *r).max()? + 1;
        let cols = coords.iter().map(|(_, (_, c))| *c).max()? + 1;
        let (rows, cols) = (usize::try_from(rows).ok()?, usize::try_from(cols).ok()?);
        let g = Encoding::CoordList.parse_grid(block, rows, cols).ok()?;
        Some((Encoding::CoordList, g))
    } else {
        let g = Encoding::Matrix.parse_grid(block, 0, 0).ok()?;
        Some((Encoding::Matrix, g))
    }
}

/// Reads an original transcript exactly as ORIGINAL_DATA.md states it.
pub fn parse(text: &str) -> OriginalTranscript {
    let text = text.replace("\r\n", "\n");
    let lines = lines_at(&text);
    let mut t = OriginalTranscript::default();
    let mut solve_at = None;
    for &(at, line) in &lines {
        if let Some((i, o)) = verdict_line(line) {
            t.closing[i] = Some(o);
            if i == 0 && solve_at.is_none() {
                solve_at = Some(at);
            }
        }
    }
    let body = text.trim_start();
    t.vision = body.starts_with(VISION_START);
    t.api_error = !body.starts_with(FIRST_PROMPT_START)
        && !t.vision
        && lines
            .iter()
            .any(|(_, l)| l.starts_with(QUERY_FAILED) || l.starts_with(ERROR_LINE));
    if t.api_error {
        return t;
    }
    let solve_end = solve_at.unwrap_or(text.len());
    let solve = &text[..solve_end];
    if let Some(first) = solve.split(NEXT_MOVE).next() {
        if first.contains("any diagonal") {
            t.movement = Some(Movement::Eight);
        } else if first.contains("up, down, left, or right") {
            t.movement = Some(Movement::Four);
        }
    }
    let parts: Vec<&str> = solve.split(NEXT_MOVE).collect();
    // parts[0] is the first prompt; parts[k] (k >= 1) is reply k, then the next prompt.
    let mut prompt = parts.first().copied().unwrap_or("");
    let mut intro = MAZE_INTRO;
    for part in parts.iter().skip(1) {
        let block = maze_block(prompt, intro);
        let maze = block.as_deref().and_then(read_maze).map(|(e, g)| {
            t.encoding.get_or_insert(e);
            g
        });
        let (reply, next) = match part.find(UPDATE_INTRO) {
            Some(i) => (&part[..i], &part[i..]),
            None => (*part, ""),
        };
        t.steps.push(Step {
            maze,
            reply: reply.trim().to_string(),
        });
        prompt = next;
        intro = UPDATE_INTRO;
    }
    if let Some(start) = text[solve_end..].find(COMBINED_START) {
        let rest = &text[solve_end + start..];
        let reply_start = match rest.find(COMBINED_LAST) {
            Some(i) => i + COMBINED_LAST.len(),
            None => rest.find('\n').unwrap_or(rest.len()),
        };
        let reply = &rest[reply_start..];
        let end = lines_at(reply)
            .iter()
            .rev()
            .find(|(_, l)| verdict_line(l).is_some_and(|(i, _)| i == 1))
            .map_or(reply.len(), |(at, _)| *at);
        t.combined_reply = Some(reply[..end].trim().to_string());
    }
    t
}

/// Reads one of Shapemaze's own transcripts (with `### user` / `### assistant` markers)
/// into the same steps, so the original checks can score a new model's runs too; `None`
/// without markers. Single-shot solve prompts are not read (the original asked stepwise).
pub fn from_marked(text: &str, hint: Option<Encoding>) -> Option<OriginalTranscript> {
    use super::prompt::{read_heading, Heading};
    use super::transcript::Role;
    let parsed = super::transcript::parse(text);
    if !parsed.marked {
        return None;
    }
    let first = parsed.messages.first()?;
    let encoding = hint.unwrap_or_else(|| super::rescore::detect_encoding(&first.content));
    let mut t = OriginalTranscript {
        closing: parsed.closing,
        encoding: Some(encoding),
        ..OriginalTranscript::default()
    };
    let mut current = None;
    let mut maze = None;
    for m in &parsed.messages {
        match m.role {
            Role::User => {
                if let Some(h) = read_heading(&m.content) {
                    current = Some(h);
                    if matches!(h, Heading::Solve | Heading::Update) {
                        maze = super::rescore::read_shown_maze(&m.content, encoding).ok();
                    }
                }
            }
            Role::Assistant => {
                let reply = m.content.clone();
                match current {
                    Some(Heading::Solve | Heading::Update) => t.steps.push(Step {
                        maze: maze.take(),
                        reply,
                    }),
                    Some(Heading::Combined) => t.combined_reply = Some(reply),
                    Some(Heading::Recognize) => t.recognize_reply = Some(reply),
                    Some(Heading::Generate) => t.generate_reply = Some(reply),
                    Some(Heading::SolvePath) | None => {}
                }
            }
        }
    }
    // Only a trial whose endpoint failed before any reply counts as an API failure file.
    t.api_error = t.steps.is_empty() && t.closing.contains(&Some(Outcome::Error));
    Some(t)
}

/// Whether `b` is one of the 8 neighbours of `a`.
fn king_step(a: Pos, b: Pos) -> bool {
    a != b && a.row.abs_diff(b.row) <= 1 && a.col.abs_diff(b.col) <= 1
}

fn to_pos(grid: &Grid, (r, c): (i64, i64)) -> Option<Pos> {
    let p = Pos::new(usize::try_from(r).ok()?, usize::try_from(c).ok()?);
    grid.contains(p).then_some(p)
}

/// The original move check on one reply: the last `(r, c)`; `None` when the reply names
/// none or the move is invalid (outside, a wall, not one of P's 8 neighbours).
pub fn original_move(maze: &Maze, reply: &str) -> Option<Pos> {
    original_step(maze, last_coordinate(reply))
}

/// The last `(r, c)` of a reply, read the original way: what [`original_move`] takes.
fn last_coordinate(reply: &str) -> Option<(i64, i64)> {
    original_coordinates(reply).pop().map(|(_, p)| p)
}

/// [`original_move`] on the reply's last coordinate, read once.
fn original_step(maze: &Maze, last: Option<(i64, i64)>) -> Option<Pos> {
    let to = to_pos(maze.grid(), last?)?;
    let open = maze.grid().get(to).is_some_and(Tile::is_open);
    (open && king_step(maze.player(), to)).then_some(to)
}

/// The original solve replay: every step's reply through [`original_move`], at most
/// [`ORIGINAL_MOVE_LIMIT`] moves. `None` when the replies stop before a verdict.
pub fn original_solve(start: &Maze, replies: &[&str]) -> Option<Mark> {
    let lasts: Vec<_> = replies.iter().map(|r| last_coordinate(r)).collect();
    original_solve_on(start, &lasts)
}

/// [`original_solve`] on each reply's last coordinate, read once.
fn original_solve_on(start: &Maze, lasts: &[Option<(i64, i64)>]) -> Option<Mark> {
    let mut maze = start.clone();
    for (i, &last) in lasts.iter().enumerate() {
        if i >= ORIGINAL_MOVE_LIMIT {
            return Some(Mark::Fail);
        }
        match original_step(&maze, last) {
            None => return Some(Mark::Fail),
            Some(to) if to == maze.goal() => return Some(Mark::Success),
            Some(to) => maze = maze.with_player_at(to),
        }
    }
    (lasts.len() >= ORIGINAL_MOVE_LIMIT).then_some(Mark::Fail)
}

/// The original recognition: the words of the shape's list found whole, any case,
/// anywhere (offsets and words).
pub fn original_mentions(shape: Shape, reply: &str) -> Vec<(usize, &'static str)> {
    let mut out = Vec::new();
    for w in original_words(shape) {
        for at in super::text::find_words(reply, w, true) {
            out.push((at, *w));
        }
    }
    out
}

/// The original's placed templates of a shape for an `rows` x `cols` grid, as sets of
/// corridor cells (bit `r * cols + c`).
#[derive(Clone, Debug, Default)]
pub struct OriginalFamily {
    masks: HashSet<u128>,
}

impl OriginalFamily {
    /// Every base pattern of `shape` placed at every position that fits.
    pub fn new(shape: Shape, rows: usize, cols: usize) -> Self {
        let mut masks = HashSet::new();
        if rows * cols > 128 {
            return Self { masks };
        }
        let patterns = base_patterns(shape);
        for p in &patterns {
            let h = p.len();
            let w = p.first().map_or(0, Vec::len);
            if h == 0 || w == 0 || h > rows || w > cols {
                continue;
            }
            for dr in 0..=rows - h {
                for dc in 0..=cols - w {
                    let mut m = 0u128;
                    for (r, row) in p.iter().enumerate() {
                        for (c, &v) in row.iter().enumerate() {
                            if v == 1 {
                                m |= 1u128 << ((r + dr) * cols + c + dc);
                            }
                        }
                    }
                    masks.insert(m);
                }
            }
        }
        Self { masks }
    }

    /// How many distinct placed templates there are.
    pub fn len(&self) -> usize {
        self.masks.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.masks.is_empty()
    }

    /// Whether a grid's corridor (every open cell) is one of the placed templates.
    pub fn contains(&self, grid: &Grid) -> bool {
        mask_of(grid).is_some_and(|m| self.masks.contains(&m))
    }
}

fn mask_of(grid: &Grid) -> Option<u128> {
    if grid.rows() * grid.cols() > 128 {
        return None;
    }
    let mut m = 0u128;
    for p in grid.positions() {
        if grid.get(p).is_some_and(Tile::is_open) {
            m |= 1u128 << (p.row * grid.cols() + p.col);
        }
    }
    Some(m)
}

/// The base patterns of a shape from `original_templates.json`, in its order.
pub fn base_patterns(shape: Shape) -> Vec<Vec<Vec<u8>>> {
    #[derive(Deserialize)]
    struct File {
        patterns: HashMap<String, Vec<Vec<Vec<u8>>>>,
    }
    serde_json::from_str::<File>(ORIGINAL_TEMPLATES)
        .ok()
        .and_then(|mut f| f.patterns.remove(shape.name()))
        .unwrap_or_default()
}

/// The mazes in a reply that the original renderer could have written verbatim: every
/// candidate block re-rendered, kept when the reply holds that rendering.
pub fn verbatim_mazes(reply: &str, encoding: Encoding, rows: usize, cols: usize) -> Vec<Grid> {
    verbatim_blocks(reply, encoding, rows, cols)
        .into_iter()
        .map(|(_, g)| g)
        .collect()
}

/// [`verbatim_mazes`] with where each rendering stands in the reply (`[start, end)`).
pub fn verbatim_blocks(
    reply: &str,
    encoding: Encoding,
    rows: usize,
    cols: usize,
) -> Vec<([usize; 2], Grid)> {
    let mut out = Vec::new();
    match encoding {
        Encoding::Matrix => {
            let width = 2 * cols - 1;
            let lines: Vec<&str> = reply.split('\n').collect();
            if rows == 0 || lines.len() < rows {
                return out;
            }
            let mut starts = Vec::with_capacity(lines.len());
            let mut at = 0;
            for line in &lines {
                starts.push(at);
                at += line.len() + 1;
            }
            for s in 0..=lines.len() - rows {
                let window = &lines[s..s + rows];
                let mut rows_text = Vec::with_capacity(rows);
                for (k, line) in window.iter().enumerate() {
                    let part = if rows == 1 {
                        None
                    } else if k == 0 {
                        line.len().checked_sub(width).and_then(|at| line.get(at..))
                    } else if k + 1 == rows {
                        line.get(..width)
                    } else {
                        (line.len() == width).then_some(*line)
                    };
                    match part {
                        Some(p) => rows_text.push(p),
                        None => break,
                    }
                }
                if rows_text.len() != rows {
                    continue;
                }
                let block = rows_text.join("\n");
                if let Ok(g) = Encoding::Matrix.parse_grid(&block, rows, cols) {
                    if g.rows() == rows
                        && g.cols() == cols
                        && Encoding::Matrix.render_with(&g, CoordStyle::Spaced) == block
                    {
                        let first = starts[s] + lines[s].len() - rows_text[0].len();
                        let last = starts[s + rows - 1] + rows_text[rows - 1].len();
                        out.push(([first, last], g));
                    }
                }
            }
        }
        Encoding::CoordList => {
            for (at, _) in reply.match_indices("Walls:") {
                let rest = &reply[at..];
                let end = rest
                    .match_indices('\n')
                    .nth(3)
                    .map_or(rest.len(), |(i, _)| i);
                if let Ok(g) = Encoding::CoordList.parse_grid(&rest[..end], rows, cols) {
                    let r = Encoding::CoordList.render_with(&g, CoordStyle::Spaced);
                    if rest.starts_with(&r) {
                        out.push(([at, at + r.len()], g));
                    }
                }
            }
        }
    }
    out
}

/// The original generation check: some placed template with a distinct P and G, other
/// than the maze after the solve phase, appears verbatim in the reply.
pub fn original_generation(
    family: &OriginalFamily,
    after_solve: &Grid,
    encoding: Encoding,
    reply: &str,
) -> bool {
    let blocks = verbatim_blocks(reply, encoding, after_solve.rows(), after_solve.cols());
    !accepted_blocks(family, after_solve, &blocks).is_empty()
}

/// Of the verbatim mazes of a reply ([`verbatim_blocks`]), where those stand that
/// [`original_generation`] accepts.
fn accepted_blocks(
    family: &OriginalFamily,
    after_solve: &Grid,
    blocks: &[([usize; 2], Grid)],
) -> Vec<[usize; 2]> {
    blocks
        .iter()
        .filter(|(_, g)| {
            g != after_solve
                && g.find(Tile::Player).len() == 1
                && g.find(Tile::Goal).len() == 1
                && family.contains(g)
        })
        .map(|(span, _)| *span)
        .collect()
}

/// What the audit keeps between transcripts: today's template libraries and the original
/// families, by size.
#[derive(Debug, Default)]
pub struct AuditCache {
    strict: Libraries,
    original: HashMap<(Shape, usize, usize), Arc<OriginalFamily>>,
}

impl AuditCache {
    /// Nothing built yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// The original family of `shape` for a grid of this size.
    pub fn family(&mut self, shape: Shape, rows: usize, cols: usize) -> Arc<OriginalFamily> {
        self.original
            .entry((shape, rows, cols))
            .or_insert_with(|| Arc::new(OriginalFamily::new(shape, rows, cols)))
            .clone()
    }
}

/// One transcript scored three ways.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Audit {
    /// The encoding (from the path, else from the first maze).
    pub encoding: Option<Encoding>,
    /// The shape (from the path).
    pub shape: Option<Shape>,
    /// Rows and columns of the first maze.
    pub size: Option<(usize, usize)>,
    /// Whether the file records an API failure.
    pub api_error: bool,
    /// Whether it is a vision transcript (its maze was an image).
    pub vision: bool,
    /// The verdict lines as written.
    pub recorded: Marks,
    /// Today's verifiers.
    pub strict: Marks,
    /// The original checks.
    pub original: Marks,
    /// The cause of every phase where strict and original differ (`differences` in JSON).
    #[serde(rename = "differences")]
    pub causes: Vec<Difference>,
    /// The solve step (0-based) where the strict replay diverged, if it did.
    pub diverged_at: Option<usize>,
}

/// Scores an original transcript three ways.
pub fn audit(text: &str, hints: &Hints, cache: &mut AuditCache) -> Audit {
    let t = parse(text);
    audit_parsed(&t, hints, cache)
}

/// [`audit`] on a transcript already read.
pub fn audit_parsed(t: &OriginalTranscript, hints: &Hints, cache: &mut AuditCache) -> Audit {
    audit_on(t, hints, cache, None)
}

/// [`audit_parsed`] on `maze_file`, the trial's maze as the folder's `experiment_mazes/`
/// holds it, when there is one: it is the maze the original run played, so it is taken
/// over the one read back from the first prompt (whose spacing may not read back).
pub fn audit_on(
    t: &OriginalTranscript,
    hints: &Hints,
    cache: &mut AuditCache,
    maze_file: Option<Maze>,
) -> Audit {
    let recorded = Marks::from_array(t.closing.map(|o| o.and_then(Mark::from_outcome)));
    let mut a = Audit {
        encoding: hints.encoding.or(t.encoding),
        shape: hints.shape,
        size: None,
        api_error: t.api_error,
        vision: t.vision,
        recorded,
        strict: Marks::default(),
        original: Marks::default(),
        causes: Vec::new(),
        diverged_at: None,
    };
    if t.api_error {
        a.original = Marks::from_array([Some(Mark::Fail); 3]);
        a.causes = [Phase::Solve, Phase::Recognize, Phase::Generate]
            .map(|phase| Difference::new(phase, Cause::ApiErrorCountedAsFailure, None))
            .to_vec();
        return a;
    }
    let first = maze_file.or_else(|| {
        t.steps
            .first()
            .and_then(|s| s.maze.clone())
            .and_then(|g| Maze::from_grid(g).ok())
    });
    let (Some(maze0), Some(encoding)) = (first, a.encoding) else {
        return a;
    };
    a.size = Some((maze0.rows(), maze0.cols()));
    // Each reply's last coordinate, the original way: read once for the original replay,
    // the maze after it and the comparison with the strict replay.
    let lasts: Vec<Option<(i64, i64)>> =
        t.steps.iter().map(|s| last_coordinate(&s.reply)).collect();
    a.original.solve = original_solve_on(&maze0, &lasts);
    // The maze after the solve phase, as the original moved.
    let mut after = maze0.clone();
    for &last in &lasts {
        match original_step(&after, last) {
            Some(to) if to != after.goal() => after = after.with_player_at(to),
            _ => break,
        }
    }
    let Some(shape) = a.shape else {
        return a;
    };
    if maze0.rows() > MAX_SIZE || maze0.cols() > MAX_SIZE {
        return a;
    }
    let movement = shape.movement();
    let library = cache.strict.get(maze0.rows()).clone();
    let mut setup = TrialSetup::new(shape, encoding, maze0.clone());
    setup.protocol = Protocol::Combined;
    let mut trial = Trial::new(setup, library.clone());
    let mut solve_cause = None;
    // The step the solve difference comes from: where its cause was seen, else the last.
    let mut cause_step = None;
    let mut last_step = None;
    for (i, step) in t.steps.iter().enumerate() {
        if trial.phase() != Phase::Solve {
            break;
        }
        last_step = Some(i);
        let before = trial.current().clone();
        let original_read = lasts[i].and_then(|p| to_pos(before.grid(), p));
        let original_to = original_step(&before, lasts[i]);
        // Where the original moved: the next prompt's maze, else its own rule.
        let shown_next = t
            .steps
            .get(i + 1)
            .and_then(|s| s.maze.as_ref())
            .and_then(|g| g.find(Tile::Player).first().copied());
        let original_pos = shown_next.or(original_to);
        // The move the strict verifier read is the cell its verdict extracted (what
        // [`super::verify::read_move`] gives, without reading the reply a second time).
        let strict_read = match trial.submit(&step.reply).map(|v| v.extracted) {
            Some(Extracted::Cell(p)) => Some(p),
            _ => None,
        };
        let strict_pos = if trial.solve_verdict().is_some_and(|v| v.passed()) {
            Some(before.goal())
        } else if trial.current().player() != before.player() {
            Some(trial.current().player())
        } else {
            None
        };
        if strict_read != original_read && solve_cause.is_none() {
            solve_cause = Some(Cause::DifferentCoordinateRead);
            cause_step = Some(i);
        } else if solve_cause.is_none()
            && original_to.is_some()
            && strict_pos.is_none()
            && movement == Movement::Four
            && original_to.is_some_and(|to| !movement.is_step(before.player(), to))
        {
            solve_cause = Some(Cause::DiagonalOnFourDirectionShape);
            cause_step = Some(i);
        }
        if strict_pos.is_some() && strict_pos != original_pos {
            a.diverged_at = Some(i);
            break;
        }
    }
    a.strict.solve = if a.diverged_at.is_some() {
        Some(Mark::Diverged)
    } else {
        trial
            .solve_verdict()
            .and_then(|v| Mark::from_outcome(v.outcome))
    };
    if a.strict.solve != a.original.solve && a.strict.solve.is_some() && a.original.solve.is_some()
    {
        let step = cause_step.or(last_step);
        let read = step.and_then(|i| t.steps.get(i)).map(|st| {
            let strict = read_move_at(&st.reply).map(|(_, span)| span);
            let original = original_move_span(&st.reply).into_iter().collect();
            Reading::of(step, &st.reply, strict, original)
        });
        a.causes.push(Difference::new(
            Phase::Solve,
            solve_cause.unwrap_or(Cause::Other),
            read,
        ));
    }
    let recognize_reply = t.combined_reply.as_deref().or(t.recognize_reply.as_deref());
    let generate_reply = t.combined_reply.as_deref().or(t.generate_reply.as_deref());
    if let Some(reply) = recognize_reply {
        recognition(&mut a, shape, reply);
    }
    let Some(reply) = generate_reply else {
        return a;
    };
    // Generation.
    let family = cache.family(shape, maze0.rows(), maze0.cols());
    // The mazes the original renderer could have written, found once for the original
    // check and for naming a difference.
    let blocks = verbatim_blocks(reply, encoding, maze0.rows(), maze0.cols());
    let original = accepted_blocks(&family, after.grid(), &blocks);
    let orig_gen = !original.is_empty();
    let strict_gen = verify_generation(&maze0, shape, encoding, &library, reply).passed();
    a.original.generate = Some(Mark::of(orig_gen));
    a.strict.generate = Some(Mark::of(strict_gen));
    if orig_gen != strict_gen {
        let quoted = |g: &Grid| blocks.iter().any(|(_, m)| m == g);
        let verbatim_outside = || blocks.iter().any(|(_, m)| !family.contains(m));
        let cause = if orig_gen && quoted(maze0.grid()) {
            Cause::OriginalQuotedBack
        } else if strict_gen && quoted(after.grid()) {
            Cause::NoveltyAfterSolving
        } else if strict_gen && verbatim_outside() {
            Cause::TemplateOutsideOriginalFamilies
        } else if strict_gen {
            Cause::OtherSpacing
        } else {
            Cause::Other
        };
        let strict = encoding.extract_span(reply);
        a.causes.push(Difference::new(
            Phase::Generate,
            cause,
            Some(Reading::of(None, reply, strict, original)),
        ));
    }
    a
}

/// The original and strict recognition of one reply, with the cause of a difference.
fn recognition(a: &mut Audit, shape: Shape, reply: &str) {
    let mentions = original_mentions(shape, reply);
    let orig_rec = !mentions.is_empty();
    let strict_rec = verify_recognition(shape, reply).passed();
    a.original.recognize = Some(Mark::of(orig_rec));
    a.strict.recognize = Some(Mark::of(strict_rec));
    if orig_rec != strict_rec {
        let cause = if strict_rec {
            Cause::WordOutsideOriginalList
        } else if super::verify::mentions(reply)
            .iter()
            .any(|m| m.shape == shape)
        {
            // Strict saw the shape named, and read it as negated, hedged or not the answer.
            Cause::NegatedOrHedgedMention
        } else if mentions.iter().all(|(_, w)| w.len() == 1) {
            let in_size = mentions
                .iter()
                .any(|&(at, w)| w.eq_ignore_ascii_case("x") && between_numbers(reply, at));
            if in_size {
                Cause::LetterInsideGridSize
            } else {
                Cause::SingleLetterMention
            }
        } else {
            Cause::NegatedOrHedgedMention
        };
        let strict = recognize_at(reply).map(|(_, span)| span);
        let original = mentions.iter().map(|&(at, w)| [at, at + w.len()]).collect();
        a.causes.push(Difference::new(
            Phase::Recognize,
            cause,
            Some(Reading::of(None, reply, strict, original)),
        ));
    }
}

/// Whether the letter at `at` stands between two numbers (`5 x 5`, `5x5`).
fn between_numbers(text: &str, at: usize) -> bool {
    let before = text[..at].trim_end().chars().next_back();
    let after = text
        .get(at + 1..)
        .and_then(|s| s.trim_start().chars().next());
    before.is_some_and(|c| c.is_ascii_digit()) && after.is_some_and(|c| c.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A matrix maze from its rows.
    fn grid(rows: &str) -> Grid {
        Encoding::Matrix
            .parse_grid(rows, 0, 0)
            .expect("a fixture maze reads")
    }

    /// The 5x5 square outline, P at (0, 0), G at (0, 2).
    const SQUARE: &str = "P 0 G 0 0\n0 1 1 1 0\n0 1 1 1 0\n0 1 1 1 0\n0 0 0 0 0";
    /// A new square maze of the same corridor.
    const NEW_SQUARE: &str = "G 0 0 0 0\n0 1 1 1 0\n0 1 1 1 0\n0 1 1 1 0\n0 0 0 0 P";

    fn hints(shape: Shape, encoding: Encoding) -> Hints {
        Hints {
            encoding: Some(encoding),
            shape: Some(shape),
            size: Some((5, 5)),
        }
    }

    /// Writes a transcript the way the original code does: the first prompt, a reply
    /// (glued to the prompt's last sentence when `glued`), an update prompt after every
    /// move taken that did not reach the goal, `SOLVE` right after the solve phase, the
    /// combined prompt, its reply, then `RECOGNIZE` and `GENERATE`. `recorded` holds the
    /// three words the original code wrote.
    fn original_file(
        maze: &str,
        encoding: Encoding,
        shape: Shape,
        replies: &[&str],
        glued: bool,
        combined: &str,
        recorded: [&str; 3],
    ) -> String {
        let mut m = Maze::from_grid(grid(maze)).expect("a fixture maze has P and G");
        let rules = if shape.movement() == Movement::Four {
            "You can move up, down, left, or right."
        } else {
            "You can move either up, down, left, right, or any diagonal."
        };
        let sep = if glued { "" } else { "\n" };
        let mut out = format!(
            "{FIRST_PROMPT_START} {rules}\n{MAZE_INTRO}\n\n{}\n\n{NEXT_MOVE}",
            encoding.render_with(m.grid(), CoordStyle::Spaced)
        );
        for (i, reply) in replies.iter().enumerate() {
            out.push_str(sep);
            out.push_str(reply);
            match original_move(&m, reply) {
                Some(to) if to != m.goal() && i + 1 < replies.len() => {
                    m = m.with_player_at(to);
                    out.push_str(&format!(
                        "\n\n{UPDATE_INTRO}\n\n{}\n\n{NEXT_MOVE}",
                        encoding.render_with(m.grid(), CoordStyle::Spaced)
                    ));
                }
                _ => break,
            }
        }
        out.push_str(&format!(
            "\n\nSOLVE: {}\n{COMBINED_START}\n* A new maze of the same shape.\n{COMBINED_LAST}\n{combined}\n\nRECOGNIZE: {}\n\nGENERATE: {}\n",
            recorded[0], recorded[1], recorded[2]
        ));
        out
    }

    fn marks(s: [&str; 3]) -> Marks {
        Marks::from_array(s.map(|w| match w {
            "SUCCESS" => Some(Mark::Success),
            "FAIL" => Some(Mark::Fail),
            "DIVERGED" => Some(Mark::Diverged),
            _ => None,
        }))
    }

    fn causes(a: &Audit) -> Vec<(Phase, Cause)> {
        a.causes.iter().map(|d| (d.phase, d.cause)).collect()
    }

    /// Audits a fixture and checks the original-compatible scorer reproduces its lines.
    fn audited(text: &str, shape: Shape, encoding: Encoding) -> Audit {
        let a = audit(text, &hints(shape, encoding), &mut AuditCache::new());
        assert_eq!(
            a.original, a.recorded,
            "the original-compatible scorer reproduces the recorded lines:\n{text}"
        );
        a
    }

    #[test]
    fn a_clean_success_with_a_glued_reply_scores_the_same_three_ways() {
        let text = original_file(
            SQUARE,
            Encoding::Matrix,
            Shape::Square,
            &["(0, 1)", "(0, 2)"],
            true,
            &format!("Shape: square\n\n{NEW_SQUARE}"),
            ["SUCCESS", "SUCCESS", "SUCCESS"],
        );
        assert!(
            text.contains(&format!("{NEXT_MOVE}(0, 1)")),
            "the reply is glued"
        );
        let t = parse(&text);
        assert_eq!(t.steps.len(), 2, "two solve steps");
        assert_eq!(t.steps[0].reply, "(0, 1)", "the glued reply is split off");
        assert_eq!(
            t.steps[1].maze.as_ref().map(|g| g.find(Tile::Player)),
            Some(vec![Pos::new(0, 1)]),
            "the update prompt's maze shows the move"
        );
        let a = audited(&text, Shape::Square, Encoding::Matrix);
        assert_eq!(a.strict, marks(["SUCCESS", "SUCCESS", "SUCCESS"]), "{a:?}");
        assert!(a.causes.is_empty(), "no differences: {a:?}");
    }

    #[test]
    fn a_diagonal_on_a_four_direction_shape_passes_the_original_and_fails_strict() {
        let maze = "0 P 0 1 1\nG 1 0 1 1\n0 0 0 1 1\n1 1 1 1 1\n1 1 1 1 1";
        let text = original_file(
            maze,
            Encoding::Matrix,
            Shape::Square,
            &["I go to (1, 0)."],
            false,
            "A square.",
            ["SUCCESS", "SUCCESS", "FAIL"],
        );
        let a = audited(&text, Shape::Square, Encoding::Matrix);
        assert_eq!(a.strict, marks(["FAIL", "SUCCESS", "FAIL"]), "{a:?}");
        assert_eq!(
            causes(&a),
            vec![(Phase::Solve, Cause::DiagonalOnFourDirectionShape)]
        );
    }

    #[test]
    fn a_different_coordinate_read_marks_the_strict_replay_diverged() {
        let text = original_file(
            SQUARE,
            Encoding::Matrix,
            Shape::Square,
            &["Move to (0, 1), moving from (0, 0)."],
            false,
            "A square.",
            ["FAIL", "SUCCESS", "FAIL"],
        );
        let a = audited(&text, Shape::Square, Encoding::Matrix);
        assert_eq!(a.strict.solve, Some(Mark::Diverged), "{a:?}");
        assert_eq!(a.diverged_at, Some(0), "at the first step");
        assert_eq!(
            causes(&a),
            vec![(Phase::Solve, Cause::DifferentCoordinateRead)]
        );
    }

    /// A cross solved, whose recognition reply names no shape but says "5 x 5".
    fn cross_named_by_grid_size() -> String {
        let cross = "P 1 1 1 0\n1 0 1 0 1\n1 1 0 1 1\n1 0 1 0 1\n0 1 1 1 G";
        original_file(
            cross,
            Encoding::Matrix,
            Shape::Cross,
            &["(1, 1)", "(2, 2)", "(3, 3)", "(4, 4)"],
            false,
            "The grid is 5 x 5 and the corridor looks like a ribbon.",
            ["SUCCESS", "SUCCESS", "FAIL"],
        )
    }

    #[test]
    fn an_x_inside_a_grid_size_names_the_cross_only_for_the_original() {
        let a = audited(&cross_named_by_grid_size(), Shape::Cross, Encoding::Matrix);
        assert_eq!(a.strict, marks(["SUCCESS", "FAIL", "FAIL"]), "{a:?}");
        assert_eq!(
            causes(&a),
            vec![(Phase::Recognize, Cause::LetterInsideGridSize)]
        );
    }

    #[test]
    fn a_negated_mention_passes_the_original_and_fails_strict() {
        let text = original_file(
            SQUARE,
            Encoding::Matrix,
            Shape::Square,
            &["(0, 1)", "(0, 2)"],
            false,
            "It is not a square. Final answer: spiral.",
            ["SUCCESS", "SUCCESS", "FAIL"],
        );
        let a = audited(&text, Shape::Square, Encoding::Matrix);
        assert_eq!(a.strict, marks(["SUCCESS", "FAIL", "FAIL"]), "{a:?}");
        assert_eq!(
            causes(&a),
            vec![(Phase::Recognize, Cause::NegatedOrHedgedMention)]
        );
    }

    #[test]
    fn a_lone_letter_names_the_c_only_for_the_original() {
        let text = original_file(
            SQUARE,
            Encoding::Matrix,
            Shape::C,
            &["(0, 1)", "(0, 2)"],
            false,
            "Option (c) is tempting, but it is a triangle.",
            ["SUCCESS", "SUCCESS", "FAIL"],
        );
        let a = audited(&text, Shape::C, Encoding::Matrix);
        assert_eq!(a.strict, marks(["SUCCESS", "FAIL", "FAIL"]), "{a:?}");
        assert_eq!(
            causes(&a),
            vec![(Phase::Recognize, Cause::SingleLetterMention)]
        );
    }

    #[test]
    fn a_word_outside_the_original_list_passes_strict_only() {
        let text = original_file(
            SQUARE,
            Encoding::Matrix,
            Shape::Triangle,
            &["(0, 1)", "(0, 2)"],
            false,
            "The corridor is triangular.",
            ["SUCCESS", "FAIL", "FAIL"],
        );
        let a = audited(&text, Shape::Triangle, Encoding::Matrix);
        assert_eq!(a.strict, marks(["SUCCESS", "SUCCESS", "FAIL"]), "{a:?}");
        assert_eq!(
            causes(&a),
            vec![(Phase::Recognize, Cause::WordOutsideOriginalList)]
        );
    }

    /// A square solved, whose generation reply quotes the maze as first shown.
    fn quoted_back() -> String {
        original_file(
            SQUARE,
            Encoding::Matrix,
            Shape::Square,
            &["(0, 1)", "(0, 2)"],
            false,
            &format!("A square. Here it is:\n{SQUARE}"),
            ["SUCCESS", "SUCCESS", "SUCCESS"],
        )
    }

    #[test]
    fn the_original_maze_quoted_back_counts_as_a_generation_for_the_original_only() {
        let a = audited(&quoted_back(), Shape::Square, Encoding::Matrix);
        assert_eq!(a.strict, marks(["SUCCESS", "SUCCESS", "FAIL"]), "{a:?}");
        assert_eq!(
            causes(&a),
            vec![(Phase::Generate, Cause::OriginalQuotedBack)]
        );
    }

    /// The texts each scorer read behind a trial's one difference.
    fn read_texts(a: &Audit) -> (Option<usize>, Vec<String>, Vec<String>) {
        let d = a.causes.first().expect("one difference");
        let r = d.read.as_ref().expect("a reading");
        let texts = |spans: &[[usize; 2]]| -> Vec<String> {
            spans
                .iter()
                .map(|[s, e]| r.reply[*s..*e].to_string())
                .collect()
        };
        (r.step, texts(&r.strict), texts(&r.original))
    }

    #[test]
    fn each_difference_shows_the_part_of_the_reply_each_scorer_read() {
        let text = original_file(
            SQUARE,
            Encoding::Matrix,
            Shape::Square,
            &[
                "(0, 1)",
                "Move to (1, 0)... no: **move to** `(0, 2)`, moving from (0, 1).",
            ],
            false,
            "A square.",
            ["FAIL", "SUCCESS", "FAIL"],
        );
        let a = audited(&text, Shape::Square, Encoding::Matrix);
        assert_eq!(
            read_texts(&a),
            (Some(1), vec!["(0, 2)".to_string()], vec!["(0, 1)".to_string()]),
            "strict read the move after the last \"move to\" (markup around it kept in place), the original the last coordinate"
        );
        let a = audited(&cross_named_by_grid_size(), Shape::Cross, Encoding::Matrix);
        assert_eq!(
            read_texts(&a),
            (None, vec![], vec!["x".to_string()]),
            "the original read the x of 5 x 5; strict read no shape"
        );
        let a = audited(&quoted_back(), Shape::Square, Encoding::Matrix);
        assert_eq!(
            read_texts(&a),
            (None, vec![SQUARE.to_string()], vec![SQUARE.to_string()]),
            "both read the quoted maze"
        );
        let coords = "Walls: (0, 1)\nEmpty: (1, 1)\nPlayer position: (0, 0)\nGoal: (1, 0)";
        let reply = format!("Sure.\n{coords}\nThat is all.");
        assert_eq!(
            Encoding::CoordList
                .extract_span(&reply)
                .map(|[s, e]| &reply[s..e]),
            Some(coords),
            "a coordinate list's span runs from its Walls line to its last key line"
        );
        let reply = format!("Old:\n{SQUARE}\n\nNew:\n{NEW_SQUARE}\nDone.");
        assert_eq!(
            Encoding::Matrix
                .extract_span(&reply)
                .map(|[s, e]| &reply[s..e]),
            Some(NEW_SQUARE),
            "a matrix span is the last block of rows"
        );
        let spaced = Encoding::CoordList.render_with(&grid(SQUARE), CoordStyle::Spaced);
        let reply = format!("Here: {spaced}\nthanks");
        let blocks = verbatim_blocks(&reply, Encoding::CoordList, 5, 5);
        assert_eq!(
            blocks
                .iter()
                .map(|([s, e], _)| &reply[*s..*e])
                .collect::<Vec<_>>(),
            vec![spaced.as_str()],
            "a verbatim coordinate list is found where it stands"
        );
    }

    #[test]
    fn the_maze_after_solving_repeated_fails_only_the_original() {
        let after = "0 P G 0 0\n0 1 1 1 0\n0 1 1 1 0\n0 1 1 1 0\n0 0 0 0 0";
        let text = original_file(
            SQUARE,
            Encoding::Matrix,
            Shape::Square,
            &["(0, 1)", "(3, 3)"],
            false,
            &format!("A square:\n{after}"),
            ["FAIL", "SUCCESS", "FAIL"],
        );
        let a = audited(&text, Shape::Square, Encoding::Matrix);
        assert_eq!(a.strict, marks(["FAIL", "SUCCESS", "SUCCESS"]), "{a:?}");
        assert_eq!(
            causes(&a),
            vec![(Phase::Generate, Cause::NoveltyAfterSolving)]
        );
    }

    #[test]
    fn a_correct_maze_with_other_spacing_fails_only_the_original() {
        let spaced: String = NEW_SQUARE
            .lines()
            .map(|l| format!("[{}]", l.split(' ').collect::<Vec<_>>().join(", ")))
            .collect::<Vec<_>>()
            .join("\n");
        let text = original_file(
            SQUARE,
            Encoding::Matrix,
            Shape::Square,
            &["(0, 1)", "(0, 2)"],
            false,
            &format!("A square:\n{spaced}"),
            ["SUCCESS", "SUCCESS", "FAIL"],
        );
        let a = audited(&text, Shape::Square, Encoding::Matrix);
        assert_eq!(a.strict, marks(["SUCCESS", "SUCCESS", "SUCCESS"]), "{a:?}");
        assert_eq!(causes(&a), vec![(Phase::Generate, Cause::OtherSpacing)]);
    }

    #[test]
    fn a_maze_of_todays_templates_outside_the_original_families_passes_strict_only() {
        let library = crate::core::templates::TemplateLibrary::new(5);
        let family = OriginalFamily::new(Shape::C, 5, 5);
        let c = crate::core::generate::generate_set(Shape::C, 5, 7, &library)
            .expect("C mazes generate")
            .into_iter()
            .find(|m| !family.contains(m.grid()))
            .expect("today's C templates include one the original families lack");
        let text = original_file(
            SQUARE,
            Encoding::Matrix,
            Shape::C,
            &["(0, 1)", "(0, 2)"],
            false,
            &format!("A C:\n{}", Encoding::Matrix.render(c.grid())),
            ["SUCCESS", "SUCCESS", "FAIL"],
        );
        let a = audited(&text, Shape::C, Encoding::Matrix);
        assert_eq!(a.strict.generate, Some(Mark::Success), "{a:?}");
        assert_eq!(
            causes(&a),
            vec![(Phase::Generate, Cause::TemplateOutsideOriginalFamilies)]
        );
    }

    #[test]
    fn coordinate_list_transcripts_are_read_and_scored() {
        let new = Encoding::CoordList.render_with(&grid(NEW_SQUARE), CoordStyle::Spaced);
        let text = original_file(
            SQUARE,
            Encoding::CoordList,
            Shape::Square,
            &["(0, 1)", "(0, 2)"],
            true,
            &format!("Square.\n{new}"),
            ["SUCCESS", "SUCCESS", "SUCCESS"],
        );
        assert!(text.contains("Walls: (1, 1)"), "coordinate list prompt");
        let t = parse(&text);
        assert_eq!(t.encoding, Some(Encoding::CoordList), "detected");
        let a = audited(&text, Shape::Square, Encoding::CoordList);
        assert_eq!(a.strict, marks(["SUCCESS", "SUCCESS", "SUCCESS"]), "{a:?}");
        assert!(a.causes.is_empty(), "no differences: {a:?}");
    }

    #[test]
    fn api_failure_files_are_api_errors_never_model_failures() {
        let text = "Query did not run: experiment_mazes/5x5/square/5x5_square_1.npy\nError: rate limit\n\nSOLVE: FAIL\n\nRECOGNIZE: FAIL\n\nGENERATE: FAIL\n";
        let a = audited(text, Shape::Square, Encoding::Matrix);
        assert!(a.api_error, "an API failure");
        assert_eq!(a.strict, Marks::default(), "strict has nothing to judge");
        assert_eq!(
            causes(&a),
            vec![
                (Phase::Solve, Cause::ApiErrorCountedAsFailure),
                (Phase::Recognize, Cause::ApiErrorCountedAsFailure),
                (Phase::Generate, Cause::ApiErrorCountedAsFailure)
            ]
        );
    }

    /// Replies of every kind the move reader tells apart: labelled moves, bare pairs,
    /// restated lists and mazes, the answer's template, refusals, hedges, no pair at all.
    const MOVE_REPLIES: &[&str] = &[
        "(0, 1)",
        "Move: (0, 1)",
        "Move to (1, 0)... no: **move to** `(0, 2)`, moving from (0, 1).",
        "I go to (1, 1).",
        "Moving from (0, 0).",
        "I don't want to move to (1, 1). Move: (0, 1)",
        "Walls: (1, 1), (1, 2)\nEmpty: (0, 1), (0, 3)\nPlayer position: (0, 0)\nGoal: (0, 2)",
        "Walls: (1, 1)\nPlayer position: (0, 0)\nGoal: (0, 2)\n\nMove: (0, 1)",
        "Reply in the form: Move: (row, col)",
        "Move: (row, col) (0, 1)",
        "P 0 G 0 0\n0 1 1 1 0\nMy next move is (0, 1).",
        "The goal is at (0, 2) and I am at (0, 0), so (0, 1) it is.",
        "Maybe (1, 0) or (0, 1)? I pick (0, 1).",
        "(-1, 0)",
        "( 0 , 1 )",
        "row 0, column 1",
        "",
        "No idea.",
    ];

    #[test]
    fn the_strict_move_of_a_step_is_the_cell_read_move_reads() {
        // The audit takes the strict move of each step from the trial's verdict instead of
        // reading the reply a second time: the two must agree on every reply.
        #[cfg_attr(target_arch = "wasm32", allow(unused_mut))]
        let mut replies: Vec<String> = MOVE_REPLIES.iter().map(|r| r.to_string()).collect();
        #[cfg(not(target_arch = "wasm32"))]
        {
            let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/real-replies");
            for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
                let text = std::fs::read_to_string(entry.path()).unwrap_or_default();
                let items: Vec<serde_json::Value> = serde_json::from_str(&text).unwrap_or_default();
                replies.extend(
                    items
                        .iter()
                        .filter_map(|i| i["reply"].as_str().map(str::to_string)),
                );
            }
        }
        let library = Arc::new(crate::core::templates::TemplateLibrary::new(5));
        let maze = Maze::from_grid(grid(SQUARE)).expect("P and G");
        for shape in [Shape::Square, Shape::Cross] {
            for reply in &replies {
                let mut setup = TrialSetup::new(shape, Encoding::Matrix, maze.clone());
                setup.protocol = Protocol::Combined;
                let mut trial = Trial::new(setup, library.clone());
                let extracted = trial.submit(reply).map(|v| v.extracted);
                let read = match extracted {
                    Some(Extracted::Cell(p)) => Some(p),
                    _ => None,
                };
                assert_eq!(
                    read,
                    crate::core::verify::read_move(reply),
                    "{shape}: {reply:?}"
                );
            }
        }
    }

    #[test]
    fn the_original_replay_reads_each_replys_last_coordinate_once() {
        // The audit reads each reply's last coordinate once, for the original replay, the
        // maze after it and each step's comparison with strict.
        let maze = Maze::from_grid(grid(SQUARE)).expect("P and G");
        for reply in MOVE_REPLIES {
            assert_eq!(
                original_step(&maze, last_coordinate(reply)),
                original_move(&maze, reply),
                "{reply:?}"
            );
        }
        let back_and_forth = |n: usize| -> Vec<&str> {
            (0..n)
                .map(|i| if i % 2 == 0 { "(0, 1)" } else { "(0, 0)" })
                .collect()
        };
        let cases: Vec<(Vec<&str>, Option<Mark>)> = vec![
            (vec!["(0, 1)", "I go to (0, 2)."], Some(Mark::Success)),
            (vec!["(0, 1)", "(0, 1)"], Some(Mark::Fail)),
            (vec!["(1, 1)"], Some(Mark::Fail)),
            (vec!["none"], Some(Mark::Fail)),
            (vec![], None),
            (back_and_forth(4), None),
            (back_and_forth(16), Some(Mark::Fail)),
            (back_and_forth(17), Some(Mark::Fail)),
        ];
        for (replies, want) in cases {
            assert_eq!(original_solve(&maze, &replies), want, "{replies:?}");
        }
    }

    #[test]
    fn original_coordinates_allow_spaces_and_minus_signs() {
        let found: Vec<(i64, i64)> = original_coordinates("(1,2) then ( -1 , 3 ) not (a, b) (4, 5")
            .into_iter()
            .map(|(_, p)| p)
            .collect();
        assert_eq!(found, vec![(1, 2), (-1, 3)]);
    }

    #[test]
    fn the_original_families_give_the_stated_template_counts() {
        let stated = [(5, [14, 10, 8, 23, 22, 5]), (7, [55, 35, 112, 139, 95, 30])];
        let shapes = [
            Shape::Square,
            Shape::Cross,
            Shape::Spiral,
            Shape::Triangle,
            Shape::C,
            Shape::Z,
        ];
        for (n, counts) in stated {
            for (s, want) in shapes.iter().zip(counts) {
                assert_eq!(OriginalFamily::new(*s, n, n).len(), want, "{n}x{n} {s}");
            }
        }
    }

    #[test]
    fn every_cause_has_a_distinct_snake_case_name() {
        let names: HashSet<&str> = Cause::ALL.iter().map(|c| c.name()).collect();
        assert_eq!(names.len(), Cause::ALL.len(), "distinct");
        for c in Cause::ALL {
            let json = serde_json::to_string(&c).expect("serializes");
            assert_eq!(json, format!("\"{}\"", c.name()), "serde matches name()");
        }
    }
}

/// The generation part of a human result file of the original page.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct HumanGeneration {
    /// Whether the page accepted the generated maze.
    pub valid: bool,
    /// The shape the page judged it.
    pub shape: Option<String>,
    /// The open cells, each `[r, c]`.
    pub generated_shape: Vec<[i64; 2]>,
    /// Where the generated maze starts, `[r, c]`.
    pub start_position: Option<[i64; 2]>,
    /// Where it ends, `[r, c]`.
    pub end_position: Option<[i64; 2]>,
    /// The page's feedback text.
    pub feedback: Option<String>,
    /// The page's path ratio.
    pub path_ratio: Option<f64>,
}

/// `maze_type` of a human result file.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct HumanMazeType {
    /// The size as the page wrote it (`"5x5"` or a number).
    pub size: serde_json::Value,
    /// The shape's name.
    pub shape: String,
}

/// One human result file of the original page (ORIGINAL_DATA.md "Human results").
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct HumanFile {
    /// The participant.
    pub participant_id: String,
    /// The maze file's name, e.g. `5x5_C_3.npy`.
    pub maze_file: String,
    /// The maze's size and shape.
    pub maze_type: HumanMazeType,
    /// The moves that landed on an open cell, as direction words.
    pub moves: Vec<String>,
    /// Moves counted by the page.
    pub total_moves: Option<u64>,
    /// Seconds.
    pub completion_time: Option<f64>,
    /// When the file was written.
    pub timestamp: serde_json::Value,
    /// Whether the player reached the goal.
    pub maze_complete: bool,
    /// Whether the phase ended on a wall or the edge.
    pub failed: bool,
    /// The page's phase when saved.
    pub phase: serde_json::Value,
    /// The shape chosen from the list.
    pub recognized_shape: Option<String>,
    /// Whether the page judged the choice correct.
    pub recognition_correct: Option<bool>,
    /// The generated corridor.
    pub generation_result: Option<HumanGeneration>,
    /// How the maze was generated.
    pub generation_method: serde_json::Value,
    /// The coordinates the participant entered.
    pub generation_coordinates: serde_json::Value,
}

/// Reads a human result file.
pub fn parse_human(json: &str) -> Result<HumanFile, String> {
    serde_json::from_str(json).map_err(|e| format!("not a human result file: {e}"))
}

/// The step of a direction word (`up`, `down-left`, …).
pub fn direction(word: &str) -> Option<(isize, isize)> {
    Some(match word.trim().to_ascii_lowercase().as_str() {
        "up" => (-1, 0),
        "down" => (1, 0),
        "left" => (0, -1),
        "right" => (0, 1),
        "up-left" => (-1, -1),
        "up-right" => (-1, 1),
        "down-left" => (1, -1),
        "down-right" => (1, 1),
        _ => return None,
    })
}

/// Replays human moves under `movement`: the solve mark, and whether a diagonal on a
/// 4-direction rule is what failed it.
fn replay_human(h: &HumanFile, maze: &Maze, movement: Movement) -> (Option<Mark>, bool) {
    let mut at = maze.player();
    for w in &h.moves {
        let Some((dr, dc)) = direction(w) else {
            return (Some(Mark::Fail), false);
        };
        let Some(to) = at.offset(dr, dc) else {
            return (Some(Mark::Fail), false);
        };
        let open = maze.grid().get(to).is_some_and(Tile::is_open);
        if !movement.is_step(at, to) {
            return (Some(Mark::Fail), true);
        }
        if !open {
            return (Some(Mark::Fail), false);
        }
        at = to;
    }
    if h.maze_complete {
        // The move onto the goal is not listed: it must be one step away.
        if movement.is_step(at, maze.goal()) {
            (Some(Mark::Success), false)
        } else {
            (Some(Mark::Fail), king_step(at, maze.goal()))
        }
    } else if h.failed {
        (Some(Mark::Fail), false)
    } else {
        (None, false)
    }
}

/// The generated maze of a human file: its open cells, P at the start and G at the end.
pub fn human_generated_grid(g: &HumanGeneration, rows: usize, cols: usize) -> Option<Grid> {
    let pos = |[r, c]: [i64; 2]| {
        let p = Pos::new(usize::try_from(r).ok()?, usize::try_from(c).ok()?);
        (p.row < rows && p.col < cols).then_some(p)
    };
    let mut grid = Grid::walls(rows, cols);
    for &cell in &g.generated_shape {
        grid.set(pos(cell)?, Tile::Empty);
    }
    grid.set(pos(g.start_position?)?, Tile::Player);
    grid.set(pos(g.end_position?)?, Tile::Goal);
    Some(grid)
}

/// Scores a human result file three ways on its maze: recorded (the page's own fields),
/// strict (moves replayed with diagonals only on 8-direction shapes; the chosen shape; the
/// generated corridor through today's generation checks) and original (diagonals on every
/// shape; the generated corridor against the original families).
pub fn audit_human(h: &HumanFile, shape: Shape, maze: &Maze, cache: &mut AuditCache) -> Audit {
    let solved = if h.maze_complete {
        Some(Mark::Success)
    } else if h.failed {
        Some(Mark::Fail)
    } else {
        None
    };
    let recorded = Marks {
        solve: solved,
        recognize: h.recognition_correct.map(Mark::of),
        generate: h.generation_result.as_ref().map(|g| Mark::of(g.valid)),
    };
    let mut a = Audit {
        encoding: None,
        shape: Some(shape),
        size: Some((maze.rows(), maze.cols())),
        api_error: false,
        vision: false,
        recorded,
        strict: Marks::default(),
        original: Marks::default(),
        causes: Vec::new(),
        diverged_at: None,
    };
    let (strict_solve, diagonal) = replay_human(h, maze, shape.movement());
    let (original_solve, _) = replay_human(h, maze, Movement::Eight);
    a.strict.solve = strict_solve;
    a.original.solve = original_solve;
    if strict_solve != original_solve && strict_solve.is_some() && original_solve.is_some() {
        // The moves as one line: the original followed them all; strict stopped at the
        // first diagonal.
        let reply = h.moves.join(", ");
        let mut at = 0;
        let mut stopped = None;
        for w in &h.moves {
            if direction(w).is_some_and(|(dr, dc)| dr != 0 && dc != 0) {
                stopped = Some([at, at + w.len()]);
                break;
            }
            at += w.len() + 2;
        }
        let whole = vec![[0, reply.len()]];
        a.causes.push(Difference::new(
            Phase::Solve,
            if diagonal {
                Cause::DiagonalOnFourDirectionShape
            } else {
                Cause::Other
            },
            Some(Reading::of(None, &reply, stopped, whole)),
        ));
    }
    let chosen = h
        .recognized_shape
        .as_deref()
        .map(|s| Shape::parse(s).ok() == Some(shape));
    a.strict.recognize = chosen.map(Mark::of);
    a.original.recognize = chosen.map(Mark::of);
    if let Some(g) = &h.generation_result {
        let grid = human_generated_grid(g, maze.rows(), maze.cols());
        let strict_ok = grid.as_ref().is_some_and(|grid| {
            maze.rows() <= MAX_SIZE
                && verify_generation(
                    maze,
                    shape,
                    Encoding::Matrix,
                    cache.strict.get(maze.rows()),
                    &Encoding::Matrix.render(grid),
                )
                .passed()
        });
        let family = cache.family(shape, maze.rows(), maze.cols());
        let original_ok = grid.as_ref().is_some_and(|grid| {
            family.contains(grid)
                && grid.find(Tile::Player).len() == 1
                && grid.find(Tile::Goal).len() == 1
        });
        a.strict.generate = Some(Mark::of(strict_ok));
        a.original.generate = Some(Mark::of(original_ok));
        if strict_ok != original_ok {
            // A corridor today's templates take and the original families do not (or the
            // reverse) is the families' difference; anything else is another cause.
            let cause = match &grid {
                Some(g) if strict_ok && !family.contains(g) => {
                    Cause::TemplateOutsideOriginalFamilies
                }
                Some(g)
                    if original_ok
                        && maze.rows() <= MAX_SIZE
                        && maze.rows() == maze.cols()
                        && !cache.strict.get(maze.rows()).matches(shape, &g.open_mask()) =>
                {
                    Cause::TemplateOutsideOriginalFamilies
                }
                _ => Cause::Other,
            };
            let drawn = grid.as_ref().map(|g| Encoding::Matrix.render(g));
            let read = drawn.map(|d| {
                let whole = [0, d.len()];
                Reading::of(None, &d, Some(whole), vec![whole])
            });
            a.causes.push(Difference::new(Phase::Generate, cause, read));
        }
    }
    a
}

#[cfg(test)]
mod human_tests {
    use super::*;

    const SQUARE: &str = "P 0 G 0 0\n0 1 1 1 0\n0 1 1 1 0\n0 1 1 1 0\n0 0 0 0 0";

    fn maze() -> Maze {
        let g = Encoding::Matrix
            .parse_grid(SQUARE, 0, 0)
            .expect("fixture reads");
        Maze::from_grid(g).expect("P and G")
    }

    fn file(moves: &[&str], complete: bool, failed: bool, chosen: &str) -> String {
        serde_json::json!({
            "participant_id": "p01",
            "maze_file": "5x5_square_1.npy",
            "maze_type": {"size": "5x5", "shape": "square"},
            "moves": moves,
            "total_moves": moves.len(),
            "completion_time": 12.5,
            "timestamp": "2024-03-01T10:00:00Z",
            "maze_complete": complete,
            "failed": failed,
            "phase": "generation",
            "recognized_shape": chosen,
            "recognition_correct": chosen == "square",
            "generation_result": {
                "valid": true,
                "shape": "square",
                "generated_shape": [[0,0],[0,1],[0,2],[1,0],[1,2],[2,0],[2,1],[2,2]],
                "start_position": [0, 0],
                "end_position": [2, 2],
                "feedback": "Valid square",
                "path_ratio": 1.0
            },
            "generation_method": "click",
            "generation_coordinates": []
        })
        .to_string()
    }

    #[test]
    fn a_human_solve_ending_beside_the_goal_scores_the_same_three_ways() {
        let h = parse_human(&file(&["right"], true, false, "square")).expect("reads");
        let a = audit_human(&h, Shape::Square, &maze(), &mut AuditCache::new());
        let all = Marks {
            solve: Some(Mark::Success),
            recognize: Some(Mark::Success),
            generate: Some(Mark::Success),
        };
        assert_eq!(a.recorded, all, "the page's fields");
        assert_eq!(a.strict, all, "today's rules: {a:?}");
        assert_eq!(a.original, all, "the original rules: {a:?}");
        assert!(a.causes.is_empty(), "no differences");
    }

    #[test]
    fn a_human_diagonal_on_a_square_fails_strict_only() {
        // A diagonal into a wall: the page ended the phase there.
        let h = parse_human(&file(&["right", "down-right"], false, true, "cube")).expect("reads");
        let a = audit_human(&h, Shape::Square, &maze(), &mut AuditCache::new());
        assert_eq!(
            a.recorded.solve,
            Some(Mark::Fail),
            "the page ended on a wall"
        );
        assert_eq!(a.strict.solve, Some(Mark::Fail), "a diagonal on a square");
        assert_eq!(
            a.strict.recognize,
            Some(Mark::Fail),
            "cube is not the chosen name"
        );
        let diag = parse_human(&file(&["down", "up-right"], true, false, "square")).expect("reads");
        let a = audit_human(&diag, Shape::Square, &maze(), &mut AuditCache::new());
        assert_eq!(
            a.original.solve,
            Some(Mark::Success),
            "the page took the diagonal"
        );
        assert_eq!(
            a.strict.solve,
            Some(Mark::Fail),
            "not on a 4-direction shape"
        );
        assert_eq!(
            a.causes.first().map(|d| d.cause),
            Some(Cause::DiagonalOnFourDirectionShape),
            "{a:?}"
        );
        let read = a.causes[0].read.as_ref().expect("a reading");
        assert_eq!(read.reply, "down, up-right", "the moves as one line");
        let texts = |spans: &[[usize; 2]]| -> Vec<String> {
            spans
                .iter()
                .map(|[s, e]| read.reply[*s..*e].to_string())
                .collect()
        };
        assert_eq!(
            texts(&read.strict),
            vec!["up-right"],
            "where strict stopped"
        );
        assert_eq!(
            texts(&read.original),
            vec!["down, up-right"],
            "the original took all"
        );
    }

    #[test]
    fn a_drawn_corridor_outside_the_original_families_is_named_as_such() {
        use crate::core::generate::generate_one;
        use crate::core::templates::TemplateLibrary;
        let mut cache = AuditCache::new();
        let family = cache.family(Shape::C, 5, 5);
        let lib = TemplateLibrary::new(5);
        // A corridor among today's C templates that the original families do not hold
        // (today's C family is wider than the original's).
        let outside = lib
            .of(Shape::C)
            .iter()
            .map(|m| {
                let cells = m.cells();
                let mut g = Grid::walls(5, 5);
                for &p in &cells {
                    g.set(p, Tile::Empty);
                }
                g.set(cells[0], Tile::Player);
                g.set(cells[cells.len() - 1], Tile::Goal);
                (cells, g)
            })
            .find(|(_, g)| !family.contains(g))
            .expect("a C template outside the original families");
        let (cells, _) = &outside;
        let pair = |p: Pos| [p.row as i64, p.col as i64];
        let maze = generate_one(Shape::C, 3, 7, &lib).expect("a C maze");
        let mut h = parse_human(&file(&[], false, true, "C")).expect("reads");
        h.maze_file = "5x5_C_1.npy".into();
        h.generation_result = Some(HumanGeneration {
            valid: true,
            generated_shape: cells.iter().map(|&p| pair(p)).collect(),
            start_position: Some(pair(cells[0])),
            end_position: Some(pair(cells[cells.len() - 1])),
            ..HumanGeneration::default()
        });
        let a = audit_human(&h, Shape::C, &maze, &mut cache);
        assert_eq!(a.strict.generate, Some(Mark::Success), "{a:?}");
        assert_eq!(a.original.generate, Some(Mark::Fail), "{a:?}");
        assert_eq!(
            a.causes.iter().map(|d| d.cause).collect::<Vec<_>>(),
            vec![Cause::TemplateOutsideOriginalFamilies],
            "{a:?}"
        );
    }
}
