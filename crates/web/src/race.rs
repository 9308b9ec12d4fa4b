//! `/demo?race=A,B`: two recorded trials of one maze side by side, stepping together, for
//! a talk: a person's and a model's, or two models'. Each side shows its board, its moves,
//! its latest verdict and its counters (seconds for a person, tokens for a model). Space
//! plays and pauses, the arrow keys step, F goes full screen; the address reproduces it.
//! The rule (same maze, one playhead, the shorter side waiting) is the core's
//! `results::race`.

use super::board::{BoardIds, MazeBoard, RACE_BOARDS};
use super::fetch::get_text;
use super::playback::{drive_playhead, fullscreen, played_by};
use super::replay_error::ReplayError;
use super::storage::{Db, TRIALS};
use leptos::prelude::*;
use shapemaze_core::play::player::PlayerKind;
use shapemaze_core::results::race::{Race, RaceSide, SideAt};
use shapemaze_core::results::record::TrialRecord;
use shapemaze_core::results::replay::{Playhead, SPEEDS};
use shapemaze_core::verify::Outcome;

/// Reads one side of a race: a bundled trial from the site, or a trial stored in this
/// browser's results.
pub(crate) async fn race_record(side: &RaceSide) -> Result<TrialRecord, ReplayError> {
    let text = match side {
        RaceSide::Bundled(name) => get_text(&format!("/trials/{name}.json"))
            .await
            .map_err(|e| ReplayError::BundledFetch(name.clone(), e))?,
        RaceSide::Stored(key) => {
            let db = Db::open().await.map_err(ReplayError::Storage)?;
            db.get(TRIALS, key)
                .await
                .map_err(ReplayError::Storage)?
                .ok_or_else(|| ReplayError::NotStored(key.clone()))?
        }
    };
    TrialRecord::from_json(&text)
        .map_err(|e| ReplayError::NotARecord(Some(format!("'{}'", side.param())), e))
}

/// Two trials racing, with who played each.
#[derive(Clone, Debug)]
pub(crate) struct Racing {
    pub race: Race,
    pub a: TrialRecord,
    pub b: TrialRecord,
}

/// The race view; `link` is the address that reproduces it, when it has one (a race the
/// results page opens in place has none).
#[component]
pub(crate) fn RaceView(racing: Racing, link: Option<String>) -> impl IntoView {
    let Racing { race, a, b } = racing;
    let total = race.len();
    let head = RwSignal::new(Playhead::new(total));
    drive_playhead(head);
    let race = StoredValue::new(race);
    let at = Memo::new(move |_| head.with(|h| h.at));
    let title = format!(
        "Race · {} · {}x{} · seed {}, sample {}",
        a.shape.name(),
        a.size,
        a.size,
        a.seed,
        a.sample
    );
    view! {
        <div class="race" data-testid="race">
            <div class="replay-head">
                <h1 class="replay-title">{title}</h1>
                <p class="help">"Two plays of one maze, step by step together. Space plays and pauses, the arrow keys step, F goes full screen."</p>
            </div>
            <div class="replay-controls" role="toolbar" aria-label="Race">
                <button type="button" class="button" data-testid="race-back" on:click=move |_| head.update(|h| { h.playing = false; h.back(); })>"◀ Back"</button>
                <button type="button" class="button primary" data-testid="race-play"
                    on:click=move |_| head.update(Playhead::toggle)>
                    {move || if head.with(|h| h.playing) { "❚❚ Pause" } else { "▶ Play" }}
                </button>
                <button type="button" class="button" data-testid="race-step" on:click=move |_| head.update(|h| { h.playing = false; h.step(); })>"Step ▶"</button>
                <label class="field inline">
                    <span>"Speed"</span>
                    <select data-testid="race-speed" on:change=move |ev| {
                        let label = event_target_value(&ev);
                        if let Some((v, _)) = SPEEDS.iter().find(|(_, l)| *l == label) { head.update(|h| h.speed = *v); }
                    }>
                        {SPEEDS.into_iter().map(|(_, l)| view! { <option value=l selected=l == "1×">{l}</option> }).collect_view()}
                    </select>
                </label>
                <span class="pill" data-testid="race-position" data-step=move || at.get() data-steps=total
                    data-playing=move || head.with(|h| h.playing).to_string()>
                    {move || format!("Step {} of {}", at.get() + 1, total)}
                </span>
                <button type="button" class="button ghost" on:click=move |_| fullscreen()>"Full screen"</button>
                {link.map(|href| view! { <a class="button ghost" href=href data-testid="race-link">"Link to this"</a> })}
            </div>
            <div class="race-sides">
                <RaceSideView id="race-a" ids=RACE_BOARDS[0] record=a side=Signal::derive(move || race.with_value(|r| side_data(r.at(at.get()).0))) />
                <RaceSideView id="race-b" ids=RACE_BOARDS[1] record=b side=Signal::derive(move || race.with_value(|r| side_data(r.at(at.get()).1))) />
            </div>
        </div>
    }
}

