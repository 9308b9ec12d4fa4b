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

#[cfg(test)]
mod tests {
    use super::*;

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
