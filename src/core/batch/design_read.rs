//! Reading an experiment design from its JSON through `serde_json::Value` and the record
//! reader's field accessors ([`crate::core::results::read`]), instead of serde's derived
//! visitors: the browser build is smaller by the visitors of the design, its players and
//! their prices, imported mazes and staircase (docs/size.md).
//!
//! The rules are serde's for these types, as the derive read them: a missing field with a
//! default takes it, a missing `Option` or `null` is `None`, a missing required field or a
//! value of the wrong type is an error naming the field and its place
//! (`players[1].temperature`), enums go by their exact names. Fields this version does not
//! know are kept in `other` natively, so a design written by a newer version survives a
//! round trip; the browser build drops them, as before (its designs are written without
//! `other`, and a design read back must equal the one written). Designs are written by
//! serde's `Serialize`; the tests read back every field written.

use super::design::{ExperimentDesign, PlayerSpec};
use crate::core::batch::imported::ImportedMaze;
use crate::core::maze::encoding::Encoding;
use crate::core::maze::image::Vision;
use crate::core::maze::shape::Shape;
use crate::core::model::effort::Effort;
use crate::core::play::player::PlayerKind;
use crate::core::play::staircase::{StairPhase, Staircase};
use crate::core::play::trial::Protocol;
use crate::core::results::read::{names, price, Obj, Read};
use serde_json::Value;

/// The fields a design has (the rest go to `other`).
#[cfg(not(target_arch = "wasm32"))]
const FIELDS: [&str; 20] = [
    "name",
    "players",
    "encodings",
    "shapes",
    "size",
    "sizes",
    "samples_per_shape",
    "repeats",
    "seed",
    "protocol",
    "concurrency",
    "requests_per_minute",
    "move_limit",
    "mazes",
    "cost_limit",
    "efforts",
    "symbols",
    "lenient",
    "vision",
    "staircase",
];

/// Each item of list field `k` read by `read` with its place (`k[i]`).
fn each<'a, T>(
    o: &Obj<'a>,
    k: &str,
    list: &'a [Value],
    read: impl Fn(&Value, &str) -> Read<T>,
) -> Read<Vec<T>> {
    list.iter()
        .enumerate()
        .map(|(i, v)| read(v, &format!("{}[{i}]", o.name(k))))
        .collect()
}

/// A list of names of `all` in field `k`.
fn variants<T: Copy>(
    o: &Obj<'_>,
    k: &str,
    list: &[Value],
    all: &[T],
    names: &[&str],
) -> Read<Vec<T>> {
    list.iter().map(|v| o.variant(k, v, all, names)).collect()
}

/// Reads a design from its JSON value (see the module documentation).
pub(crate) fn design(v: &Value) -> Read<ExperimentDesign> {
    let o = Obj::of(v, String::new())?;
    let shapes = names!(Shape);
    // The defaults of the fields that have one.
    let d = ExperimentDesign::default();
    Ok(ExperimentDesign {
        name: o.or("name", String::new(), Obj::string)?,
        players: each(&o, "players", o.list("players")?, |v, at| {
            player(&Obj::of(v, at.to_string())?)
        })?,
        encodings: variants(
            &o,
            "encodings",
            o.list("encodings")?,
            &Encoding::ALL,
            &names!(Encoding),
        )?,
        shapes: variants(&o, "shapes", o.list("shapes")?, &Shape::ALL, &shapes)?,
        size: o.usize_or("size", d.size)?,
        sizes: o
            .opt("sizes")
            .map(|v| {
                let list = v.as_array().ok_or_else(|| o.wrong("sizes", "a list"))?;
                list.iter()
                    .map(|n| o.whole("sizes", n, usize::MAX as u64).map(|n| n as usize))
                    .collect()
            })
            .transpose()?,
        samples_per_shape: o.usize_or("samples_per_shape", d.samples_per_shape)?,
        repeats: o.usize_or("repeats", d.repeats)?,
        seed: o.or("seed", d.seed, Obj::u64)?,
        protocol: o.variant_or("protocol", d.protocol, &Protocol::ALL, &names!(Protocol))?,
        concurrency: o.usize_or("concurrency", d.concurrency)?,
        requests_per_minute: o.opt_u32("requests_per_minute")?,
        move_limit: o.usize_or("move_limit", d.move_limit)?,
        mazes: o
            .opt("mazes")
            .map(|v| {
                let list = v.as_array().ok_or_else(|| o.wrong("mazes", "a list"))?;
                each(&o, "mazes", list, |v, at| {
                    let m = Obj::of(v, at.to_string())?;
                    Ok(ImportedMaze {
                        shape: m.variant("shape", m.req("shape")?, &Shape::ALL, &shapes)?,
                        size: m.usize("size")?,
                        index: m.usize("index")?,
                        rows: m.strings("rows")?,
                    })
                })
            })
            .transpose()?,
        cost_limit: o.opt_f64("cost_limit")?,
        efforts: variants(
            &o,
            "efforts",
            o.list_or_empty("efforts")?,
            &Effort::ALL,
            &names!(Effort),
        )?,
        symbols: o.symbols("symbols")?,
        lenient: o.usize_or("lenient", d.lenient)?,
        vision: o.variant_or("vision", d.vision, &Vision::ALL, &names!(Vision))?,
        staircase: o.opt_obj("staircase", |s| {
            Ok(Staircase {
                trials: s.usize("trials")?,
                start: s.usize_or("start", 0)?,
                phase: s.variant_or(
                    "phase",
                    StairPhase::default(),
                    &StairPhase::ALL,
                    &names!(StairPhase),
                )?,
            })
        })?,
        #[cfg(not(target_arch = "wasm32"))]
        other: o
            .map
            .iter()
            .filter(|(k, _)| !FIELDS.contains(&k.as_str()))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect(),
        #[cfg(target_arch = "wasm32")]
        other: Default::default(),
    })
}

