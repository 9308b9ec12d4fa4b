//! The session's tests (a child module of `session`, kept apart for the file's length).

use super::*;
use crate::batch::design::PlayerSpec;
use crate::batch::runner::play_trial;
use crate::maze::shape::{Shape, ShapeSet};
use crate::model::scripted::{Scripted, ScriptedTransport};
use crate::model::transport::block_on;
use crate::play::player::PlayerKind;
use crate::results::rescore::Libraries;

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
                    let result = if fail { Err("quota exceeded") } else { Ok(()) };
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
    assert_eq!(
        d.said,
        vec![Notice::Complete {
            api_errors: 0,
            forms: FormsHeld::default()
        }]
    );
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
    p.price = Some(crate::model::price::Price {
        input: 10.0,
        output: 100.0,
        reasoning: None,
    });
    design.players.push(p);
    design.shapes = vec![Shape::Square];
    design.samples_per_shape = 4;
    design.encodings = vec![crate::maze::encoding::Encoding::Matrix];
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
    assert!(again.said.contains(&Notice::Complete {
        api_errors: 0,
        forms: FormsHeld::default()
    }));
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

/// A design of one endpoint player `model` on one square maze per encoding.
fn one_endpoint(model: &str) -> ExperimentDesign {
    let mut design = small(&[]);
    let mut p = PlayerSpec::endpoint("http://127.0.0.1:9/v1", model, None);
    p.max_attempts = 1;
    design.players.push(p);
    design.shapes = vec![Shape::Square];
    design.samples_per_shape = 1;
    design
}

/// A transport that answers "I cannot tell." (200, free text) to every request.
fn cannot_tell() -> ScriptedTransport {
    ScriptedTransport::new(
        (0..40)
            .map(|_| Scripted::answer("I cannot tell."))
            .collect(),
    )
}

#[test]
fn an_endpoint_player_plays_through_the_scripted_transport_with_its_key() {
    let design = one_endpoint("scripted");
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
    d.transport = Box::new(cannot_tell);
    let effects = d.session.resume(0.0, false);
    d.run(effects);
    assert_eq!(d.stored.len(), design.trials().len());
    assert!(d.stored.iter().all(|r| r.model == "scripted"));
    assert_eq!(
        d.said,
        vec![Notice::Complete {
            api_errors: 0,
            forms: FormsHeld::default()
        }]
    );
}

#[test]
fn a_run_whose_endpoint_ignored_the_form_says_how_often_when_it_is_complete() {
    let mut design = one_endpoint("ignores");
    design.answer_modes = vec![crate::play::answer::AnswerMode::Schema];
    let mut d = Driver::new(&design);
    // A 200 with free text to every request: the schema asked is never held.
    d.transport = Box::new(cannot_tell);
    let effects = d.session.resume(0.0, false);
    d.run(effects);
    let replies: usize = d
        .stored
        .iter()
        .flat_map(|r| &r.messages)
        .map(|m| m.form.as_deref().map_or(0, |f| f.read.len()))
        .sum();
    assert!(replies > 0, "the trials asked for forms");
    let forms = FormsHeld {
        replies,
        not_held: replies,
    };
    assert_eq!(
        d.said,
        vec![Notice::Complete {
            api_errors: 0,
            forms
        }]
    );
    let text = d.said[0].text();
    assert!(
        text.contains(&format!(
            "{replies} of {replies} replies asked for a form were not held"
        )),
        "the run's summary says how often: {text}"
    );
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
    d.session.saved(a, Err("full"), 1.0);
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
    d.session.saved(b, Err("full"), 3.0);
    // Resume again: nothing new starts, and B waits behind A.
    let effects = d.session.resume(4.0, false);
    assert!(
        effects
            .iter()
            .all(|e| !matches!(e, Effect::Start(_) | Effect::Save(_))),
        "{effects:?}"
    );
    // A is saved: B's save comes next, still before any start.
    let next = d.session.saved(a_again, Ok::<(), &str>(()), 5.0);
    assert!(matches!(&next[..], [Effect::Save(s)] if s.held), "{next:?}");
}

use crate::play::staircase::StairStep;

fn stair_design() -> ExperimentDesign {
    use crate::play::staircase::{StairPhase, Staircase};
    ExperimentDesign {
        players: vec![
            PlayerSpec::builtin(PlayerKind::Oracle),
            PlayerSpec::builtin(PlayerKind::Random),
        ],
        shapes: vec![Shape::Square, Shape::Cross, Shape::Spiral],
        sizes: Some(vec![5, 7]),
        samples_per_shape: 3,
        staircase: Some(Staircase {
            trials: 8,
            start: 1,
            phase: StairPhase::Solve,
        }),
        ..small(&[])
    }
}

/// Each walk's records in step order: (step, level, size, shape, solved).
type Steps = Vec<(usize, usize, usize, Shape, bool)>;

