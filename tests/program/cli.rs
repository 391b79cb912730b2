//! The `deckspec` binary as users and CI run it: exit codes, the closing line, filters, JUnit.
//! `simulate` and `merge` are in `cli_simulate.rs`.

use std::path::Path;

use crate::common;
use common::deckspec;

/// A fresh folder for one test's files, removed when dropped.
struct TempDir(std::path::PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("deckspec-{name}-{}", std::process::id()));
        std::fs::remove_dir_all(&dir).ok();
        std::fs::create_dir_all(&dir).expect("a temporary folder");
        TempDir(dir)
    }

    fn path(&self, name: &str) -> String {
        self.0.join(name).display().to_string()
    }

    fn write(&self, name: &str, bytes: &[u8]) -> String {
        let path = self.0.join(name);
        std::fs::create_dir_all(path.parent().expect("a parent")).expect("a folder");
        std::fs::write(&path, bytes).expect("a writable file");
        path.display().to_string()
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        std::fs::remove_dir_all(&self.0).ok();
    }
}

const PASSING: &[u8] = include_bytes!("../cli/passing.feature");

/// A scenario file whose third line holds a byte that is not UTF-8 (0xFF, in `b?ob`).
const NOT_UTF8: &[u8] =
    b"Feature: not UTF-8\n  Scenario: s\n    Given a cambia game with players ann, b\xffob\n";

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

#[test]
fn a_file_that_is_not_utf8_is_that_files_error_and_the_rest_runs() {
    let dir = TempDir::new("utf8");
    let bad = dir.write("a_bad.feature", NOT_UTF8);
    let good = dir.write("b_good.feature", PASSING);
    let junit = dir.path("report.xml");
    check(
        &["test", &dir.0.display().to_string(), "--junit", &junit],
        2,
        &[
            &format!("ERROR {bad} (1 problem; not run)"),
            "× this file is not UTF-8: byte 76 (line 3, column 44) is 0xFF, which does not start a character",
            &format!("[{bad}:3:44]"),
            "help: save the file as UTF-8",
            &format!("PASS  {good}:6  the game starts"),
            &format!("PASS  {good}:11  ann draws"),
            "\n2 passed, 0 failed\n",
        ],
    );
    let xml = std::fs::read_to_string(&junit).expect("the JUnit file is written");
    assert!(xml.contains("this file is not UTF-8"), "{xml}");
    assert_eq!(xml.matches("<testsuite ").count(), 2, "{xml}");
}

#[test]
fn check_reports_a_file_that_is_not_utf8_and_goes_on() {
    let dir = TempDir::new("check-utf8");
    std::os::unix::fs::symlink(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("rules"),
        dir.0.join("rules"),
    )
    .expect("a symlink to the rules");
    let bad = dir.write("spec-tests/a_bad.feature", NOT_UTF8);
    dir.write("spec-tests/b_good.feature", PASSING);
    // Every variant of rules/, however many there are.
    let variants = std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("rules"))
        .unwrap()
        .filter(|e| e.as_ref().unwrap().path().join("variant.yaml").is_file())
        .count();
    check(
        &["check", &dir.0.display().to_string()],
        2,
        &[
            &format!("ERROR  {bad}"),
            "× this file is not UTF-8: byte 76 (line 3, column 44) is 0xFF, which does not start a character",
            &format!("checked {variants} variants and 2 files (2 scenarios): 1 problem\n"),
        ],
    );
}

#[test]
fn a_file_larger_than_the_limit_is_that_files_error() {
    let dir = TempDir::new("big");
    let mut big = PASSING.to_vec();
    big.resize(4 * 1024 * 1024 + 1, b'\n');
    let file = dir.write("big.feature", &big);
    check(
        &["test", &file],
        2,
        &[
            &format!("ERROR {file} (1 problem; not run)"),
            "× this file is larger than 4194304 bytes (4 MiB), the limit for a scenario file",
            "help: split it into several files",
            "\n0 passed, 0 failed\n",
        ],
    );
}

