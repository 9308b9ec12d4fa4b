//! The experiment design's measures, analyses and hypothesis verdicts, computed from trial
//! records (or from re-scored transcripts) by pure functions: one [`Analysis`] serves the
//! `/results` page, the report file and `shapemaze report`, so the three never disagree.
//!
//! The unit is an [`Observation`]: one trial as the analysis sees it. A
//! [`TrialRecord`] gives every detail (moves, the shape named, the generation checks); a
//! transcript re-scored from its replies gives the three outcomes and their reasons; a
//! transcript of the design's own runs may give only its three closing lines. Measures that
//! need a detail count only the trials that have it, and say how many that was.
//!
//! API errors are never model failures: a phase that ended on one is left out of every
//! denominator and counted apart ([`GroupRow::api_errors`]).
//!
//! The hypotheses (the design's H1 to H4) are tested at [`ALPHA`]; each verdict is
//! `supported`, `not_supported` or `insufficient`, and the choices are:
//! - **H1** (matrix > coordinate list): McNemar's test on solve success, pairing the two
//!   encodings' trials of the same maze, model and repeat; supported when the matrix rate
//!   is higher and p < 0.05. Insufficient below [`MIN_PAIRS`] pairs.
//! - **H2** (recognition and generation vary by shape): chi-square tests of independence of
//!   recognition success x shape and generation success x shape, Bonferroni-corrected over
//!   the two (the reported p is the smaller one doubled); supported when it is below 0.05.
//!   Insufficient when fewer than two shapes have [`MIN_PER_SHAPE`] scored trials.
//! - **H3** (larger models do better, in the given order, default
//!   [`DEFAULT_MODEL_ORDER`], each name matched as a case-insensitive substring of the
//!   model): the Cochran-Armitage trend test on solve success with the models scored
//!   0, 1, 2, ...; supported when the trend is positive and p < 0.05. Insufficient when
//!   fewer than two of the named models have [`MIN_PER_MODEL`] scored trials.
//! - **H4** (solve > recognize > generate, paired within trials): McNemar's test for solve
//!   against recognize and for recognize against generate on the trials with all three
//!   phases scored; supported when both differences point the predicted way with p < 0.05
//!   (an intersection-union test, so no correction is needed; the reported p is the larger
//!   of the two). Cochran's Q over the three phases is the reported statistic.
//!   Insufficient below [`MIN_PAIRS`] trials.
//!
//! A verdict below [`SMALL_SAMPLE`] observations (or with expected counts under 5 for a
//! chi-square) carries a plain warning.

use super::encoding::Encoding;
use super::layout::ExportPath;
use super::record::{EmptyReason, TrialRecord};
use super::rescore::{rescore, Basis, Hints, Libraries};
use super::shape::Shape;
use super::stats::{
    chi_square_independence, cochran_armitage, cochran_q, mcnemar, mean, median, one_way_anova,
    phi, spearman, wilson, Anova, ChiSquare, Correlation, McNemar, PairedCounts, Phi, Proportion,
    ALPHA,
};
use super::trial::FailureKind;
use super::verify::{GenerationChecks, Outcome, Reason};
use crate::core::text::csv_field;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

/// H3's model order when none is given: smallest first.
pub const DEFAULT_MODEL_ORDER: [&str; 3] = ["qwen-turbo", "qwen-plus", "qwen-max"];
/// The design's predicted difficulty ranking, easiest first (H2).
pub const PREDICTED_DIFFICULTY: [Shape; 6] = [
    Shape::Square,
    Shape::Cross,
    Shape::C,
    Shape::Triangle,
    Shape::Z,
    Shape::Spiral,
];
/// Fewest pairs (H1) or fully scored trials (H4) for a verdict.
pub const MIN_PAIRS: usize = 10;
/// Fewest scored trials per shape, in at least two shapes, for H2.
pub const MIN_PER_SHAPE: usize = 5;
/// Fewest scored solve trials per model, in at least two models, for H3.
pub const MIN_PER_MODEL: usize = 10;
/// Below this many observations a verdict carries a small-sample warning.
pub const SMALL_SAMPLE: usize = 30;
/// The name of a pooled dimension in group rows.
pub const ALL: &str = "all";
/// The name of the "no shape named" column of the confusion matrix.
pub const NONE: &str = "none";

/// The three phases, in order, as named in JSON.
pub const PHASE_NAMES: [&str; 3] = ["solve", "recognize", "generate"];

/// One trial as the analysis sees it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Observation {
    /// The experiment (or group) it was passed in with.
    pub experiment: String,
    /// The model (or built-in player).
    pub model: String,
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
}

impl Observation {
    /// The observation of a record, in experiment `experiment`.
    pub fn from_record(experiment: &str, r: &TrialRecord) -> Observation {
        let v = r.verdicts.all();
        let judged = |i: usize| v[i].is_some_and(|v| v.outcome != Outcome::Error);
        Observation {
            experiment: experiment.to_string(),
            model: r.model.clone(),
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
            empty: r.messages.iter().filter_map(|m| m.empty_reason).collect(),
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
        libraries: &mut Libraries,
    ) -> Result<(Observation, Basis), String> {
        let layout = ExportPath::parse(path);
        let hints = layout.as_ref().map(Hints::from).unwrap_or_default();
        let r = rescore(text, &hints, libraries);
        if !r.is_transcript() {
            return Err("not a transcript: no message markers and no closing lines".into());
        }
        let (Some(encoding), Some(shape)) = (r.encoding, r.shape) else {
            return Err("its encoding or shape is unknown (outside the export layout)".into());
        };
        let reasons = match r.basis {
            Basis::Replies => r.phases.each_ref().map(|p| p.reason),
            Basis::ClosingLines => [None; 3],
        };
        let observation = Observation {
            experiment: experiment.to_string(),
            model: layout
                .as_ref()
                .map_or("unknown".to_string(), |l| l.model.clone()),
            encoding,
            shape,
            size: r
                .size
                .map(|s| s.0)
                .or(layout.as_ref().map(|l| l.rows))
                .unwrap_or(0),
            seed: 0,
            sample: layout.as_ref().map_or(0, |l| l.maze),
            repeat: layout.as_ref().map_or(0, |l| l.trial),
            outcomes: r.counted(),
            reasons,
            moves: None,
            valid_moves: None,
            shortest_path: None,
            predicted: None,
            checks: None,
            empty: Vec::new(),
        };
        Ok((observation, r.basis))
    }

    /// Whether phase `i` (0 solve, 1 recognize, 2 generate) was judged a success (`Some(true)`)
    /// or a failure (`Some(false)`); `None` for an API error or a phase not reached.
    pub fn scored(&self, i: usize) -> Option<bool> {
        match self.outcomes.get(i).copied().flatten() {
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

    /// The maze this trial ran on, for pairing the encodings (everything but the encoding).
    fn maze_key(&self) -> (String, String, usize, u64, Shape, usize, usize) {
        (
            self.experiment.clone(),
            self.model.clone(),
            self.size,
            self.seed,
            self.shape,
            self.sample,
            self.repeat,
        )
    }
}

/// Options of an analysis.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnalysisOptions {
    /// H3's model order, smallest first; each matched as a case-insensitive substring.
    pub model_order: Vec<String>,
}

impl Default for AnalysisOptions {
    fn default() -> Self {
        AnalysisOptions {
            model_order: DEFAULT_MODEL_ORDER.map(str::to_string).to_vec(),
        }
    }
}

/// The three phases' success rates of one group (CONTRACT.md: `groups`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GroupRow {
    /// The experiment's label (`all` when pooled).
    pub experiment: String,
    /// The model (`all` when pooled).
    pub model: String,
    /// The encoding (`all` when pooled).
    pub encoding: String,
    /// The shape (`all` when pooled).
    pub shape: String,
    /// Trials in the group (API errors included).
    pub trials: usize,
    /// Trials with an API error in some phase (those phases are left out of the rates).
    pub api_errors: usize,
    /// Solve success.
    pub solve: Proportion,
    /// Recognition success.
    pub recognize: Proportion,
    /// Generation success.
    pub generate: Proportion,
}

impl GroupRow {
    /// The three phases' proportions, in order.
    pub fn phases(&self) -> [&Proportion; 3] {
        [&self.solve, &self.recognize, &self.generate]
    }

