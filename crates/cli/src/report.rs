//! `shapemaze report DIR`: the results dashboard's measures, analyses and hypothesis
//! verdicts for an export folder, as text, JSON or CSV, and the same self-contained HTML
//! report file the page downloads. All figures come from [`shapemaze_core::analysis`].

use super::audit;
use super::files::{display, list_transcripts, maze_beside};
use crate::io::{write_file, CliError, Io};
use crate::values::COMMAND_HELP;
use serde::Serialize;
use shapemaze_core::analysis::analyze::{analyze, as_counted, Analysis, AnalysisOptions};
use shapemaze_core::analysis::compare::{compare, Comparison};
use shapemaze_core::analysis::groups::GroupRow;
use shapemaze_core::analysis::observation::{observations_csv, Observation};
use shapemaze_core::batch::design::ExperimentDesign;
use shapemaze_core::batch::export::EXPERIMENT_FILE;
use shapemaze_core::batch::provenance::{Provenance, PROVENANCE_FILE};
use shapemaze_core::original::audit::{Audited, Scoring, Skipped};
use shapemaze_core::results::filter::TrialFilter;
use shapemaze_core::results::items::item_matrix_csv;
use shapemaze_core::results::record::{RecordError, TrialRecord};
use shapemaze_core::results::rescore::{Basis, Hints, Libraries};
use shapemaze_core::study::{OutcomeLine, StudyTrialData};
use shapemaze_view::audit::{audit_document, audit_html, render_text as render_audit_text};
use shapemaze_view::document::{csv, text};
use shapemaze_view::report::{analysis_document, comparison_table, report_html};
use shapemaze_view::report_charts::groups_table;
use std::fmt::Write as _;
use std::path::Path;

/// The file of full trial records in an export folder.
pub const TRIALS_JSONL: &str = "trials.jsonl";

/// A study's data beside them (the `/study/manage` and `shapemaze serve` JSONL export):
/// people's trials, read with their participant.
pub const STUDY_JSONL: &str = "study-data.jsonl";

/// `shapemaze report`'s options.
#[derive(Debug, clap::Args)]
#[command(
    help_template = COMMAND_HELP,
    display_name = "shapemaze report",
    override_usage = "shapemaze report DIR [--format text|json|csv] [--html FILE] [--order M1,M2,M3]
                         [--scoring strict|original|recorded|all] [--compare A,B]
                         [--filter TEXT] [--table ID] [--reviews FILE] [--include-shown]",
    after_help = "DIR is an export folder (or a trials.jsonl file). When DIR holds trials.jsonl, its records
are read and re-scored by today's verifiers; otherwise every transcript under
  {encoding}_{model}_results/{R}x{C}/{shape}/{R}x{C}_{shape}_{i}.npy/{k}.txt
