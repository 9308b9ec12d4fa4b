//! The statistics the results dashboard, the report file and `shapemaze report` rest on:
//! proportions with Wilson intervals, McNemar's test for paired successes (exact for small
//! counts) with the paired difference and its interval, the chi-square test of
//! independence, one-way ANOVA, Spearman's rank correlation, the phi coefficient with a
//! Fisher-z interval, Cochran's Q and the Cochran-Armitage trend test.
//!
//! Every function is pure and returns `None` (never a panic, never a NaN in the result)
//! when its input cannot give an answer: no observations, no variation, too few groups.
//! The distributions come from `statrs` (no default features). The unit tests state each
//! input and the SciPy 1.17.1 figure it is checked against (`python3 -m pip install --break-system-packages scipy`).
//!
//! ```
//! use shapemaze_core::analysis::stats::wilson;
//!
//! let p = wilson(7, 20);
//! assert!((p.ci_low - 0.18119).abs() < 1e-4 && (p.ci_high - 0.56715).abs() < 1e-4);
//! ```

use serde::Serialize;
use statrs::distribution::{
    Binomial, ChiSquared, ContinuousCDF, DiscreteCDF, FisherSnedecor, Normal, StudentsT,
};

/// The 97.5th percentile of the standard normal distribution (two-sided 95% intervals).
pub const Z_95: f64 = 1.959_963_984_540_054;

/// The significance level every hypothesis verdict uses.
pub const ALPHA: f64 = 0.05;

/// Below this many discordant pairs McNemar's test is exact (binomial); from it on, the
/// chi-square version with continuity correction (the usual rule, e.g. Fagerland et al.
/// 2013 recommend the exact or mid-p test for small samples).
pub const MCNEMAR_EXACT_BELOW: usize = 25;

/// A proportion with its 95% Wilson score interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Proportion {
    /// Successes counted.
    pub successes: usize,
    /// Trials counted (the denominator; API errors are never in it).
    pub n: usize,
    /// `successes / n`, 0 when `n` is 0.
    pub rate: f64,
    /// Lower end of the 95% Wilson interval (0 when `n` is 0).
    pub ci_low: f64,
    /// Upper end of the 95% Wilson interval (1 when `n` is 0: nothing is known).
    pub ci_high: f64,
    /// Distinct maze instances among the units counted when the interval is clustered by
    /// maze ([`clustered`]); absent for a plain Wilson interval ([`wilson`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mazes: Option<usize>,
    /// The design effect the clustered interval used (the interval is Wilson's on
    /// `n / design_effect` trials); absent for a plain Wilson interval.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub design_effect: Option<f64>,
}

/// The Wilson score 95% interval of `successes` out of `n` (Wilson 1927). With `n` = 0
/// the rate is 0 and the interval the whole of [0, 1].
pub fn wilson(successes: usize, n: usize) -> Proportion {
    wilson_on(successes, n, n as f64)
}

/// `successes` out of `n` with Wilson's interval computed on `n_eff` units (`n` for the
/// plain interval, fewer for a clustered one).
fn wilson_on(successes: usize, n: usize, n_eff: f64) -> Proportion {
    let successes = successes.min(n);
    if n == 0 || n_eff <= 0.0 {
        return Proportion {
            successes,
            n,
            rate: 0.0,
            ci_low: 0.0,
            ci_high: 1.0,
            mazes: None,
            design_effect: None,
        };
    }
    let nf = n_eff;
    let p = successes as f64 / n as f64;
    let z2 = Z_95 * Z_95;
    let denom = 1.0 + z2 / nf;
    let centre = (p + z2 / (2.0 * nf)) / denom;
    let half = Z_95 * (p * (1.0 - p) / nf + z2 / (4.0 * nf * nf)).sqrt() / denom;
    Proportion {
        successes,
        n,
        rate: p,
        ci_low: if successes == 0 {
            0.0
        } else {
            (centre - half).max(0.0)
        },
        ci_high: if successes == n {
            1.0
        } else {
            (centre + half).min(1.0)
        },
        mazes: None,
        design_effect: None,
    }
}

/// A proportion whose units are clustered: `clusters` holds each cluster's `(successes,
/// units)` (a maze instance's trials, its repeats and players together), and the 95%
/// interval is Wilson's on the effective number of units `n / deff` (Kish's design
/// effect). `deff` is the ratio-estimator variance of the clustered proportion,
/// `m/(m-1) * sum_i (y_i - p n_i)^2 / n^2` over the `m` clusters, divided by the variance
/// of `n` independent units with the same small-sample correction, `p(1-p)/(n-1)`, and is
/// never below 1. So one unit per cluster gives exactly Wilson's interval; where the data
/// cannot show how alike a cluster's units are (one cluster, or every unit a success or
/// every one a failure) the units count as `m`, the number of clusters (the worst case:
/// each cluster's units all alike). Empty clusters are left out.
///
/// ```
/// use shapemaze_core::analysis::stats::{clustered, wilson};
///
/// // 15 successes in 30 trials of one maze know far less than in 30 mazes.
/// let one = clustered(&[(15, 30)]);
/// let many = clustered(&vec![(1, 1); 15].into_iter().chain(vec![(0, 1); 15]).collect::<Vec<_>>());
/// assert!(one.ci_high - one.ci_low > many.ci_high - many.ci_low);
/// assert_eq!((many.ci_low, many.mazes), (wilson(15, 30).ci_low, Some(30)));
/// ```
pub fn clustered(clusters: &[(usize, usize)]) -> Proportion {
    let used: Vec<(usize, usize)> = clusters
        .iter()
        .filter(|c| c.1 > 0)
        .map(|&(k, n)| (k.min(n), n))
        .collect();
    let m = used.len();
    let k: usize = used.iter().map(|c| c.0).sum();
    let n: usize = used.iter().map(|c| c.1).sum();
    let deff = if m == n {
        1.0
    } else if m < 2 || k == 0 || k == n {
        n as f64 / m as f64
    } else {
        let (nf, mf) = (n as f64, m as f64);
        let p = k as f64 / nf;
        let spread: f64 = used
            .iter()
            .map(|&(y, size)| (y as f64 - p * size as f64).powi(2))
            .sum();
        let clustered_var = mf / (mf - 1.0) * spread / (nf * nf);
        let independent_var = p * (1.0 - p) / (nf - 1.0);
        (clustered_var / independent_var).max(1.0)
    };
    Proportion {
        mazes: Some(m),
        design_effect: Some(deff),
        ..wilson_on(k, n, n as f64 / deff)
    }
}

