//! Replies as small language models write them, each labelled with what a careful grader
//! reads (issue 17, "Misreadings found on real text"):
//!
//! A. Echoed coordinates are not moves: a reply that restates the prompt's coordinate
//!    lists, a matrix or the answer template and gives no answer has no move (it is
//!    `no_coordinate`, unparseable), and a reply that restates them and then answers is
//!    read at its answer.
//! B. A maze the reply offers as its answer is read through the text around it: a full
//!    stop or words after a row, stop tokens, emphasis, short comments, and a block
//!    labelled as the original after it. The verdict says what was dropped.
//!
//! The older table of realistic replies lives in `tests/properties.rs` (section 4); both
//! must stay green.
#![cfg(not(target_arch = "wasm32"))]

use shapemaze::core::maze::encoding::{CoordStyle, Encoding};
use shapemaze::core::maze::extraction::ParseError;
use shapemaze::core::maze::grid::{Grid, Maze, Movement, Pos};
use shapemaze::core::maze::shape::Shape;
use shapemaze::core::maze::templates::TemplateLibrary;
use shapemaze::core::play::prompt;
use shapemaze::core::verify::{self, Extracted, Outcome, Reason};
use std::sync::OnceLock;

/// The 5x5 square ring, P at (0, 0), G at (4, 4).
const RING: &str = "P 0 0 0 0\n0 1 1 1 0\n0 1 1 1 0\n0 1 1 1 0\n0 0 0 0 G";
/// A new maze of the ring's shape: P and G moved.
const NEW: &str = "0 0 0 0 P\n0 1 1 1 0\n0 1 1 1 0\n0 1 1 1 0\nG 0 0 0 0";

fn grid(rows: &str) -> Grid {
    Encoding::Matrix
        .parse_grid(rows, 5, 5)
        .expect("a fixture maze reads")
}

fn ring() -> Maze {
    Maze::from_grid(grid(RING)).expect("one P and one G")
}

fn library() -> &'static TemplateLibrary {
    static LIB: OnceLock<TemplateLibrary> = OnceLock::new();
    LIB.get_or_init(|| TemplateLibrary::new(5))
}

/// The solve prompt of `maze` in `encoding`, as a model is sent it.
fn solve_prompt(maze: &Maze, encoding: Encoding) -> String {
    let shown = prompt::Shown {
        encoding,
        style: CoordStyle::Spaced,
        symbols: Default::default(),
        vision: Default::default(),
    };
    prompt::solve(maze, Movement::Four, shown, 16, 0)
}

/// The ring's coordinate list, as the prompt shows it.
fn ring_coords() -> String {
    Encoding::CoordList.render(ring().grid())
}

/// Checks each reply's move against the cell a careful grader reads (`None`: no move).
fn check_moves(cases: &[(String, Option<Pos>)]) {
    let wrong: Vec<String> = cases
        .iter()
        .filter_map(|(reply, want)| {
            let got = verify::read_move(reply);
            (got != *want).then(|| format!("{reply:?}\n  read {got:?}, a grader reads {want:?}"))
        })
        .collect();
    assert!(
        wrong.is_empty(),
        "{} of {} moves mis-read:\n{}",
        wrong.len(),
        cases.len(),
        wrong.join("\n")
    );
}

fn p(r: usize, c: usize) -> Option<Pos> {
    Some(Pos::new(r, c))
}

// ---------------------------------------------------------------------------------------
// A. Echoed coordinates

