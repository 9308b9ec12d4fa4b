//! The answer modes compared (docs/guides/answer-modes.md): each model's success in each
//! mode, the forms not held counted apart from the accuracy among the answers the form
//! read, the modes paired by maze against the reference (McNemar's test, exact below 25
//! discordant pairs, as H1 pairs the encodings), tokens per solve, and the free readers'
//! agreement with the form's reading (the transcription's, under `transcribed`) with its
//! Wilson interval. Empty when every trial answered freely.

use crate::analysis::observation::{share_by_maze, MazeInstance, Observation};
use crate::analysis::stats::{clustered, mcnemar, wilson, McNemar, PairedCounts, Proportion};
use crate::maze::encoding::Encoding;
use crate::maze::shape::Shape;
use crate::play::answer::AnswerMode;
use crate::play::phase::Phase;
use crate::results::forms::base_model;
use serde::Serialize;
use std::collections::BTreeMap;

/// One model in one mode.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ModeRow {
    /// The experiment.
    pub experiment: String,
    /// The model, without its mode.
    pub model: String,
    /// The mode as the analysis names it (`schema`, `tool>schema`, ...).
    pub mode: String,
    /// Trials.
    pub trials: usize,
    /// Each phase's success among its scored trials (API errors aside), clustered by maze.
    pub rates: [Proportion; 3],
    /// Each phase's replies asked for a form (0 under `free`).
    pub replies: [usize; 3],
    /// Of them, those whose form was not held (read by the free readers instead).
    pub not_held: [usize; 3],
    /// Each phase's success among the trials whose every reply of the phase held its form:
    /// the accuracy among the answers the form read (`None` under `free`).
    pub held: [Option<Proportion>; 3],
    /// Solve successes.
    pub solves: usize,
    /// The trial's own tokens (prompt and completion) per solve, over the trials whose
    /// endpoint reported usage.
    pub tokens_per_solve: Option<f64>,
    /// The transcription calls' tokens per solve, counted apart (`transcribed`).
    pub transcription_tokens_per_solve: Option<f64>,
    /// The trial's own dollars per solve, at the model's price.
    pub cost_per_solve: Option<f64>,
    /// The transcription calls' dollars per solve, counted apart.
    pub transcription_cost_per_solve: Option<f64>,
    /// Transcription calls made.
    pub transcription_calls: usize,
    /// Spellings refused on the way (step-downs), over the trials.
    pub step_downs: usize,
}

/// One mode against the reference on the same mazes, in one phase.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ModePair {
    /// The experiment.
    pub experiment: String,
    /// The model.
    pub model: String,
    /// The phase.
    pub phase: Phase,
    /// The reference mode (`free` when it was played, else the first played).
    pub a: String,
    /// The mode compared with it.
    pub b: String,
    /// The reference's success over the pairs.
    pub a_rate: Proportion,
    /// The mode's success over the pairs.
    pub b_rate: Proportion,
    /// McNemar's test (the reference first) with the difference and its interval.
    pub test: Option<McNemar>,
}

/// The free readers' agreement with the form's reading, in one phase.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FormAgreement {
    /// The experiment.
    pub experiment: String,
    /// The model.
    pub model: String,
    /// The mode.
    pub mode: String,
    /// The phase.
    pub phase: Phase,
    /// Replies with text whose form held, the readers agreeing on `successes`, with the
    /// Wilson interval.
    pub agreement: Proportion,
}

/// The modes compared.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct ModeComparison {
    /// One row per experiment, model and mode.
    pub rows: Vec<ModeRow>,
    /// Each mode against the reference, per model and phase.
    pub pairs: Vec<ModePair>,
    /// The readers' agreement with the form, per model, mode and phase.
    pub agreement: Vec<FormAgreement>,
}

impl ModeComparison {
    /// Whether there is nothing to show (every trial answered freely).
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }
}

/// A trial's group: experiment, model without its mode, the mode.
type Group = (String, String, String);

fn group_of(o: &Observation) -> Group {
    (
        o.experiment.clone(),
        base_model(&o.model, &o.mode).to_string(),
        o.mode.clone(),
    )
}

/// The mazes a pair is made on: the maze as shown, and the repeat.
type PairKey = (Shape, usize, Encoding, u64, usize, usize);

fn pair_key(o: &Observation) -> PairKey {
    let (shape, size, encoding, seed, sample) = o.instance();
    (shape, size, encoding, seed, sample, o.repeat)
}

