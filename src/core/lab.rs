//! The experiment page's parts, rendered here as escaped HTML and read back from plain
//! form fields, so the page itself only forwards clicks and field values (and everything
//! it shows is tested natively):
//!
//! - [`design_form`] draws a design as a form; [`design_from_fields`] reads the form's
//!   fields (name and value pairs, as a browser's `FormData` lists them: a checkbox only
//!   when ticked) back into a design, refusing bad values with a sentence each.
//! - [`progress_panel`] draws the run's progress: done of total, successes per phase, API
//!   errors, tokens, elapsed time and ETA, per player and overall, and each endpoint's
//!   learned concurrency and retries with their cause.
//! - [`experiment_list`] draws the stored experiments with their state and actions.
//!
//! Every button carries `data-action` (and `data-id` or `data-index`), which the page's
//! one delegated listener reads.
//!
//! ```
//! use shapemaze::core::experiment::ExperimentDesign;
//! use shapemaze::core::lab::{design_fields, design_from_fields};
//!
//! let design = ExperimentDesign::default();
//! let fields = design_fields(&design);
//! assert_eq!(design_from_fields(&fields, &design).unwrap(), design);
//! ```

use super::analysis::{GroupRow, Observation, ALL};
use super::batch::{format_eta, run_eta};
use super::chat::Preset;
use super::encoding::Encoding;
use super::experiment::{ExperimentDesign, PlayerSpec, MAX_CONCURRENCY};
use super::html::escape;
use super::record::PlayerKind;
use super::scheduler::{LaneStatus, Progress, RunState, Tally};
use super::shape::Shape;
use super::text::{format_decimal, parse_decimal};
use super::trial::Protocol;
use super::verify::Outcome;
use serde::{Deserialize, Serialize};
use std::fmt::Write;

/// The player kinds a design may name, as the form offers them.
pub const PLAYER_KINDS: [PlayerKind; 3] =
    [PlayerKind::Endpoint, PlayerKind::Oracle, PlayerKind::Random];

/// The protocols, as the form offers them.
pub const PROTOCOLS: [Protocol; 3] = [Protocol::Stepwise, Protocol::Combined, Protocol::SingleShot];

fn protocol_id(p: Protocol) -> &'static str {
    match p {
        Protocol::Stepwise => "stepwise",
        Protocol::Combined => "combined",
        Protocol::SingleShot => "single_shot",
    }
}

fn protocol_label(p: Protocol) -> &'static str {
    match p {
        Protocol::Stepwise => "Stepwise (the design's: one question per phase)",
        Protocol::Combined => "Combined (recognize and generate in one prompt)",
        Protocol::SingleShot => "Single shot (the whole path in one reply)",
    }
}

fn kind_label(k: PlayerKind) -> &'static str {
    match k {
        PlayerKind::Endpoint => "Model (chat endpoint)",
        PlayerKind::Oracle => "Oracle (built-in, perfect)",
        PlayerKind::Random => "Random walker (built-in)",
        _ => "Other",
    }
}

/// A design's values as the form's fields (name, value), in the form's order: what
/// [`design_form`] fills in and what [`design_from_fields`] reads. API keys are not part
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

fn get<'a>(fields: &'a [(String, String)], name: &str) -> Option<&'a str> {
    fields
        .iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.trim())
}

fn all<'a>(fields: &'a [(String, String)], name: &'a str) -> impl Iterator<Item = &'a str> {
    fields
        .iter()
        .filter(move |(k, _)| k == name)
        .map(|(_, v)| v.trim())
}

/// The name player row `i` will have in the design ([`PlayerSpec::name`]: its own name,
/// else the model's for an endpoint, else the kind's).
pub fn row_player_name(fields: &[(String, String)], i: usize) -> String {
    let f = |k: &str| get(fields, &format!("p{i}.{k}")).unwrap_or("");
    let mut p = PlayerSpec::builtin(PlayerKind::parse(f("kind")).unwrap_or(PlayerKind::Endpoint));
    p.name = Some(f("name").to_string()).filter(|n| !n.is_empty());
    p.model = f("model").to_string();
    p.name()
}

