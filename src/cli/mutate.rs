//! `deckspec mutate`: run the mutation test of each variant's rule scripts (see `crate::mutate`)
//! and print the counts, the score and every surviving mutant; `--json`, `--diff`, `--min-score`.

use super::{EXIT_BROKEN, EXIT_FAILED, EXIT_OK};
use crate::mutate::{MutantResult, Outcome, VariantReport, mutate_variant};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// The arguments of `deckspec mutate`.
#[derive(clap::Args, Debug)]
pub struct MutateArgs {
    /// Variants to mutate (default: every variant of the rules folder).
    pub variants: Vec<String>,
    /// The folder holding the variants.
    #[arg(long, default_value = "rules", value_name = "DIR")]
    pub rules: PathBuf,
    /// Scenario files or folders to run against each mutant.
    #[arg(long = "specs", default_value = "spec-tests", value_name = "PATH")]
    pub specs: Vec<PathBuf>,
    /// Threads (default: all cores).
    #[arg(short, long, value_name = "J")]
    pub jobs: Option<usize>,
    /// Print the reports as one JSON array.
    #[arg(long)]
    pub json: bool,
    /// Show each surviving mutant as a unified diff.
    #[arg(long)]
    pub diff: bool,
    /// Exit 1 when a variant's score (killed / (killed + survived), in percent) is below this.
    #[arg(long, value_name = "PERCENT")]
    pub min_score: Option<f64>,
    /// Exit 1 when a variant's score is below its own record (`mutation_score` in
    /// `rules/<variant>/spec-strength.yaml`); a variant with no record is told what it reached.
    #[arg(long)]
    pub ratchet: bool,
    /// Rewrite each variant's equivalent-mutants.yaml with every entry keyed by content (file,
    /// hook, mutated text, occurrence) instead of a position; runs no mutant.
    #[arg(long)]
    pub fix_equivalents: bool,
}

