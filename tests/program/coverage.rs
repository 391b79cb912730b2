//! `deckspec coverage` on the `tally` fixture (`tests/coverage/`): the summary, lcov tracefile
//! and rules trace match the expected files beside it; a line no scenario runs is reported as not
//! covered (and becomes covered when its scenario is added); the page renders in a real browser;
//! genhtml reads the tracefile; the bundled rules' counts are consistent; bad arguments fail
//! clearly. `UPDATE_EXPECT=1 cargo test --test program coverage::` rewrites the expected files.

use crate::common::browser;

use deckspec::coverage::{CoverageReport, FileCoverage, measure};
use std::path::{Path, PathBuf};
use std::process::Command;

const FIXTURE: &str = "tests/coverage";
const SCRIPT: &str = "tests/coverage/rules/tally/tally.rhai";

fn deckspec(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_deckspec"))
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("deckspec runs")
}

/// `deckspec coverage` on the fixture's rules, with these scenarios and arguments.
fn coverage(specs: &str, extra: &[&str]) -> std::process::Output {
    let mut args = vec![
        "coverage",
        "--rules",
        "tests/coverage/rules",
        "--specs",
        specs,
    ];
    args.extend(extra);
    deckspec(&args)
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Compare with an expected file, or rewrite it under `UPDATE_EXPECT=1`.
fn check(actual: &str, expected_file: &str) {
    let path = Path::new(FIXTURE).join(expected_file);
    if std::env::var_os("UPDATE_EXPECT").is_some() {
        std::fs::write(&path, actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (UPDATE_EXPECT=1 writes it)", path.display()));
    assert_eq!(
        actual,
        expected,
        "{} differs (UPDATE_EXPECT=1 rewrites it)",
        path.display()
    );
}

/// The run's wall-clock time is the one thing that changes between runs.
fn without_time(summary: &str) -> String {
    summary
        .lines()
        .map(|line| match line.rfind(" scenarios, ") {
            Some(at) if line.starts_with("coverage of ") => format!("{}, T s", &line[..at + 10]),
            _ => line.to_string(),
        })
        .collect::<Vec<_>>()
        .join("\n")
        + "\n"
}

fn fixture_specs_without(scenario: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let full = std::fs::read_to_string(Path::new(FIXTURE).join("specs/tally.feature")).unwrap();
    // Scenarios are separated by blank lines; drop the one with this name (and its tags).
    let kept: Vec<&str> = full
        .split("\n\n")
        .filter(|block| !block.contains(&format!("Scenario: {scenario}")))
        .collect();
    assert_eq!(
        kept.len() + 1,
        full.split("\n\n").count(),
        "no scenario {scenario}"
    );
    let path = dir.path().join("tally.feature");
    std::fs::write(&path, kept.join("\n\n")).unwrap();
    (dir, path)
}

fn measure_fixture(specs: &Path) -> CoverageReport {
    measure(
        &Path::new(FIXTURE).join("rules"),
        &[],
        &[specs.to_path_buf()],
        &|_, _| {},
    )
    .unwrap()
}

fn tally_file(report: &CoverageReport) -> &FileCoverage {
    report.files.iter().find(|f| f.path == SCRIPT).unwrap()
}

fn hits(file: &FileCoverage, line: u32) -> u64 {
    file.lines
        .iter()
        .find(|l| l.line == line)
        .unwrap_or_else(|| panic!("line {line} is not a runnable line"))
        .hits
}

#[test]
fn summary_lcov_and_trace_match_the_expected_files() {
    let dir = tempfile::tempdir().unwrap();
    let lcov = dir.path().join("tally.info");
    let out = coverage(
        "tests/coverage/specs",
        &["--trace", "--lcov", lcov.to_str().unwrap()],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let summary = text(&out.stdout).replace(lcov.to_str().unwrap(), "TALLY.info");
    check(&without_time(&summary), "expected.txt");
    check(&std::fs::read_to_string(&lcov).unwrap(), "expected.info");
}

#[test]
fn a_line_no_scenario_runs_is_reported_as_not_covered() {
    let full = measure_fixture(&Path::new(FIXTURE).join("specs"));
    // `game.end(…)` and the `return` after it run only when the deck is empty.
    assert_eq!(hits(tally_file(&full), 18), 1);
    assert_eq!(hits(tally_file(&full), 19), 1);

    let (_dir, weak) = fixture_specs_without("the last card is drawn, then the deck is empty");
    let report = measure_fixture(&weak);
    let file = tally_file(&report);
    assert_eq!((hits(file, 18), hits(file, 19)), (0, 0));
    let on_draw = file.functions.iter().find(|f| f.name == "on_draw").unwrap();
    assert_eq!(on_draw.missed_lines, vec![18, 19]);
    let lcov = deckspec::coverage::lcov::tracefile(&report, "weak");
    assert!(lcov.contains("\nDA:18,0\nDA:19,0\n"), "{lcov}");
    // The `if card == ()` was evaluated, its `then` never taken.
    assert!(lcov.contains("\nBRDA:17,1,0,0\nBRDA:17,1,1,4\n"), "{lcov}");
    // And the rule whose scenario it was has none left.
    let rule = report.rules.iter().find(|r| r.id == "TAL-3").unwrap();
    assert!(rule.scenarios.is_empty() && rule.own_lines.is_empty());

    // The CLI says so in its summary.
    let out = coverage(weak.to_str().unwrap(), &[]);
    let summary = text(&out.stdout);
    let line = summary
        .lines()
        .find(|l| l.trim_start().starts_with("on_draw "))
        .unwrap();
    assert!(
        line.contains("not run: 18-19") && line.contains("arms not taken: 17 if then"),
        "{summary}"
    );
}

#[test]
fn the_rules_trace_names_the_lines_only_a_rules_scenarios_run() {
    let report = measure_fixture(&Path::new(FIXTURE).join("specs"));
    let trace = |id: &str| report.rules.iter().find(|r| r.id == id).unwrap();
    let own = |id: &str| -> Vec<u32> { trace(id).own_lines.iter().map(|l| l.line).collect() };
    // Court cards are counted only in TAL-2's scenarios (one of them also TAL-1's).
    assert_eq!(own("TAL-2"), vec![29, 30]);
    assert_eq!(own("TAL-3"), vec![18, 19]);
    // Every line TAL-1's scenarios run, TAL-2's or TAL-3's run too.
    assert_eq!(own("TAL-1"), Vec::<u32>::new());
    assert_eq!(trace("TAL-1").scenarios.len(), 2);
    assert!(trace("TAL-4").scenarios.is_empty());
    assert!(trace("TAL-2").scenarios[0].starts_with("tests/coverage/specs/tally.feature:14 "));
}

#[test]
fn the_page_renders_each_lines_count_in_a_headless_browser() {
    let Some(binary) = browser::chromium("the coverage page test") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let html = dir.path().join("html");
    let out = coverage("tests/coverage/specs", &["--html", html.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let page = html.join("index.html");
    let source = std::fs::read_to_string(&page).unwrap();
    assert!(
        !source.contains("http://") && !source.contains("https://") && !source.contains("src="),
        "the page loads nothing"
    );
    let mut b = browser::Browser::start(&binary);
    b.navigate(&format!("file://{}", page.display()));
    b.wait_for(
        "document.readyState === 'complete'",
        "the page",
        std::time::Duration::from_secs(10),
    );
    let mut line = |n: u32, what: &str| {
        b.eval(&format!(
            "(() => {{ const l = document.getElementById('tests-coverage-rules-tally-tally-rhai-{n}'); return {what}; }})()"
        ))
    };
    // A line that ran, one that did not, and and one with no statement (blank).
    assert_eq!(line(13, "l.className"), "l hit");
    assert_eq!(line(13, "l.querySelector('.c').textContent.trim()"), "8");
    assert_eq!(line(38, "l.className"), "l miss");
    assert_eq!(line(38, "l.querySelector('.c').textContent.trim()"), "0");
    assert_eq!(line(36, "l.className"), "l ");
    let red = line(38, "getComputedStyle(l).backgroundColor");
    let green = line(13, "getComputedStyle(l).backgroundColor");
    assert_ne!(red, green, "missed and run lines look different");
    // The never-called `switch` is marked 0 of 3 arms.
    assert_eq!(line(38, "l.querySelector('.br').textContent"), "0/3");
    assert_eq!(line(37, "l.querySelector('.br') === null"), true);
    // The rules trace links to the lines only TAL-2's, then TAL-3's, scenarios run.
    let link = b.eval(
        "[...document.querySelectorAll('table.rules a')].map(a => a.getAttribute('href')).join(' ')",
    );
    assert_eq!(
        link,
        "#tests-coverage-rules-tally-tally-rhai-29 #tests-coverage-rules-tally-tally-rhai-18"
    );
}

#[test]
fn genhtml_reads_the_tracefile() {
    let Some(genhtml) = which("genhtml") else {
        assert!(
            std::env::var_os("DECKSPEC_REQUIRE_GENHTML").is_none(),
            "genhtml is required here (DECKSPEC_REQUIRE_GENHTML) but not installed"
        );
        // Straight to the terminal: the test harness captures `eprintln!`, and would hide it.
        use std::io::Write;
        let _ = writeln!(
            std::io::stderr(),
            "SKIPPED genhtml_reads_the_tracefile: genhtml is not installed (apt-get install lcov)"
        );
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let lcov = dir.path().join("tally.info");
    let out = coverage("tests/coverage/specs", &["--lcov", lcov.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0));
    let out = Command::new(genhtml)
        .args(["--branch-coverage", "--quiet", "--output-directory"])
        .arg(dir.path().join("genhtml"))
        .arg(&lcov)
        .output()
        .unwrap();
    let said = format!("{}{}", text(&out.stdout), text(&out.stderr));
    assert!(out.status.success(), "genhtml failed: {said}");
    assert!(
        dir.path().join("genhtml/index.html").is_file(),
        "no page: {said}"
    );
    let summary = Command::new(which("lcov").unwrap())
        .args(["--summary", "--rc", "lcov_branch_coverage=1"])
        .arg(&lcov)
        .output()
        .unwrap();
    let summary = format!("{}{}", text(&summary.stdout), text(&summary.stderr));
    assert!(summary.contains("84.2% (16 of 19 lines)"), "{summary}");
    assert!(summary.contains("66.7% (4 of 6 functions)"), "{summary}");
    assert!(summary.contains("70.0% (7 of 10 branches)"), "{summary}");
}

fn which(name: &str) -> Option<PathBuf> {
    let out = Command::new("which").arg(name).output().ok()?;
    out.status
        .success()
        .then(|| PathBuf::from(text(&out.stdout).trim()))
}

/// The bundled rules: every script measured, every rule traced, and the counts agree with each
/// other (the arms of an `if` or `switch` are taken no more often than it runs).
#[test]
fn the_bundled_rules_counts_are_consistent() {
    let report = measure(
        Path::new("rules"),
        &[],
        &[PathBuf::from("spec-tests")],
        &|_, _| {},
    )
    .unwrap();
    assert!(report.failed.is_empty(), "{:?}", report.failed);
    let paths: Vec<&str> = report.files.iter().map(|f| f.path.as_str()).collect();
    // Every rule script of every variant in rules/ (bot scripts are not measured).
    let mut scripts: Vec<String> = std::fs::read_dir("rules")
        .unwrap()
        .flat_map(|d| std::fs::read_dir(d.unwrap().path()).into_iter().flatten())
        .map(|f| f.unwrap().path().display().to_string())
        .filter(|p| p.ends_with(".rhai") && !p.ends_with("/bots.rhai"))
        .collect();
    scripts.sort();
    assert_eq!(paths, scripts);
    for file in &report.files {
        assert!(file.line_tally.percent() > 90.0, "{}", file.path);
        for b in &file.branches {
            let taken: u64 = b.arms.iter().filter_map(|a| a.taken).sum();
            assert!(
                taken <= b.hits,
                "{}:{}: arms taken {taken} times, the {} ran {}",
                file.path,
                b.line,
                b.kind,
                b.hits
            );
        }
        let setup = file.functions.iter().find(|f| f.name == "setup").unwrap();
        assert!(setup.calls > 0, "{}: setup never ran", file.path);
    }
    let rulebook_rules: usize = deckspec::script::variant_names(Path::new("rules"))
        .iter()
        .map(|v| {
            deckspec::script::Variant::load_named(Path::new("rules"), v)
                .unwrap()
                .rulebook
                .rules
                .len()
        })
        .sum();
    assert_eq!(report.rules.len(), rulebook_rules);
}

#[test]
fn bad_arguments_and_a_weak_suite_fail_clearly() {
    let run = |extra: &[&str]| {
        let out = coverage("tests/coverage/specs", extra);
        (out.status.code(), text(&out.stderr))
    };
    assert_eq!(
        run(&["--min-lines", "101"]),
        (
            Some(2),
            "error: --min-lines is a percentage from 0 to 100, not 101\n".into()
        )
    );
    assert_eq!(
        run(&["--min-lines", "90", "--min-branches", "70"]),
        (Some(1), "lines: 84.2% ran, below --min-lines 90\n".into())
    );
    assert_eq!(
        run(&["--min-lines", "84", "--min-branches", "70"]).0,
        Some(0)
    );
    let (code, err) = run(&["talley"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("did you mean `tally`?"), "{err}");
    let (code, err) = run(&["--lcov", "/nonexistent/dir/x.info"]);
    assert_eq!(code, Some(2));
    assert!(
        err.starts_with("error: cannot write /nonexistent/dir/x.info: "),
        "{err}"
    );

    // A failing scenario: still measured, and the run fails.
    let dir = tempfile::tempdir().unwrap();
    let failing = dir.path().join("failing.feature");
    std::fs::write(
        &failing,
        "Feature: f\n  Scenario: wrong count\n    Given a tally game with players ann, bob\n    When ann does draw\n    Then ann holds 9 cards\n",
    )
    .unwrap();
    let out = coverage(failing.to_str().unwrap(), &[]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("1 scenario failed (`deckspec test` shows why)"),
        "{}",
        text(&out.stderr)
    );
    assert!(
        text(&out.stdout).contains(&format!("  failed: {}:2 wrong count: ", failing.display())),
        "{}",
        text(&out.stdout)
    );

    // A scenario file that does not parse: pointed at, nothing measured.
    let broken = dir.path().join("broken.feature");
    std::fs::write(
        &broken,
        "Feature: f\n  Scenario: s\n    Given a tally game with players ann\n    Whenever\n",
    )
    .unwrap();
    let out = coverage(broken.to_str().unwrap(), &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).starts_with(&format!("error: {}:", broken.display())),
        "{}",
        text(&out.stderr)
    );
}

/// `--ratchet` holds each variant to its own `spec-strength.yaml`: told what it reached with no
/// record, failed below it, told to raise it above it; a malformed record is an error.
#[test]
fn the_ratchet_holds_a_variant_to_its_own_coverage_record() {
    let dir = tempfile::tempdir().unwrap();
    let rules = dir.path().join("rules");
    let tally = rules.join("tally");
    std::fs::create_dir_all(&tally).unwrap();
    for entry in std::fs::read_dir("tests/coverage/rules/tally").unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), tally.join(entry.file_name())).unwrap();
    }
    let record = tally.join("spec-strength.yaml");
    let run = || {
        let out = deckspec(&[
            "coverage",
            "--ratchet",
            "--rules",
            rules.to_str().unwrap(),
            "--specs",
            "tests/coverage/specs",
        ]);
        (out.status.code(), text(&out.stderr))
    };
    let (code, err) = run();
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains("tally: lines 84.2%, branches "), "{err}");
    assert!(
        err.contains(
            "tally: no line_coverage record yet: it reached 84.21%; write `line_coverage: 84.2`"
        ),
        "{err}"
    );
    std::fs::write(&record, "line_coverage: 90\nbranch_coverage: 1\n").unwrap();
    let (code, err) = run();
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("tally: line_coverage 84.2% fell below its record 90"),
        "{err}"
    );
    assert!(
        err.contains("is above its record 1: raise `branch_coverage`"),
        "{err}"
    );
    std::fs::write(&record, "line_coverage: 84.2\n").unwrap();
    assert_eq!(run().0, Some(0));
    std::fs::write(&record, "line_coverage: [1]\n").unwrap();
    let (code, err) = run();
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("spec-strength.yaml: line_coverage"), "{err}");
}