/// How many player rows the fields hold (`p0.kind`, `p1.kind`, ...).
pub fn player_rows(fields: &[(String, String)]) -> usize {
    (0..)
        .take_while(|i| get(fields, &format!("p{i}.kind")).is_some())
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
        let raw = get(fields, name).unwrap_or("");
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
    let rpm = match get(fields, "rpm").unwrap_or("") {
        "" => None,
        _ => whole("rpm", "Requests per minute (or leave it empty)", 1, 100_000),
    };
    let mut d = base.clone();
    d.name = get(fields, "name").unwrap_or("").to_string();
    d.encodings = all(fields, "encoding")
        .filter_map(|e| Encoding::parse(e).ok())
        .collect();
    d.shapes = all(fields, "shape")
        .filter_map(|s| Shape::parse(s).ok())
        .collect();
    let sizes_raw = get(fields, "sizes").unwrap_or("");
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
    d.protocol = match get(fields, "protocol").unwrap_or("stepwise") {
        "combined" => Protocol::Combined,
        "single_shot" => Protocol::SingleShot,
        _ => Protocol::Stepwise,
    };
    let mut players = Vec::new();
    for i in 0..player_rows(fields) {
        let f = |k: &str| get(fields, &format!("p{i}.{k}")).unwrap_or("").to_string();
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
            p.stream = get(fields, &format!("p{i}.stream")).is_some();
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
    let preset = get(fields, &format!("{prefix}preset"))
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
    let had_preset = get(fields, &format!("{prefix}preset")).is_some();
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

fn attr_value(fields: &[(String, String)], name: &str) -> String {
    escape(get(fields, name).unwrap_or(""))
}

fn checked(fields: &[(String, String)], name: &str, value: &str) -> &'static str {
    if all(fields, name).any(|v| v == value) {
        " checked"
    } else {
        ""
    }
}

fn selected(on: bool) -> &'static str {
    if on {
        " selected"
    } else {
        ""
    }
}

fn kind_options(h: &mut String, kind: &str) {
    for k in PLAYER_KINDS {
        let _ = write!(
            h,
            "<option value=\"{}\"{}>{}</option>",
            k.name(),
            selected(kind == k.name()),
            kind_label(k)
        );
    }
}

fn preset_options(h: &mut String, preset: &str) {
    for p in Preset::ALL {
        let _ = write!(
            h,
            "<option value=\"{}\"{}>{}</option>",
            p.id(),
            selected(preset == p.id()),
            escape(p.label())
        );
    }
}

