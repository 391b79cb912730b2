//! Simulation: play many seeded games of a variant with computer seats and summarize them.

use crate::kernel::playout::{RandomAgent, Step};
use crate::kernel::{Game, RuleError, Rules, Value};

/// What one simulated game came to.
#[derive(Clone, Debug, PartialEq)]
pub struct GameSummary {
    pub seed: u64,
    pub actions: u64,
    pub winners: Vec<usize>,
    pub reason: String,
    pub scores: Vec<i64>,
}

/// Why a simulated game could not be finished.
#[derive(Debug, thiserror::Error)]
pub enum SimError {
    #[error("game {seed}: cannot start: {message}")]
    Start { seed: u64, message: String },
    #[error("game {seed}: {error}")]
    Rules { seed: u64, error: RuleError },
    #[error("game {seed}: no end after {steps} steps")]
    Endless { seed: u64, steps: u64 },
    #[error("game {seed}: stuck: no action is legal and no timer runs")]
    Stuck { seed: u64 },
}

/// Steps after which a game counts as endless.
pub const MAX_STEPS: u64 = 100_000;

/// Play one game with uniformly random legal actions for every seat.
pub fn play_random(
    rules: &dyn Rules,
    players: usize,
    seed: u64,
    house: &[(String, Value)],
) -> Result<GameSummary, SimError> {
    let names = (0..players).map(|i| format!("p{i}")).collect();
    let start = |message: String| SimError::Start { seed, message };
    let mut game =
        Game::new(rules.table().clone(), names, seed, house).map_err(|e| start(e.to_string()))?;
    game.start(rules).map_err(|e| start(e.to_string()))?;
    let mut agent = RandomAgent::new(seed);
    let mut actions = 0;
    while !game.is_over() {
        if actions >= MAX_STEPS {
            return Err(SimError::Endless {
                seed,
                steps: actions,
            });
        }
        match agent.step(&mut game, rules) {
            Ok(Step::Acted(_)) => actions += 1,
            Ok(Step::Waited) => {}
            Ok(Step::Stuck) => return Err(SimError::Stuck { seed }),
            Err(error) => return Err(SimError::Rules { seed, error }),
        }
        // Nobody reads the events of a random game: keep its memory flat.
        game.forget_events_before(game.event_count());
    }
    summarize(rules, &mut game, seed, actions)
}

fn summarize(
    rules: &dyn Rules,
    game: &mut Game,
    seed: u64,
    actions: u64,
) -> Result<GameSummary, SimError> {
    let outcome = game
        .state
        .outcome
        .clone()
        .unwrap_or(crate::kernel::Outcome {
            winners: Vec::new(),
            reason: String::new(),
        });
    let scores = (0..game.state.player_count())
        .map(|s| rules.score(&mut game.trial(), crate::kernel::Seat(s as u8)))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|error| SimError::Rules { seed, error })?;
    Ok(GameSummary {
        seed,
        actions,
        winners: outcome.winners.iter().map(|s| s.index()).collect(),
        reason: outcome.reason,
        scores,
    })
}

/// Who plays a seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Seating {
    /// Uniformly random among the seat's legal actions and waiting.
    Random,
    /// A computer player of this level (`easy`, `medium`, `hard`, `expert`).
    Bot(String),
}

impl std::str::FromStr for Seating {
    type Err = String;

    fn from_str(s: &str) -> Result<Seating, String> {
        match s {
            "random" => Ok(Seating::Random),
            level if crate::script::bots::LEVELS.contains(&level) => {
                Ok(Seating::Bot(level.to_string()))
            }
            other => Err(format!(
                "`{other}` is not a seat kind: use random, easy, medium, hard or expert{}",
                crate::suggest::suggestion(other, ["random", "easy", "medium", "hard", "expert"])
                    .map(|s| format!(" ({s})"))
                    .unwrap_or_default()
            )),
        }
    }
}

/// How the computer players behaved in a game.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BotStats {
    pub decisions: u64,
    /// Bot actions the rules refused (each is a bot-script bug).
    pub refusals: Vec<String>,
    /// Bot actions naming a card the bot did not remember (peeks excepted).
    pub unknown_cards: Vec<String>,
}

