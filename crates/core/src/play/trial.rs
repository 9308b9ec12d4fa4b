//! The three-phase trial: solve -> recognize -> generate -> done.
//!
//! A [`Trial`] owns the conversation and every rule of play. Whoever plays (a person
//! clicking, a built-in agent, a model) hands it reply text; the trial runs the same
//! verifiers on it, moves the player, ends phases and records the transcript. A person's
//! click is turned into the reply `Move: (r, c)` first, so people and models are scored by
//! the very same code.

use crate::maze::encoding::{CoordStyle, Encoding};
use crate::maze::grid::{Grid, Maze, Pos};
use crate::maze::image::Vision;
use crate::maze::shape::Shape;
use crate::maze::symbols::Symbols;
use crate::maze::templates::TemplateLibrary;
use crate::model::reply::{EmptyReason, ReplyMeta};
use crate::play::answer::{AnswerMode, FormReading, Kept};
use crate::play::phase::Phase;
use crate::play::prompt;
use crate::play::transcript::{Message, Role};
use crate::text::UnknownName;
use crate::verify::{self, Extracted, Outcome, Reason, Verdict};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// The design's move limit.
pub const DEFAULT_MOVE_LIMIT: usize = 16;

/// How a solve phase failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FailureKind {
    /// A move into a wall, off the grid, too far, diagonal where not allowed, or staying put.
    InvalidMove,
    /// The move limit was used up.
    MoveLimit,
    /// No move could be read from the reply.
    UnparseableReply,
    /// The endpoint failed; never counted as a failure of the model.
    ApiError,
}

impl FailureKind {
    /// Every failure kind.
    pub const ALL: [FailureKind; 4] = [
        FailureKind::InvalidMove,
        FailureKind::MoveLimit,
        FailureKind::UnparseableReply,
        FailureKind::ApiError,
    ];

    /// Whether this counts against the player (everything but an API error).
    pub fn is_model_failure(self) -> bool {
        self != FailureKind::ApiError
    }

    /// The kind of a failed solve phase, from its verdict's reason.
    pub fn of(reason: Reason) -> Option<FailureKind> {
        match reason {
            Reason::ReachedGoal | Reason::ValidMove => None,
            Reason::MoveLimit => Some(FailureKind::MoveLimit),
            Reason::NoCoordinate => Some(FailureKind::UnparseableReply),
            Reason::ApiError => Some(FailureKind::ApiError),
            _ => Some(FailureKind::InvalidMove),
        }
    }

    /// The snake_case name.
    pub fn name(self) -> &'static str {
        match self {
            FailureKind::InvalidMove => "invalid_move",
            FailureKind::MoveLimit => "move_limit",
            FailureKind::UnparseableReply => "unparseable_reply",
            FailureKind::ApiError => "api_error",
        }
    }
}

/// How a trial asks its questions (the record keeps which ran).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Protocol {
    /// One move per reply, the maze redrawn after each; then recognition and generation
    /// asked one after the other.
    #[default]
    Stepwise,
    /// Stepwise solving, then recognition and generation asked in one combined prompt (as
    /// the design's original runs did); the one reply is scored by both verifiers.
    Combined,
    /// The whole path in one reply, scored by the path verifier; then recognition and
    /// generation one after the other.
    SingleShot,
}

impl Protocol {
    /// Every protocol.
    pub const ALL: [Protocol; 3] = [Protocol::Stepwise, Protocol::Combined, Protocol::SingleShot];

    /// `stepwise`, `combined` or `single_shot` (URLs, files, JSON).
    pub fn name(self) -> &'static str {
        match self {
            Protocol::Stepwise => "stepwise",
            Protocol::Combined => "combined",
            Protocol::SingleShot => "single_shot",
        }
    }

    /// A short label for people.
    pub fn label(self) -> &'static str {
        match self {
            Protocol::Stepwise => "Stepwise (3 prompts)",
            Protocol::Combined => "Stepwise, recognize + generate combined",
            Protocol::SingleShot => "Single shot (whole path)",
        }
    }

    /// Reads a protocol name, any case, `-` or `_`.
    pub fn parse(s: &str) -> Result<Protocol, UnknownName> {
        let k = s.trim().to_ascii_lowercase().replace('-', "_");
        Protocol::ALL
            .into_iter()
            .find(|p| p.name() == k)
            .ok_or_else(|| UnknownName::new("protocol", s, "stepwise, combined or single_shot"))
    }
}

