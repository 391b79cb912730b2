//! Random playouts: uniformly random legal actions (or letting the next timer run out), driven by
//! a generator of their own so the game's seed alone decides the deal.

use super::candidates::Candidates;
use super::game::{Action, Game, RuleError, Rules};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// What one random step did.
#[derive(Clone, Debug, PartialEq)]
pub enum Step {
    /// This action was applied.
    Acted(Action),
    /// No action was taken; the clock ran to the next timer, which fired.
    Waited,
    /// Nothing can happen: the game is over, or no action is legal and no timer runs.
    Stuck,
}

/// A random player for every seat.
pub struct RandomAgent {
    rng: ChaCha8Rng,
    /// The last step's candidates and order, refilled in place by the next step.
    candidates: Candidates,
    order: Vec<usize>,
}

impl RandomAgent {
    /// An agent whose choices are decided by `seed` (give the game's seed to replay a playout:
    /// the agent's generator is derived from it but separate from the game's).
    pub fn new(seed: u64) -> RandomAgent {
        RandomAgent {
            rng: ChaCha8Rng::seed_from_u64(seed ^ 0x9e37_79b9_7f4a_7c15),
            candidates: Candidates::default(),
            order: Vec::new(),
        }
    }

    /// Take one uniformly random choice among the legal actions and, when a timer runs,
    /// waiting for it. Candidates are tried in random order; the first the rules accept is
    /// uniformly distributed over the accepted ones.
    pub fn step(&mut self, game: &mut Game, rules: &dyn Rules) -> Result<Step, RuleError> {
        if game.is_over() {
            return Ok(Step::Stuck);
        }
        // Tried in a random order of their numbers (the same order as shuffling the actions
        // themselves), drawn one at a time so that a step pays only for the tries it makes; each
        // action is built only when it is tried, and the number past the candidates is waiting
        // for a timer.
        self.candidates.refill(game, None);
        let waiting = !game.state.timers.is_empty();
        self.order.clear();
        self.order
            .extend(0..self.candidates.len() + usize::from(waiting));
        for tried in 0..self.order.len() {
            let pick = self.rng.random_range(tried..self.order.len());
            self.order.swap(tried, pick);
            match self.candidates.get(self.order[tried]) {
                None => {
                    game.run_out(rules)?;
                    return Ok(Step::Waited);
                }
                Some(action) => match game.apply(rules, &action) {
                    Ok(()) => return Ok(Step::Acted(action)),
                    Err(RuleError::Refused(_)) => continue,
                    Err(fault) => return Err(fault),
                },
            }
        }
        Ok(Step::Stuck)
    }

    /// A uniformly random number in `0..n` from the agent's generator (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        self.rng.random_range(0..n.max(1))
    }
}
