//! One trial of a batch run, played the same way by the experiment page and by
//! `shapemaze run`: the design's player for the trial's key, the trial's maze, and (for an
//! endpoint) a player that asks the [`Scheduler`] before each later call and tells it of
//! every retry, so a `429` teaches the lane its limit in both.
//!
//! ```
//! use shapemaze_core::batch::runner::random_seed;
//! use shapemaze_core::batch::design::ExperimentDesign;
//!
//! let design = ExperimentDesign::default();
//! let key = &design.trials()[0];
//! assert_eq!(random_seed(7, key), random_seed(7, key), "the same trial always walks the same way");
//! ```

use crate::batch::design::{ExperimentDesign, PlayerSpec, TrialKey};
use crate::batch::error::MazeLookupError;
use crate::batch::scheduler::{CallPermit, LaneStatus, Progress, RetryNotice, Scheduler};
use crate::maze::templates::TemplateLibrary;
use crate::model::preset::Preset;
use crate::model::settings::EndpointSettings;
use crate::model::transport::Transport;
use crate::play::endpoint::{AnswerSettings, EndpointPlayer, Lane};
use crate::play::player::PlayerKind;
use crate::play::player::{play, Oracle, PlayerEvent, RandomWalker};
use crate::play::trial::Trial;
use crate::results::record::{Placement, TrialRecord};
use crate::text::UnknownName;
use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;

/// The seed of the random player on trial `key` of a design seeded `seed`: the same trial
/// always plays the same way, whichever machine, shard or page runs it.
pub fn random_seed(seed: u64, key: &TrialKey) -> u64 {
    // FNV-1a over the trial's id: stable across platforms and versions.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in key.id().bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    seed ^ h
}

/// Why a design cannot play one of its trials.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TrialError {
    /// The design has no player of this name.
    NoPlayer(String),
    /// The design gives no maze for the trial.
    NoMaze(MazeLookupError),
    /// The player's endpoint preset is none the chat client knows.
    BadPreset(UnknownName),
    /// A kind of player a batch cannot play (a person, a scripted player).
    CannotPlay(PlayerKind),
}

impl std::fmt::Display for TrialError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TrialError::NoPlayer(p) => write!(f, "no player named '{p}' in the design"),
            TrialError::NoMaze(why) => write!(f, "{why}"),
            TrialError::BadPreset(e) => write!(f, "{e}"),
            TrialError::CannotPlay(k) => write!(f, "cannot play a {} player", k.name()),
        }
    }
}

impl std::error::Error for TrialError {}

/// An endpoint player's settings as the chat client takes them.
pub fn endpoint_settings(spec: &PlayerSpec) -> Result<EndpointSettings, UnknownName> {
    Ok(EndpointSettings {
        preset: Preset::parse(&spec.preset)?,
        base_url: spec.base_url.clone(),
        model: spec.model.clone(),
        temperature: spec.temperature,
        top_p: spec.top_p,
        max_tokens: spec.max_tokens,
        seed: spec.seed,
        timeout_ms: spec.timeout_ms,
        stream: spec.stream,
        logprobs: spec.logprobs,
        thinking: spec.thinking,
        effort: spec.effort,
        extra: spec.extra.clone(),
        max_attempts: spec.max_attempts,
        max_wait_ms: spec.max_wait_ms,
    })
}

/// A trial's lane in the scheduler: asked before each later call of the trial, told of
/// every retry with its cause.
struct SchedulerLane {
    scheduler: Rc<RefCell<Scheduler>>,
    id: String,
    on_retry: Option<Rc<dyn Fn()>>,
}

impl<T: Transport> Lane<T> for SchedulerLane {
    async fn before_call(&self, transport: &T) {
        loop {
            let now = transport.now_ms();
            let permit = self.scheduler.borrow_mut().begin_call(&self.id, now);
            match permit {
                CallPermit::Go => return,
                CallPermit::WaitUntil(t) => transport.sleep((t - now).max(1.0).ceil() as u64).await,
            }
        }
    }

