//! The web app: Leptos components that render core types and forward events to them.
//! Every rule of the game lives in [`shapemaze_core`]; components only show state and hand
//! clicks, keys and text to it.

// The app runs in the browser only; natively this crate is empty (the native tests of what
// it shows are the core's and the view's).
#![cfg(target_arch = "wasm32")]

mod board;
mod demo;
mod download;
mod experiment;
mod fetch;
mod file_error;
mod local;
mod model;
mod play;
mod playback;
mod race;
mod replay_error;
mod results;
mod review;
mod review_error;
mod review_item;
mod review_state;
mod route;
mod second_reader;
mod shell;
mod storage;
mod study;
mod transport;

pub use board::{BoardIds, MazeBoard, DRAW_BOARD, SOLVE_BOARD};
pub use demo::DemoPage;
pub use download::{download_bytes, download_file, download_text};
pub use experiment::ExperimentPage;
pub use model::ModelPage;
pub use play::PlayPage;
pub use results::ResultsPage;
pub use review_error::ReviewsError;
pub use review_state::{reviews_of, take_in, REVIEWS_FILE};
pub use route::{use_location, Link, Location};
pub use shell::{start, App, LabApp, PeopleApp};
pub use storage::{Db, StorageError};
pub use study::{StudyManagePage, StudyPage};
pub use transport::BrowserTransport;
