//! Where a trial stands: its phases, in order, and the one place a phase becomes an index
//! of the per-phase arrays.

use serde::{Deserialize, Serialize};

/// Where a trial stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Moving through the maze.
    Solve,
    /// Naming the shape.
    Recognize,
    /// Producing a new maze.
    Generate,
    /// Finished.
    Done,
}

impl Phase {
    /// Every phase, in order.
    pub const ALL: [Phase; 4] = [Phase::Solve, Phase::Recognize, Phase::Generate, Phase::Done];

    /// The three phases a trial plays, in order: the positions of every per-phase array
    /// (verdicts, outcomes, closing lines, rates).
    pub const PLAYED: [Phase; 3] = [Phase::Solve, Phase::Recognize, Phase::Generate];

    /// This phase's position in [`Phase::PLAYED`] and so in every per-phase array: 0, 1, 2
    /// (`Done`, which has no replies, counts as the generation, the last phase played).
    /// The one place a phase becomes an array index.
    pub fn index(self) -> usize {
        match self {
            Phase::Solve => 0,
            Phase::Recognize => 1,
            Phase::Generate | Phase::Done => 2,
        }
    }

    /// The played phase at position `index` of a per-phase array (anything past the last
    /// is the generation); the reverse of [`Phase::index`].
    pub fn at(index: usize) -> Phase {
        Phase::PLAYED[index.min(2)]
    }

    /// `solve`, `recognize`, `generate` or `done` (the `data-phase` value).
    pub fn name(self) -> &'static str {
        match self {
            Phase::Solve => "solve",
            Phase::Recognize => "recognize",
            Phase::Generate => "generate",
            Phase::Done => "done",
        }
    }
}
