//! Experiment designs: what a batch run plays (`experiment.json`, CONTRACT.md "Experiment
//! designs"), the list of its trials in a fixed order, the maze each trial is played on,
//! and what a run will cost before it starts.
//!
//! A design names its players (built-in agents or chat models behind endpoints), the
//! encodings, shapes and sizes, how many mazes per shape and how many repeats of each, the
//! seed of the maze sets, the protocol and the concurrency. Each trial is a [`TrialKey`];
//! its [`TrialKey::id`] is the key the records are stored and merged under. Instead of
//! generated mazes a design may carry imported ones (read from `.npy` files in the export
//! layout, [`ImportedMaze::from_npy`]); then exactly those run.
//!
//! ```
//! use shapemaze_core::batch::design::ExperimentDesign;
//!
//! let design = ExperimentDesign::default();
//! assert!(design.validate().is_ok());
//! assert_eq!(design.trials().len(), 360);
//! ```

use crate::batch::error::{DesignError, MazeLookupError};
use crate::batch::imported::ImportedMaze;
use crate::json::is_zero;
use crate::maze::encoding::Encoding;
use crate::maze::generate::{generate_one, generate_set};
use crate::maze::grid::Maze;
use crate::maze::image::Vision;
use crate::maze::shape::{Shape, ShapeSet};
use crate::maze::symbols::Symbols;
use crate::maze::templates::TemplateLibrary;
use crate::model::effort::Effort;
use crate::model::form::Spelling;
use crate::model::price::Price;
use crate::model::reply::EndpointInfo;
use crate::play::answer::AnswerMode;
use crate::play::player::PlayerKind;
use crate::play::staircase::Staircase;
use crate::play::trial::{Protocol, TrialSetup, DEFAULT_MOVE_LIMIT};
use crate::results::layout::model_dir_name;
use crate::results::record::{PlayerInfo, TrialRecord};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::Arc;

/// The design's default trials in flight per endpoint.
pub const DEFAULT_CONCURRENCY: usize = 4;

/// The design's default mazes per shape.
pub const DEFAULT_SAMPLES_PER_SHAPE: usize = 30;

/// Most trials in flight per endpoint a design may ask for.
pub const MAX_CONCURRENCY: usize = 64;

/// Most repeats per maze a design may ask for.
pub const MAX_REPEATS: usize = 1000;

/// Most moves a design's move limit may allow (the lenient protocol forgives at most as
/// many).
pub const MAX_MOVE_LIMIT: usize = 200;

/// Most mazes per shape and size a design may ask for.
pub const MAX_SAMPLES_PER_SHAPE: usize = 10_000;

fn default_preset() -> String {
    "custom".into()
}

fn default_temperature() -> f64 {
    0.7
}

fn default_top_p() -> f64 {
    0.9
}

fn default_max_tokens() -> u32 {
    2000
}

fn default_timeout_ms() -> u64 {
    120_000
}

fn default_max_attempts() -> u32 {
    6
}

fn default_max_wait_ms() -> u64 {
    60_000
}

fn default_stream() -> bool {
    crate::model::settings::DEFAULT_STREAM
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// One player of a design: a built-in agent or a chat model behind an endpoint, with the
/// endpoint's settings (ignored for built-in players). Never an API key: `key_env` names
/// the environment variable holding it (the page asks for the key instead).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlayerSpec {
    /// `oracle`, `random`, `scripted` or `endpoint` (`human` is refused by
    /// [`ExperimentDesign::validate`]).
    pub kind: PlayerKind,
    /// The name the records, folders and progress use; when absent, the model's name for
    /// an endpoint, else the kind's name ([`PlayerSpec::name`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The endpoint preset's id (`dashscope-intl`, `openrouter`, ..., `custom`).
    #[serde(default = "default_preset")]
    pub preset: String,
    /// The endpoint's base URL (`.../v1`).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub base_url: String,
    /// The model's name as the endpoint knows it.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub model: String,
    /// The NAME of the environment variable holding the API key (never the key).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key_env: Option<String>,
    /// Sampling temperature (0.7).
    #[serde(default = "default_temperature")]
    pub temperature: f64,
    /// Nucleus sampling (0.9).
    #[serde(default = "default_top_p")]
    pub top_p: f64,
    /// Most tokens per reply (2000).
    #[serde(default = "default_max_tokens")]
    pub max_tokens: u32,
    /// The sampling seed to send, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// The request timeout in milliseconds (120000).
    #[serde(default = "default_timeout_ms")]
    pub timeout_ms: u64,
    /// Whether replies are streamed (off: [`crate::model::settings::DEFAULT_STREAM`], as on /model).
    #[serde(default = "default_stream")]
    pub stream: bool,
    /// Whether log probabilities are asked for.
    #[serde(default, skip_serializing_if = "is_false")]
    pub logprobs: bool,
    /// Whether thinking (reasoning) is turned on.
    #[serde(default, skip_serializing_if = "is_false")]
    pub thinking: bool,
    /// The reasoning effort to ask for (absent: the endpoint's default). The design's
    /// `efforts` axis sets it for each run of the player.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub effort: Option<Effort>,
    /// Extra JSON merged into each request body, as typed (empty for none).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub extra: String,
    /// Most attempts per call (6).
    #[serde(default = "default_max_attempts")]
    pub max_attempts: u32,
    /// Longest wait between attempts in milliseconds (60000).
    #[serde(default = "default_max_wait_ms")]
    pub max_wait_ms: u64,
    /// This player's own most trials in flight (else the design's `concurrency`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub concurrency: Option<usize>,
    /// What the model costs (dollars per million tokens), kept in each record so the
    /// report gives cost per trial and per solve, and the cost limit can be kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub price: Option<Price>,
    /// Under the `schema`, `tool` and `transcribed` answer modes, the spelling to ask the
    /// endpoint in first (`json_schema`, `structured_outputs`, `format`, `json_object`,
    /// `prompt`, `tool_named`, `tool_required`); absent: the preset's order
    /// ([`crate::model::form::spellings`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answer_form: Option<Spelling>,
    /// Under `transcribed`, the model at the same endpoint that transcribes (absent: the
    /// player's own).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transcriber: Option<String>,
}

