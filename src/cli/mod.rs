//! The `deckspec` command line: argument parsing (clap), the subcommands, miette rendering and
//! exit codes. `main.rs` only calls `run`. `simulate` and `merge` live in `simulate.rs`.

#[macro_use]
mod out;
#[cfg(feature = "serve")]
mod backup; // issue 41: `deckspec backup`
mod balance;
mod balance_merge; // `deckspec merge` of balance shards
mod check;
mod coverage;
mod fmt;
mod info;
mod merge; // `deckspec merge`: files to the merge of their kind
mod mutate;
mod new; // issue 42: `deckspec new`
#[cfg(feature = "play")]
mod play;
mod prove; // issue 45: `deckspec prove`
#[cfg(feature = "serve")]
mod serve;
mod simulate;
mod tune; // issue 46: `deckspec tune`

pub use merge::MergeArgs;
pub use simulate::SimulateArgs;

pub(crate) use crate::scenarios::{ScriptProvider, render};
use crate::spec::suite::{self, Filter, Outcome, Totals, counted};
use crate::spec::tags::TagExpr;
use clap::{Parser, Subcommand};
use std::path::{Path, PathBuf};

/// Exit codes (also in README.md).
pub const EXIT_OK: i32 = 0;
pub const EXIT_FAILED: i32 = 1;
pub const EXIT_BROKEN: i32 = 2;

#[derive(Parser, Debug)]
#[command(
    name = "deckspec",
    version,
    about = "Rules platform for memory card games: run and check rule scenarios"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Run scenario files: one line per scenario, then `N passed, N failed`.
    /// Exit 0 when all pass, 1 when a scenario fails, 2 when a file or variant cannot be loaded.
    Test(TestArgs),
    /// Play many seeded games of a variant with computer seats and print a summary.
    /// The same seed and arguments give the same summary for any `--jobs`.
    Simulate(SimulateArgs),
    /// Combine the `--json` summaries of shards into the summary one run would give.
    Merge(MergeArgs),
    /// Explore the states a variant's rules reach and check whole-game properties: every state
    /// can end, none is stuck, nothing grows without bound, the kernel's invariants hold, every
    /// seat can win, everything is used. A violation is written as a scenario that replays it.
    /// Exit 0 when every property holds, 1 on a violation, 2 when a variant cannot be loaded.
    Prove(prove::ProveArgs),
    /// Balance a rule: play many games and measure what decides them (seat and first-turn
    /// advantage, length, decisiveness, lead changes, comebacks, stalemates, each action's use
    /// and whether it goes with winning, branching, hidden information), each with a 95%
    /// interval; `--skill` plays every pair of bot levels against each other; `--compare A B`
    /// says which metrics two configurations differ in, playing until each is decided.
    Balance(balance::BalanceArgs),
    /// Tune a numeric house rule: race its values (`--house-rule NAME=LO..HI`) until the one
    /// bringing a metric closest to a target (`--target METRIC=VALUE`) is found, with the
    /// confidence of the answer.
    Tune(tune::TuneArgs),
    /// Load variants and parse and check scenarios, running nothing; report every problem.
    /// With no path (or a project folder holding `rules/`), every variant and every scenario under
    /// `spec-tests/`; with feature files or folders, those and the variants they use.
    Check {
        /// Feature files or folders, or one project folder (default: the current folder).
        paths: Vec<PathBuf>,
        /// The folder holding the variants (default: `rules`, or the project folder's `rules/`).
        #[arg(long, value_name = "DIR")]
        rules: Option<PathBuf>,
    },
    /// Lay out `.feature` files one way: indentation by what each line belongs to, table columns
    /// aligned, tags and comments with what follows them, no trailing spaces. `--check` changes
    /// nothing and exits 1 when a file is not laid out so (for CI); a file that does not parse
    /// is never changed (exit 2).
    Fmt(fmt::FmtArgs),
    /// A language server for the project's files, over standard input and output: scenario
    /// buffers checked as they are typed, hover, completion and go to definition.
    #[cfg(feature = "lsp")]
    Lsp {
        /// The folder holding the variants.
        #[arg(long, default_value = "rules", value_name = "DIR")]
        rules: PathBuf,
        /// The folder holding the scenario files (default: `spec-tests` beside the rules folder).
        #[arg(long, value_name = "DIR")]
        specs: Option<PathBuf>,
    },
    /// Describe a variant: players, what it extends, actions with their forms, phases, events,
    /// house rules with types, defaults and ranges, timers and bot levels.
    Info(info::InfoArgs),
    /// Play a variant against its bots: at a terminal, or one command per line through a pipe.
    #[cfg(feature = "play")]
    Play(play::PlayArgs),
    /// Mutation testing: make small wrong versions (mutants) of each variant's rule scripts and
    /// run its scenarios against each; report the mutants no scenario notices.
    Mutate(mutate::MutateArgs),
    /// Coverage: run the scenarios and report which lines, functions and branches of the rule
    /// scripts they run (`--lcov`, `--html`), and for each rule the lines only its scenarios run.
    Coverage(coverage::CoverageArgs),
    /// Host tables over HTTP and WebSocket: people in a browser (at `/`) and programs play any
    /// variant, with bots; every table is kept in a SQLite file and survives a restart.
    #[cfg(feature = "serve")]
    Serve(serve::ServeArgs),
    /// Copy a server's store (its SQLite file) to a new file, consistently, while the server
    /// runs; an existing file is never overwritten.
    #[cfg(feature = "serve")]
    Backup(backup::BackupArgs),
    /// Start a variant: `rules/<name>/` and `spec-tests/<name>/` with a small complete game
    /// (every hook, bots, a rulebook, passing scenarios), or with `--from` a copy of a variant.
    New(new::NewArgs),
}

