//! Exports and imports of an experiment's trial records.
//!
//! An export is a list of files in the layout of CONTRACT.md, which Python, R and the
//! original experiment's tools read directly, and which `shapemaze score` re-scores:
//!
//! ```text
//! experiment.json                       the design (never a key)
//! trials.csv                            one row per trial, columns in CSV_COLUMNS
//! trials.jsonl                          one full record per line
//! provenance.json                       what the run was (batch::provenance)
//! items.csv                             maze instance x model, success per phase
//! experiment_mazes/{R}x{C}/{shape}/{R}x{C}_{shape}_{i}.npy                     maze i
//! {encoding}_{model}_results/{R}x{C}/{shape}/{R}x{C}_{shape}_{i}.npy/{k}.txt   trial k
//! ```
//!
//! [`export_files`] makes the files, [`crate::results::zip`] packs them, and natively
//! `write_folder` writes them to a folder. Importing reads `trials.jsonl` (bare, or from
//! an exported ZIP) record by record, with errors naming the file and line, and [`merge`]
//! adds the records to a stored set without losing or duplicating any.

use crate::batch::design::{ExperimentDesign, TrialKey};
use crate::batch::provenance::{Provenance, ITEMS_FILE, PROVENANCE_FILE};
use crate::maze::npy;
use crate::play::condition::Condition;
use crate::play::player::PlayerKind;
use crate::play::transcript::Role;
use crate::results::items::{item_matrix_csv, Item, NO_ENCODING};
use crate::results::layout::{maze_file_path, ExportPath};
use crate::results::record::{RecordError, TrialRecord};
use crate::results::zip::{read_zip, DeflateFn, InflateFn, ZipEntry, ZipError, ZipWriter};
use crate::text::csv_field;
use crate::text::format_decimal;
use crate::verify::Verdict;
use std::collections::BTreeMap;
use std::fmt;

/// The design's file in an export.
pub const EXPERIMENT_FILE: &str = "experiment.json";
/// The tidy table's file in an export.
pub const CSV_FILE: &str = "trials.csv";
/// The full records' file in an export.
pub const JSONL_FILE: &str = "trials.jsonl";

