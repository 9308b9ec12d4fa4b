//! The experiment page's files: exporting the open experiment (ZIP, CSV, JSONL) and
//! importing results (a ZIP or a JSONL of trial records), the ZIP entries and results
//! files the results page reads the same way, and a design or maze files loaded into the
//! form.

use super::super::download::{download_bytes, download_file};
use super::super::file_error::FileError;
use super::super::storage::{EXPERIMENTS, TRIALS};
use super::lab::{
    deflate_raw, form_with_stored_keys, now, open_experiment, refresh_list, report, stored_records,
    unreadable, Shared,
};
use super::lab_error::LabError;
use shapemaze_core::batch::design::ExperimentDesign;
use shapemaze_core::batch::export::{
    export_files, find_trials_entry, merge, parse_jsonl, trials_csv, trials_jsonl, ExportFile,
    EXPERIMENT_FILE,
};
use shapemaze_core::batch::form::{new_experiment_id, trials_prefix, StoredExperiment};
use shapemaze_core::batch::runner::sort_by_design;
use shapemaze_core::results::record::TrialRecord;
use shapemaze_core::results::zip::{read_zip, Method, ZipWriter};
use shapemaze_view::experiment::LabAction;

pub(super) async fn export(lab: &Shared, action: LabAction) {
    let Some((id, name, design)) = lab
        .open
        .borrow()
        .as_ref()
        .map(|o| (o.id.clone(), o.stored.name.clone(), o.stored.design.clone()))
    else {
        return;
    };
    let db = match lab.db() {
        Ok(db) => db,
        Err(e) => return lab.fail(e),
    };
    let mut records = match stored_records(&db, &id).await {
        Ok((r, bad)) => {
            if let Some(m) = unreadable(&bad) {
                lab.fail(format!("The export leaves them out: {m}"));
            }
            r
        }
        Err(e) => return lab.fail(format!("Could not read the trials to export: {e}")),
    };
    sort_by_design(&design, &mut records);
    let stem: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    let result = match action {
        LabAction::ExportCsv => {
            download_file(&format!("{stem}.csv"), &trials_csv(&records), "text/csv")
                .map_err(LabError::Download)
        }
        LabAction::ExportJsonl => {
            trials_jsonl(&records)
                .map_err(LabError::Jsonl)
                .and_then(|text| {
                    download_file(&format!("{stem}.jsonl"), &text, "application/jsonl")
                        .map_err(LabError::Download)
                })
        }
        _ => {
            lab.say("Preparing the ZIP…");
            // Where it ran, for the export's provenance.json: the browser's own description.
            let machine = web_sys::window()
                .and_then(|w| w.navigator().user_agent().ok())
                .map_or_else(|| "a browser".to_string(), |ua| format!("a browser: {ua}"));
            let mut export = match export_files(&design, &records, &machine) {
                Ok(e) => e,
                Err(e) => return lab.fail(format!("Could not build the ZIP: {e}")),
            };
            // People's readings of these trials, kept in this browser, go with them.
            let paths: Vec<String> = export.files.iter().map(|f| f.path.clone()).collect();
            match crate::review_state::reviews_of(&paths) {
                Ok(Some(text)) => export.files.push(ExportFile {
                    path: crate::review_state::REVIEWS_FILE.into(),
                    bytes: text.into_bytes(),
                }),
                Ok(None) => {}
                Err(e) => return lab.fail(LabError::Reviews(e)),
            }
            let mut w = ZipWriter::new();
            let mut result = Ok(());
            for f in &export.files {
                let added = match deflate_raw(&f.bytes, false).await {
                    Ok(d) => {
                        w.add_deflated(&f.path, &f.bytes, &js_sys::Uint8Array::new(&d).to_vec())
                    }
                    Err(_) => w.add_stored(&f.path, &f.bytes),
                };
                if let Err(e) = added {
                    result = Err(e);
                    break;
                }
            }
            match result.and_then(|()| w.finish()) {
                Ok(bytes) => {
                    lab.say(format!(
                        "Downloaded {stem}.zip: {} trials, {} files.",
                        records.len(),
                        export.files.len()
                    ));
                    download_bytes(&format!("{stem}.zip"), &bytes, "application/zip")
                        .map_err(LabError::Download)
                }
                Err(e) => Err(LabError::Zip(e)),
            }
        }
    };
    report(lab, result);
}

