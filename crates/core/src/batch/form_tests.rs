//! The design form's tests (a child module of `form`, kept apart for the file's length).

use super::*;

#[test]
fn the_form_and_the_validator_share_their_limits() {
    let d = ExperimentDesign::default();
    for (set, field, max) in [
        (0usize, "samples", MAX_SAMPLES_PER_SHAPE),
        (1, "repeats", MAX_REPEATS),
        (2, "move limit", MAX_MOVE_LIMIT),
    ] {
        for n in [max, max + 1] {
            let mut form = DesignForm::of(&d);
            let mut file = d.clone();
            match set {
                0 => (form.samples, file.samples_per_shape) = (n.to_string(), n),
                1 => (form.repeats, file.repeats) = (n.to_string(), n),
                _ => (form.move_limit, file.move_limit) = (n.to_string(), n),
            }
            assert_eq!(
                form.design(&d).is_ok(),
                file.validate().is_ok(),
                "{field} {n}: the form and a design file agree"
            );
            assert_eq!(file.validate().is_ok(), n == max, "{field} {n}");
        }
    }
}

#[test]
fn a_design_survives_the_form_with_models_and_every_setting() {
    let mut d = ExperimentDesign {
        name: "Qwen <three> sizes".into(),
        ..ExperimentDesign::default()
    };
    let mut qwen = PlayerSpec::endpoint("/proxy/dashscope-intl", "qwen-plus", None);
    qwen.preset = "dashscope-intl".into();
    qwen.temperature = 0.25;
    qwen.concurrency = Some(8);
    qwen.price = Some(Price {
        input: 0.4,
        output: 1.2,
        reasoning: Some(4.0),
    });
    d.players.push(qwen);
    d.cost_limit = Some(12.5);
    d.sizes = Some(vec![5, 7]);
    d.shapes = vec![Shape::Cross, Shape::Z];
    d.encodings = vec![Encoding::CoordList];
    d.samples_per_shape = 3;
    d.repeats = 2;
    d.seed = 99;
    d.protocol = Protocol::Combined;
    d.requests_per_minute = Some(120);
    d.concurrency = 2;
    d.move_limit = 20;
    let form = DesignForm::of(&d);
    assert_eq!(form.design(&d).expect("read back"), d);
    // Read against the default (no base): the form alone carries the design.
    assert_eq!(
        form.design(&ExperimentDesign::default())
            .expect("read back"),
        d
    );
}

#[test]
fn prices_and_the_cost_limit_are_read_as_typed_and_refused_with_what_to_type() {
    assert_eq!(read_price(""), Ok(None));
    assert_eq!(
        read_price("$0.40 / $1.20"),
        Ok(Some(Price {
            input: 0.4,
            output: 1.2,
            reasoning: None
        }))
    );
    assert_eq!(
        read_price("0.4, 1.2, 4").map(|p| p.and_then(|p| p.reasoning)),
        Ok(Some(4.0))
    );
    for bad in ["cheap", "0.4", "1, 2, 3, 4", "-1, 2"] {
        assert!(read_price(bad).is_err(), "{bad}");
    }
    let mut form = DesignForm::of(&ExperimentDesign::default());
    form.players[0] = PlayerRow {
        kind: "endpoint".into(),
        ..PlayerRow::default()
    };
    form.players[0].fill_defaults();
    form.players[0].price = "free".into();
    form.cost_limit = "-2".into();
    let e = form
        .design(&ExperimentDesign::default())
        .expect_err("refused");
    let text = e.sentences();
    assert!(
        text.contains("Player 1: its price must be dollars per million tokens"),
        "{text}"
    );
    assert!(
        text.contains("Cost limit must be dollars above zero"),
        "{text}"
    );
    // A limit with no price anywhere cannot be kept.
    form.players[0].price.clear();
    form.cost_limit = "5".into();
    let e = form
        .design(&ExperimentDesign::default())
        .expect_err("refused");
    assert!(e.sentences().contains("a cost limit needs a price"), "{e}");
    form.players[0].price = "0.4, 1.2".into();
    let d = form.design(&ExperimentDesign::default()).expect("a design");
    assert_eq!(d.cost_limit, Some(5.0));
    assert_eq!(d.players[0].price.map(|p| p.output), Some(1.2));
}

