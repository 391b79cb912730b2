//! A study's summary: exact counts that merge, the rates derived from them, text and JSON.

use super::{BotStats, GameSummary, Refusal, Seating, Shards};

/// The outcome of a study: counts that merge exactly, so that any split of the seeds (threads
/// or shards) sums to the same summary as one run.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Summary {
    /// The variant's name.
    pub variant: String,
    /// What decides the variant's games (`sim::rules_fingerprint`): shards merge only if equal.
    pub rules_fingerprint: String,
    /// Players in each game.
    pub players: usize,
    /// Seat kinds by seat: `random` or a bot level.
    pub seats: Vec<String>,
    /// House rules set for every game, as written (`name`, `value`); empty for the variant's
    /// defaults.
    pub house_rules: Vec<(String, String)>,
    /// The whole study: game `i` of `study_games` uses seed `first_seed + i`.
    pub first_seed: u64,
    /// Games in the whole study, all shards included.
    pub study_games: u64,
    /// The slices of the study these counts are of (`1/1`: the whole study).
    pub shard: Shards,
    /// Games played: all of the study's games in `shard`.
    pub games: u64,
    /// Actions applied in all those games (timers that ran out are not counted).
    pub actions: u64,
    /// Wall-clock seconds the run took; a merge adds its shards' seconds, as if they had run
    /// one after another.
    pub seconds: f64,
    /// The shortest game, in actions (0 when no game was played).
    pub length_min: u64,
    /// The longest game, in actions.
    pub length_max: u64,
    /// Game lengths (actions) and how many games had each.
    pub lengths: std::collections::BTreeMap<u64, u64>,
    /// Wins by seat (every tied winner counts).
    pub seat_wins: Vec<u64>,
    /// Games with more than one winner: their win counts for each, so wins may exceed games.
    pub tied_games: u64,
    /// Games that ended with no winner.
    #[serde(default)]
    pub no_winner_games: u64,
    /// How games ended, by the variant's reason.
    pub end_reasons: std::collections::BTreeMap<String, u64>,
    /// Final scores of every seat in every game, and how often each occurred.
    pub scores: std::collections::BTreeMap<i64, u64>,
    /// Times bots were asked for an action (`BotStats::decisions`, summed).
    pub bot_decisions: u64,
    /// Bot actions the rules refused, each a bug in a bot script.
    pub bot_refusals: u64,
    /// Bot actions naming a card the bot did not remember (peeks excepted): a sign that a bot
    /// script plays on what it should not know.
    pub bot_unknown_cards: u64,
    /// The refused bot action of the lowest seed, to start debugging from.
    #[serde(default)]
    pub first_refusal: Option<SeededRefusal>,
}

/// A bot's refused action and the game it happened in.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SeededRefusal {
    /// The seed of the game it happened in.
    pub seed: u64,
    /// The seat's kind: a bot level.
    pub level: String,
    /// The action and why it was refused.
    #[serde(flatten)]
    pub refusal: Refusal,
}

/// The share of bot decisions refused above which a study warns that it does not measure the
/// bots' play (the bundled bots are never refused).
pub const REFUSAL_WARNING_SHARE: f64 = 0.01;

/// A proportion with its 95% Wilson score interval.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Rate {
    /// The observed proportion, from 0 to 1 (0 when there were no trials).
    pub rate: f64,
    /// The interval's lower bound, from 0 to 1.
    pub low: f64,
    /// The interval's upper bound, from 0 to 1.
    pub high: f64,
}

impl Rate {
    /// The rate of `successes` in `trials`, with its 95% Wilson interval; all zero for no trials.
    pub fn wilson(successes: u64, trials: u64) -> Rate {
        Rate::of(successes as f64, trials as f64)
    }

