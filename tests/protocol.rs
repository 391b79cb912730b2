//! The WebSocket protocol's two directions agree: every legal action of every variant, written
//! as the message that sends it (`private_actions`, the browser table's buttons), reads back as
//! the same action, at every step of seeded random games.

use deckspec::kernel::playout::{RandomAgent, Step};
use deckspec::kernel::{Game, Seat};
use deckspec::script::Variant;
use deckspec::serve::protocol::{Request, action_message, parse_request};
use std::path::Path;

fn check(variant: &str, seeds: std::ops::Range<u64>, max_steps: usize) -> usize {
    let rules = Variant::load_named(Path::new("rules"), variant).unwrap();
    let mut checked = 0;
    for seed in seeds {
        let players = ["ann", "bob", "cy"].map(String::from).to_vec();
        let mut game = Game::new(rules.table().clone(), players, seed, &[]).unwrap();
        game.start(&rules).unwrap();
        let mut agent = RandomAgent::new(seed);
        for _ in 0..max_steps {
            for action in game.legal_actions(&rules) {
                let message = action_message(&game, &action);
                let read = parse_request(&game, action.seat, &message.to_string());
                assert_eq!(
                    read,
                    Ok(Request::Action(action.clone())),
                    "{variant} seed {seed}: {message}"
                );
                checked += 1;
            }
            match agent.step(&mut game, &rules).unwrap() {
                Step::Stuck => break,
                Step::Acted(_) | Step::Waited => {}
            }
        }
        // A seat that does not exist in the message's eyes is still the connection's.
        assert!(game.state.player_count() == 3 && Seat(2).index() == 2);
    }
    checked
}

#[test]
fn every_legal_action_reads_back_from_its_message() {
    for variant in ["cambia", "check", "recall", "dutch"] {
        let checked = check(variant, 0..3, 60);
        assert!(checked > 100, "{variant}: only {checked} actions checked");
    }
}