/// What `amount` sums to over the trials of `obs` that have it, per solve among them
/// (`None` without a solve).
fn per_solve(obs: &[&Observation], amount: impl Fn(&Observation) -> Option<f64>) -> Option<f64> {
    let (mut total, mut solves) = (0.0, 0usize);
    for o in obs {
        if let Some(t) = amount(o) {
            total += t;
            solves += usize::from(o.scored(Phase::Solve) == Some(true));
        }
    }
    (solves > 0).then(|| total / solves as f64)
}

fn row(g: &Group, obs: &[&Observation]) -> ModeRow {
    let counts = |f: &dyn Fn(&crate::results::forms::FormCounts) -> [usize; 3]| {
        let mut out = [0usize; 3];
        for c in obs.iter().filter_map(|o| o.forms.as_ref()) {
            for (o, x) in out.iter_mut().zip(f(c)) {
                *o += x;
            }
        }
        out
    };
    let moded = obs.iter().any(|o| o.forms.is_some());
    let held = Phase::PLAYED.map(|p| {
        let i = p.index();
        moded.then(|| {
            share_by_maze(obs.iter().copied(), |o| {
                let f = o.forms.as_ref()?;
                (f.replies[i] > 0 && f.not_held[i] == 0)
                    .then(|| o.scored(p))
                    .flatten()
            })
        })
    });
    ModeRow {
        experiment: g.0.clone(),
        model: g.1.clone(),
        mode: g.2.clone(),
        trials: obs.len(),
        rates: Phase::PLAYED.map(|p| share_by_maze(obs.iter().copied(), |o| o.scored(p))),
        replies: counts(&|c| c.replies),
        not_held: counts(&|c| c.not_held),
        held,
        solves: obs
            .iter()
            .filter(|o| o.scored(Phase::Solve) == Some(true))
            .count(),
        tokens_per_solve: per_solve(obs, |o| o.tokens.map(|t| t.total() as f64)),
        transcription_tokens_per_solve: per_solve(obs, |o| {
            o.transcription.map(|t| t.total() as f64)
        }),
        cost_per_solve: per_solve(obs, |o| o.cost),
        transcription_cost_per_solve: per_solve(obs, |o| o.transcription_cost),
        transcription_calls: obs
            .iter()
            .filter_map(|o| o.transcription)
            .map(|t| t.calls)
            .sum(),
        step_downs: obs
            .iter()
            .filter_map(|o| o.forms.as_ref())
            .map(|f| f.step_downs)
            .sum(),
    }
}

/// Mode `b` against mode `a` in `phase`, paired by maze and repeat.
fn pair(
    (experiment, model): (&str, &str),
    phase: Phase,
    (a, a_obs): (&str, &[&Observation]),
    (b, b_obs): (&str, &[&Observation]),
) -> Option<ModePair> {
    let mut by_maze: BTreeMap<PairKey, [Option<bool>; 2]> = BTreeMap::new();
    for (slot, obs) in [a_obs, b_obs].into_iter().enumerate() {
        for o in obs {
            by_maze.entry(pair_key(o)).or_default()[slot] = o.scored(phase);
        }
    }
    let mut counts = PairedCounts::default();
    let mut margins: BTreeMap<MazeInstance, [(usize, usize); 2]> = BTreeMap::new();
    for (k, pair) in &by_maze {
        if let [Some(x), Some(y)] = pair {
            counts.add(*x, *y);
            let m = margins.entry((k.0, k.1, k.2, k.3, k.4)).or_default();
            for (side, ok) in m.iter_mut().zip([x, y]) {
                *side = (side.0 + usize::from(*ok), side.1 + 1);
            }
        }
    }
    if counts.n() == 0 {
        return None;
    }
    let side = |i: usize| clustered(&margins.values().map(|m| m[i]).collect::<Vec<_>>());
    Some(ModePair {
        experiment: experiment.to_string(),
        model: model.to_string(),
        phase,
        a: a.to_string(),
        b: b.to_string(),
        a_rate: side(0),
        b_rate: side(1),
        test: mcnemar(counts),
    })
}

