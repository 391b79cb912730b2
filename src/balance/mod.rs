//! `deckspec balance`: what a rule does to the game, with statistics a designer can trust.
//! Games are played as `simulate` plays them (random seats or bots), each watched step by step
//! (`trace.rs`), and summed into metrics with 95% intervals (`metrics.rs`, `stats.rs`): seat and
//! first-turn advantage, length and its spread, decisiveness, lead changes, comebacks, how close
//! the trailing players stay, stalemates, ties, score margins, each action's use and whether
//! using it goes with winning, branching, hidden information and time. `skill` plays every pair
//! of bot levels against each other; `compare.rs` sets two configurations side by side and
//! `tune.rs` races a house rule's values toward a target.
//!
//! Games are streamed in blocks of `BLOCK` on every thread; each block's tally is merged in block
//! order, so a study holds a few blocks' sums at a time and its numbers are the same, to the
//! last bit, for any number of threads.

pub mod activation;
pub mod compare;
pub mod metrics;
pub mod report;
pub mod stats;
pub mod trace;
pub mod tune;

pub use activation::Activation;
pub use compare::{Compare, Comparison, Difference, Margin};
pub use metrics::{Metric, Stat, Tally};
pub use trace::{Better, Tracer};
pub use tune::{Candidate, Tune, Tuning};

use crate::kernel::Value;
use crate::script::Variant;
use crate::sim::{Limit, Seating, SimError};
use std::collections::BTreeMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

/// Games a thread plays between two merges.
const BLOCK: u64 = 64;

/// Games played first to tell which end of the score wins, when it is not given.
const PILOT_GAMES: u64 = 50;

/// A balance study.
pub struct Balance<'a> {
    /// The variant.
    pub variant: &'a Variant,
    /// Who plays each seat.
    pub seats: Vec<Seating>,
    /// House rules for every game.
    pub house: Vec<(String, Value)>,
    /// Games; game `i` uses seed `first_seed + i`.
    pub games: u64,
    /// The seed of game 0.
    pub first_seed: u64,
    /// Threads.
    pub jobs: usize,
    /// Steps after which a game stops and counts as a stalemate.
    pub max_steps: u64,
    /// Which end of the score leads; `None`: told from the first games' winners.
    pub better: Option<Better>,
    /// The slice of the games this run plays (`Shard::WHOLE`: all of them).
    pub shard: crate::sim::Shard,
    /// How often each rule fires, measured on some of the games (probed): `None` to leave it.
    pub activation: Option<&'a Activation>,
}

/// What a study came to.
#[derive(Clone, Debug)]
pub struct Report {
    /// The sums of its games.
    pub tally: Tally,
    /// Which end of the score led, and whether it was told from the games (not given).
    pub better: Better,
    /// Whether `better` was told from the games.
    pub inferred: bool,
    /// Wall-clock seconds.
    pub seconds: f64,
}

