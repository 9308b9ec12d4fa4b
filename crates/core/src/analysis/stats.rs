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

/// A tally of yes-or-no results: how many of `total` were `right` (successes, agreements,
/// completed sessions), where two bare numbers would say nothing of which is which.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct Tally {
    /// The results that were right.
    pub right: usize,
    /// The results counted.
    pub total: usize,
}

impl Tally {
    /// One more result.
    pub fn add(&mut self, right: bool) {
        self.right += usize::from(right);
        self.total += 1;
    }

    /// Another tally counted in.
    pub fn merge(&mut self, other: Tally) {
        self.right += other.right;
        self.total += other.total;
    }

    /// The share right, 0 when nothing was counted.
    pub fn rate(self) -> f64 {
        if self.total == 0 {
            0.0
        } else {
            self.right as f64 / self.total as f64
        }
    }

    /// The share right with its 95% Wilson interval.
    pub fn wilson(self) -> Proportion {
        wilson(self.right, self.total)
    }

    /// As [`clustered`] takes one maze's results: `(right, total)`.
    pub fn unit(self) -> (usize, usize) {
        (self.right, self.total)
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
#[path = "stats_tests.rs"]
mod tests;
