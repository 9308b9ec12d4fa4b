//! `/results`: every measure, analysis and hypothesis verdict of the stored (or imported)
//! experiments, as the core draws them ([`shapemaze_view::report::report_body`], the very
//! renderer of `shapemaze report --html`): charts as inline SVG, tables, verdicts. Each
//! chart downloads as SVG and each table as CSV; a row of the model x encoding x shape
//! table lists its trials, and a trial opens its step-by-step replay. Choosing several
//! experiments compares them side by side. The whole analysis downloads as one
//! self-contained HTML file. The analysis opens on an overview, and a contents list (a
//! sidebar on wide screens, a menu on narrow ones) links to each part present, each at its
//! own address (`/results#generation`), which opens it on load and on back and forward.

mod dashboard;
mod exchange;
mod import;
mod parts;
mod people;

use crate::demo::{load, Replay};
use crate::download::download_file;
use crate::experiment::lab::{decorate, stored_records};
use crate::experiment::{notice, picked_files};
use crate::race::{RaceView, Racing};
use crate::review::ReviewPart;
use crate::storage::{Db, EXPERIMENTS};
use crate::study::store::{self, StudyStore};
use dashboard::{location_hash, Dashboard, Shared, Source, StoredTrials};
use leptos::prelude::*;
use leptos::task::spawn_local;
use shapemaze_core::analysis::analyze::{analyze, as_counted, AnalysisOptions};
use shapemaze_core::analysis::compare::{compare, pick_pair, sides};
use shapemaze_core::analysis::groups::in_group;
use shapemaze_core::analysis::observation::{observations_csv, Observation};
use shapemaze_core::batch::form::StoredExperiment;
use shapemaze_core::original::audit::{audit_records, AuditSummary, Scoring};
use shapemaze_core::original::score::Cause;
use shapemaze_core::results::filter::{TrialFilter, HELP as FILTER_HELP};
use shapemaze_core::results::items::item_matrix_csv;
use shapemaze_core::results::race::Race;
use shapemaze_core::results::record::TrialRecord;
use shapemaze_core::study::Scope;
use shapemaze_core::verify::Outcome;
use shapemaze_view::actions::ResultsAction;
use shapemaze_view::audit::{audit_document, audit_drill_html, audit_html, AUDIT_CSS};
use shapemaze_view::contents::{Part, Parts, PARTS_CSS};
use shapemaze_view::document::csv;
use shapemaze_view::experiment::trials_table;
use shapemaze_view::experiment::LabAction;
use shapemaze_view::report::{analysis_document, comparison_section, report_html, report_parts};
use std::rc::Rc;
use wasm_bindgen::JsCast;

/// The review part's heading text (the queue itself is drawn below the parts).
const REVIEW_INTRO: &str = "<p class=\"muted\">Each reading is a claim about what a model said. Below, once opened: the replies a fall-back rule read, those the original-compatible reading or a second reader (a chat model, on demand) reads otherwise, and a random sample on demand, to confirm or correct by mouse or keyboard; the reviews download as <code>reviews.jsonl</code>, which <code>shapemaze score --reviews</code> applies.</p>";

/// Reads the sources stored in this browser (the studies' people, then the experiments),
/// chosen by default, and analyses them.
async fn load_stored(dash: Shared) {
    let db = match Db::open().await {
        Ok(_) if dash.gone() => return,
        Ok(db) => db,
        Err(e) => {
            dash.fail(format!("This browser's storage is not available ({e}): import an exported ZIP or trials.jsonl instead."));
            dash.draw_sources();
            return;
        }
    };
    // People: the scored trials of the studies run in this browser, one group per
    // study, on the same measures as the models (what cannot be read is left out, and
    // written to the console).
    match StudyStore::over(db.clone()).trials(&Scope::All).await {
        Ok(read) => {
            store::warn(&read.unreadable);
            for g in people::people_sources(read.values) {
                dash.add_source(g);
            }
        }
        Err(e) => store::warn(&[e]),
    }
    if let Ok(entries) = db.entries(EXPERIMENTS, "").await {
        for (id, text) in entries {
            if let Ok(e) = StoredExperiment::from_json(&text) {
                dash.add_source(Source {
                    label: if e.name.is_empty() {
                        id.clone()
                    } else {
                        e.name
                    },
                    id: Some(id),
                    records: Vec::new(),
                    people: Vec::new(),
                    transcripts: Vec::new(),
                    audit: None,
                    provenance: None,
                    chosen: true,
                });
            }
        }
    }
    dash.draw_sources();
    analyze_chosen(&dash).await;
}

