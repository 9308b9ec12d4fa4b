//! `shapemaze score DIR`: re-scores every transcript under a folder from its reply text and
//! reports totals, the trials whose recorded verdicts differ, and what could not be re-run.

use super::audit;
use super::files::{display, folder_shapes, hints_for, list_transcripts};
use super::reviews::{self, ReviewReport, Reviews};
use super::second_reader::{self, Asked, Judge, SecondReaderReport};
use super::totals::totals_table;
use crate::io::{CliError, Io};
use crate::values::COMMAND_HELP;
use serde::Serialize;
use shapemaze_core::analysis::review::built_in_name;
use shapemaze_core::maze::shape::Shape;
use shapemaze_core::maze::shape::ShapeSet;
use shapemaze_core::original::audit::{Scoring, Skipped};
use shapemaze_core::results::layout::ExportPath;
use shapemaze_core::results::rescore::replies_read;
use shapemaze_core::results::rescore::{rescore, Basis, Hints, Libraries, Rescored};
use shapemaze_core::results::tally::{tally, Difference, Entry, Total, UNKNOWN};
use shapemaze_core::verify::{Outcome, Reason};
use std::fmt::Write as _;
use std::path::Path;

/// `shapemaze score`'s options.
#[derive(Debug, clap::Args)]
#[command(
    help_template = COMMAND_HELP,
    display_name = "shapemaze score",
    override_usage = "shapemaze score DIR [--format text|json] [--scoring strict|original|recorded|all] [--reviews FILE] [--second-reader FILE]",
    after_help = "Reads every *.txt under DIR (sorted by path). Transcripts in the export layout
  {encoding}_{model}_results/{R}x{C}/{shape}/{R}x{C}_{shape}_{i}.npy/{k}.txt
(the design's {encoding}_qwen_results/ too) take their encoding, model and shape from the
path; elsewhere the encoding is read from the first message and the shape from the maze's
corridor. Each reply is re-run through a fresh trial by the app's rules; stored verdicts
(closing lines, trials.csv, trials.jsonl) are never trusted.

Prints totals per model, encoding, shape and phase, every trial whose recorded closing
line differs from the recomputed verdict (naming the file), and how many transcripts had no
### user / ### assistant markers and so were counted from their closing lines only.
A phase whose closing line reads ERROR (the endpoint failed) and has no reply is counted
apart as an API error (!N), never as a failure.

Exit status 0 when it ran, whatever it found; 2 for bad arguments; 4 when DIR cannot be
read.

Example:
  shapemaze score results/ --format json > rescored.json"
)]
pub struct ScoreArgs {
    /// the folder to re-score
    #[arg(value_name = "DIR")]
    pub dir: String,
    /// text or json (one object: summary counts, totals, differences,
    /// closing_lines_only, skipped, trials)
    #[arg(long, value_name = "F", default_value = "text", verbatim_doc_comment)]
    pub format: String,
    /// strict (today's verifiers; the default on our own folders), original (the
    /// design's original checks, ORIGINAL_DATA.md), recorded (the verdict lines as
    /// written) or all (the three side by side with the cause of every
    /// strict/original difference; the default on folders of the original runs)
    #[arg(long, value_name = "S", verbatim_doc_comment)]
    pub scoring: Option<String>,
    /// people's readings (reviews.jsonl, exported from the review part of /results):
    /// every rate also as reviewed, and the reader's agreement with the reviews per
    /// phase, over the sure readings of a random sample and over the unsure ones apart,
    /// each with its Wilson interval (JSON: `review`)
    #[arg(long, value_name = "FILE", verbatim_doc_comment)]
    pub reviews: Option<String>,
    /// a chat model as a second reader of every reply: FILE holds its settings as a
    /// design's endpoint player ({"kind": "endpoint", "base_url", "model", "key_env"});
    /// its answers are kept in DIR/second-reader.jsonl (a rerun resumes); the report
    /// adds Cohen's kappa per phase and the replies read differently (JSON:
    /// `second_reader`)
    #[arg(long, value_name = "FILE", verbatim_doc_comment)]
    pub second_reader: Option<String>,
}

/// The totals' legend; API errors are explained only when there are any, so reports
/// without them read as before.
fn legend(totals: &[Total]) -> String {
    let mut out = "Totals: successes/scored trials and percent; ?N = N trials whose phase could not be scored".to_string();
    let api_errors = totals.iter().any(|t| {
        [t.solve, t.recognize, t.generate]
            .iter()
            .any(|c| c.api_error > 0)
    });
    if api_errors {
        out.push_str("; !N = N trials whose endpoint failed (API errors, not counted as failures)");
    }
    out
}

/// One transcript re-scored, with where it lies.
#[derive(Serialize)]
struct Scored {
    file: String,
    model: String,
    layout: Option<ExportPath>,
    #[serde(flatten)]
    result: Rescored,
}

