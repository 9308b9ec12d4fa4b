//! The study domain's unit tests (kept apart so the domain's code reads in one file).
use super::test_support::data;
use super::*;
use crate::maze::encoding::Encoding;
use crate::maze::shape::Shape;
use crate::play::staircase::{StairPhase, Staircase};

const CONTRACT_EXAMPLE: &str = r#"{"title": "Shape mazes",
 "trials": [{"shape": "square", "size": 5, "encoding": "matrix", "seed": 1, "sample": 0}],
 "practice": {"shape": "cross", "size": 5, "encoding": "matrix", "seed": 5, "sample": 0},
 "condition": "grid", "recognition": "free", "counterbalance": true,
 "completion": {"code": "ABC123"},
 "upload": {"kind": "json", "url": "https://lab.example/api/study-data"}}"#;

#[test]
fn the_contract_example_reads_and_survives_the_link_round_trip() {
    let s = Study::from_json(CONTRACT_EXAMPLE).expect("the CONTRACT's study reads");
    assert_eq!(s.trials.len(), 1);
    assert_eq!(
        s.completion.as_ref().and_then(|c| c.code.as_deref()),
        Some("ABC123")
    );
    assert_eq!(s.upload.as_ref().map(|u| u.kind), Some(UploadKind::Json));
    let back =
        Study::from_config_param(&s.to_config_param().expect("written")).expect("round trip");
    assert_eq!(back, s);
}

