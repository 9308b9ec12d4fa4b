//! Trials played by a chat model under each answer mode, over a scripted transport: what
//! is sent (the form's parameter, the words in the prompt, a function call's result), how
//! each reply is read (serde against the schema, or the free readers when the form is not
//! held), the step-downs, the transcription, and the record that keeps it all and replays
//! to the same verdicts.

use serde_json::{json, Value};
use shapemaze_core::analysis::review::{
    all_replies, flag, queue_of, rates_as_reviewed, Flags, Why,
};
use shapemaze_core::maze::encoding::Encoding;
use shapemaze_core::maze::generate::generate_one;
use shapemaze_core::maze::shape::Shape;
use shapemaze_core::maze::templates::TemplateLibrary;
use shapemaze_core::model::form::Spelling;
use shapemaze_core::model::preset::Preset;
use shapemaze_core::model::scripted::{Scripted, ScriptedTransport};
use shapemaze_core::model::settings::EndpointSettings;
use shapemaze_core::model::transport::HttpRequest;
use shapemaze_core::play::answer::{AnswerMode, FormReason, Source};
use shapemaze_core::play::answer_mode::NOTE_HEADING;
use shapemaze_core::play::endpoint::{AnswerSettings, EndpointPlayer};
use shapemaze_core::play::phase::Phase;
use shapemaze_core::play::player::{play_ready, Oracle, PlayerKind};
use shapemaze_core::play::trial::{Trial, TrialSetup};
use shapemaze_core::results::record::{Placement, PlayerInfo, TrialRecord};
use shapemaze_core::verify::{DoubtKind, Outcome, Rule};
use std::sync::Arc;

fn setup(encoding: Encoding, mode: AnswerMode) -> (TrialSetup, Arc<TemplateLibrary>) {
    let lib = Arc::new(TemplateLibrary::for_shape(5, Shape::Square));
    let maze = generate_one(Shape::Square, 0, 0, &lib).expect("a maze");
    let setup = TrialSetup {
        answer_mode: mode,
        ..TrialSetup::new(Shape::Square, encoding, maze)
    };
    (setup, lib)
}

/// The oracle's answers to a trial, in order.
fn oracle_answers(setup: &TrialSetup, lib: &Arc<TemplateLibrary>) -> Vec<(Phase, String)> {
    let mut t = Trial::new(setup.clone(), lib.clone());
    let mut out = Vec::new();
    while let Some(a) = Oracle::answer(&t) {
        out.push((t.phase(), a.clone()));
        t.submit(&a);
    }
    out
}

/// An answer's fields as the schema names them, from the oracle's text.
fn fields(phase: Phase, text: &str) -> Value {
    match phase {
        Phase::Solve => {
            let nums: Vec<usize> = text
                .split(|c: char| !c.is_ascii_digit())
                .filter(|s| !s.is_empty())
                .map(|s| s.parse().expect("a number"))
                .collect();
            json!({"row": nums[0], "col": nums[1]})
        }
        Phase::Recognize => json!({"shape": text.trim_start_matches("Shape: ")}),
        _ => json!({"rows": text.lines().collect::<Vec<_>>()}),
    }
}

fn body(message: Value) -> Scripted {
    let usage = json!({"prompt_tokens": 40, "completion_tokens": 10, "total_tokens": 50});
    Scripted::ok(
        json!({"choices": [{"message": message, "finish_reason": "stop"}], "usage": usage})
            .to_string(),
    )
}

fn content(text: &str) -> Scripted {
    body(json!({"role": "assistant", "content": text}))
}

fn schema_reply(phase: Phase, text: &str) -> Scripted {
    let mut f = fields(phase, text);
    let mut v = json!({"reasoning": "the open cells lead there"});
    v.as_object_mut()
        .expect("an object")
        .append(f.as_object_mut().expect("an object"));
    content(&v.to_string())
}

