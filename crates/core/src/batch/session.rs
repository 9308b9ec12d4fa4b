//! A run of an experiment as one state machine, driven the same way by the experiment page
//! and by `shapemaze run`: the [`Session`] owns the scheduler, the API keys, the trials in
//! flight with their generation, and the finished records not saved yet; the driver tells
//! it what happened (a click, a trial that ended, a save that finished, a timer that
//! fired) and does the [`Effect`]s it answers with (start this trial, save this record,
//! wake me at, say this, abort what an older generation started).
//!
//! The driver owns only what its platform must: the tasks that play trials (`spawn_local`
//! in the browser, a tokio `LocalSet` natively), timers, storage (IndexedDB, or
//! `trials.jsonl` and the export folder) and how notices are shown. Everything that
//! decides belongs here and is tested natively with the scripted transport.
//!
//! A finished trial counts as done only once its record is saved ("finished" means
//! stored). A save that fails pauses the run and holds the record in the session until
//! [`Session::resume`] saves it first. Cancel requeues the trials in flight and starts a
//! new generation: what an older generation's tasks return is dropped (a record already
//! being saved when cancel came is kept and counts as done).
//!
//! ```
//! use shapemaze_core::batch::design::ExperimentDesign;
//! use shapemaze_core::batch::session::{Effect, Session};
//!
//! let design = ExperimentDesign::default();
//! let mut session = Session::new(&design, design.trials(), None);
//! let effects = session.resume(0.0, false);
//! assert!(matches!(effects[0], Effect::Start(_)), "the first trials start");
//! ```

use crate::batch::design::{ExperimentDesign, TrialKey};
use crate::batch::runner::{TrialError, TrialRun};
use crate::batch::scheduler::lanes_for;
use crate::batch::scheduler::{
    FormsHeld, LaneStatus, Next, Progress, RunState, Scheduler, TrialEnd, TrialSummary, Tuning,
};
use crate::batch::staircase::{walk_outcomes, Track};
use crate::maze::templates::TemplateLibrary;
use crate::model::price::dollars;
use crate::model::transport::Transport;
use crate::play::staircase::StairStep;
use crate::results::record::{Tokens, TrialRecord};
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::Arc;

/// A trial to start: the driver plays it ([`Session::trial_run`] and
/// [`crate::batch::runner::play_trial`]) and reports its end with
/// [`Session::ended`], passing `generation` back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Start {
    /// The trial's id in the scheduler.
    pub id: String,
    /// Which trial of the design.
    pub key: TrialKey,
    /// The generation it was started in (bumped by cancel).
    pub generation: u32,
}

/// A record to save: the driver stores it and reports the outcome with
/// [`Session::saved`], handing the `Save` back.
#[derive(Clone, Debug, PartialEq)]
pub struct Save {
    /// The trial's id in the scheduler.
    pub id: String,
    /// The record.
    pub record: TrialRecord,
    /// The generation of the task that played it.
    pub generation: u32,
    /// Whether it is a record held after an earlier failed save (saved before any new
    /// trial starts).
    pub held: bool,
}

/// Something the session says to the person running it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Notice {
    /// The run was paused.
    Paused,
    /// The run was cancelled; this many trials in flight were stopped.
    Cancelled(usize),
    /// This many trials that ended as API errors are run again.
    RerunningErrors(usize),
    /// A staircase keeps its trials that ended as API errors (this many): its walks
    /// have moved on from them.
    StairErrorsKept(usize),
    /// Every walk of a staircase has played its trials; this many (at least one) ended as
    /// API errors, which a staircase keeps.
    StairComplete {
        /// Trials that ended as API errors.
        api_errors: usize,
    },
    /// Every trial is stored; this many ended as API errors, and so many replies asked
    /// for a form were not held.
    Complete {
        /// Trials that ended as API errors.
        api_errors: usize,
        /// The replies asked for a form, and those not held.
        forms: FormsHeld,
    },
    /// A trial cannot be played (the design cannot play its key); the run is paused.
    TrialFailed {
        /// The trial's id.
        id: String,
        /// Why.
        error: TrialError,
    },
    /// A record could not be saved; the run is paused and the records are held.
    SaveFailed {
        /// What storage said.
        error: String,
        /// How many finished records are held now.
        held: usize,
    },
    /// The next trial would pass the design's cost limit; the run is paused before it.
    CostLimit {
        /// Dollars spent by the stored trials (and expected of those in flight).
        spent: String,
        /// The limit.
        limit: String,
        /// What the next trial is expected to cost, and whose it is.
        next: String,
    },
}

