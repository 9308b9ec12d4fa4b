//! Symbol sets (issue 19): a design may write its matrices in other symbols than `1 0 P G`
//! (`@ * S E`, as the design's original code tried). The prompt's legend states them, the
//! maze is shown in them, and a generated maze is read in them alone.
#![cfg(not(target_arch = "wasm32"))]

mod support;

use serde_json::Value;
use shapemaze::core::maze::encoding::Encoding;
use shapemaze::core::maze::extraction::ParseError;
use shapemaze::core::maze::grid::{Maze, Tile};
use shapemaze::core::maze::shape::Shape;
use shapemaze::core::maze::symbols::Symbols;
use shapemaze::core::maze::templates::TemplateLibrary;
use shapemaze::core::play::player::{play_ready, Oracle};
use shapemaze::core::play::prompt::announced_symbols;
use shapemaze::core::play::trial::{Trial, TrialSetup};
use shapemaze::core::verify::{verify_generation_in, Outcome, Reason};
use std::sync::Arc;
use support::run::{assert_all_replayed, path_str, shapemaze, shapemaze_with_stdin};
use support::TempDir;

/// The 5x5 square ring, P at (0, 0), G at (4, 4).
const RING: &str = "P 0 0 0 0\n0 1 1 1 0\n0 1 1 1 0\n0 1 1 1 0\n0 0 0 0 G";

fn ring() -> Maze {
    Maze::from_grid(Encoding::Matrix.parse_grid(RING, 5, 5).expect("reads")).expect("P and G")
}

fn at(text: &str) -> Symbols {
    Symbols::parse(text).expect("a set")
}

/// The generation verdict on `reply` for the ring's trial written in `symbols`.
fn judge(symbols: Symbols, reply: &str) -> shapemaze::core::verify::Verdict {
    static LIB: std::sync::OnceLock<TemplateLibrary> = std::sync::OnceLock::new();
    let lib = LIB.get_or_init(|| TemplateLibrary::new(5));
    verify_generation_in(
        &ring(),
        Shape::Square,
        Encoding::Matrix,
        symbols,
        lib,
        reply,
    )
}

/// `RING` with P and G moved, written in `symbols`.
fn new_ring(symbols: Symbols) -> String {
    let standard = "0 0 0 0 P\n0 1 1 1 0\n0 1 1 1 0\n0 1 1 1 0\nG 0 0 0 0";
    let mut g = Encoding::Matrix.parse_grid(standard, 5, 5).expect("reads");
    g.set(shapemaze::core::maze::grid::Pos::new(2, 0), Tile::Empty);
    Encoding::Matrix.render_in(&g, Default::default(), symbols)
}

#[test]
fn a_matrix_is_read_in_its_trial_s_symbols_and_only_in_them() {
    let star = at("@*SE");
    let written = new_ring(star);
    assert_eq!(
        written.lines().next(),
        Some("* * * * S"),
        "rendered in the set"
    );
    for reply in [
        format!("Here is my new maze:\n\n```\n{written}\n```"),
        format!("New maze:\n{}", written.replace('\n', " .\n")),
        format!("{written}\n<|im_end|>"),
    ] {
        let v = judge(star, &reply);
        assert_eq!(
            (v.outcome, v.reason),
            (Outcome::Success, Reason::ValidNewMaze),
            "{reply}\n{v:?}"
        );
    }
    // Explanations name the player, the goal and the legend in the trial's symbols.
    let v = judge(star, &written);
    assert!(
        v.explanation.contains("; S reaches E in"),
        "{}",
        v.explanation
    );
    let v = judge(star, &written.replacen('*', "X", 1));
    assert_eq!(v.reason, Reason::InvalidSymbol, "{v:?}");
    assert!(
        v.explanation
            .contains("(use @ wall, * empty, S player, E goal)")
            && !v.explanation.contains("1 wall"),
        "{}",
        v.explanation
    );
    // The same maze in the design's symbols is not properly encoded under @ * S E, and the
    // explanation says what was asked for and what the reply wrote.
    let v = judge(star, &new_ring(Symbols::STANDARD));
    assert_eq!(
        (v.outcome, v.reason),
        (Outcome::Fail, Reason::NoMazeFound),
        "{v:?}"
    );
    assert!(
        v.explanation.contains("This trial's symbols are @ wall, * empty, S player, E goal; the reply writes its maze in 1 0 P G instead."),
        "{}",
        v.explanation
    );
    // And the other way round: the design's trials do not read @ * S E.
    let v = judge(Symbols::STANDARD, &written);
    assert_eq!(v.reason, Reason::NoMazeFound, "{v:?}");
    assert!(
        !v.explanation.contains("This trial's symbols"),
        "{}",
        v.explanation
    );
    // A row without spaces is read cell by cell and fails the encoding alone, as in 1 0 P G.
    let unspaced = written.replace(' ', "");
    let v = judge(star, &unspaced);
    let checks = v.checks.expect("checks");
    assert!(
        !checks.valid_encoding && checks.same_shape && checks.novel,
        "{checks:?}"
    );
}