/// The whole report, as `--format json` prints it.
#[derive(Serialize)]
struct Report<'a> {
    dir: &'a str,
    transcripts: usize,
    rescored: usize,
    closing_lines_only: usize,
    without_markers: usize,
    skipped: usize,
    totals: Vec<Total>,
    differences: Vec<Difference<'a>>,
    closing_lines_only_files: Vec<Skipped>,
    skipped_files: &'a [Skipped],
    trials: &'a [Scored],
    #[serde(skip_serializing_if = "Option::is_none")]
    review: Option<ReviewReport>,
    #[serde(skip_serializing_if = "Option::is_none")]
    second_reader: Option<SecondReaderReport>,
}

/// Runs `score`.
pub fn run(args: &ScoreArgs, io: &mut Io<'_>) -> Result<(), CliError> {
    let json = match args.format.as_str() {
        "text" => false,
        "json" => true,
        other => {
            return Err(CliError::usage(format!(
                "unknown format '{other}': choose text or json"
            )))
        }
    };
    let dir = args.dir.as_str();
    let scoring = args
        .scoring
        .as_deref()
        .map(audit::parse_scoring)
        .transpose()?;
    let root = Path::new(dir);
    let mut skipped = Vec::new();
    let files = list_transcripts(root, &mut skipped)
        .map_err(|e| CliError::input(format!("cannot read {dir}: {e}")))?;
    let scoring = scoring.unwrap_or_else(|| audit::default_scoring(root, &files));
    if scoring != Scoring::Strict {
        if args.reviews.is_some() || args.second_reader.is_some() {
            return Err(CliError::usage(
                "--reviews and --second-reader apply to the strict scoring only (leave out --scoring, or use --scoring strict)",
            ));
        }
        return audit::run(dir, root, &files, skipped, scoring, json, io);
    }
    let reviews = args.reviews.as_deref().map(Reviews::load).transpose()?;
    let judge = args.second_reader.as_deref().map(Judge::load).transpose()?;
    let mut asked: Vec<Asked> = Vec::new();
    let mut reviewed_results: Vec<(usize, Rescored)> = Vec::new();
    let mut reviewed_read = reviews::Read::new();
    let mut libraries = Libraries::new();
    let in_play = folder_shapes(root);
    let mut scored = Vec::with_capacity(files.len());
    for path in files {
        let file = display(root, &path);
        let text = match std::fs::read(&path) {
            Ok(bytes) => match String::from_utf8(bytes) {
                Ok(t) => t,
                Err(_) => {
                    skipped.push(Skipped {
                        file,
                        why: "not UTF-8 text".into(),
                    });
                    continue;
                }
            },
            Err(e) => {
                skipped.push(Skipped {
                    file,
                    why: format!("cannot be read: {e}"),
                });
                continue;
            }
        };
        let (layout, hints) = hints_for(&path, &text, in_play);
        let result = rescore(&text, &hints, &mut libraries);
        if !result.is_transcript() {
            skipped.push(Skipped {
                file,
                why: "not a transcript: no message markers and no closing lines".into(),
            });
            continue;
        }
        let model = layout
            .as_ref()
            .map_or(UNKNOWN.to_string(), |l| l.model.clone());
        // The built-in players' replies are our own text: the second reader leaves them.
        if judge.is_some() && !built_in_name(&model) {
            asked.extend(to_ask(&file, &text, &hints));
        }
        if let Some(applied) = reviews
            .as_ref()
            .and_then(|r| reviews::apply(r, &file, &model, &text, &hints, &mut libraries))
        {
            reviewed_results.push((scored.len(), applied.result));
            reviewed_read.extend(applied.read);
        }
        scored.push(Scored {
            file,
            model,
            layout,
            result,
        });
    }
    skipped.sort_by(|a, b| a.file.cmp(&b.file));
    let entries: Vec<Entry<'_>> = scored
        .iter()
        .map(|s| Entry {
            file: &s.file,
            model: &s.model,
            result: &s.result,
        })
        .collect();
    let counted = tally(&entries);
    let review = reviews.as_ref().map(|r| {
        // The folder's entries with the reviewed results in place.
        let mut as_reviewed: Vec<Entry<'_>> = entries.clone();
        for (i, result) in &reviewed_results {
            as_reviewed[*i].result = result;
        }
        reviews::report(r, &reviewed_read, tally(&as_reviewed).totals)
    });
    let second_reader = match &judge {
        Some(j) if root.is_dir() => Some(second_reader::run(j, root, &asked, io)?),
        Some(_) => {
            return Err(CliError::usage(
                "--second-reader needs a folder (its answers are kept inside it), not a single transcript",
            ))
        }
        None => None,
    };
    let report = Report {
        dir,
        transcripts: counted.transcripts,
        rescored: counted.rescored,
        closing_lines_only: counted.closing_lines_only,
        without_markers: counted.without_markers,
        skipped: skipped.len(),
        totals: counted.totals,
        differences: counted.differences,
        closing_lines_only_files: scored
            .iter()
            .filter(|s| s.result.basis == Basis::ClosingLines)
            .map(|s| Skipped {
                file: s.file.clone(),
                why: s.result.notes.join("; "),
            })
            .collect(),
        skipped_files: &skipped,
        trials: &scored,
        review,
        second_reader,
    };
    if json {
        io.json_line(&report)
    } else {
        io.out(&render_text(&report))
    }
}

