//! Asking an endpoint to hold a reply to a form (docs/guides/answer-modes.md): how a
//! request spells a JSON schema or a forced function call ([`Spelling`], [`FormRequest`]),
//! the order a run steps down through the spellings when an endpoint refuses one
//! ([`spellings`]), the function call a reply makes ([`ToolCall`]), and whether an error is
//! the endpoint refusing the form rather than failing ([`refuses_form`]).
//!
//! The spellings, as each endpoint documents them: OpenAI's nested `response_format`
//! (`{"type": "json_schema", "json_schema": {"name", "strict", "schema"}}`, which vLLM,
//! SGLang, Ollama's OpenAI path, LM Studio and OpenRouter read too); vLLM's
//! `structured_outputs` extra (`{"json": schema}`, vLLM 0.12 on); Ollama's native `format`
//! (the schema itself); `response_format` of type `json_object` with the schema in the
//! prompt (DashScope's JSON mode; llama.cpp's servers also read a `schema` key beside it);
//! and the prompt alone. A function call is forced by naming the function in `tool_choice`,
//! or with `"required"`.

use super::error::ChatError;
use super::preset::Preset;
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

/// How a request asks the endpoint to hold the answer to a form.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum Spelling {
    /// `tools` with the one function, `tool_choice` naming it.
    ToolNamed,
    /// `tools` with the one function, `tool_choice: "required"`.
    ToolRequired,
    /// OpenAI's `response_format: {"type": "json_schema", "json_schema": {...}}`.
    JsonSchema,
    /// vLLM's (and SGLang's) `structured_outputs: {"json": schema}` extra.
    StructuredOutputs,
    /// Ollama's `format: schema`.
    Format,
    /// `response_format: {"type": "json_object"}`, the schema stated in the prompt (and,
    /// for the servers that read it, in a `schema` key beside the type).
    JsonObject,
    /// Nothing in the request: the prompt alone asks for the JSON.
    #[default]
    Prompt,
}

impl Spelling {
    /// Every spelling, in the order a run steps down through them.
    pub const ALL: [Spelling; 7] = [
        Spelling::ToolNamed,
        Spelling::ToolRequired,
        Spelling::JsonSchema,
        Spelling::StructuredOutputs,
        Spelling::Format,
        Spelling::JsonObject,
        Spelling::Prompt,
    ];

    /// The snake_case name (`json_schema`, `tool_named`, ...), as records keep it.
    pub fn name(self) -> &'static str {
        match self {
            Spelling::ToolNamed => "tool_named",
            Spelling::ToolRequired => "tool_required",
            Spelling::JsonSchema => "json_schema",
            Spelling::StructuredOutputs => "structured_outputs",
            Spelling::Format => "format",
            Spelling::JsonObject => "json_object",
            Spelling::Prompt => "prompt",
        }
    }

    /// Reads a spelling's name (any case, `-` or `_`).
    pub fn parse(s: &str) -> Result<Spelling, crate::text::UnknownName> {
        let k = s.trim().to_ascii_lowercase().replace('-', "_");
        Spelling::ALL
            .into_iter()
            .find(|p| p.name() == k)
            .ok_or_else(|| {
                let names: Vec<&str> = Spelling::ALL.iter().map(|p| p.name()).collect();
                crate::text::UnknownName::new(
                    "answer form",
                    s,
                    format!("one of {}", names.join(", ")),
                )
            })
    }

    /// Whether it forces a function call (the `tool` mode's spellings).
    pub fn is_tool(self) -> bool {
        matches!(self, Spelling::ToolNamed | Spelling::ToolRequired)
    }

    /// Whether the endpoint is asked to hold the form at all (all but [`Spelling::Prompt`]).
    pub fn asks_endpoint(self) -> bool {
        self != Spelling::Prompt
    }
}