is re-scored from its replies, and transcripts holding only the three closing lines (the
design's own runs) are counted from those lines. API errors are never model failures:
they are left out of every rate and counted apart.

Prints the success rates by model x encoding x shape with 95% intervals clustered by
maze, the solve details (moves, failure types, move validity), the recognition confusion
matrix, the generation checks, matrix vs coordinate list paired by maze (McNemar), shape
effects (chi-square, ANOVA, observed vs predicted difficulty), phase correlations (phi)
and the verdicts on H1-H4; and, when there are any, the trials with empty answers (judged
like any other) by why they were empty: the token limit spent on reasoning, reached with
no text, or a reply ended without text. Moves, the confusion matrix, the generation checks
and empty answers need trials.jsonl; transcripts give the outcomes and reasons only.

Exit status 0 when it ran, whatever it found; 2 for bad arguments; 4 when DIR cannot be
read; 6 when the --html file cannot be written.

Example:
  shapemaze report export/ --html report.html --order qwen-turbo,qwen-plus,qwen-max"
)]
pub struct ReportArgs {
    /// the export folder or trials.jsonl file to analyse
    #[arg(value_name = "DIR")]
    pub dir: String,
    /// text, json (CONTRACT.md: groups, hypotheses H1..H4, and the
    /// rest of the analysis) or csv (one row per group, pooled rows last)
    #[arg(long, value_name = "F", default_value = "text", verbatim_doc_comment)]
    pub format: String,
    /// also write the self-contained HTML report (the page's download-report)
    #[arg(long, value_name = "FILE")]
    pub html: Option<String>,
    /// whose verdicts the analysis uses: strict (today's verifiers; the default on
    /// our own folders), original (the original code's checks, as
    /// docs/ORIGINAL_DATA.md states them), recorded (the verdict lines as
    /// written), or all (the default on the original runs' folders: the audit's
    /// three columns and the causes of their differences, then the strict
    /// analysis); phases where a reply's reading diverged are left unscored
    #[arg(long, value_name = "S", verbatim_doc_comment)]
    pub scoring: Option<String>,
    /// H3's model order, smallest first, comma-separated; each name matches any
    /// model containing it, ignoring case (default: the run's own models by the size their
    /// names carry, as qwen2.5-7b, else by Qwen's tiers turbo < plus < max)
    #[arg(long, value_name = "LIST", verbatim_doc_comment)]
    pub order: Option<String>,
    /// compare two models or experiments, A,B, on every phase: McNemar's test
    /// on trials of the same maze shown the same way, else chi-square
    #[arg(long, value_name = "A,B", verbatim_doc_comment)]
    pub compare: Option<String>,
    /// analyse only the trials TEXT matches: field:value terms (model, experiment,
    /// player, shape, encoding, size, seed, sample, repeat, solve, recognize,
    /// generate, reason, predicted, moves, effort, symbols, vision, lenient, reply), moves>8
    /// and moves<4, words and "phrases" searched in the messages (trials.jsonl
    /// only), -term to exclude; all must hold. Example:
    /// --filter 'shape:spiral solve:fail reply:"wall"'
    #[arg(
        long,
        value_name = "TEXT",
        allow_hyphen_values = true,
        verbatim_doc_comment
    )]
    pub filter: Option<String>,
    /// with --format csv: print the report's table ID instead of the groups
    /// (people-models, people-models-efficiency, repeats, solve-details, ...:
    /// the page's table-ID; with --scoring all also audit-rates, audit-sizes
    /// and audit-causes)
    #[arg(long, value_name = "ID", verbatim_doc_comment)]
    pub table: Option<String>,
    /// people's readings (reviews.jsonl): the rates as read and as reviewed per model,
    /// and the reader's agreement with the reviews per phase, over the sure readings of
    /// a random sample and over the unsure ones apart, each with its Wilson interval
    /// (JSON: `review`)
    #[arg(long, value_name = "FILE", verbatim_doc_comment)]
    pub reviews: Option<String>,
    /// count people's recognition verdicts given after the page had shown them the
    /// shape (people's records made before Shapemaze 0.2.0, whose pages named it);
    /// by default they are left out of every rate, and the report says how many
    /// (JSON: `shown_recognitions`)
    #[arg(long, verbatim_doc_comment)]
    pub include_shown: bool,
}

/// Where the observations came from.
#[derive(Debug, Default, Serialize)]
pub struct Sources {
    /// `trials.jsonl` or `transcripts`.
    pub source: &'static str,
    /// Records or transcripts whose replies were re-scored.
    pub rescored: usize,
    /// Transcripts counted from their closing lines only.
    pub closing_lines_only: usize,
    /// Records kept as stored because they could not be re-scored.
    pub stored_verdicts: usize,
    /// Files or lines not counted.
    pub skipped: Vec<Skipped>,
    /// Trials read that `--filter` left out (the JSON's `filter` says how many matched).
    #[serde(skip)]
    pub filtered_out: usize,
}

/// What `--filter` kept, as the JSON's `filter`.
#[derive(Serialize)]
struct FilterSummary<'a> {
    /// The filter, trimmed.
    text: &'a str,
    /// The trials it matched, which the analysis counts.
    matched: usize,
    /// The trials read.
    trials: usize,
}