/// A source ticked or not, a side of the comparison chosen, the audit asked for, a file
/// imported.
fn on_change(dash: &Shared, ev: &web_sys::Event) {
    let Some(el) = ev
        .target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
    else {
        return;
    };
    match el
        .get_attribute("data-action")
        .as_deref()
        .and_then(ResultsAction::parse)
    {
        Some(ResultsAction::Compare) => {
            let value = |id: &str| {
                document()
                    .query_selector(&format!("[data-testid=\"{id}\"]"))
                    .ok()
                    .flatten()
                    .and_then(|e| e.dyn_into::<web_sys::HtmlSelectElement>().ok())
                    .map(|s| s.value())
                    .unwrap_or_default()
            };
            *dash.compare.borrow_mut() = (value("compare-a"), value("compare-b"));
            draw(dash);
        }
        Some(ResultsAction::Toggle) => {
            let i = el
                .get_attribute("data-index")
                .and_then(|i| i.parse::<usize>().ok());
            if let Some(i) = i {
                if let Some(s) = dash.sources.borrow_mut().get_mut(i) {
                    s.chosen = !s.chosen;
                }
            }
            let dash = dash.clone();
            spawn_local(async move { analyze_chosen(&dash).await });
        }
        Some(ResultsAction::AuditOwn) => {
            let dash = dash.clone();
            spawn_local(async move { analyze_chosen(&dash).await });
        }
        Some(ResultsAction::IncludeShown) => {
            let checked = el
                .dyn_ref::<web_sys::HtmlInputElement>()
                .is_some_and(web_sys::HtmlInputElement::checked);
            dash.include_shown.set(checked);
            draw(dash);
        }
        Some(ResultsAction::Import) => {
            let dash = dash.clone();
            spawn_local(async move { import(&dash, el).await });
        }
        _ => {}
    }
}

