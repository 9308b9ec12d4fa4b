//! `shapemaze score` on results folders of the design's original runs (ORIGINAL_DATA.md):
//! transcripts written the original way by these tests, API-failure files and stray files;
//! the three scorings side by side and the named causes of their differences.
#![cfg(not(target_arch = "wasm32"))]

mod support;

use serde_json::Value;
use std::path::Path;
use support::run::{path_str, shapemaze};
use support::{write, write_export, TempDir};

const SQUARE: &str = "P 0 G 0 0\n0 1 1 1 0\n0 1 1 1 0\n0 1 1 1 0\n0 0 0 0 0";
const MOVED: &str = "0 P G 0 0\n0 1 1 1 0\n0 1 1 1 0\n0 1 1 1 0\n0 0 0 0 0";
const NEW_SQUARE: &str = "G 0 0 0 0\n0 1 1 1 0\n0 1 1 1 0\n0 1 1 1 0\n0 0 0 0 P";
const SMALL_SQUARE: &str = "0 P 0 1 1\nG 1 0 1 1\n0 0 0 1 1\n1 1 1 1 1\n1 1 1 1 1";

/// The first prompt as the original code writes it, for a 4-direction shape.
fn first_prompt(maze: &str) -> String {
    format!(
        "You are tasked with solving a maze. You can move up, down, left, or right.\nHere is the maze you should solve:\n\n{maze}\n\nPlease provide the coordinates of your next move."
    )
}

/// The combined prompt, its reply and the two last verdict lines.
fn closing(reply: &str, recognize: &str, generate: &str) -> String {
    format!(
        "For the maze you were tasked to solve, please provide:\n* A new maze of the same shape.\n* The general shape formed by its empty spaces (corridors) is recognizable as \"{{shape}}\".\n{reply}\n\nRECOGNIZE: {recognize}\n\nGENERATE: {generate}\n"
    )
}

/// A clean success: two moves (the first reply glued to the prompt), SOLVE right after
/// the solve phase, a new square maze.
fn clean_success() -> String {
    format!(
        "{}(0, 1)\n\nHere is the current state of the maze after your latest move:\n\n{MOVED}\n\nPlease provide the coordinates of your next move.\n(0, 2)\n\nSOLVE: SUCCESS\n{}",
        first_prompt(SQUARE),
        closing(&format!("A square:\n{NEW_SQUARE}"), "SUCCESS", "SUCCESS")
    )
}

/// A diagonal move the original accepted on the square (a 4-direction shape).
fn diagonal() -> String {
    format!(
        "{}\nI go to (1, 0).\n\nSOLVE: SUCCESS\n{}",
        first_prompt(SMALL_SQUARE),
        closing("A square.", "SUCCESS", "FAIL")
    )
}

const API_FAILURE: &str = "Query did not run: experiment_mazes/5x5/square/5x5_square_3.npy\nError: rate limit reached\n\nSOLVE: FAIL\n\nRECOGNIZE: FAIL\n\nGENERATE: FAIL\n";

/// A results folder of the original runs: three transcripts and a stray file.
fn original_folder() -> TempDir {
    let dir = TempDir::new("original-runs");
    let base = dir.path().join("matrix_claude_results/5x5");
    write(
        &base.join("square/5x5_square_1.npy/0.txt"),
        clean_success().as_bytes(),
    );
    write(
        &base.join("square/5x5_square_2.npy/0.txt"),
        diagonal().as_bytes(),
    );
    write(
        &base.join("square/5x5_square_3.npy/0.txt"),
        API_FAILURE.as_bytes(),
    );
    write(&base.join("metadata.txt"), b"mazes: 3\ntrials: 3\n");
    dir
}

fn score(dir: &Path, extra: &[&str]) -> support::run::Run {
    command("score", dir, extra)
}

/// `shapemaze COMMAND DIR EXTRA...`, which must succeed.
fn command(name: &str, dir: &Path, extra: &[&str]) -> support::run::Run {
    let mut args = vec![name, path_str(dir)];
    args.extend_from_slice(extra);
    let run = shapemaze(&args);
    assert_eq!(run.code, 0, "{name} ran: {}", run.stderr);
    run
}

