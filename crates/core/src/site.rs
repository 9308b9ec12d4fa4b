//! Where the site is served: the public URL it was built for (`/`, or a sub-path such as
//! `/shapemaze/` on a static host) and the mapping between the browser's paths and the
//! app's own (`/play`, `/study/manage`). The page reads the base from its `<base>` element,
//! which trunk fills with the build's public URL; everything here is pure text.

/// The base path as the app uses it: starts and ends with `/` (`/` for a site at the root).
pub fn normalize_base(base: &str) -> String {
    let trimmed = base.trim().trim_matches('/');
    if trimmed.is_empty() {
        "/".to_string()
    } else {
        format!("/{trimmed}/")
    }
}

/// The app's path for the browser's `pathname` under `base`: `/shapemaze/play` under
/// `/shapemaze/` is `/play`; the base itself (with or without its last slash) is `/`. A path
/// outside the base is returned as it is (the page then shows that no page is there).
pub fn app_path(base: &str, pathname: &str) -> String {
    let base = normalize_base(base);
    let stem = base.trim_end_matches('/');
    if pathname == stem {
        return "/".to_string();
    }
    match pathname.strip_prefix(stem) {
        Some(rest) if rest.starts_with('/') => rest.to_string(),
        _ => pathname.to_string(),
    }
}

/// The browser's path for the app's `path` (which may carry a query): `/play?shape=Z` under
/// `/shapemaze/` is `/shapemaze/play?shape=Z`. Anything that is not an app path (a full URL,
/// a fragment) is returned unchanged.
pub fn href(base: &str, path: &str) -> String {
    match path.strip_prefix('/') {
        Some(rest) if !rest.starts_with('/') => format!("{}{rest}", normalize_base(base)),
        _ => path.to_string(),
    }
}

/// The two builds of the one site (docs/guides/developing.md, "Two builds"): the people's
/// pages, which a participant on a phone loads, and the researcher's lab. Each is its own
/// WebAssembly over the same core, so a participant never downloads the lab.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Build {
    /// `/` (the front door), `/play`, `/demo` and `/study`: `index.html`.
    People,
    /// `/model`, `/experiment`, `/results` and `/study/manage`: `lab.html`.
    Lab,
}

impl Build {
    /// The pages each build serves, as app paths (`/` is the front door).
    pub const fn pages(self) -> &'static [&'static str] {
        match self {
            Build::People => &["/", "/play", "/demo", "/study"],
            Build::Lab => &["/model", "/experiment", "/results", "/study/manage"],
        }
    }

    /// The build that serves the page at the app's `path` (a query or fragment is ignored;
    /// see [`page`]), or `None` for an address that is no page (the people's build answers
    /// those: it is the site's `404.html`).
    pub fn of(path: &str) -> Option<Build> {
        let page = page(path);
        [Build::People, Build::Lab]
            .into_iter()
            .find(|b| b.pages().contains(&page))
    }

    /// The file that holds this build's page at `path`, relative to the site's base, which
    /// every static host serves as it is: `play/index.html`, `study/manage/index.html`, and
    /// `index.html` for the front door.
    pub fn page_file(path: &str) -> String {
        match page(path) {
            "/" => "index.html".to_string(),
            p => format!("{}/index.html", p.trim_start_matches('/')),
        }
    }
}

/// The address of the app's `url` as a folder (`/results/`, `/study/?study=a`): what a link
/// to a page of the other build points at, since static hosts in the style of GitHub Pages
/// answer `/results` with a redirect to `/results/` (a round trip a slow link feels).
pub fn folder_url(url: &str) -> String {
    let end = url.find(['?', '#']).unwrap_or(url.len());
    let (path, rest) = url.split_at(end);
    if path.ends_with('/') || path.ends_with(".html") {
        url.to_string()
    } else {
        format!("{path}/{rest}")
    }
}

