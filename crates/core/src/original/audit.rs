//! The audit of a results folder of the design's original runs (docs/ORIGINAL_DATA.md):
//! every transcript and human result file scored three ways by [`crate::original`]
//! (recorded, strict, original), the named cause of every strict/original difference
//! counted per model x encoding x shape, and the tables, chart and drill-down that show
//! it. The command line (`score` and `report --scoring`) and the results page both feed
//! their files to one [`Auditor`] and draw its [`AuditSummary`] with the renderers here,
//! so a terminal and a browser show the same audit.

use crate::analysis::observation::Observation;
use crate::analysis::stats::{clustered, Proportion};
use crate::maze::encoding::Encoding;
use crate::maze::grid::Maze;
use crate::maze::npy;
use crate::maze::shape::Shape;
use crate::original::human::{audit_human, parse_human};
use crate::original::mark::Mark;
use crate::original::score::audit_on;
use crate::original::score::{Audit, AuditCache, Cause, Readings};
use crate::original::transcript::from_marked;
use crate::original::transcript::parse;
use crate::original::transcript::ERROR_LINE;
use crate::original::transcript::FIRST_PROMPT_START;
use crate::original::transcript::QUERY_FAILED;
use crate::original::transcript::VISION_START;
use crate::play::phase::Phase;
use crate::play::transcript::{ASSISTANT_MARKER, USER_MARKER};
use crate::results::layout::ExportPath;
use crate::results::rescore::Hints;
use crate::results::tally::UNKNOWN;
use crate::text::UnknownName;
use crate::verify::Outcome;
use serde::Serialize;
use std::collections::BTreeMap;

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
    pub fn parse(s: &str) -> Result<Scoring, UnknownName> {
        match s {
            "strict" => Ok(Scoring::Strict),
            "original" => Ok(Scoring::Original),
            "recorded" => Ok(Scoring::Recorded),
            "all" => Ok(Scoring::All),
            other => Err(UnknownName::new(
                "scoring",
                other,
                "strict, original, recorded or all",
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
    t.starts_with(FIRST_PROMPT_START)
        || t.starts_with(VISION_START)
        || t.starts_with(QUERY_FAILED)
        || t.starts_with(ERROR_LINE)
}

/// Whether a transcript carries Shapemaze's message markers.
pub fn is_marked(text: &str) -> bool {
    // Both markers open with "### ": a text without it (every original transcript) is
    // passed over in one search.
    text.contains("### ")
        && text
            .lines()
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
            self.condition(),
            self.audit.shape.map_or("unknown", Shape::name)
        )
    }

    /// Its folder and size: `model encoding 5x5` (the audit by size).
    pub fn size_group(&self) -> String {
        let size = self
            .audit
            .size
            .map_or("size unknown".to_string(), |(r, c)| format!("{r}x{c}"));
        format!("{} {} {size}", self.model, self.condition())
    }

    /// The encoding shown, or `page` (human files) or `vision` (vision runs).
    pub fn condition(&self) -> &'static str {
        self.audit
            .encoding
            .map_or(if self.human { "page" } else { "vision" }, Encoding::name)
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
}

/// The three scorers of an audit, in the order their tables show them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scorer {
    /// The verdict lines as the files have them.
    Recorded,
    /// Today's verifiers.
    Strict,
    /// The original code's checks.
    Original,
}

impl Scorer {
    /// The three, in their tables' order.
    pub const ALL: [Scorer; 3] = [Scorer::Recorded, Scorer::Strict, Scorer::Original];

    /// Its name in tables and CSV columns.
    pub fn name(self) -> &'static str {
        match self {
            Scorer::Recorded => "recorded",
            Scorer::Strict => "strict",
            Scorer::Original => "original",
        }
    }

    /// Its verdicts of one trial.
    fn marks(self, a: &Audit) -> [Option<Mark>; 3] {
        match self {
            Scorer::Recorded => a.recorded.as_array(),
            Scorer::Strict => a.strict.as_array(),
            Scorer::Original => a.original.as_array(),
        }
    }
}

