//! The chat-completions request: its JSON body and headers.

use super::error::ChatError;
use super::form::{FormRequest, ToolCall};
use super::settings::{extra_object, EndpointSettings};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// How many alternatives to ask for at each token when log probabilities are asked for
/// (`top_logprobs`): five, the most DashScope accepts (OpenAI takes up to 20). With the
/// token itself, enough for the row or column values around a move.
pub const TOP_LOGPROBS: u32 = 5;

/// One message of a conversation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChatMessage {
    /// `system`, `user` or `assistant`.
    pub role: String,
    /// The text.
    pub content: String,
    /// An image sent with the text, as a `data:` URL (a vision trial's maze). The request
    /// then carries the content as parts: the text, then an `image_url` part
    /// ([`message_value`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image: Option<String>,
    /// The function calls an assistant message made (an agent's conversation under the
    /// `tool` answer mode); sent back as `tool_calls`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tool_calls: Vec<ToolCall>,
    /// For a `tool` message: the call it answers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_call_id: Option<String>,
}

/// A message as the chat-completions API takes it: `{"role", "content": "text"}`, or with
/// an image, the OpenAI content parts `[{"type": "text", ...}, {"type": "image_url",
/// "image_url": {"url": "data:image/png;base64,..."}}]` (OpenAI, Qwen-VL on DashScope's
/// compatible mode, vLLM and llama.cpp's server read this form).
///
/// An assistant message that made function calls carries them as `tool_calls` (its content
/// the empty string when it wrote no text: OpenAI takes a string there, and
/// llama-cpp-python's server answers both a `null` content and none with a 500), and a
/// `tool` message names the call it answers (`tool_call_id`), as OpenAI's function calling
/// has them.
pub fn message_value(m: &ChatMessage) -> Value {
    let content = match &m.image {
        None => Value::from(m.content.as_str()),
        Some(url) => serde_json::json!([
            {"type": "text", "text": m.content},
            {"type": "image_url", "image_url": {"url": url}},
        ]),
    };
    let mut v = serde_json::json!({"role": m.role, "content": content});
    if !m.tool_calls.is_empty() {
        v["tool_calls"] = m.tool_calls.iter().map(ToolCall::value).collect();
    }
    if let Some(id) = &m.tool_call_id {
        v["tool_call_id"] = Value::from(id.as_str());
    }
    v
}

impl ChatMessage {
    /// A system message.
    pub fn system(content: impl Into<String>) -> Self {
        ChatMessage {
            role: "system".to_string(),
            content: content.into(),
            image: None,
            tool_calls: Vec::new(),
            tool_call_id: None,
        }
    }

    /// A user message.
    pub fn user(content: impl Into<String>) -> Self {
        ChatMessage {
            role: "user".to_string(),
            content: content.into(),
            image: None,
            tool_calls: Vec::new(),
            tool_call_id: None,
        }
    }

    /// An assistant message (an earlier reply of the model).
    pub fn assistant(content: impl Into<String>) -> Self {
        ChatMessage {
            role: "assistant".to_string(),
            content: content.into(),
            image: None,
            tool_calls: Vec::new(),
            tool_call_id: None,
        }
    }
}

/// Whether the call is streamed: when asked, and always when thinking is on (Qwen3 on
/// DashScope refuses thinking in non-streaming calls).
pub fn effective_stream(settings: &EndpointSettings) -> bool {
    settings.stream || thinking(settings)
}

/// Whether thinking is on: the effort's switch when it has one, else `thinking`.
pub fn thinking(settings: &EndpointSettings) -> bool {
    settings
        .effort
        .and_then(|e| e.thinking())
        .unwrap_or(settings.thinking)
}

/// The JSON body of a chat-completions request. The `extra` object's keys are merged
/// last, so they win over every key set here.
pub fn request_body(
    settings: &EndpointSettings,
    messages: &[ChatMessage],
) -> Result<String, ChatError> {
    request_body_with(settings, messages, None)
}

/// [`request_body`] asking the endpoint to hold the answer to `form` (its schema or its
/// function call, [`FormRequest::apply`]); `extra` still wins.
pub fn request_body_with(
    settings: &EndpointSettings,
    messages: &[ChatMessage],
    form: Option<&FormRequest>,
) -> Result<String, ChatError> {
    let extra = extra_object(&settings.extra)?;
    let mut body = Map::new();
    body.insert("model".into(), Value::from(settings.model.trim()));
    body.insert(
        "messages".into(),
        Value::Array(messages.iter().map(message_value).collect()),
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
        body.insert("top_logprobs".into(), Value::from(TOP_LOGPROBS));
    }
    if settings.preset.is_dashscope() {
        body.insert("enable_thinking".into(), Value::from(thinking(settings)));
    }
    if let Some(effort) = settings.effort {
        effort.apply(&mut body, settings.preset.is_dashscope());
    }
    if let Some(form) = form {
        form.apply(&mut body, settings.preset);
    }
    for (k, v) in extra {
        body.insert(k, v);
    }
    match form {
        // The schema's fields in the order a model is to write them (the reasoning first).
        Some(f) => Ok(super::form::ordered_json(&Value::Object(body), f.key_order)),
        None => serde_json::to_string(&Value::Object(body))
            .map_err(|e| ChatError::invalid_settings(e.to_string())),
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_agents_conversation_carries_its_calls_and_the_answers_to_them() {
        let call = ToolCall {
            id: "call_1".into(),
            name: "submit_move".into(),
            arguments: r#"{"row": 1, "col": 0}"#.into(),
        };
        let asked = ChatMessage {
            tool_calls: vec![call],
            ..ChatMessage::assistant("")
        };
        let v = message_value(&asked);
        assert_eq!(
            v["content"], "",
            "no text: an empty string, never null or left out"
        );
        assert_eq!(v["tool_calls"][0]["function"]["name"], "submit_move");
        assert_eq!(v["tool_calls"][0]["id"], "call_1");
        let answered = ChatMessage {
            role: "tool".into(),
            tool_call_id: Some("call_1".into()),
            ..ChatMessage::user("Updated maze: ...")
        };
        let v = message_value(&answered);
        assert_eq!(
            (v["role"].as_str(), v["tool_call_id"].as_str()),
            (Some("tool"), Some("call_1"))
        );
        let plain = message_value(&ChatMessage::user("Hi"));
        assert!(plain.get("tool_calls").is_none() && plain.get("tool_call_id").is_none());
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
}
