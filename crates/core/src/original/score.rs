//! A transcript scored three ways: recorded (the verdict lines as the original code wrote
//! them), strict (every reply through today's verifiers, the solve phase replayed move by
//! move with the core trial) and original (the original checks); every difference between
//! the strict and the original verdict of a phase gets a named cause.

use crate::maze::encoding::Encoding;
use crate::maze::grid::{Grid, Maze, Movement, Tile, MAX_SIZE};
use crate::maze::shape::{Shape, ShapeSet};
use crate::maze::symbols::Symbols;
use crate::maze::templates::TemplateLibrary;
use crate::original::checks::{
    accepted_blocks, between_numbers, last_coordinate, original_mentions, original_solve_on,
    original_step, to_pos, verbatim_blocks, OriginalFamily,
};
use crate::original::mark::Mark;
use crate::original::mark::Marks;
use crate::original::transcript::{original_coordinates, parse, OriginalTranscript};
use crate::play::phase::Phase;
use crate::play::trial::{Protocol, Trial, TrialSetup};
use crate::results::bounds::{self, PhaseDoubt};
use crate::results::rescore::{Hints, Libraries};
use crate::verify::{
    read_move_at, recognize_at, verify_generation_in, verify_recognition, Extracted, Verdict,
};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::sync::Arc;

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
    /// A vision run's matrix written in the symbols its prompt asked for (`S` for the
    /// player), which the original read in `P` only.
    VisionSymbols,
    /// Any other difference.
    Other,
}

