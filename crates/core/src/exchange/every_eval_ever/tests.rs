//! The Every Eval Ever export of played trials: what each file holds, that the instance
//! rows add up to the aggregate's rates, and that the export is the same every time.

use super::*;
use crate::batch::design::ExperimentDesign;
use crate::play::player::tests::trials;
use crate::play::player::{play_ready, Oracle, RandomWalker};
use crate::play::transcript::Role;
use crate::play::trial::{ApiFailure, Protocol};
use crate::results::record::{Placement, PlayerInfo};
use crate::verify::Extracted;
use serde_json::Value;

/// Records of the oracle and the random walker on the first `n` trials of `protocol`.
fn played(protocol: Protocol, n: usize) -> Vec<TrialRecord> {
    let mut out = Vec::new();
    for kind in [PlayerKind::Oracle, PlayerKind::Random] {
        for (i, mut t) in trials(protocol).into_iter().take(n).enumerate() {
            match kind {
                PlayerKind::Oracle => play_ready(&mut t, &mut Oracle),
                _ => play_ready(&mut t, &mut RandomWalker::new(i as u64)),
            }
            let placement = Placement {
                seed: 7,
                sample: i,
                repeat: 0,
            };
            let start = 1_790_000_000_000.0 + i as f64 * 1000.0;
            out.push(TrialRecord::of(
                &t,
                PlayerInfo::builtin(kind),
                placement,
                Some(start),
                Some(start + 500.0),
            ));
        }
    }
    out
}

fn export(records: &[TrialRecord]) -> EveryEvalEver {
    let provenance =
        Provenance::of(&ExperimentDesign::default(), records, "a test").expect("provenance");
    export_files(&provenance, records, 1_800_000_000_000.0).expect("exports")
}

fn json(file: &ExportFile) -> Value {
    serde_json::from_slice(&file.bytes).expect("JSON")
}

fn lines(file: &ExportFile) -> Vec<Value> {
    std::str::from_utf8(&file.bytes)
        .expect("text")
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}

fn file<'a>(e: &'a EveryEvalEver, path: &str) -> &'a ExportFile {
    e.files.iter().find(|f| f.path == path).expect("the file")
}

