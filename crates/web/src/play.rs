//! `/play`: one three-phase trial played by a person.

use super::board::{MazeBoard, DRAW_BOARD, SOLVE_BOARD};
use super::download::download_text;
use super::route::{use_location, Location};
use leptos::prelude::*;
use shapemaze_core::maze::encoding::{CoordStyle, Encoding};
use shapemaze_core::maze::generate::generate_one;
use shapemaze_core::maze::grid::{Grid, Pos, Tile, SIZES};
use shapemaze_core::maze::shape::Shape;
use shapemaze_core::maze::templates::TemplateLibrary;
use shapemaze_core::play::condition::Condition;
use shapemaze_core::play::phase::Phase;
use shapemaze_core::play::settings::{key_target, paint, PlaySettings, MAX_SAMPLE};
use shapemaze_core::play::trial::{Protocol, Trial, TrialSetup};
use shapemaze_core::study::RecognitionMode;
use shapemaze_core::verify::{Outcome, Verdict};
use std::sync::Arc;

/// Asked before a trial in progress (or finished but not downloaded) is left.
const LEAVE_WARNING: &str =
    "Leave this trial? Its moves and answers are lost unless you download the transcript first.";

/// The settings the page's address asks for, with a warning per parameter it could not use.
pub(crate) fn url_settings(loc: Location) -> Memo<(PlaySettings, Vec<String>)> {
    Memo::new(move |_| {
        let q = loc.query.get();
        PlaySettings::from_query(|k| Location::param(&q, k))
    })
}

/// The play page: settings, then a fresh trial for them.
#[component]
pub fn PlayPage() -> impl IntoView {
    let loc = use_location();
    let parsed = url_settings(loc);
    let settings = Memo::new(move |_| parsed.get().0);
    let warnings = Memo::new(move |_| parsed.get().1);
    // Without a shape in the address, one drawn at random for each address (so "Play this
    // maze again" keeps it): the player is not told which until they have named it.
    let drawn = Memo::new(move |_| {
        let s = settings.get();
        if s.shape_chosen {
            return s;
        }
        let six = Shape::STANDARD;
        let i = (js_sys::Math::random() * six.len() as f64) as usize;
        PlaySettings {
            shape: six[i.min(six.len() - 1)],
            ..s
        }
    });
    let restart = RwSignal::new(0u32);
    let go = Callback::new(move |s: PlaySettings| loc.navigate(&format!("/play?{}", s.to_query())));

    view! {
        <section class="play">
            <SettingsBar settings=settings go=go any=true />
            {move || {
                let w = warnings.get();
                (!w.is_empty()).then(|| view! {
                    <div class="notice warn" role="alert" data-testid="url-warnings">
                        <ul>{w.into_iter().map(|w| view! { <li>{w}</li> }).collect_view()}</ul>
                    </div>
                })
            }}
            {move || {
                let s = drawn.get();
                restart.track();
                view! { <TrialView settings=s go=go restart=restart /> }
            }}
        </section>
    }
}

