//! Human baseline studies: the study file (CONTRACT.md, "Study files"), who the participant
//! is, the counterbalanced order of trials, the timed log of every action, and the files a
//! study's data leaves in (jsPsych-like CSV, JSONL, upload bodies). May import
//! [`crate::core::results`] and the domains below it.
//!
//! Counterbalancing is a balanced Latin square over the shapes a study uses (a Williams
//! design: for `n` shapes, row `r` orders them `r, r+1, r-1, r+2, r-2, ...` modulo `n`, so
//! with an even `n` every shape follows every other equally often; with an odd `n` rows
//! `r` and `r + n` are mirror images). Participant `k` (0-based, from the order the
//! experimenter's link gives, or else from a stable hash of the participant's id) takes row
//! `k mod n` (with odd `n`, row `k mod 2n`, the second half reversed). Trials keep their
//! file order within each shape.
//!
//! A study with a `staircase` is not counterbalanced: its trials are the levels, easiest
//! first, and each participant's next trial follows from their outcomes so far
//! ([`Study::stair_next`], kept in [`StudySession::stair_levels`] and
//! [`StudySession::stair_outcomes`]).

use crate::core::json::JsonError;
use crate::core::maze::encoding::Encoding;
use crate::core::maze::grid::check_size;
use crate::core::maze::shape::{Shape, ShapeSet};
use crate::core::maze::symbols::Symbols;
use crate::core::play::staircase::{Staircase, Walk};
use crate::core::results::record::TrialRecord;
use crate::core::results::tally::is_zero;
use crate::core::text::csv_field;
use crate::core::text::Fixed;
use serde::{Deserialize, Serialize};

#[cfg(test)]
mod data_tests;
mod session;
pub use session::{
    ConsentRecord, Opening, Resume, ResumePolicy, SessionEvent, Stage, StudySession,
};

/// One trial of a study: which maze, shown how.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StudyTrial {
    /// The maze's shape.
    pub shape: Shape,
    /// The grid side.
    #[serde(default = "default_size")]
    pub size: usize,
    /// The encoding (what the text condition shows; the grid condition shows the grid).
    #[serde(default = "default_encoding")]
    pub encoding: Encoding,
    /// The maze set's seed.
    #[serde(default)]
    pub seed: u64,
    /// Which maze of the set.
    #[serde(default)]
    pub sample: usize,
}

fn default_size() -> usize {
    5
}

fn default_encoding() -> Encoding {
    Encoding::Matrix
}

/// How a study shows its mazes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Condition {
    /// The clickable grid, drawing for generation.
    #[default]
    Grid,
    /// The very text a model sees; moves typed as coordinates, the new maze typed.
    Text,
}

impl Condition {
    /// Every condition, in order.
    pub const ALL: [Condition; 2] = [Condition::Grid, Condition::Text];

    /// Its name in study files.
    pub fn name(self) -> &'static str {
        match self {
            Condition::Grid => "grid",
            Condition::Text => "text",
        }
    }
}

/// How a study asks for the shape.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RecognitionMode {
    /// Typed in the participant's own words, scored like a model's reply.
    #[default]
    Free,
    /// One button per shape.
    Choice,
}

impl RecognitionMode {
    /// Every recognition mode, in order.
    pub const ALL: [RecognitionMode; 2] = [RecognitionMode::Free, RecognitionMode::Choice];

    /// Its name in study files.
    pub fn name(self) -> &'static str {
        match self {
            RecognitionMode::Free => "free",
            RecognitionMode::Choice => "choice",
        }
    }
}

/// What happens when the participant finishes: `{"code": "..."}` shows a completion code,
/// `{"redirect": "https://..."}` sends the participant on (only once the data is saved).
/// (A struct of two optional fields rather than an untagged enum: serde's untagged enums
/// cost the browser build tens of kilobytes.)
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Completion {
    /// The code to show.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
    /// Where to send the participant.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub redirect: Option<String>,
}

/// How a study's data leaves the browser.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum UploadKind {
    /// A plain JSON POST of the participant's data.
    Json,
    /// The DataPipe format used with jsPsych (`{experimentID, filename, data}`).
    Datapipe,
}

impl UploadKind {
    /// Every upload format, in order.
    pub const ALL: [UploadKind; 2] = [UploadKind::Json, UploadKind::Datapipe];

    /// Its name in study files.
    pub fn name(self) -> &'static str {
        match self {
            UploadKind::Json => "json",
            UploadKind::Datapipe => "datapipe",
        }
    }
}