/// Counts of paired binary outcomes: condition A against condition B on the same units.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct PairedCounts {
    /// Both succeeded.
    pub both: usize,
    /// Only A succeeded.
    pub only_a: usize,
    /// Only B succeeded.
    pub only_b: usize,
    /// Neither succeeded.
    pub neither: usize,
}

impl PairedCounts {
    /// Adds one pair.
    pub fn add(&mut self, a: bool, b: bool) {
        match (a, b) {
            (true, true) => self.both += 1,
            (true, false) => self.only_a += 1,
            (false, true) => self.only_b += 1,
            (false, false) => self.neither += 1,
        }
    }

    /// Pairs counted.
    pub fn n(&self) -> usize {
        self.both + self.only_a + self.only_b + self.neither
    }
}

/// McNemar's test on paired successes, with the difference in proportions.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct McNemar {
    /// The pairs.
    pub counts: PairedCounts,
    /// Whether the exact (binomial) test was used; else the chi-square version with
    /// continuity correction.
    pub exact: bool,
    /// The exact test's statistic is the smaller discordant count; the chi-square
    /// version's is `(|b - c| - 1)^2 / (b + c)` with 1 degree of freedom.
    pub statistic: f64,
    /// Two-sided p-value (1 when there is no discordant pair).
    pub p: f64,
    /// A's success rate minus B's.
    pub difference: f64,
    /// Lower end of the difference's 95% interval (Newcombe's hybrid score method 10).
    pub ci_low: f64,
    /// Upper end of the difference's 95% interval.
    pub ci_high: f64,
}

/// An exact test's two-sided p-value as a researcher expects it: at most 1, and 1 where a
/// sum of probabilities falls short of it by rounding alone (`2 * 0.49999999999999956`
/// from a binomial distribution's cumulative function is 1).
fn exact_p(p: f64) -> f64 {
    if p >= 1.0 - 1e-12 {
        1.0
    } else {
        p.max(0.0)
    }
}

/// McNemar's test for `counts` (exact below [`MCNEMAR_EXACT_BELOW`] discordant pairs), and
/// the paired difference in proportions with Newcombe's (1998) method-10 interval. `None`
/// without pairs.
pub fn mcnemar(counts: PairedCounts) -> Option<McNemar> {
    let n = counts.n();
    if n == 0 {
        return None;
    }
    let (b, c) = (counts.only_a, counts.only_b);
    let discordant = b + c;
    let exact = discordant < MCNEMAR_EXACT_BELOW;
    let (statistic, p) = if discordant == 0 {
        (0.0, 1.0)
    } else if exact {
        let k = b.min(c);
        let tail = Binomial::new(0.5, discordant as u64).ok()?.cdf(k as u64);
        (k as f64, exact_p(2.0 * tail))
    } else {
        let d = (b as f64 - c as f64).abs() - 1.0;
        let x = d * d / discordant as f64;
        (x, chi_square_sf(x, 1.0)?)
    };
    let (low, high) = paired_difference_ci(counts);
    Some(McNemar {
        counts,
        exact,
        statistic,
        p,
        difference: (b as f64 - c as f64) / n as f64,
        ci_low: low,
        ci_high: high,
    })
}

/// Newcombe's (1998) method 10 for the difference of paired proportions: the Wilson
/// intervals of both margins combined with the phi correlation of the pairs.
fn paired_difference_ci(t: PairedCounts) -> (f64, f64) {
    let n = t.n() as f64;
    let (a, b, c, d) = (
        t.both as f64,
        t.only_a as f64,
        t.only_b as f64,
        t.neither as f64,
    );
    let first = wilson(t.both + t.only_a, t.n());
    let second = wilson(t.both + t.only_b, t.n());
    let (p1, p2) = (first.rate, second.rate);
    let denom = ((a + b) * (c + d) * (a + c) * (b + d)).sqrt();
    let phi = if denom > 0.0 {
        (a * d - b * c) / denom
    } else {
        0.0
    };
    let delta = (b - c) / n;
    let (l1, u1, l2, u2) = (first.ci_low, first.ci_high, second.ci_low, second.ci_high);
    let dl = ((p1 - l1).powi(2) - 2.0 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2).powi(2))
        .max(0.0)
        .sqrt();
    let du = ((u1 - p1).powi(2) - 2.0 * phi * (u1 - p1) * (p2 - l2) + (p2 - l2).powi(2))
        .max(0.0)
        .sqrt();
    ((delta - dl).max(-1.0), (delta + du).min(1.0))
}

/// A chi-square test's result.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct ChiSquare {
    /// Pearson's chi-square statistic (no continuity correction).
    pub statistic: f64,
    /// Degrees of freedom.
    pub df: usize,
    /// The p-value.
    pub p: f64,
    /// Observations in the table.
    pub n: usize,
    /// The smallest expected count: below 5 the chi-square approximation is doubtful.
    pub min_expected: f64,
}

