//! `/study`: a participant's study (consent, instructions, practice, the counterbalanced
//! trials, completion), every action timed and saved to the browser's storage as it
//! happens, so a reload resumes exactly where the participant was. Each trial is uploaded
//! as it ends and kept queued until the server has it ([`courier`]); the completion code
//! or redirect follows only once the server holds every trial. `/study/manage`: the
//! experimenter's side ([`manage`]).

mod completion;
mod courier;
mod manage;
mod stage;
mod trial;

pub use manage::StudyManagePage;

use super::fetch::get_text;
use super::route::{use_location, Location};
use super::storage::{Db, STUDY};
use courier::Courier;
use leptos::prelude::*;
use leptos::task::spawn_local;
use shapemaze_core::json;
use shapemaze_core::study::{inline_name, Opening, Participant, Stage, Study, StudySession};

thread_local! {
    /// The trials this page load has shown (by storage key): finding one stored that is
    /// not here means the page was reloaded during it.
    static SHOWN: std::cell::RefCell<std::collections::HashSet<String>> =
        std::cell::RefCell::new(std::collections::HashSet::new());
}

/// Where the tab keeps its made-up participant id (one per tab, so two tabs never mix).
const TAB_ID: &str = "shapemaze.participant";

fn now() -> f64 {
    js_sys::Date::now()
}

/// The participant id of this tab when the link names nobody.
fn tab_participant() -> String {
    let store = web_sys::window().and_then(|w| w.session_storage().ok().flatten());
    if let Some(id) = store
        .as_ref()
        .and_then(|s| s.get_item(TAB_ID).ok().flatten())
    {
        return id;
    }
    let id = format!(
        "local-{:08x}",
        (js_sys::Math::random() * 4_294_967_295.0) as u64
    );
    if let Some(s) = store {
        let _ = s.set_item(TAB_ID, &id);
    }
    id
}

fn window_size() -> String {
    web_sys::window()
        .map(|w| {
            let n = |v: Result<wasm_bindgen::JsValue, _>| {
                v.ok().and_then(|v| v.as_f64()).unwrap_or(0.0) as u32
            };
            format!("{}x{}", n(w.inner_width()), n(w.inner_height()))
        })
        .unwrap_or_default()
}

/// A loaded study, its storage name and the database.
#[derive(Clone)]
struct Ready {
    study: Study,
    db: Db,
}

/// The page's state, shared with the stages' views.
#[derive(Clone, Copy)]
struct Page {
    error: RwSignal<Option<String>>,
    ready: RwSignal<Option<Ready>>,
    session: RwSignal<Option<StudySession>>,
    /// The participant's upload queue (none when the study uploads nowhere).
    courier: RwSignal<Option<Courier>>,
    /// The study's resume policy turned this visit away.
    blocked: RwSignal<bool>,
    /// The link gives the counterbalancing order itself (`order=`).
    order_in_link: bool,
}

impl Page {
    /// Saves the session; a failure is shown.
    fn save(self, s: StudySession) {
        if let Some(r) = self.ready.get_untracked() {
            spawn_local(async move {
                let key = s.session_key();
                let saved = match json::to_string(&s) {
                    Ok(text) => {
                        r.db.put(STUDY, &key, &text)
                            .await
                            .map_err(|e| e.to_string())
                    }
                    Err(e) => Err(e.to_string()),
                };
                if let Err(e) = saved {
                    self.error.set(Some(e));
                }
            });
        }
    }

    /// Changes the session by `f`, then saves it before anything else happens on the page.
    fn update(self, f: impl Fn(&mut StudySession, &Study)) {
        // Nothing to update once the page is gone (a timer may outlive it).
        let Some(r) = self.ready.try_get_untracked().flatten() else {
            return;
        };
        self.session.update(|s| {
            if let Some(s) = s.as_mut() {
                f(s, &r.study);
            }
        });
        if let Some(s) = self.session.get_untracked() {
            self.save(s);
        }
    }
}

/// The study the link names: its storage name and the study, or why it cannot start.
async fn load_study(q: &str) -> Result<(String, Study), String> {
    if let Some(config) = Location::param(q, "config") {
        let study = Study::from_config_param(&config).map_err(|e| e.to_string())?;
        return Ok((inline_name(&config), study));
    }
    let Some(name) = Location::param(q, "study") else {
        return Err("the link names no study (it needs ?study=NAME or ?config=...)".into());
    };
    let ok = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_'));
    if !ok {
        return Err(format!(
            "'{name}' is not a study's name (letters, digits, - and _ only)"
        ));
    }
    let text = get_text(&format!("/studies/{name}.json")).await?;
    let study = Study::from_json(&text).map_err(|e| e.to_string())?;
    Ok((name, study))
}

/// Opens the participant's session: the one saved in this browser, taken up as the
/// study's resume policy says, or a new one at the consent page (no order is taken from
/// the server before consent). Saved before anything else happens.
async fn open_session(
    q: &str,
    name: &str,
    study: &Study,
    db: &Db,
) -> Result<(StudySession, Opening), String> {
    let participant = Participant::from_params(|k| Location::param(q, k), &tab_participant());
    let key = format!("{name}/{}/session", participant.id);
    let restored = db
        .get(STUDY, &key)
        .await
        .ok()
        .flatten()
        .and_then(|t| serde_json::from_str::<StudySession>(&t).ok());
    // A reload of a tab that had this study open is no return (sessionStorage lives as
    // long as the tab): it resumes whatever the study's policy.
    let open_mark = format!("shapemaze.study-open.{key}");
    let tab = web_sys::window().and_then(|w| w.session_storage().ok().flatten());
    let reloaded = tab
        .as_ref()
        .is_some_and(|s| s.get_item(&open_mark).ok().flatten().is_some());
    if let Some(tab) = &tab {
        let _ = tab.set_item(&open_mark, "1");
    }
    let (opened, opening) = StudySession::open(name, study, participant, restored, now(), reloaded);
    let text = json::to_string(&opened).map_err(|e| e.to_string())?;
    db.put(STUDY, &opened.session_key(), &text)
        .await
        .map_err(|e| e.to_string())?;
    Ok((opened, opening))
}

