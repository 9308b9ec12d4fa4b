//! The measures per group (experiment x model x encoding x shape): rates with their
//! intervals, move distributions, failure reasons, generation checks, the confusion matrix
//! of shapes named, empty answers; and the groups' CSV.

use crate::analysis::observation::{rate_by_maze, share_by_maze, MazeId, Observation, ALL, NONE};
use crate::analysis::stats::{chi_square_independence, clustered, mean, median, Proportion, Tally};
use crate::analysis::trace::{Place, SolveTrace};
use crate::json::is_zero;
use crate::maze::encoding::Encoding;
use crate::maze::shape::{Shape, ShapeSet};
use crate::model::reply::EmptyReason;
use crate::play::phase::Phase;
use crate::play::trial::FailureKind;
use crate::results::record::Tokens;
use crate::verify::{GenerationChecks, Outcome};
use serde::Serialize;
use std::collections::BTreeMap;

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
    /// Each phase's rate if every unsure reading were wrong and if every one were right
    /// (JSON: `solve_unsure`, `solve_if_unsure_wrong`, `solve_if_unsure_right`, and the
    /// same for `recognize` and `generate`).
    #[serde(flatten)]
    pub bounds: PhaseBounds,
}

/// One phase's reading bounds: how many of its scored phases rest on an unsure reading,
/// and its success rate if every unsure reading were a wrong answer and if every one were a
/// right answer ([`crate::results::bounds`] says what each does to an outcome). With no
/// unsure reading both equal the rate.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ReadingBounds {
    /// Scored phases whose outcome rests on an unsure reading.
    pub unsure: usize,
    /// The rate with each of them a failure (0 when nothing is scored).
    pub if_unsure_wrong: f64,
    /// The rate with each of them a success where a right answer could have passed.
    pub if_unsure_right: f64,
}

impl ReadingBounds {
    /// The bounds of `phase` over `obs`.
    pub fn of<'a>(obs: impl IntoIterator<Item = &'a Observation>, phase: Phase) -> Self {
        let (mut n, mut unsure, mut low, mut high) = (0, 0, 0, 0);
        for o in obs {
            let doubt = o.doubts[phase.index()];
            if let Some([wrong, right]) = doubt.bounds(o.scored(phase)) {
                n += 1;
                unsure += usize::from(doubt.unsure);
                low += usize::from(wrong);
                high += usize::from(right);
            }
        }
        let share = |k: usize| if n == 0 { 0.0 } else { k as f64 / n as f64 };
        ReadingBounds {
            unsure,
            if_unsure_wrong: share(low),
            if_unsure_right: share(high),
        }
    }
}

/// The three phases' reading bounds (solve, recognize, generate), written into their row
/// as `{phase}_unsure`, `{phase}_if_unsure_wrong` and `{phase}_if_unsure_right`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PhaseBounds(pub [ReadingBounds; 3]);

impl PhaseBounds {
    /// The bounds of each phase over `obs`.
    pub fn of(obs: &[&Observation]) -> Self {
        PhaseBounds(
            [Phase::Solve, Phase::Recognize, Phase::Generate]
                .map(|p| ReadingBounds::of(obs.iter().copied(), p)),
        )
    }
}

impl Serialize for PhaseBounds {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(Some(9))?;
        for (phase, b) in crate::analysis::observation::PHASE_NAMES
            .iter()
            .zip(&self.0)
        {
            map.serialize_entry(&format!("{phase}_unsure"), &b.unsure)?;
            map.serialize_entry(&format!("{phase}_if_unsure_wrong"), &b.if_unsure_wrong)?;
            map.serialize_entry(&format!("{phase}_if_unsure_right"), &b.if_unsure_right)?;
        }
        map.end()
    }
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
    /// Moves onto a cell already stood on, per solve whose path is known.
    pub revisits: Distribution,
    /// Solves that looped (a cell stood on
    /// [`LOOP_VISITS`](crate::analysis::trace::LOOP_VISITS) times or more), of the solves
    /// whose path is known.
    pub looping: Proportion,
    /// Where the first error of each solve was made.
    pub first_errors: FirstErrors,
    /// The tokens the trials used, when their endpoints reported them.
    pub tokens: TokenUse,
    /// Trials whose calls were retried after an API error, beside the others.
    pub retries: RetryUse,
    /// Invalid moves the lenient protocol forgave, over the group's records (left out
    /// when none did).
    #[serde(skip_serializing_if = "is_zero")]
    pub retried_moves: usize,
    /// The generation checks.
    pub generation: GenerationRates,
}

