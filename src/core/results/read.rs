//! Reading a trial record from its JSON through `serde_json::Value` and field accessors,
//! instead of serde's derived visitors.
//!
//! Why not the derive: its visitors for the record and the ten types inside it cost the
//! browser build more than this reader does (about 3 KB gzipped more, docs/size.md), and
//! the `Value` parser is linked anyway (the chat client reads replies with it). One
//! difference from the derive: a cell of `path` must be an object `{"row", "col"}` (as
//! every record writes it), not the `[row, col]` sequence serde also took. The rules are
//! serde's for these types: a missing `Option` field is `None` and `null` is `None`; a
//! missing field with a default takes it; a missing required field, or a value of the
//! wrong type, is an error naming the field (with its place: `messages[2].verdict.reason`);
//! unknown fields are ignored; enums are read by their exact names. Records are written
//! by serde's `Serialize` as before, and the tests read back every kind of record written.
//!
//! The accessors ([`Obj`]) also read designs (`core::batch::design_read`) and a
//! participant's trial data (`core::study::data_read`) by the same rules.

use crate::core::maze::encoding::Encoding;
use crate::core::maze::grid::Pos;
use crate::core::maze::image::Vision;
use crate::core::maze::shape::{Shape, ShapeSet};
use crate::core::maze::symbols::Symbols;
use crate::core::model::effort::Effort;
use crate::core::model::price::Price;
use crate::core::model::reply::{EmptyReason, EndpointInfo, FailedAttempt, TokenLogprob};
use crate::core::play::player::PlayerKind;
use crate::core::play::staircase::StairStep;
use crate::core::play::transcript::Role;
use crate::core::play::trial::{ApiFailure, FailureKind, Protocol};
use crate::core::results::record::{PhaseVerdicts, RecordMessage, TrialRecord, Versions};
use crate::core::text::variant_index;
use crate::core::verify::{extracted_from_items, Extracted, GenerationChecks, Item, Outcome};
use crate::core::verify::{Reason, Verdict};
use serde_json::{Map, Value};

/// A value read, or what is wrong with it (naming the field and its place).
pub(crate) type Read<T> = Result<T, String>;

/// One JSON object being read, with its place in the record for messages.
pub(crate) struct Obj<'a> {
    pub(crate) map: &'a Map<String, Value>,
    at: String,
}

impl<'a> Obj<'a> {
    pub(crate) fn of(v: &'a Value, at: String) -> Read<Obj<'a>> {
        match v {
            Value::Object(map) => Ok(Obj { map, at }),
            _ => Err(format!("{}: expected an object", shown(&at))),
        }
    }

    pub(crate) fn name(&self, k: &str) -> String {
        match self.at.as_str() {
            "" => k.to_string(),
            at => format!("{at}.{k}"),
        }
    }

    /// The field `k`, if present and not `null`.
    pub(crate) fn opt(&self, k: &str) -> Option<&'a Value> {
        self.map.get(k).filter(|v| !v.is_null())
    }

