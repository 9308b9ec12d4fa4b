//! `shapemaze run` and `shapemaze merge`: an experiment design played headless with the
//! core [`Scheduler`] (adaptive concurrency per endpoint, `Retry-After`, requests per
//! minute), and shard folders joined into one.
//!
//! Every finished trial's record is appended to `DIR/trials.jsonl` (and flushed) the
//! moment it ends, so a kill loses nothing finished; at the end, and on Ctrl-C or SIGTERM,
//! the whole export folder is written (`experiment.json`, `trials.csv`, `trials.jsonl`,
//! the maze files, the transcripts), the same files as the page's ZIP. A second run on the
//! same folder reads `trials.jsonl` back and plays only the trials it lacks.

use super::transport::NativeTransport;
use crate::io::{CliError, Io, EXIT_API_ERRORS, EXIT_OK};
use crate::values::{dollars as dollars_arg, whole, COMMAND_HELP};
use shapemaze_core::batch::design::{ExperimentDesign, TrialKey};
use shapemaze_core::batch::export::{
    export_files, merge, parse_jsonl, transcript_path, trials_jsonl, write_folder, EXPERIMENT_FILE,
    JSONL_FILE,
};
use shapemaze_core::batch::provenance::Provenance;
use shapemaze_core::batch::runner::TrialError;
use shapemaze_core::batch::runner::{
    endpoint_settings, error_causes, play_trial, progress_line, random_seed, sort_by_design,
};
use shapemaze_core::batch::session::{Effect, Notice, Session, Start};
use shapemaze_core::maze::encoding::Encoding;
use shapemaze_core::maze::npy;
use shapemaze_core::model::price::dollars;
use shapemaze_core::play::player::PlayerKind;
use shapemaze_core::results::layout::maze_file_path;
use shapemaze_core::results::record::TrialRecord;
use shapemaze_core::results::rescore::Libraries;
use std::collections::{BTreeSet, HashMap, HashSet, VecDeque};
use std::convert::Infallible;
use std::fs::OpenOptions;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// `shapemaze run`'s options.
#[derive(Debug, clap::Args)]
#[command(
    help_template = COMMAND_HELP,
    display_name = "shapemaze run",
    override_usage = "shapemaze run DESIGN.json --out DIR [--shard I/N|auto] [--concurrency N] [--retry-errors] [--cost-limit USD]",
    after_help = "Keys: an endpoint player's API key is read from the environment variable its `key_env`
names; it is only ever sent in the Authorization header, never written to a file.

Resuming: run the same command again on the same DIR: the trials in DIR/trials.jsonl are
kept and only the missing ones are played, never one twice.

Example:
  DASHSCOPE_API_KEY=sk-... shapemaze run experiment.json --out results/ --shard 1/4

Prints one JSON summary line on stdout; progress goes to stderr: one line redrawn in place
on a terminal; in a log, a line every 10 s (SHAPEMAZE_PROGRESS_SECONDS sets another
interval) when it says something new, the same line again only after a minute. At the end,
stderr lists the trials that ended as API errors by cause, with the server's or the
system's own message and what to do.

Exit status: 0 when the run finished and no trial of DIR ended as an API error; 3 when some
did (fix the cause, then run again with --retry-errors; a staircase is run again into a new
folder); with one line on stderr: 2 for a
bad option, a missing key or when interrupted, 4 for a design that cannot be read or
played, 5 when the design asks for more mazes than exist or DIR holds another design, 6
when DIR cannot be written."
)]
pub struct RunArgs {
    /// the experiment design (the experiment.json the page exports)
    #[arg(value_name = "DESIGN.json")]
    pub design: PathBuf,
    /// the export folder; each finished trial is appended to DIR/trials.jsonl
    /// at once, and the whole folder (trials.csv, transcripts, experiment_mazes,
    /// experiment.json) is written at the end and on Ctrl-C
    #[arg(long, value_name = "DIR", verbatim_doc_comment)]
    pub out: PathBuf,
    /// I/N: play only trial i of the design's order when i mod N = I - 1 (I from 1):
    /// N machines with I = 1..N share a sweep; `shapemaze merge` joins them.
    /// auto: the shard of a Slurm job array (SLURM_ARRAY_TASK_ID of
    /// SLURM_ARRAY_TASK_COUNT) or a Kubernetes indexed Job
    /// (JOB_COMPLETION_INDEX of SHAPEMAZE_SHARD_COUNT)
    #[arg(long, value_name = "I/N|auto", verbatim_doc_comment)]
    pub shard: Option<String>,
    /// most trials in flight per player, overriding the design's
    #[arg(long, value_name = "N", value_parser = whole::<usize>)]
    pub concurrency: Option<usize>,
    /// resuming, play again the trials of DIR that ended as API errors
    /// (their error records are dropped from DIR first); others are kept
    #[arg(long, verbatim_doc_comment)]
    pub retry_errors: bool,
    /// most dollars the run may spend at the players' prices, replacing the
    /// design's cost_limit: the run stops before a trial that would pass it
    #[arg(long, value_name = "USD", value_parser = dollars_arg, allow_negative_numbers = true, verbatim_doc_comment)]
    pub cost_limit: Option<f64>,
}