/// Every column of `trials.csv`, in order, with its meaning (docs/guides/models-and-experiments.md
/// lists them).
/// Empty cells mean "not applicable" or "not known".
pub const CSV_COLUMNS: &[(&str, &str)] = &[
    (
        "id",
        "the trial's id: player/encoding/RxC/shape/sample/repeat",
    ),
    (
        "player",
        "who played: oracle, random, scripted, endpoint or human",
    ),
    (
        "model",
        "the model's (or built-in player's) name, as in the results folder",
    ),
    (
        "endpoint_model",
        "the model as the endpoint knows it (endpoint players)",
    ),
    (
        "temperature",
        "the sampling temperature sent (endpoint players)",
    ),
    (
        "protocol",
        "how the questions were asked: stepwise, combined or single_shot",
    ),
    ("encoding", "how the maze was shown: matrix or coord_list"),
    (
        "shape",
        "the maze's shape: square, cross, spiral, triangle, C or Z",
    ),
    ("size", "the grid side (5 for 5x5)"),
    ("seed", "the maze set's seed"),
    (
        "sample",
        "which maze of the set, from 0 (the i of RxC_shape_i.npy)",
    ),
    (
        "repeat",
        "which trial on that maze, from 0 (the k of k.txt)",
    ),
    ("move_limit", "the most moves allowed in the solve phase"),
    (
        "solve",
        "solve phase: success, fail, error (API error, not judged) or empty (not reached)",
    ),
    (
        "recognize",
        "recognition phase: success, fail, error or empty",
    ),
    (
        "generate",
        "generation phase: success, fail, error or empty",
    ),
    (
        "solve_reason",
        "why the solve verdict came out so (a stable snake_case reason)",
    ),
    (
        "recognize_reason",
        "why the recognition verdict came out so",
    ),
    ("generate_reason", "why the generation verdict came out so"),
    ("moves", "move attempts in the solve phase"),
    ("valid_moves", "valid moves among them"),
    ("shortest_path", "the shortest path's length in moves"),
    (
        "failure",
        "how solving failed: invalid_move, move_limit, unparseable_reply, api_error or empty",
    ),
    (
        "predicted_shape",
        "the shape the recognition reply named, or empty",
    ),
    (
        "api_error",
        "the kind of endpoint failure that ended the trial (rate_limited, network, ...), or empty",
    ),
    (
        "stopped",
        "true when the trial was stopped before it finished",
    ),
    ("calls", "replies received (one per call that answered)"),
    (
        "attempts",
        "requests sent, retries included (replies without a count count as 1)",
    ),
    (
        "latency_ms",
        "the replies' latencies added up, in milliseconds",
    ),
    (
        "prompt_tokens",
        "prompt tokens over all replies, as the endpoint counted them",
    ),
    ("completion_tokens", "completion tokens over all replies"),
    ("total_tokens", "total tokens over all replies"),
    (
        "started_ms",
        "when the trial started, milliseconds since the Unix epoch",
    ),
    ("ended_ms", "when it ended, likewise"),
    ("prompt_version", "the prompts' wording version"),
    ("verifier_version", "the verifiers' reading rules version"),
    (
        "shapemaze_version",
        "the Shapemaze version that ran the trial",
    ),
    (
        "effort",
        "the reasoning effort asked for, if any: none to xhigh, thinking or no-thinking (endpoint players)",
    ),
    (
        "symbols",
        "the matrix's symbols (wall, empty, player, goal) when not 1 0 P G",
    ),
    (
        "lenient",
        "the lenient protocol's allowance of invalid moves tried again (0: strict)",
    ),
    (
        "retried_moves",
        "invalid moves the lenient protocol forgave",
    ),
    (
        "vision",
        "how the maze was shown when not as text alone: image (an image only) or image+text",
    ),
    (
        "step",
        "a staircase trial's place in its walk (0 first; empty outside a staircase)",
    ),
    (
        "level",
        "the staircase level it was played at (0 the easiest; empty outside a staircase)",
    ),
    (
        "condition",
        "how a person was shown the maze: grid, or text (in the encoding above); empty for models and for people's records from before it was kept",
    ),
    (
        "encoding_shown",
        "the encoding the player was shown: the encoding above, or none for a person on the grid; empty for people's records from before the condition was kept",
    ),
    (
        "shape_shown_before_answer",
        "true when a person was shown the maze's shape before the recognition answer (people's records made before Shapemaze 0.2.0, whose pages named it), else false; empty for models",
    ),
    (
        "answer_mode",
        "the answer mode asked: free (the design's free text), schema, tool or transcribed",
    ),
    (
        "answer_mode_in_effect",
        "the mode the phases ran in (one mode, or solve:MODE recognize:MODE generate:MODE when they differ); empty for free",
    ),
    (
        "answer_form",
        "how the endpoint was asked to hold the form: json_schema, structured_outputs, format, json_object, prompt, tool_named or tool_required (per phase when they differ); empty for free",
    ),
    (
        "forms_not_held",
        "replies whose form was not held (reason form_not_held: read by the free readers instead); empty for free",
    ),
    (
        "step_downs",
        "the spellings the endpoint refused, in order, each with its status (json_schema 500; ...)",
    ),
    (
        "readers_compared",
        "replies with text whose form held: our readers' reading set beside the form's",
    ),
    (
        "readers_agreed",
        "of them, those our readers read as the form did (the transcription, under transcribed)",
    ),
    (
        "transcription_tokens",
        "the transcription calls' tokens (prompt and completion), counted apart from total_tokens",
    ),
];

fn outcome(v: Option<&Verdict>) -> String {
    v.map_or(String::new(), |v| v.outcome.name().to_string())
}

fn reason(v: Option<&Verdict>) -> String {
    v.map_or(String::new(), |v| v.reason.as_str().to_string())
}

fn opt<T: ToString>(v: Option<T>) -> String {
    v.map_or(String::new(), |v| v.to_string())
}

