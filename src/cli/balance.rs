//! `deckspec balance`: the arguments, the study (or the skill matrix), and its metrics printed
//! with their intervals, or as JSON.

use super::simulate::{check_counts, house_rules, seats_for};
use super::{EXIT_BROKEN, EXIT_OK, render};
use crate::balance::{Balance, Better, Metric, Tally};
use crate::script::Variant;
use crate::sim::Seating;
use std::path::PathBuf;

/// The arguments of `deckspec balance`.
#[derive(clap::Args, Debug)]
pub struct BalanceArgs {
    /// The variant to play.
    pub variant: String,
    /// Players per game.
    #[arg(long, default_value_t = 4)]
    pub players: usize,
    /// Number of games; game i uses seed `seed + i`.
    #[arg(long, default_value_t = 2_000)]
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
    /// Threads (default: all cores).
    #[arg(long, short = 'j')]
    pub jobs: Option<usize>,
    /// Steps after which a game stops and counts as a stalemate.
    #[arg(long, default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    pub max_steps: u64,
    /// Which score leads during a game: `lower` or `higher` (default: told from the first 50
    /// games' winners).
    #[arg(long, value_name = "lower|higher")]
    pub better: Option<String>,
    /// Instead of one study: every pair of these bot levels (`easy,expert`, or `all`) in
    /// two-player games, `--games` games a pair, seats alternating.
    #[arg(long, value_name = "LEVEL,LEVEL…")]
    pub skill: Option<String>,
    /// Compare two configurations, each written as options of this command in one argument
    /// (`--compare "--house-rule penalty_draw_count=2" "--house-rule penalty_draw_count=4"`;
    /// each may set `--house-rule`, `--bots`, `--players`, `--rules` and `--seed`, the rest is
    /// this command's): `--round` games a side, then twice as many each look, until every
    /// difference is decided or `--budget` games a side are played.
    #[arg(long, num_args = 2, value_names = ["A", "B"], allow_hyphen_values = true)]
    pub compare: Vec<String>,
    /// With `--compare`: games a side before the first look; each look after doubles them, up
    /// to `--budget`.
    #[arg(long, default_value_t = 2_000, value_parser = clap::value_parser!(u64).range(10..))]
    pub round: u64,
    /// With `--compare`: games a side at most.
    #[arg(long, default_value_t = 20_000, value_parser = clap::value_parser!(u64).range(10..))]
    pub budget: u64,
    /// With `--compare`: the chance, over every metric and every round, of calling a difference
    /// that is not there.
    #[arg(long, default_value_t = 0.05)]
    pub alpha: f64,
    /// With `--compare`: a mean's difference whose interval lies within this share of A's value
    /// is decided as none that matters.
    #[arg(long, default_value_t = 0.05)]
    pub margin: f64,
    /// With `--compare`: a proportion's difference (a share or a lift) whose interval lies within
    /// this much is decided as none that matters (0.01: one percentage point).
    #[arg(long, default_value_t = 0.01)]
    pub margin_points: f64,
    /// Play only the K-th of N disjoint slices of the games (`--shard 2/8`); combine the
    /// shards' `--json` outputs with `deckspec merge`.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<String>,
    /// How many of the games are played on a probed copy of the variant to count how often each
    /// rulebook rule fires (every ⌈games / N⌉-th game; a probed game is about ten times slower);
    /// 0 leaves it out.
    #[arg(long, value_name = "N", default_value_t = 500)]
    pub rule_games: u64,
    /// The scenarios that tell the rules' lines apart, for counting how often each rule fires.
    #[arg(long, value_name = "PATH", default_value = "spec-tests")]
    pub specs: PathBuf,
    /// Print each metric's definition under it.
    #[arg(long)]
    pub definitions: bool,
    /// Print the report as one JSON object.
    #[arg(long)]
    pub json: bool,
    /// Also write a self-contained HTML page with the metrics (or the differences, or the skill
    /// matrix) drawn with their intervals.
    #[arg(long, value_name = "FILE.html")]
    pub report: Option<PathBuf>,
    /// The folder holding the variants.
    #[arg(long, default_value = "rules", value_name = "DIR")]
    pub rules: PathBuf,
}

