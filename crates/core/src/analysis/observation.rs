//! The unit of analysis: an [`Observation`] is one trial as the analysis sees it, made from
//! a trial record or from a re-scored transcript, and its CSV.

use crate::analysis::stats::{clustered, Proportion, Tally};
use crate::analysis::trace::{trace, SolveTrace};
use crate::json::is_zero;
use crate::maze::encoding::Encoding;
use crate::maze::grid::Maze;
use crate::maze::shape::Shape;
use crate::model::reply::EmptyReason;
use crate::play::answer::AnswerMode;
use crate::play::condition::Condition;
use crate::play::phase::Phase;
use crate::play::player::PlayerKind;
use crate::play::staircase::StairStep;
use crate::play::transcript::Role;
use crate::play::trial::FailureKind;
use crate::results::bounds::PhaseDoubt;
use crate::results::filter::Facts;
use crate::results::forms::{mode_label, mode_name, transcription, transcription_cost, FormCounts};
use crate::results::items::Item;
use crate::results::layout::ExportPath;
use crate::results::record::{RecordMessage, Tokens, TrialRecord};
use crate::results::rescore::{rescore, Basis, Hints, Libraries};
use crate::text::csv_field;
use crate::verify::{GenerationChecks, Outcome, Reason};
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// The name of a pooled dimension in group rows.
pub const ALL: &str = "all";

/// The name of the "no shape named" column of the confusion matrix.
pub const NONE: &str = "none";

/// The three phases, in order, as named in JSON.
pub const PHASE_NAMES: [&str; 3] = ["solve", "recognize", "generate"];

/// Who played a trial.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayedBy {
    /// A chat model or a built-in player: anything but a person.
    Model,
    /// A person: the participant (their id as stored, from study data); empty for a
    /// person's trial whose participant is not known (a record of `player` `human` alone).
    Person(String),
}

impl PlayedBy {
    /// Whether a model (or a built-in player) played.
    pub fn is_model(&self) -> bool {
        matches!(self, PlayedBy::Model)
    }

    /// Whether a person played.
    pub fn is_person(&self) -> bool {
        matches!(self, PlayedBy::Person(_))
    }

    /// The participant who played (empty when not known); `None` for a model.
    pub fn participant(&self) -> Option<&str> {
        match self {
            PlayedBy::Person(id) => Some(id),
            PlayedBy::Model => None,
        }
    }
}

/// As JSON: the participant's id for a person, `null` for a model (which an
/// [`Observation`] leaves out).
impl Serialize for PlayedBy {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            PlayedBy::Person(id) => serializer.serialize_str(id),
            PlayedBy::Model => serializer.serialize_none(),
        }
    }
}

