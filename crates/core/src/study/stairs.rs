//! A staircase study's walk: which trial comes next from the participant's outcomes so far,
//! and where a level's mazes come from once its set is used up.

use super::file::{Study, StudyTrial};
use crate::maze::generate::distinct_mazes;
use crate::maze::templates::TemplateLibrary;
use crate::play::staircase::Walk;

impl Study {
    /// The next trial of a staircase walk whose scored trials so far ended as `outcomes`
    /// (successes by the staircase's phase), with its level; none once the walk has played
    /// the staircase's trials, or for a study without one. Visit `v` (0-based, within the
    /// walk) of level `k` plays trial `k`'s maze number `sample + v`: a new maze each visit
    /// ([`in_blocks`], so a level whose set runs out goes on in the next seed's set).
    pub fn stair_next(&self, outcomes: &[bool]) -> Option<(usize, StudyTrial)> {
        let s = self.staircase?;
        let mut walk = Walk::new(self.trials.len(), s.start);
        for &o in outcomes {
            walk.record(o);
        }
        if walk.steps() >= s.trials {
            return None;
        }
        let level = walk.level();
        let t = *self.trials.get(level)?;
        let library = TemplateLibrary::of_set(t.size, self.shape_set());
        let n = t.sample + walk.visits(level);
        Some((level, in_blocks(t, n, distinct_mazes(t.shape, &library))))
    }
}

/// Maze number `n` of `trial`'s level, whose set (one seed) holds `distinct` mazes: sample
/// `n` of the trial's seed while the set has it, then on into the next seed blocks (the
/// seed plus one from sample 0, and so on), so a long stay at one level never asks for a
/// maze the set cannot make. (A set is every distinct maze once, in its seed's order: the
/// next block plays them again, in another order.)
pub fn in_blocks(trial: StudyTrial, n: usize, distinct: usize) -> StudyTrial {
    if distinct == 0 || n < distinct {
        return StudyTrial { sample: n, ..trial };
    }
    StudyTrial {
        seed: trial.seed.wrapping_add((n / distinct) as u64),
        sample: n % distinct,
        ..trial
    }
}