fn trial<'a>(report: &'a Value, name: &str) -> &'a Value {
    report["trials"]
        .as_array()
        .and_then(|t| {
            t.iter()
                .find(|r| r["file"].as_str().is_some_and(|f| f.contains(name)))
        })
        .unwrap_or_else(|| panic!("no trial {name} in {report}"))
}

#[test]
fn a_folder_of_the_original_runs_is_audited_three_ways_by_default() {
    let dir = original_folder();
    let report = score(dir.path(), &["--format", "json"]).json();
    assert_eq!(report["scoring"], "all", "the default on original runs");
    assert_eq!(
        report["trials"].as_array().map(Vec::len),
        Some(3),
        "{report}"
    );
    let clean = trial(&report, "5x5_square_1.npy");
    for key in ["recorded", "strict", "original"] {
        assert_eq!(
            clean[key],
            serde_json::json!({"solve": "success", "recognize": "success", "generate": "success"}),
            "{key} of the clean success"
        );
    }
    assert_eq!(clean["model"], "claude", "model from the folder name");
    assert_eq!(clean["encoding"], "matrix", "encoding from the folder name");
    assert_eq!(clean["shape"], "square", "shape from the folder name");
    assert_eq!(clean["size"], serde_json::json!([5, 5]), "size");
    let diag = trial(&report, "5x5_square_2.npy");
    assert_eq!(diag["recorded"]["solve"], "success", "as written");
    assert_eq!(diag["original"]["solve"], "success", "the original's rule");
    assert_eq!(diag["strict"]["solve"], "fail", "no diagonals on a square");
    assert_eq!(
        diag["causes"],
        serde_json::json!(["diagonal_on_four_direction_shape"]),
        "the named cause"
    );
    let failed = trial(&report, "5x5_square_3.npy");
    assert_eq!(failed["api_error"], true, "an API error");
    assert_eq!(
        failed["strict"],
        serde_json::json!({"solve": null, "recognize": null, "generate": null}),
        "never a model failure under strict"
    );
    assert_eq!(
        failed["causes"],
        serde_json::json!([
            "api_error_counted_as_failure",
            "api_error_counted_as_failure",
            "api_error_counted_as_failure"
        ]),
        "the original counted the API error as three failures"
    );
    assert_eq!(
        report["skipped_files"][0]["file"], "matrix_claude_results/5x5/metadata.txt",
        "the stray file is skipped and listed: {report}"
    );
}

#[test]
fn the_audit_counts_a_replayed_maze_once_and_prints_its_tables_as_csv() {
    let dir = original_folder();
    // The clean success played again: a second trial of the same maze.
    write(
        &dir.path()
            .join("matrix_claude_results/5x5/square/5x5_square_1.npy/1.txt"),
        clean_success().as_bytes(),
    );
    let audit = score(dir.path(), &["--scoring", "all", "--format", "json"]).json();
    let all = &audit["groups"][0];
    assert_eq!(
        (&all["group"], &all["trials"], &all["mazes"]),
        (&"all".into(), &4.into(), &3.into()),
        "four trials on three mazes (the API failure's maze is one of its own): {all}"
    );
    let csv = command(
        "report",
        dir.path(),
        &[
            "--scoring",
            "all",
            "--format",
            "csv",
            "--table",
            "audit-rates",
        ],
    )
    .stdout;
    let rows: Vec<Vec<&str>> = csv.lines().map(|l| l.split(',').collect()).collect();
    let column = |name: &str| {
        rows[0]
            .iter()
            .position(|c| *c == name)
            .unwrap_or_else(|| panic!("no column {name}: {csv}"))
    };
    let all = rows
        .iter()
        .find(|r| r[0] == "all")
        .unwrap_or_else(|| panic!("no row all: {csv}"));
    // Recorded solves: the clean success twice, the diagonal, and the API failure as
    // written (FAIL): 3 of 4, on 3 mazes.
    let cell = |name: &str| all[column(name)];
    assert_eq!(
        [
            cell("trials"),
            cell("mazes"),
            cell("solve_recorded_successes"),
            cell("solve_recorded_n"),
            cell("solve_recorded_mazes"),
        ],
        ["4", "3", "3", "4", "3"],
        "{csv}"
    );
    let report = shapemaze(&[
        "report",
        path_str(dir.path()),
        "--scoring",
        "strict",
        "--format",
        "csv",
        "--table",
        "audit-rates",
    ]);
    assert_eq!(
        report.code, 2,
        "the audit's tables come with --scoring all only"
    );
    assert!(
        report.stderr.contains("no table 'audit-rates'"),
        "{}",
        report.stderr
    );
}

