//! `shapemaze score DIR`: re-scores every transcript under a folder from its reply text and
//! reports totals, the trials whose recorded verdicts differ, and what could not be re-run.

use super::args::Args;
use super::{CliError, Io};
use crate::core::encoding::Encoding;
use crate::core::layout::{ExportPath, TRANSCRIPT_EXT};
use crate::core::rescore::{rescore, Basis, Hints, Libraries, Rescored};
use crate::core::shape::Shape;
use crate::core::verify::Outcome;
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// Options `score` accepts.
pub const OPTIONS: &[&str] = &["format"];

/// Help text.
pub const HELP: &str = "\
shapemaze score: re-score every transcript under a folder from its reply text

Usage: shapemaze score DIR [--format text|json]

Reads every *.txt under DIR (sorted by path). Transcripts in the export layout
  {encoding}_{model}_results/{R}x{C}/{shape}/{R}x{C}_{shape}_{i}.npy/{k}.txt
(the design's {encoding}_qwen_results/ too) take their encoding, model and shape from the
path; elsewhere the encoding is read from the first message and the shape from the maze's
corridor. Each reply is re-run through a fresh trial by the app's rules; stored verdicts
(closing lines, trials.csv, trials.jsonl) are never trusted.

Prints totals per model, encoding, shape and phase, every trial whose recorded closing
line differs from the recomputed verdict (naming the file), and how many transcripts had no
### user / ### assistant markers and so were counted from their closing lines only.

Options:
  --format F   text (default) or json (one object: summary counts, totals, differences,
               closing_lines_only, skipped, trials)

Exit status 0 when it ran, whatever it found; 2 when DIR cannot be read.

Example:
  shapemaze score results/ --format json > rescored.json
";

/// Model name for transcripts outside the export layout.
const UNKNOWN: &str = "unknown";

/// Successes, failures and unscored phases of a group of trials.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
struct Counts {
    success: usize,
    fail: usize,
    unscored: usize,
}

impl Counts {
    fn add(&mut self, o: Option<Outcome>) {
        match o {
            Some(Outcome::Success) => self.success += 1,
            Some(Outcome::Fail) => self.fail += 1,
            None => self.unscored += 1,
        }
    }

    fn cell(&self) -> String {
        let n = self.success + self.fail;
        let pct = if n == 0 {
            0.0
        } else {
            100.0 * self.success as f64 / n as f64
        };
        let unscored = if self.unscored > 0 {
            format!(" ?{}", self.unscored)
        } else {
            String::new()
        };
        format!("{}/{n} {pct:.1}%{unscored}", self.success)
    }
}

/// One row of totals.
#[derive(Clone, Debug, Serialize)]
struct Total {
    group: &'static str,
    value: String,
    solve: Counts,
    recognize: Counts,
    generate: Counts,
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

/// A file that was not scored, and why.
#[derive(Serialize)]
struct Skipped {
    file: String,
    why: String,
}

#[derive(Serialize)]
struct Difference<'a> {
    file: &'a str,
    phase: &'static str,
    recorded: Option<Outcome>,
    recomputed: Option<Outcome>,
    reason: Option<&'static str>,
    explanation: Option<&'a str>,
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
}

/// Runs `score`.
pub fn run(args: &Args, io: &mut Io<'_>) -> Result<(), CliError> {
    let json = match args.get("format").unwrap_or("text") {
        "text" => false,
        "json" => true,
        other => {
            return Err(CliError::usage(format!(
                "unknown format '{other}': choose text or json"
            )))
        }
    };
    let dir = match args.positional.as_slice() {
        [d] => d.as_str(),
        [] => {
            return Err(CliError::usage(
                "`shapemaze score` needs a folder: shapemaze score DIR",
            ))
        }
        more => {
            return Err(CliError::usage(format!(
                "`shapemaze score` takes one folder, not {}",
                more.len()
            )))
        }
    };
    let root = Path::new(dir);
    let mut skipped = Vec::new();
    let files = list_transcripts(root, &mut skipped)
        .map_err(|e| CliError::usage(format!("cannot read {dir}: {e}")))?;
    let mut libraries = Libraries::new();
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
        let layout = ExportPath::parse(&path.to_string_lossy());
        let hints = layout.as_ref().map(Hints::from).unwrap_or_default();
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
        scored.push(Scored {
            file,
            model,
            layout,
            result,
        });
    }
    skipped.sort_by(|a, b| a.file.cmp(&b.file));
    let report = Report {
        dir,
        transcripts: scored.len(),
        rescored: scored
            .iter()
            .filter(|s| s.result.basis == Basis::Replies)
            .count(),
        closing_lines_only: scored
            .iter()
            .filter(|s| s.result.basis == Basis::ClosingLines)
            .count(),
        without_markers: scored.iter().filter(|s| !s.result.marked).count(),
        skipped: skipped.len(),
        totals: totals(&scored),
        differences: differences(&scored),
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
    };
    if json {
        io.json_line(&report)
    } else {
        io.out(&render_text(&report))
    }
}

