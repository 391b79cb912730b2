//! `deckspec new` as a designer runs it, in a fresh folder: the starting game passes `check`,
//! `test`, `simulate --verify` and `mutate --ratchet` at once; `--from` copies every variant of
//! `rules/` (found there, not listed here) so that its scenarios pass under the new name; and
//! each refusal (a bad or taken name, a missing source) says why and writes nothing.

use crate::common::files;

use std::path::{Path, PathBuf};

use crate::common;

use common::Run;

/// Run `deckspec` in `dir`, without colour.
fn deckspec(dir: &Path, args: &[&str]) -> Run {
    common::deckspec_in(dir, args)
}

/// A run that must succeed, with each of `lines` in its output.
fn succeeds(dir: &Path, args: &[&str], lines: &[&str]) -> Run {
    let run = deckspec(dir, args);
    assert_eq!(
        run.code,
        0,
        "deckspec {args:?} in {}:\n{}{}",
        dir.display(),
        run.stdout,
        run.stderr
    );
    for line in lines {
        assert!(
            run.stdout.contains(line),
            "deckspec {args:?}: no {line:?} in:\n{}",
            run.stdout
        );
    }
    run
}

/// A run that must be refused (exit 2) with `message` on stderr.
fn refused(dir: &Path, args: &[&str], message: &str) {
    let run = deckspec(dir, args);
    assert_eq!(
        run.code, 2,
        "deckspec {args:?} was not refused:\n{}{}",
        run.stdout, run.stderr
    );
    assert!(
        run.stderr.contains(message),
        "deckspec {args:?}: no {message:?} in:\n{}",
        run.stderr
    );
}

fn repository() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The variants of the repository's `rules/`: each folder with a `variant.yaml`.
fn bundled_variants() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(repository().join("rules"))
        .expect("rules/")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.join("variant.yaml").is_file())
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// Every path under `dir` (itself excluded), sorted.
fn listing(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path.clone());
            }
            out.push(path);
        }
    }
    out.sort();
    out
}

#[test]
fn the_starting_game_passes_check_test_simulate_and_mutate_at_once() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    // An empty folder: `rules/` and `spec-tests/` are made.
    let made = succeeds(
        dir,
        &["new", "lowball"],
        &[
            "created rules/lowball: variant.yaml, lowball.rhai, rulebook.yaml, bots.yaml, bots.rhai, spec-strength.yaml, equivalent-mutants.yaml",
            "created spec-tests/lowball: first.feature",
            "ok     rules/lowball: 5 actions · 10 rules · bots: easy, medium, hard, expert · 2 to 6 players",
            "deckspec test spec-tests/lowball",
        ],
    );
    assert!(made.stderr.is_empty(), "{}", made.stderr);
    let script = std::fs::read_to_string(dir.join("rules/lowball/lowball.rhai")).unwrap();
    // Every hook of the contract, each written out.
    for hook in [
        "fn setup(game)",
        "fn start_turn(game, p)",
        "fn end_setup(game, first)",
        "fn on_timer(game, name, p)",
        "fn score(game, p)",
        "fn on_draw(game, p, args)",
        "fn on_swap(game, p, args)",
        "fn on_discard(game, p, args)",
        "fn on_peek(game, p, args)",
        "fn on_knock(game, p, args)",
    ] {
        assert!(script.contains(hook), "lowball.rhai lacks {hook}");
    }
    succeeds(dir, &["check"], &["ok     rules/lowball", "0 problems"]);
    succeeds(dir, &["check", "spec-tests/lowball"], &["0 problems"]);
    let test = succeeds(dir, &["test", "spec-tests/lowball"], &[" passed, 0 failed"]);
    assert!(!test.stdout.contains("SKIP"), "{}", test.stdout);
    succeeds(
        dir,
        &[
            "test",
            "--engine",
            "interpreted",
            "-q",
            "spec-tests/lowball",
        ],
        &[" passed, 0 failed"],
    );
    succeeds(
        dir,
        &["simulate", "lowball", "--games", "100", "--verify"],
        &["games: 100"],
    );
    // The bots are never refused, at any level, and act only on cards they remember (a peek,
    // declared `reveals: true`, excepted).
    succeeds(
        dir,
        &[
            "simulate",
            "lowball",
            "--games",
            "30",
            "--bots",
            "easy,medium,hard,expert",
            "--strict",
            "--verify",
        ],
        &["refused: 0, on unknown cards: 0"],
    );
    // Its scenarios kill every mutant of its script (three are listed as equivalent), and the
    // record says so.
    let mutate = succeeds(dir, &["mutate", "--ratchet"], &["score 100.0%"]);
    assert!(mutate.stderr.is_empty(), "{}", mutate.stderr);
    // Other roots, named as the other commands name them.
    succeeds(
        dir,
        &["new", "putt", "--rules", "my-rules", "--specs", "my-specs"],
        &[
            "created my-rules/putt",
            "deckspec test --rules my-rules my-specs/putt",
        ],
    );
    succeeds(
        dir,
        &["test", "--rules", "my-rules", "my-specs/putt"],
        &[" passed, 0 failed"],
    );
}

