//! The HTTP side of `shapemaze serve`: the routes, their handlers, the upload rate limit,
//! and a server that drains its requests before it stops.
//!
//! | route | what |
//! | --- | --- |
//! | `GET /healthz` | `ok` |
//! | `GET /proxy` | the configured upstream names |
//! | `POST /proxy/NAME/chat/completions` | forwarded to `URL/chat/completions` with the key |
//! | `POST /api/study-data` | a study upload, stored in SQLite |
//! | `POST /api/study-order` | the next participant's counterbalancing order: the least used |
//! | `GET /api/study-data.csv`, `.jsonl` | the stored trials (the JSONL with the outcomes after them), behind the export token |
//! | `GET /api/study-trials.csv` | the people's trials, one row each (`trials.csv`'s columns and the participant's), behind the export token |
//! | `GET /api/study-participants.csv` | each participant's outcome against the trials held, missing ones listed, behind the export token |
//! | anything else (`GET`, `HEAD`) | the built app, deep links falling back to `index.html` |
//!
//! Every API error is JSON, `{"error": "..."}`, with a message a person can act on.

use super::config::{ServeConfig, Upstream, EXPORT_TOKEN_ENV};
use super::store::{self, Store, StoreError};
use axum::body::Body;
use axum::extract::{ConnectInfo, Path, Request, State};
use axum::http::{header, HeaderMap, HeaderName, HeaderValue, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use futures_util::StreamExt;
use std::collections::HashMap;
use std::fmt;
use std::future::{Future, IntoFuture};
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tower::ServiceExt;
use tower_http::compression::CompressionLayer;
use tower_http::services::{ServeDir, ServeFile};

/// `Cache-Control` for content-hashed assets (trunk's `name-<hash>.js` and the like).
pub const CACHE_IMMUTABLE: &str = "public, max-age=31536000, immutable";
/// `Cache-Control` for everything else: revalidate every time, so a new build shows at once.
pub const CACHE_REVALIDATE: &str = "no-cache";

/// Whether a path names a file with a content hash, as trunk writes them:
/// `shapemaze-web-19f93658903121bd_bg.wasm`, `main-7466d4026efeff11.css` (trunk drops a
/// hash's leading zeros, so 12 hex digits or more count), or a file of wasm-bindgen's
/// snippets, whose folder carries the hash: `snippets/shapemaze-90d148ef126a4c3/lab.js`.
pub fn is_hashed_asset(path: &str) -> bool {
    let mut segments = path.rsplit('/');
    let last = segments.next().unwrap_or_default();
    hashed_name(last)
        || (segments.next().is_some_and(hashed_name) && segments.next() == Some("snippets"))
}

fn hashed_name(name: &str) -> bool {
    let stem = name.split('.').next().unwrap_or_default();
    let Some((_, tail)) = stem.rsplit_once('-') else {
        return false;
    };
    let hash = tail.split('_').next().unwrap_or_default();
    hash.len() >= 12 && hash.chars().all(|c| c.is_ascii_hexdigit())
}

/// A per-client token bucket: `per_min` uploads a minute, refilled continuously.
pub struct RateLimiter {
    per_min: u32,
    buckets: Mutex<HashMap<IpAddr, (f64, Instant)>>,
}

impl RateLimiter {
    /// Allows `per_min` requests a minute per client address (0: no limit).
    pub fn new(per_min: u32) -> RateLimiter {
        RateLimiter {
            per_min,
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// Takes one request from `client`'s allowance at `now`, or says how long to wait.
    pub fn check(&self, client: IpAddr, now: Instant) -> Result<(), Duration> {
        if self.per_min == 0 {
            return Ok(());
        }
        let capacity = f64::from(self.per_min);
        let per_sec = capacity / 60.0;
        let mut buckets = self
            .buckets
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if buckets.len() > 10_000 {
            // Forget clients whose allowance has refilled: they lose nothing.
            buckets.retain(|_, (tokens, at)| {
                *tokens + now.duration_since(*at).as_secs_f64() * per_sec < capacity
            });
        }
        let (tokens, at) = buckets.entry(client).or_insert((capacity, now));
        *tokens = (*tokens + now.duration_since(*at).as_secs_f64() * per_sec).min(capacity);
        *at = now;
        if *tokens >= 1.0 {
            *tokens -= 1.0;
            Ok(())
        } else {
            Err(Duration::from_secs_f64((1.0 - *tokens) / per_sec))
        }
    }
}

/// What the handlers share.
#[derive(Clone)]
pub struct AppState {
    config: Arc<ServeConfig>,
    store: Arc<Mutex<Store>>,
    limiter: Arc<RateLimiter>,
    client: reqwest::Client,
}

impl AppState {
    /// Opens the store and builds the HTTP client for `config`.
    pub fn new(config: ServeConfig) -> Result<AppState, ServeError> {
        let store = Store::open(&config.db).map_err(ServeError::Store)?;
        let client = reqwest::Client::builder()
            .connect_timeout(Duration::from_secs(10))
            .build()
            .map_err(ServeError::Client)?;
        Ok(AppState {
            limiter: Arc::new(RateLimiter::new(config.rate_per_min)),
            config: Arc::new(config),
            store: Arc::new(Mutex::new(store)),
            client,
        })
    }
}

/// The whole app: API routes, the proxy, and the static files with compression.
pub fn router(state: AppState) -> Router {
    Router::new()
        .route("/healthz", get(|| async { "ok" }))
        .route("/proxy", get(list_upstreams))
        .route("/proxy/{name}/chat/completions", post(proxy))
        .route("/api/study-order", post(study_order))
        .route("/api/study-data", post(upload))
        .route("/api/study-data.csv", get(export_csv))
        .route("/api/study-data.jsonl", get(export_jsonl))
        .route("/api/study-participants.csv", get(export_participants))
        .route("/api/study-trials.csv", get(export_trials))
        .fallback(static_files)
        // Server-sent events are never compressed (tower-http's default predicate), so a
        // stream passes through as it arrives; so are tiny bodies and images.
        .layer(CompressionLayer::new().gzip(true).br(true))
        .with_state(state)
}

fn json_error(status: StatusCode, message: impl Into<String>) -> Response {
    ApiError::new(status, message).into_response()
}

/// A refusal: a status and a message, answered as `{"error": message}`.
#[derive(Debug)]
struct ApiError {
    status: StatusCode,
    message: String,
}

impl ApiError {
    fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: message.into(),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut response = (
            self.status,
            Json(serde_json::json!({ "error": self.message })),
        )
            .into_response();
        if self.status == StatusCode::UNAUTHORIZED {
            response
                .headers_mut()
                .insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
        }
        response
    }
}

fn client_ip(req_extensions: &axum::http::Extensions) -> IpAddr {
    req_extensions
        .get::<ConnectInfo<SocketAddr>>()
        .map_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED), |c| c.0.ip())
}

