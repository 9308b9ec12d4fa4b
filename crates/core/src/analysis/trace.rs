//! How a solve went wrong, read from the cells the player stood on: revisits and looping,
//! and the first error (the first move that breaks the rules or leaves every shortest
//! path) with where it was made: at a junction, at a dead end or in a corridor. Lost in
//! Aggregation finds junction choices behind most first errors; MazeEval reports looping
//! failures.

use crate::maze::grid::{Mask, Movement, Pos};
use serde::Serialize;

/// A cell stood on this many times or more in one solve makes the trial looping. MazeEval
/// counts 10 visits in runs of hundreds of moves; a solve here has at most 16 moves, so a
/// cell can be stood on at most 9 times, and going back and forth over it twice (three
/// visits) is already a loop, not a detour.
pub const LOOP_VISITS: usize = 3;

/// Where a move was chosen: by the open cells next to the player's cell under the shape's
/// movement rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Place {
    /// Three or more open neighbours: a choice of ways on.
    Junction,
    /// One open neighbour.
    DeadEnd,
    /// Two open neighbours: a straight or bending corridor.
    Corridor,
}

impl Place {
    /// Every place, in order.
    pub const ALL: [Place; 3] = [Place::Junction, Place::DeadEnd, Place::Corridor];

    /// `junction`, `dead_end` or `corridor`.
    pub fn name(self) -> &'static str {
        match self {
            Place::Junction => "junction",
            Place::DeadEnd => "dead_end",
            Place::Corridor => "corridor",
        }
    }
}

/// The first error of a solve.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct FirstError {
    /// The move it was, from 1.
    pub step: usize,
    /// The cell the player stood on when making it.
    pub at: Pos,
    /// What kind of cell that was.
    pub place: Place,
}

/// What the cells a player stood on say about the solve.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct SolveTrace {
    /// Moves onto a cell stood on before.
    pub revisits: usize,
    /// The most times one cell was stood on.
    pub max_visits: usize,
    /// Whether some cell was stood on [`LOOP_VISITS`] times or more.
    pub looping: bool,
    /// The first move that broke the rules or left every shortest path, if any.
    pub first_error: Option<FirstError>,
}

/// Reads a solve: `open` is the maze's open cells, `goal` its goal, `path` the cells the
/// player stood on (start first), and `invalid_last` whether the solve ended on an invalid
/// move (which the path does not hold).
pub fn trace(
    open: &Mask,
    goal: Pos,
    movement: Movement,
    path: &[Pos],
    invalid_last: bool,
) -> SolveTrace {
    let mut visits: Vec<(Pos, usize)> = Vec::new();
    for &p in path {
        match visits.iter_mut().find(|(q, _)| *q == p) {
            Some((_, n)) => *n += 1,
            None => visits.push((p, 1)),
        }
    }
    let max_visits = visits.iter().map(|(_, n)| *n).max().unwrap_or(0);
    let to_goal = open.distances(goal, movement);
    let dist = |p: Pos| to_goal.get(p.row * open.cols() + p.col).copied().flatten();
    let place = |p: Pos| {
        let ways = movement
            .steps()
            .iter()
            .filter_map(|&(dr, dc)| p.offset(dr, dc))
            .filter(|&q| q.row < open.rows() && q.col < open.cols() && open.contains(q))
            .count();
        match ways {
            0 | 1 => Place::DeadEnd,
            2 => Place::Corridor,
            _ => Place::Junction,
        }
    };
    let left_the_path = path.windows(2).enumerate().find_map(|(i, w)| {
        let on = matches!((dist(w[0]), dist(w[1])), (Some(a), Some(b)) if b + 1 == a);
        (!on).then_some((i + 1, w[0]))
    });
    let first = left_the_path.or_else(|| {
        let last = *path.last()?;
        invalid_last.then_some((path.len(), last))
    });
    SolveTrace {
        revisits: path.len().saturating_sub(visits.len()),
        max_visits,
        looping: max_visits >= LOOP_VISITS,
        first_error: first.map(|(step, at)| FirstError {
            step,
            at,
            place: place(at),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 5x5 ring (the square's outline) with a spur into the middle from (0, 2): (1, 2).
    fn ring_with_spur() -> Mask {
        let mut m = Mask::empty(5, 5);
        for i in 0..5 {
            for (r, c) in [(0, i), (4, i), (i, 0), (i, 4)] {
                m.insert(Pos::new(r, c));
            }
        }
        m.insert(Pos::new(1, 2));
        m
    }

    fn p(r: usize, c: usize) -> Pos {
        Pos::new(r, c)
    }

    #[test]
    fn a_shortest_solve_has_no_error_and_no_revisit() {
        let t = trace(
            &ring_with_spur(),
            p(0, 4),
            Movement::Four,
            &[p(0, 0), p(0, 1), p(0, 2), p(0, 3), p(0, 4)],
            false,
        );
        assert_eq!(
            t,
            SolveTrace {
                revisits: 0,
                max_visits: 1,
                looping: false,
                first_error: None
            }
        );
    }

    #[test]
    fn the_first_move_off_every_shortest_path_is_placed_where_it_was_chosen() {
        // From (0, 2), three ways: on to (0, 3), back, or into the spur (1, 2).
        let t = trace(
            &ring_with_spur(),
            p(0, 4),
            Movement::Four,
            &[
                p(0, 0),
                p(0, 1),
                p(0, 2),
                p(1, 2),
                p(0, 2),
                p(0, 3),
                p(0, 4),
            ],
            false,
        );
        assert_eq!(
            t.first_error,
            Some(FirstError {
                step: 3,
                at: p(0, 2),
                place: Place::Junction
            })
        );
        assert_eq!((t.revisits, t.max_visits, t.looping), (1, 2, false));
        // Stepping back along the corridor: an error made in a corridor.
        let back = trace(
            &ring_with_spur(),
            p(0, 4),
            Movement::Four,
            &[p(0, 0), p(0, 1), p(0, 0)],
            false,
        );
        assert_eq!(
            back.first_error.map(|e| (e.step, e.place)),
            Some((2, Place::Corridor))
        );
        // Out of the spur's end: a dead end, the only way on being back.
        let spur = trace(&ring_with_spur(), p(0, 0), Movement::Four, &[p(1, 2)], true);
        assert_eq!(
            spur.first_error.map(|e| (e.step, e.place)),
            Some((1, Place::DeadEnd))
        );
    }

    #[test]
    fn an_invalid_last_move_is_the_first_error_when_the_path_kept_to_a_shortest_one() {
        let t = trace(
            &ring_with_spur(),
            p(0, 4),
            Movement::Four,
            &[p(0, 0), p(0, 1)],
            true,
        );
        assert_eq!(
            t.first_error,
            Some(FirstError {
                step: 2,
                at: p(0, 1),
                place: Place::Corridor
            })
        );
    }

    #[test]
    fn three_visits_of_a_cell_make_a_loop() {
        let back_and_forth = [p(0, 0), p(0, 1), p(0, 0), p(0, 1), p(0, 0)];
        let t = trace(
            &ring_with_spur(),
            p(0, 4),
            Movement::Four,
            &back_and_forth,
            false,
        );
        assert_eq!((t.revisits, t.max_visits, t.looping), (3, 3, true));
    }
}
