//! The server's store: every table's setup and saved game in one SQLite file (WAL journal, so a
//! committed write survives the process being killed). One writer thread commits what the
//! tables send it in batches (group commit); a table sends a game's events only after the
//! write that holds them has committed. One server holds a store at a time (an OS lock on
//! `<db>.lock`); the writer checkpoints the WAL into the database file when idle and when the
//! store closes, so a cleanly stopped store is its `.db` file alone; `backup` copies a live
//! store.

use rusqlite::types::ValueRef;
use rusqlite::{Connection, OpenFlags, OptionalExtension, params};
use serde::{Deserialize, Serialize};
use std::fs::{File, TryLockError};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::mpsc as std_mpsc;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;
use tokio::sync::oneshot;

/// The store's schema version (`PRAGMA user_version`).
const SCHEMA_VERSION: i64 = 1;
/// Writes committed in one transaction at most.
const MAX_BATCH: usize = 512;
/// How long the writer waits with nothing to write before it checkpoints the WAL into the
/// database file and truncates it to nothing.
const CHECKPOINT_IDLE: Duration = Duration::from_secs(1);
/// While writes keep coming, SQLite's own passive checkpoint runs after the commit that brings
/// the WAL to this many pages (SQLite's default, named here because the WAL's bound rests on it)…
const WAL_AUTOCHECKPOINT_PAGES: i64 = 1000;
/// …and a WAL file that grew past this many bytes (a backup held it) is cut back to it.
const WAL_SIZE_LIMIT: i64 = 16 << 20;
/// How long a statement waits for a lock another connection holds (a backup reading, or its
/// recovery of the WAL index) before it fails.
const BUSY_TIMEOUT: Duration = Duration::from_secs(2);

/// A store that could not be opened, read or copied.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// SQLite refused (a file that is not a database, a full disk…).
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
    /// Another server holds the store (its lock file is locked).
    #[error(
        "{path} is in use by another deckspec server{}: stop that one first, or give this one another file",
        holder_text(.holder)
    )]
    InUse {
        /// The database file.
        path: String,
        /// The process holding it, when its lock file says.
        holder: Option<u32>,
    },
    /// The file's pages do not read as a database (a damaged disk, a file changed by hand).
    #[error(
        "{path} is damaged ({problem}): start from a backup of it (`deckspec backup` makes one)"
    )]
    Damaged {
        /// The database file.
        path: String,
        /// What SQLite found.
        problem: String,
    },
    /// A database of something else: it has tables, none of them the store's.
    #[error(
        "{path} is not a deckspec store: it holds other tables ({}) and no `tables`",
        tables.join(", ")
    )]
    NotAStore {
        /// The database file.
        path: String,
        /// Its tables.
        tables: Vec<String>,
    },
    /// The store to copy does not exist.
    #[error("{path}: no such file")]
    Missing {
        /// The database file.
        path: String,
    },
    /// A backup's target exists already.
    #[error("{path} exists already: a backup never overwrites a file (remove it or name another)")]
    Exists {
        /// The file named as the copy.
        path: String,
    },
    /// A file beside the database could not be used.
    #[error("{path}: cannot {action}: {source}")]
    Io {
        /// The file.
        path: String,
        /// What was being done.
        action: &'static str,
        /// Why it failed.
        source: std::io::Error,
    },
    /// The writer thread ended without saying why (it panicked).
    #[error("{path}: the store's writer thread stopped unexpectedly")]
    Stopped {
        /// The database file.
        path: String,
    },
}

fn holder_text(holder: &Option<u32>) -> String {
    holder
        .map(|p| format!(" (process {p})"))
        .unwrap_or_default()
}

