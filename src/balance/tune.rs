//! `tune`: which value of a numeric house rule brings a metric closest to a target, by racing.
//! Every value still in the race plays the same deals, round by round; a value is out once its
//! distance from the target is surely more than the best's (intervals at a level corrected for
//! every value and every look, Bonferroni). The race ends when one value is left or the budget
//! is spent, and the answer is the values still in: the closest, and those that could not be told
//! from it.

use super::metrics::Tally;
use super::{Balance, Better};
use crate::kernel::Value;
use crate::sim::SimError;

/// A tuning study.
pub struct Tune<'a> {
    /// Everything but the tuned rule (its `games` is ignored: rounds decide).
    pub base: Balance<'a>,
    /// The house rule tuned.
    pub rule: String,
    /// The values tried, in order.
    pub values: Vec<Value>,
    /// The metric's id (`first-turn-advantage`).
    pub metric: String,
    /// The value wanted.
    pub target: f64,
    /// Games each value plays before the first look (each later look doubles them).
    pub round: u64,
    /// Games each value plays at most.
    pub budget: u64,
    /// The chance, over every value and look, that the closest value is put out.
    pub alpha: f64,
}

/// One value of the rule, as the race left it.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Candidate {
    /// The rule's value (a number: only numeric rules are tuned).
    pub value: f64,
    /// The metric's estimate with this value.
    pub metric: Option<f64>,
    /// Its 95% interval.
    pub interval: Option<(f64, f64)>,
    /// Its distance from the target.
    pub distance: Option<f64>,
    /// Games it played.
    pub games: u64,
    /// The round it was put out in (from 1), or `None`: still in at the end.
    pub out_in_round: Option<u64>,
}

/// What a tuning came to.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Tuning {
    /// Every value tried, in order.
    pub candidates: Vec<Candidate>,
    /// The index of the value closest to the target at the end.
    pub best: usize,
    /// The values still in at the end (the answer, at the confidence `1 - alpha`).
    pub still_in: Vec<usize>,
    /// Rounds played.
    pub rounds: u64,
    /// The rounds the budget allowed.
    pub looks: u64,
    /// Which end of the score led.
    pub better: Better,
}

/// The distance from `target` of a value in `[lo, hi]`: the least and the most.
fn distance_bounds((lo, hi): (f64, f64), target: f64) -> (f64, f64) {
    let least = match (lo..=hi).contains(&target) {
        true => 0.0,
        false => (lo - target).abs().min((hi - target).abs()),
    };
    (least, (lo - target).abs().max((hi - target).abs()))
}

impl Tune<'_> {
    /// Race the values until one is left or the budget is spent.
    pub fn run(&self) -> Result<Tuning, SimError> {
        let better = self.base.resolved_better()?;
        let schedule = super::schedule(self.round, self.budget);
        let looks = schedule.len() as u64;
        let k = self.values.len().max(1) as f64;
        // Each value's interval at each look holds with 1 - alpha / (values × looks).
        let confidence = 1.0 - self.alpha / (k * looks as f64);
        let actions = super::action_names(self.base.variant);
        let mut sums: Vec<Option<Tally>> = vec![None; self.values.len()];
        let mut out: Vec<Option<u64>> = vec![None; self.values.len()];
        let mut rounds = 0;
        let mut played = 0;
        for &games in &schedule {
            rounds += 1;
            for (i, value) in self.values.iter().enumerate() {
                if out[i].is_some() {
                    continue;
                }
                let mut house = self.base.house.clone();
                house.retain(|(name, _)| *name != self.rule);
                house.push((self.rule.clone(), value.clone()));
                let study = Balance {
                    variant: self.base.variant,
                    seats: self.base.seats.clone(),
                    house,
                    games: self.budget,
                    first_seed: self.base.first_seed,
                    jobs: self.base.jobs,
                    max_steps: self.base.max_steps,
                    better: Some(better),
                    shard: crate::sim::Shard::WHOLE,
                    activation: None,
                };
                let tally = study.play_range(played, games, better)?;
                match &mut sums[i] {
                    Some(s) => s.merge(&tally),
                    None => sums[i] = Some(tally),
                }
            }
            played = games;
            let bounds: Vec<Option<(f64, f64)>> = (0..self.values.len())
                .map(|i| {
                    let stat = self.stat(sums[i].as_ref()?, &actions)?;
                    let interval = stat.interval_at(confidence)?;
                    Some(distance_bounds(interval, self.target))
                })
                .collect();
            let surely_within = (0..self.values.len())
                .filter(|&i| out[i].is_none())
                .filter_map(|i| bounds[i].map(|(_, most)| most))
                .fold(f64::INFINITY, f64::min);
            for i in 0..self.values.len() {
                if out[i].is_none() && bounds[i].is_some_and(|(least, _)| least > surely_within) {
                    out[i] = Some(rounds);
                }
            }
            if out.iter().filter(|o| o.is_none()).count() <= 1 {
                break;
            }
        }
        let candidates: Vec<Candidate> = self
            .values
            .iter()
            .enumerate()
            .map(|(i, value)| {
                let stat = sums[i].as_ref().and_then(|t| self.stat(t, &actions));
                let metric = stat.and_then(|s| s.value());
                Candidate {
                    value: value.as_f64().unwrap_or(f64::NAN),
                    metric,
                    interval: stat.and_then(|s| s.interval_at(super::stats::CONFIDENCE)),
                    distance: metric.map(|m| (m - self.target).abs()),
                    games: sums[i].as_ref().map_or(0, |t| t.games),
                    out_in_round: out[i],
                }
            })
            .collect();
        let still_in: Vec<usize> = (0..candidates.len())
            .filter(|&i| out[i].is_none())
            .collect();
        let best = still_in
            .iter()
            .copied()
            .min_by(|&a, &b| {
                let d = |i: usize| candidates[i].distance.unwrap_or(f64::INFINITY);
                d(a).total_cmp(&d(b))
            })
            .unwrap_or(0);
        Ok(Tuning {
            candidates,
            best,
            still_in,
            rounds,
            looks,
            better,
        })
    }

    /// The tuned metric's statistic in a tally.
    fn stat(&self, tally: &Tally, actions: &[&str]) -> Option<super::Stat> {
        let metrics = tally.metrics(actions);
        metrics
            .into_iter()
            .find(|m| m.id == self.metric)
            .map(|m| m.stat)
    }
}

#[cfg(test)]
mod tests {
    use super::distance_bounds;

    #[test]
    fn a_distance_is_nothing_when_the_interval_holds_the_target() {
        let (least, most) = distance_bounds((0.2, 0.3), 0.25);
        assert!(least == 0.0 && (most - 0.05).abs() < 1e-12);
        let (least, most) = distance_bounds((0.4, 0.5), 0.25);
        assert!((least - 0.15).abs() < 1e-12 && (most - 0.25).abs() < 1e-12);
        let (least, most) = distance_bounds((-0.1, 0.0), 0.25);
        assert!((least - 0.25).abs() < 1e-12 && (most - 0.35).abs() < 1e-12);
    }
}
