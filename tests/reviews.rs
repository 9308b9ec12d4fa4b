//! `shapemaze score --reviews FILE`: people's readings applied to a folder (rates as read
//! and as reviewed) and the reader's agreement with the reviews of a random sample.
#![cfg(not(target_arch = "wasm32"))]

mod support;

use serde_json::{json, Value};
use shapemaze::core::maze::shape::Shape;
use shapemaze::core::play::trial::Phase;
use shapemaze::core::results::layout::ExportPath;
use shapemaze::core::results::rescore::{replies_read, Hints};
use shapemaze::core::verify::Extracted;
use support::run::{path_str, shapemaze};
use support::{write, write_export, TempDir};

fn all_row(report: &Value, key: &str) -> Value {
    let totals = if key.is_empty() {
        &report["totals"]
    } else {
        &report[key]["totals"]
    };
    totals
        .as_array()
        .and_then(|t| t.iter().find(|r| r["group"] == "all"))
        .cloned()
        .expect("an all row")
}

#[test]
fn reviews_give_the_rates_as_reviewed_and_the_readers_agreement_on_the_sample() {
    let dir = TempDir::new("reviews");
    let written = write_export(dir.path(), "qwen", 5, 1, 1, 3);
    let file = &written.trials[0].0;
    let actual = ExportPath::parse(file).expect("an export path").shape;
    let text = std::fs::read_to_string(dir.path().join(file)).expect("the transcript");
    let replies = replies_read(&text, &Hints::default());
    let first_move = replies
        .iter()
        .find(|r| r.phase == Phase::Solve && r.step == 0)
        .expect("a first move")
        .reading
        .value
        .clone();
    let shape_read = replies
        .iter()
        .find(|r| r.phase == Phase::Recognize)
        .expect("a recognition reply")
        .reading
        .value
        .clone();
    // The reviewer reads the shape otherwise: the right one where the reader read another,
    // and another where the reader read the right one, so the rate moves by one.
    let reviewed_shape = if shape_read == Extracted::Shape(actual) {
        if actual == Shape::Spiral {
            Shape::Square
        } else {
            Shape::Spiral
        }
    } else {
        actual
    };
    let lines = [
        json!({"trial": file, "phase": "solve", "step": 0, "value": first_move,
               "reviewer": "ab", "at": "2026-11-28T06:00:00Z", "sampled": true}),
        json!({"trial": file, "phase": "recognize", "step": 0, "value": reviewed_shape.name(),
               "reviewer": "ab", "at": "2026-11-28T06:01:00Z", "sampled": true}),
        json!({"trial": "nowhere/0.txt", "phase": "solve", "step": 0, "value": null,
               "sampled": true}),
    ];
    let reviews_dir = TempDir::new("reviews-file");
    let reviews = reviews_dir.path().join("reviews.jsonl");
    let body: String = lines.iter().map(|l| format!("{l}\n")).collect();
    write(&reviews, body.as_bytes());

    let run = shapemaze(&[
        "score",
        path_str(dir.path()),
        "--format",
        "json",
        "--reviews",
        path_str(&reviews),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let report: Value = serde_json::from_str(&run.stdout).expect("JSON");
    let review = &report["review"];
    assert_eq!(review["reviews"], 3);
    assert_eq!(review["applied"], 2);
    assert_eq!(review["unmatched"], json!(["nowhere/0.txt solve 0"]));
    let agreement = review["agreement"].as_array().expect("per phase");
    assert_eq!(agreement.len(), 2, "{agreement:?}");
    assert_eq!(
        (
            &agreement[0]["phase"],
            &agreement[0]["successes"],
            &agreement[0]["n"]
        ),
        (&json!("solve"), &json!(1), &json!(1))
    );
    assert_eq!(
        (
            &agreement[1]["phase"],
            &agreement[1]["successes"],
            &agreement[1]["n"]
        ),
        (&json!("recognize"), &json!(0), &json!(1))
    );
    let read = all_row(&report, "")["recognize"]["success"]
        .as_i64()
        .expect("a count");
    let as_reviewed = all_row(&report, "review")["recognize"]["success"]
        .as_i64()
        .expect("a count");
    assert_eq!(
        (as_reviewed - read).abs(),
        1,
        "the reviewed reading moves the rate"
    );
    assert_eq!(
        all_row(&report, "")["solve"],
        all_row(&report, "review")["solve"],
        "a confirmed move changes nothing"
    );

    let text = shapemaze(&[
        "score",
        path_str(dir.path()),
        "--reviews",
        path_str(&reviews),
    ]);
    assert_eq!(text.code, 0, "{}", text.stderr);
    for wanted in [
        "Reviews (",
        "3 in force, 2 applied",
        "In solve: the reader agrees with review on 1 of 1 sampled moves",
        "In recognize: the reader agrees with review on 0 of 1 sampled shapes",
        "nowhere/0.txt solve 0",
        "As reviewed",
    ] {
        assert!(text.stdout.contains(wanted), "{wanted}:\n{}", text.stdout);
    }
    // `report --reviews` states the same agreement, in JSON and in words.
    let report_run = shapemaze(&[
        "report",
        path_str(dir.path()),
        "--format",
        "json",
        "--reviews",
        path_str(&reviews),
    ]);
    assert_eq!(report_run.code, 0, "{}", report_run.stderr);
    let reported: Value = serde_json::from_str(&report_run.stdout).expect("JSON");
    assert_eq!(reported["review"]["agreement"], review["agreement"]);
    let words = shapemaze(&[
        "report",
        path_str(dir.path()),
        "--reviews",
        path_str(&reviews),
    ]);
    assert!(
        words
            .stdout
            .contains("In solve: the reader agrees with review on 1 of 1 sampled moves"),
        "{}",
        words.stdout
    );
    let plain = shapemaze(&["score", path_str(dir.path())]);
    assert!(
        !plain.stdout.contains("As reviewed"),
        "no reviews, no section"
    );
}

#[test]
fn a_reviews_file_that_cannot_be_read_is_named_with_its_line() {
    let dir = TempDir::new("reviews-bad");
    write_export(dir.path(), "qwen", 5, 1, 1, 3);
    let bad = dir.path().join("reviews.jsonl");
    write(
        &bad,
        b"{\"trial\":\"a\",\"phase\":\"solve\",\"value\":null}\nnot json\n",
    );
    shapemaze(&["score", path_str(dir.path()), "--reviews", path_str(&bad)])
        .assert_input_error("line 2 is not a review", "a bad line");
    let missing = dir.path().join("none.jsonl");
    shapemaze(&[
        "score",
        path_str(dir.path()),
        "--reviews",
        path_str(&missing),
    ])
    .assert_input_error("cannot read the reviews file", "a missing file");
    shapemaze(&[
        "score",
        path_str(dir.path()),
        "--scoring",
        "original",
        "--reviews",
        path_str(&bad),
    ])
    .assert_usage_error("strict scoring only", "reviews with another scoring");
}