#[test]
fn a_reply_that_only_restates_the_prompt_has_no_move() {
    let m = ring();
    let coords_prompt = solve_prompt(&m, Encoding::CoordList);
    let matrix_prompt = solve_prompt(&m, Encoding::Matrix);
    let data = ring_coords();
    let cases: Vec<(String, Option<Pos>)> = vec![
        // The whole prompt echoed back (what Gemma 3 270M does at temperature 0).
        (coords_prompt.clone(), None),
        (format!("{coords_prompt}iatrics\nに通い\nPhase "), None),
        (format!("{coords_prompt}\n\n{coords_prompt}"), None),
        (matrix_prompt.clone(), None),
        (format!("{matrix_prompt} mendatang\n mendatang\n{RING}"), None),
        // The maze data alone, as written in the prompt or restated.
        (data.clone(), None),
        (format!("```\n{data}\n```"), None),
        (
            data.lines()
                .map(|l| {
                    let (k, v) = l.split_once(':').expect("key: value");
                    format!("**{k}:**{v}")
                })
                .collect::<Vec<_>>()
                .join("\n"),
            None,
        ),
        ("Player position: (0, 0) Goal: (4, 4)".into(), None),
        ("Player position: (0, 0), Goal: (4, 4).".into(), None),
        (
            "Walls: (1, 1), (1, 2), ... Empty: (0, 2), (0, 1)".into(),
            None,
        ),
        (
            "Walls: (1, 1), (1, 2), (1, 3),\n(2, 1), (2, 3)\nEmpty: (0, 1), (0, 2)\nPlayer: (0, 0)\nGoal: (4, 4)"
                .into(),
            None,
        ),
        ("- Start: (0, 0)\n- Goal: (4, 4)".into(), None),
        ("P: (0, 0)\nG: (4, 4)".into(), None),
        ("Current position: (0, 0)\nTarget: (4, 4)".into(), None),
        ("Goal (G): (4, 4)".into(), None),
        ("The player's position: (0, 0). The goal = (4, 4).".into(), None),
        // The answer template echoed.
        ("Move: (row, col)".into(), None),
        ("**Move:** `(row, col)`".into(), None),
        ("Move: (r, c)".into(), None),
        ("(row, col)".into(), None),
        ("Move: [row, col]".into(), None),
        ("Move: (<row>, <col>)".into(), None),
        (
            "Reply with your next move as the cell you move to, in the form: Move: (row, col)"
                .into(),
            None,
        ),
        (
            "Moves used: 1 of 16. Reply with your next move: Move: (row, col)".into(),
            None,
        ),
        // The template and the data together, in either order.
        (format!("Move: (row, col)\n\n{data}"), None),
        (
            format!("{data}\n\nReply with your next move as the cell you move to, in the form: Move: (row, col)"),
            None,
        ),
        (
            "Move cell (row, col) up\nMove cell (row, col) down\nPlayer position: (0, 0)\nGoal: (4, 4)"
                .into(),
            None,
        ),
        // A restated matrix cell by cell.
        (
            "(0, 0) = P, (0, 1) = 0, (0, 2) = 0, (1, 0) = 0, (1, 1) = 1".into(),
            None,
        ),
        ("(0, 1): empty\n(1, 0): empty\n(1, 1): wall".into(), None),
        // The state described in prose, with no move.
        ("I'm at (0, 0) and the goal is at (4, 4).".into(), None),
        ("The goal is at (4, 4).".into(), None),
        ("I am currently at (0, 0). I need to reach G at (4, 4).".into(), None),
        ("The player P is at (0, 0); the goal G is located at (4, 4).".into(), None),
        ("(1, 1) is a wall.".into(), None),
        ("There is a wall at (1, 1), so the centre is blocked.".into(), None),
        ("(1, 1), (2, 2) and (3, 3) are walls.".into(), None),
        // Made-up prompt text in the manner of Gemma 3 270M: a legend with an example
        // value, a restated heading, another player's moves and single-letter keys.
        (
            "Legend: 1 = wall, 0 = empty corridor, P = player, G = goal.\nCell(row, col) = (0, 0), row 0 at the top."
                .into(),
            None,
        ),
        (
            "Phase 2 of 3: move to cell Q, you have an invalid move; exit.\n\nQ: (1, 0)\nP: Move: (row, col)\nQ: (1, 2), (1, 4)\nGame over!"
                .into(),
            None,
        ),
        (
            "Walls: (0, 1)\nPlayer position: (2, 1)\nGoal: (4, 1)\nQ moves to cell (0, 1)\nQ moves to cell (4, 1)\n\nReply with your next move as the cell you move to, in the form: Move: (row, col)"
                .into(),
            None,
        ),
        ("S: (0, 0)\nE: (4, 4)".into(), None),
        // A refused cell is not put forward either.
        (
            "I can't go to (1, 1) because it's a wall. Target: (4, 4)\nThe goal is at (4, 4)."
                .into(),
            None,
        ),
        // The start with restated data and no other cell: no move either.
        (format!("{data}\nMoving from (0, 0)."), None),
        (
            "I need to move to reach the goal at (4, 4). Player position: (0, 0).".into(),
            None,
        ),
    ];
    check_moves(&cases);
}

