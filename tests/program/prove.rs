//! `deckspec prove` on its must-fail fixtures (`tests/prove/rules/<name>/`, each with the
//! properties it must violate listed in `expected`): each violation is found, nothing else is
//! reported, and every scenario written for a violation replays with `deckspec test`.

use crate::common::deckspec;
use std::path::Path;

const FIXTURES: &str = "tests/prove/rules";
/// The scenarios of the fixtures whose rulebook `used` judges (`unplayed`).
const SPECS: &str = "tests/prove/specs";

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
    assert!(names.len() >= 11, "the fixtures: {names:?}");
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
        "prove", name, "--rules", FIXTURES, "--specs", SPECS, "--json", "--out", &out_dir,
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
        (
            &["prove", "cambia", "--deck", "AS,XX"][..],
            "`XX` is not a card",
        ),
        (
            &["prove", "cambia", "--deck", "AS,7H,AS"][..],
            "AS is named twice",
        ),
        (
            &["prove", "cambia", "--deck", "AS,7H,9C"][..],
            "the deal fails with a deck of 3 cards",
        ),
    ] {
        let run = deckspec(args);
        assert_eq!(run.code, 2, "{args:?}: {}{}", run.stdout, run.stderr);
        assert!(run.stderr.contains(says), "{args:?}: {}", run.stderr);
    }
}

/// A copy of the `unplayed` fixture with `prove_unplayed:` added to its `variant.yaml`.
fn unplayed_declaring(yaml: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let to = dir.path().join("unplayed");
    std::fs::create_dir_all(&to).expect("the variant folder");
    for entry in std::fs::read_dir(Path::new(FIXTURES).join("unplayed")).expect("the fixture") {
        let path = entry.expect("an entry").path();
        std::fs::copy(&path, to.join(path.file_name().expect("a name"))).expect("a copy");
    }
    let variant = to.join("variant.yaml");
    let text = std::fs::read_to_string(&variant).expect("variant.yaml");
    std::fs::write(&variant, format!("{text}{yaml}")).expect("variant.yaml written");
    dir
}

#[test]
fn a_rule_declared_unplayable_is_reported_and_a_stale_or_unknown_declaration_is_not_accepted() {
    let out = tempfile::tempdir().expect("a temporary folder");
    let out_dir = out.path().to_string_lossy().into_owned();
    let prove = |rules: &Path| {
        let rules = rules.to_string_lossy().into_owned();
        deckspec(&[
            "prove", "unplayed", "--rules", &rules, "--specs", SPECS, "--out", &out_dir,
        ])
    };
    // Each case: the declaration, the exit status, and what the report says.
    for (yaml, code, says) in [
        (
            "FIX-WIN-2: no game empties the draw pile, which nothing draws from",
            0,
            "declared unplayable: FIX-WIN-2: no game empties the draw pile, which nothing draws from",
        ),
        (
            "FIX-WIN-1: wrongly said to be unplayable",
            1,
            "rule FIX-WIN-1 is declared unplayable (prove_unplayed in variant.yaml) but was played",
        ),
        (
            "FIX-WIN-3: no such rule",
            2,
            "`FIX-WIN-3` is not a rule of the rulebook",
        ),
    ] {
        let rules = unplayed_declaring(&format!("prove_unplayed:\n  {yaml}\n"));
        let run = prove(rules.path());
        assert_eq!(run.code, code, "{yaml}: {}{}", run.stdout, run.stderr);
        assert!(
            run.stdout.contains(says) || run.stderr.contains(says),
            "{yaml}: {}{}",
            run.stdout,
            run.stderr
        );
    }
}

#[test]
fn a_reduced_deck_is_explored_whole_and_its_scenarios_name_the_deck() {
    let out = tempfile::tempdir().expect("a temporary folder");
    let out_dir = out.path().to_string_lossy().into_owned();
    let run = deckspec(&[
        "prove",
        "small_deck",
        "--rules",
        FIXTURES,
        "--out",
        &out_dir,
        "--json",
    ]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let json: serde_json::Value = serde_json::from_str(&run.stdout).expect("JSON");
    let small = &json[0]["configurations"][1];
    assert_eq!(small["deck"], serde_json::json!(["AS"]));
    assert_eq!(small["complete"], true, "{small}");
    let file = small["properties"]["invariants"]["scenario"]
        .as_str()
        .expect("a scenario");
    let text = std::fs::read_to_string(file).expect("the scenario");
    assert!(text.contains("And the deck is AS\n"), "{text}");
    // The full deck holds every property: the fault is the small deck's alone.
    let full = &json[0]["configurations"][0]["properties"];
    assert!(
        full.as_object()
            .expect("properties")
            .values()
            .all(|v| v["held"] == true),
        "{full}"
    );
}
