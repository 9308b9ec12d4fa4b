//! `shapemaze report DIR`: the results dashboard's measures, analyses and hypothesis
//! verdicts for an export folder, as text, JSON or CSV, and the same self-contained HTML
//! report file the page downloads. All figures come from [`crate::core::analysis`].

use super::args::COMMAND_HELP;
use super::audit;
use super::files::{display, list_transcripts};
use super::{write_file, CliError, Io};
use crate::core::analysis::analyze::{analyze, Analysis, AnalysisOptions};
use crate::core::analysis::groups::{groups_csv, EmptyAnswers, GroupRow};
use crate::core::analysis::hypotheses::fmt_p;
use crate::core::analysis::observation::{observations_csv, Observation, ALL};
use crate::core::analysis::stats::Proportion;
use crate::core::model::reply::EmptyReason;
use crate::core::original::audit::{Scoring, Skipped};
use crate::core::results::record::TrialRecord;
use crate::core::results::rescore::{Basis, Libraries};
use crate::view::audit::{audit_html, render_text as render_audit_text};
use crate::view::report::report_html;
use crate::view::text_table::{TextColumn, TextTable};
use serde::Serialize;
use std::fmt::Write as _;
use std::path::Path;

/// The file of full trial records in an export folder.
pub const TRIALS_JSONL: &str = "trials.jsonl";

/// `shapemaze report`'s options.
#[derive(Debug, clap::Args)]
#[command(
    help_template = COMMAND_HELP,
    display_name = "shapemaze report",
    override_usage = "shapemaze report DIR [--format text|json|csv] [--html FILE] [--order M1,M2,M3]
                         [--scoring strict|original|recorded|all]",
    after_help = "DIR is an export folder (or a trials.jsonl file). When DIR holds trials.jsonl, its records
are read and re-scored by today's verifiers; otherwise every transcript under
  {encoding}_{model}_results/{R}x{C}/{shape}/{R}x{C}_{shape}_{i}.npy/{k}.txt
is re-scored from its replies, and transcripts holding only the three closing lines (the
design's own runs) are counted from those lines. API errors are never model failures:
they are left out of every rate and counted apart.

Prints the success rates by model x encoding x shape with 95% Wilson intervals, the solve
details (moves, failure types, move validity), the recognition confusion matrix, the
generation checks, matrix vs coordinate list paired by maze (McNemar), shape effects
(chi-square, ANOVA, observed vs predicted difficulty), phase correlations (phi) and the
verdicts on H1-H4; and, when there are any, the trials with empty answers (judged like any
other) by why they were empty: the token limit spent on reasoning, reached with no text, or
a reply ended without text. Moves, the confusion matrix, the generation checks and empty
answers need trials.jsonl; transcripts give the outcomes and reasons only.

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
    /// model containing it, ignoring case (default qwen-turbo,qwen-plus,qwen-max)
    #[arg(long, value_name = "LIST", verbatim_doc_comment)]
    pub order: Option<String>,
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
}

/// The whole report, as `--format json` prints it.
#[derive(Serialize)]
struct Report<'a> {
    dir: &'a str,
    /// Whose verdicts the analysis uses.
    scoring: &'static str,
    /// With `--scoring all`: the audit, as `score --scoring all --format json` gives it.
    #[serde(skip_serializing_if = "Option::is_none")]
    audit: Option<crate::core::original::audit::AuditSummary>,
    #[serde(flatten)]
    sources: &'a Sources,
    #[serde(flatten)]
    analysis: &'a Analysis,
}

