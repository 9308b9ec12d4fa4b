//! Two conditions compared on every phase with the test that fits: two models, two
//! experiments, or any two names a trial's model or experiment carries.
//!
//! Trials of A and B on the same maze shown the same way (shape, size, seed, maze,
//! encoding and repeat) are pairs, and paired trials are compared with McNemar's test
//! (exact below a few discordant pairs), as H1 compares the encodings. When no trial
//! pairs up (different mazes, different seeds), the two success rates are compared with
//! Pearson's chi-square test on the 2 x 2 table. Only trials judged in a phase count in
//! it (an API error is no answer).

use crate::analysis::observation::{share_by_maze, Observation};
use crate::analysis::stats::{chi_square_independence, mcnemar, McNemar, PairedCounts, Proportion};
use crate::play::phase::Phase;
use crate::sort::sort_by_key;
use serde::Serialize;

/// One phase of a comparison.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PhaseComparison {
    /// `solve`, `recognize` or `generate`.
    pub phase: String,
    /// A's success rate over its trials judged in the phase.
    pub a: Proportion,
    /// B's.
    pub b: Proportion,
    /// `mcnemar` (paired trials), `chi_square` (none pair up) or `none` (a side has no
    /// trial judged in the phase).
    pub test: String,
    /// McNemar's test over the pairs judged in the phase on both sides.
    pub paired: Option<McNemar>,
    /// The test's two-sided p-value.
    pub p: Option<f64>,
}

/// A and B compared on every phase.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Comparison {
    /// What A names (a model or an experiment).
    pub a: String,
    /// What B names.
    pub b: String,
    /// A's trials.
    pub trials_a: usize,
    /// B's trials.
    pub trials_b: usize,
    /// Trials of A with a trial of B on the same maze shown the same way.
    pub pairs: usize,
    /// Solve, recognize, generate.
    pub phases: Vec<PhaseComparison>,
}

/// The maze a trial ran on and how it was shown: what pairs a trial of A with one of B.
type PairKey = (
    crate::maze::encoding::Encoding,
    crate::maze::shape::Shape,
    usize,
    u64,
    usize,
    usize,
);

fn pair_key(o: &Observation) -> PairKey {
    (o.encoding, o.shape, o.size, o.seed, o.sample, o.repeat)
}

/// Whether trial `o` belongs to the side named `name` (its model or its experiment).
fn on_side(o: &Observation, name: &str) -> bool {
    o.model == name || o.experiment == name
}

/// Compares the trials named `a` with those named `b` (see the module documentation). A
/// trial named by both sides counts on neither.
pub fn compare(observations: &[Observation], a: &str, b: &str) -> Comparison {
    // Each side's trials by their pair key, the last of a key kept (as a map's insert
    // would), sorted through `core::sort` (a map's `collect` would bring the standard
    // library's sort into the browser build).
    let side = |name: &str, other: &str| -> Vec<(PairKey, &Observation)> {
        let mut v: Vec<(PairKey, &Observation)> = observations
            .iter()
            .filter(|o| on_side(o, name) && !on_side(o, other))
            .map(|o| (pair_key(o), o))
            .collect();
        sort_by_key(&mut v, |(k, _)| *k);
        let mut kept: Vec<(PairKey, &Observation)> = Vec::with_capacity(v.len());
        for (k, o) in v {
            match kept.last_mut() {
                Some(last) if last.0 == k => last.1 = o,
                _ => kept.push((k, o)),
            }
        }
        kept
    };
    let (sa, sb) = (side(a, b), side(b, a));
    let pairs: Vec<(&Observation, &Observation)> = sa
        .iter()
        .filter_map(|(k, oa)| {
            sb.binary_search_by(|(kb, _)| kb.cmp(k))
                .ok()
                .map(|i| (*oa, sb[i].1))
        })
        .collect();
    let rate = |s: &[(PairKey, &Observation)], phase: Phase| {
        share_by_maze(s.iter().map(|(_, o)| *o), |o| o.scored(phase))
    };
    let phases = Phase::PLAYED
        .into_iter()
        .map(|phase| {
            let (ra, rb) = (rate(&sa, phase), rate(&sb, phase));
            let mut counts = PairedCounts::default();
            for (oa, ob) in &pairs {
                if let (Some(x), Some(y)) = (oa.scored(phase), ob.scored(phase)) {
                    counts.add(x, y);
                }
            }
            let paired = (!pairs.is_empty()).then(|| mcnemar(counts)).flatten();
            let unpaired = (pairs.is_empty() && ra.n > 0 && rb.n > 0)
                .then(|| {
                    chi_square_independence(&[
                        vec![ra.successes, ra.n - ra.successes],
                        vec![rb.successes, rb.n - rb.successes],
                    ])
                })
                .flatten();
            let (test, p) = match (&paired, &unpaired) {
                (Some(m), _) => ("mcnemar", Some(m.p)),
                (None, Some(c)) => ("chi_square", Some(c.p)),
                // Both sides succeeded (or failed) every time: nothing differs.
                (None, None) if pairs.is_empty() && ra.n > 0 && rb.n > 0 => {
                    ("chi_square", Some(1.0))
                }
                (None, None) => ("none", None),
            };
            PhaseComparison {
                phase: phase.name().to_string(),
                a: ra,
                b: rb,
                test: test.into(),
                paired,
                p,
            }
        })
        .collect();
    Comparison {
        a: a.into(),
        b: b.into(),
        trials_a: sa.len(),
        trials_b: sb.len(),
        pairs: pairs.len(),
        phases,
    }
}

