//! `/model`: one three-phase trial played live by a built-in player or a chat model behind
//! an OpenAI-compatible endpoint, every prompt, reply, verdict, latency and token count
//! shown as it happens.

use super::board::{MazeBoard, SOLVE_BOARD};
use super::download::{download_file, download_text};
use super::local;
use super::play::{url_settings, PhaseSteps, SettingsBar, Verdicts};
use super::route::{use_location, Location};
use super::transport::BrowserTransport;
use leptos::prelude::*;
use leptos::task::spawn_local;
use shapemaze_core::maze::generate::generate_one;
use shapemaze_core::maze::templates::TemplateLibrary;
use shapemaze_core::model::form::Spelling;
use shapemaze_core::model::preset::Preset;
use shapemaze_core::model::reply::EndpointInfo;
use shapemaze_core::model::settings::{EndpointSettings, SettingsError};
use shapemaze_core::play::answer::AnswerMode;
use shapemaze_core::play::endpoint::{AnswerSettings, EndpointPlayer};
use shapemaze_core::play::phase::Phase;
use shapemaze_core::play::player::PlayerKind;
use shapemaze_core::play::player::{play_watched, Oracle, Player, PlayerError, PlayerEvent};
use shapemaze_core::play::player::{RandomWalker, Reply};
use shapemaze_core::play::settings::PlaySettings;
use shapemaze_core::play::trial::{Trial, TrialSetup};
use shapemaze_core::results::record::{Placement, PlayerInfo, TrialRecord};
use shapemaze_core::text::{format_decimal, parse_decimal};
use shapemaze_view::html;
use std::cell::Cell;
use std::ops::ControlFlow;
use std::rc::Rc;
use std::sync::Arc;

/// Where "remember on this device" keeps the key.
const KEY_STORAGE: &str = "shapemaze.endpoint-key";
/// Asked before a run that has not been downloaded is left.
const LEAVE_WARNING: &str =
    "Leave this trial? Its replies are lost unless you download the record or transcript first.";

/// The players offered (the `agent` select's values are their kinds' names).
const AGENTS: [(PlayerKind, &str); 4] = [
    (PlayerKind::Oracle, "Oracle (perfect, built in)"),
    (PlayerKind::Random, "Random walker (seeded, built in)"),
    (
        PlayerKind::Endpoint,
        "Chat model (OpenAI-compatible endpoint)",
    ),
    (PlayerKind::Human, "A person (the Play page)"),
];

/// The player an `agent` value names, if the page offers it.
fn offered(value: &str) -> Option<PlayerKind> {
    PlayerKind::parse(value)
        .ok()
        .filter(|k| AGENTS.iter().any(|(a, _)| a == k))
}

/// The model page: settings, the player, and a trial for them.
#[component]
pub fn ModelPage() -> impl IntoView {
    let loc = use_location();
    let parsed = url_settings(loc);
    let settings = Memo::new(move |_| parsed.get().0);
    let warnings = Memo::new(move |_| {
        let mut w = parsed.get().1;
        let q = loc.query.get();
        if let Some(a) = Location::param(&q, "agent").filter(|a| offered(a).is_none()) {
            w.push(format!(
                "URL parameter agent: '{a}' is not a player (oracle, random, endpoint or human); using the oracle instead."
            ));
        }
        w
    });
    let go =
        Callback::new(move |s: PlaySettings| loc.navigate(&format!("/model?{}", s.to_query())));
    let initial_agent = Location::param(&loc.query.get_untracked(), "agent")
        .and_then(|a| offered(&a))
        .unwrap_or(PlayerKind::Oracle);
    let agent = RwSignal::new(initial_agent);
    let endpoint = RwSignal::new(EndpointSettings::for_preset(Preset::DashScopeIntl));
    let stored_key = local::read(KEY_STORAGE);
    let remember = RwSignal::new(stored_key.is_some());
    let api_key = RwSignal::new(stored_key.unwrap_or_default());
    let system_prompt = RwSignal::new(String::new());
    let answers = RwSignal::new(AnswerSettings::default());
    Effect::new(move |_| {
        let (keep, key) = (remember.get(), api_key.get());
        if let Some(s) = local::local() {
            let _ = if keep && !key.is_empty() {
                s.set_item(KEY_STORAGE, &key)
            } else {
                s.remove_item(KEY_STORAGE)
            };
        }
    });
    let restart = RwSignal::new(0u32);
    let config = PlayerConfig {
        agent,
        endpoint,
        api_key,
        system_prompt,
        answers,
    };

    view! {
        <section class="play model">
            <SettingsBar settings=settings go=go protocol=true />
            {move || {
                let w = warnings.get();
                (!w.is_empty()).then(|| view! {
                    <div class="notice warn" role="alert" data-testid="url-warnings">
                        <ul>{w.into_iter().map(|w| view! { <li>{w}</li> }).collect_view()}</ul>
                    </div>
                })
            }}
            <PlayerPanel config=config remember=remember />
            {move || {
                let s = settings.get();
                restart.track();
                view! { <Runner settings=s config=config restart=restart /> }
            }}
        </section>
    }
}