/// Pearson's chi-square test of independence on an r x c table of counts (rows and
/// columns that are all zero are dropped first). `None` when fewer than two rows or
/// columns are left.
pub fn chi_square_independence(table: &[Vec<usize>]) -> Option<ChiSquare> {
    let cols = table.iter().map(Vec::len).max().unwrap_or(0);
    let cell = |r: &Vec<usize>, j: usize| r.get(j).copied().unwrap_or(0);
    let keep_cols: Vec<usize> = (0..cols)
        .filter(|&j| table.iter().any(|r| cell(r, j) > 0))
        .collect();
    let rows: Vec<Vec<f64>> = table
        .iter()
        .filter(|r| r.iter().any(|&x| x > 0))
        .map(|r| keep_cols.iter().map(|&j| cell(r, j) as f64).collect())
        .collect();
    if rows.len() < 2 || keep_cols.len() < 2 {
        return None;
    }
    let row_sums: Vec<f64> = rows.iter().map(|r| r.iter().sum()).collect();
    let col_sums: Vec<f64> = (0..keep_cols.len())
        .map(|j| rows.iter().map(|r| r[j]).sum())
        .collect();
    let total: f64 = row_sums.iter().sum();
    let mut statistic = 0.0;
    let mut min_expected = f64::INFINITY;
    for (r, rs) in rows.iter().zip(&row_sums) {
        for (x, cs) in r.iter().zip(&col_sums) {
            let e = rs * cs / total;
            min_expected = min_expected.min(e);
            statistic += (x - e).powi(2) / e;
        }
    }
    let df = (rows.len() - 1) * (keep_cols.len() - 1);
    Some(ChiSquare {
        statistic,
        df,
        p: chi_square_sf(statistic, df as f64)?,
        n: total as usize,
        min_expected,
    })
}

/// A one-way ANOVA's result.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Anova {
    /// The F statistic.
    pub f: f64,
    /// Between-groups degrees of freedom (groups - 1).
    pub df1: usize,
    /// Within-groups degrees of freedom (observations - groups).
    pub df2: usize,
    /// The p-value.
    pub p: f64,
    /// Observations.
    pub n: usize,
}

/// One-way analysis of variance across `groups` (empty groups are dropped). `None` with
/// fewer than two groups, no within-group degrees of freedom, or no variation within the
/// groups (F undefined or infinite).
pub fn one_way_anova(groups: &[Vec<f64>]) -> Option<Anova> {
    let groups: Vec<&Vec<f64>> = groups.iter().filter(|g| !g.is_empty()).collect();
    let k = groups.len();
    let n: usize = groups.iter().map(|g| g.len()).sum();
    if k < 2 || n <= k {
        return None;
    }
    let grand = groups.iter().flat_map(|g| g.iter()).sum::<f64>() / n as f64;
    let mut between = 0.0;
    let mut within = 0.0;
    for g in &groups {
        let mean = g.iter().sum::<f64>() / g.len() as f64;
        between += g.len() as f64 * (mean - grand).powi(2);
        within += g.iter().map(|x| (x - mean).powi(2)).sum::<f64>();
    }
    let (df1, df2) = (k - 1, n - k);
    if within <= f64::EPSILON * n as f64 {
        return None;
    }
    let f = (between / df1 as f64) / (within / df2 as f64);
    let p = p_value(FisherSnedecor::new(df1 as f64, df2 as f64).ok()?.sf(f))?;
    Some(Anova { f, df1, df2, p, n })
}

/// The ranks of `xs` (1-based), ties given their average rank.
pub fn ranks(xs: &[f64]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..xs.len()).collect();
    crate::sort::sort_by(&mut order, |&a, &b| xs[a].total_cmp(&xs[b]));
    let mut out = vec![0.0; xs.len()];
    let mut i = 0;
    while i < order.len() {
        let mut j = i;
        while j + 1 < order.len() && xs[order[j + 1]] == xs[order[i]] {
            j += 1;
        }
        let avg = (i + j) as f64 / 2.0 + 1.0;
        for &o in &order[i..=j] {
            out[o] = avg;
        }
        i = j + 1;
    }
    out
}

/// A correlation coefficient with its test.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Correlation {
    /// The coefficient, from -1 to 1.
    pub r: f64,
    /// Two-sided p-value.
    pub p: f64,
    /// Observations (pairs).
    pub n: usize,
}

fn pearson(x: &[f64], y: &[f64]) -> Option<f64> {
    let n = x.len() as f64;
    let (mx, my) = (x.iter().sum::<f64>() / n, y.iter().sum::<f64>() / n);
    let (mut sxy, mut sxx, mut syy) = (0.0, 0.0, 0.0);
    for (a, b) in x.iter().zip(y) {
        sxy += (a - mx) * (b - my);
        sxx += (a - mx).powi(2);
        syy += (b - my).powi(2);
    }
    (sxx > 0.0 && syy > 0.0).then(|| (sxy / (sxx * syy).sqrt()).clamp(-1.0, 1.0))
}

/// Spearman's rank correlation of paired samples (ties by average ranks: Pearson's r on
/// the ranks), with the two-sided p-value of the t approximation on n - 2 degrees of
/// freedom (as SciPy's `spearmanr`). `None` with fewer than 3 pairs, unequal lengths or a
/// constant sample.
pub fn spearman(x: &[f64], y: &[f64]) -> Option<Correlation> {
    let n = x.len();
    if n < 3 || y.len() != n {
        return None;
    }
    let r = pearson(&ranks(x), &ranks(y))?;
    let df = (n - 2) as f64;
    let p = if r.abs() >= 1.0 {
        0.0
    } else {
        let t = r * (df / (1.0 - r * r)).sqrt();
        2.0 * p_value(StudentsT::new(0.0, 1.0, df).ok()?.sf(t.abs()))?
    };
    Some(Correlation { r, p, n })
}

/// The phi coefficient of a 2x2 table with its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Phi {
    /// The coefficient (Pearson's r of the two binary variables).
    pub phi: f64,
    /// Lower end of the 95% interval (Fisher's z, standard error 1/sqrt(n - 3)).
    pub ci_low: f64,
    /// Upper end.
    pub ci_high: f64,
    /// Pairs.
    pub n: usize,
}