/// One trial as the analysis sees it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Observation {
    /// The experiment (or group) it was passed in with.
    pub experiment: String,
    /// The model (or built-in player), with `+mode` under an answer mode other than
    /// `free` ([`crate::results::forms::mode_label`]): every table keeps the modes apart.
    pub model: String,
    /// The answer mode asked (`free`, the design's, by default).
    #[serde(skip_serializing_if = "AnswerMode::is_free")]
    pub answer_mode: AnswerMode,
    /// The mode as the analysis names it: the asked one, or `asked>effect` when the
    /// endpoint stepped it down ([`crate::results::forms::mode_name`]).
    #[serde(skip_serializing_if = "is_free_name")]
    pub mode: String,
    /// Per phase, the replies held to a form, those not held and the free readers'
    /// agreement with the form's reading (records of a mode other than `free`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub forms: Option<FormCounts>,
    /// The transcription calls' tokens, counted apart from the trial's (records of the
    /// `transcribed` mode whose endpoint reported usage).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub transcription: Option<Tokens>,
    /// What those transcription calls cost in dollars, when the design gave the price.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub transcription_cost: Option<f64>,
    /// The encoding the maze was shown in.
    pub encoding: Encoding,
    /// The maze's shape.
    pub shape: Shape,
    /// The grid side.
    pub size: usize,
    /// The maze set's seed (0 when unknown).
    pub seed: u64,
    /// Which maze of the set.
    pub sample: usize,
    /// Which repeat on that maze.
    pub repeat: usize,
    /// Solve, recognize, generate: `None` when not reached or not known.
    pub outcomes: [Option<Outcome>; 3],
    /// Each phase's verdict reason, when known.
    pub reasons: [Option<Reason>; 3],
    /// Move attempts (records only).
    pub moves: Option<usize>,
    /// Valid moves among them (records only).
    pub valid_moves: Option<usize>,
    /// The maze's shortest path in moves (records only).
    pub shortest_path: Option<usize>,
    /// The shape the recognition reply named: `Some(None)` when it named none; `None` when
    /// not known (no record, or recognition not judged).
    pub predicted: Option<Option<Shape>>,
    /// The generation checks (records only, when generation was judged).
    pub checks: Option<GenerationChecks>,
    /// Why each empty reply of the trial was empty, in order (records only): empty
    /// answers are judged like any other, and counted apart by [`EmptyAnswers`].
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub empty: Vec<EmptyReason>,
    /// How the solve went, from the cells stood on (records only).
    pub trace: Option<SolveTrace>,
    /// The tokens the trial's calls used, when the endpoint reported them (records only).
    pub tokens: Option<Tokens>,
    /// What those tokens cost in dollars, when the design gave the model's price.
    pub cost: Option<f64>,
    /// Whether a call of the trial failed and was retried before it answered (records
    /// only).
    pub retried: bool,
    /// Invalid moves the lenient protocol forgave (records only).
    #[serde(skip_serializing_if = "is_zero")]
    pub retried_moves: usize,
    /// Where the trial stands in a staircase walk (records of a staircase only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub staircase: Option<StairStep>,
    /// Who played: a person (with their participant, when known) or a model. In JSON
    /// `person`: the participant's id, absent for a model.
    #[serde(rename = "person", skip_serializing_if = "PlayedBy::is_model")]
    pub who: PlayedBy,
    /// How a person was shown the maze (the record's `condition`; `None` for models and
    /// for people's records from before it was kept).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub condition: Option<Condition>,
    /// Whether a person saw the maze's shape named before their recognition answer
    /// ([`TrialRecord::shape_shown`]): its recognition verdict is left out of the people's
    /// rates unless the analysis is asked to count it
    /// ([`crate::analysis::analyze::AnalysisOptions::include_shown`]).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub shape_shown: bool,
    /// Milliseconds the solve phase took: a person's from the study's action log, a
    /// model's as the sum of its solve replies' latencies (records only, when known).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub solve_ms: Option<f64>,
    /// Tokens (prompt and completion) of the solve phase's replies, when the endpoint
    /// reported them (records only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub solve_tokens: Option<u64>,
    /// How far unsure readings could move each phase's outcome (the reading bounds;
    /// all sure when not known).
    #[serde(skip)]
    pub doubts: [PhaseDoubt; 3],
}

fn is_free_name(mode: &str) -> bool {
    mode == AnswerMode::Free.name()
}

/// A maze instance: the maze as shown, `(shape, size, encoding, seed, sample)`. Every
/// player's trials of it share it (models, repeats and people alike): the unit rates'
/// intervals are clustered by, and people and models are paired on.
pub type MazeInstance = (Shape, usize, Encoding, u64, usize);

/// A proportion over `obs` with its interval clustered by maze instance
/// ([`crate::analysis::stats::clustered`]): `count` gives each observation's
/// tally (the units right of those counted), or `None` when it is not counted.
pub fn rate_by_maze<'a>(
    obs: impl IntoIterator<Item = &'a Observation>,
    count: impl Fn(&Observation) -> Option<Tally>,
) -> Proportion {
    let mut clusters: BTreeMap<MazeInstance, Tally> = BTreeMap::new();
    for o in obs {
        if let Some(t) = count(o) {
            clusters.entry(o.instance()).or_default().merge(t);
        }
    }
    clustered(&clusters.into_values().map(Tally::unit).collect::<Vec<_>>())
}

/// The share of `obs` for which `judged` says yes, among those it judges (`Some`), with its
/// interval clustered by maze instance.
pub fn share_by_maze<'a>(
    obs: impl IntoIterator<Item = &'a Observation>,
    judged: impl Fn(&Observation) -> Option<bool>,
) -> Proportion {
    rate_by_maze(obs, |o| {
        judged(o).map(|x| Tally {
            right: usize::from(x),
            total: 1,
        })
    })
}

