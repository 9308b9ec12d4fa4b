//! The study page's state, shared by the stages' views: the loaded study and its store,
//! the participant's session (saved after every step), the upload queue.

use super::courier::Courier;
use super::store::StudyStore;
use leptos::prelude::*;
use leptos::task::spawn_local;
use shapemaze_core::study::{Study, StudySession};

/// A loaded study and the store of its data.
#[derive(Clone)]
pub(super) struct Ready {
    pub(super) study: Study,
    pub(super) store: StudyStore,
}

/// The page's state, shared with the stages' views.
#[derive(Clone, Copy)]
pub(super) struct Page {
    pub(super) error: RwSignal<Option<String>>,
    pub(super) ready: RwSignal<Option<Ready>>,
    pub(super) session: RwSignal<Option<StudySession>>,
    /// The participant's upload queue (none when the study uploads nowhere).
    pub(super) courier: RwSignal<Option<Courier>>,
    /// The study's resume policy turned this visit away.
    pub(super) blocked: RwSignal<bool>,
    /// The link gives the counterbalancing order itself (`order=`).
    pub(super) order_in_link: bool,
}

impl Page {
    /// Saves the session; a failure is shown.
    fn save(self, s: StudySession) {
        if let Some(r) = self.ready.get_untracked() {
            spawn_local(async move {
                if let Err(e) = r.store.put_session(&s).await {
                    self.error.set(Some(e.to_string()));
                }
            });
        }
    }

    /// Changes the session by `f`, then saves it before anything else happens on the page.
    pub(super) fn update(self, f: impl Fn(&mut StudySession, &Study)) {
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