/// An error of SQLite about `path`: damage is told as such.
fn sqlite_error(path: &str) -> impl Fn(rusqlite::Error) -> StoreError + use<> {
    let path = path.to_string();
    move |source| match source.sqlite_error_code() {
        Some(rusqlite::ErrorCode::DatabaseCorrupt) => StoreError::Damaged {
            path: path.clone(),
            problem: source.to_string(),
        },
        _ => StoreError::Sqlite {
            path: path.clone(),
            source,
        },
    }
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
    /// Whether the creator chose the seed (every seat is told: whoever knows the seed can deal
    /// the game again and see every hidden card).
    #[serde(default)]
    pub seeded: bool,
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

/// A stored row that cannot be read as a table (a column that is not text, say); the server
/// lists it as unloadable and goes on with the rest.
#[derive(Clone, Debug)]
pub struct UnreadableTable {
    /// The table's id (`rowid N` when the id itself is not text).
    pub id: String,
    /// The setup, when that column reads (it names the variant).
    pub setup: Option<String>,
    /// What is wrong with the row.
    pub problem: String,
}

/// An open store and what it held.
pub struct Opened {
    /// The handle to the writer.
    pub store: Store,
    /// Every table that reads, in the order they were made.
    pub tables: Vec<StoredTable>,
    /// The rows that do not.
    pub unreadable: Vec<UnreadableTable>,
    /// What the person starting the server should know (a WAL that SQLite discarded).
    pub warnings: Vec<String>,
}

enum Job {
    Insert(StoredTable, oneshot::Sender<Result<(), String>>),
    Save(StoredTable, oneshot::Sender<Result<(), String>>),
    Delete(String, oneshot::Sender<Result<(), String>>),
    /// Write what is queued, checkpoint, close.
    Close,
}

/// A handle to the writer thread; cheap to clone.
#[derive(Clone)]
pub struct Store {
    jobs: std_mpsc::Sender<Job>,
    writer: Arc<Writer>,
}

struct Writer {
    /// The database file, for errors.
    path: String,
    /// Taken by the first `close`.
    thread: Mutex<Option<JoinHandle<rusqlite::Result<()>>>>,
}

/// The lock file beside a store, `<db>.lock`: a server holds an OS lock on it (released when
/// the process ends, however it ends) while the store is open.
pub fn lock_path(db: &Path) -> PathBuf {
    let mut name = db.as_os_str().to_owned();
    name.push(".lock");
    PathBuf::from(name)
}

/// The store's WAL, `<db>-wal`.
fn wal_path(db: &Path) -> PathBuf {
    let mut name = db.as_os_str().to_owned();
    name.push("-wal");
    PathBuf::from(name)
}

/// Take the store's lock, or say who holds it. The holder's process id is written in the file.
fn lock(db: &Path, name: &str) -> Result<File, StoreError> {
    let path = lock_path(db);
    let io = |action, source| StoreError::Io {
        path: path.display().to_string(),
        action,
        source,
    };
    let mut file = File::options()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(&path)
        .map_err(|e| io("open the store's lock file", e))?;
    match file.try_lock() {
        Ok(()) => {}
        Err(TryLockError::WouldBlock) => {
            let mut holder = String::new();
            let _ = file.read_to_string(&mut holder);
            return Err(StoreError::InUse {
                path: name.to_string(),
                holder: holder.trim().parse().ok(),
            });
        }
        Err(TryLockError::Error(e)) => return Err(io("lock the store's lock file", e)),
    }
    // Only for the message a second server prints; the lock is the OS's.
    let _ = file
        .set_len(0)
        .and_then(|()| writeln!(file, "{}", std::process::id()));
    Ok(file)
}

impl Store {
    /// Lock the store (refused with `StoreError::InUse` when another server holds it), open (or
    /// create) the database, check its pages and read every table; start the writer thread.
    pub fn open(path: &Path) -> Result<Opened, StoreError> {
        let name = path.display().to_string();
        let sqlite = sqlite_error(&name);
        let lock = lock(path, &name)?;
        // A WAL with bytes in it must hold at least one frame SQLite accepts (a clean stop
        // leaves none, an idle checkpoint truncates it to nothing): else it was discarded.
        let wal_bytes = std::fs::metadata(wal_path(path)).map_or(0, |m| m.len());
        let connection = Connection::open(path).map_err(&sqlite)?;
        connection.busy_timeout(BUSY_TIMEOUT).map_err(&sqlite)?;
        let names: Vec<String> = {
            let mut statement = connection
                .prepare(
                    "SELECT name FROM sqlite_schema
                     WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'
                     ORDER BY name",
                )
                .map_err(&sqlite)?;
            statement
                .query_map([], |r| r.get(0))
                .map_err(&sqlite)?
                .collect::<rusqlite::Result<_>>()
                .map_err(&sqlite)?
        };
        if !names.is_empty() && !names.iter().any(|t| t == "tables") {
            return Err(StoreError::NotAStore {
                path: name,
                tables: names,
            });
        }
        let version: i64 = connection
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .map_err(&sqlite)?;
        if version > SCHEMA_VERSION {
            return Err(StoreError::NewerSchema {
                path: name,
                found: version,
            });
        }
        check_pages(&connection, &name)?;
        let mut warnings = Vec::new();
        // Whatever the WAL holds goes into the database file now (a killed server's last
        // commits); its frame count, before anything is written, says whether SQLite took any
        // of it.
        let frames: i64 = connection
            .query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |r| r.get(1))
            .map_err(&sqlite)?;
        if wal_bytes > 0 && frames <= 0 {
            warnings.push(format!(
                "{} held {wal_bytes} bytes that are not a journal SQLite can read (damaged, or \
                 from another database): they were discarded, with any change only they held",
                wal_path(path).display()
            ));
        }
        // WAL with synchronous=NORMAL: a commit is durable once written to the journal, which a
        // killed process cannot undo (only a power cut can lose the last commits).
        connection
            .execute_batch(&format!(
                "PRAGMA journal_mode = WAL;
                 PRAGMA synchronous = NORMAL;
                 PRAGMA wal_autocheckpoint = {WAL_AUTOCHECKPOINT_PAGES};
                 PRAGMA journal_size_limit = {WAL_SIZE_LIMIT};
                 CREATE TABLE IF NOT EXISTS tables (
                     id TEXT PRIMARY KEY,
                     setup TEXT NOT NULL,
                     game TEXT NOT NULL,
                     bots TEXT NOT NULL
                 );
                 PRAGMA user_version = {SCHEMA_VERSION};"
            ))
            .map_err(&sqlite)?;
        let mut tables = Vec::new();
        let mut unreadable = Vec::new();
        {
            let mut statement = connection
                .prepare("SELECT rowid, id, setup, game, bots FROM tables ORDER BY rowid")
                .map_err(&sqlite)?;
            let mut query = statement.query([]).map_err(&sqlite)?;
            while let Some(row) = query.next().map_err(&sqlite)? {
                match read_row(row) {
                    Ok(table) => tables.push(table),
                    Err(bad) => unreadable.push(bad),
                }
            }
        }
        let (jobs, queue) = std_mpsc::channel();
        let thread = std::thread::Builder::new()
            .name("deckspec-store".into())
            .spawn(move || write_loop(connection, queue, lock))
            .map_err(|source| StoreError::Io {
                path: name.clone(),
                action: "start the store's writer thread",
                source,
            })?;
        let writer = Arc::new(Writer {
            path: name,
            thread: Mutex::new(Some(thread)),
        });
        Ok(Opened {
            store: Store { jobs, writer },
            tables,
            unreadable,
            warnings,
        })
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

    /// Remove a table's row (a table that was closed); answers once committed. A table the
    /// store does not hold is no error.
    pub async fn delete(&self, id: &str) -> Result<(), String> {
        let (done, answer) = oneshot::channel();
        self.send(Job::Delete(id.to_string(), done))?;
        answer.await.map_err(|_| "the store stopped".to_string())?
    }

    /// Stop the store (every handle): the writer commits what is queued, checkpoints the WAL
    /// into the database file (truncating it), closes the database and releases the lock;
    /// answers once that is done. A write sent after it is answered "the store stopped". The
    /// store is closed this way too when every handle is dropped, without anyone waiting.
    pub fn close(&self) -> Result<(), StoreError> {
        let thread = self.writer.thread.lock().ok().and_then(|mut t| t.take());
        let Some(thread) = thread else {
            return Ok(());
        };
        let _ = self.jobs.send(Job::Close);
        match thread.join() {
            Ok(result) => result.map_err(sqlite_error(&self.writer.path)),
            Err(_) => Err(StoreError::Stopped {
                path: self.writer.path.clone(),
            }),
        }
    }

    fn send(&self, job: Job) -> Result<(), String> {
        self.jobs
            .send(job)
            .map_err(|_| "the store stopped".to_string())
    }
}

/// `PRAGMA quick_check`: every page of the file reads (a few problems named when not).
fn check_pages(connection: &Connection, name: &str) -> Result<(), StoreError> {
    let mut statement = connection
        .prepare("PRAGMA quick_check(3)")
        .map_err(sqlite_error(name))?;
    let found: Vec<String> = statement
        .query_map([], |r| r.get(0))
        .map_err(sqlite_error(name))?
        .collect::<rusqlite::Result<_>>()
        .map_err(sqlite_error(name))?;
    if found.len() == 1 && found[0] == "ok" {
        return Ok(());
    }
    Err(StoreError::Damaged {
        path: name.to_string(),
        problem: found.join("; "),
    })
}

/// A row as a table, or what is wrong with it.
fn read_row(row: &rusqlite::Row) -> Result<StoredTable, UnreadableTable> {
    let text = |index: usize, column: &str| -> Result<String, String> {
        let kind = match row.get_ref(index) {
            Ok(ValueRef::Text(bytes)) => {
                return String::from_utf8(bytes.to_vec())
                    .map_err(|e| format!("its `{column}` is not UTF-8 text ({e})"));
            }
            Ok(ValueRef::Null) => "null",
            Ok(ValueRef::Integer(_)) => "an integer",
            Ok(ValueRef::Real(_)) => "a real number",
            Ok(ValueRef::Blob(_)) => "a blob",
            Err(e) => return Err(format!("its `{column}` does not read ({e})")),
        };
        Err(format!("its `{column}` is {kind}, not text"))
    };
    let rowid: i64 = row.get(0).unwrap_or(0);
    let (id, id_problem) = match text(1, "id") {
        Ok(id) => (id, None),
        Err(problem) => (format!("rowid {rowid}"), Some(problem)),
    };
    let setup = text(2, "setup");
    let game = text(3, "game");
    let bots = text(4, "bots");
    let problems: Vec<String> = [&setup, &game, &bots]
        .into_iter()
        .filter_map(|r| r.as_ref().err().cloned())
        .chain(id_problem)
        .collect();
    match (setup, game, bots) {
        (Ok(setup), Ok(game), Ok(bots)) if problems.is_empty() => Ok(StoredTable {
            id,
            setup,
            game,
            bots,
        }),
        (setup, _, _) => Err(UnreadableTable {
            id,
            setup: setup.ok(),
            problem: problems.join("; "),
        }),
    }
}

/// The writer: commits the jobs in batches and answers each; checkpoints the WAL after a quiet
/// moment; on `Close` (or when every handle is gone) writes what is queued, checkpoints,
/// closes the database and then releases the lock.
fn write_loop(
    mut connection: Connection,
    queue: std_mpsc::Receiver<Job>,
    lock: File,
) -> rusqlite::Result<()> {
    // Commits since the WAL was last emptied.
    let mut unflushed = false;
    let mut closing = false;
    loop {
        let first = if closing {
            // What the tables sent before the close (each waits for its answer before it
            // sends again, so this ends).
            match queue.try_recv() {
                Ok(job) => job,
                Err(_) => break,
            }
        } else if unflushed {
            match queue.recv_timeout(CHECKPOINT_IDLE) {
                Ok(job) => job,
                Err(std_mpsc::RecvTimeoutError::Timeout) => {
                    unflushed = !checkpoint_when_idle(&connection);
                    continue;
                }
                Err(std_mpsc::RecvTimeoutError::Disconnected) => break,
            }
        } else {
            match queue.recv() {
                Ok(job) => job,
                Err(_) => break,
            }
        };
        let mut batch = Vec::new();
        let mut next = Some(first);
        while let Some(job) = next {
            match job {
                Job::Close => closing = true,
                job => batch.push(job),
            }
            next = if batch.len() < MAX_BATCH {
                queue.try_recv().ok()
            } else {
                None
            };
        }
        if batch.is_empty() {
            continue;
        }
        let results = write_batch(&mut connection, &batch);
        for (job, result) in batch.into_iter().zip(results) {
            if let Job::Insert(_, done) | Job::Save(_, done) | Job::Delete(_, done) = job {
                let _ = done.send(result);
            }
        }
        unflushed = true;
    }
    // A write sent from now on is refused ("the store stopped").
    drop(queue);
    // Everything into the database file, the WAL truncated; closing the last connection then
    // removes the WAL and its index. (A backup reading at this moment keeps the WAL: the next
    // open takes it in.)
    let checkpoint = connection
        .query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |r| {
            r.get::<_, i64>(0)
        })
        .map(drop);
    let closed = connection.close().map_err(|(_, e)| e);
    let _ = lock.set_len(0);
    drop(lock);
    checkpoint.and(closed)
}