#[test]
fn a_set_that_writes_cells_with_punctuation_keeps_them_as_cells() {
    // `.` for empty cells is not a full stop ending the row, and `*` for walls is neither
    // emphasis nor a list marker.
    for set in ["#.SE", "*.SE", "-_PG"] {
        let written = new_ring(at(set));
        let v = judge(at(set), &written);
        assert_eq!(v.outcome, Outcome::Success, "{set}:\n{written}\n{v:?}");
    }
    // Row labels keep the cells after them.
    for set in ["#.SE", "#-SE"] {
        let labelled: String = new_ring(at(set))
            .lines()
            .enumerate()
            .map(|(i, l)| format!("Row {i}: {l}\n"))
            .collect();
        let v = judge(at(set), &labelled);
        assert_eq!(v.outcome, Outcome::Success, "{set}:\n{labelled}\n{v:?}");
    }
    let read = Encoding::Matrix.read_reply_in("* * *\n* 1 *", 0, 0, at("*.SE"));
    assert!(
        matches!(read.grid, Err(ParseError::InvalidSymbol { ref symbol, row: 1 }) if symbol == "1"),
        "{:?}",
        read.grid
    );
}

#[test]
fn the_oracle_plays_a_whole_trial_in_the_set_and_the_legend_says_it() {
    let lib = Arc::new(TemplateLibrary::new(5));
    let star = at("@*SE");
    let setup = TrialSetup {
        symbols: star,
        ..TrialSetup::new(Shape::Square, Encoding::Matrix, ring())
    };
    let mut t = Trial::new(setup, lib);
    play_ready(&mut t, &mut Oracle);
    let first = &t.turns()[0].message.content;
    assert!(
        first.contains("You are the player S in a 5x5 maze and must reach the goal E.")
            && first.contains("Legend: @ = wall, * = empty corridor, S = player, E = goal."),
        "{first}"
    );
    assert_eq!(announced_symbols(first), Some(star));
    let generate = t.turns().iter().rev().nth(1).expect("the generate prompt");
    assert!(
        generate
            .message
            .content
            .contains("@ wall, * empty, exactly one S and one E."),
        "{}",
        generate.message.content
    );
    let verdicts: Vec<_> = [
        t.solve_verdict(),
        t.recognize_verdict(),
        t.generate_verdict(),
    ]
    .iter()
    .map(|v| v.map(|v| v.outcome))
    .collect();
    assert_eq!(verdicts, vec![Some(Outcome::Success); 3]);
    // The design's legend names 1 0 P G; a prompt without a legend names none.
    let plain = Trial::new(
        TrialSetup::new(Shape::Square, Encoding::Matrix, ring()),
        Arc::new(TemplateLibrary::new(5)),
    );
    let text = &plain.turns()[0].message.content;
    assert_eq!(announced_symbols(text), Some(Symbols::STANDARD));
    assert_eq!(announced_symbols("Move: (0, 1)"), None);
}

fn records(dir: &std::path::Path) -> Vec<Value> {
    std::fs::read_to_string(dir.join("trials.jsonl"))
        .expect("trials.jsonl")
        .lines()
        .map(|l| serde_json::from_str(l).expect("a record"))
        .collect()
}

