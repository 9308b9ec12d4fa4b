//! `shapemaze run` and `shapemaze merge` end to end, through the built binary: oracle and
//! random designs, resuming from a half-written folder, shards merged, and an endpoint
//! player against a tiny fake OpenAI server on a loopback port (with a 429 and
//! `Retry-After`). Every run of the binary is bounded by a deadline.
#![allow(clippy::disallowed_methods)] // native only: clocks and threads (clippy.toml)
#![cfg(not(target_arch = "wasm32"))]

mod support;

use serde_json::Value;
use shapemaze_core::results::record::VERIFIER_VERSION;
use std::collections::{BTreeMap, BTreeSet};
use std::net::TcpListener;
use std::path::Path;
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};
use support::endpoint::{endpoint_design, FakeEndpoint};
use support::run::{command, path_str, shapemaze, shapemaze_env, Run};
use support::TempDir;

fn run_ok(args: &[&str]) -> Value {
    let r = shapemaze_env(args, &[], Duration::from_secs(120));
    assert_eq!(r.code, 0, "shapemaze {args:?}: {}", r.stderr);
    r.json()
}

fn write_design(dir: &Path, design: &Value) -> String {
    static COUNTER: AtomicUsize = AtomicUsize::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let path = dir.join(format!("design-{n}.json"));
    std::fs::write(&path, serde_json::to_string_pretty(design).expect("json")).expect("write");
    path_str(&path).to_string()
}

fn oracle_design() -> Value {
    serde_json::json!({
        "players": [{"kind": "oracle"}, {"kind": "random"}],
        "encodings": ["matrix", "coord_list"],
        "shapes": ["square", "spiral"],
        "size": 5,
        "samples_per_shape": 2,
        "seed": 4
    })
}

/// Runs `design` (written to `dir`) into `dir/out` with the test key in the environment;
/// the run, the output folder and the design's path.
fn run_with_key(dir: &Path, design: &Value) -> (Run, std::path::PathBuf, String) {
    let path = write_design(dir, design);
    let out = dir.join("out");
    let key = [("SHAPEMAZE_TEST_RUN_KEY", SECRET)];
    let r = shapemaze_env(
        &["run", &path, "--out", path_str(&out)],
        &key,
        Duration::from_secs(60),
    );
    (r, out, path)
}

/// `report DIR --compare A,B`'s comparison, checked to pair all `trials` of A with B's.
fn comparison(dir: &Path, a_b: &str, trials: u64) -> Value {
    let report = shapemaze(&[
        "report",
        path_str(dir),
        "--format",
        "json",
        "--compare",
        a_b,
    ])
    .json();
    let c = report["comparison"].clone();
    assert_eq!(
        (c["trials_a"].as_u64(), c["pairs"].as_u64()),
        (Some(trials), Some(trials)),
        "{c}"
    );
    c
}

/// The records of a folder's trials.jsonl, by trial id (the ids must be unique).
fn records(dir: &Path) -> BTreeMap<String, Value> {
    let text = std::fs::read_to_string(dir.join("trials.jsonl")).expect("trials.jsonl");
    let mut out = BTreeMap::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let r: Value = serde_json::from_str(line).expect("a JSON record");
        let id = format!(
            "{}/{}/{}/{}/{}",
            r["model"].as_str().expect("model"),
            r["encoding"].as_str().expect("encoding"),
            r["shape"].as_str().expect("shape"),
            r["sample"],
            r["repeat"]
        );
        assert!(out.insert(id.clone(), r).is_none(), "{id} appears twice");
    }
    out
}

fn verdicts(records: &BTreeMap<String, Value>) -> BTreeMap<String, Value> {
    records
        .iter()
        .map(|(id, r)| {
            let v = &r["verdicts"];
            let outcomes: Vec<Value> = ["solve", "recognize", "generate"]
                .iter()
                .map(|p| v[p]["outcome"].clone())
                .collect();
            (id.clone(), Value::from(outcomes))
        })
        .collect()
}

#[test]
fn an_oracle_design_writes_a_folder_that_score_reads_without_differences() {
    let tmp = TempDir::new("run-oracle");
    let design = write_design(tmp.path(), &oracle_design());
    let out = tmp.path().join("out");
    let summary = run_ok(&["run", &design, "--out", path_str(&out)]);
    assert_eq!(
        summary["trials"], 16,
        "2 players x 2 encodings x 2 shapes x 2 samples"
    );
    assert_eq!(summary["done"], 16);
    let recs = records(&out);
    assert_eq!(recs.len(), 16);
    for f in ["experiment.json", "trials.csv", "trials.jsonl"] {
        assert!(out.join(f).is_file(), "{f} is written");
    }
    assert!(
        out.join("experiment_mazes").is_dir(),
        "the maze files are written"
    );
    for (id, r) in &recs {
        if r["model"] == "oracle" {
            for p in ["solve", "recognize", "generate"] {
                assert_eq!(r["verdicts"][p]["outcome"], "success", "{id} {p}");
            }
        }
    }
    let score = shapemaze(&["score", path_str(&out)]);
    assert_eq!(score.code, 0, "{}", score.stderr);
    assert!(
        score.stdout.contains("differ from the recomputed ones: 0"),
        "score finds no differences:\n{}",
        score.stdout
    );
    // The oracle and the random walker played the same mazes: compared pair by pair.
    let c = &comparison(&out, "oracle,random", 8);
    let solve = &c["phases"][0];
    assert_eq!(solve["test"], "mcnemar", "{c}");
    assert_eq!(solve["a"]["successes"], 8);
    assert!(
        solve["p"]
            .as_f64()
            .is_some_and(|p| (0.0..=1.0).contains(&p)),
        "{c}"
    );
    let text = shapemaze(&["report", path_str(&out), "--compare", "oracle,random"]).stdout;
    assert!(
        text.contains("Comparison") && text.contains("McNemar (paired)"),
        "{text}"
    );
    let bad = shapemaze(&["report", path_str(&out), "--compare", "oracle,nobody"]);
    assert_eq!(bad.code, 5, "{}", bad.stderr);
    assert!(bad.stderr.contains("'nobody'"), "{}", bad.stderr);
    let one = shapemaze(&["report", path_str(&out), "--compare", "oracle"]);
    assert_eq!(one.code, 2);
    assert!(
        one.stderr
            .contains("two different model or experiment names"),
        "{}",
        one.stderr
    );
}

