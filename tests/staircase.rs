//! The staircase protocol (issue 20): adaptive difficulty over a design's sizes and shapes,
//! run by `shapemaze run` with the built-in players, resumed where it stopped, and read
//! back by `shapemaze report`.
#![cfg(not(target_arch = "wasm32"))]

mod support;

use serde_json::Value;
use support::run::{path_str, shapemaze};
use support::TempDir;

fn design() -> Value {
    serde_json::json!({
        "players": [{"kind": "oracle"}, {"kind": "random"}],
        "encodings": ["matrix", "coord_list"], "shapes": ["square", "cross", "Z"],
        "sizes": [5, 7], "samples_per_shape": 4, "seed": 3,
        "staircase": {"trials": 10, "start": 1}
    })
}

fn records(out: &std::path::Path) -> Vec<Value> {
    std::fs::read_to_string(out.join("trials.jsonl"))
        .expect("trials.jsonl")
        .lines()
        .map(|l| serde_json::from_str(l).expect("a record"))
        .collect()
}

/// Each walk's (step, level, size, shape, sample, repeat), sorted.
type Steps = Vec<(u64, u64, u64, String, u64, u64)>;

fn walks(records: &[Value]) -> Vec<(String, Steps)> {
    let mut out: Vec<(String, Steps)> = Vec::new();
    for r in records {
        let name = format!(
            "{}/{}",
            r["model"].as_str().expect("a field"),
            r["encoding"].as_str().expect("a field")
        );
        let row = (
            r["staircase"]["step"].as_u64().expect("a step"),
            r["staircase"]["level"].as_u64().expect("a level"),
            r["size"].as_u64().expect("a field"),
            r["shape"].as_str().expect("a field").to_string(),
            r["sample"].as_u64().expect("a field"),
            r["repeat"].as_u64().expect("a field"),
        );
        match out.iter_mut().find(|(n, _)| *n == name) {
            Some((_, v)) => v.push(row),
            None => out.push((name, vec![row])),
        }
    }
    for (_, v) in &mut out {
        v.sort();
    }
    out.sort();
    out
}

#[test]
fn a_staircase_run_walks_each_player_and_resumes_where_it_stopped() {
    let tmp = TempDir::new("staircase-run");
    let path = tmp.path().join("design.json");
    std::fs::write(&path, design().to_string()).expect("write");
    let out = tmp.path().join("out");
    let r = shapemaze(&["run", path_str(&path), "--out", path_str(&out)]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(
        r.json()["trials"],
        40,
        "two players, two encodings, ten trials each"
    );
    let whole = records(&out);
    assert_eq!(whole.len(), 40);
    let walked = walks(&whole);
    assert_eq!(walked.len(), 4);
    let ladder = [
        (5, "square"),
        (5, "cross"),
        (5, "Z"),
        (7, "square"),
        (7, "cross"),
        (7, "Z"),
    ];
    for (name, steps) in &walked {
        let order: Vec<u64> = steps.iter().map(|s| s.0).collect();
        assert_eq!(order, (0..10).collect::<Vec<u64>>(), "{name}");
        for s in steps {
            assert_eq!(
                (s.2, s.3.as_str()),
                ladder[s.1 as usize],
                "{name}: level {}",
                s.1
            );
        }
        if name.starts_with("oracle") {
            let levels: Vec<u64> = steps.iter().map(|s| s.1).collect();
            assert_eq!(levels, vec![1, 1, 2, 2, 3, 3, 4, 4, 5, 5], "{name}");
        }
    }
    // The CSV has each trial's step and level.
    let csv = std::fs::read_to_string(out.join("trials.csv")).expect("trials.csv");
    let head: Vec<&str> = csv.lines().next().expect("a header").split(',').collect();
    assert!(
        head.contains(&"step") && head.contains(&"level"),
        "{head:?}"
    );

    // Stop after each walk's fourth trial (as a killed run would), and run again.
    let kept: Vec<String> = std::fs::read_to_string(out.join("trials.jsonl"))
        .expect("read")
        .lines()
        .filter(|l| {
            let v: Value = serde_json::from_str(l).expect("a record");
            v["staircase"]["step"].as_u64().expect("a field") < 4
        })
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(kept.len(), 16);
    let again = tmp.path().join("again");
    std::fs::create_dir_all(&again).expect("mkdir");
    std::fs::write(again.join("trials.jsonl"), kept.concat()).expect("write");
    let r = shapemaze(&["run", path_str(&path), "--out", path_str(&again)]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let resumed = records(&again);
    assert_eq!(resumed.len(), 40);
    assert_eq!(
        walks(&resumed),
        walked,
        "the same walks as the run without a stop"
    );

    // A staircase does not rerun API errors.
    shapemaze(&[
        "run",
        path_str(&path),
        "--out",
        path_str(&again),
        "--retry-errors",
    ])
    .assert_usage_error(
        "does not rerun its API errors",
        "--retry-errors on a staircase",
    );

    // The report reads the walks back.
    let report = shapemaze(&["report", path_str(&out), "--format", "json"]).json();
    let rows = report["staircase"].as_array().expect("staircase rows");
    assert_eq!(rows.len(), 4);
    let oracle = rows
        .iter()
        .find(|r| r["model"] == "oracle" && r["encoding"] == "matrix")
        .expect("the oracle's matrix walk");
    assert_eq!(oracle["trials"], 10);
    assert_eq!(oracle["solved"], 10);
    assert_eq!(oracle["reversals"], serde_json::json!([]), "it only climbs");
    assert_eq!(oracle["threshold"], Value::Null, "and never settles");
    let text = shapemaze(&["report", path_str(&out)]).stdout;
    assert!(text.contains("Staircase walks"), "{text}");
    assert!(text.contains("oracle/matrix"), "{text}");
}

#[test]
fn a_staircase_design_that_cannot_walk_is_refused_with_what_to_change() {
    let tmp = TempDir::new("staircase-refused");
    let mut d = design();
    d["shapes"] = serde_json::json!(["square"]);
    d["sizes"] = serde_json::json!([5]);
    d["staircase"] = serde_json::json!({"trials": 1, "start": 0});
    d["repeats"] = serde_json::json!(2);
    let path = tmp.path().join("design.json");
    std::fs::write(&path, d.to_string()).expect("write");
    let r = shapemaze(&[
        "run",
        path_str(&path),
        "--out",
        path_str(&tmp.path().join("o")),
    ]);
    assert_ne!(r.code, 0);
    for needle in ["at least 2", "two levels", "set repeats to 1"] {
        assert!(r.stderr.contains(needle), "{needle}: {}", r.stderr);
    }
}