/// The spellings a run tries for a form, in order: the preset's, after `first` when a
/// setting names one. `tool` asks for a function call first (the `tool` mode), then steps
/// down to the schema's spellings; the prompt alone is always last, so a run never runs
/// out of spellings.
pub fn spellings(preset: Preset, tool: bool, first: Option<Spelling>) -> Vec<Spelling> {
    use Spelling::*;
    let schema: &[Spelling] = match preset {
        // vLLM reads OpenAI's form and its own extra.
        Preset::Vllm => &[JsonSchema, StructuredOutputs, JsonObject, Prompt],
        // Ollama's OpenAI path reads response_format; `format` is its native field.
        Preset::Ollama => &[JsonSchema, Format, JsonObject, Prompt],
        // llama-server reads `json_schema` unnested and ignores OpenAI's nested form, so
        // JSON mode with the schema beside it comes first.
        Preset::LlamaCpp => &[JsonObject, JsonSchema, Prompt],
        // DashScope documents JSON mode (json_object, the word JSON in the messages).
        Preset::DashScopeIntl | Preset::DashScopeCn | Preset::DashScopeUs | Preset::ThisServer => {
            &[JsonObject, Prompt]
        }
        // LM Studio takes json_schema only.
        Preset::LmStudio => &[JsonSchema, Prompt],
        Preset::OpenAi | Preset::OpenRouter => &[JsonSchema, JsonObject, Prompt],
        Preset::Custom => &[JsonSchema, StructuredOutputs, JsonObject, Prompt],
    };
    // llama-server turns a named tool_choice into "auto"; "required" holds it.
    let tools: &[Spelling] = match preset {
        Preset::LlamaCpp => &[ToolRequired, ToolNamed],
        _ => &[ToolNamed, ToolRequired],
    };
    let default: Vec<Spelling> = if tool {
        tools.iter().chain(schema).copied().collect()
    } else {
        schema.to_vec()
    };
    let Some(first) = first.filter(|f| tool || !f.is_tool()) else {
        return default;
    };
    // The one named first, then the preset's others in their order.
    std::iter::once(first)
        .chain(default.into_iter().filter(|s| *s != first))
        .collect()
}

/// A form as one request asks for it: the spelling, the schema and its name.
#[derive(Clone, Debug, PartialEq)]
pub struct FormRequest {
    /// How the request asks for it.
    pub spelling: Spelling,
    /// The schema's name, or the function's (`[A-Za-z0-9_]`).
    pub name: String,
    /// What the answer is, for the function's description.
    pub description: String,
    /// The JSON schema of the answer (the function's parameters).
    pub schema: Value,
    /// The order the request writes an object's keys in where it holds these (the
    /// schema's properties: a model held to a schema writes its fields in the order the
    /// schema lists them, so the reasoning comes first); other keys follow, sorted.
    pub key_order: &'static [&'static str],
}

/// `v` as JSON text, each object's keys listed in `first`'s order before the others
/// (sorted, as serde_json writes them): a schema's properties in the order a model is to
/// write them, which a JSON object does not keep.
pub fn ordered_json(v: &Value, first: &[&str]) -> String {
    let mut out = String::new();
    write_ordered(v, first, &mut out);
    out
}

fn write_ordered(v: &Value, first: &[&str], out: &mut String) {
    match v {
        Value::Object(map) => {
            let listed = first.iter().copied().filter(|k| map.contains_key(*k));
            let rest = map
                .keys()
                .map(String::as_str)
                .filter(|k| !first.contains(k));
            out.push('{');
            for (i, k) in listed.chain(rest).enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&Value::from(k).to_string());
                out.push(':');
                write_ordered(&map[k], first, out);
            }
            out.push('}');
        }
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_ordered(item, first, out);
            }
            out.push(']');
        }
        other => out.push_str(&other.to_string()),
    }
}