fn play(
    mode: AnswerMode,
    first: Option<Spelling>,
    script: Vec<Scripted>,
) -> (Trial, Vec<HttpRequest>) {
    let (setup, lib) = setup(Encoding::Matrix, mode);
    let transport = ScriptedTransport::new(script);
    let settings = EndpointSettings {
        base_url: "http://127.0.0.1:9/v1".into(),
        model: "m".into(),
        max_attempts: 2,
        ..EndpointSettings::for_preset(Preset::Custom)
    };
    let mut player =
        EndpointPlayer::new(transport, settings, String::new(), None).answering(AnswerSettings {
            mode,
            first,
            transcriber: None,
        });
    let mut trial = Trial::new(setup, lib);
    play_ready(&mut trial, &mut player);
    let requests = player.transport().requests();
    (trial, requests)
}

fn sent(r: &HttpRequest) -> Value {
    serde_json::from_str(&r.body).expect("JSON")
}

fn record(t: &Trial) -> TrialRecord {
    TrialRecord::of(
        t,
        PlayerInfo {
            kind: PlayerKind::Endpoint,
            model: "m".into(),
            endpoint: None,
            system_prompt: None,
        },
        Placement::default(),
        None,
        None,
    )
}

/// The record reads back, and replays through today's readers to the same verdicts and
/// the same conversation (the prompts with the words the forms added).
fn replays(t: &Trial) -> TrialRecord {
    let r = record(t);
    let back = TrialRecord::from_json(&r.to_json().expect("writes")).expect("reads back");
    assert_eq!(back, r, "the record round-trips");
    let again = back.rescored(t.library().clone()).expect("replays");
    assert_eq!(again.verdicts, r.verdicts, "the same verdicts on replay");
    assert_eq!(
        again.messages, r.messages,
        "the same conversation on replay"
    );
    assert_eq!(again.answer_mode_in_effect, r.answer_mode_in_effect);
    r
}

#[test]
fn a_schema_trial_is_asked_for_json_and_read_by_serde_against_its_schema() {
    let (s, lib) = setup(Encoding::Matrix, AnswerMode::Schema);
    let script = oracle_answers(&s, &lib)
        .iter()
        .map(|(p, a)| schema_reply(*p, a))
        .collect();
    let (t, reqs) = play(AnswerMode::Schema, None, script);
    assert_eq!(
        t.outcomes(),
        [Some(Outcome::Success); 3],
        "{:?}",
        t.verdicts()
    );
    for turn in t.turns().iter().filter(|t| t.verdict.is_some()) {
        let v = turn.verdict.as_ref().expect("a verdict");
        assert_eq!((v.rule, v.sure), (Some(Rule::Schema), Some(true)), "{v:?}");
        let f = turn.form.as_deref().expect("a form reading");
        assert!(f.held && f.read.iter().all(|r| r.agrees()), "{f:?}");
    }
    let first = sent(&reqs[0]);
    assert_eq!(first["response_format"]["type"], "json_schema");
    let schema = &first["response_format"]["json_schema"]["schema"];
    assert_eq!(schema["required"], json!(["reasoning", "row", "col"]));
    let prompt = first["messages"][0]["content"].as_str().expect("text");
    assert!(
        prompt.contains(NOTE_HEADING) && prompt.contains("JSON"),
        "{prompt}"
    );
    let r = replays(&t);
    assert_eq!(r.answer_mode, AnswerMode::Schema);
    let m = r.answer_mode_in_effect.as_ref().expect("modes in effect");
    let solve = m.solve.as_ref().expect("the solve phase's");
    assert_eq!(
        (solve.mode, solve.form, solve.not_held),
        (AnswerMode::Schema, Spelling::JsonSchema, 0)
    );
    assert!(
        r.messages[0].content.contains(NOTE_HEADING),
        "the record keeps the prompt as sent"
    );
}