pub(super) fn balance(args: BalanceArgs) -> i32 {
    study_command(
        &args.rules,
        &args.variant,
        args.report.as_deref(),
        args.json,
        |v| run(&args, v),
    )
}

/// A study command's frame (`balance`, `tune`): the variant loaded and the report's path
/// checked before any game, then what `study` found printed (`finish`).
pub(super) fn study_command(
    rules: &std::path::Path,
    name: &str,
    report: Option<&std::path::Path>,
    json: bool,
    study: impl FnOnce(&Variant) -> Result<Found, String>,
) -> i32 {
    let variant = match Variant::load_named(rules, name) {
        Ok(v) => v,
        Err(e) => {
            err!("{}", render(&e));
            return EXIT_BROKEN;
        }
    };
    if let Some(report) = report
        && let Err(e) = super::writable("--report", report)
    {
        errln!("error: {e}");
        return EXIT_BROKEN;
    }
    finish(study(&variant), json, report)
}

/// `--better`: `lower`, `higher`, or not given (told from the games).
pub(super) fn parse_better(text: Option<&str>) -> Result<Option<Better>, String> {
    match text {
        None => Ok(None),
        Some("lower") => Ok(Some(Better::Lower)),
        Some("higher") => Ok(Some(Better::Higher)),
        Some(other) => Err(format!("--better takes lower or higher, not `{other}`")),
    }
}

/// What a study found: its text, its JSON, and which page shows it.
pub(super) struct Found {
    pub text: String,
    pub json: serde_json::Value,
    pub page: crate::balance::report::Page,
}

/// Print what was found (text or JSON) and write its report page, if asked.
pub(super) fn finish(
    found: Result<Found, String>,
    json: bool,
    report: Option<&std::path::Path>,
) -> i32 {
    let found = match found {
        Ok(f) => f,
        Err(e) => {
            errln!("error: {e}");
            return EXIT_BROKEN;
        }
    };
    if let Some(path) = report {
        let page = crate::balance::report::html(found.page, &found.json, &found.text);
        if let Err(e) = std::fs::write(path, page) {
            errln!("error: --report: cannot write {}: {e}", path.display());
            return EXIT_BROKEN;
        }
    }
    match json {
        true => outln!("{}", found.json),
        false => outln!("{}", found.text),
    }
    if let Some(path) = report
        && !json
    {
        outln!("report: {}", path.display());
    }
    EXIT_OK
}