/// The text of a ZIP entry (inflated through the browser's stream when deflated), its
/// checksum checked.
pub(crate) async fn entry_text(
    entry: &shapemaze_core::results::zip::ZipEntry<'_>,
) -> Result<String, FileError> {
    let data = entry_bytes(entry).await?;
    String::from_utf8(data).map_err(|_| FileError::NotText(entry.name.clone()))
}

/// A ZIP entry's bytes, inflated by the browser and checked against its CRC.
pub(crate) async fn entry_bytes(
    entry: &shapemaze_core::results::zip::ZipEntry<'_>,
) -> Result<Vec<u8>, FileError> {
    let data = match entry.method {
        Method::Stored => entry.data.to_vec(),
        Method::Deflated => match deflate_raw(entry.data, true).await {
            Ok(d) => js_sys::Uint8Array::new(&d).to_vec(),
            Err(_) => return Err(FileError::NotInflated(entry.name.clone())),
        },
    };
    entry.check(&data).map_err(FileError::Zip)?;
    Ok(data)
}

/// The records of an exported ZIP or a `trials.jsonl`, with the design when the file
/// carries one (`experiment.json` beside `trials.jsonl`); an error naming the file (and
/// the line) when it is not one.
pub(crate) async fn read_results_file(
    name: &str,
    bytes: &[u8],
) -> Result<(Vec<TrialRecord>, Option<ExperimentDesign>), FileError> {
    if !bytes.starts_with(b"PK") {
        let text = std::str::from_utf8(bytes)
            .map_err(|_| FileError::NeitherZipNorText(name.to_string()))?;
        return parse_jsonl(name, text)
            .map(|r| (r, None))
            .map_err(FileError::Records);
    }
    let in_file = |e| FileError::inside(name, e);
    let entries = read_zip(bytes).map_err(|e| in_file(FileError::Zip(e)))?;
    let jsonl = find_trials_entry(&entries).ok_or_else(|| FileError::NoTrials(name.to_string()))?;
    let text = entry_text(jsonl).await.map_err(in_file)?;
    let records =
        parse_jsonl(&format!("{name}: {}", jsonl.name), &text).map_err(FileError::Records)?;
    let prefix = jsonl.name.trim_end_matches("trials.jsonl");
    let design = match entries
        .iter()
        .find(|e| e.name == format!("{prefix}{EXPERIMENT_FILE}"))
    {
        Some(e) => {
            let t = entry_text(e).await.map_err(in_file)?;
            Some(
                ExperimentDesign::from_json(&t)
                    .map_err(|err| in_file(FileError::inside(&e.name, FileError::Design(err))))?,
            )
        }
        None => None,
    };
    // People's readings of these trials, exported beside them: this browser keeps them.
    if let Some(e) = entries
        .iter()
        .find(|e| e.name == format!("{prefix}{}", crate::review_state::REVIEWS_FILE))
    {
        let t = entry_text(e).await.map_err(in_file)?;
        crate::review_state::take_in(&t)
            .map_err(|err| in_file(FileError::inside(&e.name, FileError::Reviews(err))))?;
    }
    Ok((records, design))
}

