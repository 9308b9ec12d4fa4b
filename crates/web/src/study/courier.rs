//! The browser's side of study data that never goes missing ([`shapemaze_core::study`]'s
//! `delivery`): each finished trial is uploaded as it ends; what the server has not
//! acknowledged stays in IndexedDB beside the trial and is sent again on a back-off, as
//! soon as the browser is back online, and on the next page load. The participant's
//! outcome goes last; the completion code follows only once nothing is pending.

use super::browser::gloo_sleep;
use super::store::{StoreError, StudyStore};
use crate::fetch::post_json;
use leptos::prelude::*;
use leptos::task::spawn_local;
use shapemaze_core::json::JsonError;
use shapemaze_core::study::{
    acknowledged, refusal, retry_delay_ms, upload_body, Parcel, Scope, Upload, Who,
};
use std::fmt;

/// Where the participant's data stands, for the page.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Delivery {
    /// Trials not yet acknowledged by the server.
    pub pending: usize,
    /// Failed tries in a row.
    pub failures: u32,
    /// Why the last try failed.
    pub last_error: Option<String>,
    /// Whether the browser says it is online.
    pub online: bool,
    /// Whether everything of the participant, the outcome included, is on the server.
    pub all_sent: bool,
}

/// Why a pass over the queue stopped (it tries again on a back-off).
#[derive(Clone, Debug)]
enum SendError {
    /// The browser's storage failed.
    Store(StoreError),
    /// The upload's body could not be written (the trials stay kept and unsent).
    Body(JsonError),
    /// No answer came (why, from the fetch).
    Unreachable(String),
    /// The server answered, but not with an acknowledgement (what it said).
    Refused(String),
}

impl fmt::Display for SendError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SendError::Store(e) => e.fmt(f),
            SendError::Body(e) => write!(f, "the upload could not be written: {e}"),
            SendError::Unreachable(why) | SendError::Refused(why) => f.write_str(why),
        }
    }
}

impl From<StoreError> for SendError {
    fn from(e: StoreError) -> Self {
        SendError::Store(e)
    }
}

/// One participant's upload queue.
#[derive(Clone)]
pub struct Courier {
    store: StudyStore,
    upload: Upload,
    /// Whose data (every attempt).
    who: Who,
    /// Where things stand (the page draws from it).
    pub state: RwSignal<Delivery>,
    /// Whether a drain runs now (one at a time).
    running: RwSignal<bool>,
    /// Set to cut a back-off short (back online, or a new trial to send).
    wake: RwSignal<bool>,
    /// Whether the participant's study is over: every trial goes, finished or not, then
    /// the outcome.
    finished: RwSignal<bool>,
}

/// Whether the browser says it is online (`navigator.onLine`; true when it cannot say).
fn online() -> bool {
    let get = |v: &wasm_bindgen::JsValue, k: &str| js_sys::Reflect::get(v, &k.into()).ok();
    web_sys::window()
        .and_then(|w| get(&w, "navigator"))
        .and_then(|n| get(&n, "onLine"))
        .and_then(|v| v.as_bool())
        .unwrap_or(true)
}

impl Courier {
    /// The queue of participant `who`, sending to `upload`; it drains now (what an earlier
    /// visit left) and whenever the browser comes back online.
    pub fn new(store: StudyStore, upload: Upload, who: Who) -> Courier {
        let courier = Courier {
            store,
            upload,
            who,
            state: RwSignal::new(Delivery {
                online: online(),
                ..Delivery::default()
            }),
            running: RwSignal::new(false),
            wake: RwSignal::new(false),
            finished: RwSignal::new(false),
        };
        let on_line = courier.clone();
        let listener = window_event_listener(leptos::ev::online, move |_| on_line.kick());
        let off_line = courier.clone();
        let offline = window_event_listener(leptos::ev::offline, move |_| {
            off_line.state.try_update(|s| s.online = false);
        });
        on_cleanup(move || {
            listener.remove();
            offline.remove();
        });
        courier.kick();
        courier
    }

