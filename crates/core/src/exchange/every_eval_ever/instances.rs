//! The instance rows of one model (`instance_level_eval.schema.json`), one per reply and
//! phase it is scored for (a combined reply answers two phases, so it gives two rows).
//!
//! A trial is a conversation (the model is sent every earlier message), so a row is
//! `multi_turn`: its `messages` are the system prompt (when there is one), the prompts
//! that asked for this reply and the reply, each with its place in the whole conversation
//! as `turn_idx`, so a trial's rows put together give its conversation in order. The reply
//! is read by the phase's reader: `answer_attribution` holds the value read, and
//! `extraction_method` the reader's rule (`shapemaze_reader.json`, ...). `evaluation` is
//! the verdict: on the reply that ended its phase (`is_terminal`), the phase's verdict,
//! which the aggregate's rate counts; on every other reply, the verdict on that reply (a
//! move's validity). Both verdicts are in `metadata` too, as are the trial's identity, the
//! rule and whether it is sure.

use super::names::{result_id, Details, Identity, SCHEMA_VERSION};
use crate::batch::export::csv_value;
use crate::play::phase::Phase;
use crate::play::transcript::Role;
use crate::play::trial::Protocol;
use crate::results::record::{RecordMessage, TrialRecord};
use crate::results::replay::phase_of;
use crate::results::rescore::value_text;
use crate::verify::{Extracted, Outcome, Verdict};
use serde::Serialize;

/// One row.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct InstanceRow {
    /// [`SCHEMA_VERSION`].
    pub schema_version: String,
    /// The aggregate's `evaluation_id`.
    pub evaluation_id: String,
    /// The aggregate's `model_info.id`.
    pub model_id: String,
    /// `shapemaze.solve`, ...
    pub evaluation_name: String,
    /// The same: the aggregate result the row belongs to.
    pub evaluation_result_id: String,
    /// The question: `{encoding}/{R}x{C}/{shape}/{seed}/{sample}/{phase}/{step}` (the same
    /// for every player and repeat of the maze).
    pub sample_id: String,
    /// `multi_turn`.
    pub interaction_type: String,
    /// The prompts that asked for the reply.
    pub input: Input,
    /// `null` for a `multi_turn` row.
    pub output: Option<()>,
    /// The system prompt, the prompts and the reply.
    pub messages: Vec<Message>,
    /// What the reader read in the reply.
    pub answer_attribution: Vec<Attribution>,
    /// The verdict.
    pub evaluation: Evaluation,
    /// The reply's tokens, when the endpoint counted them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub token_usage: Option<TokenUsage>,
    /// The reply's latency, when recorded.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub performance: Option<Performance>,
    /// The trial, the phase, the reading's rule and both verdicts, as strings.
    pub metadata: Details,
}

/// `input`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Input {
    /// The prompts that asked for the reply (several joined by a blank line).
    pub raw: String,
    /// The answer a recognition reply should give (the maze's shape); none for moves and
    /// drawn mazes, which have many right answers.
    pub reference: Vec<String>,
}

/// One message of `messages`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Message {
    /// Its place in the trial's whole conversation (the system prompt 0 when there is one).
    pub turn_idx: usize,
    /// Who wrote it.
    pub role: Speaker,
    /// The text as sent or received.
    pub content: String,
    /// The model's reasoning, when the endpoint returned it apart from the reply.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reasoning_trace: Option<String>,
}

/// Who wrote a message: `system`, `user` or `assistant`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Speaker {
    /// The system prompt.
    System,
    /// The trial: prompts and updated mazes.
    User,
    /// The player.
    Assistant,
}

impl From<Role> for Speaker {
    fn from(role: Role) -> Speaker {
        match role {
            Role::User => Speaker::User,
            Role::Assistant => Speaker::Assistant,
        }
    }
}

/// One entry of `answer_attribution`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Attribution {
    /// The reply's `turn_idx`.
    pub turn_idx: usize,
    /// `messages[k].content`, `k` the reply's place in this row's `messages`.
    pub source: String,
    /// The value read: `(r, c)`, a shape's name, a maze's rows, or empty.
    pub extracted_value: String,
    /// `shapemaze_reader.{rule}`.
    pub extraction_method: String,
    /// Whether the reply ended its phase.
    pub is_terminal: bool,
}

/// `evaluation`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Evaluation {
    /// 1 for a success, 0 otherwise.
    pub score: f64,
    /// Whether it was a success.
    pub is_correct: bool,
    /// Messages in the conversation up to the reply.
    pub num_turns: usize,
}

