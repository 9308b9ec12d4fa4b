//! Re-scoring a transcript from its reply text, never trusting its recorded verdicts. (The
//! export layout's paths, which tell where a transcript belongs, are in
//! [`crate::results::layout`]; they are re-exported here for older callers.)
//!
//! A transcript in our format (docs/CONTRACT.md, with the `### user` / `### assistant`
//! markers of docs/DECISIONS.md) is read back into its conversation. The maze is taken from
//! the first message (in the trial's encoding; a coordinate list's size is its largest
//! coordinate plus one, since every cell is listed); the replies are split into phases by the fixed headings
//! of [`crate::play::prompt`]; and each reply is handed to a fresh [`Trial`] on that maze, so
//! the recomputed verdicts follow exactly the rules the app plays by. They are then set
//! against the three recorded closing lines.
//!
//! Transcripts without the markers (written by other tools) cannot be replayed: they are
//! counted from their closing lines alone ([`Basis::ClosingLines`]), and the notes say why.
//!
//! ```
//! use shapemaze_core::results::rescore::{rescore, Basis, Hints, Libraries};
//!
//! let foreign = "Model said (1, 2)\n\nSOLVE: FAIL\nRECOGNIZE: SUCCESS\nGENERATE: FAIL\n";
//! let r = rescore(foreign, &Hints::default(), &mut Libraries::new());
//! assert_eq!(r.basis, Basis::ClosingLines);
//! assert!(r.is_transcript());
//! ```

use crate::maze::coords::coordinates;
use crate::maze::encoding::{Encoding, KEY_EMPTY, KEY_WALLS};
use crate::maze::extraction::ParseError;
use crate::maze::grid::{Grid, Maze, MazeError, Movement, Tile, MAX_SIZE};
use crate::maze::shape::{Shape, ShapeSet};
use crate::maze::symbols::Symbols;
use crate::maze::templates::TemplateLibrary;
use crate::play::phase::Phase;
use crate::play::prompt::{
    announced_lenient, announced_move_limit, announced_symbols, read_heading, Heading, IMAGE_ONLY,
};
use crate::play::transcript::{self, ParsedTranscript, Role};
use crate::play::trial::{Protocol, Trial, TrialSetup, DEFAULT_MOVE_LIMIT};
use crate::results::layout::{maze_file_path, ExportPath};
use crate::results::record::TrialRecord;
use crate::text::strip_markup;
use crate::verify::Extracted;
use crate::verify::{Outcome, Reason, Verdict};
use serde::Serialize;
use std::collections::BTreeMap;
use std::sync::Arc;

/// The three phases a transcript records, in closing-line order.
pub const PHASES: [Phase; 3] = Phase::PLAYED;

/// Template libraries by grid side and shapes in play, built when first needed and kept
/// for the next transcript (building one is the costly part of re-scoring a small trial).
#[derive(Debug, Default)]
pub struct Libraries {
    by_size: BTreeMap<(usize, ShapeSet), Arc<TemplateLibrary>>,
}

impl Libraries {
    /// No library built yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// The library for `size` x `size` grids with `shapes` in play (at most [`MAX_SIZE`];
    /// callers check with [`fits`]).
    pub fn get(&mut self, size: usize, shapes: ShapeSet) -> &Arc<TemplateLibrary> {
        self.by_size
            .entry((size, shapes))
            .or_insert_with(|| Arc::new(TemplateLibrary::of_set(size, shapes)))
    }

    /// The library a record's trial used: its size and shapes in play.
    pub fn of_record(&mut self, record: &TrialRecord) -> &Arc<TemplateLibrary> {
        self.get(record.size, record.shapes)
    }
}

/// Whether a grid is small enough for the rules (masks hold at most [`MAX_SIZE`] x
/// [`MAX_SIZE`] cells).
pub fn fits(grid: &Grid) -> bool {
    grid.rows() <= MAX_SIZE && grid.cols() <= MAX_SIZE
}

/// What a transcript's location says about it; each field may be unknown.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Hints {
    /// The encoding (else detected from the first message).
    pub encoding: Option<Encoding>,
    /// The shape (else classified from the maze's corridor).
    pub shape: Option<Shape>,
    /// Rows and columns (checked against the maze when known).
    pub size: Option<(usize, usize)>,
    /// The shapes in play when the folder's design says (its `experiment.json`): a
    /// transcript does not, and a C of a design with U is read differently.
    pub in_play: Option<ShapeSet>,
    /// The maze from the folder's maze file (`experiment_mazes/...npy`), for a transcript
    /// whose text holds none (the vision condition `image`).
    pub maze: Option<Grid>,
}

impl From<&TrialRecord> for Hints {
    /// What a record says about its transcript: encoding, shape, size, shapes in play.
    fn from(r: &TrialRecord) -> Hints {
        Hints {
            encoding: Some(r.encoding),
            shape: Some(r.shape),
            size: Some((r.size, r.size)),
            in_play: Some(r.shapes),
            maze: None,
        }
    }
}

