//! A game state's fingerprint: 64 bits that two states share when the rules cannot tell them
//! apart, so that exploration visits each state once.
//!
//! Left out, because no rule can act on them: the absolute clock (a timer counts by the time it
//! has left), the order numbers of timers (their firing order counts), the cards' public ids and
//! their generator (names for clients), the players' names and the event log.
//!
//! Two more are left out unless asked for, each a reduction the report states:
//! - **Chance**: the position of the game's generator. Two states that differ only in it are one,
//!   and the shuffles that follow it are those of the first way found to it: a deal's chance is
//!   sampled once per state (`Chance::PerState`), which keeps a game that reshuffles forever
//!   finite. With `Chance::Exact` the position counts, and every state is the state of a game.
//! - **Symmetry**: which of two cards of one class lies where. Cards the rules cannot tell apart
//!   (the same rank and points, and suit too when the rules read suits) are one class, and a
//!   card is fingerprinted by its class, where it lies and who knows it; a variable holding a card
//!   holds the place it lies. Two states that differ by swapping such cards are one.
//!
//! A rule script that reads `game.clock` sees a difference the fingerprint does not.

use crate::kernel::{CardIdx, GameState, Loc, Table, Value};
use std::hash::{BuildHasher, Hasher};

/// Fixed keys: a fingerprint is the same on every run, so explorations and their reports repeat.
const KEYS: ahash::RandomState = ahash::RandomState::with_seeds(
    0x243f_6a88_85a3_08d3,
    0x1319_8a2e_0370_7344,
    0xa409_3822_299f_31d0,
    0x082e_fa98_ec4e_6c89,
);

/// How chance counts in a state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Chance {
    /// The generator's position is left out: a state's later shuffles are those of the first way
    /// found to it.
    PerState,
    /// The generator's position counts.
    Exact,
}

/// How the states of one deal are fingerprinted.
pub(super) struct Prints {
    /// By card index: its class (its index when there is no symmetry).
    classes: Vec<u16>,
    symmetric: bool,
    chance: Chance,
}

impl Prints {
    /// For a deal of `state`'s cards: with `symmetric`, cards of the same rank and points (and
    /// suit, with `suits`) are one class.
    pub(super) fn new(
        state: &GameState,
        table: &Table,
        symmetric: bool,
        suits: bool,
        chance: Chance,
    ) -> Prints {
        let classes = match symmetric {
            false => (0..state.cards.len())
                .map(|i| u16::try_from(i).unwrap_or(u16::MAX))
                .collect(),
            true => {
                let mut kinds: Vec<(u8, Option<u8>, i64)> = Vec::new();
                state
                    .cards
                    .iter()
                    .map(|c| {
                        let suit = c.face.suit.filter(|_| suits).map(|s| s as u8);
                        let kind = (c.face.rank.0, suit, table.points_of(c.face));
                        let i = kinds.iter().position(|k| *k == kind).unwrap_or_else(|| {
                            kinds.push(kind);
                            kinds.len() - 1
                        });
                        u16::try_from(i).unwrap_or(u16::MAX)
                    })
                    .collect()
            }
        };
        Prints {
            classes,
            symmetric,
            chance,
        }
    }

    /// How many classes the cards fall into.
    pub(super) fn class_count(&self) -> usize {
        let mut seen: Vec<u16> = self.classes.clone();
        seen.sort_unstable();
        seen.dedup();
        seen.len()
    }