/// The design form, filled in with `fields` (from [`design_fields`], or as the person left
/// them). `locked` greys it out while a run is under way.
pub fn design_form(fields: &[(String, String)], locked: bool) -> String {
    let mut h = String::new();
    let dis = if locked { " disabled" } else { "" };
    let _ = write!(
        h,
        "<fieldset class=\"lab-fieldset\"{dis}><legend>Design</legend>\
         <label class=\"field wide\"><span>Name</span><input name=\"name\" data-testid=\"design-name\" value=\"{}\" placeholder=\"e.g. Qwen sizes, November\"></label>",
        attr_value(fields, "name")
    );
    add_player_form(&mut h, fields);
    h.push_str("<div class=\"lab-players\" data-testid=\"players\">");
    for i in 0..player_rows(fields) {
        let v = |k: &str| attr_value(fields, &format!("p{i}.{k}"));
        let kind = get(fields, &format!("p{i}.kind")).unwrap_or("endpoint");
        let preset = get(fields, &format!("p{i}.preset")).unwrap_or("");
        let _ = write!(
            h,
            "<div class=\"lab-player\" data-testid=\"player-row\"><span class=\"row-label\">Player {}</span>\
             <label class=\"field\"><span>Kind</span><select name=\"p{i}.kind\" data-testid=\"player-kind\" data-action=\"kind-changed\">",
            i + 1
        );
        kind_options(&mut h, kind);
        h.push_str("</select></label>");
        let _ = write!(
            h,
            "<label class=\"field\"><span>Name in results</span><input name=\"p{i}.name\" value=\"{}\" placeholder=\"the model's name\"></label>",
            v("name")
        );
        if kind == "endpoint" {
            let _ = write!(
                h,
                "<label class=\"field\"><span>Endpoint</span><select name=\"p{i}.preset\" data-testid=\"player-preset\" data-action=\"preset-changed\" data-index=\"{i}\">"
            );
            preset_options(&mut h, preset);
            let _ = write!(
                h,
                "</select></label>\
                 <label class=\"field wide\"><span>Base URL</span><input name=\"p{i}.base_url\" data-testid=\"player-base-url\" value=\"{}\" spellcheck=\"false\"></label>\
                 <label class=\"field\"><span>Model</span><input name=\"p{i}.model\" data-testid=\"player-model\" value=\"{}\" spellcheck=\"false\"></label>\
                 <label class=\"field\"><span>API key</span><input name=\"p{i}.key\" data-testid=\"player-key\" type=\"password\" autocomplete=\"off\" value=\"{}\" placeholder=\"kept in this tab only\"></label>\
                 <label class=\"field short\"><span>Temperature</span><input name=\"p{i}.temperature\" value=\"{}\" inputmode=\"decimal\"></label>\
                 <label class=\"field short\"><span>Max tokens</span><input name=\"p{i}.max_tokens\" value=\"{}\" inputmode=\"numeric\"></label>\
                 <label class=\"check\"><input type=\"checkbox\" name=\"p{i}.stream\"{}> Stream</label>",
                v("base_url"),
                v("model"),
                v("key"),
                v("temperature"),
                v("max_tokens"),
                checked(fields, &format!("p{i}.stream"), "on"),
            );
        }
        let _ = write!(
            h,
            "<label class=\"field short\"><span>Concurrency</span><input name=\"p{i}.concurrency\" data-testid=\"player-concurrency\" value=\"{}\" placeholder=\"design's\" inputmode=\"numeric\"></label>\
             <button type=\"button\" class=\"button small\" data-action=\"remove-player\" data-index=\"{i}\">Remove</button></div>",
            v("concurrency")
        );
    }
    h.push_str("</div>");
    if let Some(n) = get(fields, "mazes") {
        let _ = write!(
            h,
            "<p class=\"notice\" data-testid=\"imported-mazes\">{} imported mazes run instead of generated ones (shapes, sizes and mazes per shape below are ignored). <button type=\"button\" class=\"button small\" data-action=\"clear-mazes\">Use generated mazes</button></p>",
            escape(n)
        );
    }
    h.push_str(
        "<div class=\"lab-grid\"><div class=\"field\"><span>Shapes</span><div class=\"checks\">",
    );
    for s in Shape::ALL {
        let _ = write!(
            h,
            "<label class=\"check\"><input type=\"checkbox\" name=\"shape\" value=\"{0}\"{1}> {0}</label>",
            s.name(),
            checked(fields, "shape", s.name())
        );
    }
    h.push_str("</div></div><div class=\"field\"><span>Encodings</span><div class=\"checks\">");
    for e in Encoding::ALL {
        let _ = write!(
            h,
            "<label class=\"check\"><input type=\"checkbox\" name=\"encoding\" value=\"{}\"{}> {}</label>",
            e.name(),
            checked(fields, "encoding", e.name()),
            e.label()
        );
    }
    h.push_str("</div></div>");
    let num = |h: &mut String, name: &str, label: &str, hint: &str| {
        let _ = write!(
            h,
            "<label class=\"field short\" title=\"{hint}\"><span>{label}</span><input name=\"{name}\" data-testid=\"{}\" value=\"{}\" inputmode=\"numeric\"></label>",
            match name {
                "samples" => "samples-per-shape".to_string(),
                "repeats" => "repeats-per-maze".to_string(),
                "concurrency" => "concurrency".to_string(),
                other => format!("design-{other}"),
            },
            attr_value(fields, name)
        );
    };
    num(
        &mut h,
        "sizes",
        "Sizes",
        "Grid sides, separated by commas (e.g. 5 or 5, 7)",
    );
    num(
        &mut h,
        "samples",
        "Mazes per shape",
        "Mazes generated per shape and size",
    );
    num(
        &mut h,
        "repeats",
        "Repeats per maze",
        "Trials per maze and encoding",
    );
    num(&mut h, "seed", "Seed", "The maze sets' seed");
    num(
        &mut h,
        "move_limit",
        "Move limit",
        "Most moves in the solve phase",
    );
    num(
        &mut h,
        "concurrency",
        "Concurrency",
        "Most trials in flight per endpoint",
    );
    num(&mut h, "rpm", "Requests per minute", "Empty for no limit");
    let proto = get(fields, "protocol").unwrap_or("stepwise");
    h.push_str("<label class=\"field\"><span>Protocol</span><select name=\"protocol\" data-testid=\"design-protocol\">");
    for p in PROTOCOLS {
        let _ = write!(
            h,
            "<option value=\"{}\"{}>{}</option>",
            protocol_id(p),
            selected(proto == protocol_id(p)),
            protocol_label(p)
        );
    }
    h.push_str("</select></label></div></fieldset>");
    h
}

