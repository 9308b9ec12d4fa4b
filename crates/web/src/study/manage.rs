//! `/study/manage`: the experimenter's side: build a study and its link, export and import
//! the study data in this browser, and reconcile each participant's outcome against the
//! trials held.

use super::browser::{download_csv, DownloadError};
use super::store::{self, StoreError, StudyStore};
use crate::download::download_file;
use crate::fetch::picked_text;
use leptos::prelude::*;
use leptos::task::spawn_local;
use shapemaze_core::json;
use shapemaze_core::study::reconcile::reconcile;
use shapemaze_core::study::{
    events_csv, read_study_data, OutcomeLine, OutcomeRecord, Scope, Study, StudyTrialData,
};
use shapemaze_view::study::{people_trials_csv, STUDY_TRIALS_FILE};

/// The experimenter's page: build a study and its link; export and import study data.
#[component]
pub fn StudyManagePage() -> impl IntoView {
    let text = RwSignal::new(EXAMPLE.to_string());
    let parsed = Memo::new(move |_| Study::from_json(&text.get()));
    let status = RwSignal::new(String::new());
    // Each participant's outcome against the trials held, and the trials stored here
    // with their signs of help (drawn as tables below).
    let stored = RwSignal::new(String::new());
    let show_stored = move || {
        spawn_local(async move {
            if let Ok(listing) = listed().await {
                let (all, outcomes) = (listing.trials(), listing.outcomes());
                store::warn(&all.unreadable);
                store::warn(&outcomes.unreadable);
                let (all, outcomes) = (all.values, outcomes.values);
                let participants = reconcile(&all, &outcomes);
                let mut html = String::new();
                for table in [
                    shapemaze_view::study::conditions_table(&participants),
                    shapemaze_view::study::participants_table(&participants),
                    shapemaze_view::study::signals_table(&all),
                ] {
                    shapemaze_view::document::html::table(&mut html, &table);
                }
                stored.set(html);
            }
        });
    };
    show_stored();
    let export = move |kind: Export| {
        spawn_local(async move {
            let (all, outcomes) = match stored_data().await {
                Ok(x) => x,
                Err(e) => return status.set(e.to_string()),
            };
            let result = match kind {
                Export::Events => download_csv("study-data.csv", &events_csv(&all)),
                Export::Trials => download_csv(STUDY_TRIALS_FILE, &people_trials_csv(&all)),
                Export::Jsonl => download_data("study-data.jsonl", &all, &outcomes),
            };
            status.set(match result {
                Ok(()) => format!(
                    "Exported {} trial{}.",
                    all.len(),
                    if all.len() == 1 { "" } else { "s" }
                ),
                Err(e) => format!("The export failed: {e}"),
            });
        });
    };
    let import = move |ev: leptos::ev::Event| {
        let input = event_target::<web_sys::HtmlInputElement>(&ev);
        spawn_local(async move {
            let (name, body) = match picked_text(&input).await {
                Ok(x) => x,
                Err(e) => return status.set(e.to_string()),
            };
            let data = read_study_data(&body);
            let saved = match StudyStore::open().await {
                Ok(store) => store.import(&data.trials, &data.outcomes).await,
                Err(e) => Err(e),
            };
            show_stored();
            let outcomes = match data.outcomes.len() {
                0 => String::new(),
                1 => " and 1 outcome".into(),
                n => format!(" and {n} outcomes"),
            };
            status.set(match saved {
                Ok(n) if data.refused.is_empty() => {
                    format!("Imported {n} trials{outcomes} from {name}.")
                }
                Ok(n) => format!(
                    "Imported {n} trials{outcomes} from {name}; refused {} lines: {}",
                    data.refused.len(),
                    data.refused.join("; ")
                ),
                Err(e @ StoreError::Unwritable { .. }) => {
                    format!("Nothing was imported from {name}: {e}")
                }
                Err(e) => e.to_string(),
            });
        });
    };
    view! {
        <section class="manage">
            <h1>"Studies"</h1>
            <p class="lead">"Write the study as JSON (its fields are in docs/CONTRACT.md, under Study files), check it, and share its link. A study kept in public/studies/NAME.json is linked as /study?study=NAME."</p>
            <label class="field wide">
                <span>"Study (JSON)"</span>
                <textarea data-testid="study-json" rows="16" prop:value=move || text.get() on:input=move |ev| text.set(event_target_value(&ev))></textarea>
            </label>
            {move || match parsed.get() {
                Ok(s) => {
                    let param = match s.to_config_param() {
                        Ok(p) => p,
                        Err(e) => return view! { <p class="notice error" data-testid="study-json-error">{format!("The study's link cannot be made: {e}")}</p> }.into_any(),
                    };
                    let link = crate::route::absolute_url(&format!("/study?config={param}"));
                    view! {
                        <p class="notice" data-testid="study-link-box">"Link for participants (Prolific adds its parameters): "
                            <a data-testid="study-link" href=link.clone()>{link.clone()}</a></p>
                    }.into_any()
                }
                Err(e) => view! { <p class="notice error" data-testid="study-json-error">{e.to_string()}</p> }.into_any(),
            }}
            <h2>"Data collected in this browser"</h2>
            <div class="row">
                <button type="button" class="button" data-testid="study-export-csv" on:click=move |_| export(Export::Events)>"Export CSV (one row per action)"</button>
                <button type="button" class="button" data-testid="study-export-trials" on:click=move |_| export(Export::Trials)>"Export trials CSV (one row per trial)"</button>
                <button type="button" class="button" data-testid="study-export-jsonl" on:click=move |_| export(Export::Jsonl)>"Export JSONL (one trial per line, then the outcomes)"</button>
                <label class="field">
                    <span>"Import uploaded data (JSONL or an upload body)"</span>
                    <input type="file" data-testid="study-import-file" accept=".jsonl,.json,application/json" on:change=import />
                </label>
            </div>
            <p aria-live="polite" data-testid="study-manage-status">{move || status.get()}</p>
            <div class="report" inner_html=move || stored.get()></div>
        </section>
    }
}

