//! Two conditions compared on every phase with the test that fits: two models, two
//! experiments, or any two names a trial's model or experiment carries.
//!
//! Trials of A and B on the same maze shown the same way (shape, size, seed, maze,
//! encoding and repeat) are pairs, and paired trials are compared with McNemar's test
//! (exact below a few discordant pairs), as H1 compares the encodings. When no trial
//! pairs up (different mazes, different seeds), the two success rates are compared with
//! Pearson's chi-square test on the 2 x 2 table. Only trials judged in a phase count in
//! it (an API error is no answer).

use crate::core::analysis::observation::{Observation, PHASE_NAMES};
use crate::core::analysis::stats::{
    chi_square_independence, mcnemar, wilson, McNemar, PairedCounts, Proportion,
};
use serde::Serialize;
use std::collections::BTreeMap;

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
    crate::core::maze::encoding::Encoding,
    crate::core::maze::shape::Shape,
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
    let side = |name: &str, other: &str| -> BTreeMap<PairKey, &Observation> {
        observations
            .iter()
            .filter(|o| on_side(o, name) && !on_side(o, other))
            .map(|o| (pair_key(o), o))
            .collect()
    };
    let (sa, sb) = (side(a, b), side(b, a));
    let pairs: Vec<(&Observation, &Observation)> = sa
        .iter()
        .filter_map(|(k, oa)| sb.get(k).map(|ob| (*oa, *ob)))
        .collect();
    let rate = |s: &BTreeMap<PairKey, &Observation>, i: usize| {
        let judged: Vec<bool> = s.values().filter_map(|o| o.scored(i)).collect();
        wilson(judged.iter().filter(|&&x| x).count(), judged.len())
    };
    let phases = PHASE_NAMES
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let (ra, rb) = (rate(&sa, i), rate(&sb, i));
            let mut counts = PairedCounts::default();
            for (oa, ob) in &pairs {
                if let (Some(x), Some(y)) = (oa.scored(i), ob.scored(i)) {
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
                phase: name.to_string(),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::analysis::test_support::obs;
    use crate::core::maze::encoding::Encoding;
    use crate::core::maze::shape::Shape;

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
