//! `shapemaze export --format every-eval-ever` end to end, in process: an oracle-and-random
//! run (`shapemaze run`) exported, every file validated against the JSON Schemas of
//! `tests/fixtures/every_eval_ever/` (written for these tests: the fields, types and enums
//! the export promises, in the shape of Every Eval Ever's schemas), the rates held to
//! `shapemaze report`'s for the same folder, and the mistakes a person can make explained.
//!
//! Opt-in: with `SHAPEMAZE_EEE_SCHEMAS` set to a folder holding Every Eval Ever's published
//! `eval.schema.json` and `instance_level_eval.schema.json` (evaleval/every_eval_ever,
//! `every_eval_ever/schemas/`; fetched by you, never committed), the same export is
//! validated against them (`make test-eee`). Without it that test says so and passes.
#![cfg(not(target_arch = "wasm32"))]

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// An empty folder `name` under cargo's scratch folder for integration tests (emptied when
/// asked for again, so nothing is left in the system's temporary folder).
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("every-eval-ever-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    dir
}

/// What a command did: its exit status, stdout and stderr.
struct Ran {
    code: i32,
    stdout: String,
    stderr: String,
}

impl Ran {
    fn json(&self) -> Value {
        assert_eq!(self.code, 0, "{}", self.stderr);
        serde_json::from_str(self.stdout.trim()).expect("one JSON line")
    }
}

/// Runs the command line in process.
fn shapemaze(args: &[&str]) -> Ran {
    let owned: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let mut io = shapemaze_cli::Io {
        stdin: &mut std::io::empty(),
        stdout: &mut out,
        stderr: &mut err,
    };
    let code = shapemaze_cli::run(&owned, &mut io);
    Ran {
        code,
        stdout: String::from_utf8(out).expect("UTF-8"),
        stderr: String::from_utf8(err).expect("UTF-8"),
    }
}

fn path_str(p: &Path) -> &str {
    p.to_str().expect("a UTF-8 path")
}

/// The oracle and the random walker on two shapes in both encodings, two mazes each,
/// twice: 32 trials, run once for every test here.
struct Exported {
    run: PathBuf,
    out: PathBuf,
    summary: Value,
}

fn exported() -> &'static Exported {
    static RUN: OnceLock<Exported> = OnceLock::new();
    RUN.get_or_init(|| {
        let dir = scratch("run");
        let design = serde_json::json!({
            "name": "eee-test",
            "players": [{"kind": "oracle"}, {"kind": "random"}],
            "encodings": ["matrix", "coord_list"],
            "shapes": ["square", "spiral"],
            "size": 5,
            "samples_per_shape": 2,
            "repeats": 2,
            "seed": 4
        });
        let design_file = dir.join("design.json");
        std::fs::write(&design_file, design.to_string()).expect("the design");
        let run = dir.join("run");
        let ran = shapemaze(&["run", path_str(&design_file), "--out", path_str(&run)]);
        assert_eq!(ran.code, 0, "shapemaze run: {}", ran.stderr);
        let out = dir.join("eee");
        let summary = shapemaze(&[
            "export",
            "--format",
            "every-eval-ever",
            path_str(&run),
            "--out",
            path_str(&out),
        ])
        .json();
        Exported { run, out, summary }
    })
}

/// Each model's aggregate and its rows, read from the files the summary lists.
fn files(e: &Exported) -> Vec<(String, Value, String)> {
    e.summary["models"]
        .as_array()
        .expect("models")
        .iter()
        .map(|m| {
            let read = |key: &str| {
                let rel = m[key].as_str().expect("a path");
                std::fs::read_to_string(e.out.join(rel)).expect("the file")
            };
            let log: Value = serde_json::from_str(&read("aggregate")).expect("JSON");
            (
                m["model"].as_str().expect("a name").to_string(),
                log,
                read("samples"),
            )
        })
        .collect()
}

fn rows(samples: &str) -> Vec<Value> {
    samples
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}

/// A JSON Schema (draft 7) ready to validate with.
struct Schema {
    schemas: boon::Schemas,
    index: boon::SchemaIndex,
}

impl Schema {
    fn load(path: &Path) -> Schema {
        let text =
            std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let json: Value = serde_json::from_str(&text).expect("a schema is JSON");
        let url = format!(
            "file:///{}",
            path.file_name().expect("a name").to_string_lossy()
        );
        let mut schemas = boon::Schemas::new();
        let mut compiler = boon::Compiler::new();
        compiler.set_default_draft(boon::Draft::V7);
        compiler.add_resource(&url, json).expect("the schema loads");
        let index = compiler
            .compile(&url, &mut schemas)
            .unwrap_or_else(|e| panic!("{}: {e:#}", path.display()));
        Schema { schemas, index }
    }

    fn fixture(name: &str) -> Schema {
        Schema::load(
            &Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("tests/fixtures/every_eval_ever")
                .join(name),
        )
    }

    /// Why `value` does not validate, or `None`.
    fn refusal(&self, value: &Value) -> Option<String> {
        self.schemas
            .validate(value, self.index)
            .err()
            .map(|e| format!("{e}"))
    }
}