impl PlayerSpec {
    /// A built-in player (`oracle`, `random`, `scripted`) with default endpoint fields.
    pub fn builtin(kind: PlayerKind) -> PlayerSpec {
        PlayerSpec {
            kind,
            name: None,
            preset: default_preset(),
            base_url: String::new(),
            model: String::new(),
            key_env: None,
            temperature: default_temperature(),
            top_p: default_top_p(),
            max_tokens: default_max_tokens(),
            seed: None,
            timeout_ms: default_timeout_ms(),
            stream: default_stream(),
            logprobs: false,
            thinking: false,
            effort: None,
            extra: String::new(),
            max_attempts: default_max_attempts(),
            max_wait_ms: default_max_wait_ms(),
            concurrency: None,
            price: None,
            answer_form: None,
            transcriber: None,
        }
    }

    /// A chat model at `base_url` whose key is in the environment variable `key_env`.
    pub fn endpoint(base_url: &str, model: &str, key_env: Option<&str>) -> PlayerSpec {
        PlayerSpec {
            base_url: base_url.into(),
            model: model.into(),
            key_env: key_env.map(str::to_string),
            ..PlayerSpec::builtin(PlayerKind::Endpoint)
        }
    }

    /// The name records, folders, trial ids and progress use: the display name if set,
    /// else the model's name for an endpoint, else the kind's name (`oracle`, ...). A
    /// trial's record must carry it as its `model`.
    pub fn name(&self) -> String {
        match &self.name {
            Some(n) if !n.trim().is_empty() => n.trim().to_string(),
            _ if self.kind == PlayerKind::Endpoint => self.model.trim().to_string(),
            _ => self.kind.name().to_string(),
        }
    }

    /// Whether this player calls an endpoint (and so is rate limited).
    pub fn is_endpoint(&self) -> bool {
        self.kind == PlayerKind::Endpoint
    }

    /// The endpoint as a record keeps it (never the key); `None` for built-in players.
    pub fn endpoint_info(&self) -> Option<EndpointInfo> {
        self.is_endpoint().then(|| EndpointInfo {
            preset: self.preset.clone(),
            base_url: self.base_url.clone(),
            model: self.model.clone(),
            temperature: self.temperature,
            top_p: self.top_p,
            max_tokens: self.max_tokens,
            seed: self.seed,
            stream: self.stream,
            logprobs: self.logprobs,
            thinking: self
                .effort
                .and_then(Effort::thinking)
                .unwrap_or(self.thinking),
            effort: self.effort,
            extra: self.extra.clone(),
            price: self.price,
        })
    }

    /// Who plays, as [`TrialRecord::of`] takes it: the kind, [`PlayerSpec::name`] as the
    /// record's `model` (so [`TrialKey::of_record`] finds the trial again), the endpoint.
    pub fn player_info(&self, system_prompt: Option<String>) -> PlayerInfo {
        PlayerInfo {
            kind: self.kind,
            model: self.name(),
            endpoint: self.endpoint_info(),
            system_prompt,
        }
    }
}