/// The results page.
#[component]
pub fn ResultsPage() -> impl IntoView {
    let dash = Dashboard::new();
    spawn_local(load_stored(dash.clone()));
    let click = {
        let dash = dash.clone();
        move |ev: web_sys::MouseEvent| on_page_click(&dash, &ev)
    };
    let change = {
        let dash = dash.clone();
        move |ev: web_sys::Event| on_change(&dash, &ev)
    };
    // The filter is read as it is typed; the analysis follows a pause in the typing, or
    // Enter at once.
    let on_filter = {
        let dash = dash.clone();
        move |ev: web_sys::Event| {
            let typed = dash.typed.get() + 1;
            dash.typed.set(typed);
            match TrialFilter::parse(&event_target_value(&ev)) {
                Err(e) => dash.filter_line.set((true, e.to_string())),
                Ok(filter) => {
                    let dash = dash.clone();
                    spawn_local(async move {
                        crate::study::gloo_sleep(250).await;
                        if dash.typed.get() == typed {
                            apply_filter(&dash, filter);
                        }
                    });
                }
            }
        }
    };
    let on_filter_key = {
        let dash = dash.clone();
        move |ev: web_sys::KeyboardEvent| {
            if ev.key() != "Enter" {
                return;
            }
            dash.typed.set(dash.typed.get() + 1);
            if let Ok(filter) = TrialFilter::parse(&event_target_value(&ev)) {
                apply_filter(&dash, filter);
            }
        }
    };
    let report = dash.report;
    // Back and forward between parts, and an address typed with another part, open it.
    let hash = window_event_listener(leptos::ev::hashchange, move |_| {
        if let Some(id) = location_hash() {
            scroll_to(&id);
        }
    });
    on_cleanup(move || hash.remove());
    let (racing, race_dash) = (dash.racing, StoredValue::new_local(dash.clone()));
    let (review_records, review_count) = review_signals(&dash);
    let every_eval_ever = every_eval_ever_click(&dash);
    let (list, nav, drill, replay, message, order, audit_own, filter_line) = (
        dash.list,
        dash.nav,
        dash.drill,
        dash.replay,
        dash.message,
        dash.order,
        dash.audit_own,
        dash.filter_line,
    );
    view! {
        <section class="results" on:click=click on:change=change>
            <style>{AUDIT_CSS}{PARTS_CSS}</style>
            <h1>"Results"</h1>
            <p class="lead">
                "Every measure of the experiments you choose, with 95% intervals and the four hypotheses."
            </p>
            {move || notice(message.get(), "results-message")}
            <div class="results-layout">
            <div class="contents-slot" inner_html=move || nav.get()></div>
            <div class="results-main">
            <div class="results-sources" data-testid="sources" inner_html=move || list.get()></div>
            <div class="results-bar" role="toolbar" aria-label="The results' actions">
                <button type="button" class="button" data-action=ResultsAction::Analyze.name() title="Read the chosen experiments again from this browser's storage">"Update"</button>
                <span class="bar-group" role="group" aria-label="Import">
                    <span class="bar-label" aria-hidden="true">"Import"</span>
                    <label class="button file" title="Import an exported ZIP or a trials.jsonl">
                        "a file…"
                        <input type="file" accept=".zip,.jsonl,application/zip" aria-label="Import results: an exported ZIP or a trials.jsonl" data-action=ResultsAction::Import.name() data-testid="results-import" />
                    </label>
                    <label class="button file" title="Import a results folder of transcripts, as the design's original runs or shapemaze run write them">
                        "a folder…"
                        <input type="file" prop:webkitdirectory=true aria-label="Import a results folder of transcripts" data-action=ResultsAction::Import.name() data-testid="results-import-folder" />
                    </label>
                </span>
                <span class="bar-group" role="group" aria-label="Download">
                    <span class="bar-label" aria-hidden="true">"Download"</span>
                    <button type="button" class="button primary" data-action=ResultsAction::Report.name() data-testid="download-report" aria-label="Download the report (HTML)" title="Everything below as one self-contained HTML file">"the report (HTML)"</button>
                    <button type="button" class="button" data-testid="download-every-eval-ever" aria-label="Download Every Eval Ever (ZIP)" title="The chosen experiments in the Every Eval Ever schema (one aggregate file per model, the instance rows), as shapemaze export --format every-eval-ever writes them" on:click=every_eval_ever>"Every Eval Ever (ZIP)"</button>
                </span>
                <details class="results-options" data-testid="results-options">
                    <summary class="button">"Options"</summary>
                    <div class="results-options-body">
                        <label class="field">
                            <span>"H3 model order (smallest first)"</span>
                            <input data-testid="model-order" placeholder="the run's models, by size" prop:value=move || order.get() on:change=move |ev| order.set(event_target_value(&ev)) />
                        </label>
                        <label class="check" title="Also score the chosen experiments the way the design's original code did, beside today's verifiers, with the cause of every difference">
                            <input type="checkbox" data-testid="audit-own" data-action=ResultsAction::AuditOwn.name() prop:checked=move || audit_own.get() on:change=move |ev| audit_own.set(event_target_checked(&ev)) />
                            " Score the original way too"
                        </label>
                    </div>
                </details>
            </div>
            <div class="results-filter">
                <label class="field">
                    <span class="visually-hidden">"Filter trials"</span>
                    <input type="search" data-testid="results-filter" aria-label="Filter trials" placeholder="Filter trials: shape:spiral solve:fail reply:\"wall\"" on:input=on_filter on:keydown=on_filter_key />
                </label>
                <details>
                    <summary>"How to filter"</summary>
                    <p>{FILTER_HELP}</p>
                </details>
                <p data-testid="results-filter-count" class=move || if filter_line.get().0 { "error" } else { "muted" }>
                    {move || filter_line.get().1}
                </p>
            </div>
            <div class="report" node_ref=report></div>
            <ReviewPart records=review_records count=review_count />
            <div class="drill" inner_html=move || drill.get()></div>
            {move || match (racing.get(), replay.get()) {
                (Some(r), _) => view! {
                    <div class="drill-replay" data-testid="drill-race">
                        <button type="button" class="button ghost" data-testid="race-close" on:click=move |_| racing.set(None)>"◀ Back to the replay"</button>
                        <RaceView racing=r link=None />
                    </div>
                }.into_any(),
                (None, Some(loaded)) => view! {
                    <div class="drill-replay" data-testid="drill-replay">
                        <RaceOpen dash=race_dash.get_value() />
                        <Replay loaded=loaded />
                    </div>
                }.into_any(),
                (None, None) => ().into_any(),
            }}
            </div>
            </div>
        </section>
    }
}

