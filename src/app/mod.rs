//! The web app: Leptos components that render core types and forward events to them.
//! Every rule of the game lives in [`crate::core`]; components only show state and hand
//! clicks, keys and text to it.

mod board;
mod demo;
mod download;
#[cfg(feature = "lab")]
mod experiment;
mod fetch;
mod model;
mod play;
#[cfg(feature = "lab")]
mod results;
mod route;
mod storage;
#[cfg(feature = "lab")]
mod study;
mod transport;

pub use board::{BoardIds, MazeBoard, DRAW_BOARD, SOLVE_BOARD};
pub use demo::DemoPage;
#[cfg(feature = "lab")]
pub use download::download_bytes;
pub use download::{download_file, download_text};
#[cfg(feature = "lab")]
pub use experiment::ExperimentPage;
pub use model::ModelPage;
pub use play::PlayPage;
#[cfg(feature = "lab")]
pub use results::ResultsPage;
pub use route::{use_location, Link, Location};
pub use storage::{Db, StorageError};
#[cfg(feature = "lab")]
pub use study::{StudyManagePage, StudyPage};
pub use transport::BrowserTransport;

use leptos::prelude::*;

/// The root component: header, navigation and the routed pages.
#[component]
pub fn App() -> impl IntoView {
    let loc = Location::provide();
    let page = Memo::new(move |_| loc.path.get());
    view! {
        <div class="app">
            <header class="topbar">
                <Link href="/" class="brand">
                    <span class="brand-mark" aria-hidden="true"></span>
                    "Shapemaze"
                </Link>
                <nav class="nav">
                    <Link href="/play">"Play"</Link>
                    <Link href="/demo">"Demo"</Link>
                    <Link href="/model">"Model"</Link>
                    {lab_links()}
                </nav>
            </header>
            <main class="page">
                {move || match page.get().trim_end_matches('/') {
                    "" | "/index.html" => view! { <Home /> }.into_any(),
                    "/play" => view! { <PlayPage /> }.into_any(),
                    "/model" => view! { <ModelPage /> }.into_any(),
                    "/demo" => view! { <DemoPage /> }.into_any(),
                    #[cfg(feature = "lab")]
                    "/experiment" => view! { <ExperimentPage /> }.into_any(),
                    #[cfg(feature = "lab")]
                    "/results" => view! { <ResultsPage /> }.into_any(),
                    #[cfg(feature = "lab")]
                    "/study" => view! { <StudyPage /> }.into_any(),
                    #[cfg(feature = "lab")]
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

/// The lab build's pages in the navigation (none in the default build).
fn lab_links() -> impl IntoView {
    #[cfg(feature = "lab")]
    return view! {
        <Link href="/experiment">"Experiments"</Link>
        <Link href="/results">"Results"</Link>
        <Link href="/study/manage">"Studies"</Link>
    };
    #[cfg(not(feature = "lab"))]
    ()
}

/// The landing page.
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
        </section>
    }
}

/// Shown for addresses that match no page.
#[component]
fn NotFound() -> impl IntoView {
    view! {
        <section class="hero">
            <h1>"No page here"</h1>
            <p class="lead">"This address matches no Shapemaze page. Check the link, or start from the play page."</p>
            <Link href="/play" class="button primary">"Go to the play page"</Link>
        </section>
    }
}
