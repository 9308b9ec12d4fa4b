//! The experiment page's design form, read natively: [`design_fields`] lists a design as
//! the form's fields (name and value pairs, as a browser's `FormData` lists them: a
//! checkbox only when ticked) and [`design_from_fields`] reads them back into a design,
//! refusing bad values with a sentence each. Also the stored experiment and its ids.
//!
//! ```
//! use shapemaze::core::batch::design::ExperimentDesign;
//! use shapemaze::core::batch::form::{design_fields, design_from_fields};
//!
//! let design = ExperimentDesign::default();
//! let fields = design_fields(&design);
//! assert_eq!(design_from_fields(&fields, &design).unwrap(), design);
//! ```

use crate::core::batch::design::{ExperimentDesign, PlayerSpec, MAX_CONCURRENCY};
use crate::core::maze::encoding::Encoding;
use crate::core::maze::shape::Shape;
use crate::core::model::preset::Preset;
use crate::core::play::player::PlayerKind;
use crate::core::play::trial::Protocol;
use crate::core::text::{format_decimal, parse_decimal};
use serde::{Deserialize, Serialize};

/// The player kinds a design may name, as the form offers them.
pub const PLAYER_KINDS: [PlayerKind; 3] =
    [PlayerKind::Endpoint, PlayerKind::Oracle, PlayerKind::Random];

/// The protocols, as the form offers them.
pub const PROTOCOLS: [Protocol; 3] = [Protocol::Stepwise, Protocol::Combined, Protocol::SingleShot];

/// A protocol's id in the form.
pub fn protocol_id(p: Protocol) -> &'static str {
    match p {
        Protocol::Stepwise => "stepwise",
        Protocol::Combined => "combined",
        Protocol::SingleShot => "single_shot",
    }
}

/// A design's values as the form's fields (name, value), in the form's order: what
/// [`crate::view::experiment::design_form`] fills in and what [`design_from_fields`] reads. API keys are not part
/// of a design: the page adds `p{i}.key` fields of its own.
pub fn design_fields(d: &ExperimentDesign) -> Vec<(String, String)> {
    let mut f: Vec<(String, String)> = Vec::new();
    let mut push = |k: &str, v: String| f.push((k.to_string(), v));
    push("name", d.name.clone());
    for (i, p) in d.players.iter().enumerate() {
        push(&format!("p{i}.kind"), p.kind.name().to_string());
        push(&format!("p{i}.name"), p.name.clone().unwrap_or_default());
        push(&format!("p{i}.preset"), p.preset.clone());
        push(&format!("p{i}.base_url"), p.base_url.clone());
        push(&format!("p{i}.model"), p.model.clone());
        push(
            &format!("p{i}.concurrency"),
            p.concurrency.map(|c| c.to_string()).unwrap_or_default(),
        );
        push(
            &format!("p{i}.temperature"),
            format_decimal(p.temperature, 2),
        );
        push(&format!("p{i}.max_tokens"), p.max_tokens.to_string());
        if p.stream {
            push(&format!("p{i}.stream"), "on".into());
        }
    }
    for e in &d.encodings {
        push("encoding", e.name().to_string());
    }
    for s in &d.shapes {
        push("shape", s.name().to_string());
    }
    push(
        "sizes",
        d.sizes()
            .iter()
            .map(|s| s.to_string())
            .collect::<Vec<_>>()
            .join(", "),
    );
    push("samples", d.samples_per_shape.to_string());
    push("repeats", d.repeats.to_string());
    push("seed", d.seed.to_string());
    push("protocol", protocol_id(d.protocol).to_string());
    push("concurrency", d.concurrency.to_string());
    push(
        "rpm",
        d.requests_per_minute
            .map(|r| r.to_string())
            .unwrap_or_default(),
    );
    push("move_limit", d.move_limit.to_string());
    if let Some(m) = &d.mazes {
        push("mazes", m.len().to_string());
    }
    f.push(("new.kind".into(), "endpoint".into()));
    fill_defaults(&mut f, "new.");
    f
}

/// The value of the field `name`, trimmed (the first, when several have that name).
pub fn field<'a>(fields: &'a [(String, String)], name: &str) -> Option<&'a str> {
    fields
        .iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.trim())
}

/// The values of every field named `name`, trimmed (ticked checkboxes of one group).
pub fn field_values<'a>(
    fields: &'a [(String, String)],
    name: &'a str,
) -> impl Iterator<Item = &'a str> {
    fields
        .iter()
        .filter(move |(k, _)| k == name)
        .map(|(_, v)| v.trim())
}

