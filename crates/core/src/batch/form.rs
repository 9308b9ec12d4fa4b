//! The experiment page's design form, typed and read natively: a [`DesignForm`] holds the
//! values as the person typed them (player rows included); [`DesignForm::of`] fills it
//! from a design and [`DesignForm::design`] reads it back, refusing bad values with a
//! sentence each. The page's `FormData` pairs are read into it in one place
//! ([`DesignForm::from_fields`]). Also the stored experiment and its ids.
//!
//! ```
//! use shapemaze_core::batch::design::ExperimentDesign;
//! use shapemaze_core::batch::form::DesignForm;
//!
//! let design = ExperimentDesign::default();
//! let form = DesignForm::of(&design);
//! assert_eq!(form.design(&design).unwrap(), design);
//! ```

use crate::batch::design::{
    ExperimentDesign, PlayerSpec, MAX_CONCURRENCY, MAX_MOVE_LIMIT, MAX_REPEATS,
    MAX_SAMPLES_PER_SHAPE,
};
use crate::batch::error::DesignError;
use crate::json::JsonError;
use crate::maze::encoding::Encoding;
use crate::maze::image::Vision;
use crate::maze::shape::Shape;
use crate::maze::symbols::Symbols;
use crate::model::effort::Effort;
use crate::model::preset::Preset;
use crate::model::price::{Price, PriceError};
use crate::play::answer::AnswerMode;
use crate::play::player::PlayerKind;
use crate::play::staircase::{StairPhase, Staircase};
use crate::play::trial::Protocol;
use crate::text::{format_decimal, parse_decimal};
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

/// One player row of the design form, its values as the person typed them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PlayerRow {
    /// `endpoint`, `oracle` or `random` (anything else reads as `endpoint`).
    pub kind: String,
    /// The name in results (empty: the model's, or the kind's).
    pub name: String,
    /// The endpoint preset's id.
    pub preset: String,
    /// The endpoint's base URL.
    pub base_url: String,
    /// The model's name.
    pub model: String,
    /// The API key (never part of a design: kept in this tab).
    pub key: String,
    /// Sampling temperature.
    pub temperature: String,
    /// Most tokens per reply.
    pub max_tokens: String,
    /// The row's own concurrency (empty: the design's).
    pub concurrency: String,
    /// Its price in dollars per million tokens: `input, output` or `input, output,
    /// reasoning` (empty: none).
    pub price: String,
    /// Whether replies are streamed.
    pub stream: bool,
}

/// A price as the form shows it: `0.4, 1.2` or `0.4, 1.2, 4`.
fn price_text(p: Option<Price>) -> String {
    p.map(|p| {
        let mut t = format!(
            "{}, {}",
            format_decimal(p.input, 4),
            format_decimal(p.output, 4)
        );
        if let Some(r) = p.reasoning {
            t.push_str(&format!(", {}", format_decimal(r, 4)));
        }
        t
    })
    .unwrap_or_default()
}

/// Reads a price typed as `input, output[, reasoning]` dollars per million tokens
/// (empty: none).
fn read_price(raw: &str) -> Result<Option<Price>, PriceError> {
    if raw.trim().is_empty() {
        return Ok(None);
    }
    let parts: Vec<Option<f64>> = raw
        .split([',', '/', ';'])
        .map(|p| parse_decimal(p.trim().trim_start_matches('$')))
        .collect();
    let price = match parts.as_slice() {
        [Some(i), Some(o)] => Price {
            input: *i,
            output: *o,
            reasoning: None,
        },
        [Some(i), Some(o), Some(r)] => Price {
            input: *i,
            output: *o,
            reasoning: Some(*r),
        },
        _ => return Err(PriceError::Unreadable(raw.to_string())),
    };
    price.check()?;
    Ok(Some(price))
}

impl PlayerRow {
    /// The row of a design's player.
    pub fn of(p: &PlayerSpec) -> PlayerRow {
        PlayerRow {
            kind: p.kind.name().to_string(),
            name: p.name.clone().unwrap_or_default(),
            preset: p.preset.clone(),
            base_url: p.base_url.clone(),
            model: p.model.clone(),
            key: String::new(),
            temperature: format_decimal(p.temperature, 2),
            max_tokens: p.max_tokens.to_string(),
            concurrency: p.concurrency.map(|c| c.to_string()).unwrap_or_default(),
            price: price_text(p.price),
            stream: p.stream,
        }
    }