/// Which maze instance a trial played, as the audit clusters its rates: the condition (the
/// encoding shown, `page` or `vision`) and the maze's fingerprint; a trial whose maze could
/// not be read is a cluster of its own (its index among the audited trials).
type MazeCluster = (&'static str, Result<u64, usize>);

/// A group's counts: per scorer (recorded, strict, original), per phase.
#[derive(Clone, Debug, Default, Serialize)]
pub struct AuditGroup {
    /// `all`, or `model encoding shape`.
    pub group: String,
    /// Trials in it.
    pub trials: usize,
    /// Of which API errors.
    pub api_errors: usize,
    /// Distinct maze instances among its trials (a maze shown in two encodings counts
    /// twice; a trial whose maze could not be read counts as one of its own).
    pub mazes: usize,
    /// The verdict lines as written.
    pub recorded: [Tally; 3],
    /// Today's verifiers.
    pub strict: [Tally; 3],
    /// The original checks.
    pub original: [Tally; 3],
    /// The strict readers' readings per phase, and how many are not sure (worth a person's
    /// look).
    pub readings: Readings,
    /// Per maze instance, per scorer and phase: `(successes, phases scored)`.
    #[serde(skip)]
    clusters: BTreeMap<MazeCluster, [[(usize, usize); 3]; 3]>,
}

impl AuditGroup {
    /// An empty group named `group`.
    pub fn named(group: impl Into<String>) -> Self {
        AuditGroup {
            group: group.into(),
            ..AuditGroup::default()
        }
    }

    /// Counts trial `t`, the `index`th audited.
    fn add(&mut self, t: &AuditTrial, index: usize) {
        self.trials += 1;
        self.api_errors += usize::from(t.audit.api_error);
        self.readings.add(&t.audit.readings);
        let cluster = self
            .clusters
            .entry((t.condition(), t.audit.maze.ok_or(index)))
            .or_default();
        for scorer in Scorer::ALL {
            let tallies = match scorer {
                Scorer::Recorded => &mut self.recorded,
                Scorer::Strict => &mut self.strict,
                Scorer::Original => &mut self.original,
            };
            for (i, mark) in scorer.marks(&t.audit).into_iter().enumerate() {
                tallies[i].add(mark);
                let c = &mut cluster[scorer as usize][i];
                c.0 += usize::from(mark == Some(Mark::Success));
                c.1 += usize::from(matches!(mark, Some(Mark::Success | Mark::Fail)));
            }
        }
        self.mazes = self.clusters.len();
    }

    /// One scorer's counts, per phase.
    pub fn tallies(&self, scorer: Scorer) -> &[Tally; 3] {
        match scorer {
            Scorer::Recorded => &self.recorded,
            Scorer::Strict => &self.strict,
            Scorer::Original => &self.original,
        }
    }

    /// One scorer's rate of `phase` with its 95% interval
    /// clustered by maze instance ([`crate::analysis::stats::clustered`]): a maze several
    /// trials played (repeats, participants) counts as one maze. The mazes count only
    /// those where the phase was scored.
    pub fn rate(&self, scorer: Scorer, phase: Phase) -> Proportion {
        let units: Vec<(usize, usize)> = self
            .clusters
            .values()
            .map(|c| c[scorer as usize][phase.index()])
            .collect();
        clustered(&units)
    }
}

#[cfg(any(test, feature = "test-support"))]
impl AuditGroup {
    /// A group whose every scorer and phase counts `t`, each phase scored on a maze of its
    /// own, so its rates are plain Wilson intervals (for tests of the audit's tables).
    pub fn uniform(group: impl Into<String>, trials: usize, t: Tally) -> Self {
        let mut g = AuditGroup::named(group);
        g.trials = trials;
        g.recorded = [t; 3];
        g.strict = [t; 3];
        g.original = [t; 3];
        for u in 0..t.scored() {
            let unit = (usize::from(u < t.success), 1);
            g.clusters.insert(("matrix", Err(u)), [[unit; 3]; 3]);
        }
        g.mazes = g.clusters.len();
        g
    }
}

/// A cause's count in one group and phase.
#[derive(Clone, Debug, Serialize)]
pub struct CauseRow {
    /// `model encoding shape`.
    pub group: String,
    /// Solve, recognize or generate (in JSON its name).
    pub phase: Phase,
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
    /// One per model x encoding x size (`claude coord_list 7x7`): the sizes side by side.
    pub sizes: Vec<AuditGroup>,
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

/// Where a human file's maze lies: `experiment_mazes/{R}x{C}/{shape}/{maze_file}`, with
/// its shape.
pub fn maze_file_path(maze_file: &str) -> Result<(Shape, String), HumanMazeError> {
    let stem = maze_file.trim_end_matches(".npy");
    let mut parts = stem.splitn(3, '_');
    let (Some(size), Some(shape)) = (parts.next(), parts.next()) else {
        return Err(HumanMazeError::BadName(maze_file.to_string()));
    };
    let shape = Shape::parse(shape).map_err(HumanMazeError::Shape)?;
    Ok((
        shape,
        format!("experiment_mazes/{size}/{}/{maze_file}", shape.name()),
    ))
}

/// A maze read from the bytes of its `.npy` file (`name` names it in the error).
pub fn read_maze_file(name: &str, bytes: &[u8]) -> Result<Maze, HumanMazeError> {
    let grid = npy::read(bytes).map_err(|error| HumanMazeError::Npy {
        name: name.to_string(),
        error,
    })?;
    Maze::from_grid(grid).map_err(|error| HumanMazeError::NotPlayable {
        name: name.to_string(),
        error,
    })
}

/// Why the maze a human result file names cannot be had.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HumanMazeError {
    /// `maze_file` is not `{R}x{C}_{shape}_{i}.npy`.
    BadName(String),
    /// Its shape is none we know.
    Shape(UnknownName),
    /// The file cannot be read (the reader's message).
    Unreadable {
        /// Its path.
        path: String,
        /// Why.
        why: String,
    },
    /// Not a maze file NumPy wrote.
    Npy {
        /// The file.
        name: String,
        /// Why.
        error: npy::NpyError,
    },
    /// Not a playable maze.
    NotPlayable {
        /// The file.
        name: String,
        /// Why.
        error: crate::maze::grid::MazeError,
    },
}

impl std::fmt::Display for HumanMazeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            HumanMazeError::BadName(n) => {
                write!(f, "maze_file '{n}' is not {{R}}x{{C}}_{{shape}}_{{i}}.npy")
            }
            HumanMazeError::Shape(e) => write!(f, "{e}"),
            HumanMazeError::Unreadable { path, why } => write!(f, "its maze {path}: {why}"),
            HumanMazeError::Npy { name, error } => write!(f, "its maze {name}: {error}"),
            HumanMazeError::NotPlayable { name, error } => write!(f, "its maze {name}: {error}"),
        }
    }
}