    /// The state's fingerprint.
    pub(super) fn of(&self, state: &GameState) -> u64 {
        let mut h = KEYS.build_hasher();
        let card = |h: &mut ahash::AHasher, c: CardIdx| {
            let i = c.0 as usize;
            let st = &state.cards[i];
            h.write_u16(self.classes[i]);
            h.write_u32(st.known_by);
            h.write_u8(u8::from(st.face_up));
        };
        // Every card lies in one place: the hands and piles, in their order, hold them all.
        h.write_usize(state.hands.len());
        for hand in &state.hands {
            h.write_usize(hand.len());
            for slot in hand {
                match slot {
                    Some(c) => card(&mut h, *c),
                    None => h.write_u16(u16::MAX),
                }
            }
        }
        h.write_usize(state.piles.len());
        for pile in &state.piles {
            h.write_usize(pile.len());
            for &c in pile {
                card(&mut h, c);
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
        if self.chance == Chance::Exact {
            h.write_u128(state.rng.get_word_pos());
        }
        for value in state.game_vars.iter() {
            self.value(&mut h, state, value);
        }
        for vars in &state.player_vars {
            for value in vars.iter() {
                self.value(&mut h, state, value);
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

    fn value(&self, h: &mut impl Hasher, state: &GameState, value: &Value) {
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
                match state.cards.get(c.0 as usize).filter(|_| self.symmetric) {
                    // The place it lies, which says which card it is among its class.
                    Some(card) => match card.loc {
                        Loc::Hand { seat, slot } => {
                            h.write_u8(seat.0);
                            h.write_u16(slot);
                        }
                        Loc::Pile(pile) => {
                            h.write_u8(u8::MAX);
                            h.write_u16(pile.0);
                            let at = state.piles[pile.0 as usize].iter().position(|&x| x == *c);
                            h.write_usize(at.unwrap_or(usize::MAX));
                        }
                    },
                    None => h.write_u16(c.0),
                }
            }
            Value::Player(p) => {
                h.write_u8(6);
                h.write_u8(p.0);
            }
            Value::List(items) => {
                h.write_u8(7);
                h.write_usize(items.len());
                for item in items {
                    self.value(h, state, item);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Chance, Prints};
    use crate::kernel::{CardIdx, Game, Loc, Timer, Value};

    fn game(variant: &str) -> Game {
        let variant = crate::script::Variant::load_named(std::path::Path::new("rules"), variant)
            .expect("the variant loads");
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

    fn prints(game: &Game, symmetric: bool, chance: Chance) -> Prints {
        Prints::new(&game.state, &game.table, symmetric, false, chance)
    }

    #[test]
    fn the_clock_counts_only_as_the_time_timers_have_left() {
        let game = game("recall");
        let prints = prints(&game, true, Chance::PerState);
        let mut later = game.state.clone();
        later.clock += 5_000;
        for t in &mut later.timers {
            t.deadline += 5_000;
            t.seq += 3;
        }
        assert!(!game.state.timers.is_empty(), "recall's deal sets a timer");
        assert_eq!(prints.of(&game.state), prints.of(&later));
        let mut sooner = game.state.clone();
        sooner.clock += 1;
        assert_ne!(prints.of(&game.state), prints.of(&sooner));
    }

    #[test]
    fn public_ids_and_names_do_not_count_but_places_and_knowledge_do() {
        let game = game("recall");
        let prints = prints(&game, false, Chance::PerState);
        let mut renamed = game.state.clone();
        for card in &mut renamed.cards {
            card.public_id ^= 0x55;
        }
        renamed.players = std::sync::Arc::new(vec!["x".into(), "y".into()]);
        assert_eq!(prints.of(&game.state), prints.of(&renamed));
        let mut known = game.state.clone();
        known.cards[0].known_by ^= 1;
        assert_ne!(prints.of(&game.state), prints.of(&known));
        let mut swapped = game.state.clone();
        swapped.hands[0].swap(0, 1);
        assert_ne!(prints.of(&game.state), prints.of(&swapped));
        let mut timer = game.state.clone();
        timer.timers.push(Timer {
            name: "draw".into(),
            deadline: timer.clock + 10,
            seat: None,
            seq: 99,
        });
        assert_ne!(prints.of(&game.state), prints.of(&timer));
    }

    #[test]
    fn the_generator_counts_only_when_chance_is_exact() {
        let game = game("cambia");
        let mut drawn = game.state.clone();
        drawn.random_below(10);
        let sampled = prints(&game, true, Chance::PerState);
        assert_eq!(sampled.of(&game.state), sampled.of(&drawn));
        let exact = prints(&game, true, Chance::Exact);
        assert_ne!(exact.of(&game.state), exact.of(&drawn));
    }

    /// Two cards of one class (rank and points: 7S and 7C in Cambia, suits unread) trade places
    /// and what is known of them: with symmetry one state, without it two. A variable that holds
    /// one of them holds the place it lies, so it follows the swap.
    #[test]
    fn cards_of_one_class_trading_places_are_one_state_with_symmetry() {
        let game = game("cambia");
        let st = &game.state;
        let find = |face: &str| {
            let face = face.parse().expect("a face");
            CardIdx(
                st.cards
                    .iter()
                    .position(|c| c.face == face)
                    .expect("in the deck") as u16,
            )
        };
        let (a, b) = (find("7S"), find("7C"));
        let mut one = st.clone();
        let mut other = st.clone();
        // In `other`, 7S and 7C have changed places (and their knowledge with them).
        let place = |s: &mut crate::kernel::GameState, x: CardIdx, y: CardIdx| {
            let (lx, ly) = (s.cards[x.0 as usize].loc, s.cards[y.0 as usize].loc);
            let swap_in = |s: &mut crate::kernel::GameState, from: CardIdx, to: CardIdx| {
                for hand in &mut s.hands {
                    for slot in hand.iter_mut() {
                        if *slot == Some(from) {
                            *slot = Some(to);
                        }
                    }
                }
                for pile in &mut s.piles {
                    for c in pile.iter_mut() {
                        if *c == from {
                            *c = to;
                        }
                    }
                }
            };
            let marker = CardIdx(u16::MAX);
            swap_in(s, x, marker);
            swap_in(s, y, x);
            swap_in(s, marker, y);
            s.cards[x.0 as usize].loc = ly;
            s.cards[y.0 as usize].loc = lx;
            let (kx, ky) = (
                s.cards[x.0 as usize].known_by,
                s.cards[y.0 as usize].known_by,
            );
            s.cards[x.0 as usize].known_by = ky;
            s.cards[y.0 as usize].known_by = kx;
        };
        place(&mut other, a, b);
        let drawn = game.table.game_var("drawn").expect("cambia has drawn");
        std::sync::Arc::make_mut(&mut one.game_vars)[drawn] = Value::Card(a);
        std::sync::Arc::make_mut(&mut other.game_vars)[drawn] = Value::Card(b);
        assert!(matches!(
            other.cards[b.0 as usize].loc,
            Loc::Hand { .. } | Loc::Pile(_)
        ));
        let symmetric = prints(&game, true, Chance::PerState);
        assert_eq!(symmetric.of(&one), symmetric.of(&other));
        let plain = prints(&game, false, Chance::PerState);
        assert_ne!(plain.of(&one), plain.of(&other));
        // The variable naming the other card of the pair is another state.
        std::sync::Arc::make_mut(&mut other.game_vars)[drawn] = Value::Card(a);
        assert_ne!(symmetric.of(&one), symmetric.of(&other));
    }
}
