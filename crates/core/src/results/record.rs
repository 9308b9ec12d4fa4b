//! The trial record: everything a finished, stopped or interrupted trial is, in one
//! serde type that every view is made from (the transcript text, the JSON download, the
//! stored rows, the exports and the dashboard).

use crate::json::is_zero;
use crate::json::JsonError;
use crate::maze::encoding::Encoding;
use crate::maze::grid::{Maze, Pos, MAX_SIZE};
use crate::maze::image::Vision;
use crate::maze::shape::{Shape, ShapeSet};
use crate::maze::symbols::Symbols;
use crate::maze::templates::TemplateLibrary;
use crate::model::reply::{EmptyReason, EndpointInfo, ReplyMeta};
use crate::play::answer::{AnswerMode, FormAnswer, FormReading, FormReason, Kept, PhaseModes};
use crate::play::condition::Condition;
use crate::play::phase::Phase;
use crate::play::player::PlayerKind;
use crate::play::staircase::StairStep;
use crate::play::transcript::{self, Message, Role};
use crate::play::trial::{ApiFailure, FailureKind, Protocol, Trial, TrialSetup};
use crate::verify::{Extracted, Verdict};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::sync::Arc;

/// The versions a record was made with, so a later re-score can say what changed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Versions {
    /// The Shapemaze crate's version.
    pub shapemaze: String,
    /// The prompts' wording ([`crate::play::prompt::VERSION`]).
    pub prompt: u32,
    /// The verifiers' reading rules ([`VERIFIER_VERSION`]).
    pub verifier: u32,
}

/// The version of the verifiers' reading rules: bumped whenever a reply could be read
/// differently than before.
pub const VERIFIER_VERSION: u32 = 9;

impl Versions {
    /// The versions of this build.
    pub fn current() -> Versions {
        Versions {
            shapemaze: env!("CARGO_PKG_VERSION").to_string(),
            prompt: crate::play::prompt::VERSION,
            verifier: VERIFIER_VERSION,
        }
    }
}

/// One message of a recorded conversation, with what is known about it. In JSON the
/// reply's metadata stands beside `role` and `content` (`{"role": ..., "content": ...,
/// "latency_ms": ..., "verdict": ...}`, CONTRACT.md "Trial records"), through serde's
/// flatten; what is wrong in it is named with its place ([`crate::json::flattened`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RecordMessage {
    /// `user` (the trial's prompts) or `assistant` (the player's replies).
    pub role: Role,
    /// The text exactly as sent or received.
    pub content: String,
    /// What is known about the reply besides its text (empty for prompts and people's
    /// answers).
    #[serde(flatten, deserialize_with = "crate::json::flattened")]
    pub meta: ReplyMeta,
    /// The verdict on this reply (a move's, the path's, the recognition's, the
    /// generation's), for replies.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verdict: Option<Verdict>,
    /// Under an answer mode other than `free`, what the reply's form was read as
    /// (docs/guides/answer-modes.md); absent otherwise and in older records. The people's
    /// build leaves it unread (`people-records`).
    #[cfg_attr(
        not(feature = "people-records"),
        serde(default, skip_serializing_if = "Kept::is_none")
    )]
    #[cfg_attr(feature = "people-records", serde(skip))]
    pub form: Kept<Box<FormReading>>,
}

impl RecordMessage {
    /// A message with its reply's metadata and verdict.
    pub fn new(role: Role, content: String, meta: ReplyMeta, verdict: Option<Verdict>) -> Self {
        RecordMessage {
            role,
            content,
            meta,
            verdict,
            form: Kept::default(),
        }
    }

    /// The reply as a transcript shows it: its text, and after it the function it called
    /// with the arguments, or the JSON answer its reasoning held, when the form was read
    /// from there (a transcript has no other place for them).
    pub fn shown(&self) -> String {
        shown(&self.content, self.form.as_deref())
    }
}