    /// The player kind the row names.
    pub fn player_kind(&self) -> PlayerKind {
        match self.kind.as_str() {
            "oracle" => PlayerKind::Oracle,
            "random" => PlayerKind::Random,
            _ => PlayerKind::Endpoint,
        }
    }

    /// The name the row's player will have in the design ([`PlayerSpec::name`]: its own
    /// name, else the model's for an endpoint, else the kind's).
    pub fn player_name(&self) -> String {
        let mut p = PlayerSpec::builtin(self.player_kind());
        p.name = Some(self.name.clone()).filter(|n| !n.is_empty());
        p.model = self.model.clone();
        p.name()
    }

    /// Fills what an endpoint row leaves empty with its preset's values (the default
    /// preset when none is chosen yet, which also sets streaming as a new row starts).
    pub fn fill_defaults(&mut self) {
        let fresh = self.preset.is_empty();
        let preset = Preset::parse(&self.preset).unwrap_or_default();
        let spec = PlayerSpec::builtin(PlayerKind::Endpoint);
        let defaults = [
            (&mut self.preset, preset.id().to_string()),
            (&mut self.base_url, preset.default_base_url().to_string()),
            (&mut self.model, preset.example_model().to_string()),
            (&mut self.temperature, format_decimal(spec.temperature, 2)),
            (&mut self.max_tokens, spec.max_tokens.to_string()),
        ];
        for (value, default) in defaults {
            if value.trim().is_empty() {
                *value = default;
            }
        }
        if fresh {
            self.stream = spec.stream;
        }
    }

    /// Switches the row to `preset`: its base URL and example model.
    pub fn use_preset(&mut self, preset: Preset) {
        self.preset = preset.id().to_string();
        self.base_url = preset.default_base_url().to_string();
        self.model = preset.example_model().to_string();
    }

    /// Reads the row into player `row` (from 1) of a design: `base`, the player the
    /// design had in that place, gives what the row does not show when it is of the same
    /// kind. Every problem found is named.
    fn player(
        &self,
        base: Option<&PlayerSpec>,
        row: usize,
        problems: &mut Vec<String>,
    ) -> PlayerSpec {
        let kind = self.player_kind();
        let mut p = base
            .filter(|p| p.kind == kind)
            .cloned()
            .unwrap_or_else(|| PlayerSpec::builtin(kind));
        p.name = Some(self.name.clone()).filter(|n| !n.is_empty());
        if kind == PlayerKind::Endpoint {
            self.read_endpoint(&mut p, row, problems);
        }
        let c = &self.concurrency;
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
        p
    }

    /// Reads an endpoint row's settings (preset, base URL, model, temperature, max
    /// tokens, streaming, price) into `p`, naming each problem as player `row`'s.
    fn read_endpoint(&self, p: &mut PlayerSpec, row: usize, problems: &mut Vec<String>) {
        p.preset = self.preset.clone();
        if Preset::parse(&p.preset).is_err() {
            problems.push(format!("Player {row}: choose an endpoint kind"));
        }
        p.base_url = self.base_url.clone();
        p.model = self.model.clone();
        match parse_decimal(&self.temperature) {
            Some(v) if (0.0..=2.0).contains(&v) => p.temperature = v,
            _ => problems.push(format!(
                "Player {row}: temperature must be a number from 0 to 2, not '{}'",
                self.temperature
            )),
        }
        match self.max_tokens.parse::<u32>() {
            Ok(v) if v >= 1 => p.max_tokens = v,
            _ => problems.push(format!(
                "Player {row}: max tokens must be a whole number of at least 1, not '{}'",
                self.max_tokens
            )),
        }
        p.stream = self.stream;
        match read_price(&self.price) {
            Ok(price) => p.price = price,
            Err(e) => problems.push(format!("Player {row}: {e}")),
        }
    }
}