/// The player's settings, shared by the panel and the runner.
#[derive(Clone, Copy)]
struct PlayerConfig {
    agent: RwSignal<PlayerKind>,
    endpoint: RwSignal<EndpointSettings>,
    api_key: RwSignal<String>,
    system_prompt: RwSignal<String>,
    /// How a chat model gives its answers (docs/guides/answer-modes.md).
    answers: RwSignal<AnswerSettings>,
}

/// A labelled input bound to one endpoint setting: shows `get`, and hands each change to
/// `set` (which refuses what it cannot read, keeping the old value).
#[component]
fn Field(
    label: &'static str,
    id: &'static str,
    #[prop(optional)] kind: &'static str,
    #[prop(optional)] help: &'static str,
    endpoint: RwSignal<EndpointSettings>,
    get: fn(&EndpointSettings) -> String,
    set: fn(&mut EndpointSettings, &str),
) -> impl IntoView {
    view! {
        <label class="field" title=help>
            <span>{label}</span>
            <input
                type=if kind.is_empty() { "text" } else { kind }
                data-testid=id
                prop:value=move || endpoint.with(get)
                on:change=move |ev| {
                    let v = event_target_value(&ev);
                    endpoint.update(|e| set(e, &v));
                    event_target::<web_sys::HtmlInputElement>(&ev).set_value(&endpoint.with_untracked(get));
                }
            />
        </label>
    }
}

fn number<T: std::str::FromStr>(v: &str, apply: impl FnOnce(T)) {
    if let Ok(n) = v.trim().parse() {
        apply(n);
    }
}

