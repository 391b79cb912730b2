//! A spec suite: find `.feature` files, parse and check each one, run the scenarios that pass the
//! filters, and report per scenario, per file and as JUnit XML.

use super::ast::{Feature, Span, Tag};
use super::diag::{FileDiagnostic, Problem};
use super::runner::{self, Concrete, Failure, VariantProvider};
use super::tags::TagExpr;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

/// Which scenarios to run.
#[derive(Default)]
pub struct Filter {
    pub tags: Option<TagExpr>,
    /// Case-insensitive substring of the scenario name.
    pub name: Option<String>,
}

impl Filter {
    fn keeps(&self, scenario: &Concrete) -> bool {
        let tags: Vec<&str> = scenario.tags.iter().map(String::as_str).collect();
        self.tags.as_ref().is_none_or(|t| t.matches(&tags))
            && self
                .name
                .as_ref()
                .is_none_or(|n| scenario.name.to_lowercase().contains(&n.to_lowercase()))
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    Passed,
    Failed(Failure),
    /// Tagged `@skip` or `@wip`.
    Skipped,
}

#[derive(Clone, Debug)]
pub struct ScenarioResult {
    pub name: String,
    pub line: usize,
    pub tags: Vec<String>,
    pub outcome: Outcome,
    pub duration: Duration,
}

/// Everything about one file.
#[derive(Clone, Debug)]
pub struct FileResult {
    pub path: String,
    pub src: Arc<String>,
    pub feature: Option<String>,
    /// Parse errors and static-check errors: the file was not run.
    pub problems: Vec<Problem>,
    pub scenarios: Vec<ScenarioResult>,
}

impl FileResult {
    pub fn diagnostics(&self) -> Vec<FileDiagnostic> {
        self.problems
            .iter()
            .map(|p| FileDiagnostic::new(&self.path, self.src.clone(), p.clone()))
            .collect()
    }

    /// A failure as a diagnostic on the failing step.
    pub fn failure_diagnostic(&self, f: &Failure) -> FileDiagnostic {
        let mut help = Vec::new();
        if let Some(e) = &f.expected {
            help.push(format!("expected: {e}"));
        }
        if let Some(found) = &f.found {
            help.push(format!("found:    {found}"));
        }
        let problem =
            Problem::new(f.message.clone(), f.span, "this step").with_help(if help.is_empty() {
                None
            } else {
                Some(help.join("\n"))
            });
        FileDiagnostic::new(&self.path, self.src.clone(), problem)
    }
}

/// The `.feature` files under the given paths, sorted. Folders named `invalid` are skipped
/// (they hold files that must fail); a file named directly is always taken.
pub fn feature_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut out = Vec::new();
    for path in paths {
        if path.is_file() {
            out.push(path.clone());
        } else if path.is_dir() {
            walk(path, &mut out).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        } else {
            return Err(format!("{} does not exist", path.display()));
        }
    }
    out.sort();
    out.dedup();
    Ok(out)
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            if path.file_name().is_some_and(|n| n != "invalid") {
                walk(&path, out)?;
            }
        } else if path.extension().is_some_and(|e| e == "feature") {
            out.push(path);
        }
    }
    Ok(())
}

/// Parse and check a file without running it: its problems (parse, names, rule tags).
pub fn check_file(
    src: &str,
    provider: &dyn VariantProvider,
) -> (Option<Feature>, Vec<Concrete>, Vec<Problem>) {
    let feature = match super::parse::parse_feature(src) {
        Ok(f) => f,
        Err(problems) => return (None, Vec::new(), problems),
    };
    let (scenarios, mut problems) = runner::expand(&feature);
    let tags = scenario_tags(&feature);
    for scenario in &scenarios {
        let spans: Vec<Tag> = tags
            .iter()
            .filter(|(span, _)| *span == scenario.span)
            .flat_map(|(_, t)| t.iter().cloned())
            .collect();
        for p in runner::check(scenario, provider, &spans) {
            // A variant that does not load is one problem per file, not one per scenario.
            let repeat = p.message.starts_with("variant `")
                && problems.iter().any(|q: &Problem| q.message == p.message);
            if !repeat && !problems.contains(&p) {
                problems.push(p);
            }
        }
    }
    problems.sort_by_key(|p| p.span.start);
    (Some(feature), scenarios, problems)
}