/// A reply's text as a transcript shows it ([`RecordMessage::shown`]).
pub fn shown(content: &str, form: Option<&FormReading>) -> String {
    use crate::play::answer::Source;
    let Some(f) = form else {
        return content.to_string();
    };
    let answer = f.answer.as_deref().unwrap_or("");
    let added = match (f.source, &f.tool) {
        (Source::ToolCall, Some(name)) => format!("{name}({answer})"),
        (Source::Reasoning, _) if !answer.is_empty() => answer.to_string(),
        _ => return content.to_string(),
    };
    if content.trim().is_empty() {
        added
    } else {
        format!("{content}\n\n{added}")
    }
}

/// The three phases' verdicts (`null` for a phase not reached).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PhaseVerdicts {
    /// The solve phase's verdict.
    pub solve: Option<Verdict>,
    /// The recognition verdict.
    pub recognize: Option<Verdict>,
    /// The generation verdict.
    pub generate: Option<Verdict>,
}

impl PhaseVerdicts {
    /// The three, in phase order.
    pub fn all(&self) -> [Option<&Verdict>; 3] {
        [
            self.solve.as_ref(),
            self.recognize.as_ref(),
            self.generate.as_ref(),
        ]
    }
}

/// Where a trial sits in its experiment: the maze set and the repeat.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Placement {
    /// The maze set's seed.
    pub seed: u64,
    /// Which maze of the set (0-based).
    pub sample: usize,
    /// Which repeat of that maze (0-based).
    pub repeat: usize,
}

/// Everything a finished, stopped or interrupted trial is (CONTRACT.md, "Trial records").
/// Records of every format version written read back (the fields added later have their
/// defaults; tests/fixtures/records).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TrialRecord {
    /// Who played.
    pub player: PlayerKind,
    /// The model's name, or the built-in player's (`oracle`, `random`, `human`).
    pub model: String,
    /// The endpoint, for model trials.
    #[serde(default)]
    pub endpoint: Option<EndpointInfo>,
    /// The maze's shape.
    pub shape: Shape,
    /// The shapes in play beyond the design's six (`["U"]`, left out when none): they
    /// decide what a recognition answer names and the C's orientations.
    #[serde(default, skip_serializing_if = "ShapeSet::is_standard")]
    pub shapes: ShapeSet,
    /// The grid side.
    pub size: usize,
    /// The encoding the maze was shown in.
    pub encoding: Encoding,
    /// The matrix's symbols when they are not the design's `1 0 P G` (left out then): the
    /// maze was shown in them and a generated maze read in them.
    #[serde(default, skip_serializing_if = "Symbols::is_standard")]
    pub symbols: Symbols,
    /// How the maze was shown: `image` or `image+text` when it was sent as an image (left
    /// out for the design's text).
    #[serde(default, skip_serializing_if = "Vision::is_text")]
    pub vision: Vision,
    /// The maze set's seed.
    pub seed: u64,
    /// Which maze of the set (0-based).
    pub sample: usize,
    /// Which repeat of that maze (0-based).
    #[serde(default)]
    pub repeat: usize,
    /// Most moves allowed.
    pub move_limit: usize,
    /// How the questions were asked.
    #[serde(default)]
    pub protocol: Protocol,
    /// The system prompt sent before the conversation, if any.
    #[serde(default)]
    pub system_prompt: Option<String>,
    /// The maze as first shown, in the matrix encoding, one row per entry.
    pub maze: Vec<String>,
    /// The conversation, in order.
    pub messages: Vec<RecordMessage>,
    /// Each phase's verdict, whole.
    pub verdicts: PhaseVerdicts,
    /// Move attempts in the solve phase.
    pub moves: usize,
    /// Valid moves among them.
    pub valid_moves: usize,
    /// The lenient protocol's allowance of invalid moves tried again (left out when 0,
    /// the design's strict rule).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub lenient: usize,
    /// Invalid moves it forgave (each answered with why, the player trying again).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub retried_moves: usize,
    /// The shortest path's length in moves (for comparing with the moves made).
    pub shortest_path: Option<usize>,
    /// The cells the player stood on, start first.
    pub path: Vec<Pos>,
    /// How the solve phase failed (`api_error` when the endpoint failed).
    #[serde(default)]
    pub failure: Option<FailureKind>,
    /// The shape the recognition reply named, if any (for the confusion matrix).
    #[serde(default)]
    pub predicted_shape: Option<Shape>,
    /// The endpoint failure that ended the trial, if any.
    #[serde(default)]
    pub api_error: Option<ApiFailure>,
    /// Whether the person running it stopped the trial before it finished.
    #[serde(default)]
    pub stopped: bool,
    /// When the trial started, in milliseconds since the Unix epoch (passed in: the core
    /// has no clock).
    #[serde(default)]
    pub started_ms: Option<f64>,
    /// When it ended, likewise.
    #[serde(default)]
    pub ended_ms: Option<f64>,
    /// Where it stands in a staircase walk (left out for a trial of no staircase).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub staircase: Option<StairStep>,
    /// How a person was shown the maze (`grid`, or `text`: the encoding above, as a model
    /// sees it); left out for models and built-in players, and absent in a person's record
    /// from before it was kept (then pairing with models falls back to the encoding).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub condition: Option<Condition>,
    /// Whether a person was shown the maze's shape before their recognition answer:
    /// `false` where the page kept it hidden (a study's trials), `true` where it showed it.
    /// Absent for models and built-in players, and in people's records made before
    /// [`SHAPE_HIDDEN_SINCE`], whose pages named the shape above the maze: read it through
    /// [`TrialRecord::shape_shown`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shape_shown_before_answer: Option<bool>,
    /// How the player was asked to give its answers (`schema`, `tool`, `transcribed`; left
    /// out for `free`, the design's, which is what older records are). The people's build
    /// leaves it and the next unread (`people-records`).
    #[cfg_attr(
        not(feature = "people-records"),
        serde(default, skip_serializing_if = "AnswerMode::is_free")
    )]
    #[cfg_attr(feature = "people-records", serde(skip))]
    pub answer_mode: AnswerMode,
    /// The mode each phase ran in, with its replies whose form was not held and why it
    /// stepped down (left out for `free`).
    #[cfg_attr(
        not(feature = "people-records"),
        serde(default, skip_serializing_if = "Kept::is_none")
    )]
    #[cfg_attr(feature = "people-records", serde(skip))]
    pub answer_mode_in_effect: Kept<PhaseModes>,
    /// What made it.
    pub versions: Versions,
}

