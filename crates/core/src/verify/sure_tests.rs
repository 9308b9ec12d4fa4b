//! When a reading is sure (decide.rs; docs/DECISIONS.md, sixth round: a reading marked sure
//! is a claim a reviewer should never have to check), on replies written for these tests:
//! each class of doubt, and the forms that stay sure. The moves answer the 5x5 ring with
//! the player at (0, 0) and the goal at (4, 4) ([`ring`]).

use super::fixtures::ring;
use super::*;
use crate::maze::grid::Movement;
use crate::maze::shape::ShapeSet;
use crate::maze::symbols::Symbols;
use crate::maze::templates::TemplateLibrary;

/// The move read from `reply` to the ring, and why it is unsure (`None`: sure).
fn move_doubt(reply: &str) -> (Extracted, Option<DoubtKind>) {
    let v = verify_move(&ring(), Movement::Four, reply);
    assert_eq!(
        v.sure,
        Some(v.doubt.is_none()),
        "{reply}: sure iff no doubt"
    );
    (v.extracted, v.doubt.map(|d| d.kind))
}

fn at(row: usize, col: usize) -> Extracted {
    Extracted::Cell(Pos::new(row, col))
}

/// The shape read from `reply` (the maze a square), and why it is unsure.
fn shape_doubt(reply: &str) -> (Extracted, Option<DoubtKind>) {
    let v = verify_recognition(Shape::Square, reply, ShapeSet::STANDARD);
    assert_eq!(
        v.sure,
        Some(v.doubt.is_none()),
        "{reply}: sure iff no doubt"
    );
    (v.extracted, v.doubt.map(|d| d.kind))
}

/// Why the maze read from `reply` (against the ring) is unsure.
fn maze_doubt_of(reply: &str) -> Option<DoubtKind> {
    let lib = TemplateLibrary::new(5);
    let v = verify_generation(&ring(), Shape::Square, Encoding::Matrix, &lib, reply);
    assert_eq!(
        v.sure,
        Some(v.doubt.is_none()),
        "{reply}: sure iff no doubt"
    );
    v.doubt.map(|d| d.kind)
}

#[test]
fn a_plain_answer_nothing_competes_with_is_sure() {
    for reply in [
        "Move: (0, 1)",
        "The top row is open all the way.\nTherefore, my next move is (0, 1).",
        "{\"move\": [0, 1]}",
        // The same cell named again, the goal far off and a place in a list of options do
        // not compete.
        "Heading for the goal at (4, 4) along the top.\nMy move: (0, 1), and (0, 1) is open.",
        "1. Move down to (1, 0) - open.\n2. Move right to (0, 1) - open.\nI will move to (0, 1).",
        "I step over to (0, 1).",
    ] {
        assert_eq!(move_doubt(reply), (at(0, 1), None), "{reply}");
    }
}

#[test]
fn an_answer_taken_over_by_later_deliberation_is_unsure() {
    let reply = "Move: (0, 1)\n\nOn second thought the left column is shorter, so (1, 0) it is.";
    assert_eq!(
        move_doubt(reply).1,
        Some(DoubtKind::NamedAfter),
        "the reply goes on to put another neighbour forward"
    );
    let reply = "My next move is (0, 1), though (1, 0) is as short.";
    assert_eq!(move_doubt(reply).1, Some(DoubtKind::FollowedInStatement));
}

#[test]
fn an_earlier_conclusion_that_gave_another_cell_makes_the_last_one_unsure() {
    let reply =
        "So my next move is (1, 1).\nHmm, the centre is solid wall.\nSo my next move is (1, 0).";
    assert_eq!(
        move_doubt(reply),
        (at(1, 0), Some(DoubtKind::RivalConclusion)),
        "the last conclusion is read, but an earlier one said otherwise"
    );
}

#[test]
fn a_reply_that_counts_from_one_is_unsure() {
    for reply in [
        "Counting rows and columns from 1, I move to (1, 2).",
        "Coordinates are (x, y). My next move is (1, 0).",
    ] {
        assert_eq!(
            move_doubt(reply).1,
            Some(DoubtKind::OtherConvention),
            "{reply}"
        );
    }
}

#[test]
fn one_cell_named_alone_is_sure_only_when_the_player_could_step_there() {
    assert_eq!(move_doubt("Going (1, 0)"), (at(1, 0), None));
    // The only cell named is the player's own: a place, not a move.
    assert_eq!(
        move_doubt("I stay put at (0, 0) and think.").1,
        Some(DoubtKind::NotFirstRank)
    );
    // Without the maze, a reader cannot tell: unsure.
    assert!(!move_reading("Going (1, 0)").sure());
    assert!(move_reading_from("Going (1, 0)", Pos::new(0, 0)).sure());
}

#[test]
fn no_move_is_sure_only_in_a_reply_without_a_number() {
    assert_eq!(
        move_doubt("I cannot tell which way is better yet."),
        (Extracted::Nothing, None)
    );
    for reply in [
        "row one, column zero",
        "Next: 0;1 maybe",
        "I'm stuck next to (1, 0) and (0, 1).",
    ] {
        assert_eq!(
            move_doubt(reply).1,
            Some(DoubtKind::Unread),
            "{reply}: a number may hold the move"
        );
    }
}