/// The tags written on each scenario (and its Examples), by the scenario's span.
fn scenario_tags(feature: &Feature) -> Vec<(Span, Vec<Tag>)> {
    let mut out = Vec::new();
    let all = feature
        .scenarios
        .iter()
        .chain(feature.rules.iter().flat_map(|r| r.scenarios.iter()));
    for s in all {
        let mut tags = s.tags.clone();
        tags.extend(s.examples.iter().flat_map(|e| e.tags.iter().cloned()));
        out.push((s.span, tags));
    }
    out
}

/// Parse, check and run one file.
pub fn run_file(
    path: &str,
    src: Arc<String>,
    provider: &dyn VariantProvider,
    filter: &Filter,
) -> FileResult {
    let (feature, scenarios, problems) = check_file(&src, provider);
    let mut result = FileResult {
        path: path.to_string(),
        src: src.clone(),
        feature: feature.as_ref().map(|f| f.name.clone()),
        problems,
        scenarios: Vec::new(),
    };
    if !result.problems.is_empty() {
        return result;
    }
    for scenario in scenarios.iter().filter(|s| filter.keeps(s)) {
        let line = super::diag::line_col(&src, scenario.span.start).0;
        let started = std::time::Instant::now();
        let outcome = if scenario.tags.iter().any(|t| t == "skip" || t == "wip") {
            Outcome::Skipped
        } else {
            match runner::run(scenario, provider) {
                Ok(()) => Outcome::Passed,
                Err(f) => Outcome::Failed(f),
            }
        };
        result.scenarios.push(ScenarioResult {
            name: scenario.name.clone(),
            line,
            tags: scenario.tags.clone(),
            outcome,
            duration: started.elapsed(),
        });
    }
    result
}

/// Totals over a suite.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Totals {
    pub passed: usize,
    pub failed: usize,
    pub skipped: usize,
    /// Files that could not be parsed or checked.
    pub broken_files: usize,
}

impl Totals {
    pub fn of(results: &[FileResult]) -> Totals {
        let mut t = Totals::default();
        for r in results {
            if !r.problems.is_empty() {
                t.broken_files += 1;
            }
            for s in &r.scenarios {
                match s.outcome {
                    Outcome::Passed => t.passed += 1,
                    Outcome::Failed(_) => t.failed += 1,
                    Outcome::Skipped => t.skipped += 1,
                }
            }
        }
        t
    }

    /// The closing line: `N passed, N failed` and `, N skipped` when any were skipped.
    pub fn line(&self) -> String {
        let mut line = format!("{} passed, {} failed", self.passed, self.failed);
        if self.skipped > 0 {
            line.push_str(&format!(", {} skipped", self.skipped));
        }
        line
    }

    /// 2 when a file could not be parsed or a variant loaded, 1 when a scenario failed, else 0.
    pub fn exit_code(&self) -> i32 {
        if self.broken_files > 0 {
            2
        } else if self.failed > 0 {
            1
        } else {
            0
        }
    }
}

/// JUnit XML: one testsuite per Feature (file), one testcase per scenario.
pub fn junit(results: &[FileResult]) -> String {
    use quick_junit::{NonSuccessKind, Report, TestCase, TestCaseStatus, TestSuite};
    let mut report = Report::new("deckspec");
    for file in results {
        let mut suite = TestSuite::new(file.feature.clone().unwrap_or_else(|| file.path.clone()));
        suite.add_property(quick_junit::Property::new("file", file.path.clone()));
        for problem in file.diagnostics() {
            let mut status = TestCaseStatus::non_success(NonSuccessKind::Error);
            status.set_message(problem.message.clone());
            status.set_description(problem.short());
            let mut case = TestCase::new(format!("{} (file)", file.path), status);
            case.set_classname(file.path.clone());
            suite.add_test_case(case);
        }
        for s in &file.scenarios {
            let status = match &s.outcome {
                Outcome::Passed => TestCaseStatus::success(),
                Outcome::Skipped => TestCaseStatus::skipped(),
                Outcome::Failed(f) => {
                    let mut status = TestCaseStatus::non_success(NonSuccessKind::Failure);
                    status.set_message(f.message.clone());
                    status.set_description(file.failure_diagnostic(f).short());
                    status
                }
            };
            let mut case = TestCase::new(s.name.clone(), status);
            case.set_classname(format!("{}:{}", file.path, s.line));
            case.set_time(s.duration);
            suite.add_test_case(case);
        }
        report.add_test_suite(suite);
    }
    report.to_string().unwrap_or_default()
}
