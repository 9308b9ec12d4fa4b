//! The OpenAI-compatible chat-completions client, as pure logic: endpoint presets and
//! settings, the request body and headers, reply parsing (whole and streamed as
//! server-sent events), one error type for the HTTP/API boundary with messages a person
//! can act on, the retry policy with its server hints, and [`complete`], the whole call
//! with retries.
//!
//! Nothing here touches the network, the clock or randomness: they come in through the
//! [`Transport`] trait. The browser implements it with `fetch` (`crate::app`), and
//! [`ScriptedTransport`] plays canned answers for native tests.

use super::text::{format_decimal, parse_decimal};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::fmt;
use std::future::Future;

/// Longest server message kept in an error, in characters.
pub const MAX_DETAIL_CHARS: usize = 300;

// ---------------------------------------------------------------------------------------
// Presets
// ---------------------------------------------------------------------------------------

/// A known kind of OpenAI-compatible endpoint, with its usual base URL and how to reach it
/// from a web page.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum Preset {
    /// Alibaba DashScope, international region (Singapore), through `make serve`'s proxy.
    #[default]
    #[serde(rename = "dashscope-intl")]
    DashScopeIntl,
    /// Alibaba DashScope, China region (Beijing), through `make serve`'s proxy.
    #[serde(rename = "dashscope-cn")]
    DashScopeCn,
    /// Alibaba DashScope, US region (Virginia), through `make serve`'s proxy.
    #[serde(rename = "dashscope-us")]
    DashScopeUs,
    /// OpenRouter.
    #[serde(rename = "openrouter")]
    OpenRouter,
    /// OpenAI.
    #[serde(rename = "openai")]
    OpenAi,
    /// A local Ollama server.
    #[serde(rename = "ollama")]
    Ollama,
    /// A local vLLM server.
    #[serde(rename = "vllm")]
    Vllm,
    /// A local llama.cpp server (`llama-server`).
    #[serde(rename = "llamacpp")]
    LlamaCpp,
    /// A local LM Studio server.
    #[serde(rename = "lmstudio")]
    LmStudio,
    /// The upstreams of the `shapemaze serve` that serves this page: its proxy adds the
    /// key on the server, so the page never holds one.
    #[serde(rename = "this-server")]
    ThisServer,
    /// Any other OpenAI-compatible endpoint.
    #[serde(rename = "custom")]
    Custom,
}

impl Preset {
    /// Every preset, in the order a settings form lists them.
    pub const ALL: [Preset; 11] = [
        Preset::DashScopeIntl,
        Preset::DashScopeCn,
        Preset::DashScopeUs,
        Preset::OpenRouter,
        Preset::OpenAi,
        Preset::Ollama,
        Preset::Vllm,
        Preset::LlamaCpp,
        Preset::LmStudio,
        Preset::ThisServer,
        Preset::Custom,
    ];