/// A click on the page: the element with a `data-action` it happened in, dispatched.
fn on_page_click(dash: &Shared, ev: &web_sys::MouseEvent) {
    let Some(target) = ev
        .target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
    else {
        return;
    };
    let Some(el) = target.closest("[data-action]").ok().flatten() else {
        return;
    };
    let name = el.get_attribute("data-action").unwrap_or_default();
    let index = el
        .get_attribute("data-index")
        .or_else(|| el.get_attribute("data-group"))
        .and_then(|i| i.parse::<usize>().ok());
    if LabAction::parse(&name) == Some(LabAction::OpenTrial) {
        open_trial(dash, index);
        return;
    }
    let Some(action) = ResultsAction::parse(&name) else {
        return;
    };
    if action == ResultsAction::AuditCause {
        // The page lists the trials itself; the link's jump is for the report file.
        ev.prevent_default();
    }
    on_click(dash, action, index, &el);
}

fn on_click(dash: &Shared, action: ResultsAction, index: Option<usize>, el: &web_sys::Element) {
    match action {
        // A link to a part: the browser goes there; a narrow screen's menu folds away.
        ResultsAction::Contents if narrow() => {
            if let Some(menu) = el.closest("details.contents-menu").ok().flatten() {
                let _ = menu.remove_attribute("open");
            }
        }
        // *Update* reads this browser's storage again (another tab may have run more).
        ResultsAction::Analyze => {
            dash.stored.borrow_mut().clear();
            let dash = dash.clone();
            spawn_local(async move { analyze_chosen(&dash).await });
        }
        ResultsAction::Drill => {
            let Some(g) = index else { return };
            let analysis = dash.analysis.borrow();
            let Some(row) = analysis.as_ref().and_then(|a| a.groups.get(g)) else {
                return;
            };
            let obs = dash.observations.borrow();
            let records = dash.records.borrow();
            let rows: Vec<(usize, &Observation, bool)> = dash
                .shown
                .borrow()
                .iter()
                .map(|&i| (i, &obs[i], records[i].is_some()))
                .filter(|(_, o, _)| in_group(o, row))
                .collect();
            let title = format!(
                "Trials of {} / {} / {} ({})",
                row.model, row.encoding, row.shape, row.experiment
            );
            dash.drill.set(trials_table(&title, &rows));
            dash.replay.set(None);
            scroll_to("drill");
        }
        ResultsAction::AuditCause => {
            // Lists every trial of the row's group, phase and cause below the report.
            let attr = |name: &str| el.get_attribute(name).unwrap_or_default();
            let summary = attr("data-section")
                .parse::<usize>()
                .ok()
                .and_then(|i| dash.audit_summaries.borrow().get(i).cloned());
            if let (Some(summary), Some(cause)) = (summary, Cause::from_name(&attr("data-cause"))) {
                dash.drill.set(audit_drill_html(
                    &summary,
                    &attr("data-group"),
                    &attr("data-phase"),
                    cause,
                ));
                dash.replay.set(None);
                scroll_to("drill");
                return;
            }
            // Else the cause's section of the report opens.
            let target = el.get_attribute("data-target").unwrap_or_default();
            if let Some(d) = web_sys::window()
                .and_then(|w| w.document())
                .and_then(|d| d.get_element_by_id(&target))
            {
                let _ = d.set_attribute("open", "");
                d.scroll_into_view();
            }
        }
        ResultsAction::ChartSvg | ResultsAction::TableCsv => {
            // The chart or table is the one the button was put right after (several
            // audits on the page share their test ids).
            let target = el.get_attribute("data-target").unwrap_or_default();
            let Some(node) = el.previous_element_sibling() else {
                return;
            };
            let result = if action == ResultsAction::ChartSvg {
                download_file(
                    &format!("{target}.svg"),
                    &node.outer_html(),
                    "image/svg+xml",
                )
                .map_err(String::from)
            } else {
                match table_csv(dash, &node, &target) {
                    Some(csv) => download_file(&format!("{target}.csv"), &csv, "text/csv")
                        .map_err(String::from),
                    None => Err(format!(
                        "The table {target} is no longer shown: update the analysis and try again."
                    )),
                }
            };
            if let Err(e) = result {
                dash.fail(e);
            }
        }
        ResultsAction::Report => download_report(dash),
        _ => {}
    }
}

