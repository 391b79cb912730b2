//! `deckspec simulate` (a study on threads, or one shard of it) and the merge of its shards'
//! `--json` summaries into one: argument checks, the progress bar, printing and the report.

use super::{EXIT_BROKEN, EXIT_FAILED, EXIT_OK, render};
use crate::script::Variant;
use crate::sim::{MAX_JOBS, Seating, Shard, Study};
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
    /// Threads to play on (default: all cores; at most 256).
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
    /// Check every step of every game (cards conserved, refusals change nothing, no hidden card
    /// shown, replay gives the same log); a failed check names the seed and step (exit 1).
    #[arg(long)]
    pub verify: bool,
    /// Stop at the first bot action the rules refuse (a bot-script bug), naming its game (exit 1).
    /// Without it, refusals are counted, and more than 1% of bot decisions is warned about.
    #[arg(long)]
    pub strict: bool,
    /// Also write game I of the study (seed `seed + I`, the same seats) as a scenario file that
    /// replays it, for `deckspec test`.
    #[arg(long, num_args = 2, value_names = ["I", "FILE.feature"])]
    pub record_game: Vec<String>,
    /// The folder holding the variants.
    #[arg(long, default_value = "rules", value_name = "DIR")]
    pub rules: PathBuf,
    /// The engine that runs the rule scripts: `compiled` (closures compiled at load time) or
    /// `interpreted` (Rhai's interpreter, the reference).
    #[arg(long, default_value = "compiled", value_name = "ENGINE")]
    pub engine: crate::script::EngineKind,
    /// Run every hook call and bot decision on both engines and compare their results, refusal
    /// texts, game states and event logs; the first difference is an error (exit code 1).
    #[arg(long)]
    pub compare_engines: bool,
}

/// Every `--house-rule name=value`: as the kernel takes them, and as written (for a scenario's
/// Givens).
pub(super) type HouseRules = (Vec<(String, crate::kernel::Value)>, Vec<(String, String)>);

/// The `--house-rule` options, read (`parse_house_rule`) and as written.
pub(super) fn house_rules(texts: &[String]) -> Result<HouseRules, String> {
    let house = texts
        .iter()
        .map(|h| parse_house_rule(h))
        .collect::<Result<Vec<_>, String>>()?;
    let written = texts
        .iter()
        .filter_map(|h| {
            h.split_once('=')
                .map(|(n, v)| (n.trim().to_string(), v.trim().to_string()))
        })
        .collect();
    Ok((house, written))
}

/// `name=value`, the value read as YAML (`true`, `3`, `[0, 1]`, a word).
pub(super) fn parse_house_rule(text: &str) -> Result<(String, crate::kernel::Value), String> {
    let (name, value) = text
        .split_once('=')
        .ok_or_else(|| format!("--house-rule takes name=value, not `{text}`"))?;
    let yaml: serde_yaml::Value =
        serde_yaml::from_str(value).map_err(|e| format!("--house-rule {name}: {e}"))?;
    let value = crate::script::config::yaml_value(&yaml)
        .ok_or_else(|| format!("--house-rule {name}: `{value}` is not a plain value"))?;
    Ok((name.trim().to_string(), value))
}

/// Who sits where: one kind for every seat, or one per seat; bot levels must be the variant's.
fn seating(args: &SimulateArgs, variant: &Variant) -> Result<Vec<Seating>, String> {
    seats_for(&args.bots, args.players, variant)
}

/// The seats `--bots` names for `players` players, each level checked against the variant's.
pub(super) fn seats_for(
    bots: &str,
    players: usize,
    variant: &Variant,
) -> Result<Vec<Seating>, String> {
    let seats = bots
        .split(',')
        .map(|s| s.trim().parse())
        .collect::<Result<Vec<Seating>, String>>()
        .map_err(|e| format!("--bots: {e}"))?;
    let seats = match seats.len() {
        1 => vec![seats[0].clone(); players],
        n if n == players => seats,
        n => {
            return Err(format!(
                "--bots names {n} seats, but there are {players} players: give one level for every seat or one per seat"
            ));
        }
    };
    for seat in &seats {
        let Seating::Bot(level) = seat else { continue };
        let Some(book) = &variant.bots else {
            return Err(format!(
                "--bots: {} has no computer players (no bots.yaml in {}): use --bots random",
                variant.name,
                variant.dir.display()
            ));
        };
        if !book.levels().any(|l| l == level) {
            let levels: Vec<&str> = book.levels().collect();
            return Err(format!(
                "--bots: {} has no `{level}` level: its levels are {}",
                variant.name,
                levels.join(", ")
            ));
        }
    }
    Ok(seats)
}