/// Validates every aggregate with `aggregate` and every row with `instance`.
fn validate_all(e: &Exported, aggregate: &Schema, instance: &Schema) {
    let models = files(e);
    assert_eq!(models.len(), 2, "the oracle and the random walker");
    for (model, log, samples) in &models {
        if let Some(why) = aggregate.refusal(log) {
            panic!("{model}'s aggregate: {why}");
        }
        let rows = rows(samples);
        assert!(!rows.is_empty(), "{model} has rows");
        for (i, row) in rows.iter().enumerate() {
            if let Some(why) = instance.refusal(row) {
                panic!("{model}'s row {}: {why}", i + 1);
            }
        }
    }
}

#[test]
fn an_oracle_and_random_run_validates_against_the_fixture_schemas() {
    let e = exported();
    validate_all(
        e,
        &Schema::fixture("aggregate.schema.json"),
        &Schema::fixture("instance.schema.json"),
    );
    assert_eq!(e.summary["format"], "every-eval-ever");
    assert_eq!(e.summary["schema_version"], "0.3.0");
    assert_eq!(e.summary["records"], 32);
    assert_eq!(e.summary["rescored"], 32);
    for (model, log, _) in files(e) {
        assert_eq!(log["model_info"]["id"], format!("shapemaze/{model}"));
        assert_eq!(
            log["source_metadata"]["additional_details"]["design"],
            "eee-test"
        );
        assert_eq!(log["evaluation_results"].as_array().map(Vec::len), Some(3));
    }
}

#[test]
fn the_fixture_schemas_refuse_a_file_that_breaks_them() {
    let e = exported();
    let aggregate = Schema::fixture("aggregate.schema.json");
    let instance = Schema::fixture("instance.schema.json");
    let (_, log, samples) = files(e).remove(0);
    let mut broken = log.clone();
    broken["source_metadata"]["evaluator_relationship"] = "self".into();
    assert!(aggregate.refusal(&broken).is_some(), "an enum");
    let mut broken = log.clone();
    broken["evaluation_results"][0]["score_details"]["details"]["scored"] = 3.into();
    assert!(aggregate.refusal(&broken).is_some(), "details are strings");
    let mut broken = log;
    broken["extra"] = true.into();
    assert!(
        aggregate.refusal(&broken).is_some(),
        "no field the schema lacks"
    );
    let mut row = rows(&samples).remove(0);
    row["output"] = serde_json::json!({"raw": ["x"]});
    assert!(instance.refusal(&row).is_some(), "multi_turn has no output");
}

/// `shapemaze report DIR --format json`'s pooled row of `model` (all encodings and shapes).
fn report_row<'a>(report: &'a Value, model: &str) -> &'a Value {
    report["pooled"]
        .as_array()
        .expect("pooled rows")
        .iter()
        .find(|r| r["model"] == model && r["encoding"] == "all" && r["shape"] == "all")
        .unwrap_or_else(|| panic!("a pooled row of {model}"))
}

#[test]
fn each_phase_s_rate_and_interval_are_shapemaze_report_s() {
    let e = exported();
    let report = shapemaze(&["report", path_str(&e.run), "--format", "json"]).json();
    let mut compared = 0;
    for (model, log, _) in files(e) {
        let row = report_row(&report, &model);
        for result in log["evaluation_results"].as_array().expect("results") {
            let phase = result["evaluation_result_id"]
                .as_str()
                .and_then(|id| id.strip_prefix("shapemaze."))
                .expect("a phase");
            let p = &row[phase];
            let s = &result["score_details"];
            let ci = &s["uncertainty"]["confidence_interval"];
            assert_eq!(s["score"].as_f64(), p["rate"].as_f64(), "{model} {phase}");
            assert_eq!(
                ci["lower"].as_f64(),
                p["ci_low"].as_f64(),
                "{model} {phase}"
            );
            assert_eq!(
                ci["upper"].as_f64(),
                p["ci_high"].as_f64(),
                "{model} {phase}"
            );
            assert_eq!(s["uncertainty"]["num_samples"], p["n"], "{model} {phase}");
            assert_eq!(
                s["details"]["successes"],
                p["successes"].to_string(),
                "{model} {phase}"
            );
            // The reading bounds, as extra fields beside the rate.
            for (extra, key) in [
                ("unsure", format!("{phase}_unsure")),
                ("score_if_unsure_wrong", format!("{phase}_if_unsure_wrong")),
                ("score_if_unsure_right", format!("{phase}_if_unsure_right")),
            ] {
                let got: f64 = s["details"][extra]
                    .as_str()
                    .and_then(|v| v.parse().ok())
                    .unwrap_or_else(|| panic!("{model} {phase}: {extra} is a number"));
                assert_eq!(Some(got), row[&key].as_f64(), "{model} {phase} {extra}");
            }
            compared += 1;
        }
        if model == "oracle" {
            assert_eq!(row["solve"]["rate"].as_f64(), Some(1.0));
        }
    }
    assert_eq!(compared, 6, "three phases of two players");
}