/// The name player row `i` will have in the design ([`PlayerSpec::name`]: its own name,
/// else the model's for an endpoint, else the kind's).
pub fn row_player_name(fields: &[(String, String)], i: usize) -> String {
    let f = |k: &str| field(fields, &format!("p{i}.{k}")).unwrap_or("");
    let mut p = PlayerSpec::builtin(PlayerKind::parse(f("kind")).unwrap_or(PlayerKind::Endpoint));
    p.name = Some(f("name").to_string()).filter(|n| !n.is_empty());
    p.model = f("model").to_string();
    p.name()
}

/// How many player rows the fields hold (`p0.kind`, `p1.kind`, ...).
pub fn player_rows(fields: &[(String, String)]) -> usize {
    (0..)
        .take_while(|i| field(fields, &format!("p{i}.kind")).is_some())
        .count()
}

/// Reads the form's fields into a design. `base` gives what the form does not show
/// (imported mazes, a player's other endpoint settings, unknown fields), so a design
/// loaded from a file keeps them. Every problem found is named, each with what to change.
pub fn design_from_fields(
    fields: &[(String, String)],
    base: &ExperimentDesign,
) -> Result<ExperimentDesign, String> {
    let mut problems: Vec<String> = Vec::new();
    let mut whole = |name: &str, label: &str, min: u64, max: u64| -> Option<u64> {
        let raw = field(fields, name).unwrap_or("");
        match raw.parse::<u64>() {
            Ok(n) if (min..=max).contains(&n) => Some(n),
            _ => {
                problems.push(format!(
                    "{label} must be a whole number from {min} to {max}, not '{raw}'"
                ));
                None
            }
        }
    };
    let samples = whole("samples", "Mazes per shape", 1, 10_000);
    let repeats = whole("repeats", "Repeats per maze", 1, 1_000);
    let seed = whole("seed", "Seed", 0, u64::MAX);
    let concurrency = whole(
        "concurrency",
        "Concurrency per endpoint",
        1,
        MAX_CONCURRENCY as u64,
    );
    let move_limit = whole("move_limit", "Move limit", 1, 200);
    let rpm = match field(fields, "rpm").unwrap_or("") {
        "" => None,
        _ => whole("rpm", "Requests per minute (or leave it empty)", 1, 100_000),
    };
    let mut d = base.clone();
    d.name = field(fields, "name").unwrap_or("").to_string();
    d.encodings = field_values(fields, "encoding")
        .filter_map(|e| Encoding::parse(e).ok())
        .collect();
    d.shapes = field_values(fields, "shape")
        .filter_map(|s| Shape::parse(s).ok())
        .collect();
    let sizes_raw = field(fields, "sizes").unwrap_or("");
    let sizes: Result<Vec<usize>, _> = sizes_raw
        .split([',', ' '])
        .filter(|s| !s.is_empty())
        .map(str::parse::<usize>)
        .collect();
    match sizes {
        Ok(s) if !s.is_empty() => {
            d.size = s[0];
            d.sizes = if s.len() > 1 { Some(s) } else { None };
        }
        _ => problems.push(format!(
            "Sizes must be grid sides separated by commas (e.g. 5 or 5, 7), not '{sizes_raw}'"
        )),
    }
    d.protocol = match field(fields, "protocol").unwrap_or("stepwise") {
        "combined" => Protocol::Combined,
        "single_shot" => Protocol::SingleShot,
        _ => Protocol::Stepwise,
    };
    let mut players = Vec::new();
    for i in 0..player_rows(fields) {
        let f = |k: &str| {
            field(fields, &format!("p{i}.{k}"))
                .unwrap_or("")
                .to_string()
        };
        let kind = match f("kind").as_str() {
            "oracle" => PlayerKind::Oracle,
            "random" => PlayerKind::Random,
            _ => PlayerKind::Endpoint,
        };
        let mut p = base
            .players
            .get(i)
            .filter(|p| p.kind == kind)
            .cloned()
            .unwrap_or_else(|| PlayerSpec::builtin(kind));
        let row = i + 1;
        p.name = Some(f("name")).filter(|n| !n.is_empty());
        if kind == PlayerKind::Endpoint {
            p.preset = f("preset");
            if Preset::parse(&p.preset).is_err() {
                problems.push(format!("Player {row}: choose an endpoint kind"));
            }
            p.base_url = f("base_url");
            p.model = f("model");
            let t = f("temperature");
            match parse_decimal(&t) {
                Some(v) if (0.0..=2.0).contains(&v) => p.temperature = v,
                _ => problems.push(format!(
                    "Player {row}: temperature must be a number from 0 to 2, not '{t}'"
                )),
            }
            let m = f("max_tokens");
            match m.parse::<u32>() {
                Ok(v) if v >= 1 => p.max_tokens = v,
                _ => problems.push(format!(
                    "Player {row}: max tokens must be a whole number of at least 1, not '{m}'"
                )),
            }
            p.stream = field(fields, &format!("p{i}.stream")).is_some();
        }
        let c = f("concurrency");
        p.concurrency = match c.parse::<usize>() {
            _ if c.is_empty() => None,
            Ok(v) if (1..=MAX_CONCURRENCY).contains(&v) => Some(v),
            _ => {
                problems.push(format!(
                    "Player {row}: its own concurrency must be from 1 to {MAX_CONCURRENCY}, or empty for the design's, not '{c}'"
                ));
                None
            }
        };
        players.push(p);
    }
    d.players = players;
    if let (Some(s), Some(r), Some(k), Some(c), Some(m)) =
        (samples, repeats, seed, concurrency, move_limit)
    {
        d.samples_per_shape = s as usize;
        d.repeats = r as usize;
        d.seed = k;
        d.concurrency = c as usize;
        d.move_limit = m as usize;
    }
    d.requests_per_minute = rpm.map(|r| r as u32);
    if let Err(e) = d.validate() {
        problems.extend(e.problems);
    }
    if problems.is_empty() {
        Ok(d)
    } else {
        Err(problems.join(". ") + ".")
    }
}