    fn retrying(&self, n: &crate::model::retry::RetryNotice, now_ms: f64) {
        let notice = RetryNotice {
            status: n.status,
            cause: n.cause.clone().unwrap_or_else(|| n.status_label.clone()),
            attempt: n.attempt,
            max_attempts: n.of,
            wait_ms: n.delay_ms as f64,
        };
        self.scheduler
            .borrow_mut()
            .retrying(&self.id, &notice, now_ms);
        if let Some(told) = &self.on_retry {
            told();
        }
    }
}

/// Everything one trial of a batch needs besides its key.
pub struct TrialRun<T: Transport> {
    /// The design the trial belongs to.
    pub design: Rc<ExperimentDesign>,
    /// The run's scheduler (asked before each later call, told of retries).
    pub scheduler: Rc<RefCell<Scheduler>>,
    /// The template library of the trial's size.
    pub library: Arc<TemplateLibrary>,
    /// The API key of the trial's player (empty for none or a built-in player).
    pub api_key: String,
    /// The transport an endpoint player calls through (its clock dates the record).
    pub transport: T,
    /// Called after each retry is told to the scheduler, so that a page can show the
    /// retry's cause while the call waits (`None`: nobody is told).
    pub on_retry: Option<Rc<dyn Fn()>>,
}

/// Plays trial `key` (scheduled under `id`) to its end and returns its record; `None`
/// when it was stopped (pause, cancel): such a trial is rerun from its start, never kept.
/// An error names a design that cannot play the key (no such player, a bad preset).
pub async fn play_trial<T: Transport>(
    run: TrialRun<T>,
    id: String,
    key: TrialKey,
) -> Result<Option<TrialRecord>, TrialError> {
    let design = run.design.clone();
    let spec = design
        .player(&key.player)
        .ok_or_else(|| TrialError::NoPlayer(key.player.clone()))?;
    let maze = design
        .maze_for(&key, &run.library)
        .map_err(TrialError::NoMaze)?;
    let mut trial = Trial::new(design.setup_for(&key, maze), run.library.clone());
    let started = run.transport.now_ms();
    let mut quiet = |_: PlayerEvent| {};
    let ended = match spec.kind {
        PlayerKind::Oracle => {
            play(&mut trial, &mut Oracle, &mut quiet).await;
            run.transport.now_ms()
        }
        PlayerKind::Random => {
            let mut walker = RandomWalker::new(random_seed(design.seed, &key));
            play(&mut trial, &mut walker, &mut quiet).await;
            run.transport.now_ms()
        }
        PlayerKind::Endpoint => {
            let settings = endpoint_settings(&spec).map_err(TrialError::BadPreset)?;
            let lane = SchedulerLane {
                scheduler: run.scheduler.clone(),
                id,
                on_retry: run.on_retry,
            };
            let answers = AnswerSettings {
                mode: key.answer_mode,
                first: spec.answer_form,
                transcriber: spec.transcriber.clone(),
            };
            let mut player = EndpointPlayer::new(run.transport, settings, run.api_key, None)
                .in_lane(lane)
                .answering(answers);
            play(&mut trial, &mut player, &mut quiet).await;
            player.transport().now_ms()
        }
        other => return Err(TrialError::CannotPlay(other)),
    };
    if trial.stopped() {
        return Ok(None);
    }
    Ok(Some(TrialRecord::of(
        &trial,
        spec.player_info(None),
        Placement {
            seed: design.seed,
            sample: key.sample,
            repeat: key.repeat,
        },
        Some(started),
        Some(ended),
    )))
}

