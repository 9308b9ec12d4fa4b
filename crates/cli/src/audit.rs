//! `shapemaze score DIR --scoring original|recorded|all` (and `report --scoring`): the
//! audit of a results folder of the design's original runs (ORIGINAL_DATA.md). This file
//! walks the folder and reads its files; [`shapemaze_core::original::score::audit`] scores them three ways and
//! draws the tables, as it does for the results page.

use super::files::display;
use crate::io::{CliError, Io};
use shapemaze_core::maze::grid::Maze;
use shapemaze_core::original::audit::{
    audit_transcript, is_original_run, maze_file_path, read_maze_file, transcript_maze_file, Scored,
};
use shapemaze_core::original::audit::{Audited, Auditor, Scoring, Skipped};
use shapemaze_core::original::score::AuditCache;
use shapemaze_core::results::layout::MAZES_DIR;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

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
        io.out(&shapemaze_view::audit::render_text(&summary, scoring))
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
    fn read(&self, rel: &str) -> std::io::Result<Vec<u8>> {
        for dir in &self.found {
            let path = dir.join(rel);
            match std::fs::read(&path) {
                Ok(bytes) => return Ok(bytes),
                Err(e) if path.is_file() => {
                    return Err(std::io::Error::new(
                        e.kind(),
                        format!("{}: {e}", path.display()),
                    ))
                }
                Err(_) => {}
            }
        }
        let searched: Vec<String> = self
            .searched
            .iter()
            .map(|d| d.display().to_string())
            .collect();
        Err(std::io::Error::new(
            std::io::ErrorKind::NotFound,
            format!(
                "not found in {} (the folder given and each folder above it, searched for {MAZES_DIR}/)",
                searched.join(", ")
            ),
        ))
    }
}

/// Reads and scores three ways every transcript of `files` under `root` and every human
/// result file there. Transcripts are scored on every core the machine has (each thread
/// with its own caches) and taken in the order of `files`, so the audit is the same as
/// one thread's; human result files follow, one at a time.
pub fn collect(root: &Path, files: &[PathBuf], skipped: Vec<Skipped>) -> Audited {
    let mazes = Mazes::above(root);
    let mut auditor = Auditor::new();
    for s in skipped {
        auditor.skip(s.file, s.why);
    }
    let threads = std::thread::available_parallelism().map_or(1, usize::from);
    for scored in score_transcripts(root, files, &mazes, threads)
        .into_iter()
        .flatten()
    {
        auditor.add(scored);
    }
    for path in json_files(root) {
        let file = display(root, &path);
        if let Ok(text) = std::fs::read_to_string(&path) {
            auditor.human(file, &text, &mut |rel| mazes.read(rel));
        }
    }
    auditor.finish()
}

/// How many transcripts a thread takes at a time.
const BATCH: usize = 32;

/// Every transcript of `files` read and scored on up to `threads` threads, in the order of
/// `files` (`None` where a file gives nothing to count). Threads take batches of files in
/// turn until none is left.
fn score_transcripts(
    root: &Path,
    files: &[PathBuf],
    mazes: &Mazes,
    threads: usize,
) -> Vec<Option<Scored>> {
    let threads = threads.min(files.len().div_ceil(BATCH)).max(1);
    let next = AtomicUsize::new(0);
    let work = || {
        let mut scorer = Scorer::new(root, mazes);
        let mut done = Vec::new();
        loop {
            let start = next.fetch_add(BATCH, Ordering::Relaxed);
            if start >= files.len() {
                break;
            }
            for (i, path) in files.iter().enumerate().skip(start).take(BATCH) {
                done.push((i, scorer.score(path)));
            }
        }
        done
    };
    let mut out: Vec<Option<Scored>> = Vec::with_capacity(files.len());
    out.resize_with(files.len(), || None);
    let parts = if threads == 1 {
        vec![work()]
    } else {
        std::thread::scope(|s| {
            let handles: Vec<_> = (0..threads).map(|_| s.spawn(work)).collect();
            handles
                .into_iter()
                .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
                .collect()
        })
    };
    for (i, scored) in parts.into_iter().flatten() {
        out[i] = scored;
    }
    out
}

/// One thread's scorer: its caches of template libraries and families, and of the maze
/// files read (many trials play the same maze).
struct Scorer<'a> {
    root: &'a Path,
    mazes: &'a Mazes,
    cache: AuditCache,
    maze_files: HashMap<String, Option<Maze>>,
}

impl<'a> Scorer<'a> {
    fn new(root: &'a Path, mazes: &'a Mazes) -> Self {
        Self {
            root,
            mazes,
            cache: AuditCache::new(),
            maze_files: HashMap::new(),
        }
    }