#[test]
fn a_refused_spelling_steps_down_once_for_the_trial_and_the_record_says_why() {
    let (s, lib) = setup(Encoding::Matrix, AnswerMode::Schema);
    let answers = oracle_answers(&s, &lib);
    let refused =
        r#"{"error":{"message":"1 validation error: structured_outputs is not a field"}}"#;
    let mut script = vec![
        Scripted::status(
            400,
            r#"{"error":{"message":"response_format json_schema is not supported"}}"#,
        ),
        Scripted::status(500, refused),
    ];
    script.extend(answers.iter().map(|(p, a)| schema_reply(*p, a)));
    let (t, reqs) = play(AnswerMode::Schema, None, script);
    assert_eq!(
        t.outcomes(),
        [Some(Outcome::Success); 3],
        "{:?}",
        t.api_error()
    );
    assert_eq!(
        reqs.len(),
        answers.len() + 2,
        "two refusals, no retry of the 500"
    );
    assert_eq!(sent(&reqs[0])["response_format"]["type"], "json_schema");
    assert!(sent(&reqs[1]).get("structured_outputs").is_some());
    for r in &reqs[2..] {
        assert_eq!(
            sent(r)["response_format"]["type"],
            "json_object",
            "the step-down holds for the trial"
        );
    }
    let first = t.turns()[1].form.as_deref().expect("a form");
    let steps: Vec<(Spelling, Option<u16>)> = first
        .stepped_down
        .iter()
        .map(|s| (s.form, s.status))
        .collect();
    assert_eq!(
        steps,
        [
            (Spelling::JsonSchema, Some(400)),
            (Spelling::StructuredOutputs, Some(500))
        ]
    );
    assert!(first.stepped_down[0].error.contains("not supported"));
    let r = replays(&t);
    let solve = r
        .answer_mode_in_effect
        .as_ref()
        .and_then(|m| m.solve.clone())
        .expect("solve");
    assert_eq!(
        (solve.form, solve.stepped_down.len()),
        (Spelling::JsonObject, 2)
    );
}

#[test]
fn a_form_the_endpoint_ignores_is_counted_not_held_and_the_free_readers_read_the_reply() {
    let (s, lib) = setup(Encoding::Matrix, AnswerMode::Schema);
    // The endpoint answers 200 with the oracle's free text: the schema was not held.
    let script: Vec<Scripted> = oracle_answers(&s, &lib)
        .iter()
        .map(|(_, a)| content(a))
        .collect();
    let (t, _) = play(AnswerMode::Schema, None, script.clone());
    let (free, _) = play(AnswerMode::Free, None, script);
    assert_eq!(
        t.outcomes(),
        [Some(Outcome::Success); 3],
        "the trial goes on by the free reading"
    );
    let first = &t.turns()[1];
    let f = first.form.as_deref().expect("a form");
    assert!(!f.held);
    assert_eq!(f.reason, Some(FormReason::FormNotHeld));
    assert!(
        f.why.as_deref().is_some_and(|w| w.contains("not the JSON")),
        "{f:?}"
    );
    let rule = |t: &Trial| t.turns()[1].verdict.as_ref().and_then(|v| v.rule);
    assert_eq!(rule(&t), rule(&free), "read as a free trial reads it");
    assert!(!matches!(rule(&t), Some(Rule::Schema | Rule::ToolCall)));
    let r = replays(&t);
    let m = r.answer_mode_in_effect.as_ref().expect("modes");
    assert_eq!(
        m.solve.as_ref().map(|s| s.not_held),
        m.solve.as_ref().map(|s| s.replies)
    );
}