/// The review part's records, cloned only when it reads them (once opened), and their
/// number.
fn review_signals(dash: &Shared) -> (Signal<Vec<TrialRecord>, LocalStorage>, Signal<usize>) {
    let shown = dash.review_shown;
    let records = {
        let dash = dash.clone();
        Signal::derive_local(move || {
            shown.with(|shown| {
                let records = dash.records.borrow();
                shown
                    .iter()
                    .filter_map(|&i| records.get(i)?.as_deref().cloned())
                    .collect::<Vec<TrialRecord>>()
            })
        })
    };
    (records, Signal::derive(move || shown.with(Vec::len)))
}

/// *Download Every Eval Ever (ZIP)*: the chosen sources in that schema, the outcome said.
fn every_eval_ever_click(dash: &Shared) -> impl Fn(web_sys::MouseEvent) + 'static {
    let dash = dash.clone();
    move |_| {
        let dash = dash.clone();
        spawn_local(async move {
            let sources = dash.sources.borrow().clone();
            match exchange::download(sources).await {
                Ok(line) => dash.message.set(Some((false, line))),
                Err(e) => dash.fail(e),
            }
        });
    }
}

/// The provenance of each chosen source that carries one (an imported export's
/// `provenance.json`), as the report file's settings say it.
fn provenance_text(sources: &[Source]) -> String {
    sources
        .iter()
        .filter(|s| s.chosen)
        .filter_map(|s| {
            s.provenance
                .as_ref()
                .map(|p| format!("\n\nProvenance of {}:\n{}", s.label, p.summary()))
        })
        .collect()
}

/// Saves the report file of what the page shows: the analysis of the trials the filter
/// matches, and the audits.
fn download_report(dash: &Dashboard) {
    let analysis = dash.analysis.borrow();
    // An audit alone (human files or vision runs only) reports with an empty analysis.
    let empty;
    let a = match analysis.as_ref() {
        Some(a) => a,
        None if !dash.audit_summaries.borrow().is_empty() => {
            empty = analyze(&[], &AnalysisOptions::default());
            &empty
        }
        None => return dash.fail("Nothing to report yet: choose or import an experiment."),
    };
    let all = dash.observations.borrow();
    let obs: Vec<Observation> = dash
        .shown
        .borrow()
        .iter()
        .map(|&i| all[i].clone())
        .collect();
    let filter = dash.filter.borrow();
    let settings = format!(
        "{}Experiments: {}\nH3 model order: {}\nSignificance level 0.05; intervals are 95%.\nMade by the Shapemaze results page, version {}.",
        if filter.is_empty() {
            String::new()
        } else {
            filter.summary(obs.len(), all.len()) + "\n"
        },
        a.experiments.join(", "),
        a.model_order.join(" < "),
        env!("CARGO_PKG_VERSION")
    ) + &provenance_text(&dash.sources.borrow());
    let audits = audits_html(&dash.audit_summaries.borrow());
    let counted = AnalysisOptions {
        include_shown: a.shown_recognitions.counted,
        ..AnalysisOptions::default()
    };
    let items = item_matrix_csv(as_counted(&obs, &counted).iter().map(Observation::item));
    let html = report_html(a, &audits, &settings, &observations_csv(&obs), &items);
    if let Err(e) = download_file("shapemaze-report.html", &html, "text/html") {
        dash.fail(e);
    }
}

/// The people's part's checkbox that counts (or leaves out) people's recognition verdicts
/// given with the shape shown: there only when some were.
fn include_shown_box(counted: bool) -> String {
    format!(
        "<p><label class=\"check\"><input type=\"checkbox\" data-testid=\"results-include-shown\" data-action=\"{}\"{}/> Count recognitions given with the shape shown (people's records made before Shapemaze 0.2.0, whose pages named it above the maze)</label></p>",
        ResultsAction::IncludeShown.name(),
        if counted { " checked" } else { "" }
    )
}

/// Whether the window is narrow enough that the contents list is a menu.
fn narrow() -> bool {
    web_sys::window()
        .and_then(|w| w.inner_width().ok())
        .and_then(|w| w.as_f64())
        .is_some_and(|w| w < 1000.0)
}

/// Opens the part the address named once it is drawn (the analysis is drawn after the
/// page loads, so the browser's own jump finds nothing).
fn open_pending(dash: &Dashboard) {
    let id = dash.pending.borrow().clone();
    let Some(id) = id else { return };
    let found = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id(&id));
    if let Some(el) = found {
        *dash.pending.borrow_mut() = None;
        el.scroll_into_view();
    }
}