/// The first Shapemaze version (`versions.shapemaze`) whose people's pages keep the maze's
/// shape from the player until the recognition answer is in (before it, `/play` and
/// `/study` named the shape above the maze in every trial).
pub const SHAPE_HIDDEN_SINCE: [u32; 3] = [0, 2, 0];

/// The tokens one trial's calls used, as the endpoint reported them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Tokens {
    /// Calls whose reply reported its usage.
    pub calls: usize,
    /// Prompt tokens over those calls.
    pub prompt: u64,
    /// Completion tokens (reasoning included, as endpoints count them).
    pub completion: u64,
    /// Of the completion tokens, those the endpoints said went to reasoning.
    #[serde(default)]
    pub reasoning: u64,
    /// Replies cut off by the token limit (`finish_reason` `length`).
    pub cut_off: usize,
}

impl Tokens {
    /// The tokens of a record's replies; `None` when no reply reported its usage (people,
    /// built-in players, endpoints that do not say).
    pub fn of(r: &TrialRecord) -> Option<Tokens> {
        let mut t = Tokens::default();
        for m in r.messages.iter().filter(|m| m.role == Role::Assistant) {
            if m.meta.prompt_tokens.is_some() || m.meta.completion_tokens.is_some() {
                t.calls += 1;
                t.prompt += m.meta.prompt_tokens.unwrap_or(0);
                t.completion += m.meta.completion_tokens.unwrap_or(0);
                t.reasoning += m.meta.reasoning_tokens.unwrap_or(0);
            }
            t.cut_off += usize::from(m.meta.finish_reason.as_deref() == Some("length"));
        }
        (t.calls > 0).then_some(t)
    }

