//! `deckspec serve`: a host of real games. Tables of any variant over HTTP and WebSocket (the
//! message shape of the "Socket command actions" document), people and programs at the same
//! table as the variant's bots, every accepted action committed to SQLite before its events go
//! out, and a browser table at `/`.

mod http;
pub mod listen;
pub mod protocol;
mod rate;
pub mod store;
mod table;

use crate::kernel::{Game, SavedGame, Seat, Value};
use crate::script::Variant;
use crate::script::bots::Bot;
use rand::RngExt;
use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::atomic::AtomicU64;
use std::sync::{Arc, Mutex, RwLock};
use store::{SeatSetup, Store, StoredTable, TableSetup};
pub use table::Lifetimes;
use table::{Command, Status, TableTask};
use tokio::sync::mpsc;

/// The longest player name, in characters.
pub const MAX_NAME_CHARS: usize = 32;
/// The longest think delay a table may ask for, in milliseconds.
pub const MAX_THINK_MS: u64 = 60_000;
/// The think delay of a table that names none, in milliseconds.
pub const DEFAULT_THINK_MS: u64 = 1_000;

/// How to run the server.
#[derive(Clone, Debug)]
pub struct Config {
    /// The rules folder (one variant per subfolder).
    pub rules: PathBuf,
    /// Where to listen; port 0 picks a free port (printed when ready).
    pub addr: SocketAddr,
    /// The SQLite file holding every table.
    pub db: PathBuf,
    /// Tables the server holds at most (new ones are refused past it).
    pub max_tables: usize,
    /// Connections it keeps open, and for how long.
    pub connections: listen::ConnectionLimits,
    /// Pages of other sites allowed to make tables and connect (`https://example.org`); the
    /// server's own pages always are.
    pub allowed_origins: Vec<String>,
    /// Tables one address may make a minute.
    pub creations_per_minute: usize,
    /// When tables nobody plays at are closed.
    pub lifetimes: table::Lifetimes,
    /// Whether a table of several players may be given a seed (each is told it was).
    pub allow_seeds: bool,
    /// Messages waiting to be written to one connection at most: a client that falls further
    /// behind is closed (it reconnects for the whole view).
    pub connection_queue: usize,
}

/// Why the server did not start.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// No variant of the rules folder loads.
    #[error("no variant in {0} loads: {1}")]
    NoVariants(String, String),
    /// The store could not be opened.
    #[error(transparent)]
    Store(#[from] store::StoreError),
    /// The address could not be bound.
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        /// The address asked for.
        addr: SocketAddr,
        /// Why.
        source: std::io::Error,
    },
    /// The async runtime or the listener failed.
    #[error("server: {0}")]
    Io(#[from] std::io::Error),
}

/// What the server found when it started, for the person who started it.
#[derive(Debug, Default)]
pub struct Startup {
    /// Variants that load, by name.
    pub variants: Vec<String>,
    /// Variants that do not load, with the problem.
    pub broken_variants: Vec<(String, String)>,
    /// Tables restored from the store.
    pub restored: usize,
    /// Tables the store holds that could not be restored, with the problem.
    pub unloadable: Vec<(String, String)>,
    /// Restored tables whose rules changed since they were made (they load, and go on).
    pub rules_changed: Vec<String>,
    /// What the person starting the server should know about the store (a journal SQLite
    /// discarded; a store none of whose tables could be restored).
    pub warnings: Vec<String>,
}

enum TableEntry {
    Live {
        setup: Arc<TableSetup>,
        commands: mpsc::Sender<Command>,
        status: Arc<Mutex<Status>>,
    },
    Unloadable {
        variant: String,
        problem: String,
    },
}

struct Server {
    variants: BTreeMap<String, Arc<Variant>>,
    fingerprints: BTreeMap<String, String>,
    tables: RwLock<BTreeMap<String, TableEntry>>,
    store: Store,
    connections: AtomicU64,
    max_tables: usize,
    /// How often a WebSocket is pinged: a third of the idle timeout, so a live client's pongs
    /// keep its connection open.
    ping_every: std::time::Duration,
    allowed_origins: Vec<String>,
    creations: rate::CreationRate,
    lifetimes: table::Lifetimes,
    allow_seeds: bool,
    connection_queue: usize,
    /// Where a table that closes itself (over, or nobody came) says so.
    closed: mpsc::UnboundedSender<String>,
}

