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
//! an earlier one. A review made on a seeded random sample of the replies (`sampled`) is an
//! unbiased draw: only those enter the agreement figure ([`agreement`]); reviews of the
//! queue's uncertain readings correct the scores but would bias the figure.

use crate::analysis::stats::{wilson, Proportion};
use crate::maze::grid::Grid;
use crate::play::trial::Phase;
use crate::results::layout::ExportPath;
use crate::results::record::TrialRecord;
use crate::results::rescore::{replies_read, Hints};
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

/// How often the reader agrees with people on one phase's sampled replies.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Agreement {
    /// The phase.
    pub phase: Phase,
    /// The sampled replies reviewed, the reader agreeing on `successes`, with the Wilson
    /// interval of the rate.
    #[serde(flatten)]
    pub agreement: Proportion,
}

impl Agreement {
    /// The sentence a report prints: "the reader agrees with review on 97 of 100 sampled
    /// moves (97.0%, 91.5-99.0%)".
    pub fn sentence(&self) -> String {
        let what = match self.phase {
            Phase::Solve => "moves",
            Phase::Recognize => "shapes",
            _ => "mazes",
        };
        let p = &self.agreement;
        format!(
            "the reader agrees with review on {} of {} sampled {what} ({:.1}%, {:.1}-{:.1}%)",
            p.successes,
            p.n,
            100.0 * p.rate,
            100.0 * p.ci_low,
            100.0 * p.ci_high
        )
    }
}

/// The reader's agreement with the sampled reviews, per phase (phases with no sampled
/// review are left out): `read` gives what the reader read in a reply (`None` when the
/// reply is not in the run, and the review is then not counted).
pub fn agreement(
    reviews: &[Review],
    read: impl Fn(&ReplyKey) -> Option<Extracted>,
) -> Vec<Agreement> {
    let mut counts: BTreeMap<Phase, (usize, usize)> = BTreeMap::new();
    for (key, review) in latest(reviews) {
        if !review.sampled {
            continue;
        }
        let Some(value) = read(&key) else { continue };
        let c = counts.entry(Phase::at(key.1.index())).or_default();
        c.1 += 1;
        if value == review.value {
            c.0 += 1;
        }
    }
    counts
        .into_iter()
        .map(|(phase, (agree, n))| Agreement {
            phase,
            agreement: wilson(agree, n),
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

/// Why a reply is in the review queue.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Why {
    /// The reading is not sure ([`crate::verify::Reading::sure`]: a fall-back, or
    /// something in the reply competes with it).
    FallBack,
    /// The original-compatible reading (the design's own checks) differs from the
    /// reader's: another cell, or another verdict on the shape or the maze.
    ReadersDiffer,
    /// The second reader (a chat model) read it otherwise.
    SecondReader,
    /// Drawn in the seeded random sample (its review counts towards the agreement).
    Sampled,
}

impl Why {
    /// Why, in the words the queue shows.
    pub fn describe(self) -> &'static str {
        match self {
            Why::FallBack => "read by a fall-back rule",
            Why::ReadersDiffer => "the original-compatible reading differs",
            Why::SecondReader => "the second reader reads it otherwise",
            Why::Sampled => "drawn in the random sample",
        }
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
    /// The maze as the model saw it when it replied (the player where it stood then).
    pub maze: Option<Grid>,
    /// Why it is in the queue.
    pub why: Why,
}

impl QueueItem {
    /// The reply it reads.
    pub fn key(&self) -> ReplyKey {
        (self.trial.clone(), self.phase, self.step)
    }
}

/// Every reply of `records` with what its reader reads, in order: read once, then handed
/// to [`queue_of`] and [`readings_of`] (a page reads every reply once, not once each).
pub fn all_replies(records: &[TrialRecord]) -> Vec<QueueItem> {
    let mut out = Vec::new();
    for (i, record) in records.iter().enumerate() {
        let Some(text) = record.transcript() else {
            continue;
        };
        let trial = ExportPath::of_record(record).render();
        let hints = Hints::from(record);
        let first = record.first_maze().ok();
        for read in replies_read(&text, &hints) {
            let phase = read.phase;
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
                reply: read.reply,
                reading: read.reading,
                maze,
                why: Why::FallBack,
            });
        }
    }
    out
}

/// What the readers read in every reply of `records`, by reply (the agreement's side of
/// the reader).
pub fn readings(records: &[TrialRecord]) -> BTreeMap<ReplyKey, Extracted> {
    readings_of(&all_replies(records))
}

/// [`readings`] of replies already read ([`all_replies`]).
pub fn readings_of(all: &[QueueItem]) -> BTreeMap<ReplyKey, Extracted> {
    all.iter()
        .map(|q| (q.key(), q.reading.value.clone()))
        .collect()
}

