//! What `/results` imports: an exported ZIP or `trials.jsonl` (records), a results folder
//! of transcripts (chosen as a folder or zipped), or a folder of the design's original runs
//! (audited three ways), each read into one [`Source`].

use super::dashboard::Source;
use crate::experiment::files::{entry_bytes, read_results_file};
use crate::file_error::FileError;
use shapemaze_core::analysis::observation::Observation;
use shapemaze_core::batch::export::find_trials_entry;
use shapemaze_core::batch::provenance::{Provenance, PROVENANCE_FILE};
use shapemaze_core::maze::npy;
use shapemaze_core::original::audit::{
    is_original_run, maze_file_path, read_maze_file, transcript_maze_file, Auditor, Scoring,
};
use shapemaze_core::results::rescore::Libraries;
use shapemaze_core::results::rescore::{image_maze_file, Hints};
use shapemaze_core::results::zip::read_zip;
use std::rc::Rc;

/// An imported source: an exported ZIP or `trials.jsonl` (records), or a results folder
/// of transcripts, chosen as a folder or zipped (each transcript re-scored, or counted
/// from its closing lines, as `shapemaze report` does).
pub(super) async fn read_import(files: Vec<(String, Vec<u8>)>) -> Result<Source, FileError> {
    let first = files[0].0.clone();
    let folder = first.split('/').next().unwrap_or(&first).to_string();
    // One export: a trials.jsonl (alone or in the chosen folder), or a ZIP holding one.
    let export = match files.iter().find(|(n, _)| n.ends_with("trials.jsonl")) {
        Some(f) => Some(f),
        None if files.len() == 1
            && !(files[0].1.starts_with(b"PK") && zip_without_records(&files[0].1)) =>
        {
            files.first()
        }
        None => None,
    };
    if let Some((name, bytes)) = export {
        let (records, design) = read_results_file(name, bytes).await?;
        let provenance = provenance_of(&files, name, bytes).await.map(Rc::new);
        let label = design
            .map(|d| d.name)
            .filter(|n| !n.is_empty())
            .unwrap_or_else(|| name.clone());
        return Ok(Source {
            label,
            id: None,
            records,
            people: Vec::new(),
            transcripts: Vec::new(),
            audit: None,
            provenance,
            chosen: true,
        });
    }
    // A results folder: the files of a chosen folder, or the entries of a zipped folder.
    let mut texts: Vec<(String, String)> = Vec::new();
    let mut jsons: Vec<(String, String)> = Vec::new();
    let mut mazes: Vec<(String, Vec<u8>)> = Vec::new();
    let mut keep = |name: &str, bytes: Vec<u8>| {
        if name.ends_with(".txt") {
            texts.push((
                name.to_string(),
                String::from_utf8_lossy(&bytes).into_owned(),
            ));
        } else if name.ends_with(".npy") && name.contains("experiment_mazes/") {
            mazes.push((name.to_string(), bytes));
        } else if name.ends_with(".json") && !name.contains("experiment_mazes/") {
            jsons.push((
                name.to_string(),
                String::from_utf8_lossy(&bytes).into_owned(),
            ));
        }
    };
    for (name, bytes) in files {
        if bytes.starts_with(b"PK") {
            let entries =
                read_zip(&bytes).map_err(|e| FileError::inside(&name, FileError::Zip(e)))?;
            for e in entries.iter().filter(|e| {
                e.name.ends_with(".txt") || e.name.ends_with(".npy") || e.name.ends_with(".json")
            }) {
                let data = entry_bytes(e)
                    .await
                    .map_err(|err| FileError::inside(&name, err))?;
                keep(&e.name, data);
            }
        } else {
            keep(&name, bytes);
        }
    }
    // The design's original runs (or the original page's human files) are audited three
    // ways; the analysis uses the strict verdicts, as `shapemaze report` does.
    if is_original_run(texts.iter().map(|(_, t)| t)) || (texts.is_empty() && !jsons.is_empty()) {
        if let Some(source) = audit_folder(&folder, &texts, &jsons, &mazes) {
            return Ok(source);
        }
    }
    if texts.is_empty() {
        return Err(FileError::NoResults(first));
    }
    let mut libraries = Libraries::new();
    let mut transcripts = Vec::new();
    for (path, text) in &texts {
        // A maze shown only as an image is read from its own run's maze file.
        let maze = image_maze_file(path, text)
            .and_then(|file| mazes.iter().find(|(n, _)| *n == file))
            .and_then(|(_, bytes)| npy::read(bytes).ok());
        let known = Hints {
            maze,
            ..Hints::default()
        };
        if let Ok((o, _)) = Observation::from_transcript(&folder, path, text, known, &mut libraries)
        {
            transcripts.push(o);
        }
    }
    if transcripts.is_empty() {
        return Err(FileError::NoTranscripts(first, texts.len()));
    }
    Ok(Source {
        label: format!("{folder} (transcripts)"),
        id: None,
        records: Vec::new(),
        people: Vec::new(),
        transcripts,
        audit: None,
        provenance: None,
        chosen: true,
    })
}

