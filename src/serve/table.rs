//! One table of the server: a task that owns the game, its bots and its players' connections,
//! and takes one command at a time (a message, a connection, a timer, a bot's turn). Every change
//! is committed to the store before its events go out; what the store refuses is undone.

use super::protocol::{self, Request};
use super::store::{SeatSetup, Store, StoredTable, TableSetup};
use crate::kernel::{Game, RuleError, Seat};
use crate::script::Variant;
use crate::script::bots::Bot;
use serde_json::json;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::mpsc;
use tokio::time::Instant;

/// Messages a connection may have waiting to be written; a client slower than that is dropped
/// (it reconnects and gets `private_sync_state`).
pub const CONNECTION_QUEUE: usize = 4096;
/// Commands a table may have waiting (a client sending faster waits).
pub const TABLE_QUEUE: usize = 256;

/// What a table sends a connection.
#[derive(Debug)]
pub enum Outgoing {
    /// A JSON message.
    Text(String),
    /// Close the connection with this reason (the seat was opened elsewhere).
    Close(String),
}

/// What a connection or the clock asks of a table.
pub enum Command {
    /// A player's connection opened (a reconnect replaces the old connection).
    Connect {
        /// The seat whose token it gave.
        seat: Seat,
        /// The connection's number, unique in the server.
        conn: u64,
        /// Where to write to it.
        out: mpsc::Sender<Outgoing>,
    },
    /// A connection closed.
    Disconnect {
        /// Its seat.
        seat: Seat,
        /// Its number (an old connection's close does not drop a newer one).
        conn: u64,
    },
    /// A client's text message.
    Message {
        /// The sender's seat.
        seat: Seat,
        /// The sender's connection.
        conn: u64,
        /// The message as received.
        text: String,
    },
}

/// What the table list shows of a table, kept current by its task.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Status {
    /// `playing`, `over`, or `stopped` (a script fault stopped the game).
    pub state: &'static str,
    /// Seats with a connection now.
    pub connected: Vec<bool>,
    /// Why the game stopped, if a script fault stopped it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub problem: Option<String>,
}

struct Connection {
    id: u64,
    out: mpsc::Sender<Outgoing>,
}

/// A table's game and everyone at it.
pub struct TableTask {
    id: String,
    variant: Arc<Variant>,
    setup: TableSetup,
    game: Game,
    bots: Vec<Option<Bot>>,
    connections: Vec<Option<Connection>>,
    store: Store,
    think: Duration,
    /// The real time at which the game clock read `game.state.clock` last.
    synced: Instant,
    /// When the bots look at the game next (`None`: nothing changed since they last did).
    bots_due: Option<Instant>,
    /// A script fault in a timer or a bot stops the table (the game is kept as it was).
    stopped: Option<String>,
    status: Arc<Mutex<Status>>,
}

impl TableTask {
    /// A table for a game (new or restored) and its bots.
    pub fn new(
        id: String,
        variant: Arc<Variant>,
        setup: TableSetup,
        game: Game,
        bots: Vec<Option<Bot>>,
        store: Store,
    ) -> TableTask {
        let seats = setup.seats.len();
        let think = Duration::from_millis(setup.think_ms);
        let status = Arc::new(Mutex::new(Status {
            state: "playing",
            connected: vec![false; seats],
            problem: None,
        }));
        let mut task = TableTask {
            id,
            variant,
            setup,
            game,
            bots,
            connections: (0..seats).map(|_| None).collect(),
            store,
            think,
            synced: Instant::now(),
            bots_due: None,
            stopped: None,
            status,
        };
        task.bots_due = task.has_bots().then(|| Instant::now() + task.think);
        // Events before now reach players as their view (`private_sync_state`) when they
        // connect; bots observe them first.
        if let Some(book) = task.variant.bots.as_ref() {
            for bot in task.bots.iter_mut().flatten() {
                book.observe(bot, &task.game);
            }
        }
        let total = task.game.event_count();
        task.game.forget_events_before(total);
        task.update_status();
        task
    }

    /// What the table was made with.
    pub fn setup(&self) -> &TableSetup {
        &self.setup
    }

    /// The status the table list reads.
    pub fn status(&self) -> Arc<Mutex<Status>> {
        self.status.clone()
    }

    /// The row the store keeps for this table (written when the table is made).
    pub fn stored(&self) -> Result<StoredTable, serde_json::Error> {
        Ok(StoredTable {
            id: self.id.clone(),
            setup: serde_json::to_string(&self.setup)?,
            game: serde_json::to_string(&self.game.save())?,
            bots: serde_json::to_string(&self.bots)?,
        })
    }

    fn has_bots(&self) -> bool {
        self.bots.iter().any(Option::is_some)
    }

    /// Take commands until every sender is gone.
    pub async fn run(mut self, mut commands: mpsc::Receiver<Command>) {
        loop {
            let wake = self.next_wake();
            tokio::select! {
                command = commands.recv() => match command {
                    None => return,
                    Some(command) => self.handle(command).await,
                },
                () = sleep_until(wake), if wake.is_some() => self.tick().await,
            }
        }
    }