/// `--players`, `--games` and `--jobs` checked against the variant: the threads to use.
pub(super) fn check_counts(
    players: usize,
    games: u64,
    jobs: Option<usize>,
    variant: &Variant,
) -> Result<usize, String> {
    use crate::kernel::limits::MAX_PLAYERS;
    if !(1..=MAX_PLAYERS).contains(&players) {
        return Err(format!(
            "--players takes 1 to {MAX_PLAYERS} players, not {players}"
        ));
    }
    let range = variant.table().players;
    if !range.contains(players) {
        return Err(format!(
            "--players: {} is for {range} players, not {players}: {}",
            variant.name,
            range.bound_for(players)
        ));
    }
    if games == 0 {
        return Err("--games takes 1 game or more, not 0".into());
    }
    Ok(match jobs {
        Some(j) if !(1..=MAX_JOBS).contains(&j) => {
            return Err(format!("--jobs takes 1 to {MAX_JOBS} threads, not {j}"));
        }
        Some(j) => j,
        None => std::thread::available_parallelism().map_or(1, |n| n.get().min(MAX_JOBS)),
    })
}

/// The study the arguments ask for, every argument checked before any game is played.
fn plan<'a>(args: &SimulateArgs, variant: &'a Variant) -> Result<Study<'a>, String> {
    let jobs = check_counts(args.players, args.games, args.jobs, variant)?;
    let shard = args
        .shard
        .as_deref()
        .map(str::parse::<Shard>)
        .transpose()?
        .unwrap_or(Shard::WHOLE);
    if args.seed.checked_add(args.games - 1).is_none() {
        return Err(format!(
            "--seed {} with --games {} needs seeds past {}: use a smaller --seed or --games",
            args.seed,
            args.games,
            u64::MAX
        ));
    }
    let seats = seating(args, variant)?;
    let (house, house_text) = house_rules(&args.house_rules)?;
    Ok(Study {
        variant,
        seats,
        house,
        house_text,
        games: args.games,
        first_seed: args.seed,
        shard,
        jobs,
        verify: args.verify,
        strict: args.strict,
        compare: None,
    })
}

/// Create and set up the study's first game: bad house rules and player counts the variant
/// cannot deal for fail here, before any game runs.
fn try_first_game(study: &Study) -> Result<(), String> {
    use crate::kernel::{Game, NewGameError};
    let table = study.variant.table();
    let names: Vec<String> = (0..study.seats.len()).map(|i| format!("p{i}")).collect();
    let mut game =
        Game::new(table.clone(), names, study.first_seed, &study.house).map_err(|e| {
            let names: Vec<&str> = table.house_rules.iter().map(|h| h.0.as_str()).collect();
            let help = match &e {
                NewGameError::UnknownHouseRule(n) => {
                    crate::suggest::suggestion(n, names.iter().copied())
                        .unwrap_or_else(|| format!("the house rules are: {}", names.join(", ")))
                }
                _ => String::new(),
            };
            let help = if help.is_empty() {
                help
            } else {
                format!(" ({help})")
            };
            match e {
                NewGameError::State(_)
                | NewGameError::DuplicatePlayer(_)
                | NewGameError::PlayerCount { .. } => {
                    format!("cannot create a {} game: {e}", study.variant.name)
                }
                _ => format!("--house-rule: {e}{help}"),
            }
        })?;
    let started =
        crate::sim::on_script_thread(|| game.start(study.variant)).map_err(|e| e.to_string())?;
    started.map_err(|e| {
        let what = format!(
            "{} cannot set up a game of {} players{}",
            study.variant.name,
            study.seats.len(),
            if study.house.is_empty() {
                ""
            } else {
                " with these house rules"
            }
        );
        match study.variant.diagnose(&e) {
            Some(d) => format!("{what}:\n{}", render(&d).trim_end()),
            None => format!("{what}: {e}"),
        }
    })
}