impl FormRequest {
    /// Writes the form into a request body for an endpoint of `preset` (the settings'
    /// `extra` is merged after, and wins).
    pub fn apply(&self, body: &mut Map<String, Value>, preset: Preset) {
        let schema = self.schema.clone();
        match self.spelling {
            Spelling::ToolNamed | Spelling::ToolRequired => {
                let mut function = json!({
                    "name": self.name,
                    "description": self.description,
                    "parameters": schema,
                });
                if preset == Preset::OpenAi {
                    function["strict"] = Value::Bool(true);
                }
                body.insert(
                    "tools".into(),
                    json!([{"type": "function", "function": function}]),
                );
                let choice = match self.spelling {
                    Spelling::ToolNamed => {
                        json!({"type": "function", "function": {"name": self.name}})
                    }
                    _ => Value::from("required"),
                };
                body.insert("tool_choice".into(), choice);
            }
            Spelling::JsonSchema => {
                body.insert(
                    "response_format".into(),
                    json!({"type": "json_schema", "json_schema": {"name": self.name, "strict": true, "schema": schema}}),
                );
                if preset == Preset::OpenRouter {
                    // Only providers that take every parameter sent: one that would drop
                    // response_format is never chosen.
                    body.insert("provider".into(), json!({"require_parameters": true}));
                }
            }
            Spelling::StructuredOutputs => {
                body.insert("structured_outputs".into(), json!({ "json": schema }));
            }
            Spelling::Format => {
                body.insert("format".into(), schema);
            }
            Spelling::JsonObject => {
                let mut format = json!({"type": "json_object"});
                if preset.reads_json_object_schema() {
                    format["schema"] = schema;
                }
                body.insert("response_format".into(), format);
            }
            Spelling::Prompt => {}
        }
    }
}

/// One function call a reply made (`message.tool_calls[i]`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ToolCall {
    /// The call's id (made up as `call_N` when the endpoint gave none).
    #[serde(default)]
    pub id: String,
    /// The function's name.
    #[serde(default)]
    pub name: String,
    /// Its arguments, the JSON text as the endpoint sent it.
    #[serde(default)]
    pub arguments: String,
}

impl ToolCall {
    /// The call as a request's assistant message carries it back.
    pub fn value(&self) -> Value {
        json!({"id": self.id, "type": "function", "function": {"name": self.name, "arguments": self.arguments}})
    }

    /// A call read from a response's `tool_calls` entry (`arguments` may be a string or,
    /// from some servers, an object).
    pub fn read(v: &Value, index: usize) -> Option<ToolCall> {
        let function = v.get("function")?;
        Some(ToolCall {
            id: v
                .get("id")
                .and_then(Value::as_str)
                .filter(|s| !s.is_empty())
                .map_or_else(|| format!("call_{index}"), str::to_string),
            name: function.get("name").and_then(Value::as_str)?.to_string(),
            arguments: match function.get("arguments") {
                Some(Value::String(s)) => s.clone(),
                Some(Value::Null) | None => String::new(),
                Some(other) => other.to_string(),
            },
        })
    }
}

/// The names of a request's form parameters, any of which an error's message may name
/// when the endpoint refuses the form.
const FORM_WORDS: [&str; 9] = [
    "response_format",
    "json_schema",
    "json_object",
    "structured_output",
    "guided_json",
    "tool_choice",
    "tools",
    "function",
    "format",
];