    /// The stable id used in URLs, forms and records (`dashscope-intl`, `ollama`, ...).
    pub fn id(self) -> &'static str {
        match self {
            Preset::DashScopeIntl => "dashscope-intl",
            Preset::DashScopeCn => "dashscope-cn",
            Preset::DashScopeUs => "dashscope-us",
            Preset::OpenRouter => "openrouter",
            Preset::OpenAi => "openai",
            Preset::Ollama => "ollama",
            Preset::Vllm => "vllm",
            Preset::LlamaCpp => "llamacpp",
            Preset::LmStudio => "lmstudio",
            Preset::ThisServer => "this-server",
            Preset::Custom => "custom",
        }
    }

    /// A label for people.
    pub fn label(self) -> &'static str {
        match self {
            Preset::DashScopeIntl => "DashScope international",
            Preset::DashScopeCn => "DashScope China",
            Preset::DashScopeUs => "DashScope US",
            Preset::OpenRouter => "OpenRouter",
            Preset::OpenAi => "OpenAI",
            Preset::Ollama => "Ollama",
            Preset::Vllm => "vLLM",
            Preset::LlamaCpp => "llama.cpp server",
            Preset::LmStudio => "LM Studio",
            Preset::ThisServer => "this server (shapemaze serve)",
            Preset::Custom => "custom endpoint",
        }
    }

    /// Parses a preset id in any case (`_` and spaces are read as `-`, and `llama.cpp`,
    /// `lm-studio` are accepted).
    pub fn parse(s: &str) -> Result<Preset, String> {
        let t = s.trim().to_ascii_lowercase().replace(['_', ' '], "-");
        let t = match t.as_str() {
            "llama.cpp" | "llama-cpp" => "llamacpp",
            "lm-studio" => "lmstudio",
            other => other,
        };
        Preset::ALL
            .into_iter()
            .find(|p| p.id() == t)
            .ok_or_else(|| {
                let ids: Vec<&str> = Preset::ALL.iter().map(|p| p.id()).collect();
                format!(
                    "unknown endpoint preset '{}': choose one of {}",
                    s.trim(),
                    ids.join(", ")
                )
            })
    }

    /// True for the three DashScope regions.
    pub fn is_dashscope(self) -> bool {
        matches!(
            self,
            Preset::DashScopeIntl | Preset::DashScopeCn | Preset::DashScopeUs
        )
    }

    /// The base URL a new setting starts from (empty for [`Preset::Custom`]). DashScope
    /// presets use same-origin paths that `make serve` (trunk's proxy) forwards to the
    /// region's compatible-mode endpoint.
    pub fn default_base_url(self) -> &'static str {
        match self {
            Preset::DashScopeIntl => "/proxy/dashscope-intl",
            Preset::DashScopeCn => "/proxy/dashscope-cn",
            Preset::DashScopeUs => "/proxy/dashscope-us",
            Preset::OpenRouter => "https://openrouter.ai/api/v1",
            Preset::OpenAi => "https://api.openai.com/v1",
            Preset::Ollama => "http://localhost:11434/v1",
            Preset::Vllm => "http://localhost:8000/v1",
            Preset::LlamaCpp => "http://localhost:8080/v1",
            Preset::LmStudio => "http://localhost:1234/v1",
            Preset::ThisServer => "/proxy/dashscope",
            Preset::Custom => "",
        }
    }

    /// The real endpoint behind a DashScope proxy path (None for other presets).
    pub fn upstream_url(self) -> Option<&'static str> {
        match self {
            Preset::DashScopeIntl => Some("https://dashscope-intl.aliyuncs.com/compatible-mode/v1"),
            Preset::DashScopeCn => Some("https://dashscope.aliyuncs.com/compatible-mode/v1"),
            Preset::DashScopeUs => Some("https://dashscope-us.aliyuncs.com/compatible-mode/v1"),
            _ => None,
        }
    }

    /// A model name that this kind of endpoint serves, shown as an example.
    pub fn example_model(self) -> &'static str {
        match self {
            Preset::DashScopeIntl | Preset::DashScopeCn | Preset::DashScopeUs => "qwen-plus",
            Preset::OpenRouter => "qwen/qwen-2.5-72b-instruct",
            Preset::OpenAi => "gpt-4o-mini",
            Preset::Ollama => "qwen2.5:7b",
            Preset::Vllm => "Qwen/Qwen2.5-7B-Instruct",
            Preset::LlamaCpp => "qwen2.5-7b-instruct",
            Preset::LmStudio => "qwen2.5-7b-instruct",
            Preset::ThisServer => "qwen-plus",
            Preset::Custom => "",
        }
    }

    /// True when the endpoint normally requires an API key (local servers do not).
    pub fn needs_key(self) -> bool {
        match self {
            Preset::DashScopeIntl
            | Preset::DashScopeCn
            | Preset::DashScopeUs
            | Preset::OpenRouter
            | Preset::OpenAi => true,
            Preset::Ollama
            | Preset::Vllm
            | Preset::LlamaCpp
            | Preset::LmStudio
            | Preset::ThisServer
            | Preset::Custom => false,
        }
    }

    /// One sentence: whether a page served from anywhere can call this endpoint, and how
    /// to enable browser access.
    pub fn browser_note(self) -> &'static str {
        match self {
            Preset::DashScopeIntl | Preset::DashScopeCn | Preset::DashScopeUs => {
                "DashScope refuses requests from web pages, so it works only through a same-origin proxy, such as the one make serve starts or shapemaze serve --upstream dashscope-intl=URL (keep the preset's /proxy/... base URL)."
            }
            Preset::OpenRouter => "OpenRouter answers web pages served from anywhere; only an API key is needed.",
            Preset::OpenAi => "OpenAI answers web pages served from anywhere; only an API key is needed.",
            Preset::Ollama => {
                "Ollama answers pages on localhost by default; for a page served from elsewhere start it with OLLAMA_ORIGINS set to that origin (or to *)."
            }
            Preset::Vllm => "vLLM's server allows all origins by default, so it works from a page served anywhere (unless started with a narrower --allowed-origins).",
            Preset::LlamaCpp => "llama.cpp's server allows all origins by default, so it works from a page served anywhere.",
            Preset::LmStudio => "LM Studio refuses web pages until you turn on 'Enable CORS' in its Developer tab (server settings).",
            Preset::ThisServer => "For a page served by shapemaze serve: its proxy adds the key on the server, so leave the key empty; the base URL is /proxy/NAME for the upstream NAME it was started with (GET /proxy lists them).",
            Preset::Custom => "Works from a page only if the server sends Access-Control-Allow-Origin for the page's origin (and allows the Authorization and Content-Type headers), or through a same-origin proxy.",
        }
    }

    /// What to do when a page's request to this endpoint fails without an answer, which is
    /// how a browser reports a CORS refusal; used in [`ChatError::message`] for the
    /// browser's transport only (CORS does not apply to a native program).
    pub fn cors_advice(self) -> &'static str {
        match self {
            Preset::DashScopeIntl | Preset::DashScopeCn | Preset::DashScopeUs => {
                "DashScope cannot be called from a web page directly: serve the app with make serve, whose proxy forwards /proxy/dashscope-... to DashScope, and keep the preset's /proxy/... base URL."
            }
            Preset::OpenRouter | Preset::OpenAi => {
                "This endpoint normally answers web pages, so check the network connection, the base URL, and that no browser extension blocks the request."
            }
            Preset::Ollama => {
                "Check that Ollama is running (ollama serve, port 11434) and, unless this page is on localhost, restart it with OLLAMA_ORIGINS set to this page's origin (or to *)."
            }
            Preset::Vllm => {
                "Check that the vLLM server is running on that address and port; it allows all origins unless started with a narrower --allowed-origins."
            }
            Preset::LlamaCpp => {
                "Check that llama-server is running on that address and port; it allows all origins by default."
            }
            Preset::LmStudio => {
                "In LM Studio's Developer tab, start the server (port 1234) and turn on 'Enable CORS'."
            }
            Preset::ThisServer => {
                "Check that this page is served by shapemaze serve and that it has an upstream of that name (GET /proxy lists them)."
            }
            Preset::Custom => {
                "The server must send Access-Control-Allow-Origin for this page's origin and allow the Authorization and Content-Type headers, or be reached through a same-origin proxy."
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// Settings
// ---------------------------------------------------------------------------------------

/// Everything about an endpoint and its sampling that goes into a record. The API key is
/// deliberately not a field: it is passed to [`complete`] separately so that it can never
/// be serialized into a record.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct EndpointSettings {
    /// The kind of endpoint (chooses advice, DashScope's `enable_thinking`).
    pub preset: Preset,
    /// The base URL, ending before `/chat/completions` (e.g. `https://api.openai.com/v1`,
    /// or a same-origin path such as `/proxy/dashscope-intl`).
    pub base_url: String,
    /// The model name sent as `model`.
    pub model: String,
    /// Sampling temperature, 0 to 2 (default 0.7).
    pub temperature: f64,
    /// Nucleus sampling mass, above 0 and at most 1 (default 0.9).
    pub top_p: f64,
    /// Most tokens the model may produce (default 2000).
    pub max_tokens: u32,
    /// A sampling seed, sent only when set.
    pub seed: Option<u64>,
    /// How long one attempt may take, in milliseconds (default 120 000).
    pub timeout_ms: u64,
    /// Ask for a streamed reply (server-sent events). Forced on by `thinking`. Off by
    /// default ([`DEFAULT_STREAM`]).
    pub stream: bool,
    /// Ask for the chosen tokens' log-probabilities.
    pub logprobs: bool,
    /// Let the model think before answering (DashScope's `enable_thinking`).
    pub thinking: bool,
    /// A JSON object whose keys are merged over the request body (empty for none).
    pub extra: String,
    /// Most attempts for one call, the first included (default 6).
    pub max_attempts: u32,
    /// Most total time spent waiting between attempts, in milliseconds (default 300 000).
    pub max_wait_ms: u64,
}

impl Default for EndpointSettings {
    fn default() -> Self {
        EndpointSettings::for_preset(Preset::default())
    }
}

/// Whether a new endpoint setting streams its replies: off, on /model and in an experiment
/// design alike (the design's runs did not stream).
pub const DEFAULT_STREAM: bool = false;

/// Bounds checked by [`EndpointSettings::validate`].
const MAX_TOKENS_LIMIT: u32 = 1_000_000;
const TIMEOUT_MIN_MS: u64 = 1_000;
const TIMEOUT_MAX_MS: u64 = 3_600_000;
const MAX_ATTEMPTS_LIMIT: u32 = 20;
const MAX_WAIT_LIMIT_MS: u64 = 3_600_000;

impl EndpointSettings {
    /// Settings for a preset: its default base URL and example model, default sampling.
    pub fn for_preset(preset: Preset) -> Self {
        EndpointSettings {
            preset,
            base_url: preset.default_base_url().to_string(),
            model: preset.example_model().to_string(),
            temperature: 0.7,
            top_p: 0.9,
            max_tokens: 2000,
            seed: None,
            timeout_ms: 120_000,
            stream: DEFAULT_STREAM,
            logprobs: false,
            thinking: false,
            extra: String::new(),
            max_attempts: 6,
            max_wait_ms: 300_000,
        }
    }

    /// Checks the settings, saying what to change when something is wrong.
    pub fn validate(&self) -> Result<(), String> {
        let base = self.base_url.trim();
        if base.is_empty() {
            return Err(format!(
                "Enter the endpoint's base URL (for example {}).",
                example_base(self.preset)
            ));
        }
        if !(base.starts_with("http://") || base.starts_with("https://") || base.starts_with('/')) {
            return Err(format!(
                "The base URL '{base}' must start with http://, https:// or / (for example {}).",
                example_base(self.preset)
            ));
        }
        if base.trim_end_matches('/').ends_with("/chat/completions") {
            return Err(format!(
                "The base URL should stop before /chat/completions, which is added to it: use '{}'.",
                base.trim_end_matches('/').trim_end_matches("/chat/completions")
            ));
        }
        if self.model.trim().is_empty() {
            let example = self.preset.example_model();
            return Err(if example.is_empty() {
                "Enter the model name the endpoint serves.".to_string()
            } else {
                format!("Enter the model name (for example {example}).")
            });
        }
        if !(self.temperature.is_finite() && (0.0..=2.0).contains(&self.temperature)) {
            return Err(format!(
                "Temperature must be from 0 to 2, not {}.",
                format_decimal(self.temperature, 3)
            ));
        }
        if !(self.top_p.is_finite() && self.top_p > 0.0 && self.top_p <= 1.0) {
            return Err(format!(
                "Top-p must be above 0 and at most 1, not {}.",
                format_decimal(self.top_p, 3)
            ));
        }
        if self.max_tokens == 0 || self.max_tokens > MAX_TOKENS_LIMIT {
            return Err(format!(
                "Max tokens must be from 1 to {MAX_TOKENS_LIMIT}, not {}.",
                self.max_tokens
            ));
        }
        if !(TIMEOUT_MIN_MS..=TIMEOUT_MAX_MS).contains(&self.timeout_ms) {
            return Err(format!(
                "The timeout must be from {} s to {} s, not {} ms.",
                TIMEOUT_MIN_MS / 1000,
                TIMEOUT_MAX_MS / 1000,
                self.timeout_ms
            ));
        }
        if self.max_attempts == 0 || self.max_attempts > MAX_ATTEMPTS_LIMIT {
            return Err(format!(
                "Max attempts must be from 1 to {MAX_ATTEMPTS_LIMIT}, not {}.",
                self.max_attempts
            ));
        }
        if self.max_wait_ms > MAX_WAIT_LIMIT_MS {
            return Err(format!(
                "The total wait between attempts must be at most {} s, not {} ms.",
                MAX_WAIT_LIMIT_MS / 1000,
                self.max_wait_ms
            ));
        }
        extra_object(&self.extra)?;
        Ok(())
    }
}

fn example_base(preset: Preset) -> &'static str {
    match preset.default_base_url() {
        "" => "http://localhost:8000/v1",
        url => url,
    }
}

