//! How fast `deckspec lsp` answers on the bundled files: the time from an edit to its diagnostics
//! (a scenario buffer; a rules buffer, after which the whole project is checked again) and from
//! a completion request to its answer, with percentiles. Run with
//! `cargo run --release --example lsp_latency` from the checkout (README, "Editor support").
//! The server runs in this process over an in-memory connection, as over stdio but without the
//! pipe: the figures are the server's own work.

use lsp_server::{Connection, Message, Notification, Request, RequestId};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// How many times each scenario file is edited, and each completion asked.
const EDITS_PER_FILE: usize = 5;
/// Edits of `variant.yaml`, each followed by the whole project's check.
const RULES_EDITS: usize = 20;

struct Client {
    connection: Connection,
    next_id: i32,
}

impl Client {
    fn notify(&self, method: &str, params: Value) {
        let note = Notification::new(method.into(), params);
        self.connection
            .sender
            .send(Message::Notification(note))
            .expect("the server is listening");
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = RequestId::from(self.next_id);
        let request = Request::new(id.clone(), method.into(), params);
        self.connection
            .sender
            .send(Message::Request(request))
            .expect("the server is listening");
        loop {
            match self.connection.receiver.recv().expect("the server answers") {
                Message::Response(r) if r.id == id => {
                    return r.response_result.unwrap_or(Value::Null);
                }
                _ => {}
            }
        }
    }

    /// Wait for the diagnostics of `uri`.
    fn diagnostics(&self, uri: &str) -> Value {
        loop {
            if let Message::Notification(n) = self.connection.receiver.recv().expect("answers")
                && n.method == "textDocument/publishDiagnostics"
                && n.params["uri"] == uri
            {
                return n.params["diagnostics"].clone();
            }
        }
    }

    /// Wait until every diagnostic the last change made is published (a request's answer comes
    /// after them).
    fn settle(&mut self) -> usize {
        self.next_id += 1;
        let id = RequestId::from(self.next_id);
        let request = Request::new(id.clone(), "deckspec/settle".into(), json!({}));
        self.connection
            .sender
            .send(Message::Request(request))
            .expect("the server is listening");
        let mut published = 0;
        loop {
            match self.connection.receiver.recv().expect("the server answers") {
                Message::Response(r) if r.id == id => return published,
                Message::Notification(n) if n.method == "textDocument/publishDiagnostics" => {
                    published += 1
                }
                _ => {}
            }
        }
    }
}

fn uri(path: &Path) -> String {
    let absolute = std::fs::canonicalize(path).expect("a bundled file");
    format!("file://{}", absolute.display())
}

fn feature_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            feature_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "feature") {
            out.push(path);
        }
    }
}

/// The 50th, 99th percentile and the most of some durations, in milliseconds.
fn summary(what: &str, mut times: Vec<Duration>) {
    times.sort();
    let at = |q: f64| {
        let i = ((times.len() as f64 * q).ceil() as usize).clamp(1, times.len()) - 1;
        times[i].as_secs_f64() * 1000.0
    };
    println!(
        "{what:<48} {:>6}  p50 {:>7.2} ms  p99 {:>7.2} ms  max {:>7.2} ms",
        times.len(),
        at(0.50),
        at(0.99),
        at(1.0)
    );
}

