//! A spec suite: find `.feature` files, parse and check each one, run the scenarios that pass the
//! filters, and report per scenario, per file and as JUnit XML.

use super::ast::{Feature, Span, Tag};
use super::diag::{FileDiagnostic, LineIndex, Problem, SourceLines};
use super::limits::{MAX_FILE_BYTES, MAX_PROBLEMS_PER_FILE};
use super::runner::{self, Concrete, Failure, Unavailable, VariantProvider};
use super::tags::TagExpr;
use std::collections::{HashMap, HashSet};
use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

/// Which scenarios to run.
#[derive(Default)]
pub struct Filter {
    /// A tag expression (`@a and not @b`) that a scenario's tags, inherited ones included, must
    /// match.
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

/// How a scenario ended.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// Every step held.
    Passed,
    /// A step failed: which, and why.
    Failed(Failure),
    /// Tagged `@skip` or `@wip`.
    Skipped,
}

/// One scenario that ran (or was skipped).
#[derive(Clone, Debug)]
pub struct ScenarioResult {
    /// Its name; an outline row's ends with ` (n)`.
    pub name: String,
    /// The 1-based line of its `Scenario:` line.
    pub line: usize,
    /// Its tags, inherited ones included, without `@`.
    pub tags: Vec<String>,
    /// How it ended.
    pub outcome: Outcome,
    /// The wall-clock time it took.
    pub duration: Duration,
}

/// Everything about one file.
#[derive(Clone, Debug)]
pub struct FileResult {
    /// The file, as reports name it.
    pub path: String,
    /// The file's text.
    pub src: Arc<String>,
    /// The lines of `src`, indexed once for all its diagnostics.
    pub lines: Arc<SourceLines>,
    /// The `Feature:` name, when the file parsed.
    pub feature: Option<String>,
    /// Parse errors and static-check errors (or why the file could not be read): not run.
    pub problems: Vec<Problem>,
    /// The scenarios the file holds (outlines once per row), whether or not they were run.
    pub found: usize,
    /// Scenarios the filters selected that did not run: all of them when the file has problems,
    /// else those whose variant does not load.
    pub did_not_run: usize,
    /// The variants that do not load, each with why and how many of this file's scenarios it
    /// kept from running.
    pub unloaded: Vec<Unloaded>,
    /// The scenarios that ran or were skipped, in file order.
    pub scenarios: Vec<ScenarioResult>,
}

/// A variant that does not load, as one file met it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unloaded {
    /// The variant's name.
    pub variant: String,
    /// The load error in one line.
    pub reason: String,
    /// Scenarios of the file (selected by the filters) that need it.
    pub scenarios: usize,
}

impl FileResult {
    /// A file that was not run: its problems only.
    pub fn not_run(path: &str, src: Arc<String>, problems: Vec<Problem>) -> FileResult {
        FileResult {
            path: path.to_string(),
            lines: Arc::new(SourceLines::new(&src)),
            src,
            feature: None,
            problems,
            found: 0,
            did_not_run: 0,
            unloaded: Vec::new(),
            scenarios: Vec::new(),
        }
    }

    /// Whether nothing of this file ran: it has problems, or every scenario it was to run needs
    /// a variant that does not load.
    pub fn could_not_run(&self) -> bool {
        !self.problems.is_empty() || (self.did_not_run > 0 && self.scenarios.is_empty())
    }

    fn diagnostic(&self, problem: Problem) -> FileDiagnostic {
        FileDiagnostic::with_lines(&self.path, self.src.clone(), self.lines.clone(), problem)
    }

    /// The file's problems as diagnostics.
    pub fn diagnostics(&self) -> Vec<FileDiagnostic> {
        self.problems
            .iter()
            .map(|p| self.diagnostic(p.clone()))
            .collect()
    }

    /// A failure as a diagnostic on the failing step.
    pub fn failure_diagnostic(&self, f: &Failure) -> FileDiagnostic {
        let mut help = Vec::new();
        // A text of several lines (the differences of a `receives:` event) lines up after its
        // label.
        let indented = |text: &str| text.replace('\n', "\n          ");
        if let Some(e) = &f.expected {
            help.push(format!("expected: {}", indented(e)));
        }
        if let Some(found) = &f.found {
            help.push(format!("found:    {}", indented(found)));
        }
        let problem =
            Problem::new(f.message.clone(), f.span, "this step").with_help(if help.is_empty() {
                None
            } else {
                Some(help.join("\n"))
            });
        self.diagnostic(problem)
    }
}

