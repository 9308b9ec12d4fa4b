//! The design's four hypotheses tested (H1 to H4, see the domain's documentation for the
//! tests chosen), with the encoding comparisons H1 rests on.

use crate::analysis::observation::{MazeId, MazeInstance, Observation, ALL, PHASE_NAMES};
use crate::analysis::shapes::shape_table;
use crate::analysis::stats::{
    chi_square_independence, clustered, cochran_armitage, cochran_q, mcnemar, McNemar,
    PairedCounts, Proportion, ALPHA,
};
use crate::maze::encoding::Encoding;
use crate::play::phase::Phase;
use crate::text::Fixed;
use serde::Serialize;
use std::collections::BTreeMap;

/// Qwen's API models from smallest to largest: the order H3 ranks models by when their
/// names carry no size ([`run_model_order`]).
pub const DEFAULT_MODEL_ORDER: [&str; 3] = ["qwen-turbo", "qwen-plus", "qwen-max"];

/// Fewest pairs (H1) or fully scored trials (H4) for a verdict.
pub const MIN_PAIRS: usize = 10;

/// Fewest scored trials per shape, in at least two shapes, for H2.
pub const MIN_PER_SHAPE: usize = 5;

/// Fewest scored solve trials per model, in at least two models, for H3.
pub const MIN_PER_MODEL: usize = 10;

/// Below this many observations a verdict carries a small-sample warning.
pub const SMALL_SAMPLE: usize = 30;

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

pub(crate) fn compare_encodings(
    model: &str,
    obs: &[&Observation],
    phase: Phase,
) -> Option<EncodingComparison> {
    let mut by_maze: BTreeMap<(MazeId, usize), [Option<bool>; 2]> = BTreeMap::new();
    for o in obs {
        let slot = usize::from(o.encoding != Encoding::Matrix);
        by_maze.entry(o.maze_key()).or_default()[slot] = o.scored(phase);
    }
    let mut counts = PairedCounts::default();
    // Each side's successes per maze (its repeats and models together), for the margins'
    // clustered intervals.
    let mut margins: BTreeMap<MazeInstance, [(usize, usize); 2]> = BTreeMap::new();
    for ((id, _), pair) in &by_maze {
        if let [Some(m), Some(c)] = pair {
            counts.add(*m, *c);
            let maze = margins
                .entry((id.3, id.4, Encoding::Matrix, id.5, id.6))
                .or_default();
            for (side, ok) in maze.iter_mut().zip([m, c]) {
                *side = (side.0 + usize::from(*ok), side.1 + 1);
            }
        }
    }
    if counts.n() == 0 {
        return None;
    }
    let side = |i: usize| clustered(&margins.values().map(|m| m[i]).collect::<Vec<_>>());
    Some(EncodingComparison {
        model: model.to_string(),
        phase: phase.name().into(),
        matrix: side(0),
        coord_list: side(1),
        test: mcnemar(counts),
    })
}

pub(crate) fn paired(obs: &[&Observation], a: Phase, b: Phase) -> PairedCounts {
    let mut counts = PairedCounts::default();
    for o in obs {
        if let (Some(x), Some(y)) = (o.scored(a), o.scored(b)) {
            counts.add(x, y);
        }
    }
    counts
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
        format!("= {p:.3}", p = Fixed(p))
    }
}

fn pct(x: f64) -> String {
    format!("{:.1}%", Fixed(100.0 * x))
}

pub(crate) fn h1(comparisons: &[EncodingComparison]) -> Hypothesis {
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
            Fixed(100.0 * t.difference),
            Fixed(100.0 * t.ci_low),
            Fixed(100.0 * t.ci_high)
        ),
        warning: small_warning(n, "pairs").or_else(|| {
            (discordant < MIN_PAIRS).then(|| {
                format!("Only {discordant} pairs differ between the encodings: the test has little power.")
            })
        }),
    }
}

pub(crate) fn h2(observations: &[Observation]) -> Hypothesis {
    const TEST: &str = "chi-square tests of independence, recognition and generation success x shape (Bonferroni over the two)";
    let mut results = Vec::new();
    let mut n_total = 0;
    for (phase, name) in [
        (Phase::Recognize, "recognition"),
        (Phase::Generate, "generation"),
    ] {
        let table = shape_table(observations, phase);
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
                format!(
                    "chi2({}) = {:.2}, p {}",
                    c.df,
                    Fixed(c.statistic),
                    fmt_p(c.p)
                )
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
                format!("Some expected counts are below 5 (smallest {low:.1}): the chi-square approximation is rough.", low = Fixed(low))
            })
        }),
    }
}

/// The parameter count a model's name carries (`qwen2.5-7b-instruct`: 7e9, `Qwen3-0.6B`:
/// 6e8, `gemma-3-270m`: 2.7e8): the first number followed by `b` or `m` that starts a word
/// (so `A3B` of `Qwen3-30B-A3B` is not read).
fn parameters_named(model: &str) -> Option<f64> {
    let lower = model.to_ascii_lowercase();
    let b = lower.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let starts_word = i == 0 || !b[i - 1].is_ascii_alphanumeric() && b[i - 1] != b'.';
        if !(b[i].is_ascii_digit() && starts_word) {
            i += 1;
            continue;
        }
        let mut j = i;
        while j < b.len() && (b[j].is_ascii_digit() || b[j] == b'.') {
            j += 1;
        }
        let ends_word = |k: usize| k >= b.len() || !b[k].is_ascii_alphanumeric();
        if j < b.len() && matches!(b[j], b'b' | b'm') && ends_word(j + 1) {
            if let Ok(n) = lower[i..j].parse::<f64>() {
                return Some(n * if b[j] == b'b' { 1e9 } else { 1e6 });
            }
        }
        i = j;
    }
    None
}

