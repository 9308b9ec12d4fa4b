//! What a record keeps of a model's reply besides its text ([`ReplyMeta`]: latency,
//! tokens, finish reason, reasoning, log probabilities, why it is empty) and of the
//! endpoint that gave it ([`EndpointInfo`], never the API key). The chat client fills
//! them; the trial and its record carry them.

use serde::{Deserialize, Serialize};

/// One token's log probability, as an endpoint returned it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TokenLogprob {
    /// The token's text.
    pub token: String,
    /// Its natural-log probability.
    pub logprob: f64,
    /// The most likely tokens at its place, most likely first, when the endpoint was asked
    /// for them (`top_logprobs`); each without alternatives of its own. The token itself
    /// is usually among them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub top_logprobs: Vec<TokenLogprob>,
}

/// What is known about one reply besides its text. Every field is optional: a person's
/// click has none of them, a built-in player only its latency, an endpoint most.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ReplyMeta {
    /// Milliseconds from sending the request (or showing the prompt) to the whole reply.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub latency_ms: Option<f64>,
    /// Prompt tokens, as the endpoint counted them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompt_tokens: Option<u64>,
    /// Completion tokens, as the endpoint counted them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub completion_tokens: Option<u64>,
    /// Of the completion tokens, those spent on reasoning, when the endpoint said.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reasoning_tokens: Option<u64>,
    /// Total tokens, as the endpoint counted them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total_tokens: Option<u64>,
    /// Why the model stopped (`stop`, `length`, ...).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub finish_reason: Option<String>,
    /// The model's reasoning text, when the endpoint returned it apart from the answer
    /// (`reasoning_content`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reasoning: Option<String>,
    /// Token log probabilities, when asked for and returned.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub logprobs: Option<Vec<TokenLogprob>>,
    /// How many requests it took (1 when the first try answered).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attempts: Option<u32>,
    /// Whether the reply was streamed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub streamed: Option<bool>,
    /// Why the reply holds no answer text, for an empty reply only (it is still the
    /// model's answer, and judged).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub empty_reason: Option<EmptyReason>,
    /// The request's token limit (`max_tokens`), kept beside an `empty_reason` of
    /// `length_in_reasoning` or `length`: the limit the reply ran into.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_tokens: Option<u32>,
    /// The attempts that failed before this reply came, in order (none when the first
    /// try answered).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub retried: Vec<FailedAttempt>,
    /// The model that answered, as the response named it (its `model` field).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub served_model: Option<String>,
    /// The response's `system_fingerprint`, when sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub system_fingerprint: Option<String>,
}

/// An attempt at a call that failed and was retried: what failed and when.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FailedAttempt {
    /// Which attempt (1-based).
    pub attempt: u32,
    /// When it failed, in milliseconds (since 1970 in the browser and natively).
    pub at_ms: f64,
    /// What failed: the HTTP status (`429`), `network error` or `timeout`, with the likely
    /// cause when the label says too little.
    pub error: String,
    /// The wait before the next attempt, in milliseconds.
    pub wait_ms: u64,
}

/// Why a reply holds no answer text. An empty reply is the model's answer, judged like any
/// other (streamed or not); this says why it is empty, so that the verdict can say so and
/// the analysis can count such trials apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EmptyReason {
    /// The token limit was reached (`finish_reason: length`) with reasoning text and no
    /// answer: the limit was spent on reasoning.
    LengthInReasoning,
    /// The token limit was reached with no text at all (no reasoning returned either).
    Length,
    /// The model ended its reply without answer text (any other finish reason, or none).
    NoText,
}

impl EmptyReason {
    /// Every reason, in the order reports list them.
    pub const ALL: [EmptyReason; 3] = [
        EmptyReason::LengthInReasoning,
        EmptyReason::Length,
        EmptyReason::NoText,
    ];

    /// The snake_case name (`length_in_reasoning`, `length`, `no_text`).
    pub fn name(self) -> &'static str {
        match self {
            EmptyReason::LengthInReasoning => "length_in_reasoning",
            EmptyReason::Length => "length",
            EmptyReason::NoText => "no_text",
        }
    }

    /// A short label for people (a report's column).
    pub fn label(self) -> &'static str {
        match self {
            EmptyReason::LengthInReasoning => "token limit spent on reasoning",
            EmptyReason::Length => "token limit reached with no text",
            EmptyReason::NoText => "ended with no text",
        }
    }

    /// Why a reply with answer `content` is empty, from its finish reason and its
    /// reasoning text; `None` when the content holds text (whitespace is no text).
    pub fn of(
        content: &str,
        finish_reason: Option<&str>,
        reasoning: Option<&str>,
    ) -> Option<EmptyReason> {
        if !content.trim().is_empty() {
            return None;
        }
        let reasoned = reasoning.is_some_and(|r| !r.trim().is_empty());
        Some(match finish_reason {
            Some("length") if reasoned => EmptyReason::LengthInReasoning,
            Some("length") => EmptyReason::Length,
            _ => EmptyReason::NoText,
        })
    }

    /// Whether the token limit ended the reply.
    pub fn hit_the_limit(self) -> bool {
        self != EmptyReason::NoText
    }

    /// What a verdict on the empty reply says, for the reasons where the token limit ended
    /// it (`max_tokens`, when known, is named); `None` for [`EmptyReason::NoText`], whose
    /// verdict is the verifier's own.
    pub fn explanation(self, max_tokens: Option<u32>) -> Option<String> {
        let limit = match max_tokens {
            Some(n) => format!("The token limit ({n})"),
            None => "The token limit".to_string(),
        };
        match self {
            EmptyReason::LengthInReasoning => Some(format!(
                "{limit} was spent on reasoning; no answer was given."
            )),
            EmptyReason::Length => Some(format!(
                "{limit} was reached before any answer text; no answer was given."
            )),
            EmptyReason::NoText => None,
        }
    }
}

/// The endpoint a model trial ran against, as the record keeps it: everything that
/// shaped the replies, never the API key.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EndpointInfo {
    /// The preset's id (`dashscope-intl`, `openrouter`, ..., `custom`).
    pub preset: String,
    /// The base URL requests went to.
    pub base_url: String,
    /// The model's name.
    pub model: String,
    /// Sampling temperature.
    pub temperature: f64,
    /// Nucleus sampling.
    pub top_p: f64,
    /// Most tokens per reply.
    pub max_tokens: u32,
    /// The sampling seed sent, if any.
    #[serde(default)]
    pub seed: Option<u64>,
    /// Whether replies were streamed.
    pub stream: bool,
    /// Whether log probabilities were asked for.
    pub logprobs: bool,
    /// Whether thinking (reasoning) was turned on.
    #[serde(default)]
    pub thinking: bool,
    /// The reasoning effort asked for, if any (`high`, `no-thinking`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub effort: Option<crate::model::effort::Effort>,
    /// Extra JSON merged into each request body, as typed.
    #[serde(default)]
    pub extra: String,
    /// What the model costs, when the design gave its price.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub price: Option<crate::model::price::Price>,
}