/// One phase's successes as read and as reviewed, over the records' finished trials.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ReviewedRate {
    /// Phases scored (API errors aside).
    pub n: usize,
    /// Successes as the readers read the replies.
    pub read: usize,
    /// Successes with every reviewed reading in place of the reader's.
    pub reviewed: usize,
}

/// Each phase's rate as read and as reviewed (solve, recognize, generate). As read is the
/// records' own verdicts, as the page's analysis counts them; a record with reviews is
/// replayed with its reviewed replies in place (as `shapemaze score --reviews` does) and
/// only it, so a review costs one replay; the others count the same both ways.
pub fn rates_as_reviewed(records: &[TrialRecord], reviews: &[Review]) -> [ReviewedRate; 3] {
    use crate::results::rescore::{rescore_reviewed, Libraries, Reviewed};
    use crate::verify::Outcome;
    let mut by_trial: BTreeMap<&str, Vec<Reviewed>> = BTreeMap::new();
    for ((_, phase, step), r) in latest(reviews) {
        by_trial.entry(r.trial.as_str()).or_default().push((
            Phase::at(phase.index()),
            step,
            r.value.clone(),
        ));
    }
    let mut libraries = Libraries::new();
    let mut out = [ReviewedRate::default(); 3];
    for record in records {
        let read = record.verdicts.all().map(|v| v.map(|v| v.outcome));
        let mine = by_trial.get(ExportPath::of_record(record).render().as_str());
        let reviewed = match (mine, record.transcript()) {
            (Some(mine), Some(text)) => {
                rescore_reviewed(&text, &Hints::from(record), &mut libraries, mine)
                    .phases
                    .map(|p| p.recomputed)
            }
            _ => read,
        };
        for (i, rate) in out.iter_mut().enumerate() {
            if matches!(read[i], Some(Outcome::Success | Outcome::Fail)) {
                rate.n += 1;
                rate.read += usize::from(read[i] == Some(Outcome::Success));
                rate.reviewed += usize::from(reviewed[i] == Some(Outcome::Success));
            }
        }
    }
    out
}

/// The review queue of `records`: every reply a fall-back rule read, then, when `sample`
/// names a phase, a size and a seed, that many replies of the phase drawn at random
/// (seeded, so the same records give the same draw) and not already listed. A reply is
/// listed once.
pub fn queue(records: &[TrialRecord], sample: Option<(Phase, usize, u64)>) -> Vec<QueueItem> {
    queue_of(&all_replies(records), &BTreeMap::new(), sample)
}

