//! The web app: Leptos components that render core types and forward events to them.
//! Every rule of the game lives in [`shapemaze_core`]; components only show state and hand
//! clicks, keys and text to it.

// The app runs in the browser only; natively this crate is empty (the native tests of what
// it shows are the core's and the view's).
#![cfg(target_arch = "wasm32")]

mod board;
mod demo;
mod download;
mod experiment;
mod fetch;
mod model;
mod play;
mod race;
mod results;
mod results_import;
mod results_people;
mod review;
mod route;
mod storage;
mod study;
mod transport;

pub use board::{BoardIds, MazeBoard, DRAW_BOARD, SOLVE_BOARD};
pub use demo::DemoPage;
pub use download::{download_bytes, download_file, download_text};
pub use experiment::ExperimentPage;
pub use model::ModelPage;
pub use play::PlayPage;
pub use results::ResultsPage;
pub use review::{reviews_of, take_in, REVIEWS_FILE};
pub use route::{use_location, Link, Location};
pub use storage::{Db, StorageError};
pub use study::{StudyManagePage, StudyPage};
pub use transport::BrowserTransport;

use leptos::prelude::*;

/// The root component: header, navigation and the routed pages.
#[component]
pub fn App() -> impl IntoView {
    let loc = Location::provide();
    let page = Memo::new(move |_| loc.path.get());
    // A participant sees the study alone: no way into the lab's pages from it.
    let participant = Memo::new(move |_| page.get().trim_end_matches('/') == "/study");
    view! {
        <div class="app">
            <header class="topbar">
                {move || if participant.get() {
                    view! {
                        <span class="brand" data-testid="study-brand">
                            <span class="brand-mark" aria-hidden="true"></span>
                            "Shapemaze study"
                        </span>
                    }.into_any()
                } else {
                    view! {
                        <Link href="/" class="brand">
                            <span class="brand-mark" aria-hidden="true"></span>
                            "Shapemaze"
                        </Link>
                        <nav class="nav" data-testid="nav">
                            <Link href="/play">"Play"</Link>
                            <Link href="/demo">"Demo"</Link>
                            <Link href="/model">"Model"</Link>
                            <Link href="/experiment">"Experiments"</Link>
                            <Link href="/results">"Results"</Link>
                            <Link href="/study/manage">"Studies"</Link>
                        </nav>
                    }.into_any()
                }}
            </header>
            <main class="page">
                {move || match page.get().trim_end_matches('/') {
                    "" | "/index.html" | "/404.html" => view! { <Home /> }.into_any(),
                    "/play" => view! { <PlayPage /> }.into_any(),
                    "/model" => view! { <ModelPage /> }.into_any(),
                    "/demo" => view! { <DemoPage /> }.into_any(),
                    "/experiment" => view! { <ExperimentPage /> }.into_any(),
                    "/results" => view! { <ResultsPage /> }.into_any(),
                    "/study" => view! { <StudyPage /> }.into_any(),
                    "/study/manage" => view! { <StudyManagePage /> }.into_any(),
                    _ => view! { <NotFound /> }.into_any(),
                }}
            </main>
            <footer class="footer">
                "Shapemaze — spatial-reasoning trials on shape mazes. People and models are scored by the same verifiers."
            </footer>
        </div>
    }
}

/// The landing page: what a trial is, then one door for each kind of visitor.
#[component]
fn Home() -> impl IntoView {
    view! {
        <section class="hero">
            <h1>"Can you really reason about space?"</h1>
            <p class="lead">
                "Shapemaze runs spatial-reasoning trials on small mazes whose corridors trace a shape: "
                "square, cross, spiral, triangle, C and Z. Every trial has three phases, scored by exact verifiers."
            </p>
            <ol class="phase-cards">
                <li>
                    <h2>"1 · Solve"</h2>
                    <p>"Move the player P to the goal G one cell at a time, in at most 16 moves. An invalid move ends the phase."</p>
                </li>
                <li>
                    <h2>"2 · Recognize"</h2>
                    <p>"Name the shape that all the open cells form, not only your path."</p>
                </li>
                <li>
                    <h2>"3 · Generate"</h2>
                    <p>"Draw a new maze of the same size and shape, with a path from P to G, that is not a copy."</p>
                </li>
            </ol>
            <Link href="/play" class="button primary big">"Play a trial"</Link>
            <div class="doors" data-testid="home-doors">
                <section class="door door-wide" data-testid="door-researcher">
                    <h2>"Researchers"</h2>
                    <ul>
                        <li>"Watch a language model play one trial over any OpenAI-compatible endpoint: "<Link href="/model">"try a model"</Link>"."</li>
                        <li>"Run models x encodings x shapes x mazes as a batch that pauses, resumes and exports: "<Link href="/experiment">"run an experiment"</Link>"."</li>
                        <li>"Read rates with intervals, the shape confusion matrix and the four hypotheses, and compare experiments: "<Link href="/results">"read results"</Link>"."</li>
                        <li>"Re-score recorded runs (the design's original folders too) the strict and the original way, cause by cause: "<Link href="/results">"audit recorded runs"</Link>"."</li>
                        <li>"Collect a human baseline with a shareable study link: "<Link href="/study/manage">"set up a study"</Link>"."</li>
                    </ul>
                </section>
                <section class="door" data-testid="door-participant">
                    <h2>"Participants"</h2>
                    <p>"Solve, recognize and draw mazes yourself, scored exactly as the models are: "<Link href="/play">"play"</Link>"."</p>
                    <p class="muted">"Taking part in a study? Open the link the researcher sent you; it starts the study on its own page."</p>
                </section>
                <section class="door" data-testid="door-presenter">
                    <h2>"Presenters"</h2>
                    <p>"Replay bundled trials full screen, step by step with the keyboard, for a talk: "<Link href="/demo">"open the demo"</Link>"."</p>
                </section>
            </div>
        </section>
    }
}

/// Shown for addresses that match no page.
#[component]
fn NotFound() -> impl IntoView {
    view! {
        <section class="hero">
            <h1>"No page here"</h1>
            <p class="lead">"This address matches no Shapemaze page. Check the link, or start from the home page."</p>
            <Link href="/" class="button primary">"Go to the home page"</Link>
        </section>
    }
}