/// Runs `report`.
pub fn run(args: &ReportArgs, io: &mut Io<'_>) -> Result<(), CliError> {
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
    let dir = args.dir.as_str();
    let asked = args
        .scoring
        .as_deref()
        .map(audit::parse_scoring)
        .transpose()?;
    let root = Path::new(dir);
    // An export folder of ours is analysed strictly from its trials.jsonl unless another
    // scoring is asked for; then its transcripts are audited like the original runs'.
    let jsonl_file = root.is_file() && dir.ends_with(".jsonl");
    let ours = jsonl_file || root.join(TRIALS_JSONL).is_file();
    let (scoring, audited) = match asked {
        Some(Scoring::Strict) | None if ours => (Scoring::Strict, None),
        Some(s) if jsonl_file => {
            return Err(CliError::usage(format!(
                "--scoring {} reads transcripts, and {dir} is a trials.jsonl (Shapemaze's own verdicts): use --scoring strict, or give the folder of transcripts",
                s.name()
            )))
        }
        _ => {
            let mut skipped = Vec::new();
            let files = list_transcripts(root, &mut skipped)
                .map_err(|e| CliError::input(format!("cannot read {dir}: {e}")))?;
            // Folders the audit does not recognize as the original runs' (closing lines
            // only, say) keep the strict reading below unless another scoring is asked.
            let default = audit::default_scoring(root, &files);
            let scoring = asked.unwrap_or(default);
            if scoring == Scoring::Strict && default == Scoring::Strict {
                (scoring, None)
            } else {
                let audited = audit::collect(root, &files, skipped);
                if audited.is_empty() {
                    return Err(CliError::input(format!(
                        "{dir} holds no transcripts to score with --scoring {}: give a results folder of transcripts",
                        scoring.name()
                    )));
                }
                (scoring, Some(audited))
            }
        }
    };
    let (observations, sources) = match &audited {
        None => read_observations(root)?,
        Some(a) => {
            let (obs, left_out, closing_only) = a.observations(&label_of(root), scoring);
            let sources = Sources {
                source: "transcripts",
                rescored: obs.len() - closing_only,
                closing_lines_only: closing_only,
                stored_verdicts: 0,
                skipped: a.skipped_files(left_out),
            };
            (obs, sources)
        }
    };
    let analysis = analyze(&observations, &options);
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
                "{}\nVerdicts: {scored_by}.",
                settings_text(dir, &sources, &analysis, &observations)
            ),
            &observations_csv(&observations),
        );
        write_file(Path::new(file), html.as_bytes())?;
        io.note(&format!("wrote the HTML report to {file}"))?;
    }
    let summary = summary.filter(|_| scoring == Scoring::All);
    match format {
        "json" => io.json_line(&Report {
            dir,
            scoring: scoring.name(),
            audit: summary,
            sources: &sources,
            analysis: &analysis,
        }),
        "csv" => {
            let rows: Vec<GroupRow> = analysis
                .groups
                .iter()
                .chain(&analysis.pooled)
                .cloned()
                .collect();
            io.out(&groups_csv(&rows))
        }
        _ => {
            let mut text = String::new();
            if let Some(s) = &summary {
                text.push_str(&render_audit_text(s, scoring));
                text.push('\n');
            }
            let _ = writeln!(text, "Verdicts: {scored_by}.");
            text.push_str(&render_text(dir, &sources, &analysis));
            io.out(&text)
        }
    }
}

/// The experiment's label: the folder's own name.
fn label_of(root: &Path) -> String {
    let base = if root.is_file() {
        root.parent().unwrap_or(root)
    } else {
        root
    };
    base.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .filter(|n| !n.is_empty())
        .unwrap_or_else(|| base.to_string_lossy().into_owned())
}

/// Reads the observations of `root`: its `trials.jsonl` when there is one (or `root` is a
/// `.jsonl` file), else every transcript below it. Only `root` failing to open is an error.
pub fn read_observations(root: &Path) -> Result<(Vec<Observation>, Sources), CliError> {
    let shown = root.display().to_string();
    let meta = std::fs::metadata(root)
        .map_err(|e| CliError::input(format!("cannot read {shown}: {e}")))?;
    let label = label_of(root);
    let jsonl = if meta.is_file() && shown.ends_with(".jsonl") {
        Some(root.to_path_buf())
    } else {
        let p = root.join(TRIALS_JSONL);
        p.is_file().then_some(p)
    };
    match jsonl {
        Some(p) => read_jsonl(&p, &label),
        None => read_transcripts(root, &label),
    }
}