/// Parses the `extra` setting: empty means no extra keys; otherwise a JSON object.
fn extra_object(extra: &str) -> Result<Map<String, Value>, String> {
    if extra.trim().is_empty() {
        return Ok(Map::new());
    }
    match serde_json::from_str::<Value>(extra) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(_) => Err(
            "Extra parameters must be a JSON object, like {\"top_k\": 20}, or left empty."
                .to_string(),
        ),
        Err(e) => Err(format!(
            "Extra parameters are not valid JSON ({e}); write an object like {{\"top_k\": 20}}, or leave them empty."
        )),
    }
}

// ---------------------------------------------------------------------------------------
// Request
// ---------------------------------------------------------------------------------------

/// One message of a conversation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChatMessage {
    /// `system`, `user` or `assistant`.
    pub role: String,
    /// The text.
    pub content: String,
}

impl ChatMessage {
    /// A system message.
    pub fn system(content: impl Into<String>) -> Self {
        ChatMessage {
            role: "system".to_string(),
            content: content.into(),
        }
    }

    /// A user message.
    pub fn user(content: impl Into<String>) -> Self {
        ChatMessage {
            role: "user".to_string(),
            content: content.into(),
        }
    }

    /// An assistant message (an earlier reply of the model).
    pub fn assistant(content: impl Into<String>) -> Self {
        ChatMessage {
            role: "assistant".to_string(),
            content: content.into(),
        }
    }
}

/// Whether the call is streamed: when asked, and always when thinking is on (Qwen3 on
/// DashScope refuses thinking in non-streaming calls).
pub fn effective_stream(settings: &EndpointSettings) -> bool {
    settings.stream || settings.thinking
}

/// The JSON body of a chat-completions request. The `extra` object's keys are merged
/// last, so they win over every key set here.
pub fn request_body(
    settings: &EndpointSettings,
    messages: &[ChatMessage],
) -> Result<String, ChatError> {
    let extra = extra_object(&settings.extra).map_err(ChatError::invalid_settings)?;
    let mut body = Map::new();
    body.insert("model".into(), Value::from(settings.model.trim()));
    body.insert(
        "messages".into(),
        serde_json::to_value(messages).map_err(|e| ChatError::invalid_settings(e.to_string()))?,
    );
    body.insert("temperature".into(), Value::from(settings.temperature));
    body.insert("top_p".into(), Value::from(settings.top_p));
    body.insert("max_tokens".into(), Value::from(settings.max_tokens));
    if let Some(seed) = settings.seed {
        body.insert("seed".into(), Value::from(seed));
    }
    let stream = effective_stream(settings);
    body.insert("stream".into(), Value::from(stream));
    if stream {
        let mut opts = Map::new();
        opts.insert("include_usage".into(), Value::from(true));
        body.insert("stream_options".into(), Value::Object(opts));
    }
    if settings.logprobs {
        body.insert("logprobs".into(), Value::from(true));
    }
    if settings.preset.is_dashscope() {
        body.insert("enable_thinking".into(), Value::from(settings.thinking));
    }
    for (k, v) in extra {
        body.insert(k, v);
    }
    serde_json::to_string(&Value::Object(body))
        .map_err(|e| ChatError::invalid_settings(e.to_string()))
}

/// The request headers: `Content-Type: application/json` and, when the key is not empty,
/// `Authorization: Bearer KEY`. Nothing else: OpenRouter's CORS preflight refuses other
/// headers.
pub fn request_headers(api_key: &str) -> Vec<(String, String)> {
    let mut headers = vec![("Content-Type".to_string(), "application/json".to_string())];
    let key = api_key.trim();
    if !key.is_empty() {
        headers.push(("Authorization".to_string(), format!("Bearer {key}")));
    }
    headers
}

/// The chat-completions URL of a base URL: `{base without trailing /}/chat/completions`.
pub fn chat_url(base: &str) -> String {
    format!("{}/chat/completions", base.trim().trim_end_matches('/'))
}

// ---------------------------------------------------------------------------------------
// Reply
// ---------------------------------------------------------------------------------------

pub use super::record::{EmptyReason, TokenLogprob};

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
}

impl ChatReply {
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
    let mut reply = ChatReply {
        content,
        reasoning,
        finish_reason,
        logprobs: read_logprobs(choice),
        ..ChatReply::default()
    };
    read_usage(&v, &mut reply);
    Ok(reply)
}

fn str_field(v: &Value, key: &str) -> Option<String> {
    v.get(key).and_then(Value::as_str).map(str::to_string)
}

fn read_usage(v: &Value, reply: &mut ChatReply) {
    if let Some(usage) = v.get("usage").filter(|u| u.is_object()) {
        reply.prompt_tokens = usage.get("prompt_tokens").and_then(Value::as_u64);
        reply.completion_tokens = usage.get("completion_tokens").and_then(Value::as_u64);
        reply.total_tokens = usage.get("total_tokens").and_then(Value::as_u64);
    }
}