#[test]
fn a_run_resumed_from_half_its_records_plays_every_trial_exactly_once() {
    let tmp = TempDir::new("run-resume");
    let design = write_design(tmp.path(), &oracle_design());
    let out = tmp.path().join("out");
    run_ok(&["run", &design, "--out", path_str(&out)]);
    let first = records(&out);
    let jsonl = out.join("trials.jsonl");
    let text = std::fs::read_to_string(&jsonl).expect("trials.jsonl");
    let lines: Vec<&str> = text.lines().collect();
    // Keep every other line, and cut the last kept one short as a kill would.
    let mut kept: String = lines.iter().step_by(2).map(|l| format!("{l}\n")).collect();
    kept.push_str(&lines[1][..lines[1].len() / 2]);
    std::fs::write(&jsonl, kept).expect("rewrite");
    let summary = run_ok(&["run", &design, "--out", path_str(&out)]);
    assert_eq!(summary["resumed"], 8, "the kept whole lines are kept");
    assert_eq!(summary["ran"], 8, "only the missing trials run");
    let second = records(&out);
    assert_eq!(
        first.keys().collect::<Vec<_>>(),
        second.keys().collect::<Vec<_>>(),
        "every trial exactly once"
    );
    assert_eq!(verdicts(&first), verdicts(&second), "the same verdicts");
    let again = run_ok(&["run", &design, "--out", path_str(&out)]);
    assert_eq!(again["ran"], 0, "a finished folder runs nothing");
    assert_eq!(records(&out).len(), 16);
}

#[test]
fn two_shards_merged_equal_one_unsharded_run() {
    let tmp = TempDir::new("run-shards");
    let design = write_design(tmp.path(), &oracle_design());
    let whole = tmp.path().join("whole");
    let a = tmp.path().join("a");
    let b = tmp.path().join("b");
    let merged = tmp.path().join("merged");
    run_ok(&["run", &design, "--out", path_str(&whole)]);
    let sa = run_ok(&["run", &design, "--out", path_str(&a), "--shard", "1/2"]);
    let sb = run_ok(&["run", &design, "--out", path_str(&b), "--shard", "2/2"]);
    assert_eq!(sa["trials"], 8);
    assert_eq!(sb["trials"], 8);
    let ka: BTreeSet<String> = records(&a).into_keys().collect();
    let kb: BTreeSet<String> = records(&b).into_keys().collect();
    assert!(ka.is_disjoint(&kb), "the shards share no trial");
    let m = run_ok(&["merge", path_str(&merged), path_str(&a), path_str(&b)]);
    assert_eq!(m["records"], 16);
    assert_eq!(verdicts(&records(&merged)), verdicts(&records(&whole)));
    // Merging a folder with itself skips the identical duplicates.
    let twice = tmp.path().join("twice");
    let m = run_ok(&["merge", path_str(&twice), path_str(&a), path_str(&a)]);
    assert_eq!(m["records"], 8);
    assert_eq!(m["duplicates"], 8);
    // A conflicting record refuses the merge.
    let whole_text = std::fs::read_to_string(whole.join("trials.jsonl")).expect("jsonl");
    let changed = whole_text.replacen("\"success\"", "\"fail\"", 1);
    std::fs::write(whole.join("trials.jsonl"), changed).expect("rewrite");
    let bad = tmp.path().join("bad");
    let r = shapemaze(&[
        "merge",
        path_str(&bad),
        path_str(&a),
        path_str(&b),
        path_str(&whole),
    ]);
    r.assert_data_error("different records", "a conflicting merge");
    assert!(!bad.join("trials.jsonl").exists(), "nothing is written");
}