/// Where a study's data is sent.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Upload {
    /// The body's format.
    pub kind: UploadKind,
    /// The URL to POST to.
    #[serde(default)]
    pub url: String,
    /// DataPipe's experiment id.
    #[serde(default)]
    pub experiment_id: Option<String>,
}

/// Optional time limits, in seconds (0 or absent: none).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TimeLimits {
    /// For the solve phase.
    #[serde(default)]
    pub solve: Option<u32>,
    /// For the recognition phase.
    #[serde(default)]
    pub recognize: Option<u32>,
    /// For the generation phase.
    #[serde(default)]
    pub generate: Option<u32>,
    /// For the whole study, from consent on: when it runs out the study ends with the
    /// `timed_out` outcome (the data so far is saved).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub study: Option<u32>,
}

/// A study file (`public/studies/NAME.json`, or inline as base64url JSON).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Study {
    /// The title participants see.
    #[serde(default = "default_title")]
    pub title: String,
    /// The scored trials, in file order; with a staircase, its levels, easiest first.
    pub trials: Vec<StudyTrial>,
    /// An unscored practice trial first, if any.
    #[serde(default)]
    pub practice: Option<StudyTrial>,
    /// Grid or text presentation.
    #[serde(default)]
    pub condition: Condition,
    /// Free text or forced choice.
    #[serde(default)]
    pub recognition: RecognitionMode,
    /// Whether the trial order is counterbalanced across participants.
    #[serde(default)]
    pub counterbalance: bool,
    /// The completion code or redirect.
    #[serde(default)]
    pub completion: Option<Completion>,
    /// Where the data goes (none: the participant downloads it).
    #[serde(default)]
    pub upload: Option<Upload>,
    /// The consent text (paragraphs separated by blank lines).
    #[serde(default = "default_consent")]
    pub consent: String,
    /// The study's version, as the experimenter labels it (empty when not given): kept
    /// with each participant's consent.
    #[serde(default)]
    pub version: String,
    /// The instructions (paragraphs separated by blank lines).
    #[serde(default = "default_instructions")]
    pub instructions: String,
    /// Optional time limits per phase and for the whole study.
    #[serde(default)]
    pub time_limits: TimeLimits,
    /// The lenient protocol: this many invalid moves per trial are forgiven (0, the
    /// default, is the design's strict rule).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub lenient: usize,
    /// The matrix's symbols (`"@ * S E"`: wall, empty, player, goal; left out for the
    /// design's `1 0 P G`): matrix trials are shown in them and a new maze is read in them,
    /// as for a model (coordinate-list trials have none).
    #[serde(default, skip_serializing_if = "Symbols::is_standard")]
    pub symbols: Symbols,
    /// How a new participant's counterbalancing order is chosen.
    #[serde(default, skip_serializing_if = "Assignment::is_hash")]
    pub assignment: Assignment,
    /// What a return to the link does with a session begun before.
    #[serde(default, skip_serializing_if = "Resume::is_default")]
    pub resume: Resume,
    /// What a participant who declines consent is given (a code or a redirect; none: the
    /// page says there is no code and the researcher reviews by hand).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub declined: Option<Completion>,
    /// What a participant whose time ran out is given, likewise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timed_out: Option<Completion>,
    /// Adaptive difficulty: each participant walks the `trials` as levels, easiest first
    /// ([`Study::stair_next`]); none: every trial is played once.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub staircase: Option<Staircase>,
}

/// How a new participant's counterbalancing order is chosen (when the link gives none).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Assignment {
    /// From a hash of the participant's id, in the browser alone (balanced only on
    /// average).
    #[default]
    Hash,
    /// The least used order so far, from `shapemaze serve` (`POST /api/study-order`),
    /// falling back to the hash when the server does not answer.
    Server,
}

impl Assignment {
    /// Every assignment, in order.
    pub const ALL: [Assignment; 2] = [Assignment::Hash, Assignment::Server];

    /// Its name in study files.
    pub fn name(self) -> &'static str {
        match self {
            Assignment::Hash => "hash",
            Assignment::Server => "server",
        }
    }
}

impl Assignment {
    fn is_hash(&self) -> bool {
        *self == Assignment::Hash
    }
}

/// The body of `POST /api/study-order` for `participant` of the study stored as `study`.
pub fn order_request(study_name: &str, study: &Study, participant: &str) -> String {
    serde_json::json!({
        "study": study_name,
        "participant": participant,
        "orders": study.order_count(),
    })
    .to_string()
}

