//! `deckspec play` driven as QA scripts drive it, through a pipe: whole games of every variant
//! against bots by commands chosen from `help`, recorded, and the recordings pass `deckspec
//! test`; refusals and bad commands change nothing; and, for random seeds, a session played by
//! random commands records a scenario that replays (property test, through the library).

use crate::common;
use crate::common::replay;
use common::deckspec;
use deckspec::play::{Reply, Session, Setup};
use deckspec::script::Variant;
use proptest::prelude::*;
use replay::replay_problems;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Stdio};

/// The commands a `help` reply lists (`  replace slot 2    The drawn card …`).
fn commands(help: &[String]) -> Vec<String> {
    help.iter()
        .filter_map(|l| l.strip_prefix("  "))
        // `… and 9 more `initial_peek` commands`: the ways help does not spell out.
        .filter(|l| !l.starts_with('…'))
        .filter_map(|l| l.split("  ").next())
        .map(|c| c.trim().to_string())
        .filter(|c| !c.is_empty())
        .collect()
}

/// A small seeded generator, so each game is the same on every run.
fn next(state: &mut u64) -> u64 {
    *state = state
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    *state >> 33
}

/// Play one whole game through a pipe: ask `help`, pick one of its commands (or `wait`), until
/// the game is over. Returns the whole transcript.
fn play_through_pipe(variant: &str, record: &str, seed: u64) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_deckspec"))
        .args(["play", variant, "--players", "3", "--bots", "easy,expert"])
        .args(["--seed", &seed.to_string(), "--record", record])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("deckspec play runs");
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut transcript = String::new();
    let mut rng = seed ^ 0x9e37;
    let mut ended = false;
    for _ in 0..3000 {
        writeln!(stdin, "help").unwrap();
        let mut help = Vec::new();
        loop {
            let mut line = String::new();
            if stdout.read_line(&mut line).unwrap() == 0 {
                ended = true;
                break;
            }
            transcript.push_str(&line);
            if line.starts_with("game over") {
                ended = true;
            }
            if line.starts_with("also: ") || ended {
                break;
            }
            help.push(line.trim_end().to_string());
        }
        if ended {
            break;
        }
        let options = commands(&help);
        let pick = next(&mut rng) as usize % (options.len() + 1);
        let command = options.get(pick).map_or("wait", String::as_str);
        writeln!(stdin, "{command}").unwrap();
    }
    drop(stdin);
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut stdout, &mut rest).unwrap();
    transcript.push_str(&rest);
    let status = child.wait().unwrap();
    assert!(
        ended,
        "{variant}: no end after 3000 commands:\n{transcript}"
    );
    assert_eq!(status.code(), Some(0), "{transcript}");
    transcript
}