fn read_jsonl(path: &Path, label: &str) -> Result<(Vec<Observation>, Sources), CliError> {
    let bytes = std::fs::read(path)
        .map_err(|e| CliError::input(format!("cannot read {}: {e}", path.display())))?;
    let text = String::from_utf8(bytes)
        .map_err(|_| CliError::input(format!("{} is not UTF-8 text", path.display())))?;
    let mut sources = Sources {
        source: "trials.jsonl",
        ..Sources::default()
    };
    let mut libraries = Libraries::new();
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let record = match TrialRecord::from_json(line) {
            Ok(r) => r,
            Err(e) => {
                sources.skipped.push(Skipped {
                    file: format!("{TRIALS_JSONL}:{}", i + 1),
                    why: e.to_string(),
                });
                continue;
            }
        };
        // Stored verdicts are never trusted: replay the replies by today's rules.
        let fits = record.size <= crate::core::maze::grid::MAX_SIZE;
        let rescored = if fits {
            record.rescored(libraries.get(record.size).clone()).ok()
        } else {
            None
        };
        match rescored {
            Some(r) => {
                sources.rescored += 1;
                out.push(Observation::from_record(label, &r));
            }
            None => {
                sources.stored_verdicts += 1;
                out.push(Observation::from_record(label, &record));
            }
        }
    }
    Ok((out, sources))
}