/// What can be compared among `observations`: the experiments (when more than one), then
/// the models (when more than one), each once, in first-seen order.
pub fn sides(observations: &[Observation]) -> Vec<String> {
    let mut experiments: Vec<&str> = Vec::new();
    let mut models: Vec<&str> = Vec::new();
    for o in observations {
        if !experiments.contains(&o.experiment.as_str()) {
            experiments.push(&o.experiment);
        }
        if !models.contains(&o.model.as_str()) {
            models.push(&o.model);
        }
    }
    let mut out: Vec<String> = Vec::new();
    for group in [experiments, models] {
        if group.len() > 1 {
            for name in group {
                if !out.iter().any(|n| n == name) {
                    out.push(name.to_string());
                }
            }
        }
    }
    out
}

/// The pair to compare: `wanted` when both are among [`sides`] and differ, else the first
/// two experiments, else the first two models; `None` when nothing has two sides.
pub fn pick_pair(observations: &[Observation], wanted: (&str, &str)) -> Option<(String, String)> {
    let names = sides(observations);
    let has = |n: &str| names.iter().any(|x| x == n);
    if wanted.0 != wanted.1 && has(wanted.0) && has(wanted.1) {
        return Some((wanted.0.to_string(), wanted.1.to_string()));
    }
    match names.as_slice() {
        [a, b, ..] => Some((a.clone(), b.clone())),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sides_are_the_experiments_then_the_models_and_a_pair_is_picked() {
        let mut v = sides_of_two();
        assert_eq!(
            super::sides(&v),
            ["m-a", "m-b"],
            "one experiment: the models"
        );
        assert_eq!(
            pick_pair(&v, ("", "")),
            Some(("m-a".to_string(), "m-b".to_string()))
        );
        assert_eq!(
            pick_pair(&v, ("m-b", "m-a")),
            Some(("m-b".to_string(), "m-a".to_string())),
            "the choice stands when both sides exist"
        );
        for (i, o) in v.iter_mut().enumerate() {
            o.experiment = if i < 4 { "first" } else { "second" }.into();
        }
        assert_eq!(super::sides(&v), ["first", "second", "m-a", "m-b"]);
        assert_eq!(
            pick_pair(&v, ("m-a", "m-a")),
            Some(("first".to_string(), "second".to_string())),
            "a side against itself is no comparison: the experiments are"
        );
        v.retain(|o| o.model == "m-a" && o.experiment == "first");
        assert_eq!(super::sides(&v), Vec::<String>::new());
        assert_eq!(pick_pair(&v, ("", "")), None);
    }

    fn sides_of_two() -> Vec<Observation> {
        (0..5)
            .flat_map(|i| {
                [
                    obs("m-a", Encoding::Matrix, Shape::Square, i, [true; 3]),
                    obs("m-b", Encoding::Matrix, Shape::Square, i, [false; 3]),
                ]
            })
            .collect()
    }
    use crate::analysis::test_support::obs;
    use crate::maze::encoding::Encoding;
    use crate::maze::shape::Shape;

    /// Ten trials a side: A on mazes 0..10, B on mazes `b_from`.., each with the outcomes
    /// its function gives for the trial's number.
    fn sides(
        b_from: usize,
        a: impl Fn(usize) -> [bool; 3],
        b: impl Fn(usize) -> [bool; 3],
    ) -> Vec<Observation> {
        (0..10)
            .flat_map(|i| {
                [
                    obs("m-a", Encoding::Matrix, Shape::Square, i, a(i)),
                    obs("m-b", Encoding::Matrix, Shape::Square, b_from + i, b(i)),
                ]
            })
            .collect()
    }

    #[test]
    fn paired_trials_are_compared_with_mcnemar() {
        // Ten mazes played by both: A solves all ten, B the first two.
        let v = sides(0, |i| [true, true, i < 5], |i| [i < 2, true, i < 5]);
        let c = compare(&v, "m-a", "m-b");
        assert_eq!((c.trials_a, c.trials_b, c.pairs), (10, 10, 10));
        let solve = &c.phases[0];
        assert_eq!(solve.test, "mcnemar");
        assert_eq!((solve.a.successes, solve.b.successes), (10, 2));
        let m = solve.paired.expect("McNemar");
        assert_eq!((m.counts.only_a, m.counts.only_b), (8, 0));
        // Exact: 8 discordant pairs all one way, two-sided p = 2 / 2^8.
        assert!(
            (solve.p.expect("p") - 2.0 / 256.0).abs() < 1e-12,
            "{:?}",
            solve.p
        );
        // Recognition: no discordant pair, p 1.
        assert_eq!(c.phases[1].p, Some(1.0));
        assert!(c.phases[2].p.is_some_and(|p| (p - 1.0).abs() < 1e-12));
    }

    #[test]
    fn unpaired_trials_are_compared_with_chi_square() {
        // Different mazes (A on 0..10, B on 10..20): 2/10 against 9/10.
        let v = sides(10, |i| [i < 2, true, true], |i| [i < 9, true, true]);
        let c = compare(&v, "m-a", "m-b");
        assert_eq!(c.pairs, 0);
        let solve = &c.phases[0];
        assert_eq!(solve.test, "chi_square");
        assert!(
            (solve.p.expect("p") - 0.001652).abs() < 1e-5,
            "{:?}",
            solve.p
        );
        assert_eq!(
            c.phases[1].p,
            Some(1.0),
            "both always right: nothing differs"
        );
        // A name nothing carries: no trial, no test.
        let none = compare(&v, "m-a", "nobody");
        assert_eq!((none.trials_b, none.phases[0].test.as_str()), (0, "none"));
    }
}
