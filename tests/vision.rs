//! The vision condition through `shapemaze run`, against a scripted endpoint: every message
//! that shows the maze arrives as OpenAI content parts whose `image_url` is a PNG of that
//! very maze, the text stands aside in the image-only condition, and records and the CSV
//! say how the maze was shown.
#![cfg(not(target_arch = "wasm32"))]

mod support;

use serde_json::Value;
use shapemaze::core::maze::encoding::Encoding;
use shapemaze::core::maze::grid::{Pos, Tile};
use shapemaze::core::maze::image::{self, grid_data_url};
use shapemaze::core::play::prompt::IMAGE_ONLY;
use std::collections::BTreeSet;
use std::time::Duration;
use support::endpoint::{endpoint_design, FakeEndpoint};
use support::run::{assert_all_replayed, path_str, shapemaze, shapemaze_env};
use support::TempDir;

/// Standard base64 (with padding), decoded: what a `data:` URL carries.
fn base64_decode(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        b'/' => 63,
        other => panic!("not base64: {}", other as char),
    };
    let mut out = Vec::new();
    for chunk in text.trim_end_matches('=').as_bytes().chunks(4) {
        let v: Vec<u32> = chunk.iter().map(|&c| u32::from(value(c))).collect();
        let n = v.iter().fold(0u32, |acc, x| acc << 6 | x) << (6 * (4 - v.len()));
        out.extend_from_slice(&n.to_be_bytes()[1..v.len()]);
    }
    out
}

/// The user messages of a request body: (text, image URL if any).
fn user_messages(body: &str) -> Vec<(String, Option<String>)> {
    let v: Value = serde_json::from_str(body).expect("the body is JSON");
    v["messages"]
        .as_array()
        .expect("messages")
        .iter()
        .filter(|m| m["role"] == "user")
        .map(|m| match &m["content"] {
            Value::String(s) => (s.clone(), None),
            Value::Array(parts) => {
                assert_eq!(parts.len(), 2, "text and image: {parts:?}");
                assert_eq!(parts[0]["type"], "text");
                assert_eq!(parts[1]["type"], "image_url");
                let url = parts[1]["image_url"]["url"].as_str().expect("a URL");
                (
                    parts[0]["text"].as_str().expect("text").to_string(),
                    Some(url.to_string()),
                )
            }
            other => panic!("content is text or parts, not {other}"),
        })
        .collect()
}

