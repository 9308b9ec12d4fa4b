//! A participant's session: where they are in the study, what they consented to, what
//! happened to the session (its log), and what a return to the study's link does with the
//! session saved before: the study's resume policy.
//!
//! On every load of the link the page calls [`StudySession::open`] with the session saved
//! in the browser, if any. A session that is over (completed, declined, timed out) is shown
//! as it ended, and one still at the consent page is simply taken up again. Otherwise:
//! 1. consent given to another version of the study (`version`) starts a new attempt
//!    (`version_changed`);
//! 2. a session older than `resume.max_age_minutes` (from its start) starts a new attempt
//!    (`expired`);
//! 3. else the policy decides: `resume` takes it up where it was (`resumed`), `restart`
//!    starts a new attempt (`restarted`), `block` ends the visit with a page that says so
//!    (`blocked`, the session and its data are kept). A reload of the tab that had the
//!    study open is no return: it resumes whatever the policy (`reloaded`);
//! 4. then the study's time limit is checked (`timed_out`).
//!
//! A new attempt keeps the earlier attempts' data (stored apart, [`StudySession::this_attempt`],
//! uploaded with the rest, [`StudyTrialData::attempt`](super::StudyTrialData::attempt)) and
//! the log.

#[cfg(doc)]
use super::file::TimeLimits;
use super::file::{ResumePolicy, Study, StudyTrial};
use super::key::{Attempt, StudyKey, Who};
use super::participant::{fnv1a, Participant};
use crate::play::condition::Condition;
use crate::play::staircase::StairStep;
use crate::text::Fixed;
use serde::{Deserialize, Serialize};

/// Where a participant is in a study.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stage {
    /// Reading the consent text.
    Consent,
    /// Consent declined: the study ends and no data is kept.
    Declined,
    /// Reading the instructions.
    Instructions,
    /// Playing the practice trial (never scored).
    Practice,
    /// Playing scored trial `n` of the participant's order (0-based).
    Trial(usize),
    /// Done: the data is being saved or was saved.
    Complete,
    /// The study's time limit ran out ([`TimeLimits::study`]): the data so far is saved
    /// as for a completed study, and the `timed_out` outcome follows.
    TimedOut,
}

impl Stage {
    /// Whether the study is over for this participant (completed, declined or timed out).
    pub fn is_final(self) -> bool {
        matches!(self, Stage::Complete | Stage::Declined | Stage::TimedOut)
    }
}

/// One thing that happened to a participant's session: `started`, `resumed`, `restarted`,
/// `expired`, `version_changed`, `blocked`, `timed_out`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SessionEvent {
    /// When, in milliseconds since 1970 (the participant's clock).
    pub at_ms: f64,
    /// What happened.
    pub kind: String,
    /// Details for people ("version 1 to 2", "after 130 minutes").
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub detail: String,
}

/// What the page shows on opening the study's link.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opening {
    /// The session, at its stage.
    Continue,
    /// The study's policy does not let this participant go on.
    Blocked,
}

/// What a participant consented to, and when: kept with their session and with every
/// trial's data.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ConsentRecord {
    /// When consent was given, in milliseconds since 1970 (the participant's clock).
    pub at_ms: f64,
    /// The study's version then ([`Study::version`]).
    pub study_version: String,
    /// A hash of the consent text shown (FNV-1a, 64 bits, hexadecimal): the same text
    /// gives the same hash, so a changed text is seen in the data.
    pub text_hash: String,
}

impl ConsentRecord {
    /// Consent to `study`'s text given at `at_ms`.
    pub fn of(study: &Study, at_ms: f64) -> ConsentRecord {
        ConsentRecord {
            at_ms,
            study_version: study.version.clone(),
            text_hash: format!("{:016x}", fnv1a(study.consent.as_bytes())),
        }
    }
}

