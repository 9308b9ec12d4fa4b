//! The browser's side of study data that never goes missing ([`shapemaze_core::study`]'s
//! `delivery`): each finished trial is uploaded as it ends; what the server has not
//! acknowledged stays in IndexedDB beside the trial and is sent again on a back-off, as
//! soon as the browser is back online, and on the next page load. The participant's
//! outcome goes last; the completion code follows only once nothing is pending.

use super::gloo_sleep;
use crate::fetch::post_json;
use crate::storage::{Db, STUDY};
use leptos::prelude::*;
use leptos::task::spawn_local;
use shapemaze_core::study::{
    acknowledged, content_hash, outcome_key, pending, refusal, retry_delay_ms, sent_key,
    upload_body, Parcel, StudyTrialData, Upload,
};

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

/// One participant's upload queue.
#[derive(Clone)]
pub struct Courier {
    db: Db,
    upload: Upload,
    /// The participant's storage prefix (every attempt).
    prefix: String,
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
    /// The queue of the participant stored under `prefix`, sending to `upload`; it drains
    /// now (what an earlier visit left) and whenever the browser comes back online.
    pub fn new(db: Db, upload: Upload, prefix: String) -> Courier {
        let courier = Courier {
            db,
            upload,
            prefix,
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
                            s.last_error = Some(e);
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
    async fn send_pending(&self) -> Result<(), String> {
        let entries = self
            .db
            .entries(STUDY, &self.prefix)
            .await
            .map_err(|e| e.to_string())?;
        let finished = self.finished.try_get_untracked().unwrap_or(false);
        let todo: Vec<(String, String)> = pending(&entries)
            .into_iter()
            .filter(|(_, v)| {
                finished || serde_json::from_str::<StudyTrialData>(v).is_ok_and(|d| d.finished())
            })
            .cloned()
            .collect();
        let outcomes: Vec<(String, String)> = entries
            .iter()
            .filter(|(k, v)| {
                finished && k.ends_with("/outcome") && !acked(&entries, &format!("{k}-sent"), v)
            })
            .cloned()
            .collect();
        // The trials waiting (the outcome, small and last, is not counted).
        let mut left = todo.len();
        self.state.try_update(|s| s.pending = left);
        for (key, json) in &todo {
            let Ok(trial) = serde_json::from_str::<StudyTrialData>(json) else {
                continue;
            };
            let body = self.body(Parcel::Trials(std::slice::from_ref(&trial)))?;
            self.send(&body).await?;
            if let Some(sent) = sent_key(key) {
                self.mark(&sent, json).await?;
            }
            left -= 1;
            self.state.try_update(|s| s.pending = left);
        }
        for (key, json) in outcomes {
            if let Ok(record) = serde_json::from_str(&json) {
                self.send(&self.body(Parcel::Outcome(&record))?).await?;
            }
            self.mark(&format!("{key}-sent"), &json).await?;
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
    fn body(&self, parcel: Parcel) -> Result<String, String> {
        upload_body(
            self.upload.kind,
            self.upload.experiment_id.as_deref(),
            parcel,
        )
        .map_err(|e| format!("the upload could not be written: {e}"))
    }

    /// Posts one body; `Ok` only on a 2xx answer.
    async fn send(&self, body: &str) -> Result<(), String> {
        let (status, text) = post_json(&self.upload.url, body).await?;
        if acknowledged(self.upload.kind, status, &text) {
            Ok(())
        } else {
            Err(refusal(status, &text))
        }
    }

    /// Keeps the hash of the copy the server acknowledged.
    async fn mark(&self, key: &str, json: &str) -> Result<(), String> {
        self.db
            .put(STUDY, key, &content_hash(json))
            .await
            .map_err(|e| e.to_string())
    }
}

/// Whether `entries` hold, at `key`, the hash of `json`.
fn acked(entries: &[(String, String)], key: &str, json: &str) -> bool {
    entries
        .iter()
        .any(|(k, h)| k == key && *h == content_hash(json))
}

/// Stores the participant's outcome record (under the attempt's `prefix`) for the courier.
pub async fn store_outcome(db: &Db, prefix: &str, json: &str) -> Result<(), String> {
    db.put(STUDY, &outcome_key(prefix), json)
        .await
        .map_err(|e| e.to_string())
}