/// An experiment design (CONTRACT.md, `experiment.json`). Unknown fields are kept, so a
/// design written by a newer version survives a round trip.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ExperimentDesign {
    /// A name for people (may be empty).
    #[serde(default)]
    pub name: String,
    /// Who plays.
    pub players: Vec<PlayerSpec>,
    /// The encodings each maze is shown in.
    pub encodings: Vec<Encoding>,
    /// The shapes (ignored when `mazes` are imported).
    pub shapes: Vec<Shape>,
    /// The grid side (5).
    #[serde(default = "default_size")]
    pub size: usize,
    /// Several grid sides; when present and not empty, used instead of `size`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sizes: Option<Vec<usize>>,
    /// Mazes per shape and size (30).
    #[serde(default = "default_samples")]
    pub samples_per_shape: usize,
    /// Trials per maze (1).
    #[serde(default = "default_repeats")]
    pub repeats: usize,
    /// The maze sets' seed (0).
    #[serde(default)]
    pub seed: u64,
    /// How the questions are asked (`stepwise`).
    #[serde(default)]
    pub protocol: Protocol,
    /// Most trials in flight per endpoint (4), unless a player sets its own.
    #[serde(default = "default_concurrency")]
    pub concurrency: usize,
    /// Most requests per minute per endpoint, if limited.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub requests_per_minute: Option<u32>,
    /// Most moves in the solve phase (16).
    #[serde(default = "default_move_limit")]
    pub move_limit: usize,
    /// Imported mazes; when present, exactly these run instead of generated ones.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mazes: Option<Vec<ImportedMaze>>,
    /// Most dollars the run may spend (at the players' prices): it pauses before a trial
    /// that would pass it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost_limit: Option<f64>,
    /// Reasoning efforts as an axis: each endpoint player runs once per effort, as
    /// `name@effort` ([`ExperimentDesign::runs`]); empty for none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub efforts: Vec<Effort>,
    /// The matrix's symbols (`"@ * S E"`; left out for the design's `1 0 P G`), stated in
    /// the prompt's legend and used to read generated mazes.
    #[serde(default, skip_serializing_if = "Symbols::is_standard")]
    pub symbols: Symbols,
    /// The lenient protocol: this many invalid moves are answered with why and tried
    /// again (left out for 0, the design's strict rule).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub lenient: usize,
    /// How the mazes are shown: `text` (the design's, left out), `image` (the maze as an
    /// image only) or `image+text` (both), for multimodal endpoints.
    #[serde(default, skip_serializing_if = "Vision::is_text")]
    pub vision: Vision,
    /// Adaptive difficulty: each player and encoding walks a staircase over the design's
    /// sizes and shapes instead of playing every maze ([`crate::batch::staircase`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub staircase: Option<Staircase>,
    /// The answer modes each maze is played in by the model endpoints, as the encodings it
    /// is shown in (`free`, `schema`, `tool`, `transcribed`; left out for `["free"]`, the
    /// design's). Built-in players answer freely, once.
    #[serde(default, skip_serializing_if = "only_free")]
    pub answer_modes: Vec<AnswerMode>,
    /// Fields this version does not know, kept as they were (natively; the browser build
    /// drops them, as serde's flatten costs it about 5 KB: a design written by a newer
    /// version and run in the page is exported without them).
    #[cfg_attr(not(target_arch = "wasm32"), serde(flatten))]
    #[cfg_attr(target_arch = "wasm32", serde(skip))]
    pub other: BTreeMap<String, serde_json::Value>,
}

fn default_size() -> usize {
    5
}

/// Whether a design's answer modes are the design's own free text alone.
fn only_free(modes: &[AnswerMode]) -> bool {
    modes.iter().all(AnswerMode::is_free)
}

fn default_samples() -> usize {
    DEFAULT_SAMPLES_PER_SHAPE
}

fn default_repeats() -> usize {
    1
}

fn default_concurrency() -> usize {
    DEFAULT_CONCURRENCY
}

fn default_move_limit() -> usize {
    DEFAULT_MOVE_LIMIT
}

impl Default for ExperimentDesign {
    /// The standard design: the oracle, 5x5, all six shapes, 30 mazes each, both
    /// encodings, one repeat, seed 0, stepwise: 360 trials.
    fn default() -> ExperimentDesign {
        ExperimentDesign {
            name: String::new(),
            players: vec![PlayerSpec::builtin(PlayerKind::Oracle)],
            encodings: Encoding::ALL.to_vec(),
            shapes: Shape::STANDARD.to_vec(),
            size: default_size(),
            sizes: None,
            samples_per_shape: default_samples(),
            repeats: default_repeats(),
            seed: 0,
            protocol: Protocol::Stepwise,
            concurrency: default_concurrency(),
            requests_per_minute: None,
            move_limit: default_move_limit(),
            mazes: None,
            cost_limit: None,
            efforts: Vec::new(),
            symbols: Symbols::STANDARD,
            lenient: 0,
            vision: Vision::Text,
            staircase: None,
            answer_modes: Vec::new(),
            other: BTreeMap::new(),
        }
    }
}

