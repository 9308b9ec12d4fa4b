//! An endpoint's settings (base URL, model, sampling, streaming, thinking, extra body keys) and their validation, each problem named with what to fix.

use super::preset::Preset;
use crate::text::format_decimal;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

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
    /// The reasoning effort to ask for (none: the endpoint's default); a switch overrides
    /// `thinking` ([`Effort`](super::effort::Effort)).
    pub effort: Option<super::effort::Effort>,
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
            effort: None,
            extra: String::new(),
            max_attempts: 6,
            max_wait_ms: 300_000,
        }
    }

    /// Checks the settings, saying what to change when something is wrong.
    pub fn validate(&self) -> Result<(), SettingsError> {
        let base = self.base_url.trim();
        let example = example_base(self.preset);
        if base.is_empty() {
            return Err(SettingsError::NoBaseUrl { example });
        }
        if !(base.starts_with("http://") || base.starts_with("https://") || base.starts_with('/')) {
            return Err(SettingsError::BaseUrlScheme {
                base: base.to_string(),
                example,
            });
        }
        if base.trim_end_matches('/').ends_with("/chat/completions") {
            return Err(SettingsError::BaseUrlWithPath {
                suggested: base
                    .trim_end_matches('/')
                    .trim_end_matches("/chat/completions")
                    .to_string(),
            });
        }
        if self.model.trim().is_empty() {
            return Err(SettingsError::NoModel {
                example: self.preset.example_model(),
            });
        }
        if !(self.temperature.is_finite() && (0.0..=2.0).contains(&self.temperature)) {
            return Err(SettingsError::Temperature(self.temperature));
        }
        if !(self.top_p.is_finite() && self.top_p > 0.0 && self.top_p <= 1.0) {
            return Err(SettingsError::TopP(self.top_p));
        }
        if self.max_tokens == 0 || self.max_tokens > MAX_TOKENS_LIMIT {
            return Err(SettingsError::MaxTokens(self.max_tokens));
        }
        if !(TIMEOUT_MIN_MS..=TIMEOUT_MAX_MS).contains(&self.timeout_ms) {
            return Err(SettingsError::Timeout(self.timeout_ms));
        }
        if self.max_attempts == 0 || self.max_attempts > MAX_ATTEMPTS_LIMIT {
            return Err(SettingsError::MaxAttempts(self.max_attempts));
        }
        if self.max_wait_ms > MAX_WAIT_LIMIT_MS {
            return Err(SettingsError::MaxWait(self.max_wait_ms));
        }
        extra_object(&self.extra)?;
        Ok(())
    }
}

/// Why endpoint settings cannot be used; each says what to change.
#[derive(Clone, Debug, PartialEq)]
pub enum SettingsError {
    /// No base URL (`example` is one for the preset).
    NoBaseUrl {
        /// A base URL for the preset.
        example: &'static str,
    },
    /// A base URL that is not http(s) or a path on this site.
    BaseUrlScheme {
        /// The base URL given.
        base: String,
        /// A base URL for the preset.
        example: &'static str,
    },
    /// A base URL ending in `/chat/completions`, which is added to it.
    BaseUrlWithPath {
        /// The base URL without it.
        suggested: String,
    },
    /// No model name (`example` is the preset's, or empty).
    NoModel {
        /// A model the preset serves, or empty.
        example: &'static str,
    },
    /// A temperature outside 0 to 2.
    Temperature(f64),
    /// A top-p outside (0, 1].
    TopP(f64),
    /// Max tokens outside 1 to [`MAX_TOKENS_LIMIT`].
    MaxTokens(u32),
    /// A timeout outside the allowed range, in ms.
    Timeout(u64),
    /// Max attempts outside 1 to [`MAX_ATTEMPTS_LIMIT`].
    MaxAttempts(u32),
    /// A total wait above [`MAX_WAIT_LIMIT_MS`], in ms.
    MaxWait(u64),
    /// Extra parameters that are not a JSON object.
    ExtraNotObject,
    /// Extra parameters that are not JSON (the parser's message).
    ExtraNotJson(String),
}

