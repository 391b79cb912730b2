//! `deckspec lsp` driven as an editor drives it: the program started, JSON-RPC messages framed
//! with `Content-Length` on its standard input and output, on the bundled Cambia files. A scenario
//! buffer with a misspelt action gets the diagnostic and its suggestion; the action completes;
//! a `@rule:` tag's hover tells the rule; definition jumps from an action to its hook and from a
//! tag to its rulebook entry; `shutdown` and `exit` end the program cleanly. And headless Neovim
//! with its built-in client shows the diagnostic.

use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

/// The server, and the messages it sends.
struct Client {
    child: Child,
    input: ChildStdin,
    output: Receiver<Value>,
    next_id: i64,
}

impl Client {
    fn start() -> Client {
        let mut child = Command::new(env!("CARGO_BIN_EXE_deckspec"))
            .arg("lsp")
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("deckspec lsp starts");
        let input = child.stdin.take().unwrap();
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        let (tx, output) = channel();
        std::thread::spawn(move || {
            loop {
                let mut length = 0usize;
                loop {
                    let mut header = String::new();
                    if stdout.read_line(&mut header).unwrap_or(0) == 0 {
                        return;
                    }
                    let header = header.trim_end();
                    if header.is_empty() {
                        break;
                    }
                    if let Some(n) = header.strip_prefix("Content-Length: ") {
                        length = n.parse().unwrap();
                    }
                }
                let mut body = vec![0; length];
                stdout.read_exact(&mut body).unwrap();
                if tx.send(serde_json::from_slice(&body).unwrap()).is_err() {
                    return;
                }
            }
        });
        Client {
            child,
            input,
            output,
            next_id: 1,
        }
    }

    fn write(&mut self, message: Value) {
        let body = message.to_string();
        write!(self.input, "Content-Length: {}\r\n\r\n{body}", body.len()).unwrap();
        self.input.flush().unwrap();
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.write(json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// A request's result (the messages before it that are not its answer are dropped).
    fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.write(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        loop {
            let m = self.receive();
            if m["id"] == id {
                assert!(m.get("error").is_none(), "{m}");
                return m["result"].clone();
            }
        }
    }

    fn receive(&self) -> Value {
        self.output
            .recv_timeout(Duration::from_secs(30))
            .expect("the server answers within 30 s")
    }

    /// The next diagnostics published for `uri`.
    fn diagnostics(&self, uri: &str) -> Vec<Value> {
        loop {
            let m = self.receive();
            if m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri {
                return m["params"]["diagnostics"].as_array().unwrap().clone();
            }
        }
    }
}

const SCENARIO: &str = "@cambia
Feature: Drawing

  @rule:CAM-DRAW-1
  Scenario: ann draws
    Given a cambia game with players ann, bob
    When ann does drw_stockpile
    Then the phase is awaiting_discard
";

fn at(text: &str, needle: &str, plus: usize) -> Value {
    let offset = text.find(needle).unwrap() + plus;
    let line = text[..offset].matches('\n').count();
    let column = offset - text[..offset].rfind('\n').map_or(0, |i| i + 1);
    json!({"line": line, "character": column})
}

#[test]
fn an_editor_sees_problems_completes_hovers_and_jumps_in_a_scenario() {
    let mut client = Client::start();
    let root = std::fs::canonicalize(env!("CARGO_MANIFEST_DIR")).unwrap();
    let uri = format!("file://{}/spec-tests/cambia/typed.feature", root.display());
    let init = client.request(
        "initialize",
        json!({"processId": null, "rootUri": null, "capabilities": {}}),
    );
    assert_eq!(init["capabilities"]["hoverProvider"], true, "{init}");
    client.notify("initialized", json!({}));

    // A misspelt action: the diagnostic at the word, with its suggestion.
    client.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": uri, "languageId": "gherkin", "version": 1, "text": SCENARIO}}),
    );
    let found = client.diagnostics(&uri);
    assert_eq!(found.len(), 1, "{found:?}");
    let message = found[0]["message"].as_str().unwrap();
    assert!(
        message.contains("did you mean `draw_stockpile`?"),
        "{message}"
    );
    assert_eq!(found[0]["range"]["start"]["line"], 6);

    // Typed right (unsaved, full sync): no problem left.
    let fixed = SCENARIO.replace("drw_stockpile", "draw_stockpile");
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": fixed}]}),
    );
    assert_eq!(client.diagnostics(&uri), Vec::<Value>::new());

