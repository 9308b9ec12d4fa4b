//! What the study's pages ask of the browser: the clock, the window's size, a pause, a
//! file saved.

use crate::download::download_file;
use shapemaze_core::json::{self, JsonError};
use shapemaze_core::study::StudyTrialData;
use std::fmt;

/// Milliseconds since 1970 by the participant's clock.
pub(super) fn now() -> f64 {
    js_sys::Date::now()
}

/// The window's size now (`W x H`, as `1280x900`).
pub(super) fn window_size() -> String {
    web_sys::window()
        .map(|w| {
            let n = |v: Result<wasm_bindgen::JsValue, _>| {
                v.ok().and_then(|v| v.as_f64()).unwrap_or(0.0) as u32
            };
            format!("{}x{}", n(w.inner_width()), n(w.inner_height()))
        })
        .unwrap_or_default()
}

/// Waits `ms` milliseconds (letting the page draw).
pub(crate) async fn gloo_sleep(ms: u32) {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        if let Some(w) = web_sys::window() {
            let _ = w.set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms as i32);
        }
    });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
}

/// Why trials could not be saved as a file.
#[derive(Clone, Debug)]
pub(super) enum DownloadError {
    /// The trials cannot be written as JSON lines.
    Unwritable(JsonError),
    /// The browser would not save the file (why, from the download).
    Refused(String),
}

impl fmt::Display for DownloadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DownloadError::Unwritable(e) => e.fmt(f),
            DownloadError::Refused(why) => f.write_str(why),
        }
    }
}

/// Saves `trials` as a JSON-lines file named `file` (one trial a line).
pub(super) fn download_trials(file: &str, trials: &[StudyTrialData]) -> Result<(), DownloadError> {
    let text = json::lines(trials).map_err(DownloadError::Unwritable)?;
    download_file(file, &text, "application/x-ndjson")
        .map_err(|e| DownloadError::Refused(e.to_string()))
}

/// Saves `text` as a CSV file named `file`.
pub(super) fn download_csv(file: &str, text: &str) -> Result<(), DownloadError> {
    download_file(file, text, "text/csv").map_err(|e| DownloadError::Refused(e.to_string()))
}