fn main() {
    let (server_side, client_side) = Connection::memory();
    let server = std::thread::spawn(move || {
        deckspec::lsp::serve(&server_side, Path::new("rules"), Path::new("spec-tests"))
    });
    let mut client = Client {
        connection: client_side,
        next_id: 0,
    };
    client.request(
        "initialize",
        json!({"processId": null, "rootUri": null, "capabilities": {}}),
    );
    client.notify("initialized", json!({}));
    client.settle();

    let mut files = Vec::new();
    feature_files(Path::new("spec-tests"), &mut files);
    assert!(
        !files.is_empty(),
        "run from the checkout: no spec-tests/ here"
    );

    // Scenario edits: a step's action misspelt and put right again, each edit timed to its
    // diagnostics; completions at each action and at the start of each step.
    let mut edits = Vec::new();
    let mut completions = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).expect("a bundled file");
        let address = uri(file);
        client.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": address, "languageId": "deckspec-feature", "version": 1, "text": text}}),
        );
        client.diagnostics(&address);
        let does: Vec<(usize, usize)> = text
            .lines()
            .enumerate()
            .filter_map(|(i, l)| l.find(" does ").map(|c| (i, c + 6)))
            .collect();
        for n in 0..EDITS_PER_FILE {
            let typo = match does.get(n % does.len().max(1)) {
                Some((line, column)) => {
                    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
                    lines[*line].insert(*column, 'x');
                    lines.join("\n")
                }
                None => format!("{text}\n# edit {n}\n"),
            };
            for version in [typo, text.clone()] {
                let started = Instant::now();
                client.notify(
                    "textDocument/didChange",
                    json!({"textDocument": {"uri": address, "version": n + 2}, "contentChanges": [{"text": version}]}),
                );
                client.diagnostics(&address);
                edits.push(started.elapsed());
            }
        }
        for (line, column) in does.iter().take(EDITS_PER_FILE * 4) {
            for character in [*column, 4] {
                let started = Instant::now();
                client.request(
                    "textDocument/completion",
                    json!({"textDocument": {"uri": address}, "position": {"line": line, "character": character}}),
                );
                completions.push(started.elapsed());
            }
        }
    }

    // Rules edits: a phase of Cambia renamed and back, unsaved; each timed until every file's
    // diagnostics are out.
    let yaml_path = Path::new("rules/cambia/variant.yaml");
    let yaml = std::fs::read_to_string(yaml_path).expect("the bundled Cambia");
    let yaml_uri = uri(yaml_path);
    client.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": yaml_uri, "languageId": "yaml", "version": 1, "text": yaml}}),
    );
    client.settle();
    let renamed = yaml.replace("awaiting_discard", "awaiting_choice");
    let mut rules_edits = Vec::new();
    let mut own = Vec::new();
    let mut published = 0;
    for n in 0..RULES_EDITS {
        let text = if n % 2 == 0 { &renamed } else { &yaml };
        let started = Instant::now();
        client.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": yaml_uri, "version": n + 2}, "contentChanges": [{"text": text}]}),
        );
        client.diagnostics(&yaml_uri);
        own.push(started.elapsed());
        published += client.settle();
        rules_edits.push(started.elapsed());
    }

    // Script completions: after `game.` and in a string argument, across Cambia's script.
    let script_path = Path::new("rules/cambia/cambia.rhai");
    let script = std::fs::read_to_string(script_path).expect("the bundled Cambia");
    let script_uri = uri(script_path);
    client.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": script_uri, "languageId": "rhai", "version": 1, "text": script}}),
    );
    client.settle();
    let mut script_completions = Vec::new();
    for (line, text) in script.lines().enumerate() {
        for (column, _) in text.match_indices("game.").chain(text.match_indices("(\"")) {
            let started = Instant::now();
            client.request(
                "textDocument/completion",
                json!({"textDocument": {"uri": script_uri}, "position": {"line": line, "character": column + 5}}),
            );
            script_completions.push(started.elapsed());
        }
    }

    println!(
        "deckspec lsp on the bundled files: {} scenario files, {} edits each",
        files.len(),
        EDITS_PER_FILE * 2
    );
    summary("scenario edit → its diagnostics", edits);
    summary("variant.yaml edit → its own diagnostics", own);
    summary(
        &format!(
            "variant.yaml edit → every file's ({} published)",
            published / RULES_EDITS
        ),
        rules_edits,
    );
    summary("completion in a scenario", completions);
    summary("completion in a script", script_completions);

    client.request("shutdown", Value::Null);
    client.notify("exit", Value::Null);
    server
        .join()
        .expect("the server thread ends")
        .expect("the server ends cleanly");
}
