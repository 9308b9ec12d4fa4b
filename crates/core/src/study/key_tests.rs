//! The study's stored keys: every key the page writes reads back as itself, the keys
//! written before issue 41 (the acknowledged outcome's `outcome-sent` among them) still
//! read, and what is no key says why.

use super::key::{stored_participant, KeyProblem, Scope, Sendable, StudyKey, Who};

fn pilot(n: u32) -> super::key::Attempt {
    Who::new("pilot", "p1").attempt(n)
}

/// Keys as the page wrote them before the typed key, with what they hold.
fn written_before() -> Vec<(&'static str, StudyKey)> {
    vec![
        (
            "pilot/p1/session",
            StudyKey::Session(Who::new("pilot", "p1")),
        ),
        ("pilot/p1/trial/3", StudyKey::Trial(pilot(0), 3)),
        ("pilot/p1/trial/-1", StudyKey::Trial(pilot(0), -1)),
        (
            "pilot/p1/sent/3",
            StudyKey::Sent(pilot(0), Sendable::Trial(3)),
        ),
        (
            "pilot/p1/attempt-1/sent/-1",
            StudyKey::Sent(pilot(1), Sendable::Trial(-1)),
        ),
        ("pilot/p1/attempt-1/trial/0", StudyKey::Trial(pilot(1), 0)),
        ("pilot/p1/outcome", StudyKey::Outcome(pilot(0))),
        ("pilot/p1/attempt-12/outcome", StudyKey::Outcome(pilot(12))),
        (
            "inline-00ff00ff00ff00ff/local-1a2b3c4d/session",
            StudyKey::Session(Who::new("inline-00ff00ff00ff00ff", "local-1a2b3c4d")),
        ),
        (
            "imported-Pilot, 1/p1#attempt-1/trial/2",
            StudyKey::Trial(Who::imported("Pilot, 1", "p1#attempt-1").attempt(0), 2),
        ),
    ]
}

#[test]
fn every_key_written_before_reads_as_what_it_holds_and_renders_back() {
    for (text, key) in written_before() {
        assert_eq!(StudyKey::parse(text).as_ref(), Ok(&key), "{text}");
        assert_eq!(key.render(), text);
        assert_eq!(key.to_string(), text, "Display is the key's text");
        assert_eq!(text.parse::<StudyKey>(), Ok(key));
    }
}

#[test]
fn an_acknowledged_outcome_reads_under_its_old_spelling_and_is_written_under_the_new() {
    let old = StudyKey::parse("pilot/p1/outcome-sent").expect("reads");
    let new = StudyKey::parse("pilot/p1/sent/outcome").expect("reads");
    assert_eq!(old, StudyKey::Sent(pilot(0), Sendable::Outcome));
    assert_eq!(old, new, "one acknowledgement, two spellings read");
    assert_eq!(old.render(), "pilot/p1/sent/outcome");
    assert_eq!(
        StudyKey::parse("pilot/p1/attempt-2/outcome-sent"),
        Ok(StudyKey::Sent(pilot(2), Sendable::Outcome))
    );
    assert_eq!(
        StudyKey::Outcome(pilot(2))
            .sent()
            .map(|k| k.render())
            .as_deref(),
        Some("pilot/p1/attempt-2/sent/outcome")
    );
}

#[test]
fn what_is_sent_has_its_receipt_and_nothing_else_does() {
    assert_eq!(
        StudyKey::Trial(pilot(1), -1).sent(),
        Some(StudyKey::Sent(pilot(1), Sendable::Trial(-1)))
    );
    assert_eq!(StudyKey::Session(Who::new("pilot", "p1")).sent(), None);
    assert_eq!(StudyKey::Sent(pilot(0), Sendable::Outcome).sent(), None);
}

#[test]
fn participants_named_like_key_parts_read_as_participants() {
    for id in [
        "sent",
        "session",
        "outcome",
        "trial",
        "attempt-1",
        "outcome-sent",
        "3",
    ] {
        let who = Who::new("pilot", id);
        for key in [
            StudyKey::Session(who.clone()),
            StudyKey::Trial(who.attempt(0), 0),
            StudyKey::Trial(who.attempt(2), -1),
            StudyKey::Outcome(who.attempt(0)),
            StudyKey::Outcome(who.attempt(1)),
            StudyKey::Sent(who.attempt(0), Sendable::Outcome),
            StudyKey::Sent(who.attempt(0), Sendable::Trial(4)),
        ] {
            assert_eq!(StudyKey::parse(&key.render()), Ok(key.clone()), "{key}");
        }
    }
}

