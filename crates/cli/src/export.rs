//! `shapemaze export --format every-eval-ever DIR [--out OUT]`: a run folder written in a
//! shared evaluation format. The records are read as `shapemaze report` reads them (each
//! re-scored by today's verifiers, so the rates are the report's), the run's provenance is
//! made from the folder's design and records, and the files come from
//! [`shapemaze_core::exchange`]; this module only reads and writes.

use super::report::{each_record, provenance_of, STUDY_JSONL, TRIALS_JSONL};
use super::run::{epoch_ms, read_design};
use crate::io::{CliError, Io};
use crate::values::COMMAND_HELP;
use serde::Serialize;
use shapemaze_core::batch::export::{write_folder, EXPERIMENT_FILE};
use shapemaze_core::batch::provenance::Provenance;
use shapemaze_core::exchange::every_eval_ever::names::{COLLECTION, SCHEMA_VERSION};
use shapemaze_core::exchange::every_eval_ever::{export_files, ExchangeError, ModelFiles};
use shapemaze_core::original::audit::Skipped;
use shapemaze_core::results::record::TrialRecord;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The formats `shapemaze export` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// The Every Eval Ever schema (evaleval/every_eval_ever, schema version 0.3.0): per
    /// model an aggregate file and its instance rows.
    EveryEvalEver,
}

impl Format {
    /// The name `--format` takes.
    pub fn name(self) -> &'static str {
        match self {
            Format::EveryEvalEver => "every-eval-ever",
        }
    }
}

/// `shapemaze export`'s options.
#[derive(Debug, clap::Args)]
#[command(
    help_template = COMMAND_HELP,
    display_name = "shapemaze export",
    override_usage = "shapemaze export --format every-eval-ever DIR [--out OUT]",
    after_help = "DIR is a run folder: the --out of `shapemaze run` or `shapemaze merge`, or an unzipped
export of the /experiment page (it must hold trials.jsonl and experiment.json). Its records
are re-scored by today's verifiers, as `shapemaze report` does, so the rates are the
report's.

every-eval-ever writes, for each model and built-in player (people's trials, in
trials.jsonl or a study's study-data.jsonl beside it, are left out and counted),
the layout of the Every Eval Ever datastore under OUT:
  data/shapemaze/{developer}/{model}/{uuid}.json            each phase's success rate,
                                                            its 95% interval, the settings
  data/shapemaze/{developer}/{model}/{uuid}_samples.jsonl   one row per reply: the prompts,
                                                            the reply, the reading, the verdict
The uuid follows from the run, so exporting the same run again rewrites the same files.

Exit status 0 when it wrote the files; 2 for bad arguments; 4 when DIR cannot be read or
is not a run folder; 5 when it holds no trial of a model or built-in player; 6 when OUT
cannot be written.

Example:
  shapemaze export --format every-eval-ever results/ --out eee/

Prints one JSON summary line on stdout."
)]
pub struct ExportArgs {
    /// the format to write: every-eval-ever
    #[arg(long, value_name = "F", value_enum)]
    pub format: Format,
    /// the run folder to export
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
    /// the folder to write into (default DIR/every-eval-ever)
    #[arg(long, value_name = "OUT")]
    pub out: Option<PathBuf>,
}

/// The folder an export goes to when `--out` is not given, inside DIR.
pub const DEFAULT_OUT: &str = "every-eval-ever";

/// What `export` prints when it is done.
#[derive(Serialize)]
struct Summary<'a> {
    out: String,
    format: &'static str,
    schema_version: &'static str,
    models: &'a [ModelFiles],
    records: usize,
    rescored: usize,
    stored_verdicts: usize,
    skipped: &'a [Skipped],
    people_left_out: usize,
}

