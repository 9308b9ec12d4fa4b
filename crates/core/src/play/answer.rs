//! The answer modes and what a trial keeps of a reply's form (docs/guides/answer-modes.md):
//! the modes ([`AnswerMode`]: `free`, the design's free text and the reference; `schema`,
//! the endpoint holding the answer to a JSON schema; `tool`, a forced function call;
//! `transcribed`, the free answer copied into the schema by a second call), what a player
//! hands the trial beside a reply's text ([`FormAnswer`]), what the trial keeps of its
//! reading ([`FormReading`], a record's `form` on the reply) and the modes in effect per
//! phase ([`PhaseModes`], a record's `answer_mode_in_effect`). What a trial does with them
//! is in `answer_mode.rs`.

use crate::model::form::{Spelling, ToolCall};
use crate::model::reply::ReplyMeta;
use crate::play::phase::Phase;
use crate::text::UnknownName;
use crate::verify::{Doubt, DoubtKind, Extracted, Rule, Verdict};
use serde::{Deserialize, Serialize};

/// How a model is asked to give its answer.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum AnswerMode {
    /// The design's free text, read by the readers (the default and the reference).
    #[default]
    Free,
    /// One call whose answer the endpoint holds to a JSON schema, reasoning first.
    Schema,
    /// A forced function call (`submit_move`, `name_shape`, `submit_maze`), answered by the
    /// next prompt as the call's result.
    Tool,
    /// The free answer, then a second call that copies it into the schema.
    Transcribed,
}

impl AnswerMode {
    /// Every mode, the reference first.
    pub const ALL: [AnswerMode; 4] = [
        AnswerMode::Free,
        AnswerMode::Schema,
        AnswerMode::Tool,
        AnswerMode::Transcribed,
    ];

    /// `free`, `schema`, `tool` or `transcribed` (designs, records, URLs, CSV).
    pub fn name(self) -> &'static str {
        match self {
            AnswerMode::Free => "free",
            AnswerMode::Schema => "schema",
            AnswerMode::Tool => "tool",
            AnswerMode::Transcribed => "transcribed",
        }
    }

    /// A short label for people.
    pub fn label(self) -> &'static str {
        match self {
            AnswerMode::Free => "free text (the design's)",
            AnswerMode::Schema => "JSON schema",
            AnswerMode::Tool => "forced function call",
            AnswerMode::Transcribed => "free text, transcribed",
        }
    }

    /// Reads a mode's name (any case).
    pub fn parse(s: &str) -> Result<AnswerMode, UnknownName> {
        let k = s.trim().to_ascii_lowercase();
        AnswerMode::ALL
            .into_iter()
            .find(|m| m.name() == k)
            .ok_or_else(|| UnknownName::new("answer mode", s, "free, schema, tool or transcribed"))
    }

    /// Whether it is the design's free text (records leave it out).
    pub fn is_free(&self) -> bool {
        *self == AnswerMode::Free
    }

    /// The mode a spelling asks for: a function call, else the schema (a transcription's
    /// spellings are the schema's; its mode stays `transcribed`).
    pub fn of_spelling(self, spelling: Spelling) -> AnswerMode {
        match self {
            AnswerMode::Transcribed | AnswerMode::Free => self,
            _ if spelling.is_tool() => AnswerMode::Tool,
            _ => AnswerMode::Schema,
        }
    }
}

impl std::fmt::Display for AnswerMode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Where a form answer was found.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    /// The reply's content (a schema's JSON).
    #[default]
    Content,
    /// The reply's reasoning field, the content being empty (several servers put a
    /// thinking model's whole answer there).
    Reasoning,
    /// The arguments of the function the reply called.
    ToolCall,
    /// The transcription call's reply.
    Transcription,
}

/// Why a form answer is no reading.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FormReason {
    /// The endpoint accepted the form and did not hold the reply to it (or the model made
    /// no call): the reply does not validate against the schema.
    FormNotHeld,
    /// The transcription call failed (an API error): the free reading stands.
    ApiError,
}

impl FormReason {
    /// `form_not_held` or `api_error`.
    pub fn name(self) -> &'static str {
        match self {
            FormReason::FormNotHeld => "form_not_held",
            FormReason::ApiError => "api_error",
        }
    }
}

/// A spelling the endpoint refused, and how.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StepDown {
    /// The spelling refused.
    pub form: Spelling,
    /// The HTTP status, when there was one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<u16>,
    /// What the endpoint said (its message, truncated).
    pub error: String,
}

/// The transcription call of a `transcribed` reply: who transcribed and what the call
/// cost, counted apart from the trial's own calls.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Transcriber {
    /// The transcriber's model (the player's own, or the one named).
    pub model: String,
    /// The call's latency, tokens, finish and reasoning, as for any reply.
    #[serde(default)]
    pub meta: ReplyMeta,
}

