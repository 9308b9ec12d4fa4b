//! Endpoint presets: the providers Shapemaze knows, their base URLs, example models and notes.

use crate::text::UnknownName;
use serde::{Deserialize, Serialize};

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
    pub fn parse(s: &str) -> Result<Preset, UnknownName> {
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
                UnknownName::new("endpoint preset", s, format!("one of {}", ids.join(", ")))
            })
    }

    /// True for the three DashScope regions.
    pub fn is_dashscope(self) -> bool {
        matches!(
            self,
            Preset::DashScopeIntl | Preset::DashScopeCn | Preset::DashScopeUs
        )
    }

    /// Whether JSON mode's `response_format: {"type": "json_object"}` is sent with the
    /// schema beside the type: llama.cpp's servers (llama-server and llama-cpp-python)
    /// hold the reply to it; a custom endpoint gets it too (one that refuses the key is
    /// stepped down from, [`crate::model::form::refuses_form`]); the hosted APIs and the
    /// other local servers get the bare type.
    pub fn reads_json_object_schema(self) -> bool {
        matches!(self, Preset::LlamaCpp | Preset::Custom)
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

#[cfg(test)]
mod tests {
    use super::super::request::chat_url;
    use super::super::settings::EndpointSettings;
    use super::*;

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
                let err = s
                    .validate()
                    .expect_err("custom starts without a base URL")
                    .to_string();
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
}
