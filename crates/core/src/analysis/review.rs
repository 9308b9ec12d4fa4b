//! Reviews: a person's reading of a reply, kept as data beside a run (`reviews.jsonl`, one
//! JSON object a line) so that re-scoring can apply it and a report can state how often the
//! reader agrees with people (docs/DECISIONS.md, fifth round: a reading is a claim people
//! check).
//!
//! A review names the reply it reads by the trial's identity (its path in the export layout,
//! `matrix_oracle_results/5x5/square/5x5_square_0.npy/0.txt`, the same for a record and
//! its transcript), the phase and the step (the move's index in the solve phase, 0 for the
//! other phases). Its value is written as a verdict's `extracted` is: `null` (no answer),
//! `[r, c]`, a shape's name, or a maze's rows. A later line about the same reply replaces
//! an earlier one. The queue ([`queue_of`]) lists every reading the reader is unsure of
//! first, then the replies another reader reads otherwise, then a seeded random sample of
//! the sure readings (`sampled`); the built-in players' replies are never queued. The
//! agreement ([`agreement`]) is counted apart for the two: over the sure readings of the
//! sample (an unbiased draw, so a run's own reviews measure the precision of sure), and
//! over every unsure reading reviewed.

use crate::analysis::stats::{Proportion, Tally};
use crate::maze::encoding::Encoding;
use crate::maze::grid::Grid;
use crate::maze::symbols::Symbols;
use crate::play::phase::Phase;
use crate::play::player::PlayerKind;
use crate::play::trial::Protocol;
use crate::results::forms::{form_reads, model_label};
use crate::results::layout::ExportPath;
use crate::results::record::TrialRecord;
use crate::results::rescore::{replies_read, Hints};
use crate::results::tally::Counts;
use crate::verify::{Extracted, Reading};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

/// One person's reading of one reply.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Review {
    /// The trial's identity: its transcript's path in the export layout.
    pub trial: String,
    /// The phase of the reply (`solve`, `recognize`, `generate`).
    pub phase: Phase,
    /// The reply's index in its phase (the move's, in the solve phase; 0 otherwise).
    #[serde(default)]
    pub step: usize,
    /// What the reviewer reads in the reply (as a verdict's `extracted`).
    pub value: Extracted,
    /// Who reviewed (a name or initials).
    #[serde(default)]
    pub reviewer: String,
    /// When (ISO 8601).
    #[serde(default)]
    pub at: String,
    /// Whether the reply was drawn in a seeded random sample (then the review counts
    /// towards the agreement figure).
    #[serde(default)]
    pub sampled: bool,
}

/// Which reply a review reads: trial, phase, step.
pub type ReplyKey = (String, Phase, usize);

impl Review {
    /// The reply this review reads.
    pub fn key(&self) -> ReplyKey {
        (self.trial.clone(), self.phase, self.step)
    }
}

/// A line of a reviews file that is not a review.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReviewError {
    /// The line, counted from 1.
    pub line: usize,
    /// What is wrong with it.
    pub message: String,
}

impl fmt::Display for ReviewError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {} is not a review ({}); each line of reviews.jsonl is one JSON object with trial, phase, step and value",
            self.line, self.message
        )
    }
}

impl std::error::Error for ReviewError {}

/// Reads a `reviews.jsonl` file: every line one review, blank lines skipped. The first line
/// that is not a review is an error naming it; nothing is half-read.
pub fn parse_reviews(text: &str) -> Result<Vec<Review>, ReviewError> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            let review: Review = serde_json::from_str(l).map_err(|e| ReviewError {
                line: i + 1,
                message: e.to_string(),
            })?;
            if review.phase == Phase::Done {
                return Err(ReviewError {
                    line: i + 1,
                    message: "phase must be solve, recognize or generate".into(),
                });
            }
            Ok(review)
        })
        .collect()
}

/// Writes reviews as `reviews.jsonl`: one line each, in order.
pub fn write_reviews(reviews: &[Review]) -> Result<String, serde_json::Error> {
    let mut out = String::new();
    for r in reviews {
        out.push_str(&serde_json::to_string(r)?);
        out.push('\n');
    }
    Ok(out)
}

/// The review in force for each reply: the last line about it.
pub fn latest(reviews: &[Review]) -> BTreeMap<ReplyKey, &Review> {
    let mut out = BTreeMap::new();
    for r in reviews {
        out.insert(r.key(), r);
    }
    out
}

/// Whether the reader is sure of a reading: the one place the review queue and the
/// agreement ask it ([`Reading::sure`], as the verdict's `sure`: not a fall-back, and
/// nothing in the reply competes with it).
pub fn is_sure(reading: &Reading) -> bool {
    reading.sure()
}