/// The tokens a group's trials used, over the trials whose endpoint reported usage (per
/// solved trial: every such trial's tokens over the solves among them, what a solve costs).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct TokenUse {
    /// Trials whose replies reported usage.
    pub trials: usize,
    /// Calls among them that reported usage.
    pub calls: usize,
    /// Prompt tokens.
    pub prompt: u64,
    /// Completion tokens (reasoning included).
    pub completion: u64,
    /// Of the completion tokens, those spent on reasoning (when the endpoints said).
    pub reasoning: u64,
    /// Prompt and completion tokens per trial.
    pub per_trial: Option<f64>,
    /// Prompt and completion tokens per solved trial (`None` when none was solved).
    pub per_solve: Option<f64>,
    /// Trials with a reply cut off by the token limit.
    pub cut_off_trials: usize,
    /// Dollars the priced trials cost (at the prices their records carry; `None` when no
    /// trial had a price).
    pub cost: Option<f64>,
    /// Dollars per priced trial.
    pub cost_per_trial: Option<f64>,
    /// Dollars per solved trial: the priced trials' cost over the solves among them.
    pub cost_per_solve: Option<f64>,
}

impl TokenUse {
    fn of(obs: &[&Observation]) -> TokenUse {
        let used: Vec<(&Observation, Tokens)> =
            obs.iter().filter_map(|o| Some((*o, o.tokens?))).collect();
        let total: u64 = used.iter().map(|(_, t)| t.total()).sum();
        let solved = used
            .iter()
            .filter(|(o, _)| o.scored(Phase::Solve) == Some(true))
            .count();
        let per = |n: usize| (n > 0).then(|| total as f64 / n as f64);
        let priced: Vec<(&Observation, f64)> =
            obs.iter().filter_map(|o| Some((*o, o.cost?))).collect();
        let cost = (!priced.is_empty()).then(|| priced.iter().map(|(_, c)| c).sum::<f64>());
        let priced_solves = priced
            .iter()
            .filter(|(o, _)| o.scored(Phase::Solve) == Some(true))
            .count();
        let per_cost = |n: usize| cost.filter(|_| n > 0).map(|c| c / n as f64);
        TokenUse {
            trials: used.len(),
            calls: used.iter().map(|(_, t)| t.calls).sum(),
            prompt: used.iter().map(|(_, t)| t.prompt).sum(),
            completion: used.iter().map(|(_, t)| t.completion).sum(),
            reasoning: used.iter().map(|(_, t)| t.reasoning).sum(),
            per_trial: per(used.len()),
            per_solve: per(solved),
            cut_off_trials: used.iter().filter(|(_, t)| t.cut_off > 0).count(),
            cost,
            cost_per_trial: per_cost(priced.len()),
            cost_per_solve: per_cost(priced_solves),
        }
    }
}

/// The trials of a group whose calls failed and were retried before they answered,
/// beside the others: if their solve rates differ, the endpoint's errors were not
/// independent of the task (a slow or overloaded endpoint, long prompts), which a reader
/// of the rates should know.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RetryUse {
    /// Trials with a retried call.
    pub retried_trials: usize,
    /// Solving, among the retried trials judged in that phase.
    pub solve_retried: Proportion,
    /// Solving, among the other trials judged in that phase.
    pub solve_others: Proportion,
    /// The p-value of Pearson's chi-square test of the two (`None` when one side is
    /// empty or the test cannot be made).
    pub p: Option<f64>,
}

impl RetryUse {
    fn of(obs: &[&Observation]) -> RetryUse {
        let judged = |retried: bool| {
            share_by_maze(obs.iter().copied().filter(|o| o.retried == retried), |o| {
                o.scored(Phase::Solve)
            })
        };
        let (retried, others) = (judged(true), judged(false));
        let ((sr, nr), (so, no)) = ((retried.successes, retried.n), (others.successes, others.n));
        let p = (nr > 0 && no > 0)
            .then(|| chi_square_independence(&[vec![sr, nr - sr], vec![so, no - so]]))
            .flatten()
            .map(|c| c.p);
        RetryUse {
            retried_trials: obs.iter().filter(|o| o.retried).count(),
            solve_retried: retried,
            solve_others: others,
            p,
        }
    }
}

/// Where solves made their first error (the first move that broke the rules or left every
/// shortest path), over the solves whose path is known.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct FirstErrors {
    /// Solves whose path is known.
    pub traced: usize,
    /// Of which with an error: at a junction (three or more ways on).
    pub junction: usize,
    /// At a dead end.
    pub dead_end: usize,
    /// In a corridor.
    pub corridor: usize,
}