/// The whole report, as `--format json` prints it.
#[derive(Serialize)]
struct Report<'a> {
    dir: &'a str,
    /// Whose verdicts the analysis uses.
    scoring: &'static str,
    /// With `--scoring all`: the audit, as `score --scoring all --format json` gives it.
    #[serde(skip_serializing_if = "Option::is_none")]
    audit: Option<shapemaze_core::original::audit::AuditSummary>,
    /// With `--filter`: the filter and how many trials it matched.
    #[serde(skip_serializing_if = "Option::is_none")]
    filter: Option<FilterSummary<'a>>,
    #[serde(flatten)]
    sources: &'a Sources,
    #[serde(flatten)]
    analysis: &'a Analysis,
    /// With `--reviews FILE`: the reader's agreement with people.
    #[serde(skip_serializing_if = "Option::is_none")]
    review: Option<super::reviews::ReviewReport>,
    /// With `--compare A,B`: the two compared on every phase.
    #[serde(skip_serializing_if = "Option::is_none")]
    comparison: Option<Comparison>,
    /// The folder's `provenance.json`, when it has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    provenance: Option<Provenance>,
}

/// The folder's `provenance.json` (a run folder or an unzipped export), when there is one
/// that reads; one that does not is said on stderr and left out.
pub(crate) fn provenance_of(root: &Path, io: &mut Io<'_>) -> Result<Option<Provenance>, CliError> {
    let folder = if root.is_file() {
        root.parent().unwrap_or(root)
    } else {
        root
    };
    let path = folder.join(PROVENANCE_FILE);
    let Ok(text) = std::fs::read_to_string(&path) else {
        return Ok(None);
    };
    match Provenance::from_json(&text) {
        Ok(p) => Ok(Some(p)),
        Err(e) => {
            io.note(&format!(
                "{} is not a provenance file ({e}); left out",
                path.display()
            ))?;
            Ok(None)
        }
    }
}

/// Runs `report`.
pub fn run(args: &ReportArgs, io: &mut Io<'_>) -> Result<(), CliError> {
    let asked = Asked::of(args)?;
    let dir = args.dir.as_str();
    let root = Path::new(dir);
    let (scoring, audited) = scoring_of(args, root)?;
    let review = match args.reviews.as_deref() {
        Some(file) => Some(super::reviews::over_folder(
            root,
            &super::reviews::Reviews::load(file)?,
        )?),
        None => None,
    };
    let provenance = provenance_of(root, io)?;
    let review_text = review
        .as_ref()
        .map(|r| {
            super::reviews::render(r)
                + &super::reviews::render_totals(&r.read_totals, &r.totals, true)
                + "\n"
        })
        .unwrap_or_default()
        + &provenance
            .as_ref()
            .map(|p| p.summary() + "\n")
            .unwrap_or_default();
    // Words and phrases search the messages, which only trial records keep.
    if asked.filter.searches_text() && !(ours(root, dir) && audited.is_none()) {
        return Err(CliError::usage(format!(
            "--filter: words and phrases search the messages of trial records, and {dir} is read as transcripts (no trials.jsonl, or --scoring reads the transcripts): filter by fields only (shape:spiral solve:fail ...)"
        )));
    }
    let (observations, sources) = observations_of(root, audited.as_ref(), scoring, &asked.filter)?;
    let filter_summary = (!asked.filter.is_empty()).then(|| FilterSummary {
        text: asked.filter.text(),
        matched: observations.len(),
        trials: observations.len() + sources.filtered_out,
    });
    let filter_line = filter_summary
        .as_ref()
        .map(|f| asked.filter.summary(f.matched, f.trials) + "\n")
        .unwrap_or_default();
    let analysis = analyze(&observations, &asked.options);
    let comparison = match &asked.pair {
        Some((a, b)) => Some(comparison_of(&observations, a, b, dir, &asked.filter)?),
        None => None,
    };
    let scored_by = match scoring {
        Scoring::Strict | Scoring::All => "strict (today's verifiers)",
        Scoring::Original => "original (the original code's checks)",
        Scoring::Recorded => "recorded (the verdict lines as written)",
    };
    // The audit's tables, once, for the report file and (with `--scoring all`) the output.
    let summary = audited.map(|a| a.summarize(dir, scoring));
    if let Some(file) = args.html.as_deref() {
        // The report file holds the audit whenever the folder was audited.
        let audit_section = summary
            .as_ref()
            .map(|s| audit_html(s, 0))
            .unwrap_or_default();
        let html = report_html(
            &analysis,
            &audit_section,
            &format!(
                "{filter_line}{}\nVerdicts: {scored_by}.{}",
                settings_text(dir, &sources, &analysis, &observations),
                if review_text.is_empty() {
                    String::new()
                } else {
                    format!("\n{review_text}")
                }
            ),
            &observations_csv(&observations),
            &item_matrix_csv(
                as_counted(&observations, &asked.options)
                    .iter()
                    .map(Observation::item),
            ),
        );
        write_file(Path::new(file), html.as_bytes())?;
        io.note(&format!("wrote the HTML report to {file}"))?;
    }
    let summary = summary.filter(|_| scoring == Scoring::All);
    match args.format.as_str() {
        "json" => io.json_line(&Report {
            dir,
            scoring: scoring.name(),
            audit: summary,
            filter: filter_summary,
            sources: &sources,
            analysis: &analysis,
            review,
            comparison,
            provenance,
        }),
        "csv" if args.table.is_some() => table_csv(
            &analysis,
            summary.as_ref(),
            args.table.as_deref().unwrap_or_default(),
            io,
        ),
        "csv" => {
            let rows: Vec<GroupRow> = analysis
                .groups
                .iter()
                .chain(&analysis.pooled)
                .cloned()
                .collect();
            io.out(&csv::write(&groups_table("csv", "", &rows, true)))
        }
        _ => {
            let mut text = filter_line;
            if let Some(s) = &summary {
                if filter_summary.is_some() {
                    text.push_str("The audit counts every trial; the analysis after it, those the filter matched.\n");
                }
                text.push_str(&render_audit_text(s, scoring));
                text.push('\n');
            }
            let _ = writeln!(text, "Verdicts: {scored_by}.");
            text.push_str(&review_text);
            text.push_str(&render_text(dir, &sources, &analysis));
            if let Some(c) = &comparison {
                text.push_str(&comparison_text(c));
            }
            io.out(&text)
        }
    }
}