/// Why the server's answer to [`order_request`] gives no order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OrderError {
    /// The server answered with this HTTP status.
    Status(u16),
    /// Its answer is not JSON.
    NotJson,
    /// Its order is not one of the study's (the order, the study's orders).
    OutOfRange(u64, usize),
    /// Its answer names no order.
    NoOrder,
}

impl std::fmt::Display for OrderError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OrderError::Status(status) => write!(f, "the server answered {status}"),
            OrderError::NotJson => f.write_str(
                "the server's answer is not JSON (is this site served by `shapemaze serve`?)",
            ),
            OrderError::OutOfRange(k, n) => {
                write!(f, "the server gave order {k}, but the study has {n}")
            }
            OrderError::NoOrder => f.write_str("the server's answer names no order"),
        }
    }
}

impl std::error::Error for OrderError {}

/// The order in the server's answer to [`order_request`], or why there is none.
pub fn read_order_answer(status: u16, text: &str, study: &Study) -> Result<u64, OrderError> {
    if !(200..300).contains(&status) {
        return Err(OrderError::Status(status));
    }
    let value: serde_json::Value = serde_json::from_str(text).map_err(|_| OrderError::NotJson)?;
    match value.get("order").and_then(serde_json::Value::as_u64) {
        Some(k) if k < study.order_count() as u64 => Ok(k),
        Some(k) => Err(OrderError::OutOfRange(k, study.order_count())),
        None => Err(OrderError::NoOrder),
    }
}

/// How a participant's study ended, each with its own code or redirect.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Every trial done (`completion`).
    Completed,
    /// Consent declined (`declined`).
    Declined,
    /// The study's time limit ran out (`timed_out`).
    TimedOut,
}

fn default_title() -> String {
    "Shape mazes".into()
}

fn default_consent() -> String {
    "This study is about how people reason about space. You will solve a few small mazes, name the shape their corridors form, and draw a new maze of the same shape. It takes about ten minutes. Your answers and their timing are recorded with the participant id in the link, and nothing else about you. You may stop at any time by closing this tab; data not yet sent is then not used.\n\nDo you agree to take part?".into()
}

fn default_instructions() -> String {
    "Each maze has three steps. First move P to G one cell at a time by clicking a neighbouring open cell (or with the arrow keys); a click on a wall or on a cell that is not next to P ends the step. Then name the shape that all the open cells form. Then draw a new maze of the same shape, with one P and one G joined by a path, that is not a copy.".into()
}

/// Why a study file (or the study in a link) was refused, for the experimenter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StudyError {
    /// The text is not the JSON of a study (where, and serde's reason).
    NotAStudy(JsonError),
    /// The link's study is not base64url (cut off or garbled).
    LinkGarbled,
    /// The link's study decodes to bytes that are not text.
    LinkNotText,
    /// The study lists no trials.
    NoTrials,
    /// A trial (numbered from 1, practice after the scored ones) has a bad size.
    BadTrial {
        /// The trial's number.
        trial: usize,
        /// What is wrong with it.
        why: String,
    },
    /// The upload URL is not a web address.
    BadUploadUrl(String),
    /// A DataPipe upload without its experiment id.
    DatapipeWithoutExperiment,
    /// The completion redirect is not a web address.
    BadRedirect(String),
    /// Other symbols, but no trial shows the matrix.
    SymbolsWithoutMatrix,
    /// The staircase cannot walk the study's trials (what to change).
    BadStaircase(String),
    /// A staircase with `counterbalance`: the walk orders the trials.
    StaircaseCounterbalanced,
}

impl std::fmt::Display for StudyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StudyError::NotAStudy(e) => write!(f, "the study file is not valid: {e}"),
            StudyError::LinkGarbled => f.write_str("the study in the link is cut off or garbled (it is not base64url): ask the experimenter for the link again"),
            StudyError::LinkNotText => f.write_str("the study in the link is not text"),
            StudyError::NoTrials => {
                f.write_str("the study has no trials: list at least one under \"trials\"")
            }
            StudyError::BadTrial { trial, why } => write!(f, "trial {trial}: {why}"),
            StudyError::BadUploadUrl(url) => write!(
                f,
                "the upload URL '{url}' is not a web address (https://... or a path on this site)"
            ),
            StudyError::DatapipeWithoutExperiment => {
                f.write_str("a DataPipe upload needs \"experiment_id\"")
            }
            StudyError::BadRedirect(url) => {
                write!(f, "the completion redirect '{url}' is not a web address")
            }
            StudyError::SymbolsWithoutMatrix => f.write_str(
                "\"symbols\" applies to matrix trials, and no trial uses the matrix encoding: set a trial's \"encoding\" to \"matrix\" or leave \"symbols\" out",
            ),
            StudyError::BadStaircase(why) => f.write_str(why),
            StudyError::StaircaseCounterbalanced => f.write_str(
                "a staircase orders the trials itself: set \"counterbalance\" to false or leave it out",
            ),
        }
    }
}