/// Shape, size, encoding, seed and sample (and the protocol, when asked), applied by
/// navigating to the matching URL.
#[component]
pub(super) fn SettingsBar(
    settings: Memo<PlaySettings>,
    go: Callback<PlaySettings>,
    /// Whether to offer the protocol (the model page does; a person plays stepwise).
    #[prop(optional)]
    protocol: bool,
    /// Whether to offer "any shape" (the play page's default: a shape drawn at random,
    /// not named to the player).
    #[prop(optional)]
    any: bool,
) -> impl IntoView {
    let change = move |apply: fn(&mut PlaySettings, &str)| {
        Callback::new(move |v: String| {
            let mut s = settings.get_untracked();
            apply(&mut s, &v);
            go.run(s);
        })
    };
    view! {
        <form class="settings" on:submit=|ev| ev.prevent_default() aria-label="Trial settings">
            <Setting
                label="Shape"
                id="setting-shape"
                options=any.then(|| (ANY_SHAPE.to_string(), "any shape".to_string())).into_iter()
                    .chain(Shape::ALL.into_iter().map(|s| (s.name().to_string(), s.name().to_string())))
                    .collect()
                value=Signal::derive(move || {
                    let s = settings.get();
                    if any && !s.shape_chosen { ANY_SHAPE.to_string() } else { s.shape.name().to_string() }
                })
                on_change=change(|s, v| {
                    s.sample = 0;
                    match Shape::parse(v) {
                        Ok(x) => { s.shape = x; s.shape_chosen = true; }
                        Err(_) => s.shape_chosen = false,
                    }
                })
            />
            <Setting
                label="Size"
                id="setting-size"
                options=SIZES.into_iter().map(|n| (n.to_string(), format!("{n} x {n}"))).collect()
                value=Signal::derive(move || settings.get().size.to_string())
                on_change=change(|s, v| if let Ok(n) = v.parse() { s.size = n; s.sample = 0; })
            />
            <Setting
                label="Encoding"
                id="setting-encoding"
                options=Encoding::ALL.into_iter().map(|e| (e.name().to_string(), e.label().to_string())).collect()
                value=Signal::derive(move || settings.get().encoding.name().to_string())
                on_change=change(|s, v| if let Ok(e) = Encoding::parse(v) { s.encoding = e; })
            />
            <NumberSetting
                label="Seed"
                id="setting-seed"
                value=Signal::derive(move || settings.get().seed.to_string())
                on_change=change(|s, v| if let Ok(n) = v.trim().parse() { s.seed = n; s.sample = 0; })
            />
            <NumberSetting
                label="Sample"
                id="setting-sample"
                value=Signal::derive(move || settings.get().sample.to_string())
                on_change=change(|s, v| if let Ok(n) = v.trim().parse::<usize>() { s.sample = n.min(MAX_SAMPLE); })
            />
            {protocol.then(|| view! {
                <Setting
                    label="Protocol"
                    id="setting-protocol"
                    options=Protocol::ALL.into_iter().map(|p| (p.name().to_string(), p.label().to_string())).collect()
                    value=Signal::derive(move || settings.get().protocol.name().to_string())
                    on_change=change(|s, v| if let Ok(p) = Protocol::parse(v) { s.protocol = p; })
                />
            })}
            <button
                type="button"
                class="button"
                data-testid="next-maze"
                on:click=move |_| {
                    let s = settings.get_untracked();
                    go.run(PlaySettings { sample: (s.sample + 1).min(MAX_SAMPLE), ..s });
                }
            >
                "Next maze"
            </button>
        </form>
    }
}

/// The shape select's value for "any shape": one drawn at random and not named.
const ANY_SHAPE: &str = "any";

/// A labelled select among `options` (value, text).
#[component]
fn Setting(
    label: &'static str,
    id: &'static str,
    options: Vec<(String, String)>,
    value: Signal<String>,
    on_change: Callback<String>,
) -> impl IntoView {
    view! {
        <label>
            {label}
            <select
                data-testid=id
                prop:value=move || value.get()
                on:change=move |ev| {
                    on_change.run(event_target_value(&ev));
                    // A refused change (leaving the trial was cancelled) is put back.
                    event_target::<web_sys::HtmlSelectElement>(&ev).set_value(&value.get_untracked());
                }
            >
                {options
                    .into_iter()
                    .map(|(v, text)| {
                        let selected = v.clone();
                        view! { <option value=v selected=move || value.get() == selected>{text}</option> }
                    })
                    .collect_view()}
            </select>
        </label>
    }
}

/// A labelled whole-number input.
#[component]
fn NumberSetting(
    label: &'static str,
    id: &'static str,
    value: Signal<String>,
    on_change: Callback<String>,
) -> impl IntoView {
    view! {
        <label>
            {label}
            <input
                type="number"
                min="0"
                data-testid=id
                prop:value=move || value.get()
                on:change=move |ev| {
                    on_change.run(event_target_value(&ev));
                    // A refused value (not a number, or leaving was cancelled) is put back.
                    event_target::<web_sys::HtmlInputElement>(&ev).set_value(&value.get_untracked());
                }
            />
        </label>
    }
}