/// Who plays: the agent select and, for a chat model, the endpoint's settings.
#[component]
fn PlayerPanel(config: PlayerConfig, remember: RwSignal<bool>) -> impl IntoView {
    let PlayerConfig {
        agent,
        endpoint,
        api_key,
        system_prompt,
        answers,
    } = config;
    let preset = Memo::new(move |_| endpoint.with(|e| e.preset));
    view! {
        <div class="panel player-panel">
            <div class="row">
                <label class="field">
                    <span>"Player"</span>
                    <select
                        data-testid="agent"
                        prop:value=move || agent.get().name()
                        on:change=move |ev| {
                            if let Some(k) = offered(&event_target_value(&ev)) {
                                agent.set(k);
                            }
                        }
                    >
                        {AGENTS.into_iter().map(|(k, text)| view! {
                            <option value=k.name() selected=move || agent.get() == k>{text}</option>
                        }).collect_view()}
                    </select>
                </label>
            </div>
            {move || match agent.get() {
                PlayerKind::Human => view! {
                    <p class="help">"A person plays the same trials on the "<a href="/play">"Play page"</a>", scored by the same verifiers."</p>
                }.into_any(),
                PlayerKind::Endpoint => view! {
                    <div class="endpoint">
                        <div class="row wrap">
                            <label class="field">
                                <span>"Preset"</span>
                                <select
                                    data-testid="endpoint-preset"
                                    prop:value=move || preset.get().id()
                                    on:change=move |ev| {
                                        if let Ok(p) = Preset::parse(&event_target_value(&ev)) {
                                            endpoint.update(|e| {
                                                let model = e.model.clone();
                                                *e = EndpointSettings { model, ..EndpointSettings::for_preset(p) };
                                                if e.model.is_empty() { e.model = p.example_model().to_string(); }
                                            });
                                        }
                                    }
                                >
                                    {Preset::ALL.into_iter().map(|p| view! {
                                        <option value=p.id() selected=move || preset.get() == p>{p.label()}</option>
                                    }).collect_view()}
                                </select>
                            </label>
                            <Field label="Base URL" id="endpoint-base-url" endpoint=endpoint
                                get=|e| e.base_url.clone() set=|e, v| e.base_url = v.trim().to_string() />
                            <Field label="Model" id="endpoint-model" endpoint=endpoint
                                get=|e| e.model.clone() set=|e, v| e.model = v.trim().to_string() />
                            <label class="field">
                                <span>"API key"</span>
                                <input
                                    type="password"
                                    data-testid="endpoint-api-key"
                                    autocomplete="off"
                                    placeholder=move || if preset.get().needs_key() { "required" } else { "not needed" }
                                    prop:value=move || api_key.get()
                                    on:input=move |ev| api_key.set(event_target_value(&ev))
                                />
                            </label>
                        </div>
                        <p class="help">{move || preset.get().browser_note()}</p>
                        <div class="row wrap">
                            <label class="check">
                                <input type="checkbox" data-testid="endpoint-stream"
                                    prop:checked=move || endpoint.with(|e| e.stream)
                                    on:change=move |ev| endpoint.update(|e| e.stream = event_target_checked(&ev)) />
                                "Stream"
                            </label>
                            <label class="check">
                                <input type="checkbox" data-testid="endpoint-thinking"
                                    prop:checked=move || endpoint.with(|e| e.thinking)
                                    on:change=move |ev| endpoint.update(|e| e.thinking = event_target_checked(&ev)) />
                                "Thinking (streams)"
                            </label>
                            <label class="check">
                                <input type="checkbox" data-testid="endpoint-logprobs"
                                    prop:checked=move || endpoint.with(|e| e.logprobs)
                                    on:change=move |ev| endpoint.update(|e| e.logprobs = event_target_checked(&ev)) />
                                "Log probabilities"
                            </label>
                            <label class="check" title="Keeps the key in this browser's localStorage, readable by anyone using this device profile.">
                                <input type="checkbox" data-testid="endpoint-remember"
                                    prop:checked=move || remember.get()
                                    on:change=move |ev| remember.set(event_target_checked(&ev)) />
                                "Remember the key on this device"
                            </label>
                        </div>
                        {move || remember.get().then(|| view! {
                            <p class="notice warn">"The key is stored unencrypted in this browser (localStorage). Anyone with access to this browser profile can read it. Untick to forget it."</p>
                        })}
                        <AnswerFields answers=answers />
                        <details class="advanced">
                            <summary>"Sampling, timeouts and extras"</summary>
                            <div class="row wrap">
                                <Field label="Temperature" id="endpoint-temperature" kind="number" endpoint=endpoint
                                    get=|e| format_decimal(e.temperature, 3) set=|e, v| if let Some(n) = parse_decimal(v) { e.temperature = n } />
                                <Field label="top_p" id="endpoint-top-p" kind="number" endpoint=endpoint
                                    get=|e| format_decimal(e.top_p, 3) set=|e, v| if let Some(n) = parse_decimal(v) { e.top_p = n } />
                                <Field label="Max tokens" id="endpoint-max-tokens" kind="number" endpoint=endpoint
                                    get=|e| e.max_tokens.to_string() set=|e, v| number(v, |n| e.max_tokens = n) />
                                <Field label="Seed (blank: none)" id="endpoint-seed" endpoint=endpoint
                                    get=|e| e.seed.map(|s| s.to_string()).unwrap_or_default()
                                    set=|e, v| if v.trim().is_empty() { e.seed = None } else { number(v, |n| e.seed = Some(n)) } />
                                <Field label="Timeout (s)" id="endpoint-timeout" kind="number" endpoint=endpoint
                                    get=|e| (e.timeout_ms / 1000).to_string()
                                    set=|e, v| number(v, |n: u64| e.timeout_ms = n.max(1) * 1000) />
                                <Field label="Max attempts" id="endpoint-max-attempts" kind="number" endpoint=endpoint
                                    get=|e| e.max_attempts.to_string() set=|e, v| number(v, |n: u32| e.max_attempts = n.max(1)) />
                            </div>
                            <label class="field wide">
                                <span>"Extra JSON merged into each request"</span>
                                <textarea
                                    data-testid="endpoint-extra"
                                    rows="2"
                                    placeholder="{\"enable_thinking\": false}"
                                    prop:value=move || endpoint.with(|e| e.extra.clone())
                                    on:change=move |ev| endpoint.update(|e| e.extra = event_target_value(&ev))
                                ></textarea>
                            </label>
                            <label class="field wide">
                                <span>"System prompt (optional)"</span>
                                <textarea
                                    data-testid="system-prompt"
                                    rows="2"
                                    prop:value=move || system_prompt.get()
                                    on:change=move |ev| system_prompt.set(event_target_value(&ev))
                                ></textarea>
                            </label>
                        </details>
                    </div>
                }.into_any(),
                _ => view! {
                    <p class="help">"Built-in players need no key and no network: the oracle plays perfectly, the random walker errs now and then in every phase (its policy is in the guide docs/guides/models-and-experiments.md)."</p>
                }.into_any(),
            }}
        </div>
    }
}