    /// `model/encoding/shape` (with the experiment first when there are several).
    pub fn label(&self, with_experiment: bool) -> String {
        let base = format!("{}/{}/{}", self.model, self.encoding, self.shape);
        if with_experiment {
            format!("{}: {base}", self.experiment)
        } else {
            base
        }
    }
}

/// A sample's summary: count, mean, median, extremes and how often each value occurred.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Distribution {
    /// Values.
    pub n: usize,
    /// Their mean (`None` when there are none).
    pub mean: Option<f64>,
    /// Their median.
    pub median: Option<f64>,
    /// Smallest.
    pub min: Option<f64>,
    /// Largest.
    pub max: Option<f64>,
    /// `[value, count]` for each whole value seen, ascending.
    pub counts: Vec<(i64, usize)>,
}

impl Distribution {
    fn of(xs: &[f64]) -> Distribution {
        let mut counts: BTreeMap<i64, usize> = BTreeMap::new();
        for x in xs {
            *counts.entry(x.round() as i64).or_default() += 1;
        }
        Distribution {
            n: xs.len(),
            mean: mean(xs),
            median: median(xs),
            min: xs.iter().copied().reduce(f64::min),
            max: xs.iter().copied().reduce(f64::max),
            counts: counts.into_iter().collect(),
        }
    }
}

/// How solve phases failed.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Failures {
    /// Invalid moves, all reasons together.
    pub invalid_move: usize,
    /// Invalid moves by reason (`wall`, `out_of_bounds`, ...).
    pub invalid_by_reason: BTreeMap<String, usize>,
    /// Move limit used up.
    pub move_limit: usize,
    /// No move could be read.
    pub unparseable_reply: usize,
    /// Failed solve phases whose reason is not known (closing lines only).
    pub unknown: usize,
    /// API errors in the solve phase: never a model failure, reported apart.
    pub api_error: usize,
}

/// The generation checks' rates, each on its own and all four together.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GenerationRates {
    /// Properly encoded (one P, one G, readable).
    pub valid_encoding: Proportion,
    /// Same shape (and size) as the original.
    pub shape_preserved: Proportion,
    /// Not a copy of the original.
    pub novel: Proportion,
    /// P reaches G.
    pub path_valid: Proportion,
    /// All four at once.
    pub all_four: Proportion,
}

/// The detailed measures of one group.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GroupDetail {
    /// The group (same keys as in [`GroupRow`]).
    pub experiment: String,
    /// The model (`all` when pooled).
    pub model: String,
    /// The encoding (`all` when pooled).
    pub encoding: String,
    /// The shape (`all` when pooled).
    pub shape: String,
    /// Trials with full records (moves, shape named, generation checks); the rest were
    /// counted from transcripts.
    pub detailed: usize,
    /// Moves per successful solve.
    pub moves_per_success: Distribution,
    /// Moves beyond the shortest path per successful solve.
    pub excess_moves: Distribution,
    /// Failure types of the solve phase.
    pub failures: Failures,
    /// Valid moves among all move attempts.
    pub move_validity: Proportion,
    /// The generation checks.
    pub generation: GenerationRates,
}

/// A confusion matrix of recognition: true shape x named shape (`none` last).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Confusion {
    /// `all`, an encoding's name or a model's.
    pub scope: String,
    /// True shapes (rows).
    pub rows: Vec<String>,
    /// Named shapes (columns), `none` last.
    pub cols: Vec<String>,
    /// Counts, `rows x cols`.
    pub counts: Vec<Vec<usize>>,
}

/// Matrix against coordinate list in one phase, paired by maze.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EncodingComparison {
    /// The model (`all` when pooled).
    pub model: String,
    /// `solve`, `recognize` or `generate`.
    pub phase: String,
    /// Matrix success over the pairs.
    pub matrix: Proportion,
    /// Coordinate-list success over the pairs.
    pub coord_list: Proportion,
    /// McNemar's test (matrix first) and the difference with its interval.
    pub test: Option<McNemar>,
}

/// A shape's place in the observed ranking.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ShapeRank {
    /// The shape.
    pub shape: String,
    /// Mean of its three phase success rates.
    pub score: f64,
    /// Observed rank, 1 = easiest (ties averaged).
    pub observed: f64,
    /// The design's predicted rank, 1 = easiest.
    pub predicted: usize,
}

/// Shape effects in one phase.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ShapePhase {
    /// `solve`, `recognize`, `generate` or `overall` (mean of the three per maze).
    pub phase: String,
    /// Success by shape (empty for `overall`).
    pub rates: Vec<(String, Proportion)>,
    /// Chi-square of independence, success x shape (not for `overall`).
    pub chi_square: Option<ChiSquare>,
    /// One-way ANOVA of per-maze scores across shapes.
    pub anova: Option<Anova>,
    /// Mazes in the ANOVA.
    pub mazes: usize,
}

/// Shape effects: the tests and the observed ranking beside the predicted one.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ShapeEffects {
    /// Per phase, then `overall`.
    pub phases: Vec<ShapePhase>,
    /// The shapes seen, easiest first as observed.
    pub ranking: Vec<ShapeRank>,
    /// Spearman's rho between predicted and observed ranks.
    pub spearman: Option<Correlation>,
}

/// Phi between two phases' successes within trials.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PhaseCorrelation {
    /// The model (`all` when pooled).
    pub model: String,
    /// The earlier phase.
    pub first: String,
    /// The later phase.
    pub second: String,
    /// The paired counts (first as A).
    pub counts: PairedCounts,
    /// Phi with its interval.
    pub phi: Option<Phi>,
}

/// A hypothesis's verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Support {
    /// The test says yes at [`ALPHA`].
    Supported,
    /// The test ran and does not say yes.
    NotSupported,
    /// Too little data to run the test.
    Insufficient,
}

impl Support {
    /// `supported`, `not_supported` or `insufficient` (the page's `data-verdict`).
    pub fn name(self) -> &'static str {
        match self {
            Support::Supported => "supported",
            Support::NotSupported => "not_supported",
            Support::Insufficient => "insufficient",
        }
    }
}