/// Sums one reply field over the replies that have it; empty when none does.
fn sum_of(r: &TrialRecord, f: impl Fn(&crate::model::reply::ReplyMeta) -> Option<u64>) -> String {
    let known: Vec<u64> = r.messages.iter().filter_map(|m| f(&m.meta)).collect();
    if known.is_empty() {
        String::new()
    } else {
        known.iter().sum::<u64>().to_string()
    }
}

/// The value of column `name` for `record`; `None` for a name not in [`CSV_COLUMNS`].
pub fn csv_value(record: &TrialRecord, name: &str) -> Option<String> {
    let r = record;
    let v = &r.verdicts;
    let replies = || r.messages.iter().filter(|m| m.role == Role::Assistant);
    Some(match name {
        "id" => TrialKey::of_record(r).id(),
        "player" => r.player.name().to_string(),
        "model" => r.model.clone(),
        "endpoint_model" => opt(r.endpoint.as_ref().map(|e| e.model.clone())),
        "temperature" => opt(r
            .endpoint
            .as_ref()
            .map(|e| format_decimal(e.temperature, 6))),
        "effort" => opt(r.endpoint.as_ref().and_then(|e| e.effort).map(|e| e.name())),
        "symbols" => opt((!r.symbols.is_standard()).then(|| r.symbols.to_string())),
        "vision" => opt(r.vision.shows_image().then(|| r.vision.name().to_string())),
        "step" => opt(r.staircase.map(|s| s.step.to_string())),
        "level" => opt(r.staircase.map(|s| s.level.to_string())),
        "condition" => opt(r.condition.map(|c| c.name())),
        "encoding_shown" => match (r.player, r.condition) {
            (PlayerKind::Human, Some(Condition::Grid)) => NO_ENCODING.to_string(),
            (PlayerKind::Human, None) => String::new(),
            _ => r.encoding.name().to_string(),
        },
        "shape_shown_before_answer" => match r.player {
            PlayerKind::Human => r.shape_shown().to_string(),
            _ => String::new(),
        },
        "answer_mode" => r.answer_mode.name().to_string(),
        _ if crate::results::forms::COLUMNS.contains(&name) => {
            crate::results::forms::column(r, name)
        }
        "lenient" => r.lenient.to_string(),
        "retried_moves" => r.retried_moves.to_string(),
        "protocol" => r.protocol.name().to_string(),
        "encoding" => r.encoding.name().to_string(),
        "shape" => r.shape.name().to_string(),
        "size" => r.size.to_string(),
        "seed" => r.seed.to_string(),
        "sample" => r.sample.to_string(),
        "repeat" => r.repeat.to_string(),
        "move_limit" => r.move_limit.to_string(),
        "solve" => outcome(v.solve.as_ref()),
        "recognize" => outcome(v.recognize.as_ref()),
        "generate" => outcome(v.generate.as_ref()),
        "solve_reason" => reason(v.solve.as_ref()),
        "recognize_reason" => reason(v.recognize.as_ref()),
        "generate_reason" => reason(v.generate.as_ref()),
        "moves" => r.moves.to_string(),
        "valid_moves" => r.valid_moves.to_string(),
        "shortest_path" => opt(r.shortest_path),
        "failure" => opt(r.failure.map(|f| f.name())),
        "predicted_shape" => opt(r.predicted_shape.map(|s| s.name())),
        "api_error" => opt(r.api_error.as_ref().map(|e| e.kind.clone())),
        "stopped" => r.stopped.to_string(),
        "calls" => replies().count().to_string(),
        "attempts" => replies()
            .map(|m| u64::from(m.meta.attempts.unwrap_or(1)))
            .sum::<u64>()
            .to_string(),
        "latency_ms" => {
            let known: Vec<f64> = r
                .messages
                .iter()
                .filter_map(|m| m.meta.latency_ms)
                .collect();
            if known.is_empty() {
                String::new()
            } else {
                format_decimal(known.iter().sum::<f64>(), 0)
            }
        }
        "prompt_tokens" => sum_of(r, |m| m.prompt_tokens),
        "completion_tokens" => sum_of(r, |m| m.completion_tokens),
        "total_tokens" => sum_of(r, |m| m.total_tokens),
        "started_ms" => opt(r.started_ms.map(|t| format_decimal(t, 3))),
        "ended_ms" => opt(r.ended_ms.map(|t| format_decimal(t, 3))),
        "prompt_version" => r.versions.prompt.to_string(),
        "verifier_version" => r.versions.verifier.to_string(),
        "shapemaze_version" => r.versions.shapemaze.clone(),
        _ => return None,
    })
}