/// How much of an oversized body is still read (and thrown away) before the 413 is sent:
/// a server that answers while the client is still sending closes a socket with unread
/// data, and the client then sees a connection reset instead of the message.
const DRAIN_FACTOR: u64 = 4;

/// Reads a whole body, refusing more than `limit` bytes with 413. An oversized body up to
/// [`DRAIN_FACTOR`] times the limit is read to its end first, so the client gets the 413.
async fn read_body(headers: &HeaderMap, body: Body, limit: usize) -> Result<Vec<u8>, ApiError> {
    let too_large = || {
        ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("the body is larger than this server's limit of {limit} bytes (--max-upload)"),
        )
    };
    let declared = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    let drain_cap = (limit as u64).saturating_mul(DRAIN_FACTOR);
    if declared.is_some_and(|n| n > drain_cap) {
        return Err(too_large());
    }
    let mut out = Vec::with_capacity(declared.map_or(0, |n| (n as usize).min(limit)));
    let mut seen: u64 = 0;
    let mut stream = body.into_data_stream();
    while let Some(chunk) = stream.next().await {
        let chunk = chunk.map_err(|e| {
            ApiError::new(
                StatusCode::BAD_REQUEST,
                format!("the body could not be read: {e}"),
            )
        })?;
        seen += chunk.len() as u64;
        if seen > drain_cap {
            return Err(too_large());
        }
        if seen <= limit as u64 {
            out.extend_from_slice(&chunk);
        }
    }
    if seen > limit as u64 {
        return Err(too_large());
    }
    Ok(out)
}

// ---- the proxy ----

