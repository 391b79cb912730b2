//! `deckspec lsp`: a language server for a rules project, over stdio (rust-analyzer's
//! `lsp-server` transport, `lsp-types` messages). Open `.feature` buffers are checked as they are
//! typed, unsaved, against the project's variants, with `deckspec check`'s messages and hints;
//! hover tells a `@rule:` tag's rule and an action's doc; completion offers the variant's actions
//! after `does`, its rule ids after `@rule:` and the step keywords; go to definition jumps from a
//! tag to its rulebook entry and from an action to its hook. Saving a rules file (`.rhai`,
//! `.yaml`) reloads the variants and checks every open scenario again.

mod feature;
pub mod position;

use crate::scenarios::ScriptProvider;
use lsp_server::{Connection, ErrorCode, Message, Notification, Request, RequestId, Response};
use lsp_types::notification::{
    DidChangeTextDocument, DidCloseTextDocument, DidOpenTextDocument, DidSaveTextDocument,
    Notification as _, PublishDiagnostics,
};
use lsp_types::request::{Completion, GotoDefinition, HoverRequest, Request as _};
use lsp_types::{
    CompletionOptions, CompletionResponse, GotoDefinitionResponse, Hover, HoverContents,
    HoverProviderCapability, InitializeParams, Location, MarkupContent, MarkupKind, OneOf,
    PublishDiagnosticsParams, ServerCapabilities, TextDocumentSyncCapability, TextDocumentSyncKind,
    Uri,
};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::str::FromStr;

/// Why the server stopped other than by the client's `shutdown` and `exit`.
#[derive(Debug, thiserror::Error)]
pub enum LspError {
    /// The client broke the protocol (no `initialize` first, a malformed message).
    #[error("the client broke the protocol: {0}")]
    Protocol(String),
    /// The connection to the client failed.
    #[error("the connection to the client failed: {0}")]
    Connection(String),
}

/// The most bytes of an open buffer the server keeps and checks (as `deckspec check` reads at
/// most that much of a file).
const MAX_BUFFER_BYTES: usize = crate::spec::limits::MAX_FILE_BYTES;

/// The server's state: the project's rules and the buffers the client has open.
struct Server {
    rules_dir: PathBuf,
    provider: ScriptProvider,
    /// Open `.feature` buffers by address: their text as typed.
    buffers: HashMap<String, String>,
}

/// Serve one client over standard input and output until it says `exit`; `rules_dir` holds the
/// variants.
pub fn serve_stdio(rules_dir: &Path) -> Result<(), LspError> {
    let (connection, io_threads) = Connection::stdio();
    serve(&connection, rules_dir)?;
    drop(connection);
    io_threads
        .join()
        .map_err(|e| LspError::Connection(e.to_string()))
}

/// Serve one client over `connection` (stdio, or an in-memory pair in tests).
pub fn serve(connection: &Connection, rules_dir: &Path) -> Result<(), LspError> {
    let capabilities = ServerCapabilities {
        text_document_sync: Some(TextDocumentSyncCapability::Kind(TextDocumentSyncKind::FULL)),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        completion_provider: Some(CompletionOptions {
            trigger_characters: Some(vec![" ".into(), ":".into()]),
            ..CompletionOptions::default()
        }),
        definition_provider: Some(OneOf::Left(true)),
        ..ServerCapabilities::default()
    };
    let capabilities =
        serde_json::to_value(capabilities).map_err(|e| LspError::Protocol(e.to_string()))?;
    let params = connection
        .initialize(capabilities)
        .map_err(|e| LspError::Protocol(e.to_string()))?;
    let _: InitializeParams =
        serde_json::from_value(params).map_err(|e| LspError::Protocol(e.to_string()))?;
    let mut server = Server {
        rules_dir: rules_dir.to_path_buf(),
        provider: ScriptProvider::new(rules_dir),
        buffers: HashMap::new(),
    };
    for message in &connection.receiver {
        match message {
            Message::Request(request) => {
                if connection
                    .handle_shutdown(&request)
                    .map_err(|e| LspError::Protocol(e.to_string()))?
                {
                    return Ok(());
                }
                let response = server.request(request);
                send(connection, Message::Response(response))?;
            }
            Message::Notification(note) => {
                for out in server.notification(note) {
                    send(connection, Message::Notification(out))?;
                }
            }
            Message::Response(_) => {}
        }
    }
    Ok(())
}

fn send(connection: &Connection, message: Message) -> Result<(), LspError> {
    connection
        .sender
        .send(message)
        .map_err(|e| LspError::Connection(e.to_string()))
}

impl Server {
    fn request(&mut self, request: Request) -> Response {
        let id = request.id.clone();
        let result = match request.method.as_str() {
            HoverRequest::METHOD => params(request).map(|p: lsp_types::HoverParams| {
                let at = p.text_document_position_params;
                json(self.hover(&at.text_document.uri, at.position))
            }),
            Completion::METHOD => params(request).map(|p: lsp_types::CompletionParams| {
                let at = p.text_document_position;
                json(self.completion(&at.text_document.uri, at.position))
            }),
            GotoDefinition::METHOD => params(request).map(|p: lsp_types::GotoDefinitionParams| {
                let at = p.text_document_position_params;
                json(self.definition(&at.text_document.uri, at.position))
            }),
            other => Err(Response::new_err(
                id.clone(),
                ErrorCode::MethodNotFound as i32,
                format!("deckspec lsp does not answer `{other}`"),
            )),
        };
        match result {
            Ok(value) => Response::new_ok(id, value),
            Err(mut error) => {
                error.id = id;
                error
            }
        }
    }

