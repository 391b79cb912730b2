//! A study: which games to play (a seed range, or one shard of it) and playing them on threads.
//!
//! Games are streamed: worker threads take the next game of the shard from a shared counter, and
//! which games a shard holds is arithmetic, so a study of any size starts at once and holds one
//! game per thread in memory. Each thread sums exact counts, so the summary is the same for any
//! number of threads.

use super::summary::StudyId;
use super::{BotStats, GameSummary, Seating, Shard, Shards, SimError, Summary};
use crate::kernel::Value;
use std::sync::atomic::{AtomicU64, Ordering};

/// A simulation study: which games to play and who sits where.
pub struct Study<'a> {
    /// The variant to play, loaded once and shared by every thread.
    pub variant: &'a crate::script::Variant,
    /// Who plays each seat; its length is the number of players.
    pub seats: Vec<Seating>,
    /// House-rule values for every game, as `Game::new` takes them.
    pub house: Vec<(String, Value)>,
    /// House rules as written, for the summary.
    pub house_text: Vec<(String, String)>,
    /// Games in the whole study (all shards); game `i` uses seed `first_seed + i`.
    pub games: u64,
    /// The seed of the study's game 0.
    pub first_seed: u64,
    /// The slice of the games this run plays.
    pub shard: Shard,
    /// Threads (at most `MAX_JOBS`).
    pub jobs: usize,
    /// Check every step of every game (`verify`): slower, and any failure is an error.
    pub verify: bool,
    /// A bot's refused action is an error (`--strict`), not a count in the summary.
    pub strict: bool,
    /// The same variant on the interpreter: run every hook call on both engines and compare
    /// them (`--compare-engines`); a difference is an error.
    pub compare: Option<&'a crate::script::Variant>,
}

/// The most threads a study runs on: each gets `SCRIPT_STACK_BYTES` of stack.
pub const MAX_JOBS: usize = 256;

/// Run `f` on a thread with the stack scripts need (`SCRIPT_STACK_BYTES`) and wait for it.
pub fn on_script_thread<R: Send>(f: impl FnOnce() -> R + Send) -> Result<R, SimError> {
    std::thread::scope(|scope| {
        std::thread::Builder::new()
            .name("deckspec-script".into())
            .stack_size(crate::script::SCRIPT_STACK_BYTES)
            .spawn_scoped(scope, f)
            .map_err(|e| SimError::Threads(e.to_string()))
            .map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
    })
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
        let (game, stats) = super::play(
            self.variant,
            &self.seats,
            seed,
            &self.house,
            self.verify,
            self.compare,
        )?;
        match stats.refusals.first() {
            Some(refusal) if self.strict => Err(SimError::BotRefused {
                seed,
                level: match self.seats.get(refusal.seat) {
                    Some(Seating::Bot(level)) => level.clone(),
                    _ => "random".to_string(),
                },
                refusal: refusal.clone(),
            }),
            _ => Ok((game, stats)),
        }
    }

    fn empty_summary(&self, fingerprint: &str) -> Summary {
        Summary::new(StudyId {
            variant: &self.variant.name,
            rules_fingerprint: fingerprint,
            seats: &self.seats,
            house: &self.house_text,
            first_seed: self.first_seed,
            study_games: self.games,
            shard: Shards::from(self.shard),
        })
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
        let fingerprint = super::rules_fingerprint(self.variant);
        let planned = self.planned();
        let jobs = u64::try_from(self.jobs.clamp(1, MAX_JOBS))
            .unwrap_or(u64::MAX)
            .min(planned.max(1));
        // The shard's next game, and the first game not to start (lowered when a game fails).
        let next = AtomicU64::new(0);
        let stop = AtomicU64::new(planned);
        let worker = || -> (Summary, Option<(u64, SimError)>) {
            let mut summary = self.empty_summary(&fingerprint);
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
        let mut total = self.empty_summary(&fingerprint);
        let mut first_error: Option<(u64, SimError)> = None;
        for (partial, error) in outcomes? {
            total
                .add(&partial)
                .map_err(|count| SimError::Overflow(count.to_string()))?;
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
