//! `shapemaze score DIR --scoring original|recorded|all`: the audit of a results folder of
//! the design's original runs (ORIGINAL_DATA.md), each transcript scored three ways by
//! [`crate::core::original`], with the named cause of every strict/original difference
//! counted per model x encoding x shape.

use super::report::{display, Skipped};
use super::{CliError, Io};
use crate::core::analysis::Observation;
use crate::core::encoding::Encoding;
use crate::core::grid::Maze;
use crate::core::layout::ExportPath;
use crate::core::npy;
use crate::core::original::{
    self, audit_human, parse_human, AuditCache, Cause, Difference, Mark, Marks,
};
use crate::core::rescore::Hints;
use crate::core::shape::Shape;
use crate::core::tally::UNKNOWN;
use crate::core::transcript::{ASSISTANT_MARKER, USER_MARKER};
use crate::core::verify::Outcome;
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// Which verdicts `score` shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scoring {
    /// Today's verifiers (the default on our own folders).
    Strict,
    /// The original checks.
    Original,
    /// The verdict lines as written.
    Recorded,
    /// All three side by side (the default on folders of the original runs).
    All,
}

impl Scoring {
    /// Reads `strict`, `original`, `recorded` or `all`.
    pub fn parse(s: &str) -> Result<Scoring, CliError> {
        match s {
            "strict" => Ok(Scoring::Strict),
            "original" => Ok(Scoring::Original),
            "recorded" => Ok(Scoring::Recorded),
            "all" => Ok(Scoring::All),
            other => Err(CliError::usage(format!(
                "unknown scoring '{other}': choose strict, original, recorded or all"
            ))),
        }
    }

    pub(super) fn name(self) -> &'static str {
        match self {
            Scoring::Strict => "strict",
            Scoring::Original => "original",
            Scoring::Recorded => "recorded",
            Scoring::All => "all",
        }
    }
}

/// Whether a text reads as a transcript of the original code (its first prompt, a vision
/// prompt or an API-failure file).
pub fn looks_original(text: &str) -> bool {
    let t = text.trim_start();
    t.starts_with(original::FIRST_PROMPT_START)
        || t.starts_with(original::VISION_START)
        || t.starts_with(original::QUERY_FAILED)
        || t.starts_with(original::ERROR_LINE)
}

fn marked(text: &str) -> bool {
    text.lines()
        .any(|l| l.trim_end() == USER_MARKER || l.trim_end() == ASSISTANT_MARKER)
}

/// Whether `files` are a folder of the original runs: none carries our message markers and
/// at least one reads as an original transcript.
pub fn is_original_folder(files: &[PathBuf]) -> bool {
    let mut any = false;
    for f in files {
        let Ok(text) = std::fs::read_to_string(f) else {
            continue;
        };
        if marked(&text) {
            return false;
        }
        any |= looks_original(&text);
    }
    any
}

/// Where a transcript lies: model, encoding (none for vision), shape and size.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Place {
    model: String,
    encoding: Option<Encoding>,
    shape: Option<Shape>,
    size: Option<(usize, usize)>,
}

/// Reads `{encoding}_{model}_results/…` or `{model}_vision_results/…` paths.
fn place(rel: &str) -> Option<Place> {
    if let Some(p) = ExportPath::parse(rel) {
        return Some(Place {
            model: p.model,
            encoding: Some(p.encoding),
            shape: Some(p.shape),
            size: Some((p.rows, p.cols)),
        });
    }
    let parts: Vec<&str> = rel.split('/').collect();
    let [.., results, size, shape, maze, _trial] = parts[..] else {
        return None;
    };
    let model = results.strip_suffix("_vision_results")?;
    let (r, c) = size.split_once('x')?;
    if !maze.ends_with(".npy") {
        return None;
    }
    Some(Place {
        model: model.to_string(),
        encoding: None,
        shape: Shape::parse(shape).ok(),
        size: Some((r.parse().ok()?, c.parse().ok()?)),
    })
}

/// One trial of the audit, as `--format json` lists it (docs/CONTRACT.md).
#[derive(Serialize)]
struct TrialRow {
    file: String,
    /// Where the trial's maze was read: `experiment_mazes` (the folder's maze file) or
    /// `prompt` (the first prompt's maze); human result files name their maze file.
    maze_from: &'static str,
    model: String,
    encoding: Option<Encoding>,
    shape: Option<Shape>,
    size: Option<(usize, usize)>,
    api_error: bool,
    vision: bool,
    recorded: Marks,
    strict: Marks,
    original: Marks,
    causes: Vec<Cause>,
    differences: Vec<Difference>,
    diverged_at: Option<usize>,
    human: bool,
    duplicate: bool,
}

