//! The scheduler's lanes: one per endpoint, each with its queue of waiting trials, its
//! learned concurrency (stepped down on a 429, crept back up after a run of successes),
//! its requests-per-minute window and its `Retry-After` hold; and the lanes' state as the
//! page shows it ([`super::Scheduler::lanes`]).

use crate::batch::design::ExperimentDesign;
use serde::Serialize;
use std::collections::VecDeque;

/// A retry under way, as the page's chat client reports it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RetryNotice {
    /// The HTTP status that caused it, if any (`429` teaches the lane its rate limit).
    pub status: Option<u16>,
    /// Why, for people (`429 rate limited`, `network error`, ...).
    pub cause: String,
    /// The attempt that failed (from 1).
    pub attempt: u32,
    /// Most attempts.
    pub max_attempts: u32,
    /// Milliseconds until the next attempt (`Retry-After` when the endpoint sent one).
    pub wait_ms: f64,
}

/// The sliding window of the requests-per-minute limit.
pub const MINUTE_MS: f64 = 60_000.0;

/// How a lane learns its rate limit, and how the ETA is measured.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Tuning {
    /// Factor applied to the concurrency on a 429 (rounded down, at least 1): 0.8.
    pub step_down: f64,
    /// Successful calls in a row after which the concurrency rises by 1: 10.
    pub recover_after: u32,
    /// Completed trials the ETA's throughput is measured over: 20.
    pub eta_window: usize,
}

impl Default for Tuning {
    fn default() -> Tuning {
        Tuning {
            step_down: 0.8,
            recover_after: 10,
            eta_window: 20,
        }
    }
}

/// One endpoint's limits as the user set them.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LaneConfig {
    /// The player's name ([`crate::batch::design::PlayerSpec::name`]).
    pub name: String,
    /// The user's most trials in flight.
    pub max_concurrency: usize,
    /// Most requests started in any minute, if limited.
    pub requests_per_minute: Option<u32>,
}

/// One endpoint's state, for the page to show.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LaneStatus {
    /// The player's name.
    pub name: String,
    /// The learned most trials in flight now.
    pub concurrency: usize,
    /// The user's maximum.
    pub max_concurrency: usize,
    /// Trials in flight.
    pub in_flight: usize,
    /// Trials waiting to start.
    pub queued: usize,
    /// Trials whose call is being retried now.
    pub retrying: usize,
    /// The last retry's cause (`429 rate limited, attempt 3 of 6`), if any.
    pub last_cause: Option<String>,
    /// New calls are held until this time (ms) by `Retry-After` or the minute's limit.
    pub wait_until: Option<f64>,
    /// Requests started in the last minute.
    pub requests_last_minute: usize,
}

/// A lane's waiting trials, by index, the first in design order handed out first: kept
/// sorted from last to first, so the first is popped off the end (a B-tree set would do,
/// at several KB of the browser build).
#[derive(Clone, Debug, Default)]
pub(super) struct Queue(pub(super) Vec<usize>);

impl Queue {
    /// The trial to hand out next.
    pub(super) fn first(&self) -> Option<&usize> {
        self.0.last()
    }

    /// Queues trial `i` in its design-order place (once).
    pub(super) fn insert(&mut self, i: usize) {
        if let Err(at) = self.0.binary_search_by(|x| i.cmp(x)) {
            self.0.insert(at, i);
        }
    }

    /// Takes trial `i` out of the queue, if it is there.
    pub(super) fn remove(&mut self, i: &usize) {
        if self.0.last() == Some(i) {
            self.0.pop();
        } else if let Ok(at) = self.0.binary_search_by(|x| i.cmp(x)) {
            self.0.remove(at);
        }
    }

    /// How many trials wait.
    pub(super) fn len(&self) -> usize {
        self.0.len()
    }
}

/// One endpoint's lane: its trials waiting and in flight, and the limits it has learned.
#[derive(Clone, Debug)]
pub(super) struct Lane {
    /// The user's limits (the maximum at least 1).
    pub(super) config: LaneConfig,
    /// The learned most trials in flight now.
    pub(super) current: usize,
    /// Trials in flight.
    pub(super) in_flight: usize,
    /// Trials waiting to start.
    pub(super) queue: Queue,
    /// Successful calls in a row since the last retry or step.
    pub(super) success_run: u32,
    /// When the concurrency last stepped down for a 429.
    pub(super) last_step_down: Option<f64>,
    /// New calls are held until this time by `Retry-After`.
    pub(super) blocked_until: f64,
    /// When the calls of the last minute were (or will be) sent, in time order.
    pub(super) window: VecDeque<f64>,
    /// The last retry's cause, for people.
    pub(super) last_cause: Option<String>,
}