/// `--format csv --table ID`: the report's table ID as CSV (the audit's too, when the
/// output holds the audit); the people's tables whatever the data, with a line on stderr
/// saying why one has no rows; an ID the report does not have is refused with those it has.
fn table_csv(
    analysis: &Analysis,
    summary: Option<&shapemaze_core::original::audit::AuditSummary>,
    id: &str,
    io: &mut Io<'_>,
) -> Result<(), CliError> {
    let mut doc = analysis_document(analysis, false);
    if let Some(s) = summary {
        doc.sections
            .extend(audit_document(s, Scoring::All, 0, false).sections);
    }
    let people = shapemaze_view::report_people::people_section(analysis, false);
    let table = doc.table(id).or_else(|| {
        people.blocks.iter().find_map(|b| match b {
            shapemaze_view::document::Block::Table(t) if t.id == id => Some(t),
            _ => None,
        })
    });
    match table {
        Some(t) => {
            if t.rows.is_empty() {
                let why = t.empty.as_deref().unwrap_or("nothing to show");
                io.note(&format!("table {id} has no rows: {why}"))?;
            }
            io.out(&csv::write(t))
        }
        None => {
            let ids: Vec<&str> = doc
                .sections
                .iter()
                .flat_map(|s| &s.blocks)
                .filter_map(|b| match b {
                    shapemaze_view::document::Block::Table(t) => Some(t.id.as_str()),
                    _ => None,
                })
                .collect();
            Err(CliError::usage(format!(
                "--table: this report has no table '{id}'; it has {}",
                ids.join(", ")
            )))
        }
    }
}

/// What `report` was asked besides its folder: the analysis's options, the pair to
/// compare and the trial filter, each checked.
struct Asked {
    options: AnalysisOptions,
    pair: Option<(String, String)>,
    filter: TrialFilter,
}