impl FirstErrors {
    /// The count at `place`.
    pub fn at(&self, place: Place) -> usize {
        match place {
            Place::Junction => self.junction,
            Place::DeadEnd => self.dead_end,
            Place::Corridor => self.corridor,
        }
    }
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
    pub(crate) fn of(model: &str, obs: &[&Observation]) -> EmptyAnswers {
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

/// How consistently the mazes of a row were solved over their repeats: with k trials of
/// each maze, pass@k is the share of mazes with at least one success in their k, pass^k
/// the share with a success in all k (9 successes in 10 trials is 90%, but pass^10 may be
/// far lower). Only trials judged in the phase count (API errors are left out).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct PassK {
    /// Mazes with at least one success among their judged repeats, of the mazes judged.
    pub pass_at_k: Proportion,
    /// Mazes whose judged repeats all succeeded, of the mazes judged.
    pub pass_all_k: Proportion,
}

/// pass@k and pass^k of one pooled row (`all` for a pooled dimension), for designs that
/// repeat each maze.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RepeatRow {
    /// The experiment, or `all`.
    pub experiment: String,
    /// The model, or `all`.
    pub model: String,
    /// The encoding, or `all`.
    pub encoding: String,
    /// The shape, or `all`.
    pub shape: String,
    /// The most trials any maze of the row had (the design's repeats per maze).
    pub k: usize,
    /// Mazes in the row (each model and encoding's play of a maze counts apart).
    pub mazes: usize,
    /// Solving.
    pub solve: PassK,
    /// Recognition.
    pub recognize: PassK,
    /// Generation.
    pub generate: PassK,
}

/// pass@k and pass^k of the trials `obs` of row `k`: `None` when no maze was played more
/// than once.
pub(crate) fn repeat_row(k: &Key, obs: &[&Observation]) -> Option<RepeatRow> {
    let mut mazes: BTreeMap<MazeId, Vec<&Observation>> = BTreeMap::new();
    for o in obs {
        mazes.entry(o.maze_id()).or_default().push(o);
    }
    let most = mazes.values().map(Vec::len).max().unwrap_or(0);
    if most < 2 {
        return None;
    }
    let pass = |phase: Phase| {
        let (mut judged, mut any, mut all) = (0, 0, 0);
        for trials in mazes.values() {
            let scored: Vec<bool> = trials.iter().filter_map(|o| o.scored(phase)).collect();
            if scored.is_empty() {
                continue;
            }
            judged += 1;
            any += usize::from(scored.iter().any(|&x| x));
            all += usize::from(scored.iter().all(|&x| x));
        }
        // The units are mazes: each its own cluster.
        let per_maze = |k: usize| {
            let mut units = vec![(1, 1); k];
            units.resize(judged, (0, 1));
            clustered(&units)
        };
        PassK {
            pass_at_k: per_maze(any),
            pass_all_k: per_maze(all),
        }
    };
    Some(RepeatRow {
        experiment: k.0.clone(),
        model: k.1.clone(),
        encoding: k.2.clone(),
        shape: k.3.clone(),
        k: most,
        mazes: mazes.len(),
        solve: pass(Phase::Solve),
        recognize: pass(Phase::Recognize),
        generate: pass(Phase::Generate),
    })
}

/// The phase rates of one model (or `all`) at one grid size: a point of the difficulty
/// curve.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SizeRow {
    /// The model (with its experiment when several are analysed), or `all`.
    pub model: String,
    /// The grid side.
    pub size: usize,
    /// Trials at this size (API errors included).
    pub trials: usize,
    /// Trials with an API error in some phase.
    pub api_errors: usize,
    /// Solve success.
    pub solve: Proportion,
    /// Recognition success.
    pub recognize: Proportion,
    /// Generation success.
    pub generate: Proportion,
    /// Every other measure at this size (moves, failure types, move validity, revisits
    /// and looping, first errors, tokens and cost), as for a group.
    pub detail: GroupDetail,
}

impl SizeRow {
    /// The three phases' proportions, in order.
    pub fn phases(&self) -> [&Proportion; 3] {
        [&self.solve, &self.recognize, &self.generate]
    }
}

/// The rows of each scope (`all`, then each model) at each size its trials were played at,
/// smallest first.
pub(crate) fn size_rows(scopes: &[(String, Vec<&Observation>)]) -> Vec<SizeRow> {
    let mut out = Vec::new();
    for (model, obs) in scopes {
        let mut by_size: BTreeMap<usize, Vec<&Observation>> = BTreeMap::new();
        for o in obs {
            by_size.entry(o.size).or_default().push(o);
        }
        for (size, at) in by_size {
            let k = key(ALL, model, ALL, ALL);
            let r = row_of(&k, &at);
            out.push(SizeRow {
                detail: detail_of(&k, &at),
                model: model.clone(),
                size,
                trials: r.trials,
                api_errors: r.api_errors,
                solve: r.solve,
                recognize: r.recognize,
                generate: r.generate,
            });
        }
    }
    out
}

pub(crate) type Key = (String, String, String, String);