/// One hypothesis's verdict with its test (CONTRACT.md: `hypotheses`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Hypothesis {
    /// The verdict.
    pub verdict: Support,
    /// The test used, in words.
    pub test: String,
    /// The test statistic (`None` when not computed).
    pub statistic: Option<f64>,
    /// The p-value (`None` when not computed).
    pub p: Option<f64>,
    /// Observations the test rests on.
    pub n: usize,
    /// What the figures show, in a sentence.
    pub note: String,
    /// A plain warning when the sample is small.
    pub warning: Option<String>,
}

impl Hypothesis {
    fn insufficient(test: &str, n: usize, note: String) -> Hypothesis {
        Hypothesis {
            verdict: Support::Insufficient,
            test: test.to_string(),
            statistic: None,
            p: None,
            n,
            note,
            warning: Some("Too few trials to test this hypothesis.".into()),
        }
    }
}

/// The four hypotheses.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Hypotheses {
    /// Matrix encoding beats the coordinate list.
    #[serde(rename = "H1")]
    pub h1: Hypothesis,
    /// Difficulty varies by shape.
    #[serde(rename = "H2")]
    pub h2: Hypothesis,
    /// Larger models do better.
    #[serde(rename = "H3")]
    pub h3: Hypothesis,
    /// Solve > recognize > generate.
    #[serde(rename = "H4")]
    pub h4: Hypothesis,
}

impl Hypotheses {
    /// `(key, hypothesis, statement)` for each, in order.
    pub fn all(&self) -> [(&'static str, &Hypothesis, &'static str); 4] {
        [
            (
                "H1",
                &self.h1,
                "Matrix encoding outperforms the coordinate list",
            ),
            ("H2", &self.h2, "Recognition and generation vary by shape"),
            ("H3", &self.h3, "Performance scales with model size"),
            ("H4", &self.h4, "Solving > recognition > generation"),
        ]
    }
}

/// Everything the dashboard and `shapemaze report` show.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Analysis {
    /// Trials analysed.
    pub trials: usize,
    /// Trials with an API error in some phase.
    pub api_errors: usize,
    /// The experiments' labels, in the order given.
    pub experiments: Vec<String>,
    /// The models seen, sorted.
    pub models: Vec<String>,
    /// H3's model order as used.
    pub model_order: Vec<String>,
    /// One row per experiment x model x encoding x shape.
    pub groups: Vec<GroupRow>,
    /// Pooled rows: overall, by model, by encoding, by shape, by model x encoding.
    pub pooled: Vec<GroupRow>,
    /// Detailed measures of every group and pooled row, in the same order (groups first).
    pub details: Vec<GroupDetail>,
    /// Confusion matrices: all, by encoding, by model.
    pub confusion: Vec<Confusion>,
    /// Matrix vs coordinate list per model and pooled, per phase.
    pub encoding_comparison: Vec<EncodingComparison>,
    /// Shape effects.
    pub shape_effects: ShapeEffects,
    /// Phase rates per model (the pooled by-model rows, for the progression chart).
    pub phase_progression: Vec<GroupRow>,
    /// Phi between phases per model and pooled.
    pub phase_correlations: Vec<PhaseCorrelation>,
    /// Trials with empty answers, by why they were empty: all trials, then per model.
    pub empty_answers: Vec<EmptyAnswers>,
    /// H1 to H4.
    pub hypotheses: Hypotheses,
}

/// How many trials of a scope had an empty answer, by why it was empty (a trial counts
/// once under each reason its replies show). Empty answers are the model's answers and
/// judged like any other; these counts set apart the ones the token limit ended, which
/// say more about the settings than about the model's reading of mazes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct EmptyAnswers {
    /// `all`, or the model (prefixed with its experiment when there are several).
    pub model: String,
    /// Trials in the scope.
    pub trials: usize,
    /// Trials with a reply whose token limit was spent on reasoning (`length_in_reasoning`).
    pub length_in_reasoning: usize,
    /// Trials with a reply that reached the token limit with no text at all (`length`).
    pub length: usize,
    /// Trials with a reply that ended without text (`no_text`).
    pub no_text: usize,
}

impl EmptyAnswers {
    fn of(model: &str, obs: &[&Observation]) -> EmptyAnswers {
        let with = |e: EmptyReason| obs.iter().filter(|o| o.empty.contains(&e)).count();
        EmptyAnswers {
            model: model.to_string(),
            trials: obs.len(),
            length_in_reasoning: with(EmptyReason::LengthInReasoning),
            length: with(EmptyReason::Length),
            no_text: with(EmptyReason::NoText),
        }
    }

    /// The count of trials with `reason`.
    pub fn count(&self, reason: EmptyReason) -> usize {
        match reason {
            EmptyReason::LengthInReasoning => self.length_in_reasoning,
            EmptyReason::Length => self.length,
            EmptyReason::NoText => self.no_text,
        }
    }

    /// Whether any trial of the scope had an empty answer.
    pub fn any(&self) -> bool {
        EmptyReason::ALL.iter().any(|&e| self.count(e) > 0)
    }
}

type Key = (String, String, String, String);

fn key(e: &str, m: &str, enc: &str, s: &str) -> Key {
    (e.to_string(), m.to_string(), enc.to_string(), s.to_string())
}

fn row_of(k: &Key, obs: &[&Observation]) -> GroupRow {
    let prop = |i: usize| {
        let scored: Vec<bool> = obs.iter().filter_map(|o| o.scored(i)).collect();
        wilson(scored.iter().filter(|&&x| x).count(), scored.len())
    };
    GroupRow {
        experiment: k.0.clone(),
        model: k.1.clone(),
        encoding: k.2.clone(),
        shape: k.3.clone(),
        trials: obs.len(),
        api_errors: obs.iter().filter(|o| o.api_error()).count(),
        solve: prop(0),
        recognize: prop(1),
        generate: prop(2),
    }
}

