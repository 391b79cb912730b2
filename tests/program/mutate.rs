//! `deckspec mutate` catches a weak suite: with a scenario removed, mutants that only it killed
//! survive, named by file, line, column and hook; listed equivalents are not survivors;
//! the CLI's counts, JSON and `--min-score` exit status.

use crate::common::files;

use deckspec::mutate::{MutantResult, Outcome, VariantReport, mutate_variant};
use std::path::{Path, PathBuf};
use std::process::Command;

/// A rules folder with Cambia in a scratch folder (and where scenarios may go).
fn scratch() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let rules = dir.path().join("rules");
    let specs = dir.path().join("specs");
    files::copy_dir(Path::new("rules/cambia"), &rules.join("cambia"));
    // The tests list their own equivalents.
    let _ = std::fs::remove_file(rules.join("cambia/equivalent-mutants.yaml"));
    (dir, rules, specs)
}

/// Cambia with only the right-snap scenario: a weak suite, fast to run.
fn small_suite() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let (dir, rules, _) = scratch();
    let specs = dir.path().join("snaps");
    std::fs::create_dir_all(&specs).unwrap();
    std::fs::write(specs.join("snaps.feature"), SNAPS).unwrap();
    (dir, rules, specs)
}

fn run(rules: &Path, specs: &Path) -> VariantReport {
    mutate_variant(rules, "cambia", &[specs.to_path_buf()], 2, &|_, _| {}).unwrap()
}

fn survivors(report: &VariantReport) -> Vec<&MutantResult> {
    report
        .mutants
        .iter()
        .filter(|m| m.outcome == Outcome::Survived)
        .collect()
}

/// Two scenarios of Cambia's snap: a right card and a wrong one (the suite under test).
const SNAPS: &str = "@cambia
Feature: Snapping
  Background:
    Given a cambia game with players ann, bob
    And it is ann's turn

  Scenario: bob snaps a 7 on a 7 during ann's turn
    Given bob holds 3D, 7C, 4H, 2S
    And the discard pile is 7H
    When bob does snap 7C
    Then everyone sees player_snap_success with user bob and card 7C and card.idx 1
    And the discard pile is 7C, 7H
    And bob holds 3D, 4H, 2S
";

const WRONG_SNAP: &str = "
  Scenario: bob snaps a card of the wrong rank
    Given bob holds 3D, 9C, 4H, 2S
    And the discard pile is 7H
    And the draw pile is QS, 5D, 6C
    When bob does snap 9C
    Then everyone sees player_snap_fail with user bob and card 9C and card.idx 1
    And the discard pile is 7H
    And bob holds 3D, 9C, 4H, 2S, QS, 5D
    And the draw pile top is 6C
";

#[test]
fn a_removed_scenario_leaves_named_survivors() {
    let (_dir, rules, _) = scratch();
    let specs = rules.parent().unwrap().join("snaps");
    std::fs::create_dir_all(&specs).unwrap();
    std::fs::write(specs.join("snaps.feature"), format!("{SNAPS}{WRONG_SNAP}")).unwrap();
    let both = run(&rules, &specs);
    assert_eq!(
        both.generated,
        both.killed + both.survived + both.equivalent + both.timed_out + both.did_not_compile
    );
    assert_eq!(both.scenarios, 2);
    // The wrong snap's scenario removed: what only it checked is unguarded.
    std::fs::write(specs.join("snaps.feature"), SNAPS).unwrap();
    let weak = run(&rules, &specs);
    assert_eq!(weak.generated, both.generated, "the same mutants");
    assert!(weak.score < both.score, "{} vs {}", weak.score, both.score);
    let before: Vec<String> = survivors(&both)
        .iter()
        .map(|m| format!("{} {}", m.at(), m.mutation.replacement))
        .collect();
    let new: Vec<&MutantResult> = survivors(&weak)
        .into_iter()
        .filter(|m| !before.contains(&format!("{} {}", m.at(), m.mutation.replacement)))
        .collect();
    let source = std::fs::read_to_string(rules.join("cambia/cambia.rhai")).unwrap();
    let fail_line = source
        .lines()
        .position(|l| l.contains("game.broadcast(\"player_snap_fail\""))
        .unwrap()
        + 1;
    let named = new
        .iter()
        .find(|m| m.mutation.hook.as_deref() == Some("on_snap") && m.mutation.line == fail_line);
    let named = named.unwrap_or_else(|| {
        panic!(
            "no survivor at the wrong snap's broadcast (line {fail_line}); new survivors: {:?}",
            new.iter().map(|m| m.at()).collect::<Vec<_>>()
        )
    });
    assert_eq!(named.mutation.kind.describe(), "game call removed");
    for m in &new {
        assert!(m.file.ends_with("cambia/cambia.rhai"), "{}", m.file);
        assert_eq!(
            &source[m.mutation.start..m.mutation.end],
            m.mutation.original
        );
        let line = source.lines().nth(m.mutation.line - 1).unwrap();
        let at_column: String = line.chars().skip(m.mutation.column - 1).collect();
        assert!(
            at_column.starts_with(m.mutation.original.lines().next().unwrap_or("")),
            "{}: {at_column:?} does not start with {:?}",
            m.at(),
            m.mutation.original
        );
    }
}