/// The audit of a folder of the design's original runs: every transcript and human file
/// scored three ways, the mazes read from the folder's `experiment_mazes/` where it has
/// them; `None` when nothing in it could be audited.
fn audit_folder(
    folder: &str,
    texts: &[(String, String)],
    jsons: &[(String, String)],
    mazes: &[(String, Vec<u8>)],
) -> Option<Source> {
    // The maze files by their full names.
    let by_name: std::collections::HashMap<&str, &[u8]> = mazes
        .iter()
        .map(|(n, b)| (n.as_str(), b.as_slice()))
        .collect();
    // A maze file `rel` (`experiment_mazes/…`) under `root` (a prefix ending in `/`, or
    // empty); failing that, the one file of that name anywhere in the import, when there is
    // exactly one.
    let find = |root: &str, rel: &str| -> Option<Vec<u8>> {
        if let Some(b) = by_name.get(format!("{root}{rel}").as_str()) {
            return Some(b.to_vec());
        }
        let tail = format!("/{rel}");
        let mut hits = mazes.iter().filter(|(n, _)| n == rel || n.ends_with(&tail));
        match (hits.next(), hits.next()) {
            (Some((_, b)), None) => Some(b.clone()),
            _ => None,
        }
    };
    let mut auditor = Auditor::new();
    for (path, text) in texts {
        let rel = path.strip_prefix(&format!("{folder}/")).unwrap_or(path);
        // The run's own root: what stands before its `…_results/` folder.
        let root = path.find("_results/").map_or("", |at| {
            path[..at].rfind('/').map_or("", |slash| &path[..=slash])
        });
        let maze = transcript_maze_file(rel)
            .and_then(|name| maze_file_path(name).ok())
            .and_then(|(_, m)| read_maze_file(&m, &find(root, &m)?).ok());
        auditor.transcript(rel.to_string(), text, maze);
    }
    for (path, text) in jsons {
        let rel = path.strip_prefix(&format!("{folder}/")).unwrap_or(path);
        let root = format!("{folder}/");
        auditor.human(rel.to_string(), text, &mut |m| {
            find(&root, m).ok_or_else(|| std::io::Error::other("not in the folder"))
        });
    }
    let audited = auditor.finish();
    if audited.is_empty() {
        return None;
    }
    let label = format!("{folder} (original runs)");
    let (transcripts, _, _) = audited.observations(&label, Scoring::All);
    Some(Source {
        audit: Some(Rc::new(audited.summarize(folder, Scoring::All))),
        label,
        id: None,
        records: Vec::new(),
        people: Vec::new(),
        transcripts,
        provenance: None,
        chosen: true,
    })
}

/// The `provenance.json` beside an export's `trials.jsonl`: in the chosen folder, or in the
/// ZIP. One that does not read is left out (the records still are).
async fn provenance_of(
    files: &[(String, Vec<u8>)],
    name: &str,
    bytes: &[u8],
) -> Option<Provenance> {
    let beside = format!("{}{PROVENANCE_FILE}", name.trim_end_matches("trials.jsonl"));
    let text = if bytes.starts_with(b"PK") {
        let entries = read_zip(bytes).ok()?;
        let jsonl = find_trials_entry(&entries)?;
        let wanted = format!(
            "{}{PROVENANCE_FILE}",
            jsonl.name.trim_end_matches("trials.jsonl")
        );
        let entry = entries.iter().find(|e| e.name == wanted)?;
        String::from_utf8(entry_bytes(entry).await.ok()?).ok()?
    } else {
        let (_, b) = files.iter().find(|(n, _)| *n == beside)?;
        String::from_utf8(b.clone()).ok()?
    };
    Provenance::from_json(&text).ok()
}

/// Whether a ZIP holds no trials.jsonl (a zipped results folder of transcripts).
fn zip_without_records(bytes: &[u8]) -> bool {
    read_zip(bytes).is_ok_and(|entries| find_trials_entry(&entries).is_none())
}
