//! The vision condition through `shapemaze run`, against a scripted endpoint: every message
//! that shows the maze arrives as OpenAI content parts whose `image_url` is a PNG of that
//! very maze, the text stands aside in the image-only condition, and records and the CSV
//! say how the maze was shown.
#![cfg(not(target_arch = "wasm32"))]

mod support;

use serde_json::Value;
use shapemaze::core::maze::encoding::Encoding;
use shapemaze::core::maze::grid::Tile;
use shapemaze::core::play::prompt::{read_heading, Heading, IMAGE_ONLY};
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
fn run_vision(vision: &str, protocol: &str) -> (Vec<Value>, Vec<String>, String, TempDir) {
    let fake = FakeEndpoint::start(Duration::ZERO, 0, "Move: (0, 0)\n\nShape: square");
    let tmp = TempDir::new(&format!("vision-{}-{protocol}", vision.replace('+', "-")));
    let mut design = endpoint_design(&fake.url, false, 2, 1);
    design["vision"] = Value::from(vision);
    design["protocol"] = Value::from(protocol);
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

/// The maze a sent `image_url` shows, read back from the PNG itself: its chunks, the zlib
/// stream inflated, the Up filter undone, each cell's top-left pixel looked up in the
/// palette (the drawing rule's colours, docs/vision.md).
fn maze_in_image(url: &str) -> String {
    let png = base64_decode(
        url.strip_prefix("data:image/png;base64,")
            .expect("a PNG data URL"),
    );
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    let (mut at, mut idat, mut palette, mut width) = (8, Vec::new(), Vec::new(), 0usize);
    while at + 8 <= png.len() {
        let len = u32::from_be_bytes(png[at..at + 4].try_into().expect("4 bytes")) as usize;
        let data = &png[at + 8..at + 8 + len];
        match &png[at + 4..at + 8] {
            b"IHDR" => width = u32::from_be_bytes(data[..4].try_into().expect("4 bytes")) as usize,
            b"PLTE" => palette = data.chunks(3).map(<[u8]>::to_vec).collect(),
            b"IDAT" => idat.extend_from_slice(data),
            _ => {}
        }
        at += 12 + len;
    }
    let raw = miniz_oxide::inflate::decompress_to_vec_zlib(&idat).expect("the IDAT inflates");
    let mut rows: Vec<Vec<u8>> = Vec::new();
    for line in raw.chunks(width + 1) {
        let mut row = line[1..].to_vec();
        if line[0] == 2 {
            if let Some(above) = rows.last() {
                for (x, a) in row.iter_mut().zip(above) {
                    *x = x.wrapping_add(*a);
                }
            }
        }
        rows.push(row);
    }
    let cells = (width - 1) / 33;
    let symbol = |rgb: &[u8]| match rgb {
        [0x1f, 0x29, 0x33] => "1",
        [0xff, 0xff, 0xff] => "0",
        [0x25, 0x63, 0xeb] => "P",
        [0x16, 0xa3, 0x4a] => "G",
        other => panic!("a colour the drawing rule does not use: {other:?}"),
    };
    (0..cells)
        .map(|r| {
            (0..cells)
                .map(|c| symbol(&palette[usize::from(rows[1 + 33 * r][1 + 33 * c])]))
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Whether `line` is a row of a 5x5 matrix (five of `0 1 P G`).
fn matrix_row(line: &str) -> bool {
    let cells: Vec<&str> = line.split(' ').collect();
    cells.len() == 5 && cells.iter().all(|c| ["0", "1", "P", "G"].contains(c))
}

/// One image-only run's requests: each message that shows the maze carries the image of
/// its own trial's maze (read back from the PNG sent), no text maze anywhere, and the
/// generation request no image.
fn image_only_run(protocol: &str, records: &[Value], bodies: &[String]) {
    assert_eq!(
        records.len(),
        8,
        "{protocol}: 2 players x 2 encodings x 2 shapes"
    );
    assert!(
        records.iter().all(|r| r["vision"] == "image"),
        "{records:?}"
    );
    // (encoding, maze) of each endpoint trial, and of each request's first image.
    let expected: BTreeSet<(String, String)> = records
        .iter()
        .filter(|r| r["model"] == "fake-model")
        .map(|r| {
            (
                r["encoding"].as_str().expect("encoding").to_string(),
                maze_rows(r),
            )
        })
        .collect();
    let mut sent = BTreeSet::new();
    for body in bodies {
        let users = user_messages(body);
        let (first, url) = &users[0];
        assert!(first.contains(IMAGE_ONLY), "{protocol}: {first}");
        assert!(first.contains("dark cells are walls"), "{first}");
        let encoding = if first.contains("Legend: 1 = wall") {
            "matrix"
        } else {
            "coord_list"
        };
        let shown = maze_in_image(url.as_deref().expect("the first prompt has the image"));
        for (text, url) in &users {
            assert!(
                !text.lines().any(matrix_row) && !text.contains("Walls: ("),
                "no maze text: {text}"
            );
            let heading = read_heading(text);
            let shows = !matches!(heading, Some(Heading::Generate));
            assert_eq!(url.is_some(), shows, "{protocol} {heading:?}: {text}");
            // The question after the solve phase shows the original maze again.
            if matches!(heading, Some(Heading::Recognize | Heading::Combined)) {
                assert_eq!(maze_in_image(url.as_deref().expect("an image")), shown);
            }
        }
        sent.insert((encoding.to_string(), shown));
    }
    assert_eq!(
        sent, expected,
        "{protocol}: each trial was shown its own maze"
    );
}

#[test]
fn image_only_sends_each_shown_maze_as_a_png_of_it_and_no_maze_text() {
    for protocol in ["stepwise", "combined", "single_shot"] {
        let (records, bodies, csv, tmp) = run_vision("image", protocol);
        image_only_run(protocol, &records, &bodies);
        if protocol != "stepwise" {
            continue;
        }
        assert_vision_column(&csv, "image");
        // The transcripts hold no maze text: `score` replays them on the folder's maze files.
        std::fs::remove_file(tmp.path().join("out/trials.jsonl")).expect("records removed");
        assert_all_replayed(&tmp.path().join("out"), 8);
        let report = shapemaze(&["report", path_str(&tmp.path().join("out"))]);
        assert!(
            report.stdout.contains(
                "8 re-scored from their replies, 0 counted from their closing lines only"
            ),
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
}

#[test]
fn image_and_text_sends_both_and_text_alone_sends_no_image() {
    let (records, bodies, _, _tmp) = run_vision("image+text", "stepwise");
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
    let (records, bodies, csv, _tmp) = run_vision("text", "stepwise");
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
