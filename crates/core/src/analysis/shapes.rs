//! Shape effects: each shape's rates per phase ranked against the design's predicted
//! difficulty, and how the phases' successes go together.

use crate::analysis::observation::{share_by_maze, MazeId, Observation};
use crate::analysis::stats::{
    chi_square_independence, mean, one_way_anova, spearman, Anova, ChiSquare, Correlation,
    PairedCounts, Phi, Proportion,
};
use crate::maze::shape::Shape;
use crate::play::phase::Phase;
use serde::Serialize;
use std::collections::BTreeMap;

/// The design's predicted difficulty ranking, easiest first (H2).
pub const PREDICTED_DIFFICULTY: [Shape; 6] = [
    Shape::Square,
    Shape::Cross,
    Shape::C,
    Shape::Triangle,
    Shape::Z,
    Shape::Spiral,
];

/// A shape's place in the observed ranking.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ShapeRank {
    /// The shape.
    pub shape: String,
    /// Mean of its three phase success rates.
    pub score: f64,
    /// Observed rank, 1 = easiest (ties averaged).
    pub observed: f64,
    /// The design's predicted rank, 1 = easiest.
    pub predicted: usize,
}

/// Shape effects in one phase.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ShapePhase {
    /// `solve`, `recognize`, `generate` or `overall` (mean of the three per maze).
    pub phase: String,
    /// Success by shape (empty for `overall`).
    pub rates: Vec<(String, Proportion)>,
    /// Chi-square of independence, success x shape (not for `overall`).
    pub chi_square: Option<ChiSquare>,
    /// One-way ANOVA of per-maze scores across shapes.
    pub anova: Option<Anova>,
    /// Mazes in the ANOVA.
    pub mazes: usize,
}

/// Shape effects: the tests and the observed ranking beside the predicted one.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ShapeEffects {
    /// Per phase, then `overall`.
    pub phases: Vec<ShapePhase>,
    /// The shapes seen, easiest first as observed.
    pub ranking: Vec<ShapeRank>,
    /// Spearman's rho between predicted and observed ranks.
    pub spearman: Option<Correlation>,
}

/// Phi between two phases' successes within trials.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PhaseCorrelation {
    /// The model (`all` when pooled).
    pub model: String,
    /// The earlier phase.
    pub first: String,
    /// The later phase.
    pub second: String,
    /// The paired counts (first as A).
    pub counts: PairedCounts,
    /// Phi with its interval.
    pub phi: Option<Phi>,
}

pub(crate) fn shape_table(
    observations: &[Observation],
    phase: Phase,
) -> Vec<(Shape, usize, usize)> {
    Shape::ALL
        .iter()
        .filter_map(|&s| {
            let scored: Vec<bool> = observations
                .iter()
                .filter(|o| o.shape == s)
                .filter_map(|o| o.scored(phase))
                .collect();
            (!scored.is_empty()).then(|| (s, scored.iter().filter(|&&x| x).count(), scored.len()))
        })
        .collect()
}

pub(crate) fn shape_effects(observations: &[Observation]) -> ShapeEffects {
    // One maze as one model saw it in one encoding (its repeats pooled).
    type MazeKey = MazeId;
    let maze_of = Observation::maze_id;
    let mut phases = Vec::new();
    // Per maze (per model and encoding): the phase's success rate, and the overall score.
    let mut overall: BTreeMap<Shape, BTreeMap<MazeKey, Vec<f64>>> = BTreeMap::new();
    for o in observations {
        let scores: Vec<f64> = Phase::PLAYED
            .into_iter()
            .filter_map(|p| o.scored(p).map(|x| f64::from(u8::from(x))))
            .collect();
        if let Some(m) = mean(&scores) {
            overall
                .entry(o.shape)
                .or_default()
                .entry(maze_of(o))
                .or_default()
                .push(m);
        }
    }
    let maze_means = |m: &BTreeMap<Shape, BTreeMap<MazeKey, Vec<f64>>>| -> (Vec<Vec<f64>>, usize) {
        let groups: Vec<Vec<f64>> = m
            .values()
            .map(|mazes| mazes.values().filter_map(|v| mean(v)).collect())
            .collect();
        let n = groups.iter().map(Vec::len).sum();
        (groups, n)
    };
    for phase in Phase::PLAYED {
        let table = shape_table(observations, phase);
        let mut per_maze: BTreeMap<Shape, BTreeMap<MazeKey, Vec<f64>>> = BTreeMap::new();
        for o in observations {
            if let Some(x) = o.scored(phase) {
                per_maze
                    .entry(o.shape)
                    .or_default()
                    .entry(maze_of(o))
                    .or_default()
                    .push(f64::from(u8::from(x)));
            }
        }
        let (groups, mazes) = maze_means(&per_maze);
        phases.push(ShapePhase {
            phase: phase.name().to_string(),
            rates: table
                .iter()
                .map(|&(s, _, _)| {
                    let of_shape = observations.iter().filter(|o| o.shape == s);
                    (
                        s.name().to_string(),
                        share_by_maze(of_shape, |o| o.scored(phase)),
                    )
                })
                .collect(),
            chi_square: chi_square_independence(
                &table
                    .iter()
                    .map(|&(_, k, n)| vec![k, n - k])
                    .collect::<Vec<_>>(),
            ),
            anova: one_way_anova(&groups),
            mazes,
        });
    }
    let (groups, mazes) = maze_means(&overall);
    phases.push(ShapePhase {
        phase: "overall".into(),
        rates: Vec::new(),
        chi_square: None,
        anova: one_way_anova(&groups),
        mazes,
    });

    // Observed ranking: the mean of the three phase rates, easiest first.
    let mut scored: Vec<(Shape, f64)> = Shape::ALL
        .iter()
        .filter_map(|&s| {
            let rates: Vec<f64> = phases[..3]
                .iter()
                .filter_map(|p| {
                    p.rates
                        .iter()
                        .find(|(n, _)| n == s.name())
                        .map(|r| r.1.rate)
                })
                .collect();
            mean(&rates).map(|m| (s, m))
        })
        .collect();
    crate::sort::sort_by(&mut scored, |a, b| b.1.total_cmp(&a.1));
    let neg: Vec<f64> = scored.iter().map(|s| -s.1).collect();
    let observed = crate::analysis::stats::ranks(&neg);
    let predicted_rank = |s: Shape| {
        PREDICTED_DIFFICULTY
            .iter()
            .position(|p| *p == s)
            .map_or(0, |i| i + 1)
    };
    let ranking: Vec<ShapeRank> = scored
        .iter()
        .zip(&observed)
        .map(|(&(s, score), &obs)| ShapeRank {
            shape: s.name().to_string(),
            score,
            observed: obs,
            predicted: predicted_rank(s),
        })
        .collect();
    let spearman = spearman(
        &ranking
            .iter()
            .map(|r| r.predicted as f64)
            .collect::<Vec<_>>(),
        &ranking.iter().map(|r| r.observed).collect::<Vec<_>>(),
    );
    ShapeEffects {
        phases,
        ranking,
        spearman,
    }
}
