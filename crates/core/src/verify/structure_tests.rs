//! The readers on each class of form that issue 39 names (docs/DECISIONS.md, fifth round),
//! in replies written for these tests: answer lines in any language, full-width
//! punctuation, reasoning blocks, JSON answers, questions, corrections, Chinese, option
//! letters, mazes as tables, JSON and one-line rows, and the rule each reading names.

use super::fixtures::ring;
use super::*;
use crate::maze::grid::Movement;
use crate::maze::shape::ShapeSet;
use crate::maze::templates::TemplateLibrary;

fn cell(reply: &str) -> Option<(usize, usize)> {
    read_move(reply).map(|p| (p.row, p.col))
}

fn rule_of_move(reply: &str) -> (Option<Rule>, Option<bool>) {
    let v = verify_move(&ring(), Movement::Four, reply);
    (v.rule, v.sure)
}

#[test]
fn a_move_on_an_answer_line_is_read_whatever_the_lead_says() {
    let cases = [
        (
            "Walking the rim clockwise.\nMa décision : (0, 1)",
            Some((0, 1)),
        ),
        ("Left side is open.\n\u{2192} [1, 0]", Some((1, 0))),
        ("Top row first.\nChosen cell - 0, 1", Some((0, 1))),
        ("先看墙。\n结果：（１，０）", Some((1, 0))),
        ("* Entscheidung => r0c1", Some((0, 1))),
        ("Plan: follow the border.\nPick = {1, 0}", Some((1, 0))),
    ];
    for (reply, want) in cases {
        assert_eq!(cell(reply), want, "{reply}");
    }
    assert_eq!(
        rule_of_move("Plan: follow the border.\nPick = {1, 0}"),
        (Some(Rule::AnswerLabel), Some(true))
    );
}

#[test]
fn data_and_options_on_labelled_lines_are_not_answers() {
    // Restated data before the answer, and a list of options with no pick.
    assert_eq!(
        cell("Start: (0, 0)\nGoal: (4, 4)\nI take (1, 0)."),
        Some((1, 0))
    );
    assert_eq!(cell("Option A: (0, 1)\nOption B: (1, 0)"), Some((1, 0)));
    // Lines one under the other, each with a cell, list the options; the pick follows.
    assert_eq!(
        cell(
            "Up: (1, 0) is open\nSideways: (0, 1) is open too\n\nI pick the first.\nFinal — (1, 0)"
        ),
        Some((1, 0))
    );
    assert_eq!(
        rule_of_move("Up: (1, 0) is open\nSideways: (0, 1) is open too").0,
        Some(Rule::LastCoordinate)
    );
    assert_eq!(
        rule_of_move("Option A: (0, 1)\nOption B: (1, 0)").1,
        Some(false),
        "a fall-back, not sure"
    );
}

#[test]
fn a_json_answer_is_read_in_each_common_shape() {
    assert_eq!(cell("{\"move\": [0, 1]}"), Some((0, 1)));
    assert_eq!(
        cell("Sure.\n```json\n{\"next_move\": {\"row\": 1, \"col\": 0}}\n```"),
        Some((1, 0))
    );
    assert_eq!(
        cell("{\"Next-Cell\": \"(0, 1)\", \"why\": \"open\"}"),
        Some((0, 1))
    );
    assert_eq!(cell("{\"row\": 1, \"column\": 0}"), Some((1, 0)));
    assert_eq!(rule_of_move("{\"move\": [0, 1]}").0, Some(Rule::Json));
}

#[test]
fn reasoning_is_set_apart_and_a_reply_cut_inside_it_gives_no_move() {
    assert_eq!(
        cell("<think>(1, 0) or (0, 1)? the top row is open</think>\nGoing to (0, 1)."),
        Some((0, 1))
    );
    assert_eq!(
        cell("Both (1, 0) and (0, 1) are open.</think>\n(1, 0)"),
        Some((1, 0))
    );
    let v = verify_move(&ring(), Movement::Four, "<think>Let me try (1, 0) then");
    assert_eq!(v.reason, Reason::NoCoordinate);
    assert_eq!(v.rule, Some(Rule::CutInReasoning));
    assert!(v.explanation.contains("reasoning"), "{}", v.explanation);
}

