//! A participant's study data in the browser, typed: the study's pages, the upload queue,
//! `/study/manage` and `/results` read and write sessions, trials, outcomes and upload
//! receipts through [`StudyStore`] only, by [`StudyKey`] (the one spelling of a stored key)
//! and the core's value types. It does the serde, and says what went wrong in a
//! [`StoreError`] a participant or a researcher can act on. No other file touches the
//! `study` object store.
//!
//! Sessions, trials and outcomes are kept as their JSON; a receipt ([`StudyKey::Sent`]) as
//! the bare hash of the copy the server acknowledged ([`content_hash`] of the stored
//! text), so a copy is acknowledged exactly as it is stored.

use crate::storage::{Db, StorageError, STUDY};
use serde::de::DeserializeOwned;
use serde::Serialize;
use shapemaze_core::json::{self, JsonError};
use shapemaze_core::study::{
    content_hash, pending, pending_outcomes, Attempt, KeyError, OutcomeRecord, Scope, StudyKey,
    StudySession, StudyTrialData, Who,
};
use std::fmt;

/// Why the study's storage failed, or what it holds could not be used.
#[derive(Clone, Debug, PartialEq)]
pub enum StoreError {
    /// The browser's storage failed (or there is none).
    Storage(StorageError),
    /// A value could not be written as JSON: nothing was saved at its key.
    Unwritable {
        /// Where it was to be saved.
        key: StudyKey,
        /// Why it cannot be written.
        why: JsonError,
    },
    /// A stored value does not read as what its key holds (it is left as it is).
    Unreadable {
        /// Where it is stored.
        key: StudyKey,
        /// Why it does not read.
        why: JsonError,
    },
    /// A stored key that is no study key (left as it is).
    Key(KeyError),
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoreError::Storage(e) => e.fmt(f),
            StoreError::Unwritable { key, why } => write!(
                f,
                "Could not save {} ({why}). What was saved before is kept; reload the page, and tell the researcher if it happens again.",
                key.what()
            ),
            StoreError::Unreadable { key, why } => write!(
                f,
                "The stored copy of {} cannot be read ({why}); it is left out, and kept as it is under '{key}'. Export this browser's study data on /study/manage for the researcher.",
                key.what()
            ),
            StoreError::Key(e) => write!(
                f,
                "{e}; it is left out, and kept as it is. Export this browser's study data on /study/manage for the researcher."
            ),
        }
    }
}

impl std::error::Error for StoreError {}

impl From<StorageError> for StoreError {
    fn from(e: StorageError) -> Self {
        StoreError::Storage(e)
    }
}

/// Writes each problem to the browser's console (what is left out of a listing, or a copy
/// that could not be read back, for whoever looks into a participant's browser).
pub fn warn(problems: &[StoreError]) {
    for p in problems {
        web_sys::console::warn_1(&format!("Shapemaze: {p}").into());
    }
}

/// Values read from a listing, and the stored copies that did not read.
#[derive(Clone, Debug)]
pub struct Read<T> {
    /// What read, in key order.
    pub values: Vec<T>,
    /// What did not ([`StoreError::Unreadable`], each naming its key).
    pub unreadable: Vec<StoreError>,
}

/// A trial or an outcome the server has not acknowledged as it is stored now.
#[derive(Clone, Debug)]
pub struct Pending<T> {
    /// Where it is stored.
    pub key: StudyKey,
    /// Its stored text (the receipt keeps this text's hash).
    pub text: String,
    /// It, read; or why it does not read.
    pub value: Result<T, StoreError>,
}

/// Everything stored under a scope, read at once: each key with its stored text.
#[derive(Clone, Debug)]
pub struct Listing {
    entries: Vec<(StudyKey, String)>,
}

impl Listing {
    /// Every stored trial.
    pub fn trials(&self) -> Read<StudyTrialData> {
        self.read(|k| matches!(k, StudyKey::Trial(..)))
    }

    /// Every stored outcome.
    pub fn outcomes(&self) -> Read<OutcomeRecord> {
        self.read(|k| matches!(k, StudyKey::Outcome(_)))
    }

    /// The trials the server has not acknowledged as they are stored now, in key order.
    pub fn pending_trials(&self) -> Vec<Pending<StudyTrialData>> {
        pending(&self.entries)
            .into_iter()
            .map(pending_one)
            .collect()
    }

    /// The outcomes the server has not acknowledged as they are stored now (a receipt
    /// under the old spelling, `{key}-sent`, counts).
    pub fn pending_outcomes(&self) -> Vec<Pending<OutcomeRecord>> {
        pending_outcomes(&self.entries)
            .into_iter()
            .map(pending_one)
            .collect()
    }

    fn read<T: DeserializeOwned>(&self, keep: fn(&StudyKey) -> bool) -> Read<T> {
        let mut out = Read {
            values: Vec::new(),
            unreadable: Vec::new(),
        };
        for (key, text) in self.entries.iter().filter(|(k, _)| keep(k)) {
            match value_of(key, text) {
                Ok(v) => out.values.push(v),
                Err(e) => out.unreadable.push(e),
            }
        }
        out
    }
}

fn pending_one<T: DeserializeOwned>((key, text): &(StudyKey, String)) -> Pending<T> {
    Pending {
        key: key.clone(),
        text: text.clone(),
        value: value_of(key, text),
    }
}