#[test]
fn nothing_to_run_is_an_error() {
    let dir = TempDir::new("empty");
    let empty = dir.0.display().to_string();
    check(
        &["test", &empty],
        2,
        &[&format!("no scenarios found under {empty}\n")],
    );
    let only_background = dir.write(
        "background.feature",
        b"Feature: no scenarios\n  Background:\n    Given a cambia game with players ann, bob\n",
    );
    let other = dir.write("other.feature", b"Feature: none either\n");
    check(
        &["test", &only_background, &other],
        2,
        &[&format!(
            "no scenarios found under {only_background}, {other}\n"
        )],
    );
    check(
        &["test", "tests/cli/passing.feature", "--tags", "@nothing"],
        2,
        &["no scenarios matched --tags `@nothing` (2 scenarios in 1 file)\n"],
    );
    check(
        &[
            "test",
            "tests/cli/passing.feature",
            "tests/cli/failing.feature",
            "--tags",
            "not @cambia",
            "-n",
            "zzz",
        ],
        2,
        &["no scenarios matched --tags `not @cambia` and --name `zzz` (3 scenarios in 2 files)\n"],
    );
}

#[test]
fn deeply_nested_tag_expressions_are_refused() {
    let deep = format!("{}@fast{}", "(".repeat(5000), ")".repeat(5000));
    let run = deckspec(&["test", "tests/cli/passing.feature", "--tags", &deep]);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert_eq!(
        run.stderr,
        "error: --tags: invalid tag expression: parentheses nest more than 32 deep at column 33\n"
    );
    let nested = format!("{}@fast{}", "(".repeat(32), ")".repeat(32));
    check(
        &["test", "tests/cli/passing.feature", "--tags", &nested],
        0,
        &["the game starts", "1 passed, 0 failed"],
    );
}

#[test]
fn a_face_may_be_placed_as_often_as_the_deck_has_it() {
    check(
        &["test", "tests/cli/jokers.feature"],
        0,
        &[
            "PASS  tests/cli/jokers.feature:6  both jokers in one hand\n",
            "PASS  tests/cli/jokers.feature:15  a joker in bob's hand and one on the discard pile\n",
            "PASS  tests/cli/jokers.feature:25  bob snaps his joker onto the other\n",
            "PASS  tests/cli/jokers.feature:35  each player's joker is the one in their own hand\n",
            "4 passed, 0 failed",
        ],
    );
}

#[test]
fn a_problem_on_a_very_long_line_is_reported_without_its_snippet() {
    // The renderer pads to the column of the problem, and panics past column 65,535.
    let dir = TempDir::new("long-line");
    let src = format!(
        "Feature: f\n  Scenario: s\n    Given a cambia game with players ann, bob\n    And ann holds {}1S\n",
        "_, ".repeat(1000) + " ".repeat(70_000).as_str()
    );
    let file = dir.write("long.feature", src.as_bytes());
    check(
        &["test", &file],
        2,
        &[
            "× `1S` is not a card",
            &format!("help: at {file}:4:73019 (the line is too long to show)"),
            "did you mean `AS`? (an ace is written `A`)",
            "\n0 passed, 0 failed\n",
        ],
    );
}

/// A copy of the bundled rules in `dir`, with `edit` applied to one variant's `variant.yaml`.
fn rules_with(dir: &TempDir, variant: &str, edit: impl Fn(&str) -> String) -> String {
    fn copy(from: &Path, to: &Path) {
        std::fs::create_dir_all(to).expect("a folder");
        for entry in std::fs::read_dir(from).expect("a readable folder") {
            let path = entry.expect("an entry").path();
            let target = to.join(path.file_name().expect("a name"));
            if path.is_dir() {
                copy(&path, &target);
            } else {
                std::fs::copy(&path, &target).expect("a copy");
            }
        }
    }
    let rules = dir.0.join("rules");
    copy(&Path::new(env!("CARGO_MANIFEST_DIR")).join("rules"), &rules);
    let yaml = rules.join(variant).join("variant.yaml");
    let text = std::fs::read_to_string(&yaml).expect("variant.yaml");
    std::fs::write(&yaml, edit(&text)).expect("a writable variant.yaml");
    rules.display().to_string()
}