#[test]
fn full_width_brackets_commas_and_colons_read_as_ascii() {
    assert_eq!(cell("Move：（0，1）"), Some((0, 1)));
    assert_eq!(cell("下一步是［1，0］"), Some((1, 0)));
    assert_eq!(
        recognize("形状：螺旋"),
        Some(Shape::Spiral),
        "a full-width colon after the label"
    );
}

#[test]
fn a_cell_asked_about_is_not_put_forward() {
    assert_eq!(cell("Would (1, 0) be a good idea?"), None);
    assert_eq!(
        cell("Is (1, 0) open? It is. Final pick: (1, 0)"),
        Some((1, 0))
    );
}

#[test]
fn a_correction_on_the_line_replaces_the_cell_before_it() {
    assert_eq!(cell("Move: (1, 1) - strike that, (1, 0)"), Some((1, 0)));
    assert_eq!(
        cell("Move: (1, 0), not (0, 1)"),
        Some((1, 0)),
        "no correction"
    );
}

#[test]
fn chinese_conclusion_phrases_read_as_english_ones_do() {
    assert_eq!(cell("右边是墙，我选择(1, 0)"), Some((1, 0)));
    assert_eq!(cell("从(0, 0)出发，移动到(0, 1)"), Some((0, 1)));
    assert_eq!(
        rule_of_move("从(0, 0)出发，移动到(0, 1)").0,
        Some(Rule::Concluded)
    );
}

#[test]
fn readings_say_whether_they_fell_back() {
    assert_eq!(
        rule_of_move("I weigh (1, 0), (0, 1) and (2, 2) here"),
        (Some(Rule::LastCoordinate), Some(false))
    );
    assert_eq!(rule_of_move("(0, 1)").1, Some(true));
    assert_eq!(rule_of_move("nothing here").0, Some(Rule::NoAnswer));
}

fn shape_rule(reply: &str) -> (Option<Shape>, Option<Rule>) {
    let v = verify_recognition(Shape::Square, reply, ShapeSet::STANDARD);
    let read = match v.extracted {
        Extracted::Shape(s) => Some(s),
        _ => None,
    };
    (read, v.rule)
}

#[test]
fn shapes_in_chinese_json_and_answer_lines_are_read() {
    assert_eq!(recognize("这个迷宫是三角形"), Some(Shape::Triangle));
    assert_eq!(recognize("它不是正方形，是十字形"), Some(Shape::Cross));
    assert_eq!(recognize("看起来像C形"), Some(Shape::C));
    assert_eq!(
        shape_rule("{\"shape\": \"zigzag\"}"),
        (Some(Shape::Z), Some(Rule::Json))
    );
    assert_eq!(
        shape_rule("The rim and the centre differ.\nMy verdict \u{2014} a box"),
        (Some(Shape::Square), Some(Rule::AnswerLabel))
    );
}

#[test]
fn option_letters_and_questions_name_no_shape() {
    assert_eq!(recognize("(C) cross"), Some(Shape::Cross));
    assert_eq!(
        recognize("A) square\nB) spiral\nI pick the second: spiral"),
        Some(Shape::Spiral)
    );
    assert_eq!(recognize("Could this be a spiral?"), None);
    assert_eq!(
        recognize("Could this be a spiral? No: it is a square."),
        Some(Shape::Square)
    );
}

#[test]
fn shape_readings_name_their_rule() {
    assert_eq!(
        shape_rule("a square."),
        (Some(Shape::Square), Some(Rule::Lone))
    );
    assert_eq!(
        shape_rule("first a square, then I see a spiral"),
        (Some(Shape::Spiral), Some(Rule::LastNamed))
    );
    assert_eq!(shape_rule("no idea").1, Some(Rule::NoAnswer));
}

