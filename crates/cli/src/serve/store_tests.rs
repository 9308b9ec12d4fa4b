//! An upload read by its typed body: what is stored is the JSON as the server always kept
//! it, and what is refused is named in the order the server always judged it.

use super::*;
use shapemaze_core::study::test_support::data;
use shapemaze_core::study::{upload_body, Parcel, UploadKind};

/// How the server kept a received part before it read the body by type: the part as a
/// JSON value, written back (compact, each object's keys in order).
fn as_kept(body: &str, part: impl Fn(&serde_json::Value) -> &serde_json::Value) -> String {
    let value: serde_json::Value = serde_json::from_str(body).expect("JSON");
    part(&value).to_string()
}

#[test]
fn a_trial_is_stored_as_it_always_was_unknown_fields_kept() {
    let trial = data();
    let body = upload_body(
        UploadKind::Json,
        None,
        Parcel::Trials(std::slice::from_ref(&trial)),
    )
    .expect("written");
    let body = body.replacen("{\"study\"", "{\"from_a_later_page\":[1,2.5],\"study\"", 1);
    let read = parse_upload(body.as_bytes()).expect("an upload");
    assert_eq!(read.trials.len(), 1);
    assert_eq!(read.trials[0].trial, trial);
    assert_eq!(read.trials[0].json, as_kept(&body, |v| &v["trials"][0]));
    assert!(
        read.trials[0].json.starts_with("{\"attempt\":0,"),
        "keys in order"
    );
    assert!(read.trials[0]
        .json
        .contains("\"from_a_later_page\":[1,2.5]"));
    assert!(read.outcome.is_none());
}

#[test]
fn an_outcome_alone_is_an_upload_and_is_stored_as_it_always_was() {
    let trial = data();
    let study = shapemaze_core::study::Study::from_json(
        r#"{"title": "Pilot, 1", "trials": [{"shape": "C", "seed": 1}]}"#,
    )
    .expect("a study");
    let session =
        shapemaze_core::study::StudySession::new("pilot", &study, trial.participant.clone(), 0.0);
    let record = OutcomeRecord::of(
        &session,
        &study,
        shapemaze_core::study::Outcome::Completed,
        &[trial],
    );
    let body = upload_body(UploadKind::Json, None, Parcel::Outcome(&record)).expect("written");
    let read = parse_upload(body.as_bytes()).expect("an upload");
    let (outcome, json) = read.outcome.expect("an outcome");
    assert_eq!(outcome, record);
    assert_eq!(json, as_kept(&body, |v| &v["outcome"]));
    assert!(read.trials.is_empty());
}

#[test]
fn what_is_no_upload_is_named_in_the_order_it_always_was() {
    let trial = r#"{"study":"x"}"#;
    for (body, expected) in [
        ("not json", "the body is not JSON (expected ident at line 1 column 2); send the study's plain JSON upload"),
        ("  [1, 2]", "the body must be a JSON object with \"format\" and \"trials\""),
        ("\"text\"", "the body must be a JSON object with \"format\" and \"trials\""),
        (r#"{"format": 1} x"#, "the body is not JSON (trailing characters at line 1 column 15); send the study's plain JSON upload"),
        (r#"{"experimentID": null, "format": "other"}"#, "this is a DataPipe body; set the study's upload kind to \"json\" to send to this server"),
        (r#"{"trials": []}"#, "\"format\" is missing or not a string; expected \"shapemaze-study-1\""),
        (r#"{"format": 7, "trials": 5}"#, "\"format\" is missing or not a string; expected \"shapemaze-study-1\""),
        (r#"{"format": "other", "trials": 5}"#, "\"format\" is \"other\"; this server reads \"shapemaze-study-1\""),
        (r#"{"format": "shapemaze-study-1", "outcome": {"study": "x"}, "trials": 5}"#, "\"outcome\" is not a participant's outcome: missing field `participant`"),
        (r#"{"format": "shapemaze-study-1"}"#, "\"trials\" is missing or not a list"),
        (r#"{"format": "shapemaze-study-1", "trials": {}}"#, "\"trials\" is missing or not a list"),
        (r#"{"format": "shapemaze-study-1", "trials": []}"#, "\"trials\" is empty and there is no \"outcome\": nothing to store"),
        (r#"{"format": "shapemaze-study-1", "trials": [], "outcome": null}"#, "\"trials\" is empty and there is no \"outcome\": nothing to store"),
        (&format!(r#"{{"format": "shapemaze-study-1", "trials": [{trial}]}}"#), "trials[0] is not a study trial: missing field `participant`"),
    ] {
        let e = parse_upload(body.as_bytes()).expect_err(body);
        assert_eq!(e.to_string(), expected, "{body}");
    }
}

#[test]
fn a_participant_must_be_named() {
    let mut trial = data();
    trial.participant.id = " ".into();
    let body =
        upload_body(UploadKind::Json, None, Parcel::Trials(&[data(), trial])).expect("written");
    let e = parse_upload(body.as_bytes()).expect_err("an empty id");
    assert_eq!(e.to_string(), "trials[1] has an empty participant id");
    // `trials: null` is no list, even beside an outcome (as before).
    let body = r#"{"format": "shapemaze-study-1", "trials": null, "outcome": null}"#;
    assert_eq!(
        parse_upload(body.as_bytes()).expect_err("null").to_string(),
        "\"trials\" is missing or not a list"
    );
}

/// Two hours pass for every order taken so far, and `participant` of `study` gets an
/// outcome.
fn two_hours_later_with_an_outcome(s: &Store, study: &str, participant: &str) {
    s.conn
        .execute(
            "UPDATE study_orders SET assigned_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-120 minutes')",
            [],
        )
        .expect("older");
    s.conn
        .execute(
            "INSERT INTO study_outcomes (study, participant, data, received_at)
             VALUES (?1, ?2, '{}', 'now')",
            rusqlite::params![study, participant],
        )
        .expect("an outcome");
}

#[test]
fn an_order_taken_by_one_who_left_counts_no_more_and_stays_theirs_if_they_return() {
    let dir = std::env::temp_dir().join(format!("shapemaze-hold-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a folder");
    let path = dir.join("orders.sqlite");
    let _ = std::fs::remove_file(&path);
    let mut s = Store::open(&path).expect("a store");
    let hold = Hold {
        title: "Pilot, 1".into(),
        minutes: 60,
    };
    let ask = |s: &mut Store, p: &str| {
        s.assign_order("pilot", p, 2, Some(&hold))
            .expect("an order")
    };
    assert_eq!(ask(&mut s, "a"), (0, vec![1, 0]));
    assert_eq!(ask(&mut s, "b"), (1, vec![1, 1]));
    // Two hours pass: b finished (its outcome, from a second attempt, is here); a left.
    two_hours_later_with_an_outcome(&s, "Pilot, 1", "b#attempt-1");
    // The next participant takes the order a left: counted are b (an outcome) and c.
    assert_eq!(ask(&mut s, "c"), (0, vec![1, 1]), "a counts no more");
    // a comes back and keeps their order, counted again.
    assert_eq!(ask(&mut s, "a"), (0, vec![2, 1]));
    // A page that sends no hold counts every order taken, as before.
    assert_eq!(
        s.assign_order("pilot", "d", 2, None).expect("an order"),
        (1, vec![2, 2])
    );
    // An outcome of another study with the same participant's name does not count.
    two_hours_later_with_an_outcome(&s, "Another study", "c");
    assert_eq!(
        ask(&mut s, "e"),
        (0, vec![1, 1]),
        "only b finished this study: e takes order 0, counted beside b"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