impl Balance<'_> {
    /// The seed of the study's game `i`.
    fn seed(&self, i: u64) -> Result<u64, SimError> {
        self.first_seed.checked_add(i).ok_or(SimError::Seeds {
            first: self.first_seed,
            games: self.games,
        })
    }

    /// The games this run plays: its shard's share of the study.
    pub fn planned(&self) -> u64 {
        self.shard.planned(self.games)
    }

    /// The seed of this run's game `j` (the shard's `j`-th game of the study).
    fn run_seed(&self, j: u64) -> Result<u64, SimError> {
        let i = self
            .shard
            .game_index(j, self.games)
            .ok_or(SimError::Seeds {
                first: self.first_seed,
                games: self.games,
            })?;
        self.seed(i)
    }

    /// Which end of the score leads: as given, or told from the first games' winners.
    fn resolved_better(&self) -> Result<Better, SimError> {
        match self.better {
            Some(b) => Ok(b),
            None => self.infer_better(),
        }
    }

    /// Games `from` to `to` (exclusive) of this study, summed: a look's new games.
    fn play_range(&self, from: u64, to: u64, better: Better) -> Result<Tally, SimError> {
        let part = Balance {
            variant: self.variant,
            seats: self.seats.clone(),
            house: self.house.clone(),
            games: to.saturating_sub(from),
            first_seed: self.seed(from)?,
            jobs: self.jobs,
            max_steps: self.max_steps,
            better: Some(better),
            shard: crate::sim::Shard::WHOLE,
            activation: None,
        };
        part.play_all(better)
    }

    /// Play the study and sum it.
    pub fn run(&self) -> Result<Report, SimError> {
        let started = std::time::Instant::now();
        let (better, inferred) = match self.better {
            Some(b) => (b, false),
            None => (self.infer_better()?, true),
        };
        let tally = self.play_all(better)?;
        Ok(Report {
            tally,
            better,
            inferred,
            seconds: started.elapsed().as_secs_f64(),
        })
    }

    /// Which end of the score the first games' winners were at: the lower unless most finished
    /// games with a winner and a loser were won at the higher.
    fn infer_better(&self) -> Result<Better, SimError> {
        crate::sim::on_script_thread(|| {
            let (mut lower, mut higher) = (0u64, 0u64);
            let tracer = Tracer::new(self.variant, Better::Lower);
            for i in 0..PILOT_GAMES.min(self.games.max(1)) {
                let (game, _) = crate::sim::play_observed(
                    self.variant,
                    &tracer,
                    &self.seats,
                    self.seed(i)?,
                    &self.house,
                    Limit::Stop(self.max_steps),
                )?;
                tracer.take();
                let (Some(min), Some(max)) = (game.scores.iter().min(), game.scores.iter().max())
                else {
                    continue;
                };
                if game.winners.is_empty() || min == max {
                    continue;
                }
                let at = |v: &i64| game.winners.iter().all(|&w| game.scores.get(w) == Some(v));
                lower += u64::from(at(min));
                higher += u64::from(at(max));
            }
            Ok(match higher > lower {
                true => Better::Higher,
                false => Better::Lower,
            })
        })?
    }

    /// Every game on `jobs` threads, in blocks merged in order.
    fn play_all(&self, better: Better) -> Result<Tally, SimError> {
        let table = self.variant.table();
        let rules = self.activation.map_or(0, |a| a.rules.len());
        let empty = Tally::new(self.seats.len(), table.actions.len(), rules);
        let planned = self.planned();
        let blocks = planned.div_ceil(BLOCK);
        let next = AtomicU64::new(0);
        // Block tallies waiting for the ones before them, and the merged prefix.
        let merged: Mutex<(u64, Tally, BTreeMap<u64, Tally>)> =
            Mutex::new((0, empty.clone(), BTreeMap::new()));
        let failed: Mutex<Option<(u64, SimError)>> = Mutex::new(None);
        let jobs = self
            .jobs
            .clamp(1, crate::sim::MAX_JOBS)
            .min(blocks.max(1) as usize);
        std::thread::scope(|scope| -> Result<(), SimError> {
            let mut handles = Vec::new();
            for _ in 0..jobs {
                let handle = std::thread::Builder::new()
                    .name("deckspec-balance".into())
                    .stack_size(crate::script::SCRIPT_STACK_BYTES)
                    .spawn_scoped(scope, || {
                        let tracer = Tracer::new(self.variant, better);
                        let probed = match self.activation.map(Activation::checkout) {
                            Some(Err(message)) => {
                                let mut f = failed.lock().unwrap_or_else(|p| p.into_inner());
                                *f = Some((
                                    0,
                                    SimError::Start {
                                        seed: self.first_seed,
                                        message,
                                    },
                                ));
                                return;
                            }
                            Some(Ok(v)) => Some(v),
                            None => None,
                        };
                        let probed_tracer = probed
                            .as_ref()
                            .map(|v| Tracer::scored_by(v, self.variant, better));
                        let watch = Watch {
                            plain: &tracer,
                            probed: probed.as_ref().zip(probed_tracer.as_ref()),
                        };
                        loop {
                            let b = next.fetch_add(1, Ordering::Relaxed);
                            if b >= blocks {
                                break;
                            }
                            let mut tally = empty.clone();
                            let end = ((b + 1) * BLOCK).min(planned);
                            for i in b * BLOCK..end {
                                match self.play_one(&watch, i) {
                                    Ok((game, trace)) => tally.observe(&game, &trace),
                                    Err(e) => {
                                        let mut f =
                                            failed.lock().unwrap_or_else(|p| p.into_inner());
                                        // The first failing game's error, whichever thread met it.
                                        if f.as_ref().is_none_or(|(at, _)| i < *at) {
                                            *f = Some((i, e));
                                        }
                                        break;
                                    }
                                }
                            }
                            if failed.lock().unwrap_or_else(|p| p.into_inner()).is_some() {
                                break;
                            }
                            let mut m = merged.lock().unwrap_or_else(|p| p.into_inner());
                            m.2.insert(b, tally);
                            let (done, sum, pending) = &mut *m;
                            while let Some(t) = pending.remove(done) {
                                sum.merge(&t);
                                *done += 1;
                            }
                        }
                        drop(probed_tracer);
                        if let (Some(a), Some(v)) = (self.activation, probed) {
                            a.give_back(v);
                        }
                    })
                    .map_err(|e| SimError::Threads(e.to_string()))?;
                handles.push(handle);
            }
            for h in handles {
                if let Err(panic) = h.join() {
                    std::panic::resume_unwind(panic);
                }
            }
            Ok(())
        })?;
        if let Some((_, e)) = failed.into_inner().unwrap_or_else(|p| p.into_inner()) {
            return Err(e);
        }
        let (_, tally, _) = merged.into_inner().unwrap_or_else(|p| p.into_inner());
        Ok(tally)
    }

    /// This run's game `j`: on the probed copy when the activation probes it.
    fn play_one(
        &self,
        watch: &Watch<'_, '_>,
        j: u64,
    ) -> Result<(crate::sim::GameSummary, trace::GameTrace), SimError> {
        let probe = match (self.activation, watch.probed) {
            (Some(a), Some(probed)) => self
                .shard
                .game_index(j, self.games)
                .is_some_and(|i| a.probes(i))
                .then_some((a, probed)),
            _ => None,
        };
        let tracer = probe.map_or(watch.plain, |(_, (_, t))| t);
        // Bots think on the plain copy: only the rules' lines are counted.
        let played = crate::sim::play_observed(
            self.variant,
            tracer,
            &self.seats,
            self.run_seed(j)?,
            &self.house,
            Limit::Stop(self.max_steps),
        );
        let mut trace = tracer.take();
        if let Some((activation, (variant, _))) = probe {
            let (all, refused) = variant.take_hits_split();
            trace.fires = Some(activation.fires(&all, &refused));
        }
        played.map(|(game, _)| (game, trace))
    }
}