impl Cause {
    /// Every cause.
    pub const ALL: [Cause; 13] = [
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
        Cause::VisionSymbols,
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
            Cause::VisionSymbols => "A vision run's maze written in the symbols its prompt asked for (S for the player), which the original read in P only.",
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
            Cause::VisionSymbols => "vision_symbols",
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
    pub(crate) fn new(phase: Phase, cause: Cause, read: Option<Reading>) -> Self {
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
    pub(crate) fn of(
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

/// What the audit keeps between transcripts: today's template libraries and the original
/// families, by size.
#[derive(Debug, Default)]
pub struct AuditCache {
    pub(crate) strict: Libraries,
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
    /// How many of its replies the strict readers read, per phase, and how many of those
    /// readings are not sure (verify/decide.rs): readings worth a person's look.
    #[serde(default)]
    pub readings: Readings,
    /// How far the strict readers' unsure readings could move each phase's strict outcome
    /// (the reading bounds, results/bounds.rs; not in JSON).
    #[serde(skip)]
    pub doubts: [PhaseDoubt; 3],
    /// A fingerprint of the maze first shown ([`Audit::fingerprint`]), when one was read:
    /// the audit's rates are clustered by it (not in JSON).
    #[serde(skip)]
    pub maze: Option<u64>,
}

/// How many replies of one phase the strict readers read, and how many of those readings
/// are not sure.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sureness {
    /// Replies read (a verdict with a reading).
    pub read: usize,
    /// Of those, readings not marked sure.
    pub unsure: usize,
}

impl Sureness {
    /// Counts one verdict's reading (verdicts without one, an endpoint failure, count not).
    pub fn count(&mut self, verdict: &Verdict) {
        if let Some(sure) = verdict.sure {
            self.read += 1;
            self.unsure += usize::from(!sure);
        }
    }

    /// Adds `other`'s counts.
    pub fn add(&mut self, other: Sureness) {
        self.read += other.read;
        self.unsure += other.unsure;
    }
}

/// The strict readers' readings of a trial's (or a group's) replies, per phase.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Readings {
    /// The solve phase's replies.
    pub solve: Sureness,
    /// The recognition reply.
    pub recognize: Sureness,
    /// The generation reply.
    pub generate: Sureness,
}

impl Readings {
    /// The readings of `phase` (none for [`Phase::Done`]).
    pub fn of(&self, phase: Phase) -> Sureness {
        match phase {
            Phase::Solve => self.solve,
            Phase::Recognize => self.recognize,
            Phase::Generate => self.generate,
            Phase::Done => Sureness::default(),
        }
    }

    /// Every phase's counts together.
    pub fn all(&self) -> Sureness {
        let mut all = self.solve;
        all.add(self.recognize);
        all.add(self.generate);
        all
    }

    /// Adds `other`'s counts, phase by phase.
    pub fn add(&mut self, other: &Readings) {
        self.solve.add(other.solve);
        self.recognize.add(other.recognize);
        self.generate.add(other.generate);
    }
}

impl Audit {
    /// The fingerprint of `maze` that tells one maze instance from another within a run
    /// (a hash of its grid: equal mazes share it).
    pub fn fingerprint(maze: &Maze) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::hash::DefaultHasher::new();
        maze.hash(&mut h);
        h.finish()
    }
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
        readings: Readings::default(),
        doubts: Default::default(),
        maze: None,
    };
    let first = maze_file.or_else(|| {
        t.steps
            .first()
            .and_then(|s| s.maze.clone())
            .and_then(|g| Maze::from_grid(g).ok())
    });
    a.maze = first.as_ref().map(Audit::fingerprint);
    if t.api_error {
        a.original = Marks::from_array([Some(Mark::Fail); 3]);
        a.causes = [Phase::Solve, Phase::Recognize, Phase::Generate]
            .map(|phase| Difference::new(phase, Cause::ApiErrorCountedAsFailure, None))
            .to_vec();
        return a;
    }
    // A vision run's maze was an image; its generation prompt asked for a matrix in
    // `1 0 S G`, which the strict replay reads in those symbols.
    let (encoding, symbols) = match (a.encoding, t.vision) {
        (None, true) => (Some(Encoding::Matrix), Symbols::ORIGINAL_VISION),
        (e, _) => (e, Symbols::STANDARD),
    };
    let (Some(maze0), Some(encoding)) = (first, encoding) else {
        return a;
    };
    a.size = Some((maze0.rows(), maze0.cols()));
    // Each reply's last coordinate, the original way: read once for the original replay,
    // the maze after it and the comparison with the strict replay.
    let lasts: Vec<Option<(i64, i64)>> =
        t.steps.iter().map(|s| last_coordinate(&s.reply)).collect();
    a.original.solve = original_solve_on(&maze0, &lasts);
    let after = maze_after_original_solve(&maze0, &lasts);
    let Some(shape) = a.shape else {
        return a;
    };
    if maze0.rows() > MAX_SIZE || maze0.cols() > MAX_SIZE {
        return a;
    }
    let library = cache.strict.get(maze0.rows(), ShapeSet::STANDARD).clone();
    let r = Replay {
        t,
        maze0,
        shape,
        encoding,
        symbols,
        library,
    };
    strict_solve(&mut a, &r, &lasts);
    let recognize_reply = t.combined_reply.as_deref().or(t.recognize_reply.as_deref());
    let generate_reply = t.combined_reply.as_deref().or(t.generate_reply.as_deref());
    if let Some(reply) = recognize_reply {
        recognition(&mut a, shape, reply);
    }
    if let Some(reply) = generate_reply {
        generation(&mut a, &r, cache, &after, reply);
    }
    a
}

/// What the strict and the original scoring of one transcript's phases share.
struct Replay<'a> {
    /// The transcript.
    t: &'a OriginalTranscript,
    /// The maze as first shown.
    maze0: Maze,
    /// The trial's shape.
    shape: Shape,
    /// The encoding the replies are read in.
    encoding: Encoding,
    /// The symbols a matrix is read in.
    symbols: Symbols,
    /// Today's templates, for the strict verifiers.
    library: Arc<TemplateLibrary>,
}

/// The maze after the solve phase, as the original moved (each reply's last coordinate,
/// `lasts`, until a move fails or reaches the goal).
fn maze_after_original_solve(maze0: &Maze, lasts: &[Option<(i64, i64)>]) -> Maze {
    let mut after = maze0.clone();
    for &last in lasts {
        match original_step(&after, last) {
            Some(to) if to != after.goal() => after = after.with_player_at(to),
            _ => break,
        }
    }
    after
}

