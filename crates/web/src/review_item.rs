//! One reply under review on `/results#review`: the reply with the span read marked, the
//! reader's reading and why it is queued, and the choices, each one key from the item:
//! `c` confirm, `n` no answer, `j`/`k` next and previous, `u` the next unreviewed; a shape
//! by its number (`1` square, ...); a maze by its draft's number, or written out; a cell on
//! the grid, whose cursor starts at the cell read (an arrow from the item moves onto the
//! grid next to it, Enter picks). After every action the keyboard focus is on the next
//! item (never on the page's body).

use super::board::{BoardIds, MazeBoard};
use super::review_state::{by_testid, shown, take_focus, State};
use leptos::prelude::*;
use shapemaze_core::analysis::review::{drafts, edited_maze, QueueItem, Why};
use shapemaze_core::maze::grid::{Grid, Pos};
use shapemaze_core::maze::shape::Shape;
use shapemaze_core::play::phase::Phase;
use shapemaze_core::verify::Extracted;
use shapemaze_view::html::outlined_reply;
use wasm_bindgen::JsCast;

/// The places of a reply's drafts, in words.
const ORDINALS: [&str; 9] = [
    "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth",
];

/// The board of the reply under review.
const REVIEW_BOARD: BoardIds = BoardIds {
    board: "review-maze",
    cell: "review-cell",
};

/// Gives the focus to the review board's cell at `p`.
fn focus_cell(p: Pos) {
    if let Some(el) = by_testid(&format!("{}-{}-{}", REVIEW_BOARD.cell, p.row, p.col)) {
        let _ = el.focus();
    }
}

/// The cell an arrow key names next to `p` on a grid of `rows` x `cols` (`p` itself when
/// the arrow would leave the grid).
fn beside(key: &str, p: Pos, rows: usize, cols: usize) -> Pos {
    match key {
        "ArrowUp" if p.row > 0 => Pos::new(p.row - 1, p.col),
        "ArrowDown" if p.row + 1 < rows => Pos::new(p.row + 1, p.col),
        "ArrowLeft" if p.col > 0 => Pos::new(p.row, p.col - 1),
        "ArrowRight" if p.col + 1 < cols => Pos::new(p.row, p.col + 1),
        _ => p,
    }
}

/// What the grid's cursor starts on: the cell read when it is on the grid, else the
/// player's cell.
fn cursor_start(item: &QueueItem) -> Option<Pos> {
    let grid = item.maze.as_ref()?;
    let inside = |p: &Pos| p.row < grid.rows() && p.col < grid.cols();
    match &item.reading.value {
        Extracted::Cell(p) if inside(p) => Some(*p),
        _ => grid
            .find(shapemaze_core::maze::grid::Tile::Player)
            .first()
            .copied(),
    }
}

/// The value a number key picks on this item: the shape or the draft at that place.
fn numbered(item: &QueueItem, shapes: &[Shape], drafts: &[Grid], n: usize) -> Option<Extracted> {
    let i = n.checked_sub(1)?;
    match item.phase {
        Phase::Recognize => shapes.get(i).map(|&s| Extracted::Shape(s)),
        Phase::Generate => drafts.get(i).cloned().map(Extracted::Grid),
        _ => None,
    }
}

/// The keys of an item: what each does, taken from the item box or anything inside it but
/// a text field.
fn on_key(
    state: State,
    item: QueueItem,
    shapes: Vec<Shape>,
    drafts: Vec<Grid>,
) -> impl Fn(web_sys::KeyboardEvent) {
    move |ev: web_sys::KeyboardEvent| {
        let target = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok());
        let in_field = target
            .as_ref()
            .is_some_and(|el| matches!(el.tag_name().as_str(), "INPUT" | "SELECT" | "TEXTAREA"));
        if in_field || ev.ctrl_key() || ev.meta_key() || ev.alt_key() || ev.default_prevented() {
            return;
        }
        let key = ev.key();
        let done = match key.as_str() {
            "c" => {
                state.confirm();
                true
            }
            "n" => {
                state.record(Extracted::Nothing);
                true
            }
            "j" => {
                state.step(1);
                true
            }
            "k" => {
                state.step(-1);
                true
            }
            "u" => {
                state.next_unreviewed();
                true
            }
            k if k.starts_with("Arrow") && item.phase == Phase::Solve => {
                match (cursor_start(&item), &item.maze) {
                    (Some(at), Some(g)) => {
                        focus_cell(beside(k, at, g.rows(), g.cols()));
                        true
                    }
                    _ => false,
                }
            }
            k => match k
                .parse::<usize>()
                .ok()
                .and_then(|n| numbered(&item, &shapes, &drafts, n))
            {
                Some(v) => {
                    state.record(v);
                    true
                }
                None => false,
            },
        };
        if done {
            ev.prevent_default();
        }
    }
}

