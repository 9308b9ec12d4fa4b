//! `/experiment`: design a batch of trials, run it, keep every finished trial in IndexedDB
//! the moment it ends, resume after a reload, and export or import the results.
//!
//! A run is the core's [`Session`] (the same one `shapemaze run` drives: the scheduler
//! with its adaptive concurrency per endpoint, `Retry-After` and requests per minute,
//! generations, records held after a failed save); this page does its effects with the
//! browser's tools ([`apply`]): tasks, timers, IndexedDB, fetch. Everything shown is
//! rendered by [`shapemaze_view::experiment`] as escaped HTML; this component forwards clicks
//! through one delegated listener (`data-action`) and reads the form's fields as plain
//! name and value pairs.

pub(crate) mod files;

use super::download::{download_bytes, download_file};
use super::route::{use_location, Location};
use super::storage::{Db, EXPERIMENTS, TRIALS};
use super::transport::BrowserTransport;
use files::{export, import, load_design, use_mazes};
use leptos::prelude::*;
use leptos::task::spawn_local;
use shapemaze_core::batch::design::{ExperimentDesign, TrialKey};
use shapemaze_core::batch::export::{
    export_files, find_trials_entry, merge, parse_jsonl, trials_csv, trials_jsonl, ExportFile,
    EXPERIMENT_FILE,
};
use shapemaze_core::batch::form::{new_experiment_id, trials_prefix, DesignForm, StoredExperiment};
use shapemaze_core::batch::runner::{endpoint_settings, play_trial, sort_by_design};
use shapemaze_core::batch::session::{Effect, Notice, Session};
use shapemaze_core::maze::shape::ShapeSet;
use shapemaze_core::maze::templates::TemplateLibrary;
use shapemaze_core::model::preset::Preset;
use shapemaze_core::model::transport::Transport;
use shapemaze_core::play::player::PlayerKind;
use shapemaze_core::results::record::TrialRecord;
use shapemaze_core::results::rescore::Libraries;
use shapemaze_core::results::zip::{read_zip, Method, ZipWriter};
use shapemaze_view::experiment::LabAction;
use shapemaze_view::experiment::{
    design_form, estimate_line, experiment_list, progress_panel, toolbar, ListedExperiment,
    ToolbarState,
};
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::Arc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

#[wasm_bindgen(module = "/js/lab.js")]
extern "C" {
    /// Raw deflate (or, with `inflate`, inflate) through the browser's streams.
    #[wasm_bindgen(catch)]
    async fn deflate_raw(bytes: &[u8], inflate: bool) -> Result<JsValue, JsValue>;
    /// The names and bytes of the files chosen in a file input: name, bytes, name, ...
    #[wasm_bindgen(catch)]
    async fn file_bytes(input: &web_sys::Element) -> Result<JsValue, JsValue>;
    /// Adds a "Download SVG" button after each chart and a "Download CSV" button after each
    /// table of the results page.
    pub(crate) fn decorate(root: &web_sys::Element, table_action: &str, chart_action: &str);
    /// Every named field of a form as name, value, name, value... (ticked checkboxes only).
    fn form_fields(form: &web_sys::Element) -> js_sys::Array;
}

/// A lab page's message: an error (`bad`) or a plain notice, with its test id.
pub(crate) fn notice(message: Option<(bool, String)>, testid: &'static str) -> impl IntoView {
    message.map(|(bad, text)| {
        view! {
            <p class=if bad { "notice error" } else { "notice" } role="status" data-testid=testid>
                {text}
            </p>
        }
    })
}

/// Where the page remembers the open experiment (this browser).
const OPEN_KEY: &str = "shapemaze.lab-open";
/// Where a player's API key is kept for this tab only (sessionStorage), by player name.
const KEY_PREFIX: &str = "shapemaze.lab-key.";

/// The form of `design`, each endpoint row's API key filled in from this tab's store (a
/// key typed before, under the player's name). Only a form made from a design is filled:
/// a key the person clears stays cleared.
fn form_with_stored_keys(design: &ExperimentDesign) -> DesignForm {
    let mut form = DesignForm::of(design);
    if let Some(s) = session() {
        for row in form.players.iter_mut() {
            let stored = s.get_item(&format!("{KEY_PREFIX}{}", row.player_name()));
            if let Some(v) = stored.ok().flatten() {
                row.key = v;
            }
        }
    }
    form
}

fn now() -> f64 {
    js_sys::Date::now()
}

fn local() -> Option<web_sys::Storage> {
    web_sys::window().and_then(|w| w.local_storage().ok().flatten())
}

fn session() -> Option<web_sys::Storage> {
    web_sys::window().and_then(|w| w.session_storage().ok().flatten())
}

