//! Study uploads in SQLite: one row per participant-trial, keyed by (study, participant,
//! trial index) as [`StudyTrialData::key`] is, holding the trial's JSON as received and
//! when it arrived.
//!
//! A participant's page uploads again after every trial and retries on failure, so the
//! same trial arrives many times, at different stages. A row is only ever replaced by a
//! *fuller* copy of the same trial ([`Fullness`]: finished first, then more actions, then
//! more messages); an equal or lesser copy leaves it as it is. Each upload is one
//! transaction, committed (WAL, `synchronous=FULL`) before the server answers 200.
//!
//! The participant's outcome (`completed` with its code, or `timed_out`) comes last, one
//! row per participant; the reconcile CSV sets it against the trials held.
//!
//! An upload is read by serde into its typed body, the page's [`study::UploadJson`] part by
//! part ([`parse_upload`]): each trial and the outcome is kept as the JSON received (the
//! text stored) beside its typed reading, and a body that is not an upload is refused with
//! an [`UploadError`] that names what is wrong.

use rusqlite::{params, Connection, OptionalExtension};
use serde::de::{DeserializeOwned, IgnoredAny};
use serde::{Deserialize, Deserializer};
use shapemaze_core::json::JsonError;
use shapemaze_core::study::reconcile::{reconcile, reconcile_csv};
use shapemaze_core::study::{self, OutcomeRecord, StudyTrialData};
use std::fmt;
use std::path::{Path, PathBuf};

/// The upload body's `format`.
pub use shapemaze_core::study::UPLOAD_FORMAT;

/// How much of a trial a copy holds; copies of one trial are ordered by this.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Fullness {
    /// Whether the trial had ended (its end time or its generation verdict is set).
    pub finished: bool,
    /// Actions logged.
    pub actions: usize,
    /// Messages in the record.
    pub messages: usize,
}

impl Fullness {
    /// How full `trial` is.
    pub fn of(trial: &StudyTrialData) -> Fullness {
        Fullness {
            finished: trial.finished(),
            actions: trial.log.actions.len(),
            messages: trial.record.messages.len(),
        }
    }
}

/// One trial of an upload: parsed (for its key and fullness) and as received.
#[derive(Clone, Debug)]
pub struct Incoming {
    /// The trial, parsed.
    pub trial: StudyTrialData,
    /// The trial's JSON as received (unknown fields kept).
    pub json: String,
}

/// An upload, parsed: its trials (one, as each ends) and, last, the participant's outcome.
#[derive(Clone, Debug, Default)]
pub struct Parsed {
    /// The trials.
    pub trials: Vec<Incoming>,
    /// The participant's outcome, and its JSON as received.
    pub outcome: Option<(OutcomeRecord, String)>,
}

/// Why an upload body is refused, for whoever set up the study's upload.
#[derive(Debug)]
pub enum UploadError {
    /// The body is not JSON.
    NotJson(serde_json::Error),
    /// The body is JSON but no object.
    NotObject,
    /// A DataPipe body (`experimentID`), sent here by a study set to upload to DataPipe.
    DataPipe,
    /// `format` is missing, or not a string.
    NoFormat,
    /// `format` names another format.
    OtherFormat(String),
    /// `outcome` is not a participant's outcome.
    Outcome(JsonError),
    /// `outcome` names no participant.
    OutcomeWithoutParticipant,
    /// `trials` is missing (with no outcome), or not a list.
    NoTrials,
    /// `trials` is empty and there is no outcome.
    Nothing,
    /// Trial `i` of `trials` is not a study trial.
    Trial(usize, JsonError),
    /// Trial `i` of `trials` names no participant.
    TrialWithoutParticipant(usize),
}

impl fmt::Display for UploadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UploadError::NotJson(e) => write!(
                f,
                "the body is not JSON ({e}); send the study's plain JSON upload"
            ),
            UploadError::NotObject => {
                f.write_str("the body must be a JSON object with \"format\" and \"trials\"")
            }
            UploadError::DataPipe => f.write_str(
                "this is a DataPipe body; set the study's upload kind to \"json\" to send to this server",
            ),
            UploadError::NoFormat => write!(
                f,
                "\"format\" is missing or not a string; expected \"{UPLOAD_FORMAT}\""
            ),
            UploadError::OtherFormat(other) => write!(
                f,
                "\"format\" is \"{other}\"; this server reads \"{UPLOAD_FORMAT}\""
            ),
            UploadError::Outcome(e) => {
                write!(f, "\"outcome\" is not a participant's outcome: {e}")
            }
            UploadError::OutcomeWithoutParticipant => {
                f.write_str("\"outcome\" has an empty participant id")
            }
            UploadError::NoTrials => f.write_str("\"trials\" is missing or not a list"),
            UploadError::Nothing => f.write_str(
                "\"trials\" is empty and there is no \"outcome\": nothing to store",
            ),
            UploadError::Trial(i, e) => write!(f, "trials[{i}] is not a study trial: {e}"),
            UploadError::TrialWithoutParticipant(i) => {
                write!(f, "trials[{i}] has an empty participant id")
            }
        }
    }
}

