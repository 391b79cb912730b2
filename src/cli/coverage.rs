//! `deckspec coverage`: run the scenarios with the coverage probe (see `crate::coverage`), print
//! a summary per script and function, and write `--lcov`, `--html` and `--json`; `--trace`
//! prints the rules trace; `--min-lines` and `--min-branches` fail a run below them.

use super::{EXIT_BROKEN, EXIT_FAILED, EXIT_OK};
use crate::coverage::{
    CoverageReport, FileCoverage, RuleTrace, Tally, html, lcov, measure, ranges,
};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// The arguments of `deckspec coverage`.
#[derive(clap::Args, Debug)]
pub struct CoverageArgs {
    /// Variants to measure (default: every variant of the rules folder); only scenarios that
    /// play them run.
    pub variants: Vec<String>,
    /// The folder holding the variants.
    #[arg(long, default_value = "rules", value_name = "DIR")]
    pub rules: PathBuf,
    /// Scenario files or folders to run.
    #[arg(long = "specs", default_value = "spec-tests", value_name = "PATH")]
    pub specs: Vec<PathBuf>,
    /// Write an lcov tracefile (for genhtml and coverage services).
    #[arg(long, value_name = "FILE")]
    pub lcov: Option<PathBuf>,
    /// Write a self-contained page, DIR/index.html, with each script's line counts.
    #[arg(long, value_name = "DIR")]
    pub html: Option<PathBuf>,
    /// Print the report as JSON instead of the summary.
    #[arg(long)]
    pub json: bool,
    /// Also print the rules trace: each rule's scenarios and the lines only they run.
    #[arg(long)]
    pub trace: bool,
    /// Exit 1 when less than this percentage of the runnable lines ran.
    #[arg(long, value_name = "PERCENT")]
    pub min_lines: Option<f64>,
    /// Exit 1 when less than this percentage of the branch arms ran.
    #[arg(long, value_name = "PERCENT")]
    pub min_branches: Option<f64>,
    /// Hold each variant to its own record (`line_coverage` and `branch_coverage` in
    /// `rules/<variant>/spec-strength.yaml`), measured on its own scenarios: exit 1 when one
    /// falls below it. A variant with no record is told what it reached.
    #[arg(long)]
    pub ratchet: bool,
}

pub fn coverage(args: CoverageArgs) -> i32 {
    for (flag, value) in [
        ("--min-lines", args.min_lines),
        ("--min-branches", args.min_branches),
    ] {
        if let Some(v) = value
            && !(0.0..=100.0).contains(&v)
        {
            errln!("error: {flag} is a percentage from 0 to 100, not {v}");
            return EXIT_BROKEN;
        }
    }
    let show_progress = !args.json && std::io::IsTerminal::is_terminal(&std::io::stderr());
    let report = measure(&args.rules, &args.variants, &args.specs, &|done, total| {
        if show_progress {
            err!("\rcoverage: {done}/{total} scenarios");
        }
    });
    if show_progress {
        err!("\r\x1b[K");
    }
    let report = match report {
        Ok(r) => r,
        Err(e) => {
            errln!("error: {e}");
            return EXIT_BROKEN;
        }
    };
    if let Some(path) = &args.lcov
        && let Err(e) = std::fs::write(path, lcov::tracefile(&report, "deckspec"))
    {
        errln!("error: cannot write {}: {e}", path.display());
        return EXIT_BROKEN;
    }
    if let Some(dir) = &args.html {
        let page = dir.join("index.html");
        if let Err(e) =
            std::fs::create_dir_all(dir).and_then(|()| std::fs::write(&page, html::page(&report)))
        {
            errln!("error: cannot write {}: {e}", page.display());
            return EXIT_BROKEN;
        }
    }
    if args.json {
        outln!(
            "{}",
            serde_json::to_string_pretty(&report).unwrap_or_default()
        );
    } else {
        print_summary(&report);
        if args.trace {
            print_trace(&report.rules);
        }
        if let Some(path) = &args.lcov {
            outln!("lcov: {}", path.display());
        }
        if let Some(dir) = &args.html {
            outln!("html: {}", dir.join("index.html").display());
        }
    }
    let mut code = EXIT_OK;
    if !report.failed.is_empty() {
        errln!(
            "{} scenario{} failed (`deckspec test` shows why); their lines up to the failing step are counted",
            report.failed.len(),
            if report.failed.len() == 1 { "" } else { "s" }
        );
        code = EXIT_FAILED;
    }
    for (what, tally, min) in [
        ("lines", report.lines, args.min_lines),
        ("branches", report.branches, args.min_branches),
    ] {
        if let Some(min) = min
            && tally.percent() < min
        {
            errln!(
                "{what}: {:.1}% ran, below --min-{what} {min}",
                tally.percent()
            );
            code = EXIT_FAILED;
        }
    }
    if args.ratchet {
        match ratchet(&args, &report.variants) {
            Ok(true) => {}
            Ok(false) => code = EXIT_FAILED,
            Err(e) => {
                errln!("error: {e}");
                return EXIT_BROKEN;
            }
        }
    }
    code
}