/// A participant's progress through a study, saved after every step so a reload resumes
/// exactly there.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StudySession {
    /// The study's storage name (its file name, or `inline-HASH` for a study in the link).
    pub study: String,
    /// Who.
    pub participant: Participant,
    /// The scored trials in this participant's order; in a staircase study, those of the
    /// walk so far (the next is added when a trial finishes).
    pub order: Vec<StudyTrial>,
    /// In a staircase study, the level of each trial of `order`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub stair_levels: Vec<usize>,
    /// In a staircase study, whether each finished scored trial succeeded by the
    /// staircase's phase: the walk is rebuilt from these.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub stair_outcomes: Vec<bool>,
    /// Where they are.
    pub stage: Stage,
    /// Whether the trial of the current stage is finished (waiting for "continue").
    #[serde(default)]
    pub trial_done: bool,
    /// The consent given, once given.
    #[serde(default)]
    pub consent: Option<ConsentRecord>,
    /// Which attempt at the study this is (0 first; a restart, an expired session or a new
    /// study version starts the next).
    #[serde(default)]
    pub attempt: u32,
    /// When the session (this attempt) started, in milliseconds since 1970.
    #[serde(default)]
    pub started_ms: Option<f64>,
    /// What happened to the session, in order, over every attempt.
    #[serde(default)]
    pub events: Vec<SessionEvent>,
    /// How this participant is shown the mazes, assigned when the session began (or by
    /// the server at consent) and kept across reloads, returns and new attempts; none in
    /// sessions from before it was kept ([`StudySession::condition`] then computes it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub condition: Option<Condition>,
}

impl StudySession {
    /// A new participant at the consent page at `now_ms`, with their counterbalanced order
    /// (in a staircase study, the walk's first trial).
    pub fn new(
        study_name: &str,
        study: &Study,
        participant: Participant,
        now_ms: f64,
    ) -> StudySession {
        let (order, stair_levels) = match study.stair_next(&[]) {
            Some((level, t)) => (vec![t], vec![level]),
            None => (study.order_for(participant.order), Vec::new()),
        };
        let mut s = StudySession {
            study: study_name.to_string(),
            order,
            stair_levels,
            stair_outcomes: Vec::new(),
            participant,
            stage: Stage::Consent,
            trial_done: false,
            consent: None,
            attempt: 0,
            started_ms: Some(now_ms),
            events: Vec::new(),
            condition: None,
        };
        s.log(now_ms, "started", "");
        // With server assignment the condition comes with the order at consent.
        if !study.orders_from_server(s.participant.order_given) {
            let source = if s.participant.order_given {
                "from the link"
            } else {
                "from the id's hash"
            };
            s.assign_condition(study, now_ms, source);
        }
        s
    }

    /// The condition of order `participant.order` in `study`, kept in the session and,
    /// when the study offers more than one, logged (`condition_assigned`) with why: the
    /// order and where it came from (`source`).
    fn assign_condition(&mut self, study: &Study, at_ms: f64, source: &str) {
        let k = self.participant.order;
        let condition = study.condition_for(k);
        self.condition = Some(condition);
        if study.conditions_offered().len() > 1 {
            let n = study.order_count() as u64;
            let detail = format!("{} (order {} of {n}, {source})", condition.name(), k % n);
            self.log(at_ms, "condition_assigned", detail);
        }
    }

    /// How this participant is shown the mazes: the condition assigned to them (for a
    /// session from before it was kept, the one their order gives).
    pub fn condition(&self, study: &Study) -> Condition {
        self.condition
            .unwrap_or_else(|| study.condition_for(self.participant.order))
    }

    /// The session to go on with when `participant` opens the link of `study` (stored as
    /// `study_name`) at `now_ms`, given the session `saved` in the browser: see the module
    /// documentation. `reloaded` says the same tab had the study open already (a reload,
    /// or a phone bringing a discarded tab back): that is no return, so it resumes
    /// whatever the policy (`reloaded` in the log). The result is to be saved before
    /// anything else happens.
    pub fn open(
        study_name: &str,
        study: &Study,
        participant: Participant,
        saved: Option<StudySession>,
        now_ms: f64,
        reloaded: bool,
    ) -> (StudySession, Opening) {
        let Some(s) = saved else {
            return (
                StudySession::new(study_name, study, participant, now_ms),
                Opening::Continue,
            );
        };
        let Some(consent) = s.consent.clone() else {
            // Still at the consent page (or declined): nothing was begun.
            return (s, Opening::Continue);
        };
        if s.stage.is_final() {
            return (s, Opening::Continue);
        }
        let again = |s: StudySession, kind: &str, detail: String| {
            // The participant keeps their counterbalancing order across attempts.
            let mut who = participant.clone();
            who.order = s.participant.order;
            let mut next = StudySession::new(study_name, study, who, now_ms);
            // And their condition: a new attempt is the same participant.
            next.condition = s.condition.or(next.condition);
            next.attempt = s.attempt + 1;
            next.events = s.events;
            next.log(now_ms, kind, detail);
            next.log(now_ms, "started", format!("attempt {}", next.attempt + 1));
            next
        };
        let age_min = s.started_ms.map(|t| (now_ms - t) / 60_000.0);
        let expired = match (study.resume.max_age_minutes, age_min) {
            (Some(max), Some(age)) if age > f64::from(max) => Some(format!(
                "after {age:.0} minutes (at most {max})",
                age = Fixed(age)
            )),
            _ => None,
        };
        if consent.study_version != study.version {
            let detail = format!(
                "consent was given to version '{}', the study is now '{}'",
                consent.study_version, study.version
            );
            return (again(s, "version_changed", detail), Opening::Continue);
        }
        if let Some(detail) = expired {
            return (again(s, "expired", detail), Opening::Continue);
        }
        let mut s = s;
        match study.resume.policy {
            // A reload is no return: whatever the policy, it goes on.
            _ if reloaded => s.log(now_ms, "reloaded", stage_name(s.stage)),
            ResumePolicy::Resume => s.log(now_ms, "resumed", stage_name(s.stage)),
            ResumePolicy::Restart => {
                let from = stage_name(s.stage);
                s = again(s, "restarted", format!("from {from}"));
                return (s, Opening::Continue);
            }
            ResumePolicy::Block => {
                s.log(now_ms, "blocked", stage_name(s.stage));
                return (s, Opening::Blocked);
            }
        }
        s.check_time(study, now_ms);
        (s, Opening::Continue)
    }

