//! The experiment page's parts, rendered here as escaped HTML so the page itself only
//! forwards clicks and field values (and everything it shows is tested natively):
//!
//! - [`design_form`] draws a design as a form (read back by
//!   [`shapemaze_core::batch::form::DesignForm::from_fields`]);
//! - [`progress_panel`] draws the run's progress: done of total, successes per phase, API
//!   errors, tokens, elapsed time and ETA, per player and overall, and each endpoint's
//!   learned concurrency and retries with their cause;
//! - [`experiment_list`] draws the stored experiments with their state and actions;
//! - [`trials_table`] lists a drilled-down group's trials.
//!
//! Every button carries `data-action` (and `data-id` or `data-index`), which the page's
//! one delegated listener reads.

use crate::html::escape;
use shapemaze_core::analysis::observation::Observation;
use shapemaze_core::batch::estimate::Estimate;
use shapemaze_core::batch::form::{protocol_id, DesignForm, PlayerRow, PLAYER_KINDS, PROTOCOLS};
use shapemaze_core::batch::runner::{format_eta, run_eta};
use shapemaze_core::batch::scheduler::{LaneStatus, Progress, RunState, Tally};
use shapemaze_core::maze::encoding::Encoding;
use shapemaze_core::maze::image::Vision;
use shapemaze_core::maze::shape::Shape;
use shapemaze_core::model::effort::Effort;
use shapemaze_core::model::preset::Preset;
use shapemaze_core::model::price::dollars;
use shapemaze_core::play::answer::AnswerMode;
use shapemaze_core::play::player::PlayerKind;
use shapemaze_core::play::staircase::StairPhase;
use shapemaze_core::play::trial::Protocol;
use shapemaze_core::verify::Outcome;
use std::fmt::Write;

/// What a button or field of the experiment page asks for. The renderer writes
/// `data-action` with [`LabAction::name`] and the page reads it back with
/// [`LabAction::parse`], so the two cannot disagree on a string.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LabAction {
    /// Add the "new player" row's player to the design.
    AddPlayer,
    /// Remove the player of `data-index`.
    RemovePlayer,
    /// A player's kind changed: redraw its fields.
    KindChanged,
    /// A player's endpoint preset changed (`data-index`, or `new`).
    PresetChanged,
    /// Run generated mazes again instead of imported ones.
    ClearMazes,
    /// Start a new experiment from the design.
    Start,
    /// Resume the open experiment.
    Resume,
    /// Run the open experiment's API errors again.
    RerunErrors,
    /// Pause the run.
    Pause,
    /// Cancel the run.
    Cancel,
    /// Download the open experiment as a ZIP.
    ExportZip,
    /// Download its trials as CSV.
    ExportCsv,
    /// Download its trials as JSONL.
    ExportJsonl,
    /// Download the design.
    ExportDesign,
    /// Load a design file (a file input).
    LoadDesign,
    /// Import results or maze files (a file input).
    Import,
    /// Open the stored experiment of `data-id`.
    Open,
    /// Rename it.
    Rename,
    /// Duplicate its design.
    Duplicate,
    /// Delete it.
    Delete,
    /// Replay the trial of `data-index` (the trials table).
    OpenTrial,
}

impl LabAction {
    /// Every action.
    pub const ALL: [LabAction; 21] = [
        LabAction::AddPlayer,
        LabAction::RemovePlayer,
        LabAction::KindChanged,
        LabAction::PresetChanged,
        LabAction::ClearMazes,
        LabAction::Start,
        LabAction::Resume,
        LabAction::RerunErrors,
        LabAction::Pause,
        LabAction::Cancel,
        LabAction::ExportZip,
        LabAction::ExportCsv,
        LabAction::ExportJsonl,
        LabAction::ExportDesign,
        LabAction::LoadDesign,
        LabAction::Import,
        LabAction::Open,
        LabAction::Rename,
        LabAction::Duplicate,
        LabAction::Delete,
        LabAction::OpenTrial,
    ];