/// Measure each variant on its own (a variant's lines include the scripts it extends, run by its
/// own scenarios) and hold it to its record: whether all keep to theirs.
fn ratchet(args: &CoverageArgs, variants: &[String]) -> Result<bool, String> {
    use crate::strength::{RECORD_FILE, judge, read};
    let mut holds = true;
    for variant in variants {
        let dir = args.rules.join(variant);
        let record = read(&dir).map_err(|e| e.to_string())?.unwrap_or_default();
        let report = measure(
            &args.rules,
            std::slice::from_ref(variant),
            &args.specs,
            &|_, _| {},
        )
        .map_err(|e| e.to_string())?;
        errln!(
            "{variant}: lines {:.1}%, branches {:.1}% ({} scenarios)",
            report.lines.percent(),
            report.branches.percent(),
            report.scenarios
        );
        for (field, reached, recorded) in [
            (
                "line_coverage",
                report.lines.percent(),
                record.line_coverage,
            ),
            (
                "branch_coverage",
                report.branches.percent(),
                record.branch_coverage,
            ),
        ] {
            let verdict = judge(variant, field, reached, recorded, &dir.join(RECORD_FILE));
            if let Some(message) = verdict.message() {
                errln!("{message}");
            }
            holds &= verdict.holds();
        }
    }
    Ok(holds)
}

fn tally(t: Tally) -> String {
    if t.found == 0 {
        return format!("{:>16}", "-");
    }
    format!(
        "{:>5.1}% {:>9}",
        t.percent(),
        format!("({}/{})", t.hit, t.found)
    )
}

fn print_summary(report: &CoverageReport) {
    outln!(
        "coverage of {}: {} scenarios, {:.1} s",
        report.variants.join(", "),
        report.scenarios,
        report.seconds
    );
    for f in &report.failed {
        outln!("  failed: {f}");
    }
    let width = report
        .files
        .iter()
        .flat_map(|f| {
            std::iter::once(f.path.chars().count())
                .chain(f.functions.iter().map(|g| g.name.chars().count() + 2))
        })
        .max()
        .unwrap_or(0)
        .max(3);
    outln!(
        "{:width$}  {:^16}  {:^16}  {:^16}",
        "",
        "lines",
        "functions",
        "branches"
    );
    for file in &report.files {
        print_file(file, width);
    }
    outln!(
        "{:width$}  {}  {}  {}",
        "all",
        tally(report.lines),
        tally(report.functions),
        tally(report.branches)
    );
}

fn print_file(file: &FileCoverage, width: usize) {
    outln!(
        "{:width$}  {}  {}  {}",
        file.path,
        tally(file.line_tally),
        tally(file.function_tally),
        tally(file.branch_tally)
    );
    let mut partial: BTreeMap<u32, Vec<String>> = BTreeMap::new();
    for b in &file.branches {
        let missed: Vec<&str> = b
            .arms
            .iter()
            .filter(|a| a.taken.is_none_or(|n| n == 0))
            .map(|a| a.label.as_str())
            .collect();
        if !missed.is_empty() && b.hits > 0 {
            partial
                .entry(b.line)
                .or_default()
                .push(format!("{} {}", b.kind, missed.join(", ")));
        }
    }
    for f in &file.functions {
        let called = if f.calls == 0 {
            "never called".to_string()
        } else {
            format!("{} call{}", f.calls, if f.calls == 1 { "" } else { "s" })
        };
        let mut notes = vec![called];
        if !f.missed_lines.is_empty() {
            notes.push(format!("not run: {}", ranges(&f.missed_lines)));
        }
        let arms: Vec<String> = partial
            .range(f.first_line..=f.last_line)
            .flat_map(|(line, arms)| arms.iter().map(move |a| format!("{line} {a}")))
            .collect();
        if !arms.is_empty() {
            notes.push(format!("arms not taken: {}", arms.join("; ")));
        }
        outln!(
            "  {:w$}  {}  {:16}  {}  {}",
            f.name,
            tally(f.lines),
            "",
            tally(f.branches),
            notes.join(" · "),
            w = width - 2
        );
    }
}

fn print_trace(rules: &[RuleTrace]) {
    outln!("rules trace (rule: scenarios · lines only its scenarios run)");
    for r in rules {
        let mut by_file: BTreeMap<&str, Vec<u32>> = BTreeMap::new();
        for l in &r.own_lines {
            by_file.entry(l.file.as_str()).or_default().push(l.line);
        }
        let own = if by_file.is_empty() {
            "none".to_string()
        } else {
            by_file
                .iter()
                .map(|(file, lines)| format!("{file}:{}", ranges(lines)))
                .collect::<Vec<_>>()
                .join(" ")
        };
        outln!(
            "  {} ({}): {} scenario{} · {own}",
            r.id,
            r.variant,
            r.scenarios.len(),
            if r.scenarios.len() == 1 { "" } else { "s" }
        );
    }
}
