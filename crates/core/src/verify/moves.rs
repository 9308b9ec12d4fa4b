//! Judging a move and a path.
//!
//! **Next move** ([`verify_move`]): the move read from the reply (reader.rs,
//! [`super::read_move`]); [`check_step`] then checks bounds, same cell, adjacency,
//! diagonals (on 4-direction shapes) and walls, in that order; on 8-direction shapes a
//! diagonal step between two walls is allowed. A reply with no move is
//! [`Reason::NoCoordinate`] (unparseable), never an invalid move.
//!
//! **Path** ([`verify_path`]): the coordinates in order, traced backward from the last
//! mention of the goal; repeated mentions of the cell just reached are skipped; every step
//! must be a valid move; success when the trace reaches the player.

use super::reader::read_move_in;
use super::verdict::{Extracted, Reason, Verdict};
use super::words::{plain, span_in_reply};
use crate::maze::coords::coordinates;
use crate::maze::grid::{Maze, Movement, Pos, Tile};
use crate::reply::cut_in_reasoning;

/// Checks one step of the player from its cell in `maze` to `to` under `movement`.
/// `Ok` holds [`Reason::ValidMove`] or [`Reason::ReachedGoal`].
pub fn check_step(maze: &Maze, movement: Movement, to: Pos) -> (Reason, String) {
    let from = maze.player();
    let grid = maze.grid();
    if !grid.contains(to) {
        return (
            Reason::OutOfBounds,
            format!(
                "{to} lies outside the {}x{} grid (rows and columns count from 0 to {}).",
                grid.rows(),
                grid.cols(),
                grid.rows().max(grid.cols()) - 1
            ),
        );
    }
    if to == from {
        return (
            Reason::SameCell,
            format!("{to} is where the player already stands."),
        );
    }
    let (dr, dc) = (from.row.abs_diff(to.row), from.col.abs_diff(to.col));
    if dr > 1 || dc > 1 {
        return (
            Reason::NotAdjacent,
            format!(
                "{to} is not next to the player at {from}: a move goes to a neighbouring cell."
            ),
        );
    }
    if !movement.is_step(from, to) {
        return (
            Reason::DiagonalNotAllowed,
            format!("{from} to {to} is a diagonal step, and this maze allows only up, down, left and right."),
        );
    }
    if grid.get(to) == Some(Tile::Wall) {
        return (Reason::Wall, format!("{to} is a wall."));
    }
    if to == maze.goal() {
        (
            Reason::ReachedGoal,
            format!("Moved from {from} to {to}: the goal."),
        )
    } else {
        (Reason::ValidMove, format!("Moved from {from} to {to}."))
    }
}

/// Verifies a reply's next move from the player's cell in `maze`.
pub fn verify_move(maze: &Maze, movement: Movement, reply: &str) -> Verdict {
    if cut_in_reasoning(reply) {
        return Verdict::cut_in_reasoning(Reason::NoCoordinate, "move");
    }
    let text = plain(reply);
    let read = read_move_in(&text, Some(maze.player()));
    let doubt = read.doubt.map(|d| {
        let in_reply = |[s, e]: [usize; 2]| span_in_reply(reply, s, e);
        d.to_doubt(read.rule, "move", &text, in_reply, |c| {
            Extracted::Cell(c.pos)
        })
    });
    let Some(to) = read.coord.map(|c| c.pos) else {
        let why = if read.set_aside > 0 {
            format!(
                "No move could be read: {} of the reply's {} coordinates restate or describe the maze (lists such as Walls:, Empty:, Player position:, Goal:; the goal's cell, the player's own, walls), and none is put forward as the move.",
                read.set_aside, read.coordinates
            )
        } else if read.templates > 0 {
            "No move could be read: the reply restates the answer's form, such as Move: (row, col), without a coordinate such as (2, 3).".into()
        } else {
            "No coordinate such as (2, 3) could be read from the reply.".into()
        };
        return Verdict::new(false, Reason::NoCoordinate, Extracted::Nothing, why)
            .read_with(read.rule, doubt);
    };
    let (reason, explanation) = check_step(maze, movement, to);
    let ok = matches!(reason, Reason::ValidMove | Reason::ReachedGoal);
    Verdict::new(ok, reason, Extracted::Cell(to), explanation).read_with(read.rule, doubt)
}