/// `token_usage`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TokenUsage {
    /// Prompt tokens.
    pub input_tokens: u64,
    /// Completion tokens.
    pub output_tokens: u64,
    /// Their total, as the endpoint said (else their sum).
    pub total_tokens: u64,
    /// Of the completion, those spent on reasoning, when said.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reasoning_tokens: Option<u64>,
}

/// `performance`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Performance {
    /// From the request to the whole reply, in milliseconds.
    pub latency_ms: f64,
}

/// A reply of a record: its index in the messages, its phase and its place in the phase,
/// and the prompts that asked for it (their indices).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplyTurn {
    /// The reply's index in the record's messages.
    pub index: usize,
    /// The phase it answers (for a combined reply, the recognition's).
    pub phase: Phase,
    /// Its index in the phase, from 0.
    pub step: usize,
    /// The indices of the messages between the previous reply and this one.
    pub prompts: Vec<usize>,
}

/// The replies of `record`, in order, each placed in its phase by the prompts' headings.
pub fn reply_turns(record: &TrialRecord) -> Vec<ReplyTurn> {
    let mut out = Vec::new();
    let mut phase = Phase::Solve;
    let mut steps = [0usize; 3];
    let mut prompts = Vec::new();
    for (index, m) in record.messages.iter().enumerate() {
        match m.role {
            Role::User => {
                phase = phase_of(&m.content, phase);
                prompts.push(index);
            }
            Role::Assistant => {
                let at = phase.index();
                out.push(ReplyTurn {
                    index,
                    phase,
                    step: steps[at],
                    prompts: std::mem::take(&mut prompts),
                });
                steps[at] += 1;
            }
        }
    }
    out
}

/// The rows of one trial of the model `identity` names.
pub fn rows_of(record: &TrialRecord, identity: &Identity) -> Vec<InstanceRow> {
    let turns = reply_turns(record);
    let mut out = Vec::new();
    for (k, turn) in turns.iter().enumerate() {
        let combined = record.protocol == Protocol::Combined && turn.phase == Phase::Recognize;
        let answers: &[Phase] = if combined {
            &[Phase::Recognize, Phase::Generate]
        } else {
            std::slice::from_ref(&turn.phase)
        };
        let last_of_phase = !turns[k + 1..].iter().any(|t| t.phase == turn.phase);
        for &phase in answers {
            let Some(m) = record.messages.get(turn.index) else {
                continue;
            };
            // A combined reply's own verdict is the generation's; its recognition verdict
            // is the phase's.
            let own = if combined && phase == Phase::Recognize {
                record.verdicts.recognize.as_ref()
            } else {
                m.verdict.as_ref()
            };
            let ended = record.verdicts.all()[phase.index()]
                .filter(|v| last_of_phase && v.outcome != Outcome::Error);
            let scored = Scored {
                record,
                turn,
                phase,
                own,
                ended,
            };
            out.push(row(&scored, identity));
        }
    }
    out
}

/// A reply of a record as one phase scores it.
#[derive(Clone, Copy)]
struct Scored<'a> {
    /// The trial.
    record: &'a TrialRecord,
    /// The reply.
    turn: &'a ReplyTurn,
    /// The phase it is scored for.
    phase: Phase,
    /// The verdict on the reply.
    own: Option<&'a Verdict>,
    /// The phase's verdict, when the reply ended the phase.
    ended: Option<&'a Verdict>,
}