    /// When the table has something to do on its own: the next timer or the bots' turn.
    fn next_wake(&self) -> Option<Instant> {
        if self.stopped.is_some() || self.game.is_over() {
            return None;
        }
        let timer = self.game.state.next_timer(u64::MAX).map(|i| {
            let deadline = self.game.state.timers[i].deadline;
            self.synced + Duration::from_millis(deadline.saturating_sub(self.game.state.clock))
        });
        match (timer, self.bots_due) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    async fn tick(&mut self) {
        self.sync_clock().await;
        if self.bots_due.is_some_and(|due| due <= Instant::now()) {
            self.bots_due = None;
            self.bot_turn().await;
        }
    }

    /// Bring the game clock to now; timers that expire fire (and are committed).
    async fn sync_clock(&mut self) {
        if self.stopped.is_some() || self.game.is_over() {
            return;
        }
        let now = Instant::now();
        let elapsed = u64::try_from(now.saturating_duration_since(self.synced).as_millis())
            .unwrap_or(u64::MAX);
        if elapsed == 0 {
            return;
        }
        let before = self.game.clone();
        let events = self.game.event_count();
        let result = self.game.advance(&*self.variant, elapsed);
        self.synced += Duration::from_millis(elapsed);
        match result {
            Ok(()) => {
                if self.game.event_count() != events {
                    self.commit(before, self.bots.clone(), None).await;
                }
            }
            Err(fault) => {
                self.game = before;
                self.stop(format!("a timer failed: {}", self.fault_text(&fault)));
            }
        }
    }

    async fn handle(&mut self, command: Command) {
        match command {
            Command::Connect { seat, conn, out } => {
                if let Some(old) =
                    self.connections[seat.index()].replace(Connection { id: conn, out })
                {
                    let _ = old.out.try_send(Outgoing::Close(
                        "this seat was opened by another connection".into(),
                    ));
                }
                self.sync_clock().await;
                self.send_sync(seat);
                self.update_status();
            }
            Command::Disconnect { seat, conn } => {
                if self.connections[seat.index()]
                    .as_ref()
                    .is_some_and(|c| c.id == conn)
                {
                    self.connections[seat.index()] = None;
                    self.update_status();
                }
            }
            Command::Message { seat, conn, text } => {
                if self.connections[seat.index()]
                    .as_ref()
                    .is_none_or(|c| c.id != conn)
                {
                    return;
                }
                self.sync_clock().await;
                self.message(seat, &text).await;
            }
        }
    }

    async fn message(&mut self, seat: Seat, text: &str) {
        let request = match protocol::parse_request(&self.game, seat, text) {
            Ok(request) => request,
            Err(message) => return self.send_error(seat, &message),
        };
        match request {
            Request::Sync => self.send_sync(seat),
            Request::ListActions => {
                let actions: Vec<serde_json::Value> = if self.stopped.is_some() {
                    Vec::new()
                } else {
                    self.game
                        .legal_actions(&*self.variant)
                        .iter()
                        .filter(|a| a.seat == seat)
                        .map(|a| protocol::action_message(&self.game, a))
                        .collect()
                };
                self.send(seat, json!({"type": "private_actions", "actions": actions}));
            }
            Request::Action(action) => {
                if let Some(problem) = &self.stopped {
                    let message = format!("this table is stopped: {problem}");
                    return self.send_error(seat, &message);
                }
                let before = self.game.clone();
                let bots = self.bots.clone();
                match self.game.apply(&*self.variant, &action) {
                    Ok(()) => self.commit(before, bots, Some(seat)).await,
                    Err(RuleError::Refused(reason)) => self.send_error(seat, &reason),
                    Err(fault) => {
                        let text = self.fault_text(&fault);
                        eprintln!("table {}: {text}", self.id);
                        self.send_error(seat, &format!("script error: {text}"));
                    }
                }
            }
        }
    }

    /// Let the first bot that wants to act do so; the bots look again after the think delay.
    async fn bot_turn(&mut self) {
        let Some(book) = self.variant.bots.as_ref() else {
            return;
        };
        if self.game.is_over() || self.stopped.is_some() {
            return;
        }
        for i in 0..self.bots.len() {
            let before_bots = self.bots.clone();
            let Some(bot) = self.bots[i].as_mut() else {
                continue;
            };
            let action = match book.decide(bot, &self.game) {
                Ok(Some(action)) => action,
                Ok(None) => continue,
                Err(fault) => {
                    let text = self.fault_text(&fault);
                    return self.stop(format!("a bot failed: {text}"));
                }
            };
            let before = self.game.clone();
            match self.game.apply(&*self.variant, &action) {
                Ok(()) => {
                    self.commit(before, before_bots, None).await;
                    return;
                }
                Err(RuleError::Refused(_)) => {}
                Err(fault) => {
                    self.game = before;
                    let text = self.fault_text(&fault);
                    return self.stop(format!("a bot's action failed: {text}"));
                }
            }
        }
    }

    fn fault_text(&self, fault: &RuleError) -> String {
        match self.variant.diagnose(fault) {
            Some(d) => d.message,
            None => fault.to_string(),
        }
    }

    fn stop(&mut self, problem: String) {
        eprintln!("table {}: stopped: {problem}", self.id);
        let message = format!("this table is stopped: {problem}");
        for seat in 0..self.connections.len() {
            self.send_error(Seat(seat as u8), &message);
        }
        self.stopped = Some(problem);
        self.update_status();
    }

    /// Commit the game as it is now, then send the new events; if the store refuses, go back to
    /// `before` (the players are told; nothing was sent).
    async fn commit(&mut self, before: Game, before_bots: Vec<Option<Bot>>, actor: Option<Seat>) {
        if let Some(book) = self.variant.bots.as_ref() {
            for bot in self.bots.iter_mut().flatten() {
                book.observe(bot, &self.game);
            }
        }
        // A save rewrites the game and the bots; the setup never changes after the insert.
        let row = serde_json::to_string(&self.game.save()).and_then(|game| {
            Ok(StoredTable {
                id: self.id.clone(),
                setup: String::new(),
                game,
                bots: serde_json::to_string(&self.bots)?,
            })
        });
        let saved = match row {
            Ok(row) => self.store.save(row).await,
            Err(e) => Err(format!("the game does not serialize: {e}")),
        };
        if let Err(problem) = saved {
            eprintln!("table {}: could not save: {problem}", self.id);
            self.game = before;
            self.bots = before_bots;
            let message = format!("the server could not save the game ({problem}); try again");
            match actor {
                Some(seat) => self.send_error(seat, &message),
                None => {
                    for seat in 0..self.connections.len() {
                        self.send_error(Seat(seat as u8), &message);
                    }
                }
            }
            return;
        }
        self.deliver();
        if self.has_bots() && !self.game.is_over() {
            self.bots_due = Some(Instant::now() + self.think);
        }
        self.update_status();
    }

    /// Send every connected player their new events, then forget what all have had (bots have
    /// observed everything by now; a player who is not connected gets a sync state instead).
    fn deliver(&mut self) {
        let total = self.game.event_count();
        for seat in 0..self.connections.len() {
            let seat = Seat(seat as u8);
            if self.connections[seat.index()].is_none() {
                continue;
            }
            // The log holds only events not yet delivered: everything before was forgotten.
            let from = total - self.game.events_since(0).len();
            for event in self.game.rendered_events(seat, from) {
                self.send(seat, event);
            }
        }
        let seen = self
            .bots
            .iter()
            .flatten()
            .map(Bot::seen)
            .min()
            .unwrap_or(total);
        self.game.forget_events_before(seen.min(total));
    }

    fn send_sync(&mut self, seat: Seat) {
        let view = self.game.view(seat).to_json();
        let message = json!({
            "type": "private_sync_state",
            "table": self.id,
            "variant": self.setup.variant,
            "view": view,
            "stopped": self.stopped,
        });
        self.send(seat, message);
    }

    fn send_error(&mut self, seat: Seat, message: &str) {
        self.send(seat, json!({"type": "error", "message": message}));
    }

    fn send(&mut self, seat: Seat, message: serde_json::Value) {
        let Some(connection) = &self.connections[seat.index()] else {
            return;
        };
        if connection
            .out
            .try_send(Outgoing::Text(message.to_string()))
            .is_err()
        {
            // Too slow or gone: drop it; a reconnect gets the whole view.
            self.connections[seat.index()] = None;
            self.update_status();
        }
    }

    fn update_status(&self) {
        let state = if self.stopped.is_some() {
            "stopped"
        } else if self.game.is_over() {
            "over"
        } else {
            "playing"
        };
        if let Ok(mut status) = self.status.lock() {
            status.state = state;
            status.problem = self.stopped.clone();
            status.connected = self.connections.iter().map(Option::is_some).collect();
        }
    }

    /// The seat a token opens, if any (compared by SHA-256, as the store keeps it).
    pub fn seat_of_token(setup: &TableSetup, token: &str) -> Option<Seat> {
        let hash = token_hash(token);
        setup
            .seats
            .iter()
            .position(
                |s| matches!(s, SeatSetup::Player { token_sha256, .. } if *token_sha256 == hash),
            )
            .and_then(|i| u8::try_from(i).ok())
            .map(Seat)
    }
}

/// SHA-256 of a token, in hex.
pub fn token_hash(token: &str) -> String {
    use sha2::{Digest, Sha256};
    Sha256::digest(token.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

async fn sleep_until(when: Option<Instant>) {
    match when {
        Some(when) => tokio::time::sleep_until(when).await,
        None => std::future::pending().await,
    }
}
