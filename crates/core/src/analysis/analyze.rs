//! One [`Analysis`] from a list of observations: the groups, comparisons, shape effects,
//! hypotheses and empty answers the results page, the report file and `shapemaze report`
//! all show.

use crate::analysis::groups::{
    confusions, detail_of, encoding_rank, key, repeat_row, row_of, shape_rank, size_rows,
    Confusion, EmptyAnswers, GroupDetail, GroupRow, Key, RepeatRow, SizeRow,
};
use crate::analysis::hypotheses::{
    compare_encodings, h1, h2, h3, h4, paired, run_model_order, EncodingComparison, Hypotheses,
};
use crate::analysis::modes::{compare_modes, ModeComparison};
use crate::analysis::observation::{Observation, ALL};
use crate::analysis::people::{people_vs_models, PeopleVsModels};
use crate::analysis::shapes::{shape_effects, PhaseCorrelation, ShapeEffects};
use crate::analysis::staircase::{stair_rows, StairRow};
use crate::analysis::stats::phi;
use crate::play::phase::Phase;
use serde::Serialize;
use std::collections::BTreeMap;

/// Options of an analysis.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AnalysisOptions {
    /// H3's model order, smallest first; each matched as a case-insensitive substring.
    /// Empty (the default): the run's own models, by the size their names carry
    /// ([`run_model_order`]).
    pub model_order: Vec<String>,
    /// Whether people's recognition verdicts given after the page showed them the shape
    /// ([`Observation::shape_shown`]) are counted; by default they are left out (the
    /// phase counts as not judged for those trials) and the analysis says how many.
    pub include_shown: bool,
}

/// People's recognition verdicts given after the page had shown the shape (people's
/// records made before Shapemaze 0.2.0, whose pages named it above the maze).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ShownRecognitions {
    /// How many people's trials have a recognition verdict given so.
    pub trials: usize,
    /// Whether the analysis counts them ([`AnalysisOptions::include_shown`]); when not,
    /// their recognition is left out of every rate, as a phase not judged.
    pub counted: bool,
}

impl ShownRecognitions {
    /// What the report says of them, in one sentence; none when there are none.
    pub fn note(&self) -> Option<String> {
        let n = self.trials;
        let (trials, verdicts) = if n == 1 {
            ("trial", "verdict")
        } else {
            ("trials", "verdicts")
        };
        (n > 0).then(|| if self.counted {
            format!("{n} people's {trials} were answered after the page had shown the shape (people's records made before Shapemaze 0.2.0, whose pages named it above the maze): their recognition {verdicts} are counted, as asked, and overstate the people's recognition.")
        } else {
            format!("{n} people's recognition {verdicts} are left out of every rate: the page had shown the shape before the answer (people's records made before Shapemaze 0.2.0, whose pages named it above the maze). Count them with `shapemaze report --include-shown` or the results page's \"Count recognitions given with the shape shown\".")
        })
    }
}

/// Everything the dashboard and `shapemaze report` show.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Analysis {
    /// Trials analysed.
    pub trials: usize,
    /// Trials with an API error in some phase.
    pub api_errors: usize,
    /// Distinct mazes played (size, shape, seed and sample): a maze shown in both
    /// encodings, or played again, counts once.
    pub mazes: usize,
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
    /// Phase rates at each grid size, all trials then per model: the difficulty curves.
    pub by_size: Vec<SizeRow>,
    /// pass@k and pass^k of the pooled rows, in their order; empty when no maze was
    /// played more than once.
    pub repeats: Vec<RepeatRow>,
    /// Staircase walks: one per experiment, model and encoding (left out without one).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub staircase: Vec<StairRow>,
    /// Phi between phases per model and pooled.
    pub phase_correlations: Vec<PhaseCorrelation>,
    /// Trials with empty answers, by why they were empty: all trials, then per model.
    pub empty_answers: Vec<EmptyAnswers>,
    /// H1 to H4.
    pub hypotheses: Hypotheses,
    /// People against each model on the maze instances both played.
    pub people_vs_models: PeopleVsModels,
    /// People's recognition verdicts given with the shape shown, and whether they count.
    pub shown_recognitions: ShownRecognitions,
    /// The answer modes compared, per model, paired by maze (left out when every trial
    /// answered freely).
    #[serde(skip_serializing_if = "ModeComparison::is_empty")]
    pub modes: ModeComparison,
}