pub(super) async fn import(lab: &Shared, name: &str, bytes: &[u8]) {
    let db = match lab.db() {
        Ok(db) => db,
        Err(e) => return lab.fail(e),
    };
    let (records, design) = match read_results_file(name, bytes).await {
        Ok(x) => x,
        Err(e) => return lab.fail(e),
    };
    // Into the open experiment when its design holds these trials, else a new one.
    let open = lab
        .open
        .borrow()
        .as_ref()
        .map(|o| (o.id.clone(), o.stored.design.clone()));
    let fits = |d: &ExperimentDesign| d.holds_all(&records);
    // Into the open experiment only when the file ran the same design (or, without a
    // design, when its trials are the open design's, on its seed); a ZIP of another
    // design becomes an experiment of its own.
    let (id, is_new, design) = match (open, design) {
        (Some((id, d)), Some(f)) if fits(&d) && f.same_trials(&d) => (id, false, d),
        (Some((id, d)), None) if fits(&d) && records.iter().all(|r| r.seed == d.seed) => {
            (id, false, d)
        }
        (_, Some(d)) if fits(&d) => (new_experiment_id(now() as u64), true, d),
        (_, Some(_)) => {
            return lab.fail(format!(
                "{name}: some of its trials are not in its own experiment.json; nothing was imported."
            ))
        }
        _ => {
            return lab.fail(format!(
                "{name}: these trials belong to no open experiment. Open the experiment they came from first, or import the whole ZIP (it carries the design)."
            ))
        }
    };
    if let Some(why) = lab.busy() {
        return lab.fail(format!("Cannot import now. {why}"));
    }
    let existing = if is_new {
        Vec::new()
    } else {
        match stored_records(&db, &id).await {
            Ok((r, _)) => r,
            Err(e) => return lab.fail(e),
        }
    };
    let merged = merge(&existing, records);
    if is_new {
        let stored = StoredExperiment {
            name: if design.name.is_empty() {
                name.to_string()
            } else {
                design.name.clone()
            },
            created_ms: now() as u64,
            design: design.clone(),
        };
        let json = match stored.to_json() {
            Ok(json) => json,
            Err(e) => return lab.fail(format!("Could not keep the imported experiment: {e}")),
        };
        if let Err(e) = db.put(EXPERIMENTS, &id, &json).await {
            return lab.fail(format!("Could not keep the imported experiment: {e}"));
        }
    }
    let prefix = trials_prefix(&id);
    let entries: Result<Vec<(String, String)>, _> = merged
        .new
        .iter()
        .map(|r| {
            let key = format!(
                "{prefix}{}",
                shapemaze_core::batch::design::TrialKey::of_record(r).id()
            );
            r.to_json().map(|json| (key, json))
        })
        .collect();
    let entries = match entries {
        Ok(e) => e,
        Err(e) => {
            return lab.fail(format!(
                "Could not store the imported trials: {e}. Nothing was imported."
            ))
        }
    };
    if let Err(e) = db.put_all(TRIALS, &entries).await {
        return lab.fail(format!(
            "Could not store the imported trials: {e}. Nothing was imported."
        ));
    }
    let mut text = format!(
        "Imported {name}: {} new trials, {} already stored",
        merged.new.len(),
        merged.duplicates
    );
    if !merged.conflicts.is_empty() {
        text.push_str(&format!(
            ", {} that differ from the stored ones were skipped (the stored ones are kept): {}",
            merged.conflicts.len(),
            merged
                .conflicts
                .iter()
                .take(3)
                .map(|c| c.id.clone())
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    text.push('.');
    refresh_list(lab).await;
    if open_experiment(lab, &id).await {
        lab.say(text);
    }
}

/// Runs exactly the chosen `.npy` maze files (named as in the export layout) from now on.
pub(super) fn use_mazes(lab: &Shared, files: Vec<(String, Vec<u8>)>) {
    match shapemaze_core::batch::imported::mazes_from_files(&files) {
        Ok(mazes) => {
            let n = mazes.len();
            lab.supersede();
            lab.base.borrow_mut().mazes = Some(mazes);
            lab.fields.borrow_mut().mazes = Some(n.to_string());
            lab.draw_form();
            lab.say(format!(
                "{n} mazes read: a new experiment runs exactly these."
            ));
        }
        Err(e) => lab.fail(format!("The maze files cannot be used: {e}")),
    }
}

pub(super) fn load_design(lab: &Shared, name: &str, bytes: &[u8]) {
    let text = String::from_utf8_lossy(bytes);
    match ExperimentDesign::from_json(&text) {
        Ok(d) => {
            lab.supersede();
            *lab.fields.borrow_mut() = form_with_stored_keys(&d);
            *lab.base.borrow_mut() = d;
            lab.draw_form();
            lab.say(format!("Loaded the design in {name}: check it, then start it."));
        }
        Err(e) => lab.fail(format!(
            "{name} is not a design Shapemaze can run: {e}. Choose an experiment.json exported by this page or by shapemaze run."
        )),
    }
}