/// What one side shows at a step (copied out of the race's frames).
#[derive(Clone, Debug, PartialEq)]
struct SideData {
    frame: shapemaze_core::results::replay::Frame,
    finished: bool,
}

fn side_data(s: SideAt<'_>) -> SideData {
    SideData {
        frame: s.frame.clone(),
        finished: s.finished,
    }
}

/// One side of the race: who played, the board, the counters and the latest verdict.
#[component]
fn RaceSideView(
    id: &'static str,
    ids: BoardIds,
    record: TrialRecord,
    side: Signal<SideData>,
) -> impl IntoView {
    let person = record.player == PlayerKind::Human;
    let model = record.player == PlayerKind::Endpoint;
    let grid = Signal::derive(move || side.with(|s| s.frame.grid.clone()));
    let trail = Signal::derive(move || side.with(|s| s.frame.path.clone()));
    let counters = move || {
        side.with(|s| {
            let f = &s.frame;
            let mut parts = vec![format!(
                "{} move{}",
                f.moves,
                if f.moves == 1 { "" } else { "s" }
            )];
            if person || f.seconds > 0.0 {
                parts.push(format!("{:.1} s", f.seconds));
            }
            if model || f.tokens.is_some() {
                parts.push(match f.tokens {
                    Some(n) => format!("{n} tokens"),
                    None => "tokens not reported".into(),
                });
            }
            parts.join(" · ")
        })
    };
    view! {
        <section class="race-side" data-testid=id data-finished=move || side.with(|s| s.finished).to_string()>
            <h2>{format!("{} · {}", played_by(&record), record.encoding.label())}</h2>
            <div class="status">
                <span class="pill" data-phase=move || side.with(|s| s.frame.phase.name())>{move || side.with(|s| s.frame.phase.name())}</span>
                <span class="moves" data-testid=format!("{id}-counters") data-moves=move || side.with(|s| s.frame.moves)>{counters}</span>
                {move || side.with(|s| s.finished).then(|| view! { <span class="pill done">"finished"</span> })}
            </div>
            <MazeBoard
                grid=grid
                shape=record.shape
                ids=ids
                on_press=Callback::new(|_| {})
                trail=trail
                active=Signal::derive(|| false)
                label=if id == "race-a" { "Side A's maze" } else { "Side B's maze" }
            />
            {move || side.with(|s| s.frame.verdict.clone()).map(|v| {
                let outcome = v.outcome.name();
                view! {
                    <p class=format!("verdict {outcome}") data-testid=format!("{id}-verdict") data-outcome=outcome>
                        <strong>{match v.outcome { Outcome::Success => "✓ ", Outcome::Fail => "✗ ", Outcome::Error => "! " }}</strong>
                        {v.explanation}
                    </p>
                }
            })}
        </section>
    }
}