impl Asked {
    fn of(args: &ReportArgs) -> Result<Asked, CliError> {
        let format = args.format.as_str();
        if !["text", "json", "csv"].contains(&format) {
            return Err(CliError::usage(format!(
                "unknown format '{format}': choose text, json or csv"
            )));
        }
        let mut options = AnalysisOptions::default();
        if let Some(order) = args.order.as_deref() {
            let names: Vec<String> = order
                .split(',')
                .map(|s| s.trim().to_string())
                .filter(|s| !s.is_empty())
                .collect();
            if names.len() < 2 {
                return Err(CliError::usage(format!(
                    "--order needs at least two model names separated by commas, not '{order}'"
                )));
            }
            options.model_order = names;
        }
        options.include_shown = args.include_shown;
        let pair = match args.compare.as_deref() {
            None => None,
            Some(list) => match list.split(',').map(str::trim).collect::<Vec<_>>()[..] {
                [a, b] if !a.is_empty() && !b.is_empty() && a != b => {
                    Some((a.to_string(), b.to_string()))
                }
                _ => {
                    return Err(CliError::usage(format!(
                        "--compare needs two different model or experiment names, A,B, not '{list}'"
                    )))
                }
            },
        };
        let filter = match args.filter.as_deref() {
            Some(text) => {
                TrialFilter::parse(text).map_err(|e| CliError::usage(format!("--filter: {e}")))?
            }
            None => TrialFilter::default(),
        };
        Ok(Asked {
            options,
            pair,
            filter,
        })
    }
}

/// Whether `dir` is a trials.jsonl file.
fn jsonl_file(root: &Path, dir: &str) -> bool {
    root.is_file() && dir.ends_with(".jsonl")
}

/// Whether `dir` is an export of ours: a trials.jsonl, or a folder that holds one or a
/// study's study-data.jsonl.
fn ours(root: &Path, dir: &str) -> bool {
    jsonl_file(root, dir) || root.join(TRIALS_JSONL).is_file() || root.join(STUDY_JSONL).is_file()
}

/// How the folder is scored, and its audit when its transcripts are read. An export
/// folder of ours is analysed strictly from its trials.jsonl unless another scoring is
/// asked for; then its transcripts are audited like the original runs'.
fn scoring_of(args: &ReportArgs, root: &Path) -> Result<(Scoring, Option<Audited>), CliError> {
    let dir = args.dir.as_str();
    let asked = args
        .scoring
        .as_deref()
        .map(audit::parse_scoring)
        .transpose()?;
    match asked {
        Some(Scoring::Strict) | None if ours(root, dir) => Ok((Scoring::Strict, None)),
        Some(s) if jsonl_file(root, dir) => Err(CliError::usage(format!(
            "--scoring {} reads transcripts, and {dir} is a trials.jsonl (Shapemaze's own verdicts): use --scoring strict, or give the folder of transcripts",
            s.name()
        ))),
        _ => {
            let mut skipped = Vec::new();
            let files = list_transcripts(root, &mut skipped)
                .map_err(|e| CliError::input(format!("cannot read {dir}: {e}")))?;
            // Folders the audit does not recognize as the original runs' (closing lines
            // only, say) keep the strict reading below unless another scoring is asked.
            let default = audit::default_scoring(root, &files);
            let scoring = asked.unwrap_or(default);
            if scoring == Scoring::Strict && default == Scoring::Strict {
                return Ok((scoring, None));
            }
            let audited = audit::collect(root, &files, skipped);
            if audited.is_empty() {
                return Err(CliError::input(format!(
                    "{dir} holds no transcripts to score with --scoring {}: give a results folder of transcripts",
                    scoring.name()
                )));
            }
            Ok((scoring, Some(audited)))
        }
    }
}

/// The trials to analyse, filtered, and where they came from: the records of an export
/// folder, or the observations of the audited transcripts.
fn observations_of(
    root: &Path,
    audited: Option<&Audited>,
    scoring: Scoring,
    filter: &TrialFilter,
) -> Result<(Vec<Observation>, Sources), CliError> {
    let (mut observations, mut sources) = match audited {
        None => read_observations(root, filter)?,
        Some(a) => {
            let (obs, left_out, closing_only) = a.observations(&label_of(root), scoring);
            let sources = Sources {
                source: "transcripts",
                rescored: obs.len() - closing_only,
                closing_lines_only: closing_only,
                stored_verdicts: 0,
                skipped: a.skipped_files(left_out),
                filtered_out: 0,
            };
            (obs, sources)
        }
    };
    // Trials read from transcripts are filtered by what their observations hold (records
    // were filtered as they were read).
    if sources.source != TRIALS_JSONL && !filter.is_empty() {
        let read = observations.len();
        observations.retain(|o| filter.matches_facts(&o.facts()));
        sources.filtered_out += read - observations.len();
    }
    Ok((observations, sources))
}

