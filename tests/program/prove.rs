//! `deckspec prove` on its must-fail fixtures (`tests/prove/rules/<name>/`, each with the
//! properties it must violate listed in `expected`): each violation is found, nothing else is
//! reported, and every scenario written for a violation replays with `deckspec test`.

use crate::common::deckspec;
use std::path::Path;

const FIXTURES: &str = "tests/prove/rules";

#[test]
fn each_fixture_violates_the_properties_it_expects_and_its_scenarios_replay() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join(FIXTURES);
    let mut names: Vec<String> = std::fs::read_dir(&root)
        .expect("the fixtures folder")
        .map(|e| {
            e.expect("an entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .filter(|n| root.join(n).join("expected").is_file())
        .collect();
    names.sort();
    assert!(names.len() >= 7, "the fixtures: {names:?}");
    for name in names {
        check(&root, &name);
    }
}

/// Prove fixture `name`: exit 1, the expected properties violated and no other, each written
/// scenario passing.
fn check(root: &Path, name: &str) {
    let out = tempfile::tempdir().expect("a temporary folder");
    let out_dir = out.path().to_string_lossy().into_owned();
    let run = deckspec(&[
        "prove", name, "--rules", FIXTURES, "--json", "--out", &out_dir,
    ]);
    assert_eq!(run.code, 1, "{name}: {}{}", run.stdout, run.stderr);
    let json: serde_json::Value = serde_json::from_str(&run.stdout).expect("JSON");
    let report = &json[0];
    let mut violated: Vec<String> = Vec::new();
    let mut scenarios = Vec::new();
    for config in report["configurations"].as_array().expect("configurations") {
        for (property, verdict) in config["properties"].as_object().expect("properties") {
            if verdict["held"] == false {
                violated.push(property.clone());
                if let Some(file) = verdict["scenario"].as_str() {
                    scenarios.push(file.to_string());
                }
            }
        }
    }
    if report["used"]["held"] == false {
        violated.push("used".into());
    }
    violated.sort();
    let expected = std::fs::read_to_string(root.join(name).join("expected")).expect("expected");
    let mut expected: Vec<String> = expected.lines().map(str::to_string).collect();
    expected.sort();
    assert_eq!(violated, expected, "{name}: {}", run.stdout);
    for file in scenarios {
        let replay = deckspec(&["test", &file, "--rules", FIXTURES]);
        assert_eq!(
            replay.code,
            0,
            "{name}: {file} does not replay:\n{}{}\n{}",
            replay.stdout,
            replay.stderr,
            std::fs::read_to_string(&file).unwrap_or_default()
        );
    }
}

#[test]
fn the_text_report_names_each_property_and_where_its_scenario_is() {
    let out = tempfile::tempdir().expect("a temporary folder");
    let out_dir = out.path().to_string_lossy().into_owned();
    let run = deckspec(&["prove", "growing", "--rules", FIXTURES, "--out", &out_dir]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    for line in [
        "prove growing",
        "ok    can-end",
        "ok    no-deadlock",
        "FAIL  bounded      game variable marks holds 209 values, past its bound of 208, after 208 moves; the loop that grows it: p0 mark (1 move, 208 times at the end of the way, each adding 1)",
        "ok    invariants",
        "ok    seats-win",
        "ok    used",
        "1 property violated",
    ] {
        assert!(run.stdout.contains(line), "{line:?} in:\n{}", run.stdout);
    }
    let file = out.path().join("growing-bounded.feature");
    let text = std::fs::read_to_string(&file).expect("the scenario");
    assert!(
        text.starts_with("# deckspec prove: bounded does not hold"),
        "{text}"
    );
    assert_eq!(text.matches("does mark").count(), 208, "{text}");
}

#[test]
fn bad_arguments_are_refused_before_anything_is_explored() {
    for (args, says) in [
        (
            &["prove", "recall", "--players", "9"][..],
            "9 players: recall plays with 2 to 8",
        ),
        (
            &["prove", "recall", "--house-rule", "no_such_rule=1"][..],
            "no_such_rule",
        ),
        (&["prove", "no_such_variant"][..], "no_such_variant"),
        (&["prove", "recall", "--deals", "0"][..], "--deals"),
        (
            &["prove", "--rules", "tests/prove/no_such_folder"][..],
            "holds no variant",
        ),
    ] {
        let run = deckspec(args);
        assert_eq!(run.code, 2, "{args:?}: {}{}", run.stdout, run.stderr);
        assert!(run.stderr.contains(says), "{args:?}: {}", run.stderr);
    }
}
