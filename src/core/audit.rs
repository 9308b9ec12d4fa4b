//! The audit of a results folder of the design's original runs (docs/ORIGINAL_DATA.md):
//! every transcript and human result file scored three ways by [`super::original`]
//! (recorded, strict, original), the named cause of every strict/original difference
//! counted per model x encoding x shape, and the tables, chart and drill-down that show
//! it. The command line (`score` and `report --scoring`) and the results page both feed
//! their files to one [`Auditor`] and draw its [`AuditSummary`] with the renderers here,
//! so a terminal and a browser show the same audit.

use super::analysis::Observation;
use super::chart::{bar_chart, count_chart, Bar, BarSeries};
use super::encoding::Encoding;
use super::grid::Maze;
use super::html::escape;
use super::layout::ExportPath;
use super::npy;
use super::original::{self, audit_human, parse_human, Audit, AuditCache, Cause, Difference, Mark};
use super::rescore::Hints;
use super::shape::Shape;
use super::stats::wilson;
use super::tally::UNKNOWN;
use super::transcript::{ASSISTANT_MARKER, USER_MARKER};
use super::verify::Outcome;
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// Whose verdicts are shown.
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
    pub fn parse(s: &str) -> Result<Scoring, String> {
        match s {
            "strict" => Ok(Scoring::Strict),
            "original" => Ok(Scoring::Original),
            "recorded" => Ok(Scoring::Recorded),
            "all" => Ok(Scoring::All),
            other => Err(format!(
                "unknown scoring '{other}': choose strict, original, recorded or all"
            )),
        }
    }

    /// Its name, as `--scoring` takes it.
    pub fn name(self) -> &'static str {
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

/// Whether a transcript carries Shapemaze's message markers.
pub fn is_marked(text: &str) -> bool {
    text.lines()
        .any(|l| l.trim_end() == USER_MARKER || l.trim_end() == ASSISTANT_MARKER)
}

/// Whether transcripts are of the original runs: none carries our message markers and at
/// least one reads as an original transcript.
pub fn is_original_run<T: AsRef<str>>(texts: impl IntoIterator<Item = T>) -> bool {
    let mut any = false;
    for text in texts {
        if is_marked(text.as_ref()) {
            return false;
        }
        any |= looks_original(text.as_ref());
    }
    any
}

/// A file that was not counted, and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Skipped {
    /// The file (relative to the folder), with `:line` for a trials.jsonl line.
    pub file: String,
    /// Why it was not counted.
    pub why: String,
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
    let parts: Vec<&str> = rel.split(['/', '\\']).collect();
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

/// One trial of the audit, as `--format json` lists it (docs/CONTRACT.md): where it lies
/// and its three scorings (`differences` lists each difference with what each scorer read).
#[derive(Clone, Debug, Serialize)]
pub struct AuditTrial {
    /// The file, relative to the folder.
    pub file: String,
    /// Where the trial's maze was read: `experiment_mazes` (the folder's maze file) or
    /// `prompt` (the first prompt's maze); human result files name their maze file.
    pub maze_from: &'static str,
    /// The model (`human` for the original page's files).
    pub model: String,
    /// The three scorings (encoding, shape, size, verdicts, differences).
    #[serde(flatten)]
    pub audit: Audit,
    /// The cause of each difference.
    pub causes: Vec<Cause>,
    /// Whether it is a human result file of the original page.
    pub human: bool,
    /// Whether the participant has a second file for the same maze.
    pub duplicate: bool,
}

impl AuditTrial {
    /// Its group: `model encoding shape` (`page` for human files, `vision` for vision runs).
    pub fn group(&self) -> String {
        format!(
            "{} {} {}",
            self.model,
            self.audit
                .encoding
                .map_or(if self.human { "page" } else { "vision" }, Encoding::name),
            self.audit.shape.map_or("unknown", Shape::name)
        )
    }
}

/// One scorer's counts for one phase.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Tally {
    /// Phases scored a success.
    pub success: usize,
    /// Phases scored a failure.
    pub fail: usize,
    /// Strict replays that left the original conversation (not scored).
    pub diverged: usize,
    /// Phases this scorer could not score.
    pub unavailable: usize,
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

    /// Phases scored (successes and failures).
    pub fn scored(&self) -> usize {
        self.success + self.fail
    }

    fn cell(&self) -> String {
        let mut out = format!("{}/{}", self.success, self.scored());
        if self.diverged > 0 {
            let _ = write!(out, " ~{}", self.diverged);
        }
        out
    }

    /// The rate with its 95% Wilson interval, as a table cell shows it.
    fn rate_cell(&self) -> String {
        let n = self.scored();
        let mut out = self.cell();
        if n > 0 {
            let p = wilson(self.success, n);
            let _ = write!(
                out,
                " {:.0}% [{:.0}–{:.0}]",
                100.0 * p.rate,
                100.0 * p.ci_low,
                100.0 * p.ci_high
            );
        }
        out
    }

    fn bar(&self) -> Option<Bar> {
        let n = self.scored();
        (n > 0).then(|| Bar::from(&wilson(self.success, n)))
    }
}

/// A group's counts: per scorer (recorded, strict, original), per phase.
#[derive(Clone, Debug, Default, Serialize)]
pub struct AuditGroup {
    /// `all`, or `model encoding shape`.
    pub group: String,
    /// Trials in it.
    pub trials: usize,
    /// Of which API errors.
    pub api_errors: usize,
    /// The verdict lines as written.
    pub recorded: [Tally; 3],
    /// Today's verifiers.
    pub strict: [Tally; 3],
    /// The original checks.
    pub original: [Tally; 3],
}