/// The shapes in play as numbered buttons (`1` square, ...).
fn shape_choices(state: State, shapes: Vec<Shape>) -> impl IntoView {
    let buttons = shapes
        .into_iter()
        .enumerate()
        .map(|(i, s)| {
            view! {
                <button type="button" class="button ghost" data-testid=format!("review-shape-{}", s.name())
                    aria-keyshortcuts=(i + 1).to_string()
                    on:click=move |_| state.record(Extracted::Shape(s))>
                    <kbd>{i + 1}</kbd>" "{s.name()}
                </button>
            }
        })
        .collect_view();
    view! { <div class="review-shapes" role="group" aria-label="Another shape (its number)">{buttons}</div> }
}

/// A generation reply's choices: each draft the reply writes by its number, or a maze
/// written out in the trial's encoding.
fn maze_choices(state: State, item: &QueueItem, drafts: Vec<Grid>) -> impl IntoView {
    let read = match &item.reading.value {
        Extracted::Grid(g) => Some(g.clone()),
        _ => None,
    };
    let buttons = drafts
        .iter()
        .enumerate()
        .map(|(i, g)| {
            let g = g.clone();
            let note = if read.as_ref() == Some(&g) { ", the one read" } else { "" };
            view! {
                <button type="button" class="button ghost" data-testid=format!("review-draft-{}", i + 1)
                    aria-keyshortcuts=(i + 1).to_string()
                    on:click=move |_| state.record(Extracted::Grid(g.clone()))>
                    <kbd>{i + 1}</kbd>{format!(" the maze written {}{note}", ORDINALS.get(i).copied().unwrap_or("later"))}
                </button>
            }
        })
        .collect_view();
    let start = read
        .or_else(|| drafts.first().cloned())
        .or_else(|| item.maze.clone())
        .map(|g| {
            item.encoding
                .render_in(&g, Default::default(), item.symbols)
        })
        .unwrap_or_default();
    let text = RwSignal::new(start);
    let error = RwSignal::new(None::<String>);
    let it = item.clone();
    let use_it = move |_| match edited_maze(&it, &text.get_untracked()) {
        Ok(g) => {
            error.set(None);
            state.record(Extracted::Grid(g));
        }
        Err(e) => error.set(Some(e)),
    };
    view! {
        <div class="review-mazes" role="group" aria-label="Another maze">
            <p class="muted">{format!("The reply writes {} maze{}: pick the one it gives by its number, or write the maze it gives below.", drafts.len(), if drafts.len() == 1 { "" } else { "s" })}</p>
            <div class="review-drafts">{buttons}</div>
            <label class="field"><span>"The maze the reply gives"</span>
                <textarea data-testid="review-maze-edit" rows="7" spellcheck="false" prop:value=move || text.get()
                    on:input=move |ev| text.set(event_target_value(&ev))></textarea>
            </label>
            <button type="button" class="button" data-testid="review-maze-use" on:click=use_it>"Use this maze"</button>
            {move || error.get().map(|e| view! { <p class="error" role="alert" data-testid="review-maze-error">{e}</p> })}
        </div>
    }
}

/// The maze as the model saw it; a cell pressed is the reviewer's reading. Its cursor
/// starts at the cell read.
fn review_board(state: State, grid: Grid, read: Option<Pos>) -> impl IntoView {
    view! {
        <div class="review-board">
            <p class="muted">"Another cell: an arrow key moves onto the maze next to the cell read, the arrows move on, Enter picks (or press the cell)."</p>
            <MazeBoard grid=Signal::derive(move || grid.clone()) shape=Shape::Square ids=REVIEW_BOARD
                on_press=Callback::new(move |p: Pos| state.record(Extracted::Cell(p)))
                active=true label="The maze as the model saw it" arrows_move_focus=true read=read />
        </div>
    }
}

/// The choices for a reply: confirm, no answer, moving on, and another cell, shape or maze.
fn choices(state: State, item: &QueueItem, shapes: Vec<Shape>, drafts: Vec<Grid>) -> impl IntoView {
    let other = match (item.phase, &item.maze) {
        (Phase::Solve, Some(grid)) => {
            let read = match &item.reading.value {
                Extracted::Cell(p) => Some(*p),
                _ => None,
            };
            review_board(state, grid.clone(), read).into_any()
        }
        (Phase::Recognize, _) => shape_choices(state, shapes).into_any(),
        (Phase::Generate, _) => maze_choices(state, item, drafts).into_any(),
        _ => ().into_any(),
    };
    view! {
        <div class="review-choices">
            <button type="button" class="button primary" data-testid="review-confirm" aria-keyshortcuts="c" on:click=move |_| state.confirm()>"Confirm (c)"</button>
            <button type="button" class="button" data-testid="review-none" aria-keyshortcuts="n" on:click=move |_| state.record(Extracted::Nothing)>"No answer (n)"</button>
            <button type="button" class="button ghost" data-testid="review-previous" aria-keyshortcuts="k" on:click=move |_| state.step(-1)>"◀ Previous (k)"</button>
            <button type="button" class="button ghost" data-testid="review-next" aria-keyshortcuts="j" on:click=move |_| state.step(1)>"Next (j) ▶"</button>
            <button type="button" class="button ghost" data-testid="review-next-unreviewed" aria-keyshortcuts="u" on:click=move |_| state.next_unreviewed()>"Next unreviewed (u)"</button>
            {other}
        </div>
    }
}