#[test]
fn a_variant_that_does_not_load_is_reported_once_and_its_scenarios_are_counted() {
    let dir = TempDir::new("unloadable");
    let rules = rules_with(&dir, "cambia", |t| {
        t.replacen("\ndescription:", "\ndescripton:", 1)
    });
    let mixed = dir.write(
        "mixed.feature",
        b"Feature: two variants\n\n  Scenario: a cambia game\n    Given a cambia game with players ann, bob\n    Then the game is not over\n\n  Scenario: a check game\n    Given a check game with players ann, bob\n    Then the game is not over\n",
    );
    let run = deckspec(&[
        "test",
        "--rules",
        &rules,
        "tests/cli/passing.feature",
        &mixed,
    ]);
    assert_eq!(run.code, 2, "{}", run.stdout);
    let stdout = run.stdout.replace(&rules, "RULES").replace(&mixed, "MIXED");
    assert_eq!(
        stdout,
        "\
NOT RUN  MIXED (1 scenario: variant `cambia` does not load)
PASS  MIXED:7  a check game
NOT RUN  tests/cli/passing.feature (2 scenarios: variant `cambia` does not load)
ERROR RULES/cambia (does not load; 3 scenarios not run)
  × unknown field `descripton`: did you mean `description`?
   ╭─[RULES/cambia/variant.yaml:4:1]
 3 │ name: cambia
 4 │ descripton: >
   · ──────┬──────
   ·       ╰── here
 5 │   Four face-down cards each; draw, discard or replace, use the powers of 7 to K, snap matching
   ╰────
1 file could not be run; 3 scenarios did not run
1 passed, 0 failed
"
    );
}

#[test]
fn check_reports_a_variant_that_does_not_load_once_and_counts_its_scenarios() {
    let dir = TempDir::new("unloadable-check");
    let rules = rules_with(&dir, "cambia", |t| {
        t.replacen("\ndescription:", "\ndescripton:", 1)
    });
    let run = deckspec(&[
        "check",
        "--rules",
        &rules,
        "tests/cli/passing.feature",
        "tests/cli/failing.feature",
    ]);
    assert_eq!(run.code, 2, "{}", run.stdout);
    let stdout = run.stdout.replace(&rules, "RULES");
    assert_eq!(
        stdout,
        "\
ERROR  RULES/cambia
  × unknown field `descripton`: did you mean `description`?
   ╭─[RULES/cambia/variant.yaml:4:1]
 3 │ name: cambia
 4 │ descripton: >
   · ──────┬──────
   ·       ╰── here
 5 │   Four face-down cards each; draw, discard or replace, use the powers of 7 to K, snap matching
   ╰────
NOT CHECKED  tests/cli/failing.feature (1 scenario: variant `cambia` does not load)
NOT CHECKED  tests/cli/passing.feature (2 scenarios: variant `cambia` does not load)
3 scenarios could not be checked: their variant does not load
checked 1 variant and 2 files (3 scenarios): 1 problem
"
    );
}

#[test]
fn an_unknown_variant_is_one_problem_of_its_file() {
    let dir = TempDir::new("unknown-variant");
    let file = dir.write(
        "unknown.feature",
        b"Feature: f\n  Scenario: s\n    Given a cambai game with players ann, bob\n    Then the game is not over\n",
    );
    let run = deckspec(&["test", &file]);
    assert_eq!(run.code, 2, "{}", run.stdout);
    assert_eq!(
        run.stdout.replace(&file, "FILE"),
        "\
ERROR FILE (1 problem; not run)
  × variant `cambai` cannot be used: there is no such variant
   ╭─[FILE:3:13]
 2 │   Scenario: s
 3 │     Given a cambai game with players ann, bob
   ·             ───┬──
   ·                ╰── this variant
 4 │     Then the game is not over
   ╰────
  help: did you mean `cambia`?
1 file could not be run; 1 scenario did not run
0 passed, 0 failed
"
    );
}

#[test]
fn a_path_that_is_not_a_feature_file_is_one_error() {
    let run = deckspec(&["test", "README.md"]);
    assert_eq!(run.code, 2);
    assert_eq!(run.stdout, "");
    assert_eq!(
        run.stderr,
        "error: README.md is not a scenario file: scenario files end in `.feature` (name a folder to run every `.feature` file under it)\n"
    );
}