/// One scorer's counts for one phase.
#[derive(Clone, Copy, Debug, Default, Serialize)]
struct Tally {
    success: usize,
    fail: usize,
    diverged: usize,
    unavailable: usize,
}

impl Tally {
    fn add(&mut self, m: Option<Mark>) {
        match m {
            Some(Mark::Success) => self.success += 1,
            Some(Mark::Fail) => self.fail += 1,
            Some(Mark::Diverged) => self.diverged += 1,
            None => self.unavailable += 1,
        }
    }

    fn cell(&self) -> String {
        let scored = self.success + self.fail;
        let mut out = format!("{}/{}", self.success, scored);
        if self.diverged > 0 {
            let _ = write!(out, " ~{}", self.diverged);
        }
        out
    }
}

/// A group's counts: per scorer (recorded, strict, original), per phase.
#[derive(Clone, Debug, Default, Serialize)]
struct GroupRow {
    group: String,
    trials: usize,
    api_errors: usize,
    recorded: [Tally; 3],
    strict: [Tally; 3],
    original: [Tally; 3],
}

impl GroupRow {
    fn add(&mut self, t: &TrialRow) {
        self.trials += 1;
        self.api_errors += usize::from(t.api_error);
        for i in 0..3 {
            self.recorded[i].add(t.recorded.as_array()[i]);
            self.strict[i].add(t.strict.as_array()[i]);
            self.original[i].add(t.original.as_array()[i]);
        }
    }
}

/// A cause's count in one group.
#[derive(Serialize)]
struct CauseRow {
    group: String,
    phase: &'static str,
    cause: Cause,
    count: usize,
}

#[derive(Serialize)]
struct AuditReport<'a> {
    dir: &'a str,
    scoring: &'static str,
    transcripts: usize,
    api_errors: usize,
    groups: Vec<GroupRow>,
    causes: Vec<CauseRow>,
    skipped: usize,
    skipped_files: Vec<Skipped>,
    trials: Vec<TrialRow>,
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
    let audited = collect(root, files, skipped);
    let report = summarize(dir, scoring, audited);
    if json {
        io.json_line(&report)
    } else {
        io.out(&render_text(&report, scoring))
    }
}

/// The audit's trials and the files it skipped.
pub(super) struct Audited {
    trials: Vec<TrialRow>,
    skipped: Vec<Skipped>,
}

/// Reads and scores three ways every transcript of `files` under `root` and every human
/// result file there.
pub(super) fn collect(root: &Path, files: &[PathBuf], mut skipped: Vec<Skipped>) -> Audited {
    let mut cache = AuditCache::new();
    let mut trials = Vec::with_capacity(files.len());
    for path in files {
        let file = display(root, path);
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) => {
                skipped.push(Skipped {
                    file,
                    why: format!("cannot be read as text: {e}"),
                });
                continue;
            }
        };
        let place = place(&file);
        let own = marked(&text);
        if !own && (place.is_none() || !looks_original(&text)) {
            let why = if place.is_none() {
                "stray file beside the shape folders (not in the results layout)"
            } else {
                "not a transcript of the original code"
            };
            skipped.push(Skipped {
                file,
                why: why.into(),
            });
            continue;
        }
        let place = place.unwrap_or(Place {
            model: UNKNOWN.into(),
            encoding: None,
            shape: None,
            size: None,
        });
        let hints = Hints {
            encoding: place.encoding,
            shape: place.shape,
            size: place.size,
        };
        // The maze the run played, from the folder's experiment_mazes/ when it has it
        // (the transcript's folder is named after its maze file).
        let maze_file = path
            .parent()
            .and_then(|p| p.file_name())
            .map(|n| n.to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".npy"))
            .and_then(|n| human_maze(root, &n).ok())
            .map(|(_, m)| m);
        let maze_from = if maze_file.is_some() {
            "experiment_mazes"
        } else {
            "prompt"
        };
        let parsed = if own {
            match original::from_marked(&text, hints.encoding) {
                Some(t) => t,
                None => continue,
            }
        } else {
            original::parse(&text)
        };
        let a = original::audit_on(&parsed, &hints, &mut cache, maze_file);
        trials.push(TrialRow {
            file,
            maze_from,
            model: place.model,
            encoding: a.encoding,
            shape: a.shape,
            size: a.size.or(place.size),
            api_error: a.api_error,
            vision: a.vision,
            recorded: a.recorded,
            strict: a.strict,
            original: a.original,
            causes: a.causes.iter().map(|d| d.cause).collect(),
            differences: a.causes.clone(),
            diverged_at: a.diverged_at,
            human: false,
            duplicate: false,
        });
    }
    humans(root, &mut cache, &mut trials, &mut skipped);
    skipped.sort_by(|a, b| a.file.cmp(&b.file));
    Audited { trials, skipped }
}

