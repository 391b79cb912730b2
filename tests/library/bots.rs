//! Computer players: they act only on cards they remember, the rules never refuse them, and each
//! harder level beats the next easier one by at least ten points (games are played until a 99.9%
//! confidence interval settles it, at most 1,000).

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

/// The outcome of a duel: games played and wins of each side.
#[derive(Clone, Copy, Debug, Default)]
struct Duel {
    games: u64,
    strong: u64,
    weak: u64,
}

/// z for a two-sided 99.9% interval.
const Z: f64 = 3.29;

impl Duel {
    /// The difference of the win rates and its half-width at 99.9% (each game scores +1, 0 or
    /// -1 for the strong side: shared wins count for both).
    fn margin(&self) -> (f64, f64) {
        let n = self.games as f64;
        let diff = (self.strong as f64 - self.weak as f64) / n;
        let second_moment = (self.strong + self.weak) as f64 / n;
        let variance = (second_moment - diff * diff).max(0.0);
        (diff, Z * (variance / n).sqrt())
    }
}

/// Play `strong` against `weak` in two-player games, seats alternating, in batches of 100,
/// until the interval of the difference of win rates lies wholly above or below `needed`, or
/// `max_games` are played. Seeded: the same games every run.
fn duel(variant: &Variant, strong: &str, weak: &str, needed: f64, max_games: u64) -> Duel {
    let mut d = Duel::default();
    while d.games < max_games {
        for _ in 0..100 {
            let seed = d.games;
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
                    d.strong += 1
                } else {
                    d.weak += 1
                }
            }
            d.games += 1;
        }
        let (diff, half) = d.margin();
        if diff - half > needed || diff + half < needed {
            break;
        }
    }
    d
}

#[test]
fn harder_levels_beat_easier_ones_by_ten_points() {
    const MAX_GAMES: u64 = 1000;
    const NEEDED: f64 = 0.10;
    let pairs = [("medium", "easy"), ("hard", "medium"), ("expert", "hard")];
    // Every variant of rules/ with bots, a new one too.
    let rules = Path::new(env!("CARGO_MANIFEST_DIR")).join("rules");
    let names: Vec<String> = variant_names(&rules)
        .into_iter()
        .filter(|name| rules.join(name).join("bots.yaml").is_file())
        .collect();
    assert!(names.len() >= 4, "{names:?}");
    std::thread::scope(|scope| {
        let runs: Vec<_> = names
            .iter()
            .map(|name| {
                scope.spawn(move || {
                    let variant = load(name);
                    pairs
                        .iter()
                        .map(|&(strong, weak)| {
                            (
                                name.as_str(),
                                strong,
                                weak,
                                duel(&variant, strong, weak, NEEDED, MAX_GAMES),
                            )
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        for run in runs {
            for (name, strong, weak, d) in run.join().expect("a duel thread") {
                let (diff, half) = d.margin();
                let pct = |x: u64| x as f64 * 100.0 / d.games as f64;
                println!(
                    "{name}: {strong} {:.1}% vs {weak} {:.1}% over {} games (difference {:.3} ± {:.3})",
                    pct(d.strong),
                    pct(d.weak),
                    d.games,
                    diff,
                    half
                );
                // Settled above the bar, or (after all games) at least above it on average.
                assert!(
                    diff - half > NEEDED || (d.games >= MAX_GAMES && diff >= NEEDED),
                    "{name}: {strong} should beat {weak} by {NEEDED}: {diff:.3} ± {half:.3} over {} games",
                    d.games
                );
            }
        }
    });
}
