//! `deckspec lsp`: a language server for a rules project, over stdio (rust-analyzer's
//! `lsp-server` transport, `lsp-types` messages). Every buffer of the project is checked as it is
//! typed, unsaved: scenario files as `deckspec check` checks them, rule scripts and YAML files by
//! loading the variants through the open buffers, so that a change in one file shows the
//! problems it makes in others (a phase renamed in `variant.yaml` flags the scripts and
//! scenarios that use it). Completion, hover, go to definition, references, semantic tokens,
//! formatting, and code lenses that run scenarios and show which script lines they run.

mod feature;
mod lens;
pub mod position;
mod project;
mod script;
mod tokens;
mod yaml;

use lsp_server::{Connection, ErrorCode, Message, Notification, Request, RequestId, Response};
use lsp_types::notification::{
    DidChangeTextDocument, DidCloseTextDocument, DidOpenTextDocument, DidSaveTextDocument,
    Notification as _, PublishDiagnostics,
};
use lsp_types::request::{
    CodeLensRequest, Completion, ExecuteCommand, Formatting, GotoDefinition, HoverRequest,
    References, Request as _, SemanticTokensFullRequest,
};
use lsp_types::{
    CodeLensOptions, CompletionOptions, CompletionResponse, ExecuteCommandOptions,
    GotoDefinitionResponse, Hover, HoverContents, HoverProviderCapability, InitializeParams,
    Location, MarkupContent, MarkupKind, OneOf, PublishDiagnosticsParams,
    SemanticTokensFullOptions, SemanticTokensOptions, SemanticTokensResult,
    SemanticTokensServerCapabilities, ServerCapabilities, TextDocumentSyncCapability,
    TextDocumentSyncKind, TextEdit, Uri,
};
use position::Target;
use project::{Kind, Project, Publish};
use std::collections::HashMap;
use std::path::Path;

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

/// The server's state: the project, the last runs of scenario files and the coverage measured.
struct Server {
    project: Project,
    /// The last run of each scenario buffer, until it changes.
    runs: HashMap<String, lens::RunResults>,
    /// Each variant's coverage, as last measured, until the rules change.
    coverage: HashMap<String, crate::coverage::CoverageReport>,
    /// Each variant's surviving mutants, as last found, until the rules change.
    mutants: HashMap<String, lens::MutantsRun>,
    /// Whether the client can be asked to fetch its code lenses again.
    lens_refresh: bool,
    next_request: i32,
    /// Diagnostics a request made, to publish once it is answered.
    pending: Publish,
}

/// Serve one client over standard input and output until it says `exit`; `rules_dir` holds the
/// variants, `specs_dir` the scenario files.
pub fn serve_stdio(rules_dir: &Path, specs_dir: &Path) -> Result<(), LspError> {
    let (connection, io_threads) = Connection::stdio();
    serve(&connection, rules_dir, specs_dir)?;
    drop(connection);
    io_threads
        .join()
        .map_err(|e| LspError::Connection(e.to_string()))
}

/// What the server can do, as it tells the client.
fn capabilities() -> ServerCapabilities {
    ServerCapabilities {
        text_document_sync: Some(TextDocumentSyncCapability::Kind(TextDocumentSyncKind::FULL)),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        completion_provider: Some(CompletionOptions {
            trigger_characters: Some(vec![
                " ".into(),
                ":".into(),
                ".".into(),
                "\"".into(),
                ",".into(),
            ]),
            ..CompletionOptions::default()
        }),
        definition_provider: Some(OneOf::Left(true)),
        references_provider: Some(OneOf::Left(true)),
        document_formatting_provider: Some(OneOf::Left(true)),
        semantic_tokens_provider: Some(SemanticTokensServerCapabilities::SemanticTokensOptions(
            SemanticTokensOptions {
                legend: tokens::legend(),
                full: Some(SemanticTokensFullOptions::Bool(true)),
                ..SemanticTokensOptions::default()
            },
        )),
        code_lens_provider: Some(CodeLensOptions {
            resolve_provider: Some(false),
        }),
        execute_command_provider: Some(ExecuteCommandOptions {
            commands: vec![
                lens::RUN.into(),
                lens::COVERAGE.into(),
                lens::MUTANTS.into(),
            ],
            ..ExecuteCommandOptions::default()
        }),
        ..ServerCapabilities::default()
    }
}