/// A run of the open experiment: the core's session, and the transports of the trials
/// it has in flight (by trial id and generation), which cancel aborts.
struct Run {
    /// The experiment's storage id: its trials are saved under it, whatever is open.
    id: String,
    session: RefCell<Session>,
    transports: RefCell<HashMap<(String, u32), BrowserTransport>>,
}

/// The open experiment.
struct Open {
    id: String,
    stored: StoredExperiment,
    run: Rc<Run>,
}

/// The page's state.
struct Lab {
    db: RefCell<Option<Db>>,
    fields: RefCell<DesignForm>,
    base: RefCell<ExperimentDesign>,
    open: RefCell<Option<Open>>,
    listed: RefCell<Vec<ListedExperiment>>,
    libraries: RefCell<Libraries>,
    form: RwSignal<String>,
    estimate: RwSignal<String>,
    tools: RwSignal<String>,
    progress: RwSignal<String>,
    list: RwSignal<String>,
    message: RwSignal<Option<(bool, String)>>,
    /// Set while a new experiment is being created (a second click does nothing).
    starting: Cell<bool>,
    /// Bumped by every open or start, and by a design or maze files loaded: an open that
    /// finds it changed after its reads gives way to the newer one.
    view: Cell<u32>,
    /// Set once IndexedDB has been asked for (its answer may still be pending).
    db_tried: Cell<bool>,
    /// The address: leaving while a run is under way asks first ([`Lab::leave_warning`]).
    loc: Location,
}

/// Asked before leaving the page while a run is under way (it stops when the page goes).
const LEAVE_RUN: &str = "A run is under way. Leave this page and it stops: every finished trial is kept, and the trials in flight are played again when you resume it.";

/// Asked before leaving the page while finished trials are not saved yet.
const LEAVE_UNSAVED: &str = "Some finished trials are not saved yet: stay and press Resume to save them. Leave this page and they are lost.";

type Shared = Rc<Lab>;

impl Lab {
    fn library(&self, size: usize, shapes: ShapeSet) -> Arc<TemplateLibrary> {
        self.libraries.borrow_mut().get(size, shapes).clone()
    }

    /// Something newer than any open still reading: that open gives way.
    fn supersede(&self) {
        self.view.set(self.view.get() + 1);
    }

    fn say(&self, text: impl Into<String>) {
        self.message.set(Some((false, text.into())));
    }

    fn fail(&self, text: impl Into<String>) {
        self.message.set(Some((true, text.into())));
    }

    fn db(&self) -> Result<Db, String> {
        if !self.db_tried.get() {
            return Err("The browser's storage is still opening: try again in a moment.".into());
        }
        self.db.borrow().clone().ok_or_else(|| {
            "This browser's storage (IndexedDB) is not available (private mode, or storage blocked for this site): nothing can be kept. Allow site data and reload.".to_string()
        })
    }

    /// Reads the form as it stands into `fields` (with the keys), if it is on the page.
    fn read_form(&self) {
        let Some(form) = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.get_element_by_id("lab-design"))
        else {
            return;
        };
        let flat = form_fields(&form);
        let mut out = Vec::new();
        let mut i = 0;
        while i + 1 < flat.length() {
            let k = flat.get(i).as_string().unwrap_or_default();
            let v = flat.get(i + 1).as_string().unwrap_or_default();
            out.push((k, v));
            i += 2;
        }
        *self.fields.borrow_mut() = DesignForm::from_fields(&out);
    }

    /// Draws the form from `fields` (the keys filled in from this tab's store).
    fn draw_form(&self) {
        let locked = self.running();
        let form = self.fields.borrow().clone();
        self.form.set(design_form(&form, locked));
        self.draw_estimate();
    }

    fn running(&self) -> bool {
        self.open
            .borrow()
            .as_ref()
            .is_some_and(|o| o.run.session.borrow().running(now()))
    }

    /// Redraws the buttons, the progress and the list.
    fn draw_state(&self) {
        if self.gone() {
            return;
        }
        self.loc.unsaved.set(self.leave_warning());
        let open = self.open.borrow();
        let mut state = ToolbarState::default();
        if let Some(o) = open.as_ref() {
            let s = o.run.session.borrow();
            let t = now();
            let p = s.progress(t);
            let lanes = s.lanes(t);
            state = ToolbarState {
                open: true,
                running: s.running(t),
                stored: s.stored(t),
                total: p.overall.total,
                // A staircase does not rerun its API errors: no button for them.
                api_errors: match s.design().staircase {
                    Some(_) => 0,
                    None => p.overall.api_errors,
                },
            };
            self.progress.set(progress_panel(&p, &lanes, t));
        } else {
            self.progress.set(String::new());
        }
        self.tools.set(toolbar(state));
        let open_id = open.as_ref().map(|o| o.id.clone());
        let mut listed = self.listed.borrow_mut();
        for e in listed.iter_mut() {
            e.open = Some(&e.id) == open_id.as_ref();
            e.running = e.open && state.running;
            if e.open {
                e.done = state.stored;
                e.total = state.total;
                e.api_errors = state.api_errors;
            }
        }
        self.list.set(experiment_list(&listed));
    }

    /// What leaving the page now would cost, if anything: finished trials not saved, or
    /// a run under way (stopped when the page goes).
    fn leave_warning(&self) -> Option<&'static str> {
        let run = self.open.borrow().as_ref()?.run.clone();
        let s = run.session.borrow();
        if s.unsaved() > 0 {
            Some(LEAVE_UNSAVED)
        } else {
            s.busy(now()).map(|_| LEAVE_RUN)
        }
    }

    /// Whether the page was left (its signals are gone with it).
    fn gone(&self) -> bool {
        self.form.try_with_untracked(|_| ()).is_none()
    }

    /// Why the open experiment cannot be left now (a run under way, trials in flight,
    /// records not saved yet), if it cannot.
    fn busy(&self) -> Option<String> {
        let run = self.open.borrow().as_ref()?.run.clone();
        let why = run.session.borrow().busy(now());
        why
    }
}