#[test]
fn bad_designs_missing_keys_and_bad_shards_stop_with_one_line() {
    let tmp = TempDir::new("run-bad");
    let out = tmp.path().join("out");
    let bad = tmp.path().join("bad.json");
    std::fs::write(&bad, "{\"players\": []}").expect("write");
    shapemaze(&["run", path_str(&bad), "--out", path_str(&out)])
        .assert_input_error("bad.json", "a bad design");
    let design = write_design(
        tmp.path(),
        &serde_json::json!({
            "players": [{"kind": "endpoint", "base_url": "http://127.0.0.1:9/v1",
                         "model": "m", "key_env": "SHAPEMAZE_TEST_KEY_THAT_IS_NOT_SET"}],
            "encodings": ["matrix"], "shapes": ["square"], "samples_per_shape": 1
        }),
    );
    shapemaze(&["run", &design, "--out", path_str(&out)])
        .assert_usage_error("SHAPEMAZE_TEST_KEY_THAT_IS_NOT_SET", "a missing key");
    let oracle = write_design(tmp.path(), &oracle_design());
    for shard in ["0/2", "3/2", "x"] {
        shapemaze(&["run", &oracle, "--out", path_str(&out), "--shard", shard])
            .assert_usage_error("--shard", "a bad shard");
    }
    shapemaze(&["run", &oracle]).assert_usage_error("--out", "no --out");
    let done = tmp.path().join("done");
    run_ok(&["run", &oracle, "--out", path_str(&done)]);
    let mut other = oracle_design();
    other["seed"] = Value::from(99);
    let other = write_design(tmp.path(), &other);
    shapemaze(&["run", &other, "--out", path_str(&done)])
        .assert_data_error("different design", "another design into the same folder");
    shapemaze(&[
        "run",
        &oracle,
        "--out",
        path_str(&done),
        "--concurrency",
        "0",
    ])
    .assert_usage_error("--concurrency", "no concurrency");
    shapemaze(&["merge", path_str(&out)]).assert_usage_error("DIR", "merge without folders");
}

const SECRET: &str = "sk-test-secret-0123456789";

fn files_under(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for e in std::fs::read_dir(dir).expect("a folder").flatten() {
        let p = e.path();
        if p.is_dir() {
            files_under(&p, out);
        } else {
            out.push(p);
        }
    }
}

#[test]
fn an_endpoint_player_survives_a_429_and_never_writes_its_key() {
    let fake = FakeEndpoint::start(Duration::from_millis(5), 1, "Move: (0, 0)");
    let tmp = TempDir::new("run-endpoint");
    for stream in [false, true] {
        let design = write_design(tmp.path(), &endpoint_design(&fake.url, stream, 4, 2));
        let out = tmp.path().join(format!("out-{stream}"));
        let r = shapemaze_env(
            &["run", &design, "--out", path_str(&out)],
            &[("SHAPEMAZE_TEST_RUN_KEY", SECRET)],
            Duration::from_secs(60),
        );
        assert_eq!(r.code, 0, "the run finishes: {}", r.stderr);
        assert_eq!(r.json()["api_errors"], 0, "the 429 was retried");
        let recs = records(&out);
        assert_eq!(
            recs.len(),
            24,
            "2 players x 2 encodings x 3 shapes x 2 samples"
        );
        let fake_model = recs.values().filter(|r| r["model"] == "fake-model").count();
        assert_eq!(fake_model, 12);
        if !stream {
            let retried = recs.values().any(|r| {
                r["messages"]
                    .as_array()
                    .is_some_and(|m| m.iter().any(|m| m["attempts"] == 2))
            });
            assert!(retried, "one reply took two attempts");
            // What failed and when is kept with the reply.
            let kept = recs
                .values()
                .flat_map(|r| r["messages"].as_array().cloned().unwrap_or_default())
                .find(|m| m["attempts"] == 2)
                .expect("the retried reply");
            assert_eq!(kept["retried"][0]["error"], "429", "{kept}");
            assert_eq!(kept["retried"][0]["attempt"], 1);
            assert!(
                kept["retried"][0]["at_ms"]
                    .as_f64()
                    .is_some_and(|t| t > 1.7e12),
                "{kept}"
            );
            // The fake endpoint reports 10 prompt and 5 completion tokens a call: the
            // report counts them per trial; the oracle reports none.
            let report = shapemaze(&["report", path_str(&out), "--format", "json"]).json();
            let detail = |model: &str| {
                report["details"]
                    .as_array()
                    .and_then(|d| {
                        d.iter().find(|d| {
                            d["model"] == model && d["encoding"] == "all" && d["shape"] == "all"
                        })
                    })
                    .cloned()
                    .unwrap_or_else(|| panic!("a pooled row for {model}"))
            };
            let t = &detail("fake-model")["tokens"];
            let calls = t["calls"].as_u64().expect("calls");
            assert_eq!(t["trials"], 12, "{t}");
            assert!(calls >= 12, "{t}");
            assert_eq!(t["prompt"].as_u64(), Some(10 * calls), "{t}");
            assert_eq!(t["completion"].as_u64(), Some(5 * calls), "{t}");
            assert_eq!(
                t["per_trial"].as_f64(),
                Some(15.0 * calls as f64 / 12.0),
                "{t}"
            );
            assert_eq!(detail("oracle")["tokens"]["trials"], 0);
            // The retried trial is set beside the others.
            assert_eq!(detail("fake-model")["retries"]["retried_trials"], 1);
            assert_eq!(detail("oracle")["retries"]["retried_trials"], 0);
        }
        let mut files = Vec::new();
        files_under(&out, &mut files);
        assert!(files.len() > 20, "the export folder is written");
        for f in files {
            let bytes = std::fs::read(&f).expect("readable");
            let text = String::from_utf8_lossy(&bytes);
            assert!(!text.contains(SECRET), "{} holds the key", f.display());
        }
    }
    let auth = fake.authorizations.lock().expect("lock").clone();
    assert_eq!(
        auth,
        BTreeSet::from([format!("Bearer {SECRET}")]),
        "the key goes in the header"
    );
    assert!(fake.requests.load(Ordering::SeqCst) > 24);
}