/// The phi coefficient of paired binary outcomes (`only_a` = first true, second false),
/// with a Fisher-z 95% interval (as SciPy's `pearsonr(...).confidence_interval()`). `None`
/// with 3 pairs or fewer or when either variable is constant.
pub fn phi(t: PairedCounts) -> Option<Phi> {
    let n = t.n();
    let (a, b, c, d) = (
        t.both as f64,
        t.only_a as f64,
        t.only_b as f64,
        t.neither as f64,
    );
    let denom = ((a + b) * (c + d) * (a + c) * (b + d)).sqrt();
    if n <= 3 || denom <= 0.0 {
        return None;
    }
    let phi = ((a * d - b * c) / denom).clamp(-1.0, 1.0);
    let (ci_low, ci_high) = if phi.abs() >= 1.0 {
        (phi, phi)
    } else {
        let z = phi.atanh();
        let se = 1.0 / ((n - 3) as f64).sqrt();
        ((z - Z_95 * se).tanh(), (z + Z_95 * se).tanh())
    };
    Some(Phi {
        phi,
        ci_low,
        ci_high,
        n,
    })
}

/// Cochran's Q test's result.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct CochranQ {
    /// The Q statistic (chi-square with k - 1 degrees of freedom under the null).
    pub q: f64,
    /// Degrees of freedom (conditions - 1).
    pub df: usize,
    /// The p-value.
    pub p: f64,
    /// Units (rows).
    pub n: usize,
}

/// Cochran's Q test that k paired binary conditions share one success rate; each row is
/// one unit's outcomes under the k conditions (all rows as long as the first). `None`
/// with fewer than 2 conditions, no rows, or no unit that differs between conditions.
pub fn cochran_q(rows: &[Vec<bool>]) -> Option<CochranQ> {
    let k = rows.first()?.len();
    if k < 2 || rows.iter().any(|r| r.len() != k) {
        return None;
    }
    let kf = k as f64;
    let mut col = vec![0.0; k];
    let mut total = 0.0;
    let mut row_sq = 0.0;
    for r in rows {
        let s = r.iter().filter(|&&x| x).count() as f64;
        total += s;
        row_sq += s * s;
        for (c, &x) in col.iter_mut().zip(r) {
            if x {
                *c += 1.0;
            }
        }
    }
    let denom = kf * total - row_sq;
    if denom <= 0.0 {
        return None;
    }
    let q = (kf - 1.0) * (kf * col.iter().map(|c| c * c).sum::<f64>() - total * total) / denom;
    Some(CochranQ {
        q,
        df: k - 1,
        p: chi_square_sf(q, kf - 1.0)?,
        n: rows.len(),
    })
}

/// The Cochran-Armitage test for a linear trend in proportions.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Trend {
    /// The z statistic: positive when success rises with the score.
    pub z: f64,
    /// Two-sided p-value.
    pub p: f64,
    /// Observations.
    pub n: usize,
}

/// The Cochran-Armitage trend test over ordered groups, each `(successes, trials)`,
/// scored 0, 1, 2, ... in the order given (Armitage 1955; the statistic equals
/// sqrt(N) times Pearson's r between score and outcome). `None` with fewer than two
/// non-empty groups or when every outcome is the same.
pub fn cochran_armitage(groups: &[(usize, usize)]) -> Option<Trend> {
    let used: Vec<(f64, f64, f64)> = groups
        .iter()
        .enumerate()
        .filter(|(_, (_, n))| *n > 0)
        .map(|(i, &(s, n))| (i as f64, s.min(n) as f64, n as f64))
        .collect();
    if used.len() < 2 {
        return None;
    }
    let big_n: f64 = used.iter().map(|g| g.2).sum();
    let r: f64 = used.iter().map(|g| g.1).sum();
    let p_bar = r / big_n;
    let s_bar = used.iter().map(|g| g.0 * g.2).sum::<f64>() / big_n;
    let t: f64 = used
        .iter()
        .map(|g| (g.0 - s_bar) * (g.1 - g.2 * p_bar))
        .sum();
    let var = p_bar
        * (1.0 - p_bar)
        * used
            .iter()
            .map(|g| g.2 * (g.0 - s_bar).powi(2))
            .sum::<f64>();
    if var <= 0.0 {
        return None;
    }
    let z = t / var.sqrt();
    Some(Trend {
        z,
        p: 2.0 * p_value(Normal::new(0.0, 1.0).ok()?.sf(z.abs()))?,
        n: big_n as usize,
    })
}

/// The upper tail of the chi-square distribution with `df` degrees of freedom (1 for `x`
/// <= 0). `None` for a NaN `x` or unless `df` is positive and finite.
pub fn chi_square_sf(x: f64, df: f64) -> Option<f64> {
    if !df.is_finite() {
        return None;
    }
    p_value(ChiSquared::new(df).ok()?.sf(x))
}

/// A distribution's tail as a p-value: `None` for NaN (a NaN argument).
fn p_value(p: f64) -> Option<f64> {
    (!p.is_nan()).then_some(p)
}

/// Mean of a sample (`None` when empty).
pub fn mean(xs: &[f64]) -> Option<f64> {
    (!xs.is_empty()).then(|| xs.iter().sum::<f64>() / xs.len() as f64)
}

/// Median of a sample (`None` when empty).
pub fn median(xs: &[f64]) -> Option<f64> {
    if xs.is_empty() {
        return None;
    }
    let mut v = xs.to_vec();
    crate::sort::sort_by(&mut v, f64::total_cmp);
    let m = v.len() / 2;
    Some(if v.len().is_multiple_of(2) {
        (v[m - 1] + v[m]) / 2.0
    } else {
        v[m]
    })
}

/// Up to this many non-zero differences the signed-rank test is exact; above, its normal
/// approximation (as SciPy's `wilcoxon` does from 50 on).
pub const SIGNED_RANK_EXACT_UP_TO: usize = 50;