/// Analyses `observations` (from one or several experiments). People's recognition
/// verdicts given after the shape was shown are left out unless `options` counts them
/// ([`AnalysisOptions::include_shown`]).
pub fn analyze(observations: &[Observation], options: &AnalysisOptions) -> Analysis {
    let shown_recognitions = ShownRecognitions {
        trials: observations.iter().filter(|o| shown(o)).count(),
        counted: options.include_shown,
    };
    Analysis {
        shown_recognitions,
        ..analyze_all(&as_counted(observations, options), options)
    }
}

/// Whether `o` is a person's trial with a recognition verdict given after the shape was
/// shown.
fn shown(o: &Observation) -> bool {
    o.shape_shown && o.who.is_person() && o.outcomes[1].is_some()
}

/// `observations` as the analysis counts them: people's recognition verdicts given with
/// the shape shown taken out (the phase as not judged) unless `options` counts them. The
/// item matrix is made from these too.
pub fn as_counted<'a>(
    observations: &'a [Observation],
    options: &AnalysisOptions,
) -> std::borrow::Cow<'a, [Observation]> {
    if options.include_shown || !observations.iter().any(shown) {
        return std::borrow::Cow::Borrowed(observations);
    }
    let left_out = observations
        .iter()
        .map(|o| {
            let mut o = o.clone();
            if shown(&o) {
                o.outcomes[1] = None;
                o.reasons[1] = None;
                o.predicted = None;
            }
            o
        })
        .collect();
    std::borrow::Cow::Owned(left_out)
}

/// How many distinct mazes (size, shape, seed, sample) the observations played.
fn distinct_mazes(observations: &[Observation]) -> usize {
    observations
        .iter()
        .map(|o| (o.size, o.shape.name(), o.seed, o.sample))
        .collect::<std::collections::BTreeSet<_>>()
        .len()
}

/// The experiments of `observations`, in the order they first appear.
fn experiments_in(observations: &[Observation]) -> Vec<String> {
    let mut experiments: Vec<String> = Vec::new();
    for o in observations {
        if !experiments.contains(&o.experiment) {
            experiments.push(o.experiment.clone());
        }
    }
    experiments
}

/// Each scope's phases correlated two by two (phi of the paired outcomes).
fn phase_correlations(scopes: &[(String, Vec<&Observation>)]) -> Vec<PhaseCorrelation> {
    scopes
        .iter()
        .flat_map(|(m, obs)| {
            [
                (Phase::Solve, Phase::Recognize),
                (Phase::Recognize, Phase::Generate),
                (Phase::Solve, Phase::Generate),
            ]
            .map(|(a, b)| {
                let counts = paired(obs, a, b);
                PhaseCorrelation {
                    model: m.clone(),
                    first: a.name().into(),
                    second: b.name().into(),
                    counts,
                    phi: phi(counts),
                }
            })
        })
        .collect()
}

