//! The verifiers: each reads a reply the way a careful grader would and returns a
//! [`Verdict`] carrying what it extracted, a stable [`Reason`] and a sentence for people,
//! so a score can be audited without running anything again. Verdicts serialize to the JSON
//! of `shapemaze verify` (docs/cli.md) and read back from it.
//!
//! One file per phase, everything re-exported here (`verify::verify_move` and so on):
//! - `standing.rs`: how each cell a reply names stands (restated data, described, the
//!   start, refused, asked, a later step, or open to be the move), one type both move
//!   readers read; `reader.rs` says what each role of a reply gives as the move
//!   ([`read_move`]): the JSON, the answer lines (`answer.rs`, `move_answer.rs`), the
//!   concluding sentence (`conclusion.rs`), then the marked fall-backs;
//! - `lines.rs`: a reply's lines read once (answer lines, the ticked line, JSON) for every
//!   reader; `decide.rs`: the one place a reader's answer is decided, in one order over the
//!   roles, for the move and the shape alike; `outline.rs`: each line of a reply with its
//!   role ([`outline`]), as a person sees it;
//! - `moves.rs`: judging it ([`check_step`], [`verify_move`]) and the single-shot path
//!   ([`verify_path`]);
//! - `recognition.rs`: the shape a reply names ([`mentions`], [`recognize`],
//!   [`verify_recognition`]);
//! - `generation.rs`: a generated maze ([`verify_generation`]);
//! - `form.rs`: an answer held to a form (a JSON schema, a function's arguments, a
//!   transcription): each question's schema, its reading by serde and the verdict on it
//!   ([`form::read`], [`form::judge`]; the rules `schema` and `tool_call`).
//!
//! `verdict.rs` holds the verdict types and `words.rs` the word helpers the move and
//! recognition readers share (markup stripping, answer labels, negation bounded by its
//! clause); this file only names the files and re-exports what the rest of the core uses. The rules for
//! reading replies are stated in full in each file's documentation; the README's "How
//! replies are read" says the same for users. May import [`crate::maze`] and
//! [`crate::text`] only.

mod answer;
mod conclusion;
mod convention;
mod decide;
pub mod form;
mod generation;
mod lines;
mod move_answer;
mod moves;
mod outline;
mod reader;
mod reading;
mod recognition;
mod standing;
#[cfg(test)]
mod structure_tests;
#[cfg(all(test, not(target_arch = "wasm32")))]
mod sure_tests;
mod verdict;
mod words;

pub use answer::Rule;
pub use generation::{verify_generation, verify_generation_in};
pub use moves::{check_step, verify_move, verify_path};
pub use outline::{outline, Part, Role};
pub use reader::{read_move, read_move_at};
pub use reading::{maze_reading, move_reading, move_reading_from, shape_reading, Reading};
pub use verdict::{Doubt, DoubtKind, Extracted, GenerationChecks, Outcome, Reason, Verdict};
pub use words::span_in_reply;

// What the tests of this folder (`use super::*`) share; the serde tests run natively only.
#[cfg(all(test, not(target_arch = "wasm32")))]
use crate::maze::grid::Pos;
#[cfg(test)]
use crate::maze::{encoding::Encoding, shape::Shape};
pub use recognition::{
    mentions, mentions_in, recognize, recognize_at, recognize_in, verify_recognition, Mention,
};
#[cfg(all(test, not(target_arch = "wasm32")))]
use serde::{Deserialize, Serialize};
#[cfg(all(test, not(target_arch = "wasm32")))]
use std::fmt;
#[cfg(test)]
use words::plain;

/// Mazes the verifiers' tests share.
#[cfg(test)]
mod fixtures {
    use crate::maze::grid::{Mask, Maze, Pos};

    /// The 5x5 square ring with P at (0,0) and G at (4,4).
    pub(crate) fn ring() -> Maze {
        let mut m = Mask::empty(5, 5);
        for i in 0..5 {
            for p in [(0, i), (4, i), (i, 0), (i, 4)] {
                m.insert(Pos::new(p.0, p.1));
            }
        }
        Maze::from_mask(&m, Pos::new(0, 0), Pos::new(4, 4))
    }

