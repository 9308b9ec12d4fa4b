//! People and models on the same mazes: for each model and phase, the model's rate beside
//! the people's on the maze instances both played, their paired difference and a paired
//! test, where the model stands among the participants, and, on mazes both solved, how many
//! moves (and seconds, and tokens) a solve took each.
//!
//! People's trials are those with a [`Observation::person`] (a study's); every other
//! trial is a model's (a built-in player's too), named as the analysis names models. A
//! person is paired with a model on the same maze: shape, size, seed and sample. The rows
//! are per model, the encoding the model saw, and how the people saw the maze
//! ([`Seen`]: the grid, or the text in an encoding), each named ("oracle, matrix vs people,
//! grid"), so grid participants, who saw no encoding, pair with a model's trials in both
//! encodings, each in a row of its own, and text participants with the model's trials in
//! the encoding they read, only. A person's trial from before the condition was kept says
//! so ("people, condition not recorded") and pairs, as it did then, only with the model's
//! trials in the encoding of the person's record. The test that fits:
//! - **McNemar's test** (exact below [`crate::analysis::stats::MCNEMAR_EXACT_BELOW`]
//!   discordant pairs) when every paired maze has exactly one judged play on each side; the
//!   difference's interval is Newcombe's (method 10).
//! - Otherwise (several people or repeats on a maze) each maze's success proportion on each
//!   side, compared by the **Wilcoxon signed-rank test** on the per-maze differences
//!   (exact up to 50 non-zero differences); the difference is the mean per-maze difference
//!   (each maze weighs the same) with a Student-t interval (cut to [-1, 1]).

use crate::analysis::observation::{share_by_maze, Observation};
use crate::analysis::stats::{
    mcnemar, mean, mean_t_interval, median, percentile_rank, wilcoxon_signed_rank, PairedCounts,
    Proportion, Tally,
};
use crate::maze::encoding::Encoding;
use crate::maze::shape::Shape;
use crate::play::condition::Condition;
use crate::play::phase::Phase;
use serde::Serialize;
use std::collections::BTreeMap;

/// The paired comparison of people and models (the report's `people_vs_models`).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct PeopleVsModels {
    /// Participants among the trials analysed.
    pub people: usize,
    /// Their trials.
    pub people_trials: usize,
    /// Participants with a judged trial on a maze some row pairs (of [`Self::people`]).
    pub paired_people: usize,
    /// Their trials on such mazes (of [`Self::people_trials`]).
    pub paired_trials: usize,
    /// Why there is nothing to compare, in one line (no people, no model, or no maze in
    /// common); `None` when there are rows.
    pub note: Option<String>,
    /// One row per model and phase with a maze in common, models in name order.
    pub rows: Vec<PeopleModelRow>,
    /// Per model: moves, seconds and tokens per move on the mazes both solved.
    pub efficiency: Vec<Efficiency>,
}

/// One model against the people in one phase, on the mazes both played.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PeopleModelRow {
    /// The model.
    pub model: String,
    /// The encoding the model saw (`matrix`, `coord_list`).
    pub encoding: String,
    /// How the people saw the mazes: `grid`, `text (matrix)`, or `condition not recorded
    /// (matrix)` for older study data (paired by the encoding, as then).
    pub people: String,
    /// `solve`, `recognize` or `generate`.
    pub phase: String,
    /// Maze instances paired: judged in this phase for the model and for a person.
    pub mazes: usize,
    /// The model's success on them (its repeats counted, interval clustered by maze).
    pub model_rate: Proportion,
    /// The people's success on them (every participant's trials, clustered by maze).
    pub people_rate: Proportion,
    /// Model minus people: the difference of the paired rates (McNemar) or the mean of
    /// the per-maze differences (signed-rank).
    pub difference: f64,
    /// Lower end of the difference's 95% interval (`None` with a single maze).
    pub ci_low: Option<f64>,
    /// Upper end.
    pub ci_high: Option<f64>,
    /// The paired test: `mcnemar_exact`, `mcnemar_chi_square` or `wilcoxon_signed_rank`.
    pub test: String,
    /// Its statistic (McNemar's as in [`crate::analysis::stats::McNemar`]; the
    /// signed-rank test's smaller rank sum).
    pub statistic: f64,
    /// Its two-sided p-value (1 when nothing differs).
    pub p: f64,
    /// Participants with a judged trial on these mazes.
    pub participants: usize,
    /// Their judged trials on these mazes in this phase.
    pub people_trials: usize,
    /// Each participant's success rate on these mazes, lowest first (the people's
    /// distribution).
    pub people_rates: Vec<f64>,
    /// Where the model's rate stands among them, 0 to 100 (share below plus half the share
    /// equal).
    pub percentile: Option<f64>,
}