/// The row of a scored reply of the model `identity` names.
fn row(scored: &Scored<'_>, identity: &Identity) -> InstanceRow {
    let Scored {
        record,
        turn,
        phase,
        own,
        ended,
    } = *scored;
    let offset = usize::from(record.system_prompt.is_some());
    let mut messages: Vec<Message> = record
        .system_prompt
        .iter()
        .map(|s| Message {
            turn_idx: 0,
            role: Speaker::System,
            content: s.clone(),
            reasoning_trace: None,
        })
        .collect();
    let message = |i: usize, m: &RecordMessage| Message {
        turn_idx: i + offset,
        role: m.role.into(),
        content: m.content.clone(),
        reasoning_trace: m.meta.reasoning.clone(),
    };
    for &i in &turn.prompts {
        if let Some(m) = record.messages.get(i) {
            messages.push(message(i, m));
        }
    }
    let reply = &record.messages[turn.index];
    messages.push(message(turn.index, reply));
    let judged = ended.or(own);
    let correct = judged.is_some_and(|v| v.outcome == Outcome::Success);
    let empty = Extracted::Nothing;
    let read = own.map_or(&empty, |v| &v.extracted);
    let raw: Vec<&str> = turn
        .prompts
        .iter()
        .filter_map(|&i| record.messages.get(i))
        .map(|m| m.content.as_str())
        .collect();
    let shape = record.shape.name().to_string();
    InstanceRow {
        schema_version: SCHEMA_VERSION.to_string(),
        evaluation_id: identity.evaluation_id.clone(),
        model_id: identity.model_id.clone(),
        evaluation_name: result_id(phase),
        evaluation_result_id: result_id(phase),
        sample_id: format!(
            "{}/{s}x{s}/{shape}/{}/{}/{}/{}",
            record.encoding.name(),
            record.seed,
            record.sample,
            phase.name(),
            turn.step,
            s = record.size
        ),
        interaction_type: "multi_turn".into(),
        input: Input {
            raw: raw.join("\n\n"),
            reference: if phase == Phase::Recognize {
                vec![shape]
            } else {
                Vec::new()
            },
        },
        output: None,
        answer_attribution: vec![Attribution {
            turn_idx: turn.index + offset,
            source: format!("messages[{}].content", messages.len() - 1),
            extracted_value: value_text(read, record.encoding),
            extraction_method: format!(
                "shapemaze_reader.{}",
                own.and_then(|v| v.rule).map_or("unrecorded", |r| r.name())
            ),
            is_terminal: ended.is_some(),
        }],
        evaluation: Evaluation {
            score: if correct { 1.0 } else { 0.0 },
            is_correct: correct,
            num_turns: turn.index + offset + 1,
        },
        messages,
        token_usage: token_usage(reply),
        performance: reply
            .meta
            .latency_ms
            .filter(|ms| ms.is_finite() && *ms >= 0.0)
            .map(|latency_ms| Performance { latency_ms }),
        metadata: metadata(scored),
    }
}

/// The reply's tokens, when the endpoint counted both its prompt and its completion.
fn token_usage(reply: &RecordMessage) -> Option<TokenUsage> {
    let m = &reply.meta;
    let (input, output) = (m.prompt_tokens?, m.completion_tokens?);
    Some(TokenUsage {
        input_tokens: input,
        output_tokens: output,
        total_tokens: m.total_tokens.unwrap_or(input + output),
        reasoning_tokens: m.reasoning_tokens,
    })
}

/// The row's `metadata`: the trial, the phase and step, the reading, both verdicts, and
/// what the endpoint said about the reply.
fn metadata(scored: &Scored<'_>) -> Details {
    let (record, own) = (scored.record, scored.own);
    let mut d = Details::new();
    for (key, column) in [
        ("trial", "id"),
        ("player", "player"),
        ("encoding", "encoding"),
        ("shape", "shape"),
        ("size", "size"),
        ("seed", "seed"),
        ("sample", "sample"),
        ("repeat", "repeat"),
        ("protocol", "protocol"),
        ("move_limit", "move_limit"),
        ("verifier_version", "verifier_version"),
    ] {
        if let Some(v) = csv_value(record, column).filter(|v| !v.is_empty()) {
            d.insert(key.to_string(), v);
        }
    }
    d.insert("phase".into(), scored.phase.name().to_string());
    d.insert("step".into(), scored.turn.step.to_string());
    let verdict = |d: &mut Details, lead: &str, v: Option<&Verdict>| {
        let (outcome, reason) = v.map_or(("not_judged", ""), |v| {
            (v.outcome.name(), v.reason.as_str())
        });
        d.insert(format!("{lead}_outcome"), outcome.to_string());
        if !reason.is_empty() {
            d.insert(format!("{lead}_reason"), reason.to_string());
        }
    };
    verdict(&mut d, "reply", own);
    if scored.ended.is_some() {
        verdict(&mut d, "phase", scored.ended);
    }
    if let Some(v) = own {
        d.insert("explanation".into(), v.explanation.clone());
        if let Some(rule) = v.rule {
            d.insert("rule".into(), rule.name().to_string());
        }
        if let Some(sure) = v.sure {
            d.insert("sure".into(), sure.to_string());
        }
    }
    let meta = &record.messages[scored.turn.index].meta;
    let texts = [
        ("finish_reason", meta.finish_reason.clone()),
        ("served_model", meta.served_model.clone()),
        ("system_fingerprint", meta.system_fingerprint.clone()),
        (
            "empty_reason",
            meta.empty_reason.map(|e| e.name().to_string()),
        ),
        ("attempts", meta.attempts.map(|a| a.to_string())),
    ];
    for (key, value) in texts {
        if let Some(v) = value.filter(|v| !v.is_empty()) {
            d.insert(key.to_string(), v);
        }
    }
    d
}
