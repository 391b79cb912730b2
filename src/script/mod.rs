//! Variants as scripts: load `rules/<variant>/` (YAML config, Rhai scripts, rulebook, bots),
//! compile the scripts once under one sandboxed engine, and run their hooks as the kernel's
//! `Rules`. This is the only module that imports rhai.
//!
//! Its rooms, each importing only those above it in this list (`tests/library/rooms.rs` holds
//! them to it):
//! - `host`: the sandboxed Rhai engine, the limits, the natives tables, the kernel API types a
//!   script sees (the game, cards, a bot's view), errors and the confined file root;
//! - `compiled`: the load-time compiler and its runtime (on `host` only);
//! - `sources`: reading, compiling and checking a rule file and its modules (on `host`);
//! - `bots`: computer players, their `bots.yaml`, decision script and memory (on `sources`,
//!   `compiled`, `host`);
//! - `variant`: a rules folder loaded (`variant.yaml`, `extends:`, rulebook) and run as the
//!   kernel's `Rules` (on all of the above);
//! - `probe` (coverage's counting of script nodes), `mutants` (the mutant maker) and
//!   `differential` (the two engines compared on generated programs): on top, for `coverage/`,
//!   `mutate/` and the engine tests; they live here because they read Rhai's syntax trees.
//!
//! This file only names the public surface; no room below imports through it.

pub mod bots;
pub mod compiled;
pub mod differential;
pub mod host;
pub mod mutants;
pub mod probe;
pub mod sources;
pub mod variant;

pub use host::error::{SourceDiagnostic, VariantError};
pub use host::{
    EngineKind, MAX_CALL_TIME, SCRIPT_STACK_BYTES, error, files, operations_spent, tokens,
};
pub use variant::{MAX_EXTENDS_DEPTH, Variant, config, rulebook, variant_names};