/// One model's solves against the people's, on the maze instances both solved.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Efficiency {
    /// The model.
    pub model: String,
    /// The encoding the model saw.
    pub encoding: String,
    /// How the people saw the mazes (as [`PeopleModelRow::people`]).
    pub people: String,
    /// Maze instances solved by the model and by at least one person (moves known).
    pub mazes: usize,
    /// The model's moves per solve (its mean on each maze, averaged over the mazes).
    pub model_moves: f64,
    /// The median person's moves on each maze, averaged over the mazes.
    pub median_person_moves: f64,
    /// The best (fewest) person's moves on each maze, averaged over the mazes.
    pub best_person_moves: f64,
    /// The people's seconds per move over their solves of these mazes (timed solves).
    pub people_seconds_per_move: Option<f64>,
    /// The model's seconds per move over its solves of these mazes (replies' latencies).
    pub model_seconds_per_move: Option<f64>,
    /// The model's tokens per move over its solves of these mazes (when reported).
    pub model_tokens_per_move: Option<f64>,
}

/// A maze as people and models share it: shape, size, seed and sample (the encoding is
/// the row's).
type Maze = (Shape, usize, u64, usize);

type ByMaze<'a> = BTreeMap<Maze, Vec<&'a Observation>>;

fn by_maze<'a>(obs: impl Iterator<Item = &'a Observation>) -> ByMaze<'a> {
    let mut out: ByMaze<'a> = BTreeMap::new();
    for o in obs {
        out.entry((o.shape, o.size, o.seed, o.sample))
            .or_default()
            .push(o);
    }
    out
}

/// How the people of a row saw the mazes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Seen {
    /// The clickable grid.
    Grid,
    /// The text a model sees, in this encoding.
    Text(Encoding),
    /// Not recorded (study data from before the condition was kept): the record's encoding,
    /// which pairs only with a model's trials in that encoding.
    Unrecorded(Encoding),
}

impl Seen {
    /// How the person of `o` saw its maze.
    pub fn of(o: &Observation) -> Seen {
        match o.condition {
            Some(Condition::Grid) => Seen::Grid,
            Some(Condition::Text) => Seen::Text(o.encoding),
            None => Seen::Unrecorded(o.encoding),
        }
    }

    /// The row's words for it: `grid`, `text (matrix)`, `condition not recorded (matrix)`.
    pub fn name(self) -> String {
        match self {
            Seen::Grid => "grid".into(),
            Seen::Text(e) => format!("text ({e})"),
            Seen::Unrecorded(e) => format!("condition not recorded ({e})"),
        }
    }

    /// Whether people who saw the maze so pair with a model's trials in `encoding`: grid
    /// people with each encoding (they saw none), text people with their own only (as the
    /// record's encoding, for older data too).
    fn pairs_with(self, encoding: Encoding) -> bool {
        match self {
            Seen::Unrecorded(e) | Seen::Text(e) => e == encoding,
            Seen::Grid => true,
        }
    }
}

