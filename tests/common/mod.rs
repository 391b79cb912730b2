//! What the CLI test binaries share: running the built `deckspec` as a user would.

use std::process::Command;

/// One run of the binary: its exit code and what it printed.
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

/// Run `deckspec` with these arguments in the package folder, without colour.
pub fn deckspec(args: &[&str]) -> Run {
    let out = Command::new(env!("CARGO_BIN_EXE_deckspec"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("NO_COLOR", "1")
        .output()
        .expect("the binary runs");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}