#[test]
fn bad_studies_are_refused_with_what_to_fix() {
    let cases = [
        ("{", "not valid"),
        (r#"{"trials": []}"#, "no trials"),
        (r#"{"trials": [{"shape": "hexagon"}]}"#, "not valid"),
        (r#"{"trials": [{"shape": "square", "size": 6}]}"#, "size 6"),
        (
            r#"{"trials": [{"shape": "Z"}], "upload": {"kind": "json", "url": "ftp://x"}}"#,
            "not a web address",
        ),
        (
            r#"{"trials": [{"shape": "Z"}], "upload": {"kind": "datapipe", "url": "https://pipe.jspsych.org/api/data/"}}"#,
            "experiment_id",
        ),
        (
            r#"{"trials": [{"shape": "Z"}], "completion": {"redirect": "javascript:alert(1)"}}"#,
            "not a web address",
        ),
    ];
    for (text, needle) in cases {
        let e = Study::from_json(text).expect_err(text);
        assert!(e.to_string().contains(needle), "{text}: {e}");
    }
    assert!(Study::from_config_param("not base64 ***").is_err());
}

#[test]
fn latin_rows_are_permutations_and_balance_which_shape_follows_which() {
    for n in 1..=8usize {
        let period = if n.is_multiple_of(2) { n } else { 2 * n };
        let mut follows = vec![vec![0; n]; n];
        for k in 0..period as u64 {
            let row = latin_row(n, k);
            let mut sorted = row.clone();
            sorted.sort_unstable();
            assert_eq!(sorted, (0..n).collect::<Vec<_>>(), "n={n} k={k}: {row:?}");
            for w in row.windows(2) {
                follows[w[0]][w[1]] += 1;
            }
        }
        let counts: Vec<usize> = (0..n)
            .flat_map(|a| (0..n).filter(move |&b| b != a).map(move |b| (a, b)))
            .map(|(a, b)| follows[a][b])
            .collect();
        if let (Some(lo), Some(hi)) = (counts.iter().min(), counts.iter().max()) {
            assert_eq!(
                lo, hi,
                "n={n}: every ordered pair equally often: {follows:?}"
            );
        }
    }
}

#[test]
fn counterbalanced_orders_keep_every_trial_once_and_file_order_within_a_shape() {
    let study = Study {
        counterbalance: true,
        ..Study::from_json(r#"{"trials": [{"shape": "square", "sample": 0}, {"shape": "Z"}, {"shape": "square", "sample": 1}, {"shape": "spiral"}]}"#)
            .expect("reads")
    };
    let orders: Vec<Vec<StudyTrial>> = (0..6).map(|k| study.order_for(k)).collect();
    for o in &orders {
        assert_eq!(o.len(), 4);
        let squares: Vec<usize> = o
            .iter()
            .filter(|t| t.shape == Shape::Square)
            .map(|t| t.sample)
            .collect();
        assert_eq!(squares, vec![0, 1], "file order within a shape");
    }
    assert_ne!(orders[0], orders[1], "participants differ");
    let plain = Study {
        counterbalance: false,
        ..study.clone()
    };
    assert_eq!(plain.order_for(5), plain.trials);
}

#[test]
fn the_participant_comes_from_prolific_or_the_generic_parameter() {
    let get = |pairs: &'static [(&'static str, &'static str)]| {
        move |k: &str| {
            pairs
                .iter()
                .find(|(n, _)| *n == k)
                .map(|(_, v)| v.to_string())
        }
    };
    let p = Participant::from_params(
        get(&[
            ("PROLIFIC_PID", "abc"),
            ("STUDY_ID", "s1"),
            ("SESSION_ID", "x9"),
        ]),
        "local",
    );
    assert_eq!(
        (
            p.id.as_str(),
            p.study_id.as_deref(),
            p.session_id.as_deref()
        ),
        ("abc", Some("s1"), Some("x9"))
    );
    let q = Participant::from_params(get(&[("participant", "p7"), ("order", "3")]), "local");
    assert_eq!((q.id.as_str(), q.order), ("p7", 3));
    let r = Participant::from_params(get(&[]), "local-123");
    assert_eq!(r.id, "local-123");
    assert_eq!(
        r.order,
        Participant::from_params(get(&[]), "local-123").order,
        "stable"
    );
}

#[test]
fn the_log_times_each_action_from_the_previous_one_and_each_phase() {
    let mut log = ActionLog::default();
    log.push("move", "solve", "(1, 2)", 1000.0);
    log.push("move", "solve", "(1, 3)", 1500.0);
    log.push("answer", "recognize", "square", 4000.0);
    log.push("submit", "generate", "", 9000.0);
    let dts: Vec<f64> = log.actions.iter().map(|a| a.dt_ms).collect();
    assert_eq!(dts, vec![1000.0, 500.0, 2500.0, 5000.0]);
    assert_eq!(log.phase_ms("solve"), 1500.0);
    assert_eq!(log.phase_ms("recognize"), 2500.0);
    assert_eq!(log.phase_ms("generate"), 5000.0);
    assert_eq!(log.phase_ms("done"), 0.0);
}

#[test]
fn the_move_that_reaches_the_goal_is_timed_with_the_solve_in_new_and_old_logs() {
    // New logs: each action under the phase it happened in.
    let mut log = ActionLog::new();
    log.push("move", "solve", "(1, 2)", 1000.0);
    log.push("move", "solve", "(1, 3)", 1600.0); // reaches the goal
    log.push("focus", "recognize", "", 2000.0);
    log.push("answer", "recognize", "square", 4000.0);
    assert_eq!(log.phase_ms("solve"), 1600.0);
    assert_eq!(log.phase_ms("recognize"), 2400.0);
    let json = serde_json::to_string(&log).expect("writes");
    assert!(json.contains("\"exact\":true"), "{json}");
    // An older log put the goal move under the phase it led to; it is read by its kind.
    let old: ActionLog = serde_json::from_str(
        r#"{"actions":[
            {"kind":"move","phase":"solve","t_ms":1000,"dt_ms":1000},
            {"kind":"move","phase":"recognize","t_ms":1600,"dt_ms":600},
            {"kind":"answer","phase":"generate","t_ms":4000,"dt_ms":2400}]}"#,
    )
    .expect("an old log reads");
    assert!(!old.exact);
    assert_eq!(old.phase_ms("solve"), 1600.0);
    assert_eq!(old.phase_ms("recognize"), 2400.0);
    assert!(
        !serde_json::to_string(&old)
            .expect("writes")
            .contains("exact"),
        "an old log is written back as it was"
    );
}

#[test]
fn base64url_round_trips_every_length() {
    for n in 0..40u8 {
        let bytes: Vec<u8> = (0..n)
            .map(|i| i.wrapping_mul(37).wrapping_add(200))
            .collect();
        let text = base64url_encode(&bytes);
        assert!(!text.contains(['+', '/', '=']), "{text}");
        assert_eq!(base64url_decode(&text), Some(bytes), "{n} bytes");
    }
    assert_eq!(
        base64url_decode("aGk="),
        Some(b"hi".to_vec()),
        "padding accepted"
    );
    assert_eq!(base64url_decode("a"), None, "a lone character is not whole");
    for text in ["-_8", "+/8=", "+/8"] {
        assert_eq!(base64url_decode(text), Some(vec![0xfb, 0xff]), "{text}");
    }
    assert_eq!(base64url_decode("a b"), None, "not base64");
}

#[test]
fn help_signals_count_pastes_time_away_and_answer_speed() {
    let mut log = ActionLog::default();
    log.push("move", "solve", "(1, 2)", 1_000.0);
    log.push("blur", "solve", "", 2_000.0);
    log.push("focus", "solve", "", 9_500.0);
    log.push("paste", "recognize", "", 10_000.0);
    // 20 characters typed in the 2 s since the paste: 10 a second.
    log.push("answer", "recognize", "it looks like a C!!!", 12_000.0);
    log.push("blur", "generate", "", 13_000.0);
    log.push("submit", "generate", "", 14_000.0);
    let s = log.signals();
    assert_eq!(s.pastes, 1);
    assert_eq!(s.tab_leaves, 2);
    assert_eq!(
        s.away_ms,
        7_500.0 + 1_000.0,
        "back after 7.5 s; gone 1 s at the end"
    );
    assert_eq!(s.answer_chars_per_s, Some(10.0));
    assert_eq!(ActionLog::default().signals(), HelpSignals::default());
    let mut d = data();
    d.signals = s;
    let csv = events_csv(&[d]);
    assert!(
        csv.lines()
            .next()
            .is_some_and(|h| h.contains(",pastes,tab_leaves,away_ms,answer_chars_per_s,")),
        "{csv}"
    );
    assert!(
        csv.lines()
            .nth(1)
            .is_some_and(|r| r.ends_with(",1,2,8500,10.0,0,,,,")),
        "{csv}"
    );
    // A staircase trial's row ends with its step and level, then how the maze was shown.
    let mut d = data();
    d.record.staircase = Some(crate::play::staircase::StairStep {
        step: 4,
        level: 2,
        walk: 99,
    });
    d.record.condition = Some(crate::play::condition::Condition::Text);
    let csv = events_csv(&[d]);
    assert!(csv
        .lines()
        .next()
        .is_some_and(|h| h.ends_with(",session_events,step,level,condition")));
    assert!(
        csv.lines().nth(1).is_some_and(|r| r.ends_with(",4,2,text")),
        "{csv}"
    );
}

#[test]
fn the_event_csv_has_one_row_per_action_under_a_documented_header() {
    let csv = events_csv(&[data()]);
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 3, "header and two actions:\n{csv}");
    assert_eq!(lines[0].split(',').count(), EVENT_COLUMNS.len());
    assert!(lines[0].starts_with("trial_type,trial_index,time_elapsed,rt,"));
    assert!(
        lines[2].contains("\"a \"\"C\"\", I think\""),
        "quoted: {}",
        lines[2]
    );
    assert!(lines[1].starts_with("move,0,800,800,p1,"), "{}", lines[1]);
    assert!(
        lines[0].contains(",consented_at,study_version,consent_hash,")
            && lines[1].contains(",1764000000000,v2,00ff00ff00ff00ff,"),
        "the consent on every row: {csv}"
    );
    assert!(
        lines[1].contains(",success,success,success,"),
        "{}",
        lines[1]
    );
}

