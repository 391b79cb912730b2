//! `deckspec prove`: the arguments, the report printed (or as JSON), and each violation's path
//! written as a scenario file that replays it.

use super::simulate::house_rules;
use super::{EXIT_BROKEN, EXIT_FAILED, EXIT_OK, render};
use crate::prove::{Chance, Property, Prove, Reach, Report, Setup, Verdict, Walks};
use crate::script::Variant;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The arguments of `deckspec prove`.
#[derive(clap::Args, Debug)]
pub struct ProveArgs {
    /// The variants to explore (default: every variant of the rules folder).
    pub variants: Vec<String>,
    /// Players per game (default: the variant's fewest).
    #[arg(long)]
    pub players: Option<usize>,
    /// Deals to explore, one per seed: `--seed`, `--seed + 1`, …
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..=10_000))]
    pub deals: u64,
    /// The first deal's seed.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// States found per deal, at most, breadth first.
    #[arg(long, default_value_t = 20_000, value_parser = clap::value_parser!(u64).range(1..=crate::script::config::MAX_PROVE_STATES))]
    pub max_states: u64,
    /// Moves from the deal, at most, breadth first.
    #[arg(long, default_value_t = 1_000, value_parser = clap::value_parser!(u32).range(1..))]
    pub depth: u32,
    /// Random walks per deal, to the end of the game.
    #[arg(long, default_value_t = 1_000, value_parser = clap::value_parser!(u32).range(0..=1_000_000))]
    pub walks: u32,
    /// Moves a walk makes at most.
    #[arg(long, default_value_t = 500, value_parser = clap::value_parser!(u32).range(1..=10_000_000))]
    pub steps: u32,
    /// Values a variable may hold before it counts as growing without bound (default: four per
    /// card of the game).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub bound: Option<u64>,
    /// A house rule for every game, `name=value` (repeatable).
    #[arg(long = "house-rule", value_name = "NAME=VALUE")]
    pub house_rules: Vec<String>,
    /// A reduced deck: the only cards dealt, as `AS,AH,7S,7H,KD` (each suited card once; JK a
    /// joker, repeatable).
    #[arg(long, value_name = "CARDS")]
    pub deck: Option<String>,
    /// Fail unless every reachable state of every deal is explored (a limit stops none).
    #[arg(long)]
    pub exhaustive: bool,
    /// Count the generator's position in a state: every state is then exactly a game's, and a
    /// game that reshuffles forever has no end of states (default: a state's later shuffles are
    /// those of the first way found to it).
    #[arg(long)]
    pub exact_chance: bool,
    /// Tell apart cards the rules cannot (two cards of one rank and points, of different suits
    /// when the rules do not read suits); by default they are one class.
    #[arg(long)]
    pub no_symmetry: bool,
    /// Threads (default: all cores; each explores whole deals).
    #[arg(long, short = 'j', value_parser = clap::value_parser!(u64).range(1..=256))]
    pub jobs: Option<u64>,
    /// Where to write the scenarios that replay violations.
    #[arg(long, default_value = "prove-findings", value_name = "DIR")]
    pub out: PathBuf,
    /// Print the reports as one JSON object.
    #[arg(long)]
    pub json: bool,
    /// The folder holding the variants.
    #[arg(long, default_value = "rules", value_name = "DIR")]
    pub rules: PathBuf,
    /// The scenarios that say which lines each rulebook rule plays (`used` asks that each runs
    /// in some explored game); a variant none of them plays is judged without its rulebook.
    #[arg(long, default_value = "spec-tests", value_name = "PATH")]
    pub specs: PathBuf,
    /// Do not judge the rulebook: no scenarios are run and no walk runs on a probed engine.
    #[arg(long)]
    pub no_rulebook: bool,
}