fn detail_of(k: &Key, obs: &[&Observation]) -> GroupDetail {
    let solved: Vec<&&Observation> = obs.iter().filter(|o| o.scored(0) == Some(true)).collect();
    let moves: Vec<f64> = solved
        .iter()
        .filter_map(|o| o.moves.map(|m| m as f64))
        .collect();
    let excess: Vec<f64> = solved
        .iter()
        .filter_map(|o| Some(o.moves? as f64 - o.shortest_path? as f64))
        .collect();
    let mut failures = Failures::default();
    for o in obs {
        match (o.outcomes[0], o.failure()) {
            (Some(Outcome::Error), _) => failures.api_error += 1,
            (Some(Outcome::Fail), Some(FailureKind::InvalidMove)) => {
                failures.invalid_move += 1;
                if let Some(r) = o.reasons[0] {
                    *failures
                        .invalid_by_reason
                        .entry(r.as_str().to_string())
                        .or_default() += 1;
                }
            }
            (Some(Outcome::Fail), Some(FailureKind::MoveLimit)) => failures.move_limit += 1,
            (Some(Outcome::Fail), Some(FailureKind::UnparseableReply)) => {
                failures.unparseable_reply += 1
            }
            (Some(Outcome::Fail), _) => failures.unknown += 1,
            _ => {}
        }
    }
    let (valid, attempts) = obs
        .iter()
        .filter(|o| o.outcomes[0] != Some(Outcome::Error))
        .filter_map(|o| Some((o.valid_moves?, o.moves?)))
        .fold((0, 0), |(v, m), (a, b)| (v + a, m + b));
    let checks: Vec<GenerationChecks> = obs.iter().filter_map(|o| o.checks).collect();
    let rate = |f: &dyn Fn(&GenerationChecks) -> bool| {
        wilson(checks.iter().filter(|c| f(c)).count(), checks.len())
    };
    GroupDetail {
        experiment: k.0.clone(),
        model: k.1.clone(),
        encoding: k.2.clone(),
        shape: k.3.clone(),
        detailed: obs.iter().filter(|o| o.moves.is_some()).count(),
        moves_per_success: Distribution::of(&moves),
        excess_moves: Distribution::of(&excess),
        failures,
        move_validity: wilson(valid, attempts),
        generation: GenerationRates {
            valid_encoding: rate(&|c| c.valid_encoding),
            shape_preserved: rate(&|c| c.same_shape && c.same_size),
            novel: rate(&|c| c.novel),
            path_valid: rate(&|c| c.path_exists),
            all_four: rate(&|c| {
                c.valid_encoding && c.same_shape && c.same_size && c.novel && c.path_exists
            }),
        },
    }
}

fn shape_rank(name: &str) -> usize {
    Shape::ALL
        .iter()
        .position(|s| s.name() == name)
        .unwrap_or(Shape::ALL.len())
}

fn encoding_rank(name: &str) -> usize {
    Encoding::ALL
        .iter()
        .position(|s| s.name() == name)
        .unwrap_or(Encoding::ALL.len())
}

/// Analyses `observations` (from one or several experiments).
pub fn analyze(observations: &[Observation], options: &AnalysisOptions) -> Analysis {
    let mut experiments: Vec<String> = Vec::new();
    for o in observations {
        if !experiments.contains(&o.experiment) {
            experiments.push(o.experiment.clone());
        }
    }
    let models: Vec<String> = observations
        .iter()
        .map(|o| o.model.clone())
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    let exp_rank = |e: &str| {
        experiments
            .iter()
            .position(|x| x == e)
            .unwrap_or(usize::MAX)
    };

    // Groups and pooled rows.
    let mut grouped: BTreeMap<Key, Vec<&Observation>> = BTreeMap::new();
    let mut pooled: BTreeMap<(usize, Key), Vec<&Observation>> = BTreeMap::new();
    for o in observations {
        let (e, m, enc, s) = (
            o.experiment.as_str(),
            o.model.as_str(),
            o.encoding.name(),
            o.shape.name(),
        );
        grouped.entry(key(e, m, enc, s)).or_default().push(o);
        for (order, k) in [
            (0, key(ALL, ALL, ALL, ALL)),
            (1, key(e, m, ALL, ALL)),
            (2, key(ALL, ALL, enc, ALL)),
            (3, key(ALL, ALL, ALL, s)),
            (4, key(e, m, enc, ALL)),
        ] {
            pooled.entry((order, k)).or_default().push(o);
        }
    }
    let sort_key = |k: &Key| {
        (
            exp_rank(&k.0),
            k.1.clone(),
            encoding_rank(&k.2),
            shape_rank(&k.3),
        )
    };
    let mut group_keys: Vec<&Key> = grouped.keys().collect();
    group_keys.sort_by_key(|k| sort_key(k));
    let mut pooled_keys: Vec<&(usize, Key)> = pooled.keys().collect();
    pooled_keys.sort_by_key(|(o, k)| (*o, sort_key(k)));
    let groups: Vec<GroupRow> = group_keys.iter().map(|k| row_of(k, &grouped[*k])).collect();
    let pooled_rows: Vec<GroupRow> = pooled_keys
        .iter()
        .map(|k| row_of(&k.1, &pooled[*k]))
        .collect();
    let details: Vec<GroupDetail> = group_keys
        .iter()
        .map(|k| detail_of(k, &grouped[*k]))
        .chain(pooled_keys.iter().map(|k| detail_of(&k.1, &pooled[*k])))
        .collect();
    let phase_progression: Vec<GroupRow> = pooled_keys
        .iter()
        .zip(&pooled_rows)
        .filter(|(k, _)| k.0 == 1)
        .map(|(_, r)| r.clone())
        .collect();

    let all: Vec<&Observation> = observations.iter().collect();
    let model_label = |o: &Observation| -> String {
        if experiments.len() > 1 {
            format!("{}: {}", o.experiment, o.model)
        } else {
            o.model.clone()
        }
    };
    let mut by_model: BTreeMap<String, Vec<&Observation>> = BTreeMap::new();
    for o in observations {
        by_model.entry(model_label(o)).or_default().push(o);
    }
    let scopes: Vec<(String, Vec<&Observation>)> = std::iter::once((ALL.to_string(), all.clone()))
        .chain(by_model.iter().map(|(m, v)| (m.clone(), v.clone())))
        .collect();

    let confusion = confusions(observations, &by_model);
    let encoding_comparison: Vec<EncodingComparison> = scopes
        .iter()
        .flat_map(|(m, obs)| (0..3).filter_map(move |i| compare_encodings(m, obs, i)))
        .collect();
    let phase_correlations = scopes
        .iter()
        .flat_map(|(m, obs)| {
            [(0, 1), (1, 2), (0, 2)].map(|(a, b)| {
                let counts = paired(obs, a, b);
                PhaseCorrelation {
                    model: m.clone(),
                    first: PHASE_NAMES[a].into(),
                    second: PHASE_NAMES[b].into(),
                    counts,
                    phi: phi(counts),
                }
            })
        })
        .collect();
    let empty_answers = scopes
        .iter()
        .map(|(m, obs)| EmptyAnswers::of(m, obs))
        .collect();
    let shape_effects = shape_effects(observations);
    let hypotheses = Hypotheses {
        h1: h1(&encoding_comparison),
        h2: h2(observations),
        h3: h3(observations, &options.model_order),
        h4: h4(observations),
    };
    Analysis {
        trials: observations.len(),
        api_errors: observations.iter().filter(|o| o.api_error()).count(),
        experiments,
        models,
        model_order: options.model_order.clone(),
        groups,
        pooled: pooled_rows,
        details,
        confusion,
        encoding_comparison,
        shape_effects,
        phase_progression,
        phase_correlations,
        empty_answers,
        hypotheses,
    }
}