#[test]
fn the_text_audit_shows_the_three_columns_side_by_side_and_the_causes() {
    let dir = original_folder();
    let text = score(dir.path(), &["--scoring", "all"]).stdout;
    assert!(
        text.contains(
            "recorded  strict  original  recorded   strict  original  recorded  strict  original"
        ),
        "three columns side by side:\n{text}"
    );
    assert!(
        text.contains("claude matrix square  solve      diagonal on four direction shape        1"),
        "the cause counted per model x encoding x shape:\n{text}"
    );
    assert!(
        text.contains("claude matrix square  solve      api error counted as failure            1"),
        "API errors named as a cause:\n{text}"
    );
    assert!(
        text.contains("metadata.txt  stray file"),
        "stray file listed:\n{text}"
    );
    let recorded = score(dir.path(), &["--scoring", "recorded"]).stdout;
    assert!(
        recorded.contains("recorded  recorded   recorded") && !recorded.contains("strict  "),
        "only the recorded column:\n{recorded}"
    );
}

#[test]
fn the_solve_line_written_right_after_the_solve_phase_is_counted() {
    let dir = original_folder();
    let report = score(dir.path(), &["--scoring", "strict", "--format", "json"]).json();
    let all = report["totals"]
        .as_array()
        .and_then(|t| t.iter().find(|r| r["group"] == "all"))
        .unwrap_or_else(|| panic!("no totals row all: {report}"));
    assert_eq!(
        all["solve"]["unscored"], 0,
        "every SOLVE line is read: {all}"
    );
    assert_eq!(all["solve"]["success"], 2, "two recorded successes: {all}");
}

#[test]
fn an_unknown_scoring_is_refused_with_one_line() {
    let dir = original_folder();
    let run = shapemaze(&["score", path_str(dir.path()), "--scoring", "lenient"]);
    assert_eq!(run.code, 2, "a usage error: {}", run.stderr);
    assert!(
        run.stderr.contains("unknown scoring 'lenient'"),
        "{}",
        run.stderr
    );
}

#[test]
fn our_own_folders_keep_the_strict_report_when_the_flag_is_absent() {
    let dir = TempDir::new("own-runs");
    write_export(dir.path(), "qwen", 5, 1, 1, 3);
    let plain = score(dir.path(), &[]).stdout;
    let strict = score(dir.path(), &["--scoring", "strict"]).stdout;
    assert_eq!(plain, strict, "the default on our folders is strict");
    assert!(
        plain.starts_with("Scored "),
        "today's report, unchanged:\n{plain}"
    );
    let strict = score(dir.path(), &["--format", "json"]).json();
    let audited = score(dir.path(), &["--scoring", "all", "--format", "json"]).json();
    let rows = audited["trials"].as_array().expect("trials");
    assert_eq!(
        rows.len(),
        strict["trials"].as_array().map_or(0, Vec::len),
        "our own runs are scored the original way too: {audited}"
    );
    for row in rows {
        let ours = trial(&strict, row["file"].as_str().unwrap_or("?"));
        for (i, phase) in ["solve", "recognize", "generate"].iter().enumerate() {
            assert_eq!(
                row["strict"][phase], ours["phases"][i]["recomputed"],
                "the audit's strict {phase} is today's verdict for {}",
                row["file"]
            );
            assert!(
                !row["original"][phase].is_null() || ours["phases"][i]["recomputed"].is_null(),
                "the original {phase} is scored for {}",
                row["file"]
            );
        }
    }
}

