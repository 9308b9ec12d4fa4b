//! One error type for the HTTP/API boundary, with a kind per cause and a message a person can act on.

use super::preset::Preset;
use super::settings::example_base;
use super::transport::TransportKind;
use serde_json::Value;
use std::fmt;

/// Longest server message kept in an error, in characters.
pub const MAX_DETAIL_CHARS: usize = 300;

/// What every [`ChatError`] carries.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ErrorInfo {
    /// The HTTP status, when there was a response.
    pub status: Option<u16>,
    /// The server's own message (truncated to [`MAX_DETAIL_CHARS`]), or for errors without
    /// a response, what is known (the browser's message, the time limit, ...).
    pub detail: Option<String>,
    /// Attempts made before giving up (0 when the call was never attempted).
    pub attempts: u32,
    /// Where the request went, for an error without a response ([`ChatError::Network`]).
    pub url: Option<String>,
    /// Who sent the request: what a failure without a response means depends on it.
    pub transport: TransportKind,
}

impl ErrorInfo {
    /// Information with a status and the server's message (an empty message is dropped).
    pub fn new(status: Option<u16>, detail: impl Into<String>) -> Self {
        let detail = detail.into();
        ErrorInfo {
            status,
            detail: (!detail.trim().is_empty()).then_some(detail),
            ..ErrorInfo::default()
        }
    }

    /// Information with a message and no status.
    pub fn detail(detail: impl Into<String>) -> Self {
        ErrorInfo::new(None, detail)
    }

    /// Information on a request to `url` that got no response, sent by `transport`, with
    /// what the transport said.
    pub fn no_response(url: &str, transport: TransportKind, detail: impl Into<String>) -> Self {
        ErrorInfo {
            url: Some(url.to_string()),
            transport,
            ..ErrorInfo::detail(detail)
        }
    }

    /// A request without a response, for people: where it went and, from a browser (which
    /// hides the reason), that the browser does not say why and the two usual causes.
    /// One sentence without its full stop.
    fn no_answer(&self) -> String {
        let to = self.url.as_deref().unwrap_or("the endpoint");
        match self.transport {
            TransportKind::Browser => format!(
                "No answer from {to}: the browser does not say why; most likely the server is not running or does not allow this site (CORS)"
            ),
            TransportKind::Native => format!("No answer from {to}"),
        }
    }
}

/// Why a chat call failed: the one error type of the HTTP/API boundary.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ChatError {
    /// 401 or 403: the key was refused.
    Unauthorized(ErrorInfo),
    /// 404, or a body saying the model does not exist.
    ModelNotFound(ErrorInfo),
    /// A 400 whose body says the prompt exceeds the model's context.
    ContextLength(ErrorInfo),
    /// 429: too many requests or tokens.
    RateLimited(ErrorInfo),
    /// 5xx: the server failed.
    Server(ErrorInfo),
    /// Any other 4xx.
    BadRequest(ErrorInfo),
    /// The request failed without a response: from a browser most likely CORS or a server
    /// that is not running (it does not say which); from a native program, what its error
    /// says.
    Network(ErrorInfo),
    /// No complete answer within `timeout_ms`.
    Timeout(ErrorInfo),
    /// The person stopped the call.
    Aborted(ErrorInfo),
    /// A 2xx body that is not JSON (or an unreadable streamed payload).
    Malformed(ErrorInfo),
    /// A reply with no choices.
    EmptyChoices(ErrorInfo),
    /// A choice without a message (an empty message is an empty answer, not this).
    MissingContent(ErrorInfo),
    /// An `error` object inside a 2xx body.
    Upstream(ErrorInfo),
    /// The settings cannot make a request.
    InvalidSettings(ErrorInfo),
}

/// Every error kind's name, in declaration order (see [`ChatError::kind_name`]).
pub const ERROR_KIND_NAMES: [&str; 14] = [
    "unauthorized",
    "model_not_found",
    "context_length",
    "rate_limited",
    "server",
    "bad_request",
    "network",
    "timeout",
    "aborted",
    "malformed",
    "empty_choices",
    "missing_content",
    "upstream",
    "invalid_settings",
];