pub(super) fn prove(args: ProveArgs) -> i32 {
    let (house, house_text) = match house_rules(&args.house_rules) {
        Ok(both) => both,
        Err(e) => {
            errln!("error: {e}");
            return EXIT_BROKEN;
        }
    };
    let Some(last_seed) = args.seed.checked_add(args.deals - 1) else {
        errln!(
            "error: --seed {} with --deals {} needs seeds past {}",
            args.seed,
            args.deals,
            u64::MAX
        );
        return EXIT_BROKEN;
    };
    let deck = match args.deck.as_deref().map(parse_deck).transpose() {
        Ok(deck) => deck,
        Err(e) => {
            errln!("error: --deck: {e}");
            return EXIT_BROKEN;
        }
    };
    let jobs = args.jobs.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        |j| j as usize,
    );
    let variants = match args.variants.is_empty() {
        true => crate::script::variant_names(&args.rules),
        false => args.variants.clone(),
    };
    if variants.is_empty() {
        errln!("error: {} holds no variant", args.rules.display());
        return EXIT_BROKEN;
    }
    let mut reports = Vec::new();
    let mut written = Vec::new();
    for name in &variants {
        let variant = match Variant::load_named(&args.rules, name) {
            Ok(v) => v,
            Err(e) => {
                err!("{}", render(&e));
                return EXIT_BROKEN;
            }
        };
        let fewest = variant.table().players.min.max(2);
        // The command line's configuration, or else the variant's own (`prove:`).
        let own = args.players.is_some() || !house.is_empty() || deck.is_some();
        let mut setups = if own || variant.prove.is_empty() {
            vec![Setup {
                players: args.players.unwrap_or(fewest),
                house: house.clone(),
                house_text: house_text.clone(),
                deck: deck.clone(),
                exhaustive: false,
                max_states: None,
            }]
        } else {
            variant.prove.clone()
        };
        for setup in &mut setups {
            setup.exhaustive |= args.exhaustive;
        }
        let config = Prove {
            setups,
            seeds: (args.seed..=last_seed).collect(),
            reach: Reach {
                max_states: args.max_states as usize,
                max_depth: args.depth,
            },
            walks: Walks {
                count: args.walks,
                max_steps: args.steps,
            },
            bound: args.bound.map(|b| b as usize),
            jobs,
            rule_lines: match args.no_rulebook {
                true => None,
                false => rule_lines(&args.rules, name, &args.specs),
            },
            symmetry: !args.no_symmetry,
            chance: match args.exact_chance {
                true => Chance::Exact,
                false => Chance::PerState,
            },
        };
        for setup in &config.setups {
            if let Err(e) = first_deal(&variant, setup, config.seeds[0]) {
                errln!("error: {name}: {e}");
                return EXIT_BROKEN;
            }
        }
        let started = Instant::now();
        let report = match crate::prove::prove(&variant, &config) {
            Ok(report) => report,
            Err(e) => {
                errln!("error: {name}: {e}");
                return EXIT_BROKEN;
            }
        };
        let seconds = started.elapsed().as_secs_f64();
        let files = match write_findings(&variant, &report, &args.out) {
            Ok(files) => files,
            Err(e) => {
                errln!("error: {e}");
                return EXIT_BROKEN;
            }
        };
        if !args.json {
            outln!("{}", text(&report, seconds, &files));
        }
        written.push(files);
        reports.push((report, seconds));
    }
    if args.json {
        let all: Vec<serde_json::Value> = reports
            .iter()
            .zip(&written)
            .map(|((r, s), files)| json(r, *s, files))
            .collect();
        outln!("{}", serde_json::Value::Array(all));
    }
    if reports.iter().all(|(r, _)| r.holds()) {
        EXIT_OK
    } else {
        EXIT_FAILED
    }
}

/// The rulebook's rules with the lines their scenarios play, and the variant loaded probed; `None`
/// when no scenario under `specs` plays the variant.
fn rule_lines(rules: &Path, name: &str, specs: &Path) -> Option<crate::prove::RuleLines> {
    if !specs.exists() {
        return None;
    }
    let measured = crate::coverage::measure(
        rules,
        &[name.to_string()],
        &[specs.to_path_buf()],
        &|_, _| {},
    )
    .ok()?;
    let probed = crate::script::Variant::load_named_probed(rules, name).ok()?;
    Some(crate::prove::RuleLines {
        probed: std::sync::Arc::new(probed),
        rules: measured.rules,
    })
}

/// A reduced deck as the command line writes it: cards separated by commas or spaces.
fn parse_deck(text: &str) -> Result<Vec<crate::kernel::Face>, String> {
    let faces = text
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|t| !t.is_empty())
        .map(|t| t.parse::<crate::kernel::Face>().map_err(|e| e.to_string()))
        .collect::<Result<Vec<_>, _>>()?;
    crate::kernel::reduced_deck(faces).map_err(|e| e.to_string())
}

