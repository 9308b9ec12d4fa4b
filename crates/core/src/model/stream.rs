//! The streaming decoder: server-sent events read into a reply as they arrive.

use super::error::{ChatError, ErrorInfo};
use super::reply::TokenLogprob;
use super::response::{error_object, malformed, read_logprobs, read_usage, ChatReply};
use serde_json::Value;

/// Splits a server-sent-events stream, fed in arbitrary text chunks, into the data
/// payloads of its events. Handles `\n`, `\r\n` and `\r` line ends, comment lines
/// (`:`), multi-line `data:` fields (joined by `\n`) and events split across chunks;
/// a `[DONE]` payload ends the stream and is not returned.
#[derive(Clone, Debug, Default)]
pub struct SseDecoder {
    buf: String,
    data: Option<String>,
    done: bool,
}

/// The payload that ends an OpenAI-style event stream.
pub const SSE_DONE: &str = "[DONE]";

impl SseDecoder {
    /// A decoder at the start of a stream.
    pub fn new() -> Self {
        SseDecoder::default()
    }

    /// True once `[DONE]` was seen; later input is ignored.
    pub fn is_done(&self) -> bool {
        self.done
    }

    /// Feeds a chunk and returns the payloads of the events it completes.
    pub fn push(&mut self, chunk: &str) -> Vec<String> {
        if self.done {
            return Vec::new();
        }
        self.buf.push_str(chunk);
        let mut out = Vec::new();
        while let Some(end) = self.buf.find(['\n', '\r']) {
            let bytes = self.buf.as_bytes();
            let skip = if bytes[end] == b'\r' {
                match bytes.get(end + 1) {
                    Some(b'\n') => 2,
                    Some(_) => 1,
                    // A `\r` at the end may be the first half of `\r\n`: wait for more.
                    None => break,
                }
            } else {
                1
            };
            let line: String = self.buf[..end].to_string();
            self.buf.drain(..end + skip);
            self.line(&line, &mut out);
            if self.done {
                self.buf.clear();
                break;
            }
        }
        out
    }

    /// Ends the stream: a last event without its closing blank line still counts.
    pub fn finish(&mut self) -> Vec<String> {
        let mut out = Vec::new();
        if self.done {
            return out;
        }
        let rest = std::mem::take(&mut self.buf);
        let rest = rest.strip_suffix('\r').unwrap_or(&rest);
        if !rest.is_empty() {
            self.line(rest, &mut out);
        }
        if !self.done {
            self.line("", &mut out);
        }
        out
    }

    fn line(&mut self, line: &str, out: &mut Vec<String>) {
        if line.is_empty() {
            if let Some(data) = self.data.take() {
                if data == SSE_DONE {
                    self.done = true;
                } else if !data.is_empty() {
                    out.push(data);
                }
            }
            return;
        }
        if line.starts_with(':') {
            return;
        }
        let (field, value) = match line.split_once(':') {
            Some((f, v)) => (f, v.strip_prefix(' ').unwrap_or(v)),
            None => (line, ""),
        };
        if field == "data" {
            match &mut self.data {
                Some(d) => {
                    d.push('\n');
                    d.push_str(value);
                }
                None => self.data = Some(value.to_string()),
            }
        }
    }
}

/// The new text one streamed payload added.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StreamDelta {
    /// New answer text.
    pub content: String,
    /// New reasoning text.
    pub reasoning: String,
}

impl StreamDelta {
    /// True when the payload added no text.
    pub fn is_empty(&self) -> bool {
        self.content.is_empty() && self.reasoning.is_empty()
    }
}

/// Builds a [`ChatReply`] from the JSON payloads of a streamed reply.
#[derive(Clone, Debug, Default)]
pub struct StreamAccumulator {
    reply: ChatReply,
    /// Function calls by their index in the stream: id, name and the arguments so far.
    calls: Vec<(usize, super::form::ToolCall)>,
    reasoning: String,
    logprobs: Vec<TokenLogprob>,
    payloads: usize,
    saw_choice: bool,
}

impl StreamAccumulator {
    /// An accumulator before the first payload.
    pub fn new() -> Self {
        StreamAccumulator::default()
    }

    /// How many payloads were taken.
    pub fn payloads(&self) -> usize {
        self.payloads
    }

