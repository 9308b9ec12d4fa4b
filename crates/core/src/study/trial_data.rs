//! One participant's trial as stored and uploaded.

use super::log::{ActionLog, HelpSignals};
use super::participant::Participant;
use super::session::{ConsentRecord, SessionEvent};
use crate::results::record::TrialRecord;
use serde::{Deserialize, Serialize};

/// One participant's trial: the record, the actions, and where it sat in the study.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StudyTrialData {
    /// The study's title.
    pub study: String,
    /// Who.
    pub participant: Participant,
    /// 0-based position in the participant's sequence (practice is -1).
    pub trial_index: i64,
    /// Whether it was the practice trial (never scored).
    pub practice: bool,
    /// The trial record (player `human`).
    pub record: TrialRecord,
    /// Every action, timed.
    pub log: ActionLog,
    /// The window's size when the trial started (`W x H`).
    #[serde(default)]
    pub window: String,
    /// The participant's consent (none in data from before it was recorded).
    #[serde(default)]
    pub consent: Option<ConsentRecord>,
    /// Signs that the participant may have had help ([`ActionLog::signals`]).
    #[serde(default)]
    pub signals: HelpSignals,
    /// Which attempt at the study (0 first; see [`StudySession::open`]).
    #[serde(default)]
    pub attempt: u32,
    /// What happened to the participant's session up to this trial (resumed, restarted,
    /// ...; see [`SessionEvent`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub session_events: Vec<SessionEvent>,
    /// How many scored trials the participant's plan holds (a staircase's `trials`), so a
    /// server can tell which trials of a participant are missing ([`super::reconcile`]);
    /// none in data from before it was recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub planned: Option<usize>,
}

impl StudyTrialData {
    /// The storage and upload key: study, participant, index (unique per participant-trial).
    pub fn key(&self) -> String {
        super::key::server_row(&self.study, &self.participant_key(), self.trial_index)
    }

    /// Whether the trial had ended (its end time or its generation verdict is set): a
    /// finished trial is uploaded as it ends.
    pub fn finished(&self) -> bool {
        self.record.ended_ms.is_some() || self.record.verdicts.generate.is_some()
    }

    /// Milliseconds the trial's solve phase took by its log (`None` when the log has no
    /// action in it).
    pub fn solve_ms(&self) -> Option<f64> {
        let ms = self.log.phase_ms("solve");
        (ms > 0.0).then_some(ms)
    }

    /// The participant as stored: the id, with `#attempt-N` from the second attempt on (so
    /// a restarted participant's trials never replace the first attempt's).
    pub fn participant_key(&self) -> String {
        super::key::stored_participant(&self.participant.id, self.attempt)
    }
}
