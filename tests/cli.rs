//! The `shapemaze` binary, run as a researcher runs it: every command, every failure path,
//! the round trip from transcripts the core writes back through `score`, tampered and
//! foreign transcripts, and arbitrary input that must never make it panic.
#![cfg(not(target_arch = "wasm32"))]

mod support;

use proptest::prelude::*;
use serde_json::Value;
use shapemaze::core::maze::encoding::Encoding;
use shapemaze::core::maze::generate::generate_set;
use shapemaze::core::maze::grid::{Maze, Pos, Tile};
use shapemaze::core::maze::image;
use shapemaze::core::maze::npy;
use shapemaze::core::maze::shape::Shape;
use shapemaze::core::maze::templates::TemplateLibrary;
use shapemaze::core::play::transcript::ASSISTANT_MARKER;
use shapemaze::core::results::layout::maze_file_path;
use std::path::Path;
use support::run::{path_str, shapemaze, shapemaze_with_stdin};
use support::{write, write_export, TempDir};

/// The 5x5 square ring with P at (0, 0) and G at (4, 4), as matrix text.
const RING: &str = "P 0 0 0 0\n0 1 1 1 0\n0 1 1 1 0\n0 1 1 1 0\n0 0 0 0 G\n";

fn ring() -> Maze {
    Maze::from_grid(Encoding::Matrix.parse_grid(RING, 5, 5).expect("valid")).expect("one P and G")
}

/// A folder holding the ring as text (`ring.txt`) and as a NumPy file (`ring.npy`).
fn ring_files() -> TempDir {
    let dir = TempDir::new("ring");
    write(&dir.path().join("ring.txt"), RING.as_bytes());
    write(&dir.path().join("ring.npy"), &npy::write(ring().grid()));
    dir
}

// ---------------------------------------------------------------------------------------
// generate

