//! deckspec: a scripting-driven rules platform for memory card games, with a formal scenario spec.

pub mod kernel;
pub mod spec;
