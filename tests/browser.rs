//! Browser tests, run in headless Chromium by wasm-bindgen-test-runner
//! (`cargo test --target wasm32-unknown-unknown --test browser`).
#![cfg(target_arch = "wasm32")]

mod common;

use leptos::prelude::*;
use shapemaze::app::{BoardIds, MazeBoard, DRAW_BOARD, SOLVE_BOARD};
use shapemaze::core::maze::grid::{Grid, Pos, Tile};
use shapemaze::core::maze::shape::Shape;
use std::sync::{Arc, Mutex};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

/// Lets Leptos run its scheduled effects.
async fn tick() {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        web_sys::window()
            .expect("window")
            .set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, 0)
            .expect("setTimeout");
    });
    wasm_bindgen_futures::JsFuture::from(promise)
        .await
        .expect("timer");
}

fn container() -> web_sys::HtmlElement {
    let document = web_sys::window()
        .and_then(|w| w.document())
        .expect("document");
    let div: web_sys::HtmlElement = document
        .create_element("div")
        .expect("div")
        .unchecked_into();
    document
        .body()
        .expect("body")
        .append_child(&div)
        .expect("append");
    div
}

fn cell(root: &web_sys::HtmlElement, id: &str) -> web_sys::HtmlElement {
    root.query_selector(&format!("[data-testid=\"{id}\"]"))
        .expect("selector")
        .unwrap_or_else(|| panic!("no element {id}"))
        .unchecked_into()
}

fn press(el: &web_sys::HtmlElement) {
    let init = web_sys::MouseEventInit::new();
    init.set_bubbles(true);
    init.set_button(0);
    let ev =
        web_sys::MouseEvent::new_with_mouse_event_init_dict("mousedown", &init).expect("event");
    el.dispatch_event(&ev).expect("dispatch");
}

#[wasm_bindgen_test]
fn seed_2026_gives_the_recorded_maze_sets_in_the_browser() {
    assert_eq!(
        common::sets::fingerprints(),
        common::sets::EXPECTED,
        "the browser generated other mazes than the native build"
    );
}

/// Mounts a board on `grid` and returns its container and the log of pressed cells.
fn mount_board(
    grid: RwSignal<Grid>,
    shape: Shape,
    ids: BoardIds,
    active: bool,
) -> (web_sys::HtmlElement, Arc<Mutex<Vec<Pos>>>) {
    let pressed = Arc::new(Mutex::new(Vec::new()));
    let log = pressed.clone();
    let root = container();
    let handle = leptos::mount::mount_to(root.clone(), move || {
        let log = log.clone();
        view! {
            <MazeBoard
                grid=grid
                shape=shape
                ids=ids
                on_press=Callback::new(move |p: Pos| log.lock().expect("lock").push(p))
                active=Signal::derive(move || active)
                label="test board"
            />
        }
    });
    // The board stays mounted for the rest of the test run.
    handle.forget();
    (root, pressed)
}

#[wasm_bindgen_test]
async fn a_board_shows_every_cell_and_reports_presses() {
    let mut g = Grid::walls(5, 5);
    g.set(Pos::new(0, 0), Tile::Player);
    g.set(Pos::new(0, 1), Tile::Empty);
    g.set(Pos::new(0, 2), Tile::Goal);
    let grid = RwSignal::new(g);
    let (root, pressed) = mount_board(grid, Shape::Triangle, SOLVE_BOARD, true);
    tick().await;
    let board = cell(&root, "maze");
    assert_eq!(board.get_attribute("data-rows").as_deref(), Some("5"));
    assert_eq!(board.get_attribute("data-movement").as_deref(), Some("8"));
    assert_eq!(
        board.get_attribute("data-shape").as_deref(),
        Some("triangle")
    );
    assert_eq!(
        root.query_selector_all(".cell").expect("cells").length(),
        25
    );
    assert_eq!(
        cell(&root, "cell-0-0")
            .get_attribute("data-cell")
            .as_deref(),
        Some("player")
    );
    assert_eq!(
        cell(&root, "cell-0-2")
            .get_attribute("data-cell")
            .as_deref(),
        Some("goal")
    );
    assert_eq!(
        cell(&root, "cell-4-4")
            .get_attribute("data-cell")
            .as_deref(),
        Some("wall")
    );

    press(&cell(&root, "cell-0-1"));
    tick().await;
    assert_eq!(
        *pressed.lock().expect("lock"),
        vec![Pos::new(0, 1)],
        "the press reached the callback"
    );

    grid.update(|g| g.set(Pos::new(4, 4), Tile::Empty));
    tick().await;
    assert_eq!(
        cell(&root, "cell-4-4")
            .get_attribute("data-cell")
            .as_deref(),
        Some("empty"),
        "the cell follows the grid signal"
    );
}