impl std::error::Error for UploadError {}

/// A JSON value as received: its text as it is stored (compact, the keys of its objects
/// in order), and the value read from it by serde as a `T`, or why it does not read. Reading
/// one never fails, so an upload's parts are judged in the order [`parse_upload`] gives.
struct Received<T> {
    json: String,
    read: Result<T, JsonError>,
}

impl<T: DeserializeOwned> Received<T> {
    fn of(value: serde_json::Value) -> Received<T> {
        Received {
            json: value.to_string(),
            read: shapemaze_core::json::from_value(value),
        }
    }
}

impl<'de, T: DeserializeOwned> Deserialize<'de> for Received<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        serde_json::Value::deserialize(d).map(Received::of)
    }
}

/// A JSON value received where a list is expected: its items, each [`Received`], or none
/// when it is no list.
struct Listed<T>(Option<Vec<Received<T>>>);

impl<'de, T: DeserializeOwned> Deserialize<'de> for Listed<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(Listed(match serde_json::Value::deserialize(d)? {
            serde_json::Value::Array(items) => Some(items.into_iter().map(Received::of).collect()),
            _ => None,
        }))
    }
}

/// The plain JSON upload ([`study::UploadJson`]) as this server reads it: each part as
/// received, so that what is wrong is named part by part, and a DataPipe body is told apart.
#[derive(Deserialize)]
struct UploadBody {
    /// DataPipe's field: present (even `null`), the body is DataPipe's.
    #[serde(rename = "experimentID", default, deserialize_with = "present")]
    datapipe: Option<IgnoredAny>,
    #[serde(default)]
    format: Option<Received<String>>,
    /// Present (even `null`), it must be a list.
    #[serde(default, deserialize_with = "present")]
    trials: Option<Listed<StudyTrialData>>,
    #[serde(default)]
    outcome: Option<Received<OutcomeRecord>>,
}

/// A field that is there, whatever its value (`null` included).
fn present<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Option<T>, D::Error> {
    T::deserialize(d).map(Some)
}

/// Reads an upload body in the app's plain JSON format
/// (`{"format": "shapemaze-study-1", "trials": [...], "outcome": {...}}`) by serde,
/// saying what is wrong otherwise: the body, then its format, its outcome, its trials.
pub fn parse_upload(body: &[u8]) -> Result<Parsed, UploadError> {
    // serde reads a struct from a JSON list too (its fields in order): only an object is
    // an upload.
    if body.iter().find(|b| !b.is_ascii_whitespace()) != Some(&b'{') {
        return Err(match serde_json::from_slice::<IgnoredAny>(body) {
            Ok(_) => UploadError::NotObject,
            Err(e) => UploadError::NotJson(e),
        });
    }
    let upload: UploadBody = serde_json::from_slice(body).map_err(UploadError::NotJson)?;
    if upload.datapipe.is_some() {
        return Err(UploadError::DataPipe);
    }
    match upload.format.map(|f| f.read) {
        Some(Ok(f)) if f == UPLOAD_FORMAT => {}
        Some(Ok(other)) => return Err(UploadError::OtherFormat(other)),
        Some(Err(_)) | None => return Err(UploadError::NoFormat),
    }
    let outcome = match upload.outcome {
        None => None,
        Some(o) => {
            let record = o.read.map_err(UploadError::Outcome)?;
            if record.participant.id.trim().is_empty() {
                return Err(UploadError::OutcomeWithoutParticipant);
            }
            Some((record, o.json))
        }
    };
    let trials = match upload.trials {
        Some(Listed(Some(trials))) => trials,
        None if outcome.is_some() => Vec::new(),
        _ => return Err(UploadError::NoTrials),
    };
    if trials.is_empty() && outcome.is_none() {
        return Err(UploadError::Nothing);
    }
    let trials = trials
        .into_iter()
        .enumerate()
        .map(|(i, t)| {
            let trial = t.read.map_err(|e| UploadError::Trial(i, e))?;
            if trial.participant.id.trim().is_empty() {
                return Err(UploadError::TrialWithoutParticipant(i));
            }
            Ok(Incoming {
                trial,
                json: t.json,
            })
        })
        .collect::<Result<Vec<_>, UploadError>>()?;
    Ok(Parsed { trials, outcome })
}

