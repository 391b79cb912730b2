//! The `deckspec` binary as users and CI run it: exit codes, the closing line, filters, JUnit.
//! `simulate` and `merge` are in `cli_simulate.rs`.

use std::path::Path;
use std::process::Command;

struct Run {
    code: i32,
    stdout: String,
}

fn deckspec(args: &[&str]) -> Run {
    let out = Command::new(env!("CARGO_BIN_EXE_deckspec"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("NO_COLOR", "1")
        .output()
        .expect("the binary runs");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
    }
}

/// One case: arguments, the exit code, and lines the output must contain (in order).
fn check(args: &[&str], code: i32, lines: &[&str]) {
    let run = deckspec(args);
    assert_eq!(
        run.code, code,
        "deckspec {args:?} exited {}:\n{}",
        run.code, run.stdout
    );
    let mut rest = run.stdout.as_str();
    for line in lines {
        match rest.find(line) {
            Some(i) => rest = &rest[i + line.len()..],
            None => panic!(
                "deckspec {args:?}: missing (in order) {line:?} in:\n{}",
                run.stdout
            ),
        }
    }
}

#[test]
fn test_command_exit_codes_and_closing_line() {
    check(
        &["test", "tests/cli/passing.feature"],
        0,
        &[
            "PASS  tests/cli/passing.feature:6  the game starts",
            "PASS  tests/cli/passing.feature:11  ann draws",
            "\n2 passed, 0 failed\n",
        ],
    );
    check(
        &[
            "test",
            "tests/cli/passing.feature",
            "tests/cli/failing.feature",
        ],
        1,
        &[
            "FAIL  tests/cli/failing.feature:5  ann expects the wrong phase",
            "tests/cli/failing.feature:10:5",
            "expected: awaiting_draw",
            "found:    awaiting_discard",
            "\n2 passed, 1 failed\n",
        ],
    );
    check(
        &[
            "test",
            "tests/cli/broken.feature",
            "tests/cli/passing.feature",
        ],
        2,
        &[
            "ERROR tests/cli/broken.feature",
            "Scenario:",
            "\n2 passed, 0 failed\n",
        ],
    );
    check(&["test", "tests/cli/nothing-here"], 2, &[]);
}

#[test]
fn filters_by_tag_expression_and_name() {
    check(
        &["test", "tests/cli/passing.feature", "--tags", "@fast"],
        0,
        &["the game starts", "1 passed, 0 failed"],
    );
    check(
        &[
            "test",
            "tests/cli/passing.feature",
            "--tags",
            "@cambia and not @fast",
        ],
        0,
        &["ann draws", "1 passed, 0 failed"],
    );
    check(
        &["test", "tests/cli/passing.feature", "--name", "DRAWS"],
        0,
        &["ann draws", "1 passed, 0 failed"],
    );
    check(
        &["test", "tests/cli/passing.feature", "--tags", "@fast and"],
        2,
        &[],
    );
}

#[test]
fn junit_has_a_testsuite_per_feature() {
    let dir = std::env::temp_dir().join(format!("deckspec-junit-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("report.xml");
    let file_arg = file.display().to_string();
    check(
        &[
            "test",
            "tests/cli/passing.feature",
            "tests/cli/failing.feature",
            "--junit",
            &file_arg,
        ],
        1,
        &["2 passed, 1 failed"],
    );
    let xml = std::fs::read_to_string(&file).unwrap();
    assert_eq!(xml.matches("<testsuite ").count(), 2, "{xml}");
    assert!(xml.contains(r#"name="CLI fixture, passing""#), "{xml}");
    assert!(xml.contains("<failure"), "{xml}");
    assert!(xml.contains("ann expects the wrong phase"), "{xml}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn check_command_runs_nothing_and_reports_problems() {
    check(&["check"], 0, &["ok     rules/cambia", "0 problems"]);
    assert!(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("spec-tests/invalid")
            .is_dir()
    );
}