impl AuditGroup {
    fn add(&mut self, t: &AuditTrial) {
        self.trials += 1;
        self.api_errors += usize::from(t.audit.api_error);
        for i in 0..3 {
            self.recorded[i].add(t.audit.recorded.as_array()[i]);
            self.strict[i].add(t.audit.strict.as_array()[i]);
            self.original[i].add(t.audit.original.as_array()[i]);
        }
    }
}

/// A cause's count in one group and phase.
#[derive(Clone, Debug, Serialize)]
pub struct CauseRow {
    /// `model encoding shape`.
    pub group: String,
    /// `solve`, `recognize` or `generate`.
    pub phase: &'static str,
    /// The cause.
    pub cause: Cause,
    /// How many trials.
    pub count: usize,
}

/// The audit's tables: per group and scorer, and the causes of the differences (what
/// `score --scoring --format json` prints).
#[derive(Clone, Debug, Serialize)]
pub struct AuditSummary {
    /// The folder audited.
    pub dir: String,
    /// The scoring asked for.
    pub scoring: &'static str,
    /// Trials audited (transcripts and human files).
    pub transcripts: usize,
    /// Of which API errors.
    pub api_errors: usize,
    /// `all` first, then one per model x encoding x shape.
    pub groups: Vec<AuditGroup>,
    /// The causes of the differences, counted per group and phase.
    pub causes: Vec<CauseRow>,
    /// How many files were skipped.
    pub skipped: usize,
    /// The files skipped, and why.
    pub skipped_files: Vec<Skipped>,
    /// Every trial.
    pub trials: Vec<AuditTrial>,
}

/// The three phases, by index.
pub const PHASES: [&str; 3] = ["solve", "recognize", "generate"];

fn phase_index(p: super::trial::Phase) -> usize {
    PHASES.iter().position(|n| *n == p.name()).unwrap_or(0)
}

/// Where a human file's maze lies: `experiment_mazes/{R}x{C}/{shape}/{maze_file}`, with
/// its shape.
pub fn maze_file_path(maze_file: &str) -> Result<(Shape, String), String> {
    let stem = maze_file.trim_end_matches(".npy");
    let mut parts = stem.splitn(3, '_');
    let (Some(size), Some(shape)) = (parts.next(), parts.next()) else {
        return Err(format!(
            "maze_file '{maze_file}' is not {{R}}x{{C}}_{{shape}}_{{i}}.npy"
        ));
    };
    let shape = Shape::parse(shape)?;
    Ok((
        shape,
        format!("experiment_mazes/{size}/{}/{maze_file}", shape.name()),
    ))
}

/// A maze read from the bytes of its `.npy` file.
pub fn read_maze_file(name: &str, bytes: &[u8]) -> Result<Maze, String> {
    let grid = npy::read(bytes).map_err(|e| format!("its maze {name}: {e}"))?;
    Maze::from_grid(grid).map_err(|e| format!("its maze {name}: {e}"))
}

/// The maze file a transcript path names: its folder, `{R}x{C}_{shape}_{i}.npy`.
pub fn transcript_maze_file(file: &str) -> Option<&str> {
    let mut parts = file.rsplit(['/', '\\']);
    parts.next()?;
    parts.next().filter(|n| n.ends_with(".npy"))
}

/// One transcript's part of the audit: a trial scored three ways, or a file skipped.
#[derive(Clone, Debug)]
pub enum Scored {
    /// A transcript scored.
    Trial(Box<AuditTrial>),
    /// A file not counted, and why.
    Skipped(Skipped),
}