    /// Prompt and completion tokens together.
    pub fn total(&self) -> u64 {
        self.prompt + self.completion
    }
}

impl TrialRecord {
    /// What the trial's calls cost in dollars, at the price its endpoint was given; `None`
    /// without a price or without reported usage.
    pub fn cost(&self) -> Option<f64> {
        let price = self.endpoint.as_ref()?.price?;
        let t = Tokens::of(self)?;
        Some(price.cost(t.prompt, t.completion, t.reasoning))
    }
}

/// Who played a trial and how, for [`TrialRecord::of`].
#[derive(Clone, Debug, PartialEq)]
pub struct PlayerInfo {
    /// The kind of player.
    pub kind: PlayerKind,
    /// The model's or built-in player's name.
    pub model: String,
    /// The endpoint, for model trials.
    pub endpoint: Option<EndpointInfo>,
    /// The system prompt, if one was sent.
    pub system_prompt: Option<String>,
}

impl PlayerInfo {
    /// A built-in player or a person, named by its kind (`oracle`, `human`, ...), with
    /// no endpoint and no system prompt.
    pub fn builtin(kind: PlayerKind) -> PlayerInfo {
        PlayerInfo {
            kind,
            model: kind.name().to_string(),
            endpoint: None,
            system_prompt: None,
        }
    }
}

/// Why a record cannot be read, replayed or written, with what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordError {
    /// The text is not the JSON of a trial record (where, and serde's reason).
    NotARecord(JsonError),
    /// The record's maze is not a maze of its stated size (what is wrong with it).
    BadMaze(String),
    /// The record does not hold together: a count, the conversation (what is wrong).
    Inconsistent(String),
    /// The record has no messages, so there is nothing to replay.
    NoMessages,
    /// The record cannot be written as JSON (serde's reason).
    Unwritable(String),
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::NotARecord(e) => write!(f, "not a trial record: {e}"),
            RecordError::BadMaze(why) => write!(f, "the record's maze {why}"),
            RecordError::Inconsistent(why) => f.write_str(why),
            RecordError::NoMessages => f.write_str("the record has no messages to replay"),
            RecordError::Unwritable(e) => write!(f, "the record cannot be written as JSON: {e}"),
        }
    }
}

impl std::error::Error for RecordError {}

impl TrialRecord {
    /// The record of `trial` (finished or not), played by `player` at `placement`,
    /// between `started_ms` and `ended_ms`.
    pub fn of(
        trial: &Trial,
        player: PlayerInfo,
        placement: Placement,
        started_ms: Option<f64>,
        ended_ms: Option<f64>,
    ) -> TrialRecord {
        let setup = trial.setup();
        let maze = &setup.maze;
        let messages = trial
            .turns()
            .iter()
            .map(|t| RecordMessage {
                form: t.form.clone(),
                ..RecordMessage::new(
                    t.message.role,
                    t.message.content.clone(),
                    t.meta.clone().unwrap_or_default(),
                    t.verdict.clone(),
                )
            })
            .collect();
        let [solve, recognize, generate] = trial.verdicts().map(|v| v.cloned());
        let predicted_shape = match recognize.as_ref().map(|v| &v.extracted) {
            Some(Extracted::Shape(s)) => Some(*s),
            _ => None,
        };
        TrialRecord {
            player: player.kind,
            model: player.model,
            endpoint: player.endpoint,
            shape: setup.shape,
            shapes: trial.library().shapes(),
            size: maze.rows(),
            encoding: setup.encoding,
            symbols: setup.symbols,
            vision: setup.vision,
            seed: placement.seed,
            sample: placement.sample,
            repeat: placement.repeat,
            move_limit: setup.move_limit,
            protocol: setup.protocol,
            system_prompt: player.system_prompt,
            maze: Encoding::Matrix
                .render(maze.grid())
                .lines()
                .map(str::to_string)
                .collect(),
            messages,
            verdicts: PhaseVerdicts {
                solve,
                recognize,
                generate,
            },
            moves: trial.moves(),
            valid_moves: trial.valid_moves(),
            lenient: setup.lenient,
            retried_moves: trial.retried_moves(),
            shortest_path: maze.shortest_path_len(setup.shape.movement()),
            path: trial.path().to_vec(),
            failure: trial.failure(),
            predicted_shape,
            api_error: trial.api_error().cloned(),
            stopped: trial.stopped(),
            started_ms,
            ended_ms,
            staircase: None,
            condition: None,
            shape_shown_before_answer: None,
            answer_mode: setup.answer_mode,
            answer_mode_in_effect: Kept::of(|| {
                PhaseModes::of(crate::play::answer_mode::forms(trial.turns()))
            }),
            versions: Versions::current(),
        }
    }