impl From<&ExportPath> for Hints {
    fn from(p: &ExportPath) -> Hints {
        Hints {
            encoding: Some(p.encoding),
            shape: Some(p.shape),
            size: Some((p.rows, p.cols)),
            in_play: None,
            maze: None,
        }
    }
}

/// What the counted outcomes of a transcript rest on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Basis {
    /// The replies were re-run through a trial.
    Replies,
    /// Only the recorded closing lines could be read (see the notes for why).
    ClosingLines,
}

/// One phase of a re-scored transcript.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PhaseScore {
    /// The phase.
    pub phase: Phase,
    /// What the closing line says (`None` when it is missing).
    pub recorded: Option<Outcome>,
    /// What re-running the replies gives (`None` when it could not be recomputed).
    pub recomputed: Option<Outcome>,
    /// The recomputed verdict's reason.
    pub reason: Option<Reason>,
    /// The recomputed verdict's explanation, as the app shows it.
    pub explanation: Option<String>,
}

impl PhaseScore {
    fn recorded(phase: Phase, recorded: Option<Outcome>) -> Self {
        Self {
            phase,
            recorded,
            recomputed: None,
            reason: None,
            explanation: None,
        }
    }

    /// [`Outcome::Error`] when the closing line records an API error.
    fn api_error(&self) -> Option<Outcome> {
        self.recorded.filter(|&o| o == Outcome::Error)
    }

    fn with_verdict(mut self, verdict: Option<&Verdict>) -> Self {
        if let Some(v) = verdict {
            self.recomputed = Some(v.outcome);
            self.reason = Some(v.reason);
            self.explanation = Some(v.explanation.clone());
        }
        self
    }
}

/// A transcript re-scored.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Rescored {
    /// Whether the replies were re-run or only the closing lines read.
    pub basis: Basis,
    /// Whether the transcript carries our `### user` / `### assistant` markers.
    pub marked: bool,
    /// The encoding the maze was shown in, when known.
    pub encoding: Option<Encoding>,
    /// The maze's shape, when known.
    pub shape: Option<Shape>,
    /// The maze's rows and columns, when it was read.
    pub size: Option<(usize, usize)>,
    /// Solve, recognize, generate.
    pub phases: [PhaseScore; 3],
    /// Irregularities found on the way, for people.
    pub notes: Vec<String>,
    /// How far unsure readings could move each phase's outcome (all sure when only the
    /// closing lines were read).
    #[serde(skip)]
    pub doubts: [crate::results::bounds::PhaseDoubt; 3],
}

impl Rescored {
    fn closing_only(parsed: &ParsedTranscript, hints: &Hints, note: String) -> Self {
        let closing = parsed.closing;
        Self {
            basis: Basis::ClosingLines,
            marked: parsed.marked,
            encoding: hints.encoding,
            shape: hints.shape,
            size: None,
            phases: PHASES.map(|p| PhaseScore::recorded(p, closing[p.index()])),
            notes: vec![note],
            doubts: Default::default(),
        }
    }

    /// Whether the text is a transcript at all: it carries our markers or at least one
    /// closing line.
    pub fn is_transcript(&self) -> bool {
        self.basis == Basis::Replies || self.phases.iter().any(|p| p.recorded.is_some())
    }

    /// The outcomes that count: recomputed when the replies were re-run, else recorded.
    /// A phase recorded as an API error ([`Outcome::Error`]) with no reply to re-run counts
    /// as that error: the endpoint failed, and that is not recomputed from anything.
    pub fn counted(&self) -> [Option<Outcome>; 3] {
        self.phases.each_ref().map(|p| match self.basis {
            Basis::Replies => p.recomputed.or(p.api_error()),
            Basis::ClosingLines => p.recorded,
        })
    }

    /// The phases whose recorded closing line differs from the recomputed verdict (none
    /// when the replies could not be re-run; an API error with no reply is no difference).
    pub fn differences(&self) -> Vec<&PhaseScore> {
        self.phases
            .iter()
            .filter(|p| {
                self.basis == Basis::Replies
                    && p.recorded != p.recomputed
                    && !(p.recomputed.is_none() && p.api_error().is_some())
            })
            .collect()
    }
}

/// The encoding a shown maze is written in: a coordinate list when a line starts with
/// `Walls:`, else the matrix.
pub fn detect_encoding(text: &str) -> Encoding {
    if key_line(text, KEY_WALLS).is_some() {
        Encoding::CoordList
    } else {
        Encoding::Matrix
    }
}

/// Index of the last line of `lines` that starts with `key:` (ignoring case and markdown).
fn key_line(text: &str, key: &str) -> Option<usize> {
    let key = format!("{}:", key.to_ascii_lowercase());
    text.lines()
        .enumerate()
        .filter(|(_, l)| strip_markup(l).to_ascii_lowercase().starts_with(&key))
        .map(|(i, _)| i)
        .last()
}

/// Reads the maze a message shows (a prompt, or a maze file's text). The matrix is the last
/// block of matrix rows; a coordinate list runs from its last `Walls:` line to the next
/// blank line, and its size is the largest coordinate plus one (every cell is listed).
/// Grids larger than [`MAX_SIZE`] are refused before they are built.
pub fn read_shown_maze(text: &str, encoding: Encoding) -> Result<Grid, ParseError> {
    read_shown_maze_in(text, encoding, Symbols::STANDARD)
}

