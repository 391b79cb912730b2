//! The two script engines against each other: random and bot games of every bundled variant with
//! every hook call run on both (`sim::Twin`), and a Twin that must notice when they differ.
//!
//! The full differential run (10,000 random and 10,000 bot games per variant) is a release
//! command in `.ci/run`: `deckspec simulate <variant> --games 10000 --compare-engines`.

use deckspec::script::{EngineKind, Variant, variant_names};
use deckspec::sim::{Seating, SimError, Study, on_script_thread};
use std::path::{Path, PathBuf};

fn rules() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("rules")
}

fn load(name: &str, engine: EngineKind, texts: &[(PathBuf, String)]) -> Variant {
    let mut v = Variant::load_named_with(&rules(), name, texts).expect("the variant loads");
    v.set_engine(engine);
    v
}

/// Play `games` games from `first_seed` with every hook compared.
fn compare(
    subject: &Variant,
    reference: &Variant,
    seats: Vec<Seating>,
    games: u64,
    first_seed: u64,
) -> Result<u64, SimError> {
    let study = Study {
        variant: subject,
        seats,
        house: Vec::new(),
        house_text: Vec::new(),
        games,
        first_seed,
        shard: deckspec::sim::Shard::WHOLE,
        jobs: 2,
        verify: false,
        strict: false,
        compare: Some(reference),
    };
    on_script_thread(|| study.run(&|| {}))?.map(|s| s.games)
}

#[test]
fn both_engines_play_the_same_random_and_bot_games() {
    for name in variant_names(&rules()) {
        let subject = load(&name, EngineKind::Compiled, &[]);
        let reference = load(&name, EngineKind::Interpreted, &[]);
        for players in 2..=4 {
            let random = vec![Seating::Random; players];
            let played = compare(&subject, &reference, random, 12, 1000 * players as u64)
                .unwrap_or_else(|e| panic!("{name}, {players} random players: {e}"));
            assert_eq!(played, 12);
        }
        let levels: Vec<String> = subject
            .bots
            .as_ref()
            .map(|b| b.levels().map(str::to_string).collect())
            .unwrap_or_default();
        for level in levels {
            let bots = vec![Seating::Bot(level.clone()); 3];
            compare(&subject, &reference, bots, 4, 77)
                .unwrap_or_else(|e| panic!("{name}, {level} bots: {e}"));
        }
    }
}

#[test]
fn a_difference_between_the_engines_stops_the_study_and_says_where() {
    // The compiled side runs a script whose draw event tells the pile's size one too high.
    let path = rules().join("recall").join("recall.rhai");
    let text = std::fs::read_to_string(&path).expect("recall.rhai");
    let original = "card: card, drawPileSize: game.pile_size(\"draw_pile\") }";
    assert!(text.contains(original), "the mutation applies");
    let changed = text.replace(
        original,
        "card: card, drawPileSize: game.pile_size(\"draw_pile\") + 1 }",
    );
    let subject = load("recall", EngineKind::Compiled, &[(path, changed)]);
    let reference = load("recall", EngineKind::Interpreted, &[]);
    let error = compare(&subject, &reference, vec![Seating::Random; 3], 20, 5)
        .expect_err("the engines differ");
    let text = error.to_string();
    assert!(
        text.contains("the engines differ on `draw` by seat ")
            && text.contains("their event logs differ from event "),
        "{text}"
    );
}
