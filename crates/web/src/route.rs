//! A small client-side router: the current path and query as signals, links that change
//! them through the History API, and the back button. (leptos_router does much more than
//! these pages need and costs a third of the size budget.) The site may be served under a
//! sub-path (`PUBLIC_URL=/shapemaze/ make build-release`): the app's paths (`/play`) are
//! mapped to and from the browser's (`/shapemaze/play`) here and nowhere else
//! ([`shapemaze_core::site`]).

use leptos::prelude::*;
use shapemaze_core::site::{self, Build};
use std::sync::OnceLock;
use wasm_bindgen::JsValue;

/// The path the site was built for (`/`, or `/shapemaze/`): the `href` of the page's
/// `<base data-trunk-public-url>`, which trunk fills with the build's public URL.
pub fn base() -> &'static str {
    static BASE: OnceLock<String> = OnceLock::new();
    BASE.get_or_init(|| {
        let from_page = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.query_selector("base[href]").ok().flatten())
            .and_then(|b| b.get_attribute("href"))
            .unwrap_or_default();
        site::normalize_base(&from_page)
    })
}

/// The browser's path for the app's `path` (`/play?shape=Z`), under the site's base.
pub fn href(path: &str) -> String {
    site::href(base(), path)
}

/// The full address of the app's `path` on this site, for links people share.
pub fn absolute_url(path: &str) -> String {
    let origin = web_sys::window()
        .and_then(|w| w.location().origin().ok())
        .unwrap_or_default();
    format!("{origin}{}", href(path))
}

/// The address the app shows, as signals.
#[derive(Clone, Copy, Debug)]
pub struct Location {
    /// The path, such as `/play`.
    pub path: RwSignal<String>,
    /// The query string without `?`, such as `shape=Z&seed=3`.
    pub query: RwSignal<String>,
    /// Set while leaving the page would lose something (a trial in progress): navigating
    /// away asks first, and closing or reloading the tab makes the browser ask.
    pub unsaved: RwSignal<Option<&'static str>>,
    /// The build this page belongs to (`None`: every page is here, as in the browser
    /// tests). A path of the other build is a plain page load, never an in-app change.
    pub build: Option<Build>,
}

fn read_window() -> (String, String) {
    let loc = web_sys::window().map(|w| w.location());
    let path = loc
        .as_ref()
        .and_then(|l| l.pathname().ok())
        .unwrap_or_else(|| "/".into());
    let search = loc.and_then(|l| l.search().ok()).unwrap_or_default();
    (
        site::app_path(base(), &path),
        search.trim_start_matches('?').to_string(),
    )
}

impl Location {
    /// Reads the window's address, follows the back and forward buttons, and puts the
    /// location into context for [`use_location`].
    pub fn provide() -> Location {
        Location::provide_for(None)
    }

    /// [`Location::provide`] for one of the site's two builds.
    pub fn provide_for(build: Option<Build>) -> Location {
        let (path, query) = read_window();
        let loc = Location {
            path: RwSignal::new(path),
            query: RwSignal::new(query),
            unsaved: RwSignal::new(None),
            build,
        };
        let back = window_event_listener(leptos::ev::popstate, move |_| loc.sync());
        let unload = window_event_listener(leptos::ev::beforeunload, move |ev| {
            if loc.unsaved.get_untracked().is_some() {
                // Browsers show their own wording; setting a return value is what asks.
                ev.prevent_default();
                ev.set_return_value("unsaved");
            }
        });
        on_cleanup(move || {
            back.remove();
            unload.remove();
        });
        provide_context(loc);
        loc
    }

    fn sync(self) {
        let (path, query) = read_window();
        self.path.set(path);
        self.query.set(query);
    }

    /// Whether it is all right to leave the current trial: asks the person first when
    /// something would be lost.
    pub fn may_leave(self) -> bool {
        match self.unsaved.get_untracked() {
            None => true,
            Some(what) => web_sys::window()
                .and_then(|w| w.confirm_with_message(what).ok())
                .unwrap_or(true),
        }
    }

    /// Whether the page at the app's `url` is served by this build (else going there
    /// loads the other build's page).
    pub fn serves(self, url: &str) -> bool {
        match (self.build, Build::of(url)) {
            (Some(here), Some(there)) => here == there,
            _ => true,
        }
    }

    /// Goes to `url` (the app's path with an optional query), adding a history entry, after
    /// asking when something would be lost (see [`Location::may_leave`]). A page of the
    /// other build is loaded as a plain link would.
    pub fn navigate(self, url: &str) {
        if !self.may_leave() {
            return;
        }
        self.unsaved.set(None);
        if !self.serves(url) {
            if let Some(w) = web_sys::window() {
                let _ = w.location().set_href(&href(&site::folder_url(url)));
            }
            return;
        }
        let url = &href(url);
        if let Some(history) = web_sys::window().and_then(|w| w.history().ok()) {
            if history
                .push_state_with_url(&JsValue::NULL, "", Some(url))
                .is_ok()
            {
                self.sync();
                return;
            }
        }
        if let Some(w) = web_sys::window() {
            let _ = w.location().set_href(url);
        }
    }

    /// The decoded value of query parameter `key`, if present.
    pub fn param(query: &str, key: &str) -> Option<String> {
        query.split('&').find_map(|pair| {
            let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
            (decode(k) == key).then(|| decode(v))
        })
    }
}

fn decode(s: &str) -> String {
    let s = s.replace('+', " ");
    js_sys::decode_uri_component(&s)
        .map(String::from)
        .unwrap_or(s)
}

/// The location provided by the app's root.
pub fn use_location() -> Location {
    use_context::<Location>().unwrap_or_else(Location::provide)
}

/// A left click with no key held: the one a link may follow in place (a click with Ctrl,
/// Shift or the middle button opens a tab or a window, as the person asked).
pub fn plain_click(ev: &web_sys::MouseEvent) -> bool {
    ev.button() == 0 && !ev.ctrl_key() && !ev.meta_key() && !ev.shift_key() && !ev.alt_key()
}

/// An in-app link: a plain left click changes the page without reloading (a page of the
/// other build is a plain link).
#[component]
pub fn Link(
    /// Where it goes.
    href: &'static str,
    /// Extra classes.
    #[prop(optional)]
    class: &'static str,
    /// The link's text and content.
    children: Children,
) -> impl IntoView {
    let loc = use_location();
    let serves = loc.serves(href);
    let target = if serves {
        self::href(href)
    } else {
        self::href(&site::folder_url(href))
    };
    view! {
        <a
            href=target
            class=class
            aria-current=move || (site::page(&loc.path.get()) == site::page(href)).then_some("page")
            on:click=move |ev: web_sys::MouseEvent| {
                if serves && plain_click(&ev) {
                    ev.prevent_default();
                    loc.navigate(href);
                }
            }
        >
            {children()}
        </a>
    }
}