/// [`read_shown_maze`] for a matrix written in `symbols` (a trial's prompt states them in
/// its legend: [`announced_symbols`]).
pub fn read_shown_maze_in(
    text: &str,
    encoding: Encoding,
    symbols: Symbols,
) -> Result<Grid, ParseError> {
    if encoding == Encoding::Matrix {
        return Encoding::Matrix.read_reply_in(text, 0, 0, symbols).grid;
    }
    let start = key_line(text, KEY_WALLS)
        .or_else(|| key_line(text, KEY_EMPTY))
        .ok_or(ParseError::NoMazeFound)?;
    let block: Vec<&str> = text
        .lines()
        .skip(start)
        .take_while(|l| !l.trim().is_empty())
        .collect();
    let block = block.join("\n");
    let found = coordinates(&block);
    let rows = found.iter().map(|c| c.pos.row + 1).max();
    let cols = found.iter().map(|c| c.pos.col + 1).max();
    let (Some(rows), Some(cols)) = (rows, cols) else {
        return Err(ParseError::NoMazeFound);
    };
    if let Some(c) = found
        .iter()
        .find(|c| c.pos.row >= MAX_SIZE || c.pos.col >= MAX_SIZE)
    {
        return Err(ParseError::OutOfBounds { cell: c.pos });
    }
    Encoding::CoordList.parse_grid(&block, rows, cols)
}

/// The phase a trial's message opens, from its fixed heading; a combined recognition and
/// generation prompt opens the recognition phase.
fn opened_phase(message: &str) -> Option<Phase> {
    match read_heading(message)? {
        Heading::Solve | Heading::SolvePath => Some(Phase::Solve),
        Heading::Recognize | Heading::Combined => Some(Phase::Recognize),
        Heading::Generate => Some(Phase::Generate),
        Heading::Update => None,
    }
}

/// Re-scores one transcript text (see the module documentation). Never panics.
pub fn rescore(text: &str, hints: &Hints, libraries: &mut Libraries) -> Rescored {
    rescore_reviewed(text, hints, libraries, &[])
}

/// A reply a reviewed value stands for, written so that the readers read exactly that
/// value: `Move: (r, c)`, `Shape: spiral`, the maze's rows in the trial's encoding, or an
/// empty reply for "no answer". Re-scoring a transcript with these replies in place of the
/// model's gives the rates as reviewed.
pub fn reply_for(value: &Extracted, encoding: Encoding) -> String {
    match value {
        Extracted::Cell(p) => format!("Move: {p}"),
        Extracted::Shape(s) => format!("Shape: {}", s.name()),
        _ => value_text(value, encoding),
    }
}

/// A reading's value as plain text: `(r, c)` for a move, the cells of a path separated by
/// spaces, the shape's name, the maze's rows in `encoding`, or nothing.
pub fn value_text(value: &Extracted, encoding: Encoding) -> String {
    match value {
        Extracted::Nothing => String::new(),
        Extracted::Cell(p) => p.to_string(),
        Extracted::Cells(ps) => ps
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(" "),
        Extracted::Shape(s) => s.name().to_string(),
        Extracted::Grid(g) => encoding.render(g),
    }
}

/// One reply of a transcript as the readers read it: the phase, the reply's index in it,
/// its text and the reading.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadReply {
    /// Solve, recognize or generate.
    pub phase: Phase,
    /// The reply's index in its phase.
    pub step: usize,
    /// The reply as written.
    pub reply: String,
    /// What the phase's reader read in it.
    pub reading: crate::verify::Reading,
}

/// Every reply of a transcript with what its phase's reader reads in it, judged against
/// nothing (the review queue's items and the agreement's readings). A combined reply is
/// read as the recognition's and the generation's. Empty when the transcript has no
/// message markers.
pub fn replies_read(text: &str, hints: &Hints) -> Vec<ReadReply> {
    use crate::verify::{maze_reading, move_reading, move_reading_from, shape_reading};
    let parsed = transcript::parse(text);
    let Some(first) = parsed.messages.iter().find(|m| m.role == Role::User) else {
        return Vec::new();
    };
    let encoding = hints
        .encoding
        .unwrap_or_else(|| detect_encoding(&first.content));
    let symbols = announced_symbols(&first.content).unwrap_or_default();
    let shown = read_shown_maze_in(&first.content, encoding, symbols).ok();
    let (rows, cols) = shown
        .as_ref()
        .map(|g| (g.rows(), g.cols()))
        .or(hints.size)
        .unwrap_or((0, 0));
    let mut named: Vec<Shape> = hints.in_play.map(ShapeSet::shapes).unwrap_or_default();
    named.extend(hints.shape);
    let shapes = ShapeSet::with(&named);
    let replies = phase_replies(&parsed);
    // Where the player stands before each solve reply, so a reading is sure exactly when
    // the trial's verdict says it is: the first maze's player, moved by each move read that
    // is a step onto an open cell (as the trial moves it).
    let movement = hints.shape.map_or(Movement::Eight, Shape::movement);
    let mut player = shown
        .as_ref()
        .and_then(|g| g.find(Tile::Player).first().copied());
    let mut out = Vec::new();
    for (phase, list) in PHASES.into_iter().zip(&replies) {
        for (step, reply) in list.iter().enumerate() {
            let reading = match phase {
                Phase::Solve => match player {
                    Some(from) => {
                        let reading = move_reading_from(reply, from);
                        if let (Extracted::Cell(to), Some(g)) = (&reading.value, &shown) {
                            let open = g.get(*to).is_some_and(|t| t != Tile::Wall);
                            if open && movement.is_step(from, *to) {
                                player = Some(*to);
                            }
                        }
                        reading
                    }
                    None => move_reading(reply),
                },
                Phase::Recognize => shape_reading(reply, shapes),
                Phase::Generate | Phase::Done => maze_reading(reply, encoding, rows, cols, symbols),
            };
            out.push(ReadReply {
                phase,
                step,
                reply: reply.to_string(),
                reading,
            });
        }
    }
    out
}