    /// What a notification changes, and the diagnostics to publish for it.
    fn notification(&mut self, note: Notification) -> Vec<Notification> {
        match note.method.as_str() {
            DidOpenTextDocument::METHOD => {
                let Ok(p) = note
                    .extract::<lsp_types::DidOpenTextDocumentParams>(DidOpenTextDocument::METHOD)
                else {
                    return Vec::new();
                };
                self.opened(p.text_document.uri, p.text_document.text)
            }
            DidChangeTextDocument::METHOD => {
                let Ok(p) = note.extract::<lsp_types::DidChangeTextDocumentParams>(
                    DidChangeTextDocument::METHOD,
                ) else {
                    return Vec::new();
                };
                // Full sync: the last change holds the whole text.
                match p.content_changes.into_iter().last() {
                    Some(change) => self.opened(p.text_document.uri, change.text),
                    None => Vec::new(),
                }
            }
            DidCloseTextDocument::METHOD => {
                if let Ok(p) = note
                    .extract::<lsp_types::DidCloseTextDocumentParams>(DidCloseTextDocument::METHOD)
                {
                    self.buffers.remove(p.text_document.uri.as_str());
                    return vec![publish(&p.text_document.uri, Vec::new())];
                }
                Vec::new()
            }
            DidSaveTextDocument::METHOD => {
                let Ok(p) = note
                    .extract::<lsp_types::DidSaveTextDocumentParams>(DidSaveTextDocument::METHOD)
                else {
                    return Vec::new();
                };
                let uri = p.text_document.uri.as_str();
                if uri.ends_with(".feature") {
                    return Vec::new();
                }
                // A rules file changed: load the variants again, check every open scenario.
                self.provider = ScriptProvider::new(&self.rules_dir);
                let open: Vec<String> = self.buffers.keys().cloned().collect();
                open.iter()
                    .filter_map(|u| Uri::from_str(u).ok())
                    .map(|u| self.check(&u))
                    .collect()
            }
            _ => Vec::new(),
        }
    }

    /// A buffer opened or changed: kept (when it is a scenario file) and checked.
    fn opened(&mut self, uri: Uri, text: String) -> Vec<Notification> {
        if !uri.as_str().ends_with(".feature") {
            return Vec::new();
        }
        let mut text = text;
        if text.len() > MAX_BUFFER_BYTES {
            text.truncate(position::floor_char_boundary(&text, MAX_BUFFER_BYTES));
        }
        self.buffers.insert(uri.as_str().to_string(), text);
        vec![self.check(&uri)]
    }

    fn check(&self, uri: &Uri) -> Notification {
        let diagnostics = match self.buffers.get(uri.as_str()) {
            Some(text) => feature::diagnostics(text, &self.provider),
            None => Vec::new(),
        };
        publish(uri, diagnostics)
    }

    fn buffer(&self, uri: &Uri) -> Option<&str> {
        self.buffers.get(uri.as_str()).map(String::as_str)
    }

    fn hover(&self, uri: &Uri, at: lsp_types::Position) -> Option<Hover> {
        let text = self.buffer(uri)?;
        let offset = position::offset(text, at);
        let (value, range) = feature::hover(text, offset, &self.provider)?;
        Some(Hover {
            contents: HoverContents::Markup(MarkupContent {
                kind: MarkupKind::Markdown,
                value,
            }),
            range: Some(range),
        })
    }

    fn completion(&self, uri: &Uri, at: lsp_types::Position) -> Option<CompletionResponse> {
        let text = self.buffer(uri)?;
        let offset = position::offset(text, at);
        Some(CompletionResponse::Array(feature::completions(
            text,
            offset,
            &self.provider,
        )))
    }

    fn definition(&self, uri: &Uri, at: lsp_types::Position) -> Option<GotoDefinitionResponse> {
        let text = self.buffer(uri)?;
        let offset = position::offset(text, at);
        let (path, target, start, end) =
            feature::definition(text, offset, &self.provider, &self.rules_dir)?;
        let absolute = std::fs::canonicalize(&path).unwrap_or(path);
        let address = url::Url::from_file_path(&absolute).ok()?;
        Some(GotoDefinitionResponse::Scalar(Location {
            uri: Uri::from_str(address.as_str()).ok()?,
            range: position::range(&target, start, end),
        }))
    }
}

/// A request's parameters, or the error response for them.
fn params<P: serde::de::DeserializeOwned>(request: Request) -> Result<P, Response> {
    serde_json::from_value(request.params).map_err(|e| {
        Response::new_err(
            RequestId::from(0),
            ErrorCode::InvalidParams as i32,
            e.to_string(),
        )
    })
}

fn json<T: serde::Serialize>(value: T) -> serde_json::Value {
    serde_json::to_value(value).unwrap_or(serde_json::Value::Null)
}

fn publish(uri: &Uri, diagnostics: Vec<lsp_types::Diagnostic>) -> Notification {
    Notification::new(
        PublishDiagnostics::METHOD.to_string(),
        PublishDiagnosticsParams {
            uri: uri.clone(),
            diagnostics,
            version: None,
        },
    )
}