/// `SQUARE` as the maze file `experiment_mazes/5x5/square/5x5_square_1.npy` of the run in
/// `dir`.
fn write_square_maze(dir: &Path) {
    use shapemaze::core::maze::encoding::Encoding;
    let grid = Encoding::Matrix
        .parse_grid(SQUARE, 0, 0)
        .expect("the fixture maze reads");
    write(
        &dir.join("experiment_mazes/5x5/square/5x5_square_1.npy"),
        &shapemaze::core::maze::npy::write(&grid),
    );
}

/// A human result file of the original page on `5x5_square_1.npy`.
fn human_file(participant: &str, moves: &[&str], complete: bool, chosen: &str) -> String {
    serde_json::json!({
        "participant_id": participant,
        "maze_file": "5x5_square_1.npy",
        "maze_type": {"size": "5x5", "shape": "square"},
        "moves": moves,
        "total_moves": moves.len(),
        "completion_time": 20.0,
        "timestamp": 1_700_000_000,
        "maze_complete": complete,
        "failed": !complete,
        "phase": "done",
        "recognized_shape": chosen,
        "recognition_correct": chosen == "square",
        "generation_result": {
            "valid": true,
            "shape": "square",
            "generated_shape": [[0,0],[0,1],[0,2],[1,0],[1,2],[2,0],[2,1],[2,2]],
            "start_position": [0, 0],
            "end_position": [2, 2],
            "feedback": "ok",
            "path_ratio": 1.0
        },
        "generation_method": "click",
        "generation_coordinates": []
    })
    .to_string()
}

#[test]
fn human_result_files_are_scored_beside_the_models_and_repeats_are_flagged() {
    let dir = TempDir::new("human-runs");
    write_square_maze(dir.path());
    write(
        &dir.path().join("p01/p01_5x5_square_1700000000.json"),
        human_file("p01", &["right"], true, "square").as_bytes(),
    );
    write(
        &dir.path().join("p01/p01_5x5_square_1700000500.json"),
        human_file("p01", &["down", "up-right"], true, "square").as_bytes(),
    );
    let report = score(dir.path(), &["--format", "json"]).json();
    assert_eq!(
        report["scoring"], "all",
        "a folder of human files is audited"
    );
    let first = trial(&report, "1700000000");
    assert_eq!(first["model"], "human", "humans form their own group");
    assert_eq!(first["duplicate"], true, "the same maze twice: flagged");
    assert_eq!(first["strict"]["solve"], "success", "{first}");
    let second = trial(&report, "1700000500");
    assert_eq!(second["duplicate"], true, "both files kept and flagged");
    assert_eq!(second["original"]["solve"], "success", "the page took it");
    assert_eq!(second["strict"]["solve"], "fail", "a diagonal on a square");
    assert_eq!(
        second["causes"],
        serde_json::json!(["diagonal_on_four_direction_shape"]),
        "{second}"
    );
    let text = score(dir.path(), &[]).stdout;
    assert!(
        text.contains("played twice (all kept): 2"),
        "repeats listed:\n{text}"
    );
}

#[test]
fn vision_folders_are_read_for_their_recorded_lines() {
    let dir = TempDir::new("vision-runs");
    write(
        &dir.path()
            .join("claude_vision_results/5x5/square/5x5_square_1.npy/0.txt"),
        b"# Maze Navigation Task\n\nThe maze is shown in the image.\n(0, 1)\n\nSOLVE: SUCCESS\n\nIt is a square.\n\nRECOGNIZE: SUCCESS\n\nGENERATE: FAIL\n",
    );
    let report = score(dir.path(), &["--format", "json"]).json();
    assert_eq!(
        report["scoring"], "all",
        "a vision folder is an original run"
    );
    let row = trial(&report, "5x5_square_1.npy");
    assert_eq!(row["vision"], true, "{row}");
    assert_eq!(row["model"], "claude", "model from the folder name");
    assert_eq!(
        row["recorded"],
        serde_json::json!({"solve": "success", "recognize": "success", "generate": "fail"}),
        "the recorded lines, the SOLVE line mid-file included"
    );
    assert_eq!(
        row["strict"]["solve"],
        Value::Null,
        "no maze in the text, nothing replayed"
    );
}

