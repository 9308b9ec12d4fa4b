//! A model's reply read from a whole (non-streamed) response body.

use super::error::{classify, truncate, ChatError, ErrorInfo};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::reply::{EmptyReason, TokenLogprob};

/// A model's reply and what is known about how it was produced.
#[derive(Clone, Debug, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct ChatReply {
    /// The answer text.
    pub content: String,
    /// The model's reasoning, when the endpoint returns it (`reasoning_content`).
    pub reasoning: Option<String>,
    /// Why generation stopped (`stop`, `length`, ...), when given.
    pub finish_reason: Option<String>,
    /// Tokens in the prompt, when reported.
    pub prompt_tokens: Option<u64>,
    /// Tokens generated, when reported.
    pub completion_tokens: Option<u64>,
    /// Of those, tokens spent on reasoning, when reported
    /// (`usage.completion_tokens_details.reasoning_tokens`).
    pub reasoning_tokens: Option<u64>,
    /// Both, when reported.
    pub total_tokens: Option<u64>,
    /// The generated tokens' log-probabilities; None when not asked for or not returned
    /// (record that as unavailable).
    pub logprobs: Option<Vec<TokenLogprob>>,
    /// Time of the successful attempt, in milliseconds.
    pub latency_ms: f64,
    /// Attempts made, the successful one included.
    pub attempts: u32,
    /// True when the reply arrived as server-sent events.
    pub streamed: bool,
    /// The attempts that failed and were retried before it.
    pub retried: Vec<crate::model::reply::FailedAttempt>,
    /// The model that answered, as the response names it (its `model` field), which may
    /// differ from the one asked for (an alias, a dated snapshot, a router's choice).
    pub served_model: Option<String>,
    /// The response's `system_fingerprint`, when the endpoint sends one.
    pub system_fingerprint: Option<String>,
    /// The function calls the reply made (`message.tool_calls`), in order.
    pub tool_calls: Vec<super::form::ToolCall>,
}

impl ChatReply {
    /// The reply with reasoning written inline in its answer (`<think>...</think>`, or
    /// only the closing tag, as Qwen3's template opens the block in the prompt) moved to
    /// [`ChatReply::reasoning`], after any reasoning the endpoint returned apart, so the
    /// record keeps the two apart (crate::reply). A reply cut off inside an unclosed block
    /// keeps an empty answer.
    pub fn with_inline_reasoning(mut self) -> Self {
        let (Some(inline), answer) = crate::reply::split_reasoning(&self.content) else {
            return self;
        };
        let (inline, answer) = (inline.to_string(), answer.to_string());
        self.reasoning = match self.reasoning.take() {
            Some(apart) if !apart.trim().is_empty() => Some(format!("{apart}\n\n{inline}")),
            _ => Some(inline),
        };
        self.content = answer;
        self
    }

    /// Why the answer holds no text, when it holds none: the token limit spent on
    /// reasoning, reached with no text, or a reply ended without text.
    pub fn empty_reason(&self) -> Option<EmptyReason> {
        EmptyReason::of(
            &self.content,
            self.finish_reason.as_deref(),
            self.reasoning.as_deref(),
        )
    }
}

/// Reads a whole (non-streamed) chat-completions response body. A choice whose message
/// has no text (`content` empty, `null` or absent) is a reply with empty content: the
/// model's answer, judged like any other ([`ChatReply::empty_reason`] says why it is
/// empty). Only a body that is not a completion is an error: not JSON, an `error`
/// object, no choice, or a choice without a message.
pub fn parse_response(body: &str) -> Result<ChatReply, ChatError> {
    let v: Value = serde_json::from_str(body).map_err(|e| malformed(body, &e))?;
    if let Some(err) = error_object(&v) {
        return Err(err);
    }
    let choice = v
        .get("choices")
        .and_then(Value::as_array)
        .and_then(|c| c.first())
        .ok_or_else(|| ChatError::EmptyChoices(ErrorInfo::detail(truncate(body.trim()))))?;
    let finish_reason = str_field(choice, "finish_reason");
    let Some(message) = choice.get("message").filter(|m| m.is_object()) else {
        return Err(missing_content(finish_reason.as_deref()));
    };
    let reasoning = str_field(message, "reasoning_content")
        .or_else(|| str_field(message, "reasoning"))
        .filter(|r| !r.is_empty());
    let content = match message.get("content") {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(parts)) => parts
            .iter()
            .filter_map(|p| p.get("text").and_then(Value::as_str))
            .collect(),
        None | Some(Value::Null) => String::new(),
        Some(_) => return Err(missing_content(finish_reason.as_deref())),
    };
    let tool_calls = message
        .get("tool_calls")
        .and_then(Value::as_array)
        .map(|calls| {
            calls
                .iter()
                .enumerate()
                .filter_map(|(i, c)| super::form::ToolCall::read(c, i))
                .collect()
        })
        .unwrap_or_default();
    let mut reply = ChatReply {
        content,
        reasoning,
        finish_reason,
        logprobs: read_logprobs(choice),
        tool_calls,
        ..ChatReply::default()
    };
    read_usage(&v, &mut reply);
    read_served(&v, &mut reply);
    Ok(reply.with_inline_reasoning())
}

