//! The server's HTTP routes (tables, variants, the browser table) and each player's WebSocket
//! connection, which carries messages between the client and its table's task.

use super::table::{Command, Outgoing, TableTask};
use super::{NewTable, Server, TableEntry, protocol};
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade, close_code};
use axum::extract::{ConnectInfo, Path, Query, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use futures_util::{SinkExt, StreamExt};
use serde_json::json;
use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;
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
        .route("/tables/{id}", get(one_table).delete(delete_table))
        .route("/tables/{id}/ws", get(connect))
        .fallback(not_found)
        .with_state(server)
}

/// The page may run its own inline script and talk to this server only; no other site may
/// frame it.
const PAGE_POLICY: &str = "default-src 'none'; script-src 'unsafe-inline'; \
     style-src 'unsafe-inline'; connect-src 'self'; img-src 'self' data:; \
     frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

async fn page() -> Response {
    (
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::CONTENT_SECURITY_POLICY, PAGE_POLICY),
            (header::X_FRAME_OPTIONS, "DENY"),
            (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
            (header::REFERRER_POLICY, "no-referrer"),
        ],
        PAGE,
    )
        .into_response()
}

async fn not_found() -> Response {
    error(
        StatusCode::NOT_FOUND,
        "no such page: the routes are /, /variants, /tables, /tables/<id> and /tables/<id>/ws",
    )
}

/// Whether a browser's request comes from a page the server allows: same origin (the `Origin`
/// names the `Host` the request went to) or one of `--allow-origin`. A request without an
/// `Origin` is not a browser's cross-site one (programs send none).
fn origin_allowed(server: &Server, headers: &HeaderMap) -> Result<(), String> {
    let Some(origin) = headers.get(header::ORIGIN) else {
        return Ok(());
    };
    let origin = origin.to_str().unwrap_or("");
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("");
    let same = ["http://", "https://"]
        .iter()
        .any(|scheme| origin.strip_prefix(scheme) == Some(host));
    if same || server.allowed_origins.iter().any(|o| o == origin) {
        return Ok(());
    }
    Err(format!(
        "requests from pages of {origin} are not allowed here (the server allows its own pages{})",
        if server.allowed_origins.is_empty() {
            String::new()
        } else {
            format!(" and {}", server.allowed_origins.join(", "))
        }
    ))
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
                "hand_layout": table.hand_layout.map(|l| json!({"rows": l.rows, "columns": l.columns})),
                "actions": actions,
                "house_rules": house_rules,
                "bots": v.bots.as_ref().map(|b| b.levels().collect::<Vec<_>>()).unwrap_or_default(),
                "server_messages": protocol::server_messages(table),
            })
        })
        .collect();
    Json(list).into_response()
}

/// Tables a `GET /tables` lists at most, and unless asked for fewer.
const MAX_LISTED: usize = 500;

async fn list_tables(
    State(server): State<Arc<Server>>,
    Query(query): Query<HashMap<String, String>>,
) -> Response {
    let number = |name: &str, default: usize| match query.get(name) {
        None => Ok(default),
        Some(text) => text
            .parse::<usize>()
            .map_err(|_| format!("`{name}` is a whole number, not `{text}`")),
    };
    let (offset, limit) = match (number("offset", 0), number("limit", MAX_LISTED)) {
        (Ok(o), Ok(l)) => (o, l.min(MAX_LISTED)),
        (Err(e), _) | (_, Err(e)) => return error(StatusCode::BAD_REQUEST, e),
    };
    let Ok(tables) = server.tables.read() else {
        return error(
            StatusCode::INTERNAL_SERVER_ERROR,
            "the table list is unavailable",
        );
    };
    let total = tables.len();
    let list: Vec<serde_json::Value> = tables
        .iter()
        .skip(offset)
        .take(limit)
        .map(|(id, entry)| table_json(id, entry))
        .collect();
    drop(tables);
    let mut response = Json(list).into_response();
    // The whole count, for a client that pages (`?offset=…&limit=…`).
    if let Ok(value) = HeaderValue::from_str(&total.to_string()) {
        response.headers_mut().insert("x-total-count", value);
    }
    response
}