fn confusions(
    observations: &[Observation],
    by_model: &BTreeMap<String, Vec<&Observation>>,
) -> Vec<Confusion> {
    let cols: Vec<String> = Shape::ALL
        .iter()
        .map(|s| s.name().to_string())
        .chain(std::iter::once(NONE.to_string()))
        .collect();
    let build = |scope: String, obs: &mut dyn Iterator<Item = &Observation>| {
        let mut counts = vec![vec![0; cols.len()]; Shape::ALL.len()];
        let mut any = false;
        for o in obs {
            if let Some(pred) = o.predicted {
                let r = shape_rank(o.shape.name());
                let c = pred.map_or(Shape::ALL.len(), |p| shape_rank(p.name()));
                if let Some(cell) = counts.get_mut(r).and_then(|row| row.get_mut(c)) {
                    *cell += 1;
                    any = true;
                }
            }
        }
        any.then(|| Confusion {
            scope,
            rows: Shape::ALL.iter().map(|s| s.name().to_string()).collect(),
            cols: cols.clone(),
            counts,
        })
    };
    let mut out = Vec::new();
    out.extend(build(ALL.into(), &mut observations.iter()));
    for e in Encoding::ALL {
        out.extend(build(
            e.name().into(),
            &mut observations.iter().filter(|o| o.encoding == e),
        ));
    }
    for (m, obs) in by_model {
        out.extend(build(format!("model {m}"), &mut obs.iter().copied()));
    }
    out
}

fn compare_encodings(
    model: &str,
    obs: &[&Observation],
    phase: usize,
) -> Option<EncodingComparison> {
    type MazeKey = (String, String, usize, u64, Shape, usize, usize);
    let mut by_maze: BTreeMap<MazeKey, [Option<bool>; 2]> = BTreeMap::new();
    for o in obs {
        let slot = usize::from(o.encoding != Encoding::Matrix);
        by_maze.entry(o.maze_key()).or_default()[slot] = o.scored(phase);
    }
    let mut counts = PairedCounts::default();
    for pair in by_maze.values() {
        if let [Some(m), Some(c)] = pair {
            counts.add(*m, *c);
        }
    }
    if counts.n() == 0 {
        return None;
    }
    Some(EncodingComparison {
        model: model.to_string(),
        phase: PHASE_NAMES[phase].into(),
        matrix: wilson(counts.both + counts.only_a, counts.n()),
        coord_list: wilson(counts.both + counts.only_b, counts.n()),
        test: mcnemar(counts),
    })
}

fn paired(obs: &[&Observation], a: usize, b: usize) -> PairedCounts {
    let mut counts = PairedCounts::default();
    for o in obs {
        if let (Some(x), Some(y)) = (o.scored(a), o.scored(b)) {
            counts.add(x, y);
        }
    }
    counts
}

fn shape_table(observations: &[Observation], phase: usize) -> Vec<(Shape, usize, usize)> {
    Shape::ALL
        .iter()
        .filter_map(|&s| {
            let scored: Vec<bool> = observations
                .iter()
                .filter(|o| o.shape == s)
                .filter_map(|o| o.scored(phase))
                .collect();
            (!scored.is_empty()).then(|| (s, scored.iter().filter(|&&x| x).count(), scored.len()))
        })
        .collect()
}

fn shape_effects(observations: &[Observation]) -> ShapeEffects {
    type MazeKey = (String, String, Encoding, usize, u64, usize);
    let mut phases = Vec::new();
    // Per maze (per model and encoding): the phase's success rate, and the overall score.
    let mut overall: BTreeMap<Shape, BTreeMap<MazeKey, Vec<f64>>> = BTreeMap::new();
    for o in observations {
        let scores: Vec<f64> = (0..3)
            .filter_map(|i| o.scored(i).map(|x| f64::from(u8::from(x))))
            .collect();
        if let Some(m) = mean(&scores) {
            overall
                .entry(o.shape)
                .or_default()
                .entry((
                    o.experiment.clone(),
                    o.model.clone(),
                    o.encoding,
                    o.size,
                    o.seed,
                    o.sample,
                ))
                .or_default()
                .push(m);
        }
    }
    let maze_means = |m: &BTreeMap<Shape, BTreeMap<MazeKey, Vec<f64>>>| -> (Vec<Vec<f64>>, usize) {
        let groups: Vec<Vec<f64>> = m
            .values()
            .map(|mazes| mazes.values().filter_map(|v| mean(v)).collect())
            .collect();
        let n = groups.iter().map(Vec::len).sum();
        (groups, n)
    };
    for (i, name) in PHASE_NAMES.iter().enumerate() {
        let table = shape_table(observations, i);
        let mut per_maze: BTreeMap<Shape, BTreeMap<MazeKey, Vec<f64>>> = BTreeMap::new();
        for o in observations {
            if let Some(x) = o.scored(i) {
                per_maze
                    .entry(o.shape)
                    .or_default()
                    .entry((
                        o.experiment.clone(),
                        o.model.clone(),
                        o.encoding,
                        o.size,
                        o.seed,
                        o.sample,
                    ))
                    .or_default()
                    .push(f64::from(u8::from(x)));
            }
        }
        let (groups, mazes) = maze_means(&per_maze);
        phases.push(ShapePhase {
            phase: name.to_string(),
            rates: table
                .iter()
                .map(|&(s, k, n)| (s.name().to_string(), wilson(k, n)))
                .collect(),
            chi_square: chi_square_independence(
                &table
                    .iter()
                    .map(|&(_, k, n)| vec![k, n - k])
                    .collect::<Vec<_>>(),
            ),
            anova: one_way_anova(&groups),
            mazes,
        });
    }
    let (groups, mazes) = maze_means(&overall);
    phases.push(ShapePhase {
        phase: "overall".into(),
        rates: Vec::new(),
        chi_square: None,
        anova: one_way_anova(&groups),
        mazes,
    });

    // Observed ranking: the mean of the three phase rates, easiest first.
    let mut scored: Vec<(Shape, f64)> = Shape::ALL
        .iter()
        .filter_map(|&s| {
            let rates: Vec<f64> = phases[..3]
                .iter()
                .filter_map(|p| {
                    p.rates
                        .iter()
                        .find(|(n, _)| n == s.name())
                        .map(|r| r.1.rate)
                })
                .collect();
            mean(&rates).map(|m| (s, m))
        })
        .collect();
    scored.sort_by(|a, b| b.1.total_cmp(&a.1));
    let neg: Vec<f64> = scored.iter().map(|s| -s.1).collect();
    let observed = super::stats::ranks(&neg);
    let predicted_rank = |s: Shape| {
        PREDICTED_DIFFICULTY
            .iter()
            .position(|p| *p == s)
            .map_or(0, |i| i + 1)
    };
    let ranking: Vec<ShapeRank> = scored
        .iter()
        .zip(&observed)
        .map(|(&(s, score), &obs)| ShapeRank {
            shape: s.name().to_string(),
            score,
            observed: obs,
            predicted: predicted_rank(s),
        })
        .collect();
    let spearman = spearman(
        &ranking
            .iter()
            .map(|r| r.predicted as f64)
            .collect::<Vec<_>>(),
        &ranking.iter().map(|r| r.observed).collect::<Vec<_>>(),
    );
    ShapeEffects {
        phases,
        ranking,
        spearman,
    }
}

fn small_warning(n: usize, what: &str) -> Option<String> {
    (n < SMALL_SAMPLE).then(|| {
        format!("Small sample: only {n} {what} (fewer than {SMALL_SAMPLE}); treat the verdict as exploratory.")
    })
}

/// A p-value for people: `= 0.034`, or `< 0.001`.
pub fn fmt_p(p: f64) -> String {
    if p < 0.001 {
        "< 0.001".to_string()
    } else {
        format!("= {p:.3}")
    }
}