/// One player of a design.
fn player(p: &Obj<'_>) -> Read<PlayerSpec> {
    let defaults = PlayerSpec::builtin(PlayerKind::Oracle);
    Ok(PlayerSpec {
        kind: p.variant(
            "kind",
            p.req("kind")?,
            &PlayerKind::ALL,
            &names!(PlayerKind),
        )?,
        name: p.opt_string("name")?,
        preset: p.or("preset", defaults.preset, Obj::string)?,
        base_url: p.or("base_url", String::new(), Obj::string)?,
        model: p.or("model", String::new(), Obj::string)?,
        key_env: p.opt_string("key_env")?,
        temperature: p.or("temperature", defaults.temperature, Obj::f64)?,
        top_p: p.or("top_p", defaults.top_p, Obj::f64)?,
        max_tokens: p.or("max_tokens", defaults.max_tokens, Obj::u32)?,
        seed: p.opt_u64("seed")?,
        timeout_ms: p.or("timeout_ms", defaults.timeout_ms, Obj::u64)?,
        stream: p.bool_or("stream", defaults.stream)?,
        logprobs: p.bool_or("logprobs", false)?,
        thinking: p.bool_or("thinking", false)?,
        effort: p.opt_variant("effort", &Effort::ALL, &names!(Effort))?,
        extra: p.or("extra", String::new(), Obj::string)?,
        max_attempts: p.or("max_attempts", defaults.max_attempts, Obj::u32)?,
        max_wait_ms: p.or("max_wait_ms", defaults.max_wait_ms, Obj::u64)?,
        concurrency: p.opt_usize("concurrency")?,
        price: p.opt_obj("price", price)?,
    })
}

#[cfg(test)]
mod tests {
    use crate::core::batch::design::{ExperimentDesign, PlayerSpec};
    use crate::core::batch::imported::ImportedMaze;
    use crate::core::maze::image::Vision;
    use crate::core::maze::shape::Shape;
    use crate::core::maze::symbols::Symbols;
    use crate::core::model::effort::Effort;
    use crate::core::model::price::Price;
    use crate::core::play::player::PlayerKind;
    use crate::core::play::staircase::{StairPhase, Staircase};
    use crate::core::play::trial::Protocol;
    use serde_json::{json, Value};

    /// A change to a JSON value.
    type Change = Box<dyn Fn(&mut Value)>;

    fn read(v: Value) -> Result<ExperimentDesign, String> {
        super::design(&v)
    }

    /// A design with every field away from its default.
    fn full() -> ExperimentDesign {
        let endpoint = PlayerSpec {
            name: Some("qwen low".into()),
            preset: "dashscope-intl".into(),
            temperature: 0.0,
            top_p: 0.5,
            max_tokens: 300,
            seed: Some(11),
            timeout_ms: 9000,
            stream: !PlayerSpec::builtin(PlayerKind::Oracle).stream,
            logprobs: true,
            thinking: true,
            effort: Some(Effort::Low),
            extra: "{\"top_k\": 20}".into(),
            max_attempts: 3,
            max_wait_ms: 1000,
            concurrency: Some(2),
            price: Some(Price {
                input: 0.4,
                output: 1.2,
                reasoning: Some(4.0),
            }),
            ..PlayerSpec::endpoint("http://127.0.0.1:9/v1", "qwen3-8b", Some("KEY"))
        };
        ExperimentDesign {
            name: "every field".into(),
            players: vec![PlayerSpec::builtin(PlayerKind::Random), endpoint],
            encodings: vec![crate::core::maze::encoding::Encoding::CoordList],
            shapes: vec![Shape::Z, Shape::Square],
            size: 7,
            sizes: Some(vec![5, 7]),
            samples_per_shape: 3,
            repeats: 2,
            seed: 99,
            protocol: Protocol::Combined,
            concurrency: 1,
            requests_per_minute: Some(30),
            move_limit: 20,
            mazes: Some(vec![ImportedMaze {
                shape: Shape::Square,
                size: 5,
                index: 4,
                rows: vec!["1 1 1 1 1".into(), "1 P 0 G 1".into()],
            }]),
            cost_limit: Some(2.5),
            efforts: vec![Effort::NoThinking, Effort::High],
            symbols: Symbols::parse("@ * S E").expect("a set"),
            lenient: 2,
            vision: Vision::Image,
            staircase: Some(Staircase {
                trials: 6,
                start: 1,
                phase: StairPhase::All,
            }),
            other: [("from_a_newer_version".to_string(), json!({"x": [1, 2]}))]
                .into_iter()
                .collect(),
        }
    }

