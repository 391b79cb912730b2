//! What the test binaries `program` and `server` share, once per binary: running the built
//! `deckspec` as a user would (here), and the helpers in the files beside this one.

pub mod browser;
pub mod files;
pub mod replay;
pub mod server;
pub mod size;

use std::process::Command;

/// One run of the binary: its exit code and what it printed.
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

/// Run `deckspec` with these arguments in the package folder, without colour.
pub fn deckspec(args: &[&str]) -> Run {
    deckspec_in(std::path::Path::new(env!("CARGO_MANIFEST_DIR")), args)
}

/// Run `deckspec` with these arguments in `dir`, without colour.
pub fn deckspec_in(dir: &std::path::Path, args: &[&str]) -> Run {
    let out = Command::new(env!("CARGO_BIN_EXE_deckspec"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .output()
        .expect("the binary runs");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}