/// The design form's whole numbers as read by [`DesignForm::numbers`]: `None` where a
/// value was refused (or, for the requests per minute, left empty).
struct FormNumbers {
    samples: Option<u64>,
    repeats: Option<u64>,
    seed: Option<u64>,
    concurrency: Option<u64>,
    move_limit: Option<u64>,
    lenient: Option<u64>,
    stair_trials: Option<u64>,
    stair_start: Option<u64>,
    rpm: Option<u64>,
}

impl FormNumbers {
    /// Sets the design's counts and limits: the five the form always shows only when
    /// all five were read (else the design keeps its own), the lenient count with them,
    /// and the requests per minute.
    fn apply(&self, d: &mut ExperimentDesign) {
        if let (Some(s), Some(r), Some(k), Some(c), Some(m)) = (
            self.samples,
            self.repeats,
            self.seed,
            self.concurrency,
            self.move_limit,
        ) {
            d.samples_per_shape = s as usize;
            d.repeats = r as usize;
            d.seed = k;
            d.concurrency = c as usize;
            d.move_limit = m as usize;
            d.lenient = self.lenient.unwrap_or(0) as usize;
        }
        d.requests_per_minute = self.rpm.map(|r| r as u32);
    }
}

/// The experiment page's design form, its values as typed: what
/// `shapemaze_view::experiment::design_form` draws and [`DesignForm::design`] reads into a
/// design. The page's fields are read into it once ([`DesignForm::from_fields`]); their
/// names are [`DesignForm::field_name`]'s.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DesignForm {
    /// The design's name.
    pub name: String,
    /// The player rows, in order.
    pub players: Vec<PlayerRow>,
    /// The "add a player" box.
    pub new: PlayerRow,
    /// The shapes ticked (names).
    pub shapes: Vec<String>,
    /// The encodings ticked (names).
    pub encodings: Vec<String>,
    /// The reasoning efforts ticked (names; none: the endpoints' default).
    pub efforts: Vec<String>,
    /// The answer modes ticked (names; none: free text alone).
    pub answer_modes: Vec<String>,
    /// The matrix's symbols, wall, empty, player and goal (`1 0 P G`).
    pub symbols: String,
    /// Grid sides, separated by commas.
    pub sizes: String,
    /// Mazes per shape.
    pub samples: String,
    /// Repeats per maze.
    pub repeats: String,
    /// The maze sets' seed.
    pub seed: String,
    /// Most moves in the solve phase.
    pub move_limit: String,
    /// Invalid moves the lenient protocol forgives (0: strict).
    pub lenient: String,
    /// Most trials in flight per endpoint.
    pub concurrency: String,
    /// Requests per minute (empty: no limit).
    pub rpm: String,
    /// The protocol's id.
    pub protocol: String,
    /// The vision condition's name (`text`, `image`, `image+text`).
    pub vision: String,
    /// How many imported mazes the design runs, when it runs imported ones.
    pub mazes: Option<String>,
    /// Most dollars the run may spend (empty: no limit).
    pub cost_limit: String,
    /// Trials per staircase walk (empty or 0: no staircase).
    pub staircase: String,
    /// The staircase's start level.
    pub staircase_start: String,
    /// The phase that moves the staircase (`solve`, `recognize`, `generate`, `all`).
    pub staircase_phase: String,
}

impl DesignForm {
    /// The form of a design (API keys are not part of a design: the page adds them).
    pub fn of(d: &ExperimentDesign) -> DesignForm {
        let mut new = PlayerRow {
            kind: "endpoint".into(),
            ..PlayerRow::default()
        };
        new.fill_defaults();
        DesignForm {
            name: d.name.clone(),
            players: d.players.iter().map(PlayerRow::of).collect(),
            new,
            shapes: d.shapes.iter().map(|s| s.name().to_string()).collect(),
            encodings: d.encodings.iter().map(|e| e.name().to_string()).collect(),
            efforts: d.efforts.iter().map(|e| e.name().to_string()).collect(),
            answer_modes: d.modes().iter().map(|m| m.name().to_string()).collect(),
            symbols: d.symbols.to_string(),
            sizes: d
                .sizes()
                .iter()
                .map(|s| s.to_string())
                .collect::<Vec<_>>()
                .join(", "),
            samples: d.samples_per_shape.to_string(),
            repeats: d.repeats.to_string(),
            seed: d.seed.to_string(),
            move_limit: d.move_limit.to_string(),
            lenient: d.lenient.to_string(),
            concurrency: d.concurrency.to_string(),
            rpm: d
                .requests_per_minute
                .map(|r| r.to_string())
                .unwrap_or_default(),
            protocol: protocol_id(d.protocol).to_string(),
            vision: d.vision.name().to_string(),
            mazes: d.mazes.as_ref().map(|m| m.len().to_string()),
            cost_limit: d
                .cost_limit
                .map(|c| format_decimal(c, 2))
                .unwrap_or_default(),
            staircase: d.staircase.map_or("0".into(), |s| s.trials.to_string()),
            staircase_start: d.staircase.map_or(0, |s| s.start).to_string(),
            staircase_phase: d
                .staircase
                .map_or(StairPhase::Solve, |s| s.phase)
                .name()
                .into(),
        }
    }

