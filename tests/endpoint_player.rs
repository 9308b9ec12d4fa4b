//! The endpoint player against a scripted chat backend: whole trials in every protocol,
//! and the records they leave.

use shapemaze::core::maze::encoding::Encoding;
use shapemaze::core::maze::generate::generate_one;
use shapemaze::core::maze::shape::Shape;
use shapemaze::core::maze::templates::TemplateLibrary;
use shapemaze::core::model::preset::Preset;
use shapemaze::core::model::reply::{EmptyReason, EndpointInfo};
use shapemaze::core::model::scripted::{Scripted, ScriptedTransport};
use shapemaze::core::model::settings::EndpointSettings;
use shapemaze::core::model::transport::block_on;
use shapemaze::core::model::transport::Transport;
use shapemaze::core::play::endpoint::EndpointPlayer;
use shapemaze::core::play::player::{play, play_ready, Oracle};
use shapemaze::core::play::player::{Player, PlayerEvent};
use shapemaze::core::play::transcript::Role;
use shapemaze::core::play::trial::Trial;
use shapemaze::core::play::trial::{FailureKind, Protocol, TrialSetup};
use shapemaze::core::results::record::{Placement, PlayerInfo, TrialRecord};
use shapemaze::core::verify::{Outcome, Reason};
use std::sync::Arc;

fn trial(shape: Shape, encoding: Encoding, protocol: Protocol) -> Trial {
    let lib = Arc::new(TemplateLibrary::new(5));
    let maze = generate_one(shape, 1, 3, &lib).expect("maze");
    Trial::new(
        TrialSetup {
            protocol,
            ..TrialSetup::new(shape, encoding, maze)
        },
        lib,
    )
}

/// What the oracle would answer, one reply per prompt.
fn oracle_replies(t: &Trial) -> Vec<String> {
    let mut copy = t.clone();
    play_ready(&mut copy, &mut Oracle);
    copy.messages()
        .iter()
        .filter(|m| m.role == Role::Assistant)
        .map(|m| m.content.clone())
        .collect()
}

/// The record of trial `t` played by `player`, which sent `system_prompt`.
fn record_of<T: Transport>(
    t: &Trial,
    player: &EndpointPlayer<T>,
    system_prompt: Option<&str>,
) -> TrialRecord {
    let info = PlayerInfo {
        kind: player.kind(),
        model: player.name(),
        endpoint: Some(EndpointInfo::from(player.settings())),
        system_prompt: system_prompt.map(str::to_string),
    };
    TrialRecord::of(t, info, Placement::default(), None, None)
}

fn settings() -> EndpointSettings {
    EndpointSettings {
        base_url: "http://127.0.0.1:9/v1".into(),
        model: "scripted-model".into(),
        ..EndpointSettings::for_preset(Preset::Custom)
    }
}

#[test]
fn a_scripted_chat_backend_plays_whole_trials_in_every_protocol() {
    for protocol in Protocol::ALL {
        for shape in [Shape::Square, Shape::Cross, Shape::Spiral] {
            let mut t = trial(shape, Encoding::CoordList, protocol);
            let script = oracle_replies(&t)
                .iter()
                .map(|r| Scripted::answer(r))
                .collect();
            let mut player = EndpointPlayer::new(
                ScriptedTransport::new(script),
                settings(),
                "sk-secret".into(),
                Some("You are careful.".into()),
            );
            block_on(play(&mut t, &mut player, &mut |_| {}));
            assert_eq!(
                t.outcomes(),
                [Some(Outcome::Success); 3],
                "{shape} {}",
                protocol.name()
            );
            let requests = player.transport().requests();
            let last: serde_json::Value =
                serde_json::from_str(&requests.last().expect("requests").body).expect("json");
            let sent = last["messages"].as_array().expect("messages");
            assert_eq!(
                sent[0]["role"], "system",
                "the system prompt opens the conversation"
            );
            assert_eq!(
                sent.len(),
                t.messages().len(),
                "the whole conversation minus the last reply, plus the system prompt"
            );
            let record = record_of(&t, &player, Some("You are careful."));
            let json = record.to_json().expect("written");
            assert!(
                !json.contains("sk-secret"),
                "the key never reaches the record"
            );
            let reply = record
                .messages
                .iter()
                .find(|m| m.role == Role::Assistant)
                .expect("a reply");
            assert_eq!(
                (reply.meta.latency_ms, reply.meta.attempts),
                (Some(250.0), Some(1))
            );
        }
    }
}

