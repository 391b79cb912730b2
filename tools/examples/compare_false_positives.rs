//! How often `deckspec balance --compare` calls a difference between two runs of one
//! configuration: each variant compared with itself on other deals, many times over. With the
//! corrections for metrics and looks, at most `--alpha` of the runs (5%) should call any metric
//! significant; without them nearly every run would.
//!
//! ```sh
//! cargo build --release
//! cargo run --release -p deckspec-tools --example compare_false_positives -- --runs 100
//! ```
//!
//! Each run is `deckspec balance <variant> --compare "" "" --seed S --json` as a child process,
//! with the seeds of run `i` starting at `i × 1,000,000` (A) and that plus the budget (B).

use std::path::PathBuf;
use std::process::Command;

/// What to run, from the command line.
#[derive(clap::Parser)]
#[command(
    about = "Compare each variant with itself on other deals, and count the runs that call a difference"
)]
struct Options {
    /// The build to run.
    #[arg(long, value_name = "PATH", default_value = "target/release/deckspec")]
    binary: PathBuf,
    /// Only this variant (repeatable; default every variant in rules/).
    #[arg(long = "variant", value_name = "NAME")]
    variants: Vec<String>,
    /// Comparisons a variant.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..=10_000))]
    runs: u64,
    /// Games a side a round.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(10..=1_000_000))]
    round: u64,
    /// Games a side at most.
    #[arg(long, default_value_t = 4000, value_parser = clap::value_parser!(u64).range(10..=10_000_000))]
    budget: u64,
}

fn main() -> Result<(), String> {
    let options: Options = clap::Parser::parse();
    let variants = match options.variants.is_empty() {
        false => options.variants.clone(),
        true => deckspec::script::variant_names(std::path::Path::new("rules")),
    };
    println!(
        "{} comparisons a variant of one configuration with itself: rounds of {}, at most {} games a side",
        options.runs, options.round, options.budget
    );
    for variant in &variants {
        let mut calling = 0;
        let mut metrics = 0;
        let mut significant = 0;
        for run in 0..options.runs {
            let seed = (run * 1_000_000).to_string();
            let out = Command::new(&options.binary)
                .args(["balance", variant, "--json", "--seed", &seed])
                .args(["--round", &options.round.to_string()])
                .args(["--budget", &options.budget.to_string()])
                .args(["--compare", "", ""])
                .output()
                .map_err(|e| format!("{}: {e}", options.binary.display()))?;
            if !out.status.success() {
                return Err(format!(
                    "{variant} run {run}: {}",
                    String::from_utf8_lossy(&out.stderr)
                ));
            }
            let json: serde_json::Value = serde_json::from_slice(&out.stdout)
                .map_err(|e| format!("{variant} run {run}: {e}"))?;
            let differences = json["comparison"]["differences"]
                .as_array()
                .ok_or_else(|| format!("{variant} run {run}: no differences"))?;
            let called = differences
                .iter()
                .filter(|d| d["significant"] == true)
                .count();
            metrics += differences.iter().filter(|d| !d["p"].is_null()).count();
            significant += called;
            calling += u64::from(called > 0);
        }
        println!(
            "  {variant}: {calling} of {} runs called a difference ({} of {metrics} tests)",
            options.runs, significant
        );
    }
    Ok(())
}