async fn list_upstreams(State(state): State<AppState>) -> Response {
    let list: Vec<_> = state
        .config
        .upstreams
        .keys()
        .map(|name| serde_json::json!({ "name": name, "base_url": format!("/proxy/{name}") }))
        .collect();
    Json(serde_json::json!({ "upstreams": list })).into_response()
}

fn unknown_upstream(state: &AppState, name: &str) -> Response {
    let names: Vec<&str> = state.config.upstreams.keys().map(String::as_str).collect();
    let known = if names.is_empty() {
        "none is configured (start the server with --upstream NAME=URL)".to_string()
    } else {
        format!("the configured ones are: {}", names.join(", "))
    };
    let mut response = json_error(
        StatusCode::NOT_FOUND,
        format!("no upstream named '{name}' on this server; {known}"),
    );
    response
        .headers_mut()
        .insert("x-shapemaze-upstreams", header_value(&names.join(",")));
    response
}

fn header_value(text: &str) -> HeaderValue {
    HeaderValue::from_str(text).unwrap_or_else(|_| HeaderValue::from_static(""))
}

/// Response headers of the upstream that are not passed on: hop-by-hop ones, the length
/// (the body is streamed), and cookies (the upstream must not set any on this origin).
fn passes_through(name: &HeaderName) -> bool {
    !matches!(
        name.as_str(),
        "connection"
            | "keep-alive"
            | "proxy-authenticate"
            | "proxy-connection"
            | "te"
            | "trailer"
            | "transfer-encoding"
            | "upgrade"
            | "content-length"
            | "set-cookie"
    ) && !name.as_str().starts_with("access-control-")
}

async fn proxy(
    State(state): State<AppState>,
    Path(name): Path<String>,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, ApiError> {
    let Some(upstream) = state.config.upstreams.get(&name).cloned() else {
        return Ok(unknown_upstream(&state, &name));
    };
    let bytes = read_body(&headers, body, state.config.max_upload).await?;
    forward(&state, &upstream, &headers, bytes)
        .await
        .map_err(|e| {
            if state.config.log {
                eprintln!("shapemaze: proxy {}: {e}", upstream.name);
            }
            ApiError::new(StatusCode::BAD_GATEWAY, e.to_string())
        })
}

/// Why a request could not be passed to its upstream (answered 502).
#[derive(Debug)]
enum ProxyError {
    /// The upstream did not answer: its name, and the error with its causes.
    Unreachable(String, String),
    /// Its answer cannot be passed on.
    Unpassable(String, axum::http::Error),
}

impl fmt::Display for ProxyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProxyError::Unreachable(name, why) => {
                write!(f, "upstream '{name}' could not be reached: {why}")
            }
            ProxyError::Unpassable(name, e) => {
                write!(
                    f,
                    "upstream '{name}' sent a reply that cannot be passed on: {e}"
                )
            }
        }
    }
}

async fn forward(
    state: &AppState,
    upstream: &Upstream,
    headers: &HeaderMap,
    body: Vec<u8>,
) -> Result<Response, ProxyError> {
    let url = format!("{}/chat/completions", upstream.url);
    let mut request = state.client.post(&url).body(body);
    // Only what a chat request needs goes on; the browser's Authorization (and cookies)
    // never do.
    for name in [header::CONTENT_TYPE, header::ACCEPT] {
        if let Some(v) = headers.get(&name) {
            request = request.header(name, v.clone());
        }
    }
    if let Some(key) = &upstream.key {
        request = request.bearer_auth(key);
    }
    let reply = request.send().await.map_err(|e| {
        let why = e.without_url();
        let chain = source_chain(&why);
        ProxyError::Unreachable(upstream.name.clone(), format!("{why}{chain}"))
    })?;
    let mut response = Response::builder().status(reply.status().as_u16());
    let is_stream = reply
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("text/event-stream"));
    for (name, value) in reply.headers() {
        if passes_through(name) {
            response = response.header(name.as_str(), value.as_bytes());
        }
    }
    if is_stream {
        // Tell a reverse proxy in front (nginx) not to buffer the stream either.
        response = response.header("x-accel-buffering", "no");
    }
    response
        .body(Body::from_stream(reply.bytes_stream()))
        .map_err(|e| ProxyError::Unpassable(upstream.name.clone(), e))
}

