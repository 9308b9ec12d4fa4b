//! A maze drawn as a grid of cells a person can click: used for the maze being solved and
//! for the drawing grid of the generate phase.

use crate::core::maze::grid::{Grid, Pos, Tile};
use crate::core::maze::shape::Shape;
use leptos::prelude::*;

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
) -> impl IntoView {
    let dims = Memo::new(move |_| grid.with(|g| (g.rows(), g.cols())));
    let dragging = RwSignal::new(false);
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
                        data-testid=format!("{}-{}-{}", ids.cell, p.row, p.col)
                        data-cell=move || tile().name()
                        aria-label=move || format!("row {}, column {}: {}", p.row, p.col, tile().name())
                        disabled=move || !active.get()
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
            role="grid"
            aria-label=label
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
