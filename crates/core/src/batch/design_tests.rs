//! Designs read by serde's derive: every field written reads back, a short design takes
//! the defaults, and what is wrong is named with its place.

use crate::batch::design::{ExperimentDesign, PlayerSpec};
use crate::batch::imported::ImportedMaze;
use crate::json::JsonError;
use crate::maze::image::Vision;
use crate::maze::shape::Shape;
use crate::maze::symbols::Symbols;
use crate::model::effort::Effort;
use crate::model::form::Spelling;
use crate::model::price::Price;
use crate::play::answer::AnswerMode;
use crate::play::player::PlayerKind;
use crate::play::staircase::{StairPhase, Staircase};
use crate::play::trial::Protocol;
use serde_json::{json, Value};

/// A change to a JSON value.
type Change = Box<dyn Fn(&mut Value)>;

fn read(v: Value) -> Result<ExperimentDesign, JsonError> {
    crate::json::from_str(&v.to_string())
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
        answer_form: Some(Spelling::JsonObject),
        transcriber: Some("qwen-turbo".into()),
        ..PlayerSpec::endpoint("http://127.0.0.1:9/v1", "qwen3-8b", Some("KEY"))
    };
    ExperimentDesign {
        name: "every field".into(),
        players: vec![PlayerSpec::builtin(PlayerKind::Random), endpoint],
        encodings: vec![crate::maze::encoding::Encoding::CoordList],
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
        answer_modes: vec![AnswerMode::Transcribed, AnswerMode::Free],
        other: [("from_a_newer_version".to_string(), json!({"x": [1, 2]}))]
            .into_iter()
            .collect(),
    }
}

#[test]
fn every_field_written_reads_back() {
    let d = full();
    let v: Value = serde_json::from_str(&d.to_json().expect("written")).expect("json");
    assert_eq!(read(v).expect("reads"), d);
    let standard = ExperimentDesign::default();
    let v: Value = serde_json::from_str(&standard.to_json().expect("written")).expect("json");
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
            encodings: vec![crate::maze::encoding::Encoding::Matrix],
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
            "field `players[1].temperature`: invalid type: string \"hot\", expected f64",
        ),
        (
            Box::new(|v| v["players"][0]["kind"] = json!("wizard")),
            "field `players[0].kind`: unknown variant `wizard`",
        ),
        (
            Box::new(|v| v["shapes"] = json!(["square", "hexagon"])),
            "field `shapes[1]`: unknown variant `hexagon`",
        ),
        (
            Box::new(|v| v["size"] = json!(5.5)),
            "field `size`: invalid type: floating point `5.5`, expected usize",
        ),
        (
            Box::new(|v| v["name"] = Value::Null),
            "field `name`: invalid type: null, expected a string",
        ),
        (
            Box::new(|v| v["symbols"] = json!("@ @ S E")),
            "field `symbols`: the matrix symbols '@ @ S E'",
        ),
        (
            Box::new(|v| {
                v["mazes"] = json!([{"shape": "square", "size": 5, "index": 0, "rows": [1]}])
            }),
            "field `mazes[0].rows[0]`: invalid type: integer `1`, expected a string",
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
            "field `efforts[0]`: unknown variant `deep`",
        ),
        (
            Box::new(|v| *v = json!([1, 2])),
            "invalid type: sequence, expected struct ExperimentDesign",
        ),
    ];
    for (change, said) in cases {
        let mut v = base();
        change(&mut v);
        let err = read(v.clone()).expect_err("refused").to_string();
        assert!(err.contains(said), "{v}: {err}");
    }
    read(base()).expect("the base design reads");
}

#[test]
fn a_design_of_two_answer_modes_plays_each_maze_of_its_models_in_each_and_its_built_in_players_once(
) {
    let mut d = ExperimentDesign {
        players: vec![
            PlayerSpec::builtin(PlayerKind::Oracle),
            PlayerSpec::endpoint("http://127.0.0.1:9/v1", "qwen", None),
        ],
        samples_per_shape: 2,
        answer_modes: vec![AnswerMode::Free, AnswerMode::Schema],
        ..ExperimentDesign::default()
    };
    assert_eq!(d.validate(), Ok(()));
    let keys = d.trials();
    let of = |player: &str, mode| {
        keys.iter()
            .filter(|k| k.player == player && k.answer_mode == mode)
            .count()
    };
    let per_mode = 2 * 6 * 2; // mazes x shapes x encodings
    assert_eq!(
        (of("qwen", AnswerMode::Free), of("qwen", AnswerMode::Schema)),
        (per_mode, per_mode)
    );
    assert_eq!(
        (
            of("oracle", AnswerMode::Free),
            of("oracle", AnswerMode::Schema)
        ),
        (per_mode, 0),
        "built-in players answer freely, once"
    );
    let ids: Vec<String> = keys.iter().map(|k| k.id()).collect();
    assert!(
        ids.contains(&"qwen/matrix+schema/5x5/square/0/0".to_string()),
        "{:?}",
        &ids[..4]
    );
    assert!(
        ids.contains(&"qwen/matrix/5x5/square/0/0".to_string()),
        "free ids are unchanged"
    );
    assert_eq!(
        ids.len(),
        ids.iter().collect::<std::collections::BTreeSet<_>>().len(),
        "every id once"
    );
    let setup = d.setup_for(
        &keys[1],
        d.maze_for(&keys[1], &crate::maze::templates::TemplateLibrary::new(5))
            .expect("a maze"),
    );
    assert_eq!(
        setup.answer_mode, keys[1].answer_mode,
        "the trial is set up in its mode"
    );
    // The file says so, and free alone is the design's own, written as nothing.
    let text = d.to_json().expect("written");
    assert!(
        text.contains("\"answer_modes\": [\n    \"free\",\n    \"schema\""),
        "{text}"
    );
    d.answer_modes = vec![AnswerMode::Free];
    assert!(!d.to_json().expect("written").contains("answer_modes"));
    // A mode twice, modes without a model to play them, or with a staircase are refused.
    for (bad, why) in [
        (
            ExperimentDesign {
                answer_modes: vec![AnswerMode::Tool, AnswerMode::Tool],
                ..d.clone()
            },
            "each mode once",
        ),
        (
            ExperimentDesign {
                answer_modes: vec![AnswerMode::Tool],
                players: vec![PlayerSpec::builtin(PlayerKind::Oracle)],
                ..d.clone()
            },
            "apply to model endpoints",
        ),
        (
            ExperimentDesign {
                answer_modes: vec![AnswerMode::Schema],
                staircase: Some(Staircase {
                    trials: 4,
                    start: 0,
                    phase: StairPhase::Solve,
                }),
                ..d.clone()
            },
            "staircase walks in the free answer mode only",
        ),
    ] {
        let e = bad.validate().expect_err(why);
        assert!(
            e.problems.iter().any(|p| p.contains(why)),
            "{why}: {:?}",
            e.problems
        );
    }
}