fn source_chain(e: &dyn std::error::Error) -> String {
    let mut out = String::new();
    let mut source = e.source();
    // Bounded: error chains are short, but never trust that.
    for _ in 0..8 {
        let Some(s) = source else { break };
        out.push_str(&format!(": {s}"));
        source = s.source();
    }
    out
}

// ---- study uploads and exports ----

async fn upload(State(state): State<AppState>, request: Request) -> Response {
    let client = client_ip(request.extensions());
    if let Err(wait) = state.limiter.check(client, Instant::now()) {
        let secs = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
        let mut response = json_error(
            StatusCode::TOO_MANY_REQUESTS,
            format!(
                "too many uploads from this address (at most {} a minute); retry in {secs} s",
                state.config.rate_per_min
            ),
        );
        response
            .headers_mut()
            .insert(header::RETRY_AFTER, HeaderValue::from(secs.max(1)));
        return response;
    }
    let (parts, body) = request.into_parts();
    let bytes = match read_body(&parts.headers, body, state.config.max_upload).await {
        Ok(b) => b,
        Err(refusal) => return refusal.into_response(),
    };
    let upload = match store::parse_upload(&bytes) {
        Ok(u) => u,
        Err(e) => return json_error(StatusCode::BAD_REQUEST, e.to_string()),
    };
    // The answer waits for the commit: a 200 means the trials are on disk.
    let put = in_store(&state, move |s| s.put(&upload)).await;
    match put {
        Ok(outcome) => {
            if state.config.log {
                eprintln!(
                    "shapemaze: upload from {client}: {} trials ({} new, {} replaced, {} unchanged){}",
                    outcome.received,
                    outcome.stored,
                    outcome.replaced,
                    outcome.unchanged,
                    if outcome.outcome { ", the participant's outcome" } else { "" }
                );
            }
            Json(outcome).into_response()
        }
        Err(e) => {
            eprintln!("shapemaze: upload from {client} not stored: {e}");
            json_error(StatusCode::INTERNAL_SERVER_ERROR, e.to_string())
        }
    }
}

/// What `POST /api/study-order` asks: the study's storage name, the participant, and how
/// many counterbalancing orders the study has.
#[derive(serde::Deserialize)]
struct OrderRequest {
    study: String,
    participant: String,
    orders: usize,
    /// The study's title (pages from before it was sent leave it out: every order taken
    /// then counts).
    #[serde(default)]
    title: Option<String>,
    /// Minutes an order is held for a participant with no outcome ([`store::Hold`]).
    #[serde(default)]
    hold_minutes: Option<u32>,
}

/// The answer: the participant's order and how many participants each order has.
#[derive(serde::Serialize)]
struct OrderAnswer {
    order: usize,
    counts: Vec<usize>,
}

/// Most counterbalancing orders a study can have (a Latin square over at most 8 shapes
/// has 16 rows, each in at most 2 conditions); more is a mistake in the request.
const MAX_ORDERS: usize = 64;

/// Balanced assignment: the next participant of a study gets its least used order.
async fn study_order(State(state): State<AppState>, request: Request) -> Response {
    let (parts, body) = request.into_parts();
    let bytes = match read_body(&parts.headers, body, 4096).await {
        Ok(b) => b,
        Err(refusal) => return refusal.into_response(),
    };
    let ask: OrderRequest = match serde_json::from_slice(&bytes) {
        Ok(a) => a,
        Err(e) => {
            return json_error(
                StatusCode::BAD_REQUEST,
                format!("the body is not an order request ({e}); send {{\"study\", \"participant\", \"orders\"}}"),
            )
        }
    };
    if ask.study.trim().is_empty() || ask.participant.trim().is_empty() {
        return json_error(
            StatusCode::BAD_REQUEST,
            "the study and the participant must be named",
        );
    }
    if !(1..=MAX_ORDERS).contains(&ask.orders) {
        return json_error(
            StatusCode::BAD_REQUEST,
            format!("orders must be from 1 to {MAX_ORDERS}, not {}", ask.orders),
        );
    }
    let assigned = in_store(&state, move |s| {
        let hold = match (ask.title, ask.hold_minutes) {
            (Some(title), Some(minutes)) if minutes > 0 => Some(store::Hold { title, minutes }),
            _ => None,
        };
        s.assign_order(&ask.study, &ask.participant, ask.orders, hold.as_ref())
    })
    .await;
    match assigned {
        Ok((order, counts)) => Json(OrderAnswer { order, counts }).into_response(),
        Err(e) => json_error(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()),
    }
}

