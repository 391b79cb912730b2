//! The server's store: every table's setup and saved game in one SQLite file (WAL journal, so a
//! committed write survives the process being killed). One writer thread commits what the
//! tables send it in batches (group commit); a table sends a game's events only after the
//! write that holds them has committed.

use rusqlite::{Connection, OptionalExtension, params};
use serde::{Deserialize, Serialize};
use std::path::Path;
use std::sync::mpsc as std_mpsc;
use tokio::sync::oneshot;

/// The store's schema version (`PRAGMA user_version`).
const SCHEMA_VERSION: i64 = 1;
/// Writes committed in one transaction at most.
const MAX_BATCH: usize = 512;

/// A store that could not be opened or read.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// SQLite refused (a file that is not a database, a full disk, a locked file…).
    #[error("{path}: {source}")]
    Sqlite {
        /// The database file.
        path: String,
        /// What SQLite said.
        source: rusqlite::Error,
    },
    /// A database written by a newer deckspec.
    #[error(
        "{path}: written by a newer deckspec (store version {found}; this one reads {SCHEMA_VERSION})"
    )]
    NewerSchema {
        /// The database file.
        path: String,
        /// Its version.
        found: i64,
    },
}

/// How a seat was filled when the table was made.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum SeatSetup {
    /// A person (or a program) connecting with a token; the store keeps the token's SHA-256.
    Player {
        /// The player's name, as events show it.
        name: String,
        /// SHA-256 of the seat's token, in hex.
        token_sha256: String,
    },
    /// A computer player of the variant's `bots.yaml`.
    Bot {
        /// Its name at the table.
        name: String,
        /// Its level.
        level: String,
    },
}

impl SeatSetup {
    /// The name the seat plays under.
    pub fn name(&self) -> &str {
        match self {
            SeatSetup::Player { name, .. } | SeatSetup::Bot { name, .. } => name,
        }
    }
}

/// What a table was made with (never changes after).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TableSetup {
    /// The variant's name.
    pub variant: String,
    /// Seat by seat.
    pub seats: Vec<SeatSetup>,
    /// The game's seed.
    pub seed: u64,
    /// House rules as the request gave them.
    pub house_rules: serde_json::Map<String, serde_json::Value>,
    /// Milliseconds a bot waits before acting.
    pub think_ms: u64,
    /// Milliseconds since the Unix epoch when the table was made.
    pub created_ms: u64,
    /// The rules' fingerprint when the table was made (`sim::rules_fingerprint`).
    pub fingerprint: String,
}

/// A table as the store holds it.
#[derive(Clone, Debug)]
pub struct StoredTable {
    /// The table's id.
    pub id: String,
    /// The setup, as JSON text (decoded by the caller, who reports what does not decode).
    pub setup: String,
    /// The saved game (`kernel::SavedGame`), as JSON text.
    pub game: String,
    /// The bots' state, seat by seat (`null` for a player's seat), as JSON text.
    pub bots: String,
}

enum Job {
    Insert(StoredTable, oneshot::Sender<Result<(), String>>),
    Save(StoredTable, oneshot::Sender<Result<(), String>>),
}

/// A handle to the writer thread; cheap to clone.
#[derive(Clone)]
pub struct Store {
    jobs: std_mpsc::Sender<Job>,
}