/// One trial for fixed settings.
#[component]
fn TrialView(
    settings: PlaySettings,
    go: Callback<PlaySettings>,
    restart: RwSignal<u32>,
) -> impl IntoView {
    let library = Arc::new(TemplateLibrary::for_shape(settings.size, settings.shape));
    match generate_one(settings.shape, settings.sample, settings.seed, &library) {
        Ok(maze) => {
            let setup = TrialSetup {
                lenient: settings.lenient,
                symbols: settings.symbols,
                ..TrialSetup::new(settings.shape, settings.encoding, maze)
            };
            let trial = Trial::new(setup, library);
            view! { <TrialBoard trial=trial settings=settings go=go restart=restart /> }.into_any()
        }
        Err(e) => view! {
            <div class="notice error" role="alert" data-testid="maze-error">
                <p>{format!("This maze cannot be made: {e}.")}</p>
                <button class="button" on:click=move |_| go.run(PlaySettings { sample: 0, ..settings })>
                    "Play the first maze of this set instead"
                </button>
            </div>
        }
        .into_any(),
    }
}

/// How a shared trial view asks and reports (the play page and the study pages differ).
#[derive(Clone, Copy)]
pub(super) struct PlayOptions {
    /// Recognition typed freely, or chosen among the shapes' buttons.
    pub recognition: RecognitionMode,
    /// The clickable grid, or the very text a model sees with answers typed.
    pub condition: Condition,
    /// Told of every action: the phase it happened in (before the trial took it: the move
    /// that reaches the goal is the solve's), its kind (`move`, `key`, `answer`, `choice`,
    /// `paint`, `submit`, ...) and its detail, after the trial has taken it.
    pub on_action: Option<Callback<(Phase, &'static str, String)>>,
    /// Whether the player chose the shape (`/play?shape=`): only then is it named above
    /// the maze. Otherwise nothing on the page names it before the recognition answer.
    pub name_shape: bool,
    /// Puts the forced choice's shapes in the order this player sees them (a study's:
    /// the participant's own order); none: the shapes' order.
    pub choice_order: Option<Callback<Vec<Shape>, Vec<Shape>>>,
}

/// What stands above the maze: its size, in the text condition the encoding it is written
/// in, and the shape only when the player chose it (the play page's settings say the rest).
fn pill(
    shape: Shape,
    rows: usize,
    cols: usize,
    encoding: Encoding,
    options: PlayOptions,
) -> String {
    let mut parts = Vec::new();
    if options.name_shape {
        parts.push(shape.name().to_string());
    }
    parts.push(format!("{rows}x{cols}"));
    if options.condition == Condition::Text {
        parts.push(encoding.label().to_string());
    }
    parts.join(" · ")
}

/// One trial played by a person: the phase steps, the maze (grid or text), the question of
/// the current phase and the verdicts. The caller owns the trial and adds what follows it.
#[component]
pub(super) fn TrialPlay(trial: RwSignal<Trial>, options: PlayOptions) -> impl IntoView {
    let (shape, encoding, limit, rows, cols, symbols) = trial.with_untracked(|t| {
        let s = t.setup();
        (
            s.shape,
            s.encoding,
            s.move_limit,
            s.maze.rows(),
            s.maze.cols(),
            s.symbols,
        )
    });
    let text_mode = options.condition == Condition::Text;
    let phase = Memo::new(move |_| trial.with(|t| t.phase()));
    // Focus follows the trial: when a phase ends it moves to the next phase's heading (at
    // the end, to the verdicts or what the page adds after them), so a keyboard or screen
    // reader user is never left on a cell that no longer takes input.
    Effect::new(move |before: Option<Phase>| {
        let now = phase.get();
        if before.is_some_and(|b| b != now) {
            request_animation_frame(focus_phase);
        }
        now
    });
    let board = Signal::derive(move || trial.with(|t| t.shown_maze().display_grid()));
    let trail = Signal::derive(move || trial.with(|t| t.path().to_vec()));
    let solving = Signal::derive(move || phase.get() == Phase::Solve);
    let press = Callback::new(move |p: Pos| {
        let before = trial.with_untracked(Trial::phase);
        trial.update(|t| {
            t.click(p);
        });
        tell(options, before, "move", p.to_string());
    });
    if !text_mode {
        solve_by_keys(trial, phase, press, options);
    }
    let as_text = move |g: &Grid| encoding.render_in(g, CoordStyle::Spaced, symbols);

    view! {
        <PhaseSteps trial=trial />
        <div class="status">
            <span class="pill">{pill(shape, rows, cols, encoding, options)}</span>
            <span class="moves">
                "Moves " <strong data-testid="moves">{move || trial.with(|t| t.moves())}</strong>
                {format!(" / {limit}")}
            </span>
        </div>
        {if text_mode {
            view! {
                <pre class="encoded big" data-testid="maze-text" tabindex="0" aria-label="The maze as text">{move || trial.with(|t| as_text(t.shown_maze().grid()))}</pre>
                {(!symbols.is_standard()).then(|| view! { <p class="help" data-testid="maze-legend">{format!("Symbols: {}.", symbols.describe())}</p> })}
            }.into_any()
        } else {
            view! {
                <MazeBoard
                    grid=board
                    shape=shape
                    ids=SOLVE_BOARD
                    on_press=press
                    trail=trail
                    active=solving
                    label="Maze to solve"
                />
            }.into_any()
        }}
        <p class="last-move" aria-live="polite">
            {move || trial.with(|t| t.last_move().map(|v| v.explanation.clone()))}
        </p>
        {move || match phase.get() {
            Phase::Solve => view! { <SolvePanel trial=trial options=options /> }.into_any(),
            Phase::Recognize => view! { <RecognizePanel trial=trial options=options /> }.into_any(),
            Phase::Generate if text_mode => view! { <WriteMazePanel trial=trial options=options /> }.into_any(),
            Phase::Generate => view! { <DrawMazePanel trial=trial options=options /> }.into_any(),
            Phase::Done => ().into_any(),
        }}
        <Verdicts trial=trial />
    }
}

/// Tells the page of an action a person took in `phase` (see [`PlayOptions::on_action`]).
fn tell(options: PlayOptions, phase: Phase, kind: &'static str, detail: String) {
    if let Some(cb) = options.on_action {
        cb.run((phase, kind, detail));
    }
}

/// What the help calls the player and the goal: the text's symbols in the text condition
/// (a coordinate list has none, so its set is the standard one), the board's P and G
/// otherwise.
fn player_and_goal(trial: RwSignal<Trial>, options: PlayOptions) -> (char, char) {
    if options.condition == Condition::Text {
        let symbols = trial.with_untracked(|t| t.setup().symbols);
        (symbols.of(Tile::Player), symbols.of(Tile::Goal))
    } else {
        ('P', 'G')
    }
}

/// The keys' help for the shape's moves.
fn movement_help(shape: Shape) -> &'static str {
    match shape.movement().directions() {
        8 => "8 directions: arrows or W A S D, and Q E Z C (or keypad 7 9 1 3) for diagonals",
        _ => "4 directions: arrows or W A S D",
    }
}