/// The [`ErrorInfo`] of a `ChatError` (shared or mutable, as the error is): every
/// variant carries one.
macro_rules! info_of {
    ($e:expr) => {
        match $e {
            ChatError::Unauthorized(i)
            | ChatError::ModelNotFound(i)
            | ChatError::ContextLength(i)
            | ChatError::RateLimited(i)
            | ChatError::Server(i)
            | ChatError::BadRequest(i)
            | ChatError::Network(i)
            | ChatError::Timeout(i)
            | ChatError::Aborted(i)
            | ChatError::Malformed(i)
            | ChatError::EmptyChoices(i)
            | ChatError::MissingContent(i)
            | ChatError::Upstream(i)
            | ChatError::InvalidSettings(i) => i,
        }
    };
}

impl ChatError {
    /// The error for a non-2xx response: the status decides, and for other 4xx the body
    /// (context length, unknown model). The server's message is kept, truncated.
    pub fn from_status(status: u16, body: &str) -> ChatError {
        let message = server_message(body);
        classify(status, &message)
    }

    /// An [`ChatError::InvalidSettings`] with the given explanation.
    pub fn invalid_settings(message: impl Into<String>) -> ChatError {
        ChatError::InvalidSettings(ErrorInfo::detail(message))
    }

    /// What the error carries.
    pub fn info(&self) -> &ErrorInfo {
        info_of!(self)
    }

    pub(super) fn info_mut(&mut self) -> &mut ErrorInfo {
        info_of!(self)
    }

    /// The HTTP status, when there was a response.
    pub fn status(&self) -> Option<u16> {
        self.info().status
    }

    /// The server's message (or what is known), when there is one.
    pub fn detail(&self) -> Option<&str> {
        self.info().detail.as_deref()
    }

    /// Attempts made before giving up.
    pub fn attempts(&self) -> u32 {
        self.info().attempts
    }

    /// The same error, recording the attempts made.
    pub fn with_attempts(mut self, attempts: u32) -> ChatError {
        self.info_mut().attempts = attempts;
        self
    }

