//! The shape reader's unit tests (recognition.rs).

use super::*;

#[test]
fn recognition_matches_synonyms_as_whole_words() {
    assert_eq!(recognize("It's a SQUARE."), Some(Shape::Square));
    assert_eq!(recognize("The corridors form a helix"), Some(Shape::Spiral));
    assert_eq!(recognize("This looks like a C-shape"), Some(Shape::C));
    assert_eq!(recognize("A zigzag, like a lightning bolt"), Some(Shape::Z));
    assert_eq!(recognize("It's an X"), Some(Shape::Cross));
    assert_eq!(recognize("a semi-circle"), Some(Shape::C));
}

#[test]
fn single_letters_never_match_inside_words_or_sizes() {
    assert_eq!(recognize("It is a circle"), None);
    assert_eq!(recognize("a complex figure in a 5 X 5 grid"), None);
    assert_eq!(recognize("along the X-axis"), None);
    assert_eq!(
        recognize("see option c and figure x below"),
        None,
        "lower-case letters in prose"
    );
    assert_eq!(
        recognize("I wrote a c program"),
        None,
        "'a c' inside a clause is prose"
    );
}

#[test]
fn lower_case_letters_count_when_they_are_plainly_the_answer() {
    assert_eq!(recognize("c"), Some(Shape::C), "the whole answer");
    assert_eq!(recognize("Shape: z"), Some(Shape::Z), "right after a label");
    assert_eq!(
        recognize("it's a c."),
        Some(Shape::C),
        "'a c' ending the clause"
    );
    assert_eq!(recognize("an x"), Some(Shape::Cross));
    assert_eq!(recognize("a c shape, open to the right"), Some(Shape::C));
    assert_eq!(
        recognize("like the letter z"),
        Some(Shape::Z),
        "only comparison, still the answer"
    );
}

#[test]
fn shape_words_describing_the_grid_give_way_to_other_answers() {
    assert_eq!(
        recognize("The open cells form a C shape inside the 5x5 box."),
        Some(Shape::C)
    );
    assert_eq!(
        recognize("On this square grid the corridor is a spiral"),
        Some(Shape::Spiral)
    );
    assert_eq!(
        recognize("a 5x5 square"),
        Some(Shape::Square),
        "an aside is still an answer when alone"
    );
}

#[test]
fn comparisons_count_only_when_nothing_else_is_named() {
    assert_eq!(
        recognize("The shape is a C. It is like a square with one side open."),
        Some(Shape::C)
    );
    assert_eq!(recognize("It looks like a triangle"), Some(Shape::Triangle));
    assert_eq!(
        recognize("At first I thought the shape is a square, but actually it is a spiral"),
        Some(Shape::Spiral)
    );
}

#[test]
fn negated_mentions_are_not_answers() {
    assert_eq!(recognize("It is not a square."), None);
    assert_eq!(
        recognize("This is a spiral, not a square."),
        Some(Shape::Spiral)
    );
    assert_eq!(
        recognize("It isn't a box but a triangle"),
        Some(Shape::Triangle)
    );
    assert_eq!(recognize("a C rather than a square"), Some(Shape::C));
}

#[test]
fn a_dash_ends_the_reach_of_a_negation() {
    assert_eq!(
        recognize("Is it a square? No — it's a spiral."),
        Some(Shape::Spiral),
        "em dash"
    );
    assert_eq!(
        recognize("Is it a square? No - it's a spiral."),
        Some(Shape::Spiral),
        "a hyphen standing alone"
    );
    assert_eq!(
        recognize("Not a triangle – a C."),
        Some(Shape::C),
        "en dash"
    );
    assert_eq!(
        recognize("It's a spiral — not a square."),
        Some(Shape::Spiral),
        "a negation after the dash still counts"
    );
    assert_eq!(
        recognize("No — not a triangle."),
        None,
        "negated within its own clause"
    );
    assert_eq!(
        recognize("a C-shape, not an X-shape"),
        Some(Shape::C),
        "hyphens inside words are not dashes"
    );
}

#[test]
fn the_final_answer_counts_when_several_shapes_are_named() {
    assert_eq!(
        recognize("At first I thought square, but it is a spiral"),
        Some(Shape::Spiral)
    );
    assert_eq!(
        recognize("Answer: triangle. It is a bit like a pyramid or a box."),
        Some(Shape::Triangle)
    );
    assert_eq!(
        recognize("I moved three times. Shape: cross"),
        Some(Shape::Cross)
    );
    assert_eq!(
        recognize("I tried three times"),
        None,
        "counted 'times' is not a cross"
    );
}

#[test]
fn zig_zag_with_a_space_names_the_z() {
    for reply in [
        "It looks like a zig zag going from the top row to the bottom row.",
        "Shape: zig zag",
        "The open cells trace two zig zags joined at the middle.",
    ] {
        assert_eq!(recognize(reply), Some(Shape::Z), "{reply}");
    }
}