/// The Wilcoxon signed-rank test's result.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct SignedRank {
    /// The smaller of the positive and negative rank sums (SciPy's two-sided statistic).
    pub statistic: f64,
    /// Two-sided p-value.
    pub p: f64,
    /// Non-zero differences ranked (zeros are dropped, as Wilcoxon's method does).
    pub n: usize,
    /// Whether the p-value is exact (the permutation distribution of the ranks, ties
    /// given their average rank); else the normal approximation with tie and continuity
    /// corrections.
    pub exact: bool,
}

/// The Wilcoxon signed-rank test that paired differences `d` centre on 0. Zeros are
/// dropped; ties share their average rank. Exact up to [`SIGNED_RANK_EXACT_UP_TO`]
/// non-zero differences (every sign pattern of the ranks counted), the normal
/// approximation above. `None` when every difference is 0 (nothing differs: the caller
/// says p = 1) or one is not finite.
pub fn wilcoxon_signed_rank(d: &[f64]) -> Option<SignedRank> {
    if d.iter().any(|x| !x.is_finite()) {
        return None;
    }
    let nonzero: Vec<f64> = d.iter().copied().filter(|&x| x != 0.0).collect();
    let n = nonzero.len();
    if n == 0 {
        return None;
    }
    let r = ranks(&nonzero.iter().map(|x| x.abs()).collect::<Vec<_>>());
    let plus: f64 = r
        .iter()
        .zip(&nonzero)
        .filter(|(_, &x)| x > 0.0)
        .map(|(r, _)| r)
        .sum();
    let total = (n * (n + 1)) as f64 / 2.0;
    let statistic = plus.min(total - plus);
    let (p, exact) = if n <= SIGNED_RANK_EXACT_UP_TO {
        // Ranks are whole or halves: count sign patterns over the doubled ranks.
        let doubled: Vec<usize> = r.iter().map(|x| (2.0 * x).round() as usize).collect();
        let top: usize = doubled.iter().sum();
        let mut ways = vec![0f64; top + 1];
        ways[0] = 1.0;
        let mut reach = 0;
        for &w in &doubled {
            reach += w;
            for s in (w..=reach).rev() {
                ways[s] += ways[s - w];
            }
        }
        let all: f64 = ways.iter().sum();
        let low = (2.0 * statistic).round() as usize;
        let tail: f64 = ways[..=low.min(top)].iter().sum();
        (exact_p(2.0 * tail / all), true)
    } else {
        let mut sorted = r.clone();
        crate::sort::sort_by(&mut sorted, f64::total_cmp);
        let mut ties = 0.0;
        let mut i = 0;
        while i < sorted.len() {
            let j = sorted[i..].iter().take_while(|&&x| x == sorted[i]).count();
            let t = j as f64;
            ties += t * t * t - t;
            i += j;
        }
        let nf = n as f64;
        let var = nf * (nf + 1.0) * (2.0 * nf + 1.0) / 24.0 - ties / 48.0;
        if var <= 0.0 {
            return None;
        }
        let z = ((total / 2.0 - statistic).abs() - 0.5).max(0.0) / var.sqrt();
        let p = 2.0 * p_value(Normal::new(0.0, 1.0).ok()?.sf(z))?;
        (p.min(1.0), false)
    };
    Some(SignedRank {
        statistic,
        p,
        n,
        exact,
    })
}

/// The mean of `xs` with its 95% Student-t interval, `mean -/+ t(0.975, n-1) s / sqrt(n)`:
/// `(mean, low, high)`; `None` with fewer than 2 values. With no spread the interval is
/// the mean itself.
pub fn mean_t_interval(xs: &[f64]) -> Option<(f64, f64, f64)> {
    let n = xs.len();
    if n < 2 {
        return None;
    }
    let m = mean(xs)?;
    let var = xs.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (n - 1) as f64;
    let t = StudentsT::new(0.0, 1.0, (n - 1) as f64)
        .ok()?
        .inverse_cdf(0.975);
    let half = t * (var / n as f64).sqrt();
    (half.is_finite()).then_some((m, m - half, m + half))
}