/// Scores one transcript as [`Auditor::transcript`] does, with `cache` for the template
/// libraries and families: `None` for a marked text that does not read as a transcript.
pub fn audit_transcript(
    cache: &mut AuditCache,
    file: String,
    text: &str,
    maze_file: Option<Maze>,
) -> Option<Scored> {
    let place = place(&file);
    let own = is_marked(text);
    if !own && (place.is_none() || !looks_original(text)) {
        let why = if place.is_none() {
            "stray file beside the shape folders (not in the results layout)"
        } else {
            "not a transcript of the original code"
        };
        return Some(Scored::Skipped(Skipped {
            file,
            why: why.into(),
        }));
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
    let maze_from = if maze_file.is_some() {
        "experiment_mazes"
    } else {
        "prompt"
    };
    let parsed = if own {
        original::from_marked(text, hints.encoding)?
    } else {
        original::parse(text)
    };
    let mut a = original::audit_on(&parsed, &hints, cache, maze_file);
    a.size = a.size.or(place.size);
    Some(Scored::Trial(Box::new(AuditTrial {
        file,
        maze_from,
        model: place.model,
        causes: a.causes.iter().map(|d| d.cause).collect(),
        audit: a,
        human: false,
        duplicate: false,
    })))
}

/// Scores files three ways, one at a time: transcripts, then human result files.
#[derive(Debug, Default)]
pub struct Auditor {
    cache: AuditCache,
    trials: Vec<AuditTrial>,
    skipped: Vec<Skipped>,
    /// Participant and maze of each human trial, in the order of those trials.
    human_keys: Vec<String>,
}

impl Auditor {
    /// Nothing audited yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Lists a file as not counted, and why.
    pub fn skip(&mut self, file: String, why: impl Into<String>) {
        self.skipped.push(Skipped {
            file,
            why: why.into(),
        });
    }

    /// Scores one transcript (its path relative to the folder, and its text). `maze_file`
    /// is the trial's maze as the folder's `experiment_mazes/` holds it, when it does: the
    /// maze the run played, taken over the one read back from the first prompt. Stray
    /// files and texts that are not transcripts are listed as skipped.
    pub fn transcript(&mut self, file: String, text: &str, maze_file: Option<Maze>) {
        if let Some(scored) = audit_transcript(&mut self.cache, file, text, maze_file) {
            self.add(scored);
        }
    }

    /// Takes in a transcript scored on its own by [`audit_transcript`] (so files can be
    /// scored apart, e.g. on several threads, and added in their order).
    pub fn add(&mut self, scored: Scored) {
        match scored {
            Scored::Trial(t) => self.trials.push(*t),
            Scored::Skipped(s) => self.skipped.push(s),
        }
    }

    /// Scores one human result file of the original page (model `human`), reading its maze
    /// with `read` (given the path [`maze_file_path`] names). Returns false when the text
    /// is not such a file (other JSON is left alone); a human file whose maze cannot be read
    /// is listed as skipped.
    pub fn human(
        &mut self,
        file: String,
        text: &str,
        read: &mut dyn FnMut(&str) -> Result<Vec<u8>, String>,
    ) -> bool {
        let Some(h) = parse_human(text)
            .ok()
            .filter(|h| !h.participant_id.is_empty() && !h.maze_file.is_empty())
        else {
            return false;
        };
        let maze = maze_file_path(&h.maze_file).and_then(|(shape, path)| {
            let bytes = read(&path).map_err(|e| format!("its maze {path}: {e}"))?;
            Ok((shape, read_maze_file(&h.maze_file, &bytes)?))
        });
        let (shape, maze) = match maze {
            Ok(m) => m,
            Err(why) => {
                self.skip(file, format!("human result file without its maze: {why}"));
                return true;
            }
        };
        let a = audit_human(&h, shape, &maze, &mut self.cache);
        self.trials.push(AuditTrial {
            file,
            maze_from: "experiment_mazes",
            model: "human".into(),
            causes: a.causes.iter().map(|d| d.cause).collect(),
            audit: a,
            human: true,
            duplicate: false,
        });
        self.human_keys
            .push(format!("{}\u{0}{}", h.participant_id, h.maze_file));
        true
    }

    /// The audit: two files for the same participant and maze both kept and flagged
    /// `duplicate`; skipped files sorted.
    pub fn finish(mut self) -> Audited {
        let keys = std::mem::take(&mut self.human_keys);
        let humans: Vec<usize> = (0..self.trials.len())
            .filter(|&i| self.trials[i].human)
            .collect();
        let mut seen: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
        for (k, &i) in keys.iter().zip(&humans) {
            seen.entry(k).or_default().push(i);
        }
        for rows in seen.values().filter(|r| r.len() > 1) {
            for &i in rows {
                self.trials[i].duplicate = true;
            }
        }
        self.skipped.sort_by(|a, b| a.file.cmp(&b.file));
        Audited {
            trials: self.trials,
            skipped: self.skipped,
        }
    }
}

/// Shapemaze's own trials scored three ways, so a new model's strict score stands beside
/// the score the original code would have given it: each record's transcript at its place
/// in the export layout, on the maze it was first shown. Records without a transcript
/// (stopped trials) are left out.
pub fn audit_records(records: &[super::record::TrialRecord]) -> Audited {
    let mut auditor = Auditor::new();
    for r in records {
        if let Some(text) = r.transcript() {
            auditor.transcript(
                super::export::transcript_path(r),
                &text,
                r.first_maze().ok(),
            );
        }
    }
    auditor.finish()
}

/// The audit's trials and the files it skipped.
#[derive(Clone, Debug, Default)]
pub struct Audited {
    /// Every trial scored.
    pub trials: Vec<AuditTrial>,
    /// The files not counted.
    pub skipped: Vec<Skipped>,
}

impl Audited {
    /// Whether the audit found no trial at all.
    pub fn is_empty(&self) -> bool {
        self.trials.is_empty()
    }

    /// The tables: per group and scorer, and the causes of the differences (the trials
    /// move into them).
    pub fn summarize(self, dir: &str, scoring: Scoring) -> AuditSummary {
        let mut groups: BTreeMap<String, AuditGroup> = BTreeMap::new();
        let mut causes: BTreeMap<(String, usize, Cause), usize> = BTreeMap::new();
        let mut all = AuditGroup {
            group: "all".into(),
            ..AuditGroup::default()
        };
        for t in &self.trials {
            let key = t.group();
            all.add(t);
            groups
                .entry(key.clone())
                .or_insert_with(|| AuditGroup {
                    group: key.clone(),
                    ..AuditGroup::default()
                })
                .add(t);
            for d in &t.audit.causes {
                *causes
                    .entry((key.clone(), phase_index(d.phase), d.cause))
                    .or_default() += 1;
            }
        }
        let mut group_rows = vec![all];
        group_rows.extend(groups.into_values());
        AuditSummary {
            dir: dir.to_string(),
            scoring: scoring.name(),
            transcripts: self.trials.len(),
            api_errors: self.trials.iter().filter(|t| t.audit.api_error).count(),
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
            skipped: self.skipped.len(),
            skipped_files: self.skipped,
            trials: self.trials,
        }
    }

    /// The files the audit skipped, and a line for the trials left out of an analysis.
    pub fn skipped_files(&self, left_out: usize) -> Vec<Skipped> {
        let mut out = self.skipped.clone();
        if left_out > 0 {
            let (vision, human) = self
                .trials
                .iter()
                .filter(|t| t.audit.encoding.is_none() || t.audit.shape.is_none())
                .fold((0, 0), |(v, h), t| {
                    (v + usize::from(t.audit.vision), h + usize::from(t.human))
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
    /// or shape (vision runs, human files) cannot enter the analysis. Returns the
    /// observations, the trials left out and those counted from their closing lines.
    pub fn observations(&self, label: &str, scoring: Scoring) -> (Vec<Observation>, usize, usize) {
        let mut out = Vec::with_capacity(self.trials.len());
        let mut left_out = 0;
        let mut closing_only = 0;
        for t in &self.trials {
            let (Some(encoding), Some(shape)) = (t.audit.encoding, t.audit.shape) else {
                left_out += 1;
                continue;
            };
            let marks = match scoring {
                Scoring::Recorded => &t.audit.recorded,
                Scoring::Original => &t.audit.original,
                Scoring::Strict | Scoring::All
                    if !t.audit.api_error
                        && t.audit.strict.as_array().iter().all(Option::is_none) =>
                {
                    closing_only += 1;
                    &t.audit.recorded
                }
                Scoring::Strict | Scoring::All => &t.audit.strict,
            };
            let place = ExportPath::parse(&t.file);
            let outcomes = marks.as_array().map(|m| match m {
                Some(Mark::Success) => Some(Outcome::Success),
                Some(Mark::Fail) => Some(Outcome::Fail),
                Some(Mark::Diverged) | None => None,
            });
            let outcomes = if t.audit.api_error {
                outcomes.map(|o| o.or(Some(Outcome::Error)))
            } else {
                outcomes
            };
            out.push(Observation {
                experiment: label.to_string(),
                model: t.model.clone(),
                encoding,
                shape,
                size: t.audit.size.map_or(5, |(r, _)| r),
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
                empty: Vec::new(),
            });
        }
        (out, left_out, closing_only)
    }
}

/// One scorer's column: its name's getter over a group.
type Column = fn(&AuditGroup) -> &[Tally; 3];

fn scorers(scoring: Scoring) -> &'static [(&'static str, Column)] {
    match scoring {
        Scoring::Recorded => &[("recorded", |g| &g.recorded)],
        Scoring::Original => &[("original", |g| &g.original)],
        Scoring::Strict => &[("strict", |g| &g.strict)],
        Scoring::All => &[
            ("recorded", |g| &g.recorded),
            ("strict", |g| &g.strict),
            ("original", |g| &g.original),
        ],
    }
}

/// Which side of its column a cell keeps to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Align {
    /// Left, padded after.
    Left,
    /// Right, padded before.
    Right,
}

/// A column of a [`TextTable`]: at least `min` characters wide, and wider when a cell needs
/// it (its widest cell and `gap` spaces: two after a left-set cell, one before a
/// right-set one by default). `before` is written ahead of it on every row.
#[derive(Clone, Copy, Debug)]
pub struct TextColumn {
    align: Align,
    min: usize,
    gap: usize,
    before: &'static str,
}

impl TextColumn {
    /// Cells set left, two spaces at least after them.
    pub const fn left(min: usize) -> Self {
        Self {
            align: Align::Left,
            min,
            gap: 2,
            before: "",
        }
    }

    /// Cells set right, one space at least before them.
    pub const fn right(min: usize) -> Self {
        Self {
            align: Align::Right,
            min,
            gap: 1,
            before: "",
        }
    }

    /// The least spacing the column keeps beside its widest cell.
    pub const fn gap(self, gap: usize) -> Self {
        Self { gap, ..self }
    }

    /// Text written ahead of the column on every row (a separator such as `" / "`).
    pub const fn before(self, before: &'static str) -> Self {
        Self { before, ..self }
    }
}

/// A text table laid out from its cells: each column as wide as its widest cell (header
/// rows included) needs, so no cell runs into the next; lines of free text may stand
/// between the rows. Lines end without trailing spaces.
#[derive(Clone, Debug)]
pub struct TextTable {
    columns: Vec<TextColumn>,
    rows: Vec<TextRow>,
}

/// A row of a [`TextTable`].
#[derive(Clone, Debug)]
enum TextRow {
    /// One cell per column.
    Cells(Vec<String>),
    /// A line written as it is, outside the columns.
    Line(String),
}

impl TextTable {
    /// A table with these columns and no rows.
    pub fn new(columns: &[TextColumn]) -> Self {
        Self {
            columns: columns.to_vec(),
            rows: Vec::new(),
        }
    }

    /// Adds a row of cells, one per column (missing ones are empty).
    pub fn row<S: Into<String>>(&mut self, cells: impl IntoIterator<Item = S>) -> &mut Self {
        self.rows
            .push(TextRow::Cells(cells.into_iter().map(Into::into).collect()));
        self
    }

    /// Adds a line of free text (a title, or an empty line between groups of rows).
    pub fn line(&mut self, text: impl Into<String>) -> &mut Self {
        self.rows.push(TextRow::Line(text.into()));
        self
    }

    /// The table, one line per row.
    pub fn render(&self) -> String {
        let len = |s: &str| s.chars().count();
        let widths: Vec<usize> = self
            .columns
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let widest = self
                    .rows
                    .iter()
                    .filter_map(|r| match r {
                        TextRow::Cells(cells) => cells.get(i),
                        TextRow::Line(_) => None,
                    })
                    .map(|s| len(s))
                    .max()
                    .unwrap_or(0);
                c.min.max(widest + c.gap)
            })
            .collect();
        let mut out = String::new();
        for row in &self.rows {
            let cells = match row {
                TextRow::Cells(cells) => cells,
                TextRow::Line(text) => {
                    let _ = writeln!(out, "{}", text.trim_end());
                    continue;
                }
            };
            let mut line = String::new();
            for (i, (c, &width)) in self.columns.iter().zip(&widths).enumerate() {
                let cell = cells.get(i).map_or("", String::as_str);
                line.push_str(c.before);
                let _ = match c.align {
                    Align::Left => write!(line, "{cell:<width$}"),
                    Align::Right => write!(line, "{cell:>width$}"),
                };
            }
            let _ = writeln!(out, "{}", line.trim_end());
        }
        out
    }
}