/// The benchmark of issue 10: 100 ms per call, concurrency 16; prints the wall time
/// against the ideal `calls x 100 ms / 16`. Run by hand:
/// `cargo test --release --test run -- --ignored --nocapture` (`SHAPEMAZE_BENCH_SAMPLES`
/// mazes per shape, 30 by default: 360 trials).
#[test]
#[ignore]
fn a_run_at_100_ms_per_call_and_concurrency_16_is_near_the_ideal_wall_time() {
    let fake = FakeEndpoint::start(Duration::from_millis(100), 0, "Move: (0, 0)");
    let tmp = TempDir::new("run-bench");
    let samples = std::env::var("SHAPEMAZE_BENCH_SAMPLES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(30);
    let mut design = endpoint_design(&fake.url, true, 16, samples);
    design["players"] = serde_json::json!([design["players"][0].clone()]);
    design["shapes"] = serde_json::json!(["square", "cross", "spiral", "triangle", "C", "Z"]);
    let path = write_design(tmp.path(), &design);
    let out = tmp.path().join("out");
    let started = Instant::now();
    let spawned_ms = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("the clock is after 1970")
        .as_secs_f64()
        * 1000.0;
    let r = shapemaze_env(
        &["run", &path, "--out", path_str(&out)],
        &[("SHAPEMAZE_TEST_RUN_KEY", SECRET)],
        Duration::from_secs(300),
    );
    let wall = started.elapsed().as_secs_f64();
    assert_eq!(r.code, 0, "{}", r.stderr);
    let calls = fake.requests.load(Ordering::SeqCst);
    let ideal = calls as f64 * 0.1 / 16.0;
    let recs = records(&out);
    let latencies: Vec<f64> = recs
        .values()
        .flat_map(|r| r["messages"].as_array().cloned().unwrap_or_default())
        .filter_map(|m| m["latency_ms"].as_f64())
        .collect();
    let mean = latencies.iter().sum::<f64>() / latencies.len().max(1) as f64;
    let inside = r.json()["seconds"].as_f64().unwrap_or(f64::NAN);
    let starts: Vec<f64> = recs
        .values()
        .filter_map(|r| r["started_ms"].as_f64())
        .collect();
    let ends: Vec<f64> = recs
        .values()
        .filter_map(|r| r["ended_ms"].as_f64())
        .collect();
    let first = starts.iter().copied().fold(f64::INFINITY, f64::min);
    let last_start = starts.iter().copied().fold(0.0, f64::max);
    let last_end = ends.iter().copied().fold(0.0, f64::max);
    println!(
        "before the first trial {:.2} s; trials from first start to last end {:.2} s, of which after the last start (the drain) {:.2} s; after the last trial {:.2} s",
        (first - spawned_ms) / 1000.0,
        (last_end - first) / 1000.0,
        (last_end - last_start) / 1000.0,
        wall - (last_end - spawned_ms) / 1000.0
    );
    println!(
        "trials {}, calls {calls}, wall {wall:.2} s, ideal {ideal:.2} s, ratio {:.3}, mean call latency {mean:.1} ms, run loop {inside:.2} s, calls in flight on average {:.1}",
        recs.len(),
        wall / ideal,
        latencies.iter().sum::<f64>() / 1000.0 / inside
    );
}

/// Starts the binary, lets it run for `after`, then sends it `signal` (`KILL` or `TERM`).
#[cfg(unix)]
fn run_then_signal(args: &[&str], env: &[(&str, &str)], after: Duration, signal: &str) -> Run {
    let child = command(args, env).spawn().expect("the binary starts");
    std::thread::sleep(after);
    let status = Command::new("kill")
        .arg(format!("-{signal}"))
        .arg(child.id().to_string())
        .status()
        .expect("kill runs");
    assert!(status.success(), "the signal is sent");
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait_with_output());
    });
    let out = rx
        .recv_timeout(Duration::from_secs(30))
        .expect("the binary stops within 30 s of the signal")
        .expect("the output is read");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

#[cfg(unix)]
#[test]
fn a_run_killed_and_then_stopped_resumes_with_every_trial_exactly_once() {
    let fake = FakeEndpoint::start(Duration::from_millis(100), 0, "Move: (0, 0)");
    let tmp = TempDir::new("run-kill");
    let design = write_design(tmp.path(), &endpoint_design(&fake.url, true, 2, 3));
    let out = tmp.path().join("out");
    let args = ["run", design.as_str(), "--out", path_str(&out)];
    let env = [("SHAPEMAZE_TEST_RUN_KEY", SECRET)];
    // A kill -9 mid-run: what was appended survives.
    let killed = run_then_signal(&args, &env, Duration::from_millis(700), "KILL");
    assert_eq!(killed.code, -1, "killed by the signal");
    let after_kill = records(&out).len();
    assert!(
        after_kill > 0 && after_kill < 36,
        "part of the run: {after_kill}"
    );
    // SIGTERM: the run stops, writes the folder and says how to resume.
    let stopped = run_then_signal(&args, &env, Duration::from_millis(700), "TERM");
    assert_eq!(stopped.code, 2, "a stopped run: {}", stopped.stderr);
    let last_line = stopped.stderr.lines().last().unwrap_or_default();
    assert!(
        last_line.starts_with("shapemaze: error: interrupted")
            && last_line.contains("run the same command again"),
        "the last line says how to resume: {last_line}"
    );
    let after_stop = records(&out).len();
    assert!(after_stop >= after_kill, "nothing finished is lost");
    assert!(
        out.join("trials.csv").is_file(),
        "the folder is written on a stop"
    );
    let r = shapemaze_env(&args, &env, Duration::from_secs(60));
    assert_eq!(r.code, 0, "{}", r.stderr);
    let last = r.json();
    assert_eq!(last["resumed"], after_stop);
    let recs = records(&out);
    assert_eq!(recs.len(), 36, "every trial exactly once");
    let score = shapemaze(&["score", path_str(&out)]);
    assert!(
        score.stdout.contains("differ from the recomputed ones: 0"),
        "{}",
        score.stdout
    );
}

