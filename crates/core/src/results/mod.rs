//! What a trial leaves behind: the trial record (one record is a trial everywhere), the
//! export layout's paths, zip files, re-scoring transcripts, the totals a score reports,
//! replaying a record (with where a move's probability went, `choice.rs`), how far
//! unsure readings could move a phase's outcome (`bounds.rs`, the reading bounds), and filtering trials by a line of text (`filter.rs`, the results
//! page's filter box and `report --filter`). May import [`crate::play`] and
//! everything below it.

pub mod bounds;
pub mod choice;
pub mod filter;
pub mod forms;
pub mod items;
pub mod layout;
pub mod race;
pub mod record;
#[cfg(test)]
mod record_tests;
pub mod replay;
pub mod rescore;
pub mod tally;
pub mod zip;