    /// The 5x5 X (cross) with P at (0,0) and G at (4,4).
    pub(crate) fn x5() -> Maze {
        let mut m = Mask::empty(5, 5);
        for i in 0..5 {
            m.insert(Pos::new(i, i));
            m.insert(Pos::new(i, 4 - i));
        }
        Maze::from_mask(&m, Pos::new(0, 0), Pos::new(4, 4))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_reason_has_a_distinct_snake_case_name() {
        let mut names: Vec<&str> = Reason::ALL.iter().map(|r| r.as_str()).collect();
        assert!(names
            .iter()
            .all(|n| n.chars().all(|c| c.is_ascii_lowercase() || c == '_')));
        names.sort_unstable();
        let before = names.len();
        names.dedup();
        assert_eq!(before, names.len());
    }

    #[test]
    fn a_range_of_the_plain_text_is_found_again_in_the_reply() {
        // (reply, the text a range of its plain text covers)
        let cases = [
            ("Move: **(1, 2)**", "(1, 2)"),
            ("Move: `(1, 2)` now", "(1, 2)"),
            ("_**_(1, 2)", "(1, 2)"),
            ("é **Answer:** spirale é", "spirale"),
            ("plain (0, 0)", "(0, 0)"),
        ];
        for (reply, wanted) in cases {
            let text = plain(reply);
            let at = text.find(wanted).expect("in the plain text");
            let [s, e] = span_in_reply(reply, at, at + wanted.len());
            assert_eq!(&reply[s..e], wanted, "{reply}");
        }
        // An empty range stays empty, past the end stays at the end.
        let [s, e] = span_in_reply("**ab**", 1, 1);
        assert_eq!((s, e), (3, 3));
        assert_eq!(span_in_reply("ab", 5, 9), [2, 2]);
    }
}

/// serde_json is a native-only dependency.
#[cfg(all(test, not(target_arch = "wasm32")))]
mod serde_tests {
    use super::fixtures::ring;
    use super::*;
    use crate::maze::grid::Movement;
    use crate::maze::templates::TemplateLibrary;

    fn round_trip<T>(value: &T) -> T
    where
        T: Serialize + for<'de> Deserialize<'de> + fmt::Debug + PartialEq,
    {
        let json = serde_json::to_string(value).expect("serializes");
        let back: T = serde_json::from_str(&json)
            .unwrap_or_else(|e| panic!("{json} does not read back: {e}"));
        assert_eq!(&back, value, "{json}");
        assert_eq!(
            serde_json::to_string(&back).expect("serializes"),
            json,
            "the same JSON again"
        );
        back
    }

    #[test]
    fn every_reason_reads_back_from_its_snake_case_name() {
        for &r in Reason::ALL {
            let json = serde_json::to_string(&r).expect("serializes");
            assert_eq!(json, format!("\"{}\"", r.as_str()));
            round_trip(&r);
            assert_eq!(Reason::from_name(r.as_str()), Some(r));
        }
        assert_eq!(Reason::NAMES.len(), Reason::ALL.len());
    }

    #[test]
    fn an_unknown_reason_is_an_error_that_names_it_and_the_known_ones() {
        let err = serde_json::from_str::<Reason>("\"no_such_reason\"").expect_err("unknown");
        let msg = err.to_string();
        assert!(
            msg.contains("no_such_reason") && msg.contains("valid_move"),
            "{msg}"
        );
        assert!(serde_json::from_str::<Reason>("3").is_err(), "not a string");
    }

    #[test]
    fn every_outcome_reads_back_from_its_name_and_its_closing_word() {
        for o in Outcome::ALL {
            let json = serde_json::to_string(&o).expect("serializes");
            assert_eq!(json, format!("\"{}\"", o.name()));
            round_trip(&o);
            assert_eq!(Outcome::from_closing(o.closing()), Some(o));
        }
        assert_eq!(
            Outcome::from_closing("error"),
            None,
            "closing words are capitals"
        );
    }