/// The "add a player" box: the agent and endpoint fields of `/model` (same test ids), and
/// `add-model`, which appends the player configured there to the design.
fn add_player_form(h: &mut String, fields: &[(String, String)]) {
    let kind = get(fields, "new.kind").unwrap_or("endpoint");
    h.push_str("<div class=\"lab-player lab-new\"><span class=\"row-label\">Add a player</span><label class=\"field\"><span>Agent</span><select name=\"new.kind\" data-testid=\"agent\" data-action=\"kind-changed\">");
    kind_options(h, kind);
    h.push_str("</select></label>");
    if kind == "endpoint" {
        let preset = get(fields, "new.preset").unwrap_or("");
        h.push_str("<label class=\"field\"><span>Endpoint</span><select name=\"new.preset\" data-testid=\"endpoint-preset\" data-action=\"preset-changed\" data-index=\"new\">");
        preset_options(h, preset);
        let _ = write!(
            h,
            "</select></label>\
             <label class=\"field wide\"><span>Base URL</span><input name=\"new.base_url\" data-testid=\"endpoint-base-url\" value=\"{}\" spellcheck=\"false\"></label>\
             <label class=\"field\"><span>Model</span><input name=\"new.model\" data-testid=\"endpoint-model\" value=\"{}\" spellcheck=\"false\"></label>\
             <label class=\"field\"><span>API key</span><input name=\"new.key\" data-testid=\"endpoint-api-key\" type=\"password\" autocomplete=\"off\" value=\"{}\" placeholder=\"kept in this tab only\"></label>\
             <label class=\"check\"><input type=\"checkbox\" name=\"new.stream\" data-testid=\"endpoint-stream\"{}> Stream</label>",
            attr_value(fields, "new.base_url"),
            attr_value(fields, "new.model"),
            attr_value(fields, "new.key"),
            checked(fields, "new.stream", "on"),
        );
    }
    h.push_str("<button type=\"button\" class=\"button\" data-action=\"add-player\" data-testid=\"add-model\">Add to the design</button></div>");
}

/// Appends the player configured in the "add a player" box (`new.*` fields) as the last
/// player row, its key included.
pub fn add_configured_player(fields: &mut Vec<(String, String)>) {
    let i = player_rows(fields);
    let kind = get(fields, "new.kind").unwrap_or("endpoint").to_string();
    let mut row = vec![(format!("p{i}.kind"), kind.clone())];
    if kind == "endpoint" {
        for k in ["preset", "base_url", "model", "key", "stream"] {
            if let Some(v) = get(fields, &format!("new.{k}")) {
                row.push((format!("p{i}.{k}"), v.to_string()));
            }
        }
    }
    fields.extend(row);
    if kind == "endpoint" {
        fill_endpoint_defaults(fields, i);
        if get(fields, "new.stream").is_none() {
            fields.retain(|(k, _)| *k != format!("p{i}.stream"));
        }
    }
}

/// The line under the form: trials, calls and tokens before starting.
pub fn estimate_line(trials: usize, calls: u64, tokens: u64, players: usize) -> String {
    let mut s = format!("{trials} trials ({} per player)", trials / players.max(1));
    if calls > 0 {
        let _ = write!(
            s,
            "; at most {calls} model calls and about {} tokens (a rough estimate: retries not counted)",
            thousands(tokens)
        );
    } else {
        s.push_str("; built-in players only: no model calls");
    }
    s
}

/// `1234567` as `1 234 567`.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push('\u{202f}');
        }
        out.push(c);
    }
    out
}