/// Whether `kind` is one of the built-in players (the oracle, the random walker): their
/// replies are our own text, so the queue, the sample and the agreement leave them out.
pub fn built_in(kind: PlayerKind) -> bool {
    matches!(kind, PlayerKind::Oracle | PlayerKind::Random)
}

/// Whether a model's name (as a transcript's path gives it) is a built-in player's
/// (`oracle`, `random`), for a folder of transcripts that has no records.
pub fn built_in_name(model: &str) -> bool {
    PlayerKind::parse(model).is_ok_and(built_in)
}

/// How often people read a phase's replies as the reader did, over the reviewed readings
/// the reader is sure of (drawn in the random sample) or over those it is unsure of (every
/// review of one: the queue lists every unsure reading).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Agreement {
    /// The phase.
    pub phase: Phase,
    /// Whether these are the readings marked sure (`true`) or unsure (`false`).
    pub sure: bool,
    /// The readings reviewed (`n`), those read right (`successes`), with the Wilson
    /// interval of the rate.
    #[serde(flatten)]
    pub agreement: Proportion,
}

impl Agreement {
    /// The sentence a report prints: "of 40 sure readings of moves reviewed in the random
    /// sample, 40 read right (100.0%, 91.2-100.0%)".
    pub fn sentence(&self) -> String {
        let what = match self.phase {
            Phase::Solve => "moves",
            Phase::Recognize => "shapes",
            _ => "mazes",
        };
        let p = &self.agreement;
        let s = if p.n == 1 { "" } else { "s" };
        let which = if self.sure {
            format!("sure reading{s} of {what} reviewed in the random sample")
        } else {
            format!("unsure reading{s} of {what} reviewed")
        };
        format!(
            "of {} {which}, {} read right ({:.1}%, {:.1}-{:.1}%)",
            p.n,
            p.successes,
            100.0 * p.rate,
            100.0 * p.ci_low,
            100.0 * p.ci_high
        )
    }
}

/// The reader's agreement with the reviews, per phase, the sure readings apart from the
/// unsure ones (sure first; a group with no review left out). `read` gives what the reader
/// read in a reply and whether it is sure (`None` when the reply is not in the run or is a
/// built-in player's: the review is not counted). A sure reading counts only when its
/// review was drawn in the random sample (`sampled`), which makes the figure the precision
/// of sure; an unsure reading counts whenever it was reviewed.
pub fn agreement(
    reviews: &[Review],
    read: impl Fn(&ReplyKey) -> Option<(Extracted, bool)>,
) -> Vec<Agreement> {
    // By phase, then sure before unsure: the readings the review agrees with.
    let mut counts: BTreeMap<(Phase, bool), Tally> = BTreeMap::new();
    for (key, review) in latest(reviews) {
        let Some((value, sure)) = read(&key) else {
            continue;
        };
        if sure && !review.sampled {
            continue;
        }
        counts
            .entry((Phase::at(key.1.index()), !sure))
            .or_default()
            .add(value == review.value);
    }
    counts
        .into_iter()
        .map(|((phase, unsure), agreed)| Agreement {
            phase,
            sure: !unsure,
            agreement: agreed.wilson(),
        })
        .collect()
}

/// A seeded random sample of `n` of `keys` (all of them when there are fewer), in the
/// order drawn: the same seed and keys always draw the same sample.
pub fn sample(keys: &[ReplyKey], n: usize, seed: u64) -> Vec<ReplyKey> {
    let mut sorted: Vec<ReplyKey> = keys.to_vec();
    crate::sort::sort_by(&mut sorted, |a, b| a.cmp(b));
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    sorted.shuffle(&mut rng);
    sorted.truncate(n);
    sorted
}

/// Why a reply is in the review queue. A new reason is one more value here, with its
/// name, its words and its place in [`Why::ALL`] (the queue's order): the queue, its
/// summary and the page's filter list the reasons from it. A reply flagged for a reason
/// the reader cannot see itself (another reading differs) comes to [`queue_of`] in its
/// [`Flags`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Why {
    /// The reader is not sure of its reading ([`is_sure`] is false: a fall-back read it, or
    /// something in the reply competes with it).
    Unsure,
    /// The original-compatible reading (the design's own checks) differs from the
    /// reader's: another cell, or another verdict on the shape or the maze.
    ReadersDiffer,
    /// The second reader (a chat model) read it otherwise.
    SecondReader,
    /// Under the `transcribed` answer mode, the transcription of the reply reads it
    /// otherwise ([`crate::analysis::forms::transcription_disagreements`]).
    Transcription,
    /// A sure reading drawn in the seeded random sample (its review counts towards the
    /// precision of sure).
    Sampled,
}

