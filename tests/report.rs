//! `shapemaze report` end to end: the built binary over export folders written by the
//! core's scripted player (transcripts, `trials.jsonl`) and over a results folder whose
//! transcripts hold only the three closing lines.
#![cfg(not(target_arch = "wasm32"))]

mod support;

use serde_json::Value;
use shapemaze::core::play::player::PlayerKind;
use shapemaze::core::results::record::{Placement, PlayerInfo, TrialRecord};
use shapemaze::core::verify::Outcome;
use support::run::{path_str, shapemaze};
use support::{write, write_export, TempDir, Written};

/// Successes per phase over the written trials, as the core's own trials judged them.
fn expected_successes(written: &Written) -> [usize; 3] {
    let mut out = [0; 3];
    for (_, t) in &written.trials {
        for (i, o) in t.outcomes().iter().enumerate() {
            if *o == Some(Outcome::Success) {
                out[i] += 1;
            }
        }
    }
    out
}

fn pooled_all(json: &Value) -> &Value {
    json["pooled"]
        .as_array()
        .and_then(|rows| {
            rows.iter()
                .find(|r| r["model"] == "all" && r["encoding"] == "all" && r["shape"] == "all")
        })
        .expect("a pooled row over everything")
}

#[test]
fn the_json_report_has_the_contract_fields_and_the_right_counts() {
    let dir = TempDir::new("report-json");
    let written = write_export(dir.path(), "qwen-plus", 5, 3, 2, 0);
    let run = shapemaze(&["report", path_str(dir.path()), "--format", "json"]);
    assert_eq!(run.code, 0, "report ran: {}", run.stderr);
    let json = run.json();
    let groups = json["groups"].as_array().expect("groups is a list");
    assert_eq!(groups.len(), 12, "one model x 2 encodings x 6 shapes");
    for g in groups {
        for field in ["model", "encoding", "shape", "trials"] {
            assert!(!g[field].is_null(), "group field {field}: {g}");
        }
        for phase in ["solve", "recognize", "generate"] {
            for field in ["successes", "rate", "ci_low", "ci_high"] {
                assert!(g[phase][field].is_number(), "{phase}.{field}: {g}");
            }
        }
        assert_eq!(
            g["model"], "qwen-plus",
            "the model comes from the folder name"
        );
        assert_eq!(g["trials"], 6, "3 mazes x 2 trials per group");
    }
    for key in ["H1", "H2", "H3", "H4"] {
        let h = &json["hypotheses"][key];
        let verdict = h["verdict"].as_str().expect("a verdict");
        assert!(
            ["supported", "not_supported", "insufficient"].contains(&verdict),
            "{key}: {verdict}"
        );
        for field in ["test", "statistic", "p", "n"] {
            assert!(h.get(field).is_some(), "{key} has {field}: {h}");
        }
    }
    let all = pooled_all(&json);
    let want = expected_successes(&written);
    for (i, phase) in ["solve", "recognize", "generate"].iter().enumerate() {
        assert_eq!(
            all[phase]["successes"].as_u64(),
            Some(want[i] as u64),
            "{phase} successes over all trials"
        );
    }
    assert_eq!(
        json["rescored"], 72,
        "every transcript re-scored from its replies"
    );
}

#[test]
fn the_text_report_shows_tables_and_every_verdict() {
    let dir = TempDir::new("report-text");
    write_export(dir.path(), "qwen", 5, 2, 1, 0);
    let run = shapemaze(&["report", path_str(dir.path())]);
    assert_eq!(run.code, 0, "report ran: {}", run.stderr);
    for needle in [
        "Hypotheses",
        "H1 Matrix encoding",
        "H2 ",
        "H3 ",
        "H4 ",
        "Model x encoding x shape",
        "qwen/matrix/all",
        "Shape effects",
        "Correlations between phases",
    ] {
        assert!(
            run.stdout.contains(needle),
            "text mentions {needle}:\n{}",
            run.stdout
        );
    }
    assert!(
        run.stdout.contains("Warning: "),
        "a small sample carries a warning:\n{}",
        run.stdout
    );
    assert!(
        !run.stdout.contains("Empty answers"),
        "no empty answers, no section:\n{}",
        run.stdout
    );
}

