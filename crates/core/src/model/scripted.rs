//! A scripted transport that plays canned answers, for native tests and examples (it is public so integration tests and examples can use it).

use super::transport::{HttpRequest, HttpResponse, Transport, TransportError, TransportKind};
use std::cell::{Cell, RefCell};
use std::collections::VecDeque;

/// One canned answer of a [`ScriptedTransport`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Scripted {
    /// A response; a 2xx body is handed to `on_chunk` in these chunks.
    Reply {
        /// The status.
        status: u16,
        /// The headers.
        headers: Vec<(String, String)>,
        /// The body, in the chunks it arrives in.
        chunks: Vec<String>,
    },
    /// No response.
    Fail(TransportError),
}

impl Scripted {
    /// A 200 response with this body, in one chunk.
    pub fn ok(body: impl Into<String>) -> Self {
        Scripted::status(200, body)
    }

    /// A response with this status and body, in one chunk.
    pub fn status(status: u16, body: impl Into<String>) -> Self {
        Scripted::Reply {
            status,
            headers: Vec::new(),
            chunks: vec![body.into()],
        }
    }

    /// A 200 response whose body arrives in these chunks.
    pub fn chunks(chunks: &[&str]) -> Self {
        Scripted::Reply {
            status: 200,
            headers: vec![("content-type".into(), "text/event-stream".into())],
            chunks: chunks.iter().map(|c| c.to_string()).collect(),
        }
    }

    /// A 200 response carrying a model's plain answer `content`, as an endpoint would
    /// send it without streaming.
    pub fn answer(content: &str) -> Self {
        let body = serde_json::json!({
            "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
        });
        Scripted::ok(body.to_string())
    }

    /// The same response with one more header.
    pub fn with_header(mut self, name: &str, value: &str) -> Self {
        if let Scripted::Reply { headers, .. } = &mut self {
            headers.push((name.to_string(), value.to_string()));
        }
        self
    }
}

/// A [`Transport`] that plays a script of canned answers, for tests and offline runs. Its
/// clock starts at `start_ms`, advances by `latency_ms` per request and by each sleep;
/// jitter is fixed. Once the script is used up, requests fail with a network error.
#[derive(Debug)]
pub struct ScriptedTransport {
    script: RefCell<VecDeque<Scripted>>,
    clock: Cell<f64>,
    /// Milliseconds each request takes on the fake clock.
    pub latency_ms: f64,
    /// The jitter returned, in [0, 1).
    pub jitter: f64,
    /// Who it plays: the build's kind unless set (tests set either).
    pub kind: TransportKind,
    requests: RefCell<Vec<HttpRequest>>,
    sleeps: RefCell<Vec<u64>>,
}

impl ScriptedTransport {
    /// A transport that will give these answers in order; the clock starts at
    /// 1 700 000 000 000 ms, requests take 250 ms and jitter is 0.5.
    pub fn new(script: Vec<Scripted>) -> Self {
        ScriptedTransport {
            script: RefCell::new(script.into()),
            clock: Cell::new(1_700_000_000_000.0),
            latency_ms: 250.0,
            jitter: 0.5,
            kind: TransportKind::OF_BUILD,
            requests: RefCell::new(Vec::new()),
            sleeps: RefCell::new(Vec::new()),
        }
    }

    /// Appends answers to the script.
    pub fn push(&self, answers: impl IntoIterator<Item = Scripted>) {
        self.script.borrow_mut().extend(answers);
    }

    /// The requests made so far.
    pub fn requests(&self) -> Vec<HttpRequest> {
        self.requests.borrow().clone()
    }

    /// The waits asked for so far, in milliseconds.
    pub fn sleeps(&self) -> Vec<u64> {
        self.sleeps.borrow().clone()
    }

    /// Answers not yet given.
    pub fn remaining(&self) -> usize {
        self.script.borrow().len()
    }
}

impl Transport for ScriptedTransport {
    async fn post(
        &self,
        req: &HttpRequest,
        on_chunk: &mut dyn FnMut(&str),
    ) -> Result<HttpResponse, TransportError> {
        self.requests.borrow_mut().push(req.clone());
        self.clock.set(self.clock.get() + self.latency_ms);
        let next = self.script.borrow_mut().pop_front();
        match next {
            None => Err(TransportError::Network(
                "the script has no more answers".to_string(),
            )),
            Some(Scripted::Fail(e)) => Err(e),
            Some(Scripted::Reply {
                status,
                headers,
                chunks,
            }) => {
                if (200..300).contains(&status) {
                    for c in &chunks {
                        on_chunk(c);
                    }
                }
                Ok(HttpResponse {
                    status,
                    headers,
                    body: chunks.concat(),
                })
            }
        }
    }

    async fn sleep(&self, ms: u64) {
        self.sleeps.borrow_mut().push(ms);
        self.clock.set(self.clock.get() + ms as f64);
    }

    fn now_ms(&self) -> f64 {
        self.clock.get()
    }

    fn jitter(&self) -> f64 {
        self.jitter
    }

    fn kind(&self) -> TransportKind {
        self.kind
    }
}

#[cfg(test)]
mod tests {
    use super::super::settings::EndpointSettings;
    use super::super::test_support::{fast_settings, run};
    use super::*;

    #[test]
    fn the_scripted_answer_helper_makes_a_reply_the_parser_reads() {
        let t = ScriptedTransport::new(vec![Scripted::answer("Shape: square")]);
        let (r, _) = run(&t, &fast_settings());
        assert_eq!(r.expect("parses").content, "Shape: square");
        let (r, _) = run(
            &t,
            &EndpointSettings {
                max_attempts: 1,
                ..fast_settings()
            },
        );
        assert_eq!(r.expect_err("script used up").kind_name(), "network");
    }
}