fn closing(o: Option<Outcome>) -> &'static str {
    o.map_or("(none)", Outcome::closing)
}

fn render_text(r: &Report<'_>) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Scored {} transcripts under {}: {} re-scored from their replies, {} counted from their closing lines only ({} of them without message markers).",
        r.transcripts, r.dir, r.rescored, r.closing_lines_only, r.without_markers
    );
    if r.skipped > 0 {
        let _ = writeln!(
            out,
            "Skipped {} files that are not transcripts (listed below).",
            r.skipped
        );
    }
    let _ = writeln!(out, "\n{}", legend(&r.totals));
    out.push_str(&totals_table(&r.totals));
    let _ = writeln!(
        out,
        "\nRecorded verdicts that differ from the recomputed ones: {}",
        r.differences.len()
    );
    for d in &r.differences {
        let _ = writeln!(
            out,
            "  {}: {} recorded {}, recomputed {} ({}: {})",
            d.file,
            d.phase.to_uppercase(),
            closing(d.recorded),
            closing(d.recomputed),
            d.reason.map_or("not recomputed", Reason::as_str),
            d.explanation.unwrap_or("see the notes")
        );
    }
    let sections = [
        (
            "Counted from their closing lines only",
            &r.closing_lines_only_files[..],
        ),
        ("Skipped", r.skipped_files),
    ];
    for (title, list) in sections {
        if !list.is_empty() {
            let _ = writeln!(out, "\n{title}: {}", list.len());
            for s in list {
                let _ = writeln!(out, "  {}: {}", s.file, s.why);
            }
        }
    }
    let noted: Vec<&Scored> = r
        .trials
        .iter()
        .filter(|s| s.result.basis == Basis::Replies && !s.result.notes.is_empty())
        .collect();
    if !noted.is_empty() {
        let _ = writeln!(out, "\nNotes on re-scored transcripts: {}", noted.len());
        for s in noted {
            let _ = writeln!(out, "  {}: {}", s.file, s.result.notes.join("; "));
        }
    }
    if let Some(review) = &r.review {
        let _ = write!(out, "\n{}", reviews::render(review));
        out.push_str(&reviews::render_totals(&r.totals, &review.totals, false));
    }
    if let Some(second) = &r.second_reader {
        let _ = write!(out, "\n{}", second_reader::render(second));
    }
    out
}

/// Every reply of a transcript with the rules reader's value, to put to the second reader.
fn to_ask(file: &str, text: &str, hints: &Hints) -> Vec<Asked> {
    let mut named: Vec<Shape> = hints.in_play.map(ShapeSet::shapes).unwrap_or_default();
    named.extend(hints.shape);
    let shapes = ShapeSet::with(&named);
    replies_read(text, hints)
        .into_iter()
        .map(|r| Asked {
            trial: file.to_string(),
            phase: r.phase,
            step: r.step,
            reply: r.reply,
            read: r.reading.value,
            shapes,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use shapemaze_core::results::tally::{Counts, Group};

    #[test]
    fn the_totals_keep_wide_cells_in_their_columns() {
        use shapemaze_view::text_table::column_starts;
        let wide = Counts {
            success: 5704,
            fail: 4949,
            unscored: 2_526_193,
            api_error: 12,
        };
        let total = |group, value: &str, c: Counts| Total {
            group,
            value: value.into(),
            solve: c,
            recognize: c,
            generate: c,
        };
        let report = Report {
            dir: "runs",
            transcripts: 0,
            rescored: 0,
            closing_lines_only: 0,
            without_markers: 0,
            skipped: 0,
            totals: vec![
                total(Group::All, "all", wide),
                total(Group::Model, "qwen", Counts::default()),
            ],
            differences: Vec::new(),
            closing_lines_only_files: Vec::new(),
            skipped_files: &[],
            trials: &[],
            review: None,
            second_reader: None,
        };
        let text = render_text(&report);
        let lines: Vec<&str> = text.lines().collect();
        let header = lines
            .iter()
            .position(|l| l.trim_start().starts_with("solve"))
            .expect("the header");
        let starts = column_starts(lines[header]);
        assert_eq!(starts.len(), 3, "{text}");
        for row in [lines[header + 1], lines[header + 3]] {
            assert_eq!(
                column_starts(row)[1..],
                starts[..],
                "every column starts where its header does:\n{text}"
            );
        }
        assert_eq!(lines[header + 2], "", "groups stay apart");
    }

    #[test]
    fn paths_are_shown_relative_to_the_folder_with_slashes() {
        let root = Path::new("/tmp/x");
        assert_eq!(display(root, Path::new("/tmp/x/a/b.txt")), "a/b.txt");
        assert_eq!(
            display(Path::new("/tmp/x/a.txt"), Path::new("/tmp/x/a.txt")),
            "/tmp/x/a.txt"
        );
    }
}