/// The experiment page.
#[component]
pub fn ExperimentPage() -> impl IntoView {
    let design = ExperimentDesign::default();
    let lab: Shared = Rc::new(Lab {
        db: RefCell::new(None),
        fields: RefCell::new(form_with_stored_keys(&design)),
        base: RefCell::new(design),
        open: RefCell::new(None),
        listed: RefCell::new(Vec::new()),
        libraries: RefCell::new(Libraries::new()),
        form: RwSignal::new(String::new()),
        estimate: RwSignal::new(String::new()),
        tools: RwSignal::new(String::new()),
        progress: RwSignal::new(String::new()),
        list: RwSignal::new(String::new()),
        message: RwSignal::new(None),
        starting: Cell::new(false),
        view: Cell::new(0),
        db_tried: Cell::new(false),
        loc: use_location(),
    });
    {
        // Leaving the page stops its run (the address asked first, see `leave_warning`).
        let kept = StoredValue::new_local(lab.clone());
        on_cleanup(move || {
            kept.try_with_value(leave);
        });
    }
    lab.draw_form();
    lab.draw_state();
    {
        let lab = lab.clone();
        spawn_local(async move {
            let opened = Db::open().await;
            lab.db_tried.set(true);
            match opened {
                Ok(db) => *lab.db.borrow_mut() = Some(db),
                Err(e) => lab.fail(format!(
                    "This browser's storage is not available ({e}): runs cannot be kept. Allow site data for this site (or leave private mode) and reload."
                )),
            }
            refresh_list(&lab).await;
            let last = local().and_then(|s| s.get_item(OPEN_KEY).ok().flatten());
            if let Some(id) = last {
                if lab.listed.borrow().iter().any(|e| e.id == id) {
                    let _ = open_experiment(&lab, &id).await;
                }
            }
        });
    }
    let click = {
        let lab = lab.clone();
        move |ev: web_sys::MouseEvent| {
            let Some(el) = action_target(&ev) else { return };
            if el.tag_name() == "INPUT" || el.tag_name() == "SELECT" {
                return;
            }
            let Some(action) = action_of(&el) else {
                return;
            };
            let id = el.get_attribute("data-id").unwrap_or_default();
            let index = el.get_attribute("data-index").unwrap_or_default();
            on_action(&lab, action, id, index, None);
        }
    };
    let change = {
        let lab = lab.clone();
        move |ev: web_sys::Event| {
            let Some(el) = action_target(&ev) else {
                lab.read_form();
                lab.draw_estimate();
                return;
            };
            let Some(action) = action_of(&el) else {
                return;
            };
            let index = el.get_attribute("data-index").unwrap_or_default();
            on_action(&lab, action, String::new(), index, Some(el));
        }
    };
    let (form, estimate, tools, progress, list, message) = (
        lab.form,
        lab.estimate,
        lab.tools,
        lab.progress,
        lab.list,
        lab.message,
    );
    view! {
        <section class="lab" on:click=click on:change=change>
            <h1>"Experiments"</h1>
            <p class="lead">
                "Design a batch of trials for several players at once, run it here, and download results that Python, R and "
                <code>"shapemaze score"</code>
                " read directly. Every finished trial is kept in this browser the moment it ends: close the tab or reload, then resume."
            </p>
            {move || notice(message.get(), "lab-message")}
            <form id="lab-design" class="lab-form" inner_html=move || form.get() on:submit=|ev| ev.prevent_default()></form>
            <p class="estimate" data-testid="estimate">{move || estimate.get()}</p>
            <div inner_html=move || tools.get()></div>
            <div class="lab-progress" inner_html=move || progress.get()></div>
            <h2>"Stored in this browser"</h2>
            <div data-testid="experiment-list" inner_html=move || list.get()></div>
        </section>
    }
}