    /// The stable snake_case name of the kind (`rate_limited`, `network`, ...).
    pub fn kind_name(&self) -> &'static str {
        let i = match self {
            ChatError::Unauthorized(_) => 0,
            ChatError::ModelNotFound(_) => 1,
            ChatError::ContextLength(_) => 2,
            ChatError::RateLimited(_) => 3,
            ChatError::Server(_) => 4,
            ChatError::BadRequest(_) => 5,
            ChatError::Network(_) => 6,
            ChatError::Timeout(_) => 7,
            ChatError::Aborted(_) => 8,
            ChatError::Malformed(_) => 9,
            ChatError::EmptyChoices(_) => 10,
            ChatError::MissingContent(_) => 11,
            ChatError::Upstream(_) => 12,
            ChatError::InvalidSettings(_) => 13,
        };
        ERROR_KIND_NAMES[i]
    }

    /// True for the errors worth another attempt: 429, 5xx, network errors and timeouts.
    pub fn retryable(&self) -> bool {
        matches!(
            self,
            ChatError::RateLimited(_)
                | ChatError::Server(_)
                | ChatError::Network(_)
                | ChatError::Timeout(_)
        )
    }

    /// A short label for retry notices: the status (`429`), `network error` or `timeout`.
    pub fn status_label(&self) -> String {
        match (self, self.status()) {
            (ChatError::Network(_), _) => "network error".to_string(),
            (ChatError::Timeout(_), _) => "timeout".to_string(),
            (_, Some(s)) => s.to_string(),
            (_, None) => self.kind_name().replace('_', " "),
        }
    }

    /// What a retry notice says besides the label, from the first failure on: for a
    /// request without a response, where it went and its likely cause (from a native
    /// program, with its error, which says what failed). None for the other errors, whose
    /// label says enough.
    pub fn retry_cause(&self) -> Option<String> {
        let ChatError::Network(i) = self else {
            return None;
        };
        Some(match (i.transport, &i.detail) {
            (TransportKind::Native, Some(d)) => format!("{} ({d})", i.no_answer()),
            _ => i.no_answer(),
        })
    }

    /// A clear message saying what happened and what to do, for the given preset. A
    /// request without a response is explained for its transport: CORS and the preset's
    /// browser advice only when a browser sent it.
    pub fn message(&self, preset: Preset) -> String {
        let status = self.status().map(|s| format!(" ({s})")).unwrap_or_default();
        let label = preset.label();
        let mut text = match self {
            ChatError::Unauthorized(_) => {
                let key_note = if preset.is_dashscope() {
                    " DashScope keys belong to one region: an international key does not work on the China or US endpoint."
                } else if preset.needs_key() {
                    ""
                } else {
                    " Local servers usually need no key unless one was set when starting them."
                };
                format!(
                    "The endpoint refused the API key{status}. Check the key for {label}: paste it again without spaces, and check that it is active and allowed to use this model.{key_note}"
                )
            }
            ChatError::ModelNotFound(_) => {
                let example = preset.example_model();
                let example = if example.is_empty() {
                    String::new()
                } else {
                    format!(" (for example {example})")
                };
                format!(
                    "The endpoint does not know this model{status}. Check the model name for {label}{example}, its exact spelling, and that your account may use it; for a 404 also check the base URL."
                )
            }
            ChatError::ContextLength(_) => format!(
                "The request is longer than the model's context window{status}. Lower max tokens, use a smaller maze, or choose a model with a longer context."
            ),
            ChatError::RateLimited(_) => format!(
                "The endpoint is limiting the request rate{status}. Wait a minute and try again, run fewer trials at once, or raise max attempts and the total wait so the client backs off longer."
            ),
            ChatError::Server(_) => format!(
                "The endpoint had a server error{status}. It is usually temporary: try again later, or choose another model or provider."
            ),
            ChatError::BadRequest(_) => format!(
                "The endpoint rejected the request{status}. Check the model name and the extra parameters (and turn off log-probabilities or thinking if this endpoint does not support them)."
            ),
            ChatError::Network(i) => match i.transport {
                TransportKind::Browser => format!("{}. {}", i.no_answer(), preset.cors_advice()),
                TransportKind::Native => format!("{}. {}", i.no_answer(), native_advice(preset, i)),
            },
            ChatError::Timeout(_) => "No complete answer arrived within the time limit. Raise the timeout, lower max tokens, or turn on streaming; a busy local server may also need a smaller model.".to_string(),
            ChatError::Aborted(_) => "Stopped: the request was cancelled.".to_string(),
            ChatError::Malformed(_) => format!(
                "The endpoint's answer{status} is not valid JSON, so not a chat-completions reply. Check that the base URL ends where /chat/completions should be added (for {label}: {}).",
                example_base(preset)
            ),
            ChatError::EmptyChoices(_) => format!(
                "The endpoint answered{status} with no choices, so there is no reply. Try again; if it persists, check the model name and the extra parameters."
            ),
            ChatError::MissingContent(_) => format!(
                "The endpoint's answer{status} holds a choice without a message, so not a chat-completions reply. Check that the base URL points to a chat-completions endpoint (not the older completions one), and the model and extra parameters."
            ),
            ChatError::Upstream(_) => format!(
                "The endpoint reported an error inside its answer{status}. Check the model name and parameters, or try another provider."
            ),
            ChatError::InvalidSettings(_) => "The endpoint settings need fixing.".to_string(),
        };
        if let Some(detail) = self.detail() {
            let lead = match self {
                ChatError::Network(i) if i.transport == TransportKind::Browser => "Browser said",
                ChatError::Timeout(_) | ChatError::Aborted(_) | ChatError::InvalidSettings(_) => "",
                ChatError::Network(_)
                | ChatError::Malformed(_)
                | ChatError::EmptyChoices(_)
                | ChatError::MissingContent(_) => "Details",
                _ => "Server said",
            };
            if lead.is_empty() {
                text.push(' ');
                text.push_str(detail);
            } else {
                text.push_str(&format!(" {lead}: {detail}"));
            }
        }
        let attempts = self.attempts();
        if attempts > 1 {
            text.push_str(&format!("{GAVE_UP}{attempts} attempts.)"));
        }
        text
    }
}

/// How a final error message after several attempts ends: `" (Gave up after N attempts.)"`.
const GAVE_UP: &str = " (Gave up after ";