/// The first deal of `setup`, made and set up: bad house rules, player counts and decks too
/// small for the deal fail here, before any exploration.
fn first_deal(variant: &Variant, setup: &Setup, seed: u64) -> Result<(), String> {
    let table = variant.table();
    if !table.players.contains(setup.players) {
        return Err(format!(
            "{} players: {} plays with {} to {}",
            setup.players, variant.name, table.players.min, table.players.max
        ));
    }
    let reduced = match &setup.deck {
        Some(deck) => {
            Some(crate::kernel::WithDeck::new(variant, deck.clone()).map_err(|e| e.to_string())?)
        }
        None => None,
    };
    let rules: &dyn crate::kernel::Rules = match &reduced {
        Some(r) => r,
        None => variant,
    };
    let names: Vec<String> = (0..setup.players).map(|i| format!("p{i}")).collect();
    let mut game = crate::kernel::Game::new(rules.table().clone(), names, seed, &setup.house)
        .map_err(|e| e.to_string())?;
    game.start(rules).map_err(|e| match &setup.deck {
        Some(deck) => format!("the deal fails with a deck of {} cards: {e}", deck.len()),
        None => format!("the deal fails: {e}"),
    })
}

/// A violation's scenario file: which configuration (of several), which property.
#[derive(Clone, Debug, PartialEq)]
struct Written {
    setup: Option<usize>,
    property: Property,
    file: PathBuf,
}

/// Each violation with a path, written as `<out>/<variant>[-<configuration>]-<property>.feature`.
fn write_findings(variant: &Variant, report: &Report, out: &Path) -> Result<Vec<Written>, String> {
    let mut files = Vec::new();
    let several = report.setups.len() > 1;
    for (i, setup) in report.setups.iter().enumerate() {
        for verdict in &setup.verdicts {
            let Some(finding) = &verdict.finding else {
                continue;
            };
            let label = match several {
                true => format!("{}-{}-{}", report.variant, i + 1, finding.property.id()),
                false => format!("{}-{}", report.variant, finding.property.id()),
            };
            let title = format!("{}: {}", report.variant, finding.property.id());
            let Some(text) = crate::prove::scenario(variant, &setup.setup, finding, &title) else {
                continue;
            };
            std::fs::create_dir_all(out).map_err(|e| format!("{}: {e}", out.display()))?;
            let file = out.join(format!("{label}.feature"));
            std::fs::write(&file, text).map_err(|e| format!("{}: {e}", file.display()))?;
            files.push(Written {
                setup: Some(i),
                property: finding.property,
                file,
            });
        }
    }
    Ok(files)
}

/// A configuration in words: `2 players, allow_draw_from_discard=true`.
fn setup_text(setup: &Setup) -> String {
    let mut text = format!("{} players", setup.players);
    if let Some(deck) = &setup.deck {
        text.push_str(&format!(", a deck of {} cards", deck.len()));
    }
    for (name, value) in &setup.house_text {
        text.push_str(&format!(", {name}={value}"));
    }
    if setup.exhaustive {
        text.push_str(", exhaustive");
    }
    text
}