impl std::error::Error for HumanMazeError {}

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
        in_play: None,
        maze: None,
    };
    let maze_from = if maze_file.is_some() {
        "experiment_mazes"
    } else {
        "prompt"
    };
    let parsed = if own {
        from_marked(text, hints.encoding)?
    } else {
        parse(text)
    };
    let mut a = audit_on(&parsed, &hints, cache, maze_file);
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
        read: &mut dyn FnMut(&str) -> std::io::Result<Vec<u8>>,
    ) -> bool {
        let Some(h) = parse_human(text)
            .ok()
            .filter(|h| !h.participant_id.is_empty() && !h.maze_file.is_empty())
        else {
            return false;
        };
        let maze = maze_file_path(&h.maze_file).and_then(|(shape, path)| {
            let bytes = read(&path).map_err(|why| HumanMazeError::Unreadable {
                path: path.clone(),
                why: why.to_string(),
            })?;
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
        crate::sort::sort_by(&mut self.skipped, |a, b| a.file.cmp(&b.file));
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
pub fn audit_records(records: &[crate::results::record::TrialRecord]) -> Audited {
    let mut auditor = Auditor::new();
    for r in records {
        if let Some(text) = r.transcript() {
            auditor.transcript(
                crate::batch::export::transcript_path(r),
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
        let mut sizes: BTreeMap<String, AuditGroup> = BTreeMap::new();
        let mut causes: BTreeMap<(String, Phase, Cause), usize> = BTreeMap::new();
        let mut all = AuditGroup::named("all");
        for (i, t) in self.trials.iter().enumerate() {
            let key = t.group();
            all.add(t, i);
            let size = t.size_group();
            sizes
                .entry(size.clone())
                .or_insert_with(|| AuditGroup::named(size))
                .add(t, i);
            groups
                .entry(key.clone())
                .or_insert_with(|| AuditGroup::named(key.clone()))
                .add(t, i);
            for d in &t.audit.causes {
                *causes.entry((key.clone(), d.phase, d.cause)).or_default() += 1;
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
            sizes: sizes.into_values().collect(),
            causes: causes
                .into_iter()
                .map(|((group, phase, cause), count)| CauseRow {
                    group,
                    phase,
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
            // The strict readers' doubts go with their verdicts alone.
            let (marks, doubts) = match scoring {
                Scoring::Recorded => (&t.audit.recorded, Default::default()),
                Scoring::Original => (&t.audit.original, Default::default()),
                Scoring::Strict | Scoring::All
                    if !t.audit.api_error
                        && t.audit.strict.as_array().iter().all(Option::is_none) =>
                {
                    closing_only += 1;
                    (&t.audit.recorded, Default::default())
                }
                Scoring::Strict | Scoring::All => (&t.audit.strict, t.audit.doubts),
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
                size: t.audit.size.map_or(5, |(r, _)| r),
                sample: place.as_ref().map_or(0, |p| p.maze),
                repeat: place.as_ref().map_or(0, |p| p.trial),
                outcomes,
                doubts,
                ..Observation::bare(encoding, shape)
            });
        }
        (out, left_out, closing_only)
    }
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

    #[test]
    fn our_own_records_are_audited_with_the_verdicts_they_were_given() {
        use crate::maze::generate::generate_one;
        use crate::maze::templates::TemplateLibrary;
        use crate::play::player::PlayerKind;
        use crate::play::player::{play_ready, Oracle, RandomWalker};
        use crate::play::trial::{Protocol, Trial, TrialSetup};
        use crate::results::record::{Placement, PlayerInfo, TrialRecord};
        let lib = TemplateLibrary::new(5);
        let mut records = Vec::new();
        // The original code knew the design's six shapes only.
        for (k, shape) in Shape::STANDARD.into_iter().enumerate() {
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
        // Each shape's maze was shown in both encodings: one fingerprint, two instances.
        for pair in audited.trials.chunks(2) {
            assert!(
                pair[0].audit.maze.is_some(),
                "{}: its maze is read",
                pair[0].file
            );
            assert_eq!(pair[0].audit.maze, pair[1].audit.maze, "{}", pair[1].file);
        }
        let distinct: std::collections::BTreeSet<_> =
            audited.trials.iter().map(|t| t.audit.maze).collect();
        assert_eq!(distinct.len(), Shape::STANDARD.len(), "one maze per shape");
        assert_eq!(
            audited.clone().summarize("runs", Scoring::All).groups[0].mazes,
            records.len()
        );
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

    /// A trial of `maze` (a fingerprint; `None`: its maze could not be read) shown in
    /// `encoding`, its solve phase a success or not under every scorer.
    fn trial_on(maze: Option<u64>, encoding: Encoding, solved: bool) -> AuditTrial {
        let mark = Some(if solved { Mark::Success } else { Mark::Fail });
        let marks = crate::original::mark::Marks {
            solve: mark,
            ..Default::default()
        };
        AuditTrial {
            file: String::new(),
            maze_from: "experiment_mazes",
            model: "qwen".into(),
            audit: Audit {
                encoding: Some(encoding),
                shape: Some(Shape::Square),
                size: Some((5, 5)),
                api_error: false,
                vision: false,
                recorded: marks,
                strict: marks,
                original: marks,
                causes: Vec::new(),
                diverged_at: None,
                readings: Readings::default(),
                doubts: Default::default(),
                maze,
            },
            causes: Vec::new(),
            human: false,
            duplicate: false,
        }
    }

    fn summary(trials: Vec<AuditTrial>) -> AuditSummary {
        Audited {
            trials,
            skipped: Vec::new(),
        }
        .summarize("runs", Scoring::All)
    }

    #[test]
    fn thirty_repeats_of_one_maze_know_less_than_thirty_mazes() {
        use crate::analysis::stats::wilson;
        // The same 15 successes in 30 solves: on one maze replayed 30 times, and on 30
        // mazes played once each.
        let one = summary(
            (0..30)
                .map(|i| trial_on(Some(7), Encoding::Matrix, i % 2 == 0))
                .collect(),
        );
        let many = summary(
            (0..30)
                .map(|i| trial_on(Some(i), Encoding::Matrix, i % 2 == 0))
                .collect(),
        );
        for scorer in Scorer::ALL {
            let (a, b) = (
                one.groups[0].rate(scorer, Phase::Solve),
                many.groups[0].rate(scorer, Phase::Solve),
            );
            assert_eq!((a.successes, a.n, b.successes, b.n), (15, 30, 15, 30));
            assert_eq!((a.mazes, b.mazes), (Some(1), Some(30)), "{scorer:?}");
            assert!(
                a.ci_high - a.ci_low > b.ci_high - b.ci_low,
                "{scorer:?}: one maze's interval {a:?} is wider than thirty mazes' {b:?}"
            );
            let plain = wilson(15, 30);
            assert_eq!(
                (b.ci_low, b.ci_high),
                (plain.ci_low, plain.ci_high),
                "one play per maze is Wilson's interval"
            );
        }
        assert_eq!((one.groups[0].mazes, many.groups[0].mazes), (1, 30));
        // A phase nobody scored has no rate, and its mazes are not counted.
        let unscored = one.groups[0].rate(Scorer::Strict, Phase::Recognize);
        assert_eq!((unscored.n, unscored.mazes), (0, Some(0)));
    }

    #[test]
    fn a_maze_shown_in_two_encodings_is_two_instances_and_an_unread_maze_its_own() {
        let s = summary(vec![
            trial_on(Some(1), Encoding::Matrix, true),
            trial_on(Some(1), Encoding::Matrix, false),
            trial_on(Some(1), Encoding::CoordList, true),
            trial_on(None, Encoding::Matrix, true),
            trial_on(None, Encoding::Matrix, false),
        ]);
        let all = &s.groups[0];
        assert_eq!((all.group.as_str(), all.trials, all.mazes), ("all", 5, 4));
        let by_group: Vec<(&str, usize)> = s.groups[1..]
            .iter()
            .map(|g| (g.group.as_str(), g.mazes))
            .collect();
        assert_eq!(
            by_group,
            [("qwen coord_list square", 1), ("qwen matrix square", 3)]
        );
        assert_eq!(all.rate(Scorer::Original, Phase::Solve).mazes, Some(4));
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
