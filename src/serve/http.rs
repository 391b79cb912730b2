//! The server's HTTP routes (tables, variants, the browser table) and each player's WebSocket
//! connection, which carries messages between the client and its table's task.

use super::table::{CONNECTION_QUEUE, Command, Outgoing, TableTask};
use super::{NewTable, Server, TableEntry, protocol};
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade, close_code};
use axum::extract::{DefaultBodyLimit, Path, Query, State};
use axum::http::{StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use futures_util::{SinkExt, StreamExt};
use serde_json::json;
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use tokio::sync::mpsc;

/// The largest `POST /tables` body, in bytes.
const MAX_BODY_BYTES: usize = 16 * 1024;
/// The largest WebSocket message the connection reads (bigger ones close it); messages between
/// this and `protocol::MAX_MESSAGE_BYTES` are answered with an error.
const MAX_WS_MESSAGE_BYTES: usize = 64 * 1024;

/// The browser table: one page, its script inline, served by the binary.
const PAGE: &str = include_str!("page.html");

pub(super) fn router(server: Arc<Server>) -> Router {
    Router::new()
        .route("/", get(page))
        .route("/variants", get(variants))
        .route("/tables", get(list_tables).post(create_table))
        .route("/tables/{id}/ws", get(connect))
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        .with_state(server)
}

async fn page() -> Html<&'static str> {
    Html(PAGE)
}

fn error(status: StatusCode, message: impl Into<String>) -> Response {
    (status, Json(json!({ "error": message.into() }))).into_response()
}

async fn variants(State(server): State<Arc<Server>>) -> Response {
    let list: Vec<serde_json::Value> = server
        .variants
        .values()
        .map(|v| {
            let table = v.table();
            let house_rules: Vec<serde_json::Value> = v
                .house_rules
                .iter()
                .map(|h| {
                    json!({
                        "name": h.name,
                        "default": super::value_json(&h.default),
                        "type": h.kind.name(),
                        "doc": h.doc,
                    })
                })
                .collect();
            let actions: Vec<serde_json::Value> = table
                .actions
                .iter()
                .map(|a| {
                    let messages: Vec<String> = protocol::message_forms(table, &v.action_docs)
                        .into_iter()
                        .filter(|m| m.action == *a.name)
                        .map(|m| m.message)
                        .collect();
                    json!({
                        "name": &*a.name,
                        "doc": v.action_docs.get(&*a.name),
                        "messages": messages,
                    })
                })
                .collect();
            json!({
                "name": v.name,
                "description": v.description,
                "players": { "min": table.players.min, "max": table.players.max },
                "actions": actions,
                "house_rules": house_rules,
                "bots": v.bots.as_ref().map(|b| b.levels().collect::<Vec<_>>()).unwrap_or_default(),
                "server_messages": protocol::server_messages(table),
            })
        })
        .collect();
    Json(list).into_response()
}

async fn list_tables(State(server): State<Arc<Server>>) -> Response {
    let Ok(tables) = server.tables.read() else {
        return error(
            StatusCode::INTERNAL_SERVER_ERROR,
            "the table list is unavailable",
        );
    };
    let list: Vec<serde_json::Value> = tables
        .iter()
        .map(|(id, entry)| match entry {
            TableEntry::Live { setup, status, .. } => {
                let status = status.lock().map(|s| s.clone()).ok();
                let seats: Vec<serde_json::Value> = setup
                    .seats
                    .iter()
                    .enumerate()
                    .map(|(i, seat)| match seat {
                        super::SeatSetup::Player { name, .. } => json!({
                            "name": name,
                            "connected": status.as_ref().is_some_and(|s| s.connected.get(i) == Some(&true)),
                        }),
                        super::SeatSetup::Bot { name, level } => json!({ "name": name, "bot": level }),
                    })
                    .collect();
                json!({
                    "table": id,
                    "variant": setup.variant,
                    "seats": seats,
                    "status": status.as_ref().map_or("unknown", |s| s.state),
                    "problem": status.and_then(|s| s.problem),
                })
            }
            TableEntry::Unloadable { variant, problem } => json!({
                "table": id,
                "variant": variant,
                "status": "unloadable",
                "problem": problem,
            }),
        })
        .collect();
    Json(list).into_response()
}