/// Play one game with the given seats; bots come from the variant's `bots.yaml`.
pub fn play_seated(
    variant: &crate::script::Variant,
    seating: &[Seating],
    seed: u64,
    house: &[(String, Value)],
) -> Result<(GameSummary, BotStats), SimError> {
    use crate::kernel::{Arg, Seat};
    use rand::SeedableRng;
    use rand::seq::SliceRandom;
    let start = |message: String| SimError::Start { seed, message };
    let names = (0..seating.len()).map(|i| format!("p{i}")).collect();
    let mut game =
        Game::new(variant.table().clone(), names, seed, house).map_err(|e| start(e.to_string()))?;
    game.start(variant).map_err(|e| start(e.to_string()))?;
    let needs_bots = seating.iter().any(|s| matches!(s, Seating::Bot(_)));
    let book = match (&variant.bots, needs_bots) {
        (Some(book), _) => Some(book),
        (None, false) => None,
        (None, true) => return Err(start(format!("{} has no bots.yaml", variant.name))),
    };
    let mut bots: Vec<Option<crate::script::bots::Bot>> = seating
        .iter()
        .enumerate()
        .map(|(i, s)| match (s, book) {
            (Seating::Bot(level), Some(book)) => book.bot(Seat(i as u8), level, &game, seed),
            _ => None,
        })
        .collect();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed ^ 0x5eed_5eed);
    let mut stats = BotStats::default();
    let mut actions = 0;
    let mut steps = 0u64;
    let n = seating.len();
    while !game.is_over() {
        steps += 1;
        if steps > MAX_STEPS {
            return Err(SimError::Endless { seed, steps });
        }
        let first = game.state.current.map_or(0, |s| s.index());
        let mut acted = false;
        for k in 0..n {
            let seat = Seat(((first + k) % n) as u8);
            match (&seating[seat.index()], bots[seat.index()].as_mut(), book) {
                (Seating::Bot(_), Some(bot), Some(book)) => {
                    stats.decisions += 1;
                    let decision = book
                        .decide(bot, &game)
                        .map_err(|error| SimError::Rules { seed, error })?;
                    let Some(action) = decision else { continue };
                    // Peeks exist to learn unknown cards; anything else must use remembered ones.
                    let is_peek = action.name.contains("peek")
                        || action
                            .args
                            .iter()
                            .any(|a| matches!(a, Arg::Word(w) if w.contains("peek")));
                    if !is_peek {
                        for arg in &action.args {
                            let card = match arg {
                                Arg::Card(c) => Some(*c),
                                Arg::Slot { seat, slot } => game
                                    .state
                                    .hand(*seat)
                                    .get(*slot as usize)
                                    .copied()
                                    .flatten(),
                                _ => None,
                            };
                            if let Some(card) = card
                                && !book.remembers(bot, &game, card)
                            {
                                stats.unknown_cards.push(format!("{action:?}"));
                            }
                        }
                    }
                    match game.apply(variant, &action) {
                        Ok(()) => acted = true,
                        Err(RuleError::Refused(reason)) => {
                            stats.refusals.push(format!("{action:?}: {reason}"))
                        }
                        Err(error) => return Err(SimError::Rules { seed, error }),
                    }
                }
                _ => {
                    let mut options: Vec<Option<crate::kernel::Action>> = game
                        .candidates()
                        .into_iter()
                        .filter(|a| a.seat == seat)
                        .map(Some)
                        .collect();
                    options.push(None);
                    options.shuffle(&mut rng);
                    for option in options {
                        let Some(action) = option else { break };
                        match game.apply(variant, &action) {
                            Ok(()) => {
                                acted = true;
                                break;
                            }
                            Err(RuleError::Refused(_)) => {}
                            Err(error) => return Err(SimError::Rules { seed, error }),
                        }
                    }
                }
            }
            if acted {
                actions += 1;
                break;
            }
        }
        if !acted {
            let fired = game
                .run_out(variant)
                .map_err(|error| SimError::Rules { seed, error })?;
            if !fired {
                // Nobody chose to act and no timer runs: the current player must move.
                let mut agent = RandomAgent::new(seed ^ steps);
                match agent.step(&mut game, variant) {
                    Ok(Step::Acted(_)) => actions += 1,
                    Ok(Step::Waited) => {}
                    Ok(Step::Stuck) => return Err(SimError::Stuck { seed }),
                    Err(error) => return Err(SimError::Rules { seed, error }),
                }
            }
        }
        // Events every bot has observed are no longer needed.
        let observed = bots.iter().flatten().map(|b| b.seen()).min();
        game.forget_events_before(observed.unwrap_or(game.event_count()));
    }
    Ok((summarize(variant, &mut game, seed, actions)?, stats))
}

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

/// A simulation study: which games to play and who sits where.
pub struct Study<'a> {
    pub variant: &'a crate::script::Variant,
    pub seats: Vec<Seating>,
    pub house: Vec<(String, Value)>,
    /// House rules as written, for the summary.
    pub house_text: Vec<(String, String)>,
    pub games: u64,
    pub first_seed: u64,
    /// `(k, n)`: play only the games `i` with `i % n == k - 1` (1-based `k`).
    pub shard: (u64, u64),
    pub jobs: usize,
}

impl Study<'_> {
    /// The game indices this study plays.
    fn indices(&self) -> Vec<u64> {
        let (k, n) = self.shard;
        (0..self.games)
            .filter(|i| i % n.max(1) == k.saturating_sub(1))
            .collect()
    }

    fn play(&self, index: u64) -> Result<(GameSummary, BotStats), SimError> {
        let seed = self.first_seed + index;
        if self.seats.iter().all(|s| *s == Seating::Random) {
            play_random(self.variant, self.seats.len(), seed, &self.house)
                .map(|g| (g, BotStats::default()))
        } else {
            play_seated(self.variant, &self.seats, seed, &self.house)
        }
    }

    /// Play the study on `jobs` threads. The summary is the same for any number of jobs;
    /// `progress` is called after each game.
    pub fn run(&self, progress: &(dyn Fn() + Sync)) -> Result<Summary, SimError> {
        let started = std::time::Instant::now();
        let indices = self.indices();
        let jobs = self.jobs.max(1).min(indices.len().max(1));
        let chunk = indices.len().div_ceil(jobs).max(1);
        let partials: Vec<Result<Summary, SimError>> = std::thread::scope(|scope| {
            let handles: Vec<_> = indices
                .chunks(chunk)
                .map(|part| {
                    scope.spawn(move || {
                        let mut summary = Summary::new(
                            &self.variant.name,
                            &self.seats,
                            &self.house_text,
                            self.first_seed,
                        );
                        for &i in part {
                            let (game, stats) = self.play(i)?;
                            summary.record(&game, &stats);
                            progress();
                        }
                        Ok(summary)
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("a simulation thread"))
                .collect()
        });
        let mut total = Summary::new(
            &self.variant.name,
            &self.seats,
            &self.house_text,
            self.first_seed,
        );
        for partial in partials {
            total.merge(&partial?).expect("partials of one study merge");
        }
        total.seconds = started.elapsed().as_secs_f64();
        Ok(total)
    }
}