impl Notice {
    /// Whether it reports a failure.
    pub fn is_error(&self) -> bool {
        matches!(
            self,
            Notice::TrialFailed { .. } | Notice::SaveFailed { .. } | Notice::CostLimit { .. }
        )
    }

    /// The sentence the experiment page shows.
    pub fn text(&self) -> String {
        match self {
            Notice::Paused => {
                "Paused: no new trials start; those in flight finish and are kept.".into()
            }
            Notice::Cancelled(n) => format!(
                "Cancelled: {n} trials in flight were stopped and will rerun from their start when you resume; every finished trial is kept."
            ),
            Notice::RerunningErrors(n) => format!(
                "Rerunning the {n} trials that ended as API errors; their records are replaced as they finish."
            ),
            Notice::StairErrorsKept(n) => format!(
                "A staircase does not rerun its {n} trials that ended as API errors: each walk has moved on from them (an API error keeps the walk's level and counts as one of its trials). Start a new run to walk again."
            ),
            Notice::StairComplete { api_errors } => format!(
                "The run is complete: every walk has played its trials; {api_errors} ended as API errors (not model failures: each kept its walk's level, and a staircase does not rerun them). Download the results with the buttons below the design (ZIP, CSV or JSONL)."
            ),
            Notice::Complete { api_errors, forms } => {
                let mut text = match api_errors {
                    0 => "The run is complete: every trial is stored. Download the results with the buttons below the design (ZIP, CSV or JSONL).".to_string(),
                    n => format!(
                        "The run is complete: every trial is stored; {n} ended as API errors (not model failures): rerun them with the button above, or download the results as they are."
                    ),
                };
                if let Some(s) = forms.sentence() {
                    text.push(' ');
                    text.push_str(&s);
                }
                text
            }
            Notice::TrialFailed { id, error } => {
                format!("Trial {id} cannot be played: {error}. The run is paused.")
            }
            Notice::SaveFailed { error, held } => format!(
                "Could not save a finished trial ({error}). The run is paused and {held} finished trials are held in this tab: free some space (or allow site data), then press Resume to save them; do not close the tab."
            ),
            Notice::CostLimit { spent, limit, next } => format!(
                "Paused at the cost limit: {spent} spent of {limit}, and the next trial ({next}) would pass it. Every finished trial is kept; raise the design's cost limit to go on."
            ),
        }
    }
}

/// What the driver is to do.
#[derive(Clone, Debug, PartialEq)]
pub enum Effect {
    /// Start playing a trial.
    Start(Start),
    /// Save a finished trial's record (boxed: a record is large).
    Save(Box<Save>),
    /// Call [`Session::wake`] with this time (ms) when it comes: the next trial may start
    /// then (a requests-per-minute limit or a server's `Retry-After`).
    WakeAt(f64),
    /// Abort the calls of every trial started in a generation before this one.
    AbortBefore(u32),
    /// Tell the person.
    Say(Notice),
}

/// One run of an experiment (or of a shard of it).
pub struct Session {
    design: Rc<ExperimentDesign>,
    scheduler: Rc<RefCell<Scheduler>>,
    keys: HashMap<String, String>,
    generation: u32,
    /// Trials started and not yet reported ended (or saved), with their generation.
    in_flight: Vec<(String, u32)>,
    /// Finished records whose save failed, saved first on resume.
    held: Vec<TrialRecord>,
    /// A held record is being saved: nothing new starts until it is.
    saving_held: bool,
    /// The wake-up asked for and not yet come (infinity when none).
    timer: f64,
    /// Whether completion was said since the last resume.
    told_complete: bool,
    /// What the run has spent and is expected to spend.
    costs: Costs,
    /// A staircase design's walks in this run (empty without one).
    stairs: Vec<Track>,
    /// Where each staircase trial handed out stands in its walk, by id.
    steps: Vec<(String, StairStep)>,
}

