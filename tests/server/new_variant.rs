//! A new variant needs no edit outside its own folders: a bundled variant copied under a new name
//! (`deckspec new quokka --from cambia`) into a temporary project passes every check that covers
//! "each variant": the server lists it and plays it, `info --messages` documents its messages,
//! its bots act only on cards they remember and are never refused, and CI's own per-variant
//! commands (read from `.ci/run`, not restated here) pass on the temporary project.

use crate::common::files;

use crate::common::server;

use serde_json::{Value as Json, json};
use server::TestServer;
use std::path::{Path, PathBuf};
use std::process::Command;

const NEW: &str = "quokka";

fn deckspec(dir: &Path, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_deckspec"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .output()
        .expect("deckspec runs")
}

/// A temporary project: the bundled rules and scenarios, and `quokka`, a copy of Cambia.
fn project() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().to_path_buf();
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    files::copy_dir(&manifest.join("rules"), &root.join("rules"));
    files::copy_dir(&manifest.join("spec-tests"), &root.join("spec-tests"));
    let out = deckspec(&root, &["new", NEW, "--from", "cambia"]);
    assert!(out.status.success(), "{out:?}");
    (dir, root)
}

/// The commands of `.ci/run` that take every variant of `rules/`, with the built binary in place
/// of `cargo run … --` and `target/release/deckspec`, and fewer games.
fn ci_per_variant_script() -> String {
    let ci =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(".ci/run")).unwrap();
    let binary = env!("CARGO_BIN_EXE_deckspec");
    let mut script = String::from("set -eu\n");
    let mut in_loop = false;
    for line in ci.lines() {
        let ratchet =
            line.starts_with("cargo run --locked --quiet -- ") && line.contains("--ratchet");
        if line.starts_with("for folder in rules/*/") {
            in_loop = true;
        }
        if in_loop || ratchet {
            let line = line
                .replace("cargo run --locked --quiet --", binary)
                .replace("target/release/deckspec", binary)
                .replace("--games 10000", "--games 25");
            script.push_str(&line);
            script.push('\n');
        }
        if in_loop && line == "done" {
            in_loop = false;
        }
    }
    assert!(
        script.contains("for folder in rules/*/") && script.matches("--ratchet").count() >= 2,
        ".ci/run no longer has its per-variant loop and ratchets:\n{script}"
    );
    script
}

#[test]
fn a_copied_variant_passes_every_variant_wide_check_without_an_edit() {
    let (_dir, root) = project();

    // The scenarios of every variant, the copy's too, pass.
    let out = deckspec(&root, &["test"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(stdout.contains(&format!("spec-tests/{NEW}/")), "{stdout}");

    // The server lists it and seats a player at it.
    let db = root.join("tables.db");
    let server = TestServer::start_with(&db, &root.join("rules"));
    let (status, variants) = server.get("/variants");
    assert_eq!(status, 200);
    let names: Vec<&str> = variants
        .as_array()
        .expect("a list of variants")
        .iter()
        .filter_map(|v| v["name"].as_str())
        .collect();
    assert!(names.contains(&NEW), "{names:?}");
    let (table, seats) =
        server.table(json!({"variant": NEW, "players": ["ann"], "bots": ["easy"], "think_ms": 0}));
    assert!(seats["ann"].is_string(), "{table}: {seats}");
    drop(server);

    // Its messages are documented on demand.
    let out = deckspec(&root, &["info", NEW, "--messages"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{out:?}");
    assert!(
        text.starts_with(&format!("#### {NEW}\n")) && text.contains("action_snap"),
        "{text}"
    );

    // Its bots act only on cards they remember, and the rules never refuse them.
    let out = deckspec(
        &root,
        &[
            "simulate",
            NEW,
            "--games",
            "40",
            "--bots",
            "easy,medium,hard,expert",
            "--json",
        ],
    );
    assert!(out.status.success(), "{out:?}");
    let summary: Json = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(summary["bot_refusals"], 0, "{summary}");
    assert_eq!(summary["bot_unknown_cards"], 0, "{summary}");
    assert!(
        summary["bot_decisions"].as_u64().unwrap() > 100,
        "{summary}"
    );

    // CI's per-variant commands, as `.ci/run` has them, pass on the project with the copy.
    let out = Command::new("sh")
        .arg("-c")
        .arg(ci_per_variant_script())
        .current_dir(&root)
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains(&format!("{NEW}: lines 100.0%")),
        "the coverage ratchet measured the copy:\n{stderr}"
    );
}