impl std::error::Error for StudyError {}

impl Study {
    /// Reads a study from JSON text and checks it.
    pub fn from_json(text: &str) -> Result<Study, StudyError> {
        let study: Study = crate::core::json::from_str(text).map_err(StudyError::NotAStudy)?;
        study.validate()?;
        Ok(study)
    }

    /// Reads a study from the `config` URL parameter (base64url of its JSON).
    pub fn from_config_param(param: &str) -> Result<Study, StudyError> {
        let bytes = base64url_decode(param.trim()).ok_or(StudyError::LinkGarbled)?;
        let text = String::from_utf8(bytes).map_err(|_| StudyError::LinkNotText)?;
        Study::from_json(&text)
    }

    /// The `config` URL parameter that carries this study.
    pub fn to_config_param(&self) -> String {
        base64url_encode(serde_json::to_string(self).unwrap_or_default().as_bytes())
    }

    /// Checks what serde cannot: at least one trial, supported sizes, an upload URL where
    /// one is needed, a redirect that is a web address, a staircase that can walk the
    /// trials (and no counterbalancing with it).
    pub fn validate(&self) -> Result<(), StudyError> {
        if self.trials.is_empty() {
            return Err(StudyError::NoTrials);
        }
        for (i, t) in self.trials.iter().chain(self.practice.iter()).enumerate() {
            if let Err(why) = check_size(t.size) {
                return Err(StudyError::BadTrial {
                    trial: i + 1,
                    why: why.to_string(),
                });
            }
        }
        if let Some(u) = &self.upload {
            if !(u.url.starts_with("https://")
                || u.url.starts_with("http://")
                || u.url.starts_with('/'))
            {
                return Err(StudyError::BadUploadUrl(u.url.clone()));
            }
            if u.kind == UploadKind::Datapipe && u.experiment_id.as_deref().unwrap_or("").is_empty()
            {
                return Err(StudyError::DatapipeWithoutExperiment);
            }
        }
        let any_matrix = self
            .trials
            .iter()
            .chain(self.practice.iter())
            .any(|t| t.encoding == Encoding::Matrix);
        if !self.symbols.is_standard() && !any_matrix {
            return Err(StudyError::SymbolsWithoutMatrix);
        }
        if let Some(s) = self.staircase {
            if self.counterbalance {
                return Err(StudyError::StaircaseCounterbalanced);
            }
            let problems = match self.trials.len() {
                1 => vec!["a staircase needs at least two levels: its levels are the study's trials, easiest first, so list at least two".into()],
                n => s.problems(n),
            };
            if !problems.is_empty() {
                return Err(StudyError::BadStaircase(problems.join("; ")));
            }
        }
        for c in [&self.completion, &self.declined, &self.timed_out] {
            if let Some(redirect) = c.as_ref().and_then(|c| c.redirect.as_ref()) {
                if !(redirect.starts_with("https://") || redirect.starts_with("http://")) {
                    return Err(StudyError::BadRedirect(redirect.clone()));
                }
            }
        }
        Ok(())
    }

    /// The next trial of a staircase walk whose scored trials so far ended as `outcomes`
    /// (successes by the staircase's phase), with its level; none once the walk has played
    /// the staircase's trials, or for a study without one. Visit `v` (0-based, within the
    /// walk) of level `k` plays trial `k` with sample `sample + v`: a new maze each visit.
    pub fn stair_next(&self, outcomes: &[bool]) -> Option<(usize, StudyTrial)> {
        let s = self.staircase?;
        let mut walk = Walk::new(self.trials.len(), s.start);
        for &o in outcomes {
            walk.record(o);
        }
        if walk.steps() >= s.trials {
            return None;
        }
        let level = walk.level();
        let t = self.trials.get(level)?;
        Some((
            level,
            StudyTrial {
                sample: t.sample + walk.visits(level),
                ..*t
            },
        ))
    }