fn pct(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

fn h1(comparisons: &[EncodingComparison]) -> Hypothesis {
    const TEST: &str = "McNemar's test on solve success, matrix vs coordinate list paired by maze";
    let Some(c) = comparisons
        .iter()
        .find(|c| c.model == ALL && c.phase == PHASE_NAMES[0])
    else {
        return Hypothesis::insufficient(
            TEST,
            0,
            "No maze was played in both encodings, so there are no pairs to compare.".into(),
        );
    };
    let n = c.matrix.n;
    let Some(t) = c.test.filter(|_| n >= MIN_PAIRS) else {
        return Hypothesis::insufficient(
            TEST,
            n,
            format!("Only {n} mazes were played in both encodings (at least {MIN_PAIRS} needed)."),
        );
    };
    let verdict = if t.difference > 0.0 && t.p < ALPHA {
        Support::Supported
    } else {
        Support::NotSupported
    };
    let discordant = t.counts.only_a + t.counts.only_b;
    Hypothesis {
        verdict,
        test: format!(
            "{TEST} ({})",
            if t.exact { "exact binomial" } else { "chi-square with continuity correction" }
        ),
        statistic: Some(t.statistic),
        p: Some(t.p),
        n,
        note: format!(
            "Matrix {} vs coordinate list {} over {n} pairs; difference {:+.1} points (95% CI {:+.1} to {:+.1}); {discordant} discordant pairs.",
            pct(c.matrix.rate),
            pct(c.coord_list.rate),
            100.0 * t.difference,
            100.0 * t.ci_low,
            100.0 * t.ci_high
        ),
        warning: small_warning(n, "pairs").or_else(|| {
            (discordant < MIN_PAIRS).then(|| {
                format!("Only {discordant} pairs differ between the encodings: the test has little power.")
            })
        }),
    }
}

fn h2(observations: &[Observation]) -> Hypothesis {
    const TEST: &str = "chi-square tests of independence, recognition and generation success x shape (Bonferroni over the two)";
    let mut results = Vec::new();
    let mut n_total = 0;
    for (i, name) in [(1, "recognition"), (2, "generation")] {
        let table = shape_table(observations, i);
        let n: usize = table.iter().map(|t| t.2).sum();
        n_total = n_total.max(n);
        let enough = table.iter().filter(|t| t.2 >= MIN_PER_SHAPE).count() >= 2;
        if !enough {
            continue;
        }
        let counts: Vec<Vec<usize>> = table.iter().map(|&(_, k, n)| vec![k, n - k]).collect();
        let rates = table
            .iter()
            .map(|&(s, k, n)| format!("{s} {}", pct(k as f64 / n as f64)))
            .collect::<Vec<_>>()
            .join(", ");
        results.push((name, chi_square_independence(&counts), n, rates));
    }
    if results.is_empty() {
        return Hypothesis::insufficient(
            TEST,
            n_total,
            format!("Fewer than two shapes have {MIN_PER_SHAPE} scored recognition or generation trials."),
        );
    }
    let tests = results.len();
    // A phase where every trial had the same outcome shows no variation: chi-square 0, p 1.
    let best = results
        .iter()
        .map(|(name, c, n, rates)| {
            let (x, p, df, low) = c.map_or((0.0, 1.0, 0, f64::INFINITY), |c| {
                (c.statistic, c.p, c.df, c.min_expected)
            });
            (
                *name,
                x,
                (p * tests as f64).min(1.0),
                df,
                low,
                *n,
                rates.clone(),
            )
        })
        .min_by(|a, b| a.2.total_cmp(&b.2));
    let Some((name, x, p, df, low, n, _)) = best else {
        return Hypothesis::insufficient(TEST, n_total, "No test could be run.".into());
    };
    let note = results
        .iter()
        .map(|(name, c, _, rates)| {
            let figures = c.map_or("no variation in outcome".to_string(), |c| {
                format!("chi2({}) = {:.2}, p {}", c.df, c.statistic, fmt_p(c.p))
            });
            format!("{name}: {rates} ({figures})")
        })
        .collect::<Vec<_>>()
        .join("; ");
    Hypothesis {
        verdict: if p < ALPHA {
            Support::Supported
        } else {
            Support::NotSupported
        },
        test: format!("{TEST}; the statistic is {name}'s (df {df}), p Bonferroni-adjusted"),
        statistic: Some(x),
        p: Some(p),
        n,
        note,
        warning: small_warning(n, "scored trials").or_else(|| {
            (low < 5.0).then(|| {
                format!("Some expected counts are below 5 (smallest {low:.1}): the chi-square approximation is rough.")
            })
        }),
    }
}

fn h3(observations: &[Observation], order: &[String]) -> Hypothesis {
    const TEST: &str =
        "Cochran-Armitage trend test on solve success across the models in the given order";
    let mut levels: Vec<(String, usize, usize)> = Vec::new();
    for name in order {
        let needle = name.to_ascii_lowercase();
        let scored: Vec<bool> = observations
            .iter()
            .filter(|o| o.model.to_ascii_lowercase().contains(&needle))
            // A model matched by an earlier name belongs to that one.
            .filter(|o| {
                !order.iter().take_while(|n| *n != name).any(|n| {
                    o.model
                        .to_ascii_lowercase()
                        .contains(&n.to_ascii_lowercase())
                })
            })
            .filter_map(|o| o.scored(0))
            .collect();
        if scored.len() >= MIN_PER_MODEL {
            levels.push((
                name.clone(),
                scored.iter().filter(|&&x| x).count(),
                scored.len(),
            ));
        }
    }
    let n: usize = levels.iter().map(|l| l.2).sum();
    if levels.len() < 2 {
        return Hypothesis::insufficient(
            TEST,
            n,
            format!(
                "Fewer than two of the models {} have {MIN_PER_MODEL} scored solve trials.",
                order.join(" < ")
            ),
        );
    }
    let rates = levels
        .iter()
        .map(|(m, k, n)| format!("{m} {}", pct(*k as f64 / *n as f64)))
        .collect::<Vec<_>>()
        .join(" < ");
    let monotone = levels
        .windows(2)
        .all(|w| w[0].1 as f64 / w[0].2 as f64 <= w[1].1 as f64 / w[1].2 as f64);
    let trend = cochran_armitage(&levels.iter().map(|l| (l.1, l.2)).collect::<Vec<_>>());
    let (z, p) = trend.map_or((0.0, 1.0), |t| (t.z, t.p));
    Hypothesis {
        verdict: if z > 0.0 && p < ALPHA {
            Support::Supported
        } else {
            Support::NotSupported
        },
        test: TEST.into(),
        statistic: Some(z),
        p: Some(p),
        n,
        note: format!(
            "Solve success in order: {rates}{}{}.",
            if monotone {
                " (rising at every step)"
            } else {
                " (not rising at every step)"
            },
            if trend.is_none() {
                "; every trial had the same outcome"
            } else {
                ""
            }
        ),
        warning: small_warning(n, "scored solve trials"),
    }
}

fn h4(observations: &[Observation]) -> Hypothesis {
    const TEST: &str = "pairwise McNemar, solve vs recognize and recognize vs generate within trials (both must hold); statistic: Cochran's Q over the three phases";
    let rows: Vec<Vec<bool>> = observations
        .iter()
        .filter_map(|o| Some(vec![o.scored(0)?, o.scored(1)?, o.scored(2)?]))
        .collect();
    let n = rows.len();
    if n < MIN_PAIRS {
        return Hypothesis::insufficient(
            TEST,
            n,
            format!("Only {n} trials have all three phases scored (at least {MIN_PAIRS} needed)."),
        );
    }
    let pair = |a: usize, b: usize| {
        let mut c = PairedCounts::default();
        for r in &rows {
            c.add(r[a], r[b]);
        }
        c
    };
    let (sr, rg) = (mcnemar(pair(0, 1)), mcnemar(pair(1, 2)));
    let rate = |i: usize| rows.iter().filter(|r| r[i]).count() as f64 / n as f64;
    let holds = |t: &Option<McNemar>| t.is_some_and(|t| t.difference > 0.0 && t.p < ALPHA);
    let p = [sr, rg]
        .iter()
        .map(|t| t.map_or(1.0, |t| t.p))
        .fold(0.0, f64::max);
    let q = cochran_q(&rows);
    Hypothesis {
        verdict: if holds(&sr) && holds(&rg) {
            Support::Supported
        } else {
            Support::NotSupported
        },
        test: TEST.into(),
        statistic: Some(q.map_or(0.0, |q| q.q)),
        p: Some(p),
        n,
        note: format!(
            "Solve {}, recognize {}, generate {} on {n} trials; solve vs recognize p {}, recognize vs generate p {}{}.",
            pct(rate(0)),
            pct(rate(1)),
            pct(rate(2)),
            fmt_p(sr.map_or(1.0, |t| t.p)),
            fmt_p(rg.map_or(1.0, |t| t.p)),
            q.map_or(String::new(), |q| format!("; Cochran's Q({}) = {:.2}, p {}", q.df, q.q, fmt_p(q.p)))
        ),
        warning: small_warning(n, "fully scored trials"),
    }
}

/// CSV header of [`groups_csv`].
pub const GROUPS_CSV_HEADER: &str = "experiment,model,encoding,shape,trials,api_errors,solve_successes,solve_n,solve_rate,solve_ci_low,solve_ci_high,recognize_successes,recognize_n,recognize_rate,recognize_ci_low,recognize_ci_high,generate_successes,generate_n,generate_rate,generate_ci_low,generate_ci_high";

/// The group rows (one per experiment x model x encoding x shape, then the pooled ones) as
/// CSV with a header.
pub fn groups_csv(rows: &[GroupRow]) -> String {
    let mut out = String::from(GROUPS_CSV_HEADER);
    out.push('\n');
    for r in rows {
        let mut line = [&r.experiment, &r.model, &r.encoding, &r.shape]
            .map(|s| csv_field(s))
            .join(",");
        let _ = write!(line, ",{},{}", r.trials, r.api_errors);
        for p in r.phases() {
            let _ = write!(
                line,
                ",{},{},{:.6},{:.6},{:.6}",
                p.successes, p.n, p.rate, p.ci_low, p.ci_high
            );
        }
        out.push_str(&line);
        out.push('\n');
    }
    out
}

/// CSV header of [`observations_csv`].
pub const OBSERVATIONS_CSV_HEADER: &str = "experiment,model,encoding,shape,size,seed,sample,repeat,solve,recognize,generate,solve_reason,moves,valid_moves,shortest_path,failure,predicted_shape";

/// The observations as CSV, one row per trial (the data inside the report file).
pub fn observations_csv(observations: &[Observation]) -> String {
    let mut out = String::from(OBSERVATIONS_CSV_HEADER);
    out.push('\n');
    let opt = |x: Option<usize>| x.map_or(String::new(), |x| x.to_string());
    for o in observations {
        let outcomes = o.outcomes.map(|x| x.map_or("", Outcome::name));
        let _ = writeln!(
            out,
            "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}",
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
            }
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An observation with the given phase outcomes (true = success).
    fn obs(
        model: &str,
        encoding: Encoding,
        shape: Shape,
        sample: usize,
        ok: [bool; 3],
    ) -> Observation {
        Observation {
            experiment: "exp".into(),
            model: model.into(),
            encoding,
            shape,
            size: 5,
            seed: 0,
            sample,
            repeat: 0,
            outcomes: ok.map(|x| Some(if x { Outcome::Success } else { Outcome::Fail })),
            reasons: [
                Some(if ok[0] {
                    Reason::ReachedGoal
                } else {
                    Reason::Wall
                }),
                None,
                None,
            ],
            moves: Some(6),
            valid_moves: Some(if ok[0] { 6 } else { 5 }),
            shortest_path: Some(4),
            predicted: Some(ok[1].then_some(shape)),
            checks: None,
            empty: Vec::new(),
        }
    }

    #[test]
    fn api_errors_are_left_out_of_the_rates_and_counted_apart() {
        let mut a = obs("m", Encoding::Matrix, Shape::Square, 0, [true, true, true]);
        let mut b = a.clone();
        b.outcomes = [Some(Outcome::Error), None, None];
        a.sample = 1;
        let an = analyze(&[a, b], &AnalysisOptions::default());
        let g = &an.groups[0];
        assert_eq!(g.trials, 2, "both trials are in the group");
        assert_eq!(g.api_errors, 1, "the API error is counted apart");
        assert_eq!(
            (g.solve.successes, g.solve.n),
            (1, 1),
            "and left out of the rate"
        );
        let d = &an.details[0];
        assert_eq!(d.failures.api_error, 1, "reported as an API error");
        assert_eq!(d.failures.invalid_move, 0, "not a model failure");
    }

    #[test]
    fn empty_answers_are_judged_and_counted_apart_by_model_and_why() {
        let mut a = obs("m1", Encoding::Matrix, Shape::Square, 0, [false; 3]);
        a.empty = vec![
            EmptyReason::LengthInReasoning,
            EmptyReason::LengthInReasoning,
            EmptyReason::NoText,
        ];
        let b = obs("m1", Encoding::Matrix, Shape::Square, 1, [true; 3]);
        let mut c = obs("m2", Encoding::Matrix, Shape::Square, 0, [false; 3]);
        c.empty = vec![EmptyReason::Length];
        let an = analyze(&[a, b, c], &AnalysisOptions::default());
        let row = |m: &str| {
            an.empty_answers
                .iter()
                .find(|e| e.model == m)
                .cloned()
                .expect("a row")
        };
        let counts = |e: EmptyAnswers| {
            (
                e.trials,
                e.length_in_reasoning,
                e.length,
                e.no_text,
                e.any(),
            )
        };
        assert_eq!(an.empty_answers[0].model, ALL, "all trials first");
        assert_eq!(counts(row(ALL)), (3, 1, 1, 1, true), "a trial counts once");
        assert_eq!(counts(row("m1")), (2, 1, 0, 1, true));
        assert_eq!(counts(row("m2")), (1, 0, 1, 0, true));
        assert_eq!(an.api_errors, 0);
        assert_eq!(an.pooled[0].solve.n, 3, "empty answers are judged");
        let none = analyze(
            &[obs("m", Encoding::Matrix, Shape::Square, 0, [true; 3])],
            &AnalysisOptions::default(),
        );
        assert!(!none.empty_answers[0].any());
    }

    #[test]
    fn groups_are_model_by_encoding_by_shape_with_wilson_intervals() {
        let mut v = Vec::new();
        for i in 0..20 {
            v.push(obs(
                "m",
                Encoding::Matrix,
                Shape::Cross,
                i,
                [i < 7, true, false],
            ));
        }
        let an = analyze(&v, &AnalysisOptions::default());
        assert_eq!(an.groups.len(), 1, "one group");
        let g = &an.groups[0];
        assert_eq!(
            (g.model.as_str(), g.encoding.as_str(), g.shape.as_str()),
            ("m", "matrix", "cross"),
            "the group's keys"
        );
        // 7/20: SciPy's Wilson interval (0.1811918241010821, 0.5671457233147637).
        assert!((g.solve.ci_low - 0.18119).abs() < 1e-4, "{:?}", g.solve);
        assert_eq!(
            an.pooled[0].shape, ALL,
            "the first pooled row is everything"
        );
        let d = &an.details[0];
        assert_eq!(
            d.failures.invalid_by_reason.get("wall"),
            Some(&13),
            "13 wall hits"
        );
        assert_eq!(d.moves_per_success.mean, Some(6.0), "six moves per solve");
        assert_eq!(
            d.excess_moves.mean,
            Some(2.0),
            "two beyond the shortest path"
        );
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
            c.counts[z][Shape::ALL.len()],
            1,
            "one Z with no shape named"
        );
        assert_eq!(
            c.cols.last().map(String::as_str),
            Some(NONE),
            "none is the last column"
        );
    }

    #[test]
    fn h1_is_supported_when_the_matrix_wins_paired_mazes() {
        let mut v = Vec::new();
        for i in 0..40 {
            v.push(obs(
                "m",
                Encoding::Matrix,
                Shape::Square,
                i,
                [i < 35, true, true],
            ));
            v.push(obs(
                "m",
                Encoding::CoordList,
                Shape::Square,
                i,
                [i < 10, true, true],
            ));
        }
        let an = analyze(&v, &AnalysisOptions::default());
        let h = &an.hypotheses.h1;
        assert_eq!(h.verdict, Support::Supported, "{h:?}");
        assert_eq!(h.n, 40, "40 pairs");
        // 25 discordant pairs all favour the matrix: chi-square (25-1)^2/25 = 23.04.
        assert!((h.statistic.unwrap_or(0.0) - 23.04).abs() < 1e-9, "{h:?}");
    }

    #[test]
    fn hypotheses_with_too_little_data_are_insufficient_with_a_warning() {
        let v = vec![obs(
            "m",
            Encoding::Matrix,
            Shape::Square,
            0,
            [true, true, true],
        )];
        let an = analyze(&v, &AnalysisOptions::default());
        for (k, h, _) in an.hypotheses.all() {
            assert_eq!(h.verdict, Support::Insufficient, "{k}: {h:?}");
            assert!(h.warning.is_some(), "{k} warns");
            assert!(h.p.is_none(), "{k} has no p");
        }
    }

    #[test]
    fn an_empty_analysis_has_no_rows_and_no_verdicts() {
        let an = analyze(&[], &AnalysisOptions::default());
        assert_eq!((an.trials, an.groups.len()), (0, 0), "nothing to show");
        assert_eq!(an.hypotheses.h4.verdict, Support::Insufficient, "H4");
        let json = serde_json::to_value(&an).expect("serializes");
        assert!(
            json["hypotheses"]["H1"]["verdict"] == "insufficient",
            "{json}"
        );
    }

    #[test]
    fn h2_sees_recognition_vary_by_shape() {
        let mut v = Vec::new();
        for (k, s) in Shape::ALL.iter().enumerate() {
            for i in 0..30 {
                v.push(obs(
                    "m",
                    Encoding::Matrix,
                    *s,
                    i,
                    [true, i < 5 * k, i % 2 == 0],
                ));
            }
        }
        let an = analyze(&v, &AnalysisOptions::default());
        assert_eq!(
            an.hypotheses.h2.verdict,
            Support::Supported,
            "{:?}",
            an.hypotheses.h2
        );
        let rec = &an.shape_effects.phases[1];
        assert!(rec.anova.is_some(), "the per-maze ANOVA runs");
        assert_eq!(an.shape_effects.ranking.len(), 6, "six shapes ranked");
    }

    #[test]
    fn h3_follows_the_given_model_order_by_substring() {
        let mut v = Vec::new();
        for (k, m) in ["Qwen-Turbo-2025", "qwen-plus", "qwen-max-latest"]
            .iter()
            .enumerate()
        {
            for i in 0..40 {
                v.push(obs(
                    m,
                    Encoding::Matrix,
                    Shape::Square,
                    i,
                    [i < 10 + 12 * k, true, true],
                ));
            }
        }
        let an = analyze(&v, &AnalysisOptions::default());
        assert_eq!(
            an.hypotheses.h3.verdict,
            Support::Supported,
            "{:?}",
            an.hypotheses.h3
        );
        let reversed = AnalysisOptions {
            model_order: vec!["max".into(), "plus".into(), "turbo".into()],
        };
        let an = analyze(&v, &reversed);
        assert_eq!(
            an.hypotheses.h3.verdict,
            Support::NotSupported,
            "reversed order"
        );
        assert!(
            an.hypotheses.h3.statistic.unwrap_or(0.0) < 0.0,
            "a falling trend"
        );
    }

    #[test]
    fn h4_needs_both_steps_down() {
        let mut v = Vec::new();
        for i in 0..60 {
            v.push(obs(
                "m",
                Encoding::Matrix,
                Shape::Square,
                i,
                [i < 55, i < 35, i < 10],
            ));
        }
        let an = analyze(&v, &AnalysisOptions::default());
        assert_eq!(
            an.hypotheses.h4.verdict,
            Support::Supported,
            "{:?}",
            an.hypotheses.h4
        );
        let mut flat = Vec::new();
        for i in 0..60 {
            flat.push(obs(
                "m",
                Encoding::Matrix,
                Shape::Square,
                i,
                [i < 30, i < 30, i < 10],
            ));
        }
        let an = analyze(&flat, &AnalysisOptions::default());
        assert_eq!(
            an.hypotheses.h4.verdict,
            Support::NotSupported,
            "solve = recognize"
        );
    }

    #[test]
    fn csv_fields_are_quoted_and_formulas_defused() {
        assert_eq!(csv_field("a,b"), "\"a,b\"", "comma");
        assert_eq!(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"", "quotes");
        assert_eq!(csv_field("=cmd()"), "'=cmd()", "formula");
        let rows = analyze(
            &[obs(
                "m,1",
                Encoding::Matrix,
                Shape::C,
                0,
                [true, true, true],
            )],
            &AnalysisOptions::default(),
        )
        .groups;
        let csv = groups_csv(&rows);
        assert!(csv.starts_with(GROUPS_CSV_HEADER), "header first");
        assert!(csv.contains("\"m,1\",matrix,C,1,0,1,1,1.000000"), "{csv}");
    }
}