/// Dollars spent by stored trials, by player, and what a player's next trial is expected
/// to cost: the mean of its trials so far, else the design's cautious estimate.
///
/// (Lists, not maps: a handful of players and trials in flight, and a map's code costs
/// the browser build.)
#[derive(Clone, Debug, Default)]
struct Costs {
    limit: Option<f64>,
    spent: f64,
    /// Per player: dollars and trials so far.
    seen: Vec<(String, f64, usize)>,
    estimated: Vec<(String, f64)>,
    /// Trials in flight (id and generation: a cancelled trial's task may still be ending
    /// when the same trial starts again) and what each is expected to cost.
    committed: Vec<(String, u32, f64)>,
}

impl Costs {
    fn expected(&self, player: &str) -> f64 {
        match self.seen.iter().find(|(p, _, _)| p == player) {
            Some(&(_, sum, n)) if n > 0 => sum / n as f64,
            _ => self
                .estimated
                .iter()
                .find(|(p, _)| p == player)
                .map_or(0.0, |(_, c)| *c),
        }
    }

    /// Counts what `record` cost: at its own price, else (a record written before the run
    /// was given prices) at `design`'s price for its player.
    fn add(&mut self, record: &TrialRecord, design: &ExperimentDesign) {
        let priced_now = || {
            let price = design.player(&record.model)?.price?;
            let t = Tokens::of(record)?;
            Some(price.cost(t.prompt, t.completion, t.reasoning))
        };
        // A transcribed trial's transcription calls are paid for too (counted apart in
        // the analysis, not in what the limit keeps).
        let transcribed = crate::results::forms::transcription_cost(record).unwrap_or(0.0);
        if let Some(c) = record.cost().or_else(priced_now).map(|c| c + transcribed) {
            self.spent += c;
            match self.seen.iter_mut().find(|(p, _, _)| *p == record.model) {
                Some((_, sum, n)) => {
                    *sum += c;
                    *n += 1;
                }
                None => self.seen.push((record.model.clone(), c, 1)),
            }
        }
    }

    fn committed(&self) -> f64 {
        self.committed.iter().map(|(_, _, c)| c).sum()
    }

    fn release(&mut self, id: &str, generation: u32) {
        self.committed
            .retain(|(i, g, _)| !(i == id && *g == generation));
    }
}

impl Session {
    /// A session over `keys` (a design's trials, or a shard's), each player's lane at the
    /// design's concurrency or at most `concurrency`. It starts running: call
    /// [`Session::pause`] for a session that waits for a click.
    pub fn new(design: &ExperimentDesign, keys: Vec<TrialKey>, concurrency: Option<usize>) -> Self {
        // A staircase's walks whose first trial this run plays (all of them, or a shard's).
        let (stairs, steps): (Vec<Track>, Vec<(String, StairStep)>) = design
            .tracks()
            .into_iter()
            .filter_map(|t| {
                let (key, step) = design.stair_next(&t)?;
                keys.contains(&key).then(|| (t, (key.id(), step)))
            })
            .unzip();
        let scheduler = Scheduler::new(keys, lanes_for(design, concurrency), Tuning::default());
        let mut session = Session {
            design: Rc::new(design.clone()),
            scheduler: Rc::new(RefCell::new(scheduler)),
            keys: HashMap::new(),
            generation: 0,
            in_flight: Vec::new(),
            held: Vec::new(),
            saving_held: false,
            timer: f64::INFINITY,
            told_complete: false,
            costs: Costs {
                limit: design.cost_limit,
                ..Costs::default()
            },
            stairs,
            steps,
        };
        session.plan();
        session
    }

    /// Tells the scheduler how many staircase trials each player has still to come: per
    /// walk, its trials less those played and the one handed out.
    fn plan(&mut self) {
        let Some(s) = self.design.staircase else {
            return;
        };
        let mut per_player: Vec<(String, usize)> = Vec::new();
        for t in &self.stairs {
            let left = s.trials.saturating_sub(t.walk.steps() + 1);
            match per_player.iter_mut().find(|(p, _)| *p == t.player) {
                Some((_, n)) => *n += left,
                None => per_player.push((t.player.clone(), left)),
            }
        }
        let mut sched = self.scheduler.borrow_mut();
        for (player, n) in per_player {
            sched.set_planned(&player, n);
        }
    }