    /// The code or redirect for `outcome` (none: the "no code" page, reviewed by hand).
    pub fn outcome(&self, outcome: Outcome) -> Option<&Completion> {
        match outcome {
            Outcome::Completed => self.completion.as_ref(),
            Outcome::Declined => self.declined.as_ref(),
            Outcome::TimedOut => self.timed_out.as_ref(),
        }
        .filter(|c| c.code.is_some() || c.redirect.is_some())
    }

    /// The shapes in play in the study's trials (the practice trial's too): the design's
    /// six and whatever the study adds (U, N).
    pub fn shape_set(&self) -> ShapeSet {
        let mut shapes = self.shapes();
        shapes.extend(self.practice.map(|p| p.shape));
        ShapeSet::with(&shapes)
    }

    /// The shapes the study uses, in first-appearance order.
    pub fn shapes(&self) -> Vec<Shape> {
        let mut out: Vec<Shape> = Vec::new();
        for t in &self.trials {
            if !out.contains(&t.shape) {
                out.push(t.shape);
            }
        }
        out
    }

    /// How many distinct counterbalancing orders the study has (the rows of its Latin
    /// square: the number of shapes when even, twice that when odd; 1 when not
    /// counterbalanced).
    pub fn order_count(&self) -> usize {
        let n = self.shapes().len();
        match (self.counterbalance, n) {
            (false, _) | (true, 0 | 1) => 1,
            (true, n) if n.is_multiple_of(2) => n,
            (true, n) => 2 * n,
        }
    }

    /// The scored trials in the order participant number `k` takes them (see the module
    /// documentation); the file order when the study is not counterbalanced.
    pub fn order_for(&self, k: u64) -> Vec<StudyTrial> {
        if !self.counterbalance {
            return self.trials.clone();
        }
        let shapes = self.shapes();
        latin_row(shapes.len(), k)
            .into_iter()
            .flat_map(|i| {
                let s = shapes[i];
                self.trials.iter().copied().filter(move |t| t.shape == s)
            })
            .collect()
    }
}

/// Row `k` of a balanced Latin square (Williams design) of order `n`: a permutation of
/// `0..n`. With odd `n`, rows `n..2n` are the mirror images of rows `0..n`.
pub fn latin_row(n: usize, k: u64) -> Vec<usize> {
    if n == 0 {
        return Vec::new();
    }
    let period = if n.is_multiple_of(2) { n } else { 2 * n } as u64;
    let k = (k % period) as usize;
    let r = k % n;
    // 0, 1, n-1, 2, n-2, ... shifted by r.
    let mut row: Vec<usize> = (0..n)
        .map(|j| {
            let base = if j == 0 {
                0
            } else if j % 2 == 1 {
                j.div_ceil(2)
            } else {
                n - j / 2
            };
            (base + r) % n
        })
        .collect();
    if k >= n {
        row.reverse();
    }
    row
}

/// Who the participant is, read from the link.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Participant {
    /// The participant's id (`PROLIFIC_PID`, else `participant`, else made up locally).
    pub id: String,
    /// Prolific's `STUDY_ID`, if given.
    #[serde(default)]
    pub study_id: Option<String>,
    /// Prolific's `SESSION_ID`, if given.
    #[serde(default)]
    pub session_id: Option<String>,
    /// Which counterbalancing row (from `order`, else a hash of the id).
    pub order: u64,
}

impl Participant {
    /// Reads the participant from URL parameters; `fallback_id` is used when the link names
    /// nobody (the page makes one up and keeps it for this tab).
    pub fn from_params(get: impl Fn(&str) -> Option<String>, fallback_id: &str) -> Participant {
        let clean = |v: Option<String>| v.map(|s| s.trim().to_string()).filter(|s| !s.is_empty());
        let id = clean(get("PROLIFIC_PID"))
            .or_else(|| clean(get("participant")))
            .unwrap_or_else(|| fallback_id.to_string());
        let order = clean(get("order"))
            .and_then(|o| o.parse().ok())
            .unwrap_or_else(|| fnv1a(id.as_bytes()));
        Participant {
            study_id: clean(get("STUDY_ID")),
            session_id: clean(get("SESSION_ID")),
            id,
            order,
        }
    }
}

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h: u64, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// One thing the participant did, timed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Action {
    /// What: `move`, `key`, `answer`, `choice`, `paint`, `submit`, `focus`, `blur`,
    /// `resize`, `phase`, `reload`, ...
    pub kind: String,
    /// The phase it happened in (`solve`, `recognize`, `generate`, `done`).
    pub phase: String,
    /// Details (the cell, the key, the text as typed, the drawn maze, the window size).
    #[serde(default)]
    pub detail: String,
    /// Milliseconds since the trial started.
    pub t_ms: f64,
    /// Milliseconds since the previous action of this trial.
    pub dt_ms: f64,
}

