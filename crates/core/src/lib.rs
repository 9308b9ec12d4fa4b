//! The rules of the game, in pure Rust. Nothing here touches the browser, the clock or the
//! operating system's randomness, so it tests natively and the browser runs the very same
//! code. Nothing here imports `shapemaze-view` (the string renderers) or the app.
//!
//! The domains, each a folder whose `mod.rs` says what lives there and what it may import,
//! from the bottom up (a domain imports only those above it in this list):
//!
//! - [`text`], [`site`], [`sort`], [`json`]: leaf helpers (text scanners and the one CSV
//!   rule; the site's base path; the one stable sort; reading stored JSON with the place of
//!   what is wrong);
//! - [`maze`]: grids, shapes and their templates, the seeded generator, the two text
//!   encodings, `.npy` maze files;
//! - [`verify`]: the verifiers, reading replies as a careful grader would;
//! - [`model`]: the chat client for OpenAI-compatible endpoints and the reply's metadata;
//! - [`play`]: one trial: its state machine, prompts, transcripts, the player seam and its
//!   built-in and endpoint players, trial settings;
//! - [`results`]: the trial record, the export layout, zip files, re-scoring transcripts,
//!   tallies and replay;
//! - [`batch`]: experiment designs, the scheduler, the batch runner and the experiment
//!   export;
//! - [`analysis`]: observations, groups, shape effects, hypotheses and their statistics;
//! - [`original`]: reading and scoring the design's original recorded runs, and the audit;
//! - [`study`]: human studies;
//! - [`exchange`]: shared evaluation formats (Every Eval Ever): a run's records and
//!   provenance written as other projects' tools read them.

pub mod analysis;
pub mod batch;
pub mod exchange;
pub mod json;
pub mod maze;
pub mod model;
pub mod original;
pub mod play;
pub mod reply;
pub mod results;
pub mod site;
pub mod sort;
pub mod study;
pub mod text;
pub mod verify;

#[cfg(test)]
mod enum_name_tests {
    use crate::text::names_test::check;

    #[test]
    fn every_enum_read_by_name_reads_what_it_writes() {
        use crate::maze::encoding::Encoding;
        use crate::maze::grid::Tile;
        use crate::maze::image::Vision;
        use crate::maze::shape::Shape;
        use crate::model::effort::Effort;
        use crate::model::reply::EmptyReason;
        use crate::play::phase::Phase;
        use crate::play::player::PlayerKind;
        use crate::play::staircase::StairPhase;
        use crate::play::trial::{FailureKind, Protocol};
        use crate::verify::Outcome;
        check(&Effort::ALL, |v| v.name());
        check(&EmptyReason::ALL, |v| v.name());
        check(&Encoding::ALL, |v| v.name());
        check(&Tile::ALL, |v| v.name());
        check(&Vision::ALL, |v| v.name());
        check(&Shape::ALL, |v| v.name());
        check(&StairPhase::ALL, |v| v.name());
        check(&PlayerKind::ALL, |v| v.name());
        check(&Phase::ALL, |v| v.name());
        check(&FailureKind::ALL, |v| v.name());
        check(&Protocol::ALL, |v| v.name());
        check(&Outcome::ALL, |v| v.name());
        check(crate::verify::Reason::ALL, |v| v.as_str());
        use crate::play::condition::Condition;
        use crate::study::{Assignment, RecognitionMode, ResumePolicy, UploadKind};
        check(&Condition::ALL, |v| v.name());
        check(&RecognitionMode::ALL, |v| v.name());
        check(&UploadKind::ALL, |v| v.name());
        check(&Assignment::ALL, |v| v.name());
        check(&ResumePolicy::ALL, |v| v.name());
    }
}