#[test]
fn the_rows_are_linked_to_their_aggregate() {
    use shapemaze_core::batch::provenance::sha256_hex;
    let e = exported();
    for (model, log, samples) in files(e) {
        let detailed = &log["detailed_evaluation_results"];
        let rows = rows(&samples);
        assert_eq!(detailed["total_rows"], rows.len(), "{model}");
        assert_eq!(detailed["checksum"], sha256_hex(&samples), "{model}");
        let path = detailed["file_path"].as_str().expect("a path");
        assert!(e.out.join(path).is_file(), "{path} is where it says");
        for row in &rows {
            assert_eq!(row["evaluation_id"], log["evaluation_id"]);
            assert_eq!(row["model_id"], log["model_info"]["id"]);
        }
        for result in log["evaluation_results"].as_array().expect("results") {
            let id = &result["evaluation_result_id"];
            let ended = rows
                .iter()
                .filter(|r| {
                    &r["evaluation_result_id"] == id
                        && r["answer_attribution"][0]["is_terminal"] == true
                })
                .count();
            assert_eq!(
                result["score_details"]["uncertainty"]["num_samples"], ended,
                "{model} {id}: one row ends each scored phase"
            );
        }
    }
}

#[test]
fn mistakes_are_explained_in_a_line_a_person_can_act_on() {
    let dir = scratch("mistakes");
    let missing = dir.join("nowhere");
    let r = shapemaze(&["export", "--format", "every-eval-ever", path_str(&missing)]);
    assert_eq!(r.code, 4, "{}", r.stderr);
    assert!(r.stderr.contains("give a run folder"), "{}", r.stderr);
    let r = shapemaze(&["export", "--format", "every-eval-ever", path_str(&dir)]);
    assert_eq!(r.code, 4, "{}", r.stderr);
    assert!(r.stderr.contains("has no trials.jsonl"), "{}", r.stderr);
    let e = exported();
    let empty = dir.join("empty");
    std::fs::create_dir_all(&empty).expect("a folder");
    std::fs::copy(e.run.join("experiment.json"), empty.join("experiment.json")).expect("copy");
    std::fs::write(empty.join("trials.jsonl"), "").expect("write");
    let r = shapemaze(&["export", "--format", "every-eval-ever", path_str(&empty)]);
    assert_eq!(r.code, 5, "{}", r.stderr);
    assert!(r.stderr.contains("holds no trial"), "{}", r.stderr);
    let r = shapemaze(&["export", "--format", "inspect", path_str(&e.run)]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr
            .contains("unknown --format 'inspect': choose every-eval-ever"),
        "{}",
        r.stderr
    );
    let help = shapemaze(&["help"]);
    assert!(help.stdout.contains("export"), "{}", help.stdout);
}

#[test]
fn a_study_s_people_beside_the_run_are_counted_as_left_out() {
    let e = exported();
    assert_eq!(e.summary["people_left_out"], 0, "none in the run itself");
    let dir = scratch("people-beside");
    for file in ["trials.jsonl", "experiment.json"] {
        std::fs::copy(e.run.join(file), dir.join(file)).expect("copied");
    }
    // Eight people's trials (tests/fixtures/people-vs-models) beside the run.
    let study = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/people-vs-models/study-data.jsonl");
    std::fs::copy(&study, dir.join("study-data.jsonl")).expect("the study's data");
    let ran = shapemaze(&[
        "export",
        "--format",
        "every-eval-ever",
        path_str(&dir),
        "--out",
        path_str(&dir.join("eee")),
    ]);
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    assert_eq!(ran.json()["people_left_out"], 8);
    assert!(
        ran.stderr
            .contains("left out 8 people's trials of study-data.jsonl beside the run"),
        "{}",
        ran.stderr
    );
}

#[test]
fn the_default_out_is_inside_the_run_and_a_second_export_rewrites_the_same_files() {
    let e = exported();
    let first = shapemaze(&["export", "--format", "every-eval-ever", path_str(&e.run)]).json();
    let again = shapemaze(&["export", "--format", "every-eval-ever", path_str(&e.run)]).json();
    assert_eq!(
        first["out"].as_str(),
        Some(path_str(&e.run.join("every-eval-ever")))
    );
    assert_eq!(first["models"], again["models"]);
    assert_eq!(first["models"], e.summary["models"], "named by the run");
}

#[test]
fn the_export_validates_against_the_published_schemas() {
    let Some(dir) = std::env::var_os("SHAPEMAZE_EEE_SCHEMAS").map(PathBuf::from) else {
        eprintln!(
            "skipped: set SHAPEMAZE_EEE_SCHEMAS to a folder holding Every Eval Ever's eval.schema.json and instance_level_eval.schema.json"
        );
        return;
    };
    let aggregate = Schema::load(&dir.join("eval.schema.json"));
    let instance = Schema::load(&dir.join("instance_level_eval.schema.json"));
    validate_all(exported(), &aggregate, &instance);
    eprintln!(
        "the export validates against the schemas in {}",
        dir.display()
    );
}