/// What a trial is played on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TrialSetup {
    /// The maze's shape.
    pub shape: Shape,
    /// The encoding the maze is shown in.
    pub encoding: Encoding,
    /// The maze as first shown.
    pub maze: Maze,
    /// Most moves allowed in the solve phase.
    pub move_limit: usize,
    /// Coordinate spacing for the coordinate-list encoding.
    pub style: CoordStyle,
    /// The matrix's symbols (the design's `1 0 P G` by default): the maze is shown in
    /// them and a generated maze is read in them.
    pub symbols: Symbols,
    /// The lenient protocol's allowance: this many invalid moves are answered with why
    /// they are invalid and the player tries again (each still uses a move); the next one
    /// ends the phase. 0, the default, is the design's strict rule.
    pub lenient: usize,
    /// How the questions are asked.
    pub protocol: Protocol,
    /// Whether the maze is shown as text, as an image only, or as both (each message that
    /// shows the maze then carries its image: [`Turn::image`]).
    pub vision: Vision,
    /// How the player is asked to give its answers (`free`, the design's, by default): a
    /// player of another mode answers through [`Trial::respond_form`].
    pub answer_mode: AnswerMode,
}

impl TrialSetup {
    /// A stepwise setup with the design's move limit and the default spacing.
    pub fn new(shape: Shape, encoding: Encoding, maze: Maze) -> Self {
        Self {
            shape,
            encoding,
            maze,
            move_limit: DEFAULT_MOVE_LIMIT,
            style: CoordStyle::default(),
            symbols: Symbols::STANDARD,
            lenient: 0,
            protocol: Protocol::Stepwise,
            vision: Vision::Text,
            answer_mode: AnswerMode::Free,
        }
    }

    /// How the maze is written in the trial's messages.
    pub fn shown(&self) -> prompt::Shown {
        prompt::Shown {
            encoding: self.encoding,
            style: self.style,
            symbols: self.symbols,
            vision: self.vision,
        }
    }
}

/// One three-phase trial in progress or finished.
///
/// It holds everything it needs to judge a reply (the shape's templates for its size), so
/// [`Trial::submit`] takes the reply alone.
#[derive(Clone, Debug, PartialEq)]
pub struct Trial {
    setup: TrialSetup,
    library: Arc<TemplateLibrary>,
    current: Maze,
    phase: Phase,
    moves: usize,
    valid_moves: usize,
    /// Invalid moves forgiven under the lenient protocol.
    retried_moves: usize,
    path: Vec<Pos>,
    last_move: Option<Verdict>,
    solve: Option<Verdict>,
    recognize: Option<Verdict>,
    generate: Option<Verdict>,
    turns: Vec<Turn>,
    api_error: Option<ApiFailure>,
    stopped: bool,
    /// While a reply left empty by the token limit is judged: what its verdict says
    /// instead of the verifier's explanation.
    empty_note: Option<String>,
}

/// One message of a trial's conversation with what is known about it: for a reply, its
/// metadata (latency, tokens, ...) and the verdict on it.
#[derive(Clone, Debug, PartialEq)]
pub struct Turn {
    /// The message as sent or received.
    pub message: Message,
    /// What is known about the reply besides its text; `None` for the trial's own
    /// messages and for replies without it (a person's click).
    pub meta: Option<ReplyMeta>,
    /// The verdict on the reply (the move's, the path's, the recognition's or the
    /// generation's; a combined reply's generation verdict); `None` for the trial's own
    /// messages.
    pub verdict: Option<Verdict>,
    /// Under an image condition, the maze this message shows, sent beside its text as an
    /// image (`core::maze::image`); `None` otherwise and for replies.
    pub image: Option<Grid>,
    /// Under an answer mode other than `free`, what the reply's form was read as
    /// ([`Trial::respond_form`]); `None` otherwise.
    pub form: Kept<Box<FormReading>>,
}

/// How the endpoint failed when a trial ended on an API error.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ApiFailure {
    /// A snake_case kind (`rate_limited`, `unauthorized`, `network`, ...).
    pub kind: String,
    /// What happened and what to do, for people.
    pub message: String,
    /// Attempts made before giving up.
    pub attempts: u32,
}

impl Trial {
    /// Starts a trial: the solve prompt is the first message. `library` must be for the
    /// maze's size (generation is judged against it).
    pub fn new(setup: TrialSetup, library: Arc<TemplateLibrary>) -> Self {
        let first = match setup.protocol {
            Protocol::SingleShot => prompt::solve_path(
                &setup.maze,
                setup.shape.movement(),
                setup.shown(),
                setup.move_limit,
            ),
            Protocol::Stepwise | Protocol::Combined => prompt::solve(
                &setup.maze,
                setup.shape.movement(),
                setup.shown(),
                setup.move_limit,
                setup.lenient,
            ),
        };
        let original = setup.maze.grid().clone();
        let mut trial = Self {
            current: setup.maze.clone(),
            path: vec![setup.maze.player()],
            setup,
            library,
            phase: Phase::Solve,
            moves: 0,
            valid_moves: 0,
            retried_moves: 0,
            last_move: None,
            solve: None,
            recognize: None,
            generate: None,
            turns: Vec::new(),
            api_error: None,
            stopped: false,
            empty_note: None,
        };
        trial.push_shown(&first, original);
        trial
    }