fn scroll_to(id: &str) {
    if let Some(el) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id(id))
    {
        el.scroll_into_view();
    }
}

/// The trials of the stored experiment `id`, read from storage the first time only; an
/// error says why they could not be read.
async fn stored_trials(
    dash: &Dashboard,
    db: &Db,
    id: &str,
) -> Result<Rc<StoredTrials>, crate::storage::StorageError> {
    if let Some(read) = dash.stored.borrow().get(id) {
        return Ok(read.clone());
    }
    let (records, bad) = stored_records(db, id).await?;
    let read = Rc::new(StoredTrials {
        records: records.into_iter().map(Rc::new).collect(),
        unreadable: bad.len(),
    });
    dash.stored
        .borrow_mut()
        .insert(id.to_string(), read.clone());
    Ok(read)
}

/// Reads the chosen sources' records (a stored experiment's from storage the first time
/// it is chosen) and draws the analysis.
async fn analyze_chosen(dash: &Shared) {
    let generation = dash.generation.get() + 1;
    dash.generation.set(generation);
    let chosen: Vec<Source> = dash
        .sources
        .borrow()
        .iter()
        .filter(|s| s.chosen)
        .cloned()
        .collect();
    let mut records = Vec::new();
    let mut observations = Vec::new();
    let mut summaries: Vec<Rc<AuditSummary>> =
        chosen.iter().filter_map(|s| s.audit.clone()).collect();
    let Some(audit_own) = dash.audit_own.try_get_untracked() else {
        return;
    };
    let unread = chosen.iter().any(|s| {
        s.id.as_ref()
            .is_some_and(|id| !dash.stored.borrow().contains_key(id))
    });
    let db = if unread { Db::open().await.ok() } else { None };
    for s in chosen {
        let rs: Vec<Rc<TrialRecord>> = match &s.id {
            Some(id) => {
                let read = match &db {
                    Some(db) => stored_trials(dash, db, id).await,
                    None => match dash.stored.borrow().get(id) {
                        Some(read) => Ok(read.clone()),
                        None => continue,
                    },
                };
                match read {
                    Ok(read) => {
                        if read.unreadable > 0 {
                            dash.fail(format!(
                                "{}: {} stored trials could not be read and are left out.",
                                s.label, read.unreadable
                            ));
                        }
                        read.records.clone()
                    }
                    Err(e) => {
                        dash.fail(format!("Could not read {}: {e}", s.label));
                        continue;
                    }
                }
            }
            None => s.records.iter().cloned().map(Rc::new).collect(),
        };
        if audit_own {
            let plain: Vec<TrialRecord> = rs.iter().map(|r| TrialRecord::clone(r)).collect();
            let own = audit_records(&plain);
            if !own.is_empty() {
                let label = format!("{} (original scoring)", s.label);
                summaries.push(Rc::new(own.summarize(&label, Scoring::All)));
            }
        }
        for (i, r) in rs.into_iter().enumerate() {
            let o = Observation::from_record(&s.label, &r);
            observations.push(match s.people.get(i) {
                Some((who, ms)) => o.played_by(who.clone(), *ms),
                None => o,
            });
            records.push(Some(r));
        }
        for o in s.transcripts {
            observations.push(o);
            records.push(None);
        }
    }
    if dash.generation.get() != generation || dash.gone() {
        return;
    }
    *dash.audits.borrow_mut() = audits_html(&summaries);
    *dash.audit_summaries.borrow_mut() = summaries;
    *dash.records.borrow_mut() = records;
    *dash.observations.borrow_mut() = observations;
    draw(dash);
}

/// The filter typed, applied: the analysis drawn again over the trials it matches.
fn apply_filter(dash: &Dashboard, filter: TrialFilter) {
    *dash.filter.borrow_mut() = filter;
    draw(dash);
}