    /// Adds an event to the session's log.
    pub fn log(&mut self, at_ms: f64, kind: &str, detail: impl Into<String>) {
        self.events.push(SessionEvent {
            at_ms,
            kind: kind.into(),
            detail: detail.into(),
        });
    }

    /// Ends the study as timed out when its time limit (from consent) has run out at
    /// `now_ms`; returns whether it did.
    pub fn check_time(&mut self, study: &Study, now_ms: f64) -> bool {
        let running = matches!(
            self.stage,
            Stage::Instructions | Stage::Practice | Stage::Trial(_)
        );
        match self.time_left_ms(study, now_ms) {
            Some(left) if running && left <= 0.0 => {
                let limit = study.time_limits.study.unwrap_or(0);
                self.stage = Stage::TimedOut;
                self.trial_done = false;
                self.log(
                    now_ms,
                    "timed_out",
                    format!("the study's {limit} s ran out"),
                );
                true
            }
            _ => false,
        }
    }

    /// Milliseconds left of the study's time limit at `now_ms` (none without a limit or
    /// before consent).
    pub fn time_left_ms(&self, study: &Study, now_ms: f64) -> Option<f64> {
        let limit = study.time_limits.study.filter(|&l| l > 0)?;
        let start = self.consent.as_ref()?.at_ms;
        Some(start + f64::from(limit) * 1000.0 - now_ms)
    }

    /// Whose data this is where it is stored: the study's storage name and the
    /// participant's id, the same for every attempt.
    pub fn who(&self) -> Who {
        Who::new(&self.study, &self.participant.id)
    }

    /// Where this attempt's data is stored.
    pub fn this_attempt(&self) -> Attempt {
        self.who().attempt(self.attempt)
    }

    /// The storage key of this participant's session, the same for every attempt.
    pub fn session_key(&self) -> StudyKey {
        StudyKey::Session(self.who())
    }

    /// Consent to `study` given at `at_ms`: recorded, and on to the instructions.
    pub fn accept(&mut self, study: &Study, at_ms: f64) {
        if self.stage == Stage::Consent {
            self.consent = Some(ConsentRecord::of(study, at_ms));
            self.stage = Stage::Instructions;
        }
    }

    /// Consent declined: the study ends (the page deletes anything stored).
    pub fn decline(&mut self) {
        if self.stage == Stage::Consent {
            self.stage = Stage::Declined;
        }
    }

    /// The counterbalancing order `k` the server assigned at consent: the participant's
    /// trials are put in that order (a staircase orders its own, so it keeps them) and
    /// shown in its condition, and the assignment is logged at `at_ms` with `detail`. Only
    /// before the first trial.
    pub fn assign_order(&mut self, study: &Study, k: u64, at_ms: f64, detail: &str) {
        if !matches!(self.stage, Stage::Consent | Stage::Instructions) {
            return;
        }
        self.participant.order = k;
        if study.staircase.is_none() {
            self.order = study.order_for(k);
        }
        self.log(at_ms, "order_assigned", detail);
        self.assign_condition(study, at_ms, "from the server");
    }

