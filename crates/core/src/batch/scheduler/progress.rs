//! The scheduler's progress: what a finished trial counts for ([`TrialSummary`]), the
//! tallies overall and per player ([`Scheduler::progress`]), and the time left at the
//! recent throughput.

use super::{RunState, Scheduler, Slot};
use crate::batch::design::TrialKey;
use crate::results::record::TrialRecord;
use crate::verify::Outcome;
use serde::Serialize;
use std::collections::VecDeque;

/// What a finished trial counts for, kept for progress (and rebuilt from stored records on
/// resume with [`TrialSummary::of`]).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TrialSummary {
    /// The trial's id ([`TrialKey::id`]).
    pub id: String,
    /// The three phases' outcomes (`None` when not reached).
    pub outcomes: [Option<Outcome>; 3],
    /// The API error's kind when the trial ended as one.
    pub api_error: Option<String>,
    /// Tokens used (the replies' total tokens, else prompt + completion).
    pub tokens: u64,
}

impl TrialSummary {
    /// The summary of a stored record.
    pub fn of(record: &TrialRecord) -> TrialSummary {
        let tokens = record
            .messages
            .iter()
            .map(|m| {
                m.meta.total_tokens.unwrap_or(
                    m.meta.prompt_tokens.unwrap_or(0) + m.meta.completion_tokens.unwrap_or(0),
                )
            })
            .sum();
        TrialSummary {
            id: TrialKey::of_record(record).id(),
            outcomes: record.verdicts.all().map(|v| v.map(|v| v.outcome)),
            api_error: record.api_error.as_ref().map(|e| e.kind.clone()),
            tokens,
        }
    }
}

/// Counts for a set of trials (all of them, or one player's).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Tally {
    /// Trials in the design.
    pub total: usize,
    /// Trials finished (API errors included).
    pub done: usize,
    /// Trials in flight.
    pub in_flight: usize,
    /// Successes so far per phase: solve, recognize, generate.
    pub successes: [usize; 3],
    /// Trials that ended as API errors (not judged; [`Scheduler::requeue_errors`]).
    pub api_errors: usize,
    /// Tokens used by the finished trials.
    pub tokens: u64,
    /// Estimated milliseconds of running time left, from the recent throughput (`None`
    /// before the first trial of this session finishes, `Some(0)` when done).
    pub eta_ms: Option<f64>,
}

/// One player's tally.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlayerProgress {
    /// The player's name.
    pub player: String,
    /// Its counts.
    pub tally: Tally,
}

/// The progress bar's numbers.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Progress {
    /// Running, paused or cancelled.
    pub state: RunState,
    /// Every trial.
    pub overall: Tally,
    /// Per player, in the design's order.
    pub players: Vec<PlayerProgress>,
    /// Milliseconds spent running in this session (pauses not counted).
    pub elapsed_ms: f64,
}

impl Scheduler {
    /// The progress bar's numbers, overall and per player.
    pub fn progress(&self, now_ms: f64) -> Progress {
        let elapsed = self.active_now(now_ms);
        let mut overall = Tally::default();
        let mut per_lane = vec![Tally::default(); self.lanes.len()];
        for (i, slot) in self.slots.iter().enumerate() {
            let lane = &mut per_lane[self.lane_of[i]];
            for t in [&mut overall, lane] {
                t.total += 1;
                match slot {
                    Slot::Queued => {}
                    Slot::Running { .. } => t.in_flight += 1,
                    Slot::Done(s) => {
                        t.done += 1;
                        t.tokens += s.tokens;
                        if s.api_error.is_some() {
                            t.api_errors += 1;
                        }
                        for (n, o) in t.successes.iter_mut().zip(s.outcomes) {
                            *n += usize::from(o == Some(Outcome::Success));
                        }
                    }
                }
            }
        }
        for (t, &n) in per_lane.iter_mut().zip(&self.planned) {
            t.total += n;
            overall.total += n;
        }
        let window = self.tuning.eta_window.max(1);
        overall.eta_ms = eta(&overall, &self.completions, elapsed, window);
        let players = per_lane
            .into_iter()
            .enumerate()
            .map(|(l, mut tally)| {
                tally.eta_ms = eta(&tally, &self.lane_completions[l], elapsed, window);
                PlayerProgress {
                    player: self.lanes[l].config.name.clone(),
                    tally,
                }
            })
            .collect();
        Progress {
            state: self.state,
            overall,
            players,
            elapsed_ms: elapsed,
        }
    }

    /// Stamps a completion on lane `l` at the active time `now_ms` gives, overall and for
    /// the lane, keeping only what the ETA's window needs.
    pub(super) fn stamp_completion(&mut self, l: usize, now_ms: f64) {
        let stamp = self.active_now(now_ms);
        let keep = self.tuning.eta_window.max(1) + 1;
        push_capped(&mut self.completions, stamp, keep);
        push_capped(&mut self.lane_completions[l], stamp, keep);
    }
}

/// Appends `t`, dropping the oldest beyond `cap`.
fn push_capped(q: &mut VecDeque<f64>, t: f64, cap: usize) {
    q.push_back(t);
    while q.len() > cap {
        q.pop_front();
    }
}

/// The time left at the recent throughput: over the last `window` completions once there
/// are that many (trials in flight side by side finish in bursts, so a few stamps close
/// together would promise far too much), else over the whole active time so far.
fn eta(t: &Tally, stamps: &VecDeque<f64>, elapsed: f64, window: usize) -> Option<f64> {
    let left = t.total - t.done;
    if left == 0 {
        return Some(0.0);
    }
    let (&first, &last) = (stamps.front()?, stamps.back()?);
    let (n, span) = if stamps.len() > window && last > first {
        ((stamps.len() - 1) as f64, last - first)
    } else {
        (stamps.len() as f64, elapsed.max(last))
    };
    (span > 0.0).then(|| left as f64 * span / n)
}