/// The timed log of one trial.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ActionLog {
    /// Every action, in order.
    pub actions: Vec<Action>,
}

impl ActionLog {
    /// Adds an action at `t_ms` since the trial started.
    pub fn push(&mut self, kind: &str, phase: &str, detail: impl Into<String>, t_ms: f64) {
        let prev = self.actions.last().map_or(0.0, |a| a.t_ms);
        self.actions.push(Action {
            kind: kind.into(),
            phase: phase.into(),
            detail: detail.into(),
            t_ms,
            dt_ms: (t_ms - prev).max(0.0),
        });
    }

    /// Milliseconds spent in `phase` (from its first action to the first action of a later
    /// phase, or its last action).
    pub fn phase_ms(&self, phase: &str) -> f64 {
        let first = self.actions.iter().position(|a| a.phase == phase);
        let Some(first) = first else { return 0.0 };
        let start = if first == 0 {
            0.0
        } else {
            self.actions[first - 1].t_ms
        };
        let end = self.actions[first..]
            .iter()
            .take_while(|a| a.phase == phase)
            .last()
            .map_or(start, |a| a.t_ms);
        end - start
    }
}

/// One participant's trial: the record, the actions, and where it sat in the study.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StudyTrialData {
    /// The study's title.
    pub study: String,
    /// Who.
    pub participant: Participant,
    /// 0-based position in the participant's sequence (practice is -1).
    pub trial_index: i64,
    /// Whether it was the practice trial (never scored).
    pub practice: bool,
    /// The trial record (player `human`).
    pub record: TrialRecord,
    /// Every action, timed.
    pub log: ActionLog,
    /// The window's size when the trial started (`W x H`).
    #[serde(default)]
    pub window: String,
    /// The participant's consent (none in data from before it was recorded).
    #[serde(default)]
    pub consent: Option<ConsentRecord>,
    /// Signs that the participant may have had help ([`ActionLog::signals`]).
    #[serde(default)]
    pub signals: HelpSignals,
    /// Which attempt at the study (0 first; see [`StudySession::open`]).
    #[serde(default)]
    pub attempt: u32,
    /// What happened to the participant's session up to this trial (resumed, restarted,
    /// ...; see [`SessionEvent`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub session_events: Vec<SessionEvent>,
}

impl StudyTrialData {
    /// The storage and upload key: study, participant, index (unique per participant-trial).
    pub fn key(&self) -> String {
        format!(
            "{}/{}/{}",
            self.study,
            self.participant_key(),
            self.trial_index
        )
    }

    /// Milliseconds the trial's solve phase took by its log (`None` when the log has no
    /// action in it).
    pub fn solve_ms(&self) -> Option<f64> {
        let ms = self.log.phase_ms("solve");
        (ms > 0.0).then_some(ms)
    }

    /// The participant as stored: the id, with `#attempt-N` from the second attempt on (so
    /// a restarted participant's trials never replace the first attempt's).
    pub fn participant_key(&self) -> String {
        match self.attempt {
            0 => self.participant.id.clone(),
            n => format!("{}#attempt-{n}", self.participant.id),
        }
    }
}

/// Signs in a trial's log that a participant may have had help: pastes, leaving the tab,
/// and answers typed faster than people type. Flagged in the data, never used to block
/// anyone (rejecting a participant and excluding their data are separate acts).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct HelpSignals {
    /// Pastes into the page during the trial.
    pub pastes: usize,
    /// Times the participant left the tab or window.
    pub tab_leaves: usize,
    /// Time away, in milliseconds (until they came back, or the trial's last action).
    pub away_ms: f64,
    /// Characters of typed answers per second, from the action before each answer to the
    /// answer (`None` without a typed answer): people rarely exceed 10.
    pub answer_chars_per_s: Option<f64>,
}