fn walks(records: &[TrialRecord]) -> Vec<(String, Steps)> {
    let mut out: Vec<(String, Steps)> = Vec::new();
    for r in records {
        let name = format!("{}/{}", r.model, r.encoding);
        let s = r.staircase.expect("a staircase trial keeps its step");
        let solved = r.verdicts.solve.as_ref().is_some_and(|v| v.passed());
        let row = (s.step, s.level, r.size, r.shape, solved);
        match out.iter_mut().find(|(n, _)| *n == name) {
            Some((_, v)) => v.push(row),
            None => out.push((name, vec![row])),
        }
    }
    for (_, v) in &mut out {
        v.sort_by_key(|r| r.0);
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

#[test]
fn a_staircase_run_walks_each_player_and_encoding_by_the_two_up_one_down_rule() {
    let design = stair_design();
    let levels = design.stair_levels();
    let mut d = Driver::new(&design);
    assert_eq!(
        d.session.progress(0.0).overall.total,
        2 * 2 * 8,
        "every walk's trials"
    );
    let effects = d.session.resume(0.0, false);
    d.run(effects);
    assert_eq!(d.stored.len(), 32);
    assert_eq!(
        d.said,
        vec![Notice::Complete {
            api_errors: 0,
            forms: FormsHeld::default()
        }]
    );
    assert!(d.session.complete(d.now));
    let p = d.session.progress(d.now);
    assert_eq!((p.overall.done, p.overall.total), (32, 32));
    let walked = walks(&d.stored);
    assert_eq!(walked.len(), 4, "two players times two encodings");
    for (name, steps) in &walked {
        assert_eq!(
            steps.iter().map(|s| s.0).collect::<Vec<_>>(),
            (0..8).collect::<Vec<_>>(),
            "{name}: eight steps in order"
        );
        // Replay the rule on the outcomes: the levels played must follow it.
        let mut level = 1usize;
        let mut run = 0;
        for &(_, played, size, shape, solved) in steps {
            assert_eq!(played, level, "{name}: {steps:?}");
            assert_eq!(levels[played], (size, shape), "{name}: the level's maze");
            if solved {
                run += 1;
                if run == 2 {
                    run = 0;
                    level = (level + 1).min(levels.len() - 1);
                }
            } else {
                run = 0;
                level = level.saturating_sub(1);
            }
        }
        if name.starts_with("oracle") {
            // Always solved: up every two trials from level 1, to 5 at the seventh trial.
            let played: Vec<usize> = steps.iter().map(|s| s.1).collect();
            assert_eq!(played, vec![1, 1, 2, 2, 3, 3, 4, 4], "{name}");
        }
    }
    // A random walker fails most solves, so it comes down at least once.
    assert!(walked
        .iter()
        .any(|(n, s)| n.starts_with("random") && s.iter().any(|r| r.1 == 0)));
}

#[test]
fn a_resumed_staircase_goes_on_each_walk_where_its_stored_trials_left_it() {
    let design = stair_design();
    let mut whole = Driver::new(&design);
    let effects = whole.session.resume(0.0, false);
    whole.run(effects);
    // Keep each walk's first three trials, as if the tab had closed then.
    let kept: Vec<TrialRecord> = whole
        .stored
        .iter()
        .filter(|r| r.staircase.is_some_and(|s| s.step < 3))
        .cloned()
        .collect();
    assert_eq!(kept.len(), 4 * 3);
    let mut d = Driver::new(&design);
    // Another run's later trials of the same walks (merged into the folder) played other
    // levels: they are not this walk's and are left out, never mixed in.
    let mut with_other = kept.clone();
    for r in whole
        .stored
        .iter()
        .filter(|r| r.staircase.is_some_and(|s| s.step >= 3))
    {
        let mut other = r.clone();
        other.staircase = other.staircase.map(|s| StairStep {
            level: s.level + 1,
            ..s
        });
        with_other.push(other);
    }
    assert_eq!(
        d.session.restore(&with_other),
        12,
        "each kept trial counts as done"
    );
    let p = d.session.progress(0.0);
    assert_eq!((p.overall.done, p.overall.total), (12, 32));
    let effects = d.session.resume(0.0, false);
    d.run(effects);
    assert_eq!(
        d.stored.len(),
        20,
        "only the trials after the third of each walk"
    );
    let mut all = kept.clone();
    all.extend(d.stored.iter().cloned());
    assert_eq!(
        walks(&all),
        walks(&whole.stored),
        "the same walks as without the break"
    );
}

#[test]
fn a_staircase_does_not_rerun_its_api_errors() {
    let design = stair_design();
    let mut d = Driver::new(&design);
    let effects = d.session.resume(0.0, true);
    assert_eq!(effects[0], Effect::Say(Notice::StairErrorsKept(0)));
    assert!(Notice::StairErrorsKept(2).text().contains("2 trials"));
}
