//! `deckspec serve` on an open network, tried as strangers would: table requests from other
//! pages and floods of them, tables that are never played or closed by a seat, silent and
//! slow connections past the per-address cap while a real player still gets through, seeds,
//! a client that stops reading, and the opening of a game reaching its players.

use crate::common::server;

use serde_json::{Value as Json, json};
use server::TestServer;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::time::{Duration, Instant};

fn temp_db() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("tables.db");
    (dir, db)
}

fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(20)))
        .build()
        .into()
}

/// `POST /tables` with these headers: the status, the JSON answer and its `Retry-After`.
fn post(server: &TestServer, headers: &[(&str, &str)], body: &Json) -> (u16, Json) {
    let mut request = agent().post(&format!("http://{}/tables", server.addr));
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let mut response = request.send(body.to_string()).expect("POST answers");
    let status = response.status().as_u16();
    (
        status,
        response.body_mut().read_json().unwrap_or(Json::Null),
    )
}

fn one_player() -> Json {
    json!({"variant": "cambia", "players": ["ann"], "bots": ["easy"], "think_ms": 60000})
}

#[test]
fn tables_are_made_from_json_by_allowed_pages_at_a_bounded_rate() {
    let (_dir, db) = temp_db();
    let server = TestServer::start_args(&db, Path::new("rules"), &["--creations-per-minute", "3"]);
    // A web page can send `text/plain` to any site without asking first: refused.
    let (status, answer) = post(&server, &[("content-type", "text/plain")], &one_player());
    assert_eq!(status, 415, "{answer}");
    assert!(answer["error"].as_str().unwrap().contains("as JSON"));
    // Another site's page: refused; the server's own page: made.
    fn json_from(origin: &str) -> [(&str, &str); 2] {
        [("content-type", "application/json"), ("origin", origin)]
    }
    let (status, answer) = post(&server, &json_from("http://evil.example"), &one_player());
    assert_eq!(status, 403, "{answer}");
    assert!(
        answer["error"]
            .as_str()
            .unwrap()
            .contains("http://evil.example")
    );
    let own = format!("http://{}", server.addr);
    let (status, made) = post(&server, &json_from(&own), &one_player());
    assert_eq!(status, 201);
    // Two more from this address this minute, then a wait (the refused ones above count not).
    for _ in 0..2 {
        assert_eq!(server.post_raw(&one_player().to_string()).0, 201);
    }
    let (status, answer) = server.post_raw(&one_player().to_string());
    assert_eq!(status, 429, "{answer}");
    assert!(
        answer["error"]
            .as_str()
            .unwrap()
            .contains("3 tables in the last minute"),
        "{answer}"
    );
    // A WebSocket opened by another site's page is refused too; the server's own page connects.
    use server::tungstenite::client::IntoClientRequest;
    let url = format!(
        "ws://{}/tables/{}/ws?token={}",
        server.addr,
        made["table"].as_str().unwrap(),
        made["seats"]["ann"].as_str().unwrap()
    );
    let from = |origin: &str| {
        let mut request = url.as_str().into_client_request().unwrap();
        request
            .headers_mut()
            .insert("origin", origin.parse().unwrap());
        server::tungstenite::connect(request)
    };
    match from("http://evil.example") {
        Err(server::tungstenite::Error::Http(response)) => {
            assert_eq!(response.status().as_u16(), 403);
        }
        other => panic!("another site's page connected: {:?}", other.map(|_| ())),
    }
    assert!(from(&own).is_ok());
}

#[test]
fn a_seat_closes_its_table_for_good() {
    let (_dir, db) = temp_db();
    let server = TestServer::start(&db);
    let (table, seats) = server.table(one_player());
    let token = seats["ann"].as_str().unwrap().to_string();
    let mut ann = server.connect(&table, &token);
    let mut skipped = Vec::new();
    ann.recv_type("private_sync_state", &mut skipped);

    let delete = |auth: Option<&str>| {
        let mut request = agent().delete(&format!("http://{}/tables/{table}", server.addr));
        if let Some(auth) = auth {
            request = request.header("authorization", auth);
        }
        let mut response = request.call().expect("DELETE answers");
        (
            response.status().as_u16(),
            response
                .body_mut()
                .read_json::<Json>()
                .unwrap_or(Json::Null),
        )
    };
    let (status, answer) = delete(None);
    assert_eq!(status, 403, "{answer}");
    let (status, _) = delete(Some("Bearer not-a-token"));
    assert_eq!(status, 403);
    assert_eq!(server.get(&format!("/tables/{table}")).0, 200);

    let (status, _) = delete(Some(&format!("Bearer {token}")));
    assert_eq!(status, 204);
    // The player at it is told, and the connection closes.
    let told = ann.recv_type("error", &mut skipped);
    assert_eq!(told["message"], "ann closed this table");
    assert!(ann.recv().is_none(), "the connection closes");
    let (status, answer) = server.get(&format!("/tables/{table}"));
    assert_eq!(status, 404, "{answer}");
    assert_eq!(server.get("/tables").1, json!([]));
    // Gone from the store: a restart does not bring it back.
    server.kill();
    assert!(
        deckspec::serve::store::read_table(&db, &table)
            .unwrap()
            .is_none()
    );
    let server = TestServer::start(&db);
    assert_eq!(server.get("/tables").1, json!([]));
}