/// Where `x` stands among `values`, as a percentile from 0 to 100: the share of values
/// below it plus half the share equal to it (the mid-rank percentile, so a value equal
/// to every other stands at 50). `None` when `values` is empty.
pub fn percentile_rank(values: &[f64], x: f64) -> Option<f64> {
    if values.is_empty() {
        return None;
    }
    let below = values.iter().filter(|&&v| v < x).count() as f64;
    let equal = values.iter().filter(|&&v| v == x).count() as f64;
    Some(100.0 * (below + equal / 2.0) / values.len() as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(got: f64, want: f64, tol: f64, what: &str) {
        assert!(
            (got - want).abs() <= tol,
            "{what}: got {got}, SciPy gives {want}"
        );
    }

    fn pairs(both: usize, only_a: usize, only_b: usize, neither: usize) -> PairedCounts {
        PairedCounts {
            both,
            only_a,
            only_b,
            neither,
        }
    }

    #[test]
    fn an_exact_test_that_cannot_tell_the_two_apart_has_p_one_exactly() {
        // Equal discordant pairs: the two-sided exact p is 1, not 1 less a rounding error.
        for k in 1..12 {
            let m = mcnemar(PairedCounts {
                both: 3,
                only_a: k,
                only_b: k,
                neither: 2,
            })
            .expect("pairs");
            assert_eq!(m.p, 1.0, "{k} and {k} discordant pairs");
        }
        assert_eq!(exact_p(0.999_999_999_999_999_1), 1.0);
        assert_eq!(exact_p(1.000_000_000_000_002), 1.0);
        assert_eq!(exact_p(0.25), 0.25);
    }

    #[test]
    fn wilson_intervals_match_scipy() {
        // scipy.stats.binomtest(k, n).proportion_ci(0.95, 'wilson') (SciPy 1.17.1):
        // 7/20 -> (0.1811918241010821, 0.5671457233147637); 27/30 -> (0.7437891742081592,
        // 0.9654001112526657); 0/10 -> (0.0, 0.27753279986288926); 10/10 -> (0.7224672001371109, 1.0).
        for (k, n, lo, hi) in [
            (7, 20, 0.1811918241010821, 0.5671457233147637),
            (27, 30, 0.7437891742081592, 0.9654001112526657),
            (0, 10, 0.0, 0.27753279986288926),
            (10, 10, 0.7224672001371109, 1.0),
        ] {
            let p = wilson(k, n);
            close(p.ci_low, lo, 1e-9, &format!("low of {k}/{n}"));
            close(p.ci_high, hi, 1e-9, &format!("high of {k}/{n}"));
            close(p.rate, k as f64 / n as f64, 1e-12, "rate");
        }
    }

    #[test]
    fn thirty_repeats_of_one_maze_know_less_than_thirty_mazes() {
        // 15 successes in 30 trials. On 30 mazes, one trial each: Wilson's interval on 30,
        // (0.33154125640533766, 0.6684587435946623). On one maze: the trials cannot show
        // how alike a maze's repeats are, so they count as one: Wilson's on p = 0.5,
        // n = 1, (0.05462075552885198, 0.945379244471148).
        let mut distinct = vec![(1, 1); 15];
        distinct.resize(30, (0, 1));
        let many = clustered(&distinct);
        let one = clustered(&[(15, 30)]);
        assert_eq!((many.mazes, one.mazes), (Some(30), Some(1)));
        assert_eq!(
            (one.successes, one.n),
            (15, 30),
            "the counts stay the trials'"
        );
        close(many.ci_low, 0.33154125640533766, 1e-12, "30 mazes, low");
        close(many.ci_high, 0.6684587435946623, 1e-12, "30 mazes, high");
        assert_eq!(
            (many.ci_low, many.ci_high),
            (wilson(15, 30).ci_low, wilson(15, 30).ci_high),
            "one trial per maze is exactly Wilson's"
        );
        close(one.ci_low, 0.05462075552885198, 1e-12, "one maze, low");
        close(one.ci_high, 0.945379244471148, 1e-12, "one maze, high");
        assert!(
            one.ci_high - one.ci_low > many.ci_high - many.ci_low,
            "repeats widen the interval"
        );
    }

    #[test]
    fn the_design_effect_is_the_ratio_estimators_variance_over_independent_trials() {
        // Mazes with (successes, trials) (3, 4), (1, 3), (0, 2), (2, 2): k = 6, n = 11,
        // p = 6/11, m = 4. sum (y - p n)^2 = 3.090909...; clustered variance
        // 4/3 * 3.0909/121 = 0.03405960430753819; independent p(1-p)/10 =
        // 0.024793388429752067; deff 1.3737373737373737, n_eff 8.007352941176471; Wilson
        // on p = 6/11 and n_eff: (0.24681847277832453, 0.8146173227343612) (by hand in
        // Python from the formula).
        let p = clustered(&[(3, 4), (1, 3), (0, 2), (2, 2)]);
        assert_eq!((p.successes, p.n, p.mazes), (6, 11, Some(4)));
        close(
            p.design_effect.expect("a design effect"),
            1.3737373737373737,
            1e-12,
            "deff",
        );
        close(p.ci_low, 0.24681847277832453, 1e-12, "low");
        close(p.ci_high, 0.8146173227343612, 1e-12, "high");
        // (2, 2), (0, 2), (1, 2): p 0.5, deff (3/2 * 2/36) / (0.25/5) = 5/3, n_eff 3.6:
        // (0.14075638831899118, 0.8592436116810088).
        let p = clustered(&[(2, 2), (0, 2), (1, 2)]);
        close(p.ci_low, 0.14075638831899118, 1e-12, "low of three pairs");
        close(p.ci_high, 0.8592436116810088, 1e-12, "high of three pairs");
    }

    #[test]
    fn clustered_intervals_never_narrow_and_count_all_alike_repeats_as_their_mazes() {
        // Repeats that differ less than chance would have them: the design effect stays 1.
        let p = clustered(&[(1, 2), (1, 2), (1, 2), (1, 2)]);
        assert_eq!(p.design_effect, Some(1.0), "never below 1");
        close(p.ci_low, wilson(4, 8).ci_low, 1e-12, "as if independent");
        // Every trial a success: 4 mazes x 3 repeats count as 4, Wilson's 4/4.
        let p = clustered(&[(3, 3); 4]);
        assert_eq!((p.successes, p.n, p.design_effect), (12, 12, Some(3.0)));
        close(
            p.ci_low,
            wilson(4, 4).ci_low,
            1e-12,
            "all alike: the mazes count",
        );
        assert_eq!(p.ci_high, 1.0);
        let none = clustered(&[(0, 0)]);
        assert_eq!(
            (none.n, none.mazes, none.ci_low, none.ci_high),
            (0, Some(0), 0.0, 1.0)
        );
    }

    #[test]
    fn the_signed_rank_test_counts_every_sign_pattern_of_the_ranks() {
        // scipy.stats.wilcoxon([1, 2, 3, 4, 5]) (exact): statistic 0, p 0.0625; by
        // enumerating the 2^n sign patterns in Python: [1, -2, 3, 4, -5, 6] -> 7, 0.5625;
        // with a zero and tied ranks, [0.5, 1, 1, -0.5, 1, 0, 0.5, 1] -> 2, 0.0625.
        for (d, stat, p) in [
            (vec![1.0, 2.0, 3.0, 4.0, 5.0], 0.0, 0.0625),
            (vec![1.0, -2.0, 3.0, 4.0, -5.0, 6.0], 7.0, 0.5625),
            (vec![0.5, 1.0, 1.0, -0.5, 1.0, 0.0, 0.5, 1.0], 2.0, 0.0625),
        ] {
            let w = wilcoxon_signed_rank(&d).expect("differences");
            assert!(w.exact, "small samples are exact");
            close(w.statistic, stat, 1e-12, &format!("statistic of {d:?}"));
            close(w.p, p, 1e-12, &format!("p of {d:?}"));
        }
        assert!(
            wilcoxon_signed_rank(&[0.0, 0.0]).is_none(),
            "nothing differs"
        );
    }

    #[test]
    fn the_signed_rank_test_of_many_differences_uses_the_normal_approximation() {
        // 60 differences 1..=60, all positive: W- = 0, mean 915, variance 60*61*121/24 =
        // 18452.5, z = (915 - 0.5)/sqrt(18452.5) = 6.732185944987443; p = 2 * norm.sf(z)
        // = 1.671328569652656e-11 (math.erfc(z / sqrt(2)) in Python).
        let d: Vec<f64> = (1..=60).map(f64::from).collect();
        let w = wilcoxon_signed_rank(&d).expect("differences");
        assert!(!w.exact);
        close(w.p, 1.671328569652656e-11, 1e-20, "p");
    }

    #[test]
    fn the_mean_has_a_student_t_interval_and_a_value_its_percentile() {
        // [1, 0, 0.5, 1, -0.5]: mean 0.4, s^2 0.425, t(0.975, 4) 2.7764451051977987:
        // (-0.40946589235435327, 1.2094658923543533).
        let (m, low, high) = mean_t_interval(&[1.0, 0.0, 0.5, 1.0, -0.5]).expect("five values");
        close(m, 0.4, 1e-12, "mean");
        close(low, -0.40946589235435327, 1e-9, "low");
        close(high, 1.2094658923543533, 1e-9, "high");
        assert!(mean_t_interval(&[1.0]).is_none(), "one value has no spread");
        // 0.5 among [0.25, 0.5, 0.75, 1.0]: one below, one equal -> (1 + 0.5) / 4 = 37.5.
        assert_eq!(percentile_rank(&[0.25, 0.5, 0.75, 1.0], 0.5), Some(37.5));
        assert_eq!(percentile_rank(&[0.2, 0.4], 1.0), Some(100.0));
        assert_eq!(percentile_rank(&[], 1.0), None);
    }

    #[test]
    fn a_proportion_of_nothing_knows_nothing() {
        let p = wilson(0, 0);
        assert_eq!(
            (p.rate, p.ci_low, p.ci_high),
            (0.0, 0.0, 1.0),
            "n = 0 spans [0, 1]"
        );
    }

    #[test]
    fn exact_mcnemar_matches_the_binomial_test() {
        // scipy.stats.binomtest(min(b, c), b + c, 0.5).pvalue: b=3, c=11 -> 0.057373046875;
        // b=2, c=0 -> 0.5; b=5, c=5 -> 1.0.
        for (b, c, want) in [(3, 11, 0.057373046875), (2, 0, 0.5), (5, 5, 1.0)] {
            let m = mcnemar(pairs(10, b, c, 10)).expect("pairs exist");
            assert!(m.exact, "{b}+{c} discordant pairs use the exact test");
            close(m.p, want, 1e-12, &format!("exact p for b={b}, c={c}"));
        }
    }

    #[test]
    fn mcnemar_with_many_discordant_pairs_uses_the_corrected_chi_square() {
        // x = (|b - c| - 1)^2 / (b + c); scipy.stats.chi2.sf(x, 1): b=30, c=12 ->
        // x = 6.880952380952381, p = 0.008711912962379598; b=40, c=20 -> x = 6.016666666666667,
        // p = 0.014171388254012323.
        for (b, c, x, want) in [
            (30, 12, 6.880952380952381, 0.008711912962379598),
            (40, 20, 6.016666666666667, 0.014171388254012323),
        ] {
            let m = mcnemar(pairs(50, b, c, 50)).expect("pairs exist");
            assert!(!m.exact, "{} discordant pairs use chi-square", b + c);
            close(m.statistic, x, 1e-12, "statistic");
            close(m.p, want, 1e-10, "p");
        }
    }

    #[test]
    fn the_paired_difference_interval_follows_newcombe_method_ten() {
        // Table a=20 (both), b=15, c=5, d=10 (n=50): difference (15-5)/50 = 0.2. Reference:
        // Newcombe (1998) method 10 computed in Python from the published formula with
        // SciPy's Wilson intervals (binomtest(35, 50) and binomtest(25, 50), 'wilson') and
        // phi = (20*10 - 15*5)/sqrt(35*15*25*25) = 0.2182178902359924:
        // (0.030502822901462556, 0.35283592771870453).
        let m = mcnemar(pairs(20, 15, 5, 10)).expect("pairs exist");
        close(m.difference, 0.2, 1e-12, "difference");
        close(m.ci_low, 0.030502822901462556, 1e-9, "low");
        close(m.ci_high, 0.35283592771870453, 1e-9, "high");
    }

    #[test]
    fn mcnemar_without_pairs_or_disagreement_says_so() {
        assert!(
            mcnemar(PairedCounts::default()).is_none(),
            "no pairs, no test"
        );
        let m = mcnemar(pairs(30, 0, 0, 0)).expect("pairs exist");
        assert_eq!((m.p, m.difference), (1.0, 0.0), "no discordant pair: p = 1");
    }

    #[test]
    fn chi_square_of_independence_matches_scipy() {
        // scipy.stats.chi2_contingency([[10,20,30],[20,15,5]], correction=False):
        // statistic 18.650793650793652, dof 2, p 8.913158246593224e-05.
        let c = chi_square_independence(&[vec![10, 20, 30], vec![20, 15, 5]]).expect("2x3");
        close(c.statistic, 18.650793650793652, 1e-9, "statistic");
        assert_eq!(c.df, 2, "df of a 2x3 table");
        close(c.p, 8.913158246593224e-05, 1e-12, "p");
        // [[25,22,18,15,12,8],[5,8,12,15,18,22]]: 26.91, dof 5, p 5.939108927206665e-05.
        let c = chi_square_independence(&[vec![25, 22, 18, 15, 12, 8], vec![5, 8, 12, 15, 18, 22]])
            .expect("2x6");
        close(c.statistic, 26.91, 1e-9, "statistic 2x6");
        assert_eq!(c.df, 5, "df of a 2x6 table");
        close(c.p, 5.939108927206665e-05, 1e-12, "p 2x6");
    }

    #[test]
    fn a_chi_square_with_one_non_empty_column_is_not_computed() {
        // Every trial succeeded: the failure column is all zero and is dropped.
        assert!(
            chi_square_independence(&[vec![30, 0], vec![30, 0]]).is_none(),
            "a single outcome column leaves no test"
        );
    }

    #[test]
    fn one_way_anova_matches_scipy() {
        // scipy.stats.f_oneway([1,2,3,4],[2,3,4,5,6],[5,6,7]):
        // F 5.5588235294117645, p 0.026791310730398466.
        let a = one_way_anova(&[
            vec![1.0, 2.0, 3.0, 4.0],
            vec![2.0, 3.0, 4.0, 5.0, 6.0],
            vec![5.0, 6.0, 7.0],
        ])
        .expect("three groups");
        close(a.f, 5.5588235294117645, 1e-9, "F");
        assert_eq!((a.df1, a.df2), (2, 9), "df");
        close(a.p, 0.026791310730398466, 1e-10, "p");
    }

    #[test]
    fn anova_without_variation_is_not_computed() {
        assert!(
            one_way_anova(&[vec![1.0, 1.0], vec![1.0, 1.0]]).is_none(),
            "constant data"
        );
        assert!(one_way_anova(&[vec![1.0, 2.0]]).is_none(), "one group");
    }

    #[test]
    fn spearman_with_ties_matches_scipy() {
        // scipy.stats.spearmanr([1,2,2,3,4,5,6], [2,1,4,3,3,6,5]):
        // 0.7454545454545455, p 0.05444053868643693.
        let c = spearman(
            &[1.0, 2.0, 2.0, 3.0, 4.0, 5.0, 6.0],
            &[2.0, 1.0, 4.0, 3.0, 3.0, 6.0, 5.0],
        )
        .expect("seven pairs");
        close(c.r, 0.7454545454545455, 1e-12, "rho");
        close(c.p, 0.05444053868643693, 1e-10, "p");
        // spearmanr([1..6], [1,3,2,5,4,6]): 0.8857142857142858, p 0.01884548104956266.
        let c = spearman(
            &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0],
            &[1.0, 3.0, 2.0, 5.0, 4.0, 6.0],
        )
        .expect("six pairs");
        close(c.r, 0.8857142857142858, 1e-12, "rho of six");
        close(c.p, 0.01884548104956266, 1e-10, "p of six");
    }

    #[test]
    fn average_ranks_share_ties() {
        assert_eq!(
            ranks(&[10.0, 20.0, 20.0, 5.0]),
            vec![2.0, 3.5, 3.5, 1.0],
            "ties get the mean of their ranks"
        );
    }

    #[test]
    fn phi_and_its_interval_match_pearsonr() {
        // a=20 (both 1), b=5 (x=1, y=0), c=10 (x=0, y=1), d=15: scipy.stats.pearsonr on
        // the 50 expanded 0/1 pairs gives 0.4082482904638629, confidence_interval(0.95)
        // (0.14655426267955923, 0.6165359576277812).
        let p = phi(pairs(20, 5, 10, 15)).expect("a 2x2 table");
        close(p.phi, 0.4082482904638629, 1e-12, "phi");
        close(p.ci_low, 0.14655426267955923, 1e-9, "low");
        close(p.ci_high, 0.6165359576277812, 1e-9, "high");
    }

    #[test]
    fn cochran_q_matches_the_textbook_formula() {
        // 12 units x 3 conditions (rows below); Q = (k-1)(k sum C_j^2 - N^2)/(k N - sum R_i^2)
        // = 9.6, p = scipy.stats.chi2.sf(9.6, 2) = 0.008229747049020028.
        let rows: Vec<Vec<bool>> = [
            [1, 1, 0],
            [1, 0, 0],
            [1, 1, 1],
            [1, 0, 0],
            [0, 0, 0],
            [1, 1, 0],
            [1, 0, 1],
            [1, 1, 0],
            [0, 1, 0],
            [1, 0, 0],
            [1, 1, 0],
            [1, 0, 0],
        ]
        .iter()
        .map(|r| r.iter().map(|&x| x == 1).collect())
        .collect();
        let q = cochran_q(&rows).expect("variation exists");
        close(q.q, 9.6, 1e-12, "Q");
        assert_eq!(q.df, 2, "df");
        close(q.p, 0.008229747049020028, 1e-12, "p");
    }

    #[test]
    fn cochran_armitage_matches_sqrt_n_times_pearson_r() {
        // Scores 0, 1, 2 with 10/30, 15/30, 22/30 successes: sqrt(90) *
        // scipy.stats.pearsonr(score, outcome).statistic = 3.1014513529643764,
        // 2 * scipy.stats.norm.sf(z) = 0.0019257451148188116.
        let t = cochran_armitage(&[(10, 30), (15, 30), (22, 30)]).expect("three groups");
        close(t.z, 3.1014513529643764, 1e-9, "z");
        close(t.p, 0.0019257451148188116, 1e-9, "p");
        assert!(
            cochran_armitage(&[(30, 30), (30, 30)]).is_none(),
            "all successes: no trend test"
        );
    }

    #[test]
    fn mean_and_median_of_small_samples() {
        assert_eq!(mean(&[1.0, 2.0, 6.0]), Some(3.0), "mean");
        assert_eq!(median(&[4.0, 1.0, 3.0, 2.0]), Some(2.5), "even median");
        assert_eq!(median(&[]), None, "empty median");
    }
}