    /// The interval for counts that may not fit in 64 bits (sums over seats).
    fn of(successes: f64, n: f64) -> Rate {
        if n <= 0.0 {
            return Rate {
                rate: 0.0,
                low: 0.0,
                high: 0.0,
            };
        }
        let p = successes / n;
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

/// A share as a percentage: `0.4%`, `95.0%`; a share too small for one decimal is `<0.1%`.
fn percent(share: f64) -> String {
    if share > 0.0 && share < 0.0005 {
        "<0.1%".to_string()
    } else {
        format!("{:.1}%", share * 100.0)
    }
}

/// `1 game`, `2 games`.
fn games(n: u64) -> String {
    format!("{n} game{}", if n == 1 { "" } else { "s" })
}

/// Which study a summary belongs to: everything but the counts.
pub struct StudyId<'a> {
    /// The variant's name.
    pub variant: &'a str,
    /// The rules' fingerprint (`sim::rules_fingerprint`).
    pub rules_fingerprint: &'a str,
    /// Who plays each seat.
    pub seats: &'a [Seating],
    /// House rules as written.
    pub house: &'a [(String, String)],
    /// The seed of the study's game 0.
    pub first_seed: u64,
    /// Games in the whole study.
    pub study_games: u64,
    /// The slices the summary will count.
    pub shard: Shards,
}

impl Summary {
    /// An empty summary of a study (or of its shard).
    pub fn new(id: StudyId) -> Summary {
        Summary {
            variant: id.variant.to_string(),
            rules_fingerprint: id.rules_fingerprint.to_string(),
            players: id.seats.len(),
            seats: id
                .seats
                .iter()
                .map(|s| match s {
                    Seating::Random => "random".to_string(),
                    Seating::Bot(level) => level.clone(),
                })
                .collect(),
            house_rules: id.house.to_vec(),
            first_seed: id.first_seed,
            study_games: id.study_games,
            shard: id.shard,
            seat_wins: vec![0; id.seats.len()],
            ..Summary::default()
        }
    }

    /// Count one finished game and what its bots did.
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
        match game.winners.len() {
            0 => self.no_winner_games += 1,
            1 => {}
            _ => self.tied_games += 1,
        }
        *self.end_reasons.entry(game.reason.clone()).or_default() += 1;
        for &score in &game.scores {
            *self.scores.entry(score).or_default() += 1;
        }
        self.bot_decisions += stats.decisions;
        self.bot_refusals += stats.refusals.len() as u64;
        self.bot_unknown_cards += stats.unknown_cards.len() as u64;
        if let Some(refusal) = stats.refusals.first() {
            self.note_refusal(SeededRefusal {
                seed: game.seed,
                level: self.seats.get(refusal.seat).cloned().unwrap_or_default(),
                refusal: refusal.clone(),
            });
        }
    }

    /// Keep the refusal of the lowest seed, so that any split of the games keeps the same one.
    fn note_refusal(&mut self, refusal: SeededRefusal) {
        if self
            .first_refusal
            .as_ref()
            .is_none_or(|first| refusal.seed < first.seed)
        {
            self.first_refusal = Some(refusal);
        }
    }

    /// The share of bot decisions the rules refused.
    pub fn refusal_share(&self) -> f64 {
        self.bot_refusals as f64 / self.bot_decisions.max(1) as f64
    }

    /// Add the counts of another part of the same study (other games; the caller checks that
    /// it is the same study). On overflow, names the count and leaves `self` partly added.
    pub fn add(&mut self, other: &Summary) -> Result<(), &'static str> {
        fn sum(a: &mut u64, b: u64, what: &'static str) -> Result<(), &'static str> {
            *a = a.checked_add(b).ok_or(what)?;
            Ok(())
        }
        if other.games > 0 {
            if self.games == 0 || other.length_min < self.length_min {
                self.length_min = other.length_min;
            }
            self.length_max = self.length_max.max(other.length_max);
        }
        sum(&mut self.games, other.games, "games")?;
        sum(&mut self.actions, other.actions, "actions")?;
        self.seconds += other.seconds;
        for (k, v) in &other.lengths {
            sum(self.lengths.entry(*k).or_default(), *v, "lengths")?;
        }
        for (a, b) in self.seat_wins.iter_mut().zip(&other.seat_wins) {
            sum(a, *b, "seat_wins")?;
        }
        sum(&mut self.tied_games, other.tied_games, "tied_games")?;
        sum(
            &mut self.no_winner_games,
            other.no_winner_games,
            "no_winner_games",
        )?;
        for (k, v) in &other.end_reasons {
            sum(
                self.end_reasons.entry(k.clone()).or_default(),
                *v,
                "end_reasons",
            )?;
        }
        for (k, v) in &other.scores {
            sum(self.scores.entry(*k).or_default(), *v, "scores")?;
        }
        sum(
            &mut self.bot_decisions,
            other.bot_decisions,
            "bot_decisions",
        )?;
        sum(&mut self.bot_refusals, other.bot_refusals, "bot_refusals")?;
        sum(
            &mut self.bot_unknown_cards,
            other.bot_unknown_cards,
            "bot_unknown_cards",
        )?;
        if let Some(refusal) = &other.first_refusal {
            self.note_refusal(refusal.clone());
        }
        Ok(())
    }