/// A scenario file as read from disk: its text, or the problem that stops it from being parsed
/// (too big, not UTF-8, unreadable). The text of a file that is not UTF-8 is its bytes with each
/// invalid sequence replaced by `U+FFFD`, so the problem can be shown in context.
pub struct Loaded {
    /// The file's text (empty when it could not be read or is too big).
    pub src: Arc<String>,
    /// Why it cannot be parsed; `None` when it can.
    pub problem: Option<Problem>,
}

/// Read a scenario file, at most `MAX_FILE_BYTES` of it.
pub fn load_file(path: &Path) -> Loaded {
    let fail = |src: String, problem: Problem| Loaded {
        src: Arc::new(src),
        problem: Some(problem),
    };
    let mut bytes = Vec::new();
    let read = std::fs::File::open(path)
        .and_then(|file| file.take(MAX_FILE_BYTES as u64 + 1).read_to_end(&mut bytes));
    if let Err(e) = read {
        return fail(
            String::new(),
            Problem::new(
                format!("cannot read this file: {e}"),
                Span::default(),
                "unreadable",
            ),
        );
    }
    if bytes.len() > MAX_FILE_BYTES {
        return fail(String::new(), super::parse::file_too_big());
    }
    match String::from_utf8(bytes) {
        Ok(src) => Loaded {
            src: Arc::new(src),
            problem: None,
        },
        Err(e) => {
            let at = e.utf8_error().valid_up_to();
            let bytes = e.into_bytes();
            let src = String::from_utf8_lossy(&bytes).into_owned();
            // The text before the first bad byte is the same in `src`, which has U+FFFD there.
            let (line, column) = LineIndex::new(&src).line_col(&src, at);
            let problem = Problem::new(
                format!(
                    "this file is not UTF-8: byte {at} (line {line}, column {column}) is 0x{:02X}, which does not start a character",
                    bytes[at]
                ),
                Span::new(at, at + '\u{FFFD}'.len_utf8()),
                "not UTF-8",
            )
            .with_help(Some("save the file as UTF-8".into()));
            fail(src, problem)
        }
    }
}

