//! The design's original runs, read as they really are and scored three ways
//! (ORIGINAL_DATA.md): **recorded** (the verdict lines as the original code wrote them),
//! **strict** (every reply through today's verifiers, the solve phase replayed move by
//! move with the core [`crate::play::trial::Trial`]) and **original** (the original checks, with the original
//! shape families of `original_templates.json`). Every difference between the strict and
//! the original verdict of a phase gets a named [`score::Cause`].
//!
//! An original transcript has no message markers: the conversation is split by the
//! original's fixed prompt sentences ([`transcript::NEXT_MOVE`], [`transcript::UPDATE_INTRO`], [`transcript::COMBINED_START`]),
//! a reply may be glued to the end of the prompt's last sentence, and `SOLVE: …` stands
//! right after the solve phase. Pure: no files, no clock.
//!
//! ```
//! use shapemaze_core::original::score::{audit, AuditCache};
//! use shapemaze_core::original::mark::Mark;
//! use shapemaze_core::results::rescore::Hints;
//!
//! let failed = "Query did not run: mazes/5x5_C_1.npy\nError: timeout\n\nSOLVE: FAIL\n\nRECOGNIZE: FAIL\n\nGENERATE: FAIL\n";
//! let a = audit(failed, &Hints::default(), &mut AuditCache::new());
//! assert!(a.api_error);
//! assert_eq!(a.original.solve, Some(Mark::Fail));
//! assert_eq!(a.strict.solve, None);
//! ```
//!
//! Files: [`transcript`] (reading an original transcript), [`checks`] (the original code's
//! checks), [`score`] (the three ways and the causes), [`human`] (human result files) and
//! [`audit`] (a whole folder audited). May import every domain of the core but `study`.

pub mod audit;
pub mod checks;
pub mod disputes;
pub mod human;
pub mod mark;
pub mod score;
#[cfg(test)]
mod test_support;
pub mod transcript;
