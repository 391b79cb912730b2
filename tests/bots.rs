//! Computer players: they act only on cards they remember, the rules never refuse them, and
//! across 1,000 seeded games each harder level beats the next easier one.

use deckspec::script::{Variant, variant_names};
use deckspec::sim::{Seating, play_seated};
use std::path::Path;

fn load(name: &str) -> Variant {
    let rules = Path::new(env!("CARGO_MANIFEST_DIR")).join("rules");
    Variant::load_named(&rules, name).unwrap_or_else(|e| panic!("{}", e.short()))
}

fn bot(level: &str) -> Seating {
    Seating::Bot(level.to_string())
}

#[test]
fn bots_act_only_on_remembered_cards_and_are_never_refused() {
    let rules = Path::new(env!("CARGO_MANIFEST_DIR")).join("rules");
    let tables = [
        vec![bot("easy"), bot("medium"), bot("hard"), bot("expert")],
        vec![Seating::Random, bot("expert"), bot("easy")],
        vec![bot("hard"), bot("hard")],
    ];
    for name in variant_names(&rules) {
        let variant = load(&name);
        assert!(variant.bots.is_some(), "{name} has no bots.yaml");
        let mut decisions = 0;
        for (t, seating) in tables.iter().enumerate() {
            for seed in 0..20 {
                let (summary, stats) = play_seated(&variant, seating, seed, &[])
                    .unwrap_or_else(|e| panic!("{name}: table {t}: {e}"));
                decisions += stats.decisions;
                assert!(
                    stats.refusals.is_empty(),
                    "{name} seed {seed}: refused bot actions: {:?}",
                    stats.refusals
                );
                assert!(
                    stats.unknown_cards.is_empty(),
                    "{name} seed {seed}: bots acted on cards they did not know: {:?}",
                    stats.unknown_cards
                );
                assert!(summary.actions > 0);
            }
        }
        assert!(
            decisions > 1000,
            "{name}: bots hardly decided anything ({decisions})"
        );
    }
}

/// Win rates of `strong` and `weak` over `games` two-player games, seats alternating.
fn duel(variant: &Variant, strong: &str, weak: &str, games: u64) -> (f64, f64) {
    let (mut s, mut w) = (0u64, 0u64);
    for seed in 0..games {
        let strong_first = seed % 2 == 0;
        let seating = if strong_first {
            [bot(strong), bot(weak)]
        } else {
            [bot(weak), bot(strong)]
        };
        let (summary, _) =
            play_seated(variant, &seating, seed, &[]).unwrap_or_else(|e| panic!("{e}"));
        for &winner in &summary.winners {
            if (winner == 0) == strong_first {
                s += 1
            } else {
                w += 1
            }
        }
    }
    (s as f64 / games as f64, w as f64 / games as f64)
}

#[test]
fn harder_levels_beat_easier_ones_over_a_thousand_games() {
    const GAMES: u64 = 1000;
    let pairs = [("medium", "easy"), ("hard", "medium"), ("expert", "hard")];
    std::thread::scope(|scope| {
        let runs: Vec<_> = ["recall", "dutch"]
            .into_iter()
            .map(|name| {
                scope.spawn(move || {
                    let variant = load(name);
                    pairs
                        .iter()
                        .map(|&(strong, weak)| {
                            (name, strong, weak, duel(&variant, strong, weak, GAMES))
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        for run in runs {
            for (name, strong, weak, (s, w)) in run.join().expect("a duel thread") {
                println!(
                    "{name}: {strong} {:.1}% vs {weak} {:.1}% over {GAMES} games",
                    s * 100.0,
                    w * 100.0
                );
                assert!(
                    s - w >= 0.10,
                    "{name}: {strong} should beat {weak} by 10 points: {s:.3} vs {w:.3}"
                );
            }
        }
    });
}