/// H3's order when none is given: the run's own models (people left out), smallest first.
/// By the parameter count their names carry when at least two do
/// (`qwen2.5-0.5b-instruct < qwen2.5-7b-instruct`), else by Qwen's API tiers
/// ([`DEFAULT_MODEL_ORDER`]); a model whose size neither tells is left out (an order given by
/// name counts it).
pub fn run_model_order(observations: &[Observation]) -> Vec<String> {
    let models: std::collections::BTreeSet<&str> = observations
        .iter()
        .filter(|o| o.who.is_model())
        .map(|o| o.model.as_str())
        .collect();
    let mut sized: Vec<(f64, &str)> = models
        .iter()
        .filter_map(|m| parameters_named(m).map(|n| (n, *m)))
        .collect();
    if sized.len() >= 2 {
        crate::sort::sort_by(&mut sized, |a, b| a.0.total_cmp(&b.0).then(a.1.cmp(b.1)));
        return sized.into_iter().map(|(_, m)| m.to_string()).collect();
    }
    let tier = |m: &str| {
        let m = m.to_ascii_lowercase();
        DEFAULT_MODEL_ORDER.iter().position(|t| m.contains(t))
    };
    let mut tiered: Vec<(usize, &str)> = models
        .iter()
        .filter_map(|m| tier(m).map(|t| (t, *m)))
        .collect();
    crate::sort::sort_by_key(&mut tiered, |t| *t);
    tiered.into_iter().map(|(_, m)| m.to_string()).collect()
}

pub(crate) fn h3(observations: &[Observation], order: &[String]) -> Hypothesis {
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
            .filter_map(|o| o.scored(Phase::Solve))
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
    if order.len() < 2 {
        return Hypothesis::insufficient(
            TEST,
            n,
            "Fewer than two of the models have a known size (a size in the name, as 7b or 0.5B, or a Qwen tier): give H3's order, smallest first (report --order, or the H3 order field on /results).".into(),
        );
    }
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

pub(crate) fn h4(observations: &[Observation]) -> Hypothesis {
    const TEST: &str = "pairwise McNemar, solve vs recognize and recognize vs generate within trials (both must hold); statistic: Cochran's Q over the three phases";
    let rows: Vec<Vec<bool>> = observations
        .iter()
        .filter_map(|o| {
            Some(vec![
                o.scored(Phase::Solve)?,
                o.scored(Phase::Recognize)?,
                o.scored(Phase::Generate)?,
            ])
        })
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
            q.map_or(String::new(), |q| format!("; Cochran's Q({}) = {:.2}, p {}", q.df, Fixed(q.q), fmt_p(q.p)))
        ),
        warning: small_warning(n, "fully scored trials"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::analyze::{analyze, AnalysisOptions};
    use crate::maze::shape::Shape;

    use crate::analysis::test_support::obs;

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
        for (k, s) in Shape::STANDARD.iter().enumerate() {
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
            ..AnalysisOptions::default()
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
    fn a_models_size_is_read_from_its_name_where_a_word_starts() {
        for (name, size) in [
            ("qwen2.5-7b-instruct", Some(7e9)),
            ("Qwen3-0.6B", Some(0.6e9)),
            ("gemma-3-270m-it", Some(270e6)),
            ("qwen3:8b", Some(8e9)),
            ("Qwen3-30B-A3B", Some(30e9)),
            ("qwen-max", None),
            ("gpt-4o-mini", None),
            ("model-2.5", None),
        ] {
            assert_eq!(parameters_named(name), size, "{name}");
        }
    }

    #[test]
    fn without_an_order_h3_ranks_the_runs_own_models_by_the_size_their_names_carry() {
        let mut v = Vec::new();
        for (k, m) in [
            "qwen2.5-72b-instruct",
            "qwen2.5-0.5b-instruct",
            "qwen2.5-7b-instruct",
            "mystery",
        ]
        .iter()
        .enumerate()
        {
            for i in 0..20 {
                v.push(obs(
                    m,
                    Encoding::Matrix,
                    Shape::Square,
                    i,
                    [i < 5 * k, true, true],
                ));
            }
        }
        assert_eq!(
            run_model_order(&v),
            [
                "qwen2.5-0.5b-instruct",
                "qwen2.5-7b-instruct",
                "qwen2.5-72b-instruct"
            ],
            "smallest first; a model of no known size left out"
        );
        let an = analyze(&v, &AnalysisOptions::default());
        assert_eq!(
            an.model_order,
            run_model_order(&v),
            "the order used is reported"
        );
        assert!(
            an.hypotheses.h3.note.contains("qwen2.5-0.5b-instruct"),
            "{}",
            an.hypotheses.h3.note
        );
        let tiers: Vec<_> = ["qwen-max", "qwen-turbo", "qwen-plus"]
            .iter()
            .flat_map(|m| {
                (0..3).map(move |i| obs(m, Encoding::Matrix, Shape::Square, i, [true; 3]))
            })
            .collect();
        assert_eq!(
            run_model_order(&tiers),
            ["qwen-turbo", "qwen-plus", "qwen-max"],
            "names without a size ranked by Qwen's tiers"
        );
        let people: Vec<_> = tiers
            .iter()
            .map(|o| o.clone().played_by("p1".into(), None))
            .collect();
        assert!(
            run_model_order(&people).is_empty(),
            "people are no model size"
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
}