/// `--compare A,B`: the two compared, refused when either has no trial.
fn comparison_of(
    observations: &[Observation],
    a: &str,
    b: &str,
    dir: &str,
    filter: &TrialFilter,
) -> Result<Comparison, CliError> {
    let c = compare(observations, a, b);
    for (name, n) in [(&c.a, c.trials_a), (&c.b, c.trials_b)] {
        if n == 0 {
            let which = if filter.is_empty() {
                String::new()
            } else {
                format!(" that --filter '{}' matches", filter.text())
            };
            return Err(CliError::data(format!(
                "--compare: no trial of {dir}{which} has the model or experiment '{name}'"
            )));
        }
    }
    Ok(c)
}

/// A comparison as text: the table the results page shows ([`comparison_table`]).
fn comparison_text(c: &Comparison) -> String {
    format!("\nComparison\n{}", text::table(&comparison_table(c)))
}

/// The experiment's label: the name of its design (`experiment.json`'s `name`) when it
/// has one, as the results page names an imported run; else the folder's own name, however
/// the path names it (`trials.jsonl` from inside the folder, `.`, `exp/../exp`); `trials`
/// for a folder without a name (the file system's root).
fn label_of(root: &Path) -> String {
    let full = std::fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
    let base = if full.is_file() {
        full.parent().unwrap_or(&full)
    } else {
        &full
    };
    let design = std::fs::read_to_string(base.join(EXPERIMENT_FILE))
        .ok()
        .and_then(|text| ExperimentDesign::from_json(&text).ok())
        .map(|d| d.name.trim().to_string())
        .filter(|n| !n.is_empty());
    if let Some(name) = design {
        return name;
    }
    base.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .filter(|n| !n.is_empty() && n != "." && n != "..")
        .unwrap_or_else(|| "trials".to_string())
}

/// Reads the observations of `root`: its `trials.jsonl` when there is one (or `root` is a
/// `.jsonl` file), else every transcript below it. Only `root` failing to open is an error.
/// A trials.jsonl's records that `filter` does not match are left out (and counted in
/// [`Sources::filtered_out`]); transcripts are read whole, to filter by their observations.
pub fn read_observations(
    root: &Path,
    filter: &TrialFilter,
) -> Result<(Vec<Observation>, Sources), CliError> {
    let shown = root.display().to_string();
    let meta = std::fs::metadata(root)
        .map_err(|e| CliError::input(format!("cannot read {shown}: {e}")))?;
    let label = label_of(root);
    if meta.is_file() && shown.ends_with(".jsonl") {
        return read_jsonl(root, &label, filter);
    }
    let files: Vec<std::path::PathBuf> = [TRIALS_JSONL, STUDY_JSONL]
        .iter()
        .map(|f| root.join(f))
        .filter(|p| p.is_file())
        .collect();
    if files.is_empty() {
        return read_transcripts(root, &label);
    }
    let mut out = (Vec::new(), Sources::default());
    for p in files {
        let (obs, s) = read_jsonl(&p, &label, filter)?;
        out.0.extend(obs);
        let all = &mut out.1;
        all.source = TRIALS_JSONL;
        all.rescored += s.rescored;
        all.stored_verdicts += s.stored_verdicts;
        all.filtered_out += s.filtered_out;
        all.skipped.extend(s.skipped);
    }
    Ok(out)
}

/// A person's trial as a study's data gives it: the experiment label, the participant and
/// the solve phase's milliseconds.
pub type Person = (String, String, Option<f64>);

