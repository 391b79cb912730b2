//! A study: which games to play (a seed range, or one shard of it) and playing them on threads.
//!
//! Games are streamed: worker threads take the next game of the shard from a shared counter, and
//! which games a shard holds is arithmetic, so a study of any size starts at once and holds one
//! game per thread in memory. Each thread sums exact counts, so the summary is the same for any
//! number of threads.

use super::{BotStats, GameSummary, Seating, SimError, Summary, play_random, play_seated};
use crate::kernel::Value;
use std::sync::atomic::{AtomicU64, Ordering};

/// The K-th of N disjoint slices of a study's games (1-based `index`): the games `i` with
/// `i % count == index - 1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Shard {
    pub index: u64,
    pub count: u64,
}

impl Shard {
    /// The whole study.
    pub const WHOLE: Shard = Shard { index: 1, count: 1 };

    /// `K/N` with 1 ≤ K ≤ N.
    pub fn new(index: u64, count: u64) -> Option<Shard> {
        (index >= 1 && index <= count).then_some(Shard { index, count })
    }

    /// How many games of a study of `games` this shard plays.
    pub fn planned(self, games: u64) -> u64 {
        games.saturating_sub(self.index - 1).div_ceil(self.count)
    }

    /// The study's index of this shard's `j`-th game, if `j` is below `planned(games)`.
    pub fn game_index(self, j: u64, games: u64) -> Option<u64> {
        let i = j.checked_mul(self.count)?.checked_add(self.index - 1)?;
        (i < games).then_some(i)
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl std::str::FromStr for Shard {
    type Err = String;

    /// `K/N` with 1 ≤ K ≤ N, as in `2/8`.
    fn from_str(text: &str) -> Result<Shard, String> {
        let bad = || format!("--shard takes K/N with 1 ≤ K ≤ N, as in 2/8, not `{text}`");
        let (k, n) = text.split_once('/').ok_or_else(bad)?;
        let k = k.trim().parse::<u64>().map_err(|_| bad())?;
        let n = n.trim().parse::<u64>().map_err(|_| bad())?;
        Shard::new(k, n).ok_or_else(bad)
    }
}

/// A simulation study: which games to play and who sits where.
pub struct Study<'a> {
    pub variant: &'a crate::script::Variant,
    pub seats: Vec<Seating>,
    pub house: Vec<(String, Value)>,
    /// House rules as written, for the summary.
    pub house_text: Vec<(String, String)>,
    /// Games in the whole study (all shards); game `i` uses seed `first_seed + i`.
    pub games: u64,
    pub first_seed: u64,
    /// The slice of the games this run plays.
    pub shard: Shard,
    pub jobs: usize,
}

impl Study<'_> {
    /// How many games this run plays.
    pub fn planned(&self) -> u64 {
        self.shard.planned(self.games)
    }

    /// The seed of game `index`, if the study's seeds fit in 64 bits.
    fn seed(&self, index: u64) -> Option<u64> {
        self.first_seed.checked_add(index)
    }

    fn play(&self, index: u64) -> Result<(GameSummary, BotStats), SimError> {
        let seed = self.seed(index).ok_or(SimError::Seeds {
            first: self.first_seed,
            games: self.games,
        })?;
        if self.seats.iter().all(|s| *s == Seating::Random) {
            play_random(self.variant, self.seats.len(), seed, &self.house)
                .map(|g| (g, BotStats::default()))
        } else {
            play_seated(self.variant, &self.seats, seed, &self.house)
        }
    }

    fn empty_summary(&self) -> Summary {
        Summary::new(
            &self.variant.name,
            &self.seats,
            &self.house_text,
            self.first_seed,
        )
    }

