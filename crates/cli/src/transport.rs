//! The native [`Transport`] of `shapemaze run`: reqwest over rustls, tokio's clock and
//! sleep, a seeded jitter. Replies stream in chunk by chunk (`bytes_stream`), each text
//! chunk handed on as it arrives; every attempt has its own time limit.

use crate::io::CliError;
use futures_util::StreamExt;
use shapemaze_core::model::transport::{HttpRequest, HttpResponse, Transport, TransportError};
use std::cell::Cell;
use std::rc::Rc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// A chat transport for the native command line (cheap to clone: clones share the HTTP
/// client's connection pool and the jitter's state).
#[derive(Clone, Debug)]
pub struct NativeTransport {
    client: reqwest::Client,
    state: Rc<Cell<u64>>,
}

impl NativeTransport {
    /// A transport over `client` whose jitter sequence follows from `seed`.
    pub fn new(client: reqwest::Client, seed: u64) -> NativeTransport {
        NativeTransport {
            client,
            state: Rc::new(Cell::new(seed)),
        }
    }

    /// An HTTP client fit for chat endpoints (no overall timeout: each attempt has its own).
    pub fn client() -> Result<reqwest::Client, CliError> {
        reqwest::Client::builder()
            .user_agent(concat!("shapemaze/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(|e| CliError::usage(format!("cannot start the HTTP client: {e}")))
    }

    async fn attempt(
        &self,
        req: &HttpRequest,
        on_chunk: &mut dyn FnMut(&str),
    ) -> Result<HttpResponse, TransportError> {
        let mut builder = self.client.post(&req.url).body(req.body.clone());
        for (name, value) in &req.headers {
            builder = builder.header(name, value);
        }
        let response = builder.send().await.map_err(failure)?;
        let status = response.status().as_u16();
        let headers = response
            .headers()
            .iter()
            .filter_map(|(k, v)| {
                v.to_str()
                    .ok()
                    .map(|v| (k.as_str().to_string(), v.to_string()))
            })
            .collect();
        let mut body = String::new();
        if (200..300).contains(&status) {
            let mut stream = response.bytes_stream();
            // Bytes of a character split across chunks wait for the rest.
            let mut pending: Vec<u8> = Vec::new();
            while let Some(chunk) = stream.next().await {
                pending.extend_from_slice(&chunk.map_err(failure)?);
                let valid = match std::str::from_utf8(&pending) {
                    Ok(s) => s.len(),
                    Err(e) => e.valid_up_to(),
                };
                if valid > 0 {
                    let text = String::from_utf8_lossy(&pending[..valid]).into_owned();
                    pending.drain(..valid);
                    on_chunk(&text);
                    body.push_str(&text);
                }
            }
            if !pending.is_empty() {
                let text = String::from_utf8_lossy(&pending).into_owned();
                on_chunk(&text);
                body.push_str(&text);
            }
        } else {
            body = response.text().await.map_err(failure)?;
        }
        Ok(HttpResponse {
            status,
            headers,
            body,
        })
    }
}

fn failure(e: reqwest::Error) -> TransportError {
    if e.is_timeout() {
        TransportError::Timeout
    } else {
        // reqwest's own text is short; the source says what actually failed.
        let mut text = e.to_string();
        let mut source = std::error::Error::source(&e);
        while let Some(s) = source {
            text.push_str(": ");
            text.push_str(&s.to_string());
            source = s.source();
        }
        TransportError::Network(text)
    }
}

impl Transport for NativeTransport {
    async fn post(
        &self,
        req: &HttpRequest,
        on_chunk: &mut dyn FnMut(&str),
    ) -> Result<HttpResponse, TransportError> {
        let limit = Duration::from_millis(req.timeout_ms.max(1));
        match tokio::time::timeout(limit, self.attempt(req, on_chunk)).await {
            Ok(result) => result,
            Err(_) => Err(TransportError::Timeout),
        }
    }

    async fn sleep(&self, ms: u64) {
        tokio::time::sleep(Duration::from_millis(ms)).await;
    }

    fn now_ms(&self) -> f64 {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0.0, |d| d.as_secs_f64() * 1000.0)
    }

    fn jitter(&self) -> f64 {
        // splitmix64: a good spread from any seed, no crate needed.
        let s = self.state.get().wrapping_add(0x9E37_79B9_7F4A_7C15);
        self.state.set(s);
        let mut z = s;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        (z >> 11) as f64 / (1u64 << 53) as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_jitter_stays_in_the_unit_interval_and_follows_its_seed() {
        let client = reqwest::Client::new();
        let a = NativeTransport::new(client.clone(), 7);
        let b = NativeTransport::new(client, 7);
        for _ in 0..1000 {
            let x = a.jitter();
            assert!((0.0..1.0).contains(&x), "{x} in [0, 1)");
            assert_eq!(x, b.jitter(), "the same seed, the same sequence");
        }
    }
}