/// Analyses and draws the chosen trials the filter matches, and says how many match.
fn draw(dash: &Dashboard) {
    if dash.gone() {
        return;
    }
    let filter = dash.filter.borrow();
    let records = dash.records.borrow();
    let all = dash.observations.borrow();
    let shown: Vec<usize> = (0..all.len())
        .filter(|&i| match &records[i] {
            Some(r) => filter.matches_in(&all[i].experiment, r),
            None => filter.matches_facts(&all[i].facts()),
        })
        .collect();
    let picked: Vec<Observation>;
    let observations = if shown.len() == all.len() {
        &all[..]
    } else {
        picked = shown.iter().map(|&i| all[i].clone()).collect();
        &picked[..]
    };
    let order: Vec<String> = dash
        .order
        .get_untracked()
        .split(',')
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect();
    let mut options = AnalysisOptions {
        include_shown: dash.include_shown.get_untracked(),
        ..AnalysisOptions::default()
    };
    if order.len() >= 2 {
        options.model_order = order;
    }
    let audits = dash.audits.borrow();
    let page = crate::route::href("/results");
    let (empty, mut parts) = if observations.is_empty() {
        let empty = if !all.is_empty() {
            "No trial matches the filter."
        } else if audits.is_empty() {
            "No trials chosen."
        } else {
            "No trials to analyse by model, encoding and shape: vision runs and the original page's human files enter the audit below only."
        };
        *dash.analysis.borrow_mut() = None;
        (
            format!("<p class=\"muted\" data-testid=\"results-empty\">{empty}</p>"),
            Parts::new(),
        )
    } else {
        let a = analyze(observations, &options);
        let mut parts = report_parts(&a, &page);
        if a.shown_recognitions.trials > 0 {
            parts.add(
                Part::PeopleModels,
                &include_shown_box(a.shown_recognitions.counted),
            );
        }
        let wanted = dash.compare.borrow().clone();
        if let Some((x, y)) = pick_pair(observations, (&wanted.0, &wanted.1)) {
            let c = compare(observations, &x, &y);
            parts.add(Part::Compare, &comparison_section(&sides(observations), &c));
        }
        *dash.analysis.borrow_mut() = Some(a);
        (String::new(), parts)
    };
    parts.add(Part::Audit, &audits);
    let reviewable: Vec<usize> = shown
        .iter()
        .copied()
        .filter(|&i| records[i].is_some())
        .collect();
    if !reviewable.is_empty() {
        parts.add(Part::Review, REVIEW_INTRO);
    }
    // The review part reads its replies again only when its trials are others.
    if dash.review_shown.with_untracked(|r| *r != reviewable) {
        dash.review_shown.set(reviewable);
    }
    // Wide screens show the contents as a sidebar; narrow ones fold it into a menu.
    dash.nav.set(parts.nav(&page, !narrow()));
    let mut sections: Vec<(String, String)> = Vec::new();
    if !empty.is_empty() {
        sections.push(("empty".into(), empty));
    }
    sections.extend(parts.sections().map(|(p, html)| (p.id().to_string(), html)));
    if let Some(el) = dash.report.get_untracked() {
        dash.parts.show(&el, sections, |el| {
            decorate(
                el,
                ResultsAction::TableCsv.name(),
                ResultsAction::ChartSvg.name(),
            );
        });
    }
    open_pending(dash);
    let unsearched = filter.searches_text() && records.iter().any(Option::is_none);
    dash.filter_line.set((
        false,
        format!(
            "{} of {} trials match{}",
            shown.len(),
            all.len(),
            if unsearched {
                " (imported transcripts have no messages to search)"
            } else {
                ""
            }
        ),
    ));
    *dash.shown.borrow_mut() = shown;
    dash.drill.set(String::new());
    dash.replay.set(None);
}

async fn import(dash: &Shared, input: web_sys::Element) {
    let files = picked_files(&input).await;
    if files.is_empty() {
        return;
    }
    // A large folder takes seconds to score: say so before the work holds the page.
    if files.len() > 1 || files[0].1.len() > 1 << 20 {
        dash.message.set(Some((
            false,
            format!(
                "Reading and scoring {} ({} file{})…",
                files[0].0.split('/').next().unwrap_or_default(),
                files.len(),
                if files.len() == 1 { "" } else { "s" }
            ),
        )));
        crate::study::gloo_sleep(30).await;
    }
    match import::read_import(files).await {
        Ok(source) => {
            dash.add_source(source);
            dash.draw_sources();
            dash.message.set(None);
            analyze_chosen(dash).await;
        }
        Err(e) => dash.fail(e),
    }
}

