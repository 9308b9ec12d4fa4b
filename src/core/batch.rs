//! One trial of a batch run, played the same way by the experiment page and by
//! `shapemaze run`: the design's player for the trial's key, the trial's maze, and (for an
//! endpoint) a player that asks the [`Scheduler`] before each later call and tells it of
//! every retry, so a `429` teaches the lane its limit in both.
//!
//! ```
//! use shapemaze::core::batch::random_seed;
//! use shapemaze::core::experiment::ExperimentDesign;
//!
//! let design = ExperimentDesign::default();
//! let key = &design.trials()[0];
//! assert_eq!(random_seed(7, key), random_seed(7, key), "the same trial always walks the same way");
//! ```

use super::chat::{self, ChatEvent, EndpointSettings, Preset, Transport};
use super::endpoint::{player_reply, EndpointPlayer};
use super::experiment::{ExperimentDesign, PlayerSpec, TrialKey};
use super::player::{play, Oracle, Player, PlayerError, PlayerEvent, RandomWalker, Reply};
use super::record::{Placement, PlayerKind, TrialRecord};
use super::scheduler::{CallPermit, LaneConfig, Progress, RetryNotice, Scheduler};
use super::templates::TemplateLibrary;
use super::trial::Trial;
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

/// An endpoint player's settings as the chat client takes them.
pub fn endpoint_settings(spec: &PlayerSpec) -> Result<EndpointSettings, String> {
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
        extra: spec.extra.clone(),
        max_attempts: spec.max_attempts,
        max_wait_ms: spec.max_wait_ms,
    })
}

/// An endpoint player that asks the scheduler before each later call of its trial and
/// tells it of every retry, with its cause.
struct LanePlayer<T: Transport> {
    inner: EndpointPlayer<T>,
    key: String,
    scheduler: Rc<RefCell<Scheduler>>,
    id: String,
    calls: u32,
}

impl<T: Transport> Player for LanePlayer<T> {
    fn kind(&self) -> PlayerKind {
        PlayerKind::Endpoint
    }

    fn name(&self) -> String {
        self.inner.settings().model.clone()
    }

    async fn respond(
        &mut self,
        trial: &Trial,
        _on_event: &mut dyn FnMut(PlayerEvent),
    ) -> Result<Reply, PlayerError> {
        if self.calls > 0 {
            loop {
                let now = self.inner.transport().now_ms();
                let permit = self.scheduler.borrow_mut().begin_call(&self.id, now);
                match permit {
                    CallPermit::Go => break,
                    CallPermit::WaitUntil(t) => {
                        let ms = (t - now).max(1.0).ceil() as u64;
                        self.inner.transport().sleep(ms).await;
                    }
                }
            }
        }
        self.calls += 1;
        let messages = self.inner.messages(trial);
        let scheduler = self.scheduler.clone();
        let id = self.id.clone();
        let transport = self.inner.transport();
        let mut forward = |ev: ChatEvent<'_>| {
            if let ChatEvent::Retrying(n) = ev {
                let status = n
                    .status_label
                    .split_whitespace()
                    .next()
                    .and_then(|s| s.parse::<u16>().ok());
                let notice = RetryNotice {
                    status,
                    cause: n.status_label.clone(),
                    attempt: n.attempt,
                    max_attempts: n.of,
                    wait_ms: n.delay_ms as f64,
                };
                scheduler
                    .borrow_mut()
                    .retrying(&id, &notice, transport.now_ms());
            }
        };
        let result = chat::complete(
            self.inner.transport(),
            self.inner.settings(),
            &self.key,
            &messages,
            &mut forward,
        )
        .await;
        player_reply(result, self.inner.settings().preset)
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
}

/// Plays trial `key` (scheduled under `id`) to its end and returns its record; `None`
/// when it was stopped (pause, cancel): such a trial is rerun from its start, never kept.
/// An error names a design that cannot play the key (no such player, a bad preset).
pub async fn play_trial<T: Transport>(
    run: TrialRun<T>,
    id: String,
    key: TrialKey,
) -> Result<Option<TrialRecord>, String> {
    let design = run.design.clone();
    let spec = design
        .player(&key.player)
        .ok_or_else(|| format!("no player named '{}' in the design", key.player))?
        .clone();
    let maze = design.maze_for(&key, &run.library)?;
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
            let settings = endpoint_settings(&spec)?;
            let mut player = LanePlayer {
                inner: EndpointPlayer::new(run.transport, settings, String::new(), None),
                key: run.api_key,
                scheduler: run.scheduler.clone(),
                id,
                calls: 0,
            };
            play(&mut trial, &mut player, &mut quiet).await;
            player.inner.transport().now_ms()
        }
        other => return Err(format!("cannot play a {} player", other.name())),
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
pub fn sort_by_design(design: &ExperimentDesign, records: &mut [TrialRecord]) {
    let order: std::collections::HashMap<String, usize> = design
        .trials()
        .iter()
        .enumerate()
        .map(|(i, k)| (k.id(), i))
        .collect();
    records.sort_by_cached_key(|r| {
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
pub fn progress_line(scheduler: &mut Scheduler, now: f64) -> String {
    let p = scheduler.progress(now);
    let lanes = scheduler.lanes(now);
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
    let eta = match run_eta(&p) {
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

/// The scheduler's lanes for a design: one per player, at its concurrency (or
/// `concurrency` for every player when given), with the design's requests-per-minute
/// limit for endpoints.
pub fn lanes_for(design: &ExperimentDesign, concurrency: Option<usize>) -> Vec<LaneConfig> {
    design
        .players
        .iter()
        .map(|p| LaneConfig {
            name: p.name(),
            max_concurrency: concurrency.unwrap_or_else(|| design.concurrency_for(p)),
            requests_per_minute: design.requests_per_minute.filter(|_| p.is_endpoint()),
        })
        .collect()
}