    /// Starts a trial, building the template library for the maze's size (about a
    /// millisecond at 5x5; callers running many trials share one [`Arc`] through
    /// [`Trial::new`]).
    pub fn start(setup: TrialSetup) -> Self {
        let library = Arc::new(TemplateLibrary::for_shape(setup.maze.rows(), setup.shape));
        Self::new(setup, library)
    }

    /// What the trial is played on.
    pub fn setup(&self) -> &TrialSetup {
        &self.setup
    }

    /// The template library the trial judges generation against.
    pub fn library(&self) -> &Arc<TemplateLibrary> {
        &self.library
    }

    /// The maze as it stands now (player moved).
    pub fn current(&self) -> &Maze {
        &self.current
    }

    /// The maze as the player is shown it now: where the player stands while solving, and
    /// the original (as first shown) from the recognition phase on, since recognition and
    /// generation are about the original.
    pub fn shown_maze(&self) -> &Maze {
        match self.phase {
            Phase::Solve => &self.current,
            _ => &self.setup.maze,
        }
    }

    /// The current phase.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// Move attempts so far (valid or not). In the single-shot protocol, the moves of the
    /// path as read.
    pub fn moves(&self) -> usize {
        self.moves
    }

    /// Valid moves so far.
    pub fn valid_moves(&self) -> usize {
        self.valid_moves
    }

    /// Invalid moves forgiven so far under the lenient protocol ([`TrialSetup::lenient`]).
    pub fn retried_moves(&self) -> usize {
        self.retried_moves
    }

    /// Cells the player has stood on, starting cell first.
    pub fn path(&self) -> &[Pos] {
        &self.path
    }

    /// The verdict on the latest move reply.
    pub fn last_move(&self) -> Option<&Verdict> {
        self.last_move.as_ref()
    }

    /// The solve phase's verdict, once it ended.
    pub fn solve_verdict(&self) -> Option<&Verdict> {
        self.solve.as_ref()
    }

    /// The recognition verdict, once given.
    pub fn recognize_verdict(&self) -> Option<&Verdict> {
        self.recognize.as_ref()
    }

    /// The generation verdict, once given.
    pub fn generate_verdict(&self) -> Option<&Verdict> {
        self.generate.as_ref()
    }

    /// The three verdicts, in phase order (`None` for phases not reached).
    pub fn verdicts(&self) -> [Option<&Verdict>; 3] {
        [
            self.solve.as_ref(),
            self.recognize.as_ref(),
            self.generate.as_ref(),
        ]
    }

    /// How the solve phase failed, if it did ([`FailureKind::ApiError`] when the endpoint
    /// failed, which is not a failure of the model).
    pub fn failure(&self) -> Option<FailureKind> {
        self.solve.as_ref().and_then(|v| FailureKind::of(v.reason))
    }

    /// The endpoint failure that ended the trial, if one did.
    pub fn api_error(&self) -> Option<&ApiFailure> {
        self.api_error.as_ref()
    }

    /// Whether the trial was stopped before it finished (by the person running it).
    pub fn stopped(&self) -> bool {
        self.stopped
    }

    /// The conversation so far, each message with its reply's metadata and verdict.
    pub fn turns(&self) -> &[Turn] {
        &self.turns
    }

    /// The conversation's messages so far.
    pub fn messages(&self) -> Vec<&Message> {
        self.turns.iter().map(|t| &t.message).collect()
    }

    /// The message waiting for a reply (the last one, when it is the trial's); none once
    /// the trial is done or stopped.
    pub fn pending_prompt(&self) -> Option<&str> {
        match self.turns.last().map(|t| &t.message) {
            Some(m) if m.role == Role::User && self.phase != Phase::Done && !self.stopped => {
                Some(&m.content)
            }
            _ => None,
        }
    }

    /// Whether the pending prompt asks for recognition and generation at once.
    pub fn combined_pending(&self) -> bool {
        self.phase == Phase::Recognize && self.setup.protocol == Protocol::Combined
    }

    /// Hands the trial a reply to its pending prompt; returns the verdict on it (for a
    /// combined reply, the generation verdict), or `None` when the trial is done.
    pub fn submit(&mut self, reply: &str) -> Option<Verdict> {
        self.respond(reply, None)
    }