/// A reply a person reviewed: the phase, the reply's index in it, and what the person
/// read there.
pub type Reviewed = (Phase, usize, Extracted);

/// [`rescore`] with reviewed readings in place of the model's replies: each reviewed reply
/// is replaced by one that reads exactly as reviewed ([`reply_for`]), so the trial is
/// replayed as the reviewer read it (a move that now fails ends the phase there). Reviews
/// of replies the transcript does not hold are ignored.
pub fn rescore_reviewed(
    text: &str,
    hints: &Hints,
    libraries: &mut Libraries,
    reviewed: &[Reviewed],
) -> Rescored {
    let parsed = transcript::parse(text);
    let closing_only = |note: String| Rescored::closing_only(&parsed, hints, note);
    if !parsed.marked {
        return closing_only(
            "no ### user / ### assistant message markers: counted from the closing lines only"
                .into(),
        );
    }
    let Some(first) = parsed.messages.iter().find(|m| m.role == Role::User) else {
        return closing_only("no message from the trial, so no maze to replay on".into());
    };
    // The maze shown only as an image: the folder's maze file says which it was.
    let image_only = first.content.contains(IMAGE_ONLY);
    if image_only && hints.maze.is_none() {
        return closing_only(
            "the maze was shown only as an image (vision `image`) and no maze file was found beside the transcript (experiment_mazes/...npy), so there is no maze to replay on: counted from the closing lines"
                .into(),
        );
    }
    let encoding = hints
        .encoding
        .unwrap_or_else(|| detect_encoding(&first.content));
    // The legend says which symbols a matrix was shown (and is read back) in.
    let symbols = announced_symbols(&first.content).unwrap_or_default();
    let maze = match first_maze(&first.content, hints, encoding, symbols, image_only) {
        Ok(m) => m,
        Err(why) => return closing_only(why.to_string()),
    };
    let mut notes = Vec::new();
    let size = (maze.rows(), maze.cols());
    if let Some((r, c)) = hints.size.filter(|&s| s != size) {
        notes.push(format!(
            "the folder says {r}x{c} but the maze is {}x{}",
            size.0, size.1
        ));
    }
    let (shape, library) = match scored_shape(&maze, hints, libraries, &mut notes) {
        Ok(found) => found,
        Err(why) => return closing_only(why.to_string()),
    };
    let protocol = protocol_of(&first.content, &parsed);
    let setup = TrialSetup {
        move_limit: announced_move_limit(&first.content).unwrap_or(DEFAULT_MOVE_LIMIT),
        protocol,
        symbols,
        lenient: announced_lenient(&first.content).unwrap_or(0),
        ..TrialSetup::new(shape, encoding, maze)
    };
    let written: Vec<(Phase, usize, String)> = reviewed
        .iter()
        .map(|(p, i, v)| (*p, *i, reply_for(v, encoding)))
        .collect();
    let mut replies = phase_replies(&parsed);
    for (p, i, reply) in &written {
        if let Some(slot) = replies[p.index()].get_mut(*i) {
            *slot = reply.as_str();
        }
    }
    let mut trial = Trial::new(setup, library);
    replay_solve(&mut trial, &replies[0], &mut notes);
    let (recognition, generation) = replay_questions(&mut trial, &replies, protocol, &mut notes);
    let verdicts = [trial.solve_verdict().cloned(), recognition, generation];
    Rescored {
        basis: Basis::Replies,
        marked: true,
        encoding: Some(encoding),
        shape: Some(shape),
        size: Some(size),
        phases: PHASES.map(|p| {
            PhaseScore::recorded(p, parsed.closing[p.index()])
                .with_verdict(verdicts[p.index()].as_ref())
        }),
        notes,
        doubts: crate::results::bounds::of_trial(&trial),
    }
}

