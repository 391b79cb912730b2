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

struct Options {
    seconds: Option<u64>,
    programs: Option<u64>,
    seed: Option<u64>,
    cases: usize,
    show: Option<u64>,
    keep: usize,
    file: Option<String>,
    faces: Option<u64>,
}

fn parse() -> Result<Options, String> {
    let mut o = Options {
        seconds: None,
        programs: None,
        seed: None,
        cases: 8,
        show: None,
        keep: 20,
        file: None,
        faces: None,
    };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let mut number = |name: &str| -> Result<u64, String> {
            let text = args.next().ok_or(format!("{name} needs a number"))?;
            text.parse()
                .map_err(|_| format!("{name}: `{text}` is not a number"))
        };
        match flag.as_str() {
            "--seconds" => o.seconds = Some(number("--seconds")?),
            "--programs" => o.programs = Some(number("--programs")?),
            "--seed" => o.seed = Some(number("--seed")?),
            "--cases" => {
                let n = number("--cases")?;
                o.cases = usize::try_from(n)
                    .ok()
                    .filter(|&n| (1..=64).contains(&n))
                    .ok_or("--cases takes 1 to 64".to_string())?;
            }
            "--show" => o.show = Some(number("--show")?),
            "--faces" => o.faces = Some(number("--faces")?),
            "--file" => o.file = Some(args.next().ok_or("--file needs a path")?),
            "--keep" => o.keep = usize::try_from(number("--keep")?).unwrap_or(usize::MAX),
            other => return Err(format!("unknown argument `{other}`")),
        }
    }
    Ok(o)
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
    let options = match parse() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("differential: {e}");
            std::process::exit(2);
        }
    };
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
        on_script_thread(|| show(seed, options.cases)).expect("a script thread");
        return;
    }
    let first = options.seed.unwrap_or_else(fresh_seed);
    let limit = match (options.seconds, options.programs) {
        (None, None) => Limit::Programs(1000),
        (Some(s), _) => Limit::Time(Duration::from_secs(s)),
        (None, Some(n)) => Limit::Programs(n),
    };
    println!(
        "differential: first seed {first} ({} functions a program)",
        options.cases
    );
    let report = deckspec::script::differential::run_many(
        first,
        options.cases,
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