    /// The `data-action` value.
    pub fn name(self) -> &'static str {
        match self {
            LabAction::AddPlayer => "add-player",
            LabAction::RemovePlayer => "remove-player",
            LabAction::KindChanged => "kind-changed",
            LabAction::PresetChanged => "preset-changed",
            LabAction::ClearMazes => "clear-mazes",
            LabAction::Start => "start",
            LabAction::Resume => "resume",
            LabAction::RerunErrors => "rerun-errors",
            LabAction::Pause => "pause",
            LabAction::Cancel => "cancel",
            LabAction::ExportZip => "export-zip",
            LabAction::ExportCsv => "export-csv",
            LabAction::ExportJsonl => "export-jsonl",
            LabAction::ExportDesign => "export-design",
            LabAction::LoadDesign => "load-design",
            LabAction::Import => "import",
            LabAction::Open => "open",
            LabAction::Rename => "rename",
            LabAction::Duplicate => "duplicate",
            LabAction::Delete => "delete",
            LabAction::OpenTrial => "open-trial",
        }
    }

    /// The action a `data-action` value names.
    pub fn parse(name: &str) -> Option<LabAction> {
        LabAction::ALL.into_iter().find(|a| a.name() == name)
    }

    /// The button's test id: the run's buttons carry `experiment-` before their name.
    fn test_id(self) -> String {
        match self {
            LabAction::Start | LabAction::Pause | LabAction::Resume | LabAction::Cancel => {
                format!("experiment-{}", self.name())
            }
            _ => self.name().to_string(),
        }
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

fn checked(on: bool) -> &'static str {
    if on {
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

/// The design form, filled in with `form` (a design's, or as the person left it).
/// `locked` greys it out while a run is under way. Field names are
/// [`DesignForm::field_name`]'s, which [`DesignForm::from_fields`] reads back.
pub fn design_form(form: &DesignForm, locked: bool) -> String {
    let mut h = String::new();
    let dis = if locked { " disabled" } else { "" };
    let _ = write!(
        h,
        "<fieldset class=\"lab-fieldset\"{dis}><legend>Design</legend>\
         <label class=\"field wide\"><span>Name</span><input name=\"name\" data-testid=\"design-name\" value=\"{}\" placeholder=\"e.g. Qwen sizes, November\"></label>",
        escape(&form.name)
    );
    add_player_form(&mut h, &form.new);
    h.push_str("<div class=\"lab-players\" data-testid=\"players\">");
    for (i, row) in form.players.iter().enumerate() {
        player_row(&mut h, i, row);
    }
    h.push_str("</div>");
    maze_fields(&mut h, form);
    number_fields(&mut h, form);
    protocol_fields(&mut h, form);
    h.push_str("</div></fieldset>");
    h
}

/// One player's row of the design form: its kind and name, an endpoint's settings, and its
/// concurrency.
fn player_row(h: &mut String, i: usize, row: &PlayerRow) {
    let field = |key: &str| DesignForm::field_name(Some(i), key);
    let kind = row.player_kind().name();
    let preset = row.preset.as_str();
    let _ = write!(
        h,
        "<div class=\"lab-player\" data-testid=\"player-row\"><span class=\"row-label\">Player {}</span>\
         <label class=\"field\"><span>Kind</span><select name=\"{}\" data-testid=\"player-kind\" data-action=\"{}\">",
        i + 1,
        field("kind"),
        LabAction::KindChanged.name(),
    );
    kind_options(h, kind);
    h.push_str("</select></label>");
    let _ = write!(
        h,
        "<label class=\"field\"><span>Name in results</span><input name=\"{}\" value=\"{}\" placeholder=\"the model's name\"></label>",
        field("name"),
        escape(&row.name)
    );
    if kind == "endpoint" {
        let _ = write!(
            h,
            "<label class=\"field\"><span>Endpoint</span><select name=\"{}\" data-testid=\"player-preset\" data-action=\"{}\" data-index=\"{i}\">",
            field("preset"),
            LabAction::PresetChanged.name(),
        );
        preset_options(h, preset);
        let _ = write!(
            h,
            "</select></label>\
             <label class=\"field wide\"><span>Base URL</span><input name=\"{}\" data-testid=\"player-base-url\" value=\"{}\" spellcheck=\"false\"></label>\
             <label class=\"field\"><span>Model</span><input name=\"{}\" data-testid=\"player-model\" value=\"{}\" spellcheck=\"false\"></label>\
             <label class=\"field\"><span>API key</span><input name=\"{}\" data-testid=\"player-key\" type=\"password\" autocomplete=\"off\" value=\"{}\" placeholder=\"kept in this tab only\"></label>\
             <label class=\"field short\"><span>Temperature</span><input name=\"{}\" value=\"{}\" inputmode=\"decimal\"></label>\
             <label class=\"field short\"><span>Max tokens</span><input name=\"{}\" value=\"{}\" inputmode=\"numeric\"></label>\
             <label class=\"field\" title=\"{PRICE_HINT}\"><span>Price ($/M tokens)</span><input name=\"{}\" data-testid=\"player-price\" value=\"{}\" placeholder=\"input, output\" inputmode=\"decimal\"></label>\
             <label class=\"check\"><input type=\"checkbox\" name=\"{}\"{}> Stream</label>",
            field("base_url"),
            escape(&row.base_url),
            field("model"),
            escape(&row.model),
            field("key"),
            escape(&row.key),
            field("temperature"),
            escape(&row.temperature),
            field("max_tokens"),
            escape(&row.max_tokens),
            field("price"),
            escape(&row.price),
            field("stream"),
            checked(row.stream),
        );
    }
    let _ = write!(
        h,
        "<label class=\"field short\"><span>Concurrency</span><input name=\"{}\" data-testid=\"player-concurrency\" value=\"{}\" placeholder=\"design's\" inputmode=\"numeric\"></label>\
         <button type=\"button\" class=\"button small\" data-action=\"{}\" data-index=\"{i}\">Remove</button></div>",
        field("concurrency"),
        escape(&row.concurrency),
        LabAction::RemovePlayer.name(),
    );
}

/// The imported mazes' notice, and the shapes, encodings and reasoning efforts ticked.
fn maze_fields(h: &mut String, form: &DesignForm) {
    if let Some(n) = &form.mazes {
        let _ = write!(
            h,
            "<p class=\"notice\" data-testid=\"imported-mazes\"><input type=\"hidden\" name=\"mazes\" value=\"{0}\">{0} imported mazes run instead of generated ones (shapes, sizes and mazes per shape below are ignored). <button type=\"button\" class=\"button small\" data-action=\"{1}\">Use generated mazes</button></p>",
            escape(n),
            LabAction::ClearMazes.name(),
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
            checked(form.shapes.iter().any(|x| x == s.name()))
        );
    }
    h.push_str("</div></div><div class=\"field\"><span>Encodings</span><div class=\"checks\">");
    for e in Encoding::ALL {
        let _ = write!(
            h,
            "<label class=\"check\"><input type=\"checkbox\" name=\"encoding\" value=\"{}\"{}> {}</label>",
            e.name(),
            checked(form.encodings.iter().any(|x| x == e.name())),
            e.label()
        );
    }
    h.push_str("</div></div><div class=\"field\" title=\"Each model endpoint runs once per effort ticked, as model@effort, compared like models. A level is sent as reasoning_effort; thinking and no-thinking switch Qwen3's enable_thinking. None ticked: the endpoints' default\"><span>Reasoning efforts</span><div class=\"checks\" data-testid=\"design-efforts\">");
    for e in Effort::ALL {
        let _ = write!(
            h,
            "<label class=\"check\"><input type=\"checkbox\" name=\"effort\" value=\"{0}\"{1}> {0}</label>",
            e.name(),
            checked(form.efforts.iter().any(|x| x == e.name()))
        );
    }
    h.push_str("</div></div><div class=\"field\" title=\"Each maze is played by the model endpoints in every answer mode ticked, as in every encoding ticked, and compared paired by maze: free text (the design's, the reference), held to a JSON schema, a forced function call, or free text copied into the schema by a second call. Built-in players answer freely. None ticked: free text\"><span>Answer modes</span><div class=\"checks\" data-testid=\"design-answer-modes\">");
    for m in AnswerMode::ALL {
        let _ = write!(
            h,
            "<label class=\"check\"><input type=\"checkbox\" name=\"answer_mode\" value=\"{}\"{}> {}</label>",
            m.name(),
            checked(form.answer_modes.iter().any(|x| x == m.name())),
            m.label()
        );
    }
    h.push_str("</div></div>");
}

/// The design's numbers: sizes, mazes per shape, repeats, seed, limits, concurrency,
/// rate and cost limit.
fn number_fields(h: &mut String, form: &DesignForm) {
    let numbers: [(&str, &str, &str, &str); 9] = [
        (
            "sizes",
            "Sizes",
            "Grid sides, separated by commas (e.g. 5 or 5, 7)",
            &form.sizes,
        ),
        (
            "samples",
            "Mazes per shape",
            "Mazes generated per shape and size",
            &form.samples,
        ),
        (
            "repeats",
            "Repeats per maze",
            "Trials per maze and encoding",
            &form.repeats,
        ),
        ("seed", "Seed", "The maze sets' seed", &form.seed),
        (
            "move_limit",
            "Move limit",
            "Most moves in the solve phase: 16 by default at every grid size (the design's), as every generated maze's shortest path takes 3 to 16 moves whatever its size",
            &form.move_limit,
        ),
        (
            "lenient",
            "Lenient",
            "The lenient protocol: this many invalid moves are answered with why they are invalid and tried again (each still uses a move); 0 is the design's strict rule, where an invalid move ends the phase",
            &form.lenient,
        ),
        (
            "concurrency",
            "Concurrency",
            "Most trials in flight per endpoint",
            &form.concurrency,
        ),
        (
            "rpm",
            "Requests per minute",
            "Empty for no limit",
            &form.rpm,
        ),
        (
            "cost_limit",
            "Cost limit ($)",
            "Most dollars the run may spend at the models' prices; it pauses before a trial that would pass it. Empty for none",
            &form.cost_limit,
        ),
    ];
    for (name, label, hint, value) in numbers {
        let testid = match name {
            "samples" => "samples-per-shape".to_string(),
            "repeats" => "repeats-per-maze".to_string(),
            "concurrency" => "concurrency".to_string(),
            other => format!("design-{other}"),
        };
        let _ = write!(
            h,
            "<label class=\"field short\" title=\"{hint}\"><span>{label}</span><input name=\"{name}\" data-testid=\"{testid}\" value=\"{}\" inputmode=\"numeric\"></label>",
            escape(value)
        );
    }
}

/// The protocol, the matrix symbols, how the maze is shown and the staircase.
fn protocol_fields(h: &mut String, form: &DesignForm) {
    let proto = if form.protocol.is_empty() {
        "stepwise"
    } else {
        form.protocol.as_str()
    };
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
    let _ = write!(
        h,
        "</select></label><label class=\"field short\" title=\"The four symbols a matrix is written in: wall, empty, player, goal (1 0 P G, or another set such as @ * S E). The prompt's legend states them; a generated maze in other symbols is not properly encoded\"><span>Matrix symbols</span><input name=\"symbols\" data-testid=\"design-symbols\" value=\"{}\"></label>",
        escape(&form.symbols)
    );
    h.push_str("<label class=\"field\" title=\"How each maze is shown: as text (the design's condition), as an image only, or as an image beside its text, for multimodal endpoints (the image_url part; docs/vision.md). Replies are text in every condition\"><span>Shown as</span><select name=\"vision\" data-testid=\"design-vision\">");
    for v in Vision::ALL {
        let _ = write!(
            h,
            "<option value=\"{0}\"{1}>{2}</option>",
            v.name(),
            selected(form.vision == v.name() || (form.vision.is_empty() && v == Vision::Text)),
            match v {
                Vision::Text => "Text",
                Vision::Image => "Image only",
                Vision::ImageAndText => "Image and text",
            }
        );
    }
    let _ = write!(
        h,
        "</select></label><label class=\"field short\" title=\"Adaptive difficulty: each model and encoding walks the levels (the sizes, smallest first, then the shapes in the design's order: a loaded file's, newly ticked ones last) one trial at a time, one level up after two successes in a row and one down after a failure, instead of playing every maze. Trials per walk; 0 for no staircase\"><span>Staircase trials</span><input name=\"staircase\" data-testid=\"design-staircase\" value=\"{}\" inputmode=\"numeric\"></label><label class=\"field short\" title=\"The level each walk starts at (0, the easiest)\"><span>Start level</span><input name=\"staircase_start\" data-testid=\"design-staircase-start\" value=\"{}\" inputmode=\"numeric\"></label><label class=\"field\" title=\"Which phase's success moves the staircase\"><span>Staircase on</span><select name=\"staircase_phase\" data-testid=\"design-staircase-phase\">",
        escape(&form.staircase),
        escape(&form.staircase_start)
    );
    for p in StairPhase::ALL {
        let _ = write!(
            h,
            "<option value=\"{0}\"{1}>{0}</option>",
            p.name(),
            selected(form.staircase_phase == p.name())
        );
    }
    h.push_str("</select></label>");
}

/// What the price field takes.
const PRICE_HINT: &str = "Dollars per million tokens: input, output (and reasoning, when priced apart). Kept with the design and in each record, for the cost per trial and per solve and the cost limit";

/// The "add a player" box: the agent and endpoint fields of `/model` (same test ids), and
/// `add-model`, which appends the player configured there to the design.
fn add_player_form(h: &mut String, new: &PlayerRow) {
    let kind = new.player_kind().name();
    let field = |key| DesignForm::field_name(None, key);
    let _ = write!(
        h,
        "<div class=\"lab-player lab-new\"><span class=\"row-label\">Add a player</span><label class=\"field\"><span>Agent</span><select name=\"{}\" data-testid=\"agent\" data-action=\"{}\">",
        field("kind"),
        LabAction::KindChanged.name()
    );
    kind_options(h, kind);
    h.push_str("</select></label>");
    if kind == "endpoint" {
        let preset = new.preset.as_str();
        let _ = write!(
            h,
            "<label class=\"field\"><span>Endpoint</span><select name=\"{}\" data-testid=\"endpoint-preset\" data-action=\"{}\" data-index=\"new\">",
            field("preset"),
            LabAction::PresetChanged.name()
        );
        preset_options(h, preset);
        let _ = write!(
            h,
            "</select></label>\
             <label class=\"field wide\"><span>Base URL</span><input name=\"{}\" data-testid=\"endpoint-base-url\" value=\"{}\" spellcheck=\"false\"></label>\
             <label class=\"field\"><span>Model</span><input name=\"{}\" data-testid=\"endpoint-model\" value=\"{}\" spellcheck=\"false\"></label>\
             <label class=\"field\"><span>API key</span><input name=\"{}\" data-testid=\"endpoint-api-key\" type=\"password\" autocomplete=\"off\" value=\"{}\" placeholder=\"kept in this tab only\"></label>\
             <label class=\"field\" title=\"{PRICE_HINT}\"><span>Price ($/M tokens)</span><input name=\"{}\" data-testid=\"endpoint-price\" value=\"{}\" placeholder=\"input, output\" inputmode=\"decimal\"></label>\
             <label class=\"check\"><input type=\"checkbox\" name=\"{}\" data-testid=\"endpoint-stream\"{}> Stream</label>",
            field("base_url"),
            escape(&new.base_url),
            field("model"),
            escape(&new.model),
            field("key"),
            escape(&new.key),
            field("price"),
            escape(&new.price),
            field("stream"),
            checked(new.stream),
        );
    }
    let _ = write!(
        h,
        "<button type=\"button\" class=\"button\" data-action=\"{}\" data-testid=\"add-model\">Add to the design</button></div>",
        LabAction::AddPlayer.name()
    );
}

/// The line under the form: trials, calls, tokens and (with prices) dollars before
/// starting.
pub fn estimate_line(est: &Estimate, players: usize) -> String {
    let (trials, calls, tokens) = (est.trials, est.calls, est.tokens);
    let mut s = format!("{trials} trials ({} per player)", trials / players.max(1));
    if calls > 0 {
        let _ = write!(
            s,
            "; at most {calls} model calls and about {} tokens",
            thousands(tokens)
        );
        if let Some(cost) = est.cost {
            let _ = write!(s, ", at most about {} at the prices given", dollars(cost));
        }
        s.push_str(" (a rough, high estimate: retries not counted)");
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
    let button = |h: &mut String, action: LabAction, label: &str, primary: bool, on: bool| {
        let _ = write!(
            h,
            "<button type=\"button\" class=\"button{}\" data-action=\"{}\" data-testid=\"{}\"{}>{label}</button>",
            if primary { " primary" } else { "" },
            action.name(),
            action.test_id(),
            if on { "" } else { " disabled" }
        );
    };
    let idle = !s.running;
    button(
        &mut h,
        LabAction::Start,
        "Start a new experiment",
        !s.open || s.stored == s.total,
        idle,
    );
    if s.open {
        if s.running {
            button(&mut h, LabAction::Pause, "Pause", false, true);
            button(&mut h, LabAction::Cancel, "Cancel", false, true);
        } else if s.stored < s.total {
            button(
                &mut h,
                LabAction::Resume,
                if s.stored == 0 { "Run it" } else { "Resume" },
                true,
                true,
            );
        }
        if s.api_errors > 0 {
            let label = format!("Rerun the {} API errors", s.api_errors);
            button(&mut h, LabAction::RerunErrors, &label, false, idle);
        }
        let any = s.stored > 0;
        button(
            &mut h,
            LabAction::ExportZip,
            "Download the run (ZIP)",
            false,
            any,
        );
        button(
            &mut h,
            LabAction::ExportCsv,
            "Download trials (CSV)",
            false,
            any,
        );
        button(
            &mut h,
            LabAction::ExportJsonl,
            "Download trials (JSONL)",
            false,
            any,
        );
    }
    button(
        &mut h,
        LabAction::ExportDesign,
        "Download design",
        false,
        true,
    );
    let _ = write!(
        h,
        "<label class=\"button file\">Load a design…<input type=\"file\" accept=\".json,application/json\" data-action=\"{}\" data-testid=\"load-design\"></label>\
         <label class=\"button file\">Import results…<input type=\"file\" multiple accept=\".zip,.jsonl,.npy,application/zip\" data-action=\"{}\" data-testid=\"import-file\"></label></div>",
        LabAction::LoadDesign.name(),
        LabAction::Import.name()
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
        let button = |h: &mut String, action: LabAction, label: &str| {
            let _ = write!(
                h,
                "<button type=\"button\" class=\"button small\" data-action=\"{0}\" data-id=\"{id}\" data-testid=\"{0}\">{label}</button>",
                action.name()
            );
        };
        if !e.open {
            button(&mut h, LabAction::Open, "Open");
        }
        if !e.running {
            button(&mut h, LabAction::Rename, "Rename");
            button(&mut h, LabAction::Duplicate, "Duplicate");
            button(&mut h, LabAction::Delete, "Delete");
        }
        h.push_str("</td></tr>");
    }
    h.push_str("</tbody></table>");
    h
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
                "<td><button type=\"button\" class=\"button small\" data-action=\"{0}\" data-index=\"{i}\" data-testid=\"{0}\">Replay</button></td></tr>",
                LabAction::OpenTrial.name()
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
#[path = "experiment_tests.rs"]
mod tests;