fn str_field(v: &Value, key: &str) -> Option<String> {
    v.get(key).and_then(Value::as_str).map(str::to_string)
}

/// The response's `model` and `system_fingerprint`, where given (a stream's chunks each carry
/// them; the last one given counts).
pub(super) fn read_served(v: &Value, reply: &mut ChatReply) {
    if let Some(m) = str_field(v, "model").filter(|m| !m.trim().is_empty()) {
        reply.served_model = Some(m);
    }
    if let Some(f) = str_field(v, "system_fingerprint").filter(|f| !f.trim().is_empty()) {
        reply.system_fingerprint = Some(f);
    }
}

pub(super) fn read_usage(v: &Value, reply: &mut ChatReply) {
    if let Some(usage) = v.get("usage").filter(|u| u.is_object()) {
        reply.prompt_tokens = usage.get("prompt_tokens").and_then(Value::as_u64);
        reply.completion_tokens = usage.get("completion_tokens").and_then(Value::as_u64);
        reply.reasoning_tokens = usage
            .get("completion_tokens_details")
            .and_then(|d| d.get("reasoning_tokens"))
            .and_then(Value::as_u64);
        reply.total_tokens = usage.get("total_tokens").and_then(Value::as_u64);
    }
}

pub(super) fn read_logprobs(choice: &Value) -> Option<Vec<TokenLogprob>> {
    let entries = choice
        .get("logprobs")
        .and_then(|l| l.get("content"))
        .and_then(Value::as_array)?;
    let tokens: Vec<TokenLogprob> = entries.iter().filter_map(read_token).collect();
    (!tokens.is_empty()).then_some(tokens)
}

/// One entry of `logprobs.content` with its `top_logprobs` (read one level deep).
fn read_token(e: &Value) -> Option<TokenLogprob> {
    let one = |e: &Value| {
        Some(TokenLogprob {
            token: e.get("token")?.as_str()?.to_string(),
            logprob: e.get("logprob")?.as_f64()?,
            top_logprobs: Vec::new(),
        })
    };
    let mut token = one(e)?;
    if let Some(top) = e.get("top_logprobs").and_then(Value::as_array) {
        token.top_logprobs = top.iter().filter_map(one).collect();
    }
    Some(token)
}

/// An `error` object (or string) in a body that otherwise looks like a reply. A numeric
/// code that is an HTTP error status is read as that status (OpenRouter reports upstream
/// rate limits this way); anything else is [`ChatError::Upstream`].
pub(super) fn error_object(v: &Value) -> Option<ChatError> {
    let err = v.get("error").filter(|e| !e.is_null())?;
    let message = match err {
        Value::String(s) => s.clone(),
        _ => err
            .get("message")
            .and_then(Value::as_str)
            .map(str::to_string)
            .unwrap_or_else(|| err.to_string()),
    };
    let code = err.get("code");
    if let Some(status) = code
        .and_then(Value::as_u64)
        .filter(|c| (400..600).contains(c))
    {
        // The filter keeps the value within u16.
        let status = status as u16;
        return Some(classify(status, &message));
    }
    let label = code
        .and_then(|c| c.as_str().map(str::to_string))
        .or_else(|| str_field(err, "type"));
    let detail = match label {
        Some(l) if !l.is_empty() => format!("{l}: {message}"),
        _ => message,
    };
    Some(ChatError::Upstream(ErrorInfo::detail(truncate(&detail))))
}