/// A line of a trials.jsonl (a record) or of a study's data (a participant's trial, its
/// record inside): the record, and for a person's trial their experiment label
/// (`people: STUDY`, as the results page names it), participant and solve time.
fn read_line(line: &str) -> Result<(TrialRecord, Option<Person>), Unscored> {
    match TrialRecord::from_json(line) {
        Ok(r) => Ok((r, None)),
        Err(e) => match serde_json::from_str::<StudyTrialData>(line) {
            Ok(d) if d.practice => Err(Unscored::Practice),
            Ok(d) => {
                let who = (
                    format!("people: {}", d.study),
                    d.participant_key(),
                    d.solve_ms(),
                );
                Ok((d.record, Some(who)))
            }
            Err(_) if serde_json::from_str::<OutcomeLine>(line).is_ok() => Err(Unscored::Outcome),
            Err(_) => Err(Unscored::NotARecord(e)),
        },
    }
}

/// Why a line of a trials.jsonl or a study's data is skipped.
#[derive(Debug)]
enum Unscored {
    /// A participant's practice trial.
    Practice,
    /// A participant's outcome (how their study ended), which the server's export writes
    /// after the trials: no trial, and not counted as skipped.
    Outcome,
    /// Neither a record nor a participant's trial (the record's error says why).
    NotARecord(RecordError),
}

impl std::fmt::Display for Unscored {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unscored::Practice => f.write_str("a practice trial (never scored)"),
            Unscored::Outcome => f.write_str("a participant's outcome, not a trial"),
            Unscored::NotARecord(e) => e.fmt(f),
        }
    }
}

fn read_jsonl(
    path: &Path,
    label: &str,
    filter: &TrialFilter,
) -> Result<(Vec<Observation>, Sources), CliError> {
    let mut out = Vec::new();
    let mut filtered_out = 0;
    let mut sources = each_record(path, |stored, rescored, person| {
        let r = rescored.as_ref().unwrap_or(&stored);
        let experiment = person.as_ref().map_or(label, |p| p.0.as_str());
        if filter.matches_in(experiment, r) {
            let o = Observation::from_record(experiment, r);
            out.push(match person {
                Some((_, who, ms)) => o.played_by(who, ms),
                None => o,
            });
        } else {
            filtered_out += 1;
        }
    })?;
    sources.filtered_out = filtered_out;
    Ok((out, sources))
}

/// Reads the records of `path` (a trials.jsonl, or a study's data) line by line and hands
/// each to `keep`: the record as stored, its re-scoring by today's verifiers (`None` when
/// it cannot be replayed, and its stored verdicts stand), and for a person's trial who
/// played it. Stored verdicts are never trusted. Lines that are not records are counted in
/// the sources' `skipped`, with their file and line; only the file failing to open is an
/// error.
pub fn each_record(
    path: &Path,
    mut keep: impl FnMut(TrialRecord, Option<TrialRecord>, Option<Person>),
) -> Result<Sources, CliError> {
    let bytes = std::fs::read(path)
        .map_err(|e| CliError::input(format!("cannot read {}: {e}", path.display())))?;
    let text = String::from_utf8(bytes)
        .map_err(|_| CliError::input(format!("{} is not UTF-8 text", path.display())))?;
    let mut sources = Sources {
        source: TRIALS_JSONL,
        ..Sources::default()
    };
    let mut libraries = Libraries::new();
    let name = path
        .file_name()
        .map_or(TRIALS_JSONL.into(), |n| n.to_string_lossy().into_owned());
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let (record, person) = match read_line(line) {
            Ok(r) => r,
            Err(Unscored::Outcome) => continue,
            Err(why) => {
                sources.skipped.push(Skipped {
                    file: format!("{name}:{}", i + 1),
                    why: why.to_string(),
                });
                continue;
            }
        };
        let fits = record.size <= shapemaze_core::maze::grid::MAX_SIZE;
        let rescored = if fits {
            record.rescored(libraries.of_record(&record).clone()).ok()
        } else {
            None
        };
        match &rescored {
            Some(_) => sources.rescored += 1,
            None => sources.stored_verdicts += 1,
        }
        keep(record, rescored, person);
    }
    Ok(sources)
}