fn run(args: &BalanceArgs, variant: &Variant) -> Result<Found, String> {
    let players = match args.skill {
        Some(_) => 2,
        None => args.players,
    };
    let jobs = check_counts(players, args.games, args.jobs, variant)?;
    let (house, house_text) = house_rules(&args.house_rules)?;
    let better = parse_better(args.better.as_deref())?;
    if args.seed.checked_add(args.games - 1).is_none() {
        return Err(format!(
            "--seed {} with --games {} needs seeds past {}",
            args.seed,
            args.games,
            u64::MAX
        ));
    }
    if args.shard.is_some() && (args.skill.is_some() || !args.compare.is_empty()) {
        return Err("--shard plays a slice of one study: not with --skill or --compare".into());
    }
    if let [a, b] = &args.compare[..] {
        return compare(args, variant, a, b, jobs, better);
    }
    if let Some(levels) = &args.skill {
        let levels = skill_levels(levels, variant)?;
        let matchups = crate::balance::skill(
            variant,
            &levels,
            &house,
            args.games,
            args.seed,
            jobs,
            args.max_steps,
        )
        .map_err(|e| e.to_string())?;
        return Ok(Found {
            text: skill_text(&variant.name, &levels, &matchups, args.games),
            json: serde_json::json!({ "variant": variant.name, "skill": matchups }),
            page: crate::balance::report::Page::Skill,
        });
    }
    let seats = seats_for(&args.bots, players, variant)?;
    let shard = match &args.shard {
        None => crate::sim::Shard::WHOLE,
        Some(text) => text.parse::<crate::sim::Shard>()?,
    };
    let (activation, rules_head) = activation(args, variant);
    let study = Balance {
        variant,
        seats: seats.clone(),
        house,
        games: args.games,
        first_seed: args.seed,
        jobs,
        max_steps: args.max_steps,
        better,
        shard,
        activation: activation.as_ref(),
    };
    let report = study.run().map_err(|e| e.to_string())?;
    let head = StudyHead {
        variant: variant.name.clone(),
        rules_fingerprint: crate::sim::rules_fingerprint(variant),
        players,
        seats: seats.iter().map(seat_name).collect(),
        house_rules: house_text.into_iter().collect(),
        games: args.games,
        first_seed: args.seed,
        max_steps: args.max_steps,
        better: report.better,
        better_inferred: report.inferred,
        actions: variant
            .table()
            .actions
            .iter()
            .map(|a| a.name.to_string())
            .collect(),
        rule_activation: rules_head,
    };
    Ok(study_found(
        &head,
        &shard.to_string(),
        &report.tally,
        report.seconds,
        args.definitions,
    ))
}

/// What names a study: every shard of one study has the same head, and `merge` checks it.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub(super) struct StudyHead {
    pub variant: String,
    pub rules_fingerprint: String,
    pub players: usize,
    pub seats: Vec<String>,
    pub house_rules: std::collections::BTreeMap<String, String>,
    /// The study's games, every shard's together (`games` in the JSON are the file's own).
    #[serde(rename = "study_games")]
    pub games: u64,
    pub first_seed: u64,
    pub max_steps: u64,
    pub better: Better,
    pub better_inferred: bool,
    pub actions: Vec<String>,
    pub rule_activation: RulesHead,
}

/// Which rules' activation a study measured, on which games, or why none.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub(super) struct RulesHead {
    /// Study game `i` was probed when `i % every == 0`; 0 when none was.
    pub every: u64,
    /// The rules measured, in rulebook order (the tally's `rule_fires`).
    pub rules: Vec<RuleHead>,
    /// Rules without a scenario, or whose scenarios' accepted steps run no script statement.
    pub unmeasured: Vec<String>,
    /// Why no rule was measured, when none was.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub why_not: Option<String>,
}

/// A measured rule.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub(super) struct RuleHead {
    pub id: String,
    pub text: String,
    /// How many rules' scenarios play its mark's lines (1: its own only).
    pub shared_by: usize,
    /// Its most specific mark's lines, `file:line`.
    pub lines: Vec<String>,
}

/// The rules' activation for a study: their marks from a coverage run of the scenarios under
/// `--specs`, and probed copies of the variant; or, with the head, why there is none.
fn activation(
    args: &BalanceArgs,
    variant: &Variant,
) -> (Option<crate::balance::Activation>, RulesHead) {
    let none = |why: String| {
        (
            None,
            RulesHead {
                why_not: Some(why),
                ..RulesHead::default()
            },
        )
    };
    if args.rule_games == 0 {
        return none("--rule-games 0".into());
    }
    if !args.specs.exists() {
        return none(format!(
            "no scenarios at {} (--specs)",
            args.specs.display()
        ));
    }
    let measured = match crate::coverage::measure(
        &args.rules,
        std::slice::from_ref(&variant.name),
        std::slice::from_ref(&args.specs),
        &|_, _| {},
    ) {
        Ok(m) => m,
        Err(e) => return none(e.to_string()),
    };
    let (rules, name) = (args.rules.clone(), variant.name.clone());
    let load = Box::new(move || {
        Variant::load_named_probed(&rules, &name).map_err(|e| e.short().to_string())
    });
    let every = args.games.div_ceil(args.rule_games.min(args.games).max(1));
    match crate::balance::Activation::new(&measured.rules, every, load) {
        Ok(a) if a.rules.is_empty() => none(format!(
            "no scenario under {} plays a line of {}'s scripts",
            args.specs.display(),
            variant.name
        )),
        Ok(a) => {
            let head = RulesHead {
                every: a.every,
                rules: a
                    .rules
                    .iter()
                    .map(|r| RuleHead {
                        id: r.id.clone(),
                        text: r.text.clone(),
                        shared_by: r.shared_by,
                        lines: r.lines.clone(),
                    })
                    .collect(),
                unmeasured: a.unmeasured.clone(),
                why_not: None,
            };
            (Some(a), head)
        }
        Err(e) => none(e),
    }
}