fn read_logprobs(choice: &Value) -> Option<Vec<TokenLogprob>> {
    let entries = choice
        .get("logprobs")
        .and_then(|l| l.get("content"))
        .and_then(Value::as_array)?;
    let tokens: Vec<TokenLogprob> = entries
        .iter()
        .filter_map(|e| {
            Some(TokenLogprob {
                token: e.get("token")?.as_str()?.to_string(),
                logprob: e.get("logprob")?.as_f64()?,
            })
        })
        .collect();
    (!tokens.is_empty()).then_some(tokens)
}

/// An `error` object (or string) in a body that otherwise looks like a reply. A numeric
/// code that is an HTTP error status is read as that status (OpenRouter reports upstream
/// rate limits this way); anything else is [`ChatError::Upstream`].
fn error_object(v: &Value) -> Option<ChatError> {
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

fn malformed(body: &str, e: &serde_json::Error) -> ChatError {
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
fn missing_content(finish_reason: Option<&str>) -> ChatError {
    let mut detail = String::from("the reply's choice holds no message");
    if let Some(f) = finish_reason {
        detail.push_str(&format!(" (finish reason: {f})"));
    }
    ChatError::MissingContent(ErrorInfo::detail(detail))
}

// ---------------------------------------------------------------------------------------
// Streaming
// ---------------------------------------------------------------------------------------

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
        if let Some(f) = choice.get("finish_reason").and_then(Value::as_str) {
            self.reply.finish_reason = Some(f.to_string());
        }
        if let Some(mut tokens) = read_logprobs(choice) {
            self.logprobs.append(&mut tokens);
        }
        Ok(delta)
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
        reply.reasoning = (!self.reasoning.is_empty()).then_some(self.reasoning);
        reply.logprobs = (!self.logprobs.is_empty()).then_some(self.logprobs);
        reply.streamed = true;
        Ok(reply)
    }
}

fn read_usage_if_present(v: &Value, reply: &mut ChatReply) {
    if v.get("usage").is_some_and(Value::is_object) {
        read_usage(v, reply);
    }
}

// ---------------------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------------------

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
        match self {
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
    }

    fn info_mut(&mut self) -> &mut ErrorInfo {
        match self {
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
fn classify(status: u16, message: &str) -> ChatError {
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
fn truncate(s: &str) -> String {
    match s.char_indices().nth(MAX_DETAIL_CHARS) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_string(),
    }
}

// ---------------------------------------------------------------------------------------
// Retries
// ---------------------------------------------------------------------------------------

/// When to try again and how long to wait first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RetryPolicy {
    /// Most attempts, the first included.
    pub max_attempts: u32,
    /// The first back-off, in milliseconds (default 1000); it doubles per attempt.
    pub base_ms: u64,
    /// The longest single wait, in milliseconds (default 60 000), server hints included.
    pub max_delay_ms: u64,
    /// The most total waiting for one call, in milliseconds; a retry whose wait would pass
    /// it is not made.
    pub max_wait_ms: u64,
}

impl RetryPolicy {
    /// The policy of some settings (their attempts and total wait, default back-off).
    pub fn from_settings(settings: &EndpointSettings) -> Self {
        RetryPolicy {
            max_attempts: settings.max_attempts,
            base_ms: 1000,
            max_delay_ms: 60_000,
            max_wait_ms: settings.max_wait_ms,
        }
    }

    /// The wait before the attempt after `attempt` (1-based) failed. A server hint wins
    /// when present; otherwise exponential back-off `base · 2^(attempt-1)`, capped, with
    /// "equal jitter": half of it fixed and half scaled by `jitter` (uniform in [0, 1)),
    /// so waits never collapse to zero yet concurrent clients spread out. Both are capped
    /// at `max_delay_ms`.
    pub fn delay_ms(&self, attempt: u32, hint: Option<u64>, jitter: f64) -> u64 {
        if let Some(h) = hint {
            return h.min(self.max_delay_ms);
        }
        let doublings = attempt.saturating_sub(1).min(40);
        let exp = self
            .base_ms
            .saturating_mul(1u64 << doublings)
            .min(self.max_delay_ms);
        let j = if jitter.is_finite() {
            jitter.clamp(0.0, 1.0)
        } else {
            0.0
        };
        let half = exp / 2;
        half + ((exp - half) as f64 * j).round() as u64
    }
}

/// Reads a `Retry-After` value: seconds (`8`, `1.5`) or an HTTP date
/// (`Wed, 21 Oct 2015 07:28:00 GMT`), as milliseconds from `now_ms` (Unix epoch
/// milliseconds); a date in the past gives 0.
pub fn parse_retry_after(value: &str, now_ms: f64) -> Option<u64> {
    let v = value.trim();
    if let Some(secs) = parse_decimal(v) {
        return Some((secs * 1000.0).round() as u64);
    }
    let at = parse_http_date_ms(v)?;
    let wait = at - now_ms;
    Some(if wait > 0.0 { wait.round() as u64 } else { 0 })
}

/// Milliseconds since the Unix epoch of an IMF-fixdate (`Wed, 21 Oct 2015 07:28:00 GMT`;
/// the weekday is optional and not checked).
fn parse_http_date_ms(v: &str) -> Option<f64> {
    let mut parts: Vec<&str> = v.split_whitespace().collect();
    if parts.first().is_some_and(|p| p.ends_with(',')) {
        parts.remove(0);
    }
    if let Some(zone) = parts.last() {
        if zone.eq_ignore_ascii_case("GMT") || zone.eq_ignore_ascii_case("UTC") {
            parts.pop();
        }
    }
    let [day, month, year, time] = parts.as_slice() else {
        return None;
    };
    let day: u32 = day.parse().ok()?;
    const MONTHS: [&str; 12] = [
        "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
    ];
    let month = MONTHS
        .iter()
        .position(|m| m.eq_ignore_ascii_case(month))
        .map(|i| i as u32 + 1)?;
    let year: i64 = year.parse().ok()?;
    let mut hms = time.split(':').map(|x| x.parse::<u32>().ok());
    let (h, m, s) = (hms.next()??, hms.next()??, hms.next()??);
    if hms.next().is_some() || !(1..=31).contains(&day) || h > 23 || m > 59 || s > 60 {
        return None;
    }
    let days = days_from_civil(year, month, day);
    let secs = days * 86_400 + i64::from(h * 3600 + m * 60 + s);
    Some(secs as f64 * 1000.0)
}

/// Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's algorithm).
fn days_from_civil(year: i64, month: u32, day: u32) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = if y >= 0 { y } else { y - 399 } / 400;
    let yoe = y - era * 400;
    let m = i64::from(month);
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(day) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// Reads an `x-ratelimit-reset-requests` / `x-ratelimit-reset-tokens` value as
/// milliseconds: Go-style durations (`1s`, `6m0s`, `250ms`, `0.5s`, `1h2m`) or a bare
/// number of seconds (`2`).
pub fn parse_reset(value: &str) -> Option<u64> {
    let v = value.trim();
    if v.is_empty() {
        return None;
    }
    if let Some(secs) = parse_decimal(v) {
        return Some((secs * 1000.0).round() as u64);
    }
    let mut total = 0.0;
    let mut rest = v;
    while !rest.is_empty() {
        let num_end = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(rest.len());
        let number = parse_decimal(&rest[..num_end])?;
        rest = &rest[num_end..];
        let unit_end = rest
            .find(|c: char| !c.is_ascii_alphabetic())
            .unwrap_or(rest.len());
        let scale = match &rest[..unit_end] {
            "h" => 3_600_000.0,
            "m" => 60_000.0,
            "s" => 1000.0,
            "ms" => 1.0,
            "us" | "µs" => 0.001,
            _ => return None,
        };
        rest = &rest[unit_end..];
        total += number * scale;
    }
    Some(total.round() as u64)
}

/// The server's hint of how long to wait, from `Retry-After`, `retry-after-ms`,
/// `x-ratelimit-reset-requests` and `x-ratelimit-reset-tokens` (names in any case): the
/// longest of those present, in milliseconds. `now_ms` (Unix epoch milliseconds) dates a
/// `Retry-After` given as an HTTP date.
pub fn retry_hint(headers: &[(String, String)], now_ms: f64) -> Option<u64> {
    headers
        .iter()
        .filter_map(|(name, value)| match name.to_ascii_lowercase().as_str() {
            "retry-after" => parse_retry_after(value, now_ms),
            "retry-after-ms" => parse_decimal(value).map(|ms| ms.round() as u64),
            "x-ratelimit-reset-requests" | "x-ratelimit-reset-tokens" => parse_reset(value),
            _ => None,
        })
        .max()
}

/// The `Retry-After` hint alone (used for 5xx, where rate-limit reset headers say nothing
/// about when the server recovers).
fn retry_after_only(headers: &[(String, String)], now_ms: f64) -> Option<u64> {
    headers
        .iter()
        .filter(|(name, _)| name.eq_ignore_ascii_case("retry-after"))
        .filter_map(|(_, value)| parse_retry_after(value, now_ms))
        .max()
}

/// Told to the page before waiting to try again.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RetryNotice {
    /// The HTTP status that failed, when the endpoint answered with one.
    pub status: Option<u16>,
    /// What failed, for people: the status (`429`), `network error` or `timeout`.
    pub status_label: String,
    /// The likely cause in words when the label says too little (a request without a
    /// response: [`ChatError::retry_cause`]).
    pub cause: Option<String>,
    /// The attempt that failed (1-based).
    pub attempt: u32,
    /// Most attempts.
    pub of: u32,
    /// The wait before the next attempt, in milliseconds.
    pub delay_ms: u64,
}

