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

use crate::core::maze::encoding::Encoding;
use crate::core::maze::grid::check_size;
use crate::core::maze::shape::Shape;
use crate::core::results::record::TrialRecord;
use crate::core::text::csv_field;
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
}

/// A study file (`public/studies/NAME.json`, or inline as base64url JSON).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Study {
    /// The title participants see.
    #[serde(default = "default_title")]
    pub title: String,
    /// The scored trials, in file order.
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
    /// Optional time limits per phase.
    #[serde(default)]
    pub time_limits: TimeLimits,
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
    /// The text is not the JSON of a study (serde's reason).
    NotAStudy(String),
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
        }
    }
}

impl std::error::Error for StudyError {}

impl Study {
    /// Reads a study from JSON text and checks it.
    pub fn from_json(text: &str) -> Result<Study, StudyError> {
        let study: Study =
            serde_json::from_str(text).map_err(|e| StudyError::NotAStudy(e.to_string()))?;
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
    /// one is needed, a redirect that is a web address.
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
        if let Some(redirect) = self.completion.as_ref().and_then(|c| c.redirect.as_ref()) {
            if !(redirect.starts_with("https://") || redirect.starts_with("http://")) {
                return Err(StudyError::BadRedirect(redirect.clone()));
            }
        }
        Ok(())
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
}

impl StudyTrialData {
    /// The storage and upload key: study, participant, index (unique per participant-trial).
    pub fn key(&self) -> String {
        format!(
            "{}/{}/{}",
            self.study, self.participant.id, self.trial_index
        )
    }
}

/// Where a participant is in a study.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stage {
    /// Reading the consent text.
    Consent,
    /// Consent declined: the study ends and no data is kept.
    Declined,
    /// Reading the instructions.
    Instructions,
    /// Playing the practice trial (never scored).
    Practice,
    /// Playing scored trial `n` of the participant's order (0-based).
    Trial(usize),
    /// Done: the data is being saved or was saved.
    Complete,
}

/// What a participant consented to, and when: kept with their session and with every
/// trial's data.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ConsentRecord {
    /// When consent was given, in milliseconds since 1970 (the participant's clock).
    pub at_ms: f64,
    /// The study's version then ([`Study::version`]).
    pub study_version: String,
    /// A hash of the consent text shown (FNV-1a, 64 bits, hexadecimal): the same text
    /// gives the same hash, so a changed text is seen in the data.
    pub text_hash: String,
}

impl ConsentRecord {
    /// Consent to `study`'s text given at `at_ms`.
    pub fn of(study: &Study, at_ms: f64) -> ConsentRecord {
        ConsentRecord {
            at_ms,
            study_version: study.version.clone(),
            text_hash: format!("{:016x}", fnv1a(study.consent.as_bytes())),
        }
    }
}

/// A participant's progress through a study, saved after every step so a reload resumes
/// exactly there.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StudySession {
    /// The study's storage name (its file name, or `inline-HASH` for a study in the link).
    pub study: String,
    /// Who.
    pub participant: Participant,
    /// The scored trials in this participant's order.
    pub order: Vec<StudyTrial>,
    /// Where they are.
    pub stage: Stage,
    /// Whether the trial of the current stage is finished (waiting for "continue").
    #[serde(default)]
    pub trial_done: bool,
    /// The consent given, once given.
    #[serde(default)]
    pub consent: Option<ConsentRecord>,
}

impl StudySession {
    /// A new participant at the consent page, with their counterbalanced order.
    pub fn new(study_name: &str, study: &Study, participant: Participant) -> StudySession {
        StudySession {
            study: study_name.to_string(),
            order: study.order_for(participant.order),
            participant,
            stage: Stage::Consent,
            trial_done: false,
            consent: None,
        }
    }

    /// The storage key prefix of this participant's data (`{study}/{participant}/`).
    pub fn prefix(&self) -> String {
        format!("{}/{}/", self.study, self.participant.id)
    }

