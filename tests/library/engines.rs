//! The two script engines against each other: random and bot games of every bundled variant with
//! every hook call run on both (`sim::Twin`), and a Twin that must notice when they differ.
//!
//! The full differential run (10,000 random and 10,000 bot games per variant) is a release
//! command in `.ci/run`: `deckspec simulate <variant> --games 10000 --compare-engines`.

use deckspec::kernel::{Action, Game, Seat};
use deckspec::script::differential::{Differential, Outcome, generate};
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

/// The error of a study whose compiled side runs recall.rhai with `original` replaced by
/// `changed`, against the interpreter on the rules as they are.
fn study_with_compiled_recall_changed(original: &str, changed: &str) -> String {
    let path = rules().join("recall").join("recall.rhai");
    let text = std::fs::read_to_string(&path).expect("recall.rhai");
    assert!(text.contains(original), "the mutation applies");
    let changed = text.replace(original, changed);
    let subject = load("recall", EngineKind::Compiled, &[(path, changed)]);
    let reference = load("recall", EngineKind::Interpreted, &[]);
    compare(&subject, &reference, vec![Seating::Random; 3], 20, 5)
        .expect_err("the engines differ")
        .to_string()
}

#[test]
fn a_difference_between_the_engines_stops_the_study_and_says_where() {
    // The compiled side runs a script whose draw event tells the pile's size one too high.
    let text = study_with_compiled_recall_changed(
        "card: card, drawPileSize: game.pile_size(\"draw_pile\") }",
        "card: card, drawPileSize: game.pile_size(\"draw_pile\") + 1 }",
    );
    assert!(
        text.contains("the engines differ on `draw` by seat ")
            && text.contains("their event logs differ from event "),
        "{text}"
    );
}

#[test]
fn a_difference_in_the_operations_counted_stops_the_study_and_says_where() {
    // The compiled side's draw hook runs one statement more that changes nothing else.
    let text = study_with_compiled_recall_changed(
        "fn on_draw(game, p, args) {",
        "fn on_draw(game, p, args) {\n    let unused = 0;",
    );
    assert!(
        text.contains("the engines count different operations on `draw` by seat ")
            && text.contains("compiled"),
        "{text}"
    );
}

/// Each action of a fixture variant (tests/engines/fixtures) on a fresh game, its events kept
/// or not: the action, the `Result`'s text and the game after it.
fn fixture_games(
    fixture: &str,
    engine: EngineKind,
    keep_events: bool,
) -> Vec<(String, String, Game)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/engines/fixtures");
    let mut variant = Variant::load_named(&root, fixture).expect("the fixture loads");
    variant.set_engine(engine);
    let actions: Vec<_> = variant
        .table()
        .actions
        .iter()
        .map(|a| a.name.clone())
        .collect();
    on_script_thread(|| {
        actions
            .iter()
            .map(|name| {
                let players = vec!["ann".to_string(), "bob".to_string()];
                let mut game = Game::new(variant.table().clone(), players, 7, &[]).unwrap();
                game.set_keep_events(keep_events);
                game.start(&variant).unwrap();
                let action = Action {
                    seat: Seat(0),
                    name: name.clone(),
                    args: vec![],
                };
                let result = game.apply(&variant, &action);
                (name.to_string(), format!("{result:?}"), game)
            })
            .collect()
    })
    .expect("the script thread runs")
}

/// The result of each action of a fixture variant: the `Result`'s text and the saved game,
/// events included.
fn fixture_outcomes(fixture: &str, engine: EngineKind) -> Vec<(String, String, String)> {
    fixture_games(fixture, engine, true)
        .into_iter()
        .map(|(name, result, game)| {
            let saved = serde_json::to_string(&game.save()).unwrap();
            (name, result, saved)
        })
        .collect()
}

/// A fixture's outcomes (`fixture_outcomes`), the same on both engines.
fn agreed_outcomes(fixture: &str) -> Vec<(String, String, String)> {
    let compiled = fixture_outcomes(fixture, EngineKind::Compiled);
    let interpreted = fixture_outcomes(fixture, EngineKind::Interpreted);
    assert_eq!(compiled.len(), interpreted.len());
    for (c, i) in compiled.iter().zip(&interpreted) {
        assert_eq!(c, i, "the engines differ on `{}`", c.0);
    }
    compiled
}

