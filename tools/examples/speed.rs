//! The speed of the bundled variants, measured honestly: instructions per action under valgrind
//! (callgrind), the load subtracted, and actions per CPU-second in interleaved runs of this build
//! and a reference build, so that neither the machine's drift nor another program's load can
//! tilt a comparison.
//!
//! ```sh
//! cargo build --release
//! cargo run --release -p deckspec-tools --example speed -- --instructions
//! cargo run --release -p deckspec-tools --example speed -- --cpu --reference /tmp/deckspec-before --rounds 7
//! ```
//!
//! Each figure is of `deckspec simulate <variant> --jobs 1` run as a child process: random play
//! (every seat picks a uniformly random legal action) and expert-bot games, on the compiled engine
//! and on the interpreter (`--engine interpreted`). Instructions: `(I(n games) − I(1 game)) /
//! (actions(n) − actions(1))`, so loading the variant does not count. CPU time: the children's
//! user and system time (`/proc/self/stat`, Linux), builds alternating run by run.

use std::path::{Path, PathBuf};
use std::process::Command;

/// What to measure, from the command line.
#[derive(clap::Parser)]
#[command(
    about = "The bundled variants' speed: instructions per action under callgrind, and actions per CPU-second in interleaved runs",
    group(clap::ArgGroup::new("measure").required(true).multiple(true).args(["instructions", "cpu"]))
)]
struct Options {
    /// Instructions per action under callgrind (valgrind must be installed).
    #[arg(long)]
    instructions: bool,
    /// Actions per CPU-second, this build's runs interleaved with the reference's.
    #[arg(long)]
    cpu: bool,
    /// The build to measure.
    #[arg(long, value_name = "PATH", default_value = "target/release/deckspec")]
    binary: PathBuf,
    /// A build to compare with (for example one built from another commit).
    #[arg(long, value_name = "PATH")]
    reference: Option<PathBuf>,
    /// Only this variant (repeatable; default every variant in rules/).
    #[arg(long = "variant", value_name = "NAME")]
    variants: Vec<String>,
    /// Interleaved rounds for --cpu.
    #[arg(long, value_name = "N", default_value_t = 5, value_parser = clap::value_parser!(u64).range(1..=1000))]
    rounds: u64,
    /// Random games per measured run, at least 2 (default 400 for --instructions, 10000 for --cpu).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(2..))]
    random_games: Option<u64>,
    /// Expert-bot games per measured run, at least 2 (default 30 for --instructions, 300 for --cpu).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(2..))]
    bot_games: Option<u64>,
    /// Leave out the interpreter's rows.
    #[arg(long)]
    no_interpreter: bool,
}

impl Options {
    /// The games a measured run of `mix` plays: `--bot-games` or `--random-games` when given,
    /// else the measure's default for bot or random play.
    fn games(&self, mix: &Mix, bots_default: u64, random_default: u64) -> u64 {
        if mix.bots {
            self.bot_games.unwrap_or(bots_default)
        } else {
            self.random_games.unwrap_or(random_default)
        }
    }
}

/// The options given, every variant in rules/ when none is named.
fn options() -> Options {
    let mut o = <Options as clap::Parser>::parse();
    if o.variants.is_empty() {
        o.variants = deckspec::script::variant_names(Path::new("rules"));
    }
    o
}

/// One kind of run: its label and the `simulate` arguments after the variant.
struct Mix {
    label: &'static str,
    args: &'static [&'static str],
    bots: bool,
}

const MIXES: [Mix; 4] = [
    Mix {
        label: "random, compiled",
        args: &[],
        bots: false,
    },
    Mix {
        label: "random, interpreted",
        args: &["--engine", "interpreted"],
        bots: false,
    },
    Mix {
        label: "expert bots, compiled",
        args: &["--bots", "expert"],
        bots: true,
    },
    Mix {
        label: "expert bots, interpreted",
        args: &["--bots", "expert", "--engine", "interpreted"],
        bots: true,
    },
];

/// `binary simulate variant --games n --jobs 1 <mix> --json`, as a command.
fn simulate(binary: &Path, variant: &str, games: u64, mix: &Mix) -> Command {
    let mut c = Command::new(binary);
    c.args([
        "simulate",
        variant,
        "--games",
        &games.to_string(),
        "--jobs",
        "1",
        "--json",
    ]);
    c.args(mix.args);
    c
}

/// The `actions` a `--json` summary counts.
fn actions(stdout: &[u8]) -> u64 {
    let summary: serde_json::Value = serde_json::from_slice(stdout).unwrap_or_else(|e| {
        panic!(
            "simulate printed no JSON summary ({e}): {}",
            String::from_utf8_lossy(stdout)
        )
    });
    summary["actions"].as_u64().expect("a count of actions")
}