/// The paired comparison of `observations`: people's trials against each model's, the
/// models named by `label`; a row per model, encoding, people's condition and phase.
pub fn people_vs_models(
    observations: &[Observation],
    label: impl Fn(&Observation) -> String,
) -> PeopleVsModels {
    let people: Vec<&Observation> = observations.iter().filter(|o| o.who.is_person()).collect();
    let mut participants: Vec<&str> = people.iter().filter_map(|o| o.who.participant()).collect();
    crate::sort::sort_dedup(&mut participants);
    let mut models: BTreeMap<(String, Encoding), Vec<&Observation>> = BTreeMap::new();
    for o in observations.iter().filter(|o| o.who.is_model()) {
        models.entry((label(o), o.encoding)).or_default().push(o);
    }
    let mut out = PeopleVsModels {
        people: participants.len(),
        people_trials: people.len(),
        ..PeopleVsModels::default()
    };
    if people.is_empty() || models.is_empty() {
        out.note = Some(if people.is_empty() {
            "No people's trials: the paired comparison needs a study's trials beside the models'."
                .into()
        } else {
            "No model's trials beside the people's: nothing to pair them with.".into()
        });
        return out;
    }
    let mut seen: BTreeMap<Seen, Vec<&Observation>> = BTreeMap::new();
    for o in &people {
        seen.entry(Seen::of(o)).or_default().push(o);
    }
    // Which people's trials some row pairs: (how they saw it, phase, mazes).
    let mut paired: Vec<(Seen, Phase, Vec<Maze>)> = Vec::new();
    for ((model, encoding), obs) in &models {
        let model_mazes = by_maze(obs.iter().copied());
        for (how, theirs) in seen.iter().filter(|(h, _)| h.pairs_with(*encoding)) {
            let people_mazes = by_maze(theirs.iter().copied());
            let row = Row {
                model,
                encoding: *encoding,
                people: *how,
            };
            for phase in Phase::PLAYED {
                if let Some((r, mazes)) = phase_row(&row, phase, &model_mazes, &people_mazes) {
                    out.rows.push(r);
                    paired.push((*how, phase, mazes));
                }
            }
            out.efficiency
                .extend(efficiency(&row, &model_mazes, &people_mazes));
        }
    }
    let is_paired = |o: &Observation| {
        paired.iter().any(|(how, phase, mazes)| {
            *how == Seen::of(o)
                && o.scored(*phase).is_some()
                && mazes.contains(&(o.shape, o.size, o.seed, o.sample))
        })
    };
    let paired_obs: Vec<&Observation> = people.iter().copied().filter(|o| is_paired(o)).collect();
    let mut who: Vec<&str> = paired_obs
        .iter()
        .filter_map(|o| o.who.participant())
        .collect();
    crate::sort::sort_dedup(&mut who);
    out.paired_people = who.len();
    out.paired_trials = paired_obs.len();
    if out.rows.is_empty() {
        out.note = Some(
            "People and models played no maze in common (shape, size, seed and sample; for people shown the text, and people's data without a condition, the encoding too)."
                .into(),
        );
    }
    out
}

/// Which model, encoding and people a row pairs.
struct Row<'a> {
    model: &'a str,
    encoding: Encoding,
    people: Seen,
}

/// The judged outcomes of `obs` in `phase`.
fn judged(obs: &[&Observation], phase: Phase) -> Vec<bool> {
    obs.iter().filter_map(|o| o.scored(phase)).collect()
}

fn share(v: &[bool]) -> f64 {
    v.iter().filter(|&&x| x).count() as f64 / v.len() as f64
}

/// One model against the people in `phase`, on the mazes both had judged: `None` without
/// any.
fn phase_row(
    row: &Row<'_>,
    phase: Phase,
    model_mazes: &ByMaze<'_>,
    people_mazes: &ByMaze<'_>,
) -> Option<(PeopleModelRow, Vec<Maze>)> {
    let mut pairs: Vec<(Maze, Vec<bool>, Vec<bool>)> = Vec::new();
    for (maze, obs) in model_mazes {
        let Some(theirs) = people_mazes.get(maze) else {
            continue;
        };
        let (m, h) = (judged(obs, phase), judged(theirs, phase));
        if !m.is_empty() && !h.is_empty() {
            pairs.push((*maze, m, h));
        }
    }
    if pairs.is_empty() {
        return None;
    }
    let on_pairs = |side: &ByMaze<'_>| {
        let obs = pairs
            .iter()
            .flat_map(|(maze, _, _)| side[maze].iter().copied());
        share_by_maze(obs, |o| o.scored(phase))
    };
    let (model_rate, people_rate) = (on_pairs(model_mazes), on_pairs(people_mazes));
    let test = paired_test(&pairs);
    // Each participant's rate on the paired mazes.
    let mut per_person: BTreeMap<&str, Tally> = BTreeMap::new();
    for (maze, _, _) in &pairs {
        for o in &people_mazes[maze] {
            if let (Some(ok), Some(who)) = (o.scored(phase), o.who.participant()) {
                per_person.entry(who).or_default().add(ok);
            }
        }
    }
    let mut people_rates: Vec<f64> = per_person.values().map(|t| t.rate()).collect();
    crate::sort::sort_by(&mut people_rates, f64::total_cmp);
    let people_trials = per_person.values().map(|t| t.total).sum();
    let row = PeopleModelRow {
        model: row.model.to_string(),
        encoding: row.encoding.name().into(),
        people: row.people.name(),
        phase: phase.name().into(),
        mazes: pairs.len(),
        model_rate,
        people_rate,
        difference: test.difference,
        ci_low: test.ci.map(|c| c.0),
        ci_high: test.ci.map(|c| c.1),
        test: test.name.into(),
        statistic: test.statistic,
        p: test.p,
        participants: people_rates.len(),
        people_trials,
        percentile: percentile_rank(&people_rates, model_rate.rate),
        people_rates,
    };
    Some((row, pairs.into_iter().map(|(maze, _, _)| maze).collect()))
}