/// How a chat model gives its answers: the mode (`answer-mode`), the spelling to ask the
/// endpoint in first (`answer-form`, the preset's order by default) and the transcriber's
/// model (`transcriber`, the player's own when blank).
#[component]
fn AnswerFields(answers: RwSignal<AnswerSettings>) -> impl IntoView {
    view! {
        <div class="row wrap" data-testid="answer-fields">
            <label class="field" title="How the model gives its answers: free text (the design's), held to a JSON schema, a forced function call, or free text copied into the schema by a second call (docs/guides/answer-modes.md).">
                <span>"Answer mode"</span>
                <select
                    data-testid="answer-mode"
                    prop:value=move || answers.with(|a| a.mode.name())
                    on:change=move |ev| {
                        if let Ok(m) = AnswerMode::parse(&event_target_value(&ev)) {
                            answers.update(|a| a.mode = m);
                        }
                    }
                >
                    {AnswerMode::ALL.into_iter().map(|m| view! {
                        <option value=m.name() selected=move || answers.with(|a| a.mode == m)>{m.label()}</option>
                    }).collect_view()}
                </select>
            </label>
            {move || (!answers.with(|a| a.mode.is_free())).then(|| view! {
                <label class="field" title="The spelling asked first; a refusal steps down to the next (the preset knows its endpoint's order).">
                    <span>"Ask the endpoint first as"</span>
                    <select
                        data-testid="answer-form"
                        prop:value=move || answers.with(|a| a.first.map_or("", Spelling::name))
                        on:change=move |ev| {
                            let v = event_target_value(&ev);
                            answers.update(|a| a.first = Spelling::parse(&v).ok());
                        }
                    >
                        <option value="" selected=move || answers.with(|a| a.first.is_none())>"the preset's order"</option>
                        {Spelling::ALL.into_iter().map(|f| view! {
                            <option value=f.name() selected=move || answers.with(|a| a.first == Some(f))>{f.name()}</option>
                        }).collect_view()}
                    </select>
                </label>
            })}
            {move || answers.with(|a| a.mode == AnswerMode::Transcribed).then(|| view! {
                <label class="field">
                    <span>"Transcriber model (blank: the same model)"</span>
                    <input type="text" data-testid="transcriber"
                        prop:value=move || answers.with(|a| a.transcriber.clone().unwrap_or_default())
                        on:change=move |ev| {
                            let v = event_target_value(&ev).trim().to_string();
                            answers.update(|a| a.transcriber = (!v.is_empty()).then_some(v));
                        } />
                </label>
            })}
        </div>
    }
}

/// One of the players the page can run.
enum AnyPlayer {
    Oracle(Oracle),
    Random(Box<RandomWalker>),
    Endpoint(Box<EndpointPlayer<BrowserTransport>>),
}

impl Player for AnyPlayer {
    fn kind(&self) -> PlayerKind {
        match self {
            AnyPlayer::Oracle(p) => p.kind(),
            AnyPlayer::Random(p) => p.kind(),
            AnyPlayer::Endpoint(p) => p.kind(),
        }
    }

    fn name(&self) -> String {
        match self {
            AnyPlayer::Oracle(p) => p.name(),
            AnyPlayer::Random(p) => p.name(),
            AnyPlayer::Endpoint(p) => p.name(),
        }
    }

    async fn respond(
        &mut self,
        trial: &Trial,
        on_event: &mut dyn FnMut(PlayerEvent),
    ) -> Result<Reply, PlayerError> {
        match self {
            AnyPlayer::Oracle(p) => p.respond(trial, on_event).await,
            AnyPlayer::Random(p) => p.respond(trial, on_event).await,
            AnyPlayer::Endpoint(p) => p.respond(trial, on_event).await,
        }
    }
}

