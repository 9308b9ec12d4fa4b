//! The frame every page shares (header, navigation, footer) and the two builds' roots
//! ([`PeopleApp`], [`LabApp`]; [`shapemaze_core::site::Build`]): each routes its own pages
//! and, opened at a page of the other build (a host that answers every address with one
//! file), loads that page's own file instead of showing nothing.

use crate::route::{self, href, Link, Location};
use crate::{DemoPage, ExperimentPage, ModelPage, PlayPage, ResultsPage};
use crate::{StudyManagePage, StudyPage};
use leptos::prelude::*;
use shapemaze_core::site::{self, Build};

/// Mounts `app` on the page's body, with a panic hook that says in the console that a bug
/// was hit, with its message and place.
pub fn start<F, N>(app: F)
where
    F: FnOnce() -> N + 'static,
    N: IntoView + 'static,
{
    std::panic::set_hook(Box::new(|info| {
        web_sys::console::error_1(&format!("Shapemaze hit a bug: {info}").into());
    }));
    leptos::mount::mount_to_body(app);
}

/// The people's build: the front door, `/play`, `/demo` and `/study` (`index.html`).
#[component]
pub fn PeopleApp() -> impl IntoView {
    view! { <Frame half=Some(Build::People) pages=people_page /> }
}

/// The lab build: `/model`, `/experiment`, `/results` and `/study/manage` (`lab.html`).
#[component]
pub fn LabApp() -> impl IntoView {
    view! { <Frame half=Some(Build::Lab) pages=lab_page /> }
}

/// Every page in one app (the browser tests, which mount pages of both builds).
#[component]
pub fn App() -> impl IntoView {
    view! { <Frame half=None pages=any_page /> }
}

fn people_page(page: &str) -> Option<AnyView> {
    Some(match page {
        "/" => view! { <Home /> }.into_any(),
        "/play" => view! { <PlayPage /> }.into_any(),
        "/demo" => view! { <DemoPage /> }.into_any(),
        "/study" => view! { <StudyPage /> }.into_any(),
        _ => return None,
    })
}

fn lab_page(page: &str) -> Option<AnyView> {
    Some(match page {
        "/model" => view! { <ModelPage /> }.into_any(),
        "/experiment" => view! { <ExperimentPage /> }.into_any(),
        "/results" => view! { <ResultsPage /> }.into_any(),
        "/study/manage" => view! { <StudyManagePage /> }.into_any(),
        _ => return None,
    })
}

fn any_page(page: &str) -> Option<AnyView> {
    people_page(page).or_else(|| lab_page(page))
}

/// The header, the page the address names, and the footer.
#[component]
fn Frame(half: Option<Build>, pages: fn(&str) -> Option<AnyView>) -> impl IntoView {
    let loc = Location::provide_for(half);
    let page = Memo::new(move |_| site::page(&loc.path.get()).to_string());
    // A participant sees the study alone: no way into the lab's pages from it.
    let participant = Memo::new(move |_| page.get() == "/study");
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
                {move || {
                    let page = page.get();
                    pages(&page).unwrap_or_else(|| match Build::of(&page) {
                        Some(other) if Some(other) != half => view! { <OtherBuild /> }.into_any(),
                        _ => view! { <NotFound /> }.into_any(),
                    })
                }}
            </main>
            <footer class="footer">
                "Shapemaze — spatial-reasoning trials on shape mazes. People and models are scored by the same verifiers."
            </footer>
        </div>
    }
}

/// A page of the other build, opened where a host answered with this build's file (a
/// server that answers every address with `index.html`): loads the page's own file
/// (`results/index.html`), which every static host serves. Should even that be answered
/// with this build's page, it stays here and offers the link.
#[component]
fn OtherBuild() -> impl IntoView {
    let loc = crate::use_location();
    let path = loc.path.get_untracked();
    let file = href(&format!("/{}", Build::page_file(&path)));
    let search = web_sys::window()
        .and_then(|w| w.location().search().ok())
        .unwrap_or_default();
    let hash = web_sys::window()
        .and_then(|w| w.location().hash().ok())
        .unwrap_or_default();
    let target = format!("{file}{search}{hash}");
    if !path.ends_with("index.html") {
        if let Some(w) = web_sys::window() {
            let _ = w.location().replace(&target);
        }
    }
    view! {
        <section class="hero" data-testid="other-build">
            <h1>"Opening the page…"</h1>
            <p class="lead">"This page is part of the other half of Shapemaze; it is loading on its own."</p>
            <a href=target class="button primary">"Open the page"</a>
        </section>
    }
}

/// The landing page: what a trial is, then one door for each kind of visitor. It is
/// `shell/home.html`, the file the people's static page shows before the wasm arrives, so
/// the two never differ; a plain click on one of its links to a page of this build changes
/// the page in place, as a [`Link`] does (the lab's pages load as plain links).
#[component]
fn Home() -> impl IntoView {
    let loc = crate::use_location();
    let follow = move |ev: web_sys::MouseEvent| {
        if let Some(url) = in_app_target(&ev).filter(|url| loc.serves(url)) {
            ev.prevent_default();
            loc.navigate(&url);
        }
    };
    view! { <div class="home" inner_html=home_page() on:click=follow></div> }
}

/// `shell/home.html` without its opening comment.
fn home_page() -> &'static str {
    let file = include_str!("../../../shell/home.html");
    file.split_once("-->\n").map_or(file, |(_, page)| page)
}

/// The app's path (with its query) of the link a plain left click landed in.
fn in_app_target(ev: &web_sys::MouseEvent) -> Option<String> {
    use wasm_bindgen::JsCast;
    if !route::plain_click(ev) {
        return None;
    }
    let link = ev
        .target()?
        .dyn_into::<web_sys::Element>()
        .ok()?
        .closest("a[href]")
        .ok()??
        .dyn_into::<web_sys::HtmlAnchorElement>()
        .ok()?;
    Some(format!(
        "{}{}",
        site::app_path(route::base(), &link.pathname()),
        link.search()
    ))
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