/// Compares in time independent of where the strings first differ.
fn same_secret(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

fn check_export_token(state: &AppState, headers: &HeaderMap) -> Result<(), ApiError> {
    let Some(token) = &state.config.export_token else {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            format!("exports are disabled on this server: set {EXPORT_TOKEN_ENV} in the server's environment and restart it"),
        ));
    };
    let given = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(str::trim);
    match given {
        Some(g) if same_secret(g.as_bytes(), token.as_bytes()) => Ok(()),
        _ => Err(ApiError::new(
            StatusCode::UNAUTHORIZED,
            format!("exports need the header Authorization: Bearer <{EXPORT_TOKEN_ENV}>"),
        )),
    }
}

/// What `work` does with the store, done off the async threads.
async fn in_store<T: Send + 'static>(
    state: &AppState,
    work: impl FnOnce(&mut Store) -> Result<T, StoreError> + Send + 'static,
) -> Result<T, StoreError> {
    let shared = state.store.clone();
    tokio::task::spawn_blocking(move || {
        work(
            &mut shared
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner),
        )
    })
    .await
    .map_err(StoreError::Task)?
}

/// What `read` gives from the store, read off the async threads.
async fn read_store<T: Send + 'static>(
    state: &AppState,
    read: impl FnOnce(&Store) -> Result<T, StoreError> + Send + 'static,
) -> Result<T, ApiError> {
    in_store(state, move |s| read(s))
        .await
        .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))
}

async fn stored_trials(state: &AppState) -> Result<Vec<store::StoredTrial>, ApiError> {
    read_store(state, Store::all).await
}

fn attachment(content_type: &'static str, file: &'static str, body: String) -> Response {
    (
        [
            (header::CONTENT_TYPE, HeaderValue::from_static(content_type)),
            (
                header::CONTENT_DISPOSITION,
                header_value(&format!("attachment; filename=\"{file}\"")),
            ),
            (header::CACHE_CONTROL, HeaderValue::from_static("no-store")),
        ],
        body,
    )
        .into_response()
}

async fn export_csv(
    State(state): State<AppState>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    check_export_token(&state, &headers)?;
    let stored = stored_trials(&state).await?;
    let (csv, unreadable) = store::events_csv(&stored);
    if !unreadable.is_empty() {
        eprintln!(
            "shapemaze: CSV export left out {} stored trials this version cannot read (in the JSONL export): {}",
            unreadable.len(),
            unreadable.join(", ")
        );
    }
    Ok(csv_attachment("study-data.csv", csv, unreadable.len()))
}

/// A CSV export, saying in a header how many stored rows it had to leave out.
fn csv_attachment(file: &'static str, csv: String, unreadable: usize) -> Response {
    let mut response = attachment("text/csv; charset=utf-8", file, csv);
    response.headers_mut().insert(
        "x-shapemaze-unreadable-trials",
        HeaderValue::from(unreadable),
    );
    response
}

/// Each participant's outcome against the trials held: the missing ones listed.
async fn export_participants(
    State(state): State<AppState>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    check_export_token(&state, &headers)?;
    let stored = stored_trials(&state).await?;
    let outcomes = read_store(&state, Store::outcomes).await?;
    let (csv, unreadable) = store::participants_csv(&stored, &outcomes);
    Ok(csv_attachment(
        "study-participants.csv",
        csv,
        unreadable.len(),
    ))
}

async fn export_jsonl(
    State(state): State<AppState>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    check_export_token(&state, &headers)?;
    let stored = stored_trials(&state).await?;
    let outcomes = read_store(&state, Store::outcomes).await?;
    let mut body = String::new();
    for s in &stored {
        body.push_str(&s.json);
        body.push('\n');
    }
    // Then each participant's outcome, as received, so an import reconciles them.
    for o in &outcomes {
        body.push_str("{\"outcome\":");
        body.push_str(o);
        body.push_str("}\n");
    }
    Ok(attachment("application/x-ndjson", "study-data.jsonl", body))
}

