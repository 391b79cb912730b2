//! A `deckspec serve` process for tests: started on a free loopback port with its own database,
//! reached over real HTTP and WebSocket clients, and killable with SIGKILL.

#![allow(dead_code)]

use serde_json::{Value as Json, json};
use std::io::{BufRead, BufReader};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Message, WebSocket};

pub use tokio_tungstenite::tungstenite;

/// How long a test waits for one message before calling the server stuck.
pub const PATIENCE: Duration = Duration::from_secs(20);

/// A running server.
pub struct TestServer {
    child: Child,
    /// `127.0.0.1:PORT`.
    pub addr: String,
    /// Its database file.
    pub db: PathBuf,
    /// What it printed on stderr, read by a thread (restore reports, table faults).
    stderr: std::sync::Arc<std::sync::Mutex<String>>,
    /// The first line it printed on stdout.
    pub banner: String,
}

impl TestServer {
    /// Start `deckspec serve` on the bundled rules with this database.
    pub fn start(db: &Path) -> TestServer {
        TestServer::start_with(db, Path::new("rules"))
    }

    /// Start it on a rules folder of the test's own.
    pub fn start_with(db: &Path, rules: &Path) -> TestServer {
        // The tests replay known deals of two players.
        TestServer::start_args(db, rules, &["--allow-seeds"])
    }

    /// Start it with more options (`--max-connections-per-address 4`, …).
    pub fn start_args(db: &Path, rules: &Path, options: &[&str]) -> TestServer {
        let mut child = Command::new(env!("CARGO_BIN_EXE_deckspec"))
            .args(["serve", "--addr", "127.0.0.1:0", "--db"])
            .arg(db)
            .arg("--rules")
            .arg(rules)
            .args(options)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("deckspec serve starts");
        let stderr = std::sync::Arc::new(std::sync::Mutex::new(String::new()));
        let mut err = BufReader::new(child.stderr.take().unwrap());
        let sink = stderr.clone();
        std::thread::spawn(move || {
            let mut line = String::new();
            while err.read_line(&mut line).unwrap_or(0) > 0 {
                if std::env::var_os("DECKSPEC_SERVER_STDERR").is_some() {
                    eprint!("server: {line}");
                }
                sink.lock().unwrap().push_str(&line);
                line.clear();
            }
        });
        let mut out = BufReader::new(child.stdout.take().unwrap());
        let mut banner = String::new();
        out.read_line(&mut banner).unwrap();
        let mut open = String::new();
        out.read_line(&mut open).unwrap();
        let addr = open
            .strip_prefix("open http://")
            .and_then(|rest| rest.split('/').next())
            .unwrap_or_else(|| {
                panic!(
                    "no address in {banner:?} {open:?}; stderr: {}",
                    stderr.lock().unwrap()
                )
            })
            .to_string();
        std::thread::spawn(move || {
            let mut sink = String::new();
            while out.read_line(&mut sink).unwrap_or(0) > 0 {
                sink.clear();
            }
        });
        TestServer {
            child,
            addr,
            db: db.to_path_buf(),
            stderr,
            banner,
        }
    }

    /// What the server printed on stderr so far.
    pub fn stderr(&self) -> String {
        self.stderr.lock().unwrap().clone()
    }