/// `trials.csv`: a header of [`CSV_COLUMNS`], then one row per record, lines ended with
/// CRLF (RFC 4180).
pub fn trials_csv(records: &[TrialRecord]) -> String {
    trials_csv_with(&[], records.iter().map(|r| (r, Vec::new())))
}

/// A `trials.csv` with `extra` columns after [`CSV_COLUMNS`], each row a record and its
/// values of those columns (a study's people's trials: the participant and where the
/// trial sat in their study).
pub fn trials_csv_with<'a>(
    extra: &[&str],
    rows: impl IntoIterator<Item = (&'a TrialRecord, Vec<String>)>,
) -> String {
    let mut out = CSV_COLUMNS
        .iter()
        .map(|(n, _)| *n)
        .chain(extra.iter().copied())
        .collect::<Vec<_>>()
        .join(",");
    out.push_str("\r\n");
    for (r, more) in rows {
        let row: Vec<String> = CSV_COLUMNS
            .iter()
            .map(|(n, _)| csv_value(r, n).unwrap_or_default())
            .chain(more)
            .map(|v| csv_field(&v))
            .collect();
        out.push_str(&row.join(","));
        out.push_str("\r\n");
    }
    out
}

/// `trials.jsonl`: one record per line ([`TrialRecord::to_json`]).
pub fn trials_jsonl(records: &[TrialRecord]) -> Result<String, RecordError> {
    records
        .iter()
        .map(|r| r.to_json().map(|line| line + "\n"))
        .collect()
}

/// Where a record's transcript goes in the layout (`{k}` is its repeat, `{i}` its sample).
pub fn transcript_path(record: &TrialRecord) -> String {
    ExportPath::of_record(record).render()
}

/// One file of an export.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExportFile {
    /// Its path relative to the export's root, `/` between folders.
    pub path: String,
    /// Its bytes.
    pub bytes: Vec<u8>,
}

/// An export's files and what was left out.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Export {
    /// The files, in a fixed order: `experiment.json`, `trials.csv`, `trials.jsonl`, the
    /// maze files, the transcripts (each sorted by path).
    pub files: Vec<ExportFile>,
    /// Ids of records without a transcript (stopped before every phase had a verdict);
    /// they are in `trials.csv` and `trials.jsonl` all the same.
    pub without_transcript: Vec<String>,
    /// Maze files two records disagree on (the first record's maze is written).
    pub maze_conflicts: Vec<String>,
}