#[test]
fn every_bundled_variant_is_copied_under_a_new_name_and_passes() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    files::copy_dir(&repository().join("rules"), &dir.join("rules"));
    files::copy_dir(&repository().join("spec-tests"), &dir.join("spec-tests"));
    let variants = bundled_variants();
    assert!(!variants.is_empty());
    for from in &variants {
        let name = format!("copy_of_{}", from.to_lowercase().replace('-', "_"));
        succeeds(
            dir,
            &["new", &name, "--from", from],
            &[
                &format!("created rules/{name}"),
                &format!("ok     rules/{name}"),
            ],
        );
        let test = succeeds(
            dir,
            &["test", "-q", &format!("spec-tests/{name}")],
            &[" passed, 0 failed"],
        );
        assert!(!test.stdout.contains("NOT RUN"), "{name}: {}", test.stdout);
        succeeds(
            dir,
            &["simulate", &name, "--games", "10", "--verify"],
            &["games: 10"],
        );
        // Only the variant's own names changed: its script, if named after it, is renamed, and
        // no scenario still plays the source.
        let copy = dir.join("rules").join(&name);
        if dir
            .join("rules")
            .join(from)
            .join(format!("{from}.rhai"))
            .is_file()
        {
            assert!(copy.join(format!("{name}.rhai")).is_file());
            assert!(!copy.join(format!("{from}.rhai")).exists());
        }
        for feature in listing(&dir.join("spec-tests").join(&name)) {
            let text = std::fs::read_to_string(&feature).unwrap();
            for article in ["a", "an"] {
                assert!(
                    !text.contains(&format!(" {article} {from} game")),
                    "{} still plays {from}",
                    feature.display()
                );
            }
        }
    }
    // The whole project still checks: the sources are unchanged beside their copies.
    let check = succeeds(dir, &["check"], &["0 problems"]);
    for from in &variants {
        assert!(check.stdout.contains(&format!("ok     rules/{from}:")));
    }
}

#[test]
fn refusals_say_why_and_write_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("project");
    std::fs::create_dir_all(&dir).unwrap();
    succeeds(&dir, &["new", "lowball"], &[]);
    // Only the spec folder taken is enough.
    std::fs::create_dir_all(dir.join("spec-tests/putt")).unwrap();
    let before = listing(tmp.path());
    refused(
        &dir,
        &["new", "lowball"],
        "`lowball` is taken: rules/lowball already exists",
    );
    refused(
        &dir,
        &["new", "putt"],
        "`putt` is taken: spec-tests/putt already exists",
    );
    for (name, why) in [
        (
            "Golf",
            "`Golf` cannot name a variant: it does not start with a lowercase letter",
        ),
        ("my-game", "is not a lowercase letter, a digit or `_`"),
        ("2up", "it does not start with a lowercase letter"),
        ("../escape", "`../escape` cannot name a variant"),
        ("a/b", "`a/b` cannot name a variant"),
        ("", "it is empty"),
        (
            "invalid",
            "spec-tests/invalid holds the scenarios that must fail",
        ),
    ] {
        refused(&dir, &["new", name], why);
    }
    refused(&dir, &["new", "my-game"], "`my_game`, say");
    refused(
        &dir,
        &["new", "putter", "--from", "lowbal"],
        "no variant `lowbal` to copy in rules",
    );
    refused(
        &dir,
        &["new", "putter", "--from", "lowbal"],
        "did you mean `lowball`?",
    );
    refused(
        &dir,
        &["new", "putter", "--from", "lowball", "--rules", "nowhere"],
        "there is no rules folder nowhere",
    );
    // A variant that does not load is not copied.
    let yaml = dir.join("rules/lowball/variant.yaml");
    let good = std::fs::read_to_string(&yaml).unwrap();
    std::fs::write(&yaml, good.replace("players:", "playerz:")).unwrap();
    refused(
        &dir,
        &["new", "putter", "--from", "lowball"],
        "`lowball` does not load, so it is not copied",
    );
    std::fs::write(&yaml, good).unwrap();
    assert_eq!(listing(tmp.path()), before, "a refusal wrote something");
}
