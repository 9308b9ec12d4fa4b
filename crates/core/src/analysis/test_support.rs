//! Helpers the tests of this domain and of the layers above share (feature `test-support`).

use crate::analysis::observation::{Observation, PlayedBy};
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
        answer_mode: crate::play::answer::AnswerMode::Free,
        mode: "free".into(),
        forms: None,
        transcription: None,
        transcription_cost: None,
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
        who: PlayedBy::Model,
        condition: None,
        shape_shown: false,
        solve_ms: None,
        solve_tokens: None,
        doubts: Default::default(),
    }
}

/// A 5x5 square maze (the first of seed 3's set) and an open cell one step from its player:
/// a first move the tests can name.
pub fn square_and_a_step() -> (crate::maze::grid::Maze, crate::maze::grid::Pos) {
    use crate::maze::grid::{Movement, Pos};
    let lib = std::sync::Arc::new(crate::maze::templates::TemplateLibrary::for_shape(
        5,
        Shape::Square,
    ));
    let maze = crate::maze::generate::generate_set(Shape::Square, 1, 3, &lib)
        .expect("a maze")
        .remove(0);
    let (at, open) = (maze.player(), maze.open_mask());
    let next = [(0, 1), (1, 0), (-1, 0), (0, -1)]
        .iter()
        .filter_map(|&(dr, dc): &(i64, i64)| {
            let r = usize::try_from(at.row as i64 + dr).ok()?;
            let c = usize::try_from(at.col as i64 + dc).ok()?;
            let p = Pos::new(r, c);
            (open.contains(p) && Movement::Four.is_step(at, p)).then_some(p)
        })
        .next()
        .expect("an open neighbour");
    (maze, next)
}
