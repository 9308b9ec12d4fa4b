//! Staircase walks read back from their trials ([`crate::play::staircase`]): one row
//! per walk (experiment, model and encoding) with its reversals, its threshold and the
//! level that threshold is nearest.

use crate::analysis::observation::Observation;
use crate::json::is_zero;
use crate::maze::shape::Shape;
use crate::play::phase::Phase;
use crate::play::staircase::{reversals, threshold};
use serde::Serialize;

/// One staircase walk.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StairRow {
    /// The experiment.
    pub experiment: String,
    /// The model.
    pub model: String,
    /// The encoding (`any` for a walk told apart by its id).
    pub encoding: String,
    /// The walk's id when model and encoding do not tell it apart (a study's
    /// participant); left out when 0.
    #[serde(skip_serializing_if = "is_zero")]
    pub walk: u64,
    /// Trials in the walk.
    pub trials: usize,
    /// Solved trials.
    pub solved: usize,
    /// Trials that ended as API errors (they keep the level).
    pub api_errors: usize,
    /// The levels played, in step order.
    pub levels: Vec<usize>,
    /// The levels at the reversals.
    pub reversals: Vec<usize>,
    /// The threshold (mean level at the reversals counted), once the walk settled.
    pub threshold: Option<f64>,
    /// Their standard deviation.
    pub threshold_sd: Option<f64>,
    /// How many reversals the threshold counts.
    pub counted: usize,
    /// The level nearest the threshold, as `7x7 cross` (the level the walk came closest
    /// to solving about 71% of the time).
    pub nearest: Option<String>,
    /// Each level the walk played: level, grid size and shape.
    pub named: Vec<(usize, usize, Shape)>,
}

