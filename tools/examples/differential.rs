//! The engines' differential run for as long as asked: generated Rhai programs on the
//! interpreter and the compiled engine, every difference printed with the seed that replays it.
//!
//! ```text
//! cargo run --release -p deckspec-tools --example differential -- [--seconds N | --programs N] [--seed S]
//!     [--cases K] [--keep N] [--show SEED] [--file SCRIPT] [--faces N]
//! ```
//!
//! A program is one generated script of K functions (8 by default), each called on both
//! engines. Without `--seed` the first seed is drawn fresh and printed, so a failing run can be
//! replayed with `--seed`; `--show SEED` prints that seed's script and each function's two
//! outcomes; `--file` compares a script's functions (with the generated programs' module as
//! `lib`); `--faces N` plays N generated scripts of hooks that pass cards' faces on, in a game,
//! on both engines, and checks the face guard's rule; `--keep` prints the first N differences
//! (20). Exit 1 on any difference.

use deckspec::script::differential::{Differential, generate};
use deckspec::sim::on_script_thread;
use std::time::Duration;

/// What to run, from the command line.
#[derive(clap::Parser)]
#[command(
    about = "Generated Rhai programs on the interpreter and the compiled engine; exit 1 on any difference"
)]
struct Options {
    /// Run for this many seconds.
    #[arg(long, value_name = "N", conflicts_with = "programs")]
    seconds: Option<u64>,
    /// Run this many programs (1000 when neither this nor --seconds is given).
    #[arg(long, value_name = "N")]
    programs: Option<u64>,
    /// The first program's seed (drawn fresh and printed when not given).
    #[arg(long, value_name = "S")]
    seed: Option<u64>,
    /// Functions a program.
    #[arg(long, value_name = "K", default_value_t = 8, value_parser = clap::value_parser!(u8).range(1..=64))]
    cases: u8,
    /// Print this seed's script and each function's two outcomes.
    #[arg(long, value_name = "SEED")]
    show: Option<u64>,
    /// Print the first N differences.
    #[arg(long, value_name = "N", default_value_t = 20)]
    keep: usize,
    /// Compare a script's functions (with the generated programs' module as `lib`).
    #[arg(long, value_name = "SCRIPT")]
    file: Option<String>,
    /// Play N generated scripts of hooks that pass cards' faces on, on both engines, and check
    /// the face guard's rule.
    #[arg(long, value_name = "N")]
    faces: Option<u64>,
}

fn show(seed: u64, cases: usize) {
    let program = generate::program(seed, cases);
    println!(
        "// seed {seed}\n// module lib:\n{}\n// script:\n{}",
        program.module, program.entry
    );
    compare(&program.entry, Some(&program.module));
}

/// Each argument-free function of a script on both engines.
fn compare(entry: &str, module: Option<&str>) {
    match Differential::new(entry, module) {
        Err(e) => println!("// does not load: {e}"),
        Ok(d) => {
            for name in &d.functions() {
                let (a, a_ops) = d.run_counted(name, deckspec::script::EngineKind::Interpreted);
                let (b, b_ops) = d.run_counted(name, deckspec::script::EngineKind::Compiled);
                let mark = match b {
                    deckspec::script::differential::Outcome::NotCompiled => "interpreted on both",
                    _ if a == b => "same",
                    _ => "DIFFERENT",
                };
                println!(
                    "// {name}: {mark}\n//   interpreted {a}\n//   compiled    {b}\n//   operations: {a_ops} interpreted, {b_ops} compiled"
                );
            }
        }
    }
}

fn main() {
    let options = <Options as clap::Parser>::parse();
    let cases = usize::from(options.cases);
    if let Some(programs) = options.faces {
        let first = options.seed.unwrap_or_else(fresh_seed);
        println!("differential: faces, first seed {first}");
        let fixtures = std::path::Path::new(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../tests/engines/fixtures"
        ));
        let report = on_script_thread(|| {
            deckspec::script::differential::faces::run(fixtures, first, programs)
        })
        .expect("a script thread");
        for p in &report.problems {
            println!("{p}");
        }
        println!("{report}");
        std::process::exit(i32::from(!report.problems.is_empty()));
    }
    if let Some(path) = &options.file {
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| {
            eprintln!("differential: {path}: {e}");
            std::process::exit(2);
        });
        on_script_thread(|| compare(&text, Some(generate::MODULE))).expect("a script thread");
        return;
    }
    if let Some(seed) = options.show {
        on_script_thread(|| show(seed, cases)).expect("a script thread");
        return;
    }
    let first = options.seed.unwrap_or_else(fresh_seed);
    let limit = match (options.seconds, options.programs) {
        (None, None) => Limit::Programs(1000),
        (Some(s), _) => Limit::Time(Duration::from_secs(s)),
        (None, Some(n)) => Limit::Programs(n),
    };
    println!("differential: first seed {first} ({cases} functions a program)");
    let report = deckspec::script::differential::run_many(
        first,
        cases,
        options.keep,
        move |done, elapsed| match limit {
            Limit::Programs(n) => done < n,
            Limit::Time(t) => elapsed < t,
        },
    );
    for d in &report.differences {
        println!("{d}");
    }
    println!("{report}");
    if report.different > 0 || report.stuck.is_some() {
        std::process::exit(1);
    }
}

/// A first seed no run has used before (the clock's nanoseconds).
fn fresh_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(1, |d| d.as_nanos() as u64)
}

#[derive(Clone, Copy)]
enum Limit {
    Programs(u64),
    Time(Duration),
}
