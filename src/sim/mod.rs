//! Simulation: play many seeded games of a variant with computer seats and summarize them.
//!
//! `play` plays one game (random seats or bots), `study` plays a study's games on threads or as
//! one shard of many, `summary` holds the exact counts a study comes to and prints them.

mod fingerprint;
mod merge;
mod play;
mod shards;
mod study;
mod summary;
mod verify;

pub use fingerprint::rules_fingerprint;
pub use merge::{MergeError, check_counts, merge};
pub use play::{play, play_random, play_seated};
pub use shards::{Shard, ShardRange, Shards};
pub use study::{MAX_JOBS, Study, on_script_thread};
pub use summary::{REFUSAL_WARNING_SHARE, Rate, SeededRefusal, StudyId, Summary};

use crate::kernel::RuleError;

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
    #[error(
        "{games} games from seed {first} need seeds past {max}: use a smaller --seed or --games",
        max = u64::MAX
    )]
    Seeds { first: u64, games: u64 },
    #[error("the study's {0} do not fit in 64 bits")]
    Overflow(String),
    #[error("game {seed}: verification failed: {what}")]
    Verify { seed: u64, what: String },
    #[error("cannot start a simulation thread: {0}")]
    Threads(String),
    #[error(
        "game {seed}: the {level} bot in seat {} chose `{}`, which the rules refused ({}): a bug in the bot script",
        refusal.seat, refusal.action, refusal.reason
    )]
    BotRefused {
        seed: u64,
        level: String,
        refusal: Refusal,
    },
}

/// Steps after which a game counts as endless.
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
    pub seat: usize,
    /// The action as a scenario would write it: `draw_stokpile`, `swap slot 2`, `snap 7H`.
    pub action: String,
    pub reason: String,
}

/// How the computer players behaved in a game.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BotStats {
    pub decisions: u64,
    /// Bot actions the rules refused (each is a bot-script bug).
    pub refusals: Vec<Refusal>,
    /// Bot actions naming a card the bot did not remember (peeks excepted).
    pub unknown_cards: Vec<String>,
}