    /// Moves a staircase walk on by its stored trial `record`, and hands out the walk's
    /// next trial.
    fn advance(&mut self, record: &TrialRecord) {
        let Some(step) = record.staircase else {
            return;
        };
        let design = self.design.clone();
        let Some(track) = self.stairs.iter_mut().find(|t| {
            t.player == record.model && t.encoding == record.encoding && t.walk.steps() == step.step
        }) else {
            return;
        };
        design.stair_record(track, walk_outcomes(record));
        if let Some((key, step)) = design.stair_next(track) {
            self.steps.push((key.id(), step));
            self.scheduler.borrow_mut().add(key);
        }
        self.plan();
    }

    /// What each player's trial is expected to cost before one has finished, in dollars
    /// (the design's estimate, [`ExperimentDesign::estimate`]).
    pub fn expect_costs(&mut self, per_trial: impl IntoIterator<Item = (String, f64)>) {
        self.costs.estimated = per_trial.into_iter().collect();
    }

    /// Changes the cost limit (none: no limit), for a run paused at it.
    pub fn set_cost_limit(&mut self, limit: Option<f64>) {
        self.costs.limit = limit;
    }

    /// Dollars spent by the trials stored in this run (and restored into it), at the
    /// players' prices.
    pub fn spent(&self) -> f64 {
        self.costs.spent
    }