    /// Consent to `study` given at `at_ms`: recorded, and on to the instructions.
    pub fn accept(&mut self, study: &Study, at_ms: f64) {
        if self.stage == Stage::Consent {
            self.consent = Some(ConsentRecord::of(study, at_ms));
            self.stage = Stage::Instructions;
        }
    }

    /// Consent declined: the study ends (the page deletes anything stored).
    pub fn decline(&mut self) {
        if self.stage == Stage::Consent {
            self.stage = Stage::Declined;
        }
    }

    /// The current trial is finished.
    pub fn finish_trial(&mut self) {
        if matches!(self.stage, Stage::Practice | Stage::Trial(_)) {
            self.trial_done = true;
        }
    }

    /// On from the instructions or a finished trial: the practice trial (if the study has
    /// one), then each scored trial, then completion.
    pub fn next(&mut self, has_practice: bool) {
        let first = if self.order.is_empty() {
            Stage::Complete
        } else {
            Stage::Trial(0)
        };
        let next = match self.stage {
            Stage::Instructions if has_practice => Stage::Practice,
            Stage::Instructions => first,
            Stage::Practice if self.trial_done => first,
            Stage::Trial(i) if self.trial_done && i + 1 < self.order.len() => Stage::Trial(i + 1),
            Stage::Trial(_) if self.trial_done => Stage::Complete,
            other => other,
        };
        if next != self.stage {
            // A new stage's trial starts unfinished.
            self.stage = next;
            self.trial_done = false;
        }
    }

    /// The trial of the current stage: its index (-1 for practice), what it is, and whether
    /// it is the practice trial.
    pub fn current(&self, study: &Study) -> Option<(i64, StudyTrial, bool)> {
        match self.stage {
            Stage::Practice => study.practice.map(|p| (-1, p, true)),
            Stage::Trial(i) => self.order.get(i).map(|t| (i as i64, *t, false)),
            _ => None,
        }
    }

    /// How far along: (trials finished, trials in all), practice not counted.
    pub fn progress(&self) -> (usize, usize) {
        let n = self.order.len();
        let done = match self.stage {
            Stage::Trial(i) => i + usize::from(self.trial_done),
            Stage::Complete => n,
            _ => 0,
        };
        (done, n)
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
        match serde_json::from_str::<StudyTrialData>(line) {
            Ok(d) => ok.push(d),
            Err(e) => bad.push(format!("line {}: {e}", i + 1)),
        }
    }
    (ok, bad)
}

const B64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// base64url without padding.
pub fn base64url_encode(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &b)| n | u32::from(b) << (16 - 8 * i));
        for i in 0..=chunk.len() {
            out.push(B64[(n >> (18 - 6 * i) & 63) as usize] as char);
        }
    }
    out
}