/// Sorts records into the design's trial order (unknown ones last, by id), as exports
/// list them.
///
/// A staircase's records go walk by walk (in [`ExperimentDesign::tracks`]' order), each
/// walk's in step order.
pub fn sort_by_design(design: &ExperimentDesign, records: &mut [TrialRecord]) {
    if design.staircase.is_some() {
        let tracks = design.tracks();
        crate::sort::sort_by_cached_key(records, |r| {
            let walk = tracks
                .iter()
                .position(|t| t.player == r.model && t.encoding == r.encoding);
            let step = r.staircase.map(|s| s.step);
            (
                walk.unwrap_or(usize::MAX),
                step.unwrap_or(usize::MAX),
                TrialKey::of_record(r).id(),
            )
        });
        return;
    }
    let order: std::collections::HashMap<String, usize> = design
        .trials()
        .iter()
        .enumerate()
        .map(|(i, k)| (k.id(), i))
        .collect();
    crate::sort::sort_by_cached_key(records, |r| {
        let id = TrialKey::of_record(r).id();
        (order.get(&id).copied().unwrap_or(usize::MAX), id)
    });
}

/// A duration for people: `42s`, `3m05s`, `2h10m`.
pub fn format_eta(ms: f64) -> String {
    let s = (ms / 1000.0).round() as u64;
    if s >= 3600 {
        format!("{}h{:02}m", s / 3600, (s % 3600) / 60)
    } else if s >= 60 {
        format!("{}m{:02}s", s / 60, s % 60)
    } else {
        format!("{s}s")
    }
}

/// The time the whole run still needs: the slowest lane's ETA (the lanes run side by
/// side; the overall throughput would mix a built-in player's instant trials with an
/// endpoint's). `None` while some lane has no estimate yet.
pub fn run_eta(progress: &Progress) -> Option<f64> {
    progress
        .players
        .iter()
        .map(|pl| pl.tally.eta_ms)
        .try_fold(0.0_f64, |most, e| e.map(|e| most.max(e)))
}

/// One line of progress: done, errors, each lane's calls in flight and concurrency, and
/// the ETA (the terminal's progress line).
pub fn progress_line(p: &Progress, lanes: &[LaneStatus]) -> String {
    let lanes: Vec<String> = lanes
        .iter()
        .map(|l| {
            let mut s = format!(
                "{} {} in flight, concurrency {}/{}",
                l.name, l.in_flight, l.concurrency, l.max_concurrency
            );
            if l.retrying > 0 {
                s.push_str(&format!(", {} retrying", l.retrying));
            }
            s
        })
        .collect();
    let eta = match run_eta(p) {
        Some(ms) => format!("ETA {}", format_eta(ms)),
        None => "ETA ?".to_string(),
    };
    format!(
        "{}/{} done, {} errors; {}; {eta}",
        p.overall.done,
        p.overall.total,
        p.overall.api_errors,
        lanes.join("; ")
    )
}

/// The trials of one player that ended as API errors for one cause (the same kind and the
/// same message but for its count of attempts).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ErrorCause {
    /// The player (model) whose calls failed.
    pub model: String,
    /// The error's kind (`network`, `rate_limited`, ...).
    pub kind: String,
    /// What happened and what to do: the final message without its count of attempts.
    pub message: String,
    /// How many trials ended on it.
    pub trials: usize,
    /// The fewest and the most attempts those trials made.
    pub attempts: (u32, u32),
}

impl ErrorCause {
    /// One line for people: `2 trials of m (network, 2 attempts each): No answer from ...`.
    pub fn line(&self) -> String {
        let (fewest, most) = self.attempts;
        let s = |n: u32| if n == 1 { "" } else { "s" };
        let attempts = match (fewest == most, self.trials) {
            (true, 1) => format!("{most} attempt{}", s(most)),
            (true, _) => format!("{most} attempt{} each", s(most)),
            (false, _) => format!("{fewest} to {most} attempts"),
        };
        format!(
            "{} trial{} of {} ({}, {attempts}): {}",
            self.trials,
            if self.trials == 1 { "" } else { "s" },
            self.model,
            self.kind,
            self.message
        )
    }
}

