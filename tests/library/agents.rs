//! Games for agents (`deckspec::agents`), the model the Python package stands on: the action
//! numbers round-trip, every variant plays to an end with a seat always asked and able to
//! choose, a game replays from its steps, observations show only known faces, and a game
//! played this way is a scenario the spec runner passes.

use deckspec::agents::{Config, Env, PASS};
use deckspec::kernel::Seat;
use deckspec::scenarios::ScriptProvider;
use deckspec::script::{Variant, variant_names};
use deckspec::spec::suite::{Filter, Totals, run_file};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::path::Path;
use std::sync::Arc;

fn rules() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/rules"))
}

/// Every bundled variant with two player counts it allows.
fn variants() -> Vec<(Arc<Variant>, usize)> {
    variant_names(rules())
        .into_iter()
        .flat_map(|name| {
            let variant = Arc::new(Variant::load_named(rules(), &name).expect("loads"));
            let range = variant.table().players;
            let mut counts = vec![range.min, 4.clamp(range.min, range.max)];
            counts.dedup();
            counts.into_iter().map(move |p| (variant.clone(), p))
        })
        .collect()
}

/// Play random legal numbers until the end, checking the model at every step.
fn play(variant: &Arc<Variant>, players: usize, seed: u64) -> Env {
    let mut config = Config::seats(players, seed);
    config.max_steps = 4000;
    let mut env = Env::new(variant.clone(), config).expect("deals");
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut mask = vec![0u8; env.space().len()];
    while let Some(seat) = env.agent() {
        let legal = env.legal();
        assert!(
            !legal.is_empty(),
            "{}: seat {} asked with nothing to do",
            variant.name,
            seat.0
        );
        assert!(
            legal.windows(2).all(|w| w[0] < w[1]),
            "legal numbers are sorted"
        );
        env.write_mask(seat, &mut mask);
        assert_eq!(
            mask.iter()
                .enumerate()
                .filter(|(_, m)| **m == 1)
                .map(|(i, _)| i)
                .collect::<Vec<_>>(),
            legal
        );
        for other in (0..players).map(|s| Seat(s as u8)).filter(|s| *s != seat) {
            env.write_mask(other, &mut mask);
            assert!(
                mask.iter().all(|m| *m == 0),
                "only the asked seat has a mask"
            );
        }
        // A number not among the legal ones is refused, and nothing changes.
        if let Some(illegal) = (0..env.space().len()).find(|i| !legal.contains(i)) {
            let before = (env.steps().len(), env.game().state.clone());
            assert!(env.step(illegal).is_err());
            assert_eq!(before.0, env.steps().len());
            assert_eq!(format!("{:?}", before.1), format!("{:?}", env.game().state));
        }
        let pick = legal[rng.random_range(0..legal.len())];
        env.step(pick).expect("a legal number steps");
    }
    env
}

#[test]
fn action_numbers_round_trip_for_every_seat() {
    for (variant, players) in variants() {
        let env = Env::new(variant.clone(), Config::seats(players, 1)).unwrap();
        let space = env.space();
        assert_eq!(space.action(PASS, Seat(0)), None);
        for seat in (0..players).map(|s| Seat(s as u8)) {
            for i in 1..space.len() {
                let action = space.action(i, seat).expect("every number is an action");
                assert_eq!(
                    space.index_of(&action),
                    Some(i),
                    "{}: {action:?}",
                    variant.name
                );
            }
        }
    }
}

#[test]
fn every_variant_plays_to_an_end_and_replays_from_its_steps() {
    let games = if crate::size::ci_size() { 6 } else { 2 };
    for (variant, players) in variants() {
        let mut ended = 0;
        for seed in 0..games {
            let env = play(&variant, players, seed);
            assert!(env.done());
            ended += usize::from(env.is_over());
            // Saved halfway as JSON and restored, a game goes on as the original did.
            let half = &env.steps()[..env.steps().len() / 2];
            let mid = Env::replay(variant.clone(), env.config().clone(), half).unwrap();
            let json = serde_json::to_string(&mid.save()).unwrap();
            let mut restored =
                Env::restore(variant.clone(), serde_json::from_str(&json).unwrap()).unwrap();
            assert_eq!(restored.legal(), mid.legal());
            for &s in &env.steps()[half.len()..] {
                restored.step(s).unwrap();
            }
            assert_eq!(restored.moves(), env.moves());
            let again = Env::replay(variant.clone(), env.config().clone(), env.steps()).unwrap();
            assert_eq!(again.moves(), env.moves());
            assert_eq!(
                format!("{:?}", again.game().state),
                format!("{:?}", env.game().state)
            );
        }
        assert!(
            ended > 0,
            "{} with {players}: no random game ended",
            variant.name
        );
    }
}

#[test]
fn observations_show_a_face_only_to_a_seat_that_knows_it() {
    for (variant, players) in variants() {
        let env = play(&variant, players, 7);
        let layout = env.layout();
        let parts = layout.parts();
        let hands_at: usize = parts
            .iter()
            .take_while(|p| p.0 != "hands")
            .map(|p| p.1)
            .sum();
        let slots = env.space().slots();
        let mut out = vec![0f32; layout.len()];
        for seat in (0..players).map(|s| Seat(s as u8)) {
            env.observe(seat, &mut out);
            let st = &env.game().state;
            for k in 0..players {
                let owner = Seat(((seat.index() + k) % players) as u8);
                for (slot, card) in st.hand(owner).iter().enumerate().take(slots) {
                    let at = hands_at + (k * slots + slot) * deckspec::agents::observe::CARD_WIDTH;
                    let Some(card) = card else { continue };
                    let knows = st.knows(seat, *card);
                    assert_eq!(
                        out[at + 1] == 1.0,
                        knows,
                        "{}: the known flag",
                        variant.name
                    );
                    let shown = out[at + 3..at + 21].iter().any(|x| *x != 0.0);
                    assert_eq!(
                        shown, knows,
                        "{}: a face shown to seat {}",
                        variant.name, seat.0
                    );
                }
            }
        }
    }
}

#[test]
fn a_game_played_for_agents_is_a_scenario_the_runner_passes() {
    let provider = ScriptProvider::new(rules());
    let mut results = Vec::new();
    for (variant, players) in variants() {
        let env = play(&variant, players, 3);
        if !env.is_over() {
            continue;
        }
        let text = env
            .scenario(&format!("{} for agents", variant.name), &[])
            .unwrap();
        results.push(run_file(
            &variant.name,
            Arc::new(text),
            &provider,
            &Filter::default(),
        ));
    }
    let totals = Totals::of(&results);
    assert!(totals.passed >= 4, "{totals:?}");
    assert_eq!((totals.failed, totals.broken_files), (0, 0), "{totals:?}");
}
