//! A design's staircase ([`crate::play::staircase`]): its levels, the walks it runs
//! and the trial each walk plays next.
//!
//! The levels are the design's (size, shape) pairs, easiest first: size by size from the
//! smallest, and within a size the shapes in the order the design lists them (so the
//! design's `shapes` order is the ladder's). With imported mazes, the (size, shape) sets
//! that were imported, in the same order.
//!
//! Each player run and encoding walks on its own (a *track*), one trial at a time: the
//! next trial's level depends on the last outcomes. A visit to a level plays that level's
//! next maze: visit `v` of a level with `n` mazes plays maze `v mod n`, as repeat
//! `v div n`, so trial ids stay distinct and a maze comes back only once the set is used
//! up.

use crate::batch::design::{ExperimentDesign, TrialKey};
use crate::maze::encoding::Encoding;
use crate::maze::shape::Shape;
use crate::play::staircase::{StairStep, Walk};
use crate::results::record::TrialRecord;
use crate::verify::Outcome;

/// One walk of a staircase design: a player run in an encoding.
#[derive(Clone, Debug, PartialEq)]
pub struct Track {
    /// The player run's name.
    pub player: String,
    /// The encoding.
    pub encoding: Encoding,
    /// The walk so far.
    pub walk: Walk,
}

impl ExperimentDesign {
    /// The staircase's levels, easiest first (see the module documentation); empty for a
    /// design without a staircase.
    pub fn stair_levels(&self) -> Vec<(usize, Shape)> {
        if self.staircase.is_none() {
            return Vec::new();
        }
        let mut out: Vec<(usize, Shape)> = Vec::new();
        match &self.mazes {
            Some(mazes) => {
                let mut sizes: Vec<usize> = mazes.iter().map(|m| m.size).collect();
                crate::sort::sort_dedup(&mut sizes);
                let mut shapes: Vec<Shape> = self.shapes.clone();
                for m in mazes {
                    if !shapes.contains(&m.shape) {
                        shapes.push(m.shape);
                    }
                }
                for size in sizes {
                    for &shape in &shapes {
                        if mazes.iter().any(|m| m.size == size && m.shape == shape) {
                            out.push((size, shape));
                        }
                    }
                }
            }
            None => {
                let mut sizes = self.sizes();
                crate::sort::sort_dedup(&mut sizes);
                for size in sizes {
                    for &shape in &self.shapes {
                        out.push((size, shape));
                    }
                }
            }
        }
        out
    }

    /// Every trial the design will run: its trials, or for a staircase its tracks times
    /// the trials of each walk.
    pub fn trial_count(&self) -> usize {
        match self.staircase {
            Some(s) => self.tracks().len() * s.trials,
            None => self.trials().len(),
        }
    }

    /// The staircase's walks before any trial, encoding by encoding and player by player
    /// (the order [`ExperimentDesign::trials`] lists their first trials in).
    pub fn tracks(&self) -> Vec<Track> {
        let Some(s) = self.staircase else {
            return Vec::new();
        };
        let levels = self.stair_levels().len();
        let runs = self.runs();
        self.encodings
            .iter()
            .flat_map(|&encoding| {
                runs.iter().map(move |p| Track {
                    player: p.name(),
                    encoding,
                    walk: Walk::new(levels, s.start),
                })
            })
            .collect()
    }

    /// The trial `track` plays next, with its place in the walk; none once the walk has
    /// played the staircase's trials (or for a design without one).
    pub fn stair_next(&self, track: &Track) -> Option<(TrialKey, StairStep)> {
        let s = self.staircase?;
        if track.walk.steps() >= s.trials {
            return None;
        }
        let level = track.walk.level();
        let &(size, shape) = self.stair_levels().get(level)?;
        let visit = track.walk.visits(level);
        let (sample, repeat) = match &self.mazes {
            Some(mazes) => {
                let mut idx: Vec<usize> = mazes
                    .iter()
                    .filter(|m| m.size == size && m.shape == shape)
                    .map(|m| m.index)
                    .collect();
                crate::sort::sort_dedup(&mut idx);
                let n = idx.len().max(1);
                (idx.get(visit % n).copied().unwrap_or(0), visit / n)
            }
            None => {
                let n = self.samples_per_shape.max(1);
                (visit % n, visit / n)
            }
        };
        let key = TrialKey {
            player: track.player.clone(),
            encoding: track.encoding,
            size,
            shape,
            sample,
            repeat,
            answer_mode: crate::play::answer::AnswerMode::Free,
        };
        let step = StairStep {
            step: track.walk.steps(),
            level,
            walk: 0,
        };
        Some((key, step))
    }

    /// Whether every one of `records` is a trial of this design: one of its trials, or
    /// for a staircase a step of one of its walks at one of its levels.
    pub fn holds_all(&self, records: &[TrialRecord]) -> bool {
        if self.staircase.is_none() {
            let ids: std::collections::HashSet<String> =
                self.trials().iter().map(TrialKey::id).collect();
            return records
                .iter()
                .all(|r| ids.contains(&TrialKey::of_record(r).id()));
        }
        let tracks = self.tracks();
        let levels = self.stair_levels();
        records.iter().all(|r| {
            r.staircase
                .is_some_and(|s| levels.get(s.level) == Some(&(r.size, r.shape)))
                && tracks
                    .iter()
                    .any(|t| t.player == r.model && t.encoding == r.encoding)
        })
    }