#[test]
fn tables_nobody_plays_at_close_and_free_the_cap() {
    let (_dir, db) = temp_db();
    let server = TestServer::start_args(
        &db,
        Path::new("rules"),
        // 0 minutes: two seconds, for the test.
        &[
            "--max-tables",
            "2",
            "--unattended-table-minutes",
            "0",
            "--over-table-minutes",
            "0",
        ],
    );
    let (played, seats) = server.table(one_player());
    let (abandoned, _) = server.table(one_player());
    let (status, answer) = server.post_raw(&one_player().to_string());
    assert_eq!(status, 400, "the cap: {answer}");
    // A player sits at one table; nobody ever comes to the other.
    let mut ann = server.connect(&played, seats["ann"].as_str().unwrap());
    let mut skipped = Vec::new();
    ann.recv_type("private_sync_state", &mut skipped);
    let start = Instant::now();
    loop {
        let (_, list) = server.get("/tables");
        let ids: Vec<&str> = list
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["table"].as_str().unwrap())
            .collect();
        if !ids.contains(&abandoned.as_str()) {
            assert_eq!(ids, [played.as_str()], "the played table stays");
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(15),
            "the unattended table is still listed: {list}"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
    assert!(
        deckspec::serve::store::read_table(&db, &abandoned)
            .unwrap()
            .is_none(),
        "its row is removed"
    );
    // Its place is free again.
    assert_eq!(server.post_raw(&one_player().to_string()).0, 201);
    // The played table is still there past the unattended time.
    std::thread::sleep(Duration::from_secs(3));
    assert_eq!(server.get(&format!("/tables/{played}")).0, 200);
    ann.sync(&mut skipped);
}

/// A raw TCP connection to the server from `source` (another loopback address), connected.
fn tcp_from(source: &str, to: &str) -> TcpStream {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let stream = runtime.block_on(async {
        let socket = tokio::net::TcpSocket::new_v4().unwrap();
        socket.bind(format!("{source}:0").parse().unwrap()).unwrap();
        socket.connect(to.parse().unwrap()).await.unwrap()
    });
    let stream = stream.into_std().unwrap();
    stream.set_nonblocking(false).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    stream
}

/// Read until the server closes the connection; how long that took. Panics past `patience`.
fn closed_within(stream: &mut TcpStream, patience: Duration) -> Duration {
    let start = Instant::now();
    let mut buffer = [0u8; 4096];
    loop {
        match stream.read(&mut buffer) {
            Ok(0) => return start.elapsed(),
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => return start.elapsed(),
            Err(e) => panic!("still open after {:?}: {e}", start.elapsed()),
        }
        assert!(start.elapsed() < patience, "still open after {patience:?}");
    }
}

#[test]
fn silent_and_slow_connections_are_capped_and_closed_and_a_player_still_gets_through() {
    let (_dir, db) = temp_db();
    let server = TestServer::start_args(
        &db,
        Path::new("rules"),
        &[
            "--max-connections-per-address",
            "4",
            "--header-timeout",
            "1",
            "--idle-timeout",
            "3",
        ],
    );
    // An attacker at 127.0.0.2 holds its four connections, silent.
    let mut silent: Vec<TcpStream> = (0..4)
        .map(|_| tcp_from("127.0.0.2", &server.addr))
        .collect();
    // Its fifth is closed at once.
    let mut fifth = tcp_from("127.0.0.2", &server.addr);
    assert!(closed_within(&mut fifth, Duration::from_secs(2)) < Duration::from_secs(2));
    // A player elsewhere is served meanwhile: the list, a table, its WebSocket.
    assert_eq!(server.get("/tables").0, 200);
    let (table, seats) = server.table(one_player());
    let mut ann = server.connect(&table, seats["ann"].as_str().unwrap());
    let mut skipped = Vec::new();
    ann.recv_type("private_sync_state", &mut skipped);
    // The silent ones are closed by the idle timeout.
    for stream in &mut silent {
        closed_within(stream, Duration::from_secs(8));
    }
    // A slowloris request (a header byte now and then) is closed by the head's deadline.
    let mut slow = tcp_from("127.0.0.3", &server.addr);
    slow.write_all(b"GET /tables HTTP/1.1\r\nHost: x\r\n")
        .unwrap();
    let start = Instant::now();
    let trickle = std::thread::spawn({
        let mut slow = slow.try_clone().unwrap();
        move || {
            for _ in 0..40 {
                if slow.write_all(b"X").is_err() {
                    return;
                }
                std::thread::sleep(Duration::from_millis(250));
            }
        }
    });
    closed_within(&mut slow, Duration::from_secs(6));
    assert!(start.elapsed() < Duration::from_secs(6));
    trickle.join().unwrap();
    // The player's WebSocket stays open past the idle timeout while it answers the server's
    // pings (a client answers them as it reads).
    ann.answer_pings_for(Duration::from_secs(4));
    ann.sync(&mut skipped);
}

#[test]
fn a_chosen_seed_is_for_a_table_of_one_player_unless_the_server_allows_and_tells() {
    let (_dir, db) = temp_db();
    let strict = TestServer::start_args(&db, Path::new("rules"), &[]);
    let two = json!({"variant": "cambia", "players": ["ann", "bob"], "seed": 5});
    let (status, answer) = strict.post_raw(&two.to_string());
    assert_eq!(status, 400);
    assert!(
        answer["error"]
            .as_str()
            .unwrap()
            .contains("a seed fixes the whole deal"),
        "{answer}"
    );
    let (table, seats) = strict.table(json!({
        "variant": "cambia", "players": ["ann"], "bots": ["easy"], "seed": 5,
    }));
    let mut ann = strict.connect(&table, seats["ann"].as_str().unwrap());
    let sync = ann.recv_type("private_sync_state", &mut Vec::new());
    assert_eq!(sync["seeded"], true);
    let (table, seats) = strict.table(one_player());
    let mut ann = strict.connect(&table, seats["ann"].as_str().unwrap());
    let sync = ann.recv_type("private_sync_state", &mut Vec::new());
    assert_eq!(sync["seeded"], false);
    drop(strict);

    let (_dir, db) = temp_db();
    let allowing = TestServer::start(&db);
    let (table, seats) = allowing.table(two);
    for name in ["ann", "bob"] {
        let mut client = allowing.connect(&table, seats[name].as_str().unwrap());
        let sync = client.recv_type("private_sync_state", &mut Vec::new());
        assert_eq!(sync["seeded"], true, "{name} is told");
    }
}

#[test]
fn a_new_tables_players_learn_its_opening_from_messages() {
    let (_dir, db) = temp_db();
    let server = TestServer::start(&db);
    let (table, seats) = server.table(json!({
        "variant": "cambia", "players": ["ann", "bob"], "seed": 3,
    }));
    for name in ["ann", "bob"] {
        let mut client = server.connect(&table, seats[name].as_str().unwrap());
        let mut before = Vec::new();
        let sync = client.recv_type("private_sync_state", &mut before);
        assert!(before.is_empty(), "the sync state comes first");
        // Who plays, and the house rules in force, which no event says.
        assert_eq!(
            (&sync["you"], &sync["players"]),
            (&json!(name), &json!(["ann", "bob"]))
        );
        assert!(
            sync["house_rules"]["turn_timer_seconds"].is_number(),
            "{sync}"
        );
        let mut opening = Vec::new();
        let cards = client.recv_type("private_initial_cards", &mut opening);
        assert_eq!(cards["cards"][0]["user"]["id"], name, "{cards}");
        client.recv_type("game_player_turn", &mut opening);
    }
}

#[test]
fn a_client_that_stops_reading_is_closed() {
    let (_dir, db) = temp_db();
    let server = TestServer::start_args(&db, Path::new("rules"), &["--connection-queue", "64"]);
    let (table, seats) = server.table(one_player());
    let url = format!(
        "ws://{}/tables/{table}/ws?token={}",
        server.addr,
        seats["ann"].as_str().unwrap()
    );
    let (mut socket, _) = server::tungstenite::connect(url).expect("the WebSocket opens");
    // Ask for the whole view again and again without reading any answer: the server's queue
    // for this connection fills.
    let sync = server::tungstenite::Message::Text(json!({"type": "sync"}).to_string().into());
    let start = Instant::now();
    let mut sent = 0;
    while sent < 60_000 && start.elapsed() < Duration::from_secs(60) {
        if socket.send(sync.clone()).is_err() {
            break;
        }
        sent += 1;
    }
    // Reading now: what was queued, then the close (with its reason, if the writer got to it).
    let mut reason = None;
    let start = Instant::now();
    let mut read = 0;
    loop {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "still open after reading {read} messages for 60 s (sent {sent})"
        );
        read += 1;
        match socket.read() {
            Ok(server::tungstenite::Message::Text(text)) => {
                let message: Json = serde_json::from_str(&text).unwrap();
                if message["type"] == "error" {
                    reason = message["message"].as_str().map(str::to_string);
                }
            }
            Ok(server::tungstenite::Message::Close(_)) | Err(_) => break,
            Ok(_) => {}
        }
    }
    if let Some(reason) = reason {
        assert!(reason.contains("fell behind"), "{reason}");
    }
    // The seat is free for a new connection, which gets the whole view.
    let mut again = server.connect(&table, seats["ann"].as_str().unwrap());
    again.recv_type("private_sync_state", &mut Vec::new());
}

