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
        Client::start_in(std::path::Path::new(env!("CARGO_MANIFEST_DIR")))
    }

    /// The server started in `dir` (holding `rules/` and `spec-tests/`).
    fn start_in(dir: &std::path::Path) -> Client {
        let mut child = Command::new(env!("CARGO_BIN_EXE_deckspec"))
            .arg("lsp")
            .current_dir(dir)
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

/// The labels of a completion answer.
fn labels(items: &Value) -> Vec<String> {
    items
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["label"].as_str().unwrap().to_string())
        .collect()
}

impl Client {
    /// Start and initialize a server, as an editor does.
    fn initialized() -> Client {
        Client::initialized_in(std::path::Path::new(env!("CARGO_MANIFEST_DIR")))
    }

    fn initialized_in(dir: &std::path::Path) -> Client {
        let mut client = Client::start_in(dir);
        let init = client.request(
            "initialize",
            json!({"processId": null, "rootUri": null, "capabilities": {}}),
        );
        assert_eq!(init["capabilities"]["hoverProvider"], true, "{init}");
        client.notify("initialized", json!({}));
        client
    }

    fn open(&mut self, uri: &str, text: &str) {
        self.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri, "languageId": "", "version": 1, "text": text}}),
        );
    }

    fn change(&mut self, uri: &str, text: &str) {
        self.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": text}]}),
        );
    }

    /// A request at the position of `needle` (plus `plus` bytes) in `text`.
    fn at(&mut self, method: &str, uri: &str, text: &str, needle: &str, plus: usize) -> Value {
        let mut params = json!({"textDocument": {"uri": uri}, "position": at(text, needle, plus)});
        if method == "textDocument/references" {
            params["context"] = json!({"includeDeclaration": true});
        }
        self.request(method, params)
    }

    /// Every diagnostics notification the last change made, by document (the latest of each):
    /// those sent before the answer to a request sent after it, since the server answers in
    /// order.
    fn diagnostics_until(
        &mut self,
        _changed: &str,
    ) -> std::collections::BTreeMap<String, Vec<Value>> {
        let id = self.next_id;
        self.next_id += 1;
        self.write(json!({"jsonrpc": "2.0", "id": id, "method": "deckspec/settle", "params": {}}));
        let mut out = std::collections::BTreeMap::new();
        loop {
            let m = self.receive();
            if m["id"] == id {
                return out;
            }
            if m["method"] == "textDocument/publishDiagnostics" {
                let uri = m["params"]["uri"].as_str().unwrap().to_string();
                out.insert(uri, m["params"]["diagnostics"].as_array().unwrap().clone());
            }
        }
    }

    fn stop(mut self) {
        self.request("shutdown", Value::Null);
        self.notify("exit", Value::Null);
        let status = self.child.wait().unwrap();
        assert!(status.success(), "{status}");
    }
}

