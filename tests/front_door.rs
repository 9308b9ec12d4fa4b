//! The front door's one file (shell/home.html): the people's static page shows it before the
//! wasm arrives and the app draws it after (crates/web/src/shell.rs, `Home`), so its links
//! must be what the app's own links are, relative to the page's `<base>` so that they hold
//! on a host's root and under a sub-path: a people's page by name (`play`), a lab page by its
//! folder (`results/`), as `Link` writes them from the front door.

use shapemaze_core::site::{self, Build};
use std::fs;
use std::path::Path;

fn read(path: &str) -> String {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
    fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()))
}

/// Every `href="..."` in the text, in order.
fn hrefs(html: &str) -> Vec<&str> {
    html.split("href=\"")
        .skip(1)
        .filter_map(|rest| rest.split_once('"').map(|(href, _)| href))
        .collect()
}

/// What the app's `Link` writes on the front door for the app path `page` (the site at
/// its root, the leading slash dropped to make it relative to the `<base>`).
fn as_the_app_links(page: &str) -> String {
    let url = match Build::of(page) {
        Some(Build::People) => site::href("/", page),
        _ => site::href("/", &site::folder_url(page)),
    };
    url.trim_start_matches('/').to_string()
}

#[test]
fn the_front_doors_links_are_the_apps_links_relative_to_the_base() {
    let home = read("shell/home.html");
    let links = hrefs(&home);
    assert!(links.len() >= 7, "the front door's links: {links:?}");
    for link in &links {
        assert!(
            !link.starts_with('/') && !link.contains("://"),
            "{link} is relative to the page's <base>"
        );
        let page = site::page(&format!("/{link}")).to_string();
        assert!(
            Build::of(&page).is_some(),
            "{link} names a page of the site"
        );
        assert_eq!(
            *link,
            as_the_app_links(&page),
            "{link} is written as the app writes a link to {page}"
        );
    }
    for page in [
        "/play",
        "/demo",
        "/model",
        "/experiment",
        "/results",
        "/study/manage",
    ] {
        assert!(
            links.contains(&as_the_app_links(page).as_str()),
            "the front door leads to {page}"
        );
    }
}

/// Which page the shell shows it on is tried in a browser (`tests/e2e/home.test.mjs`).
#[test]
fn only_the_peoples_page_holds_the_front_door() {
    let include = "href=\"shell/home.html\"";
    assert!(
        read("index.html").contains(include),
        "index.html holds the front door"
    );
    assert!(
        !read("lab.html").contains(include),
        "the lab's page does not"
    );
}