/// Fills in an endpoint row's missing fields (`p{i}.preset`, base URL, model, temperature,
/// max tokens, streaming) with the default preset's values, as a new model row starts.
pub fn fill_endpoint_defaults(fields: &mut Vec<(String, String)>, i: usize) {
    fill_defaults(fields, &format!("p{i}."));
}

/// [`fill_endpoint_defaults`] for the fields named `{prefix}preset` and so on (`new.` for
/// the "add a player" box).
pub fn fill_defaults(fields: &mut Vec<(String, String)>, prefix: &str) {
    let preset = field(fields, &format!("{prefix}preset"))
        .and_then(|p| Preset::parse(p).ok())
        .unwrap_or_default();
    let spec = PlayerSpec::builtin(PlayerKind::Endpoint);
    let defaults = [
        ("preset", preset.id().to_string()),
        ("base_url", preset.default_base_url().to_string()),
        ("model", preset.example_model().to_string()),
        ("temperature", format_decimal(spec.temperature, 2)),
        ("max_tokens", spec.max_tokens.to_string()),
    ];
    let had_preset = field(fields, &format!("{prefix}preset")).is_some();
    for (k, v) in defaults {
        let name = format!("{prefix}{k}");
        match fields.iter_mut().find(|(n, _)| *n == name) {
            Some((_, old)) if old.trim().is_empty() => *old = v,
            Some(_) => {}
            None => fields.push((name, v)),
        }
    }
    if !had_preset && spec.stream {
        fields.push((format!("{prefix}stream"), "on".into()));
    }
}

/// Appends the player configured in the "add a player" box (`new.*` fields) as the last
/// player row, its key included.
pub fn add_configured_player(fields: &mut Vec<(String, String)>) {
    let i = player_rows(fields);
    let kind = field(fields, "new.kind").unwrap_or("endpoint").to_string();
    let mut row = vec![(format!("p{i}.kind"), kind.clone())];
    if kind == "endpoint" {
        for k in ["preset", "base_url", "model", "key", "stream"] {
            if let Some(v) = field(fields, &format!("new.{k}")) {
                row.push((format!("p{i}.{k}"), v.to_string()));
            }
        }
    }
    fields.extend(row);
    if kind == "endpoint" {
        fill_endpoint_defaults(fields, i);
        if field(fields, "new.stream").is_none() {
            fields.retain(|(k, _)| *k != format!("p{i}.stream"));
        }
    }
}

/// An experiment as the page stores it (IndexedDB store `experiments`, under its id; its
/// trials' records are under `{id}/{trial id}` in `trials`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StoredExperiment {
    /// Its name for people (the design's name, or one given on renaming).
    pub name: String,
    /// When it was created, in milliseconds since the Unix epoch.
    pub created_ms: u64,
    /// Its design (never an API key).
    pub design: ExperimentDesign,
}

impl StoredExperiment {
    /// The stored JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// Reads the stored JSON back, checking the design.
    pub fn from_json(text: &str) -> Result<StoredExperiment, String> {
        let e: StoredExperiment = serde_json::from_str(text).map_err(|e| e.to_string())?;
        e.design.validate().map_err(|e| e.to_string())?;
        Ok(e)
    }
}