/// One trial of a design: who plays which maze, in which encoding, which repeat.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct TrialKey {
    /// The player's name ([`PlayerSpec::name`]; a record's `model`).
    pub player: String,
    /// The encoding the maze is shown in.
    pub encoding: Encoding,
    /// The grid side.
    pub size: usize,
    /// The maze's shape.
    pub shape: Shape,
    /// Which maze of the set (0-based; an imported maze's index).
    pub sample: usize,
    /// Which repeat of that maze (0-based).
    pub repeat: usize,
    /// The answer mode (`free`, the design's, unless the design lists others).
    #[serde(default, skip_serializing_if = "AnswerMode::is_free")]
    pub answer_mode: AnswerMode,
}

impl TrialKey {
    /// The stable id records are stored and merged under:
    /// `{player}/{encoding}/{R}x{C}/{shape}/{sample}/{repeat}`, with the player's name as
    /// in folder names (characters outside `[A-Za-z0-9._-]` become `-`; a design refuses
    /// two players whose names would clash), and `{encoding}+{mode}` for an answer mode
    /// other than `free` (as its results folder names it).
    pub fn id(&self) -> String {
        let mode = match self.answer_mode {
            AnswerMode::Free => String::new(),
            m => format!("+{m}"),
        };
        format!(
            "{}/{}{mode}/{s}x{s}/{}/{}/{}",
            model_dir_name(&self.player),
            self.encoding,
            self.shape,
            self.sample,
            self.repeat,
            s = self.size
        )
    }

    /// The key of a stored record (its `model` is the player's name).
    pub fn of_record(record: &TrialRecord) -> TrialKey {
        TrialKey {
            player: record.model.clone(),
            encoding: record.encoding,
            size: record.size,
            shape: record.shape,
            sample: record.sample,
            repeat: record.repeat,
            answer_mode: record.answer_mode,
        }
    }
}

impl ExperimentDesign {
    /// The shapes in play in this design's trials: the design's six and whatever the
    /// design adds (U, N), which decides the C's orientations and what answers name.
    pub fn shape_set(&self) -> ShapeSet {
        ShapeSet::with(&self.shapes)
    }

    /// The grid sides this design runs (`sizes` when given, else `size`).
    pub fn sizes(&self) -> Vec<usize> {
        match &self.sizes {
            Some(s) if !s.is_empty() => s.clone(),
            _ => vec![self.size],
        }
    }

    /// The run named `name` ([`PlayerSpec::name`] of one of [`ExperimentDesign::runs`]).
    pub fn player(&self, name: &str) -> Option<PlayerSpec> {
        self.runs().into_iter().find(|p| p.name() == name)
    }

    /// The players as they play: each endpoint player once per effort of `efforts`
    /// (named `name@effort`, with that effort), every other player as it is. Trials,
    /// records, lanes, keys and folders go by these runs' names, so the analysis compares
    /// the efforts as it compares models.
    pub fn runs(&self) -> Vec<PlayerSpec> {
        self.players.iter().flat_map(|p| self.runs_of(p)).collect()
    }

    /// The runs of one of the design's players ([`ExperimentDesign::runs`]).
    pub fn runs_of(&self, p: &PlayerSpec) -> Vec<PlayerSpec> {
        if !p.is_endpoint() || self.efforts.is_empty() {
            return vec![p.clone()];
        }
        self.efforts
            .iter()
            .map(|&e| PlayerSpec {
                name: Some(e.player_name(&p.name())),
                effort: Some(e),
                ..p.clone()
            })
            .collect()
    }

    /// The answer modes the design plays (`free` alone unless it lists others).
    pub fn modes(&self) -> Vec<AnswerMode> {
        if self.answer_modes.is_empty() {
            vec![AnswerMode::Free]
        } else {
            self.answer_modes.clone()
        }
    }

    /// The answer modes `player` plays: the design's for a model endpoint; `free` alone for
    /// a built-in player, which answers freely.
    pub fn modes_of(&self, player: &PlayerSpec) -> Vec<AnswerMode> {
        if player.is_endpoint() {
            self.modes()
        } else {
            vec![AnswerMode::Free]
        }
    }

    /// Most trials in flight for `player`: its own concurrency, else the design's.
    pub fn concurrency_for(&self, player: &PlayerSpec) -> usize {
        player.concurrency.unwrap_or(self.concurrency)
    }