impl Lab {
    fn draw_estimate(&self) {
        let form = self.fields.borrow().clone();
        let base = self.base.borrow().clone();
        self.estimate.set(match form.design(&base) {
            Ok(d) => {
                let est = d.estimate(|s| self.library(s, d.shape_set()));
                estimate_line(&est, d.runs().len())
            }
            Err(e) => format!("Not ready to run: {}", e.sentences()),
        });
    }
}

/// The action an element's `data-action` names (none for a value the page does not know).
fn action_of(el: &web_sys::Element) -> Option<LabAction> {
    el.get_attribute("data-action")
        .as_deref()
        .and_then(LabAction::parse)
}

/// The element with `data-action` the event happened in, if any.
fn action_target(ev: &web_sys::Event) -> Option<web_sys::Element> {
    let target: web_sys::Element = ev.target()?.dyn_into().ok()?;
    target.closest("[data-action]").ok().flatten()
}

fn on_action(
    lab: &Shared,
    action: LabAction,
    id: String,
    index: String,
    input: Option<web_sys::Element>,
) {
    lab.read_form();
    let row = index.parse::<usize>().ok();
    match action {
        LabAction::AddPlayer => {
            lab.fields.borrow_mut().add_configured_player();
            lab.draw_form();
        }
        LabAction::RemovePlayer => {
            if let Some(i) = row {
                lab.fields.borrow_mut().remove_player(i);
                let mut base = lab.base.borrow_mut();
                if i < base.players.len() {
                    base.players.remove(i);
                }
                drop(base);
                lab.draw_form();
            }
        }
        LabAction::KindChanged => {
            lab.fields.borrow_mut().kinds_changed();
            lab.draw_form();
        }
        LabAction::PresetChanged => {
            let mut form = lab.fields.borrow_mut();
            let r = match row {
                Some(i) => form.players.get_mut(i),
                None => Some(&mut form.new),
            };
            if let Some(r) = r {
                if let Ok(p) = Preset::parse(&r.preset) {
                    r.use_preset(p);
                }
            }
            drop(form);
            lab.draw_form();
        }
        LabAction::ClearMazes => {
            lab.base.borrow_mut().mazes = None;
            lab.fields.borrow_mut().mazes = None;
            lab.draw_form();
        }
        LabAction::Start => start_new(lab),
        LabAction::Resume => resume(lab, false),
        LabAction::RerunErrors => resume(lab, true),
        LabAction::Pause => {
            let run = lab.open.borrow().as_ref().map(|o| o.run.clone());
            if let Some(run) = run {
                let effects = run.session.borrow_mut().pause(now());
                apply(lab, &run, effects);
            }
            lab.draw_form();
            lab.draw_state();
        }
        LabAction::Cancel => {
            let run = lab.open.borrow().as_ref().map(|o| o.run.clone());
            if let Some(run) = run {
                let effects = run.session.borrow_mut().cancel(now());
                apply(lab, &run, effects);
            }
            lab.draw_form();
            lab.draw_state();
        }
        LabAction::ExportZip | LabAction::ExportCsv | LabAction::ExportJsonl => {
            let lab = lab.clone();
            spawn_local(async move { export(&lab, action).await });
        }
        LabAction::ExportDesign => {
            let base = lab.base.borrow().clone();
            let read = lab.fields.borrow().design(&base);
            match read {
                Ok(d) => report(
                    lab,
                    d.to_json()
                        .map_err(|e| e.to_string())
                        .and_then(|json| download_file(EXPERIMENT_FILE, &json, "application/json")),
                ),
                Err(e) => lab.fail(format!("The design cannot be saved yet: {}", e.sentences())),
            }
        }
        LabAction::LoadDesign | LabAction::Import => {
            let (Some(input), lab) = (input, lab.clone()) else {
                return;
            };
            spawn_local(async move {
                let mut files = picked_files(&input).await;
                if files.is_empty() {
                    return;
                }
                if action == LabAction::LoadDesign {
                    load_design(&lab, &files[0].0, &files[0].1);
                } else if files.iter().all(|(n, _)| n.ends_with(".npy")) {
                    use_mazes(&lab, files);
                } else if files.len() > 1 {
                    lab.fail("Choose one ZIP or one JSONL to import results (or only .npy maze files to run those mazes).");
                } else {
                    let (name, bytes) = files.remove(0);
                    import(&lab, &name, &bytes).await;
                }
            });
        }
        LabAction::Open => {
            let lab = lab.clone();
            spawn_local(async move {
                let _ = open_experiment(&lab, &id).await;
            });
        }
        LabAction::Rename | LabAction::Duplicate | LabAction::Delete => {
            let lab = lab.clone();
            spawn_local(async move { manage(&lab, action, &id).await });
        }
        LabAction::OpenTrial => {}
    }
}

