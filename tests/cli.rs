//! The `deckspec` binary as users and CI run it: exit codes, the closing line, filters, JUnit.

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

fn summary(args: &[&str]) -> serde_json::Value {
    let run = deckspec(args);
    assert_eq!(run.code, 0, "deckspec {args:?}:\n{}", run.stdout);
    let mut json: serde_json::Value = serde_json::from_str(&run.stdout).expect("one JSON object");
    // Timing differs from run to run; everything else must not.
    for key in ["seconds", "games_per_second", "actions_per_second"] {
        assert!(json.get(key).is_some(), "the summary lacks {key}");
        json.as_object_mut().unwrap().remove(key);
    }
    json
}

#[test]
fn simulate_is_the_same_for_any_jobs_and_shards_merge_exactly() {
    let base = [
        "simulate",
        "cambia",
        "--players",
        "3",
        "--games",
        "40",
        "--seed",
        "7",
        "--bots",
        "random,expert,easy",
        "--json",
    ];
    let one = summary(&[&base[..], &["--jobs", "1"]].concat());
    let two = summary(&[&base[..], &["--jobs", "2"]].concat());
    assert_eq!(one, two);
    assert_eq!(one["games"], 40);
    assert!(one["actions"].as_u64().unwrap() > 0);

    let dir = std::env::temp_dir().join(format!("deckspec-shards-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut files = Vec::new();
    for k in 1..=3 {
        let run = deckspec(&[&base[..], &["--shard", &format!("{k}/3")]].concat());
        assert_eq!(run.code, 0);
        let file = dir.join(format!("shard{k}.json"));
        std::fs::write(&file, run.stdout).unwrap();
        files.push(file.display().to_string());
    }
    let mut args = vec!["merge", "--json"];
    args.extend(files.iter().map(String::as_str));
    assert_eq!(summary(&args), one);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn simulate_reports_bad_arguments() {
    check(&["simulate", "cambia", "--bots", "expret"], 2, &[]);
    check(&["simulate", "cambia", "--shard", "4/3"], 2, &[]);
    check(
        &["simulate", "cambia", "--house-rule", "penalty_draw_cuont=3"],
        2,
        &[],
    );
    check(&["simulate", "cambai"], 2, &[]);
    check(
        &[
            "simulate",
            "cambia",
            "--games",
            "5",
            "--house-rule",
            "penalty_draw_count=3",
        ],
        0,
        &["games: 5", "actions/s:", "ended by:"],
    );
}