pub fn mutate(args: MutateArgs) -> i32 {
    if let Some(min) = args.min_score
        && !(0.0..=100.0).contains(&min)
    {
        errln!("error: --min-score is a percentage from 0 to 100, not {min}");
        return EXIT_BROKEN;
    }
    let jobs = match args.jobs {
        Some(0) => {
            errln!("error: --jobs is at least 1");
            return EXIT_BROKEN;
        }
        Some(j) => j.min(crate::sim::MAX_JOBS),
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    let variants = if args.variants.is_empty() {
        crate::script::variant_names(&args.rules)
    } else {
        args.variants.clone()
    };
    if variants.is_empty() {
        errln!("error: {} holds no variant", args.rules.display());
        return EXIT_BROKEN;
    }
    if args.fix_equivalents {
        let mut code = EXIT_OK;
        for variant in &variants {
            match crate::mutate::fix_equivalents(&args.rules, variant) {
                Ok((keyed, stale)) => {
                    outln!("{variant}: {keyed} equivalent mutants keyed by content");
                    for entry in stale {
                        outln!("  listed as equivalent but no such mutant now: {entry}");
                    }
                }
                Err(e) => {
                    errln!("error: {e}");
                    code = EXIT_BROKEN;
                }
            }
        }
        return code;
    }
    let mut reports = Vec::new();
    for variant in &variants {
        let report = mutate_variant(&args.rules, variant, &args.specs, jobs, &|done, total| {
            if !args.json && std::io::IsTerminal::is_terminal(&std::io::stderr()) {
                err!("\r{variant}: {done}/{total} mutants");
            }
        });
        if !args.json && std::io::IsTerminal::is_terminal(&std::io::stderr()) {
            err!("\r\x1b[K");
        }
        match report {
            Ok(report) => {
                if !args.json {
                    print_report(&report, args.diff);
                }
                reports.push(report);
            }
            Err(e) => {
                errln!("error: {e}");
                return EXIT_BROKEN;
            }
        }
    }
    if args.json {
        outln!(
            "{}",
            serde_json::to_string_pretty(&reports).unwrap_or_default()
        );
    }
    let below: Vec<&VariantReport> = args
        .min_score
        .map(|min| reports.iter().filter(|r| r.score < min).collect())
        .unwrap_or_default();
    for report in &below {
        errln!(
            "{}: score {:.1}% is below --min-score {}",
            report.variant,
            report.score,
            args.min_score.unwrap_or(0.0)
        );
    }
    let mut code = if below.is_empty() {
        EXIT_OK
    } else {
        EXIT_FAILED
    };
    if args.ratchet {
        for report in &reports {
            match ratchet(&args.rules, report) {
                Ok(true) => {}
                Ok(false) => code = EXIT_FAILED,
                Err(e) => {
                    errln!("error: {e}");
                    return EXIT_BROKEN;
                }
            }
        }
    }
    code
}

/// Hold a variant to its own record: whether it keeps to it (one with none always does, and is
/// told what to write).
fn ratchet(
    rules: &std::path::Path,
    report: &VariantReport,
) -> Result<bool, crate::strength::RecordError> {
    use crate::strength::{RECORD_FILE, judge, read};
    let dir = rules.join(&report.variant);
    let record = read(&dir)?.and_then(|r| r.mutation_score);
    let verdict = judge(
        &report.variant,
        "mutation_score",
        report.score,
        record,
        &dir.join(RECORD_FILE),
    );
    if let Some(message) = verdict.message() {
        errln!("{message}");
    }
    Ok(verdict.holds())
}

fn print_report(report: &VariantReport, diff: bool) {
    outln!(
        "{}: {} mutants: {} killed, {} survived, {} equivalent, {} timed out, {} did not compile · score {:.1}% · {} scenarios · {:.1} s",
        report.variant,
        report.generated,
        report.killed,
        report.survived,
        report.equivalent,
        report.timed_out,
        report.did_not_compile,
        report.score,
        report.scenarios,
        report.seconds
    );
    let mut by_hook: BTreeMap<String, Vec<&MutantResult>> = BTreeMap::new();
    for m in report
        .mutants
        .iter()
        .filter(|m| matches!(m.outcome, Outcome::Survived))
    {
        let hook = m
            .mutation
            .hook
            .clone()
            .unwrap_or_else(|| "(top level)".into());
        by_hook.entry(hook).or_default().push(m);
    }
    for (hook, survivors) in by_hook {
        outln!("  survived in {hook}:");
        for m in survivors {
            outln!(
                "    {}  {} -> {}  ({})",
                m.at(),
                one_line(&m.mutation.original),
                one_line(&m.mutation.replacement),
                m.mutation.kind.describe()
            );
            if diff {
                out!("{}", unified_diff(m));
            }
        }
    }
    for stale in &report.stale_equivalents {
        outln!("  listed as equivalent but no such mutant now: {stale}");
    }
    for moved in &report.moved_equivalents {
        outln!(
            "  listed as equivalent at a position it moved from: {moved} (deckspec mutate --fix-equivalents keys it by content)"
        );
    }
}

/// A text shown on one line: newlines as `⏎`, long texts cut.
fn one_line(text: &str) -> String {
    let flat: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let shown = if flat.is_empty() {
        "(nothing)".to_string()
    } else {
        format!("`{flat}`")
    };
    if shown.chars().count() > 70 {
        format!("{}…`", shown.chars().take(68).collect::<String>())
    } else {
        shown
    }
}

/// The mutant as a unified diff of the lines it changes.
fn unified_diff(m: &MutantResult) -> String {
    let Ok(source) = std::fs::read_to_string(&m.file) else {
        return String::new();
    };
    let mutated = m.mutation.apply(&source);
    let first = source[..m.mutation.start].rfind('\n').map_or(0, |i| i + 1);
    let last = source[m.mutation.end..]
        .find('\n')
        .map_or(source.len(), |i| m.mutation.end + i);
    let tail = source.len() - last;
    let before = &source[first..last];
    let after = &mutated[first..mutated.len() - tail];
    let old: Vec<&str> = before.split('\n').collect();
    let new: Vec<&str> = after.split('\n').collect();
    let line = m.mutation.line;
    let mut out = format!(
        "      --- {}\n      +++ {} (mutant)\n      @@ -{line},{} +{line},{} @@\n",
        m.file,
        m.file,
        old.len(),
        new.len()
    );
    for l in old {
        out.push_str(&format!("      -{l}\n"));
    }
    for l in new {
        out.push_str(&format!("      +{l}\n"));
    }
    out
}
