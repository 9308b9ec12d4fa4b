//! A run in the Every Eval Ever schema (evaleval/every_eval_ever, schema version
//! [`names::SCHEMA_VERSION`]): for each model (a player of the design, built-in players
//! included, people's trials left out), an aggregate file ([`aggregate`]: each phase's
//! success rate with its 95% interval, the endpoint's settings, the run's provenance) and
//! the instance rows beside it ([`instances`]: one per reply, with the prompts, the reply,
//! what the reader read and the verdict), laid out as the schema's datastore lays them:
//!
//! ```text
//! data/shapemaze/{developer}/{model}/{uuid}.json            the aggregate
//! data/shapemaze/{developer}/{model}/{uuid}_samples.jsonl   its instance rows
//! ```
//!
//! Pure: the records come in (re-scored or as stored, the caller's choice), with the run's
//! provenance and the time the export is made; the files go out.

pub mod aggregate;
pub mod instances;
pub mod names;

use crate::batch::export::ExportFile;
use crate::batch::provenance::{sha256_hex, Provenance};
use crate::json::JsonError;
use crate::play::player::PlayerKind;
use crate::results::record::TrialRecord;
use aggregate::{
    endpoint_of, epoch_seconds, evaluation_log, first_start, DetailedResults, ModelRun,
};
use names::Identity;
use std::fmt;

/// The format's name, as `shapemaze export --format` takes it.
pub const FORMAT: &str = "every-eval-ever";

/// What the export of one model wrote.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct ModelFiles {
    /// The player's name (the records' `model`).
    pub model: String,
    /// Its `evaluation_id`.
    pub evaluation_id: String,
    /// Its aggregate file's path.
    pub aggregate: String,
    /// Its instance rows' path, when it has replies.
    pub samples: Option<String>,
    /// Its trials.
    pub trials: usize,
    /// Its instance rows.
    pub rows: usize,
}

/// An export in the Every Eval Ever schema.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EveryEvalEver {
    /// The files, each model's aggregate then its rows, models in the order the records
    /// first name them.
    pub files: Vec<ExportFile>,
    /// What each model's files are.
    pub models: Vec<ModelFiles>,
    /// People's trials, left out (the schema describes models).
    pub people_left_out: usize,
}

/// Why an export cannot be made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExchangeError {
    /// No trial of a model or built-in player to export (none at all, or people's only).
    NoTrials,
    /// A file cannot be written as JSON (serde's reason).
    Unwritable(JsonError),
}

impl fmt::Display for ExchangeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExchangeError::NoTrials => f.write_str(
                "no trial of a model or built-in player to export (people's trials are left out)",
            ),
            ExchangeError::Unwritable(e) => write!(f, "cannot write the export as JSON: {e}"),
        }
    }
}

impl std::error::Error for ExchangeError {}

impl From<JsonError> for ExchangeError {
    fn from(e: JsonError) -> Self {
        ExchangeError::Unwritable(e)
    }
}

/// The Every Eval Ever files of `records` from the run `provenance` describes, made at
/// `retrieved_ms` (milliseconds since the Unix epoch: the core has no clock).
pub fn export_files(
    provenance: &Provenance,
    records: &[TrialRecord],
    retrieved_ms: f64,
) -> Result<EveryEvalEver, ExchangeError> {
    let mut out = EveryEvalEver::default();
    // One evaluation per player and answer mode: a mode's trials are never pooled with
    // another's (`model+mode`, as the analysis names them).
    let mut models: Vec<(String, &str, Vec<&TrialRecord>)> = Vec::new();
    for r in records {
        if r.player == PlayerKind::Human {
            out.people_left_out += 1;
            continue;
        }
        let label = crate::results::forms::model_label(r);
        match models.iter_mut().find(|(m, _, _)| *m == label) {
            Some((_, _, list)) => list.push(r),
            None => models.push((label, &r.model, vec![r])),
        }
    }
    if models.is_empty() {
        return Err(ExchangeError::NoTrials);
    }
    for (model, player_name, list) in &models {
        let player = provenance.players.iter().find(|p| p.model == *player_name);
        let identity = Identity::of(
            model,
            endpoint_of(player, list),
            &provenance.design_name,
            &provenance.design_sha256,
            first_start(list).map(epoch_seconds),
        );
        let rows: Vec<instances::InstanceRow> = list
            .iter()
            .flat_map(|r| instances::rows_of(r, &identity))
            .collect();
        let samples = crate::json::lines(&rows)?;
        let detailed = (!rows.is_empty()).then(|| DetailedResults {
            format: "jsonl".into(),
            file_path: identity.samples_path(),
            hash_algorithm: "sha256".into(),
            checksum: sha256_hex(&samples),
            total_rows: rows.len(),
        });
        let run = ModelRun {
            identity: &identity,
            records: list,
            player,
            provenance,
        };
        let log = evaluation_log(&run, retrieved_ms, detailed);
        out.files.push(ExportFile {
            path: identity.aggregate_path(),
            bytes: (crate::json::to_string_pretty(&log)? + "\n").into_bytes(),
        });
        if !rows.is_empty() {
            out.files.push(ExportFile {
                path: identity.samples_path(),
                bytes: samples.into_bytes(),
            });
        }
        out.models.push(ModelFiles {
            model: model.to_string(),
            evaluation_id: identity.evaluation_id.clone(),
            aggregate: identity.aggregate_path(),
            samples: (!rows.is_empty()).then(|| identity.samples_path()),
            trials: list.len(),
            rows: rows.len(),
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests;
