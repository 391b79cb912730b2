//! Memory per live game: the kernel state of a 4-player game of every variant stays small, and so
//! does the whole game (state and event log) of a server that forgets delivered events.

use deckspec::kernel::Game;
use deckspec::kernel::playout::{RandomAgent, Step};
use deckspec::script::{Variant, variant_names};
use std::path::Path;

/// A started 4-player game of every bundled variant, with a random agent for it.
fn four_player_games(seed: u64) -> impl Iterator<Item = (String, Variant, Game, RandomAgent)> {
    let rules = Path::new(env!("CARGO_MANIFEST_DIR")).join("rules");
    variant_names(&rules).into_iter().map(move |name| {
        let variant = Variant::load_named(&rules, &name).unwrap();
        let players = (0..4).map(|i| format!("p{i}")).collect();
        let mut game = Game::new(variant.table().clone(), players, seed, &[]).unwrap();
        game.start(&variant).unwrap();
        (name, variant, game, RandomAgent::new(seed))
    })
}

#[test]
fn a_live_game_state_fits_in_four_kib() {
    for (name, variant, mut game, mut agent) in four_player_games(3) {
        let mut largest = game.state_bytes();
        for _ in 0..60 {
            if !matches!(
                agent.step(&mut game, &variant),
                Ok(Step::Acted(_) | Step::Waited)
            ) {
                break;
            }
            largest = largest.max(game.state_bytes());
        }
        println!(
            "{name}: state {largest} bytes; event log {} bytes after {} events",
            game.log_bytes(),
            game.log.len()
        );
        assert!(
            largest <= 4096,
            "{name}: a live game state takes {largest} bytes"
        );
    }
}

/// A server's loop: after each step it renders the new events for every seat (delivering them)
/// and forgets them. Between steps the whole game, state and log, stays within 4 KiB all game
/// long, and the numbering of events carries on across the forgetting.
#[test]
fn a_served_game_that_forgets_delivered_events_fits_in_four_kib() {
    for (name, variant, mut game, mut agent) in four_player_games(5) {
        let mut delivered = 0;
        let mut sent = [0usize; 4];
        let mut largest = 0;
        while !game.is_over() {
            if !matches!(
                agent.step(&mut game, &variant),
                Ok(Step::Acted(_) | Step::Waited)
            ) {
                break;
            }
            for (seat, from) in sent.iter_mut().enumerate() {
                let seat = deckspec::kernel::Seat(seat as u8);
                assert!(
                    *from >= game.log_start,
                    "{name}: an undelivered event was forgotten"
                );
                let _ = game.rendered_events(seat, *from);
                *from = game.event_count();
            }
            delivered += game.forget_events_before(game.event_count());
            largest = largest.max(game.state_bytes() + game.log_bytes());
            assert!(game.log.is_empty());
            assert_eq!(game.log_start, delivered);
        }
        assert!(game.is_over(), "{name}: the game did not finish");
        println!("{name}: {delivered} events delivered; largest game {largest} bytes");
        assert!(delivered > 20, "{name}: only {delivered} events");
        assert!(
            largest <= 4096,
            "{name}: a served game takes {largest} bytes"
        );
        // A saved game keeps its event numbering.
        let json = serde_json::to_string(&game.save()).unwrap();
        let restored = Game::restore(
            variant.table().clone(),
            serde_json::from_str(&json).unwrap(),
        )
        .unwrap();
        assert_eq!(restored.event_count(), game.event_count());
        assert!(restored.events_since(0).is_empty());
    }
}