#[test]
fn a_reply_that_restates_the_prompt_and_then_answers_is_read_at_its_answer() {
    let m = ring();
    let coords_prompt = solve_prompt(&m, Encoding::CoordList);
    let matrix_prompt = solve_prompt(&m, Encoding::Matrix);
    let data = ring_coords();
    let cases: Vec<(String, Option<Pos>)> = vec![
        (format!("{data}\n\nMove: (1, 0)"), p(1, 0)),
        (format!("{data}\n\nI'll move to (1, 0)."), p(1, 0)),
        (format!("{data}\n\nI go down to (1, 0)"), p(1, 0)),
        (format!("{data}\n\nLooking at the lists, the open cell below me is the way to go.\n(1, 0)"), p(1, 0)),
        (format!("{coords_prompt}\n\nMove: (0, 1)"), p(0, 1)),
        (format!("{coords_prompt}\nMove: (0, 1)<end_of_turn>"), p(0, 1)),
        (format!("{matrix_prompt}\n\n**Move:** (1, 0)"), p(1, 0)),
        (
            format!("Here is the maze again:\n```\n{RING}\n```\nThe cell to my right is open.\nMove: (0, 1)"),
            p(0, 1),
        ),
        // The template's own label is not the answer's; the answer after it is.
        ("Move: (row, col)\nMove: (1, 0)".into(), p(1, 0)),
        ("in the form: Move: (row, col)Move: (0, 1)".into(), p(0, 1)),
        ("Move: (row, col) = (1, 0)".into(), p(1, 0)),
        ("Move (row, col): (0, 1)".into(), p(0, 1)),
        (
            "The answer must be in the form Move: (row, col).\n\nI am at (0, 0). Going right to (0, 1) is open.\nMove: (0, 1)"
                .into(),
            p(0, 1),
        ),
        (
            "Reply with your next move as the cell you move to, in the form: Move: (row, col)\n\nI move to (1, 0)."
                .into(),
            p(1, 0),
        ),
        (
            "Reply with your next move as the cell you move to, in the form: Move: (row, col)\n\n(0, 1)"
                .into(),
            p(0, 1),
        ),
        // Neighbours listed, then a move.
        (
            "Player position: (0, 0)\nGoal: (4, 4)\nNeighbours: (0, 1) is empty, (1, 0) is empty.\nI move to (1, 0)."
                .into(),
            p(1, 0),
        ),
        (
            "(0,1) is a wall, (1,0) is empty, so I move to (1,0)".into(),
            p(1, 0),
        ),
        (
            "Current position: (0, 0)\nGoal: (4, 4)\nPossible moves: up is out of bounds, left is out of bounds, right (0, 1) is empty, down (1, 0) is empty.\nNext move: (0, 1)"
                .into(),
            p(0, 1),
        ),
        (
            "**Current position:** (0, 0)\n**Goal:** (4, 4)\n**Next move:** (1, 0)".into(),
            p(1, 0),
        ),
        // A bare coordinate after reasoning, with the state described around it.
        ("I'm at (0, 0). The goal is at (4, 4). (0, 1)".into(), p(0, 1)),
        ("(1, 0). The goal is at (4, 4).".into(), p(1, 0)),
        (
            "The player is at (0, 0) and (1, 1) is a wall, so I take the corridor: (1, 0)".into(),
            p(1, 0),
        ),
        ("Move: (1, 0) — the goal (4, 4) is still far.".into(), p(1, 0)),
        ("Goal: (4, 4). Move: (1, 0)".into(), p(1, 0)),
        ("Player position: (0, 0) -> (0, 1)".into(), p(0, 1)),
        ("Q: which way?\nA: (1, 0)".into(), p(1, 0)),
        ("Phase 1 of 3: solve the maze.\nI move to (0, 1).".into(), p(0, 1)),
        // An answer label that gives the player's new cell.
        ("Answer: Player position: (0, 1)".into(), p(0, 1)),
        (
            "Move:\nPlayer position: (1, 0)\nGoal: (4, 4)".into(),
            p(1, 0),
        ),
        // The position after the move is the move.
        ("I move right. Now I'm at (0, 1).".into(), p(0, 1)),
        ("After moving, I am at (1, 0).".into(), p(1, 0)),
        ("I'm at (0, 1) now.".into(), p(0, 1)),
        ("I'll go down. I'm at (1, 0).".into(), p(1, 0)),
        ("Now I'm at (0, 1).\nI'm currently at (0, 1).".into(), p(0, 1)),
        // A move into the goal names the goal's cell.
        ("I'll move to the goal at (4, 4).".into(), p(4, 4)),
        ("Move: the goal (4, 4)".into(), p(4, 4)),
        ("I go to (4, 4), the goal!".into(), p(4, 4)),
        // A move into a wall is still the move the reply put forward.
        ("Move: (1, 1), which is a wall".into(), p(1, 1)),
        ("I move to (1, 1) (wall)".into(), p(1, 1)),
        // Coordinate lists of the new position in a code block, then the move.
        (
            "```\nWalls: (1, 1), (1, 2), (1, 3)\nPlayer position: (0, 0)\nGoal: (4, 4)\n```\n\nMove: (0, 1)"
                .into(),
            p(0, 1),
        ),
        // "from" names the start, as before.
        (format!("{data}\nMoving from (0, 0) to (0, 1)."), p(0, 1)),
        ("Moving from (0, 0).".into(), p(0, 0)),
        // Judgement call: neighbours listed with no move chosen; the last cell named that
        // is not called a wall is read, as the last coordinate always was.
        ("Neighbours: (0, 1) is empty, (1, 0) is a wall.".into(), p(0, 1)),
        ("(1, 0) is open, so I'll take it.".into(), p(1, 0)),
        (
            "The open cells near me are (0, 1) and (1, 0). I can't go to (1, 1) because it's a wall. I am at (0, 0)."
                .into(),
            p(1, 0),
        ),
        // Judgement call: a list of options is not restated maze data; with no choice made
        // its last cell is read (the verdict then judges it), as before.
        ("Options: (0, 1), (1, 0)".into(), p(1, 0)),
    ];
    check_moves(&cases);
}