#[test]
fn the_command_line_and_the_core_s_scripted_endpoint_give_the_same_records_for_the_same_replies() {
    use shapemaze::core::batch::design::ExperimentDesign;
    use shapemaze::core::maze::templates::TemplateLibrary;
    use shapemaze::core::model::scripted::{Scripted, ScriptedTransport};
    use shapemaze::core::model::transport::block_on;
    use shapemaze::core::play::endpoint::EndpointPlayer;
    use shapemaze::core::play::player::play;
    use shapemaze::core::play::trial::Trial;

    let fake = FakeEndpoint::start(Duration::from_millis(1), 0, "Move: (0, 0)");
    let tmp = TempDir::new("run-same");
    let design_json = endpoint_design(&fake.url, false, 4, 2);
    let path = write_design(tmp.path(), &design_json);
    let out = tmp.path().join("out");
    let r = shapemaze_env(
        &["run", &path, "--out", path_str(&out)],
        &[("SHAPEMAZE_TEST_RUN_KEY", SECRET)],
        Duration::from_secs(60),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let recs = records(&out);
    let design = ExperimentDesign::from_json(&design_json.to_string()).expect("a design");
    let spec = design.players[0].clone();
    let library = std::sync::Arc::new(TemplateLibrary::new(5));
    let mut compared = 0;
    for key in design
        .trials()
        .into_iter()
        .filter(|k| k.player == "fake-model")
    {
        let maze = design.maze_for(&key, &library).expect("a maze");
        let mut trial = Trial::new(design.setup_for(&key, maze), library.clone());
        let transport = ScriptedTransport::new(vec![Scripted::answer("Move: (0, 0)"); 50]);
        let settings = shapemaze::core::batch::runner::endpoint_settings(&spec).expect("settings");
        let mut player = EndpointPlayer::new(transport, settings, "k".into(), None);
        block_on(play(&mut trial, &mut player, &mut |_| {}));
        let id = format!(
            "fake-model/{}/{}/{}/{}",
            key.encoding, key.shape, key.sample, key.repeat
        );
        let cli = &recs[&id];
        let texts: Vec<&str> = trial
            .messages()
            .iter()
            .map(|m| m.content.as_str())
            .collect();
        let cli_texts: Vec<&str> = cli["messages"]
            .as_array()
            .expect("messages")
            .iter()
            .map(|m| m["content"].as_str().expect("content"))
            .collect();
        assert_eq!(texts, cli_texts, "{id}: the same conversation");
        let verdicts = trial.verdicts();
        for (i, phase) in ["solve", "recognize", "generate"].iter().enumerate() {
            let core = verdicts[i].map(|v| serde_json::to_value(v).expect("json"));
            let cli_verdict = &cli["verdicts"][phase];
            assert_eq!(
                core.as_ref().map(|v| &v["outcome"]),
                (!cli_verdict.is_null()).then_some(&cli_verdict["outcome"]),
                "{id} {phase}"
            );
            assert_eq!(
                core.as_ref().map(|v| &v["reason"]),
                (!cli_verdict.is_null()).then_some(&cli_verdict["reason"]),
                "{id} {phase}"
            );
        }
        compared += 1;
    }
    assert_eq!(compared, 12);
}

#[test]
fn retry_errors_plays_again_only_the_trials_that_ended_as_api_errors() {
    // Every endpoint trial's first request gets a 429 and, with one attempt allowed, ends
    // as an API error; the endpoint answers normally afterwards.
    let fake = FakeEndpoint::start(Duration::from_millis(2), 6, "Move: (0, 0)");
    let tmp = TempDir::new("run-retry-errors");
    let mut design = endpoint_design(&fake.url, false, 2, 1);
    design["players"][0]["max_attempts"] = serde_json::json!(1);
    let design = write_design(tmp.path(), &design);
    let out = tmp.path().join("out");
    let env = [("SHAPEMAZE_TEST_RUN_KEY", SECRET)];
    // A folder holding API errors ends with exit status 3; one without, 0.
    let run = |extra: &[&str], status: i32| {
        let mut args = vec!["run", design.as_str(), "--out", path_str(&out)];
        args.extend_from_slice(extra);
        let r = shapemaze_env(&args, &env, Duration::from_secs(60));
        assert_eq!(r.code, status, "the run finishes: {}", r.stderr);
        r.json()
    };
    let first = run(&[], 3);
    assert_eq!(first["api_errors"], 6, "{first}");
    // Resuming without the flag keeps them.
    let again = run(&[], 3);
    assert_eq!(
        (again["ran"].clone(), again["api_errors"].clone()),
        (0.into(), 6.into())
    );
    let retried = run(&["--retry-errors"], 0);
    assert_eq!(retried["retried_errors"], 6, "{retried}");
    assert_eq!(retried["ran"], 6, "only the errors ran again: {retried}");
    assert_eq!(retried["api_errors"], 0, "{retried}");
    let recs = records(&out);
    assert_eq!(recs.len(), 12, "every trial once");
    assert!(recs.values().all(|r| r["api_error"].is_null()));
    // A flag takes no value.
    let r = shapemaze_env(
        &[
            "run",
            &design,
            "--out",
            path_str(&out),
            "--retry-errors=yes",
        ],
        &env,
        Duration::from_secs(10),
    );
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains("--retry-errors takes no value"),
        "{}",
        r.stderr
    );
}