/// Why a file is not counted as an observation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NotCounted {
    /// It has no message markers and no closing lines.
    NotTranscript,
    /// Its encoding or shape cannot be told (it lies outside the export layout).
    UnknownCondition,
}

impl std::fmt::Display for NotCounted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            NotCounted::NotTranscript => {
                "not a transcript: no message markers and no closing lines"
            }
            NotCounted::UnknownCondition => {
                "its encoding or shape is unknown (outside the export layout)"
            }
        })
    }
}

impl std::error::Error for NotCounted {}

/// The trace of a record's solve: its maze read back from the record, walked along its
/// path; `None` when the solve ended on an API error or the maze cannot be read.
fn record_trace(r: &TrialRecord) -> Option<SolveTrace> {
    if r.verdicts.all()[0].is_none_or(|v| v.outcome == Outcome::Error) {
        return None;
    }
    let grid = Encoding::Matrix
        .parse_grid(&r.maze.join("\n"), r.size, r.size)
        .ok()?;
    let maze = Maze::from_grid(grid).ok()?;
    Some(trace(
        &maze.open_mask(),
        maze.goal(),
        r.shape.movement(),
        &r.path,
        r.failure == Some(FailureKind::InvalidMove),
    ))
}

/// The replies of a record's solve phase: every reply before the prompt that opens
/// recognition (or generation).
fn solve_replies(r: &TrialRecord) -> impl Iterator<Item = &RecordMessage> {
    r.messages
        .iter()
        .take_while(|m| m.role == Role::Assistant || opens_phase(&m.content) != Some(false))
        .filter(|m| m.role == Role::Assistant)
}

/// Whether a prompt opens the solve phase (`Some(true)`), a later phase (`Some(false)`),
/// or neither (an update, or text that is not a prompt).
fn opens_phase(prompt: &str) -> Option<bool> {
    use crate::play::prompt::{read_heading, Heading};
    match read_heading(prompt)? {
        Heading::Solve | Heading::SolvePath => Some(true),
        Heading::Recognize | Heading::Combined | Heading::Generate => Some(false),
        Heading::Update => None,
    }
}

/// The milliseconds a record's solve replies took; `None` without a solve reply or when
/// one has no latency (people's replies have none: their study's log times them).
fn solve_latency(r: &TrialRecord) -> Option<f64> {
    let mut total = None;
    for m in solve_replies(r) {
        total = Some(total.unwrap_or(0.0) + m.meta.latency_ms?);
    }
    total
}

/// The tokens of a record's solve replies; `None` when none reported its usage.
fn solve_tokens(r: &TrialRecord) -> Option<u64> {
    solve_replies(r)
        .filter_map(|m| Some(m.meta.prompt_tokens? + m.meta.completion_tokens.unwrap_or(0)))
        .reduce(|a, b| a + b)
}

/// A maze as one model saw it in one encoding ([`Observation::maze_id`]): experiment, model,
/// encoding, shape, size, seed and sample.
pub(crate) type MazeId = (String, String, Encoding, Shape, usize, u64, usize);

impl Observation {
    /// The observation of a record, in experiment `experiment`.
    pub fn from_record(experiment: &str, r: &TrialRecord) -> Observation {
        let v = r.verdicts.all();
        let judged = |i: usize| v[i].is_some_and(|v| v.outcome != Outcome::Error);
        let mode = mode_name(r.answer_mode, r.answer_mode_in_effect.as_ref());
        Observation {
            experiment: experiment.to_string(),
            model: mode_label(&r.model, &mode),
            answer_mode: r.answer_mode,
            mode,
            forms: FormCounts::of(r),
            transcription: transcription(r),
            transcription_cost: transcription_cost(r),
            encoding: r.encoding,
            shape: r.shape,
            size: r.size,
            seed: r.seed,
            sample: r.sample,
            repeat: r.repeat,
            outcomes: v.map(|v| v.map(|v| v.outcome)),
            reasons: v.map(|v| v.map(|v| v.reason)),
            moves: Some(r.moves),
            valid_moves: Some(r.valid_moves),
            shortest_path: r.shortest_path,
            predicted: judged(1).then_some(r.predicted_shape),
            checks: if judged(2) {
                v[2].and_then(|v| v.checks)
            } else {
                None
            },
            empty: r
                .messages
                .iter()
                .filter_map(|m| m.meta.empty_reason)
                .collect(),
            trace: record_trace(r),
            tokens: Tokens::of(r),
            cost: r.cost(),
            retried_moves: r.retried_moves,
            retried: r
                .messages
                .iter()
                .any(|m| m.meta.attempts.is_some_and(|a| a > 1) || !m.meta.retried.is_empty()),
            staircase: r.staircase,
            who: if r.player == PlayerKind::Human {
                PlayedBy::Person(String::new())
            } else {
                PlayedBy::Model
            },
            condition: r.condition,
            shape_shown: r.shape_shown(),
            solve_ms: solve_latency(r),
            solve_tokens: solve_tokens(r),
            doubts: crate::results::bounds::of_record(r),
        }
    }