fn read_transcripts(root: &Path, label: &str) -> Result<(Vec<Observation>, Sources), CliError> {
    let mut sources = Sources {
        source: "transcripts",
        ..Sources::default()
    };
    let files = list_transcripts(root, &mut sources.skipped)
        .map_err(|e| CliError::input(format!("cannot read {}: {e}", root.display())))?;
    let mut libraries = Libraries::new();
    let in_play = super::files::folder_shapes(root);
    let mut out = Vec::with_capacity(files.len());
    for path in files {
        let file = display(root, &path);
        let text = match std::fs::read(&path).map(String::from_utf8) {
            Ok(Ok(t)) => t,
            Ok(Err(_)) => {
                sources.skipped.push(Skipped {
                    file,
                    why: "not UTF-8 text".into(),
                });
                continue;
            }
            Err(e) => {
                sources.skipped.push(Skipped {
                    file,
                    why: format!("cannot be read: {e}"),
                });
                continue;
            }
        };
        let known = Hints {
            in_play,
            maze: maze_beside(&path, &text),
            ..Hints::default()
        };
        match Observation::from_transcript(
            label,
            &path.to_string_lossy(),
            &text,
            known,
            &mut libraries,
        ) {
            Ok((o, basis)) => {
                match basis {
                    Basis::Replies => sources.rescored += 1,
                    Basis::ClosingLines => sources.closing_lines_only += 1,
                }
                out.push(o);
            }
            Err(why) => sources.skipped.push(Skipped {
                file,
                why: why.to_string(),
            }),
        }
    }
    sources.skipped.sort_by(|a, b| a.file.cmp(&b.file));
    Ok((out, sources))
}

/// The "design and settings" text of the report file.
fn settings_text(dir: &str, s: &Sources, a: &Analysis, obs: &[Observation]) -> String {
    let set = |f: &dyn Fn(&Observation) -> String| {
        let mut v: Vec<String> = obs.iter().map(f).collect();
        v.sort();
        v.dedup();
        v.join(", ")
    };
    format!(
        "Source: {dir} ({}): {} trials{}, {} re-scored from their replies, {} counted from closing lines only, {} kept with stored verdicts, {} files or lines skipped.\nModels: {}\nEncodings: {}\nShapes: {}\nSizes: {}\nH3 model order: {}\nSignificance level 0.05; intervals are 95%.\nMade by shapemaze {}.",
        s.source,
        a.trials,
        if s.filtered_out > 0 {
            format!(
                " of {} read (the filter left out {})",
                a.trials + s.filtered_out,
                s.filtered_out
            )
        } else {
            String::new()
        },
        s.rescored,
        s.closing_lines_only,
        s.stored_verdicts,
        s.skipped.len(),
        set(&|o| o.model.clone()),
        set(&|o| o.encoding.name().to_string()),
        set(&|o| o.shape.name().to_string()),
        set(&|o| format!("{0}x{0}", o.size)),
        a.model_order.join(" < "),
        env!("CARGO_PKG_VERSION")
    )
}

/// The report as text for a terminal: where the trials came from, the report, and the
/// files or lines not counted.
fn render_text(dir: &str, s: &Sources, a: &Analysis) -> String {
    let mut t = format!(
        "Report on {dir} ({}): {} re-scored from their replies, {} counted from their closing lines only, {} kept with stored verdicts.\n",
        s.source, s.rescored, s.closing_lines_only, s.stored_verdicts,
    );
    t.push_str(&text::write(&analysis_document(a, false)));
    if !s.skipped.is_empty() {
        let _ = writeln!(t, "\nNot counted: {}", s.skipped.len());
        for k in &s.skipped {
            let _ = writeln!(t, "  {}: {}", k.file, k.why);
        }
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_experiment_is_named_after_its_folder_however_the_path_names_it() {
        let dir = std::env::temp_dir().join(format!("shapemaze-label-{}", std::process::id()));
        let exp = dir.join("exp-7");
        std::fs::create_dir_all(exp.join("sub")).expect("folders");
        std::fs::write(exp.join("trials.jsonl"), "").expect("a file");
        for path in [
            exp.clone(),
            exp.join("trials.jsonl"),
            exp.join("."),
            exp.join("sub").join(".."),
            exp.join("sub").join("..").join("trials.jsonl"),
        ] {
            assert_eq!(label_of(&path), "exp-7", "{}", path.display());
        }
        assert_eq!(label_of(Path::new("/")), "trials");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