    fn agent() -> ureq::Agent {
        ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(PATIENCE))
            .build()
            .into()
    }

    /// `GET path`: the status and the JSON body.
    pub fn get(&self, path: &str) -> (u16, Json) {
        let mut response = TestServer::agent()
            .get(&format!("http://{}{path}", self.addr))
            .call()
            .expect("GET answers");
        let status = response.status().as_u16();
        (
            status,
            response.body_mut().read_json().unwrap_or(Json::Null),
        )
    }

    /// `GET path` as text.
    pub fn get_text(&self, path: &str) -> String {
        TestServer::agent()
            .get(&format!("http://{}{path}", self.addr))
            .call()
            .expect("GET answers")
            .body_mut()
            .read_to_string()
            .unwrap()
    }

    /// `POST /tables` with a raw body: the status and the JSON answer.
    pub fn post_raw(&self, body: &str) -> (u16, Json) {
        let mut response = TestServer::agent()
            .post(&format!("http://{}/tables", self.addr))
            .header("content-type", "application/json")
            .send(body)
            .expect("POST answers");
        let status = response.status().as_u16();
        (
            status,
            response.body_mut().read_json().unwrap_or(Json::Null),
        )
    }

    /// Make a table; panics unless the server made it. Answers the table id and the tokens.
    pub fn table(&self, request: Json) -> (String, Json) {
        let (status, answer) = self.post_raw(&request.to_string());
        assert_eq!(status, 201, "POST /tables {request}: {answer}");
        (
            answer["table"].as_str().unwrap().to_string(),
            answer["seats"].clone(),
        )
    }

    /// Open a seat's WebSocket.
    pub fn connect(&self, table: &str, token: &str) -> Client {
        let url = format!("ws://{}/tables/{table}/ws?token={token}", self.addr);
        let (socket, _) = tungstenite::connect(url).expect("the WebSocket opens");
        if let MaybeTlsStream::Plain(stream) = socket.get_ref() {
            stream.set_read_timeout(Some(PATIENCE)).unwrap();
        }
        Client { socket }
    }

    /// `kill -9`.
    pub fn kill(mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A player's WebSocket.
pub struct Client {
    socket: WebSocket<MaybeTlsStream<TcpStream>>,
}

impl Client {
    /// Send a JSON message.
    pub fn send(&mut self, message: &Json) {
        self.send_text(&message.to_string());
    }

    /// Send any text.
    pub fn send_text(&mut self, text: &str) {
        self.socket.send(Message::Text(text.into())).unwrap();
    }

    /// The next message (a JSON text), or `None` when the server closed the connection.
    pub fn recv(&mut self) -> Option<Json> {
        loop {
            match self.socket.read() {
                Ok(Message::Text(text)) => {
                    return Some(serde_json::from_str(&text).expect("the server sends JSON"));
                }
                Ok(Message::Close(_)) => return None,
                Ok(_) => {}
                Err(tungstenite::Error::ConnectionClosed | tungstenite::Error::AlreadyClosed) => {
                    return None;
                }
                Err(tungstenite::Error::Io(e))
                    if matches!(
                        e.kind(),
                        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                    ) =>
                {
                    panic!("no message from the server in {PATIENCE:?}")
                }
                Err(e) => panic!("WebSocket: {e}"),
            }
        }
    }

    /// Read for `time`, answering pings (as a browser does) and keeping no message.
    pub fn answer_pings_for(&mut self, time: Duration) {
        let MaybeTlsStream::Plain(stream) = self.socket.get_ref() else {
            unreachable!("the tests connect without TLS")
        };
        stream
            .set_read_timeout(Some(Duration::from_millis(100)))
            .unwrap();
        let start = Instant::now();
        while start.elapsed() < time {
            match self.socket.read() {
                Ok(_) => {}
                Err(tungstenite::Error::Io(e))
                    if matches!(
                        e.kind(),
                        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                    ) => {}
                Err(e) => panic!("WebSocket: {e}"),
            }
        }
        if let MaybeTlsStream::Plain(stream) = self.socket.get_ref() {
            stream.set_read_timeout(Some(PATIENCE)).unwrap();
        }
    }

    /// Messages until one of this type (returned; the ones before are in `skipped`).
    pub fn recv_type(&mut self, kind: &str, skipped: &mut Vec<Json>) -> Json {
        let start = Instant::now();
        loop {
            assert!(start.elapsed() < PATIENCE, "no `{kind}` in {PATIENCE:?}");
            let message = self
                .recv()
                .unwrap_or_else(|| panic!("closed before `{kind}`; got {skipped:?}"));
            if message["type"] == kind {
                return message;
            }
            skipped.push(message);
        }
    }

    /// Ask for the sender's legal actions now, as messages.
    pub fn legal_actions(&mut self, skipped: &mut Vec<Json>) -> Vec<Json> {
        self.send(&json!({"type": "list_actions"}));
        let answer = self.recv_type("private_actions", skipped);
        answer["actions"].as_array().cloned().unwrap_or_default()
    }

    /// Ask for the full view again.
    pub fn sync(&mut self, skipped: &mut Vec<Json>) -> Json {
        self.send(&json!({"type": "sync"}));
        self.recv_type("private_sync_state", skipped)
    }
}