#[test]
fn a_tool_trial_forces_the_function_and_answers_each_call_with_the_next_prompt() {
    let (s, lib) = setup(Encoding::Matrix, AnswerMode::Tool);
    let fns = |p: Phase| match p {
        Phase::Solve => "submit_move",
        Phase::Recognize => "name_shape",
        _ => "submit_maze",
    };
    let script = oracle_answers(&s, &lib)
        .iter()
        .enumerate()
        .map(|(i, (p, a))| {
            body(json!({"role": "assistant", "content": null, "tool_calls": [{"id": format!("call_{i}"), "type": "function", "function": {"name": fns(*p), "arguments": fields(*p, a).to_string()}}]}))
        })
        .collect();
    let (t, reqs) = play(AnswerMode::Tool, None, script);
    assert_eq!(
        t.outcomes(),
        [Some(Outcome::Success); 3],
        "{:?}",
        t.verdicts()
    );
    let first = sent(&reqs[0]);
    assert_eq!(first["tool_choice"]["function"]["name"], "submit_move");
    assert!(first["tools"][0]["function"]["parameters"]["properties"]
        .get("reasoning")
        .is_none());
    let second = sent(&reqs[1]);
    let msgs = second["messages"].as_array().expect("messages");
    assert_eq!(
        msgs[1]["tool_calls"][0]["id"], "call_0",
        "the call goes back"
    );
    assert_eq!(
        (msgs[2]["role"].as_str(), msgs[2]["tool_call_id"].as_str()),
        (Some("tool"), Some("call_0"))
    );
    assert!(msgs[2]["content"]
        .as_str()
        .is_some_and(|c| c.starts_with("Updated maze:")));
    let v = t.turns()[1].verdict.as_ref().expect("a verdict");
    assert_eq!(v.rule, Some(Rule::ToolCall));
    let r = replays(&t);
    let tr = r.transcript().expect("a transcript");
    let call = format!(
        "submit_move({})",
        msgs[1]["tool_calls"][0]["function"]["arguments"]
            .as_str()
            .expect("text")
    );
    assert!(
        tr.contains(&call),
        "the call {call} is in the transcript as sent: {tr}"
    );
}

#[test]
fn a_transcribed_trial_keeps_the_free_answer_and_reads_its_transcription() {
    let (s, lib) = setup(Encoding::Matrix, AnswerMode::Transcribed);
    let mut script = Vec::new();
    for (i, (p, a)) in oracle_answers(&s, &lib).iter().enumerate() {
        script.push(content(a));
        let mut f = fields(*p, a);
        if i == 0 {
            // The first transcription is one row off: our readers disagree with it.
            f["row"] = json!(f["row"].as_u64().expect("a row") + 1);
        }
        script.push(body(json!({"role": "assistant", "content": f.to_string()})));
    }
    let (t, reqs) = play(AnswerMode::Transcribed, None, script);
    let free = sent(&reqs[0]);
    assert!(
        free.get("response_format").is_none(),
        "the answer is asked freely"
    );
    assert!(!free["messages"][0]["content"]
        .as_str()
        .expect("text")
        .contains(NOTE_HEADING));
    let question = sent(&reqs[1]);
    assert_eq!(
        question["messages"].as_array().map(Vec::len),
        Some(1),
        "the reply alone"
    );
    assert!(question["messages"][0]["content"]
        .as_str()
        .expect("text")
        .contains("<<<\nMove: ("));
    let f = t.turns()[1].form.as_deref().expect("a form");
    assert_eq!((f.source, f.held), (Source::Transcription, true));
    assert!(
        !f.read[0].agrees(),
        "the readers and the transcription disagree"
    );
    let v = t.turns()[1].verdict.as_ref().expect("a verdict");
    assert_eq!(v.rule, Some(Rule::Schema));
    // Two readers that differ: the transcription's reading is not marked sure.
    let doubt = v.doubt.as_ref().expect("the disagreement is a doubt");
    assert_eq!(
        (v.sure, doubt.kind, doubt.rival.clone()),
        (
            Some(false),
            DoubtKind::ReadersDiffer,
            f.read[0].free.clone()
        )
    );
    assert!(
        doubt.why.starts_with("Unsure: our readers read ("),
        "{}",
        doubt.why
    );
    let r = replays(&t);
    let own = shapemaze_core::results::record::Tokens::of(&r).expect("tokens");
    let apart = shapemaze_core::results::forms::transcription(&r).expect("transcription tokens");
    assert_eq!(
        own.calls, apart.calls,
        "one transcription per reply, counted apart"
    );
    // The rates as reviewed keep the mode apart from the model's free trials.
    let free = {
        let (s, lib) = setup(Encoding::Matrix, AnswerMode::Free);
        let script = oracle_answers(&s, &lib)
            .iter()
            .map(|(_, a)| content(a))
            .collect();
        record(&play(AnswerMode::Free, None, script).0)
    };
    let rows = rates_as_reviewed(&[free, r.clone()], &[]);
    assert_eq!(
        rows.iter()
            .map(|row| row.model.as_str())
            .collect::<Vec<_>>(),
        [r.model.as_str(), &format!("{}+transcribed", r.model)],
        "one row per model and mode"
    );
    let records = [r];
    let flagged = shapemaze_core::analysis::forms::transcription_disagreements(&records);
    assert_eq!(flagged.len(), 1, "the disagreement joins the review queue");
    assert_eq!((flagged[0].1, flagged[0].2), (Phase::Solve, 0));
    // The queue shows the reading the trial was scored by (the transcription's), unsure,
    // queued for both reasons; a reply read by its text alone keeps our readers' reading.
    let mut flags = Flags::new();
    for k in flagged {
        flag(&mut flags, k, Why::Transcription);
    }
    let queue = queue_of(&all_replies(&records), &flags, None);
    let first = queue.first().expect("queued");
    assert_eq!(
        (first.phase, first.step, first.reasons.clone()),
        (Phase::Solve, 0, vec![Why::Unsure, Why::Transcription])
    );
    assert_eq!(
        (first.reading.rule, first.reading.value.clone(), first.sure),
        (Rule::Schema, f.read[0].form.clone(), false)
    );
}