    /// Moves `track`'s walk on by a finished trial of it: its phases' outcomes (none for
    /// an API error, which leaves the level as it was).
    pub fn stair_record(&self, track: &mut Track, outcomes: Option<[Option<Outcome>; 3]>) {
        let Some(s) = self.staircase else {
            return;
        };
        match outcomes {
            Some(o) => track
                .walk
                .record(s.phase.success(o.map(|o| o == Some(Outcome::Success)))),
            None => track.walk.skip(),
        }
    }

    /// The walks as far as `records` took them, each with the records it used: replayed
    /// from the start, a step takes the stored record that is exactly the trial the walk
    /// hands out there (its id, step and level), and the walk stops at the first step
    /// none is. So records of another run of the same walk (merged into one folder), of
    /// other designs or past a gap are left out, never mixed in.
    pub fn stair_tracks<'a>(
        &self,
        records: impl IntoIterator<Item = &'a TrialRecord>,
    ) -> Vec<(Track, Vec<&'a TrialRecord>)> {
        let records: Vec<&TrialRecord> = records.into_iter().collect();
        let mut out = Vec::new();
        for mut track in self.tracks() {
            let mut used = Vec::new();
            while let Some((key, step)) = self.stair_next(&track) {
                let id = key.id();
                let found = records.iter().copied().find(|r| {
                    r.staircase
                        .is_some_and(|s| s.step == step.step && s.level == step.level)
                        && TrialKey::of_record(r).id() == id
                });
                let Some(r) = found else {
                    break;
                };
                self.stair_record(&mut track, walk_outcomes(r));
                used.push(r);
            }
            out.push((track, used));
        }
        out
    }
}

/// What moves a walk in a stored trial: its phases' outcomes, or none for an API error.
pub(crate) fn walk_outcomes(r: &TrialRecord) -> Option<[Option<Outcome>; 3]> {
    r.api_error
        .is_none()
        .then(|| r.verdicts.all().map(|v| v.map(|v| v.outcome)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::batch::design::PlayerSpec;
    use crate::play::player::PlayerKind;
    use crate::play::staircase::{StairPhase, Staircase};

    fn design() -> ExperimentDesign {
        ExperimentDesign {
            players: vec![
                PlayerSpec::builtin(PlayerKind::Oracle),
                PlayerSpec::builtin(PlayerKind::Random),
            ],
            encodings: vec![Encoding::Matrix],
            shapes: vec![Shape::Square, Shape::Cross],
            sizes: Some(vec![7, 5]),
            samples_per_shape: 2,
            staircase: Some(Staircase {
                trials: 6,
                start: 1,
                phase: StairPhase::Solve,
            }),
            ..ExperimentDesign::default()
        }
    }

    #[test]
    fn the_levels_go_size_by_size_in_the_designs_shape_order() {
        let d = design();
        assert_eq!(
            d.stair_levels(),
            vec![
                (5, Shape::Square),
                (5, Shape::Cross),
                (7, Shape::Square),
                (7, Shape::Cross)
            ]
        );
        let plain = ExperimentDesign::default();
        assert!(plain.stair_levels().is_empty());
        assert!(plain.tracks().is_empty());
        assert_eq!(plain.trial_count(), 360);
    }

    #[test]
    fn each_player_and_encoding_walks_from_the_start_level() {
        let d = design();
        assert_eq!(d.trial_count(), 2 * 6);
        let first = d.trials();
        assert_eq!(first.len(), 2, "one first trial per track");
        assert_eq!(first[0].player, "oracle");
        assert_eq!((first[0].size, first[0].shape), (5, Shape::Cross));
        assert_eq!((first[1].player.as_str(), first[1].sample), ("random", 0));
    }

    #[test]
    fn a_visit_plays_the_levels_next_maze_and_a_used_up_set_comes_back_as_a_repeat() {
        let d = design();
        let mut t = d.tracks().remove(0);
        let mut seen = Vec::new();
        // Failures at the bottom keep the walk at level 0: visits 0, 1, 2 of (5, square).
        t.walk = Walk::new(4, 0);
        for _ in 0..3 {
            let (key, step) = d.stair_next(&t).expect("a next trial");
            seen.push((key.sample, key.repeat, step.step, step.level));
            d.stair_record(&mut t, Some([Some(Outcome::Fail), None, None]));
        }
        assert_eq!(seen, vec![(0, 0, 0, 0), (1, 0, 1, 0), (0, 1, 2, 0)]);
    }

    #[test]
    fn the_walk_ends_after_its_trials_and_an_api_error_keeps_the_level() {
        let d = design();
        let mut t = d.tracks().remove(0);
        let win = Some([Some(Outcome::Success), None, None]);
        d.stair_record(&mut t, win);
        d.stair_record(&mut t, None);
        d.stair_record(&mut t, win);
        assert_eq!(t.walk.levels(), &[1, 1, 1]);
        assert_eq!(
            t.walk.level(),
            2,
            "two successes around the error move it up"
        );
        for _ in 0..3 {
            assert!(d.stair_next(&t).is_some());
            d.stair_record(&mut t, win);
        }
        assert_eq!(d.stair_next(&t), None, "six trials played");
    }
}