#[test]
fn each_model_gets_an_aggregate_and_its_rows_in_the_datastore_s_layout() {
    let e = export(&played(Protocol::Stepwise, 6));
    assert_eq!(e.models.len(), 2);
    assert_eq!(e.files.len(), 4);
    for m in &e.models {
        let samples = m.samples.as_deref().expect("replies");
        let uuid = m
            .aggregate
            .rsplit('/')
            .next()
            .and_then(|n| n.strip_suffix(".json"))
            .expect("a uuid");
        assert_eq!(samples, m.aggregate.replace(".json", "_samples.jsonl"));
        assert!(
            m.aggregate
                .starts_with(&format!("data/shapemaze/shapemaze/{}/", m.model)),
            "{}",
            m.aggregate
        );
        assert_eq!(uuid.len(), 36);
        let log = json(file(&e, &m.aggregate));
        assert_eq!(log["schema_version"], "0.3.0");
        assert_eq!(log["evaluation_id"], m.evaluation_id.as_str());
        assert_eq!(log["model_info"]["id"], format!("shapemaze/{}", m.model));
        assert_eq!(
            log["source_metadata"]["evaluator_relationship"],
            "first_party"
        );
        let detailed = &log["detailed_evaluation_results"];
        let rows = file(&e, samples);
        assert_eq!(detailed["file_path"], samples);
        assert_eq!(
            detailed["checksum"],
            sha256_hex(std::str::from_utf8(&rows.bytes).expect("text"))
        );
        assert_eq!(detailed["total_rows"], lines(rows).len());
        for row in lines(rows) {
            assert_eq!(row["evaluation_id"], log["evaluation_id"]);
            assert_eq!(row["model_id"], log["model_info"]["id"]);
            assert_eq!(row["interaction_type"], "multi_turn");
            assert!(row["output"].is_null());
        }
    }
    let oracle = json(file(&e, &e.models[0].aggregate));
    let scores: Vec<f64> = oracle["evaluation_results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|r| r["score_details"]["score"].as_f64().expect("a score"))
        .collect();
    assert_eq!(
        scores,
        [1.0, 1.0, 1.0],
        "the oracle succeeds in every phase"
    );
}

#[test]
fn the_rows_that_end_a_phase_add_up_to_the_aggregate_s_rate() {
    for protocol in Protocol::ALL {
        let records = played(protocol, 12);
        let e = export(&records);
        for m in &e.models {
            let log = json(file(&e, &m.aggregate));
            let rows = lines(file(&e, m.samples.as_deref().expect("replies")));
            for result in log["evaluation_results"].as_array().expect("results") {
                let id = &result["evaluation_result_id"];
                let ended: Vec<&Value> = rows
                    .iter()
                    .filter(|r| {
                        &r["evaluation_result_id"] == id
                            && r["answer_attribution"][0]["is_terminal"] == true
                    })
                    .collect();
                let correct = ended
                    .iter()
                    .filter(|r| r["evaluation"]["is_correct"] == true)
                    .count();
                let details = &result["score_details"];
                assert_eq!(
                    details["uncertainty"]["num_samples"],
                    ended.len(),
                    "{protocol:?} {} {id}",
                    m.model
                );
                assert_eq!(details["details"]["successes"], correct.to_string());
                let score = details["score"].as_f64().expect("a score");
                assert!((score - correct as f64 / ended.len() as f64).abs() < 1e-12);
                let ci = &details["uncertainty"]["confidence_interval"];
                assert!(ci["lower"].as_f64() <= Some(score) && Some(score) <= ci["upper"].as_f64());
            }
        }
    }
}

#[test]
fn every_reply_is_a_row_with_its_prompt_its_reading_and_its_verdict() {
    let records = played(Protocol::Stepwise, 3);
    let e = export(&records);
    let rows = lines(file(&e, e.models[0].samples.as_deref().expect("replies")));
    let oracle: Vec<&TrialRecord> = records
        .iter()
        .filter(|r| r.player == PlayerKind::Oracle)
        .collect();
    let replies: usize = oracle
        .iter()
        .map(|r| {
            r.messages
                .iter()
                .filter(|m| m.role == Role::Assistant)
                .count()
        })
        .sum();
    assert_eq!(rows.len(), replies, "one row per reply (stepwise)");
    let first = &rows[0];
    let record = oracle[0];
    assert_eq!(
        first["sample_id"].as_str().map(|s| s.ends_with("/solve/0")),
        Some(true)
    );
    assert_eq!(first["input"]["raw"], record.messages[0].content.as_str());
    let messages = first["messages"].as_array().expect("messages");
    assert_eq!(messages.len(), 2);
    assert_eq!(
        (messages[0]["turn_idx"].as_u64(), &messages[0]["role"]),
        (Some(0), &Value::from("user"))
    );
    assert_eq!(messages[1]["content"], record.messages[1].content.as_str());
    let read = &first["answer_attribution"][0];
    assert_eq!(read["source"], "messages[1].content");
    assert_eq!(read["turn_idx"], 1);
    let verdict = record.messages[1].verdict.as_ref().expect("a verdict");
    let Extracted::Cell(cell) = verdict.extracted else {
        panic!("a move is read as a cell");
    };
    assert_eq!(read["extracted_value"], cell.to_string());
    let rule = verdict.rule.expect("the reader's rule").name();
    assert_eq!(
        read["extraction_method"],
        format!("shapemaze_reader.{rule}")
    );
    assert_eq!(first["metadata"]["rule"], rule);
    assert_eq!(first["metadata"]["sure"], "true");
    assert_eq!(first["metadata"]["trial"], "oracle/matrix/5x5/square/0/0");
    assert_eq!(first["metadata"]["reply_outcome"], "success");
    let recognize = rows
        .iter()
        .find(|r| r["evaluation_result_id"] == "shapemaze.recognize")
        .expect("a recognition row");
    assert_eq!(recognize["input"]["reference"][0], record.shape.name());
    assert_eq!(
        recognize["answer_attribution"][0]["extracted_value"],
        record.shape.name()
    );
    assert_eq!(recognize["metadata"]["phase_outcome"], "success");
}

#[test]
fn a_combined_reply_is_a_row_for_each_phase_it_answers() {
    let records = played(Protocol::Combined, 1);
    let e = export(&records);
    let rows = lines(file(&e, e.models[0].samples.as_deref().expect("replies")));
    let last_two: Vec<&Value> = rows.iter().rev().take(2).collect();
    assert_eq!(last_two[0]["evaluation_result_id"], "shapemaze.generate");
    assert_eq!(last_two[1]["evaluation_result_id"], "shapemaze.recognize");
    assert_eq!(last_two[0]["messages"], last_two[1]["messages"]);
    assert_eq!(
        last_two[1]["answer_attribution"][0]["extracted_value"],
        "square"
    );
}

#[test]
fn api_errors_and_people_are_left_out_and_nothing_else_is() {
    let mut records = played(Protocol::Stepwise, 4);
    // The random walker's first trial ends on an API error after its first move.
    let i = records
        .iter()
        .position(|r| r.player == PlayerKind::Random)
        .expect("a random trial");
    let mut t = trials(Protocol::Stepwise).remove(0);
    t.submit(&Oracle::answer(&t).expect("a move to make"));
    t.fail_api(ApiFailure {
        kind: "network".into(),
        message: "the network failed".into(),
        attempts: 3,
    });
    records[i] = TrialRecord::of(
        &t,
        PlayerInfo::builtin(PlayerKind::Random),
        Placement::default(),
        None,
        None,
    );
    let mut person = records[0].clone();
    person.player = PlayerKind::Human;
    person.model = "human".into();
    records.push(person.clone());
    let e = export(&records);
    assert_eq!(e.people_left_out, 1);
    assert_eq!(e.models.len(), 2, "no file for people");
    let random = &e.models[1];
    let log = json(file(&e, &random.aggregate));
    let rows = lines(file(&e, random.samples.as_deref().expect("replies")));
    assert_eq!(random.trials, 4);
    let solve = &log["evaluation_results"][0]["score_details"];
    assert_eq!(solve["details"]["trials_with_api_errors"], "1");
    assert_eq!(
        solve["uncertainty"]["num_samples"], 3,
        "the API error is not scored"
    );
    let failed: Vec<&Value> = rows
        .iter()
        .filter(|r| r["metadata"]["trial"] == "random/matrix/5x5/square/0/0")
        .collect();
    assert_eq!(failed.len(), 1, "its one reply is a row");
    assert_eq!(failed[0]["answer_attribution"][0]["is_terminal"], false);
    let only_people = vec![person];
    let provenance =
        Provenance::of(&ExperimentDesign::default(), &only_people, "a test").expect("provenance");
    assert_eq!(
        export_files(&provenance, &only_people, 0.0),
        Err(ExchangeError::NoTrials)
    );
}

#[test]
fn the_same_run_exported_twice_gives_the_same_files() {
    let records = played(Protocol::SingleShot, 4);
    let a = export(&records);
    assert_eq!(a, export(&records));
    let provenance =
        Provenance::of(&ExperimentDesign::default(), &records, "a test").expect("provenance");
    let later = export_files(&provenance, &records, 1_900_000_000_000.0).expect("exports");
    assert_eq!(
        later.models, a.models,
        "the files are named by the run, not by when they were made"
    );
}

#[test]
fn a_model_s_settings_system_prompt_tokens_and_reasoning_are_kept() {
    use crate::model::preset::Preset;
    use crate::model::reply::EndpointInfo;
    use crate::model::settings::EndpointSettings;
    let mut records = played(Protocol::Stepwise, 2);
    records.retain(|r| r.player == PlayerKind::Oracle);
    for r in &mut records {
        r.player = PlayerKind::Endpoint;
        r.model = "local-qwen".into();
        r.system_prompt = Some("Answer briefly.".into());
        r.endpoint = Some(EndpointInfo::from(&EndpointSettings {
            model: "qwen2.5:7b".into(),
            temperature: 0.7,
            top_p: 0.9,
            max_tokens: 512,
            seed: Some(3),
            ..EndpointSettings::for_preset(Preset::Ollama)
        }));
        for m in r.messages.iter_mut().filter(|m| m.role == Role::Assistant) {
            m.meta.latency_ms = Some(250.0);
            m.meta.prompt_tokens = Some(100);
            m.meta.completion_tokens = Some(20);
            m.meta.reasoning = Some("I look at the maze.".into());
            m.meta.served_model = Some("qwen2.5:7b-instruct".into());
        }
    }
    let e = export(&records);
    let m = &e.models[0];
    assert!(
        m.aggregate.starts_with("data/shapemaze/ollama/qwen2.5_7b/"),
        "no developer in the name: the preset's folder; {}",
        m.aggregate
    );
    let log = json(file(&e, &m.aggregate));
    let info = &log["model_info"];
    assert_eq!(
        (&info["id"], &info["name"]),
        (&Value::from("qwen2.5:7b"), &Value::from("local-qwen"))
    );
    assert!(info.get("developer").is_none(), "not recorded, not guessed");
    assert_eq!(info["inference_engine"]["name"], "Ollama");
    assert_eq!(
        info["additional_details"]["deployment_type"],
        "self_deployed"
    );
    assert_eq!(
        info["additional_details"]["served_models"],
        "qwen2.5:7b-instruct"
    );
    assert_eq!(
        log["source_metadata"]["evaluator_relationship"],
        "third_party"
    );
    let config = &log["evaluation_results"][0]["generation_config"];
    assert_eq!(config["generation_args"]["temperature"], 0.7);
    assert_eq!(config["generation_args"]["max_tokens"], 512);
    assert_eq!(config["generation_args"]["reasoning"], false);
    assert_eq!(config["additional_details"]["seed"], "3");
    assert_eq!(
        config["additional_details"]["system_prompt"],
        "Answer briefly."
    );
    let rows = lines(file(&e, m.samples.as_deref().expect("replies")));
    let first = &rows[0];
    let messages = first["messages"].as_array().expect("messages");
    assert_eq!(messages[0]["role"], "system");
    assert_eq!(messages[0]["turn_idx"], 0);
    assert_eq!(
        messages[2]["turn_idx"], 2,
        "the reply after the system prompt"
    );
    assert_eq!(messages[2]["reasoning_trace"], "I look at the maze.");
    assert_eq!(first["answer_attribution"][0]["turn_idx"], 2);
    assert_eq!(
        first["answer_attribution"][0]["source"],
        "messages[2].content"
    );
    assert_eq!(first["token_usage"]["total_tokens"], 120);
    assert_eq!(first["performance"]["latency_ms"], 250.0);
    assert_eq!(first["metadata"]["served_model"], "qwen2.5:7b-instruct");
}