/// The ring with P and G on the middle of the top and bottom rows.
const NEW_RING: [&str; 5] = [
    "0 0 P 0 0",
    "0 1 1 1 0",
    "0 1 1 1 0",
    "0 1 1 1 0",
    "0 0 G 0 0",
];

fn maze_read(reply: &str) -> (Option<String>, Option<Rule>) {
    let lib = TemplateLibrary::new(5);
    let v = verify_generation(&ring(), Shape::Square, Encoding::Matrix, &lib, reply);
    let grid = match &v.extracted {
        Extracted::Grid(g) => Some(Encoding::Matrix.render(g)),
        _ => None,
    };
    (grid, v.rule)
}

#[test]
fn mazes_as_tables_json_and_one_line_rows_are_read_whole() {
    let want = Some(NEW_RING.join("\n"));
    let table: Vec<String> = NEW_RING
        .iter()
        .map(|r| format!("| {} |", r.replace(' ', " | ")))
        .collect();
    let reply = format!(
        "New maze:\n\n{}\n|---|---|---|---|---|\n{}\n",
        table[0],
        table[1..].join("\n")
    );
    assert_eq!(
        maze_read(&reply).0,
        want,
        "a table whose header row is row 0"
    );
    let strings = format!("Here: {}", serde_json::json!(NEW_RING));
    assert_eq!(maze_read(&strings), (want.clone(), Some(Rule::Json)));
    let arrays: Vec<Vec<&str>> = NEW_RING.iter().map(|r| r.split(' ').collect()).collect();
    let reply = format!("{}", serde_json::json!({ "maze": arrays }));
    assert_eq!(
        maze_read(&reply).0,
        want,
        "arrays of cells inside an object"
    );
    let reply = format!("Maze: {}", NEW_RING.join(" / "));
    assert_eq!(maze_read(&reply).0, want, "rows on one line");
    let reply = NEW_RING.map(|r| r.replace(' ', "，")).join("\n");
    assert_eq!(maze_read(&reply).0, want, "full-width commas");
    let reply = format!("<think>\n{}\n</think>\nNo maze today.", NEW_RING.join("\n"));
    assert_eq!(
        maze_read(&reply),
        (None, Some(Rule::NoAnswer)),
        "a maze only in the reasoning"
    );
}

/// The readers are total on text assembled from the pieces their rules look at (keys,
/// tags, brackets, numbers, line breaks, labels, reasoning tags, full-width forms, CJK):
/// random text of any character seldom forms these, so the pieces are drawn instead.
#[cfg(not(target_arch = "wasm32"))]
mod never_panic {
    use super::*;
    use crate::maze::encoding::Encoding;
    use proptest::prelude::*;

    const PIECES: [&str; 40] = [
        "row",
        "col",
        "fila",
        "Spalte",
        ": ",
        "=",
        " ",
        "  ",
        "\n",
        "\n  ",
        "<row>",
        "</row>",
        "<col>",
        "</col>",
        "<answer>",
        "</answer>",
        "(",
        ")",
        "[",
        "]",
        ",",
        "1",
        "0",
        "4",
        "P",
        "G",
        "|",
        "---",
        "move to ",
        "Answer:",
        ". ",
        "?",
        "答案",
        "：",
        "（",
        "，",
        "<think>",
        "</think>",
        "**",
        "rather than ",
    ];

    proptest! {
        #[test]
        fn reading_text_made_of_the_readers_pieces_never_panics(
            picks in prop::collection::vec(0..PIECES.len(), 0..60)
        ) {
            let text: String = picks.iter().map(|&i| PIECES[i]).collect();
            let _ = read_move(&text);
            let _ = read_move_at(&text);
            let _ = recognize(&text);
            let _ = verify_move(&ring(), Movement::Four, &text);
            let _ = Encoding::Matrix.extract(&text, 5, 5);
            let _ = Encoding::CoordList.extract(&text, 5, 5);
        }
    }
}