/// The files chosen in a file input (path within a chosen folder, or name; bytes), the
/// input cleared so the same file can be chosen again.
pub(crate) async fn picked_files(input: &web_sys::Element) -> Vec<(String, Vec<u8>)> {
    let picked = file_bytes(input).await.ok();
    if let Some(input) = input.dyn_ref::<web_sys::HtmlInputElement>() {
        input.set_value("");
    }
    let Some(flat) = picked.map(|p| p.unchecked_into::<js_sys::Array>()) else {
        return Vec::new();
    };
    let mut files = Vec::new();
    let mut i = 0;
    while i + 1 < flat.length() {
        let name = flat.get(i).as_string().unwrap_or_default();
        files.push((name, js_sys::Uint8Array::new(&flat.get(i + 1)).to_vec()));
        i += 2;
    }
    files
}

fn report(lab: &Shared, result: Result<(), String>) {
    if let Err(e) = result {
        lab.fail(e);
    }
}

/// Reads the stored experiments into the list.
async fn refresh_list(lab: &Shared) {
    let Ok(db) = lab.db() else {
        lab.draw_state();
        return;
    };
    let mut listed = Vec::new();
    match db.entries(EXPERIMENTS, "").await {
        Ok(entries) => {
            for (id, text) in entries {
                let Ok(e) = StoredExperiment::from_json(&text) else {
                    continue;
                };
                let done = db
                    .keys(TRIALS, &trials_prefix(&id))
                    .await
                    .map_or(0, |k| k.len());
                listed.push(ListedExperiment {
                    name: if e.name.is_empty() {
                        id.clone()
                    } else {
                        e.name.clone()
                    },
                    id,
                    done,
                    total: e.design.trial_count(),
                    api_errors: 0,
                    open: false,
                    running: false,
                });
            }
        }
        Err(e) => lab.fail(format!("Could not read the stored experiments: {e}")),
    }
    *lab.listed.borrow_mut() = listed;
    lab.draw_state();
}

/// The records stored for experiment `id`.
pub(crate) async fn stored_records(
    db: &Db,
    id: &str,
) -> Result<(Vec<TrialRecord>, Vec<String>), String> {
    let entries = db
        .entries(TRIALS, &trials_prefix(id))
        .await
        .map_err(|e| e.to_string())?;
    let mut out = Vec::with_capacity(entries.len());
    let mut bad = Vec::new();
    for (key, text) in entries {
        match TrialRecord::from_json(&text) {
            Ok(r) => out.push(r),
            Err(e) => bad.push(format!(
                "{} ({e})",
                key.trim_start_matches(&trials_prefix(id))
            )),
        }
    }
    Ok((out, bad))
}

/// A sentence naming the stored trials that could not be read (left out; they rerun).
fn unreadable(bad: &[String]) -> Option<String> {
    (!bad.is_empty()).then(|| {
        format!(
            "{} stored trials could not be read and are left out (they run again on resume): {}.",
            bad.len(),
            bad.iter().take(3).cloned().collect::<Vec<_>>().join("; ")
        )
    })
}

fn new_run(lab: &Shared, id: &str, design: &ExperimentDesign, records: &[TrialRecord]) -> Rc<Run> {
    let mut session = Session::new(design, design.trials(), None);
    session.restore(records);
    if design.cost_limit.is_some() {
        // What a player's trial may cost before one has finished, for the cost limit.
        let est = design.estimate(|s| lab.library(s, design.shape_set()));
        session.expect_costs(est.cost_per_trial);
    }
    // A run waits for Resume; pausing says nothing here.
    let _ = session.pause(now());
    Rc::new(Run {
        id: id.to_string(),
        session: RefCell::new(session),
        transports: RefCell::new(HashMap::new()),
    })
}