    /// Takes one payload (`choices[0].delta.content` / `reasoning_content`,
    /// `finish_reason`, `usage`, `logprobs.content`) and returns the text it added; an
    /// `error` object in the payload, or a payload that is not JSON, is an error.
    pub fn push(&mut self, payload: &str) -> Result<StreamDelta, ChatError> {
        let v: Value = serde_json::from_str(payload).map_err(|e| malformed(payload, &e))?;
        self.payloads += 1;
        if let Some(err) = error_object(&v) {
            return Err(err);
        }
        read_usage_if_present(&v, &mut self.reply);
        super::response::read_served(&v, &mut self.reply);
        let mut delta = StreamDelta::default();
        let Some(choice) = v
            .get("choices")
            .and_then(Value::as_array)
            .and_then(|c| c.first())
        else {
            return Ok(delta);
        };
        self.saw_choice = true;
        let d = choice
            .get("delta")
            .or_else(|| choice.get("message"))
            .unwrap_or(&Value::Null);
        if let Some(text) = d.get("content").and_then(Value::as_str) {
            delta.content = text.to_string();
            self.reply.content.push_str(text);
        }
        if let Some(text) = d
            .get("reasoning_content")
            .and_then(Value::as_str)
            .or_else(|| d.get("reasoning").and_then(Value::as_str))
        {
            delta.reasoning = text.to_string();
            self.reasoning.push_str(text);
        }
        if let Some(calls) = d.get("tool_calls").and_then(Value::as_array) {
            for c in calls {
                self.call_delta(c);
            }
        }
        if let Some(f) = choice.get("finish_reason").and_then(Value::as_str) {
            self.reply.finish_reason = Some(f.to_string());
        }
        if let Some(mut tokens) = read_logprobs(choice) {
            self.logprobs.append(&mut tokens);
        }
        Ok(delta)
    }

    /// One streamed piece of a function call: its `index` says which call it continues; the
    /// id and name come once, the arguments in pieces (a whole call in one piece too).
    fn call_delta(&mut self, c: &Value) {
        let index = c
            .get("index")
            .and_then(Value::as_u64)
            .map_or(self.calls.len(), |i| i as usize);
        let at = match self.calls.iter().position(|(i, _)| *i == index) {
            Some(at) => at,
            None => {
                self.calls.push((index, super::form::ToolCall::default()));
                self.calls.len() - 1
            }
        };
        let call = &mut self.calls[at].1;
        if let Some(id) = c.get("id").and_then(Value::as_str) {
            call.id = id.to_string();
        }
        let f = c.get("function").unwrap_or(&Value::Null);
        if let Some(name) = f.get("name").and_then(Value::as_str) {
            call.name.push_str(name);
        }
        match f.get("arguments") {
            Some(Value::String(piece)) => call.arguments.push_str(piece),
            Some(Value::Null) | None => {}
            Some(whole) => call.arguments = whole.to_string(),
        }
    }

    /// The reply so far, once the stream has ended. A stream that held a choice is a
    /// completion, even when no answer text came (an empty answer, exactly as the same
    /// reply without streaming); one that held no choice is an error.
    pub fn finish(self) -> Result<ChatReply, ChatError> {
        if !self.saw_choice {
            return Err(ChatError::EmptyChoices(ErrorInfo::detail(format!(
                "the stream held {} payloads and no choice",
                self.payloads
            ))));
        }
        let mut reply = self.reply;
        reply.tool_calls = self
            .calls
            .into_iter()
            .enumerate()
            .filter(|(_, (_, c))| !c.name.is_empty())
            .map(|(k, (_, mut c))| {
                if c.id.is_empty() {
                    c.id = format!("call_{k}");
                }
                c
            })
            .collect();
        reply.reasoning = (!self.reasoning.is_empty()).then_some(self.reasoning);
        reply.logprobs = (!self.logprobs.is_empty()).then_some(self.logprobs);
        reply.streamed = true;
        Ok(reply.with_inline_reasoning())
    }
}

fn read_usage_if_present(v: &Value, reply: &mut ChatReply) {
    if v.get("usage").is_some_and(Value::is_object) {
        read_usage(v, reply);
    }
}

#[cfg(test)]
mod tests {
    use super::super::scripted::{Scripted, ScriptedTransport};
    use super::super::settings::EndpointSettings;
    use super::super::test_support::{fast_settings, run, OK_BODY};
    use super::*;

    const STREAM: [&str; 5] = [
        ": keep-alive\r\n\r\ndata: {\"choices\":[{\"delta\":{\"role\":\"assistant\",\"content\":\"\",\"reasoning_content\":\"Let me\"}}]}\r\n\r\ndata: {\"choices\":[{\"delta\":{\"reasoning_",
        "content\":\" think.\"}}]}\n\ndata: {\"choices\":[{\"delta\":{\"content\":\"Move: \"},\"logprobs\":{\"content\":[{\"token\":\"Move\",\"logprob\":-0.1}]}}]}\n",
        "\ndata: {\"choices\":[{\"delta\":{\"content\":\"(1, 2)\"},\"finish_reason\":\"stop\"}]}\n\n",
        "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":30,\"completion_tokens\":9,\"total_tokens\":39}}\n\ndata: [DO",
        "NE]\n\ndata: {\"choices\":[{\"delta\":{\"content\":\"after done\"}}]}\n\n",
    ];