/// Checkpoint the whole WAL into the database file and truncate it, without waiting for a
/// reader (a backup) that holds part of it; whether it was done.
fn checkpoint_when_idle(connection: &Connection) -> bool {
    if connection.busy_timeout(Duration::ZERO).is_err() {
        return false;
    }
    let done = connection
        .query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |r| {
            r.get::<_, i64>(0)
        })
        .is_ok_and(|busy| busy == 0);
    let _ = connection.busy_timeout(BUSY_TIMEOUT);
    done
}

/// One transaction for the batch, each job in a savepoint of its own: a job that fails (a save
/// of a table deleted meanwhile) is undone alone and answered its error; the rest commit.
fn write_batch(connection: &mut Connection, batch: &[Job]) -> Vec<Result<(), String>> {
    let mut transaction = match connection.transaction() {
        Ok(t) => t,
        Err(e) => return vec![Err(e.to_string()); batch.len()],
    };
    let mut results = Vec::with_capacity(batch.len());
    for job in batch {
        let result = transaction.savepoint().and_then(|savepoint| {
            let written = write_job(&savepoint, job)?;
            savepoint.commit()?;
            Ok(written)
        });
        results.push(match result {
            Ok(written) => written,
            Err(e) => Err(e.to_string()),
        });
    }
    if let Err(e) = transaction.commit() {
        return vec![Err(e.to_string()); batch.len()];
    }
    results
}