/// Why the SQLite store failed.
#[derive(Debug)]
pub enum StoreError {
    /// The database file cannot be opened (or set up).
    Open(PathBuf, rusqlite::Error),
    /// An upload cannot be stored (nothing of it is).
    Write(rusqlite::Error),
    /// An order cannot be assigned.
    Order(rusqlite::Error),
    /// The database cannot be read.
    Read(rusqlite::Error),
    /// The task that runs the store off the server's threads failed.
    Task(tokio::task::JoinError),
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoreError::Open(path, e) => {
                write!(f, "cannot open the database {}: {e}", path.display())
            }
            StoreError::Write(e) => write!(f, "cannot store the upload: {e}"),
            StoreError::Order(e) => write!(f, "cannot assign an order: {e}"),
            StoreError::Read(e) => write!(f, "cannot read the database: {e}"),
            StoreError::Task(e) => write!(f, "the store task failed: {e}"),
        }
    }
}

impl std::error::Error for StoreError {}

/// What an upload did to the store.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct PutOutcome {
    /// Trials received.
    pub received: usize,
    /// Trials stored for the first time.
    pub stored: usize,
    /// Stored trials replaced by a fuller copy.
    pub replaced: usize,
    /// Trials already stored as full or fuller (a retry), left as they were.
    pub unchanged: usize,
    /// Whether the upload carried the participant's outcome (stored, or stored again).
    pub outcome: bool,
}

/// One stored row.
#[derive(Clone, Debug, PartialEq)]
pub struct StoredTrial {
    /// The trial's key (`study/participant/index`).
    pub key: String,
    /// The trial's JSON as received.
    pub json: String,
    /// When the stored copy arrived (UTC, `YYYY-MM-DDTHH:MM:SS.SSSZ`).
    pub received_at: String,
}

/// How long an order is held for a participant who has not finished: see
/// [`Store::assign_order`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hold {
    /// The study's title, which its participants' outcomes are stored under.
    pub title: String,
    /// Minutes after taking an order with no outcome stored since, past which the
    /// participant is taken to have left.
    pub minutes: u32,
}

/// The SQLite store.
pub struct Store {
    conn: Connection,
}

