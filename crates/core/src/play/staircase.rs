//! The staircase: adaptive difficulty, one trial at a time (issue 20).
//!
//! The levels are ordered from easiest (0) to hardest. A walk starts at a level and moves
//! by the transformed up-down rule of Levitt (1971): **one level up (harder) after two
//! successes in a row, one level down after a failure**. That rule settles where a trial
//! succeeds with probability 1/√2, about 70.7%. A walk cannot leave the ladder: two
//! successes at the top (or a failure at the bottom) keep the level.
//!
//! A *reversal* is a move against the direction of the move before it. The walk's
//! **threshold** is the mean level at its reversals, leaving out the first (the walk from
//! the start to the region it settles in) and then, from the rest, the latest even number
//! of them, so that as many turns at the top as at the bottom count. It needs two such
//! reversals; before that the walk has not settled and has no threshold.
//!
//! A walk is read back from the levels its trials were played at alone (a move is a
//! change of level between steps), so a report computes the same reversals and threshold
//! from stored records as the runner did while it played.
//!
//! ```
//! use shapemaze_core::play::staircase::Walk;
//!
//! let mut walk = Walk::new(4, 0);
//! for success in [true, true, true, true, false, true, true, false, true, true, false] {
//!     walk.record(success);
//! }
//! // Up after the 2nd and 4th trials, down after the 5th, and so on.
//! assert_eq!(walk.levels(), &[0, 0, 1, 1, 2, 1, 1, 2, 1, 1, 2]);
//! assert_eq!(walk.level(), 1);
//! // Turns: down at 2, up at 1, down at 2, up at 1 (the last failure's move comes later).
//! assert_eq!(walk.reversals(), vec![2, 1, 2, 1]);
//! // Leave out the first; the latest two of the rest: (2 + 1) / 2.
//! assert_eq!(walk.threshold().map(|t| t.level), Some(1.5));
//! ```

use serde::{Deserialize, Serialize};

/// Successes in a row that move a walk one level up.
pub const UP_AFTER: u32 = 2;

/// The success rate the rule settles at: 1/√2.
pub const TARGET_RATE: f64 = std::f64::consts::FRAC_1_SQRT_2;

/// Which phase's outcome moves the walk.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StairPhase {
    /// The solve phase (the default).
    #[default]
    Solve,
    /// The recognition phase.
    Recognize,
    /// The generation phase.
    Generate,
    /// All three phases succeed.
    All,
}

impl StairPhase {
    /// Every choice, in the order a form lists them.
    pub const ALL: [StairPhase; 4] = [
        StairPhase::Solve,
        StairPhase::Recognize,
        StairPhase::Generate,
        StairPhase::All,
    ];

    /// `solve`, `recognize`, `generate` or `all`.
    pub fn name(self) -> &'static str {
        match self {
            StairPhase::Solve => "solve",
            StairPhase::Recognize => "recognize",
            StairPhase::Generate => "generate",
            StairPhase::All => "all",
        }
    }

    /// The choice named `name` ([`StairPhase::name`]).
    pub fn parse(name: &str) -> Option<StairPhase> {
        StairPhase::ALL
            .into_iter()
            .find(|p| p.name() == name.trim())
    }

    /// Whether the phases' successes (solve, recognize, generate) count as a success.
    pub fn success(self, phases: [bool; 3]) -> bool {
        match self {
            StairPhase::Solve => phases[0],
            StairPhase::Recognize => phases[1],
            StairPhase::Generate => phases[2],
            StairPhase::All => phases.iter().all(|&s| s),
        }
    }
}

/// A staircase as a design or a study states it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Staircase {
    /// Trials per walk.
    pub trials: usize,
    /// The level the walk starts at (0, the easiest).
    #[serde(default)]
    pub start: usize,
    /// Which phase's outcome moves it (`solve`).
    #[serde(default)]
    pub phase: StairPhase,
}

impl Staircase {
    /// What is wrong with this staircase over `levels` levels, if anything.
    pub fn problems(&self, levels: usize) -> Vec<String> {
        let mut out = Vec::new();
        if self.trials < 2 {
            out.push(format!(
                "staircase trials must be at least 2 (it is {}): a walk needs trials to move",
                self.trials
            ));
        }
        if levels < 2 {
            out.push(
                "a staircase needs at least two levels: give it more than one shape or size"
                    .to_string(),
            );
        } else if self.start >= levels {
            out.push(format!(
                "the staircase's start level is {} but it has levels 0 to {}",
                self.start,
                levels - 1
            ));
        }
        out
    }
}

