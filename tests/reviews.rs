//! `shapemaze score --reviews FILE`: people's readings applied to a folder (rates as read
//! and as reviewed) and the reader's agreement with the reviews of a random sample.
#![cfg(not(target_arch = "wasm32"))]

mod support;

use serde_json::{json, Value};
use shapemaze::core::maze::shape::Shape;
use shapemaze::core::play::phase::Phase;
use shapemaze::core::results::layout::ExportPath;
use shapemaze::core::results::record::TrialRecord;
use shapemaze::core::results::rescore::{replies_read, Hints};
use shapemaze::core::verify::Extracted;
use support::run::{path_str, shapemaze};
use support::{write, write_export, TempDir};

/// `shapemaze score DIR --format json --reviews FILE`, read.
fn score_with_reviews(dir: &std::path::Path, reviews: &std::path::Path) -> Value {
    json_with_reviews("score", dir, reviews)
}

/// `shapemaze COMMAND DIR --format json --reviews FILE` (score or report), read.
fn json_with_reviews(command: &str, dir: &std::path::Path, reviews: &std::path::Path) -> Value {
    let run = shapemaze(&[
        command,
        path_str(dir),
        "--format",
        "json",
        "--reviews",
        path_str(reviews),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    serde_json::from_str(&run.stdout).expect("JSON")
}

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

    let report = score_with_reviews(dir.path(), &reviews);
    let review = &report["review"];
    assert_eq!(review["reviews"], 3);
    assert_eq!(review["applied"], 2);
    assert_eq!(review["unmatched"], json!(["nowhere/0.txt solve 0"]));
    let agreement = review["agreement"].as_array().expect("per phase");
    assert_eq!(agreement.len(), 2, "{agreement:?}");
    assert_eq!(
        (
            &agreement[0]["phase"],
            &agreement[0]["sure"],
            &agreement[0]["successes"],
            &agreement[0]["n"]
        ),
        (&json!("solve"), &json!(true), &json!(1), &json!(1))
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
        "In solve: of 1 sure reading of moves reviewed in the random sample, 1 read right",
        "In recognize: of 1 sure reading of shapes reviewed in the random sample, 0 read right",
        "nowhere/0.txt solve 0",
        "As reviewed",
    ] {
        assert!(text.stdout.contains(wanted), "{wanted}:\n{}", text.stdout);
    }
    // `report --reviews` states the same agreement, in JSON and in words.
    let reported = json_with_reviews("report", dir.path(), &reviews);
    assert_eq!(reported["review"]["agreement"], review["agreement"]);
    let words = shapemaze(&[
        "report",
        path_str(dir.path()),
        "--reviews",
        path_str(&reviews),
    ]);
    assert!(
        words.stdout.contains(
            "In solve: of 1 sure reading of moves reviewed in the random sample, 1 read right"
        ),
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

/// The reviews the agreement test makes: for each transcript, by its place in the list, one
/// of four kinds, so the folder holds a confirmed move, a changed shape, a maze read as no
/// answer, and the phase-ending move of a solve read as another valid move (which lets the
/// phase go on past the replies recorded).
fn mixed_reviews(files: &[String], records: &[TrialRecord]) -> Vec<Value> {
    let mut lines = Vec::new();
    for (i, (file, record)) in files.iter().zip(records).enumerate() {
        let text = std::fs::read_to_string(file).expect("the transcript");
        let replies = replies_read(&text, &Hints::default());
        let line = |phase: Phase, step: usize, value: Value| {
            json!({"trial": ExportPath::of_record(record).render(), "phase": phase.name(),
                   "step": step, "value": value, "reviewer": "ab", "sampled": i % 2 == 0})
        };
        let solves: Vec<_> = replies.iter().filter(|r| r.phase == Phase::Solve).collect();
        match i % 4 {
            0 => {
                // The last move of the solve read as a valid move that does not reach G.
                let Some(last) = solves.last() else { continue };
                let maze = record.first_maze().expect("a maze");
                let at = record.path.get(last.step).copied().unwrap_or(maze.player());
                let open = maze.open_mask();
                let movement = record.shape.movement();
                let to = open
                    .cells()
                    .into_iter()
                    .find(|&p| movement.is_step(at, p) && p != maze.goal() && p != at);
                if let Some(to) = to {
                    lines.push(line(Phase::Solve, last.step, json!([to.row, to.col])));
                }
            }
            1 => lines.push(line(Phase::Recognize, 0, json!(record.shape.name()))),
            2 => lines.push(line(Phase::Generate, 0, Value::Null)),
            _ => {
                if let Some(first) = solves.first() {
                    lines.push(line(Phase::Solve, 0, json!(first.reading.value)));
                }
            }
        }
    }
    lines
}

#[test]
fn the_results_pages_rates_as_reviewed_and_score_reviews_agree_on_every_model_and_phase() {
    use shapemaze::core::analysis::review::{parse_reviews, rates_as_reviewed};
    use shapemaze::core::play::player::PlayerKind;
    use shapemaze::core::results::record::{Placement, PlayerInfo};
    let dir = TempDir::new("reviews-agree");
    // Two players of a folder: a model and the oracle (never pooled with it).
    let mut written = write_export(dir.path(), "qwen", 5, 2, 1, 3).trials;
    written.extend(write_export(dir.path(), "oracle", 5, 1, 1, 3).trials);
    let records: Vec<TrialRecord> = written
        .iter()
        .map(|(rel, trial)| {
            let place = ExportPath::parse(rel).expect("an export path");
            let kind = if place.model == "oracle" {
                PlayerKind::Oracle
            } else {
                PlayerKind::Endpoint
            };
            let info = PlayerInfo {
                model: place.model.clone(),
                ..PlayerInfo::builtin(kind)
            };
            let placement = Placement {
                seed: 3,
                sample: place.maze,
                repeat: place.trial,
            };
            let record = TrialRecord::of(trial, info, placement, None, None);
            assert_eq!(&ExportPath::of_record(&record).render(), rel);
            record
        })
        .collect();
    let absolute: Vec<String> = written
        .iter()
        .map(|(rel, _)| dir.path().join(rel).display().to_string())
        .collect();
    let lines = mixed_reviews(&absolute, &records);
    let body: String = lines.iter().map(|l| format!("{l}\n")).collect();
    let reviews_dir = TempDir::new("reviews-agree-file");
    let file = reviews_dir.path().join("reviews.jsonl");
    write(&file, body.as_bytes());

    // The page's side: the core function the review part shows.
    let page = rates_as_reviewed(&records, &parse_reviews(&body).expect("reviews"));
    // The command line's side.
    let report = score_with_reviews(dir.path(), &file);
    let model_row = |totals: &Value, model: &str| -> Value {
        totals
            .as_array()
            .and_then(|t| {
                t.iter()
                    .find(|r| r["group"] == "model" && r["value"] == model)
                    .cloned()
            })
            .unwrap_or_else(|| panic!("a row for {model}"))
    };
    let counts = |c: &shapemaze::core::results::tally::Counts| {
        let mut v = json!({"success": c.success, "fail": c.fail, "unscored": c.unscored});
        if c.api_error > 0 {
            v["api_error"] = json!(c.api_error);
        }
        v
    };
    assert_eq!(
        page.iter().map(|r| r.model.as_str()).collect::<Vec<_>>(),
        ["oracle", "qwen"]
    );
    let mut left_open = 0;
    for row in &page {
        let read = model_row(&report["totals"], &row.model);
        let reviewed = model_row(&report["review"]["totals"], &row.model);
        for (i, phase) in ["solve", "recognize", "generate"].into_iter().enumerate() {
            assert_eq!(
                counts(&row.read[i]),
                read[phase],
                "{} {phase} as read: page against score",
                row.model
            );
            assert_eq!(
                counts(&row.reviewed[i]),
                reviewed[phase],
                "{} {phase} as reviewed: page against score",
                row.model
            );
            left_open += row.reviewed[i].unscored - row.read[i].unscored;
        }
    }
    assert!(
        left_open > 0,
        "a corrected move let some phase go on past its replies"
    );
    assert_ne!(
        page[1].read, page[1].reviewed,
        "the reviews move the model's rates"
    );
    let text = shapemaze(&["score", path_str(dir.path()), "--reviews", path_str(&file)]);
    assert!(
        text.stdout
            .contains("?N as reviewed: phases with no outcome as reviewed."),
        "{}",
        text.stdout
    );
    // `report --reviews` gives the same rates as reviewed, in JSON and in words.
    let reported = json_with_reviews("report", dir.path(), &file);
    assert_eq!(reported["review"]["totals"], report["review"]["totals"]);
    assert_eq!(reported["review"]["read_totals"], report["totals"]);
    let words = shapemaze(&["report", path_str(dir.path()), "--reviews", path_str(&file)]);
    for wanted in [
        "As read:",
        "As reviewed (the reviewed readings",
        "?N as reviewed",
    ] {
        assert!(words.stdout.contains(wanted), "{wanted}:\n{}", words.stdout);
    }
}
