//! `/results`' *Download Every Eval Ever (ZIP)*: the chosen experiments in the Every Eval
//! Ever schema, as `shapemaze export --format every-eval-ever` writes them (the core's
//! `exchange::every_eval_ever`): per source, one aggregate file per model and its instance
//! rows, under the paths the schema names, all in one ZIP.
//!
//! Each source needs its provenance: an experiment run in this browser has its design
//! stored (the provenance is made from it, the machine being this browser); an imported
//! export carries its `provenance.json`. A source with neither (an imported JSONL, a
//! results folder of transcripts) and a study's people (the schema describes models) are
//! left out, and the message says which.

use super::dashboard::Source;
use crate::download::{download_bytes, DownloadError};
use crate::experiment::lab::stored_records;
use crate::storage::{Db, StorageError, EXPERIMENTS};
use shapemaze_core::batch::form::{StoredError, StoredExperiment};
use shapemaze_core::batch::provenance::Provenance;
use shapemaze_core::exchange::every_eval_ever::{export_files, ExchangeError};
use shapemaze_core::json::JsonError;
use shapemaze_core::results::record::TrialRecord;
use shapemaze_core::results::zip::{ZipError, ZipWriter};

/// The file the export downloads as.
pub(super) const FILE: &str = "every-eval-ever.zip";

/// This browser, as a provenance names the machine.
fn machine() -> String {
    web_sys::window()
        .and_then(|w| w.navigator().user_agent().ok())
        .map_or_else(|| "a browser".to_string(), |ua| format!("a browser: {ua}"))
}

/// A stored experiment's records and provenance (made from its stored design).
async fn stored(db: &Db, id: &str) -> Result<(Vec<TrialRecord>, Provenance), ExportError> {
    let (records, _unreadable) = stored_records(db, id).await?;
    let text = db
        .get(EXPERIMENTS, id)
        .await?
        .ok_or(ExportError::NoDesign)?;
    let design = StoredExperiment::from_json(&text)
        .map_err(ExportError::Design)?
        .design;
    let provenance =
        Provenance::of(&design, &records, &machine()).map_err(ExportError::Provenance)?;
    Ok((records, provenance))
}

/// Why the export, or one source of it, could not be made.
#[derive(Debug)]
pub(super) enum ExportError {
    /// This browser's storage failed.
    Storage(StorageError),
    /// A stored experiment's design is no longer stored.
    NoDesign,
    /// A stored experiment's design does not read.
    Design(StoredError),
    /// A stored experiment's provenance cannot be written.
    Provenance(JsonError),
    /// A source (its label) cannot be written in the schema.
    Source(String, ExchangeError),
    /// The ZIP cannot be written.
    Zip(ZipError),
    /// No source was chosen.
    Nothing,
    /// No chosen source could go in (each left out, with why).
    NothingInSchema(Vec<String>),
    /// The download failed.
    Download(DownloadError),
}

impl std::fmt::Display for ExportError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ExportError::Storage(e) => e.fmt(f),
            ExportError::NoDesign => f.write_str("its design is no longer stored"),
            ExportError::Design(e) => write!(f, "its stored design does not read: {e}"),
            ExportError::Provenance(e) => write!(f, "its provenance cannot be written: {e}"),
            ExportError::Source(label, e) => write!(f, "{label}: {e}"),
            ExportError::Zip(e) => write!(f, "The ZIP cannot be written: {e}"),
            ExportError::Nothing => {
                f.write_str("Nothing to export: choose or import an experiment.")
            }
            ExportError::NothingInSchema(left_out) => write!(
                f,
                "Nothing to export in the Every Eval Ever schema: {}.",
                left_out.join("; ")
            ),
            ExportError::Download(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for ExportError {}

impl From<StorageError> for ExportError {
    fn from(e: StorageError) -> Self {
        ExportError::Storage(e)
    }
}

/// Builds the ZIP of the chosen `sources` and downloads it; the sentence to show, or why
/// nothing was exported.
pub(super) async fn download(sources: Vec<Source>) -> Result<String, ExportError> {
    let db = if sources.iter().any(|s| s.id.is_some()) {
        Some(Db::open().await?)
    } else {
        None
    };
    let mut zip = ZipWriter::new();
    let (mut made, mut left_out) = (Vec::new(), Vec::new());
    for s in sources.iter().filter(|s| s.chosen) {
        let (records, provenance) = match (&s.id, &db, &s.provenance) {
            (Some(id), Some(db), _) => match stored(db, id).await {
                Ok(both) => both,
                Err(e) => {
                    left_out.push(format!("{} ({e})", s.label));
                    continue;
                }
            },
            (None, _, Some(p)) => (s.records.clone(), (**p).clone()),
            _ if !s.people.is_empty() => {
                left_out.push(format!(
                    "{} (people's trials: the schema describes models)",
                    s.label
                ));
                continue;
            }
            _ => {
                left_out.push(format!(
                    "{} (no provenance: import its export ZIP, which carries provenance.json)",
                    s.label
                ));
                continue;
            }
        };
        match export_files(&provenance, &records, js_sys::Date::now()) {
            Ok(export) => {
                for f in &export.files {
                    zip.add_stored(&f.path, &f.bytes)
                        .map_err(ExportError::Zip)?;
                }
                made.push(format!("{} ({} models)", s.label, export.models.len()));
            }
            Err(ExchangeError::NoTrials) => {
                left_out.push(format!("{} (no model's trials)", s.label));
            }
            Err(e) => return Err(ExportError::Source(s.label.clone(), e)),
        }
    }
    if made.is_empty() {
        return Err(if left_out.is_empty() {
            ExportError::Nothing
        } else {
            ExportError::NothingInSchema(left_out)
        });
    }
    let bytes = zip.finish().map_err(ExportError::Zip)?;
    download_bytes(FILE, &bytes, "application/zip").map_err(ExportError::Download)?;
    let mut line = format!("Downloaded {FILE}: {}.", made.join(", "));
    if !left_out.is_empty() {
        line.push_str(&format!(" Left out: {}.", left_out.join("; ")));
    }
    Ok(line)
}