/// The API errors among `records`, grouped by player and cause, the most frequent first
/// (ties in the order first met).
pub fn error_causes<'a>(records: impl IntoIterator<Item = &'a TrialRecord>) -> Vec<ErrorCause> {
    let mut causes: Vec<ErrorCause> = Vec::new();
    for r in records {
        let Some(e) = &r.api_error else { continue };
        let message = crate::model::error::without_attempts(&e.message);
        match causes
            .iter_mut()
            .find(|c| c.model == r.model && c.kind == e.kind && c.message == message)
        {
            Some(c) => {
                c.trials += 1;
                c.attempts = (c.attempts.0.min(e.attempts), c.attempts.1.max(e.attempts));
            }
            None => causes.push(ErrorCause {
                model: r.model.clone(),
                kind: e.kind.clone(),
                message: message.to_string(),
                trials: 1,
                attempts: (e.attempts, e.attempts),
            }),
        }
    }
    // A stable sort keeps the first met first among equals.
    crate::sort::sort_by_key(&mut causes, |c| std::cmp::Reverse(c.trials));
    causes
}

/// A harness the command line's tests share: the runner driven against a transport.
#[cfg(any(test, feature = "test-support"))]
pub mod test_support {
    use super::*;
    use crate::batch::scheduler::{lanes_for, Next, Tuning};

    /// Plays the first trial of a design whose one player is the endpoint at `base_url`,
    /// allowed two attempts, through `transport`, expecting no answer; returns the lane's
    /// last retry cause and the record's error message.
    pub async fn unanswered<T: Transport>(
        base_url: &str,
        transport: T,
    ) -> (Option<String>, String) {
        let mut player = PlayerSpec::endpoint(base_url, "m", None);
        player.max_attempts = 2;
        let design = ExperimentDesign {
            players: vec![player],
            ..ExperimentDesign::default()
        };
        let scheduler = Rc::new(RefCell::new(Scheduler::new(
            design.trials(),
            lanes_for(&design, None),
            Tuning::default(),
        )));
        let Next::Start(a) = scheduler.borrow_mut().next(0.0) else {
            panic!("a trial starts");
        };
        let run = TrialRun {
            library: Arc::new(TemplateLibrary::new(design.size)),
            design: Rc::new(design),
            scheduler: scheduler.clone(),
            api_key: String::new(),
            transport,
            on_retry: None,
        };
        let record = play_trial(run, a.id, a.key)
            .await
            .expect("plays")
            .expect("ends");
        let cause = scheduler.borrow_mut().lanes(0.0)[0].last_cause.clone();
        (cause, record.api_error.expect("an API error").message)
    }
}

#[cfg(test)]
mod tests {
    use super::test_support::unanswered;
    use super::*;
    use crate::batch::form::{DesignForm, PlayerRow};
    use crate::model::scripted::{Scripted, ScriptedTransport};
    use crate::model::settings::DEFAULT_STREAM;
    use crate::model::transport::{block_on, TransportError, TransportKind};

