//! The library's own tests, one binary (no feature needed): each former `tests/<name>.rs` is a
//! module beside this file, so the crate and its dependencies are linked once for all of
//! them. Every module here also runs in a process with the others: none of them sets an
//! environment variable, the current folder or a global allocator (`memory` measures
//! `Game::state_bytes` and `log_bytes`, not the allocator's counts).

#[path = "../common/size.rs"]
mod size;

mod agents;
mod bots;
mod engines;
mod fuzz_rules;
mod fuzz_scenarios;
mod legality;
mod memory;
mod parse;
mod properties;
mod rooms;
mod self_contained;
