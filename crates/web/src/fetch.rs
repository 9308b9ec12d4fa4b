//! Reading files the site serves (bundled trials, study files) and files a person picks.

use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// The text at `url` (same site; a path such as `/trials/index.json` is the site's own file,
/// under the base the site is served from), or a message saying why it could not be read.
pub async fn get_text(url: &str) -> Result<String, String> {
    let url = &crate::route::href(url);
    let window = web_sys::window().ok_or("no window")?;
    let response = JsFuture::from(window.fetch_with_str(url))
        .await
        .map_err(|_| format!("{url} could not be fetched (the network or the site is down)"))?;
    let response: web_sys::Response = response
        .dyn_into()
        .map_err(|_| format!("{url} gave no response"))?;
    if !response.ok() {
        return Err(match response.status() {
            404 => format!("{url} does not exist (404)"),
            s => format!("{url} answered {s} {}", response.status_text()),
        });
    }
    let text = response
        .text()
        .map_err(|_| format!("{url} has no text body"))?;
    let text = JsFuture::from(text)
        .await
        .ok()
        .and_then(|t| t.as_string())
        .ok_or_else(|| format!("{url} could not be read as text"))?;
    // Static hosts answer unknown paths with the app's own page (so deep links work): a
    // JSON file answered with HTML does not exist.
    if url.ends_with(".json") && text.trim_start().starts_with('<') {
        return Err(format!("{url} does not exist (404)"));
    }
    Ok(text)
}

/// The text of the first file chosen in a file input, with its name.
pub async fn picked_text(input: &web_sys::HtmlInputElement) -> Result<(String, String), String> {
    let file = input
        .files()
        .and_then(|f| f.get(0))
        .ok_or("no file was chosen")?;
    let name = file.name();
    let text = JsFuture::from(file.text())
        .await
        .ok()
        .and_then(|t| t.as_string())
        .ok_or_else(|| format!("{name} could not be read as text"))?;
    Ok((name, text))
}

/// POSTs `body` (JSON) to `url`; the response's status and text, or why no response came.
pub async fn post_json(url: &str, body: &str) -> Result<(u16, String), String> {
    let window = web_sys::window().ok_or("no window")?;
    let init = web_sys::RequestInit::new();
    init.set_method("POST");
    init.set_body(&wasm_bindgen::JsValue::from_str(body));
    let headers = web_sys::Headers::new().map_err(|_| "no headers")?;
    headers
        .set("Content-Type", "application/json")
        .map_err(|_| "no headers")?;
    init.set_headers(&headers);
    let response = JsFuture::from(window.fetch_with_str_and_init(url, &init))
        .await
        .map_err(|_| {
            format!("{url} could not be reached (offline, or the server refuses this site)")
        })?;
    let response: web_sys::Response = response
        .dyn_into()
        .map_err(|_| format!("{url} gave no response"))?;
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
