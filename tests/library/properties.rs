//! Property tests over seeded random playouts of every variant under `rules/`: conservation of
//! cards, liveness, bounded length, deterministic replay, no leaked faces, atomic refusals; each
//! variant on both script engines.

use deckspec::kernel::event::public_id_text;
use deckspec::kernel::playout::{RandomAgent, Step};
use deckspec::kernel::{Game, RuleError, Seat};
use deckspec::script::{EngineKind, Variant, variant_names};
use proptest::prelude::*;
use serde_json::Value as Json;
use std::path::Path;
use std::sync::{Arc, OnceLock};

/// Steps after which a random game counts as endless.
const MAX_STEPS: usize = 20_000;

fn variants() -> &'static Vec<Arc<Variant>> {
    static VARIANTS: OnceLock<Vec<Arc<Variant>>> = OnceLock::new();
    VARIANTS.get_or_init(|| {
        let rules = Path::new(env!("CARGO_MANIFEST_DIR")).join("rules");
        let names = variant_names(&rules);
        [EngineKind::Compiled, EngineKind::Interpreted]
            .into_iter()
            .flat_map(|engine| names.iter().map(move |n| (engine, n)))
            .map(|(engine, n)| {
                let mut v =
                    Variant::load_named(&rules, n).unwrap_or_else(|e| panic!("{}", e.short()));
                v.set_engine(engine);
                Arc::new(v)
            })
            .collect()
    })
}

fn new_game(v: &Variant, seed: u64, players: usize) -> Game {
    let names = (0..players).map(|i| format!("p{i}")).collect();
    let mut game = Game::new(v.table().clone(), names, seed, &[]).expect("a valid game");
    game.start(v).unwrap_or_else(|e| panic!("setup: {e}"));
    game
}

fn snapshot(game: &Game) -> String {
    serde_json::to_string(&game.save()).expect("a game serializes")
}

/// Every card rendered with a face to a player is one that player knows, and shows its real face.
fn assert_no_leak(game: &Game, seat: Seat, json: &Json, context: &str) {
    match json {
        Json::Object(map) => {
            if let (Some(Json::String(id)), Some(rank)) = (map.get("id"), map.get("rank")) {
                let card = game
                    .state
                    .cards
                    .iter()
                    .position(|c| public_id_text(c.public_id) == *id);
                // A card whose id changed since (reshuffled) can no longer be checked against now.
                if let Some(card) = card {
                    let c = &game.state.cards[card];
                    assert!(
                        c.known_by & seat.bit() != 0,
                        "{context}: seat {} was shown card {id} without knowing it: {json}",
                        seat.0
                    );
                    assert_eq!(
                        rank.as_str(),
                        Some(c.face.rank.name()),
                        "{context}: wrong face shown"
                    );
                }
            }
            map.values()
                .for_each(|v| assert_no_leak(game, seat, v, context));
        }
        Json::Array(items) => items
            .iter()
            .for_each(|v| assert_no_leak(game, seat, v, context)),
        _ => {}
    }
}

#[derive(Clone, Debug)]
enum Move {
    Act(deckspec::kernel::Action),
    Wait,
}

/// Play one random game, checking the properties at every step; returns the moves made.
fn playout(v: &Variant, seed: u64, players: usize, check_legal: bool) -> (Vec<Move>, Game) {
    let mut game = new_game(v, seed, players);
    let mut agent = RandomAgent::new(seed);
    let mut moves = Vec::new();
    game.state.check_conservation().unwrap();
    for step in 0.. {
        assert!(
            step < MAX_STEPS,
            "{}: seed {seed}: no end after {MAX_STEPS} steps",
            v.name
        );
        if game.is_over() {
            break;
        }
        if check_legal {
            let legal = game.legal_actions(v);
            assert!(
                !legal.is_empty() || !game.state.timers.is_empty(),
                "{}: seed {seed}, step {step}: nobody can act and no timer runs",
                v.name
            );
        }
        // A refused candidate leaves the game byte-identical.
        let candidates = game.candidates();
        // The numbered set builds the same actions, and a seat's set is its share of them.
        let set = game.candidate_set(None);
        assert_eq!(set.len(), candidates.len());
        assert!(set.get(set.len()).is_none());
        for s in 0..players {
            let seat = Seat(s as u8);
            let mine: Vec<_> = candidates
                .iter()
                .filter(|a| a.seat == seat)
                .cloned()
                .collect();
            assert_eq!(
                game.candidate_set(Some(seat)).to_vec(),
                mine,
                "{}: seat {s}",
                v.name
            );
        }
        if !candidates.is_empty() {
            let probe = &candidates[agent.below(candidates.len())];
            let before = snapshot(&game);
            let mut copy = game.clone();
            match copy.apply(v, probe) {
                Err(RuleError::Refused(_)) => assert_eq!(
                    before,
                    snapshot(&copy),
                    "{}: a refusal changed the game",
                    v.name
                ),
                Err(fault) => panic!("{}: seed {seed}: script fault: {fault:?}", v.name),
                Ok(()) => {}
            }
        }
        let mark = game.event_count();
        match agent.step(&mut game, v) {
            Ok(Step::Acted(a)) => moves.push(Move::Act(a)),
            Ok(Step::Waited) => moves.push(Move::Wait),
            Ok(Step::Stuck) => panic!("{}: seed {seed}, step {step}: stuck before the end", v.name),
            Err(e) => panic!("{}: seed {seed}, step {step}: {e:?}", v.name),
        }
        game.state
            .check_conservation()
            .unwrap_or_else(|e| panic!("{}: seed {seed}: {e}", v.name));
        for s in 0..players {
            let seat = Seat(s as u8);
            for event in game.rendered_events(seat, mark) {
                assert_no_leak(&game, seat, &event, "event");
            }
            assert_no_leak(&game, seat, &game.view(seat).to_json(), "view");
        }
    }
    (moves, game)
}

fn replay(v: &Variant, seed: u64, players: usize, moves: &[Move]) -> Game {
    let mut game = new_game(v, seed, players);
    for m in moves {
        match m {
            Move::Act(a) => game.apply(v, a).expect("a replayed action applies"),
            Move::Wait => {
                game.run_out(v).expect("a replayed timer fires");
            }
        }
    }
    game
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn random_playouts_keep_the_invariants(variant in 0usize..16, seed in any::<u64>(), players in 2usize..=4) {
        let all = variants();
        let v = &all[variant % all.len()];
        let (moves, game) = playout(v, seed, players, true);
        // Same seed, same actions: the same events and state, byte for byte.
        let again = replay(v, seed, players, &moves);
        prop_assert_eq!(snapshot(&game), snapshot(&again));
        // And a saved game restores to the same thing.
        let restored = Game::restore(v.table().clone(), game.save()).unwrap();
        prop_assert_eq!(snapshot(&game), snapshot(&restored));
    }
}

/// Seeded games of every variant on both engines end: 40 seeds each in CI, 10 at a developer's
/// size (the same first seeds).
#[test]
fn many_quick_playouts_end() {
    let seeds = crate::size::by_size(10, 40);
    for v in variants() {
        for seed in 0..seeds {
            playout(v, seed, 4, false);
        }
    }
}