    /// The name of a field of player row `row` (`None`: the "add a player" box) in the
    /// page's form: `p0.model`, `new.key`.
    pub fn field_name(row: Option<usize>, key: &str) -> String {
        match row {
            Some(i) => format!("p{i}.{key}"),
            None => format!("new.{key}"),
        }
    }

    /// Reads the page's fields (name and value pairs, as a browser's `FormData` lists
    /// them: a checkbox only when ticked), each value trimmed. Player rows are `p0.*`,
    /// `p1.*`, ... up to the first index without a kind.
    pub fn from_fields(fields: &[(String, String)]) -> DesignForm {
        let get = |name: &str| {
            fields
                .iter()
                .find(|(k, _)| k == name)
                .map(|(_, v)| v.trim().to_string())
        };
        let all = |name: &str| -> Vec<String> {
            fields
                .iter()
                .filter(|(k, _)| k == name)
                .map(|(_, v)| v.trim().to_string())
                .collect()
        };
        let row = |r: Option<usize>| {
            let f = |k: &str| get(&DesignForm::field_name(r, k)).unwrap_or_default();
            PlayerRow {
                kind: f("kind"),
                name: f("name"),
                preset: f("preset"),
                base_url: f("base_url"),
                model: f("model"),
                key: f("key"),
                temperature: f("temperature"),
                max_tokens: f("max_tokens"),
                concurrency: f("concurrency"),
                price: f("price"),
                stream: get(&DesignForm::field_name(r, "stream")).is_some(),
            }
        };
        let rows = (0..)
            .take_while(|&i| get(&DesignForm::field_name(Some(i), "kind")).is_some())
            .count();
        let text = |name: &str| get(name).unwrap_or_default();
        DesignForm {
            name: text("name"),
            players: (0..rows).map(|i| row(Some(i))).collect(),
            new: row(None),
            shapes: all("shape"),
            encodings: all("encoding"),
            efforts: all("effort"),
            answer_modes: all("answer_mode"),
            symbols: text("symbols"),
            sizes: text("sizes"),
            samples: text("samples"),
            repeats: text("repeats"),
            seed: text("seed"),
            move_limit: text("move_limit"),
            lenient: text("lenient"),
            concurrency: text("concurrency"),
            rpm: text("rpm"),
            protocol: text("protocol"),
            vision: text("vision"),
            mazes: get("mazes"),
            cost_limit: text("cost_limit"),
            staircase: text("staircase"),
            staircase_start: text("staircase_start"),
            staircase_phase: text("staircase_phase"),
        }
    }

    /// Reads the form into a design. `base` gives what the form does not show (imported
    /// mazes, a player's other endpoint settings, unknown fields), so a design loaded from
    /// a file keeps them. Every problem found is named, each with what to change.
    pub fn design(&self, base: &ExperimentDesign) -> Result<ExperimentDesign, DesignError> {
        let mut problems: Vec<String> = Vec::new();
        let numbers = self.numbers(&mut problems);
        let mut d = base.clone();
        d.name = self.name.clone();
        self.read_axes(base, &mut d, &mut problems);
        d.staircase = self.staircase(base, &numbers, &mut problems);
        d.protocol = match self.protocol.as_str() {
            "combined" => Protocol::Combined,
            "single_shot" => Protocol::SingleShot,
            _ => Protocol::Stepwise,
        };
        d.players = self
            .players
            .iter()
            .enumerate()
            .map(|(i, r)| r.player(base.players.get(i), i + 1, &mut problems))
            .collect();
        numbers.apply(&mut d);
        d.cost_limit = self.cost_limit(&mut problems);
        if let Err(e) = d.validate() {
            problems.extend(e.problems);
        }
        if problems.is_empty() {
            Ok(d)
        } else {
            Err(DesignError { problems })
        }
    }