    /// Like [`Trial::submit`], keeping what is known about the reply (latency, tokens,
    /// reasoning) beside it in the conversation. An empty reply is judged like any other;
    /// its metadata says why it is empty ([`ReplyMeta::empty_reason`], from its finish
    /// reason and reasoning), and when the token limit ended it, its verdict says so.
    pub fn respond(&mut self, reply: &str, meta: Option<ReplyMeta>) -> Option<Verdict> {
        if self.stopped {
            return None;
        }
        let meta = self.why_empty(reply, meta, false);
        let before = self.turns.len();
        let v = match self.phase {
            Phase::Solve if self.setup.protocol == Protocol::SingleShot => {
                Some(self.submit_path(reply))
            }
            Phase::Solve => Some(self.submit_move(reply)),
            Phase::Recognize if self.setup.protocol == Protocol::Combined => {
                Some(self.submit_combined(reply))
            }
            Phase::Recognize => Some(self.submit_recognition(reply)),
            Phase::Generate => Some(self.submit_generation(reply)),
            Phase::Done => None,
        };
        self.empty_note = None;
        if let Some(turn) = self.turns.get_mut(before) {
            turn.meta = meta;
        }
        v
    }

    /// A verifier's verdict as the trial keeps it: a failure on a reply the token limit
    /// left empty says that the limit ended it.
    fn noted(&self, v: Verdict) -> Verdict {
        match &self.empty_note {
            Some(note) if v.outcome == Outcome::Fail => Verdict {
                explanation: note.clone(),
                ..v
            },
            _ => v,
        }
    }

    /// A person's click on `cell`, as the reply `Move: (r, c)`.
    pub fn click(&mut self, cell: Pos) -> Option<Verdict> {
        (self.phase == Phase::Solve && self.setup.protocol != Protocol::SingleShot)
            .then(|| self.submit_move(&format!("Move: {cell}")))
    }

    /// Ends the solve phase with `done` and asks the next question.
    fn end_solve(&mut self, done: Verdict) {
        let s = &self.setup;
        let text = match s.protocol {
            Protocol::Combined => {
                prompt::combined(&s.maze, s.shown(), s.shape.movement(), &done.explanation)
            }
            Protocol::Stepwise | Protocol::SingleShot => {
                prompt::recognize(&s.maze, s.shown(), &done.explanation)
            }
        };
        self.solve = Some(done);
        self.phase = Phase::Recognize;
        let original = self.setup.maze.grid().clone();
        self.push_shown(&text, original);
    }

    /// A move reply in the solve phase (ignored in other phases).
    pub fn submit_move(&mut self, reply: &str) -> Verdict {
        let v = self.read_move(reply);
        self.take_move(reply, v)
    }

    /// The verdict on a move reply's text, by the readers.
    // read_* and take_* are inlined into the submit_* that join them, as before the answer
    // modes split them: the people's build, which calls only submit_*, keeps its size.
    #[inline(always)]
    pub(super) fn read_move(&self, reply: &str) -> Verdict {
        let movement = self.setup.shape.movement();
        let read = self.setup.symbols.with_standard_names(reply);
        self.noted(verify::verify_move(&self.current, movement, &read))
    }

    /// A move reply judged `v`: the player moves on a valid move, the phase ends on the
    /// goal, an invalid move (unless the lenient protocol forgives it) or the move limit.
    #[inline(always)]
    pub(super) fn take_move(&mut self, reply: &str, v: Verdict) -> Verdict {
        if self.phase != Phase::Solve {
            return v;
        }
        self.push(Role::Assistant, reply);
        self.judge(self.turns.len() - 1, &v);
        self.moves += 1;
        if let (true, Extracted::Cell(to)) = (v.passed(), &v.extracted) {
            self.valid_moves += 1;
            self.current = self.current.with_player_at(*to);
            self.path.push(*to);
        }
        let limit = self.setup.move_limit;
        let forgiven = FailureKind::of(v.reason) == Some(FailureKind::InvalidMove)
            && self.retried_moves < self.setup.lenient
            && self.moves < limit;
        if forgiven {
            self.retried_moves += 1;
            self.last_move = Some(v.clone());
            let next = prompt::retry(
                &v.explanation,
                self.setup.lenient - self.retried_moves,
                self.moves,
                limit,
            );
            self.push(Role::User, &next);
            return v;
        }
        let end = match v.reason {
            Reason::ReachedGoal => Some(Verdict {
                explanation: format!("Reached the goal in {} moves.", self.moves),
                ..v.clone()
            }),
            Reason::ValidMove if self.moves >= limit => Some(Verdict {
                outcome: Outcome::Fail,
                reason: Reason::MoveLimit,
                explanation: format!("All {limit} moves were used without reaching the goal."),
                ..v.clone()
            }),
            Reason::ValidMove => None,
            _ => Some(Verdict {
                explanation: format!("Move {}: {}", self.moves, v.explanation),
                ..v.clone()
            }),
        };
        self.last_move = Some(v.clone());
        match end {
            None => {
                let next = prompt::update(&self.current, self.setup.shown(), self.moves, limit);
                let now = self.current.grid().clone();
                self.push_shown(&next, now);
            }
            Some(done) => self.end_solve(done),
        }
        v
    }