/// Runs a design in `vision` against the fake endpoint: its records, the request bodies,
/// trials.csv, and the folder (kept while the `TempDir` lives).
fn run_vision(vision: &str) -> (Vec<Value>, Vec<String>, String, TempDir) {
    let fake = FakeEndpoint::start(Duration::ZERO, 0, "Move: (0, 0)\n\nShape: square");
    let tmp = TempDir::new(&format!("vision-{}", vision.replace('+', "-")));
    let mut design = endpoint_design(&fake.url, false, 2, 1);
    design["vision"] = Value::from(vision);
    design["encodings"] = serde_json::json!(["matrix", "coord_list"]);
    design["shapes"] = serde_json::json!(["square", "cross"]);
    let path = tmp.path().join("design.json");
    std::fs::write(&path, design.to_string()).expect("design written");
    let out = tmp.path().join("out");
    let r = shapemaze_env(
        &["run", path_str(&path), "--out", path_str(&out)],
        &[("SHAPEMAZE_TEST_RUN_KEY", "sk-vision")],
        Duration::from_secs(60),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let records: Vec<Value> = std::fs::read_to_string(out.join("trials.jsonl"))
        .expect("trials.jsonl")
        .lines()
        .map(|l| serde_json::from_str(l).expect("a record"))
        .collect();
    let csv = std::fs::read_to_string(out.join("trials.csv")).expect("trials.csv");
    let bodies = fake.bodies.lock().expect("lock").clone();
    (records, bodies, csv, tmp)
}

/// Every row of `trials.csv` has `expected` in its `vision` column.
fn assert_vision_column(csv: &str, expected: &str) {
    let head = csv.lines().next().expect("a header");
    let column = head
        .split(',')
        .position(|c| c == "vision")
        .expect("a vision column");
    for line in csv.lines().skip(1) {
        assert_eq!(line.split(',').nth(column), Some(expected), "{line}");
    }
}

fn maze_rows(record: &Value) -> String {
    record["maze"]
        .as_array()
        .expect("maze rows")
        .iter()
        .map(|r| r.as_str().expect("a row"))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn image_only_sends_each_shown_maze_as_a_png_of_it_and_no_maze_text() {
    let (records, bodies, csv, tmp) = run_vision("image");
    assert_eq!(records.len(), 8, "2 players x 2 encodings x 2 shapes");
    assert!(
        records.iter().all(|r| r["vision"] == "image"),
        "{records:?}"
    );
    // The first prompt of each endpoint trial carries that trial's maze as an image.
    let expected: BTreeSet<String> = records
        .iter()
        .filter(|r| r["model"] == "fake-model")
        .map(|r| {
            let grid = Encoding::Matrix
                .parse_grid(&maze_rows(r), 5, 5)
                .expect("the record's maze");
            grid_data_url(&grid)
        })
        .collect();
    let mut first_images = BTreeSet::new();
    for body in &bodies {
        let users = user_messages(body);
        let (text, url) = &users[0];
        assert!(text.contains(IMAGE_ONLY), "{text}");
        assert!(text.contains("dark cells are walls"), "{text}");
        assert!(
            !text.contains("1 1 1 1 1") && !text.contains("Walls:"),
            "no maze text: {text}"
        );
        first_images.insert(url.clone().expect("the first prompt has the image"));
        // The recognition question shows the maze too; the generation request does not.
        for (text, url) in &users[1..] {
            let shows = text.starts_with("Phase 2") || text.starts_with("Updated maze:");
            assert_eq!(url.is_some(), shows, "{text}");
        }
    }
    assert_eq!(first_images, expected, "each trial's own maze");
    // Each image decodes to a PNG of the 5x5 maze: the very bytes of the drawing rule,
    // whose cells read back as the maze.
    for r in records.iter().filter(|r| r["model"] == "fake-model") {
        let grid = Encoding::Matrix
            .parse_grid(&maze_rows(r), 5, 5)
            .expect("maze");
        let url = grid_data_url(&grid);
        let png = base64_decode(
            url.strip_prefix("data:image/png;base64,")
                .expect("a PNG URL"),
        );
        assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
        assert_eq!(
            &png[16..24],
            &[0, 0, 0, 166, 0, 0, 0, 166],
            "166 x 166 pixels"
        );
        let drawn = image::draw(&grid);
        assert_eq!(png, image::png(&drawn));
        let cells: Vec<Vec<Tile>> = (0..5)
            .map(|row| {
                (0..5)
                    .map(|col| grid.get(Pos { row, col }).expect("in"))
                    .collect()
            })
            .collect();
        assert_eq!(image::read_cells(&drawn), cells);
    }
    assert_vision_column(&csv, "image");
    // The transcripts hold no maze text: `score` replays them on the folder's maze files.
    std::fs::remove_file(tmp.path().join("out/trials.jsonl")).expect("records removed");
    assert_all_replayed(&tmp.path().join("out"), 8);
    let report = shapemaze(&["report", path_str(&tmp.path().join("out"))]);
    assert!(
        report
            .stdout
            .contains("8 re-scored from their replies, 0 counted from their closing lines only"),
        "{}",
        report.stdout
    );
    // Without the maze files they are counted from their closing lines, saying why.
    std::fs::remove_dir_all(tmp.path().join("out/experiment_mazes")).expect("mazes removed");
    let score = shapemaze(&[
        "score",
        path_str(&tmp.path().join("out")),
        "--format",
        "json",
    ]);
    assert!(
        score
            .stdout
            .contains("no maze file was found beside the transcript"),
        "{}",
        score.stdout
    );
}

#[test]
fn image_and_text_sends_both_and_text_alone_sends_no_image() {
    let (records, bodies, _, _tmp) = run_vision("image+text");
    assert!(records.iter().all(|r| r["vision"] == "image+text"));
    for body in &bodies {
        let users = user_messages(body);
        let (text, url) = &users[0];
        assert!(url.is_some(), "the image is attached");
        assert!(!text.contains(IMAGE_ONLY), "{text}");
        assert!(
            text.contains("Walls:") || text.contains("1 1"),
            "the maze text too: {text}"
        );
        assert!(
            text.contains("The maze is also shown as an image"),
            "{text}"
        );
    }
    let (records, bodies, csv, _tmp) = run_vision("text");
    assert!(
        records.iter().all(|r| r.get("vision").is_none()),
        "left out for text"
    );
    for body in &bodies {
        assert!(user_messages(body).iter().all(|(_, url)| url.is_none()));
        assert!(!body.contains("image"), "{body}");
    }
    assert_vision_column(&csv, "");
}

#[test]
fn a_trial_attaches_the_maze_it_shows_after_each_move_and_in_recognition() {
    use shapemaze::core::maze::generate::generate_one;
    use shapemaze::core::maze::image::Vision;
    use shapemaze::core::maze::shape::Shape;
    use shapemaze::core::maze::templates::TemplateLibrary;
    use shapemaze::core::play::trial::{Trial, TrialSetup};
    let library = TemplateLibrary::new(5);
    let maze = generate_one(Shape::Spiral, 0, 3, &library).expect("a maze");
    let path = maze
        .open_mask()
        .shortest_path(maze.player(), maze.goal(), Shape::Spiral.movement())
        .expect("a path");
    assert!(path.len() > 3, "at least two moves before the goal");
    for vision in Vision::ALL {
        let setup = TrialSetup {
            vision,
            ..TrialSetup::new(Shape::Spiral, Encoding::Matrix, maze.clone())
        };
        let mut trial = Trial::start(setup);
        let step = path[1];
        trial.respond(&format!("Move: ({}, {})", step.row, step.col), None);
        let turns = trial.turns();
        let update = turns.last().expect("the updated maze");
        assert!(update.message.content.starts_with("Updated maze:"));
        // The image is the maze with P moved; none under text.
        let image = update.image.as_ref();
        assert_eq!(image.is_some(), vision.shows_image(), "{vision:?}");
        if let Some(grid) = image {
            assert_eq!(grid.get(step), Some(Tile::Player));
            assert_eq!(grid.get(path[0]), Some(Tile::Empty));
            assert_eq!(turns[0].image.as_ref(), Some(maze.grid()));
        }
        assert_eq!(
            update.message.content.contains(IMAGE_ONLY),
            vision == Vision::Image,
            "{vision:?}: {}",
            update.message.content
        );
        // A wall ends the solve phase; the recognition question shows the original maze.
        trial.respond("Move: (9, 9)", None);
        let question = trial.turns().last().expect("the recognition question");
        assert!(
            question.message.content.starts_with("Phase 2"),
            "{}",
            question.message.content
        );
        assert_eq!(question.image.is_some(), vision.shows_image());
        if vision.shows_image() {
            assert_eq!(question.image.as_ref(), Some(maze.grid()));
        }
        trial.respond("Shape: spiral", None);
        let generate = trial.turns().last().expect("the generation request");
        assert!(generate.message.content.starts_with("Phase 3"));
        assert_eq!(generate.image, None, "the generation request shows no maze");
    }
}