impl ActionLog {
    /// The help signals of this log.
    pub fn signals(&self) -> HelpSignals {
        let mut s = HelpSignals::default();
        let mut left_at: Option<f64> = None;
        let (mut chars, mut ms) = (0usize, 0f64);
        for a in &self.actions {
            match a.kind.as_str() {
                "paste" => s.pastes += 1,
                "blur" => {
                    s.tab_leaves += 1;
                    left_at.get_or_insert(a.t_ms);
                }
                "focus" => {
                    if let Some(t) = left_at.take() {
                        s.away_ms += a.t_ms - t;
                    }
                }
                "answer" if !a.detail.trim().is_empty() => {
                    chars += a.detail.trim().chars().count();
                    ms += a.dt_ms;
                }
                _ => {}
            }
        }
        if let (Some(t), Some(last)) = (left_at, self.actions.last()) {
            s.away_ms += last.t_ms - t;
        }
        s.answer_chars_per_s = (chars > 0 && ms > 0.0).then(|| chars as f64 * 1000.0 / ms);
        s
    }
}

/// A study in a link has no file name: it is stored under a name made from its text.
pub fn inline_name(config: &str) -> String {
    format!("inline-{:016x}", fnv1a(config.as_bytes()))
}

/// The columns of the study CSV (one row per action), jsPsych-like first.
pub const EVENT_COLUMNS: &[(&str, &str)] = &[
    (
        "trial_type",
        "what the row is: the action's kind (move, answer, paint, submit, focus, blur, ...)",
    ),
    (
        "trial_index",
        "0-based position of the trial in the participant's sequence (-1: practice)",
    ),
    ("time_elapsed", "milliseconds since the trial started"),
    ("rt", "milliseconds since the previous action of the trial"),
    (
        "participant",
        "the participant's id (PROLIFIC_PID or participant)",
    ),
    ("study_id", "Prolific's STUDY_ID, if given"),
    ("session_id", "Prolific's SESSION_ID, if given"),
    ("study", "the study's title"),
    ("practice", "true for the practice trial"),
    ("shape", "the maze's shape"),
    ("size", "the grid side"),
    ("encoding", "the encoding (text condition)"),
    ("seed", "the maze set's seed"),
    ("sample", "the maze's index in its set"),
    ("phase", "the phase the action happened in"),
    ("detail", "the cell, key, text as typed or drawn maze"),
    ("solve", "the trial's solve outcome"),
    ("recognize", "the trial's recognition outcome"),
    ("generate", "the trial's generation outcome"),
    (
        "consented_at",
        "when the participant consented, in milliseconds since 1970 (their clock)",
    ),
    ("study_version", "the study's version they consented to"),
    (
        "consent_hash",
        "a hash of the consent text they were shown (FNV-1a 64, hexadecimal)",
    ),
    (
        "pastes",
        "pastes during the trial (a sign of help, never a reason to block)",
    ),
    (
        "tab_leaves",
        "times the participant left the tab or window during the trial",
    ),
    ("away_ms", "milliseconds away from the tab during the trial"),
    (
        "answer_chars_per_s",
        "characters of typed answers per second (people rarely exceed 10)",
    ),
    (
        "attempt",
        "which attempt at the study (0 first; a restart, an expired session or a new version starts the next)",
    ),
    (
        "session_events",
        "what happened to the session up to the trial (kind: detail; ...)",
    ),
    (
        "step",
        "a staircase trial's place in the participant's walk (0 first; empty outside a staircase)",
    ),
    (
        "level",
        "the staircase level it was played at (0 the easiest; empty outside a staircase)",
    ),
];