/// A study's (or its shards') text and JSON from its head and its games' tally. `shards` names
/// the slices the tally holds (`1/1` for a whole study).
pub(super) fn study_found(
    head: &StudyHead,
    shards: &str,
    tally: &Tally,
    seconds: f64,
    definitions: bool,
) -> Found {
    let actions: Vec<&str> = head.actions.iter().map(|a| &**a).collect();
    let metrics = tally.metrics(&actions);
    let rule_ids: Vec<&str> = head.rule_activation.rules.iter().map(|r| &*r.id).collect();
    let rule_metrics = tally.rule_metrics(&rule_ids);
    let json = serde_json::json!({
        "variant": head.variant,
        "rules_fingerprint": head.rules_fingerprint,
        "players": head.players,
        "seats": head.seats,
        "house_rules": head.house_rules,
        "games": tally.games,
        "study_games": head.games,
        "shard": shards,
        "first_seed": head.first_seed,
        "max_steps": head.max_steps,
        "better": head.better,
        "better_inferred": head.better_inferred,
        "actions": head.actions,
        "confidence": crate::balance::stats::CONFIDENCE,
        "metrics": metrics,
        "rule_activation": head.rule_activation,
        "probed_games": tally.probed_games(),
        "rule_metrics": rule_metrics,
        "end_reasons": tally.reasons,
        "seconds": seconds,
        "tally": tally,
    });
    let mut out = format!(
        "balance {}: {} games of {} players ({}), seeds {}…{}{}\n",
        head.variant,
        tally.games,
        head.players,
        head.seats.join(", "),
        head.first_seed,
        head.house_rules
            .iter()
            .map(|(k, v)| format!(", {k}={v}"))
            .collect::<String>(),
        match shards {
            "1/1" => String::new(),
            s => format!(", shard {s} of a study of {} games", head.games),
        }
    );
    out.push_str(&format!(
        "leading: the {} score at each turn's start{}\n",
        match head.better {
            Better::Lower => "lowest",
            Better::Higher => "highest",
        },
        if head.better_inferred {
            " (told from the first games' winners; --better sets it)"
        } else {
            ""
        }
    ));
    out.push_str(&format!(
        "  {:<34} {:>10}  {:>23}  {:>9}\n",
        "metric", "value", "95% interval", "n"
    ));
    for m in &metrics {
        out.push_str(&metric_line(m));
        if definitions {
            out.push_str(&format!("      {}\n", m.definition));
        }
    }
    out.push_str(&rules_text(
        &head.rule_activation,
        tally.probed_games(),
        &rule_metrics,
        definitions,
    ));
    let reasons: Vec<String> = tally
        .reasons
        .iter()
        .map(|(r, n)| format!("{r} {n}"))
        .collect();
    out.push_str(&format!("ended by: {}\n", reasons.join(", ")));
    out.push_str(&format!(
        "{:.1} s, {:.0} games/s",
        seconds,
        tally.games as f64 / seconds.max(1e-9)
    ));
    Found {
        text: out,
        json,
        page: crate::balance::report::Page::Study,
    }
}

