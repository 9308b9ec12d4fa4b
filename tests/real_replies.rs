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

/// One reply of `fixtures/real-logprobs/`: its text and tokens, as a record keeps them.
fn logprob_cases() -> Vec<(
    String,
    String,
    Vec<shapemaze::core::model::reply::TokenLogprob>,
)> {
    let text = include_str!("fixtures/real-logprobs/gemma-3-270m.json");
    let cases: Vec<Value> = serde_json::from_str(text).expect("the fixture file is JSON");
    cases
        .into_iter()
        .map(|c| {
            let id = c["id"].as_str().expect("an id").to_string();
            match c.get("body") {
                // The server's whole answer, read as the chat client reads it.
                Some(body) => {
                    let r = shapemaze::core::model::response::parse_response(&body.to_string())
                        .expect("the recorded answer parses");
                    (id, r.content.clone(), r.logprobs.clone().expect("logprobs"))
                }
                None => {
                    let m = &c["record_message"];
                    let tokens = serde_json::from_value(m["logprobs"].clone()).expect("tokens");
                    (id, field(m, "content").to_string(), tokens)
                }
            }
        })
        .collect()
}

#[test]
fn real_token_probabilities_are_read_at_the_move_as_a_careful_grader_reads_them() {
    use shapemaze::core::results::choice::{move_choice, NoChoice};
    // id, the move (row, col) or none, then the written row's and column's probability and
    // the runner-up row, as read by hand from the fixture's tokens (two places).
    type Label = (
        &'static str,
        Option<(usize, usize)>,
        f64,
        f64,
        Option<(usize, f64)>,
    );
    let labels: [Label; 6] = [
        // "(0, 2)" is where P is, described; "(1," is cut off by the token limit.
        ("gemma-3-270m/a", None, 0.0, 0.0, None),
        // Echoes the example it was given: row 2 at 61%, row 1 next at 15%.
        ("gemma-3-270m/b", Some((2, 3)), 0.61, 0.89, Some((1, 0.15))),
        ("gemma-3-270m/c", Some((1, 2)), 0.90, 0.93, Some((0, 0.03))),
        // Asked to repeat (1, 0), it wrote (2, 0): row 2 at 39%, row 1 all but tied at 38%.
        ("gemma-3-270m/d", Some((2, 0)), 0.39, 0.77, Some((1, 0.38))),
        // Square brackets: row 3 at 41%, row 4 at 21%.
        ("gemma-3-270m/e", Some((3, 1)), 0.41, 0.61, Some((4, 0.21))),
        (
            "gemma-3-270m/trial-square-matrix-0/solve-1",
            None,
            0.0,
            0.0,
            None,
        ),
    ];
    let cases = logprob_cases();
    assert_eq!(cases.len(), labels.len());
    for ((id, content, tokens), (label, cell, row_p, col_p, runner_up)) in cases.iter().zip(labels)
    {
        assert_eq!(id, label);
        assert_eq!(
            tokens.iter().map(|t| t.token.as_str()).collect::<String>(),
            *content,
            "{id}: the tokens spell the reply"
        );
        assert!(tokens.iter().all(|t| !t.top_logprobs.is_empty()), "{id}");
        let read = move_choice(content, tokens);
        let Some((r, c)) = cell else {
            assert_eq!(read, Err(NoChoice::NoMove), "{id}");
            continue;
        };
        let m = read.unwrap_or_else(|e| panic!("{id}: {e:?}"));
        assert_eq!((m.cell.row, m.cell.col), (r, c), "{id}");
        let near = |a: f64, b: f64| (a - b).abs() < 0.006;
        assert!(near(m.row.of(r), row_p), "{id}: row {}", m.row.of(r));
        assert!(near(m.col.of(c), col_p), "{id}: column {}", m.col.of(c));
        if let Some((n, p)) = runner_up {
            assert_eq!(m.row.values[1].0, n, "{id}: {:?}", m.row.values);
            assert!(near(m.row.values[1].1, p), "{id}: {:?}", m.row.values);
        }
        for s in [&m.row, &m.col] {
            let total: f64 = s.values.iter().map(|v| v.1).sum::<f64>() + s.other;
            assert!(total <= 1.0 + 1e-9, "{id}: {total}");
        }
    }
}
