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
//! use shapemaze::core::batch::design::ExperimentDesign;
//! use shapemaze::core::batch::session::{Effect, Session};
//!
//! let design = ExperimentDesign::default();
//! let mut session = Session::new(&design, design.trials(), None);
//! let effects = session.resume(0.0, false);
//! assert!(matches!(effects[0], Effect::Start(_)), "the first trials start");
//! ```

use crate::core::batch::design::{ExperimentDesign, TrialKey};
use crate::core::batch::runner::{lanes_for, TrialError, TrialRun};
use crate::core::batch::scheduler::{
    LaneStatus, Next, Progress, RunState, Scheduler, TrialEnd, TrialSummary, Tuning,
};
use crate::core::maze::templates::TemplateLibrary;
use crate::core::model::price::dollars;
use crate::core::model::transport::Transport;
use crate::core::results::record::{Tokens, TrialRecord};
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::Arc;

/// A trial to start: the driver plays it ([`Session::trial_run`] and
/// [`crate::core::batch::runner::play_trial`]) and reports its end with
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
    /// Every trial is stored; this many ended as API errors.
    Complete {
        /// Trials that ended as API errors.
        api_errors: usize,
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
            Notice::Complete { api_errors: 0 } => "The run is complete: every trial is stored. Download the results with the buttons above.".into(),
            Notice::Complete { api_errors } => format!(
                "The run is complete: every trial is stored; {api_errors} ended as API errors (not model failures): rerun them with the button above, or download the results as they are."
            ),
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
        if let Some(c) = record.cost().or_else(priced_now) {
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
        let scheduler = Scheduler::new(keys, lanes_for(design, concurrency), Tuning::default());
        Session {
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
        }
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
        self.scheduler
            .borrow_mut()
            .restore(records.into_iter().map(TrialSummary::of))
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
    fn unsaved(&self) -> usize {
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
            if rerun_errors {
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
            Ok(Some(record)) if current && self.scheduler.borrow().is_running(&start.id) => {
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

    /// A save asked for with [`Effect::Save`] finished (`Err`: what storage said).
    pub fn saved(&mut self, save: Box<Save>, result: Result<(), String>, now: f64) -> Vec<Effect> {
        let mut out = Vec::new();
        let summary = TrialSummary::of(&save.record);
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
                error,
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
        if save.generation == self.generation {
            self.scheduler
                .borrow_mut()
                .finish(&save.id, TrialEnd::Done(summary), now);
        } else {
            // Cancelled while it was being saved: it is stored, so it counts as done
            // unless a resumed run has started it again (then that run's replaces it).
            self.scheduler.borrow_mut().restore([summary]);
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
                        let api_errors = self.progress(now).overall.api_errors;
                        out.push(Effect::Say(Notice::Complete { api_errors }));
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
mod tests {
    use super::*;
    use crate::core::batch::design::PlayerSpec;
    use crate::core::batch::runner::play_trial;
    use crate::core::maze::shape::{Shape, ShapeSet};
    use crate::core::model::scripted::{Scripted, ScriptedTransport};
    use crate::core::model::transport::block_on;
    use crate::core::play::player::PlayerKind;
    use crate::core::results::rescore::Libraries;

    /// A native driver: plays every start to its end at once, stores saves in a list
    /// (failing the ones `fail_save` says), and keeps what was said.
    struct Driver {
        session: Session,
        libraries: Libraries,
        stored: Vec<TrialRecord>,
        said: Vec<Notice>,
        wakes: Vec<f64>,
        fail_save: Box<dyn FnMut(&Save) -> bool>,
        transport: Box<dyn Fn() -> ScriptedTransport>,
        /// Starts not yet played (a driver with trials in flight).
        pending: Vec<Start>,
        hold: bool,
        now: f64,
    }

    impl Driver {
        fn new(design: &ExperimentDesign) -> Driver {
            let mut session = Session::new(design, design.trials(), None);
            session.pause(0.0);
            Driver {
                session,
                libraries: Libraries::new(),
                stored: Vec::new(),
                said: Vec::new(),
                wakes: Vec::new(),
                fail_save: Box::new(|_| false),
                transport: Box::new(|| ScriptedTransport::new(Vec::new())),
                pending: Vec::new(),
                hold: false,
                now: 0.0,
            }
        }

        fn run(&mut self, mut effects: Vec<Effect>) {
            while let Some(e) = (!effects.is_empty()).then(|| effects.remove(0)) {
                self.now += 1.0;
                let more = match e {
                    Effect::Start(s) if self.hold => {
                        self.pending.push(s);
                        Vec::new()
                    }
                    Effect::Start(s) => self.play(s),
                    Effect::Save(save) => {
                        let fail = (self.fail_save)(&save);
                        if !fail {
                            self.stored.push(save.record.clone());
                        }
                        let result = if fail {
                            Err("quota exceeded".into())
                        } else {
                            Ok(())
                        };
                        self.session.saved(save, result, self.now)
                    }
                    Effect::WakeAt(at) => {
                        self.wakes.push(at);
                        self.now = self.now.max(at);
                        self.session.wake(at, self.now)
                    }
                    Effect::AbortBefore(_) => Vec::new(),
                    Effect::Say(n) => {
                        self.said.push(n);
                        Vec::new()
                    }
                };
                effects.extend(more);
            }
        }

        fn play(&mut self, s: Start) -> Vec<Effect> {
            let shapes = self.session.design().shape_set();
            let library = self.libraries.get(s.key.size, shapes).clone();
            let run = self
                .session
                .trial_run(&s, library, (self.transport)(), None);
            let result = block_on(play_trial(run, s.id.clone(), s.key.clone()));
            self.session.ended(&s, result, self.now)
        }
    }

    fn small(kinds: &[PlayerKind]) -> ExperimentDesign {
        ExperimentDesign {
            players: kinds.iter().map(|&k| PlayerSpec::builtin(k)).collect(),
            shapes: vec![Shape::Square, Shape::Cross],
            samples_per_shape: 2,
            ..ExperimentDesign::default()
        }
    }

    #[test]
    fn a_run_plays_every_trial_saves_each_once_and_says_it_is_complete() {
        let design = small(&[PlayerKind::Oracle, PlayerKind::Random]);
        let mut d = Driver::new(&design);
        let effects = d.session.resume(0.0, false);
        d.run(effects);
        assert_eq!(d.stored.len(), design.trials().len());
        let mut ids: Vec<String> = d
            .stored
            .iter()
            .map(|r| TrialKey::of_record(r).id())
            .collect();
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), design.trials().len(), "each trial saved once");
        assert_eq!(d.said, vec![Notice::Complete { api_errors: 0 }]);
        assert!(d.session.complete(d.now));
        assert_eq!(d.session.busy(d.now), None);
        assert_eq!(d.session.stored(d.now), design.trials().len());
    }

    #[test]
    fn a_design_with_u_plays_its_c_mazes_open_to_the_side_and_judges_u_answers_as_u() {
        let design = ExperimentDesign {
            shapes: vec![Shape::C, Shape::U, Shape::N],
            samples_per_shape: 10,
            ..small(&[PlayerKind::Oracle, PlayerKind::Random])
        };
        let mut d = Driver::new(&design);
        let effects = d.session.resume(0.0, false);
        d.run(effects);
        assert_eq!(d.stored.len(), design.trials().len());
        let in_play = ShapeSet::with(&[Shape::U, Shape::N]);
        let standard = TemplateLibrary::new(5);
        for r in &d.stored {
            assert_eq!(r.shapes, in_play, "the record keeps the shapes in play");
            let maze = r.first_maze().expect("a maze");
            let mask = maze.open_mask();
            match r.shape {
                // A C of this design is no U: it opens left or right, so it is a C in
                // every set.
                Shape::C => assert_eq!(standard.classify(&mask), Some(Shape::C)),
                // A U would be a C without the U in play; an N would be nothing.
                Shape::U => assert_eq!(standard.classify(&mask), Some(Shape::C)),
                Shape::N => assert_eq!(standard.classify(&mask), None),
                s => panic!("a {s} in a design of C, U and N"),
            }
            assert_eq!(
                TemplateLibrary::of_set(5, in_play).classify(&mask),
                Some(r.shape)
            );
            if r.model == "oracle" {
                assert!(r.verdicts.recognize.as_ref().is_some_and(|v| v.passed()));
                assert!(r.verdicts.generate.as_ref().is_some_and(|v| v.passed()));
            }
        }
        // The random player names the shapes in play, U and N among them.
        let named: std::collections::BTreeSet<Shape> =
            d.stored.iter().filter_map(|r| r.predicted_shape).collect();
        assert!(
            named.contains(&Shape::U) && named.contains(&Shape::N),
            "{named:?}"
        );
    }

    /// An answer that reports 1,000 prompt and 100 completion tokens.
    fn costly(content: &str) -> Scripted {
        let body = serde_json::json!({
            "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 1000, "completion_tokens": 100, "total_tokens": 1100},
        });
        Scripted::ok(body.to_string())
    }

    #[test]
    fn the_run_pauses_before_a_trial_that_would_pass_the_cost_limit() {
        let mut design = small(&[]);
        let mut p = PlayerSpec::endpoint("http://127.0.0.1:9/v1", "paid", None);
        p.max_attempts = 1;
        p.concurrency = Some(1);
        // $10 per million in, $100 out: a call costs 1000 x 10 + 100 x 100 = $0.02.
        p.price = Some(crate::core::model::price::Price {
            input: 10.0,
            output: 100.0,
            reasoning: None,
        });
        design.players.push(p);
        design.shapes = vec![Shape::Square];
        design.samples_per_shape = 4;
        design.encodings = vec![crate::core::maze::encoding::Encoding::Matrix];
        // Three calls a trial (a wrong move ends the solve; recognize; generate): $0.06.
        design.cost_limit = Some(0.15);
        assert!(design.validate().is_ok());
        let mut d = Driver::new(&design);
        d.session.expect_costs([("paid".to_string(), 0.05)]);
        d.transport = Box::new(|| {
            ScriptedTransport::new(
                ["Move: (0, 0)", "Shape: square", "no maze"]
                    .map(costly)
                    .into_iter()
                    .collect(),
            )
        });
        let effects = d.session.resume(0.0, false);
        d.run(effects);
        // Two trials cost $0.12; a third would cost $0.18 > $0.15.
        assert_eq!(d.stored.len(), 2, "{:?}", d.said);
        assert!(
            (d.session.spent() - 0.12).abs() < 1e-9,
            "{}",
            d.session.spent()
        );
        let notice = d.said.last().expect("a notice");
        assert!(
            matches!(notice, Notice::CostLimit { .. }) && notice.is_error(),
            "{notice:?}"
        );
        assert_eq!(
            notice.text(),
            "Paused at the cost limit: $0.12 spent of $0.15, and the next trial (paid, about $0.06) would pass it. Every finished trial is kept; raise the design's cost limit to go on."
        );
        assert!(!d.session.running(d.now), "paused");
        // Raised, the run goes on to the end; restored records count what they cost, at the
        // design's price when they were written without one.
        let mut again = Driver::new(&design);
        again.transport = d.transport;
        let mut unpriced = d.stored.clone();
        for r in &mut unpriced {
            if let Some(e) = r.endpoint.as_mut() {
                e.price = None;
            }
        }
        assert_eq!(again.session.restore(&unpriced), 2);
        assert!((again.session.spent() - 0.12).abs() < 1e-9);
        again.session.set_cost_limit(Some(1.0));
        let effects = again.session.resume(0.0, false);
        again.run(effects);
        assert_eq!(again.stored.len(), 2);
        assert!(again.said.contains(&Notice::Complete { api_errors: 0 }));
        // Before a trial has finished, the estimate says what one costs.
        let mut cautious = Driver::new(&design);
        cautious.session.expect_costs([("paid".to_string(), 0.2)]);
        let effects = cautious.session.resume(0.0, false);
        cautious.run(effects);
        assert!(
            cautious.stored.is_empty(),
            "not even the first: it may cost $0.20"
        );
    }

    #[test]
    fn a_resumed_run_plays_only_what_is_not_stored() {
        let design = small(&[PlayerKind::Oracle]);
        let mut first = Driver::new(&design);
        let effects = first.session.resume(0.0, false);
        first.run(effects);
        let half: Vec<TrialRecord> = first.stored[..3].to_vec();
        let mut d = Driver::new(&design);
        assert_eq!(d.session.restore(&half), 3);
        let effects = d.session.resume(0.0, false);
        d.run(effects);
        assert_eq!(d.stored.len(), design.trials().len() - 3);
    }

    #[test]
    fn a_failed_save_pauses_holds_the_record_and_resume_saves_it_first() {
        let design = small(&[PlayerKind::Oracle]);
        let mut d = Driver::new(&design);
        let mut saves = 0;
        d.fail_save = Box::new(move |_| {
            saves += 1;
            saves == 2
        });
        let effects = d.session.resume(0.0, false);
        d.run(effects);
        assert!(
            matches!(&d.said[..], [Notice::SaveFailed { held: 1, .. }]),
            "{:?}",
            d.said
        );
        assert!(d.said[0].is_error());
        assert_eq!(d.session.held(), 1);
        assert!(!d.session.running(d.now), "paused");
        assert_eq!(
            d.session.busy(d.now).as_deref(),
            Some("1 finished trials are not saved yet: press Resume to save them first.")
        );
        let stored_before = d.stored.len();
        let effects = d.session.resume(d.now, false);
        assert!(
            matches!(&effects[..], [Effect::Save(s)] if s.held),
            "the held record is saved before anything starts: {effects:?}"
        );
        d.run(effects);
        assert_eq!(d.session.held(), 0);
        assert_eq!(d.stored.len(), design.trials().len());
        assert!(d.stored.len() > stored_before);
        assert!(d.session.complete(d.now));
    }

    #[test]
    fn a_held_record_that_fails_again_stays_held_and_nothing_starts() {
        let design = small(&[PlayerKind::Oracle]);
        let mut d = Driver::new(&design);
        let broken = Rc::new(std::cell::Cell::new(true));
        d.fail_save = Box::new({
            let broken = broken.clone();
            move |_| broken.get()
        });
        let effects = d.session.resume(0.0, false);
        d.run(effects);
        let held = d.session.held();
        assert!(held > 0, "the trials in flight finished and are held");
        let effects = d.session.resume(d.now, false);
        d.run(effects);
        assert_eq!(d.session.held(), held, "failed again: still held");
        assert!(d.stored.is_empty(), "and nothing else ran meanwhile");
        broken.set(false);
        let effects = d.session.resume(d.now, false);
        d.run(effects);
        assert!(d.session.complete(d.now));
        assert_eq!(d.stored.len(), design.trials().len());
    }

    #[test]
    fn cancel_starts_a_new_generation_and_drops_what_the_old_one_returns() {
        let design = small(&[PlayerKind::Oracle]);
        let mut d = Driver::new(&design);
        d.hold = true;
        let effects = d.session.resume(0.0, false);
        d.run(effects);
        let in_flight = d.pending.len();
        assert!(in_flight > 0);
        let effects = d.session.cancel(d.now);
        assert_eq!(effects[0], Effect::AbortBefore(1));
        assert_eq!(effects[1], Effect::Say(Notice::Cancelled(in_flight)));
        // The old generation's tasks end with records: dropped, nothing saved.
        let old: Vec<Start> = d.pending.drain(..).collect();
        d.hold = false;
        for s in &old {
            let effects = d.play(s.clone());
            assert!(effects.iter().all(|e| !matches!(e, Effect::Save(_))));
        }
        assert!(d.stored.is_empty());
        let effects = d.session.resume(d.now, false);
        d.run(effects);
        assert_eq!(
            d.stored.len(),
            design.trials().len(),
            "rerun from their start"
        );
    }

    #[test]
    fn a_trial_the_design_cannot_play_pauses_the_run_and_says_why() {
        let mut design = small(&[PlayerKind::Oracle]);
        let mut d = Driver::new(&design);
        // The session plays keys of a player the design no longer has.
        design.players[0].name = Some("renamed".into());
        d.session.design = Rc::new(design);
        let effects = d.session.resume(0.0, false);
        d.run(effects);
        assert!(
            matches!(&d.said[0], Notice::TrialFailed { error: TrialError::NoPlayer(p), .. } if p == "oracle")
        );
        assert!(d.said[0].text().ends_with("The run is paused."));
        assert!(!d.session.running(d.now));
    }

    #[test]
    fn an_endpoint_player_plays_through_the_scripted_transport_with_its_key() {
        let mut design = small(&[]);
        let mut p = PlayerSpec::endpoint("http://127.0.0.1:9/v1", "scripted", None);
        p.max_attempts = 1;
        design.players.push(p);
        design.shapes = vec![Shape::Square];
        design.samples_per_shape = 1;
        let mut d = Driver::new(&design);
        d.session.set_keys(HashMap::from([(
            "scripted".to_string(),
            "sk-test".to_string(),
        )]));
        let first = Start {
            id: design.trials()[0].id(),
            key: design.trials()[0].clone(),
            generation: 0,
        };
        let lib = d.libraries.get(5, ShapeSet::STANDARD).clone();
        let run = d
            .session
            .trial_run(&first, lib, ScriptedTransport::new(Vec::new()), None);
        assert_eq!(
            run.api_key, "sk-test",
            "the player's key goes with its trials"
        );
        d.transport = Box::new(|| {
            ScriptedTransport::new(
                (0..40)
                    .map(|_| Scripted::answer("I cannot tell."))
                    .collect(),
            )
        });
        let effects = d.session.resume(0.0, false);
        d.run(effects);
        assert_eq!(d.stored.len(), design.trials().len());
        assert!(d.stored.iter().all(|r| r.model == "scripted"));
        assert_eq!(d.said, vec![Notice::Complete { api_errors: 0 }]);
    }

    #[test]
    fn rerunning_errors_says_how_many_and_pausing_says_so() {
        let design = small(&[PlayerKind::Oracle]);
        let mut d = Driver::new(&design);
        let effects = d.session.resume(0.0, true);
        assert_eq!(effects[0], Effect::Say(Notice::RerunningErrors(0)));
        assert_eq!(d.session.pause(1.0), vec![Effect::Say(Notice::Paused)]);
        assert!(!Notice::Paused.is_error());
    }

    #[test]
    fn a_held_save_in_progress_keeps_new_starts_waiting_and_the_session_busy() {
        let design = small(&[PlayerKind::Oracle]);
        let mut d = Driver::new(&design);
        let starts: Vec<Start> = d
            .session
            .resume(0.0, false)
            .into_iter()
            .filter_map(|e| match e {
                Effect::Start(s) => Some(s),
                _ => None,
            })
            .collect();
        assert!(starts.len() >= 2, "two trials in flight");
        let save_of = |effects: Vec<Effect>| -> Box<Save> {
            effects
                .into_iter()
                .find_map(|e| match e {
                    Effect::Save(s) => Some(s),
                    _ => None,
                })
                .expect("a save")
        };
        // A's save fails: held, paused.
        let a = save_of(d.play(starts[0].clone()));
        d.session.saved(a, Err("full".into()), 1.0);
        // Resume starts saving A again; it is still being saved.
        let a_again = save_of(d.session.resume(2.0, false));
        assert!(a_again.held);
        assert!(
            d.session.busy(2.0).is_some(),
            "a held record is being saved"
        );
        assert!(!d.session.complete(2.0));
        // B, in flight since before the pause, ends and its save fails too.
        let b = save_of(d.play(starts[1].clone()));
        d.session.saved(b, Err("full".into()), 3.0);
        // Resume again: nothing new starts, and B waits behind A.
        let effects = d.session.resume(4.0, false);
        assert!(
            effects
                .iter()
                .all(|e| !matches!(e, Effect::Start(_) | Effect::Save(_))),
            "{effects:?}"
        );
        // A is saved: B's save comes next, still before any start.
        let next = d.session.saved(a_again, Ok(()), 5.0);
        assert!(matches!(&next[..], [Effect::Save(s)] if s.held), "{next:?}");
    }
}