async fn open_experiment(lab: &Shared, id: &str) -> bool {
    if let Some(why) = lab.busy() {
        lab.fail(format!("Cannot open another experiment now. {why}"));
        return false;
    }
    lab.supersede();
    let view = lab.view.get();
    let db = match lab.db() {
        Ok(db) => db,
        Err(e) => {
            lab.fail(e);
            return false;
        }
    };
    let stored = match db.get(EXPERIMENTS, id).await {
        Ok(Some(text)) => match StoredExperiment::from_json(&text) {
            Ok(e) => e,
            Err(e) => {
                lab.fail(format!("The stored experiment {id} cannot be read: {e}"));
                return false;
            }
        },
        Ok(None) => {
            lab.fail(format!("No experiment {id} is stored in this browser."));
            return false;
        }
        Err(e) => {
            lab.fail(e.to_string());
            return false;
        }
    };
    let (records, bad) = match stored_records(&db, id).await {
        Ok(r) => r,
        Err(e) => {
            lab.fail(format!("Could not read the trials of {}: {e}", stored.name));
            return false;
        }
    };
    // Something else was opened or started meanwhile, or a run began: it stands.
    if lab.view.get() != view || lab.busy().is_some() {
        return false;
    }
    if let Some(m) = unreadable(&bad) {
        lab.fail(m);
    }
    *lab.fields.borrow_mut() = form_with_stored_keys(&stored.design);
    *lab.base.borrow_mut() = stored.design.clone();
    let run = new_run(lab, id, &stored.design, &records);
    *lab.open.borrow_mut() = Some(Open {
        id: id.to_string(),
        stored,
        run,
    });
    if let Some(s) = local() {
        let _ = s.set_item(OPEN_KEY, id);
    }
    lab.draw_form();
    lab.draw_state();
    true
}

/// The API keys of the design's endpoint players from the form, kept for this tab.
fn keys_from_form(
    lab: &Shared,
    design: &ExperimentDesign,
) -> Result<HashMap<String, String>, String> {
    let form = lab.fields.borrow();
    let mut keys = HashMap::new();
    for (i, p) in design.players.iter().enumerate() {
        if p.kind != PlayerKind::Endpoint {
            continue;
        }
        // The form's row of this player (matched by name: rows may have moved).
        let key = form
            .players
            .iter()
            .find(|r| r.player_name() == p.name())
            .map(|r| r.key.trim().to_string())
            .unwrap_or_default();
        let needs = Preset::parse(&p.preset).is_ok_and(Preset::needs_key);
        if key.is_empty() && needs {
            return Err(format!(
                "Player {} ({}) needs an API key: type it in its row (it stays in this tab only).",
                i + 1,
                p.name()
            ));
        }
        if let Some(s) = session() {
            let _ = s.set_item(&format!("{KEY_PREFIX}{}", p.name()), &key);
        }
        for run in design.runs_of(p) {
            keys.insert(run.name(), key.clone());
        }
    }
    Ok(keys)
}

/// Checks the design's endpoint players as the chat client will (a bad base URL or
/// sampling value would otherwise end every trial as an API error).
fn check_endpoints(design: &ExperimentDesign) -> Result<(), String> {
    for (i, p) in design.players.iter().enumerate() {
        if p.is_endpoint() {
            endpoint_settings(p)
                .map_err(String::from)
                .and_then(|s| s.validate().map_err(|e| e.to_string()))
                .map_err(|e| format!("Player {} ({}): {e}", i + 1, p.name()))?;
        }
    }
    Ok(())
}

fn start_new(lab: &Shared) {
    if lab.starting.get() {
        return;
    }
    if let Some(why) = lab.busy() {
        return lab.fail(format!("Cannot start a new experiment now. {why}"));
    }
    let base = lab.base.borrow().clone();
    let read = lab.fields.borrow().design(&base);
    let design = match read {
        Ok(d) => d,
        Err(e) => return lab.fail(format!("The design cannot run yet: {}", e.sentences())),
    };
    if let Err(e) = design.check_mazes(|s| lab.library(s, design.shape_set())) {
        return lab.fail(format!("The design cannot run: {e}."));
    }
    if let Err(e) = check_endpoints(&design) {
        return lab.fail(format!("The design cannot run: {e}"));
    }
    if let Err(e) = keys_from_form(lab, &design) {
        return lab.fail(e);
    }
    lab.starting.set(true);
    lab.supersede();
    let lab = lab.clone();
    spawn_local(async move {
        let created = create(&lab, design).await;
        lab.starting.set(false);
        match created {
            Ok(()) => resume(&lab, false),
            Err(e) => lab.fail(e),
        }
    });
}