    /// The observation of a transcript file at `path` (its place in the results layout
    /// gives the model, encoding, shape and maze), in experiment `experiment`: re-scored
    /// from its replies, or counted from its closing lines when it holds nothing else
    /// (the basis says which). `Err` says why the file is not counted.
    pub fn from_transcript(
        experiment: &str,
        path: &str,
        text: &str,
        known: Hints,
        libraries: &mut Libraries,
    ) -> Result<(Observation, Basis), NotCounted> {
        let layout = ExportPath::parse(path);
        let hints = Hints {
            in_play: known.in_play,
            maze: known.maze,
            ..layout.as_ref().map(Hints::from).unwrap_or_default()
        };
        let r = rescore(text, &hints, libraries);
        if !r.is_transcript() {
            return Err(NotCounted::NotTranscript);
        }
        let (Some(encoding), Some(shape)) = (r.encoding, r.shape) else {
            return Err(NotCounted::UnknownCondition);
        };
        let reasons = match r.basis {
            Basis::Replies => r.phases.each_ref().map(|p| p.reason),
            Basis::ClosingLines => [None; 3],
        };
        let answer_mode = layout.as_ref().map_or(AnswerMode::Free, |l| l.answer_mode);
        let observation = Observation {
            experiment: experiment.to_string(),
            model: layout.as_ref().map_or("unknown".to_string(), |l| {
                mode_label(&l.model, answer_mode.name())
            }),
            answer_mode,
            mode: answer_mode.name().to_string(),
            size: r
                .size
                .map(|s| s.0)
                .or(layout.as_ref().map(|l| l.rows))
                .unwrap_or(0),
            sample: layout.as_ref().map_or(0, |l| l.maze),
            repeat: layout.as_ref().map_or(0, |l| l.trial),
            outcomes: r.counted(),
            reasons,
            doubts: r.doubts,
            ..Observation::bare(encoding, shape)
        };
        Ok((observation, r.basis))
    }

    /// An observation of `encoding` and `shape` with nothing else known yet: the fields a
    /// record fills (moves, checks, the shape named, empty answers) and every outcome
    /// unknown, to complete with struct update syntax.
    pub fn bare(encoding: Encoding, shape: Shape) -> Observation {
        Observation {
            experiment: String::new(),
            model: String::new(),
            answer_mode: AnswerMode::Free,
            mode: AnswerMode::Free.name().to_string(),
            forms: None,
            transcription: None,
            transcription_cost: None,
            encoding,
            shape,
            size: 0,
            seed: 0,
            sample: 0,
            repeat: 0,
            outcomes: [None; 3],
            reasons: [None; 3],
            moves: None,
            valid_moves: None,
            shortest_path: None,
            predicted: None,
            checks: None,
            empty: Vec::new(),
            trace: None,
            tokens: None,
            cost: None,
            retried: false,
            retried_moves: 0,
            staircase: None,
            who: PlayedBy::Model,
            condition: None,
            shape_shown: false,
            solve_ms: None,
            solve_tokens: None,
            doubts: [PhaseDoubt::SURE; 3],
        }
    }