/// The CSV of the table `target` (`table-{id}`) that `node` draws, written from the
/// report model by its CSV writer (the one quoting rule, rates as five numbers): the
/// audit's when `node` stands in an audit section, else the analysis's.
fn table_csv(dash: &Dashboard, node: &web_sys::Element, target: &str) -> Option<String> {
    let id = target.strip_prefix("table-")?;
    let section = node
        .closest("section.audit[data-section]")
        .ok()
        .flatten()
        .and_then(|s| s.get_attribute("data-section"))
        .and_then(|s| s.parse::<usize>().ok());
    let doc = match section {
        Some(i) => {
            let summary = dash.audit_summaries.borrow().get(i).cloned()?;
            audit_document(&summary, Scoring::All, i, false)
        }
        None => analysis_document(dash.analysis.borrow().as_ref()?, false),
    };
    doc.table(id).map(csv::write)
}

/// The audit sections of `summaries`, each with its own element ids.
fn audits_html(summaries: &[Rc<AuditSummary>]) -> String {
    summaries
        .iter()
        .enumerate()
        .map(|(i, a)| audit_html(a, i))
        .collect()
}

/// The trials table's replay button (`view::experiment::trials_table`, a
/// [`LabAction::OpenTrial`]): the trial's replay, and the other plays of its maze to race.
fn open_trial(dash: &Shared, index: Option<usize>) {
    let Some(i) = index else { return };
    let record = dash
        .records
        .borrow()
        .get(i)
        .and_then(|r| r.as_deref().cloned());
    let Some(record) = record else { return };
    let source = format!(
        "{}, {} {} maze {}",
        record.model,
        record.encoding.label(),
        record.shape.name(),
        record.sample
    );
    match load(record, source) {
        Ok(l) => {
            dash.racing.set(None);
            dash.replayed.set(Some(i));
            dash.rivals.set(rivals(dash, i));
            dash.replay.set(Some(l));
        }
        Err(e) => dash.fail(format!("This trial cannot be replayed: {e}")),
    }
}

/// The other trials at hand of the maze trial `i` was played on (the same grid, player and
/// goal as first shown), labelled for people, at most 20.
fn rivals(dash: &Shared, i: usize) -> Vec<(usize, String)> {
    let records = dash.records.borrow();
    let obs = dash.observations.borrow();
    let Some(maze) = records.get(i).and_then(|r| r.as_ref()?.first_maze().ok()) else {
        return Vec::new();
    };
    records
        .iter()
        .enumerate()
        .filter(|&(j, r)| {
            j != i
                && r.as_ref()
                    .and_then(|r| r.first_maze().ok())
                    .is_some_and(|m| m == maze)
        })
        .take(20)
        .map(|(j, _)| {
            let o = &obs[j];
            let solve = match o.outcomes[0] {
                Some(Outcome::Success) => "solved",
                Some(Outcome::Fail) => "not solved",
                Some(Outcome::Error) => "API error",
                None => "not reached",
            };
            let repeat = if o.repeat > 0 {
                format!(", repeat {}", o.repeat)
            } else {
                String::new()
            };
            (
                j,
                format!("{} ({}{repeat}): {solve}", o.model, o.experiment),
            )
        })
        .collect()
}

/// Under a replayed trial: the other plays of its maze at hand, each opening a race
/// against it.
#[component]
fn RaceOpen(dash: Shared) -> impl IntoView {
    let rivals = dash.rivals.get_untracked();
    if rivals.is_empty() {
        return view! { <p class="muted" data-testid="race-none">"No other play of this maze is loaded to race against."</p> }.into_any();
    }
    let open = move |j: usize| {
        let records = dash.records.borrow();
        let pair = dash.replayed.get().and_then(|i| {
            Some((
                records.get(i)?.as_deref()?.clone(),
                records.get(j)?.as_deref()?.clone(),
            ))
        });
        let Some((a, b)) = pair else { return };
        match Race::of(&a, &b) {
            Ok(race) => dash.racing.set(Some(Racing { race, a, b })),
            Err(e) => dash.fail(format!("These two trials cannot race: {e}.")),
        }
    };
    view! {
        <div class="race-open">
            <span>"Race this trial against another play of its maze: "</span>
            {rivals.into_iter().map(|(j, label)| {
                let open = open.clone();
                view! { <button type="button" class="button small" data-testid="race-open" data-index=j on:click=move |_| open(j)>{label}</button> }
            }).collect_view()}
        </div>
    }
    .into_any()
}