/// The maze a transcript's first message shows (the folder's maze file when it was shown
/// only as an image), or why it cannot be replayed on.
fn first_maze(
    first: &str,
    hints: &Hints,
    encoding: Encoding,
    symbols: Symbols,
    image_only: bool,
) -> Result<Maze, Unreplayable> {
    let shown = match (&hints.maze, image_only) {
        (Some(g), true) => Ok(g.clone()),
        _ => read_shown_maze_in(first, encoding, symbols),
    };
    let grid = match shown {
        Ok(g) if fits(&g) => g,
        Ok(g) => return Err(Unreplayable::TooLarge(g.rows(), g.cols())),
        Err(e) => return Err(Unreplayable::Unreadable(encoding, e)),
    };
    Maze::from_grid(grid).map_err(Unreplayable::NotPlayable)
}

/// Why a marked transcript cannot be replayed on its maze (it is then counted from its
/// closing lines, with this as the note).
#[derive(Debug)]
enum Unreplayable {
    /// The first message's maze is larger than [`MAX_SIZE`] (rows, columns).
    TooLarge(usize, usize),
    /// The first message's maze cannot be read in the encoding.
    Unreadable(Encoding, ParseError),
    /// The maze read is no playable maze.
    NotPlayable(MazeError),
    /// Neither the folder nor the corridor says the shape.
    UnknownShape,
}

impl std::fmt::Display for Unreplayable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unreplayable::TooLarge(rows, cols) => write!(
                f,
                "the maze in the first message is {rows}x{cols}, larger than {MAX_SIZE}x{MAX_SIZE}"
            ),
            Unreplayable::Unreadable(encoding, e) => write!(
                f,
                "the maze in the first message cannot be read in the {encoding} encoding: {e}"
            ),
            Unreplayable::NotPlayable(e) => {
                write!(f, "the maze in the first message is not playable: {e}")
            }
            Unreplayable::UnknownShape => f.write_str(
                "the shape is unknown: the path does not say and the corridor is none of our shapes",
            ),
        }
    }
}

/// The shape the maze is scored as, with the template library of the shapes in play; a
/// note when the folder and the corridor disagree, or why the shape is unknown.
fn scored_shape(
    maze: &Maze,
    hints: &Hints,
    libraries: &mut Libraries,
    notes: &mut Vec<String>,
) -> Result<(Shape, Arc<TemplateLibrary>), Unreplayable> {
    // The folder's design says what is in play; a folder that names U or N puts it in
    // play. Without either the corridor says: one of the design's six (a C opening up is
    // a C then), else an N.
    let mut named: Vec<Shape> = hints.in_play.map(ShapeSet::shapes).unwrap_or_default();
    named.extend(hints.shape);
    let mut in_play = ShapeSet::with(&named);
    let mut classified = libraries
        .get(maze.rows(), in_play)
        .classify(&maze.open_mask());
    if classified.is_none() && hints.shape.is_none() {
        in_play = ShapeSet::with(&[Shape::N]);
        classified = libraries
            .get(maze.rows(), in_play)
            .classify(&maze.open_mask());
    }
    let library = libraries.get(maze.rows(), in_play).clone();
    let shape = match (hints.shape, classified) {
        (Some(s), Some(c)) if s != c => {
            notes.push(format!(
                "the folder says {s} but the maze's corridor is a {c}; scored as {s}"
            ));
            s
        }
        (Some(s), _) | (None, Some(s)) => s,
        (None, None) => return Err(Unreplayable::UnknownShape),
    };
    Ok((shape, library))
}

/// The protocol the trial was played in, from its messages' headings: single-shot when
/// the first asks for a path, combined when any asks both questions at once.
fn protocol_of(first: &str, parsed: &ParsedTranscript) -> Protocol {
    match (
        read_heading(first),
        parsed
            .messages
            .iter()
            .any(|m| m.role == Role::User && read_heading(&m.content) == Some(Heading::Combined)),
    ) {
        (Some(Heading::SolvePath), _) => Protocol::SingleShot,
        (_, true) => Protocol::Combined,
        _ => Protocol::Stepwise,
    }
}

/// The replies of each phase, split by the headings of the trial's messages.
fn phase_replies(parsed: &ParsedTranscript) -> [Vec<&str>; 3] {
    let mut replies: [Vec<&str>; 3] = Default::default();
    let mut current = Phase::Solve;
    for m in &parsed.messages {
        match m.role {
            Role::User => {
                if let Some(p) = opened_phase(&m.content) {
                    current = p;
                }
            }
            Role::Assistant => replies[current.index()].push(&m.content),
        }
    }
    replies
}

/// Hands the solve phase's recorded moves to `trial` until the phase ends; notes moves
/// left unscored, or a phase the moves did not end.
fn replay_solve(trial: &mut Trial, moves: &[&str], notes: &mut Vec<String>) {
    let mut used = 0;
    for reply in moves {
        if trial.phase() != Phase::Solve {
            break;
        }
        trial.submit(reply);
        used += 1;
    }
    let recorded = moves.len();
    if used < recorded {
        notes.push(format!(
            "the solve phase ended after {used} of the {recorded} recorded moves; the rest were not scored"
        ));
    } else if trial.phase() == Phase::Solve {
        notes.push(format!(
            "the {recorded} recorded moves ran out before the solve phase ended"
        ));
    }
}