/// `shapemaze merge`'s arguments.
#[derive(Debug, clap::Args)]
#[command(
    help_template = COMMAND_HELP,
    display_name = "shapemaze merge",
    override_usage = "shapemaze merge OUT DIR...",
    after_help = "Reads each DIR's experiment.json and trials.jsonl and writes OUT as a whole export folder.
Every DIR must hold the same design. A trial found twice with the same record counts
once; found twice with different records, nothing is written and exit status is 5.

Example:
  shapemaze merge results/ shard-1/ shard-2/ shard-3/ shard-4/

Prints one JSON summary line on stdout."
)]
pub struct MergeArgs {
    /// the export folder to write
    #[arg(value_name = "OUT")]
    pub out: PathBuf,
    /// the export folders of the shards, each holding the same design
    #[arg(value_name = "DIR", required = true)]
    pub dirs: Vec<PathBuf>,
}

/// Most progress redraws per second on a terminal.
const TERMINAL_REFRESH: Duration = Duration::from_millis(250);
/// How often a plain progress line may be written when stderr is not a terminal (a log),
/// unless [`LOG_REFRESH_VAR`] says otherwise.
const LOG_REFRESH: Duration = Duration::from_secs(10);
/// The environment variable that sets how often, in seconds, a log gets a progress line.
pub const LOG_REFRESH_VAR: &str = "SHAPEMAZE_PROGRESS_SECONDS";
/// A log gets the same progress line again only after this long: a heartbeat during a
/// long wait (a stuck endpoint, long retries), never a line repeated every few seconds.
const HEARTBEAT: Duration = Duration::from_secs(60);
/// The width a terminal's progress line is cut to when `COLUMNS` does not say.
const DEFAULT_COLUMNS: usize = 80;

/// How often a log gets a progress line: [`LOG_REFRESH_VAR`] in seconds when it holds a
/// positive number, else [`LOG_REFRESH`].
fn log_refresh(var: Option<&str>) -> Duration {
    var.and_then(|v| v.trim().parse::<f64>().ok())
        .filter(|s| s.is_finite() && *s > 0.0)
        .map_or(LOG_REFRESH, |s| Duration::from_secs_f64(s.min(86_400.0)))
}

/// Which progress lines a log gets: a line that says something new, and the same line
/// again only once [`HEARTBEAT`] has passed since it was written.
#[derive(Debug, Default)]
struct LogLines {
    last: Option<(String, Duration)>,
}

impl LogLines {
    /// Whether `line`, due at `at` (time since the run started), is written; if so, it is
    /// remembered as the last one.
    fn admit(&mut self, line: &str, at: Duration) -> bool {
        let write = match &self.last {
            Some((last, when)) => last != line || at.saturating_sub(*when) >= HEARTBEAT,
            None => true,
        };
        if write {
            self.last = Some((line.to_string(), at));
        }
        write
    }
}

/// `line` cut to fit one row of a terminal `columns` wide (ending in `…` when cut), so
/// that redrawing it in place never wraps onto a second row.
fn fit(line: &str, columns: usize) -> String {
    let room = columns.saturating_sub(1).max(1);
    if line.chars().count() <= room {
        return line.to_string();
    }
    let mut cut: String = line.chars().take(room - 1).collect();
    cut.push('…');
    cut
}

/// The terminal's width as `COLUMNS` gives it, else [`DEFAULT_COLUMNS`].
fn columns() -> usize {
    std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.trim().parse().ok())
        .filter(|&c: &usize| c > 0)
        .unwrap_or(DEFAULT_COLUMNS)
}

/// The end of a run for people: the trials that ended as API errors, by cause, with what
/// to do (nothing when there were none).
fn error_summary(records: &[TrialRecord], total: usize, stairs: bool) -> Vec<String> {
    let causes = error_causes(records);
    let failed: usize = causes.iter().map(|c| c.trials).sum();
    if failed == 0 {
        return Vec::new();
    }
    let mut lines = vec![format!(
        "{failed} of {total} trials ended as API errors: the endpoint failed, so they were not judged and are left out of every rate. By cause:"
    )];
    lines.extend(causes.iter().map(|c| format!("  {}", c.line())));
    lines.push(if stairs {
        "A staircase keeps them (each kept its walk's level, and the walk has moved on): fix the cause, then run the design into a new --out folder to walk again.".to_string()
    } else {
        "Fix the cause, then run the same command with --retry-errors to play those trials again."
            .to_string()
    });
    lines
}

/// Which share of the trials a run plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// This shard, from 1.
    pub index: usize,
    /// How many shards.
    pub count: usize,
}