/// The arguments of `deckspec test`.
#[derive(clap::Args, Debug)]
pub struct TestArgs {
    /// Files or folders of `.feature` files (folders named `invalid` are skipped).
    #[arg(default_value = "spec-tests")]
    pub paths: Vec<PathBuf>,
    /// Write JUnit XML (one testsuite per Feature) to this file.
    #[arg(long, value_name = "FILE")]
    pub junit: Option<PathBuf>,
    /// Run only scenarios whose tags match, e.g. `@cambia and not @slow`.
    #[arg(long, value_name = "EXPR")]
    pub tags: Option<String>,
    /// Run only scenarios whose name contains this text (case-insensitive).
    #[arg(long, short = 'n', value_name = "TEXT")]
    pub name: Option<String>,
    /// The folder holding the variants.
    #[arg(long, default_value = "rules", value_name = "DIR")]
    pub rules: PathBuf,
    /// Stop after the first failing scenario.
    #[arg(long)]
    pub fail_fast: bool,
    /// Print only failures and errors, and the closing lines.
    #[arg(long, short = 'q')]
    pub quiet: bool,
    /// The engine that runs the rule scripts: `compiled` (closures compiled at load time) or
    /// `interpreted` (Rhai's interpreter, the reference).
    #[arg(long, default_value = "compiled", value_name = "ENGINE")]
    pub engine: crate::script::EngineKind,
}

/// Run the command line; returns the process exit code.
pub fn run(cli: Cli) -> i32 {
    match cli.command {
        Command::Test(args) => test(args),
        Command::Check { paths, rules } => check::check(&paths, rules.as_deref()),
        Command::Info(args) => info::info(&args),
        Command::Fmt(args) => fmt::fmt(&args),
        #[cfg(feature = "lsp")]
        Command::Lsp { rules, specs } => match crate::lsp::serve_stdio(
            &rules,
            &specs.unwrap_or_else(|| {
                let parent = rules.parent().filter(|p| !p.as_os_str().is_empty());
                parent
                    .unwrap_or(std::path::Path::new("."))
                    .join("spec-tests")
            }),
        ) {
            Ok(()) => EXIT_OK,
            Err(e) => {
                errln!("error: {e}");
                EXIT_BROKEN
            }
        },
        #[cfg(feature = "play")]
        Command::Play(args) => play::play(args),
        #[cfg(feature = "serve")]
        Command::Serve(args) => serve::serve(args),
        #[cfg(feature = "serve")]
        Command::Backup(args) => backup::backup(&args),
        Command::Mutate(args) => mutate::mutate(args),
        Command::Coverage(args) => coverage::coverage(args),
        Command::Simulate(args) => simulate::simulate(args),
        Command::Merge(args) => merge::merge(args),
        Command::Prove(args) => prove::prove(args),
        Command::Balance(args) => balance::balance(args),
        Command::Tune(args) => tune::tune(args),
        Command::New(args) => new::new(&args),
    }
}