#[test]
fn a_design_with_symbols_runs_scores_from_its_transcripts_and_verifies_from_the_command_line() {
    let tmp = TempDir::new("symbols-run");
    let design = serde_json::json!({
        "players": [{"kind": "oracle"}, {"kind": "random"}],
        "encodings": ["matrix", "coord_list"], "shapes": ["square", "cross", "C"],
        "size": 5, "samples_per_shape": 2, "seed": 3, "symbols": "@*SE"
    });
    let path = tmp.path().join("design.json");
    std::fs::write(&path, design.to_string()).expect("write");
    let out = tmp.path().join("out");
    let r = shapemaze(&["run", path_str(&path), "--out", path_str(&out)]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let recs = records(&out);
    assert_eq!(recs.len(), 24);
    for r in &recs {
        // A matrix trial keeps its symbols; a coordinate list has none.
        let matrix = r["encoding"] == "matrix";
        assert_eq!(
            r.get("symbols").and_then(Value::as_str),
            matrix.then_some("@ * S E")
        );
        let first = r["messages"][0]["content"]
            .as_str()
            .expect("the first prompt");
        assert_eq!(matrix, first.contains("Legend: @ = wall"), "{first}");
        if r["model"] == "oracle" {
            assert_eq!(r["verdicts"]["generate"]["outcome"], "success", "{r}");
        }
    }
    // Scored again from the transcripts alone (the legend says the symbols): every one
    // replayed from its replies, none differing.
    assert_all_replayed(&out, 24);
    let csv = std::fs::read_to_string(out.join("trials.csv")).expect("trials.csv");
    // A cell starting with @ is quoted against spreadsheet formulas, as every CSV cell is.
    let column = |l: &str, name: &str| {
        let head: Vec<&str> = csv.lines().next().expect("a header").split(',').collect();
        let at = head.iter().position(|c| *c == name).expect("a column");
        l.split(',').nth(at).map(str::to_string)
    };
    for l in csv.lines().skip(1) {
        let matrix = column(l, "encoding").as_deref() == Some("matrix");
        let expected = if matrix { "'@ * S E" } else { "" };
        assert_eq!(column(l, "symbols").as_deref(), Some(expected), "{l}");
    }
    // `verify --symbols` judges one reply as such a trial does.
    let maze = tmp.path().join("maze.txt");
    std::fs::write(&maze, RING).expect("write");
    let verify = |symbols: &[&str], reply: &str| {
        let mut args = vec!["verify", "--phase", "generate", "--shape", "square"];
        args.extend(["--maze", path_str(&maze), "--response", "-"]);
        args.extend(symbols);
        shapemaze_with_stdin(&args, reply.as_bytes()).json()
    };
    let star = new_ring(at("@*SE"));
    assert_eq!(verify(&["--symbols", "@*SE"], &star)["outcome"], "success");
    assert_eq!(verify(&[], &star)["reason"], "no_maze_found");
    assert_eq!(
        verify(&[], &new_ring(Symbols::STANDARD))["outcome"],
        "success"
    );
    shapemaze(&[
        "verify",
        "--phase",
        "generate",
        "--maze",
        path_str(&maze),
        "--symbols",
        "@@SE",
        "--response",
        "-",
    ])
    .assert_usage_error("four different characters", "a repeated symbol");
    // A design whose symbols no matrix uses is refused, saying what to do.
    let bad = serde_json::json!({"players": [{"kind": "oracle"}], "encodings": ["coord_list"],
        "shapes": ["square"], "symbols": "@*SE"});
    std::fs::write(&path, bad.to_string()).expect("write");
    let r = shapemaze(&[
        "run",
        path_str(&path),
        "--out",
        path_str(&tmp.path().join("bad")),
    ]);
    assert!(
        r.code != 0
            && r.stderr
                .contains("apply to the matrix encoding: add it, or remove the symbols"),
        "{}",
        r.stderr
    );
}

#[test]
fn a_reply_naming_the_player_and_goal_by_the_set_s_symbols_reads_as_with_p_and_g() {
    let star = at("@*SE");
    let lib = Arc::new(TemplateLibrary::new(5));
    let trial = |symbols| {
        Trial::new(
            TrialSetup {
                symbols,
                ..TrialSetup::new(Shape::Square, Encoding::Matrix, ring())
            },
            lib.clone(),
        )
    };
    // The ring's player is at (0, 0), its goal at (4, 4); (0, 1) is open.
    for (symbols, reply) in [
        (
            star,
            "S is at (0, 0) and E is at (4, 4). S moves to (0, 1).",
        ),
        (
            Symbols::STANDARD,
            "P is at (0, 0) and G is at (4, 4). P moves to (0, 1).",
        ),
    ] {
        let mut t = trial(symbols);
        let v = t.submit(reply).expect("judged");
        assert_eq!(
            (v.outcome, v.reason),
            (Outcome::Success, Reason::ValidMove),
            "{reply}: {v:?}"
        );
    }
}