    pub(crate) fn req(&self, k: &str) -> Read<&'a Value> {
        self.map
            .get(k)
            .ok_or_else(|| format!("missing field `{}`", self.name(k)))
    }

    pub(crate) fn wrong(&self, k: &str, what: &str) -> String {
        format!("field `{}`: expected {what}", self.name(k))
    }

    pub(crate) fn string(&self, k: &str) -> Read<String> {
        self.req(k)?
            .as_str()
            .map(str::to_string)
            .ok_or_else(|| self.wrong(k, "a string"))
    }

    pub(crate) fn opt_string(&self, k: &str) -> Read<Option<String>> {
        self.opt(k)
            .map(|v| {
                v.as_str()
                    .map(str::to_string)
                    .ok_or_else(|| self.wrong(k, "a string"))
            })
            .transpose()
    }

    pub(crate) fn whole(&self, k: &str, v: &Value, max: u64) -> Read<u64> {
        v.as_u64()
            .filter(|&n| n <= max)
            .ok_or_else(|| self.wrong(k, "a whole number"))
    }

    pub(crate) fn u64(&self, k: &str) -> Read<u64> {
        self.whole(k, self.req(k)?, u64::MAX)
    }

    pub(crate) fn u32(&self, k: &str) -> Read<u32> {
        Ok(self.whole(k, self.req(k)?, u32::MAX.into())? as u32)
    }

    pub(crate) fn usize(&self, k: &str) -> Read<usize> {
        Ok(self.whole(k, self.req(k)?, usize::MAX as u64)? as usize)
    }

    pub(crate) fn opt_u64(&self, k: &str) -> Read<Option<u64>> {
        self.opt(k).map(|v| self.whole(k, v, u64::MAX)).transpose()
    }

    pub(crate) fn opt_u32(&self, k: &str) -> Read<Option<u32>> {
        self.opt(k)
            .map(|v| Ok(self.whole(k, v, u32::MAX.into())? as u32))
            .transpose()
    }

    pub(crate) fn opt_usize(&self, k: &str) -> Read<Option<usize>> {
        Ok(self.opt_u64(k)?.map(|n| n as usize))
    }

    /// Field `k` read by `read`, or `default` when it is missing (`null` is read, and so
    /// refused unless `read` takes it: serde's rule for a field with a default).
    pub(crate) fn or<T>(
        &self,
        k: &str,
        default: T,
        read: impl FnOnce(&Self, &str) -> Read<T>,
    ) -> Read<T> {
        match self.map.get(k) {
            None => Ok(default),
            Some(_) => read(self, k),
        }
    }

    /// A whole number with a default when missing.
    pub(crate) fn usize_or(&self, k: &str, default: usize) -> Read<usize> {
        self.or(k, default, Obj::usize)
    }

    pub(crate) fn f64(&self, k: &str) -> Read<f64> {
        self.req(k)?
            .as_f64()
            .ok_or_else(|| self.wrong(k, "a number"))
    }

    pub(crate) fn opt_f64(&self, k: &str) -> Read<Option<f64>> {
        self.opt(k)
            .map(|v| v.as_f64().ok_or_else(|| self.wrong(k, "a number")))
            .transpose()
    }

    pub(crate) fn bool(&self, k: &str) -> Read<bool> {
        self.req(k)?
            .as_bool()
            .ok_or_else(|| self.wrong(k, "true or false"))
    }

    pub(crate) fn bool_or(&self, k: &str, default: bool) -> Read<bool> {
        self.or(k, default, Obj::bool)
    }

    pub(crate) fn opt_bool(&self, k: &str) -> Read<Option<bool>> {
        self.opt(k)
            .map(|v| v.as_bool().ok_or_else(|| self.wrong(k, "true or false")))
            .transpose()
    }

    pub(crate) fn list(&self, k: &str) -> Read<&'a [Value]> {
        self.req(k)?
            .as_array()
            .map(Vec::as_slice)
            .ok_or_else(|| self.wrong(k, "a list"))
    }

    /// The list of strings in field `k`.
    pub(crate) fn strings(&self, k: &str) -> Read<Vec<String>> {
        self.list(k)?
            .iter()
            .map(|v| {
                v.as_str()
                    .map(str::to_string)
                    .ok_or_else(|| self.wrong(k, "a list of strings"))
            })
            .collect()
    }

    /// A list with a default (empty) when missing.
    pub(crate) fn list_or_empty(&self, k: &str) -> Read<&'a [Value]> {
        match self.map.get(k) {
            None => Ok(&[]),
            Some(_) => self.list(k),
        }
    }

    /// The variant of `all` named by field `k` (`names` gives each one's name).
    pub(crate) fn variant<T: Copy>(
        &self,
        k: &str,
        v: &Value,
        all: &[T],
        names: &[&str],
    ) -> Read<T> {
        let s = v.as_str().ok_or_else(|| self.wrong(k, "a name"))?;
        variant_index(names, s)
            .map(|i| all[i])
            .map_err(|e| format!("field `{}`: {e}", self.name(k)))
    }

    pub(crate) fn obj(&self, k: &str, v: &'a Value) -> Read<Obj<'a>> {
        Obj::of(v, self.name(k))
    }

    /// The variant of `all` named by field `k`, or `default` when it is missing.
    pub(crate) fn variant_or<T: Copy>(
        &self,
        k: &str,
        default: T,
        all: &[T],
        names: &[&str],
    ) -> Read<T> {
        self.or(k, default, |o, k| o.variant(k, o.req(k)?, all, names))
    }

    /// The matrix symbols in field `k` (`"1 0 P G"`), the standard ones when it is missing.
    pub(crate) fn symbols(&self, k: &str) -> Read<Symbols> {
        self.or(k, Symbols::STANDARD, |o, k| {
            Symbols::parse(&o.string(k)?).map_err(|e| format!("field `{}`: {e}", o.name(k)))
        })
    }

    /// The object in field `k`, read by `read`, if present and not `null`.
    pub(crate) fn opt_obj<T>(
        &self,
        k: &str,
        read: impl FnOnce(&Obj<'a>) -> Read<T>,
    ) -> Read<Option<T>> {
        self.opt(k).map(|v| read(&self.obj(k, v)?)).transpose()
    }

    /// The variant of `all` named by field `k`, if present and not `null`.
    pub(crate) fn opt_variant<T: Copy>(
        &self,
        k: &str,
        all: &[T],
        names: &[&str],
    ) -> Read<Option<T>> {
        self.opt(k)
            .map(|v| self.variant(k, v, all, names))
            .transpose()
    }
}

fn shown(at: &str) -> &str {
    if at.is_empty() {
        "the record"
    } else {
        at
    }
}

macro_rules! names {
    ($t:ty) => {
        <$t>::ALL.iter().map(|v| v.name()).collect::<Vec<&str>>()
    };
}

/// Reads a trial record from its JSON value (see the module documentation).
pub fn record(v: &Value) -> Read<TrialRecord> {
    let o = Obj::of(v, String::new())?;
    let shapes = names!(Shape);
    let shape = |k: &str, v: &Value| o.variant(k, v, &Shape::ALL, &shapes);
    let in_play = o
        .list_or_empty("shapes")?
        .iter()
        .map(|v| shape("shapes", v))
        .collect::<Read<Vec<Shape>>>()?;
    let messages = o
        .list("messages")?
        .iter()
        .enumerate()
        .map(|(i, m)| message(&Obj::of(m, format!("messages[{i}]"))?))
        .collect::<Read<Vec<RecordMessage>>>()?;
    let verdicts = o.obj("verdicts", o.req("verdicts")?)?;
    let verdict_of = |k: &str| {
        verdicts
            .opt(k)
            .map(|v| verdict(&verdicts.obj(k, v)?))
            .transpose()
    };
    let versions = o.obj("versions", o.req("versions")?)?;
    Ok(TrialRecord {
        player: o.variant(
            "player",
            o.req("player")?,
            &PlayerKind::ALL,
            &names!(PlayerKind),
        )?,
        model: o.string("model")?,
        endpoint: o.opt_obj("endpoint", endpoint)?,
        shape: shape("shape", o.req("shape")?)?,
        shapes: ShapeSet::with(&in_play),
        size: o.usize("size")?,
        encoding: o.variant(
            "encoding",
            o.req("encoding")?,
            &Encoding::ALL,
            &names!(Encoding),
        )?,
        symbols: o.symbols("symbols")?,
        vision: o.variant_or("vision", Vision::Text, &Vision::ALL, &names!(Vision))?,
        seed: o.u64("seed")?,
        sample: o.usize("sample")?,
        repeat: o.usize_or("repeat", 0)?,
        move_limit: o.usize("move_limit")?,
        protocol: o.variant_or(
            "protocol",
            Protocol::default(),
            &Protocol::ALL,
            &names!(Protocol),
        )?,
        system_prompt: o.opt_string("system_prompt")?,
        maze: o.strings("maze")?,
        messages,
        verdicts: PhaseVerdicts {
            solve: verdict_of("solve")?,
            recognize: verdict_of("recognize")?,
            generate: verdict_of("generate")?,
        },
        moves: o.usize("moves")?,
        valid_moves: o.usize("valid_moves")?,
        lenient: o.usize_or("lenient", 0)?,
        retried_moves: o.usize_or("retried_moves", 0)?,
        shortest_path: o.opt_usize("shortest_path")?,
        path: o
            .list("path")?
            .iter()
            .map(|v| {
                let p = o.obj("path", v)?;
                Read::Ok(Pos::new(p.usize("row")?, p.usize("col")?))
            })
            .collect::<Read<Vec<Pos>>>()?,
        failure: o.opt_variant("failure", &FailureKind::ALL, &names!(FailureKind))?,
        predicted_shape: o
            .opt("predicted_shape")
            .map(|v| shape("predicted_shape", v))
            .transpose()?,
        api_error: o.opt_obj("api_error", |e| {
            Ok(ApiFailure {
                kind: e.string("kind")?,
                message: e.string("message")?,
                attempts: e.u32("attempts")?,
            })
        })?,
        stopped: o.bool_or("stopped", false)?,
        started_ms: o.opt_f64("started_ms")?,
        ended_ms: o.opt_f64("ended_ms")?,
        staircase: o.opt_obj("staircase", |s| {
            Ok(StairStep {
                step: s.usize("step")?,
                level: s.usize("level")?,
                walk: s.opt_u64("walk")?.unwrap_or(0),
            })
        })?,
        versions: Versions {
            shapemaze: versions.string("shapemaze")?,
            prompt: versions.u32("prompt")?,
            verifier: versions.u32("verifier")?,
        },
    })
}

fn message(o: &Obj<'_>) -> Read<RecordMessage> {
    Ok(RecordMessage {
        role: o.variant(
            "role",
            o.req("role")?,
            &[Role::User, Role::Assistant],
            &["user", "assistant"],
        )?,
        content: o.string("content")?,
        latency_ms: o.opt_f64("latency_ms")?,
        prompt_tokens: o.opt_u64("prompt_tokens")?,
        completion_tokens: o.opt_u64("completion_tokens")?,
        reasoning_tokens: o.opt_u64("reasoning_tokens")?,
        total_tokens: o.opt_u64("total_tokens")?,
        finish_reason: o.opt_string("finish_reason")?,
        reasoning: o.opt_string("reasoning")?,
        logprobs: o
            .opt("logprobs")
            .map(|_| token_logprobs(o, "logprobs"))
            .transpose()?,
        attempts: o.opt_u32("attempts")?,
        streamed: o.opt_bool("streamed")?,
        empty_reason: o.opt_variant("empty_reason", &EmptyReason::ALL, &names!(EmptyReason))?,
        max_tokens: o.opt_u32("max_tokens")?,
        retried: o
            .list_or_empty("retried")?
            .iter()
            .map(|f| {
                let f = o.obj("retried", f)?;
                Read::Ok(FailedAttempt {
                    attempt: f.u32("attempt")?,
                    at_ms: f.f64("at_ms")?,
                    error: f.string("error")?,
                    wait_ms: f.u64("wait_ms")?,
                })
            })
            .collect::<Read<Vec<FailedAttempt>>>()?,
        verdict: o.opt_obj("verdict", verdict)?,
    })
}

/// The token log probabilities in list field `k` (missing: empty), each with its own
/// `top_logprobs`.
fn token_logprobs(o: &Obj<'_>, k: &str) -> Read<Vec<TokenLogprob>> {
    o.list_or_empty(k)?
        .iter()
        .map(|t| {
            let t = o.obj(k, t)?;
            Ok(TokenLogprob {
                token: t.string("token")?,
                logprob: t.f64("logprob")?,
                top_logprobs: token_logprobs(&t, "top_logprobs")?,
            })
        })
        .collect()
}

fn verdict(o: &Obj<'_>) -> Read<Verdict> {
    let reason = o.req("reason")?;
    let reason = reason
        .as_str()
        .and_then(Reason::from_name)
        .ok_or_else(|| o.wrong("reason", &format!("one of {}", Reason::NAMES.join(", "))))?;
    Ok(Verdict {
        outcome: o.variant(
            "outcome",
            o.req("outcome")?,
            &Outcome::ALL,
            &names!(Outcome),
        )?,
        reason,
        extracted: extracted(o.req("extracted")?)
            .map_err(|e| format!("field `{}`: {e}", o.name("extracted")))?,
        explanation: o.string("explanation")?,
        checks: o.opt_obj("checks", |c| {
            Ok(GenerationChecks {
                valid_encoding: c.bool("valid_encoding")?,
                same_size: c.bool("same_size")?,
                same_shape: c.bool("same_shape")?,
                novel: c.bool("novel")?,
                path_exists: c.bool("path_exists")?,
            })
        })?,
    })
}

/// What a verdict read from the reply, as [`Extracted`]'s own deserializer reads it.
fn extracted(v: &Value) -> Read<Extracted> {
    const WHAT: &str =
        "null, a [row, col] pair, a list of pairs, a shape's name or a list of matrix rows";
    match v {
        Value::Null => Ok(Extracted::Nothing),
        Value::String(s) => Shape::parse(s)
            .map(Extracted::Shape)
            .map_err(|e| e.to_string()),
        Value::Array(items) => {
            let items = items
                .iter()
                .map(|i| match i {
                    Value::Number(n) => n
                        .as_u64()
                        .map(|n| Item::Number(n as usize))
                        .ok_or_else(|| format!("coordinate {n} is not a whole number")),
                    Value::String(s) => Ok(Item::Row(s.clone())),
                    Value::Array(pair) => match pair.as_slice() {
                        [r, c] => match (r.as_u64(), c.as_u64()) {
                            (Some(r), Some(c)) => Ok(Item::Pair([r as usize, c as usize])),
                            _ => Err("a cell must be a [row, col] pair of two numbers".into()),
                        },
                        _ => Err("a cell must be a [row, col] pair of two numbers".into()),
                    },
                    _ => Err(format!(
                        "a coordinate, a [row, col] pair or a matrix row, not {i}"
                    )),
                })
                .collect::<Read<Vec<Item>>>()?;
            extracted_from_items(items)
        }
        _ => Err(WHAT.into()),
    }
}

fn endpoint(o: &Obj<'_>) -> Read<EndpointInfo> {
    Ok(EndpointInfo {
        preset: o.string("preset")?,
        base_url: o.string("base_url")?,
        model: o.string("model")?,
        temperature: o.f64("temperature")?,
        top_p: o.f64("top_p")?,
        max_tokens: o.u32("max_tokens")?,
        seed: o.opt_u64("seed")?,
        stream: o.bool("stream")?,
        logprobs: o.bool("logprobs")?,
        thinking: o.bool_or("thinking", false)?,
        effort: o.opt_variant("effort", &Effort::ALL, &names!(Effort))?,
        extra: o.or("extra", String::new(), Obj::string)?,
        price: o.opt_obj("price", price)?,
    })
}

/// A price per million tokens (`{input, output, reasoning}`).
pub(crate) fn price(p: &Obj<'_>) -> Read<Price> {
    Ok(Price {
        input: p.f64("input")?,
        output: p.f64("output")?,
        reasoning: p.opt_f64("reasoning")?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::model::reply::ReplyMeta;
    use crate::core::play::player::tests::trials;
    use crate::core::play::player::{play_ready, Oracle, RandomWalker, Scripted, VARIANTS};
    use crate::core::results::record::{PlayerInfo, RecordError};
    use serde_json::json;

    fn back(r: &TrialRecord) -> TrialRecord {
        TrialRecord::from_json(&r.to_json().expect("writes")).expect("reads back")
    }

    /// Records of every protocol and player kind, with every optional field filled in
    /// some of them.
    fn corpus() -> Vec<TrialRecord> {
        let mut out = Vec::new();
        for protocol in Protocol::ALL {
            for (i, mut t) in trials(protocol).into_iter().enumerate().step_by(7) {
                match i % 3 {
                    0 => play_ready(&mut t, &mut Oracle),
                    1 => play_ready(&mut t, &mut RandomWalker::new(i as u64)),
                    _ => {
                        let other = t.setup().maze.clone();
                        play_ready(&mut t, &mut Scripted::variant(i % VARIANTS, other))
                    }
                }
                let mut r = TrialRecord::of(
                    &t,
                    PlayerInfo::builtin(PlayerKind::Random),
                    Default::default(),
                    Some(1.5),
                    None,
                );
                if i % 2 == 0 {
                    r.endpoint = Some(EndpointInfo {
                        preset: "openai".into(),
                        base_url: "http://127.0.0.1:9/v1".into(),
                        model: "qwen".into(),
                        temperature: 0.7,
                        top_p: 1.0,
                        max_tokens: 512,
                        seed: Some(7),
                        stream: true,
                        logprobs: true,
                        thinking: i % 4 == 0,
                        effort: Some(Effort::ALL[i % Effort::ALL.len()]),
                        extra: "{\"enable_thinking\": false}".into(),
                        price: Some(Price {
                            input: 0.4,
                            output: 1.2,
                            reasoning: (i % 4 == 0).then_some(4.0),
                        }),
                    });
                    r.staircase = Some(StairStep {
                        step: i,
                        level: i % 5,
                        walk: i as u64 % 3,
                    });
                    r.shapes = ShapeSet::with(&[Shape::U, Shape::N]);
                    r.vision = Vision::ALL[i % 3];
                    r.system_prompt = Some("Be brief.".into());
                    r.api_error = (i % 4 == 0).then(|| ApiFailure {
                        kind: "rate_limited".into(),
                        message: "429".into(),
                        attempts: 6,
                    });
                    r.stopped = i % 8 == 0;
                    r.lenient = 2;
                    r.retried_moves = 1;
                    if let Some(m) = r.messages.iter_mut().find(|m| m.role == Role::Assistant) {
                        *m = RecordMessage::new(
                            m.role,
                            m.content.clone(),
                            ReplyMeta {
                                latency_ms: Some(812.25),
                                prompt_tokens: Some(120),
                                completion_tokens: Some(9),
                                reasoning_tokens: Some(3),
                                total_tokens: Some(129),
                                finish_reason: Some("stop".into()),
                                reasoning: Some("Down is open.".into()),
                                logprobs: Some(vec![TokenLogprob {
                                    token: "(".into(),
                                    logprob: -0.25,
                                    top_logprobs: vec![
                                        TokenLogprob {
                                            token: "(".into(),
                                            logprob: -0.25,
                                            top_logprobs: Vec::new(),
                                        },
                                        TokenLogprob {
                                            token: "[".into(),
                                            logprob: -1.5,
                                            top_logprobs: Vec::new(),
                                        },
                                    ],
                                }]),
                                attempts: Some(2),
                                streamed: Some(false),
                                empty_reason: Some(EmptyReason::ALL[i % 3]),
                                max_tokens: Some(512),
                                retried: vec![FailedAttempt {
                                    attempt: 1,
                                    at_ms: 10.5,
                                    error: "HTTP 429".into(),
                                    wait_ms: 2000,
                                }],
                            },
                            m.verdict.clone(),
                        );
                    }
                }
                out.push(r);
            }
        }
        out
    }

    #[test]
    fn every_kind_of_record_written_reads_back_the_same() {
        let corpus = corpus();
        assert!(corpus.len() >= 30, "{}", corpus.len());
        let extracted = |r: &TrialRecord, want: fn(&Extracted) -> bool| {
            r.messages
                .iter()
                .filter_map(|m| m.verdict.as_ref())
                .any(|v| want(&v.extracted))
        };
        // The corpus holds every form of what a verdict extracted.
        for want in [
            (|e: &Extracted| matches!(e, Extracted::Nothing)) as fn(&Extracted) -> bool,
            |e| matches!(e, Extracted::Cell(_)),
            |e| matches!(e, Extracted::Cells(_)),
            |e| matches!(e, Extracted::Shape(_)),
            |e| matches!(e, Extracted::Grid(_)),
        ] {
            assert!(corpus.iter().any(|r| extracted(r, want)));
        }
        assert!(corpus.iter().any(|r| r
            .verdicts
            .generate
            .as_ref()
            .is_some_and(|v| v.checks.is_some())));
        for r in &corpus {
            assert_eq!(&back(r), r);
            // Inside another type, through serde (a study's trial data).
            let wrapped = json!({ "record": r });
            #[derive(serde::Deserialize)]
            struct Holder {
                record: TrialRecord,
            }
            let h: Holder = serde_json::from_value(wrapped).expect("reads inside");
            assert_eq!(&h.record, r);
        }
    }

    /// A record as an early version wrote it: no repeat, protocol, symbols, shapes,
    /// vision, lenient, stopped or staircase, and `null` where a value is optional.
    fn early() -> Value {
        let mut t = trials(Protocol::Stepwise).remove(0);
        play_ready(&mut t, &mut Oracle);
        let r = TrialRecord::of(
            &t,
            PlayerInfo::builtin(PlayerKind::Oracle),
            Default::default(),
            None,
            None,
        );
        let mut v = serde_json::to_value(&r).expect("a value");
        let o = v.as_object_mut().expect("an object");
        for k in [
            "repeat",
            "protocol",
            "stopped",
            "started_ms",
            "ended_ms",
            "lenient",
        ] {
            o.remove(k);
        }
        o.insert("system_prompt".into(), Value::Null);
        o.insert("unknown_later_field".into(), json!({"kept": "ignored"}));
        v
    }

    #[test]
    fn an_early_record_reads_with_the_defaults() {
        let r = record(&early()).expect("reads");
        assert_eq!(r.repeat, 0);
        assert_eq!(r.protocol, Protocol::Stepwise);
        assert!(!r.stopped);
        assert_eq!(r.system_prompt, None);
        assert_eq!(r.symbols, Symbols::STANDARD);
        assert_eq!(r.vision, Vision::Text);
        assert_eq!(r.shapes, ShapeSet::STANDARD);
        assert_eq!(r.staircase, None);
        assert!(r.verdicts.solve.is_some());
    }

    #[test]
    fn a_record_that_is_not_one_is_refused_naming_the_field_and_its_place() {
        type Break = Box<dyn Fn(&mut Value)>;
        let cases: Vec<(Break, &str)> = vec![
            (
                Box::new(|v| drop(v.as_object_mut().map(|o| o.remove("model")))),
                "missing field `model`",
            ),
            (
                Box::new(|v| v["size"] = json!("five")),
                "field `size`: expected a whole number",
            ),
            (
                Box::new(|v| v["size"] = json!(-5)),
                "field `size`: expected a whole number",
            ),
            (
                Box::new(|v| v["shape"] = json!("hexagon")),
                "field `shape`: unknown variant `hexagon`, expected one of `square`",
            ),
            (
                Box::new(|v| v["messages"][1]["role"] = json!("system")),
                "field `messages[1].role`: unknown variant `system`",
            ),
            (
                Box::new(|v| v["messages"][1]["verdict"]["reason"] = json!("lucky")),
                "field `messages[1].verdict.reason`: expected one of valid_move",
            ),
            (
                Box::new(|v| v["verdicts"]["solve"]["extracted"] = json!([[1, 2, 3]])),
                "field `verdicts.solve.extracted`: a cell must be a [row, col] pair",
            ),
            (
                Box::new(|v| v["versions"] = json!({"shapemaze": "0.1", "prompt": 2})),
                "missing field `versions.verifier`",
            ),
            (
                Box::new(|v| v["staircase"] = json!({"step": 1})),
                "missing field `staircase.level`",
            ),
            (
                Box::new(|v| v["symbols"] = json!("@@@@")),
                "field `symbols`: ",
            ),
            (
                Box::new(|v| v["messages"] = json!({})),
                "field `messages`: expected a list",
            ),
            (
                Box::new(|v| *v = json!([1, 2])),
                "the record: expected an object",
            ),
        ];
        for (break_it, needle) in cases {
            let mut v = early();
            break_it(&mut v);
            let e = record(&v).expect_err(needle);
            assert!(e.contains(needle), "{needle}: {e}");
            let text = v.to_string();
            let e = TrialRecord::from_json(&text).expect_err(needle);
            assert!(
                matches!(&e, RecordError::NotARecord(m) if m.contains(needle)),
                "{needle}: {e}"
            );
            assert!(e.to_string().starts_with("not a trial record: "), "{e}");
        }
    }
}
