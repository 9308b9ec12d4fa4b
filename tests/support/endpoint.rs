//! A fake OpenAI-compatible endpoint for the command line's tests (`shapemaze run`): it
//! answers one fixed reply, can refuse the first requests with 429, and keeps every
//! request's body and `Authorization` header for the test to read.
#![allow(clippy::disallowed_methods)] // native only: threads and sleeps (clippy.toml)

use serde_json::Value;
use std::collections::BTreeSet;
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// A fake OpenAI-compatible endpoint on a loopback port: every request to
/// `/v1/chat/completions` waits `latency`, then answers `reply` (streamed when asked),
/// except the first `rate_limited` requests, which get 429 with `Retry-After: 1`.
pub struct FakeEndpoint {
    /// The base URL (`http://127.0.0.1:PORT/v1`).
    pub url: String,
    /// Requests answered so far.
    pub requests: Arc<AtomicUsize>,
    /// Every `Authorization` header seen.
    pub authorizations: Arc<Mutex<BTreeSet<String>>>,
    /// Every request body, in arrival order.
    pub bodies: Arc<Mutex<Vec<String>>>,
}

impl FakeEndpoint {
    /// Starts the endpoint on a free loopback port.
    pub fn start(latency: Duration, rate_limited: usize, reply: &'static str) -> FakeEndpoint {
        let listener = TcpListener::bind("127.0.0.1:0").expect("a loopback port");
        let url = format!("http://{}/v1", listener.local_addr().expect("address"));
        let requests = Arc::new(AtomicUsize::new(0));
        let authorizations = Arc::new(Mutex::new(BTreeSet::new()));
        let bodies = Arc::new(Mutex::new(Vec::new()));
        let (r, a, b) = (requests.clone(), authorizations.clone(), bodies.clone());
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let (r, a, b) = (r.clone(), a.clone(), b.clone());
                std::thread::spawn(move || {
                    let _ = serve_connection(stream, latency, rate_limited, reply, &r, &a, &b);
                });
            }
        });
        FakeEndpoint {
            url,
            requests,
            authorizations,
            bodies,
        }
    }
}

fn serve_connection(
    mut stream: TcpStream,
    latency: Duration,
    rate_limited: usize,
    reply: &str,
    requests: &AtomicUsize,
    authorizations: &Mutex<BTreeSet<String>>,
    bodies: &Mutex<Vec<String>>,
) -> std::io::Result<()> {
    stream.set_read_timeout(Some(Duration::from_secs(30)))?;
    let mut buf = Vec::new();
    let mut chunk = [0u8; 8192];
    loop {
        // One request per connection at a time; keep-alive serves the next on the same one.
        let head_end = loop {
            if let Some(i) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
                break i + 4;
            }
            let n = stream.read(&mut chunk)?;
            if n == 0 {
                return Ok(());
            }
            buf.extend_from_slice(&chunk[..n]);
        };
        let head = String::from_utf8_lossy(&buf[..head_end]).to_string();
        let mut length = 0;
        for line in head.lines() {
            let lower = line.to_ascii_lowercase();
            if let Some(v) = lower.strip_prefix("content-length:") {
                length = v.trim().parse().unwrap_or(0);
            }
            if lower.starts_with("authorization:") {
                let value = line["authorization:".len()..].trim().to_string();
                authorizations.lock().expect("lock").insert(value);
            }
        }
        while buf.len() < head_end + length {
            let n = stream.read(&mut chunk)?;
            if n == 0 {
                return Ok(());
            }
            buf.extend_from_slice(&chunk[..n]);
        }
        let body = String::from_utf8_lossy(&buf[head_end..head_end + length]).to_string();
        buf.drain(..head_end + length);
        bodies.lock().expect("lock").push(body.clone());
        let n = requests.fetch_add(1, Ordering::SeqCst);
        std::thread::sleep(latency);
        let response = if n < rate_limited {
            let text = "{\"error\": {\"message\": \"slow down\"}}";
            format!(
                "HTTP/1.1 429 Too Many Requests\r\nRetry-After: 1\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{text}",
                text.len()
            )
        } else if body.contains("\"stream\":true") {
            let delta = serde_json::json!({"choices": [{"index": 0, "delta": {"content": reply}, "finish_reason": null}]});
            let end = serde_json::json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]});
            let text = format!("data: {delta}\n\ndata: {end}\n\ndata: [DONE]\n\n");
            format!(
                "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nContent-Length: {}\r\n\r\n{text}",
                text.len()
            )
        } else {
            let text = serde_json::json!({
                "choices": [{"index": 0, "message": {"role": "assistant", "content": reply}, "finish_reason": "stop"}],
                "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}
            })
            .to_string();
            format!(
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{text}",
                text.len()
            )
        };
        stream.write_all(response.as_bytes())?;
        stream.flush()?;
    }
}

/// A design of an endpoint player (`fake-model` at `url`, its key in
/// `SHAPEMAZE_TEST_RUN_KEY`) beside the oracle.
pub fn endpoint_design(url: &str, stream: bool, concurrency: usize, samples: usize) -> Value {
    serde_json::json!({
        "players": [{"kind": "endpoint", "preset": "custom", "base_url": url, "model": "fake-model",
                     "key_env": "SHAPEMAZE_TEST_RUN_KEY", "stream": stream, "timeout_ms": 10000},
                    {"kind": "oracle"}],
        "encodings": ["matrix", "coord_list"],
        "shapes": ["square", "cross", "spiral"],
        "size": 5,
        "samples_per_shape": samples,
        "seed": 1,
        "move_limit": 2,
        "concurrency": concurrency
    })
}