    // Completing the action after `does dr`.
    let typing = fixed.replace("does draw_stockpile", "does dr");
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 3}, "contentChanges": [{"text": typing}]}),
    );
    client.diagnostics(&uri);
    let items = client.request(
        "textDocument/completion",
        json!({"textDocument": {"uri": uri}, "position": at(&typing, "does dr", 7)}),
    );
    let labels: Vec<&str> = items
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["label"].as_str().unwrap())
        .collect();
    assert!(
        labels.contains(&"draw_stockpile") && labels.contains(&"draw_discardpile"),
        "{labels:?}"
    );
    assert!(!labels.contains(&"snap"), "{labels:?}");
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 4}, "contentChanges": [{"text": fixed}]}),
    );
    client.diagnostics(&uri);

    // Hovering the tag: the rule's text and source.
    let hover = client.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri}, "position": at(&fixed, "@rule:CAM-DRAW-1", 8)}),
    );
    let shown = hover["contents"]["value"].as_str().unwrap();
    assert!(
        shown.contains("CAM-DRAW-1") && shown.contains("draw_stockpile takes the top card"),
        "{shown}"
    );

    // From the action to its hook, from the tag to its rulebook entry.
    for (needle, file, line_holds) in [
        (
            "draw_stockpile",
            "rules/cambia/cambia.rhai",
            "fn on_draw_stockpile(",
        ),
        ("CAM-DRAW-1", "rules/cambia/rulebook.yaml", "id: CAM-DRAW-1"),
    ] {
        let target = client.request(
            "textDocument/definition",
            json!({"textDocument": {"uri": uri}, "position": at(&fixed, needle, 2)}),
        );
        assert!(target["uri"].as_str().unwrap().ends_with(file), "{target}");
        let text = std::fs::read_to_string(file).unwrap();
        let line = target["range"]["start"]["line"].as_u64().unwrap() as usize;
        let shown = text.lines().nth(line).unwrap_or_default();
        assert!(shown.contains(line_holds), "{needle}: {target}: {shown}");
    }

    // An unknown request is answered with an error, not a crash.
    client
        .write(json!({"jsonrpc": "2.0", "id": 99, "method": "textDocument/rename", "params": {}}));
    loop {
        let m = client.receive();
        if m["id"] == 99 {
            assert_eq!(m["error"]["code"], -32601, "{m}");
            break;
        }
    }

    client.request("shutdown", Value::Null);
    client.notify("exit", Value::Null);
    let status = client.child.wait().unwrap();
    assert!(status.success(), "{status}");
}

/// Headless Neovim (Debian's `neovim`, 0.7) with its built-in client starting `deckspec lsp` as
/// README says: a scenario with a misspelt action gets the diagnostic and its suggestion. CI
/// installs neovim and sets `DECKSPEC_REQUIRE_NVIM=1`; elsewhere the test is skipped, saying so.
#[test]
fn neovim_shows_the_diagnostic_of_a_misspelt_action() {
    if Command::new("nvim").arg("--version").output().is_err() {
        assert!(
            std::env::var_os("DECKSPEC_REQUIRE_NVIM").is_none(),
            "DECKSPEC_REQUIRE_NVIM is set but Neovim is not installed (apt-get install neovim)"
        );
        eprintln!("SKIPPED the Neovim test: no nvim installed (apt-get install neovim)");
        return;
    }
    let dir = tempfile::tempdir().expect("a scratch folder");
    let init = dir.path().join("init.lua");
    std::fs::write(
        &init,
        format!(
            r#"vim.api.nvim_create_autocmd("FileType", {{ pattern = "cucumber", callback = function()
  local id = vim.lsp.start_client({{ name = "deckspec", cmd = {{ "{}", "lsp" }}, root_dir = vim.fn.getcwd() }})
  vim.lsp.buf_attach_client(0, id)
end }})
"#,
            env!("CARGO_BIN_EXE_deckspec")
        ),
    )
    .unwrap();
    let found = dir.path().join("diagnostics.txt");
    let run = dir.path().join("run.lua");
    std::fs::write(
        &run,
        format!(
            r#"vim.wait(20000, function() return #vim.diagnostic.get(0) > 0 end, 50)
local out = {{}}
for _, d in ipairs(vim.diagnostic.get(0)) do table.insert(out, (d.lnum + 1) .. ": " .. d.message) end
vim.fn.writefile(out, "{}")
vim.cmd("qa!")
"#,
            found.display()
        ),
    )
    .unwrap();
    let scenario = dir.path().join("typo.feature");
    std::fs::write(&scenario, SCENARIO).unwrap();
    let status = Command::new("nvim")
        .args(["--headless", "-n", "-i", "NONE", "-u"])
        .arg(&init)
        .arg(&scenario)
        .arg("-c")
        .arg(format!("luafile {}", run.display()))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::null())
        .status()
        .expect("nvim runs");
    assert!(status.success(), "{status}");
    let shown = std::fs::read_to_string(&found).unwrap_or_default();
    assert!(
        shown.starts_with("7: `drw_stockpile` is not an action of cambia")
            && shown.contains("did you mean `draw_stockpile`?"),
        "{shown}"
    );
}
