//! What a record's answer mode leaves to count (docs/guides/answer-modes.md): the label
//! that keeps a mode's trials apart in every table and file ([`mode_label`]); per phase,
//! the replies held to a form, those not held and our readers' agreement with the form's
//! reading ([`FormCounts`]); the transcription calls' tokens, counted apart from the
//! trial's ([`transcription`]). `trials.csv` and the analysis both count them here.

use crate::play::answer::{AnswerMode, FormReading, PhaseModes, PhaseRead, Source};
use crate::play::phase::Phase;
use crate::play::transcript::Role;
use crate::results::record::{Tokens, TrialRecord};
use crate::verify::Rule;
use serde::Serialize;

/// Per phase (solve, recognize, generate): the replies held to a form, those whose form
/// was not held, and, for the replies with text whose form held, how many the free readers
/// read as the form did.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct FormCounts {
    /// Replies asked for a form.
    pub replies: [usize; 3],
    /// Of them, not held (read by the free readers instead).
    pub not_held: [usize; 3],
    /// Replies with text whose form held, under `schema` and `transcribed`: the free
    /// readers' reading set beside the form's.
    pub compared: [usize; 3],
    /// Of them, read the same by both.
    pub agreed: [usize; 3],
    /// Replies whose answer came from the reasoning field.
    pub from_reasoning: usize,
    /// Spellings refused during the trial.
    pub step_downs: usize,
}

impl FormCounts {
    /// The counts of a record's replies; `None` for a record without forms (`free`).
    pub fn of(r: &TrialRecord) -> Option<FormCounts> {
        let mut c = FormCounts::default();
        let mut any = false;
        for m in r.messages.iter().filter(|m| m.role == Role::Assistant) {
            let Some(f) = m.form.as_deref() else {
                continue;
            };
            any = true;
            c.from_reasoning += usize::from(f.source == Source::Reasoning);
            c.step_downs += f.stepped_down.len();
            for read in &f.read {
                let i = read.phase.index();
                c.replies[i] += 1;
                c.not_held[i] += usize::from(!f.held);
                // A function call's text is its reasoning, not its answer: only the
                // schema's and the transcription's replies set the readers beside the form.
                if f.held && f.mode != AnswerMode::Tool && !m.content.trim().is_empty() {
                    c.compared[i] += 1;
                    c.agreed[i] += usize::from(read.agrees());
                }
            }
        }
        any.then_some(c)
    }
}

/// One phase's reading of one reply by its form ([`form_reads`]).
#[derive(Clone, Copy, Debug)]
pub struct FormRead<'a> {
    /// The reply's index among its phase's replies (a transcript's step).
    pub step: usize,
    /// What the record keeps of the reply's form.
    pub form: &'a FormReading,
    /// The phase's reading: the form's value and our readers' beside it.
    pub read: &'a PhaseRead,
}

impl FormRead<'_> {
    /// The rule that read the form: `tool_call` for a function's arguments, else `schema`.
    pub fn rule(&self) -> Rule {
        if self.form.source == Source::ToolCall {
            Rule::ToolCall
        } else {
            Rule::Schema
        }
    }
}

/// Every phase's reading of a record's replies by their forms, in the replies' order, each
/// with its step (as a transcript counts a phase's replies).
pub fn form_reads(r: &TrialRecord) -> Vec<FormRead<'_>> {
    let mut steps = [0usize; 3];
    let mut out = Vec::new();
    for m in r.messages.iter().filter(|m| m.role == Role::Assistant) {
        let Some(form) = m.form.as_deref() else {
            continue;
        };
        for read in &form.read {
            let i = read.phase.index();
            out.push(FormRead {
                step: steps[i],
                form,
                read,
            });
            steps[i] += 1;
        }
    }
    out
}

/// The tokens of a record's transcription calls, counted apart from the trial's own;
/// `None` when it made none that reported usage.
pub fn transcription(r: &TrialRecord) -> Option<Tokens> {
    let mut t = Tokens::default();
    for m in r.messages.iter().filter(|m| m.role == Role::Assistant) {
        let Some(meta) = m
            .form
            .as_deref()
            .and_then(|f| f.transcriber.as_ref())
            .map(|t| &t.meta)
        else {
            continue;
        };
        if meta.prompt_tokens.is_some() || meta.completion_tokens.is_some() {
            t.calls += 1;
            t.prompt += meta.prompt_tokens.unwrap_or(0);
            t.completion += meta.completion_tokens.unwrap_or(0);
            t.reasoning += meta.reasoning_tokens.unwrap_or(0);
        }
        t.cut_off += usize::from(meta.finish_reason.as_deref() == Some("length"));
    }
    (t.calls > 0).then_some(t)
}

/// What a record's transcription calls cost in dollars at its endpoint's price, counted
/// apart from [`TrialRecord::cost`]; `None` without a price or without reported usage.
pub fn transcription_cost(r: &TrialRecord) -> Option<f64> {
    let price = r.endpoint.as_ref()?.price?;
    let t = transcription(r)?;
    Some(price.cost(t.prompt, t.completion, t.reasoning))
}