/// The audit printed as text (the tables `score --scoring` prints).
pub fn render_text(r: &AuditSummary, scoring: Scoring) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Audited {} transcripts under {} three ways ({} API errors, never counted as model failures).",
        r.transcripts, r.dir, r.api_errors
    );
    let scorers = scorers(scoring);
    let _ = writeln!(
        out,
        "\nSuccesses/scored trials per phase and scorer; ~N = N strict replays diverged from the original conversation."
    );
    // The group, then per phase one column per scorer; each phase's name heads its first.
    let mut columns = vec![TextColumn::left(24)];
    columns.extend(std::iter::repeat_n(TextColumn::left(12), 3 * scorers.len()));
    let mut table = TextTable::new(&columns);
    table.row(
        std::iter::once("").chain(
            PHASES
                .iter()
                .flat_map(|&phase| std::iter::once(phase).chain(scorers[1..].iter().map(|_| ""))),
        ),
    );
    table.row(std::iter::once("").chain(PHASES.iter().flat_map(|_| scorers.iter().map(|s| s.0))));
    for g in &r.groups {
        table.row(
            std::iter::once(g.group.clone())
                .chain((0..3).flat_map(|i| scorers.iter().map(move |(_, get)| get(g)[i].cell()))),
        );
    }
    out.push_str(&table.render());
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
    let duplicates: Vec<&AuditTrial> = r.trials.iter().filter(|t| t.duplicate).collect();
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