/// Whether `err` is the endpoint refusing the form a request asked for, so the run steps
/// down to the next spelling instead of failing or retrying: a 400 or 422 (but not a
/// prompt longer than the context, nor a key or model refused), or a server error or an
/// error inside the answer whose message names a form parameter (llama-cpp-python answers
/// a `json_schema` response format with a 500 naming `response_format`) or says it is not
/// supported.
pub fn refuses_form(err: &ChatError) -> bool {
    match err {
        ChatError::BadRequest(_) => true,
        ChatError::Server(i) | ChatError::Upstream(i) => {
            let detail = i.detail.as_deref().unwrap_or("").to_ascii_lowercase();
            FORM_WORDS.iter().any(|w| detail.contains(w))
                || detail.contains("not supported")
                || detail.contains("unsupported")
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::error::ErrorInfo;

    fn form(spelling: Spelling) -> FormRequest {
        FormRequest {
            spelling,
            name: "submit_move".into(),
            description: "The next move.".into(),
            schema: json!({"type": "object", "properties": {"row": {"type": "integer"}}}),
            key_order: &[],
        }
    }

    fn body(spelling: Spelling, preset: Preset) -> Value {
        let mut b = Map::new();
        form(spelling).apply(&mut b, preset);
        Value::Object(b)
    }

    #[test]
    fn each_spelling_writes_the_parameter_its_endpoint_documents() {
        let b = body(Spelling::JsonSchema, Preset::Vllm);
        assert_eq!(b["response_format"]["type"], "json_schema");
        assert_eq!(b["response_format"]["json_schema"]["name"], "submit_move");
        assert_eq!(b["response_format"]["json_schema"]["strict"], true);
        assert_eq!(
            b["response_format"]["json_schema"]["schema"]["properties"]["row"]["type"],
            "integer"
        );
        assert!(
            b.get("provider").is_none(),
            "only OpenRouter is asked to route on it"
        );
        let b = body(Spelling::JsonSchema, Preset::OpenRouter);
        assert_eq!(b["provider"]["require_parameters"], true);
        let b = body(Spelling::StructuredOutputs, Preset::Vllm);
        assert_eq!(b["structured_outputs"]["json"]["type"], "object");
        let b = body(Spelling::Format, Preset::Ollama);
        assert_eq!(b["format"]["type"], "object");
        let b = body(Spelling::JsonObject, Preset::LlamaCpp);
        assert_eq!(b["response_format"]["type"], "json_object");
        assert_eq!(
            b["response_format"]["schema"]["type"], "object",
            "llama.cpp reads the schema beside JSON mode"
        );
        let b = body(Spelling::JsonObject, Preset::DashScopeIntl);
        assert_eq!(
            b["response_format"],
            json!({"type": "json_object"}),
            "DashScope takes the bare type"
        );
        assert_eq!(
            body(Spelling::Prompt, Preset::Custom),
            json!({}),
            "the prompt alone sends nothing"
        );
        let b = body(Spelling::ToolNamed, Preset::Custom);
        assert_eq!(b["tools"][0]["function"]["name"], "submit_move");
        assert_eq!(b["tools"][0]["function"]["parameters"]["type"], "object");
        assert_eq!(b["tool_choice"]["function"]["name"], "submit_move");
        assert!(
            b["tools"][0]["function"].get("strict").is_none(),
            "strict only where documented"
        );
        assert_eq!(
            body(Spelling::ToolNamed, Preset::OpenAi)["tools"][0]["function"]["strict"],
            true
        );
        assert_eq!(
            body(Spelling::ToolRequired, Preset::Vllm)["tool_choice"],
            "required"
        );
    }

    #[test]
    fn a_run_steps_down_through_the_presets_spellings_to_the_prompt_alone() {
        use Spelling::*;
        assert_eq!(
            spellings(Preset::Custom, false, None),
            vec![JsonSchema, StructuredOutputs, JsonObject, Prompt]
        );
        assert_eq!(spellings(Preset::Ollama, false, None)[1], Format);
        assert_eq!(
            spellings(Preset::DashScopeIntl, false, None),
            vec![JsonObject, Prompt]
        );
        assert_eq!(
            spellings(Preset::Custom, true, None)[..3],
            [ToolNamed, ToolRequired, JsonSchema],
            "a function call first, then the schema"
        );
        assert_eq!(spellings(Preset::LlamaCpp, true, None)[0], ToolRequired);
        for p in Preset::ALL {
            for tool in [false, true] {
                assert_eq!(
                    spellings(p, tool, None).last(),
                    Some(&Prompt),
                    "{}: the prompt alone last",
                    p.id()
                );
            }
        }
        // A setting names where to start; the preset's others follow in their order.
        assert_eq!(
            spellings(Preset::Custom, false, Some(JsonObject)),
            vec![JsonObject, JsonSchema, StructuredOutputs, Prompt]
        );
        assert_eq!(
            spellings(Preset::LlamaCpp, false, Some(JsonSchema)),
            vec![JsonSchema, JsonObject, Prompt],
            "llama-cpp-python refuses json_schema: JSON mode with the schema follows"
        );
        assert_eq!(
            spellings(Preset::DashScopeIntl, false, Some(JsonSchema)),
            vec![JsonSchema, JsonObject, Prompt],
            "a spelling the preset does not list is tried first"
        );
        assert_eq!(
            spellings(Preset::Custom, false, Some(ToolNamed)),
            spellings(Preset::Custom, false, None),
            "a function call is no schema spelling"
        );
    }

    #[test]
    fn a_refusal_is_a_400_or_an_error_naming_the_form_and_nothing_else() {
        let with = |status: u16, detail: &str| ChatError::from_status(status, detail);
        assert!(refuses_form(&with(
            400,
            "response_format is not supported with thinking"
        )));
        assert!(refuses_form(&with(422, "unprocessable")));
        assert!(refuses_form(&with(
            500,
            r#"{"error":{"message":"1 validation error for CreateChatCompletionRequest\nresponse_format.type: Input should be 'text' or 'json_object'"}}"#
        )));
        assert!(
            !refuses_form(&with(500, "The server had an error")),
            "a plain 500 is retried"
        );
        assert!(!refuses_form(&with(
            400,
            "This model's maximum context length is 4096 tokens"
        )));
        assert!(!refuses_form(&with(401, "bad key")));
        assert!(!refuses_form(&with(429, "tools are busy")));
        assert!(refuses_form(&ChatError::Upstream(ErrorInfo::detail(
            "tool_choice unsupported"
        ))));
    }

    #[test]
    fn a_tool_call_is_read_with_string_or_object_arguments_and_an_id_made_up_when_missing() {
        let c = ToolCall::read(
            &json!({"id": "call_9", "type": "function", "function": {"name": "submit_move", "arguments": "{\"row\": 1, \"col\": 0}"}}),
            0,
        )
        .expect("a call");
        assert_eq!((c.id.as_str(), c.name.as_str()), ("call_9", "submit_move"));
        assert_eq!(c.arguments, r#"{"row": 1, "col": 0}"#);
        let c = ToolCall::read(
            &json!({"function": {"name": "name_shape", "arguments": {"shape": "C"}}}),
            2,
        )
        .expect("a call");
        assert_eq!(
            (c.id.as_str(), c.arguments.as_str()),
            ("call_2", r#"{"shape":"C"}"#)
        );
        assert_eq!(
            ToolCall::read(&json!({"type": "function"}), 0),
            None,
            "no function, no call"
        );
        assert_eq!(
            c.value()["function"]["arguments"],
            r#"{"shape":"C"}"#,
            "sent back as text"
        );
    }

    #[test]
    fn a_schema_is_written_with_its_fields_in_the_order_given_and_nothing_else_moves() {
        let v = json!({"type": "object", "properties": {"row": {"type": "integer"}, "col": {}, "reasoning": {"type": "string"}}, "required": ["reasoning", "row", "col"]});
        let text = ordered_json(&v, &["reasoning", "row", "col"]);
        assert_eq!(
            text,
            r#"{"properties":{"reasoning":{"type":"string"},"row":{"type":"integer"},"col":{}},"required":["reasoning","row","col"],"type":"object"}"#
        );
        assert_eq!(
            serde_json::from_str::<Value>(&text).expect("JSON"),
            v,
            "the same value"
        );
        let plain =
            json!({"model": "m", "messages": [{"role": "user", "content": "a \"quoted\" row"}]});
        assert_eq!(
            ordered_json(&plain, &["reasoning", "row"]),
            plain.to_string(),
            "keys not listed keep serde's order"
        );
    }

    #[test]
    fn spellings_read_back_from_their_names() {
        for s in Spelling::ALL {
            assert_eq!(Spelling::parse(s.name()), Ok(s));
            assert_eq!(
                serde_json::to_string(&s).expect("writes"),
                format!("\"{}\"", s.name())
            );
        }
        assert!(Spelling::parse("grammar").is_err());
    }
}