impl Shard {
    /// Parses `I/N` (1 <= I <= N).
    pub fn parse(text: &str) -> Result<Shard, ShardError> {
        let bad = || ShardError::NotIOfN(text.to_string());
        let (i, n) = text.split_once('/').ok_or_else(bad)?;
        let index: usize = i.trim().parse().map_err(|_| bad())?;
        let count: usize = n.trim().parse().map_err(|_| bad())?;
        if count == 0 || index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }

    /// Reads `--shard`: `I/N`, or `auto` to take it from the scheduler running this
    /// process, through `env` (the environment): a Slurm job array
    /// (`SLURM_ARRAY_TASK_ID` counted from `SLURM_ARRAY_TASK_MIN`, of
    /// `SLURM_ARRAY_TASK_COUNT`) or a Kubernetes indexed Job (`JOB_COMPLETION_INDEX`, from
    /// 0, of `SHAPEMAZE_SHARD_COUNT`, which the Job sets to its `completions`).
    pub fn from_arg(text: &str, env: impl Fn(&str) -> Option<String>) -> Result<Shard, ShardError> {
        if text.trim() != "auto" {
            return Shard::parse(text);
        }
        let number = |name: &'static str| -> Result<Option<usize>, ShardError> {
            match env(name) {
                None => Ok(None),
                Some(v) => v
                    .trim()
                    .parse()
                    .map(Some)
                    .map_err(|_| ShardError::NotWhole { name, value: v }),
            }
        };
        let checked = |index: usize, count: usize, from: &'static str| {
            if count == 0 || index == 0 || index > count {
                Err(ShardError::NotAShard { from, index, count })
            } else {
                Ok(Shard { index, count })
            }
        };
        if let Some(id) = number("SLURM_ARRAY_TASK_ID")? {
            if number("SLURM_ARRAY_TASK_STEP")?.is_some_and(|s| s != 1) {
                return Err(ShardError::SlurmStep);
            }
            let count = number("SLURM_ARRAY_TASK_COUNT")?.ok_or(ShardError::NoSlurmCount)?;
            let min = number("SLURM_ARRAY_TASK_MIN")?.unwrap_or(0);
            let index = (id + 1).saturating_sub(min);
            return checked(index, count, "the Slurm array");
        }
        if let Some(i) = number("JOB_COMPLETION_INDEX")? {
            let count = number("SHAPEMAZE_SHARD_COUNT")?.ok_or(ShardError::NoJobCount)?;
            return checked(i + 1, count, "the Kubernetes indexed Job");
        }
        Err(ShardError::NoScheduler)
    }

    /// The design's trials this shard plays: those whose position in
    /// [`ExperimentDesign::trials`] modulo `count` is `index - 1`.
    pub fn keys(self, design: &ExperimentDesign) -> Vec<TrialKey> {
        design
            .trials()
            .into_iter()
            .enumerate()
            .filter(|(i, _)| i % self.count == self.index - 1)
            .map(|(_, k)| k)
            .collect()
    }
}

/// Why `--shard` names no shard.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShardError {
    /// Not `I/N` with 1 <= I <= N (the text given).
    NotIOfN(String),
    /// `--shard auto`: the environment variable `name` holds `value`, not a whole number.
    NotWhole {
        /// The variable.
        name: &'static str,
        /// Its value.
        value: String,
    },
    /// `--shard auto`: the scheduler (`from`) gives a shard outside 1..=count.
    NotAShard {
        /// The scheduler, as a phrase (`the Slurm array`).
        from: &'static str,
        /// The shard it gives, from 1.
        index: usize,
        /// Of how many.
        count: usize,
    },
    /// `--shard auto`: the Slurm array steps by more than 1.
    SlurmStep,
    /// `--shard auto`: `SLURM_ARRAY_TASK_ID` is set without `SLURM_ARRAY_TASK_COUNT`.
    NoSlurmCount,
    /// `--shard auto`: `JOB_COMPLETION_INDEX` is set without `SHAPEMAZE_SHARD_COUNT`.
    NoJobCount,
    /// `--shard auto` outside a Slurm array or a Kubernetes indexed Job.
    NoScheduler,
}

impl std::fmt::Display for ShardError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ShardError::NotIOfN(text) => write!(
                f,
                "--shard must be I/N with 1 <= I <= N (e.g. 2/8), not '{text}'"
            ),
            ShardError::NotWhole { name, value } => {
                write!(f, "--shard auto: {name} is '{value}', not a whole number")
            }
            ShardError::NotAShard { from, index, count } => write!(
                f,
                "--shard auto: {from} gives shard {index} of {count}, which is not a shard"
            ),
            ShardError::SlurmStep => f.write_str(
                "--shard auto: the Slurm array has a step other than 1; give --shard I/N",
            ),
            ShardError::NoSlurmCount => f.write_str(
                "--shard auto: SLURM_ARRAY_TASK_ID is set but SLURM_ARRAY_TASK_COUNT is not",
            ),
            ShardError::NoJobCount => f.write_str(
                "--shard auto: JOB_COMPLETION_INDEX is set (a Kubernetes indexed Job) but SHAPEMAZE_SHARD_COUNT is not: set it to the Job's completions",
            ),
            ShardError::NoScheduler => f.write_str(
                "--shard auto needs a Slurm job array (SLURM_ARRAY_TASK_ID, SLURM_ARRAY_TASK_COUNT) or a Kubernetes indexed Job (JOB_COMPLETION_INDEX, SHAPEMAZE_SHARD_COUNT); otherwise give --shard I/N",
            ),
        }
    }
}