impl Lane {
    /// A lane at its full concurrency (at least 1), nothing queued or in flight.
    pub(super) fn new(config: LaneConfig) -> Lane {
        let max = config.max_concurrency.max(1);
        Lane {
            current: max,
            config: LaneConfig {
                max_concurrency: max,
                ..config
            },
            in_flight: 0,
            queue: Queue::default(),
            success_run: 0,
            last_step_down: None,
            blocked_until: f64::NEG_INFINITY,
            window: VecDeque::new(),
            last_cause: None,
        }
    }

    /// Drops the window's calls older than a minute.
    pub(super) fn prune(&mut self, now: f64) {
        while self.window.front().is_some_and(|&t| t <= now - MINUTE_MS) {
            self.window.pop_front();
        }
    }

    /// The earliest time a call may go (now when it may go now).
    pub(super) fn free_at(&mut self, now: f64) -> f64 {
        self.prune(now);
        let mut t = self.blocked_until.max(now);
        if let Some(rpm) = self.config.requests_per_minute {
            let rpm = rpm.max(1) as usize;
            if self.window.len() >= rpm {
                let oldest = self.window[self.window.len() - rpm];
                t = t.max(oldest + MINUTE_MS);
            }
        }
        t
    }

    /// Hears that a call of this lane will be retried (`notice.wait_ms` from `now`), the
    /// attempt having been sent at `attempt_sent`: ends the run of successes, counts the
    /// retry against the minute's window, and on a 429 steps the concurrency down (once
    /// per round of attempts) and holds new calls for the wait. Returns the wait.
    pub(super) fn retrying(
        &mut self,
        notice: &RetryNotice,
        attempt_sent: f64,
        step_down: f64,
        now_ms: f64,
    ) -> f64 {
        self.success_run = 0;
        self.last_cause = Some(format!(
            "{}, attempt {} of {}",
            notice.cause, notice.attempt, notice.max_attempts
        ));
        let wait = notice.wait_ms.max(0.0);
        // The retry is a request too: it counts against the requests-per-minute limit
        // when it goes (the window stays in time order).
        let sent = now_ms + wait;
        let at = self.window.partition_point(|&t| t <= sent);
        self.window.insert(at, sent);
        if notice.status == Some(429) {
            if self.last_step_down.is_none_or(|t| attempt_sent >= t) {
                self.current = ((self.current as f64 * step_down).floor() as usize).max(1);
                self.last_step_down = Some(now_ms);
            }
            self.blocked_until = self.blocked_until.max(now_ms + wait);
        }
        wait
    }

    /// A call succeeded: after `recover_after` in a row the concurrency rises by 1 (never
    /// above the user's maximum).
    pub(super) fn succeeded(&mut self, recover_after: u32) {
        self.success_run += 1;
        if self.success_run >= recover_after.max(1) {
            self.success_run = 0;
            self.current = (self.current + 1).min(self.config.max_concurrency);
        }
    }
}

/// The scheduler's lanes for a design: one per run ([`ExperimentDesign::runs`]), at its
/// player's concurrency (or `concurrency` for every player when given), with the design's
/// requests-per-minute limit for endpoints. The runs of one endpoint at several reasoning
/// efforts share its concurrency and its requests per minute (each run gets its share, at
/// least 1), so the endpoint sees no more than the design allows.
pub fn lanes_for(design: &ExperimentDesign, concurrency: Option<usize>) -> Vec<LaneConfig> {
    let mut lanes = Vec::new();
    for p in &design.players {
        let runs = design.runs_of(p);
        let share = |total: usize| (total / runs.len()).max(1);
        let c = share(concurrency.unwrap_or_else(|| design.concurrency_for(p)));
        let rpm = design
            .requests_per_minute
            .filter(|_| p.is_endpoint())
            .map(|r| share(r as usize) as u32);
        lanes.extend(runs.iter().map(|r| LaneConfig {
            name: r.name(),
            max_concurrency: c,
            requests_per_minute: rpm,
        }));
    }
    lanes
}