/// Runs `export`.
pub fn run(args: &ExportArgs, io: &mut Io<'_>) -> Result<(), CliError> {
    let root = run_folder(&args.dir)?;
    let shown = root.display().to_string();
    let design = read_design(&root.join(EXPERIMENT_FILE))?;
    let mut stored = Vec::new();
    let mut scored: Vec<TrialRecord> = Vec::new();
    let sources = each_record(&root.join(TRIALS_JSONL), |record, rescored, _| {
        scored.push(rescored.unwrap_or_else(|| record.clone()));
        stored.push(record);
    })?;
    for s in sources.skipped.iter().take(5) {
        io.note(&format!("left out {}: {}", s.file, s.why))?;
    }
    if sources.skipped.len() > 5 {
        io.note(&format!(
            "left out {} more lines (the summary lists them)",
            sources.skipped.len() - 5
        ))?;
    }
    // A study's people beside the run are left out too: the schema describes models.
    let beside = people_beside(&root)?;
    if beside > 0 {
        io.note(&format!(
            "left out {beside} people's trials of {STUDY_JSONL} beside the run (the schema describes models)"
        ))?;
    }
    // The provenance is of the records as they were made; the machine is the run's.
    let machine =
        provenance_of(&root, io)?.map_or_else(|| "not recorded".to_string(), |p| p.machine);
    let provenance = Provenance::of(&design, &stored, &machine)
        .map_err(|e| CliError::input(format!("{shown}/{EXPERIMENT_FILE}: {e}")))?;
    let export = export_files(&provenance, &scored, epoch_ms()).map_err(|e| match e {
        ExchangeError::NoTrials => CliError::data(format!(
            "{shown}/{TRIALS_JSONL} holds no trial of a model or built-in player to export{}",
            if stored.is_empty() {
                ""
            } else {
                " (people's trials are left out)"
            }
        )),
        ExchangeError::Unwritable(e) => CliError::unwritable(e.to_string()),
    })?;
    let out = args.out.clone().unwrap_or_else(|| root.join(DEFAULT_OUT));
    write_folder(&out, &export.files).map_err(|e| {
        CliError::unwritable(format!(
            "cannot write the export under {}: {e}",
            out.display()
        ))
    })?;
    let written: BTreeSet<&str> = export.files.iter().map(|f| f.path.as_str()).collect();
    let others = files_not_written(&out, &written);
    if others > 0 {
        io.note(&format!(
            "warning: {} holds {others} other file(s) under data/{COLLECTION}/ (an export of another run or an older design?): submit only those listed here",
            out.display()
        ))?;
    }
    io.json_line(&Summary {
        out: out.display().to_string(),
        format: args.format.name(),
        schema_version: SCHEMA_VERSION,
        models: &export.models,
        records: stored.len(),
        rescored: sources.rescored,
        stored_verdicts: sources.stored_verdicts,
        skipped: &sources.skipped,
        people_left_out: export.people_left_out + beside,
    })
}

/// The people's scored trials in a study's data beside the run (`study-data.jsonl`; none
/// when there is no such file).
fn people_beside(root: &Path) -> Result<usize, CliError> {
    let path = root.join(STUDY_JSONL);
    let Ok(bytes) = std::fs::read(&path) else {
        return Ok(0);
    };
    let text = String::from_utf8(bytes)
        .map_err(|_| CliError::input(format!("{} is not UTF-8 text", path.display())))?;
    let data = shapemaze_core::study::read_study_data(&text);
    Ok(data.trials.iter().filter(|d| !d.practice).count())
}

/// The run folder `dir` names (a trials.jsonl names its folder), checked to hold the two
/// files an export reads.
fn run_folder(dir: &Path) -> Result<PathBuf, CliError> {
    let shown = dir.display();
    let root = match std::fs::metadata(dir) {
        Err(e) => {
            return Err(CliError::input(format!(
                "cannot read {shown}: {e}; give a run folder (the --out of `shapemaze run`)"
            )))
        }
        Ok(m) if m.is_file() => dir
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."))
            .to_path_buf(),
        Ok(_) => dir.to_path_buf(),
    };
    for (file, what) in [
        (TRIALS_JSONL, "the trial records"),
        (EXPERIMENT_FILE, "the design"),
    ] {
        if !root.join(file).is_file() {
            return Err(CliError::input(format!(
                "{} has no {file} ({what}): give a run folder, as `shapemaze run` or `shapemaze merge` writes it or the /experiment page exports it (a folder of transcripts alone cannot be exported: the format needs each reply's record)",
                root.display()
            )));
        }
    }
    Ok(root)
}

/// How many files under `out/data/shapemaze/` this export did not write (`written`: paths
/// from `out`, `/` between folders).
fn files_not_written(out: &Path, written: &BTreeSet<&str>) -> usize {
    fn walk(dir: &Path, rel: &str, written: &BTreeSet<&str>, count: &mut usize) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            let path = format!("{rel}/{name}");
            if e.path().is_dir() {
                walk(&e.path(), &path, written, count);
            } else if !written.contains(path.as_str()) {
                *count += 1;
            }
        }
    }
    let mut count = 0;
    let rel = format!("data/{COLLECTION}");
    walk(
        &out.join("data").join(COLLECTION),
        &rel,
        written,
        &mut count,
    );
    count
}
