//! The rules of the game, in pure Rust: grids and mazes, shapes and their templates, the
//! two text encodings, maze files, the seeded generator, the verifiers, the trial state
//! machine and transcripts; re-scoring transcripts, the export layout's paths and the
//! totals a score reports. Nothing here touches the browser, the clock or the operating
//! system's randomness, so it tests natively and the browser runs the very same code.

pub mod analysis;
pub mod audit;
pub mod batch;
pub mod chart;
pub mod chat;
pub mod encoding;
pub mod endpoint;
pub mod experiment;
pub mod export;
pub mod generate;
pub mod grid;
pub mod html;
pub mod lab;
pub mod layout;
pub mod npy;
pub mod original;
pub mod player;
pub mod prompt;
pub mod record;
pub mod replay;
pub mod rescore;
pub mod scheduler;
pub mod settings;
pub mod shape;
pub mod site;
pub mod stats;
pub mod study;
pub mod tally;
pub mod templates;
pub mod text;
pub mod transcript;
pub mod trial;
pub mod verify;
pub mod zip;