#[test]
fn what_is_no_key_says_why() {
    for (text, why) in [
        ("pilot/p1/nothing", KeyProblem::Unknown),
        ("pilot/p1/trial/x", KeyProblem::Index),
        ("pilot/p1/trial/03", KeyProblem::Index),
        ("pilot/p1/sent/+3", KeyProblem::Index),
        ("p1/session", KeyProblem::NoParticipant),
        ("/p1/session", KeyProblem::NoParticipant),
        ("pilot/trial/3", KeyProblem::NoParticipant),
        ("outcome", KeyProblem::Unknown),
        ("", KeyProblem::Unknown),
    ] {
        let e = StudyKey::parse(text).expect_err(text);
        assert_eq!(e.why, why, "{text}");
        assert!(e
            .to_string()
            .starts_with(&format!("'{text}' is not a study's stored key: ")));
    }
    // `attempt-0` is never written (the first attempt has no part): it is part of the id.
    assert_eq!(
        StudyKey::parse("pilot/p1/attempt-0/trial/1"),
        Ok(StudyKey::Trial(
            Who::new("pilot", "p1/attempt-0").attempt(0),
            1
        ))
    );
}

#[test]
fn scopes_cover_a_participant_an_attempt_or_everything() {
    assert_eq!(Scope::All.render(), "");
    let who = Who::new("pilot", "p1");
    assert_eq!(Scope::Participant(who.clone()).render(), "pilot/p1/");
    assert_eq!(Scope::Attempt(who.attempt(0)).render(), "pilot/p1/");
    assert_eq!(
        Scope::Attempt(who.attempt(3)).render(),
        "pilot/p1/attempt-3/"
    );
    for (text, _) in written_before() {
        let key = StudyKey::parse(text).expect("reads");
        assert!(text.starts_with(&Scope::Participant(key.who().clone()).render()));
    }
}

#[test]
fn a_key_says_what_it_holds_for_people() {
    assert_eq!(
        StudyKey::Trial(pilot(1), 2).what(),
        "trial 3 of participant p1 (attempt 2) in study pilot"
    );
    assert_eq!(
        StudyKey::Trial(pilot(0), -1).what(),
        "the practice trial of participant p1 in study pilot"
    );
    assert_eq!(
        StudyKey::Session(Who::new("pilot", "p1")).what(),
        "the session of participant p1 in study pilot"
    );
    assert_eq!(
        StudyKey::Sent(pilot(0), Sendable::Outcome).what(),
        "the upload receipt of the outcome of participant p1 in study pilot"
    );
}

#[test]
fn the_server_names_a_later_attempt_apart() {
    assert_eq!(stored_participant("p1", 0), "p1");
    assert_eq!(stored_participant("p1", 2), "p1#attempt-2");
}

/// Round trips over generated keys and texts (proptest, native only).
#[cfg(not(target_arch = "wasm32"))]
mod properties {
    use super::*;
    use proptest::prelude::*;

    fn any_key() -> impl Strategy<Value = StudyKey> {
        let study = "[A-Za-z0-9_-]{1,10}|inline-[0-9a-f]{16}|imported-[^/]{0,8}";
        let participant = "[^/]{1,10}|sent|session|outcome|trial|attempt-[0-9]{1,2}";
        let index = prop_oneof![Just(-1i64), 0i64..40, any::<i64>()];
        (study, participant, 0u32..5, index, 0..5u8).prop_map(|(s, p, n, i, kind)| {
            let a = Who::new(s, p).attempt(n);
            match kind {
                0 => StudyKey::Session(a.who),
                1 => StudyKey::Trial(a, i),
                2 => StudyKey::Outcome(a),
                3 => StudyKey::Sent(a, Sendable::Trial(i)),
                _ => StudyKey::Sent(a, Sendable::Outcome),
            }
        })
    }

    /// Texts made of key parts, most of them keys, some not.
    fn any_text() -> impl Strategy<Value = String> {
        let part = prop::sample::select(vec![
            "pilot",
            "p1",
            "session",
            "trial",
            "sent",
            "outcome",
            "outcome-sent",
            "attempt-1",
            "attempt-0",
            "attempt-01",
            "3",
            "-1",
            "03",
            "",
            "x",
        ]);
        prop::collection::vec(part, 1..7).prop_map(|parts| parts.join("/"))
    }

    proptest! {
        #[test]
        fn every_key_reads_back_as_itself(key in any_key()) {
            prop_assert_eq!(StudyKey::parse(&key.render()), Ok(key));
        }

        #[test]
        fn every_text_read_renders_back_as_itself_but_the_old_outcome_receipt(text in any_text()) {
            if let Ok(key) = StudyKey::parse(&text) {
                if !text.ends_with("/outcome-sent") {
                    prop_assert_eq!(key.render(), text);
                }
            }
        }
    }
}
