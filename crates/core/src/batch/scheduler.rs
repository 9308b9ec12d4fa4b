//! The batch runner's scheduler: which trial runs next, on which endpoint, and when; pure
//! logic driven by a page (or a test) that passes the time in.
//!
//! Each player of a design has its own *lane* (its endpoint): a queue of its trials in the
//! design's order, a most-trials-in-flight limit and an optional requests-per-minute
//! limit. A trial's calls are sequential, so trials in flight are calls in flight. The
//! driver's loop:
//!
//! 1. [`Scheduler::next`] until it stops giving [`Next::Start`]: each start hands out a
//!    trial and counts its first call;
//! 2. before each later call of a trial, [`Scheduler::begin_call`] (it may say to wait, for
//!    the requests-per-minute limit or an endpoint's `Retry-After`);
//! 3. while a call is retried, [`Scheduler::retrying`] with the cause;
//! 4. when the trial ends, [`Scheduler::finish`]: the record is stored only when it says
//!    so (a trial cut off by pause, cancel or reload is requeued and rerun from its start,
//!    never half-counted).
//!
//! **Learned rate limits.** A `429` steps the lane's concurrency down (x0.8 rounded down,
//! at least 1), once per round of attempts: a 429 on an attempt sent before the last step
//! down does not step down again, so a burst of simultaneous 429s counts once. After
//! [`Tuning::recover_after`] successful calls in a row the concurrency creeps back up by 1,
//! never above the user's maximum. A lowered limit stops new starts; calls already in
//! flight finish. `Retry-After` (the notice's wait) holds the lane's new calls until then.
//!
//! ```
//! use shapemaze_core::batch::design::ExperimentDesign;
//! use shapemaze_core::batch::scheduler::{Next, Scheduler, TrialEnd};
//!
//! let mut s = Scheduler::for_design(&ExperimentDesign::default());
//! let Next::Start(a) = s.next(0.0) else { panic!("a trial starts") };
//! assert!(s.finish(&a.id, TrialEnd::Interrupted, 5.0) == false, "an interrupted trial is not stored");
//! assert_eq!(s.progress(5.0).overall.done, 0);
//! ```

use crate::batch::design::{ExperimentDesign, TrialKey, DEFAULT_CONCURRENCY};
use crate::results::record::TrialRecord;
use crate::verify::Outcome;
use serde::Serialize;
use std::collections::{HashMap, VecDeque};

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

/// How a trial handed out by [`Scheduler::next`] ended.
#[derive(Clone, Debug, PartialEq)]
pub enum TrialEnd {
    /// It finished (every phase judged, or an API error): its record is to be stored.
    Done(TrialSummary),
    /// It was cut off (pause, cancel, reload, a stop): it goes back to the queue and will
    /// be rerun from its start.
    Interrupted,
}

/// A trial to start now.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Assignment {
    /// Its id.
    pub id: String,
    /// Which trial.
    pub key: TrialKey,
    /// The lane (index into [`Scheduler::lanes`]) it runs on.
    pub lane: usize,
}

/// What the driver should do now.
#[derive(Clone, Debug, PartialEq)]
pub enum Next {
    /// Start this trial (its first call is counted).
    Start(Assignment),
    /// Nothing can start before this time (ms): a requests-per-minute window or a
    /// `Retry-After`; call [`Scheduler::next`] again then.
    WaitUntil(f64),
    /// Every lane with work is full: call again when a trial finishes.
    Wait,
    /// Paused or cancelled: nothing starts (trials in flight may still finish).
    Stopped,
    /// Every trial is done and none is in flight.
    Done,
}

/// Whether a trial's next call may go now.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum CallPermit {
    /// Send it (the call is counted).
    Go,
    /// Ask again at this time (ms).
    WaitUntil(f64),
}

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

#[derive(Clone, Debug, PartialEq)]
enum Slot {
    Queued,
    Running {
        lane: usize,
        /// When the attempt now under way (or next) was sent.
        attempt_sent: f64,
        retrying: bool,
    },
    Done(TrialSummary),
}

/// A lane's waiting trials, by index, the first in design order handed out first: kept
/// sorted from last to first, so the first is popped off the end (a B-tree set would do,
/// at several KB of the browser build).
#[derive(Clone, Debug, Default)]
struct Queue(Vec<usize>);

impl Queue {
    fn first(&self) -> Option<&usize> {
        self.0.last()
    }

    fn insert(&mut self, i: usize) {
        if let Err(at) = self.0.binary_search_by(|x| i.cmp(x)) {
            self.0.insert(at, i);
        }
    }

    fn remove(&mut self, i: &usize) {
        if self.0.last() == Some(i) {
            self.0.pop();
        } else if let Ok(at) = self.0.binary_search_by(|x| i.cmp(x)) {
            self.0.remove(at);
        }
    }

    fn len(&self) -> usize {
        self.0.len()
    }
}

