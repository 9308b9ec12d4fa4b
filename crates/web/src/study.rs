//! `/study`: a participant's study (consent, instructions, practice, the counterbalanced
//! trials, completion), every action timed and saved to the browser's storage as it
//! happens, so a reload resumes exactly where the participant was; the data is uploaded at
//! the end (with retries) and the completion code or redirect follows only once it is
//! saved. `/study/manage`: the experimenter's side (build a study and its link, export and
//! import study data).

use super::download::download_file;
use super::fetch::{get_text, picked_text, post_json};
use super::play::{PlayOptions, TrialPlay};
use super::route::{use_location, Location};
use super::storage::{Db, STUDY};
use leptos::prelude::*;
use leptos::task::spawn_local;
use shapemaze_core::maze::generate::generate_one;
use shapemaze_core::maze::templates::TemplateLibrary;
use shapemaze_core::play::player::PlayerKind;
use shapemaze_core::play::transcript::Role;
use shapemaze_core::play::trial::{Phase, Trial, TrialSetup};
use shapemaze_core::results::record::{Placement, PlayerInfo, TrialRecord};
use shapemaze_core::study::{
    events_csv, inline_name, order_request, read_order_answer, read_study_data, upload_body,
    ActionLog, Assignment, Completion as Code, Opening, Outcome, Participant, Stage, Study,
    StudySession, StudyTrial, StudyTrialData,
};
use std::sync::Arc;

/// The study pages' own styles (kept with the pages that use them).
const STUDY_CSS: &str = ".study-head{display:flex;flex-wrap:wrap;align-items:center;gap:.4rem 1rem;margin-bottom:.5rem}.study-head h1{margin:.2rem 0}.manage [data-testid=study-link]{word-break:break-all}.manage textarea{min-height:16rem}.code{font-size:1.4rem;letter-spacing:.05em}.manage table{border-collapse:collapse;margin:.5rem 0}.manage caption{text-align:left;font-weight:600;padding:.3rem 0}.manage th,.manage td{border:1px solid var(--line);padding:.3rem .6rem;text-align:left}.manage th{background:var(--surface)}";

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