fn percent(part: usize, whole: usize) -> String {
    if whole == 0 {
        return "0%".into();
    }
    format!("{}%", (part * 100 + whole / 2) / whole)
}

fn tally_cells(h: &mut String, t: &Tally) {
    let _ = write!(
        h,
        "<td>{}/{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>",
        t.done,
        t.total,
        t.in_flight,
        t.successes[0],
        t.successes[1],
        t.successes[2],
        t.api_errors,
        thousands(t.tokens)
    );
}

/// The progress panel of a run: the bar, the per-player table and each endpoint's lane.
pub fn progress_panel(progress: &Progress, lanes: &[LaneStatus], now_ms: f64) -> String {
    let o = &progress.overall;
    let state = match progress.state {
        _ if o.done == o.total => "finished",
        RunState::Running => "running",
        RunState::Paused => "paused",
        RunState::Cancelled => "cancelled",
    };
    let eta = match run_eta(progress) {
        _ if o.done == o.total => String::new(),
        Some(ms) => format!(" · ETA {}", format_eta(ms)),
        None => " · ETA measuring…".to_string(),
    };
    let mut h = String::new();
    let _ = write!(
        h,
        "<div class=\"progress-head\"><progress max=\"{}\" value=\"{}\" data-testid=\"run-bar\"></progress>\
         <p data-testid=\"progress\" data-state=\"{state}\" data-done=\"{}\" data-total=\"{}\" data-errors=\"{}\">\
         <strong>{}/{} trials</strong> ({}) · {state} · elapsed {}{eta} · API errors {} · tokens {}</p></div>",
        o.total,
        o.done,
        o.done,
        o.total,
        o.api_errors,
        o.done,
        o.total,
        percent(o.done, o.total),
        format_eta(progress.elapsed_ms),
        o.api_errors,
        thousands(o.tokens)
    );
    h.push_str(
        "<table class=\"lab-table\" data-testid=\"run-players\"><thead><tr><th>Player</th><th>Done</th><th>In flight</th>\
         <th>Solved</th><th>Recognized</th><th>Generated</th><th>API errors</th><th>Tokens</th></tr></thead><tbody>",
    );
    for p in &progress.players {
        let _ = write!(h, "<tr><th>{}</th>", escape(&p.player));
        tally_cells(&mut h, &p.tally);
        h.push_str("</tr>");
    }
    h.push_str("<tr class=\"total\"><th>All</th>");
    tally_cells(&mut h, o);
    h.push_str("</tr></tbody></table>");
    let busy: Vec<&LaneStatus> = lanes
        .iter()
        .filter(|l| {
            l.in_flight > 0
                || l.retrying > 0
                || l.last_cause.is_some()
                || l.concurrency < l.max_concurrency
        })
        .collect();
    if !busy.is_empty() {
        h.push_str("<ul class=\"lanes\" data-testid=\"run-lanes\">");
        for l in busy {
            let _ = write!(
                h,
                "<li data-lane=\"{}\" data-concurrency=\"{}\"><strong>{}</strong>: {} in flight, concurrency {} of {}",
                escape(&l.name),
                l.concurrency,
                escape(&l.name),
                l.in_flight,
                l.concurrency,
                l.max_concurrency
            );
            if l.retrying > 0 {
                let _ = write!(h, ", {} retrying", l.retrying);
            }
            if let Some(c) = &l.last_cause {
                let _ = write!(h, "; last retry: {}", escape(c));
            }
            if let Some(t) = l.wait_until.filter(|&t| t > now_ms) {
                let _ = write!(h, "; new calls wait {}", format_eta(t - now_ms));
            }
            h.push_str("</li>");
        }
        h.push_str("</ul>");
    }
    h
}

/// What the page's buttons depend on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ToolbarState {
    /// An experiment is open.
    pub open: bool,
    /// Its run is under way (trials start or are in flight).
    pub running: bool,
    /// Trials it has stored.
    pub stored: usize,
    /// Trials in its design.
    pub total: usize,
    /// Stored trials that ended as API errors.
    pub api_errors: usize,
}