    /// Reads a design from JSON, then checks it ([`ExperimentDesign::validate`]).
    pub fn from_json(text: &str) -> Result<ExperimentDesign, DesignError> {
        let design: ExperimentDesign = crate::json::from_str(text).map_err(|e| DesignError {
            problems: vec![format!("not an experiment design: {e}")],
        })?;
        design.validate()?;
        Ok(design)
    }

    /// The design as indented JSON (`experiment.json`). Never holds a key.
    pub fn to_json(&self) -> Result<String, crate::json::JsonError> {
        crate::json::to_string_pretty(self)
    }

    /// Every trial, in this order: repeat, then maze (sample), then size, shape, encoding,
    /// answer mode and player, the last changing fastest (a built-in player answers freely,
    /// so it plays the `free` mode alone). So the first trials cover every shape,
    /// encoding and player before any maze is played twice, and early progress already
    /// speaks for the whole design. With imported mazes, the k-th maze of each (size,
    /// shape) set plays as sample k does.
    ///
    /// A staircase design lists each walk's first trial here: the later ones depend on
    /// the outcomes ([`ExperimentDesign::stair_next`]).
    pub fn trials(&self) -> Vec<TrialKey> {
        if self.staircase.is_some() {
            return self
                .tracks()
                .iter()
                .filter_map(|t| self.stair_next(t).map(|(key, _)| key))
                .collect();
        }
        let players: Vec<(String, Vec<AnswerMode>)> = self
            .runs()
            .iter()
            .map(|p| (p.name(), self.modes_of(p)))
            .collect();
        // (size, shape, index) per round, in the order above.
        let mut rounds: Vec<Vec<(usize, Shape, usize)>> = Vec::new();
        match &self.mazes {
            Some(mazes) => {
                let mut groups: BTreeMap<(usize, Shape), Vec<usize>> = BTreeMap::new();
                for m in mazes {
                    groups.entry((m.size, m.shape)).or_default().push(m.index);
                }
                for g in groups.values_mut() {
                    crate::sort::sort_dedup(g);
                }
                let most = groups.values().map(Vec::len).max().unwrap_or(0);
                for k in 0..most {
                    rounds.push(
                        groups
                            .iter()
                            .filter_map(|(&(size, shape), idx)| {
                                idx.get(k).map(|&i| (size, shape, i))
                            })
                            .collect(),
                    );
                }
            }
            None => {
                let sizes = self.sizes();
                for sample in 0..self.samples_per_shape {
                    let mut round = Vec::new();
                    for &size in &sizes {
                        for &shape in &self.shapes {
                            round.push((size, shape, sample));
                        }
                    }
                    rounds.push(round);
                }
            }
        }
        let mut out = Vec::new();
        for repeat in 0..self.repeats {
            for round in &rounds {
                for &(size, shape, sample) in round {
                    for &encoding in &self.encodings {
                        for &answer_mode in &self.modes() {
                            for (player, modes) in &players {
                                if !modes.contains(&answer_mode) {
                                    continue;
                                }
                                out.push(TrialKey {
                                    player: player.clone(),
                                    encoding,
                                    size,
                                    shape,
                                    sample,
                                    repeat,
                                    answer_mode,
                                });
                            }
                        }
                    }
                }
            }
        }
        out
    }

    /// The maze trial `key` is played on: the imported maze of its shape, size and index,
    /// or maze `sample` of the generated set for `(shape, size, seed)`. `library` must be
    /// for `key.size`.
    pub fn maze_for(
        &self,
        key: &TrialKey,
        library: &TemplateLibrary,
    ) -> Result<Maze, MazeLookupError> {
        let (size, shape, sample) = (key.size, key.shape, key.sample);
        match &self.mazes {
            Some(mazes) => mazes
                .iter()
                .find(|m| m.size == size && m.shape == shape && m.index == sample)
                .ok_or(MazeLookupError::NotImported {
                    size,
                    shape,
                    sample,
                })?
                .maze()
                .map_err(|error| MazeLookupError::Imported {
                    size,
                    shape,
                    sample,
                    error,
                }),
            None => {
                if library.size() != size {
                    return Err(MazeLookupError::WrongLibrary {
                        library: library.size(),
                        trial: size,
                    });
                }
                generate_one(shape, sample, self.seed, library).map_err(MazeLookupError::Generate)
            }
        }
    }

