//! The tests of `stats.rs`: each figure against SciPy, R or a hand computation.
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
    // k and k + 1 discordant pairs: the exact two-sided p is twice a cumulative probability
    // of one half, so 1, not 1 less a rounding error (as statrs' sum can give); k and k too.
    for k in 1..12 {
        for other in [k, k + 1] {
            let m = mcnemar(PairedCounts {
                both: 3,
                only_a: k,
                only_b: other,
                neither: 2,
            })
            .expect("pairs");
            assert_eq!(m.p, 1.0, "{k} and {other} discordant pairs");
        }
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