impl Why {
    /// Every reason, in the queue's order: the unsure readings first, the random sample of
    /// the sure ones last.
    pub const ALL: [Why; 5] = [
        Why::Unsure,
        Why::ReadersDiffer,
        Why::SecondReader,
        Why::Transcription,
        Why::Sampled,
    ];

    /// The snake_case name (`unsure`, `readers_differ`, `second_reader`, `transcription`,
    /// `sampled`), as
    /// the page's filter and `data-reasons` write it.
    pub fn name(self) -> &'static str {
        match self {
            Why::Unsure => "unsure",
            Why::ReadersDiffer => "readers_differ",
            Why::SecondReader => "second_reader",
            Why::Transcription => "transcription",
            Why::Sampled => "sampled",
        }
    }

    /// Why, in the words an item shows.
    pub fn describe(self) -> &'static str {
        match self {
            Why::Unsure => "the reader is unsure of its reading",
            Why::ReadersDiffer => "the original-compatible reading differs",
            Why::SecondReader => "the second reader reads it otherwise",
            Why::Transcription => "our readers read it otherwise than its transcription",
            Why::Sampled => "drawn in the random sample of sure readings",
        }
    }

    /// A short name for a filter's choice (`unsure`, `random sample`).
    pub fn label(self) -> &'static str {
        match self {
            Why::Unsure => "unsure",
            Why::ReadersDiffer => "readers differ",
            Why::SecondReader => "second reader",
            Why::Transcription => "transcription",
            Why::Sampled => "random sample",
        }
    }

    /// How the queue's summary counts the items of this reason ("12 read unsure").
    pub fn counted(self) -> &'static str {
        match self {
            Why::Unsure => "read unsure",
            Why::ReadersDiffer => "where the original-compatible reading differs",
            Why::SecondReader => "read otherwise by the second reader",
            Why::Transcription => "where our readers and the transcription differ",
            Why::Sampled => "in the random sample of sure readings",
        }
    }
}

/// The replies flagged for a reason beside the reader's own doubt, each with its reasons.
pub type Flags = BTreeMap<ReplyKey, Vec<Why>>;

/// Adds `why` to the reasons `key` is flagged for (once).
pub fn flag(flags: &mut Flags, key: ReplyKey, why: Why) {
    let reasons = flags.entry(key).or_default();
    if !reasons.contains(&why) {
        reasons.push(why);
    }
}

/// One reply to review, with what the reader read in it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QueueItem {
    /// The trial's identity ([`ExportPath::of_record`] rendered).
    pub trial: String,
    /// The record's index in the records given.
    pub record: usize,
    /// The reply's phase.
    pub phase: Phase,
    /// Its index in the phase.
    pub step: usize,
    /// The reply as written.
    pub reply: String,
    /// What the reader read, by which rule, where.
    pub reading: Reading,
    /// Whether the reader is sure of it ([`is_sure`]).
    pub sure: bool,
    /// The maze as the model saw it when it replied (the player where it stood then).
    pub maze: Option<Grid>,
    /// The encoding the maze was shown in (a maze the reviewer writes is read in it).
    pub encoding: Encoding,
    /// The matrix's symbols.
    pub symbols: Symbols,
    /// Why it is in the queue: every reason, in [`Why::ALL`]'s order (none in
    /// [`all_replies`]' list).
    pub reasons: Vec<Why>,
}

impl QueueItem {
    /// The reply it reads.
    pub fn key(&self) -> ReplyKey {
        (self.trial.clone(), self.phase, self.step)
    }

    /// Whether it is queued for `why`.
    pub fn is(&self, why: Why) -> bool {
        self.reasons.contains(&why)
    }

    /// Whether its review counts as drawn in the random sample.
    pub fn sampled(&self) -> bool {
        self.is(Why::Sampled)
    }
}