/// Decodes base64url (or standard base64), padding optional; `None` for anything else.
pub fn base64url_decode(text: &str) -> Option<Vec<u8>> {
    let mut bits = 0u32;
    let mut count = 0;
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    for c in text.trim_end_matches('=').bytes() {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'-' | b'+' => 62,
            b'_' | b'/' => 63,
            _ => return None,
        };
        bits = bits << 6 | u32::from(v);
        count += 6;
        if count >= 8 {
            count -= 8;
            out.push((bits >> count & 0xFF) as u8);
        }
    }
    (count < 6).then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const CONTRACT_EXAMPLE: &str = r#"{"title": "Shape mazes",
 "trials": [{"shape": "square", "size": 5, "encoding": "matrix", "seed": 1, "sample": 0}],
 "practice": {"shape": "cross", "size": 5, "encoding": "matrix", "seed": 5, "sample": 0},
 "condition": "grid", "recognition": "free", "counterbalance": true,
 "completion": {"code": "ABC123"},
 "upload": {"kind": "json", "url": "https://lab.example/api/study-data"}}"#;

    #[test]
    fn the_contract_example_reads_and_survives_the_link_round_trip() {
        let s = Study::from_json(CONTRACT_EXAMPLE).expect("the CONTRACT's study reads");
        assert_eq!(s.trials.len(), 1);
        assert_eq!(
            s.completion.as_ref().and_then(|c| c.code.as_deref()),
            Some("ABC123")
        );
        assert_eq!(s.upload.as_ref().map(|u| u.kind), Some(UploadKind::Json));
        let back = Study::from_config_param(&s.to_config_param()).expect("round trip");
        assert_eq!(back, s);
    }

    #[test]
    fn bad_studies_are_refused_with_what_to_fix() {
        let cases = [
            ("{", "not valid"),
            (r#"{"trials": []}"#, "no trials"),
            (r#"{"trials": [{"shape": "hexagon"}]}"#, "not valid"),
            (r#"{"trials": [{"shape": "square", "size": 6}]}"#, "size 6"),
            (
                r#"{"trials": [{"shape": "Z"}], "upload": {"kind": "json", "url": "ftp://x"}}"#,
                "not a web address",
            ),
            (
                r#"{"trials": [{"shape": "Z"}], "upload": {"kind": "datapipe", "url": "https://pipe.jspsych.org/api/data/"}}"#,
                "experiment_id",
            ),
            (
                r#"{"trials": [{"shape": "Z"}], "completion": {"redirect": "javascript:alert(1)"}}"#,
                "not a web address",
            ),
        ];
        for (text, needle) in cases {
            let e = Study::from_json(text).expect_err(text);
            assert!(e.to_string().contains(needle), "{text}: {e}");
        }
        assert!(Study::from_config_param("not base64 ***").is_err());
    }

    #[test]
    fn latin_rows_are_permutations_and_balance_which_shape_follows_which() {
        for n in 1..=8usize {
            let period = if n.is_multiple_of(2) { n } else { 2 * n };
            let mut follows = vec![vec![0; n]; n];
            for k in 0..period as u64 {
                let row = latin_row(n, k);
                let mut sorted = row.clone();
                sorted.sort_unstable();
                assert_eq!(sorted, (0..n).collect::<Vec<_>>(), "n={n} k={k}: {row:?}");
                for w in row.windows(2) {
                    follows[w[0]][w[1]] += 1;
                }
            }
            let counts: Vec<usize> = (0..n)
                .flat_map(|a| (0..n).filter(move |&b| b != a).map(move |b| (a, b)))
                .map(|(a, b)| follows[a][b])
                .collect();
            if let (Some(lo), Some(hi)) = (counts.iter().min(), counts.iter().max()) {
                assert_eq!(
                    lo, hi,
                    "n={n}: every ordered pair equally often: {follows:?}"
                );
            }
        }
    }

    #[test]
    fn counterbalanced_orders_keep_every_trial_once_and_file_order_within_a_shape() {
        let study = Study {
            counterbalance: true,
            ..Study::from_json(r#"{"trials": [{"shape": "square", "sample": 0}, {"shape": "Z"}, {"shape": "square", "sample": 1}, {"shape": "spiral"}]}"#)
                .expect("reads")
        };
        let orders: Vec<Vec<StudyTrial>> = (0..6).map(|k| study.order_for(k)).collect();
        for o in &orders {
            assert_eq!(o.len(), 4);
            let squares: Vec<usize> = o
                .iter()
                .filter(|t| t.shape == Shape::Square)
                .map(|t| t.sample)
                .collect();
            assert_eq!(squares, vec![0, 1], "file order within a shape");
        }
        assert_ne!(orders[0], orders[1], "participants differ");
        let plain = Study {
            counterbalance: false,
            ..study.clone()
        };
        assert_eq!(plain.order_for(5), plain.trials);
    }

    #[test]
    fn the_participant_comes_from_prolific_or_the_generic_parameter() {
        let get = |pairs: &'static [(&'static str, &'static str)]| {
            move |k: &str| {
                pairs
                    .iter()
                    .find(|(n, _)| *n == k)
                    .map(|(_, v)| v.to_string())
            }
        };
        let p = Participant::from_params(
            get(&[
                ("PROLIFIC_PID", "abc"),
                ("STUDY_ID", "s1"),
                ("SESSION_ID", "x9"),
            ]),
            "local",
        );
        assert_eq!(
            (
                p.id.as_str(),
                p.study_id.as_deref(),
                p.session_id.as_deref()
            ),
            ("abc", Some("s1"), Some("x9"))
        );
        let q = Participant::from_params(get(&[("participant", "p7"), ("order", "3")]), "local");
        assert_eq!((q.id.as_str(), q.order), ("p7", 3));
        let r = Participant::from_params(get(&[]), "local-123");
        assert_eq!(r.id, "local-123");
        assert_eq!(
            r.order,
            Participant::from_params(get(&[]), "local-123").order,
            "stable"
        );
    }

    #[test]
    fn the_log_times_each_action_from_the_previous_one_and_each_phase() {
        let mut log = ActionLog::default();
        log.push("move", "solve", "(1, 2)", 1000.0);
        log.push("move", "solve", "(1, 3)", 1500.0);
        log.push("answer", "recognize", "square", 4000.0);
        log.push("submit", "generate", "", 9000.0);
        let dts: Vec<f64> = log.actions.iter().map(|a| a.dt_ms).collect();
        assert_eq!(dts, vec![1000.0, 500.0, 2500.0, 5000.0]);
        assert_eq!(log.phase_ms("solve"), 1500.0);
        assert_eq!(log.phase_ms("recognize"), 2500.0);
        assert_eq!(log.phase_ms("generate"), 5000.0);
        assert_eq!(log.phase_ms("done"), 0.0);
    }

    #[test]
    fn base64url_round_trips_every_length() {
        for n in 0..40u8 {
            let bytes: Vec<u8> = (0..n)
                .map(|i| i.wrapping_mul(37).wrapping_add(200))
                .collect();
            let text = base64url_encode(&bytes);
            assert!(!text.contains(['+', '/', '=']), "{text}");
            assert_eq!(base64url_decode(&text), Some(bytes), "{n} bytes");
        }
        assert_eq!(
            base64url_decode("aGk="),
            Some(b"hi".to_vec()),
            "padding accepted"
        );
        assert_eq!(base64url_decode("a"), None, "a lone character is not whole");
    }

    fn data() -> StudyTrialData {
        use crate::core::play::player::PlayerKind;
        use crate::core::play::player::{play_ready, Oracle};
        use crate::core::play::trial::{Trial, TrialSetup};
        use crate::core::results::record::{Placement, PlayerInfo};
        let lib = crate::core::maze::templates::TemplateLibrary::new(5);
        let maze = crate::core::maze::generate::generate_one(Shape::C, 0, 1, &lib).expect("maze");
        let mut t = Trial::start(TrialSetup::new(Shape::C, Encoding::Matrix, maze));
        play_ready(&mut t, &mut Oracle);
        let mut log = ActionLog::default();
        log.push("move", "solve", "(1, 2)", 800.0);
        log.push("answer", "recognize", "a \"C\", I think", 2000.0);
        StudyTrialData {
            study: "Pilot, 1".into(),
            participant: Participant {
                id: "p1".into(),
                ..Default::default()
            },
            trial_index: 0,
            practice: false,
            record: crate::core::results::record::TrialRecord::of(
                &t,
                PlayerInfo::builtin(PlayerKind::Human),
                Placement {
                    seed: 1,
                    sample: 0,
                    repeat: 0,
                },
                None,
                None,
            ),
            log,
            window: "1280x900".into(),
            consent: Some(ConsentRecord {
                at_ms: 1_764_000_000_000.0,
                study_version: "v2".into(),
                text_hash: "00ff00ff00ff00ff".into(),
            }),
        }
    }

    #[test]
    fn the_event_csv_has_one_row_per_action_under_a_documented_header() {
        let csv = events_csv(&[data()]);
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(lines.len(), 3, "header and two actions:\n{csv}");
        assert_eq!(lines[0].split(',').count(), EVENT_COLUMNS.len());
        assert!(lines[0].starts_with("trial_type,trial_index,time_elapsed,rt,"));
        assert!(
            lines[2].contains("\"a \"\"C\"\", I think\""),
            "quoted: {}",
            lines[2]
        );
        assert!(lines[1].starts_with("move,0,800,800,p1,"), "{}", lines[1]);
        assert!(
            lines[0].ends_with(",consented_at,study_version,consent_hash")
                && lines[1].ends_with(",1764000000000,v2,00ff00ff00ff00ff"),
            "the consent on every row: {csv}"
        );
        assert!(
            lines[1].contains(",success,success,success,"),
            "{}",
            lines[1]
        );
    }

    #[test]
    fn upload_bodies_follow_plain_json_and_datapipe() {
        let d = [data()];
        let plain: serde_json::Value =
            serde_json::from_str(&upload_body(UploadKind::Json, None, &d)).expect("json");
        assert_eq!(plain["trials"][0]["participant"]["id"], "p1");
        assert_eq!(plain["trials"][0]["record"]["player"], "human");
        let pipe: serde_json::Value =
            serde_json::from_str(&upload_body(UploadKind::Datapipe, Some("exp42"), &d))
                .expect("json");
        assert_eq!(pipe["experimentID"], "exp42");
        assert_eq!(pipe["filename"], "Pilot--1_p1.csv");
        assert!(pipe["data"]
            .as_str()
            .is_some_and(|s| s.starts_with("trial_type,")));
    }

    #[test]
    fn a_participant_goes_from_consent_through_practice_and_every_trial_to_completion() {
        let study = Study {
            practice: Some(StudyTrial {
                shape: Shape::Cross,
                size: 5,
                encoding: Encoding::Matrix,
                seed: 5,
                sample: 0,
            }),
            ..Study::from_json(r#"{"trials": [{"shape": "square"}, {"shape": "Z"}]}"#)
                .expect("reads")
        };
        let mut s = StudySession::new(
            "pilot",
            &study,
            Participant {
                id: "p1".into(),
                ..Default::default()
            },
        );
        assert_eq!(s.prefix(), "pilot/p1/");
        s.next(true);
        assert_eq!(s.stage, Stage::Consent, "no skipping consent");
        assert_eq!(s.consent, None);
        s.accept(&study, 1_764_000_000_000.0);
        assert_eq!(s.stage, Stage::Instructions);
        let consent = s.consent.clone().expect("consent recorded");
        assert_eq!(consent.at_ms, 1_764_000_000_000.0);
        assert_eq!(consent.study_version, study.version);
        assert_eq!(consent.text_hash.len(), 16);
        let mut changed = study.clone();
        changed.consent.push_str(" Changed.");
        assert_ne!(
            ConsentRecord::of(&changed, 0.0).text_hash,
            consent.text_hash,
            "another text, another hash"
        );
        assert_eq!(
            ConsentRecord::of(&study, 0.0).text_hash,
            consent.text_hash,
            "the same text, the same hash"
        );
        s.next(true);
        assert_eq!(s.current(&study).map(|c| (c.0, c.2)), Some((-1, true)));
        s.next(true);
        assert_eq!(s.stage, Stage::Practice, "an unfinished trial holds");
        s.finish_trial();
        s.next(true);
        assert_eq!((s.stage, s.trial_done), (Stage::Trial(0), false));
        assert_eq!(s.progress(), (0, 2));
        s.finish_trial();
        assert_eq!(s.progress(), (1, 2));
        s.next(true);
        assert_eq!(s.stage, Stage::Trial(1));
        s.finish_trial();
        s.next(true);
        assert_eq!((s.stage, s.progress()), (Stage::Complete, (2, 2)));
        let mut d = StudySession::new("pilot", &study, Participant::default());
        d.decline();
        d.next(true);
        assert_eq!(d.stage, Stage::Declined);
        assert_ne!(inline_name("{a}"), inline_name("{b}"));
    }
}
