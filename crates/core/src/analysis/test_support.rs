//! Helpers the tests of this domain and of the layers above share (feature `test-support`).

use crate::analysis::observation::Observation;
use crate::maze::encoding::Encoding;
use crate::maze::shape::Shape;
use crate::verify::{Outcome, Reason};

/// An observation with the given phase outcomes (true = success).
pub fn obs(
    model: &str,
    encoding: Encoding,
    shape: Shape,
    sample: usize,
    ok: [bool; 3],
) -> Observation {
    Observation {
        experiment: "exp".into(),
        model: model.into(),
        encoding,
        shape,
        size: 5,
        seed: 0,
        sample,
        repeat: 0,
        outcomes: ok.map(|x| Some(if x { Outcome::Success } else { Outcome::Fail })),
        reasons: [
            Some(if ok[0] {
                Reason::ReachedGoal
            } else {
                Reason::Wall
            }),
            None,
            None,
        ],
        moves: Some(6),
        valid_moves: Some(if ok[0] { 6 } else { 5 }),
        shortest_path: Some(4),
        predicted: Some(ok[1].then_some(shape)),
        checks: None,
        empty: Vec::new(),
        trace: None,
        tokens: None,
        cost: None,
        retried: false,
        retried_moves: 0,
        staircase: None,
        person: None,
        condition: None,
        solve_ms: None,
        solve_tokens: None,
    }
}