/// The arrow and letter keys move the player on the board while the solve phase lasts
/// (not while a field has the focus, and not on a held key's repeats).
fn solve_by_keys(
    trial: RwSignal<Trial>,
    phase: Memo<Phase>,
    press: Callback<Pos>,
    options: PlayOptions,
) {
    let shape = trial.with_untracked(|t| t.setup().shape);
    let keys = window_event_listener(leptos::ev::keydown, move |ev| {
        // A held key repeats; a repeat must not walk the player on into a wall.
        if ev.repeat()
            || ev.ctrl_key()
            || ev.meta_key()
            || ev.alt_key()
            || phase.get_untracked() != Phase::Solve
        {
            return;
        }
        let typing = ev
            .target()
            .and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(t).ok())
            .is_some_and(|el| matches!(el.tag_name().as_str(), "INPUT" | "TEXTAREA" | "SELECT"));
        if typing {
            return;
        }
        let target = trial.with_untracked(|t| {
            key_target(
                &ev.key(),
                shape.movement(),
                t.current().player(),
                t.current().grid(),
            )
        });
        if let Some(to) = target {
            ev.prevent_default();
            tell(options, Phase::Solve, "key", ev.key());
            press.run(to);
        }
    });
    on_cleanup(move || keys.remove());
}

/// The solve phase's rule for people, and in the text condition the box the move is
/// typed in.
#[component]
fn SolvePanel(trial: RwSignal<Trial>, options: PlayOptions) -> impl IntoView {
    let (shape, limit, lenient) = trial.with_untracked(|t| {
        let s = t.setup();
        (s.shape, s.move_limit, s.lenient)
    });
    let (p_name, _) = player_and_goal(trial, options);
    // The lenient protocol's rule, for people.
    let forgiven = format!(
        "An invalid move (a wall, or a cell not next to {p_name}) is forgiven {lenient} time{}: it uses a move and {p_name} stays; the next one ends the solve phase",
        if lenient == 1 { "" } else { "s" }
    );
    if options.condition != Condition::Text {
        return view! {
            <p class="help">
                "Move P to G in at most " {limit} " moves: click a neighbouring open cell, or use the keys ("
                {movement_help(shape)} "). "
                <strong>{if lenient == 0 { "A click on a wall or on a cell that is not next to P is an invalid move and ends the solve phase".to_string() } else { forgiven }}</strong>
                ", exactly as for a model."
            </p>
        }
        .into_any();
    }
    let typed_move = RwSignal::new(String::new());
    let submit_move = move || {
        let m = typed_move.get_untracked();
        if !m.trim().is_empty() {
            let before = trial.with_untracked(Trial::phase);
            trial.update(|t| {
                t.submit_move(&m);
            });
            typed_move.set(String::new());
            tell(options, before, "move", m);
        }
    };
    view! {
        <form class="phase-panel" on:submit=move |ev| { ev.prevent_default(); submit_move(); }>
            <p class="help">
                {format!("Type the cell {p_name} moves to as (row, column), counted from 0 at the top left, in at most {limit} moves. ")}
                <strong>{if lenient == 0 { format!("A wall, a cell that is not next to {p_name}, or an answer with no cell ends the solve phase") } else { format!("{forgiven}; an answer with no cell ends it at once") }}</strong>", exactly as for a model."
            </p>
            <div class="row">
                <input type="text" data-testid="move-answer" placeholder="(row, col)" autocomplete="off"
                    prop:value=move || typed_move.get() on:input=move |ev| typed_move.set(event_target_value(&ev)) />
                <button type="submit" class="button primary" data-testid="submit-move">"Move"</button>
            </div>
        </form>
    }
    .into_any()
}