/// The recognition and generation verdicts of the first reply of each question (one
/// combined reply under the combined protocol); notes a question without a reply, or
/// with more than one.
fn replay_questions(
    trial: &mut Trial,
    replies: &[Vec<&str>; 3],
    protocol: Protocol,
    notes: &mut Vec<String>,
) -> (Option<Verdict>, Option<Verdict>) {
    let combined = protocol == Protocol::Combined;
    let verdicts = if combined {
        // One reply answers both questions; each verifier judges all of it.
        replies[1].first().map(|r| trial.submit_combined(r));
        (
            trial.recognize_verdict().cloned(),
            trial.generate_verdict().cloned(),
        )
    } else {
        let recognition = replies[1].first().map(|r| trial.submit_recognition(r));
        (
            recognition,
            replies[2].first().map(|r| trial.submit_generation(r)),
        )
    };
    let asked = if combined {
        vec![(1, "combined recognition and generation")]
    } else {
        vec![(1, "recognition"), (2, "generation")]
    };
    for (i, name) in asked {
        match replies[i].len() {
            0 => notes.push(format!("no {name} reply was recorded")),
            1 => {}
            n => notes.push(format!(
                "{n} {name} replies were recorded; the first was scored"
            )),
        }
    }
    verdicts
}

/// The maze file a transcript of the image-only condition needs (its text holds no maze):
/// the `experiment_mazes/{R}x{C}/{shape}/{R}x{C}_{shape}_{i}.npy` of the export folder that
/// holds the transcript's own `{encoding}_{model}_results` folder, as a path written like
/// `path` up to that folder. `None` for any other transcript, or a path outside the layout.
/// The command line reads the file; the results page looks it up among an import's files.
pub fn image_maze_file(path: &str, text: &str) -> Option<String> {
    if !text.contains(IMAGE_ONLY) {
        return None;
    }
    let l = ExportPath::parse(path)?;
    let results = format!("{}_{}_results", l.encoding.name(), l.model);
    let root = &path[..path.rfind(&results)?];
    Some(format!(
        "{root}{}",
        maze_file_path(l.rows, l.cols, l.shape, l.maze)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_image_only_transcript_s_maze_file_is_its_own_runs() {
        let text = format!("### user\nPhase 1 of 3: solve the maze.\n{IMAGE_ONLY}\n");
        let t = "runs/b/matrix_qwen_results/5x5/square/5x5_square_3.npy/0.txt";
        assert_eq!(
            image_maze_file(t, &text).as_deref(),
            Some("runs/b/experiment_mazes/5x5/square/5x5_square_3.npy")
        );
        // At the top of a zip; under a folder whose name repeats the results folder's.
        let top = "coord_list_m_results/7x7/Z/7x7_Z_0.npy/2.txt";
        assert_eq!(
            image_maze_file(top, &text).as_deref(),
            Some("experiment_mazes/7x7/Z/7x7_Z_0.npy")
        );
        let nested = "matrix_qwen_results/old/matrix_qwen_results/5x5/C/5x5_C_1.npy/0.txt";
        assert_eq!(
            image_maze_file(nested, &text).as_deref(),
            Some("matrix_qwen_results/old/experiment_mazes/5x5/C/5x5_C_1.npy")
        );
        // A transcript whose text shows the maze needs none; a stray path has none.
        assert_eq!(image_maze_file(t, "### user\n1 0 P\n"), None);
        assert_eq!(image_maze_file("notes/readme.txt", &text), None);
    }
    use crate::maze::generate::generate_one;

    fn played(shape: Shape, encoding: Encoding, replies: &[&str], move_limit: usize) -> Trial {
        let lib = Arc::new(TemplateLibrary::for_shape(5, shape));
        let maze = generate_one(shape, 3, 11, &lib).expect("maze");
        let setup = TrialSetup {
            move_limit,
            ..TrialSetup::new(shape, encoding, maze)
        };
        let mut t = Trial::new(setup, lib);
        for r in replies {
            t.submit(r);
        }
        t
    }

    /// The shortest-path replies, then a recognition and a generation reply.
    fn solved(shape: Shape, encoding: Encoding, recognition: &str, generation: &str) -> Trial {
        let t = played(shape, encoding, &[], DEFAULT_MOVE_LIMIT);
        let path = t
            .setup()
            .maze
            .shortest_path(shape.movement())
            .expect("solvable");
        let mut replies: Vec<String> = path[1..].iter().map(|p| format!("Move: {p}")).collect();
        replies.push(recognition.to_string());
        replies.push(generation.to_string());
        let refs: Vec<&str> = replies.iter().map(String::as_str).collect();
        played(shape, encoding, &refs, DEFAULT_MOVE_LIMIT)
    }

    #[test]
    fn the_readings_of_a_transcript_are_sure_exactly_where_its_verdicts_are() {
        for shape in [Shape::Square, Shape::Cross] {
            // Each move named alone (`lone`: sure only when the player could step there),
            // so the readings need the player's cell as the trial has it, step by step.
            let t = played(shape, Encoding::Matrix, &[], DEFAULT_MOVE_LIMIT);
            let path = t
                .setup()
                .maze
                .shortest_path(shape.movement())
                .expect("solvable");
            let mut replies: Vec<String> = path[1..].iter().map(|p| format!("Going {p}")).collect();
            replies.push("I'd say a square".into());
            replies.push("no maze".into());
            let refs: Vec<&str> = replies.iter().map(String::as_str).collect();
            let t = played(shape, Encoding::Matrix, &refs, DEFAULT_MOVE_LIMIT);
            let text = t.transcript().expect("done");
            let hints = Hints {
                shape: Some(shape),
                ..Hints::default()
            };
            let read = replies_read(&text, &hints);
            let moves: Vec<&ReadReply> = read.iter().filter(|r| r.phase == Phase::Solve).collect();
            assert_eq!(moves.len(), path.len() - 1, "{shape}: every move read");
            for (i, r) in moves.iter().enumerate() {
                // The verdict on move i: the trial played up to it.
                let upto = played(shape, Encoding::Matrix, &refs[..=i], DEFAULT_MOVE_LIMIT);
                let v = upto.last_move().expect("a move verdict");
                assert_eq!(
                    Some(r.reading.sure()),
                    v.sure,
                    "{shape} move {i}: the queue's reading and the verdict agree"
                );
                assert!(
                    r.reading.sure(),
                    "{shape} move {i}: a step named alone is sure"
                );
            }
        }
    }

    #[test]
    fn transcripts_of_every_shape_and_encoding_rescore_to_their_recorded_verdicts() {
        for shape in Shape::ALL {
            for enc in Encoding::ALL {
                let t = solved(shape, enc, &format!("Shape: {shape}"), "no maze");
                let text = t.transcript().expect("done");
                for hints in [
                    Hints::default(),
                    Hints {
                        encoding: Some(enc),
                        shape: Some(shape),
                        size: Some((5, 5)),
                        in_play: None,
                        maze: None,
                    },
                ] {
                    let r = rescore(&text, &hints, &mut Libraries::new());
                    assert_eq!(r.basis, Basis::Replies, "{shape} {enc}: {:?}", r.notes);
                    // Without the folder's word a U is the C's upward opening.
                    let read = match (shape, hints.shape) {
                        (Shape::U, None) => Shape::C,
                        _ => shape,
                    };
                    assert_eq!(
                        (r.encoding, r.shape),
                        (Some(enc), Some(read)),
                        "{shape} {enc}: found from the text"
                    );
                    assert_eq!(r.counted(), t.outcomes(), "{shape} {enc}: outcomes");
                    assert!(
                        r.differences().is_empty(),
                        "{shape} {enc}: {:?}",
                        r.differences()
                    );
                    assert!(r.notes.is_empty(), "{shape} {enc}: {:?}", r.notes);
                }
            }
        }
    }

    #[test]
    fn an_edited_reply_shows_up_as_a_difference() {
        let t = solved(Shape::Square, Encoding::Matrix, "Shape: square", "nothing");
        let text = t.transcript().expect("done");
        let tampered = text.replacen("Shape: square", "Shape: triangle", 1);
        assert_ne!(text, tampered, "the recognition reply is in the transcript");
        let r = rescore(&tampered, &Hints::default(), &mut Libraries::new());
        let diffs = r.differences();
        assert_eq!(diffs.len(), 1, "only recognition changed: {diffs:?}");
        assert_eq!(diffs[0].phase, Phase::Recognize);
        assert_eq!(
            (diffs[0].recorded, diffs[0].recomputed),
            (Some(Outcome::Success), Some(Outcome::Fail))
        );
        assert_eq!(diffs[0].reason, Some(Reason::WrongShape));
    }

    #[test]
    fn a_recorded_api_error_without_a_reply_counts_as_an_error_not_a_difference() {
        let t = solved(Shape::Square, Encoding::Matrix, "Shape: square", "no maze");
        let text = t.transcript().expect("done");
        let failed_endpoint = text.replacen("### assistant\nno maze\n\n", "", 1).replacen(
            "GENERATE: FAIL",
            "GENERATE: ERROR",
            1,
        );
        assert_ne!(text, failed_endpoint, "the generation reply was removed");
        let r = rescore(&failed_endpoint, &Hints::default(), &mut Libraries::new());
        assert_eq!(r.basis, Basis::Replies, "{:?}", r.notes);
        assert_eq!(r.counted()[2], Some(Outcome::Error), "{:?}", r.phases[2]);
        assert!(r.differences().is_empty(), "{:?}", r.differences());

        let with_reply = text.replacen("GENERATE: FAIL", "GENERATE: ERROR", 1);
        let r = rescore(&with_reply, &Hints::default(), &mut Libraries::new());
        assert_eq!(
            r.counted()[2],
            Some(Outcome::Fail),
            "a reply is there: it is re-scored"
        );
        assert_eq!(r.differences().len(), 1, "{:?}", r.differences());
    }

    #[test]
    fn a_solve_phase_that_now_ends_earlier_is_reported_with_the_unscored_moves() {
        let t = solved(Shape::Cross, Encoding::CoordList, "Shape: cross", "nothing");
        let text = t.transcript().expect("done");
        let first = t
            .turns()
            .iter()
            .map(|turn| &turn.message)
            .find(|m| m.role == Role::Assistant)
            .expect("a move");
        let tampered = text.replacen(&first.content, "Move: (99, 99)", 1);
        let r = rescore(&tampered, &Hints::default(), &mut Libraries::new());
        assert_eq!(
            r.phases[0].reason,
            Some(Reason::OutOfBounds),
            "{:?}",
            r.phases[0]
        );
        assert_eq!(
            r.differences().len(),
            1,
            "solve differs: {:?}",
            r.differences()
        );
        assert!(
            r.notes.iter().any(|n| n.contains("ended after 1 of")),
            "{:?}",
            r.notes
        );
    }

    #[test]
    fn the_announced_move_limit_is_replayed() {
        let t = played(Shape::Square, Encoding::Matrix, &[], 3);
        let start = t.current().player();
        let away = t
            .current()
            .open_mask()
            .cells()
            .into_iter()
            .find(|&q| Shape::Square.movement().is_step(start, q) && q != t.current().goal())
            .expect("a neighbour");
        let moves = [away, start, away].map(|p| format!("Move: {p}"));
        let mut replies: Vec<&str> = moves.iter().map(String::as_str).collect();
        replies.extend(["square", "no maze"]);
        let t = played(Shape::Square, Encoding::Matrix, &replies, 3);
        assert_eq!(
            t.solve_verdict().map(|v| v.reason),
            Some(Reason::MoveLimit),
            "three moves hit the limit"
        );
        let r = rescore(
            &t.transcript().expect("done"),
            &Hints::default(),
            &mut Libraries::new(),
        );
        assert_eq!(r.phases[0].reason, Some(Reason::MoveLimit), "{:?}", r.notes);
        assert!(r.differences().is_empty(), "{:?}", r.differences());
    }

    #[test]
    fn foreign_and_unreadable_transcripts_fall_back_to_their_closing_lines() {
        let mut libs = Libraries::new();
        let foreign = rescore(
            "Q\nA: (1,1)\nSOLVE: SUCCESS\nRECOGNIZE: FAIL\nGENERATE: FAIL\n",
            &Hints::default(),
            &mut libs,
        );
        assert_eq!(foreign.basis, Basis::ClosingLines);
        assert_eq!(
            foreign.counted(),
            [
                Some(Outcome::Success),
                Some(Outcome::Fail),
                Some(Outcome::Fail)
            ]
        );
        assert!(
            foreign.differences().is_empty(),
            "nothing recomputed, nothing to differ"
        );
        assert!(foreign.notes[0].contains("markers"), "{:?}", foreign.notes);
        let no_maze = rescore(
            "### user\nhello\n### assistant\n(0,1)\nSOLVE: FAIL\n",
            &Hints::default(),
            &mut libs,
        );
        assert_eq!(no_maze.basis, Basis::ClosingLines);
        assert!(
            no_maze.notes[0].contains("cannot be read"),
            "{:?}",
            no_maze.notes
        );
        assert!(!rescore("a shopping list", &Hints::default(), &mut libs).is_transcript());
    }

    #[test]
    fn a_coordinate_list_maze_is_read_at_the_size_of_its_largest_coordinate() {
        let g = Encoding::Matrix
            .parse_grid("1 0 P\n0 0 1\nG 1 1", 3, 3)
            .expect("grid");
        let shown = format!(
            "Here:\n\n{}\n\nReply with (row, col)",
            Encoding::CoordList.render(&g)
        );
        assert_eq!(detect_encoding(&shown), Encoding::CoordList);
        assert_eq!(read_shown_maze(&shown, Encoding::CoordList), Ok(g));
        let huge = "Walls: (0,0), (40, 40)\nEmpty:\nPlayer position: (0,1)\nGoal: (1,0)";
        assert!(matches!(
            read_shown_maze(huge, Encoding::CoordList),
            Err(ParseError::OutOfBounds { .. })
        ));
    }

    /// proptest is a native-only dev-dependency.
    #[cfg(not(target_arch = "wasm32"))]
    mod never_panics {
        use super::*;
        use crate::play::prompt::{GENERATE_HEADING, RECOGNIZE_HEADING, SOLVE_HEADING};
        use proptest::prelude::*;

        proptest! {
            #[test]
            fn rescoring_arbitrary_text_never_panics(body in ".{0,400}", tail in prop::sample::select(vec!["", "\nSOLVE: FAIL\nRECOGNIZE: SUCCESS\nGENERATE: FAIL\n"])) {
                let mut libs = Libraries::new();
                let _ = rescore(&format!("{body}{tail}"), &Hints::default(), &mut libs);
                let marked = format!("### user\n{SOLVE_HEADING}\n1 0 P 0 G\n1 1 1 1 1\n### assistant\n{body}\n### user\n{RECOGNIZE_HEADING}\n### assistant\n{body}\n### user\n{GENERATE_HEADING}\n### assistant\n{body}{tail}");
                let _ = rescore(&marked, &Hints::default(), &mut libs);
            }
        }
    }
}
