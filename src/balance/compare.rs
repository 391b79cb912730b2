//! Two configurations side by side: for each metric the difference (B less A), its 95% interval,
//! a p-value, and whether it is significant once corrected for the number of metrics (Holm) and
//! for looking again after every round (Bonferroni over the looks the budget allows). Rounds of
//! games, each as many as all before it, are played until every difference is decided (significant, or its interval inside the
//! equivalence margin) or the game budget is spent: the designer does not guess a game count.

use super::metrics::{Metric, Stat, Tally};
use super::stats::{CONFIDENCE, Mean, Share};
use super::{Balance, Better};
use crate::sim::SimError;
use statrs::distribution::{ContinuousCDF, Normal, StudentsT};

/// A comparison: two studies of the same size, played round by round.
pub struct Compare<'a> {
    /// Configuration A (its `games` is ignored: rounds decide).
    pub a: Balance<'a>,
    /// Configuration B.
    pub b: Balance<'a>,
    /// Games each side plays before the first look (each later look doubles them).
    pub round: u64,
    /// Games each side plays at most.
    pub budget: u64,
    /// The family-wise error rate (0.05).
    pub alpha: f64,
    /// What difference does not matter.
    pub margin: Margin,
}

/// The largest difference that does not matter: a share of A's value for a mean, points for a
/// proportion (a share or a lift) whose own value may well be nothing.
#[derive(Clone, Copy, Debug, serde::Serialize)]
pub struct Margin {
    /// For a mean: this share of A's value, either way (0.05).
    pub relative: f64,
    /// For a proportion: this much either way (0.01, one percentage point).
    pub points: f64,
}

/// One metric compared.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Difference {
    /// The metric.
    pub id: String,
    /// Its kind (`share`, `mean`, `spread` or `lift`).
    pub kind: &'static str,
    /// A's value and B's.
    pub a: Option<f64>,
    /// B's value.
    pub b: Option<f64>,
    /// B less A.
    pub difference: Option<f64>,
    /// The difference that does not matter, either way.
    pub allowed: Option<f64>,
    /// Its 95% interval.
    pub interval: Option<(f64, f64)>,
    /// The two-sided p-value of no difference (`None`: not tested, as a spread is not).
    pub p: Option<f64>,
    /// Significant at the family-wise rate, corrected for the metrics and the looks.
    pub significant: bool,
    /// Shown to lie within the margin at the corrected level (and not significant).
    pub equivalent: bool,
    /// Significant, or equivalent, or not tested.
    pub decided: bool,
}

/// What a comparison came to.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Comparison {
    /// Each metric, in report order.
    pub differences: Vec<Difference>,
    /// Games each side played.
    pub games: u64,
    /// Looks taken.
    pub rounds: u64,
    /// The looks the budget allowed (the looks corrected for).
    pub looks: u64,
    /// Whether every difference was decided before the budget ran out.
    pub all_decided: bool,
    /// Which end of the score led.
    pub better: Better,
}

impl Compare<'_> {
    /// Play rounds until every difference is decided or the budget is spent.
    pub fn run(&self) -> Result<Comparison, SimError> {
        let better = self.a.resolved_better()?;
        let schedule = super::schedule(self.round, self.budget);
        let looks = schedule.len() as u64;
        let alpha = self.alpha / looks as f64;
        let actions = super::action_names(self.a.variant);
        let mut sums = [None::<Tally>, None::<Tally>];
        let mut comparison = Comparison {
            differences: Vec::new(),
            games: 0,
            rounds: 0,
            looks,
            all_decided: false,
            better,
        };
        for &games in &schedule {
            for (side, sum) in [&self.a, &self.b].into_iter().zip(sums.iter_mut()) {
                let tally = side.play_range(comparison.games, games, better)?;
                match sum {
                    Some(s) => s.merge(&tally),
                    None => *sum = Some(tally),
                }
            }
            comparison.games = games;
            comparison.rounds += 1;
            let (Some(ta), Some(tb)) = (&sums[0], &sums[1]) else {
                continue;
            };
            comparison.differences = differences(
                &ta.metrics(&actions),
                &tb.metrics(&actions),
                alpha,
                self.margin,
            );
            if comparison.differences.iter().all(|d| d.decided) {
                comparison.all_decided = true;
                break;
            }
        }
        Ok(comparison)
    }
}