/// Run the server until interrupted (Ctrl-C). `ready` is called once it listens, with the
/// address and what was restored.
pub fn run(
    config: Config,
    ready: impl FnOnce(SocketAddr, &Startup) + Send,
) -> Result<(), ServeError> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        // Rule scripts run on the runtime's threads: give them the stack scripts are allowed.
        .thread_stack_size(crate::script::SCRIPT_STACK_BYTES)
        .build()?;
    runtime.block_on(async move {
        let (server, startup, closing) = open(&config)?;
        tokio::spawn(remove_closed(server.clone(), closing));
        let listener = tokio::net::TcpListener::bind(config.addr)
            .await
            .map_err(|source| ServeError::Bind {
                addr: config.addr,
                source,
            })?;
        ready(listener.local_addr()?, &startup);
        let store = server.store.clone();
        listen::serve(
            listener,
            http::router(server),
            config.connections,
            shutdown_signal(),
        )
        .await;
        // A clean stop (issue 41): the store writes what is queued and checkpoints, leaving the
        // database file alone holding every table.
        tokio::task::spawn_blocking(move || store.close())
            .await
            .map_err(std::io::Error::other)??;
        Ok(())
    })
}

/// What stops the server: Ctrl-C (SIGINT), or SIGTERM.
async fn shutdown_signal() {
    let interrupt = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = interrupt => {},
        () = terminate => {},
    }
}

/// Load the variants, open the store and bring every stored table back.
/// The server, what it found, and where its tables say they closed.
type Opened = (Arc<Server>, Startup, mpsc::UnboundedReceiver<String>);

fn open(config: &Config) -> Result<Opened, ServeError> {
    let mut startup = Startup::default();
    let mut variants = BTreeMap::new();
    let mut fingerprints = BTreeMap::new();
    for name in crate::script::variant_names(&config.rules) {
        match Variant::load_named(&config.rules, &name) {
            Ok(variant) => {
                fingerprints.insert(name.clone(), crate::sim::rules_fingerprint(&variant));
                variants.insert(name.clone(), Arc::new(variant));
                startup.variants.push(name);
            }
            Err(e) => startup.broken_variants.push((name, e.to_string())),
        }
    }
    if variants.is_empty() {
        let problems: Vec<String> = startup
            .broken_variants
            .iter()
            .map(|(n, p)| format!("{n}: {p}"))
            .collect();
        return Err(ServeError::NoVariants(
            config.rules.display().to_string(),
            if problems.is_empty() {
                "it has no variant folders".into()
            } else {
                problems.join("; ")
            },
        ));
    }
    let (closed, closing) = mpsc::unbounded_channel();
    // Issue 41: the store is locked (a second server is refused), damaged rows come back as
    // unloadable tables, and what SQLite discarded is a warning.
    let store::Opened {
        store,
        tables: rows,
        unreadable,
        warnings,
    } = Store::open(&config.db)?;
    startup.warnings = warnings;
    let server = Arc::new(Server {
        variants,
        fingerprints,
        tables: RwLock::new(BTreeMap::new()),
        store,
        connections: AtomicU64::new(0),
        max_tables: config.max_tables,
        ping_every: config.connections.idle / 3,
        allowed_origins: config.allowed_origins.clone(),
        creations: rate::CreationRate::new(config.creations_per_minute),
        lifetimes: config.lifetimes,
        allow_seeds: config.allow_seeds,
        connection_queue: config.connection_queue.max(1),
        closed,
    });
    for row in rows {
        let id = row.id.clone();
        match server.restore(row) {
            Ok((task, changed)) => {
                if changed {
                    startup.rules_changed.push(id.clone());
                }
                server.start(id, task);
                startup.restored += 1;
            }
            Err((variant, problem)) => {
                startup.unloadable.push((id.clone(), problem.clone()));
                if let Ok(mut tables) = server.tables.write() {
                    tables.insert(id, TableEntry::Unloadable { variant, problem });
                }
            }
        }
    }
    for row in unreadable {
        // The variant, when the setup reads that far.
        let variant = row
            .setup
            .as_deref()
            .and_then(|s| serde_json::from_str::<serde_json::Value>(s).ok())
            .and_then(|s| s["variant"].as_str().map(str::to_string))
            .unwrap_or_else(|| "?".to_string());
        startup
            .unloadable
            .push((row.id.clone(), row.problem.clone()));
        if let Ok(mut tables) = server.tables.write() {
            tables.insert(
                row.id,
                TableEntry::Unloadable {
                    variant,
                    problem: row.problem,
                },
            );
        }
    }
    if startup.restored == 0 && !startup.unloadable.is_empty() {
        startup.warnings.push(format!(
            "{} holds {} but none could be restored: the server starts with no live table",
            config.db.display(),
            match startup.unloadable.len() {
                1 => "1 table".to_string(),
                n => format!("{n} tables"),
            }
        ));
    }
    Ok((server, startup, closing))
}