impl std::error::Error for ShardError {}

impl From<ShardError> for CliError {
    fn from(e: ShardError) -> Self {
        CliError::Usage(e.to_string())
    }
}

/// The design's runs' API keys by run name, read from the environment variables their
/// `key_env` names (an endpoint without `key_env` gets an empty key).
fn keys_from_env(design: &ExperimentDesign) -> Result<HashMap<String, String>, CliError> {
    let mut keys = HashMap::new();
    for p in &design.runs() {
        match p.kind {
            PlayerKind::Endpoint => {
                let key = match p.key_env.as_deref().map(str::trim) {
                    Some(var) if !var.is_empty() => std::env::var(var).map_err(|_| {
                        CliError::usage(format!(
                            "the environment variable {var} (the API key of player '{}') is not set",
                            p.name()
                        ))
                    })?,
                    _ => String::new(),
                };
                let refused = |e: &dyn std::fmt::Display| {
                    CliError::input(format!("player '{}': {e}", p.name()))
                };
                let settings = endpoint_settings(p).map_err(|e| refused(&e))?;
                settings.validate().map_err(|e| refused(&e))?;
                if key.is_empty() && settings.preset.needs_key() {
                    return Err(CliError::usage(format!(
                        "player '{}' uses {}, which needs an API key: name the environment variable holding it in the player's key_env",
                        p.name(),
                        settings.preset.label()
                    )));
                }
                keys.insert(p.name(), key);
            }
            PlayerKind::Oracle | PlayerKind::Random => {}
            other => {
                return Err(CliError::input(format!(
                    "player '{}' is of kind {}, which `shapemaze run` cannot play: use oracle, random or endpoint",
                    p.name(),
                    other.name()
                )))
            }
        }
    }
    Ok(keys)
}

pub(crate) fn epoch_ms() -> f64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0.0, |d| d.as_secs_f64() * 1000.0)
}

pub(crate) fn read_design(path: &Path) -> Result<ExperimentDesign, CliError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| CliError::input(format!("cannot read {}: {e}", path.display())))?;
    ExperimentDesign::from_json(&text)
        .map_err(|e| CliError::input(format!("{}: {e}", path.display())))
}

/// Reads the records already in `path` (a `trials.jsonl`), keeping those `wanted` says
/// are this run's, the first of each id. A last line cut short by a kill is dropped.
fn stored_records(
    path: &Path,
    wanted: impl Fn(&TrialRecord) -> bool,
) -> Result<Vec<TrialRecord>, CliError> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => {
            return Err(CliError::input(format!(
                "cannot read {}: {e}",
                path.display()
            )))
        }
    };
    let mut body = text.as_str();
    if !text.ends_with('\n') {
        // An unfinished last line: whatever was being written when the run was killed.
        if let Some((whole, last)) = text.rsplit_once('\n') {
            if TrialRecord::from_json(last.trim()).is_err() {
                body = whole;
            }
        } else if TrialRecord::from_json(text.trim()).is_err() {
            body = "";
        }
    }
    if body.trim().is_empty() {
        return Ok(Vec::new());
    }
    let records = parse_jsonl(&path.display().to_string(), body)
        .map_err(|e| CliError::input(e.to_string()))?;
    let mut seen = BTreeSet::new();
    Ok(records
        .into_iter()
        .filter(|r| wanted(r) && seen.insert(TrialKey::of_record(r).id()))
        .collect())
}

/// Keeps a finished trial: its line in `trials.jsonl`, and its transcript and maze file
/// now, while calls are in flight, not all at the end (noted in `written`).
fn keep(
    out: &Path,
    jsonl: &Path,
    log: &mut std::fs::File,
    record: &TrialRecord,
    written: &mut HashSet<String>,
) -> Result<(), CliError> {
    let line = record
        .to_json()
        .map_err(|e| CliError::unwritable(e.to_string()))?
        + "\n";
    log.write_all(line.as_bytes())
        .and_then(|()| log.flush())
        .map_err(|e| CliError::unwritable(format!("cannot append to {}: {e}", jsonl.display())))?;
    if let Some(text) = record.transcript() {
        let path = transcript_path(record);
        let file = path.split('/').fold(out.to_path_buf(), |p, c| p.join(c));
        crate::io::write_file(&file, text.as_bytes())?;
        written.insert(path);
    }
    let maze_path = maze_file_path(record.size, record.size, record.shape, record.sample);
    if !written.contains(&maze_path) {
        if let Ok(maze) = record.first_maze() {
            let file = maze_path
                .split('/')
                .fold(out.to_path_buf(), |p, c| p.join(c));
            crate::io::write_file(&file, &npy::write(maze.grid()))?;
            written.insert(maze_path);
        }
    }
    Ok(())
}