/// The page an app path names: without its query, fragment, trailing slash or the
/// `index.html` (or `404.html`) a host may show in the address: `/study/?study=a` and
/// `/study/index.html` are `/study`; `/index.html` and `/404.html` are `/`.
pub fn page(path: &str) -> &str {
    let end = path.find(['?', '#']).unwrap_or(path.len());
    let mut p = &path[..end];
    for file in ["index.html", "404.html"] {
        if let Some(rest) = p.strip_suffix(file) {
            if rest.ends_with('/') {
                p = rest;
            }
        }
    }
    match p.trim_end_matches('/') {
        "" => "/",
        trimmed => trimmed,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_page_belongs_to_one_build() {
        assert_eq!(Build::of("/"), Some(Build::People));
        assert_eq!(Build::of("/index.html"), Some(Build::People));
        assert_eq!(Build::of("/404.html"), Some(Build::People));
        assert_eq!(Build::of("/play?shape=Z"), Some(Build::People));
        assert_eq!(Build::of("/demo?race=a,b"), Some(Build::People));
        assert_eq!(Build::of("/study/?study=pilot"), Some(Build::People));
        assert_eq!(Build::of("/study/index.html"), Some(Build::People));
        assert_eq!(Build::of("/study/manage"), Some(Build::Lab));
        assert_eq!(Build::of("/study/manage/"), Some(Build::Lab));
        assert_eq!(Build::of("/results#generation"), Some(Build::Lab));
        assert_eq!(Build::of("/model/index.html"), Some(Build::Lab));
        assert_eq!(Build::of("/experiment"), Some(Build::Lab));
        assert_eq!(Build::of("/nowhere"), None);
        assert_eq!(Build::of("/studyx"), None);
        assert_eq!(Build::of("/play/more"), None);
        assert_eq!(Build::of("/xindex.html"), None);
        for b in [Build::People, Build::Lab] {
            for p in b.pages() {
                assert_eq!(Build::of(p), Some(b));
            }
        }
    }

    #[test]
    fn links_to_the_other_build_name_its_folder() {
        assert_eq!(folder_url("/results"), "/results/");
        assert_eq!(folder_url("/results#review"), "/results/#review");
        assert_eq!(folder_url("/study?study=a"), "/study/?study=a");
        assert_eq!(folder_url("/"), "/");
        assert_eq!(folder_url("/study/manage/"), "/study/manage/");
        assert_eq!(folder_url("/results/index.html"), "/results/index.html");
    }

    #[test]
    fn each_page_has_a_file_of_its_own() {
        assert_eq!(Build::page_file("/"), "index.html");
        assert_eq!(Build::page_file("/play?shape=Z"), "play/index.html");
        assert_eq!(
            Build::page_file("/study/manage/"),
            "study/manage/index.html"
        );
        assert_eq!(
            Build::page_file("/results/index.html"),
            "results/index.html"
        );
    }

    #[test]
    fn bases_are_normalized() {
        assert_eq!(normalize_base(""), "/");
        assert_eq!(normalize_base("/"), "/");
        assert_eq!(normalize_base("shapemaze"), "/shapemaze/");
        assert_eq!(normalize_base("/shapemaze"), "/shapemaze/");
        assert_eq!(normalize_base("/a/b/"), "/a/b/");
    }

    #[test]
    fn browser_paths_map_to_app_paths() {
        assert_eq!(app_path("/", "/play"), "/play");
        assert_eq!(app_path("/", "/"), "/");
        assert_eq!(app_path("/shapemaze/", "/shapemaze/"), "/");
        assert_eq!(app_path("/shapemaze/", "/shapemaze"), "/");
        assert_eq!(app_path("/shapemaze/", "/shapemaze/play"), "/play");
        assert_eq!(
            app_path("/shapemaze/", "/shapemaze/study/manage"),
            "/study/manage"
        );
        // Outside the base, or a longer name that only starts like it.
        assert_eq!(app_path("/shapemaze/", "/play"), "/play");
        assert_eq!(
            app_path("/shapemaze/", "/shapemazes/play"),
            "/shapemazes/play"
        );
    }

    #[test]
    fn app_paths_map_to_browser_paths() {
        assert_eq!(href("/", "/play"), "/play");
        assert_eq!(href("/", "/"), "/");
        assert_eq!(href("/shapemaze/", "/"), "/shapemaze/");
        assert_eq!(
            href("/shapemaze/", "/play?shape=Z"),
            "/shapemaze/play?shape=Z"
        );
        assert_eq!(
            href("/shapemaze/", "/trials/index.json"),
            "/shapemaze/trials/index.json"
        );
        // Not app paths: left alone.
        assert_eq!(
            href("/shapemaze/", "https://x.example/a"),
            "https://x.example/a"
        );
        assert_eq!(href("/shapemaze/", "//cdn.example/a"), "//cdn.example/a");
        assert_eq!(href("/shapemaze/", "#top"), "#top");
        // Round trip.
        for p in ["/", "/play", "/study/manage", "/results"] {
            assert_eq!(app_path("/shapemaze/", &href("/shapemaze/", p)), p);
        }
    }
}