pub(crate) fn key(e: &str, m: &str, enc: &str, s: &str) -> Key {
    (e.to_string(), m.to_string(), enc.to_string(), s.to_string())
}

pub(crate) fn row_of(k: &Key, obs: &[&Observation]) -> GroupRow {
    let prop = |phase: Phase| share_by_maze(obs.iter().copied(), |o| o.scored(phase));
    GroupRow {
        experiment: k.0.clone(),
        model: k.1.clone(),
        encoding: k.2.clone(),
        shape: k.3.clone(),
        trials: obs.len(),
        api_errors: obs.iter().filter(|o| o.api_error()).count(),
        solve: prop(Phase::Solve),
        recognize: prop(Phase::Recognize),
        generate: prop(Phase::Generate),
        bounds: PhaseBounds::of(obs),
    }
}

pub(crate) fn detail_of(k: &Key, obs: &[&Observation]) -> GroupDetail {
    let solved: Vec<&&Observation> = obs
        .iter()
        .filter(|o| o.scored(Phase::Solve) == Some(true))
        .collect();
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
    let move_validity = rate_by_maze(
        obs.iter()
            .copied()
            .filter(|o| o.outcomes[0] != Some(Outcome::Error)),
        |o| {
            Some(Tally {
                right: o.valid_moves?,
                total: o.moves?,
            })
        },
    );
    let traces: Vec<SolveTrace> = obs.iter().filter_map(|o| o.trace).collect();
    let revisits: Vec<f64> = traces.iter().map(|t| t.revisits as f64).collect();
    let mut first_errors = FirstErrors {
        traced: traces.len(),
        ..FirstErrors::default()
    };
    for e in traces.iter().filter_map(|t| t.first_error) {
        *match e.place {
            Place::Junction => &mut first_errors.junction,
            Place::DeadEnd => &mut first_errors.dead_end,
            Place::Corridor => &mut first_errors.corridor,
        } += 1;
    }
    let rate = |f: &dyn Fn(&GenerationChecks) -> bool| {
        share_by_maze(obs.iter().copied(), |o| o.checks.as_ref().map(f))
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
        move_validity,
        revisits: Distribution::of(&revisits),
        looping: share_by_maze(obs.iter().copied(), |o| o.trace.map(|t| t.looping)),
        first_errors,
        tokens: TokenUse::of(obs),
        retries: RetryUse::of(obs),
        retried_moves: obs.iter().map(|o| o.retried_moves).sum(),
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

pub(crate) fn shape_rank(name: &str) -> usize {
    Shape::ALL
        .iter()
        .position(|s| s.name() == name)
        .unwrap_or(Shape::ALL.len())
}

pub(crate) fn encoding_rank(name: &str) -> usize {
    Encoding::ALL
        .iter()
        .position(|s| s.name() == name)
        .unwrap_or(Encoding::ALL.len())
}

pub(crate) fn confusions(
    observations: &[Observation],
    by_model: &BTreeMap<String, Vec<&Observation>>,
) -> Vec<Confusion> {
    // The design's six shapes and whatever the data adds (U, N), as mazes or as answers.
    let seen: Vec<Shape> = observations
        .iter()
        .flat_map(|o| [Some(o.shape), o.predicted.flatten()])
        .flatten()
        .collect();
    let shapes = ShapeSet::with(&seen).shapes();
    let rank = |s: Shape| shapes.iter().position(|&x| x == s);
    let cols: Vec<String> = shapes
        .iter()
        .map(|s| s.name().to_string())
        .chain(std::iter::once(NONE.to_string()))
        .collect();
    let build = |scope: String, obs: &mut dyn Iterator<Item = &Observation>| {
        let mut counts = vec![vec![0; cols.len()]; shapes.len()];
        let mut any = false;
        for o in obs {
            if let Some(pred) = o.predicted {
                let c = pred.map_or(Some(shapes.len()), rank);
                if let Some(cell) = rank(o.shape)
                    .zip(c)
                    .and_then(|(r, c)| counts.get_mut(r).and_then(|row| row.get_mut(c)))
                {
                    *cell += 1;
                    any = true;
                }
            }
        }
        any.then(|| Confusion {
            scope,
            rows: shapes.iter().map(|s| s.name().to_string()).collect(),
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

/// Whether observation `o` belongs to group row `g` of an analysis (a dimension named
/// [`crate::analysis::observation::ALL`] matches everything).
pub fn in_group(o: &Observation, g: &GroupRow) -> bool {
    let fits = |want: &str, have: &str| want == ALL || want == have;
    fits(&g.experiment, &o.experiment)
        && fits(&g.model, &o.model)
        && fits(&g.encoding, o.encoding.name())
        && fits(&g.shape, o.shape.name())
}
