//! Saving text as a file from the page.

use wasm_bindgen::{JsCast, JsValue};
use web_sys::{Blob, BlobPropertyBag, HtmlAnchorElement, Url};

/// Offers `text` to the person as a plain-text download named `filename`.
pub fn download_text(filename: &str, text: &str) -> Result<(), String> {
    download_file(filename, text, "text/plain;charset=utf-8")
}

/// Offers `text` to the person as a download named `filename` of type `mime`.
pub fn download_file(filename: &str, text: &str, mime: &str) -> Result<(), String> {
    download_part(filename, &JsValue::from_str(text), mime)
}

/// Offers `bytes` to the person as a download named `filename` of type `mime`.
pub fn download_bytes(filename: &str, bytes: &[u8], mime: &str) -> Result<(), String> {
    download_part(filename, &js_sys::Uint8Array::from(bytes), mime)
}

fn download_part(filename: &str, part: &JsValue, mime: &str) -> Result<(), String> {
    let fail = |what: &str, e: JsValue| format!("could not {what}: {e:?}");
    let parts = js_sys::Array::of1(part);
    let options = BlobPropertyBag::new();
    options.set_type(mime);
    let blob = Blob::new_with_str_sequence_and_options(&parts, &options)
        .map_err(|e| fail("prepare the file", e))?;
    let url = Url::create_object_url_with_blob(&blob).map_err(|e| fail("prepare the file", e))?;
    let document = web_sys::window()
        .and_then(|w| w.document())
        .ok_or("no document to download from")?;
    let anchor: HtmlAnchorElement = document
        .create_element("a")
        .map_err(|e| fail("start the download", e))?
        .dyn_into()
        .map_err(|_| "could not start the download".to_string())?;
    anchor.set_href(&url);
    anchor.set_download(filename);
    anchor.click();
    Url::revoke_object_url(&url).map_err(|e| fail("release the file", e))?;
    Ok(())
}
