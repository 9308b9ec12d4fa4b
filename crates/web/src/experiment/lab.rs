//! The experiment page's state and what its parts share: the open experiment and its run,
//! the stored experiments' list, the trials read back from IndexedDB, and the keys kept for
//! the session.

use super::super::route::Location;
use super::super::storage::{Db, StorageError, EXPERIMENTS, TRIALS};
use super::super::transport::BrowserTransport;
use super::lab_error::LabError;
use leptos::prelude::*;
use shapemaze_core::batch::design::ExperimentDesign;
use shapemaze_core::batch::form::{trials_prefix, DesignForm, StoredExperiment};
use shapemaze_core::batch::session::{Save, Session};
use shapemaze_core::maze::shape::ShapeSet;
use shapemaze_core::maze::templates::TemplateLibrary;
use shapemaze_core::results::record::TrialRecord;
use shapemaze_core::results::rescore::Libraries;
use shapemaze_view::experiment::{
    design_form, estimate_line, experiment_list, progress_panel, toolbar, ListedExperiment,
    ToolbarState,
};
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::Arc;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(module = "/js/lab.js")]
extern "C" {
    /// Raw deflate (or, with `inflate`, inflate) through the browser's streams.
    #[wasm_bindgen(catch)]
    pub(crate) async fn deflate_raw(bytes: &[u8], inflate: bool) -> Result<JsValue, JsValue>;
    /// The names and bytes of the files chosen in a file input: name, bytes, name, ...
    #[wasm_bindgen(catch)]
    pub(crate) async fn file_bytes(input: &web_sys::Element) -> Result<JsValue, JsValue>;
    /// Adds a download button after each chart (SVG) and each table (CSV) of the results
    /// page, named by the file it saves (`Download table-groups.csv`).
    pub(crate) fn decorate(root: &web_sys::Element, table_action: &str, chart_action: &str);
    /// Every named field of a form as name, value, name, value... (ticked checkboxes only).
    pub(crate) fn form_fields(form: &web_sys::Element) -> js_sys::Array;
}

/// Where the page remembers the open experiment (this browser).
pub(crate) const OPEN_KEY: &str = "shapemaze.lab-open";
/// Where a player's API key is kept for this tab only (sessionStorage), by player name.
pub(crate) const KEY_PREFIX: &str = "shapemaze.lab-key.";

