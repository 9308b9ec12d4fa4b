//! What the participant sees at each stage: consent (where a server-assigned order is
//! taken), the instructions, a trial, the end; with the progress and, while trials wait to
//! upload, how many.

use super::browser::now;
use super::completion::{Completion, OutcomeNote};
use super::page::{Page, Ready};
use super::store;
use super::trial::StudyTrialView;
use crate::fetch::post_json;
use leptos::prelude::*;
use leptos::task::spawn_local;
use shapemaze_core::study::{
    order_request, read_order_answer, waiting_message, OrderError, Outcome, Stage, Study,
    StudySession,
};
use std::fmt;

fn paragraphs(text: &str) -> impl IntoView {
    text.split("\n\n")
        .map(|p| p.trim().to_string())
        .filter(|p| !p.is_empty())
        .map(|p| view! { <p>{p}</p> })
        .collect_view()
}

/// The page for the session's stage, under the study's title.
pub(super) fn study_view(page: Page) -> AnyView {
    let (Some(r), Some(s)) = (page.ready.get(), page.session.get()) else {
        return (page.error.get().is_none())
            .then(|| view! { <p class="lead">"Loading the study…"</p> })
            .into_any();
    };
    let title = r.study.title.clone();
    if page.blocked.get() {
        return view! {
            <header class="study-head"><h1>{title}</h1></header>
            <div class="phase-panel" data-testid="study-blocked">
                <h2 tabindex="-1" data-phase-focus="">"This study cannot be continued"</h2>
                <p>"You began this study before, and it cannot be taken up again or started over. Your answers so far are kept in this browser; the researcher will tell you if they need them."</p>
                <OutcomeNote code=None participant=s.participant.id.clone() />
            </div>
        }
        .into_any();
    }
    let (done, total) = s.progress(&r.study);
    let in_trials = matches!(s.stage, Stage::Practice | Stage::Trial(_));
    let body = stage_body(page, &r, &s);
    view! {
        <header class="study-head">
            <h1>{title}</h1>
            {(total > 0 && matches!(s.stage, Stage::Trial(_) | Stage::Complete)).then(|| view! {
                <span class="pill" data-testid="study-progress">{format!("{done} of {total} mazes done")}</span>
            })}
            {in_trials.then(|| view! { <UploadWaiting page=page /> })}
        </header>
        {body}
    }
    .into_any()
}

/// While the study runs: how many finished trials wait to upload, once a try has failed or
/// the browser is offline (nothing while uploads go through).
#[component]
fn UploadWaiting(page: Page) -> impl IntoView {
    move || {
        let state = page.courier.get().map(|c| c.state.get())?;
        let waiting = state.pending > 0 && (state.failures > 0 || !state.online);
        waiting.then(|| {
            view! {
                <p class="notice warn" role="status" data-testid="study-upload-waiting" data-pending=state.pending>
                    {waiting_message(state.pending, state.online, state.last_error.as_deref())}
                </p>
            }
        })
    }
}

fn stage_body(page: Page, r: &Ready, s: &StudySession) -> AnyView {
    let courier = page.courier.get_untracked();
    let completion = |outcome| {
        view! { <Completion ready=r.clone() session=s.clone() outcome=outcome courier=courier.clone() /> }
            .into_any()
    };
    match s.stage {
        Stage::Consent => view! { <ConsentPanel page=page study=r.study.clone() /> }.into_any(),
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
                <button type="button" class="button primary" data-testid="study-next" on:click=move |_| page.update(|s, st| s.next(st.practice.is_some()))>
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
                    courier=courier.clone()
                    on_finished=Callback::new(move |phases| page.update(|s, st| s.finish_stair_trial(st, phases)))
                    on_next=Callback::new(move |_| page.update(|s, st| s.next(st.practice.is_some())))
                />
            }.into_any(),
            None => view! { <p class="notice error">"This trial is missing from the study."</p> }.into_any(),
        },
        Stage::Complete => completion(Outcome::Completed),
        Stage::TimedOut => completion(Outcome::TimedOut),
    }
}

/// Why no order came from the server (the id's hash stays).
#[derive(Clone, Debug)]
enum NoOrder {
    /// No answer came (why, from the fetch).
    Unreachable(String),
    /// The answer gives no order.
    Answer(OrderError),
}

impl fmt::Display for NoOrder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NoOrder::Unreachable(why) => f.write_str(why),
            NoOrder::Answer(e) => e.fmt(f),
        }
    }
}

/// The counterbalancing order `shapemaze serve` gives this participant, asked at consent
/// (so a link opened and closed uses up no order): `Ok` with the order and what to log,
/// or `Err` with why the id's hash stays.
async fn server_order(study: &Study, s: &StudySession) -> Result<(u64, String), NoOrder> {
    let body = order_request(&s.study, study, &s.participant.id);
    let (status, text) = post_json(&crate::route::href("/api/study-order"), &body)
        .await
        .map_err(|e| NoOrder::Unreachable(e.to_string()))?;
    let k = read_order_answer(status, &text, study).map_err(NoOrder::Answer)?;
    Ok((k, format!("order {k} from the server")))
}

/// The consent page. With server assignment, agreeing first takes the least used order
/// from the server (or keeps the id's hash when it does not answer).
#[component]
fn ConsentPanel(page: Page, study: Study) -> impl IntoView {
    let asking = RwSignal::new(false);
    let from_server = study.orders_from_server(page.order_in_link);
    let accept = move |_| {
        if !from_server {
            return page.update(|s, st| s.accept(st, now()));
        }
        let (Some(r), Some(s)) = (page.ready.get_untracked(), page.session.get_untracked()) else {
            return;
        };
        asking.set(true);
        spawn_local(async move {
            let answer = server_order(&r.study, &s).await;
            page.update(|s, st| {
                match &answer {
                    Ok((k, detail)) => s.assign_order(st, *k, now(), detail),
                    Err(e) => s.order_fallback(st, now(), &e.to_string()),
                }
                s.accept(st, now());
            });
            asking.set(false);
        });
    };
    let decline = move |_| {
        page.update(|s, _| s.decline());
        if let (Some(r), Some(s)) = (page.ready.get_untracked(), page.session.get_untracked()) {
            spawn_local(async move {
                if let Err(e) = r.store.delete_attempt(&s.this_attempt()).await {
                    store::warn(&[e]);
                }
            });
        }
    };
    view! {
        <div class="phase-panel">
            <h2 tabindex="-1" data-phase-focus="">"Consent"</h2>
            {paragraphs(&study.consent)}
            <div class="row">
                <button type="button" class="button primary" data-testid="consent-accept" prop:disabled=move || asking.get() on:click=accept>"I agree"</button>
                <button type="button" class="button" data-testid="consent-decline" prop:disabled=move || asking.get() on:click=decline>"I do not agree"</button>
            </div>
        </div>
    }
}