/// How often each rule fired, a line each: or why that was not measured.
fn rules_text(head: &RulesHead, probed: u64, metrics: &[Metric], definitions: bool) -> String {
    if let Some(why) = &head.why_not {
        return format!("rules fired: not measured: {why}\n");
    }
    let mut out = format!(
        "rules fired a game, on {probed} probed games (every {}): times a game ran the statements\n  that tell the rule's scenarios apart (with N other rules: their scenarios run them too)\n",
        match head.every {
            1 => "game".to_string(),
            2 => "second game".to_string(),
            3 => "third game".to_string(),
            n => format!("{n}th game"),
        }
    );
    for (rule, m) in head.rules.iter().zip(metrics) {
        let mut line = metric_line(&Metric {
            id: rule.id.clone(),
            ..m.clone()
        });
        if rule.shared_by > 1 {
            line.pop();
            let others = rule.shared_by - 1;
            let plural = if others == 1 { "" } else { "s" };
            line.push_str(&format!("  with {others} other rule{plural}\n"));
        }
        out.push_str(&line);
        if definitions {
            out.push_str(&format!(
                "      {} ({})\n",
                rule.text,
                rule.lines.join(", ")
            ));
        }
    }
    if !head.unmeasured.is_empty() {
        out.push_str(
            "  not measured (no scenario, or their scenarios' accepted steps after the Givens run\n  no script statement: refusals, and what Givens set up):\n",
        );
        // A list of ids wrapped at 100 columns.
        let mut line = String::from("   ");
        for id in &head.unmeasured {
            if line.len() + id.len() + 2 > 100 {
                out.push_str(&line);
                out.push('\n');
                line = String::from("   ");
            }
            line.push(' ');
            line.push_str(id);
            line.push(',');
        }
        out.push_str(line.trim_end_matches(','));
        out.push('\n');
    }
    out
}

fn seat_name(s: &Seating) -> String {
    match s {
        Seating::Random => "random".into(),
        Seating::Bot(level) => level.clone(),
    }
}

/// One metric's line: value and interval with as many decimals as the value needs.
fn metric_line(m: &Metric) -> String {
    let f = |x: f64| {
        if x.abs() >= 100.0 {
            format!("{x:.1}")
        } else {
            format!("{x:.3}")
        }
    };
    let value = m.value.map_or("—".to_string(), f);
    let interval = m.interval.map_or("—".to_string(), |(lo, hi)| {
        format!("{} to {}", f(lo), f(hi))
    });
    format!(
        "  {:<34} {:>10}  {:>23}  {:>9}\n",
        m.id, value, interval, m.n
    )
}

/// The levels `--skill` names: `all` for the variant's, else each of them.
fn skill_levels(text: &str, variant: &Variant) -> Result<Vec<String>, String> {
    let Some(book) = &variant.bots else {
        return Err(format!(
            "--skill: {} has no computer players (no bots.yaml)",
            variant.name
        ));
    };
    // In the order of strength the levels are named for.
    let mut known: Vec<String> = book.levels().map(str::to_string).collect();
    known.sort_by_key(|l| {
        crate::script::bots::LEVELS
            .iter()
            .position(|k| k == l)
            .unwrap_or(usize::MAX)
    });
    let levels: Vec<String> = match text.trim() {
        "all" => known.clone(),
        list => list.split(',').map(|l| l.trim().to_string()).collect(),
    };
    for l in &levels {
        if !known.contains(l) {
            return Err(format!(
                "--skill: {} has no `{l}` level: its levels are {}",
                variant.name,
                known.join(", ")
            ));
        }
    }
    if levels.len() < 2 {
        return Err("--skill needs two levels or more".into());
    }
    Ok(levels)
}