/// How many trials each cause's drill-down lists (the JSON lists every one).
pub const DRILL_LIMIT: usize = 50;

/// The audit as HTML (the results page's audit section and the report file's): the rates
/// three ways with 95% intervals, a chart of the rates and one of the differences by
/// cause, the causes per group, and per cause a drill-down to its trials with the reply
/// and the part of it each scorer read highlighted. Test ids: `audit`, `chart-audit-rates`,
/// `chart-audit-causes`, `table-audit-rates`, `table-audit-causes`, `audit-cause-{cause}`
/// (one `details` per cause) holding `audit-trial` items.
/// `section` tells apart the element ids of several audits on one page.
pub fn audit_html(r: &AuditSummary, section: usize) -> String {
    let mut s = String::with_capacity(32 * 1024);
    let _ = write!(
        s,
        "<section class=\"audit\" data-testid=\"audit\"><h2>Audit of {}: the original scoring beside today's</h2><p>{} trials scored three ways ({} API errors, never counted as model failures): <b>recorded</b> is the verdict lines as the files have them, <b>strict</b> is today's verifiers, <b>original</b> is the original code's checks as docs/ORIGINAL_DATA.md states them. Rates are successes over phases scored, with 95% Wilson intervals in brackets; ~N counts strict replays that left the original conversation (a reply read as another move than the one the original took), which are not scored.</p>",
        escape(&r.dir),
        r.transcripts,
        r.api_errors
    );
    let phases: Vec<String> = PHASES.iter().map(|p| p.to_string()).collect();
    let mut figure = |svg: String| {
        let _ = write!(s, "<figure>{svg}</figure>");
    };
    // The rates of all trials, three ways.
    if let Some(all) = r.groups.first() {
        let series: Vec<BarSeries> = scorers(Scoring::All)
            .iter()
            .map(|(name, get)| BarSeries {
                name: (*name).to_string(),
                values: get(all).iter().map(Tally::bar).collect(),
            })
            .collect();
        figure(bar_chart(
            "audit-rates",
            "Success rates of every audited trial, three ways",
            &phases,
            &series,
        ));
    }
    // The differences by cause, split by phase.
    let mut by_cause: BTreeMap<Cause, [usize; 3]> = BTreeMap::new();
    for c in &r.causes {
        let i = PHASES.iter().position(|p| *p == c.phase).unwrap_or(0);
        by_cause.entry(c.cause).or_default()[i] += c.count;
    }
    let names: Vec<String> = by_cause
        .keys()
        .map(|c| c.name().replace('_', " "))
        .collect();
    let counts: Vec<Vec<usize>> = by_cause.values().map(|v| v.to_vec()).collect();
    figure(count_chart(
        "audit-causes",
        "Differences between strict and original verdicts, by cause",
        &names,
        &phases,
        &counts,
    ));
    // Rates per group.
    s.push_str("<table data-testid=\"table-audit-rates\"><caption>Successes over phases scored, three ways, per model x encoding x shape</caption><thead><tr><th rowspan=\"2\">Group</th><th rowspan=\"2\">Trials</th><th rowspan=\"2\">API errors</th>");
    for p in PHASES {
        let _ = write!(s, "<th colspan=\"3\">{p}</th>");
    }
    s.push_str("</tr><tr>");
    for _ in PHASES {
        for (name, _) in scorers(Scoring::All) {
            let _ = write!(s, "<th>{name}</th>");
        }
    }
    s.push_str("</tr></thead><tbody>");
    for g in &r.groups {
        let _ = write!(
            s,
            "<tr><td>{}</td><td>{}</td><td>{}</td>",
            escape(&g.group),
            g.trials,
            g.api_errors
        );
        for i in 0..3 {
            for (_, get) in scorers(Scoring::All) {
                let _ = write!(s, "<td>{}</td>", get(g)[i].rate_cell());
            }
        }
        s.push_str("</tr>");
    }
    s.push_str("</tbody></table>");
    // Causes per group.
    s.push_str("<table data-testid=\"table-audit-causes\"><caption>Causes of the differences, per model x encoding x shape (a cause opens its trials)</caption><thead><tr><th>Group</th><th>Phase</th><th>Cause</th><th>Trials</th></tr></thead><tbody>");
    if r.causes.is_empty() {
        s.push_str("<tr><td colspan=\"4\">No differences: strict and original agree on every phase both scored.</td></tr>");
    }
    for c in &r.causes {
        let _ = write!(
            s,
            "<tr><td>{g}</td><td>{}</td><td><a href=\"#audit-{section}-{n}\" data-action=\"audit-cause\" data-cause=\"{n}\" data-target=\"audit-{section}-{n}\" data-section=\"{section}\" data-group=\"{g}\" data-phase=\"{p}\">{}</a></td><td>{}</td></tr>",
            c.phase,
            c.cause.name().replace('_', " "),
            c.count,
            p = c.phase,
            g = escape(&c.group),
            n = c.cause.name()
        );
    }
    s.push_str("</tbody></table>");
    // The drill-down: per cause, its trials with what each scorer read.
    if !by_cause.is_empty() {
        s.push_str("<h3>The trials behind each cause</h3><p class=\"audit-legend\">In each reply, <mark class=\"read-strict\">marked like this</mark> is what today's verifier read, <mark class=\"read-original\">like this</mark> what the original code read, and <mark class=\"read-both\">like this</mark> what both read.</p>");
    }
    for (cause, per_phase) in &by_cause {
        let total: usize = per_phase.iter().sum();
        let _ = write!(
            s,
            "<details id=\"audit-{section}-{n}\" data-testid=\"audit-cause-{n}\"><summary><b>{}</b>: {total} difference{}. {}</summary><ol>",
            cause.name().replace('_', " "),
            if total == 1 { "" } else { "s" },
            escape(cause.describe()),
            n = cause.name()
        );
        let mut shown = 0;
        for t in &r.trials {
            for d in t.audit.causes.iter().filter(|d| d.cause == *cause) {
                if shown == DRILL_LIMIT {
                    break;
                }
                shown += 1;
                drill_item(&mut s, t, d);
            }
        }
        s.push_str("</ol>");
        if total > shown {
            let _ = write!(
                s,
                "<p class=\"muted\">The first {shown} of {total}; <code>shapemaze score DIR --scoring all --format json</code> lists every one.</p>"
            );
        }
        s.push_str("</details>");
    }
    s.push_str("</section>");
    s
}