#[test]
fn a_cell_rejected_weighed_or_planned_for_later_is_not_the_move() {
    let cases = [
        // Rejected right before it.
        ("Heading down to (1, 0) instead of (0, 1).", Some((1, 0))),
        ("My pick is (0, 1), rather than (1, 0).", Some((0, 1))),
        (
            "Down, so (1, 0) (not (1, 1): that one is a wall).",
            Some((1, 0)),
        ),
        // "or rather" still takes back.
        ("I go to (1, 0), or rather (0, 1).", Some((0, 1))),
        // Weighed as an alternative that only would do.
        (
            "(0, 1) it is. Going down to (1, 0) could work as well.",
            Some((0, 1)),
        ),
        ("I think (1, 0) would be my move.", Some((1, 0))),
        // The rest of a planned route after "then".
        (
            "I'll take (0, 1) and then keep right to (0, 4), then down to (4, 4).",
            Some((0, 1)),
        ),
        // Two sentences: the later one is not a step planned in the first.
        (
            "First thought: (0, 1). Then again, (1, 0) is better.",
            Some((1, 0)),
        ),
    ];
    for (reply, want) in cases {
        assert_eq!(cell(reply), want, "{reply}");
    }
}

#[test]
fn answers_first_in_tags_and_keys_of_structures_are_read() {
    let cases = [
        (
            "<final_answer>(1, 0)</final_answer>\nThe column is open down to (4, 0).",
            Some((1, 0)),
        ),
        (
            "(0, 1)\n\nReason: the top row is open all the way to (0, 4).",
            Some((0, 1)),
        ),
        ("```\nstep:\n  row: 1\n  column: 0\n```", Some((1, 0))),
        ("<step><row>0</row><col>1</col></step>", Some((0, 1))),
        ("Voy hacia abajo: fila 1, columna 0.", Some((1, 0))),
        ("Ich nehme Zeile 0, Spalte 1.", Some((0, 1))),
        // A labelled line of Chinese prose after the answer line is no second answer line
        // (its characters count as words). (A move phrase in it, 走到, still concludes.)
        (
            "下一步：(1, 0)\n说明：左边一列都是空的，可以一直往下 (4, 0)。",
            Some((1, 0)),
        ),
    ];
    for (reply, want) in cases {
        assert_eq!(cell(reply), want, "{reply}");
    }
}

#[test]
fn shapes_named_in_other_languages_or_by_the_reply_s_own_option_letter_are_read() {
    let cases = [
        ("Es un cuadrado hueco.", Some(Shape::Square)),
        ("Réponse : une croix.", Some(Shape::Cross)),
        (
            "Sieht aus wie ein Quadrat? Nein: ein Kreuz.",
            Some(Shape::Cross),
        ),
        ("La forma è una spirale.", Some(Shape::Spiral)),
        ("Het is een driehoek.", Some(Shape::Triangle)),
        ("Um triângulo.", Some(Shape::Triangle)),
        (
            "Which is it?\n(A) spiral\n(B) square\n(C) Z\nFinal answer: (B)",
            Some(Shape::Square),
        ),
        ("A. cross\nB. C\nAnswer: A", Some(Shape::Cross)),
        // A lone letter with no options of the reply's own names the C as before.
        ("Answer: C", Some(Shape::C)),
    ];
    for (reply, want) in cases {
        assert_eq!(recognize(reply), want, "{reply}");
    }
}