/// Every reply of `records` with what its reader reads, in order, the built-in players'
/// left out ([`built_in`]): read once, then handed to [`queue_of`] and [`readings_of`] (a
/// page reads every reply once, not once each).
pub fn all_replies(records: &[TrialRecord]) -> Vec<QueueItem> {
    let mut out = Vec::new();
    for (i, record) in records.iter().enumerate() {
        if built_in(record.player) {
            continue;
        }
        let Some(text) = record.transcript() else {
            continue;
        };
        let trial = ExportPath::of_record(record).render();
        let hints = Hints::from(record);
        let first = record.first_maze().ok();
        // A reply whose form held was read by it (answer modes): the queue shows that
        // reading, sure unless a transcription and our readers differ.
        let path = record.protocol == Protocol::SingleShot;
        let forms: BTreeMap<(Phase, usize), Reading> = form_reads(record)
            .into_iter()
            .filter(|f| f.form.held)
            .map(|f| {
                let rule = f.rule();
                let reading = Reading {
                    value: f.read.form.clone(),
                    rule,
                    span: None,
                    doubt: f.read.doubt(f.form.mode, rule, path),
                };
                ((f.read.phase, f.step), reading)
            })
            .collect();
        for mut read in replies_read(&text, &hints) {
            let phase = read.phase;
            if let Some(by_form) = forms.get(&(phase, read.step)) {
                read.reading = by_form.clone();
            }
            // The player stood at the path's cell before this move (the start first).
            let maze = first
                .as_ref()
                .map(|m| match (phase, record.path.get(read.step)) {
                    (Phase::Solve, Some(&at)) if read.step > 0 => {
                        m.with_player_at(at).grid().clone()
                    }
                    _ => m.grid().clone(),
                });
            out.push(QueueItem {
                trial: trial.clone(),
                record: i,
                phase,
                step: read.step,
                sure: is_sure(&read.reading),
                reply: read.reply,
                reading: read.reading,
                maze,
                encoding: record.encoding,
                symbols: record.symbols,
                reasons: Vec::new(),
            });
        }
    }
    out
}

/// What the readers read in every reply of `records`, by reply, and whether they are sure
/// of it (the agreement's side of the reader).
pub fn readings(records: &[TrialRecord]) -> BTreeMap<ReplyKey, (Extracted, bool)> {
    readings_of(&all_replies(records))
}

/// [`readings`] of replies already read ([`all_replies`]).
pub fn readings_of(all: &[QueueItem]) -> BTreeMap<ReplyKey, (Extracted, bool)> {
    all.iter()
        .map(|q| (q.key(), (q.reading.value.clone(), q.sure)))
        .collect()
}

/// The mazes a generation reply writes, each read on its own (a reply that drafts a maze
/// and then corrects it holds two), in the order written and each once: what a reviewer
/// picks from when the reader took the wrong one.
pub fn drafts(item: &QueueItem) -> Vec<Grid> {
    let Some((rows, cols)) = item.maze.as_ref().map(|g| (g.rows(), g.cols())) else {
        return Vec::new();
    };
    let mut out: Vec<Grid> = Vec::new();
    let mut chunk = String::new();
    let mut read = |chunk: &mut String| {
        if let Ok(g) = item
            .encoding
            .read_reply_in(chunk, rows, cols, item.symbols)
            .grid
        {
            if !out.contains(&g) {
                out.push(g);
            }
        }
        chunk.clear();
    };
    for line in item.reply.lines() {
        let t = line.trim();
        if t.is_empty() || t.starts_with("```") {
            read(&mut chunk);
        } else {
            chunk.push_str(line);
            chunk.push('\n');
        }
    }
    read(&mut chunk);
    out
}

/// A maze a reviewer wrote for a generation reply, read in the trial's encoding and
/// symbols; why it is not one, in words, when it is not.
pub fn edited_maze(item: &QueueItem, text: &str) -> Result<Grid, String> {
    let (rows, cols) = item.maze.as_ref().map_or((0, 0), |g| (g.rows(), g.cols()));
    item.encoding
        .read_reply_in(text, rows, cols, item.symbols)
        .grid
        .map_err(|e| {
            format!(
                "That is not a maze in the {} encoding: {e}.",
                item.encoding.label()
            )
        })
}

/// One model's phases as read and as reviewed, counted as `shapemaze score --reviews`
/// counts them ([`Counts`]: successes, failures, phases with no outcome, API errors).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ReviewedRow {
    /// The model (or player) whose trials these are.
    pub model: String,
    /// Solve, recognize, generate as read.
    pub read: [Counts; 3],
    /// The same with every reviewed reading in place of the reader's.
    pub reviewed: [Counts; 3],
}