#[wasm_bindgen_test]
async fn an_inactive_board_ignores_presses() {
    let grid = RwSignal::new(Grid::walls(5, 5));
    let (root, pressed) = mount_board(grid, Shape::Square, DRAW_BOARD, false);
    tick().await;
    press(&cell(&root, "draw-cell-2-2"));
    tick().await;
    assert!(
        pressed.lock().expect("lock").is_empty(),
        "a disabled board must not move the player"
    );
    assert_eq!(
        cell(&root, "draw-maze")
            .get_attribute("data-movement")
            .as_deref(),
        Some("4")
    );
}

#[wasm_bindgen_test]
async fn indexed_db_keeps_entries_by_prefix_and_deletes_them_by_prefix() {
    use shapemaze::app::Db;
    let db = Db::open().await.expect("the database opens");
    let store = "trials";
    db.delete_prefix(store, "test-exp/")
        .await
        .expect("a clean start");
    db.put(store, "test-exp/b", "{\"n\":2}")
        .await
        .expect("saved");
    db.put_all(
        store,
        &[
            ("test-exp/a".to_string(), "{\"n\":1}".to_string()),
            ("test-exp-other/a".to_string(), "{}".to_string()),
        ],
    )
    .await
    .expect("saved together");
    db.put(store, "test-exp/b", "{\"n\":3}")
        .await
        .expect("replaced");
    let got = db.entries(store, "test-exp/").await.expect("read");
    assert_eq!(
        got,
        vec![
            ("test-exp/a".to_string(), "{\"n\":1}".to_string()),
            ("test-exp/b".to_string(), "{\"n\":3}".to_string()),
        ],
        "only this prefix, in key order, the latest value"
    );
    assert_eq!(
        db.get(store, "test-exp/a").await.expect("read").as_deref(),
        Some("{\"n\":1}")
    );
    db.delete_prefix(store, "test-exp/").await.expect("deleted");
    assert!(db.keys(store, "test-exp/").await.expect("read").is_empty());
    assert_eq!(
        db.keys(store, "test-exp-other/").await.expect("read"),
        vec!["test-exp-other/a".to_string()],
        "another prefix is untouched"
    );
    db.delete(store, "test-exp-other/a").await.expect("deleted");
}

/// Reviews kept in the browser go out with an export of their trials and come back in with
/// its import; a file that is not one is refused with its line named.
#[wasm_bindgen_test]
fn reviews_are_kept_exported_with_their_trials_and_taken_back_in() {
    use shapemaze::app::{reviews_of, take_in};
    let storage = web_sys::window()
        .and_then(|w| w.local_storage().ok().flatten())
        .expect("local storage");
    storage.remove_item("shapemaze-reviews").expect("cleared");
    let lines = concat!(
        r#"{"trial":"a/0.txt","phase":"solve","step":0,"value":[0,1],"sampled":true}"#,
        "\n",
        r#"{"trial":"b/0.txt","phase":"recognize","step":0,"value":"spiral"}"#,
        "\n"
    );
    assert_eq!(take_in(lines).ok(), Some(2));
    let out = reviews_of(&["a/0.txt".to_string()])
        .expect("written")
        .expect("one");
    assert_eq!(out.lines().count(), 1);
    assert!(out.contains("\"a/0.txt\""), "{out}");
    assert_eq!(reviews_of(&["c/0.txt".to_string()]).ok(), Some(None));
    let err = take_in("not a review").expect_err("refused").to_string();
    assert!(err.contains("line 1"), "{err}");
    assert_eq!(
        reviews_of(&["b/0.txt".to_string()])
            .map(|o| o.is_some())
            .ok(),
        Some(true),
        "a refused file changes nothing"
    );
    storage.remove_item("shapemaze-reviews").expect("cleared");
}
