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
pub(crate) mod lab;
pub(crate) mod lab_error;

use super::download::download_file;
use super::local::local;
use super::route::use_location;
use super::storage::{Db, EXPERIMENTS, TRIALS};
use super::transport::BrowserTransport;
use files::{export, import, load_design, use_mazes};
use lab::{
    file_bytes, form_with_stored_keys, new_run, now, open_experiment, refresh_list, report,
    session, Lab, Open, Run, Shared, KEY_PREFIX, OPEN_KEY,
};
use lab_error::LabError;
use leptos::prelude::*;
use leptos::task::spawn_local;
use shapemaze_core::batch::design::{ExperimentDesign, TrialKey};
use shapemaze_core::batch::export::EXPERIMENT_FILE;
use shapemaze_core::batch::form::{new_experiment_id, trials_prefix, StoredExperiment};
use shapemaze_core::batch::runner::{endpoint_settings, play_trial};
use shapemaze_core::batch::session::{Effect, Notice, Save};
use shapemaze_core::model::preset::Preset;
use shapemaze_core::model::transport::Transport;
use shapemaze_core::play::player::PlayerKind;
use shapemaze_core::results::record::TrialRecord;
use shapemaze_core::results::rescore::Libraries;
use shapemaze_view::experiment::LabAction;
use shapemaze_view::experiment::ListedExperiment;
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::rc::Rc;
use wasm_bindgen::JsCast;

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
        draw_due: Cell::new(false),
        saves: RefCell::new(Vec::new()),
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
                    d.to_json().map_err(LabError::Json).and_then(|json| {
                        download_file(EXPERIMENT_FILE, &json, "application/json")
                            .map_err(LabError::Download)
                    }),
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

/// The API keys of the design's endpoint players from the form, kept for this tab.
fn keys_from_form(
    lab: &Shared,
    design: &ExperimentDesign,
) -> Result<HashMap<String, String>, LabError> {
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
            return Err(LabError::NeedsKey(i + 1, p.name()));
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
fn check_endpoints(design: &ExperimentDesign) -> Result<(), LabError> {
    for (i, p) in design.players.iter().enumerate() {
        if p.is_endpoint() {
            endpoint_settings(p)
                .map_err(|e| LabError::Preset(i + 1, p.name(), e))?
                .validate()
                .map_err(|e| LabError::Settings(i + 1, p.name(), e))?;
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
async fn create(lab: &Shared, design: ExperimentDesign) -> Result<(), LabError> {
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
    let not_created = |e| LabError::NotCreated(Box::new(e));
    let json = stored
        .to_json()
        .map_err(|e| not_created(LabError::Json(e)))?;
    db.put(EXPERIMENTS, &id, &json)
        .await
        .map_err(|e| not_created(LabError::Storage(e)))?;
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
                let first = lab.saves.borrow().is_empty();
                lab.saves.borrow_mut().push((save, run.clone()));
                if first {
                    let lab = lab.clone();
                    spawn_local(async move { save_batch(&lab).await });
                }
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

/// Redraws the run's state soon ([`Lab::draw_soon`]) when it is the experiment on screen.
fn draw_if_shown(lab: &Shared, run: &Rc<Run>) {
    let shown = lab
        .open
        .borrow()
        .as_ref()
        .is_some_and(|o| Rc::ptr_eq(&o.run, run));
    if shown {
        lab.draw_soon();
    }
}

/// A finished trial's record as stored under its experiment `id`: its key and its JSON.
fn stored_entry(id: &str, record: &TrialRecord) -> Result<(String, String), LabError> {
    let key = format!("{}{}", trials_prefix(id), TrialKey::of_record(record).id());
    Ok((key, record.to_json().map_err(LabError::Record)?))
}

/// Stores every record waiting in `lab.saves`, one IndexedDB transaction per experiment (a
/// fast run finishes many trials between two turns of the event loop, and a transaction
/// each cost more than the trials), then tells each run's session how its saves went: a
/// record that cannot be written as JSON fails alone, a failed transaction fails its batch.
async fn save_batch(lab: &Shared) {
    let due = std::mem::take(&mut *lab.saves.borrow_mut());
    let mut runs: Vec<(Rc<Run>, Vec<Box<Save>>)> = Vec::new();
    for (save, run) in due {
        match runs.iter_mut().find(|(r, _)| Rc::ptr_eq(r, &run)) {
            Some((_, saves)) => saves.push(save),
            None => runs.push((run, vec![save])),
        }
    }
    for (run, saves) in runs {
        let mut entries = Vec::with_capacity(saves.len());
        let mut written = Vec::with_capacity(saves.len());
        for save in saves {
            match stored_entry(&run.id, &save.record) {
                Ok(entry) => {
                    entries.push(entry);
                    written.push(save);
                }
                Err(e) => {
                    let effects = run.session.borrow_mut().saved(save, Err(e), now());
                    apply(lab, &run, effects);
                }
            }
        }
        let result = match lab.db() {
            Ok(db) => db
                .put_all(TRIALS, &entries)
                .await
                .map_err(LabError::Storage),
            Err(e) => Err(e),
        };
        for save in written {
            let effects = run
                .session
                .borrow_mut()
                .saved(save, result.as_ref().map(|_| ()), now());
            apply(lab, &run, effects);
        }
    }
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