/// The recognition question: the shapes in play as buttons, or an answer typed freely.
#[component]
fn RecognizePanel(trial: RwSignal<Trial>, options: PlayOptions) -> impl IntoView {
    let (p_name, g_name) = player_and_goal(trial, options);
    let submit_answer = move |a: String, kind: &'static str| {
        if !a.trim().is_empty() {
            let before = trial.with_untracked(Trial::phase);
            trial.update(|t| {
                t.submit_recognition(&a);
            });
            tell(options, before, kind, a);
        }
    };
    if options.recognition == RecognitionMode::Choice {
        // The shapes offered as answers: those in play (the design's six, and U or N when
        // the page, study or design adds them).
        let in_play = trial.with_untracked(|t| t.library().shapes().shapes());
        let in_play = match options.choice_order {
            Some(order) => order.run(in_play),
            None => in_play,
        };
        return view! {
            <div class="phase-panel">
                <h2 tabindex="-1" data-phase-focus="">"Which shape do the open cells form?"</h2>
                <p class="help">{format!("Look at every open cell ({p_name} and {g_name} included), not only your path.")}</p>
                <div class="row">
                    {in_play.into_iter().map(|s| view! {
                        <button type="button" class="button" data-testid=format!("shape-choice-{}", s.name())
                            on:click=move |_| submit_answer(s.name().to_string(), "choice")>
                            {s.name()}
                        </button>
                    }).collect_view()}
                </div>
            </div>
        }
        .into_any();
    }
    let answer = RwSignal::new(String::new());
    view! {
        <form class="phase-panel" on:submit=move |ev| { ev.prevent_default(); submit_answer(answer.get_untracked(), "answer"); }>
            <h2 tabindex="-1" data-phase-focus="">"Which shape do the open cells form?"</h2>
            <p class="help">{format!("Look at every open cell ({p_name} and {g_name} included), not only your path. Answer in your own words: a word or two naming the shape.")}</p>
            <div class="row">
                <input
                    type="text"
                    data-testid="shape-answer"
                    placeholder="Your answer"
                    autocomplete="off"
                    prop:value=move || answer.get()
                    on:input=move |ev| answer.set(event_target_value(&ev))
                />
                <button
                    type="submit"
                    class="button primary"
                    data-testid="submit-recognition"
                    disabled=move || answer.get().trim().is_empty()
                >
                    "Submit answer"
                </button>
            </div>
        </form>
    }
    .into_any()
}

