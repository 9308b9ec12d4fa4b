//! Reading a participant's trial ([`StudyTrialData`]) from its JSON through
//! `serde_json::Value` and the record reader's field accessors
//! ([`crate::core::results::read`]), instead of serde's derived visitors: the browser
//! build is smaller by the visitors of the trial data, its action log and its signs of
//! help (docs/size.md).
//!
//! The rules are serde's for these types, as the derive read them: a missing field with a
//! default takes it, a missing `Option` or `null` is `None`, a missing required field or a
//! value of the wrong type is an error naming the field and its place
//! (`log.actions[3].t_ms`, `record: field messages[1].content`), unknown fields are
//! ignored. The data is written by serde's `Serialize`; the tests read back every field.

use super::session::{ConsentRecord, SessionEvent};
use super::{Action, ActionLog, HelpSignals, Participant, StudyTrialData};
use crate::core::results::read::{record, Obj, Read};
use serde_json::Value;

/// Each object of list field `k`, read by `read` with its place (`k[i]`).
fn each<T>(o: &Obj<'_>, k: &str, read: impl Fn(&Obj<'_>) -> Read<T>) -> Read<Vec<T>> {
    o.list_or_empty(k)?
        .iter()
        .enumerate()
        .map(|(i, v)| read(&Obj::of(v, format!("{}[{i}]", o.name(k)))?))
        .collect()
}

/// Reads one participant's trial from its JSON value (see the module documentation).
pub(crate) fn study_trial_data(v: &Value) -> Read<StudyTrialData> {
    let o = Obj::of(v, String::new())?;
    let p = o.obj("participant", o.req("participant")?)?;
    let log = o.obj("log", o.req("log")?)?;
    // `log.actions` is required, as the derive had it.
    log.list("actions")?;
    Ok(StudyTrialData {
        study: o.string("study")?,
        participant: Participant {
            id: p.string("id")?,
            study_id: p.opt_string("study_id")?,
            session_id: p.opt_string("session_id")?,
            order: p.u64("order")?,
        },
        trial_index: o
            .req("trial_index")?
            .as_i64()
            .ok_or_else(|| o.wrong("trial_index", "a whole number"))?,
        practice: o.bool("practice")?,
        record: record(o.req("record")?).map_err(|e| format!("record: {e}"))?,
        log: ActionLog {
            actions: each(&log, "actions", |a| {
                Ok(Action {
                    kind: a.string("kind")?,
                    phase: a.string("phase")?,
                    detail: a.or("detail", String::new(), Obj::string)?,
                    t_ms: a.f64("t_ms")?,
                    dt_ms: a.f64("dt_ms")?,
                })
            })?,
        },
        window: o.or("window", String::new(), Obj::string)?,
        consent: o.opt_obj("consent", |c| {
            Ok(ConsentRecord {
                at_ms: c.f64("at_ms")?,
                study_version: c.string("study_version")?,
                text_hash: c.string("text_hash")?,
            })
        })?,
        signals: o.or("signals", HelpSignals::default(), |o, k| {
            let s = o.obj(k, o.req(k)?)?;
            Ok(HelpSignals {
                pastes: s.usize("pastes")?,
                tab_leaves: s.usize("tab_leaves")?,
                away_ms: s.f64("away_ms")?,
                answer_chars_per_s: s.opt_f64("answer_chars_per_s")?,
            })
        })?,
        attempt: o.or("attempt", 0, Obj::u32)?,
        session_events: each(&o, "session_events", |e| {
            Ok(SessionEvent {
                at_ms: e.f64("at_ms")?,
                kind: e.string("kind")?,
                detail: e.or("detail", String::new(), Obj::string)?,
            })
        })?,
    })
}

#[cfg(test)]
mod tests {
    use super::study_trial_data;
    use crate::core::study::session::SessionEvent;
    use crate::core::study::tests::data;
    use crate::core::study::{HelpSignals, Participant, StudyTrialData};
    use serde_json::{json, Value};

    /// A change to a JSON value.
    type Change = Box<dyn Fn(&mut Value)>;

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
                "field `trial_index`: expected a whole number",
            ),
            (
                Box::new(|v| v["log"]["actions"][1]["t_ms"] = json!("soon")),
                "field `log.actions[1].t_ms`: expected a number",
            ),
            (
                Box::new(|v| {
                    v["log"].as_object_mut().map(|o| o.remove("actions"));
                }),
                "missing field `log.actions`",
            ),
            (
                Box::new(|v| v["record"]["messages"][1]["content"] = json!(7)),
                "record: field `messages[1].content`: expected a string",
            ),
            (
                Box::new(|v| v["signals"] = json!({"pastes": 1})),
                "missing field `signals.tab_leaves`",
            ),
            (
                Box::new(|v| v["participant"]["order"] = json!(-1)),
                "field `participant.order`: expected a whole number",
            ),
        ];
        for (change, said) in cases {
            let mut v = value(&data());
            change(&mut v);
            let err = study_trial_data(&v).expect_err("refused");
            assert!(err.contains(said), "{said}: {err}");
        }
    }
}