/// The people's trials, one row each: `trials.csv`'s columns, then the participant's.
async fn export_trials(
    State(state): State<AppState>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    check_export_token(&state, &headers)?;
    let stored = stored_trials(&state).await?;
    let (csv, unreadable) = store::trials_csv(&stored);
    Ok(csv_attachment(
        shapemaze_view::study::STUDY_TRIALS_FILE,
        csv,
        unreadable.len(),
    ))
}

// ---- the built app ----

/// A request for the same path with the same method and headers (and no body).
fn copy_request(parts: &axum::http::request::Parts, uri: &str) -> Request {
    let mut request = Request::new(Body::empty());
    *request.method_mut() = parts.method.clone();
    *request.headers_mut() = parts.headers.clone();
    *request.uri_mut() = uri.parse().unwrap_or_default();
    request
}

async fn static_files(State(state): State<AppState>, request: Request) -> Response {
    let (parts, _) = request.into_parts();
    let path = parts.uri.path().to_string();
    if path.starts_with("/api/") || path.starts_with("/proxy/") {
        return json_error(
            StatusCode::NOT_FOUND,
            format!("no such route: {} {path}", parts.method),
        );
    }
    if parts.method != Method::GET && parts.method != Method::HEAD {
        let mut response = json_error(
            StatusCode::METHOD_NOT_ALLOWED,
            format!("{} is not allowed on the app's files", parts.method),
        );
        response
            .headers_mut()
            .insert(header::ALLOW, HeaderValue::from_static("GET, HEAD"));
        return response;
    }
    let dist: PathBuf = state.config.dist.clone();
    let uri = parts
        .uri
        .path_and_query()
        .map_or("/", |p| p.as_str())
        .to_string();
    // The release build's `.br` and `.gz` files (scripts/compress-dist.mjs) are sent as they
    // are when the browser accepts them; the compression layer leaves encoded replies alone.
    let served = ServeDir::new(&dist)
        .precompressed_br()
        .precompressed_gzip()
        .oneshot(copy_request(&parts, &uri))
        .await
        .map(|r| r.map(Body::new));
    let last = path.rsplit('/').next().unwrap_or_default();
    let mut response = match served {
        Ok(r) if r.status() == StatusCode::NOT_FOUND && !last.contains('.') => {
            // A deep link (`/study/manage`): the app routes it once index.html is loaded.
            match ServeFile::new(dist.join("index.html"))
                .precompressed_br()
                .precompressed_gzip()
                .oneshot(copy_request(&parts, "/index.html"))
                .await
            {
                Ok(r) if r.status() == StatusCode::NOT_FOUND => return no_app(&dist),
                Ok(r) => r.map(Body::new),
                Err(never) => match never {},
            }
        }
        Ok(r) => r,
        Err(never) => match never {},
    };
    if response.status().is_success() || response.status() == StatusCode::NOT_MODIFIED {
        let cache = if is_hashed_asset(&path) {
            CACHE_IMMUTABLE
        } else {
            CACHE_REVALIDATE
        };
        response
            .headers_mut()
            .insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
    }
    response
}

fn no_app(dist: &std::path::Path) -> Response {
    (
        StatusCode::NOT_FOUND,
        format!(
            "No built app in {}: build it with `make build-release` (or pass --dist DIR).\n",
            dist.display()
        ),
    )
        .into_response()
}

// ---- running ----

/// A bound server, not yet serving.
pub struct Server {
    listener: tokio::net::TcpListener,
    state: AppState,
}

impl Server {
    /// Opens the store and binds `config.addr` (port 0 picks a free port).
    pub async fn bind(config: ServeConfig) -> Result<Server, ServeError> {
        let addr = config.addr;
        let state = AppState::new(config)?;
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .map_err(|e| ServeError::Listen(addr, e))?;
        Ok(Server { listener, state })
    }

    /// The address it listens on.
    pub fn local_addr(&self) -> Result<SocketAddr, ServeError> {
        self.listener.local_addr().map_err(ServeError::Address)
    }