#[test]
fn errors_are_json_and_the_page_says_who_may_frame_it() {
    let (_dir, db) = temp_db();
    let server = TestServer::start(&db);
    let (status, answer) = server.get("/no/such/page");
    assert_eq!(status, 404);
    assert!(answer["error"].as_str().unwrap().contains("no such page"));
    let response = agent()
        .get(&format!("http://{}/", server.addr))
        .call()
        .unwrap();
    let header = |name: &str| {
        response
            .headers()
            .get(name)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
            .to_string()
    };
    assert_eq!(header("x-frame-options"), "DENY");
    assert!(header("content-security-policy").contains("frame-ancestors 'none'"));
    // `Location` of a new table is the table.
    let mut made = agent()
        .post(&format!("http://{}/tables", server.addr))
        .header("content-type", "application/json")
        .send(one_player().to_string())
        .unwrap();
    let location = made
        .headers()
        .get("location")
        .and_then(|v| v.to_str().ok())
        .unwrap()
        .to_string();
    let id = made.body_mut().read_json::<Json>().unwrap()["table"].clone();
    let (status, table) = server.get(&location);
    assert_eq!((status, &table["table"]), (200, &id));
    // The list is paged.
    server.table(one_player());
    let (_, first) = server.get("/tables?limit=1");
    let (_, second) = server.get("/tables?offset=1&limit=1");
    assert_eq!(first.as_array().unwrap().len(), 1);
    assert_eq!(second.as_array().unwrap().len(), 1);
    assert_ne!(first[0]["table"], second[0]["table"]);
    let (status, answer) = server.get("/tables?limit=x");
    assert_eq!(status, 400, "{answer}");
    // A variant's declared hand layout reaches clients (the page draws hands so).
    let (_, variants) = server.get("/variants");
    let cambia = variants
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v["name"] == "cambia")
        .unwrap();
    assert_eq!(cambia["hand_layout"], json!({"rows": 2, "columns": 2}));
}

