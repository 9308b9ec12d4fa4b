//! Human baseline studies: the study file (CONTRACT.md, "Study files"), who the participant
//! is, the counterbalanced order of trials, the timed log of every action, and the files a
//! study's data leaves in (jsPsych-like CSV, JSONL, upload bodies). May import
//! [`crate::results`] and the domains below it.
//!
//! Counterbalancing is a balanced Latin square over the shapes a study uses (a Williams
//! design: for `n` shapes, row `r` orders them `r, r+1, r-1, r+2, r-2, ...` modulo `n`, so
//! with an even `n` every shape follows every other equally often; with an odd `n` rows
//! `r` and `r + n` are mirror images). Participant `k` (0-based, from the order the
//! experimenter's link gives, or else from a stable hash of the participant's id) takes row
//! `k mod n` (with odd `n`, row `k mod 2n`, the second half reversed). Trials keep their
//! file order within each shape.
//!
//! A study with a `staircase` is not counterbalanced: its trials are the levels, easiest
//! first, and each participant's next trial follows from their outcomes so far
//! ([`Study::stair_next`], kept in [`StudySession::stair_levels`] and
//! [`StudySession::stair_outcomes`]).
//!
//! Everything a participant's browser keeps of a study is named by one typed key,
//! [`StudyKey`] (`key.rs`): no other file spells a stored key.

mod base64url;
#[cfg(test)]
mod conditions_tests;
#[cfg(test)]
mod data_tests;
mod delivery;
#[cfg(test)]
mod delivery_tests;
mod events;
mod file;
mod key;
#[cfg(test)]
mod key_tests;
mod log;
mod order;
mod participant;
pub mod reconcile;
mod session;
pub mod stairs;
mod trial_data;
mod upload;

pub use base64url::{base64url_decode, base64url_encode};
pub use delivery::{
    acknowledged, content_hash, is_acknowledged, pending, pending_outcomes, played, refusal,
    retry_delay_ms, waiting_message, OutcomeRecord,
};
pub use events::{events_csv, EVENT_COLUMNS};
pub use file::{
    Assignment, Completion, Outcome, RecognitionMode, Resume, ResumePolicy, Study, StudyError,
    StudyTrial, TimeLimits, Upload, UploadKind,
};
pub use key::{Attempt, KeyError, KeyProblem, Scope, Sendable, StudyKey, Who};
pub use log::{Action, ActionLog, HelpSignals};
pub use order::{latin_row, order_request, read_order_answer, OrderError, DEFAULT_HOLD_MINUTES};
pub use participant::{inline_name, Participant};
pub use session::{ConsentRecord, Opening, SessionEvent, Stage, StudySession};
pub use trial_data::StudyTrialData;
pub use upload::{
    read_study_data, upload_body, OutcomeLine, Parcel, StudyData, UploadJson, UPLOAD_FORMAT,
};

#[cfg(any(test, feature = "test-support"))]
pub mod test_support;
#[cfg(test)]
mod tests;
