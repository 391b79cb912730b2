//! `deckspec balance` on fixture variants whose metrics are known (`tests/balance/rules/`): seat 0
//! always starting, leading and winning, with a dead action; the last seat trailing until the
//! last turn; a coin deciding, so that no bot level beats another; and the bundled Cambia, whose
//! expert beats its easy bots. Also: the same numbers on any number of threads, and bad
//! arguments refused.

use crate::common::deckspec;

const FIXTURES: &str = "tests/balance/rules";

/// A study's report as JSON.
fn study(args: &[&str]) -> serde_json::Value {
    let run = deckspec(&[&["balance", "--json"][..], args].concat());
    assert_eq!(run.code, 0, "{args:?}: {}{}", run.stdout, run.stderr);
    serde_json::from_str(&run.stdout).expect("one JSON object")
}

/// The metric `id` of a report: its value and interval.
fn metric(report: &serde_json::Value, id: &str) -> (Option<f64>, Option<(f64, f64)>) {
    let m = report["metrics"]
        .as_array()
        .expect("metrics")
        .iter()
        .find(|m| m["id"] == id)
        .unwrap_or_else(|| panic!("no metric {id}"));
    let interval = m["interval"]
        .as_array()
        .map(|i| (i[0].as_f64().unwrap(), i[1].as_f64().unwrap()));
    (m["value"].as_f64(), interval)
}

/// Metric `id` is `want`, and its interval holds it.
fn check(report: &serde_json::Value, id: &str, want: f64) {
    let (value, interval) = metric(report, id);
    let value = value.unwrap_or_else(|| panic!("{id} has no value"));
    assert!((value - want).abs() < 1e-9, "{id}: {value}, not {want}");
    let (lo, hi) = interval.unwrap_or_else(|| panic!("{id} has no interval"));
    assert!(lo <= want + 1e-9 && want <= hi + 1e-9, "{id}: {lo} to {hi}");
}

#[test]
fn seat_zero_starts_leads_and_wins_every_game_and_skip_is_dead() {
    let r = study(&[
        "seat_zero",
        "--rules",
        FIXTURES,
        "--players",
        "3",
        "--games",
        "300",
    ]);
    check(&r, "first-turn-advantage", 1.0);
    check(&r, "seat-0-wins", 1.0);
    check(&r, "seat-1-wins", 0.0);
    check(&r, "seat-2-wins", 0.0);
    check(&r, "game-length", 5.0);
    check(&r, "game-length-spread", 0.0);
    check(&r, "turns", 5.0);
    check(&r, "decisiveness", 0.0);
    check(&r, "lead-changes", 0.0);
    check(&r, "comeback", 0.0);
    check(&r, "lead-margin", 10.0);
    check(&r, "stalemate", 0.0);
    check(&r, "no-winner", 0.0);
    check(&r, "tie", 0.0);
    check(&r, "score-margin", 10.0);
    check(&r, "time-share", 0.0);
    check(&r, "action-pass-uses", 4.0);
    check(&r, "action-win-uses", 1.0);
    // The dead action: never used, so nothing to say of its players' wins.
    check(&r, "action-skip-uses", 0.0);
    assert_eq!(metric(&r, "action-skip-win-lift"), (None, None));
    // After four passes it is seat 1's turn: seat 1 ends every game with `win`, and loses. Its
    // users won none, the two who did not use it half: a lift of -0.5.
    check(&r, "action-win-win-lift", -0.5);
    assert_eq!(r["better"], "lower");
    assert_eq!(r["better_inferred"], true);
    assert_eq!(r["end_reasons"], serde_json::json!({"seat 0 wins": 300}));
}

#[test]
fn the_last_seat_trails_until_the_last_turn_and_comes_back() {
    let r = study(&[
        "comeback",
        "--rules",
        FIXTURES,
        "--players",
        "2",
        "--games",
        "200",
    ]);
    check(&r, "seat-1-wins", 1.0);
    check(&r, "first-turn-advantage", 0.0);
    check(&r, "turns", 10.0);
    // The winner took the lead at the start of the tenth and last turn: 9 of 10 turns before it.
    check(&r, "decisiveness", 0.9);
    check(&r, "comeback", 1.0);
    check(&r, "lead-changes", 1.0);
    check(&r, "score-margin", 10.0);
}

#[test]
fn with_a_coin_deciding_no_level_beats_another() {
    let run = deckspec(&[
        "balance", "no_skill", "--rules", FIXTURES, "--skill", "all", "--games", "600", "--seed",
        "7", "--json",
    ]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let json: serde_json::Value = serde_json::from_str(&run.stdout).expect("JSON");
    let matchups = json["skill"].as_array().expect("the matchups");
    assert_eq!(matchups.len(), 12, "every ordered pair of four levels");
    for m in matchups {
        let (hits, n) = (
            m["wins"]["hits"].as_f64().unwrap(),
            m["wins"]["n"].as_f64().unwrap(),
        );
        assert_eq!(n, 600.0, "{m}");
        // Half, within the 95% interval of 600 fair coins (about ±0.04).
        assert!((hits / n - 0.5).abs() < 0.06, "{m}");
    }
}

#[test]
fn cambias_expert_beats_its_easy_bots_and_needs_a_few_games_to_win_a_match() {
    let run = deckspec(&[
        "balance",
        "cambia",
        "--skill",
        "easy,expert",
        "--games",
        "400",
        "--json",
    ]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let json: serde_json::Value = serde_json::from_str(&run.stdout).expect("JSON");
    let expert = json["skill"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["level"] == "expert")
        .expect("expert's row")
        .clone();
    let share = expert["wins"]["hits"].as_f64().unwrap() / expert["wins"]["n"].as_f64().unwrap();
    assert!(share > 0.7, "{expert}");
    let games = expert["games_to_win"].as_u64().expect("a match length");
    assert!((1..=15).contains(&games), "{expert}");
}

#[test]
fn the_numbers_are_the_same_on_one_thread_or_many() {
    let args = ["cambia", "--games", "300", "--seed", "11"];
    let mut one = study(&[&args[..], &["-j", "1"]].concat());
    let mut three = study(&[&args[..], &["-j", "3"]].concat());
    one.as_object_mut().unwrap().remove("seconds");
    three.as_object_mut().unwrap().remove("seconds");
    assert_eq!(one, three);
}

#[test]
fn bad_arguments_are_refused_before_a_game_is_played() {
    for (args, says) in [
        (
            &["balance", "cambia", "--players", "13"][..],
            "at most 12 players",
        ),
        (&["balance", "cambia", "--games", "0"][..], "--games"),
        (
            &["balance", "cambia", "--better", "best"][..],
            "--better takes lower or higher",
        ),
        (
            &["balance", "cambia", "--skill", "easy,wizard"][..],
            "no `wizard` level",
        ),
        (
            &["balance", "cambia", "--skill", "easy"][..],
            "two levels or more",
        ),
        (
            &["balance", "cambia", "--bots", "random,expert"][..],
            "--bots names 2 seats",
        ),
        (
            &["balance", "cambia", "--house-rule", "no_such=1"][..],
            "no_such",
        ),
    ] {
        let run = deckspec(args);
        assert_eq!(run.code, 2, "{args:?}: {}{}", run.stdout, run.stderr);
        assert!(run.stderr.contains(says), "{args:?}: {}", run.stderr);
    }
}
