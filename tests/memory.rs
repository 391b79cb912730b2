//! Memory per live game: the kernel state of a 4-player game of every variant stays small
//! (the event log is an output buffer and is measured separately).

use deckspec::kernel::playout::{RandomAgent, Step};
use deckspec::kernel::{Game, Rules};
use deckspec::script::{Variant, variant_names};
use std::path::Path;

#[test]
fn a_live_game_state_fits_in_four_kib() {
    let rules = Path::new(env!("CARGO_MANIFEST_DIR")).join("rules");
    for name in variant_names(&rules) {
        let variant = Variant::load_named(&rules, &name).unwrap();
        let players = (0..4).map(|i| format!("p{i}")).collect();
        let mut game = Game::new(variant.table().clone(), players, 3, &[]).unwrap();
        game.start(&variant).unwrap();
        let mut agent = RandomAgent::new(3);
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