/// Each model's phases as read and as reviewed, one row per model (never pooled: the
/// built-in players' trials stand apart from the models'), in the models' order. As read
/// is the records' own verdicts; a record with reviews is replayed with its reviewed
/// replies in place (as `shapemaze score --reviews` does) and only it, so a review costs
/// one replay. A phase the replay leaves without an outcome has none as reviewed: a move
/// read as invalid (which ended the phase) corrected to a valid one that does not reach
/// the goal lets the phase go on past the replies recorded, and what the model would have
/// answered next is not known; it counts as a phase with no outcome (`unscored`), never as
/// a success or a failure.
pub fn rates_as_reviewed(records: &[TrialRecord], reviews: &[Review]) -> Vec<ReviewedRow> {
    use crate::results::rescore::{rescore_reviewed, Libraries, Reviewed};
    let mut by_trial: BTreeMap<&str, Vec<Reviewed>> = BTreeMap::new();
    for ((_, phase, step), r) in latest(reviews) {
        by_trial.entry(r.trial.as_str()).or_default().push((
            Phase::at(phase.index()),
            step,
            r.value.clone(),
        ));
    }
    let mut libraries = Libraries::new();
    // One row per model and answer mode (`model+mode`): modes are never pooled.
    let mut rows: BTreeMap<String, ([Counts; 3], [Counts; 3])> = BTreeMap::new();
    for record in records {
        let read = record.verdicts.all().map(|v| v.map(|v| v.outcome));
        let mine = by_trial.get(ExportPath::of_record(record).render().as_str());
        let reviewed = match (mine, record.transcript()) {
            (Some(mine), Some(text)) => {
                rescore_reviewed(&text, &Hints::from(record), &mut libraries, mine).counted()
            }
            _ => read,
        };
        let row = rows.entry(model_label(record)).or_default();
        for i in 0..3 {
            row.0[i].add(read[i]);
            row.1[i].add(reviewed[i]);
        }
    }
    rows.into_iter()
        .map(|(model, (read, reviewed))| ReviewedRow {
            model,
            read,
            reviewed,
        })
        .collect()
}

/// What a sample draws: `size` sure readings of `phase` (of each phase when `None`), with
/// `seed`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sample {
    /// The phase drawn from; every phase when `None`.
    pub phase: Option<Phase>,
    /// How many readings of each phase.
    pub size: usize,
    /// The seed of the draw.
    pub seed: u64,
}

/// The review queue of `records`: every unsure reading, then, with `sample`, the sure
/// readings it draws (seeded, so the same records give the same draw). A reply is listed
/// once.
pub fn queue(records: &[TrialRecord], sample: Option<Sample>) -> Vec<QueueItem> {
    queue_of(&all_replies(records), &Flags::new(), sample)
}