impl Store {
    /// Opens (creating if needed) the store at `path`.
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        let fail = |e| StoreError::Open(path.to_path_buf(), e);
        let conn = Connection::open(path).map_err(fail)?;
        conn.busy_timeout(std::time::Duration::from_secs(10))
            .map_err(fail)?;
        conn.execute_batch(
            "PRAGMA journal_mode = WAL;
             PRAGMA synchronous = FULL;
             CREATE TABLE IF NOT EXISTS study_trials (
                 study       TEXT    NOT NULL,
                 participant TEXT    NOT NULL,
                 trial_index INTEGER NOT NULL,
                 key         TEXT    NOT NULL,
                 finished    INTEGER NOT NULL,
                 actions     INTEGER NOT NULL,
                 messages    INTEGER NOT NULL,
                 data        TEXT    NOT NULL,
                 received_at TEXT    NOT NULL,
                 PRIMARY KEY (study, participant, trial_index)
             );
             CREATE TABLE IF NOT EXISTS study_orders (
                 study       TEXT    NOT NULL,
                 participant TEXT    NOT NULL,
                 order_index INTEGER NOT NULL,
                 assigned_at TEXT    NOT NULL,
                 PRIMARY KEY (study, participant)
             );
             CREATE TABLE IF NOT EXISTS study_outcomes (
                 study       TEXT    NOT NULL,
                 participant TEXT    NOT NULL,
                 data        TEXT    NOT NULL,
                 received_at TEXT    NOT NULL,
                 PRIMARY KEY (study, participant)
             );",
        )
        .map_err(fail)?;
        Ok(Store { conn })
    }

    /// Stores an upload's trials in one transaction, each only if new or fuller than the
    /// stored copy, and its outcome (one per participant: a repeat replaces it); returns
    /// what happened once the transaction is committed.
    pub fn put(&mut self, upload: &Parsed) -> Result<PutOutcome, StoreError> {
        let fail = StoreError::Write;
        let tx = self.conn.transaction().map_err(fail)?;
        let mut out = PutOutcome {
            received: upload.trials.len(),
            outcome: upload.outcome.is_some(),
            ..PutOutcome::default()
        };
        if let Some((o, json)) = &upload.outcome {
            tx.execute(
                "INSERT OR REPLACE INTO study_outcomes (study, participant, data, received_at)
                 VALUES (?1, ?2, ?3, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))",
                params![o.study, o.participant_key(), json],
            )
            .map_err(fail)?;
        }
        for t in &upload.trials {
            let d = &t.trial;
            let new = Fullness::of(d);
            let old: Option<(bool, i64, i64)> = tx
                .query_row(
                    "SELECT finished, actions, messages FROM study_trials
                     WHERE study = ?1 AND participant = ?2 AND trial_index = ?3",
                    params![d.study, d.participant_key(), d.trial_index],
                    |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
                )
                .optional()
                .map_err(fail)?;
            let old = old.map(|(finished, actions, messages)| Fullness {
                finished,
                actions: usize::try_from(actions).unwrap_or(0),
                messages: usize::try_from(messages).unwrap_or(0),
            });
            match old {
                Some(old) if new <= old => {
                    out.unchanged += 1;
                    continue;
                }
                Some(_) => out.replaced += 1,
                None => out.stored += 1,
            }
            tx.execute(
                "INSERT OR REPLACE INTO study_trials
                 (study, participant, trial_index, key, finished, actions, messages, data, received_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))",
                params![
                    d.study,
                    d.participant_key(),
                    d.trial_index,
                    d.key(),
                    new.finished,
                    i64::try_from(new.actions).unwrap_or(i64::MAX),
                    i64::try_from(new.messages).unwrap_or(i64::MAX),
                    t.json,
                ],
            )
            .map_err(fail)?;
        }
        tx.commit().map_err(fail)?;
        Ok(out)
    }

    /// The counterbalancing order of `participant` in `study`, which has `orders` of them:
    /// the one given before if any, else the least used so far (the lowest on a tie),
    /// recorded in the same transaction, so two participants asking at once are counted
    /// apart. With `hold`, a participant who took an order and left (no outcome stored
    /// under the study's title, and the order taken more than the hold's minutes ago) is
    /// counted no more, so those who leave do not unbalance the orders (and the conditions
    /// they carry) of those who stay; one who comes back keeps their order. Returns the
    /// order and how many participants each order counts now.
    pub fn assign_order(
        &mut self,
        study: &str,
        participant: &str,
        orders: usize,
        hold: Option<&Hold>,
    ) -> Result<(usize, Vec<usize>), StoreError> {
        let fail = StoreError::Order;
        let tx = self.conn.transaction().map_err(fail)?;
        let given: Option<i64> = tx
            .query_row(
                "SELECT order_index FROM study_orders WHERE study = ?1 AND participant = ?2",
                params![study, participant],
                |r| r.get(0),
            )
            .optional()
            .map_err(fail)?;
        if given.is_some() && hold.is_some() {
            // Asking again shows the participant is still there: their hold starts anew.
            tx.execute(
                "UPDATE study_orders SET assigned_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
                 WHERE study = ?1 AND participant = ?2",
                params![study, participant],
            )
            .map_err(fail)?;
        }
        let mut counts = vec![0usize; orders];
        {
            // Without a hold every order taken counts; with one, only those of participants
            // with an outcome or who took it within the hold.
            let (title, since) = hold.map_or((String::new(), "+0 minutes".to_string()), |h| {
                (h.title.clone(), format!("-{} minutes", h.minutes))
            });
            let mut stmt = tx
                .prepare(
                    "SELECT o.order_index, COUNT(*) FROM study_orders o WHERE o.study = ?1
                     AND (?2 = 0
                          OR o.assigned_at >= strftime('%Y-%m-%dT%H:%M:%fZ', 'now', ?3)
                          OR EXISTS (SELECT 1 FROM study_outcomes u WHERE u.study = ?4
                                     AND (u.participant = o.participant
                                          OR substr(u.participant, 1, length(o.participant) + 9)
                                             = o.participant || '#attempt-')))
                     GROUP BY o.order_index",
                )
                .map_err(fail)?;
            let rows = stmt
                .query_map(params![study, hold.is_some(), since, title], |r| {
                    Ok((r.get::<_, i64>(0)?, r.get::<_, i64>(1)?))
                })
                .map_err(fail)?;
            for row in rows {
                let (i, n) = row.map_err(fail)?;
                if let (Ok(i), Ok(n)) = (usize::try_from(i), usize::try_from(n)) {
                    if i < orders {
                        counts[i] = n;
                    }
                }
            }
        }
        let order = match given.and_then(|g| usize::try_from(g).ok()) {
            Some(g) => g,
            None => {
                let least = (0..orders).min_by_key(|&i| (counts[i], i)).unwrap_or(0);
                tx.execute(
                    "INSERT INTO study_orders (study, participant, order_index, assigned_at)
                     VALUES (?1, ?2, ?3, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))",
                    params![study, participant, i64::try_from(least).unwrap_or(0)],
                )
                .map_err(fail)?;
                counts[least] += 1;
                least
            }
        };
        tx.commit().map_err(fail)?;
        Ok((order, counts))
    }

    /// Every stored trial, ordered by study, participant and trial index.
    pub fn all(&self) -> Result<Vec<StoredTrial>, StoreError> {
        let fail = StoreError::Read;
        let mut stmt = self
            .conn
            .prepare(
                "SELECT key, data, received_at FROM study_trials
                 ORDER BY study, participant, trial_index",
            )
            .map_err(fail)?;
        let rows = stmt
            .query_map([], |r| {
                Ok(StoredTrial {
                    key: r.get(0)?,
                    json: r.get(1)?,
                    received_at: r.get(2)?,
                })
            })
            .map_err(fail)?;
        rows.collect::<Result<Vec<_>, _>>().map_err(fail)
    }

    /// Every stored outcome, as received, by study and participant.
    pub fn outcomes(&self) -> Result<Vec<String>, StoreError> {
        let fail = StoreError::Read;
        let mut stmt = self
            .conn
            .prepare("SELECT data FROM study_outcomes ORDER BY study, participant")
            .map_err(fail)?;
        let rows = stmt.query_map([], |r| r.get(0)).map_err(fail)?;
        rows.collect::<Result<Vec<String>, _>>().map_err(fail)
    }

    /// How many trials are stored.
    pub fn count(&self) -> Result<usize, StoreError> {
        self.conn
            .query_row("SELECT COUNT(*) FROM study_trials", [], |r| {
                r.get::<_, i64>(0)
            })
            .map(|n| usize::try_from(n).unwrap_or(0))
            .map_err(StoreError::Read)
    }
}