#[test]
fn mazes_with_notes_labels_between_rows_or_an_index_column_are_read() {
    let want = "1 1 P 1 1\n1 0 0 0 1\n0 0 1 0 0\n1 0 0 0 1\n1 1 G 1 1";
    let cases = [
        // A note after every row.
        "1 1 P 1 1  <- start\n1 0 0 0 1  <- ring\n0 0 1 0 0  <- middle\n1 0 0 0 1  <- ring\n1 1 G 1 1  <- goal",
        // A label above every row.
        "Top:\n1 1 P 1 1\nUpper:\n1 0 0 0 1\nMiddle row:\n0 0 1 0 0\nLower:\n1 0 0 0 1\nBottom:\n1 1 G 1 1",
        // A table whose first column counts the rows from 1, its header the columns.
        "| # | a | b | c | d | e |\n|---|---|---|---|---|---|\n| 1 | 1 | 1 | P | 1 | 1 |\n| 2 | 1 | 0 | 0 | 0 | 1 |\n| 3 | 0 | 0 | 1 | 0 | 0 |\n| 4 | 1 | 0 | 0 | 0 | 1 |\n| 5 | 1 | 1 | G | 1 | 1 |",
    ];
    for reply in cases {
        let grid = Encoding::Matrix
            .extract(reply, 5, 5)
            .unwrap_or_else(|e| panic!("{reply}: {e:?}"));
        assert_eq!(Encoding::Matrix.render(&grid), want, "{reply}");
    }
    // Two mazes each under its label stay two: the second is read.
    let two = "Original:\n1 1 P 1 1\n1 0 0 0 1\n0 0 1 0 0\n1 0 0 0 1\n1 1 G 1 1\nNew:\n1 1 P 1 1\n1 0 0 0 1\n0 0 0 0 0\n1 0 0 0 1\n1 1 G 1 1";
    let grid = Encoding::Matrix.extract(two, 5, 5).expect("the new maze");
    assert_eq!(
        Encoding::Matrix.render(&grid),
        "1 1 P 1 1\n1 0 0 0 1\n0 0 0 0 0\n1 0 0 0 1\n1 1 G 1 1"
    );
}

#[test]
fn an_answer_given_first_and_then_taken_back_gives_way() {
    // Reasons after an answer given first do not override it; a correction does.
    assert_eq!(
        cell("(0, 1)\n\nThe top row is open all the way to (0, 4)."),
        Some((0, 1))
    );
    assert_eq!(
        cell("(1, 1)\n\nWait, (1, 1) is a wall. Going down to (1, 0) instead."),
        Some((1, 0))
    );
    assert_eq!(
        recognize("A square.\nActually no: the corridor coils inward, a spiral."),
        Some(Shape::Spiral)
    );
}

#[test]
fn maze_rows_with_other_separators_labels_and_frames_are_read() {
    let want = "0 0 P 0 0\n0 1 1 1 0\n0 1 1 1 0\n0 1 1 1 0\n0 0 G 0 0";
    let cases = [
        // Cells split by semicolons.
        "Maze:\n0;0;P;0;0\n0;1;1;1;0\n0;1;1;1;0\n0;1;1;1;0\n0;0;G;0;0",
        // A short row label in front of every row, a header of column labels above.
        "   x0 x1 x2 x3 x4\ny0  0 0 P 0 0\ny1  0 1 1 1 0\ny2  0 1 1 1 0\ny3  0 1 1 1 0\ny4  0 0 G 0 0",
        "R0: 0 0 P 0 0\nR1: 0 1 1 1 0\nR2: 0 1 1 1 0\nR3: 0 1 1 1 0\nR4: 0 0 G 0 0",
        // Rows named by letter.
        "row a: 0 0 P 0 0\nrow b: 0 1 1 1 0\nrow c: 0 1 1 1 0\nrow d: 0 1 1 1 0\nrow e: 0 0 G 0 0",
        // A numbered list, each row in code.
        "1) `0 0 P 0 0`\n2) `0 1 1 1 0`\n3) `0 1 1 1 0`\n4) `0 1 1 1 0`\n5) `0 0 G 0 0`",
        // A frame drawn with box-drawing lines.
        "╔═════════╗\n║0 0 P 0 0║\n║0 1 1 1 0║\n║0 1 1 1 0║\n║0 1 1 1 0║\n║0 0 G 0 0║\n╚═════════╝",
        // A structure named in code: a call, an assignment.
        "np.array([[0, 0, 'P', 0, 0],\n          [0, 1, 1, 1, 0],\n          [0, 1, 1, 1, 0],\n          [0, 1, 1, 1, 0],\n          [0, 0, 'G', 0, 0]], dtype=object)",
        "grid = [\"0 0 P 0 0\",\n        \"0 1 1 1 0\",\n        \"0 1 1 1 0\",\n        \"0 1 1 1 0\",\n        \"0 0 G 0 0\"]",
    ];
    for reply in cases {
        let grid = Encoding::Matrix
            .extract(reply, 5, 5)
            .unwrap_or_else(|e| panic!("{reply}: {e:?}"));
        assert_eq!(Encoding::Matrix.render(&grid), want, "{reply}");
    }
    // Prose that opens like a label is still prose.
    assert!(Encoding::Matrix
        .extract("Row 1 is open.\n1. The goal is below.\nr2 has walls.", 5, 5)
        .is_err());
}

