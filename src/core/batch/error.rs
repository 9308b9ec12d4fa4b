//! Why a design cannot run (or its mazes cannot be imported).

use std::fmt;

/// Why a design cannot run: every problem found, each a sentence saying what to change.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DesignError {
    /// The problems, in the order of the design's fields.
    pub problems: Vec<String>,
}

impl fmt::Display for DesignError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.problems.join("; "))
    }
}

impl std::error::Error for DesignError {}
