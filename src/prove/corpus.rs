//! The walks' corpus: the paths that first reached something new (a phase with a new spread of
//! hand sizes, an event sent in a phase for the first time, a variable twice as big as it had
//! been, an end of a new kind), for later walks to start from, as a coverage-guided fuzzer keeps
//! its inputs. A rare situation (a player down to one card in
//! a matching stage) is then reached again and again, and what is rarer still follows from it.

use super::space::Move;
use crate::kernel::Game;
use rand::RngExt;
use rand_chacha::ChaCha8Rng;
use std::collections::HashSet;
use std::hash::{BuildHasher, Hasher};

/// The most paths a corpus keeps (a new one then takes a random one's place).
const MAX_PATHS: usize = 256;
/// How many of the newest paths count as new.
const NEWEST: usize = 16;

/// What explored games have shown so far, as hashed features: a phase with a spread of hand
/// sizes, an event sent in a phase, a variable's size by powers of two, an end's reason.
#[derive(Default)]
pub(super) struct Features {
    seen: HashSet<u64, ahash::RandomState>,
}

impl Features {
    /// Note what `game` shows, with the events it just `sent`: whether any of it is new.
    pub(super) fn novel(&mut self, game: &Game, sent: &[usize]) -> bool {
        let mut hands: Vec<usize> = game
            .state
            .hands
            .iter()
            .map(|h| h.iter().flatten().count())
            .collect();
        hands.sort_unstable();
        let keys = ahash::RandomState::with_seeds(1, 2, 3, 4);
        let mut h = keys.build_hasher();
        h.write_u16(game.state.phase.0);
        for n in &hands {
            h.write_usize(*n);
        }
        let mut new = self.seen.insert(h.finish());
        // Each variable's size, by powers of two: a walk that grew one further than any before
        // is kept, so that growth without bound is followed.
        let vars = game
            .state
            .game_vars
            .iter()
            .chain(game.state.player_vars.iter().flat_map(|v| v.iter()));
        for (i, value) in vars.enumerate() {
            let mut h = keys.build_hasher();
            h.write_usize(i);
            h.write_u32(super::measure::size(value).ilog2());
            new |= self.seen.insert(h.finish());
        }
        for &event in sent {
            let mut h = keys.build_hasher();
            h.write_u16(game.state.phase.0);
            h.write_usize(event);
            new |= self.seen.insert(h.finish());
        }
        if let Some(outcome) = &game.state.outcome {
            let mut h = keys.build_hasher();
            h.write(outcome.reason.as_bytes());
            h.write_usize(outcome.winners.len());
            new |= self.seen.insert(h.finish());
        }
        new
    }
}

/// The paths that first showed a new feature, for walks to start from.
#[derive(Default)]
pub(super) struct Corpus {
    features: Features,
    paths: Vec<Vec<Move>>,
}

impl Corpus {
    /// Note what `game` shows after `path`, with the events it just `sent`: a path that shows
    /// something new is kept.
    pub(super) fn note(
        &mut self,
        game: &Game,
        sent: &[usize],
        path: &[Move],
        rng: &mut ChaCha8Rng,
    ) {
        if !self.features.novel(game, sent) || path.is_empty() {
            return;
        }
        if self.paths.len() == MAX_PATHS {
            let i = rng.random_range(0..self.paths.len() - NEWEST);
            self.paths.remove(i);
        }
        self.paths.push(path.to_vec());
    }

    /// The paths kept, oldest first.
    pub(super) fn paths(&self) -> &[Vec<Move>] {
        &self.paths
    }

    /// A path to start a walk from: none (the deal) a quarter of the time, else a kept one, the
    /// newest ones as often as all the others (what was found last leads on furthest).
    pub(super) fn start(&self, rng: &mut ChaCha8Rng) -> Option<&[Move]> {
        if self.paths.is_empty() || rng.random_bool(0.25) {
            return None;
        }
        let n = self.paths.len();
        let from = match rng.random_bool(0.5) {
            true => n.saturating_sub(NEWEST),
            false => 0,
        };
        Some(&self.paths[rng.random_range(from..n)])
    }
}