/// The page's buttons for `s`: start, resume, pause, cancel, rerun the API errors, and the
/// exports.
pub fn toolbar(s: ToolbarState) -> String {
    let mut h = String::from("<div class=\"toolbar lab-toolbar\">");
    let button = |h: &mut String, action: &str, label: &str, primary: bool, on: bool| {
        let _ = write!(
            h,
            "<button type=\"button\" class=\"button{}\" data-action=\"{action}\" data-testid=\"{}\"{}>{label}</button>",
            if primary { " primary" } else { "" },
            match action {
                "start" | "pause" | "resume" | "cancel" => format!("experiment-{action}"),
                _ => action.to_string(),
            },
            if on { "" } else { " disabled" }
        );
    };
    let idle = !s.running;
    button(
        &mut h,
        "start",
        "Start a new experiment",
        !s.open || s.stored == s.total,
        idle,
    );
    if s.open {
        if s.running {
            button(&mut h, "pause", "Pause", false, true);
            button(&mut h, "cancel", "Cancel", false, true);
        } else if s.stored < s.total {
            button(
                &mut h,
                "resume",
                if s.stored == 0 { "Run it" } else { "Resume" },
                true,
                true,
            );
        }
        if s.api_errors > 0 {
            let label = format!("Rerun the {} API errors", s.api_errors);
            button(&mut h, "rerun-errors", &label, false, idle);
        }
        let any = s.stored > 0;
        button(&mut h, "export-zip", "Download ZIP", false, any);
        button(&mut h, "export-csv", "CSV", false, any);
        button(&mut h, "export-jsonl", "JSONL", false, any);
    }
    button(&mut h, "export-design", "Download design", false, true);
    let _ = write!(
        h,
        "<label class=\"button file\">Load a design…<input type=\"file\" accept=\".json,application/json\" data-action=\"load-design\" data-testid=\"load-design\"></label>\
         <label class=\"button file\">Import results…<input type=\"file\" multiple accept=\".zip,.jsonl,.npy,application/zip\" data-action=\"import\" data-testid=\"import-file\"></label></div>"
    );
    h
}

/// A stored experiment as the list shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct ListedExperiment {
    /// Its storage id.
    pub id: String,
    /// Its name (or a fallback).
    pub name: String,
    /// Finished trials stored.
    pub done: usize,
    /// Trials in its design.
    pub total: usize,
    /// Of those stored, trials that ended as API errors.
    pub api_errors: usize,
    /// Whether it is the one open on the page.
    pub open: bool,
    /// Whether it is running now.
    pub running: bool,
}

