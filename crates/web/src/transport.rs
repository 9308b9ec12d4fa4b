//! The browser's [`Transport`] for the chat client: `fetch` with one `AbortController`
//! per request (aborted by a timer after the request's time limit, or by
//! [`BrowserTransport::abort`]), streamed bodies read chunk by chunk through a
//! `ReadableStreamDefaultReader` and a streaming `TextDecoder`, `setTimeout` for back-off
//! waits, `Date.now()` for the clock and `Math.random()` for jitter. Every decision about
//! what to send and what a reply means lives in [`shapemaze_core::model`].

use shapemaze_core::model::transport::{HttpRequest, HttpResponse, Transport, TransportError};
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{
    AbortController, Headers, ReadableStream, ReadableStreamDefaultReader, Request, RequestInit,
    Response, TextDecodeOptions, TextDecoder, Window,
};

/// Sends chat requests from the page. Clones share one state, so a Stop button can hold a
/// clone and call [`BrowserTransport::abort`] while a call runs on another.
///
/// A stopped transport stays stopped (every request fails at once as aborted, waits end
/// at once) until [`BrowserTransport::reset`]: call it before starting the next run.
#[derive(Clone, Default)]
pub struct BrowserTransport {
    shared: Rc<Shared>,
}

#[derive(Default)]
struct Shared {
    /// The controller of the request in flight, if any.
    controller: RefCell<Option<AbortController>>,
    /// Resolves the back-off wait in progress, if any.
    wake: RefCell<Option<js_sys::Function>>,
    /// Set by `abort`, cleared by `reset`.
    stopped: Cell<bool>,
}

impl BrowserTransport {
    /// A transport with nothing in flight.
    pub fn new() -> Self {
        BrowserTransport::default()
    }

    /// Stops the run: aborts the request in flight (its call fails as
    /// [`TransportError::Aborted`]), ends a back-off wait early, and makes later requests
    /// fail the same way until [`BrowserTransport::reset`].
    pub fn abort(&self) {
        self.shared.stopped.set(true);
        let controller = self.shared.controller.borrow().clone();
        if let Some(c) = controller {
            c.abort();
        }
        let wake = self.shared.wake.borrow_mut().take();
        if let Some(resolve) = wake {
            // Resolving a promise cannot fail in a way that matters here.
            let _ = resolve.call0(&JsValue::NULL);
        }
    }

    /// Clears a stop so that the next run can send requests.
    pub fn reset(&self) {
        self.shared.stopped.set(false);
    }

    /// True after [`BrowserTransport::abort`] until [`BrowserTransport::reset`].
    pub fn is_stopped(&self) -> bool {
        self.shared.stopped.get()
    }
}

impl Transport for BrowserTransport {
    async fn post(
        &self,
        req: &HttpRequest,
        on_chunk: &mut dyn FnMut(&str),
    ) -> Result<HttpResponse, TransportError> {
        if self.is_stopped() {
            return Err(TransportError::Aborted);
        }
        let window = web_sys::window()
            .ok_or_else(|| TransportError::Network("no browser window".to_string()))?;
        let controller = AbortController::new().map_err(|e| network(&e))?;
        let timed_out = Rc::new(Cell::new(false));
        let on_timeout = {
            let controller = controller.clone();
            let timed_out = timed_out.clone();
            Closure::<dyn FnMut()>::new(move || {
                timed_out.set(true);
                controller.abort();
            })
        };
        let timer = window
            .set_timeout_with_callback_and_timeout_and_arguments_0(
                on_timeout.as_ref().unchecked_ref(),
                clamp_ms(req.timeout_ms),
            )
            .map_err(|e| network(&e))?;
        *self.shared.controller.borrow_mut() = Some(controller.clone());
        let result = fetch(&window, req, &controller, on_chunk).await;
        window.clear_timeout_with_handle(timer);
        // The timer is cleared, so its closure can go.
        drop(on_timeout);
        self.shared.controller.borrow_mut().take();
        result.map_err(|e| {
            if timed_out.get() {
                TransportError::Timeout
            } else if self.is_stopped() {
                TransportError::Aborted
            } else {
                network(&e)
            }
        })
    }