/// The audit's tables: per group and scorer, and the causes of the differences.
fn summarize<'a>(dir: &'a str, scoring: Scoring, audited: Audited) -> AuditReport<'a> {
    let Audited { trials, skipped } = audited;
    let mut groups: BTreeMap<String, GroupRow> = BTreeMap::new();
    let mut causes: BTreeMap<(String, usize, Cause), usize> = BTreeMap::new();
    let mut all = GroupRow {
        group: "all".into(),
        ..GroupRow::default()
    };
    for t in &trials {
        let key = format!(
            "{} {} {}",
            t.model,
            t.encoding
                .map_or(if t.human { "page" } else { "vision" }, Encoding::name),
            t.shape.map_or("unknown", Shape::name)
        );
        all.add(t);
        groups
            .entry(key.clone())
            .or_insert_with(|| GroupRow {
                group: key.clone(),
                ..GroupRow::default()
            })
            .add(t);
        for d in &t.differences {
            *causes
                .entry((key.clone(), phase_index(d.phase), d.cause))
                .or_default() += 1;
        }
    }
    let mut group_rows = vec![all];
    group_rows.extend(groups.into_values());
    AuditReport {
        dir,
        scoring: scoring.name(),
        transcripts: trials.len(),
        api_errors: trials.iter().filter(|t| t.api_error).count(),
        groups: group_rows,
        causes: causes
            .into_iter()
            .map(|((group, phase, cause), count)| CauseRow {
                group,
                phase: PHASES[phase],
                cause,
                count,
            })
            .collect(),
        skipped: skipped.len(),
        skipped_files: skipped,
        trials,
    }
}

/// The audit printed as text (the tables `score --scoring` prints).
pub(super) fn audit_text(dir: &str, scoring: Scoring, audited: Audited) -> String {
    render_text(&summarize(dir, scoring, audited), scoring)
}

/// The audit as JSON (what `score --scoring --format json` prints).
pub(super) fn audit_json(dir: &str, scoring: Scoring, audited: Audited) -> serde_json::Value {
    serde_json::to_value(summarize(dir, scoring, audited)).unwrap_or_default()
}

impl Audited {
    /// Whether the audit found no trial at all.
    pub(super) fn is_empty(&self) -> bool {
        self.trials.is_empty()
    }

    /// The files the audit skipped, and a line for the trials left out of an analysis.
    pub(super) fn skipped_files(&self, left_out: usize) -> Vec<Skipped> {
        let mut out = self.skipped.clone();
        if left_out > 0 {
            let (vision, human) = self
                .trials
                .iter()
                .filter(|t| t.encoding.is_none() || t.shape.is_none())
                .fold((0, 0), |(v, h), t| {
                    (v + usize::from(t.vision), h + usize::from(t.human))
                });
            out.push(Skipped {
                file: format!(
                    "{left_out} trials ({vision} vision, {human} human result files, {} of no known encoding or shape)",
                    left_out - vision - human
                ),
                why: "no text encoding or shape to analyse by (counted in the audit only)".into(),
            });
        }
        out
    }