#[test]
fn a_rate_limit_is_retried_and_a_refused_key_ends_the_trial_as_an_api_error() {
    let mut t = trial(Shape::Z, Encoding::Matrix, Protocol::Stepwise);
    let replies = oracle_replies(&t);
    let mut script = vec![
        Scripted::status(429, "{\"error\": {\"message\": \"slow down\"}}")
            .with_header("Retry-After", "2"),
    ];
    script.push(Scripted::answer(&replies[0]));
    script.push(Scripted::status(
        401,
        "{\"error\": {\"message\": \"Incorrect API key provided\"}}",
    ));
    let mut player =
        EndpointPlayer::new(ScriptedTransport::new(script), settings(), "k".into(), None);
    let mut notices = Vec::new();
    block_on(play(&mut t, &mut player, &mut |e| {
        if let PlayerEvent::Retrying(n) = e {
            notices.push(n);
        }
    }));
    assert_eq!(notices.len(), 1, "{notices:?}");
    assert!(
        notices[0].starts_with("429. Retrying (attempt 2 of 6)"),
        "{}",
        notices[0]
    );
    assert_eq!(
        player.transport().sleeps(),
        vec![2000],
        "Retry-After is honoured"
    );
    assert_eq!(t.turns()[1].meta.as_ref().and_then(|m| m.attempts), Some(2));
    let failure = t.api_error().expect("an API error");
    assert_eq!(failure.kind, "unauthorized");
    assert!(
        failure.message.to_lowercase().contains("key"),
        "{}",
        failure.message
    );
    assert_eq!(t.failure(), Some(FailureKind::ApiError));
    assert_eq!(t.moves(), 1, "the first move was played");
    for v in t.verdicts() {
        assert_eq!(v.map(|v| v.reason), Some(Reason::ApiError));
    }
}

/// A 200 answer with no content: reasoning cut by the token limit when `reasoning` is
/// given, else an empty answer that stopped; streamed (events) or a whole body.
fn empty_answer(stream: bool, reasoning: Option<&str>) -> Scripted {
    let finish = if reasoning.is_some() {
        "length"
    } else {
        "stop"
    };
    if stream {
        let r = serde_json::json!({"choices": [{"delta": {"role": "assistant", "reasoning_content": reasoning}}]});
        let end = serde_json::json!({"choices": [{"delta": {}, "finish_reason": finish}]});
        Scripted::chunks(&[&format!("data: {r}\n\ndata: {end}\n\ndata: [DONE]\n\n")])
    } else {
        let body = serde_json::json!({"choices": [{"message": {"role": "assistant", "content": null,
            "reasoning_content": reasoning}, "finish_reason": finish}]});
        Scripted::ok(body.to_string())
    }
}

#[test]
fn empty_answers_are_judged_the_same_streamed_or_not_and_say_when_the_limit_ended_them() {
    let mut records = Vec::new();
    for stream in [false, true] {
        let mut t = trial(Shape::Square, Encoding::CoordList, Protocol::Stepwise);
        // The solve phase: reasoning cut by the limit; recognition: an empty stop;
        // generation: the limit again.
        let script = vec![
            empty_answer(stream, Some("First I list the walls")),
            empty_answer(stream, None),
            empty_answer(stream, Some("A square has four sides")),
        ];
        let s = EndpointSettings {
            stream,
            max_tokens: 64,
            ..settings()
        };
        let mut player = EndpointPlayer::new(ScriptedTransport::new(script), s, "k".into(), None);
        block_on(play(&mut t, &mut player, &mut |_| {}));
        assert!(t.api_error().is_none(), "streamed {stream}: no API error");
        assert_eq!(t.outcomes(), [Some(Outcome::Fail); 3], "streamed {stream}");
        assert_eq!(t.failure(), Some(FailureKind::UnparseableReply));
        let [solve, recognize, generate] = t.verdicts().map(|v| v.cloned().expect("judged"));
        assert_eq!(
            solve.explanation,
            "Move 1: The token limit (64) was spent on reasoning; no answer was given."
        );
        assert!(
            !recognize.explanation.contains("token limit"),
            "{recognize:?}"
        );
        assert_eq!(
            generate.explanation,
            "The token limit (64) was spent on reasoning; no answer was given."
        );
        let record = record_of(&t, &player, None);
        let replies: Vec<_> = record
            .messages
            .iter()
            .filter(|m| m.role == Role::Assistant)
            .map(|m| (m.content.as_str(), m.meta.empty_reason, m.meta.max_tokens))
            .collect();
        assert_eq!(
            replies,
            [
                ("", Some(EmptyReason::LengthInReasoning), Some(64)),
                ("", Some(EmptyReason::NoText), None),
                ("", Some(EmptyReason::LengthInReasoning), Some(64)),
            ],
            "streamed {stream}"
        );
        let json = record.to_json().expect("written");
        assert!(
            json.contains("\"empty_reason\":\"length_in_reasoning\""),
            "{json}"
        );
        // Read back and re-scored, the record gives the same verdicts.
        let back = TrialRecord::from_json(&json).expect("reads back");
        let again = back.rescored(t.library().clone()).expect("re-scores");
        assert_eq!(again.verdicts, record.verdicts);
        records.push(record.verdicts);
    }
    assert_eq!(records[0], records[1], "the same verdicts streamed or not");
}