pub(super) fn simulate(args: SimulateArgs) -> i32 {
    if let Some(report) = &args.report
        && let Err(e) = super::writable("--report", report)
    {
        errln!("error: {e}");
        return EXIT_BROKEN;
    }
    let variant = match Variant::load_named(&args.rules, &args.variant) {
        Ok(mut v) => {
            // Compared, the compiled engine runs the game and the interpreter checks it.
            v.set_engine(if args.compare_engines {
                crate::script::EngineKind::Compiled
            } else {
                args.engine
            });
            v
        }
        Err(e) => {
            err!("{}", render(&e));
            return EXIT_BROKEN;
        }
    };
    let reference = match args
        .compare_engines
        .then(|| Variant::load_named(&args.rules, &args.variant))
        .transpose()
    {
        Ok(reference) => reference.map(|mut v| {
            v.set_engine(crate::script::EngineKind::Interpreted);
            v
        }),
        Err(e) => {
            err!("{}", render(&e));
            return EXIT_BROKEN;
        }
    };
    let planned = plan(&args, &variant).map(|mut study| {
        study.compare = reference.as_ref();
        study
    });
    let study = match planned.and_then(|s| try_first_game(&s).map(|()| s)) {
        Ok(study) => study,
        Err(e) => {
            errln!("error: {e}");
            return EXIT_BROKEN;
        }
    };
    if let [index, file] = args.record_game.as_slice()
        && let Err(e) = record(&study, index, Path::new(file))
    {
        errln!("error: --record-game: {e}");
        return EXIT_BROKEN;
    }
    let planned = study.planned();
    let bar = if std::io::stderr().is_terminal() {
        let bar = indicatif::ProgressBar::new(planned);
        let style = indicatif::ProgressStyle::with_template(
            "{bar:40} {pos}/{len} games, {rate} games/s, eta {eta}",
        )
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar())
        .with_key(
            "rate",
            |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = write!(w, "{:.0}", state.per_sec());
            },
        );
        bar.set_style(style);
        bar
    } else {
        indicatif::ProgressBar::hidden()
    };
    let result = study.run(&|| bar.inc(1));
    bar.finish_and_clear();
    let summary = match result {
        Ok(s) => s,
        Err(e) => {
            errln!("error: {e}");
            if let crate::sim::SimError::Rules { error, .. } = &e
                && let Some(d) = variant.diagnose(error)
            {
                err!("{}", render(&d));
            }
            return EXIT_FAILED;
        }
    };
    warn_refusals(&summary);
    if args.compare_engines {
        errln!(
            "engines: compiled and interpreted agree on every hook call and bot decision of {} (results, refusal texts, game states, event logs, operations counted)",
            crate::spec::suite::counted(usize::try_from(planned).unwrap_or(usize::MAX), "game")
        );
    }
    print_summary(&summary, args.json, args.report.as_deref())
}

/// Write game `index` of the study as a scenario file.
fn record(study: &Study, index: &str, file: &Path) -> Result<(), String> {
    let index: u64 = index.parse().map_err(|_| {
        format!(
            "`{index}` is not a game number: give 0 to {}",
            study.games - 1
        )
    })?;
    if index >= study.games {
        return Err(format!(
            "the study has games 0 to {}, not {index}",
            study.games - 1
        ));
    }
    if file.extension().is_none_or(|e| e != "feature") {
        return Err(format!(
            "{} does not end in .feature: `deckspec test` runs only .feature files",
            file.display()
        ));
    }
    super::writable("--record-game", file)
        .map_err(|e| e.trim_start_matches("--record-game: ").to_string())?;
    let seed = study.first_seed + index;
    let command: Vec<String> = std::env::args()
        .enumerate()
        .map(|(i, a)| if i == 0 { "deckspec".to_string() } else { a })
        .collect();
    let header = format!(
        "Recorded by: {}\nGame {index} of the study: seed {seed}. Replay it with deckspec test.",
        command.join(" ")
    );
    let text = crate::sim::on_script_thread(|| {
        crate::sim::record_game(
            study.variant,
            &study.seats,
            seed,
            &study.house,
            &study.house_text,
            &header,
        )
    })
    .map_err(|e| e.to_string())?
    .map_err(|e| e.to_string())?;
    std::fs::write(file, text).map_err(|e| format!("cannot write {}: {e}", file.display()))?;
    errln!("recorded game {index} (seed {seed}) in {}", file.display());
    Ok(())
}

/// Bots the rules refuse often play another game than the one the study means to measure.
fn warn_refusals(summary: &crate::sim::Summary) {
    if summary.refusal_share() > crate::sim::REFUSAL_WARNING_SHARE {
        errln!(
            "warning: the rules refused {:.1}% of the bots' decisions: this study does not measure the bots' play (the summary's note names the first refusal; --strict stops at it)",
            summary.refusal_share() * 100.0
        );
    }
}

fn print_summary(summary: &crate::sim::Summary, json: bool, report: Option<&Path>) -> i32 {
    if json {
        outln!("{}", summary.to_json());
    } else {
        out!("{}", summary.to_text());
    }
    if let Some(path) = report {
        if let Err(e) = std::fs::write(path, crate::report::html(summary)) {
            errln!("error: cannot write {}: {e}", path.display());
            return EXIT_BROKEN;
        }
        if !json {
            outln!("report: {}", path.display());
        }
    }
    EXIT_OK
}

/// `deckspec merge` of `simulate --json` summaries (read as JSON by `merge`): checked, added up
/// and printed.
pub(super) fn merge_summaries(
    read: Vec<(String, serde_json::Value)>,
    allow_partial: bool,
    json: bool,
    report: Option<&Path>,
) -> i32 {
    let mut parts = Vec::with_capacity(read.len());
    for (file, value) in read {
        match serde_json::from_value::<crate::sim::Summary>(value) {
            Ok(summary) => parts.push((file, summary)),
            Err(e) => {
                errln!("error: {file} is not a `simulate --json` summary: {e}");
                return EXIT_BROKEN;
            }
        }
    }
    match crate::sim::merge(&parts, allow_partial) {
        Ok(total) => {
            warn_refusals(&total);
            print_summary(&total, json, report)
        }
        Err(e) => {
            errln!("error: {e}");
            EXIT_BROKEN
        }
    }
}