    /// A whole-path reply in the single-shot solve phase (ignored in other phases). The
    /// path verifier judges it; a valid path longer than the move limit fails as
    /// `move_limit`.
    pub fn submit_path(&mut self, reply: &str) -> Verdict {
        let v = self.read_path(reply);
        self.take_path(reply, v)
    }

    /// The verdict on a whole-path reply's text, by the path verifier.
    #[inline(always)]
    pub(super) fn read_path(&self, reply: &str) -> Verdict {
        let movement = self.setup.shape.movement();
        let read = self.setup.symbols.with_standard_names(reply);
        self.noted(verify::verify_path(&self.setup.maze, movement, &read))
    }

    /// A whole-path reply judged `v`; a valid path longer than the move limit fails as
    /// `move_limit`.
    #[inline(always)]
    pub(super) fn take_path(&mut self, reply: &str, mut v: Verdict) -> Verdict {
        if self.phase != Phase::Solve {
            return v;
        }
        self.push(Role::Assistant, reply);
        let at = self.turns.len() - 1;
        let cells = match &v.extracted {
            Extracted::Cells(c) => c.clone(),
            _ => Vec::new(),
        };
        let steps = cells.len().saturating_sub(1);
        self.moves = steps;
        if v.passed() {
            self.valid_moves = steps;
            self.path = cells;
            if let Some(&end) = self.path.last() {
                self.current = self.current.with_player_at(end);
            }
            if steps > self.setup.move_limit {
                v = Verdict {
                    outcome: Outcome::Fail,
                    reason: Reason::MoveLimit,
                    explanation: format!(
                        "The path takes {steps} moves, more than the limit of {}.",
                        self.setup.move_limit
                    ),
                    ..v
                };
            }
        }
        self.last_move = Some(v.clone());
        self.judge(at, &v);
        self.end_solve(v.clone());
        v
    }

    /// The recognition reply (ignored outside the recognize phase).
    pub fn submit_recognition(&mut self, reply: &str) -> Verdict {
        let v = self.read_recognition(reply);
        self.take_recognition(reply, v)
    }

    /// The verdict on a recognition reply's text, by the shape reader.
    #[inline(always)]
    pub(super) fn read_recognition(&self, reply: &str) -> Verdict {
        self.noted(verify::verify_recognition(
            self.setup.shape,
            reply,
            self.library.shapes(),
        ))
    }

    /// A recognition reply judged `v`: the generation is asked next.
    #[inline(always)]
    pub(super) fn take_recognition(&mut self, reply: &str, v: Verdict) -> Verdict {
        if self.phase == Phase::Recognize {
            self.push(Role::Assistant, reply);
            self.judge(self.turns.len() - 1, &v);
            self.recognize = Some(v.clone());
            self.phase = Phase::Generate;
            let text = prompt::generate(
                &self.setup.maze,
                self.setup.shown(),
                self.setup.shape.movement(),
            );
            self.push(Role::User, &text);
        }
        v
    }

    /// The one reply to the combined recognition and generation prompt: recognition and
    /// generation are each judged on the whole reply. Returns the generation verdict.
    pub fn submit_combined(&mut self, reply: &str) -> Verdict {
        let recognized = self.read_recognition(reply);
        let generated = self.judge_generation(reply);
        self.take_combined(reply, recognized, generated)
    }

    /// A combined reply judged `recognized` and `generated`: the trial is done.
    #[inline(always)]
    pub(super) fn take_combined(
        &mut self,
        reply: &str,
        recognized: Verdict,
        generated: Verdict,
    ) -> Verdict {
        if self.phase == Phase::Recognize {
            self.push(Role::Assistant, reply);
            self.judge(self.turns.len() - 1, &generated);
            self.recognize = Some(recognized);
            self.generate = Some(generated.clone());
            self.phase = Phase::Done;
        }
        generated
    }

    pub(super) fn judge_generation(&self, reply: &str) -> Verdict {
        let s = &self.setup;
        self.noted(verify::verify_generation_in(
            &s.maze,
            s.shape,
            s.encoding,
            s.symbols,
            &self.library,
            reply,
        ))
    }

    /// The generation reply (ignored outside the generate phase).
    pub fn submit_generation(&mut self, reply: &str) -> Verdict {
        let v = self.judge_generation(reply);
        self.take_generation(reply, v)
    }

    /// A generation reply judged `v`: the trial is done.
    #[inline(always)]
    pub(super) fn take_generation(&mut self, reply: &str, v: Verdict) -> Verdict {
        if self.phase == Phase::Generate {
            self.push(Role::Assistant, reply);
            self.judge(self.turns.len() - 1, &v);
            self.generate = Some(v.clone());
            self.phase = Phase::Done;
        }
        v
    }