/// What a player hands the trial beside a reply's text under a mode other than `free`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FormAnswer {
    /// The mode in effect for this reply (it may have stepped down from the one asked).
    pub mode: AnswerMode,
    /// How the endpoint was asked to hold it.
    pub spelling: Spelling,
    /// The JSON text to read: the content, the reasoning (content empty), the call's
    /// arguments or the transcription; `None` when there is none (no call made, an empty
    /// reply, a failed transcription).
    pub answer: Option<String>,
    /// Where `answer` was found.
    pub source: Source,
    /// The function call read, under `tool`.
    pub call: Option<ToolCall>,
    /// The spellings refused on the way, in order.
    pub stepped_down: Vec<StepDown>,
    /// The transcription call, under `transcribed`.
    pub transcriber: Option<Transcriber>,
    /// Why the transcription call failed, when it did.
    pub error: Option<String>,
}

/// What one phase of a reply was read as: the form's value and, beside it, the free
/// readers' reading of the reply's text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PhaseRead {
    /// The phase the reading answers.
    pub phase: Phase,
    /// The form's value (`null` when the form was not held).
    pub form: Extracted,
    /// The free readers' value on the reply's text.
    pub free: Extracted,
    /// The rule that read it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub free_rule: Option<Rule>,
}

impl PhaseRead {
    /// Whether the two readings agree (a form not held agrees with nothing).
    pub fn agrees(&self) -> bool {
        self.form == self.free
    }

    /// Why the form's reading (by `rule`) is not sure: under `transcribed`, the
    /// transcription is one reader of the free reply and ours another, and where they read
    /// it otherwise neither is sure (`None` when they agree, and under the other modes,
    /// whose form is the model's own answer). `path`: the solve phase asks for a path.
    pub fn doubt(&self, mode: AnswerMode, rule: Rule, path: bool) -> Option<Doubt> {
        if mode != AnswerMode::Transcribed || self.agrees() {
            return None;
        }
        let what = match self.phase {
            Phase::Solve if path => "path",
            Phase::Solve => "move",
            Phase::Recognize => "shape",
            _ => "maze",
        };
        Some(Doubt::new(
            DoubtKind::ReadersDiffer,
            rule,
            what,
            self.free.clone(),
            None,
            "",
        ))
    }
}

/// What a trial keeps of a reply's form: a record's `form` on the reply (CONTRACT.md,
/// "Trial records").
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FormReading {
    /// The mode in effect for this reply.
    pub mode: AnswerMode,
    /// How the endpoint was asked to hold it.
    pub form: Spelling,
    /// The JSON text read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answer: Option<String>,
    /// Where it was found.
    #[serde(default)]
    pub source: Source,
    /// The function called, under `tool`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool: Option<String>,
    /// The call's id, sent back with the next prompt as the call's result.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub call_id: Option<String>,
    /// Whether the answer validated against the schema (the verdict is then the form's).
    pub held: bool,
    /// Why not, when it did not: `form_not_held`, or `api_error` for a failed transcription.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<FormReason>,
    /// What did not validate, in words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub why: Option<String>,
    /// The readings, one per phase the reply answers (two for a combined reply).
    #[serde(default)]
    pub read: Vec<PhaseRead>,
    /// The spellings refused before this reply, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub stepped_down: Vec<StepDown>,
    /// The transcription call.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transcriber: Option<Transcriber>,
}

/// The mode one phase ran in: the mode and spelling of its last reply, how many of its
/// replies did not hold the form, and every refusal met on the way.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ModeInEffect {
    /// The mode in effect (the one asked unless it stepped down from a function call).
    pub mode: AnswerMode,
    /// The spelling its last reply was asked in.
    pub form: Spelling,
    /// Replies of the phase.
    pub replies: usize,
    /// Of them, those whose form was not held (read by the free readers instead).
    #[serde(default)]
    pub not_held: usize,
    /// Of them, those whose answer was read from the reasoning field.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub from_reasoning: usize,
    /// The refusals met in the phase, in order: why it stepped down.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub stepped_down: Vec<StepDown>,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// The modes in effect of a trial's three phases (a record's `answer_mode_in_effect`;
/// `null` for a phase without replies).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PhaseModes {
    /// The solve phase's.
    #[serde(default)]
    pub solve: Option<ModeInEffect>,
    /// The recognition's.
    #[serde(default)]
    pub recognize: Option<ModeInEffect>,
    /// The generation's.
    #[serde(default)]
    pub generate: Option<ModeInEffect>,
}

impl PhaseModes {
    /// The three, in phase order.
    pub fn all(&self) -> [Option<&ModeInEffect>; 3] {
        [
            self.solve.as_ref(),
            self.recognize.as_ref(),
            self.generate.as_ref(),
        ]
    }

    fn slot(&mut self, phase: Phase) -> &mut Option<ModeInEffect> {
        match phase {
            Phase::Solve => &mut self.solve,
            Phase::Recognize => &mut self.recognize,
            Phase::Generate | Phase::Done => &mut self.generate,
        }
    }