#[test]
fn generate_prints_one_contract_object_per_maze_matching_the_core_generator() {
    let run = shapemaze(&[
        "generate",
        "--shape",
        "triangle",
        "--size",
        "7",
        "--samples",
        "4",
        "--seed",
        "9",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let lines: Vec<Value> = run
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect("each line is JSON"))
        .collect();
    let expected = generate_set(Shape::Triangle, 4, 9, &TemplateLibrary::new(7)).expect("set");
    assert_eq!(lines.len(), 4, "one line per maze");
    for (i, (line, maze)) in lines.iter().zip(&expected).enumerate() {
        let keys: Vec<&str> = line
            .as_object()
            .expect("object")
            .keys()
            .map(String::as_str)
            .collect();
        let mut want = vec![
            "shape", "size", "sample", "movement", "matrix", "player", "goal",
        ];
        want.sort_unstable();
        let mut got = keys.clone();
        got.sort_unstable();
        assert_eq!(got, want, "maze {i}: exactly the contract's fields");
        assert_eq!(line["shape"], "triangle");
        assert_eq!(
            (
                line["size"].as_u64(),
                line["sample"].as_u64(),
                line["movement"].as_u64()
            ),
            (Some(7), Some(i as u64), Some(8))
        );
        let rows: Vec<&str> = line["matrix"]
            .as_array()
            .expect("rows")
            .iter()
            .filter_map(Value::as_str)
            .collect();
        assert_eq!(
            rows.join("\n"),
            Encoding::Matrix.render(maze.grid()),
            "maze {i} is the core's maze {i}"
        );
        let p = maze.player();
        assert_eq!(
            line["player"],
            serde_json::json!([p.row, p.col]),
            "maze {i} player"
        );
        let g = maze.goal();
        assert_eq!(
            line["goal"],
            serde_json::json!([g.row, g.col]),
            "maze {i} goal"
        );
    }
    assert!(
        run.stderr.contains("triangle 7x7 seed 9: 4 mazes") && run.stderr.contains("shortest path"),
        "the path-length distribution is reported on stderr: {}",
        run.stderr
    );
}

#[test]
fn generate_defaults_to_thirty_five_by_five_mazes_of_seed_zero() {
    let run = shapemaze(&["generate", "--shape", "Z"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let first: Value =
        serde_json::from_str(run.stdout.lines().next().expect("a line")).expect("JSON");
    let set = generate_set(Shape::Z, 1, 0, &TemplateLibrary::new(5)).expect("set");
    assert_eq!(run.stdout.lines().count(), 30, "30 samples by default");
    assert_eq!(first["size"], 5);
    assert_eq!(
        first["matrix"][0].as_str(),
        Encoding::Matrix.render(set[0].grid()).lines().next(),
        "seed 0 by default"
    );
}

#[test]
fn generate_all_covers_every_shape_in_order_and_accepts_any_case() {
    let run = shapemaze(&["generate", "--shape", "ALL", "--samples", "2"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let shapes: Vec<String> = run
        .stdout
        .lines()
        .map(|l| {
            serde_json::from_str::<Value>(l).expect("JSON")["shape"]
                .as_str()
                .unwrap_or("")
                .to_string()
        })
        .collect();
    let want: Vec<String> = Shape::ALL
        .iter()
        .flat_map(|s| [s.name().to_string(), s.name().to_string()])
        .collect();
    assert_eq!(shapes, want);
    assert_eq!(
        run.stderr.lines().count(),
        8,
        "one distribution per shape: {}",
        run.stderr
    );
    // U and N, and the C beside the U: only its left and right openings.
    let u = shapemaze(&["generate", "--shape", "U", "--size", "11", "--samples", "2"]);
    assert_eq!(u.code, 0, "{}", u.stderr);
    assert!(u
        .stdout
        .lines()
        .all(|l| l.contains("\"shape\":\"U\"") && l.contains("\"movement\":4")));
    let n = shapemaze(&["generate", "--shape", "n", "--samples", "1"]);
    assert!(
        n.stdout.contains("\"shape\":\"N\"") && n.stdout.contains("\"movement\":8"),
        "{}",
        n.stdout
    );
    let alone = shapemaze(&["generate", "--shape", "C", "--samples", "30"]);
    let beside = shapemaze(&["generate", "--shape", "C", "--with", "U", "--samples", "30"]);
    assert_eq!(beside.code, 0, "{}", beside.stderr);
    assert_ne!(alone.stdout, beside.stdout, "another family, another set");
    for line in beside.stdout.lines() {
        let v: Value = serde_json::from_str(line).expect("JSON");
        let rows: Vec<&str> = v["matrix"]
            .as_array()
            .expect("rows")
            .iter()
            .filter_map(|r| r.as_str())
            .collect();
        // Open to the left or right: some row's open cells touch only one side of the box.
        let open = |r: &str| r.split(' ').map(|c| c != "1").collect::<Vec<bool>>();
        let grid: Vec<Vec<bool>> = rows.iter().map(|r| open(r)).collect();
        let cols_used: Vec<usize> = (0..5).filter(|&c| grid.iter().any(|row| row[c])).collect();
        let rows_used: Vec<usize> = (0..5).filter(|&r| grid[r].iter().any(|&x| x)).collect();
        let (top, bottom) = (rows_used[0], rows_used[rows_used.len() - 1]);
        let full = |r: usize| cols_used.iter().all(|&c| grid[r][c]);
        assert!(
            full(top) && full(bottom),
            "a C beside a U opens left or right: {rows:?}"
        );
    }
    let bad = shapemaze(&["generate", "--shape", "C", "--with", "hexagon"]);
    assert_eq!(bad.code, 2);
    assert!(bad.stderr.contains("hexagon"), "{}", bad.stderr);
    let lower = shapemaze(&["generate", "--shape", "c", "--samples", "1"]);
    assert!(
        lower.stdout.contains("\"shape\":\"C\""),
        "canonical name printed: {}",
        lower.stdout
    );
}

#[test]
fn generate_out_writes_maze_files_in_the_export_layout() {
    let dir = TempDir::new("gen-out");
    let out = path_str(dir.path());
    let run = shapemaze(&[
        "generate",
        "--shape",
        "spiral",
        "--size",
        "9",
        "--samples",
        "3",
        "--seed",
        "5",
        "--out",
        out,
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let set = generate_set(Shape::Spiral, 3, 5, &TemplateLibrary::new(9)).expect("set");
    for (i, maze) in set.iter().enumerate() {
        let file = dir.path().join(maze_file_path(9, 9, Shape::Spiral, i));
        assert!(
            file.ends_with(format!("experiment_mazes/9x9/spiral/9x9_spiral_{i}.npy")),
            "{}",
            file.display()
        );
        let bytes =
            std::fs::read(&file).unwrap_or_else(|e| panic!("{} was written: {e}", file.display()));
        assert_eq!(
            npy::read(&bytes).as_ref(),
            Ok(maze.grid()),
            "maze file {i} holds maze {i}"
        );
    }
}

#[test]
fn generate_refuses_bad_arguments_with_one_line() {
    let cases: [(&[&str], &str); 10] = [
        (&["generate"], "needs --shape"),
        (
            &["generate", "--shape", "hexagon"],
            "unknown shape 'hexagon'",
        ),
        (
            &["generate", "--shape", "C", "--size", "6"],
            "size 6 is not supported",
        ),
        (
            &["generate", "--shape", "C", "--size", "big"],
            "--size must be a whole number",
        ),
        (
            &["generate", "--shape", "C", "--samples", "0"],
            "--samples must be at least 1",
        ),
        (
            &["generate", "--shape", "C", "--seed", "-3"],
            "--seed must be a whole number",
        ),
        (
            &["generate", "--shape", "cross", "--samples", "37"],
            "only 36 distinct cross mazes",
        ),
        (
            &["generate", "--shape", "C", "--colour", "red"],
            "unknown option --colour",
        ),
        (
            &["generate", "--shape", "C", "extra"],
            "unexpected argument 'extra'",
        ),
        (
            &["generate", "--shape", "C", "--shape", "Z"],
            "more than once",
        ),
    ];
    for (args, needle) in cases {
        let run = shapemaze(args);
        run.assert_usage_error(needle, &args.join(" "));
        assert!(
            run.stdout.is_empty(),
            "{}: nothing printed before the error",
            args.join(" ")
        );
    }
}

#[test]
fn generate_images_writes_each_mazes_picture_beside_its_file() {
    let dir = TempDir::new("gen-images");
    let out = path_str(dir.path());
    let args = [
        "generate",
        "--shape",
        "Z",
        "--size",
        "7",
        "--samples",
        "2",
        "--seed",
        "4",
    ];
    let run = shapemaze(&[&args[..], &["--out", out, "--images"]].concat());
    assert_eq!(run.code, 0, "{}", run.stderr);
    let set = generate_set(Shape::Z, 2, 4, &TemplateLibrary::new(7)).expect("set");
    for (i, maze) in set.iter().enumerate() {
        let file = dir
            .path()
            .join(maze_file_path(7, 7, Shape::Z, i))
            .with_extension("png");
        let bytes =
            std::fs::read(&file).unwrap_or_else(|e| panic!("{} was written: {e}", file.display()));
        assert!(bytes.starts_with(b"\x89PNG\r\n\x1a\n"), "a PNG");
        // The very drawing a model would be sent, and it reads back as the maze.
        let drawn = image::draw(maze.grid());
        assert_eq!(bytes, image::png(&drawn), "maze {i}");
        assert_eq!((drawn.width, drawn.height), (7 * 33 + 1, 7 * 33 + 1));
        let back: Vec<Vec<Tile>> = (0..7)
            .map(|r| {
                (0..7)
                    .map(|c| maze.grid().get(Pos { row: r, col: c }).expect("in"))
                    .collect()
            })
            .collect();
        assert_eq!(image::read_cells(&drawn), back, "maze {i}");
    }
    // Pictures need a folder to go in.
    let alone = shapemaze(&[&args[..], &["--images"]].concat());
    assert_eq!(alone.code, 2, "{}", alone.stderr);
    assert!(alone.stderr.contains("--out"), "{}", alone.stderr);
}

#[test]
fn generate_reports_an_output_folder_it_cannot_write() {
    let dir = TempDir::new("gen-blocked");
    let blocker = dir.path().join("file");
    write(&blocker, b"a file where a folder should go");
    let run = shapemaze(&[
        "generate",
        "--shape",
        "C",
        "--samples",
        "1",
        "--out",
        path_str(&blocker),
    ]);
    run.assert_output_error("cannot write", "--out under a file");
}

// ---------------------------------------------------------------------------------------
// verify

#[test]
fn verify_move_judges_the_reply_against_a_text_or_npy_maze() {
    let dir = ring_files();
    for maze in ["ring.txt", "ring.npy"] {
        let maze = dir.path().join(maze);
        let cases = [
            (
                "I go right. Move: (0, 1)",
                "success",
                "valid_move",
                serde_json::json!([0, 1]),
            ),
            (
                "Move: (1, 1)",
                "fail",
                "diagonal_not_allowed",
                serde_json::json!([1, 1]),
            ),
            (
                "Move: (7, 0)",
                "fail",
                "out_of_bounds",
                serde_json::json!([7, 0]),
            ),
            ("no idea", "fail", "no_coordinate", Value::Null),
        ];
        for (reply, outcome, reason, extracted) in cases {
            let resp = dir.path().join("reply.txt");
            write(&resp, reply.as_bytes());
            let run = shapemaze(&[
                "verify",
                "--phase",
                "move",
                "--shape",
                "square",
                "--maze",
                path_str(&maze),
                "--response",
                path_str(&resp),
            ]);
            assert_eq!(run.code, 0, "exit 0 whatever the outcome: {}", run.stderr);
            let v = run.json();
            assert_eq!(
                (v["outcome"].as_str(), v["reason"].as_str()),
                (Some(outcome), Some(reason)),
                "{reply} on {}",
                maze.display()
            );
            assert_eq!(v["extracted"], extracted, "{reply}");
            assert!(
                v["explanation"].as_str().is_some_and(|e| !e.is_empty()),
                "an explanation for people"
            );
            assert!(v.get("checks").is_none(), "checks only for generate");
        }
    }
}

#[test]
fn verify_reads_the_response_from_stdin_given_a_dash() {
    let dir = ring_files();
    let maze = dir.path().join("ring.txt");
    let run = shapemaze_with_stdin(
        &[
            "verify",
            "--phase",
            "move",
            "--shape",
            "square",
            "--maze",
            path_str(&maze),
            "--response",
            "-",
        ],
        b"Move: (1, 0)",
    );
    assert_eq!(run.json()["reason"], "valid_move", "{}", run.stderr);
}

#[test]
fn verify_says_why_a_reading_is_unsure_and_names_the_competing_cell() {
    let dir = ring_files();
    let maze = dir.path().join("ring.txt");
    let verify = |reply: &str| {
        shapemaze_with_stdin(
            &[
                "verify",
                "--phase",
                "move",
                "--shape",
                "square",
                "--maze",
                path_str(&maze),
                "--response",
                "-",
            ],
            reply.as_bytes(),
        )
        .json()
    };
    let v = verify("So the move is (0, 1).\nNo wait, that way is longer.\nSo the move is (1, 0).");
    assert_eq!(v["extracted"], serde_json::json!([1, 0]), "{v}");
    assert_eq!(v["sure"], false, "{v}");
    assert_eq!(v["doubt"]["kind"], "rival_conclusion", "{v}");
    assert_eq!(v["doubt"]["rival"], serde_json::json!([0, 1]), "{v}");
    assert_eq!(
        v["doubt"]["why"], "Unsure: another concluding sentence gives (0, 1).",
        "a sentence a person can check"
    );
    let sure = verify("So the move is (1, 0).");
    assert_eq!(sure["sure"], true, "{sure}");
    assert!(
        sure.get("doubt").is_none(),
        "no doubt on a sure reading: {sure}"
    );
}

#[test]
fn verify_roles_prints_each_line_of_the_reply_with_its_role() {
    let reply =
        "Where now?\n- Up: blocked\n- Right: (0, 1)\nActually the right is open.\nNext: (0, 1)";
    let run = shapemaze_with_stdin(
        &[
            "verify",
            "--phase",
            "recognize",
            "--shape",
            "square",
            "--roles",
            "--response",
            "-",
        ],
        reply.as_bytes(),
    );
    let v = run.json();
    assert_eq!(v["reason"], "no_shape_named", "{}", run.stderr);
    let roles: Vec<(String, String)> = v["roles"]
        .as_array()
        .expect("roles")
        .iter()
        .map(|p| {
            let [s, e] = [0, 1].map(|i| p["span"][i].as_u64().expect("a span") as usize);
            (
                p["role"].as_str().expect("a role").to_string(),
                reply[s..e].to_string(),
            )
        })
        .collect();
    let want = [
        ("question", "Where now?"),
        ("options", "- Up: blocked"),
        ("options", "- Right: (0, 1)"),
        ("correction", "Actually the right is open."),
        ("answer", "Next: (0, 1)"),
    ];
    assert_eq!(
        roles,
        want.map(|(r, t)| (r.to_string(), t.to_string())),
        "{v}"
    );
    // Without the flag the verdict is as before.
    let plain = shapemaze_with_stdin(
        &[
            "verify",
            "--phase",
            "recognize",
            "--shape",
            "square",
            "--response",
            "-",
        ],
        reply.as_bytes(),
    );
    assert!(plain.json().get("roles").is_none());
}

#[test]
fn verify_path_traces_back_from_the_goal() {
    let dir = ring_files();
    let maze = path_str(&dir.path().join("ring.npy")).to_string();
    let good = b"(0,0) -> (1,0) -> (2,0) -> (3,0) -> (4,0) -> (4,1) -> (4,2) -> (4,3) -> (4,4)";
    let run = shapemaze_with_stdin(
        &[
            "verify",
            "--phase",
            "path",
            "--shape",
            "square",
            "--maze",
            &maze,
            "--response",
            "-",
        ],
        good,
    );
    let v = run.json();
    assert_eq!(v["reason"], "reached_player", "{}", run.stdout);
    assert_eq!(
        v["extracted"].as_array().map(Vec::len),
        Some(9),
        "the nine cells of the path"
    );
    let jump = shapemaze_with_stdin(
        &[
            "verify",
            "--phase",
            "path",
            "--shape",
            "square",
            "--maze",
            &maze,
            "--response",
            "-",
        ],
        b"(0,0) (2,2) (4,4)",
    );
    assert_eq!(jump.json()["reason"], "invalid_step");
}

#[test]
fn verify_recognize_needs_no_maze() {
    for (reply, reason, extracted) in [
        (
            "It is not a square but a spiral.",
            "correct_shape",
            serde_json::json!("spiral"),
        ),
        ("A box.", "wrong_shape", serde_json::json!("square")),
        ("No idea.", "no_shape_named", Value::Null),
    ] {
        let run = shapemaze_with_stdin(
            &[
                "verify",
                "--phase",
                "recognize",
                "--shape",
                "Spiral",
                "--response",
                "-",
            ],
            reply.as_bytes(),
        );
        let v = run.json();
        assert_eq!(
            (&v["reason"], &v["extracted"]),
            (&Value::from(reason), &extracted),
            "{reply}"
        );
    }
}

#[test]
fn verify_generate_reports_each_check_in_either_encoding() {
    let dir = ring_files();
    let maze = path_str(&dir.path().join("ring.txt")).to_string();
    let new = Encoding::Matrix
        .parse_grid(
            "0 0 0 0 P\n0 1 1 1 0\n0 1 1 1 0\n0 1 1 1 0\nG 0 0 0 0",
            5,
            5,
        )
        .expect("grid");
    for encoding in Encoding::ALL {
        let reply = format!("My maze:\n\n{}\n", encoding.render(&new));
        let run = shapemaze_with_stdin(
            &[
                "verify",
                "--phase",
                "generate",
                "--shape",
                "square",
                "--encoding",
                encoding.name(),
                "--maze",
                &maze,
                "--response",
                "-",
            ],
            reply.as_bytes(),
        );
        let v = run.json();
        assert_eq!(v["reason"], "valid_new_maze", "{encoding}: {}", run.stdout);
        assert_eq!(
            v["extracted"][0], "0 0 0 0 P",
            "{encoding}: the parsed maze, as matrix rows"
        );
        for check in [
            "valid_encoding",
            "same_size",
            "same_shape",
            "novel",
            "path_exists",
        ] {
            assert_eq!(v["checks"][check], true, "{encoding}: {check}");
        }
    }
    let copy = shapemaze_with_stdin(
        &[
            "verify",
            "--phase",
            "generate",
            "--shape",
            "square",
            "--maze",
            &maze,
            "--response",
            "-",
        ],
        RING.as_bytes(),
    );
    assert_eq!(copy.json()["reason"], "identical_to_original");
    assert_eq!(copy.json()["checks"]["novel"], false);
}

#[test]
fn verify_takes_the_shape_from_the_maze_when_none_is_given() {
    let dir = ring_files();
    let maze = path_str(&dir.path().join("ring.txt")).to_string();
    let run = shapemaze_with_stdin(
        &[
            "verify",
            "--phase",
            "move",
            "--maze",
            &maze,
            "--response",
            "-",
        ],
        b"Move: (1, 1)",
    );
    assert_eq!(
        run.json()["reason"],
        "diagonal_not_allowed",
        "the ring is a square, so 4-way: {}",
        run.stderr
    );
}

#[test]
fn verify_judges_a_reply_holding_a_grid_larger_than_any_maze_without_crashing() {
    let dir = ring_files();
    let maze = path_str(&dir.path().join("ring.txt")).to_string();
    let mut big = vec![vec!["0"; 14]; 14];
    big[0][0] = "P";
    big[13][13] = "G";
    let reply: Vec<String> = big.iter().map(|r| r.join(" ")).collect();
    let run = shapemaze_with_stdin(
        &[
            "verify",
            "--phase",
            "generate",
            "--shape",
            "square",
            "--maze",
            &maze,
            "--response",
            "-",
        ],
        reply.join("\n").as_bytes(),
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.json()["reason"], "wrong_size");
}

#[test]
fn verify_refuses_bad_arguments_and_unreadable_or_foreign_files_with_one_line() {
    let dir = ring_files();
    let d = dir.path();
    write(&d.join("reply.txt"), b"Move: (0, 1)");
    write(&d.join("binary.bin"), &[0xff, 0xfe, 0x00, 0x93, 0x01]);
    write(&d.join("prose.txt"), b"Dear diary, today I saw a maze.");
    write(&d.join("two-players.txt"), b"P 0 P\n0 1 0\n0 0 G");
    write(
        &d.join("huge.txt"),
        ["0 0 0 0 0 0 0 0 0 0 0 0"; 12].join("\n").as_bytes(),
    );
    let mut fortran = npy::write(ring().grid());
    let at = fortran
        .windows(5)
        .position(|w| w == b"False")
        .expect("header has fortran_order");
    fortran.splice(at..at + 5, b"True ".iter().copied());
    write(&d.join("fortran.npy"), &fortran);
    let p = |name: &str| path_str(&d.join(name)).to_string();
    let (maze, reply, missing) = (p("ring.txt"), p("reply.txt"), p("missing.txt"));
    let (binary, prose, two, huge, fortran) = (
        p("binary.bin"),
        p("prose.txt"),
        p("two-players.txt"),
        p("huge.txt"),
        p("fortran.npy"),
    );
    let folder = p("");
    // `verify --phase move` of a C maze file and a reply file.
    let mv = |maze: &str, response: &str| -> Vec<String> {
        [
            "verify",
            "--phase",
            "move",
            "--shape",
            "C",
            "--maze",
            maze,
            "--response",
            response,
        ]
        .map(String::from)
        .to_vec()
    };
    let owned = |args: &[&str]| -> Vec<String> { args.iter().map(|a| a.to_string()).collect() };
    let cases: Vec<(Vec<String>, &str)> = vec![
        (owned(&["verify"]), "needs --phase"),
        (
            owned(&[
                "verify",
                "--phase",
                "jump",
                "--shape",
                "C",
                "--response",
                &reply,
            ]),
            "unknown phase 'jump'",
        ),
        (
            owned(&[
                "verify",
                "--phase",
                "move",
                "--shape",
                "C",
                "--response",
                &reply,
            ]),
            "needs --maze",
        ),
        (
            owned(&["verify", "--phase", "recognize", "--response", &reply]),
            "needs --shape",
        ),
        (
            owned(&[
                "verify",
                "--phase",
                "recognize",
                "--shape",
                "hexagon",
                "--response",
                &reply,
            ]),
            "unknown shape",
        ),
        (
            owned(&["verify", "--phase", "move", "--shape", "C", "--maze", &maze]),
            "needs --response",
        ),
        (
            owned(&[
                "verify",
                "--phase",
                "generate",
                "--shape",
                "C",
                "--encoding",
                "json",
                "--maze",
                &maze,
                "--response",
                &reply,
            ]),
            "unknown encoding 'json'",
        ),
        (mv(&missing, &reply), "cannot read"),
        (mv(&maze, &missing), "cannot read"),
        (mv(&binary, &reply), "neither a .npy maze file nor text"),
        (mv(&prose, &reply), "not a maze in the matrix encoding"),
        (mv(&two, &reply), "exactly one player"),
        (mv(&huge, &reply), "largest supported is 11x11"),
        (mv(&fortran, &reply), "Fortran order"),
        (mv(&maze, &binary), "not UTF-8 text"),
        (mv(&folder, &reply), "cannot read"),
    ];
    // A file that cannot be read or is not what it should be is an input error (4); the
    // rest are bad arguments (2).
    let input = [
        "cannot read",
        "not UTF-8",
        "neither a .npy",
        "not a maze",
        "Fortran order",
        "largest supported",
        "player",
        "dtype",
    ];
    for (args, needle) in cases {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let run = shapemaze(&args);
        let code = if input.iter().any(|n| needle.contains(n)) {
            4
        } else {
            2
        };
        run.assert_refused(code, needle, &args.join(" "));
        assert!(
            run.stdout.is_empty(),
            "{}: no verdict printed",
            args.join(" ")
        );
    }
}

// ---------------------------------------------------------------------------------------
// score

fn score_json(dir: &Path) -> Value {
    let run = shapemaze(&["score", path_str(dir), "--format", "json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    run.json()
}

fn total<'a>(report: &'a Value, group: &str, value: &str) -> &'a Value {
    report["totals"]
        .as_array()
        .and_then(|t| {
            t.iter()
                .find(|r| r["group"] == group && r["value"] == value)
        })
        .unwrap_or_else(|| panic!("no totals row {group} {value}"))
}

#[test]
fn transcripts_written_by_the_core_rescore_with_no_differences() {
    let dir = TempDir::new("roundtrip");
    let written = write_export(dir.path(), "scripted/v1", 5, 2, 3, 4);
    write(
        &dir.path().join("trials.csv"),
        b"stored verdicts are never read\n",
    );
    let report = score_json(dir.path());
    assert_eq!(
        report["transcripts"],
        written.trials.len(),
        "every transcript found"
    );
    assert_eq!(
        report["rescored"],
        written.trials.len(),
        "every transcript re-run from its replies"
    );
    assert_eq!(report["without_markers"], 0);
    assert_eq!(
        report["differences"],
        serde_json::json!([]),
        "no differences"
    );
    let all = total(&report, "all", "all");
    for (i, phase) in ["solve", "recognize", "generate"].into_iter().enumerate() {
        let success = written
            .trials
            .iter()
            .filter(|(_, t)| t.outcomes()[i].is_some_and(|o| o.name() == "success"))
            .count();
        assert_eq!(
            all[phase]["success"], success,
            "{phase} successes equal the trials' own"
        );
        assert_eq!(all[phase]["unscored"], 0, "{phase}: every phase scored");
    }
    assert!(
        success_between(all, "solve", 1, written.trials.len() - 1),
        "the scripts both solve and fail: {all}"
    );
    let model = total(&report, "model", "scripted-v1");
    assert_eq!(
        model["solve"]["success"], all["solve"]["success"],
        "one model, named as its folder"
    );
    for shape in Shape::STANDARD {
        let row = total(&report, "shape", shape.name());
        let n = row["solve"]["success"].as_u64().unwrap_or(0)
            + row["solve"]["fail"].as_u64().unwrap_or(0);
        assert_eq!(n, 2 * 2 * 3, "{shape}: 2 mazes x 2 encodings x 3 trials");
    }
    let trial = &report["trials"][0];
    assert_eq!(
        trial["file"],
        written
            .trials
            .iter()
            .map(|(f, _)| f.clone())
            .min()
            .unwrap_or_default(),
        "trials sorted by path"
    );
    assert_eq!(trial["layout"]["model"], "scripted-v1");
    assert_eq!(trial["phases"][0]["phase"], "solve");
}

fn success_between(row: &Value, phase: &str, lo: usize, hi: usize) -> bool {
    row[phase]["success"]
        .as_u64()
        .is_some_and(|s| (lo as u64..=hi as u64).contains(&s))
}

#[test]
fn the_text_report_gives_totals_per_model_encoding_shape_and_phase() {
    let dir = TempDir::new("text");
    write_export(dir.path(), "qwen", 5, 1, 2, 8);
    let run = shapemaze(&["score", path_str(dir.path())]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let out = &run.stdout;
    assert!(out.starts_with("Scored 24 transcripts under "), "{out}");
    assert!(
        out.contains("24 re-scored from their replies, 0 counted from their closing lines only"),
        "{out}"
    );
    for label in [
        "all ",
        "model qwen",
        "encoding matrix",
        "encoding coord_list",
        "shape square",
        "shape Z",
        "model/encoding/shape qwen/coord_list/C",
    ] {
        assert!(
            out.lines().any(|l| l.starts_with(label)),
            "a totals row '{label}':\n{out}"
        );
    }
    assert!(
        out.contains("solve") && out.contains("recognize") && out.contains("generate"),
        "{out}"
    );
    assert!(
        out.contains("Recorded verdicts that differ from the recomputed ones: 0"),
        "{out}"
    );
    let again = shapemaze(&["score", path_str(dir.path())]);
    assert_eq!(again.stdout, run.stdout, "the report is deterministic");
}

#[test]
fn a_tampered_reply_is_reported_with_the_trial_named() {
    let dir = TempDir::new("tamper");
    let written = write_export(dir.path(), "qwen", 5, 1, 1, 2);
    // Find a trial that recognized its shape correctly and make it name another shape.
    let (rel, _) = written
        .trials
        .iter()
        .find(|(_, t)| {
            t.recognize_verdict().is_some_and(|v| v.passed()) && t.setup().shape == Shape::Spiral
        })
        .expect("a scripted trial names the spiral");
    let file = dir.path().join(rel);
    let text = std::fs::read_to_string(&file).expect("transcript");
    let answer = format!("{ASSISTANT_MARKER}\nShape: spiral");
    assert!(
        text.contains(&answer),
        "the recognition reply is in the transcript:\n{text}"
    );
    write(
        &file,
        text.replace(&answer, &format!("{ASSISTANT_MARKER}\nShape: a square"))
            .as_bytes(),
    );

    let report = score_json(dir.path());
    let diffs = report["differences"].as_array().expect("list");
    assert_eq!(diffs.len(), 1, "only the tampered trial differs: {diffs:?}");
    assert_eq!(
        diffs[0]["file"],
        rel.as_str(),
        "the trial is named by its path"
    );
    assert_eq!(
        (
            &diffs[0]["phase"],
            &diffs[0]["recorded"],
            &diffs[0]["recomputed"]
        ),
        (&"recognize".into(), &"success".into(), &"fail".into())
    );
    assert_eq!(diffs[0]["reason"], "wrong_shape");

    let text_run = shapemaze(&["score", path_str(dir.path())]);
    let line = format!("  {rel}: RECOGNIZE recorded SUCCESS, recomputed FAIL (wrong_shape: ");
    assert!(
        text_run
            .stdout
            .contains("differ from the recomputed ones: 1"),
        "{}",
        text_run.stdout
    );
    assert!(
        text_run.stdout.contains(&line),
        "the text report names the trial:\n{}",
        text_run.stdout
    );
}

#[test]
fn a_tampered_closing_line_is_reported_too() {
    let dir = TempDir::new("tamper-closing");
    let written = write_export(dir.path(), "qwen", 5, 1, 1, 3);
    let (rel, trial) = &written.trials[0];
    let solve = trial.outcomes()[0].expect("solve ended");
    let file = dir.path().join(rel);
    let text = std::fs::read_to_string(&file).expect("transcript");
    let flipped = if solve.name() == "success" {
        ("SOLVE: SUCCESS", "SOLVE: FAIL")
    } else {
        ("SOLVE: FAIL", "SOLVE: SUCCESS")
    };
    write(&file, text.replace(flipped.0, flipped.1).as_bytes());
    let report = score_json(dir.path());
    assert_eq!(report["differences"][0]["file"], rel.as_str());
    assert_eq!(report["differences"][0]["phase"], "solve");
    assert_eq!(
        report["differences"][0]["recomputed"],
        solve.name(),
        "the replies decide, not the stored line"
    );
}

#[test]
fn foreign_transcripts_without_markers_are_counted_from_their_closing_lines() {
    let dir = TempDir::new("foreign");
    write_export(dir.path(), "qwen", 5, 1, 1, 5);
    let foreign = dir
        .path()
        .join("matrix_qwen_results/5x5/square/5x5_square_7.npy/0.txt");
    write(&foreign, b"Prompt: solve the maze\n1 0 P\nModel: (0, 1)\n\nSOLVE: SUCCESS\nRECOGNIZE: FAIL\nGENERATE: SUCCESS\n");
    let elsewhere = dir.path().join("old/run.txt");
    write(
        &elsewhere,
        b"whatever\nSOLVE: FAIL\nRECOGNIZE: FAIL\nGENERATE: FAIL\n",
    );
    write(&dir.path().join("README.txt"), b"These are our results.");
    let report = score_json(dir.path());
    assert_eq!(report["transcripts"], 12 + 2);
    assert_eq!(
        (&report["closing_lines_only"], &report["without_markers"]),
        (&2.into(), &2.into())
    );
    let files: Vec<&str> = report["closing_lines_only_files"]
        .as_array()
        .expect("list")
        .iter()
        .filter_map(|f| f["file"].as_str())
        .collect();
    assert_eq!(
        files,
        vec![
            "matrix_qwen_results/5x5/square/5x5_square_7.npy/0.txt",
            "old/run.txt"
        ]
    );
    assert_eq!(
        report["skipped_files"][0]["file"], "README.txt",
        "not a transcript: skipped and listed"
    );
    assert_eq!(
        report["differences"],
        serde_json::json!([]),
        "nothing recomputed, nothing to compare"
    );
    let unknown = total(&report, "model", "unknown");
    assert_eq!(
        unknown["solve"]["fail"], 1,
        "a transcript outside the layout counts under model unknown"
    );
    let text = shapemaze(&["score", path_str(dir.path())]).stdout;
    assert!(
        text.contains(
            "2 counted from their closing lines only (2 of them without message markers)"
        ),
        "{text}"
    );
    assert!(
        text.contains("old/run.txt: no ### user / ### assistant message markers"),
        "{text}"
    );
}

#[test]
fn transcripts_outside_the_layout_are_rescored_with_the_shape_read_from_the_maze() {
    let dir = TempDir::new("loose");
    let library = TemplateLibrary::new(5);
    let set = generate_set(Shape::C, 2, 1, &library).expect("set");
    let trial = support::play(Shape::C, Encoding::CoordList, &set[0], &set[1], 0, &library);
    write(
        &dir.path().join("one trial.txt"),
        trial.transcript().expect("done").as_bytes(),
    );
    let report = score_json(dir.path());
    assert_eq!(report["rescored"], 1, "{report}");
    assert_eq!(
        (
            &report["trials"][0]["shape"],
            &report["trials"][0]["encoding"]
        ),
        (&"C".into(), &"coord_list".into())
    );
    assert_eq!(report["differences"], serde_json::json!([]));
    let single = score_json(&dir.path().join("one trial.txt"));
    assert_eq!(
        single["rescored"], 1,
        "a single transcript file can be scored too"
    );
}

#[test]
fn api_errors_are_counted_apart_and_never_as_failures() {
    let dir = TempDir::new("api-errors");
    let library = TemplateLibrary::new(5);
    let set = generate_set(Shape::C, 2, 1, &library).expect("set");
    let trial = support::play(Shape::C, Encoding::Matrix, &set[0], &set[1], 0, &library);
    let text = trial.transcript().expect("done");
    // The generation phase's endpoint failed: no reply, and the closing line says ERROR.
    let lines: Vec<&str> = text.lines().collect();
    let (body, closing) = lines.split_at(lines.len() - 3);
    let body = body.join("\n");
    let cut = body.rfind(ASSISTANT_MARKER).expect("a generation reply");
    let failed = format!(
        "{}{}\n{}\nGENERATE: ERROR\n",
        &body[..cut],
        closing[0],
        closing[1]
    );
    write(&dir.path().join("endpoint failed.txt"), failed.as_bytes());
    write(
        &dir.path().join("foreign.txt"),
        b"SOLVE: ERROR\nRECOGNIZE: ERROR\nGENERATE: ERROR\n",
    );
    let report = score_json(dir.path());
    let all = total(&report, "all", "all");
    assert_eq!(
        all["generate"],
        serde_json::json!({"success": 0, "fail": 0, "unscored": 0, "api_error": 2}),
        "{report}"
    );
    assert_eq!(all["solve"]["api_error"], 1, "{report}");
    assert_eq!(
        report["differences"],
        serde_json::json!([]),
        "an API error with no reply is no difference"
    );
    let text_run = shapemaze(&["score", path_str(dir.path())]);
    assert!(
        text_run.stdout.contains("0/0 0.0% !2")
            && text_run
                .stdout
                .contains("!N = N trials whose endpoint failed"),
        "{}",
        text_run.stdout
    );
}

#[test]
fn score_refuses_what_it_cannot_read() {
    let dir = TempDir::new("score-bad");
    let missing = dir.path().join("nope");
    shapemaze(&["score", path_str(&missing)]).assert_input_error("cannot read", "missing folder");
    shapemaze(&["score"]).assert_usage_error("needs a folder", "no folder");
    shapemaze(&["score", "a", "b"]).assert_usage_error("takes one folder", "two folders");
    shapemaze(&["score", path_str(dir.path()), "--format", "xml"])
        .assert_usage_error("unknown format 'xml'", "format");
    let empty = shapemaze(&["score", path_str(dir.path())]);
    assert_eq!(empty.code, 0, "an empty folder is scored: zero transcripts");
    assert!(
        empty.stdout.starts_with("Scored 0 transcripts"),
        "{}",
        empty.stdout
    );
}

// ---------------------------------------------------------------------------------------
// help and dispatch

#[test]
fn every_command_has_help_with_an_example() {
    for cmd in ["generate", "verify", "score"] {
        for args in [vec![cmd, "--help"], vec![cmd, "-h"], vec!["help", cmd]] {
            let run = shapemaze(&args);
            assert_eq!(run.code, 0, "{}", args.join(" "));
            assert!(
                run.stdout.starts_with(&format!("shapemaze {cmd}: ")),
                "{}: {}",
                args.join(" "),
                run.stdout
            );
            assert!(run.stdout.contains("Example"), "{cmd} help has an example");
            assert!(
                run.stdout.contains(&format!("\n  shapemaze {cmd} "))
                    || run.stdout.contains(&format!("| shapemaze {cmd} ")),
                "{cmd}: example invocation:\n{}",
                run.stdout
            );
        }
    }
    let top = shapemaze(&["--help"]);
    assert_eq!(top.code, 0);
    for cmd in ["generate", "verify", "score"] {
        assert!(
            top.stdout.contains(&format!("  {cmd} ")),
            "top help lists {cmd}"
        );
    }
    assert!(
        shapemaze(&["--version"]).stdout.starts_with("shapemaze "),
        "version"
    );
}

#[test]
fn the_documentation_lists_every_verdict_reason_and_no_other() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/cli.md"))
        .expect("docs/cli.md");
    let section = doc
        .split("### Verdict reasons")
        .nth(1)
        .and_then(|rest| rest.split("\n### ").next())
        .expect("a reasons section");
    let listed: Vec<&str> = section
        .lines()
        .filter_map(|l| l.strip_prefix("| `")?.split('`').next())
        .collect();
    let known: Vec<&str> = shapemaze::core::verify::Reason::ALL
        .iter()
        .map(|r| r.as_str())
        .collect();
    assert_eq!(
        listed, known,
        "docs/cli.md lists the reasons of core::verify::Reason, in order"
    );
}

#[test]
fn unknown_commands_and_no_command_are_usage_errors() {
    shapemaze(&[]).assert_usage_error("no command given", "no command");
    shapemaze(&["solve"]).assert_usage_error("unknown command 'solve'", "unknown command");
    shapemaze(&["help", "solve"])
        .assert_usage_error("no help for 'solve'", "help on unknown command");
}

// ---------------------------------------------------------------------------------------
// Nothing panics, whatever the input

fn run_in_process(args: &[String], stdin: &[u8]) -> (i32, String, String) {
    let mut input = stdin;
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = shapemaze::cli::run(
        args,
        &mut shapemaze::cli::Io {
            stdin: &mut input,
            stdout: &mut out,
            stderr: &mut err,
        },
    );
    (
        code,
        String::from_utf8_lossy(&out).into_owned(),
        String::from_utf8_lossy(&err).into_owned(),
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn any_reply_to_any_phase_gets_a_json_verdict(reply in ".{0,300}", phase in prop::sample::select(vec!["move", "path", "recognize", "generate"]), encoding in prop::sample::select(vec!["matrix", "coord_list"])) {
        let dir = ring_files();
        let maze = path_str(&dir.path().join("ring.npy")).to_string();
        let args: Vec<String> = ["verify", "--phase", phase, "--shape", "square", "--encoding", encoding, "--maze", &maze, "--response", "-"].map(String::from).to_vec();
        let (code, out, err) = run_in_process(&args, reply.as_bytes());
        prop_assert_eq!(code, 0, "{}", err);
        let v: Value = serde_json::from_str(out.trim()).map_err(|e| TestCaseError::fail(format!("{e}: {out}")))?;
        prop_assert!(v["outcome"] == "success" || v["outcome"] == "fail");
    }

    #[test]
    fn grid_shaped_replies_of_any_size_get_a_verdict(rows in 1usize..16, cols in 1usize..16, cells in prop::collection::vec(prop::sample::select(vec!["0", "1", "P", "G"]), 256)) {
        let reply: Vec<String> = (0..rows).map(|r| cells[r * 16..r * 16 + cols].join(" ")).collect();
        let dir = ring_files();
        let maze = path_str(&dir.path().join("ring.txt")).to_string();
        for phase in ["generate", "path", "move"] {
            let args: Vec<String> = ["verify", "--phase", phase, "--shape", "square", "--maze", &maze, "--response", "-"].map(String::from).to_vec();
            let (code, _, err) = run_in_process(&args, reply.join("\n").as_bytes());
            prop_assert_eq!(code, 0, "{}", err);
        }
    }

    #[test]
    fn any_arguments_end_in_success_or_a_refusal_of_one_line(args in prop::collection::vec(prop::sample::select(vec![
        "generate", "verify", "score", "help", "--shape", "--size", "--samples", "--seed", "--phase",
        "--encoding", "--maze", "--response", "--format", "--help", "-h", "-", "--", "--x=1",
        "square", "all", "C", "7", "12", "0", "-1", "move", "recognize", "json", "text", "", " ",
        "/nonexistent/shapemaze", "é",
    ]), 0..8), stdin in ".{0,40}") {
        let args: Vec<String> = args.into_iter().map(String::from).collect();
        let (code, _, err) = run_in_process(&args, stdin.as_bytes());
        // 0, or a refusal: 2 bad arguments, 4 an unreadable or foreign file, 6 unwritable.
        prop_assert!([0, 2, 4, 6].contains(&code), "status {} for {:?}: {}", code, args, err);
        if code != 0 {
            prop_assert_eq!(err.lines().count(), 1, "one line for {:?}: {}", args, err);
        }
    }
}

#[test]
fn generation_against_an_original_of_an_unsupported_size_is_a_usage_error() {
    let dir = TempDir::new("odd-size");
    let maze = dir.path().join("six.txt");
    let six = "P 0 0 0 0 0\n0 1 1 1 1 0\n0 1 1 1 1 0\n0 1 1 1 1 0\n0 1 1 1 1 0\n0 0 0 0 0 G\n";
    write(&maze, six.as_bytes());
    let reply = dir.path().join("reply.txt");
    write(&reply, six.as_bytes());
    let args = [
        "verify",
        "--phase",
        "generate",
        "--shape",
        "square",
        "--maze",
        path_str(&maze),
        "--response",
        path_str(&reply),
    ];
    shapemaze(&args).assert_usage_error("side 5, 7, 9 or 11", "a 6x6 original");
    // A move on the same maze is still checked: any size can be walked.
    let mv = dir.path().join("move.txt");
    write(&mv, b"Move: (0, 1)");
    let run = shapemaze(&[
        "verify",
        "--phase",
        "move",
        "--shape",
        "square",
        "--maze",
        path_str(&maze),
        "--response",
        path_str(&mv),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.json()["reason"], "valid_move");
}

/// The options a text names (`--name`), in order of first mention.
fn options_in(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let b = text.as_bytes();
    for i in 0..b.len().saturating_sub(2) {
        let starts = b[i] == b'-' && b[i + 1] == b'-' && b[i + 2].is_ascii_lowercase();
        let after_word = i > 0 && (b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'-');
        if starts && !after_word {
            let end = (i + 2..b.len())
                .find(|&j| !(b[j].is_ascii_lowercase() || b[j] == b'-'))
                .unwrap_or(b.len());
            let name = text[i..end].trim_end_matches('-').to_string();
            if !out.contains(&name) {
                out.push(name);
            }
        }
    }
    out
}

#[test]
fn docs_cli_md_describes_every_option_each_commands_help_lists_and_no_other() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/cli.md"))
        .expect("docs/cli.md");
    // Each command's section: from its `### ` heading to the next one.
    let section = |command: &str| -> String {
        let start = doc
            .split("\n### ")
            .find(|s| {
                s.starts_with(&format!("`shapemaze {command}`"))
                    || s.contains(&format!("and `shapemaze {command}`"))
            })
            .unwrap_or_else(|| panic!("docs/cli.md has no section for `shapemaze {command}`"));
        start.to_string()
    };
    let top = run_in_process(&["--help".to_string()], b"").1;
    for command in [
        "generate", "verify", "score", "report", "run", "merge", "serve",
    ] {
        assert!(top.contains(command), "`shapemaze --help` lists {command}");
        let (code, help, err) = run_in_process(&[command.to_string(), "--help".into()], b"");
        assert_eq!(code, 0, "{command} --help: {err}");
        let text = section(command);
        // Every option the help lists is described in the command's section.
        // `--help` itself is described once for every command, at the top.
        for option in options_in(&help).into_iter().filter(|o| o != "--help") {
            assert!(
                text.contains(&option),
                "docs/cli.md's section on `shapemaze {command}` does not describe {option}, which its --help lists"
            );
        }
        // The section's synopsis names only options the command takes.
        let synopsis: String = text
            .lines()
            .skip_while(|l| !l.starts_with("```"))
            .skip(1)
            .take_while(|l| !l.starts_with("```"))
            .skip_while(|l| !l.starts_with(&format!("shapemaze {command}")))
            .take_while(|l| l.starts_with(&format!("shapemaze {command}")) || l.starts_with(' '))
            .collect::<Vec<_>>()
            .join("\n");
        assert!(
            !synopsis.is_empty(),
            "docs/cli.md shows `shapemaze {command}`'s synopsis"
        );
        for option in options_in(&synopsis) {
            assert!(
                help.contains(&option),
                "docs/cli.md's synopsis of `shapemaze {command}` names {option}, which its --help does not"
            );
        }
    }
}

#[test]
fn options_are_found_in_text_as_a_person_writes_them() {
    assert_eq!(
        options_in("shapemaze run D --out DIR [--shard I/N] --retry-errors; --out again"),
        vec!["--out", "--shard", "--retry-errors"]
    );
    assert!(options_in("a -- b, x--y, ---").is_empty());
}

#[test]
fn verify_with_u_judges_as_a_design_with_u_does() {
    let judge = |extra: &[&str]| {
        let mut args = vec![
            "verify",
            "--phase",
            "recognize",
            "--shape",
            "C",
            "--response",
            "-",
        ];
        args.extend_from_slice(extra);
        let run = shapemaze_with_stdin(&args, b"It is a horseshoe.\n\nShape: U");
        assert_eq!(run.code, 0, "{}", run.stderr);
        serde_json::from_str::<Value>(&run.stdout).expect("a JSON verdict")
    };
    assert_eq!(
        judge(&[])["reason"],
        "correct_shape",
        "without U a U names the C"
    );
    let beside = judge(&["--with", "U"]);
    assert_eq!(
        (beside["reason"].as_str(), beside["extracted"].as_str()),
        (Some("wrong_shape"), Some("U"))
    );
    let bad = shapemaze_with_stdin(
        &[
            "verify",
            "--phase",
            "recognize",
            "--shape",
            "C",
            "--with",
            "oval",
            "--response",
            "-",
        ],
        b"Shape: C",
    );
    assert_eq!(bad.code, 2);
    assert!(bad.stderr.contains("oval"), "{}", bad.stderr);
}