    /// What a [`TrialFilter`](crate::results::filter::TrialFilter) sees of this
    /// trial. Made from a record, the filter should see the record itself
    /// ([`Facts::of`]); here there is no player, effort, symbols, allowance or message, so
    /// a term on them (a word, a phrase) matches none of the transcripts' trials.
    pub fn facts(&self) -> Facts<'_> {
        Facts {
            experiment: &self.experiment,
            model: &self.model,
            player: None,
            shape: self.shape,
            encoding: self.encoding,
            size: self.size,
            seed: self.seed,
            sample: self.sample,
            repeat: self.repeat,
            outcomes: self.outcomes,
            reasons: self.reasons,
            predicted: self.predicted,
            moves: self.moves,
            effort: None,
            symbols: None,
            vision: None,
            lenient: None,
            answer_mode: self.answer_mode,
            messages: &[],
        }
    }

    /// Whether `phase` was judged a success (`Some(true)`) or a failure (`Some(false)`);
    /// `None` for an API error or a phase not reached.
    pub fn scored(&self, phase: Phase) -> Option<bool> {
        match self.outcomes[phase.index()] {
            Some(Outcome::Success) => Some(true),
            Some(Outcome::Fail) => Some(false),
            Some(Outcome::Error) | None => None,
        }
    }

    /// Whether any phase ended on an API error.
    pub fn api_error(&self) -> bool {
        self.outcomes.contains(&Some(Outcome::Error))
    }

    /// How the solve phase failed, from its reason.
    pub fn failure(&self) -> Option<FailureKind> {
        match self.outcomes[0] {
            Some(Outcome::Error) => Some(FailureKind::ApiError),
            Some(Outcome::Fail) => self.reasons[0].and_then(FailureKind::of),
            _ => None,
        }
    }

    /// This observation as a trial of participant `person` of a study, whose solve phase
    /// took `solve_ms` by the study's log (the caller reads both from the study data).
    pub fn played_by(self, person: String, solve_ms: Option<f64>) -> Observation {
        Observation {
            who: PlayedBy::Person(person),
            solve_ms: solve_ms.or(self.solve_ms),
            ..self
        }
    }

    /// This trial as the item matrix counts it ([`crate::results::items`]).
    pub fn item(&self) -> Item<'_> {
        Item {
            shape: self.shape,
            size: self.size,
            seed: self.seed,
            sample: self.sample,
            encoding: self.encoding,
            model: &self.model,
            outcomes: self.outcomes,
            condition: self.condition.filter(|_| self.who.is_person()),
        }
    }

    /// The maze instance this trial ran on.
    pub fn instance(&self) -> MazeInstance {
        (self.shape, self.size, self.encoding, self.seed, self.sample)
    }

    /// The maze this trial ran on as this model saw it in this encoding: its repeats share
    /// it.
    pub(crate) fn maze_id(&self) -> MazeId {
        (
            self.experiment.clone(),
            self.model.clone(),
            self.encoding,
            self.shape,
            self.size,
            self.seed,
            self.sample,
        )
    }

    /// The maze this trial ran on, for pairing the encodings: everything but the encoding
    /// (set to the matrix in the key), and the repeat.
    pub(crate) fn maze_key(&self) -> (MazeId, usize) {
        let mut id = self.maze_id();
        id.2 = Encoding::Matrix;
        (id, self.repeat)
    }
}

/// CSV header of [`observations_csv`].
pub const OBSERVATIONS_CSV_HEADER: &str = "experiment,model,encoding,shape,size,seed,sample,repeat,solve,recognize,generate,solve_reason,moves,valid_moves,shortest_path,failure,predicted_shape,participant,condition,encoding_shown,shape_shown_before_answer";

impl Observation {
    /// The encoding the player was shown: none for a person on the grid; for people's
    /// data from before the condition was kept, not known (empty).
    pub fn encoding_shown(&self) -> &'static str {
        match (&self.who, self.condition) {
            (PlayedBy::Model, _) | (_, Some(Condition::Text)) => self.encoding.name(),
            (_, Some(Condition::Grid)) => crate::results::items::NO_ENCODING,
            (_, None) => "",
        }
    }
}

