//! One trial of the study: every action timed and saved as it happens, restored after a
//! reload, and handed to the upload queue once it ends.

use super::browser::{now, window_size};
use super::courier::Courier;
use super::page::Ready;
use super::store::{self, StudyStore};
use crate::play::{PlayOptions, TrialPlay};
use leptos::prelude::*;
use leptos::task::spawn_local;
use shapemaze_core::maze::generate::generate_one;
use shapemaze_core::maze::shape::Shape;
use shapemaze_core::maze::templates::TemplateLibrary;
use shapemaze_core::play::condition::Condition;
use shapemaze_core::play::phase::Phase;
use shapemaze_core::play::player::PlayerKind;
use shapemaze_core::play::staircase::StairStep;
use shapemaze_core::play::transcript::Role;
use shapemaze_core::play::trial::{Trial, TrialSetup};
use shapemaze_core::results::record::{Placement, PlayerInfo, TrialRecord};
use shapemaze_core::study::{
    ActionLog, Attempt, StudyKey, StudySession, StudyTrial, StudyTrialData,
};
use std::sync::Arc;

thread_local! {
    /// The trials this page load has shown: finding one stored that is not here means the
    /// page was reloaded during it.
    static SHOWN: std::cell::RefCell<std::collections::HashSet<StudyKey>> =
        std::cell::RefCell::new(std::collections::HashSet::new());
}

/// What a trial's data says besides the play itself: who, where in the study, what was
/// consented to.
#[derive(Clone)]
struct Meta {
    title: String,
    session: StudySession,
    planned: usize,
    index: i64,
    practice: bool,
    spec: StudyTrial,
    stair: Option<StairStep>,
    /// How the study shows its mazes (kept in every record, so that pairing with models
    /// knows it).
    condition: Condition,
}

/// The trial's live state.
#[derive(Clone, Copy)]
struct Live {
    trial: RwSignal<Trial>,
    log: RwSignal<ActionLog>,
    started: RwSignal<f64>,
}

impl Meta {
    /// The trial's data now.
    fn data(&self, live: Live) -> StudyTrialData {
        let Live {
            trial,
            log,
            started,
        } = live;
        let mut record = trial.with_untracked(|t| {
            TrialRecord::of(
                t,
                PlayerInfo::builtin(PlayerKind::Human),
                Placement {
                    seed: self.spec.seed,
                    sample: self.spec.sample,
                    repeat: 0,
                },
                Some(started.get_untracked()),
                (t.phase() == Phase::Done).then(now),
            )
        });
        record.staircase = self.stair;
        record.condition = Some(self.condition);
        // The study names no shape before the recognition answer (the pill, headings and
        // every accessible name leave it out).
        record.shape_shown_before_answer = Some(false);
        let s = &self.session;
        StudyTrialData {
            study: self.title.clone(),
            participant: s.participant.clone(),
            trial_index: self.index,
            practice: self.practice,
            record,
            log: log.get_untracked(),
            window: window_size(),
            consent: s.consent.clone(),
            signals: log.with_untracked(ActionLog::signals),
            attempt: s.attempt,
            session_events: s.events.clone(),
            planned: Some(self.planned),
        }
    }
}

/// Replays trial `index` of attempt `at` saved before a reload on a fresh one; logs the
/// reload (once per page load) or, for a new trial, its start (a saved copy that cannot be
/// read back is taken as none, and why goes to the console). False when the trial's view
/// was gone before its saved copy was read (nothing is restored then).
async fn restore(store: &StudyStore, at: &Attempt, index: i64, fresh: &Trial, live: Live) -> bool {
    let Live {
        trial,
        log,
        started,
    } = live;
    let saved = store.trial(at, index).await.unwrap_or_else(|e| {
        store::warn(&[e]);
        None
    });
    let key = StudyKey::Trial(at.clone(), index);
    // The study moved on (or the page was left) while the trial was read: nothing to show.
    if trial.try_with_untracked(|_| ()).is_none() {
        return false;
    }
    let Some(d) = saved else {
        SHOWN.with(|shown| shown.borrow_mut().insert(key));
        log.update(|l| l.push("start", "solve", window_size(), 0.0));
        return true;
    };
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
    // A reload only when this page load has not shown the trial yet (the view is drawn
    // again when the study moves on, which is no reload).
    if SHOWN.with(|shown| shown.borrow_mut().insert(key)) {
        let phase = trial.with_untracked(|t| t.phase().name());
        let at = now() - started.get_untracked();
        log.update(|l| l.push("reload", phase, "", at));
    }
    true
}