/// The storage key prefix of an experiment's trials.
pub fn trials_prefix(experiment_id: &str) -> String {
    format!("{experiment_id}/")
}

/// A new experiment's id from the time it was created: `exp-` and the milliseconds in
/// base 36 (sortable by creation within the same length).
pub fn new_experiment_id(now_ms: u64) -> String {
    const DIGITS: &[u8; 36] = b"0123456789abcdefghijklmnopqrstuvwxyz";
    let mut n = now_ms;
    let mut out = Vec::new();
    loop {
        out.push(DIGITS[(n % 36) as usize]);
        n /= 36;
        if n == 0 {
            break;
        }
    }
    out.reverse();
    format!("exp-{}", String::from_utf8(out).unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(fields: &mut Vec<(String, String)>, name: &str, value: &str) {
        fields.retain(|(k, _)| k != name);
        fields.push((name.into(), value.into()));
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
        d.players.push(qwen);
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
        let fields = design_fields(&d);
        assert_eq!(design_from_fields(&fields, &d).expect("read back"), d);
        // Read against the default (no base): the form alone carries the design.
        assert_eq!(
            design_from_fields(&fields, &ExperimentDesign::default()).expect("read back"),
            d
        );
    }

    #[test]
    fn bad_values_are_each_named_with_what_to_change() {
        let d = ExperimentDesign::default();
        let mut f = design_fields(&d);
        set(&mut f, "samples", "many");
        set(&mut f, "sizes", "5, x");
        set(&mut f, "rpm", "-3");
        f.retain(|(k, _)| k != "shape");
        let e = design_from_fields(&f, &d).expect_err("refused");
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
        let mut f = design_fields(&d);
        f.push(("p1.kind".into(), "endpoint".into()));
        f.push(("p1.preset".into(), "custom".into()));
        f.push(("p1.temperature".into(), "3".into()));
        f.push(("p1.max_tokens".into(), "100".into()));
        let e = design_from_fields(&f, &d).expect_err("refused");
        assert!(
            e.contains("Player 2: temperature must be a number from 0 to 2, not '3'"),
            "{e}"
        );
        assert_eq!(player_rows(&f), 2);
        assert_eq!(row_player_name(&f, 0), "oracle");
        f.push(("p1.model".into(), "qwen-max".into()));
        assert_eq!(row_player_name(&f, 1), "qwen-max");
        f.push(("p1.name".into(), "big".into()));
        assert_eq!(row_player_name(&f, 1), "big");
    }

    #[test]
    fn a_new_model_row_starts_from_the_default_preset() {
        let mut f = vec![("p0.kind".to_string(), "endpoint".to_string())];
        fill_endpoint_defaults(&mut f, 0);
        assert_eq!(field(&f, "p0.temperature"), Some("0.7"));
        assert_eq!(
            field(&f, "p0.stream").is_some(),
            crate::core::model::settings::DEFAULT_STREAM
        );
        assert!(field(&f, "p0.base_url").is_some_and(|u| !u.is_empty()));
        // A row keeps what was typed.
        let mut typed = vec![
            ("p0.kind".to_string(), "endpoint".to_string()),
            ("p0.preset".to_string(), "custom".to_string()),
            ("p0.model".to_string(), "mine".to_string()),
        ];
        fill_endpoint_defaults(&mut typed, 0);
        assert_eq!(field(&typed, "p0.model"), Some("mine"));
        assert_eq!(
            field(&typed, "p0.base_url"),
            Some(""),
            "custom has no default URL"
        );
    }

    #[test]
    fn the_add_box_appends_the_configured_model_with_its_key() {
        let d = ExperimentDesign::default();
        let mut f = design_fields(&d);
        set(&mut f, "new.preset", "custom");
        set(&mut f, "new.base_url", "http://127.0.0.1:9/v1");
        set(&mut f, "new.model", "qwen-max");
        set(&mut f, "new.key", "sk-test");
        f.retain(|(k, _)| k != "new.stream");
        add_configured_player(&mut f);
        assert_eq!(player_rows(&f), 2);
        assert_eq!(field(&f, "p1.key"), Some("sk-test"));
        assert_eq!(
            field(&f, "p1.stream"),
            None,
            "streaming stays off as configured"
        );
        let read = design_from_fields(&f, &d).expect("read back");
        assert_eq!(read.players[1].model, "qwen-max");
        assert!(!read.players[1].stream);
        assert_eq!(read.trials().len(), 720);
    }
}
