//! `deckspec simulate` (a study on threads, or one shard of it) and `deckspec merge` (shards'
//! `--json` summaries into one): argument checks, the progress bar, printing and the report.

use super::{EXIT_BROKEN, EXIT_FAILED, EXIT_OK, render};
use crate::script::Variant;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};

/// The arguments of `deckspec simulate`.
#[derive(clap::Args, Debug)]
pub struct SimulateArgs {
    /// The variant to play.
    pub variant: String,
    /// Players per game.
    #[arg(long, default_value_t = 4)]
    pub players: usize,
    /// Number of games; game i uses seed `seed + i`.
    #[arg(long, default_value_t = 100)]
    pub games: u64,
    /// The first seed.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Seats: one level for every seat, or one per seat (random, easy, medium, hard, expert).
    #[arg(long, value_name = "LEVEL[,LEVEL…]", default_value = "random")]
    pub bots: String,
    /// A house rule for every game, `name=value` (repeatable).
    #[arg(long = "house-rule", value_name = "NAME=VALUE")]
    pub house_rules: Vec<String>,
    /// Threads to play on (default: all cores).
    #[arg(long, short = 'j')]
    pub jobs: Option<usize>,
    /// Play only the K-th of N disjoint slices of the games (`--shard 2/8`); combine the
    /// shards' `--json` outputs with `deckspec merge`.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<String>,
    /// Print the summary as one JSON object.
    #[arg(long)]
    pub json: bool,
    /// Also write a self-contained HTML report with charts.
    #[arg(long, value_name = "FILE.html")]
    pub report: Option<PathBuf>,
    /// The folder holding the variants.
    #[arg(long, default_value = "rules", value_name = "DIR")]
    pub rules: PathBuf,
}

/// `name=value`, the value read as YAML (`true`, `3`, `[0, 1]`, a word).
fn parse_house_rule(text: &str) -> Result<(String, crate::kernel::Value), String> {
    let (name, value) = text
        .split_once('=')
        .ok_or_else(|| format!("--house-rule takes name=value, not `{text}`"))?;
    let yaml: serde_yaml::Value =
        serde_yaml::from_str(value).map_err(|e| format!("--house-rule {name}: {e}"))?;
    let value = crate::script::config::yaml_value(&yaml)
        .ok_or_else(|| format!("--house-rule {name}: `{value}` is not a plain value"))?;
    Ok((name.trim().to_string(), value))
}

pub(super) fn simulate(args: SimulateArgs) -> i32 {
    use crate::sim::{Seating, Shard, Study};
    let variant = match Variant::load_named(&args.rules, &args.variant) {
        Ok(v) => v,
        Err(e) => {
            eprint!("{}", render(&e));
            return EXIT_BROKEN;
        }
    };
    let players = args.players;
    let seats: Result<Vec<Seating>, String> =
        args.bots.split(',').map(|s| s.trim().parse()).collect();
    let seats = match seats {
        Ok(s) if s.len() == 1 => vec![s[0].clone(); players],
        Ok(s) if s.len() == players => s,
        Ok(s) => {
            eprintln!(
                "error: --bots names {} seats, but there are {players} players",
                s.len()
            );
            return EXIT_BROKEN;
        }
        Err(e) => {
            eprintln!("error: --bots: {e}");
            return EXIT_BROKEN;
        }
    };
    let shard = match args.shard.as_deref().map(str::parse::<Shard>).transpose() {
        Ok(s) => s.unwrap_or(Shard::WHOLE),
        Err(e) => {
            eprintln!("error: {e}");
            return EXIT_BROKEN;
        }
    };
    let house: Result<Vec<_>, String> = args
        .house_rules
        .iter()
        .map(|h| parse_house_rule(h))
        .collect();
    let house = match house {
        Ok(h) => h,
        Err(e) => {
            eprintln!("error: {e}");
            return EXIT_BROKEN;
        }
    };
    // Check the house rules once, before any game starts.
    if let Err(e) = crate::kernel::Game::new(variant.table().clone(), vec!["p".into()], 0, &house) {
        let names: Vec<&str> = variant
            .table()
            .house_rules
            .iter()
            .map(|h| h.0.as_str())
            .collect();
        let help = match &e {
            crate::kernel::NewGameError::UnknownHouseRule(n) => {
                crate::suggest::suggestion(n, names.iter().copied())
                    .unwrap_or_else(|| format!("the house rules are: {}", names.join(", ")))
            }
            _ => String::new(),
        };
        eprintln!(
            "error: --house-rule: {e}{}",
            if help.is_empty() {
                String::new()
            } else {
                format!(" ({help})")
            }
        );
        return EXIT_BROKEN;
    }
    let house_text = args
        .house_rules
        .iter()
        .filter_map(|h| {
            h.split_once('=')
                .map(|(n, v)| (n.trim().to_string(), v.trim().to_string()))
        })
        .collect();
    let study = Study {
        variant: &variant,
        seats,
        house,
        house_text,
        games: args.games,
        first_seed: args.seed,
        shard,
        jobs: args
            .jobs
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
    };
    let planned = study.planned();
    let bar = if std::io::stderr().is_terminal() {
        let bar = indicatif::ProgressBar::new(planned);
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "{bar:40} {pos}/{len} games, {per_sec}, eta {eta}",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        bar
    } else {
        indicatif::ProgressBar::hidden()
    };
    let result = study.run(&|| bar.inc(1));
    bar.finish_and_clear();
    let summary = match result {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            if let crate::sim::SimError::Rules { error, .. } = &e
                && let Some(d) = variant.diagnose(error)
            {
                eprint!("{}", render(&d));
            }
            return EXIT_FAILED;
        }
    };
    print_summary(&summary, args.json, args.report.as_deref())
}