    /// The modes in effect of a conversation's replies (`None` when no reply held a form).
    pub fn of<'a>(forms: impl IntoIterator<Item = &'a FormReading>) -> Option<PhaseModes> {
        let mut out = PhaseModes::default();
        let mut any = false;
        for f in forms {
            any = true;
            // A combined reply answers two phases: each counts it.
            for r in &f.read {
                let slot = out.slot(r.phase).get_or_insert_with(|| ModeInEffect {
                    mode: f.mode,
                    form: f.form,
                    replies: 0,
                    not_held: 0,
                    from_reasoning: 0,
                    stepped_down: Vec::new(),
                });
                slot.mode = f.mode;
                slot.form = f.form;
                slot.replies += 1;
                slot.not_held += usize::from(!f.held);
                slot.from_reasoning += usize::from(f.source == Source::Reasoning);
                slot.stepped_down.extend(f.stepped_down.iter().cloned());
            }
        }
        any.then_some(out)
    }

    /// The modes in effect as one value for people and tables: the one mode when every
    /// phase ran in it, else `solve:tool recognize:schema ...`.
    pub fn summary(&self) -> String {
        let modes: Vec<(usize, AnswerMode)> = self
            .all()
            .iter()
            .enumerate()
            .filter_map(|(i, m)| m.map(|m| (i, m.mode)))
            .collect();
        match modes.first() {
            None => String::new(),
            Some((_, first)) if modes.iter().all(|(_, m)| m == first) => first.name().to_string(),
            _ => modes
                .iter()
                .map(|(i, m)| format!("{}:{}", Phase::at(*i).name(), m.name()))
                .collect::<Vec<_>>()
                .join(" "),
        }
    }
}

/// Whether this build plays the answer modes: not the people's build (`people-records`),
/// whose players answer freely, so that their code stays off a participant's phone.
pub const PLAYS_FORMS: bool = !cfg!(feature = "people-records");

/// What a trial and its record keep of the answer modes (a reply's [`FormReading`], the
/// [`PhaseModes`]): `Option<T>` in the lab, and nothing in the people's build
/// (`people-records`), whose trials never have them: there it is empty, whatever it is
/// given, so that their code (clone, drop, serde) stays off a participant's phone.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Kept<T>(
    #[cfg(not(feature = "people-records"))] Option<T>,
    #[cfg(feature = "people-records")] std::marker::PhantomData<T>,
);

impl<T> Default for Kept<T> {
    fn default() -> Self {
        Kept::new(None)
    }
}

impl<T> Kept<T> {
    /// Keeps `value` (nothing, in the people's build).
    #[cfg(not(feature = "people-records"))]
    pub fn new(value: Option<T>) -> Self {
        Kept(value)
    }

    /// Keeps `value` (nothing, in the people's build).
    #[cfg(feature = "people-records")]
    pub fn new(_value: Option<T>) -> Self {
        Kept(std::marker::PhantomData)
    }

    /// Keeps what `make` makes; the people's build does not call it.
    pub fn of(make: impl FnOnce() -> Option<T>) -> Self {
        if PLAYS_FORMS {
            Kept::new(make())
        } else {
            Kept::default()
        }
    }

    /// What is kept.
    pub fn as_ref(&self) -> Option<&T> {
        #[cfg(not(feature = "people-records"))]
        return self.0.as_ref();
        #[cfg(feature = "people-records")]
        return None;
    }

    /// Whether nothing is kept (records then leave the field out).
    pub fn is_none(&self) -> bool {
        self.as_ref().is_none()
    }
}

impl<T: std::ops::Deref> Kept<T> {
    /// What is kept, through its box.
    pub fn as_deref(&self) -> Option<&T::Target> {
        self.as_ref().map(|t| &**t)
    }
}

#[cfg(not(feature = "people-records"))]
impl<T: Serialize> Serialize for Kept<T> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(s)
    }
}

/// Read through a JSON value: the lab's record reader (which tracks each field's place)
/// then has one copy of these types' reading code rather than one per reader, some 30 KB
/// of wasm (a broken field is still named: `missing field messages[3].form.form`).
#[cfg(not(feature = "people-records"))]
impl<'de, T: serde::de::DeserializeOwned> Deserialize<'de> for Kept<T> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        match serde_json::Value::deserialize(d)? {
            serde_json::Value::Null => Ok(Kept(None)),
            v => serde_json::from_value(v)
                .map(|t| Kept(Some(t)))
                .map_err(serde::de::Error::custom),
        }
    }
}

/// The free readers' value and rule in a verdict (`Nothing` when there is none).
pub fn free_read(phase: Phase, verdict: Option<&Verdict>) -> PhaseRead {
    PhaseRead {
        phase,
        form: Extracted::Nothing,
        free: verdict.map_or(Extracted::Nothing, |v| v.extracted.clone()),
        free_rule: verdict.and_then(|v| v.rule),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_mode_reads_back_from_its_name_and_free_is_the_default() {
        for m in AnswerMode::ALL {
            assert_eq!(AnswerMode::parse(m.name()), Ok(m));
            assert_eq!(
                serde_json::to_string(&m).expect("writes"),
                format!("\"{}\"", m.name())
            );
        }
        assert_eq!(AnswerMode::default(), AnswerMode::Free);
        let e = AnswerMode::parse("grammar").expect_err("unknown");
        assert!(
            e.to_string().contains("free, schema, tool or transcribed"),
            "{e}"
        );
    }
}
