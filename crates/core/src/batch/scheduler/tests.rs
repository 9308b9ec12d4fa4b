use super::*;
use crate::batch::design::PlayerSpec;
use crate::maze::encoding::Encoding;
use crate::play::player::PlayerKind;
use crate::verify::Outcome;
use std::cmp::Reverse;
use std::collections::{BTreeMap, BTreeSet, BinaryHeap};

fn summary(outcomes: [Option<Outcome>; 3], api_error: bool) -> TrialSummary {
    TrialSummary {
        id: String::new(),
        outcomes,
        api_error: api_error.then(|| "network".to_string()),
        tokens: 100,
        forms: FormsHeld::default(),
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