/// Where a staircase trial stands in its walk (kept in its record).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct StairStep {
    /// Which trial of the walk (0-based).
    pub step: usize,
    /// The level it was played at (0 the easiest).
    pub level: usize,
    /// Which walk, where model and encoding do not tell the walks apart (a study's
    /// participants, all `human`: a hash of the participant and attempt); 0 otherwise,
    /// and left out.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub walk: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// A walk's threshold ([`Walk::threshold`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Threshold {
    /// The mean level at the reversals counted.
    pub level: f64,
    /// Their standard deviation (n - 1; 0 for fewer than two).
    pub sd: f64,
    /// How many reversals were counted.
    pub reversals: usize,
}

/// One staircase walk: the levels played so far and where it goes next.
#[derive(Clone, Debug, PartialEq)]
pub struct Walk {
    levels: usize,
    level: usize,
    run: u32,
    played: Vec<usize>,
}

impl Walk {
    /// A walk over `levels` levels starting at `start` (clamped to the ladder).
    pub fn new(levels: usize, start: usize) -> Walk {
        Walk {
            levels: levels.max(1),
            level: start.min(levels.saturating_sub(1)),
            run: 0,
            played: Vec::new(),
        }
    }

    /// The level the next trial is played at.
    pub fn level(&self) -> usize {
        self.level
    }

    /// The levels of the trials played so far, in order.
    pub fn levels(&self) -> &[usize] {
        &self.played
    }

    /// Trials played so far.
    pub fn steps(&self) -> usize {
        self.played.len()
    }

    /// How many trials of the walk were played at `level` (the next maze of that level
    /// is this one, counted from 0).
    pub fn visits(&self, level: usize) -> usize {
        self.played.iter().filter(|&&l| l == level).count()
    }

    /// A trial at [`Walk::level`] ended as `success`.
    pub fn record(&mut self, success: bool) {
        self.played.push(self.level);
        if success {
            self.run += 1;
            if self.run >= UP_AFTER {
                self.run = 0;
                self.level = (self.level + 1).min(self.levels - 1);
            }
        } else {
            self.run = 0;
            self.level = self.level.saturating_sub(1);
        }
    }

    /// A trial at [`Walk::level`] that was not judged (an API error): it is counted as
    /// played and leaves the level and the run of successes as they were.
    pub fn skip(&mut self) {
        self.played.push(self.level);
    }

    /// The levels at the walk's reversals, in order.
    pub fn reversals(&self) -> Vec<usize> {
        reversals(&self.played)
    }

    /// The walk's threshold (see the module documentation), once it has settled.
    pub fn threshold(&self) -> Option<Threshold> {
        threshold(&self.played)
    }
}

/// The levels at the reversals of a walk that played `levels` in order: a reversal is a
/// move (a change of level from one trial to the next) against the move before it, at
/// the level where it turned.
pub fn reversals(levels: &[usize]) -> Vec<usize> {
    let mut out = Vec::new();
    let mut last: Option<bool> = None;
    for pair in levels.windows(2) {
        let (from, to) = (pair[0], pair[1]);
        if from == to {
            continue;
        }
        let up = to > from;
        if last.is_some_and(|l| l != up) {
            out.push(from);
        }
        last = Some(up);
    }
    out
}