#[test]
fn names_that_look_alike_and_messages_past_the_limit_are_refused_clearly() {
    let (_dir, db) = temp_db();
    let server = TestServer::start(&db);
    // `ann` and `аnn` (a Cyrillic `а`), or `Ann`: one could pass for the other in the events.
    for other in ["\u{430}nn", "Ann"] {
        let request = json!({"variant": "cambia", "players": ["ann", other]});
        let (status, answer) = server.post_raw(&request.to_string());
        assert_eq!(status, 400, "{other}");
        assert_eq!(
            answer["error"],
            format!("`{other}` looks like `ann`: give the players names that look different")
        );
    }
    // A message over the 64 KiB a connection reads: an error, then a close frame (1009).
    let (table, seats) = server.table(one_player());
    let url = format!(
        "ws://{}/tables/{table}/ws?token={}",
        server.addr,
        seats["ann"].as_str().unwrap()
    );
    let (mut socket, _) = server::tungstenite::connect(url).expect("the WebSocket opens");
    let big = format!(
        "{{\"type\": \"sync\", \"pad\": \"{}\"}}",
        "x".repeat(70_000)
    );
    socket
        .send(server::tungstenite::Message::Text(big.into()))
        .unwrap();
    let (mut error, mut close) = (None, None);
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(20) {
        match socket.read() {
            Ok(server::tungstenite::Message::Text(text)) => {
                let message: Json = serde_json::from_str(&text).unwrap();
                if message["type"] == "error" {
                    error = message["message"].as_str().map(str::to_string);
                }
            }
            Ok(server::tungstenite::Message::Close(frame)) => {
                close = frame.map(|f| u16::from(f.code));
                break;
            }
            Ok(_) => {}
            Err(e) => panic!("no close frame: {e}"),
        }
    }
    assert!(
        error
            .as_deref()
            .is_some_and(|e| e.contains("message too long")),
        "{error:?}"
    );
    assert_eq!(close, Some(1009));
}
