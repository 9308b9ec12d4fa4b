//! Experiments: the design ([`design`]: players, encodings, shapes, repeats, the trials it
//! expands to), the scheduler that runs them with learned concurrency, the batch runner
//! that plays one trial against a lane, the experiment's export and its provenance
//! (`provenance.json` and the item matrix). May import
//! [`crate::results`] and everything below it.

pub mod design;
#[cfg(test)]
mod design_tests;
pub mod error;
pub mod estimate;
pub mod export;
pub mod form;
pub mod imported;
pub mod provenance;
pub mod runner;
pub mod scheduler;
pub mod session;
pub mod staircase;
mod validate;

#[cfg(test)]
mod axes_tests;
