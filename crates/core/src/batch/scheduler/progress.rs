//! The scheduler's progress: what a finished trial counts for ([`TrialSummary`]), the
//! tallies overall and per player ([`super::Scheduler::progress`]), and the time left at the
//! recent throughput.

use crate::batch::design::TrialKey;
use crate::results::record::TrialRecord;
use crate::verify::Outcome;
use serde::Serialize;

/// Whether the run goes on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RunState {
    /// Trials start as lanes allow.
    Running,
    /// No new starts; trials in flight may finish.
    Paused,
    /// No new starts; the trials that were in flight were requeued.
    Cancelled,
}

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
    /// Replies asked for a form (an answer mode other than `free`), and of them those
    /// whose form the endpoint did not hold (read by the free readers instead).
    pub forms: FormsHeld,
}

/// Replies asked for a form, and those whose form was not held
/// ([`crate::results::forms::FormCounts`]), summed over the phases.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct FormsHeld {
    /// Replies asked for a form.
    pub replies: usize,
    /// Of them, not held.
    pub not_held: usize,
}

impl FormsHeld {
    /// A record's: nothing for a trial of the design's free text.
    pub fn of(record: &TrialRecord) -> FormsHeld {
        crate::results::forms::FormCounts::of(record).map_or_else(FormsHeld::default, |c| {
            FormsHeld {
                replies: c.replies.iter().sum(),
                not_held: c.not_held.iter().sum(),
            }
        })
    }

    /// Both counts added to.
    pub fn add(&mut self, other: FormsHeld) {
        self.replies += other.replies;
        self.not_held += other.not_held;
    }

    /// The run's summary of them: a sentence when some form was not held, else `None`.
    pub fn sentence(&self) -> Option<String> {
        (self.not_held > 0).then(|| {
            format!(
                "{} of {} replies asked for a form were not held by the endpoint (it answered without the form): each was read by the free readers instead and is counted apart (forms_not_held in trials.csv, the results' part Answer modes).",
                self.not_held, self.replies
            )
        })
    }
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
            forms: FormsHeld::of(record),
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
    /// Trials that ended as API errors (not judged; [`super::Scheduler::requeue_errors`]).
    pub api_errors: usize,
    /// Tokens used by the finished trials.
    pub tokens: u64,
    /// The finished trials' replies asked for a form, and those not held.
    pub forms: FormsHeld,
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