#[test]
fn an_echo_is_unparseable_not_an_invalid_move() {
    // P beside G: the echo's last coordinate, the goal, would be a winning move.
    let beside = ring().with_player_at(Pos::new(4, 3));
    let echo = solve_prompt(&beside, Encoding::CoordList);
    let v = verify::verify_move(&beside, Movement::Four, &echo);
    assert_eq!(
        (v.outcome, v.reason, &v.extracted),
        (Outcome::Fail, Reason::NoCoordinate, &Extracted::Nothing),
        "{}",
        v.explanation
    );
    assert!(
        v.explanation.contains("restate"),
        "the explanation says why: {}",
        v.explanation
    );
    let v = verify::verify_move(&ring(), Movement::Four, &ring_coords());
    assert_eq!(v.reason, Reason::NoCoordinate, "{}", v.explanation);
    let v = verify::verify_move(&ring(), Movement::Four, "Move: (row, col)");
    assert_eq!(v.reason, Reason::NoCoordinate, "{}", v.explanation);
    assert!(
        v.explanation.contains("(row, col)"),
        "the explanation names the template: {}",
        v.explanation
    );
    let v = verify::verify_move(&ring(), Movement::Four, "no idea");
    assert_eq!(
        v.explanation, "No coordinate such as (2, 3) could be read from the reply.",
        "a reply without coordinates is explained as before"
    );
    // The same echo followed by an answer is judged on the answer.
    let v = verify::verify_move(&beside, Movement::Four, &format!("{echo}\n\nMove: (4, 4)"));
    assert_eq!(v.reason, Reason::ReachedGoal, "{}", v.explanation);
}

#[test]
fn the_span_of_the_move_read_is_the_answer_not_the_echo() {
    let data = ring_coords();
    let reply = format!("{data}\n\n**Move:** `(1, 0)`");
    let (pos, [s, e]) = verify::read_move_at(&reply).expect("a move");
    assert_eq!((pos, &reply[s..e]), (Pos::new(1, 0), "(1, 0)"));
    assert_eq!(verify::read_move_at(&data), None, "an echo has no span");
    for reply in [data.clone(), format!("{data}\nI'll go to (0, 1)")] {
        assert_eq!(
            verify::read_move_at(&reply).map(|(p, _)| p),
            verify::read_move(&reply),
            "the span helper agrees with the reader: {reply:?}"
        );
    }
}

// ---------------------------------------------------------------------------------------
// B. A maze read through the text around it

