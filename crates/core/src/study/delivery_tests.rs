//! Study data that never goes missing: the upload queue's rules, the reconcile of outcomes
//! against trials received, and a staircase level that outlasts its maze set.

use super::reconcile::{reconcile, reconcile_csv, Reconciled};
use super::stairs::in_blocks;
use super::test_support::data;
use super::*;
use crate::maze::generate::{distinct_mazes, generate_one};
use crate::maze::shape::Shape;
use crate::maze::templates::TemplateLibrary;

/// An entry as the store lists it: a key (read from its text) and the stored text.
fn entry(key: &str, value: &str) -> (StudyKey, String) {
    (
        StudyKey::parse(key).expect("a study key"),
        value.to_string(),
    )
}

#[test]
fn a_trial_is_pending_until_the_server_acknowledged_its_very_copy() {
    let a = "pilot/p1/trial/0";
    let b = "pilot/p1/attempt-1/trial/-1";
    let sent = |k: &str| entry(k, "").0.sent().map(|s| s.render());
    assert_eq!(sent(a).as_deref(), Some("pilot/p1/sent/0"));
    assert_eq!(sent(b).as_deref(), Some("pilot/p1/attempt-1/sent/-1"));
    assert_eq!(sent("pilot/p1/session"), None);
    let mut entries = vec![
        entry("pilot/p1/session", "{}"),
        entry(a, r#"{"v":1}"#),
        entry(b, r#"{"v":2}"#),
    ];
    let keys = |e: &[(StudyKey, String)]| -> Vec<String> {
        pending(e).iter().map(|(k, _)| k.render()).collect()
    };
    assert_eq!(
        keys(&entries),
        [a, b],
        "nothing sent yet: both trials, no session"
    );
    entries.push(entry("pilot/p1/sent/0", &content_hash(r#"{"v":1}"#)));
    assert_eq!(keys(&entries), [b], "trial 0 acknowledged");
    // Trial 0 changed after it was sent (an action logged on the "done" page): it goes again.
    entries[1].1 = r#"{"v":1,"more":true}"#.to_string();
    assert_eq!(keys(&entries), [a, b]);
    entries.push(entry(
        "pilot/p1/attempt-1/sent/-1",
        &content_hash(r#"{"v":2}"#),
    ));
    entries[1].1 = r#"{"v":1}"#.to_string();
    assert!(keys(&entries).is_empty(), "every copy acknowledged");
    assert!(pending_outcomes(&entries).is_empty(), "no outcome stored");
}

#[test]
fn an_outcome_is_pending_until_acknowledged_under_either_spelling_of_its_receipt() {
    let outcome = r#"{"outcome":"completed"}"#;
    let keys = |e: &[(StudyKey, String)]| -> Vec<String> {
        pending_outcomes(e)
            .iter()
            .map(|(k, _)| k.render())
            .collect()
    };
    let mut entries = vec![
        entry("pilot/p1/outcome", outcome),
        entry("pilot/p1/attempt-1/outcome", outcome),
    ];
    assert_eq!(
        keys(&entries),
        ["pilot/p1/outcome", "pilot/p1/attempt-1/outcome"]
    );
    assert!(pending(&entries).is_empty(), "an outcome is no trial");
    // Acknowledged before issue 41, at `{key}-sent`: still acknowledged.
    entries.push(entry("pilot/p1/outcome-sent", &content_hash(outcome)));
    assert_eq!(keys(&entries), ["pilot/p1/attempt-1/outcome"]);
    // Acknowledged now, at `sent/outcome`.
    let receipt = entries[1].0.sent().expect("an outcome is sent");
    assert_eq!(receipt.render(), "pilot/p1/attempt-1/sent/outcome");
    entries.push((receipt, content_hash(outcome)));
    assert!(keys(&entries).is_empty(), "both acknowledged");
    // An outcome that changed after its receipt (a second ending) goes again, whichever
    // spelling the older receipt has.
    entries[0].1 = r#"{"outcome":"timed_out"}"#.to_string();
    assert_eq!(keys(&entries), ["pilot/p1/outcome"]);
    assert!(is_acknowledged(&entries, &entries[1].0, outcome));
}

#[test]
fn retries_back_off_from_a_second_to_a_minute() {
    let delays: Vec<u32> = (0..9).map(retry_delay_ms).collect();
    assert_eq!(
        delays,
        [1000, 2000, 4000, 8000, 16000, 32000, 60000, 60000, 60000]
    );
    assert_eq!(retry_delay_ms(u32::MAX), 60_000, "no overflow");
}

#[test]
fn the_participant_is_told_how_many_trials_wait_and_what_to_do() {
    let offline = waiting_message(3, false, None);
    assert!(
        offline.starts_with("3 trials are waiting to upload"),
        "{offline}"
    );
    assert!(offline.contains("offline") && offline.contains("Keep this page open"));
    let failing = waiting_message(1, true, Some("the server answered 500"));
    assert!(
        failing.starts_with("1 trial is waiting to upload"),
        "{failing}"
    );
    assert!(failing.contains("the server answered 500") && failing.contains("tries again"));
    assert_eq!(waiting_message(0, false, None), "Your answers are saved.");
}

fn trial(participant: &str, attempt: u32, index: i64, planned: usize) -> StudyTrialData {
    let mut d = data();
    d.participant.id = participant.into();
    d.attempt = attempt;
    d.trial_index = index;
    d.practice = index < 0;
    d.planned = Some(planned);
    d
}

fn outcome(participant: &str, kind: &str, planned: usize, played: &[i64]) -> OutcomeRecord {
    OutcomeRecord {
        study: data().study,
        participant: Participant {
            id: participant.into(),
            ..Participant::default()
        },
        attempt: 0,
        outcome: kind.into(),
        code: Some("ABC123".into()),
        planned,
        played: played.to_vec(),
    }
}

#[test]
fn reconcile_lists_each_participants_missing_trials_against_their_outcome() {
    let trials = [
        // a: completed, everything there (practice too).
        trial("a", 0, -1, 3),
        trial("a", 0, 0, 3),
        trial("a", 0, 1, 3),
        trial("a", 0, 2, 3),
        // b: completed, trial 1 lost; the same trial twice counts once.
        trial("b", 0, 0, 3),
        trial("b", 0, 2, 3),
        trial("b", 0, 2, 3),
        // c: timed out after trial 0 began; its practice never arrived.
        trial("c", 0, 0, 3),
        // d: no outcome yet (still playing, or left), a second attempt.
        trial("d", 1, 0, 2),
    ];
    let outcomes = [
        outcome("a", "completed", 3, &[-1, 0, 1, 2]),
        outcome("b", "completed", 3, &[0, 1, 2]),
        outcome("c", "timed_out", 3, &[-1, 0]),
    ];
    let rows = reconcile(&trials, &outcomes);
    type Brief<'a> = (&'a str, Option<usize>, Vec<i64>, Vec<i64>, &'a str);
    let brief: Vec<Brief> = rows
        .iter()
        .map(|r: &Reconciled| {
            (
                r.participant.as_str(),
                r.expected,
                r.received.clone(),
                r.missing.clone(),
                r.status(),
            )
        })
        .collect();
    assert_eq!(
        brief,
        [
            ("a", Some(3), vec![0, 1, 2], vec![], "complete"),
            ("b", Some(3), vec![0, 2], vec![1], "missing trials"),
            ("c", Some(3), vec![0], vec![-1], "missing trials"),
            ("d#attempt-1", Some(2), vec![0], vec![1], "no outcome yet"),
        ]
    );
    let csv = reconcile_csv(&rows);
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(
        lines[0],
        "study,participant,outcome,code,expected,received,missing,missing_trials,status,condition"
    );
    assert_eq!(
        lines[2],
        "\"Pilot, 1\",b,completed,ABC123,3,2,1,1,missing trials,"
    );
    assert_eq!(
        lines[4],
        "\"Pilot, 1\",d#attempt-1,,,2,1,1,1,no outcome yet,"
    );
    // An outcome whose trials have not arrived at all: every one is missing.
    let rows = reconcile(&[], &[outcome("e", "completed", 2, &[0, 1])]);
    assert_eq!(
        (rows[0].missing.clone(), rows[0].status()),
        (vec![0, 1], "missing trials")
    );
}

#[test]
fn the_outcome_travels_as_the_last_cheap_upload_and_reads_back() {
    let o = outcome("a", "completed", 2, &[0, 1]);
    let body = upload_body(UploadKind::Json, None, Parcel::Outcome(&o)).expect("written");
    let read: UploadJson = serde_json::from_str(&body).expect("reads");
    assert!(read.trials.is_empty());
    assert_eq!(read.outcome, Some(o.clone()));
    assert!(
        body.len() < 400,
        "a cheap confirmation: {} bytes",
        body.len()
    );
    let pipe: serde_json::Value = serde_json::from_str(
        &upload_body(UploadKind::Datapipe, Some("x"), Parcel::Outcome(&o)).expect("written"),
    )
    .expect("json");
    assert_eq!(pipe["filename"], "Pilot--1_a_outcome.json");
    assert_eq!(
        played(&[
            trial("a", 0, 1, 2),
            trial("a", 0, -1, 2),
            trial("a", 0, 1, 2)
        ]),
        [-1, 1]
    );
}

#[test]
fn a_level_that_runs_out_of_mazes_goes_on_in_the_next_seed_block() {
    let t = StudyTrial {
        shape: Shape::Cross,
        size: 5,
        encoding: crate::maze::encoding::Encoding::Matrix,
        seed: 7,
        sample: 0,
    };
    assert_eq!(in_blocks(t, 4, 36), StudyTrial { sample: 4, ..t });
    assert_eq!(
        in_blocks(t, 36, 36),
        StudyTrial {
            seed: 8,
            sample: 0,
            ..t
        }
    );
    assert_eq!(
        in_blocks(t, 75, 36),
        StudyTrial {
            seed: 9,
            sample: 3,
            ..t
        }
    );
    assert_eq!(in_blocks(t, 5, 0), StudyTrial { sample: 5, ..t });
    // A walk failing at the cross (36 distinct 5x5 mazes) from its last sample on: every
    // visit still gets a maze that can be made.
    let study = Study::from_json(
        r#"{"trials": [{"shape": "cross", "seed": 7, "sample": 34}, {"shape": "Z", "seed": 1}],
            "staircase": {"trials": 5, "start": 0}}"#,
    )
    .expect("reads");
    let library = TemplateLibrary::of_set(5, study.shape_set());
    assert_eq!(distinct_mazes(Shape::Cross, &library), 36);
    let mut outcomes = Vec::new();
    let mut played = Vec::new();
    while let Some((level, t)) = study.stair_next(&outcomes) {
        assert_eq!(level, 0);
        generate_one(t.shape, t.sample, t.seed, &library)
            .unwrap_or_else(|e| panic!("{t:?} cannot be made: {e}"));
        played.push((t.seed, t.sample));
        outcomes.push(false);
    }
    assert_eq!(played, [(7, 34), (7, 35), (8, 0), (8, 1), (8, 2)]);
}

#[test]
fn a_server_order_is_taken_at_consent_and_reorders_the_trials_before_the_first() {
    let study = Study::from_json(
        r#"{"trials": [{"shape": "square"}, {"shape": "Z"}], "counterbalance": true,
            "assignment": "server"}"#,
    )
    .expect("reads");
    let who = Participant {
        id: "p1".into(),
        order: 0,
        ..Participant::default()
    };
    // Opening the link takes nothing from the server: the session waits at consent with
    // the id's order.
    let (mut s, _) = StudySession::open("pilot", &study, who, None, 1.0, false);
    assert_eq!(s.stage, Stage::Consent);
    assert_eq!(s.order, study.order_for(0));
    s.assign_order(&study, 1, 2.0, "order 1 from the server");
    s.accept(&study, 2.0);
    assert_eq!(
        (s.participant.order, s.order.clone()),
        (1, study.order_for(1))
    );
    assert_ne!(study.order_for(0), study.order_for(1));
    assert_eq!(
        s.events
            .last()
            .map(|e| (e.kind.as_str(), e.detail.as_str())),
        Some(("order_assigned", "order 1 from the server"))
    );
    // Once a trial has begun the order stays.
    s.next(false);
    s.assign_order(&study, 0, 3.0, "too late");
    assert_eq!(s.order, study.order_for(1));
}

#[test]
fn the_outcome_record_names_the_code_the_plan_and_this_attempts_trials() {
    let study = Study::from_json(
        r#"{"title": "T", "trials": [{"shape": "square"}, {"shape": "Z"}],
            "completion": {"code": "DONE"}, "timed_out": {"redirect": "https://x.example/late"}}"#,
    )
    .expect("reads");
    let (mut s, _) = StudySession::open("t", &study, Participant::default(), None, 1.0, false);
    s.attempt = 1;
    let data = [trial("", 0, 0, 2), trial("", 1, -1, 2), trial("", 1, 0, 2)];
    let done = OutcomeRecord::of(&s, &study, Outcome::Completed, &data);
    assert_eq!(
        (
            done.outcome.as_str(),
            done.code.as_deref(),
            done.planned,
            done.played.clone()
        ),
        ("completed", Some("DONE"), 2, vec![-1, 0])
    );
    let late = OutcomeRecord::of(&s, &study, Outcome::TimedOut, &data);
    assert_eq!(late.code.as_deref(), Some("https://x.example/late"));
    assert_eq!(late.participant_key(), "#attempt-1");
    let names: Vec<&str> = Outcome::ALL.iter().map(|o| o.name()).collect();
    assert_eq!(names, ["completed", "declined", "timed_out"]);
}

#[test]
fn an_answer_acknowledges_an_upload_when_the_data_is_there() {
    for kind in UploadKind::ALL {
        assert!(acknowledged(kind, 200, ""));
        assert!(acknowledged(kind, 201, "Success"));
        assert!(!acknowledged(kind, 500, ""));
        assert!(!acknowledged(kind, 400, "Experiment is not active"));
    }
    // DataPipe never replaces a file: a retry after a lost answer finds it there.
    let exists = "Error uploading file to OSF: File already exists";
    assert!(acknowledged(UploadKind::Datapipe, 400, exists));
    assert!(!acknowledged(UploadKind::Json, 400, exists));
    assert_eq!(
        refusal(
            413,
            r#"{"error": "the body is larger than this server's limit"}"#
        ),
        "the server answered 413: the body is larger than this server's limit"
    );
    assert_eq!(
        refusal(400, "Experiment is not active"),
        "the server answered 400: Experiment is not active"
    );
    assert_eq!(
        refusal(502, "<html>Bad gateway</html>"),
        "the server answered 502"
    );
    assert_eq!(refusal(500, ""), "the server answered 500");
}
