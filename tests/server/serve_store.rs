//! The server's store (issue 41), through the library and the real `deckspec` binary: one
//! server per database file (a second is refused at once, naming the file), a clean stop
//! (SIGTERM, SIGINT) leaves the `.db` file alone holding every table, the writer checkpoints the
//! WAL when idle, `deckspec backup` copies a live store and never overwrites, a start that
//! discards a journal or restores nothing warns, and a damaged row or page never stops or
//! panics the server.

use deckspec::serve::store::{Opened, Store, StoreError, StoredTable};
use serde_json::{Value as Json, json};
use std::ffi::OsStr;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How long anything may take before the test calls it stuck.
const PATIENCE: Duration = Duration::from_secs(30);
const RULES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/rules");

/// A `deckspec serve` process on a free loopback port.
struct Server {
    child: Child,
    addr: String,
    stderr: Arc<Mutex<String>>,
}

impl Server {
    fn start(db: &Path) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_deckspec"))
            .args(["serve", "--addr", "127.0.0.1:0", "--rules", RULES, "--db"])
            .arg(db)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("deckspec serve starts");
        let stderr = collect(child.stderr.take().unwrap());
        let mut out = BufReader::new(child.stdout.take().unwrap());
        let mut addr = None;
        let mut line = String::new();
        while out.read_line(&mut line).unwrap_or(0) > 0 {
            if let Some(rest) = line.strip_prefix("open http://") {
                addr = rest.split('/').next().map(str::to_string);
                break;
            }
            line.clear();
        }
        let Some(addr) = addr else {
            let _ = child.wait();
            panic!(
                "the server did not start; stderr: {}",
                stderr.lock().unwrap()
            );
        };
        std::thread::spawn(move || std::io::copy(&mut out, &mut std::io::sink()));
        Server {
            child,
            addr,
            stderr,
        }
    }

    fn stderr(&self) -> String {
        self.stderr.lock().unwrap().clone()
    }

    /// Its stderr once it holds `text` (it is read by a thread, behind stdout).
    fn stderr_with(&self, text: &str) -> String {
        let start = Instant::now();
        loop {
            let stderr = self.stderr();
            if stderr.contains(text) || start.elapsed() > PATIENCE {
                return stderr;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    fn agent() -> ureq::Agent {
        ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(PATIENCE))
            .build()
            .into()
    }

    /// A table of two players (nothing moves until they do); its id and the seats' tokens.
    fn table(&self) -> (String, Json) {
        let request = json!({"variant": "cambia", "players": ["ann", "bob"]});
        let mut response = Server::agent()
            .post(&format!("http://{}/tables", self.addr))
            .header("content-type", "application/json")
            .send(request.to_string())
            .expect("POST answers");
        let status = response.status().as_u16();
        let answer: Json = response.body_mut().read_json().unwrap_or(Json::Null);
        assert_eq!(status, 201, "POST /tables: {answer}");
        (
            answer["table"].as_str().unwrap().to_string(),
            answer["seats"].clone(),
        )
    }

    /// `GET /tables`.
    fn tables(&self) -> Vec<Json> {
        let mut response = Server::agent()
            .get(&format!("http://{}/tables", self.addr))
            .call()
            .expect("GET answers");
        assert_eq!(response.status().as_u16(), 200);
        let list: Json = response.body_mut().read_json().unwrap();
        list.as_array().unwrap().clone()
    }

    /// The status `GET /tables` gives each table, by id.
    fn statuses(&self) -> Vec<(String, String)> {
        let mut statuses: Vec<(String, String)> = self
            .tables()
            .iter()
            .map(|t| {
                (
                    t["table"].as_str().unwrap().to_string(),
                    t["status"].as_str().unwrap().to_string(),
                )
            })
            .collect();
        statuses.sort();
        statuses
    }

    /// Send a signal (`kill -TERM`, `kill -INT`) and wait for the process to end.
    fn stop_with(mut self, signal: &str) -> ExitStatus {
        let sent = Command::new("kill")
            .arg(format!("-{signal}"))
            .arg(self.child.id().to_string())
            .status()
            .unwrap();
        assert!(sent.success(), "kill -{signal}");
        let start = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            assert!(
                start.elapsed() < PATIENCE,
                "the server did not stop on SIG{signal}; stderr: {}",
                self.stderr()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Everything a pipe gives, as it comes.
fn collect(mut pipe: impl Read + Send + 'static) -> Arc<Mutex<String>> {
    let text = Arc::new(Mutex::new(String::new()));
    let sink = text.clone();
    std::thread::spawn(move || {
        let mut buffer = [0; 4096];
        while let Ok(n) = pipe.read(&mut buffer) {
            if n == 0 {
                break;
            }
            sink.lock()
                .unwrap()
                .push_str(&String::from_utf8_lossy(&buffer[..n]));
        }
    });
    text
}

/// One run of `deckspec` that must end within `PATIENCE`: exit code, stdout, stderr, and how
/// long it took.
fn deckspec<S: AsRef<OsStr>>(args: &[S]) -> (i32, String, String, Duration) {
    let start = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_deckspec"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stdout = collect(child.stdout.take().unwrap());
    let stderr = collect(child.stderr.take().unwrap());
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > PATIENCE {
            let _ = child.kill();
            panic!("deckspec did not end; stderr: {}", stderr.lock().unwrap());
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let elapsed = start.elapsed();
    // The pipes close with the process; let the readers finish.
    std::thread::sleep(Duration::from_millis(50));
    let out = stdout.lock().unwrap().clone();
    let err = stderr.lock().unwrap().clone();
    (status.code().unwrap_or(-1), out, err, elapsed)
}

fn block_on<F: std::future::Future>(future: F) -> F::Output {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(future)
}

/// A row of the given setup text (its game and bots do not matter to the store).
/// A store opened on `db` holding `n` rows of 3,000 bytes each (`t0`, `t1`, …).
fn store_with_rows(db: &Path, n: usize) -> Opened {
    let opened = Store::open(db).unwrap();
    let long = "x".repeat(3000);
    block_on(async {
        for i in 0..n {
            opened
                .store
                .insert(row(&format!("t{i}"), &long))
                .await
                .unwrap();
        }
    });
    opened
}

fn row(id: &str, setup: &str) -> StoredTable {
    StoredTable {
        id: id.into(),
        setup: setup.into(),
        game: "{}".into(),
        bots: "[]".into(),
    }
}

fn file_with_suffix(db: &Path, suffix: &str) -> PathBuf {
    let mut name = db.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

fn ids(statuses: &[(String, String)]) -> Vec<String> {
    statuses.iter().map(|(id, _)| id.clone()).collect()
}

#[test]
fn a_second_store_on_the_same_file_is_refused_at_once_and_the_first_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("tables.db");
    let first = Store::open(&db).unwrap();
    let start = Instant::now();
    let second = Store::open(&db);
    assert!(
        start.elapsed() < Duration::from_secs(1),
        "{:?}",
        start.elapsed()
    );
    match &second {
        Err(e @ StoreError::InUse { holder, .. }) => {
            let message = e.to_string();
            assert!(message.contains(&db.display().to_string()), "{message}");
            assert!(message.contains("in use"), "{message}");
            assert_eq!(*holder, Some(std::process::id()), "{message}");
        }
        other => panic!(
            "the second open was not refused: {:?}",
            other.as_ref().err()
        ),
    }
    // The first is untouched by the attempt.
    block_on(first.store.insert(row("t1", "{}"))).unwrap();
    first.store.close().unwrap();
    // Closed, the store is free again, and holds what was written.
    let again = Store::open(&db).unwrap();
    assert_eq!(again.tables.len(), 1);
    again.store.close().unwrap();
}

#[test]
fn a_second_server_on_the_same_file_refuses_to_start_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("tables.db");
    let first = Server::start(&db);
    let (table, _) = first.table();
    let (code, _, stderr, _) = deckspec(&[
        OsStr::new("serve"),
        OsStr::new("--addr"),
        OsStr::new("127.0.0.1:0"),
        OsStr::new("--db"),
        db.as_os_str(),
    ]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains(&db.display().to_string()), "{stderr}");
    assert!(
        stderr.contains("in use by another deckspec server"),
        "{stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
    // The first goes on: it makes tables and lists both.
    let (other, _) = first.table();
    let mut expected = vec![table, other];
    expected.sort();
    assert_eq!(ids(&first.statuses()), expected);
}

#[test]
fn a_clean_stop_leaves_the_db_file_alone_holding_every_table() {
    for signal in ["TERM", "INT"] {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("tables.db");
        let server = Server::start(&db);
        for _ in 0..3 {
            server.table();
        }
        let before = server.statuses();
        assert_eq!(before.len(), 3);
        let status = server.stop_with(signal);
        assert!(status.success(), "SIG{signal}: {status:?}");
        let wal = file_with_suffix(&db, "-wal");
        assert!(
            std::fs::metadata(&wal).map_or(true, |m| m.len() == 0),
            "SIG{signal}: {} is left with bytes",
            wal.display()
        );
        let mut left: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        assert_eq!(left, ["tables.db", "tables.db.lock"], "SIG{signal}");
        // Only the .db file, elsewhere: every table comes back from it.
        let elsewhere = tempfile::tempdir().unwrap();
        let copy = elsewhere.path().join("copy.db");
        std::fs::copy(&db, &copy).unwrap();
        let restarted = Server::start(&copy);
        assert_eq!(restarted.statuses(), before, "SIG{signal}");
        assert!(
            before.iter().all(|(_, status)| status == "playing"),
            "{before:?}"
        );
    }
}

#[test]
fn the_writer_checkpoints_the_wal_when_idle() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("tables.db");
    let opened = store_with_rows(&db, 40);
    let wal = file_with_suffix(&db, "-wal");
    let start = Instant::now();
    while std::fs::metadata(&wal).map_or(0, |m| m.len()) > 0 {
        assert!(start.elapsed() < PATIENCE, "the WAL is never checkpointed");
        std::thread::sleep(Duration::from_millis(50));
    }
    // The store still open, its .db file alone holds every table.
    let copy = dir.path().join("copy.db");
    std::fs::copy(&db, &copy).unwrap();
    let read = rusqlite::Connection::open(&copy).unwrap();
    let count: i64 = read
        .query_row("SELECT count(*) FROM tables", [], |r| r.get(0))
        .unwrap();
    assert_eq!(count, 40);
    opened.store.close().unwrap();
}

#[test]
fn backup_copies_a_live_store_and_never_overwrites() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("tables.db");
    let out = dir.path().join("backup.db");
    let server = Server::start(&db);
    for _ in 0..3 {
        server.table();
    }
    let before = server.statuses();
    let backup = |to: &Path| {
        deckspec(&[
            OsStr::new("backup"),
            OsStr::new("--db"),
            db.as_os_str(),
            OsStr::new("--to"),
            to.as_os_str(),
        ])
    };
    let (code, stdout, stderr, _) = backup(&out);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("backed up 3 tables"), "{stdout}");
    // Never over an existing file.
    let bytes = std::fs::read(&out).unwrap();
    let (code, _, stderr, _) = backup(&out);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains(&out.display().to_string()), "{stderr}");
    assert!(stderr.contains("exists already"), "{stderr}");
    assert_eq!(std::fs::read(&out).unwrap(), bytes);
    let empty = dir.path().join("empty");
    std::fs::write(&empty, "").unwrap();
    assert_eq!(backup(&empty).0, 2);
    // A store that is not there.
    let (code, _, stderr, _) = deckspec(&[
        OsStr::new("backup"),
        OsStr::new("--db"),
        dir.path().join("nothing.db").as_os_str(),
        OsStr::new("--to"),
        dir.path().join("nothing-copy.db").as_os_str(),
    ]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("nothing.db: no such file"), "{stderr}");
    // The server goes on, and the copy serves the tables it had.
    server.table();
    let restored = Server::start(&out);
    assert_eq!(restored.statuses(), before);
}

#[test]
fn a_journal_that_sqlite_discards_is_a_warning() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("tables.db");
    Store::open(&db).unwrap().store.close().unwrap();
    // Bytes that are no WAL (a fixed pseudo-random sequence).
    let mut x = 0x9e37_79b9_7f4a_7c15_u64;
    let garbage: Vec<u8> = (0..40_000)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        })
        .collect();
    let wal = file_with_suffix(&db, "-wal");
    std::fs::write(&wal, garbage).unwrap();
    let server = Server::start(&db);
    let expected = format!("warning: {} held 40000 bytes", wal.display());
    let stderr = server.stderr_with(&expected);
    assert!(stderr.contains(&expected), "{stderr}");
    assert!(server.statuses().is_empty());
}

