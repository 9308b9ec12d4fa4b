//! `/demo`: the presenter view. A large grid readable from the back of a room and the prompt
//! and reply of each step of a recorded trial, replayed with play, pause, step, back and
//! speed, from the keyboard too (space, arrows), full screen, with a shareable link. It
//! opens a bundled trial (`/demo?trial=NAME`, `public/trials/NAME.json`), a record file
//! the presenter picks, or any maze (`/demo?shape=S&size=N&encoding=E&seed=K&sample=I`,
//! replayed as the oracle plays it), or races two trials of one maze (`/demo?race=A,B`,
//! `race.rs`).

use super::board::{MazeBoard, SOLVE_BOARD};
use super::fetch::{get_text, picked_text};
use super::playback::{drive_playhead, fullscreen, played_by};
use super::race::{race_record, RaceView, Racing};
use super::replay_error::ReplayError;
use super::route::{use_location, Location};
use leptos::prelude::*;
use leptos::task::spawn_local;
use shapemaze_core::maze::generate::generate_one;
use shapemaze_core::maze::templates::TemplateLibrary;
use shapemaze_core::play::phase::Phase;
use shapemaze_core::play::player::PlayerKind;
use shapemaze_core::play::player::{play_ready, Oracle};
use shapemaze_core::play::settings::PlaySettings;
use shapemaze_core::play::trial::{Trial, TrialSetup};
use shapemaze_core::results::race::{parse_race, Race};
use shapemaze_core::results::record::{Placement, PlayerInfo, TrialRecord};
use shapemaze_core::results::replay::{frames, Frame, Playhead, SPEEDS};
use shapemaze_core::verify::Outcome;
use shapemaze_view::choice::choice_figure;

/// A bundled trial's entry in `public/trials/index.json`.
#[derive(Clone, Debug, serde::Deserialize)]
struct Bundled {
    name: String,
    label: String,
}

/// A bundled race's entry in `public/trials/races.json`: two bundled trials of one maze.
#[derive(Clone, Debug, serde::Deserialize)]
struct BundledRace {
    /// The `race` parameter (`A,B`).
    race: String,
    label: String,
}

/// What is being replayed.
#[derive(Clone, Debug)]
pub(crate) struct Loaded {
    record: TrialRecord,
    frames: Vec<Frame>,
    /// Where it came from, for people.
    source: String,
}

pub(crate) fn load(record: TrialRecord, source: String) -> Result<Loaded, ReplayError> {
    let frames = frames(&record).map_err(ReplayError::Frames)?;
    Ok(Loaded {
        record,
        frames,
        source,
    })
}

/// The oracle's trial on the maze of `s`, as a record.
fn oracle_record(s: PlaySettings) -> Result<TrialRecord, ReplayError> {
    let lib = TemplateLibrary::for_shape(s.size, s.shape);
    let maze = generate_one(s.shape, s.sample, s.seed, &lib).map_err(ReplayError::Maze)?;
    let mut t = Trial::start(TrialSetup {
        protocol: s.protocol,
        ..TrialSetup::new(s.shape, s.encoding, maze)
    });
    play_ready(&mut t, &mut Oracle);
    Ok(TrialRecord::of(
        &t,
        PlayerInfo::builtin(PlayerKind::Oracle),
        Placement {
            seed: s.seed,
            sample: s.sample,
            repeat: 0,
        },
        None,
        None,
    ))
}

/// What the page was asked to show last: each request takes the next number, and what a
/// request fetched is shown only while it is still the newest, so a bundled trial that
/// arrives late never replaces a record the presenter chose meanwhile.
#[derive(Clone, Copy)]
struct Requests(StoredValue<(u64, bool)>);

impl Requests {
    fn new() -> Self {
        Requests(StoredValue::new((0, true)))
    }

    /// A new request's number (every earlier one is now stale).
    fn next(self) -> u64 {
        self.0.update_value(|(n, settled)| {
            *n += 1;
            *settled = false;
        });
        self.0.get_value().0
    }

    /// Request `n` has its answer: whether it is still the newest (and so is shown). An
    /// answer that arrives after the page was left is stale too.
    fn settle(self, n: u64) -> bool {
        self.0
            .try_update_value(|(newest, settled)| {
                let current = *newest == n;
                *settled |= current;
                current
            })
            .unwrap_or(false)
    }

    /// Whether no request is waiting for its answer.
    fn idle(self) -> bool {
        self.0.get_value().1
    }
}