/// The observations as CSV, one row per trial (the data inside the report file): every
/// verdict as judged (a recognition given with the shape shown too, marked in
/// `shape_shown_before_answer`), and for people's trials the participant, the condition
/// and the encoding shown (`none` on the grid).
pub fn observations_csv(observations: &[Observation]) -> String {
    let mut out = String::from(OBSERVATIONS_CSV_HEADER);
    out.push('\n');
    let opt = |x: Option<usize>| x.map_or(String::new(), |x| x.to_string());
    for o in observations {
        let outcomes = o.outcomes.map(|x| x.map_or("", Outcome::name));
        let _ = writeln!(
            out,
            "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}",
            csv_field(&o.experiment),
            csv_field(&o.model),
            o.encoding.name(),
            o.shape.name(),
            o.size,
            o.seed,
            o.sample,
            o.repeat,
            outcomes[0],
            outcomes[1],
            outcomes[2],
            o.reasons[0].map_or("", Reason::as_str),
            opt(o.moves),
            opt(o.valid_moves),
            opt(o.shortest_path),
            o.failure().map_or("", FailureKind::name),
            match o.predicted {
                Some(Some(s)) => s.name(),
                Some(None) => NONE,
                None => "",
            },
            csv_field(o.who.participant().unwrap_or_default()),
            o.condition
                .filter(|_| o.who.is_person())
                .map_or("", Condition::name),
            o.encoding_shown(),
            if o.who.is_person() {
                if o.shape_shown {
                    "true"
                } else {
                    "false"
                }
            } else {
                ""
            },
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::analyze::{analyze, AnalysisOptions};
    use crate::analysis::groups::shape_rank;
    use crate::analysis::test_support::obs;

    #[test]
    fn who_played_is_written_as_the_person_field_a_model_leaving_it_out() {
        let model = obs("m", Encoding::Matrix, Shape::C, 0, [true, true, true]);
        let json = serde_json::to_value(&model).expect("writes");
        assert!(
            json.get("person").is_none(),
            "a model has no person: {json}"
        );
        let person = model.clone().played_by("p1".into(), None);
        let json = serde_json::to_value(&person).expect("writes");
        assert_eq!(json["person"], "p1");
        let unknown = Observation {
            who: PlayedBy::Person(String::new()),
            ..model
        };
        let json = serde_json::to_value(&unknown).expect("writes");
        assert_eq!(
            json["person"], "",
            "a person whose participant is not known"
        );
    }

    #[test]
    fn a_filter_sees_an_observation_by_the_fields_it_has() {
        use crate::results::filter::TrialFilter;
        let ok = obs(
            "qwen-max",
            Encoding::Matrix,
            Shape::Z,
            2,
            [true, false, true],
        );
        let bad = obs("qwen-plus", Encoding::CoordList, Shape::C, 0, [false; 3]);
        let sees = |text: &str, o: &Observation| {
            TrialFilter::parse(text)
                .expect("a filter")
                .matches_facts(&o.facts())
        };
        for text in [
            "experiment:EXP model:max shape:z encoding:matrix size:5 sample:2 seed:0",
            "solve:success recognize:fail generate:success reason:reached_goal",
            "shape:Z predicted:none moves:6 moves>5 -effort:high -player:human",
        ] {
            assert!(sees(text, &ok), "{text}");
            assert!(!sees(text, &bad), "{text}");
        }
        assert!(sees("reason:wall predicted:none solve:fail shape:c", &bad));
        // What an observation lacks fails the term: it has no messages to search.
        for text in ["goal", "reply:goal", "player:scripted", "lenient:0"] {
            assert!(!sees(text, &ok), "{text}");
        }
    }

    #[test]
    fn the_confusion_matrix_counts_named_shapes_and_none() {
        let v = vec![
            obs("m", Encoding::Matrix, Shape::Z, 0, [true, true, true]),
            obs("m", Encoding::Matrix, Shape::Z, 1, [true, false, true]),
        ];
        let an = analyze(&v, &AnalysisOptions::default());
        let c = &an.confusion[0];
        let z = shape_rank("Z");
        assert_eq!(c.counts[z][z], 1, "one Z named as Z");
        assert_eq!(
            c.counts[z][Shape::STANDARD.len()],
            1,
            "one Z with no shape named"
        );
        assert_eq!(
            c.cols.last().map(String::as_str),
            Some(NONE),
            "none is the last column"
        );
    }
}