/// Every `*.txt` below `root` (or `root` itself when it is a file), sorted. Only `root`
/// failing to open is an error; a sub-folder that cannot be read is noted in `skipped`.
fn list_transcripts(root: &Path, skipped: &mut Vec<Skipped>) -> std::io::Result<Vec<PathBuf>> {
    if std::fs::metadata(root)?.is_file() {
        return Ok(vec![root.to_path_buf()]);
    }
    let mut files = Vec::new();
    let mut pending = vec![(root.to_path_buf(), std::fs::read_dir(root)?)];
    while let Some((dir, entries)) = pending.pop() {
        for entry in entries {
            let entry = match entry {
                Ok(e) => e,
                Err(e) => {
                    skipped.push(Skipped {
                        file: display(root, &dir),
                        why: format!("cannot be listed: {e}"),
                    });
                    continue;
                }
            };
            let path = entry.path();
            match entry.file_type() {
                Ok(t) if t.is_dir() => match std::fs::read_dir(&path) {
                    Ok(sub) => pending.push((path, sub)),
                    Err(e) => skipped.push(Skipped {
                        file: display(root, &path),
                        why: format!("cannot be listed: {e}"),
                    }),
                },
                Ok(t) if t.is_file() && path.to_string_lossy().ends_with(TRANSCRIPT_EXT) => {
                    files.push(path)
                }
                _ => {}
            }
        }
    }
    files.sort();
    Ok(files)
}

/// `path` relative to `root`, with `/` separators (the file's own name when `root` is it).
fn display(root: &Path, path: &Path) -> String {
    match path.strip_prefix(root) {
        Ok(rel) if !rel.as_os_str().is_empty() => rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy())
            .collect::<Vec<_>>()
            .join("/"),
        _ => path.to_string_lossy().into_owned(),
    }
}

fn rank<T: PartialEq>(all: &[T], x: Option<T>) -> usize {
    x.and_then(|x| all.iter().position(|a| *a == x))
        .unwrap_or(all.len())
}

fn name_or_unknown(name: Option<&'static str>) -> &'static str {
    name.unwrap_or(UNKNOWN)
}

fn totals(scored: &[Scored]) -> Vec<Total> {
    // Key: group order, then model, encoding and shape in their natural orders.
    let mut rows: BTreeMap<(usize, String, usize, usize), Total> = BTreeMap::new();
    for s in scored {
        let r = &s.result;
        let (e, sh) = (rank(&Encoding::ALL, r.encoding), rank(&Shape::ALL, r.shape));
        let enc = name_or_unknown(r.encoding.map(Encoding::name));
        let shape = name_or_unknown(r.shape.map(Shape::name));
        let keys = [
            ((0, String::new(), 0, 0), "all", "all".to_string()),
            ((1, s.model.clone(), 0, 0), "model", s.model.clone()),
            ((2, String::new(), e, 0), "encoding", enc.to_string()),
            ((3, String::new(), 0, sh), "shape", shape.to_string()),
            (
                (4, s.model.clone(), e, sh),
                "model/encoding/shape",
                format!("{}/{enc}/{shape}", s.model),
            ),
        ];
        let counted = r.counted();
        for (key, group, value) in keys {
            let row = rows.entry(key).or_insert_with(|| Total {
                group,
                value,
                solve: Counts::default(),
                recognize: Counts::default(),
                generate: Counts::default(),
            });
            row.solve.add(counted[0]);
            row.recognize.add(counted[1]);
            row.generate.add(counted[2]);
        }
    }
    rows.into_values().collect()
}

fn differences(scored: &[Scored]) -> Vec<Difference<'_>> {
    scored
        .iter()
        .flat_map(|s| {
            s.result.differences().into_iter().map(move |p| Difference {
                file: &s.file,
                phase: p.phase.name(),
                recorded: p.recorded,
                recomputed: p.recomputed,
                reason: p.reason.map(|r| r.as_str()),
                explanation: p.explanation.as_deref(),
            })
        })
        .collect()
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
    let _ = writeln!(out, "\nTotals: successes/scored trials and percent; ?N = N trials whose phase could not be scored");
    let label = |t: &Total| {
        if t.group == "all" {
            "all".to_string()
        } else {
            format!("{} {}", t.group, t.value)
        }
    };
    let width = r
        .totals
        .iter()
        .map(|t| label(t).len() + 2)
        .max()
        .unwrap_or(0)
        .max(24);
    let _ = writeln!(
        out,
        "{:<width$}{:<24}{:<24}generate",
        "", "solve", "recognize"
    );
    let mut group = "";
    for t in &r.totals {
        if t.group != group && !group.is_empty() {
            out.push('\n');
        }
        group = t.group;
        let _ = writeln!(
            out,
            "{:<width$}{:<24}{:<24}{}",
            label(t),
            t.solve.cell(),
            t.recognize.cell(),
            t.generate.cell()
        );
    }
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
            d.reason.unwrap_or("not recomputed"),
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
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_show_successes_over_scored_trials_and_flag_unscored_ones() {
        let mut c = Counts::default();
        for o in [
            Some(Outcome::Success),
            Some(Outcome::Fail),
            Some(Outcome::Fail),
            None,
        ] {
            c.add(o);
        }
        assert_eq!(c.cell(), "1/3 33.3% ?1");
        assert_eq!(
            Counts::default().cell(),
            "0/0 0.0%",
            "an empty group divides by nothing"
        );
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
