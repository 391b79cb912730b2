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

/// Commands a table may have waiting (a client sending faster waits).
pub const TABLE_QUEUE: usize = 256;
/// Events a table keeps for players who are away, at most: past it, the oldest are
/// forgotten and a returning player has the sync state alone for them.
const MAX_KEPT_EVENTS: usize = 4096;
/// The WebSocket close code of a normal close (RFC 6455 §7.4.1).
const CLOSE_NORMAL: u16 = 1000;
/// The close code of a table going away (RFC 6455 §7.4.1).
const CLOSE_AWAY: u16 = 1001;

/// What a table sends a connection.
#[derive(Debug)]
pub enum Outgoing {
    /// A JSON message.
    Text(String),
    /// Close the connection with this close code and reason (the seat was opened elsewhere).
    Close(u16, String),
}

/// When a table nobody plays at closes (and is removed, with its row).
#[derive(Clone, Copy, Debug)]
pub struct Lifetimes {
    /// After its game is over (or stopped by a fault) and nobody is connected.
    pub over: Duration,
    /// While its game goes on, after no player has been connected for this long (since it was
    /// made, or restored, if nobody ever came).
    pub unattended: Duration,
}

/// What a connection or the clock asks of a table.
pub enum Command {
    /// Close the table for good (`DELETE /tables/<id>`): its players are told why.
    Close {
        /// Why, as the players read it.
        reason: String,
    },
    /// A player's connection opened (a reconnect replaces the old connection).
    Connect {
        /// The seat whose token it gave.
        seat: Seat,
        /// The connection's number, unique in the server.
        conn: u64,
        /// Where to write to it.
        out: mpsc::Sender<Outgoing>,
        /// Set when the connection fell so far behind that its queue is full: it closes.
        kicked: tokio::sync::watch::Sender<bool>,
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
    kicked: tokio::sync::watch::Sender<bool>,
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
    /// Per seat: the events before this number have reached it (or it will get them as a
    /// sync state). A player who connects gets the sync state, then every kept event past it:
    /// the opening too, for the first connection to a new table.
    delivered: Vec<usize>,
    /// When a player was last connected (or the table made or restored).
    attended: Instant,
    /// When to close, and where to say it closed (`None`: it never closes itself).
    closing: Option<(Lifetimes, mpsc::UnboundedSender<String>)>,
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
            delivered: Vec::new(),
            attended: Instant::now(),
            closing: None,
        };
        task.bots_due = task.has_bots().then(|| Instant::now() + task.think);
        // Events before now reach players as their view (`private_sync_state`) when they
        // connect; bots observe them first.
        if let Some(book) = task.variant.bots.as_ref() {
            for bot in task.bots.iter_mut().flatten() {
                book.observe(bot, &task.game);
            }
        }
        // A restored table's players are sent its state when they connect, not events they
        // may have had before the restart; a new table's players get its opening.
        let total = task.game.event_count();
        let opening = task.game.events_since(0).len() == total;
        task.delivered = (0..seats)
            .map(|i| match task.setup.seats[i] {
                SeatSetup::Player { .. } if opening => 0,
                SeatSetup::Player { .. } => total,
                // A bot's seat has no connection: what it has seen is the bot's own count.
                SeatSetup::Bot { .. } => usize::MAX,
            })
            .collect();
        task.forget_delivered();
        task.update_status();
        task
    }

    /// Forget the events every seat has had (bots have observed them all by now), keeping at
    /// most `MAX_KEPT_EVENTS` for seats that are away.
    fn forget_delivered(&mut self) {
        let total = self.game.event_count();
        let seen = self
            .bots
            .iter()
            .flatten()
            .map(Bot::seen)
            .chain(self.delivered.iter().copied())
            .min()
            .unwrap_or(total);
        let upto = seen.min(total).max(total.saturating_sub(MAX_KEPT_EVENTS));
        self.game.forget_events_before(upto);
    }

    /// The table, closing itself by `lifetimes` and saying so on `closed` (its id).
    pub fn closing(mut self, lifetimes: Lifetimes, closed: mpsc::UnboundedSender<String>) -> Self {
        self.closing = Some((lifetimes, closed));
        self
    }

    /// When the table closes itself if nothing changes: `None` while a player is connected.
    fn closes_at(&self) -> Option<Instant> {
        let (lifetimes, _) = self.closing.as_ref()?;
        if self.connections.iter().any(Option::is_some) {
            return None;
        }
        let wait = if self.game.is_over() || self.stopped.is_some() {
            lifetimes.over
        } else {
            lifetimes.unattended
        };
        Some(self.attended + wait)
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
            let close = self.closes_at();
            let was_attended = self.connections.iter().any(Option::is_some);
            tokio::select! {
                command = commands.recv() => match command {
                    None => return,
                    Some(Command::Close { reason }) => return self.close(&reason),
                    Some(command) => self.handle(command).await,
                },
                () = sleep_until(wake), if wake.is_some() => self.tick().await,
                () = sleep_until(close), if close.is_some() => {
                    if let Some((_, closed)) = &self.closing {
                        let _ = closed.send(self.id.clone());
                    }
                    return;
                }
            }
            // A player was here until now (the last one may just have left).
            if was_attended || self.connections.iter().any(Option::is_some) {
                self.attended = Instant::now();
            }
        }
    }

    /// Tell whoever is connected why the table closes, and close their connections.
    fn close(&mut self, reason: &str) {
        for connection in self.connections.iter_mut().filter_map(Option::take) {
            let _ = connection
                .out
                .try_send(Outgoing::Close(CLOSE_AWAY, reason.to_string()));
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
            Command::Connect {
                seat,
                conn,
                out,
                kicked,
            } => {
                let connection = Connection {
                    id: conn,
                    out,
                    kicked,
                };
                if let Some(old) = self.connections[seat.index()].replace(connection) {
                    let _ = old.out.try_send(Outgoing::Close(
                        CLOSE_NORMAL,
                        "this seat was opened by another connection".into(),
                    ));
                }
                self.sync_clock().await;
                self.send_sync(seat);
                self.deliver_to(seat);
                self.forget_delivered();
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
            // `run` takes it before `handle`.
            Command::Close { reason } => self.close(&reason),
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
                        let message = match text.starts_with("script error") {
                            true => text,
                            false => format!("script error: {text}"),
                        };
                        self.send_error(seat, &message);
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

    /// Send every connected player the events they have not had, then forget what all have
    /// had.
    fn deliver(&mut self) {
        for seat in 0..self.connections.len() {
            self.deliver_to(Seat(seat as u8));
        }
        self.forget_delivered();
    }

    /// The kept events `seat` has not had, if it is connected.
    fn deliver_to(&mut self, seat: Seat) {
        if self.connections[seat.index()].is_none() {
            return;
        }
        let total = self.game.event_count();
        let kept_from = total - self.game.events_since(0).len();
        let from = self.delivered[seat.index()].max(kept_from);
        for event in self.game.rendered_events(seat, from) {
            self.send(seat, event);
        }
        self.delivered[seat.index()] = total;
    }

    fn send_sync(&mut self, seat: Seat) {
        let view = self.game.view(seat).to_json();
        // Who sits where and the house rules in force: no event says them.
        let house_rules: serde_json::Map<String, serde_json::Value> = self
            .game
            .table
            .house_rules
            .iter()
            .zip(self.game.state.house.iter())
            .map(|((name, _), value)| (name.clone(), super::value_json(value)))
            .collect();
        let message = json!({
            "type": "private_sync_state",
            "table": self.id,
            "variant": self.setup.variant,
            "you": self.game.state.players[seat.index()],
            "players": self.game.state.players,
            "house_rules": house_rules,
            "view": view,
            "stopped": self.stopped,
            // The creator chose the deal's seed: whoever knows it can see every hidden card.
            "seeded": self.setup.seeded,
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
            // Too slow or gone: it is closed with the reason (a reconnect gets the whole view).
            let _ = connection.kicked.send(true);
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