/// Asked before a participant leaves the study page during a maze.
const LEAVE_STUDY: &str = "Leave the study? Your answers so far are kept in this browser, and the link takes you back to where you were.";

/// Loads the study and the participant's session into `page`, and starts the upload queue.
fn start(page: Page, q: String) {
    let owner = Owner::current();
    spawn_local(async move {
        let (name, study) = match load_study(&q).await {
            Ok(x) => x,
            Err(e) => {
                page.error.set(Some(format!("This study cannot start: {e}. Please tell the researcher who sent you the link.")));
                return;
            }
        };
        let db = match Db::open().await {
            Ok(db) => db,
            Err(e) => {
                page.error.set(Some(format!(
                    "{e} Your answers could not be kept, so the study cannot start here."
                )));
                return;
            }
        };
        let (opened, opening) = match open_session(&q, &name, &study, &db).await {
            Ok(x) => x,
            Err(e) => {
                page.error.set(Some(e));
                return;
            }
        };
        // What an earlier visit left unsent goes now.
        if let (Some(upload), Some(owner)) = (study.upload.clone(), owner) {
            let prefix = opened.participant_prefix();
            let courier = owner.with(|| Courier::new(db.clone(), upload, prefix));
            page.courier.set(Some(courier));
        }
        page.blocked.set(opening == Opening::Blocked);
        page.session.set(Some(opened));
        page.ready.set(Some(Ready { study, db }));
    });
}

/// The study's time limit: when it runs out the study ends as timed out (checked again
/// whenever the session changes, so a new page load or a step re-arms the timer).
fn watch_time(page: Page) {
    Effect::new(move |_| {
        let (Some(r), Some(s)) = (page.ready.get(), page.session.get()) else {
            return;
        };
        if let Some(left) = s.time_left_ms(&r.study, now()) {
            if !s.stage.is_final() && s.consent.is_some() {
                spawn_local(async move {
                    gloo_sleep(left.clamp(0.0, 2_000_000_000.0) as u32).await;
                    page.update(|s, st| {
                        s.check_time(st, now());
                    });
                });
            }
        }
    });
}

/// The participant's page.
#[component]
pub fn StudyPage() -> impl IntoView {
    let loc = use_location();
    let q = loc.query.get_untracked();
    on_cleanup(move || {
        loc.unsaved.set(None);
        if let Some(d) = web_sys::window().and_then(|w| w.document()) {
            d.set_title("Shapemaze");
        }
    });
    let page = Page {
        error: RwSignal::new(None),
        ready: RwSignal::new(None),
        session: RwSignal::new(None),
        courier: RwSignal::new(None),
        blocked: RwSignal::new(false),
        order_in_link: Location::param(&q, "order").is_some(),
    };
    start(page, q);
    watch_time(page);
    // Focus moves to each new stage's heading (or the maze), as it does between phases.
    Effect::new(move |before: Option<Option<Stage>>| {
        let now = page.session.with(|s| s.as_ref().map(|s| s.stage));
        if before.is_some_and(|b| b.is_some() && b != now) {
            request_animation_frame(crate::play::focus_phase);
        }
        now
    });
    // The tab carries the study's title; leaving during a maze asks first (the session is
    // kept, but a participant should not lose their place by accident).
    Effect::new(move |_| {
        if let Some(r) = page.ready.get() {
            if let Some(d) = web_sys::window().and_then(|w| w.document()) {
                d.set_title(&r.study.title);
            }
        }
        let in_maze = page.session.with(|s| {
            s.as_ref()
                .is_some_and(|s| matches!(s.stage, Stage::Practice | Stage::Trial(_)))
        });
        loc.unsaved.set(in_maze.then_some(LEAVE_STUDY));
    });
    let error = page.error;
    view! {
        <section class="study">
            {move || error.get().map(|e| view! { <div class="notice error" role="alert" data-testid="study-error">{e}</div> })}
            {move || stage::study_view(page)}
        </section>
    }
}

fn paragraphs(text: &str) -> impl IntoView {
    text.split("\n\n")
        .map(|p| p.trim().to_string())
        .filter(|p| !p.is_empty())
        .map(|p| view! { <p>{p}</p> })
        .collect_view()
}

/// What is stored under `prefix` at the keys `keep` accepts, read as `T` (what cannot be
/// read is left out).
async fn stored<T: serde::de::DeserializeOwned>(
    db: &Db,
    prefix: &str,
    keep: fn(&str) -> bool,
) -> Vec<T> {
    db.entries(STUDY, prefix)
        .await
        .unwrap_or_default()
        .into_iter()
        .filter(|(k, _)| keep(k))
        .filter_map(|(_, v)| serde_json::from_str(&v).ok())
        .collect()
}

/// Waits `ms` milliseconds (letting the page draw).
pub(crate) async fn gloo_sleep(ms: u32) {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        if let Some(w) = web_sys::window() {
            let _ = w.set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms as i32);
        }
    });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
}
