//! The mark a scorer gives a phase (pass or fail) and the three phases' marks.

use crate::verify::Outcome;
use serde::{Deserialize, Serialize};

/// A phase's verdict in the audit: passed, failed, or (strict solve only) diverged from
/// the path the original conversation took.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mark {
    /// Passed.
    Success,
    /// Failed.
    Fail,
    /// The strict reading of a reply took another move than the original did, so the rest
    /// of the conversation followed the other reading and cannot be judged.
    Diverged,
}

impl Mark {
    /// `success`, `fail` or `diverged`.
    pub fn name(self) -> &'static str {
        match self {
            Mark::Success => "success",
            Mark::Fail => "fail",
            Mark::Diverged => "diverged",
        }
    }

    /// `Success` when `ok`, else `Fail`.
    pub(crate) fn of(ok: bool) -> Mark {
        if ok {
            Mark::Success
        } else {
            Mark::Fail
        }
    }

    /// The mark of a verdict's outcome (`None` for an API error).
    pub fn from_outcome(o: Outcome) -> Option<Mark> {
        match o {
            Outcome::Success => Some(Mark::Success),
            Outcome::Fail => Some(Mark::Fail),
            Outcome::Error => None,
        }
    }
}

/// The three phases' marks; `None` where not available.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Marks {
    /// The solve phase.
    pub solve: Option<Mark>,
    /// Recognition.
    pub recognize: Option<Mark>,
    /// Generation.
    pub generate: Option<Mark>,
}

impl Marks {
    /// Solve, recognize, generate.
    pub fn as_array(&self) -> [Option<Mark>; 3] {
        [self.solve, self.recognize, self.generate]
    }

    pub(crate) fn from_array(a: [Option<Mark>; 3]) -> Marks {
        Marks {
            solve: a[0],
            recognize: a[1],
            generate: a[2],
        }
    }
}