/// The pairs a browser's `FormData` would list for `form` (a checkbox only when
/// ticked; the endpoint fields only on endpoint rows).
fn pairs(form: &DesignForm) -> Vec<(String, String)> {
    let mut out = vec![("name".to_string(), form.name.clone())];
    let mut row = |r: Option<usize>, p: &PlayerRow| {
        let mut push = |k: &str, v: &str| out.push((DesignForm::field_name(r, k), v.into()));
        push("kind", &p.kind);
        push("name", &p.name);
        if p.player_kind() == PlayerKind::Endpoint {
            for (k, v) in [
                ("preset", &p.preset),
                ("base_url", &p.base_url),
                ("model", &p.model),
                ("key", &p.key),
                ("temperature", &p.temperature),
                ("max_tokens", &p.max_tokens),
                ("price", &p.price),
            ] {
                push(k, v);
            }
            if p.stream {
                push("stream", "on");
            }
        }
        push("concurrency", &p.concurrency);
    };
    for (i, p) in form.players.iter().enumerate() {
        row(Some(i), p);
    }
    row(None, &form.new);
    for s in &form.shapes {
        out.push(("shape".into(), s.clone()));
    }
    for e in &form.encodings {
        out.push(("encoding".into(), e.clone()));
    }
    for e in &form.efforts {
        out.push(("effort".into(), e.clone()));
    }
    for m in &form.answer_modes {
        out.push(("answer_mode".into(), m.clone()));
    }
    for (k, v) in [
        ("symbols", &form.symbols),
        ("sizes", &form.sizes),
        ("samples", &form.samples),
        ("repeats", &form.repeats),
        ("seed", &form.seed),
        ("move_limit", &form.move_limit),
        ("lenient", &form.lenient),
        ("cost_limit", &form.cost_limit),
        ("concurrency", &form.concurrency),
        ("rpm", &form.rpm),
        ("protocol", &form.protocol),
        ("vision", &form.vision),
        ("staircase", &form.staircase),
        ("staircase_start", &form.staircase_start),
        ("staircase_phase", &form.staircase_phase),
    ] {
        out.push((k.into(), format!(" {v} ")));
    }
    out
}

#[test]
fn the_designs_shape_order_is_kept_and_new_shapes_go_last() {
    // A staircase's ladder goes by it: a loaded [Z, square] stays so on the page.
    let d = ExperimentDesign {
        shapes: vec![Shape::Z, Shape::Square],
        ..ExperimentDesign::default()
    };
    let mut form = DesignForm::of(&d);
    assert_eq!(
        form.design(&d).map(|x| x.shapes),
        Ok(vec![Shape::Z, Shape::Square])
    );
    form.shapes = vec!["square".into(), "cross".into(), "Z".into()];
    assert_eq!(
        form.design(&d).map(|x| x.shapes),
        Ok(vec![Shape::Z, Shape::Square, Shape::Cross])
    );
    form.shapes = vec!["cross".into(), "Z".into()];
    assert_eq!(
        form.design(&d).map(|x| x.shapes),
        Ok(vec![Shape::Z, Shape::Cross])
    );
}

#[test]
fn the_pages_fields_are_read_into_the_form_they_came_from() {
    let mut d = ExperimentDesign::default();
    d.players
        .push(PlayerSpec::endpoint("http://127.0.0.1:9/v1", "m", None));
    d.efforts = vec![Effort::Low, Effort::NoThinking];
    d.symbols = Symbols::parse("@*SE").expect("a set");
    d.lenient = 2;
    let mut form = DesignForm::of(&d);
    form.players[1].key = "sk-test".into();
    let read = DesignForm::from_fields(&pairs(&form));
    assert_eq!(read.design(&d), Ok(d.clone()), "the design comes back");
    // The oracle row's endpoint fields are not on the page.
    let mut expected = form.clone();
    expected.players[0] = PlayerRow {
        kind: "oracle".into(),
        ..PlayerRow::default()
    };
    assert_eq!(read, expected, "values trimmed, rows in order, keys kept");
    assert_eq!(DesignForm::field_name(Some(3), "model"), "p3.model");
    assert_eq!(DesignForm::field_name(None, "key"), "new.key");
    // The vision condition comes back too (its images mark P and G, so it goes with
    // the standard symbols), and a name that is none is refused with the choices.
    d.symbols = Symbols::STANDARD;
    d.vision = Vision::ImageAndText;
    let form = DesignForm::of(&d);
    assert_eq!(form.vision, "image+text");
    let read = DesignForm::from_fields(&pairs(&form));
    assert_eq!(read.design(&d), Ok(d.clone()), "the vision comes back");
    let mut bad = form.clone();
    bad.vision = "picture".into();
    let e = bad.design(&d).expect_err("refused").sentences();
    // A staircase comes back, and 0 trials is none.
    let mut stairs = d.clone();
    stairs.staircase = Some(Staircase {
        trials: 12,
        start: 1,
        phase: StairPhase::All,
    });
    let form = DesignForm::of(&stairs);
    assert_eq!(
        (form.staircase.as_str(), form.staircase_phase.as_str()),
        ("12", "all")
    );
    let read = DesignForm::from_fields(&pairs(&form));
    assert_eq!(
        read.design(&d),
        Ok(stairs.clone()),
        "the staircase comes back"
    );
    let mut none = form.clone();
    none.staircase = "0".into();
    assert_eq!(none.design(&stairs).map(|x| x.staircase), Ok(None));
    let mut wrong = form.clone();
    wrong.staircase_phase = "both".into();
    wrong.staircase = "many".into();
    let why = wrong.design(&d).expect_err("refused").sentences();
    assert!(why.contains("solve, recognize, generate or all"), "{why}");
    assert!(why.contains("Staircase trials per walk"), "{why}");
    assert!(
        e.contains("Shown as") && e.contains("text, image or image+text"),
        "{e}"
    );
}