#[test]
fn a_u_names_the_c_while_no_design_has_a_u() {
    for reply in [
        "It's a U-shape: open at the top.",
        "The corridor forms a U.",
        "**Shape:** U-shaped",
        "I'd call it a U-shape or horseshoe.",
    ] {
        assert_eq!(recognize(reply), Some(Shape::C), "{reply}");
    }
    assert_eq!(
        recognize("The path makes a U-turn at the bottom, so it is a spiral."),
        Some(Shape::Spiral),
        "a U-turn is not a U"
    );
}

#[test]
fn with_u_in_play_a_u_names_the_u_and_the_c_stays_the_c() {
    let with_u = ShapeSet::with(&[Shape::U]);
    for reply in [
        "It's a U-shape: open at the top.",
        "The corridor forms a U.",
        "**Shape:** U-shaped",
        "I'd call it a U-shape or horseshoe.",
        "The open cells look like a horseshoe lying on its back.\n\nShape: U",
    ] {
        assert_eq!(recognize_in(reply, with_u), Some(Shape::U), "{reply}");
    }
    for reply in [
        "It is a C shape, open on the right side.",
        "Shape: C (like a U turned on its side, but it opens to the right)",
    ] {
        assert_eq!(recognize_in(reply, with_u), Some(Shape::C), "{reply}");
    }
    assert_eq!(
        recognize_in(
            "The path makes a U-turn at the bottom, so it is a spiral.",
            with_u
        ),
        Some(Shape::Spiral),
        "a U-turn is still not a U"
    );
    let v = verify_recognition(Shape::C, "Shape: U", with_u);
    assert_eq!(
        v.reason,
        Reason::WrongShape,
        "beside a U, U is another shape"
    );
    assert!(verify_recognition(Shape::C, "Shape: U", ShapeSet::STANDARD).passed());
}

#[test]
fn n_names_the_n_only_when_it_is_in_play() {
    let with_n = ShapeSet::with(&[Shape::N]);
    for reply in [
        "The corridors trace the letter N.",
        "Shape: N",
        "It is an N-shape: two vertical bars joined by a diagonal.",
    ] {
        assert_eq!(recognize_in(reply, with_n), Some(Shape::N), "{reply}");
        assert_eq!(recognize(reply), None, "without N in play: {reply}");
    }
    assert_eq!(
        recognize_in(
            "It looks like an N, or rather a Z turned on its side. Shape: Z",
            with_n
        ),
        Some(Shape::Z),
        "the labelled answer counts"
    );
    assert_eq!(
        recognize_in("Shape: N/A, I cannot tell", with_n),
        None,
        "N/A is no N"
    );
    // A list of every shape in play names none, and so does one of the design's six.
    let every = "It might be a square, cross, spiral, triangle, C, Z, U or N.";
    assert_eq!(recognize_in(every, ShapeSet::ALL), None);
    let six = "It could be a square, cross, spiral, triangle, C or Z; I can't tell.";
    assert_eq!(recognize_in(six, ShapeSet::ALL), None);
    // Only an N stands for "not applicable" before "/a".
    assert_eq!(
        recognize("Shape: C/arc (open on the right)"),
        Some(Shape::C),
        "a slash after another letter is not N/A"
    );
    assert_eq!(
        recognize_in(
            "It might be a square, cross, spiral, triangle, C or Z. Shape: N",
            ShapeSet::ALL
        ),
        Some(Shape::N),
        "an answer after the list counts"
    );
}

#[test]
fn a_hedged_list_of_every_shape_names_none() {
    for reply in [
        "It could be a square, cross, spiral, triangle, C or Z; I cannot tell from the grid alone.",
        "Honestly it might be a square, a cross, a spiral, a triangle, a C-shape or a Z-shape.",
        "Shape: square / cross / spiral / triangle / C / Z (unsure)",
    ] {
        assert_eq!(recognize(reply), None, "{reply}");
    }
    // Restating the options before answering is an answer.
    for (reply, shape) in [
        (
            "Is it a square, cross, spiral, triangle, C, or Z? Looking at the open cells, it's a spiral.",
            Shape::Spiral,
        ),
        (
            "The options are square, cross, spiral, triangle, C and Z. Answer: triangle",
            Shape::Triangle,
        ),
        (
            "Not a square or a cross; it could be a spiral or a triangle. I think it's a triangle.",
            Shape::Triangle,
        ),
    ] {
        assert_eq!(recognize(reply), Some(shape), "{reply}");
    }
    let v = verify_recognition(
        Shape::C,
        "It could be a square, cross, spiral, triangle, C or Z; I cannot tell.",
        ShapeSet::STANDARD,
    );
    assert_eq!(v.reason, Reason::NoShapeNamed);
    assert!(
        v.explanation.contains("list of every shape"),
        "{}",
        v.explanation
    );
}

#[test]
fn recognition_verdicts_report_the_predicted_shape() {
    let v = verify_recognition(Shape::Square, "a triangle", ShapeSet::STANDARD);
    assert_eq!(
        (v.reason, v.extracted),
        (Reason::WrongShape, Extracted::Shape(Shape::Triangle))
    );
    assert!(verify_recognition(Shape::Square, "box", ShapeSet::STANDARD).passed());
    assert_eq!(
        verify_recognition(Shape::Square, "dunno", ShapeSet::STANDARD).reason,
        Reason::NoShapeNamed
    );
}
