//! The server's tests (feature `serve`; `cli` too for those that start a `deckspec serve`
//! process), one binary: each former `tests/<name>.rs` is a module beside this file, with
//! the helpers of `tests/common/` once. Each test's server is a process of its own on a free
//! port with its own database, so they share nothing in this process.

#[cfg(feature = "cli")]
#[allow(
    dead_code,
    reason = "the server tests use the test server, files and browser, not the command runner or replay"
)]
#[path = "../common/mod.rs"]
mod common;

#[cfg(feature = "cli")]
mod new_variant;
mod protocol;
#[cfg(feature = "cli")]
mod serve;
#[cfg(feature = "cli")]
mod serve_browser;
#[cfg(feature = "cli")]
mod serve_open;
#[cfg(feature = "cli")]
mod serve_seed004;
#[cfg(feature = "cli")]
mod serve_store;