/// A loopback URL nothing listens on: a port bound, then let go.
fn closed_port_url() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").expect("a loopback port");
    let addr = listener.local_addr().expect("address");
    drop(listener);
    format!("http://{addr}/v1")
}

#[test]
fn a_run_against_a_closed_port_says_why_by_cause_and_exits_3() {
    let url = closed_port_url();
    let tmp = TempDir::new("run-closed-port");
    let design = write_design(
        tmp.path(),
        &serde_json::json!({
            "players": [{"kind": "endpoint", "preset": "custom", "base_url": url, "model": "m",
                         "max_attempts": 2, "timeout_ms": 5000}],
            "encodings": ["matrix", "coord_list"], "shapes": ["square"], "samples_per_shape": 1,
            "concurrency": 2
        }),
    );
    let out = tmp.path().join("out");
    // Progress lines every 0.1 s: a log (stderr is a pipe here) still gets no line twice in
    // a row while the retries wait.
    let r = shapemaze_env(
        &["run", &design, "--out", path_str(&out)],
        &[("SHAPEMAZE_PROGRESS_SECONDS", "0.1")],
        Duration::from_secs(60),
    );
    assert_eq!(r.code, 3, "API errors: exit status 3\n{}", r.stderr);
    let summary = r.json();
    assert_eq!(
        (summary["done"].clone(), summary["api_errors"].clone()),
        (2.into(), 2.into()),
        "the JSON summary line stays: {summary}"
    );
    let endpoint = format!("{url}/chat/completions");
    let lines: Vec<&str> = r.stderr.lines().collect();
    let head = lines
        .iter()
        .position(|l| l.contains("trials ended as API errors"))
        .unwrap_or_else(|| panic!("a summary of the API errors:\n{}", r.stderr));
    assert_eq!(
        lines[head],
        "shapemaze: 2 of 2 trials ended as API errors: the endpoint failed, so they were not judged and are left out of every rate. By cause:"
    );
    let cause = lines[head + 1];
    assert!(
        cause.starts_with(&format!(
            "shapemaze:   2 trials of m (network, 2 attempts each): No answer from {endpoint}. Check the base URL, and that the server is running"
        )),
        "identical causes are one line, with what to do: {cause}"
    );
    assert!(
        cause.to_lowercase().contains("connection refused"),
        "the system's own message: {cause}"
    );
    assert!(
        !cause.contains("Gave up after"),
        "the attempts are counted once, up front: {cause}"
    );
    assert!(
        lines[head + 2].contains("--retry-errors"),
        "{}",
        lines[head + 2]
    );
    for word in ["CORS", "browser", "make serve"] {
        assert!(
            !r.stderr.contains(word),
            "no '{word}' natively:\n{}",
            r.stderr
        );
    }
    let progress: Vec<&str> = lines
        .iter()
        .copied()
        .filter(|l| l.contains(" done, "))
        .collect();
    assert!(!progress.is_empty(), "progress lines:\n{}", r.stderr);
    for pair in progress.windows(2) {
        assert_ne!(pair[0], pair[1], "a repeated line:\n{}", r.stderr);
    }
    assert!(
        progress.len() <= 10,
        "a line when something changed, not every 0.1 s:\n{}",
        r.stderr
    );
    assert!(
        progress.iter().any(|l| l.contains("retrying")),
        "the wait between attempts shows:\n{}",
        r.stderr
    );
    let last = progress.last().copied().unwrap_or_default();
    assert!(last.starts_with("shapemaze: 2/2 done, 2 errors"), "{last}");
}

#[test]
fn a_design_asking_for_more_mazes_than_exist_is_refused_before_any_trial_runs() {
    let tmp = TempDir::new("run-too-many");
    let mut design = oracle_design();
    design["samples_per_shape"] = serde_json::json!(5000);
    let design = write_design(tmp.path(), &design);
    let out = tmp.path().join("out");
    let r = shapemaze_env(
        &["run", &design, "--out", path_str(&out)],
        &[],
        Duration::from_secs(60),
    );
    assert_eq!(r.code, 5, "a design the mazes cannot satisfy: {}", r.stderr);
    assert!(r.stderr.contains("5x5 square:"), "{}", r.stderr);
    assert!(!out.join("trials.jsonl").exists(), "nothing ran");
}

