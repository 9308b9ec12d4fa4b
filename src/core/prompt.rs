//! The messages a trial sends its player, one function per message. Each phase's first
//! message begins with a fixed heading ([`SOLVE_HEADING`], [`RECOGNIZE_HEADING`],
//! [`GENERATE_HEADING`]) so a transcript can be split into phases when it is read back.

use super::encoding::{CoordStyle, Encoding};
use super::grid::{Maze, Movement};

/// First line of the solve phase's first message.
pub const SOLVE_HEADING: &str = "Phase 1 of 3: solve the maze.";
/// First line of the recognition question.
pub const RECOGNIZE_HEADING: &str = "Phase 2 of 3: recognize the shape.";
/// First line of the generation request.
pub const GENERATE_HEADING: &str = "Phase 3 of 3: generate a new maze.";
/// First line of the message showing the maze after a move.
pub const UPDATE_HEADING: &str = "Updated maze:";

fn legend(encoding: Encoding) -> &'static str {
    match encoding {
        Encoding::Matrix => "Legend: 1 = wall, 0 = empty corridor, P = player, G = goal. Cells are (row, col), counted from 0, row 0 at the top.",
        Encoding::CoordList => "The maze is given as lists of cells (row, col), counted from 0, row 0 at the top: walls, empty corridor cells, the player and the goal.",
    }
}

fn movement_rule(movement: Movement) -> &'static str {
    match movement {
        Movement::Four => "You may move one cell up, down, left or right (no diagonals).",
        Movement::Eight => "You may move one cell in any of the 8 directions, diagonals included.",
    }
}

/// The solve phase's opening message.
pub fn solve(
    maze: &Maze,
    movement: Movement,
    encoding: Encoding,
    style: CoordStyle,
    move_limit: usize,
) -> String {
    format!(
        "{SOLVE_HEADING}\nYou are the player P in a {r}x{c} maze and must reach the goal G. {rule} You cannot enter walls. You have at most {move_limit} moves; an invalid move ends the phase.\n{legend}\n\n{maze}\n\nReply with your next move as the cell you move to, in the form: Move: (row, col)",
        r = maze.rows(),
        c = maze.cols(),
        rule = movement_rule(movement),
        legend = legend(encoding),
        maze = encoding.render_with(maze.grid(), style),
    )
}

/// The message after a valid move that did not end the phase.
pub fn update(
    maze: &Maze,
    encoding: Encoding,
    style: CoordStyle,
    moves: usize,
    move_limit: usize,
) -> String {
    format!(
        "{UPDATE_HEADING}\n\n{}\n\nMoves used: {moves} of {move_limit}. Reply with your next move: Move: (row, col)",
        encoding.render_with(maze.grid(), style)
    )
}

/// The recognition question, after the solve phase ended with `solve_summary`.
pub fn recognize(
    original: &Maze,
    encoding: Encoding,
    style: CoordStyle,
    solve_summary: &str,
) -> String {
    format!(
        "{RECOGNIZE_HEADING}\n{solve_summary}\nLook at all the open cells of the maze (every empty cell plus P and G, not only your path). What geometric shape do they form? Give the shape's name and your reasoning, and end with: Shape: <name>\n\n{}",
        encoding.render_with(original.grid(), style)
    )
}

/// The generation request.
pub fn generate(original: &Maze, encoding: Encoding, movement: Movement) -> String {
    let format_rule = match encoding {
        Encoding::Matrix => "Write it in the same matrix encoding: one line per row, cells separated by spaces, 1 wall, 0 empty, exactly one P and one G.",
        Encoding::CoordList => "Write it in the same coordinate-list encoding, four lines: Walls: ..., Empty: ..., Player position: (r, c), Goal: (r, c), listing every cell exactly once.",
    };
    format!(
        "{GENERATE_HEADING}\nCreate a new {r}x{c} maze whose open cells form the same geometric shape as the maze above. It must not be an identical copy, P must be able to reach G ({rule_short}), and it must be properly encoded. {format_rule}",
        r = original.rows(),
        c = original.cols(),
        rule_short = match movement {
            Movement::Four => "moving up, down, left or right",
            Movement::Eight => "moving in 8 directions, diagonals included",
        },
    )
}