#[test]
fn listed_equivalents_are_not_survivors_and_stale_entries_are_named() {
    let (_dir, rules, specs) = small_suite();
    let weak = run(&rules, &specs);
    let survivor = survivors(&weak)[0].clone();
    let at = format!(
        "cambia.rhai:{}:{}",
        survivor.mutation.line, survivor.mutation.column
    );
    let listed = format!(
        "# equivalent mutants of cambia.rhai\n- at: {at}\n  mutant: {:?}\n  why: a test entry\n- at: cambia.rhai:1:1\n  mutant: 'x -> y'\n  why: matches nothing\n",
        format!(
            "{} -> {}",
            survivor.mutation.original, survivor.mutation.replacement
        )
    );
    std::fs::write(rules.join("cambia/equivalent-mutants.yaml"), listed).unwrap();
    let again = run(&rules, &specs);
    assert_eq!(again.equivalent, 1);
    assert_eq!(again.survived, weak.survived - 1);
    let it = again
        .mutants
        .iter()
        .find(|m| m.at() == survivor.at() && m.mutation == survivor.mutation);
    assert_eq!(
        it.unwrap().outcome,
        Outcome::Equivalent {
            why: "a test entry".into()
        }
    );
    assert_eq!(
        again.stale_equivalents,
        vec!["cambia.rhai:1:1 x -> y".to_string()]
    );

    std::fs::write(
        rules.join("cambia/equivalent-mutants.yaml"),
        "- at: 3\n  mutnt: x\n",
    )
    .unwrap();
    let error = mutate_variant(
        &rules,
        "cambia",
        std::slice::from_ref(&specs),
        1,
        &|_, _| {},
    )
    .unwrap_err();
    assert!(
        error.to_string().contains("equivalent-mutants.yaml: ")
            && error.to_string().contains("unknown field `mutnt`"),
        "{error}"
    );
}