/// Each metric of `a` against `b`'s of the same id: the difference, its interval and p-value,
/// significance by Holm's step-down at `alpha`, and whether it is decided within `margin`.
pub fn differences(a: &[Metric], b: &[Metric], alpha: f64, margin: Margin) -> Vec<Difference> {
    let mut out: Vec<Difference> = a
        .iter()
        .filter_map(|ma| {
            let mb = b.iter().find(|m| m.id == ma.id)?;
            let (difference, interval, p) = compared(&ma.stat, &mb.stat);
            let allowed = match (&ma.stat, ma.value) {
                (Stat::Share(_) | Stat::Lift(..), _) => Some(margin.points),
                (_, Some(a)) => Some(margin.relative * a.abs()),
                _ => None,
            };
            Some(Difference {
                allowed,
                kind: ma.stat.kind(),
                id: ma.id.clone(),
                a: ma.value,
                b: mb.value,
                difference,
                interval,
                p,
                significant: false,
                equivalent: false,
                decided: false,
            })
        })
        .collect();
    // Holm: the k-th smallest p-value of m tested is held to alpha / (m - k).
    let mut tested: Vec<usize> = (0..out.len()).filter(|&i| out[i].p.is_some()).collect();
    tested.sort_by(|&x, &y| {
        out[x]
            .p
            .partial_cmp(&out[y].p)
            .unwrap_or(std::cmp::Ordering::Equal)
    });
    let m = tested.len();
    for (k, &i) in tested.iter().enumerate() {
        let p = out[i].p.unwrap_or(1.0);
        if p > alpha / (m - k) as f64 {
            break;
        }
        out[i].significant = true;
    }
    // Equivalence (two one-sided tests): the interval widened to the corrected level, each metric
    // held to alpha / m as Bonferroni would, lies inside the margin.
    let widen = match m {
        0 => 1.0,
        _ => one_sided_z(alpha / m as f64) / super::stats::z(),
    };
    for d in &mut out {
        let within = match (d.interval, d.allowed, d.difference) {
            (Some((lo, hi)), Some(allowed), Some(diff)) => {
                let (lo, hi) = (diff - (diff - lo) * widen, diff + (hi - diff) * widen);
                lo >= -allowed && hi <= allowed
            }
            _ => false,
        };
        d.equivalent = !d.significant && within;
        // Nothing to measure on either side (an action nobody uses) is nothing to decide.
        let nothing = d.a.is_none() && d.b.is_none();
        d.decided = d.significant || d.equivalent || d.p.is_none() || nothing;
    }
    out
}

/// B's statistic less A's: the difference, its interval, and the p-value of no difference.
fn compared(a: &Stat, b: &Stat) -> (Option<f64>, Option<(f64, f64)>, Option<f64>) {
    match (a, b) {
        (Stat::Share(a), Stat::Share(b)) => shares(a, b),
        (Stat::Mean(a), Stat::Mean(b)) => means(a, b),
        (Stat::Spread(a), Stat::Spread(b)) => {
            let d = b.sd().zip(a.sd()).map(|(x, y)| x - y);
            (d, None, None)
        }
        (Stat::Lift(a1, a2), Stat::Lift(b1, b2)) => lifts((a1, a2), (b1, b2)),
        _ => (None, None, None),
    }
}

/// The standard normal quantile above which `alpha` of the mass lies.
fn one_sided_z(alpha: f64) -> f64 {
    Normal::standard().inverse_cdf(1.0 - alpha.clamp(1e-300, 0.5))
}

fn normal_p(z: f64) -> f64 {
    2.0 * (1.0 - Normal::standard().cdf(z.abs()))
}

/// Two proportions: Newcombe's interval from the two Wilson intervals, and the pooled z-test.
fn shares(a: &Share, b: &Share) -> (Option<f64>, Option<(f64, f64)>, Option<f64>) {
    let (Some(p), Some(q)) = (a.value(), b.value()) else {
        return (None, None, None);
    };
    let d = q - p;
    let interval = match (a.interval(), b.interval()) {
        (Some((l1, u1)), Some((l2, u2))) => Some((
            d - ((q - l2).powi(2) + (u1 - p).powi(2)).sqrt(),
            d + ((u2 - q).powi(2) + (p - l1).powi(2)).sqrt(),
        )),
        _ => None,
    };
    let pooled = (a.hits + b.hits) as f64 / (a.n + b.n) as f64;
    let se = (pooled * (1.0 - pooled) * (1.0 / a.n as f64 + 1.0 / b.n as f64)).sqrt();
    let pv = match se > 0.0 {
        true => normal_p(d / se),
        false => f64::from(u8::from(d == 0.0)),
    };
    (Some(d), interval, Some(pv))
}

