//! `deckspec tune`: the arguments (one `--house-rule` holding a range of values, and a
//! `--target`), the race of `balance::Tune`, and its answer printed or as JSON.

use super::balance::{Found, parse_better, study_command};
use super::simulate::{check_counts, house_rules, seats_for};
use crate::balance::{Balance, Tally, Tune};
use crate::kernel::{HouseRuleType, Value};
use crate::script::Variant;
use std::path::PathBuf;

/// The most values one tuning races.
const MAX_VALUES: usize = 64;

/// The arguments of `deckspec tune`.
#[derive(clap::Args, Debug)]
pub struct TuneArgs {
    /// The variant to play.
    pub variant: String,
    /// House rules for every game, `name=value`; exactly one is the rule tuned, with a range
    /// (`name=LO..HI`, every whole number from LO to HI; `name=LO..HI/STEP`; or `name=A,B,C`).
    #[arg(
        long = "house-rule",
        value_name = "NAME=VALUE|NAME=RANGE",
        required = true
    )]
    pub house_rules: Vec<String>,
    /// The metric wanted and its value (`first-turn-advantage=0.25`).
    #[arg(long, value_name = "METRIC=VALUE")]
    pub target: String,
    /// Players per game.
    #[arg(long, default_value_t = 4)]
    pub players: usize,
    /// Seats: one level for every seat, or one per seat (random, easy, medium, hard, expert).
    #[arg(long, value_name = "LEVEL[,LEVEL…]", default_value = "random")]
    pub bots: String,
    /// The first seed; every value plays the same deals.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Games each value plays before the first look; each look after doubles the games of the
    /// values still in, up to `--budget`.
    #[arg(long, default_value_t = 1_000, value_parser = clap::value_parser!(u64).range(10..))]
    pub round: u64,
    /// Games each value plays at most.
    #[arg(long, default_value_t = 20_000, value_parser = clap::value_parser!(u64).range(10..))]
    pub budget: u64,
    /// The chance, over every value and round, that the closest value is put out.
    #[arg(long, default_value_t = 0.05)]
    pub alpha: f64,
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
    /// Print the answer as one JSON object.
    #[arg(long)]
    pub json: bool,
    /// Also write a self-contained HTML page with the metric drawn against the rule's values.
    #[arg(long, value_name = "FILE.html")]
    pub report: Option<PathBuf>,
    /// The folder holding the variants.
    #[arg(long, default_value = "rules", value_name = "DIR")]
    pub rules: PathBuf,
}

pub(super) fn tune(args: TuneArgs) -> i32 {
    study_command(
        &args.rules,
        &args.variant,
        args.report.as_deref(),
        args.json,
        |v| run(&args, v),
    )
}

/// A range's text (`2..6`, `0.5..2/0.5`, `1,2,4`) read as numbers, or `None` when it is no range.
fn range_values(text: &str) -> Option<Result<Vec<f64>, String>> {
    let number = |t: &str| {
        t.trim()
            .parse::<f64>()
            .ok()
            .filter(|x| x.is_finite())
            .ok_or_else(|| format!("`{}` is not a number", t.trim()))
    };
    if let Some((lo, rest)) = text.split_once("..") {
        let (hi, step) = match rest.split_once('/') {
            Some((hi, step)) => (hi, Some(step)),
            None => (rest, None),
        };
        return Some((|| {
            let (lo, hi) = (number(lo)?, number(hi)?);
            let step = step.map(number).transpose()?.unwrap_or(1.0);
            if step <= 0.0 {
                return Err(format!("the step of `{text}` is not above 0"));
            }
            if hi < lo {
                return Err(format!("`{text}` ends below its start"));
            }
            if (hi - lo) / step > MAX_VALUES as f64 {
                return Err(format!("`{text}` has more than {MAX_VALUES} values"));
            }
            let count = ((hi - lo) / step + 1e-9).floor() as usize + 1;
            Ok((0..count).map(|i| lo + step * i as f64).collect())
        })());
    }
    if text.contains(',') && !text.trim_start().starts_with('[') {
        return Some(text.split(',').map(number).collect());
    }
    None
}

