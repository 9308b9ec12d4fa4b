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

use super::download::download_bytes;
use super::experiment::lab::stored_records;
use super::results::Source;
use super::storage::{Db, EXPERIMENTS};
use shapemaze_core::batch::form::StoredExperiment;
use shapemaze_core::batch::provenance::Provenance;
use shapemaze_core::exchange::every_eval_ever::{export_files, ExchangeError};
use shapemaze_core::results::record::TrialRecord;
use shapemaze_core::results::zip::ZipWriter;

/// The file the export downloads as.
pub(super) const FILE: &str = "every-eval-ever.zip";

/// This browser, as a provenance names the machine.
fn machine() -> String {
    web_sys::window()
        .and_then(|w| w.navigator().user_agent().ok())
        .map_or_else(|| "a browser".to_string(), |ua| format!("a browser: {ua}"))
}

/// A stored experiment's records and provenance (made from its stored design).
async fn stored(db: &Db, id: &str) -> Result<(Vec<TrialRecord>, Provenance), String> {
    let (records, _unreadable) = stored_records(db, id).await?;
    let text = db
        .get(EXPERIMENTS, id)
        .await
        .map_err(|e| e.to_string())?
        .ok_or_else(|| "its design is no longer stored".to_string())?;
    let design = StoredExperiment::from_json(&text)
        .map_err(|e| format!("its stored design does not read: {e}"))?
        .design;
    let provenance = Provenance::of(&design, &records, &machine())
        .map_err(|e| format!("its provenance cannot be written: {e}"))?;
    Ok((records, provenance))
}

/// Builds the ZIP of the chosen `sources` and downloads it; the sentence to show, or why
/// nothing was exported.
pub(super) async fn download(sources: Vec<Source>) -> Result<String, String> {
    let db = if sources.iter().any(|s| s.id.is_some()) {
        Some(Db::open().await.map_err(|e| e.to_string())?)
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
                        .map_err(|e| format!("The ZIP cannot be written: {e}"))?;
                }
                made.push(format!("{} ({} models)", s.label, export.models.len()));
            }
            Err(ExchangeError::NoTrials) => {
                left_out.push(format!("{} (no model's trials)", s.label));
            }
            Err(e) => return Err(format!("{}: {e}", s.label)),
        }
    }
    if made.is_empty() {
        return Err(if left_out.is_empty() {
            "Nothing to export: choose or import an experiment.".into()
        } else {
            format!(
                "Nothing to export in the Every Eval Ever schema: {}.",
                left_out.join("; ")
            )
        });
    }
    let bytes = zip
        .finish()
        .map_err(|e| format!("The ZIP cannot be written: {e}"))?;
    download_bytes(FILE, &bytes, "application/zip")?;
    let mut line = format!("Downloaded {FILE}: {}.", made.join(", "));
    if !left_out.is_empty() {
        line.push_str(&format!(" Left out: {}.", left_out.join("; ")));
    }
    Ok(line)
}