/// The item's head: where it stands in the view and the queue, the trial, and every
/// reason it is queued for.
fn head(state: State, item: &QueueItem) -> impl IntoView {
    let position = move || {
        format!(
            "Reply {} of {}",
            state.at.get() + 1,
            state.visible.with(Vec::len)
        )
    };
    let progress = move || {
        format!(
            "{} of {} reviewed",
            state.reviewed_count(),
            state.items.with(Vec::len)
        )
    };
    let reasons = item
        .reasons
        .iter()
        .map(|w| view! { <li data-reason=w.name()>{w.describe()}</li> })
        .collect_view();
    view! {
        <p class="review-head"><strong data-testid="review-position">{position}</strong>" · "
            <span data-testid="review-progress">{progress}</span>" · "
            <span class="review-trial">{item.trial.clone()}</span>" · "{item.phase.name()}" "{item.step}</p>
        <ul class="review-reasons" data-testid="review-reasons" aria-label="Why it is queued">{reasons}</ul>
    }
}

/// One reply under review.
#[component]
pub(crate) fn ReviewItem(state: State, item: QueueItem, shapes: Vec<Shape>) -> impl IntoView {
    // The reply, each line with its role, the span read marked (an empty mark at the end
    // when nothing was read, or when the span does not fit the reply).
    let r = &item.reply;
    let fits = |&[s, e]: &[usize; 2]| {
        s <= e && e <= r.len() && r.is_char_boundary(s) && r.is_char_boundary(e)
    };
    let span = item.reading.span.filter(fits).unwrap_or([r.len(); 2]);
    let reply_html = outlined_reply(r, Some(span), "review-read-span");
    let key = item.key();
    let reviewed = move || {
        state.reviews.with(|rs| {
            shapemaze_core::analysis::review::latest(rs)
                .get(&key)
                .map(|r| {
                    format!(
                        "Reviewed: {} ({})",
                        shown(&r.value),
                        if r.reviewer.is_empty() {
                            "no name"
                        } else {
                            &r.reviewer
                        }
                    )
                })
        })
    };
    let original = state
        .original
        .with_untracked(|o| o.get(&item.key()).cloned());
    let second = state
        .judge
        .answers
        .with_untracked(|a| a.get(&item.key()).map(shown));
    let rule = item.reading.rule;
    // Why the reader is unsure, in the doubt's own sentence a person can check ("Unsure:
    // another answer line gives the cross.").
    let doubt = item.reading.doubt.as_ref().map(|d| d.why.clone());
    let maze_drafts = if item.phase == Phase::Generate {
        drafts(&item)
    } else {
        Vec::new()
    };
    let keys = on_key(state, item.clone(), shapes.clone(), maze_drafts.clone());
    let reasons: Vec<&str> = item.reasons.iter().map(|w: &Why| w.name()).collect();
    take_focus(state, "review-item");
    view! {
        <div class="review-item" data-testid="review-item" tabindex="0" on:keydown=keys role="group"
            aria-label="The reply under review: c confirms, n says no answer, j and k move on and back"
            data-trial=item.trial.clone() data-phase=item.phase.name() data-step=item.step data-rule=rule.name()
            data-sure=item.sure.to_string() data-reasons=reasons.join(" ")>
            {head(state, &item)}
            <pre class="review-reply" data-testid="review-reply" inner_html=reply_html></pre>
            <p class="muted role-legend">"Each line's role, as a bar before it: "
                <span class="line-role" data-role="answer">"an answer"</span>" "
                <span class="line-role" data-role="conclusion">"a conclusion"</span>" "
                <span class="line-role" data-role="options">"an option or a question"</span>" "
                <span class="line-role" data-role="correction">"a correction"</span>
                <span class="hover-hint">" (hover a line for its role)"</span>"."</p>
            <p data-testid="review-reading">
                "The reader read: "<strong>{shown(&item.reading.value)}</strong>
                " (rule " <code>{rule.name()}</code> ": " {rule.describe()} "; "
                {if item.sure { "sure" } else { "unsure" }} ")"
            </p>
            {doubt.map(|why| view! { <p class="doubt" data-testid="review-doubt">{why}</p> })}
            {original.map(|o| view! { <p data-testid="review-original">"The original-compatible reading: "<strong>{o}</strong></p> })}
            {second.map(|v| view! { <p data-testid="review-second">"The second reader read: "<strong>{v}</strong></p> })}
            <p class="muted" data-testid="review-reviewed">{reviewed}</p>
            {choices(state, &item, shapes, maze_drafts)}
        </div>
    }
}
