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
