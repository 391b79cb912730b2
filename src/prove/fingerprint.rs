//! A game state's fingerprint: 64 bits that two states share when the rules cannot tell them
//! apart, so that exploration visits each state once.
//!
//! Left out, because no rule can act on them: the absolute clock (a timer counts by the time it
//! has left), the order numbers of timers (their firing order counts), the cards' public ids and
//! their generator (names for clients), the players' names and the event log. The game's own
//! generator counts by its position, so two states whose next shuffle differs stay apart. A rule
//! script that reads `game.clock` sees a difference the fingerprint does not: `prove` says so
//! when a variant's rules read it (`reads_clock`).

use crate::kernel::{GameState, Value};
use rand_chacha::ChaCha8Rng;
use std::hash::{BuildHasher, Hasher};

/// Fixed keys: a fingerprint is the same on every run, so explorations and their reports repeat.
const KEYS: ahash::RandomState = ahash::RandomState::with_seeds(
    0x243f_6a88_85a3_08d3,
    0x1319_8a2e_0370_7344,
    0xa409_3822_299f_31d0,
    0x082e_fa98_ec4e_6c89,
);

/// The state's fingerprint.
pub(super) fn fingerprint(state: &GameState) -> u64 {
    let mut h = KEYS.build_hasher();
    for card in &state.cards {
        h.write_u32(card.known_by);
        h.write_u8(u8::from(card.face_up));
    }
    // Where each card lies follows from the hands and piles, in their order.
    h.write_usize(state.hands.len());
    for hand in &state.hands {
        h.write_usize(hand.len());
        for slot in hand {
            h.write_u32(slot.map_or(u32::MAX, |c| u32::from(c.0)));
        }
    }
    h.write_usize(state.piles.len());
    for pile in &state.piles {
        h.write_usize(pile.len());
        for card in pile {
            h.write_u16(card.0);
        }
    }
    h.write_u16(state.phase.0);
    h.write_u16(state.current.map_or(u16::MAX, |s| u16::from(s.0)));
    // Timers in the order they fire, each by the time it has left.
    let mut timers: Vec<_> = state.timers.iter().collect();
    timers.sort_by_key(|t| (t.deadline, t.seq));
    h.write_usize(timers.len());
    for t in timers {
        h.write(t.name.as_bytes());
        h.write_u64(t.deadline.saturating_sub(state.clock));
        h.write_u16(t.seat.map_or(u16::MAX, |s| u16::from(s.0)));
    }
    h.write_u128(generator_position(&state.rng));
    for value in state.game_vars.iter() {
        hash_value(&mut h, value);
    }
    for vars in &state.player_vars {
        for value in vars.iter() {
            hash_value(&mut h, value);
        }
    }
    match &state.outcome {
        None => h.write_u8(0),
        Some(outcome) => {
            h.write_u8(1);
            for w in &outcome.winners {
                h.write_u8(w.0);
            }
            h.write(outcome.reason.as_bytes());
        }
    }
    h.write_u8(u8::from(state.turns_started));
    h.finish()
}

/// How far the game's generator has gone (its seed is the game's throughout).
fn generator_position(rng: &ChaCha8Rng) -> u128 {
    rng.get_word_pos()
}

fn hash_value(h: &mut impl Hasher, value: &Value) {
    match value {
        Value::Unit => h.write_u8(0),
        Value::Bool(b) => {
            h.write_u8(1);
            h.write_u8(u8::from(*b));
        }
        Value::Int(n) => {
            h.write_u8(2);
            h.write_i64(*n);
        }
        Value::Float(x) => {
            h.write_u8(3);
            h.write_u64(x.to_bits());
        }
        Value::Str(s) => {
            h.write_u8(4);
            h.write_usize(s.len());
            h.write(s.as_bytes());
        }
        Value::Card(c) => {
            h.write_u8(5);
            h.write_u16(c.0);
        }
        Value::Player(p) => {
            h.write_u8(6);
            h.write_u8(p.0);
        }
        Value::List(items) => {
            h.write_u8(7);
            h.write_usize(items.len());
            for item in items {
                hash_value(h, item);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::fingerprint;
    use crate::kernel::{Game, Timer};

    fn game() -> Game {
        let variant = crate::script::Variant::load_named(std::path::Path::new("rules"), "recall")
            .expect("recall loads");
        let mut game = Game::new(
            variant.table().clone(),
            vec!["a".into(), "b".into()],
            7,
            &[],
        )
        .expect("a game");
        game.start(&variant).expect("the deal");
        game
    }

    #[test]
    fn the_clock_counts_only_as_the_time_timers_have_left() {
        let game = game();
        let mut later = game.state.clone();
        later.clock += 5_000;
        for t in &mut later.timers {
            t.deadline += 5_000;
            t.seq += 3;
        }
        assert!(!game.state.timers.is_empty(), "recall's deal sets a timer");
        assert_eq!(fingerprint(&game.state), fingerprint(&later));
        let mut sooner = game.state.clone();
        sooner.clock += 1;
        assert_ne!(fingerprint(&game.state), fingerprint(&sooner));
    }

    #[test]
    fn public_ids_and_names_do_not_count_but_places_and_knowledge_do() {
        let game = game();
        let mut renamed = game.state.clone();
        for card in &mut renamed.cards {
            card.public_id ^= 0x55;
        }
        renamed.players = std::sync::Arc::new(vec!["x".into(), "y".into()]);
        assert_eq!(fingerprint(&game.state), fingerprint(&renamed));
        let mut known = game.state.clone();
        known.cards[0].known_by ^= 1;
        assert_ne!(fingerprint(&game.state), fingerprint(&known));
        let mut swapped = game.state.clone();
        swapped.hands[0].swap(0, 1);
        assert_ne!(fingerprint(&game.state), fingerprint(&swapped));
        let mut timer = game.state.clone();
        timer.timers.push(Timer {
            name: "draw".into(),
            deadline: timer.clock + 10,
            seat: None,
            seq: 99,
        });
        assert_ne!(fingerprint(&game.state), fingerprint(&timer));
    }
}