/// Submits a generated maze given as text, and tells the page.
fn submit_maze(trial: RwSignal<Trial>, options: PlayOptions, text: String) {
    let before = trial.with_untracked(Trial::phase);
    trial.update(|t| {
        t.submit_generation(&text);
    });
    tell(options, before, "submit", text);
}

/// The generation phase in the text condition: the new maze typed in the trial's encoding.
#[component]
fn WriteMazePanel(trial: RwSignal<Trial>, options: PlayOptions) -> impl IntoView {
    let (encoding, rows, cols) = trial.with_untracked(|t| {
        let s = t.setup();
        (s.encoding, s.maze.rows(), s.maze.cols())
    });
    let (p_name, g_name) = player_and_goal(trial, options);
    let typed_maze = RwSignal::new(String::new());
    view! {
        <div class="phase-panel">
            <h2 tabindex="-1" data-phase-focus="">{format!("Write a new {rows}x{cols} maze of the same shape")}</h2>
            <p class="help">{format!("In the same encoding as above ({}), with one {p_name} and one {g_name} joined by a path; not a copy of the original.", encoding.label())}</p>
            <textarea data-testid="maze-answer" rows="8" class="maze-answer"
                prop:value=move || typed_maze.get() on:input=move |ev| typed_maze.set(event_target_value(&ev))></textarea>
            <button type="button" class="button primary" data-testid="submit-generation" on:click=move |_| submit_maze(trial, options, typed_maze.get_untracked())>
                "Submit maze"
            </button>
        </div>
    }
}

/// The generation phase on the board: the new maze drawn with the tools, submitted as the
/// trial's encoding writes it.
#[component]
fn DrawMazePanel(trial: RwSignal<Trial>, options: PlayOptions) -> impl IntoView {
    let (shape, encoding, rows, cols, symbols) = trial.with_untracked(|t| {
        let s = t.setup();
        (s.shape, s.encoding, s.maze.rows(), s.maze.cols(), s.symbols)
    });
    let drawing = RwSignal::new(Grid::walls(rows, cols));
    let tool = RwSignal::new(Tile::Empty);
    let paint_at = Callback::new(move |p: Pos| {
        drawing.update(|g| paint(g, p, tool.get_untracked()));
        tell(
            options,
            Phase::Generate,
            "paint",
            format!("{} {p}", tool.get_untracked().name()),
        );
    });
    // The maze as text, in the trial's symbols (a drawn maze is submitted so too).
    let submit = move || {
        let text = encoding.render_in(&drawing.get_untracked(), CoordStyle::Spaced, symbols);
        submit_maze(trial, options, text);
    };
    view! {
        <div class="phase-panel">
            <h2 tabindex="-1" data-phase-focus="">{format!("Draw a new {rows}x{cols} maze of the same shape")}</h2>
            <p class="help">
                "Choose a tool, then click or drag over the grid (or move between cells with the arrow keys and press Enter). It must be the same shape, have one P and one G joined by a path ("
                {movement_help(shape).split(':').next().unwrap_or("")} "), and not be a copy of the original."
            </p>
            <div class="tools" role="toolbar" aria-label="Drawing tools">
                {[(Tile::Wall, "tool-wall", "Wall"), (Tile::Empty, "tool-empty", "Open"), (Tile::Player, "tool-player", "Player P"), (Tile::Goal, "tool-goal", "Goal G")]
                    .into_iter()
                    .map(|(t, id, label)| view! {
                        <button
                            type="button"
                            class="button tool"
                            data-testid=id
                            data-tile=t.name()
                            class:selected=move || tool.get() == t
                            aria-pressed=move || (tool.get() == t).to_string()
                            on:click=move |_| tool.set(t)
                        >
                            <span class=format!("swatch {}", t.name())></span>
                            {label}
                        </button>
                    })
                    .collect_view()}
                <button type="button" class="button ghost" data-testid="draw-clear" on:click=move |_| drawing.set(Grid::walls(rows, cols))>
                    "Clear"
                </button>
            </div>
            <MazeBoard
                grid=drawing
                shape=shape
                ids=DRAW_BOARD
                on_press=paint_at
                on_drag=paint_at
                active=Signal::derive(|| true)
                label="Your new maze"
                arrows_move_focus=true
            />
            <button type="button" class="button primary" data-testid="submit-generation" on:click=move |_| submit()>
                "Submit maze"
            </button>
        </div>
    }
}