/// The study CSV: a header, then one row per action of every trial.
pub fn events_csv(data: &[StudyTrialData]) -> String {
    let mut out: String = EVENT_COLUMNS
        .iter()
        .map(|(n, _)| *n)
        .collect::<Vec<_>>()
        .join(",");
    out.push('\n');
    for d in data {
        let r = &d.record;
        let outcome = |v: Option<&crate::core::verify::Verdict>| {
            v.map(|v| v.outcome.name().to_string()).unwrap_or_default()
        };
        let [s, rc, g] = r.verdicts.all().map(outcome);
        let consent = d.consent.as_ref();
        let events = d
            .session_events
            .iter()
            .map(|e| match e.detail.as_str() {
                "" => e.kind.clone(),
                detail => format!("{}: {detail}", e.kind),
            })
            .collect::<Vec<_>>()
            .join("; ");
        for a in &d.log.actions {
            let row = [
                a.kind.clone(),
                d.trial_index.to_string(),
                (a.t_ms.round() as i64).to_string(),
                (a.dt_ms.round() as i64).to_string(),
                d.participant.id.clone(),
                d.participant.study_id.clone().unwrap_or_default(),
                d.participant.session_id.clone().unwrap_or_default(),
                d.study.clone(),
                d.practice.to_string(),
                r.shape.name().to_string(),
                r.size.to_string(),
                r.encoding.name().to_string(),
                r.seed.to_string(),
                r.sample.to_string(),
                a.phase.clone(),
                a.detail.clone(),
                s.clone(),
                rc.clone(),
                g.clone(),
                consent.map_or(String::new(), |c| (c.at_ms.round() as i64).to_string()),
                consent.map_or(String::new(), |c| c.study_version.clone()),
                consent.map_or(String::new(), |c| c.text_hash.clone()),
                d.signals.pastes.to_string(),
                d.signals.tab_leaves.to_string(),
                (d.signals.away_ms.round() as i64).to_string(),
                d.signals
                    .answer_chars_per_s
                    .map_or(String::new(), |c| format!("{c:.1}", c = Fixed(c))),
                d.attempt.to_string(),
                events.clone(),
                r.staircase.map_or(String::new(), |s| s.step.to_string()),
                r.staircase.map_or(String::new(), |s| s.level.to_string()),
            ];
            let line: Vec<String> = row.iter().map(|f| csv_field(f)).collect();
            out.push_str(&line.join(","));
            out.push('\n');
        }
    }
    out
}

/// The plain JSON upload: the participant's trials.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct UploadJson {
    /// `shapemaze-study-1`.
    pub format: String,
    /// Every trial of the participant.
    pub trials: Vec<StudyTrialData>,
}

/// The DataPipe upload (as jsPsych's pipe plugin sends it).
#[derive(Clone, Debug, PartialEq, Serialize)]
struct DataPipe<'a> {
    #[serde(rename = "experimentID")]
    experiment_id: &'a str,
    filename: String,
    data: String,
}

/// The plain upload format's name.
pub const UPLOAD_FORMAT: &str = "shapemaze-study-1";

/// The body of an upload of `data` in `kind`'s format.
pub fn upload_body(
    kind: UploadKind,
    experiment_id: Option<&str>,
    data: &[StudyTrialData],
) -> String {
    match kind {
        UploadKind::Json => serde_json::to_string(&UploadJson {
            format: UPLOAD_FORMAT.into(),
            trials: data.to_vec(),
        })
        .unwrap_or_default(),
        UploadKind::Datapipe => {
            let (study, pid) = data
                .first()
                .map(|d| (d.study.clone(), d.participant.id.clone()))
                .unwrap_or_default();
            let filename = format!(
                "{}_{}.csv",
                crate::core::results::layout::model_dir_name(&study),
                crate::core::results::layout::model_dir_name(&pid)
            );
            serde_json::to_string(&DataPipe {
                experiment_id: experiment_id.unwrap_or_default(),
                filename,
                data: events_csv(data),
            })
            .unwrap_or_default()
        }
    }
}

/// Reads study data: an upload body (`{"format": ..., "trials": [...]}`) or JSONL with one
/// trial per line. Returns the trials read and, for each line that could not be, its
/// number and why.
pub fn read_study_data(text: &str) -> (Vec<StudyTrialData>, Vec<String>) {
    if let Ok(body) = serde_json::from_str::<UploadJson>(text) {
        return (body.trials, Vec::new());
    }
    let mut ok = Vec::new();
    let mut bad = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        match crate::core::json::from_str::<StudyTrialData>(line) {
            Ok(d) => ok.push(d),
            Err(e) => bad.push(format!("line {}: {e}", i + 1)),
        }
    }
    (ok, bad)
}

/// base64url without padding (the base64 crate's).
pub fn base64url_encode(bytes: &[u8]) -> String {
    use base64::Engine;
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
}

/// Decodes base64url or standard base64, padding optional; `None` for anything else
/// (the base64 crate's, its trailing bits not checked).
pub fn base64url_decode(text: &str) -> Option<Vec<u8>> {
    use base64::alphabet::{STANDARD, URL_SAFE};
    use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};
    use base64::Engine;
    let config = GeneralPurposeConfig::new()
        .with_decode_padding_mode(DecodePaddingMode::RequireNone)
        .with_decode_allow_trailing_bits(true);
    let text = text.trim_end_matches('=');
    [URL_SAFE, STANDARD]
        .iter()
        .find_map(|a| GeneralPurpose::new(a, config).decode(text).ok())
}

#[cfg(test)]
pub(crate) mod tests;