/// The action `name`'s outcome among `outcomes`: its result's text and the saved game.
fn outcome<'a>(outcomes: &'a [(String, String, String)], name: &str) -> (&'a str, &'a str) {
    let (_, result, saved) = outcomes.iter().find(|o| o.0 == name).expect("the action");
    (result.as_str(), saved.as_str())
}

/// Each named action of `outcomes` failed, its error saying what is paired with it.
fn assert_fail(outcomes: &[(String, String, String)], failures: &[(&str, &str)]) {
    for (name, says) in failures {
        let (text, _) = outcome(outcomes, name);
        assert!(
            text.starts_with("Err(") && text.contains(says),
            "{name}: {text}"
        );
    }
}

#[test]
fn literal_names_and_event_map_literals_give_the_same_results_on_both_engines() {
    let compiled = agreed_outcomes("names");
    let result = |name: &str| outcome(&compiled, name);
    // The failures name what is wrong, as the general path does.
    assert_fail(
        &compiled,
        &[
            ("get_unknown", "`nope` is not a game variable"),
            ("set_unknown", "`nope` is not a game variable"),
            ("pget_unknown", "`nope` is not a player variable"),
            ("pset_unknown", "`nope` is not a player variable"),
            ("pget_not_a_player", "not with (Game, i64,"),
            ("chain_unknown", "`nope` is not a player variable"),
            ("chain_not_a_player", "not with (Game, i64,"),
            ("pile_unknown", "`nowhere` is not a pile"),
            ("phase_unknown", "`nowhere` is not a phase"),
            ("phase_of_a_number", "Unknown property 'phase'"),
            ("house_unknown", "`nope` is not a house rule"),
            ("native_wrong_type", "not with (Game, i64)"),
            ("native_wrong_receiver", "not with (i64, Player)"),
            (
                "native_called_as_a_function_wrongly",
                "`hand_count` is called as game.hand_count(player), not with (Game, &str",
            ),
            ("event_unknown", "`nope` is not an event"),
            ("tell_not_a_player", "not with (Game, i64,"),
            (
                "event_not_on_a_game",
                "`broadcast` is called as game.broadcast",
            ),
            ("event_strings_too_long", "past the size limits"),
            ("event_local_strings_too_long", "past the size limits"),
            ("event_lists_too_long", "past the size limits"),
            ("event_nested_maps_too_large", "past the size limits"),
            ("event_nested_strings_too_long", "past the size limits"),
            ("event_with_a_function", "a Fn cannot go in an event"),
            (
                "event_unknown_card_face",
                "`rank` (`7`) was read from the face of a card",
            ),
        ],
    );
    // The rest succeed, with their events' fields in key order.
    for name in [
        "names_known",
        "chain_known",
        "chain_on_a_map",
        "event_with_lists",
        "event_with_nested_locals",
        "event_in_key_order",
        "event_player_changed_by_a_field",
        "native_called_as_a_function",
        "event_fields_from_locals",
        "event_local_changed_by_a_later_field",
        "phase_compared",
    ] {
        assert_eq!(result(name).0, "Ok(())", "{name}");
    }
    // The phase compared by its index gives what comparing its name gives.
    let (_, saved) = result("phase_compared");
    let (t, f) = (r#"{"Bool":true}"#, r#"{"Bool":false}"#);
    let (playing, over) = (r#"{"Str":"playing"}"#, r#"{"Str":"over"}"#);
    let expected = [t, f, f, t, f, t, t, t, playing, over, t, f, over].join(",");
    assert!(
        saved.contains(&format!(r#""game_vars":[{{"List":[{expected}]}}]"#)),
        "{saved}"
    );
    assert!(
        result("native_called_as_a_function")
            .1
            .contains(r#""game_vars":[{"Int":4}]"#),
        "{}",
        result("native_called_as_a_function").1
    );
    let (_, saved) = result("event_in_key_order");
    let apple = saved.find("\"apple\"").expect("apple");
    let mango = saved.find("\"mango\"").expect("mango");
    let zebra = saved.find("\"zebra\"").expect("zebra");
    assert!(apple < mango && mango < zebra, "{saved}");
    // The values were evaluated in the order written.
    assert!(
        saved.contains(r#"["order",{"List":[{"Str":"z"},{"Str":"a"}]}]"#),
        "{saved}"
    );
    // Fields read from local variables where they are: the values as written, and a local
    // that a later field changes keeps the value it had when its field was reached.
    let (_, saved) = result("event_fields_from_locals");
    assert!(
        saved.contains(r#"["n",{"Int":3}],["none","Null"],["s",{"Str":"word"}]"#)
            && saved.contains(r#"["user",{"Player":0}]"#)
            && saved.contains(r#"["other",{"Player":0}],["user",{"Player":1}]"#),
        "{saved}"
    );
    let (_, saved) = result("event_local_changed_by_a_later_field");
    assert!(
        saved.contains(r#"[["a",{"Int":1}],["b",{"Int":2}],["c",{"List":[{"Int":1},{"Int":2}]}],["d",{"Int":2}]]"#)
            && saved.contains(r#"[["list",{"List":[{"Int":1}]}],["x",{"Int":2}]]"#),
        "{saved}"
    );
    // Kernel values compared in place, as Rhai compares them; phase names as the table has them.
    let (text, saved) = result("kernel_values_compared");
    assert_eq!(text, "Ok(())");
    let b = |v: bool| format!(r#"{{"Bool":{v}}}"#);
    let mut seen: Vec<String> = [true, false, false, true, true, false, true, false, true]
        .into_iter()
        .chain([false, true])
        .map(b)
        .collect();
    seen.insert(11, r#"{"Str":"playing"}"#.into());
    seen.push(b(true));
    seen.push(r#"{"Str":"over"}"#.into());
    let seen = format!(r#"["seen",{{"List":[{}]}}]"#, seen.join(","));
    assert!(saved.contains(&seen), "{seen}\n{saved}");
    let (text, _) = result("located_cards_compared");
    assert!(
        text.contains("Function not found: == (LocatedCard, LocatedCard)"),
        "{text}"
    );
    let (text, saved) = result("player_variable_written_unchanged");
    assert_eq!(text, "Ok(())");
    assert!(
        saved.contains(r#"["seen",{"List":[{"Bool":false},{"Bool":true}]}]"#),
        "{saved}"
    );
    // `-0.0` over `0.0` is written: equal, but another number.
    assert!(
        saved.contains(r#""player_vars":[[{"Float":-0.0}],[{"Bool":true}]]"#),
        "{saved}"
    );
}

#[test]
fn variable_calls_give_the_same_results_on_both_engines() {
    let compiled = agreed_outcomes("names");
    let result = |name: &str| outcome(&compiled, name);
    // Values lent from local variables and values evaluated are stored and read back as written.
    let (text, saved) = result("variables_lent_and_evaluated");
    assert_eq!(text, "Ok(())");
    let list = r#"{"List":[{"Int":1},{"Str":"two"},{"Player":1}]}"#;
    assert!(
        saved.contains(&format!(
            r#""game_vars":[{{"List":[{list},{list},{{"Int":7}},{list}]}}]"#
        )),
        "{saved}"
    );
    // House rules and piles read by name, as written.
    let (text, saved) = result("reads_known");
    assert_eq!(text, "Ok(())");
    assert!(
        saved.contains(r#""game_vars":[{"List":[{"Int":48},{"Int":2},"Unit",{"Int":0},{"Bool":true},{"Int":1}]}]"#),
        "{saved}"
    );
    // A card's entries read in place, as written.
    let (text, saved) = result("card_reads_known");
    assert_eq!(text, "Ok(())");
    let read = r#"{"Str":"6"},{"Int":6},{"Str":"D"},{"Str":"6D"},{"Bool":true},{"Int":6}"#;
    let placed = r#"{"Player":0},{"Int":0},{"Bool":false},"Unit",{"Int":-1}"#;
    assert!(
        saved.contains(&format!(r#""game_vars":[{{"List":[{read},{placed}]}}]"#)),
        "{saved}"
    );
    // A map's own `get` is called as the map's; the rest fail as the general path fails.
    let (text, saved) = result("variable_on_a_map");
    assert_eq!(text, "Ok(())");
    assert!(
        saved.contains(r#""game_vars":[{"Str":"note!"}]"#),
        "{saved}"
    );
    assert_fail(
        &compiled,
        &[
            ("variable_given_the_game", "a Game cannot be stored"),
            ("player_variable_given_the_game", "a Game cannot be stored"),
            ("player_variable_of_the_game", "not with (Game, Game,"),
            ("variable_on_a_number", "not with (i64, &str"),
            ("pile_read_on_a_number", "not with (i64, &str"),
            ("card_read_of_a_number", "not with (Game, i64)"),
            ("card_read_on_a_number", "not with (i64, Card)"),
            (
                "card_read_of_an_unknown_card",
                "was read from the face of a card",
            ),
            ("variable_given_a_face", "was read from the face of a card"),
            (
                "variable_given_a_face_for_everyone",
                "was read from the face of a card",
            ),
        ],
    );
}

#[test]
fn for_loops_over_players_and_hands_give_the_same_results_on_both_engines() {
    let compiled = agreed_outcomes("items");
    // What each loop saw, from its event (the saved game's log).
    let seen = |name: &str| {
        let (_, result, saved) = compiled.iter().find(|o| o.0 == name).expect("the action");
        let log = saved.find("\"log\"").map_or("", |at| &saved[at..]);
        (result.clone(), log.to_string())
    };
    for (name, says) in [
        (
            "players_in_order",
            r#"{"List":[{"Player":0},{"Player":1}]}"#,
        ),
        (
            "players_with_counter",
            r#"[{"List":[{"Int":0},{"Str":"ann"}]},{"List":[{"Int":1},{"Str":"bob"}]}]"#,
        ),
        // A tag set on one player is not carried to the next.
        (
            "loop_variable_tagged",
            r#"[{"Int":0},{"Int":7},{"Int":0},{"Int":7}]"#,
        ),
        (
            "loop_variable_changed",
            r#"[{"Str":"Player"},{"Str":"Player"},{"Str":"Card"},{"Str":"Card"},{"Str":"Card"}]"#,
        ),
        // The hand as it was when the loop began: three cards, each moved away in turn.
        ("cards_taken_while_walked", r#"{"Int":2},"#),
        ("cards_taken_while_walked", r#"{"Int":1},"#),
        ("cards_taken_while_walked", r#"{"Int":0}]"#),
        ("hand_with_an_empty_slot", r#"{"Str":"empty"}"#),
        ("players_of_a_map", r#"["seen",{"Int":6}]"#),
        // The other player's three cards, and the argument evaluated once.
        ("argument_evaluated_once", r#"{"Player":1}]]}},{"Int":1}]"#),
        ("method_of_a_map", r#"[{"Str":"ann"},{"Str":"ann"}]"#),
    ] {
        let (result, log) = seen(name);
        assert_eq!(result, "Ok(())", "{name}");
        assert!(log.contains(says), "{name}: {log}");
    }
    // Copies keep the card they copied: the three cards, then the last one again.
    let (_, log) = seen("loop_variable_shared_with_an_array");
    let cards: Vec<_> = log
        .match_indices("\"card\":")
        .map(|(at, _)| &log[at..at + 10])
        .collect();
    assert_eq!(cards.len(), 4, "{log}");
    assert!(
        cards[0] != cards[1] && cards[1] != cards[2] && cards[2] == cards[3],
        "{log}"
    );
    for (name, says) in [
        ("cards_of_a_number", "not with (Game, i64)"),
        ("players_of_a_string", "Unknown property 'players'"),
        ("argument_of_another_type", "not with (Game, i64)"),
    ] {
        let (result, _) = seen(name);
        assert!(
            result.starts_with("Err(") && result.contains(says),
            "{name}: {result}"
        );
    }
}

/// Each action of the `events` fixture on a fresh game, with events kept or not: the `Result`'s
/// text, the state and the number of events sent.
fn event_outcomes(engine: EngineKind, keep: bool) -> Vec<(String, String, String, usize)> {
    fixture_games("events", engine, keep)
        .into_iter()
        .map(|(name, result, game)| {
            assert_eq!(game.log.is_empty(), !keep || game.event_count() == 0);
            let state = serde_json::to_string(&game.state).unwrap();
            (name, result, state, game.event_count())
        })
        .collect()
}

#[test]
fn events_not_kept_are_checked_and_counted_as_kept_ones_are() {
    for engine in [EngineKind::Compiled, EngineKind::Interpreted] {
        let kept = event_outcomes(engine, true);
        let unkept = event_outcomes(engine, false);
        assert_eq!(kept.len(), unkept.len());
        for (k, u) in kept.iter().zip(&unkept) {
            assert!(
                k == u,
                "{engine:?}, {}: {} ({} events) kept, {} ({} events) not",
                k.0,
                k.1,
                k.3,
                u.1,
                u.3
            );
        }
        let result = |name: &str| {
            let (_, text, _, events) = kept.iter().find(|o| o.0 == name).expect(name);
            (text.as_str(), *events)
        };
        for (name, says) in [
            (
                "plain_events_past_the_step_count",
                "one step may send at most 1000 events",
            ),
            (
                "hand_cards_past_the_step_total",
                "may hold at most 65536 values in all",
            ),
            ("events_then_refused", "Refused(\"not now\")"),
            ("events_then_a_fault", "`nope` is not a game variable"),
            (
                "unknown_face_after_a_list",
                "was read from the face of a card that ann",
            ),
            (
                "unknown_face_before_a_list",
                "was read from the face of a card that ann",
            ),
            (
                "hand_card_lists_past_the_step_total",
                "may hold at most 65536 values in all",
            ),
            (
                "hand_card_lists_past_the_event_total",
                "an event may hold at most 4096 values",
            ),
            (
                "unknown_face_inside_a_list",
                "`a.1.1` (`7`) was read from the face of a card that ann",
            ),
            (
                "hand_card_at_the_deepest_level",
                "an event's values may nest at most 32 deep",
            ),
            (
                "player_past_the_deepest_level",
                "nests more than 32 levels deep",
            ),
            ("function_inside_a_list", "cannot go in an event"),
            (
                "list_past_the_event_total",
                "an event may hold at most 4096 values",
            ),
        ] {
            let (text, events) = result(name);
            // Refused or failed: the step's events are taken back.
            assert!(
                text.contains(says) && events == 0,
                "{name}: {text}, {events} events"
            );
        }
        for (name, events) in [
            ("every_kind_of_field", 2),
            ("hand_cards_up_to_the_step_total", 21),
            ("pile_cards_up_to_the_step_total", 63),
            ("fields_of_a_map_value", 2),
            ("lists_and_maps_of_every_kind", 2),
            ("hand_card_lists_up_to_the_step_total", 21),
            ("hand_card_just_above_the_deepest_level", 1),
            ("player_at_the_deepest_level", 1),
            ("list_at_the_event_total", 1),
        ] {
            assert_eq!(result(name), ("Ok(())", events), "{name}");
        }
    }
}

/// The folder of regression programs: each `<name>.rhai` beside `<name>.expected`, the outcome
/// of each of its argument-free functions (`function: outcome`, by name), or why it does not
/// load. The programs call the generated programs' module as `lib`.
fn programs() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/engines/programs")
}

/// What an `.expected` file says of a function stopped by a limit, where which limit comes
/// first may depend on the engine (operations or time).
const STOPPED_BY_A_LIMIT: &str = "stopped by a limit";

/// Whether an outcome is a call stopped by the operation or the time limit.
fn stopped_by_a_limit(outcome: &Outcome) -> bool {
    matches!(outcome, Outcome::Finished(text)
        if text.contains("ErrorTerminated(\"deckspec: too many operations\"")
            || text.contains("ErrorTerminated(\"deckspec: out of time\""))
}

/// One program's outcomes as its `.expected` file writes them.
fn outcomes(text: &str) -> String {
    let loaded = match Differential::new(text, Some(generate::MODULE)) {
        Ok(d) => d,
        Err(e) => return format!("does not load: {e}\n"),
    };
    let mut out = String::new();
    for name in loaded.functions() {
        let (interpreted, interpreted_ops) = loaded.run_counted(&name, EngineKind::Interpreted);
        let (compiled, compiled_ops) = loaded.run_counted(&name, EngineKind::Compiled);
        let ended = interpreted.to_string().starts_with("ok");
        let shown = if interpreted == compiled && (!ended || interpreted_ops == compiled_ops) {
            // A call that ends with a value counts the same operations on both engines.
            match ended {
                true => format!("{interpreted} [{interpreted_ops} operations]"),
                false => interpreted.to_string(),
            }
        } else if stopped_by_a_limit(&interpreted) && stopped_by_a_limit(&compiled) {
            STOPPED_BY_A_LIMIT.to_string()
        } else {
            format!(
                "DIFFERENT\n  interpreted {interpreted} [{interpreted_ops} operations]\n  compiled    {compiled} [{compiled_ops} operations]"
            )
        };
        out.push_str(&format!("{name}: {}\n", without_closure_hashes(&shown)));
    }
    out
}

/// `anon$<hash>` as `anon$…`: a closure's name holds a hash that differs from run to run.
fn without_closure_hashes(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("anon$") {
        out.push_str(&rest[..at + 5]);
        out.push('…');
        rest = rest[at + 5..].trim_start_matches(|c: char| c.is_ascii_hexdigit());
    }
    out.push_str(rest);
    out
}

#[test]
fn regression_programs_give_their_recorded_outcome_on_both_engines() {
    let bless = std::env::var_os("DECKSPEC_BLESS").is_some();
    let mut files: Vec<PathBuf> = std::fs::read_dir(programs())
        .expect("tests/engines/programs")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "rhai"))
        .collect();
    files.sort();
    assert!(files.len() >= 10, "the programs are found");
    let mut problems = Vec::new();
    for path in files {
        let text = std::fs::read_to_string(&path).expect("a program");
        let got = on_script_thread(|| outcomes(&text)).expect("a script thread");
        let expected_path = path.with_extension("expected");
        if bless {
            std::fs::write(&expected_path, &got).expect("written");
        }
        let expected = std::fs::read_to_string(&expected_path).unwrap_or_default();
        if got.contains("DIFFERENT") || got.contains("panic: ") || got != expected {
            problems.push(format!(
                "{}:\n--- expected\n{expected}--- got\n{got}",
                path.display()
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// How many generated programs a test runs (`variable`, else `default`: a third of it at a
/// developer's size, `tests/common/size.rs`), and a fresh first seed.
fn generated_run(variable: &str, default: u64) -> (u64, u64) {
    let programs = std::env::var(variable)
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(crate::size::by_size(default / 3, default));
    let first = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(1, |d| d.as_secs());
    (programs, first)
}

/// Generated programs on both engines (`script::differential`): a fresh first seed each run,
/// printed so that a failure replays with
/// `cargo run --release -p deckspec-tools --example differential -- --show SEED`.
/// `DECKSPEC_DIFFERENTIAL_PROGRAMS` sets how many (CI runs 100,000 in release, in `.ci/run`).
#[test]
fn generated_programs_give_the_same_outcome_on_both_engines() {
    let (programs, first) = generated_run("DECKSPEC_DIFFERENTIAL_PROGRAMS", 1500);
    println!("differential: first seed {first}");
    let report =
        deckspec::script::differential::run_many(first, 8, 10, move |done, _| done < programs);
    assert!(report.stuck.is_none(), "{report}");
    let shown: Vec<String> = report.differences.iter().map(|d| d.to_string()).collect();
    assert_eq!(report.different, 0, "{report}\n{}", shown.join("\n"));
    assert!(
        report.functions > report.not_compiled * 2,
        "most functions are compiled: {report}"
    );
}

#[test]
fn a_face_reaches_only_players_who_know_its_card_however_the_script_passes_it_on() {
    let outcomes = agreed_outcomes("faces");
    let result = |name: &str| {
        let (_, result, _) = outcomes.iter().find(|o| o.0 == name).expect("the action");
        result.clone()
    };
    for name in [
        "direct",
        "through_let",
        "through_const",
        "through_copy",
        "through_parameter",
        "through_return",
        "in_array",
        "in_map",
        "rank_through_let",
        "suit_through_let",
        "into_game_variable",
        "into_own_player_variable",
        "into_public_player_variable",
    ] {
        let r = result(name);
        assert!(
            r.contains("was read from the face of a card that ann does not know"),
            "{name}: {r}"
        );
    }
    for name in ["computed", "known_to_the_recipient", "known_to_everyone"] {
        assert_eq!(result(name), "Ok(())", "{name}");
    }
}

/// Generated hooks that pass faces on (`script::differential::faces`), from a fresh seed: the
/// same result and game on both engines, and the face guard refusing exactly what its rule says.
/// `DECKSPEC_FACE_PROGRAMS` sets how many (8 hooks each).
#[test]
fn generated_hooks_passing_faces_on_agree_and_the_guard_holds() {
    let (programs, first) = generated_run("DECKSPEC_FACE_PROGRAMS", 150);
    println!("faces: first seed {first}");
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/engines/fixtures");
    let report =
        on_script_thread(|| deckspec::script::differential::faces::run(&fixtures, first, programs))
            .expect("a script thread");
    assert!(
        report.problems.is_empty(),
        "{report}\n{}",
        report.problems.join("\n")
    );
    assert!(
        report.guarded > report.hooks / 10 && report.guarded < report.hooks,
        "both refused and allowed faces are tried: {report}"
    );
}