#[derive(Clone, Debug)]
struct Lane {
    config: LaneConfig,
    current: usize,
    in_flight: usize,
    queue: Queue,
    success_run: u32,
    last_step_down: Option<f64>,
    blocked_until: f64,
    window: VecDeque<f64>,
    last_cause: Option<String>,
}

impl Lane {
    /// A lane at its full concurrency (at least 1), nothing queued or in flight.
    fn new(config: LaneConfig) -> Lane {
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

    fn prune(&mut self, now: f64) {
        while self.window.front().is_some_and(|&t| t <= now - MINUTE_MS) {
            self.window.pop_front();
        }
    }

    /// The earliest time a call may go (now when it may go now).
    fn free_at(&mut self, now: f64) -> f64 {
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

    fn succeeded(&mut self, recover_after: u32) {
        self.success_run += 1;
        if self.success_run >= recover_after.max(1) {
            self.success_run = 0;
            self.current = (self.current + 1).min(self.config.max_concurrency);
        }
    }
}

/// The scheduler of one experiment run (see the module documentation).
#[derive(Clone, Debug)]
pub struct Scheduler {
    keys: Vec<TrialKey>,
    ids: Vec<String>,
    index: HashMap<String, usize>,
    slots: Vec<Slot>,
    lane_of: Vec<usize>,
    lanes: Vec<Lane>,
    tuning: Tuning,
    state: RunState,
    active_total: f64,
    active_since: Option<f64>,
    /// Active-time stamps of this session's completions, overall and per lane.
    completions: VecDeque<f64>,
    lane_completions: Vec<VecDeque<f64>>,
    /// Per lane, trials still to be added ([`Scheduler::set_planned`]).
    planned: Vec<usize>,
}

impl Scheduler {
    /// A scheduler for `keys` (duplicates dropped), each on the lane named by its player;
    /// a player without a lane in `lanes` gets one with the default concurrency.
    pub fn new(keys: Vec<TrialKey>, lanes: Vec<LaneConfig>, tuning: Tuning) -> Scheduler {
        let mut lanes: Vec<Lane> = lanes.into_iter().map(Lane::new).collect();
        let mut s = Scheduler {
            keys: Vec::new(),
            ids: Vec::new(),
            index: HashMap::new(),
            slots: Vec::new(),
            lane_of: Vec::new(),
            lanes: Vec::new(),
            tuning,
            state: RunState::Running,
            active_total: 0.0,
            active_since: None,
            completions: VecDeque::new(),
            lane_completions: Vec::new(),
            planned: Vec::new(),
        };
        for key in keys {
            if let Some((i, lane)) = s.place(key, &mut lanes) {
                // In ascending order here; reversed below (inserting at the front is quadratic).
                lanes[lane].queue.0.push(i);
            }
        }
        for lane in &mut lanes {
            lane.queue.0.reverse();
        }
        s.lane_completions = vec![VecDeque::new(); lanes.len()];
        s.planned = vec![0; lanes.len()];
        s.lanes = lanes;
        s
    }

    /// Takes `key` in as a queued trial on its player's lane (made with the default
    /// concurrency when `lanes` has none); returns its index and lane, or none for a key
    /// already taken.
    fn place(&mut self, key: TrialKey, lanes: &mut Vec<Lane>) -> Option<(usize, usize)> {
        let id = key.id();
        if self.index.contains_key(&id) {
            return None;
        }
        let lane = match lanes.iter().position(|l| l.config.name == key.player) {
            Some(l) => l,
            None => {
                lanes.push(Lane::new(LaneConfig {
                    name: key.player.clone(),
                    max_concurrency: DEFAULT_CONCURRENCY,
                    requests_per_minute: None,
                }));
                lanes.len() - 1
            }
        };
        let i = self.keys.len();
        self.index.insert(id.clone(), i);
        self.ids.push(id);
        self.keys.push(key);
        self.slots.push(Slot::Queued);
        self.lane_of.push(lane);
        Some((i, lane))
    }

    /// Adds a trial once the run is under way (a staircase's next trial, chosen by the
    /// outcomes so far), queued after the trials already there; returns whether it was
    /// new.
    pub fn add(&mut self, key: TrialKey) -> bool {
        let mut lanes = std::mem::take(&mut self.lanes);
        let placed = self.place(key, &mut lanes);
        if let Some((i, lane)) = placed {
            lanes[lane].queue.insert(i);
            if lane >= self.planned.len() {
                self.planned.resize(lane + 1, 0);
                self.lane_completions.resize(lane + 1, VecDeque::new());
            }
        }
        self.lanes = lanes;
        placed.is_some()
    }

    /// Says how many trials `player`'s lane will still be given with
    /// [`Scheduler::add`] (a staircase's trials to come): progress counts them in its
    /// totals.
    pub fn set_planned(&mut self, player: &str, trials: usize) {
        if let Some(l) = self.lanes.iter().position(|l| l.config.name == player) {
            self.planned[l] = trials;
        }
    }

    /// The scheduler of a design's trials, with its lanes
    /// ([`lanes_for`](crate::batch::runner::lanes_for)).
    pub fn for_design(design: &ExperimentDesign) -> Scheduler {
        let lanes = crate::batch::runner::lanes_for(design, None);
        Scheduler::new(design.trials(), lanes, Tuning::default())
    }

    /// Marks stored trials done (resuming after a reload): they never run again. Ids not
    /// in the design and repeated ids are skipped; returns how many were taken.
    pub fn restore(&mut self, stored: impl IntoIterator<Item = TrialSummary>) -> usize {
        let mut taken = 0;
        for summary in stored {
            let Some(&i) = self.index.get(&summary.id) else {
                continue;
            };
            if self.slots[i] != Slot::Queued {
                continue;
            }
            self.lanes[self.lane_of[i]].queue.remove(&i);
            self.slots[i] = Slot::Done(summary);
            taken += 1;
        }
        taken
    }

    /// Every trial's key, in the design's order.
    pub fn keys(&self) -> &[TrialKey] {
        &self.keys
    }

    /// Running, paused or cancelled.
    pub fn state(&self) -> RunState {
        self.state
    }

    /// Whether trial `id` is done (its record stored).
    pub fn is_done(&self, id: &str) -> bool {
        self.index
            .get(id)
            .is_some_and(|&i| matches!(self.slots[i], Slot::Done(_)))
    }

    /// The ids of the trials in flight.
    pub fn in_flight(&self) -> Vec<String> {
        self.slots
            .iter()
            .enumerate()
            .filter(|(_, s)| matches!(s, Slot::Running { .. }))
            .map(|(i, _)| self.ids[i].clone())
            .collect()
    }

    /// Whether trial `id` is in flight (its result will count when it finishes).
    pub fn is_running(&self, id: &str) -> bool {
        self.index
            .get(id)
            .is_some_and(|&i| matches!(self.slots[i], Slot::Running { .. }))
    }

    fn all_done(&self) -> bool {
        self.slots.iter().all(|s| matches!(s, Slot::Done(_)))
    }

    fn active_now(&self, now: f64) -> f64 {
        self.active_total + self.active_since.map_or(0.0, |t| (now - t).max(0.0))
    }

    fn stop_clock(&mut self, now: f64) {
        self.active_total = self.active_now(now);
        self.active_since = None;
    }

    /// Which trial to start now, if any (see [`Next`]). The started trial's first call is
    /// counted against its lane's requests-per-minute limit.
    pub fn next(&mut self, now_ms: f64) -> Next {
        if self.all_done() && self.in_flight().is_empty() {
            return Next::Done;
        }
        if self.state != RunState::Running {
            return Next::Stopped;
        }
        if self.active_since.is_none() {
            self.active_since = Some(now_ms);
        }
        let mut best: Option<(usize, usize)> = None;
        let mut wake: Option<f64> = None;
        for (l, lane) in self.lanes.iter_mut().enumerate() {
            let Some(&head) = lane.queue.first() else {
                continue;
            };
            if lane.in_flight >= lane.current {
                continue;
            }
            let free = lane.free_at(now_ms);
            if free > now_ms {
                wake = Some(wake.map_or(free, |w: f64| w.min(free)));
                continue;
            }
            if best.is_none_or(|(_, h)| head < h) {
                best = Some((l, head));
            }
        }
        match best {
            Some((l, i)) => {
                let lane = &mut self.lanes[l];
                lane.queue.remove(&i);
                lane.in_flight += 1;
                lane.window.push_back(now_ms);
                self.slots[i] = Slot::Running {
                    lane: l,
                    attempt_sent: now_ms,
                    retrying: false,
                };
                Next::Start(Assignment {
                    id: self.ids[i].clone(),
                    key: self.keys[i].clone(),
                    lane: l,
                })
            }
            None => wake.map_or(Next::Wait, Next::WaitUntil),
        }
    }

    /// Asks whether trial `id`'s next call (after its first) may go now. A `Go` counts the
    /// call, and means the trial's previous call succeeded (calls are sequential), which
    /// helps the lane's concurrency creep back up. Unknown or not-running trials get `Go`.
    pub fn begin_call(&mut self, id: &str, now_ms: f64) -> CallPermit {
        let Some(&i) = self.index.get(id) else {
            return CallPermit::Go;
        };
        let Slot::Running { lane: l, .. } = self.slots[i] else {
            return CallPermit::Go;
        };
        let recover_after = self.tuning.recover_after;
        let lane = &mut self.lanes[l];
        let free = lane.free_at(now_ms);
        if free > now_ms {
            return CallPermit::WaitUntil(free);
        }
        lane.window.push_back(now_ms);
        lane.succeeded(recover_after);
        self.slots[i] = Slot::Running {
            lane: l,
            attempt_sent: now_ms,
            retrying: false,
        };
        CallPermit::Go
    }

    /// Hears that trial `id`'s call failed and will be retried (`notice.wait_ms` from
    /// now). A 429 steps the lane's concurrency down (once per round of attempts, see the
    /// module documentation) and holds the lane's new calls for the wait; any retry ends
    /// the lane's run of successes.
    pub fn retrying(&mut self, id: &str, notice: &RetryNotice, now_ms: f64) {
        let Some(&i) = self.index.get(id) else {
            return;
        };
        let Slot::Running {
            lane: l,
            attempt_sent,
            ..
        } = self.slots[i]
        else {
            return;
        };
        let step_down = self.tuning.step_down;
        let lane = &mut self.lanes[l];
        lane.success_run = 0;
        lane.last_cause = Some(format!(
            "{}, attempt {} of {}",
            notice.cause, notice.attempt, notice.max_attempts
        ));
        let wait = notice.wait_ms.max(0.0);
        // The retry is a request too: it counts against the requests-per-minute limit
        // when it goes (the window stays in time order).
        let sent = now_ms + wait;
        let at = lane.window.partition_point(|&t| t <= sent);
        lane.window.insert(at, sent);
        if notice.status == Some(429) {
            if lane.last_step_down.is_none_or(|t| attempt_sent >= t) {
                lane.current = ((lane.current as f64 * step_down).floor() as usize).max(1);
                lane.last_step_down = Some(now_ms);
            }
            lane.blocked_until = lane.blocked_until.max(now_ms + wait);
        }
        self.slots[i] = Slot::Running {
            lane: l,
            attempt_sent: now_ms + wait,
            retrying: true,
        };
    }

    /// Hears that trial `id` ended. Returns whether its record is to be stored: `true` for
    /// a trial in flight that finished; `false` for an interrupted one (requeued, to be
    /// rerun from its start) and for a trial not in flight (already done, or requeued by
    /// [`Scheduler::cancel`]), whose result must be dropped so nothing counts twice.
    pub fn finish(&mut self, id: &str, end: TrialEnd, now_ms: f64) -> bool {
        let Some(&i) = self.index.get(id) else {
            return false;
        };
        let Slot::Running { lane: l, .. } = self.slots[i] else {
            return false;
        };
        self.lanes[l].in_flight = self.lanes[l].in_flight.saturating_sub(1);
        match end {
            TrialEnd::Interrupted => {
                self.slots[i] = Slot::Queued;
                self.lanes[l].queue.insert(i);
                false
            }
            TrialEnd::Done(mut summary) => {
                summary.id = self.ids[i].clone();
                if summary.api_error.is_some() {
                    self.lanes[l].success_run = 0;
                } else {
                    let recover_after = self.tuning.recover_after;
                    self.lanes[l].succeeded(recover_after);
                }
                self.slots[i] = Slot::Done(summary);
                let stamp = self.active_now(now_ms);
                let keep = self.tuning.eta_window.max(1) + 1;
                push_capped(&mut self.completions, stamp, keep);
                push_capped(&mut self.lane_completions[l], stamp, keep);
                if self.all_done() {
                    self.stop_clock(now_ms);
                }
                true
            }
        }
    }

    /// No new starts; trials in flight may finish and count.
    pub fn pause(&mut self, now_ms: f64) {
        if self.state == RunState::Running {
            self.state = RunState::Paused;
            self.stop_clock(now_ms);
        }
    }

    /// Starts again after a pause or a cancel.
    pub fn resume(&mut self, now_ms: f64) {
        if self.state != RunState::Running {
            self.state = RunState::Running;
            if !self.all_done() {
                self.active_since = Some(now_ms);
            }
        }
    }

    /// No new starts, and every trial in flight is requeued as interrupted (to be rerun
    /// from its start); returns their ids so the driver can abort them. Their later
    /// [`Scheduler::finish`] is ignored.
    pub fn cancel(&mut self, now_ms: f64) -> Vec<String> {
        self.state = RunState::Cancelled;
        self.stop_clock(now_ms);
        let mut out = Vec::new();
        for i in 0..self.slots.len() {
            if let Slot::Running { lane, .. } = self.slots[i] {
                self.slots[i] = Slot::Queued;
                self.lanes[lane].queue.insert(i);
                self.lanes[lane].in_flight = self.lanes[lane].in_flight.saturating_sub(1);
                out.push(self.ids[i].clone());
            }
        }
        out
    }

    /// Puts every trial that ended as an API error back in the queue (their stored records
    /// are to be replaced by the reruns'); returns their ids.
    pub fn requeue_errors(&mut self) -> Vec<String> {
        let mut out = Vec::new();
        for i in 0..self.slots.len() {
            if matches!(&self.slots[i], Slot::Done(s) if s.api_error.is_some()) {
                self.slots[i] = Slot::Queued;
                self.lanes[self.lane_of[i]].queue.insert(i);
                out.push(self.ids[i].clone());
            }
        }
        out
    }

    /// Each lane's state, in lane order.
    pub fn lanes(&mut self, now_ms: f64) -> Vec<LaneStatus> {
        let mut retrying = vec![0; self.lanes.len()];
        for s in &self.slots {
            if let Slot::Running {
                lane,
                retrying: true,
                ..
            } = s
            {
                retrying[*lane] += 1;
            }
        }
        self.lanes
            .iter_mut()
            .zip(retrying)
            .map(|(lane, retrying)| {
                let free = lane.free_at(now_ms);
                LaneStatus {
                    name: lane.config.name.clone(),
                    concurrency: lane.current,
                    max_concurrency: lane.config.max_concurrency,
                    in_flight: lane.in_flight,
                    queued: lane.queue.len(),
                    retrying,
                    last_cause: lane.last_cause.clone(),
                    wait_until: (free > now_ms).then_some(free),
                    requests_last_minute: lane.window.len(),
                }
            })
            .collect()
    }

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
}

fn push_capped(q: &mut VecDeque<f64>, t: f64, cap: usize) {
    q.push_back(t);
    while q.len() > cap {
        q.pop_front();
    }
}

/// Remaining trials over the recent throughput: the last completions' rate, measured
/// from the session's start while fewer than the window have finished.
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::batch::design::PlayerSpec;
    use crate::maze::encoding::Encoding;
    use crate::play::player::PlayerKind;
    use std::cmp::Reverse;
    use std::collections::{BTreeMap, BTreeSet, BinaryHeap};

    fn summary(outcomes: [Option<Outcome>; 3], api_error: bool) -> TrialSummary {
        TrialSummary {
            id: String::new(),
            outcomes,
            api_error: api_error.then(|| "network".to_string()),
            tokens: 100,
        }
    }

    fn ok() -> TrialEnd {
        TrialEnd::Done(summary([Some(Outcome::Success); 3], false))
    }

    fn endpoint_design(concurrency: usize) -> ExperimentDesign {
        ExperimentDesign {
            players: vec![PlayerSpec::endpoint("https://x/v1", "m", None)],
            concurrency,
            ..ExperimentDesign::default()
        }
    }

    /// A simulated backend and clock: each trial makes `calls(i)` sequential calls of
    /// `latency` ms; a call started inside a storm answers 429 after 20 ms and is retried
    /// `retry_wait` ms later.
    struct Sim {
        s: Scheduler,
        now: u64,
        heap: BinaryHeap<Reverse<(u64, u64, Ev)>>,
        seq: u64,
        latency: u64,
        storms: Vec<(u64, u64)>,
        retry_wait: u64,
        calls: Box<dyn Fn(usize) -> usize>,
        made: BTreeMap<String, usize>,
        finished: BTreeMap<String, usize>,
        calls_started: Vec<u64>,
        concurrency_seen: Vec<(u64, usize)>,
        wakes: BTreeSet<u64>,
    }

    #[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
    enum Ev {
        Wake,
        CallDone(String),
        Call(String),
        Retry(String),
    }

    impl Sim {
        fn new(s: Scheduler, latency: u64, calls: Box<dyn Fn(usize) -> usize>) -> Sim {
            Sim {
                s,
                now: 0,
                heap: BinaryHeap::new(),
                seq: 0,
                latency,
                storms: vec![],
                retry_wait: 500,
                calls,
                made: BTreeMap::new(),
                finished: BTreeMap::new(),
                calls_started: vec![],
                concurrency_seen: vec![],
                wakes: BTreeSet::new(),
            }
        }

        fn at(&mut self, t: u64, ev: Ev) {
            self.seq += 1;
            self.heap.push(Reverse((t, self.seq, ev)));
        }

        fn send(&mut self, id: String) {
            self.calls_started.push(self.now);
            let t = self.now;
            if self.storms.iter().any(|&(a, b)| (a..b).contains(&t)) {
                self.at(t + 20, Ev::Retry(id));
            } else {
                self.at(t + self.latency, Ev::CallDone(id));
            }
        }

        fn start_what_can(&mut self) {
            loop {
                let lanes = self.s.lanes(self.now as f64);
                match self.s.next(self.now as f64) {
                    Next::Start(a) => {
                        let before = &lanes[a.lane];
                        assert!(
                            before.in_flight < before.concurrency,
                            "a start at {} with {} in flight of {}",
                            self.now,
                            before.in_flight,
                            before.concurrency
                        );
                        self.made.insert(a.id.clone(), 0);
                        self.send(a.id);
                    }
                    Next::WaitUntil(t) => {
                        assert!(t > self.now as f64, "a wait lies in the future");
                        if self.wakes.insert(t.ceil() as u64) {
                            self.at(t.ceil() as u64, Ev::Wake);
                        }
                        break;
                    }
                    _ => break,
                }
            }
            for l in self.s.lanes(self.now as f64) {
                assert!(
                    l.in_flight <= l.max_concurrency,
                    "{} in flight above the maximum {}",
                    l.in_flight,
                    l.max_concurrency
                );
                self.concurrency_seen.push((self.now, l.concurrency));
            }
        }

        fn run(&mut self) -> u64 {
            self.start_what_can();
            while let Some(Reverse((t, _, ev))) = self.heap.pop() {
                self.now = t;
                match ev {
                    Ev::Wake => {}
                    Ev::Retry(id) => {
                        let notice = RetryNotice {
                            status: Some(429),
                            cause: "429 rate limited".into(),
                            attempt: 1,
                            max_attempts: 6,
                            wait_ms: self.retry_wait as f64,
                        };
                        self.s.retrying(&id, &notice, t as f64);
                        self.at(t + self.retry_wait, Ev::Call(id));
                    }
                    Ev::Call(id) => self.send(id),
                    Ev::CallDone(id) => {
                        let i = self.s.index[&id];
                        let made = self.made.entry(id.clone()).or_default();
                        *made += 1;
                        if *made < (self.calls)(i) {
                            match self.s.begin_call(&id, t as f64) {
                                CallPermit::Go => self.send(id),
                                CallPermit::WaitUntil(w) => {
                                    *self.made.get_mut(&id).expect("made") -= 1;
                                    self.at(w.ceil() as u64, Ev::CallDone(id));
                                }
                            }
                        } else if self.s.finish(&id, ok(), t as f64) {
                            *self.finished.entry(id).or_default() += 1;
                        }
                    }
                }
                self.start_what_can();
            }
            self.now
        }
    }

    #[test]
    fn a_429_storm_lowers_concurrency_which_recovers_and_every_trial_finishes_once() {
        let s = Scheduler::for_design(&endpoint_design(8));
        let mut sim = Sim::new(s, 100, Box::new(|i| 3 + i % 5));
        sim.storms = vec![(3_000, 3_600), (9_000, 9_300)];
        sim.run();
        assert_eq!(sim.finished.len(), 360, "every trial finished");
        assert!(
            sim.finished.values().all(|&n| n == 1),
            "no trial finished twice"
        );
        assert_eq!(sim.s.next(sim.now as f64), Next::Done, "the run is done");
        let lowest = sim.concurrency_seen.iter().map(|c| c.1).min().unwrap_or(8);
        assert!(
            lowest < 8,
            "the storm lowered concurrency (lowest {lowest})"
        );
        assert!(lowest >= 1, "never below 1");
        let after_first: Vec<usize> = sim
            .concurrency_seen
            .iter()
            .filter(|c| (4_000..9_000).contains(&c.0))
            .map(|c| c.1)
            .collect();
        assert!(
            after_first.iter().max() > after_first.iter().min(),
            "concurrency crept back up between the storms: {:?}",
            after_first.iter().max()
        );
        assert_eq!(
            sim.concurrency_seen.last().map(|c| c.1),
            Some(8),
            "concurrency recovered to the user's maximum"
        );
        let p = sim.s.progress(sim.now as f64);
        assert_eq!(p.overall.done, 360, "progress counts every trial once");
        assert_eq!(p.overall.successes, [360; 3], "every phase counted once");
        let lane = &sim.s.lanes(sim.now as f64)[0];
        assert!(
            lane.last_cause
                .as_deref()
                .is_some_and(|c| c.contains("429")),
            "the last cause is kept for the page: {:?}",
            lane.last_cause
        );
    }

    #[test]
    fn a_burst_of_simultaneous_429s_steps_down_once() {
        let mut s = Scheduler::for_design(&endpoint_design(8));
        let ids: Vec<String> = (0..8)
            .map(|_| match s.next(0.0) {
                Next::Start(a) => a.id,
                other => panic!("expected a start, got {other:?}"),
            })
            .collect();
        let notice = RetryNotice {
            status: Some(429),
            cause: "429".into(),
            attempt: 1,
            max_attempts: 6,
            wait_ms: 1000.0,
        };
        for id in &ids {
            s.retrying(id, &notice, 10.0);
        }
        assert_eq!(
            s.lanes(10.0)[0].concurrency,
            6,
            "8 x 0.8 rounded down, once"
        );
        assert_eq!(s.lanes(10.0)[0].retrying, 8, "eight retries under way");
        assert_eq!(
            s.lanes(10.0)[0].wait_until,
            Some(1010.0),
            "Retry-After holds the lane"
        );
        // The retried attempts were sent after the step down: a second 429 counts.
        s.retrying(&ids[0], &notice, 1100.0);
        assert_eq!(s.lanes(1100.0)[0].concurrency, 4, "6 x 0.8 rounded down");
        for t in [2200.0, 3300.0, 4400.0, 5500.0] {
            s.retrying(&ids[0], &notice, t);
        }
        assert_eq!(s.lanes(5500.0)[0].concurrency, 1, "never below 1");
    }

    #[test]
    fn at_100_ms_latency_and_concurrency_8_the_run_is_within_10_percent_of_ideal() {
        let s = Scheduler::for_design(&endpoint_design(8));
        let calls = |i: usize| 3 + (i * 7) % 14;
        let total: usize = (0..360).map(calls).sum();
        let mut sim = Sim::new(s, 100, Box::new(calls));
        let wall = sim.run() as f64;
        let ideal = total as f64 * 100.0 / 8.0;
        assert_eq!(sim.finished.len(), 360, "every trial finished");
        assert!(
            wall <= ideal * 1.1,
            "wall time {wall} ms is more than 10% above the ideal {ideal} ms"
        );
    }

    #[test]
    fn the_requests_per_minute_limit_holds_in_every_sliding_minute() {
        let mut d = endpoint_design(4);
        d.requests_per_minute = Some(30);
        d.shapes = vec![Shape::Square];
        d.samples_per_shape = 20;
        let s = Scheduler::for_design(&d);
        let mut sim = Sim::new(s, 100, Box::new(|_| 2));
        sim.run();
        assert_eq!(sim.finished.len(), 40, "every trial finished");
        let starts = &sim.calls_started;
        assert_eq!(starts.len(), 80, "two calls per trial");
        for (i, &t) in starts.iter().enumerate() {
            let in_minute = starts[i..].iter().filter(|&&u| u < t + 60_000).count();
            assert!(in_minute <= 30, "{in_minute} calls in the minute from {t}");
        }
        assert!(
            *starts.last().unwrap_or(&0) >= 120_000,
            "80 calls at 30 a minute take at least two minutes"
        );
    }

    use crate::maze::shape::Shape;

    #[test]
    fn a_retry_counts_against_the_requests_per_minute_limit() {
        let mut d = endpoint_design(4);
        d.requests_per_minute = Some(2);
        let mut s = Scheduler::for_design(&d);
        let Next::Start(a) = s.next(0.0) else {
            panic!("a start")
        };
        let notice = RetryNotice {
            status: Some(500),
            cause: "500 server error".into(),
            attempt: 1,
            max_attempts: 3,
            wait_ms: 1000.0,
        };
        s.retrying(&a.id, &notice, 10.0);
        // The first call and its retry fill the minute's two requests.
        assert_eq!(s.next(20.0), Next::WaitUntil(60_000.0));
        assert_eq!(s.begin_call(&a.id, 2000.0), CallPermit::WaitUntil(60_000.0));
    }

    #[test]
    fn pause_stops_new_starts_but_lets_trials_in_flight_count() {
        let mut s = Scheduler::for_design(&ExperimentDesign::default());
        let Next::Start(a) = s.next(0.0) else {
            panic!("a start")
        };
        s.pause(10.0);
        assert_eq!(s.next(11.0), Next::Stopped, "no new start while paused");
        assert!(
            s.finish(&a.id, ok(), 20.0),
            "a trial in flight still counts"
        );
        s.resume(30.0);
        assert!(
            matches!(s.next(31.0), Next::Start(_)),
            "resume starts again"
        );
        assert_eq!(s.progress(31.0).overall.done, 1, "one done");
        assert_eq!(
            s.progress(31.0).elapsed_ms,
            11.0,
            "the pause is not counted"
        );
    }

    #[test]
    fn a_run_finished_while_paused_says_done() {
        let d = ExperimentDesign {
            samples_per_shape: 1,
            encodings: vec![Encoding::Matrix],
            shapes: vec![Shape::Cross],
            ..ExperimentDesign::default()
        };
        let mut s = Scheduler::for_design(&d);
        let Next::Start(a) = s.next(0.0) else {
            panic!("a start")
        };
        s.pause(1.0);
        assert_eq!(s.next(1.0), Next::Stopped, "paused with a trial in flight");
        assert!(s.finish(&a.id, ok(), 2.0), "it still counts");
        assert_eq!(s.next(3.0), Next::Done, "nothing is left, paused or not");
    }

    #[test]
    fn cancel_requeues_trials_in_flight_and_ignores_their_late_results() {
        let mut s = Scheduler::for_design(&ExperimentDesign::default());
        let first: Vec<String> = (0..4)
            .map(|_| match s.next(0.0) {
                Next::Start(a) => a.id,
                other => panic!("expected a start, got {other:?}"),
            })
            .collect();
        assert_eq!(s.next(0.0), Next::Wait, "four in flight fill the lane");
        let cut = s.cancel(5.0);
        assert_eq!(cut, first, "the trials in flight are reported interrupted");
        assert!(!s.finish(&first[0], ok(), 6.0), "a late result is dropped");
        assert_eq!(s.progress(6.0).overall.done, 0, "nothing half-counted");
        s.resume(7.0);
        let Next::Start(again) = s.next(7.0) else {
            panic!("a start")
        };
        assert_eq!(again.id, first[0], "the interrupted trial reruns first");
    }

    #[test]
    fn an_interrupted_trial_is_rerun_from_its_start_and_counted_once() {
        let mut s = Scheduler::for_design(&ExperimentDesign::default());
        let Next::Start(a) = s.next(0.0) else {
            panic!("a start")
        };
        assert!(!s.finish(&a.id, TrialEnd::Interrupted, 1.0), "not stored");
        let Next::Start(b) = s.next(2.0) else {
            panic!("a start")
        };
        assert_eq!(b.id, a.id, "the same trial again");
        assert!(s.finish(&b.id, ok(), 3.0), "stored");
        assert!(!s.finish(&b.id, ok(), 4.0), "a second finish is ignored");
        assert_eq!(s.progress(4.0).overall.done, 1, "counted once");
    }

    #[test]
    fn done_trials_never_rerun_and_resume_skips_stored_ones() {
        let d = ExperimentDesign::default();
        let all = d.trials();
        let mut s = Scheduler::for_design(&d);
        let stored: Vec<TrialSummary> = all
            .iter()
            .take(100)
            .chain(all.iter().take(5))
            .map(|k| TrialSummary {
                id: k.id(),
                ..summary([Some(Outcome::Success), None, None], false)
            })
            .chain([TrialSummary {
                id: "someone/else".into(),
                ..summary([None; 3], false)
            }])
            .collect();
        assert_eq!(s.restore(stored), 100, "duplicates and unknown ids skipped");
        let mut started = BTreeSet::new();
        while let Next::Start(a) = s.next(0.0) {
            assert!(started.insert(a.id.clone()), "started twice: {}", a.id);
            assert!(s.finish(&a.id, ok(), 1.0), "stored");
        }
        assert_eq!(started.len(), 260, "only the missing trials ran");
        assert!(
            all.iter().take(100).all(|k| !started.contains(&k.id())),
            "no stored trial reran"
        );
        assert_eq!(s.next(2.0), Next::Done, "done");
        let p = s.progress(2.0);
        assert_eq!(p.overall.successes[0], 360, "stored trials count too");
        assert_eq!(
            p.overall.successes[1], 260,
            "stored trials' phases as stored"
        );
    }

    #[test]
    fn requeue_errors_reruns_only_the_api_errors() {
        let d = ExperimentDesign {
            samples_per_shape: 1,
            ..ExperimentDesign::default()
        };
        let mut s = Scheduler::for_design(&d);
        let mut n = 0;
        while let Next::Start(a) = s.next(0.0) {
            let failed = n % 3 == 0;
            s.finish(
                &a.id,
                TrialEnd::Done(summary([None; 3], failed).clone()),
                1.0,
            );
            n += 1;
        }
        assert_eq!(s.progress(1.0).overall.api_errors, 4, "4 of 12 failed");
        let again = s.requeue_errors();
        assert_eq!(again.len(), 4, "the four are requeued");
        assert_eq!(
            s.progress(1.0).overall.done,
            8,
            "they no longer count as done"
        );
        let mut rerun = Vec::new();
        while let Next::Start(a) = s.next(2.0) {
            s.finish(&a.id, ok(), 3.0);
            rerun.push(a.id);
        }
        assert_eq!(rerun, again, "exactly the errors reran");
        assert_eq!(s.progress(3.0).overall.api_errors, 0, "no errors left");
    }

    #[test]
    fn progress_has_per_player_tallies_tokens_and_an_eta() {
        let mut d = ExperimentDesign::default();
        d.players.push(PlayerSpec::builtin(PlayerKind::Random));
        d.encodings = vec![Encoding::Matrix];
        let mut s = Scheduler::for_design(&d);
        let mut t = 0.0;
        for _ in 0..20 {
            let Next::Start(a) = s.next(t) else {
                panic!("a start")
            };
            t += 100.0;
            s.finish(&a.id, ok(), t);
        }
        let p = s.progress(t);
        assert_eq!(p.overall.total, 360, "two players x 180");
        assert_eq!(p.overall.done, 20, "20 done");
        assert_eq!(p.overall.tokens, 2000, "100 tokens each");
        assert_eq!(p.players.len(), 2, "one tally per player");
        assert_eq!(
            p.players.iter().map(|p| p.tally.done).sum::<usize>(),
            20,
            "the players' tallies add up"
        );
        let eta = p.overall.eta_ms.expect("an ETA");
        assert!(
            (eta - 340.0 * 100.0).abs() < 1.0,
            "340 left at 100 ms each: {eta}"
        );
    }
}
