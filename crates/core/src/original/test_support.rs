//! Helpers the tests of this domain share.

use crate::maze::encoding::{CoordStyle, Encoding};
use crate::maze::grid::{Grid, Maze, Movement};
use crate::maze::shape::Shape;
use crate::original::checks::original_move;
use crate::original::mark::{Mark, Marks};
use crate::original::score::{audit, Audit, AuditCache, Cause};
use crate::original::transcript::{
    COMBINED_LAST, COMBINED_START, FIRST_PROMPT_START, MAZE_INTRO, NEXT_MOVE, UPDATE_INTRO,
};
use crate::play::phase::Phase;
use crate::results::rescore::Hints;

/// A matrix maze from its rows.
pub(crate) fn grid(rows: &str) -> Grid {
    Encoding::Matrix
        .parse_grid(rows, 0, 0)
        .expect("a fixture maze reads")
}

/// The 5x5 square outline, P at (0, 0), G at (0, 2).
pub(crate) const SQUARE: &str = "P 0 G 0 0\n0 1 1 1 0\n0 1 1 1 0\n0 1 1 1 0\n0 0 0 0 0";

/// A new square maze of the same corridor.
pub(crate) const NEW_SQUARE: &str = "G 0 0 0 0\n0 1 1 1 0\n0 1 1 1 0\n0 1 1 1 0\n0 0 0 0 P";

pub(crate) fn hints(shape: Shape, encoding: Encoding) -> Hints {
    Hints {
        encoding: Some(encoding),
        shape: Some(shape),
        size: Some((5, 5)),
        in_play: None,
        maze: None,
    }
}

/// Writes a transcript the way the original code does: the first prompt, a reply
/// (glued to the prompt's last sentence when `glued`), an update prompt after every
/// move taken that did not reach the goal, `SOLVE` right after the solve phase, the
/// combined prompt, its reply, then `RECOGNIZE` and `GENERATE`. `recorded` holds the
/// three words the original code wrote.
pub(crate) fn original_file(
    maze: &str,
    encoding: Encoding,
    shape: Shape,
    replies: &[&str],
    glued: bool,
    combined: &str,
    recorded: [&str; 3],
) -> String {
    let mut m = Maze::from_grid(grid(maze)).expect("a fixture maze has P and G");
    let rules = if shape.movement() == Movement::Four {
        "You can move up, down, left, or right."
    } else {
        "You can move either up, down, left, right, or any diagonal."
    };
    let sep = if glued { "" } else { "\n" };
    let mut out = format!(
        "{FIRST_PROMPT_START} {rules}\n{MAZE_INTRO}\n\n{}\n\n{NEXT_MOVE}",
        encoding.render_with(m.grid(), CoordStyle::Spaced)
    );
    for (i, reply) in replies.iter().enumerate() {
        out.push_str(sep);
        out.push_str(reply);
        match original_move(&m, reply) {
            Some(to) if to != m.goal() && i + 1 < replies.len() => {
                m = m.with_player_at(to);
                out.push_str(&format!(
                    "\n\n{UPDATE_INTRO}\n\n{}\n\n{NEXT_MOVE}",
                    encoding.render_with(m.grid(), CoordStyle::Spaced)
                ));
            }
            _ => break,
        }
    }
    out.push_str(&format!(
        "\n\nSOLVE: {}\n{COMBINED_START}\n* A new maze of the same shape.\n{COMBINED_LAST}\n{combined}\n\nRECOGNIZE: {}\n\nGENERATE: {}\n",
        recorded[0], recorded[1], recorded[2]
    ));
    out
}

pub(crate) fn marks(s: [&str; 3]) -> Marks {
    Marks::from_array(s.map(|w| match w {
        "SUCCESS" => Some(Mark::Success),
        "FAIL" => Some(Mark::Fail),
        "DIVERGED" => Some(Mark::Diverged),
        _ => None,
    }))
}

pub(crate) fn causes(a: &Audit) -> Vec<(Phase, Cause)> {
    a.causes.iter().map(|d| (d.phase, d.cause)).collect()
}

/// Audits a fixture and checks the original-compatible scorer reproduces its lines.
pub(crate) fn audited(text: &str, shape: Shape, encoding: Encoding) -> Audit {
    let a = audit(text, &hints(shape, encoding), &mut AuditCache::new());
    assert_eq!(
        a.original, a.recorded,
        "the original-compatible scorer reproduces the recorded lines:\n{text}"
    );
    a
}

/// A cross solved, whose recognition reply names no shape but says "5 x 5".
pub(crate) fn cross_named_by_grid_size() -> String {
    let cross = "P 1 1 1 0\n1 0 1 0 1\n1 1 0 1 1\n1 0 1 0 1\n0 1 1 1 G";
    original_file(
        cross,
        Encoding::Matrix,
        Shape::Cross,
        &["(1, 1)", "(2, 2)", "(3, 3)", "(4, 4)"],
        false,
        "The grid is 5 x 5 and the corridor looks like a ribbon.",
        ["SUCCESS", "SUCCESS", "FAIL"],
    )
}

/// A square solved, whose generation reply quotes the maze as first shown.
pub(crate) fn quoted_back() -> String {
    original_file(
        SQUARE,
        Encoding::Matrix,
        Shape::Square,
        &["(0, 1)", "(0, 2)"],
        false,
        &format!("A square. Here it is:\n{SQUARE}"),
        ["SUCCESS", "SUCCESS", "SUCCESS"],
    )
}

/// Replies of every kind the move reader tells apart: labelled moves, bare pairs,
/// restated lists and mazes, the answer's template, refusals, hedges, no pair at all.
pub(crate) const MOVE_REPLIES: &[&str] = &[
    "(0, 1)",
    "Move: (0, 1)",
    "Move to (1, 0)... no: **move to** `(0, 2)`, moving from (0, 1).",
    "I go to (1, 1).",
    "Moving from (0, 0).",
    "I don't want to move to (1, 1). Move: (0, 1)",
    "Walls: (1, 1), (1, 2)\nEmpty: (0, 1), (0, 3)\nPlayer position: (0, 0)\nGoal: (0, 2)",
    "Walls: (1, 1)\nPlayer position: (0, 0)\nGoal: (0, 2)\n\nMove: (0, 1)",
    "Reply in the form: Move: (row, col)",
    "Move: (row, col) (0, 1)",
    "P 0 G 0 0\n0 1 1 1 0\nMy next move is (0, 1).",
    "The goal is at (0, 2) and I am at (0, 0), so (0, 1) it is.",
    "Maybe (1, 0) or (0, 1)? I pick (0, 1).",
    "(-1, 0)",
    "( 0 , 1 )",
    "row 0, column 1",
    "",
    "No idea.",
];