/// Where this runs, for the provenance: the operating system, architecture and cores.
fn machine() -> String {
    let cores = std::thread::available_parallelism().map_or(0, usize::from);
    format!(
        "shapemaze {} on {} {} ({cores} cores)",
        env!("CARGO_PKG_VERSION"),
        std::env::consts::OS,
        std::env::consts::ARCH
    )
}

/// Writes the export folder of `records` under `dir`, leaving out the files in `written`
/// (transcripts already written as their trials finished).
fn write_export(
    dir: &Path,
    design: &ExperimentDesign,
    records: &mut [TrialRecord],
    written: &HashSet<String>,
) -> Result<(), CliError> {
    sort_by_design(design, records);
    let mut export = export_files(design, records, &machine())
        .map_err(|e| CliError::unwritable(e.to_string()))?;
    export.files.retain(|f| !written.contains(&f.path));
    write_folder(dir, &export.files).map_err(|e| {
        CliError::unwritable(format!(
            "cannot write the export under {}: {e}",
            dir.display()
        ))
    })
}

/// How a run ended.
enum Ending {
    Done,
    Interrupted,
    Failed(CliError),
    /// Paused before a trial that would pass the cost limit (why, for people).
    CostLimit(String),
}

/// `shapemaze run`; its exit status when it finished: [`EXIT_API_ERRORS`] when trials
/// ended as API errors, else [`EXIT_OK`].
pub fn run(args: &RunArgs, io: &mut Io<'_>) -> Result<i32, CliError> {
    let mut run = Prepared::open(args)?;
    let mut screen = Screen::new();
    let ending = run.drive(io, &mut screen)?;
    run.finish(ending, io, &mut screen)
}

/// A run ready to start: its design and output folder checked, what an earlier run of
/// it left read back, its log open for appending and its session restored.
struct Prepared {
    design: ExperimentDesign,
    out: PathBuf,
    shard: Shard,
    jsonl: PathBuf,
    /// The trials finished so far (read back, then played).
    records: Vec<TrialRecord>,
    /// Trials that ended as API errors and were dropped to run again (`--retry-errors`).
    retried: usize,
    /// Trials read back into the session.
    resumed: usize,
    /// Trials played by this run.
    ran: usize,
    total: usize,
    log: std::fs::File,
    session: Session,
    libraries: Libraries,
    /// Files already written beside `trials.jsonl` (transcripts, maze files).
    written: HashSet<String>,
}

impl Prepared {
    /// Checks the arguments, the design and the output folder, and restores the session.
    fn open(args: &RunArgs) -> Result<Prepared, CliError> {
        let shard = match args.shard.as_deref() {
            Some(s) => Shard::from_arg(s, |name| std::env::var(name).ok())?,
            None => Shard { index: 1, count: 1 },
        };
        let concurrency = match args.concurrency {
            Some(0) => return Err(CliError::usage("--concurrency must be at least 1")),
            n => n,
        };
        let design = run_design(args)?;
        let keys = keys_from_env(&design)?;
        let mut libraries = Libraries::new();
        design
            .check_mazes(|size| libraries.get(size, design.shape_set()).clone())
            .map_err(|e| CliError::data(format!("{}: {e}", args.design.display())))?;
        let out = args.out.clone();
        let trial_keys = shard.keys(&design);
        let (records, retried) = resume_folder(&out, &design, &trial_keys, args.retry_errors)?;
        let jsonl = out.join(JSONL_FILE);
        let log = OpenOptions::new()
            .append(true)
            .open(&jsonl)
            .map_err(|e| CliError::unwritable(format!("cannot open {}: {e}", jsonl.display())))?;
        let mut session = Session::new(&design, trial_keys, concurrency);
        let resumed = session.restore(&records);
        session.set_keys(keys);
        if design.cost_limit.is_some() {
            let estimate = design.estimate(|size| libraries.get(size, design.shape_set()).clone());
            session.expect_costs(estimate.cost_per_trial);
        }
        let total = session.progress(0.0).overall.total;
        Ok(Prepared {
            design,
            out,
            shard,
            jsonl,
            records,
            retried,
            resumed,
            ran: 0,
            total,
            log,
            session,
            libraries,
            written: HashSet::new(),
        })
    }