/// The files of an export of `records` run under `design` (see the module documentation).
/// The maze files are the mazes as the records first showed them.
pub fn export_files(
    design: &ExperimentDesign,
    records: &[TrialRecord],
    machine: &str,
) -> Result<Export, RecordError> {
    let mut export = Export::default();
    let mut mazes: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut transcripts: BTreeMap<String, String> = BTreeMap::new();
    for r in records {
        let maze_path = maze_file_path(r.size, r.size, r.shape, r.sample);
        match mazes.get(&maze_path) {
            Some(rows) if rows != &r.maze => {
                if !export.maze_conflicts.contains(&maze_path) {
                    export.maze_conflicts.push(maze_path);
                }
            }
            Some(_) => {}
            None => {
                mazes.insert(maze_path, r.maze.clone());
            }
        }
        match r.transcript() {
            Some(t) => {
                transcripts.insert(transcript_path(r), t);
            }
            None => export.without_transcript.push(TrialKey::of_record(r).id()),
        }
    }
    let file = |path: &str, bytes: Vec<u8>| ExportFile {
        path: path.to_string(),
        bytes,
    };
    export.files.push(file(
        EXPERIMENT_FILE,
        design
            .to_json()
            .map_err(|e| RecordError::Unwritable(e.to_string()))?
            .into_bytes(),
    ));
    export
        .files
        .push(file(CSV_FILE, trials_csv(records).into_bytes()));
    export
        .files
        .push(file(JSONL_FILE, trials_jsonl(records)?.into_bytes()));
    let provenance = Provenance::of(design, records, machine)
        .and_then(|p| p.to_json())
        .map_err(|e| RecordError::Unwritable(e.to_string()))?;
    export
        .files
        .push(file(PROVENANCE_FILE, provenance.into_bytes()));
    // A model's trials in each answer mode are rows of their own (`model+mode`).
    let labels: Vec<String> = records
        .iter()
        .map(crate::results::forms::model_label)
        .collect();
    export.files.push(file(
        ITEMS_FILE,
        item_matrix_csv(records.iter().zip(&labels).map(|(r, model)| Item {
            model,
            ..Item::of_record(r)
        }))
        .into_bytes(),
    ));
    for (path, rows) in mazes {
        // A record's maze is checked when it is read; an unreadable one is skipped here.
        let Some(r) = records
            .iter()
            .find(|r| maze_file_path(r.size, r.size, r.shape, r.sample) == path && r.maze == rows)
        else {
            continue;
        };
        if let Ok(maze) = r.first_maze() {
            export.files.push(file(&path, npy::write(maze.grid())));
        }
    }
    for (path, text) in transcripts {
        export.files.push(file(&path, text.into_bytes()));
    }
    Ok(export)
}

/// The export as a ZIP, each file deflated with `deflate` (raw deflate) when given.
pub fn export_zip(
    files: &[ExportFile],
    deflate: Option<DeflateFn<'_>>,
) -> Result<Vec<u8>, ZipError> {
    let mut w = ZipWriter::new();
    for f in files {
        match deflate {
            Some(d) => w.add_deflated(&f.path, &f.bytes, &d(&f.bytes))?,
            None => w.add_stored(&f.path, &f.bytes)?,
        }
    }
    w.finish()
}

/// Writes the export's files under `dir`, creating folders (native only).
#[cfg(not(target_arch = "wasm32"))]
pub fn write_folder(dir: &std::path::Path, files: &[ExportFile]) -> std::io::Result<()> {
    for f in files {
        let path = f.path.split('/').fold(dir.to_path_buf(), |p, c| p.join(c));
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::write(&path, &f.bytes)?;
    }
    Ok(())
}

/// Why an import was refused: the file, the line (from 1) when one line is at fault, and
/// what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImportError {
    /// The file (as the person chose it, or `archive.zip: trials.jsonl`).
    pub file: String,
    /// The line, from 1.
    pub line: Option<usize>,
    /// What is wrong and what to do.
    pub message: String,
}

impl fmt::Display for ImportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(l) => write!(f, "{}, line {l}: {}", self.file, self.message),
            None => write!(f, "{}: {}", self.file, self.message),
        }
    }
}

impl std::error::Error for ImportError {}

/// Reads a `trials.jsonl` text named `file`: one record per line, each checked by
/// [`TrialRecord::from_json`]; blank lines are skipped. The first bad line refuses the
/// whole file, naming it and the line.
pub fn parse_jsonl(file: &str, text: &str) -> Result<Vec<TrialRecord>, ImportError> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let record = TrialRecord::from_json(line).map_err(|e| ImportError {
            file: file.to_string(),
            line: Some(i + 1),
            message: e.to_string(),
        })?;
        out.push(record);
    }
    if out.is_empty() {
        return Err(ImportError {
            file: file.to_string(),
            line: None,
            message: "holds no trial records: choose a trials.jsonl or an exported ZIP".into(),
        });
    }
    Ok(out)
}