    /// Reads the form's whole numbers, each within the validator's limits (design.rs), so
    /// the form and a design file agree; a problem is named for each one refused.
    fn numbers(&self, problems: &mut Vec<String>) -> FormNumbers {
        let mut whole = |raw: &str, label: &str, min: u64, max: u64| -> Option<u64> {
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
        let samples = whole(
            &self.samples,
            "Mazes per shape",
            1,
            MAX_SAMPLES_PER_SHAPE as u64,
        );
        let repeats = whole(&self.repeats, "Repeats per maze", 1, MAX_REPEATS as u64);
        let seed = whole(&self.seed, "Seed", 0, u64::MAX);
        let concurrency = whole(
            &self.concurrency,
            "Concurrency per endpoint",
            1,
            MAX_CONCURRENCY as u64,
        );
        let move_limit = whole(&self.move_limit, "Move limit", 1, MAX_MOVE_LIMIT as u64);
        let lenient = match self.lenient.as_str() {
            "" => Some(0),
            raw => whole(
                raw,
                "Lenient (invalid moves forgiven)",
                0,
                MAX_MOVE_LIMIT as u64,
            ),
        };
        let stair_trials = match self.staircase.as_str() {
            "" => Some(0),
            raw => whole(raw, "Staircase trials per walk (0 for none)", 0, 10_000),
        };
        let stair_start = match self.staircase_start.as_str() {
            "" => Some(0),
            raw => whole(raw, "Staircase start level", 0, 1_000),
        };
        let rpm = match self.rpm.as_str() {
            "" => None,
            raw => whole(raw, "Requests per minute (or leave it empty)", 1, 100_000),
        };
        FormNumbers {
            samples,
            repeats,
            seed,
            concurrency,
            move_limit,
            lenient,
            stair_trials,
            stair_start,
            rpm,
        }
    }

    /// Reads what the trials vary over and how a maze is shown into `d`: encodings,
    /// shapes (the design's order kept for those still ticked), efforts, symbols, sizes
    /// and the vision condition.
    fn read_axes(
        &self,
        base: &ExperimentDesign,
        d: &mut ExperimentDesign,
        problems: &mut Vec<String>,
    ) {
        d.encodings = self
            .encodings
            .iter()
            .filter_map(|e| Encoding::parse(e).ok())
            .collect();
        // The design's order is kept for the shapes still ticked (a staircase's ladder goes
        // by it); shapes newly ticked go last.
        let ticked: Vec<Shape> = self
            .shapes
            .iter()
            .filter_map(|s| Shape::parse(s).ok())
            .collect();
        d.shapes = base
            .shapes
            .iter()
            .copied()
            .filter(|s| ticked.contains(s))
            .chain(ticked.iter().copied().filter(|s| !base.shapes.contains(s)))
            .collect();
        d.efforts = self
            .efforts
            .iter()
            .filter_map(|e| Effort::parse(e).ok())
            .collect();
        let modes: Vec<AnswerMode> = self
            .answer_modes
            .iter()
            .filter_map(|m| AnswerMode::parse(m).ok())
            .collect();
        // Free text alone is the design's own, written as no list.
        d.answer_modes = if modes.iter().all(AnswerMode::is_free) {
            Vec::new()
        } else {
            modes
        };
        d.symbols = match self.symbols.trim() {
            "" => Symbols::STANDARD,
            raw => Symbols::parse(raw).unwrap_or_else(|e| {
                problems.push(format!("Matrix symbols: {e}"));
                Symbols::STANDARD
            }),
        };
        self.read_sizes(d, problems);
        d.vision = match self.vision.trim() {
            "" => Vision::Text,
            raw => Vision::parse(raw).unwrap_or_else(|e| {
                problems.push(format!("Shown as: {e}"));
                Vision::Text
            }),
        };
    }

    /// Reads the grid sides into `d` (one side, or several), or names the problem.
    fn read_sizes(&self, d: &mut ExperimentDesign, problems: &mut Vec<String>) {
        let sizes: Result<Vec<usize>, _> = self
            .sizes
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
                "Sizes must be grid sides separated by commas (e.g. 5 or 5, 7), not '{}'",
                self.sizes
            )),
        }
    }

    /// The staircase the form asks for: none for 0 trials, `base`'s when a number or the
    /// phase was refused (a problem is named for the phase here; for the numbers in
    /// [`DesignForm::numbers`]).
    fn staircase(
        &self,
        base: &ExperimentDesign,
        numbers: &FormNumbers,
        problems: &mut Vec<String>,
    ) -> Option<Staircase> {
        let phase = match self.staircase_phase.trim() {
            "" => Some(StairPhase::Solve),
            raw => StairPhase::parse(raw),
        };
        if phase.is_none() {
            problems.push(format!(
                "Staircase phase must be solve, recognize, generate or all, not '{}'",
                self.staircase_phase
            ));
        }
        match (numbers.stair_trials, numbers.stair_start, phase) {
            (Some(0), _, _) => None,
            (Some(trials), Some(start), Some(phase)) => Some(Staircase {
                trials: trials as usize,
                start: start as usize,
                phase,
            }),
            _ => base.staircase,
        }
    }

    /// The cost limit in dollars (empty: none), or the problem named.
    fn cost_limit(&self, problems: &mut Vec<String>) -> Option<f64> {
        match self.cost_limit.trim().trim_start_matches('$') {
            "" => None,
            raw => match parse_decimal(raw) {
                Some(v) if v > 0.0 => Some(v),
                _ => {
                    problems.push(format!(
                        "Cost limit must be dollars above zero (or empty for none), not '{}'",
                        self.cost_limit
                    ));
                    None
                }
            },
        }
    }

    /// Appends the player configured in the "add a player" box as the last row, its key
    /// included (an endpoint row filled in from its preset, streaming as configured).
    pub fn add_configured_player(&mut self) {
        let mut row = if self.new.player_kind() == PlayerKind::Endpoint {
            let mut r = self.new.clone();
            r.kind = "endpoint".into();
            let stream = r.stream;
            r.fill_defaults();
            r.stream = stream;
            r
        } else {
            PlayerRow {
                kind: self.new.kind.clone(),
                ..PlayerRow::default()
            }
        };
        row.name.clear();
        row.concurrency.clear();
        self.players.push(row);
    }

    /// Removes player row `i` (the rows after it move up).
    pub fn remove_player(&mut self, i: usize) {
        if i < self.players.len() {
            self.players.remove(i);
        }
    }

    /// After a kind changed: every endpoint row, and the "add a player" box, filled in
    /// from its preset where empty.
    pub fn kinds_changed(&mut self) {
        for r in self
            .players
            .iter_mut()
            .filter(|r| r.player_kind() == PlayerKind::Endpoint)
        {
            r.fill_defaults();
        }
        self.new.fill_defaults();
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

/// Why a stored experiment cannot be read back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StoredError {
    /// Not the JSON of a stored experiment (the parser's message).
    NotJson(JsonError),
    /// Its design cannot run.
    Design(DesignError),
}

impl std::fmt::Display for StoredError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StoredError::NotJson(e) => write!(f, "not a stored experiment: {e}"),
            StoredError::Design(e) => write!(f, "its design cannot run: {e}"),
        }
    }
}

impl std::error::Error for StoredError {}

impl StoredExperiment {
    /// The stored JSON.
    pub fn to_json(&self) -> Result<String, JsonError> {
        crate::json::to_string(self)
    }

    /// Reads the stored JSON back, checking the design.
    pub fn from_json(text: &str) -> Result<StoredExperiment, StoredError> {
        let e: StoredExperiment = crate::json::from_str(text).map_err(StoredError::NotJson)?;
        e.design.validate().map_err(StoredError::Design)?;
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
#[path = "form_tests.rs"]
mod tests;