/// The stored rows read back as study trials, and the keys of those that could not be.
fn readable(stored: &[StoredTrial]) -> (Vec<StudyTrialData>, Vec<String>) {
    let mut trials = Vec::with_capacity(stored.len());
    let mut unreadable = Vec::new();
    for s in stored {
        match serde_json::from_str::<StudyTrialData>(&s.json) {
            Ok(t) => trials.push(t),
            Err(_) => unreadable.push(s.key.clone()),
        }
    }
    (trials, unreadable)
}

/// The study events CSV over `stored` ([`study::events_csv`]) and the keys of rows that
/// could not be read back as study trials (left out).
pub fn events_csv(stored: &[StoredTrial]) -> (String, Vec<String>) {
    let (trials, unreadable) = readable(stored);
    (study::events_csv(&trials), unreadable)
}

/// The people's trials CSV over `stored` ([`shapemaze_view::study::people_trials_csv`])
/// and the keys of rows that could not be read back as study trials (left out).
pub fn trials_csv(stored: &[StoredTrial]) -> (String, Vec<String>) {
    let (trials, unreadable) = readable(stored);
    (
        shapemaze_view::study::people_trials_csv(&trials),
        unreadable,
    )
}

/// The reconcile CSV ([`reconcile_csv`]): each participant's outcome against the trials
/// stored, the missing ones listed; with the keys of rows that could not be read (left out).
pub fn participants_csv(stored: &[StoredTrial], outcomes: &[String]) -> (String, Vec<String>) {
    let (trials, mut unreadable) = readable(stored);
    let mut read = Vec::with_capacity(outcomes.len());
    for (i, o) in outcomes.iter().enumerate() {
        match serde_json::from_str::<OutcomeRecord>(o) {
            Ok(o) => read.push(o),
            Err(_) => unreadable.push(format!("outcome {}", i + 1)),
        }
    }
    (reconcile_csv(&reconcile(&trials, &read)), unreadable)
}

#[cfg(test)]
#[path = "store_tests.rs"]
mod tests;