fn print_summary(summary: &crate::sim::Summary, json: bool, report: Option<&Path>) -> i32 {
    if json {
        println!("{}", summary.to_json());
    } else {
        print!("{}", summary.to_text());
    }
    if let Some(path) = report {
        if let Err(e) = std::fs::write(path, crate::report::html(summary)) {
            eprintln!("error: cannot write {}: {e}", path.display());
            return EXIT_BROKEN;
        }
        if !json {
            println!("report: {}", path.display());
        }
    }
    EXIT_OK
}

/// The arguments of `deckspec merge`.
#[derive(clap::Args, Debug)]
pub struct MergeArgs {
    /// `simulate --json` outputs: the shards of one study.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Summarize the shards given even if some are missing (the summary says which).
    #[arg(long)]
    pub allow_partial: bool,
    /// Print the summary as one JSON object.
    #[arg(long)]
    pub json: bool,
    /// Also write a self-contained HTML report with charts.
    #[arg(long, value_name = "FILE.html")]
    pub report: Option<PathBuf>,
}

/// The largest summary file `merge` reads: real ones are a few kilobytes.
const MAX_SUMMARY_BYTES: u64 = 64 * 1024 * 1024;

fn read_summary(file: &Path) -> Result<crate::sim::Summary, String> {
    use std::io::Read;
    let mut text = String::new();
    std::fs::File::open(file)
        .and_then(|f| f.take(MAX_SUMMARY_BYTES + 1).read_to_string(&mut text))
        .map_err(|e| format!("cannot read {}: {e}", file.display()))?;
    if text.len() as u64 > MAX_SUMMARY_BYTES {
        return Err(format!(
            "{} is larger than {MAX_SUMMARY_BYTES} bytes: not a `simulate --json` summary",
            file.display()
        ));
    }
    serde_json::from_str(&text)
        .map_err(|e| format!("{} is not a `simulate --json` summary: {e}", file.display()))
}

pub(super) fn merge(args: MergeArgs) -> i32 {
    let mut parts = Vec::with_capacity(args.files.len());
    for file in &args.files {
        match read_summary(file) {
            Ok(summary) => parts.push((file.display().to_string(), summary)),
            Err(e) => {
                eprintln!("error: {e}");
                return EXIT_BROKEN;
            }
        }
    }
    match crate::sim::merge(&parts, args.allow_partial) {
        Ok(total) => print_summary(&total, args.json, args.report.as_deref()),
        Err(e) => {
            eprintln!("error: {e}");
            EXIT_BROKEN
        }
    }
}