/// Opens the race `param` names (`A,B`), or says why it cannot.
fn open_race(
    param: String,
    racing: RwSignal<Option<Racing>>,
    error: RwSignal<Option<String>>,
    requests: Requests,
) {
    let ticket = requests.next();
    let (a, b) = match parse_race(&param) {
        Ok(sides) => sides,
        Err(e) => {
            error.set(Some(format!("This race cannot be shown: {e}.")));
            return;
        }
    };
    spawn_local(async move {
        let result = async {
            let ra = race_record(&a).await?;
            let rb = race_record(&b).await?;
            let race = Race::of(&ra, &rb).map_err(ReplayError::Race)?;
            Ok::<Racing, ReplayError>(Racing { race, a: ra, b: rb })
        }
        .await;
        if !requests.settle(ticket) {
            return;
        }
        match result {
            Ok(r) => {
                error.set(None);
                racing.set(Some(r));
            }
            Err(e) => error.set(Some(format!("This race cannot be shown: {e}."))),
        }
    });
}

/// Fetches the lists of bundled trials and races into `bundled` and `races`.
fn fetch_lists(bundled: RwSignal<Vec<Bundled>>, races: RwSignal<Vec<BundledRace>>) {
    spawn_local(async move {
        if let Ok(text) = get_text("/trials/index.json").await {
            if let Ok(list) = serde_json::from_str::<Vec<Bundled>>(&text) {
                bundled.set(list);
            }
        }
        if let Ok(text) = get_text("/trials/races.json").await {
            if let Ok(list) = serde_json::from_str::<Vec<BundledRace>>(&text) {
                races.set(list);
            }
        }
    });
}

/// The presenter view.
#[component]
pub fn DemoPage() -> impl IntoView {
    let loc = use_location();
    let loaded = RwSignal::new(None::<Loaded>);
    let error = RwSignal::new(None::<String>);
    let bundled = RwSignal::new(Vec::<Bundled>::new());
    let races = RwSignal::new(Vec::<BundledRace>::new());
    let racing = RwSignal::new(None::<Racing>);
    let requests = Requests::new();
    fetch_lists(bundled, races);
    // The bundled trial on show (its option in the list is the selected one).
    let current = RwSignal::new(String::new());
    let open_bundled = move |name: String| {
        let ok = !name.is_empty()
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
        if !ok {
            error.set(Some(format!(
                "'{name}' is not a bundled trial's name (letters, digits, - and _ only)."
            )));
            return;
        }
        current.set(name.clone());
        let ticket = requests.next();
        spawn_local(async move {
            let result = bundled_trial(&name).await;
            if !requests.settle(ticket) {
                return;
            }
            match result {
                Ok(l) => {
                    error.set(None);
                    loaded.set(Some(l));
                }
                Err(e) => error.set(Some(format!(
                    "The trial '{name}' could not be opened: {e}."
                ))),
            }
        });
    };
    // Open what the address names; an address that names nothing opens the first bundled
    // trial, so a presenter's first view is a trial ready to play.
    Effect::new(move |_| {
        let q = loc.query.get();
        racing.set(None);
        if let Some(param) = Location::param(&q, "race") {
            current.set(String::new());
            loaded.set(None);
            open_race(param, racing, error, requests);
        } else if let Some(name) = Location::param(&q, "trial") {
            open_bundled(name);
        } else if Location::param(&q, "shape").is_some() {
            current.set(String::new());
            requests.settle(requests.next());
            let (s, warnings) = PlaySettings::from_query(|k| Location::param(&q, k));
            match oracle_record(s).and_then(|r| load(r, "the oracle on this maze".into())) {
                Ok(l) => {
                    error.set((!warnings.is_empty()).then(|| warnings.join(" ")));
                    loaded.set(Some(l));
                }
                Err(e) => error.set(Some(format!("This maze cannot be shown: {e}."))),
            }
        } else if let Some(first) = bundled.with(|b| b.first().map(|b| b.name.clone())) {
            // Not over a record already shown or being opened.
            if loaded.get_untracked().is_none() && requests.idle() {
                open_bundled(first);
            }
        }
    });
    let open_file = move |ev: leptos::ev::Event| {
        let input = event_target::<web_sys::HtmlInputElement>(&ev);
        let ticket = requests.next();
        spawn_local(async move {
            let result = picked_trial(&input).await;
            if !requests.settle(ticket) {
                return;
            }
            match result {
                Ok(l) => {
                    current.set(String::new());
                    error.set(None);
                    // The record chosen replaces a race on show too.
                    racing.set(None);
                    loaded.set(Some(l));
                }
                Err(e) => error.set(Some(format!(
                    "{e}. Choose a record downloaded from the Model page or an export's trials."
                ))),
            }
        });
    };

    view! {
        <section class="demo">
            <div class="demo-bar">
                <label class="field">
                    <span>"Bundled trial"</span>
                    <select
                        data-testid="demo-trial"
                        on:change=move |ev| {
                            let v = event_target_value(&ev);
                            if !v.is_empty() { loc.navigate(&format!("/demo?trial={v}")); }
                        }
                    >
                        <option value="">"Choose…"</option>
                        {move || bundled.get().into_iter().map(|b| {
                            let name = b.name.clone();
                            view! { <option value=b.name prop:selected=move || current.get() == name>{b.label}</option> }
                        }).collect_view()}
                    </select>
                </label>
                <label class="field">
                    <span>"Race"</span>
                    <select
                        data-testid="demo-race"
                        on:change=move |ev| {
                            let v = event_target_value(&ev);
                            if !v.is_empty() { loc.navigate(&format!("/demo?race={v}")); }
                        }
                    >
                        <option value="">"Choose…"</option>
                        {move || races.get().into_iter().map(|r| {
                            let param = r.race.clone();
                            view! { <option value=r.race prop:selected=move || Location::param(&loc.query.get(), "race").as_deref() == Some(param.as_str())>{r.label}</option> }
                        }).collect_view()}
                    </select>
                </label>
                <label class="field">
                    <span>"Or open a record (JSON)"</span>
                    <input type="file" accept=".json,application/json" data-testid="demo-file" on:change=open_file />
                </label>
            </div>
            {move || error.get().map(|e| view! { <p class="notice error" role="alert" data-testid="demo-error">{e}</p> })}
            {move || match (racing.get(), loaded.get()) {
                (Some(r), _) => {
                    let link = web_sys::window().and_then(|w| w.location().href().ok());
                    view! { <RaceView racing=r link=link /> }.into_any()
                }
                (None, Some(l)) => view! { <Replay loaded=l /> }.into_any(),
                (None, None) if Location::param(&loc.query.get(), "race").is_some() => ().into_any(),
                (None, None) => view! {
                    <p class="lead">"Choose a bundled trial or open a record to replay it step by step. Space plays and pauses, the arrow keys step, F goes full screen."</p>
                }.into_any(),
            }}
        </section>
    }
}

