//! `shapemaze score --second-reader FILE` against the fake endpoint: every reply put to a
//! judge model with the fixed prompt, its answers kept in the folder (a rerun makes no
//! call), a rate limit retried, the key sent and never written, and Cohen's kappa per
//! phase in the report (none where a reader gave one value to every reply).
#![cfg(not(target_arch = "wasm32"))]

mod support;

use serde_json::{json, Value};
use std::sync::atomic::Ordering;
use std::time::Duration;
use support::endpoint::FakeEndpoint;
use support::run::{path_str, shapemaze_env};
use support::{write, write_export, TempDir};

/// The judge answers every question alike: the move (0, 0), the spiral, no maze.
const JUDGE: &str = r#"{"move": [0, 0], "shape": "spiral", "maze": null}"#;

#[test]
fn a_second_reader_reads_every_reply_once_and_its_kappa_is_reported() {
    let endpoint = FakeEndpoint::start(Duration::ZERO, 1, JUDGE);
    let dir = TempDir::new("second-reader");
    write_export(dir.path(), "qwen", 5, 1, 1, 3);
    let settings_dir = TempDir::new("second-reader-settings");
    let settings = settings_dir.path().join("judge.json");
    let spec = json!({"kind": "endpoint", "preset": "custom", "base_url": endpoint.url,
                      "model": "judge-1", "key_env": "SHAPEMAZE_TEST_JUDGE_KEY",
                      "max_attempts": 3, "stream": false});
    write(&settings, spec.to_string().as_bytes());
    let env = [("SHAPEMAZE_TEST_JUDGE_KEY", "sk-judge-secret")];
    let args = [
        "score",
        path_str(dir.path()),
        "--format",
        "json",
        "--second-reader",
        path_str(&settings),
    ];
    let run = shapemaze_env(&args, &env, Duration::from_secs(120));
    assert_eq!(run.code, 0, "{}", run.stderr);
    let report: Value = serde_json::from_str(&run.stdout).expect("JSON");
    let second = &report["second_reader"];
    assert_eq!(second["model"], "judge-1");
    assert_eq!(second["prompt_version"], 2);
    let calls = second["calls"].as_u64().expect("calls");
    assert!(calls >= 12 * 3, "every reply of 12 transcripts: {calls}");
    assert_eq!(second["kept"], 0);
    assert_eq!(second["errors"], json!([]), "the 429 was retried");
    assert_eq!(
        endpoint.requests.load(Ordering::SeqCst) as u64,
        calls + 1,
        "one call a reply, and the one refused"
    );
    assert!(
        run.stderr.contains("replies to read"),
        "the estimate: {}",
        run.stderr
    );
    let phases = second["phases"].as_array().expect("phases");
    let names: Vec<&str> = phases.iter().filter_map(|p| p["phase"].as_str()).collect();
    assert_eq!(names, ["solve", "recognize", "generate"]);
    let recognize = &phases[1];
    // Two of the twelve trials are spirals (one maze per shape, two encodings): the oracle
    // named each shape rightly, so the readers agree on those two alone.
    assert_eq!(
        (recognize["n"].as_u64(), recognize["agree"].as_u64()),
        (Some(12), Some(2))
    );
    // The judge named the spiral every time: kappa is 0 by construction, so none is given.
    assert!(recognize["kappa"].is_null(), "{recognize}");
    assert_eq!(recognize["second_answered"], 12);
    let generate = &phases[2];
    assert_eq!(
        (&generate["kappa"], &generate["second_answered"]),
        (&Value::Null, &json!(0))
    );
    assert!(
        second["disagreements"]
            .as_array()
            .is_some_and(|d| !d.is_empty()),
        "the moves read (0, 0) by the judge differ"
    );
    // The key went to the endpoint and nowhere into the folder.
    assert!(endpoint
        .authorizations
        .lock()
        .expect("lock")
        .contains("Bearer sk-judge-secret"));
    let kept = std::fs::read_to_string(dir.path().join("second-reader.jsonl")).expect("kept");
    assert_eq!(kept.lines().count() as u64, calls);
    assert!(!kept.contains("sk-judge"));
    // A rerun reads the kept answers and calls nobody.
    let again = shapemaze_env(&args, &env, Duration::from_secs(60));
    assert_eq!(again.code, 0, "{}", again.stderr);
    let report: Value = serde_json::from_str(&again.stdout).expect("JSON");
    assert_eq!(report["second_reader"]["calls"], 0);
    assert_eq!(report["second_reader"]["kept"].as_u64(), Some(calls));
    assert_eq!(endpoint.requests.load(Ordering::SeqCst) as u64, calls + 1);
    assert_eq!(report["second_reader"]["phases"], second["phases"]);
    // The text report says it in words.
    let text_args = [
        "score",
        path_str(dir.path()),
        "--second-reader",
        path_str(&settings),
    ];
    let text = shapemaze_env(&text_args, &env, Duration::from_secs(60));
    assert!(
        text.stdout
            .contains("Second reader judge-1 (prompt version 2)"),
        "{}",
        text.stdout
    );
    for wanted in [
        "In recognize: the readers agree on 2 of 12 replies (16.7%), no kappa: a reader gave one value to every reply",
        "no kappa: the second reader gave no answer for any of them",
    ] {
        assert!(text.stdout.contains(wanted), "{wanted}:\n{}", text.stdout);
    }
    assert!(!text.stdout.contains("(0.000 to 0.000)"), "{}", text.stdout);
}

#[test]
fn a_second_reader_without_its_key_or_settings_says_what_to_do() {
    let dir = TempDir::new("second-reader-bad");
    write_export(dir.path(), "qwen", 5, 1, 1, 3);
    let settings = dir.path().join("judge.json");
    write(
        &settings,
        br#"{"kind": "endpoint", "preset": "custom", "base_url": "http://127.0.0.1:9/v1", "model": "m", "key_env": "SHAPEMAZE_TEST_NO_SUCH_KEY"}"#,
    );
    let run = shapemaze_env(
        &[
            "score",
            path_str(dir.path()),
            "--second-reader",
            path_str(&settings),
        ],
        &[],
        Duration::from_secs(30),
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains("SHAPEMAZE_TEST_NO_SUCH_KEY"),
        "{}",
        run.stderr
    );
    let bad = dir.path().join("bad.json");
    write(&bad, b"[1, 2]");
    let run = shapemaze_env(
        &[
            "score",
            path_str(dir.path()),
            "--second-reader",
            path_str(&bad),
        ],
        &[],
        Duration::from_secs(30),
    );
    assert_eq!(run.code, 4, "{}", run.stderr);
    assert!(
        run.stderr.contains("not a player's settings"),
        "{}",
        run.stderr
    );
}