#[test]
fn bad_values_are_each_named_with_what_to_change() {
    let d = ExperimentDesign::default();
    let mut f = DesignForm::of(&d);
    f.samples = "many".into();
    f.sizes = "5, x".into();
    f.rpm = "-3".into();
    f.shapes.clear();
    let e = f.design(&d).expect_err("refused").sentences();
    assert!(
        e.contains("Mazes per shape must be a whole number from 1 to 10000, not 'many'"),
        "{e}"
    );
    assert!(e.contains("Sizes must be grid sides"), "{e}");
    assert!(e.contains("Requests per minute"), "{e}");
    assert!(e.contains("shape"), "no shape chosen is named: {e}");
}

#[test]
fn a_model_needs_its_settings_and_the_oracle_needs_none() {
    let d = ExperimentDesign::default();
    let mut f = DesignForm::of(&d);
    f.players.push(PlayerRow {
        kind: "endpoint".into(),
        preset: "custom".into(),
        temperature: "3".into(),
        max_tokens: "100".into(),
        ..PlayerRow::default()
    });
    let e = f.design(&d).expect_err("refused").sentences();
    assert!(
        e.contains("Player 2: temperature must be a number from 0 to 2, not '3'"),
        "{e}"
    );
    assert_eq!(f.players[0].player_name(), "oracle");
    f.players[1].model = "qwen-max".into();
    assert_eq!(f.players[1].player_name(), "qwen-max");
    f.players[1].name = "big".into();
    assert_eq!(f.players[1].player_name(), "big");
}

#[test]
fn a_new_model_row_starts_from_the_default_preset() {
    let mut r = PlayerRow {
        kind: "endpoint".into(),
        ..PlayerRow::default()
    };
    r.fill_defaults();
    assert_eq!(r.temperature, "0.7");
    assert_eq!(r.stream, crate::model::settings::DEFAULT_STREAM);
    assert!(!r.base_url.is_empty());
    // A row keeps what was typed.
    let mut typed = PlayerRow {
        kind: "endpoint".into(),
        preset: "custom".into(),
        model: "mine".into(),
        ..PlayerRow::default()
    };
    typed.fill_defaults();
    assert_eq!(typed.model, "mine");
    assert_eq!(typed.base_url, "", "custom has no default URL");
    typed.use_preset(Preset::default());
    assert_eq!(typed.base_url, Preset::default().default_base_url());
}

#[test]
fn the_add_box_appends_the_configured_model_with_its_key() {
    let d = ExperimentDesign::default();
    let mut f = DesignForm::of(&d);
    f.new.preset = "custom".into();
    f.new.base_url = "http://127.0.0.1:9/v1".into();
    f.new.model = "qwen-max".into();
    f.new.key = "sk-test".into();
    f.new.stream = false;
    f.add_configured_player();
    assert_eq!(f.players.len(), 2);
    assert_eq!(f.players[1].key, "sk-test");
    assert!(!f.players[1].stream, "streaming stays off as configured");
    let read = f.design(&d).expect("read back");
    assert_eq!(read.players[1].model, "qwen-max");
    assert!(!read.players[1].stream);
    assert_eq!(read.trials().len(), 720);
    f.remove_player(0);
    assert_eq!(f.players.len(), 1);
    assert_eq!(f.players[0].model, "qwen-max", "the rows after it move up");
}