/// The walks among `observations` (those with a staircase step), in the order they first
/// appear; each walk's trials in step order (a step seen twice counts once).
pub fn stair_rows(observations: &[Observation]) -> Vec<StairRow> {
    type Walk<'a> = ((&'a str, &'a str, &'a str, u64), Vec<&'a Observation>);
    let mut walks: Vec<Walk<'_>> = Vec::new();
    for o in observations.iter().filter(|o| o.staircase.is_some()) {
        // A walk told apart by its id (a participant's) may change encoding on the way.
        let walk = o.staircase.map_or(0, |s| s.walk);
        let encoding = if walk == 0 { o.encoding.name() } else { "any" };
        let k = (o.experiment.as_str(), o.model.as_str(), encoding, walk);
        match walks.iter_mut().find(|(w, _)| *w == k) {
            Some((_, v)) => v.push(o),
            None => walks.push((k, vec![o])),
        }
    }
    walks
        .into_iter()
        .map(|((experiment, model, encoding, walk), mut obs)| {
            crate::sort::sort_by_key(&mut obs, |o| o.staircase.map_or(0, |s| s.step));
            let mut steps: Vec<&Observation> = Vec::new();
            for o in obs {
                if steps.last().map(|l| l.staircase) != Some(o.staircase) {
                    steps.push(o);
                }
            }
            let levels: Vec<usize> = steps
                .iter()
                .map(|o| o.staircase.map_or(0, |s| s.level))
                .collect();
            let mut named: Vec<(usize, usize, Shape)> = Vec::new();
            for (o, &l) in steps.iter().zip(&levels) {
                if !named.iter().any(|n| n.0 == l) {
                    named.push((l, o.size, o.shape));
                }
            }
            crate::sort::sort_by_key(&mut named, |n| n.0);
            let t = threshold(&levels);
            let nearest = t.and_then(|t| {
                let l = (t.level + 0.5).floor() as usize;
                named
                    .iter()
                    .find(|n| n.0 == l)
                    .map(|&(_, size, shape)| format!("{size}x{size} {shape}"))
            });
            StairRow {
                walk,
                experiment: experiment.to_string(),
                model: model.to_string(),
                encoding: encoding.to_string(),
                trials: steps.len(),
                solved: steps
                    .iter()
                    .filter(|o| o.scored(Phase::Solve) == Some(true))
                    .count(),
                api_errors: steps.iter().filter(|o| o.api_error()).count(),
                reversals: reversals(&levels),
                threshold: t.map(|t| t.level),
                threshold_sd: t.map(|t| t.sd),
                counted: t.map_or(0, |t| t.reversals),
                nearest,
                named,
                levels,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::test_support::obs;
    use crate::maze::encoding::Encoding;
    use crate::play::staircase::StairStep;

    /// A walk's observations from (level, solved) per step, level k being a 5x5 shape of
    /// `Shape::ALL` for k < 3 and 7x7 above.
    fn walk(model: &str, steps: &[(usize, bool)]) -> Vec<Observation> {
        steps
            .iter()
            .enumerate()
            .map(|(i, &(level, ok))| {
                let mut o = obs(
                    model,
                    Encoding::Matrix,
                    Shape::ALL[level % 3],
                    i,
                    [ok, true, true],
                );
                o.size = if level < 3 { 5 } else { 7 };
                o.staircase = Some(StairStep {
                    step: i,
                    level,
                    walk: 0,
                });
                o
            })
            .collect()
    }

    #[test]
    fn a_walk_gives_its_reversals_threshold_and_nearest_level() {
        // Levels 0 0 1 1 2 1 1 2 1 1 2 (the module example of play::staircase), solved
        // where the walk then went on up.
        let levels = [0, 0, 1, 1, 2, 1, 1, 2, 1, 1, 2];
        let outcomes = [
            true, true, true, true, false, true, true, false, true, true, false,
        ];
        let steps: Vec<(usize, bool)> = levels.into_iter().zip(outcomes).collect();
        let mut all = walk("m", &steps);
        // Stored out of order, with one step twice (a merge of two folders).
        all.reverse();
        all.push(all[0].clone());
        all.extend(obs_without_step());
        let rows = stair_rows(&all);
        assert_eq!(rows.len(), 1, "only trials with a step are walks");
        let r = &rows[0];
        assert_eq!((r.model.as_str(), r.encoding.as_str()), ("m", "matrix"));
        assert_eq!(r.levels, levels.to_vec());
        assert_eq!((r.trials, r.solved, r.api_errors), (11, 8, 0));
        assert_eq!(r.reversals, vec![2, 1, 2, 1]);
        assert_eq!((r.threshold, r.counted), (Some(1.5), 2));
        let sd = r.threshold_sd.expect("an sd");
        assert!((sd - std::f64::consts::FRAC_1_SQRT_2).abs() < 1e-12, "{sd}");
        // 1.5 rounds up to level 2: the 5x5 of Shape::ALL[2].
        assert_eq!(r.nearest, Some(format!("5x5 {}", Shape::ALL[2])));
        assert_eq!(r.named.len(), 3);
    }

    #[test]
    fn a_walk_that_has_not_settled_has_no_threshold_and_walks_are_kept_apart() {
        let mut all = walk("a", &[(0, true), (0, true), (1, false)]);
        all.extend(walk("b", &[(3, true), (3, true), (4, true)]));
        let rows = stair_rows(&all);
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0].threshold, None);
        assert_eq!(rows[0].nearest, None);
        assert_eq!(rows[1].model, "b");
        assert_eq!(rows[1].named[0], (3, 7, Shape::ALL[0]));
    }

    #[test]
    fn participants_walks_are_told_apart_by_their_id_whatever_the_encoding() {
        // Two people (both `human`), each walking levels shown in either encoding.
        let mut all = Vec::new();
        for (who, n) in [(7u64, 3), (9u64, 2)] {
            for mut o in walk("human", &[(0, true), (0, true), (1, false)][..n]) {
                o.staircase = o.staircase.map(|s| StairStep { walk: who, ..s });
                if o.sample % 2 == 1 {
                    o.encoding = Encoding::CoordList;
                }
                all.push(o);
            }
        }
        let rows = stair_rows(&all);
        assert_eq!(rows.len(), 2, "one walk per participant");
        assert_eq!(
            (rows[0].walk, rows[0].trials, rows[0].encoding.as_str()),
            (7, 3, "any")
        );
        assert_eq!((rows[1].walk, rows[1].trials), (9, 2));
    }

    fn obs_without_step() -> Vec<Observation> {
        vec![obs(
            "m",
            Encoding::Matrix,
            Shape::Square,
            9,
            [true, true, true],
        )]
    }
}
