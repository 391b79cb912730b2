//! `deckspec balance` on fixture variants whose metrics are known (`tests/balance/rules/`): seat 0
//! always starting, leading and winning, with a dead action; the last seat trailing until the
//! last turn; a coin deciding, so that no bot level beats another; and the bundled Cambia, whose
//! expert beats its easy bots. Also: the same numbers on any number of threads, and bad
//! arguments refused.

use crate::common::deckspec;

const FIXTURES: &str = "tests/balance/rules";
/// The scenarios of the fixtures that have some (their rules' activation is known).
const SPECS: &str = "tests/balance/spec";

/// A study's report as JSON.
fn study(args: &[&str]) -> serde_json::Value {
    let run = deckspec(&[&["balance", "--json"][..], args].concat());
    assert_eq!(run.code, 0, "{args:?}: {}{}", run.stdout, run.stderr);
    serde_json::from_str(&run.stdout).expect("one JSON object")
}

/// The metric `id` of a report: its value and interval.
fn metric(report: &serde_json::Value, id: &str) -> (Option<f64>, Option<(f64, f64)>) {
    metric_in(report, "metrics", id)
}

fn metric_in(
    report: &serde_json::Value,
    list: &str,
    id: &str,
) -> (Option<f64>, Option<(f64, f64)>) {
    let m = report[list]
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
    check_in(report, "metrics", id, want);
}

/// Metric `id` of the list `list` (`metrics`, `rule_metrics`) is `want`, and its interval holds it.
fn check_in(report: &serde_json::Value, list: &str, id: &str, want: f64) {
    let (value, interval) = metric_in(report, list, id);
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
        "--specs",
        SPECS,
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
    // Each rule fires as often as a game runs what tells its scenario apart: four passes (the
    // start of each turn runs five times, the passes four); one win, though its loop runs its
    // statement four times in that one step. Skipping is only ever refused (random players try
    // it), and FIX-SEAT-1 has no scenario: neither is measured.
    assert_eq!(r["probed_games"], 300);
    check_in(&r, "rule_metrics", "rule-FIX-PASS-1-fires", 4.0);
    check_in(&r, "rule_metrics", "rule-FIX-WIN-1-fires", 1.0);
    assert_eq!(r["rule_metrics"].as_array().map(Vec::len), Some(2));
    assert_eq!(
        r["rule_activation"]["unmeasured"],
        serde_json::json!(["FIX-SEAT-1", "FIX-SKIP-1"])
    );
    let shared = &r["rule_activation"]["rules"];
    assert_eq!(
        (&shared[0]["shared_by"], &shared[1]["shared_by"]),
        (&1.into(), &1.into())
    );
}

#[test]
fn rules_are_measured_on_a_sample_of_the_games_or_say_why_not() {
    let base = ["seat_zero", "--rules", FIXTURES, "--specs", SPECS];
    let sample = study(&[&base[..], &["--games", "300", "--rule-games", "100"]].concat());
    assert_eq!(sample["probed_games"], 100);
    assert_eq!(sample["rule_activation"]["every"], 3);
    check_in(&sample, "rule_metrics", "rule-FIX-PASS-1-fires", 4.0);
    let fixture = ["seat_zero", "--rules", FIXTURES];
    for (args, why) in [
        (
            vec!["--specs", SPECS, "--rule-games", "0"],
            "--rule-games 0",
        ),
        (
            vec!["--specs", "tests/balance/no-such-folder"],
            "no scenarios at",
        ),
        (
            // Scenarios of a variant these rules lack: the coverage run's error says why.
            vec!["--specs", "spec-tests/cambia"],
            "variant `cambia` cannot be used",
        ),
    ] {
        let r = study(&[&fixture[..], &args[..]].concat());
        assert_eq!(r["probed_games"], 0, "{args:?}");
        assert_eq!(r["rule_metrics"], serde_json::json!([]), "{args:?}");
        let said = r["rule_activation"]["why_not"].as_str().unwrap_or_default();
        assert!(said.contains(why), "{args:?}: {said}");
    }
    let text = deckspec(&[
        "balance",
        "seat_zero",
        "--rules",
        FIXTURES,
        "--specs",
        SPECS,
        "--games",
        "40",
    ]);
    assert!(
        text.stdout
            .contains("rules fired a game, on 40 probed games (every game)")
            && text.stdout.contains("  FIX-PASS-1 ")
            && text.stdout.contains("not measured (no scenario, or"),
        "{}",
        text.stdout
    );
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
    // The probed games (every game here) play as the plain engine plays them.
    let unprobed = study(&[&args[..], &["--rule-games", "0"]].concat());
    assert_eq!(one["probed_games"], 300);
    assert_eq!(unprobed["metrics"], one["metrics"]);
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

/// `balance --json --compare A B …`: the comparison.
fn comparison(args: &[&str]) -> serde_json::Value {
    study(args)["comparison"].clone()
}

/// The difference of metric `id` in a comparison.
fn difference<'a>(c: &'a serde_json::Value, id: &str) -> &'a serde_json::Value {
    c["differences"]
        .as_array()
        .expect("differences")
        .iter()
        .find(|d| d["id"] == id)
        .unwrap_or_else(|| panic!("no difference {id}"))
}