/// The tuned rule and its values, checked against the variant's declaration; the other rules.
fn tuned_rule(
    args: &TuneArgs,
    variant: &Variant,
) -> Result<(String, Vec<Value>, Vec<String>), String> {
    let mut tuned = None;
    let mut fixed = Vec::new();
    for text in &args.house_rules {
        let Some((name, value)) = text.split_once('=') else {
            return Err(format!("--house-rule takes name=value, not `{text}`"));
        };
        match range_values(value) {
            None => fixed.push(text.clone()),
            Some(values) => {
                let values = values.map_err(|e| format!("--house-rule {text}: {e}"))?;
                if tuned.is_some() {
                    return Err(format!(
                        "--house-rule {text}: only one rule is tuned at a time"
                    ));
                }
                tuned = Some((name.trim().to_string(), values));
            }
        }
    }
    let Some((name, numbers)) = tuned else {
        return Err(
            "no --house-rule holds a range: write the tuned rule as name=LO..HI, name=LO..HI/STEP or name=A,B,C"
                .into(),
        );
    };
    let doc = variant
        .house_rules
        .iter()
        .find(|h| h.name == name)
        .ok_or_else(|| format!("{} has no house rule `{name}`", variant.name))?;
    if numbers.len() < 2 {
        return Err(format!(
            "--house-rule {name}: a range of one value leaves nothing to tune"
        ));
    }
    if numbers.len() > MAX_VALUES {
        return Err(format!(
            "--house-rule {name}: more than {MAX_VALUES} values"
        ));
    }
    let mut values = Vec::new();
    for x in numbers {
        if doc.range.min.is_some_and(|m| x < m) || doc.range.max.is_some_and(|m| x > m) {
            return Err(format!(
                "--house-rule {name}: {x} is outside the rule's range ({} to {})",
                doc.range.min.map_or("any".into(), |m| m.to_string()),
                doc.range.max.map_or("any".into(), |m| m.to_string()),
            ));
        }
        values.push(match doc.kind {
            HouseRuleType::Integer if x.fract() == 0.0 && x.abs() < 9.0e15 => Value::Int(x as i64),
            HouseRuleType::Integer => {
                return Err(format!("--house-rule {name}: {x} is not a whole number"));
            }
            HouseRuleType::Number => Value::Float(x),
            _ => return Err(format!("--house-rule {name}: only a number can be tuned")),
        });
    }
    Ok((name, values, fixed))
}

