//! `deckspec simulate` and `deckspec merge` as users run them: summaries that do not depend on
//! threads or shards, argument errors (exact messages, exit 2), merge validation, `--verify`.

use crate::common;
use common::{Run, deckspec};

/// A run that must fail with this exit code and exactly this message on stderr.
fn fails(args: &[&str], code: i32, message: &str) {
    let run = deckspec(args);
    assert_eq!(
        (run.code, run.stderr.as_str()),
        (code, message),
        "deckspec {args:?}; stdout:\n{}",
        run.stdout
    );
}

/// A run that must succeed with these lines in its output, in order.
fn succeeds(args: &[&str], lines: &[&str]) -> Run {
    let run = deckspec(args);
    assert_eq!(
        run.code, 0,
        "deckspec {args:?}:\n{}{}",
        run.stdout, run.stderr
    );
    let mut rest = run.stdout.as_str();
    for line in lines {
        match rest.find(line) {
            Some(i) => rest = &rest[i + line.len()..],
            None => panic!(
                "deckspec {args:?}: missing (in order) {line:?} in:\n{}",
                run.stdout
            ),
        }
    }
    run
}

fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("deckspec-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn summary(args: &[&str]) -> serde_json::Value {
    let run = succeeds(args, &[]);
    let mut json: serde_json::Value = serde_json::from_str(&run.stdout).expect("one JSON object");
    // Timing differs from run to run; everything else must not.
    for key in ["seconds", "games_per_second", "actions_per_second"] {
        assert!(json.get(key).is_some(), "the summary lacks {key}");
        json.as_object_mut().unwrap().remove(key);
    }
    json
}