/// Two means: Welch's interval and test.
fn means(a: &Mean, b: &Mean) -> (Option<f64>, Option<(f64, f64)>, Option<f64>) {
    let (Some(x), Some(y)) = (a.value(), b.value()) else {
        return (None, None, None);
    };
    let d = y - x;
    let (Some(sa), Some(sb)) = (a.se(), b.se()) else {
        return (Some(d), None, None);
    };
    let se2 = sa * sa + sb * sb;
    if se2 <= 0.0 {
        return (Some(d), Some((d, d)), Some(f64::from(u8::from(d == 0.0))));
    }
    // Welch–Satterthwaite degrees of freedom.
    let df =
        se2 * se2 / (sa.powi(4) / (a.n - 1).max(1) as f64 + sb.powi(4) / (b.n - 1).max(1) as f64);
    let se = se2.sqrt();
    let Ok(t) = StudentsT::new(0.0, 1.0, df.max(1.0)) else {
        return (Some(d), None, None);
    };
    let crit = t.inverse_cdf(0.5 + CONFIDENCE / 2.0);
    let p = 2.0 * (1.0 - t.cdf((d / se).abs()));
    (Some(d), Some((d - crit * se, d + crit * se)), Some(p))
}

/// Two lifts (each a share less another): the difference, by the normal approximation.
fn lifts(
    a: (&Share, &Share),
    b: (&Share, &Share),
) -> (Option<f64>, Option<(f64, f64)>, Option<f64>) {
    let lift = |(x, y): (&Share, &Share)| x.value().zip(y.value()).map(|(p, q)| p - q);
    let var = |s: &Share| s.value().map(|p| p * (1.0 - p) / s.n as f64);
    let (Some(la), Some(lb)) = (lift(a), lift(b)) else {
        return (None, None, None);
    };
    let d = lb - la;
    let v = [a.0, a.1, b.0, b.1]
        .iter()
        .filter_map(|s| var(s))
        .sum::<f64>();
    if v <= 0.0 {
        return (Some(d), Some((d, d)), Some(f64::from(u8::from(d == 0.0))));
    }
    let se = v.sqrt();
    let z = super::stats::z();
    (
        Some(d),
        Some((d - z * se, d + z * se)),
        Some(normal_p(d / se)),
    )
}

#[cfg(test)]
mod tests {
    use super::super::metrics::{Metric, Stat};
    use super::super::stats::Share;
    use super::{Margin, differences};

    fn share(id: &str, hits: u64, n: u64) -> Metric {
        let s = Share { hits, n };
        Metric {
            id: id.into(),
            definition: String::new(),
            value: s.value(),
            interval: s.interval(),
            n,
            stat: Stat::Share(s),
        }
    }

    #[test]
    fn holm_holds_the_smallest_p_to_alpha_over_m_and_stops_at_the_first_that_fails() {
        // 30% against 40% of 2,000 is p ≈ 1e-11; 30% against 31% of 2,000 is p ≈ 0.5.
        let a = [
            share("x", 600, 2000),
            share("y", 600, 2000),
            share("z", 600, 2000),
        ];
        let b = [
            share("x", 800, 2000),
            share("y", 620, 2000),
            share("z", 600, 2000),
        ];
        let none = Margin {
            relative: 0.0,
            points: 0.0,
        };
        let d = differences(&a, &b, 0.05, none);
        assert!(
            d[0].significant && !d[1].significant && !d[2].significant,
            "{d:?}"
        );
        assert!((d[0].difference.unwrap() - 0.1).abs() < 1e-12);
        let (lo, hi) = d[0].interval.unwrap();
        assert!(lo > 0.07 && hi < 0.13, "{lo} {hi}");
        // An exact tie is decided with a margin, not without.
        assert!(!d[2].decided);
        let four_points = Margin {
            relative: 0.0,
            points: 0.04,
        };
        let with_margin = differences(&a, &b, 0.05, four_points);
        assert!(with_margin[2].decided, "{with_margin:?}");
    }
}