fn run(args: &TuneArgs, variant: &Variant) -> Result<Found, String> {
    let jobs = check_counts(args.players, args.budget, args.jobs, variant)?;
    if !(0.0 < args.alpha && args.alpha < 1.0) {
        return Err(format!("--alpha is between 0 and 1, not {}", args.alpha));
    }
    let (rule, values, fixed) = tuned_rule(args, variant)?;
    let (metric, target) = args
        .target
        .split_once('=')
        .ok_or_else(|| format!("--target takes METRIC=VALUE, not `{}`", args.target))?;
    let metric = metric.trim().to_string();
    let target: f64 = target
        .trim()
        .parse()
        .ok()
        .filter(|t: &f64| t.is_finite())
        .ok_or_else(|| {
            format!(
                "--target {}: `{}` is not a number",
                args.target,
                target.trim()
            )
        })?;
    let actions = crate::balance::action_names(variant);
    let ids: Vec<String> = Tally::new(args.players, actions.len(), 0)
        .metrics(&actions)
        .into_iter()
        .map(|m| m.id)
        .collect();
    if !ids.contains(&metric) {
        return Err(format!(
            "--target: no metric `{metric}`; the metrics are {}",
            ids.join(", ")
        ));
    }
    let better = parse_better(args.better.as_deref())?;
    let (house, _) = house_rules(&fixed)?;
    let seats = seats_for(&args.bots, args.players, variant)?;
    if args.seed.checked_add(args.budget).is_none() {
        return Err(format!(
            "--seed {} with --budget {} needs seeds past {}",
            args.seed,
            args.budget,
            u64::MAX
        ));
    }
    let study = Tune {
        base: Balance {
            variant,
            seats,
            house,
            games: args.budget,
            first_seed: args.seed,
            jobs,
            max_steps: args.max_steps,
            better,
            shard: crate::sim::Shard::WHOLE,
            activation: None,
        },
        rule: rule.clone(),
        values,
        metric: metric.clone(),
        target,
        round: args.round,
        budget: args.budget,
        alpha: args.alpha,
    };
    let started = std::time::Instant::now();
    let tuning = study.run().map_err(|e| e.to_string())?;
    let seconds = started.elapsed().as_secs_f64();
    let json = serde_json::json!({
        "variant": variant.name,
        "rule": rule,
        "metric": metric,
        "target": target,
        "alpha": args.alpha,
        "tuning": tuning,
        "seconds": seconds,
    });
    let best = &tuning.candidates[tuning.best];
    let f = |x: Option<f64>| x.map_or("—".to_string(), |v| format!("{v:.3}"));
    let mut out = format!(
        "tune {}: {rule} for {metric} = {target}, {} values raced from {} games each, doubling at each of {} looks up to {}\n",
        variant.name,
        tuning.candidates.len(),
        args.round,
        tuning.looks,
        args.budget,
    );
    let (w1, w2) = (rule.len().max(6), metric.len().max(6));
    out.push_str(&format!(
        "  {rule:>w1$} {metric:>w2$} {:>23} {:>10} {:>8}\n",
        "95% interval", "distance", "games"
    ));
    for (i, c) in tuning.candidates.iter().enumerate() {
        let interval = c
            .interval
            .map_or("—".to_string(), |(lo, hi)| format!("{lo:.3} to {hi:.3}"));
        let state = match (i == tuning.best, c.out_in_round) {
            (true, _) => "  closest".to_string(),
            (false, None) => "  still in".to_string(),
            (false, Some(r)) => format!("  out at look {r}"),
        };
        out.push_str(&format!(
            "  {:>w1$} {:>w2$} {:>23} {:>10} {:>8}{state}\n",
            c.value,
            f(c.metric),
            interval,
            f(c.distance),
            c.games,
        ));
    }
    let others: Vec<String> = tuning
        .still_in
        .iter()
        .filter(|&&i| i != tuning.best)
        .map(|&i| tuning.candidates[i].value.to_string())
        .collect();
    let confidence = (1.0 - args.alpha) * 100.0;
    out.push_str(&match others.is_empty() {
        true => format!(
            "answer: {rule}={} is closest to {target}, with {confidence}% confidence ({} looks, {:.1} s)",
            best.value, tuning.rounds, seconds
        ),
        false => format!(
            "answer: {rule}={} is closest to {target} so far; with {confidence}% confidence the closest is one of {}, {} (the budget of {} games spent, {:.1} s)",
            best.value,
            best.value,
            others.join(", "),
            args.budget,
            seconds
        ),
    });
    Ok(Found {
        text: out,
        json,
        page: crate::balance::report::Page::Tune,
    })
}

#[cfg(test)]
mod tests {
    use super::range_values;

    #[test]
    fn ranges_are_read_as_their_values_and_words_are_not_ranges() {
        assert_eq!(range_values("2..5"), Some(Ok(vec![2.0, 3.0, 4.0, 5.0])));
        assert_eq!(range_values("0.5..1.5/0.5"), Some(Ok(vec![0.5, 1.0, 1.5])));
        assert_eq!(range_values("1,2,4"), Some(Ok(vec![1.0, 2.0, 4.0])));
        assert_eq!(range_values("3"), None);
        assert_eq!(range_values("[0, 1]"), None);
        assert!(range_values("5..2").unwrap().is_err());
        assert!(range_values("1..2/0").unwrap().is_err());
        assert!(range_values("0..1000").unwrap().is_err());
        assert!(range_values("a..2").unwrap().is_err());
    }
}
