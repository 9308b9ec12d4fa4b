//! Conditions assigned within a study: read from the study file, balanced across
//! participants by the trial order's counterbalancing, kept with the participant through
//! reloads, returns and new attempts, and logged with why.

use super::*;
use crate::play::condition::Condition;

const T0: f64 = 1_764_000_000_000.0;
const MINUTE: f64 = 60_000.0;

fn two(extra: &str) -> Study {
    Study::from_json(&format!(
        r#"{{"trials": [{{"shape": "square"}}, {{"shape": "Z"}}, {{"shape": "spiral"}}],
            "conditions": ["grid", "text"], "counterbalance": true, "version": "1"{extra}}}"#
    ))
    .expect("reads")
}

fn who(id: &str, order: Option<u64>) -> Participant {
    let id = id.to_string();
    Participant::from_params(
        |k| match k {
            "participant" => Some(id.clone()),
            "order" => order.map(|o| o.to_string()),
            _ => None,
        },
        "fallback",
    )
}

#[test]
fn a_study_lists_its_conditions_or_gives_one_and_not_both() {
    let both = two("");
    assert_eq!(
        both.conditions_offered(),
        [Condition::Grid, Condition::Text]
    );
    let one = Study::from_json(r#"{"trials": [{"shape": "C"}], "condition": "text"}"#)
        .expect("one condition still reads");
    assert_eq!(one.conditions_offered(), [Condition::Text]);
    let none = Study::from_json(r#"{"trials": [{"shape": "C"}]}"#).expect("reads");
    assert_eq!(
        none.conditions_offered(),
        [Condition::Grid],
        "the grid by default"
    );
    for (text, says) in [
        (
            r#"{"trials": [{"shape": "C"}], "condition": "grid", "conditions": ["grid", "text"]}"#,
            "either \"condition\"",
        ),
        (
            r#"{"trials": [{"shape": "C"}], "conditions": ["text", "text"]}"#,
            "names 'text' twice",
        ),
        (
            r#"{"trials": [{"shape": "C"}], "conditions": ["grid", "both"]}"#,
            "unknown variant `both`",
        ),
    ] {
        let e = Study::from_json(text).expect_err(text).to_string();
        assert!(e.contains(says), "{text}: {e}");
    }
    // A study's link carries its conditions and reads back the same.
    let param = both.to_config_param().expect("a link");
    assert_eq!(Study::from_config_param(&param).expect("reads"), both);
}

#[test]
fn the_orders_balance_the_conditions_and_every_row_meets_every_condition() {
    let study = two("");
    // Three shapes: a Latin square of 6 rows, in 2 conditions: 12 orders.
    assert_eq!(study.order_count(), 12);
    let mut seen = Vec::new();
    for k in 0..12u64 {
        let cell = (study.order_for(k), study.condition_for(k));
        assert!(
            !seen.contains(&cell),
            "order {k} repeats a row in a condition"
        );
        seen.push(cell);
    }
    let text = seen.iter().filter(|(_, c)| *c == Condition::Text).count();
    assert_eq!(text, 6, "half the orders in each condition");
    // Consecutive participants (the server's least used order, or the link's numbers)
    // alternate, so the conditions stay balanced whenever the study stops.
    let first: Vec<Condition> = (0..4).map(|k| study.condition_for(k)).collect();
    assert_eq!(
        first,
        [
            Condition::Grid,
            Condition::Text,
            Condition::Grid,
            Condition::Text
        ]
    );
    // A study of one condition keeps its orders as before.
    let one = Study {
        conditions: Vec::new(),
        ..study.clone()
    };
    assert_eq!(one.order_count(), 6);
    for k in 0..12 {
        assert_eq!(one.order_for(k), study.order_for(2 * k), "row {k}");
        assert_eq!(one.condition_for(k), Condition::Grid);
    }
}

#[test]
fn the_condition_is_assigned_when_the_session_begins_and_logged_with_why() {
    let study = two("");
    let (s, _) = StudySession::open("pilot", &study, who("p7", Some(5)), None, T0, false);
    assert_eq!(
        s.condition(&study),
        Condition::Text,
        "order 5: the second condition"
    );
    let event = s
        .events
        .iter()
        .find(|e| e.kind == "condition_assigned")
        .expect("the assignment is logged");
    assert_eq!(event.detail, "text (order 5 of 12, from the link)");
    let (s, _) = StudySession::open("pilot", &study, who("p8", None), None, T0, false);
    let k = s.participant.order;
    assert_eq!(s.condition(&study), study.condition_for(k));
    assert!(
        s.events.iter().any(|e| e
            .detail
            .ends_with(&format!("(order {} of 12, from the id's hash)", k % 12))),
        "{:?}",
        s.events
    );
    // One condition: nothing to log.
    let one = Study::from_json(r#"{"trials": [{"shape": "C"}]}"#).expect("reads");
    let (s, _) = StudySession::open("pilot", &one, who("p9", None), None, T0, false);
    assert!(!s.events.iter().any(|e| e.kind == "condition_assigned"));
    assert_eq!(s.condition(&one), Condition::Grid);
}

#[test]
fn a_participant_keeps_their_condition_through_reloads_returns_and_new_attempts() {
    for policy in ["resume", "restart", "block"] {
        let study = two(&format!(r#", "resume": {{"policy": "{policy}"}}"#));
        let (mut s, _) = StudySession::open("pilot", &study, who("p1", Some(3)), None, T0, false);
        assert_eq!(s.condition, Some(Condition::Text));
        s.accept(&study, T0 + MINUTE);
        s.next(false);
        // A later link of the same participant names another order (a mistake, or another
        // platform's number): the session keeps the one it began with.
        for (minutes, reloaded) in [(2.0, true), (5.0, false)] {
            let (again, _) = StudySession::open(
                "pilot",
                &study,
                who("p1", Some(4)),
                Some(s.clone()),
                T0 + minutes * MINUTE,
                reloaded,
            );
            assert_eq!(
                again.condition(&study),
                Condition::Text,
                "{policy}, reloaded {reloaded}"
            );
        }
    }
    // A session too old to resume starts a new attempt, in the same condition.
    let study = two(r#", "resume": {"max_age_minutes": 30}"#);
    let (mut s, _) = StudySession::open("pilot", &study, who("p2", Some(1)), None, T0, false);
    s.accept(&study, T0 + MINUTE);
    let (later, _) = StudySession::open(
        "pilot",
        &study,
        who("p2", Some(0)),
        Some(s),
        T0 + 90.0 * MINUTE,
        false,
    );
    assert_eq!(later.attempt, 1);
    assert_eq!(later.condition(&study), Condition::Text);
}

#[test]
fn a_server_order_brings_its_condition_and_a_failed_ask_keeps_the_hash_s() {
    let study = two(r#", "assignment": "server""#);
    assert!(study.orders_from_server(false));
    assert!(!study.orders_from_server(true), "the link's order wins");
    let (mut s, _) = StudySession::open("pilot", &study, who("p3", None), None, T0, false);
    assert_eq!(s.condition, None, "chosen at consent, with the order");
    assert!(!s.events.iter().any(|e| e.kind == "condition_assigned"));
    s.assign_order(&study, 7, T0 + MINUTE, "order 7 from the server");
    s.accept(&study, T0 + MINUTE);
    assert_eq!(s.condition(&study), Condition::Text);
    assert_eq!(s.order, study.order_for(7));
    let last = s.events.last().expect("an event");
    assert_eq!(
        (last.kind.as_str(), last.detail.as_str()),
        (
            "condition_assigned",
            "text (order 7 of 12, from the server)"
        )
    );
    let (mut s, _) = StudySession::open("pilot", &study, who("p4", None), None, T0, false);
    s.order_fallback(&study, T0 + MINUTE, "the server answered 502");
    let k = s.participant.order;
    assert_eq!(s.condition, Some(study.condition_for(k)));
    let kinds: Vec<&str> = s.events.iter().map(|e| e.kind.as_str()).collect();
    assert_eq!(kinds, ["started", "order_fallback", "condition_assigned"]);
    assert!(s.events[1].detail.ends_with("the server answered 502"));
    // A staircase with two conditions asks the server for the condition alone.
    let stairs = Study::from_json(
        r#"{"trials": [{"shape": "square"}, {"shape": "Z"}], "conditions": ["grid", "text"],
            "staircase": {"trials": 4}, "assignment": "server"}"#,
    )
    .expect("reads");
    assert_eq!(stairs.order_count(), 2);
    assert!(stairs.orders_from_server(false));
}

#[test]
fn the_order_request_says_how_long_an_order_is_held_for_one_who_has_not_finished() {
    let held = |extra: &str| two(extra).hold_minutes();
    assert_eq!(held(""), DEFAULT_HOLD_MINUTES);
    assert_eq!(held(r#", "resume": {"max_age_minutes": 45}"#), 45);
    assert_eq!(
        held(r#", "time_limits": {"study": 1250}"#),
        21,
        "1250 s, rounded up"
    );
    let body: serde_json::Value =
        serde_json::from_str(&order_request("pilot", &two(""), "p1")).expect("JSON");
    assert_eq!(body["orders"], 12);
    assert_eq!(body["title"], "Shape mazes");
    assert_eq!(body["hold_minutes"], DEFAULT_HOLD_MINUTES);
}

#[test]
fn each_participant_sees_the_choices_in_an_order_of_their_own() {
    let shapes = crate::maze::shape::Shape::STANDARD.to_vec();
    let a = who("alice", None).choice_order(&shapes);
    assert_eq!(
        a,
        who("alice", Some(3)).choice_order(&shapes),
        "the id alone decides"
    );
    let mut sorted = a.clone();
    sorted.sort();
    let mut all = shapes.clone();
    all.sort();
    assert_eq!(sorted, all, "every shape, once");
    let orders: std::collections::BTreeSet<Vec<_>> = (0..20)
        .map(|i| who(&format!("p{i}"), None).choice_order(&shapes))
        .collect();
    assert!(
        orders.len() > 10,
        "participants differ: {} orders of 20",
        orders.len()
    );
    let firsts: std::collections::BTreeSet<_> = orders.iter().map(|o| o[0]).collect();
    assert!(firsts.len() > 2, "no shape is always first");
}

#[test]
fn study_data_reads_trials_and_the_outcomes_after_them() {
    let d = test_support::data();
    let o = test_support::outcome();
    let text = format!(
        "{}\n{}\nnot json\n",
        serde_json::to_string(&d).expect("a trial"),
        serde_json::to_string(&OutcomeLine { outcome: o.clone() }).expect("an outcome")
    );
    let read = read_study_data(&text);
    assert_eq!((read.trials, read.outcomes), (vec![d], vec![o]));
    assert_eq!(read.refused.len(), 1);
    assert!(read.refused[0].starts_with("line 3:"), "{:?}", read.refused);
}