#[test]
fn a_store_none_of_whose_tables_restore_warns() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("tables.db");
    let opened = Store::open(&db).unwrap();
    block_on(async {
        opened.store.insert(row("t1", "not json")).await.unwrap();
        opened.store.insert(row("t2", "{}")).await.unwrap();
    });
    opened.store.close().unwrap();
    let server = Server::start(&db);
    let expected = format!(
        "warning: {} holds 2 tables but none could be restored",
        db.display()
    );
    let stderr = server.stderr_with(&expected);
    assert!(stderr.contains(&expected), "{stderr}");
    let statuses = server.statuses();
    assert_eq!(
        statuses,
        [
            ("t1".to_string(), "unloadable".to_string()),
            ("t2".to_string(), "unloadable".to_string())
        ]
    );
}

#[test]
fn a_row_that_is_not_text_is_unloadable_and_the_others_play() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("tables.db");
    let server = Server::start(&db);
    let (good, seats) = server.table();
    let (other, _) = server.table();
    assert!(server.stop_with("TERM").success());
    {
        let sqlite = rusqlite::Connection::open(&db).unwrap();
        sqlite
            .execute(
                "INSERT INTO tables (id, setup, game, bots) VALUES \
                 ('blob', '{\"variant\": \"cambia\"}', x'00ff10', '[]'), \
                 (x'0102', '{}', '{}', '[]')",
                [],
            )
            .unwrap();
    }
    let server = Server::start(&db);
    let tables = server.tables();
    let find = |id: &str| {
        tables
            .iter()
            .find(|t| t["table"] == id)
            .unwrap_or_else(|| panic!("no {id} in {tables:?}"))
            .clone()
    };
    let blob = find("blob");
    assert_eq!(blob["status"], "unloadable", "{blob}");
    assert_eq!(blob["variant"], "cambia", "{blob}");
    assert!(
        blob["problem"]
            .as_str()
            .unwrap()
            .contains("its `game` is a blob, not text"),
        "{blob}"
    );
    let numbered = find("rowid 4");
    assert_eq!(numbered["status"], "unloadable", "{numbered}");
    assert!(
        numbered["problem"]
            .as_str()
            .unwrap()
            .contains("its `id` is a blob, not text"),
        "{numbered}"
    );
    assert_eq!(find(&good)["status"], "playing");
    assert_eq!(find(&other)["status"], "playing");
    let stderr = server.stderr_with("table blob could not be restored");
    assert!(
        stderr.contains("table blob could not be restored"),
        "{stderr}"
    );
    // A restored table plays: its seat connects and gets its view.
    let url = format!(
        "ws://{}/tables/{good}/ws?token={}",
        server.addr,
        seats["ann"].as_str().unwrap()
    );
    let (mut socket, _) = tokio_tungstenite::tungstenite::connect(url).unwrap();
    let first = socket.read().unwrap();
    let message: Json = serde_json::from_str(first.to_text().unwrap()).unwrap();
    assert_eq!(message["type"], "private_sync_state", "{message}");
}