/// One job's statement: an SQLite error undoes the job's savepoint, a refusal does not need to.
fn write_job(connection: &Connection, job: &Job) -> rusqlite::Result<Result<(), String>> {
    match job {
        Job::Insert(t, _) => {
            connection
                .prepare_cached(
                    "INSERT INTO tables (id, setup, game, bots) VALUES (?1, ?2, ?3, ?4)",
                )?
                .execute(params![t.id, t.setup, t.game, t.bots])?;
        }
        Job::Save(t, _) => {
            let changed = connection
                .prepare_cached("UPDATE tables SET game = ?2, bots = ?3 WHERE id = ?1")?
                .execute(params![t.id, t.game, t.bots])?;
            if changed != 1 {
                return Ok(Err(format!("the store holds no table `{}`", t.id)));
            }
        }
        Job::Delete(id, _) => {
            connection
                .prepare_cached("DELETE FROM tables WHERE id = ?1")?
                .execute(params![id])?;
        }
        Job::Close => {}
    }
    Ok(Ok(()))
}

/// Copy a store, live or not, to a new file `to`: one consistent moment of it (`VACUUM INTO`,
/// a read transaction, so a server holding the store goes on writing meanwhile). Never
/// overwrites: an existing `to` is refused. Answers how many tables the copy holds.
pub fn backup(db: &Path, to: &Path) -> Result<usize, StoreError> {
    let name = db.display().to_string();
    let target = to.display().to_string();
    if !db.is_file() {
        return Err(StoreError::Missing { path: name });
    }
    if std::fs::symlink_metadata(to).is_ok() {
        return Err(StoreError::Exists { path: target });
    }
    let io = |action, source| StoreError::Io {
        path: target.clone(),
        action,
        source,
    };
    // Written under a name of its own, then linked to `to`, which fails if `to` appeared
    // meanwhile: a half-written copy is never `to`, and nothing is overwritten. The name is
    // absolute, so SQLite never reads it as a `file:` URI.
    let mut partial = std::path::absolute(to)
        .map_err(|e| io("name the copy", e))?
        .into_os_string();
    partial.push(format!(".partial-{}", std::process::id()));
    let partial = PathBuf::from(partial);
    let partial_text = partial.to_str().ok_or_else(|| {
        io(
            "name the copy",
            std::io::Error::new(std::io::ErrorKind::InvalidInput, "the path is not UTF-8"),
        )
    })?;
    let sqlite = sqlite_error(&name);
    {
        // Not created if missing, and no lock of ours: the server holding the store goes on.
        let connection = Connection::open_with_flags(
            db,
            OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )
        .map_err(&sqlite)?;
        connection.busy_timeout(BUSY_TIMEOUT).map_err(&sqlite)?;
        let stores: i64 = connection
            .query_row(
                "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'tables'",
                [],
                |r| r.get(0),
            )
            .map_err(&sqlite)?;
        if stores == 0 {
            return Err(StoreError::NotAStore {
                path: name,
                tables: Vec::new(),
            });
        }
        if let Err(e) = connection.execute("VACUUM INTO ?1", [partial_text]) {
            let _ = std::fs::remove_file(&partial);
            // The copy's file could not be made or written (its folder, the disk): told by its
            // name; anything else is about the store read.
            let writing = matches!(
                e.sqlite_error_code(),
                Some(
                    rusqlite::ErrorCode::CannotOpen
                        | rusqlite::ErrorCode::DiskFull
                        | rusqlite::ErrorCode::PermissionDenied
                        | rusqlite::ErrorCode::ReadOnly
                )
            );
            return Err(if writing {
                sqlite_error(&target)(e)
            } else {
                sqlite(e)
            });
        }
    }
    let placed = File::open(&partial)
        .and_then(|f| f.sync_all())
        .map_err(|e| io("write the copy", e))
        .and_then(|()| match std::fs::hard_link(&partial, to) {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Err(StoreError::Exists {
                path: target.clone(),
            }),
            // A file system without hard links: checked, then renamed.
            Err(_) if std::fs::symlink_metadata(to).is_err() => {
                std::fs::rename(&partial, to).map_err(|e| io("write the copy", e))
            }
            Err(_) => Err(StoreError::Exists {
                path: target.clone(),
            }),
        });
    let _ = std::fs::remove_file(&partial);
    placed?;
    let copy = Connection::open_with_flags(to, OpenFlags::SQLITE_OPEN_READ_ONLY)
        .map_err(sqlite_error(&target))?;
    let count: i64 = copy
        .query_row("SELECT count(*) FROM tables", [], |r| r.get(0))
        .map_err(sqlite_error(&target))?;
    Ok(usize::try_from(count).unwrap_or(0))
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
