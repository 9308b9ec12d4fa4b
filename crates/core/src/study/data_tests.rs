//! A participant's trial data read by serde's derive: every field written reads back, data
//! from before the later fields takes their defaults, and what is wrong is named with its
//! place.

use crate::json::JsonError;
use crate::study::session::SessionEvent;
use crate::study::test_support::data;
use crate::study::{HelpSignals, Participant, StudyTrialData};
use serde_json::{json, Value};

/// A change to a JSON value.
type Change = Box<dyn Fn(&mut Value)>;

fn study_trial_data(v: &Value) -> Result<StudyTrialData, JsonError> {
    crate::json::from_str(&v.to_string())
}

fn value(d: &StudyTrialData) -> Value {
    serde_json::to_value(d).expect("writes")
}

#[test]
fn every_field_written_reads_back() {
    let mut d = data();
    assert_eq!(study_trial_data(&value(&d)).expect("reads"), d);
    d.participant = Participant {
        id: "5f1".into(),
        study_id: Some("s".into()),
        session_id: Some("x".into()),
        order: 3,
        order_given: false,
    };
    d.trial_index = -1;
    d.practice = true;
    d.signals = HelpSignals {
        pastes: 2,
        tab_leaves: 1,
        away_ms: 1500.5,
        answer_chars_per_s: Some(14.25),
    };
    d.attempt = 2;
    d.session_events = vec![
        SessionEvent {
            at_ms: 1.0,
            kind: "restarted".into(),
            detail: "after 130 minutes".into(),
        },
        SessionEvent {
            at_ms: 2.0,
            kind: "resumed".into(),
            detail: String::new(),
        },
    ];
    assert_eq!(study_trial_data(&value(&d)).expect("reads"), d);
    // Through serde, as the pages and the upload body read it.
    let line = serde_json::to_string(&d).expect("writes");
    assert_eq!(
        serde_json::from_str::<StudyTrialData>(&line).expect("reads"),
        d
    );
}

#[test]
fn data_from_before_the_later_fields_takes_their_defaults() {
    let d = data();
    let mut v = value(&d);
    let o = v.as_object_mut().expect("an object");
    for k in ["window", "consent", "signals", "attempt", "session_events"] {
        o.remove(k);
    }
    o["log"]["actions"][0]
        .as_object_mut()
        .map(|a| a.remove("detail"));
    let back = study_trial_data(&v).expect("reads");
    assert_eq!(back.window, "");
    assert_eq!(back.consent, None);
    assert_eq!(back.signals, HelpSignals::default());
    assert_eq!((back.attempt, back.session_events.len()), (0, 0));
    assert_eq!(back.log.actions[0].detail, "");
    assert_eq!(back.record, d.record);
}

#[test]
fn what_is_wrong_is_named_with_its_place() {
    let cases: Vec<(Change, &str)> = vec![
        (
            Box::new(|v| {
                v.as_object_mut().map(|o| o.remove("study"));
            }),
            "missing field `study`",
        ),
        (
            Box::new(|v| v["trial_index"] = json!(0.5)),
            "field `trial_index`: invalid type: floating point `0.5`, expected i64",
        ),
        (
            Box::new(|v| v["log"]["actions"][1]["t_ms"] = json!("soon")),
            "field `log.actions[1].t_ms`: invalid type: string \"soon\", expected f64",
        ),
        (
            Box::new(|v| {
                v["log"].as_object_mut().map(|o| o.remove("actions"));
            }),
            "missing field `log.actions`",
        ),
        (
            Box::new(|v| v["record"]["messages"][1]["content"] = json!(7)),
            "field `record.messages[1].content`: invalid type: integer `7`, expected a string",
        ),
        (
            Box::new(|v| v["signals"] = json!({"pastes": 1})),
            "missing field `signals.tab_leaves`",
        ),
        (
            Box::new(|v| v["participant"]["order"] = json!(-1)),
            "field `participant.order`: invalid value: integer `-1`, expected u64",
        ),
    ];
    for (change, said) in cases {
        let mut v = value(&data());
        change(&mut v);
        let err = study_trial_data(&v).expect_err("refused").to_string();
        assert!(err.contains(said), "{said}: {err}");
    }
}
