//! Saving text as a file from the page.

use std::fmt;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{Blob, BlobPropertyBag, HtmlAnchorElement, Url};

/// Why a download did not start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DownloadError {
    /// The browser would not make the file (its reason).
    Prepare(String),
    /// There is no page to start the download from.
    NoDocument,
    /// The browser would not start the download (its reason).
    Start(String),
    /// The browser would not let the file go after the download started (its reason).
    Release(String),
}

impl fmt::Display for DownloadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DownloadError::Prepare(e) => write!(f, "could not prepare the file: {e}"),
            DownloadError::NoDocument => f.write_str("no document to download from"),
            DownloadError::Start(e) => write!(f, "could not start the download: {e}"),
            DownloadError::Release(e) => write!(f, "could not release the file: {e}"),
        }
    }
}

impl std::error::Error for DownloadError {}

impl From<DownloadError> for String {
    fn from(e: DownloadError) -> String {
        e.to_string()
    }
}

/// Offers `text` to the person as a plain-text download named `filename`.
pub fn download_text(filename: &str, text: &str) -> Result<(), DownloadError> {
    download_file(filename, text, "text/plain;charset=utf-8")
}

/// Offers `text` to the person as a download named `filename` of type `mime`.
pub fn download_file(filename: &str, text: &str, mime: &str) -> Result<(), DownloadError> {
    download_part(filename, &JsValue::from_str(text), mime)
}

/// Offers `bytes` to the person as a download named `filename` of type `mime`.
pub fn download_bytes(filename: &str, bytes: &[u8], mime: &str) -> Result<(), DownloadError> {
    download_part(filename, &js_sys::Uint8Array::from(bytes), mime)
}

fn download_part(filename: &str, part: &JsValue, mime: &str) -> Result<(), DownloadError> {
    let said = |e: JsValue| format!("{e:?}");
    let parts = js_sys::Array::of1(part);
    let options = BlobPropertyBag::new();
    options.set_type(mime);
    let blob = Blob::new_with_str_sequence_and_options(&parts, &options)
        .map_err(|e| DownloadError::Prepare(said(e)))?;
    let url =
        Url::create_object_url_with_blob(&blob).map_err(|e| DownloadError::Prepare(said(e)))?;
    let document = web_sys::window()
        .and_then(|w| w.document())
        .ok_or(DownloadError::NoDocument)?;
    let anchor: HtmlAnchorElement = document
        .create_element("a")
        .map_err(|e| DownloadError::Start(said(e)))?
        .dyn_into()
        .map_err(|_| DownloadError::Start("no link to click".into()))?;
    anchor.set_href(&url);
    anchor.set_download(filename);
    anchor.click();
    Url::revoke_object_url(&url).map_err(|e| DownloadError::Release(said(e)))?;
    Ok(())
}