/// Take closed tables out of the live set (and the store) as they close.
async fn remove_closed(server: Arc<Server>, mut closing: mpsc::UnboundedReceiver<String>) {
    while let Some(id) = closing.recv().await {
        server.remove(&id).await;
    }
}

/// A table request (`POST /tables`).
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct NewTable {
    variant: String,
    #[serde(default)]
    players: Vec<String>,
    #[serde(default)]
    bots: Vec<String>,
    seed: Option<u64>,
    #[serde(default)]
    house_rules: serde_json::Map<String, serde_json::Value>,
    think_ms: Option<u64>,
}

impl Server {
    /// A stored table as a task, and whether its rules changed since it was made; or its
    /// variant and why it cannot be restored.
    fn restore(&self, row: StoredTable) -> Result<(TableTask, bool), (String, String)> {
        let setup: TableSetup = serde_json::from_str(&row.setup)
            .map_err(|e| ("?".to_string(), format!("its setup does not read: {e}")))?;
        let name = setup.variant.clone();
        let fail = |problem: String| (name.clone(), problem);
        let variant = self.variants.get(&name).ok_or_else(|| {
            fail(format!(
                "its variant `{name}` is not among the rules that load"
            ))
        })?;
        let saved: SavedGame = serde_json::from_str(&row.game)
            .map_err(|e| fail(format!("the saved game does not read: {e}")))?;
        let game =
            Game::restore(variant.table().clone(), saved).map_err(|e| fail(e.to_string()))?;
        let bots: Vec<Option<Bot>> = serde_json::from_str(&row.bots)
            .map_err(|e| fail(format!("the saved bots do not read: {e}")))?;
        if bots.len() != setup.seats.len() || game.state.player_count() != setup.seats.len() {
            return Err(fail("the saved game and its seats disagree".into()));
        }
        let changed = self.fingerprints.get(&name) != Some(&setup.fingerprint);
        let task = TableTask::new(
            row.id,
            variant.clone(),
            setup,
            game,
            bots,
            self.store.clone(),
        )
        .closing(self.lifetimes, self.closed.clone());
        Ok((task, changed))
    }

    /// `DELETE /tables/<id>`: a seat's token closes the table, for good.
    async fn delete(&self, id: &str, token: &str) -> Result<(), (axum::http::StatusCode, String)> {
        use axum::http::StatusCode;
        let commands = {
            let tables = self.tables.read().map_err(|_| {
                (
                    StatusCode::INTERNAL_SERVER_ERROR,
                    "the table list is unavailable".to_string(),
                )
            })?;
            match tables.get(id) {
                None => {
                    return Err((StatusCode::NOT_FOUND, format!("there is no table `{id}`")));
                }
                Some(TableEntry::Unloadable { .. }) => None,
                Some(TableEntry::Live {
                    setup, commands, ..
                }) => {
                    let Some(seat) = TableTask::seat_of_token(setup, token) else {
                        return Err((
                            StatusCode::FORBIDDEN,
                            format!(
                                "closing table `{id}` takes one of its seats' tokens (`Authorization: Bearer <token>`)"
                            ),
                        ));
                    };
                    Some((
                        commands.clone(),
                        setup.seats[seat.index()].name().to_string(),
                    ))
                }
            }
        };
        // An unloadable table has no seat to check: only its row's owner (the file) can.
        let Some((commands, by)) = commands else {
            return Err((
                StatusCode::FORBIDDEN,
                format!("table `{id}` could not be restored: remove it from the store file"),
            ));
        };
        let _ = commands
            .send(Command::Close {
                reason: format!("{by} closed this table"),
            })
            .await;
        self.remove(id).await;
        Ok(())
    }

