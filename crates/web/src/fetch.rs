//! Reading files the site serves (bundled trials, study files) and files a person picks,
//! and posting JSON; each failure a [`FetchError`] that says what failed.

use std::fmt;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// Why a file or a response could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FetchError {
    /// There is no browser window to fetch from.
    NoWindow,
    /// The address could not be reached (the network, the site, or the server refused).
    Unreachable(String),
    /// The fetch gave no response.
    NoResponse(String),
    /// The file does not exist (404, or a static host's page for a JSON file).
    Missing(String),
    /// The server answered another status (address, status, its text).
    Status(String, u16, String),
    /// The body could not be read as text (the address or the file's name).
    NotText(String),
    /// No file was chosen in the input.
    NoFile,
    /// The request could not be built (its headers).
    Request,
}

impl fmt::Display for FetchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FetchError::NoWindow => f.write_str("no window"),
            FetchError::Unreachable(url) => write!(
                f,
                "{url} could not be reached (offline, the site is down, or the server refuses this site)"
            ),
            FetchError::NoResponse(url) => write!(f, "{url} gave no response"),
            FetchError::Missing(url) => write!(f, "{url} does not exist (404)"),
            FetchError::Status(url, status, text) => write!(f, "{url} answered {status} {text}"),
            FetchError::NotText(what) => write!(f, "{what} could not be read as text"),
            FetchError::NoFile => f.write_str("no file was chosen"),
            FetchError::Request => f.write_str("the request could not be made (its headers)"),
        }
    }
}

impl std::error::Error for FetchError {}

/// The text at `url` (same site; a path such as `/trials/index.json` is the site's own file,
/// under the base the site is served from), or why it could not be read.
pub async fn get_text(url: &str) -> Result<String, FetchError> {
    let url = crate::route::href(url);
    let window = web_sys::window().ok_or(FetchError::NoWindow)?;
    let response = JsFuture::from(window.fetch_with_str(&url))
        .await
        .map_err(|_| FetchError::Unreachable(url.clone()))?;
    let response: web_sys::Response = response
        .dyn_into()
        .map_err(|_| FetchError::NoResponse(url.clone()))?;
    if !response.ok() {
        return Err(match response.status() {
            404 => FetchError::Missing(url),
            s => FetchError::Status(url, s, response.status_text()),
        });
    }
    let text = response
        .text()
        .map_err(|_| FetchError::NotText(url.clone()))?;
    let text = JsFuture::from(text)
        .await
        .ok()
        .and_then(|t| t.as_string())
        .ok_or_else(|| FetchError::NotText(url.clone()))?;
    // Static hosts answer unknown paths with the app's own page (so deep links work): a
    // JSON file answered with HTML does not exist.
    if url.ends_with(".json") && text.trim_start().starts_with('<') {
        return Err(FetchError::Missing(url));
    }
    Ok(text)
}

/// The text of the first file chosen in a file input, with its name.
pub async fn picked_text(
    input: &web_sys::HtmlInputElement,
) -> Result<(String, String), FetchError> {
    let file = input
        .files()
        .and_then(|f| f.get(0))
        .ok_or(FetchError::NoFile)?;
    let name = file.name();
    let text = JsFuture::from(file.text())
        .await
        .ok()
        .and_then(|t| t.as_string())
        .ok_or_else(|| FetchError::NotText(name.clone()))?;
    Ok((name, text))
}

/// POSTs `body` (JSON) to `url`; the response's status and text, or why no response came.
pub async fn post_json(url: &str, body: &str) -> Result<(u16, String), FetchError> {
    let window = web_sys::window().ok_or(FetchError::NoWindow)?;
    let init = web_sys::RequestInit::new();
    init.set_method("POST");
    init.set_body(&wasm_bindgen::JsValue::from_str(body));
    let headers = web_sys::Headers::new().map_err(|_| FetchError::Request)?;
    headers
        .set("Content-Type", "application/json")
        .map_err(|_| FetchError::Request)?;
    init.set_headers(&headers);
    let response = JsFuture::from(window.fetch_with_str_and_init(url, &init))
        .await
        .map_err(|_| FetchError::Unreachable(url.to_string()))?;
    let response: web_sys::Response = response
        .dyn_into()
        .map_err(|_| FetchError::NoResponse(url.to_string()))?;
    let text = match response.text() {
        Ok(t) => JsFuture::from(t)
            .await
            .ok()
            .and_then(|t| t.as_string())
            .unwrap_or_default(),
        Err(_) => String::new(),
    };
    Ok((response.status(), text))
}