fn report(dir: &Path, extra: &[&str]) -> support::run::Run {
    command("report", dir, extra)
}

#[test]
fn report_takes_the_scoring_and_shows_the_audit_on_the_original_runs() {
    let dir = original_folder();
    // The default on the original runs: the audit, then the strict analysis.
    let text = report(dir.path(), &[]).stdout;
    assert!(
        text.contains("recorded  strict  original  recorded"),
        "the three columns:\n{text}"
    );
    assert!(
        text.contains("solve      diagonal on four direction shape        1"),
        "{text}"
    );
    assert!(text.contains("Verdicts: strict"), "{text}");
    // Solve success: strictly, over the two judged trials (the API error is left out) and
    // the diagonal fails; the original code and its recorded lines count the API error as
    // a failure and the diagonal as a success.
    let solve = |scoring: &str| {
        let j = report(dir.path(), &["--scoring", scoring, "--format", "json"]).json();
        assert_eq!(j["scoring"], scoring);
        let pooled = j["pooled"]
            .as_array()
            .and_then(|rows| {
                rows.iter()
                    .find(|r| r["model"] == "all" && r["encoding"] == "all" && r["shape"] == "all")
            })
            .cloned()
            .unwrap_or_else(|| panic!("a pooled row in {j}"));
        (
            pooled["solve"]["successes"].clone(),
            pooled["solve"]["n"].clone(),
            j,
        )
    };
    let (s, n, _) = solve("strict");
    assert_eq!((s, n), (1.into(), 2.into()), "strict: the diagonal fails");
    let (s, n, _) = solve("original");
    assert_eq!(
        (s, n),
        (2.into(), 3.into()),
        "original: the diagonal passes"
    );
    let (s, n, _) = solve("recorded");
    assert_eq!((s, n), (2.into(), 3.into()), "recorded: as written");
    let (_, _, all) = solve("all");
    assert!(
        all["audit"]["causes"]
            .as_array()
            .is_some_and(|c| !c.is_empty()),
        "{all}"
    );
    // One transcript file works like a folder of one; a folder with none is refused.
    let one = dir
        .path()
        .join("matrix_claude_results/5x5/square/5x5_square_2.npy/0.txt");
    let single = report(&one, &["--scoring", "original", "--format", "json"]).json();
    assert_eq!(single["scoring"], "original", "{single}");
    let empty = TempDir::new("no-transcripts");
    let refused = shapemaze(&["report", path_str(empty.path()), "--scoring", "original"]);
    assert_eq!(refused.code, 4, "nothing to read: an input error");
    assert!(
        refused.stderr.contains("holds no transcripts"),
        "{}",
        refused.stderr
    );
    // The HTML report says whose verdicts it shows.
    let html = dir.path().join("report.html");
    report(
        dir.path(),
        &["--scoring", "original", "--html", path_str(&html)],
    );
    let page = std::fs::read_to_string(&html).expect("the report file");
    assert!(
        page.contains("Verdicts: original"),
        "the settings name the scorer"
    );
    // The report file holds the audit: rates three ways, the chart of causes, and the
    // diagonal's trial with the move both scorers read marked in its reply.
    for id in [
        "data-testid=\"audit\"",
        "data-testid=\"table-audit-rates\"",
        "data-testid=\"chart-audit-causes\"",
        "data-testid=\"audit-cause-diagonal_on_four_direction_shape\"",
        "data-testid=\"audit-cause-api_error_counted_as_failure\"",
    ] {
        assert!(page.contains(id), "{id} in the report file");
    }
    assert!(
        page.contains("I go to <mark class=\"read-both\">(1, 0)</mark>."),
        "the diagonal move both scorers read is marked"
    );
}

