//! Data-driven tests of the scenario parser: each `tests/parse/*.feature` either parses to the AST in
//! its `.ast` file or fails with the problems in its `.expected` file. Each file of
//! `spec-tests/invalid/` that fails to parse has its parse problems among those of its `.expected`
//! file (which `tests/spec.rs` owns: a file's check problems are reported beside its parse
//! problems). `UPDATE_EXPECT=1 cargo test --test library parse::` rewrites the `tests/parse` files.

use deckspec::spec::ast::Feature;
use deckspec::spec::diag::{FileDiagnostic, Problem};
use deckspec::spec::parse::parse_feature;
use proptest::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The problems of a file as `spec-tests/invalid/*.expected` shows them (`FileDiagnostic::short`).
fn render(path: &Path, src: &str, problems: Vec<Problem>) -> String {
    let src = Arc::new(src.to_string());
    problems
        .into_iter()
        .map(|p| FileDiagnostic::new(&path.display().to_string(), src.clone(), p).short())
        .collect::<Vec<_>>()
        .join("\n")
}

/// Compare every `.feature` of `dir` with its expected file; return the differences.
fn check(dir: &str, parse_failures_only: bool) -> Vec<String> {
    let bless = std::env::var_os("UPDATE_EXPECT").is_some();
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|d| d.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    files.retain(|p| p.extension().is_some_and(|e| e == "feature"));
    files.sort();
    assert!(!files.is_empty(), "no fixtures in {dir}");
    let mut failures = Vec::new();
    for path in files {
        let src = std::fs::read_to_string(&path).expect("a readable fixture");
        let (actual, ext, other) = match parse_feature(&src) {
            // `spec-tests/invalid/parse_*` must fail to parse; the other files there parse and
            // fail in later checks (`tests/spec.rs`).
            Ok(_) if parse_failures_only => {
                let name = path
                    .file_name()
                    .and_then(|n| n.to_str())
                    .unwrap_or_default();
                if name.starts_with("parse_") {
                    failures.push(format!("{} parses, but must fail", path.display()));
                }
                continue;
            }
            Ok(feature) => (format!("{feature:#?}"), "ast", "expected"),
            Err(problems) => (render(&path, &src, problems), "expected", "ast"),
        };
        let actual = format!("{}\n", actual.trim_end());
        let expected_path = path.with_extension(ext);
        if parse_failures_only {
            // `tests/spec.rs` owns these expected files: they hold every problem of the file,
            // the parse problems among them, in file order.
            let expected = std::fs::read_to_string(&expected_path).unwrap_or_default();
            if !in_order(&expected, &actual) {
                failures.push(format!(
                    "{}: the parse problems are not all in it, in order:\n{actual}",
                    expected_path.display()
                ));
            }
            continue;
        }
        let other_path = path.with_extension(other);
        if bless {
            std::fs::write(&expected_path, &actual).expect("the expected file is writable");
            if other_path.exists() {
                std::fs::remove_file(&other_path).expect("the stale expected file is removable");
            }
            continue;
        }
        if other_path.exists() {
            failures.push(format!(
                "{}: has {}, but the parse gave {}:\n{actual}",
                path.display(),
                other_path.display(),
                if ext == "ast" { "an AST" } else { "problems" }
            ));
            continue;
        }
        let expected = std::fs::read_to_string(&expected_path).unwrap_or_default();
        if expected != actual {
            failures.push(format!(
                "{} differs (bless with UPDATE_EXPECT=1):\n--- expected\n{expected}--- actual\n{actual}",
                expected_path.display()
            ));
        }
    }
    failures
}

/// Whether every line of `part` is a line of `whole`, in the same order.
fn in_order(whole: &str, part: &str) -> bool {
    let mut lines = whole.lines();
    part.lines().all(|want| lines.any(|line| line == want))
}

