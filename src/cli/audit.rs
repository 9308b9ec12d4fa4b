//! `shapemaze score DIR --scoring original|recorded|all` (and `report --scoring`): the
//! audit of a results folder of the design's original runs (ORIGINAL_DATA.md). This file
//! walks the folder and reads its files; [`crate::core::audit`] scores them three ways and
//! draws the tables, as it does for the results page.

use super::report::display;
use super::{CliError, Io};
use crate::core::audit::{is_original_run, maze_file_path, read_maze_file, transcript_maze_file};
pub use crate::core::audit::{Audited, Auditor, Scoring, Skipped};
use crate::core::layout::MAZES_DIR;
use std::path::{Path, PathBuf};

/// Reads `--scoring`.
pub fn parse_scoring(s: &str) -> Result<Scoring, CliError> {
    Scoring::parse(s).map_err(CliError::usage)
}

/// Whether `files` are a folder of the original runs: none carries our message markers and
/// at least one reads as an original transcript.
pub fn is_original_folder(files: &[PathBuf]) -> bool {
    is_original_run(files.iter().filter_map(|f| std::fs::read_to_string(f).ok()))
}

/// The scoring a folder gets when none is asked for: `all` for the original code's
/// results (transcripts, or only its human result files), else `strict`.
pub(super) fn default_scoring(root: &Path, files: &[PathBuf]) -> Scoring {
    if is_original_folder(files) || (files.is_empty() && has_human_files(root)) {
        Scoring::All
    } else {
        Scoring::Strict
    }
}

/// Runs the audit over `files` under `root` and prints it.
pub(super) fn run(
    dir: &str,
    root: &Path,
    files: &[PathBuf],
    skipped: Vec<Skipped>,
    scoring: Scoring,
    json: bool,
    io: &mut Io<'_>,
) -> Result<(), CliError> {
    let summary = collect(root, files, skipped).summarize(dir, scoring);
    if json {
        io.json_line(&summary)
    } else {
        io.out(&crate::core::audit::render_text(&summary, scoring))
    }
}

/// Where the maze files of a folder's trials are looked up: `experiment_mazes/` in the
/// folder and in each folder above it, nearest first, so a run's `human_results/` or one
/// of its `…_results/` folders given on its own finds the mazes beside it.
struct Mazes {
    /// The folders looked in, nearest first.
    searched: Vec<PathBuf>,
    /// Those of them that hold an `experiment_mazes/` folder.
    found: Vec<PathBuf>,
}

impl Mazes {
    /// The folders for the files under `root` (a folder, or a file: then its folder).
    fn above(root: &Path) -> Self {
        let dir = if root.is_file() {
            root.parent().filter(|p| !p.as_os_str().is_empty())
        } else {
            Some(root)
        }
        .unwrap_or(Path::new("."));
        let dir = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
        let searched: Vec<PathBuf> = dir.ancestors().map(Path::to_path_buf).collect();
        let found = searched
            .iter()
            .filter(|d| d.join(MAZES_DIR).is_dir())
            .cloned()
            .collect();
        Self { searched, found }
    }

    /// The file at `rel` (`experiment_mazes/…`, as [`maze_file_path`] names it) from the
    /// nearest folder that has it; when none has it, which folders were searched.
    fn read(&self, rel: &str) -> Result<Vec<u8>, String> {
        for dir in &self.found {
            let path = dir.join(rel);
            match std::fs::read(&path) {
                Ok(bytes) => return Ok(bytes),
                Err(e) if path.is_file() => return Err(format!("{}: {e}", path.display())),
                Err(_) => {}
            }
        }
        let searched: Vec<String> = self
            .searched
            .iter()
            .map(|d| d.display().to_string())
            .collect();
        Err(format!(
            "not found in {} (the folder given and each folder above it, searched for {MAZES_DIR}/)",
            searched.join(", ")
        ))
    }
}

/// Reads and scores three ways every transcript of `files` under `root` and every human
/// result file there.
pub(super) fn collect(root: &Path, files: &[PathBuf], skipped: Vec<Skipped>) -> Audited {
    let mazes = Mazes::above(root);
    let mut auditor = Auditor::new();
    for s in skipped {
        auditor.skip(s.file, s.why);
    }
    for path in files {
        let file = display(root, path);
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) => {
                auditor.skip(file, format!("cannot be read as text: {e}"));
                continue;
            }
        };
        // The maze the run played, from experiment_mazes/ when the folder or one above it
        // has it (the transcript's folder is named after its maze file).
        let maze = transcript_maze_file(&file)
            .and_then(|name| maze_file_path(name).ok())
            .and_then(|(_, rel)| {
                let bytes = mazes.read(&rel).ok()?;
                read_maze_file(&rel, &bytes).ok()
            });
        auditor.transcript(file, &text, maze);
    }
    for path in json_files(root) {
        let file = display(root, &path);
        if let Ok(text) = std::fs::read_to_string(&path) {
            auditor.human(file, &text, &mut |rel| mazes.read(rel));
        }
    }
    auditor.finish()
}

/// Every `*.json` below `root` outside `experiment_mazes/`, sorted.
fn json_files(root: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut pending = vec![root.to_path_buf()];
    while let Some(dir) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                if entry.file_name() != "experiment_mazes" {
                    pending.push(path);
                }
            } else if path.extension().is_some_and(|e| e == "json") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// Whether `root` holds human result files of the original page.
pub fn has_human_files(root: &Path) -> bool {
    json_files(root).iter().any(|f| {
        std::fs::read_to_string(f)
            .ok()
            .and_then(|t| crate::core::original::parse_human(&t).ok())
            .is_some_and(|h| !h.participant_id.is_empty() && !h.maze_file.is_empty())
    })
}