/// Where the strict solve replay first disagreed with the original's reading.
#[derive(Default)]
struct SolveCause {
    /// The cause seen, if any.
    cause: Option<Cause>,
    /// The step it was seen at.
    step: Option<usize>,
    /// The last step replayed.
    last_step: Option<usize>,
}

/// Replays the solve phase strictly, move by move with the core trial, beside the
/// original's moves (`lasts`): sets the strict solve mark, where the two diverged, and the
/// solve difference's cause when the marks differ.
fn strict_solve(a: &mut Audit, r: &Replay, lasts: &[Option<(i64, i64)>]) {
    let t = r.t;
    let movement = r.shape.movement();
    let mut setup = TrialSetup::new(r.shape, r.encoding, r.maze0.clone());
    setup.protocol = Protocol::Combined;
    setup.symbols = r.symbols;
    let mut trial = Trial::new(setup, r.library.clone());
    // The step the solve difference comes from: where its cause was seen, else the last.
    let mut seen = SolveCause::default();
    for (i, step) in t.steps.iter().enumerate() {
        if trial.phase() != Phase::Solve {
            break;
        }
        seen.last_step = Some(i);
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
        // [`crate::verify::read_move`] gives, without reading the reply a second time).
        let verdict = trial.submit(&step.reply);
        if let Some(v) = &verdict {
            a.readings.solve.count(v);
        }
        let strict_read = match verdict.map(|v| v.extracted) {
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
        if strict_read != original_read && seen.cause.is_none() {
            seen.cause = Some(Cause::DifferentCoordinateRead);
            seen.step = Some(i);
        } else if seen.cause.is_none()
            && original_to.is_some()
            && strict_pos.is_none()
            && movement == Movement::Four
            && original_to.is_some_and(|to| !movement.is_step(before.player(), to))
        {
            seen.cause = Some(Cause::DiagonalOnFourDirectionShape);
            seen.step = Some(i);
        }
        if strict_pos.is_some() && strict_pos != original_pos {
            a.diverged_at = Some(i);
            break;
        }
    }
    a.doubts[0] = bounds::of_trial(&trial)[0];
    a.strict.solve = if a.diverged_at.is_some() {
        Some(Mark::Diverged)
    } else {
        trial
            .solve_verdict()
            .and_then(|v| Mark::from_outcome(v.outcome))
    };
    if a.strict.solve != a.original.solve && a.strict.solve.is_some() && a.original.solve.is_some()
    {
        solve_difference(a, t, &seen);
    }
}

/// Names the solve phase's difference: its cause as `seen` (else [`Cause::Other`]), with
/// the two readings of the reply it comes from (where the cause was seen, else the last).
fn solve_difference(a: &mut Audit, t: &OriginalTranscript, seen: &SolveCause) {
    let step = seen.step.or(seen.last_step);
    let read = step.and_then(|i| t.steps.get(i)).map(|st| {
        let strict = read_move_at(&st.reply).map(|(_, span)| span);
        let original = original_move_span(&st.reply).into_iter().collect();
        Reading::of(step, &st.reply, strict, original)
    });
    a.causes.push(Difference::new(
        Phase::Solve,
        seen.cause.unwrap_or(Cause::Other),
        read,
    ));
}

/// The original and strict generation of one reply (the original's novelty judged
/// against `after`, the maze after its solve phase), with the cause of a difference.
fn generation(a: &mut Audit, r: &Replay, cache: &mut AuditCache, after: &Maze, reply: &str) {
    let (maze0, encoding) = (&r.maze0, r.encoding);
    let family = cache.family(r.shape, maze0.rows(), maze0.cols());
    // The mazes the original renderer could have written, found once for the original
    // check and for naming a difference.
    let blocks = verbatim_blocks(reply, encoding, maze0.rows(), maze0.cols());
    let original = accepted_blocks(&family, after.grid(), &blocks);
    let orig_gen = !original.is_empty();
    let verdict = verify_generation_in(maze0, r.shape, encoding, r.symbols, &r.library, reply);
    a.readings.generate.count(&verdict);
    a.doubts[2] = bounds::of_reply(&verdict);
    let strict_gen = verdict.passed();
    a.original.generate = Some(Mark::of(orig_gen));
    a.strict.generate = Some(Mark::of(strict_gen));
    if orig_gen != strict_gen {
        let quoted = |g: &Grid| blocks.iter().any(|(_, m)| m == g);
        let verbatim_outside = || blocks.iter().any(|(_, m)| !family.contains(m));
        let cause = if r.t.vision && strict_gen {
            Cause::VisionSymbols
        } else if orig_gen && quoted(maze0.grid()) {
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
}

/// The original and strict recognition of one reply, with the cause of a difference.
pub(crate) fn recognition(a: &mut Audit, shape: Shape, reply: &str) {
    let mentions = original_mentions(shape, reply);
    let orig_rec = !mentions.is_empty();
    let verdict = verify_recognition(shape, reply, ShapeSet::STANDARD);
    a.readings.recognize.count(&verdict);
    a.doubts[1] = bounds::of_reply(&verdict);
    let strict_rec = verdict.passed();
    a.original.recognize = Some(Mark::of(orig_rec));
    a.strict.recognize = Some(Mark::of(strict_rec));
    if orig_rec != strict_rec {
        let cause = if strict_rec {
            Cause::WordOutsideOriginalList
        } else if crate::verify::mentions(reply)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::original::mark::Mark;
    use crate::original::mark::Marks;
    use crate::original::test_support::{
        audited, causes, cross_named_by_grid_size, grid, marks, original_file, quoted_back,
        MOVE_REPLIES, NEW_SQUARE, SQUARE,
    };
    use std::collections::HashSet;

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

    #[test]
    fn the_strict_readings_doubts_go_with_the_audit_into_the_analysis() {
        use crate::original::audit::Scoring;
        // A bare first move (read by a fall-back, unsure), then a labelled one; a shape
        // hedged between two (unsure); no maze (sure: none given).
        let text = original_file(
            SQUARE,
            Encoding::Matrix,
            Shape::Square,
            &["(0, 1)", "Move: (0, 2)"],
            false,
            "It is a square, or maybe a cross.",
            ["SUCCESS", "SUCCESS", "FAIL"],
        );
        let a = audited(&text, Shape::Square, Encoding::Matrix);
        // Each phase's doubt agrees with the readings the audit counted.
        for (i, phase) in [Phase::Solve, Phase::Recognize, Phase::Generate]
            .into_iter()
            .enumerate()
        {
            assert_eq!(
                a.doubts[i].unsure,
                a.readings.of(phase).unsure > 0,
                "{phase:?}: {a:?}"
            );
        }
        assert!(
            a.doubts[1].unsure,
            "the hedged shape is unsure: {:?}",
            a.readings
        );
        let folder = crate::original::audit::Audited {
            trials: vec![crate::original::audit::AuditTrial {
                file: "matrix_qwen_results/5x5/square/5x5_square_0.npy/0.txt".into(),
                maze_from: "prompt",
                model: "qwen".into(),
                causes: Vec::new(),
                audit: a.clone(),
                human: false,
                duplicate: false,
            }],
            skipped: Vec::new(),
        };
        let (strict, _, _) = folder.observations("runs", Scoring::Strict);
        assert_eq!(
            strict[0].doubts, a.doubts,
            "strict verdicts carry their doubts"
        );
        let (original, _, _) = folder.observations("runs", Scoring::Original);
        assert!(
            original[0].doubts.iter().all(|d| !d.unsure),
            "the original checks are not our readers: no doubt"
        );
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
        let library = crate::maze::templates::TemplateLibrary::new(5);
        let family = OriginalFamily::new(Shape::C, 5, 5);
        let c = crate::maze::generate::generate_set(Shape::C, 5, 7, &library)
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

    #[test]
    fn the_strict_move_of_a_step_is_the_cell_read_move_reads() {
        // The audit takes the strict move of each step from the trial's verdict instead of
        // reading the reply a second time: the two must agree on every reply.
        #[cfg_attr(target_arch = "wasm32", allow(unused_mut))]
        let mut replies: Vec<String> = MOVE_REPLIES.iter().map(|r| r.to_string()).collect();
        #[cfg(not(target_arch = "wasm32"))]
        {
            let dir = concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/../../tests/fixtures/real-replies"
            );
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
        let library = Arc::new(crate::maze::templates::TemplateLibrary::new(5));
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
                assert_eq!(read, crate::verify::read_move(reply), "{shape}: {reply:?}");
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

#[cfg(test)]
mod vision_tests {
    use super::*;
    use crate::original::test_support::{grid, SQUARE};
    use crate::original::transcript::{
        UPDATE_INTRO, VISION_COMBINED_LAST, VISION_COMBINED_START, VISION_MAZE_INTRO, VISION_START,
    };

    /// A vision transcript as the design's code wrote it (in our words): the prompts carry
    /// no maze, the replies and the three lines do.
    fn vision_file(replies: &[&str], combined: &str, recorded: [&str; 3]) -> String {
        let mut out =
            format!("{VISION_START}\n\nThe picture shows the maze.\n\n{VISION_MAZE_INTRO}\n");
        out.push_str(&replies.join(&format!("\n\n{UPDATE_INTRO}\n\n")));
        out.push_str(&format!(
            "\n\nSOLVE: {}\n\n{VISION_COMBINED_START}\n\nName the shape and draw a new maze in 1 0 S G.\n\n{VISION_COMBINED_LAST}\n{combined}\n\nRECOGNIZE: {}\n\nGENERATE: {}\n",
            recorded[0], recorded[1], recorded[2]
        ));
        out
    }

    fn hints() -> Hints {
        Hints {
            encoding: None,
            shape: Some(Shape::Square),
            size: Some((5, 5)),
            in_play: None,
            maze: None,
        }
    }

    #[test]
    fn vision_runs_are_replayed_on_their_maze_file() {
        let text = vision_file(
            &["P stands top left and G two cells right. Next move: (0, 1)", "Next move: (0, 2)"],
            "Part 1: the corridors form a square.\n\nPart 2:\n\n```\nG 0 0 0 0\n0 1 1 1 0\n0 1 1 1 0\n0 1 1 1 0\n0 0 0 0 S\n```",
            ["SUCCESS", "SUCCESS", "FAIL"],
        );
        let t = parse(&text);
        assert!(t.vision);
        assert_eq!(t.steps.len(), 2, "one step a reply");
        assert!(t
            .combined_reply
            .as_deref()
            .is_some_and(|r| r.starts_with("Part 1")));
        let maze = Maze::from_grid(grid(SQUARE)).expect("P and G");
        let a = audit_on(&t, &hints(), &mut AuditCache::new(), Some(maze));
        assert_eq!(
            a.original, a.recorded,
            "the original-compatible scorer agrees with the lines"
        );
        assert_eq!(a.strict.solve, Some(Mark::Success));
        assert_eq!(a.strict.recognize, Some(Mark::Success));
        assert_eq!(
            a.strict.generate,
            Some(Mark::Success),
            "the new maze in the prompt's own symbols (S for the player)"
        );
        let causes: Vec<Cause> = a.causes.iter().map(|d| d.cause).collect();
        assert_eq!(causes, vec![Cause::VisionSymbols]);
        // Without its maze file a vision run keeps its recorded lines only.
        let a = audit_on(&t, &hints(), &mut AuditCache::new(), None);
        assert_eq!((a.strict.solve, a.original.solve), (None, None));
    }
}