#[test]
fn a_fall_back_is_never_sure() {
    assert_eq!(
        move_doubt("Thinking about (1, 0), (0, 1) and (1, 1) here").1,
        Some(DoubtKind::FallBack)
    );
}

#[test]
fn a_shape_named_plainly_is_sure_and_one_offered_with_another_is_not() {
    assert_eq!(
        shape_doubt("The open cells make a closed ring: a square."),
        (Extracted::Shape(Shape::Square), None)
    );
    assert_eq!(
        shape_doubt("Either a square or a loop, I would say."),
        (Extracted::Shape(Shape::Square), Some(DoubtKind::Qualified))
    );
    assert_eq!(
        shape_doubt("It is a square that has its bottom edge missing.").1,
        Some(DoubtKind::Qualified)
    );
    // An alternative that names the same shape is no hedge.
    assert_eq!(shape_doubt("A U or a C shape.").1, None);
    // Offered tentatively beside another shape named as an aside.
    assert_eq!(
        shape_doubt("It resembles a square at first, but it could be a spiral.").1,
        Some(DoubtKind::Qualified)
    );
    assert_eq!(
        shape_doubt("It could be a spiral.").1,
        None,
        "no other shape named"
    );
}

#[test]
fn no_shape_is_sure_only_in_a_reply_with_no_trace_of_one() {
    assert_eq!(
        shape_doubt("Sorry, I cannot answer that."),
        (Extracted::Nothing, None)
    );
    for reply in [
        // A description that names no shape.
        "The corridor coils toward the middle like a snail.",
        // An answer line whose value the reader does not know.
        "Sura: mraba",
        // A script in which the reader knows no shape names.
        "ಇದು ಚೌಕಾಕಾರವಾಗಿದೆ",
        // A shape named, but not one of the design's.
        "It is a spiral? I will not guess.",
    ] {
        assert_eq!(shape_doubt(reply).1, Some(DoubtKind::Unread), "{reply}");
    }
}

#[test]
fn a_reply_that_ends_on_an_empty_label_was_cut_off() {
    let reply = "Maybe (0, 1), maybe (1, 0); both are open and the\nNext move:";
    let (_, doubt) = move_doubt(reply);
    assert!(
        matches!(doubt, Some(DoubtKind::CutOff | DoubtKind::FallBack)),
        "{doubt:?}"
    );
    assert_eq!(
        shape_doubt("At a glance, like a square, but let me check the corners.\nShape:").1,
        Some(DoubtKind::CutOff)
    );
}

#[test]
fn a_maze_is_unsure_when_taken_back_incomplete_another_size_or_in_other_symbols() {
    let rows = "1 1 1 1 1\n1 0 0 0 1\n1 0 1 0 1\n1 P 0 G 1\n1 1 1 1 1";
    assert_eq!(maze_doubt_of(&format!("New maze:\n{rows}")), None);
    assert_eq!(
        maze_doubt_of(&format!(
            "New maze:\n{rows}\n\nScratch that, it breaks the rules."
        )),
        Some(DoubtKind::TakenBack)
    );
    assert_eq!(
        maze_doubt_of("1 1 1 1 1\n1 0 0 0 1\n1 0 1 0 1\n1 P 0 0 1\n1 1 1 1 1"),
        Some(DoubtKind::Incomplete),
        "no goal"
    );
    assert_eq!(
        maze_doubt_of("1 1 1 1\n1 P 0 1\n1 0 G 1\n1 1 1 1"),
        Some(DoubtKind::OtherSize)
    );
    assert_eq!(
        maze_doubt_of("# # # # #\n# . . . #\n# . # . #\n# P . G #\n# # # # #"),
        Some(DoubtKind::Unread),
        "rows in other symbols"
    );
    assert_eq!(
        maze_doubt_of("1 1 1 1 1\n1 0 0 0 1\n1 0 X 0 1\n1 P 0 G 1\n1 1 1 1 1"),
        Some(DoubtKind::Unreadable),
        "a symbol the encoding has not"
    );
    // A block that is plainly the reply's own error (rows of unequal length) reads sure.
    assert_eq!(
        maze_doubt_of("1 1 1 1 1\n1 0 0 0 1\n1 0 1 0\n1 P 0 G 1\n1 1 1 1 1"),
        None
    );
}

#[test]
fn a_doubt_says_why_in_a_sentence_and_its_kind_reads_back() {
    let v = verify_move(
        &ring(),
        Movement::Four,
        "So my next move is (1, 1).\nNo: a wall.\nSo my next move is (1, 0).",
    );
    let d = v.doubt.expect("unsure");
    assert_eq!(d.why, "Unsure: another concluding sentence gives (1, 1).");
    assert_eq!(d.rival, at(1, 1));
    for kind in DoubtKind::ALL {
        let json = serde_json::to_string(&kind).expect("serializes");
        assert_eq!(json, format!("\"{}\"", kind.name()));
        assert_eq!(
            serde_json::from_str::<DoubtKind>(&json).expect("reads back"),
            kind
        );
    }
    let maze = maze_reading("# # #", Encoding::Matrix, 5, 5, Symbols::STANDARD);
    assert!(maze.sure(), "three symbols are no rows of a maze");
}
