//! deckspec: a scripting-driven rules platform for memory card games, with a formal scenario spec.
//!
//! `kernel` is the game engine (no scripting, no parsing, no I/O); `script` runs variants written
//! as Rhai scripts and YAML; `spec` parses and runs scenario files; `cli` is the command line.

pub mod cli;
pub mod kernel;
pub mod script;
pub mod spec;
pub mod suggest;
