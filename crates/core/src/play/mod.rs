//! One trial: its state machine ([`trial`]), the prompts it sends, its transcript, the one
//! player seam that drives people, built-in players and models ([`player`], with the
//! endpoint player in [`endpoint`]) and the settings a trial runs with. May import
//! [`crate::maze`], [`crate::verify`], [`crate::model`] and
//! [`crate::text`].

pub mod condition;
pub mod endpoint;
pub mod player;
pub mod prompt;
pub mod settings;
pub mod staircase;
pub mod transcript;
pub mod trial;
