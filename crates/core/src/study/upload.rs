//! The bodies a study's data leaves in (plain JSON for `shapemaze serve`, DataPipe's) and
//! the reader of uploaded or exported data.

use super::{events_csv, StudyTrialData, UploadKind};
use serde::{Deserialize, Serialize};

/// The plain JSON upload: the participant's trials.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct UploadJson {
    /// `shapemaze-study-1`.
    pub format: String,
    /// Every trial of the participant.
    pub trials: Vec<StudyTrialData>,
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

/// The body of an upload of `data` in `kind`'s format.
pub fn upload_body(
    kind: UploadKind,
    experiment_id: Option<&str>,
    data: &[StudyTrialData],
) -> String {
    match kind {
        UploadKind::Json => serde_json::to_string(&UploadJson {
            format: UPLOAD_FORMAT.into(),
            trials: data.to_vec(),
        })
        .unwrap_or_default(),
        UploadKind::Datapipe => {
            let (study, pid) = data
                .first()
                .map(|d| (d.study.clone(), d.participant.id.clone()))
                .unwrap_or_default();
            let filename = format!(
                "{}_{}.csv",
                crate::results::layout::model_dir_name(&study),
                crate::results::layout::model_dir_name(&pid)
            );
            serde_json::to_string(&DataPipe {
                experiment_id: experiment_id.unwrap_or_default(),
                filename,
                data: events_csv(data),
            })
            .unwrap_or_default()
        }
    }
}

/// Reads study data: an upload body (`{"format": ..., "trials": [...]}`) or JSONL with one
/// trial per line. Returns the trials read and, for each line that could not be, its
/// number and why.
pub fn read_study_data(text: &str) -> (Vec<StudyTrialData>, Vec<String>) {
    if let Ok(body) = serde_json::from_str::<UploadJson>(text) {
        return (body.trials, Vec::new());
    }
    let mut ok = Vec::new();
    let mut bad = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        match crate::json::from_str::<StudyTrialData>(line) {
            Ok(d) => ok.push(d),
            Err(e) => bad.push(format!("line {}: {e}", i + 1)),
        }
    }
    (ok, bad)
}