    /// `meta` with why `reply` is empty ([`ReplyMeta::empty_reason`]), unless its answer
    /// came elsewhere (`answered`: in a function call or the reasoning field, answer_mode.rs),
    /// and what its failing verdict will say of it while it is judged (nothing for `None`).
    pub(super) fn why_empty(
        &mut self,
        reply: &str,
        meta: Option<ReplyMeta>,
        answered: bool,
    ) -> Option<ReplyMeta> {
        let meta = meta.map(|mut m| {
            m.empty_reason = (!answered)
                .then(|| EmptyReason::of(reply, m.finish_reason.as_deref(), m.reasoning.as_deref()))
                .flatten();
            m
        });
        self.empty_note = meta
            .as_ref()
            .and_then(|m| m.empty_reason?.explanation(m.max_tokens));
        meta
    }

    /// The conversation, to add what a player sent with a prompt and kept of a reply
    /// (answer_mode.rs).
    pub(super) fn turns_mut(&mut self) -> &mut [Turn] {
        &mut self.turns
    }

    /// Ends the trial on an endpoint failure: the phase in progress and every later one
    /// get the verdict `error` (reason `api_error`), never a model failure.
    pub fn fail_api(&mut self, failure: ApiFailure) {
        if self.phase == Phase::Done {
            return;
        }
        let error = Verdict::api_error(format!("Not judged: {}", failure.message));
        for slot in [&mut self.solve, &mut self.recognize, &mut self.generate] {
            if slot.is_none() {
                *slot = Some(error.clone());
            }
        }
        self.api_error = Some(failure);
        self.phase = Phase::Done;
    }

    /// Marks the trial as stopped by the person running it: it stays in the phase it was
    /// in and takes no more replies, and the phases not reached stay without a verdict (a
    /// stopped trial is rerun, never counted).
    pub fn stop(&mut self) {
        if self.phase != Phase::Done {
            self.stopped = true;
        }
    }

    fn push(&mut self, role: Role, content: &str) {
        self.turns.push(Turn {
            message: Message {
                role,
                content: content.to_string(),
            },
            meta: None,
            verdict: None,
            image: None,
            form: Kept::default(),
        });
    }

    /// Pushes a prompt that shows `maze`: under an image condition it carries the image.
    fn push_shown(&mut self, content: &str, maze: Grid) {
        self.push(Role::User, content);
        if self.setup.vision.shows_image() {
            if let Some(turn) = self.turns.last_mut() {
                turn.image = Some(maze);
            }
        }
    }

    /// Keeps `v` as the verdict on the reply just pushed at `index`.
    fn judge(&mut self, index: usize, v: &Verdict) {
        if let Some(turn) = self.turns.get_mut(index) {
            turn.verdict = Some(v.clone());
        }
    }

    /// The three outcomes, `None` for phases not yet ended.
    pub fn outcomes(&self) -> [Option<Outcome>; 3] {
        self.verdicts().map(|v| v.map(|v| v.outcome))
    }

