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
//!
//! This file holds the state machine (each trial's slot: queued, running or done, and the
//! moves between them); `lanes.rs` the lanes (queues, learned concurrency, the minute's
//! window, [`LaneStatus`]); `progress.rs` what a finished trial counts for and the
//! progress bar's numbers ([`Progress`]); `tests.rs` a simulated backend and clock.

mod lanes;
mod progress;
#[cfg(test)]
mod tests;

pub use lanes::{lanes_for, LaneConfig, LaneStatus, RetryNotice, Tuning, MINUTE_MS};
pub use progress::{FormsHeld, PlayerProgress, Progress, RunState, Tally, TrialSummary};

use crate::batch::design::{ExperimentDesign, TrialKey, DEFAULT_CONCURRENCY};
use crate::verify::Outcome;
use lanes::Lane;
use serde::Serialize;
use std::collections::{HashMap, VecDeque};

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

/// Where one trial is: waiting on its lane, in flight, or done (with what it counts for).
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
    /// ([`lanes_for`]).
    pub fn for_design(design: &ExperimentDesign) -> Scheduler {
        let lanes = lanes_for(design, None);
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
        let wait = self.lanes[l].retrying(notice, attempt_sent, step_down, now_ms);
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
                self.stamp_completion(l, now_ms);
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
}

// The lanes' state as the page shows it.
impl Scheduler {
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
}

// Progress: the tallies and the time left.
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
                        t.forms.add(s.forms);
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