#[test]
fn upload_bodies_follow_plain_json_and_datapipe() {
    let d = [data()];
    let plain: serde_json::Value = serde_json::from_str(
        &upload_body(UploadKind::Json, None, Parcel::Trials(&d)).expect("written"),
    )
    .expect("json");
    assert_eq!(plain["trials"][0]["participant"]["id"], "p1");
    assert_eq!(plain["trials"][0]["record"]["player"], "human");
    let pipe = |parcel| -> serde_json::Value {
        serde_json::from_str(
            &upload_body(UploadKind::Datapipe, Some("exp42"), parcel).expect("written"),
        )
        .expect("json")
    };
    let two = [data(), data()];
    assert_eq!(pipe(Parcel::Trials(&two))["filename"], "Pilot--1_p1.csv");
    let pipe = pipe(Parcel::Trials(&d));
    assert_eq!(pipe["experimentID"], "exp42");
    assert_eq!(pipe["filename"], "Pilot--1_p1_0.csv", "one file per trial");
    assert!(pipe["data"]
        .as_str()
        .is_some_and(|s| s.starts_with("trial_type,")));
}

#[test]
fn a_participant_goes_from_consent_through_practice_and_every_trial_to_completion() {
    let study = Study {
        practice: Some(StudyTrial {
            shape: Shape::Cross,
            size: 5,
            encoding: Encoding::Matrix,
            seed: 5,
            sample: 0,
        }),
        ..Study::from_json(r#"{"trials": [{"shape": "square"}, {"shape": "Z"}]}"#).expect("reads")
    };
    let mut s = StudySession::new(
        "pilot",
        &study,
        Participant {
            id: "p1".into(),
            ..Default::default()
        },
        1_763_999_000_000.0,
    );
    assert_eq!(s.this_attempt(), Who::new("pilot", "p1").attempt(0));
    assert_eq!(s.session_key().render(), "pilot/p1/session");
    s.next(true);
    assert_eq!(s.stage, Stage::Consent, "no skipping consent");
    assert_eq!(s.consent, None);
    s.accept(&study, 1_764_000_000_000.0);
    assert_eq!(s.stage, Stage::Instructions);
    let consent = s.consent.clone().expect("consent recorded");
    assert_eq!(consent.at_ms, 1_764_000_000_000.0);
    assert_eq!(consent.study_version, study.version);
    assert_eq!(consent.text_hash.len(), 16);
    let mut changed = study.clone();
    changed.consent.push_str(" Changed.");
    assert_ne!(
        ConsentRecord::of(&changed, 0.0).text_hash,
        consent.text_hash,
        "another text, another hash"
    );
    assert_eq!(
        ConsentRecord::of(&study, 0.0).text_hash,
        consent.text_hash,
        "the same text, the same hash"
    );
    s.next(true);
    assert_eq!(s.current(&study).map(|c| (c.0, c.2)), Some((-1, true)));
    s.next(true);
    assert_eq!(s.stage, Stage::Practice, "an unfinished trial holds");
    s.finish_trial();
    s.next(true);
    assert_eq!((s.stage, s.trial_done), (Stage::Trial(0), false));
    assert_eq!(s.progress(&study), (0, 2));
    s.finish_trial();
    assert_eq!(s.progress(&study), (1, 2));
    s.next(true);
    assert_eq!(s.stage, Stage::Trial(1));
    s.finish_trial();
    s.next(true);
    assert_eq!((s.stage, s.progress(&study)), (Stage::Complete, (2, 2)));
    let mut d = StudySession::new("pilot", &study, Participant::default(), 0.0);
    d.decline();
    d.next(true);
    assert_eq!(d.stage, Stage::Declined);
    assert_ne!(inline_name("{a}"), inline_name("{b}"));
}

const T0: f64 = 1_764_000_000_000.0;
const MINUTE: f64 = 60_000.0;

fn resumable(extra: &str) -> Study {
    Study::from_json(&format!(
        r#"{{"trials": [{{"shape": "square"}}, {{"shape": "Z"}}], "version": "1"{extra}}}"#
    ))
    .expect("reads")
}

fn p1() -> Participant {
    Participant {
        id: "p1".into(),
        ..Default::default()
    }
}

/// A session of `study` begun at T0, consented a minute later, finished with trial 1.
fn begun(study: &Study) -> StudySession {
    let (mut s, opening) = StudySession::open("pilot", study, p1(), None, T0, false);
    assert_eq!(opening, Opening::Continue);
    s.accept(study, T0 + MINUTE);
    s.next(false);
    s.finish_trial();
    s.next(false);
    assert_eq!(s.stage, Stage::Trial(1));
    s
}

/// `begun(study)` opened again `minutes` after T0.
fn reopen(study: &Study, minutes: f64) -> (StudySession, Opening) {
    returning(study, study, minutes, false)
}

/// A session begun on `before` opened on `now` `minutes` after T0 (`reloaded`: from the
/// same tab).
fn returning(now: &Study, before: &Study, minutes: f64, reloaded: bool) -> (StudySession, Opening) {
    StudySession::open(
        "pilot",
        now,
        p1(),
        Some(begun(before)),
        T0 + minutes * MINUTE,
        reloaded,
    )
}

fn kinds(s: &StudySession) -> Vec<&str> {
    s.events.iter().map(|e| e.kind.as_str()).collect()
}

#[test]
fn the_resume_policy_decides_what_a_return_to_the_link_does() {
    // resume (the default): where they were, logged.
    let study = resumable("");
    let (s, opening) = reopen(&study, 5.0);
    assert_eq!(
        (opening, s.stage, s.attempt),
        (Opening::Continue, Stage::Trial(1), 0)
    );
    assert_eq!(kinds(&s), ["started", "resumed"]);
    assert_eq!(s.events[1].detail, "trial 2");
    // restart: a new attempt from the consent page; the old one's data stays apart.
    let study = resumable(r#", "resume": {"policy": "restart"}"#);
    let (s, opening) = reopen(&study, 5.0);
    assert_eq!(
        (opening, s.stage, s.attempt),
        (Opening::Continue, Stage::Consent, 1)
    );
    assert_eq!(kinds(&s), ["started", "restarted", "started"]);
    assert_eq!(
        Scope::Attempt(s.this_attempt()).render(),
        "pilot/p1/attempt-1/"
    );
    assert_eq!(
        s.session_key().render(),
        "pilot/p1/session",
        "one session key for every attempt"
    );
    assert_eq!(s.consent, None, "a new attempt asks for consent again");
    // block: the page says so; the session is kept as it was.
    let study = resumable(r#", "resume": {"policy": "block"}"#);
    let (s, opening) = reopen(&study, 5.0);
    assert_eq!(
        (opening, s.stage, s.attempt),
        (Opening::Blocked, Stage::Trial(1), 0)
    );
    assert_eq!(kinds(&s), ["started", "blocked"]);
    // Whatever the policy, a session at the consent page is taken up, and one that is
    // over is shown as it ended.
    let (fresh, _) = StudySession::open("pilot", &study, p1(), None, T0, false);
    let (s, opening) = StudySession::open("pilot", &study, p1(), Some(fresh), T0 + MINUTE, false);
    assert_eq!(
        (opening, s.stage, kinds(&s)),
        (Opening::Continue, Stage::Consent, vec!["started"])
    );
    let mut done = begun(&study);
    done.finish_trial();
    done.next(false);
    let (s, opening) = StudySession::open("pilot", &study, p1(), Some(done), T0 + MINUTE, false);
    assert_eq!((opening, s.stage), (Opening::Continue, Stage::Complete));
}

#[test]
fn an_old_session_or_a_new_study_version_starts_a_new_attempt() {
    let study = resumable(r#", "resume": {"policy": "resume", "max_age_minutes": 60}"#);
    let (s, _) = reopen(&study, 59.0);
    assert_eq!(
        (s.stage, s.attempt),
        (Stage::Trial(1), 0),
        "within the hour: resumed"
    );
    let (s, _) = reopen(&study, 61.0);
    assert_eq!((s.stage, s.attempt), (Stage::Consent, 1));
    assert_eq!(kinds(&s), ["started", "expired", "started"]);
    assert_eq!(s.events[1].detail, "after 61 minutes (at most 60)");
    let mut v2 = study.clone();
    v2.version = "2".into();
    let (s, opening) = returning(&v2, &study, 2.0, false);
    assert_eq!(
        (opening, s.stage, s.attempt),
        (Opening::Continue, Stage::Consent, 1)
    );
    assert_eq!(kinds(&s), ["started", "version_changed", "started"]);
    assert!(s.events[1].detail.contains("'1'") && s.events[1].detail.contains("'2'"));
    // The second attempt's trials are stored apart from the first's.
    let mut d = data();
    assert_eq!(d.participant_key(), "p1");
    d.attempt = 1;
    assert_eq!(
        (d.participant_key().as_str(), d.key().as_str()),
        ("p1#attempt-1", "Pilot, 1/p1#attempt-1/0")
    );
}

#[test]
fn the_study_time_limit_ends_the_study_from_consent_on() {
    let study = resumable(r#", "time_limits": {"study": 600}"#);
    let mut s = begun(&study);
    assert_eq!(
        s.time_left_ms(&study, T0 + 6.0 * MINUTE),
        Some(5.0 * MINUTE)
    );
    assert!(
        !s.check_time(&study, T0 + 10.0 * MINUTE),
        "ten minutes from consent at T0+1"
    );
    assert!(s.check_time(&study, T0 + 11.0 * MINUTE));
    assert_eq!(s.stage, Stage::TimedOut);
    assert!(s.stage.is_final());
    assert_eq!(kinds(&s).last(), Some(&"timed_out"));
    assert!(!s.check_time(&study, T0 + 12.0 * MINUTE), "once");
    // On return after the limit the study is over, whatever the policy.
    let (s, _) = reopen(&study, 30.0);
    assert_eq!(s.stage, Stage::TimedOut);
    let mut fresh = StudySession::new("pilot", &study, p1(), T0);
    assert_eq!(
        fresh.time_left_ms(&study, T0),
        None,
        "the clock starts at consent"
    );
    assert!(!fresh.check_time(&study, T0 + 99.0 * MINUTE));
}

#[test]
fn each_outcome_has_its_code_or_none() {
    let study = resumable(
        r#", "completion": {"code": "DONE1"}, "declined": {"redirect": "https://app.prolific.com/submissions/complete?cc=NOCONSENT"}, "timed_out": {}"#,
    );
    assert_eq!(
        study
            .outcome(Outcome::Completed)
            .and_then(|c| c.code.as_deref()),
        Some("DONE1")
    );
    assert!(study
        .outcome(Outcome::Declined)
        .and_then(|c| c.redirect.as_deref())
        .is_some_and(|r| r.ends_with("cc=NOCONSENT")));
    assert_eq!(
        study.outcome(Outcome::TimedOut),
        None,
        "an empty outcome: no code"
    );
    assert_eq!(resumable("").outcome(Outcome::Declined), None);
    let bad = Study::from_json(
        r#"{"trials": [{"shape": "Z"}], "timed_out": {"redirect": "javascript:alert(1)"}}"#,
    )
    .expect_err("a bad redirect for any outcome");
    assert!(bad.to_string().contains("not a web address"), "{bad}");
    // Default rules stay out of the link; set ones survive it.
    assert!(!resumable("").to_config_param().expect("written").is_empty());
    let text = String::from_utf8(
        base64url_decode(&resumable("").to_config_param().expect("written")).expect("b64"),
    )
    .expect("text");
    assert!(
        !text.contains("resume") && !text.contains("timed_out"),
        "{text}"
    );
    let set = resumable(r#", "resume": {"policy": "block", "max_age_minutes": 30}"#);
    assert_eq!(
        Study::from_config_param(&set.to_config_param().expect("written")).expect("reads"),
        set
    );
}

#[test]
fn server_assignment_asks_for_one_of_the_studys_orders_and_reads_the_answer() {
    let even = Study::from_json(
        r#"{"trials": [{"shape": "square"}, {"shape": "Z"}], "counterbalance": true, "assignment": "server"}"#,
    )
    .expect("reads");
    assert_eq!(even.assignment, Assignment::Server);
    assert_eq!(even.order_count(), 2, "two shapes: two rows");
    let odd = Study::from_json(
        r#"{"trials": [{"shape": "square"}, {"shape": "Z"}, {"shape": "C"}], "counterbalance": true}"#,
    )
    .expect("reads");
    assert_eq!(
        (odd.assignment, odd.order_count()),
        (Assignment::Hash, 6),
        "three shapes: six rows"
    );
    let plain =
        Study::from_json(r#"{"trials": [{"shape": "square"}, {"shape": "Z"}]}"#).expect("reads");
    assert_eq!(plain.order_count(), 1, "not counterbalanced: one order");
    let body: serde_json::Value =
        serde_json::from_str(&order_request("pilot", &odd, "p1")).expect("JSON");
    assert_eq!(
        body,
        serde_json::json!({"study": "pilot", "participant": "p1", "orders": 6,
            "title": "Shape mazes", "hold_minutes": 120})
    );
    assert_eq!(
        read_order_answer(200, r#"{"order": 5, "counts": [1,1,1,1,1,0]}"#, &odd),
        Ok(5)
    );
    for (status, text, needle) in [
        (200, r#"{"order": 6}"#, "the study has 6"),
        (404, "", "answered 404"),
        (200, "<!doctype html>", "not JSON"),
        (200, r#"{"counts": []}"#, "names no order"),
    ] {
        let e = read_order_answer(status, text, &odd)
            .expect_err(text)
            .to_string();
        assert!(e.contains(needle), "{text}: {e}");
    }
}

#[test]
fn a_new_attempt_keeps_the_participants_order() {
    let study = Study::from_json(
        r#"{"trials": [{"shape": "square"}, {"shape": "Z"}], "counterbalance": true, "version": "1", "resume": {"policy": "restart"}}"#,
    )
    .expect("reads");
    let mut who = p1();
    who.order = 1;
    let (mut s, _) = StudySession::open("pilot", &study, who, None, T0, false);
    s.accept(&study, T0);
    let order = s.order.clone();
    // The link on return gives no order: the hash would choose another.
    let mut link = p1();
    link.order = 0;
    let (again, _) = StudySession::open("pilot", &study, link, Some(s), T0 + MINUTE, false);
    assert_eq!((again.attempt, again.participant.order), (1, 1));
    assert_eq!(again.order, order);
}

#[test]
fn a_reload_of_the_same_tab_resumes_whatever_the_policy() {
    for policy in ["restart", "block"] {
        let study = resumable(&format!(r#", "resume": {{"policy": "{policy}"}}"#));
        let (s, opening) = returning(&study, &study, 5.0, true);
        assert_eq!(
            (opening, s.stage, s.attempt),
            (Opening::Continue, Stage::Trial(1), 0),
            "{policy}"
        );
        assert_eq!(kinds(&s), ["started", "reloaded"], "{policy}");
    }
}

#[test]
fn a_study_s_lenient_allowance_is_read_and_left_out_when_strict() {
    let s = Study::from_json(r#"{"trials": [{"shape": "C"}], "lenient": 2}"#).expect("reads");
    assert_eq!(s.lenient, 2);
    let strict = Study::from_json(r#"{"trials": [{"shape": "C"}]}"#).expect("reads");
    assert_eq!(strict.lenient, 0);
    let json = serde_json::to_string(&strict).expect("json");
    assert!(!json.contains("lenient"), "{json}");
}

#[test]
fn a_study_s_symbols_are_read_left_out_when_standard_and_need_a_matrix_trial() {
    let s = Study::from_json(r#"{"trials": [{"shape": "C"}], "symbols": "@*SE"}"#).expect("reads");
    assert_eq!(s.symbols.to_string(), "@ * S E");
    assert_eq!(s.symbols.for_encoding(Encoding::Matrix), s.symbols);
    assert!(s.symbols.for_encoding(Encoding::CoordList).is_standard());
    assert!(serde_json::to_string(&s)
        .expect("json")
        .contains(r#""symbols":"@ * S E""#));
    let standard = Study::from_json(r#"{"trials": [{"shape": "C"}]}"#).expect("reads");
    assert!(!serde_json::to_string(&standard)
        .expect("json")
        .contains("symbols"));
    // Only coordinate lists: the symbols would change nothing, so the study is refused.
    let e = Study::from_json(
        r#"{"trials": [{"shape": "C", "encoding": "coord_list"}], "symbols": "@*SE"}"#,
    )
    .expect_err("refused");
    assert!(
        e.to_string().contains("no trial uses the matrix encoding"),
        "{e}"
    );
    // A practice trial in the matrix is enough.
    Study::from_json(
        r#"{"trials": [{"shape": "C", "encoding": "coord_list"}], "practice": {"shape": "Z"}, "symbols": "@*SE"}"#,
    )
    .expect("reads");
    // A set that is not four different characters is refused with the reason.
    let e = Study::from_json(r#"{"trials": [{"shape": "C"}], "symbols": "@@SE"}"#)
        .expect_err("refused");
    assert!(e.to_string().contains("symbols"), "{e}");
}

/// A staircase study over four levels (cross from sample 2, spiral, Z at 7x7 from sample
/// 5, square at 9x9), six trials a walk from level 1, moved by the solve phase, with a
/// practice maze.
fn stair_study(extra: &str) -> Study {
    Study::from_json(&format!(
        r#"{{"trials": [{{"shape": "square", "seed": 1}}, {{"shape": "cross", "seed": 1, "sample": 2}},
            {{"shape": "Z", "size": 7, "seed": 3, "sample": 5}}, {{"shape": "square", "size": 9, "seed": 1}}],
          "practice": {{"shape": "C", "seed": 9}}, "version": "1",
          "staircase": {{"trials": 6, "start": 1}}{extra}}}"#
    ))
    .expect("reads")
}

/// Solve only (success by the solve phase, the others failed), or everything failed.
const SOLVED: [bool; 3] = [true, false, false];
const FAILED: [bool; 3] = [false, true, true];

/// `stair_study`'s session, consented, through the practice maze (failed) to trial 1.
fn stair_begun(study: &Study) -> StudySession {
    let (mut s, _) = StudySession::open("stairs", study, p1(), None, T0, false);
    s.accept(study, T0 + MINUTE);
    s.next(true);
    assert_eq!(s.stage, Stage::Practice);
    s.finish_stair_trial(study, [false; 3]);
    s.next(true);
    assert_eq!(s.stage, Stage::Trial(0));
    s
}

/// Finishes the current scored trial with `phases` and moves on.
fn play(s: &mut StudySession, study: &Study, phases: [bool; 3]) {
    s.finish_stair_trial(study, phases);
    s.next(true);
}

fn levels_and_samples(s: &StudySession) -> (Vec<usize>, Vec<(Shape, usize, usize)>) {
    (
        s.stair_levels.clone(),
        s.order
            .iter()
            .map(|t| (t.shape, t.size, t.sample))
            .collect(),
    )
}

#[test]
fn a_staircase_study_walks_up_after_two_successes_and_down_after_a_failure() {
    let study = stair_study("");
    let mut s = stair_begun(&study);
    // Only the start level's first maze is known before any trial; the practice maze (a
    // failure) did not move the walk.
    assert_eq!(
        levels_and_samples(&s),
        (vec![1], vec![(Shape::Cross, 5, 2)])
    );
    assert!(s.stair_outcomes.is_empty());
    assert_eq!(s.progress(&study), (0, 6), "the staircase's trials in all");
    assert_eq!(s.stair_step(0).map(|x| (x.step, x.level)), Some((0, 1)));
    assert!(
        s.stair_step(0).is_some_and(|x| x.walk != 0),
        "a participant's walk is told apart"
    );
    // success, success: up to level 2; failure: down to 1; success, success: up to 2.
    for (i, phases) in [SOLVED, SOLVED, FAILED, SOLVED, SOLVED]
        .into_iter()
        .enumerate()
    {
        assert_eq!(s.stage, Stage::Trial(i));
        s.finish_stair_trial(&study, phases);
        // The page tells the session again on each later action (focus, blur): once only.
        s.finish_stair_trial(&study, FAILED);
        assert_eq!((s.order.len(), s.stair_outcomes.len()), (i + 2, i + 1));
        assert_eq!(s.progress(&study), (i + 1, 6));
        s.next(true);
    }
    // Each visit to a level plays its next maze: sample + visits before.
    assert_eq!(
        levels_and_samples(&s),
        (
            vec![1, 1, 2, 1, 1, 2],
            vec![
                (Shape::Cross, 5, 2),
                (Shape::Cross, 5, 3),
                (Shape::Z, 7, 5),
                (Shape::Cross, 5, 4),
                (Shape::Cross, 5, 5),
                (Shape::Z, 7, 6),
            ]
        )
    );
    assert_eq!(
        s.order[2],
        StudyTrial {
            shape: Shape::Z,
            size: 7,
            encoding: Encoding::Matrix,
            seed: 3,
            sample: 5
        },
        "the level's trial but for its sample"
    );
    assert_eq!(s.stair_outcomes, [true, true, false, true, true]);
    assert_eq!(s.stair_step(2).map(|x| (x.step, x.level)), Some((2, 2)));
    assert_eq!(s.stair_step(5).map(|x| (x.step, x.level)), Some((5, 2)));
    assert_eq!(s.stair_step(6), None);
    assert_eq!(
        s.current(&study).map(|c| (c.0, c.1, c.2)),
        Some((5, s.order[5], false))
    );
    // The sixth trial is the last: no seventh, and on to the end.
    assert_eq!(s.stage, Stage::Trial(5));
    s.finish_stair_trial(&study, FAILED);
    assert_eq!((s.order.len(), s.stair_outcomes.len()), (6, 6));
    assert_eq!(s.progress(&study), (6, 6));
    s.next(true);
    assert_eq!((s.stage, s.progress(&study)), (Stage::Complete, (6, 6)));
}

#[test]
fn the_staircase_s_phase_says_which_successes_move_a_study_s_walk() {
    // Moved by all three phases: solve alone is a failure, so down from 1 to 0; then
    // two full successes take it back up.
    let study = stair_study("");
    let all = Study {
        staircase: study.staircase.map(|s| Staircase {
            phase: StairPhase::All,
            ..s
        }),
        ..study.clone()
    };
    let mut s = stair_begun(&all);
    for phases in [SOLVED, [true; 3], [true; 3]] {
        play(&mut s, &all, phases);
    }
    assert_eq!(s.stair_levels, [1, 0, 0, 1]);
    assert_eq!(s.stair_outcomes, [false, true, true]);
    // From level 0 the walk cannot go lower; a failure there keeps it.
    let zero = Study {
        staircase: study.staircase.map(|s| Staircase { start: 0, ..s }),
        ..study
    };
    let mut low = stair_begun(&zero);
    assert_eq!(low.stair_levels, [0]);
    play(&mut low, &zero, FAILED);
    play(&mut low, &zero, FAILED);
    assert_eq!(
        levels_and_samples(&low),
        (
            vec![0, 0, 0],
            vec![
                (Shape::Square, 5, 0),
                (Shape::Square, 5, 1),
                (Shape::Square, 5, 2)
            ]
        )
    );
}

#[test]
fn a_reloaded_staircase_session_goes_on_as_it_would_have() {
    let study = stair_study("");
    let outcomes = [SOLVED, SOLVED, FAILED, FAILED, SOLVED, SOLVED];
    let mut s = stair_begun(&study);
    for &p in &outcomes[..3] {
        play(&mut s, &study, p);
    }
    // Mid-trial 4: saved, read back and opened again by a reload of the tab.
    let text = serde_json::to_string(&s).expect("json");
    assert!(text.contains(r#""stair_levels":[1,1,2,1]"#), "{text}");
    assert!(
        text.contains(r#""stair_outcomes":[true,true,false]"#),
        "{text}"
    );
    let saved: StudySession = serde_json::from_str(&text).expect("reads back");
    assert_eq!(saved, s);
    let (mut back, opening) =
        StudySession::open("stairs", &study, p1(), Some(saved), T0 + 2.0 * MINUTE, true);
    assert_eq!((opening, back.stage), (Opening::Continue, Stage::Trial(3)));
    for &p in &outcomes[3..] {
        play(&mut s, &study, p);
        play(&mut back, &study, p);
    }
    assert_eq!(back.stage, Stage::Complete);
    assert_eq!(
        (
            back.order.clone(),
            back.stair_levels.clone(),
            back.stair_outcomes.clone()
        ),
        (
            s.order.clone(),
            s.stair_levels.clone(),
            s.stair_outcomes.clone()
        )
    );
    // 1 1 (up) 2 (down) 1 (down) 0 0 (up) 1.
    assert_eq!(back.stair_levels, [1, 1, 2, 1, 0, 0]);
    // A session saved before staircases were kept (no stair fields) still loads, and a
    // study without one saves none.
    let plain = resumable("");
    let old = serde_json::to_value(StudySession::new("pilot", &plain, p1(), T0)).expect("json");
    assert!(
        old.get("stair_levels").is_none() && old.get("stair_outcomes").is_none(),
        "{old}"
    );
    let read: StudySession = serde_json::from_value(old).expect("an old session reads");
    assert!(read.stair_levels.is_empty() && read.stair_outcomes.is_empty());
}

#[test]
fn a_restarted_attempt_walks_its_staircase_afresh() {
    let study = stair_study(r#", "resume": {"policy": "restart"}"#);
    let mut s = stair_begun(&study);
    play(&mut s, &study, SOLVED);
    play(&mut s, &study, SOLVED);
    assert_eq!(s.stair_levels, [1, 1, 2]);
    let (again, _) = StudySession::open("stairs", &study, p1(), Some(s), T0 + MINUTE, false);
    assert_eq!((again.attempt, again.stage), (1, Stage::Consent));
    assert_eq!(
        levels_and_samples(&again),
        (vec![1], vec![(Shape::Cross, 5, 2)])
    );
    assert!(again.stair_outcomes.is_empty());
}

#[test]
fn a_study_without_a_staircase_plays_its_order_whatever_the_phases() {
    let study = resumable("");
    let mut s = StudySession::new("pilot", &study, p1(), T0);
    s.accept(&study, T0);
    s.next(false);
    s.finish_stair_trial(&study, FAILED);
    assert!(s.trial_done);
    assert_eq!(s.order, study.trials, "nothing added");
    assert!(s.stair_levels.is_empty() && s.stair_outcomes.is_empty());
    assert_eq!((s.stair_step(0), s.progress(&study)), (None, (1, 2)));
    s.next(false);
    s.finish_stair_trial(&study, SOLVED);
    s.next(false);
    assert_eq!((s.stage, s.progress(&study)), (Stage::Complete, (2, 2)));
    assert_eq!(study.stair_next(&[]), None);
    let json = serde_json::to_string(&study).expect("json");
    assert!(!json.contains("staircase"), "{json}");
}

#[test]
fn a_staircase_study_is_refused_with_what_to_change() {
    let two = r#"[{"shape": "square"}, {"shape": "Z"}]"#;
    let cases = [
        (
            format!(
                r#"{{"trials": {two}, "counterbalance": true, "staircase": {{"trials": 10}}}}"#
            ),
            r#"a staircase orders the trials itself: set "counterbalance" to false"#,
        ),
        (
            format!(r#"{{"trials": {two}, "staircase": {{"trials": 1}}}}"#),
            "staircase trials must be at least 2 (it is 1)",
        ),
        (
            format!(r#"{{"trials": {two}, "staircase": {{"trials": 10, "start": 2}}}}"#),
            "the staircase's start level is 2 but it has levels 0 to 1",
        ),
        (
            r#"{"trials": [{"shape": "Z"}], "staircase": {"trials": 10}}"#.to_string(),
            "a staircase needs at least two levels: its levels are the study's trials",
        ),
        (
            format!(r#"{{"trials": {two}, "staircase": {{"trials": 10, "phase": "both"}}}}"#),
            "not valid",
        ),
    ];
    for (text, needle) in &cases {
        let e = Study::from_json(text).expect_err(text);
        assert!(e.to_string().contains(needle), "{text}: {e}");
    }
    // Both problems at once are both said.
    let e = Study::from_json(&format!(
        r#"{{"trials": {two}, "staircase": {{"trials": 0, "start": 5}}}}"#
    ))
    .expect_err("refused");
    assert_eq!(
        e,
        StudyError::BadStaircase(
            "staircase trials must be at least 2 (it is 0): a walk needs trials to move; the staircase's start level is 5 but it has levels 0 to 1".into()
        )
    );
    // A good one reads and survives the link.
    let ok = stair_study(r#", "counterbalance": false"#);
    assert_eq!(
        ok.staircase,
        Some(Staircase {
            trials: 6,
            start: 1,
            phase: StairPhase::Solve
        })
    );
    assert_eq!(
        Study::from_config_param(&ok.to_config_param().expect("written")).expect("reads"),
        ok
    );
}

#[test]
fn every_stage_reads_back_as_written_and_a_wrong_one_is_named() {
    use super::session::Stage;
    let all = [
        Stage::Consent,
        Stage::Declined,
        Stage::Instructions,
        Stage::Practice,
        Stage::Trial(0),
        Stage::Trial(7),
        Stage::Complete,
        Stage::TimedOut,
    ];
    for s in all {
        let text = serde_json::to_string(&s).expect("writes");
        assert_eq!(
            serde_json::from_str::<Stage>(&text).expect("reads"),
            s,
            "{text}"
        );
    }
    assert_eq!(
        serde_json::to_string(&Stage::Trial(3)).expect("writes"),
        r#"{"trial":3}"#
    );
    for (bad, said) in [
        (
            r#""playing""#,
            "unknown variant `playing`, expected one of `consent`, `declined`",
        ),
        (
            r#"{"trial":-1}"#,
            "invalid value: integer `-1`, expected usize",
        ),
        (r#"{"trial":1,"x":2}"#, "at line 1 column 10"),
        ("3", "expected value at line 1 column 1"),
        ("null", "expected value at line 1 column 1"),
    ] {
        let err = serde_json::from_str::<Stage>(bad)
            .expect_err(bad)
            .to_string();
        assert!(err.contains(said), "{bad}: {err}");
    }
}

#[test]
fn a_study_file_that_is_not_one_names_the_field_and_its_place() {
    for (text, said) in [
        (
            r#"{"trials": [{"shape": "square"}, {"shape": "hexagon"}]}"#,
            "field `trials[1].shape`: unknown variant `hexagon`",
        ),
        (
            r#"{"trials": [{"shape": "square", "size": "big"}]}"#,
            "field `trials[0].size`: invalid type: string \"big\", expected usize",
        ),
        (
            r#"{"trials": [{"size": 5}]}"#,
            "missing field `trials[0].shape`",
        ),
    ] {
        let e = Study::from_json(text).expect_err(text).to_string();
        assert!(e.starts_with("the study file is not valid: "), "{e}");
        assert!(e.contains(said), "{text}: {e}");
    }
}