    /// Whether the player saw the maze's shape named before answering the recognition
    /// question: the record's `shape_shown_before_answer` when it has one; otherwise, for a
    /// person's record, whether it was made by a version before [`SHAPE_HIDDEN_SINCE`]
    /// (by `versions.shapemaze`; a version that does not read counts as before); never for
    /// a model or built-in player, whose prompts do not name it.
    pub fn shape_shown(&self) -> bool {
        if self.player != PlayerKind::Human {
            return false;
        }
        self.shape_shown_before_answer.unwrap_or_else(|| {
            let parts: Vec<Option<u32>> = self
                .versions
                .shapemaze
                .split(['.', '-', '+'])
                .take(3)
                .map(|p| p.parse().ok())
                .collect();
            match parts[..] {
                [Some(a), Some(b), Some(c)] => [a, b, c] < SHAPE_HIDDEN_SINCE,
                _ => true,
            }
        })
    }

    /// Whether every phase has a verdict (success, fail or API error).
    pub fn finished(&self) -> bool {
        self.verdicts.all().iter().all(Option::is_some)
    }

    /// The record as one line of JSON (a `trials.jsonl` line, the `download-record` file).
    pub fn to_json(&self) -> Result<String, RecordError> {
        serde_json::to_string(self).map_err(|e| RecordError::Unwritable(e.to_string()))
    }

    /// The record as indented JSON, for a person to read.
    pub fn to_json_pretty(&self) -> Result<String, RecordError> {
        serde_json::to_string_pretty(self).map_err(|e| RecordError::Unwritable(e.to_string()))
    }

    /// Reads a record from JSON and checks that it holds together: a readable maze of the
    /// stated size with one P and one G, a conversation that starts with the trial's prompt,
    /// and counts that fit. Never panics; the error says what is wrong.
    pub fn from_json(text: &str) -> Result<TrialRecord, RecordError> {
        let record: TrialRecord = crate::json::from_str(text).map_err(RecordError::NotARecord)?;
        record.validate()?;
        Ok(record)
    }

    /// The maze as first shown, read back from [`TrialRecord::maze`].
    pub fn first_maze(&self) -> Result<Maze, RecordError> {
        let bad = RecordError::BadMaze;
        if self.size == 0 || self.size > MAX_SIZE {
            return Err(bad(format!(
                "has size {}, outside 1 to {MAX_SIZE}",
                self.size
            )));
        }
        let grid = Encoding::Matrix
            .parse_grid(&self.maze.join("\n"), self.size, self.size)
            .map_err(|e| bad(format!("cannot be read: {e}")))?;
        Maze::from_grid(grid).map_err(|e| bad(format!("is not playable: {e}")))
    }