/// `No answer from URL: ... (CORS). Retrying (attempt 2 of 6) in 1 s…`, or with only a
/// label, `429. Retrying (attempt 3 of 6) in 8 s…`.
impl fmt::Display for RetryNotice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.cause {
            Some(cause) => write!(f, "{cause}.")?,
            None => {
                let mut label = self.status_label.chars();
                if let Some(first) = label.next() {
                    write!(f, "{}{}.", first.to_uppercase(), label.as_str())?;
                }
            }
        }
        write!(
            f,
            " Retrying (attempt {} of {}) in {}…",
            self.attempt + 1,
            self.of,
            format_wait(self.delay_ms)
        )
    }
}

/// `8 s`, `1.5 s`, `250 ms`.
fn format_wait(ms: u64) -> String {
    if ms < 1000 {
        format!("{ms} ms")
    } else if ms >= 10_000 || ms % 1000 < 50 || ms % 1000 >= 950 {
        format!("{} s", (ms + 500) / 1000)
    } else {
        let tenths = (ms + 50) / 100;
        format!("{}.{} s", tenths / 10, tenths % 10)
    }
}

// ---------------------------------------------------------------------------------------
// Transport and the whole call
// ---------------------------------------------------------------------------------------

/// A POST to make.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HttpRequest {
    /// The full URL.
    pub url: String,
    /// Header names and values.
    pub headers: Vec<(String, String)>,
    /// The JSON body.
    pub body: String,
    /// How long the attempt may take, in milliseconds.
    pub timeout_ms: u64,
}

/// A response, whatever its status.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HttpResponse {
    /// The HTTP status.
    pub status: u16,
    /// Header names and values (those the browser exposes).
    pub headers: Vec<(String, String)>,
    /// The whole body.
    pub body: String,
}

/// Who sends a transport's requests, which decides what a failure without a response can
/// mean and what to advise.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TransportKind {
    /// A web page's `fetch`: a server that is down and one that refuses the page's origin
    /// (CORS) fail alike, and the browser does not say which.
    Browser,
    /// A native program (the command line): its errors say what failed, and CORS does not
    /// apply. The default, so that no error claims a browser unless one sent the request.
    #[default]
    Native,
}

impl TransportKind {
    /// The kind of this build's transports: the browser's in the web app (wasm), native
    /// everywhere else. [`Transport::kind`] defaults to it.
    pub const OF_BUILD: TransportKind = if cfg!(target_arch = "wasm32") {
        TransportKind::Browser
    } else {
        TransportKind::Native
    };
}

/// Why a request got no response.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TransportError {
    /// The request failed (in a browser, CORS refusals look like this), with the message.
    Network(String),
    /// The time limit passed.
    Timeout,
    /// The person stopped the request.
    Aborted,
}

/// What the client needs from the outside world: HTTP, a clock, waiting and randomness.
pub trait Transport {
    /// POSTs the request; while a 2xx body streams in, hands each text chunk to on_chunk
    /// (and still returns the whole body).
    fn post(
        &self,
        req: &HttpRequest,
        on_chunk: &mut dyn FnMut(&str),
    ) -> impl Future<Output = Result<HttpResponse, TransportError>>;
    /// Waits `ms` milliseconds.
    fn sleep(&self, ms: u64) -> impl Future<Output = ()>;
    /// The current time in milliseconds since the Unix epoch.
    fn now_ms(&self) -> f64;
    /// A random number, uniform in [0, 1).
    fn jitter(&self) -> f64;
    /// Who sends the requests. By default the build's kind ([`TransportKind::OF_BUILD`]):
    /// the web app's `fetch` transport is the browser's, the command line's is native.
    fn kind(&self) -> TransportKind {
        TransportKind::OF_BUILD
    }
}

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
    settings.validate().map_err(ChatError::invalid_settings)?;
    let req = HttpRequest {
        url: chat_url(&settings.base_url),
        headers: request_headers(api_key),
        body: request_body(settings, messages)?,
        timeout_ms: settings.timeout_ms,
    };
    let policy = RetryPolicy::from_settings(settings);
    let stream = effective_stream(settings);
    let mut waited: u64 = 0;
    let mut attempt: u32 = 0;
    loop {
        attempt += 1;
        on_event(ChatEvent::Attempt(attempt));
        let started = t.now_ms();
        let (result, hint) = attempt_once(t, &req, stream, &mut *on_event).await;
        let err = match result {
            Ok(mut reply) => {
                reply.latency_ms = (t.now_ms() - started).max(0.0);
                reply.attempts = attempt;
                return Ok(reply);
            }
            Err(e) => e.with_attempts(attempt),
        };
        if !err.retryable() || attempt >= policy.max_attempts {
            return Err(err);
        }
        let delay = policy.delay_ms(attempt, hint, t.jitter());
        if waited.saturating_add(delay) > policy.max_wait_ms {
            return Err(err);
        }
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

/// Runs a future to completion on the current thread. Meant for futures whose transport
/// completes without a real event loop (such as [`ScriptedTransport`] in native tests and
/// the command line); in the browser, spawn the future instead.
pub fn block_on<F: Future>(f: F) -> F::Output {
    use std::sync::Arc;
    use std::task::{Context, Poll, Wake, Waker};
    struct ThreadWaker(std::thread::Thread);
    impl Wake for ThreadWaker {
        fn wake(self: Arc<Self>) {
            self.0.unpark();
        }
    }
    let mut f = std::pin::pin!(f);
    let waker = Waker::from(Arc::new(ThreadWaker(std::thread::current())));
    let mut cx = Context::from_waker(&waker);
    loop {
        if let Poll::Ready(out) = f.as_mut().poll(&mut cx) {
            return out;
        }
        std::thread::park();
    }
}

// ---------------------------------------------------------------------------------------
// A scripted transport
// ---------------------------------------------------------------------------------------

/// One canned answer of a [`ScriptedTransport`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Scripted {
    /// A response; a 2xx body is handed to `on_chunk` in these chunks.
    Reply {
        /// The status.
        status: u16,
        /// The headers.
        headers: Vec<(String, String)>,
        /// The body, in the chunks it arrives in.
        chunks: Vec<String>,
    },
    /// No response.
    Fail(TransportError),
}