    /// A closed table out of the live set and the store.
    async fn remove(&self, id: &str) {
        if let Ok(mut tables) = self.tables.write() {
            tables.remove(id);
        }
        if let Err(problem) = self.store.delete(id).await {
            eprintln!("table {id}: closed, but its row stays in the store: {problem}");
        }
    }

    fn start(&self, id: String, task: TableTask) {
        let (commands, queue) = mpsc::channel(table::TABLE_QUEUE);
        let entry = TableEntry::Live {
            setup: Arc::new(task.setup().clone()),
            commands,
            status: task.status(),
        };
        if let Ok(mut tables) = self.tables.write() {
            tables.insert(id, entry);
        }
        tokio::spawn(task.run(queue));
    }

    /// Make a table: check the request, deal the game, commit it, start it. Answers the table's
    /// id and each player's token.
    async fn create(&self, request: NewTable) -> Result<(String, Vec<(String, String)>), String> {
        if self.tables.read().map(|t| t.len()).unwrap_or(0) >= self.max_tables {
            return Err(format!(
                "the server holds {} tables, its most: try again when one is removed",
                self.max_tables
            ));
        }
        let variant = self.variants.get(&request.variant).ok_or_else(|| {
            let names: Vec<&str> = self.variants.keys().map(String::as_str).collect();
            let hint = crate::suggest::suggestion(&request.variant, names.iter().copied())
                .map(|s| format!("{s} "))
                .unwrap_or_default();
            format!(
                "unknown variant `{}`: {hint}the variants are {}",
                request.variant,
                names.join(", ")
            )
        })?;
        if request.players.is_empty() {
            return Err("a table needs at least one player in `players`".into());
        }
        let think_ms = request.think_ms.unwrap_or(DEFAULT_THINK_MS);
        if think_ms > MAX_THINK_MS {
            return Err(format!(
                "`think_ms` is at most {MAX_THINK_MS}, not {think_ms}"
            ));
        }
        let range = variant.table().players;
        let count = request.players.len() + request.bots.len();
        if count < range.min || count > range.max {
            return Err(format!(
                "{} is for {} players, not {count}: {} ({} players and {} bots)",
                variant.name,
                range,
                range.bound_for(count),
                request.players.len(),
                request.bots.len()
            ));
        }
        for (i, name) in request.players.iter().enumerate() {
            check_name(name)?;
            if request.players[..i].contains(name) {
                return Err(format!("two players are named `{name}`"));
            }
            // Names that look alike would let one player pass for another in the events.
            if let Some(other) = request.players[..i]
                .iter()
                .find(|other| looks_like(other, name))
            {
                return Err(format!(
                    "`{name}` looks like `{other}`: give the players names that look different"
                ));
            }
        }
        if !request.bots.is_empty() {
            let book = variant
                .bots
                .as_ref()
                .ok_or_else(|| format!("{} has no computer players", variant.name))?;
            for level in &request.bots {
                if !book.levels().any(|l| l == level) {
                    let levels: Vec<&str> = book.levels().collect();
                    return Err(format!(
                        "`{level}` is not a bot level of {}: the levels are {}",
                        variant.name,
                        levels.join(", ")
                    ));
                }
            }
        }
        // A chosen seed fixes the whole deal: whoever knows it can deal the game again and see
        // every hidden card. Only a table where the creator plays alone against bots may have one.
        if request.seed.is_some() && request.players.len() > 1 && !self.allow_seeds {
            return Err(
                "`seed` is for a table of one player and bots: a seed fixes the whole deal, so \
                 whoever chose it could see the other players' cards (a server started with \
                 `--allow-seeds` takes it, and tells every seat)"
                    .into(),
            );
        }
        let mut house = Vec::new();
        for (name, value) in &request.house_rules {
            house.push((name.clone(), house_value(name, value)?));
        }
        // Secrets from the OS's generator (ThreadRng is not Send: none is kept across an await).
        let seed = request.seed.unwrap_or_else(|| rand::rng().random());
        let mut seats = Vec::new();
        let mut tokens = Vec::new();
        for name in &request.players {
            let token = hex(&rand::rng().random::<[u8; 16]>());
            seats.push(SeatSetup::Player {
                name: name.clone(),
                token_sha256: table::token_hash(&token),
            });
            tokens.push((name.clone(), token));
        }
        let mut n = 0;
        for level in &request.bots {
            let name = loop {
                n += 1;
                let name = format!("bot{n}");
                if !request.players.iter().any(|p| looks_like(p, &name)) {
                    break name;
                }
            };
            seats.push(SeatSetup::Bot {
                name,
                level: level.clone(),
            });
        }
        let names: Vec<String> = seats.iter().map(|s| s.name().to_string()).collect();
        let mut game = Game::new(variant.table().clone(), names, seed, &house)
            .map_err(|e| e.to_string())?
            .with_id_key(rand::rng().random());
        game.start(&**variant)
            .map_err(|e| match variant.diagnose(&e) {
                Some(d) => format!("the game could not be dealt: {}", d.message),
                None => format!("the game could not be dealt: {e}"),
            })?;
        let mut bots = Vec::new();
        for (i, seat) in seats.iter().enumerate() {
            bots.push(match seat {
                SeatSetup::Player { .. } => None,
                SeatSetup::Bot { level, .. } => {
                    let seat = Seat(u8::try_from(i).map_err(|_| "too many seats")?);
                    let bot_seed = seed.wrapping_add(i as u64);
                    variant
                        .bots
                        .as_ref()
                        .and_then(|b| b.bot(seat, level, &game, bot_seed))
                }
            });
        }
        let setup = TableSetup {
            variant: variant.name.clone(),
            seats,
            seed,
            house_rules: request.house_rules.clone(),
            think_ms,
            created_ms: std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
                .unwrap_or(0),
            fingerprint: self
                .fingerprints
                .get(&variant.name)
                .cloned()
                .unwrap_or_default(),
            seeded: request.seed.is_some(),
        };
        let id = hex(&rand::rng().random::<[u8; 8]>());
        let task = TableTask::new(
            id.clone(),
            variant.clone(),
            setup,
            game,
            bots,
            self.store.clone(),
        )
        .closing(self.lifetimes, self.closed.clone());
        let row = task
            .stored()
            .map_err(|e| format!("the table does not serialize: {e}"))?;
        self.store
            .insert(row)
            .await
            .map_err(|e| format!("the server could not save the table: {e}"))?;
        self.start(id.clone(), task);
        Ok((id, tokens))
    }
}