#[test]
fn an_output_file_that_cannot_be_written_fails_before_the_run() {
    let dir = TempDir::new("unwritable");
    let missing = dir.path("missing/report.xml");
    let run = deckspec(&["test", "tests/cli/passing.feature", "--junit", &missing]);
    assert_eq!(run.code, 2);
    assert_eq!(run.stdout, "", "nothing ran");
    assert_eq!(
        run.stderr,
        format!(
            "error: --junit: cannot write {missing}: the folder {} does not exist\n",
            dir.path("missing")
        )
    );
    let html = dir.path("missing/report.html");
    let run = deckspec(&["simulate", "cambia", "--games", "1", "--report", &html]);
    assert_eq!(run.code, 2);
    assert_eq!(run.stdout, "", "nothing ran");
    assert_eq!(
        run.stderr,
        format!(
            "error: --report: cannot write {html}: the folder {} does not exist\n",
            dir.path("missing")
        )
    );
    // A file that can be written is not left behind when the check passes and the run fails.
    let junit = dir.path("report.xml");
    let run = deckspec(&["test", "tests/cli/broken.feature", "--junit", &junit]);
    assert_eq!(run.code, 2);
    assert!(
        Path::new(&junit).is_file(),
        "the report of a failed run is written"
    );
}

/// What `tests/cli/failing.feature` prints for its failing scenario.
const FAILING: &str = "\
FAIL  tests/cli/failing.feature:5  ann expects the wrong phase
  × this step does not hold
    ╭─[tests/cli/failing.feature:10:5]
  9 │     Then the game is not over
 10 │     And the phase is awaiting_draw
    ·     ───────────────┬──────────────
    ·                    ╰── this step
    ╰────
  help: expected: awaiting_draw
        found:    awaiting_discard
";

#[test]
fn quiet_prints_only_failures_and_the_closing_lines() {
    for flag in ["--quiet", "-q"] {
        let run = deckspec(&[
            "test",
            flag,
            "tests/cli/passing.feature",
            "tests/cli/failing.feature",
            "tests/cli/broken.feature",
        ]);
        assert_eq!(run.code, 2, "{}", run.stdout);
        let (errors, rest) = run
            .stdout
            .split_once("FAIL  ")
            .expect("the failure is printed");
        assert!(
            errors.starts_with("ERROR tests/cli/broken.feature ("),
            "{errors}"
        );
        assert_eq!(
            format!("FAIL  {rest}"),
            format!(
                "{FAILING}1 file could not be run; 1 scenario did not run\n2 passed, 1 failed\n"
            )
        );
    }
}

#[test]
fn fail_fast_stops_after_the_first_failing_scenario() {
    let dir = TempDir::new("fail-fast");
    let twice = dir.write(
        "a_twice.feature",
        b"Feature: f\n  Scenario: first\n    Given a cambia game with players ann, bob\n    Then the game is over\n\n  Scenario: second\n    Given a cambia game with players ann, bob\n    Then the game is over\n",
    );
    let run = deckspec(&["test", "--fail-fast", &twice, "tests/cli/passing.feature"]);
    assert_eq!(run.code, 1, "{}", run.stdout);
    let out = run.stdout.replace(&twice, "FILE");
    assert!(out.starts_with("FAIL  FILE:2  first\n"), "{out}");
    assert!(
        out.ends_with(
            "stopped after the first failing scenario (--fail-fast)\n0 passed, 1 failed\n"
        ),
        "{out}"
    );
    assert!(!out.contains("second") && !out.contains("PASS"), "{out}");
    // Without it, everything runs.
    let run = deckspec(&["test", &twice, "tests/cli/passing.feature"]);
    assert_eq!(run.code, 1);
    assert!(
        run.stdout.ends_with("\n2 passed, 2 failed\n"),
        "{}",
        run.stdout
    );
}

/// One `<testcase>` of a JUnit file: its attributes, and its failure's message and body.
#[derive(Debug, Default)]
struct Case {
    name: String,
    classname: String,
    time: String,
    failure: Option<(String, String)>,
}