    #[test]
    fn the_model_page_and_an_experiment_design_start_with_the_same_streaming() {
        assert_eq!(EndpointSettings::default().stream, DEFAULT_STREAM, "/model");
        for p in Preset::ALL {
            assert_eq!(EndpointSettings::for_preset(p).stream, DEFAULT_STREAM);
        }
        let spec = PlayerSpec::endpoint("http://127.0.0.1:9/v1", "m", None);
        assert_eq!(spec.stream, DEFAULT_STREAM, "a design's endpoint player");
        let settings = endpoint_settings(&spec).expect("settings");
        assert_eq!(settings.stream, DEFAULT_STREAM);
        let read = ExperimentDesign::from_json(
            r#"{"players": [{"kind": "endpoint", "base_url": "http://x/v1", "model": "m"}],
                "encodings": ["matrix"], "shapes": ["square"]}"#,
        )
        .expect("a spec without stream");
        assert_eq!(
            read.players[0].stream, DEFAULT_STREAM,
            "a design file that leaves it out"
        );
        let form = DesignForm::of(&ExperimentDesign::default());
        assert_eq!(form.new.stream, DEFAULT_STREAM, "the form's add box");
        let mut row = PlayerRow {
            kind: "endpoint".into(),
            ..PlayerRow::default()
        };
        row.fill_defaults();
        assert_eq!(row.stream, DEFAULT_STREAM, "a new model row");
    }

    #[test]
    fn api_errors_are_grouped_by_player_and_cause_whatever_their_attempts() {
        use crate::play::trial::ApiFailure;
        use crate::results::record::PlayerInfo;
        let design = ExperimentDesign::default();
        let library = Arc::new(TemplateLibrary::new(design.size));
        let key = &design.trials()[0];
        let record = |model: &str, failure: Option<(&str, String, u32)>| {
            let maze = design.maze_for(key, &library).expect("a maze");
            let mut t = Trial::new(design.setup_for(key, maze), library.clone());
            if let Some((kind, message, attempts)) = failure {
                t.fail_api(ApiFailure {
                    kind: kind.into(),
                    message,
                    attempts,
                });
            }
            let player = PlayerInfo {
                model: model.into(),
                ..PlayerInfo::builtin(PlayerKind::Endpoint)
            };
            TrialRecord::of(&t, player, Placement::default(), None, None)
        };
        let refused = "No answer from http://127.0.0.1:9/v1/chat/completions. Check the base URL, and that the server is running and reachable from this machine. Details: Connection refused (os error 111)";
        let key_refused = "The endpoint refused the API key (401).";
        let records = [
            record(
                "m",
                Some((
                    "network",
                    format!("{refused} (Gave up after 2 attempts.)"),
                    2,
                )),
            ),
            record("m", Some(("unauthorized", key_refused.into(), 1))),
            record("m", None),
            record(
                "m",
                Some((
                    "network",
                    format!("{refused} (Gave up after 6 attempts.)"),
                    6,
                )),
            ),
            record("n", Some(("network", refused.into(), 1))),
        ];
        let lines: Vec<String> = error_causes(&records)
            .iter()
            .map(ErrorCause::line)
            .collect();
        assert_eq!(
            lines,
            [
                format!("2 trials of m (network, 2 to 6 attempts): {refused}"),
                format!("1 trial of m (unauthorized, 1 attempt): {key_refused}"),
                format!("1 trial of n (network, 1 attempt): {refused}"),
            ]
        );
        assert!(error_causes(&records[2..3]).is_empty(), "no API error");
    }

    fn scripted(kind: TransportKind) -> (Option<String>, String) {
        let failed = || Scripted::Fail(TransportError::Network("Failed to fetch".into()));
        let mut transport = ScriptedTransport::new(vec![failed(), failed()]);
        transport.kind = kind;
        block_on(unanswered("http://127.0.0.1:9/v1", transport))
    }

    #[test]
    fn a_retry_without_an_answer_names_its_cause_for_the_transport() {
        let (cause, message) = scripted(TransportKind::Browser);
        let cause = cause.expect("a retry was reported");
        assert!(
            cause.starts_with("No answer from http://127.0.0.1:9/v1/chat/completions: the browser does not say why")
                && cause.contains("(CORS)")
                && cause.ends_with("attempt 1 of 2"),
            "{cause}"
        );
        assert!(message.contains("CORS"), "{message}");
        let (cause, message) = scripted(TransportKind::Native);
        let cause = cause.expect("a retry was reported");
        assert!(
            cause.starts_with(
                "No answer from http://127.0.0.1:9/v1/chat/completions (Failed to fetch)"
            ),
            "{cause}"
        );
        for text in [&cause, &message] {
            assert!(
                !text.contains("CORS") && !text.contains("browser"),
                "{text}"
            );
        }
    }
}