#[component]
fn TrialBoard(
    trial: Trial,
    settings: PlaySettings,
    go: Callback<PlaySettings>,
    restart: RwSignal<u32>,
) -> impl IntoView {
    let setup = trial.setup();
    let shape = setup.shape;
    let (encoding, symbols) = (setup.encoding, setup.symbols);
    let (rows, cols) = (setup.maze.rows(), setup.maze.cols());
    let trial = RwSignal::new(trial);
    let loc = use_location();
    let downloaded = RwSignal::new(false);
    Effect::new(move |_| {
        let started = trial.with(|t| t.moves() > 0 || t.phase() != Phase::Solve);
        let at_risk = started && !downloaded.get();
        loc.unsaved.set(at_risk.then_some(LEAVE_WARNING));
    });
    on_cleanup(move || loc.unsaved.set(None));
    let phase = Memo::new(move |_| trial.with(|t| t.phase()));
    let grid = Signal::derive(move || trial.with(|t| t.shown_maze().grid().clone()));
    let view_encoding = RwSignal::new(encoding);
    let download_error = RwSignal::new(None::<String>);
    let download = move |_| {
        if let Some(text) = trial.with_untracked(|t| t.transcript()) {
            let name = format!(
                "{rows}x{cols}_{}_{}_{}_seed{}_human.txt",
                shape.name(),
                settings.sample,
                encoding.name(),
                settings.seed
            );
            let result = download_text(&name, &text);
            downloaded.set(result.is_ok());
            download_error.set(result.err().map(String::from));
        }
    };
    let options = PlayOptions {
        recognition: RecognitionMode::Free,
        condition: Condition::Grid,
        on_action: None,
        name_shape: settings.shape_chosen,
        choice_order: None,
    };

    view! {
        <div class="trial">
            <div class="trial-main">
                <TrialPlay trial=trial options=options />
                {move || (phase.get() == Phase::Done).then(|| view! {
                    <div class="phase-panel done">
                        <h2>"Trial complete"</h2>
                        <div class="row">
                            <button type="button" class="button primary" data-testid="download-transcript" on:click=download>
                                "Download transcript"
                            </button>
                            <button type="button" class="button" on:click=move |_| {
                                if loc.may_leave() {
                                    loc.unsaved.set(None);
                                    restart.update(|n| *n += 1);
                                }
                            }>
                                "Play this maze again"
                            </button>
                            <button
                                type="button"
                                class="button"
                                on:click=move |_| go.run(PlaySettings { sample: (settings.sample + 1).min(MAX_SAMPLE), ..settings })
                            >
                                "Next maze"
                            </button>
                        </div>
                        {move || download_error.get().map(|e| view! { <p class="notice error">{format!("The download failed: {e}. Your results are still here; try again.")}</p> })}
                    </div>
                })}
            </div>
            <aside class="trial-side">
                <div class="panel">
                    <div class="panel-head">
                        <h2>"What a model sees"</h2>
                        <div class="segmented" role="group" aria-label="Encoding shown">
                            {Encoding::ALL.into_iter().map(|e| view! {
                                <button
                                    type="button"
                                    data-testid=format!("view-{}", e.name())
                                    class:selected=move || view_encoding.get() == e
                                    aria-pressed=move || (view_encoding.get() == e).to_string()
                                    on:click=move |_| view_encoding.set(e)
                                >
                                    {e.label()}
                                </button>
                            }).collect_view()}
                        </div>
                    </div>
                    <pre class="encoded" data-testid="encoding-view" tabindex="0">
                        {move || view_encoding.get().render_in(&grid.get(), CoordStyle::Spaced, symbols)}
                    </pre>
                    <details class="prompt">
                        <summary>"As an image (the vision condition)"</summary>
                        <img data-testid="image-view" alt="The maze drawn as the vision condition sends it to a model" src=move || shapemaze_core::maze::image::grid_data_url(&grid.get()) />
                    </details>
                    <details class="prompt">
                        <summary>"Full prompt of this step"</summary>
                        <pre tabindex="0">{move || trial.with(|t| t.pending_prompt().map(str::to_string).unwrap_or_else(|| "The trial is complete.".into()))}</pre>
                    </details>
                </div>
            </aside>
        </div>
    }
}