/// The `trials.jsonl` entry of an exported ZIP's entries: at the root, or else the one
/// nearest the root (an export zipped with its folder).
pub fn find_trials_entry<'e, 'a>(entries: &'e [ZipEntry<'a>]) -> Option<&'e ZipEntry<'a>> {
    entries
        .iter()
        .filter(|e| e.name == JSONL_FILE || e.name.ends_with(&format!("/{JSONL_FILE}")))
        .min_by_key(|e| e.name.matches('/').count())
}

/// Reads the records of an import named `file`: an exported ZIP (found by its first
/// bytes; its `trials.jsonl` is read, deflated data through `inflate`) or a bare JSONL.
pub fn import_bytes(
    file: &str,
    bytes: &[u8],
    inflate: InflateFn<'_>,
) -> Result<Vec<TrialRecord>, ImportError> {
    let refuse = |message: String| ImportError {
        file: file.to_string(),
        line: None,
        message,
    };
    if bytes.starts_with(b"PK") {
        let entries = read_zip(bytes).map_err(|e| refuse(e.to_string()))?;
        let entry = find_trials_entry(&entries).ok_or_else(|| {
            refuse(format!(
                "the ZIP holds no {JSONL_FILE}: choose a ZIP exported by Shapemaze"
            ))
        })?;
        let contents = entry.contents(inflate).map_err(|e| refuse(e.to_string()))?;
        let text = String::from_utf8(contents)
            .map_err(|_| refuse(format!("{} is not UTF-8 text", entry.name)))?;
        return parse_jsonl(&format!("{file}: {}", entry.name), &text);
    }
    let text = std::str::from_utf8(bytes).map_err(|_| {
        refuse("is neither a ZIP nor UTF-8 text: choose a trials.jsonl or an exported ZIP".into())
    })?;
    parse_jsonl(file, text)
}

/// A record whose id is already stored with different content.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Conflict {
    /// The trial's id.
    pub id: String,
    /// What differs, for people.
    pub message: String,
}

/// What [`merge`] found.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Merged {
    /// Records to store: ids not stored yet (the first of repeated ones).
    pub new: Vec<TrialRecord>,
    /// Records skipped because the very same record is already stored (or came earlier).
    pub duplicates: usize,
    /// Records skipped because their id is stored with different content (the stored one
    /// is kept).
    pub conflicts: Vec<Conflict>,
}

/// Merges `incoming` into the `existing` stored records by trial id ([`TrialKey::id`]):
/// an id not stored is new; the same id with the same content is a duplicate, skipped;
/// the same id with different content is a conflict, reported, and the stored record is
/// kept. Nothing stored is lost and no trial is stored twice.
pub fn merge(existing: &[TrialRecord], incoming: Vec<TrialRecord>) -> Merged {
    // Inserted one by one: `collect` into a map would sort the pairs first, with another
    // copy of the standard library's sort in the browser build (see `core::sort`).
    let mut known: BTreeMap<String, TrialRecord> = BTreeMap::new();
    for r in existing {
        known.insert(TrialKey::of_record(r).id(), r.clone());
    }
    let mut out = Merged::default();
    for r in incoming {
        let id = TrialKey::of_record(&r).id();
        match known.get(&id) {
            Some(k) if *k == r => out.duplicates += 1,
            Some(k) => out.conflicts.push(Conflict {
                message: format!(
                    "{id} is stored with {}; the stored record is kept",
                    differs(k, &r)
                ),
                id,
            }),
            None => {
                known.insert(id, r.clone());
                out.new.push(r);
            }
        }
    }
    out
}

/// What differs between two records of the same trial, in a few words.
fn differs(a: &TrialRecord, b: &TrialRecord) -> String {
    if a.maze != b.maze {
        "a different maze".into()
    } else if a.seed != b.seed {
        format!("seed {} (the import has {})", a.seed, b.seed)
    } else if a.verdicts != b.verdicts {
        "different verdicts".into()
    } else if a.messages != b.messages {
        "a different conversation".into()
    } else {
        "different details".into()
    }
}

/// Native only: the tests write temporary folders, run Python's zipfile and deflate with
/// miniz_oxide (a native dev-dependency).
#[cfg(all(test, not(target_arch = "wasm32")))]
#[path = "export_tests.rs"]
mod tests;