/// A thread's tracers: of the plain variant, and of its probed copy when rules are measured.
struct Watch<'t, 'v> {
    plain: &'t Tracer<'v>,
    probed: Option<(&'t Variant, &'t Tracer<'t>)>,
}

/// The names of a variant's declared actions, in declared order: what the per-action metrics
/// are named by.
pub fn action_names(variant: &Variant) -> Vec<&str> {
    variant.table().actions.iter().map(|a| &*a.name).collect()
}

/// The games played by each look of a sequential study (`compare`, `tune`): the first round,
/// then twice as many each look, up to the budget. Doubling keeps the looks few (each costs a
/// share of the error rate) while a clear answer still comes after the first round.
pub fn schedule(round: u64, budget: u64) -> Vec<u64> {
    let (round, budget) = (round.max(1), budget.max(round.max(1)));
    let mut looks = vec![round];
    while let Some(&last) = looks.last()
        && last < budget
    {
        looks.push(last.saturating_mul(2).min(budget));
    }
    looks
}

/// One pair of levels played against each other.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Matchup {
    /// The level whose wins are counted.
    pub level: String,
    /// Its opponent.
    pub against: String,
    /// Games `level` won, of the games one of them won (a tie counts for neither).
    pub wins: stats::Share,
    /// The smallest odd number of games after which `level` wins the majority with 95%
    /// probability, at its win rate; `None` when it wins half or fewer.
    pub games_to_win: Option<u64>,
}