    /// Plays the run's trials on a single-threaded runtime until the session is complete,
    /// a trial cannot be kept, the cost limit stops it or the user interrupts it.
    fn drive(&mut self, io: &mut Io<'_>, screen: &mut Screen) -> Result<Ending, CliError> {
        let client = NativeTransport::client()?;
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| CliError::usage(format!("cannot start the async runtime: {e}")))?;
        let local = tokio::task::LocalSet::new();
        Ok(local.block_on(&runtime, self.drive_async(&client, io, screen)))
    }

    async fn drive_async(
        &mut self,
        client: &reqwest::Client,
        io: &mut Io<'_>,
        screen: &mut Screen,
    ) -> Ending {
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<Ended>();
        let mut tasks = Vec::new();
        let signal = super::serve::server::shutdown_signal();
        tokio::pin!(signal);
        let mut last_draw: Option<Instant> = None;
        let mut effects: VecDeque<Effect> = self.session.resume(epoch_ms(), false).into();
        let mut wake: Option<f64> = None;
        // Set when the run paused at the cost limit: it ends once the trials in flight do.
        let mut cost_stop: Option<String> = None;
        let ending = loop {
            // Do what the session asks until it waits for a trial, a timer or a signal.
            let mut failed = None;
            while let Some(effect) = effects.pop_front() {
                match effect {
                    Effect::Start(start) => tasks.push(self.start(start, client, tx.clone())),
                    Effect::Save(save) => match self.keep(save.record.clone()) {
                        Ok(()) => effects.extend(self.session.saved(
                            save,
                            Ok::<(), Infallible>(()),
                            epoch_ms(),
                        )),
                        Err(e) => {
                            failed = Some(e);
                            break;
                        }
                    },
                    Effect::WakeAt(at) => wake = Some(wake.map_or(at, |w: f64| w.min(at))),
                    Effect::Say(Notice::TrialFailed { id, error }) => {
                        failed = Some(CliError::data(format!("trial {id}: {error}")));
                        break;
                    }
                    Effect::Say(Notice::CostLimit { limit, next, .. }) => {
                        // What was spent is said at the end, once the trials in flight
                        // have finished and count at what they cost.
                        cost_stop = Some(format!(
                            "of {limit}, and the next trial ({next}) would pass it"
                        ));
                    }
                    Effect::Say(_) | Effect::AbortBefore(_) => {}
                }
            }
            if let Some(ending) = self.ending(failed, cost_stop.as_deref()) {
                break ending;
            }
            let draw_in = last_draw.map_or(Duration::ZERO, |t| {
                screen.every().saturating_sub(t.elapsed())
            });
            let wait = wake.map_or(Duration::from_secs(3600), |at| {
                Duration::from_millis((at - epoch_ms()).max(1.0).ceil() as u64)
            });
            tokio::select! {
                got = rx.recv() => {
                    let Some((start, result)) = got else { break Ending::Failed(CliError::data("the trials' channel closed")) };
                    effects.extend(self.session.ended(&start, result, epoch_ms()));
                }
                () = tokio::time::sleep(wait) => {
                    if let Some(at) = wake.take() {
                        effects.extend(self.session.wake(at, epoch_ms()));
                    }
                }
                () = tokio::time::sleep(draw_in) => {
                    let now = epoch_ms();
                    // A lane whose concurrency crept back up may start a trial now, not
                    // only when another ends.
                    effects.extend(self.session.pump(now));
                    screen.redraw(io, &self.progress_line(now));
                    last_draw = Some(Instant::now());
                }
                () = &mut signal => break Ending::Interrupted,
            }
        };
        for t in &tasks {
            t.abort();
        }
        ending
    }

    /// Starts a trial on the runtime; its end comes back through `tx`.
    fn start(
        &mut self,
        start: Start,
        client: &reqwest::Client,
        tx: tokio::sync::mpsc::UnboundedSender<Ended>,
    ) -> tokio::task::JoinHandle<()> {
        let run = self.session.trial_run(
            &start,
            self.libraries
                .get(start.key.size, self.design.shape_set())
                .clone(),
            NativeTransport::new(
                client.clone(),
                random_seed(self.design.seed, &start.key) ^ epoch_ms().to_bits(),
            ),
            // The progress line is redrawn on a timer.
            None,
        );
        tokio::task::spawn_local(async move {
            let result = play_trial(run, start.id.clone(), start.key.clone()).await;
            let _ = tx.send((start, result));
        })
    }

    /// Keeps a finished trial on disk and among the records.
    fn keep(&mut self, record: TrialRecord) -> Result<(), CliError> {
        keep(
            &self.out,
            &self.jsonl,
            &mut self.log,
            &record,
            &mut self.written,
        )?;
        self.records.push(record);
        self.ran += 1;
        Ok(())
    }

    /// How the run ends now, if it does: a trial that could not be kept, every trial done,
    /// or the cost limit reached with no trial left in flight.
    fn ending(&self, failed: Option<CliError>, cost_stop: Option<&str>) -> Option<Ending> {
        if let Some(e) = failed {
            return Some(Ending::Failed(e));
        }
        let now = epoch_ms();
        if self.session.complete(now) {
            return Some(Ending::Done);
        }
        match cost_stop {
            Some(why) if self.session.busy(now).is_none() => {
                Some(Ending::CostLimit(why.to_string()))
            }
            _ => None,
        }
    }

    /// The progress line as the terminal or log shows it.
    fn progress_line(&self, now: f64) -> String {
        format!(
            "shapemaze: {}",
            progress_line(&self.session.progress(now), &self.session.lanes(now))
        )
    }

    /// Says how the run ended, writes its export and, when it finished, its summary line
    /// on stdout.
    fn finish(
        mut self,
        ending: Ending,
        io: &mut Io<'_>,
        screen: &mut Screen,
    ) -> Result<i32, CliError> {
        let now = epoch_ms();
        screen.last(io, &self.progress_line(now));
        let total = self.total;
        for line in error_summary(&self.records, total, self.design.staircase.is_some()) {
            let _ = writeln!(io.stderr, "shapemaze: {line}");
        }
        let forms = self.session.progress(now).overall.forms;
        if let Some(line) = forms.sentence() {
            let _ = writeln!(io.stderr, "shapemaze: {line}");
        }
        drop(self.log);
        write_export(&self.out, &self.design, &mut self.records, &self.written)?;
        let done = self.records.len();
        let out = self.out.display();
        match ending {
            Ending::Done => {}
            Ending::Interrupted => {
                return Err(CliError::usage(format!(
                    "interrupted with {done} of {total} trials done (written to {out}): run the same command again to resume",
                )))
            }
            Ending::Failed(e) => return Err(e),
            Ending::CostLimit(why) => {
                return Err(CliError::usage(format!(
                    "stopped at the cost limit: {} spent {why} ({done} of {total} trials done, written to {out}): run the same command with a higher --cost-limit to go on",
                    dollars(self.session.spent()),
                )))
            }
        }
        let failed = self.records.iter().any(|r| r.api_error.is_some());
        io.json_line(&serde_json::json!({
            "out": out.to_string(),
            "shard": format!("{}/{}", self.shard.index, self.shard.count),
            "trials": total,
            "done": done,
            "resumed": self.resumed,
            "retried_errors": self.retried,
            "ran": self.ran,
            "api_errors": self.session.progress(now).overall.api_errors,
            "form_replies": forms.replies,
            "forms_not_held": forms.not_held,
            "seconds": (screen.started.elapsed().as_secs_f64() * 1000.0).round() / 1000.0,
        }))?;
        Ok(if failed { EXIT_API_ERRORS } else { EXIT_OK })
    }
}