    #[test]
    fn the_decoder_joins_multi_line_data_and_flushes_a_last_event() {
        let mut d = SseDecoder::new();
        let mut out = d.push("event: x\ndata: a\r");
        out.extend(d.push("\ndata: b\n\nid: 3\ndata:c"));
        assert_eq!(
            out,
            vec!["a\nb".to_string()],
            "two data lines make one payload"
        );
        assert_eq!(
            d.finish(),
            vec!["c".to_string()],
            "the unterminated event counts at the end"
        );
        let mut d = SseDecoder::new();
        assert!(d.push("data: [DONE]\n\n").is_empty());
        assert!(d.is_done());
        assert!(d.push("data: more\n\n").is_empty(), "nothing after [DONE]");
        let mut d = SseDecoder::new();
        assert_eq!(
            d.push("data: x\rdata: y\r\rdata: z\r\r"),
            vec!["x\ny".to_string()],
            "bare CR ends lines (a CR at the very end may still be half of CRLF)"
        );
        assert_eq!(d.finish(), vec!["z".to_string()]);
    }

    #[test]
    fn a_stream_split_across_chunks_builds_the_reply_and_reports_deltas() {
        let s = EndpointSettings {
            stream: true,
            ..fast_settings()
        };
        let t = ScriptedTransport::new(vec![Scripted::chunks(&STREAM)]);
        let (r, events) = run(&t, &s);
        let r = r.expect("the stream parses");
        assert_eq!(r.content, "Move: (1, 2)");
        assert_eq!(r.reasoning.as_deref(), Some("Let me think."));
        assert_eq!(r.finish_reason.as_deref(), Some("stop"));
        assert_eq!(r.total_tokens, Some(39), "usage from the last chunk");
        assert_eq!(r.logprobs.as_ref().map(Vec::len), Some(1));
        assert!(r.streamed);
        assert_eq!(
            events,
            vec![
                "attempt 1".to_string(),
                "delta c=\"\" r=\"Let me\"".into(),
                "delta c=\"\" r=\" think.\"".into(),
                "delta c=\"Move: \" r=\"\"".into(),
                "delta c=\"(1, 2)\" r=\"\"".into(),
            ],
            "text after [DONE] is ignored"
        );
    }

    #[test]
    fn an_error_inside_a_stream_or_a_bad_payload_fails_the_call() {
        let s = EndpointSettings {
            stream: true,
            max_attempts: 1,
            ..fast_settings()
        };
        let t = ScriptedTransport::new(vec![Scripted::chunks(&[
            "data: {\"choices\":[{\"delta\":{\"content\":\"Mo\"}}]}\n\n",
            "data: {\"error\":{\"message\":\"provider overloaded\",\"code\":502}}\n\n",
        ])]);
        let (r, _) = run(&t, &s);
        let e = r.expect_err("the error object fails the call");
        assert_eq!(e.kind_name(), "server");
        assert_eq!(e.status(), Some(502));
        let t = ScriptedTransport::new(vec![Scripted::chunks(&["data: {not json\n\n"])]);
        let (r, _) = run(&t, &s);
        assert_eq!(r.expect_err("bad payload").kind_name(), "malformed");
        let t = ScriptedTransport::new(vec![Scripted::chunks(&["data: [DONE]\n\n"])]);
        let (r, _) = run(&t, &s);
        assert_eq!(r.expect_err("no choices").kind_name(), "empty_choices");
    }

    #[test]
    fn a_streamed_function_call_is_put_together_from_its_pieces() {
        let s = EndpointSettings {
            stream: true,
            ..fast_settings()
        };
        let t = ScriptedTransport::new(vec![Scripted::chunks(&[
            "data: {\"choices\":[{\"delta\":{\"role\":\"assistant\",\"tool_calls\":[{\"index\":0,\"id\":\"call_7\",\"type\":\"function\",\"function\":{\"name\":\"submit_move\",\"arguments\":\"\"}}]}}]}\n\n",
            "data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"{\\\"row\\\": 2,\"}}]}}]}\n\n",
            "data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\" \\\"col\\\": 3}\"}}]},\"finish_reason\":\"tool_calls\"}]}\n\ndata: [DONE]\n\n",
        ])]);
        let (r, _) = run(&t, &s);
        let r = r.expect("the stream parses");
        assert_eq!(r.tool_calls.len(), 1);
        assert_eq!(r.tool_calls[0].id, "call_7");
        assert_eq!(r.tool_calls[0].name, "submit_move");
        assert_eq!(r.tool_calls[0].arguments, r#"{"row": 2, "col": 3}"#);
        assert_eq!(r.content, "");
    }

    #[test]
    fn a_server_that_ignores_streaming_is_read_as_a_whole_reply() {
        let s = EndpointSettings {
            stream: true,
            ..fast_settings()
        };
        let t = ScriptedTransport::new(vec![Scripted::ok(OK_BODY)]);
        let (r, _) = run(&t, &s);
        let r = r.expect("a JSON body is accepted");
        assert_eq!(r.content, "Move: (1, 2)");
        assert!(!r.streamed, "it did not arrive as events");
    }
}
