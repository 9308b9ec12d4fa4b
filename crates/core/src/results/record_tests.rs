//! Trial records read by serde's derive: every kind of record written reads back the same,
//! an early record takes the defaults, and what is wrong is named with its place. (The
//! records of every format version: tests/golden_records.rs.)

use crate::json::JsonError;
use crate::maze::image::Vision;
use crate::maze::shape::{Shape, ShapeSet};
use crate::maze::symbols::Symbols;
use crate::model::effort::Effort;
use crate::model::price::Price;
use crate::model::reply::ReplyMeta;
use crate::model::reply::{EmptyReason, EndpointInfo, FailedAttempt, TokenLogprob};
use crate::play::player::tests::trials;
use crate::play::player::PlayerKind;
use crate::play::player::{play_ready, Oracle, RandomWalker, Scripted, VARIANTS};
use crate::play::staircase::StairStep;
use crate::play::transcript::Role;
use crate::play::trial::{ApiFailure, Protocol};
use crate::results::record::{PlayerInfo, RecordError};
use crate::results::record::{RecordMessage, TrialRecord};
use crate::verify::Extracted;
use serde_json::json;
use serde_json::Value;

fn record(v: &Value) -> Result<TrialRecord, JsonError> {
    crate::json::from_str(&v.to_string())
}

fn back(r: &TrialRecord) -> TrialRecord {
    TrialRecord::from_json(&r.to_json().expect("writes")).expect("reads back")
}

/// Records of every protocol and player kind, with every optional field filled in
/// some of them.
fn corpus() -> Vec<TrialRecord> {
    let mut out = Vec::new();
    for protocol in Protocol::ALL {
        for (i, mut t) in trials(protocol).into_iter().enumerate().step_by(7) {
            match i % 3 {
                0 => play_ready(&mut t, &mut Oracle),
                1 => play_ready(&mut t, &mut RandomWalker::new(i as u64)),
                _ => {
                    let other = t.setup().maze.clone();
                    play_ready(&mut t, &mut Scripted::variant(i % VARIANTS, other))
                }
            }
            let mut r = TrialRecord::of(
                &t,
                PlayerInfo::builtin(PlayerKind::Random),
                Default::default(),
                Some(1.5),
                None,
            );
            if i % 2 == 0 {
                r.endpoint = Some(EndpointInfo {
                    preset: "openai".into(),
                    base_url: "http://127.0.0.1:9/v1".into(),
                    model: "qwen".into(),
                    temperature: 0.7,
                    top_p: 1.0,
                    max_tokens: 512,
                    seed: Some(7),
                    stream: true,
                    logprobs: true,
                    thinking: i % 4 == 0,
                    effort: Some(Effort::ALL[i % Effort::ALL.len()]),
                    extra: "{\"enable_thinking\": false}".into(),
                    price: Some(Price {
                        input: 0.4,
                        output: 1.2,
                        reasoning: (i % 4 == 0).then_some(4.0),
                    }),
                });
                r.staircase = Some(StairStep {
                    step: i,
                    level: i % 5,
                    walk: i as u64 % 3,
                });
                r.shapes = ShapeSet::with(&[Shape::U, Shape::N]);
                r.vision = Vision::ALL[i % 3];
                r.system_prompt = Some("Be brief.".into());
                r.api_error = (i % 4 == 0).then(|| ApiFailure {
                    kind: "rate_limited".into(),
                    message: "429".into(),
                    attempts: 6,
                });
                r.stopped = i % 8 == 0;
                r.lenient = 2;
                r.retried_moves = 1;
                if let Some(m) = r.messages.iter_mut().find(|m| m.role == Role::Assistant) {
                    *m = RecordMessage::new(
                        m.role,
                        m.content.clone(),
                        ReplyMeta {
                            latency_ms: Some(812.25),
                            prompt_tokens: Some(120),
                            completion_tokens: Some(9),
                            reasoning_tokens: Some(3),
                            total_tokens: Some(129),
                            finish_reason: Some("stop".into()),
                            reasoning: Some("Down is open.".into()),
                            logprobs: Some(vec![TokenLogprob {
                                token: "(".into(),
                                logprob: -0.25,
                                top_logprobs: vec![
                                    TokenLogprob {
                                        token: "(".into(),
                                        logprob: -0.25,
                                        top_logprobs: Vec::new(),
                                    },
                                    TokenLogprob {
                                        token: "[".into(),
                                        logprob: -1.5,
                                        top_logprobs: Vec::new(),
                                    },
                                ],
                            }]),
                            attempts: Some(2),
                            streamed: Some(false),
                            empty_reason: Some(EmptyReason::ALL[i % 3]),
                            max_tokens: Some(512),
                            retried: vec![FailedAttempt {
                                attempt: 1,
                                at_ms: 10.5,
                                error: "HTTP 429".into(),
                                wait_ms: 2000,
                            }],
                            served_model: Some("qwen3-8b-2026-04-01".into()),
                            system_fingerprint: Some("fp_1".into()),
                        },
                        m.verdict.clone(),
                    );
                }
            }
            out.push(r);
        }
    }
    out
}