/// A trial's end as its task sends it back.
type Ended = (Start, Result<Option<TrialRecord>, TrialError>);

/// The design `shapemaze run` plays: the file, with `--cost-limit` applied and
/// `--retry-errors` checked against it.
fn run_design(args: &RunArgs) -> Result<ExperimentDesign, CliError> {
    let mut design = read_design(&args.design)?;
    if let Some(limit) = args.cost_limit {
        design.cost_limit = Some(limit);
        design
            .validate()
            .map_err(|e| CliError::usage(format!("--cost-limit: {e}")))?;
    }
    if args.retry_errors && design.staircase.is_some() {
        return Err(CliError::usage(
            "--retry-errors: a staircase does not rerun its API errors (each walk has moved on from them); run it into a new --out folder to walk again",
        ));
    }
    Ok(design)
}

/// Prepares the output folder `out` for a run of `design`'s `keys`: refuses a folder
/// that holds another design's run, reads back the trials an earlier run of these keys
/// finished (less those that ended as API errors when `retry_errors`, counted), and
/// rewrites `trials.jsonl` and the design file.
fn resume_folder(
    out: &Path,
    design: &ExperimentDesign,
    keys: &[TrialKey],
    retry_errors: bool,
) -> Result<(Vec<TrialRecord>, usize), CliError> {
    std::fs::create_dir_all(out)
        .map_err(|e| CliError::unwritable(format!("cannot create {}: {e}", out.display())))?;
    let experiment = out.join(EXPERIMENT_FILE);
    if experiment.is_file() && !read_design(&experiment)?.same_trials(design) {
        return Err(CliError::data(format!(
            "{} holds a run of a different design: choose another --out folder",
            out.display()
        )));
    }
    let jsonl = out.join(JSONL_FILE);
    let wanted: BTreeSet<String> = keys.iter().map(TrialKey::id).collect();
    // A staircase's later trials are chosen as it goes: its stored trials are those of
    // the walks this shard starts.
    let walks: Vec<(String, Encoding)> = keys
        .iter()
        .map(|k| (k.player.clone(), k.encoding))
        .collect();
    let mut records = stored_records(&jsonl, |r| match design.staircase {
        Some(_) => r.staircase.is_some() && walks.contains(&(r.model.clone(), r.encoding)),
        None => wanted.contains(&TrialKey::of_record(r).id()),
    })?;
    let before = records.len();
    if retry_errors {
        records.retain(|r| r.api_error.is_none());
    }
    // Rewrite what was kept, so appends start on a fresh line.
    std::fs::write(
        &jsonl,
        trials_jsonl(&records).map_err(|e| CliError::unwritable(e.to_string()))?,
    )
    .map_err(|e| CliError::unwritable(format!("cannot write {}: {e}", jsonl.display())))?;
    let design_json = design.to_json().map_err(|e| {
        CliError::unwritable(format!("the design of {}: {e}", experiment.display()))
    })?;
    std::fs::write(&experiment, design_json)
        .map_err(|e| CliError::unwritable(format!("cannot write {}: {e}", experiment.display())))?;
    let retried = before - records.len();
    Ok((records, retried))
}

