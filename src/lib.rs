//! Shapemaze: spatial-reasoning trials on shape mazes.
//!
//! [`core`] holds every rule (pure, native-testable); `app` is the Leptos web app built
//! for the browser by trunk; the `shapemaze` binary is the command-line companion.

pub mod core;
pub mod view;

#[cfg(not(target_arch = "wasm32"))]
pub mod cli;

#[cfg(target_arch = "wasm32")]
pub mod app;