/// Stores a new experiment of `design` and opens it.
async fn create(lab: &Shared, design: ExperimentDesign) -> Result<(), String> {
    let db = lab.db()?;
    let t = now();
    let id = new_experiment_id(t as u64);
    let stored = StoredExperiment {
        name: if design.name.is_empty() {
            format!("Experiment {}", &id[4..])
        } else {
            design.name.clone()
        },
        created_ms: t as u64,
        design: design.clone(),
    };
    let json = stored
        .to_json()
        .map_err(|e| format!("Could not keep the new experiment: {e}. Nothing was started."))?;
    db.put(EXPERIMENTS, &id, &json)
        .await
        .map_err(|e| format!("Could not keep the new experiment: {e}. Nothing was started."))?;
    lab.listed.borrow_mut().push(ListedExperiment {
        id: id.clone(),
        name: stored.name.clone(),
        done: 0,
        total: design.trial_count(),
        api_errors: 0,
        open: true,
        running: false,
    });
    let run = new_run(lab, &id, &design, &[]);
    *lab.open.borrow_mut() = Some(Open {
        id: id.clone(),
        stored,
        run,
    });
    if let Some(s) = local() {
        let _ = s.set_item(OPEN_KEY, &id);
    }
    *lab.base.borrow_mut() = design;
    Ok(())
}

fn resume(lab: &Shared, errors: bool) {
    let Some(run) = lab.open.borrow().as_ref().map(|o| o.run.clone()) else {
        return;
    };
    let design = run.session.borrow().design().clone();
    if design.players.iter().any(|p| p.is_endpoint()) {
        // The keys as the form has them now (a key fixed after a refusal is used).
        match check_endpoints(&design).and_then(|()| keys_from_form(lab, &design)) {
            Ok(k) => run.session.borrow_mut().set_keys(k),
            Err(e) => return lab.fail(e),
        }
    }
    if !errors {
        lab.message.set(None);
    }
    // A cost limit raised in the form since the pause applies to this run.
    let base = lab.base.borrow().clone();
    if let Ok(form) = lab.fields.borrow().design(&base) {
        if form.same_trials(&design) {
            let mut session = run.session.borrow_mut();
            session.set_cost_limit(form.cost_limit);
            if form.cost_limit.is_some() && design.cost_limit.is_none() {
                // A limit set only now: what a trial may cost before one has finished.
                let est = design.estimate(|s| lab.library(s, design.shape_set()));
                session.expect_costs(est.cost_per_trial);
            }
        }
    }
    let effects = run.session.borrow_mut().resume(now(), errors);
    apply(lab, &run, effects);
    lab.draw_form();
    lab.draw_state();
}

/// Does what the run's session asks: starts trials, saves records, arms wake-ups, aborts
/// a cancelled generation's calls, says things; each task's end goes back to the session.
fn apply(lab: &Shared, run: &Rc<Run>, effects: Vec<Effect>) {
    for effect in effects {
        match effect {
            Effect::Start(start) => {
                let slot = (start.id.clone(), start.generation);
                let transport = BrowserTransport::new();
                run.transports
                    .borrow_mut()
                    .insert(slot.clone(), transport.clone());
                // A retry's cause shows at once, not when some trial next ends.
                let on_retry: Rc<dyn Fn()> = Rc::new({
                    let (lab, run) = (lab.clone(), run.clone());
                    move || draw_if_shown(&lab, &run)
                });
                let shapes = run.session.borrow().design().shape_set();
                let trial = run.session.borrow().trial_run(
                    &start,
                    lab.library(start.key.size, shapes),
                    transport,
                    Some(on_retry),
                );
                let (lab, run) = (lab.clone(), run.clone());
                spawn_local(async move {
                    let result = play_trial(trial, start.id.clone(), start.key.clone()).await;
                    run.transports.borrow_mut().remove(&slot);
                    let effects = run.session.borrow_mut().ended(&start, result, now());
                    apply(&lab, &run, effects);
                });
            }
            Effect::Save(save) => {
                let (lab, run) = (lab.clone(), run.clone());
                spawn_local(async move {
                    let result = store(&lab, &run.id, &save.record).await;
                    let effects = run.session.borrow_mut().saved(save, result, now());
                    apply(&lab, &run, effects);
                });
            }
            Effect::WakeAt(at) => {
                let (lab, run) = (lab.clone(), run.clone());
                spawn_local(async move {
                    BrowserTransport::new()
                        .sleep((at - now()).max(1.0) as u64)
                        .await;
                    let effects = run.session.borrow_mut().wake(at, now());
                    apply(&lab, &run, effects);
                });
            }
            Effect::AbortBefore(generation) => {
                for ((_, g), t) in run.transports.borrow().iter() {
                    if *g < generation {
                        t.abort();
                    }
                }
            }
            Effect::Say(notice) => {
                if notice.is_error() {
                    lab.fail(notice.text());
                } else {
                    lab.say(notice.text());
                }
                // Done, or paused at the cost limit: the form opens again (the limit can
                // be raised there before resuming).
                if matches!(
                    notice,
                    Notice::Complete { .. }
                        | Notice::StairComplete { .. }
                        | Notice::CostLimit { .. }
                ) {
                    lab.draw_form();
                }
            }
        }
    }
    draw_if_shown(lab, run);
}