/// The bundled trial `name` (`/trials/NAME.json`), ready to replay.
async fn bundled_trial(name: &str) -> Result<Loaded, ReplayError> {
    let text = get_text(&format!("/trials/{name}.json"))
        .await
        .map_err(ReplayError::Fetch)?;
    let record = TrialRecord::from_json(&text).map_err(|e| ReplayError::NotARecord(None, e))?;
    load(record, format!("bundled trial {name}"))
}

/// The trial record chosen in `input`, ready to replay.
async fn picked_trial(input: &web_sys::HtmlInputElement) -> Result<Loaded, ReplayError> {
    let (name, text) = picked_text(input).await.map_err(ReplayError::Fetch)?;
    let record = TrialRecord::from_json(&text)
        .map_err(|e| ReplayError::NotARecord(Some(name.clone()), e))?;
    load(record, name)
}

/// The frame on screen, read in place: only its position is tracked, so frames are never
/// copied or compared.
#[derive(Clone, Copy)]
struct Shown {
    frames: StoredValue<Vec<Frame>>,
    at: Memo<usize>,
}

impl Shown {
    fn with<R>(self, read: impl FnOnce(&Frame) -> R) -> R {
        let at = self.at.get();
        self.frames.with_value(|f| read(&f[at]))
    }
}