    /// The mazes of one (size, shape) set this design plays, as `(index, maze)` pairs:
    /// the imported ones, or the first `samples_per_shape` of the generated set (one
    /// generation for the whole set, cheaper than [`ExperimentDesign::maze_for`] per maze).
    pub fn mazes_of(
        &self,
        size: usize,
        shape: Shape,
        library: &TemplateLibrary,
    ) -> Result<Vec<(usize, Maze)>, MazeLookupError> {
        match &self.mazes {
            Some(mazes) => mazes
                .iter()
                .filter(|m| m.size == size && m.shape == shape)
                .map(|m| {
                    m.maze()
                        .map(|z| (m.index, z))
                        .map_err(|error| MazeLookupError::Imported {
                            size,
                            shape,
                            sample: m.index,
                            error,
                        })
                })
                .collect(),
            None => generate_set(shape, self.samples_per_shape, self.seed, library)
                .map(|v| v.into_iter().enumerate().collect())
                .map_err(MazeLookupError::Generate),
        }
    }

    /// Whether `other` plays the same trials the same way: equal but for how fast they
    /// may run (concurrency and requests per minute) and what they may cost (prices and
    /// the cost limit), which a resumed run or a shard may change.
    pub fn same_trials(&self, other: &ExperimentDesign) -> bool {
        // The pace and the money may change between runs of the same trials.
        let pace_free = |d: &ExperimentDesign| {
            let mut d = d.clone();
            d.concurrency = 0;
            d.requests_per_minute = None;
            d.cost_limit = None;
            for p in &mut d.players {
                p.concurrency = None;
                p.price = None;
            }
            d
        };
        pace_free(self) == pace_free(other)
    }

    /// Checks, before a run starts, that every maze the design plays can be made: a set
    /// that asks for more mazes than its shape and size have (or an unreadable imported
    /// maze) is refused here, with each problem named, instead of failing mid-run.
    pub fn check_mazes(
        &self,
        mut library: impl FnMut(usize) -> Arc<TemplateLibrary>,
    ) -> Result<(), DesignError> {
        let mut problems = Vec::new();
        for size in self.sizes() {
            let lib = library(size);
            for &shape in &self.shapes {
                if let Err(e) = self.mazes_of(size, shape, &lib) {
                    problems.push(format!("{size}x{size} {shape}: {e}"));
                }
            }
        }
        if problems.is_empty() {
            Ok(())
        } else {
            Err(DesignError { problems })
        }
    }

    /// The setup of trial `key` on `maze`: its shape and encoding, the design's move limit
    /// and protocol.
    pub fn setup_for(&self, key: &TrialKey, maze: Maze) -> TrialSetup {
        TrialSetup {
            move_limit: self.move_limit,
            protocol: self.protocol,
            symbols: self.symbols.for_encoding(key.encoding),
            lenient: self.lenient,
            vision: self.vision,
            answer_mode: key.answer_mode,
            ..TrialSetup::new(key.shape, key.encoding, maze)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::batch::imported::mazes_from_files;
    use crate::maze::npy;
    use crate::play::trial::Trial;

    const CONTRACT_EXAMPLE: &str = r#"{"players": [{"kind": "oracle"},
                {"kind": "endpoint", "base_url": "http://127.0.0.1:8000/v1", "model": "qwen-plus",
                 "key_env": "DASHSCOPE_API_KEY"}],
    "encodings": ["matrix", "coord_list"], "shapes": ["square", "cross", "spiral", "triangle", "C", "Z"],
    "size": 5, "samples_per_shape": 30, "repeats": 1, "seed": 0, "concurrency": 4}"#;

    use std::collections::BTreeSet;

    #[test]
    fn a_design_asking_for_more_mazes_than_exist_is_refused_before_it_runs() {
        let mut libs = crate::results::rescore::Libraries::new();
        let mut lib = |s: usize| libs.get(s, ShapeSet::STANDARD).clone();
        assert!(ExperimentDesign::default().check_mazes(&mut lib).is_ok());
        let greedy = ExperimentDesign {
            samples_per_shape: 5000,
            shapes: vec![Shape::Square],
            ..ExperimentDesign::default()
        };
        let e = greedy
            .check_mazes(&mut lib)
            .expect_err("too many square mazes");
        assert_eq!(e.problems.len(), 1);
        assert!(e.problems[0].starts_with("5x5 square: "), "{e}");
    }

    #[test]
    fn the_default_design_has_360_distinct_trials() {
        let d = ExperimentDesign::default();
        assert_eq!(d.validate(), Ok(()), "the default design is valid");
        let trials = d.trials();
        assert_eq!(trials.len(), 360, "6 shapes x 30 mazes x 2 encodings");
        let ids: BTreeSet<String> = trials.iter().map(TrialKey::id).collect();
        assert_eq!(ids.len(), 360, "every trial id is distinct");
        let keys: BTreeSet<&TrialKey> = trials.iter().collect();
        assert_eq!(keys.len(), 360, "every key is distinct");
    }

