//! Shapemaze across its layers, for the integration tests (`tests/`) and the examples and
//! benchmarks (`examples/`). Each layer is its own crate (the workspace's Cargo.toml):
//! [`core`] the rules, [`view`] the string renderers, `cli` the command line (native) and
//! `app` the web app (wasm32), re-exported here under the names the tests use.

pub use shapemaze_core as core;
pub use shapemaze_view as view;

#[cfg(not(target_arch = "wasm32"))]
pub use shapemaze_cli as cli;

#[cfg(target_arch = "wasm32")]
pub use shapemaze_web as app;
