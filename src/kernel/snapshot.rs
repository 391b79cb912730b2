//! Copies of a game state that reuse memory: `GameState`'s `clone_from` copies into the
//! target's own vectors and strings, and each thread keeps a few spare states for the copies
//! every checked step and every trial make, so a step allocates only when a state outgrows them.

use super::state::GameState;
use std::cell::RefCell;
use std::sync::Arc;

impl Clone for GameState {
    fn clone(&self) -> Self {
        GameState {
            players: self.players.clone(),
            cards: self.cards.clone(),
            hands: self.hands.clone(),
            piles: self.piles.clone(),
            phase: self.phase,
            current: self.current,
            clock: self.clock,
            timers: self.timers.clone(),
            timer_seq: self.timer_seq,
            rng: self.rng.clone(),
            id_rng: self.id_rng.clone(),
            max_hand_slots: self.max_hand_slots,
            house: self.house.clone(),
            game_vars: self.game_vars.clone(),
            player_vars: self.player_vars.clone(),
            outcome: self.outcome.clone(),
            turns_started: self.turns_started,
        }
    }

    fn clone_from(&mut self, source: &Self) {
        // Every field by name: a new field does not compile until it is copied here too.
        let GameState {
            players,
            cards,
            hands,
            piles,
            phase,
            current,
            clock,
            timers,
            timer_seq,
            rng,
            id_rng,
            max_hand_slots,
            house,
            game_vars,
            player_vars,
            outcome,
            turns_started,
        } = source;
        // Fixed for the game: shared, and the same ones when copying back within a game.
        if !Arc::ptr_eq(&self.players, players) {
            self.players.clone_from(players);
        }
        self.cards.clone_from(cards);
        self.hands.clone_from(hands);
        self.piles.clone_from(piles);
        self.phase = *phase;
        self.current = *current;
        self.clock = *clock;
        self.timers.clone_from(timers);
        self.timer_seq = *timer_seq;
        // Shared until a step draws from one.
        self.rng.clone_from(rng);
        self.id_rng.clone_from(id_rng);
        self.max_hand_slots = *max_hand_slots;
        if !Arc::ptr_eq(&self.house, house) {
            self.house.clone_from(house);
        }
        if !Arc::ptr_eq(&self.game_vars, game_vars) {
            self.game_vars.clone_from(game_vars);
        }
        // Shared with the source until either changes them: only changed ones are re-pointed.
        self.player_vars.truncate(player_vars.len());
        let kept = self.player_vars.len();
        for (to, from) in self.player_vars.iter_mut().zip(player_vars) {
            if !Arc::ptr_eq(to, from) {
                to.clone_from(from);
            }
        }
        self.player_vars.extend(player_vars[kept..].iter().cloned());
        self.outcome.clone_from(outcome);
        self.turns_started = *turns_started;
    }
}

/// Spare states a thread keeps: a step's copy, a trial's, and the copies trials make.
const SPARES: usize = 4;

thread_local! {
    /// Boxed, so that a step's copy moves as a pointer (a state is several hundred bytes, most
    /// of it the generators' buffers).
    #[allow(clippy::vec_box)]
    static SPARE_STATES: RefCell<Vec<Box<GameState>>> = const { RefCell::new(Vec::new()) };
}

/// A boxed copy of `state`, made in a spare's memory when the thread has one.
pub(super) fn boxed_copy_of(state: &GameState) -> Box<GameState> {
    let spare = SPARE_STATES
        .try_with(|spares| spares.borrow_mut().pop())
        .ok()
        .flatten();
    match spare {
        Some(mut copy) => {
            (*copy).clone_from(state);
            copy
        }
        None => Box::new(state.clone()),
    }
}

/// A copy of `state`, made in a spare's memory when the thread has one.
pub(super) fn copy_of(state: &GameState) -> GameState {
    *boxed_copy_of(state)
}

/// Keep a boxed state no longer needed as a spare for the next copy (or drop it when the thread
/// has enough).
pub(super) fn recycle_boxed(state: Box<GameState>) {
    let _ = SPARE_STATES.try_with(|spares| {
        let mut spares = spares.borrow_mut();
        if spares.len() < SPARES {
            spares.push(state);
        }
    });
}

/// Keep a state no longer needed as a spare for the next copy.
pub(super) fn recycle(state: GameState) {
    recycle_boxed(Box::new(state));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::{CardIdx, Game, Outcome, Seat, Table, Timer, Value};

    fn state(seed: u64, players: usize) -> GameState {
        let names = (0..players).map(|i| format!("p{i}")).collect();
        Game::new(std::sync::Arc::new(Table::default()), names, seed, &[])
            .unwrap()
            .state
    }

    #[test]
    fn clone_from_copies_every_field_into_any_shape() {
        let mut source = state(7, 3);
        source.current = Some(Seat(1));
        source.clock = 1234;
        source.turns_started = true;
        source.hands[2] = vec![Some(CardIdx(0)), None, Some(CardIdx(1))];
        source.piles = vec![vec![CardIdx(3), CardIdx(4)], vec![]];
        source.game_vars = Arc::new(vec![
            Value::Str("a string".into()),
            Value::List(vec![Value::Int(3)]),
        ]);
        source.player_vars = (0..3).map(|_| Arc::new(vec![Value::Bool(true)])).collect();
        source.timers = vec![Timer {
            name: "turn".into(),
            deadline: 5000,
            seat: Some(Seat(0)),
            seq: 4,
        }];
        source.outcome = Some(Outcome {
            winners: vec![Seat(2)],
            reason: "over".into(),
        });
        // Into a bigger state, a smaller one, and a copy of itself.
        for mut target in [state(99, 5), state(1, 1), source.clone()] {
            target.clone_from(&source);
            assert_eq!(target, source);
        }
    }

    #[test]
    fn player_variables_and_house_rules_are_shared_until_changed() {
        let source = state(5, 3);
        let mut copy = copy_of(&source);
        assert!(Arc::ptr_eq(&copy.house, &source.house));
        assert!(Arc::ptr_eq(&copy.player_vars[1], &source.player_vars[1]));
        // A change is the copy's own (as `pset` makes it)…
        Arc::make_mut(&mut copy.player_vars[1]).push(Value::Int(7));
        assert_eq!(copy.player_vars[1].as_slice(), &[Value::Int(7)]);
        assert!(source.player_vars[1].is_empty());
        // …and copying back shares the source's values again.
        copy.clone_from(&source);
        assert_eq!(copy, source);
        assert!(Arc::ptr_eq(&copy.player_vars[1], &source.player_vars[1]));
    }

    #[test]
    fn copies_reuse_spares_and_stay_equal() {
        let (a, b) = (state(1, 2), state(2, 4));
        let copy = copy_of(&a);
        assert_eq!(copy, a);
        recycle(copy);
        let copy = copy_of(&b);
        assert_eq!(copy, b);
        for _ in 0..2 * SPARES {
            recycle(state(3, 2));
        }
        assert!(SPARE_STATES.with(|s| s.borrow().len()) <= SPARES);
    }
}