fn skill_text(
    variant: &str,
    levels: &[String],
    matchups: &[crate::balance::Matchup],
    games: u64,
) -> String {
    let mut out = format!(
        "skill {variant}: each pair of levels in {games} two-player games, seats alternating\n"
    );
    out.push_str(
        "  win share of the row's level against the column's (a tie counts for neither)\n",
    );
    out.push_str(&format!("  {:<10}", ""));
    for l in levels {
        out.push_str(&format!(" {:>22}", l));
    }
    out.push('\n');
    for row in levels {
        out.push_str(&format!("  {row:<10}"));
        for col in levels {
            let cell = matchups
                .iter()
                .find(|m| &m.level == row && &m.against == col)
                .map_or("—".to_string(), |m| {
                    match (m.wins.value(), m.wins.interval()) {
                        (Some(v), Some((lo, hi))) => format!("{v:.3} ({lo:.3}–{hi:.3})"),
                        _ => "—".to_string(),
                    }
                });
            out.push_str(&format!(" {cell:>22}"));
        }
        out.push('\n');
    }
    out.push_str("  games the row's level needs to win a match by a majority, 95% of the time:\n");
    for m in matchups.iter().filter(|m| m.games_to_win.is_some()) {
        out.push_str(&format!(
            "    {} against {}: {} games\n",
            m.level,
            m.against,
            m.games_to_win.unwrap_or(0)
        ));
    }
    out.trim_end().to_string()
}

/// One side of `--compare`: the options its argument may set.
#[derive(clap::Parser, Debug)]
#[command(no_binary_name = true, disable_help_flag = true)]
struct SideArgs {
    #[arg(long = "house-rule", value_name = "NAME=VALUE")]
    house_rules: Vec<String>,
    #[arg(long)]
    bots: Option<String>,
    #[arg(long)]
    players: Option<usize>,
    #[arg(long)]
    rules: Option<PathBuf>,
    #[arg(long)]
    seed: Option<u64>,
}

/// A side's options on top of the command's own.
fn side<'v>(
    args: &BalanceArgs,
    text: &str,
    loaded: &'v [(PathBuf, Variant)],
    jobs: usize,
    better: Option<Better>,
    seed: u64,
) -> Result<(Balance<'v>, String), String> {
    use clap::Parser;
    let parsed = SideArgs::try_parse_from(text.split_whitespace()).map_err(|e| {
        let message = e.to_string();
        let first = message.lines().next().unwrap_or("");
        // clap's own `error: ` prefix: this message gets one of its own.
        format!(
            "--compare `{text}`: {}",
            first.strip_prefix("error: ").unwrap_or(first)
        )
    })?;
    let rules = parsed.rules.clone().unwrap_or_else(|| args.rules.clone());
    let variant = loaded
        .iter()
        .find(|(dir, _)| *dir == rules)
        .map(|(_, v)| v)
        .ok_or_else(|| format!("--compare `{text}`: {} is not loaded", rules.display()))?;
    let players = parsed.players.unwrap_or(args.players);
    check_counts(players, args.budget, Some(jobs), variant)?;
    let mut texts = args.house_rules.clone();
    texts.extend(parsed.house_rules.iter().cloned());
    let (house, _) = house_rules(&texts)?;
    let bots = parsed.bots.clone().unwrap_or_else(|| args.bots.clone());
    let seats = seats_for(&bots, players, variant)?;
    let label = match text.trim() {
        "" => "as it is".to_string(),
        t => t.to_string(),
    };
    Ok((
        Balance {
            variant,
            seats,
            house,
            games: args.budget,
            first_seed: parsed.seed.unwrap_or(seed),
            jobs,
            max_steps: args.max_steps,
            better,
            shard: crate::sim::Shard::WHOLE,
            activation: None,
        },
        label,
    ))
}