/// The testcases of a JUnit file, read with an XML parser.
fn junit_cases(xml: &str) -> Vec<Case> {
    use quick_xml::events::Event;
    let attr = |e: &quick_xml::events::BytesStart<'_>, name: &str| -> String {
        e.attributes()
            .flatten()
            .find(|a| a.key.as_ref() == name.as_bytes())
            .map(|a| {
                a.normalized_value(quick_xml::XmlVersion::Explicit1_0)
                    .expect("an attribute")
                    .into_owned()
            })
            .unwrap_or_default()
    };
    let mut reader = quick_xml::Reader::from_str(xml);
    let mut cases = Vec::new();
    let mut body: Option<String> = None;
    loop {
        match reader.read_event().expect("well-formed XML") {
            Event::Start(e) | Event::Empty(e) if e.name().as_ref() == b"testcase" => {
                cases.push(Case {
                    name: attr(&e, "name"),
                    classname: attr(&e, "classname"),
                    time: attr(&e, "time"),
                    failure: None,
                });
            }
            Event::Start(e) if e.name().as_ref() == b"failure" => {
                let case = cases.last_mut().expect("a failure inside a testcase");
                case.failure = Some((attr(&e, "message"), String::new()));
                body = Some(String::new());
            }
            Event::Text(t) => {
                if let Some(b) = &mut body {
                    b.push_str(&t.decode().expect("UTF-8"));
                }
            }
            Event::GeneralRef(r) => {
                if let Some(b) = &mut body {
                    if r.is_char_ref() {
                        b.push(r.resolve_char_ref().expect("a character").expect("one"));
                    } else {
                        let name = r.decode().expect("UTF-8");
                        b.push_str(
                            quick_xml::escape::resolve_predefined_entity(&name)
                                .expect("a predefined entity"),
                        );
                    }
                }
            }
            Event::End(e) if e.name().as_ref() == b"failure" => {
                let text = body.take().expect("a failure body");
                if let Some((_, b)) = cases.last_mut().and_then(|c| c.failure.as_mut()) {
                    *b = text;
                }
            }
            Event::Eof => break,
            _ => {}
        }
    }
    cases
}

/// What `tests/cli/receives.feature` shows for its failing step.
const RECEIVES_HELP: &str = r#"  help: expected: an event containing {"card":{"colour":"black","rank":"K","suit":"Clubs"},"type":"player_discard","user":{"id":"ann"}}
        found:    the closest, a "player_discard" event:
                  card.colour: missing (expected "black")
                  card.rank: expected "K", found "5"
"#;

#[test]
fn a_receives_mismatch_shows_what_differs_by_path() {
    let run = deckspec(&["test", "tests/cli/receives.feature"]);
    assert_eq!(run.code, 1);
    assert!(
        run.stdout
            .ends_with(&format!("{RECEIVES_HELP}0 passed, 1 failed\n")),
        "{}",
        run.stdout
    );
}

#[test]
fn junit_failures_say_what_was_expected_and_found_and_each_case_has_a_time() {
    let dir = TempDir::new("junit-cases");
    let file = dir.path("report.xml");
    let run = deckspec(&[
        "test",
        "tests/cli/passing.feature",
        "tests/cli/failing.feature",
        "tests/cli/receives.feature",
        "--junit",
        &file,
    ]);
    assert_eq!(run.code, 1, "{}", run.stdout);
    let xml = std::fs::read_to_string(&file).expect("the JUnit file");
    let cases = junit_cases(&xml);
    let names: Vec<&str> = cases.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "ann expects the wrong phase",
            "the game starts",
            "ann draws",
            "bob expects the wrong card"
        ]
    );
    for case in &cases {
        let time: f64 = case.time.parse().expect("the time is a number of seconds");
        assert!((0.0..60.0).contains(&time), "{case:?}");
        assert!(case.classname.starts_with("tests/cli/"), "{case:?}");
    }
    assert!(cases[1].failure.is_none() && cases[2].failure.is_none());
    let (message, body) = cases[0].failure.as_ref().expect("a failure");
    assert_eq!(
        message,
        "this step does not hold: expected awaiting_draw, found awaiting_discard"
    );
    assert_eq!(
        body,
        "10:5: this step does not hold\n  help: expected: awaiting_draw\n        found:    awaiting_discard"
    );
    let (message, body) = cases[3].failure.as_ref().expect("a failure");
    assert_eq!(
        message,
        r#"this step does not hold: expected an event containing {"card":{"colour":"black","rank":"K","suit":"Clubs"},"type":"player_discard","user":{"id":"ann"}}, found the closest, a "player_discard" event: card.colour: missing (expected "black"); card.rank: expected "K", found "5""#
    );
    assert_eq!(
        body,
        &format!(
            "12:5: this step does not hold\n{}",
            RECEIVES_HELP.trim_end()
        )
    );
}

/// `deckspec test | head -1`: when the reader closes the pipe, deckspec ends quietly with the
/// status a shell reports for a Unix tool ended by SIGPIPE (141), not a panic (101).
#[test]
fn a_closed_pipe_ends_the_run_quietly() {
    use std::io::BufRead;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_deckspec"))
        .args(["test", "spec-tests/cambia"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("deckspec runs");
    let mut first = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    // The reader is dropped here: the pipe is closed while scenarios are still running.
    assert!(first.starts_with("PASS  spec-tests/cambia/"), "{first}");
    let out = child.wait_with_output().unwrap();
    assert_eq!(
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).as_ref()
        ),
        (Some(141), "")
    );
}