    /// No order came from the server at consent (`why`): the id's hash stays, and is
    /// logged at `at_ms` (`order_fallback`), with the condition it gives.
    pub fn order_fallback(&mut self, study: &Study, at_ms: f64, why: &str) {
        if !matches!(self.stage, Stage::Consent | Stage::Instructions) {
            return;
        }
        let detail = format!("order {} from the id's hash: {why}", self.participant.order);
        self.log(at_ms, "order_fallback", detail);
        self.assign_condition(
            study,
            at_ms,
            "from the id's hash: the server did not answer",
        );
    }

    /// How many scored trials this participant's plan holds (a staircase's `trials`).
    pub fn planned(&self, study: &Study) -> usize {
        study.staircase.map_or(self.order.len(), |s| s.trials)
    }

    /// The current trial is finished.
    pub fn finish_trial(&mut self) {
        if matches!(self.stage, Stage::Practice | Stage::Trial(_)) {
            self.trial_done = true;
        }
    }

    /// The current trial is finished with these phases' successes (solve, recognize,
    /// generate). In a staircase study a scored trial's outcome moves the walk, and the
    /// walk's next trial, if it has one, is added to `order` (once per trial, however
    /// often this is called); otherwise as [`StudySession::finish_trial`].
    pub fn finish_stair_trial(&mut self, study: &Study, phases: [bool; 3]) {
        self.finish_trial();
        let (Stage::Trial(i), Some(s)) = (self.stage, study.staircase) else {
            return;
        };
        if self.stair_outcomes.len() != i || self.stair_levels.len() != i + 1 {
            return;
        }
        self.stair_outcomes.push(s.phase.success(phases));
        if let Some((level, t)) = study.stair_next(&self.stair_outcomes) {
            self.order.push(t);
            self.stair_levels.push(level);
        }
    }

    /// Where scored trial `i` of `order` stands in the staircase walk (none outside a
    /// staircase study): kept in its record.
    pub fn stair_step(&self, i: usize) -> Option<StairStep> {
        let &level = self.stair_levels.get(i)?;
        let who = format!("{}#{}", self.participant.id, self.attempt);
        Some(StairStep {
            step: i,
            level,
            walk: fnv1a(who.as_bytes()) | 1,
        })
    }

    /// On from the instructions or a finished trial: the practice trial (if the study has
    /// one), then each scored trial, then completion.
    pub fn next(&mut self, has_practice: bool) {
        let first = if self.order.is_empty() {
            Stage::Complete
        } else {
            Stage::Trial(0)
        };
        let next = match self.stage {
            Stage::Instructions if has_practice => Stage::Practice,
            Stage::Instructions => first,
            Stage::Practice if self.trial_done => first,
            Stage::Trial(i) if self.trial_done && i + 1 < self.order.len() => Stage::Trial(i + 1),
            Stage::Trial(_) if self.trial_done => Stage::Complete,
            other => other,
        };
        if next != self.stage {
            // A new stage's trial starts unfinished.
            self.stage = next;
            self.trial_done = false;
        }
    }

    /// The trial of the current stage: its index (-1 for practice), what it is, and whether
    /// it is the practice trial.
    pub fn current(&self, study: &Study) -> Option<(i64, StudyTrial, bool)> {
        match self.stage {
            Stage::Practice => study.practice.map(|p| (-1, p, true)),
            Stage::Trial(i) => self.order.get(i).map(|t| (i as i64, *t, false)),
            _ => None,
        }
    }

    /// How far along: (trials finished, trials in all), practice not counted; in a
    /// staircase study, all is the staircase's trials.
    pub fn progress(&self, study: &Study) -> (usize, usize) {
        let n = self.planned(study);
        let done = match self.stage {
            Stage::Trial(i) => i + usize::from(self.trial_done),
            Stage::Complete => n,
            _ => 0,
        };
        (done, n)
    }
}

/// A stage's name in the session log ("the consent page", "trial 3", ...).
fn stage_name(stage: Stage) -> String {
    match stage {
        Stage::Consent => "the consent page".into(),
        Stage::Declined => "declined".into(),
        Stage::Instructions => "the instructions".into(),
        Stage::Practice => "the practice maze".into(),
        Stage::Trial(i) => format!("trial {}", i + 1),
        Stage::Complete => "the end".into(),
        Stage::TimedOut => "the time-out".into(),
    }
}