async fn one_table(State(server): State<Arc<Server>>, Path(id): Path<String>) -> Response {
    let Ok(tables) = server.tables.read() else {
        return error(
            StatusCode::INTERNAL_SERVER_ERROR,
            "the table list is unavailable",
        );
    };
    match tables.get(&id) {
        Some(entry) => Json(table_json(&id, entry)).into_response(),
        None => error(StatusCode::NOT_FOUND, format!("there is no table `{id}`")),
    }
}

/// `DELETE /tables/<id>` with a seat's token (`Authorization: Bearer <token>`): the table is
/// closed, its players told, and it is gone from the list and the store.
async fn delete_table(
    State(server): State<Arc<Server>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Response {
    if let Err(refused) = origin_allowed(&server, &headers) {
        return error(StatusCode::FORBIDDEN, refused);
    }
    let token = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .unwrap_or("");
    match server.delete(&id, token).await {
        Ok(()) => StatusCode::NO_CONTENT.into_response(),
        Err((status, message)) => error(status, message),
    }
}

/// A table as the list shows it.
fn table_json(id: &str, entry: &TableEntry) -> serde_json::Value {
    match entry {
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
    }
}

async fn create_table(
    State(server): State<Arc<Server>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    body: axum::body::Body,
) -> Response {
    if let Err(refused) = origin_allowed(&server, &headers) {
        return error(StatusCode::FORBIDDEN, refused);
    }
    // JSON only: a browser sends `text/plain` or a form from any page without asking first.
    let json = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|v| v.trim().eq_ignore_ascii_case("application/json"));
    if !json {
        return error(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "send the table request as JSON (`Content-Type: application/json`)",
        );
    }
    if let Err(wait) = server.creations.admit(peer.ip()) {
        let mut response = error(
            StatusCode::TOO_MANY_REQUESTS,
            format!(
                "this address made {} tables in the last minute, its most: try again in {wait} s",
                server.creations.per_minute()
            ),
        );
        if let Ok(value) = HeaderValue::from_str(&wait.to_string()) {
            response.headers_mut().insert(header::RETRY_AFTER, value);
        }
        return response;
    }
    let body = match axum::body::to_bytes(body, MAX_BODY_BYTES).await {
        Ok(body) => body,
        Err(_) => {
            return error(
                StatusCode::BAD_REQUEST,
                format!(
                    "the table request is over {} KiB, the most",
                    MAX_BODY_BYTES / 1024
                ),
            );
        }
    };
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
    headers: HeaderMap,
    upgrade: WebSocketUpgrade,
) -> Response {
    if let Err(refused) = origin_allowed(&server, &headers) {
        return error(StatusCode::FORBIDDEN, refused);
    }
    let token = query.get("token").cloned().unwrap_or_default();
    // A client may ask for its variant's name as the subprotocol (the Cambia web client asks
    // for `cambia`): it is echoed, as browsers require.
    let protocols: Vec<String> = server.variants.keys().cloned().collect();
    // Small buffers: a table has a connection per seat, and tungstenite's defaults (128 KiB to
    // read) would be most of a table's memory. Messages are small; bigger ones still work.
    upgrade
        .protocols(protocols)
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
    let (out, mut outgoing) = mpsc::channel(server.connection_queue);
    let replies = out.clone();
    let (kick, kicked) = tokio::sync::watch::channel(false);
    let connect = Command::Connect {
        seat,
        conn,
        out,
        kicked: kick,
    };
    let mut kicked_reader = kicked.clone();
    let mut kicked = kicked;
    if commands.send(connect).await.is_err() {
        return;
    }
    let ping_every = server.ping_every;
    // The writer owns the socket's sending half: the table's messages, pings, and the close.
    let mut writer = tokio::spawn(async move {
        let mut ping = tokio::time::interval(ping_every);
        ping.tick().await;
        loop {
            let close = tokio::select! {
                message = outgoing.recv() => match message {
                    Some(Outgoing::Text(text)) => {
                        if sink.send(Message::Text(text.into())).await.is_err() {
                            return;
                        }
                        continue;
                    }
                    Some(Outgoing::Close(code, reason)) => Some((code, reason)),
                    None => None,
                },
                _ = ping.tick() => {
                    if sink.send(Message::Ping(Default::default())).await.is_err() {
                        return;
                    }
                    continue;
                }
                Ok(()) = kicked.changed() => Some((
                    close_code::AGAIN,
                    "you fell behind the table's messages: reconnect for the whole view".to_string(),
                )),
            };
            let Some((code, reason)) = close else {
                let _ = sink.send(Message::Close(None)).await;
                return;
            };
            // Said as a message too: not every client shows a close frame's reason.
            let text = json!({"type": "error", "message": reason}).to_string();
            let _ = sink.send(Message::Text(text.into())).await;
            let _ = sink
                .send(Message::Close(Some(CloseFrame {
                    code,
                    reason: close_reason(&reason).into(),
                })))
                .await;
            return;
        }
    });
    loop {
        let received = tokio::select! {
            received = stream.next() => received,
            // The writer closed the socket (replaced, kicked, or gone).
            _ = &mut writer => break,
            // Fallen behind: the writer says so and closes, if the client reads at all; one
            // that stopped reading has its connection dropped.
            Ok(()) = kicked_reader.changed() => {
                let _ = tokio::time::timeout(Duration::from_secs(5), &mut writer).await;
                break;
            }
        };
        match received {
            Some(Ok(Message::Text(text))) => {
                let message = Command::Message {
                    seat,
                    conn,
                    text: text.to_string(),
                };
                if commands.send(message).await.is_err() {
                    break;
                }
            }
            Some(Ok(Message::Binary(_))) => {
                let text =
                    json!({"type": "error", "message": "send messages as text (JSON), not binary"});
                if replies.try_send(Outgoing::Text(text.to_string())).is_err() {
                    break;
                }
            }
            Some(Err(e)) => {
                // Too big a message is answered, then the connection is closed (RFC 6455: 1009).
                if !is_too_big(&e) {
                    break;
                }
                let reason = format!(
                    "message too long (at most {} bytes); closing",
                    protocol::MAX_MESSAGE_BYTES
                );
                let _ = replies.try_send(Outgoing::Close(close_code::SIZE, reason));
                let _ = tokio::time::timeout(Duration::from_secs(2), &mut writer).await;
                break;
            }
            // The client closes: the close is answered (RFC 6455 §5.5.1) and the writer ends.
            Some(Ok(Message::Close(_))) | None => {
                drop(replies);
                let _ = tokio::time::timeout(Duration::from_secs(2), &mut writer).await;
                let _ = commands.send(Command::Disconnect { seat, conn }).await;
                writer.abort();
                return;
            }
            Some(Ok(Message::Ping(_) | Message::Pong(_))) => {}
        }
    }
    drop(replies);
    let _ = commands.send(Command::Disconnect { seat, conn }).await;
    writer.abort();
}

/// Whether a read failed on a message or frame past the size limit.
fn is_too_big(e: &axum::Error) -> bool {
    let text = e.to_string();
    text.contains("too long") || text.contains("too big") || text.contains("Space limit")
}

/// A close frame's reason is at most 123 bytes: the start of `reason`, cut at a character.
fn close_reason(reason: &str) -> String {
    let mut end = reason.len().min(123);
    while !reason.is_char_boundary(end) {
        end -= 1;
    }
    reason[..end].to_string()
}