/// A rules folder holding Cambia and `tests/extends/cambia3` (a variant extending it).
fn rules_with_cambia3(name: &str) -> TempDir {
    let dir = TempDir::new(name);
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for (from, to) in [
        ("rules/cambia", "rules/cambia"),
        ("tests/extends/cambia3", "rules/cambia3"),
    ] {
        for entry in std::fs::read_dir(root.join(from))
            .expect("a fixture folder")
            .flatten()
        {
            let bytes = std::fs::read(entry.path()).expect("a fixture file");
            dir.write(
                &format!("{to}/{}", entry.file_name().to_string_lossy()),
                &bytes,
            );
        }
    }
    dir
}

#[test]
fn a_variant_extending_cambia_inherits_hooks_rulebook_and_bots() {
    let dir = rules_with_cambia3("cambia3");
    let rules = dir.path("rules");
    let run = deckspec(&["test", "--rules", &rules, "tests/extends/cambia3.feature"]);
    assert_eq!(
        run.stdout,
        "PASS  tests/extends/cambia3.feature:11  a wrong snap costs three cards, cambia3's house rule\n\
         PASS  tests/extends/cambia3.feature:18  the overridden hook refuses a call with a high hand\n\
         PASS  tests/extends/cambia3.feature:23  a low hand may call, and the inherited turn order goes on\n\
         3 passed, 0 failed\n"
    );
    let run = deckspec(&["check", "--rules", &rules, "tests/extends/cambia3.feature"]);
    assert_eq!(
        run.stdout,
        format!(
            "ok     {rules}/cambia3: extends cambia · 7 actions · 118 rules (inherited from cambia) · bots: easy, medium, hard, expert (inherited from cambia) · 2 to 12 players · checked early: 5 of 7 actions · 29 of 29 functions compiled (12 into their callers)\n\
             checked 1 variant and 1 file (3 scenarios): 0 problems\n"
        )
    );
    assert_eq!(run.code, 0);
    // A rulebook copied from Cambia still names Cambia.
    let book =
        std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("rules/cambia/rulebook.yaml"))
            .expect("cambia's rulebook");
    dir.write("rules/cambia3/rulebook.yaml", &book);
    let run = deckspec(&["check", "--rules", &rules, "tests/extends/cambia3.feature"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stdout.contains(&format!("ERROR  {rules}/cambia3\n"))
            && run.stdout.contains(
                "× this rulebook says `variant: cambia`, but it is the rulebook of `cambia3`: write `variant: cambia3`"
            ),
        "{}",
        run.stdout
    );
}

#[test]
fn check_takes_feature_files_and_a_rules_folder() {
    // A feature file, not a project folder: the file and the variant it uses.
    check(
        &["check", "tests/cli/passing.feature"],
        0,
        &[
            "ok     rules/cambia: 7 actions · 118 rules · bots: easy, medium, hard, expert · 2 to 12 players · checked early: 5 of 7 actions · 29 of 29 functions compiled (12 into their callers)\n",
            "checked 1 variant and 1 file (2 scenarios): 0 problems\n",
        ],
    );
    check(
        &["check", "tests/cli/broken.feature"],
        2,
        &["ERROR  tests/cli/broken.feature", "problem"],
    );
}