    /// The study is over: everything goes, then the outcome (stored before this call).
    pub fn finish(&self) {
        self.finished.set(true);
        self.kick();
    }

    /// Sends what is pending now, and keeps trying until nothing is.
    pub fn kick(&self) {
        self.state.try_update(|s| s.online = online());
        if self.running.get_untracked() {
            self.wake.set(true);
            return;
        }
        self.running.set(true);
        let me = self.clone();
        spawn_local(async move {
            // The page may go (its signals with it): the loop then ends quietly.
            while me.wake.try_set(false).is_none() {
                let result = me.send_pending().await;
                let Some(failures) = me.state.try_with_untracked(|s| s.failures) else {
                    return;
                };
                match result {
                    // A trial saved during the pass goes in another.
                    Ok(()) if me.wake.try_get_untracked() == Some(true) => continue,
                    Ok(()) => break,
                    Err(e) => {
                        me.state.try_update(|s| {
                            s.failures += 1;
                            s.last_error = Some(e.to_string());
                            s.online = online();
                        });
                    }
                }
                // Wait out the back-off, cut short by `online` or a new trial.
                let mut left = retry_delay_ms(failures);
                while left > 0 && me.wake.try_get_untracked() == Some(false) {
                    gloo_sleep(left.min(250)).await;
                    left = left.saturating_sub(250);
                }
            }
            me.running.try_set(false);
        });
    }

    /// One pass over the queue: every pending trial (only finished ones while the study
    /// runs), then the outcome once the study is over. `Ok` when nothing is left.
    async fn send_pending(&self) -> Result<(), SendError> {
        let listing = self
            .store
            .list(&Scope::Participant(self.who.clone()))
            .await?;
        let finished = self.finished.try_get_untracked().unwrap_or(false);
        let todo: Vec<_> = listing
            .pending_trials()
            .into_iter()
            .filter(|p| finished || p.value.as_ref().is_ok_and(|d| d.finished()))
            .collect();
        let outcomes = if finished {
            listing.pending_outcomes()
        } else {
            Vec::new()
        };
        // The trials waiting (the outcome, small and last, is not counted).
        let mut left = todo.len();
        self.state.try_update(|s| s.pending = left);
        for sent in &todo {
            // A copy that does not read stays as it is (the export still has it).
            let Ok(trial) = &sent.value else {
                continue;
            };
            let body = self.body(Parcel::Trials(std::slice::from_ref(trial)))?;
            self.send(&body).await?;
            self.store.put_receipt(sent).await?;
            left -= 1;
            self.state.try_update(|s| s.pending = left);
        }
        for sent in &outcomes {
            // An outcome that does not read is not sent, and not asked for again.
            if let Ok(record) = &sent.value {
                self.send(&self.body(Parcel::Outcome(record))?).await?;
            }
            self.store.put_receipt(sent).await?;
        }
        self.state.try_update(|s| {
            s.pending = 0;
            s.failures = 0;
            s.last_error = None;
            s.all_sent = finished;
        });
        Ok(())
    }

    /// The upload's body; a body that cannot be written is an error (the trials stay kept
    /// and unsent), never an empty upload.
    fn body(&self, parcel: Parcel) -> Result<String, SendError> {
        upload_body(
            self.upload.kind,
            self.upload.experiment_id.as_deref(),
            parcel,
        )
        .map_err(SendError::Body)
    }

    /// Posts one body; `Ok` only on an acknowledgement.
    async fn send(&self, body: &str) -> Result<(), SendError> {
        let (status, text) = post_json(&self.upload.url, body)
            .await
            .map_err(|e| SendError::Unreachable(e.to_string()))?;
        if acknowledged(self.upload.kind, status, &text) {
            Ok(())
        } else {
            Err(SendError::Refused(refusal(status, &text)))
        }
    }
}
