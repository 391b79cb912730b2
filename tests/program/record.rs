//! Recorded games (`simulate --record-game`, `record::Recorder`): a recording of any variant,
//! with bots or random seats, replays and passes `deckspec test`; a changed card in a recorded
//! Then fails at that line; and for random seeds, every recording replays (property test).

use crate::common;
use crate::common::replay;
use common::deckspec;
use deckspec::script::Variant;
use deckspec::sim::{Seating, record_game};
use proptest::prelude::*;
use replay::replay_problems;
use std::path::Path;

fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("deckspec-record-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Every variant, with bots and with random seats: the recording passes `deckspec test`.
#[test]
fn recorded_games_of_every_variant_replay() {
    let dir = scratch("cli");
    for variant in &deckspec::script::variant_names(std::path::Path::new("rules")) {
        for bots in ["expert,easy,hard", "random"] {
            let file = dir.join(format!("{variant}-{}.feature", bots.len()));
            let file = file.to_str().unwrap();
            let run = deckspec(&[
                "simulate",
                variant,
                "--games",
                "4",
                "--players",
                "3",
                "--bots",
                bots,
                "--record-game",
                "3",
                file,
            ]);
            assert_eq!(run.code, 0, "{}", run.stderr);
            assert!(
                run.stderr
                    .contains(&format!("recorded game 3 (seed 3) in {file}\n")),
                "{}",
                run.stderr
            );
            let text = std::fs::read_to_string(file).unwrap();
            assert!(text.starts_with(&format!(
                "# Recorded by: deckspec simulate {variant} --games 4"
            )));
            assert!(text.contains(&format!("@{variant} @recorded\n")), "{text}");
            let test = deckspec(&["test", file]);
            assert_eq!(
                (test.code, test.stdout.ends_with("1 passed, 0 failed\n")),
                (0, true),
                "{variant} with {bots}:\n{}\n{text}",
                test.stdout
            );
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// A recording is a regression test: one changed card in its final Thens fails at that line.
#[test]
fn a_changed_card_in_a_recorded_then_fails_at_its_line() {
    let dir = scratch("changed");
    let file = dir.join("cambia.feature");
    let file = file.to_str().unwrap();
    let run = deckspec(&[
        "simulate",
        "cambia",
        "--games",
        "1",
        "--bots",
        "expert",
        "--record-game",
        "0",
        file,
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let text = std::fs::read_to_string(file).unwrap();
    let (number, line) = text
        .lines()
        .enumerate()
        .find(|(_, l)| l.trim_start().starts_with("Then p0 holds"))
        .expect("a final Then for p0's hand");
    // Swap p0's first card for a face nobody holds at the end: the draw pile top never is.
    let first = line
        .split("holds ")
        .nth(1)
        .unwrap()
        .split(',')
        .next()
        .unwrap();
    let other = if first.trim() == "2C" { "3C" } else { "2C" };
    let changed_line = line.replacen(first, other, 1);
    let changed = text.replacen(line, &changed_line, 1);
    std::fs::write(file, changed).unwrap();
    let test = deckspec(&["test", file]);
    assert_eq!(test.code, 1, "{}", test.stdout);
    assert!(
        test.stdout.contains(&format!("{file}:{}:", number + 1)),
        "the failure does not point at line {}:\n{}",
        number + 1,
        test.stdout
    );
    std::fs::remove_dir_all(&dir).ok();
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// For random seeds, bot levels and player counts, the recording of a game replays. (Seats
    /// that pick uniformly among legal actions are covered at fixed seeds above: with no game
    /// clock passing between actions they can keep Recall's same-rank window open until its
    /// queue of Jacks and Queens outgrows the kernel's 4,096-value limit, a script fault that
    /// has nothing to do with recording.)
    #[test]
    fn every_recording_replays(
        variant in prop::sample::select(deckspec::script::variant_names(std::path::Path::new("rules"))),
        seed in 0u64..1_000_000,
        levels in prop::collection::vec(prop::sample::select(vec!["easy", "medium", "hard", "expert"]), 2..5),
    ) {
        let rules = Path::new(env!("CARGO_MANIFEST_DIR")).join("rules");
        let loaded = Variant::load_named(&rules, &variant).unwrap();
        let seats: Vec<Seating> = levels.iter().map(|l| Seating::Bot(l.to_string())).collect();
        let text = deckspec::sim::on_script_thread(|| record_game(&loaded, &seats, seed, &[], &[], "property test"))
            .unwrap()
            .unwrap_or_else(|e| panic!("{variant} seed {seed}: {e}"));
        let problems = replay_problems(&text);
        prop_assert!(problems.is_empty(), "{}\n{}", problems.join("\n"), text);
    }
}

#[test]
fn record_game_arguments_are_checked_before_playing() {
    for (index, file, message) in [
        (
            "9",
            "x.feature",
            "error: --record-game: the study has games 0 to 3, not 9\n",
        ),
        (
            "x",
            "x.feature",
            "error: --record-game: `x` is not a game number: give 0 to 3\n",
        ),
        (
            "1",
            "x.txt",
            "error: --record-game: x.txt does not end in .feature: `deckspec test` runs only .feature files\n",
        ),
        (
            "1",
            "/no/such/folder/x.feature",
            "error: --record-game: cannot write /no/such/folder/x.feature: the folder /no/such/folder does not exist\n",
        ),
    ] {
        let run = deckspec(&[
            "simulate",
            "cambia",
            "--games",
            "4",
            "--record-game",
            index,
            file,
        ]);
        assert_eq!((run.code, run.stderr.as_str()), (2, message));
        assert_eq!(run.stdout, "");
    }
}