async fn create_table(State(server): State<Arc<Server>>, body: axum::body::Bytes) -> Response {
    let request: NewTable = match serde_json::from_slice(&body) {
        Ok(r) => r,
        Err(e) => return error(StatusCode::BAD_REQUEST, format!("the table request: {e}")),
    };
    match server.create(request).await {
        Ok((id, tokens)) => {
            let seats: serde_json::Map<String, serde_json::Value> =
                tokens.into_iter().map(|(n, t)| (n, json!(t))).collect();
            (
                StatusCode::CREATED,
                [(header::LOCATION, format!("/tables/{id}"))],
                Json(json!({ "table": id, "seats": seats })),
            )
                .into_response()
        }
        Err(message) => error(StatusCode::BAD_REQUEST, message),
    }
}

async fn connect(
    State(server): State<Arc<Server>>,
    Path(id): Path<String>,
    Query(query): Query<HashMap<String, String>>,
    upgrade: WebSocketUpgrade,
) -> Response {
    let token = query.get("token").cloned().unwrap_or_default();
    // Small buffers: a table has a connection per seat, and tungstenite's defaults (128 KiB to
    // read) would be most of a table's memory. Messages are small; bigger ones still work.
    upgrade
        .read_buffer_size(4 * 1024)
        .write_buffer_size(4 * 1024)
        .max_message_size(MAX_WS_MESSAGE_BYTES)
        .max_frame_size(MAX_WS_MESSAGE_BYTES)
        .on_upgrade(move |socket| connection(server, id, token, socket))
}

/// Which seat of which table a token opens, or why not.
fn admit(
    server: &Server,
    id: &str,
    token: &str,
) -> Result<(crate::kernel::Seat, mpsc::Sender<Command>), String> {
    let tables = server
        .tables
        .read()
        .map_err(|_| "the table list is unavailable".to_string())?;
    match tables.get(id) {
        None => Err(format!("there is no table `{id}`")),
        Some(TableEntry::Unloadable { problem, .. }) => {
            Err(format!("table `{id}` could not be restored: {problem}"))
        }
        Some(TableEntry::Live {
            setup, commands, ..
        }) => match TableTask::seat_of_token(setup, token) {
            Some(seat) => Ok((seat, commands.clone())),
            None if token.is_empty() => Err(format!(
                "connect with your seat's token: /tables/{id}/ws?token=…"
            )),
            None => Err(format!("that token opens no seat of table `{id}`")),
        },
    }
}

async fn connection(server: Arc<Server>, id: String, token: String, socket: WebSocket) {
    let (mut sink, mut stream) = socket.split();
    let (seat, commands) = match admit(&server, &id, &token) {
        Ok(found) => found,
        Err(message) => {
            let _ = sink
                .send(Message::Text(
                    json!({"type": "error", "message": message})
                        .to_string()
                        .into(),
                ))
                .await;
            let _ = sink
                .send(Message::Close(Some(CloseFrame {
                    code: close_code::POLICY,
                    reason: "no seat".into(),
                })))
                .await;
            return;
        }
    };
    let conn = server.connections.fetch_add(1, Ordering::Relaxed);
    let (out, mut outgoing) = mpsc::channel(CONNECTION_QUEUE);
    let replies = out.clone();
    if commands
        .send(Command::Connect { seat, conn, out })
        .await
        .is_err()
    {
        return;
    }
    let writer = tokio::spawn(async move {
        while let Some(message) = outgoing.recv().await {
            match message {
                Outgoing::Text(text) => {
                    if sink.send(Message::Text(text.into())).await.is_err() {
                        return;
                    }
                }
                Outgoing::Close(reason) => {
                    let text = json!({"type": "error", "message": reason}).to_string();
                    let _ = sink.send(Message::Text(text.into())).await;
                    let _ = sink
                        .send(Message::Close(Some(CloseFrame {
                            code: close_code::NORMAL,
                            reason: "replaced".into(),
                        })))
                        .await;
                    return;
                }
            }
        }
    });
    while let Some(received) = stream.next().await {
        match received {
            Ok(Message::Text(text)) => {
                let message = Command::Message {
                    seat,
                    conn,
                    text: text.to_string(),
                };
                if commands.send(message).await.is_err() {
                    break;
                }
            }
            Ok(Message::Binary(_)) => {
                let text =
                    json!({"type": "error", "message": "send messages as text (JSON), not binary"});
                if replies.try_send(Outgoing::Text(text.to_string())).is_err() {
                    break;
                }
            }
            Ok(Message::Close(_)) | Err(_) => break,
            Ok(Message::Ping(_) | Message::Pong(_)) => {}
        }
    }
    drop(replies);
    let _ = commands.send(Command::Disconnect { seat, conn }).await;
    writer.abort();
}
