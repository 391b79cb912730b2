//! `--verify` against a broken kernel or host: each way it could misbehave, injected around a
//! real variant's rules, is caught (here, not in `verify.rs`, because it plays through `play.rs`,
//! which itself uses the verifier).

use super::SimError;
use super::play::random_game;
use crate::kernel::{Action, Game, RuleError, Rules, Seat, Table, Timer};
use crate::kernel::{Audience, CardIdx, CardRef, EventRecord, Payload};
use crate::script::Variant;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// Ways a broken kernel or host could misbehave, injected around a real variant's rules.
#[derive(Clone, Copy, PartialEq)]
enum Fault {
    None,
    /// Once the game has 30 events, two hand slots swap without their cards learning it.
    MisplaceCards,
    /// A refused action renumbers the event log (a change `transact` does not undo).
    RefusalForgets,
    /// Once the game has 30 events, an event shows every card of seat 1's hand to everyone.
    ShowHand,
    /// Every action emits an event counting actions across games: not from the seed.
    Counter,
}

struct Faulty {
    inner: Variant,
    fault: Fault,
    acts: AtomicU64,
}

impl Rules for Faulty {
    fn table(&self) -> &Arc<Table> {
        self.inner.table()
    }
    fn setup(&self, game: &mut Game) -> Result<(), RuleError> {
        self.inner.setup(game)
    }
    fn end_setup(&self, game: &mut Game, first: Seat) -> Result<(), RuleError> {
        self.inner.end_setup(game, first)
    }
    fn start_turn(&self, game: &mut Game, seat: Seat) -> Result<(), RuleError> {
        self.inner.start_turn(game, seat)
    }
    fn act(&self, game: &mut Game, action: &Action) -> Result<(), RuleError> {
        let result = self.inner.act(game, action);
        if result.is_err() {
            if self.fault == Fault::RefusalForgets {
                game.log_start += 1;
            }
            return result;
        }
        let n = self.acts.fetch_add(1, Ordering::SeqCst);
        let late = game.event_count() >= 30;
        match self.fault {
            Fault::MisplaceCards if late => game.state.hands[0].swap(0, 1),
            Fault::ShowHand if late => {
                let cards: Vec<CardIdx> = game.state.hands[1].iter().flatten().copied().collect();
                let payload = Payload::List(
                    cards
                        .iter()
                        .map(|&card| {
                            Payload::Card(Box::new(CardRef {
                                card,
                                public_id: game.state.cards[card.0 as usize].public_id,
                                shown_to: u32::MAX,
                                extra: Vec::new(),
                            }))
                        })
                        .collect(),
                );
                game.log.push(EventRecord {
                    name: "shown".into(),
                    to: Audience::Everyone,
                    time: game.state.clock,
                    payload,
                });
            }
            Fault::Counter => {
                game.emit("count".into(), Audience::Everyone, Payload::Int(n as i64))
                    .expect("one small event fits a step's budget");
            }
            _ => {}
        }
        result
    }
    fn timer(&self, game: &mut Game, timer: &Timer) -> Result<(), RuleError> {
        self.inner.timer(game, timer)
    }
    fn score(&self, game: &mut Game, seat: Seat) -> Result<i64, RuleError> {
        self.inner.score(game, seat)
    }
}

/// A verified random 3-player game of Cambia under the fault; the failure message, if any.
fn verified(fault: Fault, seed: u64) -> Option<String> {
    let rules = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("rules");
    let faulty = Faulty {
        inner: Variant::load_named(&rules, "cambia").unwrap(),
        fault,
        acts: AtomicU64::new(0),
    };
    let result = crate::sim::on_script_thread(|| {
        random_game(&faulty, 3, seed, &[], true, true, crate::sim::Limit::Fail)
    });
    match result.unwrap() {
        Ok(_) => None,
        Err(SimError::Verify { seed: s, what }) => {
            assert_eq!(s, seed);
            Some(what)
        }
        Err(other) => panic!("not a verification failure: {other}"),
    }
}

#[test]
fn a_correct_game_passes() {
    for seed in 0..3 {
        assert_eq!(verified(Fault::None, seed), None);
    }
}

#[test]
fn each_broken_invariant_is_found() {
    let found = verified(Fault::MisplaceCards, 1).unwrap();
    assert!(found.contains(": cards not conserved: card#"), "{found}");
    // Refusals are rare in random Cambia: the first game with one shows it.
    let found = (0..20)
        .find_map(|seed| verified(Fault::RefusalForgets, seed))
        .unwrap();
    assert!(found.contains(") changed the saved game"), "{found}");
    let found = verified(Fault::ShowHand, 1).unwrap();
    assert!(
        found.contains("event `shown` for p0 shows card ")
            && found.contains(", which p0 did not know before the step and does not know after it"),
        "{found}"
    );
    let found = verified(Fault::Counter, 1).unwrap();
    assert!(
        found.starts_with("replay: the same seed and the same ")
            && found.contains("do not give the same game: event "),
        "{found}"
    );
}