/// The modes compared over `observations` (empty when every trial answered freely).
pub fn compare_modes(observations: &[Observation]) -> ModeComparison {
    if observations.iter().all(|o| o.answer_mode.is_free()) {
        return ModeComparison::default();
    }
    let mut groups: BTreeMap<Group, Vec<&Observation>> = BTreeMap::new();
    for o in observations.iter().filter(|o| o.who.is_model()) {
        groups.entry(group_of(o)).or_default().push(o);
    }
    let mut out = ModeComparison::default();
    for (g, obs) in &groups {
        out.rows.push(row(g, obs));
        for p in Phase::PLAYED {
            let i = p.index();
            let (mut agreed, mut compared) = (0, 0);
            for f in obs.iter().filter_map(|o| o.forms.as_ref()) {
                agreed += f.agreed[i];
                compared += f.compared[i];
            }
            if compared > 0 {
                out.agreement.push(FormAgreement {
                    experiment: g.0.clone(),
                    model: g.1.clone(),
                    mode: g.2.clone(),
                    phase: p,
                    agreement: wilson(agreed, compared),
                });
            }
        }
    }
    // Each model's modes against its reference: free when played, else the first.
    let mut models: BTreeMap<(&str, &str), Vec<ModeTrials>> = BTreeMap::new();
    for ((e, m, mode), obs) in &groups {
        models
            .entry((e.as_str(), m.as_str()))
            .or_default()
            .push((mode.as_str(), obs.as_slice()));
    }
    for (model, mut modes) in models {
        let free = AnswerMode::Free.name();
        crate::sort::sort_by_key(&mut modes, |(m, _)| (*m != free, m.to_string()));
        let Some((&reference, others)) = modes.split_first() else {
            continue;
        };
        for &other in others {
            for p in Phase::PLAYED {
                out.pairs.extend(pair(model, p, reference, other));
            }
        }
    }
    out
}

/// A mode's name and the observations of its trials.
type ModeTrials<'a> = (&'a str, &'a [&'a Observation]);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::forms::FormCounts;
    use crate::verify::Outcome;

    fn obs(model: &str, mode: AnswerMode, sample: usize, solved: bool, held: bool) -> Observation {
        let name = mode.name().to_string();
        Observation {
            experiment: "e".into(),
            model: crate::results::forms::mode_label(model, &name),
            answer_mode: mode,
            mode: name,
            sample,
            size: 5,
            outcomes: [
                Some(if solved {
                    Outcome::Success
                } else {
                    Outcome::Fail
                }),
                None,
                None,
            ],
            forms: (!mode.is_free()).then(|| FormCounts {
                replies: [1, 0, 0],
                not_held: [usize::from(!held), 0, 0],
                compared: [usize::from(held), 0, 0],
                agreed: [usize::from(held && solved), 0, 0],
                ..FormCounts::default()
            }),
            ..Observation::bare(Encoding::Matrix, Shape::Square)
        }
    }

    #[test]
    fn every_trial_free_leaves_nothing_to_compare() {
        let o: Vec<Observation> = (0..4)
            .map(|i| obs("m", AnswerMode::Free, i, true, true))
            .collect();
        assert!(compare_modes(&o).is_empty());
    }

    #[test]
    fn the_modes_are_paired_by_maze_against_free_and_forms_not_held_are_counted_apart() {
        let mut o = Vec::new();
        for i in 0..30 {
            o.push(obs("m", AnswerMode::Free, i, i % 2 == 0, true));
            // Under schema: every maze solved, but the form not held on the first five.
            o.push(obs("m", AnswerMode::Schema, i, true, i >= 5));
        }
        let c = compare_modes(&o);
        assert_eq!(c.rows.len(), 2, "one row per mode");
        let schema = c
            .rows
            .iter()
            .find(|r| r.mode == "schema")
            .expect("a schema row");
        assert_eq!((schema.model.as_str(), schema.trials), ("m", 30));
        assert_eq!(schema.rates[0].successes, 30);
        assert_eq!((schema.replies[0], schema.not_held[0]), (30, 5));
        let held = schema.held[0]
            .as_ref()
            .expect("an accuracy among the forms read");
        assert_eq!(
            (held.successes, held.n),
            (25, 25),
            "the five not held are left out"
        );
        assert_eq!(
            c.rows
                .iter()
                .find(|r| r.mode == "free")
                .map(|r| r.held[0].is_none()),
            Some(true)
        );
        let solve = c
            .pairs
            .iter()
            .find(|p| p.phase == Phase::Solve)
            .expect("a solve pair");
        assert_eq!(
            (solve.a.as_str(), solve.b.as_str()),
            ("free", "schema"),
            "free is the reference"
        );
        let t = solve.test.expect("a test");
        assert_eq!(
            (t.counts.only_b, t.counts.only_a, t.counts.n()),
            (15, 0, 30)
        );
        assert!(
            t.exact && t.p < 0.001,
            "15 discordant pairs, all one way: {t:?}"
        );
        let a = c
            .agreement
            .iter()
            .find(|a| a.phase == Phase::Solve)
            .expect("agreement");
        assert_eq!((a.agreement.successes, a.agreement.n), (25, 25));
    }
}