#[test]
fn shapes_named_in_japanese_korean_and_russian_are_read() {
    let cases = [
        ("迷路の形：三角形です。", Some(Shape::Triangle)),
        ("答え：渦巻き", Some(Shape::Spiral)),
        ("정답은 정사각형입니다.", Some(Shape::Square)),
        ("형태: 십자형", Some(Shape::Cross)),
        ("Ответ: спираль.", Some(Shape::Spiral)),
        ("Форма — треугольник.", Some(Shape::Triangle)),
        ("これはジグザグの形です。", Some(Shape::Z)),
    ];
    for (reply, want) in cases {
        assert_eq!(recognize(reply), want, "{reply}");
    }
}

#[test]
fn a_korean_word_with_its_ending_is_still_the_word() {
    assert_eq!(recognize("모양은 나선형이에요."), Some(Shape::Spiral));
    // A longer word that ends in a shape's name is that word: a rectangle is no square.
    assert_eq!(recognize("직사각형"), None);
}

#[test]
fn a_sentence_whose_subject_is_the_move_concludes_whatever_qualifies_it() {
    // "the|my|our", up to two words, "move|step|choice", "is|will be|...": a conclusion.
    assert_eq!(
        cell("Move: (1, 1)\n\nOn second look (1, 1) is blocked. The proper move is (1, 0)."),
        Some((1, 0))
    );
    assert_eq!(
        cell("(0, 1) looks fine, but my safest step will be (1, 0)."),
        Some((1, 0))
    );
    assert_eq!(
        cell("Start (0, 0). Our optimal choice would be (0, 1), heading for (4, 4)."),
        Some((0, 1))
    );
    // Some other move is no conclusion: a possible one, an earlier one, a wrong one.
    assert_eq!(
        cell("The previous move was (1, 0) and the wrong move is (1, 1). Move: (2, 0)"),
        Some((2, 0))
    );
    assert_eq!(
        cell("Next move: (0, 1)\nA possible step is (1, 0) too, the other choice is (1, 0)."),
        Some((0, 1))
    );
    // What is available is an option, not yet a choice.
    assert_eq!(
        cell("Move: (0, 1)\n\nFrom there the only available move is back to (0, 0)."),
        Some((0, 1))
    );
}

#[test]
fn a_start_or_a_refused_cell_read_as_the_move_is_a_fall_back() {
    // Read only because nothing else is named: a guess, never `lone`.
    assert_eq!(cell("Heading down, away from (0, 0)."), Some((0, 0)));
    assert_eq!(
        rule_of_move("Heading down, away from (0, 0)."),
        (Some(Rule::LastCoordinate), Some(false))
    );
    assert_eq!(
        rule_of_move("I would rather not step to (1, 1)."),
        (Some(Rule::LastCoordinate), Some(false))
    );
    // One cell that is neither is read surely.
    assert_eq!(rule_of_move("(1, 0)").1, Some(true));
    assert_eq!(
        rule_of_move("The corridor bends; I stay on the rim, (1, 0) being open"),
        (Some(Rule::Lone), Some(true))
    );
}