    /// Serves until `shutdown` completes, then stops accepting, lets the requests in
    /// flight finish (uploads are committed before they are answered) for up to the
    /// configured drain time, and returns.
    pub async fn run(
        self,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> Result<(), ServeError> {
        let drain = self.state.config.drain_timeout;
        let app = router(self.state).into_make_service_with_connect_info::<SocketAddr>();
        let (fired_tx, fired_rx) = tokio::sync::oneshot::channel::<()>();
        let signal = async move {
            shutdown.await;
            let _ = fired_tx.send(());
        };
        let serve = axum::serve(self.listener, app)
            .with_graceful_shutdown(signal)
            .into_future();
        let deadline = async move {
            match fired_rx.await {
                Ok(()) => tokio::time::sleep(drain).await,
                Err(_) => std::future::pending::<()>().await,
            }
        };
        tokio::select! {
            result = serve => result.map_err(ServeError::Stopped),
            () = deadline => Err(ServeError::Drain(drain)),
        }
    }
}

/// Why the server could not start, or stopped.
#[derive(Debug)]
pub enum ServeError {
    /// The store cannot be opened.
    Store(StoreError),
    /// The proxy's HTTP client cannot be set up.
    Client(reqwest::Error),
    /// The address cannot be listened on.
    Listen(SocketAddr, std::io::Error),
    /// The listening address cannot be read.
    Address(std::io::Error),
    /// The server stopped on an error.
    Stopped(std::io::Error),
    /// Requests were still running this long after the shutdown signal.
    Drain(Duration),
}

impl fmt::Display for ServeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ServeError::Store(e) => e.fmt(f),
            ServeError::Client(e) => {
                write!(f, "cannot set up the HTTP client for the proxy: {e}")
            }
            ServeError::Listen(addr, e) => write!(f, "cannot listen on {addr}: {e}"),
            ServeError::Address(e) => write!(f, "cannot read the listening address: {e}"),
            ServeError::Stopped(e) => write!(f, "the server stopped: {e}"),
            ServeError::Drain(drain) => write!(
                f,
                "requests were still running {} s after the shutdown signal; stopped without them",
                drain.as_secs()
            ),
        }
    }
}

impl std::error::Error for ServeError {}

impl From<ServeError> for crate::io::CliError {
    /// A server that cannot start or stopped on an error is a usage error (exit 2), as
    /// a bad address is.
    fn from(e: ServeError) -> Self {
        crate::io::CliError::usage(e.to_string())
    }
}

/// Completes on Ctrl-C or (on Unix) SIGTERM.
pub async fn shutdown_signal() {
    let ctrl_c = async {
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {}
        () = terminate => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trunk_hashed_names_are_recognised_and_plain_names_are_not() {
        for hashed in [
            "shapemaze-web-19f93658903121bd_bg.wasm",
            "shapemaze-web-19f93658903121bd.js",
            "main-7466d4026efeff11.css",
            "shapemaze-web-90d148ef126a4c3_bg.wasm",
            "/snippets/shapemaze-90d148ef126a4c3/lab.js",
        ] {
            assert!(is_hashed_asset(hashed), "{hashed} is hashed");
        }
        for plain in [
            "index.html",
            "favicon.svg",
            "shapemaze-web.js",
            "my-study.json",
            "/studies/pilot.json",
            "/snippets/lab.js",
            "",
        ] {
            assert!(!is_hashed_asset(plain), "{plain} is not hashed");
        }
    }

    #[test]
    fn the_rate_limiter_refuses_past_the_allowance_and_refills_with_time() {
        let limiter = RateLimiter::new(2);
        let ip = IpAddr::V4(Ipv4Addr::LOCALHOST);
        let t0 = Instant::now();
        assert!(limiter.check(ip, t0).is_ok(), "first");
        assert!(limiter.check(ip, t0).is_ok(), "second");
        let wait = limiter
            .check(ip, t0)
            .expect_err("third in the same instant");
        assert!(
            wait > Duration::from_secs(25) && wait <= Duration::from_secs(30),
            "one token comes back in 30 s: {wait:?}"
        );
        let other = IpAddr::V4(Ipv4Addr::new(127, 0, 0, 2));
        assert!(
            limiter.check(other, t0).is_ok(),
            "clients are counted apart"
        );
        assert!(
            limiter.check(ip, t0 + Duration::from_secs(31)).is_ok(),
            "refilled after 30 s"
        );
        assert!(
            RateLimiter::new(0).check(ip, t0).is_ok(),
            "0 means no limit"
        );
    }

    #[test]
    fn secrets_compare_equal_only_when_identical() {
        assert!(same_secret(b"abc", b"abc"));
        assert!(!same_secret(b"abc", b"abd"));
        assert!(!same_secret(b"abc", b"abcd"));
    }
}
