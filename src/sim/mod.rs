//! Simulation: play many seeded games of a variant with computer seats and summarize them.
//!
//! `play` plays one game (random seats or bots), `study` plays a study's games on threads or as
//! one shard of many, `summary` holds the exact counts a study comes to and prints them.

mod engines;
mod fingerprint;
mod merge;
mod play;
mod shards;
mod study;
mod summary;
mod verify;
#[cfg(test)]
mod verify_tests;

pub use engines::Twin;
pub use fingerprint::rules_fingerprint;
pub use merge::{MergeError, check_counts, merge};
pub use play::{play, play_observed, play_random, play_seated, record_game};
pub use shards::{Shard, ShardRange, Shards};
pub use study::{MAX_JOBS, Study, on_script_thread};
pub use summary::{REFUSAL_WARNING_SHARE, Rate, SeededRefusal, StudyId, Summary};
pub use verify::Verify;

use crate::kernel::RuleError;

/// What one simulated game came to.
#[derive(Clone, Debug, PartialEq)]
pub struct GameSummary {
    /// The game's seed: the same seed, seats and house rules play the same game again.
    pub seed: u64,
    /// Actions applied, the game's length; timers that ran out are not counted.
    pub actions: u64,
    /// Winning seats (0-based), in the order the rules named them; empty for a game with no
    /// winner.
    pub winners: Vec<usize>,
    /// Why the game ended, in the variant's words (`Outcome::reason`).
    pub reason: String,
    /// Each seat's final points (`Rules::score`), by seat.
    pub scores: Vec<i64>,
    /// The game was stopped at a step limit before it ended (`play_observed` with
    /// `Limit::Stop`): `winners` is empty and `reason` says so.
    pub unfinished: bool,
}

/// What a game does at its step limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// Fail with [`SimError::Endless`] after [`MAX_STEPS`] (a study's games must end).
    Fail,
    /// Stop after this many steps and summarize the game unfinished (a stalemate, to count).
    Stop(u64),
}

/// Why a simulated game could not be finished.
#[derive(Debug, thiserror::Error)]
pub enum SimError {
    /// The game could not be created or set up (a bad house rule, a fault in setup, bots asked
    /// of a variant without `bots.yaml`).
    #[error("game {seed}: cannot start: {message}")]
    Start {
        /// The game's seed.
        seed: u64,
        /// Why, as one line.
        message: String,
    },
    /// The rules or a bot script failed while the game was played.
    #[error("game {seed}: {error}")]
    Rules {
        /// The game's seed.
        seed: u64,
        /// What the rules reported.
        error: RuleError,
    },
    /// The game was still running after [`MAX_STEPS`] steps.
    #[error("game {seed}: no end after {steps} steps")]
    Endless {
        /// The game's seed.
        seed: u64,
        /// The steps taken when it was given up.
        steps: u64,
    },
    /// Nothing could happen: no action was legal and no timer ran, yet the game was not over.
    #[error("game {seed}: stuck: no action is legal and no timer runs")]
    Stuck {
        /// The game's seed.
        seed: u64,
    },
    /// The study's seeds (`first_seed + i` for each game `i`) would pass `u64::MAX`.
    #[error(
        "{games} games from seed {first} need seeds past {max}: use a smaller --seed or --games",
        max = u64::MAX
    )]
    Seeds {
        /// The study's first seed.
        first: u64,
        /// The games in the whole study.
        games: u64,
    },
    /// A count of the summary overflowed 64 bits while threads' counts were added; holds the
    /// count's name (`actions`, `scores`…).
    #[error("the study's {0} do not fit in 64 bits")]
    Overflow(String),
    /// With `verify`, a check of the game failed (a kernel or rules bug, not a player's move).
    #[error("game {seed}: verification failed: {what}")]
    Verify {
        /// The game's seed.
        seed: u64,
        /// Which check failed and how.
        what: String,
    },
    /// A worker thread could not be started; holds the system's reason.
    #[error("cannot start a simulation thread: {0}")]
    Threads(String),
    /// With `strict`, the rules refused a bot's action.
    #[error(
        "game {seed}: the {level} bot in seat {} chose `{}`, which the rules refused ({}): a bug in the bot script",
        refusal.seat, refusal.action, refusal.reason
    )]
    BotRefused {
        /// The game's seed.
        seed: u64,
        /// The bot's level (`easy`, `hard`…).
        level: String,
        /// The refused action and why.
        refusal: Refusal,
    },
}

/// Steps after which a game counts as endless ([`SimError::Endless`]). Random games count
/// their actions; games with bots count every round of asking the seats, timers included.
pub const MAX_STEPS: u64 = 100_000;

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

/// A bot's action the rules refused: a bug in the bot script.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Refusal {
    /// The bot's seat, 0-based.
    pub seat: usize,
    /// The action as a scenario would write it: `draw_stokpile`, `swap slot 2`, `snap 7H`.
    pub action: String,
    /// Why the rules refused it, as they told the player.
    pub reason: String,
}

/// How the computer players behaved in a game.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BotStats {
    /// Times a bot was asked for an action (answers of "nothing now" included).
    pub decisions: u64,
    /// Bot actions the rules refused (each is a bot-script bug).
    pub refusals: Vec<Refusal>,
    /// Bot actions naming a card the bot did not remember (peeks excepted).
    pub unknown_cards: Vec<String>,
}
