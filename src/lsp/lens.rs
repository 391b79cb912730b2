//! Code lenses and the commands behind them: above each scenario and feature a command that runs
//! it and then shows how it ended (a failure is also a diagnostic on its step, with what was
//! expected and found); above each function of a script how often the scenarios call it and how
//! many of its lines they run, from a coverage run the user asks for, and the mutants no scenario
//! notices, as hints where they are, from a mutation run.

use super::position::range;
use crate::coverage::CoverageReport;
use crate::scenarios::ScriptProvider;
use crate::spec::suite::{self, Filter, Outcome};
use lsp_types::{CodeLens, Command, Diagnostic, DiagnosticSeverity, Range, Uri};
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

/// The command that runs a scenario or a feature: arguments the document's address and the
/// 0-based line of its `Scenario:` or `Feature:`.
pub const RUN: &str = "deckspec.runScenario";
/// The command that measures which lines of a variant's scripts its scenarios run: argument a
/// script's address.
pub const COVERAGE: &str = "deckspec.coverage";
/// The command that makes the mutants of a variant's scripts and runs its scenarios on each: the
/// mutants no scenario notices become hints where they are. Argument a script's address.
pub const MUTANTS: &str = "deckspec.mutants";

/// How the scenarios of a file ended when last run: by the 0-based line of their `Scenario:`,
/// and the failures as diagnostics.
#[derive(Default)]
pub struct RunResults {
    /// A line's outcome in words (`passed`, `failed: …`), outline rows together.
    pub by_line: BTreeMap<u32, String>,
    /// Each failure on its step.
    pub diagnostics: Vec<Diagnostic>,
}

/// The header lines of a scenario file that a lens runs: `Feature:`, `Scenario:`, `Scenario
/// Outline:`, `Example:`, with their 0-based line numbers and names.
fn headers(src: &str) -> Vec<(u32, bool, &str)> {
    src.lines()
        .enumerate()
        .filter_map(|(i, line)| {
            let t = line.trim_start();
            let feature = t.strip_prefix("Feature:").map(|n| (true, n));
            let scenario = [
                "Scenario Outline:",
                "Scenario Template:",
                "Scenario:",
                "Example:",
            ]
            .iter()
            .find_map(|h| t.strip_prefix(h))
            .map(|n| (false, n));
            let (is_feature, name) = feature.or(scenario)?;
            Some((u32::try_from(i).ok()?, is_feature, name.trim()))
        })
        .collect()
}

/// A lens at the start of 0-based `line` that runs `command` with `arguments`.
fn lens_at(line: u32, title: String, command: &str, arguments: Vec<serde_json::Value>) -> CodeLens {
    let at = lsp_types::Position::new(line, 0);
    CodeLens {
        range: Range::new(at, at),
        command: Some(Command {
            title,
            command: command.into(),
            arguments: Some(arguments),
        }),
        data: None,
    }
}

/// The lenses of a scenario file: run each scenario and the whole feature, with the outcome of
/// the last run.
pub fn feature_lenses(uri: &Uri, src: &str, results: Option<&RunResults>) -> Vec<CodeLens> {
    headers(src)
        .into_iter()
        .map(|(line, is_feature, _)| {
            let what = if is_feature { "feature" } else { "scenario" };
            let title = match results.and_then(|r| r.by_line.get(&line)) {
                Some(outcome) => format!("{outcome} · ▶ run {what} again"),
                None => format!("▶ run {what}"),
            };
            lens_at(line, title, RUN, vec![uri.as_str().into(), line.into()])
        })
        .collect()
}

/// Run the scenario at 0-based `line` of `src` (every scenario when it is the `Feature:` line).
pub fn run(path: &Path, src: &str, line: u32, provider: &ScriptProvider) -> RunResults {
    let headers = headers(src);
    let header = headers.iter().find(|(l, ..)| *l == line);
    let filter = match header {
        // An outline's rows are named after their values: they are picked by line below.
        Some((_, false, name)) if !name.is_empty() && !name.contains('<') => Filter {
            name: Some(name.to_string()),
            ..Filter::default()
        },
        _ => Filter::default(),
    };
    let shown = path.display().to_string();
    let result = suite::run_file(&shown, Arc::new(src.to_string()), provider, &filter);
    let mut out = RunResults::default();
    for p in &result.problems {
        out.diagnostics.push(diagnostic(
            src,
            p.span.start,
            p.span.end,
            p.message.clone(),
            p.help.as_deref(),
        ));
    }
    // Outline rows share their line: the line failed when any row did.
    let mut passed: BTreeMap<u32, (usize, usize, Option<String>)> = BTreeMap::new();
    for s in &result.scenarios {
        let Some(at) = s.line.checked_sub(1).and_then(|l| u32::try_from(l).ok()) else {
            continue;
        };
        if header.is_some_and(|(l, f, _)| !f && *l != at) {
            continue;
        }
        let entry = passed.entry(at).or_default();
        match &s.outcome {
            Outcome::Passed => entry.0 += 1,
            Outcome::Skipped => {}
            Outcome::Failed(f) => {
                entry.1 += 1;
                entry.2.get_or_insert_with(|| f.message.clone());
                let d = result.failure_diagnostic(f);
                out.diagnostics.push(diagnostic(
                    src,
                    d.span.start,
                    d.span.end,
                    format!("{}: {}", s.name, d.message),
                    d.help.as_deref(),
                ));
            }
        }
    }
    let mut total = (0, 0);
    for (at, (ok, failed, first)) in passed {
        total.0 += ok;
        total.1 += failed;
        let text = match first {
            Some(message) => format!("✘ failed: {}", message.lines().next().unwrap_or("")),
            None if ok == 0 => "skipped".to_string(),
            None => "✔ passed".to_string(),
        };
        out.by_line.insert(at, text);
    }
    if let Some((l, true, _)) = header {
        let text = if result.problems.is_empty() {
            format!("{} passed, {} failed", total.0, total.1)
        } else {
            "✘ not run: the file has problems".to_string()
        };
        out.by_line.insert(*l, text);
    }
    out
}