/// A final error message ([`ChatError::message`]) without its closing count of attempts,
/// so that failures of one cause read the same however many attempts each took.
pub fn without_attempts(message: &str) -> &str {
    match message.rfind(GAVE_UP) {
        Some(i) if message.ends_with(" attempts.)") => &message[..i],
        _ => message,
    }
}

/// What to check when a native program got no answer (never browser advice).
fn native_advice(preset: Preset, info: &ErrorInfo) -> String {
    if info.url.as_deref().is_some_and(|u| u.starts_with('/')) {
        let full = preset
            .upstream_url()
            .map(|u| format!(" (for {}: {u})", preset.label()))
            .unwrap_or_default();
        format!("A base URL starting with / is a path on the server that serves the web app and works only there: give the endpoint's full URL{full}.")
    } else {
        "Check the base URL, and that the server is running and reachable from this machine."
            .to_string()
    }
}

impl fmt::Display for ChatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.message(Preset::Custom))
    }
}

impl std::error::Error for ChatError {}

/// The server's own message in an error body: `error.message`, `error` (a string),
/// `message` or `detail`, else the trimmed body; truncated.
fn server_message(body: &str) -> String {
    if let Ok(v) = serde_json::from_str::<Value>(body) {
        let found = v
            .get("error")
            .and_then(|e| {
                e.get("message")
                    .and_then(Value::as_str)
                    .or_else(|| e.as_str())
            })
            .or_else(|| v.get("message").and_then(Value::as_str))
            .or_else(|| v.get("detail").and_then(Value::as_str));
        if let Some(m) = found {
            let code = v
                .get("error")
                .and_then(|e| e.get("code"))
                .and_then(Value::as_str);
            return truncate(&match code {
                Some(c) if !c.is_empty() && !m.contains(c) => format!("{c}: {m}"),
                _ => m.to_string(),
            });
        }
    }
    truncate(body.trim())
}

/// The kind for an error status and the server's message.
pub(super) fn classify(status: u16, message: &str) -> ChatError {
    let info = ErrorInfo::new(Some(status), truncate(message));
    let lower = message.to_ascii_lowercase();
    let mentions = |needles: &[&str]| needles.iter().any(|n| lower.contains(n));
    match status {
        401 | 403 => ChatError::Unauthorized(info),
        404 => ChatError::ModelNotFound(info),
        429 => ChatError::RateLimited(info),
        500..=599 => ChatError::Server(info),
        400..=499
            if mentions(&[
                "context length",
                "context_length",
                "maximum context",
                "context window",
                "too many tokens",
                "input length",
                "prompt is too long",
            ]) =>
        {
            ChatError::ContextLength(info)
        }
        400..=499
            if mentions(&[
                "model_not_found",
                "model not found",
                "does not exist",
                "not a valid model",
                "no such model",
                "unknown model",
            ]) =>
        {
            ChatError::ModelNotFound(info)
        }
        _ => ChatError::BadRequest(info),
    }
}

/// Keeps at most [`MAX_DETAIL_CHARS`] characters, marking a cut with `…`.
pub(super) fn truncate(s: &str) -> String {
    match s.char_indices().nth(MAX_DETAIL_CHARS) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_string(),
    }
}