    /// Seat wins added up: more than the games when games had tied winners.
    pub fn wins_total(&self) -> u128 {
        self.seat_wins.iter().map(|&w| u128::from(w)).sum()
    }

    /// What a reader of the rates must know: shared wins, a partial study.
    pub fn notes(&self) -> Vec<String> {
        let mut notes = Vec::new();
        let total = self.wins_total();
        if total > u128::from(self.games) {
            notes.push(format!(
                "seat wins add up to {total} for {} games: {} had tied winners, and a tie counts as a win for each of them",
                self.games,
                games(self.tied_games)
            ));
        } else if self.tied_games > 0 {
            notes.push(format!(
                "{} had tied winners; a tie counts as a win for each of them",
                games(self.tied_games)
            ));
        }
        if self.bot_refusals > 0 {
            let first = self
                .first_refusal
                .as_ref()
                .map(|f| {
                    format!(
                        "; the first: game {}, the {} bot in seat {} chose `{}` ({})",
                        f.seed, f.level, f.refusal.seat, f.refusal.action, f.refusal.reason
                    )
                })
                .unwrap_or_default();
            notes.push(format!(
                "the rules refused {} of {} bot decisions ({}), each a bug in the bot script{first}; --strict stops at the first",
                self.bot_refusals,
                self.bot_decisions,
                percent(self.refusal_share())
            ));
        }
        if !self.shard.is_whole() {
            let single = matches!(self.shard.ranges(), [r] if r.first == r.last);
            notes.push(format!(
                "partial study: {} {} {} {} of its {}; missing shards: {} of {}",
                if single { "shard" } else { "shards" },
                self.shard,
                if single { "holds" } else { "hold" },
                self.games,
                games(self.study_games),
                Shards::list(&self.shard.missing()),
                self.shard.count()
            ));
        }
        notes
    }

    /// Games played per second of `seconds`.
    pub fn games_per_second(&self) -> f64 {
        self.games as f64 / self.seconds.max(1e-9)
    }

    /// Actions applied per second of `seconds`.
    pub fn actions_per_second(&self) -> f64 {
        self.actions as f64 / self.seconds.max(1e-9)
    }

    /// The mean game length in actions (0 with no games).
    pub fn mean_length(&self) -> f64 {
        self.actions as f64 / self.games.max(1) as f64
    }

    /// Each seat's win rate over the games, by seat (a tie counts as a win for each winner).
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
                    .fold((0u128, 0u128), |(w, n), (_, &sw)| {
                        (w + u128::from(sw), n + u128::from(self.games))
                    });
                (level, Rate::of(wins as f64, seats as f64))
            })
            .collect()
    }

    /// Mean and standard deviation of the final scores.
    pub fn score_spread(&self) -> (f64, f64) {
        let n: f64 = self.scores.values().map(|&c| c as f64).sum();
        if n == 0.0 {
            return (0.0, 0.0);
        }
        let mean = self
            .scores
            .iter()
            .map(|(s, c)| *s as f64 * *c as f64)
            .sum::<f64>()
            / n;
        let var = self
            .scores
            .iter()
            .map(|(s, c)| (*s as f64 - mean).powi(2) * *c as f64)
            .sum::<f64>()
            / n;
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
            "seat_wins_total": self.wins_total().to_string().parse::<serde_json::Number>().ok(),
            "missing_shards": Shards::list(&self.shard.missing()),
            "notes": self.notes(),
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
                "{:.1}%, 95% CI {:.1}–{:.1}%",
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
                    "seat {i} ({seat}): won {}: {}",
                    self.seat_wins[i],
                    pct(&rate)
                ),
            );
        }
        for (level, rate) in self.level_rates() {
            line(&mut out, format!("level {level}: {}", pct(&rate)));
        }
        line(
            &mut out,
            format!(
                "draws: {} with tied winners, {} with no winner",
                self.tied_games, self.no_winner_games
            ),
        );
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
        for note in self.notes() {
            line(&mut out, format!("note: {note}"));
        }
        out
    }
}
