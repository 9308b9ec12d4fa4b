//! The bodies a study's data leaves in (plain JSON for `shapemaze serve`, DataPipe's) and
//! the reader of uploaded or exported data.

use super::delivery::OutcomeRecord;
use super::events::events_csv;
use super::file::UploadKind;
use super::trial_data::StudyTrialData;
use crate::json::JsonError;
use serde::{Deserialize, Serialize};

/// The plain JSON upload: some of the participant's trials (one, as each ends), and, last,
/// the participant's outcome.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct UploadJson {
    /// `shapemaze-study-1`.
    pub format: String,
    /// Trials of the participant.
    #[serde(default)]
    pub trials: Vec<StudyTrialData>,
    /// How the participant's study ended (the last upload, once every trial is there).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome: Option<OutcomeRecord>,
}

/// The DataPipe upload (as jsPsych's pipe plugin sends it).
#[derive(Clone, Debug, PartialEq, Serialize)]
struct DataPipe<'a> {
    #[serde(rename = "experimentID")]
    experiment_id: &'a str,
    filename: String,
    data: String,
}

/// The plain upload format's name.
pub const UPLOAD_FORMAT: &str = "shapemaze-study-1";

/// What one upload carries: trials, or the participant's outcome.
#[derive(Clone, Copy, Debug)]
pub enum Parcel<'a> {
    /// Trials of one participant (one, as each ends).
    Trials(&'a [StudyTrialData]),
    /// The participant's outcome, once every trial is there.
    Outcome(&'a OutcomeRecord),
}

/// The body of an upload of `parcel` in `kind`'s format. DataPipe stores each upload as a
/// file of its own: `{study}_{participant}_{trial}.csv` for one trial (the trial index as
/// `practice` or a number, the attempt added from the second on), `{study}_{participant}.csv`
/// for several, `{study}_{participant}_outcome.json` for the outcome.
pub fn upload_body(
    kind: UploadKind,
    experiment_id: Option<&str>,
    parcel: Parcel,
) -> Result<String, JsonError> {
    if kind == UploadKind::Json {
        let (trials, outcome) = match parcel {
            Parcel::Trials(data) => (data.to_vec(), None),
            Parcel::Outcome(o) => (Vec::new(), Some(o.clone())),
        };
        let body = UploadJson {
            format: UPLOAD_FORMAT.into(),
            trials,
            outcome,
        };
        return crate::json::to_string(&body);
    }
    let name = crate::results::layout::model_dir_name;
    let (filename, data) = match parcel {
        Parcel::Trials(data) => {
            let (study, pid) = data
                .first()
                .map(|d| (name(&d.study), name(&d.participant_key())))
                .unwrap_or_default();
            let which = match data {
                [one] if one.practice => "_practice".to_string(),
                [one] => format!("_{}", one.trial_index),
                _ => String::new(),
            };
            (format!("{study}_{pid}{which}.csv"), events_csv(data))
        }
        Parcel::Outcome(o) => (
            format!(
                "{}_{}_outcome.json",
                name(&o.study),
                name(&o.participant_key())
            ),
            crate::json::to_string(o)?,
        ),
    };
    crate::json::to_string(&DataPipe {
        experiment_id: experiment_id.unwrap_or_default(),
        filename,
        data,
    })
}

/// One line of study data that is a participant's outcome rather than a trial:
/// `{"outcome": {...}}` (how `shapemaze serve`'s JSONL export writes the outcomes it holds,
/// after the trials).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OutcomeLine {
    /// The participant's outcome.
    pub outcome: OutcomeRecord,
}

/// What a file of study data holds.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StudyData {
    /// The participants' trials.
    pub trials: Vec<StudyTrialData>,
    /// Their outcomes (how each participant's study ended, with the code given).
    pub outcomes: Vec<OutcomeRecord>,
    /// Each line that is neither: its number and why.
    pub refused: Vec<String>,
}

/// Reads study data: an upload body (`{"format": ..., "trials": [...], "outcome": ...}`)
/// or JSONL with one trial per line, and the outcomes as [`OutcomeLine`]s.
pub fn read_study_data(text: &str) -> StudyData {
    if let Ok(body) = serde_json::from_str::<UploadJson>(text) {
        return StudyData {
            trials: body.trials,
            outcomes: body.outcome.into_iter().collect(),
            refused: Vec::new(),
        };
    }
    let mut out = StudyData::default();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        match crate::json::from_str::<StudyTrialData>(line) {
            Ok(d) => out.trials.push(d),
            Err(e) => match serde_json::from_str::<OutcomeLine>(line) {
                Ok(o) => out.outcomes.push(o.outcome),
                Err(_) => out.refused.push(format!("line {}: {e}", i + 1)),
            },
        }
    }
    out
}
