//! The lenient protocol (issue 20): invalid moves answered with why and tried again, up to
//! a design's allowance, played by the built-in players through `shapemaze run` and scored
//! again from the transcripts alone.
#![cfg(not(target_arch = "wasm32"))]

mod support;

use serde_json::Value;
use support::run::{assert_all_replayed, path_str, shapemaze};
use support::TempDir;

fn run(dir: &std::path::Path, design: &Value) -> support::run::Run {
    let path = dir.join("design.json");
    std::fs::write(&path, design.to_string()).expect("write");
    shapemaze(&["run", path_str(&path), "--out", path_str(&dir.join("out"))])
}

#[test]
fn the_random_walker_is_forgiven_its_invalid_moves_and_the_transcripts_score_the_same() {
    let tmp = TempDir::new("lenient-run");
    let design = serde_json::json!({
        "players": [{"kind": "random"}, {"kind": "oracle"}],
        "encodings": ["matrix", "coord_list"], "shapes": ["square", "cross", "spiral", "Z"],
        "size": 5, "samples_per_shape": 4, "seed": 11, "lenient": 3
    });
    let r = run(tmp.path(), &design);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let out = tmp.path().join("out");
    let records: Vec<Value> = std::fs::read_to_string(out.join("trials.jsonl"))
        .expect("trials.jsonl")
        .lines()
        .map(|l| serde_json::from_str(l).expect("a record"))
        .collect();
    assert_eq!(records.len(), 64);
    let forgiven: Vec<&Value> = records
        .iter()
        .filter(|r| r["retried_moves"].as_u64().unwrap_or(0) > 0)
        .collect();
    assert!(!forgiven.is_empty(), "the random walker made invalid moves");
    for r in &records {
        assert_eq!(r["lenient"], 3, "every record keeps the allowance");
        let retried = r["retried_moves"].as_u64().unwrap_or(0);
        assert!(retried <= 3, "{r}");
        let answers = r["messages"]
            .as_array()
            .expect("messages")
            .iter()
            .filter(|m| {
                m["content"]
                    .as_str()
                    .is_some_and(|c| c.starts_with("Invalid move, try again:"))
            })
            .count() as u64;
        assert_eq!(answers, retried, "one answer per forgiven move: {r}");
        if r["model"] == "oracle" {
            assert_eq!(retried, 0);
        }
    }
    // Scored again from the transcripts (the solve prompt announces the allowance).
    assert_all_replayed(&out, 64);
    // The report counts the forgiven moves of each group.
    let report = shapemaze(&["report", path_str(&out), "--format", "json"]).json();
    let pooled = report["details"]
        .as_array()
        .and_then(|d| {
            d.iter()
                .find(|d| d["model"] == "random" && d["encoding"] == "all" && d["shape"] == "all")
        })
        .expect("the random walker's pooled row")
        .clone();
    let total: u64 = forgiven
        .iter()
        .filter(|r| r["model"] == "random")
        .map(|r| r["retried_moves"].as_u64().unwrap_or(0))
        .sum();
    assert_eq!(pooled["retried_moves"], total, "{pooled}");
    let text = shapemaze(&["report", path_str(&out)]).stdout;
    assert!(text.contains("invalid moves forgiven (lenient)"), "{text}");
    let csv = std::fs::read_to_string(out.join("trials.csv")).expect("trials.csv");
    let head: Vec<&str> = csv.lines().next().expect("a header").split(',').collect();
    let at = |name: &str| head.iter().position(|c| *c == name).expect(name);
    assert_eq!(at("retried_moves"), at("lenient") + 1, "{head:?}");
}

#[test]
fn a_lenient_design_that_cannot_forgive_says_what_to_change() {
    let tmp = TempDir::new("lenient-bad");
    for (extra, says) in [
        (
            serde_json::json!({"protocol": "single_shot"}),
            "choose the stepwise or combined protocol",
        ),
        (
            serde_json::json!({"move_limit": 4, "lenient": 5}),
            "is more than the move limit (4)",
        ),
    ] {
        let mut design = serde_json::json!({
            "players": [{"kind": "oracle"}], "encodings": ["matrix"], "shapes": ["square"],
            "samples_per_shape": 1, "lenient": 2
        });
        for (k, v) in extra.as_object().expect("an object") {
            design[k] = v.clone();
        }
        let r = run(tmp.path(), &design);
        assert!(r.code != 0 && r.stderr.contains(says), "{}", r.stderr);
    }
}