#[test]
fn every_kind_of_record_written_reads_back_the_same() {
    let corpus = corpus();
    assert!(corpus.len() >= 30, "{}", corpus.len());
    let extracted = |r: &TrialRecord, want: fn(&Extracted) -> bool| {
        r.messages
            .iter()
            .filter_map(|m| m.verdict.as_ref())
            .any(|v| want(&v.extracted))
    };
    // The corpus holds every form of what a verdict extracted.
    for want in [
        (|e: &Extracted| matches!(e, Extracted::Nothing)) as fn(&Extracted) -> bool,
        |e| matches!(e, Extracted::Cell(_)),
        |e| matches!(e, Extracted::Cells(_)),
        |e| matches!(e, Extracted::Shape(_)),
        |e| matches!(e, Extracted::Grid(_)),
    ] {
        assert!(corpus.iter().any(|r| extracted(r, want)));
    }
    assert!(corpus.iter().any(|r| r
        .verdicts
        .generate
        .as_ref()
        .is_some_and(|v| v.checks.is_some())));
    for r in &corpus {
        assert_eq!(&back(r), r);
        // Inside another type, through serde (a study's trial data).
        let wrapped = json!({ "record": r });
        #[derive(serde::Deserialize)]
        struct Holder {
            record: TrialRecord,
        }
        let h: Holder = serde_json::from_value(wrapped).expect("reads inside");
        assert_eq!(&h.record, r);
    }
}

/// A record as an early version wrote it: no repeat, protocol, symbols, shapes,
/// vision, lenient, stopped or staircase, and `null` where a value is optional.
fn early() -> Value {
    let mut t = trials(Protocol::Stepwise).remove(0);
    play_ready(&mut t, &mut Oracle);
    let r = TrialRecord::of(
        &t,
        PlayerInfo::builtin(PlayerKind::Oracle),
        Default::default(),
        None,
        None,
    );
    let mut v = serde_json::to_value(&r).expect("a value");
    let o = v.as_object_mut().expect("an object");
    for k in [
        "repeat",
        "protocol",
        "stopped",
        "started_ms",
        "ended_ms",
        "lenient",
    ] {
        o.remove(k);
    }
    o.insert("system_prompt".into(), Value::Null);
    o.insert("unknown_later_field".into(), json!({"kept": "ignored"}));
    v
}

#[test]
fn an_early_record_reads_with_the_defaults() {
    let r = record(&early()).expect("reads");
    assert_eq!(r.repeat, 0);
    assert_eq!(r.protocol, Protocol::Stepwise);
    assert!(!r.stopped);
    assert_eq!(r.system_prompt, None);
    assert_eq!(r.symbols, Symbols::STANDARD);
    assert_eq!(r.vision, Vision::Text);
    assert_eq!(r.shapes, ShapeSet::STANDARD);
    assert_eq!(r.staircase, None);
    assert!(r.verdicts.solve.is_some());
}

#[test]
fn a_record_that_is_not_one_is_refused_naming_the_field_and_its_place() {
    type Break = Box<dyn Fn(&mut Value)>;
    let cases: Vec<(Break, &str)> = vec![
        (
            Box::new(|v| drop(v.as_object_mut().map(|o| o.remove("model")))),
            "missing field `model`",
        ),
        (
            Box::new(|v| v["size"] = json!("five")),
            "field `size`: invalid type: string \"five\", expected usize",
        ),
        (
            Box::new(|v| v["size"] = json!(-5)),
            "field `size`: invalid value: integer `-5`, expected usize",
        ),
        (
            Box::new(|v| v["shape"] = json!("hexagon")),
            "field `shape`: unknown variant `hexagon`, expected one of `square`",
        ),
        (
            Box::new(|v| v["messages"][1]["role"] = json!("system")),
            "field `messages[1].role`: unknown variant `system`, expected `user` or `assistant`",
        ),
        (
            Box::new(|v| v["messages"][1]["verdict"]["reason"] = json!("lucky")),
            "field `messages[1].verdict.reason`: unknown variant `lucky`, expected one of `valid_move`",
        ),
        (
            Box::new(|v| v["messages"][1]["latency_ms"] = json!("soon")),
            "field `messages[1].latency_ms`: invalid type: string \"soon\", expected f64",
        ),
        (
            Box::new(|v| v["messages"][1]["logprobs"] = json!([{"token": "("}])),
            "missing field `messages[1].logprobs[0].logprob`",
        ),
        (
            Box::new(|v| v["verdicts"]["solve"]["extracted"] = json!([[1, 2, 3]])),
            "field `verdicts.solve.extracted[0]`: a cell must be a [row, col] pair",
        ),
        (
            Box::new(|v| v["versions"] = json!({"shapemaze": "0.1", "prompt": 2})),
            "missing field `versions.verifier`",
        ),
        (
            Box::new(|v| v["staircase"] = json!({"step": 1})),
            "missing field `staircase.level`",
        ),
        (
            Box::new(|v| v["symbols"] = json!("@@@@")),
            "field `symbols`: the matrix symbols '@@@@' are not four different characters",
        ),
        (
            Box::new(|v| v["messages"][1]["form"] = json!({"mode": "schema"})),
            "missing field `messages[1].form.form`",
        ),
        (
            Box::new(|v| v["answer_mode_in_effect"] = json!({"solve": {"mode": "grammar"}})),
            "field `answer_mode_in_effect`: unknown variant `grammar`",
        ),
        (
            Box::new(|v| v["messages"] = json!({})),
            "field `messages`: invalid type: map, expected a sequence",
        ),
        (
            Box::new(|v| *v = json!([1, 2])),
            "field `[0]`: expected value at line 1 column 2",
        ),
    ];
    for (break_it, needle) in cases {
        let mut v = early();
        break_it(&mut v);
        let e = record(&v).expect_err(needle).to_string();
        assert!(e.contains(needle), "{needle}: {e}");
        let text = v.to_string();
        let e = TrialRecord::from_json(&text).expect_err(needle);
        assert!(
            matches!(&e, RecordError::NotARecord(m) if m.to_string().contains(needle)),
            "{needle}: {e}"
        );
        assert!(e.to_string().starts_with("not a trial record: "), "{e}");
    }
}