fn diagnostic(
    src: &str,
    start: usize,
    end: usize,
    message: String,
    help: Option<&str>,
) -> Diagnostic {
    let mut message = message;
    if let Some(help) = help {
        message.push('\n');
        message.push_str(help);
    }
    Diagnostic {
        range: range(src, start, end),
        severity: Some(DiagnosticSeverity::ERROR),
        source: Some("deckspec test".into()),
        message,
        ..Diagnostic::default()
    }
}

/// The lenses of a script: how often the scenarios call each function and how many of its lines
/// they run (from `report`, a coverage run of its variant), or a command to measure it.
pub fn script_lenses(
    uri: &Uri,
    path: &Path,
    report: Option<&CoverageReport>,
    mutants: Option<&MutantsRun>,
) -> Vec<CodeLens> {
    let lens = |line, title, command| lens_at(line, title, command, vec![uri.as_str().into()]);
    let mutation = match mutants {
        None => lens(0, "▶ find the mutants no scenario notices".into(), MUTANTS),
        Some(run) => {
            let here = run.survivors.iter().filter(|(p, _)| p == path).count();
            lens(
                0,
                format!(
                    "{here} surviving mutants here ({} in {} of {} mutants) · ▶ mutate again",
                    run.survivors.len(),
                    run.variant,
                    run.generated
                ),
                MUTANTS,
            )
        }
    };
    let Some(report) = report else {
        return vec![
            lens(
                0,
                "▶ measure which lines the scenarios run".into(),
                COVERAGE,
            ),
            mutation,
        ];
    };
    let Some(file) = report
        .files
        .iter()
        .find(|f| super::position::absolute(Path::new(&f.path)) == path)
    else {
        return vec![
            lens(0, "no scenario runs this file".into(), COVERAGE),
            mutation,
        ];
    };
    let mut out = vec![lens(
        0,
        format!(
            "the scenarios run {} of {} lines, {} of {} branch arms · ▶ measure again",
            file.line_tally.hit,
            file.line_tally.found,
            file.branch_tally.hit,
            file.branch_tally.found
        ),
        COVERAGE,
    )];
    out.push(mutation);
    for f in &file.functions {
        let title = if f.calls == 0 {
            "no scenario calls this".to_string()
        } else {
            format!(
                "called {} times by the scenarios · {} of {} lines run",
                f.calls, f.lines.hit, f.lines.found
            )
        };
        out.push(lens(f.first_line.saturating_sub(1), title, COVERAGE));
    }
    out
}

/// Measure which lines of `variant`'s scripts the scenarios under `specs_dir` run.
pub fn coverage(
    rules_dir: &Path,
    variant: &str,
    specs_dir: &Path,
) -> Result<CoverageReport, String> {
    crate::coverage::measure(
        rules_dir,
        &[variant.to_string()],
        &[specs_dir.to_path_buf()],
        &|_, _| {},
    )
    .map_err(|e| e.to_string())
}

/// A variant's mutation run as the editor shows it: each mutant no scenario noticed, as a hint at
/// its file.
pub struct MutantsRun {
    /// The variant.
    pub variant: String,
    /// How many mutants were made.
    pub generated: usize,
    /// Each survivor's file (absolute) and hint.
    pub survivors: Vec<(std::path::PathBuf, Diagnostic)>,
}

/// Mutate `variant`'s scripts and run its scenarios on each mutant (as `deckspec mutate`).
pub fn mutants(rules_dir: &Path, variant: &str, specs_dir: &Path) -> Result<MutantsRun, String> {
    let jobs = std::thread::available_parallelism().map_or(1, |n| n.get());
    let report = crate::mutate::mutate_variant(
        rules_dir,
        variant,
        &[specs_dir.to_path_buf()],
        jobs,
        &|_, _| {},
    )
    .map_err(|e| e.to_string())?;
    let survivors = report
        .mutants
        .iter()
        .filter(|m| matches!(m.outcome, crate::mutate::Outcome::Survived))
        .filter_map(|m| {
            let path = super::position::absolute(Path::new(&m.file));
            let text = std::fs::read_to_string(&path).ok()?;
            let mutation = &m.mutation;
            let at = match &mutation.hook {
                Some(hook) => format!(" in {hook}"),
                None => String::new(),
            };
            let hint = Diagnostic {
                range: range(&text, mutation.start, mutation.end),
                severity: Some(DiagnosticSeverity::HINT),
                source: Some("deckspec mutate".into()),
                message: format!(
                    "a mutant survives{at}: `{}` → `{}` ({}), and every scenario still passes",
                    mutation.original,
                    mutation.replacement,
                    mutation.kind.describe()
                ),
                ..Diagnostic::default()
            };
            Some((path, hint))
        })
        .collect();
    Ok(MutantsRun {
        variant: variant.to_string(),
        generated: report.generated,
        survivors,
    })
}

#[cfg(test)]
mod tests {
    use super::headers;

    #[test]
    fn the_lenses_sit_on_the_feature_and_each_scenario() {
        let src = "@a\nFeature: f\n  Background:\n  Scenario: one\n  Scenario Outline: two <n>\n";
        assert_eq!(
            headers(src),
            [(1, true, "f"), (3, false, "one"), (4, false, "two <n>")]
        );
    }
}