/// The list of stored experiments, each with its state and its actions.
pub fn experiment_list(items: &[ListedExperiment]) -> String {
    if items.is_empty() {
        return "<p class=\"muted\" data-testid=\"experiments-empty\">No experiments stored in this browser yet. Design one above and start it, or import an export.</p>".into();
    }
    let mut h = String::from(
        "<table class=\"lab-table\" data-testid=\"experiments\"><thead><tr><th>Experiment</th><th>Trials</th><th>State</th><th>Actions</th></tr></thead><tbody>",
    );
    for e in items {
        let state = if e.running {
            "running".to_string()
        } else if e.done == e.total {
            "complete".to_string()
        } else if e.done == 0 {
            "not started".to_string()
        } else {
            format!("stopped at {}", percent(e.done, e.total))
        };
        let errors = if e.api_errors > 0 {
            format!(", {} API errors", e.api_errors)
        } else {
            String::new()
        };
        let id = escape(&e.id);
        let _ = write!(
            h,
            "<tr data-testid=\"experiment-row\" data-id=\"{id}\"{}><td>{}</td><td>{}/{}{errors}</td><td>{state}</td><td class=\"actions\">",
            if e.open { " class=\"open\"" } else { "" },
            escape(&e.name),
            e.done,
            e.total,
        );
        let button = |h: &mut String, action: &str, label: &str| {
            let _ = write!(
                h,
                "<button type=\"button\" class=\"button small\" data-action=\"{action}\" data-id=\"{id}\" data-testid=\"{action}\">{label}</button>"
            );
        };
        if !e.open {
            button(&mut h, "open", "Open");
        }
        if !e.running {
            button(&mut h, "rename", "Rename");
            button(&mut h, "duplicate", "Duplicate");
            button(&mut h, "delete", "Delete");
        }
        h.push_str("</td></tr>");
    }
    h.push_str("</tbody></table>");
    h
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

/// Whether observation `o` belongs to group row `g` of an analysis (a dimension named
/// [`crate::core::analysis::ALL`] matches everything).
pub fn in_group(o: &Observation, g: &GroupRow) -> bool {
    let fits = |want: &str, have: &str| want == ALL || want == have;
    fits(&g.experiment, &o.experiment)
        && fits(&g.model, &o.model)
        && fits(&g.encoding, o.encoding.name())
        && fits(&g.shape, o.shape.name())
}

/// The trials of a drilled-down group: one row each with its three outcomes and, when its
/// record is at hand (`true`), a button (`data-action="open-trial"`, `data-index` = its
/// index in the page's list) that opens its replay.
pub fn trials_table(title: &str, rows: &[(usize, &Observation, bool)]) -> String {
    let mut h = format!(
        "<h2 id=\"drill\">{}</h2><table class=\"lab-table\" data-testid=\"table-drill\"><thead><tr><th>Experiment</th><th>Model</th><th>Encoding</th><th>Shape</th><th>Maze</th><th>Solve</th><th>Recognize</th><th>Generate</th><th></th></tr></thead><tbody>",
        escape(title)
    );
    for &(i, o, replayable) in rows {
        let _ = write!(
            h,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{} #{}{}</td>",
            escape(&o.experiment),
            escape(&o.model),
            o.encoding.label(),
            o.shape.name(),
            o.size,
            o.sample,
            if o.repeat > 0 {
                format!(" (repeat {})", o.repeat)
            } else {
                String::new()
            }
        );
        for outcome in o.outcomes {
            let text = match outcome {
                Some(Outcome::Success) => "success",
                Some(Outcome::Fail) => "fail",
                Some(Outcome::Error) => "API error",
                None => "not reached",
            };
            let _ = write!(h, "<td>{text}</td>");
        }
        if replayable {
            let _ = write!(
                h,
                "<td><button type=\"button\" class=\"button small\" data-action=\"open-trial\" data-index=\"{i}\" data-testid=\"open-trial\">Replay</button></td></tr>"
            );
        } else {
            h.push_str("<td class=\"muted\">a transcript: no replay</td></tr>");
        }
    }
    if rows.is_empty() {
        h.push_str("<tr><td colspan=\"9\">No trials in this group.</td></tr>");
    }
    h.push_str("</tbody></table>");
    h
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::scheduler::Scheduler;

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
        let html = design_form(&fields, false);
        assert!(
            html.contains("Qwen &lt;three&gt; sizes"),
            "the name is escaped"
        );
        assert!(html.contains("value=\"qwen-plus\""));
        assert!(html.contains("name=\"p1.key\""));
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
        assert_eq!(get(&f, "p0.temperature"), Some("0.7"));
        assert_eq!(
            get(&f, "p0.stream").is_some(),
            crate::core::chat::DEFAULT_STREAM
        );
        assert!(get(&f, "p0.base_url").is_some_and(|u| !u.is_empty()));
        // A row keeps what was typed.
        let mut typed = vec![
            ("p0.kind".to_string(), "endpoint".to_string()),
            ("p0.preset".to_string(), "custom".to_string()),
            ("p0.model".to_string(), "mine".to_string()),
        ];
        fill_endpoint_defaults(&mut typed, 0);
        assert_eq!(get(&typed, "p0.model"), Some("mine"));
        assert_eq!(
            get(&typed, "p0.base_url"),
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
        assert_eq!(get(&f, "p1.key"), Some("sk-test"));
        assert_eq!(
            get(&f, "p1.stream"),
            None,
            "streaming stays off as configured"
        );
        let read = design_from_fields(&f, &d).expect("read back");
        assert_eq!(read.players[1].model, "qwen-max");
        assert!(!read.players[1].stream);
        assert_eq!(read.trials().len(), 720);
        let html = design_form(&f, false);
        for id in [
            "agent",
            "endpoint-preset",
            "endpoint-base-url",
            "endpoint-api-key",
            "endpoint-model",
            "endpoint-stream",
            "add-model",
            "samples-per-shape",
            "repeats-per-maze",
            "concurrency",
        ] {
            assert!(html.contains(&format!("data-testid=\"{id}\"")), "{id}");
        }
    }

    #[test]
    fn a_group_row_lists_its_trials_pooled_dimensions_matching_all() {
        use crate::core::analysis::{analyze, AnalysisOptions};
        use crate::core::player::{play_ready, Oracle};
        use crate::core::record::{Placement, PlayerInfo};
        use crate::core::trial::Trial;
        let d = ExperimentDesign {
            samples_per_shape: 1,
            ..ExperimentDesign::default()
        };
        let lib = std::sync::Arc::new(crate::core::templates::TemplateLibrary::new(5));
        let obs: Vec<Observation> = d
            .trials()
            .iter()
            .map(|k| {
                let maze = d.maze_for(k, &lib).expect("a maze");
                let mut t = Trial::new(d.setup_for(k, maze), lib.clone());
                play_ready(&mut t, &mut Oracle);
                let info = PlayerInfo::builtin(PlayerKind::Oracle);
                let r = crate::core::record::TrialRecord::of(
                    &t,
                    info,
                    Placement {
                        seed: 0,
                        sample: k.sample,
                        repeat: 0,
                    },
                    None,
                    None,
                );
                Observation::from_record("e1", &r)
            })
            .collect();
        let a = analyze(&obs, &AnalysisOptions::default());
        let g = &a.groups[0];
        let n = obs.iter().filter(|o| in_group(o, g)).count();
        assert_eq!(n, g.trials);
        let pooled = a
            .pooled
            .iter()
            .find(|r| r.shape == ALL && r.encoding == ALL)
            .expect("a pooled row");
        assert_eq!(obs.iter().filter(|o| in_group(o, pooled)).count(), 12);
        let rows: Vec<(usize, &Observation, bool)> = obs
            .iter()
            .enumerate()
            .filter(|(_, o)| in_group(o, g))
            .map(|(i, o)| (i, o, i > 0))
            .collect();
        let h = trials_table("Trials of <g>", &rows);
        assert!(h.contains("Trials of &lt;g&gt;"));
        assert!(
            !h.contains("data-index=\"0\""),
            "a trial without its record has no replay button"
        );
        assert_eq!(h.matches("no replay").count(), 1);
        assert_eq!(h.matches("<td>success</td>").count(), 3 * n);
    }

    #[test]
    fn the_estimate_line_says_what_a_run_costs() {
        assert_eq!(
            estimate_line(360, 0, 0, 1),
            "360 trials (360 per player); built-in players only: no model calls"
        );
        let l = estimate_line(720, 6480, 1_234_567, 2);
        assert!(
            l.contains("at most 6480 model calls and about 1\u{202f}234\u{202f}567 tokens"),
            "{l}"
        );
    }

    #[test]
    fn the_progress_panel_shows_counts_lanes_and_state() {
        let d = ExperimentDesign::default();
        let mut s = Scheduler::for_design(&d);
        let p = s.progress(0.0);
        let lanes = s.lanes(0.0);
        let h = progress_panel(&p, &lanes, 0.0);
        assert!(h.contains("data-done=\"0\" data-total=\"360\""), "{h}");
        assert!(h.contains("0/360 trials"));
        assert!(h.contains("<th>oracle</th>"));
    }

    #[test]
    fn the_list_offers_each_experiment_its_actions() {
        let items = [
            ListedExperiment {
                id: "a\"b".into(),
                name: "<x>".into(),
                done: 3,
                total: 10,
                api_errors: 1,
                open: false,
                running: false,
            },
            ListedExperiment {
                id: "c".into(),
                name: "c".into(),
                done: 10,
                total: 10,
                api_errors: 0,
                open: true,
                running: true,
            },
        ];
        let h = experiment_list(&items);
        assert!(h.contains("&lt;x&gt;") && h.contains("a&quot;b"));
        assert!(h.contains("stopped at 30%") && h.contains("1 API errors"));
        assert!(h.contains("data-action=\"delete\" data-id=\"a&quot;b\""));
        assert_eq!(
            h.matches("data-action=\"delete\"").count(),
            1,
            "not while running"
        );
        assert!(experiment_list(&[]).contains("No experiments stored"));
    }
}