/// `--compare A B`: both sides round by round, and each metric's difference.
fn compare(
    args: &BalanceArgs,
    variant: &Variant,
    a: &str,
    b: &str,
    jobs: usize,
    better: Option<Better>,
) -> Result<Found, String> {
    if !(0.0 < args.alpha && args.alpha < 1.0) {
        return Err(format!("--alpha is between 0 and 1, not {}", args.alpha));
    }
    if !(0.0..1.0).contains(&args.margin) {
        return Err(format!("--margin is from 0 to 1, not {}", args.margin));
    }
    if !(0.0..1.0).contains(&args.margin_points) {
        return Err(format!(
            "--margin-points is from 0 to 1, not {}",
            args.margin_points
        ));
    }
    // A side may name another rules folder: each folder's variant, loaded once.
    let mut loaded: Vec<(PathBuf, Variant)> = Vec::new();
    for text in [a, b] {
        let rules = text
            .split_whitespace()
            .skip_while(|t| *t != "--rules")
            .nth(1)
            .map(PathBuf::from)
            .unwrap_or_else(|| args.rules.clone());
        if loaded.iter().any(|(dir, _)| *dir == rules) {
            continue;
        }
        let v = match rules == args.rules {
            true => Variant::load_named(&args.rules, &variant.name),
            false => Variant::load_named(&rules, &variant.name),
        }
        .map_err(|e| format!("--compare `{text}`: {}", e.short()))?;
        loaded.push((rules, v));
    }
    let (side_a, label_a) = side(args, a, &loaded, jobs, better, args.seed)?;
    // B plays other deals than A unless it names its seed: the tests take the sides as
    // independent samples.
    let seed_b = args.seed.checked_add(args.budget).ok_or_else(|| {
        format!(
            "--seed {} and --budget {} pass {}",
            args.seed,
            args.budget,
            u64::MAX
        )
    })?;
    let (side_b, label_b) = side(args, b, &loaded, jobs, better, seed_b)?;
    let study = crate::balance::Compare {
        a: side_a,
        b: side_b,
        round: args.round,
        budget: args.budget,
        alpha: args.alpha,
        margin: crate::balance::Margin {
            relative: args.margin,
            points: args.margin_points,
        },
    };
    let result = study.run().map_err(|e| e.to_string())?;
    let json = serde_json::json!({
        "variant": variant.name,
        "a": label_a,
        "b": label_b,
        "comparison": result,
        "alpha": args.alpha,
        "margin": study.margin,
    });
    let mut out = format!(
        "balance {}: A `{label_a}` against B `{label_b}`: {} games a side, {} look{} of {}{}\n",
        variant.name,
        result.games,
        result.rounds,
        if result.rounds == 1 { "" } else { "s" },
        result.looks,
        match result.all_decided {
            true => ", every difference decided".to_string(),
            false => format!(", the budget of {} spent", args.budget),
        }
    );
    out.push_str(&format!(
        "significant: a chance below {} over {} looks and every metric (Holm) that no difference shows one this large\nwithin: the corrected interval inside the margin, {}% of A's value for a mean, {} for a share or lift, either way\n",
        args.alpha,
        result.looks,
        args.margin * 100.0,
        args.margin_points
    ));
    out.push_str(&format!(
        "  {:<34} {:>10} {:>10} {:>10}  {:>23} {:>9}\n",
        "metric", "A", "B", "B - A", "95% interval", "p"
    ));
    let f = |x: Option<f64>| x.map_or("—".to_string(), |v| format!("{v:.3}"));
    for d in &result.differences {
        let interval = d
            .interval
            .map_or("—".to_string(), |(lo, hi)| format!("{lo:.3} to {hi:.3}"));
        let mark = match (d.significant, d.equivalent, d.decided) {
            (true, _, _) => "  significant".to_string(),
            (false, true, _) => "  within".to_string(),
            (false, false, true) => String::new(),
            (false, false, false) => "  undecided".to_string(),
        };
        out.push_str(&format!(
            "  {:<34} {:>10} {:>10} {:>10}  {:>23} {:>9}{mark}\n",
            d.id,
            f(d.a),
            f(d.b),
            f(d.difference),
            interval,
            d.p.map_or("—".to_string(), |p| match p < 1e-15 {
                true => "<1e-15".to_string(),
                false => format!("{p:.2e}"),
            }),
        ));
    }
    Ok(Found {
        text: out.trim_end().to_string(),
        json,
        page: crate::balance::report::Page::Compare,
    })
}