#[test]
fn a_line_that_lists_several_values_leaves_the_answer_line_beside_it_alone() {
    assert_eq!(
        recognize("Most likely: spiral\nAlso possible: square, C"),
        Some(Shape::Spiral)
    );
    assert_eq!(cell("Pick: (1, 0)\nRejected: (0, 1), (1, 1)"), Some((1, 0)));
    // Lines that each hold one value are still options, not an answer.
    assert_eq!(rule_of_move("Up: (0, 1)\nLeft: (1, 0)").1, Some(false));
}

#[test]
fn a_candidate_ticked_among_candidates_struck_out_is_the_answer() {
    assert_eq!(
        recognize("| candidate | verdict |\n|---|---|\n| cross | \u{2717} |\n| triangle | \u{2714} |\n| Z | \u{2717} |"),
        Some(Shape::Triangle)
    );
    assert_eq!(
        recognize("- [ ] spiral\n- [x] square\n- [ ] C"),
        Some(Shape::Square)
    );
    assert_eq!(
        cell("Neighbours:\n(0, 1) \u{2717} longer\n(1, 0) \u{2705}\n(1, 1) \u{2717} wall"),
        Some((1, 0))
    );
    // Ticks alone, or two ticks, pick nothing by this rule.
    assert_eq!(
        recognize("\u{2713} checked the rows\n\u{2713} checked the columns\nShape: cross"),
        Some(Shape::Cross)
    );
    assert_ne!(
        rule_of_move("Options:\n(0, 1) \u{2713}\n(1, 0) \u{2713}\n(1, 1) \u{2717}").0,
        Some(Rule::AnswerLabel)
    );
}

#[test]
fn mazes_in_latex_cjk_row_labels_bare_brackets_and_json_strings_are_read() {
    let want = "0 0 P 0 0\n0 1 1 1 0\n0 1 1 1 0\n0 1 1 1 0\n0 0 G 0 0";
    let cases = [
        // LaTeX: `&` between cells, `\\` ending each row, inside a pmatrix.
        "New maze:\n\\[\n\\begin{pmatrix}\n0 & 0 & P & 0 & 0 \\\\\n0 & 1 & 1 & 1 & 0 \\\\\n0 & 1 & 1 & 1 & 0 \\\\\n0 & 1 & 1 & 1 & 0 \\\\\n0 & 0 & G & 0 & 0\n\\end{pmatrix}\n\\]",
        // Chinese row labels (full-width colons), and Japanese ones.
        "第0行：0 0 P 0 0\n第1行：0 1 1 1 0\n第2行：0 1 1 1 0\n第3行：0 1 1 1 0\n第4行：0 0 G 0 0",
        "1行目 0 0 P 0 0\n2行目 0 1 1 1 0\n3行目 0 1 1 1 0\n4行目 0 1 1 1 0\n5行目 0 0 G 0 0",
        // Nested brackets with bare cells on one line, a remark after them.
        "maze = [[0,0,P,0,0], [0,1,1,1,0], [0,1,1,1,0], [0,1,1,1,0], [0,0,G,0,0]]  # a ring",
        // An assignment on one line, rows split by semicolons (MATLAB, Octave).
        "A = [0 0 P 0 0; 0 1 1 1 0; 0 1 1 1 0; 0 1 1 1 0; 0 0 G 0 0];",
        // JSON holding the maze as one string with its line breaks escaped.
        "{\"grid\": \"0 0 P 0 0\\n0 1 1 1 0\\n0 1 1 1 0\\n0 1 1 1 0\\n0 0 G 0 0\", \"note\": \"a ring\"}",
    ];
    for reply in cases {
        let grid = Encoding::Matrix
            .extract(reply, 5, 5)
            .unwrap_or_else(|e| panic!("{reply}: {e:?}"));
        assert_eq!(Encoding::Matrix.render(&grid), want, "{reply}");
    }
    // A JSON object whose maze is an array still reads (the object is read inside).
    let nested =
        "{\"maze\": [[0,0,\"P\",0,0],[0,1,1,1,0],[0,1,1,1,0],[0,1,1,1,0],[0,0,\"G\",0,0]]}";
    let grid = Encoding::Matrix.extract(nested, 5, 5).expect("a maze");
    assert_eq!(Encoding::Matrix.render(&grid), want);
    // LaTeX's markup alone, and a bracketed list of words, are no rows.
    assert!(Encoding::Matrix
        .extract("\\begin{bmatrix}\n\\end{bmatrix}\n[[a,b],[c,d]]", 5, 5)
        .is_err());
}