pub(super) fn malformed(body: &str, e: &serde_json::Error) -> ChatError {
    let start = body.trim();
    let detail = if start.is_empty() {
        "the body is empty".to_string()
    } else {
        format!("{e}; it began: {}", truncate(start))
    };
    ChatError::Malformed(ErrorInfo::detail(detail))
}

/// A choice that is not a message: no `message` object, or a `content` that is neither
/// text nor a list of text parts.
pub(super) fn missing_content(finish_reason: Option<&str>) -> ChatError {
    let mut detail = String::from("the reply's choice holds no message");
    if let Some(f) = finish_reason {
        detail.push_str(&format!(" (finish reason: {f})"));
    }
    ChatError::MissingContent(ErrorInfo::detail(detail))
}

#[cfg(test)]
mod tests {
    use super::super::preset::Preset;
    use super::super::test_support::OK_BODY;
    use super::*;

    #[test]
    fn the_model_that_answered_is_read_beside_the_reply() {
        let body = r#"{"model":"qwen3-8b-2026-04-01","system_fingerprint":"fp_7","choices":[{"message":{"content":"(1, 2)"},"finish_reason":"stop"}]}"#;
        let r = parse_response(body).expect("parses");
        assert_eq!(r.served_model.as_deref(), Some("qwen3-8b-2026-04-01"));
        assert_eq!(r.system_fingerprint.as_deref(), Some("fp_7"));
        let r = parse_response(OK_BODY).expect("parses");
        assert_eq!(r.system_fingerprint, None, "not sent, not made up");
        let mut s = super::super::stream::StreamAccumulator::new();
        for chunk in [
            r#"{"model":"m-1","choices":[{"delta":{"content":"(1, "}}]}"#,
            r#"{"model":"m-1","system_fingerprint":"fp_2","choices":[{"delta":{"content":"2)"},"finish_reason":"stop"}]}"#,
        ] {
            s.push(chunk).expect("a chunk");
        }
        let r = s.finish().expect("a reply");
        assert_eq!(
            (r.served_model.as_deref(), r.system_fingerprint.as_deref()),
            (Some("m-1"), Some("fp_2"))
        );
    }

