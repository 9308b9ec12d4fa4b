//! The transport trait the browser (`fetch`) and the command line (`reqwest`) implement:
//! one POST in, one response (or a failure of the transport) out; and [`block_on`], to
//! drive a call to its end natively.

use std::future::Future;

/// A POST to make.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HttpRequest {
    /// The full URL.
    pub url: String,
    /// Header names and values.
    pub headers: Vec<(String, String)>,
    /// The JSON body.
    pub body: String,
    /// How long the attempt may take, in milliseconds.
    pub timeout_ms: u64,
}

/// A response, whatever its status.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HttpResponse {
    /// The HTTP status.
    pub status: u16,
    /// Header names and values (those the browser exposes).
    pub headers: Vec<(String, String)>,
    /// The whole body.
    pub body: String,
}

/// Who sends a transport's requests, which decides what a failure without a response can
/// mean and what to advise.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TransportKind {
    /// A web page's `fetch`: a server that is down and one that refuses the page's origin
    /// (CORS) fail alike, and the browser does not say which.
    Browser,
    /// A native program (the command line): its errors say what failed, and CORS does not
    /// apply. The default, so that no error claims a browser unless one sent the request.
    #[default]
    Native,
}

impl TransportKind {
    /// The kind of this build's transports: the browser's in the web app (wasm), native
    /// everywhere else. [`Transport::kind`] defaults to it.
    pub const OF_BUILD: TransportKind = if cfg!(target_arch = "wasm32") {
        TransportKind::Browser
    } else {
        TransportKind::Native
    };
}

/// Why a request got no response.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TransportError {
    /// The request failed (in a browser, CORS refusals look like this), with the message.
    Network(String),
    /// The time limit passed.
    Timeout,
    /// The person stopped the request.
    Aborted,
}

/// What the client needs from the outside world: HTTP, a clock, waiting and randomness.
pub trait Transport {
    /// POSTs the request; while a 2xx body streams in, hands each text chunk to on_chunk
    /// (and still returns the whole body).
    fn post(
        &self,
        req: &HttpRequest,
        on_chunk: &mut dyn FnMut(&str),
    ) -> impl Future<Output = Result<HttpResponse, TransportError>>;
    /// Waits `ms` milliseconds.
    fn sleep(&self, ms: u64) -> impl Future<Output = ()>;
    /// The current time in milliseconds since the Unix epoch.
    fn now_ms(&self) -> f64;
    /// A random number, uniform in [0, 1).
    fn jitter(&self) -> f64;
    /// Who sends the requests. By default the build's kind ([`TransportKind::OF_BUILD`]):
    /// the web app's `fetch` transport is the browser's, the command line's is native.
    fn kind(&self) -> TransportKind {
        TransportKind::OF_BUILD
    }
}

/// Runs a future to completion on the current thread. Meant for futures whose transport
/// completes without a real event loop (such as [`ScriptedTransport`] in native tests and
/// the command line); in the browser, spawn the future instead.
pub fn block_on<F: Future>(f: F) -> F::Output {
    use std::sync::Arc;
    use std::task::{Context, Poll, Wake, Waker};
    struct ThreadWaker(std::thread::Thread);
    impl Wake for ThreadWaker {
        fn wake(self: Arc<Self>) {
            self.0.unpark();
        }
    }
    let mut f = std::pin::pin!(f);
    let waker = Waker::from(Arc::new(ThreadWaker(std::thread::current())));
    let mut cx = Context::from_waker(&waker);
    loop {
        if let Poll::Ready(out) = f.as_mut().poll(&mut cx) {
            return out;
        }
        std::thread::park();
    }
}