#[test]
fn whole_games_of_every_variant_through_a_pipe_record_scenarios_that_pass() {
    let dir = std::env::temp_dir().join(format!("deckspec-play-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for variant in &deckspec::script::variant_names(std::path::Path::new("rules")) {
        let record = dir.join(format!("{variant}.feature"));
        let record = record.to_str().unwrap();
        let transcript = play_through_pipe(variant, record, 7);
        assert!(transcript.contains("game over ("), "{transcript}");
        assert!(transcript.contains(&format!("recorded in {record}\n")));
        let text = std::fs::read_to_string(record).unwrap();
        assert!(text.contains("And the game is over\n"), "{text}");
        let test = deckspec(&["test", record]);
        assert_eq!(
            (test.code, test.stdout.ends_with("1 passed, 0 failed\n")),
            (0, true),
            "{variant}:\n{}{}\n{text}",
            test.stdout,
            test.stderr
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn refused_and_unknown_commands_change_nothing_and_are_not_errors() {
    let input = "snap 9Z\nreplace slot 0\nfly away\ndraw_stokpile\nwait -3\nundo\nquit\n";
    let mut child = Command::new(env!("CARGO_BIN_EXE_deckspec"))
        .args(["play", "cambia", "--seed", "0"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0));
    for expected in [
        "> snap 9Z\nerror: `snap 9Z`: `9Z` is not a card\n",
        "> replace slot 0\nrefused: you have not drawn a card\n",
        "> fly away\nrefused: `fly` is not an action of cambia\n",
        "> draw_stokpile\nrefused: `draw_stokpile` is not an action of cambia: did you mean `draw_stockpile`?\n",
        "> wait -3\nerror: `wait -3`: give seconds from 0.001 to 86400, or `wait` for the next timer\n",
        "> undo\nnothing to undo\n",
    ] {
        assert!(
            stdout.contains(expected),
            "missing {expected:?} in:\n{stdout}"
        );
    }
    // The seat at the keyboard is `you`: its turn reads as yours.
    assert!(!stdout.contains("you's turn"), "{stdout}");
    // The table before and after the refused commands is the same.
    let screens: Vec<&str> = stdout.split("> ").collect();
    assert_eq!(screens[1].lines().last(), screens[2].lines().last());
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 16, ..ProptestConfig::default() })]

    /// A session played by random commands (from `help`, with `wait` and `undo` among them)
    /// records a scenario that replays.
    #[test]
    fn random_sessions_record_scenarios_that_replay(
        variant in prop::sample::select(deckspec::script::variant_names(std::path::Path::new("rules"))),
        seed in 0u64..1_000_000,
        choices in prop::collection::vec(any::<u16>(), 1..80),
    ) {
        let rules = Path::new(env!("CARGO_MANIFEST_DIR")).join("rules");
        let loaded = Variant::load_named(&rules, &variant).unwrap();
        let text = deckspec::sim::on_script_thread(|| {
            let mut session = Session::new(Setup {
                variant: &loaded,
                players: vec!["me".into(), "bob".into()],
                me: deckspec::kernel::Seat(0),
                levels: vec![String::new(), "medium".into()],
                seed,
                house: Vec::new(),
                house_text: Vec::new(),
            })
            .unwrap();
            for choice in &choices {
                if session.is_over() {
                    break;
                }
                // Every legal command, not only those `help` spells out.
                let mut options = session.commands();
                let help = session.help();
                for command in &options {
                    let name = command.split(' ').next().unwrap_or_default();
                    assert!(help.contains(&format!("  {name}")), "{help}");
                }
                options.push("wait".into());
                options.push("undo".into());
                let command = &options[*choice as usize % options.len()];
                match session.command(command) {
                    Ok(Reply::Quit) => break,
                    Ok(_) => {}
                    Err(e) => panic!("{variant} seed {seed}: `{command}`: {e}"),
                }
            }
            session.recording("property test")
        })
        .unwrap();
        let problems = replay_problems(&text);
        prop_assert!(problems.is_empty(), "{}\n{}", problems.join("\n"), text);
    }
}

#[test]
fn play_checks_its_arguments_before_dealing() {
    for (args, message) in [
        (
            &["play", "cambia", "--players", "13"][..],
            "error: --players: cambia is for 2 to 12 players, not 13: at most 12 players\n",
        ),
        (
            &["play", "cambia", "--bots", "godlike"][..],
            "error: --bots: cambia has no `godlike` level: its levels are easy, medium, hard, expert\n",
        ),
        (
            &[
                "play",
                "cambia",
                "--players",
                "3",
                "--bots",
                "easy,hard,expert",
            ][..],
            "error: --bots names 3 levels for 2 computer seats: give one level or one per seat\n",
        ),
        (
            &["play", "cambia", "--house-rule", "penalty_draw_count=two"][..],
            "error: --house-rule: house rule `penalty_draw_count` takes an integer, not `two`\n",
        ),
        (
            &["play", "cambia", "--me", "a b"][..],
            "error: --me: `a b` is not a name (letters, digits and _)\n",
        ),
    ] {
        let run = deckspec(args);
        assert_eq!((run.code, run.stderr.as_str()), (2, message), "{args:?}");
        assert_eq!(run.stdout, "");
    }
}