#[test]
fn the_csv_report_has_a_header_and_one_row_per_group() {
    let dir = TempDir::new("report-csv");
    write_export(dir.path(), "qwen", 5, 2, 1, 0);
    let run = shapemaze(&["report", path_str(dir.path()), "--format=csv"]);
    assert_eq!(run.code, 0, "report ran: {}", run.stderr);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert!(
        lines[0].starts_with("experiment,model,encoding,shape,trials"),
        "header: {}",
        lines[0]
    );
    let width = lines[0].split(',').count();
    assert!(
        lines.iter().all(|l| l.split(',').count() == width),
        "every row has {width} columns"
    );
    let groups = lines
        .iter()
        .filter(|l| l.contains(",qwen,") && !l.contains(",all"))
        .count();
    assert_eq!(
        groups, 12,
        "12 model x encoding x shape rows:\n{}",
        run.stdout
    );
}

#[test]
fn the_html_report_is_one_self_contained_file() {
    let dir = TempDir::new("report-html");
    write_export(dir.path(), "qwen", 5, 2, 1, 0);
    let out = dir.path().join("out/report.html");
    let run = shapemaze(&["report", path_str(dir.path()), "--html", path_str(&out)]);
    assert_eq!(run.code, 0, "report ran: {}", run.stderr);
    let html = std::fs::read_to_string(&out).expect("the report file was written");
    assert!(html.starts_with("<!DOCTYPE html>"), "an HTML document");
    for key in ["H1", "H2", "H3", "H4"] {
        assert!(
            html.contains(&format!("data-testid=\"hypothesis-{key}\" data-verdict=\"")),
            "{key} verdict in the file"
        );
    }
    assert!(html.matches("<svg").count() >= 5, "inline charts");
    assert!(!html.contains("<script"), "no script");
    assert!(!html.contains("src=\""), "nothing loaded from outside");
    assert!(html.contains("<details>"), "the data is inside");
    // The item matrix too, one row per maze instance and model (six shapes, two mazes each,
    // two encodings, one model), as items.csv has it.
    let items = html
        .split("data-testid=\"table-items\">")
        .nth(1)
        .and_then(|t| t.split("</pre>").next())
        .expect("the item matrix in the file");
    assert!(items.starts_with(
        "shape,size,seed,sample,encoding,model,trials,solve,recognize,generate,condition\n"
    ));
    assert_eq!(items.lines().count(), 1 + 6 * 2 * 2, "{items}");
    assert!(
        html.contains("<title>Shape confusion matrix"),
        "the confusion chart carries the design's name"
    );
    assert!(
        !html.contains("Recognition: true shape"),
        "not the old title"
    );
    assert!(
        run.stderr.contains("wrote the HTML report"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_results_folder_of_closing_lines_only_is_counted_from_those_lines() {
    let dir = TempDir::new("report-closing");
    // The design's own layout: {encoding}_qwen_results/5x5/{shape}/5x5_{shape}_{i}.npy/{k}.txt.
    let mut solved = 0;
    for enc in ["matrix", "coord_list"] {
        for shape in ["square", "spiral"] {
            for i in 0..6 {
                let ok = i % 3 != 0;
                solved += usize::from(ok);
                let text = format!(
                    "SOLVE: {}\nRECOGNIZE: SUCCESS\nGENERATE: FAIL\n",
                    if ok { "SUCCESS" } else { "FAIL" }
                );
                let rel = format!("{enc}_qwen_results/5x5/{shape}/5x5_{shape}_{i}.npy/0.txt");
                write(&dir.path().join(rel), text.as_bytes());
            }
        }
    }
    let run = shapemaze(&["report", path_str(dir.path()), "--format", "json"]);
    assert_eq!(run.code, 0, "report ran: {}", run.stderr);
    let json = run.json();
    assert_eq!(
        json["closing_lines_only"], 24,
        "every file counted from its lines"
    );
    assert_eq!(json["source"], "transcripts", "no trials.jsonl here");
    let all = pooled_all(&json);
    assert_eq!(
        all["solve"]["successes"], solved,
        "solve successes from the lines"
    );
    assert_eq!(all["generate"]["successes"], 0, "no generation succeeded");
    assert_eq!(
        json["groups"][0]["model"], "qwen",
        "the design's folder names the model qwen"
    );
    assert_eq!(
        json["hypotheses"]["H1"]["n"], 12,
        "matrix and coordinate-list trials of the same maze pair up"
    );
}

/// The JSON report on `dir` with `--filter FILTER`.
fn filtered_json(dir: &std::path::Path, filter: &str) -> Value {
    let run = shapemaze(&[
        "report",
        path_str(dir),
        "--format",
        "json",
        "--filter",
        filter,
    ]);
    assert_eq!(run.code, 0, "{filter}: {}", run.stderr);
    run.json()
}

/// Runs `report DIR ARGS --html DIR/report.html` and returns the report file.
fn report_file(dir: &std::path::Path, args: &[&str]) -> String {
    let file = dir.join("report.html");
    let mut all = vec!["report", path_str(dir)];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--html", path_str(&file)]);
    let run = shapemaze(&all);
    assert_eq!(run.code, 0, "{}", run.stderr);
    std::fs::read_to_string(&file).expect("the report file")
}

/// The written trials as `trials.jsonl` lines: records of the scripted player under the
/// model `qwen-max`.
fn record_lines(written: &Written) -> Vec<String> {
    written
        .trials
        .iter()
        .enumerate()
        .map(|(i, (_, t))| {
            TrialRecord::of(
                t,
                PlayerInfo {
                    kind: PlayerKind::Scripted,
                    model: "qwen-max".into(),
                    endpoint: None,
                    system_prompt: None,
                },
                Placement {
                    seed: 0,
                    sample: i / 2,
                    repeat: 0,
                },
                None,
                None,
            )
            .to_json()
            .expect("written")
        })
        .collect()
}

#[test]
fn trials_jsonl_gives_moves_the_confusion_matrix_and_generation_checks() {
    let dir = TempDir::new("report-jsonl");
    let written = write_export(&dir.path().join("scratch"), "oracle", 5, 2, 1, 0);
    let lines = record_lines(&written);
    write(
        &dir.path().join("trials.jsonl"),
        format!("{}\nnot json\n", lines.join("\n")).as_bytes(),
    );
    let run = shapemaze(&["report", path_str(dir.path()), "--format", "json"]);
    assert_eq!(run.code, 0, "report ran: {}", run.stderr);
    let json = run.json();
    assert_eq!(json["source"], "trials.jsonl", "the records are read first");
    assert_eq!(json["trials"], 24, "every record counted");
    assert_eq!(
        json["skipped"][0]["file"], "trials.jsonl:25",
        "the bad line is named"
    );
    let confusion = &json["confusion"][0];
    let total: u64 = confusion["counts"]
        .as_array()
        .expect("counts")
        .iter()
        .flat_map(|r| r.as_array().expect("a row").iter())
        .filter_map(Value::as_u64)
        .sum();
    assert_eq!(total, 24, "every recognition is in the confusion matrix");
    let detail = json["details"]
        .as_array()
        .and_then(|d| {
            d.iter()
                .find(|d| d["model"] == "all" && d["shape"] == "all")
        })
        .expect("a pooled detail row");
    assert_eq!(detail["detailed"], 24, "moves known for every record");
    // Every record's path is walked for revisits, loops and the first error.
    let errors = &detail["first_errors"];
    assert_eq!(errors["traced"], 24, "{detail}");
    let placed: u64 = ["junction", "dead_end", "corridor"]
        .iter()
        .filter_map(|k| errors[k].as_u64())
        .sum();
    assert!(placed <= 24, "at most one first error per solve: {errors}");
    assert_eq!(detail["looping"]["n"], 24, "{detail}");
    assert_eq!(detail["revisits"]["n"], 24, "{detail}");
    assert!(
        detail["generation"]["all_four"]["n"].as_u64().unwrap_or(0) > 0,
        "generation checks counted: {detail}"
    );
    // The text report calls the matrix by the design's name.
    let text = shapemaze(&["report", path_str(dir.path())]);
    assert_eq!(text.code, 0, "report ran: {}", text.stderr);
    assert!(
        text.stdout
            .contains("Shape confusion matrix (rows: true shape; columns: shape named)"),
        "{}",
        text.stdout
    );
}

#[test]
fn empty_answers_the_token_limit_ended_are_judged_and_counted_apart_by_model() {
    use shapemaze::core::maze::encoding::Encoding;
    use shapemaze::core::maze::generate::generate_one;
    use shapemaze::core::maze::shape::Shape;
    use shapemaze::core::maze::templates::TemplateLibrary;
    use shapemaze::core::model::reply::{EndpointInfo, ReplyMeta};
    use shapemaze::core::play::trial::{Trial, TrialSetup};
    use std::sync::Arc;

    let dir = TempDir::new("report-empty-answers");
    let library = Arc::new(TemplateLibrary::new(5));
    let endpoint = |model: &str| EndpointInfo {
        preset: "custom".into(),
        base_url: "http://127.0.0.1:9/v1".into(),
        model: model.into(),
        temperature: 0.7,
        top_p: 0.9,
        max_tokens: 64,
        seed: None,
        stream: true,
        logprobs: false,
        thinking: false,
        effort: None,
        extra: String::new(),
        price: None,
    };
    let mut lines = Vec::new();
    // "thinker" spends its token limit on reasoning in its first trial's solve phase;
    // "plain" answers every time.
    for (model, sample) in [("thinker", 0), ("thinker", 1), ("plain", 0), ("plain", 1)] {
        let maze = generate_one(Shape::Square, sample, 0, &library).expect("a maze");
        let setup = TrialSetup::new(Shape::Square, Encoding::Matrix, maze);
        let mut trial = Trial::new(setup, library.clone());
        if model == "thinker" && sample == 0 {
            let meta = ReplyMeta {
                finish_reason: Some("length".into()),
                reasoning: Some("First the walls: (0, 0), (0, 1)".into()),
                streamed: Some(true),
                ..ReplyMeta::default()
            };
            trial.respond("", Some(meta));
        } else {
            trial.respond("Move: (9, 9)", None);
        }
        trial.respond("It is a square.", None);
        trial.respond("0 0", None);
        let record = TrialRecord::of(
            &trial,
            PlayerInfo {
                kind: PlayerKind::Endpoint,
                model: model.into(),
                endpoint: Some(endpoint(model)),
                system_prompt: None,
            },
            Placement {
                seed: 0,
                sample,
                repeat: 0,
            },
            None,
            None,
        );
        lines.push(record.to_json().expect("written"));
    }
    write(
        &dir.path().join("trials.jsonl"),
        (lines.join("\n") + "\n").as_bytes(),
    );
    let run = shapemaze(&["report", path_str(dir.path()), "--format", "json"]);
    assert_eq!(run.code, 0, "report ran: {}", run.stderr);
    let json = run.json();
    let rows = json["empty_answers"].as_array().expect("empty_answers");
    let row = |m: &str| {
        rows.iter()
            .find(|r| r["model"] == m)
            .unwrap_or_else(|| panic!("a row for {m}: {rows:?}"))
    };
    assert_eq!(
        row("all"),
        &serde_json::json!({"model": "all", "trials": 4, "length_in_reasoning": 1, "length": 0, "no_text": 0})
    );
    assert_eq!(row("thinker")["length_in_reasoning"], 1);
    assert_eq!(row("plain")["length_in_reasoning"], 0);
    assert_eq!(json["api_errors"], 0, "an empty answer is no API error");
    let all = pooled_all(&json);
    assert_eq!(
        all["solve"]["n"], 4,
        "the empty answer is judged: in the solve rate's denominator"
    );
    let text = shapemaze(&["report", path_str(dir.path())]);
    assert_eq!(text.code, 0, "report ran: {}", text.stderr);
    let section = text
        .stdout
        .split("Empty answers")
        .nth(1)
        .unwrap_or_else(|| panic!("an empty answers section:\n{}", text.stdout));
    let thinker = section
        .lines()
        .find(|l| l.starts_with("thinker"))
        .expect("a thinker row");
    assert!(
        thinker.contains("1 of 2 trials") && section.contains("token limit spent on reasoning"),
        "{section}"
    );
    let html = report_file(dir.path(), &[]);
    assert!(html.contains("data-testid=\"table-empty-answers\""));
}

#[test]
fn bad_arguments_and_unreadable_folders_exit_with_2() {
    let dir = TempDir::new("report-bad");
    shapemaze(&["report"]).assert_usage_error("needs a folder", "no folder");
    shapemaze(&["report", path_str(&dir.path().join("missing"))])
        .assert_input_error("cannot read", "a missing folder");
    shapemaze(&["report", path_str(dir.path()), "--format", "xml"])
        .assert_usage_error("unknown format", "a bad format");
    shapemaze(&["report", path_str(dir.path()), "--order", "solo"])
        .assert_usage_error("--order", "one model is no order");
    let help = shapemaze(&["report", "--help"]);
    assert_eq!(help.code, 0, "help exits 0");
    assert!(help.stdout.contains("Example:"), "help has an example");
    let top = shapemaze(&["--help"]);
    assert!(top.stdout.contains("report"), "the top help lists report");
}

#[test]
fn an_empty_folder_reports_insufficient_data_without_failing() {
    let dir = TempDir::new("report-empty");
    let run = shapemaze(&["report", path_str(dir.path()), "--format", "json"]);
    assert_eq!(run.code, 0, "an empty folder still runs: {}", run.stderr);
    let json = run.json();
    assert_eq!(json["trials"], 0, "no trials");
    assert_eq!(
        json["hypotheses"]["H1"]["verdict"], "insufficient",
        "nothing to test"
    );
}

#[test]
fn a_filter_analyses_only_the_trials_it_matches() {
    let dir = TempDir::new("report-filter");
    let written = write_export(&dir.path().join("scratch"), "oracle", 5, 4, 1, 0);
    write(
        &dir.path().join("trials.jsonl"),
        (record_lines(&written).join("\n") + "\n").as_bytes(),
    );
    let total = written.trials.len();
    assert_eq!(total, 48);
    let counted = |filter: &str| -> (u64, u64) {
        let json = filtered_json(dir.path(), filter);
        assert_eq!(json["filter"]["text"], filter);
        assert_eq!(
            json["filter"]["trials"], total,
            "{filter}: every trial read"
        );
        assert_eq!(
            json["filter"]["matched"], json["trials"],
            "{filter}: the analysis counts the matching trials"
        );
        let trials = json["trials"].as_u64().expect("trials");
        // No trial, no pooled row.
        let solved = if trials == 0 {
            0
        } else {
            pooled_all(&json)["solve"]["successes"]
                .as_u64()
                .expect("successes")
        };
        (trials, solved)
    };
    let spirals = written
        .trials
        .iter()
        .filter(|(_, t)| t.setup().shape.name() == "spiral")
        .count() as u64;
    assert_eq!(spirals, 8, "4 mazes x 2 encodings");
    assert_eq!(counted("shape:spiral").0, spirals);
    assert_eq!(counted("-shape:spiral").0, total as u64 - spirals);
    // The solve outcome: the filtered analysis holds only failures, or only successes.
    let solved = expected_successes(&written)[0] as u64;
    assert_eq!(counted("solve:success"), (solved, solved));
    assert_eq!(counted("solve:fail"), (total as u64 - solved, 0));
    // A phrase of a reply: the scripted behaviour that cannot find its way.
    let unsure = written
        .trials
        .iter()
        .filter(|(_, t)| {
            t.transcript()
                .is_some_and(|x| x.contains("not sure which way"))
        })
        .count() as u64;
    assert!(unsure > 0 && unsure < total as u64);
    assert_eq!(counted("reply:\"NOT SURE which way\"").0, unsure);
    assert_eq!(counted("\"not sure which way\" solve:fail").0, unsure);
    assert_eq!(counted("\"not sure which way\" solve:success").0, 0);
    // The text says the filter and the counts first.
    let text = shapemaze(&["report", path_str(dir.path()), "--filter", "shape:spiral"]);
    assert_eq!(text.code, 0, "{}", text.stderr);
    assert_eq!(
        text.stdout.lines().next(),
        Some("Filter: shape:spiral — 8 of 48 trials")
    );
    // The report file says it in its settings.
    let html = report_file(dir.path(), &["--filter", "shape:spiral"]);
    assert!(html.contains("Filter: shape:spiral — 8 of 48 trials"));
}

#[test]
fn a_filter_on_transcripts_uses_their_fields_and_refuses_words() {
    let dir = TempDir::new("report-filter-transcripts");
    write_export(dir.path(), "qwen", 5, 2, 1, 0);
    let json = filtered_json(dir.path(), "encoding:matrix -shape:square model:QWEN");
    assert_eq!(json["source"], "transcripts");
    assert_eq!(json["filter"]["trials"], 24);
    assert_eq!(
        json["filter"]["matched"], 10,
        "5 shapes x 2 mazes in the matrix"
    );
    assert_eq!(json["trials"], 10);
    shapemaze(&[
        "report",
        path_str(dir.path()),
        "--filter",
        "shape:spiral wall",
    ])
    .assert_usage_error(
        "search the messages of trial records",
        "no records to search",
    );
}

#[test]
fn a_bad_filter_is_a_usage_error_with_the_parsers_message() {
    let dir = TempDir::new("report-filter-bad");
    write_export(dir.path(), "qwen", 5, 1, 1, 0);
    let report = |filter: &str| shapemaze(&["report", path_str(dir.path()), "--filter", filter]);
    report("shape:oval").assert_usage_error("unknown shape 'oval'", "a shape no maze has");
    report("colour:red").assert_usage_error("unknown field 'colour'", "a field no trial has");
    report("solve:maybe").assert_usage_error("success, fail, error", "an outcome no phase has");
    report("shape:spiral \"wall").assert_usage_error("not closed", "an unclosed quote");
    report("moves>x").assert_usage_error("whole number", "a comparison with no number");
}

#[test]
fn each_rate_carries_its_reading_bounds_in_json_text_and_csv() {
    use shapemaze::core::results::bounds;
    let dir = TempDir::new("report-bounds");
    // Three mazes a shape: the scripted variants 0 to 2, which solve plainly, solve in prose
    // among other coordinates (read unsure), and hit a wall.
    let written = write_export(&dir.path().join("scratch"), "oracle", 5, 3, 1, 0);
    let lines = record_lines(&written);
    write(
        &dir.path().join("trials.jsonl"),
        lines.join("\n").as_bytes(),
    );
    // What each trial's readings give (the report re-scores the records, which were made
    // by today's readers, so their verdicts stand): the bounds the pooled row must carry.
    let (mut n, mut successes, mut unsure, mut low, mut high) = (0, 0, 0, 0, 0);
    for line in &lines {
        let r = TrialRecord::from_json(line).expect("a record");
        let scored = match r.verdicts.solve.as_ref().map(|v| v.outcome) {
            Some(Outcome::Success) => Some(true),
            Some(Outcome::Fail) => Some(false),
            _ => None,
        };
        let d = bounds::of_record(&r)[0];
        if let Some([wrong, right]) = d.bounds(scored) {
            n += 1;
            successes += usize::from(scored == Some(true));
            unsure += usize::from(d.unsure);
            low += usize::from(wrong);
            high += usize::from(right);
        }
    }
    assert!(
        unsure > 0 && low < successes,
        "the prose solves are read unsure: {unsure} unsure, {low} <= {successes} <= {high} of {n}"
    );
    let json = shapemaze(&["report", path_str(dir.path()), "--format", "json"]).json();
    let all = pooled_all(&json);
    assert_eq!(all["solve"]["successes"].as_u64(), Some(successes as u64));
    assert_eq!(all["solve_unsure"].as_u64(), Some(unsure as u64), "{all}");
    let near = |key: &str, want: usize| {
        let got = all[key].as_f64().unwrap_or(-1.0);
        assert!(
            (got - want as f64 / n as f64).abs() < 1e-9,
            "{key}: {got} against {want}/{n}"
        );
    };
    near("solve_if_unsure_wrong", low);
    near("solve_if_unsure_right", high);
    near(
        "recognize_if_unsure_wrong",
        all["recognize"]["successes"].as_u64().unwrap_or(0) as usize,
    );
    assert_eq!(
        all["recognize_unsure"], 0,
        "no doubt, the bounds are the rate"
    );

    let text = shapemaze(&["report", path_str(dir.path())]).stdout;
    let shown = format!(
        "{unsure} unsure: {:.1}-{:.1}%",
        100.0 * low as f64 / n as f64,
        100.0 * high as f64 / n as f64
    );
    assert!(text.contains(&shown), "{shown} in:\n{text}");
    assert!(
        text.contains("the rate would be L% if every unsure reading were wrong"),
        "the note says what the bounds are"
    );

    let csv = shapemaze(&[
        "report",
        path_str(dir.path()),
        "--format",
        "csv",
        "--table",
        "pooled",
    ])
    .stdout;
    let mut rows = csv.lines();
    let header: Vec<&str> = rows.next().expect("a header").split(',').collect();
    for key in [
        "solve_unsure",
        "solve_if_unsure_wrong",
        "solve_if_unsure_right",
        "generate_if_unsure_right",
    ] {
        let at = header
            .iter()
            .position(|h| *h == key)
            .unwrap_or_else(|| panic!("{key} in {header:?}"));
        for row in rows.clone() {
            let field = row.split(',').nth(at).expect("a field");
            assert!(field.parse::<f64>().is_ok(), "{key} is a number: {field:?}");
        }
    }
}