#[test]
fn the_cost_limit_stops_a_run_before_it_would_pass_it_and_a_higher_one_goes_on() {
    // Each call reports 10 prompt and 5 completion tokens; at $1 per million each way a
    // trial's three calls (a wall, no shape, no maze) cost $0.000045 (a fourth when the
    // first move happens to be open).
    let fake = FakeEndpoint::start(Duration::from_millis(1), 0, "Move: (0, 0)");
    let tmp = TempDir::new("run-cost");
    let mut design = endpoint_design(&fake.url, false, 4, 30);
    design["players"] = serde_json::json!([{"kind": "endpoint", "preset": "custom", "base_url": fake.url,
        "model": "fake-model", "key_env": "SHAPEMAZE_TEST_RUN_KEY", "stream": false,
        "timeout_ms": 10000, "price": {"input": 1.0, "output": 1.0}}]);
    design["cost_limit"] = serde_json::json!(0.003);
    let (r, out, path) = run_with_key(tmp.path(), &design);
    let key = [("SHAPEMAZE_TEST_RUN_KEY", SECRET)];
    assert_eq!(r.code, 2, "stopped at the limit: {}", r.stderr);
    assert!(
        r.stderr.contains("stopped at the cost limit") && r.stderr.contains("of $0.0030"),
        "{}",
        r.stderr
    );
    assert!(r.stderr.contains("higher --cost-limit"), "{}", r.stderr);
    let stopped = records(&out);
    assert!(
        !stopped.is_empty() && stopped.len() < 180,
        "{} of 180 trials",
        stopped.len()
    );
    let spent: f64 = stopped
        .values()
        .map(|r| {
            let price = &r["endpoint"]["price"];
            assert_eq!(price["input"], 1.0, "each record keeps its price");
            r["messages"].as_array().map_or(0.0, |m| {
                m.iter()
                    .map(|m| {
                        m["prompt_tokens"].as_f64().unwrap_or(0.0)
                            + m["completion_tokens"].as_f64().unwrap_or(0.0)
                    })
                    .sum::<f64>()
            }) / 1e6
        })
        .sum();
    assert!(spent <= 0.003, "spent ${spent} within the limit");
    // The report gives the cost per trial and per solve (none solved here).
    let report = shapemaze(&["report", path_str(&out), "--format", "json"]).json();
    let pooled = report["details"]
        .as_array()
        .and_then(|d| {
            d.iter().find(|d| {
                d["model"] == "fake-model" && d["encoding"] == "all" && d["shape"] == "all"
            })
        })
        .cloned()
        .expect("a pooled row");
    let per_trial = pooled["tokens"]["cost_per_trial"]
        .as_f64()
        .expect("a cost per trial");
    let t = &pooled["tokens"];
    let (cost, trials) = (
        t["cost"].as_f64().expect("a cost"),
        t["trials"].as_f64().expect("trials"),
    );
    assert!(
        (cost - spent).abs() < 1e-12,
        "the report's cost is the records': {t}"
    );
    assert!(
        (per_trial - cost / trials).abs() < 1e-15 && per_trial >= 0.000045,
        "{t}"
    );
    assert!(
        pooled["tokens"]["cost_per_solve"].is_null(),
        "no solve, no cost per solve"
    );
    let text = shapemaze(&["report", path_str(&out)]).stdout;
    assert!(text.contains("cost per solved trial"), "{text}");
    // A higher limit on the command line goes on to the end, each trial once.
    let r = shapemaze_env(
        &["run", &path, "--out", path_str(&out), "--cost-limit", "1"],
        &key,
        Duration::from_secs(60),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(records(&out).len(), 180);
    let bad = shapemaze_env(
        &["run", &path, "--out", path_str(&out), "--cost-limit", "-1"],
        &key,
        Duration::from_secs(60),
    );
    assert_eq!(bad.code, 2);
    assert!(
        bad.stderr
            .contains("cost limit must be a number of dollars above zero"),
        "{}",
        bad.stderr
    );
}

#[test]
fn a_design_with_u_is_scored_from_its_transcripts_as_it_was_played() {
    // The random walker names shapes at random, U among them on C mazes: wrong beside a U.
    // The transcripts do not say U was in play; the folder's experiment.json does.
    let tmp = TempDir::new("run-u");
    let design = write_design(
        tmp.path(),
        &serde_json::json!({
            "players": [{"kind": "oracle"}, {"kind": "random"}],
            "encodings": ["matrix"], "shapes": ["C", "U"], "size": 5,
            "samples_per_shape": 15, "seed": 3
        }),
    );
    let out = tmp.path().join("out");
    run_ok(&["run", &design, "--out", path_str(&out)]);
    let named_u_on_c = records(&out)
        .values()
        .filter(|r| r["shape"] == "C" && r["predicted_shape"] == "U")
        .count();
    assert!(named_u_on_c > 0, "the random walker named U on a C maze");
    let score = shapemaze(&["score", path_str(&out)]);
    assert_eq!(score.code, 0, "{}", score.stderr);
    assert!(
        score.stdout.contains("differ from the recomputed ones: 0"),
        "{}",
        score.stdout
    );
}

#[test]
fn reasoning_efforts_run_each_model_once_per_effort_and_compare_like_models() {
    let fake = FakeEndpoint::start(Duration::ZERO, 0, "Move: (0, 0)");
    let tmp = TempDir::new("run-efforts");
    let mut design = endpoint_design(&fake.url, false, 4, 1);
    design["efforts"] = serde_json::json!(["low", "no-thinking"]);
    let (r, out, _) = run_with_key(tmp.path(), &design);
    assert_eq!(r.code, 0, "{}", r.stderr);
    // Each run of the model is a player of its own, with its effort in every record.
    let recs = records(&out);
    let mut per_model: BTreeMap<String, usize> = BTreeMap::new();
    for r in recs.values() {
        let model = r["model"].as_str().expect("model").to_string();
        let effort = r["endpoint"]["effort"].as_str().map(str::to_string);
        match model.as_str() {
            "oracle" => assert_eq!(effort, None),
            m => assert_eq!(
                Some(m.trim_start_matches("fake-model@").to_string()),
                effort
            ),
        }
        *per_model.entry(model).or_default() += 1;
    }
    let six = |m: &str| (m.to_string(), 6);
    assert_eq!(
        per_model,
        BTreeMap::from([
            six("fake-model@low"),
            six("fake-model@no-thinking"),
            six("oracle")
        ])
    );
    // The requests carried each effort as the endpoint reads it, never both.
    let bodies = fake.bodies.lock().expect("lock").clone();
    let low = bodies
        .iter()
        .filter(|b| b.contains("\"reasoning_effort\":\"low\""))
        .count();
    let off = bodies
        .iter()
        .filter(|b| b.contains("\"chat_template_kwargs\":{\"enable_thinking\":false}"))
        .count();
    assert!(
        low > 0 && off > 0 && low + off == bodies.len(),
        "{low} + {off} of {}",
        bodies.len()
    );
    assert!(bodies
        .iter()
        .all(|b| b.contains("\"model\":\"fake-model\"")));
    // The report compares the two efforts like two models, on the same mazes.
    let c = &comparison(&out, "fake-model@low,fake-model@no-thinking", 6);
    assert_eq!(c["phases"][0]["test"], "mcnemar", "{c}");
    let csv = std::fs::read_to_string(out.join("trials.csv")).expect("trials.csv");
    let column = csv
        .lines()
        .next()
        .and_then(|h| h.split(',').position(|c| c == "effort"))
        .expect("an effort column");
    for line in csv.lines().skip(1) {
        let (model, effort) = (line.split(',').nth(2), line.split(',').nth(column));
        let expected = model
            .and_then(|m| m.strip_prefix("fake-model@"))
            .unwrap_or("");
        assert_eq!(effort, Some(expected), "{line}");
    }
}

#[test]
fn a_run_whose_endpoint_ignores_the_form_asked_says_how_often_in_its_summary() {
    // The fake server answers every request with free text (200), whatever form it asks.
    let fake = FakeEndpoint::start(Duration::from_millis(1), 0, "Move: (0, 0)");
    let tmp = TempDir::new("run-forms");
    let mut design = endpoint_design(&fake.url, false, 4, 1);
    design["answer_modes"] = serde_json::json!(["schema"]);
    let (r, out, _) = run_with_key(tmp.path(), &design);
    assert_eq!(r.code, 0, "the run finishes: {}", r.stderr);
    let summary = r.json();
    let asked: usize = records(&out)
        .values()
        .flat_map(|t| t["messages"].as_array().cloned().unwrap_or_default())
        .filter_map(|m| m["form"]["read"].as_array().map(Vec::len))
        .sum();
    assert!(asked > 0, "the endpoint's replies were asked for a form");
    assert_eq!(
        (&summary["form_replies"], &summary["forms_not_held"]),
        (&serde_json::json!(asked), &serde_json::json!(asked)),
        "{summary}"
    );
    assert!(
        r.stderr.contains(&format!(
            "{asked} of {asked} replies asked for a form were not held"
        )),
        "stderr says how often: {}",
        r.stderr
    );
}

#[test]
fn a_run_and_a_merge_write_their_provenance_and_the_report_shows_it() {
    let tmp = TempDir::new("run-provenance");
    let design = write_design(tmp.path(), &oracle_design());
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    run_ok(&["run", &design, "--out", path_str(&a), "--shard", "1/2"]);
    run_ok(&["run", &design, "--out", path_str(&b), "--shard", "2/2"]);
    let provenance = |dir: &Path| -> Value {
        let text = std::fs::read_to_string(dir.join("provenance.json")).expect("provenance.json");
        serde_json::from_str(&text).expect("JSON")
    };
    let p = provenance(&a);
    assert_eq!(p["format"], "shapemaze-provenance/1");
    assert_eq!(p["trials"], 8);
    assert_eq!(p["seeds"], serde_json::json!([4]));
    let written = std::fs::read_to_string(a.join("experiment.json")).expect("the design");
    assert_eq!(
        p["design_sha256"],
        shapemaze::core::batch::provenance::sha256_hex(&written)
    );
    assert!(
        p["machine"].as_str().is_some_and(|m| m.contains("cores")),
        "{p}"
    );
    assert!(
        p["started"].as_str().is_some_and(|t| t.ends_with('Z')),
        "{p}"
    );
    let items = std::fs::read_to_string(a.join("items.csv")).expect("items.csv");
    assert_eq!(
        items.lines().count(),
        1 + 8,
        "a header and one row per maze and model"
    );
    // Shards of different reader versions are merged, and the merge says so.
    let jsonl = b.join("trials.jsonl");
    let now = format!("\"verifier\":{VERIFIER_VERSION}");
    let before = format!("\"verifier\":{}", VERIFIER_VERSION - 1);
    let text = std::fs::read_to_string(&jsonl).expect("jsonl");
    assert!(text.contains(&now), "the records name this build's reader");
    let older = text.replace(&now, &before);
    std::fs::write(&jsonl, older).expect("rewrite");
    let merged = tmp.path().join("merged");
    let m = run_ok(&["merge", path_str(&merged), path_str(&a), path_str(&b)]);
    let warnings = m["warnings"].as_array().expect("warnings");
    assert!(
        warnings
            .iter()
            .any(|w| w.as_str().is_some_and(|w| w.contains("different versions"))),
        "{m}"
    );
    assert_eq!(
        provenance(&merged)["record_versions"]
            .as_array()
            .map(Vec::len),
        Some(2)
    );
    let report = shapemaze(&["report", path_str(&merged), "--format", "json"]);
    assert_eq!(report.code, 0, "{}", report.stderr);
    assert_eq!(report.json()["provenance"]["trials"], 16);
    let text = shapemaze(&["report", path_str(&merged)]);
    assert!(
        text.stdout.contains("Provenance: Shapemaze"),
        "{}",
        text.stdout
    );
    assert!(
        text.stdout.contains("different versions"),
        "{}",
        text.stdout
    );
}