/// The form of `design`, each endpoint row's API key filled in from this tab's store (a
/// key typed before, under the player's name). Only a form made from a design is filled:
/// a key the person clears stays cleared.
pub(crate) fn form_with_stored_keys(design: &ExperimentDesign) -> DesignForm {
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

pub(crate) fn now() -> f64 {
    js_sys::Date::now()
}

pub(crate) fn session() -> Option<web_sys::Storage> {
    web_sys::window().and_then(|w| w.session_storage().ok().flatten())
}

/// A run of the open experiment: the core's session, and the transports of the trials
/// it has in flight (by trial id and generation), which cancel aborts.
pub(crate) struct Run {
    /// The experiment's storage id: its trials are saved under it, whatever is open.
    pub(crate) id: String,
    pub(crate) session: RefCell<Session>,
    pub(crate) transports: RefCell<HashMap<(String, u32), BrowserTransport>>,
}

/// The open experiment.
pub(crate) struct Open {
    pub(crate) id: String,
    pub(crate) stored: StoredExperiment,
    pub(crate) run: Rc<Run>,
}

/// The page's state.
pub(crate) struct Lab {
    pub(crate) db: RefCell<Option<Db>>,
    pub(crate) fields: RefCell<DesignForm>,
    pub(crate) base: RefCell<ExperimentDesign>,
    pub(crate) open: RefCell<Option<Open>>,
    pub(crate) listed: RefCell<Vec<ListedExperiment>>,
    pub(crate) libraries: RefCell<Libraries>,
    pub(crate) form: RwSignal<String>,
    pub(crate) estimate: RwSignal<String>,
    pub(crate) tools: RwSignal<String>,
    pub(crate) progress: RwSignal<String>,
    pub(crate) list: RwSignal<String>,
    pub(crate) message: RwSignal<Option<(bool, String)>>,
    /// Set while a new experiment is being created (a second click does nothing).
    pub(crate) starting: Cell<bool>,
    /// Bumped by every open or start, and by a design or maze files loaded: an open that
    /// finds it changed after its reads gives way to the newer one.
    pub(crate) view: Cell<u32>,
    /// Set once IndexedDB has been asked for (its answer may still be pending).
    pub(crate) db_tried: Cell<bool>,
    /// The address: leaving while a run is under way asks first ([`Lab::leave_warning`]).
    pub(crate) loc: Location,
    /// Set while a redraw of the run's state is due ([`Lab::draw_soon`]).
    pub(crate) draw_due: Cell<bool>,
    /// Finished trials whose records wait to be stored in the next batch (`save_batch`).
    pub(crate) saves: RefCell<Vec<(Box<Save>, Rc<Run>)>>,
}

/// Asked before leaving the page while a run is under way (it stops when the page goes).
pub(crate) const LEAVE_RUN: &str = "A run is under way. Leave this page and it stops: every finished trial is kept, and the trials in flight are played again when you resume it.";

/// Asked before leaving the page while finished trials are not saved yet.
pub(crate) const LEAVE_UNSAVED: &str = "Some finished trials are not saved yet: stay and press Resume to save them. Leave this page and they are lost.";

pub(crate) type Shared = Rc<Lab>;

/// How often a running experiment's state is redrawn at most.
pub(crate) const DRAW_EVERY: std::time::Duration = std::time::Duration::from_millis(50);

impl Lab {
    pub(crate) fn library(&self, size: usize, shapes: ShapeSet) -> Arc<TemplateLibrary> {
        self.libraries.borrow_mut().get(size, shapes).clone()
    }

    /// Something newer than any open still reading: that open gives way.
    pub(crate) fn supersede(&self) {
        self.view.set(self.view.get() + 1);
    }

    pub(crate) fn say(&self, text: impl Into<String>) {
        self.message.set(Some((false, text.into())));
    }

    /// Says `text` (a sentence, or a [`LabError`]) as a failure.
    pub(crate) fn fail(&self, text: impl std::fmt::Display) {
        self.message.set(Some((true, text.to_string())));
    }

    /// The browser's storage, or why there is none (yet).
    pub(crate) fn db(&self) -> Result<Db, LabError> {
        if !self.db_tried.get() {
            return Err(LabError::StorageOpening);
        }
        self.db.borrow().clone().ok_or(LabError::NoStorage)
    }

    /// Reads the form as it stands into `fields` (with the keys), if it is on the page.
    pub(crate) fn read_form(&self) {
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
    pub(crate) fn draw_form(&self) {
        let locked = self.running();
        let form = self.fields.borrow().clone();
        self.form.set(design_form(&form, locked));
        self.draw_estimate();
    }

    pub(crate) fn running(&self) -> bool {
        self.open
            .borrow()
            .as_ref()
            .is_some_and(|o| o.run.session.borrow().running(now()))
    }

    /// Redraws the run's state within [`DRAW_EVERY`]: the trials that end meanwhile share
    /// one redraw (a fast run ends hundreds a second, and each redraw rewrites the progress,
    /// the toolbar and the list).
    pub(crate) fn draw_soon(self: &Rc<Self>) {
        if self.draw_due.replace(true) {
            return;
        }
        let lab = self.clone();
        leptos::prelude::set_timeout(
            move || {
                lab.draw_due.set(false);
                lab.draw_state();
            },
            DRAW_EVERY,
        );
    }

    /// Redraws the buttons, the progress and the list.
    pub(crate) fn draw_state(&self) {
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
    pub(crate) fn leave_warning(&self) -> Option<&'static str> {
        let run = self.open.borrow().as_ref()?.run.clone();
        let s = run.session.borrow();
        if s.unsaved() > 0 {
            Some(LEAVE_UNSAVED)
        } else {
            s.busy(now()).map(|_| LEAVE_RUN)
        }
    }

    /// Whether the page was left (its signals are gone with it).
    pub(crate) fn gone(&self) -> bool {
        self.form.try_with_untracked(|_| ()).is_none()
    }

    /// Why the open experiment cannot be left now (a run under way, trials in flight,
    /// records not saved yet), if it cannot.
    pub(crate) fn busy(&self) -> Option<String> {
        let run = self.open.borrow().as_ref()?.run.clone();
        let why = run.session.borrow().busy(now());
        why
    }
}

impl Lab {
    pub(crate) fn draw_estimate(&self) {
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

/// Says the failure of `result`, if it failed.
pub(crate) fn report(lab: &Shared, result: Result<(), LabError>) {
    if let Err(e) = result {
        lab.fail(e);
    }
}

/// Reads the stored experiments into the list.
pub(crate) async fn refresh_list(lab: &Shared) {
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
) -> Result<(Vec<TrialRecord>, Vec<String>), StorageError> {
    let entries = db.entries(TRIALS, &trials_prefix(id)).await?;
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
pub(crate) fn unreadable(bad: &[String]) -> Option<String> {
    (!bad.is_empty()).then(|| {
        format!(
            "{} stored trials could not be read and are left out (they run again on resume): {}.",
            bad.len(),
            bad.iter().take(3).cloned().collect::<Vec<_>>().join("; ")
        )
    })
}

pub(crate) fn new_run(
    lab: &Shared,
    id: &str,
    design: &ExperimentDesign,
    records: &[TrialRecord],
) -> Rc<Run> {
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

pub(crate) async fn open_experiment(lab: &Shared, id: &str) -> bool {
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
    if let Some(s) = crate::local::local() {
        let _ = s.set_item(OPEN_KEY, id);
    }
    lab.draw_form();
    lab.draw_state();
    true
}