/// Every trial behind one row of the causes table: one group's cause in one phase, each
/// with the reply and what each scorer read highlighted (the results page's drill-down;
/// test ids `audit-drill` and `audit-trial`).
pub fn audit_drill_html(r: &AuditSummary, group: &str, phase: &str, cause: Cause) -> String {
    let mut s = String::new();
    let mut items = String::new();
    let mut n = 0;
    for t in r.trials.iter().filter(|t| t.group() == group) {
        for d in t
            .audit
            .causes
            .iter()
            .filter(|d| d.cause == cause && PHASES[phase_index(d.phase)] == phase)
        {
            n += 1;
            drill_item(&mut items, t, d);
        }
    }
    let _ = write!(
        s,
        "<section class=\"audit\" id=\"drill\" data-testid=\"audit-drill\"><h3>{}: {} in {}, {phase} ({n} trial{})</h3><p>{} In each reply, <mark class=\"read-strict\">marked like this</mark> is what today's verifier read, <mark class=\"read-original\">like this</mark> what the original code read, and <mark class=\"read-both\">like this</mark> what both read.</p><ol>{items}</ol></section>",
        escape(&r.dir),
        cause.name().replace('_', " "),
        escape(group),
        if n == 1 { "" } else { "s" },
        escape(cause.describe()),
    );
    s
}

/// One trial of a cause's drill-down.
fn drill_item(s: &mut String, t: &AuditTrial, d: &Difference) {
    let i = phase_index(d.phase);
    let mark = |m: Option<Mark>| m.map_or("n/a", Mark::name);
    let _ = write!(
        s,
        "<li data-testid=\"audit-trial\"><b>{}</b> ({}), {}{}: recorded {}, strict {}, original {}.",
        escape(&t.file),
        escape(&t.group()),
        PHASES[i],
        d.read
            .as_ref()
            .and_then(|r| r.step)
            .map_or(String::new(), |k| format!(" at step {}", k + 1)),
        mark(t.audit.recorded.as_array()[i]),
        mark(t.audit.strict.as_array()[i]),
        mark(t.audit.original.as_array()[i]),
    );
    match &d.read {
        Some(r) => {
            let _ = write!(
                s,
                "<pre class=\"audit-reply\">{}</pre>",
                highlighted(&r.reply, &r.strict, &r.original)
            );
        }
        None => s.push_str(" <span class=\"muted\">No reply: the endpoint failed.</span>"),
    }
    s.push_str("</li>");
}