    /// Counts stored records as done (a resumed run); returns how many matched a trial.
    pub fn restore<'a>(&mut self, records: impl IntoIterator<Item = &'a TrialRecord>) -> usize {
        let records: Vec<&TrialRecord> = records.into_iter().collect();
        for r in &records {
            self.costs.add(r, &self.design);
        }
        if self.design.staircase.is_none() {
            return self
                .scheduler
                .borrow_mut()
                .restore(records.into_iter().map(TrialSummary::of));
        }
        // A staircase: replay each walk of this run from its stored trials, count those
        // as done, and hand out each walk's next trial.
        let walked = self.design.stair_tracks(records.iter().copied());
        let mut sched = self.scheduler.borrow_mut();
        let mut taken = 0;
        for track in &mut self.stairs {
            let Some((done, used)) = walked
                .iter()
                .find(|(w, _)| w.player == track.player && w.encoding == track.encoding)
            else {
                continue;
            };
            for r in used {
                sched.add(TrialKey::of_record(r));
            }
            taken += sched.restore(used.iter().map(|r| TrialSummary::of(r)));
            *track = done.clone();
            if let Some((key, step)) = self.design.stair_next(track) {
                self.steps.push((key.id(), step));
                sched.add(key);
            }
        }
        drop(sched);
        self.plan();
        taken
    }

    /// The design.
    pub fn design(&self) -> &Rc<ExperimentDesign> {
        &self.design
    }

    /// The API keys by player name (read again at every start and resume).
    pub fn set_keys(&mut self, keys: HashMap<String, String>) {
        self.keys = keys;
    }

    /// The run's progress at `now`.
    pub fn progress(&self, now: f64) -> Progress {
        self.scheduler.borrow().progress(now)
    }

    /// Each lane's state at `now`.
    pub fn lanes(&self, now: f64) -> Vec<LaneStatus> {
        self.scheduler.borrow_mut().lanes(now)
    }

    /// Finished records held after a failed save.
    pub fn held(&self) -> usize {
        self.held.len()
    }

    /// Finished records not saved yet: those held, and the held one being saved now.
    pub fn unsaved(&self) -> usize {
        self.held.len() + usize::from(self.saving_held)
    }

    /// Whether the run is under way: running with trials left or in flight.
    pub fn running(&self, now: f64) -> bool {
        let p = self.progress(now);
        p.state == RunState::Running
            && (p.overall.done < p.overall.total || p.overall.in_flight > 0)
    }

    /// Trials done and saved.
    pub fn stored(&self, now: f64) -> usize {
        let done = self.progress(now).overall.done;
        done - self.unsaved().min(done)
    }

    /// Why the session cannot be left now (a run under way, trials in flight, records not
    /// saved yet), if it cannot.
    pub fn busy(&self, now: f64) -> Option<String> {
        if self.running(now) {
            return Some("Pause or cancel the run under way first.".into());
        }
        if self.unsaved() > 0 {
            return Some(format!(
                "{} finished trials are not saved yet: press Resume to save them first.",
                self.unsaved()
            ));
        }
        (!self.in_flight.is_empty())
            .then(|| "Trials are still finishing after the pause: wait a moment.".into())
    }

    /// What one trial needs to be played: its design, the scheduler (asked before each
    /// later call, told of retries), its size's library, its player's key and `transport`.
    pub fn trial_run<T: Transport>(
        &self,
        start: &Start,
        library: Arc<TemplateLibrary>,
        transport: T,
        on_retry: Option<Rc<dyn Fn()>>,
    ) -> TrialRun<T> {
        TrialRun {
            design: self.design.clone(),
            scheduler: self.scheduler.clone(),
            library,
            api_key: self
                .keys
                .get(&start.key.player)
                .cloned()
                .unwrap_or_default(),
            transport,
            on_retry,
        }
    }

    /// Starts (or goes on) after a pause or a cancel, first saving the records held after
    /// a failed save; with `rerun_errors`, the trials that ended as API errors run again.
    pub fn resume(&mut self, now: f64, rerun_errors: bool) -> Vec<Effect> {
        let mut out = Vec::new();
        {
            let mut s = self.scheduler.borrow_mut();
            if rerun_errors && self.design.staircase.is_some() {
                let n = s.progress(now).overall.api_errors;
                out.push(Effect::Say(Notice::StairErrorsKept(n)));
            } else if rerun_errors {
                let n = s.requeue_errors().len();
                out.push(Effect::Say(Notice::RerunningErrors(n)));
            }
            s.resume(now);
        }
        self.told_complete = false;
        out.extend(self.next_held_or_pump(now));
        out
    }

    /// No new starts; trials in flight finish and are kept.
    pub fn pause(&mut self, now: f64) -> Vec<Effect> {
        self.scheduler.borrow_mut().pause(now);
        vec![Effect::Say(Notice::Paused)]
    }

    /// No new starts, and the trials in flight are stopped, to be rerun from their start
    /// on resume.
    pub fn cancel(&mut self, now: f64) -> Vec<Effect> {
        let cut = self.scheduler.borrow_mut().cancel(now);
        self.generation += 1;
        vec![
            Effect::AbortBefore(self.generation),
            Effect::Say(Notice::Cancelled(cut.len())),
        ]
    }

    /// A wake-up asked for with [`Effect::WakeAt`] has come.
    pub fn wake(&mut self, at: f64, now: f64) -> Vec<Effect> {
        if self.timer == at {
            self.timer = f64::INFINITY;
        }
        self.pump(now)
    }

    /// A trial's task ended: with its record, with nothing (it was stopped), or with an
    /// error (the design cannot play it).
    pub fn ended(
        &mut self,
        start: &Start,
        result: Result<Option<TrialRecord>, TrialError>,
        now: f64,
    ) -> Vec<Effect> {
        let current = start.generation == self.generation;
        let slot = (start.id.clone(), start.generation);
        // The money is spent once the trial has played, saved or not, current or not.
        self.costs.release(&start.id, start.generation);
        if let Ok(Some(record)) = &result {
            self.costs.add(record, &self.design);
        }
        match result {
            Ok(Some(mut record)) if current && self.scheduler.borrow().is_running(&start.id) => {
                record.staircase = self
                    .steps
                    .iter()
                    .find(|(id, _)| *id == start.id)
                    .map(|(_, step)| *step);
                // Still in flight until it is saved.
                vec![Effect::Save(Box::new(Save {
                    id: start.id.clone(),
                    record,
                    generation: start.generation,
                    held: false,
                }))]
            }
            Ok(_) => {
                self.in_flight.retain(|s| *s != slot);
                if current {
                    self.scheduler
                        .borrow_mut()
                        .finish(&start.id, TrialEnd::Interrupted, now);
                }
                self.pump(now)
            }
            Err(error) => {
                self.in_flight.retain(|s| *s != slot);
                if current {
                    let mut s = self.scheduler.borrow_mut();
                    s.finish(&start.id, TrialEnd::Interrupted, now);
                    s.pause(now);
                }
                let mut out = vec![Effect::Say(Notice::TrialFailed {
                    id: start.id.clone(),
                    error,
                })];
                out.extend(self.pump(now));
                out
            }
        }
    }

    /// A save asked for with [`Effect::Save`] finished (`Err`: the storage's error, shown
    /// as it says itself).
    pub fn saved<E: std::fmt::Display>(
        &mut self,
        save: Box<Save>,
        result: Result<(), E>,
        now: f64,
    ) -> Vec<Effect> {
        let mut out = Vec::new();
        let summary = TrialSummary::of(&save.record);
        // A staircase's trial moves its walk on once it counts, saved or held.
        let walked = save.record.staircase.is_some().then(|| save.record.clone());
        if let Err(error) = result {
            if save.held {
                self.held.insert(0, save.record);
            } else {
                self.held.push(save.record);
            }
            if save.held {
                self.saving_held = false;
            }
            self.scheduler.borrow_mut().pause(now);
            out.push(Effect::Say(Notice::SaveFailed {
                error: error.to_string(),
                held: self.unsaved(),
            }));
            if save.held {
                return out;
            }
        }
        if save.held {
            self.saving_held = false;
            out.extend(self.next_held_or_pump(now));
            return out;
        }
        self.in_flight
            .retain(|(id, g)| !(*id == save.id && *g == save.generation));
        let counted = if save.generation == self.generation {
            self.scheduler
                .borrow_mut()
                .finish(&save.id, TrialEnd::Done(summary), now)
        } else {
            // Cancelled while it was being saved: it is stored, so it counts as done
            // unless a resumed run has started it again (then that run's replaces it).
            self.scheduler.borrow_mut().restore([summary]) == 1
        };
        if let Some(record) = walked.filter(|_| counted) {
            self.advance(&record);
        }
        out.extend(self.pump(now));
        out
    }

    /// The next held record to save, or (none held) the trials that may start now.
    fn next_held_or_pump(&mut self, now: f64) -> Vec<Effect> {
        if self.saving_held {
            return Vec::new();
        }
        match (!self.held.is_empty()).then(|| self.held.remove(0)) {
            Some(record) => {
                self.saving_held = true;
                let id = TrialKey::of_record(&record).id();
                vec![Effect::Save(Box::new(Save {
                    id,
                    record,
                    generation: self.generation,
                    held: true,
                }))]
            }
            None => self.pump(now),
        }
    }

    /// Every trial the scheduler allows now, and a wake-up for the next.
    pub fn pump(&mut self, now: f64) -> Vec<Effect> {
        let mut out = Vec::new();
        if self.saving_held {
            return out;
        }
        loop {
            let next = self.scheduler.borrow_mut().next(now);
            match next {
                Next::Start(a) => {
                    let expected = self.costs.expected(&a.key.player);
                    if let Some(limit) = self.costs.limit {
                        let committed = self.costs.committed();
                        if expected > 0.0 && self.costs.spent + committed + expected > limit {
                            let mut s = self.scheduler.borrow_mut();
                            s.finish(&a.id, TrialEnd::Interrupted, now);
                            if committed > 0.0 && self.costs.spent + expected <= limit {
                                // It may fit once the trials in flight have shown what
                                // they cost: wait for them.
                                break;
                            }
                            s.pause(now);
                            out.push(Effect::Say(Notice::CostLimit {
                                spent: dollars(self.costs.spent + committed),
                                limit: dollars(limit),
                                next: format!("{}, about {}", a.key.player, dollars(expected)),
                            }));
                            break;
                        }
                    }
                    self.costs
                        .committed
                        .push((a.id.clone(), self.generation, expected));
                    self.in_flight.push((a.id.clone(), self.generation));
                    out.push(Effect::Start(Start {
                        id: a.id,
                        key: a.key,
                        generation: self.generation,
                    }));
                }
                Next::WaitUntil(at) => {
                    // One wake-up at a time, unless this one comes before the armed one.
                    if at < self.timer {
                        self.timer = at;
                        out.push(Effect::WakeAt(at));
                    }
                    break;
                }
                Next::Wait | Next::Stopped => break,
                Next::Done => {
                    if self.held.is_empty() && self.in_flight.is_empty() && !self.told_complete {
                        self.told_complete = true;
                        let overall = self.progress(now).overall;
                        out.push(Effect::Say(match overall.api_errors {
                            n if n > 0 && self.design.staircase.is_some() => {
                                Notice::StairComplete { api_errors: n }
                            }
                            api_errors => Notice::Complete {
                                api_errors,
                                forms: overall.forms,
                            },
                        }));
                    }
                    break;
                }
            }
        }
        out
    }

    /// Whether every trial is done and saved.
    pub fn complete(&self, now: f64) -> bool {
        let p = self.progress(now);
        p.overall.done == p.overall.total && self.unsaved() == 0 && self.in_flight.is_empty()
    }
}

#[cfg(test)]
#[path = "session_tests.rs"]
mod tests;