fn significant(c: &serde_json::Value) -> Vec<String> {
    let all = c["differences"].as_array().expect("differences");
    all.iter()
        .filter(|d| d["significant"] == true)
        .map(|d| d["id"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn compare_finds_that_cambias_larger_penalty_gives_more_choice_and_fewer_lead_changes() {
    let c = comparison(&[
        "cambia",
        "--round",
        "500",
        "--budget",
        "1000",
        "--compare",
        "--house-rule penalty_draw_count=2",
        "--house-rule penalty_draw_count=4",
    ]);
    let found = significant(&c);
    for id in ["branching", "lead-changes", "action-draw_stockpile-uses"] {
        assert!(found.contains(&id.to_string()), "{id} not in {found:?}");
    }
    let branching = difference(&c, "branching");
    let (lo, hi) = (
        branching["interval"][0].as_f64().unwrap(),
        branching["interval"][1].as_f64().unwrap(),
    );
    // Four penalty cards make bigger hands, so more slots to name: B offers more.
    assert!(0.0 < lo && lo < hi, "{branching}");
    assert!(branching["b"].as_f64() > branching["a"].as_f64());
}

#[test]
fn compare_calls_no_difference_between_runs_of_one_configuration_but_rarely() {
    // Twenty comparisons of Cambia with itself on other deals, each looking twice at 31
    // metrics: without the corrections for looks and metrics nearly every one would call some
    // difference significant. With them, at most one in twenty should (alpha 0.05).
    let mut calling = Vec::new();
    for run in 0..20u64 {
        let seed = (run * 100_000).to_string();
        let c = comparison(&[
            "cambia",
            "--seed",
            &seed,
            "--round",
            "150",
            "--budget",
            "300",
            "--compare",
            "",
            "",
        ]);
        assert_eq!(c["games"], 300, "{c}");
        let found = significant(&c);
        if !found.is_empty() {
            calling.push((run, found));
        }
    }
    assert!(calling.len() <= 2, "{calling:?}");
}

#[test]
fn compare_on_the_same_deals_finds_every_difference_zero() {
    let c = comparison(&[
        "cambia",
        "--round",
        "100",
        "--budget",
        "200",
        "--compare",
        "--seed 5",
        "--seed 5",
    ]);
    for d in c["differences"].as_array().unwrap() {
        assert!(d["significant"] == false, "{d}");
        if let Some(x) = d["difference"].as_f64() {
            assert_eq!(x, 0.0, "{d}");
        }
    }
}

#[test]
fn compare_stops_as_soon_as_every_difference_is_decided() {
    // Every seat_zero game is the same game, so every difference is 0. A mean's interval is
    // nothing from the first look, a share's (0 of n) narrows as about 11/n at the corrected
    // level: inside 0.05 at the third look (500, 1000, then 2000 games), and the budget's last
    // two looks (4000 and 5000) are not taken.
    let c = comparison(&[
        "seat_zero",
        "--rules",
        FIXTURES,
        "--players",
        "3",
        "--round",
        "500",
        "--budget",
        "5000",
        "--margin-points",
        "0.05",
        "--compare",
        "",
        "",
    ]);
    assert_eq!(
        (&c["rounds"], &c["looks"], &c["games"]),
        (&3.into(), &5.into(), &2000.into())
    );
    assert_eq!(c["all_decided"], true);
    assert_eq!(difference(&c, "game-length")["equivalent"], true);
}

#[test]
fn compare_refuses_bad_sides_and_levels() {
    for (args, says) in [
        (
            &["balance", "cambia", "--compare", "--bogus 1", ""][..],
            "--compare `--bogus 1`: unexpected argument '--bogus'",
        ),
        (
            &[
                "balance",
                "cambia",
                "--compare",
                "",
                "--house-rule no_such=1",
            ][..],
            "no_such",
        ),
        (
            &["balance", "cambia", "--compare", "--players 13", ""][..],
            "at most 12 players",
        ),
        (
            &[
                "balance",
                "cambia",
                "--compare",
                "--rules tests/nowhere",
                "",
            ][..],
            "--compare `--rules tests/nowhere`",
        ),
        (
            &["balance", "cambia", "--alpha", "1.5", "--compare", "", ""][..],
            "--alpha",
        ),
        (
            &["balance", "cambia", "--round", "5", "--compare", "", ""][..],
            "--round",
        ),
    ] {
        let run = deckspec(args);
        assert_eq!(run.code, 2, "{args:?}: {}{}", run.stdout, run.stderr);
        assert!(run.stderr.contains(says), "{args:?}: {}", run.stderr);
    }
}

/// `tune --json …` on the coin fixture: its tuning.
fn tuning(args: &[&str]) -> serde_json::Value {
    let run = deckspec(
        &[
            &[
                "tune",
                "no_skill",
                "--rules",
                FIXTURES,
                "--players",
                "2",
                "--json",
            ][..],
            args,
        ]
        .concat(),
    );
    assert_eq!(run.code, 0, "{args:?}: {}{}", run.stdout, run.stderr);
    let json: serde_json::Value = serde_json::from_str(&run.stdout).expect("one JSON object");
    json["tuning"].clone()
}

/// The rule's values still in at the end of a tuning.
fn still_in(t: &serde_json::Value) -> Vec<f64> {
    let candidates = t["candidates"].as_array().expect("candidates");
    t["still_in"]
        .as_array()
        .expect("still_in")
        .iter()
        .map(|i| {
            candidates[i.as_u64().unwrap() as usize]["value"]
                .as_f64()
                .unwrap()
        })
        .collect()
}

#[test]
fn tune_finds_the_coins_bias_that_makes_seat_zero_win_three_games_in_ten() {
    let t = tuning(&[
        "--house-rule",
        "seat_0_percent=0..100/10",
        "--target",
        "seat-0-wins=0.3",
        "--round",
        "200",
        "--budget",
        "4000",
    ]);
    assert_eq!(still_in(&t), [30.0], "{t}");
    let candidates = t["candidates"].as_array().unwrap();
    assert_eq!(
        candidates[t["best"].as_u64().unwrap() as usize]["value"],
        30.0
    );
    // The values far from the target go out at the first look, after 200 games.
    for far in [0, 7, 8, 9, 10] {
        assert_eq!(candidates[far]["out_in_round"], 1, "{}", candidates[far]);
        assert_eq!(candidates[far]["games"], 200, "{}", candidates[far]);
    }
}

#[test]
fn tune_keeps_both_values_a_target_halfway_between_cannot_tell_apart() {
    let t = tuning(&[
        "--house-rule",
        "seat_0_percent=20,30,40,50",
        "--target",
        "seat-0-wins=0.35",
        "--round",
        "200",
        "--budget",
        "1000",
    ]);
    assert_eq!(still_in(&t), [30.0, 40.0], "{t}");
    assert_eq!(
        t["rounds"], 4,
        "the budget spent (200, 400, 800, 1000): {t}"
    );
}

#[test]
fn tune_refuses_a_range_it_cannot_race() {
    let base = ["tune", "no_skill", "--rules", FIXTURES, "--players", "2"];
    for (args, says) in [
        (
            &[
                "--house-rule",
                "seat_0_percent=30",
                "--target",
                "seat-0-wins=0.3",
            ][..],
            "no --house-rule holds a range",
        ),
        (
            &[
                "--house-rule",
                "no_such=1..3",
                "--target",
                "seat-0-wins=0.3",
            ][..],
            "no house rule `no_such`",
        ),
        (
            &[
                "--house-rule",
                "seat_0_percent=0..1/0.5",
                "--target",
                "seat-0-wins=0.3",
            ][..],
            "0.5 is not a whole number",
        ),
        (
            &[
                "--house-rule",
                "seat_0_percent=90..110/10",
                "--target",
                "seat-0-wins=0.3",
            ][..],
            "110 is outside the rule's range (0 to 100)",
        ),
        (
            &[
                "--house-rule",
                "seat_0_percent=0..1000",
                "--target",
                "seat-0-wins=0.3",
            ][..],
            "more than 64 values",
        ),
        (
            &[
                "--house-rule",
                "seat_0_percent=0..10",
                "--target",
                "seat-9-wins=0.3",
            ][..],
            "no metric `seat-9-wins`",
        ),
        (
            &[
                "--house-rule",
                "seat_0_percent=0..10",
                "--target",
                "seat-0-wins",
            ][..],
            "--target takes METRIC=VALUE",
        ),
        (
            &[
                "--house-rule",
                "seat_0_percent=0..10",
                "--target",
                "seat-0-wins=high",
            ][..],
            "`high` is not a number",
        ),
    ] {
        let run = deckspec(&[&base[..], args].concat());
        assert_eq!(run.code, 2, "{args:?}: {}{}", run.stdout, run.stderr);
        assert!(run.stderr.contains(says), "{args:?}: {}", run.stderr);
    }
}

#[test]
fn shards_merged_give_the_whole_studys_numbers_and_bad_sets_are_refused() {
    let dir = tempfile::tempdir().expect("a scratch folder");
    let write = |name: &str, args: &[&str]| {
        let run =
            deckspec(&[&["balance", "cambia", "--json", "--games", "600"][..], args].concat());
        assert_eq!(run.code, 0, "{args:?}: {}", run.stderr);
        let path = dir.path().join(name);
        std::fs::write(&path, &run.stdout).unwrap();
        path.display().to_string()
    };
    let shards: Vec<String> = (1..=3)
        .map(|k| write(&format!("{k}.json"), &["--shard", &format!("{k}/3")]))
        .collect();
    let whole = study(&["cambia", "--games", "600"]);
    let merge = |files: &[&str]| deckspec(&[&["merge", "--json"][..], files].concat());
    let merged = merge(&[&shards[2], &shards[0], &shards[1]]);
    assert_eq!(merged.code, 0, "{}", merged.stderr);
    let merged: serde_json::Value = serde_json::from_str(&merged.stdout).unwrap();
    assert_eq!(
        (&merged["games"], &merged["shard"]),
        (&600.into(), &"1/1".into())
    );
    assert_eq!(merged["end_reasons"], whole["end_reasons"]);
    // Sums merged in another order agree to the last few digits, never more.
    for (m, w) in merged["metrics"]
        .as_array()
        .unwrap()
        .iter()
        .zip(whole["metrics"].as_array().unwrap())
    {
        assert_eq!(m["id"], w["id"]);
        match (m["value"].as_f64(), w["value"].as_f64()) {
            (Some(a), Some(b)) => assert!((a - b).abs() <= 1e-12 * b.abs().max(1.0), "{m} {w}"),
            (a, b) => assert_eq!(a, b, "{m} {w}"),
        }
    }
    // The same files in any order: the same numbers, to the last digit.
    let again = merge(&[&shards[1], &shards[2], &shards[0]]);
    let again: serde_json::Value = serde_json::from_str(&again.stdout).unwrap();
    assert_eq!(again["metrics"], merged["metrics"]);
    // The rules' activation: the same games probed, whichever shard played them.
    assert_eq!(merged["probed_games"], whole["probed_games"]);
    assert_eq!(merged["rule_activation"], whole["rule_activation"]);
    let rules = |r: &serde_json::Value| -> Vec<f64> {
        r["rule_metrics"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["value"].as_f64().unwrap())
            .collect()
    };
    let (m, w) = (rules(&merged), rules(&whole));
    assert!(!w.is_empty() && m.len() == w.len());
    for (a, b) in m.iter().zip(&w) {
        assert!((a - b).abs() <= 1e-12 * b.abs().max(1.0), "{a} {b}");
    }

    let other = write("other.json", &["--shard", "3/3", "--seed", "9"]);
    let mut edited: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&shards[2]).unwrap()).unwrap();
    edited["tally"]["seat_wins"][0]["hits"] = 10_000.into();
    let edited_path = dir.path().join("edited.json");
    std::fs::write(&edited_path, edited.to_string()).unwrap();
    let edited_path = edited_path.display().to_string();
    let simulated = dir.path().join("simulate.json");
    std::fs::write(
        &simulated,
        deckspec(&["simulate", "cambia", "--games", "10", "--json"]).stdout,
    )
    .unwrap();
    let simulated = simulated.display().to_string();
    for (files, says) in [
        (vec![&shards[0], &shards[1]], "shards missing: 3/3"),
        (
            vec![&shards[0], &shards[0], &shards[1]],
            "both hold shard 1/3",
        ),
        (
            vec![&shards[0], &shards[1], &other],
            "the first seeds differ",
        ),
        (
            vec![&shards[0], &shards[1], &edited_path],
            "impossible shard 3/3: its seat wins",
        ),
        (
            vec![&shards[0], &simulated],
            "1 files are `balance --json` outputs and 1 are not",
        ),
    ] {
        let files: Vec<&str> = files.iter().map(|f| f.as_str()).collect();
        let run = merge(&files);
        assert_eq!(run.code, 2, "{files:?}: {}{}", run.stdout, run.stderr);
        assert!(run.stderr.contains(says), "{files:?}: {}", run.stderr);
    }
    let partial = deckspec(&["merge", &shards[0], &shards[1], "--allow-partial"]);
    assert_eq!(partial.code, 0, "{}", partial.stderr);
    assert!(
        partial.stdout.contains("400 games")
            && partial
                .stdout
                .contains("shard 1,2/3 of a study of 600 games"),
        "{}",
        partial.stdout
    );
    let refused = deckspec(&["balance", "cambia", "--shard", "1/2", "--compare", "", ""]);
    assert_eq!(refused.code, 2);
    assert!(
        refused
            .stderr
            .contains("--shard plays a slice of one study"),
        "{}",
        refused.stderr
    );
}
