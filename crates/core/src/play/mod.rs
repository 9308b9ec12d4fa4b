//! One trial: its state machine ([`trial`]), the prompts it sends, its transcript, the one
//! player seam that drives people, built-in players and models ([`player`], with the
//! endpoint player in [`endpoint`]) and the settings a trial runs with; the answer modes
//! ([`answer`]: free text, a JSON schema, a forced function call, a transcription) and what
//! a trial does under them ([`answer_mode`]). May import
//! [`crate::maze`], [`crate::verify`], [`crate::model`] and
//! [`crate::text`].

pub mod answer;
pub mod answer_mode;
pub mod condition;
pub mod endpoint;
pub mod phase;
pub mod player;
pub mod prompt;
pub mod settings;
pub mod staircase;
pub mod transcript;
pub mod trial;