impl Scripted {
    /// A 200 response with this body, in one chunk.
    pub fn ok(body: impl Into<String>) -> Self {
        Scripted::status(200, body)
    }

    /// A response with this status and body, in one chunk.
    pub fn status(status: u16, body: impl Into<String>) -> Self {
        Scripted::Reply {
            status,
            headers: Vec::new(),
            chunks: vec![body.into()],
        }
    }

    /// A 200 response whose body arrives in these chunks.
    pub fn chunks(chunks: &[&str]) -> Self {
        Scripted::Reply {
            status: 200,
            headers: vec![("content-type".into(), "text/event-stream".into())],
            chunks: chunks.iter().map(|c| c.to_string()).collect(),
        }
    }

    /// A 200 response carrying a model's plain answer `content`, as an endpoint would
    /// send it without streaming.
    pub fn answer(content: &str) -> Self {
        let body = serde_json::json!({
            "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
        });
        Scripted::ok(body.to_string())
    }

    /// The same response with one more header.
    pub fn with_header(mut self, name: &str, value: &str) -> Self {
        if let Scripted::Reply { headers, .. } = &mut self {
            headers.push((name.to_string(), value.to_string()));
        }
        self
    }
}

/// A [`Transport`] that plays a script of canned answers, for tests and offline runs. Its
/// clock starts at `start_ms`, advances by `latency_ms` per request and by each sleep;
/// jitter is fixed. Once the script is used up, requests fail with a network error.
#[derive(Debug)]
pub struct ScriptedTransport {
    script: RefCell<VecDeque<Scripted>>,
    clock: Cell<f64>,
    /// Milliseconds each request takes on the fake clock.
    pub latency_ms: f64,
    /// The jitter returned, in [0, 1).
    pub jitter: f64,
    /// Who it plays: the build's kind unless set (tests set either).
    pub kind: TransportKind,
    requests: RefCell<Vec<HttpRequest>>,
    sleeps: RefCell<Vec<u64>>,
}

impl ScriptedTransport {
    /// A transport that will give these answers in order; the clock starts at
    /// 1 700 000 000 000 ms, requests take 250 ms and jitter is 0.5.
    pub fn new(script: Vec<Scripted>) -> Self {
        ScriptedTransport {
            script: RefCell::new(script.into()),
            clock: Cell::new(1_700_000_000_000.0),
            latency_ms: 250.0,
            jitter: 0.5,
            kind: TransportKind::OF_BUILD,
            requests: RefCell::new(Vec::new()),
            sleeps: RefCell::new(Vec::new()),
        }
    }

    /// Appends answers to the script.
    pub fn push(&self, answers: impl IntoIterator<Item = Scripted>) {
        self.script.borrow_mut().extend(answers);
    }

    /// The requests made so far.
    pub fn requests(&self) -> Vec<HttpRequest> {
        self.requests.borrow().clone()
    }

    /// The waits asked for so far, in milliseconds.
    pub fn sleeps(&self) -> Vec<u64> {
        self.sleeps.borrow().clone()
    }

    /// Answers not yet given.
    pub fn remaining(&self) -> usize {
        self.script.borrow().len()
    }
}

impl Transport for ScriptedTransport {
    async fn post(
        &self,
        req: &HttpRequest,
        on_chunk: &mut dyn FnMut(&str),
    ) -> Result<HttpResponse, TransportError> {
        self.requests.borrow_mut().push(req.clone());
        self.clock.set(self.clock.get() + self.latency_ms);
        let next = self.script.borrow_mut().pop_front();
        match next {
            None => Err(TransportError::Network(
                "the script has no more answers".to_string(),
            )),
            Some(Scripted::Fail(e)) => Err(e),
            Some(Scripted::Reply {
                status,
                headers,
                chunks,
            }) => {
                if (200..300).contains(&status) {
                    for c in &chunks {
                        on_chunk(c);
                    }
                }
                Ok(HttpResponse {
                    status,
                    headers,
                    body: chunks.concat(),
                })
            }
        }
    }

    async fn sleep(&self, ms: u64) {
        self.sleeps.borrow_mut().push(ms);
        self.clock.set(self.clock.get() + ms as f64);
    }

    fn now_ms(&self) -> f64 {
        self.clock.get()
    }

    fn jitter(&self) -> f64 {
        self.jitter
    }

