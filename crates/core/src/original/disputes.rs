//! Which replies the original-compatible reading reads otherwise than today's reader, for
//! the review queue ([`crate::analysis::review::queue_of`]): a move whose last `(r, c)` (what
//! the design's own check takes) is not the cell read; a shape the original word search
//! finds, or misses, where the reader's verdict says the opposite; a maze the original
//! template check accepts, or refuses, against the reader's verdict. Such a reply is a
//! disputed reading: one of the two is wrong about what the model said.

use super::checks::{last_coordinate, original_generation, original_mentions};
use super::score::AuditCache;
use crate::analysis::review::{QueueItem, ReplyKey};
use crate::maze::grid::Pos;
use crate::play::phase::Phase;
use crate::results::record::TrialRecord;
use crate::verify::{Extracted, Outcome};
use std::collections::BTreeMap;

/// The replies of `all` (read from `records` by [`crate::analysis::review::all_replies`])
/// whose original-compatible reading differs from the reader's, each with that reading in
/// words (`(4, 0)`, `no move`, `the word "square" found: success`), to flag as
/// [`crate::analysis::review::Why::ReadersDiffer`].
pub fn readers_differ(records: &[TrialRecord], all: &[QueueItem]) -> BTreeMap<ReplyKey, String> {
    // The original families, built once per shape and size (the audit's own cache).
    let mut cache = AuditCache::new();
    let mut out = BTreeMap::new();
    for q in all {
        let Some(record) = records.get(q.record) else {
            continue;
        };
        let differs = match q.phase {
            Phase::Solve => {
                let cell = original_cell(&q.reply);
                (cell.as_ref() != Some(&q.reading.value)).then(|| match cell {
                    Some(Extracted::Cell(p)) => p.to_string(),
                    Some(_) => "no move".into(),
                    None => "a cell outside the grid".into(),
                })
            }
            Phase::Recognize => {
                let read = q.reading.value == Extracted::Shape(record.shape);
                let found = original_mentions(record.shape, &q.reply);
                (read == found.is_empty()).then(|| match found.first() {
                    Some((_, word)) => format!("the word \"{word}\" found: success"),
                    None => format!("no word for the {} found: failure", record.shape.name()),
                })
            }
            Phase::Generate | Phase::Done => {
                let Ok(first) = record.first_maze() else {
                    continue;
                };
                let after = match record.path.last() {
                    Some(&at) => first.with_player_at(at),
                    None => first,
                };
                let grid = after.grid();
                let family = cache.family(record.shape, grid.rows(), grid.cols());
                let read = record.verdicts.all()[2].is_some_and(|v| v.outcome == Outcome::Success);
                let accepted = original_generation(&family, grid, record.encoding, &q.reply);
                (read != accepted).then(|| {
                    if accepted {
                        "a template of the shape found verbatim: success".to_string()
                    } else {
                        "no template of the shape found verbatim: failure".to_string()
                    }
                })
            }
        };
        if let Some(original) = differs {
            out.insert(q.key(), original);
        }
    }
    out
}

/// The cell the original move check reads in a reply (its last `(r, c)`), as the reader's
/// values are written; `None` for a negative coordinate, a cell no grid has (which no
/// reading equals).
fn original_cell(reply: &str) -> Option<Extracted> {
    match last_coordinate(reply) {
        None => Some(Extracted::Nothing),
        Some((r, c)) => Some(Extracted::Cell(Pos::new(
            usize::try_from(r).ok()?,
            usize::try_from(c).ok()?,
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::review::all_replies;
    use crate::maze::encoding::Encoding;
    use crate::maze::shape::Shape;
    use crate::maze::templates::TemplateLibrary;
    use crate::play::player::{play_ready, tests::trials, Oracle, PlayerKind};
    use crate::play::trial::{Protocol, Trial, TrialSetup};
    use crate::results::record::PlayerInfo;
    use std::sync::Arc;

    /// A record of a scripted player's trial (the built-in players' replies are never
    /// queued, so not the oracle's).
    fn record_of(t: &Trial) -> TrialRecord {
        TrialRecord::of(
            t,
            PlayerInfo::builtin(PlayerKind::Scripted),
            Default::default(),
            None,
            None,
        )
    }

    #[test]
    fn a_plain_run_has_no_dispute() {
        let mut t = trials(Protocol::Stepwise).remove(0);
        play_ready(&mut t, &mut Oracle);
        let records = vec![record_of(&t)];
        assert!(readers_differ(&records, &all_replies(&records)).is_empty());
    }

    #[test]
    fn a_move_or_a_shape_the_original_reads_otherwise_is_disputed() {
        let (maze, next) = crate::analysis::test_support::square_and_a_step();
        let lib = Arc::new(TemplateLibrary::for_shape(5, Shape::Square));
        let mut t = Trial::new(TrialSetup::new(Shape::Square, Encoding::Matrix, maze), lib);
        // The answer is labelled; the cell named after it (the original's last) is not it.
        t.submit(&format!("Move: {next}. That keeps me away from (4, 0)."));
        t.submit("no idea"); // no move: the phase ends, and both read none
                             // The reader reads the C the reply settles on; the original finds "square".
        t.submit("Square? No. Shape: C");
        t.submit("No maze from me.");
        let records = vec![record_of(&t)];
        let all = all_replies(&records);
        let flagged = readers_differ(&records, &all);
        let keys: Vec<(Phase, usize)> = flagged.keys().map(|k| (k.1, k.2)).collect();
        assert_eq!(
            keys,
            vec![(Phase::Solve, 0), (Phase::Recognize, 0)],
            "{flagged:?}"
        );
        assert_eq!(flagged.values().next().map(String::as_str), Some("(4, 0)"));
        assert_eq!(
            flagged.values().nth(1).map(String::as_str),
            Some("the word \"square\" found: success")
        );
    }
}
