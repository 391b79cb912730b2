//! A study's summary: exact counts that merge, the rates derived from them, text and JSON.

use super::{BotStats, GameSummary, Seating};

/// The outcome of a study: counts that merge exactly, so that any split of the seeds (threads
/// or shards) sums to the same summary as one run.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Summary {
    pub variant: String,
    pub players: usize,
    /// Seat kinds by seat: `random` or a bot level.
    pub seats: Vec<String>,
    pub house_rules: Vec<(String, String)>,
    pub first_seed: u64,
    pub games: u64,
    pub actions: u64,
    /// Time spent playing, summed over threads and shards.
    pub seconds: f64,
    pub length_min: u64,
    pub length_max: u64,
    /// Game lengths (actions) and how many games had each.
    pub lengths: std::collections::BTreeMap<u64, u64>,
    /// Wins by seat (every tied winner counts).
    pub seat_wins: Vec<u64>,
    /// How games ended, by the variant's reason.
    pub end_reasons: std::collections::BTreeMap<String, u64>,
    /// Final scores of every seat in every game, and how often each occurred.
    pub scores: std::collections::BTreeMap<i64, u64>,
    pub bot_decisions: u64,
    pub bot_refusals: u64,
    pub bot_unknown_cards: u64,
}

/// A proportion with its 95% Wilson score interval.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Rate {
    pub rate: f64,
    pub low: f64,
    pub high: f64,
}

impl Rate {
    pub fn wilson(successes: u64, trials: u64) -> Rate {
        if trials == 0 {
            return Rate {
                rate: 0.0,
                low: 0.0,
                high: 0.0,
            };
        }
        let n = trials as f64;
        let p = successes as f64 / n;
        let z = 1.959_963_984_540_054_f64;
        let denominator = 1.0 + z * z / n;
        let centre = (p + z * z / (2.0 * n)) / denominator;
        let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / denominator;
        Rate {
            rate: p,
            low: (centre - half).max(0.0),
            high: (centre + half).min(1.0),
        }
    }
}

impl Summary {
    pub fn new(
        variant: &str,
        seats: &[Seating],
        house: &[(String, String)],
        first_seed: u64,
    ) -> Summary {
        Summary {
            variant: variant.to_string(),
            players: seats.len(),
            seats: seats
                .iter()
                .map(|s| match s {
                    Seating::Random => "random".to_string(),
                    Seating::Bot(level) => level.clone(),
                })
                .collect(),
            house_rules: house.to_vec(),
            first_seed,
            seat_wins: vec![0; seats.len()],
            ..Summary::default()
        }
    }

    pub fn record(&mut self, game: &GameSummary, stats: &BotStats) {
        if self.games == 0 || game.actions < self.length_min {
            self.length_min = game.actions;
        }
        self.length_max = self.length_max.max(game.actions);
        self.games += 1;
        self.actions += game.actions;
        *self.lengths.entry(game.actions).or_default() += 1;
        for &w in &game.winners {
            if let Some(count) = self.seat_wins.get_mut(w) {
                *count += 1;
            }
        }
        *self.end_reasons.entry(game.reason.clone()).or_default() += 1;
        for &score in &game.scores {
            *self.scores.entry(score).or_default() += 1;
        }
        self.bot_decisions += stats.decisions;
        self.bot_refusals += stats.refusals.len() as u64;
        self.bot_unknown_cards += stats.unknown_cards.len() as u64;
    }

    /// Add another summary of the same study (other seeds).
    pub fn merge(&mut self, other: &Summary) -> Result<(), String> {
        if other.games == 0 {
            return Ok(());
        }
        if (self.variant.as_str(), &self.seats, &self.house_rules)
            != (other.variant.as_str(), &other.seats, &other.house_rules)
        {
            return Err(format!(
                "cannot merge a study of {} with seats {:?} into one of {} with seats {:?}",
                other.variant, other.seats, self.variant, self.seats
            ));
        }
        if self.games == 0 || other.length_min < self.length_min {
            self.length_min = other.length_min;
        }
        self.length_max = self.length_max.max(other.length_max);
        self.games += other.games;
        self.actions += other.actions;
        self.seconds += other.seconds;
        self.first_seed = self.first_seed.min(other.first_seed);
        for (k, v) in &other.lengths {
            *self.lengths.entry(*k).or_default() += v;
        }
        for (a, b) in self.seat_wins.iter_mut().zip(&other.seat_wins) {
            *a += b;
        }
        for (k, v) in &other.end_reasons {
            *self.end_reasons.entry(k.clone()).or_default() += v;
        }
        for (k, v) in &other.scores {
            *self.scores.entry(*k).or_default() += v;
        }
        self.bot_decisions += other.bot_decisions;
        self.bot_refusals += other.bot_refusals;
        self.bot_unknown_cards += other.bot_unknown_cards;
        Ok(())
    }

    pub fn games_per_second(&self) -> f64 {
        self.games as f64 / self.seconds.max(1e-9)
    }

