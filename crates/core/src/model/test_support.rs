//! Helpers the client's tests share.

use super::call::{complete, ChatEvent};
use super::error::ChatError;
use super::preset::Preset;
use super::request::ChatMessage;
use super::response::ChatReply;
use super::scripted::ScriptedTransport;
use super::settings::EndpointSettings;
use super::transport::block_on;

pub(super) fn user(text: &str) -> Vec<ChatMessage> {
    vec![ChatMessage::system("Be brief."), ChatMessage::user(text)]
}

pub(super) fn run(
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

pub(super) fn fast_settings() -> EndpointSettings {
    EndpointSettings::for_preset(Preset::OpenAi)
}

pub(super) const OK_BODY: &str = r#"{"id":"x","choices":[{"index":0,"message":{"role":"assistant","content":"Move: (1, 2)"},"finish_reason":"stop"}],"usage":{"prompt_tokens":12,"completion_tokens":5,"total_tokens":17}}"#;

pub(super) const URL: &str = "https://api.openai.com/v1/chat/completions";