#[test]
fn fixtures_parse_as_expected() {
    let failures = check("tests/parse", false);
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn invalid_spec_tests_fail_as_expected() {
    let failures = check("spec-tests/invalid", true);
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn the_cambia_suite_parses() {
    let mut files: Vec<PathBuf> = std::fs::read_dir("spec-tests/cambia")
        .map(|d| d.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    files.retain(|p| p.extension().is_some_and(|e| e == "feature"));
    let mut failures = Vec::new();
    for path in files {
        let src = std::fs::read_to_string(&path).expect("a readable file");
        if let Err(problems) = parse_feature(&src) {
            failures.push(render(&path, &src, problems));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// Every span of a feature, to check that they are inside the file.
fn spans(feature: &Feature) -> Vec<(usize, usize)> {
    let text = format!("{feature:?}");
    let mut out = Vec::new();
    let mut rest = text.as_str();
    while let Some(i) = rest.find("Span { start: ") {
        rest = &rest[i + 14..];
        let start: usize = rest[..rest.find(',').unwrap_or(0)].parse().unwrap_or(0);
        let j = rest.find("end: ").map_or(0, |j| j + 5);
        rest = &rest[j..];
        let end: usize = rest[..rest.find(' ').unwrap_or(0)].parse().unwrap_or(0);
        out.push((start, end));
    }
    out
}

/// The only problem of a file, in the short form.
fn only_problem(src: &str) -> String {
    let problems = parse_feature(src).expect_err("must fail");
    render(Path::new("x.feature"), src, problems)
}

#[test]
fn a_hand_of_70000_slots_is_refused_at_the_step() {
    let blanks = vec!["_"; 70_000].join(", ");
    let src = format!(
        "Feature: f\n  Scenario: s\n    Given a cambia game with players ann, bob\n    And ann holds 3D, 9C, {blanks}, 7S\n"
    );
    assert_eq!(
        only_problem(&src),
        "4:3093: this step lists 70003 slots; a step lists at most 1024\n  help: shorten the list"
    );
}

#[test]
fn deep_lists_are_refused_before_they_are_parsed() {
    let deep = "[".repeat(100_000);
    let src = format!(
        "Feature: f\n  Scenario: s\n    Given the house rule x is {deep}\n    ann's x is {deep}\n    Given the house rules:\n      | x | {deep} |\n"
    );
    assert_eq!(
        only_problem(&src),
        [
            "3:63: lists nest at most 32 deep\n  help: write a flatter list",
            "4:5: this line is not a step\n  help: a step starts with `Given`, `When`, `Then`, `And` or `But`",
            "6:13: lists nest at most 32 deep\n  help: write a flatter list",
        ]
        .join("\n")
    );
}

#[test]
fn a_file_larger_than_the_limit_is_one_problem() {
    let src = format!("Feature: f\n{}", " ".repeat(4 * 1024 * 1024));
    assert_eq!(
        only_problem(&src),
        "1:1: this file is larger than 4194304 bytes (4 MiB), the limit for a scenario file\n  help: split it into several files"
    );
}

#[test]
fn an_expansion_beyond_the_limit_is_one_problem() {
    // 1,001 rows of 1,000 steps: more than a million steps once expanded.
    let steps = "    Then the game is over\n".repeat(1000);
    let rows = "      | a |\n".repeat(1001);
    let src =
        format!("Feature: f\n  Scenario Outline: o\n{steps}    Examples:\n      | x |\n{rows}");
    assert_eq!(
        only_problem(&src),
        "2:3: this file expands to more than 1000000 steps (backgrounds are repeated for every scenario, outlines for every Examples row)\n  help: split the file, or use fewer or smaller background steps and Examples rows"
    );
}

const FRAGMENTS: &[&str] = &[
    "Feature: f",
    "  Rule: r",
    "Background:",
    "  Scenario: s",
    "Scenario Outline: o",
    "Examples:",
    "  | a | b |",
    "| <a> | 7S |",
    "| x",
    "@tag @rule:X-1",
    "@",
    "# comment",
    "",
    "\"\"\"",
    "  \"\"\"json",
    "{\"a\": 1}",
    "Given a cambia game with players ann, bob",
    "And ann holds 7S, KH, _, 3D",
    "When ann does snap 9C",
    "Then everyone sees x with card.rank King 2 times",
    "Then ann receives:",
    "But <a> holds <b>",
    "Givn ann holds 1S",
    "Scenaro: typo",
    "the house rules:",
    "Then the discard pile sealed is true",
    "When 2.5 seconds pass",
    "    ♠♥ é ’s",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Any text: no panic, and every span is inside the file on character boundaries.
    #[test]
    fn any_text_parses_or_fails_cleanly(src in "(?s).{0,200}") {
        check_spans(&src);
    }

    /// Lines put together from pieces of real files.
    #[test]
    fn any_mix_of_lines_parses_or_fails_cleanly(
        lines in prop::collection::vec(prop::sample::select(FRAGMENTS), 0..30),
        crlf in any::<bool>(),
    ) {
        let src = lines.join(if crlf { "\r\n" } else { "\n" });
        check_spans(&src);
    }
}

fn check_spans(src: &str) {
    let ok = |start: usize, end: usize| {
        start <= end && end <= src.len() && src.is_char_boundary(start) && src.is_char_boundary(end)
    };
    match parse_feature(src) {
        Ok(feature) => {
            for (start, end) in spans(&feature) {
                assert!(ok(start, end), "span {start}..{end} in {src:?}");
            }
        }
        Err(problems) => {
            assert!(!problems.is_empty());
            for p in &problems {
                assert!(ok(p.span.start, p.span.end), "{p:?} in {src:?}");
            }
            // Rendering never panics either.
            let _ = render(Path::new("x.feature"), src, problems);
        }
    }
}
