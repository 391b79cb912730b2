//! `deckspec serve` driven as its users drive it: a real server process, HTTP requests, and
//! WebSocket clients playing whole games; refusals, malformed messages, privacy over whole
//! games, and a `kill -9` restart on the same database.

use crate::common::files;

use crate::common::server;

use deckspec::kernel::SavedGame;
use deckspec::kernel::event::public_id_text;
use serde_json::{Value as Json, json};
use server::{Client, TestServer};

/// A small seeded generator for the clients' choices (the test must not depend on the clock).
struct Choices(u64);

impl Choices {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

/// Every card object with a face in `message`.
fn faces<'m>(message: &'m Json, out: &mut Vec<&'m Json>) {
    match message {
        Json::Object(map) => {
            if map.contains_key("id") && map.contains_key("rank") {
                out.push(message);
            }
            map.values().for_each(|v| faces(v, out));
        }
        Json::Array(items) => items.iter().for_each(|v| faces(v, out)),
        _ => {}
    }
}

/// The check that no face reaches a player who does not know the card: every face a message
/// to `seat` shows is, in the store's state now (written before the message was sent), the
/// face of the card with that id, and `seat` knows it. (Knowledge only grows until a shuffle,
/// which gives the cards new ids.) Answers the number of faces checked.
fn check_faces(server: &TestServer, table: &str, seat: usize, messages: &[Json]) -> usize {
    let mut shown = Vec::new();
    for m in messages {
        faces(m, &mut shown);
    }
    if shown.is_empty() {
        return 0;
    }
    let row = deckspec::serve::store::read_table(&server.db, table)
        .unwrap()
        .unwrap();
    let saved: SavedGame = serde_json::from_str(&row.game).unwrap();
    let mut checked = 0;
    for card in shown {
        let id = card["id"].as_str().unwrap();
        let Some(state) = saved
            .state
            .cards
            .iter()
            .find(|c| public_id_text(c.public_id) == id)
        else {
            continue; // shuffled since: its id is gone
        };
        assert!(
            state.known_by & (1 << seat) != 0,
            "seat {seat} was shown {card} without knowing it"
        );
        assert_eq!(card["rank"], state.face.rank.name(), "{card}");
        checked += 1;
    }
    checked
}

fn temp_db() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("tables.db");
    (dir, db)
}

/// What a client saw of a game.
#[derive(Default)]
struct Seen {
    messages: Vec<Json>,
    actions: usize,
    refusals: Vec<String>,
}