/// The `file:` address of a file of the checkout.
fn file_uri(relative: &str) -> String {
    let root = std::fs::canonicalize(env!("CARGO_MANIFEST_DIR")).unwrap();
    format!("file://{}/{relative}", root.display())
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

/// What headless Neovim does with deckspec's server, as a person would: the misspelt action's
/// diagnostic and suggestion, the action completed, the rule tag hovered, the jump from the action
/// to its hook, the rule's scenarios as references, and a phase renamed in `variant.yaml`
/// (unsaved) flagging Cambia's script and scenario files. Each result is a line of the file the
/// script writes.
const NEOVIM_SCRIPT: &str = r#"
local out = {}
local function say(line) table.insert(out, line) end
local function request(method, params)
  local answers = vim.lsp.buf_request_sync(0, method, params, 20000) or {}
  for _, a in pairs(answers) do if a.result then return a.result end end
  return nil
end
local function at(row, col)
  vim.api.nvim_win_set_cursor(0, { row, col })
  return vim.lsp.util.make_position_params()
end
vim.wait(20000, function() return #vim.diagnostic.get(0) > 0 end, 50)
for _, d in ipairs(vim.diagnostic.get(0)) do say("diagnostic " .. (d.lnum + 1) .. ": " .. d.message:gsub("\n", " ")) end

-- Type the action anew, then complete it (the cursor stops on the last character: `does d`).
vim.api.nvim_buf_set_lines(0, 6, 7, false, { "    When ann does dr" })
vim.wait(300)
local items = request("textDocument/completion", at(7, 20)) or {}
local labels = {}
for _, i in ipairs(items.items or items) do table.insert(labels, i.label) end
table.sort(labels)
say("completion: " .. table.concat(labels, ","))
vim.api.nvim_buf_set_lines(0, 6, 7, false, { "    When ann does draw_stockpile" })
vim.wait(300)

local hover = request("textDocument/hover", at(4, 8))
say("hover: " .. ((hover and hover.contents.value or ""):gsub("\n", " ")))
local def = request("textDocument/definition", at(7, 20))
if def and def[1] then def = def[1] end
say("definition: " .. (def and (def.uri .. ":" .. def.range.start.line) or "none"))
local where = at(4, 8)
where.context = { includeDeclaration = true }
local refs = request("textDocument/references", where) or {}
say("references: " .. #refs)

-- Rename a phase in variant.yaml without saving it.
vim.cmd("edit rules/cambia/variant.yaml")
local lines = vim.api.nvim_buf_get_lines(0, 0, -1, false)
for i, l in ipairs(lines) do lines[i] = l:gsub("awaiting_discard", "awaiting_choice") end
vim.api.nvim_buf_set_lines(0, 0, -1, false, lines)
local function flagged(suffix)
  local n = 0
  for _, d in ipairs(vim.diagnostic.get()) do
    if vim.api.nvim_buf_get_name(d.bufnr):sub(-#suffix) == suffix and d.message:find("awaiting_discard", 1, true) then n = n + 1 end
  end
  return n
end
vim.wait(20000, function() return flagged("drawing.feature") > 0 end, 50)
say("renamed: cambia.rhai " .. flagged("cambia.rhai") .. ", drawing.feature " .. flagged("drawing.feature"))
vim.fn.writefile(out, vim.env.DECKSPEC_NVIM_OUT)
vim.cmd("qa!")
"#;

/// Headless Neovim (Debian's `neovim`, 0.7) with its built-in client starting `deckspec lsp` as
/// README says, driven through `NEOVIM_SCRIPT`. CI installs neovim and sets
/// `DECKSPEC_REQUIRE_NVIM=1`; elsewhere the test is skipped, saying so.
#[test]
fn neovim_shows_problems_completes_hovers_jumps_and_flags_a_renamed_phase() {
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
    // README's snippet, with the program just built.
    std::fs::write(
        &init,
        format!(
            r#"local deckspec
vim.api.nvim_create_autocmd("FileType", {{ pattern = {{ "cucumber", "rhai", "yaml" }}, callback = function()
  deckspec = deckspec or vim.lsp.start_client({{ name = "deckspec", cmd = {{ "{}", "lsp" }}, root_dir = vim.fn.getcwd() }})
  vim.lsp.buf_attach_client(0, deckspec)
end }})
"#,
            env!("CARGO_BIN_EXE_deckspec")
        ),
    )
    .unwrap();
    let found = dir.path().join("results.txt");
    let run = dir.path().join("run.lua");
    std::fs::write(&run, NEOVIM_SCRIPT).unwrap();
    let scenario = dir.path().join("typo.feature");
    std::fs::write(&scenario, SCENARIO).unwrap();
    let status = Command::new("nvim")
        .args(["--headless", "-n", "-i", "NONE", "-u"])
        .arg(&init)
        .arg(&scenario)
        .arg("-c")
        .arg(format!("luafile {}", run.display()))
        .env("DECKSPEC_NVIM_OUT", &found)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::null())
        .status()
        .expect("nvim runs");
    assert!(status.success(), "{status}");
    let shown = std::fs::read_to_string(&found).unwrap_or_default();
    let line = |prefix: &str| {
        shown
            .lines()
            .find(|l| l.starts_with(prefix))
            .unwrap_or_else(|| panic!("no `{prefix}` in:\n{shown}"))
            .to_string()
    };
    let diagnostic = line("diagnostic 7: ");
    assert!(
        diagnostic.contains("`drw_stockpile` is not an action of cambia")
            && diagnostic.contains("did you mean `draw_stockpile`?"),
        "{shown}"
    );
    assert_eq!(
        line("completion: "),
        "completion: discard,draw_discardpile,draw_stockpile",
        "{shown}"
    );
    assert!(
        line("hover: ").contains("draw_stockpile takes the top card"),
        "{shown}"
    );
    let definition = line("definition: ");
    let hook = std::fs::read_to_string("rules/cambia/cambia.rhai")
        .unwrap()
        .lines()
        .position(|l| l.contains("fn on_draw_stockpile("))
        .unwrap();
    assert!(
        definition.contains("rules/cambia/cambia.rhai:")
            && definition.ends_with(&format!(":{hook}")),
        "{shown}"
    );
    let references: usize = line("references: ")["references: ".len()..]
        .parse()
        .unwrap();
    assert!(references > 1, "{shown}");
    let renamed = line("renamed: ");
    let count = |file: &str| -> usize {
        renamed
            .split(", ")
            .find_map(|p| p.trim_start_matches("renamed: ").strip_prefix(file))
            .and_then(|n| n.trim().parse().ok())
            .unwrap_or(0)
    };
    assert!(
        count("cambia.rhai") > 0 && count("drawing.feature") > 0,
        "{shown}"
    );
}

/// A phase renamed in `variant.yaml`, unsaved: the scripts and the scenario files that still use
/// the old name (on disk, not open) are flagged where they use it, and cleared when the name is
/// back.
#[test]
fn a_phase_renamed_in_variant_yaml_flags_the_scripts_and_scenarios_that_use_it() {
    let mut client = Client::initialized();
    let yaml_uri = file_uri("rules/cambia/variant.yaml");
    let yaml = std::fs::read_to_string("rules/cambia/variant.yaml").unwrap();
    client.open(&yaml_uri, &yaml);
    // Opening it unchanged: nothing is wrong, the buffer is cleared.
    let clean = client.diagnostics_until(&yaml_uri);
    assert!(clean.values().all(Vec::is_empty), "{clean:?}");

    let renamed = yaml.replace("awaiting_discard", "awaiting_choice");
    client.change(&yaml_uri, &renamed);
    let found = client.diagnostics_until(&yaml_uri);
    let script = &found[&file_uri("rules/cambia/cambia.rhai")];
    assert!(!script.is_empty(), "{found:?}");
    let text = std::fs::read_to_string("rules/cambia/cambia.rhai").unwrap();
    for d in script {
        let message = d["message"].as_str().unwrap();
        assert!(
            message.contains("`awaiting_discard` is not a phase of cambia"),
            "{message}"
        );
        let line = d["range"]["start"]["line"].as_u64().unwrap() as usize;
        assert!(
            text.lines()
                .nth(line)
                .unwrap()
                .contains("\"awaiting_discard\"")
        );
    }
    let drawing = &found[&file_uri("spec-tests/cambia/drawing.feature")];
    assert!(
        drawing.iter().any(|d| d["message"]
            .as_str()
            .unwrap()
            .contains("`awaiting_discard` is not a phase of cambia")),
        "{drawing:?}"
    );
    assert!(found[&yaml_uri].is_empty(), "{found:?}");

    // The name back: every file that had problems is cleared.
    client.change(&yaml_uri, &yaml);
    let cleared = client.diagnostics_until(&yaml_uri);
    for uri in found.keys() {
        assert_eq!(cleared.get(uri), Some(&Vec::new()), "{uri}");
    }

    // A YAML error is shown in variant.yaml, at its line.
    let broken = yaml.replacen("description:", "descripton:", 1);
    client.change(&yaml_uri, &broken);
    let found = client.diagnostics_until(&yaml_uri);
    let d = &found[&yaml_uri];
    assert_eq!(d.len(), 1, "{found:?}");
    assert!(
        d[0]["message"]
            .as_str()
            .unwrap()
            .contains("did you mean `description`"),
        "{d:?}"
    );
    let line = d[0]["range"]["start"]["line"].as_u64().unwrap() as usize;
    assert!(broken.lines().nth(line).unwrap().starts_with("descripton:"));
    client.stop();
}

/// In a rule script: the game API completes after `game.`, a string argument completes with the
/// names it must be, hover tells an API function and a name, definition jumps to a function and
/// to a name's declaration in `variant.yaml`; a misspelt name is flagged as typed.
#[test]
fn an_editor_completes_hovers_and_jumps_in_a_rule_script() {
    let mut client = Client::initialized();
    let uri = file_uri("rules/cambia/cambia.rhai");
    let text = std::fs::read_to_string("rules/cambia/cambia.rhai").unwrap();
    client.open(&uri, &text);
    client.diagnostics_until(&uri);

    let typing = text.replacen(
        "game.set_phase(\"awaiting_discard\")",
        "game.set_phase(\"await\")",
        1,
    );
    client.change(&uri, &typing);
    let found = client.diagnostics_until(&uri);
    let mine = &found[&uri];
    assert_eq!(mine.len(), 1, "{mine:?}");
    assert!(
        mine[0]["message"]
            .as_str()
            .unwrap()
            .contains("`await` is not a phase of cambia")
    );
    let items = client.at(
        "textDocument/completion",
        &uri,
        &typing,
        "set_phase(\"await",
        15,
    );
    let got = labels(&items);
    assert!(
        got.contains(&"awaiting_discard".to_string()) && got.contains(&"awaiting_draw".to_string()),
        "{got:?}"
    );
    assert!(!got.contains(&"game_over".to_string()), "{got:?}");

    let typing = typing.replacen("game.set_phase(\"await\")", "game.pile_s", 1);
    client.change(&uri, &typing);
    client.diagnostics_until(&uri);
    let items = client.at("textDocument/completion", &uri, &typing, "game.pile_s", 11);
    let item = &items.as_array().unwrap()[0];
    assert_eq!(item["label"], "pile_size", "{items}");
    assert_eq!(item["detail"], "game.pile_size(\"pile\")", "{items}");
    client.change(&uri, &text);
    client.diagnostics_until(&uri);

    let hover = client.at("textDocument/hover", &uri, &text, "game.set_phase(", 6);
    let shown = hover["contents"]["value"].as_str().unwrap();
    assert!(
        shown.contains("game.set_phase(\"phase\")") && shown.contains("phases:"),
        "{shown}"
    );

    // A call of a script function → its `fn`; a phase → its declaration in variant.yaml.
    let call = text.find("restart_timer(game);").unwrap();
    let target = client.request(
        "textDocument/definition",
        json!({"textDocument": {"uri": uri}, "position": at(&text, "restart_timer(game);", 3)}),
    );
    assert_eq!(target["uri"], uri.as_str(), "{target}");
    let line = target["range"]["start"]["line"].as_u64().unwrap() as usize;
    assert!(
        text.lines()
            .nth(line)
            .unwrap()
            .contains("fn restart_timer("),
        "{target}"
    );
    assert!(line != text[..call].matches('\n').count());
    let target = client.at(
        "textDocument/definition",
        &uri,
        &text,
        "set_phase(\"awaiting_discard\")",
        13,
    );
    assert!(
        target["uri"]
            .as_str()
            .unwrap()
            .ends_with("rules/cambia/variant.yaml"),
        "{target}"
    );
    let yaml = std::fs::read_to_string("rules/cambia/variant.yaml").unwrap();
    let line = target["range"]["start"]["line"].as_u64().unwrap() as usize;
    assert!(
        yaml.lines().nth(line).unwrap().contains("awaiting_discard"),
        "{target}"
    );
    client.stop();
}

/// In `variant.yaml`, keys complete by where the cursor is; in a scenario, step forms, players,
/// cards, events and phases complete; a rule's scenarios are its references; scenarios run from
/// their lens and show how they ended; tokens and formatting answer.
#[test]
fn an_editor_completes_yaml_and_scenarios_finds_references_and_runs_a_scenario() {
    let mut client = Client::initialized();
    let yaml_uri = file_uri("rules/cambia/variant.yaml");
    let yaml = std::fs::read_to_string("rules/cambia/variant.yaml").unwrap();
    let typing = yaml.replacen("actions:\n", "actions:\n  peek:\n    rev\n", 1);
    client.open(&yaml_uri, &typing);
    client.diagnostics_until(&yaml_uri);
    let items = client.at(
        "textDocument/completion",
        &yaml_uri,
        &typing,
        "    rev\n",
        7,
    );
    assert_eq!(labels(&items), ["reveals"]);
    client.notify(
        "textDocument/didClose",
        json!({"textDocument": {"uri": yaml_uri}}),
    );

    let uri = file_uri("spec-tests/cambia/typed.feature");
    let text = SCENARIO
        .replace("drw_stockpile", "draw_stockpile")
        .replace("ann, bob\n", "ann, bob\n    And it is ann's turn\n");
    client.open(&uri, &text);
    client.diagnostics(&uri);
    for (typed, expected, not) in [
        ("    When a", "ann", "bob"),
        (
            "    Then the phase is awaiting_d",
            "awaiting_draw",
            "game_over",
        ),
        (
            "    Then everyone sees player_dr",
            "player_draw_stockpile",
            "game_end",
        ),
        ("    Given ann holds 7S, K", "KH", "7S"),
        (
            "    When ",
            "<player> does <action> [<args>]",
            "the seed is <n>",
        ),
        ("    Given the house rule hand_", "hand_size", "use_jokers"),
    ] {
        let buffer = format!("{text}{typed}");
        client.change(&uri, &buffer);
        client.diagnostics(&uri);
        let got = labels(&client.request(
            "textDocument/completion",
            json!({"textDocument": {"uri": uri}, "position": at(&buffer, typed, typed.len())}),
        ));
        assert!(got.contains(&expected.to_string()), "{typed}: {got:?}");
        assert!(!got.contains(&not.to_string()), "{typed}: {got:?}");
    }
    client.change(&uri, &text);
    client.diagnostics(&uri);

    // Hover over a phase and an event.
    let hover = client.at("textDocument/hover", &uri, &text, "awaiting_discard", 3);
    assert!(
        hover["contents"]["value"]
            .as_str()
            .unwrap()
            .contains("a phase of cambia"),
        "{hover}"
    );

    // A rule's references: every scenario citing it, from the tag and from the rulebook.
    let refs = client.at(
        "textDocument/references",
        &uri,
        &text,
        "@rule:CAM-DRAW-1",
        8,
    );
    let cited: Vec<&str> = refs
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["uri"].as_str().unwrap())
        .collect();
    assert!(cited.contains(&uri.as_str()), "{cited:?}");
    let bundled = std::fs::read_dir("spec-tests/cambia")
        .unwrap()
        .flatten()
        .filter(|e| {
            std::fs::read_to_string(e.path())
                .unwrap()
                .contains("@rule:CAM-DRAW-1\n")
        })
        .count();
    assert!(bundled > 0 && cited.len() > bundled, "{cited:?}");
    let book_uri = file_uri("rules/cambia/rulebook.yaml");
    let book = std::fs::read_to_string("rules/cambia/rulebook.yaml").unwrap();
    client.open(&book_uri, &book);
    client.diagnostics_until(&book_uri);
    let from_book = client.at(
        "textDocument/references",
        &book_uri,
        &book,
        "id: CAM-DRAW-1\n",
        5,
    );
    assert_eq!(
        from_book.as_array().unwrap().len(),
        cited.len(),
        "{from_book}"
    );

    // Semantic tokens and formatting answer for the scenario.
    let tokens = client.request(
        "textDocument/semanticTokens/full",
        json!({"textDocument": {"uri": uri}}),
    );
    assert!(tokens["data"].as_array().unwrap().len() > 20, "{tokens}");
    let messy = text.replace("    Then", "        Then");
    client.change(&uri, &messy);
    client.diagnostics(&uri);
    let edits = client.request(
        "textDocument/formatting",
        json!({"textDocument": {"uri": uri}, "options": {"tabSize": 2, "insertSpaces": true}}),
    );
    assert_eq!(edits[0]["newText"], text.as_str(), "{edits}");

    // Run the scenario from its lens: it passes; broken, it fails on its step with what was
    // expected and found.
    client.change(&uri, &text);
    client.diagnostics(&uri);
    let lenses = client.request(
        "textDocument/codeLens",
        json!({"textDocument": {"uri": uri}}),
    );
    let scenario = lenses
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["range"]["start"]["line"] == 4)
        .unwrap();
    assert_eq!(scenario["command"]["title"], "▶ run scenario", "{lenses}");
    let run = |client: &mut Client| {
        client.request("workspace/executeCommand", json!({"command": scenario["command"]["command"], "arguments": scenario["command"]["arguments"]}))
    };
    let outcome = run(&mut client);
    assert_eq!(outcome["4"], "✔ passed", "{outcome}");
    let wrong = text.replace(
        "Then the phase is awaiting_discard",
        "Then the phase is awaiting_draw",
    );
    client.change(&uri, &wrong);
    client.diagnostics(&uri);
    let outcome = run(&mut client);
    assert!(
        outcome["4"].as_str().unwrap().starts_with("✘ failed"),
        "{outcome}"
    );
    let failed = client.diagnostics(&uri);
    assert_eq!(failed.len(), 1, "{failed:?}");
    assert_eq!(failed[0]["range"]["start"]["line"], 8, "{failed:?}");
    assert!(
        failed[0]["message"]
            .as_str()
            .unwrap()
            .contains("awaiting_discard"),
        "{failed:?}"
    );
    let lenses = client.request(
        "textDocument/codeLens",
        json!({"textDocument": {"uri": uri}}),
    );
    let title = lenses
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["range"]["start"]["line"] == 4)
        .unwrap()["command"]["title"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        title.starts_with("✘ failed") && title.ends_with("run scenario again"),
        "{title}"
    );
    client.stop();
}