impl std::fmt::Display for SettingsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::NoBaseUrl { example } => {
                write!(f, "Enter the endpoint's base URL (for example {example}).")
            }
            Self::BaseUrlScheme { base, example } => write!(
                f,
                "The base URL '{base}' must start with http://, https:// or / (for example {example})."
            ),
            Self::BaseUrlWithPath { suggested } => write!(
                f,
                "The base URL should stop before /chat/completions, which is added to it: use '{suggested}'."
            ),
            Self::NoModel { example: "" } => write!(f, "Enter the model name the endpoint serves."),
            Self::NoModel { example } => write!(f, "Enter the model name (for example {example})."),
            Self::Temperature(t) => write!(
                f,
                "Temperature must be from 0 to 2, not {}.",
                format_decimal(*t, 3)
            ),
            Self::TopP(p) => write!(
                f,
                "Top-p must be above 0 and at most 1, not {}.",
                format_decimal(*p, 3)
            ),
            Self::MaxTokens(n) => write!(f, "Max tokens must be from 1 to {MAX_TOKENS_LIMIT}, not {n}."),
            Self::Timeout(ms) => write!(
                f,
                "The timeout must be from {} s to {} s, not {ms} ms.",
                TIMEOUT_MIN_MS / 1000,
                TIMEOUT_MAX_MS / 1000
            ),
            Self::MaxAttempts(n) => write!(
                f,
                "Max attempts must be from 1 to {MAX_ATTEMPTS_LIMIT}, not {n}."
            ),
            Self::MaxWait(ms) => write!(
                f,
                "The total wait between attempts must be at most {} s, not {ms} ms.",
                MAX_WAIT_LIMIT_MS / 1000
            ),
            Self::ExtraNotObject => write!(
                f,
                "Extra parameters must be a JSON object, like {{\"top_k\": 20}}, or left empty."
            ),
            Self::ExtraNotJson(e) => write!(
                f,
                "Extra parameters are not valid JSON ({e}); write an object like {{\"top_k\": 20}}, or leave them empty."
            ),
        }
    }
}

impl std::error::Error for SettingsError {}

pub(super) fn example_base(preset: Preset) -> &'static str {
    match preset.default_base_url() {
        "" => "http://localhost:8000/v1",
        url => url,
    }
}

/// Parses the `extra` setting: empty means no extra keys; otherwise a JSON object.
pub(super) fn extra_object(extra: &str) -> Result<Map<String, Value>, SettingsError> {
    if extra.trim().is_empty() {
        return Ok(Map::new());
    }
    match serde_json::from_str::<Value>(extra) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(_) => Err(SettingsError::ExtraNotObject),
        Err(e) => Err(SettingsError::ExtraNotJson(e.to_string())),
    }
}

#[cfg(test)]
mod tests {
    use super::super::request::{effective_stream, request_body};
    use super::super::test_support::{fast_settings, user};
    use super::*;
    use serde_json::Value;

    fn body_json(settings: &EndpointSettings) -> Value {
        let body = request_body(settings, &user("Hi")).expect("the body builds");
        serde_json::from_str(&body).expect("the body is JSON")
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
            let err = s
                .validate()
                .expect_err("bad settings are refused")
                .to_string();
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
        assert_eq!(v["top_logprobs"], 5, "with the alternatives at each token");
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
    fn an_effort_reaches_the_body_as_the_endpoint_reads_it_and_extra_still_wins() {
        use crate::model::effort::Effort;
        let with = |effort, preset, extra: &str| EndpointSettings {
            effort: Some(effort),
            extra: extra.into(),
            ..EndpointSettings::for_preset(preset)
        };
        // The thinking switch on DashScope overrides `thinking` and streams.
        let s = with(Effort::Thinking, Preset::DashScopeIntl, "");
        assert!(effective_stream(&s), "thinking forces streaming");
        let v = body_json(&s);
        assert_eq!(
            (v["enable_thinking"].clone(), v["stream"].clone()),
            (true.into(), true.into())
        );
        let v = body_json(&EndpointSettings {
            thinking: true,
            ..with(Effort::NoThinking, Preset::DashScopeIntl, "")
        });
        assert_eq!(
            v["enable_thinking"], false,
            "the effort's switch wins over thinking"
        );
        // Elsewhere the switch goes to the chat template; a level is reasoning_effort.
        let v = body_json(&with(Effort::NoThinking, Preset::LlamaCpp, ""));
        assert_eq!(v["chat_template_kwargs"]["enable_thinking"], false);
        assert_eq!(v["stream"], false, "thinking off does not stream");
        let v = body_json(&with(Effort::High, Preset::OpenRouter, ""));
        assert_eq!(v["reasoning_effort"], "high");
        assert!(v.get("enable_thinking").is_none() && v.get("chat_template_kwargs").is_none());
        let v = body_json(&with(
            Effort::High,
            Preset::OpenAi,
            r#"{"reasoning_effort": "low"}"#,
        ));
        assert_eq!(v["reasoning_effort"], "low", "extra wins");
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
}