/// Each client in turn asks for its legal actions and sends one (chosen by `choices`) until a
/// `game_end` reaches every client; every message is kept and face-checked as it comes.
fn play_to_end(
    server: &TestServer,
    table: &str,
    clients: &mut [(usize, Client)],
    choices: &mut Choices,
    max_rounds: usize,
) -> Vec<Seen> {
    let mut seen: Vec<Seen> = clients.iter().map(|_| Seen::default()).collect();
    let ended = |s: &Seen| s.messages.iter().any(|m| m["type"] == "game_end");
    for _ in 0..max_rounds {
        if seen.iter().all(ended) {
            return seen;
        }
        let mut any = false;
        for (i, (seat, client)) in clients.iter_mut().enumerate() {
            let mut got = Vec::new();
            let actions = client.legal_actions(&mut got);
            check_faces(server, table, *seat, &got);
            for m in &got {
                if m["type"] == "error" {
                    seen[i]
                        .refusals
                        .push(m["message"].as_str().unwrap().to_string());
                }
            }
            seen[i].messages.extend(got);
            // Calling Cambia at once would end the game before it says anything, and snapping at
            // random fills a hand with penalty cards: play a while, and snap now and then. The
            // snap is decided once a round, not per card: per card, each failed snap's penalty
            // card is one more snap to pick, and a long run of them never ended a game.
            let snap_now = choices.below(8) == 0;
            let actions: Vec<&Json> = actions
                .iter()
                .filter(|a| seen[i].actions >= 15 || a["type"] != "action_cambia")
                .filter(|a| a["type"] != "action_snap" || snap_now)
                .collect();
            if actions.is_empty() {
                continue;
            }
            let action = actions[choices.below(actions.len())];
            client.send(action);
            seen[i].actions += 1;
            any = true;
        }
        if !any {
            // Waiting for a bot or a timer.
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
    }
    let last: Vec<Vec<String>> = seen
        .iter()
        .map(|s| {
            let skip = s.messages.len().saturating_sub(30);
            s.messages[skip..].iter().map(|m| m.to_string()).collect()
        })
        .collect();
    panic!("the game did not end in {max_rounds} rounds; the last messages: {last:#?}")
}

#[test]
fn a_client_plays_a_whole_cambia_game_against_a_bot() {
    let (_dir, db) = temp_db();
    let server = TestServer::start(&db);
    let (table, seats) = server.table(json!({
        "variant": "cambia", "players": ["ann"], "bots": ["easy"], "seed": 7, "think_ms": 0,
        "house_rules": {"turn_timer_seconds": 1},
    }));
    let mut ann = server.connect(&table, seats["ann"].as_str().unwrap());
    let mut skipped = Vec::new();
    let sync = ann.recv_type("private_sync_state", &mut skipped);
    assert!(
        skipped.is_empty(),
        "the sync state comes first: {skipped:?}"
    );
    let view = &sync["view"];
    assert_eq!(view["you"]["id"], "ann");
    assert_eq!(view["players"][0]["hand"].as_array().unwrap().len(), 4);
    // Cambia's deal shows each player two of their own cards, and nothing of the bot's.
    let known = |hand: &Json| {
        hand.as_array()
            .unwrap()
            .iter()
            .filter(|c| c["rank"].is_string())
            .count()
    };
    assert_eq!(known(&view["players"][0]["hand"]), 2, "{view}");
    assert_eq!(known(&view["players"][1]["hand"]), 0, "{view}");

    let mut clients = [(0, ann)];
    let seen = play_to_end(&server, &table, &mut clients, &mut Choices(7), 2_000);
    let ann_seen = &seen[0];
    assert!(ann_seen.actions > 3, "ann acted {} times", ann_seen.actions);
    let types: Vec<&str> = ann_seen
        .messages
        .iter()
        .filter_map(|m| m["type"].as_str())
        .collect();
    assert!(types.contains(&"game_player_turn"), "{types:?}");
    assert!(types.contains(&"private_draw_stockpile"), "{types:?}");
    let (_, client) = &mut clients[0];
    let end = client.sync(&mut Vec::new());
    assert!(end["view"]["outcome"].is_object(), "{end}");
    // The table list agrees.
    let (status, tables) = server.get("/tables");
    assert_eq!(status, 200);
    assert_eq!(tables[0]["status"], "over", "{tables}");
    assert_eq!(tables[0]["seats"][1]["bot"], "easy", "{tables}");
}

#[test]
fn two_clients_each_get_only_their_own_private_messages_over_whole_games() {
    let (_dir, db) = temp_db();
    let server = TestServer::start(&db);
    for seed in [1_u64, 2, 3] {
        let (table, seats) = server.table(json!({
            "variant": "cambia", "players": ["ann", "bob"], "seed": seed,
        }));
        let ann = server.connect(&table, seats["ann"].as_str().unwrap());
        let bob = server.connect(&table, seats["bob"].as_str().unwrap());
        let mut clients = [(0, ann), (1, bob)];
        let seen = play_to_end(&server, &table, &mut clients, &mut Choices(seed), 2_000);
        for (seat, s) in seen.iter().enumerate() {
            // Nothing else acts at this table: every legal action sent is accepted, but for one
            // sent as the other player's last action ended the game (the server may take that
            // one first).
            let refused: Vec<&String> = s
                .refusals
                .iter()
                .filter(|r| *r != "the game is over")
                .collect();
            assert_eq!(refused, Vec::<&String>::new(), "seat {seat}, seed {seed}");
            let me = ["ann", "bob"][seat];
            for m in &s.messages {
                let kind = m["type"].as_str().unwrap();
                if kind.starts_with("private_") {
                    for field in ["user", "player"] {
                        if let Some(user) = m[field].get("id") {
                            assert_eq!(user, me, "{me} got {m}");
                        }
                    }
                }
            }
        }
        // Each private message went to one player: the other's stream has none of them.
        let private = |s: &Seen| -> Vec<String> {
            s.messages
                .iter()
                .filter(|m| {
                    m["type"].as_str().unwrap().starts_with("private_")
                        && m["type"] != "private_actions"
                        && m["type"] != "private_sync_state"
                })
                .map(|m| m.to_string())
                .collect()
        };
        let (ann_private, bob_private) = (private(&seen[0]), private(&seen[1]));
        assert!(
            !ann_private.is_empty() && !bob_private.is_empty(),
            "seed {seed}: {:?}",
            seen[0]
                .messages
                .iter()
                .map(|m| m["type"].as_str().unwrap())
                .collect::<Vec<_>>()
        );
        for m in &ann_private {
            assert!(
                !bob_private.contains(m) || !m.contains("\"rank\""),
                "both got {m}"
            );
        }
    }
}

#[test]
fn out_of_turn_actions_are_refused_to_the_sender_only_and_change_nothing() {
    let (_dir, db) = temp_db();
    let server = TestServer::start(&db);
    let (table, seats) = server.table(json!({
        "variant": "cambia", "players": ["ann", "bob"], "seed": 11,
    }));
    let mut ann = server.connect(&table, seats["ann"].as_str().unwrap());
    let mut bob = server.connect(&table, seats["bob"].as_str().unwrap());
    let mut skipped = Vec::new();
    let view = ann.recv_type("private_sync_state", &mut skipped)["view"].clone();
    bob.recv_type("private_sync_state", &mut skipped);
    let current = view["current"]["id"].as_str().unwrap().to_string();
    let (waiting, mover) = if current == "ann" {
        (&mut bob, &mut ann)
    } else {
        (&mut ann, &mut bob)
    };
    let before = deckspec::serve::store::read_table(&db, &table)
        .unwrap()
        .unwrap();
    let sync_before = waiting.sync(&mut skipped);
    waiting.send(&json!({"type": "action_draw_stockpile"}));
    let answer = waiting.recv().unwrap();
    assert_eq!(
        answer,
        json!({"type": "error", "message": "not your turn"}),
        "the rule's refusal, to the sender"
    );
    let sync_after = waiting.sync(&mut skipped);
    let strip = |mut s: Json| {
        s["view"]["timers"] = Json::Null;
        s["view"]["clock_ms"] = Json::Null;
        s
    };
    assert_eq!(strip(sync_before), strip(sync_after));
    let after = deckspec::serve::store::read_table(&db, &table)
        .unwrap()
        .unwrap();
    assert_eq!(before.game, after.game, "nothing was committed");
    // The player whose turn it is heard nothing of it, and plays on.
    mover.send(&json!({"type": "action_draw_stockpile"}));
    let mut before_draw = Vec::new();
    let drawn = mover.recv_type("private_draw_stockpile", &mut before_draw);
    assert!(
        before_draw.iter().all(|m| m["type"] != "error"),
        "{before_draw:?}"
    );
    assert!(drawn["card"]["rank"].is_string(), "{drawn}");
    assert!(skipped.iter().all(|m| m["type"] != "error"), "{skipped:?}");
}

#[test]
fn malformed_messages_and_wrong_tokens_get_clear_errors_and_close_nothing_else() {
    let (_dir, db) = temp_db();
    let server = TestServer::start(&db);
    let (table, seats) = server.table(json!({
        "variant": "cambia", "players": ["ann", "bob"], "seed": 5,
    }));
    let mut ann = server.connect(&table, seats["ann"].as_str().unwrap());
    let mut skipped = Vec::new();
    ann.recv_type("private_sync_state", &mut skipped);
    // The opening's events follow the first sync state; past them, only answers come.
    ann.sync(&mut skipped);

    let error = |client: &mut Client, text: &str| -> String {
        client.send_text(text);
        let answer = client.recv().expect("the connection stays open");
        assert_eq!(answer["type"], "error", "{text}: {answer}");
        answer["message"].as_str().unwrap().to_string()
    };
    let cases = [
        (
            "{\"type\": ",
            "malformed JSON: EOF while parsing a value at line 1 column 9",
        ),
        ("[1, 2]", "a message is a JSON object with a `type`"),
        (
            "{\"card\": 1}",
            "a message needs a `type` string, such as `action_draw_stockpile`",
        ),
        (
            "{\"type\": \"hello\"}",
            "unknown message type `hello`: send `action_<name>` (one of `action_cambia`, `action_discard`, `action_draw_discardpile`, `action_draw_stockpile`, `action_replace`, `action_snap`, `action_special`), `sync` or `list_actions`",
        ),
        (
            "{\"type\": \"action_snapp\"}",
            "unknown action `action_snapp`: did you mean `action_snap`? cambia has `action_cambia`, `action_discard`, `action_draw_discardpile`, `action_draw_stockpile`, `action_replace`, `action_snap`, `action_special`",
        ),
        (
            "{\"type\": \"action_snap\"}",
            "`action_snap` takes a `card`",
        ),
        (
            "{\"type\": \"action_snap\", \"card\": \"drawn\"}",
            "`action_snap` does not take the drawn card: it takes a `card`",
        ),
        (
            "{\"type\": \"action_snap\", \"card\": {\"id\": \"nope\"}}",
            "no card has the id `nope` now",
        ),
        (
            "{\"type\": \"action_snap\", \"card\": 3}",
            "a card is {\"id\": \"…\"} or {\"idx\": N, \"user\": {\"id\": \"…\"}}, not 3",
        ),
        (
            "{\"type\": \"action_special\", \"special\": \"peek_slef\", \"card1\": {\"idx\": 0}}",
            "`action_special` has no `peek_slef` (did you mean `peek_self`?): one of skip, peek_self, peek_other, swap_blind, swap_peek, swap_peek_swap",
        ),
        (
            "{\"type\": \"action_special\"}",
            "`action_special` needs `\"special\"`: one of skip, peek_self, peek_other, swap_blind, swap_peek, swap_peek_swap",
        ),
        (
            "{\"type\": \"action_replace\", \"card\": {\"idx\": 0, \"user\": {\"id\": \"zed\"}}}",
            "there is no player `zed`: the players are ann, bob",
        ),
    ];
    for (text, want) in cases {
        assert_eq!(error(&mut ann, text), want, "{text}");
    }
    let long = format!("{{\"type\": \"{}\"}}", "x".repeat(20_000));
    assert_eq!(
        error(&mut ann, &long),
        "message too long: 20012 bytes (at most 16384)"
    );

    // Wrong token, no token, no table: an error message, then the connection closes.
    for (path_table, token, want) in [
        (
            table.as_str(),
            "0000",
            format!("that token opens no seat of table `{table}`"),
        ),
        (
            table.as_str(),
            "",
            format!("connect with your seat's token: /tables/{table}/ws?token=…"),
        ),
        (
            "feedfeed",
            "0000",
            "there is no table `feedfeed`".to_string(),
        ),
    ] {
        let mut stranger = server.connect(path_table, token);
        let answer = stranger.recv().unwrap();
        assert_eq!(answer, json!({"type": "error", "message": want}));
        assert_eq!(stranger.recv(), None, "closed after the error");
    }

    // Ann's connection is still there, and bob can join and play.
    let sync = ann.sync(&mut skipped);
    assert_eq!(sync["view"]["you"]["id"], "ann");
    let mut bob = server.connect(&table, seats["bob"].as_str().unwrap());
    bob.recv_type("private_sync_state", &mut skipped);
    let mover = if sync["view"]["current"]["id"] == "ann" {
        &mut ann
    } else {
        &mut bob
    };
    mover.send(&json!({"type": "action_draw_stockpile"}));
    mover.recv_type("private_draw_stockpile", &mut skipped);

    // A second connection to a seat replaces the first, which is told why.
    let mut ann_again = server.connect(&table, seats["ann"].as_str().unwrap());
    ann_again.recv_type("private_sync_state", &mut skipped);
    let replaced = ann.recv_type("error", &mut skipped);
    assert_eq!(
        replaced["message"],
        "this seat was opened by another connection"
    );
}

#[test]
fn table_requests_are_checked_with_clear_errors() {
    let (_dir, db) = temp_db();
    let server = TestServer::start(&db);
    // The variants as found in `rules/`: a new one changes this list, not the test.
    let unknown = format!(
        "unknown variant `cambai`: did you mean `cambia`? the variants are {}",
        deckspec::script::variant_names(std::path::Path::new("rules")).join(", ")
    );
    let cases = [
        (
            r#"{"variant": "cambai", "players": ["ann"], "bots": ["easy"]}"#,
            unknown.as_str(),
        ),
        (
            r#"{"variant": "cambia", "players": [], "bots": ["easy"]}"#,
            "a table needs at least one player in `players`",
        ),
        (
            r#"{"variant": "cambia", "players": ["ann"]}"#,
            "cambia is for 2 to 12 players, not 1: at least 2 players (1 players and 0 bots)",
        ),
        (
            r#"{"variant": "cambia", "players": ["ann", "ann"]}"#,
            "two players are named `ann`",
        ),
        (
            r#"{"variant": "cambia", "players": ["a b"], "bots": ["easy"]}"#,
            "`a b` is not a player name: use 1 to 32 letters, digits, `_` or `-`",
        ),
        (
            r#"{"variant": "cambia", "players": ["ann"], "bots": ["genius"]}"#,
            "`genius` is not a bot level of cambia: the levels are easy, expert, hard, medium",
        ),
        (
            r#"{"variant": "cambia", "players": ["ann"], "bots": ["easy"], "house_rules": {"penalty_draw_count": "two"}}"#,
            "house rule `penalty_draw_count` takes an integer, not `two`",
        ),
        (
            r#"{"variant": "cambia", "players": ["ann"], "bots": ["easy"], "house_rules": {"penalty_draw_cuont": 3}}"#,
            "unknown house rule `penalty_draw_cuont`",
        ),
        (
            r#"{"variant": "cambia", "players": ["ann"], "bots": ["easy"], "think_ms": 100000}"#,
            "`think_ms` is at most 60000, not 100000",
        ),
        (
            r#"{"variant": "cambia", "player": ["ann"]}"#,
            "the table request: unknown field `player`, expected one of `variant`, `players`, `bots`, `seed`, `house_rules`, `think_ms` at line 1 column 30",
        ),
    ];
    for (body, want) in cases {
        let (status, answer) = server.post_raw(body);
        assert_eq!(status, 400, "{body}");
        assert_eq!(answer, json!({"error": want}), "{body}");
    }
    let (status, answer) = server.post_raw(&"x".repeat(20_000));
    assert_eq!(
        (status, answer),
        (
            400,
            json!({"error": "the table request is over 16 KiB, the most"})
        ),
        "bodies are bounded, and the refusal is JSON like every other"
    );

    let (table, seats) = server.table(json!({
        "variant": "cambia", "players": ["ann"], "bots": ["easy", "hard"],
        "house_rules": {"penalty_draw_count": 3}, "think_ms": 0,
    }));
    assert_eq!(
        seats.as_object().unwrap().len(),
        1,
        "a token for each player, none for bots"
    );
    assert_eq!(seats["ann"].as_str().unwrap().len(), 32);
    let (_, tables) = server.get("/tables");
    let listed = &tables[0];
    assert_eq!(listed["table"], table.as_str());
    assert_eq!(
        listed["seats"],
        json!([
            {"name": "ann", "connected": false},
            {"name": "bot1", "bot": "easy"},
            {"name": "bot2", "bot": "hard"},
        ])
    );

    let (status, variants) = server.get("/variants");
    assert_eq!(status, 200);
    let cambia = variants
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v["name"] == "cambia")
        .unwrap();
    let snap = cambia["actions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["name"] == "snap")
        .unwrap();
    assert_eq!(
        snap["messages"],
        json!([r#"{"type": "action_snap", "card": {"id": "…"}}"#])
    );
    assert!(
        cambia["house_rules"]
            .as_array()
            .unwrap()
            .iter()
            .any(|h| h["name"] == "penalty_draw_count"
                && h["default"] == 2
                && h["type"] == "integer")
    );
    assert!(
        server.get_text("/").contains("<html"),
        "the browser table is served at /"
    );
}

#[test]
fn a_killed_server_restarts_on_the_same_database_and_the_game_goes_on() {
    let (_dir, db) = temp_db();
    let server = TestServer::start(&db);
    let (table, seats) = server.table(json!({
        "variant": "cambia", "players": ["ann"], "bots": ["medium"], "seed": 21, "think_ms": 0,
        "house_rules": {"turn_timer_seconds": 1},
    }));
    let token = seats["ann"].as_str().unwrap().to_string();
    let mut ann = server.connect(&table, &token);
    let mut skipped = Vec::new();
    ann.recv_type("private_sync_state", &mut skipped);
    let mut choices = Choices(21);
    let mut acted = 0;
    while acted < 6 {
        let actions = ann.legal_actions(&mut skipped);
        if actions.is_empty() {
            continue;
        }
        // Play on, but never call Cambia here: the game must outlive the restart.
        let playable: Vec<&Json> = actions
            .iter()
            .filter(|a| a["type"] != "action_cambia")
            .collect();
        if playable.is_empty() {
            continue;
        }
        ann.send(playable[choices.below(playable.len())]);
        acted += 1;
    }
    let before = ann.sync(&mut skipped)["view"].clone();
    assert!(before["outcome"].is_null(), "the game is still on");
    server.kill();

    let server = TestServer::start(&db);
    assert!(
        server.banner.contains("1 table restored"),
        "{}",
        server.banner
    );
    let mut ann = server.connect(&table, &token);
    let after = ann.recv_type("private_sync_state", &mut Vec::new())["view"].clone();
    assert_eq!(
        after["players"], before["players"],
        "same hands, same knowledge"
    );
    assert_eq!(after["piles"], before["piles"]);
    assert_eq!(after["phase"], before["phase"]);
    let mut clients = [(0, ann)];
    play_to_end(&server, &table, &mut clients, &mut choices, 2_000);
    let end = clients[0].1.sync(&mut Vec::new());
    assert!(end["view"]["outcome"].is_object(), "{end}");
}

#[test]
fn a_saved_game_that_no_longer_loads_is_reported_not_dropped() {
    let (dir, db) = temp_db();
    // A rules folder of the test's own: Cambia, later without its variant.
    let rules = dir.path().join("rules");
    files::copy_dir(std::path::Path::new("rules/cambia"), &rules.join("cambia"));
    files::copy_dir(std::path::Path::new("rules/recall"), &rules.join("recall"));
    let server = TestServer::start_with(&db, &rules);
    let (table, seats) = server.table(json!({
        "variant": "cambia", "players": ["ann"], "bots": ["easy"], "seed": 3,
    }));
    let (damaged, _) = server.table(json!({
        "variant": "recall", "players": ["ann"], "bots": ["easy"], "seed": 3,
    }));
    server.kill();
    // A saved game that does not fit its rules (written by other rules, or damaged).
    let store = rusqlite::Connection::open(&db).unwrap();
    let game: String = store
        .query_row("SELECT game FROM tables WHERE id = ?1", [&damaged], |r| {
            r.get(0)
        })
        .unwrap();
    let mut game: Json = serde_json::from_str(&game).unwrap();
    game["state"]["phase"] = json!(99);
    store
        .execute(
            "UPDATE tables SET game = ?2 WHERE id = ?1",
            [&damaged, &game.to_string()],
        )
        .unwrap();
    drop(store);
    std::fs::remove_dir_all(rules.join("cambia")).unwrap();
    let server = TestServer::start_with(&db, &rules);
    assert!(
        server.banner.contains("0 tables restored from")
            && server.banner.contains("(2 could not be)"),
        "{}",
        server.banner
    );
    let (_, tables) = server.get("/tables");
    let mut want = vec![
        json!({
            "table": table,
            "variant": "cambia",
            "status": "unloadable",
            "problem": "its variant `cambia` is not among the rules that load",
        }),
        json!({
            "table": damaged,
            "variant": "recall",
            "status": "unloadable",
            "problem": "the saved game does not fit recall's rules: phase #99 (the rules have 6 phases)",
        }),
    ];
    want.sort_by_key(|t| t["table"].as_str().unwrap().to_string());
    assert_eq!(tables, json!(want));
    let reported = std::time::Instant::now();
    let line = format!("table {damaged} could not be restored: the saved game does not fit");
    while !server.stderr().contains(&line) {
        assert!(reported.elapsed() < server::PATIENCE, "{}", server.stderr());
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let mut ann = server.connect(&table, seats["ann"].as_str().unwrap());
    assert_eq!(
        ann.recv().unwrap()["message"],
        format!(
            "table `{table}` could not be restored: its variant `cambia` is not among the rules that load"
        )
    );
    // The rows are kept: with the variant back, its table is back.
    drop(server);
    files::copy_dir(std::path::Path::new("rules/cambia"), &rules.join("cambia"));
    let server = TestServer::start_with(&db, &rules);
    assert!(
        server.banner.contains("1 table restored") && server.banner.contains("(1 could not be)"),
        "{}",
        server.banner
    );
    let mut ann = server.connect(&table, seats["ann"].as_str().unwrap());
    ann.recv_type("private_sync_state", &mut Vec::new());
}

/// The README's example message list (Cambia's) is `deckspec info cambia --messages`, generated
/// from `variant.yaml`, never kept by hand: this test compares it (`UPDATE_EXPECT=1` rewrites it).
/// Other variants' lists are printed on demand, so a new variant needs no README edit.
#[test]
fn the_readme_shows_cambias_messages_as_info_prints_them() {
    const BEGIN: &str = "<!-- messages: generated for cambia by tests/server/serve.rs (UPDATE_EXPECT=1 cargo test --test server serve:: rewrites it) -->\n";
    const END: &str = "<!-- end of messages -->";
    let run = std::process::Command::new(env!("CARGO_BIN_EXE_deckspec"))
        .args(["info", "cambia", "--messages"])
        .output()
        .unwrap();
    assert!(run.status.success(), "{run:?}");
    let generated = String::from_utf8(run.stdout).unwrap();
    assert!(
        generated.starts_with("#### cambia\n") && generated.contains("action_snap"),
        "{generated}"
    );
    let readme = std::fs::read_to_string("README.md").unwrap();
    let start = readme
        .find(BEGIN)
        .expect("the README has the messages marker")
        + BEGIN.len();
    let end = readme[start..].find(END).expect("the end marker") + start;
    if std::env::var_os("UPDATE_EXPECT").is_some() {
        let updated = format!("{}{generated}{}", &readme[..start], &readme[end..]);
        std::fs::write("README.md", updated).unwrap();
        return;
    }
    assert_eq!(
        readme[start..end],
        generated,
        "the README's message list is stale: UPDATE_EXPECT=1 cargo test --test server serve::"
    );
}

/// Every variant in `rules/`, a new one too, has its message list printed by `info --messages`:
/// one row per declared action form, and the events it declares.
#[test]
fn info_prints_every_variants_messages() {
    let rules = std::path::Path::new("rules");
    for name in deckspec::script::variant_names(rules) {
        let variant = deckspec::script::Variant::load_named(rules, &name).unwrap();
        let run = std::process::Command::new(env!("CARGO_BIN_EXE_deckspec"))
            .args(["info", &name, "--messages"])
            .output()
            .unwrap();
        assert!(run.status.success(), "{name}: {run:?}");
        let text = String::from_utf8(run.stdout).unwrap();
        let table = variant.table();
        let forms: usize = table.actions.iter().map(|a| a.forms.len()).sum();
        assert_eq!(
            text.matches("| `{\"type\": \"action_").count(),
            forms,
            "{name}: one row per action form:\n{text}"
        );
        for event in &table.events {
            assert!(
                text.contains(&format!("`{event}`")),
                "{name}: {event}:\n{text}"
            );
        }
    }
}

#[test]
fn a_script_fault_reaches_its_sender_as_one_script_error() {
    let (dir, db) = temp_db();
    // Cambia, its stockpile draw broken: it sends an event the variant does not declare.
    let rules = dir.path().join("rules");
    files::copy_dir(std::path::Path::new("rules/cambia"), &rules.join("cambia"));
    let script = rules.join("cambia/cambia.rhai");
    let text = std::fs::read_to_string(&script).unwrap();
    let broken = text.replacen(
        "fn on_draw_stockpile(game, p, args) {",
        "fn on_draw_stockpile(game, p, args) {\n    game.broadcast(\"no_such_event\", #{});",
        1,
    );
    assert_ne!(broken, text, "the hook is there to break");
    std::fs::write(&script, broken).unwrap();
    let server = TestServer::start_with(&db, &rules);
    let (table, seats) = server.table(json!({
        "variant": "cambia", "players": ["ann", "bob"], "seed": 4,
    }));
    let mut clients: Vec<(String, Client)> = ["ann", "bob"]
        .iter()
        .map(|name| {
            let client = server.connect(&table, seats[*name].as_str().unwrap());
            (name.to_string(), client)
        })
        .collect();
    // Whoever the opening says is on turn draws.
    let mut skipped = Vec::new();
    let turn = clients[0].1.recv_type("game_player_turn", &mut skipped);
    let on_turn = turn["user"]["id"].as_str().unwrap().to_string();
    let client = &mut clients.iter_mut().find(|(n, _)| *n == on_turn).unwrap().1;
    client.send(&json!({"type": "action_draw_stockpile"}));
    let error = client.recv_type("error", &mut skipped);
    let message = error["message"].as_str().unwrap();
    assert!(message.starts_with("script error: "), "{message}");
    assert!(!message.contains("script error: script error"), "{message}");
    assert!(message.contains("no_such_event"), "{message}");
}