/// Verifies a single-shot path reply: traced backward from the last mention of the goal.
pub fn verify_path(maze: &Maze, movement: Movement, reply: &str) -> Verdict {
    let coords: Vec<Pos> = coordinates(&plain(reply)).iter().map(|c| c.pos).collect();
    if coords.is_empty() {
        return Verdict::new(
            false,
            Reason::NoCoordinate,
            Extracted::Nothing,
            "No coordinate such as (2, 3) could be read from the reply.".into(),
        );
    }
    let goal = maze.goal();
    let Some(last_goal) = coords.iter().rposition(|&p| p == goal) else {
        return Verdict::new(
            false,
            Reason::GoalNotMentioned,
            Extracted::Nothing,
            format!("The goal {goal} is never mentioned, so there is no path to trace."),
        );
    };
    let open = maze.open_mask();
    let mut trace = vec![goal];
    for &p in coords[..last_goal].iter().rev() {
        let cur = trace[trace.len() - 1];
        if p == cur {
            continue;
        }
        if !(movement.is_step(p, cur) && open.contains(p)) {
            trace.reverse();
            let why = if !open.contains(p) {
                format!("{p} is a wall or outside the grid")
            } else {
                format!("{p} to {cur} is not a single valid move")
            };
            return Verdict::new(
                false,
                Reason::InvalidStep,
                Extracted::Cells(trace),
                format!("Tracing back from the goal: {why}."),
            );
        }
        trace.push(p);
        if p == maze.player() {
            trace.reverse();
            let n = trace.len() - 1;
            return Verdict::new(
                true,
                Reason::ReachedPlayer,
                Extracted::Cells(trace),
                format!("A path of {n} valid moves leads from the player to the goal."),
            );
        }
    }
    trace.reverse();
    Verdict::new(
        false,
        Reason::DidNotReachPlayer,
        Extracted::Cells(trace),
        format!(
            "Tracing back from the goal, the coordinates ran out before reaching the player at {}.",
            maze.player()
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::super::fixtures::ring;
    use super::super::read_move;
    use super::*;

    #[test]
    fn the_move_after_the_last_label_counts() {
        assert_eq!(
            read_move("I am at (0, 0). **Move:** `(0,1)`. Then (0, 2)."),
            Some(Pos::new(0, 1))
        );
        assert_eq!(
            read_move("Move: (1,0)\nActually, next move: (0,1)"),
            Some(Pos::new(0, 1))
        );
    }

    #[test]
    fn without_a_label_the_cell_after_move_to_counts() {
        let r = "I'm at (0,0); options are (0,1) and (1,0). I will move down to (1, 0), closer to the goal at (4,4).";
        assert_eq!(read_move(r), Some(Pos::new(1, 0)));
    }

    #[test]
    fn a_cell_after_from_is_the_start_not_the_move() {
        assert_eq!(
            read_move("**Move:** right, from (0, 0) to (0, 1)"),
            Some(Pos::new(0, 1)),
            "the label's first cell is the start"
        );
        assert_eq!(
            read_move("I will move from (0, 0) to (0, 1), getting closer to (4, 4)."),
            Some(Pos::new(0, 1)),
            "the numbers of (0, 0) do not push 'move' out of reach of 'to'"
        );
        assert_eq!(
            read_move("Moving from (0, 0)."),
            Some(Pos::new(0, 0)),
            "with no other cell the start is still read (the verdict says same_cell)"
        );
    }

    #[test]
    fn a_negated_move_phrase_is_not_the_move() {
        assert_eq!(
            read_move("I should not go to (1, 1), it's a wall. The only open neighbour is (0, 1)."),
            Some(Pos::new(0, 1))
        );
        assert_eq!(
            read_move("I cannot move to (1, 1), so I will move to (0, 1) instead."),
            Some(Pos::new(0, 1))
        );
        assert_eq!(
            read_move("I don't want to move to (1, 1)."),
            Some(Pos::new(1, 1)),
            "with nothing else named, the last coordinate still counts"
        );
    }

    #[test]
    fn otherwise_the_last_coordinate_counts() {
        assert_eq!(
            read_move("Options: (0,1), (1,0). I pick row 1, column 0"),
            Some(Pos::new(1, 0))
        );
        assert_eq!(read_move("I don't know"), None);
    }

    #[test]
    fn move_verdicts_name_each_kind_of_invalid_move() {
        let m = ring();
        let cases = [
            ("(0, 1)", true, Reason::ValidMove),
            ("(1, 1)", false, Reason::DiagonalNotAllowed),
            ("(0, 2)", false, Reason::NotAdjacent),
            ("(0, 0)", false, Reason::SameCell),
            ("(9, 9)", false, Reason::OutOfBounds),
            ("nothing", false, Reason::NoCoordinate),
        ];
        for (reply, ok, reason) in cases {
            let v = verify_move(&m, Movement::Four, reply);
            assert_eq!(
                (v.passed(), v.reason),
                (ok, reason),
                "reply {reply}: {}",
                v.explanation
            );
        }
        let at = m.with_player_at(Pos::new(1, 0));
        let v = verify_move(&at, Movement::Four, "(1, 1)");
        assert_eq!(v.reason, Reason::Wall, "{}", v.explanation);
        let v = verify_move(&at, Movement::Eight, "(0, 1)");
        assert_eq!(
            v.reason,
            Reason::ValidMove,
            "diagonal between walls is allowed on 8-way"
        );
        let near = m.with_player_at(Pos::new(4, 3));
        assert_eq!(
            verify_move(&near, Movement::Four, "(4,4)").reason,
            Reason::ReachedGoal
        );
    }

    #[test]
    fn a_path_is_traced_back_from_the_last_goal_mention() {
        let m = ring();
        let good =
            "Path: (0,0) -> (1,0) -> (2,0) -> (3,0) -> (4,0) -> (4,1) -> (4,2) -> (4,3) -> (4,4)";
        let v = verify_path(&m, Movement::Four, good);
        assert_eq!(v.reason, Reason::ReachedPlayer, "{}", v.explanation);
        assert!(matches!(&v.extracted, Extracted::Cells(c) if c.len() == 9));
        let with_repeats = "Goal is (4,4). Start (0,0), (0,1), (0,1), (0,2), (0,3), (0,4), (1,4), (2,4), (3,4), (4,4). Done";
        assert!(verify_path(&m, Movement::Four, with_repeats).passed());
        let jump = "(0,0), (2,2), (4,4)";
        assert_eq!(
            verify_path(&m, Movement::Four, jump).reason,
            Reason::InvalidStep
        );
        assert_eq!(
            verify_path(&m, Movement::Four, "(0,0), (0,1)").reason,
            Reason::GoalNotMentioned
        );
        assert_eq!(
            verify_path(&m, Movement::Four, "(4,3), (4,4)").reason,
            Reason::DidNotReachPlayer
        );
        assert_eq!(
            verify_path(&m, Movement::Four, "no").reason,
            Reason::NoCoordinate
        );
    }
}
