//! A maze drawn as a grid of cells a person can click: used for the maze being solved and
//! for the drawing grid of the generate phase.

use leptos::prelude::*;
use shapemaze_core::maze::grid::{Grid, Pos, Tile};
use shapemaze_core::maze::shape::Shape;

/// Test ids and labels of one board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardIds {
    /// `data-testid` of the board (`maze`, `draw-maze`).
    pub board: &'static str,
    /// Prefix of each cell's `data-testid` (`cell` gives `cell-R-C`).
    pub cell: &'static str,
}

/// The maze being solved.
pub const SOLVE_BOARD: BoardIds = BoardIds {
    board: "maze",
    cell: "cell",
};
/// The drawing grid of the generate phase.
pub const DRAW_BOARD: BoardIds = BoardIds {
    board: "draw-maze",
    cell: "draw-cell",
};

/// The two boards of a race (`/demo?race=A,B`), side A and side B.
pub const RACE_BOARDS: [BoardIds; 2] = [
    BoardIds {
        board: "race-a-maze",
        cell: "race-a-cell",
    },
    BoardIds {
        board: "race-b-maze",
        cell: "race-b-cell",
    },
];

/// A cell's name for a screen reader: where it is and what it holds ("row 2, column 3:
/// open, walked"); the same words as the legend, so colour never carries meaning alone.
/// The cell a reader read ("open, the cell read") says so first.
fn cell_label(p: Pos, tile: Tile, walked: bool, read: bool) -> String {
    let what = match tile {
        Tile::Wall => "wall",
        Tile::Empty if walked => "open, walked",
        Tile::Empty => "open",
        Tile::Player => "player P",
        Tile::Goal => "goal G",
    };
    let read = if read { ", the cell read" } else { "" };
    format!("row {}, column {}: {what}{read}", p.row, p.col)
}

/// The cell an arrow key moves the focus to on a board of `rows` x `cols`.
fn arrow_target(key: &str, p: Pos, rows: usize, cols: usize) -> Option<Pos> {
    match key {
        "ArrowUp" if p.row > 0 => Some(Pos::new(p.row - 1, p.col)),
        "ArrowDown" if p.row + 1 < rows => Some(Pos::new(p.row + 1, p.col)),
        "ArrowLeft" if p.col > 0 => Some(Pos::new(p.row, p.col - 1)),
        "ArrowRight" if p.col + 1 < cols => Some(Pos::new(p.row, p.col + 1)),
        _ => None,
    }
}

fn glyph(tile: Tile) -> &'static str {
    match tile {
        Tile::Player => "P",
        Tile::Goal => "G",
        Tile::Wall | Tile::Empty => "",
    }
}

/// A clickable grid of cells.
#[component]
pub fn MazeBoard(
    /// The tiles to show.
    #[prop(into)]
    grid: Signal<Grid>,
    /// The shape (shown as `data-shape` and `data-movement`).
    shape: Shape,
    /// Test ids of the board and its cells.
    ids: BoardIds,
    /// Called with the cell pressed (mouse down, or Enter/Space on a focused cell).
    on_press: Callback<Pos>,
    /// Called with a cell the pointer enters while the button is held (for painting).
    #[prop(optional)]
    on_drag: Option<Callback<Pos>>,
    /// Cells to mark as already walked.
    #[prop(optional, into)]
    trail: Option<Signal<Vec<Pos>>>,
    /// Whether the cells take input.
    #[prop(into)]
    active: Signal<bool>,
    /// An accessible name for the board.
    label: &'static str,
    /// Whether the arrow keys move the focus from cell to cell (the drawing grid; on the
    /// maze being solved they move the player instead).
    #[prop(optional)]
    arrows_move_focus: bool,
    /// The cell a reader read (the review's board): marked and named as such, and where
    /// the focus enters the board.
    #[prop(optional_no_strip)]
    read: Option<Pos>,
) -> impl IntoView {
    let dims = Memo::new(move |_| grid.with(|g| (g.rows(), g.cols())));
    let dragging = RwSignal::new(false);
    // Where the focus is (or was last) on a board whose arrows move it: that cell alone is
    // in the tab order (a roving tab index), so Tab enters and leaves the board in one step.
    let inside = move |p: Pos| grid.with_untracked(|g| p.row < g.rows() && p.col < g.cols());
    let focus_at = RwSignal::new(read.filter(|&p| inside(p)).unwrap_or(Pos::new(0, 0)));
    let stop = window_event_listener(leptos::ev::mouseup, move |_| dragging.set(false));
    on_cleanup(move || stop.remove());
    let cells = move || {
        let (rows, cols) = dims.get();
        (0..rows)
            .flat_map(|r| (0..cols).map(move |c| Pos::new(r, c)))
            .map(|p| {
                let tile = move || grid.with(|g| g.get(p).unwrap_or(Tile::Wall));
                let walked = move || {
                    trail.is_some_and(|t| t.with(|t| t.contains(&p))) && tile() == Tile::Empty
                };
                view! {
                    <button
                        type="button"
                        class="cell"
                        class:walked=walked
                        class:read=read == Some(p)
                        data-testid=format!("{}-{}-{}", ids.cell, p.row, p.col)
                        data-cell=move || tile().name()
                        aria-label=move || cell_label(p, tile(), walked(), read == Some(p))
                        disabled=move || !active.get()
                        tabindex=move || (arrows_move_focus && focus_at.get() != p).then_some("-1")
                        on:focus=move |_| if arrows_move_focus { focus_at.set(p) }
                        on:mousedown=move |ev| {
                            if ev.button() == 0 && active.get_untracked() {
                                ev.prevent_default();
                                dragging.set(true);
                                on_press.run(p);
                            }
                        }
                        on:mouseenter=move |_| {
                            if let (true, Some(drag)) = (dragging.get_untracked(), on_drag) {
                                if active.get_untracked() {
                                    drag.run(p);
                                }
                            }
                        }
                        on:keydown=move |ev| {
                            if !arrows_move_focus {
                                return;
                            }
                            let (rows, cols) = dims.get_untracked();
                            if let Some(to) = arrow_target(&ev.key(), p, rows, cols) {
                                ev.prevent_default();
                                let id = format!("{}-{}-{}", ids.cell, to.row, to.col);
                                if let Some(el) = web_sys::window()
                                    .and_then(|w| w.document())
                                    .and_then(|d| d.query_selector(&format!("[data-testid=\"{id}\"]")).ok().flatten())
                                    .and_then(|e| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(e).ok())
                                {
                                    let _ = el.focus();
                                }
                            }
                        }
                        on:click=move |ev| {
                            // Keyboard activation (Enter/Space) has no mouse press before it.
                            if ev.detail() == 0 && active.get_untracked() {
                                on_press.run(p);
                            }
                        }
                    >
                        {move || glyph(tile())}
                    </button>
                }
            })
            .collect_view()
    };
    view! {
        <div
            class="board"
            role="group"
            aria-label=label
            // The maze being solved takes the focus when a trial starts (its arrow keys
            // move the player), see `focus_phase`.
            tabindex=move || (!arrows_move_focus && active.get()).then_some("-1")
            data-phase-focus=move || (!arrows_move_focus && active.get()).then_some("")
            data-testid=ids.board
            data-rows=move || dims.get().0
            data-cols=move || dims.get().1
            data-shape=shape.name()
            data-movement=shape.movement().directions()
            style=move || format!("--cols: {}", dims.get().1)
        >
            {cells}
        </div>
    }
}