/// The reply escaped, the ranges each scorer read marked (`read-strict`, `read-original`,
/// `read-both` where they overlap). Ranges are clamped to the reply and its characters.
pub fn highlighted(reply: &str, strict: &[[usize; 2]], original: &[[usize; 2]]) -> String {
    let fit = |mut i: usize| {
        i = i.min(reply.len());
        while !reply.is_char_boundary(i) {
            i -= 1;
        }
        i
    };
    let mut cuts = vec![0, reply.len()];
    for r in strict.iter().chain(original) {
        cuts.push(fit(r[0]));
        cuts.push(fit(r[1]));
    }
    cuts.sort_unstable();
    cuts.dedup();
    let inside =
        |ranges: &[[usize; 2]], at: usize| ranges.iter().any(|r| fit(r[0]) <= at && at < fit(r[1]));
    let mut out = String::with_capacity(reply.len() + 64);
    for w in cuts.windows(2) {
        let part = escape(&reply[w[0]..w[1]]);
        let class = match (inside(strict, w[0]), inside(original, w[0])) {
            (true, true) => Some("read-both"),
            (true, false) => Some("read-strict"),
            (false, true) => Some("read-original"),
            (false, false) => None,
        };
        match class {
            Some(c) => {
                let _ = write!(out, "<mark class=\"{c}\">{part}</mark>");
            }
            None => out.push_str(&part),
        }
    }
    out
}