#[test]
fn a_question_answered_yes_names_its_shape_and_a_no_or_silence_does_not() {
    assert_eq!(
        recognize("Could it be a cross? Definitely. The arms meet in the middle."),
        Some(Shape::Cross)
    );
    assert_eq!(
        recognize("Does it wind inward like a spiral? **Yes** \u{2014} four turns."),
        Some(Shape::Spiral)
    );
    // "Yes and no" is no answer; a question left open or answered no names nothing.
    assert_eq!(
        recognize("Is it a triangle? Yes and no, hard to say."),
        None
    );
    assert_eq!(recognize("Is it a triangle? I keep wondering."), None);
    assert_eq!(
        recognize("Is it a triangle? No. It is a Z."),
        Some(Shape::Z)
    );
}

#[test]
fn json_keys_ending_in_shape_or_answer_and_chinese_hedges_are_read_as_such() {
    assert_eq!(
        shape_rule("{\"predicted_shape\": \"triangle\", \"others\": [\"square\"]}"),
        (Some(Shape::Triangle), Some(Rule::Json))
    );
    assert_eq!(
        shape_rule("{\"my-answer\": \"C\", \"why\": \"opens to the left\"}"),
        (Some(Shape::C), Some(Rule::Json))
    );
    // A hedge over every shape in Chinese, joined by 、 and 或 / 和, names none.
    assert_eq!(
        recognize("也许是十字、正方形、三角形、螺旋、Z形和C形。"),
        None
    );
    assert_eq!(recognize("是正方形或者十字形"), Some(Shape::Cross));
}

#[test]
fn a_cell_inside_a_tool_call_and_a_cell_refused_in_chinese_are_read_as_such() {
    // A function call's arguments hold the cell, at any depth up to three.
    assert_eq!(
        cell("{\"name\": \"step\", \"args\": {\"row\": 2, \"col\": 3}}"),
        Some((2, 3))
    );
    assert_eq!(
        cell("{\"call\": {\"fn\": \"go\", \"params\": {\"target\": {\"r\": 4, \"c\": 0}}}}"),
        Some((4, 0))
    );
    // A cell after 不 or 别 and a verb of moving is refused, not the move.
    assert_eq!(cell("往右走到 (0, 1)。别去 (1, 0)，那是墙。"), Some((0, 1)));
    assert_eq!(cell("我不能移到 (2, 2)，所以走 (1, 2)"), Some((1, 2)));
}

#[test]
fn shapes_named_in_vietnamese_indonesian_turkish_and_polish_are_read() {
    for (reply, shape) in [
        ("Đây là hình vuông.", Shape::Square),
        ("Jawaban: bujur sangkar", Shape::Square),
        ("Bence bu bir kare.", Shape::Square),
        ("To jest krzyż.", Shape::Cross),
        ("Bentuk: tanda silang", Shape::Cross),
        ("Hành lang tạo thành một xoắn ốc.", Shape::Spiral),
        ("Cevap: sarmal", Shape::Spiral),
        ("Odpowiedź: spirala", Shape::Spiral),
        ("Hình tam giác", Shape::Triangle),
        ("Ini segitiga.", Shape::Triangle),
        ("Şekil: üçgen", Shape::Triangle),
        ("Kształt to trójkąt.", Shape::Triangle),
        ("Yol bir zikzak çiziyor.", Shape::Z),
        ("Widzę zygzak.", Shape::Z),
    ] {
        assert_eq!(recognize(reply), Some(shape), "{reply}");
    }
    // "kare" is a word of its own, not a part of "karena" (Indonesian "because").
    assert_eq!(recognize("karena itu segitiga"), Some(Shape::Triangle));
}