/// The page is going: a run under way stops (its trials in flight are cut, to be rerun
/// on resume), so no trial is played, paid for or saved behind another page.
fn leave(lab: &Shared) {
    let run = lab.open.borrow().as_ref().map(|o| o.run.clone());
    if let Some(run) = run {
        let busy = run.session.borrow().busy(now()).is_some();
        if busy {
            let effects = run.session.borrow_mut().cancel(now());
            apply(lab, &run, effects);
        }
    }
    lab.loc.unsaved.set(None);
}

/// Redraws the run's state when it is the experiment on screen.
fn draw_if_shown(lab: &Shared, run: &Rc<Run>) {
    let shown = lab
        .open
        .borrow()
        .as_ref()
        .is_some_and(|o| Rc::ptr_eq(&o.run, run));
    if shown {
        lab.draw_state();
    }
}

/// Stores a finished trial's record under its experiment `id`.
async fn store(lab: &Shared, id: &str, record: &TrialRecord) -> Result<(), String> {
    let key = format!("{}{}", trials_prefix(id), TrialKey::of_record(record).id());
    let json = record.to_json().map_err(|e| e.to_string())?;
    let db = lab.db()?;
    db.put(TRIALS, &key, &json).await.map_err(|e| e.to_string())
}

async fn manage(lab: &Shared, action: LabAction, id: &str) {
    let Ok(db) = lab.db() else { return };
    let Some(window) = web_sys::window() else {
        return;
    };
    let stored = match db.get(EXPERIMENTS, id).await {
        Ok(Some(t)) => StoredExperiment::from_json(&t).ok(),
        _ => None,
    };
    let Some(mut stored) = stored else {
        return lab.fail(format!("The experiment {id} is no longer stored here."));
    };
    let is_open = lab.open.borrow().as_ref().is_some_and(|o| o.id == id);
    match action {
        LabAction::Rename => {
            let Ok(Some(name)) = window.prompt_with_message_and_default("New name", &stored.name)
            else {
                return;
            };
            let name = name.trim().to_string();
            if name.is_empty() {
                return;
            }
            stored.name = name;
            let json = match stored.to_json() {
                Ok(json) => json,
                Err(e) => return lab.fail(format!("Could not rename: {e}")),
            };
            if let Err(e) = db.put(EXPERIMENTS, id, &json).await {
                return lab.fail(format!("Could not rename: {e}"));
            }
            if let Some(o) = lab.open.borrow_mut().as_mut().filter(|o| o.id == id) {
                o.stored.name = stored.name.clone();
            }
        }
        LabAction::Duplicate => {
            let new_id = new_experiment_id(now() as u64);
            let copy = StoredExperiment {
                name: format!("{} (copy)", stored.name),
                created_ms: now() as u64,
                design: stored.design,
            };
            let json = match copy.to_json() {
                Ok(json) => json,
                Err(e) => return lab.fail(format!("Could not duplicate: {e}")),
            };
            if let Err(e) = db.put(EXPERIMENTS, &new_id, &json).await {
                return lab.fail(format!("Could not duplicate: {e}"));
            }
            refresh_list(lab).await;
            if open_experiment(lab, &new_id).await {
                lab.say(
                    "Duplicated as a new design with no trials: change it if you like, then run it.",
                );
            }
            return;
        }
        _ => {
            let question = format!(
                "Delete the experiment '{}' and all its stored trials from this browser? This cannot be undone.",
                stored.name
            );
            if is_open {
                if let Some(why) = lab.busy() {
                    return lab.fail(format!("Cannot delete the open experiment now. {why}"));
                }
            }
            if !window.confirm_with_message(&question).unwrap_or(false) {
                return;
            }
            // An open still reading gives way: the experiment is going.
            lab.supersede();
            let result = match db.delete_prefix(TRIALS, &trials_prefix(id)).await {
                Ok(()) => db.delete(EXPERIMENTS, id).await,
                Err(e) => Err(e),
            };
            if let Err(e) = result {
                return lab.fail(format!("Could not delete: {e}"));
            }
            // Whether it is open now: it may have been opened (or another one) meanwhile.
            let open_now = lab.open.borrow().as_ref().is_some_and(|o| o.id == id);
            if open_now {
                *lab.open.borrow_mut() = None;
                if let Some(s) = local() {
                    let _ = s.remove_item(OPEN_KEY);
                }
            }
            lab.say(format!("Deleted '{}'.", stored.name));
        }
    }
    refresh_list(lab).await;
}
