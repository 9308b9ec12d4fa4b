//! The whole chat call: [`complete`] sends a request over a [`Transport`], reads the reply
//! whole or streamed, and retries what the policy says to retry, telling the caller of
//! each retry as a [`ChatEvent`].

use super::error::{ChatError, ErrorInfo};
use super::form::{refuses_form, FormRequest};
use super::reply::FailedAttempt;
use super::request::{chat_url, effective_stream, request_body_with, request_headers, ChatMessage};
use super::response::{parse_response, ChatReply};
use super::retry::{format_wait, retry_after_only, retry_hint, RetryNotice, RetryPolicy};
use super::settings::EndpointSettings;
use super::stream::{SseDecoder, StreamAccumulator};
use super::transport::*;

/// What happens during [`complete`], for a page to show.
#[derive(Clone, Debug, PartialEq)]
pub enum ChatEvent<'a> {
    /// An attempt failed and another follows after the notice's wait.
    Retrying(RetryNotice),
    /// Streamed text arrived (only when streaming); empty strings mean nothing new.
    Delta {
        /// New answer text.
        content: &'a str,
        /// New reasoning text.
        reasoning: &'a str,
    },
    /// Attempt n (1-based) starts; text shown from an earlier attempt is stale.
    Attempt(u32),
}

/// Makes a chat-completions call: validates the settings, sends the request, reads the
/// reply (streamed when [`effective_stream`]), and retries 429, 5xx, network errors and
/// timeouts per [`RetryPolicy::from_settings`], honouring server hints. It stops when the
/// next attempt would pass `max_attempts` or its wait would push the total past
/// `max_wait_ms`, returning the last error with the attempts made. The reply's
/// `latency_ms` is the successful attempt's, measured with [`Transport::now_ms`].
pub async fn complete<T: Transport>(
    t: &T,
    settings: &EndpointSettings,
    api_key: &str,
    messages: &[ChatMessage],
    on_event: &mut dyn FnMut(ChatEvent<'_>),
) -> Result<ChatReply, ChatError> {
    complete_with(t, settings, api_key, messages, None, on_event).await
}

/// [`complete`], asking the endpoint to hold the answer to `form`. An error that is the
/// endpoint refusing the form ([`refuses_form`]: a 400, or a server error naming a form
/// parameter) is returned at once, never retried, so the caller can step down to the next
/// spelling.
pub async fn complete_with<T: Transport>(
    t: &T,
    settings: &EndpointSettings,
    api_key: &str,
    messages: &[ChatMessage],
    form: Option<&FormRequest>,
    on_event: &mut dyn FnMut(ChatEvent<'_>),
) -> Result<ChatReply, ChatError> {
    settings.validate()?;
    let req = HttpRequest {
        url: chat_url(&settings.base_url),
        headers: request_headers(api_key),
        body: request_body_with(settings, messages, form)?,
        timeout_ms: settings.timeout_ms,
    };
    let asks_form = form.is_some_and(|f| f.spelling.asks_endpoint());
    let policy = RetryPolicy::from_settings(settings);
    let stream = effective_stream(settings);
    let mut waited: u64 = 0;
    let mut attempt: u32 = 0;
    let mut retried = Vec::new();
    loop {
        attempt += 1;
        on_event(ChatEvent::Attempt(attempt));
        let started = t.now_ms();
        let (result, hint) = attempt_once(t, &req, stream, &mut *on_event).await;
        let err = match result {
            Ok(mut reply) => {
                reply.latency_ms = (t.now_ms() - started).max(0.0);
                reply.attempts = attempt;
                reply.retried = retried;
                return Ok(reply);
            }
            Err(e) => e.with_attempts(attempt),
        };
        if !err.retryable() || attempt >= policy.max_attempts || (asks_form && refuses_form(&err)) {
            return Err(err);
        }
        let delay = policy.delay_ms(attempt, hint, t.jitter());
        if waited.saturating_add(delay) > policy.max_wait_ms {
            return Err(err);
        }
        retried.push(FailedAttempt {
            attempt,
            at_ms: t.now_ms(),
            error: match err.retry_cause() {
                Some(cause) => format!("{}: {cause}", err.status_label()),
                None => err.status_label(),
            },
            wait_ms: delay,
        });
        on_event(ChatEvent::Retrying(RetryNotice {
            status: err.status(),
            status_label: err.status_label(),
            cause: err.retry_cause(),
            attempt,
            of: policy.max_attempts,
            delay_ms: delay,
        }));
        t.sleep(delay).await;
        waited += delay;
    }
}

/// One attempt: the reply or the error, and the server's wait hint.
async fn attempt_once<T: Transport>(
    t: &T,
    req: &HttpRequest,
    stream: bool,
    on_event: &mut dyn FnMut(ChatEvent<'_>),
) -> (Result<ChatReply, ChatError>, Option<u64>) {
    let mut decoder = SseDecoder::new();
    let mut acc = StreamAccumulator::new();
    let mut failed: Option<ChatError> = None;
    let mut chunks = 0usize;
    let sent = {
        let mut on_chunk = |chunk: &str| {
            if stream {
                chunks += 1;
                feed(&mut decoder, &mut acc, &mut failed, &mut *on_event, chunk);
            }
        };
        t.post(req, &mut on_chunk).await
    };
    let response = match sent {
        Ok(r) => r,
        Err(TransportError::Network(m)) => {
            let info = ErrorInfo::no_response(&req.url, t.kind(), m);
            return (Err(ChatError::Network(info)), None);
        }
        Err(TransportError::Timeout) => {
            let detail = format!("no complete answer within {}", format_wait(req.timeout_ms));
            return (Err(ChatError::Timeout(ErrorInfo::detail(detail))), None);
        }
        Err(TransportError::Aborted) => {
            return (Err(ChatError::Aborted(ErrorInfo::default())), None);
        }
    };
    let status = response.status;
    if !(200..300).contains(&status) {
        let err = ChatError::from_status(status, &response.body);
        let hint = match &err {
            ChatError::RateLimited(_) => retry_hint(&response.headers, t.now_ms()),
            ChatError::Server(_) => retry_after_only(&response.headers, t.now_ms()),
            _ => None,
        };
        return (Err(err), hint);
    }
    let result = if stream {
        if chunks == 0 {
            feed(
                &mut decoder,
                &mut acc,
                &mut failed,
                &mut *on_event,
                &response.body,
            );
        }
        for payload in decoder.finish() {
            push_payload(&mut acc, &mut failed, &mut *on_event, &payload);
        }
        match failed {
            Some(e) => Err(e),
            // A server that ignored `stream: true` answers with one JSON body.
            None if acc.payloads() == 0 && response.body.trim_start().starts_with('{') => {
                parse_response(&response.body)
            }
            None => acc.finish(),
        }
    } else {
        parse_response(&response.body)
    };
    let result = result.map_err(|mut e| {
        if e.info().status.is_none() {
            e.info_mut().status = Some(status);
        }
        e
    });
    (result, None)
}

fn feed(
    decoder: &mut SseDecoder,
    acc: &mut StreamAccumulator,
    failed: &mut Option<ChatError>,
    on_event: &mut dyn FnMut(ChatEvent<'_>),
    text: &str,
) {
    for payload in decoder.push(text) {
        push_payload(acc, failed, &mut *on_event, &payload);
    }
}

fn push_payload(
    acc: &mut StreamAccumulator,
    failed: &mut Option<ChatError>,
    on_event: &mut dyn FnMut(ChatEvent<'_>),
    payload: &str,
) {
    if failed.is_some() {
        return;
    }
    match acc.push(payload) {
        Ok(d) if !d.is_empty() => on_event(ChatEvent::Delta {
            content: &d.content,
            reasoning: &d.reasoning,
        }),
        Ok(_) => {}
        Err(e) => *failed = Some(e),
    }
}

#[cfg(test)]
mod tests {
    use super::super::error::without_attempts;
    use super::super::preset::Preset;
    use super::*;
    use crate::model::scripted::ScriptedTransport;

    use super::super::reply::EmptyReason;
    use super::super::scripted::Scripted;
    use super::super::test_support::{fast_settings, run, user, OK_BODY, URL};
    use serde_json::Value;

    #[test]
    fn a_failure_without_an_answer_names_its_likely_cause_from_the_first_retry() {
        let failed =
            || Scripted::Fail(TransportError::Network("TypeError: Failed to fetch".into()));
        let mut t = ScriptedTransport::new(vec![failed(), failed(), Scripted::ok(OK_BODY)]);
        t.kind = TransportKind::Browser;
        let (r, events) = run(&t, &fast_settings());
        assert!(r.is_ok());
        let retries: Vec<&String> = events.iter().filter(|e| e.starts_with("retry: ")).collect();
        assert_eq!(
            retries,
            [
                &format!("retry: No answer from {URL}: the browser does not say why; most likely the server is not running or does not allow this site (CORS). Retrying (attempt 2 of 6) in 750 ms…"),
                &format!("retry: No answer from {URL}: the browser does not say why; most likely the server is not running or does not allow this site (CORS). Retrying (attempt 3 of 6) in 1.5 s…"),
            ]
        );
        let mut t = ScriptedTransport::new(vec![
            Scripted::Fail(TransportError::Network("Connection refused".into())),
            Scripted::ok(OK_BODY),
        ]);
        t.kind = TransportKind::Native;
        let (_, events) = run(&t, &fast_settings());
        assert!(
            events.contains(&format!("retry: No answer from {URL} (Connection refused). Retrying (attempt 2 of 6) in 750 ms…")),
            "{events:?}"
        );
    }

    #[test]
    fn a_retry_notice_carries_the_status_as_a_number() {
        // The scheduler steps a lane's concurrency down on a 429: it reads the number, never
        // the words said to people.
        let t = ScriptedTransport::new(vec![
            Scripted::status(429, "busy"),
            Scripted::status(503, "down"),
            Scripted::ok(OK_BODY),
        ]);
        let mut statuses = Vec::new();
        let r = block_on(complete(&t, &fast_settings(), "k", &user("Hi"), &mut |e| {
            if let ChatEvent::Retrying(n) = e {
                statuses.push(n.status);
            }
        }));
        assert_eq!(statuses, vec![Some(429), Some(503)]);
        // The reply keeps what failed before it, and when.
        let r = r.expect("the third attempt answers");
        let failed: Vec<(u32, &str)> = r
            .retried
            .iter()
            .map(|f| (f.attempt, f.error.as_str()))
            .collect();
        assert_eq!(failed, vec![(1, "429"), (2, "503")]);
        assert!(r.retried[0].at_ms <= r.retried[1].at_ms);
        assert!(r.retried.iter().all(|f| f.wait_ms > 0));
        let fine = block_on(complete(
            &ScriptedTransport::new(vec![Scripted::ok(OK_BODY)]),
            &fast_settings(),
            "k",
            &user("Hi"),
            &mut |_| {},
        ))
        .expect("answers");
        assert!(fine.retried.is_empty(), "nothing retried, nothing kept");
    }

    #[test]
    fn server_errors_network_errors_and_timeouts_back_off_exponentially() {
        let t = ScriptedTransport::new(vec![
            Scripted::status(503, "overloaded"),
            Scripted::Fail(TransportError::Network("Failed to fetch".into())),
            Scripted::Fail(TransportError::Timeout),
            Scripted::ok(OK_BODY),
        ]);
        let (r, events) = run(&t, &fast_settings());
        assert_eq!(r.expect("the fourth attempt succeeds").attempts, 4);
        assert_eq!(
            t.sleeps(),
            vec![750, 1500, 3000],
            "1, 2, 4 s with jitter 0.5"
        );
        assert!(events
            .iter()
            .any(|e| e.starts_with("retry: No answer from ")
                && e.ends_with(". Retrying (attempt 3 of 6) in 1.5 s…")));
        assert!(events.contains(&"retry: Timeout. Retrying (attempt 4 of 6) in 3 s…".to_string()));
    }

    #[test]
    fn a_service_failure_is_still_an_api_error_streamed_or_not() {
        for stream in [false, true] {
            let s = EndpointSettings {
                stream,
                max_attempts: 1,
                ..fast_settings()
            };
            let fails = |script: Scripted| {
                let t = ScriptedTransport::new(vec![script]);
                run(&t, &s).0.expect_err("the service failed").kind_name()
            };
            assert_eq!(
                fails(Scripted::status(500, "{\"error\":{\"message\":\"boom\"}}")),
                "server"
            );
            assert_eq!(fails(Scripted::status(401, "bad key")), "unauthorized");
            assert_eq!(
                fails(Scripted::Fail(TransportError::Network(
                    "Connection refused".into()
                ))),
                "network"
            );
            assert_eq!(fails(Scripted::Fail(TransportError::Timeout)), "timeout");
            // Streaming, a body without events holds no choice.
            let not_json = if stream { "empty_choices" } else { "malformed" };
            assert_eq!(fails(Scripted::ok("<html>gateway</html>")), not_json);
            assert_eq!(fails(Scripted::ok("{\"choices\":[]}")), "empty_choices");
            // Events without a choice: no completion (without streaming, not JSON at all).
            let no_choice = "data: {\"choices\":[],\"usage\":{\"total_tokens\":3}}\n\n";
            assert_eq!(fails(Scripted::chunks(&[no_choice])), not_json);
        }
    }

    #[test]
    fn a_server_error_refusing_the_form_is_returned_at_once_and_any_other_retried() {
        use super::super::form::{FormRequest, Spelling};
        let refused = r#"{"error":{"message":"1 validation error: response_format.type: Input should be 'text' or 'json_object'"}}"#;
        let form = FormRequest {
            spelling: Spelling::JsonSchema,
            name: "move".into(),
            description: String::new(),
            schema: serde_json::json!({"type": "object"}),
            key_order: &[],
        };
        let t = ScriptedTransport::new(vec![Scripted::status(500, refused), Scripted::ok(OK_BODY)]);
        let r = block_on(complete_with(
            &t,
            &fast_settings(),
            "k",
            &user("Hi"),
            Some(&form),
            &mut |_| {},
        ));
        let e = r.expect_err("the refusal comes back");
        assert_eq!(
            (e.status(), e.attempts()),
            (Some(500), 1),
            "one attempt, no retry"
        );
        let sent: Value = serde_json::from_str(&t.requests()[0].body).expect("JSON");
        assert_eq!(
            sent["response_format"]["type"], "json_schema",
            "the form was in the request"
        );
        // The same 500 without a form is a server failing, retried.
        let t = ScriptedTransport::new(vec![Scripted::status(500, refused), Scripted::ok(OK_BODY)]);
        let r = block_on(complete(
            &t,
            &fast_settings(),
            "k",
            &user("Hi"),
            &mut |_| {},
        ));
        assert_eq!(r.expect("the retry answers").attempts, 2);
    }

    #[test]
    fn a_call_succeeds_first_time_with_latency_and_usage() {
        let t = ScriptedTransport::new(vec![Scripted::ok(OK_BODY)]);
        let (r, events) = run(&t, &fast_settings());
        let r = r.expect("the call succeeds");
        assert_eq!(r.content, "Move: (1, 2)");
        assert_eq!(r.attempts, 1);
        assert_eq!(r.latency_ms, 250.0, "the fake request takes 250 ms");
        assert!(!r.streamed);
        assert_eq!(events, vec!["attempt 1"]);
        let req = &t.requests()[0];
        assert_eq!(req.url, "https://api.openai.com/v1/chat/completions");
        assert!(req
            .headers
            .contains(&("Authorization".into(), "Bearer sk-test".into())));
        assert_eq!(req.timeout_ms, 120_000);
    }

    #[test]
    fn a_429_is_retried_after_the_retry_after_seconds() {
        let t = ScriptedTransport::new(vec![
            Scripted::status(429, r#"{"error":{"message":"slow down"}}"#)
                .with_header("retry-after", "8"),
            Scripted::ok(OK_BODY),
        ]);
        let (r, events) = run(&t, &fast_settings());
        let r = r.expect("the second attempt succeeds");
        assert_eq!(r.attempts, 2);
        assert_eq!(t.sleeps(), vec![8000], "the hint is honoured");
        assert_eq!(
            r.latency_ms, 250.0,
            "latency is the successful attempt's only"
        );
        assert_eq!(
            events,
            vec![
                "attempt 1",
                "retry: 429. Retrying (attempt 2 of 6) in 8 s…",
                "attempt 2"
            ]
        );
    }

    #[test]
    fn a_429_is_retried_at_the_retry_after_date() {
        let t = ScriptedTransport::new(vec![]);
        // The transport's clock reads 1_700_000_000_250 when the 429 arrives:
        // 2023-11-14 22:13:20.250 UTC; the date says 22:13:30.
        t.push([
            Scripted::status(429, "busy")
                .with_header("Retry-After", "Tue, 14 Nov 2023 22:13:30 GMT"),
            Scripted::ok(OK_BODY),
        ]);
        let (r, _) = run(&t, &fast_settings());
        assert!(r.is_ok(), "the retry succeeds");
        assert_eq!(t.sleeps(), vec![9750], "waits until the date");
    }

    #[test]
    fn a_429_honours_the_rate_limit_reset_headers() {
        let t = ScriptedTransport::new(vec![
            Scripted::status(429, "tokens")
                .with_header("x-ratelimit-reset-requests", "250ms")
                .with_header("x-ratelimit-reset-tokens", "6.5s"),
            Scripted::ok(OK_BODY),
        ]);
        let (r, _) = run(&t, &fast_settings());
        assert!(r.is_ok());
        assert_eq!(t.sleeps(), vec![6500], "the longer reset wins");
    }

    #[test]
    fn a_400_is_never_retried() {
        let t = ScriptedTransport::new(vec![
            Scripted::status(400, r#"{"error":{"message":"bad top_k"}}"#),
            Scripted::ok(OK_BODY),
        ]);
        let (r, _) = run(&t, &fast_settings());
        let e = r.expect_err("a 400 fails");
        assert_eq!(e.kind_name(), "bad_request");
        assert_eq!(e.attempts(), 1);
        assert_eq!(t.remaining(), 1, "no second request");
        assert!(t.sleeps().is_empty());
    }

    #[test]
    fn an_empty_answer_is_the_model_s_answer_streamed_or_not() {
        for content in [Some(""), None, Some("  \n")] {
            let [plain, streamed] = both_ways(content, None, "stop");
            for r in [&plain, &streamed] {
                assert_eq!(r.content.trim(), "", "{content:?}");
                assert_eq!(r.empty_reason(), Some(EmptyReason::NoText), "{content:?}");
                assert_eq!(r.finish_reason.as_deref(), Some("stop"));
            }
        }
        let [plain, streamed] = both_ways(Some("Move: (1, 2)"), None, "stop");
        assert_eq!(plain.empty_reason(), None);
        assert_eq!(streamed.empty_reason(), None);
    }

    #[test]
    fn a_token_limit_spent_on_reasoning_is_an_empty_answer_that_says_so_both_ways() {
        for content in [None, Some("")] {
            let [plain, streamed] =
                both_ways(content, Some("Let me think about the maze"), "length");
            for r in [&plain, &streamed] {
                assert_eq!(r.content, "");
                assert_eq!(r.reasoning.as_deref(), Some("Let me think about the maze"));
                assert_eq!(r.empty_reason(), Some(EmptyReason::LengthInReasoning));
            }
            let [plain, streamed] = both_ways(content, None, "length");
            for r in [&plain, &streamed] {
                assert_eq!(r.empty_reason(), Some(EmptyReason::Length), "no reasoning");
            }
        }
        let [plain, streamed] = both_ways(Some("Move: (1"), Some("Hm"), "length");
        assert_eq!(
            (plain.empty_reason(), streamed.empty_reason()),
            (None, None),
            "a cut answer is an answer with text"
        );
        assert_eq!(
            EmptyReason::LengthInReasoning
                .explanation(Some(2000))
                .as_deref(),
            Some("The token limit (2000) was spent on reasoning; no answer was given.")
        );
        assert_eq!(EmptyReason::NoText.explanation(Some(2000)), None);
    }

    /// The same reply sent both ways, through the scripted transport: a whole body with
    /// streaming off, then server-sent events with streaming on (a role delta, the
    /// reasoning, the content when there is any, and the finish reason, as llama.cpp's
    /// server streams them). `content` `None` is `null` in the body and no content delta.
    fn both_ways(content: Option<&str>, reasoning: Option<&str>, finish: &str) -> [ChatReply; 2] {
        let body = serde_json::json!({
            "choices": [{"index": 0, "message": {"role": "assistant", "content": content,
                         "reasoning_content": reasoning}, "finish_reason": finish}],
            "usage": {"prompt_tokens": 40, "completion_tokens": 64, "total_tokens": 104}
        });
        let event = |delta: Value, finish: Option<&str>| {
            let payload = serde_json::json!({"choices": [{"index": 0, "delta": delta, "finish_reason": finish}]});
            format!("data: {payload}\n\n")
        };
        let mut events = vec![event(serde_json::json!({"role": "assistant"}), None)];
        if let Some(r) = reasoning {
            events.push(event(serde_json::json!({ "reasoning_content": r }), None));
        }
        if let Some(c) = content {
            events.push(event(serde_json::json!({ "content": c }), None));
        }
        events.push(event(serde_json::json!({}), Some(finish)));
        events.push("data: [DONE]\n\n".into());
        let chunks: Vec<&str> = events.iter().map(String::as_str).collect();
        let plain = ScriptedTransport::new(vec![Scripted::ok(body.to_string())]);
        let streamed = ScriptedTransport::new(vec![Scripted::chunks(&chunks)]);
        let settings = |stream| EndpointSettings {
            stream,
            max_attempts: 1,
            ..fast_settings()
        };
        [(plain, false), (streamed, true)].map(|(t, stream)| {
            let (r, _) = run(&t, &settings(stream));
            let r = r.unwrap_or_else(|e| panic!("streamed {stream}: an answer, not {e:?}"));
            assert_eq!(r.streamed, stream);
            assert_eq!(t.remaining(), 0, "one request, no retry");
            r
        })
    }

    #[test]
    fn the_final_message_says_the_attempts_once() {
        let s = EndpointSettings {
            max_attempts: 3,
            ..fast_settings()
        };
        let failed =
            || Scripted::Fail(TransportError::Network("TypeError: Failed to fetch".into()));
        let mut t = ScriptedTransport::new(vec![failed(), failed(), failed()]);
        t.kind = TransportKind::Browser;
        let (r, _) = run(&t, &s);
        let m = r.expect_err("three failures").message(Preset::Custom);
        assert_eq!(m.matches("attempt").count(), 1, "{m}");
        assert!(m.contains("Gave up after 3 attempts"), "{m}");
        let cause = without_attempts(&m);
        assert!(
            m.starts_with(cause)
                && !cause.contains("attempt")
                && cause.ends_with("Failed to fetch"),
            "{cause}"
        );
        let t = ScriptedTransport::new(vec![Scripted::status(503, "busy")]);
        let (r, _) = run(
            &t,
            &EndpointSettings {
                max_attempts: 1,
                ..s
            },
        );
        let m = r.expect_err("one failure").message(Preset::Custom);
        assert!(!m.contains("attempt"), "one attempt needs no count: {m}");
    }

    #[test]
    fn retries_stop_at_max_attempts_with_the_last_error() {
        let s = EndpointSettings {
            max_attempts: 3,
            ..fast_settings()
        };
        let t = ScriptedTransport::new(vec![
            Scripted::status(500, "a"),
            Scripted::status(502, "b"),
            Scripted::status(429, "c"),
            Scripted::ok(OK_BODY),
        ]);
        let (r, _) = run(&t, &s);
        let e = r.expect_err("three failures exhaust the attempts");
        assert_eq!(e.kind_name(), "rate_limited");
        assert_eq!(e.status(), Some(429));
        assert_eq!(e.attempts(), 3);
        assert_eq!(t.requests().len(), 3);
        assert!(e
            .message(Preset::OpenAi)
            .contains("Gave up after 3 attempts"));
    }

    #[test]
    fn aborts_and_invalid_settings_are_not_retried() {
        let t = ScriptedTransport::new(vec![
            Scripted::Fail(TransportError::Aborted),
            Scripted::ok(OK_BODY),
        ]);
        let (r, _) = run(&t, &fast_settings());
        assert_eq!(r.expect_err("stopped").kind_name(), "aborted");
        assert_eq!(t.remaining(), 1);
        let t = ScriptedTransport::new(vec![Scripted::ok(OK_BODY)]);
        let s = EndpointSettings {
            model: String::new(),
            ..fast_settings()
        };
        let (r, events) = run(&t, &s);
        let e = r.expect_err("no model");
        assert_eq!(e.kind_name(), "invalid_settings");
        assert!(
            e.message(Preset::OpenAi).contains("model name"),
            "{}",
            e.message(Preset::OpenAi)
        );
        assert!(
            t.requests().is_empty() && events.is_empty(),
            "nothing is sent"
        );
    }

    #[test]
    fn retries_stop_when_the_total_wait_would_pass_its_cap() {
        let s = EndpointSettings {
            max_wait_ms: 10_000,
            ..fast_settings()
        };
        let t = ScriptedTransport::new(vec![
            Scripted::status(429, "a").with_header("retry-after", "6"),
            Scripted::status(429, "b").with_header("retry-after", "6"),
            Scripted::ok(OK_BODY),
        ]);
        let (r, _) = run(&t, &s);
        let e = r.expect_err("the second wait would pass 10 s");
        assert_eq!(e.attempts(), 2);
        assert_eq!(t.sleeps(), vec![6000]);
        assert_eq!(t.remaining(), 1);
    }
}