    fn kind(&self) -> TransportKind {
        self.kind
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn user(text: &str) -> Vec<ChatMessage> {
        vec![ChatMessage::system("Be brief."), ChatMessage::user(text)]
    }

    fn body_json(settings: &EndpointSettings) -> Value {
        let body = request_body(settings, &user("Hi")).expect("the body builds");
        serde_json::from_str(&body).expect("the body is JSON")
    }

    fn run(
        t: &ScriptedTransport,
        settings: &EndpointSettings,
    ) -> (Result<ChatReply, ChatError>, Vec<String>) {
        let mut events = Vec::new();
        let result = block_on(complete(t, settings, "sk-test", &user("Hi"), &mut |e| {
            events.push(match e {
                ChatEvent::Attempt(n) => format!("attempt {n}"),
                ChatEvent::Retrying(n) => format!("retry: {n}"),
                ChatEvent::Delta { content, reasoning } => {
                    format!("delta c={content:?} r={reasoning:?}")
                }
            })
        }));
        (result, events)
    }

    fn fast_settings() -> EndpointSettings {
        EndpointSettings::for_preset(Preset::OpenAi)
    }

    const OK_BODY: &str = r#"{"id":"x","choices":[{"index":0,"message":{"role":"assistant","content":"Move: (1, 2)"},"finish_reason":"stop"}],"usage":{"prompt_tokens":12,"completion_tokens":5,"total_tokens":17}}"#;

    #[test]
    fn every_preset_id_parses_back_to_its_preset_and_has_a_note() {
        for p in Preset::ALL {
            assert_eq!(Preset::parse(p.id()), Ok(p), "id {} round-trips", p.id());
            assert_eq!(
                Preset::parse(&p.id().to_uppercase()),
                Ok(p),
                "upper-case {} parses",
                p.id()
            );
            assert!(!p.label().is_empty(), "{} has a label", p.id());
            assert!(
                p.browser_note().ends_with('.'),
                "{}'s browser note is a sentence",
                p.id()
            );
            assert!(!p.cors_advice().is_empty(), "{} has CORS advice", p.id());
            let json = serde_json::to_string(&p).expect("a preset serializes");
            assert_eq!(json, format!("\"{}\"", p.id()), "serde uses the id");
        }
        assert!(Preset::parse("nope").is_err(), "an unknown id is refused");
        assert_eq!(Preset::parse("llama.cpp"), Ok(Preset::LlamaCpp));
    }

    #[test]
    fn every_preset_but_custom_gives_valid_settings() {
        for p in Preset::ALL {
            let s = EndpointSettings::for_preset(p);
            if p == Preset::Custom {
                let err = s.validate().expect_err("custom starts without a base URL");
                assert!(
                    err.contains("base URL"),
                    "the message names the base URL: {err}"
                );
            } else {
                assert_eq!(s.validate(), Ok(()), "{} defaults validate", p.id());
            }
        }
    }

    #[test]
    fn dashscope_presets_go_through_the_same_origin_proxy() {
        for p in [
            Preset::DashScopeIntl,
            Preset::DashScopeCn,
            Preset::DashScopeUs,
        ] {
            assert!(
                p.default_base_url().starts_with("/proxy/dashscope-"),
                "{} uses the proxy path",
                p.id()
            );
            assert!(p.upstream_url().is_some(), "{} names its upstream", p.id());
            assert!(p.needs_key(), "{} needs a key", p.id());
        }
        assert_eq!(
            chat_url("/proxy/dashscope-intl/"),
            "/proxy/dashscope-intl/chat/completions"
        );
        assert_eq!(
            chat_url("https://api.openai.com/v1"),
            "https://api.openai.com/v1/chat/completions"
        );
    }

    #[test]
    fn validation_names_what_to_fix() {
        let base = fast_settings();
        let cases: Vec<(EndpointSettings, &str)> = vec![
            (
                EndpointSettings {
                    model: " ".into(),
                    ..base.clone()
                },
                "model name",
            ),
            (
                EndpointSettings {
                    base_url: "api.openai.com/v1".into(),
                    ..base.clone()
                },
                "http://",
            ),
            (
                EndpointSettings {
                    base_url: "https://x/v1/chat/completions".into(),
                    ..base.clone()
                },
                "stop before /chat/completions",
            ),
            (
                EndpointSettings {
                    extra: "[1]".into(),
                    ..base.clone()
                },
                "JSON object",
            ),
            (
                EndpointSettings {
                    extra: "{top_k: 2".into(),
                    ..base.clone()
                },
                "not valid JSON",
            ),
            (
                EndpointSettings {
                    temperature: 2.5,
                    ..base.clone()
                },
                "Temperature",
            ),
            (
                EndpointSettings {
                    top_p: 0.0,
                    ..base.clone()
                },
                "Top-p",
            ),
            (
                EndpointSettings {
                    max_tokens: 0,
                    ..base.clone()
                },
                "Max tokens",
            ),
            (
                EndpointSettings {
                    timeout_ms: 10,
                    ..base.clone()
                },
                "timeout",
            ),
            (
                EndpointSettings {
                    max_attempts: 0,
                    ..base.clone()
                },
                "Max attempts",
            ),
            (
                EndpointSettings {
                    max_wait_ms: u64::MAX,
                    ..base.clone()
                },
                "total wait",
            ),
        ];
        for (s, needle) in cases {
            let err = s.validate().expect_err("bad settings are refused");
            assert!(
                err.contains(needle),
                "message {err:?} should mention {needle:?}"
            );
        }
        let ok = EndpointSettings {
            base_url: "/proxy/x".into(),
            extra: " ".into(),
            ..base
        };
        assert_eq!(
            ok.validate(),
            Ok(()),
            "a path base URL and blank extra are fine"
        );
    }

    #[test]
    fn settings_serialize_without_any_key_and_fill_defaults_when_read() {
        let s = EndpointSettings::for_preset(Preset::OpenRouter);
        let json = serde_json::to_string(&s).expect("settings serialize");
        assert!(!json.to_lowercase().contains("key"), "no key field: {json}");
        let back: EndpointSettings =
            serde_json::from_str(r#"{"preset":"openrouter","model":"m"}"#).expect("partial reads");
        assert_eq!(back.preset, Preset::OpenRouter);
        assert_eq!(back.max_attempts, 6, "missing fields take defaults");
        assert_eq!(back.timeout_ms, 120_000);
    }

    #[test]
    fn the_body_carries_model_messages_and_sampling_for_every_preset() {
        for p in Preset::ALL {
            let s = EndpointSettings {
                model: "m1".into(),
                seed: Some(7),
                ..EndpointSettings::for_preset(p)
            };
            let v = body_json(&s);
            assert_eq!(v["model"], "m1", "{}: model", p.id());
            assert_eq!(v["messages"][1]["role"], "user", "{}: messages", p.id());
            assert_eq!(v["messages"][1]["content"], "Hi");
            assert_eq!(v["temperature"], 0.7);
            assert_eq!(v["top_p"], 0.9);
            assert_eq!(v["max_tokens"], 2000);
            assert_eq!(v["seed"], 7);
            assert_eq!(v["stream"], false);
            assert!(
                v.get("stream_options").is_none(),
                "{}: no stream options",
                p.id()
            );
            assert!(
                v.get("logprobs").is_none(),
                "{}: logprobs only when asked",
                p.id()
            );
            if p.is_dashscope() {
                assert_eq!(v["enable_thinking"], false, "{}: thinking off", p.id());
            } else {
                assert!(
                    v.get("enable_thinking").is_none(),
                    "{}: no DashScope key",
                    p.id()
                );
            }
        }
    }

    #[test]
    fn the_seed_is_left_out_when_unset_and_logprobs_and_streaming_are_asked_when_set() {
        let s = EndpointSettings {
            stream: true,
            logprobs: true,
            ..fast_settings()
        };
        let v = body_json(&s);
        assert!(v.get("seed").is_none(), "no seed when unset");
        assert_eq!(v["stream"], true);
        assert_eq!(v["stream_options"]["include_usage"], true);
        assert_eq!(v["logprobs"], true);
    }

    #[test]
    fn thinking_on_dashscope_enables_it_and_forces_streaming() {
        let s = EndpointSettings {
            thinking: true,
            ..EndpointSettings::for_preset(Preset::DashScopeCn)
        };
        assert!(effective_stream(&s), "thinking forces streaming");
        let v = body_json(&s);
        assert_eq!(v["enable_thinking"], true);
        assert_eq!(v["stream"], true);
        assert_eq!(v["stream_options"]["include_usage"], true);
    }

    #[test]
    fn extra_keys_are_merged_over_the_body_and_win() {
        let s = EndpointSettings {
            extra: r#"{"top_k": 20, "temperature": 0, "enable_thinking": true}"#.into(),
            ..EndpointSettings::for_preset(Preset::DashScopeIntl)
        };
        let v = body_json(&s);
        assert_eq!(v["top_k"], 20, "a new key is added");
        assert_eq!(v["temperature"], 0, "extra wins over temperature");
        assert_eq!(
            v["enable_thinking"], true,
            "extra wins over enable_thinking"
        );
        let bad = EndpointSettings {
            extra: "3".into(),
            ..fast_settings()
        };
        let err = request_body(&bad, &user("Hi")).expect_err("a non-object extra is refused");
        assert_eq!(err.kind_name(), "invalid_settings");
    }

    #[test]
    fn headers_are_content_type_and_bearer_only() {
        assert_eq!(
            request_headers("sk-1"),
            vec![
                ("Content-Type".to_string(), "application/json".to_string()),
                ("Authorization".to_string(), "Bearer sk-1".to_string()),
            ]
        );
        assert_eq!(
            request_headers("  ").len(),
            1,
            "no Authorization without a key"
        );
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
    }

    #[test]
    fn logprobs_and_reasoning_are_read_when_present() {
        let body = r#"{"choices":[{"message":{"content":"ok","reasoning_content":"hmm"},"logprobs":{"content":[{"token":"o","logprob":-0.25,"top_logprobs":[]},{"token":"k","logprob":-1.5}]}}]}"#;
        let r = parse_response(body).expect("parses");
        assert_eq!(r.reasoning.as_deref(), Some("hmm"));
        assert_eq!(
            r.logprobs,
            Some(vec![
                TokenLogprob {
                    token: "o".into(),
                    logprob: -0.25
                },
                TokenLogprob {
                    token: "k".into(),
                    logprob: -1.5
                },
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

    const URL: &str = "https://api.openai.com/v1/chat/completions";

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
    fn retry_after_reads_seconds_and_http_dates() {
        let now = 1_445_412_480_000.0; // Wed, 21 Oct 2015 07:28:00 GMT
        assert_eq!(parse_retry_after("8", now), Some(8000));
        assert_eq!(parse_retry_after(" 1.5 ", now), Some(1500));
        assert_eq!(
            parse_retry_after("Wed, 21 Oct 2015 07:28:10 GMT", now),
            Some(10_000)
        );
        assert_eq!(
            parse_retry_after("Wed, 21 Oct 2015 07:27:00 GMT", now),
            Some(0),
            "past dates wait 0"
        );
        assert_eq!(parse_retry_after("-3", now), None);
        assert_eq!(parse_retry_after("soon", now), None);
        assert_eq!(
            parse_retry_after("Wed, 32 Oct 2015 07:28:00 GMT", now),
            None
        );
        assert_eq!(days_from_civil(1970, 1, 1), 0);
        assert_eq!(days_from_civil(2000, 3, 1), 11_017);
        assert_eq!(days_from_civil(1969, 12, 31), -1);
        assert_eq!(
            parse_http_date_ms("Wed, 21 Oct 2015 07:28:00 GMT"),
            Some(now)
        );
    }

    #[test]
    fn rate_limit_reset_values_read_as_milliseconds() {
        let cases = [
            ("1s", 1000),
            ("6m0s", 360_000),
            ("250ms", 250),
            ("0.5s", 500),
            ("2", 2000),
            ("1h2m3s", 3_723_000),
        ];
        for (v, ms) in cases {
            assert_eq!(parse_reset(v), Some(ms), "{v}");
        }
        assert_eq!(parse_reset(""), None);
        assert_eq!(parse_reset("5 parsecs"), None);
        let headers = vec![
            ("X-RateLimit-Reset-Requests".to_string(), "1s".to_string()),
            ("x-ratelimit-reset-tokens".to_string(), "6m0s".to_string()),
            ("Retry-After".to_string(), "20".to_string()),
        ];
        assert_eq!(
            retry_hint(&headers, 0.0),
            Some(360_000),
            "the longest hint wins"
        );
        assert_eq!(retry_hint(&[], 0.0), None);
    }

    #[test]
    fn back_off_doubles_with_equal_jitter_and_hints_win_up_to_the_cap() {
        let p = RetryPolicy {
            max_attempts: 6,
            base_ms: 1000,
            max_delay_ms: 60_000,
            max_wait_ms: 300_000,
        };
        assert_eq!(p.delay_ms(1, None, 0.0), 500);
        assert_eq!(p.delay_ms(1, None, 0.999_999), 1000);
        assert_eq!(
            p.delay_ms(3, None, 0.5),
            3000,
            "4000 halved plus half of 2000"
        );
        assert_eq!(p.delay_ms(30, None, 0.0), 30_000, "capped then halved");
        assert_eq!(p.delay_ms(2, Some(8000), 0.9), 8000, "a hint wins");
        assert_eq!(
            p.delay_ms(2, Some(600_000), 0.9),
            60_000,
            "hints are capped"
        );
    }

    #[test]
    fn retry_notices_read_naturally() {
        let n = RetryNotice {
            status: Some(429),
            status_label: "429".into(),
            cause: None,
            attempt: 3,
            of: 6,
            delay_ms: 8000,
        };
        assert_eq!(n.to_string(), "429. Retrying (attempt 4 of 6) in 8 s…");
        let n = RetryNotice {
            status: None,
            status_label: "timeout".into(),
            cause: None,
            attempt: 1,
            of: 6,
            delay_ms: 1500,
        };
        assert_eq!(
            n.to_string(),
            "Timeout. Retrying (attempt 2 of 6) in 1.5 s…"
        );
        let n = RetryNotice {
            status: None,
            status_label: "network error".into(),
            cause: Some("No answer from http://x/v1/chat/completions".into()),
            attempt: 1,
            of: 6,
            delay_ms: 1500,
        };
        assert_eq!(
            n.to_string(),
            "No answer from http://x/v1/chat/completions. Retrying (attempt 2 of 6) in 1.5 s…"
        );
        assert_eq!(format_wait(250), "250 ms");
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
        assert!(r.is_ok());
        assert_eq!(statuses, vec![Some(429), Some(503)]);
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

    const STREAM: [&str; 5] = [
        ": keep-alive\r\n\r\ndata: {\"choices\":[{\"delta\":{\"role\":\"assistant\",\"content\":\"\",\"reasoning_content\":\"Let me\"}}]}\r\n\r\ndata: {\"choices\":[{\"delta\":{\"reasoning_",
        "content\":\" think.\"}}]}\n\ndata: {\"choices\":[{\"delta\":{\"content\":\"Move: \"},\"logprobs\":{\"content\":[{\"token\":\"Move\",\"logprob\":-0.1}]}}]}\n",
        "\ndata: {\"choices\":[{\"delta\":{\"content\":\"(1, 2)\"},\"finish_reason\":\"stop\"}]}\n\n",
        "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":30,\"completion_tokens\":9,\"total_tokens\":39}}\n\ndata: [DO",
        "NE]\n\ndata: {\"choices\":[{\"delta\":{\"content\":\"after done\"}}]}\n\n",
    ];

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
    fn the_scripted_answer_helper_makes_a_reply_the_parser_reads() {
        let t = ScriptedTransport::new(vec![Scripted::answer("Shape: square")]);
        let (r, _) = run(&t, &fast_settings());
        assert_eq!(r.expect("parses").content, "Shape: square");
        let (r, _) = run(
            &t,
            &EndpointSettings {
                max_attempts: 1,
                ..fast_settings()
            },
        );
        assert_eq!(r.expect_err("script used up").kind_name(), "network");
    }
}