/// A trial's answer mode as the analysis names it: the asked mode, or `asked>effect` when
/// the endpoint stepped it down to another mode (a function call refused, answered under
/// the schema), `asked>mixed` when phases ran in different modes.
pub fn mode_name(asked: AnswerMode, in_effect: Option<&PhaseModes>) -> String {
    let effects: Vec<AnswerMode> = in_effect
        .map(|p| p.all().iter().flatten().map(|m| m.mode).collect())
        .unwrap_or_default();
    match effects.first() {
        Some(first) if effects.iter().any(|m| m != first) => format!("{asked}>mixed"),
        Some(first) if *first != asked => format!("{asked}>{first}"),
        _ => asked.name().to_string(),
    }
}

/// The model as the analysis shows a trial of it: its name, and `+mode` for an answer
/// mode other than `free` ([`mode_name`]), so that no table pools a mode's trials with
/// another's (as `model@effort` keeps efforts apart).
pub fn mode_label(model: &str, mode: &str) -> String {
    if mode == AnswerMode::Free.name() {
        model.to_string()
    } else {
        format!("{model}+{mode}")
    }
}

/// A record's model as the analysis and the exports show it ([`mode_label`]).
pub fn model_label(r: &TrialRecord) -> String {
    mode_label(
        &r.model,
        &mode_name(r.answer_mode, r.answer_mode_in_effect.as_ref()),
    )
}

/// The answer mode's columns of `trials.csv` after `answer_mode` (CONTRACT.md), read by
/// [`column`].
pub const COLUMNS: [&str; 7] = [
    "answer_mode_in_effect",
    "answer_form",
    "forms_not_held",
    "step_downs",
    "readers_compared",
    "readers_agreed",
    "transcription_tokens",
];

/// The value of the answer mode's column `name` of `trials.csv` ([`COLUMNS`]; empty for a
/// trial of the design's free text).
pub fn column(r: &TrialRecord, name: &str) -> String {
    let Some(modes) = r.answer_mode_in_effect.as_ref() else {
        return String::new();
    };
    let counts = FormCounts::of(r).unwrap_or_default();
    match name {
        "answer_mode_in_effect" => modes.summary(),
        "answer_form" => {
            let forms: Vec<(usize, &str)> = modes
                .all()
                .iter()
                .enumerate()
                .filter_map(|(i, m)| m.map(|m| (i, m.form.name())))
                .collect();
            match forms.first() {
                Some((_, f)) if forms.iter().all(|(_, g)| g == f) => f.to_string(),
                _ => forms
                    .iter()
                    .map(|(i, f)| format!("{}:{f}", Phase::at(*i).name()))
                    .collect::<Vec<_>>()
                    .join(" "),
            }
        }
        "forms_not_held" => counts.not_held.iter().sum::<usize>().to_string(),
        "step_downs" => modes
            .all()
            .iter()
            .flatten()
            .flat_map(|m| &m.stepped_down)
            .map(|s| match s.status {
                Some(code) => format!("{} {code}", s.form.name()),
                None => s.form.name().to_string(),
            })
            .collect::<Vec<_>>()
            .join("; "),
        "readers_compared" => counts.compared.iter().sum::<usize>().to_string(),
        "readers_agreed" => counts.agreed.iter().sum::<usize>().to_string(),
        _ => transcription(r).map_or(String::new(), |t| t.total().to_string()),
    }
}

/// The model a label names, without its mode ([`mode_label`] read back).
pub fn base_model<'a>(label: &'a str, mode: &str) -> &'a str {
    label
        .strip_suffix(mode)
        .and_then(|l| l.strip_suffix('+'))
        .unwrap_or(label)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::form::Spelling;
    use crate::play::answer::ModeInEffect;

    fn effect(mode: AnswerMode) -> Option<ModeInEffect> {
        Some(ModeInEffect {
            mode,
            form: Spelling::JsonSchema,
            replies: 1,
            not_held: 0,
            from_reasoning: 0,
            stepped_down: Vec::new(),
        })
    }

    #[test]
    fn a_mode_is_named_as_asked_unless_the_endpoint_stepped_it_down_to_another() {
        assert_eq!(mode_name(AnswerMode::Free, None), "free");
        let all = |m| PhaseModes {
            solve: effect(m),
            recognize: effect(m),
            generate: effect(m),
        };
        assert_eq!(
            mode_name(AnswerMode::Schema, Some(&all(AnswerMode::Schema))),
            "schema"
        );
        assert_eq!(
            mode_name(AnswerMode::Tool, Some(&all(AnswerMode::Schema))),
            "tool>schema"
        );
        let mixed = PhaseModes {
            solve: effect(AnswerMode::Tool),
            ..all(AnswerMode::Schema)
        };
        assert_eq!(mode_name(AnswerMode::Tool, Some(&mixed)), "tool>mixed");
        assert_eq!(mode_label("qwen", "free"), "qwen");
        assert_eq!(mode_label("qwen", "tool>schema"), "qwen+tool>schema");
        assert_eq!(base_model("qwen+tool>schema", "tool>schema"), "qwen");
        assert_eq!(base_model("qwen", "free"), "qwen");
    }
}