/// What a run of the page is doing.
#[derive(Clone, Debug, Default, PartialEq)]
struct RunState {
    running: bool,
    /// Why the last run could not start (bad settings), for people.
    refused: Option<String>,
    /// The retry under way, as the page says it.
    retry: Option<String>,
    /// Text of the reply arriving (streaming).
    live: String,
    /// Reasoning text arriving (streaming).
    live_reasoning: String,
    /// Who played, for the record.
    player: Option<PlayerInfo>,
    started_ms: Option<f64>,
    ended_ms: Option<f64>,
}

/// Why the player chosen in the panel cannot play on this page.
#[derive(Debug)]
enum NotHere {
    /// The endpoint's settings are refused.
    Settings(SettingsError),
    /// A person was chosen: people play on the Play page.
    Person,
}

impl std::fmt::Display for NotHere {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NotHere::Settings(e) => e.fmt(f),
            NotHere::Person => {
                f.write_str("A person plays on the Play page: choose another player here.")
            }
        }
    }
}

/// The player chosen in the panel, ready to play, and what the record says of it; or why
/// it cannot play here, for people.
fn chosen_player(
    config: PlayerConfig,
    settings: PlaySettings,
    transport: &BrowserTransport,
) -> Result<(AnyPlayer, PlayerInfo, AnswerMode), NotHere> {
    let system = config.system_prompt.get_untracked();
    let system = (!system.trim().is_empty()).then_some(system);
    let player = match config.agent.get_untracked() {
        PlayerKind::Random => AnyPlayer::Random(Box::new(RandomWalker::new(
            settings.seed ^ (settings.sample as u64).rotate_left(17),
        ))),
        PlayerKind::Endpoint => {
            let e = config.endpoint.get_untracked();
            e.validate().map_err(NotHere::Settings)?;
            AnyPlayer::Endpoint(Box::new(
                EndpointPlayer::new(
                    transport.clone(),
                    e,
                    config.api_key.get_untracked(),
                    system.clone(),
                )
                .answering(config.answers.get_untracked()),
            ))
        }
        PlayerKind::Human => return Err(NotHere::Person),
        PlayerKind::Oracle | PlayerKind::Scripted => AnyPlayer::Oracle(Oracle),
    };
    let info = PlayerInfo {
        kind: player.kind(),
        model: player.name(),
        endpoint: match &player {
            AnyPlayer::Endpoint(p) => Some(EndpointInfo::from(p.settings())),
            _ => None,
        },
        system_prompt: system,
    };
    // Built-in players answer freely.
    let mode = match &player {
        AnyPlayer::Endpoint(_) => config.answers.with_untracked(|a| a.mode),
        _ => AnswerMode::Free,
    };
    Ok((player, info, mode))
}