#[test]
fn a_transcription_our_readers_agree_with_is_sure() {
    let (s, lib) = setup(Encoding::Matrix, AnswerMode::Transcribed);
    let mut script = Vec::new();
    for (p, a) in oracle_answers(&s, &lib) {
        script.push(content(&a));
        script.push(body(
            json!({"role": "assistant", "content": fields(p, &a).to_string()}),
        ));
    }
    let (t, _) = play(AnswerMode::Transcribed, None, script);
    let read: Vec<(Option<Rule>, Option<bool>)> = t
        .turns()
        .iter()
        .filter_map(|turn| turn.verdict.as_ref().map(|v| (v.rule, v.sure)))
        .collect();
    assert!(
        read.len() >= 3 && read.iter().all(|r| *r == (Some(Rule::Schema), Some(true))),
        "every transcription our readers agree with is read sure: {read:?}"
    );
}

#[test]
fn an_answer_that_arrives_in_the_reasoning_field_is_read_from_there_and_said_so() {
    let (s, lib) = setup(Encoding::Matrix, AnswerMode::Schema);
    let script = oracle_answers(&s, &lib)
        .iter()
        .map(|(p, a)| {
            let mut v = fields(*p, a);
            v["reasoning"] = json!("ok");
            body(json!({"role": "assistant", "content": "", "reasoning_content": format!("Thinking it over.\n{v}")}))
        })
        .collect();
    let (t, _) = play(AnswerMode::Schema, Some(Spelling::JsonObject), script);
    assert_eq!(
        t.outcomes(),
        [Some(Outcome::Success); 3],
        "{:?}",
        t.verdicts()
    );
    let turn = &t.turns()[1];
    let f = turn.form.as_deref().expect("a form");
    assert_eq!(
        (f.source, f.held, f.form),
        (Source::Reasoning, true, Spelling::JsonObject)
    );
    assert_eq!(
        turn.meta.as_ref().and_then(|m| m.empty_reason),
        None,
        "not an empty answer"
    );
    let r = replays(&t);
    assert_eq!(
        r.answer_mode_in_effect
            .as_ref()
            .and_then(|m| m.solve.as_ref())
            .map(|s| s.from_reasoning),
        Some(t.moves())
    );
}

#[test]
fn an_old_record_reads_as_free() {
    let (s, lib) = setup(Encoding::Matrix, AnswerMode::Free);
    let mut t = Trial::new(s, lib);
    play_ready(&mut t, &mut Oracle);
    let json = record(&t).to_json().expect("writes");
    assert!(
        !json.contains("answer_mode") && !json.contains("\"form\""),
        "free leaves nothing: {json}"
    );
    let back = TrialRecord::from_json(&json).expect("reads");
    assert_eq!(
        (back.answer_mode, back.answer_mode_in_effect.as_ref()),
        (AnswerMode::Free, None)
    );
}
