//! `/study`: a participant's study (consent, instructions, practice, the counterbalanced
//! trials, completion), every action timed and saved to the browser's storage as it
//! happens, so a reload resumes exactly where the participant was. Each trial is uploaded
//! as it ends and kept queued until the server has it ([`courier`]); the completion code
//! or redirect follows only once the server holds every trial. `/study/manage`: the
//! experimenter's side ([`manage`]). Whatever these pages keep goes through the study's
//! typed store ([`store`]).

mod browser;
mod completion;
mod courier;
mod manage;
mod page;
mod stage;
pub(crate) mod store;
mod trial;

pub(crate) use browser::gloo_sleep;
pub use manage::StudyManagePage;

use super::fetch::get_text;
use super::route::{use_location, Location};
use browser::now;
use courier::Courier;
use leptos::prelude::*;
use leptos::task::spawn_local;
use page::{Page, Ready};
use shapemaze_core::study::{
    inline_name, Opening, Participant, Stage, Study, StudyError, StudyKey, StudySession, Who,
};
use std::fmt;
use store::{StoreError, StudyStore};

/// Where the tab keeps its made-up participant id (one per tab, so two tabs never mix).
const TAB_ID: &str = "shapemaze.participant";

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

/// Why the study the link names cannot start.
#[derive(Clone, Debug)]
enum LoadError {
    /// The link names no study.
    Unnamed,
    /// The study's name is not a file's name.
    BadName(String),
    /// The study's file could not be fetched (why, from the fetch).
    Fetch(String),
    /// The study (in its file or the link) is not a study.
    Study(StudyError),
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::Unnamed => {
                f.write_str("the link names no study (it needs ?study=NAME or ?config=...)")
            }
            LoadError::BadName(name) => write!(
                f,
                "'{name}' is not a study's name (letters, digits, - and _ only)"
            ),
            LoadError::Fetch(why) => f.write_str(why),
            LoadError::Study(e) => e.fmt(f),
        }
    }
}

/// The study the link names: its storage name and the study, or why it cannot start.
async fn load_study(q: &str) -> Result<(String, Study), LoadError> {
    if let Some(config) = Location::param(q, "config") {
        let study = Study::from_config_param(&config).map_err(LoadError::Study)?;
        return Ok((inline_name(&config), study));
    }
    let Some(name) = Location::param(q, "study") else {
        return Err(LoadError::Unnamed);
    };
    let ok = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_'));
    if !ok {
        return Err(LoadError::BadName(name));
    }
    let text = get_text(&format!("/studies/{name}.json"))
        .await
        .map_err(|e| LoadError::Fetch(e.to_string()))?;
    let study = Study::from_json(&text).map_err(LoadError::Study)?;
    Ok((name, study))
}

/// Opens the participant's session: the one saved in this browser, taken up as the
/// study's resume policy says, or a new one at the consent page (no order is taken from
/// the server before consent). Saved before anything else happens.
async fn open_session(
    q: &str,
    name: &str,
    study: &Study,
    store: &StudyStore,
) -> Result<(StudySession, Opening), StoreError> {
    let participant = Participant::from_params(|k| Location::param(q, k), &tab_participant());
    let who = Who::new(name, &participant.id);
    // A session that cannot be read back (or storage that cannot be read) starts afresh,
    // as a first visit does; why goes to the console.
    let restored = store.session(&who).await.unwrap_or_else(|e| {
        store::warn(&[e]);
        None
    });
    // A reload of a tab that had this study open is no return (sessionStorage lives as
    // long as the tab): it resumes whatever the study's policy.
    let open_mark = StudyKey::open_mark(&who);
    let tab = web_sys::window().and_then(|w| w.session_storage().ok().flatten());
    let reloaded = tab
        .as_ref()
        .is_some_and(|s| s.get_item(&open_mark).ok().flatten().is_some());
    if let Some(tab) = &tab {
        let _ = tab.set_item(&open_mark, "1");
    }
    let (opened, opening) = StudySession::open(name, study, participant, restored, now(), reloaded);
    store.put_session(&opened).await?;
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
        let store = match StudyStore::open().await {
            Ok(store) => store,
            Err(e) => {
                page.error.set(Some(format!(
                    "{e} Your answers could not be kept, so the study cannot start here."
                )));
                return;
            }
        };
        let (opened, opening) = match open_session(&q, &name, &study, &store).await {
            Ok(x) => x,
            Err(e) => {
                page.error.set(Some(e.to_string()));
                return;
            }
        };
        // What an earlier visit left unsent goes now.
        if let (Some(upload), Some(owner)) = (study.upload.clone(), owner) {
            let who = opened.who();
            let courier = owner.with(|| Courier::new(store.clone(), upload, who));
            page.courier.set(Some(courier));
        }
        page.blocked.set(opening == Opening::Blocked);
        page.session.set(Some(opened));
        page.ready.set(Some(Ready { study, store }));
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