    /// Play the study on `jobs` threads. The summary is the same for any number of jobs, and so
    /// is the error when games fail: the one of the first failing game. `progress` is called
    /// after each game.
    pub fn run(&self, progress: &(dyn Fn() + Sync)) -> Result<Summary, SimError> {
        let started = std::time::Instant::now();
        if self.games > 0 && self.seed(self.games - 1).is_none() {
            return Err(SimError::Seeds {
                first: self.first_seed,
                games: self.games,
            });
        }
        let planned = self.planned();
        let jobs = u64::try_from(self.jobs.max(1))
            .unwrap_or(u64::MAX)
            .min(planned.max(1));
        // The shard's next game, and the first game not to start (lowered when a game fails).
        let next = AtomicU64::new(0);
        let stop = AtomicU64::new(planned);
        let worker = || -> (Summary, Option<(u64, SimError)>) {
            let mut summary = self.empty_summary();
            loop {
                let Ok(j) = next.fetch_update(Ordering::SeqCst, Ordering::SeqCst, |j| {
                    (j < stop.load(Ordering::SeqCst)).then_some(j + 1)
                }) else {
                    return (summary, None);
                };
                let result = match self.shard.game_index(j, self.games) {
                    Some(index) => self.play(index),
                    None => Err(SimError::Seeds {
                        first: self.first_seed,
                        games: self.games,
                    }),
                };
                match result {
                    Ok((game, stats)) => {
                        summary.record(&game, &stats);
                        progress();
                    }
                    Err(error) => {
                        stop.fetch_min(j, Ordering::SeqCst);
                        return (summary, Some((j, error)));
                    }
                }
            }
        };
        let outcomes: Result<Vec<_>, SimError> = std::thread::scope(|scope| {
            let mut handles = Vec::new();
            for _ in 0..jobs {
                let spawned = std::thread::Builder::new()
                    .name("deckspec-sim".into())
                    .stack_size(crate::script::SCRIPT_STACK_BYTES)
                    .spawn_scoped(scope, worker);
                match spawned {
                    Ok(handle) => handles.push(handle),
                    // Fewer threads only take longer; none at all is an error.
                    Err(e) if handles.is_empty() => {
                        return Err(SimError::Threads(e.to_string()));
                    }
                    Err(_) => break,
                }
            }
            Ok(handles
                .into_iter()
                .map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
                .collect())
        });
        let mut total = self.empty_summary();
        let mut first_error: Option<(u64, SimError)> = None;
        for (partial, error) in outcomes? {
            total.merge(&partial).expect("partials of one study merge");
            if let Some((j, e)) = error
                && first_error.as_ref().is_none_or(|(k, _)| j < *k)
            {
                first_error = Some((j, e));
            }
        }
        if let Some((_, error)) = first_error {
            return Err(error);
        }
        total.seconds = started.elapsed().as_secs_f64();
        Ok(total)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The games of a shard, listed the slow way.
    fn listed(shard: Shard, games: u64) -> Vec<u64> {
        (0..games)
            .filter(|i| i % shard.count == shard.index - 1)
            .collect()
    }

    #[test]
    fn shard_arithmetic_matches_the_listing() {
        for games in 0..40 {
            for count in 1..12 {
                for index in 1..=count {
                    let shard = Shard::new(index, count).unwrap();
                    let list = listed(shard, games);
                    assert_eq!(
                        shard.planned(games),
                        list.len() as u64,
                        "{shard} of {games}"
                    );
                    for (j, &i) in list.iter().enumerate() {
                        assert_eq!(shard.game_index(j as u64, games), Some(i));
                    }
                    assert_eq!(shard.game_index(list.len() as u64, games), None);
                }
            }
        }
    }

    #[test]
    fn huge_studies_and_shards_are_arithmetic() {
        let shard = Shard::new(100_000_000, 100_000_000).unwrap();
        assert_eq!(shard.planned(u64::MAX), u64::MAX / 100_000_000);
        assert_eq!(Shard::WHOLE.planned(u64::MAX), u64::MAX);
        assert_eq!(
            Shard::WHOLE.game_index(u64::MAX - 1, u64::MAX),
            Some(u64::MAX - 1)
        );
        assert_eq!(shard.game_index(u64::MAX, u64::MAX), None);
        assert_eq!(Shard::new(3, 5).unwrap().planned(2), 0);
    }

    #[test]
    fn shards_parse_and_print() {
        assert_eq!("2/8".parse::<Shard>(), Ok(Shard { index: 2, count: 8 }));
        assert_eq!(Shard::new(2, 8).unwrap().to_string(), "2/8");
        for bad in ["0/3", "4/3", "3", "a/b", "1/0", "-1/3", "1/3/4"] {
            assert_eq!(
                bad.parse::<Shard>(),
                Err(format!(
                    "--shard takes K/N with 1 ≤ K ≤ N, as in 2/8, not `{bad}`"
                ))
            );
        }
    }
}