/// Everything of every study stored in this browser (run here or imported).
async fn listed() -> Result<store::Listing, StoreError> {
    StudyStore::open().await?.list(&Scope::All).await
}

/// What the page exports.
#[derive(Clone, Copy)]
enum Export {
    /// The actions, one row each (`study-data.csv`).
    Events,
    /// The trials, one row each ([`STUDY_TRIALS_FILE`]).
    Trials,
    /// The trials, one JSON line each, then the outcomes (`study-data.jsonl`).
    Jsonl,
}

/// Every study trial and outcome stored in this browser (what cannot be read is left out,
/// and written to the console).
async fn stored_data() -> Result<(Vec<StudyTrialData>, Vec<OutcomeRecord>), StoreError> {
    let listing = listed().await?;
    let (trials, outcomes) = (listing.trials(), listing.outcomes());
    store::warn(&trials.unreadable);
    store::warn(&outcomes.unreadable);
    Ok((trials.values, outcomes.values))
}

/// Saves the trials, one JSON line each, then the outcomes as [`OutcomeLine`]s, as
/// `shapemaze serve`'s JSONL export writes them.
fn download_data(
    file: &str,
    trials: &[StudyTrialData],
    outcomes: &[OutcomeRecord],
) -> Result<(), DownloadError> {
    let lines: Vec<OutcomeLine> = outcomes
        .iter()
        .map(|o| OutcomeLine { outcome: o.clone() })
        .collect();
    let text = json::lines(trials)
        .and_then(|t| Ok(t + &json::lines(&lines)?))
        .map_err(DownloadError::Unwritable)?;
    download_file(file, &text, "application/x-ndjson")
        .map_err(|e| DownloadError::Refused(e.to_string()))
}

/// The study the builder starts from.
const EXAMPLE: &str = r#"{"title": "Shape mazes", "version": "1",
 "trials": [{"shape": "square", "seed": 1}, {"shape": "cross", "seed": 1}, {"shape": "spiral", "seed": 1},
            {"shape": "triangle", "seed": 1}, {"shape": "C", "seed": 1}, {"shape": "Z", "seed": 1}],
 "practice": {"shape": "square", "seed": 99, "sample": 0},
 "conditions": ["grid", "text"], "recognition": "free", "counterbalance": true,
 "completion": {"code": "ABC123"}, "declined": {"code": "NOCONSENT"},
 "resume": {"policy": "resume", "max_age_minutes": 120}}"#;
