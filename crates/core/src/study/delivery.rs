//! Study data that never goes missing: each finished trial is uploaded as it ends, and what
//! the server has not acknowledged stays queued in the browser and is sent again (on a
//! back-off, when the browser comes back online, and on the next page load). The page
//! keeps, beside each stored trial ([`StudyKey::Trial`]), the hash of the copy the server
//! acknowledged ([`StudyKey::Sent`]): a trial is pending while the two differ, so a trial
//! that changed after it was sent goes again, and the server keeps the fuller copy. The
//! participant's outcome goes last, as a cheap confirmation ([`OutcomeRecord`]), and is
//! acknowledged the same way; the completion code or redirect is shown only once nothing is
//! pending.

use super::file::{Outcome, Study, UploadKind};
use super::key::stored_participant;
use super::key::StudyKey;
use super::participant::{fnv1a, Participant};
use super::session::StudySession;
use super::trial_data::StudyTrialData;
use serde::{Deserialize, Serialize};

/// How a participant's study ended, as the page tells the server once every trial is
/// there: the last upload, so the server can reconcile the code given against the trials
/// it holds ([`super::reconcile`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OutcomeRecord {
    /// The study's title (as [`StudyTrialData::study`]).
    pub study: String,
    /// Who.
    pub participant: Participant,
    /// Which attempt at the study (as [`StudyTrialData::attempt`]).
    #[serde(default)]
    pub attempt: u32,
    /// `completed` or `timed_out`.
    pub outcome: String,
    /// The completion code given, or the redirect's address (none: the "no code" page).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
    /// Scored trials in the participant's plan (a staircase's `trials`).
    pub planned: usize,
    /// The trial indexes the page held at the end (practice is -1): every one of them is
    /// expected on the server.
    pub played: Vec<i64>,
}

impl OutcomeRecord {
    /// How `session` of `study` ended as `outcome`, with the trials the page holds
    /// (`data`, every attempt's: only this attempt's indexes count).
    pub fn of(
        session: &StudySession,
        study: &Study,
        outcome: Outcome,
        data: &[StudyTrialData],
    ) -> OutcomeRecord {
        let code = study
            .outcome(outcome)
            .and_then(|c| c.code.clone().or_else(|| c.redirect.clone()));
        let mine: Vec<StudyTrialData> = data
            .iter()
            .filter(|d| d.attempt == session.attempt)
            .cloned()
            .collect();
        OutcomeRecord {
            study: study.title.clone(),
            participant: session.participant.clone(),
            attempt: session.attempt,
            outcome: outcome.name().to_string(),
            code,
            planned: session.planned(study),
            played: played(&mine),
        }
    }

    /// The participant as stored (as [`StudyTrialData::participant_key`]).
    pub fn participant_key(&self) -> String {
        stored_participant(&self.participant.id, self.attempt)
    }
}

/// The hash the page keeps of a copy the server acknowledged (FNV-1a 64 of its JSON,
/// hexadecimal).
pub fn content_hash(json: &str) -> String {
    format!("{:016x}", fnv1a(json.as_bytes()))
}

/// Whether `entries` (key, stored text) hold, as the acknowledged copy of what is stored at
/// `key`, the hash of `text`: under either spelling of the outcome's receipt, which read as
/// the same [`StudyKey::Sent`].
pub fn is_acknowledged(entries: &[(StudyKey, String)], key: &StudyKey, text: &str) -> bool {
    let Some(sent) = key.sent() else {
        return false;
    };
    let hash = content_hash(text);
    entries.iter().any(|(k, h)| *k == sent && *h == hash)
}

/// The stored trials (key, text) still to upload: those whose acknowledged hash (in the
/// same entries) is missing or differs from their text now, in the order given.
pub fn pending(entries: &[(StudyKey, String)]) -> Vec<&(StudyKey, String)> {
    unacknowledged(entries, |k| matches!(k, StudyKey::Trial(..)))
}

/// The stored outcomes (key, text) the server has not acknowledged as they are now.
pub fn pending_outcomes(entries: &[(StudyKey, String)]) -> Vec<&(StudyKey, String)> {
    unacknowledged(entries, |k| matches!(k, StudyKey::Outcome(_)))
}

fn unacknowledged(
    entries: &[(StudyKey, String)],
    kind: fn(&StudyKey) -> bool,
) -> Vec<&(StudyKey, String)> {
    entries
        .iter()
        .filter(|(k, v)| kind(k) && !is_acknowledged(entries, k, v))
        .collect()
}

/// Whether the upload target's answer (`status`, `text`) acknowledges an upload in
/// `kind`'s format: a 2xx; for DataPipe also its 400 "File already exists" (an earlier try
/// stored the file and its answer was lost: DataPipe keeps the first copy of a file name
/// and never replaces it, so retrying could never succeed).
pub fn acknowledged(kind: UploadKind, status: u16, text: &str) -> bool {
    (200..300).contains(&status)
        || (kind == UploadKind::Datapipe && status == 400 && text.contains("already exists"))
}

/// Why an answer is no acknowledgement, for the participant: the status and what the
/// server said (`{"error": ...}` from `shapemaze serve`, or a short plain text).
pub fn refusal(status: u16, text: &str) -> String {
    let said = serde_json::from_str::<serde_json::Value>(text)
        .ok()
        .and_then(|v| v.get("error")?.as_str().map(str::to_string))
        .or_else(|| {
            let plain = text.trim();
            (!plain.is_empty() && plain.len() <= 200 && !plain.starts_with('<'))
                .then(|| plain.to_string())
        });
    match said {
        Some(s) => format!("the server answered {status}: {s}"),
        None => format!("the server answered {status}"),
    }
}

/// How long to wait before the next try after `failures` failed tries in a row: 1 s,
/// doubling, at most a minute (a browser coming back online tries at once).
pub fn retry_delay_ms(failures: u32) -> u32 {
    1000u32.saturating_mul(1 << failures.min(6)).min(60_000)
}

/// What the participant is told while their data is on its way.
pub fn waiting_message(pending: usize, online: bool, last_error: Option<&str>) -> String {
    let what = match pending {
        0 => return "Your answers are saved.".to_string(),
        1 => "1 trial is waiting to upload".to_string(),
        n => format!("{n} trials are waiting to upload"),
    };
    match (online, last_error) {
        (false, _) => format!("{what}: this device is offline. Keep this page open; they are sent as soon as it is back online."),
        (true, Some(e)) => format!("{what} (the last try failed: {e}). Keep this page open; it tries again by itself."),
        (true, None) => format!("{what}. Keep this page open…"),
    }
}

/// The trial indexes of `data`, in order (for [`OutcomeRecord::played`]).
pub fn played(data: &[StudyTrialData]) -> Vec<i64> {
    let mut out: Vec<i64> = data.iter().map(|d| d.trial_index).collect();
    crate::sort::sort_dedup(&mut out);
    out
}