    /// Reads and scores one transcript.
    fn score(&mut self, path: &Path) -> Option<Scored> {
        let file = display(self.root, path);
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) => {
                return Some(Scored::Skipped(Skipped {
                    file,
                    why: format!("cannot be read as text: {e}"),
                }))
            }
        };
        // The maze the run played, from experiment_mazes/ when the folder or one above it
        // has it (the transcript's folder is named after its maze file).
        let maze = transcript_maze_file(&file)
            .and_then(|name| maze_file_path(name).ok())
            .and_then(|(_, rel)| {
                let mazes = self.mazes;
                self.maze_files
                    .entry(rel)
                    .or_insert_with_key(|rel| {
                        let bytes = mazes.read(rel).ok()?;
                        read_maze_file(rel, &bytes).ok()
                    })
                    .clone()
            });
        audit_transcript(&mut self.cache, file, &text, maze)
    }
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
            .and_then(|t| shapemaze_core::original::human::parse_human(&t).ok())
            .is_some_and(|h| !h.participant_id.is_empty() && !h.maze_file.is_empty())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use shapemaze_core::maze::encoding::Encoding;
    use shapemaze_core::original::audit::Scoring;

    const SQUARE: &str = "P 0 G 0 0\n0 1 1 1 0\n0 1 1 1 0\n0 1 1 1 0\n0 0 0 0 0";
    const MOVED: &str = "0 P G 0 0\n0 1 1 1 0\n0 1 1 1 0\n0 1 1 1 0\n0 0 0 0 0";
    const NEW_SQUARE: &str = "G 0 0 0 0\n0 1 1 1 0\n0 1 1 1 0\n0 1 1 1 0\n0 0 0 0 P";

    /// An original transcript on the square: `first` and `second` are the two replies,
    /// `combined` the reply to the combined prompt.
    fn transcript(first: &str, second: &str, combined: &str, solve: &str) -> String {
        format!(
            "You are tasked with solving a maze. You can move up, down, left, or right.\nHere is the maze you should solve:\n\n{SQUARE}\n\nPlease provide the coordinates of your next move.{first}\n\nHere is the current state of the maze after your latest move:\n\n{MOVED}\n\nPlease provide the coordinates of your next move.\n{second}\n\nSOLVE: {solve}\nFor the maze you were tasked to solve, please provide:\n* A new maze of the same shape.\n* The general shape formed by its empty spaces (corridors) is recognizable as \"{{shape}}\".\n{combined}\n\nRECOGNIZE: SUCCESS\n\nGENERATE: SUCCESS\n"
        )
    }

    /// A results folder of many kinds of files: solves, divergences, quoted mazes, API
    /// failures, stray files, a file that is not text, and maze files for some mazes.
    fn folder(root: &Path) -> Vec<PathBuf> {
        let write = |rel: &str, bytes: &[u8]| {
            let path = root.join(rel);
            std::fs::create_dir_all(path.parent().expect("a folder")).expect("folder made");
            std::fs::write(&path, bytes).expect("file written");
            path
        };
        let grid = Encoding::Matrix
            .parse_grid(SQUARE, 5, 5)
            .expect("the square reads");
        for i in [0, 2] {
            write(
                &format!("experiment_mazes/5x5/square/5x5_square_{i}.npy"),
                &shapemaze_core::maze::npy::write(&grid),
            );
        }
        let kinds = [
            transcript("(0, 1)", "(0, 2)", &format!("A square:\n{NEW_SQUARE}"), "SUCCESS"),
            transcript("(0, 1)", "Move to (0, 2), moving from (0, 1).", "Not a square.", "FAIL"),
            transcript("(0, 1)", "(0, 2)", &format!("A box. Here:\n{SQUARE}"), "SUCCESS"),
            transcript("(0, 1)", "(0, 2)", "A square.", "SUCCESS").replace('\n', "\r\n"),
            "Query did not run: x.npy\nError: timeout\n\nSOLVE: FAIL\n\nRECOGNIZE: FAIL\n\nGENERATE: FAIL\n".to_string(),
            "notes, not a transcript".to_string(),
        ];
        let mut files = Vec::new();
        for k in 0..150 {
            let rel = format!(
                "matrix_m{}_results/5x5/square/5x5_square_{}.npy/{k}.txt",
                k % 2,
                k % 5
            );
            files.push(write(&rel, kinds[k % kinds.len()].as_bytes()));
        }
        files.push(write("matrix_m0_results/metadata.txt", b"mazes: 5"));
        files.push(write(
            "matrix_m0_results/5x5/square/5x5_square_1.npy/bad.txt",
            &[0xff, 0xfe, 0x00],
        ));
        files.sort();
        files
    }

    #[test]
    fn transcripts_scored_on_several_threads_give_the_audit_of_one_at_a_time() {
        let root = std::env::temp_dir().join(format!(
            "shapemaze-cli-audit-threads-{}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&root);
        let files = folder(&root);
        // One at a time, as the audit always read them: each file read, its maze looked
        // up, and the transcript given to one auditor.
        let mazes = Mazes::above(&root);
        let mut auditor = Auditor::new();
        for path in &files {
            let file = display(&root, path);
            match std::fs::read_to_string(path) {
                Ok(text) => {
                    let maze = transcript_maze_file(&file)
                        .and_then(|name| maze_file_path(name).ok())
                        .and_then(|(_, rel)| read_maze_file(&rel, &mazes.read(&rel).ok()?).ok());
                    auditor.transcript(file, &text, maze);
                }
                Err(e) => auditor.skip(file, format!("cannot be read as text: {e}")),
            }
        }
        let json = |a: Audited| {
            serde_json::to_string(&a.summarize("runs", Scoring::All)).expect("serializes")
        };
        let one = json(auditor.finish());
        for threads in [1, 2, 3, 8] {
            let mut auditor = Auditor::new();
            for scored in score_transcripts(&root, &files, &mazes, threads)
                .into_iter()
                .flatten()
            {
                auditor.add(scored);
            }
            assert!(one == json(auditor.finish()), "{threads} threads");
        }
        let audited = collect(&root, &files, Vec::new());
        assert_eq!(
            audited.trials.len(),
            125,
            "every transcript but the stray ones"
        );
        assert!(
            audited
                .trials
                .iter()
                .any(|t| t.maze_from == "experiment_mazes")
                && audited.trials.iter().any(|t| t.maze_from == "prompt"),
            "mazes from the folder's maze files and from the prompts"
        );
        assert!(
            audited
                .skipped
                .iter()
                .any(|s| s.why.starts_with("cannot be read as text")),
            "{:?}",
            audited.skipped
        );
        assert!(one == json(audited), "collect gives the same audit");
        let _ = std::fs::remove_dir_all(&root);
    }
}