/// The generation verdict of a reply against the ring.
fn generation(encoding: Encoding, reply: &str) -> verify::Verdict {
    verify::verify_generation(&ring(), Shape::Square, encoding, library(), reply)
}

/// `NEW` with its last row changed by `f`.
fn new_with_last_row(f: impl Fn(&str) -> String) -> String {
    let mut rows: Vec<String> = NEW.lines().map(str::to_string).collect();
    let last = rows.len() - 1;
    rows[last] = f(&rows[last]);
    rows.join("\n")
}

/// The stop tokens small models leave in their text.
const STOP_TOKENS: [&str; 7] = [
    "<end_of_turn>",
    "</s>",
    "<eos>",
    "<|im_end|>",
    "[/INST]",
    "<|eot_id|>",
    "<|endoftext|>",
];

#[test]
fn a_new_matrix_maze_is_read_through_the_text_around_its_rows() {
    let mut cases: Vec<(String, &str)> = vec![
        // A full stop or a few words after the last row.
        (new_with_last_row(|r| format!("{r} .")), "'.'"),
        (new_with_last_row(|r| format!("{r}.")), "'.'"),
        (
            format!(
                "Here is my new maze:\n\n{}\n\nP can reach G.",
                new_with_last_row(|r| format!("{r}."))
            ),
            "'.'",
        ),
        (
            new_with_last_row(|r| format!("{r} and that's the new maze.")),
            "and that's the new maze.",
        ),
        (new_with_last_row(|r| format!("{r} ...")), "'...'"),
        // Rows in emphasis.
        (
            NEW.lines()
                .map(|l| format!("**{l}**"))
                .collect::<Vec<_>>()
                .join("\n"),
            "'**' (rows 0-4)",
        ),
        (
            NEW.lines()
                .map(|l| format!("*{l}*"))
                .collect::<Vec<_>>()
                .join("\n"),
            "'*' (rows 0-4)",
        ),
        (
            NEW.lines()
                .map(|l| format!("- **{l}**"))
                .collect::<Vec<_>>()
                .join("\n"),
            "'**'",
        ),
        // Short comments after a row.
        (
            NEW.replacen("0 0 0 0 P", "0 0 0 0 P <- changed", 1),
            "'<- changed' (row 0)",
        ),
        (
            NEW.replacen("0 0 0 0 P", "0 0 0 0 P  # changed", 1)
                .replacen("G 0 0 0 0", "G 0 0 0 0  # changed", 1),
            "'# changed' (rows 0, 4)",
        ),
        (NEW.replacen("G 0 0 0 0", "G 0 0 0 0 // new", 1), "'// new'"),
        (
            NEW.replacen("0 0 0 0 P", "0 0 0 0 P   (P moved to the top right)", 1),
            "'(P moved to the top right)'",
        ),
        (NEW.replacen("G 0 0 0 0", "G 0 0 0 0 ← goal", 1), "'← goal'"),
        (
            format!(
                "```\n{}\n```",
                NEW.replacen("0 0 0 0 P", "0 0 0 0 P  <-- start", 1)
            ),
            "'<-- start'",
        ),
        (
            format!(
                "Row 0: {}",
                NEW.replacen("0 0 0 0 P", "0 0 0 0 P (new start)", 1)
            )
            .replacen('\n', "\nRow 1: ", 1),
            "'(new start)'",
        ),
    ];
    // A stop token left on the last row.
    for t in STOP_TOKENS {
        cases.push((new_with_last_row(|r| format!("{r}{t}")), t));
        cases.push((new_with_last_row(|r| format!("{r} {t}")), t));
        cases.push((
            format!("```\n{}\n```", new_with_last_row(|r| format!("{r}{t}"))),
            t,
        ));
    }
    for (reply, said) in &cases {
        let v = generation(Encoding::Matrix, reply);
        assert_eq!(
            v.reason,
            Reason::ValidNewMaze,
            "{reply:?}: {}",
            v.explanation
        );
        assert!(
            v.explanation
                .contains("Read after dropping text around rows")
                && v.explanation.contains(said),
            "{reply:?}: the explanation says what was dropped ({said}): {}",
            v.explanation
        );
    }
    assert!(cases.len() >= 30, "{} cases", cases.len());
}