/// Every ordered pair of `levels` in two-player games, `games` a pair (seats alternating).
pub fn skill(
    variant: &Variant,
    levels: &[String],
    house: &[(String, Value)],
    games: u64,
    first_seed: u64,
    jobs: usize,
    max_steps: u64,
) -> Result<Vec<Matchup>, SimError> {
    let mut out = Vec::new();
    for (i, a) in levels.iter().enumerate() {
        for b in &levels[i + 1..] {
            let mut wins = [stats::Share::default(), stats::Share::default()];
            // Half the games with `a` in seat 0, half with `b`.
            for (side, seats) in [
                vec![Seating::Bot(a.clone()), Seating::Bot(b.clone())],
                vec![Seating::Bot(b.clone()), Seating::Bot(a.clone())],
            ]
            .into_iter()
            .enumerate()
            {
                // The two halves deal different games: seeds `first_seed…` and the next ones.
                let half = games.div_ceil(2);
                let study = Balance {
                    variant,
                    seats,
                    house: house.to_vec(),
                    games: half,
                    first_seed: first_seed.checked_add(half * side as u64).ok_or(
                        SimError::Seeds {
                            first: first_seed,
                            games,
                        },
                    )?,
                    jobs,
                    max_steps,
                    better: Some(Better::Lower),
                    shard: crate::sim::Shard::WHOLE,
                    activation: None,
                };
                let tally = study.play_all(Better::Lower)?;
                // Seat of `a` this time round.
                let (mine, theirs) = match side {
                    0 => (&tally.seat_wins[0], &tally.seat_wins[1]),
                    _ => (&tally.seat_wins[1], &tally.seat_wins[0]),
                };
                // Games one of them won alone: a tie counts for neither.
                wins[0].hits += mine.hits - tally.tied.hits;
                wins[1].hits += theirs.hits - tally.tied.hits;
            }
            let decided = wins[0].hits + wins[1].hits;
            for (level, against, hits) in [(a, b, wins[0].hits), (b, a, wins[1].hits)] {
                let share = stats::Share { hits, n: decided };
                out.push(Matchup {
                    level: level.clone(),
                    against: against.clone(),
                    games_to_win: share.value().and_then(games_to_win),
                    wins: share,
                });
            }
        }
    }
    Ok(out)
}

/// The smallest odd match length that a player winning each game with probability `p` wins by
/// a majority with 95% probability (at most 9,999 games); `None` for `p <= 0.5`.
pub fn games_to_win(p: f64) -> Option<u64> {
    use statrs::distribution::{Binomial, DiscreteCDF};
    if p <= 0.5 {
        return None;
    }
    (1..10_000u64).step_by(2).find(|&n| {
        Binomial::new(p, n)
            .map(|b| 1.0 - b.cdf(n / 2) >= stats::CONFIDENCE)
            .unwrap_or(false)
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn looks_double_up_to_the_budget() {
        assert_eq!(
            super::schedule(2000, 20000),
            [2000, 4000, 8000, 16000, 20000]
        );
        assert_eq!(super::schedule(500, 500), [500]);
        assert_eq!(super::schedule(500, 100), [500]);
        assert_eq!(super::schedule(1000, 4000), [1000, 2000, 4000]);
    }

    use super::games_to_win;

    #[test]
    fn a_better_player_needs_fewer_games_the_better_it_is() {
        assert_eq!(games_to_win(0.5), None);
        assert_eq!(games_to_win(0.99), Some(1));
        // p = 0.8: 3 games win a majority 89.6% of the time, 5 games 94.2%, 7 games 96.7%.
        assert_eq!(games_to_win(0.8), Some(7));
        let (a, b) = (games_to_win(0.6).unwrap(), games_to_win(0.7).unwrap());
        assert!(a > b, "{a} {b}");
    }
}