    /// The trials as the analysis sees them under one scorer (`All` reads as strict): a
    /// phase marked diverged, or not known to that scorer, is left unscored. Under strict
    /// scoring a transcript with nothing to re-score (only its closing lines) is counted
    /// from those lines, as `report` always did, and counted apart. Trials with no encoding
    /// or shape (vision runs) cannot enter the analysis. Returns the observations, the
    /// trials left out and those counted from their closing lines.
    pub(super) fn observations(
        &self,
        label: &str,
        scoring: Scoring,
    ) -> (Vec<Observation>, usize, usize) {
        let mut out = Vec::with_capacity(self.trials.len());
        let mut left_out = 0;
        let mut closing_only = 0;
        for t in &self.trials {
            let (Some(encoding), Some(shape)) = (t.encoding, t.shape) else {
                left_out += 1;
                continue;
            };
            let marks = match scoring {
                Scoring::Recorded => &t.recorded,
                Scoring::Original => &t.original,
                Scoring::Strict | Scoring::All
                    if !t.api_error && t.strict.as_array().iter().all(Option::is_none) =>
                {
                    closing_only += 1;
                    &t.recorded
                }
                Scoring::Strict | Scoring::All => &t.strict,
            };
            let place = ExportPath::parse(&t.file);
            let outcomes = marks.as_array().map(|m| match m {
                Some(Mark::Success) => Some(Outcome::Success),
                Some(Mark::Fail) => Some(Outcome::Fail),
                Some(Mark::Diverged) | None => None,
            });
            let outcomes = if t.api_error {
                outcomes.map(|o| o.or(Some(Outcome::Error)))
            } else {
                outcomes
            };
            out.push(Observation {
                experiment: label.to_string(),
                model: t.model.clone(),
                encoding,
                shape,
                size: t.size.map_or(5, |(r, _)| r),
                seed: 0,
                sample: place.as_ref().map_or(0, |p| p.maze),
                repeat: place.as_ref().map_or(0, |p| p.trial),
                outcomes,
                reasons: [None; 3],
                moves: None,
                valid_moves: None,
                shortest_path: None,
                predicted: None,
                checks: None,
            });
        }
        (out, left_out, closing_only)
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
            .and_then(|t| parse_human(&t).ok())
            .is_some_and(|h| !h.participant_id.is_empty() && !h.maze_file.is_empty())
    })
}

/// The maze a human file names: `experiment_mazes/{R}x{C}/{shape}/{maze_file}` under
/// `root`; with its shape.
fn human_maze(root: &Path, maze_file: &str) -> Result<(Shape, Maze), String> {
    let stem = maze_file.trim_end_matches(".npy");
    let mut parts = stem.splitn(3, '_');
    let (Some(size), Some(shape)) = (parts.next(), parts.next()) else {
        return Err(format!(
            "maze_file '{maze_file}' is not {{R}}x{{C}}_{{shape}}_{{i}}.npy"
        ));
    };
    let shape = Shape::parse(shape)?;
    let path = root
        .join("experiment_mazes")
        .join(size)
        .join(shape.name())
        .join(maze_file);
    let bytes = std::fs::read(&path).map_err(|e| format!("its maze {}: {e}", path.display()))?;
    let grid = npy::read(&bytes).map_err(|e| format!("its maze {maze_file}: {e}"))?;
    let maze = Maze::from_grid(grid).map_err(|e| format!("its maze {maze_file}: {e}"))?;
    Ok((shape, maze))
}

/// Human result files of the original page, one trial each (model `human`); two files
/// for the same participant and maze are both kept and flagged `duplicate`.
fn humans(
    root: &Path,
    cache: &mut AuditCache,
    trials: &mut Vec<TrialRow>,
    skipped: &mut Vec<Skipped>,
) {
    let mut seen: BTreeMap<(String, String), Vec<usize>> = BTreeMap::new();
    for path in json_files(root) {
        let file = display(root, &path);
        let Some(h) = std::fs::read_to_string(&path)
            .ok()
            .and_then(|t| parse_human(&t).ok())
            .filter(|h| !h.participant_id.is_empty() && !h.maze_file.is_empty())
        else {
            continue;
        };
        let (shape, maze) = match human_maze(root, &h.maze_file) {
            Ok(m) => m,
            Err(why) => {
                skipped.push(Skipped {
                    file,
                    why: format!("human result file without its maze: {why}"),
                });
                continue;
            }
        };
        let a = audit_human(&h, shape, &maze, cache);
        seen.entry((h.participant_id.clone(), h.maze_file.clone()))
            .or_default()
            .push(trials.len());
        trials.push(TrialRow {
            file,
            maze_from: "experiment_mazes",
            model: "human".into(),
            encoding: None,
            shape: Some(shape),
            size: a.size,
            api_error: false,
            vision: false,
            recorded: a.recorded,
            strict: a.strict,
            original: a.original,
            causes: a.causes.iter().map(|d| d.cause).collect(),
            differences: a.causes,
            diverged_at: None,
            human: true,
            duplicate: false,
        });
    }
    for rows in seen.values().filter(|r| r.len() > 1) {
        for &i in rows {
            trials[i].duplicate = true;
        }
    }
}