    #[test]
    fn every_field_written_reads_back() {
        let d = full();
        let v: Value = serde_json::from_str(&d.to_json()).expect("json");
        assert_eq!(read(v).expect("reads"), d);
        let standard = ExperimentDesign::default();
        let v: Value = serde_json::from_str(&standard.to_json()).expect("json");
        assert_eq!(read(v).expect("reads"), standard);
    }

    #[test]
    fn a_short_design_takes_the_defaults_and_null_options_are_none() {
        let d = read(json!({
            "players": [{"kind": "endpoint", "model": "m", "seed": null, "price": null}],
            "encodings": ["matrix"], "shapes": ["C"],
            "sizes": null, "mazes": null, "staircase": null, "cost_limit": null,
            "requests_per_minute": null
        }))
        .expect("reads");
        let standard = ExperimentDesign::default();
        assert_eq!(
            d,
            ExperimentDesign {
                players: vec![PlayerSpec::endpoint("", "m", None)],
                encodings: vec![crate::core::maze::encoding::Encoding::Matrix],
                shapes: vec![Shape::C],
                ..standard
            }
        );
        let s = read(
            json!({"players": [{"kind": "oracle"}], "encodings": ["matrix"],
            "shapes": ["C"], "staircase": {"trials": 4}}),
        )
        .expect("reads");
        assert_eq!(
            s.staircase,
            Some(Staircase {
                trials: 4,
                start: 0,
                phase: StairPhase::Solve
            })
        );
    }

    #[test]
    fn what_is_wrong_is_named_with_its_place() {
        let base = || {
            json!({"players": [{"kind": "oracle"}, {"kind": "endpoint", "model": "m"}],
                "encodings": ["matrix"], "shapes": ["square"]})
        };
        let cases: Vec<(Change, &str)> = vec![
            (
                Box::new(|v| {
                    v.as_object_mut().map(|o| o.remove("players"));
                }),
                "missing field `players`",
            ),
            (
                Box::new(|v| v["players"][1]["temperature"] = json!("hot")),
                "field `players[1].temperature`: expected a number",
            ),
            (
                Box::new(|v| v["players"][0]["kind"] = json!("wizard")),
                "field `players[0].kind`: unknown variant `wizard`",
            ),
            (
                Box::new(|v| v["shapes"] = json!(["square", "hexagon"])),
                "field `shapes`: unknown variant `hexagon`",
            ),
            (
                Box::new(|v| v["size"] = json!(5.5)),
                "field `size`: expected a whole number",
            ),
            (
                Box::new(|v| v["name"] = Value::Null),
                "field `name`: expected a string",
            ),
            (
                Box::new(|v| v["symbols"] = json!("@ @ S E")),
                "field `symbols`: the matrix symbols '@ @ S E'",
            ),
            (
                Box::new(|v| {
                    v["mazes"] = json!([{"shape": "square", "size": 5, "index": 0, "rows": [1]}])
                }),
                "field `mazes[0].rows`: expected a list of strings",
            ),
            (
                Box::new(|v| v["staircase"] = json!({"start": 1})),
                "missing field `staircase.trials`",
            ),
            (
                Box::new(|v| v["players"][1]["price"] = json!({"input": 1})),
                "missing field `players[1].price.output`",
            ),
            (
                Box::new(|v| v["efforts"] = json!(["deep"])),
                "field `efforts`: unknown variant `deep`",
            ),
            (Box::new(|v| *v = json!([1, 2])), "expected an object"),
        ];
        for (change, said) in cases {
            let mut v = base();
            change(&mut v);
            let err = read(v.clone()).expect_err("refused");
            assert!(err.contains(said), "{v}: {err}");
        }
        read(base()).expect("the base design reads");
    }
}