/// Where the progress line goes: redrawn in place on a terminal, or written as log lines
/// (a new line only when it says something new, or at the heartbeat).
struct Screen {
    terminal: bool,
    log_every: Duration,
    width: usize,
    log_lines: LogLines,
    started: Instant,
}

impl Screen {
    fn new() -> Screen {
        Screen {
            terminal: std::io::stderr().is_terminal(),
            log_every: log_refresh(std::env::var(LOG_REFRESH_VAR).ok().as_deref()),
            width: columns(),
            log_lines: LogLines::default(),
            started: Instant::now(),
        }
    }

    /// How often the line is redrawn.
    fn every(&self) -> Duration {
        if self.terminal {
            TERMINAL_REFRESH
        } else {
            self.log_every
        }
    }

    /// Redraws the progress line.
    fn redraw(&mut self, io: &mut Io<'_>, line: &str) {
        let _ = if self.terminal {
            write!(io.stderr, "\r\x1b[K{}", fit(line, self.width))
        } else if self.log_lines.admit(line, self.started.elapsed()) {
            writeln!(io.stderr, "{line}")
        } else {
            Ok(())
        };
        let _ = io.stderr.flush();
    }

    /// Writes the last progress line, whole, and ends the terminal's row.
    fn last(&mut self, io: &mut Io<'_>, line: &str) {
        let _ = if self.terminal {
            writeln!(io.stderr, "\r\x1b[K{line}")
        } else if self.log_lines.admit(line, self.started.elapsed()) {
            writeln!(io.stderr, "{line}")
        } else {
            Ok(())
        };
    }
}

/// `shapemaze merge OUT DIR...`.
pub fn merge_command(args: &MergeArgs, io: &mut Io<'_>) -> Result<(), CliError> {
    let (out, dirs) = (&args.out, &args.dirs);
    let mut design: Option<ExperimentDesign> = None;
    let mut all: Vec<TrialRecord> = Vec::new();
    let mut duplicates = 0;
    let mut conflicts = Vec::new();
    let mut warnings = Vec::new();
    for dir in dirs {
        let d = read_design(&dir.join(EXPERIMENT_FILE))?;
        match &design {
            Some(first) if first.same_trials(&d) && first.to_json().ok() != d.to_json().ok() => {
                warnings.push(format!(
                    "{} differs from {} in more than its trials (its name, prices or settings); the merged folder keeps the first",
                    dir.join(EXPERIMENT_FILE).display(),
                    dirs[0].join(EXPERIMENT_FILE).display()
                ));
            }
            None => design = Some(d),
            Some(first) if !first.same_trials(&d) => {
                return Err(CliError::data(format!(
                    "{} holds a different design from {}: only shards of one design can be merged",
                    dir.join(EXPERIMENT_FILE).display(),
                    dirs[0].join(EXPERIMENT_FILE).display()
                )))
            }
            Some(_) => {}
        }
        let path = dir.join(JSONL_FILE);
        let text = std::fs::read_to_string(&path)
            .map_err(|e| CliError::input(format!("cannot read {}: {e}", path.display())))?;
        if text.trim().is_empty() {
            continue;
        }
        let records = parse_jsonl(&path.display().to_string(), &text)
            .map_err(|e| CliError::input(e.to_string()))?;
        let m = merge(&all, records);
        duplicates += m.duplicates;
        conflicts.extend(m.conflicts.into_iter().map(|c| c.id));
        all.extend(m.new);
    }
    if !conflicts.is_empty() {
        let shown: Vec<&str> = conflicts.iter().take(5).map(String::as_str).collect();
        let more = if conflicts.len() > 5 {
            format!(" and {} more", conflicts.len() - 5)
        } else {
            String::new()
        };
        return Err(CliError::data(format!(
            "{} trials are stored with different records in different folders: {}{more}; nothing was written",
            conflicts.len(),
            shown.join(", ")
        )));
    }
    let Some(design) = design else {
        return Err(CliError::usage("`shapemaze merge` needs at least one DIR"));
    };
    write_export(out, &design, &mut all, &HashSet::new())?;
    if let Ok(p) = Provenance::of(&design, &all, &machine()) {
        warnings.extend(p.warnings());
    }
    for w in &warnings {
        io.note(&format!("warning: {w}"))?;
    }
    io.json_line(&serde_json::json!({
        "out": out.display().to_string(),
        "folders": dirs.len(),
        "trials": design.trial_count(),
        "records": all.len(),
        "duplicates": duplicates,
        "warnings": warnings,
    }))
}

#[cfg(test)]
#[path = "run_tests.rs"]
mod tests;
