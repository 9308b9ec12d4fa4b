//! `/experiment`: design a batch of trials, run it with the core [`Scheduler`] (adaptive
//! concurrency per endpoint, `Retry-After`, requests per minute), keep every finished
//! trial in IndexedDB the moment it ends, resume after a reload, and export or import the
//! results.
//!
//! Everything shown is rendered by [`crate::view::experiment`] as escaped HTML; this component
//! holds the run's state, forwards clicks through one delegated listener (`data-action`)
//! and reads the form's fields as plain name and value pairs.

use super::download::{download_bytes, download_file};
use super::storage::{Db, EXPERIMENTS, TRIALS};
use super::transport::BrowserTransport;
use crate::core::batch::design::ExperimentDesign;
use crate::core::batch::export::{
    export_files, find_trials_entry, merge, parse_jsonl, trials_csv, trials_jsonl, EXPERIMENT_FILE,
};
use crate::core::batch::form::{
    add_configured_player, design_fields, design_from_fields, fill_defaults,
    fill_endpoint_defaults, new_experiment_id, player_rows, row_player_name, trials_prefix,
    StoredExperiment,
};
use crate::core::batch::runner::{
    endpoint_settings, lanes_for, play_trial, sort_by_design, TrialRun,
};
use crate::core::batch::scheduler::{Next, RunState, Scheduler, TrialEnd, TrialSummary, Tuning};
use crate::core::maze::templates::TemplateLibrary;
use crate::core::model::preset::Preset;
use crate::core::model::transport::Transport;
use crate::core::play::player::PlayerKind;
use crate::core::results::record::TrialRecord;
use crate::core::results::rescore::Libraries;
use crate::core::results::zip::{read_zip, Method, ZipWriter};
use crate::view::experiment::{
    design_form, estimate_line, experiment_list, progress_panel, toolbar, ListedExperiment,
    ToolbarState,
};
use leptos::prelude::*;
use leptos::task::spawn_local;
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::Arc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