const PHASES: [&str; 3] = ["solve", "recognize", "generate"];

fn phase_index(p: crate::core::trial::Phase) -> usize {
    PHASES.iter().position(|n| *n == p.name()).unwrap_or(0)
}

/// One scorer's column: its name's getter over a group.
type Column = fn(&GroupRow) -> &[Tally; 3];

fn render_text(r: &AuditReport<'_>, scoring: Scoring) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Audited {} transcripts under {} three ways ({} API errors, never counted as model failures).",
        r.transcripts, r.dir, r.api_errors
    );
    let scorers: &[(&str, Column)] = match scoring {
        Scoring::Recorded => &[("recorded", |g| &g.recorded)],
        Scoring::Original => &[("original", |g| &g.original)],
        Scoring::Strict => &[("strict", |g| &g.strict)],
        Scoring::All => &[
            ("recorded", |g| &g.recorded),
            ("strict", |g| &g.strict),
            ("original", |g| &g.original),
        ],
    };
    let _ = writeln!(
        out,
        "\nSuccesses/scored trials per phase and scorer; ~N = N strict replays diverged from the original conversation."
    );
    let width = r
        .groups
        .iter()
        .map(|g| g.group.len() + 2)
        .max()
        .unwrap_or(0)
        .max(24);
    const COL: usize = 12;
    let span = COL * scorers.len();
    let mut phases = format!("{:<width$}", "");
    let mut names = format!("{:<width$}", "");
    for phase in PHASES {
        let _ = write!(phases, "{phase:<span$}");
        for (name, _) in scorers {
            let _ = write!(names, "{name:<COL$}");
        }
    }
    let _ = writeln!(out, "{}", phases.trim_end());
    let _ = writeln!(out, "{}", names.trim_end());
    for g in &r.groups {
        let mut line = format!("{:<width$}", g.group);
        for i in 0..3 {
            for (_, get) in scorers {
                let _ = write!(line, "{:<COL$}", get(g)[i].cell());
            }
        }
        let _ = writeln!(out, "{}", line.trim_end());
    }
    let _ = writeln!(
        out,
        "\nCauses of strict/original differences (model encoding shape, phase, cause: count): {}",
        r.causes.iter().map(|c| c.count).sum::<usize>()
    );
    for c in &r.causes {
        let _ = writeln!(
            out,
            "  {}, {}, {}: {}",
            c.group,
            c.phase,
            c.cause.name(),
            c.count
        );
    }
    let duplicates: Vec<&TrialRow> = r.trials.iter().filter(|t| t.duplicate).collect();
    if !duplicates.is_empty() {
        let _ = writeln!(
            out,
            "\nHuman files for a participant's maze played twice (all kept): {}",
            duplicates.len()
        );
        for t in duplicates {
            let _ = writeln!(out, "  {}", t.file);
        }
    }
    if !r.skipped_files.is_empty() {
        let _ = writeln!(out, "\nSkipped: {}", r.skipped_files.len());
        for s in &r.skipped_files {
            let _ = writeln!(out, "  {}: {}", s.file, s.why);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn original_and_vision_paths_give_the_model_and_shape() {
        let p = place("matrix_claude_results/5x5/square/5x5_square_1.npy/0.txt");
        assert_eq!(
            p.map(|p| (p.model, p.encoding, p.shape)),
            Some((
                "claude".to_string(),
                Some(Encoding::Matrix),
                Some(Shape::Square)
            )),
            "an original transcript path"
        );
        let v = place("openai_vision_results/7x7/C/7x7_C_2.npy/3.txt");
        assert_eq!(
            v.map(|p| (p.model, p.encoding, p.shape, p.size)),
            Some(("openai".to_string(), None, Some(Shape::C), Some((7, 7)))),
            "a vision path"
        );
        assert_eq!(
            place("matrix_claude_results/metadata.txt"),
            None,
            "a stray file"
        );
    }

    #[test]
    fn scoring_names_read_back_and_unknown_ones_are_refused() {
        for s in [
            Scoring::Strict,
            Scoring::Original,
            Scoring::Recorded,
            Scoring::All,
        ] {
            assert_eq!(Scoring::parse(s.name()).ok(), Some(s), "{}", s.name());
        }
        assert!(Scoring::parse("lenient").is_err(), "unknown scoring");
    }
}