/// Serve one client over `connection` (stdio, or an in-memory pair in tests and benchmarks).
pub fn serve(connection: &Connection, rules_dir: &Path, specs_dir: &Path) -> Result<(), LspError> {
    let capabilities =
        serde_json::to_value(capabilities()).map_err(|e| LspError::Protocol(e.to_string()))?;
    let params = connection
        .initialize(capabilities)
        .map_err(|e| LspError::Protocol(e.to_string()))?;
    let params: InitializeParams =
        serde_json::from_value(params).map_err(|e| LspError::Protocol(e.to_string()))?;
    let lens_refresh = params
        .capabilities
        .workspace
        .and_then(|w| w.code_lens)
        .and_then(|c| c.refresh_support)
        .unwrap_or(false);
    let mut server = Server {
        project: Project::new(rules_dir, specs_dir),
        runs: HashMap::new(),
        coverage: HashMap::new(),
        mutants: HashMap::new(),
        lens_refresh,
        next_request: 0,
        pending: Vec::new(),
    };
    // The project's problems from the start, every file's.
    let start = server.project.check_all();
    server.publish(connection, start)?;
    for message in &connection.receiver {
        match message {
            Message::Request(request) => {
                if connection
                    .handle_shutdown(&request)
                    .map_err(|e| LspError::Protocol(e.to_string()))?
                {
                    return Ok(());
                }
                let command = request.method == ExecuteCommand::METHOD;
                let response = server.request(request);
                send(connection, Message::Response(response))?;
                let pending = std::mem::take(&mut server.pending);
                server.publish(connection, pending)?;
                if command && server.lens_refresh {
                    server.next_request += 1;
                    let refresh = Request::new(
                        RequestId::from(server.next_request),
                        "workspace/codeLens/refresh".into(),
                        serde_json::Value::Null,
                    );
                    send(connection, Message::Request(refresh))?;
                }
            }
            Message::Notification(note) => {
                let publish = server.notification(note);
                server.publish(connection, publish)?;
                if server.project.take_scenarios_due() {
                    let publish = server.project.check_scenarios();
                    server.publish(connection, publish)?;
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
            References::METHOD => params(request).map(|p: lsp_types::ReferenceParams| {
                let at = p.text_document_position;
                json(self.references(&at.text_document.uri, at.position))
            }),
            SemanticTokensFullRequest::METHOD => {
                params(request).map(|p: lsp_types::SemanticTokensParams| {
                    json(self.semantic_tokens(&p.text_document.uri))
                })
            }
            Formatting::METHOD => params(request).map(|p: lsp_types::DocumentFormattingParams| {
                json(self.formatting(&p.text_document.uri))
            }),
            CodeLensRequest::METHOD => params(request)
                .map(|p: lsp_types::CodeLensParams| json(self.code_lenses(&p.text_document.uri))),
            ExecuteCommand::METHOD => match params(request) {
                Ok(p) => {
                    let (value, publish) = self.execute(p);
                    // Published after the answer, which the client waits for.
                    self.pending = publish;
                    value
                }
                Err(e) => Err(e),
            },
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

    /// Send diagnostics, a scenario file's last run's failures added to its problems.
    fn publish(&self, connection: &Connection, publish: Publish) -> Result<(), LspError> {
        for (uri, mut diagnostics) in publish {
            if let Some(run) = self.runs.get(uri.as_str()) {
                diagnostics.extend(run.diagnostics.iter().cloned());
            }
            let path = position::path_of(&uri);
            for run in self.mutants.values() {
                let hints = run
                    .survivors
                    .iter()
                    .filter(|(p, _)| Some(p) == path.as_ref());
                diagnostics.extend(hints.map(|(_, d)| d.clone()));
            }
            let note = Notification::new(
                PublishDiagnostics::METHOD.to_string(),
                PublishDiagnosticsParams {
                    uri,
                    diagnostics,
                    version: None,
                },
            );
            send(connection, Message::Notification(note))?;
        }
        Ok(())
    }

    /// What a notification changes: the diagnostics to publish for it.
    fn notification(&mut self, note: Notification) -> Publish {
        match note.method.as_str() {
            DidOpenTextDocument::METHOD => {
                let Ok(p) = note
                    .extract::<lsp_types::DidOpenTextDocumentParams>(DidOpenTextDocument::METHOD)
                else {
                    return Vec::new();
                };
                self.changed(&p.text_document.uri, p.text_document.text)
            }
            DidChangeTextDocument::METHOD => {
                let Ok(p) = note.extract::<lsp_types::DidChangeTextDocumentParams>(
                    DidChangeTextDocument::METHOD,
                ) else {
                    return Vec::new();
                };
                // Full sync: the last change holds the whole text.
                match p.content_changes.into_iter().last() {
                    Some(change) => self.changed(&p.text_document.uri, change.text),
                    None => Vec::new(),
                }
            }
            DidCloseTextDocument::METHOD => {
                let Ok(p) = note
                    .extract::<lsp_types::DidCloseTextDocumentParams>(DidCloseTextDocument::METHOD)
                else {
                    return Vec::new();
                };
                self.runs.remove(p.text_document.uri.as_str());
                self.project.close(&p.text_document.uri)
            }
            DidSaveTextDocument::METHOD => {
                self.coverage.clear();
                let mut publish = self.forget_mutants();
                publish.extend(self.project.saved());
                publish
            }
            _ => Vec::new(),
        }
    }

    fn changed(&mut self, uri: &Uri, text: String) -> Publish {
        self.runs.remove(uri.as_str());
        let rules =
            position::path_of(uri).is_some_and(|p| p.extension().is_none_or(|e| e != "feature"));
        // A rules change moves the lines that coverage and the mutants were found at.
        let mut publish = Vec::new();
        if rules {
            self.coverage.clear();
            publish = self.forget_mutants();
        }
        publish.extend(self.project.set_buffer(uri, text));
        publish
    }

    /// Forget the surviving mutants: the files that showed them, with their problems alone.
    fn forget_mutants(&mut self) -> Publish {
        let mut files: Vec<std::path::PathBuf> = self
            .mutants
            .drain()
            .flat_map(|(_, run)| run.survivors.into_iter().map(|(p, _)| p))
            .collect();
        files.sort();
        files.dedup();
        files
            .iter()
            .filter_map(|p| position::uri_of(p))
            .map(|u| {
                let problems = self.project.published(&u);
                (u, problems)
            })
            .collect()
    }

    fn hover(&self, uri: &Uri, at: lsp_types::Position) -> Option<Hover> {
        let b = self.project.buffer(uri)?;
        let offset = position::offset(&b.text, at);
        let (value, range) = match b.kind {
            Kind::Feature => feature::hover(&b.text, offset, &self.project.provider)?,
            Kind::Script => {
                let variant = self.project.variant_of(&b.path)?;
                script::hover(&b.text, offset, &b.path, &variant)?
            }
            Kind::Yaml if is_variant_yaml(&b.path) => yaml::hover(&b.text, offset)?,
            Kind::Yaml | Kind::Other => return None,
        };
        Some(Hover {
            contents: HoverContents::Markup(MarkupContent {
                kind: MarkupKind::Markdown,
                value,
            }),
            range: Some(range),
        })
    }

    fn completion(&self, uri: &Uri, at: lsp_types::Position) -> Option<CompletionResponse> {
        let b = self.project.buffer(uri)?;
        let offset = position::offset(&b.text, at);
        let items = match b.kind {
            Kind::Feature => feature::completions(&b.text, offset, &self.project.provider),
            Kind::Script => {
                let variant = self.project.variant_of(&b.path)?;
                script::completions(&b.text, offset, &b.path, &variant)
            }
            Kind::Yaml if is_variant_yaml(&b.path) => {
                let variant = self.project.variant_of(&b.path);
                yaml::completions(&b.text, offset, variant.as_deref())
            }
            Kind::Yaml | Kind::Other => return None,
        };
        Some(CompletionResponse::Array(items))
    }

    fn definition(&self, uri: &Uri, at: lsp_types::Position) -> Option<GotoDefinitionResponse> {
        let b = self.project.buffer(uri)?;
        let offset = position::offset(&b.text, at);
        let provider = &self.project.provider;
        let target = match b.kind {
            Kind::Feature => {
                feature::definition(&b.text, offset, provider, &self.project.rules_dir)?
            }
            Kind::Script => {
                let variant = self.project.variant_of(&b.path)?;
                script::definition(&b.text, offset, &b.path, &variant, provider)?
            }
            Kind::Yaml if is_variant_yaml(&b.path) => {
                let action = yaml::action_at(&b.text, offset)?;
                feature::hook(&*self.project.variant_of(&b.path)?, action)?
            }
            Kind::Yaml | Kind::Other => return None,
        };
        Some(GotoDefinitionResponse::Scalar(location(&target)?))
    }

    /// Every scenario citing the rule under the cursor (a `@rule:` tag, or an `id:` of a
    /// rulebook).
    fn references(&self, uri: &Uri, at: lsp_types::Position) -> Option<Vec<Location>> {
        let b = self.project.buffer(uri)?;
        let offset = position::offset(&b.text, at);
        let id = match b.kind {
            Kind::Feature => match feature::word_at(&b.text, offset)? {
                (feature::Word::Rule(id), ..) => id,
                _ => return None,
            },
            Kind::Yaml => yaml::rule_id_at(&b.text, offset)?,
            _ => return None,
        };
        let sources = self.project.scenario_sources();
        Some(
            feature::citations(id, &sources)
                .iter()
                .filter_map(location)
                .collect(),
        )
    }

    fn semantic_tokens(&self, uri: &Uri) -> Option<SemanticTokensResult> {
        let b = self.project.buffer(uri)?;
        (b.kind == Kind::Feature).then(|| {
            SemanticTokensResult::Tokens(lsp_types::SemanticTokens {
                result_id: None,
                data: tokens::semantic_tokens(&b.text),
            })
        })
    }

    /// A scenario buffer laid out as `deckspec fmt` lays it out: one edit of the whole text, or
    /// none when it is laid out so already (or does not parse).
    fn formatting(&self, uri: &Uri) -> Option<Vec<TextEdit>> {
        let b = self.project.buffer(uri)?;
        if b.kind != Kind::Feature {
            return None;
        }
        let formatted = crate::spec::parse::format::format_feature(&b.text).ok()?;
        if formatted == b.text {
            return Some(Vec::new());
        }
        Some(vec![TextEdit {
            range: position::range(&b.text, 0, b.text.len()),
            new_text: formatted,
        }])
    }

    fn code_lenses(&self, uri: &Uri) -> Option<Vec<lsp_types::CodeLens>> {
        let b = self.project.buffer(uri)?;
        match b.kind {
            Kind::Feature => Some(lens::feature_lenses(
                uri,
                &b.text,
                self.runs.get(uri.as_str()),
            )),
            Kind::Script => {
                let variant = self.project.variant_of(&b.path)?;
                Some(lens::script_lenses(
                    uri,
                    &b.path,
                    self.coverage.get(&variant.name),
                    self.mutants.get(&variant.name),
                ))
            }
            _ => None,
        }
    }

    /// Run a lens's command: its result for the client, and diagnostics to publish.
    fn execute(
        &mut self,
        p: lsp_types::ExecuteCommandParams,
    ) -> (Result<serde_json::Value, Response>, Publish) {
        let invalid = |message: String| {
            Err(Response::new_err(
                RequestId::from(0),
                ErrorCode::InvalidParams as i32,
                message,
            ))
        };
        let uri = p
            .arguments
            .first()
            .and_then(|a| a.as_str())
            .and_then(|u| u.parse::<Uri>().ok());
        let Some(uri) = uri else {
            return (
                invalid(format!("`{}` takes a document's address", p.command)),
                Vec::new(),
            );
        };
        let Some(b) = self.project.buffer(&uri) else {
            return (invalid(format!("{} is not open", uri.as_str())), Vec::new());
        };
        match p.command.as_str() {
            lens::RUN if b.kind == Kind::Feature => {
                let line = p.arguments.get(1).and_then(|l| l.as_u64()).unwrap_or(0);
                let line = u32::try_from(line).unwrap_or(u32::MAX);
                let results = lens::run(&b.path, &b.text, line, &self.project.provider);
                let outcomes: serde_json::Map<String, serde_json::Value> = results
                    .by_line
                    .iter()
                    .map(|(l, o)| (l.to_string(), o.clone().into()))
                    .collect();
                self.runs.insert(uri.as_str().to_string(), results);
                let mut problems = feature::diagnostics(&b.text, &self.project.provider);
                problems.dedup();
                (Ok(outcomes.into()), vec![(uri, problems)])
            }
            lens::COVERAGE | lens::MUTANTS if b.kind == Kind::Script => {
                let Some(variant) = self.project.variant_of(&b.path) else {
                    return (invalid("no variant uses this script".into()), Vec::new());
                };
                let (rules, specs) = (&self.project.rules_dir, &self.project.specs_dir);
                let done = if p.command == lens::COVERAGE {
                    lens::coverage(rules, &variant.name, specs).map(|report| self.measured(report))
                } else {
                    lens::mutants(rules, &variant.name, specs).map(|run| self.mutated(run))
                };
                match done {
                    Ok((value, publish)) => (Ok(value), publish),
                    Err(e) => (invalid(e), Vec::new()),
                }
            }
            other => (
                invalid(format!("`{other}` is not a command for this document")),
                Vec::new(),
            ),
        }
    }
}

impl Server {
    /// A coverage run kept for the lenses: what the client is told of it.
    fn measured(
        &mut self,
        report: crate::coverage::CoverageReport,
    ) -> (serde_json::Value, Publish) {
        let variant = report.variants.first().cloned().unwrap_or_default();
        let value = serde_json::json!({
            "variant": variant,
            "scenarios": report.scenarios,
            "lines": { "hit": report.lines.hit, "found": report.lines.found },
        });
        self.coverage.insert(variant, report);
        (value, Vec::new())
    }

    /// A mutation run kept for the hints: what the client is told of it, and the files that
    /// showed hints or show them now, each with its problems (the hints are added as it is
    /// published).
    fn mutated(&mut self, run: lens::MutantsRun) -> (serde_json::Value, Publish) {
        let value = serde_json::json!({
            "variant": run.variant,
            "generated": run.generated,
            "survived": run.survivors.len(),
        });
        let mut files: Vec<Uri> = self
            .forget_mutants()
            .into_iter()
            .map(|(u, _)| u)
            .chain(
                run.survivors
                    .iter()
                    .filter_map(|(p, _)| position::uri_of(p)),
            )
            .collect();
        self.mutants.insert(run.variant.clone(), run);
        let mut publish = self.project.check_rules();
        files.retain(|u| !publish.iter().any(|(p, _)| p == u));
        files.sort_by(|a, b| a.as_str().cmp(b.as_str()));
        files.dedup();
        for uri in files {
            let problems = self.project.published(&uri);
            publish.push((uri, problems));
        }
        (value, publish)
    }
}

/// Whether a file is a `variant.yaml`, whose schema the server knows.
fn is_variant_yaml(path: &Path) -> bool {
    path.file_name().is_some_and(|n| n == "variant.yaml")
}

/// The protocol's location of a target.
fn location(target: &Target) -> Option<Location> {
    Some(Location {
        uri: position::uri_of(&target.path)?,
        range: position::range(&target.text, target.start, target.end),
    })
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