/// Analyses `observations` as they are.
fn analyze_all(observations: &[Observation], options: &AnalysisOptions) -> Analysis {
    let experiments = experiments_in(observations);
    let model_order = if options.model_order.is_empty() {
        run_model_order(observations)
    } else {
        options.model_order.clone()
    };
    let mut models: Vec<String> = observations.iter().map(|o| o.model.clone()).collect();
    crate::sort::sort_dedup(&mut models);
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
    crate::sort::sort_by_key(&mut group_keys, |k| sort_key(k));
    let mut pooled_keys: Vec<&(usize, Key)> = pooled.keys().collect();
    crate::sort::sort_by_key(&mut pooled_keys, |(o, k)| (*o, sort_key(k)));
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
    let repeats: Vec<RepeatRow> = pooled_keys
        .iter()
        .filter_map(|k| repeat_row(&k.1, &pooled[*k]))
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
    let by_size = size_rows(&scopes);
    let encoding_comparison: Vec<EncodingComparison> = scopes
        .iter()
        .flat_map(|(m, obs)| {
            Phase::PLAYED
                .into_iter()
                .filter_map(move |p| compare_encodings(m, obs, p))
        })
        .collect();
    let phase_correlations = phase_correlations(&scopes);
    let empty_answers = scopes
        .iter()
        .map(|(m, obs)| EmptyAnswers::of(m, obs))
        .collect();
    let shape_effects = shape_effects(observations);
    let hypotheses = Hypotheses {
        h1: h1(&encoding_comparison),
        h2: h2(observations),
        h3: h3(observations, &model_order),
        h4: h4(observations),
    };
    let people_vs_models = people_vs_models(observations, model_label);
    Analysis {
        trials: observations.len(),
        api_errors: observations.iter().filter(|o| o.api_error()).count(),
        mazes: distinct_mazes(observations),
        experiments,
        models,
        model_order,
        groups,
        pooled: pooled_rows,
        details,
        confusion,
        encoding_comparison,
        shape_effects,
        phase_progression,
        by_size,
        repeats,
        staircase: stair_rows(observations),
        phase_correlations,
        empty_answers,
        hypotheses,
        people_vs_models,
        shown_recognitions: ShownRecognitions::default(),
        modes: compare_modes(observations),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::hypotheses::Support;
    use crate::analysis::test_support::obs;
    use crate::maze::encoding::Encoding;
    use crate::maze::shape::Shape;
    use crate::model::reply::EmptyReason;
    use crate::verify::Outcome;

    #[test]
    fn looping_and_first_errors_are_counted_over_the_solves_whose_path_is_known() {
        use crate::analysis::trace::{FirstError, Place, SolveTrace};
        use crate::maze::grid::Pos;
        // A looping solve that first erred at a junction, a clean one, and one counted
        // from a transcript (no path known).
        let looped = SolveTrace {
            revisits: 3,
            max_visits: 3,
            looping: true,
            first_error: Some(FirstError {
                step: 2,
                at: Pos::new(0, 2),
                place: Place::Junction,
            }),
        };
        let clean = SolveTrace {
            revisits: 0,
            max_visits: 1,
            looping: false,
            first_error: None,
        };
        let mut v: Vec<Observation> = (0..3)
            .map(|i| {
                obs(
                    "m",
                    Encoding::Matrix,
                    Shape::Square,
                    i,
                    [i == 1, true, true],
                )
            })
            .collect();
        v[0].trace = Some(looped);
        v[1].trace = Some(clean);
        let an = analyze(&v, &AnalysisOptions::default());
        let all = &an.details[an.groups.len()];
        assert_eq!((all.model.as_str(), all.shape.as_str()), ("all", "all"));
        assert_eq!(all.first_errors.traced, 2);
        assert_eq!(
            (
                all.first_errors.junction,
                all.first_errors.dead_end,
                all.first_errors.corridor
            ),
            (1, 0, 0)
        );
        assert_eq!((all.looping.successes, all.looping.n), (1, 2));
        assert_eq!(all.revisits.mean, Some(1.5));
    }

    /// Three square trials of one model, the first solved.
    fn three_squares() -> Vec<Observation> {
        (0..3)
            .map(|i| {
                obs(
                    "m",
                    Encoding::Matrix,
                    Shape::Square,
                    i,
                    [i == 0, true, true],
                )
            })
            .collect()
    }

    #[test]
    fn tokens_are_counted_per_trial_and_per_solved_trial() {
        use crate::results::record::Tokens;
        // Two trials with usage (one solved: 100 + 20 tokens over 2 calls; one failed,
        // cut off: 300 + 80 over 3 calls), one without (a built-in player).
        let mut v = three_squares();
        v[0].tokens = Some(Tokens {
            calls: 2,
            prompt: 100,
            completion: 20,
            reasoning: 0,
            cut_off: 0,
        });
        v[1].tokens = Some(Tokens {
            calls: 3,
            prompt: 300,
            completion: 80,
            reasoning: 60,
            cut_off: 1,
        });
        let an = analyze(&v, &AnalysisOptions::default());
        let t = &an.details[an.groups.len()].tokens;
        assert_eq!(
            (t.trials, t.calls, t.prompt, t.completion),
            (2, 5, 400, 100)
        );
        assert_eq!(t.reasoning, 60, "of which reasoning");
        assert_eq!(t.per_trial, Some(250.0), "500 tokens over 2 trials");
        assert_eq!(t.per_solve, Some(500.0), "500 tokens for 1 solve");
        assert_eq!(t.cut_off_trials, 1);
    }

    #[test]
    fn costs_count_priced_trials_per_trial_and_per_solve() {
        // Three trials: two priced ($0.30 solved, $0.10 failed), one without a price.
        let mut v = three_squares();
        v[0].cost = Some(0.30);
        v[1].cost = Some(0.10);
        let an = analyze(&v, &AnalysisOptions::default());
        let t = &an.details[an.groups.len()].tokens;
        assert!((t.cost.expect("a cost") - 0.40).abs() < 1e-12);
        assert!((t.cost_per_trial.expect("per trial") - 0.20).abs() < 1e-12);
        assert!((t.cost_per_solve.expect("per solve") - 0.40).abs() < 1e-12);
        let unpriced = analyze(&v[2..], &AnalysisOptions::default());
        let t = &unpriced.details[unpriced.groups.len()].tokens;
        assert_eq!(
            (t.cost, t.cost_per_trial, t.cost_per_solve),
            (None, None, None)
        );
    }

    #[test]
    fn retried_trials_are_set_beside_the_others() {
        // 20 trials: the 10 retried solve 2, the 10 others solve 9.
        let mut v: Vec<Observation> = (0..20)
            .map(|i| {
                let solved = if i < 10 { i < 2 } else { i < 19 };
                obs(
                    "m",
                    Encoding::Matrix,
                    Shape::Square,
                    i,
                    [solved, true, true],
                )
            })
            .collect();
        for o in v.iter_mut().take(10) {
            o.retried = true;
        }
        let an = analyze(&v, &AnalysisOptions::default());
        let r = &an.details[an.groups.len()].retries;
        assert_eq!(r.retried_trials, 10);
        assert_eq!((r.solve_retried.successes, r.solve_retried.n), (2, 10));
        assert_eq!((r.solve_others.successes, r.solve_others.n), (9, 10));
        // 2x2 [[2, 8], [9, 1]]: chi-square 9.899, p 0.00165.
        let p = r.p.expect("a test");
        assert!((p - 0.001652).abs() < 1e-5, "{p}");
        let none = analyze(&v[10..], &AnalysisOptions::default());
        let r = &none.details[none.groups.len()].retries;
        assert_eq!(
            (r.retried_trials, r.p),
            (0, None),
            "nothing retried, no test"
        );
    }

    #[test]
    fn repeats_give_pass_at_k_and_pass_all_k_per_pooled_row() {
        // Two mazes, three repeats each. Solve: maze 0 T T F, maze 1 F F F. Recognize:
        // maze 0 T T T, maze 1 T F T. Generate: never.
        let plays = [
            (
                0,
                [
                    [true, true, false],
                    [true, true, false],
                    [false, true, false],
                ],
            ),
            (
                1,
                [
                    [false, true, false],
                    [false, false, false],
                    [false, true, false],
                ],
            ),
        ];
        let mut v = Vec::new();
        for (sample, repeats) in plays {
            for (r, ok) in repeats.into_iter().enumerate() {
                let mut o = obs("m", Encoding::Matrix, Shape::Square, sample, ok);
                o.repeat = r;
                v.push(o);
            }
        }
        let an = analyze(&v, &AnalysisOptions::default());
        let all = &an.repeats[0];
        assert_eq!((all.model.as_str(), all.k, all.mazes), ("all", 3, 2));
        let p = |x: &crate::analysis::stats::Proportion| (x.successes, x.n);
        assert_eq!(
            p(&all.solve.pass_at_k),
            (1, 2),
            "maze 0 solved at least once"
        );
        assert_eq!(
            p(&all.solve.pass_all_k),
            (0, 2),
            "no maze solved every time"
        );
        assert_eq!(p(&all.recognize.pass_at_k), (2, 2));
        assert_eq!(p(&all.recognize.pass_all_k), (1, 2));
        assert_eq!(p(&all.generate.pass_at_k), (0, 2));
        // Beside the mean: 2 of 6 solves.
        assert_eq!(p(&an.pooled[0].solve), (2, 6));
        assert_eq!(an.repeats.len(), an.pooled.len(), "one per pooled row");
        // One trial per maze: no repeats to speak of.
        let once: Vec<Observation> = v.into_iter().filter(|o| o.repeat == 0).collect();
        assert!(analyze(&once, &AnalysisOptions::default())
            .repeats
            .is_empty());
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
    fn people_s_recognitions_given_with_the_shape_shown_are_left_out_unless_counted() {
        use crate::analysis::observation::PlayedBy;
        // A model and two people on the same two mazes; p1 was shown the shape (an old
        // record) and named it right both times, p2 was not and named one of two.
        let mut v = Vec::new();
        for sample in 0..2 {
            v.push(obs(
                "m",
                Encoding::Matrix,
                Shape::C,
                sample,
                [true, false, true],
            ));
            for (who, shown, named) in [("p1", true, true), ("p2", false, sample == 0)] {
                let mut o = obs(
                    "human",
                    Encoding::Matrix,
                    Shape::C,
                    sample,
                    [true, named, true],
                );
                o.who = PlayedBy::Person(who.into());
                o.shape_shown = shown;
                v.push(o);
            }
        }
        // A model's observation marked shown (never so from a record) is left as it is.
        let mut odd = obs("m", Encoding::Matrix, Shape::C, 2, [true, true, true]);
        odd.shape_shown = true;
        v.push(odd);
        let people = |a: &Analysis| {
            let row = a
                .pooled
                .iter()
                .find(|r| r.model == "human" && r.encoding == ALL)
                .expect("the people's row");
            (row.recognize.successes, row.recognize.n)
        };
        let left_out = analyze(&v, &AnalysisOptions::default());
        assert_eq!(people(&left_out), (1, 2), "only p2's two answers count");
        assert_eq!(
            left_out.shown_recognitions,
            ShownRecognitions {
                trials: 2,
                counted: false
            }
        );
        let note = left_out.shown_recognitions.note().expect("said");
        assert!(
            note.starts_with("2 people's recognition verdicts are left out"),
            "{note}"
        );
        let rec = left_out
            .people_vs_models
            .rows
            .iter()
            .find(|r| r.phase == "recognize")
            .expect("a recognition row");
        assert_eq!(
            (
                rec.people_rate.successes,
                rec.people_rate.n,
                rec.participants
            ),
            (1, 2, 1)
        );
        // Solve and generate keep every person's trial.
        assert_eq!(left_out.people_vs_models.rows[0].people_rate.n, 4);
        let counted = analyze(
            &v,
            &AnalysisOptions {
                include_shown: true,
                ..AnalysisOptions::default()
            },
        );
        assert_eq!(people(&counted), (3, 4), "counted when asked");
        assert!(counted.shown_recognitions.counted);
        assert!(counted
            .shown_recognitions
            .note()
            .expect("said")
            .contains("are counted, as asked"));
        // Without such trials nothing is said.
        let none = analyze(&v[..1], &AnalysisOptions::default());
        assert_eq!(none.shown_recognitions.note(), None);
        assert_eq!(
            serde_json::to_value(&left_out).expect("JSON")["shown_recognitions"],
            serde_json::json!({"trials": 2, "counted": false})
        );
    }
}
