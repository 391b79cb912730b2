//! Debian's headless chromium for tests: finding it (or skipping, unless CI requires it), and
//! driving a page over the DevTools protocol (navigate, evaluate, click with real mouse events,
//! screenshot).

#![allow(dead_code)]

use serde_json::{Value as Json, json};
use std::io::{BufRead, BufReader};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use tokio_tungstenite::tungstenite::stream::MaybeTlsStream;
use tokio_tungstenite::tungstenite::{self, Message, WebSocket};

/// How every test starts chromium: headless, as root, and without the background connections
/// this machine's closed network would refuse.
pub const HEADLESS_FLAGS: [&str; 8] = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
];

/// The browser to use, or `None` (with a line on the terminal) when none is installed and
/// `DECKSPEC_REQUIRE_CHROMIUM` is not set.
pub fn chromium(what: &str) -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("CHROMIUM") {
        return Some(PathBuf::from(path));
    }
    let found = ["chromium", "chromium-browser", "google-chrome"]
        .iter()
        .find_map(|name| {
            let out = Command::new("which").arg(name).output().ok()?;
            out.status
                .success()
                .then(|| PathBuf::from(String::from_utf8_lossy(&out.stdout).trim()))
        });
    if found.is_none() {
        assert!(
            std::env::var_os("DECKSPEC_REQUIRE_CHROMIUM").is_none(),
            "DECKSPEC_REQUIRE_CHROMIUM is set but no chromium is installed (apt-get install chromium, or set CHROMIUM=/path/to/it)"
        );
        // Straight to the terminal: the test harness captures `eprintln!`.
        use std::io::Write;
        let _ = writeln!(
            std::io::stderr(),
            "SKIPPED {what}: no chromium installed (apt-get install chromium)"
        );
    }
    found
}

/// A headless chromium with one page, driven over the DevTools protocol.
pub struct Browser {
    child: Child,
    page: WebSocket<MaybeTlsStream<TcpStream>>,
    next_id: u64,
    _profile: tempfile::TempDir,
}

impl Browser {
    /// Start the browser on a blank page.
    pub fn start(binary: &Path) -> Browser {
        let profile = tempfile::tempdir().unwrap();
        let mut child = Command::new(binary)
            .args(HEADLESS_FLAGS)
            .args(["--window-size=1280,900", "--remote-debugging-port=0"])
            .arg(format!("--user-data-dir={}", profile.path().display()))
            .arg("about:blank")
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("chromium starts");
        // "DevTools listening on ws://127.0.0.1:PORT/devtools/browser/…"
        let mut stderr = BufReader::new(child.stderr.take().unwrap());
        let mut line = String::new();
        let port = loop {
            line.clear();
            assert!(
                stderr.read_line(&mut line).unwrap() > 0,
                "chromium ended without a DevTools address"
            );
            if let Some(rest) = line
                .trim()
                .strip_prefix("DevTools listening on ws://127.0.0.1:")
            {
                break rest.split('/').next().unwrap().to_string();
            }
        };
        std::thread::spawn(move || {
            let mut sink = String::new();
            while stderr.read_line(&mut sink).unwrap_or(0) > 0 {
                sink.clear();
            }
        });
        let targets: Json = ureq::get(&format!("http://127.0.0.1:{port}/json/list"))
            .call()
            .unwrap()
            .body_mut()
            .read_json()
            .unwrap();
        let page_url = targets
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["type"] == "page")
            .and_then(|t| t["webSocketDebuggerUrl"].as_str())
            .expect("a page target")
            .to_string();
        let (page, _) = tungstenite::connect(page_url).expect("the page's DevTools socket");
        if let MaybeTlsStream::Plain(stream) = page.get_ref() {
            stream
                .set_read_timeout(Some(Duration::from_secs(30)))
                .unwrap();
        }
        Browser {
            child,
            page,
            next_id: 0,
            _profile: profile,
        }
    }

    /// Call a DevTools method; its result.
    pub fn call(&mut self, method: &str, params: Json) -> Json {
        self.next_id += 1;
        let id = self.next_id;
        let request = json!({"id": id, "method": method, "params": params});
        self.page
            .send(Message::Text(request.to_string().into()))
            .unwrap();
        loop {
            let Message::Text(text) = self.page.read().expect("DevTools answers") else {
                continue;
            };
            let answer: Json = serde_json::from_str(&text).unwrap();
            if answer["id"] == id {
                assert!(answer["error"].is_null(), "{method}: {answer}");
                return answer["result"].clone();
            }
        }
    }

    /// Open a URL.
    pub fn navigate(&mut self, url: &str) {
        self.call("Page.navigate", json!({"url": url}));
    }

    /// The value of a JavaScript expression in the page.
    pub fn eval(&mut self, expression: &str) -> Json {
        let result = self.call(
            "Runtime.evaluate",
            json!({"expression": expression, "returnByValue": true, "awaitPromise": true}),
        );
        assert!(
            result["exceptionDetails"].is_null(),
            "{expression}: {result}"
        );
        result["result"]["value"].clone()
    }

    /// Wait until the expression is true in the page (polling), or panic with `what`.
    pub fn wait_for(&mut self, expression: &str, what: &str, patience: Duration) {
        let start = Instant::now();
        while self.eval(expression) != json!(true) {
            assert!(start.elapsed() < patience, "waited {patience:?} for {what}");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Click the first element matching the CSS selector with the mouse (pressed and released
    /// at its centre, as a person's click).
    pub fn click(&mut self, selector: &str) {
        let quoted = serde_json::to_string(selector).unwrap();
        let rect = self.eval(&format!(
            "(() => {{ const e = document.querySelector({quoted}); if (!e) return null; e.scrollIntoView({{block: 'center'}}); const r = e.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; }})()"
        ));
        let (x, y) = (
            rect[0]
                .as_f64()
                .unwrap_or_else(|| panic!("nothing matches {selector}")),
            rect[1].as_f64().unwrap(),
        );
        for kind in ["mousePressed", "mouseReleased"] {
            self.call(
                "Input.dispatchMouseEvent",
                json!({"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1}),
            );
        }
    }

    /// A PNG of the page.
    pub fn screenshot(&mut self, to: &Path) {
        use base64::Engine as _;
        let shot = self.call("Page.captureScreenshot", json!({"format": "png"}));
        let png = base64::engine::general_purpose::STANDARD
            .decode(shot["data"].as_str().unwrap())
            .unwrap();
        std::fs::write(to, png).unwrap();
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