    #[test]
    fn a_function_call_is_read_beside_the_text() {
        let body = r#"{"choices":[{"message":{"content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"submit_move","arguments":"{\"row\": 1, \"col\": 5}"}}]},"finish_reason":"tool_calls"}]}"#;
        let r = parse_response(body).expect("parses");
        assert_eq!(r.content, "", "no text");
        assert_eq!(r.tool_calls.len(), 1);
        assert_eq!(r.tool_calls[0].name, "submit_move");
        assert_eq!(r.tool_calls[0].arguments, r#"{"row": 1, "col": 5}"#);
        assert!(parse_response(OK_BODY)
            .expect("parses")
            .tool_calls
            .is_empty());
    }

    #[test]
    fn a_whole_reply_is_read_with_usage_and_without_logprobs() {
        let r = parse_response(OK_BODY).expect("the reply parses");
        assert_eq!(r.content, "Move: (1, 2)");
        assert_eq!(r.finish_reason.as_deref(), Some("stop"));
        assert_eq!(
            (r.prompt_tokens, r.completion_tokens, r.total_tokens),
            (Some(12), Some(5), Some(17))
        );
        assert_eq!(r.logprobs, None, "absent logprobs are None");
        assert_eq!(r.reasoning, None);
        assert_eq!(r.reasoning_tokens, None, "no details, no reasoning tokens");
        // OpenAI-style usage details, as reasoning models report them.
        let body = r#"{"choices":[{"message":{"content":"Move: (1, 2)"},"finish_reason":"stop"}],"usage":{"prompt_tokens":120,"completion_tokens":900,"total_tokens":1020,"completion_tokens_details":{"reasoning_tokens":840}}}"#;
        let r = parse_response(body).expect("parses");
        assert_eq!(
            (r.completion_tokens, r.reasoning_tokens),
            (Some(900), Some(840))
        );
    }

    #[test]
    fn reasoning_written_inline_is_kept_apart_from_the_answer() {
        let body = r#"{"choices":[{"message":{"content":"<think>left is a wall</think>\n\nMove: (0, 1)"},"finish_reason":"stop"}]}"#;
        let r = parse_response(body).expect("parses");
        assert_eq!(r.content, "Move: (0, 1)");
        assert_eq!(r.reasoning.as_deref(), Some("left is a wall"));
        // Only the closing tag (Qwen3's template opened the block), after reasoning sent apart.
        let body = r#"{"choices":[{"message":{"content":"and down is open</think>(1, 0)","reasoning_content":"first"},"finish_reason":"stop"}]}"#;
        let r = parse_response(body).expect("parses");
        assert_eq!(r.content, "(1, 0)");
        assert_eq!(r.reasoning.as_deref(), Some("first\n\nand down is open"));
        // Cut off inside the block: no answer, and the token limit spent on reasoning.
        let body = r#"{"choices":[{"message":{"content":"<think>maybe (1, 0)"},"finish_reason":"length"}]}"#;
        let r = parse_response(body).expect("parses");
        assert_eq!(r.content, "");
        assert_eq!(r.empty_reason(), Some(EmptyReason::LengthInReasoning));
    }

    #[test]
    fn logprobs_and_reasoning_are_read_when_present() {
        // OpenAI's form: each token with its bytes and its top alternatives (bytes too).
        let body = r#"{"choices":[{"message":{"content":"ok","reasoning_content":"hmm"},"logprobs":{"content":[{"token":"o","logprob":-0.25,"bytes":[111],"top_logprobs":[{"token":"o","logprob":-0.25,"bytes":[111]},{"token":"O","logprob":-1.75,"bytes":[79]},{"token":7,"logprob":-3.0}]},{"token":"k","logprob":-1.5}]}}]}"#;
        let r = parse_response(body).expect("parses");
        assert_eq!(r.reasoning.as_deref(), Some("hmm"));
        let tok = |token: &str, logprob: f64, top: Vec<TokenLogprob>| TokenLogprob {
            token: token.into(),
            logprob,
            top_logprobs: top,
        };
        assert_eq!(
            r.logprobs,
            Some(vec![
                tok(
                    "o",
                    -0.25,
                    // An alternative that is not a token with a log probability is left out.
                    vec![tok("o", -0.25, vec![]), tok("O", -1.75, vec![])]
                ),
                tok("k", -1.5, vec![]),
            ])
        );
        let null = r#"{"choices":[{"message":{"content":"ok"},"logprobs":null}]}"#;
        assert_eq!(
            parse_response(null).expect("parses").logprobs,
            None,
            "null logprobs are None"
        );
    }

    #[test]
    fn bad_bodies_become_specific_errors() {
        let cases = [
            ("<html>Not Found</html>", "malformed"),
            ("", "malformed"),
            (r#"{"choices":[]}"#, "empty_choices"),
            (r#"{"object":"chat.completion"}"#, "empty_choices"),
            (
                r#"{"choices":[{"finish_reason":"stop"}]}"#,
                "missing_content",
            ),
            (
                r#"{"choices":[{"message":{"content":7},"finish_reason":"stop"}]}"#,
                "missing_content",
            ),
            (
                r#"{"error":{"message":"bad thing","code":"invalid_parameter"}}"#,
                "upstream",
            ),
            (
                r#"{"error":{"message":"Rate limit exceeded","code":429}}"#,
                "rate_limited",
            ),
        ];
        for (body, kind) in cases {
            let err = parse_response(body).expect_err("a bad body is an error");
            assert_eq!(err.kind_name(), kind, "body {body:?}");
        }
        let up = parse_response(r#"{"error":{"message":"bad thing","code":"invalid_parameter"}}"#)
            .expect_err("error object");
        assert_eq!(
            up.detail(),
            Some("invalid_parameter: bad thing"),
            "the code and message are kept"
        );
        let missing = parse_response(cases[4].0).expect_err("no message");
        assert!(
            missing
                .message(Preset::DashScopeIntl)
                .contains("not a chat-completions reply"),
            "a choice without a message is not a completion"
        );
    }
}