/// Logs focus, blur, pastes (a sign of help, flagged, never blocked) and resizes while the
/// trial is shown.
fn listen<R: Fn(&'static str, String) + Clone + 'static>(record: R) {
    fn on<E, R: Fn(&'static str, String)>(record: R, kind: &'static str) -> impl Fn(E) {
        move |_| record(kind, String::new())
    }
    let focus = window_event_listener(leptos::ev::focus, on(record.clone(), "focus"));
    let blur = window_event_listener(leptos::ev::blur, on(record.clone(), "blur"));
    let paste = window_event_listener(leptos::ev::paste, on(record.clone(), "paste"));
    let resize =
        window_event_listener(leptos::ev::resize, move |_| record("resize", window_size()));
    on_cleanup(move || {
        focus.remove();
        blur.remove();
        paste.remove();
        resize.remove();
    });
}

/// One trial of the study, saved after every action and restored after a reload; once it
/// ends it goes to `courier`'s queue.
#[component]
pub(super) fn StudyTrialView(
    ready: Ready,
    session: StudySession,
    index: i64,
    spec: StudyTrial,
    practice: bool,
    courier: Option<Courier>,
    on_finished: Callback<[bool; 3]>,
    on_next: Callback<()>,
) -> impl IntoView {
    let Ready { study, store } = ready;
    let at = session.this_attempt();
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
    let live = Live {
        trial: RwSignal::new(fresh.clone()),
        log: RwSignal::new(ActionLog::new()),
        started: RwSignal::new(now()),
    };
    let trial = live.trial;
    let loaded = RwSignal::new(false);
    let meta = Meta {
        title: study.title.clone(),
        planned: session.planned(&study),
        session: session.clone(),
        index,
        practice,
        spec,
        stair: usize::try_from(index)
            .ok()
            .and_then(|i| session.stair_step(i)),
        condition: session.condition(&study),
    };
    // Every change is saved; a finished trial then goes to the upload queue.
    let persist = {
        let (store, at) = (store.clone(), at.clone());
        move || {
            let (store, at, d) = (store.clone(), at.clone(), meta.data(live));
            let courier = courier.clone();
            spawn_local(async move {
                // A trial that cannot be written keeps its last saved copy, never an empty one.
                match store.put_trial(&at, &d).await {
                    Ok(()) if d.finished() => {
                        if let Some(c) = courier {
                            c.kick();
                        }
                    }
                    Ok(()) => {}
                    Err(e) => {
                        let why = format!("Shapemaze could not save a study trial: {e}");
                        web_sys::console::error_1(&why.into());
                    }
                }
            });
        }
    };
    // What happened before the saved trial was read back (a focus, a resize): logged
    // after it, so the restored log keeps it and the saved trial is never overwritten by
    // the fresh one. Each with its time.
    let early = StoredValue::new(Vec::<(&'static str, String, f64)>::new());
    {
        let persist = persist.clone();
        spawn_local(async move {
            if !restore(&store, &at, index, &fresh, live).await {
                return;
            }
            let phase = trial.with_untracked(|t| t.phase().name());
            let started = live.started.get_untracked();
            for (kind, detail, when) in early.get_value() {
                live.log
                    .update(|l| l.push(kind, phase, detail, when - started));
            }
            loaded.set(true);
            persist();
        });
    }
    // An action in `phase` (`None`: the phase the trial is in now, for the window's events).
    let record_in = move |phase: Option<Phase>, kind: &'static str, detail: String| {
        if !loaded.get_untracked() {
            early.update_value(|e| e.push((kind, detail, now())));
            return;
        }
        let phase = phase
            .unwrap_or_else(|| trial.with_untracked(|t| t.phase()))
            .name();
        let at = now() - live.started.get_untracked();
        live.log.update(|l| l.push(kind, phase, detail, at));
        persist();
        if trial.with_untracked(|t| t.phase() == Phase::Done) {
            // The phases' successes move a staircase study's walk.
            on_finished
                .run(trial.with_untracked(|t| t.verdicts().map(|v| v.is_some_and(|v| v.passed()))));
        }
    };
    let on_action = Callback::new({
        let record_in = record_in.clone();
        move |(phase, kind, detail): (Phase, &'static str, String)| {
            record_in(Some(phase), kind, detail)
        }
    });
    listen(move |kind, detail| record_in(None, kind, detail));
    let participant = session.participant.clone();
    let options = PlayOptions {
        recognition: study.recognition,
        condition: session.condition(&study),
        on_action: Some(on_action),
        name_shape: false,
        choice_order: Some(Callback::new(move |shapes: Vec<Shape>| {
            participant.choice_order(&shapes)
        })),
    };
    let done = Memo::new(move |_| trial.with(|t| t.phase() == Phase::Done));
    // Once the trial is drawn the focus goes to it (the maze, or the current phase's
    // heading after a reload).
    Effect::new(move |_| {
        if loaded.get() {
            request_animation_frame(crate::play::focus_phase);
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
