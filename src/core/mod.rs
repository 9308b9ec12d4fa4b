//! The rules of the game, in pure Rust: grids and mazes, shapes and their templates, the
//! two text encodings, maze files, the seeded generator, the verifiers, the trial state
//! machine and transcripts. Nothing here touches the browser, the clock or the operating
//! system's randomness, so it tests natively and the browser runs the very same code.

pub mod analysis;
pub mod chart;
pub mod encoding;
pub mod generate;
pub mod grid;
pub mod npy;
pub mod player;
pub mod prompt;
pub mod record;
pub mod rescore;
pub mod settings;
pub mod shape;
pub mod stats;
pub mod templates;
pub mod text;
pub mod transcript;
pub mod trial;
pub mod verify;