#[test]
fn a_new_coordinate_list_is_read_through_stop_tokens_and_emphasis() {
    let new = Encoding::CoordList.render(&grid(NEW));
    let lines: Vec<&str> = new.lines().collect();
    let reordered = format!(
        "{}\n{}\n{}\n{}",
        lines[0],
        lines[2],
        lines[3],
        lines[1].replace("), (", "),\n(")
    );
    let mut cases: Vec<String> = Vec::new();
    for t in STOP_TOKENS {
        cases.push(format!("{new}{t}"));
        cases.push(format!("{new} {t}"));
        cases.push(format!("{t}{new}"));
        // The keys in another order, the wrapped Empty list last with the token on its
        // last line (read as prose ending the list before).
        cases.push(format!("{reordered}{t}"));
    }
    let wrapped = new
        .replacen("Empty: ", "Empty:\n", 1)
        .replace("), (", "),\n(");
    cases.extend([
        new.lines()
            .map(|l| format!("*{l}*"))
            .collect::<Vec<_>>()
            .join("\n"),
        new.lines()
            .map(|l| format!("**{l}**"))
            .collect::<Vec<_>>()
            .join("\n"),
        new.lines()
            .map(|l| {
                let (k, v) = l.split_once(':').expect("key: value");
                format!("* **{k}:** {}", v.trim())
            })
            .collect::<Vec<_>>()
            .join("\n"),
        format!("{wrapped}*"),
        format!("{wrapped}<end_of_turn>"),
        format!("{new}.\n\nThe player goes around the ring."),
    ]);
    for reply in &cases {
        let v = generation(Encoding::CoordList, reply);
        assert_eq!(
            v.reason,
            Reason::ValidNewMaze,
            "{reply:?}: {}",
            v.explanation
        );
    }
    let v = generation(Encoding::CoordList, &format!("{new}<end_of_turn>"));
    assert!(
        v.explanation.contains("'<end_of_turn>' (line 3)"),
        "the explanation says what was dropped: {}",
        v.explanation
    );
    let v = generation(Encoding::CoordList, &new);
    assert!(
        !v.explanation.contains("dropping"),
        "nothing dropped, nothing said: {}",
        v.explanation
    );
}

#[test]
fn a_block_labelled_as_the_original_after_the_new_maze_is_passed_over() {
    let coords_new = Encoding::CoordList.render(&grid(NEW));
    let coords_ring = ring_coords();
    let cases: Vec<(Encoding, String)> = vec![
        (Encoding::Matrix, format!("New maze:\n{NEW}\n\nOriginal maze:\n{RING}")),
        (
            Encoding::Matrix,
            format!("Here is my new maze:\n```\n{NEW}\n```\n\nFor reference, the original:\n```\n{RING}\n```"),
        ),
        (Encoding::Matrix, format!("{NEW}\n\nPrevious maze:\n{RING}")),
        (Encoding::Matrix, format!("{NEW}\n\n**The given maze was:**\n\n{RING}")),
        (Encoding::Matrix, format!("{NEW}\n\nOld:\n{RING}\n")),
        (Encoding::Matrix, format!("{NEW}\n\n### Original\n{RING}")),
        (Encoding::Matrix, format!("{NEW}\n\nYour maze, for comparison:\n{RING}")),
        (Encoding::Matrix, format!("{NEW}\n\nInitial maze:\n{RING}\n\nPrevious maze:\n{RING}")),
        (Encoding::Matrix, format!("After:\n{NEW}\n\nBefore:\n{RING}")),
        (
            Encoding::CoordList,
            format!("New maze:\n{coords_new}\n\nOriginal maze:\n{coords_ring}"),
        ),
        (
            Encoding::CoordList,
            format!("Here is the new maze:\n```\n{coords_new}\n```\nFor reference, the original:\n```\n{coords_ring}\n```"),
        ),
        (
            Encoding::CoordList,
            format!("{coords_new}\n\nThe original maze was:\n\n{coords_ring}"),
        ),
    ];
    for (e, reply) in &cases {
        let v = generation(*e, reply);
        assert_eq!(
            v.reason,
            Reason::ValidNewMaze,
            "{e} {reply:?}: {}",
            v.explanation
        );
        assert!(
            v.explanation
                .contains("passed over as a restatement of the original"),
            "{e} {reply:?}: the explanation says a block was passed over: {}",
            v.explanation
        );
        // The span helper the audit uses shows the block read.
        let [s, t] = e.extract_span(reply).expect("a span");
        let shown = e.extract(&reply[s..t], 5, 5);
        assert_eq!(shown, Ok(grid(NEW)), "{e}: the span is the new maze");
    }
}

