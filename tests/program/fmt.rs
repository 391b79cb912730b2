//! `deckspec fmt` on fixtures (`tests/fmt/NAME.feature` beside `NAME.expected`, the file as it is
//! to be laid out): `--check` finds each one and names its first differing line, `fmt` writes the
//! expected text, and its output is left as it is. Also: a file that does not parse is never
//! changed, and the bundled scenarios are laid out (as CI checks).

use crate::common::deckspec;
use std::path::Path;

/// One fixture: checked, formatted in a scratch copy, compared, and checked again.
fn check(fixture: &Path) {
    let expected = std::fs::read_to_string(fixture.with_extension("expected"))
        .unwrap_or_else(|e| panic!("{}: no .expected beside it: {e}", fixture.display()));
    let dir = tempfile::tempdir().expect("a scratch folder");
    let copy = dir.path().join(fixture.file_name().unwrap());
    std::fs::copy(fixture, &copy).unwrap();
    let copy_arg = copy.to_str().unwrap();
    let found = deckspec(&["fmt", "--check", copy_arg]);
    assert_eq!(
        found.code,
        1,
        "{}: {}{}",
        fixture.display(),
        found.stdout,
        found.stderr
    );
    assert!(
        found
            .stdout
            .contains(&format!("not formatted: {copy_arg}:")),
        "{}",
        found.stdout
    );
    let written = deckspec(&["fmt", copy_arg]);
    assert_eq!(written.code, 0, "{}", written.stderr);
    assert!(
        written.stdout.contains("1 file checked, 1 formatted"),
        "{}",
        written.stdout
    );
    assert_eq!(
        std::fs::read_to_string(&copy).unwrap(),
        expected,
        "{}",
        fixture.display()
    );
    let again = deckspec(&["fmt", "--check", copy_arg]);
    assert_eq!(again.code, 0, "{}: {}", fixture.display(), again.stdout);
    assert!(
        again.stdout.contains("1 file checked, 0 to format"),
        "{}",
        again.stdout
    );
}

#[test]
fn each_fixture_is_laid_out_as_expected_and_then_left_alone() {
    let mut fixtures: Vec<_> = std::fs::read_dir("tests/fmt")
        .expect("tests/fmt")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "feature"))
        .collect();
    fixtures.sort();
    assert!(fixtures.len() >= 3, "{fixtures:?}");
    for fixture in &fixtures {
        check(fixture);
    }
}

#[test]
fn a_file_that_does_not_parse_is_left_as_it_is() {
    let dir = tempfile::tempdir().expect("a scratch folder");
    let path = dir.path().join("broken.feature");
    let text = "Feature: f\n    Scenaro: a typo\n  Given a cambia game with players ann, bob\n";
    std::fs::write(&path, text).unwrap();
    for args in [vec!["fmt"], vec!["fmt", "--check"]] {
        let run = deckspec(&[&args[..], &[path.to_str().unwrap()]].concat());
        assert_eq!(run.code, 2, "{args:?}: {}{}", run.stdout, run.stderr);
        assert!(
            run.stderr.contains("does not parse: not formatted")
                && run.stderr.contains("unknown keyword `Scenaro:`"),
            "{}",
            run.stderr
        );
        assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
    }
    let not_feature = deckspec(&["fmt", "Cargo.toml"]);
    assert_eq!(not_feature.code, 2);
    assert!(
        not_feature.stderr.contains("is not a scenario file"),
        "{}",
        not_feature.stderr
    );
}

#[test]
fn the_bundled_scenarios_are_laid_out() {
    let run = deckspec(&["fmt", "--check"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout.contains(" files checked, 0 to format"),
        "{}",
        run.stdout
    );
}