    #[test]
    fn the_first_trials_cover_every_shape_and_encoding() {
        let d = ExperimentDesign::default();
        let first: BTreeSet<(Shape, Encoding)> = d
            .trials()
            .iter()
            .take(12)
            .map(|k| (k.shape, k.encoding))
            .collect();
        assert_eq!(
            first.len(),
            12,
            "the first 12 trials are the 12 shape x encoding pairs"
        );
    }

    #[test]
    fn the_trial_order_is_the_same_every_time() {
        let d = ExperimentDesign::default();
        assert_eq!(d.trials(), d.trials(), "trials() is deterministic");
        assert_eq!(
            d.trials()[0].id(),
            "oracle/matrix/5x5/square/0/0",
            "the first id is stable"
        );
    }

    #[test]
    fn a_design_survives_a_json_round_trip_with_unknown_fields() {
        let mut d = ExperimentDesign::default();
        d.players.push(PlayerSpec::endpoint(
            "https://example.com/v1",
            "qwen/qwen-plus",
            Some("OPENROUTER_API_KEY"),
        ));
        d.requests_per_minute = Some(60);
        d.sizes = Some(vec![5, 7]);
        d.other.insert(
            "note".into(),
            serde_json::json!({"from": "a newer version"}),
        );
        let back = ExperimentDesign::from_json(&d.to_json().expect("written"))
            .expect("the design reads back");
        assert_eq!(
            back, d,
            "the round trip keeps every field, unknown ones included"
        );
    }

    #[test]
    fn the_contract_example_parses_as_the_standard_design_with_a_model() {
        let d = ExperimentDesign::from_json(CONTRACT_EXAMPLE).expect("the example parses");
        assert_eq!(d.players.len(), 2, "two players");
        assert_eq!(
            d.players[1].name(),
            "qwen-plus",
            "the endpoint is named by its model"
        );
        assert_eq!(
            d.players[1].key_env.as_deref(),
            Some("DASHSCOPE_API_KEY"),
            "key_env kept"
        );
        let info = d.players[1].endpoint_info().expect("an endpoint");
        assert_eq!(
            (info.model.as_str(), info.temperature, info.max_tokens),
            ("qwen-plus", 0.7, 2000),
            "the record's endpoint, with the design's default sampling"
        );
        assert_eq!(
            d.players[0].endpoint_info(),
            None,
            "the oracle has no endpoint"
        );
        assert_eq!(d.trials().len(), 720, "360 trials per player");
        assert_eq!(d.move_limit, 16, "the default move limit");
        assert_eq!(d.protocol, Protocol::Stepwise, "the default protocol");
    }

    #[test]
    fn bad_designs_are_refused_with_a_message_saying_what_to_change() {
        type Change = Box<dyn Fn(&mut ExperimentDesign)>;
        let cases: Vec<(&str, Change)> = vec![
            ("add at least one player", Box::new(|d| d.players.clear())),
            (
                "choose at least one encoding",
                Box::new(|d| d.encodings.clear()),
            ),
            ("choose at least one shape", Box::new(|d| d.shapes.clear())),
            ("size 6 is not supported", Box::new(|d| d.size = 6)),
            (
                "samples_per_shape must be at least 1",
                Box::new(|d| d.samples_per_shape = 0),
            ),
            ("repeats 0 is outside", Box::new(|d| d.repeats = 0)),
            ("concurrency 0 is outside", Box::new(|d| d.concurrency = 0)),
            (
                "requests_per_minute must be at least 1",
                Box::new(|d| d.requests_per_minute = Some(0)),
            ),
            ("move_limit 0 is outside", Box::new(|d| d.move_limit = 0)),
            (
                "a shape is listed twice",
                Box::new(|d| d.shapes.push(Shape::Z)),
            ),
            (
                "a batch run plays built-in agents or models only",
                Box::new(|d| d.players[0].kind = PlayerKind::Human),
            ),
            (
                "give the endpoint's base URL",
                Box::new(|d| d.players.push(PlayerSpec::endpoint("", "m", None))),
            ),
            (
                "never the key itself",
                Box::new(|d| {
                    d.players
                        .push(PlayerSpec::endpoint("https://x/v1", "m", Some("sk-abc123")))
                }),
            ),
            (
                "would share the results folder name",
                Box::new(|d| {
                    d.players
                        .push(PlayerSpec::endpoint("https://x/v1", "a b", None));
                    d.players
                        .push(PlayerSpec::endpoint("https://x/v1", "a-b", None));
                }),
            ),
            (
                "extra must be a JSON object",
                Box::new(|d| {
                    let mut p = PlayerSpec::endpoint("https://x/v1", "m", None);
                    p.extra = "{not json".into();
                    d.players.push(p);
                }),
            ),
            (
                "the imported maze list is empty",
                Box::new(|d| d.mazes = Some(vec![])),
            ),
        ];
        for (want, change) in cases {
            let mut d = ExperimentDesign::default();
            change(&mut d);
            let err = d.validate().expect_err(want);
            assert!(
                err.to_string().contains(want),
                "expected '{want}' in '{err}'"
            );
        }
    }