/// [`queue`] of replies already read ([`all_replies`]), with the replies `flagged` for
/// another reason (the readers differ, the second reader reads otherwise) listed too, in
/// the replies' order. A reply is listed once, for the strongest reason: drawn in the
/// sample (its review counts towards the agreement), else flagged, else a fall-back.
pub fn queue_of(
    all: &[QueueItem],
    flagged: &BTreeMap<ReplyKey, Why>,
    sample: Option<(Phase, usize, u64)>,
) -> Vec<QueueItem> {
    let mut out: Vec<QueueItem> = all
        .iter()
        .filter_map(|q| {
            let why = match flagged.get(&q.key()) {
                Some(&why) => why,
                None if !q.reading.sure() => Why::FallBack,
                None => return None,
            };
            Some(QueueItem { why, ..q.clone() })
        })
        .collect();
    if let Some((phase, n, seed)) = sample {
        let keys: Vec<ReplyKey> = all
            .iter()
            .filter(|q| q.phase == phase)
            .map(QueueItem::key)
            .collect();
        for key in self::sample(&keys, n, seed) {
            if let Some(item) = all.iter().find(|q| q.key() == key) {
                // A sampled reply stays in the sample even when it is also listed.
                out.retain(|q| q.key() != key);
                out.push(QueueItem {
                    why: Why::Sampled,
                    ..item.clone()
                });
            }
        }
    }
    out
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
    fn the_last_review_of_a_reply_is_in_force_and_only_sampled_ones_count() {
        let cell = |r, c| Extracted::Cell(Pos::new(r, c));
        let rs = vec![
            review("t", Phase::Solve, 0, cell(0, 1), true),
            review("t", Phase::Solve, 0, cell(1, 0), true), // changed mind
            review("t", Phase::Solve, 1, cell(2, 0), true),
            review("t", Phase::Solve, 2, cell(3, 0), false), // the queue's, not sampled
            review("u", Phase::Solve, 0, cell(0, 1), true),  // not in the run
        ];
        let read = |k: &ReplyKey| match (k.0.as_str(), k.2) {
            ("t", 0) => Some(cell(1, 0)),
            ("t", 1) => Some(cell(2, 1)),
            ("t", 2) => Some(cell(0, 0)),
            _ => None,
        };
        let a = agreement(&rs, read);
        assert_eq!(a.len(), 1);
        assert_eq!((a[0].agreement.successes, a[0].agreement.n), (1, 2));
        assert!(a[0]
            .sentence()
            .starts_with("the reader agrees with review on 1 of 2 sampled moves"));
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

    #[test]
    fn the_queue_holds_fall_back_readings_and_the_seeded_sample_of_a_phase() {
        use crate::maze::templates::TemplateLibrary;
        use crate::play::player::PlayerKind;
        use crate::play::trial::{Trial, TrialSetup};
        use crate::results::record::PlayerInfo;
        use std::sync::Arc;
        let (maze, next) = crate::analysis::test_support::square_and_a_step();
        let lib = Arc::new(TemplateLibrary::for_shape(5, Shape::Square));
        let setup = TrialSetup::new(Shape::Square, Encoding::Matrix, maze.clone());
        let mut t = Trial::new(setup, lib);
        // Two bare cells: the last is read, by a fall-back. (Not "(9, 9) and then ...":
        // a cell after "then" is a later step of a route.)
        t.submit(&format!("Looking at (9, 9) and {next}."));
        t.submit("no idea"); // no move: the phase ends
        t.submit("A square.");
        t.submit("No maze from me.");
        let record = TrialRecord::of(
            &t,
            PlayerInfo::builtin(PlayerKind::Oracle),
            Default::default(),
            None,
            None,
        );
        let records = vec![record];
        let q = queue(&records, None);
        assert_eq!(q.len(), 1, "{q:?}");
        assert_eq!(
            (q[0].phase, q[0].step, q[0].why),
            (Phase::Solve, 0, Why::FallBack)
        );
        assert_eq!(q[0].reading.value, Extracted::Cell(next));
        assert_eq!(q[0].reading.rule, crate::verify::Rule::LastCoordinate);
        assert_eq!(q[0].maze.as_ref(), Some(maze.grid()));
        assert!(q[0].trial.ends_with("/0.txt"), "{}", q[0].trial);
        // Sampling the solve phase takes both moves, the fall-back among them, once each.
        let q = queue(&records, Some((Phase::Solve, 5, 1)));
        assert_eq!(q.len(), 2, "{q:?}");
        assert!(q.iter().all(|i| i.why == Why::Sampled));
        let q = queue(&records, Some((Phase::Recognize, 5, 1)));
        assert_eq!(q.len(), 2, "the fall-back and the one recognition reply");
        assert_eq!((q[1].phase, q[1].why), (Phase::Recognize, Why::Sampled));
        assert_eq!(q[1].reading.value, Extracted::Shape(Shape::Square));
        // A reply flagged for another reason joins the queue with it; the sample still wins.
        let all = all_replies(&records);
        let shape_key = (q[1].trial.clone(), Phase::Recognize, 0);
        let flagged = BTreeMap::from([(shape_key.clone(), Why::SecondReader)]);
        let q = queue_of(&all, &flagged, None);
        assert_eq!(
            q.iter().map(|i| (i.phase, i.why)).collect::<Vec<_>>(),
            vec![
                (Phase::Solve, Why::FallBack),
                (Phase::Recognize, Why::SecondReader)
            ]
        );
        let q = queue_of(&all, &flagged, Some((Phase::Recognize, 1, 1)));
        assert_eq!(q.len(), 2);
        assert_eq!((q[1].key(), q[1].why), (shape_key, Why::Sampled));
        assert_eq!(
            Why::SecondReader.describe(),
            "the second reader reads it otherwise"
        );
    }

    #[test]
    fn the_rates_as_reviewed_replay_the_reviewed_replies() {
        use crate::play::player::{play_ready, tests::trials, Oracle, PlayerKind};
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
        let records = vec![record];
        let none = rates_as_reviewed(&records, &[]);
        assert_eq!(none.map(|r| (r.n, r.read, r.reviewed)), [(1, 1, 1); 3]);
        // A reviewer reads no shape in the oracle's recognition: it fails as reviewed.
        let reviews = vec![review(
            &trial,
            Phase::Recognize,
            0,
            Extracted::Nothing,
            false,
        )];
        let r = rates_as_reviewed(&records, &reviews);
        assert_eq!((r[1].read, r[1].reviewed), (1, 0));
        assert_eq!((r[0].read, r[0].reviewed), (1, 1));
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