    #[test]
    fn an_api_error_verdict_is_neither_a_pass_nor_a_failure() {
        let v = Verdict::api_error("HTTP 503 from the endpoint");
        assert_eq!((v.outcome, v.reason), (Outcome::Error, Reason::ApiError));
        assert!(!v.passed());
        let json = serde_json::to_string(&v).expect("serializes");
        assert_eq!(
            json,
            r#"{"outcome":"error","reason":"api_error","extracted":null,"explanation":"HTTP 503 from the endpoint"}"#
        );
        round_trip(&v);
    }

    #[test]
    fn verdicts_of_every_phase_and_reason_read_back_exactly() {
        let m = ring();
        let lib = TemplateLibrary::new(5);
        let new_maze = "P 0 0 0 0\n0 1 1 1 0\n0 1 1 1 0\n0 1 1 1 0\n0 0 0 G 0";
        let verdicts = [
            verify_move(&m, Movement::Four, "Move: (0, 1)"),
            verify_move(&m, Movement::Four, "no idea"),
            verify_path(
                &m,
                Movement::Four,
                "(0,0) (1,0) (2,0) (3,0) (4,0) (4,1) (4,2) (4,3) (4,4)",
            ),
            verify_recognition(
                Shape::Square,
                "a spiral",
                crate::maze::shape::ShapeSet::STANDARD,
            ),
            verify_generation(&m, Shape::Square, Encoding::Matrix, &lib, new_maze),
            verify_generation(&m, Shape::Square, Encoding::Matrix, &lib, "nothing"),
        ];
        let kinds: Vec<&Extracted> = verdicts.iter().map(|v| &v.extracted).collect();
        assert!(
            matches!(
                kinds[..],
                [
                    Extracted::Cell(_),
                    Extracted::Nothing,
                    Extracted::Cells(_),
                    Extracted::Shape(_),
                    Extracted::Grid(_),
                    Extracted::Nothing
                ]
            ),
            "every kind of extracted value is covered: {kinds:?}"
        );
        for v in &verdicts {
            round_trip(v);
        }
        for &reason in Reason::ALL {
            for extracted in kinds.iter().map(|e| (*e).clone()) {
                round_trip(&Verdict::new(false, reason, extracted, "why".into()));
            }
        }
        round_trip(&Extracted::Cells(Vec::new()));
    }

    #[test]
    fn the_documented_verdict_json_reads_back() {
        let json = r#"{"outcome":"success","reason":"valid_move","extracted":[1,2],"explanation":"Moved from (1, 1) to (1, 2)."}"#;
        let v: Verdict = serde_json::from_str(json).expect("reads");
        assert_eq!(v.reason, Reason::ValidMove);
        assert_eq!(v.extracted, Extracted::Cell(Pos::new(1, 2)));
        assert_eq!(v.checks, None);
        assert_eq!(serde_json::to_string(&v).expect("serializes"), json);
    }

    #[test]
    fn malformed_extracted_values_are_errors_with_a_message_not_panics() {
        for bad in [
            "[1]",
            "[1, 2, 3]",
            "[-1, 2]",
            "[[1, 2], 3]",
            "[[1, 2, 3]]",
            "[[1]]",
            "[\"1 0\", [1, 2]]",
            "[\"1 0\", \"1\"]",
            "[\"1 X\"]",
            "\"hexagon\"",
            "{}",
            "true",
            "1.5",
        ] {
            let err = serde_json::from_str::<Extracted>(bad).expect_err(bad);
            assert!(!err.to_string().is_empty(), "{bad}: an empty message");
        }
        let err = serde_json::from_str::<Verdict>(
            r#"{"outcome":"fail","reason":"wall","extracted":[1],"explanation":""}"#,
        )
        .expect_err("a one-number cell");
        assert!(err.to_string().contains("pair"), "{err}");
    }
}
