//! Reasoning effort: how hard a reasoning model is asked to think. One endpoint's setting,
//! and an axis of an experiment design, where each endpoint player runs once per effort
//! under the name `model@effort` and is compared like a model.
//!
//! Endpoints take it in one of two ways:
//! - a level, sent as `reasoning_effort` (`none`, `minimal`, `low`, `medium`, `high`,
//!   `xhigh`): OpenAI's reasoning models, OpenRouter (which passes it on as its
//!   `reasoning.effort`), gpt-oss on vLLM and most servers;
//! - thinking on or off (`thinking`, `no-thinking`), Qwen3's switch: DashScope's
//!   `enable_thinking`, and elsewhere `chat_template_kwargs: {"enable_thinking": ...}`,
//!   which vLLM, SGLang and llama.cpp's server pass to the chat template.
//!
//! The `extra` JSON of a setting is merged last and wins over both.

use crate::text::UnknownName;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// One reasoning effort.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Effort {
    /// `reasoning_effort: none`.
    None,
    /// `reasoning_effort: minimal`.
    Minimal,
    /// `reasoning_effort: low`.
    Low,
    /// `reasoning_effort: medium`.
    Medium,
    /// `reasoning_effort: high`.
    High,
    /// `reasoning_effort: xhigh`.
    Xhigh,
    /// Thinking on (Qwen3's `enable_thinking: true`).
    Thinking,
    /// Thinking off (Qwen3's `enable_thinking: false`).
    NoThinking,
}

impl Effort {
    /// Every effort, the levels from least to most, then the two switches.
    pub const ALL: [Effort; 8] = [
        Effort::None,
        Effort::Minimal,
        Effort::Low,
        Effort::Medium,
        Effort::High,
        Effort::Xhigh,
        Effort::Thinking,
        Effort::NoThinking,
    ];

    /// The name designs, records and player names use (`high`, `no-thinking`).
    pub fn name(self) -> &'static str {
        match self {
            Effort::None => "none",
            Effort::Minimal => "minimal",
            Effort::Low => "low",
            Effort::Medium => "medium",
            Effort::High => "high",
            Effort::Xhigh => "xhigh",
            Effort::Thinking => "thinking",
            Effort::NoThinking => "no-thinking",
        }
    }

    /// Reads a name, in any case, `_` or space for `-`.
    pub fn parse(s: &str) -> Result<Effort, UnknownName> {
        let t = s.trim().to_ascii_lowercase().replace(['_', ' '], "-");
        Effort::ALL
            .into_iter()
            .find(|e| e.name() == t)
            .ok_or_else(|| {
                let names: Vec<&str> = Effort::ALL.iter().map(|e| e.name()).collect();
                UnknownName::new(
                    "reasoning effort",
                    s,
                    format!("one of {}", names.join(", ")),
                )
            })
    }

    /// Thinking on or off, for the two switches; `None` for the levels.
    pub fn thinking(self) -> Option<bool> {
        match self {
            Effort::Thinking => Some(true),
            Effort::NoThinking => Some(false),
            _ => None,
        }
    }

    /// The player name of `player` run at this effort: `qwen3-8b@no-thinking`.
    pub fn player_name(self, player: &str) -> String {
        format!("{player}@{}", self.name())
    }

    /// Sets this effort in a request body: `reasoning_effort` for a level; for a switch,
    /// `enable_thinking` on DashScope and `chat_template_kwargs.enable_thinking` elsewhere.
    pub fn apply(self, body: &mut Map<String, Value>, dashscope: bool) {
        match self.thinking() {
            None => {
                body.insert("reasoning_effort".into(), Value::from(self.name()));
            }
            Some(on) if dashscope => {
                body.insert("enable_thinking".into(), Value::from(on));
            }
            Some(on) => {
                let mut kwargs = Map::new();
                kwargs.insert("enable_thinking".into(), Value::from(on));
                body.insert("chat_template_kwargs".into(), Value::Object(kwargs));
            }
        }
    }
}

impl std::fmt::Display for Effort {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_read_back_in_any_spelling_and_unknown_ones_list_the_choices() {
        for e in Effort::ALL {
            assert_eq!(Effort::parse(e.name()), Ok(e));
            assert_eq!(Effort::parse(&e.name().to_uppercase()), Ok(e));
            let json = serde_json::to_string(&e).expect("json");
            assert_eq!(
                json,
                format!("\"{}\"", e.name()),
                "serde uses the same names"
            );
        }
        assert_eq!(Effort::parse(" no_thinking "), Ok(Effort::NoThinking));
        assert_eq!(
            Effort::parse("max").map_err(|e| e.to_string()),
            Err("unknown reasoning effort 'max': choose one of none, minimal, low, medium, high, xhigh, thinking, no-thinking".into())
        );
    }

    #[test]
    fn a_level_is_reasoning_effort_and_a_switch_is_enable_thinking_where_the_endpoint_reads_it() {
        let body = |e: Effort, dashscope: bool| {
            let mut m = Map::new();
            e.apply(&mut m, dashscope);
            Value::Object(m).to_string()
        };
        assert_eq!(body(Effort::Low, false), r#"{"reasoning_effort":"low"}"#);
        assert_eq!(body(Effort::Low, true), r#"{"reasoning_effort":"low"}"#);
        assert_eq!(
            body(Effort::NoThinking, true),
            r#"{"enable_thinking":false}"#
        );
        assert_eq!(
            body(Effort::Thinking, false),
            r#"{"chat_template_kwargs":{"enable_thinking":true}}"#
        );
        assert_eq!(Effort::High.player_name("qwen3-8b"), "qwen3-8b@high");
    }
}
