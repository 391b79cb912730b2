//! The game kernel: cards, zones, players, phases, timers, seeded randomness, knowledge and events.
//!
//! It imports no rhai, no pest and no clap, does no I/O and reads no clock.

pub mod card;

pub use card::{CardIdx, Face, Rank, Suit};