impl From<super::settings::SettingsError> for ChatError {
    fn from(e: super::settings::SettingsError) -> Self {
        ChatError::invalid_settings(e.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::super::scripted::{Scripted, ScriptedTransport};
    use super::super::settings::EndpointSettings;
    use super::super::test_support::{fast_settings, run, URL};
    use super::super::transport::TransportError;
    use super::*;

    /// The first markdown markup in `text`: a code span, strong emphasis, or `*`/`_`
    /// opening emphasis at the start of a word.
    fn markdown(text: &str) -> Option<String> {
        if let Some(i) = text.find(['`']) {
            return Some(text[i..].chars().take(20).collect());
        }
        if let Some(i) = text.find("**").or_else(|| text.find("__")) {
            return Some(text[i..].chars().take(20).collect());
        }
        let chars: Vec<char> = std::iter::once(' ').chain(text.chars()).collect();
        chars.windows(3).find_map(|w| {
            let opens =
                matches!(w[1], '*' | '_') && !w[0].is_alphanumeric() && w[2].is_alphanumeric();
            opens.then(|| w.iter().collect())
        })
    }

    /// Words that only make sense in a web page.
    const BROWSER_WORDS: [&str; 6] = [
        "CORS",
        "browser",
        "page",
        "origin",
        "make serve",
        "Access-Control",
    ];

    #[test]
    fn statuses_and_bodies_map_to_error_kinds() {
        let cases = [
            (
                401,
                r#"{"error":{"message":"Incorrect API key provided"}}"#,
                "unauthorized",
            ),
            (403, "forbidden", "unauthorized"),
            (
                404,
                r#"{"error":{"message":"not found"}}"#,
                "model_not_found",
            ),
            (
                400,
                r#"{"error":{"message":"The model `qwen-x` does not exist or you do not have access to it.","code":"model_not_found"}}"#,
                "model_not_found",
            ),
            (
                400,
                r#"{"error":{"message":"This model's maximum context length is 8192 tokens."}}"#,
                "context_length",
            ),
            (
                400,
                r#"{"error":{"message":"Range of input length should be [1, 30720]"}}"#,
                "context_length",
            ),
            (413, "too many tokens in the prompt", "context_length"),
            (
                429,
                r#"{"error":{"message":"Requests rate limit exceeded"}}"#,
                "rate_limited",
            ),
            (500, "oops", "server"),
            (503, "", "server"),
            (
                400,
                r#"{"error":{"message":"temperature must be <= 2"}}"#,
                "bad_request",
            ),
            (422, r#"{"detail":"unprocessable"}"#, "bad_request"),
        ];
        for (status, body, kind) in cases {
            let e = ChatError::from_status(status, body);
            assert_eq!(e.kind_name(), kind, "status {status}, body {body:?}");
            assert_eq!(e.status(), Some(status), "the status is kept");
            assert_eq!(
                e.retryable(),
                matches!(kind, "rate_limited" | "server"),
                "{kind} retryability"
            );
        }
        let e =
            ChatError::from_status(401, r#"{"error":{"message":"Incorrect API key provided"}}"#);
        assert_eq!(
            e.detail(),
            Some("Incorrect API key provided"),
            "the server's message is kept"
        );
        let msg = e.message(Preset::DashScopeIntl);
        assert!(
            msg.starts_with(
                "The endpoint refused the API key (401). Check the key for DashScope international"
            ),
            "actionable 401 message: {msg}"
        );
        assert!(
            msg.contains("Server said: Incorrect API key provided"),
            "the server's words follow: {msg}"
        );
        assert_eq!(
            ChatError::from_status(503, "").detail(),
            None,
            "an empty body gives no detail"
        );
    }

    #[test]
    fn long_server_messages_are_truncated() {
        let long = "x".repeat(1000);
        let e = ChatError::from_status(500, &long);
        let detail = e.detail().expect("a detail");
        assert_eq!(
            detail.chars().count(),
            MAX_DETAIL_CHARS + 1,
            "300 characters and an ellipsis"
        );
        assert!(detail.ends_with('…'));
    }

    #[test]
    fn every_error_kind_has_a_distinct_name_and_a_message() {
        let info = || ErrorInfo::new(Some(418), "why");
        let all = [
            ChatError::Unauthorized(info()),
            ChatError::ModelNotFound(info()),
            ChatError::ContextLength(info()),
            ChatError::RateLimited(info()),
            ChatError::Server(info()),
            ChatError::BadRequest(info()),
            ChatError::Network(info()),
            ChatError::Timeout(info()),
            ChatError::Aborted(info()),
            ChatError::Malformed(info()),
            ChatError::EmptyChoices(info()),
            ChatError::MissingContent(info()),
            ChatError::Upstream(info()),
            ChatError::InvalidSettings(info()),
        ];
        let names: Vec<&str> = all.iter().map(ChatError::kind_name).collect();
        assert_eq!(
            names,
            ERROR_KIND_NAMES.to_vec(),
            "names in declaration order"
        );
        for e in &all {
            for p in Preset::ALL {
                let m = e.message(p);
                assert!(
                    m.len() > 20 && m.contains("why"),
                    "{} for {}: {m}",
                    e.kind_name(),
                    p.id()
                );
            }
        }
        let retryable: Vec<&str> = all
            .iter()
            .filter(|e| e.retryable())
            .map(ChatError::kind_name)
            .collect();
        assert_eq!(
            retryable,
            vec!["rate_limited", "server", "network", "timeout"]
        );
    }

    #[test]
    fn a_network_error_from_a_native_program_never_gives_browser_advice() {
        let refused = "error sending request: tcp connect error: Connection refused (os error 111)";
        for url in [URL, "/proxy/dashscope-intl/chat/completions"] {
            let e = ChatError::Network(ErrorInfo::no_response(url, TransportKind::Native, refused))
                .with_attempts(6);
            for p in Preset::ALL {
                let m = e.message(p);
                for word in BROWSER_WORDS {
                    assert!(!m.contains(word), "{}: no '{word}' natively: {m}", p.id());
                }
                assert!(m.starts_with(&format!("No answer from {url}.")), "{m}");
                assert!(
                    m.contains(&format!("Details: {refused}")),
                    "keeps the error: {m}"
                );
            }
            let cause = e.retry_cause().expect("a cause");
            assert_eq!(cause, format!("No answer from {url} ({refused})"));
        }
        let e = ChatError::Network(ErrorInfo::no_response(
            "/proxy/dashscope-intl/chat/completions",
            TransportKind::Native,
            "builder error: relative URL without a base",
        ));
        let m = e.message(Preset::DashScopeIntl);
        assert!(
            m.contains("full URL") && m.contains("https://dashscope-intl.aliyuncs.com"),
            "a path needs the full URL natively: {m}"
        );
        assert_eq!(
            ChatError::Network(ErrorInfo::detail("x")).info().transport,
            TransportKind::Native,
            "no error claims a browser unless one sent the request"
        );
    }

    #[test]
    fn preset_help_and_error_messages_are_plain_text() {
        assert!(markdown("see `make serve`").is_some() && markdown("*really*").is_some());
        assert!(markdown("OLLAMA_ORIGINS=* and snake_case").is_none());
        for p in Preset::ALL {
            for (what, text) in [
                ("browser note", p.browser_note()),
                ("CORS advice", p.cors_advice()),
            ] {
                assert_eq!(markdown(text), None, "{} {what}: {text}", p.id());
            }
            for transport in [TransportKind::Browser, TransportKind::Native] {
                let e = ChatError::Network(ErrorInfo::no_response("/proxy/x", transport, "x"));
                let m = e.message(p);
                assert_eq!(markdown(&m), None, "{}: {m}", p.id());
            }
        }
    }

    #[test]
    fn a_network_error_from_a_browser_says_cors_and_what_to_do_for_the_preset() {
        let e = ChatError::Network(ErrorInfo::no_response(
            URL,
            TransportKind::Browser,
            "TypeError: Failed to fetch",
        ));
        for p in Preset::ALL {
            let m = e.message(p);
            assert!(m.contains("CORS"), "{}: names CORS: {m}", p.id());
            assert!(
                m.contains(&format!(
                    "No answer from {URL}: the browser does not say why"
                )),
                "{}: says the browser hides the reason: {m}",
                p.id()
            );
            assert!(
                m.contains(p.cors_advice()),
                "{}: gives the preset's advice",
                p.id()
            );
            assert!(
                m.contains("Failed to fetch"),
                "{}: keeps the browser's words",
                p.id()
            );
        }
        assert!(Preset::Ollama.cors_advice().contains("OLLAMA_ORIGINS"));
        assert!(Preset::LmStudio.cors_advice().contains("Enable CORS"));
        assert!(Preset::DashScopeUs.cors_advice().contains("make serve"));
    }

    #[test]
    fn a_timeout_message_names_the_limit() {
        let s = EndpointSettings {
            max_attempts: 1,
            timeout_ms: 30_000,
            ..fast_settings()
        };
        let t = ScriptedTransport::new(vec![Scripted::Fail(TransportError::Timeout)]);
        let (r, _) = run(&t, &s);
        let m = r.expect_err("times out").message(Preset::Ollama);
        assert!(m.contains("within 30 s"), "{m}");
    }
}