    fn validate(&self) -> Result<(), RecordError> {
        let err = |s: String| Err(RecordError::Inconsistent(s));
        self.first_maze()?;
        match self.messages.first() {
            Some(m) if m.role == Role::User => {}
            Some(_) => {
                return err(
                    "the record's conversation does not start with the trial's prompt".into(),
                )
            }
            None => return err("the record has no messages".into()),
        }
        if self.valid_moves > self.moves {
            return err(format!(
                "the record has {} valid moves out of {} moves",
                self.valid_moves, self.moves
            ));
        }
        if self.move_limit == 0 {
            return err("the record's move limit is 0".into());
        }
        if let Some(p) = self
            .path
            .iter()
            .find(|p| p.row >= self.size || p.col >= self.size)
        {
            return err(format!(
                "the record's path leaves the {0}x{0} grid at {p}",
                self.size
            ));
        }
        Ok(())
    }

    /// The transcript text (CONTRACT.md) of a finished record; `None` when a phase has no
    /// verdict (a stopped trial).
    pub fn transcript(&self) -> Option<String> {
        let [Some(s), Some(r), Some(g)] = self.verdicts.all().map(|v| v.map(|v| v.outcome)) else {
            return None;
        };
        let messages: Vec<Message> = self
            .messages
            .iter()
            .map(|m| Message {
                role: m.role,
                content: m.shown(),
            })
            .collect();
        Some(transcript::render(&messages, [s, r, g]))
    }

    /// Replays the record's replies through today's verifiers on a fresh trial (the maze,
    /// shape, encoding, move limit and protocol from the record), keeping each reply's
    /// metadata. An API error or a stop ends the replay the same way. The verdicts of the
    /// returned record are today's; compare them with the stored ones to see what changed.
    pub fn rescored(&self, library: Arc<TemplateLibrary>) -> Result<TrialRecord, RecordError> {
        let maze = self.first_maze()?;
        let setup = TrialSetup {
            move_limit: self.move_limit,
            protocol: self.protocol,
            symbols: self.symbols,
            vision: self.vision,
            lenient: self.lenient,
            answer_mode: self.answer_mode,
            ..TrialSetup::new(self.shape, self.encoding, maze)
        };
        let mut trial = Trial::new(setup, library);
        for m in self.messages.iter().filter(|m| m.role == Role::Assistant) {
            if trial.phase() == Phase::Done {
                break;
            }
            let mut meta = m.meta.clone();
            // A record written before the limit was kept beside an empty reply: the
            // endpoint's setting is the limit it ran into.
            let limited = EmptyReason::of(
                &m.content,
                meta.finish_reason.as_deref(),
                meta.reasoning.as_deref(),
            )
            .is_some_and(EmptyReason::hit_the_limit);
            if limited && meta.max_tokens.is_none() {
                meta.max_tokens = self.endpoint.as_ref().map(|e| e.max_tokens);
            }
            // A reply that came without metadata (a person's) is replayed without it.
            let meta = (meta != ReplyMeta::default()).then_some(meta);
            match m.form.as_deref() {
                Some(f) => trial.respond_form(&m.content, meta, replayed_form(f)),
                None => trial.respond(&m.content, meta),
            };
        }
        if let Some(e) = &self.api_error {
            trial.fail_api(e.clone());
        } else if self.stopped {
            trial.stop();
        }
        let replayed = TrialRecord::of(
            &trial,
            PlayerInfo {
                kind: self.player,
                model: self.model.clone(),
                endpoint: self.endpoint.clone(),
                system_prompt: self.system_prompt.clone(),
            },
            Placement {
                seed: self.seed,
                sample: self.sample,
                repeat: self.repeat,
            },
            self.started_ms,
            self.ended_ms,
        );
        // Where it stood in a staircase and how a person was shown the maze (and whether
        // its shape) are the run's, not the replay's: a person's record says the latter
        // outright, as its own version decided it (the replay is of this version).
        Ok(TrialRecord {
            staircase: self.staircase,
            condition: self.condition,
            shape_shown_before_answer: match self.player {
                PlayerKind::Human => Some(self.shape_shown()),
                _ => self.shape_shown_before_answer,
            },
            ..replayed
        })
    }
}