#[test]
fn the_maze_comes_from_experiment_mazes_when_the_folder_has_it() {
    let dir = TempDir::new("original-mazes");
    // The first prompt's maze did not make it into the file; the folder's maze file
    // holds it.
    let garbled = "(the maze was attached as a file)";
    let text = format!(
        "{}(0, 1)\n\nHere is the current state of the maze after your latest move:\n\n{MOVED}\n\nPlease provide the coordinates of your next move.\n(0, 2)\n\nSOLVE: SUCCESS\n{}",
        first_prompt(garbled),
        closing(&format!("A square:\n{NEW_SQUARE}"), "SUCCESS", "SUCCESS")
    );
    let rel = "matrix_claude_results/5x5/square/5x5_square_1.npy/0.txt";
    write(&dir.path().join(rel), text.as_bytes());
    let without = score(dir.path(), &["--format", "json"]).json();
    let t = trial(&without, "5x5_square_1.npy");
    assert_eq!(t["maze_from"], "prompt");
    assert!(
        t["strict"]["solve"].is_null(),
        "no maze, no strict verdict: {t}"
    );
    write_square_maze(dir.path());
    let with = score(dir.path(), &["--format", "json"]).json();
    let t = trial(&with, "5x5_square_1.npy");
    assert_eq!(t["maze_from"], "experiment_mazes");
    assert_eq!(t["strict"]["solve"], "success", "{t}");
    assert_eq!(t["original"]["solve"], "success", "{t}");
}

/// A run's folder laid out as the design has it: `human_results/{participant}/*.json` and,
/// when `with_mazes`, the maze in `experiment_mazes/` beside `human_results/`.
fn human_run(name: &str, with_mazes: bool) -> TempDir {
    let dir = TempDir::new(name);
    if with_mazes {
        write_square_maze(dir.path());
    }
    write(
        &dir.path()
            .join("human_results/p01/p01_5x5_square_1700000000.json"),
        human_file("p01", &["right"], true, "square").as_bytes(),
    );
    dir
}

#[test]
fn human_results_given_alone_take_their_mazes_from_the_folder_above() {
    let dir = human_run("human-results-alone", true);
    let humans = dir.path().join("human_results");
    let scored = score(&humans, &["--format", "json"]).json();
    assert_eq!(scored["skipped"], 0, "{scored}");
    assert_eq!(scored["transcripts"], 1, "{scored}");
    let t = trial(&scored, "1700000000");
    assert_eq!(t["model"], "human");
    assert_eq!(t["strict"]["solve"], "success", "{t}");
    assert_eq!(t["original"]["solve"], "success", "{t}");
    // report reads the folder the same way.
    let reported = report(&humans, &["--format", "json"]).json();
    assert_eq!(reported["audit"]["transcripts"], 1, "{reported}");
    assert_eq!(reported["audit"]["skipped"], 0, "{reported}");
}

#[test]
fn a_human_file_without_its_maze_says_which_folders_were_searched() {
    let dir = human_run("human-results-no-mazes", false);
    let humans = dir.path().join("human_results");
    let scored = score(&humans, &["--format", "json"]).json();
    assert_eq!(scored["transcripts"], 0, "{scored}");
    let why = scored["skipped_files"][0]["why"]
        .as_str()
        .unwrap_or_else(|| panic!("the file is listed as skipped: {scored}"));
    assert!(
        why.starts_with("human result file without its maze"),
        "{why}"
    );
    assert!(
        why.contains("experiment_mazes/5x5/square/5x5_square_1.npy"),
        "{why}"
    );
    let run = std::fs::canonicalize(dir.path()).expect("the folder is there");
    let searched = [run.join("human_results"), run.clone()]
        .map(|p| p.display().to_string())
        .join(", ");
    assert!(
        why.contains(&format!("not found in {searched}, ")),
        "the folder given, then the one above it, and so on: {why}"
    );
}