/// The value stored at `key` as `text`.
fn value_of<T: DeserializeOwned>(key: &StudyKey, text: &str) -> Result<T, StoreError> {
    json::from_str(text).map_err(|why| StoreError::Unreadable {
        key: key.clone(),
        why,
    })
}

/// The study's data in this browser.
#[derive(Clone, Debug)]
pub struct StudyStore {
    db: Db,
}

impl StudyStore {
    /// Opens the browser's database.
    pub async fn open() -> Result<StudyStore, StoreError> {
        Ok(StudyStore::over(Db::open().await?))
    }

    /// The study's data in a database already open.
    pub fn over(db: Db) -> StudyStore {
        StudyStore { db }
    }

    /// The participant's saved session, if any.
    pub async fn session(&self, who: &Who) -> Result<Option<StudySession>, StoreError> {
        self.get(&StudyKey::Session(who.clone())).await
    }

    /// Saves the session (one for every attempt).
    pub async fn put_session(&self, session: &StudySession) -> Result<(), StoreError> {
        self.put(&session.session_key(), session).await
    }

    /// Trial `index` of the attempt, if saved.
    pub async fn trial(
        &self,
        at: &Attempt,
        index: i64,
    ) -> Result<Option<StudyTrialData>, StoreError> {
        self.get(&StudyKey::Trial(at.clone(), index)).await
    }

    /// Saves a trial of the attempt (under its index).
    pub async fn put_trial(&self, at: &Attempt, trial: &StudyTrialData) -> Result<(), StoreError> {
        self.put(&StudyKey::Trial(at.clone(), trial.trial_index), trial)
            .await
    }

    /// Saves how the attempt ended.
    pub async fn put_outcome(
        &self,
        at: &Attempt,
        outcome: &OutcomeRecord,
    ) -> Result<(), StoreError> {
        self.put(&StudyKey::Outcome(at.clone()), outcome).await
    }

    /// Keeps the receipt of `sent`: the hash of its stored text the server acknowledged.
    pub async fn put_receipt<T>(&self, sent: &Pending<T>) -> Result<(), StoreError> {
        // Only a trial and an outcome are sent, and each has a receipt.
        let Some(receipt) = sent.key.sent() else {
            return Ok(());
        };
        let hash = content_hash(&sent.text);
        Ok(self.db.put(STUDY, &receipt.render(), &hash).await?)
    }

    /// Everything stored under `scope`, in key order. A key that is no study key is left
    /// out (and written to the console).
    pub async fn list(&self, scope: &Scope) -> Result<Listing, StoreError> {
        let mut entries = Vec::new();
        let mut unknown = Vec::new();
        for (key, text) in self.db.entries(STUDY, &scope.render()).await? {
            match StudyKey::parse(&key) {
                Ok(key) => entries.push((key, text)),
                Err(e) => unknown.push(StoreError::Key(e)),
            }
        }
        warn(&unknown);
        Ok(Listing { entries })
    }

    /// Every trial stored under `scope`.
    pub async fn trials(&self, scope: &Scope) -> Result<Read<StudyTrialData>, StoreError> {
        Ok(self.list(scope).await?.trials())
    }

    /// Deletes everything of the attempt (the first attempt's scope is the participant's:
    /// see [`Scope::Attempt`]).
    pub async fn delete_attempt(&self, at: &Attempt) -> Result<(), StoreError> {
        let scope = Scope::Attempt(at.clone());
        Ok(self.db.delete_prefix(STUDY, &scope.render()).await?)
    }

    /// Keeps trials and outcomes uploaded elsewhere, apart from the studies run here
    /// ([`Who::imported`]), all or none; returns how many trials.
    pub async fn import(
        &self,
        trials: &[StudyTrialData],
        outcomes: &[OutcomeRecord],
    ) -> Result<usize, StoreError> {
        let mut entries = trials
            .iter()
            .map(|d| {
                let who = Who::imported(&d.study, d.participant_key());
                let key = StudyKey::Trial(who.attempt(0), d.trial_index);
                let text = text_of(&key, d)?;
                Ok((key.render(), text))
            })
            .collect::<Result<Vec<_>, StoreError>>()?;
        for o in outcomes {
            let who = Who::imported(&o.study, o.participant_key());
            let key = StudyKey::Outcome(who.attempt(0));
            let text = text_of(&key, o)?;
            entries.push((key.render(), text));
        }
        self.db.put_all(STUDY, &entries).await?;
        Ok(trials.len())
    }

    async fn get<T: DeserializeOwned>(&self, key: &StudyKey) -> Result<Option<T>, StoreError> {
        match self.db.get(STUDY, &key.render()).await? {
            Some(text) => value_of(key, &text).map(Some),
            None => Ok(None),
        }
    }

    async fn put<T: Serialize>(&self, key: &StudyKey, value: &T) -> Result<(), StoreError> {
        let text = text_of(key, value)?;
        Ok(self.db.put(STUDY, &key.render(), &text).await?)
    }
}

/// `value` as the JSON stored at `key`; a value that cannot be written is an error, never
/// an empty text.
fn text_of<T: Serialize>(key: &StudyKey, value: &T) -> Result<String, StoreError> {
    json::to_string(value).map_err(|why| StoreError::Unwritable {
        key: key.clone(),
        why,
    })
}