/// The `.feature` files under the given paths, sorted. Folders named `invalid` are skipped
/// (they hold files that must fail); a `.feature` file named directly is always taken, and any
/// other file named directly is an error.
pub fn feature_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut out = Vec::new();
    for path in paths {
        if path.is_file() {
            if path.extension().is_none_or(|e| e != "feature") {
                return Err(format!(
                    "{} is not a scenario file: scenario files end in `.feature` (name a folder to run every `.feature` file under it)",
                    path.display()
                ));
            }
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

/// Parse and check a file without running it: its problems (parse, names, rule tags, cards),
/// in file order, at most `MAX_PROBLEMS_PER_FILE` of them and then one that counts the rest.
/// A variant that does not load is a problem of the file (once).
pub fn check_file(
    src: &str,
    provider: &dyn VariantProvider,
) -> (Option<Feature>, Vec<Concrete>, Vec<Problem>) {
    let checked = check_parts(src, provider, false);
    (checked.feature, checked.scenarios, checked.problems)
}

/// A file parsed and checked, ready to run.
pub struct Checked {
    /// The file's feature, if its structure could be read.
    pub feature: Option<Feature>,
    /// Its scenarios, backgrounds and outline rows expanded.
    pub scenarios: Vec<Concrete>,
    /// In file order, capped at `MAX_PROBLEMS_PER_FILE` (and one that counts the rest).
    pub problems: Vec<Problem>,
    /// Per scenario of `scenarios`: the variant it needs, when that variant exists but does not
    /// load, and the load error in one line. Such a scenario is neither checked nor run.
    pub unloadable: Vec<Option<(String, String)>>,
}

/// Parse and check a file for running it: like [`check_file`], except that a scenario whose
/// variant does not load is set aside in `unloadable` instead of being a problem of the file
/// (the variant's own error is reported once for the whole run).
pub fn check_for_run(src: &str, provider: &dyn VariantProvider) -> Checked {
    check_parts(src, provider, true)
}

fn check_parts(src: &str, provider: &dyn VariantProvider, set_aside: bool) -> Checked {
    let (feature, mut problems) = super::parse::parse_feature_partly(src);
    let Some(feature) = feature else {
        return Checked {
            feature: None,
            scenarios: Vec::new(),
            problems: capped(problems),
            unloadable: Vec::new(),
        };
    };
    let lines = LineIndex::new(src);
    // A parse problem inside a scenario (or its Background) may have cost it a step: it is
    // checked only for what a missing step cannot change, and the outline rows the parser
    // already reported are not reported again by the expansion.
    let blocks = Blocks::of(&feature);
    let broken: HashSet<usize> = problems.iter().map(|p| blocks.at(p.span.start)).collect();
    let (scenarios, expanded) = runner::expand(&feature);
    problems.extend(
        expanded
            .into_iter()
            .filter(|p| !broken.contains(&blocks.at(p.span.start))),
    );
    let tags = scenario_tags(&feature);
    let mut seen: HashSet<Problem> = problems.iter().cloned().collect();
    let mut unloadable_names = HashSet::new();
    let mut unloadable = Vec::with_capacity(scenarios.len());
    for scenario in &scenarios {
        if set_aside
            && let Some(variant) = runner::variant_of(scenario)
            && let Err(Unavailable::Broken(reason)) = provider.variant(&variant.node)
        {
            unloadable.push(Some((variant.node.clone(), reason)));
            continue;
        }
        unloadable.push(None);
        let complete = blocks
            .of_scenario(scenario.span)
            .iter()
            .all(|b| !broken.contains(b));
        let spans = tags.get(&scenario.span).map_or(&[][..], Vec::as_slice);
        for p in runner::check(scenario, provider, spans, &lines, complete) {
            // A variant that does not load is one problem per file, not one per scenario.
            if p.message.starts_with("variant `") && !unloadable_names.insert(p.message.clone()) {
                continue;
            }
            if seen.insert(p.clone()) {
                problems.push(p);
            }
        }
    }
    problems.sort_by_key(|p| p.span.start);
    Checked {
        feature: Some(feature),
        scenarios,
        problems: capped(problems),
        unloadable,
    }
}

/// The parts of a feature a parse problem can fall in: each Background and each Scenario runs
/// from its heading to the next heading (the Feature's and Rules' own text are parts too).
struct Blocks {
    /// Where each part starts, sorted.
    starts: Vec<usize>,
    /// For each scenario (by its span), the parts it is made of: its own, and its Backgrounds'.
    scenarios: HashMap<Span, Vec<usize>>,
}

impl Blocks {
    fn of(feature: &Feature) -> Blocks {
        let mut starts = vec![0, feature.span.start];
        let mut scenarios = HashMap::new();
        let mut add =
            |background: &[usize], list: &[super::ast::Scenario], starts: &mut Vec<usize>| {
                for s in list {
                    starts.push(s.span.start);
                    let mut parts = background.to_vec();
                    parts.push(s.span.start);
                    scenarios.insert(s.span, parts);
                }
            };
        let feature_bg: Vec<usize> = feature.background.iter().map(|b| b.span.start).collect();
        starts.extend(&feature_bg);
        add(&feature_bg, &feature.scenarios, &mut starts);
        for rule in &feature.rules {
            starts.push(rule.span.start);
            let mut bg = feature_bg.clone();
            bg.extend(rule.background.iter().map(|b| b.span.start));
            starts.extend(rule.background.iter().map(|b| b.span.start));
            add(&bg, &rule.scenarios, &mut starts);
        }
        starts.sort_unstable();
        starts.dedup();
        Blocks { starts, scenarios }
    }

    /// The start of the part holding byte `at`.
    fn at(&self, at: usize) -> usize {
        let i = self.starts.partition_point(|&s| s <= at);
        self.starts[i.saturating_sub(1)]
    }

    fn of_scenario(&self, span: Span) -> &[usize] {
        self.scenarios.get(&span).map_or(&[], Vec::as_slice)
    }
}

/// At most `MAX_PROBLEMS_PER_FILE` problems, then one that says how many more there are.
fn capped(mut problems: Vec<Problem>) -> Vec<Problem> {
    if problems.len() > MAX_PROBLEMS_PER_FILE {
        let more = problems.len() - MAX_PROBLEMS_PER_FILE;
        let span = problems[MAX_PROBLEMS_PER_FILE].span;
        problems.truncate(MAX_PROBLEMS_PER_FILE);
        problems.push(
            Problem::new(
                if more == 1 {
                    "1 more problem in this file is not shown".to_string()
                } else {
                    format!("{more} more problems in this file are not shown")
                },
                span,
                "the next one",
            )
            .with_help(Some(format!(
                "only the first {MAX_PROBLEMS_PER_FILE} problems of a file are reported: fix them and run again"
            ))),
        );
    }
    problems
}

/// The tags written on each scenario (and its Examples), by the scenario's span.
fn scenario_tags(feature: &Feature) -> HashMap<Span, Vec<Tag>> {
    let mut out: HashMap<Span, Vec<Tag>> = HashMap::new();
    let all = feature
        .scenarios
        .iter()
        .chain(feature.rules.iter().flat_map(|r| r.scenarios.iter()));
    for s in all {
        let tags = out.entry(s.span).or_default();
        tags.extend(s.tags.iter().cloned());
        tags.extend(s.examples.iter().flat_map(|e| e.tags.iter().cloned()));
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
    run_file_until(path, src, provider, filter, false)
}

/// Like [`run_file`]; with `fail_fast`, the scenarios after the first that fails are not run
/// (nor counted).
pub fn run_file_until(
    path: &str,
    src: Arc<String>,
    provider: &dyn VariantProvider,
    filter: &Filter,
    fail_fast: bool,
) -> FileResult {
    let checked = check_for_run(&src, provider);
    let mut result = FileResult::not_run(path, src, checked.problems);
    result.feature = checked.feature.as_ref().map(|f| f.name.clone());
    result.found = checked.scenarios.len();
    let selected = checked
        .scenarios
        .iter()
        .zip(&checked.unloadable)
        .filter(|(s, _)| filter.keeps(s));
    if !result.problems.is_empty() {
        result.did_not_run = selected.count();
        return result;
    }
    for (scenario, unloadable) in selected {
        if let Some((variant, reason)) = unloadable {
            result.did_not_run += 1;
            match result.unloaded.iter_mut().find(|u| &u.variant == variant) {
                Some(u) => u.scenarios += 1,
                None => result.unloaded.push(Unloaded {
                    variant: variant.clone(),
                    reason: reason.clone(),
                    scenarios: 1,
                }),
            }
            continue;
        }
        let line = result.lines.index.line(scenario.span.start);
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
        if fail_fast
            && matches!(result.scenarios.last(), Some(s) if matches!(s.outcome, Outcome::Failed(_)))
        {
            break;
        }
    }
    result
}

/// Totals over a suite.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Totals {
    /// Scenarios that passed.
    pub passed: usize,
    /// Scenarios that failed.
    pub failed: usize,
    /// Scenarios skipped (`@skip`, `@wip`).
    pub skipped: usize,
    /// Files that could not be run: not read, parsed or checked, or every scenario of them
    /// needs a variant that does not load.
    pub broken_files: usize,
    /// Scenarios the filters selected that did not run (in files that could not be run, or
    /// needing a variant that does not load).
    pub not_run: usize,
}

impl Totals {
    /// The totals of these files' results.
    pub fn of(results: &[FileResult]) -> Totals {
        let mut t = Totals::default();
        for r in results {
            if r.could_not_run() {
                t.broken_files += 1;
            }
            t.not_run += r.did_not_run;
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

    /// The line before the closing one when something could not run, such as
    /// `2 files could not be run; 190 scenarios did not run`.
    pub fn not_run_line(&self) -> Option<String> {
        let mut parts = Vec::new();
        if self.broken_files > 0 {
            parts.push(format!(
                "{} could not be run",
                counted(self.broken_files, "file")
            ));
        }
        if self.not_run > 0 {
            parts.push(format!("{} did not run", counted(self.not_run, "scenario")));
        }
        (!parts.is_empty()).then(|| parts.join("; "))
    }

    /// 2 when a file could not be parsed or a variant loaded, 1 when a scenario failed, else 0.
    pub fn exit_code(&self) -> i32 {
        if self.broken_files > 0 || self.not_run > 0 {
            2
        } else if self.failed > 0 {
            1
        } else {
            0
        }
    }
}

/// `1 file`, `2 files`.
pub fn counted(n: usize, what: &str) -> String {
    format!("{n} {what}{}", if n == 1 { "" } else { "s" })
}