/// A paired test's outcome.
struct Paired {
    name: &'static str,
    difference: f64,
    ci: Option<(f64, f64)>,
    statistic: f64,
    p: f64,
}

/// McNemar's test when every maze has one judged play a side, else the signed-rank test on
/// the per-maze differences of success proportions (model minus people).
fn paired_test(pairs: &[(Maze, Vec<bool>, Vec<bool>)]) -> Paired {
    if pairs.iter().all(|(_, m, h)| m.len() == 1 && h.len() == 1) {
        let mut counts = PairedCounts::default();
        for (_, m, h) in pairs {
            counts.add(m[0], h[0]);
        }
        if let Some(t) = mcnemar(counts) {
            return Paired {
                name: if t.exact {
                    "mcnemar_exact"
                } else {
                    "mcnemar_chi_square"
                },
                difference: t.difference,
                ci: Some((t.ci_low, t.ci_high)),
                statistic: t.statistic,
                p: t.p,
            };
        }
    }
    let d: Vec<f64> = pairs.iter().map(|(_, m, h)| share(m) - share(h)).collect();
    let w = wilcoxon_signed_rank(&d);
    Paired {
        name: "wilcoxon_signed_rank",
        difference: mean(&d).unwrap_or(0.0),
        // A difference of proportions lies within [-1, 1]; so does its interval.
        ci: mean_t_interval(&d).map(|(_, low, high)| (low.max(-1.0), high.min(1.0))),
        statistic: w.map_or(0.0, |w| w.statistic),
        p: w.map_or(1.0, |w| w.p),
    }
}

/// Solves with their moves known, of `obs`.
fn solves<'a>(obs: &[&'a Observation]) -> Vec<&'a Observation> {
    obs.iter()
        .copied()
        .filter(|o| o.scored(Phase::Solve) == Some(true) && o.moves.is_some())
        .collect()
}

/// `sum(amount) / sum(moves)` over the solves that have an amount; `None` without any.
fn per_move(solved: &[&Observation], amount: impl Fn(&Observation) -> Option<f64>) -> Option<f64> {
    let (total, moves) = solved
        .iter()
        .filter_map(|o| Some((amount(o)?, o.moves? as f64)))
        .fold((0.0, 0.0), |(a, m), (x, n)| (a + x, m + n));
    (moves > 0.0).then(|| total / moves)
}