fn read_transcripts(root: &Path, label: &str) -> Result<(Vec<Observation>, Sources), CliError> {
    let mut sources = Sources {
        source: "transcripts",
        ..Sources::default()
    };
    let files = list_transcripts(root, &mut sources.skipped)
        .map_err(|e| CliError::input(format!("cannot read {}: {e}", root.display())))?;
    let mut libraries = Libraries::new();
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
        match Observation::from_transcript(label, &path.to_string_lossy(), &text, &mut libraries) {
            Ok((o, basis)) => {
                match basis {
                    Basis::Replies => sources.rescored += 1,
                    Basis::ClosingLines => sources.closing_lines_only += 1,
                }
                out.push(o);
            }
            Err(why) => sources.skipped.push(Skipped { file, why }),
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
        "Source: {dir} ({}): {} trials, {} re-scored from their replies, {} counted from closing lines only, {} kept with stored verdicts, {} files or lines skipped.\nModels: {}\nEncodings: {}\nShapes: {}\nSizes: {}\nH3 model order: {}\nSignificance level 0.05; intervals are 95%.\nMade by shapemaze {}.",
        s.source,
        a.trials,
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

fn cell(p: &Proportion) -> String {
    if p.n == 0 {
        return "n/a".into();
    }
    format!(
        "{}/{} {:.1}% [{:.1}, {:.1}]",
        p.successes,
        p.n,
        100.0 * p.rate,
        100.0 * p.ci_low,
        100.0 * p.ci_high
    )
}

/// The empty answers by why they were empty, all trials and per model ("K of N trials");
/// nothing when no trial had one.
fn empty_answers_text(a: &Analysis) -> String {
    if !a.empty_answers.first().is_some_and(EmptyAnswers::any) {
        return String::new();
    }
    let mut table = TextTable::new(&[
        TextColumn::left(44),
        TextColumn::left(0),
        TextColumn::left(0),
        TextColumn::left(0),
    ]);
    table
        .line("")
        .line("Empty answers (judged as the model's answers like any other; trials with at least one)")
        .row(std::iter::once("group").chain(EmptyReason::ALL.map(EmptyReason::label)));
    for e in &a.empty_answers {
        table.row(
            std::iter::once(e.model.clone())
                .chain(EmptyReason::ALL.map(|r| format!("{} of {} trials", e.count(r), e.trials))),
        );
    }
    table.render()
}

fn opt(x: Option<f64>) -> String {
    x.map_or("n/a".into(), |x| format!("{x:.2}"))
}

/// The report as text for a terminal.
fn render_text(dir: &str, s: &Sources, a: &Analysis) -> String {
    let mut t = String::new();
    let several = a.experiments.len() > 1;
    let _ = writeln!(
        t,
        "Report on {dir} ({}): {} trials; {} re-scored from their replies, {} counted from their closing lines only, {} kept with stored verdicts; {} with an API error (left out of every rate).",
        s.source, a.trials, s.rescored, s.closing_lines_only, s.stored_verdicts, a.api_errors
    );
    let _ = writeln!(
        t,
        "Rates: successes/judged, percent, [95% Wilson interval].\n"
    );
    let _ = writeln!(t, "Hypotheses (alpha 0.05)");
    for (k, h, statement) in a.hypotheses.all() {
        let _ = writeln!(t, "  {k} {statement}: {}", h.verdict.name());
        let _ = writeln!(
            t,
            "     {}: statistic {}, p {}, n = {}",
            h.test,
            opt(h.statistic),
            h.p.map_or("n/a".into(), fmt_p),
            h.n
        );
        let _ = writeln!(t, "     {}", h.note);
        if let Some(w) = &h.warning {
            let _ = writeln!(t, "     Warning: {w}");
        }
    }
    // The pooled rows and the model x encoding x shape rows, in the same columns.
    let mut groups = TextTable::new(&[
        TextColumn::left(44),
        TextColumn::right(7),
        TextColumn::right(5),
        TextColumn::left(30).before("  "),
        TextColumn::left(30),
        TextColumn::left(30),
    ]);
    for (title, rows) in [
        ("Pooled (model/encoding/shape, `all` = pooled)", &a.pooled),
        ("Model x encoding x shape", &a.groups),
    ] {
        groups.line("").line(title).row([
            "group",
            "trials",
            "err",
            "solve",
            "recognize",
            "generate",
        ]);
        for r in rows {
            groups.row([
                r.label(several),
                r.trials.to_string(),
                r.api_errors.to_string(),
                cell(&r.solve),
                cell(&r.recognize),
                cell(&r.generate),
            ]);
        }
    }
    t.push_str(&groups.render());
    t.push_str(&empty_answers_text(a));

    t.push_str("\nSolving details (pooled rows; moves need trials.jsonl)\n");
    let mut solving = TextTable::new(&[
        TextColumn::left(44),
        TextColumn::right(9),
        TextColumn::right(9),
        TextColumn::right(9),
        TextColumn::left(34).before("  "),
        TextColumn::right(7),
        TextColumn::right(7),
        TextColumn::right(7),
        TextColumn::right(5),
        TextColumn::left(0).before("  "),
    ]);
    solving.row([
        "group",
        "detailed",
        "moves",
        "excess",
        "invalid move (by reason)",
        "limit",
        "unpars",
        "unknwn",
        "api",
        "move validity",
    ]);
    for d in a.details.iter().skip(a.groups.len()) {
        let reasons = d
            .failures
            .invalid_by_reason
            .iter()
            .map(|(k, v)| format!("{k} {v}"))
            .collect::<Vec<_>>()
            .join(", ");
        solving.row([
            format!("{}/{}/{}", d.model, d.encoding, d.shape),
            d.detailed.to_string(),
            opt(d.moves_per_success.mean),
            opt(d.excess_moves.mean),
            format!("{} ({reasons})", d.failures.invalid_move),
            d.failures.move_limit.to_string(),
            d.failures.unparseable_reply.to_string(),
            d.failures.unknown.to_string(),
            d.failures.api_error.to_string(),
            cell(&d.move_validity),
        ]);
    }
    t.push_str(&solving.render());

    t.push_str("\nGeneration checks (pooled rows)\n");
    let mut columns = vec![TextColumn::left(44)];
    columns.extend(std::iter::repeat_n(TextColumn::left(30), 5));
    let mut generation = TextTable::new(&columns);
    generation.row([
        "group",
        "valid encoding",
        "shape preserved",
        "novel",
        "path valid",
        "all four",
    ]);
    for d in a.details.iter().skip(a.groups.len()) {
        let g = &d.generation;
        generation.row([
            format!("{}/{}/{}", d.model, d.encoding, d.shape),
            cell(&g.valid_encoding),
            cell(&g.shape_preserved),
            cell(&g.novel),
            cell(&g.path_valid),
            cell(&g.all_four),
        ]);
    }
    t.push_str(&generation.render());

    if let Some(c) = a.confusion.iter().find(|c| c.scope == ALL) {
        t.push_str("\nShape confusion matrix (rows: true shape; columns: shape named)\n");
        let mut columns = vec![TextColumn::left(10)];
        columns.extend(std::iter::repeat_n(TextColumn::right(9), c.cols.len()));
        let mut confusion = TextTable::new(&columns);
        confusion.row(std::iter::once(String::new()).chain(c.cols.iter().cloned()));
        for (r, counts) in c.rows.iter().zip(&c.counts) {
            confusion.row(std::iter::once(r.clone()).chain(counts.iter().map(|n| n.to_string())));
        }
        t.push_str(&confusion.render());
    } else {
        t.push_str("\nShape confusion matrix: no shape named is known (it needs trials.jsonl).\n");
    }

    t.push_str("\nMatrix vs coordinate list, paired by maze\n");
    let mut encodings = TextTable::new(&[
        TextColumn::left(32),
        TextColumn::left(11),
        TextColumn::left(0),
    ]);
    for c in &a.encoding_comparison {
        let test = c.test.map_or("n/a".into(), |m| {
            format!(
                "difference {:+.1} points [{:+.1}, {:+.1}], McNemar {} {:.2}, p {}",
                100.0 * m.difference,
                100.0 * m.ci_low,
                100.0 * m.ci_high,
                if m.exact { "exact k =" } else { "chi2 =" },
                m.statistic,
                fmt_p(m.p)
            )
        });
        encodings.row([
            format!("  {}", c.model),
            c.phase.to_string(),
            format!(
                "matrix {}, coord_list {}; {test}",
                cell(&c.matrix),
                cell(&c.coord_list)
            ),
        ]);
    }
    t.push_str(&encodings.render());

    t.push_str("\nShape effects\n");
    for p in &a.shape_effects.phases {
        let chi = p.chi_square.map_or("n/a".into(), |c| {
            format!("chi2({}) = {:.2}, p {}", c.df, c.statistic, fmt_p(c.p))
        });
        let anova = p.anova.map_or("n/a".into(), |x| {
            format!("F({}, {}) = {:.2}, p {}", x.df1, x.df2, x.f, fmt_p(x.p))
        });
        let _ = writeln!(
            t,
            "  {:<10} success x shape {chi}; ANOVA on {} per-maze scores {anova}",
            p.phase, p.mazes
        );
    }
    t.push_str("  Difficulty, easiest first (observed rank / predicted rank, mean phase rate):");
    for r in &a.shape_effects.ranking {
        let _ = write!(
            t,
            " {} {}/{} {:.1}%;",
            r.shape,
            r.observed,
            r.predicted,
            100.0 * r.score
        );
    }
    let _ = writeln!(
        t,
        "\n  Spearman's rho, predicted vs observed: {}",
        a.shape_effects.spearman.map_or("n/a".into(), |c| format!(
            "{:.2}, p {}, n = {}",
            c.r,
            fmt_p(c.p),
            c.n
        ))
    );

    t.push_str("\nPhase correlations (phi [95% CI])\n");
    let mut correlations = TextTable::new(&[
        TextColumn::left(32),
        TextColumn::right(9),
        TextColumn::left(10).gap(1).before(" / "),
        TextColumn::left(11),
        TextColumn::left(0),
    ]);
    for c in &a.phase_correlations {
        correlations.row([
            format!("  {}", c.model),
            c.first.to_string(),
            c.second.to_string(),
            format!("n = {}", c.counts.n()),
            c.phi.map_or("n/a".into(), |p| {
                format!("{:.2} [{:.2}, {:.2}]", p.phi, p.ci_low, p.ci_high)
            }),
        ]);
    }
    t.push_str(&correlations.render());
    if !s.skipped.is_empty() {
        let _ = writeln!(t, "\nNot counted: {}", s.skipped.len());
        for k in &s.skipped {
            let _ = writeln!(t, "  {}: {}", k.file, k.why);
        }
    }
    t
}