    #[test]
    fn maze_for_gives_the_generated_set_s_maze() {
        let d = ExperimentDesign::default();
        let lib = TemplateLibrary::new(5);
        let key = &d.trials()[5];
        let maze = d.maze_for(key, &lib).expect("a maze");
        let set = generate_set(key.shape, key.sample + 1, d.seed, &lib).expect("a set");
        assert_eq!(
            Some(&maze),
            set.last(),
            "maze_for draws from the seeded set"
        );
        let of = d.mazes_of(5, key.shape, &lib).expect("the set");
        assert_eq!(of.len(), 30, "mazes_of gives samples_per_shape mazes");
        assert_eq!(of[key.sample].1, maze, "mazes_of agrees with maze_for");
    }

    #[test]
    fn imported_mazes_run_exactly_and_only_those_mazes() {
        let lib = TemplateLibrary::new(5);
        let a = generate_one(Shape::Spiral, 3, 9, &lib).expect("a maze");
        let b = generate_one(Shape::C, 0, 9, &lib).expect("a maze");
        let files = vec![
            (
                "x/experiment_mazes/5x5/spiral/5x5_spiral_7.npy".to_string(),
                npy::write(a.grid()),
            ),
            (
                "x/experiment_mazes/5x5/C/5x5_C_2.npy".to_string(),
                npy::write(b.grid()),
            ),
            ("x/readme.txt".to_string(), b"skipped".to_vec()),
        ];
        let mazes = mazes_from_files(&files).expect("both files read");
        let d = ExperimentDesign {
            mazes: Some(mazes),
            repeats: 2,
            ..ExperimentDesign::default()
        };
        assert_eq!(
            d.validate(),
            Ok(()),
            "a design with imported mazes is valid"
        );
        let trials = d.trials();
        assert_eq!(trials.len(), 2 * 2 * 2, "2 mazes x 2 encodings x 2 repeats");
        let spiral = trials
            .iter()
            .find(|k| k.shape == Shape::Spiral)
            .expect("a spiral trial");
        assert_eq!(spiral.sample, 7, "the sample is the file's index");
        assert_eq!(
            d.maze_for(spiral, &lib),
            Ok(a),
            "the imported maze is played"
        );
    }

    #[test]
    fn the_estimate_counts_endpoint_calls_and_tokens() {
        let mut d = ExperimentDesign::default();
        let oracle_only = d.estimate(|n| Arc::new(TemplateLibrary::new(n)));
        assert_eq!(oracle_only.trials, 360, "360 trials");
        assert_eq!(oracle_only.calls, 0, "built-in players make no calls");
        d.players = vec![PlayerSpec::endpoint("https://x/v1", "m", None)];
        let e = d.estimate(|n| Arc::new(TemplateLibrary::new(n)));
        assert_eq!(
            e.calls,
            360 * 18,
            "stepwise: move_limit + 2 calls per trial"
        );
        assert!(
            e.tokens > 360 * 18 * 100 && e.tokens < 360 * 18 * 5000,
            "a plausible token count: {}",
            e.tokens
        );
        d.protocol = Protocol::SingleShot;
        let s = d.estimate(|n| Arc::new(TemplateLibrary::new(n)));
        assert_eq!(s.calls, 360 * 3, "single shot: 3 calls per trial");
        assert!(s.tokens < e.tokens, "fewer calls, fewer tokens");
    }

    #[test]
    fn a_record_s_key_is_the_trial_s_key() {
        let d = ExperimentDesign::default();
        let key = d.trials()[17].clone();
        let lib = Arc::new(TemplateLibrary::new(5));
        let maze = d.maze_for(&key, &lib).expect("a maze");
        let mut trial = Trial::new(d.setup_for(&key, maze), lib);
        crate::play::player::play_ready(&mut trial, &mut crate::play::player::Oracle);
        let record = TrialRecord::of(
            &trial,
            d.players[0].player_info(None),
            crate::results::record::Placement {
                seed: d.seed,
                sample: key.sample,
                repeat: key.repeat,
            },
            None,
            None,
        );
        assert_eq!(
            TrialKey::of_record(&record),
            key,
            "the record maps back to its key"
        );
    }
}
