//! The study file (CONTRACT.md, "Study files"): its trials, how they are shown, the
//! completion codes, the upload target and time limits, and the checks serde cannot make.

use super::base64url::{base64url_decode, base64url_encode};
use crate::json::is_zero;
use crate::json::JsonError;
use crate::maze::encoding::Encoding;
use crate::maze::grid::check_size;
use crate::maze::shape::{Shape, ShapeSet};
use crate::maze::symbols::Symbols;
use crate::play::condition::Condition;
use crate::play::staircase::Staircase;
use serde::{Deserialize, Serialize};

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
    /// Grid or text presentation for every participant (absent: the grid, unless
    /// `conditions` lists several).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub condition: Option<Condition>,
    /// Several presentations, one per participant, assigned within the study and balanced
    /// across participants with the trial order's counterbalancing ([`Study::condition_for`]);
    /// empty: `condition` alone.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<Condition>,
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

impl Outcome {
    /// Every outcome, in order.
    pub const ALL: [Outcome; 3] = [Outcome::Completed, Outcome::Declined, Outcome::TimedOut];

    /// Its name in the data (and the study file's field for its code).
    pub fn name(self) -> &'static str {
        match self {
            Outcome::Completed => "completed",
            Outcome::Declined => "declined",
            Outcome::TimedOut => "timed_out",
        }
    }
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
    /// Both `condition` and `conditions` given.
    ConditionAndConditions,
    /// `conditions` names one condition twice.
    ConditionTwice(Condition),
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
            StudyError::ConditionAndConditions => f.write_str(
                "give either \"condition\" (every participant sees the mazes one way) or \"conditions\" (each participant is assigned one of them), not both",
            ),
            StudyError::ConditionTwice(c) => write!(
                f,
                "\"conditions\" names '{}' twice: list each condition once",
                c.name()
            ),
        }
    }
}

impl std::error::Error for StudyError {}

impl Study {
    /// Reads a study from JSON text and checks it.
    pub fn from_json(text: &str) -> Result<Study, StudyError> {
        let study: Study = crate::json::from_str(text).map_err(StudyError::NotAStudy)?;
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
    pub fn to_config_param(&self) -> Result<String, JsonError> {
        Ok(base64url_encode(crate::json::to_string(self)?.as_bytes()))
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
        if self.condition.is_some() && !self.conditions.is_empty() {
            return Err(StudyError::ConditionAndConditions);
        }
        for (i, c) in self.conditions.iter().enumerate() {
            if self.conditions[..i].contains(c) {
                return Err(StudyError::ConditionTwice(*c));
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

    /// The conditions participants are assigned among, in file order: `conditions`, else
    /// `condition` alone (the grid when neither is given).
    pub fn conditions_offered(&self) -> Vec<Condition> {
        if self.conditions.is_empty() {
            vec![self.condition.unwrap_or_default()]
        } else {
            self.conditions.clone()
        }
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
}

/// What a return to the study's link does with a session saved before.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ResumePolicy {
    /// Take it up where the participant left off (the default).
    #[default]
    Resume,
    /// Start the study again as a new attempt (the earlier attempt's data is kept).
    Restart,
    /// Do not let the participant go on: a page says so (the data is kept).
    Block,
}

impl ResumePolicy {
    /// Every policy, in order.
    pub const ALL: [ResumePolicy; 3] = [
        ResumePolicy::Resume,
        ResumePolicy::Restart,
        ResumePolicy::Block,
    ];

    /// The policy's name in study files.
    pub fn name(self) -> &'static str {
        match self {
            ResumePolicy::Resume => "resume",
            ResumePolicy::Restart => "restart",
            ResumePolicy::Block => "block",
        }
    }
}

/// The study's resume rules: `"resume": {"policy": "restart", "max_age_minutes": 120}`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Resume {
    /// What a return does.
    #[serde(default)]
    pub policy: ResumePolicy,
    /// Minutes after its start past which a saved session is not taken up again (a new
    /// attempt starts instead); none: no limit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_age_minutes: Option<u32>,
}

impl Resume {
    /// Whether these are the default rules (left out of a study's link).
    pub fn is_default(&self) -> bool {
        *self == Resume::default()
    }
}