    pub fn actions_per_second(&self) -> f64 {
        self.actions as f64 / self.seconds.max(1e-9)
    }

    pub fn mean_length(&self) -> f64 {
        self.actions as f64 / self.games.max(1) as f64
    }

    pub fn seat_rates(&self) -> Vec<Rate> {
        self.seat_wins
            .iter()
            .map(|&w| Rate::wilson(w, self.games))
            .collect()
    }

    /// Win rate of each seat kind over every seat of that kind in every game.
    pub fn level_rates(&self) -> Vec<(String, Rate)> {
        let mut levels: Vec<String> = self.seats.clone();
        levels.sort();
        levels.dedup();
        levels
            .into_iter()
            .map(|level| {
                let (wins, seats) = self
                    .seats
                    .iter()
                    .zip(&self.seat_wins)
                    .filter(|(s, _)| **s == level)
                    .fold((0, 0), |(w, n), (_, &sw)| (w + sw, n + self.games));
                (level, Rate::wilson(wins, seats))
            })
            .collect()
    }

    /// Mean and standard deviation of the final scores.
    pub fn score_spread(&self) -> (f64, f64) {
        let n: u64 = self.scores.values().sum();
        if n == 0 {
            return (0.0, 0.0);
        }
        let mean = self
            .scores
            .iter()
            .map(|(s, c)| *s as f64 * *c as f64)
            .sum::<f64>()
            / n as f64;
        let var = self
            .scores
            .iter()
            .map(|(s, c)| (*s as f64 - mean).powi(2) * *c as f64)
            .sum::<f64>()
            / n as f64;
        (mean, var.sqrt())
    }

    /// The summary as one JSON object, with the derived rates.
    pub fn to_json(&self) -> serde_json::Value {
        let (score_mean, score_sd) = self.score_spread();
        let mut json = serde_json::to_value(self).unwrap_or_default();
        let extra = serde_json::json!({
            "games_per_second": self.games_per_second(),
            "actions_per_second": self.actions_per_second(),
            "length_mean": self.mean_length(),
            "seat_win_rates": self.seat_rates(),
            "level_win_rates": self.level_rates().into_iter().map(|(l, r)| serde_json::json!({"level": l, "rate": r.rate, "low": r.low, "high": r.high})).collect::<Vec<_>>(),
            "score_mean": score_mean,
            "score_sd": score_sd,
        });
        if let (Some(obj), serde_json::Value::Object(more)) = (json.as_object_mut(), extra) {
            obj.extend(more);
        }
        json
    }

    /// The human-readable summary.
    pub fn to_text(&self) -> String {
        let pct = |r: &Rate| {
            format!(
                "{:.1}% (95% CI {:.1}–{:.1}%)",
                r.rate * 100.0,
                r.low * 100.0,
                r.high * 100.0
            )
        };
        let mut out = String::new();
        let line = |out: &mut String, s: String| {
            out.push_str(&s);
            out.push('\n');
        };
        line(
            &mut out,
            format!(
                "{}: {} games of {} players, seeds {}…",
                self.variant, self.games, self.players, self.first_seed
            ),
        );
        line(&mut out, format!("games: {}", self.games));
        line(&mut out, format!("actions: {}", self.actions));
        line(&mut out, format!("games/s: {:.1}", self.games_per_second()));
        line(
            &mut out,
            format!("actions/s: {:.0}", self.actions_per_second()),
        );
        line(
            &mut out,
            format!(
                "game length: mean {:.1}, min {}, max {}",
                self.mean_length(),
                self.length_min,
                self.length_max
            ),
        );
        for (i, (seat, rate)) in self.seats.iter().zip(self.seat_rates()).enumerate() {
            line(
                &mut out,
                format!(
                    "seat {i} ({seat}): won {} ({})",
                    self.seat_wins[i],
                    pct(&rate)
                ),
            );
        }
        for (level, rate) in self.level_rates() {
            line(&mut out, format!("level {level}: {}", pct(&rate)));
        }
        let reasons: Vec<String> = self
            .end_reasons
            .iter()
            .map(|(r, n)| format!("{} {n}", if r.is_empty() { "(none)" } else { r }))
            .collect();
        line(&mut out, format!("ended by: {}", reasons.join(", ")));
        let (mean, sd) = self.score_spread();
        let (lo, hi) = (
            self.scores.keys().next().copied().unwrap_or(0),
            self.scores.keys().last().copied().unwrap_or(0),
        );
        line(
            &mut out,
            format!("scores: mean {mean:.2}, sd {sd:.2}, min {lo}, max {hi}"),
        );
        if self.seats.iter().any(|s| s != "random") {
            line(
                &mut out,
                format!(
                    "bot decisions: {}, refused: {}, on unknown cards: {}",
                    self.bot_decisions, self.bot_refusals, self.bot_unknown_cards
                ),
            );
        }
        out
    }
}
