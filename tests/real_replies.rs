//! Real replies of a real model, hand-labelled: `tests/fixtures/real-replies/` (its README
//! says where they come from). Each reply is read by the verifiers and must read as the
//! careful grader's label says: the move it puts forward (or none), the shape it names (or
//! none), whether it offers a properly encoded new maze of the same shape.

use serde_json::Value;
use shapemaze::core::maze::encoding::Encoding;
use shapemaze::core::maze::grid::{Maze, Pos};
use shapemaze::core::maze::shape::Shape;
use shapemaze::core::maze::templates::TemplateLibrary;
use shapemaze::core::verify::{self, Outcome};

fn cases() -> Vec<Value> {
    let text = include_str!("fixtures/real-replies/gemma-3-270m.json");
    serde_json::from_str(text).expect("the fixture file is JSON")
}

fn field<'a>(case: &'a Value, key: &str) -> &'a str {
    case[key]
        .as_str()
        .unwrap_or_else(|| panic!("{key} in {}", case["id"]))
}

fn maze_of(case: &Value) -> Maze {
    let rows: Vec<&str> = case["maze"]
        .as_array()
        .expect("maze rows")
        .iter()
        .map(|r| r.as_str().expect("a row"))
        .collect();
    let size = rows.len();
    let grid = Encoding::Matrix
        .parse_grid(&rows.join("\n"), size, size)
        .expect("the recorded maze parses");
    Maze::from_grid(grid).expect("the recorded maze is a maze")
}

#[test]
fn the_fixtures_cover_every_phase_shape_and_encoding() {
    let cases = cases();
    assert!(cases.len() >= 36, "a few dozen replies: {}", cases.len());
    for phase in ["solve", "recognize", "generate"] {
        for encoding in ["matrix", "coord_list"] {
            let n = cases
                .iter()
                .filter(|c| c["phase"] == phase && c["encoding"] == encoding)
                .count();
            assert!(n >= 6, "{phase} / {encoding}: {n} replies");
        }
    }
    for c in &cases {
        assert!(!field(c, "prompt").is_empty() && !field(c, "note").is_empty());
    }
}

#[test]
fn solve_replies_read_as_the_grader_reads_them() {
    let mut checked = 0;
    for c in cases().iter().filter(|c| c["phase"] == "solve") {
        let want: Option<Pos> = serde_json::from_value(c["grader"]["move"].clone())
            .map(|m: Option<[usize; 2]>| m.map(|[r, cc]| Pos::new(r, cc)))
            .expect("a move label");
        let got = verify::read_move(field(c, "reply"));
        assert_eq!(got, want, "{}: {}", c["id"], c["note"]);
        checked += 1;
    }
    assert!(checked >= 20);
}

#[test]
fn recognition_replies_read_as_the_grader_reads_them() {
    for c in cases().iter().filter(|c| c["phase"] == "recognize") {
        let got = verify::recognize(field(c, "reply")).map(|s| s.name().to_string());
        let want = c["grader"]["shape"].as_str().map(str::to_string);
        let also: Vec<String> = c["grader"]["also_acceptable"]
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|s| s.as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default();
        assert!(
            got == want || got.as_ref().is_some_and(|g| also.contains(g)),
            "{}: read {got:?}, the grader reads {want:?}: {}",
            c["id"],
            c["note"]
        );
    }
}

#[test]
fn generation_replies_read_as_the_grader_reads_them() {
    let library = TemplateLibrary::new(5);
    for c in cases().iter().filter(|c| c["phase"] == "generate") {
        let shape = Shape::parse(field(c, "shape")).expect("a shape");
        let encoding = Encoding::parse(field(c, "encoding")).expect("an encoding");
        let verdict =
            verify::verify_generation(&maze_of(c), shape, encoding, &library, field(c, "reply"));
        let want = c["grader"]["valid_new_maze"].as_bool().expect("a label");
        assert_eq!(
            verdict.outcome == Outcome::Success,
            want,
            "{}: {:?} {}: {}",
            c["id"],
            verdict.reason,
            verdict.explanation,
            c["note"]
        );
    }
}