/// A project whose scenarios miss much of its script: the mutants lens finds the survivors and
/// shows each as a hint where it is; an edit of the script forgets them.
#[test]
fn the_mutants_no_scenario_notices_are_hints_in_the_script() {
    let dir = tempfile::tempdir().expect("a scratch folder");
    let root = dir.path();
    let copy = |from: &str, to: &str| {
        std::fs::create_dir_all(root.join(to).parent().unwrap()).unwrap();
        std::fs::copy(from, root.join(to)).unwrap();
    };
    for entry in std::fs::read_dir("rules/cambia").unwrap().flatten() {
        let name = entry.file_name().into_string().unwrap();
        copy(
            &format!("rules/cambia/{name}"),
            &format!("rules/cambia/{name}"),
        );
    }
    copy(
        "spec-tests/cambia/drawing.feature",
        "spec-tests/cambia/drawing.feature",
    );
    let root = std::fs::canonicalize(root).unwrap();
    let mut client = Client::initialized_in(&root);
    let uri = format!("file://{}/rules/cambia/cambia.rhai", root.display());
    let text = std::fs::read_to_string(root.join("rules/cambia/cambia.rhai")).unwrap();
    client.open(&uri, &text);
    client.diagnostics_until(&uri);
    let lenses = client.request(
        "textDocument/codeLens",
        json!({"textDocument": {"uri": uri}}),
    );
    let find = lenses
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["command"]["command"] == "deckspec.mutants")
        .unwrap_or_else(|| panic!("{lenses}"))["command"]
        .clone();
    let found = client.request(
        "workspace/executeCommand",
        json!({"command": find["command"], "arguments": find["arguments"]}),
    );
    let survived = found["survived"].as_u64().unwrap();
    assert!(survived > 10, "{found}");
    let published = client.diagnostics_until(&uri);
    let hints = &published[&uri];
    assert!(
        hints.len() as u64 <= survived && hints.len() > 10,
        "{found} {hints:?}"
    );
    for hint in hints {
        assert_eq!(hint["severity"], 4, "{hint}");
        let message = hint["message"].as_str().unwrap();
        assert!(message.starts_with("a mutant survives"), "{message}");
    }
    let lenses = client.request(
        "textDocument/codeLens",
        json!({"textDocument": {"uri": uri}}),
    );
    assert!(
        lenses[1]["command"]["title"]
            .as_str()
            .unwrap()
            .starts_with(&format!("{} surviving mutants here", hints.len())),
        "{lenses}"
    );
    // An edit of the script moves its lines: the hints go.
    client.change(&uri, &format!("{text}\n"));
    let after = client.diagnostics_until(&uri);
    assert_eq!(after.get(&uri), Some(&Vec::new()), "{after:?}");
    client.stop();
}
