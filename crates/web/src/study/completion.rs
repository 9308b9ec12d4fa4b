//! The last page: the participant's outcome goes to the upload queue after their trials;
//! the completion code or redirect follows only once the server holds all of it. Until
//! then the page says how many trials wait and why, and offers the data to download.

use super::browser::download_trials;
use super::courier::Courier;
use super::page::Ready;
use super::store::{self, StudyStore};
use leptos::prelude::*;
use leptos::task::spawn_local;
use shapemaze_core::study::{
    waiting_message, Completion as Code, Outcome, OutcomeRecord, Scope, StudySession,
    StudyTrialData,
};

/// Every stored trial of this participant, every attempt, in order (what cannot be read
/// is left out, and written to the console).
async fn participant_data(store: &StudyStore, session: &StudySession) -> Vec<StudyTrialData> {
    let mut out = match store.trials(&Scope::Participant(session.who())).await {
        Ok(read) => {
            store::warn(&read.unreadable);
            read.values
        }
        Err(e) => {
            store::warn(&[e]);
            Vec::new()
        }
    };
    shapemaze_core::sort::sort_by_key(&mut out, |d| (d.attempt, d.trial_index));
    out
}

/// What a participant is given at the end: the outcome's completion code, a note that a
/// redirect follows, or (no code) that the researcher reviews by hand, with the id to quote.
#[component]
pub(super) fn OutcomeNote(code: Option<Code>, participant: String) -> impl IntoView {
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

/// The last page. With an upload, the outcome is queued after the trials and the code
/// shows once the server holds everything; without one, the data stays in this browser.
#[component]
pub(super) fn Completion(
    ready: Ready,
    session: StudySession,
    outcome: Outcome,
    courier: Option<Courier>,
) -> impl IntoView {
    let data = RwSignal::new(Vec::<StudyTrialData>::new());
    let state = courier.as_ref().map(|c| c.state);
    {
        let (store, study, session) = (ready.store.clone(), ready.study.clone(), session.clone());
        spawn_local(async move {
            let all = participant_data(&store, &session).await;
            data.set(all.clone());
            if let Some(c) = courier {
                let record = OutcomeRecord::of(&session, &study, outcome, &all);
                match store.put_outcome(&session.this_attempt(), &record).await {
                    Ok(()) => c.finish(),
                    Err(e) => {
                        let why = format!("Shapemaze could not save the study's outcome: {e}");
                        web_sys::console::error_1(&why.into());
                    }
                }
            }
        });
    }
    // Saved: `Some(true)` once the server holds everything (or, without an upload, at
    // once); `Some(false)` while it waits after a failure or offline.
    let saved = move || match state {
        None => Some(true),
        Some(s) => s.with(|s| {
            if s.all_sent {
                Some(true)
            } else if s.failures > 0 || !s.online {
                Some(false)
            } else {
                None
            }
        }),
    };
    let message = move || match state {
        None => "Your answers are saved in this browser.".to_string(),
        Some(s) => s.with(|s| match (s.all_sent, s.pending) {
            (true, _) => "Your answers were saved.".to_string(),
            (false, 0) => "Saving your answers…".to_string(),
            (false, n) => waiting_message(n, s.online, s.last_error.as_deref()),
        }),
    };
    let code = ready.study.outcome(outcome).cloned();
    let participant = session.participant.id.clone();
    let pid = session.participant.id.clone();
    let download = move |_: leptos::ev::MouseEvent| {
        let saved = download_trials(&format!("study-{pid}.jsonl"), &data.get_untracked());
        if let Err(e) = saved {
            let why = format!("Shapemaze could not save the study's answers as a file: {e}");
            web_sys::console::error_1(&why.into());
        }
    };
    let timed_out = outcome == Outcome::TimedOut;
    view! {
        <div class="phase-panel" data-testid="study-complete"
            data-outcome=if timed_out { "timed_out" } else { "completed" }
            data-saved=move || match saved() { Some(true) => "true", Some(false) => "false", None => "" }>
            <h2 tabindex="-1" data-phase-focus="">{if timed_out { "Time is up" } else { "Thank you!" }}</h2>
            {timed_out.then(|| view! { <p>"The time for this study has run out. Thank you for the mazes you did."</p> })}
            <p aria-live="polite" data-testid="study-upload-status"
                data-pending=move || state.map_or(0, |s| s.with(|s| s.pending))>{message}</p>
            {move || (saved() == Some(true)).then(|| view! { <OutcomeNote code=code.clone() participant=participant.clone() /> })}
            {move || {
                let download = download.clone();
                (saved() == Some(false)).then(move || view! {
                    <p>"If you cannot keep this page open, download your answers and send the file to the researcher; the completion code comes once they are saved."</p>
                    <button type="button" class="button" data-testid="study-download" on:click=download>"Download my answers"</button>
                })
            }}
        </div>
    }
}