/// The four phases, the current one marked, each ended one with its outcome (✓ passed,
/// ✗ failed, ! an API error, not judged).
#[component]
pub(super) fn PhaseSteps(trial: RwSignal<Trial>) -> impl IntoView {
    let phase = Memo::new(move |_| trial.with(|t| t.phase()));
    let outcomes = Memo::new(move |_| trial.with(|t| t.outcomes()));
    view! {
        <ol class="steps" data-testid="phase" data-phase=move || phase.get().name()>
            {Phase::ALL.into_iter().map(|p| {
                let label = match p {
                    Phase::Solve => "Solve",
                    Phase::Recognize => "Recognize",
                    Phase::Generate => "Generate",
                    Phase::Done => "Done",
                };
                let outcome = move || outcomes.get().get(p as usize).copied().flatten();
                view! {
                    <li
                        class:current=move || phase.get() == p
                        class:past=move || { phase.get() as u8 > p as u8 }
                        class:failed=move || outcome() == Some(Outcome::Fail)
                        class:error=move || outcome() == Some(Outcome::Error)
                    >
                        {label}
                    </li>
                }
            }).collect_view()}
        </ol>
    }
}

/// Moves the focus to the last element marked `data-phase-focus` (the current phase's
/// heading, or at the end what follows the verdicts).
pub(super) fn focus_phase() {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let Ok(all) = doc.query_selector_all("[data-phase-focus]") else {
        return;
    };
    if let Some(el) = all
        .item(all.length().saturating_sub(1))
        .and_then(|n| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(n).ok())
    {
        let _ = el.focus();
    }
}

/// The verdict of each phase that has ended.
#[component]
pub(super) fn Verdicts(trial: RwSignal<Trial>) -> impl IntoView {
    let row = move |id: &'static str, title: &'static str, pick: fn(&Trial) -> Option<&Verdict>| {
        move || {
            trial.with(|t| pick(t).cloned()).map(|v| {
                let outcome = v.outcome.name();
                view! {
                    <div class=format!("verdict {outcome}") data-testid=id data-outcome=outcome>
                        <span class="badge">{match v.outcome { Outcome::Success => "✓", Outcome::Fail => "✗", Outcome::Error => "!" }}</span>
                        <div>
                            <strong>{format!("{title}: {}", match v.outcome { Outcome::Error => "API error (not judged)", o => o.name() })}</strong>
                            // An API error's message is in the page's error notice, once.
                            <p>{match v.outcome { Outcome::Error => "The endpoint failed; its error is shown above.".to_string(), _ => v.explanation.clone() }}</p>
                            <code class="reason">{v.reason.as_str()}</code>
                        </div>
                    </div>
                }
            })
        }
    };
    let done = move || trial.with(|t| t.phase() == Phase::Done);
    view! {
        <div class="verdicts" tabindex="-1" aria-label="Verdicts" role="region"
            data-phase-focus=move || done().then_some("")>
            {row("verdict-solve", "Solve", Trial::solve_verdict)}
            {row("verdict-recognize", "Recognize", Trial::recognize_verdict)}
            {row("verdict-generate", "Generate", Trial::generate_verdict)}
        </div>
    }
}