/// One model's solves against the people's on the mazes both solved: `None` without any.
fn efficiency(
    row: &Row<'_>,
    model_mazes: &ByMaze<'_>,
    people_mazes: &ByMaze<'_>,
) -> Option<Efficiency> {
    let (mut ours, mut theirs) = (Vec::new(), Vec::new());
    let (mut model_moves, mut median_moves, mut best_moves) = (Vec::new(), Vec::new(), Vec::new());
    for (maze, obs) in model_mazes {
        let (m, h) = (
            solves(obs),
            people_mazes
                .get(maze)
                .map(|p| solves(p))
                .unwrap_or_default(),
        );
        if m.is_empty() || h.is_empty() {
            continue;
        }
        let moves = |v: &[&Observation]| -> Vec<f64> {
            v.iter().filter_map(|o| o.moves.map(|x| x as f64)).collect()
        };
        let (mm, hm) = (moves(&m), moves(&h));
        model_moves.extend(mean(&mm));
        median_moves.extend(median(&hm));
        best_moves.extend(hm.iter().copied().reduce(f64::min));
        ours.extend(m);
        theirs.extend(h);
    }
    Some(Efficiency {
        model: row.model.to_string(),
        encoding: row.encoding.name().into(),
        people: row.people.name(),
        mazes: model_moves.len(),
        model_moves: mean(&model_moves)?,
        median_person_moves: mean(&median_moves)?,
        best_person_moves: mean(&best_moves)?,
        people_seconds_per_move: per_move(&theirs, |o| o.solve_ms.map(|ms| ms / 1000.0)),
        model_seconds_per_move: per_move(&ours, |o| o.solve_ms.map(|ms| ms / 1000.0)),
        model_tokens_per_move: per_move(&ours, |o| o.solve_tokens.map(|t| t as f64)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::observation::PlayedBy;
    use crate::analysis::test_support::obs;

    fn close(got: f64, want: f64, what: &str) {
        assert!((got - want).abs() < 1e-9, "{what}: got {got}, want {want}");
    }

    /// A solve trial of maze `sample` by the model `m` (`who` `None`) or by a person,
    /// recognising and generating right.
    fn trial(who: Option<&str>, sample: usize, solved: bool, moves: usize) -> Observation {
        let mut o = obs(
            "m",
            Encoding::Matrix,
            Shape::Square,
            sample,
            [solved, true, true],
        );
        o.moves = Some(moves);
        if let Some(p) = who {
            o.model = "human".into();
            o.who = PlayedBy::Person(p.into());
        }
        o
    }

    fn compare(v: &[Observation]) -> PeopleVsModels {
        people_vs_models(v, |o| o.model.clone())
    }

    #[test]
    fn one_play_a_side_on_every_maze_is_compared_by_mcnemar() {
        // Six mazes, one model trial and one person's trial each (p1 on 0-2, p2 on 3-5),
        // plus a maze only the model played (6) and one only p1 did (7).
        // Model  T F T T F T | people T F F T F T: both 3, model only 1, people only 0,
        // neither 2.
        let model = [true, false, true, true, false, true, true];
        let people = [true, false, false, true, false, true];
        let mut v: Vec<Observation> = model
            .iter()
            .enumerate()
            .map(|(i, &ok)| trial(None, i, ok, 6))
            .collect();
        for (i, &ok) in people.iter().enumerate() {
            v.push(trial(Some(if i < 3 { "p1" } else { "p2" }), i, ok, 6));
        }
        v.push(trial(Some("p1"), 7, true, 6));
        let c = compare(&v);
        assert_eq!((c.people, c.people_trials, c.note.clone()), (2, 7, None));
        assert_eq!(c.rows.len(), 3, "one model x three phases");
        let solve = &c.rows[0];
        assert_eq!((solve.phase.as_str(), solve.mazes), ("solve", 6));
        assert_eq!(
            (
                solve.model_rate.successes,
                solve.model_rate.n,
                solve.model_rate.mazes
            ),
            (4, 6, Some(6))
        );
        assert_eq!((solve.people_rate.successes, solve.people_rate.n), (3, 6));
        assert_eq!(solve.test, "mcnemar_exact");
        // One discordant pair: exact p = 1; difference 1/6 with Newcombe's method 10
        // (by hand in Python: Wilson 4/6 and 3/6, phi = (3*2 - 1*0)/sqrt(4*2*3*3) = 0.7071):
        // (-0.09799343912314509, 0.38811065086841234).
        close(solve.p, 1.0, "p");
        close(solve.statistic, 0.0, "the smaller discordant count");
        close(solve.difference, 1.0 / 6.0, "difference");
        close(
            solve.ci_low.expect("an interval"),
            -0.09799343912314509,
            "low",
        );
        close(
            solve.ci_high.expect("an interval"),
            0.38811065086841234,
            "high",
        );
        // p1 solved 1 of mazes 0-2, p2 2 of 3-5; the model's 4/6 equals p2's and beats
        // p1's: (1 + 1/2) / 2 = 75th percentile.
        assert_eq!(solve.participants, 2);
        assert_eq!(solve.people_rates, vec![1.0 / 3.0, 2.0 / 3.0]);
        close(solve.percentile.expect("a percentile"), 75.0, "percentile");
        // Recognition: everyone right, no discordant pair.
        assert_eq!(
            (c.rows[1].test.as_str(), c.rows[1].p),
            ("mcnemar_exact", 1.0)
        );
        assert_eq!(c.rows[1].percentile, Some(50.0), "equal to every person");
    }

    /// Four mazes: the model plays each twice, three people play some of them.
    fn several_plays() -> Vec<Observation> {
        let mut v = Vec::new();
        // (maze, solved, moves): the model's repeats.
        for (maze, ok, moves) in [
            (0, true, 4),
            (0, true, 6),
            (1, true, 8),
            (1, false, 6),
            (2, true, 6),
            (2, false, 6),
            (3, true, 4),
            (3, true, 4),
        ] {
            let mut o = trial(None, maze, ok, moves);
            o.solve_ms = Some(2000.0);
            o.solve_tokens = Some(50 * moves as u64);
            v.push(o);
        }
        // (person, maze, solved, moves, solve ms).
        for (who, maze, ok, moves, ms) in [
            ("p1", 0, true, 5, 10_000.0),
            ("p1", 1, false, 6, 4_000.0),
            ("p1", 2, false, 6, 4_000.0),
            ("p1", 3, true, 6, 12_000.0),
            ("p2", 0, true, 9, 18_000.0),
            ("p2", 1, true, 7, 7_000.0),
            ("p2", 2, false, 3, 3_000.0),
            ("p3", 0, false, 2, 1_000.0),
        ] {
            let mut o = trial(Some(who), maze, ok, moves);
            o.solve_ms = Some(ms);
            v.push(o);
        }
        v
    }

    #[test]
    fn several_plays_a_maze_compare_per_maze_proportions_by_the_signed_rank_test() {
        let c = compare(&several_plays());
        let solve = &c.rows[0];
        assert_eq!(solve.test, "wilcoxon_signed_rank");
        assert_eq!(solve.mazes, 4);
        assert_eq!((solve.model_rate.successes, solve.model_rate.n), (6, 8));
        assert_eq!((solve.people_rate.successes, solve.people_rate.n), (4, 8));
        // Per maze, model 1, 1/2, 1/2, 1 against people 2/3, 1/2, 0, 1: differences
        // 1/3, 0, 1/2, 0. Two non-zero, ranks 1 and 2, both positive: W = 0, exact
        // p = 2 * 1/4 = 0.5. Mean 0.20833..., t(0.975, 3) = 3.182446305284263:
        // (-0.18947245482719954, 0.6061391214938662).
        close(solve.statistic, 0.0, "W");
        close(solve.p, 0.5, "p");
        close(solve.difference, 0.5 / 2.4, "mean difference");
        close(
            solve.ci_low.expect("an interval"),
            -0.18947245482719954,
            "low",
        );
        close(
            solve.ci_high.expect("an interval"),
            0.6061391214938662,
            "high",
        );
        // p3 0/1, p1 2/4, p2 2/3: the model's 6/8 is above all three.
        assert_eq!(solve.people_rates, vec![0.0, 0.5, 2.0 / 3.0]);
        close(solve.percentile.expect("a percentile"), 100.0, "percentile");
        // Recognition: everyone right: no difference, p 1, an interval of nothing.
        let r = &c.rows[1];
        assert_eq!(
            (r.difference, r.p, r.ci_low, r.ci_high),
            (0.0, 1.0, Some(0.0), Some(0.0))
        );
    }

    #[test]
    fn solves_are_set_against_the_median_and_the_best_person_on_the_same_maze() {
        let c = compare(&several_plays());
        let e = &c.efficiency[0];
        // Mazes solved by both: 0 (model 4, 6; people 5, 9), 1 (model 8; people 7) and
        // 3 (model 4, 4; people 6). Maze 2: no person solved it.
        assert_eq!((e.model.as_str(), e.mazes), ("m", 3));
        close(e.model_moves, (5.0 + 8.0 + 4.0) / 3.0, "model moves");
        close(
            e.median_person_moves,
            (7.0 + 7.0 + 6.0) / 3.0,
            "median person",
        );
        close(e.best_person_moves, (5.0 + 7.0 + 6.0) / 3.0, "best person");
        // People: 10 + 18 + 7 + 12 s over 5 + 9 + 7 + 6 moves; the model: 5 solves of
        // 2 s over 4 + 6 + 8 + 4 + 4 moves, 50 tokens a move.
        close(
            e.people_seconds_per_move.expect("timed"),
            47.0 / 27.0,
            "people s/move",
        );
        close(
            e.model_seconds_per_move.expect("timed"),
            10.0 / 26.0,
            "model s/move",
        );
        close(
            e.model_tokens_per_move.expect("tokens"),
            50.0,
            "tokens/move",
        );
    }

    #[test]
    fn without_people_models_or_a_maze_in_common_one_line_says_so() {
        let v = several_plays();
        let models: Vec<Observation> = v.iter().filter(|o| o.who.is_model()).cloned().collect();
        let people: Vec<Observation> = v.iter().filter(|o| o.who.is_person()).cloned().collect();
        for (data, starts) in [
            (models.clone(), "No people's trials"),
            (people.clone(), "No model's trials"),
        ] {
            let c = compare(&data);
            assert!(c.rows.is_empty() && c.efficiency.is_empty());
            assert!(
                c.note.as_deref().is_some_and(|n| n.starts_with(starts)),
                "{:?}",
                c.note
            );
        }
        let mut apart = models;
        apart.extend(people.into_iter().map(|mut o| {
            o.sample += 10;
            o
        }));
        let c = compare(&apart);
        assert!(c
            .note
            .as_deref()
            .is_some_and(|n| n.contains("no maze in common")));
        assert_eq!(c.people, 3);
    }

    /// A person's trial of maze `sample`, seen as `condition` (`None`: not recorded), the
    /// record's encoding `encoding`, judged in every phase as `ok`.
    fn seen(
        who: &str,
        sample: usize,
        encoding: Encoding,
        condition: Option<Condition>,
        ok: bool,
    ) -> Observation {
        let mut o = trial(Some(who), sample, ok, 4);
        o.encoding = encoding;
        o.condition = condition;
        o
    }

    #[test]
    fn grid_people_pair_with_both_encodings_text_people_and_old_data_with_their_own_each_row_named()
    {
        let (m, c) = (Encoding::Matrix, Encoding::CoordList);
        let mut v = Vec::new();
        for sample in 0..2 {
            for enc in [m, c] {
                let mut o = trial(None, sample, true, 4);
                o.encoding = enc;
                v.push(o);
            }
        }
        // A grid participant (whose study's encoding was the matrix), a text participant
        // shown coordinate lists, and one from before the condition was kept.
        v.push(seen("g", 0, m, Some(Condition::Grid), true));
        v.push(seen("g", 1, m, Some(Condition::Grid), false));
        v.push(seen("t", 0, c, Some(Condition::Text), true));
        v.push(seen("old", 1, m, None, true));
        // A participant on a maze no model played is not paired.
        v.push(seen("far", 9, m, Some(Condition::Grid), true));
        let r = compare(&v);
        let names: Vec<(String, String)> = r
            .rows
            .iter()
            .filter(|r| r.phase == "solve")
            .map(|r| (r.encoding.clone(), r.people.clone()))
            .collect();
        let pair = |e: &str, p: &str| (e.to_string(), p.to_string());
        assert_eq!(
            names,
            vec![
                pair("matrix", "grid"),
                pair("matrix", "condition not recorded (matrix)"),
                pair("coord_list", "grid"),
                pair("coord_list", "text (coord_list)"),
            ],
            "grid people pair with both encodings; text people and the old data only with their own"
        );
        let grid = r
            .rows
            .iter()
            .find(|r| r.phase == "solve" && r.encoding == "coord_list" && r.people == "grid")
            .expect("grid people against the coordinate lists");
        assert_eq!(
            (grid.mazes, grid.participants, grid.people_trials),
            (2, 1, 2)
        );
        assert_eq!((grid.people_rate.successes, grid.people_rate.n), (1, 2));
        // The headline: 3 of the 4 participants and 4 of their 5 trials were paired.
        assert_eq!((r.people, r.people_trials), (4, 5));
        assert_eq!((r.paired_people, r.paired_trials), (3, 4));
        assert!(r
            .efficiency
            .iter()
            .any(|e| e.encoding == "coord_list" && e.people == "grid"));
    }
}