/// Asked before a participant leaves the study page during a maze.
const LEAVE_STUDY: &str = "Leave the study? Your answers so far are kept in this browser, and the link takes you back to where you were.";

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
    let error = RwSignal::new(None::<String>);
    let ready = RwSignal::new(None::<Ready>);
    let session = RwSignal::new(None::<StudySession>);
    // The study's resume policy turned this visit away.
    let blocked = RwSignal::new(false);
    spawn_local(async move {
        let (name, study) = if let Some(config) = Location::param(&q, "config") {
            (
                inline_name(&config),
                Study::from_config_param(&config).map_err(|e| e.to_string()),
            )
        } else if let Some(name) = Location::param(&q, "study") {
            let ok = !name.is_empty()
                && name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_'));
            let study = if ok {
                match get_text(&format!("/studies/{name}.json")).await {
                    Ok(text) => Study::from_json(&text).map_err(|e| e.to_string()),
                    Err(e) => Err(e),
                }
            } else {
                Err(format!(
                    "'{name}' is not a study's name (letters, digits, - and _ only)"
                ))
            };
            (name, study)
        } else {
            (
                String::new(),
                Err("the link names no study (it needs ?study=NAME or ?config=...)".to_string()),
            )
        };
        let study = match study {
            Ok(s) => s,
            Err(e) => {
                error.set(Some(format!("This study cannot start: {e}. Please tell the researcher who sent you the link.")));
                return;
            }
        };
        let db = match Db::open().await {
            Ok(db) => db,
            Err(e) => {
                error.set(Some(format!(
                    "{e} Your answers could not be kept, so the study cannot start here."
                )));
                return;
            }
        };
        let mut participant =
            Participant::from_params(|k| Location::param(&q, k), &tab_participant());
        let key = format!("{name}/{}/session", participant.id);
        let restored = db
            .get(STUDY, &key)
            .await
            .ok()
            .flatten()
            .and_then(|t| serde_json::from_str::<StudySession>(&t).ok());
        // A new participant of a study with server assignment gets the least used order
        // from `shapemaze serve`, or else keeps the one from their id's hash.
        let mut assigned = None;
        if restored.is_none()
            && study.counterbalance
            && study.assignment == Assignment::Server
            && Location::param(&q, "order").is_none()
        {
            let body = order_request(&name, &study, &participant.id);
            let answer = post_json(&crate::route::href("/api/study-order"), &body)
                .await
                .and_then(|(status, text)| {
                    read_order_answer(status, &text, &study).map_err(|e| e.to_string())
                });
            assigned = Some(match answer {
                Ok(k) => {
                    participant.order = k;
                    ("order_assigned", format!("order {k} from the server"))
                }
                Err(e) => (
                    "order_fallback",
                    format!("order {} from the id's hash: {e}", participant.order),
                ),
            });
        }
        // The study's resume policy decides what this visit does with a saved session;
        // what it decided is logged in the session, saved before anything else.
        // A reload of a tab that had this study open is no return (sessionStorage lives
        // as long as the tab): it resumes whatever the study's policy.
        let open_mark = format!("shapemaze.study-open.{key}");
        let tab = web_sys::window().and_then(|w| w.session_storage().ok().flatten());
        let reloaded = tab
            .as_ref()
            .is_some_and(|s| s.get_item(&open_mark).ok().flatten().is_some());
        if let Some(tab) = &tab {
            let _ = tab.set_item(&open_mark, "1");
        }
        let (mut opened, opening) =
            StudySession::open(&name, &study, participant, restored, now(), reloaded);
        if let Some((kind, detail)) = assigned {
            opened.log(now(), kind, detail);
        }
        if let Err(e) = db
            .put(
                STUDY,
                &opened.session_key(),
                &serde_json::to_string(&opened).unwrap_or_default(),
            )
            .await
        {
            error.set(Some(e.to_string()));
        }
        blocked.set(opening == Opening::Blocked);
        session.set(Some(opened));
        ready.set(Some(Ready { study, db }));
    });
    // Every change of the session is saved before anything else happens on the page.
    let save = move |s: StudySession| {
        if let Some(r) = ready.get_untracked() {
            spawn_local(async move {
                let key = s.session_key();
                let text = serde_json::to_string(&s).unwrap_or_default();
                if let Err(e) = r.db.put(STUDY, &key, &text).await {
                    error.set(Some(e.to_string()));
                }
            });
        }
    };
    let update = move |f: &dyn Fn(&mut StudySession, &Study)| {
        let Some(r) = ready.get_untracked() else {
            return;
        };
        session.update(|s| {
            if let Some(s) = s.as_mut() {
                f(s, &r.study);
            }
        });
        if let Some(s) = session.get_untracked() {
            save(s);
        }
    };

    // The study's time limit: when it runs out the study ends as timed out (checked again
    // whenever the session changes, so a new page load or a step re-arms the timer).
    Effect::new(move |_| {
        let (Some(r), Some(s)) = (ready.get(), session.get()) else {
            return;
        };
        if let Some(left) = s.time_left_ms(&r.study, now()) {
            if !s.stage.is_final() && s.consent.is_some() {
                spawn_local(async move {
                    gloo_sleep(left.clamp(0.0, 2_000_000_000.0) as u32).await;
                    update(&|s, st| {
                        s.check_time(st, now());
                    });
                });
            }
        }
    });

    // Focus moves to each new stage's heading (or the maze), as it does between phases.
    Effect::new(move |before: Option<Option<Stage>>| {
        let now = session.with(|s| s.as_ref().map(|s| s.stage));
        if before.is_some_and(|b| b.is_some() && b != now) {
            request_animation_frame(super::play::focus_phase);
        }
        now
    });

    // The tab carries the study's title; leaving during a maze asks first (the session is
    // kept, but a participant should not lose their place by accident).
    Effect::new(move |_| {
        if let Some(r) = ready.get() {
            if let Some(d) = web_sys::window().and_then(|w| w.document()) {
                d.set_title(&r.study.title);
            }
        }
        let in_maze = session.with(|s| {
            s.as_ref()
                .is_some_and(|s| matches!(s.stage, Stage::Practice | Stage::Trial(_)))
        });
        loc.unsaved.set(in_maze.then_some(LEAVE_STUDY));
    });

    view! {
        <section class="study">
            <style>{STUDY_CSS}</style>
            {move || error.get().map(|e| view! { <div class="notice error" role="alert" data-testid="study-error">{e}</div> })}
            {move || {
                let (Some(r), Some(s)) = (ready.get(), session.get()) else {
                    return (error.get().is_none()).then(|| view! { <p class="lead">"Loading the study…"</p> }).into_any();
                };
                if blocked.get() {
                    return view! {
                        <header class="study-head"><h1>{r.study.title.clone()}</h1></header>
                        <div class="phase-panel" data-testid="study-blocked">
                            <h2 tabindex="-1" data-phase-focus="">"This study cannot be continued"</h2>
                            <p>"You began this study before, and it cannot be taken up again or started over. Your answers so far are kept in this browser; the researcher will tell you if they need them."</p>
                            <OutcomeNote code=None participant=s.participant.id.clone() />
                        </div>
                    }.into_any();
                }
                let (done, total) = s.progress(&r.study);
                let title = r.study.title.clone();
                let body = match s.stage {
                    Stage::Consent => view! {
                        <div class="phase-panel">
                            <h2 tabindex="-1" data-phase-focus="">"Consent"</h2>
                            {paragraphs(&r.study.consent)}
                            <div class="row">
                                <button type="button" class="button primary" data-testid="consent-accept" on:click=move |_| update(&|s, st| s.accept(st, js_sys::Date::now()))>"I agree"</button>
                                <button type="button" class="button" data-testid="consent-decline" on:click=move |_| {
                                    update(&|s, _| s.decline());
                                    if let (Some(r), Some(s)) = (ready.get_untracked(), session.get_untracked()) {
                                        spawn_local(async move { let _ = r.db.delete_prefix(STUDY, &s.prefix()).await; });
                                    }
                                }>"I do not agree"</button>
                            </div>
                        </div>
                    }.into_any(),
                    Stage::Declined => view! {
                        <div class="phase-panel" data-testid="study-declined">
                            <h2 tabindex="-1" data-phase-focus="">"Thank you"</h2>
                            <p>{if s.attempt == 0 { "You chose not to take part. Nothing was recorded." } else { "You chose not to go on. Nothing of this attempt was recorded." }}</p>
                            <OutcomeNote code=r.study.outcome(Outcome::Declined).cloned() participant=s.participant.id.clone() />
                        </div>
                    }.into_any(),
                    Stage::Instructions => view! {
                        <div class="phase-panel">
                            <h2 tabindex="-1" data-phase-focus="">"Instructions"</h2>
                            {paragraphs(&r.study.instructions)}
                            <button type="button" class="button primary" data-testid="study-next" on:click=move |_| update(&|s, st| s.next(st.practice.is_some()))>
                                {if r.study.practice.is_some() { "Start the practice maze" } else { "Start" }}
                            </button>
                        </div>
                    }.into_any(),
                    Stage::Practice | Stage::Trial(_) => match s.current(&r.study) {
                        Some((index, spec, practice)) => view! {
                            <StudyTrialView
                                ready=r.clone()
                                session=s.clone()
                                index=index
                                spec=spec
                                practice=practice
                                on_finished=Callback::new(move |phases| update(&|s, st| s.finish_stair_trial(st, phases)))
                                on_next=Callback::new(move |_| update(&|s, st| s.next(st.practice.is_some())))
                            />
                        }.into_any(),
                        None => view! { <p class="notice error">"This trial is missing from the study."</p> }.into_any(),
                    },
                    Stage::Complete => view! { <Completion ready=r.clone() session=s.clone() outcome=Outcome::Completed /> }.into_any(),
                    Stage::TimedOut => view! { <Completion ready=r.clone() session=s.clone() outcome=Outcome::TimedOut /> }.into_any(),
                };
                view! {
                    <header class="study-head">
                        <h1>{title}</h1>
                        {(total > 0 && matches!(s.stage, Stage::Trial(_) | Stage::Complete)).then(|| view! {
                            <span class="pill" data-testid="study-progress">{format!("{done} of {total} mazes done")}</span>
                        })}
                    </header>
                    {body}
                }.into_any()
            }}
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

/// One trial of the study, saved after every action and restored after a reload.
#[component]
fn StudyTrialView(
    ready: Ready,
    session: StudySession,
    index: i64,
    spec: StudyTrial,
    practice: bool,
    on_finished: Callback<[bool; 3]>,
    on_next: Callback<()>,
) -> impl IntoView {
    let Ready { study, db } = ready;
    let key = format!("{}trial/{index}", session.prefix());
    let library = Arc::new(TemplateLibrary::of_set(spec.size, study.shape_set()));
    let maze = match generate_one(spec.shape, spec.sample, spec.seed, &library) {
        Ok(m) => m,
        Err(e) => {
            return view! { <p class="notice error">{format!("This maze cannot be made ({e}); please tell the researcher.")}</p> }.into_any()
        }
    };
    let setup = TrialSetup {
        lenient: study.lenient,
        symbols: study.symbols.for_encoding(spec.encoding),
        ..TrialSetup::new(spec.shape, spec.encoding, maze)
    };
    let fresh = Trial::new(setup, library);
    let trial = RwSignal::new(fresh.clone());
    let log = RwSignal::new(ActionLog::default());
    let started = RwSignal::new(now());
    let loaded = RwSignal::new(false);
    let title = study.title.clone();
    let participant = session.participant.clone();
    let consent = session.consent.clone();
    let (attempt, session_events) = (session.attempt, session.events.clone());
    let stair = usize::try_from(index)
        .ok()
        .and_then(|i| session.stair_step(i));
    let data = move || {
        let mut record = trial.with_untracked(|t| {
            TrialRecord::of(
                t,
                PlayerInfo::builtin(PlayerKind::Human),
                Placement {
                    seed: spec.seed,
                    sample: spec.sample,
                    repeat: 0,
                },
                Some(started.get_untracked()),
                (t.phase() == Phase::Done).then(now),
            )
        });
        record.staircase = stair;
        StudyTrialData {
            study: title.clone(),
            participant: participant.clone(),
            trial_index: index,
            practice,
            record,
            log: log.get_untracked(),
            window: window_size(),
            consent: consent.clone(),
            signals: log.with_untracked(ActionLog::signals),
            attempt,
            session_events: session_events.clone(),
        }
    };
    let persist = {
        let db = db.clone();
        let key = key.clone();
        let data = data.clone();
        move || {
            let (db, key, d) = (db.clone(), key.clone(), data());
            spawn_local(async move {
                let _ = db
                    .put(STUDY, &key, &serde_json::to_string(&d).unwrap_or_default())
                    .await;
            });
        }
    };
    // Restore a trial begun before a reload: replay its replies on a fresh trial.
    {
        let db = db.clone();
        let key = key.clone();
        let fresh = fresh.clone();
        let persist = persist.clone();
        spawn_local(async move {
            if let Some(d) = db
                .get(STUDY, &key)
                .await
                .ok()
                .flatten()
                .and_then(|t| serde_json::from_str::<StudyTrialData>(&t).ok())
            {
                let mut t = fresh.clone();
                for m in d
                    .record
                    .messages
                    .iter()
                    .filter(|m| m.role == Role::Assistant)
                {
                    t.submit(&m.content);
                }
                trial.set(t);
                if let Some(s) = d.record.started_ms {
                    started.set(s);
                }
                log.set(d.log);
                // A reload only when this page load has not shown the trial yet (the view
                // is drawn again when the study moves on, which is no reload).
                if SHOWN.with(|shown| shown.borrow_mut().insert(key.clone())) {
                    log.update(|l| {
                        l.push(
                            "reload",
                            trial.with_untracked(|t| t.phase().name()),
                            "",
                            now() - started.get_untracked(),
                        )
                    });
                }
            } else {
                SHOWN.with(|shown| shown.borrow_mut().insert(key.clone()));
                log.update(|l| l.push("start", "solve", window_size(), 0.0));
            }
            loaded.set(true);
            persist();
        });
    }
    let record_action = {
        let persist = persist.clone();
        move |kind: &'static str, detail: String| {
            let phase = trial.with_untracked(|t| t.phase().name());
            log.update(|l| l.push(kind, phase, detail, now() - started.get_untracked()));
            persist();
            if trial.with_untracked(|t| t.phase() == Phase::Done) {
                // The phases' successes move a staircase study's walk.
                on_finished.run(
                    trial.with_untracked(|t| t.verdicts().map(|v| v.is_some_and(|v| v.passed()))),
                );
            }
        }
    };
    let on_action = Callback::new({
        let record_action = record_action.clone();
        move |(kind, detail): (&'static str, String)| record_action(kind, detail)
    });
    let focus = window_event_listener(leptos::ev::focus, {
        let record_action = record_action.clone();
        move |_| record_action("focus", String::new())
    });
    let blur = window_event_listener(leptos::ev::blur, {
        let record_action = record_action.clone();
        move |_| record_action("blur", String::new())
    });
    // A paste anywhere on the page is a sign of help (flagged, never blocked).
    let paste = window_event_listener(leptos::ev::paste, {
        let record_action = record_action.clone();
        move |_| record_action("paste", String::new())
    });
    let resize = window_event_listener(leptos::ev::resize, move |_| {
        record_action("resize", window_size())
    });
    on_cleanup(move || {
        focus.remove();
        blur.remove();
        paste.remove();
        resize.remove();
    });
    let options = PlayOptions {
        recognition: study.recognition,
        condition: study.condition,
        on_action: Some(on_action),
    };
    let done = Memo::new(move |_| trial.with(|t| t.phase() == Phase::Done));
    // Once the trial is drawn the focus goes to it (the maze, or the current phase's
    // heading after a reload).
    Effect::new(move |_| {
        if loaded.get() {
            request_animation_frame(super::play::focus_phase);
        }
    });
    view! {
        <div class="trial study-trial">
            <div class="trial-main">
                {practice.then(|| view! { <p class="notice warn" data-testid="practice-note">"Practice maze: it is not scored."</p> })}
                {move || loaded.get().then(|| view! { <TrialPlay trial=trial options=options /> })}
                {move || done.get().then(|| view! {
                    <div class="phase-panel done">
                        <h2 tabindex="-1" data-phase-focus="">"Maze done"</h2>
                        <button type="button" class="button primary" data-testid="study-next" on:click=move |_| on_next.run(())>"Continue"</button>
                    </div>
                })}
            </div>
        </div>
    }
    .into_any()
}

/// Every stored trial of this participant, every attempt, in order.
async fn participant_data(db: &Db, session: &StudySession) -> Vec<StudyTrialData> {
    let mut out: Vec<StudyTrialData> = db
        .entries(STUDY, &session.participant_prefix())
        .await
        .unwrap_or_default()
        .into_iter()
        .filter(|(k, _)| k.contains("/trial/"))
        .filter_map(|(_, v)| serde_json::from_str(&v).ok())
        .collect();
    shapemaze_core::sort::sort_by_key(&mut out, |d| (d.attempt, d.trial_index));
    out
}

/// What a participant is given at the end: the outcome's completion code, a note that a
/// redirect follows, or (no code) that the researcher reviews by hand, with the id to quote.
#[component]
fn OutcomeNote(code: Option<Code>, participant: String) -> impl IntoView {
    if let Some(redirect) = code.as_ref().and_then(|c| c.redirect.clone()) {
        if let Some(w) = web_sys::window() {
            let _ = w.location().set_href(&redirect);
        }
        return view! {
            <p data-testid="completion-redirect">"Taking you back… If nothing happens, "
                <a href=redirect>"follow this link"</a>"."</p>
        }
        .into_any();
    }
    match code.and_then(|c| c.code) {
        Some(c) => view! {
            <p>"Your completion code: " <strong class="code" data-testid="completion-code">{c}</strong></p>
        }
        .into_any(),
        None => view! {
            <p data-testid="completion-none">"There is no completion code for this. The researcher reviews it by hand; if they ask, your participant id is "
                <strong>{participant}</strong>"."</p>
        }
        .into_any(),
    }
}

/// The last page: the data is uploaded (with retries); the code or the redirect follows
/// only once it is saved, and a failed upload leaves the data here to download.
#[component]
fn Completion(ready: Ready, session: StudySession, outcome: Outcome) -> impl IntoView {
    let saved = RwSignal::new(None::<bool>);
    let message = RwSignal::new(String::from("Saving your answers…"));
    let data = RwSignal::new(Vec::<StudyTrialData>::new());
    let study = ready.study.clone();
    {
        let (db, study, session) = (ready.db.clone(), study.clone(), session.clone());
        spawn_local(async move {
            let all = participant_data(&db, &session).await;
            data.set(all.clone());
            let Some(upload) = study.upload.clone() else {
                saved.set(Some(true));
                message.set("Your answers are saved in this browser.".into());
                return;
            };
            let body = upload_body(upload.kind, upload.experiment_id.as_deref(), &all);
            let mut wait = 1000u32;
            let mut last = String::new();
            for attempt in 1..=5 {
                message.set(format!("Saving your answers (attempt {attempt} of 5)…"));
                match post_json(&upload.url, &body).await {
                    Ok((status, _)) if (200..300).contains(&status) => {
                        saved.set(Some(true));
                        message.set("Your answers were saved.".into());
                        return;
                    }
                    Ok((status, _)) => last = format!("the server answered {status}"),
                    Err(e) => last = e,
                }
                if attempt < 5 {
                    gloo_sleep(wait).await;
                    wait = wait.saturating_mul(2);
                }
            }
            saved.set(Some(false));
            message.set(format!(
                "Your answers could not be sent ({last}). They are kept in this browser; please download them below and send the file to the researcher."
            ));
        });
    }
    let code = study.outcome(outcome).cloned();
    let participant = session.participant.id.clone();
    let pid = session.participant.id.clone();
    let download = move |_: leptos::ev::MouseEvent| {
        let text: String = data
            .get_untracked()
            .iter()
            .map(|d| serde_json::to_string(d).unwrap_or_default() + "\n")
            .collect();
        let _ = download_file(&format!("study-{pid}.jsonl"), &text, "application/x-ndjson");
    };
    view! {
        <div class="phase-panel" data-testid="study-complete"
            data-outcome=if outcome == Outcome::TimedOut { "timed_out" } else { "completed" }
            data-saved=move || match saved.get() { Some(true) => "true", Some(false) => "false", None => "" }>
            <h2 tabindex="-1" data-phase-focus="">{if outcome == Outcome::TimedOut { "Time is up" } else { "Thank you!" }}</h2>
            {(outcome == Outcome::TimedOut).then(|| view! { <p>"The time for this study has run out. Thank you for the mazes you did."</p> })}
            <p aria-live="polite">{move || message.get()}</p>
            {move || (saved.get() == Some(true)).then(|| view! { <OutcomeNote code=code.clone() participant=participant.clone() /> })}
            {move || {
                let download = download.clone();
                (saved.get() == Some(false)).then(move || view! {
                    <button type="button" class="button primary" data-testid="study-download" on:click=download>"Download my answers"</button>
                })
            }}
        </div>
    }
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

/// The experimenter's page: build a study and its link; export and import study data.
#[component]
pub fn StudyManagePage() -> impl IntoView {
    let text = RwSignal::new(EXAMPLE.to_string());
    let parsed = Memo::new(move |_| Study::from_json(&text.get()).map_err(|e| e.to_string()));
    let status = RwSignal::new(String::new());
    // The trials stored here, with their signs of help (drawn as a table below).
    let stored = RwSignal::new(String::new());
    let show_stored = move || {
        spawn_local(async move {
            if let Ok(db) = Db::open().await {
                let all = stored_trials(&db).await;
                let mut html = String::new();
                shapemaze_view::document::html::table(
                    &mut html,
                    &shapemaze_view::study::signals_table(&all),
                );
                stored.set(html);
            }
        });
    };
    show_stored();
    let export = move |csv: bool| {
        spawn_local(async move {
            let db = match Db::open().await {
                Ok(db) => db,
                Err(e) => return status.set(e.to_string()),
            };
            let all = stored_trials(&db).await;
            let result = if csv {
                download_file("study-data.csv", &events_csv(&all), "text/csv")
            } else {
                let lines: String = all
                    .iter()
                    .map(|d| serde_json::to_string(d).unwrap_or_default() + "\n")
                    .collect();
                download_file("study-data.jsonl", &lines, "application/x-ndjson")
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
                Err(e) => return status.set(e),
            };
            let (trials, bad) = read_study_data(&body);
            let entries: Vec<(String, String)> = trials
                .iter()
                .map(|d| {
                    (
                        format!(
                            "imported-{}/{}/trial/{}",
                            d.study,
                            d.participant_key(),
                            d.trial_index
                        ),
                        serde_json::to_string(d).unwrap_or_default(),
                    )
                })
                .collect();
            let saved = match Db::open().await {
                Ok(db) => db.put_all(STUDY, &entries).await.map(|_| entries.len()),
                Err(e) => Err(e),
            };
            show_stored();
            status.set(match saved {
                Ok(n) if bad.is_empty() => format!("Imported {n} trials from {name}."),
                Ok(n) => format!(
                    "Imported {n} trials from {name}; refused {} lines: {}",
                    bad.len(),
                    bad.join("; ")
                ),
                Err(e) => e.to_string(),
            });
        });
    };
    view! {
        <section class="manage">
            <style>{STUDY_CSS}</style>
            <h1>"Studies"</h1>
            <p class="lead">"Write the study as JSON (its fields are in docs/CONTRACT.md, under Study files), check it, and share its link. A study kept in public/studies/NAME.json is linked as /study?study=NAME."</p>
            <label class="field wide">
                <span>"Study (JSON)"</span>
                <textarea data-testid="study-json" rows="16" prop:value=move || text.get() on:input=move |ev| text.set(event_target_value(&ev))></textarea>
            </label>
            {move || match parsed.get() {
                Ok(s) => {
                    let link = crate::route::absolute_url(&format!("/study?config={}", s.to_config_param()));
                    view! {
                        <p class="notice" data-testid="study-link-box">"Link for participants (Prolific adds its parameters): "
                            <a data-testid="study-link" href=link.clone()>{link.clone()}</a></p>
                    }.into_any()
                }
                Err(e) => view! { <p class="notice error" data-testid="study-json-error">{e}</p> }.into_any(),
            }}
            <h2>"Data collected in this browser"</h2>
            <div class="row">
                <button type="button" class="button" data-testid="study-export-csv" on:click=move |_| export(true)>"Export CSV (one row per action)"</button>
                <button type="button" class="button" data-testid="study-export-jsonl" on:click=move |_| export(false)>"Export JSONL (one trial per line)"</button>
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

/// Every study trial stored in this browser (uploaded or imported).
async fn stored_trials(db: &Db) -> Vec<StudyTrialData> {
    db.entries(STUDY, "")
        .await
        .unwrap_or_default()
        .into_iter()
        .filter(|(k, _)| k.contains("/trial/"))
        .filter_map(|(_, v)| serde_json::from_str(&v).ok())
        .collect()
}

/// The study the builder starts from.
const EXAMPLE: &str = r#"{"title": "Shape mazes", "version": "1",
 "trials": [{"shape": "square", "seed": 1}, {"shape": "cross", "seed": 1}, {"shape": "spiral", "seed": 1},
            {"shape": "triangle", "seed": 1}, {"shape": "C", "seed": 1}, {"shape": "Z", "seed": 1}],
 "practice": {"shape": "square", "seed": 99, "sample": 0},
 "condition": "grid", "recognition": "free", "counterbalance": true,
 "completion": {"code": "ABC123"}, "declined": {"code": "NOCONSENT"},
 "resume": {"policy": "resume", "max_age_minutes": 120}}"#;