/// Whether two names look the same to a reader: the same confusable skeleton (Unicode's
/// UTS #39), case aside.
fn looks_like(a: &str, b: &str) -> bool {
    let skeleton =
        |name: &str| -> String { unicode_security::skeleton(&name.to_lowercase()).collect() };
    skeleton(a) == skeleton(b)
}

fn check_name(name: &str) -> Result<(), String> {
    let ok = !name.is_empty()
        && name.chars().count() <= MAX_NAME_CHARS
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '-');
    if ok {
        Ok(())
    } else {
        Err(format!(
            "`{name}` is not a player name: use 1 to {MAX_NAME_CHARS} letters, digits, `_` or `-`"
        ))
    }
}

fn house_value(name: &str, value: &serde_json::Value) -> Result<Value, String> {
    use serde_json::Value as Json;
    Ok(match value {
        Json::Bool(b) => Value::Bool(*b),
        Json::Number(n) => match n.as_i64() {
            Some(i) => Value::Int(i),
            None => Value::Float(
                n.as_f64()
                    .ok_or_else(|| format!("house rule `{name}`: {n} is out of range"))?,
            ),
        },
        Json::String(s) => Value::Str(s.clone()),
        Json::Array(items) if items.iter().all(|i| !i.is_array() && !i.is_object()) => Value::List(
            items
                .iter()
                .map(|i| house_value(name, i))
                .collect::<Result<Vec<_>, _>>()?,
        ),
        other => {
            return Err(format!(
                "house rule `{name}` takes a boolean, a number or a word, not {other}"
            ));
        }
    })
}

/// A house rule's value as JSON (`GET /variants`).
fn value_json(value: &Value) -> serde_json::Value {
    use serde_json::Value as Json;
    match value {
        Value::Bool(b) => Json::from(*b),
        Value::Int(i) => Json::from(*i),
        Value::Float(x) => Json::from(*x),
        Value::Str(s) => Json::from(s.as_str()),
        Value::List(items) => Json::Array(items.iter().map(value_json).collect()),
        _ => Json::Null,
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