#[test]
fn a_damaged_page_is_a_clear_error_naming_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("tables.db");
    let opened = store_with_rows(&db, 30);
    opened.store.close().unwrap();
    // Every page but the first two (the header and schema, the table's root) overwritten.
    let mut bytes = std::fs::read(&db).unwrap();
    assert!(bytes.len() > 8 * 4096, "{}", bytes.len());
    for byte in &mut bytes[2 * 4096..] {
        *byte = 0xa5;
    }
    std::fs::write(&db, bytes).unwrap();
    match Store::open(&db) {
        Err(e @ StoreError::Damaged { .. }) => {
            assert!(e.to_string().contains(&db.display().to_string()), "{e}");
        }
        Err(e) => panic!("not told as damage: {e}"),
        Ok(_) => panic!("a damaged store opened"),
    }
    let (code, _, stderr, _) = deckspec(&[
        OsStr::new("serve"),
        OsStr::new("--addr"),
        OsStr::new("127.0.0.1:0"),
        OsStr::new("--db"),
        db.as_os_str(),
    ]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains(&format!("error: {} is damaged", db.display())),
        "{stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn a_database_of_something_else_is_refused_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("people.db");
    {
        let sqlite = rusqlite::Connection::open(&db).unwrap();
        sqlite
            .execute_batch("CREATE TABLE people (name TEXT); PRAGMA user_version = 7;")
            .unwrap();
    }
    let before = std::fs::read(&db).unwrap();
    match Store::open(&db) {
        Err(e @ StoreError::NotAStore { .. }) => {
            let message = e.to_string();
            assert!(message.contains("not a deckspec store"), "{message}");
            assert!(message.contains("people"), "{message}");
        }
        Err(e) => panic!("refused for another reason: {e}"),
        Ok(_) => panic!("opened another program's database as a store"),
    }
    assert_eq!(std::fs::read(&db).unwrap(), before);
}