/// The threshold of a walk that played `levels` in order (see the module documentation).
pub fn threshold(levels: &[usize]) -> Option<Threshold> {
    let all = reversals(levels);
    let after_first = all.get(1..)?;
    let n = after_first.len() - after_first.len() % 2;
    if n < 2 {
        return None;
    }
    let counted = &after_first[after_first.len() - n..];
    let mean = counted.iter().sum::<usize>() as f64 / n as f64;
    let var = counted
        .iter()
        .map(|&l| (l as f64 - mean).powi(2))
        .sum::<f64>()
        / (n - 1) as f64;
    Some(Threshold {
        level: mean,
        sd: var.sqrt(),
        reversals: n,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn walk(levels: usize, start: usize, outcomes: &[bool]) -> Walk {
        let mut w = Walk::new(levels, start);
        for &o in outcomes {
            w.record(o);
        }
        w
    }

    #[test]
    fn two_successes_go_up_and_a_failure_goes_down() {
        let w = walk(5, 2, &[true, true, false, true, false, false]);
        assert_eq!(w.levels(), &[2, 2, 3, 2, 2, 1]);
        assert_eq!(w.level(), 0);
    }

    #[test]
    fn a_failure_breaks_the_run_of_successes() {
        // success, failure, success: no two in a row, so never up.
        let w = walk(5, 1, &[true, false, true]);
        assert_eq!(w.levels(), &[1, 1, 0]);
        assert_eq!(w.level(), 0);
    }

    #[test]
    fn the_walk_stays_on_the_ladder() {
        let top = walk(3, 2, &[true, true, true, true]);
        assert_eq!(top.levels(), &[2, 2, 2, 2]);
        assert_eq!(top.level(), 2);
        let bottom = walk(3, 0, &[false, false]);
        assert_eq!(bottom.levels(), &[0, 0]);
        assert_eq!(bottom.level(), 0);
        assert_eq!(
            Walk::new(3, 9).level(),
            2,
            "a start past the top is clamped"
        );
    }

    #[test]
    fn a_skipped_trial_counts_as_played_and_keeps_the_run() {
        let mut w = Walk::new(4, 1);
        w.record(true);
        w.skip();
        w.record(true);
        assert_eq!(w.levels(), &[1, 1, 1]);
        assert_eq!(w.level(), 2, "the two successes around the skip move it up");
        assert_eq!(w.visits(1), 3);
        assert_eq!(w.visits(2), 0);
    }

    #[test]
    fn reversals_are_turns_of_direction_at_the_level_turned() {
        assert_eq!(reversals(&[0, 1, 2, 1, 1, 2, 3, 2]), vec![2, 1, 3]);
        assert_eq!(reversals(&[0, 0, 1, 2, 3]), Vec::<usize>::new());
        assert_eq!(reversals(&[2, 2, 2]), Vec::<usize>::new());
        // A boundary that holds the level is no move, so no reversal.
        assert_eq!(reversals(&[2, 2, 2, 1]), Vec::<usize>::new());
    }

    #[test]
    fn the_threshold_leaves_out_the_first_reversal_and_keeps_an_even_number() {
        // Reversals at 3, 1, 3, 2, 3: leave out the first (3), keep the last four.
        let levels = [0, 1, 2, 3, 2, 1, 2, 3, 2, 3, 2];
        assert_eq!(reversals(&levels), vec![3, 1, 3, 2, 3]);
        let t = threshold(&levels).expect("settled");
        assert_eq!(t.reversals, 4);
        assert!((t.level - 2.25).abs() < 1e-12, "{}", t.level);
        // sd of 1, 3, 2, 3 (n - 1): mean 2.25, squares 1.5625 + 0.5625 + 0.0625 + 0.5625.
        assert!((t.sd - (2.75f64 / 3.0).sqrt()).abs() < 1e-12, "{}", t.sd);
        // Reversals 3, 1, 3, 2: leave out 3, then the latest two of 1, 3, 2.
        let t = threshold(&[0, 1, 2, 3, 2, 1, 2, 3, 2, 3]).expect("settled");
        assert_eq!((t.level, t.reversals), (2.5, 2));
    }

    #[test]
    fn a_walk_needs_two_reversals_after_the_first_to_have_a_threshold() {
        assert_eq!(
            threshold(&[0, 1, 2, 1, 2]),
            None,
            "reversals 2, 1: one after the first"
        );
        assert_eq!(threshold(&[0]), None);
        assert_eq!(threshold(&[]), None);
        assert!(threshold(&[0, 1, 2, 1, 2, 1]).is_some());
    }

    #[test]
    fn a_walk_read_back_from_its_levels_agrees_with_the_walk_played() {
        // A simulated player that succeeds below level 3 and fails from it on.
        let mut w = Walk::new(6, 0);
        for _ in 0..30 {
            let ok = w.level() < 3;
            w.record(ok);
        }
        assert_eq!(w.reversals(), reversals(w.levels()));
        let t = w.threshold().expect("settled");
        assert!(
            t.level > 2.0 && t.level < 3.0,
            "it settles between 2 and 3: {}",
            t.level
        );
    }

    #[test]
    fn a_staircase_says_what_is_wrong_with_it() {
        let s = Staircase {
            trials: 1,
            start: 4,
            phase: StairPhase::Solve,
        };
        let p = s.problems(3);
        assert_eq!(p.len(), 2, "{p:?}");
        assert!(p[0].contains("at least 2"), "{p:?}");
        assert!(p[1].contains("levels 0 to 2"), "{p:?}");
        assert!(s.problems(1).iter().any(|m| m.contains("two levels")));
        let ok = Staircase {
            trials: 20,
            start: 0,
            phase: StairPhase::All,
        };
        assert!(ok.problems(2).is_empty());
    }

    #[test]
    fn the_phase_says_which_successes_count() {
        assert!(StairPhase::Solve.success([true, false, false]));
        assert!(!StairPhase::Recognize.success([true, false, true]));
        assert!(StairPhase::Generate.success([false, false, true]));
        assert!(!StairPhase::All.success([true, true, false]));
        assert!(StairPhase::All.success([true, true, true]));
        for p in StairPhase::ALL {
            assert_eq!(StairPhase::parse(p.name()), Some(p));
        }
        assert_eq!(StairPhase::parse("both"), None);
    }
}