#[test]
fn info_describes_a_variant() {
    let run = deckspec(&["info", "check"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let expected = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cli/info_check.txt"),
    )
    .unwrap_or_default();
    if std::env::var_os("UPDATE_EXPECT").is_some() {
        std::fs::write(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cli/info_check.txt"),
            &run.stdout,
        )
        .expect("the expected file is writable");
    } else {
        assert_eq!(run.stdout, expected, "bless with UPDATE_EXPECT=1");
    }
    let run = deckspec(&["info", "cambia", "--json"]);
    let json: serde_json::Value = serde_json::from_str(&run.stdout).expect("one JSON object");
    assert_eq!(json["players"], serde_json::json!({"min": 2, "max": 12}));
    assert_eq!(json["house_rules"][5]["name"], "penalty_draw_count");
    assert_eq!(json["house_rules"][5]["type"], "integer");
    let run = deckspec(&["info", "cambai"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stdout.contains("did you mean `cambia`?"),
        "{}",
        run.stdout
    );
}

#[test]
fn check_finds_calls_of_functions_that_exist_nowhere() {
    let run = deckspec(&[
        "check",
        "--rules",
        "spec-tests/invalid/variants",
        "spec-tests/invalid/variants/api_typo/scenario.feature",
    ]);
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stdout,
        "ERROR  spec-tests/invalid/variants/api_typo: 1 action · 1 rule · no bots · 1 to 32 players · checked early: 1 of 1 action · 4 of 4 functions compiled (1 into their callers)
  × `topp` is not a function of the game: did you mean `top` (game.top(\"pile\"))? (no script defines it)
    ╭─[spec-tests/invalid/variants/api_typo/rules.rhai:17:21]
 16 │ fn on_draw(game, p, args) {
 17 │     let card = game.topp(\"deck\");
    ·                     ──────┬─────
    ·                           ╰── unknown function
 18 │     game.add_to_hand(card, p);
    ╰────
checked 1 variant and 1 file (1 scenario): 1 problem
"
    );
}

#[test]
fn check_finds_names_written_as_literals_that_the_variant_does_not_declare() {
    let run = deckspec(&[
        "check",
        "--rules",
        "spec-tests/invalid/variants",
        "spec-tests/invalid/variants/name_typo/scenario.feature",
    ]);
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stdout,
        "ERROR  spec-tests/invalid/variants/name_typo: 1 action · 1 rule · no bots · 1 to 32 players · checked early: 1 of 1 action · 4 of 4 functions compiled (1 into their callers)
  × `dekc` is not a pile of name_typo: did you mean `deck`?
    ╭─[spec-tests/invalid/variants/name_typo/rules.rhai:17:25]
 16 │ fn on_draw(game, p, args) {
 17 │     let card = game.top(\"dekc\");
    ·                         ───┬──
    ·                            ╰── not declared in variant.yaml
 18 │     game.add_to_hand(card, p);
    ╰────
  × `nots` is not a game variable of name_typo: did you mean `note`?
    ╭─[spec-tests/invalid/variants/name_typo/rules.rhai:19:14]
 18 │     game.add_to_hand(card, p);
 19 │     game.set(\"nots\", game.get(\"note\") + 1);
    ·              ───┬──
    ·                 ╰── not declared in variant.yaml
 20 │ }
    ╰────
checked 1 variant and 1 file (1 scenario): 2 problems
"
    );
}

/// `scenario` (of a fixture variant in tests/engines/rules) passes on each engine.
fn passes_on_both_engines(scenario: &str) {
    for engine in ["compiled", "interpreted"] {
        check(
            &[
                "test",
                "--rules",
                "tests/engines/rules",
                "--engine",
                engine,
                scenario,
            ],
            0,
            &["1 passed, 0 failed"],
        );
    }
}

#[test]
fn check_knows_a_module_function_may_call_the_loading_scripts_functions() {
    let scenario = "tests/engines/rules/calling_back/scenario.feature";
    let run = deckspec(&["check", "--rules", "tests/engines/rules", scenario]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout
            .contains("ok     tests/engines/rules/calling_back")
            && run.stdout.contains(": 0 problems"),
        "{}",
        run.stdout
    );
    passes_on_both_engines(scenario);
}

#[test]
fn check_names_the_functions_left_to_the_interpreter_and_both_engines_run_them() {
    let scenario = "tests/engines/rules/trying/scenario.feature";
    check(
        &["check", "--rules", "tests/engines/rules", scenario],
        0,
        &[
            "ok     tests/engines/rules/trying: 1 action · 1 rule · no bots · 1 to 32 players · checked early: 0 of 1 action · 2 of 4 functions compiled (1 into their callers)\n",
            "       interpreted: on_draw/3: calls `top_or_refuse/1`, which is interpreted\n",
            "       interpreted: top_or_refuse/1: `try` is not compiled (line 14)\n",
            "checked 1 variant and 1 file (1 scenario): 0 problems\n",
        ],
    );
    passes_on_both_engines(scenario);
    let run = deckspec(&["test", "--engine", "fast", scenario]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains(
            "invalid value 'fast' for '--engine <ENGINE>': there is no engine `fast`: the engines are `compiled` and `interpreted`"
        ),
        "{}",
        run.stderr
    );
}