#[wasm_bindgen(inline_js = r#"
export async function deflate_raw(bytes, inflate) {
  const s = new Blob([bytes]).stream().pipeThrough(
    inflate ? new DecompressionStream('deflate-raw') : new CompressionStream('deflate-raw'));
  return new Uint8Array(await new Response(s).arrayBuffer());
}
export async function file_bytes(input) {
  const out = [];
  for (const f of input.files || []) out.push(f.webkitRelativePath || f.name, new Uint8Array(await f.arrayBuffer()));
  return out;
}
export function decorate(root) {
  for (const el of root.querySelectorAll('figure > svg, table[data-testid^="table-"]')) {
    const id = el.dataset.testid || (el.closest('[data-testid]') || {}).dataset?.testid || '';
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'button small';
    b.dataset.action = el.tagName === 'TABLE' ? 'table-csv' : 'chart-svg';
    b.textContent = el.tagName === 'TABLE' ? 'Download CSV' : 'Download SVG';
    b.dataset.target = id;
    el.insertAdjacentElement('afterend', b);
  }
}
export function table_csv(table) {
  const q = (s) => /[",\n]/.test(s) ? '"' + s.replace(/"/g, '""') + '"' : s;
  return [...table.rows].map((r) => [...r.cells].map((c) => q(c.textContent.trim())).join(',')).join('\r\n') + '\r\n';
}
export function form_fields(form) {
  const out = [];
  for (const el of form.querySelectorAll('[name]')) {
    if (el.type === 'checkbox' && !el.checked) continue;
    out.push(el.name, el.value);
  }
  return out;
}
"#)]
extern "C" {
    /// Raw deflate (or, with `inflate`, inflate) through the browser's streams.
    #[wasm_bindgen(catch)]
    async fn deflate_raw(bytes: &[u8], inflate: bool) -> Result<JsValue, JsValue>;
    /// The names and bytes of the files chosen in a file input: name, bytes, name, ...
    #[wasm_bindgen(catch)]
    async fn file_bytes(input: &web_sys::Element) -> Result<JsValue, JsValue>;
    /// Adds a "Download SVG" button after each chart and a "Download CSV" button after each
    /// table of the results page.
    pub(crate) fn decorate(root: &web_sys::Element);
    /// A table's cells as CSV (RFC 4180 quoting, CRLF).
    pub(crate) fn table_csv(table: &web_sys::Element) -> String;
    /// Every named field of a form as name, value, name, value... (ticked checkboxes only).
    fn form_fields(form: &web_sys::Element) -> js_sys::Array;
}

/// The experiment and results pages' own styles (kept with the pages that use them).
const LAB_CSS: &str = "
.lab-form fieldset{border:1px solid var(--line);border-radius:var(--radius);background:var(--surface);padding:1rem 1.25rem;display:flex;flex-direction:column;gap:1rem;margin:0}
.lab-form legend{font-weight:700;padding:0 .4rem}
.lab-form fieldset:disabled{opacity:.7}
.lab-players{display:flex;flex-direction:column;gap:.75rem}
.lab-player{display:flex;flex-wrap:wrap;gap:.6rem;align-items:flex-end;padding:.75rem;border:1px solid var(--line);border-radius:8px;background:#fbfcff}
.lab-player .row-label{width:100%;font-weight:700}
.lab-player .field.wide{flex:1 1 18rem;width:auto}
.lab-form .field.short input{min-width:0;width:7rem}
.lab-form .field.wide input{width:100%;box-sizing:border-box}
.lab-form>fieldset>.field.wide input{max-width:36rem}
.lab-grid{display:flex;flex-wrap:wrap;gap:1rem 1.25rem;align-items:flex-end}
.lab-grid .checks{display:flex;flex-wrap:wrap;gap:.3rem .9rem;padding:.35rem 0}
.lab-form .check{color:var(--ink);font-size:.95rem}
.lab-form .check input{min-width:0;width:auto}
.lab-form>fieldset>.button{align-self:flex-start}
.estimate{font-weight:600;margin:.9rem 0}
.lab-toolbar{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center}
.lab-toolbar .button:disabled{opacity:.45;cursor:not-allowed}
.lab-progress{margin:1.25rem 0}
.progress-head progress{width:100%;height:1.1rem;accent-color:var(--accent)}
.progress-head p{margin:.4rem 0 .8rem}
.lab-table tr.total th,.lab-table tr.total td{font-weight:700}
.lab-table tr.open{background:#eef3ff}
.lab-table td.actions{display:flex;gap:.35rem;justify-content:flex-end;flex-wrap:wrap}
.lanes{margin:.75rem 0 0;padding-left:1.2rem}
";

/// Styles both lab pages use: small buttons, and file inputs shown as buttons.
pub(crate) const SHARED_CSS: &str = ".button.small{padding:.3rem .7rem;font-size:.85rem}.button.file{position:relative;overflow:hidden}.button.file input{position:absolute;inset:0;opacity:0;cursor:pointer}.lab-table{border-collapse:collapse;width:100%;background:var(--surface);border:1px solid var(--line);border-radius:8px;font-variant-numeric:tabular-nums}.lab-table th,.lab-table td{padding:.45rem .7rem;border-bottom:1px solid var(--line);text-align:right}.lab-table th:first-child,.lab-table td:first-child{text-align:left}.lab-table thead th{font-size:.8rem;color:var(--muted)}";

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

fn now() -> f64 {
    js_sys::Date::now()
}

fn local() -> Option<web_sys::Storage> {
    web_sys::window().and_then(|w| w.local_storage().ok().flatten())
}

fn session() -> Option<web_sys::Storage> {
    web_sys::window().and_then(|w| w.session_storage().ok().flatten())
}

/// A run of the open experiment.
struct Run {
    /// The experiment's storage id: its trials are saved under it, whatever is open.
    id: String,
    scheduler: Rc<RefCell<Scheduler>>,
    design: Rc<ExperimentDesign>,
    /// API keys by player name, read from the form at every start and resume.
    keys: RefCell<HashMap<String, String>>,
    /// The transports of the trials in flight, by trial id and generation.
    transports: RefCell<HashMap<(String, u32), BrowserTransport>>,
    /// Bumped by Cancel: a trial task of an older generation was requeued by the
    /// scheduler, and its result is dropped when it ends.
    generation: Cell<u32>,
    /// Records kept but not yet saved (storage failed): written first on resume.
    unsaved: RefCell<Vec<TrialRecord>>,
    /// The time the armed wake-up timer fires (infinity when none is armed).
    timer: Cell<f64>,
}

impl Run {
    /// Whether trials are still in flight or finished records are not saved yet.
    fn busy(&self) -> bool {
        !self.transports.borrow().is_empty() || !self.unsaved.borrow().is_empty()
    }
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
    fields: RefCell<Vec<(String, String)>>,
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
    /// Bumped by every open or start: an open that finds it changed after its reads
    /// gives way to the newer one.
    view: Cell<u32>,
    /// Set once IndexedDB has been asked for (its answer may still be pending).
    db_tried: Cell<bool>,
}

type Shared = Rc<Lab>;

impl Lab {
    fn library(&self, size: usize) -> Arc<TemplateLibrary> {
        self.libraries.borrow_mut().get(size).clone()
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
        *self.fields.borrow_mut() = out;
    }

    /// Draws the form from `fields` (the keys filled in from this tab's store).
    fn draw_form(&self) {
        let locked = self.running();
        let mut fields = self.fields.borrow().clone();
        if let Some(s) = session() {
            for i in 0..player_rows(&fields) {
                let key_field = format!("p{i}.key");
                if fields.iter().any(|(k, _)| *k == key_field) {
                    continue;
                }
                let name = row_player_name(&fields, i);
                if let Some(v) = s.get_item(&format!("{KEY_PREFIX}{name}")).ok().flatten() {
                    fields.push((key_field, v));
                }
            }
        }
        self.form.set(design_form(&fields, locked));
        self.draw_estimate();
    }

    fn running(&self) -> bool {
        self.open.borrow().as_ref().is_some_and(|o| {
            let p = o.run.scheduler.borrow().progress(now());
            self.running_with(&p)
        })
    }

    /// Redraws the buttons, the progress and the list.
    fn draw_state(&self) {
        let open = self.open.borrow();
        let mut state = ToolbarState::default();
        if let Some(o) = open.as_ref() {
            let mut s = o.run.scheduler.borrow_mut();
            let t = now();
            let p = s.progress(t);
            let lanes = s.lanes(t);
            drop(s);
            state = ToolbarState {
                open: true,
                running: self.running_with(&p),
                stored: p.overall.done - o.run.unsaved.borrow().len().min(p.overall.done),
                total: p.overall.total,
                api_errors: p.overall.api_errors,
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

    /// Why the open experiment cannot be left now (a run under way, trials in flight,
    /// records not saved yet), if it cannot.
    fn busy(&self) -> Option<String> {
        let open = self.open.borrow();
        let o = open.as_ref()?;
        if self.running() {
            return Some("Pause or cancel the run under way first.".into());
        }
        if !o.run.unsaved.borrow().is_empty() {
            return Some(format!(
                "{} finished trials are not saved yet: press Resume to save them first.",
                o.run.unsaved.borrow().len()
            ));
        }
        o.run
            .busy()
            .then(|| "Trials are still finishing after the pause: wait a moment.".into())
    }

    fn running_with(&self, p: &crate::core::batch::scheduler::Progress) -> bool {
        p.state == RunState::Running
            && (p.overall.done < p.overall.total || p.overall.in_flight > 0)
    }
}

/// The experiment page.
#[component]
pub fn ExperimentPage() -> impl IntoView {
    let design = ExperimentDesign::default();
    let lab: Shared = Rc::new(Lab {
        db: RefCell::new(None),
        fields: RefCell::new(design_fields(&design)),
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
    });
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
            let action = el.get_attribute("data-action").unwrap_or_default();
            let id = el.get_attribute("data-id").unwrap_or_default();
            let index = el.get_attribute("data-index").unwrap_or_default();
            on_action(&lab, &action, id, index, None);
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
            let action = el.get_attribute("data-action").unwrap_or_default();
            let index = el.get_attribute("data-index").unwrap_or_default();
            on_action(&lab, &action, String::new(), index, Some(el));
        }
    };
    let unload_lab = lab.clone();
    let _ = window_event_listener(leptos::ev::beforeunload, move |ev| {
        if unload_lab.running() || unload_lab.busy().is_some() {
            ev.prevent_default();
            ev.set_return_value("A run is under way: finished trials are kept, the ones in flight will rerun when you resume.");
        }
    });
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
            <style>{LAB_CSS}{SHARED_CSS}</style>
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
        let fields = self.fields.borrow().clone();
        let base = self.base.borrow().clone();
        self.estimate.set(match design_from_fields(&fields, &base) {
            Ok(d) => {
                let est = d.estimate(|s| self.library(s));
                estimate_line(est.trials, est.calls, est.tokens, d.players.len())
            }
            Err(e) => format!("Not ready to run: {e}"),
        });
    }
}

/// The element with `data-action` the event happened in, if any.
fn action_target(ev: &web_sys::Event) -> Option<web_sys::Element> {
    let target: web_sys::Element = ev.target()?.dyn_into().ok()?;
    target.closest("[data-action]").ok().flatten()
}

fn on_action(
    lab: &Shared,
    action: &str,
    id: String,
    index: String,
    input: Option<web_sys::Element>,
) {
    lab.read_form();
    let row = index.parse::<usize>().ok();
    match action {
        "add-player" => {
            add_configured_player(&mut lab.fields.borrow_mut());
            lab.draw_form();
        }
        "remove-player" => {
            if let Some(i) = row {
                let mut f = lab.fields.borrow_mut();
                let rows = player_rows(&f);
                let prefix = |j: usize| format!("p{j}.");
                f.retain(|(k, _)| !k.starts_with(&prefix(i)));
                for j in i + 1..rows {
                    for (k, _) in f.iter_mut() {
                        if let Some(rest) = k.strip_prefix(&prefix(j)) {
                            *k = format!("p{}.{rest}", j - 1);
                        }
                    }
                }
                drop(f);
                let mut base = lab.base.borrow_mut();
                if i < base.players.len() {
                    base.players.remove(i);
                }
                drop(base);
                lab.draw_form();
            }
        }
        "kind-changed" => {
            let mut f = lab.fields.borrow_mut();
            for i in 0..player_rows(&f) {
                let endpoint = f
                    .iter()
                    .any(|(k, v)| *k == format!("p{i}.kind") && v == "endpoint");
                if endpoint {
                    fill_endpoint_defaults(&mut f, i);
                }
            }
            fill_defaults(&mut f, "new.");
            drop(f);
            lab.draw_form();
        }
        "preset-changed" => {
            let prefix = match row {
                Some(i) => format!("p{i}."),
                None => "new.".to_string(),
            };
            let mut f = lab.fields.borrow_mut();
            let preset = f
                .iter()
                .find(|(k, _)| *k == format!("{prefix}preset"))
                .and_then(|(_, v)| Preset::parse(v).ok());
            if let Some(p) = preset {
                for (k, v) in f.iter_mut() {
                    if *k == format!("{prefix}base_url") {
                        *v = p.default_base_url().into();
                    } else if *k == format!("{prefix}model") {
                        *v = p.example_model().into();
                    }
                }
            }
            drop(f);
            lab.draw_form();
        }
        "clear-mazes" => {
            lab.base.borrow_mut().mazes = None;
            lab.fields.borrow_mut().retain(|(k, _)| k != "mazes");
            lab.draw_form();
        }
        "start" => start_new(lab),
        "resume" => resume(lab, false),
        "rerun-errors" => resume(lab, true),
        "pause" => {
            if let Some(o) = lab.open.borrow().as_ref() {
                o.run.scheduler.borrow_mut().pause(now());
            }
            lab.say("Paused: no new trials start; those in flight finish and are kept.");
            lab.draw_form();
            lab.draw_state();
        }
        "cancel" => {
            if let Some(o) = lab.open.borrow().as_ref() {
                let cut = o.run.scheduler.borrow_mut().cancel(now());
                o.run.generation.set(o.run.generation.get() + 1);
                for t in o.run.transports.borrow().values() {
                    t.abort();
                }
                lab.say(format!(
                    "Cancelled: {} trials in flight were stopped and will rerun from their start when you resume; every finished trial is kept.",
                    cut.len()
                ));
            }
            lab.draw_form();
            lab.draw_state();
        }
        "export-zip" | "export-csv" | "export-jsonl" => {
            let lab = lab.clone();
            let action = action.to_string();
            spawn_local(async move { export(&lab, &action).await });
        }
        "export-design" => {
            let base = lab.base.borrow().clone();
            match design_from_fields(&lab.fields.borrow(), &base) {
                Ok(d) => report(
                    lab,
                    download_file(EXPERIMENT_FILE, &d.to_json(), "application/json"),
                ),
                Err(e) => lab.fail(format!("The design cannot be saved yet: {e}")),
            }
        }
        "load-design" | "import" => {
            let (Some(input), lab) = (input, lab.clone()) else {
                return;
            };
            let action = action.to_string();
            spawn_local(async move {
                let mut files = picked_files(&input).await;
                if files.is_empty() {
                    return;
                }
                if action == "load-design" {
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
        "open" => {
            let lab = lab.clone();
            spawn_local(async move {
                let _ = open_experiment(&lab, &id).await;
            });
        }
        "rename" | "duplicate" | "delete" => {
            let lab = lab.clone();
            let action = action.to_string();
            spawn_local(async move { manage(&lab, &action, &id).await });
        }
        _ => {}
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

/// Runs exactly the chosen `.npy` maze files (named as in the export layout) from now on.
fn use_mazes(lab: &Shared, files: Vec<(String, Vec<u8>)>) {
    match crate::core::batch::imported::mazes_from_files(&files) {
        Ok(mazes) => {
            let n = mazes.len();
            lab.base.borrow_mut().mazes = Some(mazes);
            let mut f = lab.fields.borrow_mut();
            f.retain(|(k, _)| k != "mazes");
            f.push(("mazes".into(), n.to_string()));
            drop(f);
            lab.draw_form();
            lab.say(format!(
                "{n} mazes read: a new experiment runs exactly these."
            ));
        }
        Err(e) => lab.fail(format!("The maze files cannot be used: {e}")),
    }
}

fn load_design(lab: &Shared, name: &str, bytes: &[u8]) {
    let text = String::from_utf8_lossy(bytes);
    match ExperimentDesign::from_json(&text) {
        Ok(d) => {
            *lab.fields.borrow_mut() = design_fields(&d);
            *lab.base.borrow_mut() = d;
            lab.draw_form();
            lab.say(format!("Loaded the design in {name}: check it, then start it."));
        }
        Err(e) => lab.fail(format!(
            "{name} is not a design Shapemaze can run: {e}. Choose an experiment.json exported by this page or by shapemaze run."
        )),
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
                    total: e.design.trials().len(),
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

fn new_run(id: &str, design: &ExperimentDesign, records: &[TrialRecord]) -> Rc<Run> {
    let mut s = Scheduler::new(design.trials(), lanes_for(design, None), Tuning::default());
    s.restore(records.iter().map(TrialSummary::of));
    s.pause(now());
    Rc::new(Run {
        id: id.to_string(),
        scheduler: Rc::new(RefCell::new(s)),
        design: Rc::new(design.clone()),
        keys: RefCell::new(HashMap::new()),
        transports: RefCell::new(HashMap::new()),
        generation: Cell::new(0),
        unsaved: RefCell::new(Vec::new()),
        timer: Cell::new(f64::INFINITY),
    })
}

async fn open_experiment(lab: &Shared, id: &str) -> bool {
    if let Some(why) = lab.busy() {
        lab.fail(format!("Cannot open another experiment now. {why}"));
        return false;
    }
    let view = lab.view.get() + 1;
    lab.view.set(view);
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
    *lab.fields.borrow_mut() = design_fields(&stored.design);
    *lab.base.borrow_mut() = stored.design.clone();
    let run = new_run(id, &stored.design, &records);
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
    let fields = lab.fields.borrow();
    let mut keys = HashMap::new();
    for (i, p) in design.players.iter().enumerate() {
        if p.kind != PlayerKind::Endpoint {
            continue;
        }
        // The form's row of this player (matched by name: rows may have moved).
        let row = (0..player_rows(&fields)).find(|&r| row_player_name(&fields, r) == p.name());
        let key = row
            .and_then(|r| {
                fields
                    .iter()
                    .find(|(k, _)| *k == format!("p{r}.key"))
                    .map(|(_, v)| v.trim().to_string())
            })
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
        keys.insert(p.name(), key);
    }
    Ok(keys)
}

/// Checks the design's endpoint players as the chat client will (a bad base URL or
/// sampling value would otherwise end every trial as an API error).
fn check_endpoints(design: &ExperimentDesign) -> Result<(), String> {
    for (i, p) in design.players.iter().enumerate() {
        if p.is_endpoint() {
            endpoint_settings(p)
                .and_then(|s| s.validate())
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
    let design = match design_from_fields(&lab.fields.borrow(), &base) {
        Ok(d) => d,
        Err(e) => return lab.fail(format!("The design cannot run yet: {e}")),
    };
    if let Err(e) = design.check_mazes(|s| lab.library(s)) {
        return lab.fail(format!("The design cannot run: {e}."));
    }
    if let Err(e) = check_endpoints(&design) {
        return lab.fail(format!("The design cannot run: {e}"));
    }
    if let Err(e) = keys_from_form(lab, &design) {
        return lab.fail(e);
    }
    lab.starting.set(true);
    lab.view.set(lab.view.get() + 1);
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
    db.put(EXPERIMENTS, &id, &stored.to_json())
        .await
        .map_err(|e| format!("Could not keep the new experiment: {e}. Nothing was started."))?;
    lab.listed.borrow_mut().push(ListedExperiment {
        id: id.clone(),
        name: stored.name.clone(),
        done: 0,
        total: design.trials().len(),
        api_errors: 0,
        open: true,
        running: false,
    });
    let run = new_run(&id, &design, &[]);
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
    if run.design.players.iter().any(|p| p.is_endpoint()) {
        // The keys as the form has them now (a key fixed after a refusal is used).
        match check_endpoints(&run.design).and_then(|()| keys_from_form(lab, &run.design)) {
            Ok(k) => *run.keys.borrow_mut() = k,
            Err(e) => return lab.fail(e),
        }
    }
    {
        let mut s = run.scheduler.borrow_mut();
        if errors {
            let n = s.requeue_errors().len();
            lab.say(format!("Rerunning the {n} trials that ended as API errors; their records are replaced as they finish."));
        } else {
            lab.message.set(None);
        }
        s.resume(now());
    }
    let lab2 = lab.clone();
    spawn_local(async move {
        // Records kept while storage failed are written first.
        let pending: Vec<TrialRecord> = run.unsaved.borrow_mut().drain(..).collect();
        for r in pending {
            if !save(&lab2, &run, r).await {
                lab2.draw_state();
                return;
            }
        }
        pump(&lab2, &run);
    });
    lab.draw_form();
    lab.draw_state();
}

/// Starts every trial the scheduler allows now, and sets a timer for the next wake-up.
fn pump(lab: &Shared, run: &Rc<Run>) {
    loop {
        let t = now();
        let next = run.scheduler.borrow_mut().next(t);
        match next {
            Next::Start(a) => {
                let generation = run.generation.get();
                let slot = (a.id.clone(), generation);
                let transport = BrowserTransport::new();
                run.transports
                    .borrow_mut()
                    .insert(slot.clone(), transport.clone());
                let trial = TrialRun {
                    design: run.design.clone(),
                    scheduler: run.scheduler.clone(),
                    library: lab.library(a.key.size),
                    api_key: run
                        .keys
                        .borrow()
                        .get(&a.key.player)
                        .cloned()
                        .unwrap_or_default(),
                    transport,
                    // A retry's cause shows at once, not when some trial next ends.
                    on_retry: Some(Rc::new({
                        let (lab, run) = (lab.clone(), run.clone());
                        move || draw_if_shown(&lab, &run)
                    })),
                };
                let (lab, run) = (lab.clone(), run.clone());
                spawn_local(async move {
                    let result = play_trial(trial, a.id.clone(), a.key).await;
                    end_trial(&lab, &run, &a.id, generation, result).await;
                    run.transports.borrow_mut().remove(&slot);
                    pump(&lab, &run);
                });
            }
            Next::WaitUntil(w) => {
                // One timer at a time, unless this wake-up comes before the armed one.
                if w < run.timer.get() {
                    run.timer.set(w);
                    let (lab, run) = (lab.clone(), run.clone());
                    spawn_local(async move {
                        BrowserTransport::new().sleep((w - t).max(1.0) as u64).await;
                        if run.timer.get() == w {
                            run.timer.set(f64::INFINITY);
                        }
                        pump(&lab, &run);
                    });
                }
                break;
            }
            Next::Wait | Next::Stopped => break,
            Next::Done => {
                if run.unsaved.borrow().is_empty() && run.transports.borrow().is_empty() {
                    let errors = run.scheduler.borrow().progress(t).overall.api_errors;
                    lab.say(if errors == 0 {
                        "The run is complete: every trial is stored. Download the results with the buttons above.".to_string()
                    } else {
                        format!("The run is complete: every trial is stored; {errors} ended as API errors (not model failures): rerun them with the button above, or download the results as they are.")
                    });
                    lab.draw_form();
                }
                break;
            }
        }
    }
    draw_if_shown(lab, run);
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

/// Hears that a trial task ended: stores its record before it counts as done, so
/// "finished" means stored. A task of an older generation (cancelled meanwhile) was
/// requeued already and its result is dropped.
async fn end_trial(
    lab: &Shared,
    run: &Rc<Run>,
    id: &str,
    generation: u32,
    result: Result<Option<TrialRecord>, String>,
) {
    let current = || run.generation.get() == generation;
    match result {
        Ok(Some(record)) if current() && run.scheduler.borrow().is_running(id) => {
            let summary = TrialSummary::of(&record);
            save(lab, run, record).await;
            if current() {
                run.scheduler
                    .borrow_mut()
                    .finish(id, TrialEnd::Done(summary), now());
            } else {
                // Cancelled while it was being saved: it is stored, so it counts as done
                // unless a resumed run has started it again (then that run's replaces it).
                run.scheduler.borrow_mut().restore([summary]);
            }
        }
        Ok(_) => {
            if current() {
                run.scheduler
                    .borrow_mut()
                    .finish(id, TrialEnd::Interrupted, now());
            }
        }
        Err(e) => {
            if current() {
                let mut s = run.scheduler.borrow_mut();
                s.finish(id, TrialEnd::Interrupted, now());
                s.pause(now());
            }
            lab.fail(format!(
                "Trial {id} cannot be played: {e}. The run is paused."
            ));
        }
    }
}

/// Keeps a finished trial's record under its experiment; on a storage failure the run
/// pauses and the record stays in this tab until storage works again (false).
async fn save(lab: &Shared, run: &Rc<Run>, record: TrialRecord) -> bool {
    let key = format!(
        "{}{}",
        trials_prefix(&run.id),
        crate::core::batch::design::TrialKey::of_record(&record).id()
    );
    let result = match lab.db() {
        Ok(db) => db
            .put(TRIALS, &key, &record.to_json())
            .await
            .map_err(|e| e.to_string()),
        Err(e) => Err(e),
    };
    match result {
        Ok(()) => true,
        Err(e) => {
            run.unsaved.borrow_mut().push(record);
            run.scheduler.borrow_mut().pause(now());
            lab.fail(format!(
                "Could not save a finished trial ({e}). The run is paused and {} finished trials are held in this tab: free some space (or allow site data), then press Resume to save them; do not close the tab.",
                run.unsaved.borrow().len()
            ));
            false
        }
    }
}

async fn export(lab: &Shared, action: &str) {
    let Some((id, name, design)) = lab
        .open
        .borrow()
        .as_ref()
        .map(|o| (o.id.clone(), o.stored.name.clone(), o.stored.design.clone()))
    else {
        return;
    };
    let db = match lab.db() {
        Ok(db) => db,
        Err(e) => return lab.fail(e),
    };
    let mut records = match stored_records(&db, &id).await {
        Ok((r, bad)) => {
            if let Some(m) = unreadable(&bad) {
                lab.fail(format!("The export leaves them out: {m}"));
            }
            r
        }
        Err(e) => return lab.fail(format!("Could not read the trials to export: {e}")),
    };
    sort_by_design(&design, &mut records);
    let stem: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    let result = match action {
        "export-csv" => download_file(&format!("{stem}.csv"), &trials_csv(&records), "text/csv"),
        "export-jsonl" => download_file(
            &format!("{stem}.jsonl"),
            &trials_jsonl(&records),
            "application/jsonl",
        ),
        _ => {
            lab.say("Preparing the ZIP…");
            let export = export_files(&design, &records);
            let mut w = ZipWriter::new();
            let mut result = Ok(());
            for f in &export.files {
                let added = match deflate_raw(&f.bytes, false).await {
                    Ok(d) => {
                        w.add_deflated(&f.path, &f.bytes, &js_sys::Uint8Array::new(&d).to_vec())
                    }
                    Err(_) => w.add_stored(&f.path, &f.bytes),
                };
                if let Err(e) = added {
                    result = Err(e.to_string());
                    break;
                }
            }
            match result.and_then(|()| w.finish().map_err(|e| e.to_string())) {
                Ok(bytes) => {
                    lab.say(format!(
                        "Downloaded {stem}.zip: {} trials, {} files.",
                        records.len(),
                        export.files.len()
                    ));
                    download_bytes(&format!("{stem}.zip"), &bytes, "application/zip")
                }
                Err(e) => Err(format!("Could not build the ZIP: {e}")),
            }
        }
    };
    report(lab, result);
}

/// The text of a ZIP entry (inflated through the browser's stream when deflated), its
/// checksum checked.
pub(crate) async fn entry_text(
    entry: &crate::core::results::zip::ZipEntry<'_>,
) -> Result<String, String> {
    let data = entry_bytes(entry).await?;
    String::from_utf8(data).map_err(|_| format!("{} is not UTF-8 text", entry.name))
}

/// A ZIP entry's bytes, inflated by the browser and checked against its CRC.
pub(crate) async fn entry_bytes(
    entry: &crate::core::results::zip::ZipEntry<'_>,
) -> Result<Vec<u8>, String> {
    let data = match entry.method {
        Method::Stored => entry.data.to_vec(),
        Method::Deflated => match deflate_raw(entry.data, true).await {
            Ok(d) => js_sys::Uint8Array::new(&d).to_vec(),
            Err(_) => return Err(format!("{} could not be decompressed", entry.name)),
        },
    };
    entry.check(&data).map_err(|e| e.to_string())?;
    Ok(data)
}

/// The records of an exported ZIP or a `trials.jsonl`, with the design when the file
/// carries one (`experiment.json` beside `trials.jsonl`); a message naming the file (and
/// the line) when it is not one.
pub(crate) async fn read_results_file(
    name: &str,
    bytes: &[u8],
) -> Result<(Vec<TrialRecord>, Option<ExperimentDesign>), String> {
    if !bytes.starts_with(b"PK") {
        let text = std::str::from_utf8(bytes).map_err(|_| {
            format!(
                "{name} is neither a ZIP nor UTF-8 text: choose a trials.jsonl or an exported ZIP."
            )
        })?;
        return parse_jsonl(name, text)
            .map(|r| (r, None))
            .map_err(|e| e.to_string());
    }
    let entries = read_zip(bytes).map_err(|e| format!("{name}: {e}"))?;
    let jsonl = find_trials_entry(&entries).ok_or_else(|| {
        format!("{name}: the ZIP holds no trials.jsonl: choose a ZIP exported by Shapemaze (or by shapemaze run).")
    })?;
    let text = entry_text(jsonl)
        .await
        .map_err(|e| format!("{name}: {e}"))?;
    let records =
        parse_jsonl(&format!("{name}: {}", jsonl.name), &text).map_err(|e| e.to_string())?;
    let prefix = jsonl.name.trim_end_matches("trials.jsonl");
    let design = match entries
        .iter()
        .find(|e| e.name == format!("{prefix}{EXPERIMENT_FILE}"))
    {
        Some(e) => {
            let t = entry_text(e)
                .await
                .map_err(|err| format!("{name}: {err}"))?;
            Some(
                ExperimentDesign::from_json(&t)
                    .map_err(|err| format!("{name}: {}: {err}", e.name))?,
            )
        }
        None => None,
    };
    Ok((records, design))
}

async fn import(lab: &Shared, name: &str, bytes: &[u8]) {
    let db = match lab.db() {
        Ok(db) => db,
        Err(e) => return lab.fail(e),
    };
    let (records, design) = match read_results_file(name, bytes).await {
        Ok(x) => x,
        Err(e) => return lab.fail(e),
    };
    // Into the open experiment when its design holds these trials, else a new one.
    let open = lab
        .open
        .borrow()
        .as_ref()
        .map(|o| (o.id.clone(), o.stored.design.clone()));
    let fits = |d: &ExperimentDesign| {
        let ids: std::collections::HashSet<String> = d.trials().iter().map(|k| k.id()).collect();
        records
            .iter()
            .all(|r| ids.contains(&crate::core::batch::design::TrialKey::of_record(r).id()))
    };
    // Into the open experiment only when the file ran the same design (or, without a
    // design, when its trials are the open design's, on its seed); a ZIP of another
    // design becomes an experiment of its own.
    let (id, is_new, design) = match (open, design) {
        (Some((id, d)), Some(f)) if fits(&d) && f.same_trials(&d) => (id, false, d),
        (Some((id, d)), None) if fits(&d) && records.iter().all(|r| r.seed == d.seed) => {
            (id, false, d)
        }
        (_, Some(d)) if fits(&d) => (new_experiment_id(now() as u64), true, d),
        (_, Some(_)) => {
            return lab.fail(format!(
                "{name}: some of its trials are not in its own experiment.json; nothing was imported."
            ))
        }
        _ => {
            return lab.fail(format!(
                "{name}: these trials belong to no open experiment. Open the experiment they came from first, or import the whole ZIP (it carries the design)."
            ))
        }
    };
    if let Some(why) = lab.busy() {
        return lab.fail(format!("Cannot import now. {why}"));
    }
    let existing = if is_new {
        Vec::new()
    } else {
        match stored_records(&db, &id).await {
            Ok((r, _)) => r,
            Err(e) => return lab.fail(e),
        }
    };
    let merged = merge(&existing, records);
    if is_new {
        let stored = StoredExperiment {
            name: if design.name.is_empty() {
                name.to_string()
            } else {
                design.name.clone()
            },
            created_ms: now() as u64,
            design: design.clone(),
        };
        if let Err(e) = db.put(EXPERIMENTS, &id, &stored.to_json()).await {
            return lab.fail(format!("Could not keep the imported experiment: {e}"));
        }
    }
    let prefix = trials_prefix(&id);
    let entries: Vec<(String, String)> = merged
        .new
        .iter()
        .map(|r| {
            (
                format!(
                    "{prefix}{}",
                    crate::core::batch::design::TrialKey::of_record(r).id()
                ),
                r.to_json(),
            )
        })
        .collect();
    if let Err(e) = db.put_all(TRIALS, &entries).await {
        return lab.fail(format!(
            "Could not store the imported trials: {e}. Nothing was imported."
        ));
    }
    let mut text = format!(
        "Imported {name}: {} new trials, {} already stored",
        merged.new.len(),
        merged.duplicates
    );
    if !merged.conflicts.is_empty() {
        text.push_str(&format!(
            ", {} that differ from the stored ones were skipped (the stored ones are kept): {}",
            merged.conflicts.len(),
            merged
                .conflicts
                .iter()
                .take(3)
                .map(|c| c.id.clone())
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    text.push('.');
    refresh_list(lab).await;
    if open_experiment(lab, &id).await {
        lab.say(text);
    }
}

async fn manage(lab: &Shared, action: &str, id: &str) {
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
        "rename" => {
            let Ok(Some(name)) = window.prompt_with_message_and_default("New name", &stored.name)
            else {
                return;
            };
            let name = name.trim().to_string();
            if name.is_empty() {
                return;
            }
            stored.name = name;
            if let Err(e) = db.put(EXPERIMENTS, id, &stored.to_json()).await {
                return lab.fail(format!("Could not rename: {e}"));
            }
            if let Some(o) = lab.open.borrow_mut().as_mut().filter(|o| o.id == id) {
                o.stored.name = stored.name.clone();
            }
        }
        "duplicate" => {
            let new_id = new_experiment_id(now() as u64);
            let copy = StoredExperiment {
                name: format!("{} (copy)", stored.name),
                created_ms: now() as u64,
                design: stored.design,
            };
            if let Err(e) = db.put(EXPERIMENTS, &new_id, &copy.to_json()).await {
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
            let result = match db.delete_prefix(TRIALS, &trials_prefix(id)).await {
                Ok(()) => db.delete(EXPERIMENTS, id).await,
                Err(e) => Err(e),
            };
            if let Err(e) = result {
                return lab.fail(format!("Could not delete: {e}"));
            }
            if is_open {
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