#[test]
fn the_command_prints_counts_json_and_enforces_the_minimum_score() {
    let (_dir, rules, specs) = small_suite();
    let deckspec = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_deckspec"))
            .arg("mutate")
            .args(args)
            .arg("--rules")
            .arg(&rules)
            .arg("--specs")
            .arg(&specs)
            .output()
            .unwrap()
    };
    let out = deckspec(&["cambia", "--min-score", "100", "--diff", "-j", "2"]);
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let first = stdout.lines().next().unwrap();
    assert!(
        first.starts_with("cambia: ")
            && first.contains(" survived, ")
            && first.contains("· score "),
        "{first}"
    );
    assert!(stdout.contains("  survived in on_snap:\n"), "{stdout}");
    assert!(
        stdout.contains("      --- ") && stdout.contains(" (mutant)\n      @@ -"),
        "{stdout}"
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.starts_with("cambia: score ")
            && stderr.trim_end().ends_with("is below --min-score 100"),
        "{stderr}"
    );

    let out = deckspec(&["cambia", "--json", "--min-score", "1", "-j", "2"]);
    assert_eq!(out.status.code(), Some(0));
    let reports: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let report = &reports[0];
    for key in [
        "generated",
        "killed",
        "survived",
        "equivalent",
        "timed_out",
        "did_not_compile",
        "score",
    ] {
        assert!(report[key].is_number(), "{key} in {report}");
    }
    let survivor = report["mutants"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["outcome"] == "survived")
        .unwrap();
    for key in [
        "file",
        "line",
        "column",
        "original",
        "replacement",
        "kind",
        "hook",
    ] {
        assert!(!survivor[key].is_null(), "{key} in {survivor}");
    }

    let out = deckspec(&["cambai"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        format!(
            "error: no variant `cambai` in {}: did you mean `cambia`?\n",
            rules.display()
        )
    );

    let out = deckspec(&["cambia", "--min-score", "101"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "error: --min-score is a percentage from 0 to 100, not 101\n"
    );
}

/// Put a comment line at the top of the variant's script: every mutant moves down a line.
fn add_a_line_on_top(rules: &Path) {
    let script = rules.join("cambia/cambia.rhai");
    let text = std::fs::read_to_string(&script).unwrap();
    std::fs::write(&script, format!("// a line added on top\n{text}")).unwrap();
}

#[test]
fn equivalents_keyed_by_content_stay_put_and_old_positions_are_found_where_they_moved() {
    let (_dir, rules, specs) = small_suite();
    let weak = run(&rules, &specs);
    let survivor = survivors(&weak)[0].clone();
    let text = format!(
        "{} -> {}",
        survivor.mutation.original, survivor.mutation.replacement
    );
    let listed = format!(
        "# equivalent mutants of cambia.rhai\n- at: cambia.rhai:{}:{}\n  mutant: {text:?}\n  why: a test entry\n",
        survivor.mutation.line, survivor.mutation.column
    );
    let file = rules.join("cambia/equivalent-mutants.yaml");
    std::fs::write(&file, listed).unwrap();
    // The old key, a line off: still this mutant, reported as moved.
    add_a_line_on_top(&rules);
    let moved = run(&rules, &specs);
    assert_eq!((moved.equivalent, moved.survived), (1, weak.survived - 1));
    assert_eq!(
        moved.moved_equivalents,
        vec![format!(
            "cambia.rhai:{}:{} -> cambia.rhai:{}:{} {text}",
            survivor.mutation.line,
            survivor.mutation.column,
            survivor.mutation.line + 1,
            survivor.mutation.column
        )]
    );
    assert!(moved.stale_equivalents.is_empty());
    // Keyed by content, the entry no longer names a position, and lines added elsewhere never
    // move it.
    let (keyed, stale) = deckspec::mutate::fix_equivalents(&rules, "cambia").unwrap();
    assert_eq!((keyed, stale.len()), (1, 0));
    let rewritten = std::fs::read_to_string(&file).unwrap();
    assert!(
        rewritten.starts_with("# equivalent mutants of cambia.rhai\n")
            && rewritten.contains(&format!(
                "hook: {}",
                survivor.mutation.hook.as_deref().unwrap_or("(top level)")
            ))
            && !rewritten.contains("at:"),
        "{rewritten}"
    );
    add_a_line_on_top(&rules);
    let again = run(&rules, &specs);
    assert_eq!((again.equivalent, again.survived), (1, weak.survived - 1));
    assert!(again.moved_equivalents.is_empty() && again.stale_equivalents.is_empty());
}

#[test]
fn a_line_added_on_top_of_every_rule_script_changes_no_variants_mutation_counts() {
    let dir = tempfile::tempdir().unwrap();
    let moved = dir.path().join("rules");
    // Every variant in CI; the first (by name) at a developer's size: each takes two whole
    // mutation runs.
    let mut variants = deckspec::script::variant_names(Path::new("rules"));
    variants.truncate(crate::common::size::by_size(1, variants.len()));
    for variant in &variants {
        files::copy_dir(&Path::new("rules").join(variant), &moved.join(variant));
        for entry in std::fs::read_dir(moved.join(variant)).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "rhai") {
                let text = std::fs::read_to_string(&path).unwrap();
                std::fs::write(&path, format!("// a line added on top\n{text}")).unwrap();
            }
        }
    }
    let specs = [PathBuf::from("spec-tests")];
    for variant in &variants {
        let counts = |rules: &Path| {
            let r = mutate_variant(rules, variant, &specs, 2, &|_, _| {}).unwrap();
            let listed = (r.stale_equivalents.len(), r.moved_equivalents.len());
            (r.generated, r.killed, r.survived, r.equivalent, listed)
        };
        let before = counts(Path::new("rules"));
        assert_eq!(counts(&moved), before, "{variant}");
        assert_eq!(
            before.4,
            (0, 0),
            "{variant}: every entry matches where it is"
        );
    }
}

#[test]
fn each_variant_is_held_to_its_own_recorded_score() {
    let (_dir, rules, specs) = small_suite();
    let deckspec = || {
        let out = Command::new(env!("CARGO_BIN_EXE_deckspec"))
            .args(["mutate", "cambia", "--ratchet", "-j", "2", "--rules"])
            .arg(&rules)
            .arg("--specs")
            .arg(&specs)
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).to_string(),
        )
    };
    let record = rules.join("cambia/spec-strength.yaml");
    // No record yet (the small suite's copy has the bundled one: removed): told what it reached.
    let _ = std::fs::remove_file(&record);
    let (code, stderr) = deckspec();
    assert_eq!(code, Some(0), "{stderr}");
    assert!(
        stderr.contains("cambia: no mutation_score record yet: it reached ")
            && stderr.contains("write `mutation_score: "),
        "{stderr}"
    );
    // A record above what the weak suite reaches: the run fails, naming the record.
    std::fs::write(&record, "mutation_score: 100.0\n").unwrap();
    let (code, stderr) = deckspec();
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.contains("fell below its record 100"), "{stderr}");
    // A record at or below it: the run passes.
    std::fs::write(&record, "mutation_score: 1\n").unwrap();
    let (code, stderr) = deckspec();
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stderr.contains("is above its record 1: raise"), "{stderr}");
    // A malformed record is an error naming the file.
    std::fs::write(&record, "mutation_score: 140\n").unwrap();
    let (code, stderr) = deckspec();
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains("spec-strength.yaml: mutation_score is a percentage"),
        "{stderr}"
    );
}