/// [`queue`] of replies already read ([`all_replies`]), with the replies in `flags` queued
/// for their reasons too. Each item carries every reason it is queued for, and the queue
/// is in the order of [`Why::ALL`] by an item's first reason: every unsure reading (in the
/// replies' order), then the flagged ones, then the random sample of the sure readings (in
/// the order drawn). A sampled item flagged for another reason too stands with the flagged
/// ones and still counts as sampled.
pub fn queue_of(all: &[QueueItem], flags: &Flags, sample: Option<Sample>) -> Vec<QueueItem> {
    let mut drawn: BTreeMap<ReplyKey, usize> = BTreeMap::new();
    if let Some(s) = sample {
        let phases = match s.phase {
            Some(p) => vec![p],
            None => vec![Phase::Solve, Phase::Recognize, Phase::Generate],
        };
        for phase in phases {
            let keys: Vec<ReplyKey> = all
                .iter()
                .filter(|q| q.phase == phase && q.sure)
                .map(QueueItem::key)
                .collect();
            for key in self::sample(&keys, s.size, s.seed) {
                let at = drawn.len();
                drawn.insert(key, at);
            }
        }
    }
    let mut out: Vec<(Why, usize, QueueItem)> = Vec::new();
    for (i, q) in all.iter().enumerate() {
        let key = q.key();
        let mut reasons = Vec::new();
        if !q.sure {
            reasons.push(Why::Unsure);
        }
        reasons.extend(flags.get(&key).into_iter().flatten().copied());
        let order = match drawn.get(&key) {
            Some(&at) => {
                reasons.push(Why::Sampled);
                at
            }
            None => i,
        };
        crate::sort::sort_dedup(&mut reasons);
        if let Some(&first) = reasons.first() {
            let order = if first == Why::Sampled { order } else { i };
            out.push((
                first,
                order,
                QueueItem {
                    reasons,
                    ..q.clone()
                },
            ));
        }
    }
    crate::sort::sort_by(&mut out, |a, b| (a.0, a.1).cmp(&(b.0, b.1)));
    out.into_iter().map(|(_, _, q)| q).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::maze::encoding::Encoding;
    use crate::maze::grid::Pos;
    use crate::maze::shape::Shape;

    fn review(trial: &str, phase: Phase, step: usize, value: Extracted, sampled: bool) -> Review {
        Review {
            trial: trial.into(),
            phase,
            step,
            value,
            reviewer: "ab".into(),
            at: "2026-11-28T06:00:00Z".into(),
            sampled,
        }
    }

    #[test]
    fn reviews_round_trip_through_jsonl_and_a_bad_line_is_named() {
        let rs = vec![
            review(
                "a/0.txt",
                Phase::Solve,
                2,
                Extracted::Cell(Pos::new(1, 0)),
                true,
            ),
            review(
                "a/0.txt",
                Phase::Recognize,
                0,
                Extracted::Shape(Shape::C),
                false,
            ),
            review("a/0.txt", Phase::Generate, 0, Extracted::Nothing, false),
        ];
        let text = write_reviews(&rs).expect("writes");
        assert_eq!(text.lines().count(), 3);
        assert!(text.contains(r#""value":[1,0]"#), "{text}");
        assert_eq!(parse_reviews(&format!("{text}\n")).expect("reads"), rs);
        let err = parse_reviews(&format!("{text}{{\"trial\": 3}}\n")).expect_err("bad");
        assert_eq!(err.line, 4);
        assert!(err.to_string().contains("line 4"), "{err}");
        let err = parse_reviews(r#"{"trial":"a","phase":"done","value":null}"#).expect_err("done");
        assert!(err.message.contains("solve"), "{err}");
    }

    #[test]
    fn the_last_review_is_in_force_and_sure_readings_count_only_from_the_sample() {
        let cell = |r, c| Extracted::Cell(Pos::new(r, c));
        let rs = vec![
            review("t", Phase::Solve, 0, cell(0, 1), true),
            review("t", Phase::Solve, 0, cell(1, 0), true), // changed mind
            review("t", Phase::Solve, 1, cell(2, 0), true),
            review("t", Phase::Solve, 2, cell(3, 0), false), // sure, not sampled: left out
            review("t", Phase::Solve, 3, cell(3, 1), false), // unsure: counted
            review("t", Phase::Solve, 4, cell(0, 0), true),  // unsure and sampled: counted
            review("u", Phase::Solve, 0, cell(0, 1), true),  // not in the run
        ];
        let read = |k: &ReplyKey| match (k.0.as_str(), k.2) {
            ("t", 0) => Some((cell(1, 0), true)),
            ("t", 1) => Some((cell(2, 1), true)),
            ("t", 2) => Some((cell(0, 0), true)),
            ("t", 3) => Some((cell(3, 1), false)),
            ("t", 4) => Some((cell(4, 4), false)),
            _ => None,
        };
        let a = agreement(&rs, read);
        assert_eq!(a.len(), 2, "sure and unsure apart: {a:?}");
        assert!(a[0].sure && !a[1].sure, "sure first");
        assert_eq!((a[0].agreement.successes, a[0].agreement.n), (1, 2));
        assert_eq!((a[1].agreement.successes, a[1].agreement.n), (1, 2));
        assert!(
            a[0].sentence().starts_with(
                "of 2 sure readings of moves reviewed in the random sample, 1 read right (50.0%"
            ),
            "{}",
            a[0].sentence()
        );
        assert!(
            a[1].sentence()
                .starts_with("of 2 unsure readings of moves reviewed, 1 read right"),
            "{}",
            a[1].sentence()
        );
    }

    #[test]
    fn a_reviewed_value_becomes_a_reply_the_readers_read_as_that_value() {
        use crate::results::rescore::reply_for;
        use crate::verify::{read_move, recognize};
        assert_eq!(
            read_move(&reply_for(
                &Extracted::Cell(Pos::new(2, 3)),
                Encoding::Matrix
            )),
            Some(Pos::new(2, 3))
        );
        assert_eq!(
            read_move(&reply_for(&Extracted::Nothing, Encoding::Matrix)),
            None
        );
        assert_eq!(
            recognize(&reply_for(&Extracted::Shape(Shape::Z), Encoding::Matrix)),
            Some(Shape::Z)
        );
    }

    /// A model's trial on the square of the tests: a first move read unsure (two bare
    /// cells), a second reply with no move, a plain shape and no maze.
    fn hedged_record(kind: PlayerKind) -> TrialRecord {
        use crate::maze::templates::TemplateLibrary;
        use crate::play::trial::{Trial, TrialSetup};
        use crate::results::record::PlayerInfo;
        use std::sync::Arc;
        let (maze, next) = crate::analysis::test_support::square_and_a_step();
        let lib = Arc::new(TemplateLibrary::for_shape(5, Shape::Square));
        let setup = TrialSetup::new(Shape::Square, Encoding::Matrix, maze);
        let mut t = Trial::new(setup, lib);
        // Two bare cells: the last is read, unsure. (Not "(9, 9) and then ...": a cell
        // after "then" is a later step of a route.)
        t.submit(&format!("Looking at (9, 9) and {next}."));
        t.submit("no idea"); // no move: the phase ends
        t.submit("A square.");
        t.submit("No maze from me.");
        let info = PlayerInfo {
            model: if built_in(kind) {
                kind.name().into()
            } else {
                "hedger".into()
            },
            ..PlayerInfo::builtin(kind)
        };
        TrialRecord::of(&t, info, Default::default(), None, None)
    }

    #[test]
    fn the_queue_lists_unsure_readings_first_then_flagged_ones_then_the_sample_of_sure_ones() {
        let (maze, next) = crate::analysis::test_support::square_and_a_step();
        let records = vec![hedged_record(PlayerKind::Endpoint)];
        let q = queue(&records, None);
        assert_eq!(q.len(), 1, "{q:?}");
        assert_eq!(
            (q[0].phase, q[0].step, q[0].reasons.clone()),
            (Phase::Solve, 0, vec![Why::Unsure])
        );
        assert!(!q[0].sure);
        assert_eq!(q[0].reading.value, Extracted::Cell(next));
        assert_eq!(q[0].maze.as_ref(), Some(maze.grid()));
        assert!(q[0].trial.ends_with("/0.txt"), "{}", q[0].trial);
        // The sample draws sure readings only: the second move's (no move, sure), never the
        // unsure first one, which stays first, once.
        let solve = |size| Sample {
            phase: Some(Phase::Solve),
            size,
            seed: 1,
        };
        let q = queue(&records, Some(solve(5)));
        assert_eq!(
            q.iter()
                .map(|i| (i.step, i.reasons.clone()))
                .collect::<Vec<_>>(),
            vec![(0, vec![Why::Unsure]), (1, vec![Why::Sampled])]
        );
        // Every phase: a sure reading of each phase, after the unsure one.
        let every = Sample {
            phase: None,
            size: 5,
            seed: 1,
        };
        let q = queue(&records, Some(every));
        assert_eq!(
            q.iter().map(|i| (i.phase, i.sampled())).collect::<Vec<_>>(),
            vec![
                (Phase::Solve, false),
                (Phase::Solve, true),
                (Phase::Recognize, true),
                (Phase::Generate, true)
            ]
        );
        // A reply flagged for two reasons shows both; flagged ones stand before the sample,
        // and a flagged reply that is also drawn keeps both.
        let all = all_replies(&records);
        let shape_key = (q[0].trial.clone(), Phase::Recognize, 0);
        let mut flags = Flags::new();
        flag(&mut flags, shape_key.clone(), Why::SecondReader);
        flag(&mut flags, shape_key.clone(), Why::ReadersDiffer);
        flag(&mut flags, shape_key.clone(), Why::SecondReader);
        let q = queue_of(&all, &flags, Some(every));
        let order: Vec<(Phase, Vec<Why>)> =
            q.iter().map(|i| (i.phase, i.reasons.clone())).collect();
        assert_eq!(
            order,
            vec![
                (Phase::Solve, vec![Why::Unsure]),
                (
                    Phase::Recognize,
                    vec![Why::ReadersDiffer, Why::SecondReader, Why::Sampled]
                ),
                (Phase::Solve, vec![Why::Sampled]),
                (Phase::Generate, vec![Why::Sampled]),
            ]
        );
        assert!(q[1].sampled());
        assert_eq!(
            Why::SecondReader.describe(),
            "the second reader reads it otherwise"
        );
        assert_eq!(
            Why::ALL.map(Why::name),
            [
                "unsure",
                "readers_differ",
                "second_reader",
                "transcription",
                "sampled"
            ]
        );
    }

    #[test]
    fn the_built_in_players_replies_are_never_queued_sampled_or_counted() {
        for kind in [PlayerKind::Oracle, PlayerKind::Random] {
            let records = vec![hedged_record(kind)];
            assert!(all_replies(&records).is_empty(), "{kind:?}");
            let every = Sample {
                phase: None,
                size: 5,
                seed: 1,
            };
            assert!(queue(&records, Some(every)).is_empty(), "{kind:?}");
        }
        assert!(built_in_name("oracle") && built_in_name("Random"));
        assert!(!built_in_name("qwen") && !built_in_name("human"));
        let mixed = vec![
            hedged_record(PlayerKind::Oracle),
            hedged_record(PlayerKind::Endpoint),
        ];
        assert!(all_replies(&mixed).iter().all(|q| q.record == 1));
    }

    #[test]
    fn a_maze_reply_offers_each_of_its_drafts_and_a_written_maze_is_read_or_refused() {
        let (maze, _) = crate::analysis::test_support::square_and_a_step();
        let first = Encoding::Matrix.render(maze.grid());
        let moved = maze
            .with_player_at(crate::analysis::test_support::square_and_a_step().1)
            .grid()
            .clone();
        let second = Encoding::Matrix.render(&moved);
        let reply =
            format!("A first try:\n\n{first}\n\nNo wait, P moves:\n```\n{second}\n```\nDone.");
        let item = QueueItem {
            trial: "t".into(),
            record: 0,
            phase: Phase::Generate,
            step: 0,
            reply,
            reading: Reading {
                value: Extracted::Nothing,
                rule: crate::verify::Rule::NoAnswer,
                span: None,
                doubt: None,
            },
            sure: true,
            maze: Some(maze.grid().clone()),
            encoding: Encoding::Matrix,
            symbols: Symbols::STANDARD,
            reasons: Vec::new(),
        };
        assert_eq!(drafts(&item), vec![maze.grid().clone(), moved.clone()]);
        assert_eq!(edited_maze(&item, &second), Ok(moved));
        let refused = edited_maze(&item, "not a maze").expect_err("no maze");
        assert!(
            refused.starts_with("That is not a maze in the "),
            "{refused}"
        );
    }

    #[test]
    fn the_rates_as_reviewed_replay_the_reviewed_replies_one_row_per_model() {
        use crate::play::player::{play_ready, tests::trials, Oracle};
        use crate::play::trial::Protocol;
        use crate::results::record::PlayerInfo;
        let mut t = trials(Protocol::Stepwise).remove(0);
        play_ready(&mut t, &mut Oracle);
        let record = TrialRecord::of(
            &t,
            PlayerInfo::builtin(PlayerKind::Oracle),
            Default::default(),
            None,
            None,
        );
        let trial = ExportPath::of_record(&record).render();
        let records = vec![record, hedged_record(PlayerKind::Endpoint)];
        let none = rates_as_reviewed(&records, &[]);
        assert_eq!(
            none.iter().map(|r| r.model.as_str()).collect::<Vec<_>>(),
            ["hedger", "oracle"],
            "a row per player, none pooled"
        );
        let oracle = &none[1];
        assert_eq!(oracle.read, oracle.reviewed);
        assert_eq!(oracle.read.map(|c| (c.success, c.scored())), [(1, 1); 3]);
        // A reviewer reads no shape in the oracle's recognition: it fails as reviewed.
        let reviews = vec![review(
            &trial,
            Phase::Recognize,
            0,
            Extracted::Nothing,
            false,
        )];
        let r = &rates_as_reviewed(&records, &reviews)[1];
        assert_eq!((r.read[1].success, r.reviewed[1].success), (1, 0));
        assert_eq!(r.read[0], r.reviewed[0]);
    }

    #[test]
    fn a_move_corrected_to_a_valid_one_in_a_phase_it_had_ended_leaves_the_phase_without_outcome() {
        // The hedger's second reply gave no move, which ended the solve: read as a valid
        // move, the phase goes on past the replies recorded, so it has no outcome.
        let record = hedged_record(PlayerKind::Endpoint);
        assert_eq!(
            record.verdicts.solve.as_ref().map(|v| v.outcome),
            Some(crate::verify::Outcome::Fail)
        );
        let trial = ExportPath::of_record(&record).render();
        let (maze, next) = crate::analysis::test_support::square_and_a_step();
        let back = maze.player();
        let reviews = vec![review(
            &trial,
            Phase::Solve,
            1,
            Extracted::Cell(back),
            false,
        )];
        assert_ne!(back, next);
        let r = &rates_as_reviewed(&[record], &reviews)[0];
        assert_eq!((r.read[0].fail, r.read[0].unscored), (1, 0));
        assert_eq!(
            (r.reviewed[0].scored(), r.reviewed[0].unscored),
            (0, 1),
            "no outcome as reviewed, counted apart"
        );
        assert_eq!(r.read[1], r.reviewed[1], "the later phases as read");
    }

    #[test]
    fn a_seeded_sample_is_the_same_every_time_and_never_larger_than_asked() {
        let keys: Vec<ReplyKey> = (0..50)
            .map(|i| (format!("t{i}"), Phase::Solve, 0))
            .collect();
        let a = sample(&keys, 10, 7);
        assert_eq!(a.len(), 10);
        assert_eq!(a, sample(&keys, 10, 7));
        assert_ne!(a, sample(&keys, 10, 8));
        let mut shuffled = keys.clone();
        shuffled.reverse();
        assert_eq!(
            a,
            sample(&shuffled, 10, 7),
            "the order given does not matter"
        );
        assert_eq!(sample(&keys[..3], 10, 7).len(), 3);
    }
}
