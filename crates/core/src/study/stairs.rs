//! A staircase study's walk: which trial comes next from the participant's outcomes so far.

use super::{Study, StudyTrial};
use crate::play::staircase::Walk;

impl Study {
    /// The next trial of a staircase walk whose scored trials so far ended as `outcomes`
    /// (successes by the staircase's phase), with its level; none once the walk has played
    /// the staircase's trials, or for a study without one. Visit `v` (0-based, within the
    /// walk) of level `k` plays trial `k` with sample `sample + v`: a new maze each visit.
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
        let t = self.trials.get(level)?;
        Some((
            level,
            StudyTrial {
                sample: t.sample + walk.visits(level),
                ..*t
            },
        ))
    }
}