/// Run a command to its end; its stdout.
fn run(mut command: Command) -> Vec<u8> {
    let out = command
        .output()
        .unwrap_or_else(|e| panic!("cannot run {command:?}: {e}"));
    assert!(
        out.status.success(),
        "{command:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// Instructions the command runs under callgrind, and its stdout.
fn instructions(command: Command) -> (u64, Vec<u8>) {
    let mut c = Command::new("valgrind");
    c.args(["--tool=callgrind", "--callgrind-out-file=/dev/null"]);
    c.arg(command.get_program());
    c.args(command.get_args());
    let out = c.output().expect("valgrind runs (is it installed?)");
    assert!(
        out.status.success(),
        "{c:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let err = String::from_utf8_lossy(&out.stderr);
    let count = err
        .lines()
        .filter_map(|l| l.split("Collected :").nth(1))
        .filter_map(|n| n.trim().parse::<u64>().ok())
        .sum();
    (count, out.stdout)
}

/// The children's CPU time so far, in seconds (`/proc/self/stat`: cutime and cstime, in clock
/// ticks of 1/100 s).
fn children_cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").expect("/proc/self/stat (Linux)");
    // The fields after the command name, which is in parentheses and may hold spaces.
    let rest = &stat[stat.rfind(')').expect("a command name") + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // cutime and cstime are fields 16 and 17 of the whole line; `rest` starts at field 3.
    let ticks = |i: usize| fields[i - 3].parse::<f64>().expect("a tick count");
    (ticks(16) + ticks(17)) / 100.0
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let o = options();
    let builds: Vec<(&str, &Path)> = std::iter::once(("this build", o.binary.as_path()))
        .chain(o.reference.as_deref().map(|r| ("reference", r)))
        .collect();
    for (_, b) in &builds {
        assert!(
            b.is_file(),
            "no build at {} (cargo build --release?)",
            b.display()
        );
    }
    let mixes: Vec<&Mix> = MIXES
        .iter()
        .filter(|m| !o.no_interpreter || !m.label.ends_with("interpreted"))
        .collect();
    if o.instructions {
        println!("instructions per action (callgrind, one core, 4 players, the load subtracted)");
        for variant in &o.variants {
            for mix in &mixes {
                let games = o.games(mix, 30, 400);
                let mut row = format!("{variant:<8} {:<26}", mix.label);
                for (name, binary) in &builds {
                    let (all, out_all) = instructions(simulate(binary, variant, games, mix));
                    let (one, out_one) = instructions(simulate(binary, variant, 1, mix));
                    let acted = actions(&out_all) - actions(&out_one);
                    let per = (all - one) / acted.max(1);
                    row += &format!(" {name}: {per:>7} ({games} games, {acted} actions)");
                }
                println!("{row}");
            }
        }
    }
    if o.cpu {
        println!(
            "actions per CPU-second (one core, 4 players, {} interleaved rounds; best and median)",
            o.rounds
        );
        for variant in &o.variants {
            for mix in &mixes {
                let games = o.games(mix, 300, 10_000);
                let mut rates = vec![Vec::new(); builds.len()];
                let mut ratios = Vec::new();
                for round in 0..o.rounds {
                    let mut this_round = vec![0.0; builds.len()];
                    // Alternate which build goes first, so neither always runs on a warmer machine.
                    let order: Vec<usize> = if round % 2 == 0 {
                        (0..builds.len()).collect()
                    } else {
                        (0..builds.len()).rev().collect()
                    };
                    for i in order {
                        let before = children_cpu_seconds();
                        let out = run(simulate(builds[i].1, variant, games, mix));
                        let cpu = children_cpu_seconds() - before;
                        let rate = actions(&out) as f64 / cpu.max(0.01);
                        rates[i].push(rate);
                        this_round[i] = rate;
                    }
                    if builds.len() == 2 {
                        ratios.push(this_round[0] / this_round[1]);
                    }
                }
                let mut row = format!("{variant:<8} {:<26}", mix.label);
                for (i, (name, _)) in builds.iter().enumerate() {
                    let best = rates[i].iter().copied().fold(0.0, f64::max);
                    let med = median(&mut rates[i]);
                    row += &format!(" {name}: {best:>9.0} / {med:>9.0}");
                }
                if !ratios.is_empty() {
                    let low = ratios.iter().copied().fold(f64::INFINITY, f64::min);
                    let high = ratios.iter().copied().fold(0.0, f64::max);
                    row += &format!(
                        "  this/reference: median {:.3} (range {low:.3}–{high:.3})",
                        median(&mut ratios)
                    );
                }
                println!("{row}");
            }
        }
    }
}