/// `n` with thousands separated.
fn count(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn text(report: &Report, seconds: f64, files: &[Written]) -> String {
    let mut out = format!("prove {}\n", report.variant);
    let mut failed = 0;
    for (i, s) in report.setups.iter().enumerate() {
        out.push_str(&format!("  {} ({} deals)\n", setup_text(&s.setup), s.deals));
        out.push_str(&format!(
            "    explored {} states ({} with every move tried), {} moves, depth {}; {}\n",
            count(s.states),
            count(s.explored),
            count(s.transitions),
            s.depth,
            if s.complete {
                "every reachable state of every deal"
            } else {
                "not every reachable state (a limit was reached)"
            }
        ));
        out.push_str(&format!(
            "    {} cards in {} classes{}; chance {}\n",
            s.cards,
            s.card_classes,
            if s.card_classes < s.cards {
                " (cards the rules cannot tell apart are one)"
            } else {
                ""
            },
            match report.chance {
                Chance::PerState => "sampled once per state",
                Chance::Exact => "exact (the generator's position counts)",
            }
        ));
        out.push_str(&format!(
            "    {} distinct states/s and {} moves/s a core, breadth first\n",
            count((s.states as f64 / s.bfs_seconds.max(1e-9)) as u64),
            count((s.transitions as f64 / s.bfs_seconds.max(1e-9)) as u64),
        ));
        out.push_str(&format!(
            "    walked {} games: {} moves, the longest {}; {} stopped at the step limit; {} games ended\n",
            count(s.walks),
            count(s.walk_steps),
            count(s.longest_walk),
            count(s.unended_walks),
            count(s.ends)
        ));
        out.push_str(&format!(
            "    tried {} moves no form offers (another player's, out of phase, wrong arguments): {} accepted\n",
            count(s.hostile),
            count(s.hostile_accepted)
        ));
        for v in &s.verdicts {
            failed += verdict_text(
                &mut out,
                v,
                files
                    .iter()
                    .find(|w| w.setup == Some(i) && w.property == v.property),
            );
        }
    }
    out.push_str("  every configuration\n");
    match &report.rulebook {
        Some(r) => {
            out.push_str(&format!(
                "    rulebook: {} rules, {} with scenarios; {} whose lines all ran ({} lines of the rule scripts ran in the probed walks)\n",
                r.rules,
                r.judged,
                r.judged - r.unplayed.len() - r.declared.len(),
                r.lines_ran
            ));
            for (rule, why) in &r.declared {
                out.push_str(&format!("    declared unplayable: {rule}: {why}\n"));
            }
        }
        None => out.push_str(
            "    rulebook: not judged (no scenario plays the variant, or --no-rulebook)\n",
        ),
    }
    failed += verdict_text(&mut out, &report.used, None);
    out.push_str(&format!("  {seconds:.1} s\n"));
    out.push_str(&match failed {
        0 => "  every property held".to_string(),
        1 => "  1 property violated".to_string(),
        n => format!("  {n} properties violated"),
    });
    out
}

/// One verdict's lines; 1 when it failed.
fn verdict_text(out: &mut String, v: &Verdict, file: Option<&Written>) -> usize {
    match &v.finding {
        None => {
            out.push_str(&format!(
                "    ok    {:<12} {}\n",
                v.property.id(),
                v.property.claim()
            ));
            0
        }
        Some(f) => {
            out.push_str(&format!(
                "    FAIL  {:<12} {}\n",
                v.property.id(),
                f.message
            ));
            if let Some(w) = file {
                let moves = f.path.as_ref().map_or(0, |p| p.moves.len());
                out.push_str(&format!(
                    "          replay: deckspec test {} (seed {}, {moves} moves)\n",
                    w.file.display(),
                    f.seed
                ));
            }
            1
        }
    }
}

fn verdict_json(v: &Verdict, file: Option<&Written>) -> serde_json::Value {
    match &v.finding {
        None => serde_json::json!({ "held": true }),
        Some(f) => serde_json::json!({
            "held": false,
            "message": f.message,
            "seed": f.seed,
            "moves": f.path.as_ref().map(|p| p.moves.len()),
            "scenario": file.map(|w| w.file.display().to_string()),
        }),
    }
}

fn json(report: &Report, seconds: f64, files: &[Written]) -> serde_json::Value {
    let setups: Vec<serde_json::Value> = report
        .setups
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let verdicts: serde_json::Map<String, serde_json::Value> = s
                .verdicts
                .iter()
                .map(|v| {
                    let file = files
                        .iter()
                        .find(|w| w.setup == Some(i) && w.property == v.property);
                    (v.property.id().to_string(), verdict_json(v, file))
                })
                .collect();
            let house: serde_json::Map<String, serde_json::Value> = s
                .setup
                .house_text
                .iter()
                .map(|(k, v)| (k.clone(), serde_json::Value::String(v.clone())))
                .collect();
            serde_json::json!({
                "players": s.setup.players,
                "house_rules": house,
                "deck": s.setup.deck.as_ref().map(|d| d.iter().map(|f| f.to_string()).collect::<Vec<_>>()),
                "exhaustive": s.setup.exhaustive,
                "cards": s.cards,
                "card_classes": s.card_classes,
                "deals": s.deals,
                "states": s.states,
                "explored": s.explored,
                "transitions": s.transitions,
                "depth": s.depth,
                "complete": s.complete,
                "bfs_seconds": s.bfs_seconds,
                "states_per_second": s.states as f64 / s.bfs_seconds.max(1e-9),
                "moves_per_second": s.transitions as f64 / s.bfs_seconds.max(1e-9),
                "walks": s.walks,
                "walk_steps": s.walk_steps,
                "unended_walks": s.unended_walks,
                "longest_walk": s.longest_walk,
                "hostile_moves": s.hostile,
                "hostile_accepted": s.hostile_accepted,
                "ends": s.ends,
                "properties": verdicts,
            })
        })
        .collect();
    serde_json::json!({
        "variant": report.variant,
        "configurations": setups,
        "used": verdict_json(&report.used, None),
        "chance": report.chance,
        "rulebook": report.rulebook,
        "seconds": seconds,
        "holds": report.holds(),
    })
}