    async fn sleep(&self, ms: u64) {
        if self.is_stopped() {
            return;
        }
        let Some(window) = web_sys::window() else {
            return;
        };
        let shared = self.shared.clone();
        let promise = js_sys::Promise::new(&mut |resolve: js_sys::Function, _reject| {
            if window
                .set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, clamp_ms(ms))
                .is_err()
            {
                let _ = resolve.call0(&JsValue::NULL);
            }
            *shared.wake.borrow_mut() = Some(resolve);
        });
        // The promise only ever resolves.
        let _ = JsFuture::from(promise).await;
        self.shared.wake.borrow_mut().take();
    }

    fn now_ms(&self) -> f64 {
        js_sys::Date::now()
    }

    fn jitter(&self) -> f64 {
        js_sys::Math::random()
    }
}

/// A time in milliseconds as `setTimeout` takes it.
fn clamp_ms(ms: u64) -> i32 {
    i32::try_from(ms).unwrap_or(i32::MAX)
}

/// A network error with the browser's own words (`TypeError: Failed to fetch`).
fn network(e: &JsValue) -> TransportError {
    let text = match e.dyn_ref::<js_sys::Error>() {
        Some(err) => format!(
            "{}: {}",
            String::from(err.name()),
            String::from(err.message())
        ),
        None => e
            .as_string()
            .unwrap_or_else(|| "the request failed".to_string()),
    };
    TransportError::Network(text)
}

/// POSTs the request and reads the whole response, streaming a 2xx body to `on_chunk`.
async fn fetch(
    window: &Window,
    req: &HttpRequest,
    controller: &AbortController,
    on_chunk: &mut dyn FnMut(&str),
) -> Result<HttpResponse, JsValue> {
    let headers = Headers::new()?;
    for (name, value) in &req.headers {
        headers.set(name, value)?;
    }
    let init = RequestInit::new();
    init.set_method("POST");
    init.set_headers(&headers);
    init.set_body(&JsValue::from_str(&req.body));
    init.set_signal(Some(&controller.signal()));
    let request = Request::new_with_str_and_init(&req.url, &init)?;
    let response: Response = JsFuture::from(window.fetch_with_request(&request))
        .await?
        .dyn_into()?;
    let status = response.status();
    let headers = collect_headers(&response.headers());
    let body = if (200..300).contains(&status) {
        match response.body() {
            Some(stream) => read_stream(&stream, on_chunk).await?,
            None => String::new(),
        }
    } else {
        JsFuture::from(response.text()?)
            .await?
            .as_string()
            .unwrap_or_default()
    };
    Ok(HttpResponse {
        status,
        headers,
        body,
    })
}

/// The response headers the browser exposes, as name/value pairs.
fn collect_headers(headers: &Headers) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for entry in headers.entries().into_iter().flatten() {
        let pair = js_sys::Array::from(&entry);
        if let (Some(name), Some(value)) = (pair.get(0).as_string(), pair.get(1).as_string()) {
            out.push((name, value));
        }
    }
    out
}

/// Reads a body stream to its end, decoding UTF-8 across chunk boundaries, handing each
/// piece of text to `on_chunk` as it arrives; returns the whole text.
async fn read_stream(
    stream: &ReadableStream,
    on_chunk: &mut dyn FnMut(&str),
) -> Result<String, JsValue> {
    let reader = ReadableStreamDefaultReader::new(stream)?;
    let decoder = TextDecoder::new()?;
    let options = TextDecodeOptions::new();
    options.set_stream(true);
    let done_key = JsValue::from_str("done");
    let value_key = JsValue::from_str("value");
    let mut body = String::new();
    loop {
        let step = JsFuture::from(reader.read()).await?;
        // A result without `done` is not a stream result: stop rather than loop forever.
        if js_sys::Reflect::get(&step, &done_key)?
            .as_bool()
            .unwrap_or(true)
        {
            break;
        }
        let bytes: js_sys::Uint8Array = js_sys::Reflect::get(&step, &value_key)?.dyn_into()?;
        let text = decoder.decode_with_js_u8_array_and_options(&bytes, &options)?;
        if !text.is_empty() {
            on_chunk(&text);
            body.push_str(&text);
        }
    }
    let tail = decoder.decode()?;
    if !tail.is_empty() {
        on_chunk(&tail);
        body.push_str(&tail);
    }
    Ok(body)
}