    /// The transcript in the text format of CONTRACT.md; `None` until every phase has a
    /// verdict (a stopped trial has none).
    pub fn transcript(&self) -> Option<String> {
        let [Some(s), Some(r), Some(g)] = self.outcomes() else {
            return None;
        };
        Some(crate::play::transcript::render(
            self.turns.iter().map(|t| &t.message),
            [s, r, g],
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::maze::generate::generate_one;
    use crate::play::transcript;

    #[test]
    fn each_played_phase_is_at_its_own_index_and_done_counts_as_the_generation() {
        for (i, p) in Phase::PLAYED.into_iter().enumerate() {
            assert_eq!(p.index(), i, "{p:?}");
            assert_eq!(Phase::at(p.index()), p, "{p:?} round-trips");
        }
        assert_eq!(Phase::Done.index(), Phase::Generate.index());
        assert_eq!(
            Phase::at(7),
            Phase::Generate,
            "past the last is the generation"
        );
    }

    fn trial(shape: Shape, encoding: Encoding) -> (Trial, Arc<TemplateLibrary>) {
        let lib = Arc::new(TemplateLibrary::for_shape(5, shape));
        let maze = generate_one(shape, 0, 1, &lib).expect("maze");
        (
            Trial::new(TrialSetup::new(shape, encoding, maze), lib.clone()),
            lib,
        )
    }

    #[test]
    fn following_the_shortest_path_solves_every_shape_in_both_encodings() {
        for shape in Shape::ALL {
            for enc in Encoding::ALL {
                let (mut t, _) = trial(shape, enc);
                let path = t
                    .setup()
                    .maze
                    .shortest_path(shape.movement())
                    .expect("solvable");
                for &cell in &path[1..] {
                    assert_eq!(t.phase(), Phase::Solve);
                    let v = t.click(cell).expect("solve phase");
                    assert!(v.passed(), "{shape} {enc}: {}", v.explanation);
                }
                assert_eq!(t.phase(), Phase::Recognize);
                assert_eq!(
                    t.shown_maze(),
                    &t.setup().maze,
                    "the original is shown again"
                );
                assert_ne!(t.current(), &t.setup().maze, "the player did move");
                assert_eq!(
                    t.solve_verdict().map(|v| v.reason),
                    Some(Reason::ReachedGoal)
                );
                assert_eq!(
                    (t.moves(), t.valid_moves()),
                    (path.len() - 1, path.len() - 1)
                );
                assert!(t
                    .submit(&format!("Shape: {}", shape.name()))
                    .expect("v")
                    .passed());
                assert_eq!(t.phase(), Phase::Generate);
                let copy = enc.render(t.setup().maze.grid());
                let v = t.submit(&copy).expect("v");
                assert_eq!(v.reason, Reason::IdenticalToOriginal);
                assert_eq!(t.phase(), Phase::Done);
                let text = t.transcript().expect("done");
                assert!(
                    text.ends_with("SOLVE: SUCCESS\nRECOGNIZE: SUCCESS\nGENERATE: FAIL\n"),
                    "{text}"
                );
                assert!(t.submit("more").is_none(), "a done trial takes no replies");
            }
        }
    }

    /// A wall next to the player of a square ring trial.
    fn wall_beside_player(t: &Trial) -> Pos {
        let p = t.current().player();
        Shape::Square
            .movement()
            .steps()
            .iter()
            .filter_map(|&(dr, dc)| p.offset(dr, dc))
            .find(|&q| t.current().grid().get(q) == Some(crate::maze::grid::Tile::Wall))
            .expect("a square ring cell has a wall neighbour")
    }

    #[test]
    fn a_click_on_a_wall_ends_the_solve_phase_as_an_invalid_move() {
        let (mut t, _) = trial(Shape::Square, Encoding::Matrix);
        let wall = wall_beside_player(&t);
        let v = t.click(wall).expect("solve");
        assert_eq!(v.reason, Reason::Wall);
        assert_eq!(t.phase(), Phase::Recognize);
        assert_eq!(t.failure(), Some(FailureKind::InvalidMove));
        assert_eq!((t.moves(), t.valid_moves()), (1, 0));
    }

    #[test]
    fn the_lenient_protocol_answers_invalid_moves_until_its_allowance_is_spent() {
        let (t, _) = trial(Shape::Square, Encoding::Matrix);
        let mut t = Trial::start(TrialSetup {
            lenient: 2,
            ..t.setup().clone()
        });
        let first = &t.turns()[0].message.content;
        assert!(
            first.contains("You have at most 16 moves. An invalid move is answered with why it is invalid and you may try again, up to 2 invalid moves (each still uses a move); the next one ends the phase."),
            "{first}"
        );
        assert_eq!(prompt::announced_lenient(first), Some(2));
        let (p, wall) = (t.current().player(), wall_beside_player(&t));
        let v = t.submit(&format!("Move: {wall}")).expect("judged");
        assert_eq!((v.reason, t.phase()), (Reason::Wall, Phase::Solve));
        let answer = &t.turns().last().expect("an answer").message.content;
        assert_eq!(
            answer,
            &format!("Invalid move, try again:\n{} You stay where you are. One more invalid move may be tried again.\n\nMoves used: 1 of 16. Reply with your next move: Move: (row, col)", v.explanation)
        );
        // An unreadable reply is not an invalid move: it ends the phase as in strict
        // play, with allowance left.
        let mut unread = t.clone();
        unread.submit("I am lost.");
        assert_eq!(unread.failure(), Some(FailureKind::UnparseableReply));
        // A valid move in between does not give the allowance back.
        let open = t
            .current()
            .open_mask()
            .cells()
            .into_iter()
            .find(|&q| Shape::Square.movement().is_step(p, q) && q != t.current().goal())
            .expect("an open neighbour");
        assert!(t.click(open).expect("solve").passed());
        let v = t.submit("Move: (9, 9)").expect("judged");
        assert_eq!((v.reason, t.phase()), (Reason::OutOfBounds, Phase::Solve));
        assert!(t
            .turns()
            .last()
            .expect("an answer")
            .message
            .content
            .contains("The next invalid move ends the phase."));
        assert_eq!(
            t.current().player(),
            open,
            "a forgiven move leaves the player where it was"
        );
        // The third invalid move ends the phase.
        let v = t.submit("Move: (9, 9)").expect("judged");
        assert_eq!(
            (v.reason, t.phase()),
            (Reason::OutOfBounds, Phase::Recognize)
        );
        assert_eq!(t.failure(), Some(FailureKind::InvalidMove));
        assert_eq!((t.moves(), t.valid_moves(), t.retried_moves()), (4, 1, 2));
        // The strict rule is unchanged and its prompt says so.
        let strict = trial(Shape::Square, Encoding::Matrix).0;
        assert_eq!(
            prompt::announced_lenient(&strict.turns()[0].message.content),
            None
        );
    }

    #[test]
    fn the_move_limit_ends_the_solve_phase() {
        let (mut t0, _) = trial(Shape::Square, Encoding::Matrix);
        let mut setup = t0.setup().clone();
        setup.move_limit = 4;
        t0 = Trial::start(setup);
        let start = t0.current().player();
        let away = t0
            .current()
            .open_mask()
            .cells()
            .into_iter()
            .find(|&q| Shape::Square.movement().is_step(start, q) && q != t0.current().goal())
            .expect("a neighbour");
        // Bouncing between the start and a neighbour that is not the goal never arrives.
        for i in 0..4 {
            assert_eq!(
                t0.phase(),
                Phase::Solve,
                "move {i} is still in the solve phase"
            );
            let to = if i % 2 == 0 { away } else { start };
            assert!(
                t0.click(to).expect("solve phase").passed(),
                "move {i} is valid"
            );
        }
        assert_eq!(
            t0.phase(),
            Phase::Recognize,
            "the fourth move under a limit of four ends the phase"
        );
        let v = t0.solve_verdict().expect("ended");
        assert_eq!(v.reason, Reason::MoveLimit, "{v:?}");
        assert_eq!(t0.failure(), Some(FailureKind::MoveLimit));
        assert_eq!((t0.moves(), t0.valid_moves()), (4, 4));
    }

    #[test]
    fn an_unreadable_reply_ends_the_solve_phase() {
        let (mut t, _) = trial(Shape::Z, Encoding::CoordList);
        let v = t.submit("I am not sure where to go.").expect("v");
        assert_eq!(v.reason, Reason::NoCoordinate);
        assert_eq!(t.failure(), Some(FailureKind::UnparseableReply));
    }

    #[test]
    fn an_empty_reply_is_judged_and_says_when_the_token_limit_ended_it() {
        let limited = |reasoning: Option<&str>| ReplyMeta {
            finish_reason: Some("length".into()),
            reasoning: reasoning.map(str::to_string),
            max_tokens: Some(2000),
            ..ReplyMeta::default()
        };
        let (mut t, _) = trial(Shape::Square, Encoding::Matrix);
        let v = t
            .respond("", Some(limited(Some("Let me think"))))
            .expect("judged");
        assert_eq!(v.reason, Reason::NoCoordinate);
        assert_eq!(
            v.explanation,
            "The token limit (2000) was spent on reasoning; no answer was given."
        );
        assert_eq!(t.failure(), Some(FailureKind::UnparseableReply));
        assert_eq!(
            t.solve_verdict().map(|v| v.explanation.as_str()),
            Some("Move 1: The token limit (2000) was spent on reasoning; no answer was given.")
        );
        assert_eq!(
            t.turns()[1].meta.as_ref().and_then(|m| m.empty_reason),
            Some(EmptyReason::LengthInReasoning)
        );
        let v = t.respond(" ", Some(limited(None))).expect("judged");
        assert_eq!(v.reason, Reason::NoShapeNamed);
        assert_eq!(
            v.explanation,
            "The token limit (2000) was reached before any answer text; no answer was given."
        );
        // An empty reply that stopped, and the same reply without metadata: the verifier's
        // own verdict.
        let own = verify::verify_generation(
            &t.setup().maze,
            Shape::Square,
            Encoding::Matrix,
            t.library(),
            "",
        );
        let stopped = ReplyMeta {
            finish_reason: Some("stop".into()),
            ..ReplyMeta::default()
        };
        assert_eq!(t.respond("", Some(stopped)), Some(own.clone()));
        assert_eq!(
            t.turns()[5].meta.as_ref().and_then(|m| m.empty_reason),
            Some(EmptyReason::NoText)
        );
        let (mut person, _) = trial(Shape::Square, Encoding::Matrix);
        person.submit("Move: (9, 9)");
        person.submit("");
        assert_eq!(person.submit(""), Some(own));
        assert!(person.turns().iter().all(|t| t.meta.is_none()));
    }

    #[test]
    fn the_transcript_reads_back_into_the_same_conversation() {
        let (mut t, _) = trial(Shape::C, Encoding::Matrix);
        t.submit("I'll go to (9, 9)");
        t.submit("It is a C shape");
        t.submit("1 1\nP G");
        let text = t.transcript().expect("done");
        let parsed = transcript::parse(&text);
        assert!(parsed.marked);
        assert_eq!(parsed.messages.iter().collect::<Vec<_>>(), t.messages());
        assert_eq!(
            parsed.closing,
            [
                Some(Outcome::Fail),
                Some(Outcome::Success),
                Some(Outcome::Fail)
            ]
        );
        assert!(t.messages()[0].content.starts_with(prompt::SOLVE_HEADING));
    }
}