/// The audit section's styles (the results page and the report file).
pub const AUDIT_CSS: &str = ".audit pre.audit-reply{white-space:pre-wrap;max-height:16rem;overflow:auto;background:#f6f8fa;border:1px solid #ccd;padding:.5rem;font-size:.85rem}.audit mark.read-strict{background:#bfe3ff;outline:2px solid #0072B2}.audit mark.read-original{background:#ffe0a8;outline:2px dashed #E69F00}.audit mark.read-both{background:#c8efc8;outline:2px solid #009E73}.audit details{margin:.6rem 0}.audit summary{cursor:pointer}.audit li{margin:.6rem 0}";

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Where each cell of a table line starts, in characters: cells are set apart by two
    /// spaces or more (a cell may hold single spaces).
    pub(crate) fn column_starts(line: &str) -> Vec<usize> {
        let chars: Vec<char> = line.chars().collect();
        (0..chars.len())
            .filter(|&i| {
                chars[i] != ' '
                    && (i == 0 || (i >= 2 && chars[i - 1] == ' ' && chars[i - 2] == ' '))
            })
            .collect()
    }

    #[test]
    fn a_text_table_widens_each_column_to_its_widest_cell() {
        let mut table = TextTable::new(&[
            TextColumn::left(6),
            TextColumn::right(4),
            TextColumn::left(5).before(" | "),
            TextColumn::left(0),
        ]);
        table
            .row(["name", "n", "rate", "note"])
            .line("")
            .row(["a", "1", "5704/10653 ~2526193", "x"])
            .row(["a much longer name", "123456", "1/2", "y"]);
        let text = table.render();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 4, "{text}");
        assert_eq!(lines[1], "", "a free line stands as it is");
        let rows = [lines[0], lines[2], lines[3]];
        // Left-set cells start, and right-set ones end, at the same place on every row.
        let at = |cells: [&str; 3]| -> Vec<usize> {
            rows.iter()
                .zip(cells)
                .map(|(l, c)| l.find(c).expect("the cell is there"))
                .collect()
        };
        for cells in [
            [" | ", " | ", " | "],
            ["rate", "5704/", "1/2"],
            ["note", "x", "y"],
        ] {
            let at = at(cells);
            assert!(
                at.iter().all(|&a| a == at[0]),
                "{cells:?} at {at:?}\n{text}"
            );
        }
        assert_eq!(
            lines[0],
            format!("{:<20}{:>7} | {:<21}note", "name", "n", "rate"),
            "the widest cells and the gaps set the widths"
        );
        assert!(
            text.lines().all(|l| l == l.trim_end()),
            "no trailing spaces"
        );
        let narrow = TextTable::new(&[TextColumn::left(6), TextColumn::left(0)])
            .row(["a", "b"])
            .render();
        assert_eq!(
            narrow, "a     b\n",
            "the least width holds when cells are narrow"
        );
    }

    #[test]
    fn the_audit_table_keeps_wide_cells_in_their_columns() {
        let wide = Tally {
            success: 5704,
            fail: 4949,
            diverged: 2_526_193,
            unavailable: 0,
        };
        let group = |name: &str, t: Tally| AuditGroup {
            group: name.into(),
            trials: 1,
            api_errors: 0,
            recorded: [t; 3],
            strict: [t; 3],
            original: [t; 3],
        };
        let summary = AuditSummary {
            dir: "runs".into(),
            scoring: "all",
            transcripts: 0,
            api_errors: 0,
            groups: vec![
                group("all", wide),
                group("claude matrix square", Tally::default()),
            ],
            causes: Vec::new(),
            skipped: 0,
            skipped_files: Vec::new(),
            trials: Vec::new(),
        };
        for scoring in [Scoring::All, Scoring::Strict] {
            let text = render_text(&summary, scoring);
            let lines: Vec<&str> = text.lines().collect();
            let names = lines
                .iter()
                .position(|l| {
                    l.trim_start().starts_with("recorded") || l.trim_start().starts_with("strict")
                })
                .expect("the scorers' line");
            let header = column_starts(lines[names]);
            assert_eq!(header.len(), 3 * scorers(scoring).len(), "{text}");
            for row in &lines[names + 1..names + 3] {
                assert_eq!(
                    column_starts(row)[1..],
                    header[..],
                    "every column starts where its header does:\n{text}"
                );
            }
            let per_phase = scorers(scoring).len();
            let phases: Vec<usize> = header.iter().step_by(per_phase).copied().collect();
            assert_eq!(
                column_starts(lines[names - 1]),
                phases,
                "each phase heads its first scorer:\n{text}"
            );
        }
    }

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

    #[test]
    fn highlighting_marks_each_scorers_reading_and_their_overlap() {
        let reply = "From (0, 0) I go to (1, 1). Move: (0, 1)";
        // Strict read "(0, 1)" after the label; the original read the last "(0, 1)" too,
        // and also looked at "(1, 1)".
        let h = highlighted(reply, &[[34, 40]], &[[20, 26], [34, 40]]);
        assert_eq!(
            h,
            "From (0, 0) I go to <mark class=\"read-original\">(1, 1)</mark>. Move: <mark class=\"read-both\">(0, 1)</mark>"
        );
        let partial = highlighted("a <b> c", &[[0, 5]], &[[2, 99]]);
        assert_eq!(
            partial,
            "<mark class=\"read-strict\">a </mark><mark class=\"read-both\">&lt;b&gt;</mark><mark class=\"read-original\"> c</mark>",
            "escaped, overlapping, and clamped to the reply"
        );
        assert_eq!(
            highlighted("é!", &[[1, 2]], &[]),
            "<mark class=\"read-strict\">é</mark>!",
            "a range starting inside a character starts at the character"
        );
    }

    #[test]
    fn our_own_records_are_audited_with_the_verdicts_they_were_given() {
        use crate::core::generate::generate_one;
        use crate::core::player::{play_ready, Oracle, RandomWalker};
        use crate::core::record::{Placement, PlayerInfo, PlayerKind, TrialRecord};
        use crate::core::templates::TemplateLibrary;
        use crate::core::trial::{Protocol, Trial, TrialSetup};
        let lib = TemplateLibrary::new(5);
        let mut records = Vec::new();
        for (k, shape) in Shape::ALL.into_iter().enumerate() {
            for encoding in [Encoding::Matrix, Encoding::CoordList] {
                let maze = generate_one(shape, 2, 9, &lib).expect("a maze");
                let mut t = Trial::start(TrialSetup {
                    protocol: Protocol::Combined,
                    ..TrialSetup::new(shape, encoding, maze)
                });
                // The oracle, and a random walker that errs.
                if k % 2 == 0 {
                    play_ready(&mut t, &mut Oracle);
                } else {
                    play_ready(&mut t, &mut RandomWalker::new(k as u64));
                }
                let player = PlayerInfo::builtin(PlayerKind::Oracle);
                let placement = Placement {
                    sample: k,
                    ..Placement::default()
                };
                records.push(TrialRecord::of(&t, player, placement, None, None));
            }
        }
        let audited = audit_records(&records);
        assert_eq!(audited.trials.len(), records.len(), "every record audited");
        assert!(audited.skipped.is_empty(), "{:?}", audited.skipped);
        for (t, r) in audited.trials.iter().zip(&records) {
            let given = r
                .verdicts
                .all()
                .map(|v| v.and_then(|v| Mark::from_outcome(v.outcome)));
            assert_eq!(
                t.audit.strict.as_array(),
                given,
                "{}: strict re-scoring gives the record's own verdicts",
                t.file
            );
            assert!(
                t.audit.original.as_array().iter().all(Option::is_some),
                "{}: the original checks score every phase",
                t.file
            );
        }
    }

    #[test]
    fn a_row_of_the_causes_table_drills_down_to_its_own_trials_only() {
        let small = "0 P 0 1 1\nG 1 0 1 1\n0 0 0 1 1\n1 1 1 1 1\n1 1 1 1 1";
        let diagonal = format!(
            "You are tasked with solving a maze. You can move up, down, left, or right.\nHere is the maze you should solve:\n\n{small}\n\nPlease provide the coordinates of your next move.\nI go to (1, 0).\n\nSOLVE: SUCCESS\nFor the maze you were tasked to solve, please provide:\n* The general shape formed by its empty spaces (corridors) is recognizable as \"{{shape}}\".\nA square.\n\nRECOGNIZE: SUCCESS\n\nGENERATE: FAIL\n"
        );
        let mut auditor = Auditor::new();
        for (model, i) in [("claude", 1), ("claude", 2), ("llama", 1)] {
            auditor.transcript(
                format!("matrix_{model}_results/5x5/square/5x5_square_{i}.npy/0.txt"),
                &diagonal,
                None,
            );
        }
        let summary = auditor.finish().summarize("runs", Scoring::All);
        let cause = Cause::DiagonalOnFourDirectionShape;
        let claude = audit_drill_html(&summary, "claude matrix square", "solve", cause);
        assert_eq!(
            claude.matches("data-testid=\"audit-trial\"").count(),
            2,
            "{claude}"
        );
        assert!(!claude.contains("llama"), "only the row's group");
        assert!(claude.contains("I go to <mark class=\"read-both\">(1, 0)</mark>."));
        let other_phase = audit_drill_html(&summary, "claude matrix square", "recognize", cause);
        assert_eq!(
            other_phase.matches("data-testid=\"audit-trial\"").count(),
            0
        );
        let html = audit_html(&summary, 3);
        assert!(
            html.contains(
                "data-section=\"3\" data-group=\"llama matrix square\" data-phase=\"solve\""
            ),
            "the table's rows say which drill-down they open"
        );
    }

    #[test]
    fn the_maze_file_of_a_transcript_and_of_a_human_file_is_found() {
        assert_eq!(
            transcript_maze_file("run/matrix_qwen_results/5x5/C/5x5_C_3.npy/0.txt"),
            Some("5x5_C_3.npy")
        );
        assert_eq!(transcript_maze_file("0.txt"), None);
        assert_eq!(
            maze_file_path("5x5_C_3.npy"),
            Ok((Shape::C, "experiment_mazes/5x5/C/5x5_C_3.npy".to_string()))
        );
        assert!(maze_file_path("nonsense").is_err());
    }
}