#[test]
fn other_readings_of_several_blocks_stay_as_they_were() {
    let cases: Vec<(String, Result<Grid, ParseError>)> = vec![
        // The original before the new maze: the last block, as always.
        (format!("Original:\n{RING}\n\nNew:\n{NEW}"), Ok(grid(NEW))),
        (format!("Before:\n{RING}\n\nAfter:\n{NEW}"), Ok(grid(NEW))),
        // Judgement call, kept: an unlabelled copy after the new maze is the last block.
        (format!("{NEW}\n\n{RING}"), Ok(grid(RING))),
        // A label that mentions the original but names a new maze is not a reference.
        (
            format!("Original:\n{RING}\n\nHere is the original with P and G swapped:\n{NEW}"),
            Ok(grid(NEW)),
        ),
        (
            format!("{RING}\n\nMy new maze (the original, modified):\n{NEW}"),
            Ok(grid(NEW)),
        ),
        // Every block labelled as the original: the last, as before.
        (format!("Original:\n{RING}"), Ok(grid(RING))),
        (
            format!("I kept the layout but it is the same as before:\n{RING}"),
            Ok(grid(RING)),
        ),
        // Prose after the maze that starts with symbols is not a row of it.
        (
            format!("{NEW}\nP G are where the player and goal are."),
            Ok(grid(NEW)),
        ),
        (format!("{NEW}\n1 0 means wall, empty."), Ok(grid(NEW))),
        (
            format!("{NEW}\n\nLegend: 1 = wall, 0 = empty"),
            Ok(grid(NEW)),
        ),
        // A row with a bad cell is still reported, not dropped.
        (
            NEW.replacen("0 1 1 1 0", "0 1 X 1 0", 1),
            Err(ParseError::InvalidSymbol {
                symbol: "X".into(),
                row: 1,
            }),
        ),
    ];
    for (reply, want) in &cases {
        assert_eq!(&Encoding::Matrix.extract(reply, 5, 5), want, "{reply:?}");
    }
    // A row with one cell too many and a comment is not cut to fit: the block ends before
    // it (the maze is then the wrong size), as when the comment was not read at all.
    let extra = NEW.replacen("G 0 0 0 0", "G 0 0 0 0 0 <- extra", 1);
    let g = Encoding::Matrix.extract(&extra, 5, 5).expect("four rows");
    assert_eq!((g.rows(), g.cols()), (4, 5));
}

#[test]
fn what_was_set_aside_is_said_only_when_something_was() {
    let v = generation(Encoding::Matrix, NEW);
    assert_eq!(v.reason, Reason::ValidNewMaze);
    assert!(
        !v.explanation.contains("dropping") && !v.explanation.contains("passed over"),
        "{}",
        v.explanation
    );
    // A copy of the original with a full stop is still a copy, and says what was dropped.
    let copy = format!("{RING}.");
    let v = generation(Encoding::Matrix, &copy);
    assert_eq!(v.reason, Reason::IdenticalToOriginal, "{}", v.explanation);
    assert!(v.explanation.contains("'.' (row 4)"), "{}", v.explanation);
}

#[test]
fn every_name_parser_refuses_with_the_same_kind_of_sentence() {
    use shapemaze::core::maze::encoding::Encoding;
    use shapemaze::core::maze::shape::Shape;
    use shapemaze::core::model::preset::Preset;
    use shapemaze::core::original::audit::Scoring;
    use shapemaze::core::play::player::PlayerKind;
    use shapemaze::core::play::trial::Protocol;
    let refusals = [
        Shape::parse("hexagon").map(|_| ()).expect_err("no hexagon"),
        Encoding::parse("json").map(|_| ()).expect_err("no json"),
        Protocol::parse("lenient").map(|_| ()).expect_err("not yet"),
        PlayerKind::parse("robot")
            .map(|_| ())
            .expect_err("no robot"),
        Preset::parse("acme").map(|_| ()).expect_err("no acme"),
        Scoring::parse("loose").map(|_| ()).expect_err("no loose"),
    ];
    for e in refusals {
        let text = e.to_string();
        assert!(
            text.starts_with(&format!("unknown {} '{}': choose ", e.what, e.given)),
            "{text}"
        );
        assert!(!e.choices.is_empty(), "{text}");
    }
}