/// What a reply's form was as the player handed it, read back from what the record kept
/// (to replay it through today's readers).
fn replayed_form(f: &FormReading) -> FormAnswer {
    FormAnswer {
        mode: f.mode,
        spelling: f.form,
        answer: f.answer.clone(),
        source: f.source,
        call: f.tool.as_ref().map(|name| crate::model::form::ToolCall {
            id: f.call_id.clone().unwrap_or_default(),
            name: name.clone(),
            arguments: f.answer.clone().unwrap_or_default(),
        }),
        stepped_down: f.stepped_down.clone(),
        transcriber: f.transcriber.clone(),
        error: (f.reason == Some(FormReason::ApiError)).then(|| f.why.clone().unwrap_or_default()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::player::tests::trials;
    use crate::play::player::{play_ready, RandomWalker};

    #[test]
    fn records_of_played_trials_round_trip_through_json_and_rescore_to_the_same_verdicts() {
        for protocol in Protocol::ALL {
            for (i, mut t) in trials(protocol).into_iter().enumerate().step_by(5) {
                play_ready(&mut t, &mut RandomWalker::new(i as u64));
                let record = TrialRecord::of(
                    &t,
                    PlayerInfo::builtin(PlayerKind::Random),
                    Default::default(),
                    Some(1.0),
                    Some(2.0),
                );
                let back =
                    TrialRecord::from_json(&record.to_json().expect("writes")).expect("reads back");
                assert_eq!(back, record, "JSON round trip");
                let again = back.rescored(t.library().clone()).expect("replays");
                assert_eq!(again.verdicts, record.verdicts, "replayed verdicts agree");
                assert_eq!(again.messages, record.messages);
                assert_eq!(record.transcript(), t.transcript());
            }
        }
    }

    #[test]
    fn a_person_s_record_says_whether_the_shape_was_shown_by_its_field_or_else_its_version() {
        let mut t = trials(Protocol::Stepwise).remove(0);
        play_ready(&mut t, &mut RandomWalker::new(3));
        let person = TrialRecord::of(
            &t,
            PlayerInfo::builtin(PlayerKind::Human),
            Default::default(),
            None,
            None,
        );
        let json = person.to_json().expect("writes");
        assert!(
            !json.contains("shape_shown_before_answer"),
            "left out when not set: {json}"
        );
        let made_by = |version: &str, field: Option<bool>| TrialRecord {
            versions: Versions {
                shapemaze: version.into(),
                ..Versions::current()
            },
            shape_shown_before_answer: field,
            ..person.clone()
        };
        // Records from before the pages hid the shape: shown, whatever else they say.
        for old in ["0.1.0", "0.1.9", "0.1.0-dev", "unknown", ""] {
            assert!(made_by(old, None).shape_shown(), "{old}");
        }
        assert!(!made_by("0.2.0", None).shape_shown());
        assert!(!made_by("1.0.3", None).shape_shown());
        // The field, when there, says it.
        assert!(
            made_by("0.2.0", Some(true)).shape_shown(),
            "a page that showed it"
        );
        assert!(!made_by("0.1.0", Some(false)).shape_shown());
        // It survives a round trip and a re-scoring (whose replay is of this version: an
        // older record's reading is written into it).
        let kept = made_by("0.2.0", Some(true));
        let back = TrialRecord::from_json(&kept.to_json().expect("writes")).expect("reads");
        assert_eq!(back.shape_shown_before_answer, Some(true));
        let again = back.rescored(t.library().clone()).expect("replays");
        assert_eq!(again.shape_shown_before_answer, Some(true));
        let old = made_by("0.1.0", None)
            .rescored(t.library().clone())
            .expect("replays");
        assert_eq!(
            (
                old.shape_shown_before_answer,
                old.versions.shapemaze.as_str()
            ),
            (Some(true), env!("CARGO_PKG_VERSION"))
        );
        assert!(old.shape_shown());
        // A model is never shown it: its prompts do not name it.
        let model = TrialRecord {
            player: PlayerKind::Random,
            ..made_by("0.1.0", None)
        };
        assert!(!model.shape_shown());
    }
}