#[test]
fn simulate_is_the_same_for_any_jobs_and_shards_merge_exactly() {
    let base = [
        "simulate",
        "cambia",
        "--players",
        "3",
        "--games",
        "40",
        "--seed",
        "7",
        "--bots",
        "random,expert,easy",
        "--json",
    ];
    let one = summary(&[&base[..], &["--jobs", "1"]].concat());
    let two = summary(&[&base[..], &["--jobs", "2"]].concat());
    assert_eq!(one, two);
    assert_eq!(one["games"], 40);
    assert!(one["actions"].as_u64().unwrap() > 0);

    let dir = scratch("shards");
    let mut files = Vec::new();
    for k in 1..=3 {
        let run = succeeds(&[&base[..], &["--shard", &format!("{k}/3")]].concat(), &[]);
        let file = dir.join(format!("shard{k}.json"));
        std::fs::write(&file, run.stdout).unwrap();
        files.push(file.display().to_string());
    }
    let mut args = vec!["merge", "--json"];
    args.extend(files.iter().map(String::as_str));
    assert_eq!(summary(&args), one);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn simulate_reports_bad_arguments() {
    fails(
        &["simulate", "cambia", "--bots", "expret"],
        2,
        "error: --bots: `expret` is not a seat kind: use random, easy, medium, hard or expert (did you mean `expert`?)\n",
    );
    fails(
        &["simulate", "cambia", "--shard", "4/3"],
        2,
        "error: --shard takes K/N with 1 ≤ K ≤ N, as in 2/8, not `4/3`\n",
    );
    fails(
        &["simulate", "cambia", "--house-rule", "penalty_draw_cuont=3"],
        2,
        "error: --house-rule: unknown house rule `penalty_draw_cuont` (did you mean `penalty_draw_count`?)\n",
    );
    assert_eq!(deckspec(&["simulate", "cambai"]).code, 2);
    succeeds(
        &[
            "simulate",
            "cambia",
            "--games",
            "5",
            "--house-rule",
            "penalty_draw_count=3",
        ],
        &["games: 5", "actions/s:", "ended by:"],
    );
}

#[test]
fn simulate_checks_every_count_before_playing() {
    let cases: [(&[&str], &str); 13] = [
        (
            &["--players", "0"],
            "--players takes 1 to 32 players, not 0",
        ),
        (
            &["--players", "100"],
            "--players takes 1 to 32 players, not 100",
        ),
        (&["--games", "0"], "--games takes 1 game or more, not 0"),
        (&["--jobs", "0"], "--jobs takes 1 to 256 threads, not 0"),
        (
            &["--jobs", "100000"],
            "--jobs takes 1 to 256 threads, not 100000",
        ),
        (
            &["--shard", "0/3"],
            "--shard takes K/N with 1 ≤ K ≤ N, as in 2/8, not `0/3`",
        ),
        (
            &["--shard", "2"],
            "--shard takes K/N with 1 ≤ K ≤ N, as in 2/8, not `2`",
        ),
        (
            &["--shard", "a/b"],
            "--shard takes K/N with 1 ≤ K ≤ N, as in 2/8, not `a/b`",
        ),
        (
            &["--bots", "easy,hard"],
            "--bots names 2 seats, but there are 4 players: give one level for every seat or one per seat",
        ),
        (
            &["--seed", "18446744073709551615", "--games", "2"],
            "--seed 18446744073709551615 with --games 2 needs seeds past 18446744073709551615: use a smaller --seed or --games",
        ),
        (
            &["--house-rule", "penalty_draw_count=many"],
            "--house-rule: house rule `penalty_draw_count` takes an integer, not `many`",
        ),
        (
            &["--house-rule", "initial_peek_slots=[0, -1]"],
            "--house-rule: house rule `initial_peek_slots` has -1 as entry 2, below the least, 0",
        ),
        (
            &["--house-rule", "initial_peek_slots=[x]"],
            "--house-rule: house rule `initial_peek_slots` has x as entry 1, not a whole number",
        ),
    ];
    for (args, message) in cases {
        fails(
            &[&["simulate", "cambia"][..], args].concat(),
            2,
            &format!("error: {message}\n"),
        );
    }
    // Outside the variant's declared player range: refused before any game is made.
    for (players, message) in [
        (
            "1",
            "error: --players: cambia is for 2 to 12 players, not 1: at least 2 players\n",
        ),
        (
            "20",
            "error: --players: cambia is for 2 to 12 players, not 20: at most 12 players\n",
        ),
    ] {
        fails(&["simulate", "cambia", "--players", players], 2, message);
    }
    let run = deckspec(&[
        "simulate",
        "cambia",
        "--house-rule",
        "penalty_draw_count=2.5",
    ]);
    assert_eq!(
        run.stderr,
        "error: --house-rule: house rule `penalty_draw_count` takes an integer, not `2.5`\n"
    );
    assert_eq!(run.stdout, "");
}

#[test]
fn simulate_checks_bot_levels_against_the_variant() {
    let dir = scratch("bots");
    let rules = dir.join("rules");
    // bots.yaml must define every level, so a variant either has them all or none.
    for name in ["plain"] {
        let to = rules.join(name);
        std::fs::create_dir_all(&to).unwrap();
        for entry in std::fs::read_dir("rules/cambia").unwrap().flatten() {
            let file = entry.file_name();
            if file.to_string_lossy().starts_with("bots.") {
                continue;
            }
            let text = std::fs::read_to_string(entry.path()).unwrap();
            let text = text
                .replace("name: cambia", &format!("name: {name}"))
                .replace("\nvariant: cambia", &format!("\nvariant: {name}"));
            std::fs::write(to.join(&file), text).unwrap();
        }
    }
    let rules = rules.display().to_string();
    fails(
        &["simulate", "plain", "--rules", &rules, "--bots", "easy"],
        2,
        &format!(
            "error: --bots: plain has no computer players (no bots.yaml in {rules}/plain): use --bots random\n"
        ),
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn huge_studies_stream_their_games() {
    // A billion games in a hundred million shards: the last shard holds ten games. Listing the
    // study's games up front took minutes (and 4 GB without --shard); now it starts at once.
    succeeds(
        &[
            "simulate",
            "cambia",
            "--games",
            "1000000000",
            "--shard",
            "100000000/100000000",
            "--seed",
            "5",
        ],
        &["cambia: 10 games of 4 players", "games: 10\n"],
    );
}

/// The `--json` summary of one shard of a 3-player Cambia study of 12 games from seed 3, with
/// options replaced or added, as a file.
fn shard_file(dir: &std::path::Path, name: &str, changes: &[(&str, &str)]) -> String {
    let mut options = vec![
        ("--players", "3"),
        ("--games", "12"),
        ("--seed", "3"),
        ("--bots", "random,easy,medium"),
    ];
    for (key, value) in changes {
        match options.iter_mut().find(|(k, _)| k == key) {
            Some(option) => option.1 = value,
            None => options.push((key, value)),
        }
    }
    let mut args = vec!["simulate", "cambia", "--json"];
    args.extend(options.iter().flat_map(|(k, v)| [*k, *v]));
    let run = succeeds(&args, &[]);
    let file = dir.join(format!("{name}.json"));
    std::fs::write(&file, run.stdout).unwrap();
    file.display().to_string()
}

/// The three shards of the study above.
fn shard_files(dir: &std::path::Path) -> Vec<String> {
    (1..=3)
        .map(|k| shard_file(dir, &format!("s{k}"), &[("--shard", &format!("{k}/3"))]))
        .collect()
}

/// A summary file with one field replaced.
fn edited(file: &str, to: &str, edit: impl FnOnce(&mut serde_json::Value)) -> String {
    let mut json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap();
    edit(&mut json);
    std::fs::write(to, json.to_string()).unwrap();
    to.to_string()
}

#[test]
fn merge_rejects_shards_of_other_studies_twice_or_missing() {
    let dir = scratch("merge-checks");
    let s = shard_files(&dir);
    let (s1, s2, s3) = (s[0].as_str(), s[1].as_str(), s[2].as_str());
    fails(
        &["merge", s1, s2, s1],
        2,
        &format!("error: {s1} and {s1} both hold shard 1/3: merge each shard once\n"),
    );
    fails(
        &["merge", s1, s2],
        2,
        "error: shard 3/3 is missing (8 of the study's 12 games are here): merge them too, or pass --allow-partial to summarize the shards given\n",
    );
    succeeds(
        &["merge", s1, s3, "--allow-partial"],
        &[
            "cambia: 8 games of 3 players",
            "note: partial study: shards 1,3/3 hold 8 of its 12 games; missing shards: 2 of 3\n",
        ],
    );
    let partial = succeeds(&["merge", s1, s3, "--allow-partial", "--json"], &[]);
    let json: serde_json::Value = serde_json::from_str(&partial.stdout).unwrap();
    assert_eq!(
        (&json["shard"], &json["missing_shards"]),
        (&"1,3/3".into(), &"2".into())
    );
    // A partial merge merges again with the shards it lacks.
    let p13 = dir.join("p13.json").display().to_string();
    std::fs::write(&p13, &partial.stdout).unwrap();
    let whole = succeeds(&["merge", &p13, s2, "--json"], &[]);
    let whole: serde_json::Value = serde_json::from_str(&whole.stdout).unwrap();
    assert_eq!(
        (&whole["shard"], whole["games"].as_u64()),
        (&"1/1".into(), Some(12))
    );
    fails(
        &["merge", &p13, s3],
        2,
        &format!("error: {p13} and {s3} both hold shard 3/3: merge each shard once\n"),
    );

    let other =
        |name: &str, change: (&str, &str)| shard_file(&dir, name, &[("--shard", "3/3"), change]);
    let seed = other("seed", ("--seed", "4"));
    fails(
        &["merge", s1, s2, &seed],
        2,
        &format!(
            "error: {seed} is not a shard of the study of {s1}: the first seeds differ ({s1}: 3; {seed}: 4)\n"
        ),
    );
    let size = other("size", ("--games", "13"));
    fails(
        &["merge", s1, &size],
        2,
        &format!(
            "error: {size} is not a shard of the study of {s1}: the study sizes differ ({s1}: 12 games; {size}: 13 games)\n"
        ),
    );
    let house = other("house", ("--house-rule", "penalty_draw_count=3"));
    fails(
        &["merge", s1, &house],
        2,
        &format!(
            "error: {house} is not a shard of the study of {s1}: the house rules differ ({s1}: none; {house}: penalty_draw_count=3)\n"
        ),
    );
    let seats = edited(s3, &format!("{}/seats.json", dir.display()), |j| {
        j["seats"][2] = "hard".into()
    });
    fails(
        &["merge", s1, &seats],
        2,
        &format!(
            "error: {seats} is not a shard of the study of {s1}: the seats differ ({s1}: random, easy, medium; {seats}: random, easy, hard)\n"
        ),
    );
    let rules = edited(s3, &format!("{}/rules.json", dir.display()), |j| {
        j["rules_fingerprint"] = "sha256:0".into()
    });
    let theirs = serde_json::from_str::<serde_json::Value>(&std::fs::read_to_string(s1).unwrap())
        .unwrap()["rules_fingerprint"]
        .as_str()
        .unwrap()
        .to_string();
    fails(
        &["merge", s1, &rules],
        2,
        &format!(
            "error: {rules} is not a shard of the study of {s1}: the rules fingerprints differ ({s1}: {theirs}; {rules}: sha256:0)\n"
        ),
    );
    let variant = edited(s3, &format!("{}/variant.json", dir.display()), |j| {
        j["variant"] = "dutch".into()
    });
    fails(
        &["merge", s1, &variant],
        2,
        &format!(
            "error: {variant} is not a shard of the study of {s1}: the variants differ ({s1}: cambia; {variant}: dutch)\n"
        ),
    );
    let quarter = shard_file(&dir, "quarter", &[("--shard", "4/4")]);
    fails(
        &["merge", s1, &quarter],
        2,
        &format!(
            "error: {quarter} is not a shard of the study of {s1}: the shard counts differ ({s1}: shard 1/3; {quarter}: shard 4/4)\n"
        ),
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn merge_rejects_impossible_counts_and_overflow() {
    let dir = scratch("merge-counts");
    let s = shard_files(&dir);
    let at = |name: &str| format!("{}/{name}.json", dir.display());
    let wins = edited(&s[0], &at("wins"), |j| j["seat_wins"][1] = 5000.into());
    fails(
        &["merge", &wins],
        2,
        &format!("error: {wins}: impossible summary: seat 1 won 5000 of 4 games\n"),
    );
    let games = edited(&s[0], &at("games"), |j| j["games"] = 5.into());
    fails(
        &["merge", &games],
        2,
        &format!(
            "error: {games}: impossible summary: 5 games, but shard 1/3 of a 12-game study holds 4\n"
        ),
    );
    let lengths = edited(&s[0], &at("lengths"), |j| j["actions"] = 1.into());
    let run = deckspec(&["merge", &lengths]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.starts_with(&format!(
            "error: {lengths}: impossible summary: 1 actions, but the game lengths add up to "
        )),
        "{}",
        run.stderr
    );
    // Two shards of one game each, both as long as a 64-bit count allows: each is possible,
    // their sum is not.
    let huge = |file: &str, name: &str| {
        edited(file, &at(name), |j| {
            let max = serde_json::json!(u64::MAX);
            let reason = j["end_reasons"]
                .as_object()
                .unwrap()
                .keys()
                .next()
                .unwrap()
                .clone();
            j["study_games"] = 2.into();
            j["games"] = 1.into();
            j["actions"] = max.clone();
            j["length_min"] = max.clone();
            j["length_max"] = max.clone();
            j["lengths"] = serde_json::json!({ u64::MAX.to_string(): 1 });
            j["end_reasons"] = serde_json::json!({ reason: 1 });
            j["scores"] = serde_json::json!({"7": 3});
            j["seat_wins"] = serde_json::json!([1, 0, 0]);
            j["tied_games"] = 0.into();
            j["bot_decisions"] = 0.into();
            j["bot_refusals"] = 0.into();
            j["shard"] = if name == "huge1" { "1/2" } else { "2/2" }.into();
        })
    };
    let (h1, h2) = (huge(&s[0], "huge1"), huge(&s[1], "huge2"));
    fails(
        &["merge", &h1, &h2],
        2,
        &format!("error: {h2}: the actions overflow 64 bits when added to the files before it\n"),
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn summaries_say_when_shared_wins_exceed_the_games() {
    // Check's seeds 0-39 with 4 random players have one tied game.
    let run = succeeds(
        &["simulate", "check", "--games", "40", "--seed", "0"],
        &[
            "note: seat wins add up to 41 for 40 games: 1 game had tied winners, and a tie counts as a win for each of them\n",
        ],
    );
    assert!(run.stdout.contains("games: 40\n"));
    let json = summary(&[
        "simulate", "check", "--games", "40", "--seed", "0", "--json",
    ]);
    assert_eq!(
        (&json["tied_games"], &json["seat_wins_total"]),
        (&1.into(), &41.into())
    );
    assert!(
        json["notes"][0]
            .as_str()
            .unwrap()
            .starts_with("seat wins add up to 41")
    );
}

/// House rules at values other than their defaults, per variant (the soak in README.md uses the
/// same).
const SOAK_HOUSE_RULES: [(&str, &[&str]); 4] = [
    (
        "cambia",
        &[
            "use_jokers=false",
            "initial_peek_slots=[1,2]",
            "allow_draw_from_discard_pile=true",
            "allow_replace_abilities=true",
            "penalty_draw_count=3",
            "compact_hands=false",
            "turn_timer_seconds=5",
        ],
    ),
    (
        "check",
        &["initial_peek_slots=[0,1]", "penalty_draw_count=2"],
    ),
    (
        "recall",
        &[
            "initial_peek_seconds=3",
            "draw_seconds=4",
            "play_seconds=4",
            "same_rank_seconds=2",
            "special_seconds=3",
            "allow_draw_from_discard=false",
            "penalty_draw_count=2",
        ],
    ),
    ("dutch", &["allow_draw_from_discard=true"]),
];

#[test]
fn verified_games_of_every_variant_keep_the_invariants() {
    // 30 verified games per variant in CI (10 at a developer's size): 2 to 6 players, random
    // seats and every bot level, house rules off their defaults. (The long soak is a --release
    // command: README.md "Soak".)
    let games = common::size::by_size(2, 6).to_string();
    let kinds = ["random", "expert", "easy", "random", "hard", "medium"];
    for (variant, rules) in SOAK_HOUSE_RULES {
        for players in 2..=6usize {
            let (players_text, seed) = (players.to_string(), (players * 1000).to_string());
            let bots = kinds[..players].join(",");
            let mut args = vec![
                "simulate",
                variant,
                "--verify",
                "--games",
                &games,
                "--players",
                &players_text,
                "--seed",
                &seed,
                "--bots",
                &bots,
                "--jobs",
                "2",
            ];
            for rule in rules {
                args.extend(["--house-rule", rule]);
            }
            succeeds(
                &args,
                &[
                    &format!("{variant}: {games} games of {players} players"),
                    &format!("games: {games}\n"),
                ],
            );
        }
    }
}

#[test]
fn verify_plays_the_same_games() {
    let base = [
        "simulate",
        "dutch",
        "--players",
        "3",
        "--games",
        "8",
        "--bots",
        "random,hard,easy",
        "--json",
    ];
    assert_eq!(
        summary(&base),
        summary(&[&base[..], &["--verify"]].concat())
    );
}

#[test]
fn verify_names_the_game_and_step_of_a_leak() {
    // Cambia with one change: the draw's public event also carries the drawn card's face text,
    // laundered through string interpolation so that the script layer's guard (which refuses a
    // face value passed on as it is) does not see it: the soak's own check must.
    let dir = scratch("leaky");
    let to = dir.join("rules/leaky");
    std::fs::create_dir_all(&to).unwrap();
    for entry in std::fs::read_dir("rules/cambia").unwrap().flatten() {
        let text = std::fs::read_to_string(entry.path()).unwrap();
        let text = text
            .replace("name: cambia", "name: leaky")
            .replace("\nvariant: cambia", "\nvariant: leaky")
            .replace(
            r#"card: card, stockpileSize: game.pile_size("stockpile")"#,
            r#"card: card, stockpileSize: game.pile_size("stockpile"), note: `${game.face(card)}`"#,
        );
        std::fs::write(to.join(entry.file_name()), text).unwrap();
    }
    let rules = dir.join("rules").display().to_string();
    for jobs in ["1", "2"] {
        fails(
            &[
                "simulate",
                "leaky",
                "--rules",
                &rules,
                "--games",
                "3",
                "--players",
                "3",
                "--verify",
                "--jobs",
                jobs,
            ],
            1,
            "error: game 0: verification failed: step 3: possible leak: event `player_draw_stockpile` for p0 contains the text \"6D\", the face of the card in the pile `held`, which p0 does not know\n",
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// A copy of the bundled Cambia whose bots try to draw again instead of discarding.
fn refused_bots(dir: &std::path::Path) -> String {
    let rules = dir.join("rules");
    let cambia = rules.join("cambia");
    std::fs::create_dir_all(&cambia).unwrap();
    for entry in std::fs::read_dir("rules/cambia").unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(&path, cambia.join(path.file_name().unwrap())).unwrap();
    }
    let bots = cambia.join("bots.rhai");
    let text = std::fs::read_to_string(&bots).unwrap();
    let broken = text.replace(
        r#""awaiting_discard" => keep_or_discard(view),"#,
        r#""awaiting_discard" => #{ action: "draw_stockpile" },"#,
    );
    assert_ne!(text, broken, "the bot script changed: update this edit");
    std::fs::write(&bots, broken).unwrap();
    rules.display().to_string()
}

#[test]
fn refused_bots_are_reported_loudly_and_strict_stops_at_the_first() {
    let dir = scratch("refused");
    let rules = refused_bots(&dir);
    let args = [
        "simulate", "cambia", "--rules", &rules, "--bots", "expert", "--games", "20",
    ];
    let run = succeeds(
        &args,
        &[
            "bot decisions: 1134, refused: 238, on unknown cards: 0\n",
            "note: the rules refused 238 of 1134 bot decisions (21.0%), each a bug in the bot script; the first: game 0, the expert bot in seat 3 chose `draw_stockpile` (you have already drawn a card); --strict stops at the first\n",
        ],
    );
    assert_eq!(
        run.stderr,
        "warning: the rules refused 21.0% of the bots' decisions: this study does not measure the bots' play (the summary's note names the first refusal; --strict stops at it)\n"
    );
    let json = summary(&[&args[..], &["--json", "--jobs", "3"]].concat());
    assert_eq!(
        json["first_refusal"],
        serde_json::json!({"seed": 0, "level": "expert", "seat": 3, "action": "draw_stockpile", "reason": "you have already drawn a card"})
    );
    fails(
        &[&args[..], &["--strict", "--seed", "5"]].concat(),
        1,
        "error: game 5: the expert bot in seat 1 chose `draw_stockpile`, which the rules refused (you have already drawn a card): a bug in the bot script\n",
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn summaries_count_draws_and_print_rates_without_nested_brackets() {
    let run = succeeds(
        &["simulate", "check", "--games", "40", "--seed", "0"],
        &[
            "seat 0 (random): won ",
            "level random: ",
            "draws: 1 with tied winners, 0 with no winner\n",
        ],
    );
    let seat = run
        .stdout
        .lines()
        .find(|l| l.starts_with("seat 0"))
        .unwrap();
    assert!(
        seat.contains("%, 95% CI ") && seat.matches('(').count() == 1,
        "{seat}"
    );
    let json = summary(&[
        "simulate", "check", "--games", "40", "--seed", "0", "--json",
    ]);
    assert_eq!(
        (&json["tied_games"], &json["no_winner_games"]),
        (&1.into(), &0.into())
    );
}

/// The progress bar, as a terminal shows it (under `script`, which gives the run a terminal):
/// a whole number of games per second.
#[test]
fn the_progress_bar_shows_whole_games_per_second() {
    let Ok(out) = std::process::Command::new("script")
        .args(["-qc"])
        .arg(format!(
            "{} simulate cambia --games 400 --jobs 1 >/dev/null",
            env!("CARGO_BIN_EXE_deckspec")
        ))
        .arg("/dev/null")
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
    else {
        use std::io::Write;
        let _ = writeln!(
            std::io::stderr(),
            "SKIPPED the_progress_bar_shows_whole_games_per_second: no `script` (util-linux) here"
        );
        return;
    };
    let screen = String::from_utf8_lossy(&out.stdout).replace('\r', "\n");
    let rates: Vec<&str> = screen
        .lines()
        .filter_map(|l| l.split(" games, ").nth(1)?.split(" games/s").next())
        .collect();
    assert!(!rates.is_empty(), "no progress bar drawn:\n{screen}");
    for rate in rates {
        assert!(
            rate.chars().all(|c| c.is_ascii_digit()),
            "rate {rate:?} is not a whole number"
        );
    }
}

/// Cambia's bots end every game at a full table too: eight expert players without jokers once
/// went round for ever (game 74 of seed 0 is the first that did), since they called only below a
/// threshold that time raises and no time passes while bots answer at once; and twelve players
/// of every level, the most the rules take.
#[test]
fn cambia_bots_end_their_games_at_eight_and_twelve_players() {
    succeeds(
        &[
            "simulate",
            "cambia",
            "--players",
            "8",
            "--bots",
            "expert",
            "--games",
            "10",
            "--seed",
            "70",
            "--house-rule",
            "use_jokers=false",
        ],
        &["games: 10\n", "ended by: cambia 10\n"],
    );
    succeeds(
        &[
            "simulate",
            "cambia",
            "--players",
            "12",
            "--bots",
            "easy,medium,hard,expert,easy,medium,hard,expert,easy,medium,hard,expert",
            "--games",
            "20",
            "--house-rule",
            "use_jokers=false",
        ],
        &["games: 20\n"],
    );
}