impl Store {
    /// Open (or create) the database and read every table; start the writer thread.
    pub fn open(path: &Path) -> Result<(Store, Vec<StoredTable>), StoreError> {
        let name = path.display().to_string();
        let sqlite = |source| StoreError::Sqlite {
            path: name.clone(),
            source,
        };
        let connection = Connection::open(path).map_err(sqlite)?;
        let version: i64 = connection
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .map_err(sqlite)?;
        if version > SCHEMA_VERSION {
            return Err(StoreError::NewerSchema {
                path: name,
                found: version,
            });
        }
        // WAL with synchronous=NORMAL: a commit is durable once written to the journal, which a
        // killed process cannot undo (only a power cut can lose the last commits).
        connection
            .execute_batch(
                "PRAGMA journal_mode = WAL;
                 PRAGMA synchronous = NORMAL;
                 PRAGMA busy_timeout = 5000;
                 CREATE TABLE IF NOT EXISTS tables (
                     id TEXT PRIMARY KEY,
                     setup TEXT NOT NULL,
                     game TEXT NOT NULL,
                     bots TEXT NOT NULL
                 );
                 PRAGMA user_version = 1;",
            )
            .map_err(sqlite)?;
        let mut rows = Vec::new();
        {
            let mut statement = connection
                .prepare("SELECT id, setup, game, bots FROM tables ORDER BY rowid")
                .map_err(sqlite)?;
            let mut query = statement.query([]).map_err(sqlite)?;
            while let Some(row) = query.next().map_err(sqlite)? {
                rows.push(StoredTable {
                    id: row.get(0).map_err(sqlite)?,
                    setup: row.get(1).map_err(sqlite)?,
                    game: row.get(2).map_err(sqlite)?,
                    bots: row.get(3).map_err(sqlite)?,
                });
            }
        }
        let (jobs, queue) = std_mpsc::channel();
        std::thread::Builder::new()
            .name("deckspec-store".into())
            .spawn(move || write_loop(connection, queue))
            .map_err(|e| StoreError::Sqlite {
                path: path.display().to_string(),
                source: rusqlite::Error::ToSqlConversionFailure(Box::new(e)),
            })?;
        Ok((Store { jobs }, rows))
    }

    /// Add a new table; answers once committed.
    pub async fn insert(&self, table: StoredTable) -> Result<(), String> {
        let (done, answer) = oneshot::channel();
        self.send(Job::Insert(table, done))?;
        answer.await.map_err(|_| "the store stopped".to_string())?
    }

    /// Replace a table's game and bots (its `setup` is not written: it never changes); answers
    /// once committed.
    pub async fn save(&self, table: StoredTable) -> Result<(), String> {
        let (done, answer) = oneshot::channel();
        self.send(Job::Save(table, done))?;
        answer.await.map_err(|_| "the store stopped".to_string())?
    }

    fn send(&self, job: Job) -> Result<(), String> {
        self.jobs
            .send(job)
            .map_err(|_| "the store stopped".to_string())
    }
}

fn write_loop(mut connection: Connection, queue: std_mpsc::Receiver<Job>) {
    while let Ok(first) = queue.recv() {
        let mut batch = vec![first];
        while batch.len() < MAX_BATCH {
            match queue.try_recv() {
                Ok(job) => batch.push(job),
                Err(_) => break,
            }
        }
        let result = write_batch(&mut connection, &batch).map_err(|e| e.to_string());
        for job in batch {
            let (Job::Insert(_, done) | Job::Save(_, done)) = job;
            let _ = done.send(result.clone());
        }
    }
}

fn write_batch(connection: &mut Connection, batch: &[Job]) -> rusqlite::Result<()> {
    let transaction = connection.transaction()?;
    for job in batch {
        match job {
            Job::Insert(t, _) => {
                transaction
                    .prepare_cached(
                        "INSERT INTO tables (id, setup, game, bots) VALUES (?1, ?2, ?3, ?4)",
                    )?
                    .execute(params![t.id, t.setup, t.game, t.bots])?;
            }
            Job::Save(t, _) => {
                let changed = transaction
                    .prepare_cached("UPDATE tables SET game = ?2, bots = ?3 WHERE id = ?1")?
                    .execute(params![t.id, t.game, t.bots])?;
                if changed != 1 {
                    return Err(rusqlite::Error::QueryReturnedNoRows);
                }
            }
        }
    }
    transaction.commit()
}

/// A table's stored row, read directly (for tests and tools; the server reads all at start).
pub fn read_table(path: &Path, id: &str) -> rusqlite::Result<Option<StoredTable>> {
    let connection = Connection::open(path)?;
    connection
        .query_row(
            "SELECT id, setup, game, bots FROM tables WHERE id = ?1",
            params![id],
            |row| {
                Ok(StoredTable {
                    id: row.get(0)?,
                    setup: row.get(1)?,
                    game: row.get(2)?,
                    bots: row.get(3)?,
                })
            },
        )
        .optional()
}