fn test(args: TestArgs) -> i32 {
    let TestArgs {
        paths,
        junit,
        tags,
        name,
        rules,
        fail_fast,
        quiet,
        engine,
    } = args;
    let (paths, junit, rules) = (&paths[..], junit.as_deref(), rules.as_path());
    let tags = match tags.as_deref().map(TagExpr::parse).transpose() {
        Ok(t) => t,
        Err(e) => {
            errln!("error: --tags: {e}");
            return EXIT_BROKEN;
        }
    };
    let files = match suite::feature_files(paths) {
        Ok(f) => f,
        Err(e) => {
            errln!("error: {e}");
            return EXIT_BROKEN;
        }
    };
    if let Some(junit) = junit
        && let Err(e) = writable("--junit", junit)
    {
        errln!("error: {e}");
        return EXIT_BROKEN;
    }
    let provider = ScriptProvider::new(rules).with_engine(engine);
    let filters = describe_filters(tags.as_ref(), name.as_deref());
    let filter = Filter { tags, name };
    let mut results = Vec::new();
    let mut stopped = false;
    for file in &files {
        let path = file.display().to_string();
        let loaded = suite::load_file(file);
        let result = match loaded.problem {
            Some(problem) => suite::FileResult::not_run(&path, loaded.src, vec![problem]),
            None => suite::run_file_until(&path, loaded.src, &provider, &filter, fail_fast),
        };
        print_file(&result, quiet);
        stopped = fail_fast && Totals::of(std::slice::from_ref(&result)).failed > 0;
        results.push(result);
        if stopped {
            break;
        }
    }
    print_unloaded(&provider, &results, rules);
    if stopped {
        outln!("stopped after the first failing scenario (--fail-fast)");
    }
    let totals = Totals::of(&results);
    if let Some(junit) = junit
        && let Err(e) = std::fs::write(junit, crate::spec::junit::junit(&results))
    {
        errln!("error: cannot write {}: {e}", junit.display());
        return EXIT_BROKEN;
    }
    let found: usize = results.iter().map(|r| r.found).sum();
    let ran = totals.passed + totals.failed + totals.skipped;
    if ran > 0 || totals.broken_files > 0 || totals.not_run > 0 {
        if let Some(line) = totals.not_run_line() {
            outln!("{line}");
        }
        outln!("{}", totals.line());
        return totals.exit_code();
    }
    if found == 0 {
        let shown: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
        outln!("no scenarios found under {}", shown.join(", "));
    } else {
        outln!(
            "no scenarios matched {filters} ({} in {})",
            counted(found, "scenario"),
            counted(files.len(), "file")
        );
    }
    EXIT_BROKEN
}

/// Whether an output file can be written, checked before a long run so that it does not fail
/// at the end: its folder exists and the file opens for writing. A file that was not there
/// before is not left behind.
pub(crate) fn writable(option: &str, path: &Path) -> Result<(), String> {
    let cannot = |why: String| format!("{option}: cannot write {}: {why}", path.display());
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty())
        && !parent.is_dir()
    {
        return Err(cannot(format!(
            "the folder {} does not exist",
            parent.display()
        )));
    }
    if path.is_dir() {
        return Err(cannot("it is a folder".into()));
    }
    let existed = path.exists();
    std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)
        .map_err(|e| cannot(e.to_string()))?;
    if !existed {
        std::fs::remove_file(path).ok();
    }
    Ok(())
}

/// Each variant that did not load, once, with how many scenarios it kept from running and its
/// load error (variants with the same error, such as a missing rules folder, share one report).
fn print_unloaded(provider: &ScriptProvider, results: &[suite::FileResult], rules: &Path) {
    let mut shown: Vec<(Vec<String>, usize, String)> = Vec::new();
    for (name, error) in provider.failures() {
        let scenarios: usize = results
            .iter()
            .flat_map(|r| &r.unloaded)
            .filter(|u| u.variant == name)
            .map(|u| u.scenarios)
            .sum();
        let text = render(&*error);
        match shown.iter_mut().find(|(_, _, t)| *t == text) {
            Some((names, n, _)) => {
                names.push(name);
                *n += scenarios;
            }
            None => shown.push((vec![name], scenarios, text)),
        }
    }
    for (names, scenarios, text) in shown {
        let names: Vec<String> = names
            .iter()
            .map(|n| rules.join(n).display().to_string())
            .collect();
        outln!(
            "ERROR {} (does not load; {} not run)",
            names.join(", "),
            counted(scenarios, "scenario")
        );
        out!("{text}");
    }
}

/// The filters of `deckspec test` as the user wrote them, for "no scenarios matched".
fn describe_filters(tags: Option<&TagExpr>, name: Option<&str>) -> String {
    let mut parts = Vec::new();
    if let Some(tags) = tags {
        parts.push(format!("--tags `{tags}`"));
    }
    if let Some(name) = name {
        parts.push(format!("--name `{name}`"));
    }
    parts.join(" and ")
}

/// A file's lines: errors and failures, and unless `quiet`, a line per scenario run or not run.
fn print_file(result: &suite::FileResult, quiet: bool) {
    if !result.problems.is_empty() {
        let count = result.problems.len();
        outln!(
            "ERROR {} ({count} problem{}; not run)",
            result.path,
            if count == 1 { "" } else { "s" }
        );
        for d in result.diagnostics() {
            out!("{}", render(&d));
        }
    }
    for u in result.unloaded.iter().filter(|_| !quiet) {
        outln!(
            "NOT RUN  {} ({}: variant `{}` does not load)",
            result.path,
            counted(u.scenarios, "scenario"),
            u.variant
        );
    }
    for s in &result.scenarios {
        let word = match s.outcome {
            Outcome::Passed => "PASS",
            Outcome::Failed(_) => "FAIL",
            Outcome::Skipped => "SKIP",
        };
        if quiet && !matches!(s.outcome, Outcome::Failed(_)) {
            continue;
        }
        outln!("{word}  {}:{}  {}", result.path, s.line, s.name);
        if let Outcome::Failed(f) = &s.outcome {
            out!("{}", render(&result.failure_diagnostic(f)));
            if let Some(script) = &f.script {
                out!("{script}");
            }
        }
    }
}