/// Plays `t` to its end with `player` through the core's loop, the trial so far shown in
/// `trial` before each prompt and the reply arriving in `state`; `stop` ends it before the
/// next prompt.
fn play_live(
    mut t: Trial,
    mut player: AnyPlayer,
    trial: RwSignal<Trial>,
    state: RwSignal<RunState>,
    stop: Rc<Cell<bool>>,
) {
    let settle = move |s: &mut RunState| {
        s.retry = None;
        s.live.clear();
        s.live_reasoning.clear();
    };
    spawn_local(async move {
        let mut on_event = |ev: PlayerEvent| match ev {
            PlayerEvent::Delta { content, reasoning } => state.update(|s| {
                s.retry = None;
                s.live.push_str(&content);
                s.live_reasoning.push_str(&reasoning);
            }),
            PlayerEvent::Retrying(why) => state.update(|s| s.retry = Some(why)),
            PlayerEvent::Attempt(_) => state.update(|s| {
                s.live.clear();
                s.live_reasoning.clear();
            }),
        };
        play_watched(&mut t, &mut player, &mut on_event, &mut |now| {
            state.update(settle);
            trial.set(now.clone());
            if stop.get() {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        })
        .await;
        trial.set(t);
        state.update(|s| {
            settle(s);
            s.running = false;
            s.ended_ms = Some(js_sys::Date::now());
        });
    });
}

/// One trial for fixed settings, run on demand.
#[component]
fn Runner(settings: PlaySettings, config: PlayerConfig, restart: RwSignal<u32>) -> impl IntoView {
    let library = Arc::new(TemplateLibrary::for_shape(settings.size, settings.shape));
    let maze = match generate_one(settings.shape, settings.sample, settings.seed, &library) {
        Ok(m) => m,
        Err(e) => return view! {
            <div class="notice error" role="alert" data-testid="maze-error">
                <p>{format!("This maze cannot be made: {e}. Choose another sample or seed.")}</p>
            </div>
        }
        .into_any(),
    };
    let setup = TrialSetup {
        protocol: settings.protocol,
        lenient: settings.lenient,
        symbols: settings.symbols,
        vision: settings.vision,
        ..TrialSetup::new(settings.shape, settings.encoding, maze)
    };
    let fresh = Trial::new(setup, library);
    let trial = RwSignal::new(fresh.clone());
    let state = RwSignal::new(RunState::default());
    let downloaded = RwSignal::new(false);
    let stop_flag = Rc::new(Cell::new(false));
    let transport = BrowserTransport::new();
    let loc = use_location();
    Effect::new(move |_| {
        let ran = state.with(|s| s.player.is_some());
        loc.unsaved
            .set((ran && !downloaded.get()).then_some(LEAVE_WARNING));
    });
    {
        // Leaving the runner stops its run: no call is made or paid for behind another
        // page (the address asked first while the replies were not downloaded).
        let kept = StoredValue::new_local((stop_flag.clone(), transport.clone()));
        on_cleanup(move || {
            loc.unsaved.set(None);
            kept.try_with_value(|(flag, transport)| {
                flag.set(true);
                transport.abort();
            });
        });
    }

    let stop_for_run = stop_flag.clone();
    let transport_for_run = transport.clone();
    let run = move |_| {
        if state.with_untracked(|s| s.running) {
            return;
        }
        let (player, info, mode) = match chosen_player(config, settings, &transport_for_run) {
            Ok(chosen) => chosen,
            Err(why) => return state.update(|s| s.refused = Some(why.to_string())),
        };
        // The trial as asked: in the answer mode chosen (the record keeps it).
        let start = Trial::new(
            TrialSetup {
                answer_mode: mode,
                ..fresh.setup().clone()
            },
            fresh.library().clone(),
        );
        trial.set(start.clone());
        downloaded.set(false);
        stop_for_run.set(false);
        transport_for_run.reset();
        state.set(RunState {
            running: true,
            player: Some(info),
            started_ms: Some(js_sys::Date::now()),
            ..RunState::default()
        });
        play_live(start, player, trial, state, stop_for_run.clone());
    };
    let stop = move |_| {
        stop_flag.set(true);
        transport.abort();
    };
    let running = Signal::derive(move || state.with(|s| s.running));
    view! {
        <div class="trial">
            <div class="trial-main">
                <div class="row">
                    <button type="button" class="button primary" data-testid="run-trial"
                        disabled=move || running.get() on:click=run>
                        {move || if state.with(|s| s.player.is_some()) { "Run again" } else { "Run trial" }}
                    </button>
                    <button type="button" class="button" data-testid="stop-trial"
                        disabled=move || !running.get() on:click=stop>
                        "Stop"
                    </button>
                </div>
                {move || state.with(|s| s.refused.clone()).map(|why| view! {
                    <p class="notice error" role="alert" data-testid="settings-error">{why}</p>
                })}
                <RunBoard settings=settings trial=trial state=state />
                <Verdicts trial=trial />
                <RunDownloads settings=settings trial=trial state=state downloaded=downloaded restart=restart />
            </div>
            <aside class="trial-side">
                <div class="panel">
                    <div class="panel-head"><h2>"Transcript"</h2></div>
                    <ol
                        class="transcript"
                        data-testid="transcript"
                        inner_html=move || {
                            let (live, reasoning) = state.with(|s| (s.live.clone(), s.live_reasoning.clone()));
                            trial.with(|t| html::transcript(t.turns(), Some((&live, &reasoning))))
                        }
                    ></ol>
                </div>
            </aside>
        </div>
    }
    .into_any()
}

/// The run's phases, the maze being solved and what the run says about itself (a retry
/// under way, an endpoint's failure, a stop).
#[component]
fn RunBoard(
    settings: PlaySettings,
    trial: RwSignal<Trial>,
    state: RwSignal<RunState>,
) -> impl IntoView {
    let shape = settings.shape;
    let (rows, cols) = (settings.size, settings.size);
    let limit = trial.with_untracked(|t| t.setup().move_limit);
    let board = Signal::derive(move || trial.with(|t| t.shown_maze().display_grid()));
    let trail = Signal::derive(move || trial.with(|t| t.path().to_vec()));
    view! {
        <PhaseSteps trial=trial />
        <div class="status">
            <span class="pill">{format!("{} · {rows}x{cols} · {} · {}", shape.name(), settings.encoding.label(), settings.protocol.name())}</span>
            <span class="moves">
                "Moves " <strong data-testid="moves">{move || trial.with(|t| t.moves())}</strong>
                {format!(" / {limit}")}
            </span>
        </div>
        <MazeBoard
            grid=board
            shape=shape
            ids=SOLVE_BOARD
            on_press=Callback::new(|_| {})
            trail=trail
            active=Signal::derive(|| false)
            label="Maze being solved"
        />
        {move || state.with(|s| s.retry.clone()).map(|why| view! {
            <p class="notice warn" role="status" data-testid="retry-status">{why}</p>
        })}
        // The message says how many attempts were made when there was more than one.
        {move || trial.with(|t| t.api_error().cloned()).map(|f| view! {
            <div class="notice error" role="alert" data-testid="api-error">
                <strong>"The endpoint failed; the trial ended as an API error (not a model failure). "</strong>
                {f.message}
            </div>
        })}
        {move || trial.with(|t| t.stopped()).then(|| view! {
            <p class="notice warn" data-testid="stopped">"The trial was stopped. Its replies so far are kept in the record; run it again to score it."</p>
        })}
    }
}

/// Once the run is over: its record and transcript as files, and a reset.
#[component]
fn RunDownloads(
    settings: PlaySettings,
    trial: RwSignal<Trial>,
    state: RwSignal<RunState>,
    downloaded: RwSignal<bool>,
    restart: RwSignal<u32>,
) -> impl IntoView {
    let record = move || {
        let s = state.get_untracked();
        let player = s.player?;
        Some(trial.with_untracked(|t| {
            TrialRecord::of(
                t,
                player,
                Placement {
                    seed: settings.seed,
                    sample: settings.sample,
                    repeat: 0,
                },
                s.started_ms,
                s.ended_ms,
            )
        }))
    };
    let file_stem = move || {
        let model = state.with_untracked(|s| {
            s.player
                .as_ref()
                .map(|p| shapemaze_core::results::layout::model_dir_name(&p.model))
                .unwrap_or_default()
        });
        format!(
            "{n}x{n}_{}_{}_{}_seed{}_{model}",
            settings.shape.name(),
            settings.sample,
            settings.encoding.name(),
            settings.seed,
            n = settings.size,
        )
    };
    let download_error = RwSignal::new(None::<String>);
    let download_transcript = move |_| {
        if let Some(text) = record().and_then(|r| r.transcript()) {
            let result = download_text(&format!("{}.txt", file_stem()), &text);
            downloaded.set(result.is_ok());
            download_error.set(result.err().map(String::from));
        }
    };
    let download_record = move |_| {
        if let Some(r) = record() {
            let result = r
                .to_json_pretty()
                .map_err(|e| e.to_string())
                .and_then(|json| {
                    download_file(&format!("{}.json", file_stem()), &json, "application/json")
                        .map_err(String::from)
                });
            downloaded.set(result.is_ok());
            download_error.set(result.err());
        }
    };
    let finished = Signal::derive(move || {
        trial.with(|t| t.phase() == Phase::Done) && !state.with(|s| s.running)
    });
    view! {
        {move || finished.get().then(|| view! {
            <div class="row">
                <button type="button" class="button" data-testid="download-record" on:click=download_record>
                    "Download record (JSON)"
                </button>
                {move || trial.with(|t| t.transcript().is_some()).then(|| view! {
                    <button type="button" class="button" data-testid="download-transcript" on:click=download_transcript>
                        "Download transcript"
                    </button>
                })}
                <button type="button" class="button ghost" on:click=move |_| restart.update(|n| *n += 1)>
                    "Reset"
                </button>
            </div>
        })}
        {move || download_error.get().map(|e| view! {
            <p class="notice error">{format!("The download failed: {e}. The trial is still here; try again.")}</p>
        })}
    }
}