/// The replay of one loaded trial.
#[component]
pub(crate) fn Replay(loaded: Loaded) -> impl IntoView {
    let Loaded {
        record,
        frames,
        source,
    } = loaded;
    let total = frames.len();
    let head = RwSignal::new(Playhead::new(total));
    let frames = StoredValue::new(frames);
    let frame = Shown {
        frames,
        at: Memo::new(move |_| head.with(|h| h.at).min(total - 1)),
    };
    drive_playhead(head);

    let shape = record.shape;
    let grid = Signal::derive(move || frame.with(|f| f.grid.clone()));
    let trail = Signal::derive(move || frame.with(|f| f.path.clone()));
    let share = web_sys::window()
        .and_then(|w| w.location().href().ok())
        .unwrap_or_default();
    let title = format!(
        "{} · {}x{} · {} · {} — played by {}",
        record.shape.name(),
        record.size,
        record.size,
        record.encoding.label(),
        record.protocol.name(),
        played_by(&record)
    );
    view! {
        <div class="replay">
            <div class="replay-head">
                <h1 class="replay-title">{title}</h1>
                <p class="help">{format!("From {source}. Seed {}, sample {}.", record.seed, record.sample)}</p>
            </div>
            <div class="replay-controls" role="toolbar" aria-label="Replay">
                <button type="button" class="button" data-testid="replay-back" on:click=move |_| head.update(|h| { h.playing = false; h.back(); })>"◀ Back"</button>
                <button type="button" class="button primary" data-testid="replay-play"
                    disabled=move || head.with(|h| h.playing)
                    on:click=move |_| head.update(|h| if !h.playing { h.toggle() })>"▶ Play"</button>
                <button type="button" class="button" data-testid="replay-pause"
                    disabled=move || !head.with(|h| h.playing)
                    on:click=move |_| head.update(|h| h.playing = false)>"❚❚ Pause"</button>
                <button type="button" class="button" data-testid="replay-step" on:click=move |_| head.update(|h| { h.playing = false; h.step(); })>"Step ▶"</button>
                <label class="field inline">
                    <span>"Speed"</span>
                    <select data-testid="replay-speed" on:change=move |ev| {
                        let label = event_target_value(&ev);
                        if let Some((v, _)) = SPEEDS.iter().find(|(_, l)| *l == label) { head.update(|h| h.speed = *v); }
                    }>
                        {SPEEDS.into_iter().map(|(_, l)| view! { <option value=l selected=l == "1×">{l}</option> }).collect_view()}
                    </select>
                </label>
                <span class="pill" data-testid="replay-position"
                    data-step=move || head.with(|h| h.at)
                    data-steps=total>
                    {move || format!("Step {} of {}", head.with(|h| h.at) + 1, total)}
                </span>
                <button type="button" class="button ghost" on:click=move |_| fullscreen()>"Full screen"</button>
                <a class="button ghost" href=share data-testid="replay-link">"Link to this"</a>
            </div>
            <div class="replay-body">
                <div class="replay-board">
                    <div class="status">
                        <span class="pill" data-testid="phase" data-phase=move || frame.with(|f| f.phase.name())>
                            {move || frame.with(|f| match f.phase { Phase::Solve => "Solve", Phase::Recognize => "Recognize", Phase::Generate => "Generate", Phase::Done => "Done" })}
                        </span>
                        <span class="moves">"Moves " <strong data-testid="moves">{move || frame.with(|f| f.moves)}</strong></span>
                    </div>
                    <MazeBoard
                        grid=grid
                        shape=shape
                        ids=SOLVE_BOARD
                        on_press=Callback::new(|_| {})
                        trail=trail
                        active=Signal::derive(|| false)
                        label="Replayed maze"
                    />
                </div>
                <div class="replay-text">
                    <h2>"Prompt"</h2>
                    <pre class="replay-prompt" data-testid="replay-prompt" tabindex="0">{move || frame.with(|f| f.prompt.clone())}</pre>
                    <h2>"Reply"</h2>
                    {move || frame.with(|f| f.reasoning.clone()).map(|r| view! {
                        <details class="reasoning"><summary>"Reasoning"</summary><pre tabindex="0">{r}</pre></details>
                    })}
                    <pre class="replay-reply" data-testid="replay-reply" tabindex="0">{move || frame.with(|f| f.reply.clone().unwrap_or_else(|| "(the first prompt; no reply yet)".into()))}</pre>
                    {move || frame.with(|f| f.verdict.clone()).map(|v| {
                        let outcome = v.outcome.name();
                        view! {
                            <p class=format!("verdict {outcome}") data-testid="replay-verdict" data-outcome=outcome>
                                <strong>{match v.outcome { Outcome::Success => "✓ ", Outcome::Fail => "✗ ", Outcome::Error => "! " }}</strong>
                                <code class="reason">{v.reason.as_str()}</code>
                                " "
                                {v.explanation}
                            </p>
                        }
                    })}
                    <div class="replay-choice" data-testid="replay-choice"
                        inner_html=move || frame.with(|f| f.choice.as_ref().map(choice_figure).unwrap_or_default())></div>
                </div>
            </div>
        </div>
    }
}
