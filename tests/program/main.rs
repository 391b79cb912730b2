//! The `deckspec` program's tests (feature `cli`; `play` for the play modules), one binary:
//! each former `tests/<name>.rs` is a module beside this file, with the helpers of
//! `tests/common/` once. They run the built binary (`CARGO_BIN_EXE_deckspec`) in folders of
//! their own or in the package folder; none changes this process's environment or current
//! folder.

#[path = "../common/mod.rs"]
mod common;

mod balance;
mod ci_recipe;
mod cli;
mod cli_new;
mod cli_simulate;
mod coverage;
mod fmt;
mod hostile;
#[cfg(feature = "lsp")]
mod lsp;
mod mutate;
#[cfg(feature = "play")]
mod play;
#[cfg(feature = "play")]
mod play_terminal;
mod prove;
mod record;
mod report;
